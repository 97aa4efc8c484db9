"""A table's CSV reads every node once (cell text, note markers) and says the same as reading it with
``findall`` row by row, cell by cell; a table in a table is read the general way."""

from __future__ import annotations

import csv
import io

import pytest
from docutils import nodes

from neuron_docs.node_data import CSV_ROWS
from neuron_docs.render.expand import filled_doctree
from neuron_docs.render.tables import build_table
from neuron_docs.site.downloads.csv_index import fill_index
from neuron_docs.site.downloads import table_csv as table_csv_module
from neuron_docs.site.downloads.table_csv import _flat_rows, _general_rows, _Nested, table_csv


def _marker(number: str, refid: str) -> nodes.superscript:
    mark = nodes.superscript()
    mark += nodes.reference(number, number, refid=refid, classes=["neuron-note-marker"])
    mark += nodes.inline("Note ", "Note ", classes=["neuron-visually-hidden"])
    return mark


def _cell(*children: nodes.Node) -> nodes.paragraph:
    paragraph = nodes.paragraph()
    paragraph.extend(children)
    return paragraph


def _marked_table() -> nodes.table:
    """Markers in cells, hidden words, a "since" date, two paragraphs in one cell, a blank's mark."""
    since = nodes.inline("", "since 2023-05-06", classes=["neuron-since"])
    blank = nodes.abbreviation("", "\u2014", explanation="n/a", classes=["neuron-blank"])
    rows = [
        ["bert", [_cell(nodes.Text("supported"), _marker("1", "note-1")), since]],
        ["gpt", [_cell(nodes.Text("limited ")), _cell(nodes.strong("", "see"), nodes.Text(" notes"),
                                                       _marker("2", "note-2"), _marker("3", "missing"))]],
        ["lstm", [_cell(blank)]],
    ]
    return build_table(["Family", "Status"], rows)


def test_markers_hidden_words_and_dates_as_the_csv_shows_them():
    notes = {"note-1": "First, with a comma.", "note-2": "=SUM(A1)"}
    rows = list(csv.reader(io.StringIO(table_csv(_marked_table(), notes))))
    assert rows == [["Family", "Status", "Notes"],
                    ["bert", "supported", "[1] First, with a comma."],
                    ["gpt", "limited see notes", "[2] =SUM(A1)"],
                    ["lstm", "", ""]]
    assert list(csv.reader(io.StringIO(table_csv(_marked_table())))) == [
        ["Family", "Status"], ["bert", "supported"], ["gpt", "limited see notes"], ["lstm", ""]]


def test_one_walk_reads_as_findall_does():
    table = _marked_table()
    flat = _flat_rows(table)
    assert flat == _general_rows(table)
    assert [len(marks) for _, marks in flat] == [0, 1, 2, 0]


def _nested_table() -> nodes.table:
    inner = build_table(["x"], [["inner cell"]])
    return build_table(["A", "B"], [["outer", [_cell(nodes.Text("before")), inner]]])


def _whole_cell_left_out() -> nodes.table:
    table = build_table(["A", "B"], [["shown", "hidden"]])
    entry = list(table.findall(nodes.entry))[-1]
    entry["classes"].append("neuron-since")
    entry[0] += _marker("1", "note-1")
    return table


@pytest.mark.parametrize("make", [_nested_table, _whole_cell_left_out])
def test_a_table_the_one_walk_cannot_read_is_read_the_general_way(make):
    with pytest.raises(_Nested):
        _flat_rows(make())
    general = _general_rows(make())
    notes = {"note-1": "a note"}
    rows = list(csv.reader(io.StringIO(table_csv(make(), notes))))
    expected = [cells for cells, _ in general]
    if any(marks for _, marks in general[1:]):
        expected = [[*expected[0], "Notes"], *([*cells, "[1] a note" if marks else ""] for cells, marks in general[1:])]
    assert rows == expected


def test_every_table_of_the_site_is_read_alike_both_ways(site):
    env = site.app.env
    tables = marked = 0
    for docname in sorted(env.found_docs):
        # The pages as read, their generated content filled (neuron_docs.render), as when written.
        for table in filled_doctree(site.app, docname).findall(nodes.table):
            general = _general_rows(table)
            try:
                flat = _flat_rows(table)
            except _Nested:
                continue
            assert flat == general, docname
            tables += 1
            marked += any(marks for _, marks in flat)
    assert tables > 50 and marked, (tables, marked)


#: The support matrix: its rows written as HTML, their CSV from its data (tests/test_matrix_pages.py).
_OWN_CSV_CLASSES = frozenset({"neuron-support-matrix"})


def _never(cell: str) -> None:
    raise AssertionError(f"the printed figure {cell!r} of a generated table is parsed back")


def test_every_generated_table_is_built_from_a_model_whose_csv_its_page_shows(site, monkeypatch):
    """Every table the extension generates (class ``neuron-table``: a table that gets a CSV download,
    :func:`~neuron_docs.site.downloads.table_files.csv_name`), the index of CSV files too, is built
    from one model (:class:`~neuron_docs.render.table_model.TableModel`) and carries its CSV rows, its
    figures with their numbers: no cell of it is read back, no printed figure parsed. The rows say what
    reading its cells would (the words a reader reads, the blank's dash left out)."""
    env = site.app.env
    checked = 0
    without: list[tuple[str, list[str]]] = []
    for docname in sorted(env.found_docs):
        doctree = filled_doctree(site.app, docname)
        fill_index(site.app, doctree, docname)  # the index of CSV files, filled when its page is resolved
        for table in doctree.findall(nodes.table):
            if "neuron-table" in table["classes"] and not CSV_ROWS.on(table):
                without.append((docname, table["ids"]))
            if not CSV_ROWS.on(table):
                continue
            with monkeypatch.context() as patch:
                patch.setattr(table_csv_module, "quantity", _never)
                given = table_csv(table)
            if not _OWN_CSV_CLASSES.isdisjoint(table["classes"]):
                continue
            CSV_ROWS.pop(table, None)
            read = table_csv(table)
            # Its own rows: one per run (a benchmark table's, a published chart's); or a figure whose unit
            # is words (``output tokens/s``), which reading the cells back cannot tell from other words.
            if given.partition("\n")[0] != read.partition("\n")[0]:
                continue
            assert given == read, (docname, table.get("ids"))
            checked += 1
    assert not without, without
    assert checked > 50, checked


def test_a_cell_added_to_several_rows_gets_nodes_of_its_own_in_each() -> None:
    """One blank made once for a whole table (as the accuracy table's "unknown"): each place holds
    its own node, so a transform that replaces a node (the tooltips outside HTML) finds every one."""
    from docutils import nodes as docutils_nodes

    from neuron_docs.render.table_model import TableModel, missing, text

    unknown = missing("unknown", "not in the data")
    model = TableModel(["A", "B"])
    for name in ("x", "y", "z"):
        model.add([text(name), unknown])
    table = model.table()
    blanks = [node for node in table.findall(docutils_nodes.abbreviation)]
    assert len(blanks) == 3 and len({id(node) for node in blanks}) == 3
    assert all(any(child is node for child in node.parent.children) for node in blanks)
    assert model.csv_rows()[1:] == [["x", ""], ["y", ""], ["z", ""]]
