"""The advisor's static answer, outside the web pages: one compact block per family, devices ranked.

On a web page the advisor's static table (:mod:`..directives.advisor`) has a row per family and
device and nine columns, several of them prose (the fit's rationale, the best configurations); on a
page of paper or an e-reader's screen nine columns are a few millimetres each (25 PDF pages, headings
cut into syllables). For every builder but the web ones each family becomes a block: its name, then
an item per device, the best architecture fit first (good, with limitations, not a good fit, no
published fit), each with its fit and rationale and, below, what the row's other columns say: the
support per framework, known issues and roadmap items, the best configurations ("None measured"
ones gathered in one line). The rows' ids (links to a family on a device) move to their items.

The blocks are made from the table's model, which the advisor keeps for them when it renders the
table (:attr:`..state.build.BuildState.table_models`), not read back from the table's nodes; the table
stays until its CSV download's link is put under it, then the blocks take its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from docutils import nodes

from ..data.records.labels import FIT_TEXT
from ..directives.advisor import TABLE_NAME
from ..render.expand import resolve_generated_references
from ..render.tables import table_entry
from ..state.domain import state
from .html_only import writes_html_as_is
from ..node_data import TABLE_NAME_ID

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..render.table_model import TableModel
#: The rank of each fit's words (the cell's first strong text); a cell without a fit ranks last.
FIT_RANK = {FIT_TEXT[key]: rank for rank, key in enumerate(("good", "limited", "poor"))}
#: What a "best" cell says when nothing answers it: gathered into one line.
NOTHING = ("None measured", "Not applicable")


def _inline(entry: nodes.entry) -> list[nodes.Node]:
    """A cell's content as inline nodes: its paragraphs' children, a list's items joined by "; "."""
    out: list[nodes.Node] = []
    for child in entry.children:
        if isinstance(child, nodes.paragraph):
            out += [nodes.Text("; ")] if out else []
            out += list(child.children)
        elif isinstance(child, nodes.bullet_list):
            for item in child.children:
                out += [nodes.Text("; ")] if out else []
                out += [node for paragraph in item.findall(nodes.paragraph) for node in paragraph.children]
        else:
            out.append(nodes.Text(child.astext()))
    return out


def _rank(entry: nodes.entry) -> int:
    strong = next(iter(entry.findall(nodes.strong)), None)
    return FIT_RANK.get(strong.astext() if strong is not None else "", len(FIT_RANK))


def _line(label: str, content: list[nodes.Node]) -> nodes.list_item:
    paragraph = nodes.paragraph()
    paragraph += nodes.strong(label, label)
    paragraph += nodes.Text(": ")
    paragraph += content
    return nodes.list_item("", paragraph)


def _device_item(headers: Sequence[str], entries: list[nodes.entry], ids: str | None) -> nodes.list_item:
    item = nodes.list_item(ids=ids.split() if ids else [])
    heading = nodes.paragraph()
    heading += _inline(entries[1])
    heading += nodes.Text(": ")
    heading += _inline(entries[2])
    item += heading
    details = nodes.bullet_list(classes=["simple"])
    unanswered: list[str] = []
    for header, entry in zip(headers[3:], entries[3:], strict=False):
        text = entry.astext().strip()
        if text in NOTHING and header.startswith(("Best", "Lowest")):
            unanswered.append(f"{header[0].lower()}{header[1:]} ({text.lower()})")
            continue
        details += _line(header, _inline(entry))
    if unanswered:
        details += nodes.list_item("", nodes.paragraph("", "No figure: " + ", ".join(unanswered)))
    item += details
    return item


def compact_blocks(model: TableModel, ids: Sequence[str] = ()) -> list[nodes.Node]:
    """The model's rows as a block per family (its first column), devices ranked by fit; ``ids``: the
    table's, kept on a target before the blocks. The model's nodes go into the blocks."""
    families: dict[str, list[tuple[list[nodes.entry], str | None]]] = {}
    for row, row_id in zip(model.rows, model.row_ids, strict=True):
        families.setdefault(row[0].csv, []).append(([table_entry(cell.page) for cell in row], row_id))
    out: list[nodes.Node] = []
    for rows in families.values():
        block = nodes.container(classes=["neuron-advisor-family"])
        title = nodes.paragraph(classes=["neuron-advisor-family-title"])
        title += nodes.strong("", "", *_inline(rows[0][0][0]))
        block += title
        devices = nodes.bullet_list()
        for entries, row_id in sorted(rows, key=lambda row: _rank(row[0][2])):
            devices += _device_item(model.headers, entries, row_id)
        block += devices
        out.append(block)
    if ids:
        out.insert(0, nodes.target("", "", ids=list(ids)))
    return out


def advisor_as_blocks(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Outside the web builders, the advisor's static table becomes a block per family."""
    if writes_html_as_is(app):
        return
    models = state(app.env).table_models
    for table in list(doctree.findall(nodes.table)):
        if TABLE_NAME_ID.get(table) == TABLE_NAME:
            blocks = compact_blocks(models[(docname, TABLE_NAME)], table["ids"])
            resolve_generated_references(blocks, docname, app.env)
            table.replace_self(blocks)
