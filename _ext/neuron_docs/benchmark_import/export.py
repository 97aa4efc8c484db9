"""Writing published benchmark records: into ``data/`` (merged, deterministic) and back to the published layout.

The published runs live in the benchmark history (:mod:`.states`); what an import writes besides
is the layout of the tables (``benchmarks/published/tables.yaml``: :func:`latest_tables_text` for a folder of states,
:func:`write_data` for a snapshot of some files) and the published prices (``prices.yaml``:
:func:`write_data`): the tables imported replace their own earlier entries and
prices, every other table stays as it was, tables are kept in the order of their published path,
and a file is rewritten only when its text changes, so importing the same files twice changes
nothing. :func:`render_table` and :func:`export_published` write records back as the published CSV
(same columns, order, spellings and cell text, byte for byte). No Sphinx here.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

from ..data.files.atomic import write_files
from ..data.files.round_trip import update_list
from ..data.published import columns as C
from ..data.records import published as s
from .read import PAGES, ImportResult, PublishedRecord, render_cell

TABLES_FILE = "benchmarks/published/tables.yaml"
PRICES_FILE = "prices.yaml"
#: The files :func:`write_data` writes (relative to the data directory).
WRITTEN_FILES = (TABLES_FILE, PRICES_FILE)

_TABLES_HEADER = ("# Layout of every published benchmark table (aws-neuron/aws-neuron-sdk, about-neuron/benchmarks/),\n"
                  "# so that an export writes it back as published. Written by `make import-benchmarks`.\n")
_PRICES_HEADER = ("# Instance prices with their basis (on-demand or reserved-instance effective), term, region, source\n"
                  "# and as-of date; several per instance. Published price tables are written by\n"
                  "# `make import-benchmarks` (their `table`); prices typed by hand have none and are kept.\n")


class _NoAliases(yaml.SafeDumper):
    """The data files never use YAML aliases (the data layer refuses them)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _plain(record: s.Record) -> dict[str, Any]:
    """A record as YAML values: unset fields left out, figures as their published text."""
    out = {}
    for name in type(record).model_fields:
        value = getattr(record, name)
        if value is None or value == {} or value == []:
            continue
        out[name] = str(value) if isinstance(value, Decimal) else value
    return out


def _read_list(path: Path, key: str) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    items = document.get(key) if isinstance(document, dict) else None
    return [item for item in items or [] if isinstance(item, dict)]


def _merge(old: list[dict[str, Any]], new: Sequence[dict[str, Any]], replaced: set[str],
           order: dict[str, int]) -> list[dict[str, Any]]:
    """``old`` without the rows of the ``replaced`` tables, plus ``new``, by table order then row order."""
    kept = [row for row in old if row.get("table") not in replaced]
    rows = [*kept, *new]
    return [row for _, row in sorted(enumerate(rows), key=lambda p: (order.get(str(p[1].get("table")), -1), p[0]))]


def _tables(data_dir: Path, read: Iterable[s.PublishedTable], keep: set[str] | None = None) -> list[dict[str, Any]]:
    """The layouts of :data:`TABLES_FILE` with those ``read`` in place of theirs, by published path;
    ``keep``: only the tables that hold a row of the store (table ids) and the price tables."""
    read = list(read)
    replaced = {t.id for t in read}
    tables = [t for t in _read_list(data_dir / TABLES_FILE, "published_tables") if t.get("id") not in replaced]
    tables += [_plain(t.model_copy(update={"page": t.page or PAGES.get(t.path)})) for t in read]
    if keep is not None:
        tables = [t for t in tables if t.get("id") in keep or t.get("kind") == "prices"]
    return sorted(tables, key=lambda t: str(t.get("path", "")))


def write_data(result: ImportResult, data_dir: Path | str, keep: set[str] | None = None) -> list[Path]:
    """Merge the layouts and prices of ``result`` into :data:`WRITTEN_FILES` under ``data_dir`` (``keep``:
    only the tables that hold a row of the store, by id, and the price tables); return the files whose
    text changed. The runs go to the benchmark history (:func:`.states.import_snapshot`)."""
    return write_files(Path(data_dir), data_texts(result, data_dir, keep))


def data_texts(result: ImportResult, data_dir: Path | str, keep: set[str] | None = None) -> dict[str, str]:
    """The texts :func:`write_data` writes, not written: an import that writes the history too writes
    them with it in one write (all or none)."""
    data_dir = Path(data_dir)
    tables = _tables(data_dir, result.tables, keep)
    order = {str(t.get("id")): index for index, t in enumerate(tables)}
    texts = {TABLES_FILE: tables_text(tables)}
    prices = _merge(_read_list(data_dir / PRICES_FILE, "prices"), [_plain(p) for p in result.prices],
                    {t.id for t in result.tables}, order)
    # prices.yaml is edited by hand too: its comments, order and style are kept (files.round_trip)
    old_prices = data_dir / PRICES_FILE
    texts[PRICES_FILE] = update_list(old_prices.read_text(encoding="utf-8") if old_prices.is_file() else None,
                                     "prices", prices, _PRICES_HEADER)
    return texts


def tables_text(tables: Sequence[dict[str, Any]]) -> str:
    """The text of :data:`TABLES_FILE` listing ``tables`` (plain dicts, in their order)."""
    return _TABLES_HEADER + yaml.dump({"published_tables": list(tables)}, Dumper=_NoAliases, sort_keys=False,
                                      allow_unicode=True, width=120, default_flow_style=False)


def latest_tables_text(tables: Iterable[s.PublishedTable], state_prefix: str, placed: set[str]) -> str:
    """:data:`TABLES_FILE` as the latest published state lays out its tables: those that hold a row of
    the store (``placed``: table ids) and the price tables, at their path inside the state."""
    kept = []
    for table in tables:
        if table.id in placed or table.kind == "prices":
            path = table.path.removeprefix(state_prefix)
            kept.append(_plain(table.model_copy(update={"path": path, "page": table.page or PAGES.get(path)})))
    return tables_text(sorted(kept, key=lambda t: str(t.get("path", ""))))


def render_table(table: s.PublishedTable, records: Iterable[PublishedRecord]) -> str:
    """The published CSV text of ``table`` from its records (in their order)."""
    out = io.StringIO()
    eol = "\r\n" if table.line_terminator == "crlf" else "\n"
    writer = csv.writer(out, lineterminator=eol)
    writer.writerow(table.columns)
    for record in records:
        verbatim = getattr(record, "published_text", {})
        row = []
        for name in table.columns:
            if name in verbatim:
                row.append(verbatim[name])
                continue
            column = C.lookup(name, table.kind)
            if column is None:
                row.append("")
                continue
            default = render_cell(column.kind, C.field_for(name, column, table.category), record)
            row.append(table.spellings.get(name, {}).get(default, default))
        writer.writerow(row)
    text = out.getvalue()
    return text[: len(text) - len(eol)] + eol * table.tail_newlines


def export_published(records: Iterable[PublishedRecord], tables: Iterable[s.PublishedTable],
                     out_dir: Path | str) -> dict[str, Path]:
    """Write every table back in the published layout under ``out_dir`` (at its published path)."""
    out_dir = Path(out_dir)
    by_table: dict[str, list[PublishedRecord]] = {}
    for record in records:
        if record.table:
            by_table.setdefault(record.table, []).append(record)
    written = {}
    for table in tables:
        target = out_dir / table.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_table(table, by_table.get(table.id, [])), encoding="utf-8", newline="")
        written[table.path] = target
    return written
