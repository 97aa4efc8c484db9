"""Folding published states into the benchmark history (``benchmark_import/fold.py``), on state facts
built in the test: a row filed under its configuration, a configuration continued by a row of a
renamed, added or dropped column, a release going backwards set aside, a configuration withdrawn or
kept published (an unreadable file, a partial state), how a figure and a price end, the counts per
state, and the history read back giving the same history. No data files, no Sphinx (``make
mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from neuron_docs.benchmark_import import fold as F
from neuron_docs.benchmark_import.fold import PriceFact, PublishedFigure, RowFact, StateFacts
from neuron_docs.benchmark_import.history_rows import History, configuration_id, digest

BASE = {"generation": "inf2", "kind": "inference", "view": "throughput", "model": "bert",
        "instance": "inf2.xlarge", "batch_size": "8"}
DATES = ["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01", "2024-05-01"]


def row(version: str = "2.20.0", value: str = "100", metric: str = "throughput_inferences_per_s", *,
        file: str = "inf2/throughput_data_encoder.csv", **ident: str) -> RowFact:
    identity = {**BASE, **ident}
    return RowFact(identity, version, {metric: PublishedFigure(version, "column", value)},
                   {"table": "t", "row": "2"}, file=file, where=f"s/{file}", line=2)


def state(i: int, *rows: RowFact, prices: tuple[PriceFact, ...] = (), subject: str = "", **kw: Any) -> StateFacts:
    files = kw.pop("files", {r.file: "d" for r in rows})
    return StateFacts(f"{DATES[i]}-c{i}", DATES[i], f"c{i}", subject or f"Release {i}", rows=list(rows),
                      prices=list(prices), rows_read=len(rows), files=files, **kw)


def sid(i: int) -> str:
    return f"{DATES[i]}-c{i}"


def observations(history: History) -> list[dict[str, str]]:
    return [o for rows in history.observations.values() for o in rows]


# Small rules -----------------------------------------------------------------------------------


def test_an_identity_key_is_its_sorted_json() -> None:
    assert F.identity_key({"b": "Ä", "a": "1"}) == '{"a": "1", "b": "Ä"}'


def test_which_identity_may_continue_which() -> None:
    assert F.continues(BASE, {**BASE, "tp_degree": "2"})  # a column added
    assert F.continues({**BASE, "tp_degree": "2"}, BASE)  # dropped
    assert F.continues({**BASE, "threads": "4"}, {**BASE, "workers_per_model": "4"})  # renamed
    assert not F.continues(BASE, BASE)
    assert not F.continues(BASE, {**BASE, "batch_size": "16"})
    for fixed in F.FIXED:
        assert not F.continues(BASE, {**BASE, fixed: "other", "tp_degree": "2"})
    assert not F.continues(BASE, {k: v for k, v in BASE.items() if k != "view"})


def test_continuations_are_one_to_one_and_never_to_an_older_release() -> None:
    rows = [row(tp_degree="2"), row(tp_degree="4", batch_size="16")]
    gone = {"a": BASE, "b": {**BASE, "batch_size": "16"}}
    version = F.partial(F._row_version, "")
    assert F.pair_continuations(gone, rows, {}, version) == [("a", 0), ("b", 1)]
    # a row matching two configurations pairs with neither
    assert F.pair_continuations({"a": BASE, "c": {**BASE, "threads": "1"}}, rows[:1], {}, version) == []
    # two rows matching one configuration: neither
    assert F.pair_continuations({"a": BASE}, [row(tp_degree="2"), row(dp_degree="2")], {}, version) == []
    assert F.pair_continuations({"a": BASE}, rows[:1], {"a": "2.21.0"}, version) == []
    assert F.pair_continuations({"a": BASE}, rows[:1], {"a": "2.20.0"}, version) == [("a", 0)]
    assert F.pair_continuations({"a": BASE}, rows[:1], {"a": "2.9.0"}, version) == [("a", 0)]
    # a row of no release (and no state release) continues whatever the configuration's
    assert F.pair_continuations({"a": BASE}, [row("", tp_degree="2")], {"a": "2.21.0"}, version) == [("a", 0)]


def test_a_states_release_is_its_subjects_or_the_one_before() -> None:
    assert F.state_releases(["Neuron SDK Release 2.3.0", "docs", "2.20 Performance page updates", "",
                             "fix #2.5 and v1.2.3.4", "x 2.21.1 y"]) == [
        "2.3.0", "2.3.0", "2.20.0", "2.20.0", "2.20.0", "2.21.1"]
    assert F.state_releases(["nothing", "Release 2.1"]) == ["", "2.1.0"]


def test_a_figures_key_is_its_number() -> None:
    assert F._number("8.0") == F._number("8") == "8"
    assert F._number("0.50") == "0.5" and F._number("1200") == "1.2E+3"


def test_a_rows_release_is_its_newest() -> None:
    r = RowFact(BASE, "2.9.0", {"a": PublishedFigure("2.10.0", "column", "1"), "b": PublishedFigure("", "state", "1")})
    assert F._row_version("2.8.0", r) == "2.10.0"
    assert F._row_version("2.11.0", r) == "2.11.0"
    assert F._row_version("2.1.0", RowFact(BASE, "", {})) == "2.1.0"
    assert F._row_version("", RowFact(BASE, "", {})) == ""


# Folding ---------------------------------------------------------------------------------------


def test_one_state_one_row() -> None:
    history, summaries, problems = F.fold([state(0, row())])
    cid = configuration_id(BASE)
    assert list(history.configurations) == [cid] and problems == []
    config = history.configurations[cid]
    assert (config["file"], config["first_published"], config["first_state"], config["last_seen"],
            config["withdrawn"], config["states"], config["identities"], config["paths"]) == (
        "inf2/throughput_data_encoder.csv", DATES[0], sid(0), "", "", f"{sid(0)}..", "", "")
    assert config["table"] == "t" and config["model"] == "bert" and config["tp_degree"] == ""
    [obs] = observations(history)
    assert obs == {"id": f"{cid}-{digest('2.20.0', 'throughput_inferences_per_s', '1E+2')[:8]}",
                   "configuration": cid, "neuron_version": "2.20.0", "version_from": "column",
                   "metric": "throughput_inferences_per_s", "value": "100", "first_published": DATES[0],
                   "first_state": sid(0), "last_seen": "", "ended": "", "status": "published",
                   "states": f"{sid(0)}.."}
    s = summaries[sid(0)]
    assert (s.rows, s.placed, s.set_aside, s.new, s.corrected, s.superseded, s.withdrawn) == (1, 1, 0, 1, 0, 0, 0)
    assert history.states[0] == {"id": sid(0), "date": DATES[0], "commit": "c0", "subject": "Release 0",
                                 "release": "", "rows": "1", "placed": "1", "set_aside": "0",
                                 "files": "inf2/throughput_data_encoder.csv:d", "overlaps": "", "unread": "",
                                 "scope": "whole", "held": ""}


def test_a_figure_published_again_is_one_observation() -> None:
    history, summaries, _ = F.fold([state(0, row()), state(1, row(value="100.0"))])
    [obs] = observations(history)
    assert obs["states"] == f"{sid(0)}.." and obs["status"] == "published" and obs["value"] == "100"
    assert summaries[sid(1)].new == 0


def test_how_a_figure_ends() -> None:
    states = [state(0, row()), state(1, row(value="120")), state(2, row("2.21.0", "130")),
              state(3, row("2.21.0", "130", metric="latency_p50_ms"))]
    history, summaries, _ = F.fold(states)
    by_value = {(o["metric"], o["value"]): o for o in observations(history)}
    first = by_value[("throughput_inferences_per_s", "100")]
    assert (first["status"], first["last_seen"], first["ended"], first["states"]) == (
        "corrected", DATES[0], DATES[1], sid(0))
    second = by_value[("throughput_inferences_per_s", "120")]
    assert (second["status"], second["last_seen"], second["ended"], second["states"]) == (
        "superseded", DATES[1], DATES[2], sid(1))
    third = by_value[("throughput_inferences_per_s", "130")]
    assert (third["status"], third["last_seen"], third["ended"]) == ("withdrawn", DATES[2], DATES[3])
    assert by_value[("latency_p50_ms", "130")]["status"] == "published"
    assert [(summaries[sid(i)].new, summaries[sid(i)].corrected, summaries[sid(i)].superseded,
             summaries[sid(i)].withdrawn) for i in range(4)] == [(1, 0, 0, 0), (1, 1, 0, 0), (1, 0, 1, 0),
                                                                 (1, 0, 0, 1)]


def test_a_configuration_no_longer_published_is_withdrawn() -> None:
    other = row(batch_size="16")
    history, _, _ = F.fold([state(0, row(), other), state(1, other), state(2, other)])
    config = history.configurations[configuration_id(BASE)]
    assert (config["last_seen"], config["withdrawn"], config["states"]) == (DATES[0], DATES[1], sid(0))
    kept = history.configurations[configuration_id({**BASE, "batch_size": "16"})]
    assert (kept["last_seen"], kept["withdrawn"], kept["states"]) == ("", "", f"{sid(0)}..")


def test_a_configuration_published_again_after_a_gap() -> None:
    other = row(batch_size="16")
    history, _, _ = F.fold([state(0, row(), other), state(1, other), state(2, row(), other), state(3, other)])
    config = history.configurations[configuration_id(BASE)]
    assert config["states"] == f"{sid(0)};{sid(2)}" and config["withdrawn"] == DATES[3]
    [obs] = [o for o in observations(history) if o["configuration"] == configuration_id(BASE)]
    assert obs["states"] == f"{sid(0)};{sid(2)}"


def test_a_configuration_of_an_unreadable_file_or_absent_from_a_partial_state_is_kept() -> None:
    other = row(batch_size="16", file="inf2/other.csv")
    unreadable = F.fold([state(0, row(), other), state(1, other, error_files=frozenset({row().file}))])[0]
    config = unreadable.configurations[configuration_id(BASE)]
    assert config["states"] == f"{sid(0)}.." and config["withdrawn"] == ""
    assert [o["states"] for o in observations(unreadable) if o["configuration"] == configuration_id(BASE)] == [
        f"{sid(0)}.."]
    assert unreadable.states[1]["held"] == configuration_id(BASE)
    assert unreadable.states[1]["unread"] == row().file
    partial = F.fold([state(0, row(), other), state(1, other, scope="partial")])[0]
    assert partial.configurations[configuration_id(BASE)]["withdrawn"] == ""
    assert partial.states[1]["scope"] == "partial"
    # a partial state that holds the file withdraws it
    holds = F.fold([state(0, row(), other), state(1, other, scope="partial",
                                                  files={row().file: "d", other.file: "d"})])[0]
    assert holds.configurations[configuration_id(BASE)]["withdrawn"] == DATES[1]


def test_a_release_going_backwards_is_set_aside() -> None:
    history, summaries, problems = F.fold([state(0, row("2.21.0")), state(1, row("2.20.0", "90"))])
    assert [(p.file, p.line, p.column, p.severity) for p in problems] == [
        ("s/inf2/throughput_data_encoder.csv", 2, "Neuron Version", "error")]
    assert "Neuron 2.20.0 for a configuration already published with 2.21.0" in problems[0].message
    assert (summaries[sid(1)].placed, summaries[sid(1)].set_aside) == (0, 1)
    config = history.configurations[configuration_id(BASE)]
    assert config["withdrawn"] == DATES[1]  # the row does not keep it published
    assert [o["value"] for o in observations(history)] == ["100"]


def test_a_release_going_backwards_in_a_stale_copy_is_a_warning() -> None:
    stale = row("2.20.0", "90")
    stale.stale = True
    _, summaries, problems = F.fold([state(0, row("2.21.0")), state(1, stale)])
    assert [(p.line, p.column, p.severity) for p in problems] == [(2, "", "warning")]
    assert "stale copy: Neuron 2.20.0" in problems[0].message and "already has 2.21.0" in problems[0].message
    assert summaries[sid(1)].set_aside == 1


def test_a_release_going_backwards_without_a_line_is_located_at_the_state() -> None:
    back = row("2.20.0", "90")
    back.where, back.line = "", None
    problems = F.fold([state(0, row("2.21.0")), state(1, back)])[2]
    assert [(p.file, p.line, p.column) for p in problems] == [(sid(1), None, "")]


def test_the_same_release_or_a_later_one_is_no_step_back() -> None:
    assert F.fold([state(0, row("2.21.0")), state(1, row("2.21.0", "90"))])[2] == []
    assert F.fold([state(0, row("2.9.0")), state(1, row("2.10.0", "90"))])[2] == []


def test_a_row_of_no_release_after_one_keeps_the_configurations_release() -> None:
    """A file without a release column in a state whose subject names none (nor any before it) gives
    a row of no release: it is no step back, and the configuration's newest release stays the one
    published before (a later row older than that is still set aside)."""
    no_release = RowFact(BASE, "", {"throughput_inferences_per_s": PublishedFigure("", "state", "90")},
                         {"table": "t", "row": "2"}, file=row().file, where="s/x.csv", line=2)
    states = [state(0, row("2.21.0"), subject="docs"), state(1, no_release, subject="docs"),
              state(2, row("2.20.0", "80"), subject="docs")]
    history, summaries, problems = F.fold(states)
    assert [(p.line, "2.20.0 for a configuration already published with 2.21.0" in p.message) for p in problems] == [
        (2, True)]
    assert (summaries[sid(1)].placed, summaries[sid(2)].set_aside) == (1, 1)
    assert sorted(o["value"] for o in observations(history)) == ["100", "90"]


def test_a_row_with_a_column_added_continues_its_configuration() -> None:
    states = [state(0, row()), state(1, row(tp_degree="2")), state(2, row(tp_degree="2"))]
    history, _, _ = F.fold(states)
    cid = configuration_id(BASE)
    assert list(history.configurations) == [cid]
    config = history.configurations[cid]
    assert config["tp_degree"] == "2" and config["states"] == f"{sid(0)}.."
    assert json.loads(config["identities"]) == {sid(0): BASE}
    assert config["identities"] == json.dumps({sid(0): BASE}, sort_keys=True, separators=(",", ":"))


def test_a_continuation_never_goes_to_an_older_release() -> None:
    history, _, _ = F.fold([state(0, row("2.21.0")), state(1, row("2.20.0", tp_degree="2"))])
    assert len(history.configurations) == 2


def test_a_moved_configuration_keeps_its_paths() -> None:
    states = [state(0, row()), state(1, row(file="inf2/new.csv")), state(2, row(file="inf2/new.csv"))]
    history, _, _ = F.fold(states)
    config = history.configurations[configuration_id(BASE)]
    assert config["file"] == "inf2/new.csv"
    assert json.loads(config["paths"]) == {sid(0): "inf2/throughput_data_encoder.csv"}


def test_the_latest_description_is_kept() -> None:
    late = row()
    late.description = {"table": "t2", "row": "9"}
    history, _, _ = F.fold([state(0, row()), state(1, late)])
    config = history.configurations[configuration_id(BASE)]
    assert (config["table"], config["row"]) == ("t2", "9")
    no_description = row()
    no_description.description = None
    history, _, _ = F.fold([state(0, row()), state(1, no_description)])
    assert history.configurations[configuration_id(BASE)]["table"] == "t"


def test_an_identity_that_was_another_configurations_gets_an_id_of_its_first_state() -> None:
    # s0: A (BASE) and B (BASE + tp); s1: A continued as BASE + dp; s2: BASE again, a new configuration
    b = row(tp_degree="2", batch_size="16")
    states = [state(0, row(), b), state(1, row(dp_degree="2"), b), state(2, row(dp_degree="2"), b, row())]
    history, _, _ = F.fold(states)
    assert len(history.configurations) == 3
    expected = configuration_id({**BASE, "first_state": sid(2)})
    assert expected in history.configurations
    assert history.configurations[expected]["first_state"] == sid(2)


def test_prices_end_changed_or_withdrawn_and_are_kept_when_unreadable() -> None:
    p1, p2 = PriceFact("inf2.xlarge", "on-demand", "0.76", "p.csv"), PriceFact("inf2.xlarge", "on-demand", "0.80", "p.csv")
    q = PriceFact("inf2.8xlarge", "on-demand", "1.9", "p.csv")
    history, _, _ = F.fold([state(0, prices=(p1, q)), state(1, prices=(p2,)), state(2, prices=(p2,))])
    rows = {(p["instance"], p["usd_per_hour"]): p for ps in history.prices.values() for p in ps}
    assert (rows[("inf2.xlarge", "0.76")]["status"], rows[("inf2.xlarge", "0.76")]["ended"]) == ("changed", DATES[1])
    assert (rows[("inf2.8xlarge", "1.9")]["status"], rows[("inf2.8xlarge", "1.9")]["last_seen"]) == (
        "withdrawn", DATES[0])
    assert rows[("inf2.xlarge", "0.80")]["status"] == "published"
    assert rows[("inf2.xlarge", "0.76")]["id"] == f"inf2.xlarge-{digest('on-demand', '0.76')[:8]}"
    assert rows[("inf2.xlarge", "0.76")]["file"] == "p.csv"
    kept, _, _ = F.fold([state(0, prices=(p1, q)), state(1, prices=(p2,), price_errors=True)])
    assert {p["instance"]: p["status"] for ps in kept.prices.values() for p in ps if p["usd_per_hour"] != "0.76"} == {
        "inf2.xlarge": "published", "inf2.8xlarge": "published"}
    partial, _, _ = F.fold([state(0, prices=(p1, q)), state(1, prices=(p2,), scope="partial", files={})])
    assert [p["status"] for p in partial.prices["inf2.8xlarge"]] == ["published"]
    holds, _, _ = F.fold([state(0, prices=(p1, q)), state(1, prices=(p2,), scope="partial", files={"p.csv": "d"})])
    assert [p["status"] for p in holds.prices["inf2.8xlarge"]] == ["withdrawn"]


def test_a_state_without_a_price_of_the_one_before_does_not_keep_an_older_one() -> None:
    p1 = PriceFact("inf2.xlarge", "on-demand", "0.76", "p.csv")
    history, _, _ = F.fold([state(0, prices=(p1,)), state(1), state(2, price_errors=True)])
    assert [p["states"] for p in history.prices["inf2.xlarge"]] == [sid(0)]


def test_the_state_rows_say_their_files_overlaps_and_releases() -> None:
    s0 = state(0, row(), subject="Neuron 2.20 release", files={"b.csv": "2", "a.csv": "1"},
               decided=frozenset({("b.csv", "a.csv", True), ("a.csv", "c.csv", False)}),
               error_files=frozenset({"z.csv", "y.csv"}))
    history, _, _ = F.fold([s0])
    st = history.states[0]
    assert (st["release"], st["files"], st["overlaps"], st["unread"]) == (
        "2.20.0", "a.csv:1;b.csv:2", "a.csv|c.csv;b.csv>a.csv", "y.csv;z.csv")


def test_only_the_states_read_now_are_summarised() -> None:
    old = state(0, row())
    old.read = False
    _, summaries, _ = F.fold([old, state(1, row())])
    assert list(summaries) == [sid(1)]


# Read back -------------------------------------------------------------------------------------


def refold(history: History) -> History:
    return F.fold(F.stored_facts(History(states=[dict(s) for s in history.states],
                                         configurations=dict(history.configurations),
                                         observations=dict(history.observations),
                                         prices=dict(history.prices))))[0]


def test_a_history_read_back_folds_into_itself() -> None:
    b = row(tp_degree="2", batch_size="16", file="inf2/other.csv")
    p1, p2 = PriceFact("inf2.xlarge", "on-demand", "0.76", "p.csv"), PriceFact("inf2.xlarge", "on-demand", "0.8", "p.csv")
    states = [state(0, row(), b, prices=(p1,)),
              state(1, row(value="120", file="inf2/new.csv"), b, prices=(p2,), error_files=frozenset({"x"})),
              state(2, row("2.21.0", "130", dp_degree="2", file="inf2/new.csv"), prices=(p2,)),
              state(3, row("2.21.0", "130", dp_degree="2", file="inf2/new.csv"), scope="partial",
                    files={"inf2/new.csv": "d"}),
              state(4, row("2.21.0", "140", dp_degree="2", file="inf2/new.csv"), b,
                    error_files=frozenset({"inf2/other.csv"}))]
    history = F.fold(states)[0]
    assert refold(history).texts() == history.texts()
    # and folding one more state into the read-back history is folding it into the states
    facts = F.stored_facts(history)
    assert [len(f.rows) for f in facts] == [2, 2, 1, 1, 2]
    assert [f.read for f in facts] == [False] * 5


def test_a_held_configuration_is_read_back_as_held() -> None:
    """Kept published in the latest state without a row (its file unreadable, or a partial state
    without it), a configuration keeps its description (table, row, framework name) when the history is
    read back for the next import: the description is its latest row's, not the held state's."""
    other = row(batch_size="16", file="inf2/other.csv")
    history = F.fold([state(0, row(), other), state(1, other, error_files=frozenset({row().file}))])[0]
    facts = F.stored_facts(history)
    held = [r for r in facts[1].rows if r.held]
    assert [r.identity for r in held] == [BASE] and facts[1].held_ids == {configuration_id(BASE)}
    assert refold(history).configurations[configuration_id(BASE)]["table"] == "t"
    assert refold(history).texts() == history.texts()
    # held, then withdrawn: the same
    history = F.fold([state(0, row(), other), state(1, other, scope="partial", files={other.file: "d"}),
                      state(2, other)])[0]
    assert history.configurations[configuration_id(BASE)]["withdrawn"] == DATES[2]
    assert refold(history).texts() == history.texts()


def test_stored_states_give_their_counts_files_and_decisions() -> None:
    s0 = state(0, row(), files={"a.csv": "1"}, decided=frozenset({("b.csv", "a.csv", True), ("a.csv", "c.csv", False)}),
               error_files=frozenset({"z.csv"}), scope="partial")
    s0.set_aside = 2
    s0.rows_read = 5
    history = F.fold([s0])[0]
    [fact] = F.stored_facts(history)
    assert (fact.id, fact.date, fact.commit, fact.subject, fact.rows_read, fact.set_aside, fact.placed) == (
        sid(0), DATES[0], "c0", "Release 0", 5, 2, 1)
    assert fact.files == {"a.csv": "1"} and fact.error_files == {"z.csv"} and fact.scope == "partial"
    assert fact.decided == {("b.csv", "a.csv", True), ("a.csv", "c.csv", False)}
    assert F._decision("a>b") == ("a", "b", True) and F._decision("a|b") == ("a", "b", False)
    assert F._decision("a:b>c|d") == ("a:b", "c|d", True)


def test_a_stored_record_without_its_states_spans_its_first_to_its_last_seen() -> None:
    order = [sid(i) for i in range(4)]
    position = {s: i for i, s in enumerate(order)}
    dates = dict(zip(order, DATES, strict=False))
    assert F._presence({"states": f"{sid(1)}.."}, position, 3, dates, order) == {1, 2, 3}
    assert F._presence({"first_state": sid(1), "last_seen": ""}, position, 3, dates, order) == {1, 2, 3}
    assert F._presence({"first_state": sid(1), "last_seen": DATES[2]}, position, 3, dates, order) == {1, 2}
    assert F._presence({"first_state": sid(2), "last_seen": DATES[0]}, position, 3, dates, order) == {2}
    assert F._presence({"first_state": sid(1), "last_seen": "2024-02-15"}, position, 3, dates, order) == {1}


# The survivors of the mutation run (stop 44) ---------------------------------------------------


def built(text: str) -> str:
    """``text`` as a new object at run time (as a pickled catalog or a parsed file gives it), never
    the interned literal: an ``is`` compared with ``==``'s literal tells them apart."""
    return "".join(list(text))


