"""Folding a folder of published states into the benchmark history (``benchmark_import/states.py``),
on small state folders written in ``tmp_path`` and state facts built in the test: which folders are
states and in what order (dates, ``STATES.tsv``), two states of one date, the files' digests, the
stale-file rule (unchanged files, files a later state introduced, what it decided and whether it would
decide otherwise now), one state's facts (rows kept once, stale copies, rows set aside, the release of
a file without a release column), a state none of whose rows parse, the history read back and read
again, a partial snapshot, the problems reported once, the files written. No data files, no catalog,
no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``); the
same rules end to end on the real states: ``test_benchmark_history.py``."""

from __future__ import annotations

import hashlib
import pickle
import shutil
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from neuron_docs.benchmark_import import states as H
from neuron_docs.benchmark_import.fold import StateFacts
from neuron_docs.benchmark_import.history_rows import History
from neuron_docs.benchmark_import.read import ImportResult, Problem
from neuron_docs.data.catalog import HISTORY_FILES
from neuron_docs.data.records import published as s
from helpers.import_files import ENC, HEAD, INSTANCES, put

FRAMEWORKS = ["torch-neuronx", "torch-neuron", "tensorflow-neuronx"]
NO_VERSION = "Model,Framework,Inst. Type,Batch Size,Throughput (inference/second),Latency P50 (ms)"
OLD = "inf2/throughput_data.csv"
TSV_HEAD = "state\tcommit_date\tcommit_subject\n"


def row(model: str = "bert", version: str = "2.20.0", throughput: str = "100", latency: str = "5") -> str:
    return f"{model},PyTorch 2.1,Inf2.xlarge,8,{version},{throughput},{latency}"


def table(*rows: str, head: str = HEAD) -> str:
    return "\n".join((head, *rows)) + "\n"


def state(src: Path, name: str, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        put(src / name, rel, text)
    return src / name


def run(src: Path, data: Path, **kw: Any) -> tuple[History, list[Any], list[Problem]]:
    return H.import_states(src, data, INSTANCES, FRAMEWORKS, source="src", **kw)


def fold_in(src: Path, data: Path, **kw: Any) -> tuple[History, list[Any], list[Problem]]:
    """Import and write the history, as ``make import-benchmarks`` does."""
    history, summaries, problems = run(src, data, **kw)
    assert H.validate_texts(history.texts()) == []
    history.write(data)
    return history, summaries, problems


def errors(problems: list[Problem]) -> list[tuple[str, int | None, str]]:
    return [(p.file, p.line, p.column) for p in problems if p.severity == "error"]


def warnings(problems: list[Problem]) -> list[str]:
    return [p.message for p in problems if p.severity == "warning"]


def facts(sid: str, files: dict[str, str] | None = None, subject: str = "", **kw: Any) -> StateFacts:
    return StateFacts(sid, sid[:10], sid[11:], subject, files=dict(files or {}), **kw)


def texts(data: Path) -> dict[str, str]:
    return {name: (data / name).read_text(encoding="utf-8") for name in HISTORY_FILES if (data / name).exists()}


def built(text: str) -> str:
    """``text`` as another object: what a file, a pickle or a caller gives."""
    out: str = pickle.loads(pickle.dumps("".join(list(text))))
    return out


def read_state(src: Path, name: str, files: dict[str, str], subject: str | None = None,
               release: str = "") -> tuple[StateFacts, ImportResult]:
    folder = state(src, name, files)
    found, _ = H.list_states(src, [])
    [entry] = [f for f in found if f.id == name]
    entry = replace(entry, subject=subject)
    result = H._read(entry, src, release, INSTANCES, FRAMEWORKS, "src")
    return facts(name, H.folder_files(folder), subject or ""), result


def snapshot(tmp_path: Path, files: dict[str, str]) -> tuple[ImportResult, dict[str, str]]:
    from neuron_docs.benchmark_import.tables import import_published

    for rel, text in files.items():
        put(tmp_path / "snap", rel, text)
    result = import_published(tmp_path / "snap", INSTANCES, FRAMEWORKS, source="src", as_of="2024-06-01")
    return result, H.folder_files(tmp_path / "snap")


# The rules that reach most of the module first (a mutant's run stops at its first failure) --------


def test_a_historys_state_the_new_states_would_decide_otherwise_is_read_again(tmp_path: Path) -> None:
    """cccc was read alone: its two files disagreed, an error. bbbb, found later, holds the encoder file
    unchanged: the same cccc read among them has a stale copy. With cccc's folder: read again; without
    it: a warning naming cccc."""
    cccc = {ENC: table(row()), OLD: table(row(throughput="9"))}
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-03-01-cccc", cccc)
    _, _, problems = fold_in(src, data)
    assert len(errors(problems)) == 1
    alone = tmp_path / "alone"
    shutil.copytree(data, alone)
    # without its folder
    late = tmp_path / "late"
    state(late, "2024-02-01-bbbb", {ENC: table(row())})
    history, summaries, problems = run(late, alone)
    assert [s_.state for s_ in summaries] == ["2024-02-01-bbbb"] and history.latest_tables is None
    [warning] = [p for p in problems if p.file == "2024-03-01-cccc"]
    assert (warning.line, warning.column, warning.severity) == (None, "", "warning")
    assert warning.message.startswith("read when the states around it were others")
    # with it
    state(late, "2024-03-01-cccc", cccc)
    history, summaries, problems = fold_in(late, data)
    assert [s_.state for s_ in summaries] == ["2024-02-01-bbbb", "2024-03-01-cccc"]
    assert errors(problems) == [] and not any(p.file == "2024-03-01-cccc" for p in problems)
    assert any("stale copy" in m for m in warnings(problems))
    assert history.latest_tables is not None and history.latest_tables[0] == "2024-03-01-cccc"
    every = tmp_path / "every"
    state(every, "2024-02-01-bbbb", {ENC: table(row())})
    state(every, "2024-03-01-cccc", cccc)
    fold_in(every, tmp_path / "once")
    assert texts(data) == texts(tmp_path / "once")


def test_a_state_whose_rows_do_not_load_is_left_out_and_the_others_compared_without_it(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    state(src, "2024-02-01-bbbb", {ENC: table(row(version="two"))})
    state(src, "2024-03-01-cccc", {ENC: table(row()), OLD: table(row(throughput="9"))})
    history, summaries, problems = fold_in(src, data)
    assert [r["id"] for r in history.states] == ["2024-01-01-aaaa", "2024-03-01-cccc"]
    assert [s_.state for s_ in summaries] == ["2024-01-01-aaaa", "2024-03-01-cccc"]
    assert ("2024-02-01-bbbb", None, "") in errors(problems)
    assert ("2024-02-01-bbbb/" + ENC, 2, "Neuron Version") in errors(problems)
    assert sum(1 for p in problems if p.file == "2024-02-01-bbbb") == 1
    # cccc's encoder file is unchanged since aaaa (bbbb left out): it is the stale one
    assert any("stale copy" in m and "inf2/throughput_data.csv line 2" in m for m in warnings(problems))
    assert history.latest_tables is not None and history.latest_tables[0] == "2024-03-01-cccc"


def test_a_state_found_later_folds_in_where_it_belongs(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    state(src, "2024-03-01-cccc", {ENC: table(row(throughput="120"))})
    fold_in(src, data)
    late = tmp_path / "late"
    state(late, "2024-02-01-bbbb", {ENC: table(row(throughput="101"))})
    history, [summary], problems = fold_in(late, data)
    assert errors(problems) == [] and summary.state == "2024-02-01-bbbb"
    assert [r["id"] for r in history.states] == ["2024-01-01-aaaa", "2024-02-01-bbbb", "2024-03-01-cccc"]
    assert history.latest_tables is None  # the latest state was not read
    every = tmp_path / "every"
    for name in ("2024-01-01-aaaa", "2024-03-01-cccc"):
        shutil.copytree(src / name, every / name)
    shutil.copytree(late / "2024-02-01-bbbb", every / "2024-02-01-bbbb")
    fold_in(every, tmp_path / "once")
    assert texts(data) == texts(tmp_path / "once")


def test_the_files_written_are_the_historys_and_the_latest_tables(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row()), OLD: table(row("gone")),
                                   "inf2/instance_prices.csv": "Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.45\n"})
    state(src, "2024-02-01-bbbb", {ENC: table(row()), "inf2/throughput_data_x.csv": table(row("gone")),
                                   "inf2/instance_prices.csv": "Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.45\n"})
    history, _, _ = fold_in(src, data)
    assert H.placed_tables(history) == {"inf2-throughput-data-encoder", "inf2-throughput-data-x"}
    written = H.history_texts(history)
    assert set(written) == {*history.texts(), "benchmarks/published/tables.yaml"}
    assert "throughput-data-encoder" in written["benchmarks/published/tables.yaml"]
    assert "instance-prices" in written["benchmarks/published/tables.yaml"]
    assert "2024-02-01-bbbb/" not in written["benchmarks/published/tables.yaml"]
    gone = dict(history.configurations)
    for cid, c in gone.items():
        if c["model"] == "gone":
            history.configurations[cid] = {**c, "withdrawn": "2024-03-01"}
    assert H.placed_tables(history) == {"inf2-throughput-data-encoder"}
    for cid, c in gone.items():
        history.configurations[cid] = {**c, "table": ""}
    assert H.placed_tables(history) == set()
    assert "throughput-data-x" not in H.history_texts(history)["benchmarks/published/tables.yaml"]


def test_a_snapshot_is_a_partial_state_named_by_its_date_and_files(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row(), row("roberta")), OLD: table(row("albert"))})
    fold_in(src, data)
    result, files = snapshot(tmp_path, {ENC: table(row(throughput="120"))})
    history, summary, problems = H.import_snapshot(result, files, data, as_of="2024-06-01")
    key = hashlib.sha256(";".join(f"{p}:{d}" for p, d in sorted(files.items())).encode()).hexdigest()[:8]
    assert summary is not None and summary.state == f"2024-06-01-{key}"
    last = history.states[-1]
    assert (last["id"], last["date"], last["commit"], last["scope"]) == (summary.state, "2024-06-01", "", "partial")
    assert last["subject"] == "Published files imported by file (1 files)"
    assert errors(problems) == []
    assert history.latest_tables is not None and history.latest_tables[0] == summary.state
    # roberta, in the file it holds, is withdrawn; albert, in a file it does not hold, is not
    by_model = {c["model"]: c["withdrawn"] for c in history.configurations.values()}
    assert by_model == {"bert": "", "roberta": "2024-06-01", "albert": ""}
    history.write(data)
    again, none, _ = H.import_snapshot(result, files, data, as_of="2024-06-01", subject="Mine")
    assert none is None and again.texts() == history.texts()
    # the key is of the paths and digests, in order
    two = {"b.csv": "1", "a.csv": "2"}
    ordered = hashlib.sha256(b"a.csv:2;b.csv:1").hexdigest()[:8]
    _, made, _ = H.import_snapshot(result, two, tmp_path / "empty", as_of="2024-06-01", subject="Mine")
    assert made is not None and made.state == f"2024-06-01-{ordered}"
    assert History.load(tmp_path / "empty").states == []


