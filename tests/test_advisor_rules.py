"""The advisor's rules (``data/figures/advisor.py``) on runs and records built in the test: which
configurations compare, which is best for each goal, the sentences, the advice, the embedded slice.
No data files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); ``test_advisor.py`` checks the built page on the real data."""

from __future__ import annotations

import datetime as dt
from dataclasses import FrozenInstanceError, replace
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures import advisor as a
from neuron_docs.data.figures.advisor import (Advice, Best, FamilyBest, SupportCell, best_on_device, choose,
                                              column_label, compare, cost_text, latency_text, neuron_devices,
                                              on_demand_values, pick_best, ranked_values, representative,
                                              throughput_text)
from neuron_docs.data.figures.runs import CostFigure
from neuron_docs.data.figures.formatting import shown_cost, shown_measure
from neuron_docs.data.figures.prices import PriceQuote, price_note, unstated
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps
from neuron_docs.data.records.matrix import Cell


def best(run: str = "r", *, identity: str = "m", device: str = "d1", shape: tuple[Any, ...] = ("task",),
         throughput: float | None = 10.0, unit: str | None = "inferences/s", latency: float | None = 5.0,
         label: str | None = "Latency P50", cost: float | None = 1.0, per: str | None = "1M inferences",
         on_demand: tuple[float, str, tuple[str, ...]] | None = None, family: str = "fam",
         workload: str = "inference", framework: str | None = "fw", model: str = "Model M", config: str = "batch 1",
         price: str | None = "$1/h", since: str | None = None) -> Best:
    return Best(run, "published", model, identity, family, device, workload, framework, "inst.x", config,
                throughput, unit, latency, label, cost, per, price, shape, (), since, on_demand)


# -- pick_best ------------------------------------------------------------------------------------

def test_the_best_of_each_goal_is_its_own_configuration() -> None:
    fast = best("fast", throughput=30.0, latency=9.0, cost=3.0, on_demand=(4.0, "od", ()))
    quick = best("quick", throughput=10.0, latency=2.0, cost=2.0, on_demand=(1.5, "od", ()))
    cheap = best("cheap", throughput=20.0, latency=5.0, cost=0.5, on_demand=(3.0, "od", ()))
    for order in ([fast, quick, cheap], [cheap, quick, fast], [quick, fast, cheap]):
        assert pick_best(order) == (fast, quick, cheap, quick)


def test_only_figures_in_the_commonest_unit_label_and_basis_compare() -> None:
    odd = best("odd", throughput=1000.0, unit="tokens/s", latency=0.1, label="TTFT P50", cost=0.01, per="1M tokens",
               on_demand=(0.01, "od", ()))
    one = best("one", throughput=10.0, latency=5.0, cost=2.0, on_demand=(2.0, "od", ()))
    two = best("two", throughput=20.0, latency=7.0, cost=3.0, on_demand=(3.0, "od", ()))
    assert pick_best([odd, one, two]) == (two, one, one, one)
    assert pick_best([one, two, odd]) == (two, one, one, one)


def test_runs_without_a_figure_are_not_ranked_and_a_tie_keeps_the_first() -> None:
    none = best("none", throughput=None, latency=None, cost=None)
    unitless = best("unitless", unit=None, label=None, per=None, throughput=99.0, latency=0.1, cost=0.1)
    first, second = best("first"), best("second")
    assert pick_best([none, unitless, first, second]) == (first, first, first, None)
    assert pick_best([none]) == (None, None, None, None)
    assert pick_best([]) == (None, None, None, None)
    # the unit most runs report wins over the first run's
    rare = best("rare", unit="images/s", throughput=1e6)
    assert pick_best([rare, first, second])[0] is first
    # a figure of zero is a figure
    zero = best("zero", throughput=0.0, latency=0.0, cost=0.0, on_demand=(0.0, "od", ()))
    big = best("big", throughput=0.5, latency=0.5, cost=0.5, on_demand=(0.5, "od", ()))
    assert pick_best([big, zero]) == (big, zero, zero, zero)
    assert pick_best([zero, big]) == (big, zero, zero, zero)


def test_the_on_demand_choice_is_among_runs_of_the_common_basis_with_an_on_demand_cost() -> None:
    other = best("other", per="1M tokens", on_demand=(0.001, "od", ()))
    priced = best("priced", on_demand=(5.0, "od", ()))
    unpriced = best("unpriced", on_demand=None, cost=0.1)
    assert pick_best([priced, other, unpriced, best("x", on_demand=None)])[3] is priced


# -- representative, compare, choose ------------------------------------------------------------------

def family(*representatives: str) -> s.Family:
    return s.Family.model_construct(id="fam", representatives=list(representatives), devices={})