def test_a_partial_state_read_back_is_partial_whatever_object_names_its_scope() -> None:
    other = row(batch_size="16", file="inf2/other.csv")
    partial = F.fold([state(0, row(), other), state(1, other, scope=built("partial"))])[0]
    assert partial.configurations[configuration_id(BASE)]["withdrawn"] == ""


def test_a_configuration_of_no_release_then_one_is_no_step_back() -> None:
    # published first with no release (no column, no state release), then with one
    history, _, problems = F.fold([state(0, row(""), subject="docs"), state(1, row("2.20.0", "90"), subject="docs")])
    assert problems == [] and [o["neuron_version"] for o in observations(history)] == ["", "2.20.0"]


def test_a_state_of_no_rows_read_counts_none() -> None:
    history, summaries, _ = F.fold([StateFacts(sid(0), DATES[0], "c0", "Release 0")])
    assert summaries[sid(0)].rows == 0 and history.states[0]["rows"] == "0"


def test_a_configuration_held_two_states_running_stays_published() -> None:
    other = row(batch_size="16", file="inf2/other.csv")
    unread = frozenset({row().file})
    history = F.fold([state(0, row(), other), state(1, other, error_files=unread),
                      state(2, other, error_files=unread)])[0]
    config = history.configurations[configuration_id(BASE)]
    assert (config["states"], config["withdrawn"]) == (f"{sid(0)}..", "")
    assert [s["held"] for s in history.states] == ["", configuration_id(BASE), configuration_id(BASE)]


