"""The real site built with Sphinx's API, strict and nitpicky like ``make html`` (:func:`build_site`),
and what a test reads of the finished build (:class:`SiteBuild`)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .html import soup_of, tree_of
from .paths import REPO, copy_source

if TYPE_CHECKING:
    from bs4 import BeautifulSoup


class SiteBuild:
    """A finished build of the real site (``source/`` with the top-level ``conf.py``)."""

    def __init__(self, outdir: Path, warnings: str, app: Any) -> None:
        self.outdir = outdir
        self.warnings = warnings
        self.app = app
        self._soups: dict[str, BeautifulSoup] = {}
        self._trees: dict[str, Any] = {}
        self._ids: dict[str, set[str]] = {}

    def html(self, page: str) -> str:
        return (self.outdir / page).read_text(encoding="utf-8")

    def soup(self, page: str) -> BeautifulSoup:
        """The page parsed, once per build: the tests only read it (none changes a parsed page), and
        several read every page of the site."""
        if page not in self._soups:
            self._soups[page] = soup_of(self.outdir / page)
        return self._soups[page]

    def tree(self, page: str) -> Any:
        """The page parsed by lxml alone, once per build (:func:`.html.tree_of`): for the checks of
        every page."""
        if page not in self._trees:
            self._trees[page] = tree_of(self.outdir / page)
        return self._trees[page]

    def ids(self, page: str) -> set[str]:
        """Every id on the page, gathered once: a test following hundreds of links into one page
        looks each up here, not by searching the page's tree again (the history pages are large)."""
        if page not in self._ids:
            self._ids[page] = {str(i) for i in self.tree(page).xpath("//@id")}
        return self._ids[page]


def build_site(outroot: Path, data_dir: Path | None = None, parallel: int = 0,
               builder: str = "html", srcdir: Path | None = None, fresh: bool = True,
               pages: tuple[str, ...] = (), **overrides: object) -> SiteBuild:
    """Build the real site into ``outroot`` with Sphinx's API, strict and nitpicky like ``make html``.

    With ``data_dir`` (other data than ``data/``) the site is built from a copy of ``source/``
    (in ``outroot/source`` unless ``srcdir`` is given), where its device pages are generated.
    Without ``fresh``, the build updates what ``outroot`` holds of an earlier build (its doctrees
    and output): only the pages whose source or data changed are read and written again. With
    ``pages`` (docnames), every page is read but only those are written (``sphinx-build`` given
    their files), and the build's end (downloads, inventory) runs as usual: for a test that looks
    at a few pages, about half a whole-site build.

    The build runs in its own docutils namespace, as ``sphinx-build`` does: the directives, roles
    and node classes it registers are removed afterwards, so that later builds in this process
    (``sphinx.testing`` ones included) start clean.
    """
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    status, warning = StringIO(), StringIO()
    if data_dir is not None:
        overrides["neuron_data_dir"] = str(data_dir)
    with patch_docutils(REPO), docutils_namespace():
        if srcdir is None:
            srcdir = REPO / "source" if data_dir is None else copy_source(outroot / "source")
        app = Sphinx(srcdir, REPO, outroot / builder, outroot / "doctrees", builder,
                     confoverrides=overrides, status=status, warning=warning, freshenv=fresh,
                     warningiserror=False, parallel=parallel, keep_going=True)
        app.build(filenames=[app.project.doc2path(page, absolute=True) for page in pages])
    return SiteBuild(outroot / builder, warning.getvalue(), app)
