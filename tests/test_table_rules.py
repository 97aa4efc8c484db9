"""Tables written by hand (``drift/tables.py``), on rows written in the test, with a stand-in for the
engine's check (it records each cell's text, context and spans, and answers what the test says) and
for the fit-claim index (name tables of the test's families, devices and frameworks, and the badges
the test gives): the unit a header gives its bare numbers, each cell's context (its header, its row's
stub, the heading; a multiple's the other headers too), counts in words, multiples as ratios of the
row's own figures, badges checked against the support matrices, and rows of another width. No data
files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.records import models as s
from neuron_docs.drift.names import NameTable
from neuron_docs.drift.tables import TextCell, _operands, check_table, header_unit
from neuron_docs.drift.verdicts import Verdict


def table(pairs: Sequence[tuple[str, str]]) -> NameTable:
    names = NameTable()
    for name, record_id in pairs:
        names.add(name, record_id)
    return names


@dataclass
class Claims:
    """The fit-claim index's part a table reads: names, the frameworks with cells, and badges."""

    badges: dict[tuple[str, str, str, str | None], str] = field(default_factory=dict)
    cells: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    asked: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    families: NameTable = field(default_factory=lambda: table([("Decoders", "decoder"), ("Encoders", "encoder")]))
    devices: NameTable = field(default_factory=lambda: table([("Inferentia2", "inf2dev"), ("Trainium", "trn")]))
    frameworks: NameTable = field(default_factory=lambda: table(
        [("PyTorch Neuron", "pytorch"), ("TensorFlow Neuron", "tensorflow"), ("JAX", "jax"), ("Neuron SDK", "pytorch"),
         ("Neuron SDK", "jax")]))

    @property
    def catalog(self) -> Catalog:
        cat = Catalog(data_dir=Path("."))
        cat.records["families"] = {"decoder": s.Family.model_construct(id="decoder", name="Decoder models"),
                                   "encoder": s.Family.model_construct(id="encoder", name="Encoder models")}
        return cat

    def frameworks_with_cells(self, family_id: str, device_id: str) -> list[str]:
        return self.cells.get((family_id, device_id), [])

    def badge(self, family_id: str, device_id: str, framework_id: str = "", workload: str | None = None) -> str | None:
        self.asked.append((family_id, device_id, framework_id, workload))
        return self.badges.get((family_id, device_id, framework_id, workload))


@dataclass
class Check:
    """The engine's check: each call recorded, the verdicts given per text."""

    answers: dict[str, list[Verdict]] = field(default_factory=dict)
    calls: list[tuple[str, str, Any]] = field(default_factory=list)

    def __call__(self, text: str, context: str = "", allowed: Any = None) -> list[Verdict]:
        self.calls.append((text, context, allowed))
        return self.answers.get(text, [])


def rows(*texts: Sequence[str]) -> list[list[TextCell]]:
    return [[TextCell(t) for t in row] for row in texts]


def figure(expression: str, kind: str = "figure", reason: str = "") -> Verdict:
    """A verdict of the engine, its kind made at run time (as one read back from a cache is)."""
    return Verdict(0, "x", "".join(list(kind)), expression, "", True, reason, "")


def badges(found: list[tuple[int, int, Verdict]]) -> list[tuple[int, int, str, str, bool, str, str]]:
    return [(i, j, v.text, v.expression, v.agrees, v.reason, v.role) for i, j, v in found if v.kind == "claim"]


# --- the unit of a header ------------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "unit"), [
    ("P90 latency (ms)", "ms"), ("Device Memory Bandwidth (TB/sec)", "TB/sec"), ("FP8 PFLOPS", "PFLOPS"),
    ("vCPUs", "vCPUs"), ("Price ($)", "$"), ("Cost (USD)", "$"), ("Cost (usd)", "$"), ("Price ($/hr)", "USD/h"),
    ("Memory [GiB]", "GiB"), ("Latency in ms", "ms"), ("# of chips", "chips"), ("Memory (GB)", "GB"),
    # Not a unit: the next candidate, else none.
    ("Cost (approx) in USD", "$"), ("(widgets)", ""), ("Name", ""), ("(GB extra)", ""), ("", ""),
    ("Size (GB, up to 2 TB)", ""),  # a figure in the parenthesis is no unit
])
def test_the_unit_a_header_gives_its_bare_numbers(header: str, unit: str) -> None:
    assert header_unit(header) == unit


# --- figures in cells ------------------------------------------------------------------------------------

