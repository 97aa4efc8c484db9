"""One data file read into a catalog of its own (:func:`read_file`, remembered by the file's text), its
records merged into the whole (:func:`merge`), and where a record is in its file (:func:`place_of`).

A record's errors are located by the key path of the record in its file and the line of each value
(:attr:`.catalog.Catalog.record_paths`, :attr:`.catalog.Catalog.positions`). Those are the bulk of
a file's memory and are needed only for messages, so a merged part gives them up; a message about
a record of a file the memo already held reads them again from the file's text. No Sphinx here.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from pathlib import Path
from typing import Any, Protocol, cast

from pydantic import ValidationError

from ..records import models as s
from ..catalog import FILES, Broken, Catalog, FileSpec, collections_of
from ..files.csv_reader import read_csv
from ..files.loader import DataError, DataFileError, Positions, Problem, bad_character, dotted_path
from ..files.free_text import DATA_TEXT_FILES, FreeText
from ..files.yaml_reader import read_yaml
from .errors import located_errors, nearest_line, short_repr, unknown_key_message
from .touching import raw_refs

#: Every data file's description, by name.
SPECS: dict[str, FileSpec] = {spec.name: spec for spec in FILES}


def file_broken(catalog: Catalog, spec: FileSpec, errors: list[DataError]) -> None:
    """The whole file is unreadable: report why, and set aside every collection it holds."""
    catalog.errors.extend(errors)
    catalog.failed_files.add(spec.name)
    for collection in collections_of(spec):
        catalog.broken.append(Broken(collection, None, spec.name, errors[0].line, list(errors)))


@functools.lru_cache(maxsize=2 * len(FILES))
def read_file(name: str, text: str) -> Catalog:
    """Everything one data file gives, in a catalog of its own: records, errors, lines.

    A function of the file's name and text alone (every collection lives in one file), so a process
    that loads the data again (a preview or a test suite, after a change to one file) validates
    only the files that changed. Records are frozen; :func:`merge` copies the containers, and takes
    the lines of the file's values and records away from the part it merges: a part this memo holds
    keeps its records and text, not their places, which :func:`place_of` reads again from the text
    when a message needs them (the places of 5,000 families would otherwise stay in memory for
    the whole build).
    """
    spec = SPECS[name]
    catalog = Catalog(Path(name))
    catalog.file_texts[name] = text
    try:
        catalog.file_hashes[spec.name] = hashlib.sha256(text.encode()).hexdigest()
        if spec.csv:
            collection, model = spec.csv
            required = [n for n, info in model.model_fields.items() if info.is_required()]
            rows, positions, problems = read_csv(text, spec.name, list(model.model_fields), required)
        else:
            texts: list[FreeText] | None = [] if name in DATA_TEXT_FILES else None
            document, positions, problems = read_yaml(text, spec.name, texts)
            if texts is not None:
                catalog.free_texts[name] = texts
    except DataFileError as exc:
        file_broken(catalog, spec, [exc.error])
        return catalog
    catalog.positions[spec.name] = positions
    if spec.csv:
        by_row = _problems_by_record(problems, ())
        _load_records(catalog, spec.name, collection, model, rows, positions, (), by_row, csv=True)
        return catalog
    expected = [*spec.collections, *(spec.header.model_fields if spec.header else [])]
    if document is None:
        error = DataError(spec.name, None, "", f"file is empty; expected a mapping with keys: {', '.join(expected)}")
        file_broken(catalog, spec, [error])
        return catalog
    if not isinstance(document, dict):
        kind = "a list" if isinstance(document, list) else f"a single value ({short_repr(document)})"
        error = DataError(spec.name, nearest_line(positions, ()), "",
                          f"file holds {kind}; expected a mapping with keys: {', '.join(expected)}")
        file_broken(catalog, spec, [error])
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
        file_broken(catalog, spec, [e for _, e in loose])
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


def field_name(path: tuple[Any, ...], csv: bool) -> str:
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
        return field_name(path, csv)

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


def merge(catalog: Catalog, part: Catalog) -> None:
    """Add what one file gave (:func:`read_file`) to ``catalog``; ``part`` keeps its records and text
    and gives its places (lines and record paths) to ``catalog`` alone (:func:`read_file`)."""
    catalog.file_hashes.update(part.file_hashes)
    catalog.file_texts.update(part.file_texts)
    catalog.free_texts.update(part.free_texts)
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
    part.positions, part.record_paths = {}, {}


def file_places(catalog: Catalog, name: str) -> Positions:
    """The line of every value of file ``name``. A file merged from a part the memo held has none in
    ``catalog``: they and its records' key paths are read again, once, from the file's text (the
    same read, so the same places)."""
    if name not in catalog.positions and name in catalog.file_texts:
        again = read_file.__wrapped__(name, catalog.file_texts[name])
        catalog.positions[name] = again.positions.get(name, {})
        for found, place in again.record_paths.items():
            catalog.record_paths.setdefault(found, place)
    return catalog.positions.get(name, {})


def place_of(catalog: Catalog, collection: str, record_id: str, rel: tuple[Any, ...] = ()
             ) -> tuple[int | None, tuple[Any, ...], bool]:
    """Where field ``rel`` of a record is in its file: the line, the key path and whether the file is
    CSV (:func:`file_places`)."""
    name, line = catalog.origin(collection, record_id)
    positions = file_places(catalog, name)
    path, csv = catalog.record_paths.get((collection, record_id), ((), False))
    return nearest_line(positions, (*path, *rel)) or line, (*path, *rel), csv
