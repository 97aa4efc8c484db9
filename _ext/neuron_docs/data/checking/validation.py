"""Reading and validating ``data/`` into a :class:`~..catalog.Catalog`, one record at a time.

:func:`load_catalog` reads the files listed in :data:`~..catalog.FILES`, validates each record with
its pydantic model, then checks every reference between records. A record that fails is never
dropped silently: it is kept in :attr:`Catalog.broken <.catalog.Catalog.broken>` with its errors,
so pages can show it and the build can report it. How pydantic's errors become located messages is
in :mod:`.errors`; which references and cross-record rules a record has is in
:mod:`.references`. No Sphinx here.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from pathlib import Path
from typing import Any, Protocol, cast

from pydantic import ValidationError

from ..records import models as s
from ..catalog import COLLECTIONS, FILES, Broken, Catalog, FileSpec, collections_of
from ..files.atomic import JOURNAL, pending_write
from ..files.csv_reader import read_csv
from ..files.loader import DataError, DataFileError, Positions, Problem, bad_character, dotted_path, read_text
from .every_file import unread_files
from .identities import name_clashes
from .latest_state import derive_latest_runs
from .matrix_files import load_revisions
from .references import consistency_problems, dangling_message, references_of
from .touching import raw_refs
from .errors import located_errors, nearest_line, short_repr, unknown_key_message
from ..files.yaml_reader import read_yaml


#: Every data file's description, by name.
SPECS: dict[str, FileSpec] = {spec.name: spec for spec in FILES}


def load_catalog(data_dir: Path | str) -> Catalog:
    """Read, validate and cross-check every data file under ``data_dir``.

    Never raises on bad data: every problem is a :class:`DataError` in :attr:`Catalog.errors`, and
    every record that could not be loaded is a :class:`Broken` in :attr:`Catalog.broken`.
    """
    catalog = Catalog(Path(data_dir))
    if pending_write(catalog.data_dir):
        catalog.errors.append(DataError(JOURNAL, None, "", "an import was interrupted while writing the data: some "
                                        "of its files are new, the others old; expected a finished write: run "
                                        "the same import again (it finishes the write first), then build"))
    for spec in FILES:
        _load_file(catalog, spec)
    _check_references(catalog)
    derive_latest_runs(catalog)
    catalog.errors.extend(name_clashes(catalog))
    load_revisions(catalog)
    _check_header(catalog)
    catalog.errors.extend(unread_files(catalog))
    catalog.errors.sort(key=lambda e: (e.file, e.line or 0, e.field, e.message))
    return catalog


def _file_broken(catalog: Catalog, spec: FileSpec, errors: list[DataError]) -> None:
    """The whole file is unreadable: report why, and set aside every collection it holds."""
    catalog.errors.extend(errors)
    catalog.failed_files.add(spec.name)
    for collection in collections_of(spec):
        catalog.broken.append(Broken(collection, None, spec.name, errors[0].line, list(errors)))


def _load_file(catalog: Catalog, spec: FileSpec) -> None:
    path = catalog.data_dir / spec.name
    if spec.optional and not path.exists():
        return
    try:
        text = read_text(path, spec.name, catalog.data_dir, spec.max_bytes)
    except DataFileError as exc:
        _file_broken(catalog, spec, [exc.error])
        return
    _merge(catalog, _read_file(spec.name, text))


def _merge(catalog: Catalog, part: Catalog) -> None:
    """Add what one file gave (:func:`_read_file`) to ``catalog``; ``part`` itself is left as it is."""
    catalog.file_hashes.update(part.file_hashes)
    catalog.positions.update(part.positions)
    catalog.errors.extend(part.errors)
    catalog.broken.extend(dataclasses.replace(broken, errors=list(broken.errors)) for broken in part.broken)
    catalog.failed_files.update(part.failed_files)
    for collection, table in part.records.items():
        catalog.records[collection].update(table)
        catalog.lines[collection].update(part.lines[collection])
    catalog.record_paths.update(part.record_paths)
    if part.header is not None:
        catalog.header = part.header
    for key, value in part.shared_parts.items():
        catalog.shared_parts.setdefault(key, value)


@functools.lru_cache(maxsize=2 * len(FILES))
def _read_file(name: str, text: str) -> Catalog:
    """Everything one data file gives, in a catalog of its own: records, errors, lines.

    A function of the file's name and text alone (every collection lives in one file), so a process
    that loads the data again (a preview or a test suite, after a change to one file) validates
    only the files that changed. Records are frozen; :func:`_merge` copies the containers.
    """
    spec = SPECS[name]
    catalog = Catalog(Path(name))
    try:
        catalog.file_hashes[spec.name] = hashlib.sha256(text.encode()).hexdigest()
        if spec.csv:
            collection, model = spec.csv
            required = [n for n, info in model.model_fields.items() if info.is_required()]
            rows, positions, problems = read_csv(text, spec.name, list(model.model_fields), required)
        else:
            document, positions, problems = read_yaml(text, spec.name)
    except DataFileError as exc:
        _file_broken(catalog, spec, [exc.error])
        return catalog
    catalog.positions[spec.name] = positions
    if spec.csv:
        by_row = _problems_by_record(problems, ())
        _load_records(catalog, spec.name, collection, model, rows, positions, (), by_row, csv=True)
        return catalog
    expected = [*spec.collections, *(spec.header.model_fields if spec.header else [])]
    if document is None:
        error = DataError(spec.name, None, "", f"file is empty; expected a mapping with keys: {', '.join(expected)}")
        _file_broken(catalog, spec, [error])
        return catalog
    if not isinstance(document, dict):
        kind = "a list" if isinstance(document, list) else f"a single value ({short_repr(document)})"
        error = DataError(spec.name, nearest_line(positions, ()), "",
                          f"file holds {kind}; expected a mapping with keys: {', '.join(expected)}")
        _file_broken(catalog, spec, [error])
        return catalog
    # Problems outside any record: at the top of the file they make it unreadable; in the header
    # or under an unknown key they are reported (and the header is not used).
    in_records = {
        c: _problems_by_record(problems, (c,)) for c in spec.collections if isinstance(document.get(c), list)
    }
    loose = [(p, e) for p, e in problems
             if not (len(p) >= 2 and p[0] in in_records and isinstance(p[1], int))]
    fatal = [e for p, e in loose if len(p) == 0 or (len(p) == 1 and p[0] in spec.collections)]
    if fatal:
        _file_broken(catalog, spec, [e for _, e in loose])
        return catalog
    catalog.errors.extend(e for _, e in loose)
    header_problems = any(p and spec.header and p[0] in spec.header.model_fields for p, _ in loose)
    for key in document:
        if key not in expected:
            catalog.errors.append(DataError(spec.name, nearest_line(positions, (key,)), str(key),
                                            unknown_key_message(key, expected)))
    for collection, model in spec.collections.items():
        items = document.get(collection)
        if not isinstance(items, list):
            line = nearest_line(positions, (collection,)) if collection in document else None
            error = DataError(spec.name, line, collection,
                              f"expected a list of {collection} records (got {short_repr(items)})"
                              if collection in document
                              else f"missing required list {collection!r}; expected a key '{collection}:' "
                                   f"holding a list of {collection} records")
            catalog.errors.append(error)
            catalog.broken.append(Broken(collection, None, spec.name, error.line, [error]))
            continue
        _load_records(catalog, spec.name, collection, model, items, positions, (collection,),
                      in_records[collection], csv=False)
    if spec.header and not header_problems:
        header = {k: v for k, v in document.items() if k in spec.header.model_fields}
        try:
            catalog.header = spec.header.model_validate(header)
        except ValidationError as exc:
            catalog.errors.extend(located_errors(exc, spec.header, spec.name, positions, (), dotted_path))
    return catalog


def _problems_by_record(problems: list[Problem], prefix: tuple[Any, ...]) -> dict[int, list[DataError]]:
    """The problems inside each record of the list at ``prefix``, by the record's index."""
    out: dict[int, list[DataError]] = {}
    n = len(prefix)
    for path, error in problems:
        if len(path) > n and path[:n] == prefix and isinstance(path[n], int):
            out.setdefault(path[n], []).append(error)
    return out


