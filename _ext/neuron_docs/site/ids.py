"""Every id once per page, whatever the ids of the data are.

A generated table whose id a section or other element of the page already has gets ``-table``
added (:func:`_unique_table_ids`; a section "Accuracy" and the accuracy table), and furo, which
wraps each table in a ``div.table-wrapper`` (so that a wide table scrolls on a narrow screen) and
copies the table's ids onto it, has them taken off the wrapper (:class:`TableWrapperIds`).

Ids made from data can still meet: a family ``encoder-inferentia`` and the section of family
``encoder`` on device ``inferentia`` (both ``family-encoder-inferentia``), two instances
``inf2.xlarge`` and ``inf2-xlarge``, a run row and a table, two copies of one matrix. The
domain gives objects distinct anchors (:meth:`~neuron_docs.state.domain.NeuronDomain.note_object`);
then :func:`unique_ids` keeps each remaining duplicate on one element (an object's canonical place,
marked :data:`..node_data.OBJECT_ANCHOR`; else the element docutils registered, a hand-written section; else
the first) and numbers the others (``-2``, ``-3``), pointing a same-page link (``refid``) at the
nearest element that had the id after it. It runs before Sphinx collects the table of contents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..render.tables import unique_id
from ..node_data import FILLED, OBJECT_ANCHOR

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def _unique_table_ids(app: Sphinx, doctree: nodes.document) -> None:
    """Give a generated table a new id when the page already uses its id (sections keep theirs;
    so does a table that is an object's place, e.g. a device's specifications, for its anchor)."""
    tables = [t for t in doctree.findall(nodes.table) if "neuron-table" in t["classes"]]
    if not tables:
        return
    generated = {id(t) for t in tables}
    taken = {anchor for node in doctree.findall(nodes.Element) if node["ids"] and id(node) not in generated
             for anchor in node["ids"]}
    for table in tables:
        table["ids"] = [anchor if anchor == OBJECT_ANCHOR.get(table) else
                        unique_id(f"{anchor}-table" if anchor in taken else anchor, taken)
                        for anchor in table["ids"]]


def _owner(anchor: str, holders: list[nodes.Element], document: nodes.document) -> nodes.Element:
    """Which of the elements carrying ``anchor`` keeps it (see the module docstring)."""
    for holder in holders:
        if OBJECT_ANCHOR.get(holder) == anchor:
            return holder
    return document.ids.get(anchor) if document.ids.get(anchor) in holders else holders[0]


def page_of(doctree: nodes.document) -> dict[int, int]:
    """In a document made of several pages (LaTeX, ePub and texinfo builders join them, each page in an
    ``addnodes.start_of_file``): each element's page, by ``id()``. Ids are made unique per page: the
    writer prefixes each with its page (``\\label{page:id}``), and every page's first section has
    Sphinx's own ``:doc`` label, which must not be renumbered."""
    pages: dict[int, int] = {}

    def walk(node: nodes.Element, page: int) -> None:
        for child in node.children:
            if isinstance(child, nodes.Element):
                here = id(child) if isinstance(child, addnodes.start_of_file) else page
                pages[id(child)] = here
                walk(child, here)

    walk(doctree, 0)
    return pages


def unique_ids(app: Sphinx, doctree: nodes.document) -> None:
    """Keep every id on one element of the page; number the others and re-point same-page links."""
    _unique_table_ids(app, doctree)
    # singlehtml joins pages too, into one HTML page: there every id is unique on the whole page
    joined = (getattr(app.builder, "format", "") != "html"
              and next(iter(doctree.findall(addnodes.start_of_file)), None) is not None)
    pages = page_of(doctree) if joined else {}

    def key(node: nodes.Element, anchor: str) -> str:
        return f"{pages.get(id(node), 0)}\0{anchor}" if joined else anchor

    holders: dict[str, list[nodes.Element]] = {}
    for node in doctree.findall(nodes.Element):
        for anchor in node["ids"]:
            holders.setdefault(key(node, anchor), []).append(node)
    if all(len(elements) < 2 for elements in holders.values()):
        return  # the usual case: nothing to move (a large generated table walks the page once)
    order = {id(node): index for index, node in enumerate(doctree.findall(nodes.Element))}
    taken = {held.rpartition("\0")[2] for held in holders}
    moved: dict[str, list[tuple[int, str]]] = {}  # old id (key) -> (position, id now), in page order
    for held, elements in holders.items():
        if len(elements) < 2 or len(set(map(id, elements))) < 2:
            continue
        anchor = held.rpartition("\0")[2]
        owner = _owner(anchor, elements, doctree)
        for element in elements:
            new = anchor if element is owner else unique_id(anchor, taken)
            element["ids"] = [new if a == anchor else a for a in element["ids"]]
            moved.setdefault(held, []).append((order[id(element)], new))
    if not moved:
        return
    for reference in doctree.findall(nodes.reference):
        places = moved.get(key(reference, reference.get("refid", "")))
        if places:
            here = order[id(reference)]
            after = [new for position, new in places if position > here]
            reference["refid"] = after[0] if after else places[-1][1]


class TableWrapperIds(SphinxPostTransform):
    """Take the table's ids off the wrapper furo puts around it (the same id twice on a page is
    invalid HTML, and ``#support-matrix-trainium`` would name the wrapper, not the table)."""

    default_priority = 510  # after furo's TableWrapper (500)
    formats = ("html",)

    def run(self, **kwargs: object) -> None:
        for wrapper in self.document.findall(nodes.container):
            if "table-wrapper" in wrapper["classes"] and wrapper.children and isinstance(wrapper[0], nodes.table):
                on_table = set(wrapper[0]["ids"])
                wrapper["ids"] = [anchor for anchor in wrapper["ids"] if anchor not in on_table]


def unique_ids_of_filled_page(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Again once generated content is in the page (:mod:`..render`): its ids meet the page's."""
    if FILLED.get(doctree):
        unique_ids(app, doctree)


def setup_ids(app: Sphinx) -> None:
    app.add_post_transform(TableWrapperIds)
