"""JSON written in pieces, byte for byte ``json.dumps(value, indent=1, ensure_ascii=False)``.

A value may hold lazy parts: a :class:`Members` (an object produced one member at a time) or an
iterator (an array); :func:`json_pieces` encodes it without building it whole, and
:func:`write_if_changed` streams the pieces into a file, replacing it only when its bytes change.
No Sphinx here.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from pathlib import Path


class Members(NamedTuple):
    """A JSON object produced one member at a time: its ``(key, value)`` pairs, iterated once."""

    pairs: Iterable[tuple[str, Any]]


def built(value: Any) -> Any:
    """``value`` with its lazy parts built: plain JSON values."""
    if isinstance(value, Members):
        return {key: built(item) for key, item in value.pairs}
    if isinstance(value, Iterator):
        return [built(item) for item in value]
    return value


#: Encodes as ``json.dumps(value, indent=1, ensure_ascii=False)`` does (made once, not per call).
_ENCODER = json.JSONEncoder(indent=1, ensure_ascii=False)


def json_pieces(value: Any, depth: int = 0) -> Iterator[str]:
    """``json.dumps(value, indent=1, ensure_ascii=False)`` in pieces, for a value nested ``depth`` deep:
    a :class:`Members` or an iterator member by member, anything else in one piece."""
    if not isinstance(value, Members | Iterator):
        yield _ENCODER.encode(value).replace("\n", "\n" + " " * depth)
        return
    is_object = isinstance(value, Members)
    opening, closing = "{}" if is_object else "[]"
    inner, first = "\n" + " " * (depth + 1), True
    for member in value.pairs if isinstance(value, Members) else value:
        prefix = (opening if first else ",") + inner
        if is_object:
            key, member = member
            prefix += _ENCODER.encode(key) + ": "
        yield prefix
        yield from json_pieces(member, depth + 1)
        first = False
    yield opening + closing if first else "\n" + " " * depth + closing  # empty: [] / {} as json.dumps


def dumps(document: Any) -> str:
    """``document`` as the downloads write it: ``json.dumps(..., indent=1, ensure_ascii=False)``, a newline."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write_if_changed(path: Path, pieces: Iterable[str]) -> None:
    """Write ``pieces`` as UTF-8 to a temporary file beside ``path``; it replaces ``path`` only if
    the bytes differ (same size, then same SHA-256), so an unchanged file keeps its mtime."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    digest, size = hashlib.sha256(), 0
    try:
        with temporary.open("wb") as out:
            for piece in pieces:
                data = piece.encode("utf-8")
                digest.update(data)
                size += out.write(data)
        if path.is_file() and path.stat().st_size == size:
            with path.open("rb") as handle:  # read in chunks
                if hashlib.file_digest(handle, "sha256").digest() == digest.digest():
                    return
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)