def _shown_id(item: Any) -> str | None:
    """The id a record is reported under: its ``id`` if that is short, printable text, else ``None``
    (a broken record's id is not validated, and pages show it)."""
    record_id = item.get("id") if isinstance(item, dict) else None
    if not isinstance(record_id, str) or len(record_id) > 200 or bad_character(record_id):
        return None
    return record_id


def _field_name(path: tuple[Any, ...], csv: bool) -> str:
    """How a field is named in errors: the key path in YAML, the column in CSV (the line says the row)."""
    return dotted_path(path[1:] if csv else path)


class _Identified(Protocol):
    """A record of a collection: it has an id (what the collection is keyed by)."""

    id: str


def _load_records(catalog: Catalog, name: str, collection: str, model: type[s.Record], items: list[Any],
                  positions: Positions, prefix: tuple[Any, ...], problems: dict[int, list[DataError]],
                  *, csv: bool) -> None:
    table = catalog.records[collection]

    def field_of(path: tuple[Any, ...]) -> str:
        return _field_name(path, csv)

    for index, item in enumerate(items):
        path = (*prefix, index)
        line = nearest_line(positions, path)
        record_id = _shown_id(item)
        if index in problems:
            catalog.errors.extend(problems[index])
            catalog.broken.append(Broken(collection, record_id, name, line, list(problems[index]),
                                         raw_refs(collection, item)))
            continue
        try:
            record = model.model_validate(item)
        except ValidationError as exc:
            errors = located_errors(exc, model, name, positions, path, field_of)
            catalog.errors.extend(errors)
            catalog.broken.append(Broken(collection, record_id, name, line, errors, raw_refs(collection, item)))
            continue
        key = cast("_Identified", record).id  # every collection's model has an ``id``
        if key in table:
            first = catalog.lines[collection][key]
            error = DataError(name, nearest_line(positions, (*path, "id")), field_of((*path, "id")),
                              f"duplicate id {key!r} (first defined on line {first}); expected a unique id")
            catalog.errors.append(error)
            catalog.broken.append(Broken(collection, key, name, line, [error]))
            continue
        s.share_equal_parts(record, catalog.shared_parts)
        table[key] = record
        catalog.lines[collection][key] = line
        catalog.record_paths[(collection, key)] = (path, csv)


