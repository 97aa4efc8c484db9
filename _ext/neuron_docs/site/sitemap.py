"""sphinx-sitemap without a server process when the build runs in one process.

sphinx-sitemap starts a ``multiprocessing.Manager`` server process on every build, which is never
shut down (slow, and it can hang the interpreter's exit when other threads run, as in the browser
tests). A serial build needs only an in-process queue; parallel builds keep the Manager.
"""

from __future__ import annotations

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


def _sitemap_without_a_server_process(app: Sphinx) -> None:
    """Give sphinx-sitemap an in-process queue in a serial build."""
    sitemap: Any = sys.modules.get("sphinx_sitemap")  # a module whose attribute it replaces
    if sitemap is not None and hasattr(sitemap, "Manager"):
        sitemap.Manager = multiprocessing.Manager if app.parallel > 1 else _LocalManager


def setup_sitemap(app: Sphinx) -> None:
    app.connect("builder-inited", _sitemap_without_a_server_process, priority=100)
