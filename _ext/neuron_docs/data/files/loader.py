"""Reading data files safely: their bytes and text, and the located errors every reader reports.

Every reader of a data file goes through :func:`read_data_file`, which refuses before reading
anything that is not a regular file inside the data directory: a symbolic link (or a linked folder)
leading outside it, a FIFO, a device, a socket, a folder, a file larger than
:data:`MAX_FILE_BYTES`. It never blocks (FIFOs are refused from ``stat`` and files are opened with
``O_NONBLOCK``) and never reads more than ``MAX_FILE_BYTES + 1`` bytes. :func:`read_text` decodes
those bytes as UTF-8; :func:`file_digest` hashes them for cache keys. :mod:`.yaml_reader` and
:mod:`.csv_reader` turn the text into plain Python values with the line of every value. Problems
are :class:`DataError` naming the file, line and field, never a parser traceback, and never
quoting a refused file's content. This module does not import Sphinx.

Two levels of problem are told apart. A problem that makes the whole file unreadable (a YAML or
CSV syntax error, an alias, a file that is missing, too large, not a regular file or not UTF-8, a
bad CSV header) raises :class:`DataFileError`. A problem confined to one place (a duplicate key, a
merge key, a disallowed tag or character, a CSV row with the wrong number of fields) is returned by
the readers with its key path, so that the catalog can set aside just the record that holds it.
"""

from __future__ import annotations

import hashlib
import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any


#: Largest data file read, in bytes; larger files are refused rather than parsed. A file whose
#: size grows with the data by design (the benchmark history's long-format CSVs) declares its own
#: bound with its spec (``catalog.FileSpec.max_bytes``); every other file has this one.
MAX_FILE_BYTES = 4 * 1024 * 1024

#: Where each value came from: a key path (mapping keys and list indexes) -> 1-based line. A value on
#: the line of the value holding it has no entry of its own (a CSV cell, a field of a record written
#: on one line): its line is read with ``checking.errors.nearest_line``, never by indexing.
Positions = dict[tuple[Any, ...], int]

#: A problem confined to one place in a file: the key path it is at, and the error.
Problem = tuple[tuple[Any, ...], "DataError"]

_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))


@dataclass(frozen=True, order=True)
class DataError:
    """One problem in a data file, located to the line and field a writer must fix."""

    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


class DataFileError(Exception):
    """A whole file could not be read; carries the :class:`DataError` that says why."""

    def __init__(self, error: DataError) -> None:
        super().__init__(str(error))
        self.error = error