def test_the_states_list_names_the_subject_of_a_historys_state_that_has_none(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    fold_in(src, data)
    assert History.load(data).states[0]["subject"] == ""
    later = tmp_path / "later"
    state(later, "2024-02-01-bbbb", {ENC: table(row())})
    put(later, H.STATES_TSV, TSV_HEAD + "2024-01-01-aaaa\t2024-01-01\tRelease 2.20.0\n"
        "2024-02-01-bbbb\t2024-02-01\tSecond\n")
    history, _, _ = fold_in(later, data)
    assert [(r["subject"], r["release"]) for r in history.states] == [("Release 2.20.0", "2.20.0"),
                                                                       ("Second", "2.20.0")]
    # a subject the history has stays
    put(later, H.STATES_TSV, TSV_HEAD + "2024-01-01-aaaa\t2024-01-01\tRelease 2.21.0\n")
    history, _, _ = run(later, data)
    assert history.states[0]["subject"] == "Release 2.20.0"


def test_a_file_is_stale_only_beside_a_file_introduced_after_it(tmp_path: Path) -> None:
    """Four files: w (first state), b and a (the second), z (the third); w and b publish one configuration,
    b and a another, a and z a third. a is stale (z is newer), w is (b is); b is not, though w is older:
    of b and a (one age), b is kept, not a, whose name comes first."""
    w, b, a, z = "inf2/w.csv", "inf2/b.csv", "inf2/a.csv", "inf2/z.csv"
    introduced = {w: 0, b: 1, a: 1, z: 2}
    plain, result = read_state(tmp_path, "2024-03-01-cccc", {w: table(row("m1")), b: table(row("m1"), row("m2")),
                                                            a: table(row("m2"), row("m3")), z: table(row("m3"))})
    found, _ = H.state_facts(plain, result, "2024-03-01-cccc/", frozenset(), introduced)
    assert found is not None
    decided = {(b, w, True), (b, a, True), (z, a, True)}
    assert found.decided == decided
    assert sorted((r.identity["model"], r.file, r.stale) for r in found.rows) == [
        ("m1", b, False), ("m2", b, False), ("m3", z, False)]
    states = [facts("2024-01-01-a", {w: "1"}), facts("2024-02-01-b", {w: "2", b: "3", a: "4"}),
              facts("2024-03-01-c", {w: "5", b: "6", a: "7", z: "8"}, decided=decided)]
    assert H._decisions(states, 2, H._introduced(states)) == decided


def test_a_stale_copy_is_a_warning_and_the_fresher_files_figures_are_kept(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-02-01-bbbb", {OLD: table(row(latency="6")),
                                                            ENC: table(row("roberta"), row(version="2.21.0"))})
    found, problems = H.state_facts(plain, result, "2024-02-01-bbbb/", frozenset(), {OLD: 0, ENC: 1})
    assert found is not None and found.set_aside == 0 and found.decided == {(ENC, OLD, True)}
    [problem] = problems
    assert (problem.file, problem.line, problem.severity) == ("2024-02-01-bbbb/" + OLD, 2, "warning")
    assert problem.message == (f"stale copy: {ENC} line 3, a newer or updated file, publishes the configuration with "
                               "other figures (Neuron 2.20.0 against 2.21.0; latency_p50_ms 6 against 5); its figures "
                               "kept")
    assert [(r.identity["model"], r.file, r.version, r.stale) for r in found.rows] == [
        ("roberta", ENC, "2.20.0", False), ("bert", ENC, "2.21.0", False)]


# Each rule on its own -----------------------------------------------------------------------------


