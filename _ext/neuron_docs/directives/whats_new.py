"""What's new in the support matrices, generated from the revisions: ``.. neuron:matrix-changes::``.

For each revision, newest first, a section (the canonical place of the ``neuron:changes`` object
of that date) lists every change the revision made since the one before: each cell changed
(old -> new), each family, device, column, matrix or instance added or removed, fits, categories
and status definitions, each linking to where it shows (the cell, row or matrix on the page of
that revision; a removed one on the page of the revision before). Label changes are counted and
listed apart; a revision that changes nothing says why it is kept. Nothing is typed: the list is
:func:`~neuron_docs.data.matrix.changes.changes` of consecutive revisions.

The page hosts the sections (:mod:`..state.hosted`): their objects, index and table-of-contents
entries are made from the revisions once every page has been read, and the sections when the page
is written. A changed cell, a family's name, or a revision added, removed or renamed rewrites the
page; none has it read again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..data.checking.matrix_files import MATRIX_DIR
from ..data.record_keys import file_key, names_key
from ..data.matrix.changes import describe
from ..state.domain import anchor_for
from ..state.hosted import HostedType, Place, add_hosted_type, note_host, placed_here, places
from ..render.placeholder import NoParams, RenderContext, add_renderers, defer, renderer
from .base import Collections, DataDirective, hosted_sections, render_broken_notice
from .matrix import BROKEN
from .matrix_table import cell_anchor, revision_link

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
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


def revision_places(catalog: Catalog, scope: str = "") -> list[Place]:
    """The revisions of the support matrices, newest first: each a section titled with its name."""
    return [Place(rev.name, anchor_for("changes", rev.name), rev.name, f"Changes of the support matrices on {rev.name}")
            for rev in reversed(catalog.history.revisions)]


class MatrixChanges(DataDirective):
    """Every revision's changes, newest first, a section each: the page hosts them (their objects
    are made from the revisions once every page is read, the sections when the page is written)."""

    option_spec: ClassVar = {"no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        placeholder = defer(self, render_matrix_changes, NoParams(), SHOWN)
        note_host(self.env, placeholder, "changes", indexed="no-index" not in self.options)
        return [placeholder, defer(self, render_broken_notice, Collections(BROKEN))]


@renderer("matrix-changes", tables=False)
def render_matrix_changes(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    """A section per revision, with its changes since the one before."""
    canonical = placed_here(ctx.env, "changes", ctx.read_in)
    return hosted_sections(places(ctx.env, "changes"), "changes", canonical,
                           lambda place: _revision_changes(ctx, place.name), classes=["neuron-matrix-changes"])


def _revision_changes(ctx: RenderContext, name: str) -> list[nodes.Node]:
    """A revision's changes since the one before (the section's body)."""
    catalog = ctx.catalog
    history = catalog.history
    rev = catalog.revision(name)
    if rev is None:
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
    add_hosted_type(app, HostedType("changes", revision_places, sections=True))
