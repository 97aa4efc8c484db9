"""Shared fixtures: Sphinx's testing fixtures, the real data set, and throw-away copies of it.

What the tests share that is not a fixture is in ``tests/helpers/`` (imported by name, never from here).

Under pytest-xdist (``-n auto``; ``--dist loadscope --no-loadscope-reorder`` in ``pyproject.toml``)
each test module is one unit of work, run by one worker, so a module's fixtures (whole-site builds)
are made once, not once per worker; the modules are handed out in the order of ``FIRST``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpers.paths import DATA, ROOTS, copy_data
from helpers.site import SiteBuild, build_site
from neuron_docs.data import Catalog, load_catalog

pytest_plugins = ["sphinx.testing.fixtures"]


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
         "test_data_properties.py", "test_drift.py", "test_performance_pages.py", "test_advisor_browser.py",
         "test_architecture.py", "test_nothing_lost.py", "test_audit.py", "test_benchmark_history.py",
         "test_benchmark_history_pages.py", "test_drift_corpus.py", "test_fit.py", "test_fuzz_data.py")
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
    return ROOTS


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
    return copy_data(tmp_path / "data")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    """The real site built once per test session from the real data."""
    return build_site(tmp_path_factory.mktemp("site"))
