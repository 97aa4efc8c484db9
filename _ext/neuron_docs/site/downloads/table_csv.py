"""The CSV text of a docutils table, as its download holds it.

:func:`table_csv` takes a ``nodes.table`` (whenever in the pipeline it is made) and returns the CSV:
UTF-8 text, header row first, the rows of the model the table was built from
(:class:`~neuron_docs.render.table_model.TableModel`, carried as :data:`~neuron_docs.node_data.CSV_ROWS`:
every table the extension generates has them, ``tests/test_table_csv.py``). A table without a model
is read back from its nodes: its cells' text (footnote markers, visually hidden words and "since" dates
left out), a row's footnotes in a Notes column. No download of the site is made that way (a table a
writer typed, a ``list-table``, gets none: :func:`.table_files.csv_name`); the tests read each model's
table back so to check its rows. A column of figures becomes numbers, its unit moved into the header:
a model's figures are given with the number and unit they were printed from
(:class:`~neuron_docs.node_data.CsvFigure`), and only a table without a model has its printed figures
parsed (:func:`quantity`). Cells are neutralised against spreadsheet formula injection (OWASP): text
beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``
(:func:`neutralised`), except genuine numbers such as ``-5`` or ``+3.2``, which stay numbers.
No Sphinx here (docutils nodes only).
"""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING

from docutils import nodes
from ...node_data import CSV_ROWS, CsvFigure

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence


#: Classes of what a cell shows but its CSV leaves out: visually hidden words, "since" dates, a blank's mark.
_LEFT_OUT = frozenset({"neuron-visually-hidden", "neuron-since", "neuron-blank"})


def _left_out(node: nodes.Element) -> bool:
    return isinstance(node, nodes.superscript) or not _LEFT_OUT.isdisjoint(node.get("classes", ()))


def _cell_text(entry: nodes.Element) -> str:
    """The text of a cell as read, without footnote markers, visually hidden words or "since" dates."""
    parts: list[str] = []

    def walk(node: nodes.Node) -> None:
        if isinstance(node, nodes.Text):
            parts.append(node.astext())
        elif isinstance(node, nodes.Element):
            if _left_out(node):
                return
            if parts and isinstance(node, nodes.Body) and not parts[-1].endswith(" "):
                parts.append(" ")
            for child in node.children:
                walk(child)

    walk(entry)
    return " ".join("".join(parts).split())


def _is_marker(node: nodes.Node) -> bool:
    return isinstance(node, nodes.reference) and "neuron-note-marker" in node.get("classes", ())


class _Nested(Exception):
    """A cell holds rows or cells of its own (a table in a table): read the table the general way."""


def _walk_cell(node: nodes.Element, parts: list[str], marks: list[nodes.Element]) -> None:
    """:func:`_cell_text`'s walk below ``node``, gathering the note markers too (left-out parts included)."""
    for child in node.children:
        if not isinstance(child, nodes.Element):
            if isinstance(child, nodes.Text):
                parts.append(child.astext())
            continue
        if isinstance(child, nodes.row | nodes.entry):
            raise _Nested
        if _is_marker(child):
            marks.append(child)
        if _left_out(child):
            for inner in child.findall(nodes.Element, include_self=False):
                if isinstance(inner, nodes.row | nodes.entry):
                    raise _Nested
                if _is_marker(inner):
                    marks.append(inner)
            continue
        if parts and isinstance(child, nodes.Body) and not parts[-1].endswith(" "):
            parts.append(" ")
        _walk_cell(child, parts, marks)


def _rows_of(node: nodes.Element) -> Iterator[nodes.row]:
    for child in node.children:
        if isinstance(child, nodes.row):
            yield child
        elif isinstance(child, nodes.Element):
            yield from _rows_of(child)


def _flat_rows(table: nodes.table) -> list[tuple[list[str], list[nodes.Element]]]:
    """Each row's cell texts and note markers, every node of the table visited once; :class:`_Nested`
    when a row holds anything but cells or a cell holds rows or cells."""
    rows = []
    for row in _rows_of(table):
        cells: list[str] = []
        marks: list[nodes.Element] = []
        for entry in row.children:
            if not isinstance(entry, nodes.entry):
                raise _Nested
            if _left_out(entry):
                raise _Nested  # a cell shown but left out whole: rare, the general way reads it
            parts: list[str] = []
            _walk_cell(entry, parts, marks)
            cells.append(" ".join("".join(parts).split()))
        rows.append((cells, marks))
    return rows


def _general_rows(table: nodes.table) -> list[tuple[list[str], list[nodes.Element]]]:
    """Each row's cell texts and note markers as ``findall`` finds them, nested tables and all."""
    return [([_cell_text(entry) for entry in row.findall(nodes.entry)],
             [ref for ref in row.findall(nodes.reference) if _is_marker(ref)])
            for row in table.findall(nodes.row)]


