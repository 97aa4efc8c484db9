"""``make audit``'s command line (``drift/audit.py``), with a stand-in for the drift engine: the data set
loaded once per directory; what each passage and table of the page is checked with (its text, heading,
hand-written spans, the figures of ``neuron:value`` roles, ``--bare``) and how a file's suffix picks
its reading (reStructuredText, Markdown, plain text, a data file's free text); each verdict's row (its
line, for a passage and for a table's cell) in the order of the page; the Markdown report and the
JSON; the exit code with ``--strict``, a missing file and a file that is not UTF-8. No catalog is
loaded, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import neuron_docs.drift as drift_package
from neuron_docs.drift import audit, data_text
from neuron_docs.drift.audit import AuditRow, audit_file, audit_text, main, markdown
from neuron_docs.drift.tables import TextCell
from neuron_docs.drift.verdicts import Verdict

REPO = Path(__file__).resolve().parents[1]


def _verdict(start: int, text: str, *, kind: str = "figure", agrees: bool = True, reason: str = "",
             expression: str = "run:x:p90", expected: str = "9 ms") -> Verdict:
    return Verdict(start, text, kind, expression, expected, agrees, reason, ":neuron:value:`x`")


@dataclass
class StandIn:
    """What the audit asks a drift engine: it records each call and answers with ``verdicts`` (a
    verdict for every occurrence of a text in a passage) and ``cells`` (verdicts of table cells)."""

    verdicts: dict[str, dict[str, Any]] = field(default_factory=dict)
    cells: list[tuple[int, int, Verdict]] = field(default_factory=list)
    checked: list[tuple[str, str, Any, bool]] = field(default_factory=list)
    tables: list[tuple[list[list[str]], int, str]] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)

    def shown_value(self, body: str) -> str | None:
        self.shown.append(body)
        return "SHOWN"

    def check(self, text: str, heading: str = "", allowed: Sequence[tuple[int, int]] | None = None, *,
              bare: bool = False) -> list[Verdict]:
        self.checked.append((text, heading, allowed, bare))
        out = []
        for literal, how in self.verdicts.items():
            at = text.find(literal)
            while at >= 0:
                out.append(_verdict(at, literal, **how))
                at = text.find(literal, at + 1)
        return sorted(out, key=lambda v: v.start)

    def check_table(self, rows: Sequence[Sequence[TextCell]], header_rows: int, heading: str = ""
                    ) -> list[tuple[int, int, Verdict]]:
        self.tables.append(([[c.text for c in row] for row in rows], header_rows, heading))
        return self.cells


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> StandIn:
    drift = StandIn()
    asked: list[str] = []

    def engine(data_dir: str) -> StandIn:
        asked.append(data_dir)
        return drift

    monkeypatch.setattr(audit, "engine", engine)
    drift.asked = asked  # type: ignore[attr-defined]
    return drift


@pytest.fixture
def no_cache() -> Iterator[None]:
    audit.engine.cache_clear()
    yield
    audit.engine.cache_clear()


# --- the data set ----------------------------------------------------------------------------------


def test_the_default_data_is_the_repositorys(stand_in: StandIn) -> None:
    assert audit.DEFAULT_DATA == REPO / "data"
    audit_text("x")
    assert stand_in.asked == [str(REPO / "data")]  # type: ignore[attr-defined]


def test_one_engine_per_data_directory(monkeypatch: pytest.MonkeyPatch, no_cache: None) -> None:
    loaded: list[Path] = []
    made: list[tuple[object, object]] = []

    def load_dataset(path: Path) -> SimpleNamespace:
        loaded.append(path)
        return SimpleNamespace(catalog=f"catalog of {path.name}", values=f"values of {path.name}")

    class Engine:
        def __init__(self, catalog: object, values: object) -> None:
            made.append((catalog, values))

    monkeypatch.setattr(audit, "load_dataset", load_dataset)
    monkeypatch.setattr(audit, "DriftEngine", Engine)
    first = audit.engine("/d/a")
    assert isinstance(first, Engine) and loaded == [Path("/d/a")] and made == [("catalog of a", "values of a")]
    assert audit.engine("/d/a") is first and len(loaded) == 1
    # Four directories are kept: the first is not loaded again after three others.
    for name in "bcd":
        audit.engine(f"/d/{name}")
    assert audit.engine("/d/a") is first and len(loaded) == 4
    # A fifth pushes out the one used longest ago.
    audit.engine("/d/e")
    audit.engine("/d/b")
    assert loaded[-1] == Path("/d/b") and len(loaded) == 6


def test_the_data_directory_is_resolved(stand_in: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    audit_text("x", "data")
    audit_text("x", tmp_path / "sub" / ".." / "data")
    assert stand_in.asked == [str(tmp_path.resolve() / "data")] * 2  # type: ignore[attr-defined]


# --- a page's rows ---------------------------------------------------------------------------------


PAGE = """Title
=====