def test_a_folder_of_states_in_date_order_and_what_is_not_a_state(tmp_path: Path) -> None:
    for name in ("2024-03-01-cccc", "2024-01-01-bbbb", "2024-02-01-0a9z"):
        (tmp_path / name).mkdir()
    (tmp_path / "2024-04-01-ffff").write_text("a file named like a state")
    (tmp_path / "notes").mkdir()
    (tmp_path / "2024-13-01-aaaa").mkdir()  # no such month
    (tmp_path / "2024-05-01-ABCD").mkdir()  # a commit is lower-case hex
    (tmp_path / "x2024-05-01-abcd").mkdir()
    (tmp_path / "2024-05-01-abcd-x").mkdir()
    problems: list[Problem] = []
    found, listed = H.list_states(tmp_path, problems)
    assert [f.id for f in found] == ["2024-01-01-bbbb", "2024-02-01-0a9z", "2024-03-01-cccc"]
    first = found[0]
    assert (first.path, first.date.isoformat(), first.commit, first.subject, first.listed) == (
        tmp_path / "2024-01-01-bbbb", "2024-01-01", "bbbb", None, None)
    assert listed == {}
    assert len({*found, *found}) == 3  # a state folder is a value: hashable, and frozen
    with pytest.raises(AttributeError):
        first.commit = "other"  # type: ignore[misc]
    assert sorted((p.file, p.line, p.column, p.severity) for p in problems) == [
        (n, None, "", "error") for n in sorted(["notes", "2024-13-01-aaaa", "2024-05-01-ABCD", "x2024-05-01-abcd",
                                                "2024-05-01-abcd-x"])]
    assert all("not a state folder" in p.message for p in problems)


def test_the_states_list_gives_subjects_and_orders_states_of_one_date(tmp_path: Path) -> None:
    put(tmp_path, H.STATES_TSV, "\ufeff" + TSV_HEAD + "2024-01-01-bbbb\t2024-01-01\tRelease 2.18.0\n"
        "\n2024-01-01-aaaa\t2024-01-01\t\nshort\tline\n2024-01-01-dddd\t2024-01-01\tthird\textra\n")
    for name in ("2024-01-01-aaaa", "2024-01-01-bbbb", "2024-01-01-cccc", "2024-01-01-dddd", "2023-12-31-ffff"):
        (tmp_path / name).mkdir()
    problems: list[Problem] = []
    found, listed = H.list_states(tmp_path, problems)
    # the date first, then the states list's order, then the ones it does not list, by name
    assert [f.id for f in found] == ["2023-12-31-ffff", "2024-01-01-bbbb", "2024-01-01-aaaa", "2024-01-01-dddd",
                                     "2024-01-01-cccc"]
    assert [(f.subject, f.listed) for f in found] == [(None, None), ("Release 2.18.0", 2), (None, 4), ("third", 6),
                                                      (None, None)]
    assert listed == {"2024-01-01-bbbb": (2, "Release 2.18.0"), "2024-01-01-aaaa": (4, ""),
                      "2024-01-01-dddd": (6, "third")}
    assert [(p.file, p.line, p.column, p.severity) for p in problems] == [(H.STATES_TSV, 5, "", "warning")]
    assert "row has 2 fields; expected 3" in problems[0].message


def test_a_state_listed_far_down_the_states_list_comes_before_one_not_listed(tmp_path: Path) -> None:
    lines = [f"2020-01-{i % 28 + 1:02d}-{i:04x}\t2020-01-01\tsubject {i}\n" for i in range(200)]
    put(tmp_path, H.STATES_TSV, TSV_HEAD + "".join(lines) + "2024-01-01-bbbb\t2024-01-01\tlate\n")
    for name in ("2024-01-01-aaaa", "2024-01-01-bbbb"):
        (tmp_path / name).mkdir()
    found, _ = H.list_states(tmp_path, [])
    assert [(f.id, f.listed) for f in found] == [("2024-01-01-bbbb", 202), ("2024-01-01-aaaa", None)]


def test_a_states_list_line_of_one_field_is_a_warning(tmp_path: Path) -> None:
    put(tmp_path, H.STATES_TSV, TSV_HEAD + "2024-01-01-aaaa\n")
    problems: list[Problem] = []
    assert H.list_states(tmp_path, problems) == ([], {})
    assert [(p.line, p.severity) for p in problems] == [(2, "warning")]
    assert "row has 1 fields" in problems[0].message


def test_states_of_one_date_need_the_states_list() -> None:
    a, b, c = facts("2024-01-01-aaaa"), facts("2024-01-01-bbbb"), facts("2024-02-01-cccc")
    problems: list[Problem] = []
    assert H._ordered([a], [b, c], {}, problems) == [a, c]  # the state after the one refused still joins
    [problem] = problems
    assert (problem.file, problem.line, problem.column, problem.severity) == ("2024-01-01-bbbb", None, "", "error")
    assert problem.message == ("two states dated 2024-01-01 (2024-01-01-aaaa and 2024-01-01-bbbb) and no STATES.tsv "
                               "line orders them; 2024-01-01-bbbb not imported")
    # listed both: the states list orders them, the history's state included
    problems = []
    listed = {"2024-01-01-bbbb": (2, "x"), "2024-01-01-aaaa": (3, "y")}
    assert H._ordered([a, c], [b], listed, problems) == [b, a, c]
    assert [(p.file, p.severity, p.message) for p in problems] == [
        ("2024-01-01-bbbb", "warning", "published on 2024-01-01 as 2024-01-01-aaaa was; ordered by STATES.tsv")]
    # one of them listed is not enough
    problems = []
    assert H._ordered([a], [b], {"2024-01-01-bbbb": (2, "x")}, problems) == [a]
    assert errors(problems) == [("2024-01-01-bbbb", None, "")]


def test_a_third_state_of_a_date_names_the_two_before_it() -> None:
    a, b, c = facts("2024-01-01-aaaa"), facts("2024-01-01-bbbb"), facts("2024-01-01-cccc")
    listed = {a.id: (3, ""), b.id: (2, "")}
    problems: list[Problem] = []
    assert H._ordered([a, b], [c], listed, problems) == [b, a]
    assert "(2024-01-01-aaaa and 2024-01-01-bbbb and 2024-01-01-cccc)" in problems[0].message


def test_the_historys_states_of_one_date_keep_their_order_without_the_states_list() -> None:
    a, b = facts("2024-01-01-aaaa"), facts("2024-01-01-bbbb")
    assert H._ordered([b, a], [], {}, []) == [b, a]
    assert H._ordered([b, a], [], {b.id: (5, "")}, []) == [b, a]
    assert H._ordered([b, a], [], {b.id: (5, ""), a.id: (4, "")}, []) == [a, b]
    assert H._ordered([], [b], {}, []) == [b]


def test_a_states_files_are_its_csvs_with_their_digests(tmp_path: Path) -> None:
    put(tmp_path, "inf2/b.csv", "x\n")
    put(tmp_path, "a.csv", "y\n")
    put(tmp_path, "inf2/deep/c.csv", "")
    put(tmp_path, "inf2/notes.txt", "z")
    files = H.folder_files(tmp_path)
    assert list(files) == ["a.csv", "inf2/b.csv", "inf2/deep/c.csv"]
    assert files["a.csv"] == hashlib.sha256(b"y\n").hexdigest()[:12] and len(files["a.csv"]) == 12
    assert files["inf2/deep/c.csv"] == hashlib.sha256(b"").hexdigest()[:12]


def test_a_file_is_introduced_by_the_first_state_holding_it() -> None:
    states = [facts("2024-01-01-a", {"x": "1"}), facts("2024-02-01-b", {"x": "1", "y": "2"}),
              facts("2024-03-01-c", {"z": "3", "y": "2", "x": "4"})]
    assert H._introduced(states) == {"x": 0, "y": 1, "z": 2}
    assert H._introduced([]) == {}


