"""Reading data files: their text, and the located errors every reader reports.

A data file is read as UTF-8 text (:func:`read_text`, which refuses missing, oversized and
non-UTF-8 files); :mod:`.yaml_reader` and :mod:`.csv_reader` turn the text into plain Python values
with the line of every value. Problems are :class:`DataError` naming the file, line and field,
never a parser traceback. This module does not import Sphinx.

Two levels of problem are told apart. A problem that makes the whole file unreadable (a YAML or
CSV syntax error, an alias, a file that is missing, too large or not UTF-8, a bad CSV header)
raises :class:`DataFileError`. A problem confined to one place (a duplicate key, a merge key, a
disallowed tag, a CSV row with the wrong number of fields) is returned by the readers with its key
path, so that the catalog can set aside just the record that holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


#: Largest data file read, in bytes; larger files are refused rather than parsed.
MAX_FILE_BYTES = 4 * 1024 * 1024

#: Where each value came from: a key path (mapping keys and list indexes) -> 1-based line.
Positions = dict[tuple[Any, ...], int]

#: A problem confined to one place in a file: the key path it is at, and the error.
Problem = tuple[tuple[Any, ...], "DataError"]

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


def read_text(path: Path, name: str) -> str:
    """Return the UTF-8 text of ``path``; refuse missing, oversized and non-UTF-8 files.

    A leading byte-order mark is dropped.
    """
    try:
        if not path.is_file():
            raise FileNotFoundError(path)
        size = path.stat().st_size
    except OSError:
        raise DataFileError(DataError(name, None, "", "file is missing; expected a data file here")) from None
    if size > MAX_FILE_BYTES:
        msg = f"file is {size} bytes; expected at most {MAX_FILE_BYTES} bytes (MAX_FILE_BYTES)"
        raise DataFileError(DataError(name, None, "", msg))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataFileError(DataError(name, None, "", f"file cannot be read: {exc.strerror or exc}")) from None
    if len(raw) > MAX_FILE_BYTES:  # grew since stat()
        msg = f"file is {len(raw)} bytes; expected at most {MAX_FILE_BYTES} bytes (MAX_FILE_BYTES)"
        raise DataFileError(DataError(name, None, "", msg))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        msg = f"byte {raw[exc.start]:#04x} is not UTF-8; expected UTF-8 text"
        raise DataFileError(DataError(name, line, "", msg)) from None
    return text.removeprefix("\ufeff")


def dotted_path(path: tuple[Any, ...]) -> str:
    """A key path as written in messages: ``families[3].devices.trainium.fit``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