def test_a_configurations_newest_release_follows_each_later_one() -> None:
    # 2.20, then 2.21, then 2.20 again: the last goes back from 2.21
    problems = F.fold([state(0, row("2.20.0")), state(1, row("2.21.0", "90")), state(2, row("2.20.0", "80"))])[2]
    assert ["already published with 2.21.0" in p.message for p in problems] == [True]


def test_a_partial_state_keeps_prices_whatever_object_names_its_scope() -> None:
    p1, q = PriceFact("inf2.xlarge", "on-demand", "0.76", "p.csv"), PriceFact("inf2.8xlarge", "on-demand", "1.9", "p.csv")
    partial, _, _ = F.fold([state(0, prices=(p1, q)), state(1, prices=(p1,), scope=built("partial"), files={})])
    assert [p["status"] for p in partial.prices["inf2.8xlarge"]] == ["published"]


def test_a_new_summary_counts_nothing() -> None:
    assert F.StateSummary("s") == F.StateSummary("s", 0, 0, 0, 0, 0, 0, 0, False)


def test_a_row_of_a_configurations_current_identity_is_filed_before_one_of_its_earlier_identity() -> None:
    # s0: A (BASE); s1: A continued as BASE + dp; s2: BASE (listed first) and BASE + dp: A is BASE + dp's
    states = [state(0, row()), state(1, row(dp_degree="2")), state(2, row(), row(dp_degree="2"))]
    history, _, _ = F.fold(states)
    a = history.configurations[configuration_id(BASE)]
    assert (a["dp_degree"], a["states"]) == ("2", f"{sid(0)}..")
    assert history.configurations[configuration_id({**BASE, "first_state": sid(2)})]["dp_degree"] == ""


