"""Rows of a generated table made as HTML text when the table is rendered, for the HTML builder.

A support matrix of thousands of rows is mostly the same few cells over and over (a status badge,
its roadmap link, its "since" link). For the HTML builder, :class:`RowWriter` makes each distinct
cell once as docutils nodes, resolves its links and writes it with :mod:`.html_rows`' rules (byte
for byte what Sphinx's writer gives), and keeps its HTML; a row is then a light ``nodes.row``: its
ids (which the page's unique-id pass still sees and may number), its cells' HTML in
:data:`..node_data.CELLS_HTML`, and one text child holding the words of its cells, which Sphinx's search
index reads as it would read the cells. Only what the page cannot change after rendering goes
into a light row: a cell holding an id or a link to the same page (which the unique-id pass may
renumber or re-point) stays nodes, and so does its row. Other builders, and pull-request previews
(whose marks are put on nodes), get nodes only (:func:`row_writer` gives ``None``).

A cell that differs in every row, a link to the row's own object (a matrix row's family), is made
in full once per shape (:meth:`RowWriter.link_cell`): its link, title and words are then swapped
into that cell's HTML for each other row, its link resolved by the domain as any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from docutils import nodes

from ..state.domain import neuron_domain, state, xref
from .tables import table_entry
from .expand import CachedUris, resolve_generated_references
from .html_rows import attribute_html, entry_html, text_html
from ..node_data import CELLS_HTML

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Sequence

    from sphinx import addnodes
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    from .tables import Cell
    from .placeholder import RenderContext


#: What differs between two link cells of one shape, in the HTML of the first (private-use characters,
#: which no data holds; a value holding one is made in full).
_HREF, _TITLE, _TEXT, _TAIL = "\ue000", "\ue001", "\ue002", "\ue003"
_STAND_INS = frozenset((_HREF, _TITLE, _TEXT, _TAIL))


def _self_contained(entry: nodes.entry) -> bool:
    """No id inside the cell and no link to the same page (what the unique-id pass may change)."""
    for node in entry.findall(nodes.Element):
        if node["ids"] or "refid" in node:
            return False
    return True


class RowWriter:
    """Light rows of one table for one page (see the module docstring)."""

    def __init__(self, env: BuildEnvironment, docname: str, uris: CachedUris) -> None:
        self.env = env
        self.docname = docname
        self._uris = uris
        #: A cell's HTML and words, by the key its maker gave (cells with one key are alike).
        self._cells: dict[Hashable, tuple[str, str] | None] = {}
        #: A link cell's HTML and words with stand-ins for what differs, by shape (:meth:`link_cell`).
        self._shapes: dict[Hashable, tuple[str, str] | None] = {}
        #: A link of each kind (as :func:`..state.domain.xref` makes it), for the domain to resolve.
        self._pending: dict[str, addnodes.pending_xref] = {}

    def cell(self, key: Hashable | None, make: Callable[[], Cell]) -> tuple[str, str] | None:
        """The HTML of the cell ``make`` gives and its words (made once per ``key``; ``None``:
        made every time); ``None`` when it must stay nodes."""
        if key is not None and key in self._cells:
            return self._cells[key]
        entry = table_entry(make())
        html = None
        if not resolve_generated_references([entry], self.docname, self.env, self._uris) and _self_contained(entry):
            html = entry_html(entry)
        written = None if html is None else (html, " ".join(t.astext() for t in entry.findall(nodes.Text)))
        if key is not None:
            self._cells[key] = written
        return written

    def link_cell(self, kind: str, target: str, text: str, tail: str,
                  make: Callable[[], Cell]) -> tuple[str, str] | None:
        """What :meth:`cell` gives for the cell ``make`` makes (without a key), when that cell is a
        link to the ``kind`` object ``target`` showing ``text``, then ``tail`` as text: the first
        cell of its shape is made in full, with stand-ins for the link, its title and the words; the
        others are its HTML with their own put in. A link that resolves to this page or to nothing,
        or a shape whose cell is not that (checked on the cell made in full), is made in full."""
        if kind not in self._pending:
            self._pending[kind] = cast("addnodes.pending_xref", xref(kind, ""))
        link = neuron_domain(self.env).resolve_xref(self.env, self.docname, cast("Builder", self._uris), kind, target,
                                                    self._pending[kind], nodes.inline())
        values = [text, tail]
        if link is None or "refuri" not in link:
            return self.cell(None, make)
        values += [link["refuri"], link.get("reftitle", "")]
        if any(c in _STAND_INS for value in values for c in value):
            return self.cell(None, make)
        shape = (kind, "reftitle" in link, bool(tail))
        if shape not in self._shapes:
            self._shapes[shape] = self._stand_in_cell(make(), text, tail)
        made = self._shapes[shape]
        if made is None:
            return self.cell(None, make)
        html, words = made
        html = (html.replace(_HREF, attribute_html(link["refuri"])).replace(_TITLE, attribute_html(link.get("reftitle", "")))
                .replace(_TEXT, text_html(text)).replace(_TAIL, text_html(tail)))
        return html, words.replace(_TEXT, text).replace(_TAIL, tail)

    def _stand_in_cell(self, cell: Cell, text: str, tail: str) -> tuple[str, str] | None:
        """The HTML and words of ``cell`` (a link showing ``text``, then ``tail``) with stand-ins
        for its link, its title and those words; ``None`` if the cell is not that."""
        entry = table_entry(cell)
        if resolve_generated_references([entry], self.docname, self.env, self._uris) or not _self_contained(entry):
            return None
        links = list(entry.findall(nodes.reference))
        if len(links) != 1 or "refuri" not in links[0]:
            return None
        link = links[0]
        inside = [t for t in link.findall(nodes.Text)]
        outside = [t for t in entry.findall(nodes.Text) if not any(t is i for i in inside)]
        if [t.astext() for t in inside] != [text] or [t.astext() for t in outside] != ([tail] if tail else []):
            return None
        link["refuri"] = _HREF
        if "reftitle" in link:
            link["reftitle"] = _TITLE
        for old, new in [(inside[0], _TEXT), *((t, _TAIL) for t in outside)]:
            old.parent.replace(old, nodes.Text(new))
        html = entry_html(entry)
        expected = {_HREF: 1, _TITLE: int("reftitle" in link), _TEXT: 1, _TAIL: int(bool(tail))}
        if html is None or any(html.count(mark) != count for mark, count in expected.items()):
            return None
        return html, " ".join(t.astext() for t in entry.findall(nodes.Text))

    def row(self, cells: Sequence[Callable[[], tuple[str, str] | None]], ids: Sequence[str] = ()) -> nodes.row | None:
        """A light row of ``cells`` (each gives a cell's HTML and words: :meth:`cell`,
        :meth:`link_cell`), or ``None`` when a cell must stay nodes (the caller makes the row as nodes)."""
        html: list[str] = []
        words: list[str] = []
        for written_cell in cells:
            written = written_cell()
            if written is None:
                return None
            html.append(written[0])
            words.append(written[1])
        row = nodes.row(ids=list(ids))
        CELLS_HTML.set(row, "".join(html))
        row += nodes.Text(" ".join(words))  # what the search index reads of the row
        return row


def row_writer(ctx: RenderContext) -> RowWriter | None:
    """A :class:`RowWriter` for the page a placeholder is rendered on, when it is written as HTML
    (not a pull-request preview, whose marks are put on nodes); else ``None``."""
    build = state(ctx.env)
    if build.builder is None or build.builder.format != "html" or build.preview is not None:
        return None
    return RowWriter(ctx.env, ctx.docname, CachedUris(build.builder))
