"""The derived costs of one data set, and the best runs they go with: each computed in one place,
once per build.

A cost per 1M is derived from records of several collections (a run, its instance's price of a
basis, the published table's generation), and many parts of a build show the same cost: a table's
sort order, its cell, its price note, its chart, the advisor, the figures of :mod:`.values` (which
the roles, the drift checker and the downloads read). :class:`Derived` is the data set's table of
them (:class:`~neuron_docs.data.dataset.DataSet` owns one per build): computed when first asked
for, then kept. Each cost declares beside its computation the collections it is computed from
(:data:`SEED_COST_READS`, :data:`PUBLISHED_COST_READS`); a page showing it depends on them.

A published run has one cost per field of :data:`PUBLISHED_COSTS`, each at its price basis: the
figures of :mod:`.values` (``prun:<id>:<field>``) and the columns of the published tables. No Sphinx.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .prices import ON_DEMAND_PRICE_BASIS, PUBLISHED_PRICE_BASIS, PriceQuote, price_for
from .runs import CostFigure, cost_per_million, costed, first_priced, run_instance

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..catalog import Catalog
    from ..records import models as s
    from ..records import published as ps

    PublishedRun = ps.PublishedInferenceRun | ps.PublishedTrainingRun

#: The collections a seed run's cost is computed from, besides the run's own.
SEED_COST_READS = ("instances", "environments")
#: The collections a published run's cost is computed from, besides the run's own.
PUBLISHED_COST_READS = ("prices", "instances", "published_tables")
#: The costs of a published run, by the field naming each (a path's ``prun:<id>:<field>``, a table's
#: column): the price basis it is at. The reserved-instance effective price is the published pages'
#: own; the on-demand price (``instances.yaml``) is what a reader without a reservation pays.
PUBLISHED_COSTS: dict[str, str] = {"cost_per_1m": PUBLISHED_PRICE_BASIS, "cost_per_1m_on_demand": ON_DEMAND_PRICE_BASIS}


@dataclass(frozen=True)
class BestRun:
    """The seed run with the best measured throughput of a model (variant) on an instance, and its cost."""

    model: str
    variant: str
    instance: s.Instance
    run: s.InferenceRun
    #: USD per 1M inferences at that throughput and the instance's on-demand price.
    cost: float


class Derived:
    """The derived costs of ``catalog``, each computed on first use and kept for the build.

    Pickled as its catalog alone: a data set read from the cache computes its costs again, with
    the code of the build that reads it.
    """

    __slots__ = ("_published", "_quotes", "_seed", "catalog")

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._seed: dict[str, float | None] = {}
        self._published: dict[tuple[str, str, str], CostFigure[PriceQuote] | None] = {}
        self._quotes: dict[tuple[str, str, str | None], PriceQuote | None] = {}

    def __reduce__(self) -> tuple[type[Derived], tuple[Catalog]]:
        return (Derived, (self.catalog,))

    def seed_cost(self, run: s.InferenceRun) -> float | None:
        """USD per 1M inferences at the run's throughput and its instance's on-demand price (None
        without either: a run measured on an unpriced instance is a located error of the data)."""
        if run.id not in self._seed:
            instance = run_instance(self.catalog, run)  # unknown: refused by validation; never costed
            price = instance.price if instance else None
            self._seed[run.id] = (None if run.throughput_per_s is None or price is None else cost_per_million(
                price.usd_per_hour, run.throughput_per_s))
        return self._seed[run.id]

    def best_runs(self, runs: Iterable[s.InferenceRun]) -> list[BestRun]:
        """Per (model, variant, instance) of the seed ``runs``, in order of first appearance, the run
        with the best throughput and its cost."""
        best: dict[tuple[str, str, str], s.InferenceRun] = {}
        for run in runs:
            instance = run_instance(self.catalog, run)
            if run.throughput_per_s is None or instance is None:
                continue
            key = (run.model, run.variant or "", instance.id)
            incumbent = best.get(key)
            if incumbent is None or run.throughput_per_s > (incumbent.throughput_per_s or 0.0):
                best[key] = run
        out = []
        for (model_id, variant, instance_id), run in best.items():
            cost = self.seed_cost(run)
            if cost is None:  # an unpriced instance (refused by the data's rules; never costed)
                continue
            out.append(BestRun(model_id, variant, self.catalog.instances[instance_id], run, cost))
        return out

    def published_cost(self, run: PublishedRun, basis: str = PUBLISHED_PRICE_BASIS) -> CostFigure[PriceQuote] | None:
        """Cost per 1M units of ``run``'s throughput at the price of ``basis`` of its instance (a
        training run: the first of its instance types with such a price, times its nodes); None
        without a throughput or a price."""
        key = (type(run).__name__, run.id, basis)
        if key not in self._published:
            self._published[key] = self._published_cost(run, basis)
        return self._published[key]

    def published_costs(self, run: PublishedRun) -> dict[str, CostFigure[PriceQuote]]:
        """Every cost of :data:`PUBLISHED_COSTS` that ``run`` has, by field."""
        return {field: cost for field, basis in PUBLISHED_COSTS.items()
                if (cost := self.published_cost(run, basis)) is not None}

    def price(self, instance: str, basis: str, generation: str | None) -> PriceQuote | None:
        """The price a cost of ``instance`` uses on ``basis`` (:func:`~.prices.price_for`)."""
        key = (instance, basis, generation)
        if key not in self._quotes:
            self._quotes[key] = price_for(self.catalog, instance, basis, generation)
        return self._quotes[key]

    def _published_cost(self, run: PublishedRun, basis: str) -> CostFigure[PriceQuote] | None:
        found = run.throughput()
        per = run.cost_basis
        if found is None or per is None:
            return None
        table = self.catalog.published_tables.get(run.table)
        generation = table.generation if table else None
        candidates = run.instances if hasattr(run, "instances") else [run.instance]
        quote = first_priced(candidates, lambda instance: self.price(instance, basis, generation))
        if quote is None:
            return None
        nodes = getattr(run, "nodes", 1)
        return costed(quote, float(found[1]), per, nodes)

