"""Edits a test makes to a copy of the data as a maintainer would: found by id, never by value.

A test that changes a figure names the record and the column, and reads the old value from the
file, so that it keeps working whatever ``data/`` holds (``,9.007,`` replaced in a CSV breaks the
day the latency is re-measured; "the latency of run ``vit-inf1-b1``" does not).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:  # the loader refuses aliases
        return True


def edit_yaml(path: Path, edit: Callable[[Any], object]) -> None:
    """Change a copy of a data file: ``edit`` mutates the parsed document, which is written back
    (safely, in the document's order, without aliases, a value on one line however long)."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000),
                    encoding="utf-8")


def change_csv_cell(path: Path, record_id: str, column: str, change: Callable[[float], float],
                    decimals: int = 3) -> tuple[float, float]:
    """Set ``column`` of the row whose first cell is ``record_id`` to ``change(old)``, written with
    ``decimals`` decimals; returns (old, new). The rest of the file is written back as it was read."""
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    index = rows[0].index(column)
    [row] = [r for r in rows[1:] if r and r[0] == record_id]
    old = float(row[index])
    new = round(change(old), decimals)
    assert new != old, f"{record_id}.{column}: the change keeps {old}"
    row[index] = f"{new:.{decimals}f}"
    _write_rows(path, rows)
    return old, new


def set_csv_cell(path: Path, record_id: str, column: str, text: str) -> tuple[str, int]:
    """Set ``column`` of the row whose first cell is ``record_id`` to ``text``; returns (the old text,
    the row's line in the file). The rest of the file is written back as it was read."""
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    index = rows[0].index(column)
    [line] = [n for n, r in enumerate(rows[1:], start=2) if r and r[0] == record_id]
    old = rows[line - 1][index]
    rows[line - 1][index] = text
    _write_rows(path, rows)
    return old, line


def _write_rows(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
