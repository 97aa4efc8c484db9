"""JSON written in pieces, byte for byte ``json.dumps(value, indent=1, ensure_ascii=False)``.

A value may hold lazy parts: a :class:`Members` (an object produced one member at a time) or an
iterator (an array); :func:`json_pieces` encodes it without building it whole, and
:func:`write_if_changed` streams the pieces into a file, replacing it only when its bytes change;
:func:`write_made_from` does so for a file made from the data alone, copying it from an earlier
build of this process when the data's bytes were the same. No Sphinx here.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
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


#: Types that are never lazy (checked first: an ``Iterator`` check is slow).
_PLAIN = (dict, list, str, int, float, type(None))
#: Plain members encoded by the C encoder in one call: few pieces, each a few hundred kilobytes at most.
CHUNK = 1000


def _members_text(batch: dict[Any, Any] | list[Any], depth: int) -> str:
    """The members of ``batch`` as ``json.dumps`` writes them inside an object or array nested ``depth``
    deep: ``\n<indent>first,\n<indent>second`` (without the brackets)."""
    text = _ENCODER.encode(batch)  # "{\n m1,\n m2\n}": newlines only between members (strings escape theirs)
    if depth:
        text = text.replace("\n", "\n" + " " * depth)
    return text[1:-(depth + 2)]  # without the opening bracket and "\n<indent>}"


def json_pieces(value: Any, depth: int = 0) -> Iterator[str]:
    """``json.dumps(value, indent=1, ensure_ascii=False)`` in pieces, for a value nested ``depth`` deep.

    A :class:`Members` or an iterator is written member by member: plain members (anything but
    another lazy part) are gathered :data:`CHUNK` at a time and encoded together by the standard
    library's C encoder, a lazy member is written in pieces of its own. Anything else is one piece.
    """
    if not isinstance(value, Members | Iterator):
        text = _ENCODER.encode(value)
        yield text.replace("\n", "\n" + " " * depth) if depth else text
        return
    is_object = isinstance(value, Members)
    opening, closing = "{}" if is_object else "[]"
    inner, first = "\n" + " " * (depth + 1), True
    batch: dict[Any, Any] | list[Any] = {} if is_object else []
    for member in value.pairs if isinstance(value, Members) else value:
        key, item = member if is_object else (None, member)
        lazy = not isinstance(item, _PLAIN) and isinstance(item, Members | Iterator)
        if batch and (lazy or len(batch) >= CHUNK or (is_object and key in batch)):  # a repeated key: as written
            yield (opening if first else ",") + _members_text(batch, depth)
            batch, first = {} if is_object else [], False
        if lazy:
            yield (opening if first else ",") + inner + (_ENCODER.encode(key) + ": " if is_object else "")
            yield from json_pieces(item, depth + 1)
            first = False
        elif isinstance(batch, dict):
            batch[key] = item
        else:
            batch.append(item)
    if batch:
        yield (opening if first else ",") + _members_text(batch, depth)
        first = False
    yield opening + closing if first else "\n" + " " * depth + closing  # empty: [] / {} as json.dumps


def dumps(document: Any) -> str:
    """``document`` as the downloads write it: ``json.dumps(..., indent=1, ensure_ascii=False)``, a newline."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write_if_changed(path: Path, pieces: Iterable[str]) -> None:
    """Write ``pieces`` as UTF-8 to a temporary file beside ``path``; it replaces ``path`` only if the
    bytes differ (compared with the old file's as they are written), so an unchanged file keeps its mtime."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with contextlib.ExitStack() as files:
            old = files.enter_context(path.open("rb")) if path.is_file() else None
            out = files.enter_context(temporary.open("wb"))
            same = old is not None
            for piece in pieces:
                data = piece.encode("utf-8")
                out.write(data)
                same = same and old is not None and old.read(len(data)) == data
            if same and old is not None and not old.read(1):
                return
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


class MadeFiles:
    """The files made from the data alone that this process wrote, by (file name, the data's
    content key): where each was written, and its size and mtime then.

    Process-wide on purpose, unlike what a build keeps (its domain's
    :class:`~neuron_docs.state.build.BuildState`, made afresh per build): it serves the next build
    of the same data in this process (a preview server, the test suite's many builds into other
    output directories), which copies the bytes an earlier build wrote instead of making them again
    (about 0.3 s a build). It holds no data of a build, only where files are: a file's bytes are a
    function of the data's content key and of the code this process runs, and a copy is taken only
    while the earlier file is unchanged (same size and mtime); else the file is made again.
    """

    def __init__(self) -> None:
        self._written: dict[tuple[str, str], tuple[Path, int, int]] = {}

    def write(self, path: Path, content_key: str, pieces: Callable[[], Iterable[str]]) -> None:
        """:func:`write_if_changed` for a file made from the data alone, copied from the one an earlier
        build of this process wrote for the same name and key when that file is unchanged."""
        earlier = self._written.get((path.name, content_key))
        if earlier is not None and _stamp(earlier[0]) == earlier[1:]:
            if earlier[0] == path:
                return  # this process made this very file from this data, and it is as it was made
            with earlier[0].open(encoding="utf-8", newline="") as source:
                write_if_changed(path, iter(lambda: source.read(1 << 20), ""))
        else:
            write_if_changed(path, pieces())
        stamp = _stamp(path)
        if stamp is not None:
            self._written[(path.name, content_key)] = (path, *stamp)

    def clear(self) -> None:
        """Forget every file written (the next build makes its files again)."""
        self._written.clear()


#: This process's register of the files it made from the data (:class:`MadeFiles`).
MADE_FILES = MadeFiles()


def write_made_from(path: Path, content_key: str, pieces: Callable[[], Iterable[str]]) -> None:
    """:func:`write_if_changed` for a file made from the data alone (its bytes a function of the data's
    :attr:`~neuron_docs.data.dataset.DataSet.content_key`), through this process's :data:`MADE_FILES`."""
    MADE_FILES.write(path, content_key, pieces)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns
