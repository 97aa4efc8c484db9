"""The derived costs of a data set (``data/figures/derived.py``) on records built in the test: a seed
run's cost per 1M at its instance's on-demand price, the best run of a model on an instance, a
published run's costs at each price basis (the published table's generation, a training run's first
priced instance type times its nodes), each computed once. No data files, no Sphinx (``make
mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import datetime as dt
import pickle
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.derived import PUBLISHED_COSTS, BestRun, Derived
from neuron_docs.data.figures.prices import ON_DEMAND_PRICE_BASIS, PUBLISHED_PRICE_BASIS
from neuron_docs.data.figures.runs import cost_per_million
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps

D = dt.date.fromisoformat


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))

    def instance(iid: str, usd: float | None) -> s.Instance:
        return s.Instance.model_construct(id=iid, price=s.Price.model_construct(
            usd_per_hour=usd, source="aws", as_of=D("2026-01-01")) if usd is not None else None)

    cat.records["instances"] = {i.id: i for i in (instance("inf2.xlarge", 0.72), instance("inf1.xlarge", 0.36),
                                                  instance("trn2.48xlarge", None), instance("trn1.32xlarge", 21.5))}
    cat.records["environments"] = {e: s.Environment.model_construct(id=e, instance=i)
                                   for e, i in (("e-inf2", "inf2.xlarge"), ("e-inf1", "inf1.xlarge"),
                                                ("e-trn2", "trn2.48xlarge"), ("e-lost", "p9.xlarge"))}
    cat.records["published_tables"] = {
        "t-inf2": ps.PublishedTable.model_construct(id="t-inf2", generation="inf2"),
        "t-old": ps.PublishedTable.model_construct(id="t-old", generation="inf2-old"),
        "t-trn1": ps.PublishedTable.model_construct(id="t-trn1", generation="trn1")}

    def price(pid: str, instance_id: str, usd: float, basis: str, as_of: str, table: str | None) -> ps.InstancePrice:
        return ps.InstancePrice.model_construct(id=pid, instance=instance_id, usd_per_hour=usd, basis=basis, term=None,
                                                region=None, source="src", as_of=D(as_of), table=table)

    cat.records["prices"] = {p.id: p for p in (
        price("ri-inf2", "inf2.xlarge", 0.45, PUBLISHED_PRICE_BASIS, "2025-01-01", "t-inf2"),
        price("ri-inf2-new", "inf2.xlarge", 0.40, PUBLISHED_PRICE_BASIS, "2026-01-01", None),
        price("ri-trn1", "trn1.32xlarge", 12.0, PUBLISHED_PRICE_BASIS, "2025-06-01", "t-trn1"))}
    return cat


def seed(rid: str, environment: str, throughput: float | None, model: str = "bert",
         variant: str | None = None) -> s.InferenceRun:
    return s.InferenceRun.model_construct(id=rid, model=model, variant=variant, environment=environment,
                                          throughput_per_s=throughput)


def test_a_seed_runs_cost_at_its_instances_on_demand_price() -> None:
    derived = Derived(catalog())
    assert derived.seed_cost(seed("a", "e-inf2", 1000.0)) == pytest.approx(cost_per_million(0.72, 1000.0))
    assert derived.seed_cost(seed("b", "e-inf2", None)) is None  # no throughput
    assert derived.seed_cost(seed("c", "e-trn2", 1000.0)) is None  # an unpriced instance
    assert derived.seed_cost(seed("d", "e-lost", 1000.0)) is None  # an unknown instance
    assert derived.seed_cost(seed("e", "nowhere", 1000.0)) is None  # an unknown environment


def test_the_best_run_of_a_model_on_an_instance() -> None:
    cat = catalog()
    runs = [seed("lost", "e-lost", 900.0), seed("none", "e-inf2", None), seed("a1", "e-inf2", 100.0),
            seed("b1", "e-inf1", 50.0), seed("a2", "e-inf2", 300.0), seed("a3", "e-inf2", 300.0),
            seed("v1", "e-inf2", 10.0, variant="large"), seed("g1", "e-inf2", 5.0, model="gpt"),
            seed("u1", "e-trn2", 900.0), seed("b2", "e-inf1", 40.0)]
    best = Derived(cat).best_runs(runs)
    assert [(b.model, b.variant, b.instance.id, b.run.id) for b in best] == [
        ("bert", "", "inf2.xlarge", "a2"),  # the highest throughput; of two equal, the first
        ("bert", "", "inf1.xlarge", "b1"), ("bert", "large", "inf2.xlarge", "v1"), ("gpt", "", "inf2.xlarge", "g1")]
    assert best[0] == BestRun("bert", "", cat.instances["inf2.xlarge"], runs[4], cost_per_million(0.72, 300.0))
    with pytest.raises(FrozenInstanceError):
        best[0].cost = 0.0  # type: ignore[misc]
    # an unpriced instance's runs have no cost and no best run; the runs after it still do
    assert [b.run.id for b in Derived(cat).best_runs([runs[8], runs[2]])] == ["a1"]
    assert [b.run.id for b in Derived(cat).best_runs([runs[1], runs[0], runs[2]])] == ["a1"]


def inference(rid: str, instance: str, table: str = "t-inf2", **figures: float) -> ps.PublishedInferenceRun:
    return ps.PublishedInferenceRun.model_construct(id=rid, instance=instance, table=table, **figures)


def training(rid: str, instances: list[str], nodes: int, throughput: float | None) -> ps.PublishedTrainingRun:
    return ps.PublishedTrainingRun.model_construct(id=rid, instances=instances, nodes=nodes, table="t-trn1",
                                                   throughput_sequences_per_s=throughput)


def test_a_published_runs_cost_at_a_price_basis() -> None:
    derived = Derived(catalog())
    run = inference("r", "inf2.xlarge", throughput_tokens_per_s=2000.0)
    cost = derived.published_cost(run)
    assert cost is not None and cost.price.price_id == "ri-inf2"  # of the table's generation, not the newest
    assert (cost.usd, cost.per, cost.instances) == (pytest.approx(cost_per_million(0.45, 2000.0)), "1M tokens", 1)
    on_demand = derived.published_cost(run, ON_DEMAND_PRICE_BASIS)
    assert on_demand is not None and on_demand.usd == pytest.approx(cost_per_million(0.72, 2000.0))
    other_table = derived.published_cost(inference("o", "inf2.xlarge", "t-old", throughput_tokens_per_s=2000.0))
    assert other_table is not None and other_table.price.price_id == "ri-inf2-new"  # no price of its generation
    no_table = derived.published_cost(inference("n", "inf2.xlarge", "t-none", throughput_tokens_per_s=2000.0))
    assert no_table is not None and no_table.price.price_id == "ri-inf2-new"
    assert derived.published_cost(inference("x", "inf2.xlarge")) is None  # no throughput
    assert derived.published_cost(inference("y", "trn2.48xlarge", throughput_tokens_per_s=1.0)) is None  # no price
    assert derived.published_costs(run).keys() == PUBLISHED_COSTS.keys()
    assert derived.published_costs(inference("z", "inf1.xlarge", throughput_tokens_per_s=1.0)).keys() == {
        "cost_per_1m_on_demand"}  # an instance with an on-demand price only
    assert derived.published_costs(inference("x", "inf2.xlarge")) == {}


def test_a_training_runs_cost_at_its_first_priced_instance_type_times_its_nodes() -> None:
    derived = Derived(catalog())
    cost = derived.published_cost(training("t", ["trn2.48xlarge", "trn1.32xlarge"], 4, 100.0))
    assert cost is not None and cost.price.instance == "trn1.32xlarge"
    assert (cost.usd, cost.per, cost.instances) == (pytest.approx(cost_per_million(12.0, 100.0, 4)),
                                                    "1M training sequences", 4)
    assert derived.published_cost(training("u", ["trn2.48xlarge"], 4, 100.0)) is None


def test_each_cost_is_computed_once_and_a_pickle_computes_them_again() -> None:
    cat = catalog()
    derived = Derived(cat)
    run = inference("r", "inf2.xlarge", throughput_tokens_per_s=2000.0)
    first, first_seed = derived.published_cost(run), derived.seed_cost(seed("a", "e-inf2", 1000.0))
    cat.records["prices"] = {}
    cat.records["instances"] = {}
    assert derived.published_cost(run) is first  # kept for the build
    assert derived.seed_cost(seed("a", "e-inf2", 1000.0)) == first_seed
    assert derived.price("inf2.xlarge", PUBLISHED_PRICE_BASIS, "inf2") is first.price  # type: ignore[union-attr]
    # a run of another kind with the same id, another basis: not the cached cost
    assert derived.published_cost(training("r", ["trn1.32xlarge"], 1, 1.0)) is None
    assert derived.published_cost(run, ON_DEMAND_PRICE_BASIS) is None
    again = pickle.loads(pickle.dumps(derived))
    assert again.published_cost(run) is None  # computed again from the catalog, now without prices