def test_the_representative_is_measured_on_most_devices_then_named_then_most_measured() -> None:
    wide = [best("w1", identity="wide", device="d1"), best("w2", identity="wide", device="d2")]
    many = [best(f"m{n}", identity="many", device="d1", model="Many") for n in range(3)]
    assert representative(wide + many, None, ["d1", "d2"]) == "wide"
    assert representative(many + wide, None, ["d1", "d2"]) == "wide"
    assert representative(many + wide, None, ["d1"]) == "many"  # one device each: then the most runs
    # a device outside those compared does not count
    assert representative(many + wide, None, ["d1", "d9"]) == "many"
    named = [best("n1", identity="named", device="d1", model="BERT base (uncased)")]
    assert representative(many + named, family("bert-base"), ["d1"]) == "named"
    assert representative(many + named, family("gpt"), ["d1"]) == "many"
    assert representative(many + named, family(""), ["d1"]) == "many"  # an empty key names nothing
    assert representative(many + named, None, ["d1"]) == "many"
    assert representative([], family("x"), ["d1"]) is None


def test_a_comparison_is_of_one_models_configurations_of_one_shape() -> None:
    runs = [best("a1", identity="a", device="d1", shape=("s1",)), best("a2", identity="a", device="d1", shape=("s2",)),
            best("a3", identity="a", device="d2", shape=("s2",)), best("b1", identity="b", device="d1", shape=("s1",)),
            best("a4", identity="a", device="d1", shape=("s2",))]
    out = compare(runs, ["d1", "d2", "d3"], family())
    assert {d: [r.run for r in rs] for d, rs in out.items()} == {"d1": ["a2", "a4"], "d2": ["a3"]}
    # a model: no family; each device its own most measured model there
    out = compare(runs[3:4] + runs[:1], ["d1"])
    assert [r.run for r in out["d1"]] == ["b1"]


def test_the_shape_is_one_the_device_has_else_its_own() -> None:
    runs = [best("x1", identity="a", device="d1", shape=("wide",)), best("x2", identity="a", device="d2", shape=("wide",)),
            best("x3", identity="a", device="d3", shape=("own",)), best("x4", identity="a", device="d4", shape=("zz",))]
    out = compare(runs, ["d1", "d2", "d3", "d4"], family())
    assert [r.run for r in out["d3"]] == ["x3"] and [r.run for r in out["d4"]] == ["x4"]
    # with as many devices each, the shape with more runs wins
    for other in ("one", "zz"):  # the other shape sorting before or after
        runs = [best("y1", identity="a", device="d1", shape=(other,)),
                best("y2", identity="a", device="d1", shape=("two",)), best("y3", identity="a", device="d1", shape=("two",))]
        assert [r.run for r in compare(runs, ["d1"], family())["d1"]] == ["y2", "y3"]


def test_the_shape_is_chosen_among_the_compared_models_runs_only() -> None:
    """Another model's runs (measured elsewhere, its id sorting after) do not count for the shape."""
    for other in ("b", "0"):  # its id sorting after or before
        runs = [best("a1", identity="a", device="d1", shape=("s1",)),
                best("a2", identity="a", device="d1", shape=("s2",)), best("a3", identity="a", device="d2", shape=("s2",))]
        runs += [best(f"b{n}", identity=other, device=f"x{n}", shape=("s1",)) for n in range(3)]
        assert [r.run for r in compare(runs, ["d1", "d2"], family())["d1"]] == ["a2"]


def test_the_shapes_a_device_has_are_the_compared_models_own() -> None:
    """Model "a" or "z" (sorting before or after the representative "m") has the shape "x" on d1; "m" has
    only "y" there."""
    for other in ("a", "z"):
        runs = [best("m1", identity="m", device="d1", shape=("y",)),
                best("m2", identity="m", device="d2", shape=("x",)), best("m3", identity="m", device="d2", shape=("x",)),
                best("o1", identity=other, device="d1", shape=("x",))]
        assert [r.run for r in compare(runs, ["d1", "d2"], family())["d1"]] == ["m1"]


def test_a_family_keeps_its_representative_where_measured_else_the_devices_own() -> None:
    # identities as the runs' records give them: equal, not always the same object
    rep_d1 = "".join(["r", "ep"])
    for other in ("other", "zother"):  # the other model's id sorting before or after
        runs = [best("r2", identity="rep", device="d2"), best("r1", identity=rep_d1, device="d1"),
                best("r4", identity="rep", device="d4"),
                best("o1", identity=other, device="d3"), best("o2", identity=other, device="d1"),
                best("o3", identity=other, device="d1")]
        # on d1 the other model has more runs, but the family's comparison is made on its representative
        out = compare(runs, ["d1", "d2", "d3", "d4"], family())
        assert {d: [r.identity for r in rs] for d, rs in out.items()} == {"d1": ["rep"], "d2": ["rep"], "d3": [other],
                                                                          "d4": ["rep"]}


def test_equal_shapes_compare_whichever_run_gave_them() -> None:
    runs = [best("p", device="d1", shape=tuple(["task", 128])), best("q", device="d2", shape=tuple(["task", 128]))]
    assert {d: [r.run for r in rs] for d, rs in compare(runs, ["d1", "d2"], family()).items()} == {"d1": ["p"],
                                                                                                  "d2": ["q"]}


