"""The CSV text of a docutils table, as its download holds it.

:func:`table_csv` takes a ``nodes.table`` (whenever in the pipeline it is made) and returns the CSV:
UTF-8 text, header row first, cell text as read (footnote markers, visually hidden words and "since"
dates left out), figures as numbers with their unit moved into the header, and a row's footnotes in
a Notes column. Cells are neutralised against spreadsheet formula injection (OWASP): text beginning
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``
(:func:`neutralised`), except genuine numbers such as ``-5`` or ``+3.2``, which stay numbers.
No Sphinx here (docutils nodes only).
"""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from collections.abc import Mapping


def _cell_text(entry: nodes.Element) -> str:
    """The text of a cell as read, without footnote markers, visually hidden words or "since" dates."""
    parts: list[str] = []

    def walk(node: nodes.Node) -> None:
        if isinstance(node, nodes.Text):
            parts.append(node.astext())
        elif isinstance(node, nodes.Element):
            classes = node.get("classes", [])
            if isinstance(node, nodes.superscript) or {"neuron-visually-hidden", "neuron-since", "neuron-blank"} & set(classes):
                return
            if parts and isinstance(node, nodes.Body) and not parts[-1].endswith(" "):
                parts.append(" ")
            for child in node.children:
                walk(child)

    walk(entry)
    return " ".join("".join(parts).split())


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


def _numeric_columns(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """Columns whose every filled cell is a figure in one unit become numbers, the unit in the header
    (``Price (USD/h)``, ``0.362``); other columns stay text."""
    header, rows = list(header), [list(row) for row in rows]
    for column in reversed(range(len(header))):  # from the right: a unit column goes in after its figures
        cells = [row[column] for row in rows if column < len(row) and row[column]]
        parsed = [quantity(cell) for cell in cells]
        units = {q[1] for q in parsed if q}
        if not cells or None in parsed or "?" in units:
            continue
        mixed = len(units) > 1  # figures in several units (a chart's panels): the unit in a column of its own
        unit = "" if mixed else units.pop()
        if unit and f"({unit}" not in header[column]:
            header[column] = f"{header[column]} ({unit})"
        if mixed:
            header.insert(column + 1, f"{header[column]} unit")
        for row in rows:
            found = quantity(row[column]) if column < len(row) and row[column] else None
            if found:
                number = found[0]
                row[column] = f"{number:g}" if number.is_integer() and abs(number) < 1e15 else repr(number)
            if mixed:
                row.insert(column + 1, found[1] if found else "")
    return header, rows


def _notes_of(row: nodes.row, notes: Mapping[str, str]) -> str:
    """The footnotes a row's markers point to, ``[1] text``, for the CSV's Notes column."""
    marks = [ref for ref in row.findall(nodes.reference) if "neuron-note-marker" in ref.get("classes", [])]
    return "; ".join(f"[{ref.astext()}] {notes[ref['refid']]}" for ref in marks if ref.get("refid") in notes)


def table_csv(table: nodes.table, notes: Mapping[str, str] | None = None) -> str:
    """A docutils table as CSV text: header row then body rows, every cell :func:`neutralised`;
    figures as numbers with their unit in the header, and the footnotes of a row in a Notes column."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if table.get("neuron_csv_rows"):  # the directive gave its data row by row (numbers, one per run)
        header, *rows = table["neuron_csv_rows"]
        header, rows = _numeric_columns(header, rows)
        writer.writerows([[neutralised(c) for c in r] for r in (header, *rows)])
        return out.getvalue()
    all_rows = list(table.findall(nodes.row))
    head = [_cell_text(entry) for entry in all_rows[0].findall(nodes.entry)] if all_rows else []
    body = [[_cell_text(entry) for entry in row.findall(nodes.entry)] for row in all_rows[1:]]
    row_notes = [_notes_of(row, notes or {}) for row in all_rows[1:]]
    head, body = _numeric_columns(head, body)
    if any(row_notes):
        head.append("Notes")
        body = [[*cells, note] for cells, note in zip(body, row_notes, strict=True)]
    writer.writerows([[neutralised(c) for c in r] for r in (head, *body)])
    return out.getvalue()


def page_notes(doctree: nodes.document) -> dict[str, str]:
    """The text of every list item or paragraph with an id (a table's numbered notes), by id."""
    return {node_id: node.astext() for node in doctree.findall(nodes.list_item) for node_id in node["ids"]}
