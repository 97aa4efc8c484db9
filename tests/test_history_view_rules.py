"""The benchmark history as the pages show it (``data/published/history_view.py``), on states,
configurations, observations and prices built in the test: releases and corrections, the price in
force, what each state changed and how it is said, since when a figure holds, the long download.
No data files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); the history pages of the real data are ``test_benchmark_history_pages.py``'s."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.formatting import shown_change, shown_cost_number, shown_figure, shown_measure
from neuron_docs.data.figures.runs import CostFigure
from neuron_docs.data.published import history_view as hv
from neuron_docs.data.published import judgement
from neuron_docs.data.published.history_view import (BenchmarkChange, BenchmarkHistoryIndex, PublishedRelease,
                                                      SincePrevious, StateChange, change_text, changes_since,
                                                      describe_configuration, held_since, long_rows,
                                                      price_in_force, release_of, releases, since_previous,
                                                      state_changes)
from neuron_docs.data.records import history as hs
from neuron_docs.data.records import published as ps

T = "throughput_inferences_per_s"
D = dt.date


def state(n: int, date: D | None = None) -> hs.BenchmarkState:
    return hs.BenchmarkState.model_construct(id=f"s{n}", date=date or D(2024, 1, n))


def config(cid: str = "c", **fields: Any) -> hs.BenchmarkConfiguration:
    values = {"id": cid, "generation": "inf2", "kind": "inference", "view": "throughput", "model": "bert",
              "instance": "inf2.xlarge", "instances": None, "nodes": None, "first_state": "s1", "withdrawn": None,
              "framework": None, "model_details": None} | fields
    for name in ("batch_size", "micro_batch_size", "global_batch_size", "neuroncores", "tp_degree", "dp_degree",
                 "pp_degree", "sequence_length", "input_length", "output_length", "image_size", "threads", "n_models",
                 "workers_per_model", "zero_stage", "model_data_type", "training_data_type", "autocast_data_type",
                 "weight_storage_data_type", "optimizer", "application_type", "run_mode", "scaling"):
        values.setdefault(name, None)
    return hs.BenchmarkConfiguration.model_construct(**values)


def obs(oid: str, version: str, value: str, state_n: int, *, cid: str = "c", metric: str = T,
        status: str = "published", last_seen: D | None = None, ended: D | None = None) -> hs.BenchmarkObservation:
    return hs.BenchmarkObservation.model_construct(
        id=oid, configuration=cid, neuron_version="".join(list(version)), metric="".join(list(metric)),
        value=Decimal(value),
        first_published=D(2024, 1, state_n), first_state=f"s{state_n}", last_seen=last_seen, ended=ended,
        status="".join(list(status)), version_from="column")  # texts as the pickled cache gives them: other objects


def price(pid: str, usd: str, first: D, ended: D | None = None, instance: str = "inf2.xlarge") -> hs.HistoricalPrice:
    return hs.HistoricalPrice.model_construct(id=pid, instance=instance, basis="on-demand", usd_per_hour=Decimal(usd),
                                              first_published=first, ended=ended)


def catalog(states: int, configs: list[hs.BenchmarkConfiguration], observations: list[hs.BenchmarkObservation],
            prices: list[hs.HistoricalPrice] = ()) -> Catalog:  # type: ignore[assignment]
    cat = Catalog(data_dir=Path("."))
    cat.records["benchmark_states"] = {f"s{n}": state(n) for n in range(1, states + 1)}
    cat.records["benchmark_configurations"] = {c.id: c for c in configs}
    cat.records["benchmark_observations"] = {o.id: o for o in observations}
    cat.records["historical_prices"] = {p.id: p for p in prices}
    return cat


def index(cat: Catalog) -> BenchmarkHistoryIndex:
    return BenchmarkHistoryIndex.of(cat)


@pytest.fixture(autouse=True)
def levels_without_scipy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The judgement's levels found by cutting the series at each step beyond the threshold, not by
    ruptures' PELT: on these clear-cut series (flat, then one step of 50% or more) both give the same
    levels, and importing ruptures (scipy) would be 2 to 4 s of every mutant's run. The rules of the
    judgement itself are ``test_judgement.py``'s. Its process-wide cache is bypassed (neither read nor
    filled here), so the other tests of the process judge as before."""
    def levels(y: list[float], active: list[int], limit: float, rule: judgement.JudgementRule) -> Any:
        segments: list[list[int]] = []
        for i in active:
            if segments and not judgement._beyond(y[i] - y[segments[-1][-1]], rule.threshold):
                segments[-1].append(i)
            else:
                segments.append([i])
        return segments, rule.min_noise

    monkeypatch.setattr(judgement, "_levels", levels)
    monkeypatch.setattr(judgement, "_judged", judgement._judged.__wrapped__)
    yield


# -- prices and costs ---------------------------------------------------------------------------------

