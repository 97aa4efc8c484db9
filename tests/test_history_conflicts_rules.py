"""Two figures of one configuration and metric published at once (``data/checking/history_conflicts.py``),
on states and observations built in the test: which overlaps are conflicts, where they are located
and what the message says. No data files, no Sphinx (``make mutation`` runs it with ``--noconftest``
per mutant: ``tests/MUTATION.md``); ``test_benchmark_history.py`` edits the real history for one case."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.checking.history_conflicts import _presence, figure_conflicts
from neuron_docs.data.records import history as hs

D = dt.date
OBSERVATIONS = "benchmarks/history/observations.csv"


def obs(oid: str, first: int, *, last_seen: int | None = None, states: str | None = None, value: str = "1",
        version: str = "2.1.0", cid: str = "c", metric: str = "throughput_inferences_per_s") -> hs.BenchmarkObservation:
    return hs.BenchmarkObservation.model_construct(
        id=oid, configuration=cid, metric=metric, neuron_version=version, value=Decimal(value),
        first_state=f"s{first}", first_published=D(2024, 1, first), states=states,
        last_seen=None if last_seen is None else D(2024, 1, last_seen))


def catalog(states: int, observations: list[hs.BenchmarkObservation], lines: dict[str, int] | None = None) -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["benchmark_states"] = {f"s{n}": hs.BenchmarkState.model_construct(id=f"s{n}", date=D(2024, 1, n))
                                       for n in range(1, states + 1)}
    cat.records["benchmark_observations"] = {o.id: o for o in observations}
    cat.lines["benchmark_observations"] = lines if lines is not None else {
        o.id: 10 + n for n, o in enumerate(observations)}
    return cat


def test_the_states_that_published_a_figure() -> None:
    position = {f"s{n}": n - 1 for n in range(1, 6)}
    dates = [f"2024-01-0{n}" for n in range(1, 6)]
    assert _presence(obs("a", 2), position, dates, 4) == {1, 2, 3, 4}  # still published: to the latest
    assert _presence(obs("a", 2, last_seen=3), position, dates, 4) == {1, 2}  # to its last date
    assert _presence(obs("a", 2, last_seen=2), position, dates, 4) == {1}
    assert _presence(obs("a", 2, last_seen=5), position, dates, 4) == {1, 2, 3, 4}  # seen in the latest too
    assert _presence(obs("a", 1, states="s1;s3..s4"), position, dates, 4) == {0, 2, 3}  # its states, if written
    assert _presence(obs("a", 9), position, dates, 4) == set()  # a state the history lacks
    assert _presence(obs("a", 1, states="s1;s9"), position, dates, 4) == set()


def test_two_figures_published_at_once_are_an_error_at_the_second_naming_both() -> None:
    cat = catalog(3, [obs("a", 1, last_seen=2, value="100"), obs("b", 2, value="104.5", version="2.2.0")])
    found = figure_conflicts(cat)
    [error] = found["c"]
    assert (error.file, error.line, error.field) == (OBSERVATIONS, 11, "value")
    assert error.message == ("two figures for configuration 'c', throughput_inferences_per_s published at once (in "
                             "state s2): 100 (Neuron 2.1.0, line 10) and 104.5 (Neuron 2.2.0, line 11); expected one "
                             "figure per configuration and metric in a state")


def test_figures_one_after_the_other_are_no_conflict() -> None:
    cat = catalog(3, [obs("a", 1, last_seen=1), obs("b", 2, last_seen=2), obs("c3", 3)])
    assert figure_conflicts(cat) == {}
    # other metrics, other configurations: never compared
    cat = catalog(2, [obs("a", 1), obs("b", 1, metric="latency_p50_ms"), obs("x", 1, cid="other")])
    assert figure_conflicts(cat) == {}


def test_the_first_state_of_the_overlap_is_named_and_each_figure_reported_once() -> None:
    cat = catalog(4, [obs("a", 1), obs("b", 3), obs("d", 2, states="s2;s4")])
    found = figure_conflicts(cat)["c"]
    assert [(e.line, e.message.split("(in state ")[1].split(")")[0]) for e in found] == [(11, "s3"), (12, "s2")]
    assert "line 10) and" in found[0].message and "line 10) and" in found[1].message  # each against the first


def test_the_figures_are_compared_in_file_order() -> None:
    """The later line is the one located, whatever the order of the records."""
    cat = catalog(2, [obs("b", 1, value="2"), obs("a", 1, value="1")], lines={"a": 5, "b": 9})
    [error] = figure_conflicts(cat)["c"]
    assert error.line == 9 and "1 (Neuron 2.1.0, line 5) and 2 (Neuron 2.1.0, line 9)" in error.message
    # without lines, by id
    cat = catalog(2, [obs("b", 1, value="2"), obs("a", 1, value="1")], lines={})
    [error] = figure_conflicts(cat)["c"]
    assert error.line is None and error.message.index("1 (Neuron") < error.message.index("2 (Neuron")
    # one line known (the first line of the file): the figure without a line comes first
    cat = catalog(2, [obs("b", 1, value="2"), obs("a", 1, value="1")], lines={"a": 1})
    [error] = figure_conflicts(cat)["c"]
    assert error.line == 1


def test_a_figure_published_in_states_the_history_lacks_is_no_conflict() -> None:
    cat = catalog(2, [obs("a", 1), obs("b", 7)])
    assert figure_conflicts(cat) == {}


def test_a_figure_is_compared_with_every_earlier_one_and_every_series_looked_at() -> None:
    cat = catalog(3, [obs("x", 1, cid="alone"), obs("a", 1, last_seen=1), obs("b", 2, last_seen=2),
                      obs("d", 2, value="9")])
    found = figure_conflicts(cat)
    assert list(found) == ["c"]
    [error] = found["c"]
    assert error.line == 13 and "1 (Neuron 2.1.0, line 12) and 9" in error.message  # not a's: a ended before


def test_two_figures_published_at_once_in_the_latest_state_only() -> None:
    cat = catalog(3, [obs("a", 1, value="1"), obs("b", 3, value="2")])
    [error] = figure_conflicts(cat)["c"]
    assert "(in state s3)" in error.message
