"""Reading data files: YAML and CSV into plain Python values with the line of every value.

YAML is read with PyYAML's safe loader, and stricter still: aliases, merge keys, duplicate keys and
tags other than the standard scalar ones are errors. Problems are raised as :class:`DataError`
naming the file and line, never as a parser traceback. This module does not import Sphinx.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

#: Largest data file read, in bytes; larger files are refused rather than parsed.
MAX_FILE_BYTES = 4 * 1024 * 1024

#: Where each value came from: a key path (mapping keys and list indexes) -> 1-based line.
Positions = dict[tuple[Any, ...], int]

_SAFE_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}


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
    """Return the UTF-8 text of ``path``; refuse missing, oversized and non-UTF-8 files."""
    try:
        size = path.stat().st_size
    except OSError:
        raise DataFileError(DataError(name, None, "", "file is missing")) from None
    if size > MAX_FILE_BYTES:
        msg = f"file is {size} bytes; data files may be at most {MAX_FILE_BYTES} bytes"
        raise DataFileError(DataError(name, None, "", msg))
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        msg = f"byte {raw[exc.start]:#04x} is not UTF-8; data files must be UTF-8 text"
        raise DataFileError(DataError(name, line, "", msg)) from None


class _StrictLoader(yaml.SafeLoader):
    """The safe loader, refusing aliases (and so alias bombs) while composing."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                problem="aliases (*name) are not allowed in data files; write the value out",
                problem_mark=event.start_mark,
            )
        return super().compose_node(parent, index)


def parse_yaml(text: str, name: str) -> tuple[Any, Positions]:
    """Parse YAML text into plain values and the line of each value."""
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        positions: Positions = {}
        value = _convert(loader, node, (), positions, name) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or "invalid YAML"
        raise DataFileError(DataError(name, line, "", f"YAML syntax: {problem}")) from None
    except yaml.YAMLError as exc:
        raise DataFileError(DataError(name, None, "", f"YAML syntax: {exc}")) from None
    finally:
        loader.dispose()
    return value, positions


def _convert(loader: yaml.SafeLoader, node: Any, path: tuple[Any, ...], positions: Positions,
             name: str) -> Any:
    line = node.start_mark.line + 1
    positions[path] = line
    where = dotted_path(path)
    if isinstance(node, MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            raise DataFileError(DataError(name, line, where, f"tag {node.tag} is not allowed"))
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if not isinstance(key_node, ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                raise DataFileError(DataError(name, key_line, where, "keys must be plain names"))
            key = key_node.value
            if key in out:
                msg = f"duplicate key {key!r} (the first is on line {positions[(*path, key)]})"
                raise DataFileError(DataError(name, key_line, where, msg))
            out[key] = _convert(loader, value_node, (*path, key), positions, name)
            positions[(*path, key)] = min(positions[(*path, key)], key_line)
        return out
    if isinstance(node, SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise DataFileError(DataError(name, line, where, f"tag {node.tag} is not allowed"))
        return [_convert(loader, item, (*path, i), positions, name) for i, item in enumerate(node.value)]
    if node.tag not in _SAFE_SCALAR_TAGS:
        raise DataFileError(DataError(name, line, where, f"tag {node.tag} is not allowed"))
    try:
        return loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        raise DataFileError(DataError(name, line, where, f"cannot read value: {exc}")) from None


def parse_csv(text: str, name: str, columns: list[str]) -> tuple[list[dict[str, Any]], Positions]:
    """Parse CSV text with a header row into records; empty cells become ``None``.

    The header must name only known ``columns``. Positions are keyed ``(row_index, column)``.
    """
    if not text.strip():
        raise DataFileError(DataError(name, None, "", f"file is empty; expected a header row: {','.join(columns)}"))
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, skip_blank_lines=True)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise DataFileError(DataError(name, _line_in(str(exc)), "", f"CSV syntax: {exc}".strip())) from None
    unknown = [c for c in frame.columns if c not in columns]
    if unknown:
        msg = f"unknown column {unknown[0]!r}; expected columns: {', '.join(columns)}"
        raise DataFileError(DataError(name, 1, str(unknown[0]), msg))
    lines = _record_lines(text)
    records: list[dict[str, Any]] = []
    positions: Positions = {}
    for index, row in enumerate(frame.to_dict(orient="records")):
        line = lines[index] if index < len(lines) else index + 2
        positions[(index,)] = line
        record = {}
        for column, cell in row.items():
            positions[(index, column)] = line
            cell = cell.strip()
            record[column] = cell if cell else None
        records.append(record)
    return records, positions


def _record_lines(text: str) -> list[int]:
    """The 1-based line on which each data record (after the header) starts."""
    return [number for number, line in enumerate(text.splitlines(), start=1) if line.strip()][1:]


def _line_in(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


def dotted_path(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out

