"""What a change to ``data/`` does to the site: the support-matrix diff for pull-request previews.

:func:`compare` takes two catalogs (the base of a pull request and its head) and returns a
:class:`MatrixDiff`: changed support cells and fits, added, removed and changed records of every
collection, changed header fields (matrix dates, support definition), and every figure of
:func:`~neuron_docs.data.values.build_values` that was added, removed or moved, derived ones
(cost per 1M inferences, measured ratios) included. Every change carries a stable key:

* ``("support", family, device, framework)`` and ``("fit", family, device)``: matrix cells;
* ``("record", collection, id)``: a record added, removed or changed;
* ``("header", field[, device])``: a field of the families header;
* ``("value", path)``: a figure, by its ``kind:id:field`` path.

The Sphinx extension can use :meth:`MatrixDiff.changed_keys` to mark changed cells on pages.

Command line (the working tree's ``data/`` against BASE unless ``--head`` or ``--data-dir``)::

    python -m neuron_docs.matrix_diff --base REV [--head REV | --data-dir DIR] [--format markdown|json]

``--format json`` prints ``{"schema_version": 1, "base", "head", "changed", "summary", "support",
"fit", "header", "records", "values", "errors", "keys"}``; lists are sorted by key, and ``errors``
holds the data errors found at head that base did not have. Exit status: 0 with or without
changes ("no changes" when the data is the same), 2 for a bad revision, directory or option.
This module does not import Sphinx.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .data.catalog import COLLECTIONS, Catalog, load_catalog
from .data.formatting import format_number, round_half_up
from .data.values import Value, build_values
from .revisions import DATA_DIR, RevisionError, load_revision, repo_root, resolve

SCHEMA_VERSION = 1


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
        ``support``: family, device, framework, old, new (status or null), fields (what changed:
        status, note, roadmap, known_issue); ``fit``: family, device, old, new, fields (fit,
        rationale, support_text); ``header``: field, old, new; ``records``: collection, id,
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
            "support": [row(c, family=c.key[1], device=c.key[2], framework=c.key[3]) for c in self.support],
            "fit": [row(c, family=c.key[1], device=c.key[2]) for c in self.fit],
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
    for family_id in sorted(base.families.keys() & head.families.keys()):
        old_family, new_family = base.families[family_id], head.families[family_id]
        for device in sorted(old_family.devices.keys() | new_family.devices.keys()):
            old_fit, new_fit = old_family.devices.get(device), new_family.devices.get(device)
            old_dump, new_dump = _dump(old_fit), _dump(new_fit)
            if fields := _changed_fields(old_dump, new_dump, skip=("support",)):
                key = ("fit", family_id, device)
                diff.fit.append(CellChange(key, old_dump.get("fit"), new_dump.get("fit"), fields))
            old_support, new_support = old_dump.get("support", {}), new_dump.get("support", {})
            for framework in sorted(old_support.keys() | new_support.keys()):
                old_cell, new_cell = old_support.get(framework, {}), new_support.get(framework, {})
                fields = _changed_fields(old_cell, new_cell)
                if fields:
                    diff.support.append(CellChange(("support", family_id, device, framework),
                                                   old_cell.get("status"), new_cell.get("status"), fields))
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


# Rendering ----------------------------------------------------------------------------------------

def _cell(text: Any) -> str:
    return "(none)" if text is None else str(text).replace("|", "\\|").replace("\n", " ")


def _arrow(change: CellChange) -> str:
    if change.old == change.new:
        return f"{_cell(change.new)} ({', '.join(change.fields)} changed)"
    return f"{_cell(change.old)} -> {_cell(change.new)}"


def _value_row(change: ValueChange) -> str:
    text = f"{_cell(change.old_text)} -> {_cell(change.new_text)}"
    if (rel := change.relative_change_percent) is not None:
        text += f" ({'+' if rel >= 0 else '-'}{round_half_up(abs(rel), 1)}%)"
    return f"| {_cell(change.label)} | `{change.key[1]}` | {text} |"


def _table(header: str, rows: list[str]) -> list[str]:
    columns = header.count("|") - 1
    return [header, "|" + "---|" * columns, *rows, ""]


def render_markdown(diff: MatrixDiff, head_catalog: Catalog | None = None) -> str:
    """The pull-request comment: a section per kind of change, tables of ``old -> new``."""
    title = f"## Support matrix preview: `{diff.base}` -> `{diff.head}`"
    if diff.is_empty():
        return f"{title}\n\nno changes\n"

    def family(family_id: str) -> str:
        record = head_catalog.families.get(family_id) if head_catalog else None
        return f"{_cell(record.name)} (`{family_id}`)" if record else f"`{family_id}`"

    counts = {"support cells": len(diff.support), "fits": len(diff.fit), "header fields": len(diff.header),
              "records": len(diff.records), "figures": len(diff.values), "new data errors": len(diff.errors)}
    out = [title, "", "Changes: " + ", ".join(f"{what} {n}" for what, n in counts.items() if n) + ".", ""]
    if diff.errors:
        out += ["### Data errors at head", "", *(f"- `{_cell(e)}`" for e in diff.errors), ""]
    if diff.support:
        out += ["### Support status", ""] + _table("| Family | Device | Framework | Change |", [
            f"| {family(c.key[1])} | `{c.key[2]}` | `{c.key[3]}` | {_arrow(c)} |" for c in diff.support])
    if diff.fit:
        out += ["### Architecture fit", ""] + _table("| Family | Device | Change |", [
            f"| {family(c.key[1])} | `{c.key[2]}` | {_arrow(c)} |" for c in diff.fit])
    if diff.header:
        out += ["### Matrix header", ""] + _table("| Field | Change |", [
            f"| `{'.'.join(c.key[1:])}` | {_arrow(c)} |" for c in diff.header])
    added_removed = [c for c in diff.records if c.change != "changed"]
    if added_removed:
        out += ["### Added and removed records", ""] + _table("| Collection | Id | Change |", [
            f"| {c.key[1]} | `{c.key[2]}` | {c.change} |" for c in added_removed])
    changed = [c for c in diff.records if c.change == "changed"]
    if changed:
        out += ["### Changed records", ""] + _table("| Collection | Id | Changed fields |", [
            f"| {c.key[1]} | `{c.key[2]}` | {', '.join(c.fields)} |" for c in changed])
    moved = [c for c in diff.values if c.change == "changed"]
    for title_, derived in (("Figures (prices, specifications, benchmarks)", False),
                            ("Derived figures (costs, ratios, counts)", True)):
        rows = [_value_row(c) for c in moved if c.derived == derived]
        if rows:
            out += [f"### {title_}", ""] + _table("| Figure | Path | Change |", rows)
    for change in ("added", "removed"):
        rows = [_value_row(c) for c in diff.values if c.change == change]
        if rows:
            out += [f"<details><summary>{change.capitalize()} figures ({len(rows)})</summary>", ""]
            out += _table("| Figure | Path | Change |", rows) + ["</details>", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def render_json(diff: MatrixDiff) -> str:
    return json.dumps(diff.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# Command line -------------------------------------------------------------------------------------

def _label(rev: str, repo: Path) -> str:
    """``rev (commit)``, or the short commit alone when ``rev`` is a commit id."""
    commit = resolve(rev, repo)
    return commit[:12] if commit.startswith(rev.lower()) else f"{rev} ({commit[:12]})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m neuron_docs.matrix_diff",
                                     description="Summarise what a change to data/ does to the site.")
    parser.add_argument("--base", required=True, help="git revision to compare against (e.g. origin/main)")
    head = parser.add_mutually_exclusive_group()
    head.add_argument("--head", help="git revision to compare (default: the working tree's data/)")
    head.add_argument("--data-dir", type=Path, help="data directory to compare (default: <repo>/data)")
    parser.add_argument("--repo", type=Path, default=Path("."), help="the git repository (default: .)")
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown")
    args = parser.parse_args(argv)
    try:
        root = repo_root(args.repo)
        base, base_label = load_revision(args.base, root), _label(args.base, root)
        if args.head:
            head_catalog, head_label = load_revision(args.head, root), _label(args.head, root)
        else:
            data_dir = args.data_dir or root / DATA_DIR
            if not data_dir.is_dir():
                raise RevisionError(f"data directory {data_dir} does not exist")
            head_catalog = load_catalog(data_dir)
            head_label = str(args.data_dir) if args.data_dir else "working tree"
    except RevisionError as exc:
        print(f"matrix-diff: error: {exc}", file=sys.stderr)
        return 2
    diff = compare(base, head_catalog, base_label, head_label)
    sys.stdout.write(render_json(diff) if args.format == "json" else render_markdown(diff, head_catalog))
    return 0


if __name__ == "__main__":
    sys.exit(main())
