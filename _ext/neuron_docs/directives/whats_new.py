"""What's new in the support matrices, generated from the revisions: ``.. neuron:matrix-changes::``.

For each revision, newest first, a section (the canonical place of the ``neuron:changes`` object
of that date) lists every change the revision made since the one before: each cell changed
(old -> new), each family, device, column, matrix or instance added or removed, fits, categories
and status definitions, each linking to where it shows (the cell, row or matrix on the page of
that revision; a removed one on the page of the revision before). Label changes are counted and
listed apart; a revision that changes nothing says why it is kept. Nothing is typed: the list is
:func:`~neuron_docs.data.matrix.changes.changes` of consecutive revisions.

The page reads the revisions' names (its sections, the objects' places); each section's content is
rendered when the page is written (:mod:`neuron_docs.render`): a changed cell or a family's name
rewrites the page, a revision added, removed or renamed has it read again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..state.build import dataset
from ..data.checking.matrix_files import MATRIX_DIR
from ..data.record_keys import file_key, names_key, revisions_key
from ..state.dependencies import READS, note
from ..data.matrix.changes import describe
from ..state.domain import anchor_for
from ..render.placeholder import RenderContext, add_renderers, defer, renderer
from .base import Collections, DataDirective, render_broken_notice
from .matrix import BROKEN
from .matrix_table import cell_anchor, revision_link

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data.matrix.changes import Change
    from ..data.records.matrix import Revision

#: The words of each kind of change, as the list's item starts.
KIND_TEXT = {
    "cell": "Cell changed", "cell-added": "Cell added", "cell-removed": "Cell removed", "fit": "Fit changed",
    "categories": "Categories changed", "row-published": "Row moved from the text into the table",
    "family-added": "Family added", "family-removed": "Family removed", "column-added": "Column added",
    "column-removed": "Column removed", "device-added": "Device added", "device-removed": "Device removed",
    "matrix-added": "Matrix added", "matrix-removed": "Matrix removed", "instance-added": "Instance added",
    "instance-removed": "Instance removed", "status-definition": "Status definition changed", "label": "Label changed",
}


#: What the changes show: the revisions, and the families' names (not their prose).
SHOWN = [file_key(MATRIX_DIR), names_key("families")]


class MatrixChanges(DataDirective):
    """Every revision's changes, newest first: the sections (the objects' places) are made when the
    page is read, from the revisions' names; their content is rendered when it is written."""

    option_spec: ClassVar = {"no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [revisions_key()])
        shown = SHOWN
        result: list[nodes.Node] = []
        for rev in reversed(catalog.history.revisions):
            anchor = self.register("changes", rev.name, f"Changes of the support matrices on {rev.name}")
            section = nodes.section(ids=[anchor], classes=["neuron-matrix-changes"])
            section += nodes.title(rev.name, rev.name)
            section += self.index_nodes()
            section += defer(self, render_matrix_changes, RevisionParams(rev.name), shown)
            result.append(section)
        return [*result, defer(self, render_broken_notice, Collections(BROKEN))]


@dataclass(frozen=True)
class RevisionParams:
    """A revision of the support matrices, by name."""

    revision: str


@renderer("matrix-changes")
def render_matrix_changes(ctx: RenderContext, params: RevisionParams) -> list[nodes.Node]:
    """A revision's changes since the one before (the section's body)."""
    catalog = ctx.catalog
    history = catalog.history
    rev = catalog.revision(params.revision)
    if rev is None:  # the revisions are read keys: the page is read again before it is written
        return []
    before = history.previous(rev)
    intro = nodes.paragraph()
    intro += revision_link(rev.date, f"The support matrices as of {rev.name}")
    intro += nodes.Text(f" (commit {rev.commit})" + (f", compared with {before.name}." if before else
                                                     ", the first published revision."))
    result: list[nodes.Node] = [intro]
    diff = history.changes(rev)
    shown = diff.shown() if before else [c for c in diff.items if c.kind.startswith("matrix-")]
    if rev.unchanged_because:
        text = f"No change in the matrices: {rev.unchanged_because}."
        result.append(nodes.paragraph(text, text))
    if shown:
        result.append(_list(ctx, rev, before, shown))
    labels = [c for c in diff.items if c.kind == "label"] if before else []
    if labels:
        text = f"{len(labels)} label{'s' if len(labels) > 1 else ''} changed (titles, headers, row names):"
        result.append(nodes.paragraph(text, text))
        result.append(_list(ctx, rev, before, labels))
    return result


def _list(ctx: RenderContext, rev: Revision, before: Revision | None, items: list[Change]) -> nodes.Node:
    out = nodes.bullet_list(classes=["neuron-change-list"])
    for change in items:
        paragraph = nodes.paragraph()
        paragraph += nodes.strong(KIND_TEXT[change.kind], KIND_TEXT[change.kind])
        paragraph += nodes.Text(": ")
        paragraph += _where(ctx, rev, before, change)
        paragraph += nodes.Text(f": {describe(change)}")
        out += nodes.list_item("", paragraph)
    return out


def _where(ctx: RenderContext, rev: Revision, before: Revision | None, change: Change) -> nodes.Node:
    """What changed, linked to where it shows (for a removed thing: the revision before)."""
    removed = change.kind.endswith("-removed")
    at = before if removed and before else rev
    matrix = at.matrix(change.matrix or "")
    family = ctx.known("family", change.family, ctx.catalog.families) if change.family else None
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
    add_renderers(app, render_matrix_changes)
