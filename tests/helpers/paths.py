"""Where things are: the repository, the real data, the frozen data, the test roots; writable copies."""

from __future__ import annotations

import shutil
from pathlib import Path

#: The repository's root (``conf.py``, ``source/``, ``data/``).
REPO = Path(__file__).resolve().parent.parent.parent
#: The real data set: tests of the site itself compare its pages with whatever this holds.
DATA = REPO / "data"
#: ``data/`` as it was when the tests whose inputs name values typed by hand were written (a
#: drift-checker page with literal figures, the drift corpus and its answer keys, an edit that
#: replaces ``,9.007,`` in a CSV, a preview or matrix diff that expects a price to move from one value
#: to another): they read this copy, so that a maintainer's legitimate change to ``data/`` never
#: breaks them (``tests/fixtures/README.md``).
FROZEN_DATA = REPO / "tests" / "fixtures" / "frozen-data"
#: The small Sphinx projects of ``@pytest.mark.sphinx(testroot=...)``: ``roots/test-<name>``.
ROOTS = REPO / "tests" / "roots"


def copy_data(target: Path, source: Path = DATA) -> Path:
    """A writable copy of ``source`` (the real data unless given) at ``target``, which must not exist yet."""
    shutil.copytree(source, target)
    return target


def frozen_copy(target: Path) -> Path:
    """A writable copy of the frozen data at ``target`` (which must not exist yet)."""
    return copy_data(target, FROZEN_DATA)


def copy_source(target: Path) -> Path:
    """A copy of ``source/`` at ``target``: device pages are generated into the source directory,
    so a build from other data must not write into the real one."""
    shutil.copytree(REPO / "source", target, dirs_exist_ok=True)
    return target