def test_a_states_neighbours_are_its_unchanged_files_and_where_each_began() -> None:
    states = [facts("2024-01-01-a", {"x": "1", "y": "1"}), facts("2024-02-01-b", {"x": "1", "y": "2", "z": "3"}),
              facts("2024-03-01-c", {"x": "1", "z": "3"})]
    introduced = H._introduced(states)
    assert H._neighbours(states, 0, introduced) == (frozenset(), {"x": 0, "y": 0})
    assert H._neighbours(states, 1, introduced) == (frozenset({"x"}), {"x": 0, "y": 0, "z": 1})
    assert H._neighbours(states, 2, introduced) == (frozenset({"x", "z"}), {"x": 0, "z": 1})
    # the first state is compared with no state, even with a last state holding the same files
    same = [facts("2024-01-01-a", {"x": "1"}), facts("2024-02-01-b", {"x": "1"})]
    assert H._neighbours(same, 0, H._introduced(same))[0] == frozenset()


def test_the_stale_file_rule_decided_again() -> None:
    """Of two files publishing a configuration both, the one a later state introduced is kept and the
    other is stale; an unchanged file is stale; among equals the later-introduced, then the path."""
    a = facts("2024-01-01-a", {"old.csv": "1"})
    b = facts("2024-02-01-b", {"old.csv": "1", "new.csv": "2"}, decided=frozenset({("new.csv", "old.csv", True)}))
    states = [a, b]
    assert H._decisions(states, 1, H._introduced(states)) == {("new.csv", "old.csv", True)}
    # both introduced by one state and both changed: by path, neither stale
    c = facts("2024-01-01-c", {"p.csv": "1", "q.csv": "2"}, decided=frozenset({("q.csv", "p.csv", False)}))
    assert H._decisions([c], 0, H._introduced([c])) == {("p.csv", "q.csv", False)}
    # one of them unchanged since the state before: it is stale, the other kept
    d = facts("2024-02-01-d", {"p.csv": "1", "q.csv": "9"}, decided=frozenset({("p.csv", "q.csv", False)}))
    assert H._decisions([c, d], 1, H._introduced([c, d])) == {("q.csv", "p.csv", True)}
    e = facts("2024-02-01-e", {"p.csv": "9", "q.csv": "2"}, decided=frozenset({("q.csv", "p.csv", False)}))
    assert H._decisions([c, e], 1, H._introduced([c, e])) == {("p.csv", "q.csv", True)}
    # both unchanged: the later introduced first
    f = facts("2024-02-01-f", {"old.csv": "1", "new.csv": "2"}, decided=frozenset({("old.csv", "new.csv", False)}))
    g = replace(f, id="2024-03-01-g")
    assert H._decisions([a, f, g], 2, H._introduced([a, f, g])) == {("new.csv", "old.csv", True)}
    assert H._decisions([a], 0, H._introduced([a])) == frozenset()


def test_a_file_unknown_to_the_states_is_introduced_first() -> None:
    """A decided pair naming a file the state does not hold (a history edited by hand): position 0."""
    a = facts("2024-01-01-a", {"x.csv": "1"})
    b = facts("2024-02-01-b", {"y.csv": "2"}, decided=frozenset({("y.csv", "z.csv", False)}))
    states = [a, b]
    assert H._decisions(states, 1, H._introduced(states)) == {("y.csv", "z.csv", True)}
    c = facts("2024-02-01-c", {"y.csv": "2"}, decided=frozenset({("z.csv", "y.csv", False)}))
    assert H._decisions([a, c], 1, H._introduced([a, c])) == {("y.csv", "z.csv", True)}


def test_one_states_rows_with_their_files_lines_and_releases(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row(), row("roberta", "2.19", "7", ""))})
    found, problems = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {ENC: 0})
    assert problems == [] and found is not None
    assert (found.rows_read, found.set_aside, found.placed, found.read, found.price_errors) == (2, 0, None, True, False)
    assert (found.decided, found.error_files, found.prices) == (frozenset(), frozenset(), [])
    bert, roberta = found.rows
    assert (bert.file, bert.where, bert.line, bert.column, bert.stale) == (
        ENC, "2024-01-01-aaaa/" + ENC, 2, "Neuron Version", False)
    assert (bert.version, roberta.version) == ("2.20.0", "2.19.0")
    assert {m: (f.version, f.version_from, f.value) for m, f in bert.figures.items()} == {
        "throughput_inferences_per_s": ("2.20.0", "column", "100"), "latency_p50_ms": ("2.20.0", "column", "5")}
    assert list(roberta.figures) == ["throughput_inferences_per_s"] and roberta.line == 3
    assert bert.identity["model"] == "bert" and bert.identity["generation"] == "inf2"
    assert bert.description is not None and bert.description["row"] == "2"
    assert roberta.description is not None and roberta.description["published_text"] == '{"Neuron Version": "2.19"}'
    assert found.files == plain.files and found.id == plain.id


def test_a_file_without_a_release_column_takes_the_states(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2022-10-10-aaaa",
                               {ENC: table("bert,PyTorch 2.1,Inf2.xlarge,8,100,5", head=NO_VERSION)},
                               release="2.5.0")
    found, _ = H.state_facts(plain, result, "2022-10-10-aaaa/", frozenset(), {ENC: 0})
    assert found is not None
    [only] = found.rows
    assert only.version == "" and only.column == "Neuron Version"
    assert {(f.version, f.version_from) for f in only.figures.values()} == {("", "state")}
    assert any(p.line == 1 and p.column == "neuron_version" and p.severity == "warning" for p in result.problems)
    # no release known: the rows cannot be placed
    _, unknown = read_state(tmp_path / "2", "2022-10-10-bbbb",
                            {ENC: table("bert,PyTorch 2.1,Inf2.xlarge,8,100,5", head=NO_VERSION)})
    assert unknown.inference_runs == [] and unknown.errors


def test_a_training_table_without_an_instance_column_is_trn1_32xlarge(tmp_path: Path) -> None:
    head = "Model,Nodes,Topology, Performance [seq/sec],Neuron Version"
    _, result = read_state(tmp_path, "2022-10-10-aaaa", {"trn1/training.csv": f"{head}\nLlama,2,TP=8 DP=8 PP=1,4,2.5\n"})
    [run_] = result.training_runs
    assert run_.instances == H.DEFAULT_TRAINING_INSTANCES == ["trn1.32xlarge"]
    assert [(p.line, p.severity) for p in result.problems] == [(1, "warning")]


def test_files_at_the_top_of_a_state_are_inf1_and_named_from_the_folder_of_states(tmp_path: Path) -> None:
    head = "Name,Model,Framework,Inst. Type,Batch Size,Avg Throughput (/sec),Neuron Version"
    _, result = read_state(tmp_path, "2021-07-29-aaaa",
                           {"data.csv": f"{head}\nx,Resnet-50,PyTorch 1.8.1,inf1.xlarge,5,821,1.15.0\n",
                            "inf2/deep/data.csv": table(row()),
                            "instance_prices.csv": "Inst. Type,On-Demand hourly rate\ninf1.xlarge,0.228\n"})
    assert {(t.path, t.generation) for t in result.tables} == {("2021-07-29-aaaa/data.csv", "inf1"),
                                                               ("2021-07-29-aaaa/inf2/deep/data.csv", "inf2"),
                                                               ("2021-07-29-aaaa/instance_prices.csv", "inf1")}
    assert result.errors == []
    assert [(p.file, p.line, p.message) for p in result.problems] == [
        ("2021-07-29-aaaa/data.csv", None, "file outside a generation folder; read as inf1"),
        ("2021-07-29-aaaa/instance_prices.csv", None, "file outside a generation folder; read as inf1")]
    [cost] = result.prices
    assert (cost.as_of.isoformat(), cost.source, cost.region, cost.term) == ("2021-07-29", "src", None, None)
    assert {r.source for r in result.inference_runs} == {"src"}