def test_choose_leaves_out_a_device_with_nothing_to_rank() -> None:
    ranked = best("r", device="d1")
    blank = best("b", device="d2", throughput=None, latency=None, cost=None)
    assert choose([ranked, blank], ["d1", "d2"]) == {"d1": (ranked, ranked, ranked, None)}
    latency_only = best("l", device="d2", throughput=None, cost=None)
    assert choose([latency_only], ["d2"]) == {"d2": (None, latency_only, None, None)}


# -- sentences ----------------------------------------------------------------------------------------

def test_the_throughput_sentence() -> None:
    run = best(throughput=1234.5, config="batch 4, TP 2", cost=0.1234, price="on-demand $1.00/h")
    assert throughput_text(run) == (f"Model M: {shown_measure(1234.5, 'inferences/s')} on inst.x (batch 4, TP 2); "
                                    f"{shown_cost(0.1234)} per 1M inferences at on-demand $1.00/h")
    assert throughput_text(replace(run, config="", cost=None, since="Neuron 2.18")) == (
        f"Model M: {shown_measure(1234.5, 'inferences/s')} on inst.x; cost unknown (no throughput or no price); holds since Neuron 2.18")
    assert throughput_text(replace(run, cost_per=None)).endswith("; cost unknown (no throughput or no price)")
    assert throughput_text(replace(run, cost=0.0)).endswith("at on-demand $1.00/h")
    assert throughput_text(replace(run, throughput=None)) == ""
    assert throughput_text(replace(run, throughput_unit=None)) == ""


def test_the_latency_sentence_has_no_cost() -> None:
    run = best(latency=12.5, label="Latency P90", config="batch 1")
    assert latency_text(run) == "Model M: Latency P90 12.5 ms on inst.x (batch 1)"
    assert latency_text(replace(run, config="", since="X")) == "Model M: Latency P90 12.5 ms on inst.x; holds since X"
    assert latency_text(replace(run, latency=None)) == ""
    assert latency_text(replace(run, latency_label=None)) == ""


def test_the_cost_sentence() -> None:
    run = best(cost=0.5, per="1M inferences", price="$2/h", config="batch 2")
    assert cost_text(run) == "$0.50 per 1M inferences: Model M on inst.x (batch 2) at $2/h"
    assert cost_text(replace(run, config="", since="S")) == "$0.50 per 1M inferences: Model M on inst.x at $2/h; holds since S"
    assert cost_text(replace(run, cost=None)) == ""
    assert cost_text(replace(run, cost_per="")) == ""
    assert cost_text(replace(run, cost=0.0)).startswith("$0")


def test_ranked_and_on_demand_values() -> None:
    run = best(throughput=Decimal("10.5"), latency=Decimal("2"), cost=3.0, on_demand=(7.0, "od $9/h", ("term",)))
    run = replace(run, price_unstated=("region",))
    assert ranked_values(run) == (10.5, "inferences/s", 2.0, 3.0, ("region",))
    assert ranked_values(replace(run, throughput=None, latency=None, cost=None)) == (None, "inferences/s", None, None,
                                                                                      ("region",))
    text, cost, value, unsaid = on_demand_values(run)
    assert text.endswith("$7.00 per 1M inferences at od $9/h") and cost.startswith("$7.00 per 1M inferences")
    assert (value, unsaid) == (7.0, ("term",))
    text, cost, value, unsaid = on_demand_values(replace(run, on_demand=None))
    assert text.endswith("cost unknown (no throughput or no price)") and cost == "" and value is None and unsaid == ()


# -- seed and published runs as the advisor shows them ----------------------------------------------

QUOTE = PriceQuote("inst.x", 2.0, "on-demand", "src", dt.date(2024, 1, 2))
RI = PriceQuote("inst.x", 1.0, "ri-effective", "src", dt.date(2024, 1, 2), term="1yr")


class Known:
    """The identities the advisor asks for, by seed id and by published spelling."""

    def __init__(self, *items: tuple[str, str, str, str]) -> None:
        self.by_id = {ident: SimpleNamespace(id=ident, name=name, family=fam, names=[name], seed=[])
                      for ident, name, fam, _spelling in items}
        self._by_name = {spelling: self.by_id[ident] for ident, _n, _f, spelling in items}
        self.keys = {name.lower(): ident for ident, name, _f, _s in items}
        self.family_keys = {"famkey": "fam"}

    def of_seed(self, model_id: str) -> Any:
        return self._by_name.get(model_id)

    def of_published(self, name: str) -> Any:
        return self._by_name.get(name)


def _instance(iid: str, device: str = "d1", priced: bool = True) -> s.Instance:
    price = s.Price.model_construct(usd_per_hour=2.0, source="src", as_of=dt.date(2024, 1, 2)) if priced else None
    return s.Instance.model_construct(id=iid, device=device, device_count=1, price=price, specs={}, efa_gbps=None)


def seed_catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["models"] = {"m": s.Model.model_construct(id="m", name="Seed M", family="fam")}
    cat.records["environments"] = {
        "e": s.Environment.model_construct(id="e", instance="inst.x", framework="fw"),
        "lost": s.Environment.model_construct(id="lost", instance="nowhere", framework=None)}
    cat.records["instances"] = {"inst.x": _instance("inst.x"), "free": _instance("free", priced=False)}
    cat.records["environments"]["f"] = s.Environment.model_construct(id="f", instance="free", framework=None)
    return cat


