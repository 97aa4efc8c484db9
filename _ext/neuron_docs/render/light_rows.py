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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from ..state.domain import state
from .tables import table_entry
from .expand import resolve_generated_references
from .html_rows import entry_html
from ..node_data import CELLS_HTML

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Sequence

    from sphinx.environment import BuildEnvironment

    from .tables import Cell
    from .placeholder import RenderContext


def _self_contained(entry: nodes.entry) -> bool:
    """No id inside the cell and no link to the same page (what the unique-id pass may change)."""
    for node in entry.findall(nodes.Element):
        if node["ids"] or "refid" in node:
            return False
    return True


class RowWriter:
    """Light rows of one table for one page (see the module docstring)."""

    def __init__(self, env: BuildEnvironment, docname: str) -> None:
        self.env = env
        self.docname = docname
        #: A cell's HTML and words, by the key its maker gave (cells with one key are alike).
        self._cells: dict[Hashable, tuple[str, str] | None] = {}

    def cell(self, key: Hashable | None, make: Callable[[], Cell]) -> tuple[str, str] | None:
        """The HTML of the cell ``make`` gives and its words (made once per ``key``; ``None``:
        made every time); ``None`` when it must stay nodes."""
        if key is not None and key in self._cells:
            return self._cells[key]
        entry = table_entry(make())
        html = None
        if not resolve_generated_references([entry], self.docname, self.env) and _self_contained(entry):
            html = entry_html(entry)
        written = None if html is None else (html, " ".join(t.astext() for t in entry.findall(nodes.Text)))
        if key is not None:
            self._cells[key] = written
        return written

    def row(self, cells: Sequence[tuple[Hashable | None, Callable[[], Cell]]], ids: Sequence[str] = ()) -> nodes.row | None:
        """A light row of ``cells`` (each a key and a maker, see :meth:`cell`), or ``None`` when a
        cell must stay nodes (the caller makes the row as nodes)."""
        html: list[str] = []
        words: list[str] = []
        for key, make in cells:
            written = self.cell(key, make)
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
    if getattr(build.builder, "format", "") != "html" or build.preview is not None:
        return None
    return RowWriter(ctx.env, ctx.docname)
