"""Placeholders replaced by their content when a page is written, for every builder.

For HTML the placeholders are filled late (:class:`ExpandForHtml`, just before furo wraps tables,
priority 499): the post-transforms before it, which walk the whole doctree, never see the generated
nodes, and the cross-references the content holds are resolved right after filling (Sphinx's own
resolver, which by then finds only those). Every other builder gets the content first
(:class:`ExpandFirst`), so that its own post-transforms (LaTeX's, linkcheck's) see it all. The
handlers of ``doctree-resolved`` (CSV downloads, preview marks, unique ids) see the content in both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import ReferencesResolver, SphinxPostTransform

from ..build_state import is_html, state
from .placeholder import RenderContext, deferred, render

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


class _Expand(SphinxPostTransform):
    def run(self, **kwargs: Any) -> None:
        placeholders = list(self.document.findall(deferred))
        docname = self.env.current_document.docname
        page: dict[str, Any] = {}
        for node in placeholders:
            content = render(RenderContext(self.env, docname, node, node.get("directive", ""), page=page))
            self.filled(content)
            node.replace_self(content)
        if placeholders:
            self.document["neuron_filled"] = True  # site.ids makes the new ids unique on the page
            self.after_filling()

    def filled(self, content: list[nodes.Node]) -> None:
        """What a placeholder's content needs before it goes into the page."""

    def after_filling(self) -> None:
        """What the page needs once its placeholders are filled."""


def resolve_generated_references(doctree: nodes.document, docname: str, env: BuildEnvironment) -> None:
    """Resolve the links generated content makes to Neuron objects, as Sphinx's resolver would but
    without its copies and events: the link's content moves into the reference; a link to an
    object the project does not describe keeps its text (see :mod:`neuron_docs.domain`)."""
    domain = env.get_domain("neuron")
    builder = state(env).builder
    if builder is None:  # no builder-inited (not a build): Sphinx's resolver does it all
        return
    for node in list(doctree.findall(addnodes.pending_xref)):
        if node.get("refdomain") != "neuron" or not node.get("neuron_generated"):
            continue
        contnode = node[0]
        node.remove(contnode)
        node["refdoc"] = docname
        ref = domain.resolve_xref(env, docname, builder, node["reftype"], node["reftarget"], node, contnode)
        node.replace_self(ref if ref is not None else contnode)


def filled_doctree(app: Sphinx, docname: str) -> nodes.document:
    """Page ``docname`` as read, its placeholders filled, quietly (their warnings are the writer's),
    for what lists the content of every page (the index of CSV downloads)."""
    doctree = app.env.get_doctree(docname)
    page: dict[str, Any] = {}
    for node in list(doctree.findall(deferred)):
        node.replace_self(render(RenderContext(app.env, docname, node, node.get("directive", ""), quiet=True,
                                               page=page)))
    return doctree


class ExpandForHtml(_Expand):
    """Fill placeholders after the post-transforms that do not concern generated content."""

    default_priority = 499

    def filled(self, content: list[nodes.Node]) -> None:
        for node in content:  # its table rows are written in one pass (.html_rows)
            if isinstance(node, nodes.Element):
                for tbody in node.findall(nodes.tbody):
                    tbody["neuron_rows_html"] = True

    def after_filling(self) -> None:
        resolve_generated_references(self.document, self.env.current_document.docname, self.env)
        ReferencesResolver(self.document).apply()  # those left: the resolver finds no others by now


class ExpandFirst(_Expand):
    """Fill placeholders before any post-transform (builders other than HTML)."""

    default_priority = 1

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


def _choose(app: Sphinx) -> None:
    app.add_post_transform(ExpandForHtml if is_html(app) else ExpandFirst)


def setup_expand(app: Sphinx) -> None:
    app.add_node(deferred)
    app.connect("builder-inited", _choose)