def test_a_figure_of_no_release_column_is_of_its_states_release() -> None:
    of_state = RowFact(BASE, "", {"throughput_inferences_per_s": PublishedFigure("", "state", "90")},
                       {"table": "t", "row": "2"}, file=row().file, where="s/x.csv", line=2)
    history = F.fold([state(0, of_state, subject="Neuron 2.20 release")])[0]
    assert [(o["neuron_version"], o["version_from"]) for o in observations(history)] == [("2.20.0", "state")]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=4))
def test_no_release_is_before_every_release(parts: list[int]) -> None:
    release = ".".join(map(str, parts))
    figures = {"throughput_inferences_per_s": PublishedFigure(release, "column", "1")}
    assert F._row_version("", RowFact(BASE, "", figures)) == release


def test_a_state_read_back_places_its_rows_but_those_set_aside_now() -> None:
    back = state(1, row("2.20.0", "90"), placed=1)
    history, _, _ = F.fold([state(0, row("2.21.0")), back])
    assert history.states[1]["placed"] == "0"


def test_a_stored_state_of_empty_counts_counts_none() -> None:
    stored = History(states=[{"id": sid(0), "date": DATES[0], "commit": "c0", "subject": "", "rows": "",
                              "placed": "", "set_aside": ""}])
    [fact] = F.stored_facts(stored)
    assert (fact.rows_read, fact.set_aside, fact.placed, fact.scope, fact.files) == (0, 0, 0, "whole", {})


