"""The support matrices, from the revisions in ``data/matrix/`` (the latest unless one is named).

``.. neuron:support-matrix:: trainium`` renders the matrix that lists a device, with options
``:revision: 2023-02-26`` (default: the latest), ``:category: nlp, cv`` and
``:frameworks: torch-neuronx`` to filter. ``.. neuron:support-matrices::`` renders every matrix
of a revision (``:revision:``), each in a section titled as published; with ``:revision:`` it is
that revision's canonical place (the target of ``neuron:revision`` links), unless ``:no-index:``.
Family names link to their guideline section, roadmap cells to the roadmap item; notes become
numbered footnotes under the table; every cell says since which revision it holds its value; the
"Last update" line is derived from the revisions.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..state.domain import dataset
from ..data.record_keys import file_key, matrices_key, names_key
from ..state.dependencies import READS, note
from ..render.light_rows import row_writer
from ..render.placeholder import RenderContext, defer, renderer
from ..data.checking.matrix_files import MATRIX_DIR
from ..state.domain import anchor_for, xref
from .base import Collections, DataDirective, render_broken_notice
from .matrix_table import MatrixView
from ..render.tables import broken_notice, comma_list
from ..node_data import MATRIX_DEVICES

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data.records.matrix import Revision

#: What a rendered matrix shows: its revision's files, the frameworks and devices of its columns
#: and caption, and of ``families.yaml`` and ``issues.yaml`` only what its cells link to and print
#: (the names of families and categories, the titles of roadmap items), not their prose: a changed
#: rationale or issue description rewrites no matrix page.
MATRIX_KEYS = [file_key(MATRIX_DIR), file_key("frameworks.yaml"), file_key("devices.yaml"),
               names_key("families"), names_key("categories"), names_key("roadmap")]
BROKEN = ("families", "frameworks", "categories", "revisions")


def _revision(ctx: RenderContext, wanted: str | None) -> Revision | None:
    """The revision named by a ``:revision:`` option (default: the latest), warning when there is none."""
    catalog = ctx.catalog
    rev = catalog.revision(wanted)
    if rev is None:
        known = ", ".join(r.name for r in catalog.matrix_revisions.revisions) or "(none: data/matrix/ holds no valid revision)"
        ctx.warn(f"no revision {wanted!r} of the support matrices; expected one of: {known}"
                 if wanted else f"no support matrix revision; expected one in {MATRIX_DIR}")
    return rev


class SupportMatrix(DataDirective):
    """The support matrix that lists one device, in one revision."""

    required_arguments = 1
    option_spec: ClassVar = {
        "revision": directives.unchanged,
        "category": directives.unchanged,
        "frameworks": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        device_id = self.arguments[0]
        revision = self.options.get("revision")
        categories = comma_list(self.options.get("category"))
        frameworks = comma_list(self.options.get("frameworks"))
        # The table's id and CSV name: one per device, and per filter and revision when given.
        name = nodes.make_id("-".join(["support-matrix", device_id, *categories, *frameworks,
                                       *([revision] if revision else [])]))
        catalog = dataset(self.env).catalog
        rev = catalog.revision(revision)
        matrix = rev.matrix_of(device_id) if rev is not None else None
        params = DeviceMatrix(device_id, revision, categories, frameworks, name, self.options.get("caption"))
        # The devices whose matrix the page shows (site.device_checks), as the page was read.
        devices = list(matrix.devices) if matrix is not None and rev is catalog.revision() else []
        return [defer(self, render_support_matrix, params, MATRIX_KEYS, **MATRIX_DEVICES.attribute(devices))]


@dataclass(frozen=True)
class DeviceMatrix:
    """The matrix that lists a device in a revision (None: the latest), its filters, name and caption."""

    device: str
    revision: str | None
    categories: list[str]
    frameworks: list[str]
    name: str
    caption: str | None


@renderer("support-matrix")
def render_support_matrix(ctx: RenderContext, params: DeviceMatrix) -> list[nodes.Node]:
    catalog = ctx.catalog
    device_id = params.device
    rev = _revision(ctx, params.revision)
    if rev is None:
        return broken_notice(catalog.broken_in(*BROKEN))
    matrix = rev.matrix_of(device_id)
    if matrix is None:
        listed = [d for m in rev.matrices for d in m.devices]
        ctx.warn(f"no support matrix for device {device_id!r} in the revision of {rev.name}; "
                 f"expected one of: {', '.join(listed)}")
        return []
    wanted = params.frameworks
    frameworks = list(dict.fromkeys(c.framework for c in matrix.columns))
    for unknown in [w for w in wanted if w not in frameworks]:
        ctx.warn(f"framework {unknown!r} has no column in the matrix of {device_id!r}; expected "
                 f"one of: {', '.join(frameworks)}")
    columns = [c for c in matrix.columns if not wanted or c.framework in wanted]
    categories = ctx.pick("category", params.categories, catalog.categories)
    view = MatrixView(ctx, rev, matrix, device=device_id, columns=columns, categories=categories,
                      name=params.name, writer=row_writer(ctx))
    result = view.render()
    if caption := params.caption:
        table = next(n for n in result if isinstance(n, nodes.table))
        table.insert(0, nodes.title(caption, caption))
    return [*result, *broken_notice(catalog.broken_in(*BROKEN))]


class SupportMatrices(DataDirective):
    """Every matrix of a revision, each in its own section (the revision as it was published)."""

    option_spec: ClassVar = {"revision": directives.unchanged, "no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        wanted = self.options.get("revision")
        # Its sections are the revision's matrices: the page is read again when they change.
        note(self.env, READS, [matrices_key(wanted)])
        rev = catalog.revision(wanted)
        params = RevisionNamed(wanted)
        if rev is None:  # the renderer says why
            return [defer(self, render_missing, params, MATRIX_KEYS)]
        canonical = "revision" in self.options
        result: list[nodes.Node] = []
        if canonical:
            anchor = self.register("revision", rev.name, f"Support matrices as of {rev.name}")
            result += self.index_nodes()
            result.append(nodes.target("", "", ids=[anchor]))
            result.append(defer(self, render_about, params, MATRIX_KEYS))
        for matrix in rev.matrices:
            section = nodes.section(ids=[anchor_for("matrix", f"{rev.name}-{matrix.id}" if canonical else matrix.id)])
            section += nodes.title(matrix.title, matrix.title)
            name = nodes.make_id("-".join(["support-matrix", *([rev.name] if canonical else []), matrix.id]))
            view = MatrixOf(wanted, matrix.id, name, canonical)
            section += defer(self, render_matrix_view, view, MATRIX_KEYS,
                             **MATRIX_DEVICES.attribute(list(matrix.devices) if rev is catalog.revision() else []))
            result.append(section)
        return [*result, defer(self, render_broken_notice, Collections(BROKEN), MATRIX_KEYS)]


@dataclass(frozen=True)
class RevisionNamed:
    """A revision of the support matrices by name (None: the latest)."""

    revision: str | None


@dataclass(frozen=True)
class MatrixOf(RevisionNamed):
    """One matrix of a revision, its table's name, and whether every cell gets its anchor."""

    matrix: str
    name: str
    anchors: bool