#: What a spreadsheet may take for the start of a formula (OWASP's CSV injection guidance).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A plain number, signed or not, which a spreadsheet reads as a number and never as a formula.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def neutralised(cell: str) -> str:
    """``cell`` with a leading ``'`` if a spreadsheet could read it as a formula (``=HYPERLINK(...)``,
    ``@SUM(...)``, ``-1+1``); genuine numbers (``-5``, ``+3.2``) and other text are left alone."""
    if cell.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


#: A figure as the pages print it: ``$0.362/h``, ``9.007 ms``, ``76.92%``, ``536.718 inferences/s``, ``4``.
_QUANTITY = re.compile(r"(?P<usd>\$)?(?P<number>[+-]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))(?P<unit>%|/h| ?[A-Za-z][A-Za-z/]*)?")


def quantity(cell: str) -> tuple[float, str] | None:
    """``(number, unit)`` of a printed figure (``$0.362/h`` -> ``(0.362, "USD/h")``), else None."""
    match = _QUANTITY.fullmatch(cell)
    if match is None:
        return None
    unit = (match["unit"] or "").strip()
    if match["usd"]:
        unit = "USD" + unit if unit.startswith("/") or not unit else "?"
    return float(match["number"].replace(",", "")), unit


def _words(cell: str | CsvFigure) -> str:
    """What a cell says: its words (a figure's as printed)."""
    return cell.words if isinstance(cell, CsvFigure) else cell


def _figure(cell: str | CsvFigure, parse: bool) -> tuple[float, str] | None:
    """The number and unit of a filled cell: a model's figure as given; words parsed only when ``parse``."""
    if isinstance(cell, CsvFigure):
        return cell.number, cell.unit
    return quantity(cell) if parse else None


def _numeric_columns(header: Sequence[str | CsvFigure], rows: Sequence[Sequence[str | CsvFigure]],
                     parse: bool) -> tuple[list[str], list[list[str]]]:
    """Columns whose every filled cell is a figure in one unit become numbers, the unit in the header
    (``Price (USD/h)``, ``0.362``); other columns stay text. A figure is a model's
    (:class:`~neuron_docs.node_data.CsvFigure`) or, with ``parse``, a cell's words read as one
    (:func:`quantity`)."""
    head, table = [_words(cell) for cell in header], [list(row) for row in rows]
    for column in reversed(range(len(head))):  # from the right: a unit column goes in after its figures
        cells = [row[column] for row in table if column < len(row) and _words(row[column])]
        found = [_figure(cell, parse) for cell in cells]
        units = {f[1] for f in found if f}
        if not cells or None in found or "?" in units:
            continue
        mixed = len(units) > 1  # figures in several units (a chart's panels): the unit in a column of its own
        unit = "" if mixed else units.pop()
        if unit and f"({unit}" not in head[column]:
            head[column] = f"{head[column]} ({unit})"
        if mixed:
            head.insert(column + 1, f"{head[column]} unit")
        for row in table:
            figure = _figure(row[column], parse) if column < len(row) and _words(row[column]) else None
            if figure:
                number = figure[0]
                # A whole number in full (``:g`` keeps six digits: 1234567 was "1.23457e+06").
                row[column] = f"{number:.0f}" if number.is_integer() and abs(number) < 1e15 else repr(number)
            if mixed:
                row.insert(column + 1, figure[1] if figure else "")
    return head, [[_words(cell) for cell in row] for row in table]


def table_csv(table: nodes.table, notes: Mapping[str, str] | None = None) -> str:
    """A docutils table as CSV text: header row then body rows, every cell :func:`neutralised`;
    figures as numbers with their unit in the header, and the footnotes of a row (``notes``: the
    page's, by id) in a Notes column."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if given := CSV_ROWS.get(table):  # the rows of the table's model (render.table_model): nothing parsed
        header, rows = _numeric_columns(given[0], given[1:], parse=False)
        writer.writerows([[neutralised(c) for c in r] for r in (header, *rows)])
        return out.getvalue()
    # No model (none of the site's downloads: the tests' reading of a table): read back from its nodes.
    try:
        all_rows = _flat_rows(table)
    except _Nested:
        all_rows = _general_rows(table)
    head = all_rows[0][0] if all_rows else []
    body = [cells for cells, _ in all_rows[1:]]
    row_notes = [_notes_of(marks, notes) if marks and notes else "" for _, marks in all_rows[1:]]
    head, body = _numeric_columns(head, body, parse=True)
    if any(row_notes):
        head.append("Notes")
        body = [[*cells, note] for cells, note in zip(body, row_notes, strict=True)]
    writer.writerows([[neutralised(c) for c in r] for r in (head, *body)])
    return out.getvalue()


def _notes_of(marks: list[nodes.Element], notes: Mapping[str, str]) -> str:
    """The footnotes a row's markers point to, ``[1] text``, for the CSV's Notes column."""
    return "; ".join(f"[{ref.astext()}] {notes[ref['refid']]}" for ref in marks if ref.get("refid") in notes)


def page_notes(doctree: nodes.document) -> dict[str, str]:
    """The text of every list item or paragraph with an id (a table's numbered notes), by id."""
    return {node_id: node.astext() for node in doctree.findall(nodes.list_item) for node_id in node["ids"]}