def seed_run(rid: str = "run1", **fields: Any) -> s.InferenceRun:
    values = {"id": rid, "model": "m", "environment": "e", "batch_size": 4, "neuroncores": 2,
              "compiler_options": "--O2", "throughput_per_s": 100.0, "p90_latency_ms": 7.0, "variant": None} | fields
    return s.InferenceRun.model_construct(**values)


@pytest.fixture
def known(monkeypatch: pytest.MonkeyPatch) -> Known:
    found = Known(("seed:m", "Seed M", "fam", "m"), ("published:p", "Pub P", "fam", "Pub P table"))
    monkeypatch.setattr(a, "identities", lambda catalog: found)
    return found


def test_a_seed_run_as_the_advisor_shows_it(known: Known) -> None:
    cat = seed_catalog()
    derived = SimpleNamespace(catalog=cat, seed_cost=lambda run: 0.25)
    b = a._seed_best(derived, seed_run())
    assert b is not None
    assert (b.run, b.kind, b.model, b.identity, b.family, b.device, b.workload, b.framework, b.instance) == (
        "run1", "seed", "Seed M", "seed:m", "fam", "d1", "inference", "fw", "inst.x")
    assert b.config == "batch 4, 2 NeuronCores, --O2"
    assert (b.throughput, b.throughput_unit, b.latency, b.latency_label) == (100.0, "inferences/s", 7.0, "Latency P90")
    assert (b.cost, b.cost_per, b.shape) == (0.25, "1M inferences", ("seed", "m", "inferences/s"))
    assert b.price == price_note(QUOTE, caveat=False) and b.price_unstated == unstated(QUOTE) == ("region",)
    assert b.on_demand == (0.25, b.price, ("region",))
    plain = a._seed_best(derived, seed_run(neuroncores=None, compiler_options=None, throughput_per_s=None,
                                           p90_latency_ms=None))
    assert plain is not None and plain.config == "batch 4"
    assert (plain.throughput_unit, plain.latency_label) == (None, None)


def test_a_seed_run_without_a_cost_or_a_price_or_its_records(known: Known) -> None:
    cat = seed_catalog()
    uncosted = a._seed_best(SimpleNamespace(catalog=cat, seed_cost=lambda run: None), seed_run())
    assert uncosted is not None
    assert (uncosted.cost, uncosted.cost_per, uncosted.price, uncosted.on_demand) == (None, None, None, None)
    free = a._seed_best(SimpleNamespace(catalog=cat, seed_cost=lambda run: 1.0), seed_run(environment="f"))
    assert free is not None and (free.price, free.on_demand, free.cost) == (None, None, 1.0)
    derived = SimpleNamespace(catalog=cat, seed_cost=lambda run: 1.0)
    assert a._seed_best(derived, seed_run(environment="lost")) is None
    assert a._seed_best(derived, seed_run(model="unknown")) is None
    cat.records["models"]["orphan"] = s.Model.model_construct(id="orphan", name="O", family="fam")
    assert a._seed_best(derived, seed_run(model="orphan")) is None  # no identity


def published_run(**fields: Any) -> ps.PublishedInferenceRun:
    values = {"id": "prun:x", "model": "Pub P table", "instance": "inst.x", "framework": "fw", "batch_size": 8,
              "task": "generation", "sequence_length": 128, "throughput_inferences_per_s": Decimal("55.5"),
              "latency_p50_ms": None, "latency_p90_ms": Decimal("9.5"), "ttft_p50_ms": Decimal("1")} | fields
    return ps.PublishedInferenceRun.model_construct(**values)


def published_derived(cat: Catalog, cost: CostFigure | None, on_demand: CostFigure | None) -> Any:
    return SimpleNamespace(catalog=cat, published_cost=lambda run, basis=None: on_demand if basis else cost)


def test_a_published_run_as_the_advisor_shows_it(known: Known) -> None:
    cat = seed_catalog()
    cost = CostFigure(0.5, "1M inferences", RI, instances=1)
    od = CostFigure(0.75, "1M inferences", QUOTE, instances=2)
    b = a._published_best(published_derived(cat, cost, od), published_run(), False, lambda run: f"since {run.id}")
    assert b is not None
    assert (b.run, b.kind, b.model, b.identity, b.family, b.device, b.workload, b.framework, b.instance) == (
        "prun:x", "published", "Pub P table", "published:p", "fam", "d1", "inference", "fw", "inst.x")
    assert b.config == "batch 8, sequence 128"
    assert (b.throughput, b.throughput_unit) == (Decimal("55.5"), "inferences/s")
    assert (b.latency, b.latency_label) == (Decimal("9.5"), "Latency P90")  # the first latency set, p50 absent
    assert (b.cost, b.cost_per) == (0.5, "1M inferences")
    assert b.price == price_note(RI, caveat=False) and b.price_unstated == ("region",)
    assert b.shape == ("generation", 128, None, None, None, "inferences/s")
    assert b.since == "since prun:x"
    assert b.on_demand == (0.75, price_note(QUOTE, caveat=False) + " x 2 nodes", ("region",))
    assert isinstance(b.on_demand[0], float)


