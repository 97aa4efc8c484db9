"""Every id once per page, whatever the ids of the data are.

A generated table whose id a section or other element of the page already has gets ``-table``
added (:func:`_unique_table_ids`; a section "Accuracy" and the accuracy table), and furo, which
wraps each table in a ``div.table-wrapper`` (so that a wide table scrolls on a narrow screen) and
copies the table's ids onto it, has them taken off the wrapper (:class:`TableWrapperIds`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..directives.tables import unique_id

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def _unique_table_ids(app: Sphinx, doctree: nodes.document) -> None:
    """Give a generated table a new id when the page already uses its id (sections keep theirs)."""
    tables = [t for t in doctree.findall(nodes.table) if "neuron-table" in t["classes"]]
    generated = {id(t) for t in tables}
    taken = {anchor for node in doctree.findall(nodes.Element) if id(node) not in generated
             for anchor in node["ids"]}
    for table in tables:
        table["ids"] = [unique_id(f"{anchor}-table" if anchor in taken else anchor, taken)
                        for anchor in table["ids"]]


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


def setup_ids(app: Sphinx) -> None:
    app.connect("doctree-read", _unique_table_ids)
    app.add_post_transform(TableWrapperIds)