def test_the_price_in_force_on_a_date() -> None:
    old, new = price("old", "1", D(2024, 1, 1), ended=D(2024, 3, 1)), price("new", "2", D(2024, 3, 1))
    other = price("other", "9", D(2023, 1, 1), instance="trn1.2xlarge")
    prices = [new, old, other]
    assert price_in_force(prices, "inf2.xlarge", D(2023, 12, 31)) is None
    assert price_in_force(prices, "inf2.xlarge", D(2024, 1, 1)) is old
    assert price_in_force(prices, "inf2.xlarge", D(2024, 2, 29)) is old
    assert price_in_force(prices, "inf2.xlarge", D(2024, 3, 1)) is new
    assert price_in_force([old], "inf2.xlarge", D(2024, 4, 1)) is None  # ended, nothing after it
    assert price_in_force([old], "inf2.xlarge", D(2024, 3, 1)) is None  # not on the day it ended
    overlapping = [price("a", "1", D(2024, 1, 1)), price("b", "2", D(2024, 2, 1)), price("c", "3", D(2024, 1, 15))]
    assert price_in_force(overlapping, "inf2.xlarge", D(2024, 5, 1)).id == "b"  # type: ignore[union-attr]


def test_the_cost_at_the_price_in_force_when_first_published() -> None:
    cat = catalog(1, [], [], [price("p", "3.6", D(2024, 1, 1)), price("t", "7.2", D(2024, 1, 1), instance="trn1n.x")])
    cost = hv.historical_cost(cat, config(), {"latency_p50_ms": Decimal(1), T: Decimal(1000)}, D(2024, 1, 5))
    assert cost is not None and (cost.per, cost.instances, cost.price.id) == ("1M inferences", 1, "p")
    assert cost.usd == pytest.approx(1.0)  # $3.6/h for 3.6M inferences an hour
    assert hv.historical_cost(cat, config(), {T: Decimal(1000)}, D(2023, 1, 1)) is None
    assert hv.historical_cost(cat, config(), {"latency_p50_ms": Decimal(1)}, D(2024, 1, 5)) is None
    training = config(instance=None, instances="trn1.x;trn1n.x", nodes=4)
    cost = hv.historical_cost(cat, training, {"throughput_sequences_per_s": Decimal(2000)}, D(2024, 1, 5))
    assert cost is not None and (cost.per, cost.instances, cost.price.id) == ("1M training sequences", 4, "t")
    assert cost.usd == pytest.approx(4.0)
    assert hv.historical_cost(cat, config(instance=None), {T: Decimal(1)}, D(2024, 1, 5)) is None
    assert hv.throughput_of({"latency_p50_ms": Decimal(1), "throughput_tokens_per_s": Decimal(5), T: Decimal(2)}) == (
        T, Decimal(2))


def test_the_data_date_is_the_latest_states() -> None:
    cat = catalog(0, [], [])
    assert hv.benchmark_data_date(cat) is None
    cat.records["benchmark_states"] = {"b": state(9, D(2024, 5, 1)), "a": state(1, D(2024, 6, 1)),
                                       "c": state(2, D(2024, 4, 1))}
    assert hv.benchmark_data_date(cat) == D(2024, 6, 1)


# -- releases -----------------------------------------------------------------------------------------

def test_a_configurations_figures_release_by_release_corrections_applied() -> None:
    cat = catalog(4, [config()], [
        obs("a", "2.10", "100", 1, status="corrected", last_seen=D(2024, 1, 1), ended=D(2024, 1, 2)),
        obs("b", "2.10", "110", 2, status="superseded", last_seen=D(2024, 1, 2), ended=D(2024, 1, 3)),
        obs("bl", "2.10", "5", 1, metric="latency_p50_ms", status="corrected", last_seen=D(2024, 1, 2)),
        obs("bl2", "2.10", "6", 2, metric="latency_p50_ms", status="corrected", last_seen=D(2024, 1, 2)),
        obs("c", "2.9.1", "90", 1, status="withdrawn", last_seen=D(2024, 1, 1)),
        obs("d", "2.11", "120", 3), obs("e", "2.11", "7", 4, metric="latency_p50_ms"),
        obs("f", "2.11", "9", 3, metric="latency_p90_ms", status="superseded", last_seen=D(2024, 1, 4))],
        [price("p", "3.6", D(2024, 1, 1), ended=D(2024, 1, 3)), price("q", "7.2", D(2024, 1, 3))])
    rel = releases(index(cat), "c")
    assert [r.version for r in rel] == ["2.9.1", "2.10", "2.11"]
    old, mid, new = rel
    assert (old.status, old.last_seen, old.figures, old.corrected) == ("withdrawn", D(2024, 1, 1), {T: Decimal(90)}, {})
    assert mid.status == "superseded" and mid.last_seen == D(2024, 1, 2)
    assert mid.figures == {T: Decimal(110), "latency_p50_ms": Decimal(6)}  # corrections alone: the last figure
    assert mid.corrected == {T: [Decimal(100)], "latency_p50_ms": [Decimal(5), Decimal(6)]}
    assert (mid.first_published, mid.first_state) == (D(2024, 1, 1), "s1")
    assert (new.status, new.last_seen, new.first_state) == ("published", None, "s3")  # one figure ended: not it
    assert mid.cost is not None and mid.cost.price.id == "p" and new.cost is not None and new.cost.price.id == "q"
    assert index(cat).releases_of("c") is index(cat).releases_of("c")