def test_a_published_training_run_and_one_without_cost_figures_or_records(known: Known) -> None:
    cat = seed_catalog()
    cat.records["instances"]["inst.y"] = _instance("inst.y", device="d2")
    run = ps.PublishedTrainingRun.model_construct(
        id="ptrain:t", model="Pub P table", instances=["inst.y", "inst.x"], framework="fw", global_batch_size=1024,
        nodes=4, tp_degree=8, task="pretraining", sequence_length=None, throughput_sequences_per_s=Decimal("12"))
    b = a._published_best(published_derived(cat, None, None), run, True)
    assert b is not None
    assert (b.kind, b.workload, b.device, b.instance) == ("training", "training", "d2", "inst.y / inst.x")
    assert b.config == "batch 1024, nodes 4, TP 8"
    assert (b.cost, b.cost_per, b.price, b.price_unstated, b.since, b.on_demand) == (None, None, None, (), None, None)
    if run.throughput() is None:
        assert (b.throughput, b.throughput_unit) == (None, None) and b.shape[-1] is None
    bare = published_run(batch_size=None, sequence_length=None, latency_p90_ms=None, ttft_p50_ms=None, task=None)
    b = a._published_best(published_derived(cat, None, None), bare, False)
    assert b is not None and b.config == "" and (b.latency, b.latency_label) == (None, None)
    assert a._published_best(published_derived(cat, None, None), published_run(model="unknown"), False) is None
    assert a._published_best(published_derived(cat, None, None), published_run(instance="nowhere"), False) is None


def test_a_cost_paid_for_one_node_names_no_nodes() -> None:
    assert a._priced(CostFigure(1.0, "1M inferences", QUOTE, instances=1)) == price_note(QUOTE, caveat=False)


def test_all_runs_are_the_seed_runs_then_published_inference_then_training(known: Known) -> None:
    cat = seed_catalog()
    cat.records["inference_runs"] = {"run1": seed_run(), "run2": seed_run("run2", model="unknown")}
    cat.records["published_inference_runs"] = {"prun:x": published_run(), "prun:y": published_run(id="prun:y",
                                                                                                   model="?")}
    cat.records["published_training_runs"] = {"ptrain:t": ps.PublishedTrainingRun.model_construct(
        id="ptrain:t", model="Pub P table", instances=["inst.x"], framework="fw", global_batch_size=8)}
    derived = SimpleNamespace(catalog=cat, seed_cost=lambda run: None, published_cost=lambda run, basis=None: None)
    assert [b.run for b in a.all_runs(derived)] == ["run1", "prun:x", "ptrain:t"]
    assert [b.kind for b in a.published_runs(derived)] == ["published", "training"]


# -- the advice, the device page's best, the slice ----------------------------------------------------

class MatrixCatalog(Catalog):
    """A catalog whose matrix answers are set in the test."""

    cells: dict[str, Cell]
    held: dict[str, dt.date | None]
    fitted: Any = "good"
    roadmap_of: dict[str, str]

    def fit(self, family_id: str, device_id: str, date: str | None = None) -> Any:
        return self.fitted if device_id != "nomatrix" else None

    def matrix(self, device_id: str, date: str | None = None) -> Any:
        return SimpleNamespace(id=f"matrix-{device_id}")

    def revision(self, date: str | None = None) -> Any:
        return None if getattr(self, "no_revision", False) else "rev"

    def support(self, family_id: str, device_id: str, date: str | None = None) -> dict[str, Cell]:
        return self.cells

    def roadmap_item(self, cell: Cell, date: str | None = None) -> str | None:
        return self.roadmap_of.get(cell.note or "")


def matrix_catalog() -> MatrixCatalog:
    cat = MatrixCatalog(data_dir=Path("."))
    cat.cells = {"fw1/inference": Cell(status="supported", note="r1"), "fw2/training": Cell(status="roadmap", note="r1"),
                 "fw2/inference": Cell(status="na", note="r2")}
    cat.held = {"fw1/inference": dt.date(2024, 3, 1), "fw2/training": dt.date(2024, 5, 1), "fw2/inference": None}
    cat.roadmap_of = {"r1": "road-1", "r2": "road-2"}
    cat.matrix_revisions = SimpleNamespace(  # type: ignore[assignment]
        cell_since=lambda revision, key, device: cat.held[key[2]])
    cat.records["families"] = {"fam": s.Family.model_construct(
        id="fam", name="Fam", representatives=[], devices={"d1": s.DeviceFit.model_construct(rationale="why")})}
    cat.records["frameworks"] = {"fw1": s.Framework.model_construct(id="fw1", name="Torch", package="torch-neuronx",
                                                                     framework="PyTorch", devices=["d1"])}
    cat.records["known_issues"] = {
        "any": s.KnownIssue.model_construct(id="any", title="Issue any", devices=["d1"], families=[], frameworks=[]),
        "fam-only": s.KnownIssue.model_construct(id="fam-only", title="Issue fam-only", devices=["d1"], families=["fam"], frameworks=[]),
        "other-fam": s.KnownIssue.model_construct(id="other-fam", title="Issue other-fam", devices=["d1"], families=["x"], frameworks=[]),
        "fw2-only": s.KnownIssue.model_construct(id="fw2-only", title="Issue fw2-only", devices=["d1"], families=["fam"], frameworks=["fw2"]),
        "other-device": s.KnownIssue.model_construct(id="other-device", title="Issue other-device", devices=["d9"], families=[], frameworks=[])}
    return cat