def test_a_row_of_no_release_column_is_read_back_of_no_release() -> None:
    """A row read back has the release of its own column (RowFact.version), "" for one whose figures
    are of the state's release, as when it was read."""
    of_state = RowFact(BASE, "", {"throughput_inferences_per_s": PublishedFigure("", "state", "90")},
                       {"table": "t", "row": "2"}, file=row().file, where="s/x.csv", line=2)
    history = F.fold([state(0, of_state, subject="Neuron 2.20 release"), state(1, row("2.21.0", "80"))])[0]
    facts = F.stored_facts(history)
    assert [r.version for f in facts for r in f.rows] == ["", "2.21.0"]
    assert refold(history).texts() == history.texts()


def test_an_equal_identity_is_no_continuation() -> None:
    assert not F.continues(BASE, dict(BASE))


def test_earlier_identities_and_paths_are_written_by_state_id() -> None:
    # two states of one date ordered by STATES.tsv, not by their ids: "...-cb" before "...-ca"
    ids = ["2024-01-01-cb", "2024-01-01-ca", "2024-02-01-cc"]
    facts = [state(0, row(file="a.csv")), state(1, row(tp_degree="2", file="b.csv")),
             state(2, row(tp_degree="2", dp_degree="2", file="c.csv"))]
    for fact, sid_ in zip(facts, ids, strict=True):
        fact.id = sid_
    config = F.fold(facts)[0].configurations[configuration_id(BASE)]
    assert list(json.loads(config["identities"])) == ["2024-01-01-ca", "2024-01-01-cb"]
    assert list(json.loads(config["paths"])) == ["2024-01-01-ca", "2024-01-01-cb"]