def test_the_first_publication_of_a_release_is_its_earliest_then_the_earlier_state() -> None:
    cat = catalog(3, [config()], [obs("x", "2.10", "1", 3), obs("y", "2.10", "1", 2, metric="latency_p50_ms"),
                                  obs("z", "2.10", "1", 3, metric="latency_p90_ms")])
    [rel] = releases(index(cat), "c")
    assert (rel.first_published, rel.first_state) == (D(2024, 1, 2), "s2")
    # same date: the state published first in the history's order
    cat = catalog(2, [config()], [obs("x", "2.10", "1", 2), obs("y", "2.10", "2", 1, metric="latency_p50_ms")])
    cat.records["benchmark_states"] = {"s2": state(2, D(2024, 1, 5)), "s1": state(1, D(2024, 1, 5))}
    for o in cat.benchmark_observations.values():
        object.__setattr__(o, "first_published", D(2024, 1, 5))
    [rel] = releases(index(cat), "c")
    assert rel.first_state == "s2"


def test_a_release_superseded_without_a_last_seen_date_and_one_withdrawn() -> None:
    cat = catalog(3, [config()], [obs("a", "2.1", "1", 1, status="superseded"),
                                  obs("b", "2.2", "1", 2, status="withdrawn", last_seen=D(2024, 1, 2)),
                                  obs("b2", "2.2", "1", 2, metric="latency_p50_ms", status="superseded",
                                      last_seen=D(2024, 1, 3)),
                                  obs("b3", "2.2", "1", 2, metric="latency_p99_ms", status="corrected",
                                      last_seen=D(2024, 1, 5))])  # a corrected figure's end is not the release's
    one, two = releases(index(cat), "c")
    assert (one.status, one.last_seen) == ("superseded", None)
    assert (two.status, two.last_seen) == ("withdrawn", D(2024, 1, 3))


def test_the_index_orders_each_configurations_figures_by_state_then_release() -> None:
    cat = catalog(2, [config()], [obs("late", "2.2", "1", 2), obs("b", "2.10", "1", 1), obs("a", "2.9", "1", 1),
                                  obs("lost", "2.99", "1", 7)])
    assert [o.id for o in index(cat).by_configuration["c"]] == ["lost", "a", "b", "late"]
    assert index(cat).state_order == {"s1": 0, "s2": 1}


def test_every_release_published_newest_first_with_its_first_date_and_states() -> None:
    cat = catalog(3, [config(), config("d")], [obs("a", "2.9", "1", 2), obs("b", "2.9", "1", 1, cid="d"),
                                               obs("c", "2.10", "1", 3), obs("e", "2.9", "1", 3, cid="d"),
                                               obs("f", "2.9", "1", 9, cid="d")])  # a state the history lacks
    found = index(cat).published_releases()
    assert found == [PublishedRelease("2.10", D(2024, 1, 3), ("s3",)),
                     PublishedRelease("2.9", D(2024, 1, 1), ("s9", "s1", "s2", "s3"))]
    assert found[1].title == "Neuron 2.9 (first published 2024-01-01)"
    assert index(cat).published_releases() is found


# -- judgement and since when ---------------------------------------------------------------------

def series(values: list[str], metric: str = T) -> list[hs.BenchmarkObservation]:
    return [obs(f"o{i}", f"2.{i + 1}.0", v, i + 1, metric=metric,
                status="published" if i == len(values) - 1 else "superseded") for i, v in enumerate(values)]


def test_a_metrics_series_is_judged_in_its_own_direction() -> None:
    cat = catalog(4, [config()], series(["100", "100", "100", "150"]) + [
        obs(f"l{i}", f"2.{i + 1}.0", v, i + 1, metric="latency_p50_ms") for i, v in enumerate(["10", "10", "10", "15"])])
    idx = index(cat)
    assert idx.judgement("c", T).of("2.4.0").kind == "improved"  # type: ignore[union-attr]
    assert idx.judgement("c", "latency_p50_ms").of("2.4.0").kind == "regressed"  # type: ignore[union-attr]
    assert idx.judgement("c", T) is idx.judgement("c", T)
    assert hv.lower_is_better("latency_p50_ms") and not hv.lower_is_better(T)
    assert idx.throughput_metric("c") == T and idx.throughput_metric("other") is None


def test_the_cost_is_judged_over_the_latest_releases_at_one_price() -> None:
    # the price halves at state 3: the cost's fall there is the price's, not the figure's
    cat = catalog(4, [config()], series(["100", "100", "100", "100"]),
                  [price("p", "4", D(2024, 1, 1), ended=D(2024, 1, 3)), price("q", "2", D(2024, 1, 3))])
    judged = index(cat).judgement("c", "".join(list(hv.COST)))  # the name as a caller may build it
    assert [p.version for p in judged.points] == ["2.3.0", "2.4.0"]
    assert [p.kind for p in judged.points] == ["first", "steady"]
    last_alone = catalog(4, [config()], series(["100", "100", "100", "100"]),
                         [price("p", "4", D(2024, 1, 1), ended=D(2024, 1, 4)), price("q", "2", D(2024, 1, 4))])
    assert [p.version for p in index(last_alone).judgement("c", hv.COST).points] == ["2.4.0"]
    unpriced = catalog(2, [config()], series(["1", "2"]))
    assert index(unpriced).judgement("c", hv.COST).points == ()
    # a higher cost at one price is a regression (lower is better)
    rising = catalog(4, [config()], series(["100", "100", "100", "50"]), [price("p", "4", D(2024, 1, 1))])
    assert index(rising).judgement("c", hv.COST).of("2.4.0").kind == "regressed"  # type: ignore[union-attr]