def test_a_bare_number_takes_its_headers_unit_and_its_context() -> None:
    check = Check()
    found = check_table(check, Claims(), rows(["Model", "P90 latency (ms)", "Price ($)", "Notes"],
                                              ["BERT", "12", " 0.5 ", "1,024"]), 1, "The heading")
    assert found == []
    assert check.calls == [
        ("12 ms", "P90 latency (ms)\nBERT\nThe heading", None), ("$0.5", "Price ($)\nBERT\nThe heading", None),
        ("1,024", "Notes\nBERT\nThe heading", None)]


def test_a_cell_that_is_not_a_bare_number_keeps_its_text_and_spans() -> None:
    check = Check()
    cells = [[TextCell("Model"), TextCell("P90 latency (ms)")], [TextCell("BERT"), TextCell("about 12", ((0, 5),))]]
    check_table(check, Claims(), cells, 1)
    assert check.calls == [("about 12", "P90 latency (ms)\nBERT", ((0, 5),))]
    check.calls.clear()
    cells = [[TextCell("Model"), TextCell("P90 latency (ms)")], [TextCell("BERT"), TextCell("12", ((0, 1),))]]
    check_table(check, Claims(), cells, 1)
    assert check.calls == [("12 ms", "P90 latency (ms)\nBERT", None)]


def test_the_stubs_unit_when_the_header_has_none() -> None:
    check = Check()
    check_table(check, Claims(), rows(["Spec", "trn1"], ["Host Memory (GiB)", "512"], ["12 (ms)", "3"]), 1)
    # The first column's own unit is never its stub's.
    assert check.calls == [("512 GiB", "trn1\nHost Memory (GiB)", None), ("12 (ms)", "Spec", None),
                           ("3 ms", "trn1\n12 (ms)", None)]


def test_a_count_in_words_under_a_count_header() -> None:
    check = Check()
    check_table(check, Claims(), rows(["Instance", "# of chips", "vCPUs", "Notes"],
                                      ["alpha", "Two", "Up to 16", "Two"], ["beta", "many", "many", "many"]), 1)
    assert [c[0] for c in check.calls] == ["2 chips", "Up to 16 vCPUs"]
    assert [c[2] for c in check.calls] == [None, None]


def test_only_cells_with_a_digit_or_a_fit_word_are_checked() -> None:
    check = Check()
    check_table(check, Claims(), rows(["Model", "Note"], ["BERT", "fast"], ["x", "SUPPORTS it"], ["y", "a fit"]), 1)
    assert [c[0] for c in check.calls] == ["SUPPORTS it", "a fit"]


def test_headers_of_several_rows_and_the_first_row_as_header() -> None:
    check = Check()
    check_table(check, Claims(), rows(["Model", "P90"], ["", "latency (ms)"], ["BERT", "12"]), 2)
    assert check.calls == [("12 ms", "P90 latency (ms)\nBERT", None)]
    check.calls.clear()
    check_table(check, Claims(), rows(["Model", "Latency (ms)"], ["BERT", "12"]), 0)
    assert check.calls == [("Latency (ms)", "", None), ("12", "Latency (ms)", None)] or check.calls == [
        ("12", "BERT", None)]
    check.calls.clear()
    check_table(check, Claims(), rows(["BERT 1", "12"], ["BERT 2", "13"]), 0, "Heading")
    assert check.calls == [("BERT 1", "Heading", None), ("12", "BERT 1\nHeading", None),
                           ("BERT 2", "Heading", None), ("13", "BERT 2\nHeading", None)]


def test_the_verdicts_of_a_row_by_column() -> None:
    check = Check({"12 ms": [figure("run:a:latency")], "13 ms": [figure("run:b:latency"), figure("run:c:latency")],
                   "BERT 5": [figure("model:bert:size")]})
    found = check_table(check, Claims(), rows(["Model", "P90 latency (ms)", "P99 latency (ms)"],
                                              ["BERT 5", "12", "13"], ["GPT", "1", "2"]), 1)
    assert [(i, j, v.expression) for i, j, v in found] == [
        (1, 0, "model:bert:size"), (1, 1, "run:a:latency"), (1, 2, "run:b:latency"), (1, 2, "run:c:latency")]


# --- multiples --------------------------------------------------------------------------------------------

MULTIPLE_ROWS = (["Data type", "Trainium2 (TFLOPS)", "Improvement factor", "Trainium (TFLOPS)"],
                 ["Dense", "1300", "2x", "650"])