def test_the_same_row_twice_is_kept_once(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row(), row("z")),
                                                            OLD: table(row("x"), row())})
    found, problems = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {ENC: 0, OLD: 0})
    assert found is not None and found.set_aside == 0
    assert [(r.identity["model"], r.file) for r in found.rows] == [("x", OLD), ("bert", OLD), ("z", ENC)]
    assert [(p.file, p.line, p.column, p.severity) for p in problems] == [("2024-01-01-aaaa/" + ENC, 2, "", "warning")]
    assert problems[0].message == f"same configuration and figures as {OLD} line 3; kept once"
    assert found.decided == {(OLD, ENC, False)}


def test_an_unchanged_file_is_stale_beside_a_changed_one(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-02-01-bbbb", {ENC: table(row()), OLD: table(row(throughput="7"))})
    found, problems = H.state_facts(plain, result, "2024-02-01-bbbb/", frozenset({ENC}), {ENC: 0, OLD: 0})
    assert found is not None and found.decided == {(OLD, ENC, True)}
    assert [(p.file, p.severity) for p in problems] == [("2024-02-01-bbbb/" + ENC, "warning")]
    assert "stale copy" in problems[0].message and "throughput_inferences_per_s 100 against 7" in problems[0].message
    [kept] = found.rows
    assert (kept.file, kept.figures["throughput_inferences_per_s"].value, kept.stale) == (OLD, "7", False)
    # a stale file's row that no fresher file publishes is kept, marked stale
    plain, result = read_state(tmp_path / "2", "2024-02-01-cccc", {ENC: table(row("albert")), OLD: table(row())})
    found, _ = H.state_facts(plain, result, "2024-02-01-cccc/", frozenset({ENC}), {ENC: 0, OLD: 0})
    assert found is not None
    assert sorted((r.identity["model"], r.stale) for r in found.rows) == [("albert", True), ("bert", False)]


def test_two_fresh_files_disagreeing_is_an_error_naming_both_rows(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {OLD: table(row(), row("x")), ENC: table(row(throughput="7"))})
    found, problems = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {OLD: 0, ENC: 0})
    assert found is not None and found.set_aside == 1 and found.decided == {(OLD, ENC, False)}
    [problem] = problems
    assert (problem.file, problem.line, problem.column, problem.severity) == ("2024-01-01-aaaa/" + ENC, 2, "", "error")
    assert problem.message == (f"same configuration as 2024-01-01-aaaa/{OLD} line 2 with other figures: "
                               "throughput_inferences_per_s 7 against 100; expected one row per configuration in a "
                               "state; set aside")
    assert [(r.identity["model"], r.file) for r in found.rows] == [("bert", OLD), ("x", OLD)]


def test_rows_set_aside_by_the_reading_are_counted(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row(), row(throughput="7"))})
    found, problems = H.state_facts(plain, result, "", frozenset({ENC}), {ENC: 0})
    assert found is not None and found.set_aside == 1 and found.decided == frozenset() and problems == []


def test_a_file_introduced_later_ranks_first_whatever_its_name(tmp_path: Path) -> None:
    """The rows are taken fresher file first: of three files, the newest's figures stand, the others'
    disagreeing rows are stale copies."""
    files = {"inf2/a.csv": table(row(throughput="1")), "inf2/b.csv": table(row(throughput="2")),
             "inf2/c.csv": table(row(throughput="3"))}
    plain, result = read_state(tmp_path, "2024-03-01-cccc", files)
    found, problems = H.state_facts(plain, result, "2024-03-01-cccc/", frozenset(),
                                    {"inf2/a.csv": 1, "inf2/b.csv": 2, "inf2/c.csv": 0})
    assert found is not None
    [kept] = found.rows
    assert (kept.file, kept.figures["throughput_inferences_per_s"].value) == ("inf2/b.csv", "2")
    assert sorted(p.file.rsplit("/", 1)[1] for p in problems) == ["a.csv", "c.csv"]
    assert all(p.severity == "warning" and "stale copy: inf2/b.csv line 2" in p.message for p in problems)
    assert found.decided == {("inf2/b.csv", "inf2/a.csv", True), ("inf2/b.csv", "inf2/c.csv", True),
                             ("inf2/a.csv", "inf2/c.csv", True)}


def test_rows_set_aside_and_files_with_errors_are_counted(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row(), row("x", "two")),
                                                            "inf2/instance_prices.csv": "Inst. Type,RI-Effective hourly "
                                                            "rate\nInf2.xlarge,0.45\nInf9.huge,1\n"})
    found, _ = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {})
    assert found is not None
    assert (found.rows_read, found.set_aside, found.error_files) == (2, 1, {ENC, "inf2/instance_prices.csv"})
    assert found.price_errors is True
    assert [(p.instance, p.basis, p.usd_per_hour, p.file) for p in found.prices] == [
        ("inf2.xlarge", "reserved-effective", "0.45", "inf2/instance_prices.csv")]


def test_a_price_error_is_one_of_a_price_file_or_a_file_named_for_prices(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row())})
    base = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {})[0]
    assert base is not None and base.price_errors is False
    named = replace(result, problems=[Problem("2024-01-01-aaaa/inf2/prices_x.csv", None, "", "unreadable")])
    found = H.state_facts(plain, named, "2024-01-01-aaaa/", frozenset(), {})[0]
    assert found is not None and found.price_errors is True and found.set_aside == 0
    elsewhere = replace(result, problems=[Problem("2024-01-01-aaaa/inf2/x.csv", None, "", "unreadable"),
                                          Problem("2024-01-01-aaaa/inf2/x.csv", 3, "", "bad", "warning")])
    found = H.state_facts(plain, elsewhere, "2024-01-01-aaaa/", frozenset(), {})[0]
    assert found is not None and found.price_errors is False and found.set_aside == 0
    assert found.error_files == {"inf2/x.csv"}


def test_a_state_none_of_whose_rows_load_is_not_imported(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row(version="two"), row("x", "three"))})
    found, problems = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {})
    assert found is None
    assert [(p.file, p.line, p.column, p.severity) for p in problems] == [("2024-01-01-aaaa", None, "", "error")]
    assert problems[0].message == ("no row of the state could be placed (2 rows read); expected published benchmark "
                                   "tables; state not imported")
    assert H._placed_none(result) and H._runs_read(result) == 2


def test_a_state_of_prices_only_or_of_no_rows_is_placed(tmp_path: Path) -> None:
    _, prices = read_state(tmp_path, "2024-01-01-aaaa", {"inf2/instance_prices.csv": "Inst. Type,RI-Effective hourly "
                                                                                    "rate\nInf2.xlarge,0.45\n"})
    assert prices.rows_read and H._runs_read(prices) == 0 and not H._placed_none(prices)
    _, empty = read_state(tmp_path / "2", "2024-01-01-bbbb", {ENC: HEAD + "\n"})
    assert H._runs_read(empty) == 0 and not H._placed_none(empty)
    _, training = read_state(tmp_path / "3", "2024-01-01-cccc", {
        "trn1/training.csv": "Model,Instance-Type,Nodes,Topology, Performance [seq/sec],Neuron Version\n"
                             "Llama,trn1.32xlarge,2,TP=8 DP=8 PP=1,4,2.5\n"})
    assert not H._placed_none(training) and H._runs_read(training) == 1


def test_which_column_holds_a_field() -> None:
    made = s.PublishedTable.model_validate({"id": "t", "generation": "inf2", "kind": "inference", "path": "t.csv",
                                            "columns": ["Model", "Neuron Version", "Batch Size"], "source": "src"})
    assert H._has_column(made, "neuron_version") == "Neuron Version"
    assert H._has_column(made, "batch_size") == "Batch Size"
    assert H._has_column(made, "instance") is None
    assert H._has_column(made, built("neuron_version")) == "Neuron Version"
    odd = made.model_copy(update={"columns": ["Surprise", "Model"]})
    assert H._has_column(odd, "model") == "Model"


