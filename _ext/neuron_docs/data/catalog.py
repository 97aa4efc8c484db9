"""The validated data set: every record of ``data/``, checked one by one and against each other.

:func:`load_catalog` reads the files listed in :data:`FILES`, validates each record with its
pydantic model, then checks every reference between records. A record that fails is never dropped
silently: it is kept in :attr:`Catalog.broken` with its errors, so pages can show it and the build
can report it. This module does not import Sphinx.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import re
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from . import schema as s
from .loader import DataError, DataFileError, Positions, Problem, dotted_path, read_csv, read_text, read_yaml


@dataclass(frozen=True)
class FileSpec:
    """One data file: its top-level lists of records, or a CSV table of one record type."""

    name: str
    collections: dict[str, type[s.Record]] = field(default_factory=dict)
    header: type[s.Record] | None = None
    csv: tuple[str, type[s.Record]] | None = None


FILES: tuple[FileSpec, ...] = (
    FileSpec("sources.yaml", {"sources": s.Source}),
    FileSpec("devices.yaml", {"devices": s.Device}),
    FileSpec("instances.yaml", {"instances": s.Instance}),
    FileSpec("frameworks.yaml", {"frameworks": s.Framework}),
    FileSpec("families.yaml", {"categories": s.Category, "families": s.Family}, header=s.FamiliesHeader),
    FileSpec("issues.yaml", {"known_issues": s.KnownIssue, "roadmap": s.RoadmapItem}),
    FileSpec("models.yaml", {"models": s.Model, "environments": s.Environment}),
    FileSpec("training.yaml", {"experiments": s.Experiment, "comparisons": s.Comparison, "claims": s.Claim}),
    FileSpec("benchmarks/inference.csv", csv=("inference_runs", s.InferenceRun)),
    FileSpec("benchmarks/accuracy.csv", csv=("accuracy_runs", s.AccuracyRun)),
    FileSpec("errata.yaml", {"errata": s.Erratum}),
)

COLLECTIONS: tuple[str, ...] = tuple(
    name for spec in FILES for name in (*spec.collections, *([spec.csv[0]] if spec.csv else []))
)


@dataclass
class Broken:
    """A record that failed validation, kept so that it can be reported where it would appear."""

    collection: str
    record_id: str | None
    file: str
    line: int | None
    errors: list[DataError]


@dataclass
class Catalog:
    """All records by collection and id, with where each came from and what went wrong."""

    data_dir: Path
    records: dict[str, dict[str, Any]] = field(default_factory=lambda: {c: {} for c in COLLECTIONS})
    header: s.FamiliesHeader | None = None
    origins: dict[tuple[str, str], tuple[str, int | None]] = field(default_factory=dict)
    errors: list[DataError] = field(default_factory=list)
    broken: list[Broken] = field(default_factory=list)
    file_hashes: dict[str, str] = field(default_factory=dict)
    #: Where each loaded record sits in its file: (collection, id) -> (key path, whether CSV).
    _paths: dict[tuple[str, str], tuple[tuple[Any, ...], bool]] = field(default_factory=dict, repr=False)
    #: The line of every value, by file.
    _positions: dict[str, Positions] = field(default_factory=dict, repr=False)
    #: Files that could not be read at all.
    _failed_files: set[str] = field(default_factory=set, repr=False)

    def __getattr__(self, name: str) -> dict[str, Any]:
        records = self.__dict__.get("records", {})
        if name in records:
            return records[name]
        raise AttributeError(name)

    def file_of(self, collection: str) -> str:
        """The data file (relative to the data directory) that holds ``collection``."""
        for spec in FILES:
            if collection in spec.collections or (spec.csv and spec.csv[0] == collection):
                return spec.name
        raise KeyError(collection)

    def origin(self, collection: str, record_id: str) -> tuple[str, int | None]:
        return self.origins.get((collection, record_id), (self.file_of(collection), None))

    def broken_in(self, *collections: str) -> list[Broken]:
        return [b for b in self.broken if b.collection in collections]

    @property
    def fingerprint(self) -> str:
        """A digest of every data file's content: equal fingerprints mean equal data."""
        digest = hashlib.sha256()
        for name in sorted(self.file_hashes):
            digest.update(f"{name}\0{self.file_hashes[name]}\0".encode())
        return digest.hexdigest()

    # Derived facts used by several pages -----------------------------------------------------

    def neuroncores(self, instance_id: str) -> int | None:
        instance = self.instances[instance_id]
        cores = self.devices[instance.device].neuroncores
        return instance.device_count * cores if cores else None

    def frameworks_for(self, device_id: str) -> list[Any]:
        return [f for f in self.frameworks.values() if device_id in f.devices]

    def matrix_devices(self) -> list[str]:
        """Devices with a published support matrix, in the order of the header's dates."""
        if self.header is None:
            return []
        return [d for d in self.header.last_update if d in self.devices]


