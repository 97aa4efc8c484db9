"""What's new in the support matrices, generated from the revisions: ``.. neuron:matrix-changes::``.

For each revision, newest first, a section (the canonical place of the ``neuron:changes`` object
of that date) lists every change the revision made since the one before: each cell changed
(old -> new), each family, device, column, matrix or instance added or removed, fits, categories
and status definitions, each linking to where it shows (the cell, row or matrix on the page of
that revision; a removed one on the page of the revision before). Label changes are counted and
listed apart; a revision that changes nothing says why it is kept. Nothing is typed: the list is
:func:`~neuron_docs.data.matrix_changes.changes` of consecutive revisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..build_state import dataset
from ..dependencies import uses
from ..data.matrix_changes import describe
from ..domain import anchor_for
from .base import DataDirective
from .matrix import BROKEN, MATRIX_FILES
from .matrix_table import cell_anchor, revision_link
from .tables import broken_notice

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from ..data.matrix_changes import Change
    from ..data.matrix_schema import Revision

#: The words of each kind of change, as the list's item starts.
KIND_TEXT = {
    "cell": "Cell changed", "cell-added": "Cell added", "cell-removed": "Cell removed", "fit": "Fit changed",
    "categories": "Categories changed", "row-published": "Row moved from the text into the table",
    "family-added": "Family added", "family-removed": "Family removed", "column-added": "Column added",
    "column-removed": "Column removed", "device-added": "Device added", "device-removed": "Device removed",
    "matrix-added": "Matrix added", "matrix-removed": "Matrix removed", "instance-added": "Instance added",
    "instance-removed": "Instance removed", "status-definition": "Status definition changed", "label": "Label changed",
}


class MatrixChanges(DataDirective):
    """Every revision's changes, newest first."""

    option_spec: ClassVar = {"no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        uses(self, *MATRIX_FILES)
        history = catalog.history
        result: list[nodes.Node] = []
        for rev in reversed(history.revisions):
            anchor = self.register("changes", rev.name, f"Changes of the support matrices on {rev.name}")
            section = nodes.section(ids=[anchor], classes=["neuron-matrix-changes"])
            section += nodes.title(rev.name, rev.name)
            section += self.index_nodes()
            before = history.previous(rev)
            intro = nodes.paragraph()
            intro += revision_link(rev.date, f"The support matrices as of {rev.name}")
            intro += nodes.Text(f" (commit {rev.commit})" + (f", compared with {before.name}." if before else
                                                             ", the first published revision."))
            section += intro
            diff = history.changes(rev)
            shown = diff.shown() if before else [c for c in diff.items if c.kind.startswith("matrix-")]
            if rev.unchanged_because:
                text = f"No change in the matrices: {rev.unchanged_because}."
                section += nodes.paragraph(text, text)
            if shown:
                section += self._list(catalog, rev, before, shown)
            labels = [c for c in diff.items if c.kind == "label"] if before else []
            if labels:
                text = f"{len(labels)} label{'s' if len(labels) > 1 else ''} changed (titles, headers, row names):"
                section += nodes.paragraph(text, text)
                section += self._list(catalog, rev, before, labels)
            result.append(section)
        return [*result, *broken_notice(catalog.broken_in(*BROKEN))]

    def _list(self, catalog: Catalog, rev: Revision, before: Revision | None, items: list[Change]) -> nodes.Node:
        out = nodes.bullet_list(classes=["neuron-change-list"])
        for change in items:
            paragraph = nodes.paragraph()
            paragraph += nodes.strong(KIND_TEXT[change.kind], KIND_TEXT[change.kind])
            paragraph += nodes.Text(": ")
            paragraph += self._where(catalog, rev, before, change)
            paragraph += nodes.Text(f": {describe(change)}")
            out += nodes.list_item("", paragraph)
        return out

    @staticmethod
    def _where(catalog: Catalog, rev: Revision, before: Revision | None, change: Change) -> nodes.Node:
        """What changed, linked to where it shows (for a removed thing: the revision before)."""
        removed = change.kind.endswith("-removed")
        at = before if removed and before else rev
        matrix = at.matrix(change.matrix or "")
        family = catalog.families.get(change.family or "")
        parts = [p for p in (matrix.title if matrix else change.matrix, family.name if family else change.family,
                             change.column, change.subject if change.subject != (matrix.title if matrix else None)
                             else None) if p]
        text = " / ".join(parts) or rev.name
        fragment = ""
        if matrix and change.family and matrix.row(change.family):  # the cell, or the row
            fragment = cell_anchor(at, matrix, change.family, change.column or "")
        elif matrix:
            fragment = anchor_for("matrix", f"{at.name}-{matrix.id}")
        return revision_link(at.date, text, fragment)


def setup_whats_new(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "matrix-changes", MatrixChanges)
