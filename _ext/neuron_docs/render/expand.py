"""Placeholders replaced by their content when a page is written, for every builder.

For HTML the placeholders are filled late (:class:`ExpandForHtml`, just before furo wraps tables,
priority 499): the post-transforms before it, which walk the whole doctree, never see the generated
nodes, and the cross-references the content holds are resolved right after filling (Sphinx's own
resolver, which by then finds only those). Every other builder gets the content first
(:class:`ExpandFirst`), so that its own post-transforms (LaTeX's, linkcheck's) see it all. The
handlers of ``doctree-resolved`` (CSV downloads, preview marks, unique ids) see the content in both.
A page's content rendered ahead for the index of CSV downloads (:func:`filled_doctree`) is not
rendered again when the page is written later in the build.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import ReferencesResolver, SphinxPostTransform

from ..state.build import is_html
from ..state.domain import dataset, neuron_domain, state
from .tables import broken_notice
from .placeholder import SET_ASIDE_KEY, Renderer, RenderContext, deferred, deferred_inline, give_warning, render
from ..node_data import FILLED, GENERATED_REFERENCE, ROWS_HTML, SET_ASIDE

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment


@dataclass
class RenderedAhead:
    """A page's placeholders rendered before the page is written (for the index of CSV downloads,
    :func:`filled_doctree`), to be used when it is: each one's content and the warnings it gives then,
    by placeholder (:func:`_key`), and what the page's placeholders share."""

    page: dict[str, Any] = field(default_factory=dict)
    content: dict[tuple[str, ...], list[tuple[list[nodes.Node], list[tuple[str, Any, str]]]]] = \
        field(default_factory=dict)

    def take(self, node: deferred) -> list[nodes.Node] | None:
        """The content rendered ahead for ``node``, its warnings given now; None if there is none."""
        found = self.content.get(_key(node))
        if not found:
            return None
        content, warnings = found.pop(0)
        for message, location, subtype in warnings:
            give_warning(message, location, subtype)
        return content


def _key(node: deferred) -> tuple[str, ...]:
    """A placeholder, as the page read from the environment and the page being written both have it."""
    return (node["renderer"], repr(node["params"]), str(node.line), repr(node.get("location")))


def _ahead(env: BuildEnvironment) -> dict[str, RenderedAhead]:
    return cast("dict[str, RenderedAhead]", state(env).rendered_ahead)


class _Expand(SphinxPostTransform):
    #: The placeholders this pass fills.
    kind: type[deferred] = deferred

    def run(self, **kwargs: Any) -> None:
        placeholders = list(self.document.findall(self.kind))
        docname = self.env.current_document.docname
        ahead = _ahead(self.env).get(docname) or RenderedAhead()
        filled: list[nodes.Node] = []
        for node in placeholders:
            content = ahead.take(node)
            if content is None:
                content = render(RenderContext(self.env, docname, node, node.get("directive", ""), page=ahead.page))
            self.filled(content)
            node.replace_self(content)
            filled += content
        if self.kind is not deferred:
            return
        set_aside_box(self.document, dataset(self.env).catalog, ahead.page.get(SET_ASIDE_KEY, set()))
        _ahead(self.env).pop(docname, None)  # the last pass: the page is written
        state(self.env).pages_written.add(docname)
        if placeholders:
            FILLED.set(self.document, True)  # site.ids makes the new ids unique on the page
            self.after_filling(filled)

    def filled(self, content: list[nodes.Node]) -> None:
        """What a placeholder's content needs before it goes into the page."""

    def after_filling(self, content: list[nodes.Node]) -> None:
        """What the page needs once its placeholders are filled with ``content``."""


def set_aside_box(document: nodes.document, catalog: Catalog, looked_up: Iterable[str] = ()) -> None:
    """The "Data problem" box of the records set aside that the page names (a value, a link:
    :data:`..node_data.SET_ASIDE`; a record its tables looked up, ``looked_up``), after the
    page's introduction, but those a box of the page lists already; their problem was warned once,
    where the data is loaded."""
    if not catalog.broken:
        return
    named = {SET_ASIDE.read(node) for node in document.findall(nodes.Element)
             if SET_ASIDE.get(node)} | set(looked_up)
    if not named:
        return
    shown = " ".join(box.astext() for box in document.findall(nodes.admonition)
                     if "neuron-data-problem" in box["classes"])
    records = [b for b in catalog.broken if f"{b.collection}/{b.record_id}" in named
               and f"{b.collection} {b.record_id}:" not in shown]
    if not records:
        return
    box = broken_notice(records, "The data this page names below was set aside; what it would show is "
                                 "marked with a dash until the problem is fixed:")
    top = next((s for s in document.children if isinstance(s, nodes.section)), document)
    first = next((i for i, child in enumerate(top.children) if isinstance(child, nodes.section)), len(top.children))
    for node in reversed(box):
        top.insert(first, node)


class CachedUris:
    """A builder whose relative URIs are computed once per pair of pages (thousands of links of a
    table go to a few pages)."""

    def __init__(self, builder: Builder) -> None:
        self._builder = builder
        self._uris: dict[tuple[str, str], str] = {}

    def get_relative_uri(self, from_: str, to: str, typ: str | None = None) -> str:
        key = (from_, to)
        if key not in self._uris:
            # The single HTML page: each link made here has an anchor (an object's place), unique on
            # the page; the page's own address (#document-<page>) before it would make two.
            single = self._builder.name == "singlehtml"
            self._uris[key] = "" if single else self._builder.get_relative_uri(from_, to, typ)
        return self._uris[key]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._builder, name)


