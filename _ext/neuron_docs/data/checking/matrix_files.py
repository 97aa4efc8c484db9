"""Loading and checking the revisions of the support matrices (``data/matrix/<YYYY-MM-DD>.yaml``).

:func:`load_revisions` reads every revision file with the repository's YAML reader, validates it
(:mod:`..records.matrix`), checks its references against the catalog's records (families,
categories, devices and their architecture, frameworks and the devices they run on, instances,
sources) and the revisions against each other (one per date, a file named after its date, a
revision that changes nothing), and the latest revision against ``frameworks.yaml`` (a column
for every framework of a matrix's devices except those with ``support_matrix: false``, which
have none, a warning). Every problem names the file, line, field and what was expected. A
revision with an error is set aside (a :class:`~..catalog.Broken` of collection ``revisions``) and
the others load; warnings do not set a revision aside. No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterator
from typing import Any

from pydantic import ValidationError

from ..records import models as s
from ..catalog import Broken, Catalog
from ..files.loader import DataError, DataFileError, Positions, dotted_path, read_text
from ..matrix.revisions import MatrixRevisions, typed_date
from ..records.matrix import Revision
from .errors import located_errors, nearest_line
from ..files.yaml_reader import read_yaml

#: The folder of the revision files, relative to the data directory (also the name pages declare
#: with ``uses()`` to be re-read when any revision is added, removed or changed).
MATRIX_DIR = "matrix/"
#: What a reference check yields: (key path in the file, what was expected).
Found = tuple[tuple[Any, ...], str]


def _one_of(path: tuple[Any, ...], value: str, allowed: Any, what: str) -> Iterator[Found]:
    if value not in allowed:
        yield path, f"{value!r} is {what}; expected one of: {', '.join(sorted(allowed)) or '(none)'}"


class _Known(dict[str, Any]):
    """The ids of a collection a revision may name: the loaded records, plus (never reported again)
    those that failed to load, whose own error says why; any id when the whole file failed."""

    def __init__(self, catalog: Catalog, collection: str) -> None:
        super().__init__(catalog.records[collection])
        broken = catalog.broken_in(collection)
        self.whole = any(b.record_id is None for b in broken)
        self.failed = {b.record_id for b in broken}

    def __contains__(self, key: object) -> bool:
        return self.whole or key in self.failed or super().__contains__(key)


def _known(catalog: Catalog, collection: str) -> _Known:
    return _Known(catalog, collection)


def _matrix_problems(catalog: Catalog, rev: Revision, m: int) -> Iterator[Found]:
    matrix, at = rev.matrices[m], ("matrices", m)
    for i, device in enumerate(matrix.devices):
        if device not in rev.devices:
            yield from _one_of((*at, "devices", i), device, rev.devices, "not a device of this revision")
        elif device in catalog.devices and catalog.devices[device].architecture != matrix.architecture:
            yield ((*at, "devices", i), f"expected a device of {matrix.architecture}; {device!r} is "
                                        f"{catalog.devices[device].architecture}")
        other = next((o.id for o in rev.matrices[:m] if device in o.devices), None)
        if other:
            yield (*at, "devices", i), f"{device!r} is already in matrix {other!r}; expected a device in one matrix"
    keys = [c.key for c in matrix.columns]
    for c, col in enumerate(matrix.columns):
        where = (*at, "columns", c, "framework")
        if col.framework not in rev.frameworks:
            yield from _one_of(where, col.framework, rev.frameworks, "not a framework of this revision")
        elif col.framework in catalog.frameworks and not set(catalog.frameworks[col.framework].devices) & set(matrix.devices):
            yield where, f"expected a framework that runs on {', '.join(matrix.devices)} ({col.framework!r} does not)"
        elif col.framework in catalog.frameworks and not catalog.frameworks[col.framework].support_matrix:
            yield where, (f"expected a framework with support-matrix columns; {col.framework!r} has "
                          "support_matrix: false in frameworks.yaml")
        if keys.index(col.key) != c:
            yield (*at, "columns", c), f"a second column {col.key!r}; expected one column per framework and workload"
    seen: set[str] = set()
    families, categories = _known(catalog, "families"), _known(catalog, "categories")  # once, not per row
    for r, row in enumerate(matrix.rows):
        rat = (*at, "rows", r)
        yield from _one_of((*rat, "family"), row.family, families, "not a known family")
        if row.family in seen:
            yield (*rat, "family"), f"expected one row per family ({row.family!r} appears twice)"
        seen.add(row.family)
        for i, category in enumerate(row.categories):
            yield from _one_of((*rat, "categories", i), category, categories, "not a known category")
        yield from _one_of((*rat, "fit"), row.fit, rev.fits, "not a fit this revision defines")
        for key, cell in row.cells.items():
            framework = key.split("/")[0]
            if framework not in rev.frameworks:
                yield from _one_of((*rat, "cells", key), framework, rev.frameworks,
                                   "a cell for a framework not in this revision")
            else:
                yield from _one_of((*rat, "cells", key), key, keys, "a cell for a column not in this matrix")
            yield from _one_of((*rat, "cells", key, "status"), cell.status, rev.statuses,
                               "not a status this revision defines")
        for key in keys:
            if key not in row.cells:
                yield (*rat, "cells"), f"expected a cell for every column (missing {key!r})"


def _missing_columns(catalog: Catalog, rev: Revision) -> Iterator[Found]:
    """The latest revision's matrices against ``frameworks.yaml``: every framework that runs on a
    matrix's device has a column there, unless it has ``support_matrix: false``."""
    for m, matrix in enumerate(rev.matrices):
        have = {c.framework for c in matrix.columns}
        missing = [f.id for d in matrix.devices for f in catalog.frameworks_for(d) if f.id not in have]
        if missing:
            yield (("matrices", m, "columns"),
                   f"expected a column for every framework that runs on {', '.join(matrix.devices)} "
                   f"(missing {', '.join(map(repr, dict.fromkeys(missing)))}); or support_matrix: false "
                   "for it in frameworks.yaml")