def test_the_support_cell_of_a_family_on_a_device() -> None:
    cat = matrix_catalog()
    cell = a.support_cell(cat, "fam", "d1")
    assert cell == SupportCell("good", "why", cat.cells, {"fw1/inference": "2024-03-01", "fw2/training": "2024-05-01"},
                               "2024-05-01")
    assert a.support_cell(cat, "fam", "nomatrix") is None
    cat.no_revision = True  # type: ignore[attr-defined]
    assert a.support_cell(cat, "fam", "d1") is None  # a matrix but no revision yet
    cat.no_revision = False  # type: ignore[attr-defined]
    other = a.support_cell(cat, "fam", "d2")  # no prose for the device
    assert other is not None and other.rationale is None
    with pytest.raises(FrozenInstanceError):
        cell.since = None  # type: ignore[misc]
    cat.held = dict.fromkeys(cat.held)
    assert a.support_cell(cat, "unknown", "d1") == SupportCell("good", None, cat.cells, {}, None)


def test_the_advice_for_every_framework_and_for_one() -> None:
    cat = matrix_catalog()
    out = a.advice(cat, "fam", "d1", None)
    assert (out.fit, out.fit_text, out.rationale, out.since) == ("good", "Good Fit", "why", "2024-05-01")
    assert [(x["framework"], x["workload"], x["status"], x["text"], x["note"], x["since"]) for x in out.support] == [
        ("fw1", "inference", "supported", "Supported", "r1", "2024-03-01"),
        ("fw2", "training", "roadmap", "Roadmap Item", "r1", "2024-05-01"),
        ("fw2", "inference", "na", "NA", "r2", None)]
    assert out.support[0]["label"] == "Torch (torch-neuronx), inference" and out.support[1]["label"] == "fw2, training"
    assert out.roadmap == ["road-1", "road-2"]
    assert out.issues == ["any", "fam-only", "fw2-only"]
    fw1 = a.advice(cat, "fam", "d1", "fw1")
    assert [x["framework"] for x in fw1.support] == ["fw1"] and fw1.roadmap == ["road-1"]
    assert fw1.issues == ["any", "fam-only"]
    fw2 = a.advice(cat, "fam", "d1", "fw2")
    assert fw2.issues == ["any", "fam-only", "fw2-only"]
    assert [(x["framework"], x["workload"]) for x in fw2.support] == [("fw2", "training"), ("fw2", "inference")]
    assert a.advice(cat, "fam", "nomatrix", None) == Advice()


def test_neuron_devices_and_column_labels() -> None:
    cat = Catalog(data_dir=Path("."))
    cat.records["devices"] = {"g": s.Device.model_construct(id="g", kind="gpu"),
                              "n1": s.Device.model_construct(id="n1", kind="neuron"),
                              "n2": s.Device.model_construct(id="n2", kind="neuron")}
    assert neuron_devices(cat) == ["n1", "n2"]
    # a device's kind as the cached catalog (a pickle) gives it back: equal, not the code's literal
    cat.records["devices"]["n3"] = s.Device.model_construct(id="n3", kind=_as_read("neuron"))
    assert neuron_devices(cat) == ["n1", "n2", "n3"]
    assert column_label(cat, "nofw/training/x") == "nofw, training/x"


def test_the_best_of_each_family_measured_on_a_device() -> None:
    cat = Catalog(data_dir=Path("."))
    cat.records["devices"] = {"d1": s.Device.model_construct(id="d1", kind="neuron"),
                              "d2": s.Device.model_construct(id="d2", kind="neuron"),
                              "gpu": s.Device.model_construct(id="gpu", kind="gpu")}
    cat.records["families"] = {f: s.Family.model_construct(id=f, representatives=[], devices={})
                               for f in ("zeta", "alpha")}
    runs = [best("a", family="alpha", device="d1", throughput=5.0),
            best("a2", family="alpha", device="d1", throughput=9.0),
            best("z", family="zeta", device="d1", identity="z", throughput=None, latency=1.0),
            best("u", family="unlisted", device="d1", identity="u"),
            best("t", family="alpha", device="d1", identity="t", workload="training"),
            best("tt", family="trainfam", device="d1", identity="tt", workload="training"),
            best("g", family="alpha", device="gpu", identity="g"),
            best("d2", family="zeta", device="d2", identity="z2"),
            best("elsewhere", family="onlyd2", device="d2", identity="e")]
    out = best_on_device(cat, runs, "".join(["d", "1"]))  # a device id as read, not the runs' own object
    assert [(f.workload, f.family, f.best.run if f.best else None) for f in out] == [
        ("inference", "zeta", None), ("inference", "alpha", "a2"), ("inference", "unlisted", "u"),
        ("training", "alpha", "t"), ("training", "trainfam", "tt")]
    # a device the advisor does not compare is compared for its own page
    assert [(f.family, f.best.run if f.best else None) for f in best_on_device(cat, runs, "gpu")] == [("alpha", "g")]
    assert FamilyBest("inference", "x", None).best is None
    # runs whose workload is an equal text but another object (a pickle's, a file's) are still of it
    read = [replace(r, workload=_as_read(r.workload)) for r in runs]
    assert [(f.workload, f.family, f.best.run if f.best else None) for f in best_on_device(cat, read, "d1")] == [
        ("inference", "zeta", None), ("inference", "alpha", "a2"), ("inference", "unlisted", "u"),
        ("training", "alpha", "t"), ("training", "trainfam", "tt")]
    with pytest.raises(FrozenInstanceError):
        out[0].best = None  # type: ignore[misc]


