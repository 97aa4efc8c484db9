"""Reading the published benchmark tables into records: one CSV, or every CSV under a folder.

:func:`import_published` reads a published CSV, or every CSV under a folder (the layout of
``about-neuron/benchmarks/`` of aws-neuron/aws-neuron-sdk, column names as they vary between files
and generations), and returns an :class:`~.read.ImportResult`: inference runs, training
runs, prices, the layout of every table, and every problem located by file, CSV line and column.
A row with an error is not loaded and its problem says why; an unknown column is named, its cells
are kept verbatim and the rest of the file loads. :func:`import_file` reads one CSV; a folder of
published states reads each state's files with it (:mod:`.states`). ``make import-benchmarks
SRC=...`` (:mod:`.command`) folds what they read into the benchmark history. No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..data.published import columns as C
from ..data.records import published as s
from ..data.records.labels import METRICS
from .read import (
    GENERATIONS, PAGES, SOURCE_ID, ImportResult, Problem, PublishedRecord, check_prices_cover_runs, config_key,
    error_message, parse_cell, read_table, render_cell, slug, spellings_of, table_identity, tail_newlines,
    warn_implausible,
)


def import_published(path: Path | str, known_instances: Iterable[str], known_frameworks: Iterable[str], *,
                     source: str = SOURCE_ID, as_of: dt.date | str | None = None, region: str | None = None,
                     term: str | None = None, root: Path | str | None = None) -> ImportResult:
    """Import one published CSV or every CSV under a folder.

    ``known_instances`` and ``known_frameworks`` are the ids of ``instances.yaml`` and
    ``frameworks.yaml`` (plus additions). Prices take ``source``, ``as_of``, ``region`` and ``term``
    from the caller, since the price files carry none: without ``as_of`` every price is a located
    error. File names in problems and table paths are relative to ``root`` (default: the folder
    imported, or a single file's grandparent so that ``inf2/x.csv`` keeps its generation folder).
    """
    path = Path(path)
    files = sorted(p for p in path.rglob("*.csv")) if path.is_dir() else [path]
    base = Path(root) if root else (path if path.is_dir() else path.parent.parent)
    result = ImportResult()
    instances, frameworks = set(known_instances), set(known_frameworks)
    for file in files:
        try:
            rel = file.relative_to(base).as_posix()
        except ValueError:
            rel = file.name
        import_file(file, rel, result, instances, frameworks, source=source, as_of=as_of, region=region, term=term)
    check_prices_cover_runs(result)
    result.problems.sort(key=lambda p: (p.file, p.line or 0, p.column, p.message))
    return result


#: One data row of a file as parsed: its line, its values, its published cells and the cells kept verbatim.
type ParsedRow = tuple[int, dict[str, Any], dict[str, str], dict[str, str]]
#: One record loaded from a file: its line, the record and its published cells.
type LoadedRow = tuple[int, PublishedRecord, dict[str, str]]


@dataclass
class _Layout:
    """What a file's header says: where it is, its table, and the field each column holds."""

    rel: str
    generation: str
    table_id: str
    kind: str
    header: list[str]
    #: Per modelled column's index: the column and the field it holds.
    mapping: dict[int, tuple[C.PublishedColumn, str]]
    #: Per field: the name of the column that holds it.
    column_of: dict[str, str]
    #: The fields of no column, given a value by the caller's ``defaults``.
    defaulted: dict[str, Any]


def import_file(file: Path, rel: str, result: ImportResult, instances: set[str], frameworks: set[str], *,
                source: str, as_of: dt.date | str | None, region: str | None, term: str | None,
                generation: str | None = None, defaults: dict[str, Any] | None = None) -> None:
    """Import one published CSV into ``result`` (``rel``: its name in problems and its table path).

    ``generation`` is used when the path does not name one (the oldest states keep their files at
    the top level); ``defaults`` gives a value to a field whose column the file does not have (the
    oldest tables have no ``Neuron Version``): each use is a located warning.
    """
    problems = result.problems
    source_text = _read_text(file, rel, problems)
    if source_text is None:
        return
    header, rows, read_problems = read_table(source_text, rel)
    problems.extend(read_problems)
    if not header:
        return
    result.rows_read[rel] = len(rows) + sum(1 for p in read_problems if p.line)
    identity = _identify(rel, header, rows, generation, problems)
    if identity is None:
        return
    generation, table_id, view, category = identity
    kind = _table_kind(header)
    mapping, seen_fields = _map_columns(rel, header, kind, category, problems)
    defaulted = _defaulted_fields(rel, kind, seen_fields, defaults, problems)
    layout = _Layout(rel, generation, table_id, kind, header, mapping, _columns_of_fields(header, mapping, kind),
                     defaulted)
    parsed = _parse_rows(layout, rows, instances, frameworks, problems)

    table_args = dict(id=table_id, generation=generation, kind=kind, view=view, category=category, path=rel,
                      page=PAGES.get(rel), columns=header, line_terminator="crlf" if "\r\n" in source_text else "lf",
                      tail_newlines=tail_newlines(source_text), source=source)
    loaded = _load_records(layout, parsed, problems, source=source, as_of=as_of, region=region, term=term)
    _store(layout, loaded, table_args, result)


def _read_text(file: Path, rel: str, problems: list[Problem]) -> str | None:
    """The file's text (UTF-8, a byte-order mark dropped), or None and a problem saying why not."""
    try:
        raw = file.read_bytes()
        return raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(rel, None, "", f"cannot read the file ({exc}); expected UTF-8 CSV text"))
        return None


def _identify(rel: str, header: list[str], rows: list[tuple[int, list[str]]], generation: str | None,
              problems: list[Problem]) -> tuple[str, str, str | None, str | None] | None:
    """(generation, table id, view, category) of the file: from its path, else from the caller's
    ``generation`` (a warning), else from its instance column; None (and a problem) when none says."""
    generation_of_path, table_id, view, category = table_identity(rel)
    if generation_of_path is None and generation is not None:
        table_id = slug(f"{generation}-{table_id.removeprefix('unknown-')}")
        problems.append(Problem(rel, None, "", f"file outside a generation folder; read as {generation}", "warning"))
    elif generation_of_path is None:  # the generation of the file's instance column (trn1.2xlarge -> trn1)
        instance_columns = [i for i, h in enumerate(header)
                            if (C.RUN_COLUMNS.get(h.strip()) or C.PRICE_COLUMNS.get(h.strip())
                                or C.PublishedColumn("", "", ())).kind in ("instance", "instances")]
        generation_of_path, table_id, view, category = table_identity(
            rel, (cells[i] for _, cells in rows for i in instance_columns if i < len(cells) and cells[i].strip()))
    generation = generation_of_path or generation
    if generation is None:
        problems.append(Problem(rel, None, "", f"cannot tell the instance generation; expected the file in a "
                                               f"folder or with a name prefix of {', '.join(GENERATIONS)}, or "
                                               f"an instance type in its instance column"))
        return None
    return generation, table_id, view, category


def _table_kind(header: list[str]) -> str:
    """What the file's rows are, by its columns: ``prices``, ``training`` or ``inference``."""
    stripped = [h.strip() for h in header]
    if any(C.PRICE_COLUMNS.get(h, C.PublishedColumn("", "", ())).kind == "price" for h in stripped):
        return "prices"
    if any(h in C.TRAINING_MARKERS for h in stripped):
        return "training"
    return "inference"


def _map_columns(rel: str, header: list[str], kind: str, category: str | None,
                 problems: list[Problem]) -> tuple[dict[int, tuple[C.PublishedColumn, str]], dict[str, str]]:
    """Header: map every column, name the unknown ones (their cells are kept verbatim).

    Returns the column and field of each modelled column by index, and the column of each field."""
    mapping: dict[int, tuple[C.PublishedColumn, str]] = {}
    seen_fields: dict[str, str] = {}
    seen_names: set[str] = set()
    for index, name in enumerate(header):
        column = C.lookup(name, kind)
        if name in seen_names:
            problems.append(Problem(rel, 1, name, "duplicate column; expected each column once (cells kept verbatim)"))
            continue
        seen_names.add(name)
        if column is not None and column.kind == "unmodelled":
            continue  # known, held by no field: cells kept verbatim
        if column is None:
            known = sorted(C.PRICE_COLUMNS if kind == "prices" else C.RUN_COLUMNS)
            close = difflib.get_close_matches(name.strip(), known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(Problem(rel, 1, name, f"unknown column{hint}; its cells are kept verbatim but not "
                                                  f"modelled; expected one of the names of published_columns.py"))
            continue
        fieldname = C.field_for(name, column, category)
        if fieldname in seen_fields:
            problems.append(Problem(rel, 1, name, f"column holds {fieldname}, as column {seen_fields[fieldname]!r} "
                                                  f"does; expected one column per field (cells kept verbatim)"))
            continue
        seen_fields[fieldname] = name
        mapping[index] = (column, fieldname)
    return mapping, seen_fields


def _defaulted_fields(rel: str, kind: str, seen_fields: dict[str, str], defaults: dict[str, Any] | None,
                      problems: list[Problem]) -> dict[str, Any]:
    """The required fields of no column that ``defaults`` gives a value (each a warning); a problem
    for every required field that neither a column nor a default gives."""
    present = set(seen_fields)
    defaulted = {f: v for f, v in (defaults or {}).items() if f not in present and f in C.REQUIRED[kind]}
    for fieldname, value in defaulted.items():
        problems.append(Problem(rel, 1, fieldname, f"no column for {fieldname}; every row read as {value!r} "
                                                   f"(from the state it was published in)", "warning"))
    present |= set(defaulted)
    if kind == "inference" and "framework" in present:
        present |= {"framework_name", "framework_version"}
    for required in C.REQUIRED[kind]:
        if required not in present:
            problems.append(Problem(rel, 1, required, f"missing column for required field {required}; every row "
                                                      f"of this file fails"))
    return defaulted


def _columns_of_fields(header: list[str], mapping: dict[int, tuple[C.PublishedColumn, str]], kind: str) -> dict[str, str]:
    """Per field: the name of the column its problems are located in (a field parsed from another's
    column, such as the framework's name and version, is located in that column)."""
    column_of = {f: header[i] for i, (_, f) in mapping.items()}
    if kind == "inference":
        column_of.update({"framework_name": column_of.get("framework", ""),
                          "framework_version": column_of.get("framework", "")})
    if kind == "training":
        for f in ("tp_degree", "dp_degree", "pp_degree", "zero_stage"):
            column_of[f] = column_of.get("topology", "")
    return column_of


def _parse_rows(layout: _Layout, rows: list[tuple[int, list[str]]], instances: set[str], frameworks: set[str],
                problems: list[Problem]) -> list[ParsedRow]:
    """Every row's cells parsed into values; a row with a problem is left out (its problems said)."""
    parsed: list[ParsedRow] = []  # line, values, cells, verbatim
    for line, cells in rows:
        row_problems: list[Problem] = []
        values, published, verbatim = _parse_row(layout, line, cells, instances, frameworks, row_problems)
        for required in C.REQUIRED[layout.kind]:
            if required in layout.column_of and values.get(required) in (None, "", []) and not any(
                    p.column == layout.column_of[required] for p in row_problems):
                row_problems.append(Problem(layout.rel, line, layout.column_of[required],
                                            f"empty cell; {required} is required"))
        if row_problems:
            problems.extend(row_problems)
            continue
        parsed.append((line, values, published, verbatim))
    return parsed


def _parse_row(layout: _Layout, line: int, cells: list[str], instances: set[str], frameworks: set[str],
               row_problems: list[Problem]) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """One row's values, its published cells and the cells kept verbatim; its problems into ``row_problems``."""
    rel, kind, header, mapping = layout.rel, layout.kind, layout.header, layout.mapping
    values: dict[str, Any] = dict(layout.defaulted)
    verbatim: dict[str, str] = {}
    published: dict[str, str] = {}
    for index, cell in enumerate(cells):
        name = header[index]
        if index not in mapping:
            if cell != "":
                verbatim[name] = cell
            continue
        column, fieldname = mapping[index]
        published[name] = cell
        text = cell.strip()
        if text == "":
            continue
        try:
            values.update(parse_cell(column.kind, fieldname, text, layout.generation))
        except ValueError as exc:
            row_problems.append(Problem(rel, line, name, f"expected {exc}"))
            continue
        if column.kind == "instance" and values["instance"] not in instances:
            row_problems.append(Problem(rel, line, name, f"unknown instance {values['instance']!r}; expected "
                                                         f"an id of instances.yaml"
                                                         + (" (a price for an instance that is not there)"
                                                            if kind == "prices" else "")))
        if column.kind == "instances":
            for inst in values["instances"]:
                if inst not in instances:
                    row_problems.append(Problem(rel, line, name, f"unknown instance {inst!r}; expected an id "
                                                                 f"of instances.yaml"))
        if column.kind == "framework" and values["framework"] not in frameworks:
            row_problems.append(Problem(rel, line, name, f"unknown framework {values['framework']!r} (from "
                                                         f"{text!r}); expected an id of frameworks.yaml"))
    return values, published, verbatim


def _load_records(layout: _Layout, parsed: list[ParsedRow], problems: list[Problem], *, source: str,
                  as_of: dt.date | str | None, region: str | None, term: str | None) -> list[LoadedRow]:
    """The parsed rows as records, each with its id; a row that repeats a configuration (or a price of
    an instance) of an earlier row, or that its model refuses, is set aside with a located problem."""
    rel, kind, mapping, column_of, table_id = layout.rel, layout.kind, layout.mapping, layout.column_of, layout.table_id
    models: dict[str, type[PublishedRecord]] = {
        "inference": s.PublishedInferenceRun, "training": s.PublishedTrainingRun, "prices": s.InstancePrice}
    model = models[kind]
    loaded: list[LoadedRow] = []
    first_line: dict[str | tuple[str, str], int] = {}
    first_figures: dict[str | tuple[str, str], dict[str, Any]] = {}
    for line, values, published, verbatim in parsed:
        values = dict(values)
        if kind == "prices":
            basis = next((mapping[i][0].basis for i in mapping if mapping[i][1] == "usd_per_hour"), None)
            values.update(basis=basis, term=term, region=region, source=source, as_of=as_of, table=table_id)
            values["id"] = slug(f"{values.get('instance', 'x')}-{basis or 'no-basis'}-{as_of or 'undated'}")
        else:
            values.update(table=table_id, source=source)
            if verbatim:
                values["published_text"] = verbatim
            key = config_key(values)
            digest = hashlib.sha256(f"{table_id}\0{key}".encode()).hexdigest()[:10]
            values["id"] = f"{layout.generation}-{slug(values.get('model', ''))[:50].strip('-.')}-{digest}"
            if key in first_line:
                earlier = first_figures[key]
                differ = "; ".join(f"{column_of.get(m, m)} {values.get(m, 'none')} against {earlier.get(m, 'none')}"
                                   for m in sorted(set(earlier) | {m for m in values if m in METRICS})
                                   if values.get(m) != earlier.get(m)) or "the same figures"
                problems.append(Problem(rel, line, "", f"same configuration as the row on line {first_line[key]} "
                                                       f"(every column but the measurements is equal): {differ}; "
                                                       f"expected one row per configuration; set aside"))
                continue
            first_line[key] = line
            first_figures[key] = {m: v for m, v in values.items() if m in METRICS}
        try:
            record = model.model_validate(values)
        except ValidationError as exc:
            for err in exc.errors():
                loc = err["loc"][0] if err["loc"] else ""
                col = column_of.get(str(loc), str(loc))
                problems.append(Problem(rel, line, col, error_message(err)))
            continue
        loaded.append((line, record, published))
        if kind == "prices":
            assert isinstance(record, s.InstancePrice)
            dup = first_line.setdefault(("price", record.instance), line)
            if dup != line:
                problems.append(Problem(rel, line, column_of.get("instance", ""),
                                        f"second price for {record.instance!r} (first on line {dup}); expected one "
                                        f"per instance and basis"))
                loaded.pop()
    return loaded


def _store(layout: _Layout, loaded: list[LoadedRow], table_args: dict[str, Any], result: ImportResult) -> None:
    """The table (with its spellings) and the loaded records into ``result``: a record keeps as its
    published text every cell its table's spelling does not reproduce."""
    rel, problems, header, mapping = layout.rel, result.problems, layout.header, layout.mapping
    kinds = {header[i]: col.kind for i, (col, _) in mapping.items()}
    fields = {header[i]: f for i, (_, f) in mapping.items()}
    # Spellings: the most common published text of each canonical rendering becomes the table's.
    spellings = spellings_of(loaded, kinds, fields)
    for name, spelled in spellings.items():
        for default, published_as in spelled.items():
            if published_as.strip() == default:
                problems.append(Problem(rel, None, name, f"cells published as {published_as!r} (surrounding spaces); "
                                                         f"stored as {default!r}, the spacing is kept in the table "
                                                         f"layout for export", "warning"))
    table = s.PublishedTable.model_validate({**table_args, "spellings": spellings})
    result.tables.append(table)
    for line, record, published in loaded:
        extra = {}
        for name, text in published.items():
            default = render_cell(kinds[name], fields[name], record)
            if spellings.get(name, {}).get(default, default) != text:
                extra[name] = text
        if extra and not isinstance(record, s.InstancePrice):
            record = record.model_copy(update={"published_text": {**record.published_text, **extra}})
        elif extra:  # pragma: no cover - prices have two plain columns
            problems.append(Problem(rel, line, next(iter(extra)), "published text cannot be reproduced"))
        warn_implausible(record, rel, line, layout.column_of, problems)
        result.lines[record.id] = line
        if isinstance(record, s.PublishedInferenceRun):
            result.inference_runs.append(record)
        elif isinstance(record, s.PublishedTrainingRun):
            result.training_runs.append(record)
        else:
            result.prices.append(record)
