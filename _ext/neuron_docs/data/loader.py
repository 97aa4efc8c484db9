"""Reading data files: YAML and CSV into plain Python values with the line of every value.

YAML is read with PyYAML's safe loader, and stricter still: aliases, merge keys, duplicate keys and
tags other than the standard scalar ones are errors. CSV is read with the standard library's
:mod:`csv` module in strict mode, so every record keeps the line it starts on. Problems are
reported as :class:`DataError` naming the file and line, never as a parser traceback. This module
does not import Sphinx.

Two levels of problem are told apart. A problem that makes the whole file unreadable (a YAML or
CSV syntax error, an alias, a file that is missing, too large or not UTF-8, a bad CSV header)
raises :class:`DataFileError`. A problem confined to one place (a duplicate key, a merge key, a
disallowed tag, a CSV row with the wrong number of fields) is returned by :func:`read_yaml` and
:func:`read_csv` with its key path, so that the catalog can set aside just the record that holds it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

#: Largest data file read, in bytes; larger files are refused rather than parsed.
MAX_FILE_BYTES = 4 * 1024 * 1024

#: Deepest nesting of YAML mappings and lists accepted (the data needs fewer than ten levels).
MAX_DEPTH = 64

#: Where each value came from: a key path (mapping keys and list indexes) -> 1-based line.
Positions = dict[tuple[Any, ...], int]

#: A problem confined to one place in a file: the key path it is at, and the error.
Problem = tuple[tuple[Any, ...], "DataError"]

_SAFE_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}
_MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"  # a plain "=" (YAML 1.1 value key): read as the text "="


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


# YAML ------------------------------------------------------------------------------------------

class _StrictLoader(yaml.SafeLoader):
    """The safe loader, refusing aliases (and so alias bombs) and deep nesting while composing."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                problem="aliases (*name) are not allowed in data files; expected the value written out",
                problem_mark=event.start_mark,
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.MarkedYAMLError(
                    problem=f"values are nested more than {MAX_DEPTH} levels deep; expected a flatter structure",
                    problem_mark=self.peek_event().start_mark,
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def parse_yaml(text: str, name: str) -> tuple[Any, Positions]:
    """Parse YAML text into plain values and the line of each value; raise on any problem."""
    value, positions, problems = read_yaml(text, name)
    if problems:
        raise DataFileError(problems[0][1])
    return value, positions


def read_yaml(text: str, name: str) -> tuple[Any, Positions, list[Problem]]:
    """Parse YAML text into plain values, the line of each value and the problems found in places.

    Raises :class:`DataFileError` when the text cannot be parsed at all.
    """
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        positions: Positions = {}
        problems: list[Problem] = []
        value = _convert(loader, node, (), positions, problems, name) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or "invalid YAML"
        if exc.context:
            context_line = exc.context_mark.line + 1 if exc.context_mark else None
            at = f" (line {context_line})" if context_line and context_line != line else ""
            problem = f"{exc.context}{at}: {problem}"
        raise DataFileError(DataError(name, line, "", f"YAML syntax: {problem}")) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
        character = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        msg = f"YAML syntax: character {character} is not allowed; expected printable text"
        raise DataFileError(DataError(name, line, "", msg)) from None
    except yaml.YAMLError as exc:
        raise DataFileError(DataError(name, None, "", f"YAML syntax: {exc}")) from None
    except RecursionError:
        msg = f"YAML syntax: values are nested too deeply; expected at most {MAX_DEPTH} levels"
        raise DataFileError(DataError(name, None, "", msg)) from None
    finally:
        loader.dispose()
    return value, positions, problems


def _convert(loader: yaml.SafeLoader, node: Any, path: tuple[Any, ...], positions: Positions,
             problems: list[Problem], name: str) -> Any:
    line = node.start_mark.line + 1
    positions[path] = line
    where = dotted_path(path)
    if isinstance(node, MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            problems.append((path, DataError(name, line, where, _tag_message(node.tag))))
            return None
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if isinstance(key_node, ScalarNode) and key_node.tag == _MERGE_TAG:
                msg = "merge keys (<<) are not allowed in data files; expected the keys written out"
                problems.append(((*path, "<<"), DataError(name, key_line, dotted_path((*path, "<<")), msg)))
                continue
            if not isinstance(key_node, ScalarNode):
                msg = "keys must be plain names; expected a name before the ':', not a list or mapping"
                problems.append((path, DataError(name, key_line, where, msg)))
                continue
            if key_node.tag not in _SAFE_SCALAR_TAGS and key_node.tag != _VALUE_TAG:
                key_path = (*path, key_node.value)
                problems.append((key_path, DataError(name, key_line, dotted_path(key_path),
                                                     _tag_message(key_node.tag))))
                continue
            key = key_node.value
            key_path = (*path, key)
            if key in out:
                first = positions[key_path]
                msg = f"duplicate key {key!r} (the first is on line {first}); expected each key once"
                problems.append((key_path, DataError(name, key_line, dotted_path(key_path), msg)))
                continue
            out[key] = _convert(loader, value_node, key_path, positions, problems, name)
            positions[key_path] = min(positions[key_path], key_line)
        return out
    if isinstance(node, SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            problems.append((path, DataError(name, line, where, _tag_message(node.tag))))
            return None
        return [_convert(loader, item, (*path, i), positions, problems, name) for i, item in enumerate(node.value)]
    if node.tag == _VALUE_TAG:
        return node.value
    if node.tag not in _SAFE_SCALAR_TAGS:
        problems.append((path, DataError(name, line, where, _tag_message(node.tag))))
        return None
    try:
        return loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError, TypeError):
        # e.g. an impossible date (2023-02-30) or an integer too long to convert: keep the text,
        # and let the record's schema say what was expected there.
        return node.value


def _tag_message(tag: str) -> str:
    return (f"tag {tag} is not allowed in data files; expected plain text, numbers, dates, "
            "true/false, lists and mappings")


# CSV -------------------------------------------------------------------------------------------

def parse_csv(text: str, name: str, columns: list[str]) -> tuple[list[dict[str, Any]], Positions]:
    """Parse CSV text with a header row into records; empty cells become ``None``.

    The header must name only known ``columns``. Positions are keyed ``(row_index, column)``.
    Raises :class:`DataFileError` on any problem.
    """
    records, positions, problems = read_csv(text, name, columns)
    if problems:
        raise DataFileError(problems[0][1])
    return records, positions


def read_csv(text: str, name: str, columns: list[str], required: list[str] | tuple[str, ...] = (),
             ) -> tuple[list[dict[str, Any]], Positions, list[Problem]]:
    """Parse CSV text into records, the line of each record, and problems confined to one row.

    The header row must name known ``columns`` only, each once, including every ``required`` one;
    otherwise, and on a quote that is never closed, :class:`DataFileError` is raised. A row with the
    wrong number of fields, or a stray quote inside a row, is a problem at ``(row_index,)``. Blank
    rows are skipped. Positions are keyed ``(row_index,)`` and ``(row_index, column)``.
    """
    if not text.strip():
        msg = f"file is empty; expected a header row: {','.join(columns)}"
        raise DataFileError(DataError(name, None, "", msg))
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    records: list[dict[str, Any]] = []
    positions: Positions = {}
    problems: list[Problem] = []
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if reader.line_num >= _line_count(text) and "end of data" in str(exc):
                msg = (f"CSV syntax: the quoted field opened on line {start} is never closed; "
                       'expected a closing " (a " inside a quoted field is written "")')
                raise DataFileError(DataError(name, start, "", msg)) from None
            if header is None:
                raise DataFileError(DataError(name, start, "", f"CSV syntax: {exc}; expected a header row")) from None
            index = len(records)
            positions[(index,)] = start
            records.append({})
            msg = f"CSV syntax: {exc}; expected fields separated by ',' (quote a field that holds , or \")"
            problems.append(((index,), DataError(name, start, "", msg)))
            continue
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [cell.strip() for cell in row]
            _check_header(header, name, start, columns, required)
            continue
        index = len(records)
        cells = [cell.strip() for cell in row]
        positions[(index,)] = start
        record = {}
        for column, cell in zip(header, cells, strict=False):
            positions[(index, column)] = start
            record[column] = cell if cell else None
        records.append(record)
        if len(cells) != len(header):
            msg = (f"row has {len(cells)} fields; expected {len(header)}, one per column of the header "
                   f"({','.join(header)})")
            problems.append(((index,), DataError(name, start, "", msg)))
    if header is None:
        msg = f"file has no rows; expected a header row: {','.join(columns)}"
        raise DataFileError(DataError(name, None, "", msg))
    return records, positions, problems


def _check_header(header: list[str], name: str, line: int, columns: list[str], required: Any) -> None:
    import difflib

    seen: set[str] = set()
    for position, column in enumerate(header, start=1):
        if not column:
            msg = f"column {position} of the header has no name; expected one of: {', '.join(columns)}"
            raise DataFileError(DataError(name, line, "", msg))
        if column in seen:
            msg = f"duplicate column {column!r}; expected each column once"
            raise DataFileError(DataError(name, line, column, msg))
        seen.add(column)
        if column not in columns:
            close = difflib.get_close_matches(column, columns, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            msg = f"unknown column {column!r}{hint}; expected columns: {', '.join(columns)}"
            raise DataFileError(DataError(name, line, column, msg))
    missing = [c for c in required if c not in seen]
    if missing:
        msg = f"missing column{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}; " \
              f"expected columns: {', '.join(columns)}"
        raise DataFileError(DataError(name, line, missing[0], msg))


def _line_count(text: str) -> int:
    return len(text.splitlines()) or 1


def dotted_path(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


