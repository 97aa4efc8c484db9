"""Reading and validating ``data/`` into a :class:`~..catalog.Catalog`, one record at a time.

:func:`load_catalog` reads the files listed in :data:`~..catalog.FILES`, validates each record with
its pydantic model, then checks every reference between records. A record that fails is never
dropped silently: it is kept in :attr:`Catalog.broken <.catalog.Catalog.broken>` with its errors,
so pages can show it and the build can report it. One file's records are read by
:mod:`.file_records`; how pydantic's errors become located messages is in :mod:`.errors`; which
references and cross-record rules a record has is in :mod:`.references`. No Sphinx here.
"""

from __future__ import annotations

from pathlib import Path

from ..catalog import COLLECTIONS, FILES, Broken, Catalog, FileSpec
from ..files.atomic import JOURNAL, pending_write
from ..files.loader import DataError, DataFileError, dotted_path, read_text
from .errors import nearest_line
from .every_file import unread_files
from .file_records import field_name, file_broken, file_places, merge, place_of, read_file
from .identities import name_clashes
from .latest_state import derive_latest_runs
from .matrix_files import load_revisions
from .references import consistency_problems, dangling_message, references_of
from .touching import raw_refs


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


def _load_file(catalog: Catalog, spec: FileSpec) -> None:
    path = catalog.data_dir / spec.name
    if spec.optional and not path.exists():
        return
    try:
        text = read_text(path, spec.name, catalog.data_dir, spec.max_bytes)
    except DataFileError as exc:
        file_broken(catalog, spec, [exc.error])
        return
    merge(catalog, read_file(spec.name, text))


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
                errors = []
                for rel, message in problems:
                    at, path, csv = place_of(catalog, collection, record_id, rel)
                    errors.append(DataError(name, at, field_name(path, csv), message))
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
        catalog.errors.append(DataError(name, nearest_line(file_places(catalog, name), path), dotted_path(path),
                                        f"no revision of {date.isoformat()} in matrix/; expected one of: {known}"))
