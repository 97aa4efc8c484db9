"""What's new, generated from the data: ``.. neuron:matrix-changes::`` and ``.. neuron:benchmark-changes::``.

Each section of What's new is a ``neuron:changes`` object: a revision of the support matrices
(``:neuron:changes:`2023-02-26```, anchor ``changes-2023-02-26``) or a Neuron release of the
published benchmarks (``:neuron:changes:`2.20.0```, anchor ``changes-2-20-0``).

``matrix-changes``: for each revision, newest first, a section lists every change the revision made
since the one before: each cell changed (old -> new), each family, device, column, matrix or
instance added or removed, fits, categories and status definitions, each linking to where it shows
(the cell, row or matrix on the page of that revision; a removed one on the page of the revision
before). Label changes are counted and listed apart; a revision that changes nothing says why it is
kept. Nothing is typed: the list is :func:`~neuron_docs.data.matrix.changes.changes` of consecutive
revisions.

``benchmark-changes``: for each Neuron release of the benchmark history, newest first, a section
titled with the release and the date a figure of it was first published (``Neuron 2.20.0 (first
published 2024-09-17)``) lists what every published state changed of that release's figures
(:meth:`~neuron_docs.data.published.history_view.BenchmarkHistoryIndex.release_changes`): regressed and
improved throughputs, corrections, new and withdrawn configurations, each linking to the
configuration's block on its history page; a thousand links in all, written as HTML from a jinja2
template (autoescaped).

The page hosts the sections (:mod:`..state.hosted`): their objects, index and table-of-contents
entries are made from the data once every page has been read, and the sections when the page is
written. A changed cell, a family's name, a revision added, removed or renamed, or a new published
state rewrites the page; none has it read again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from sphinx.errors import NoUri
from sphinx.util.osutil import relative_uri

from ..data.checking.matrix_files import MATRIX_DIR
from ..data.catalog import HISTORY_FILES
from ..data.published.history_view import (
    CHANGE_TEXT, BenchmarkHistoryIndex, PublishedRelease, change_text, describe_configuration,
)
from ..data.published.judgement import rule_text
from ..data.record_keys import file_key, names_key
from ..data.records.labels import GENERATION_TEXT
from ..data.matrix.changes import describe
from ..state.domain import anchor_for
from ..state.hosted import HostedPlace, HostedType, add_hosted_type, note_host, placed_here, places
from ..render.placeholder import NoParams, RenderContext, defer, renderer
from .base import Collections, DataDirective, hosted_sections, render_broken_notice
from .benchmark_history import history_page, neuron_history_html, template
from .matrix import BROKEN
from .matrix_table import cell_anchor, revision_link

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from ..data.matrix.changes import MatrixChange
    from ..data.published.history_view import BenchmarkChange
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


#: The scope of the ``changes`` objects that are releases of the published benchmarks (the support
#: matrices' revisions have the scope "").
BENCHMARKS = "benchmarks"


def revision_places(catalog: Catalog, scope: str = "") -> list[HostedPlace]:
    """The revisions of the support matrices, newest first: each a section titled with its name."""
    return [HostedPlace(rev.name, anchor_for("changes", rev.name), rev.name, f"Changes of the support matrices on {rev.name}")
            for rev in reversed(catalog.matrix_revisions.revisions)]


def release_places(catalog: Catalog, scope: str = BENCHMARKS) -> list[HostedPlace]:
    """The Neuron releases of the benchmark history, newest first: each a section titled with the
    release and the date a figure of it was first published."""
    return [HostedPlace(r.version, anchor_for("changes", r.version), r.title, f"Published benchmark changes of Neuron {r.version}")
            for r in BenchmarkHistoryIndex.of(catalog).published_releases()]


def changes_places(catalog: Catalog, scope: str) -> list[HostedPlace]:
    """The sections of What's new in ``scope``: the benchmarks' releases, else the matrices' revisions."""
    return release_places(catalog) if scope == BENCHMARKS else revision_places(catalog)


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
    revisions = catalog.matrix_revisions
    rev = catalog.revision(name)
    if rev is None:
        return []
    before = revisions.previous(rev)
    intro = nodes.paragraph()
    intro += revision_link(rev.date, f"The support matrices as of {rev.name}")
    intro += nodes.Text(f" (commit {rev.commit})" + (f", compared with {before.name}." if before else
                                                     ", the first published revision."))
    result: list[nodes.Node] = [intro]
    diff = revisions.changes(rev)
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


def _list(ctx: RenderContext, rev: Revision, before: Revision | None, items: list[MatrixChange]) -> nodes.Node:
    out = nodes.bullet_list(classes=["neuron-change-list"])
    for change in items:
        paragraph = nodes.paragraph()
        paragraph += nodes.strong(KIND_TEXT[change.kind], KIND_TEXT[change.kind])
        paragraph += nodes.Text(": ")
        paragraph += _where(ctx, rev, before, change)
        paragraph += nodes.Text(f": {describe(change)}")
        out += nodes.list_item("", paragraph)
    return out


def _where(ctx: RenderContext, rev: Revision, before: Revision | None, change: MatrixChange) -> nodes.Node:
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


