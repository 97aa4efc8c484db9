"""Build warnings as plain text: without terminal colours, without what is noise to a test."""

from __future__ import annotations

import re

_COLOURS = re.compile(r"\x1b\[[0-9;]*m")
_ALREADY_REGISTERED = re.compile(r"while setting up extension .* is already registered")


def without_colours(text: str) -> str:
    """``text`` without the terminal's colour codes (Sphinx colours its warnings)."""
    return _COLOURS.sub("", text)


def real_warnings(text: str) -> str:
    """Build warnings without Sphinx's notes that node classes were registered by an earlier build
    in this process (a test session runs several Sphinx applications in one process)."""
    return "".join(line for line in text.splitlines(keepends=True) if not _ALREADY_REGISTERED.search(line))
