"""Queries over benchmark runs: the instance a run ran on, run filters, and the formula of a cost
per 1M (:func:`cost_per_million`, the one place it is written; :func:`cost_formula` is the same in
words, as the price notes print it; ``tests/test_one_formula.py`` fails on a second copy).
:class:`CostFigure` is the one record of such a cost (:func:`costed` makes it): a published run's at
today's price of a basis, and a benchmark history release's at the price in force then.

The costs themselves, and the best run of a model on an instance, are derived once per build by the
data set's :class:`~.derived.Derived`: of a seed run per 1M inferences at its instance's on-demand
price, of a published run per 1M of its throughput's unit at a price of an explicit basis. No Sphinx here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from decimal import Decimal

    from ..catalog import Catalog
    from ..records import models as s

#: The data files a page showing inference runs reads (tables and charts alike).
BENCH_FILES = ("benchmarks/inference.csv", "models.yaml", "instances.yaml", "devices.yaml", "sources.yaml")


#: Seconds in the hour a price is quoted for.
SECONDS_PER_HOUR = 3600.0
#: What a cost is per: a million units of the throughput.
PER_MILLION = 1_000_000.0


def cost_per_million(price_per_hour: float, throughput_per_s: float, instances: int = 1) -> float:
    """USD per 1M units of the throughput (inferences, tokens, ...) of ``instances`` instances (a
    training run's nodes) at ``price_per_hour`` each: hourly price x instances / (throughput x 3600) x 10^6."""
    return price_per_hour * instances / (throughput_per_s * SECONDS_PER_HOUR) * PER_MILLION


class HourlyPrice(Protocol):
    """A price a cost can be computed from: a :class:`~.prices.PriceQuote` or a benchmark history's
    :class:`~neuron_docs.data.records.history.HistoricalPrice`."""

    @property
    def usd_per_hour(self) -> float | Decimal: ...


@dataclass(frozen=True)
class CostFigure[P: HourlyPrice]:
    """A cost derived from an hourly price and a throughput: USD per 1M units of the throughput, and
    the price it used."""

    usd: float
    #: What the cost is per: "1M inferences", "1M output tokens", "1M training sequences", ...
    per: str
    price: P
    #: Instances the price is paid for (a training run's nodes).
    instances: int = 1

    @property
    def nodes_text(self) -> str:
        """The instances the price is paid for, as a price note ends: `` x 32 nodes`` (one: nothing)."""
        return f" x {self.instances} nodes" if self.instances > 1 else ""


def costed[P: HourlyPrice](price: P, throughput_per_s: float, per: str, instances: int = 1) -> CostFigure[P]:
    """The cost of ``throughput_per_s`` units a second at ``price`` for each of ``instances`` instances
    (:func:`cost_per_million`), with what it is per and the price it used."""
    return CostFigure(cost_per_million(float(price.usd_per_hour), throughput_per_s, instances), per, price, instances)


def cost_formula(*, nodes: bool = False) -> str:
    """:func:`cost_per_million` in words, as a table's price note prints it (``nodes``: the price is
    paid for each of a training run's nodes)."""
    per = "x nodes " if nodes else ""
    return f"Cost per 1M = 10^6 / throughput x hourly price {per}/ {SECONDS_PER_HOUR:g}"


def first_priced[Q](instances: Iterable[str], price_of: Callable[[str], Q | None]) -> Q | None:
    """The price of the first of ``instances`` that has one (a training run names several instance
    types; its cost uses the first priced one), or None."""
    return next((quote for instance in instances if (quote := price_of(instance)) is not None), None)


def run_instance(catalog: Catalog, run: s.InferenceRun | s.AccuracyRun) -> s.Instance | None:
    """The instance a run (inference or accuracy) ran on; None when its environment, or the
    environment's instance, is not in the data (a reference the validation refuses: should one come
    through, the run is left out of every table, chart and figure, and :func:`unplaced_runs` names it)."""
    environment = catalog.environments.get(run.environment)
    return catalog.instances.get(environment.instance) if environment is not None else None


def unplaced_runs(catalog: Catalog, runs: Iterable[s.InferenceRun | s.AccuracyRun]) -> dict[str, list[str]]:
    """The ``runs`` whose instance is unknown (:func:`run_instance` is None), by environment id, in order."""
    out: dict[str, list[str]] = {}
    for run in runs:
        if run_instance(catalog, run) is None:
            out.setdefault(run.environment, []).append(run.id)
    return out


def filter_runs[R: (s.InferenceRun, s.AccuracyRun)](catalog: Catalog, runs: Iterable[R], models: Sequence[str],
                                                     instances: Sequence[str], devices: Sequence[str]) -> list[R]:
    """The ``runs`` of the given models, on the given instances and devices (an empty filter keeps all)."""
    out = []
    for run in runs:
        instance = run_instance(catalog, run)
        if instance is None:  # an unknown instance: never shown (the renderer says where, unplaced_runs)
            continue
        if ((not models or run.model in models) and (not instances or instance.id in instances)
                and (not devices or instance.device in devices)):
            out.append(run)
    return out