def test_a_long_history_ends_nothing_its_latest_state_publishes() -> None:
    # 300 states: the latest state's position is no small (cached) int
    states = [StateFacts(f"2020-01-01-c{i:03d}", "2020-01-01", f"c{i}", "Release 2.20", rows=[row()], rows_read=1)
              for i in range(300)]
    history = F.fold(states)[0]
    config = history.configurations[configuration_id(BASE)]
    assert (config["withdrawn"], config["states"]) == ("", "2020-01-01-c000..")
    assert [o["status"] for o in observations(history)] == ["published"]


def test_earlier_identities_and_paths_are_written_as_their_text() -> None:
    states = [state(0, row(model="bért", file="ü/a.csv")), state(1, row(model="bért", tp_degree="2", file="b.csv"))]
    config = F.fold(states)[0].configurations[configuration_id({**BASE, "model": "bért"})]
    assert '"bért"' in config["identities"] and '"ü/a.csv"' in config["paths"]


def test_a_configuration_held_then_published_again_is_read_back_with_its_row() -> None:
    other = row(batch_size="16", file="inf2/other.csv")
    history = F.fold([state(0, row(), other), state(1, other, error_files=frozenset({row().file})),
                      state(2, row(value="120"), other)])[0]
    facts = F.stored_facts(history)
    assert [[(r.identity == BASE, r.held) for r in f.rows if r.identity["batch_size"] == "8"] for f in facts] == [
        [(True, False)], [(True, True)], [(True, False)]]
    assert refold(history).texts() == history.texts()


