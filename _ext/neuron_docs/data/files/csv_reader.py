"""CSV data files: the standard library's :mod:`csv` in strict mode, every record with its line.

The header must name known columns; a row with the wrong number of fields, or a cell holding a
control or bidirectional-override character (see :func:`.loader.bad_character`), is a problem of
that row only. A line break inside a quoted cell is kept as ``\n`` whatever the file's line ends.
Time is linear in the size of the file, however many rows are broken. This module does not import
Sphinx.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from .loader import DataError, DataFileError, Positions, Problem, bad_character, character_message


def parse_csv(text: str, name: str, columns: list[str]) -> tuple[list[dict[str, Any]], Positions]:
    """Parse CSV text with a header row into records; empty cells become ``None``.

    The header must name only known ``columns``. Positions are keyed ``(row_index,)``: every cell of a
    row is on the row's line (:func:`~neuron_docs.data.checking.errors.nearest_line` finds a cell's).
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
    rows are skipped. Positions are keyed ``(row_index,)`` (a cell is on its row's line).
    """
    if not text.strip():
        msg = f"file is empty; expected a header row: {','.join(columns)}"
        raise DataFileError(DataError(name, None, "", msg))
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    records: list[dict[str, Any]] = []
    positions: Positions = {}
    problems: list[Problem] = []
    lines: list[str] | None = None  # split once, when a broken row needs its first cell
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if lines is None:
                lines = text.splitlines()
            if reader.line_num >= (len(lines) or 1) and "end of data" in str(exc):
                msg = (f"CSV syntax: the quoted field opened on line {start} is never closed; "
                       'expected a closing " (a " inside a quoted field is written "")')
                raise DataFileError(DataError(name, start, "", msg)) from None
            if header is None:
                raise DataFileError(DataError(name, start, "", f"CSV syntax: {exc}; expected a header row")) from None
            index = len(records)
            positions[(index,)] = start
            # Keep what can be told of the record (its first cell, usually the id) for the report.
            first = lines[start - 1].split(",", 1)[0].strip().strip('"')[:200] if start <= len(lines) else ""
            records.append({header[0]: first or None} if header else {})
            msg = f"CSV syntax: {exc}; expected fields separated by ',' (quote a field that holds , or \")"
            problems.append(((index,), DataError(name, start, "", msg)))
            continue
        if not any(cell.strip() for cell in row):
            continue
        cells = [cell.strip().replace("\r\n", "\n") for cell in row]
        bad = None if bad_character("".join(cells)) is None else next(  # one check per row in the common case
            ((column, found) for column, cell in enumerate(cells) if (found := bad_character(cell))), None)
        if header is None:
            if bad:
                raise DataFileError(DataError(name, start, "", f"header: {character_message(bad[1])}"))
            header = cells
            _check_header(header, name, start, columns, required)
            continue
        index = len(records)
        positions[(index,)] = start
        if bad:
            column = header[bad[0]] if bad[0] < len(header) else ""
            problems.append(((index,), DataError(name, start, column, character_message(bad[1]))))
            records.append({header[0]: cells[0] if bad[0] else None})
            continue
        record = {}
        for column, cell in zip(header, cells, strict=False):
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