def run(rid: str = "c", version: str = "2.4", **figures: Any) -> ps.PublishedInferenceRun:
    return ps.PublishedInferenceRun.model_construct(id=rid, neuron_version=version, **figures)


def test_since_when_a_current_figure_holds() -> None:
    cat = catalog(4, [config()], series(["100", "100", "150", "150"]))
    assert held_since(cat, run()) == "Neuron 2.3.0 (first published 2024-01-03)"
    assert release_of(cat, run()).version == "2.4.0"  # type: ignore[union-attr]
    assert held_since(cat, run("unknown")) is None and release_of(cat, run("unknown")) is None
    assert held_since(cat, run(version="9.9")) is None and release_of(cat, run(version="9.9")) is None
    steady = catalog(4, [config()], series(["100", "100", "50", "100"]))  # a suspect point starts nothing
    assert held_since(steady, run()) == "Neuron 2.1.0 (first published 2024-01-01)"
    swinging = catalog(5, [config()], series(["100", "200", "100", "200", "100"]))
    assert held_since(swinging, run(version="2.5")) == "Neuron 2.5.0 (first published 2024-01-05)"
    no_throughput = catalog(2, [config()], series(["5", "6"], metric="latency_p50_ms"))
    assert held_since(no_throughput, run(version="2.2")) == "Neuron 2.2.0 (first published 2024-01-02)"


def test_a_figure_against_the_previous_release_that_measured_it() -> None:
    cat = catalog(4, [config()], series(["100", "100", "150", "150"]))
    found = since_previous(cat, run(throughput_inferences_per_s=Decimal("160")), T)
    assert found == SincePrevious("c", T, Decimal(160), "2.4.0", Decimal(150), "2.3.0", "steady")
    assert found is not None and found.ratio == pytest.approx(160 / 150 - 1) and found.better is True
    jumped = since_previous(cat, run(version="2.3", throughput_inferences_per_s=Decimal("150")), T)
    assert jumped is not None and (jumped.previous_version, jumped.judged) == ("2.2.0", "improved")
    assert since_previous(cat, run(version="2.1", throughput_inferences_per_s=Decimal("1")), T) is None
    assert since_previous(cat, run(), T) is None  # the run has no such figure
    assert since_previous(cat, run("unknown", throughput_inferences_per_s=Decimal(1)), T) is None
    suspect = catalog(4, [config()], series(["100", "100", "50", "100"]))
    skipped = since_previous(suspect, run(throughput_inferences_per_s=Decimal("100")), T)
    assert skipped is not None and skipped.previous_version == "2.2.0"  # the suspect point is no reference
    swinging = catalog(5, [config()], series(["100", "200", "100", "200", "100"]))
    unstable = since_previous(swinging, run(version="2.5", throughput_inferences_per_s=Decimal("100")), T)
    assert unstable is not None and (unstable.previous_version, unstable.judged) == ("2.4.0", "unstable")
    zero = catalog(2, [config()], series(["0", "5"]))
    assert since_previous(zero, run(version="2.2", throughput_inferences_per_s=Decimal(5)), T) is None
    after_zero = catalog(3, [config()], series(["0", "5", "6"]))
    found = since_previous(after_zero, run(version="2.3", throughput_inferences_per_s=Decimal(6)), T)
    assert found is not None and found.previous == Decimal(5)  # the latest earlier figure, not the first
    first = catalog(2, [config()], series(["5", "5"]))
    one = since_previous(first, run(version="2.2", throughput_inferences_per_s=Decimal(5)), T)
    assert one is not None and one.judged == "steady" and one.better is None
    unjudged = since_previous(first, run(version="2.3", throughput_inferences_per_s=Decimal(5)), T)
    assert unjudged is not None and unjudged.judged == "steady"


def test_better_follows_the_metrics_direction() -> None:
    def sp(metric: str, value: int, previous: int) -> SincePrevious:
        return SincePrevious("c", metric, Decimal(value), "2", Decimal(previous), "1")
    assert sp(T, 2, 1).better is True and sp(T, 1, 2).better is False
    assert sp("latency_p50_ms", 1, 2).better is True and sp("latency_p50_ms", 2, 1).better is False
    assert sp(T, 3, 2).ratio == pytest.approx(0.5)


def test_a_level_is_shown_as_the_figures_it_is_the_median_of() -> None:
    assert str(hv._level_figure(100.0)) == "100"
    assert str(hv._level_figure(12.5)) == "12.5"
    assert str(hv._level_figure(12.6)) == "12.6"  # rounds up to a whole number: still not one


# -- what each state changed ----------------------------------------------------------------------