def test_a_new_configuration_after_a_continued_one_in_a_state() -> None:
    # the continued row first, the new one after it
    history = F.fold([state(0, row()), state(1, row(tp_degree="2"), row(batch_size="16"))])[0]
    assert sorted(history.configurations) == sorted([configuration_id(BASE), configuration_id({**BASE, "batch_size": "16"})])


def test_a_stored_file_of_a_colon_in_its_path_is_read_back_whole() -> None:
    history = F.fold([state(0, row(), files={"a:b.csv": "0123456789ab"})])[0]
    assert F.stored_facts(history)[0].files == {"a:b.csv": "0123456789ab"}


def test_a_state_read_back_keeps_a_configuration_it_held() -> None:
    """A state of the history that kept a configuration published without a row keeps it so when an
    older state folded in now moves the configuration to a file it could read."""
    other = row(batch_size="16", file="inf2/other.csv")
    history = F.fold([state(0, row(), other), state(2, other, error_files=frozenset({row().file}))])[0]
    facts = F.stored_facts(history)
    moved = state(1, row(file="inf2/moved.csv"), other)
    refolded = F.fold([facts[0], moved, facts[1]])[0]
    config = refolded.configurations[configuration_id(BASE)]
    assert (config["states"], config["withdrawn"]) == (f"{sid(0)}..", "")
    assert refolded.states[2]["held"] == configuration_id(BASE)