def test_two_rows_in_words() -> None:
    one = {"throughput_inferences_per_s": Decimal("100"), "latency_p50_ms": Decimal("5")}
    assert H._difference("2.20.0", one, "2.20.0", one) == ""
    assert H._difference("2.20.0", one, "2.21.0", one) == "Neuron 2.20.0 against 2.21.0"
    assert H._difference("2.21.0", one, "2.20.0", one) == "Neuron 2.21.0 against 2.20.0"
    other = {"latency_p50_ms": Decimal("6"), "latency_p99_ms": Decimal("9")}
    assert H._difference("2.20.0", one, "2.20.0", other) == (
        "throughput_inferences_per_s 100 against none; latency_p50_ms 5 against 6; latency_p99_ms none against 9")
    assert H._difference(built("2.20.0"), {}, "2.20.0", {}) == ""


def test_a_folder_of_states_imports_and_again_changes_nothing(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row(), row("roberta"))})
    state(src, "2024-02-01-bbbb", {ENC: table(row(throughput="101"))})
    history, summaries, problems = fold_in(src, data)
    assert errors(problems) == []
    assert [s_.state for s_ in summaries] == ["2024-01-01-aaaa", "2024-02-01-bbbb"]
    assert [r["id"] for r in history.states] == ["2024-01-01-aaaa", "2024-02-01-bbbb"]
    assert history.latest_tables is not None and history.latest_tables[0] == "2024-02-01-bbbb"
    assert [t.path for t in history.latest_tables[1]] == ["2024-02-01-bbbb/" + ENC]
    before = texts(data)
    again, summaries, problems = run(src, data)
    assert summaries == [] and problems == [] and again.latest_tables is None
    assert again.texts() == before
    assert H.history_texts(again).keys() == set(before)


def test_a_rebuild_reads_every_state_into_an_empty_history(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    fold_in(src, data)
    other = tmp_path / "other"
    state(other, "2024-02-01-bbbb", {ENC: table(row(throughput="7"))})
    history, summaries, _ = run(other, data, rebuild=True)
    assert [r["id"] for r in history.states] == ["2024-02-01-bbbb"] and len(summaries) == 1
    assert history.latest_tables is not None
    kept, _, _ = run(other, data)
    assert [r["id"] for r in kept.states] == ["2024-01-01-aaaa", "2024-02-01-bbbb"]


def test_the_release_of_a_state_is_its_subjects_or_the_one_before(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    versionless = table("bert,PyTorch 2.1,Inf2.xlarge,8,100,5", head=NO_VERSION)
    state(src, "2022-10-10-aaaa", {ENC: versionless})
    state(src, "2022-11-10-bbbb", {ENC: versionless.replace(",100,", ",110,")})
    put(src, H.STATES_TSV, TSV_HEAD + "2022-10-10-aaaa\t2022-10-10\tNeuron SDK Release 2.3.0\n"
        "2022-11-10-bbbb\t2022-11-10\tFix numbers\n")
    history, _, problems = fold_in(src, data)
    assert errors(problems) == []
    assert sorted((o["neuron_version"], o["version_from"], o["value"], o["status"])
                  for rows in history.observations.values() for o in rows
                  if o["metric"] == "throughput_inferences_per_s") == [
        ("2.3.0", "state", "100", "corrected"), ("2.3.0", "state", "110", "published")]


def test_a_historys_state_decided_the_same_is_not_read_again(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row()), OLD: table(row())})
    fold_in(src, data)
    state(src, "2024-02-01-bbbb", {ENC: table(row())})
    history, summaries, problems = run(src, data)
    assert [s_.state for s_ in summaries] == ["2024-02-01-bbbb"] and problems == []
    assert history.latest_tables is not None


def test_two_states_of_one_date_without_the_states_list(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    state(src, "2024-01-01-bbbb", {ENC: table(row(throughput="7"))})
    history, _, problems = run(src, data)
    assert errors(problems) == [("2024-01-01-bbbb", None, "")]
    assert [r["id"] for r in history.states] == ["2024-01-01-aaaa"]


def test_an_empty_folder_of_states_is_an_empty_history(tmp_path: Path) -> None:
    (tmp_path / "states").mkdir()
    history, summaries, problems = run(tmp_path / "states", tmp_path / "data")
    assert (history.states, summaries, problems, history.latest_tables) == ([], [], [], None)
    assert H.history_texts(history) == history.texts()


def test_a_snapshot_older_than_the_latest_state_is_folded_in_before_it(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    state(src, "2024-09-01-cccc", {ENC: table(row(throughput="130"))})
    fold_in(src, data)
    result, files = snapshot(tmp_path, {ENC: table(row(throughput="120"))})
    history, summary, problems = H.import_snapshot(result, files, data, as_of="2024-06-01", subject="Mine")
    assert summary is not None and errors(problems) == []
    assert [r["id"] for r in history.states][-1] == "2024-09-01-cccc"
    assert history.states[1]["subject"] == "Mine"
    assert history.latest_tables is None


def test_a_snapshot_of_a_date_the_history_has_is_refused(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-06-01-aaaa", {ENC: table(row())})
    fold_in(src, data)
    before = History.load(data).texts()
    result, files = snapshot(tmp_path, {ENC: table(row(throughput="120"))})
    history, summary, problems = H.import_snapshot(result, files, data, as_of="2024-06-01")
    assert summary is None and history.texts() == before
    assert [p.file for p in problems if p.severity == "error"] and "two states dated 2024-06-01" in problems[0].message


def test_a_snapshot_none_of_whose_rows_load_changes_nothing(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    fold_in(src, data)
    before = History.load(data).texts()
    result, files = snapshot(tmp_path, {ENC: table(row(version="two"))})
    history, summary, problems = H.import_snapshot(result, files, data, as_of="2024-06-01")
    assert summary is None and history.texts() == before
    assert [p.message for p in problems][-1].startswith("no row of the state could be placed (1 rows read)")


def test_a_problem_repeated_in_later_states_is_reported_once() -> None:
    problems = [Problem("2024-01-01-a/inf2/x.csv", 2, "C", "bad"), Problem("2024-02-01-b/inf2/x.csv", 2, "C", "bad"),
                Problem("2024-03-01-c/inf2/x.csv", 2, "C", "bad"), Problem("2024-02-01-b/inf2/x.csv", 3, "C", "bad"),
                Problem("2024-02-01-b/inf2/x.csv", 2, "D", "bad"), Problem("2024-02-01-b/inf2/x.csv", 2, "C", "worse"),
                Problem("2024-01-01-a", None, "", "gone"), Problem("2024-02-01-b", None, "", "gone"),
                Problem("2024-02-01-b/inf2/y.csv", 2, "C", "bad"), Problem("2024-03-01-c/inf2/y.csv", 2, "C", "bad")]
    lines = H.report(problems)
    assert lines == ["2024-01-01-a/inf2/x.csv:2: 'C': error: bad (also in 2 later states)",
                     "2024-02-01-b/inf2/x.csv:3: 'C': error: bad", "2024-02-01-b/inf2/x.csv:2: 'D': error: bad",
                     "2024-02-01-b/inf2/x.csv:2: 'C': error: worse", "2024-01-01-a: error: gone",
                     "2024-02-01-b: error: gone", "2024-02-01-b/inf2/y.csv:2: 'C': error: bad (also in 1 later state)"]
    assert H.report([]) == []


def test_a_history_row_its_model_refuses_is_located() -> None:
    name = next(iter(HISTORY_FILES))
    good = History().texts()[name]
    assert H.validate_texts({name: good}) == []
    header = good.splitlines()[0]
    bad = header + "\n" + ",".join("x" if i == 0 else "" for i, _ in enumerate(header.split(","))) + "\n"
    problems = H.validate_texts({name: good + bad.split("\n", 1)[1] * 2})
    assert [(p.file, p.line, p.column, p.severity) for p in problems] == [(name, 2, "", "error"), (name, 3, "", "error")]
    assert problems[0].message.startswith("history row does not validate: ")


def test_a_result_read_back_from_a_pickle_gives_the_same_facts(tmp_path: Path) -> None:
    """The kinds, paths and versions of a result whose texts are other objects than the code's literals
    (a result read back from a pickle): price rows are not run rows, a price file's error is a price error."""
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {
        ENC: table(row(), row("x", "two")), OLD: table(row("y")),
        "inf2/instance_prices.csv": "Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.45\nInf2.8xlarge,0.9\n"})
    again: ImportResult = pickle.loads(pickle.dumps(result))
    found, problems = H.state_facts(plain, again, "2024-01-01-aaaa/", frozenset(), {ENC: 0, OLD: 0})
    assert found is not None and problems == []
    assert (found.rows_read, found.set_aside, found.price_errors) == (3, 1, False)
    assert H._runs_read(again) == 3 and len(found.prices) == 2
    broken = replace(again, problems=[*again.problems, Problem("2024-01-01-aaaa/inf2/instance_prices.csv", 3, "",
                                                               "bad")])
    found = H.state_facts(plain, broken, "2024-01-01-aaaa/", frozenset(), {})[0]
    assert found is not None and found.price_errors is True and found.set_aside == 1


def test_the_same_figures_read_twice_are_equal_not_identical(tmp_path: Path) -> None:
    """Two files with one row each, equal in every figure: kept once whatever objects hold the values."""
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row(version="2.20")),
                                                            OLD: table(row(version="2.20.0"))})
    again: ImportResult = pickle.loads(pickle.dumps(result))
    for made in (result, again):
        found, problems = H.state_facts(plain, made, "", frozenset(), {})
        assert found is not None and found.set_aside == 0 and len(found.rows) == 1
        assert [p.severity for p in problems] == ["warning"] and "kept once" in problems[0].message
    one = {"throughput_inferences_per_s": Decimal("100")}
    assert H._difference("2.20.0", one, "2.20.0", {"throughput_inferences_per_s": Decimal("100.0")}) == ""
    assert H._difference("2.20.0", one, "2.20.0", {"throughput_inferences_per_s": Decimal(built("100"))}) == ""


