"""Queries over benchmark runs: the instance a run ran on, run filters, the best run, and the formula
of a cost per 1M (:func:`cost_per_million`).

The costs themselves are derived once per build by the data set's :class:`~.derived.Derived`: of a
seed run per 1M inferences at its instance's on-demand price, of a published run per 1M of its
throughput's unit at a price of an explicit basis. No Sphinx here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..catalog import Catalog
    from ..records import models as s
    from .derived import Derived

#: The data files a page showing inference runs reads (tables and charts alike).
BENCH_FILES = ("benchmarks/inference.csv", "models.yaml", "instances.yaml", "devices.yaml", "sources.yaml")


def cost_per_million(price_per_hour: float, throughput_per_s: float) -> float:
    """USD per 1M units of the throughput (inferences, tokens, ...): hourly price / (throughput x 3600) x 10^6."""
    return price_per_hour / (throughput_per_s * 3600.0) * 1_000_000.0


def run_instance(catalog: Catalog, run: s.InferenceRun | s.AccuracyRun) -> s.Instance:
    """The instance a run (inference or accuracy) ran on."""
    return catalog.instances[catalog.environments[run.environment].instance]


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


def best_runs(derived: Derived, runs: Iterable[s.InferenceRun]) -> list[BestRun]:
    """Per (model, variant, instance), in order of first appearance, the run with the best throughput."""
    catalog = derived.catalog
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
        cost = derived.seed_cost(run)
        assert cost is not None  # runs without a throughput were skipped
        out.append(BestRun(model_id, variant, catalog.instances[instance_id], run, cost))
    return out