def test_each_state_lists_what_it_changed() -> None:
    cat = catalog(5, [config(first_state="s1", withdrawn=D(2024, 1, 5)), config("n", first_state="s2"),
                      config("empty", first_state="s1")], [
        obs("a", "2.1.0", "100", 1, status="superseded"), obs("b", "2.2.0", "100", 2, status="corrected"),
        obs("c2", "2.2.0", "104", 3, status="superseded"), obs("d", "2.3.0", "150", 4, status="withdrawn"),
        obs("l1", "2.2.0", "5", 2, metric="latency_p50_ms", status="corrected"),
        obs("l2", "2.2.0", "6", 3, metric="latency_p50_ms", status="superseded"),
        obs("m1", "2.2.0", "7", 2, metric="latency_p90_ms", status="corrected"),
        obs("m2", "2.2.0", "8", 4, metric="latency_p90_ms", status="superseded"),
        obs("n1", "2.5.0", "1", 2, cid="n")])
    changes = state_changes(index(cat))
    assert {s: [(c.kind, c.configuration, c.metric, c.version) for c in cs] for s, cs in changes.items()} == {
        "s1": [("new", "c", "", "2.1.0")],
        "s2": [("steady", "c", T, "2.2.0"), ("new", "n", "", "2.5.0")],
        "s3": [("corrected", "c", T, "2.2.0")],
        "s4": [("improved", "c", T, "2.3.0"), ("corrected", "c", "latency_p90_ms", "2.2.0")],
        "s5": [("withdrawn", "c", "", "2.3.0")]}
    corrected = changes["s3"][0]
    assert (corrected.old, corrected.new, corrected.state) == (Decimal(100), Decimal(104), "s3")
    improved = changes["s4"][0]
    assert (improved.old, improved.new, improved.baseline, improved.baseline_versions) == (
        Decimal(104), Decimal(150), Decimal(102), ("2.1.0", "2.2.0"))
    assert improved.ratio == pytest.approx(150 / 102 - 1) and improved.spread is None and improved.state == "s4"
    assert index(cat).changes() is index(cat).changes()
    by_release = index(cat).release_changes()
    assert {v: [c.kind for c in cs] for v, cs in by_release.items()} == {
        "2.1.0": ["new"], "2.2.0": ["steady", "corrected", "corrected"], "2.5.0": ["new"], "2.3.0": ["improved",
                                                                                                      "withdrawn"]}


def test_a_withdrawal_on_a_date_no_state_has_and_the_last_state_of_a_date() -> None:
    cat = catalog(2, [config(withdrawn=D(2030, 1, 1))], [obs("a", "2.1.0", "1", 1)])
    assert [c.kind for cs in state_changes(index(cat)).values() for c in cs] == ["new"]
    cat = catalog(3, [config(withdrawn=D(2024, 1, 9))], [obs("a", "2.10.0", "1", 1), obs("b", "2.9.0", "1", 2)])
    cat.records["benchmark_states"] = {"s1": state(1), "s2": state(2, D(2024, 1, 9)), "s3": state(3, D(2024, 1, 9))}
    withdrawn = [c for cs in state_changes(index(cat)).values() for c in cs if c.kind == "withdrawn"]
    assert [(c.state, c.version) for c in withdrawn] == [("s3", "2.10.0")]


def test_an_unstable_series_is_said_with_its_spread() -> None:
    cat = catalog(6, [config()], series(["100", "100", "200", "100", "200", "100"]))
    assert state_changes(index(cat))["s2"][0].spread is None  # steady before the swing
    last = state_changes(index(cat))["s6"][0]
    assert (last.kind, last.spread, last.baseline, last.ratio) == ("unstable", (Decimal("100.0"), Decimal("200.0")),
                                                                   None, None)
    suspect = catalog(4, [config()], series(["100", "100", "50", "100"]))
    point = state_changes(index(suspect))["s3"][0]
    assert (point.kind, point.spread, point.baseline) == ("suspect", None, Decimal(100))


def test_changes_in_words() -> None:
    unit = "inferences/s"
    step = BenchmarkChange("regressed", "c", T, Decimal(100), Decimal(80), Decimal(100), ("2.1.0",), -0.2, "2.2.0")
    level = f"{shown_change(-0.2)} against the level {shown_measure(Decimal(100), unit)} (median of Neuron 2.1.0)"
    label = hv.METRICS[T].label
    assert change_text(step) == f": {label} {shown_measure(Decimal(80), unit)} on Neuron 2.2.0, {level}"
    wide = BenchmarkChange("improved", "c", T, None, Decimal(120), None, ("2.1.0", "2.2.0", "2.3.0"), 0.2, "2.4.0")
    assert change_text(wide).endswith(f"against the level {shown_measure(Decimal(0), unit)} (median of Neuron 2.1.0 "
                                      "to 2.3.0, 3 releases)")
    suspect = BenchmarkChange("suspect", "c", T, None, Decimal(50), Decimal(100), ("2.1.0",), -0.5, "2.2.0")
    assert change_text(suspect).endswith("; the next release came back: a suspect point, not a change")
    assert change_text(BenchmarkChange("steady", "c", T, None, Decimal(5), None, ("1",), 0.0, "2")).startswith(f": {label}")
    assert change_text(BenchmarkChange("improved", "c", T, None, None, None, (), 0.1)) == ""
    assert change_text(BenchmarkChange("improved", "c", T, None, Decimal(1), None, (), None)) == ""
    assert change_text(BenchmarkChange("improved", "c", T, Decimal(1), Decimal(2), None, (), None)) == ""
    unstable = BenchmarkChange("unstable", "c", T, None, Decimal(150), version="2.5.0",
                               spread=(Decimal(100), Decimal(200)))
    assert change_text(unstable) == (f": {label} {shown_measure(Decimal(150), unit)} on Neuron 2.5.0; the series "
                                     f"swings between {shown_figure(Decimal(100))} and "
                                     f"{shown_measure(Decimal(200), unit)} (unstable)")
    alone = BenchmarkChange("unstable", "c", "other_metric", None, Decimal(7), version="2")
    assert change_text(alone) == ": figure 7 on Neuron 2; the series swings between 7 and 7 (unstable)"
    assert change_text(BenchmarkChange("unstable", "c", T)) == ""
    corrected = BenchmarkChange("corrected", "c", T, Decimal(100), Decimal(104), version="2.2.0")
    assert change_text(corrected) == f": 100 -> {shown_measure(Decimal(104), unit)} (Neuron 2.2.0)"
    assert change_text(BenchmarkChange("corrected", "c", "latency_p90_ms")) == (
        f": {hv.METRICS['latency_p90_ms'].label} corrected")
    assert change_text(BenchmarkChange("corrected", "c", T, None, Decimal(1))) == f": {label} corrected"
    assert change_text(BenchmarkChange("new", "c")) == "" and change_text(BenchmarkChange("withdrawn", "c")) == ""