def test_a_multiple_is_a_ratio_of_its_rows_figures_read_last() -> None:
    ratio = figure("ratio(device:trn2:fp8, device:trn1:fp8)")
    check = Check({"1300 TFLOPS": [figure("device:trn2:fp8")], "650 TFLOPS": [figure("device:trn1:fp8")],
                   "2x": [figure("ratio(device:trn2:fp8, device:other:fp8)"), ratio, figure("device:x:speed"),
                          figure("ratio(device:trn1:fp8, device:trn2:fp8)")]})
    found = check_table(check, Claims(), rows(*MULTIPLE_ROWS), 1)
    assert [c[0] for c in check.calls] == ["1300 TFLOPS", "650 TFLOPS", "2x"]
    # Its context: its header and stub, and the other columns' headers (their subjects).
    assert check.calls[2][1] == "Improvement factor\nDense\nTrainium2 (TFLOPS)\nTrainium (TFLOPS)"
    assert [(j, v.expression) for _, j, v in found] == [
        (1, "device:trn2:fp8"), (2, "ratio(device:trn2:fp8, device:trn1:fp8)"),
        (2, "ratio(device:trn1:fp8, device:trn2:fp8)"), (3, "device:trn1:fp8")]


def test_a_multiple_of_figures_the_data_does_not_hold_says_nothing() -> None:
    check = Check({"1300 TFLOPS": [figure("device:trn2:fp8")],
                   "2x": [figure("ratio(device:trn2:fp8, device:trn1:fp8)")]})
    assert check_table(check, Claims(), rows(*MULTIPLE_ROWS), 1) == [(1, 1, figure("device:trn2:fp8"))]


def test_a_multiple_of_a_figure_about_a_subject_the_data_lacks() -> None:
    unknown = figure("", kind="unknown", reason="no Trainium3 in the data")
    check = Check({"1300 TFLOPS": [unknown], "650 TFLOPS": [figure("device:trn1:fp8")],
                   "2x": [figure("ratio(device:trn2:fp8, device:trn1:fp8)")]})
    found = check_table(check, Claims(), rows(*MULTIPLE_ROWS), 1)
    assert found == [(1, 1, unknown),
                     (1, 2, Verdict(0, "2x", "unknown", "", "", False,
                                    "no Trainium3 in the data (a ratio of this row's figures)", "")),
                     (1, 3, figure("device:trn1:fp8"))]
    # When the ratio is held, it is the verdict.
    check.answers["1300 TFLOPS"] = [unknown, figure("device:trn2:fp8")]
    found = check_table(check, Claims(), rows(*MULTIPLE_ROWS), 1)
    assert [(j, v.kind) for _, j, v in found] == [(1, "unknown"), (1, "figure"), (2, "figure"), (3, "figure")]


def test_a_multiple_in_the_first_column_is_read_in_place() -> None:
    check = Check()
    check_table(check, Claims(), rows(["Factor", "Latency (ms)", "x"], ["3x", "12", "2 times"]), 1)
    assert [c[0] for c in check.calls] == ["3x", "12 ms", "2 times"]
    assert check.calls[0][1] == "Factor"
    assert check.calls[2][1] == "x\n3x\nLatency (ms)"


def test_the_data_paths_of_a_ratio() -> None:
    assert _operands("ratio(a:b:c, d:e:f)") == {"a:b:c", "d:e:f"}
    assert _operands("diff(a, b)") == set()
    assert _operands("ratio(a,b)") == set()


# --- badges -----------------------------------------------------------------------------------------------

def test_a_fit_badge_against_the_matrices() -> None:
    claims = Claims(badges={("decoder", "inf2dev", "", None): "fit:poor"})
    found = check_table(Check(), claims, rows(["Family", "Inferentia2"], ["Decoders", " **Good  Fit** "]), 1)
    assert found == [(1, 1, Verdict(0, "**Good  Fit**", "claim", "fit:decoder/inf2dev", "Not a Good Fit", False,
                                    "Decoder models on inf2dev: the data gives Not a Good Fit",
                                    ":neuron:fit:`decoder/inf2dev`"))]
    claims = Claims(badges={("decoder", "inf2dev", "", None): "fit:good"})
    found = check_table(Check(), claims, rows(["Family", "Inferentia2"], ["Decoders", "Good Fit"]), 1)
    assert badges(found) == [(1, 1, "Good Fit", "fit:decoder/inf2dev", True, "", ":neuron:fit:`decoder/inf2dev`")]