def load_catalog(data_dir: Path | str) -> Catalog:
    """Read, validate and cross-check every data file under ``data_dir``.

    Never raises on bad data: every problem is a :class:`DataError` in :attr:`Catalog.errors`, and
    every record that could not be loaded is a :class:`Broken` in :attr:`Catalog.broken`.
    """
    catalog = Catalog(Path(data_dir))
    for spec in FILES:
        _load_file(catalog, spec)
    _check_references(catalog)
    _check_header(catalog)
    catalog.errors.sort(key=lambda e: (e.file, e.line or 0, e.field, e.message))
    return catalog


def _collections_of(spec: FileSpec) -> tuple[str, ...]:
    return (*spec.collections, *([spec.csv[0]] if spec.csv else []))


def _file_broken(catalog: Catalog, spec: FileSpec, errors: list[DataError]) -> None:
    """The whole file is unreadable: report why, and set aside every collection it holds."""
    catalog.errors.extend(errors)
    catalog._failed_files.add(spec.name)
    for collection in _collections_of(spec):
        catalog.broken.append(Broken(collection, None, spec.name, errors[0].line, list(errors)))


def _load_file(catalog: Catalog, spec: FileSpec) -> None:
    path = catalog.data_dir / spec.name
    try:
        text = read_text(path, spec.name)
        catalog.file_hashes[spec.name] = hashlib.sha256(text.encode()).hexdigest()
        if spec.csv:
            collection, model = spec.csv
            required = [n for n, info in model.model_fields.items() if info.is_required()]
            rows, positions, problems = read_csv(text, spec.name, list(model.model_fields), required)
        else:
            document, positions, problems = read_yaml(text, spec.name)
    except DataFileError as exc:
        _file_broken(catalog, spec, [exc.error])
        return
    catalog._positions[spec.name] = positions
    if spec.csv:
        by_row = _problems_by_record(problems, ())
        _load_records(catalog, spec.name, collection, model, rows, positions, (), by_row, csv=True)
        return
    expected = [*spec.collections, *(spec.header.model_fields if spec.header else [])]
    if document is None:
        error = DataError(spec.name, None, "", f"file is empty; expected a mapping with keys: {', '.join(expected)}")
        _file_broken(catalog, spec, [error])
        return
    if not isinstance(document, dict):
        kind = "a list" if isinstance(document, list) else f"a single value ({_short(document)})"
        error = DataError(spec.name, positions.get(()), "",
                          f"file holds {kind}; expected a mapping with keys: {', '.join(expected)}")
        _file_broken(catalog, spec, [error])
        return
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
        return
    catalog.errors.extend(e for _, e in loose)
    header_problems = any(p and spec.header and p[0] in spec.header.model_fields for p, _ in loose)
    for key in document:
        if key not in expected:
            catalog.errors.append(DataError(spec.name, positions.get((key,)), str(key), _unknown_key(key, expected)))
    for collection, model in spec.collections.items():
        items = document.get(collection)
        if not isinstance(items, list):
            error = DataError(spec.name, positions.get((collection,)), collection,
                              f"expected a list of {collection} records (got {_short(items)})" if collection in document
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
            catalog.errors.extend(_located(exc, spec.header, spec.name, positions, (), dotted_path))


def _problems_by_record(problems: list[Problem], prefix: tuple[Any, ...]) -> dict[int, list[DataError]]:
    """The problems inside each record of the list at ``prefix``, by the record's index."""
    out: dict[int, list[DataError]] = {}
    n = len(prefix)
    for path, error in problems:
        if len(path) > n and path[:n] == prefix and isinstance(path[n], int):
            out.setdefault(path[n], []).append(error)
    return out


def _field_name(path: tuple[Any, ...], csv: bool) -> str:
    """How a field is named in errors: the key path in YAML, the column in CSV (the line says the row)."""
    return dotted_path(path[1:] if csv else path)


def _load_records(catalog: Catalog, name: str, collection: str, model: type[BaseModel], items: list[Any],
                  positions: Positions, prefix: tuple[Any, ...], problems: dict[int, list[DataError]],
                  *, csv: bool) -> None:
    table = catalog.records[collection]

    def field_of(path: tuple[Any, ...]) -> str:
        return _field_name(path, csv)

    for index, item in enumerate(items):
        path = (*prefix, index)
        line = positions.get(path)
        record_id = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else None
        if index in problems:
            catalog.errors.extend(problems[index])
            catalog.broken.append(Broken(collection, record_id, name, line, list(problems[index])))
            continue
        try:
            record = model.model_validate(item)
        except ValidationError as exc:
            errors = _located(exc, model, name, positions, path, field_of)
            catalog.errors.extend(errors)
            catalog.broken.append(Broken(collection, record_id, name, line, errors))
            continue
        if record.id in table:
            first = catalog.origins[(collection, record.id)][1]
            error = DataError(name, _nearest_line(positions, (*path, "id")), field_of((*path, "id")),
                              f"duplicate id {record.id!r} (first defined on line {first}); expected a unique id")
            catalog.errors.append(error)
            catalog.broken.append(Broken(collection, record.id, name, line, [error]))
            continue
        table[record.id] = record
        catalog.origins[(collection, record.id)] = (name, line)
        catalog._paths[(collection, record.id)] = (path, csv)


#: Human descriptions of the patterns in :mod:`.schema`, for error messages.
_PATTERNS = {
    r"^[a-z0-9][a-z0-9.\-]*$": "an id (lowercase letters, digits, '.' and '-', starting with a letter or digit)",
    r"^[a-z][a-z0-9_]*$": "a key of lowercase letters, digits and '_', starting with a letter",
    r"^https://\S+$": "an https:// URL without spaces",
}
_WRAPPER_LOC = re.compile(r"^[a-z][a-z-]*\[.*\]$")


def _located(exc: ValidationError, model: type[BaseModel], name: str, positions: Positions,
             prefix: tuple[Any, ...], field_of: Any) -> list[DataError]:
    """Turn pydantic's errors into :class:`DataError` with the line and field path of each."""
    errors = []
    for err in exc.errors(include_url=False):
        raw_loc = err["loc"]
        is_key = "[key]" in raw_loc
        loc = tuple(part for part in raw_loc
                    if not (isinstance(part, str) and (part == "[key]" or _WRAPPER_LOC.match(part))))
        kind = err["type"]
        msg = str(err["msg"])
        ctx = err.get("ctx") or {}
        if kind == "value_error" and not loc:
            # A rule over the whole record (model_validator): it names the field first.
            first = msg.removeprefix("Value error, ").split(" ", 1)[0]
            if first in model.model_fields:
                loc = (first,)
        path = (*prefix, *loc)
        line = _nearest_line(positions, path)
        got = f" (got {_short(err['input'])})" if "input" in err and not isinstance(err["input"], dict | list) else ""
        if kind == "extra_forbidden":
            parent = _model_at(model, loc)
            message = _unknown_key(loc[-1], list(parent.model_fields) if parent else [])
        elif kind == "missing":
            message = (f"required field {loc[-1]!r} is missing; expected a value for it" if loc
                       else "required field is missing; expected a value for it")
        elif kind == "literal_error":
            choices = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
            message = f"expected {ctx.get('expected', 'one of the allowed values')}{got}"
            close = difflib.get_close_matches(str(err.get("input")), choices, n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
        elif kind == "string_pattern_mismatch":
            pattern = str(ctx.get("pattern", ""))
            message = f"expected {_PATTERNS.get(pattern, f'text matching {pattern}')}{got}"
        elif kind == "string_type" and isinstance(err.get("input"), bool | int | float | dt.date):
            message = f"expected text{got}; write the value in quotes to keep it as text"
        elif kind in ("string_too_short", "string_too_long"):
            size = len(err["input"]) if isinstance(err.get("input"), str) else "?"
            limit = ctx.get("min_length", ctx.get("max_length"))
            if kind == "string_too_short" and limit == 1:
                message = "expected non-empty text (got an empty string)"
            else:
                bound = "at least" if kind == "string_too_short" else "at most"
                message = f"expected text of {bound} {limit} characters (got {size} characters)"
        elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
            words = {"greater_than": "greater than", "greater_than_equal": "at least",
                     "less_than": "less than", "less_than_equal": "at most"}[kind]
            limit = next(iter(ctx.values()), "?")
            message = f"expected a number {words} {_plain(limit)}{got}"
        elif kind.startswith("date") and kind != "date_type":
            reason = msg.split(",", 1)[1].strip() if "," in msg else msg
            message = f"expected a date written YYYY-MM-DD ({reason}){got}"
        elif kind in ("model_type", "model_attributes_type", "dict_type"):
            message = f"expected a mapping of keys to values{got or ' (got a list)'}"
        elif kind == "list_type":
            message = f"expected a list{got or ' (got a mapping)'}"
        else:
            text = msg.removeprefix("Input should be ").removeprefix("Value error, ")
            message = f"expected {text}{'' if '(got ' in text else got}"
        if is_key:
            message = f"invalid key: {message}"
        errors.append(DataError(name, line, field_of(path), message))
    return errors


def _plain(number: Any) -> str:
    return str(int(number)) if isinstance(number, float) and number.is_integer() else str(number)


def _candidates(annotation: Any) -> Iterator[Any]:
    """The concrete types an annotation allows (through ``Annotated``, ``Optional`` and unions)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        yield from _candidates(get_args(annotation)[0])
    elif origin is Union or origin is types.UnionType:
        for arg in get_args(annotation):
            yield from _candidates(arg)
    else:
        yield annotation


def _step(annotation: Any, part: Any) -> Any:
    """The annotation of the value at ``part`` inside a value of type ``annotation``."""
    for candidate in _candidates(annotation):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            if isinstance(part, str) and part in candidate.model_fields:
                return candidate.model_fields[part].annotation
        elif get_origin(candidate) is dict:
            return get_args(candidate)[1]
        elif get_origin(candidate) is list and isinstance(part, int):
            return get_args(candidate)[0]
    return None


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The pydantic model that owns the field at ``loc`` (for listing its valid keys)."""
    annotation: Any = model
    for part in loc[:-1]:
        annotation = _step(annotation, part)
        if annotation is None:
            return None
    for candidate in _candidates(annotation):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def _unknown_key(key: Any, expected: list[str]) -> str:
    message = f"unknown key {key!r}"
    close = difflib.get_close_matches(str(key), expected, n=1)
    if close:
        message += f" (did you mean {close[0]!r}?)"
    return f"{message}; expected one of: {', '.join(expected)}" if expected else message


def _nearest_line(positions: Positions, path: tuple[Any, ...]) -> int | None:
    for end in range(len(path), -1, -1):
        if path[:end] in positions:
            return positions[path[:end]]
    return None


def _short(value: Any) -> str:
    text = value.isoformat(sep=" ") if isinstance(value, dt.datetime) else (
        value.isoformat() if isinstance(value, dt.date) else repr(value))
    return text if len(text) <= 60 else text[:57] + "..."


# References between records ------------------------------------------------------------------

#: What one record of each collection is called in messages.
SINGULAR = {
    "sources": "source", "devices": "device", "instances": "instance", "frameworks": "framework",
    "categories": "category", "families": "family", "known_issues": "known issue", "roadmap": "roadmap item",
    "models": "model", "environments": "environment", "experiments": "experiment",
    "comparisons": "comparison", "claims": "claim", "inference_runs": "inference run",
    "accuracy_runs": "accuracy run", "errata": "erratum",
}

Ref = tuple[tuple[Any, ...], str, str]


def _references(collection: str, record: Any) -> Iterator[Ref]:
    """Yield ``(field path in the record, target collection, id)`` for every reference ``record`` makes."""
    def sources(prefix: str, quantities: dict[str, s.Quantity]) -> Iterator[Ref]:
        for key, q in quantities.items():
            yield (prefix, key, "source"), "sources", q.source

    if isinstance(getattr(record, "source", None), str):
        yield ("source",), "sources", record.source
    if collection == "devices":
        yield from sources("specs", record.specs)
    elif collection == "instances":
        yield ("device",), "devices", record.device
        yield ("price", "source"), "sources", record.price.source
        yield from sources("specs", record.specs)
    elif collection == "frameworks":
        for i, device in enumerate(record.devices):
            yield ("devices", i), "devices", device
    elif collection == "families":
        yield ("category",), "categories", record.category
        for device, fit in record.devices.items():
            yield ("devices", device), "devices", device
            for framework, entry in fit.support.items():
                where = ("devices", device, "support", framework)
                yield where, "frameworks", framework
                if entry.roadmap:
                    yield (*where, "roadmap"), "roadmap", entry.roadmap
                if entry.known_issue:
                    yield (*where, "known_issue"), "known_issues", entry.known_issue
    elif collection == "known_issues":
        for attr in ("devices", "frameworks", "families"):
            for i, ref in enumerate(getattr(record, attr)):
                yield (attr, i), attr, ref
        if record.limit:
            yield ("limit", "source"), "sources", record.limit.source
    elif collection == "roadmap":
        pass
    elif collection == "models":
        yield ("family",), "families", record.family
        if record.paper_top1:
            yield ("paper_top1", "source"), "sources", record.paper_top1.source
    elif collection == "environments":
        yield ("instance",), "instances", record.instance
        if record.framework:
            yield ("framework",), "frameworks", record.framework
    elif collection in ("inference_runs", "accuracy_runs"):
        yield ("model",), "models", record.model
        yield ("environment",), "environments", record.environment
    elif collection == "experiments":
        yield ("family",), "families", record.family
        for i, ref in enumerate(record.instances):
            yield ("instances", i), "instances", ref
        for i, pp in enumerate(record.price_performance):
            yield ("price_performance", i, "baseline"), "instances", pp.baseline
            yield ("price_performance", i, "candidate"), "instances", pp.candidate
            yield ("price_performance", i, "gain", "source"), "sources", pp.gain.source
    elif collection == "comparisons":
        yield ("subject",), "instances", record.subject
        yield ("baseline",), "instances", record.baseline
        yield ("claimed", "source"), "sources", record.claimed.source


def _consistency(collection: str, record: Any, catalog: Catalog) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Yield ``(field path, message)`` for rules that span records (beyond plain references)."""
    if collection == "families":
        matrix = catalog.matrix_devices()
        for device, fit in record.devices.items():
            if device not in catalog.devices:
                continue  # reported as an unknown device
            expected = {f.id for f in catalog.frameworks_for(device)}
            for framework in fit.support:
                if framework in catalog.frameworks and framework not in expected:
                    yield (("devices", device, "support", framework),
                           f"framework {framework!r} does not run on device {device!r}; "
                           f"expected one of: {', '.join(sorted(expected)) or '(none)'}")
            missing = sorted(expected - set(fit.support))
            if missing and device in matrix:
                yield (("devices", device, "support"),
                       f"missing support status for framework{'s' if len(missing) > 1 else ''} "
                       f"{', '.join(map(repr, missing))}; expected a status for every framework that runs "
                       f"on {device!r} (supported, roadmap or na)")
    elif collection == "inference_runs" and record.variant and record.model in catalog.models:
        variants = [v.id for v in catalog.models[record.model].variants]
        if record.variant not in variants:
            close = difflib.get_close_matches(record.variant, variants, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            yield (("variant",), f"unknown variant {record.variant!r} of model {record.model!r}{hint}; "
                                 f"expected one of: {', '.join(variants) or '(none)'}")
    elif collection == "comparisons":
        from .values import instance_metric

        for attr in ("subject", "baseline"):
            ref = getattr(record, attr)
            if ref in catalog.instances and instance_metric(catalog, ref, record.metric) is None:
                yield ("metric",), f"instance {ref!r} has no value for metric {record.metric!r}; expected a spec " \
                                   "of the instance or of its device"


def _dangling(catalog: Catalog, target: str, ref: str) -> str:
    """Why ``ref`` is not a record of ``target``, and what was expected."""
    what = SINGULAR.get(target, target)
    for b in catalog.broken:
        if b.collection == target and b.record_id == ref:
            where = f"{b.file}:{b.line}" if b.line else b.file
            return f"{what} {ref!r} could not be loaded (see {where}); expected a valid {what}"
    file = catalog.file_of(target)
    if file in catalog._failed_files:
        return f"unknown {what} {ref!r} ({file} could not be read); expected a {what} defined in {file}"
    close = difflib.get_close_matches(ref, list(catalog.records[target]), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown {what} {ref!r}{hint}; expected one of: {_choices(catalog.records[target])}"


def _check_references(catalog: Catalog) -> None:
    """Move records with dangling references to :attr:`Catalog.broken`, until none are left."""
    changed = True
    while changed:
        changed = False
        for collection in COLLECTIONS:
            for record_id, record in list(catalog.records[collection].items()):
                problems = [(rel, _dangling(catalog, target, ref))
                            for rel, target, ref in _references(collection, record)
                            if ref not in catalog.records[target]]
                problems += list(_consistency(collection, record, catalog))
                if not problems:
                    continue
                name, line = catalog.origin(collection, record_id)
                path, csv = catalog._paths.get((collection, record_id), ((), False))
                positions = catalog._positions.get(name, {})
                errors = [DataError(name, _nearest_line(positions, (*path, *rel)) or line,
                                    _field_name((*path, *rel), csv), message)
                          for rel, message in problems]
                catalog.errors.extend(errors)
                catalog.broken.append(Broken(collection, record_id, name, line, errors))
                del catalog.records[collection][record_id]
                changed = True


def _check_header(catalog: Catalog) -> None:
    """The devices whose support matrix has a date must exist."""
    if catalog.header is None:
        return
    name = "families.yaml"
    positions = catalog._positions.get(name, {})
    for device in catalog.header.last_update:
        if device not in catalog.devices:
            path = ("last_update", device)
            catalog.errors.append(DataError(name, _nearest_line(positions, path), dotted_path(path),
                                            _dangling(catalog, "devices", device)))


def _choices(table: dict[str, Any]) -> str:
    ids = sorted(table)
    return ", ".join(ids[:12]) + (f", ... ({len(ids)} in all)" if len(ids) > 12 else "") if ids else "(none)"
