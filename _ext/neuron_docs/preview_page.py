"""The generated page "Changes in this preview": every change of a preview build, with its places.

:func:`render_changes` writes the page's body from a :class:`~neuron_docs.preview.Preview` once
every page has been resolved and marked (:mod:`~neuron_docs.preview_marks`), at
``html-collect-pages``: only then is the list of places complete. :func:`describe` gives the words
of a change ("old -> new") that both the page and the marks use. Only HTML builders that write a
file per page (:func:`has_pages`) get the page.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from .matrix_diff import CellChange, RecordChange
from .store import dataset
from .tables import FIT_TEXT, STATUS_TEXT

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sphinx.application import Sphinx

    from .matrix_diff import ValueChange
    from .preview import Preview
    from .preview_marks import Key, Place

#: The page name of the generated "Changes in this preview" page.
PAGE = "preview-changes"
PAGE_TITLE = "Changes in this preview"


# Describing changes -------------------------------------------------------------------------------

def _words(kind: str, value: str | None) -> str:
    if value is None:
        return "(none)"
    return (STATUS_TEXT if kind == "support" else FIT_TEXT if kind == "fit" else {}).get(value, value)


def describe(change: CellChange | RecordChange | ValueChange) -> str:
    """``old -> new`` (or what changed) of one change, in the words the pages use."""
    if isinstance(change, CellChange):
        if change.old == change.new:
            return f"{', '.join(change.fields) or 'details'} changed"
        return f"{_words(change.key[0], change.old)} -> {_words(change.key[0], change.new)}"
    if isinstance(change, RecordChange):
        if change.change == "changed":
            return f"{', '.join(change.fields)} changed"
        return change.change
    return f"{change.label}: {change.old_text or '(none)'} -> {change.new_text or '(none)'}"


# The page -----------------------------------------------------------------------------------------

def is_html(app: Sphinx) -> bool:
    """Whether the build writes HTML (and so tooltips and the preview stylesheet)."""
    return getattr(app.builder, "format", "") == "html"


def has_pages(app: Sphinx) -> bool:
    """HTML builders that write a file per page (html, dirhtml), and so the changes page."""
    return is_html(app) and app.builder.name != "singlehtml"


def _code(text: str) -> str:
    return f"<code>{html.escape(text)}</code>"


def places_by_key(preview: Preview) -> dict[Key, list[Place]]:
    """Where each change appears. A changed family record appears where its matrix cells do."""
    places: dict[Key, list[Place]] = {}
    for docname in sorted(preview.places):
        for place in preview.places[docname]:
            for key in sorted(place.keys):
                places.setdefault(key, []).append(place)
    for change in preview.diff.records:
        if change.key[1] == "families" and change.key not in places:
            cells = [p for key, found in sorted(places.items()) if key[0] in ("support", "fit")
                     and key[1] == change.key[2] for p in found]
            if cells:
                places[change.key] = list(dict.fromkeys(cells))
    return places


def render_changes(preview: Preview, uri: Any, families: Mapping[str, Any] | None = None,
                   titles: Mapping[str, str] | None = None) -> str:
    """The body of the changes page; ``uri(docname, anchor)`` makes a link to a place, ``titles``
    names the pages."""
    diff = preview.diff
    places = places_by_key(preview)

    def where(key: Key) -> str:
        found = places.get(key, [])
        if not found:
            return "<em>not marked on any page</em>"
        items = "".join(f'<li><a class="reference internal" href="{html.escape(uri(p.docname, p.anchor))}">'
                        f"{html.escape((titles or {}).get(p.docname, p.docname))}</a> "
                        f"{_code('#' + p.anchor)}</li>" for p in found)
        return f'<ul class="simple">{items}</ul>'

    def family(family_id: str) -> str:
        record = (families or {}).get(family_id)
        return f"{html.escape(record.name)} ({_code(family_id)})" if record else _code(family_id)

    def table(anchor: str, title: str, header: list[str], rows: list[tuple[Key, list[str]]]) -> str:
        if not rows:
            return ""
        head = "".join(f'<th class="head">{h}</th>' for h in [*header, "Where it appears"])
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + f"<td>{where(key)}</td></tr>"
                       for key, cells in rows)
        return (f'<section id="{anchor}"><h2>{html.escape(title)}</h2>'
                f'<table class="docutils align-default neuron-table neuron-preview-changes">'
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></section>")

    counts = {"support cells": len(diff.support), "fits": len(diff.fit), "header fields": len(diff.header),
              "records": len(diff.records), "figures": len(diff.values), "new data errors": len(diff.errors)}
    summary = ", ".join(f"{what} {n}" for what, n in counts.items() if n) or "no changes"
    out = [f'<section id="{PAGE}"><h1>{PAGE_TITLE}</h1>',
           f"<p>This preview compares the data of this build with {_code(preview.base_label)}: "
           f"{html.escape(summary)}. Changed places are outlined on the pages and carry a "
           f"&#8220;changed in this preview&#8221; note.</p>"]
    if diff.errors:
        items = "".join(f"<li>{_code(e)}</li>" for e in diff.errors)
        out.append(f'<section id="data-errors"><h2>Data errors in this build</h2><ul>{items}</ul></section>')
    out.append(table("support-status", "Support status", ["Family", "Device", "Framework", "Change"], [
        (c.key, [family(c.key[1]), _code(c.key[2]), _code(c.key[3]), html.escape(describe(c))])
        for c in diff.support]))
    out.append(table("architecture-fit", "Architecture fit", ["Family", "Device", "Change"], [
        (c.key, [family(c.key[1]), _code(c.key[2]), html.escape(describe(c))]) for c in diff.fit]))
    out.append(table("matrix-header", "Matrix header", ["Field", "Change"], [
        (c.key, [_code(".".join(c.key[1:])), html.escape(describe(c))]) for c in diff.header]))
    out.append(table("records", "Records", ["Collection", "Id", "Change"], [
        (c.key, [html.escape(c.key[1]), _code(c.key[2]), html.escape(describe(c))]) for c in diff.records]))
    for anchor, title, derived in (("figures", "Figures (prices, specifications, benchmarks)", False),
                                   ("derived-figures", "Derived figures (costs, ratios, counts)", True)):
        out.append(table(anchor, title, ["Figure", "Path", "Change"], [
            (c.key, [html.escape(c.label), _code(c.key[1]),
                     html.escape(f"{c.old_text or '(none)'} -> {c.new_text or '(none)'}"
                                 + ("" if c.change == "changed" else f" ({c.change})"))])
            for c in diff.values if c.derived == derived]))
    out.append("</section>")
    return "\n".join(part for part in out if part)


def changes_page(app: Sphinx, preview: Preview) -> Iterable[tuple[str, dict[str, Any], str]]:
    """The changes page of an HTML build (``html-collect-pages``), none for single-page builders."""
    if not has_pages(app):
        return []

    def uri(docname: str, anchor: str) -> str:
        return f"{app.builder.get_relative_uri(PAGE, docname)}#{anchor}"

    titles = {docname: title.astext() for docname, title in app.env.titles.items()}
    body = render_changes(preview, uri, dataset(app.env).catalog.families, titles)
    return [(PAGE, {"title": PAGE_TITLE, "body": body}, "page.html")]
