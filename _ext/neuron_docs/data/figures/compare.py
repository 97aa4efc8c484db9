"""Comparing two data sets: every change between them that shows on the site (no Sphinx).

:func:`compare` takes two catalogs (the base of a pull request and its head, or two revisions)
and returns a :class:`MatrixDiff`: changed support cells and fits (the latest revision of the
support matrices on each side), added, removed and changed records of every collection, changed
header fields of ``families.yaml``, and every
figure of :func:`~neuron_docs.data.figures.values.build_values` that was added, removed or moved, derived
ones (cost per 1M inferences, measured ratios) included. Every change carries a stable key:

* ``("support", matrix, family, framework, workload)`` and ``("fit", matrix, family)``: matrix cells;
* ``("record", collection, id)``: a record added, removed or changed;
* ``("header", field[, device])``: a field of the families header;
* ``("value", path)``: a figure, by its ``kind:id:field`` path.

Previews mark changed places by these keys; :mod:`neuron_docs.preview.report` renders the diff.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from ..catalog import COLLECTIONS, Catalog
from .formatting import format_number, round_half_up
from .values import Value, build_values

SCHEMA_VERSION = 2


# Comparing ----------------------------------------------------------------------------------------

Key = tuple[str, ...]


@dataclass(frozen=True)
class CellChange:
    """A support cell, a fit or a header field: ``old -> new`` (None where absent)."""

    key: Key
    old: str | None
    new: str | None
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecordChange:
    key: Key
    change: str  # added | removed | changed
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class ValueChange:
    key: Key
    change: str  # added | removed | changed
    label: str
    unit: str
    derived: bool
    collection: str
    record: str
    old: float | None
    new: float | None
    old_text: str | None
    new_text: str | None
    relative_change_percent: float | None  # None if added, removed, from 0 or with a new unit


@dataclass
class MatrixDiff:
    base: str
    head: str
    support: list[CellChange] = field(default_factory=list)
    fit: list[CellChange] = field(default_factory=list)
    header: list[CellChange] = field(default_factory=list)
    records: list[RecordChange] = field(default_factory=list)
    values: list[ValueChange] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # data errors at head that base did not have

    def changes(self) -> list[CellChange | RecordChange | ValueChange]:
        return [*self.support, *self.fit, *self.header, *self.records, *self.values]

    def changed_keys(self) -> frozenset[Key]:
        """The key of every change, for marking changed cells and figures on pages."""
        return frozenset(c.key for c in self.changes())

    def is_empty(self) -> bool:
        return not self.changes() and not self.errors

    def to_json(self) -> dict[str, Any]:
        """The ``--format json`` document (schema version 1; printed with sorted keys).

        ``base``/``head``: labels (``rev (commit)``, ``working tree`` or a directory); ``changed``:
        bool; ``summary``: counts per list; every list entry has ``key`` (a list) and, besides:
        ``support``: matrix, family, framework, workload, old, new (status or null), fields (what
        changed: status, note, link, annotation); ``fit``: matrix, family, old, new, fields (fit);
        ``header``: field, old, new; ``records``: collection, id,
        change (added|removed|changed), fields; ``values``: path, change, label, unit, derived,
        collection, record, old, new (numbers or null), old_text, new_text (as formatted),
        relative_change_percent (2 decimals or null); ``errors``: strings; ``keys``: every key.
        """
        def row(change: Any, **extra: Any) -> dict[str, Any]:
            data = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(change).items()}
            return {**data, **extra}

        return {
            "schema_version": SCHEMA_VERSION,
            "base": self.base,
            "head": self.head,
            "changed": not self.is_empty(),
            "summary": {name: len(getattr(self, name)) for name in
                        ("support", "fit", "header", "records", "values", "errors")},
            "support": [row(c, matrix=c.key[1], family=c.key[2], framework=c.key[3], workload=c.key[4])
                        for c in self.support],
            "fit": [row(c, matrix=c.key[1], family=c.key[2]) for c in self.fit],
            "header": [row(c, field=".".join(c.key[1:])) for c in self.header],
            "records": [row(c, collection=c.key[1], id=c.key[2]) for c in self.records],
            "values": [row(c, path=c.key[1], relative_change_percent=None if c.relative_change_percent is None
                           else float(round_half_up(c.relative_change_percent, 2))) for c in self.values],
            "errors": list(self.errors),
            "keys": [list(k) for k in sorted(self.changed_keys())],
        }


def _dump(record: Any) -> dict[str, Any]:
    return record.model_dump(mode="json", exclude_none=True) if record is not None else {}


def _changed_fields(old: dict[str, Any], new: dict[str, Any], skip: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(sorted(k for k in old.keys() | new.keys() if k not in skip and old.get(k) != new.get(k)))


def _compare_matrix(base: Catalog, head: Catalog, diff: MatrixDiff) -> None:
    """Cells and fits of the latest revision on each side, matched by matrix, family and column."""
    old_rev, new_rev = base.revision(), head.revision()
    old_cells = old_rev.cells() if old_rev else {}
    new_cells = new_rev.cells() if new_rev else {}
    for ident in sorted(old_cells.keys() | new_cells.keys()):
        old_cell, new_cell = _dump(old_cells.get(ident)), _dump(new_cells.get(ident))
        if fields := _changed_fields(old_cell, new_cell):
            matrix, family, column = ident
            diff.support.append(CellChange(("support", matrix, family, *column.split("/")),
                                           old_cell.get("status"), new_cell.get("status"), fields))
    old_rows = {(m.id, r.family): r for m in (old_rev.matrices if old_rev else []) for r in m.rows}
    new_rows = {(m.id, r.family): r for m in (new_rev.matrices if new_rev else []) for r in m.rows}
    for matrix, family in sorted(old_rows.keys() | new_rows.keys()):
        old_row, new_row = old_rows.get((matrix, family)), new_rows.get((matrix, family))
        old_fit, new_fit = old_row.fit if old_row else None, new_row.fit if new_row else None
        if old_fit != new_fit:
            diff.fit.append(CellChange(("fit", matrix, family), old_fit, new_fit, ("fit",)))
    old_header, new_header = _dump(base.header), _dump(head.header)
    for name in sorted(old_header.keys() | new_header.keys()):
        old, new = old_header.get(name), new_header.get(name)
        if isinstance(old, dict) or isinstance(new, dict):
            old, new = old or {}, new or {}
            diff.header.extend(CellChange(("header", name, k), old.get(k), new.get(k))
                               for k in sorted(old.keys() | new.keys()) if old.get(k) != new.get(k))
        elif old != new:
            diff.header.append(CellChange(("header", name), old, new))


def _compare_records(base: Catalog, head: Catalog, diff: MatrixDiff) -> None:
    for collection in sorted(COLLECTIONS):
        old, new = base.records.get(collection, {}), head.records.get(collection, {})
        for record_id in sorted(old.keys() | new.keys()):
            key = ("record", collection, record_id)
            if record_id not in new:
                diff.records.append(RecordChange(key, "removed"))
            elif record_id not in old:
                diff.records.append(RecordChange(key, "added"))
            elif fields := _changed_fields(_dump(old[record_id]), _dump(new[record_id])):
                diff.records.append(RecordChange(key, "changed", fields))


def _text(value: Value | None, other: Value | None) -> str | None:
    """A figure as the page writes it: typed ones as typed, derived ones to 4 significant digits
    (more when that is what tells ``value`` apart from ``other``)."""
    if value is None:
        return None
    number = value.number
    if not value.derived or number == 0 or not math.isfinite(number):
        return format_number(number, value.unit)
    first = max(3 - math.floor(math.log10(abs(number))), 0)
    for decimals in range(first, first + 8):
        rounded = float(round_half_up(number, decimals))
        if other is None or other.unit != value.unit or rounded != float(round_half_up(other.number, decimals)):
            break
    return format_number(rounded, value.unit)


def _compare_values(base: Catalog, head: Catalog, diff: MatrixDiff) -> None:
    old_values, new_values = build_values(base), build_values(head)
    for path in sorted(old_values.keys() | new_values.keys()):
        old, new = old_values.get(path), new_values.get(path)
        if old is not None and new is not None and (old.number, old.unit) == (new.number, new.unit):
            continue
        change = "added" if old is None else "removed" if new is None else "changed"
        ref = new or old
        assert ref is not None
        relative = None
        if old is not None and new is not None and old.unit == new.unit and old.number != 0:
            relative = (new.number - old.number) / abs(old.number) * 100.0
        diff.values.append(ValueChange(
            ("value", path), change, ref.label, ref.unit, ref.derived, ref.collection, ref.record,
            old.number if old else None, new.number if new else None, _text(old, new), _text(new, old), relative))


def compare(base: Catalog, head: Catalog, base_label: str = "base", head_label: str = "head") -> MatrixDiff:
    """Every change from ``base`` to ``head`` that shows on the site, each with a stable key."""
    diff = MatrixDiff(base_label, head_label)
    _compare_matrix(base, head, diff)
    _compare_records(base, head, diff)
    _compare_values(base, head, diff)
    known = {(e.file, e.field, e.message) for e in base.errors}
    diff.errors = [str(e) for e in head.errors if (e.file, e.field, e.message) not in known]
    return diff
