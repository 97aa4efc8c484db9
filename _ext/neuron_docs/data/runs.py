"""Queries over benchmark runs: the instance a run ran on, run filters, the best run and its cost.

The cost per 1M inferences is computed here and nowhere else (:func:`run_cost`): the figures of
:mod:`.values`, the benchmark tables and the charts all take it from this module. No Sphinx here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from . import schema as s
    from .catalog import Catalog

#: The data files a page showing inference runs reads (tables and charts alike).
BENCH_FILES = ("benchmarks/inference.csv", "models.yaml", "instances.yaml", "devices.yaml", "sources.yaml")


def cost_per_million(price_per_hour: float, throughput_per_s: float) -> float:
    """USD per 1M inferences: hourly price / (throughput x 3600) x 10^6."""
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