def test_a_status_badge_under_a_frameworks_column_with_its_workload() -> None:
    claims = Claims(badges={("decoder", "trn", "pytorch", "training"): "status:roadmap"},
                    cells={("decoder", "trn"): ["pytorch", "jax"]})
    found = check_table(Check(), claims, rows(["Family", "PyTorch Neuron (training)"], ["Decoders", "Supported"]), 1,
                        "Trainium")
    assert badges(found) == [(1, 1, "Supported", "status:decoder/trn/pytorch", False,
                              "Decoder models on trn: the data gives Roadmap Item",
                              ":neuron:status:`decoder/trn/pytorch`")]
    assert found[0][2].expected == "Roadmap Item"
    claims.badges[("decoder", "trn", "pytorch", "inference")] = "status:supported"
    found = check_table(Check(), claims, rows(["Family", "PyTorch Neuron inference"], ["Decoders", "Supported"]), 1,
                        "Trainium")
    assert badges(found) == [(1, 1, "Supported", "status:decoder/trn/pytorch", True, "",
                              ":neuron:status:`decoder/trn/pytorch`")]
    claims.badges[("decoder", "trn", "pytorch", None)] = "status:na"
    found = check_table(Check(), claims, rows(["Family", "PyTorch Neuron"], ["Decoders", "N/A"]), 1, "Trainium")
    assert badges(found) == [(1, 1, "N/A", "status:decoder/trn/pytorch", True, "",
                              ":neuron:status:`decoder/trn/pytorch`")]


def test_limited_support_is_a_status_under_a_framework_and_the_fit_elsewhere() -> None:
    claims = Claims(badges={("decoder", "trn", "", None): "fit:limited",
                            ("decoder", "trn", "jax", None): "status:limited"},
                    cells={("decoder", "trn"): ["jax"]})
    found = check_table(Check(), claims, rows(["Family", "Trainium"], ["Decoders", "Supported with limitations"]), 1)
    assert badges(found) == [(1, 1, "Supported with limitations", "fit:decoder/trn", True, "",
                              ":neuron:fit:`decoder/trn`")]
    found = check_table(Check(), claims, rows(["Family", "JAX"], ["Decoders", "Supported with limitations"]), 1,
                        "Trainium")
    assert badges(found) == [(1, 1, "Supported with limitations", "status:decoder/trn/jax", True, "",
                              ":neuron:status:`decoder/trn/jax`")]


@pytest.mark.parametrize(("header", "stub", "cell", "heading"), [
    ("Inferentia2", "Decoders", "Fast", ""),  # not a badge
    ("Inferentia2", "", "Good Fit", ""),  # no stub
    ("Inferentia2", "Widgets", "Good Fit", ""),  # a stub naming no family
    ("Inferentia2", "Decoders and Encoders", "Good Fit", ""),  # two families
    ("Inferentia2 and Trainium", "Decoders", "Good Fit", ""),  # two devices
    ("Family", "Decoders", "Good Fit", ""),  # no device
    ("Inferentia2 PyTorch Neuron", "Decoders", "Good Fit", ""),  # a fit word under a framework's column
    ("Inferentia2", "Decoders", "Supported", ""),  # a status without a framework
    ("Inferentia2 TensorFlow Neuron", "Decoders", "Supported", ""),  # a framework without a cell
    ("Inferentia2 Neuron SDK", "Decoders", "Supported", ""),  # a name of two frameworks with cells
    ("Inferentia2", "Encoders", "Good Fit", ""),  # the matrices hold nothing for it
])
def test_what_is_no_badge_the_data_can_check(header: str, stub: str, cell: str, heading: str) -> None:
    claims = Claims(badges={("decoder", "inf2dev", "", None): "fit:poor",
                            ("decoder", "inf2dev", "pytorch", None): "status:na",
                            ("decoder", "inf2dev", "jax", None): "status:na"},
                    cells={("decoder", "inf2dev"): ["pytorch", "jax"]})
    assert badges(check_table(Check(), claims, rows(["Family", header], [stub, cell]), 1, heading)) == []


def test_the_device_of_a_badge_from_its_header_else_the_heading() -> None:
    claims = Claims(badges={("decoder", "inf2dev", "", None): "fit:good", ("decoder", "trn", "", None): "fit:poor"})
    found = check_table(Check(), claims, rows(["Family", "Inferentia2"], ["Decoders", "Good Fit"]), 1, "Trainium")
    assert badges(found)[0][3] == "fit:decoder/inf2dev"
    found = check_table(Check(), claims, rows(["Family", "Fit"], ["Decoders", "Good Fit"]), 1, "Trainium")
    assert badges(found)[0][3] == "fit:decoder/trn"


def test_the_first_column_is_never_a_badge() -> None:
    claims = Claims(badges={("decoder", "inf2dev", "", None): "fit:poor"})
    assert badges(check_table(Check(), claims, rows(["Inferentia2", "x"], ["Good Fit", "Decoders"]), 1)) == []
    assert claims.asked == []


# --- rows of another width --------------------------------------------------------------------------------