def test_a_state_change_as_a_report_names_it() -> None:
    change = BenchmarkChange("improved", "c", T, Decimal(1), Decimal("1.5"), Decimal(1), ("2.1.0",), 0.5, "2.2.0", "s2",
                             None)
    item = StateChange("s2", D(2024, 1, 2), "2.2.0", change, "bert on x", "inf2", D(2024, 1, 1))
    assert item.release_title == "Neuron 2.2.0 (first published 2024-01-01)"
    assert StateChange("s2", D(2024, 1, 2), "2.2.0", change, "t", "g").release_title == "Neuron 2.2.0"
    assert item.key == ("benchmark", "s2", "improved", "c", T)
    assert item.text() == change_text(change).removeprefix(": ")
    assert StateChange("s", D(2024, 1, 1), "1", BenchmarkChange("new", "c"), "t", "g").text() == "new"
    assert item.to_json() == {
        "state": "s2", "date": "2024-01-02", "release": "2.2.0", "release_first_published": "2024-01-01",
        "kind": "improved", "configuration": "c", "generation": "inf2", "title": "bert on x", "metric": T,
        "version": "2.2.0", "old": "1", "new": "1.5", "baseline": "1", "baseline_versions": ["2.1.0"],
        "change_percent": 50.0, "spread": None}
    bare = StateChange("s", D(2024, 1, 1), "", BenchmarkChange("new", "c", spread=(Decimal(1), Decimal(2))), "t", "g")
    assert bare.to_json() | {"spread": None} == {
        "state": "s", "date": "2024-01-01", "release": "", "release_first_published": None, "kind": "new",
        "configuration": "c", "generation": "g", "title": "t", "metric": None, "version": None, "old": None,
        "new": None, "baseline": None, "baseline_versions": [], "change_percent": None, "spread": None}
    assert bare.to_json()["spread"] == ["1", "2"]
    assert StateChange("s", D(2024, 1, 1), "", replace_ratio(change, 0.123456), "t", "g").to_json()[
        "change_percent"] == 12.35


def replace_ratio(change: BenchmarkChange, ratio: float) -> BenchmarkChange:
    from dataclasses import replace
    return replace(change, ratio=ratio)


def test_what_new_states_change_grouped_by_release_then_kind_then_size() -> None:
    configs = [config("a", model="alpha"), config("b", model="beta"), config("z", model="zeta", first_state="s3")]
    observations = [obs("a1", "2.1.0", "100", 1, cid="a"), obs("a2", "2.1.0", "100", 2, cid="a"),
                    obs("a3", "2.1.0", "100", 3, cid="a"), obs("a4", "2.2.0", "200", 4, cid="a"),
                    obs("b1", "2.1.0", "100", 1, cid="b"), obs("b2", "2.1.0", "100", 2, cid="b"),
                    obs("b3", "2.1.0", "100", 3, cid="b"), obs("b4", "2.2.0", "50", 4, cid="b"),
                    obs("b5", "2.2.0", "5", 4, cid="b", metric="latency_p50_ms"),
                    obs("z1", "2.0.0", "1", 3, cid="z")]
    for o in observations[:3] + observations[4:7]:
        object.__setattr__(o, "neuron_version", f"2.0.{o.first_published.day}")
    head = catalog(4, configs, observations)
    base = catalog(2, configs, observations)
    found = changes_since(base, head)
    kinds = [(s.release, s.change.kind, s.change.configuration) for s in found]
    assert kinds[:2] == [("2.2.0", "regressed", "b"), ("2.2.0", "improved", "a")]
    assert ("2.0.0", "new", "z") in kinds and all(k != "steady" for _r, k, _c in kinds)
    assert kinds.index(("2.2.0", "improved", "a")) < kinds.index(("2.0.0", "new", "z"))
    assert found[0].title == describe_configuration(configs[1]) and found[0].generation == "inf2"
    assert found[0].release_first_published == D(2024, 1, 4)
    assert changes_since(head, head) == []


