"""Wide tables in the PDF and the ePub: split into parts that fit a page, each with the headline columns.

A published performance table has up to 23 columns; on a page (``tabulary`` over the text width)
each would be a few millimetres wide and its figures cut ("117." for 117.61). For the LaTeX builder a
table of more than :data:`SPLIT_ABOVE` columns becomes several tables of at most :data:`MAX_COLUMNS`, in
order, each repeating the headline columns (the stub columns, else the first: the model) so a row
can be read in every part; the parts after the first say which columns they hold and carry no ids
(links land on the first). The columns of each part, and of any table of :data:`SIZED_FROM` columns
or more, are as wide as their content needs (a figure or an instance name never cut); in the PDF a narrower table's too (a column of names as wide
as its names, the prose sharing the rest). A table with cells spanning columns or rows is left as it is.
A table that may be taller than what is left of a page (a few rows, or a few lines of prose) becomes a
``longtable``, which breaks across pages. An ePub's tables are split as the PDF's (a reader's screen of 600 pixels
shows 7 columns, not 24), their columns sized alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from ..node_data import CELLS_HTML


if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

#: A table of more columns is split (a portrait page of text holds 9 at a small size), into parts of
#: at most :data:`MAX_COLUMNS` (about 2 cm a column), as even as can be.
SPLIT_ABOVE = 9
#: A table of this many columns or more gets widths from its content (tabulary's squeeze a short
#: column's instance name or figure).
SIZED_FROM = 6
MAX_COLUMNS = 7
#: A table with more rows, or more text, may not fit on what is left of a page: it is a ``longtable``.
MAX_ROWS = 4
MAX_CHARACTERS = 600
#: What a column of prose of a narrow table counts as, in characters, beside columns of short cells.
PROSE = 60
#: What a line of a table holds at the tables' size, in characters, the columns' separation included.
LINE = 100
#: What a column needs beside its text (its separation from the next), in characters.
PADDING = 4


def _columns(table: nodes.table) -> list[nodes.colspec] | None:
    """The table's columns, unless it has several groups, a cell spanning columns or rows, or rows
    written as HTML already."""
    groups = [child for child in table.children if isinstance(child, nodes.tgroup)]
    if len(groups) != 1:
        return None
    if any(entry.get("morecols") or entry.get("morerows") for entry in groups[0].findall(nodes.entry)):
        return None
    if any(CELLS_HTML.on(row) for row in groups[0].findall(nodes.row)):
        return None  # rows written as HTML already (an ePub's support matrices: render.light_rows)
    return [child for child in groups[0].children if isinstance(child, nodes.colspec)]


def _keep_columns(table: nodes.table, keep: list[int]) -> None:
    """Remove from ``table`` (a copy) every column not in ``keep``."""
    group = next(child for child in table.children if isinstance(child, nodes.tgroup))
    colspecs = [child for child in group.children if isinstance(child, nodes.colspec)]
    for index, colspec in enumerate(colspecs):
        if index not in keep:
            group.remove(colspec)
    group["cols"] = len(keep)
    for row in group.findall(nodes.row):
        entries = [child for child in row.children if isinstance(child, nodes.entry)]
        for index, entry in enumerate(entries):
            if index not in keep:
                row.remove(entry)


def _part(table: nodes.table, keep: list[int]) -> nodes.table:
    part = table.deepcopy()
    _keep_columns(part, keep)
    for element in part.findall(nodes.Element):
        element["ids"] = []
    for title in [child for child in part.children if isinstance(child, nodes.title)]:
        part.remove(title)  # the first part has it; the others say what they hold
    return part


def _continued(first: int, last: int, total: int) -> nodes.paragraph:
    words = f"Continued: columns {first}\u2013{last} of {total}, after the headline column."
    paragraph = nodes.paragraph(classes=["neuron-table-continued"])
    paragraph += nodes.emphasis(words, words)
    return paragraph


def _width(word: str) -> float:
    """A word's width in characters of average width: capitals and m/w count half as much again, figures
    and currency signs a fifth more."""
    return sum(1.5 if char.isupper() or char in "mw" else 1.2 if char.isdigit() or char in "$%" else 1.0
               for char in word)


def _set_widths(table: nodes.table, heading_cap: int, body: Callable[[str, float], float]) -> None:
    """Each column as wide as ``body`` wants for its cells (from a cell's text and longest word), its
    heading's longest word up to ``heading_cap`` (headings hyphenate); when the columns want more than
    a line holds (:data:`LINE`), the columns wider than their longest word give up the excess, so a
    name or a figure is never cut for the sake of a column of prose."""
    group = next(child for child in table.children if isinstance(child, nodes.tgroup))
    colspecs = [child for child in group.children if isinstance(child, nodes.colspec)]
    wanted: list[float] = [4] * len(colspecs)
    floor: list[float] = [4] * len(colspecs)
    for row in group.findall(nodes.row):
        heading = isinstance(row.parent, nodes.thead)
        for index, entry in enumerate(child for child in row.children if isinstance(child, nodes.entry)):
            text = entry.astext()
            longest_word = max((_width(word) for word in text.split()), default=0)
            if heading:
                wanted[index] = max(wanted[index], min(longest_word, heading_cap))
                floor[index] = max(floor[index], min(longest_word, heading_cap))
            else:
                wanted[index] = max(wanted[index], body(text, longest_word))
                floor[index] = max(floor[index], longest_word)
    floor = [min(low, high) for low, high in zip(floor, wanted, strict=True)]
    excess = sum(wanted) + PADDING * len(wanted) - LINE
    slack = sum(high - low for low, high in zip(floor, wanted, strict=True))
    if excess > 0 and slack > 0:
        cut = min(1.0, excess / slack)
        wanted = [high - (high - low) * cut for low, high in zip(floor, wanted, strict=True)]
    for colspec, width in zip(colspecs, wanted, strict=True):
        colspec["colwidth"] = round(width) + PADDING
    if "colwidths-given" not in table["classes"]:
        table["classes"].append("colwidths-given")


def _give_widths(table: nodes.table) -> None:
    """Column widths from the content: each column as wide as its longest word in the body (a figure, an
    instance name: what cannot break) or its longest cell, whichever is less; headings hyphenate."""
    _set_widths(table, 8, lambda text, longest: min(max(longest, min(len(text), 12)), 18))


def _give_narrow_widths(table: nodes.table) -> None:
    """Column widths of a narrow table from its content: a column of short cells (a name, a date) as
    wide as its longest cell, a column of prose sharing the rest (up to :data:`PROSE` characters'
    worth), never narrower than its longest word; headings hyphenate."""
    _set_widths(table, 12, lambda text, longest: max(min(longest, 24), min(len(text), PROSE)))


def _long_enough_to_break(table: nodes.table) -> bool:
    """Whether the table may be taller than what is left of a page: then it is a ``longtable``, which
    breaks across pages (Sphinx makes one only of a table of more than 30 rows; a few rows of prose
    can be taller than a page)."""
    rows = list(table.findall(nodes.row))
    return len(rows) > MAX_ROWS or sum(len(row.astext()) for row in rows) > MAX_CHARACTERS


def split_wide_tables(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Split each table wider than :data:`SPLIT_ABOVE` columns of the LaTeX document or an ePub page (see
    the module); in the PDF, a table that may be taller than a page breaks across pages."""
    latex = getattr(app.builder, "format", "") == "latex"
    if not latex and not app.builder.name.startswith("epub"):
        return
    for table in list(doctree.findall(nodes.table)):
        if latex and _long_enough_to_break(table) and "longtable" not in table["classes"] and not _nested(table):
            table["classes"].append("longtable")
        colspecs = _columns(table)
        if colspecs is None:
            continue
        if len(colspecs) < SIZED_FROM:
            if latex and len(colspecs) > 1 and "colwidths-given" not in table["classes"]:
                _give_narrow_widths(table)
            continue
        if len(colspecs) <= SPLIT_ABOVE:
            if "colwidths-given" not in table["classes"]:
                _give_widths(table)
            continue
        headline = [index for index, colspec in enumerate(colspecs) if colspec.get("stub")] or [0]
        rest = [index for index in range(len(colspecs)) if index not in headline]
        size = MAX_COLUMNS - len(headline)
        if size < 1:
            continue
        count = -(-len(rest) // size)  # parts of even width: 16 columns after the model in 3 of 6, 5, 5
        chunks = [rest[round(n * len(rest) / count):round((n + 1) * len(rest) / count)] for n in range(count)]
        added: list[nodes.Element] = []
        for chunk in chunks[1:]:
            part = _part(table, sorted(headline + chunk))
            _give_widths(part)
            added += [_continued(chunk[0] + 1, chunk[-1] + 1, len(colspecs)), part]
        _keep_columns(table, sorted(headline + chunks[0]))
        _give_widths(table)
        parent = table.parent
        for offset, element in enumerate(added, start=1):
            parent.insert(parent.index(table) + offset, element)


def _nested(table: nodes.table) -> bool:
    """Whether the table is inside what a ``longtable`` cannot be in (a table, a framed box)."""
    parent = table.parent
    while parent is not None:
        if isinstance(parent, (nodes.table, nodes.Admonition, nodes.sidebar, nodes.topic, nodes.footnote)):
            return True
        parent = parent.parent
    return False