def test_a_row_of_another_width_is_reported_and_no_figure_read() -> None:
    check = Check()
    found = check_table(check, Claims(), rows(["Model", "Latency (ms)"], ["BERT", "12"], [" GPT ", "1", "2"], [],
                                              ["T5"]), 1)
    assert check.calls == []
    assert found == [
        (2, 0, Verdict(0, "GPT", "table", "", "", False,
                       "the row has 3 cells and the header 2: the table's figures are not read", "")),
        (3, 0, Verdict(0, "row 4", "table", "", "", False,
                       "the row has 0 cells and the header 2: the table's figures are not read", "")),
        (4, 0, Verdict(0, "T5", "table", "", "", False,
                       "the row has 1 cells and the header 2: the table's figures are not read", ""))]
    found = check_table(check, Claims(), rows(["BERT", "12"], ["  ", "1", "2"]), 0)
    assert found == [(1, 0, Verdict(0, "row 2", "table", "", "", False,
                                    "the row has 3 cells and the first row 2: the table's figures are not read", ""))]
    assert check.calls == []


def test_header_rows_shorter_than_the_table() -> None:
    check = Check()
    assert check_table(check, Claims(), rows(["Model"], ["A", "B", "Latency (ms)"], ["x", "y", "12"]), 2) == []
    assert check.calls == [("12 ms", "Latency (ms)\nx", None)]


def test_the_width_is_the_last_header_rows() -> None:
    check = Check()
    assert check_table(check, Claims(), rows(["Model"], ["Latency", "(ms)"], ["BERT", "12"]), 2) == []
    # The second header row alone is the header of the column the first row lacks.
    assert check.calls == [("12 ms", "(ms)\nBERT", None)]
    assert check_table(check, Claims(), [], 0) == []
    assert check_table(check, Claims(), [[]], 0) == []


def test_the_first_body_row_of_another_width() -> None:
    check = Check()
    found = check_table(check, Claims(), rows(["Model", "Latency (ms)"], ["BERT", "12", "13"], ["GPT", "1"]), 1)
    assert [(i, v.kind) for i, _, v in found] == [(1, "table")]
    assert check.calls == []


def test_a_table_of_three_hundred_columns() -> None:
    # Counts over 256 are other int objects each time they are made: compared by value, not identity.
    width = 300
    header = ["Model", *(f"Latency {k} (ms)" for k in range(1, width - 1)), "Improvement factor"]
    body = ["Dense", *(str(k) for k in range(1, width - 1)), "2x"]
    check = Check()
    found = check_table(check, Claims(), rows(header, body), 1)
    assert found == []
    assert len(check.calls) == width - 1
    multiple = check.calls[-1]
    assert multiple[0] == "2x"
    assert multiple[1].count("Improvement factor") == 1
    assert multiple[1].count("Latency 298 (ms)") == 1


def test_a_cell_is_frozen() -> None:
    cell = TextCell("12", ((0, 2),))
    assert hash(cell) == hash(TextCell("12", ((0, 2),)))
    with pytest.raises(FrozenInstanceError):
        cell.text = "13"  # type: ignore[misc]


def test_only_the_rows_figure_verdicts_are_its_figures() -> None:
    # A value another source gives, or a comparison, is not a figure of the row a ratio can be of.
    for kind in ("source", "comparison", "history"):
        check = Check({"1300 TFLOPS": [figure("device:trn2:fp8", kind=kind)], "650 TFLOPS": [figure("device:trn1:fp8")],
                       "2x": [figure("ratio(device:trn2:fp8, device:trn1:fp8)")]})
        found = check_table(check, Claims(), rows(*MULTIPLE_ROWS), 1)
        assert [j for _, j, _ in found] == [1, 3]


def test_a_ratio_of_two_of_the_rows_several_figures() -> None:
    header = ["Data type", "Trainium2 (TFLOPS)", "Improvement factor", "Trainium (TFLOPS)", "Other (TFLOPS)"]
    check = Check({"1300 TFLOPS": [figure("device:trn2:fp8")], "650 TFLOPS": [figure("device:trn1:fp8")],
                   "5 TFLOPS": [figure("device:other:fp8")],
                   "2x": [figure("ratio(device:trn2:fp8, device:trn1:fp8)")]})
    found = check_table(check, Claims(), rows(header, ["Dense", "1300", "2x", "650", "5"]), 1)
    assert [(j, v.expression) for _, j, v in found] == [
        (1, "device:trn2:fp8"), (2, "ratio(device:trn2:fp8, device:trn1:fp8)"), (3, "device:trn1:fp8"),
        (4, "device:other:fp8")]