def _problems(catalog: Catalog, rev: Revision) -> Iterator[Found]:
    """References of one revision that do not hold."""
    yield from _one_of(("source",), rev.source, _known(catalog, "sources"), "not a known source")
    for i, device in enumerate(rev.devices):
        yield from _one_of(("devices", i), device, _known(catalog, "devices"), "not a known device")
    for i, framework in enumerate(rev.frameworks):
        yield from _one_of(("frameworks", i), framework, _known(catalog, "frameworks"), "not a known framework")
    for sid, definition in rev.statuses.items():
        if definition.roadmap:
            yield from _one_of(("statuses", sid, "roadmap"), definition.roadmap, _known(catalog, "roadmap"),
                               "not a known roadmap item")
    ids = [m.id for m in rev.matrices]
    for m, matrix in enumerate(rev.matrices):
        if ids.index(matrix.id) != m:
            yield ("matrices", m, "id"), f"a second matrix {matrix.id!r}; expected one matrix per id"
        yield from _matrix_problems(catalog, rev, m)
    for i, row in enumerate(rev.instances):
        at = ("instances", i)
        instance = catalog.instances.get(row.instance)
        if instance is None:
            yield from _one_of((*at, "instance"), row.instance, _known(catalog, "instances"), "not a known instance")
        elif (instance.device, instance.device_count) != (row.device, row.device_count):
            yield at, (f"expected {instance.device} x {instance.device_count} as instances.yaml says "
                       f"(got {row.device} x {row.device_count})")
        record = catalog.devices.get(row.device)
        cores = record.neuroncores if record else row.neuroncores_per_device  # unknown: reported elsewhere
        if row.neuroncores != row.device_count * row.neuroncores_per_device or cores != row.neuroncores_per_device:
            yield (*at, "neuroncores"), (f"expected device_count x {cores} NeuronCores per {row.device} "
                                         f"(got {row.neuroncores} = {row.device_count} x {row.neuroncores_per_device})")


def _read(catalog: Catalog, name: str) -> tuple[Revision | None, Positions, list[DataError]]:
    """One revision file: the revision (None when its shape is wrong) and its errors."""
    try:
        text = read_text(catalog.data_dir / name, name, catalog.data_dir)
        catalog.file_hashes[name] = hashlib.sha256(text.encode()).hexdigest()
        raw, positions, found = read_yaml(text, name)
    except DataFileError as exc:
        return None, {}, [exc.error]
    if found:
        return None, positions, [error for _, error in found]
    try:
        return Revision.model_validate(raw), positions, []
    except ValidationError as exc:
        return None, positions, located_errors(exc, Revision, name, positions, (), dotted_path)