It takes 9 ms here,
and 9 ms there :code:`9 ms`.

The price is :neuron:value:`run:x:cost` today.
"""


def test_each_passage_is_checked_with_its_heading_and_hand_written_spans(stand_in: StandIn) -> None:
    stand_in.verdicts = {"9 ms": {"reason": "why", "agrees": False, "expected": "10 ms", "expression": "run:x:p90"}}
    rows = audit_text(PAGE, "/d", bare=True)
    assert stand_in.checked == [
        ("It takes 9 ms here,\nand 9 ms there 9 ms.", "Title", ((0, 35), (39, 40)), True),
        ("The price is SHOWN today.", "Title", ((0, 13), (18, 25)), True)]
    assert stand_in.shown == ["run:x:cost"]
    # A row per verdict, at the line of its figure, with the verdict's fields.
    assert rows == [AuditRow(4, "9 ms", "run:x:p90", "10 ms", False, "why", "figure"),
                    AuditRow(5, "9 ms", "run:x:p90", "10 ms", False, "why", "figure"),
                    AuditRow(5, "9 ms", "run:x:p90", "10 ms", False, "why", "figure")]
    assert audit_text("9 ms", "/d")[0].kind == "figure"
    stand_in.checked.clear()
    audit_text("9 ms", "/d")
    assert stand_in.checked[0][3] is False


def test_a_verdicts_kind_and_agreement_are_its_rows(stand_in: StandIn) -> None:
    stand_in.verdicts = {"$1": {"kind": "source", "agrees": True, "reason": "AWS (list price)"}}
    (row,) = audit_text("It is $1.", "/d")
    assert (row.kind, row.agrees, row.note, row.line) == ("source", True, "AWS (list price)", 1)


def test_the_page_is_read_as_its_kind_says(stand_in: StandIn) -> None:
    text = "Results:\n:F: 9 ms\n"
    audit_text(text, "/d")
    audit_text(text, "/d", markdown=True)
    audit_text(text, "/d", plain=True)
    assert [(t, h) for t, h, _, _ in stand_in.checked] == [
        ("Results:", ""), ("    9 ms", "\nF"),
        ("Results:\n:F: 9 ms", ""),
        (":F: 9 ms", "Results")]


TABLES = """.. csv-table::
   :header:

   a, 9 ms, 1 ms

Between 9 ms.

.. list-table::
   :header-rows: 1

   * - Model
     - Latency
   * - BERT
     -
       9 ms
