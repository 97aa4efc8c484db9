"""Shared fixtures: Sphinx's testing fixtures, the real data set, and throw-away copies of it.

Under pytest-xdist (``-n auto``; ``--dist loadscope --no-loadscope-reorder`` in ``pyproject.toml``)
each test module is one unit of work, run by one worker, so a module's fixtures (whole-site builds)
are made once, not once per worker; the modules are handed out in the order of ``FIRST``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from neuron_docs.data import Catalog, load_catalog

pytest_plugins = ["sphinx.testing.fixtures"]

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"


#: The order in which pytest-xdist hands out the test modules (a module to a worker as soon as that
#: worker is almost idle; a worker runs its modules in the order handed out). First the modules that
#: fork a parallel Sphinx build inside the worker, so that none forks after the worker has started
#: Playwright's threads (the browser modules come after them); then the slowest (measured with
#: ``--durations``), the browser visits of every page among them (``tests/browser/visits.py``: one
#: module per viewport, Chromium on two lanes each) rather than at the end, so that the many short
#: modules that follow even out the ends of the two workers. The other modules follow in the order
#: collected, the other browser tests last. Only the order depends on it.
FIRST = ("test_incremental.py", "test_extension.py",  # parallel builds: they fork
         "test_reproducible.py", "test_builders.py", "test_site.py", "test_refused_files.py", "test_device_pages.py",
         "test_escaping.py",
         "test_site_browser.py", "test_axe_browser.py",
         "test_preview.py", "test_hostile_data.py", "test_broken_site.py", "test_data_broken.py",
         "test_matrix_diff.py", "test_output_safety.py", "test_write_time_rendering.py", "test_data_changes.py",
         "test_data_properties.py", "test_drift.py", "test_performance_pages.py", "test_advisor_browser.py")
BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules in the order of ``FIRST``; pytest-xdist hands them out in this order."""
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        if name in FIRST:
            return FIRST.index(name)
        return len(FIRST) + (BROWSER_TESTS in item.path.parents)

    items.sort(key=rank)  # stable: the order within each module is kept


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot=...)`` finds ``roots/test-<name>``."""
    return Path(__file__).resolve().parent / "roots"


@pytest.fixture(scope="session")
def shared_data_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One data-set cache (``neuron_cache_dir``) for the session's test builds, both workers' (the
    folder above each worker's temporary root): an entry is keyed by the data's content and the
    code, so the many small builds of one data set load it once and read it back after that."""
    return tmp_path_factory.getbasetemp().parent / "neuron-data-cache"


@pytest.fixture
def make_app(make_app: Any, shared_data_cache: Path) -> Any:
    """Sphinx's ``make_app`` (and so its ``app``), building with the session's data-set cache unless
    the test sets ``neuron_cache_dir`` itself (a test of the cache)."""
    def make(*args: Any, **kwargs: Any) -> Any:
        overrides = dict(kwargs.pop("confoverrides", None) or {})
        overrides.setdefault("neuron_cache_dir", str(shared_data_cache))
        return make_app(*args, confoverrides=overrides, **kwargs)

    return make


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The real data set, loaded once."""
    return load_catalog(DATA)


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A writable copy of ``data/`` for tests that break or change it."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


def element_ids(soup: Any) -> set[str]:
    """Every id of a parsed page (a BeautifulSoup tree)."""
    return {element["id"] for element in soup.find_all(id=True)}


def has_class(name: str) -> str:
    """An XPath test that an element's ``class`` holds ``name`` (what CSS's ``.name`` selects)."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


class SiteBuild:
    """A finished build of the real site (``source/`` with the top-level ``conf.py``)."""

    def __init__(self, outdir: Path, warnings: str, app: object) -> None:
        self.outdir = outdir
        self.warnings = warnings
        self.app = app
        self._soups: dict[str, Any] = {}
        self._trees: dict[str, Any] = {}
        self._ids: dict[str, set[str]] = {}

    def html(self, page: str) -> str:
        return (self.outdir / page).read_text(encoding="utf-8")

    def soup(self, page: str):  # noqa: ANN201 - BeautifulSoup
        """The page parsed, once per build: the tests only read it (none changes a parsed page), and
        several read every page of the site."""
        if page not in self._soups:
            from bs4 import BeautifulSoup

            self._soups[page] = BeautifulSoup(self.html(page), "lxml")
        return self._soups[page]

    def tree(self, page: str):  # noqa: ANN201 - lxml.html.HtmlElement
        """The page parsed by lxml alone, once per build: for the checks of every page, several
        times faster than :meth:`soup` (queried with XPath; :func:`has_class` for a class)."""
        if page not in self._trees:
            from lxml import html as lxml_html

            self._trees[page] = lxml_html.document_fromstring(self.html(page))
        return self._trees[page]

    def ids(self, page: str) -> set[str]:
        """Every id on the page, gathered once: a test following hundreds of links into one page
        looks each up here, not by searching the page's tree again (the history pages are large)."""
        if page not in self._ids:
            self._ids[page] = set(self.tree(page).xpath("//@id"))
        return self._ids[page]


def copy_source(target: Path) -> Path:
    """A copy of ``source/`` at ``target``: device pages are generated into the source directory,
    so a build from other data must not write into the real one."""
    shutil.copytree(REPO / "source", target, dirs_exist_ok=True)
    return target


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
    """
    from io import StringIO

    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    status, warning = StringIO(), StringIO()
    if data_dir is not None:
        overrides["neuron_data_dir"] = str(data_dir)
    # docutils_namespace() undoes the global registrations (directives, roles, node classes) that
    # building makes, as sphinx-build does, so later builds in this process start clean.
    with patch_docutils(REPO), docutils_namespace():
        if srcdir is None:
            srcdir = REPO / "source" if data_dir is None else copy_source(outroot / "source")
        app = Sphinx(srcdir, REPO, outroot / builder, outroot / "doctrees", builder,
                     confoverrides=overrides, status=status, warning=warning, freshenv=fresh,
                     warningiserror=False, parallel=parallel, keep_going=True)
        app.build(filenames=[str(app.project.doc2path(page, absolute=True)) for page in pages] or None)
    return SiteBuild(outroot / builder, warning.getvalue(), app)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    """The real site built once per test session from the real data."""
    return build_site(tmp_path_factory.mktemp("site"))


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # the loader refuses aliases
        return True


def representatives(cases: list[Any], kind: Any) -> list[Any]:
    """``cases`` as pytest parameters (each by its ``id``): the first case of each ``kind(case)`` runs in
    ``make test``; the others are marked ``sweep``, run by ``make test-e2e`` (and CI): a catalogue
    is swept whole there, and every kind of case is still tried on each ``make test``."""
    seen: set[Any] = set()
    params = []
    for case in cases:
        first = kind(case) not in seen
        seen.add(kind(case))
        params.append(pytest.param(case, id=case.id, marks=() if first else pytest.mark.sweep))
    return params


def edit_yaml(path: Path, edit: Any) -> None:
    """Change a copy of a data file: ``edit`` mutates the parsed document, which is written back."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000),
                    encoding="utf-8")
