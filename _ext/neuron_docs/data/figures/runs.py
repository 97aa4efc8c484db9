"""Queries over benchmark runs: the instance a run ran on, run filters, the best run and its cost.

Every cost per 1M is computed here and nowhere else (:func:`cost_per_million`): of a seed run per 1M
inferences at its instance's on-demand price (:func:`run_cost`), of a published run per 1M of its
throughput's unit (inferences, images, tokens, output tokens, training sequences) at a price of an
explicit basis (:func:`published_cost`). The figures of :mod:`.values`, the tables and the charts
all take it from this module. No Sphinx here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .prices import PUBLISHED_PRICE_BASIS, PriceQuote, price_for

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..records import published as ps
    from ..records import models as s
    from ..catalog import Catalog

#: The data files a page showing inference runs reads (tables and charts alike).
BENCH_FILES = ("benchmarks/inference.csv", "models.yaml", "instances.yaml", "devices.yaml", "sources.yaml")


def cost_per_million(price_per_hour: float, throughput_per_s: float) -> float:
    """USD per 1M units of the throughput (inferences, tokens, ...): hourly price / (throughput x 3600) x 10^6."""
    return price_per_hour / (throughput_per_s * 3600.0) * 1_000_000.0


def run_instance(catalog: Catalog, run: s.InferenceRun | s.AccuracyRun) -> s.Instance:
    """The instance a run (inference or accuracy) ran on."""
    return catalog.instances[catalog.environments[run.environment].instance]


def run_cost(catalog: Catalog, run: s.InferenceRun) -> float | None:
    """USD per 1M inferences at the run's throughput and its instance's on-demand price."""
    if run.throughput_per_s is None:
        return None
    return cost_per_million(run_instance(catalog, run).price.usd_per_hour, run.throughput_per_s)


def filter_runs[R: (s.InferenceRun, s.AccuracyRun)](catalog: Catalog, runs: Iterable[R], models: Sequence[str],
                                                     instances: Sequence[str], devices: Sequence[str]) -> list[R]:
    """The ``runs`` of the given models, on the given instances and devices (an empty filter keeps all)."""
    out = []
    for run in runs:
        instance = run_instance(catalog, run)
        if ((not models or run.model in models) and (not instances or instance.id in instances)
                and (not devices or instance.device in devices)):
            out.append(run)
    return out


@dataclass(frozen=True)
class BestRun:
    """The run with the best measured throughput of a model (variant) on an instance, and its cost."""

    model: str
    variant: str
    instance: s.Instance
    run: s.InferenceRun
    #: USD per 1M inferences at that throughput and the instance's on-demand price.
    cost: float


def best_runs(catalog: Catalog, runs: Iterable[s.InferenceRun]) -> list[BestRun]:
    """Per (model, variant, instance), in order of first appearance, the run with the best throughput."""
    best: dict[tuple[str, str, str], s.InferenceRun] = {}
    for run in runs:
        if run.throughput_per_s is None:
            continue
        key = (run.model, run.variant or "", run_instance(catalog, run).id)
        incumbent = best.get(key)
        if incumbent is None or run.throughput_per_s > (incumbent.throughput_per_s or 0.0):
            best[key] = run
    out = []
    for (model_id, variant, instance_id), run in best.items():
        cost = run_cost(catalog, run)
        assert cost is not None  # runs without a throughput were skipped
        out.append(BestRun(model_id, variant, catalog.instances[instance_id], run, cost))
    return out


@dataclass(frozen=True)
class PublishedCost:
    """The cost of a published run: USD per 1M units of its throughput, and the price it used."""

    usd: float
    #: What the cost is per: "1M inferences", "1M output tokens", "1M training sequences", ...
    per: str
    price: PriceQuote
    #: Instances the price is paid for (a training run's nodes).
    instances: int = 1


def published_cost(catalog: Catalog, run: ps.PublishedInferenceRun | ps.PublishedTrainingRun,
                   basis: str = PUBLISHED_PRICE_BASIS) -> PublishedCost | None:
    """Cost per 1M units of ``run``'s throughput at the price of ``basis`` of its instance (a training
    run: the first of its instance types with such a price, times its nodes); None without a price."""
    found = run.throughput()
    per = run.cost_basis
    if found is None or per is None:
        return None
    table = catalog.published_tables.get(run.table)
    generation = table.generation if table else None
    candidates = run.instances if hasattr(run, "instances") else [run.instance]
    quote = next((q for i in candidates if (q := price_for(catalog, i, basis, generation)) is not None), None)
    if quote is None:
        return None
    nodes = getattr(run, "nodes", 1)
    return PublishedCost(cost_per_million(quote.usd_per_hour * nodes, float(found[1])), per, quote, nodes)