def resolve_generated_references(content: list[nodes.Node], docname: str, env: BuildEnvironment,
                                 uris: CachedUris | None = None) -> bool:
    """Resolve the links ``content`` makes to Neuron objects, as Sphinx's resolver would but
    without its copies and events: the link's content moves into the reference; a link to an
    object the project does not describe keeps its text (see :mod:`neuron_docs.state.domain`). Whether
    other pending references are left (for Sphinx's resolver). ``uris``: the builder's relative
    URIs kept from earlier calls (one table's many links)."""
    domain = neuron_domain(env)
    builder = state(env).builder
    others = False
    if builder is None:  # no builder-inited (not a build): Sphinx's resolver does it all
        return True
    cached = cast("Builder", uris if uris is not None else CachedUris(builder))
    for root in content:
        if not isinstance(root, nodes.Element):
            continue
        for node in list(root.findall(addnodes.pending_xref)):
            if node.get("refdomain") != "neuron" or not GENERATED_REFERENCE.get(node):
                others = True
                continue
            contnode = node[0]
            node.remove(contnode)
            node["refdoc"] = docname
            ref = domain.resolve_xref(env, docname, cached, node["reftype"], node["reftarget"], node, contnode)
            node.replace_self(ref if ref is not None else contnode)
    return others


def filled_doctree(app: Sphinx, docname: str) -> nodes.document:
    """Page ``docname`` as read, its placeholders that may hold a table filled, for what lists the
    tables of every page (the index of CSV downloads); the others are left out.

    The content is rendered once per build: while the build writes its pages, the content of a page
    not written yet is kept (:class:`RenderedAhead`) for when it is, its warnings held until then
    (they are the writer's); what a page written or not written in this build never takes is
    dropped when the writing ends."""
    doctree = app.env.get_doctree(docname)
    build = state(app.env)
    ahead = RenderedAhead()
    if build.writing and docname not in build.pages_written:  # kept for when the page is written
        _ahead(app.env)[docname] = ahead
    renderers = build.renderers
    for node in list(doctree.findall(deferred)):
        kind = renderers[node["renderer"]]
        if isinstance(kind, Renderer) and not kind.tables:
            node.parent.remove(node)
            continue
        held: list[tuple[str, Any, str]] = []
        content = render(RenderContext(app.env, docname, node, node.get("directive", ""), held=held,
                                       page=ahead.page))
        ahead.content.setdefault(_key(node), []).append((content, held))
        node.replace_self(content)
    return doctree


class ExpandForHtml(_Expand):
    """Fill placeholders after the post-transforms that do not concern generated content."""

    default_priority = 499

    def filled(self, content: list[nodes.Node]) -> None:
        for node in content:  # its table rows are written in one pass (.html_rows)
            if isinstance(node, nodes.Element):
                for tbody in node.findall(nodes.tbody):
                    ROWS_HTML.set(tbody, True)

    def after_filling(self, content: list[nodes.Node]) -> None:
        if resolve_generated_references(content, self.env.current_document.docname, self.env):
            ReferencesResolver(self.document).apply()  # those left: the resolver finds no others by now


class ExpandFirst(_Expand):
    """Fill placeholders before any post-transform but the drift check (builders other than HTML)."""

    default_priority = 2

    def filled(self, content: list[nodes.Node]) -> None:
        for node in content:
            if isinstance(node, nodes.Element):
                for tgroup in node.findall(nodes.tgroup):
                    size_columns(tgroup)


#: The widest a column of a generated table gets in text output (longer cells wrap).
MAX_COLUMN_WIDTH = 60


def size_columns(tgroup: nodes.tgroup) -> None:
    """Column widths from the cells' text, for the writers that lay tables out by them (text: a
    width of 1, which HTML ignores, would wrap every cell one character a line)."""
    widths = [1] * int(tgroup["cols"])
    for row in tgroup.findall(nodes.row):
        for index, entry in enumerate(row.children[:len(widths)]):
            text = entry.astext()
            longest = max((len(word) for word in text.split()), default=1)
            # Room for the writer's markup around the text (``*emphasis*``, ``**strong**``).
            widths[index] = max(widths[index], min(len(text) + 4, MAX_COLUMN_WIDTH), longest + 4)
    for colspec, width in zip((c for c in tgroup.children if isinstance(c, nodes.colspec)), widths, strict=False):
        colspec["colwidth"] = width


class ExpandInline(_Expand):
    """Fill the placeholders of prose (roles) first, for every builder: the drift check (priority
    1) reads the sentence around a hand-written figure, role output included, as it reads it."""

    default_priority = 0
    kind = deferred_inline


def choose_expansion(app: Sphinx) -> None:
    app.add_post_transform(ExpandForHtml if is_html(app) else ExpandFirst)


def start_writing(app: Sphinx, builder: Builder) -> None:
    build = state(app.env)
    build.writing, build.pages_written = True, set()


def end_writing(app: Sphinx, exception: Exception | None) -> None:
    """The writing is over: what was rendered ahead and not taken is dropped (a later resolution of
    a page, by a test or another builder's step, renders it afresh)."""
    build = state(app.env)
    build.writing = False
    build.rendered_ahead.clear()


def setup_expand(app: Sphinx) -> None:
    app.add_node(deferred)
    app.add_node(deferred_inline)
    app.add_post_transform(ExpandInline)