def test_a_figure_of_a_later_release_supersedes_whatever_the_releases_text_order() -> None:
    history = F.fold([state(0, row("2.9.0")), state(1, row("2.10.0", "90"))])[0]
    assert [(o["neuron_version"], o["status"]) for o in observations(history)] == [
        ("2.9.0", "superseded"), ("2.10.0", "published")]


def test_releases_and_their_sources_built_at_run_time() -> None:
    """Texts equal to the literals the module compares with but other objects (as a parsed file gives
    them): a figure's release column, the same release published again."""
    column = built("column")
    assert F._row_version("", RowFact(BASE, "2.20.0", {"m": PublishedFigure("2.21.0", column, "1")})) == "2.21.0"
    figure = RowFact(BASE, built("2.21.0"), {"throughput_inferences_per_s": PublishedFigure(built("2.21.0"), column, "1")},
                     {"table": "t", "row": "2"}, file=row().file)
    again = RowFact(BASE, built("2.21.0"), {"throughput_inferences_per_s": PublishedFigure(built("2.21.0"), column, "2")},
                    {"table": "t", "row": "2"}, file=row().file)
    history = F.fold([state(0, figure, subject="Neuron 2.20"), state(1, again, subject="Neuron 2.20")])[0]
    assert [(o["neuron_version"], o["status"]) for o in observations(history)] == [
        ("2.21.0", "corrected"), ("2.21.0", "published")]
    for rows in history.observations.values():
        for o in rows:
            o["version_from"] = built(o["version_from"])
    assert [r.version for f in F.stored_facts(history) for r in f.rows] == ["2.21.0", "2.21.0"]


def test_a_stored_record_without_its_states_was_last_seen_in_the_last_state_by_then() -> None:
    order = [sid(i) for i in range(4)]
    position = {s: i for i, s in enumerate(order)}
    dates = dict(zip(order, DATES, strict=False))
    # last seen between two states' dates: the one before
    assert F._presence({"first_state": sid(0), "last_seen": "2024-02-15"}, position, 3, dates, order) == {0, 1}


def test_a_price_fact_is_a_value() -> None:
    assert len({PriceFact("i", "on-demand", "1", "p.csv"), PriceFact("i", "on-demand", "1", "p.csv")}) == 1


def test_a_state_of_nothing_set_aside_counts_none() -> None:
    history, summaries, _ = F.fold([StateFacts(sid(0), DATES[0], "c0", "Release 0", rows=[row()])])
    assert summaries[sid(0)].set_aside == 0 and history.states[0]["set_aside"] == "0"


def test_an_identity_of_a_dropped_column_keeps_the_one_before() -> None:
    # the earlier identity (BASE + tp) sorts before the current one (BASE) as a key
    history = F.fold([state(0, row(tp_degree="2")), state(1, row())])[0]
    config = history.configurations[configuration_id({**BASE, "tp_degree": "2"})]
    assert json.loads(config["identities"]) == {sid(0): {**BASE, "tp_degree": "2"}}


def test_a_configurations_earlier_paths_are_compared_by_value() -> None:
    history = F.fold([state(0, row(file=built("inf2/a.csv"))), state(1, row(file=built("inf2/a.csv")))])[0]
    assert history.configurations[configuration_id(BASE)]["paths"] == ""


def test_a_row_read_back_has_a_description_only_in_its_configurations_latest_state() -> None:
    history = F.fold([state(0, row()), state(1, row()), state(2, row(batch_size="16"))])[0]
    described = [[r.description is not None for r in f.rows if r.identity == BASE] for f in F.stored_facts(history)]
    assert described == [[False], [True], []]
