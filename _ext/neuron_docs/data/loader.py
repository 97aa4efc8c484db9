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
import re
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
    fast = _compose_with_libyaml(text)
    if fast is not None:
        loader, node = fast
        positions: Positions = {}
        problems: list[Problem] = []
        try:
            return _convert(loader, node, (), positions, problems, name), positions, problems
        finally:
            loader.dispose()
    try:
        loader = _StrictLoader(text)
    except yaml.reader.ReaderError as exc:
        raise DataFileError(_reader_error(exc, text, name)) from None
    try:
        node = loader.get_single_node()
        positions = {}
        problems = []
        value = _convert(loader, node, (), positions, problems, name) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        raise DataFileError(_syntax_error(exc, name)) from None
    except yaml.reader.ReaderError as exc:
        raise DataFileError(_reader_error(exc, text, name)) from None
    except yaml.YAMLError as exc:
        raise DataFileError(DataError(name, None, "", f"YAML syntax: {exc}")) from None
    except RecursionError:
        msg = f"YAML syntax: values are nested too deeply; expected at most {MAX_DEPTH} levels"
        raise DataFileError(DataError(name, None, "", msg)) from None
    finally:
        loader.dispose()
    return value, positions, problems


_NOT_FLOW = re.compile(r"[^\[\]{}]+")


def _compose_with_libyaml(text: str) -> tuple[yaml.CSafeLoader, Any] | None:
    """The node tree composed by libyaml (several times faster), or ``None`` for the careful path.

    Only well-formed, alias-free, shallow documents take this path; anything else (a syntax error,
    an alias, deep nesting) is composed again by :class:`_StrictLoader`, which says exactly what is
    wrong and where. Flow nesting is bounded before libyaml sees the text, so its recursion is too.
    """
    if not getattr(yaml, "__with_libyaml__", False) or _flow_depth(text) > MAX_DEPTH:
        return None
    try:
        loader = yaml.CSafeLoader(text)
    except (yaml.YAMLError, ValueError):
        return None
    try:
        node = loader.get_single_node()
    except (yaml.YAMLError, ValueError):  # ValueError: e.g. text that cannot be encoded (surrogates)
        loader.dispose()
        return None
    if node is None or not _plain_tree(node):
        loader.dispose()
        return None
    return loader, node


def _flow_depth(text: str) -> int:
    """An upper bound of the bracket nesting of ``text`` (brackets in strings count too)."""
    depth = deepest = 0
    for char in _NOT_FLOW.sub("", text):
        depth = depth + 1 if char in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


def _plain_tree(root: Any) -> bool:
    """True when no node is reached twice (an alias) and nothing is nested deeper than allowed."""
    seen: set[int] = set()
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or depth > MAX_DEPTH:
            return False
        seen.add(id(node))
        if isinstance(node, MappingNode):
            for key, value in node.value:
                stack.extend(((key, depth + 1), (value, depth + 1)))
        elif isinstance(node, SequenceNode):
            stack.extend((item, depth + 1) for item in node.value)
    return True


def _syntax_error(exc: yaml.MarkedYAMLError, name: str) -> DataError:
    """Locate a YAML syntax error where the writer must look.

    Inside a flow collection ([...] or {...}) or a quoted or block scalar, the mistake (a missing
    bracket or quote) is usually where that construct starts, not where the parser gave up.
    """
    problem_line = exc.problem_mark.line + 1 if exc.problem_mark else None
    context_line = exc.context_mark.line + 1 if exc.context_mark else None
    problem = exc.problem or "invalid YAML"
    starts_at_context = bool(exc.context) and any(w in exc.context for w in ("flow", "quoted", "scanning a"))
    line = (context_line if starts_at_context else problem_line) or problem_line or context_line
    if exc.context:
        problem = f"{exc.context}: {problem}"
    other = problem_line if line == context_line else context_line
    if other and other != line:
        problem += f" (on line {other})"
    if "expected" not in problem:
        problem += "; expected valid YAML (check the indentation, quotes and brackets)"
    return DataError(name, line, "", f"YAML syntax: {problem}")


def _reader_error(exc: yaml.reader.ReaderError, text: str, name: str) -> DataError:
    line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
    character = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
    return DataError(name, line, "", f"YAML syntax: character {character} is not allowed; expected printable text")


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
            # Keep what can be told of the record (its first cell, usually the id) for the report.
            lines = text.splitlines()
            first = lines[start - 1].split(",", 1)[0].strip().strip('"') if start <= len(lines) else ""
            records.append({header[0]: first or None} if header else {})
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