"""


def test_a_tables_rows_are_at_their_cells_lines(stand_in: StandIn) -> None:
    stand_in.verdicts = {"9 ms": {}}
    v = _verdict(0, "9 ms", agrees=False, reason="off", kind="table", expected="8 ms")
    # Row 0 of the first table: its header option is empty (a row of no cells); row 1: its cells.
    # The second table's cells: on lines 11 and 12 (its header), 13 and 15 (the second cell's text is on
    # the line after its marker); a column past the row's end is read at its last cell.
    stand_in.cells = [(0, 0, v), (1, 1, v), (1, 2, v), (1, 7, v), (1, 0, v)]
    rows = audit_text(TABLES, "/d")
    assert stand_in.tables == [([[], ["a", "9 ms", "1 ms"]], 1, ""), ([["Model", "Latency"], ["BERT", "9 ms"]], 1, "")]
    table_rows = [r for r in rows if r.kind == "table"]
    assert [r.line for r in table_rows] == [0, 4, 4, 4, 4, 11, 13, 15, 15, 15]
    assert table_rows[0] == AuditRow(0, "9 ms", "run:x:p90", "8 ms", False, "off", "table")
    # In the order of the page: a passage's rows between the tables', each table's in its own order.
    assert [(r.line, r.kind) for r in rows] == [(0, "table"), *[(4, "table")] * 4, (6, "figure"), (11, "table"),
                                                (13, "table"), *[(15, "table")] * 3]


def test_rows_of_one_line_keep_their_order(stand_in: StandIn) -> None:
    stand_in.verdicts = {"1 ms": {"expected": "a"}, "2 ms": {"expected": "b"}, "3 ms": {"expected": "c"}}
    rows = audit_text("3 ms\n\n2 ms, 1 ms and 3 ms\n", "/d")
    assert [(r.line, r.value) for r in rows] == [(1, "c"), (3, "b"), (3, "a"), (3, "c")]


# --- files -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("suffix", "expected"), [
    (".rst", [("Results:", ""), ("    9 ms", "\nF")]), (".REST", [("Results:", ""), ("    9 ms", "\nF")]),
    (".md", [("Results:\n:F: 9 ms", "")]), (".Markdown", [("Results:\n:F: 9 ms", "")]),
    (".txt", [(":F: 9 ms", "Results")]), ("", [(":F: 9 ms", "Results")])])
def test_a_files_suffix_says_how_it_is_read(stand_in: StandIn, tmp_path: Path, suffix: str,
                                            expected: list[tuple[str, str]]) -> None:
    path = tmp_path / f"page{suffix}"
    path.write_text("Results:\n:F: 9 ms\n", encoding="utf-8")
    audit_file(str(path), "/d", bare=True)
    assert [(t, h) for t, h, _, _ in stand_in.checked] == expected
    assert all(bare for *_, bare in stand_in.checked)
    assert stand_in.asked == [str(Path("/d").resolve())]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["errata.yaml", "notes.yml", "NOTES.YAML"])
def test_a_data_file_is_checked_as_the_builds_free_text(stand_in: StandIn, tmp_path: Path, name: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / name
    path.write_text("note: 9 ms\n", encoding="utf-8")
    asked: list[tuple[object, Path]] = []

    def check_data_file(engine: object, file: Path) -> list[tuple[int, Verdict]]:
        asked.append((engine, file))
        return [(3, _verdict(0, "9 ms", agrees=False, reason="off", kind="history", expected="8 ms"))]

    monkeypatch.setattr(data_text, "check_data_file", check_data_file)
    rows = audit_file(path, "/d")
    assert asked == [(stand_in, path)] and stand_in.checked == []
    assert stand_in.asked == [str(Path("/d").resolve())]  # type: ignore[attr-defined]
    assert rows == [AuditRow(3, "9 ms", "run:x:p90", "8 ms", False, "off", "history")]


# --- the report ------------------------------------------------------------------------------------


ROWS = [AuditRow(1, "9 ms", "run:a|b", "9 ms", True, "", "figure"),
        AuditRow(2, "a\nb", "x", "y", False, "off | by one", "claim"),
        AuditRow(3, "$1", "s", "$2", False, "AWS list price", "source"),
        AuditRow(4, "5 ms", "u", "", False, "no such model", "unknown"),
        AuditRow(5, "row", "t", "", False, "cells", "table")]


def test_the_markdown_report() -> None:
    assert markdown(ROWS, "page.rst").splitlines() == [
        "Audit of page.rst: 3 figures match the data, 2 disagree, 2 not checked.",
        "",
        "| Line | Figure in the text | Data value or derived claim | Data gives | Agrees | Note |",
        "|---:|---|---|---|---|---|",
        "| 1 | 9 ms | `run:a\\|b` | 9 ms | yes |  |",
        "| 2 | a b | `x` | y | **no** | off \\| by one |",
        "| 3 | $1 | `s` | $2 | quotes AWS | AWS list price |",
        "| 4 | 5 ms | `u` |  | not checked | no such model |",
        "| 5 | row | `t` |  | not checked | cells |"]
    assert markdown([], "empty.md") == ("Audit of empty.md: 0 figures match the data, 0 disagree, 0 not checked.\n\n"
                                        "| Line | Figure in the text | Data value or derived claim | Data gives | Agrees |"
                                        " Note |\n|---:|---|---|---|---|---|")


def test_every_checked_kind_says_whether_it_agrees() -> None:
    for kind in ("figure", "claim", "comparison", "history"):
        kind = "".join(list(kind))  # a kind made at run time, as one read back from a cache
        assert audit._agrees(AuditRow(1, "f", "d", "v", True, "", kind)) == "yes"
        assert audit._agrees(AuditRow(1, "f", "d", "v", False, "", kind)) == "**no**"
    source = "".join(["sou", "rce"])
    assert audit._agrees(AuditRow(1, "f", "d", "v", False, "AWS", source)) == "quotes AWS"
    assert audit._agrees(AuditRow(1, "f", "d", "v", True, "the vendor's sheet", source)) == "quotes the"
    assert audit._agrees(AuditRow(1, "f", "d", "v", True, "", "table")) == "not checked"
    assert audit._agrees(AuditRow(1, "f", "d", "v", True, "", "zzz")) == "not checked"


def test_an_audit_row() -> None:
    row = AuditRow(1, "f", "d", "v", True)
    assert (row.note, row.kind) == ("", "figure")
    with pytest.raises(AttributeError):
        row.line = 2  # type: ignore[misc]
    assert len({row, AuditRow(1, "f", "d", "v", True)}) == 1


# --- the command line ------------------------------------------------------------------------------


@pytest.fixture
def pages(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "a.rst", tmp_path / "b.md"
    first.write_text("It takes 9 ms.\n\nIt costs $1.\n", encoding="utf-8")
    second.write_text("# T\n\nAbout 5 ms.\n", encoding="utf-8")
    return first, second


def test_the_markdown_report_of_every_file(stand_in: StandIn, pages: tuple[Path, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    stand_in.verdicts = {"9 ms": {}, "5 ms": {"kind": "unknown", "agrees": False}}
    first, second = pages
    assert main([str(first), str(second)]) == 0
    out = capsys.readouterr().out
    assert out == (markdown([AuditRow(1, "9 ms", "run:x:p90", "9 ms", True)], str(first)) + "\n\n"
                   + markdown([AuditRow(3, "5 ms", "run:x:p90", "9 ms", False, "", "unknown")], str(second)) + "\n")
    assert stand_in.asked == [str(audit.DEFAULT_DATA.resolve())] * 2  # type: ignore[attr-defined]
    assert [bare for *_, bare in stand_in.checked] == [False] * 3


def test_the_json_report_and_the_options(stand_in: StandIn, pages: tuple[Path, Path], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    stand_in.verdicts = {"9 ms": {"agrees": False, "reason": "off"}}
    first, second = pages
    assert main(["--format", "json", "--bare", "--data", str(tmp_path / "d"), str(first), str(second)]) == 0
    out = capsys.readouterr().out
    assert out.endswith("}\n")
    assert json.loads(out) == {
        str(first): [{"line": 1, "figure": "9 ms", "data": "run:x:p90", "value": "9 ms", "agrees": False,
                      "note": "off", "kind": "figure"}],
        str(second): []}
    assert stand_in.asked == [str(tmp_path / "d")] * 2  # type: ignore[attr-defined]
    assert [bare for *_, bare in stand_in.checked] == [True] * 3


def test_strict_fails_only_on_a_checked_figure_that_disagrees(stand_in: StandIn, pages: tuple[Path, Path],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    first, second = pages
    stand_in.verdicts = {"9 ms": {}, "5 ms": {"kind": "unknown", "agrees": False}}
    assert main(["--strict", str(first), str(second)]) == 0
    assert main([str(first), str(second)]) == 0
    stand_in.verdicts = {"9 ms": {}, "5 ms": {"kind": "comparison", "agrees": False}}
    assert main(["--strict", str(first), str(second)]) == 1
    assert main([str(first), str(second)]) == 0
    # The disagreement of the first file counts too, not only the last file's.
    stand_in.verdicts = {"9 ms": {"agrees": False}}
    assert main(["--strict", str(first), str(second)]) == 1
    capsys.readouterr()


def test_a_missing_file_is_an_error(stand_in: StandIn, pages: tuple[Path, Path], tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([str(pages[0]), str(tmp_path / "nowhere.rst")])
    assert stopped.value.code == 2
    assert f"no such file: {tmp_path / 'nowhere.rst'}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(tmp_path)])  # a directory is no file


def test_a_file_that_is_not_utf8_says_which_byte(stand_in: StandIn, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "page.rst"
    path.write_bytes("ok\ncaf\u00e9 9 ms\n".encode("latin-1"))
    with pytest.raises(SystemExit) as stopped:
        main([str(path)])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == (f"python -m neuron_docs.drift.audit: {path}: not UTF-8 text: byte 0xe9 at offset 6 cannot"
                            " be decoded; expected a UTF-8 text file\n")
    assert captured.out == ""


def test_the_json_report_is_indented_by_two(stand_in: StandIn, pages: tuple[Path, Path],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    stand_in.verdicts = {"9 ms": {}}
    assert main(["--format", "json", str(pages[0])]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["{", f"  {json.dumps(str(pages[0]))}: [", "    {"]


def test_the_help_says_what_the_audit_is(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # argparse cuts words longer than a line (the default's path) otherwise
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("usage: python -m neuron_docs.drift.audit")
    assert "``make audit FILE=path``: the figures of a hand-written page checked against the data (no Sphinx)." in out
    assert "data directory (default: " in out and str(audit.DEFAULT_DATA) in out


def test_the_arguments_by_name_and_the_options_by_name_only(stand_in: StandIn, tmp_path: Path) -> None:
    stand_in.verdicts = {"9 ms": {}}
    assert len(audit_text(text="It is 9 ms.", data_dir="/d", bare=True)) == 1
    path = tmp_path / "page.rst"
    path.write_text("It is 9 ms.\n", encoding="utf-8")
    assert len(audit_file(path=path, data_dir="/d")) == 1
    # Without --bare by default.
    assert [bare for *_, bare in stand_in.checked] == [True, False]
    with pytest.raises(TypeError):
        audit_text("x", "/d", True)  # type: ignore[misc]
    with pytest.raises(TypeError):
        audit_file(path, "/d", True)  # type: ignore[misc]


def test_the_json_format_asked_for_at_run_time(stand_in: StandIn, pages: tuple[Path, Path],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # The format is a text of the command line (another object than the code's literal).
    assert main(["--format", "".join(["js", "on"]), str(pages[1])]) == 0
    assert json.loads(capsys.readouterr().out) == {str(pages[1]): []}


def test_run_as_a_module(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import runpy
    import sys

    monkeypatch.setenv("COLUMNS", "1000")
    monkeypatch.setattr(sys, "argv", ["audit", "--help"])
    # Run afresh, as ``python -m`` does; the module and the package's attribute are put back after.
    monkeypatch.delitem(sys.modules, "neuron_docs.drift.audit")
    monkeypatch.setattr(drift_package, "audit", audit)
    with pytest.raises(SystemExit) as stopped:
        runpy.run_module("neuron_docs.drift.audit", run_name="__main__")
    assert stopped.value.code == 0
    assert capsys.readouterr().out.startswith("usage: python -m neuron_docs.drift.audit")
