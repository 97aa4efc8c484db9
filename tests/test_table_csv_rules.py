"""The rules of a table's CSV (``site/downloads/table_csv.py``) on tables built in the test: what a
cell's text is (left-out parts, spaces between blocks), which tables are read the general way, the
Notes column, the neutralising of formulas, the reading of a printed figure, and the columns of
figures made numbers with their unit in the header (a model's figures as given, words never parsed).
No Sphinx, no catalog (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``);
``test_table_csv.py`` and ``test_csv_figures.py`` check the site's own tables."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import pytest
from docutils import nodes

from neuron_docs.node_data import CSV_ROWS, CsvFigure
from neuron_docs.site.downloads import table_csv as tc
from neuron_docs.site.downloads.table_csv import (_flat_rows, _general_rows, _Nested, neutralised, page_notes,
                                                  quantity, table_csv)

# Building blocks -----------------------------------------------------------------------------------


def para(*children: nodes.Node | str) -> nodes.paragraph:
    out = nodes.paragraph()
    out.extend(nodes.Text(c) if isinstance(c, str) else c for c in children)
    return out


def entry(*children: nodes.Node | str) -> nodes.entry:
    out = nodes.entry()
    out.extend(nodes.Text(c) if isinstance(c, str) else c for c in children)
    return out


def row(*cells: nodes.Element | str) -> nodes.row:
    out = nodes.row()
    out.extend(c if isinstance(c, nodes.Element) else entry(para(c)) for c in cells)
    return out


def table(*rows: nodes.row) -> nodes.table:
    """A table of ``rows`` (the first in a head), as docutils makes one."""
    out = nodes.table()
    group = nodes.tgroup(cols=max((len(r.children) for r in rows), default=0))
    out += group
    if rows:
        head = nodes.thead()
        head += rows[0]
        group += head
    body = nodes.tbody()
    body.extend(rows[1:])
    group += body
    return out


def marker(number: str, refid: str | None) -> nodes.reference:
    attributes = {"refid": refid} if refid is not None else {}
    return nodes.reference(number, number, classes=["neuron-note-marker"], **attributes)


def hidden(text: str, cls: str) -> nodes.inline:
    return nodes.inline(text, text, classes=[cls])


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def both(tbl: nodes.table) -> list[list[str]]:
    """The cell texts of ``tbl`` read by the one walk and read the general way, which must agree."""
    flat = _flat_rows(tbl)
    assert flat == _general_rows(tbl)
    return [cells for cells, _ in flat]


def given(header: Sequence[str | CsvFigure], *body: Sequence[str | CsvFigure]) -> list[list[str]]:
    """The CSV of a table carrying these model rows (its nodes say something else: never read)."""
    tbl = table(row("never"), row("read"))
    CSV_ROWS.set(tbl, [header, *body])
    return rows_of(table_csv(tbl))


def fig(number: float, unit: str, words: str | None = None) -> CsvFigure:
    return CsvFigure(words if words is not None else f"{number} {unit}", number, unit)


# A cell's text ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ["neuron-visually-hidden", "neuron-since", "neuron-blank"])
def test_each_left_out_class_is_left_out_wherever_it_is(cls: str) -> None:
    cell = entry(para("shown", hidden(" gone", cls), nodes.Text(" too")))
    assert both(table(row("A"), row(cell))) == [["A"], ["shown too"]]
    # the same part at the cell's top level
    assert both(table(row("A"), row(entry(para("first"), hidden("gone", cls), para("last"))))) == [["A"], ["first last"]]


def test_a_superscript_is_left_out_and_other_classes_are_read() -> None:
    sup = nodes.superscript("", "", nodes.Text("9"))
    other = hidden("kept", "neuron-other")
    cell = entry(para("x", sup, nodes.Text(" y "), other))
    assert both(table(row("A"), row(cell))) == [["A"], ["x y kept"]]


def test_blocks_are_read_with_a_space_between_and_inline_nodes_without() -> None:
    strong = nodes.strong("", "", nodes.Text("per"))
    cases = {
        "two paragraphs": (entry(para("one"), para("two")), "one two"),
        "inline run on": (entry(para("su", strong, nodes.Text("b"))), "superb"),
        "text then a block": (entry(nodes.Text("lead"), para("tail")), "lead tail"),
        "spaces collapsed": (entry(para("  a \n  b  "), para(" c ")), "a b c"),
        "a block after a space": (entry(nodes.Text("lead "), para("tail")), "lead tail"),
        "a block first": (entry(para("only")), "only"),
    }
    for name, (cell, text) in cases.items():
        assert both(table(row("A"), row(cell))) == [["A"], [text]], name


def test_a_block_directly_after_a_space_gets_no_second_one() -> None:
    # What the one walk and the general way gather before the spaces are collapsed: "lead " then "tail".
    parts: list[str] = []
    tc._walk_cell(entry(nodes.Text("lead "), para("tail")), parts, [])
    assert parts == ["lead ", "tail"]
    parts = []
    tc._walk_cell(entry(nodes.Text("lead"), para("tail")), parts, [])
    assert parts == ["lead", " ", "tail"]


def test_text_after_a_left_out_part_and_after_plain_text_is_read() -> None:
    cell = entry(nodes.Text("a"), nodes.superscript("", "", nodes.Text("1")), nodes.Text("b"), nodes.emphasis("", "c"))
    assert both(table(row("A"), row(cell))) == [["A"], ["abc"]]


def test_a_comment_in_a_cell_is_no_text() -> None:
    # A node that is neither text nor element (docutils has none but Text; a stand-in): skipped.
    cell = entry(para("a"))
    cell.children.insert(0, _NotText())
    parts: list[str] = []
    tc._walk_cell(cell, parts, [])
    assert parts == ["a"]


class _NotText(nodes.Node):
    parent = None
    children: list[nodes.Node] = []

    def astext(self) -> str:
        raise AssertionError("read")


# Markers and notes -------------------------------------------------------------------------------------


def test_markers_are_gathered_in_the_cell_and_inside_left_out_parts() -> None:
    in_sup = nodes.superscript("", "", marker("1", "n1"))
    loose = marker("2", "n2")
    in_hidden = hidden("", "neuron-since")
    in_hidden += marker("3", "n3")
    plain_ref = nodes.reference("x", "x", refid="n1")  # a reference that is no marker
    tbl = table(row("A", "B"), row(entry(para("a", in_sup, loose)), entry(para("b", in_hidden, plain_ref))))
    flat = _flat_rows(tbl)
    assert flat == _general_rows(tbl)
    assert [[m.astext() for m in marks] for _, marks in flat] == [[], ["1", "2", "3"]]
    assert flat[1][0] == ["a 2", "b x"]  # a loose marker's number is text (a reference: after a space); a superscript's is not


def test_a_rows_notes_go_in_a_notes_column_in_marker_order() -> None:
    tbl = table(row("A"),
                row(entry(para("x", marker("2", "n2"), marker("1", "n1"), marker("9", "unknown"), marker("7", None)))),
                row("y"))
    notes = {"n1": "first", "n2": "second"}
    assert rows_of(table_csv(tbl, notes)) == [["A", "Notes"], ["x 2 1 9 7", "[2] second; [1] first"], ["y", ""]]
    # without the page's notes, or with none of a row's: no Notes column, no failure
    assert rows_of(table_csv(tbl)) == [["A"], ["x 2 1 9 7"], ["y"]]
    assert rows_of(table_csv(tbl, {"other": "z"})) == [["A"], ["x 2 1 9 7"], ["y"]]
    assert rows_of(table_csv(tbl, {})) == [["A"], ["x 2 1 9 7"], ["y"]]


def test_notes_without_markers_add_no_column() -> None:
    tbl = table(row("A"), row("x"))
    assert rows_of(table_csv(tbl, {"n1": "first"})) == [["A"], ["x"]]


def test_a_header_marker_is_no_rows_note() -> None:
    tbl = table(row(entry(para("A", marker("1", "n1")))), row("x"))
    assert rows_of(table_csv(tbl, {"n1": "first"})) == [["A 1"], ["x"]]


def test_page_notes_are_the_list_items_with_an_id() -> None:
    doc = nodes.document(None, None)  # type: ignore[arg-type]
    items = nodes.enumerated_list()
    items += nodes.list_item("", para("First note."), ids=["n1", "n1-alias"])
    items += nodes.list_item("", para("Unnamed."))
    items += nodes.list_item("", para("Second."), ids=["n2"])
    doc += items
    doc += nodes.paragraph("", "A paragraph.", ids=["p1"])
    assert page_notes(doc) == {"n1": "First note.", "n1-alias": "First note.", "n2": "Second."}


# Tables read the general way ---------------------------------------------------------------------------


def test_a_table_in_a_cell_is_read_the_general_way() -> None:
    inner = table(row("in"))
    tbl = table(row("A", "B"), row(entry(para("x")), entry(para("before"), inner)))
    with pytest.raises(_Nested):
        _flat_rows(tbl)
    # findall reads the inner table's rows and cells as the outer's too
    assert rows_of(table_csv(tbl)) == [["A", "B"], ["x", "before in", "in"], ["in"]]


def test_a_row_or_entry_inside_a_left_out_part_is_nested_too() -> None:
    for inner in (nodes.row(), nodes.entry()):
        since = hidden("", "neuron-since")
        since += inner
        with pytest.raises(_Nested):
            _flat_rows(table(row("A"), row(entry(para("x"), since))))


def test_a_bare_entry_in_a_cell_is_nested() -> None:
    with pytest.raises(_Nested):
        _flat_rows(table(row("A"), row(entry(para("x"), nodes.entry("", para("y"))))))


def test_a_row_with_something_but_cells_or_a_cell_left_out_whole_is_nested() -> None:
    odd = row("x")
    odd += para("not a cell")
    with pytest.raises(_Nested):
        _flat_rows(table(row("A"), odd))
    whole = nodes.entry("", para("hidden"), classes=["neuron-since"])
    with pytest.raises(_Nested):
        _flat_rows(table(row("A", "B"), row(entry(para("x")), whole)))
    assert rows_of(table_csv(table(row("A", "B"), row(entry(para("x")), whole)))) == [["A", "B"], ["x", ""]]


def test_rows_are_found_at_any_depth_below_the_table_in_order() -> None:
    tbl = table(row("A"), row("1"), row("2"))
    tbl += nodes.Text("loose text")
    extra = nodes.tbody()
    extra += row("3")
    tbl[0] += extra
    assert both(tbl) == [["A"], ["1"], ["2"], ["3"]]


def test_a_table_without_rows_is_empty() -> None:
    assert table_csv(table()) == "\n"  # an empty header row


# Formulas ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cell", ["=1+1", "+A1", "-A1", "@SUM(A1)", "\tx", "\rx", "-1+1", "+", "-", "=", "-.", "--5", "+5x", "-5 ms"])
def test_a_cell_a_spreadsheet_could_read_as_a_formula_is_quoted(cell: str) -> None:
    assert neutralised(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-5", "+3.2", "-.5", "+5.", "-1e5", "+2E-3", "12", "a=b", "x-1", "", "'=1",
                                  " =1", "1e5"])
def test_numbers_and_other_text_are_left_alone(cell: str) -> None:
    assert neutralised(cell) == cell


def test_every_cell_is_neutralised_given_or_read() -> None:
    tbl = table(row("=A", "B"), row("@x", "-3"))
    assert rows_of(table_csv(tbl)) == [["'=A", "B"], ["'@x", "-3"]]
    assert given(["=A", "B"], ["@x", fig(-3.0, "")]) == [["'=A", "B"], ["'@x", "-3"]]
    assert given(["A"], ["-x"]) == [["A"], ["'-x"]]


# A printed figure ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cell", "expected"), [
    ("$0.362/h", (0.362, "USD/h")),
    ("$12", (12.0, "USD")),
    ("$5 GB", (5.0, "?")),
    ("9.007 ms", (9.007, "ms")),
    ("76.92%", (76.92, "%")),
    ("536.718 inferences/s", (536.718, "inferences/s")),
    ("1,234.5 tokens/s", (1234.5, "tokens/s")),
    ("4", (4.0, "")),
    ("-4", (-4.0, "")),
    ("+.5", (0.5, "")),
    ("16GB", (16.0, "GB")),
    ("a lot", None),
    ("4 a lot", None),
    ("", None),
])
def test_a_printed_figure_is_read_as_its_number_and_unit(cell: str, expected: tuple[float, str] | None) -> None:
    assert quantity(cell) == expected


def test_a_dollar_figure_in_another_unit_has_an_unknown_unit() -> None:
    assert quantity("$5 GB") == (5.0, "?")
    assert quantity("$5/h") == (5.0, "USD/h")
    assert quantity("$5") == (5.0, "USD")


def test_a_figure_in_an_unknown_unit_leaves_its_column_text() -> None:
    tbl = table(row("Cost"), row("$5 GB"), row("$4"))
    assert rows_of(table_csv(tbl)) == [["Cost"], ["$5 GB"], ["$4"]]


# Columns of figures -------------------------------------------------------------------------------------


def test_a_column_of_figures_in_one_unit_gets_numbers_and_its_unit_in_the_header() -> None:
    tbl = table(row("Model", "Latency", "Price", "Count"),
                row("bert", "9.5 ms", "$0.36/h", "1,024"),
                row("gpt", "12 ms", "$1/h", "8"))
    assert rows_of(table_csv(tbl)) == [["Model", "Latency (ms)", "Price (USD/h)", "Count"],
                                       ["bert", "9.5", "0.36", "1024"], ["gpt", "12", "1", "8"]]


def test_a_header_naming_its_unit_already_is_left_as_it_is() -> None:
    tbl = table(row("Latency (ms, p50)", "Memory (GB)"), row("9.5 ms", "16 GB"))
    assert rows_of(table_csv(tbl)) == [["Latency (ms, p50)", "Memory (GB)"], ["9.5", "16"]]


def test_empty_cells_and_short_rows_do_not_stop_a_column_being_numbers() -> None:
    short = row("gpt")
    tbl = table(row("Model", "Latency", "Note"), row("bert", "9.5 ms", "ok"), row("t5", entry(), "fine"), short)
    assert rows_of(table_csv(tbl)) == [["Model", "Latency (ms)", "Note"], ["bert", "9.5", "ok"], ["t5", "", "fine"],
                                       ["gpt"]]


def test_a_column_of_only_empty_cells_stays_as_it_is() -> None:
    tbl = table(row("A", "B"), row(entry(), "1"), row(entry(), "2"))
    assert rows_of(table_csv(tbl)) == [["A", "B"], ["", "1"], ["", "2"]]


def test_one_word_in_a_column_keeps_it_text_and_the_other_columns_are_still_read() -> None:
    # From the right: a text column first, the columns to its left still made numbers.
    tbl = table(row("Latency", "Name", "Size"), row("9.5 ms", "bert", "4 GB"), row("10 ms", "n/a", "5 GB"),
                row("8 ms", "t5", "6 GB"))
    assert rows_of(table_csv(tbl)) == [["Latency (ms)", "Name", "Size (GB)"], ["9.5", "bert", "4"],
                                       ["10", "n/a", "5"], ["8", "t5", "6"]]
    tbl = table(row("Latency", "Name"), row("9.5 ms", "4 GB"), row("10 ms", "tall"))
    assert rows_of(table_csv(tbl)) == [["Latency (ms)", "Name"], ["9.5", "4 GB"], ["10", "tall"]]


def test_figures_in_several_units_get_a_unit_column_beside_them() -> None:
    tbl = table(row("Name", "Size", "Kind"), row("a", "16 GB", "x"), row("b", "1.5 TB", "y"), row("c", entry(), "z"),
                row("d"))
    assert rows_of(table_csv(tbl)) == [["Name", "Size", "Size unit", "Kind"], ["a", "16", "GB", "x"],
                                       ["b", "1.5", "TB", "y"], ["c", "", "", "z"], ["d", ""]]


def test_two_mixed_columns_each_get_their_unit_column() -> None:
    tbl = table(row("P", "Q"), row("1 GB", "2 ms"), row("3 TB", "4 s"))
    assert rows_of(table_csv(tbl)) == [["P", "P unit", "Q", "Q unit"], ["1", "GB", "2", "ms"], ["3", "TB", "4", "s"]]


def test_a_count_in_mixed_units_is_named_by_its_empty_unit() -> None:
    tbl = table(row("N"), row("7"), row("8 GB"))
    assert rows_of(table_csv(tbl)) == [["N", "N unit"], ["7", ""], ["8", "GB"]]


def test_three_units_in_a_column_are_mixed_too() -> None:
    tbl = table(row("N"), row("7 ms"), row("8 GB"), row("9 s"))
    assert rows_of(table_csv(tbl)) == [["N", "N unit"], ["7", "ms"], ["8", "GB"], ["9", "s"]]


@pytest.mark.parametrize(("number", "cell"), [
    (4.0, "4"), (-4.0, "-4"), (0.0, "0"), (0.5, "0.5"), (123456.0, "123456"),
    (1234567.0, "1234567"), (-98765432.0, "-98765432"), (999999999999999.0, "999999999999999"), (1e15, "1000000000000000.0"), (-1e15, "-1000000000000000.0"),
    (2.5e16, "2.5e+16"), (0.1, "0.1"), (1 / 3, repr(1 / 3)),
])
def test_a_figure_is_written_as_the_number_it_is(number: float, cell: str) -> None:
    assert given(["N"], [fig(number, "")]) == [["N"], [cell]]
    assert float(cell) == number


# A model's rows ------------------------------------------------------------------------------------


def test_a_models_rows_are_written_as_given_and_its_nodes_never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_: object) -> None:
        raise AssertionError("read back")

    monkeypatch.setattr(tc, "quantity", never)
    monkeypatch.setattr(tc, "_flat_rows", never)
    assert given(["Model", "Latency", "Memory"],
                 ["bert", fig(9.5, "ms", "9.5 ms"), fig(16.0, "GB")],
                 ["gpt", fig(12.0, "ms", "12 ms"), fig(1.5, "TB")],
                 ["t5", "", "1,024 GB"]) == [
        ["Model", "Latency (ms)", "Memory"], ["bert", "9.5", "16.0 GB"], ["gpt", "12", "1.5 TB"], ["t5", "", "1,024 GB"]]


def test_a_models_header_and_words_are_its_words() -> None:
    assert given([fig(1.0, "", "One"), "B"], ["7 ms", fig(2.0, "GB", "2 GB")], ["8 ms", fig(3.0, "TB", "3 TB")]) == [
        ["One", "B", "B unit"], ["7 ms", "2", "GB"], ["8 ms", "3", "TB"]]


def test_a_models_figures_in_one_unit_and_a_count() -> None:
    assert given(["Price", "Runs"], [fig(0.36, "USD/h"), fig(3.0, "")], [fig(1.0, "USD/h"), fig(12.0, "")]) == [
        ["Price (USD/h)", "Runs"], ["0.36", "3"], ["1", "12"]]


def test_a_model_without_rows_is_read_from_its_nodes() -> None:
    tbl = table(row("A"), row("9 ms"))
    CSV_ROWS.set(tbl, [])
    assert rows_of(table_csv(tbl)) == [["A (ms)"], ["9"]]


def test_a_marker_that_is_itself_left_out_is_gathered_once() -> None:
    hidden_marker = nodes.reference("4", "4", refid="n4", classes=["neuron-note-marker", "neuron-visually-hidden"])
    tbl = table(row("A"), row(entry(para("x", hidden_marker))))
    flat = _flat_rows(tbl)
    assert flat == _general_rows(tbl)
    assert [len(marks) for _, marks in flat] == [0, 1]
    assert rows_of(table_csv(tbl, {"n4": "four"})) == [["A", "Notes"], ["x", "[4] four"]]


def test_the_space_before_a_block_follows_the_last_text_read_not_the_first() -> None:
    cell = entry(nodes.Text("a "), nodes.Text("b"), para("c"))
    assert both(table(row("A"), row(cell))) == [["A"], ["a b c"]]
    cell = entry(para(nodes.Text("a "), nodes.Text("b"), para("c")))
    assert both(table(row("A"), row(cell))) == [["A"], ["a b c"]]


def test_a_row_short_of_a_column_of_figures_by_several_cells_is_left_short() -> None:
    tbl = table(row("Name", "Kind", "Size"), row("a", "x", "4 GB"), row("b"), row("c", "y", "5 GB"))
    assert rows_of(table_csv(tbl)) == [["Name", "Kind", "Size (GB)"], ["a", "x", "4"], ["b"], ["c", "y", "5"]]
    assert given(["Name", "Kind", "Size"], ["a", "x", fig(4.0, "GB")], ["b"]) == [
        ["Name", "Kind", "Size (GB)"], ["a", "x", "4"], ["b"]]