def _check_references(catalog: Catalog) -> None:
    """Move records with dangling references to :attr:`Catalog.broken`, until none are left."""
    changed = True
    while changed:
        changed = False
        for collection in COLLECTIONS:
            for record_id, record in list(catalog.records[collection].items()):
                problems = [(rel, dangling_message(catalog, target, ref))
                            for rel, target, ref in references_of(collection, record)
                            if ref not in catalog.records[target]]
                problems += list(consistency_problems(collection, record, catalog))
                if not problems:
                    continue
                name, line = catalog.origin(collection, record_id)
                path, csv = catalog.record_paths.get((collection, record_id), ((), False))
                positions = catalog.positions.get(name, {})
                errors = [DataError(name, nearest_line(positions, (*path, *rel)) or line,
                                    _field_name((*path, *rel), csv), message)
                          for rel, message in problems]
                catalog.errors.extend(errors)
                refs = tuple(dict.fromkeys([*((target, ref) for _, target, ref in references_of(collection, record)),
                                            *raw_refs(collection, record)]))
                catalog.broken.append(Broken(collection, record_id, name, line, errors, refs))
                del catalog.records[collection][record_id]
                changed = True


def _check_header(catalog: Catalog) -> None:
    """The revision the guideline prose describes must be one of ``data/matrix/``."""
    if catalog.header is None or not catalog.matrix_revisions.revisions:
        return
    name = "families.yaml"
    date = catalog.header.guidelines_as_of
    if catalog.matrix_revisions.at(date) is None:
        path = ("guidelines_as_of",)
        known = ", ".join(r.name for r in catalog.matrix_revisions.revisions)
        catalog.errors.append(DataError(name, nearest_line(catalog.positions.get(name, {}), path), dotted_path(path),
                                        f"no revision of {date.isoformat()} in matrix/; expected one of: {known}"))
