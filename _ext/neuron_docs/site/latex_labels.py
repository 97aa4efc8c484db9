"""A LaTeX label for every id a link can point at, wherever the element carrying it is.

Sphinx's LaTeX writer writes ``\\label{page:id}`` for the ids of sections, tables, figures, terms,
targets, references and literal blocks only; an object anchored on a table row (an instance, a
framework, a model), a support matrix cell or a note's paragraph would be a link to nowhere in the
PDF (``Hyper reference ... undefined``). Before the single LaTeX document is written, each such id
gets a :class:`docutils.nodes.target` the writer labels: at the start of a row's first cell, inside
a paragraph or an inline element, else just before the element; an id the page labels already
(a section's, or a target's pointing at the element) is labelled once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from .ids import page_of

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: What the LaTeX writer labels itself (a section through its title, a figure through its caption).
LABELLED = (nodes.section, nodes.table, nodes.figure, nodes.term, nodes.target, nodes.reference,
            nodes.literal_block, nodes.math_block, nodes.footnote, nodes.citation, nodes.document,
            addnodes.desc_signature, addnodes.start_of_file, nodes.title)
#: Where a target may stand as a first child: text (a label inline) or a table cell.
HOLDS_INLINE = (nodes.TextElement, nodes.entry, nodes.list_item, nodes.definition, nodes.field_body)


def _target_for(element: nodes.Element) -> tuple[nodes.Element, int] | None:
    """Where the target for ``element``'s ids goes: (parent, index)."""
    if isinstance(element, nodes.row):
        entries = [child for child in element.children if isinstance(child, nodes.entry)]
        return (entries[0], 0) if entries else None
    if isinstance(element, HOLDS_INLINE):
        return element, 0
    parent = element.parent
    if parent is None or isinstance(parent, (nodes.row, nodes.tgroup, nodes.thead, nodes.tbody, nodes.Sequential)):
        return None
    return parent, parent.index(element)


def label_every_id(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give each id of an element the LaTeX writer does not label a target it does."""
    if getattr(app.builder, "format", "") != "latex":
        return
    pages = page_of(doctree)
    elements = [element for element in doctree.findall(nodes.Element) if element["ids"]]
    labelled = {(pages.get(id(e), 0), anchor) for e in elements if isinstance(e, LABELLED) for anchor in e["ids"]}
    labelled |= {(pages.get(id(t), 0), t["refid"]) for t in doctree.findall(nodes.target) if t.get("refid")}
    for element in elements:
        page = pages.get(id(element), 0)
        wanted = [anchor for anchor in element["ids"] if (page, anchor) not in labelled]
        if not wanted or isinstance(element, LABELLED) or (place := _target_for(element)) is None:
            continue
        parent, index = place
        parent.insert(index, nodes.target("", "", ids=wanted))
        labelled.update((page, anchor) for anchor in wanted)