def test_within_a_kind_the_largest_change_first() -> None:
    configs = [config("small", model="alpha"), config("large", model="zulu")]  # names in the other order
    observations = []
    for cid, last in (("small", "150"), ("large", "300")):
        observations += [obs(f"{cid}{i}", f"2.{i}.0", "100", i, cid=cid) for i in (1, 2, 3)]
        observations.append(obs(f"{cid}4", "2.4.0", last, 4, cid=cid))
    found = changes_since(catalog(3, configs, observations), catalog(4, configs, observations))
    assert [s.change.configuration for s in found] == ["large", "small"]


def test_a_configuration_in_words() -> None:
    c = config(model="bert", instance=None, instances="trn1.32xlarge;trn1n.32xlarge", nodes=2, batch_size=4,
               tp_degree=8, zero_stage=0, model_data_type="bf16", optimizer="", model_details="seq 128", view="training")
    assert describe_configuration(c) == ("bert on trn1.32xlarge/trn1n.32xlarge, nodes 2, batch 4, TP 8, ZeRO 0, bf16, "
                                         "seq 128 (training)")
    assert describe_configuration(config(instance=None)) == "bert on  (throughput)"


def test_the_long_download_one_row_per_figure() -> None:
    cat = catalog(2, [config("b", batch_size=4), config("a")], [
        obs("x", "2.1.0", "1000", 1, cid="b", last_seen=D(2024, 1, 2), ended=D(2024, 1, 2), status="superseded"),
        obs("y", "2.1.0", "5", 1, cid="b", metric="latency_p50_ms"), obs("z", "2.1.0", "10", 2, cid="a"),
        obs("orphan", "2.1.0", "1", 1, cid="0-gone")], [price("p", "3.6", D(2024, 1, 1))])
    rows = list(long_rows(index(cat)))
    assert [r[0] for r in rows] == ["a", "b", "b"]
    header = dict(zip(hv.LONG_HEADER, rows[1], strict=True))
    assert header | {"cost_usd_per_1m": ""} == {
        "configuration": "b", "generation": "inf2", "kind": "inference", "view": "throughput", "model": "bert",
        "instance": "inf2.xlarge", "instances": "", "framework": "", "batch_size": "4", "nodes": "", "tp_degree": "",
        "dp_degree": "", "pp_degree": "", "sequence_length": "", "input_length": "", "output_length": "",
        "image_size": "", "model_data_type": "", "autocast_data_type": "", "training_data_type": "",
        "neuron_version": "2.1.0", "version_from": "column", "metric": T, "unit": "inferences/s",
        "value": shown_figure(Decimal(1000)), "first_published": "2024-01-01", "first_state": "s1",
        "last_seen": "2024-01-02", "ended": "2024-01-02", "status": "superseded", "cost_usd_per_1m": "",
        "cost_per": "1M inferences", "price_usd_per_hour": "3.6", "price_basis": "on-demand",
        "price_first_published": "2024-01-01"}
    assert header["cost_usd_per_1m"] == shown_cost_number(1.0)
    latency = dict(zip(hv.LONG_HEADER, rows[2], strict=True))
    assert (latency["unit"], latency["last_seen"], latency["ended"], latency["cost_usd_per_1m"], latency["cost_per"],
            latency["price_usd_per_hour"], latency["price_basis"], latency["price_first_published"]) == (
        "ms", "", "", "", "", "", "", "")


def test_a_new_release_sorting_before_the_last_as_text_is_a_remeasurement() -> None:
    cat = catalog(2, [config()], [obs("a", "2.9.0", "100", 1, status="superseded"), obs("b", "2.10.0", "100", 2)])
    assert [(c.kind, c.version) for c in state_changes(index(cat))["s2"]] == [("steady", "2.10.0")]


def test_a_state_correcting_several_figures_but_no_throughput_says_so_once() -> None:
    cat = catalog(3, [config()], [
        obs("t", "2.1.0", "100", 1), obs("p90a", "2.1.0", "7", 1, metric="latency_p90_ms", status="corrected"),
        obs("p99a", "2.2.0", "9", 1, metric="latency_p99_ms", status="corrected"),
        obs("p90b", "2.1.0", "8", 3, metric="latency_p90_ms"), obs("p99b", "2.2.0", "10", 3, metric="latency_p99_ms")])
    assert [(c.kind, c.metric, c.version, c.old) for c in state_changes(index(cat))["s3"]] == [
        ("corrected", "latency_p90_ms", "2.1.0", None)]


def test_what_the_pages_show_is_immutable() -> None:
    from dataclasses import FrozenInstanceError, fields
    change = BenchmarkChange("new", "c")
    made = [CostFigure(1.0, "x", price("p", "1", D(2024, 1, 1)), 1),
            hv.Release("2", D(2024, 1, 1), "s1", None, {}, {}, "published", None), change,
            PublishedRelease("2", D(2024, 1, 1), ()), SincePrevious("c", T, Decimal(1), "2", Decimal(1), "1"),
            StateChange("s", D(2024, 1, 1), "2", change, "t", "g")]
    for value in made:
        with pytest.raises(FrozenInstanceError):
            setattr(value, fields(value)[0].name, None)