def test_the_slice_the_advisor_embeds(known: Known, monkeypatch: pytest.MonkeyPatch) -> None:
    cat = matrix_catalog()
    cat.records["devices"] = {"d1": s.Device.model_construct(id="d1", kind="neuron", name="Dev One"),
                              "d2": s.Device.model_construct(id="d2", kind="neuron", name="Dev Two"),
                              "gpu": s.Device.model_construct(id="gpu", kind="gpu", name="GPU")}
    cat.records["frameworks"]["gpuonly"] = s.Framework.model_construct(id="gpuonly", name="G", package="g",
                                                                       framework="G", devices=["gpu"])
    cat.records["frameworks"]["fw1"] = s.Framework.model_construct(id="fw1", name="Torch", package="torch-neuronx",
                                                                    framework="PyTorch", devices=["d1", "gpu"])
    cat.records["roadmap"] = {"road-1": SimpleNamespace(id="road-1", title="Road one")}
    cat.records["families"]["zeta"] = s.Family.model_construct(id="zeta", name="Zeta", representatives=[], devices={})
    runs = [best("unused", identity="published:p", device="gpu", throughput=1.0),
            best("p1", identity="published:p", device="d1", throughput=5.0, framework=_as_read("fw1"),
                 family=_as_read("fam")),
            best("p2", identity="published:p", device="d1", throughput=50.0, framework="aaa", latency=1.0, cost=9.0),
            best("t1", identity="published:p", device="d2", workload=_as_read("training"), framework="fw1",
                 latency=None, cost=None)]
    monkeypatch.setattr(a, "all_runs", lambda derived, held_since=None: list(runs))
    out = a.advisor_slice(SimpleNamespace(catalog=cat))
    assert out["families"] == [{"id": "fam", "name": "Fam"}, {"id": "zeta", "name": "Zeta"}]
    assert out["devices"] == [{"id": "d1", "name": "Dev One"}, {"id": "d2", "name": "Dev Two"}]
    assert out["frameworks"] == [{"id": "fw1", "label": "Torch (torch-neuronx)", "devices": ["d1"]}]
    assert out["keys"] == {"famkey": "family:fam", "pub p": "model:published:p", "seed m": "model:seed:m"}
    assert out["issues"]["fw2-only"] == {"title": "Issue fw2-only", "frameworks": ["fw2"]}  # type: ignore[index]
    assert out["roadmap"] == {"road-1": "Road one"}
    shipped = [row[0] for row in out["runs"]]  # type: ignore[union-attr]
    assert shipped == ["p1", "p2", "t1"]  # the run no answer chose is left out, the others renumbered
    table: Any = out["table"]
    assert table["fam|d1|"]["inference"] == [1, 1, 0, None]
    assert table["fam|d1|fw1"]["inference"] == [0, 0, 0, None]
    assert table["fam|d2|"]["training"] == [2, None, None, None]
    assert "training" not in table["fam|d1|"] and "inference" not in table["fam|d2|"]
    assert table["model:published:p|d1|"]["inference"] == [1, 1, 0, None]
    assert "model:seed:m|d1|" not in table
    assert set(table["zeta|d1|"]) == {"advice"}  # a family without runs: advice only (not another family's runs)
    assert table["fam|d1|"]["advice"]["fit"] == "good" and table["fam|d2|"]["advice"]["fit"] == "good"
    assert "advice" not in table["model:published:p|d1|"]
    assert "fam|gpu|" not in table
    row = out["runs"][0]  # type: ignore[index]
    assert len(row) == len(out["run_fields"])  # type: ignore[arg-type]
    assert out["models"]["published:p"] == {"name": "Pub P", "family": "fam", "names": ["Pub P"], "seed": []}  # type: ignore[index]


def _as_read(text: str) -> str:
    """``text`` as a new string (equal, not the same object): as two records' fields are."""
    return "".join(list(text))


