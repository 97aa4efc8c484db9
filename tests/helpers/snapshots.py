"""Snapshots: a doctree as stable text, compared with a stored file, or written anew on request.

As sphinx-design tests its components (``tests/test_snippets.py``: ``doctree.pformat()`` compared by
pytest-regressions' ``file_regression``), without the dependency: :func:`check_snapshot` fails with a
diff when the text differs from the file, and writes the file instead when the environment sets
``NEURON_UPDATE_SNAPSHOTS=1`` (``make snapshots``; review the change with ``git diff`` before committing it).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from docutils import nodes

#: The environment variable that makes :func:`check_snapshot` write the snapshots instead of comparing.
UPDATE = "NEURON_UPDATE_SNAPSHOTS"
#: The most lines of a diff a failure shows.
DIFF_LINES = 80


def updating() -> bool:
    """Whether this run writes the snapshots anew (``NEURON_UPDATE_SNAPSHOTS=1``)."""
    return os.environ.get(UPDATE, "") not in ("", "0")


def doctree_text(content: Iterable[nodes.Node], replace: Mapping[str, str] | None = None) -> str:
    """``content`` as docutils' pseudo-XML (``pformat``), with each key of ``replace`` (a temporary
    path, say) replaced by its value, so that the text is the same on every machine."""
    text = "".join(node.pformat() for node in content)
    for old, new in (replace or {}).items():
        text = text.replace(old, new)
    return text


def check_snapshot(path: Path, text: str) -> None:
    """Fail, with a diff, unless ``text`` is what ``path`` holds; write it there instead when
    :func:`updating`."""
    if updating():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no snapshot {path.name} in {path.parent}: write it with `make snapshots` ({UPDATE}=1)",
                    pytrace=False)
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = list(difflib.unified_diff(expected.splitlines(keepends=True), text.splitlines(keepends=True),
                                         f"{path.name} (stored)", f"{path.name} (now)", n=2))
        more = f"... ({len(diff) - DIFF_LINES} more lines)\n" if len(diff) > DIFF_LINES else ""
        pytest.fail(f"{path.name} changed; if the change is meant, write the snapshots again with `make snapshots` "
                    f"({UPDATE}=1) and review them with git diff:\n{''.join(diff[:DIFF_LINES])}{more}", pytrace=False)
