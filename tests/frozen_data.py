"""The frozen copy of the data, for tests whose inputs were written against particular values.

``tests/fixtures/frozen-data/`` is ``data/`` as it was when these tests were written (see
``tests/fixtures/README.md``). A test whose input holds a figure, a name or a status typed by hand
(a drift-checker page with literal figures, the drift corpus and its answer keys, an edit that
replaces ``,9.007,`` in a CSV, a preview or matrix diff that expects a price to move from one value
to another) reads this copy, so that a maintainer's legitimate change to ``data/`` never breaks it.
Tests of the site itself compare the HTML with whatever ``data/`` holds instead.
"""

from __future__ import annotations

import shutil
from pathlib import Path

FROZEN_DATA = Path(__file__).resolve().parent / "fixtures" / "frozen-data"


def frozen_copy(target: Path) -> Path:
    """A writable copy of the frozen data at ``target`` (which must not exist yet)."""
    shutil.copytree(FROZEN_DATA, target)
    return target
