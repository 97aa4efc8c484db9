"""Shared fixtures: Sphinx's testing fixtures, the real data set, and throw-away copies of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from neuron_docs.data import Catalog, load_catalog

pytest_plugins = ["sphinx.testing.fixtures"]

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot=...)`` finds ``roots/test-<name>``."""
    return Path(__file__).resolve().parent / "roots"


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