def _revision_files(catalog: Catalog) -> list[str]:
    """The names of the revision files (``matrix/<name>.yaml``), after checking the folder itself.

    The folder must be a folder inside the data directory (a symbolic link leading outside it is
    refused, not followed) holding at least one revision: a missing or empty folder is an error,
    since every page that shows a status reads the latest revision. Anything else in it (a
    ``.yml`` file, a sub-folder, notes) is a warning: it is not read. Hidden files are ignored.
    """
    folder = catalog.data_dir / MATRIX_DIR
    expected = "expected a folder of revisions named YYYY-MM-DD.yaml"
    try:
        inside = folder.resolve(strict=True).is_relative_to(catalog.data_dir.resolve(strict=True))
    except FileNotFoundError:
        catalog.errors.append(DataError(MATRIX_DIR, None, "", f"folder is missing; {expected}"))
        return []
    except (OSError, RuntimeError):
        catalog.errors.append(DataError(MATRIX_DIR, None, "", f"folder cannot be resolved (a loop of symbolic "
                                                              f"links?); {expected}"))
        return []
    if not inside:
        catalog.errors.append(DataError(MATRIX_DIR, None, "", "folder is a symbolic link leading outside the data "
                                                              f"folder (not followed); {expected} inside it"))
        return []
    if not folder.is_dir():
        catalog.errors.append(DataError(MATRIX_DIR, None, "", f"is not a folder; {expected}"))
        return []
    entries = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    names = [f"{MATRIX_DIR}{e}" for e in entries if e.endswith(".yaml")]
    catalog.warnings.extend(DataError(f"{MATRIX_DIR}{e}", None, "", "not read: expected a revision file named "
                                      "YYYY-MM-DD.yaml (or a hidden file)") for e in entries if not e.endswith(".yaml"))
    if not names:
        catalog.errors.append(DataError(MATRIX_DIR, None, "", f"holds no revision; {expected}"))
    return names


def load_revisions(catalog: Catalog) -> None:
    """Read every revision of ``<data>/matrix/`` into ``catalog.matrix_revisions``; never raises on bad data."""
    names = _revision_files(catalog)
    placed: dict[dt.date, tuple[str, Positions]] = {}
    valid: list[Revision] = []
    for name in names:
        rev, positions, errors = _read(catalog, name)
        warnings: list[DataError] = []
        if rev is not None:
            errors = [DataError(name, nearest_line(positions, path), dotted_path(path), message)
                      for path, message in _problems(catalog, rev)]
            line = nearest_line(positions, ("date",))
            if name != f"{MATRIX_DIR}{rev.name}.yaml":
                errors.append(DataError(name, line, "date", f"expected the file to be named {rev.name}.yaml"))
            if rev.date in placed:
                other, other_positions = placed[rev.date]
                errors.append(DataError(name, line, "date", f"expected one revision per date; {other}:"
                                        f"{nearest_line(other_positions, ('date',))} has the same date {rev.name}"))
            for m, matrix in enumerate(rev.matrices):
                if typed_date(matrix.last_update_published) is None:
                    path = ("matrices", m, "last_update_published")
                    warnings.append(DataError(name, nearest_line(positions, path), dotted_path(path),
                                              f"expected a date written MM/DD/YYYY as published (got "
                                              f"{matrix.last_update_published!r}); kept as text"))
        catalog.errors.extend(errors)
        catalog.warnings.extend(warnings)
        if rev is None or errors:
            line = errors[0].line if errors else None
            catalog.broken.append(Broken("revisions", name.removeprefix(MATRIX_DIR).removesuffix(".yaml"),
                                         name, line, errors))
            continue
        placed[rev.date] = (name, positions)
        s.share_equal_parts(rev, catalog.shared_parts)  # equal cells across revisions: one object
        valid.append(rev)
    catalog.matrix_revisions = MatrixRevisions.of(valid)
    for rev in catalog.matrix_revisions.revisions[1:]:
        diff, (name, positions) = catalog.matrix_revisions.changes(rev), placed[rev.date]
        before = catalog.matrix_revisions.previous(rev)
        assert before is not None
        if diff.is_empty() and not rev.unchanged_because:
            catalog.warnings.append(DataError(name, nearest_line(positions, ("date",)), "date",
                                              f"this revision changes nothing since {before.name}; expected a "
                                              "change, or unchanged_because saying why it is kept"))
        elif not diff.is_empty() and rev.unchanged_because:
            catalog.warnings.append(DataError(name, nearest_line(positions, ("unchanged_because",)), "unchanged_because",
                                              f"expected no change since {before.name} (it has {len(diff.items)}: "
                                              f"{diff.items[0]}, ...)"))
    latest = catalog.matrix_revisions.latest()
    if latest is not None:
        name, positions = placed[latest.date]
        catalog.warnings.extend(DataError(name, nearest_line(positions, path), dotted_path(path), message)
                                for path, message in _missing_columns(catalog, latest))
    if names:  # the folder as a whole: a page that reads revisions is read again when one is added
        digest = hashlib.sha256("".join(f"{n}\0{catalog.file_hashes.get(n, '')}\0" for n in names).encode())
        catalog.file_hashes[MATRIX_DIR] = digest.hexdigest()