def _refuse(name: str, message: str, line: int | None = None) -> DataFileError:
    return DataFileError(DataError(name, line, "", message))


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words (``None`` for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _too_large(name: str, size: str, max_bytes: int) -> DataFileError:
    bound = "MAX_FILE_BYTES" if max_bytes == MAX_FILE_BYTES else "the bound stated for this file: catalog.HISTORY_BOUNDS"
    return _refuse(name, f"file is {size} bytes; expected at most {max_bytes} bytes ({bound})")


def read_data_file(path: Path | str, name: str, data_dir: Path | str | None = None,
                   max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the data file ``path`` (called ``name`` in messages), read safely.

    Refused with :class:`DataFileError`, before a byte is read: a missing file; a path that
    resolves outside ``data_dir`` (through a symbolic link to a file or a folder; the default
    ``data_dir`` is the file's own folder); anything but a regular file (FIFO, device, socket,
    folder); a file larger than ``max_bytes`` (:data:`MAX_FILE_BYTES` unless the file's spec
    declares its own bound). The file is opened without following a link and without blocking,
    checked again once open, and read up to ``max_bytes + 1`` bytes, so a file that grows while
    being read is refused too. The content of a refused file
    is never read, so never quoted.
    """
    path = Path(path)
    root = Path(data_dir) if data_dir is not None else path.parent
    try:
        os.lstat(path)
    except FileNotFoundError:
        raise _refuse(name, "file is missing; expected a data file here") from None
    except OSError as exc:
        raise _refuse(name, f"file cannot be read ({exc.strerror or exc}); expected a readable data file") from None
    try:
        real_root = root.resolve(strict=True)
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise _refuse(name, "file is a symbolic link to nothing (its target is missing); "
                            "expected a data file here") from None
    except (OSError, RuntimeError):  # a loop of links, a folder that cannot be searched
        raise _refuse(name, "file cannot be resolved (a loop of symbolic links?); "
                            "expected a data file here") from None
    if not real.is_relative_to(real_root):
        raise _refuse(name, "file is a symbolic link leading outside the data folder (not followed); "
                            "expected a regular file inside the data folder")
    try:
        before = os.stat(real, follow_symlinks=False)
    except OSError as exc:
        raise _refuse(name, f"file cannot be read ({exc.strerror or exc}); expected a readable data file") from None
    kind = _kind(before.st_mode)
    if kind:
        raise _refuse(name, f"file is {kind}; expected a regular file")
    if before.st_size > max_bytes:
        raise _too_large(name, str(before.st_size), max_bytes)
    try:
        fd = os.open(real, _OPEN_FLAGS)
    except OSError as exc:
        raise _refuse(name, f"file cannot be read ({exc.strerror or exc}); expected a readable data file") from None
    try:
        after = os.fstat(fd)
        if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino) or _kind(after.st_mode):
            raise _refuse(name, "file was replaced while being opened; expected a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except BlockingIOError:
        raise _refuse(name, "file cannot be read without waiting; expected a regular file") from None
    except OSError as exc:
        raise _refuse(name, f"file cannot be read ({exc.strerror or exc}); expected a readable data file") from None
    finally:
        os.close(fd)
    if size > max_bytes:  # grew since stat()
        raise _too_large(name, f"more than {max_bytes}", max_bytes)
    return b"".join(chunks)


#: Byte-order marks of encodings that are not UTF-8, as they begin a file.
_OTHER_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
               (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def read_text(path: Path | str, name: str, data_dir: Path | str | None = None, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the data file ``path``, read by :func:`read_data_file`.

    A leading UTF-8 byte-order mark is dropped. A file in UTF-16 or UTF-32 (with a byte-order
    mark, or mostly NUL bytes) and bytes that are not UTF-8 are refused, at their line.
    """
    raw = read_data_file(path, name, data_dir, max_bytes)
    for bom, encoding in _OTHER_BOMS:
        if raw.startswith(bom):
            raise _refuse(name, f"file is {encoding} text (it starts with a {encoding} byte-order mark); "
                                "expected UTF-8 text", 1)
    nuls = raw.count(b"\0")
    if nuls * 4 > len(raw) > 0:
        raise _refuse(name, f"file holds {nuls} NUL bytes in {len(raw)}; expected UTF-8 text "
                            "(is it saved as UTF-16?)", 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        msg = f"byte {raw[exc.start]:#04x} is not UTF-8; expected UTF-8 text"
        raise _refuse(name, msg, line) from None
    return text.removeprefix("\ufeff")


def file_digest(path: Path | str, data_dir: Path | str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A SHA-256 hex digest of the data file ``path`` for cache keys; never raises, never blocks.

    The bytes are read by :func:`read_data_file` (so a FIFO, a device or a link leaving
    ``data_dir`` is never opened); a file that is refused is digested by the reason it is refused
    (which includes its size when too large), so the key still changes when the file does.
    """
    path = Path(path)
    try:
        name = path.relative_to(data_dir).as_posix()
    except ValueError:
        name = path.name
    try:
        content = read_data_file(path, name, data_dir, max_bytes)
    except DataFileError as exc:
        return hashlib.sha256(f"\0refused\0{exc.error.message}".encode()).hexdigest()
    return hashlib.sha256(content).hexdigest()


# Characters in data text --------------------------------------------------------------------

#: Bidirectional embedding, override and isolate controls ("Trojan Source"): never in data text.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_CONTROL_NAMES = {0: "NUL", 7: "BEL", 8: "BACKSPACE", 11: "VERTICAL TAB", 12: "FORM FEED",
                  13: "CARRIAGE RETURN", 27: "ESCAPE", 127: "DELETE"}


def bad_character(text: str) -> tuple[int, str] | None:
    """The first character of ``text`` no data text may hold, as (index, description), or ``None``.

    Refused everywhere: control characters (C0 but tab and line feed, DEL, C1), lone surrogates
    and the bidirectional embedding, override and isolate controls (U+202A-U+202E,
    U+2066-U+2069). Ordinary Unicode text (accents, CJK, emoji, right-to-left scripts) is kept.
    """
    if text.isprintable():  # the common case, fast: no control, format or surrogate character
        return None
    for index, char in enumerate(text):
        code = ord(char)
        if char in "\t\n":
            continue
        if code < 0x20 or 0x7F <= code < 0xA0:
            label = _CONTROL_NAMES.get(code, "control character")
            return index, f"U+{code:04X} ({label})"
        if 0xD800 <= code < 0xE000:
            return index, f"U+{code:04X} (a lone surrogate)"
        if char in BIDI_CONTROLS:
            return index, f"U+{code:04X} ({unicodedata.name(char)})"
    return None


def character_message(found: tuple[int, str]) -> str:
    """Why text holding a refused character (see :func:`bad_character`) is an error."""
    index, what = found
    return (f"text holds {what} at character {index + 1}; expected printable text without control or "
            "bidirectional-override characters")


def dotted_path(path: tuple[Any, ...]) -> str:
    """A key path as written in messages: ``families[3].devices.trainium.fit``.

    Keys that are very long or hold characters that are not printable are shown escaped and cut.
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        text = str(part)
        if not text.isprintable() or len(text) > 80:
            text = repr(text[:60])[1:-1] + ("..." if len(text) > 60 else "")
        out += f".{text}" if out else text
    return out