def test_two_stale_files_of_one_age_disagreeing_are_an_error(tmp_path: Path) -> None:
    """Neither file is fresher than the other: their disagreement is an error, not a stale copy."""
    plain, result = read_state(tmp_path, "2024-02-01-bbbb", {OLD: table(row()), ENC: table(row(throughput="7"))})
    found, problems = H.state_facts(plain, result, "2024-02-01-bbbb/", frozenset({OLD, ENC}), {OLD: 0, ENC: 0})
    assert found is not None and found.set_aside == 1 and found.decided == {(OLD, ENC, True)}
    assert [(p.file, p.severity) for p in problems] == [("2024-02-01-bbbb/" + ENC, "error")]
    [kept] = found.rows
    assert (kept.file, kept.stale) == (OLD, True)
    # the same, introduced by later states, one newer than the other: the newer is kept, the other a stale copy
    found, problems = H.state_facts(plain, result, "2024-02-01-bbbb/", frozenset({OLD, ENC}), {OLD: 1, ENC: 2})
    assert found is not None and found.set_aside == 0 and found.decided == {(ENC, OLD, True)}
    assert [(p.file, p.severity) for p in problems] == [("2024-02-01-bbbb/" + OLD, "warning")]


def test_a_state_of_one_date_joins_the_last_of_three_before_it() -> None:
    a, b, c, d = (facts(f"2024-01-01-{x * 4}") for x in "abcd")
    listed = {a.id: (2, ""), b.id: (3, ""), c.id: (4, ""), d.id: (5, "")}
    problems: list[Problem] = []
    assert H._ordered([a, b, c], [d], listed, problems) == [a, b, c, d]
    assert [p.message for p in problems] == [
        "published on 2024-01-01 as 2024-01-01-cccc was; ordered by STATES.tsv"]
    assert H._ordered([a, b], [d, c], listed, []) == [a, b, c, d]


def test_a_states_unchanged_files_are_compared_by_value(tmp_path: Path) -> None:
    states = [facts("2024-01-01-a", {"x": built("d1"), "y": "d2"}), facts("2024-02-01-b", {"x": built("d1"), "y": "d3"})]
    assert H._neighbours(states, 1, H._introduced(states))[0] == {"x"}
    a = facts("2024-01-01-a", {"old.csv": built("1")})
    b = facts("2024-02-01-b", {"old.csv": built("1"), "new.csv": "2"})
    assert H._decisions([a, b], 1, H._introduced([a, b])) == frozenset()
    b = replace(b, decided=frozenset({("new.csv", "old.csv", True)}))
    assert H._decisions([a, b], 1, H._introduced([a, b])) == {("new.csv", "old.csv", True)}


def test_a_snapshots_state_ids_and_kinds_built_at_run_time(tmp_path: Path) -> None:
    src, data = tmp_path / "states", tmp_path / "data"
    state(src, "2024-01-01-aaaa", {ENC: table(row())})
    fold_in(src, data)
    result, files = snapshot(tmp_path, {ENC: table(row(throughput="120"))})
    again: ImportResult = pickle.loads(pickle.dumps(result))
    history, summary, _ = H.import_snapshot(again, files, data, as_of=built("2024-06-01"))
    assert summary is not None and len(history.states) == 2
    history.write(data)
    _, none, _ = H.import_snapshot(again, files, data, as_of=built("2024-06-01"))
    assert none is None


def test_files_with_no_configuration_in_common_decide_nothing(tmp_path: Path) -> None:
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {ENC: table(row(), row("y")), OLD: table(row("x"))})
    found, problems = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {ENC: 1, OLD: 0})
    assert found is not None and found.decided == frozenset() and problems == []
    assert [(r.identity["model"], r.stale) for r in found.rows] == [("bert", False), ("y", False), ("x", False)]


def test_a_file_the_states_do_not_know_is_as_old_as_the_first_state(tmp_path: Path) -> None:
    """A file missing from the positions given (a history's states.csv edited by hand) counts as
    introduced by the first state: beside a file of the first state neither is fresher."""
    a = facts("2024-01-01-a", {"y.csv": "1"})
    b = facts("2024-02-01-b", {"y.csv": "2"})
    for pair in (("y.csv", "z.csv"), ("z.csv", "y.csv")):
        states = [a, replace(b, decided=frozenset({(*pair, False)}))]
        assert H._decisions(states, 1, H._introduced(states)) == {("y.csv", "z.csv", False)}
    # beside a file of the first state, by name: the unknown one first when its name is
    for pair in (("y.csv", "a.csv"), ("a.csv", "y.csv")):
        states = [a, replace(b, decided=frozenset({(*pair, False)}))]
        assert H._decisions(states, 1, H._introduced(states)) == {("a.csv", "y.csv", False)}
    plain, result = read_state(tmp_path, "2024-02-01-bbbb", {OLD: table(row()), ENC: table(row(throughput="7"))})
    for known in ({OLD: 0}, {ENC: 0}):
        found, problems = H.state_facts(plain, result, "2024-02-01-bbbb/", frozenset(), known)
        assert found is not None and found.decided == {(OLD, ENC, False)} and found.set_aside == 1
        assert [(p.file, p.severity) for p in problems] == [("2024-02-01-bbbb/" + ENC, "error")]
    # beside a file of the second state, the unknown one is the older: a stale copy
    found, problems = H.state_facts(plain, result, "2024-02-01-bbbb/", frozenset(), {OLD: 1})
    assert found is not None and found.decided == {(OLD, ENC, True)} and found.set_aside == 0
    assert [(p.file, p.severity) for p in problems] == [("2024-02-01-bbbb/" + ENC, "warning")]


def test_rows_of_one_configuration_and_figures_under_two_releases_are_an_error(tmp_path: Path) -> None:
    """Equal figures are not enough to keep a row once: the release must be equal too (here the first
    row read is of the earlier release)."""
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {OLD: table(row(version="2.19.0")), ENC: table(row())})
    found, problems = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {OLD: 0, ENC: 0})
    assert found is not None and found.set_aside == 1
    assert [(p.file, p.severity) for p in problems] == [("2024-01-01-aaaa/" + ENC, "error")]
    assert "Neuron 2.20.0 against 2.19.0" in problems[0].message
    # and the first row read of the later release
    plain, result = read_state(tmp_path / "2", "2024-01-01-aaaa", {OLD: table(row(version="2.21.0")),
                                                                  ENC: table(row())})
    found, problems = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {OLD: 0, ENC: 0})
    assert found is not None and found.set_aside == 1
    assert "Neuron 2.20.0 against 2.21.0" in problems[0].message


def test_a_snapshot_after_hundreds_of_states_is_the_latest(tmp_path: Path) -> None:
    """The latest state's position compared by value (a history of 300 states: no small-int cache)."""
    import datetime as dt

    history = History()
    day = dt.date(2000, 1, 1)
    for i in range(300):
        date = (day + dt.timedelta(days=i)).isoformat()
        history.states.append({"id": f"{date}-c{i}", "date": date, "commit": f"c{i}", "subject": "", "release": "",
                               "rows": "0", "placed": "0", "set_aside": "0", "files": "", "overlaps": "", "unread": "",
                               "scope": "whole", "held": ""})
    data = tmp_path / "data"
    history.write(data)
    result, files = snapshot(tmp_path, {ENC: table(row())})
    folded, summary, _ = H.import_snapshot(result, files, data, as_of="2024-06-01")
    assert summary is not None and len(folded.states) == 301
    assert folded.latest_tables is not None and folded.latest_tables[0] == summary.state


def test_of_two_unchanged_files_the_later_introduced_ranks_first(tmp_path: Path) -> None:
    """Both files unchanged since the state before (both stale), introduced by the second and third
    states: the third's is kept, whatever the names, and the other's disagreeing row is a stale copy."""
    states = [facts("2024-01-01-a", {"x.csv": "0"}), facts("2024-02-01-b", {"a.csv": "1"}),
              facts("2024-03-01-c", {"a.csv": "1", "b.csv": "2"}),
              facts("2024-04-01-d", {"a.csv": "1", "b.csv": "2"}, decided=frozenset({("b.csv", "a.csv", True)}))]
    assert H._decisions(states, 3, H._introduced(states)) == {("b.csv", "a.csv", True)}
    plain, result = read_state(tmp_path, "2024-04-01-dddd", {OLD: table(row()), ENC: table(row(throughput="7"))})
    found, problems = H.state_facts(plain, result, "2024-04-01-dddd/", frozenset({OLD, ENC}), {OLD: 1, ENC: 2})
    assert found is not None and found.decided == {(ENC, OLD, True)} and found.set_aside == 0
    assert [(p.file, p.severity) for p in problems] == [("2024-04-01-dddd/" + OLD, "warning")]


def test_a_training_files_rows_are_runs_and_its_errors_no_price_errors(tmp_path: Path) -> None:
    head = "Model,Instance-Type,Nodes,Topology, Performance [seq/sec],Neuron Version"
    plain, result = read_state(tmp_path, "2024-01-01-aaaa", {"trn1/training.csv": f"{head}\nLlama,trn1.32xlarge,2,"
                                                            "TP=8 DP=8 PP=1,4,2.5\nGPT,trn1.32xlarge,2,TP=8 DP=8 PP=1,"
                                                            "4,two\n"})
    found, _ = H.state_facts(plain, result, "2024-01-01-aaaa/", frozenset(), {})
    assert found is not None
    assert (found.rows_read, found.set_aside, found.price_errors, len(found.rows)) == (2, 1, False, 1)


# Properties of any data (last, hypothesis imported by them alone: a mutant killed before them does not
# pay its import) --------------------------------------------------------------------------------


def test_states_come_in_date_then_list_then_name_order(tmp_path_factory: pytest.TempPathFactory) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=25, deadline=None)
    @given(st.lists(st.tuples(st.integers(1, 3), st.sampled_from(["aa", "bb", "cc", "dd"]), st.booleans()),
                    min_size=1, max_size=6, unique_by=lambda t: (t[0], t[1])), st.randoms(use_true_random=False))
    def check(states: list[tuple[int, str, bool]], rnd: Any) -> None:
        src = tmp_path_factory.mktemp("states")
        names = [f"2024-01-0{day}-{commit}" for day, commit, _ in states]
        listed = [n for n, (_, _, on) in zip(names, states, strict=True) if on]
        rnd.shuffle(listed)
        put(src, H.STATES_TSV, TSV_HEAD + "".join(f"{n}\t{n[:10]}\tsubject\n" for n in listed))
        for name in names:
            (src / name).mkdir()
        found, _ = H.list_states(src, [])
        position = {n: i for i, n in enumerate(listed)}
        assert [f.id for f in found] == sorted(names, key=lambda n: (n[:10], position.get(n, len(names)), n))

    check()


def test_listed_states_come_in_date_then_list_order() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.tuples(st.integers(1, 4), st.sampled_from("abcdefgh"), st.booleans()), min_size=1,
                    max_size=8, unique_by=lambda t: t[1]), st.randoms(use_true_random=False))
    def check(states: list[tuple[int, str, bool]], rnd: Any) -> None:
        made = [facts(f"2024-01-0{day}-{c * 4}") for day, c, _ in states]
        positions = list(range(2, 2 + len(made)))
        rnd.shuffle(positions)
        listed = {f.id: (p, "") for f, p in zip(made, positions, strict=True)}
        stored = [f for f, (_, _, old) in zip(made, states, strict=True) if old]
        new = [f for f, (_, _, old) in zip(made, states, strict=True) if not old]
        problems: list[Problem] = []
        out = H._ordered(sorted(stored, key=lambda f: (f.date, listed[f.id])), new, listed, problems)
        assert [f.id for f in out] == [f.id for f in sorted(made, key=lambda f: (f.date, listed[f.id]))]
        assert errors(problems) == []
        dated = {f.date for f in stored}
        assert len(problems) == sum(1 for i, f in enumerate(new)
                                    if f.date in dated or any(g.date == f.date for g in new[:i]))

    check()


def test_each_problem_is_reported_once_with_how_many_states_repeat_it() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=30, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(["a/", "b/", ""]), st.sampled_from(["x.csv", "y/z.csv"]),
                              st.sampled_from([None, 2]), st.sampled_from(["", "C"]), st.sampled_from(["m", "n"])),
                    max_size=12))
    def check(made: list[tuple[str, str, int | None, str, str]]) -> None:
        problems = [Problem(state_ + path, line, column, message) for state_, path, line, column, message in made]
        keys: dict[tuple[str, int | None, str, str], int] = {}
        for p in problems:
            key = (p.file.partition("/")[2] or p.file, p.line, p.column, p.message)
            keys[key] = keys.get(key, 0) + 1
        lines = H.report(problems)
        assert len(lines) == len(keys)
        for line, count in zip(lines, keys.values(), strict=True):
            assert line.endswith(f" (also in {count - 1} later state{'s' if count > 2 else ''})") == (count > 1)
            assert (" (also in " in line) == (count > 1)

    check()
