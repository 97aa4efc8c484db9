"""Building docutils tables, badges and data-problem notices shared by every directive family.

Cells are docutils nodes or plain strings; strings always become text nodes, so data can never
inject markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from docutils import nodes
from ..node_data import TABLE_NAME_ID


if TYPE_CHECKING:
    from ..data import Broken

type Cell = str | nodes.Node | Sequence[nodes.Node] | None


@cache
def _badge_classes(kind: str, value: str) -> list[str]:
    """One copy of each badge's class names, however many badges a matrix holds."""
    return ["neuron-badge", f"neuron-{kind}", f"neuron-{kind}-{value}"]


def badge(kind: str, value: str, text: str) -> nodes.inline:
    """A status badge: always text, its colour only a second signal (``neuron-<kind>-<value>``)."""
    return nodes.inline(text, text, classes=_badge_classes(kind, value))  # docutils copies the list


def _inline(node: nodes.Node) -> bool:
    """Text-level nodes go into a paragraph; pending cross-references are inline too."""
    return isinstance(node, nodes.Text | nodes.Inline) or node.tagname == "pending_xref"


def _own(node: nodes.Node) -> nodes.Node:
    """``node``, copied when another place holds it already (one blank made for a whole table): a node
    has one parent, and a node placed twice is lost by the transforms that replace it (the tooltips
    outside HTML)."""
    return node.deepcopy() if node.parent is not None else node


def table_entry(cell: Cell) -> nodes.entry:
    """A table cell: text in a paragraph, inline nodes gathered into one, other nodes as they are (a
    node placed in another cell already: a copy of it)."""
    entry = nodes.entry()
    if cell is None or cell == "":
        return entry
    if isinstance(cell, str):
        entry += nodes.paragraph(cell, cell)
    elif isinstance(cell, nodes.Node):
        cell = _own(cell)
        entry += nodes.paragraph("", "", cell) if _inline(cell) else cell
    else:
        paragraph = nodes.paragraph()
        for child in map(_own, cell):
            if _inline(child):
                paragraph += child
            else:
                entry += child
        if paragraph.children:
            entry.insert(0, paragraph)
    return entry


def build_table(headers: Sequence[str], rows: Sequence[Sequence[Cell]], *, classes: Sequence[str] = (),
                caption: str | None = None, row_ids: Sequence[str | None] | None = None,
                name: str | None = None) -> nodes.table:
    """A table with one header row; ``row_ids`` give rows an HTML id to link to (several: space-separated)."""
    table = nodes.table(classes=["neuron-table", *classes])
    if name:
        table["ids"].append(nodes.make_id(name))
        TABLE_NAME_ID.set(table, nodes.make_id(name))  # the table's own id, never an object's place
    if caption:
        table += nodes.title(caption, caption)
    group = nodes.tgroup(cols=len(headers))
    table += group
    for _ in headers:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    header_row = nodes.row()
    for text in headers:
        header_row += table_entry(text)
    head += header_row
    group += head
    body = nodes.tbody()
    for index, cells in enumerate(rows):
        body += table_row(cells, row_ids[index] if row_ids else None)
    group += body
    return table


def table_row(cells: Sequence[Cell], row_id: str | None = None) -> nodes.row:
    """A body row of ``cells``, with the HTML id(s) ``row_id`` (several: space-separated)."""
    row = nodes.row()
    if row_id:
        row["ids"].extend(row_id.split())  # several runs, one row: every id
    for cell in cells:
        row += table_entry(cell)
    return row


#: What a blank cell means, in words (the title of its dash): decided per column from the data.
BLANK_MEANING = {"na": "not applicable", "unknown": "unknown", "none": "none"}


def blank(kind: str, why: str = "") -> nodes.abbreviation:
    """A cell with no figure that says why: a dash whose title (and hidden text) is ``kind``'s words
    (``na``, ``unknown`` or ``none``), with ``why`` after them. CSV downloads write it as empty."""
    words = BLANK_MEANING[kind] + (f": {why}" if why else "")
    mark = nodes.abbreviation("", "\u2014", explanation=words, classes=["neuron-blank", f"neuron-blank-{kind}"])
    mark += nodes.inline("", f" ({words})", classes=["neuron-visually-hidden"])
    return mark


def unique_id(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``... the first not in ``taken`` (which it joins)."""
    anchor, number = wanted, 1
    while anchor in taken:
        number += 1
        anchor = f"{wanted}-{number}"
    taken.add(anchor)
    return anchor


def _value_end(text: str, start: int) -> int | None:
    """Where the value that begins at ``start`` ends: after its closing quote when quoted (a
    backslash escapes), else at the first ``)`` or ``;`` not inside brackets; None: no end."""
    if start < len(text) and text[start] in "'\"":
        quote, i = text[start], start + 1
        while i < len(text):
            if text[i] == "\\":
                i += 2
                continue
            if text[i] == quote:
                return i + 1
            i += 1
        return None
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}" and depth:
            depth -= 1
        elif text[i] in ");" and not depth:
            return i
    return None


def withhold_values(message: str) -> str:
    """``message`` without the value it refused: ``(got 1.7e308)`` and ``(got '1e30'; YAML reads
    ...)`` become ``(value not shown)`` and ``(value not shown; YAML reads ...)``. A value refused is
    never printed on a page (issue 32): the box names its file, line and field, and what was
    expected; the writer's warning says the rest. A message with no such part is returned as is."""
    out, at = [], 0
    marker = "(got "
    while (found := message.find(marker, at)) != -1:
        start = found + len(marker)
        end = _value_end(message, start)
        if end is None:
            out.append(message[at:found] + "(value not shown)")
            return "".join(out)
        out.append(message[at:found] + "(value not shown")
        at = end
    out.append(message[at:])
    return "".join(out)


def broken_notice(broken: Sequence[Broken],
                  intro: str = "These records failed validation and are missing from the table above:"
                  ) -> list[nodes.Node]:
    """A visible warning box listing records that failed validation and so are not shown above
    (what each refused is never shown: :func:`withhold_values`)."""
    if not broken:
        return []
    box = nodes.admonition(classes=["warning", "neuron-data-problem"])
    box += nodes.title("Data problem", "Data problem")
    box += nodes.paragraph(intro, intro)
    items = nodes.bullet_list()
    for record in broken:
        for error in record.errors:
            item_text = f"{record.collection} {record.record_id or '(unnamed)'}: {withhold_values(str(error))}"
            items += nodes.list_item("", nodes.paragraph(item_text, item_text))
    box += items
    return [box]


def comma_list(argument: str | None) -> list[str]:
    """Directive option ``a, b, c`` -> ``["a", "b", "c"]`` (blank items dropped)."""
    return [part.strip() for part in (argument or "").split(",") if part.strip()]