def test_labels_units_devices_and_families_compare_by_value() -> None:
    p50, per = "Latency P50", "1M inferences"
    one = best("one", label=p50, per=per, latency=5.0, cost=5.0, on_demand=(5.0, "od", ()))
    two = best("two", label=_as_read(p50), per=_as_read(per), latency=1.0, cost=1.0, on_demand=(1.0, "od", ()))
    three = best("three", label=p50, per=per, latency=9.0, cost=9.0, on_demand=(9.0, "od", ()))
    assert pick_best([one, two, three])[1:] == (two, two, two)
    units = [best("u1", unit="images/s", throughput=1.0), best("u2", unit=_as_read("images/s"), throughput=5.0)]
    assert pick_best(units)[0] is units[1]
    runs = [best("a", device=_as_read("d1")), best("b", device="d2")]
    assert {d: [r.run for r in rs] for d, rs in compare(runs, ["d1", "d2"], family()).items()} == {"d1": ["a"],
                                                                                                  "d2": ["b"]}
    cat = Catalog(data_dir=Path("."))
    cat.records["devices"] = {"d1": s.Device.model_construct(id="d1", kind="neuron")}
    cat.records["families"] = {"fam": s.Family.model_construct(id="fam", representatives=[], devices={})}
    runs = [best("x", family="fam", throughput=1.0), best("y", family=_as_read("fam"), throughput=9.0)]
    assert [f.best.run if f.best else None for f in best_on_device(cat, runs, "d1")] == ["y"]


def test_a_shape_counts_only_its_own_runs() -> None:
    runs = [best("a1", device="d1", shape=("a",)), best("a2", device="d2", shape=("a",)),
            best("b1", device="d1", shape=("b",))]
    assert [r.run for r in compare(runs, ["d1", "d2"], family())["d1"]] == ["a1"]
    # equal shapes made apart (as each run's is) count together
    runs = [best("b1", device="d1", shape=("b",)), best("a1", device="d1", shape=tuple(["a"])),
            best("a2", device="d2", shape=tuple(["a"]))]
    assert [r.run for r in compare(runs, ["d1", "d2"], family())["d1"]] == ["a1"]


def test_a_column_key_splits_at_its_first_slash_only() -> None:
    cat = matrix_catalog()
    cat.cells = {"fw/inference/x": Cell(status="supported")}
    cat.held = {"fw/inference/x": None}
    assert [(x["framework"], x["workload"]) for x in a.advice(cat, "fam", "d1", None).support] == [("fw", "inference/x")]


def test_the_slice_compares_a_family_on_its_representative(known: Known, monkeypatch: pytest.MonkeyPatch) -> None:
    cat = matrix_catalog()
    cat.records["devices"] = {"d1": s.Device.model_construct(id="d1", kind="neuron", name="Dev One")}
    cat.records["families"] = {"fam": s.Family.model_construct(id="fam", name="Fam", representatives=["BERT base"],
                                                               devices={})}
    runs = [best("named", identity="published:p", model="BERT base (cased)", throughput=1.0),
            best("many1", identity="seed:m", model="Other", throughput=2.0),
            best("many2", identity="seed:m", model="Other", throughput=3.0)]
    monkeypatch.setattr(a, "all_runs", lambda derived, held_since=None: list(runs))
    out: Any = a.advisor_slice(SimpleNamespace(catalog=cat))
    chosen = out["runs"][out["table"]["fam|d1|"]["inference"][0]][0]
    assert chosen == "named"  # the family's representative, not the model measured most


def test_each_subject_of_the_slice_answers_with_its_own_runs(known: Known, monkeypatch: pytest.MonkeyPatch) -> None:
    cat = matrix_catalog()
    cat.records["devices"] = {"d1": s.Device.model_construct(id="d1", kind="neuron", name="Dev One")}
    cat.records["families"] = {f: s.Family.model_construct(id=f, name=f, representatives=[], devices={})
                               for f in ("fam", "zeta")}
    runs = [best("f1", identity="published:p", family="fam", throughput=1.0),
            best("s1", identity="seed:m", family="fam", throughput=2.0),
            best("s2", identity="seed:m", family="fam", throughput=3.0),
            best("z1", identity="seed:m", family="zeta", throughput=100.0)]
    monkeypatch.setattr(a, "all_runs", lambda derived, held_since=None: list(runs))
    out: Any = a.advisor_slice(SimpleNamespace(catalog=cat))

    def fastest(subject: str) -> str:
        return out["runs"][out["table"][f"{subject}|d1|"]["inference"][0]][0]

    assert [fastest(x) for x in ("fam", "zeta", "model:published:p", "model:seed:m")] == ["s2", "z1", "f1", "z1"]


def test_a_models_runs_count_for_its_shapes_whichever_record_named_it() -> None:
    runs = [best("m1", identity="model-m", device="d1", shape=("x",)),
            best("m2", identity="model-m", device="d1", shape=("y",)),
            best("m3", identity=_as_read("model-m"), device="d2", shape=("y",)),
            best("m4", identity=_as_read("model-m"), device="d3", shape=("y",))]
    assert [r.run for r in compare(runs, ["d1", "d2", "d3"], family())["d1"]] == ["m2"]