@renderer("support-matrices-missing")
def render_missing(ctx: RenderContext, params: RevisionNamed) -> list[nodes.Node]:
    _revision(ctx, params.revision)
    return broken_notice(ctx.catalog.broken_in(*BROKEN))


@renderer("matrix-view")
def render_matrix_view(ctx: RenderContext, params: MatrixOf) -> list[nodes.Node]:
    catalog = ctx.catalog
    rev = catalog.revision(params.revision)
    matrix = next((m for m in rev.matrices if m.id == params.matrix), None) if rev else None
    if rev is None or matrix is None:  # the page is read again (matrices_key): nothing to show meanwhile
        return []
    return MatrixView(ctx, rev, matrix, columns=list(matrix.columns), name=params.name,
                      anchors=params.anchors, writer=row_writer(ctx)).render()


@renderer("revision-about")
def render_about(ctx: RenderContext, params: RevisionNamed) -> list[nodes.Node]:
    """When and where the revision was published, and what it changed."""
    catalog = ctx.catalog
    rev = catalog.revision(params.revision)
    if rev is None:
        return []
    about = nodes.paragraph(classes=["neuron-revision-about"])
    about += nodes.Text(f"Published on {rev.name} (commit {rev.commit} of {rev.page}). ")
    source = ctx.known("source", rev.source, catalog.sources)
    if source and source.url:
        about += nodes.Text("Source: ")
        about += nodes.reference(source.title, source.title, refuri=source.url)
        about += nodes.Text(". ")
    if rev.unchanged_because:
        about += nodes.Text(f"Its matrices are those of the revision before ({rev.unchanged_because}). ")
    if rev is catalog.revision():
        about += nodes.Text("This is the latest revision, the one the architecture-fit page shows. ")
    about += whats_new_link(rev.date, "What this revision changed")
    about += nodes.Text(".")
    return [about]


def whats_new_link(date: dt.date, text: str) -> nodes.Node:
    """A link to the What's new entry of the revision of ``date``."""
    return xref("changes", date.isoformat(), text)


def setup_matrix(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "support-matrix", SupportMatrix)
    app.add_directive_to_domain("neuron", "support-matrices", SupportMatrices)