class BenchmarkChanges(DataDirective):
    """Per Neuron release, newest first, what the published states changed of its benchmark figures.

    Each release is a section (a ``neuron:changes`` object, in the scope :data:`BENCHMARKS`). The page
    hosts them (:mod:`..state.hosted`): their objects, index and table-of-contents entries are made
    from the data once every page has been read, and the sections when the page is written, so that
    a new state re-reads no page.
    """

    option_spec: ClassVar = {"no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        text = ("Every Neuron release of the published benchmark tables, newest first, titled with the date a "
                "figure of it was first published, with what every published state changed of its figures (a "
                "new configuration under the release of its first figure, a withdrawn one under the release "
                "last published for it): regressions first, then suspect points and unstable series, then "
                "improvements, each judged by the rule above.")
        placeholder = defer(self, render_benchmark_changes, NoParams(), [file_key(name) for name in HISTORY_FILES])
        note_host(self.env, placeholder, "changes", BENCHMARKS, indexed="no-index" not in self.options)
        return [nodes.paragraph(text, text), placeholder]


class JudgementRuleDirective(DataDirective):
    """``.. neuron:judgement-rule::``: the one rule that judges a figure's series across releases
    (:data:`..data.published.judgement.RULE`), stated once, with its parameters; the history pages,
    What's new's lists and ``make matrix-diff`` refer to it."""

    def run(self) -> list[nodes.Node]:
        out = nodes.bullet_list(classes=["neuron-judgement-rule"])
        for sentence in rule_text():
            out += nodes.list_item("", nodes.paragraph(sentence, sentence))
        return [out]


@renderer("benchmark-changes", tables=False)
def render_benchmark_changes(context: RenderContext, params: NoParams) -> list[nodes.Node]:
    """A section per release with its lists of changes, linking to the configurations' places."""
    catalog = context.catalog
    builder = context.env.app.builder
    try:
        # A place's address: "#<anchor>" alone on the single HTML page (render.uris)
        uri = builder.get_target_uri(context.docname)
        pages = {g: "" if builder.name == "singlehtml" else relative_uri(uri, builder.get_target_uri(history_page(g)))
                 for g in GENERATION_TEXT if history_page(g) in context.env.found_docs}
    except NoUri:  # a builder of one document (LaTeX), which leaves the lists out (an HTML node)
        pages = {}
    index = BenchmarkHistoryIndex.of(catalog)
    changes = index.release_changes()
    published = {r.version: r for r in index.published_releases()}
    canonical = placed_here(context.env, "changes", context.read_in)
    return hosted_sections(places(context.env, "changes", BENCHMARKS), "changes", canonical,
                           lambda place: [_release_node(catalog, published[place.name],
                                                        changes.get(place.name, []), pages)],
                           classes=["neuron-benchmark-changes"])


#: What each kind of change says of its state's date.
_WHEN = {"new": "first published", "withdrawn": "withdrawn"}


def _release_node(catalog: Catalog, release: PublishedRelease, found: list[BenchmarkChange],
                  pages: dict[str, str]) -> neuron_history_html:
    """The release's changes as HTML, and as data (``summary``, ``groups``) for the builders that do
    not write HTML (:mod:`..site.html_only`)."""
    states = catalog.benchmark_states
    published = [f"{states[s].date} ({states[s].subject or s})" if s in states else s for s in release.states]
    summary = (f"Figures of Neuron {release.version} first published in {len(published)} "
               f"state{'s' if len(published) > 1 else ''}: {', '.join(published)}.")
    steady = sum(1 for c in found if c.kind == "steady")
    if steady:
        summary += f" {steady} re-measured figure{'s' if steady > 1 else ''} steady."
    if all(c.kind == "steady" for c in found):
        summary += " No published figure changed."
    configs = catalog.benchmark_configurations
    order = {sid: i for i, sid in enumerate(states)}
    groups = []
    for kind, words in CHANGE_TEXT.items():
        items = sorted((c for c in found if c.kind == kind and c.configuration in configs),
                       key=lambda c: (-abs(c.ratio or 0.0), describe_configuration(configs[c.configuration]),
                                      order.get(c.state, -1), c.metric))
        if not items:
            continue
        rows = []
        for change in items:
            config = configs[change.configuration]
            page = pages.get(config.generation)
            state = states.get(change.state)
            rows.append({"title": describe_configuration(config), "text": change_text(change),
                         "when": f"{_WHEN.get(kind, 'published')} {state.date}" if state else "",
                         "href": f"{page}#{anchor_for('benchmark', config.id)}" if page is not None else None,
                         "target": (history_page(config.generation), anchor_for("benchmark", config.id))})
        groups.append({"title": f"{words} ({len(items)})", "entries": rows})
    return neuron_history_html(html=template("benchmark-changes.html.jinja").render(summary=summary, groups=groups),
                               summary=summary, groups=groups)


def setup_whats_new(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "matrix-changes", MatrixChanges)
    app.add_directive_to_domain("neuron", "benchmark-changes", BenchmarkChanges)
    app.add_directive_to_domain("neuron", "judgement-rule", JudgementRuleDirective)
    add_hosted_type(app, HostedType("changes", changes_places, sections=True))
