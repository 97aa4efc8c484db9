"""Every page shows the whole site's navigation: a changed page title reaches every page.

The theme prints the global table of contents in every page's sidebar, and some page titles come
from the data (a device's page is titled with the device's name). Sphinx writes again a page it
read again and the pages whose toctree lists it, not the others: after a device is renamed in
``devices.yaml``, every other page would keep the old name in its sidebar until something else
rewrote it (plain Sphinx does the same for a title edited by hand). So the titles of the pages about
to be read are noted (``env-before-read-docs``), and when one of them changed, or a page was added
or removed (``env-get-outdated``), ``env-updated`` returns every page to be written again.

The navigation is the build's costliest part of a page (Sphinx resolves the whole table of contents
for each page: about a tenth of a second for this site). A page that is no document (a model's
benchmark history, the index, the search page) is current in none of its entries, so its navigation
differs from another such page's only in its links, which are relative to its folder: it is
resolved once per folder and argument list (``html-page-context``, before the theme asks for it).
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from ..state.domain import state

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def _title(env: BuildEnvironment, docname: str) -> str | None:
    title = env.titles.get(docname)
    return None if title is None else title.astext()


def note_navigation_change(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                           removed: set[str]) -> list[str]:
    state(env).navigation_changed = bool(added or removed)
    return []


def note_titles_before(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    state(env).titles_before = {doc: _title(env, doc) for doc in docnames}


def pages_of_a_navigation_change(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Every page, when the navigation that every page shows changed."""
    build = state(env)
    changed = build.navigation_changed or any(_title(env, doc) != before
                                              for doc, before in build.titles_before.items())
    return sorted(env.found_docs) if changed else []


def navigation_once_per_folder(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                               doctree: object) -> None:
    """A page that is no document gets the navigation resolved for its folder (once a build)."""
    if pagename in app.env.all_docs or "toctree" not in context:
        return
    resolve = context["toctree"]
    folder = posixpath.dirname(app.builder.get_target_uri(pagename))
    resolved = state(app.env).navigation_html

    def toctree(**kwargs: Any) -> str:
        key = (folder, tuple(sorted(kwargs.items())))
        if key not in resolved:
            resolved[key] = resolve(**kwargs)
        return resolved[key]

    context["toctree"] = toctree

