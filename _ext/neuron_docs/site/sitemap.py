"""sphinx-sitemap without a server process when the build runs in one process, listing every page.

sphinx-sitemap lists the pages written by *this* build (``html-page-context``): an incremental build
that writes 4 pages of 34 would leave a sitemap of 4. :func:`sitemap_every_page` (``build-finished``, before
sphinx-sitemap's own handler) adds every document of the environment that this build did not write,
named as sphinx-sitemap names it, and puts the links back in sorted order: the sitemap of an
incremental build equals that of a clean build of the same sources (tests/test_nothing_lost.py).

sphinx-sitemap starts a ``multiprocessing.Manager`` server process on every build, which is never
shut down (slow, and it can hang the interpreter's exit when other threads run, as in the browser
tests). A serial build needs only an in-process queue; parallel builds keep the Manager.
"""

from __future__ import annotations

import fnmatch
import multiprocessing
import queue
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class _LocalManager:
    """Stands in for ``multiprocessing.Manager`` in sphinx-sitemap when the build runs in one process."""

    @staticmethod
    def Queue() -> queue.Queue:  # noqa: N802 - the name sphinx-sitemap calls
        return queue.Queue()


def sitemap_without_a_server_process(app: Sphinx) -> None:
    """Give sphinx-sitemap an in-process queue in a serial build."""
    sitemap: Any = sys.modules.get("sphinx_sitemap")  # a module whose attribute it replaces
    if sitemap is not None and hasattr(sitemap, "Manager"):
        sitemap.Manager = multiprocessing.Manager if app.parallel > 1 else _LocalManager


def _link(app: Sphinx, pagename: str) -> str:
    """A page's link as sphinx-sitemap's ``add_html_link`` writes it."""
    if getattr(app.env, "is_directory_builder", False):
        if pagename == "index":
            return ""
        return pagename[:-6] + "/" if pagename.endswith("/index") else pagename + "/"
    suffix = app.config.html_file_suffix if app.config.html_file_suffix is not None else ".html"
    return pagename + suffix


def sitemap_every_page(app: Sphinx, exception: BaseException | None) -> None:
    """The links of this build's pages and of every page it did not write, sorted (see the docstring)."""
    links = getattr(app.env.app, "sitemap_links", None) if app.env is not None else None
    if exception is not None or links is None or app.builder.format != "html":
        return
    found: dict[str, object] = {}
    while True:
        try:
            link, last_updated = links.get_nowait()
        except queue.Empty:
            break
        found[link] = last_updated
    excludes = list(app.config.sitemap_excludes)
    for docname in app.env.all_docs:
        link = _link(app, docname)
        if link not in found and not any(fnmatch.fnmatch(link, pattern) for pattern in excludes):
            found[link] = None
    for link in sorted(found):
        links.put((link, found[link]))
