"""Marking the pages of a preview build: every place that shows a changed figure.

:func:`mark` finds, in a resolved doctree, the matrix cells (badges with a ``neuron_key``, inside
a cell's paragraph or the paragraph itself), the table rows of changed records or of records whose
figures moved, and the ``:neuron:value:`` figures whose expression reads a changed figure, and
marks each: the class ``neuron-changed``, a tooltip (an ``<abbr title>``, HTML only) and a visible
note "changed in this preview: old -> new", so that the mark never rests on colour alone.
:func:`mark_page` also adds the preview banner, which links to the changes page
(:mod:`~neuron_docs.preview.page`), on the root page and on every page with a mark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from ..state.build import is_html
from ..data.figures.expressions import PATH_RE
from ..render.tables import unique_id
from ..state.preview import Key, MarkedPlace, Preview
from .page import PAGE, PAGE_TITLE, has_pages
from .report import describe
from ..node_data import FIGURE_EXPRESSION, PREVIEW_KEY

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx


CHANGED = "neuron-changed"

def _description(preview: Preview, keys: Iterable[Key]) -> str:
    parts = [describe(preview.by_key[key]) for key in keys]
    return "changed in this preview: " + "; ".join(dict.fromkeys(parts))


# Marking ------------------------------------------------------------------------------------------

def _changed_keys_of(preview: Preview, node: nodes.Element) -> list[Key]:
    """The changes ``node`` shows, in the order of the diff."""
    keys: list[Key] = []
    if neuron_key := PREVIEW_KEY.get(node):
        key = tuple(neuron_key.split("/"))
        if key in preview.keys:
            keys.append(key)
    if isinstance(node, nodes.abbreviation) and (expression := FIGURE_EXPRESSION.get(node)):
        for path in dict.fromkeys(":".join(match) for match in PATH_RE.findall(expression)):
            if ("value", path) in preview.keys:
                keys.append(("value", path))
    if isinstance(node, nodes.row):
        for anchor in node["ids"]:
            keys.extend(preview.rows.get(anchor, ()))
    return keys


def _note(description: str) -> nodes.inline:
    return nodes.inline(description, description, classes=["neuron-changed-note"])


def _badge_inside(cell: nodes.paragraph) -> nodes.inline:
    """A cell whose paragraph is the badge (carries its classes and key) made a badge inside a plain
    paragraph, as other cells are, so that a tooltip can go around it and a note after it."""
    children = list(cell.children)
    cell.children = []
    mark = nodes.inline(cell.rawsource, "", *children, classes=cell["classes"], ids=cell["ids"],
                        **PREVIEW_KEY.attribute(PREVIEW_KEY.read(cell)))
    cell["classes"], cell["ids"] = [], []
    PREVIEW_KEY.pop(cell, None)
    cell += mark
    return mark


def mark(preview: Preview, doctree: nodes.document, docname: str, tooltips: bool = True) -> list[MarkedPlace]:
    """Mark every place of ``doctree`` that shows a change; return the places. ``tooltips``: also
    describe the change in a tooltip (HTML), besides the visible note."""
    taken = {anchor for node in doctree.findall(nodes.Element) for anchor in node["ids"]}
    found = [(node, keys) for node in doctree.findall(nodes.Element)
             if (keys := _changed_keys_of(preview, node))]
    places = []
    for node, keys in found:
        description = _description(preview, keys)
        if isinstance(node, nodes.paragraph):
            node = _badge_inside(node)
        node["classes"].append(CHANGED)
        if isinstance(node, nodes.row):
            anchor = node["ids"][0]
            entry = next(iter(node.findall(nodes.entry)), None)
            if entry is not None:
                paragraph = next(iter(entry.findall(nodes.paragraph)), None)
                if paragraph is None:
                    paragraph = nodes.paragraph()
                    entry += paragraph
                paragraph += nodes.Text(" ")
                paragraph += _note(description)
        else:
            if not node["ids"]:
                node["ids"].append(unique_id(nodes.make_id("changed-" + "-".join(keys[0][1:])), taken))
            anchor = node["ids"][0]
            if not tooltips:
                holder = node
            elif isinstance(node, nodes.abbreviation):
                node["explanation"] = f"{node.get('explanation', '')} ({description})".strip()
                holder = node
            else:
                # A badge: the tooltip comes from an <abbr> around it.
                holder = nodes.abbreviation("", "", explanation=description, classes=["neuron-changed-tooltip"])
                parent = node.parent
                parent[parent.index(node)] = holder  # not replace_self(): it would copy ids and classes
                holder += node
            parent = holder.parent
            parent.insert(parent.index(holder) + 1, _note(description))
        places.append(MarkedPlace(docname, anchor, description, frozenset(keys)))
    return places


def _banner(app: Sphinx, preview: Preview, docname: str, count: int) -> nodes.Element:
    banner = nodes.admonition(classes=["note", "neuron-preview-banner"])
    banner += nodes.title("Preview build", "Preview build")
    paragraph = nodes.paragraph()
    here = f" {count} place(s) on this page show a change and are outlined." if count else ""
    text = f"This is a preview compared with {preview.base_label}.{here} See "
    paragraph += nodes.Text(text)
    uri = app.builder.get_relative_uri(docname, PAGE)
    paragraph += nodes.reference(PAGE_TITLE, PAGE_TITLE, refuri=uri, internal=True)
    paragraph += nodes.Text(".")
    banner += paragraph
    return banner


def _insert_banner(doctree: nodes.document, banner: nodes.Element) -> None:
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, banner)
    else:
        doctree.insert(0, banner)


def mark_page(app: Sphinx, preview: Preview, doctree: nodes.document, docname: str) -> None:
    """Mark ``doctree`` (``doctree-resolved``), note its places in ``preview``, and add the banner."""
    places = mark(preview, doctree, docname, tooltips=is_html(app))
    preview.places[docname] = places
    if has_pages(app) and (places or docname == app.config.root_doc):
        _insert_banner(doctree, _banner(app, preview, docname, len(places)))
