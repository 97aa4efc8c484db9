"""The generated page "Changes in this preview": every change of a preview build, with its places.

:func:`render_changes` writes the page's body (the sections of :mod:`.report` with the places
each change appears) once every page has been resolved and marked (:mod:`.marks`), at
``html-collect-pages``: only then is the list of places complete. Only HTML builders that write a
file per page (:func:`has_pages`) get the page.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from ..directives.benchmark_history import history_page
from ..state.build import is_html
from ..state.domain import dataset
from ..state.domain import anchor_for
from .report import render_html

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from sphinx.application import Sphinx

    from ..data.records import models as s
    from ..state.preview import Key, MarkedPlace, Preview

#: The page name of the generated "Changes in this preview" page.
PAGE = "preview-changes"
PAGE_TITLE = "Changes in this preview"


# The page -----------------------------------------------------------------------------------------

def has_pages(app: Sphinx) -> bool:
    """HTML builders that write a file per page (html, dirhtml), and so the changes page."""
    return is_html(app) and app.builder.name != "singlehtml"


def places_by_key(preview: Preview) -> dict[Key, list[MarkedPlace]]:
    """Where each change appears. A changed family record appears where its matrix cells do."""
    places: dict[Key, list[MarkedPlace]] = {}
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


def render_changes(preview: Preview, uri: Callable[[str, str], str], families: Mapping[str, s.Family] | None = None,
                   titles: Mapping[str, str] | None = None) -> str:
    """The body of the changes page; ``uri(docname, anchor)`` makes a link to a place, ``titles``
    names the pages. A published benchmark change links to its configuration's block on its
    generation's history page."""
    places = places_by_key(preview)
    generations = {c.key: c.generation for c in preview.benchmarks}

    def where(key: Key) -> str:
        if key in generations:
            page = history_page(generations[key])
            if titles is not None and page not in titles:
                return "<em>no history page in this build</em>"
            return (f'<a class="reference internal" href="{html.escape(uri(page, anchor_for("benchmark", key[3])))}">'
                    f"{html.escape((titles or {}).get(page, page))}</a>")
        found = places.get(key, [])
        if not found:
            return "<em>not marked on any page</em>"
        items = "".join(f'<li><a class="reference internal" href="{html.escape(uri(p.docname, p.anchor))}">'
                        f"{html.escape((titles or {}).get(p.docname, p.docname))}</a> "
                        f"<code>{html.escape('#' + p.anchor)}</code></li>" for p in found)
        return f'<ul class="simple">{items}</ul>'

    names = {family_id: record.name for family_id, record in (families or {}).items()}
    return render_html(preview.diff, preview.base_label, where, names, page=PAGE, title=PAGE_TITLE,
                       benchmarks=preview.benchmarks)


def changes_page(app: Sphinx, preview: Preview) -> Iterable[tuple[str, dict[str, Any], str]]:
    """The changes page of an HTML build (``html-collect-pages``), none for single-page builders."""
    if not has_pages(app):
        return []

    def uri(docname: str, anchor: str) -> str:
        return f"{app.builder.get_relative_uri(PAGE, docname)}#{anchor}"

    titles = {docname: title.astext() for docname, title in app.env.titles.items()}
    body = render_changes(preview, uri, dataset(app.env).catalog.families, titles)
    return [(PAGE, {"title": PAGE_TITLE, "body": body}, "page.html")]