def test_a_metric_sorting_before_the_cost_is_judged_as_itself() -> None:
    metric = "compute_cost_per_token_tflop"
    assert metric < hv.COST
    cat = catalog(2, [config()], series(["100", "100"]) + [
        obs(f"x{i}", f"2.{i + 1}.0", v, i + 1, metric=metric) for i, v in enumerate(["5", "5"])])
    assert [(p.version, p.value) for p in index(cat).judgement("c", metric).points] == [("2.1.0", 5.0), ("2.2.0", 5.0)]


def test_the_index_shows_none_of_what_it_keeps_in_its_repr() -> None:
    cat = catalog(2, [config()], series(["100", "150"]))
    made = index(cat)
    made.changes(), made.published_releases(), made.releases_of("c"), made.judgement("c", T)
    text = repr(made)
    assert not any(f", {name}=" in text for name in ("_releases", "_changes", "_published", "_judged"))


def test_an_older_release_published_later_is_a_steady_first_figure() -> None:
    cat = catalog(2, [config()], [obs("new", "2.2.0", "100", 1, status="superseded"), obs("old", "2.1.0", "50", 2)])
    [change] = state_changes(index(cat))["s2"]
    assert (change.kind, change.version, change.baseline, change.ratio) == ("steady", "2.1.0", None, None)


def test_the_release_of_a_run_is_found_by_its_version_not_as_text() -> None:
    cat = catalog(2, [config()], [obs("a", "2.9.0", "100", 1, status="superseded"), obs("b", "2.10.0", "100", 2)])
    assert release_of(cat, run(version="2.10")).version == "2.10.0"  # type: ignore[union-attr]
    assert release_of(cat, run(version="2.9")).version == "2.9.0"  # type: ignore[union-attr]


def test_a_figure_of_the_same_release_published_again_is_no_change() -> None:
    cat = catalog(3, [config()], [obs("a", "2.1.0", "100", 1, status="withdrawn"), obs("b", "2.1.0", "100", 3)])
    assert "s3" not in state_changes(index(cat))


def test_since_when_with_a_judgement_made_for_another_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """The judgement of a series is kept for the process (the same figures judged once): its releases
    are then another catalog's strings, equal to this one's."""
    import functools
    monkeypatch.setattr(judgement, "_judged", functools.lru_cache(judgement._judged))
    values = ["100", "100", "150", "150"]
    first = catalog(4, [config()], series(values))
    assert held_since(first, run()) == "Neuron 2.3.0 (first published 2024-01-03)"
    again = catalog(4, [config()], series(values))
    assert held_since(again, run()) == "Neuron 2.3.0 (first published 2024-01-03)"


def test_a_correction_is_of_the_same_release_whichever_state_published_it() -> None:
    """2.1.0's figure is corrected in s3, after 2.2.0's was published in s2: 2.2.0 is a new release's
    figure (not a correction), the correction is 2.1.0's."""
    cat = catalog(3, [config()], [obs("a", "2.1.0", "100", 1, status="corrected"),
                                  obs("c", "2.2.0", "150", 2), obs("b", "2.1.0", "104", 3, status="superseded")])
    found = state_changes(index(cat))
    assert [c.kind for c in found["s2"]] == ["improved"]


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_correction_said_once_per_configuration(order: tuple[str, str]) -> None:
    """In one state configuration "a" corrects a throughput and "b" a latency (or the other way round):
    each says its own correction."""
    throughput, latency = order
    observations = [obs("t1", "2.1.0", "100", 1, cid=throughput, status="corrected"),
                    obs("t2", "2.1.0", "104", 2, cid=throughput),
                    obs("l1", "2.1.0", "5", 1, cid=latency, metric="latency_p50_ms", status="corrected"),
                    obs("l2", "2.1.0", "6", 2, cid=latency, metric="latency_p50_ms")]
    cat = catalog(2, [config(throughput), config(latency)], observations)
    assert sorted((c.configuration, c.kind, c.metric) for c in state_changes(index(cat))["s2"]) == sorted([
        (throughput, "corrected", T), (latency, "corrected", "latency_p50_ms")])


def test_a_release_first_published_on_one_date_in_a_state_outside_the_history_and_in_one_inside() -> None:
    cat = catalog(2, [config()], [obs("out", "2.1.0", "1", 9), obs("in", "2.1.0", "5", 1, metric="latency_p50_ms")])
    for o in cat.benchmark_observations.values():
        object.__setattr__(o, "first_published", D(2024, 1, 1))
    [rel] = releases(index(cat), "c")
    assert rel.first_state == "s9"  # the state outside the history sorts first, as the figures do


def test_a_correction_of_a_release_sorting_after_the_next_figures_as_text() -> None:
    """2.9.0's figure is corrected in s3; s2 published 2.10.0's ("2.9.0" sorts after "2.10.0" as text):
    that figure is a new release's, no correction."""
    cat = catalog(3, [config()], [obs("a", "2.9.0", "100", 1, status="corrected"), obs("c", "2.10.0", "100", 2),
                                  obs("b", "2.9.0", "104", 3, status="superseded")])
    assert [c.kind for c in state_changes(index(cat))["s2"]] == ["steady"]
