"""The validated data set: every record of ``data/``, checked one by one and against each other.

:func:`load_catalog` reads the files listed in :data:`FILES`, validates each record with its
pydantic model, then checks every reference between records. A record that fails is never dropped
silently: it is kept in :attr:`Catalog.broken` with its errors, so pages can show it and the build
can report it. This module does not import Sphinx.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from . import schema as s
from .loader import DataError, DataFileError, Positions, dotted_path, parse_csv, parse_yaml, read_text


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
    """Read, validate and cross-check every data file under ``data_dir``."""
    catalog = Catalog(Path(data_dir))
    for spec in FILES:
        _load_file(catalog, spec)
    _check_references(catalog)
    catalog.errors.sort(key=lambda e: (e.file, e.line or 0, e.field, e.message))
    return catalog


def _load_file(catalog: Catalog, spec: FileSpec) -> None:
    path = catalog.data_dir / spec.name
    try:
        text = read_text(path, spec.name)
        catalog.file_hashes[spec.name] = hashlib.sha256(text.encode()).hexdigest()
        if spec.csv:
            collection, model = spec.csv
            rows, positions = parse_csv(text, spec.name, list(model.model_fields))
            _load_records(catalog, spec.name, collection, model, rows, positions, ())
            return
        document, positions = parse_yaml(text, spec.name)
    except DataFileError as exc:
        catalog.errors.append(exc.error)
        for collection in (*spec.collections, *([spec.csv[0]] if spec.csv else [])):
            catalog.broken.append(Broken(collection, None, spec.name, exc.error.line, [exc.error]))
        return
    expected = [*spec.collections, *(spec.header.model_fields if spec.header else [])]
    if not isinstance(document, dict):
        error = DataError(spec.name, positions.get(()), "", f"expected a mapping with keys: {', '.join(expected)}")
        catalog.errors.append(error)
        catalog.broken.extend(Broken(c, None, spec.name, error.line, [error]) for c in spec.collections)
        return
    for key in document:
        if key not in expected:
            catalog.errors.append(DataError(spec.name, positions.get((key,)), str(key), _unknown_key(key, expected)))
    for collection, model in spec.collections.items():
        items = document.get(collection)
        if not isinstance(items, list):
            error = DataError(spec.name, positions.get((collection,)), collection,
                              f"expected a list of {collection} records" if collection in document
                              else f"missing required list {collection!r}")
            catalog.errors.append(error)
            catalog.broken.append(Broken(collection, None, spec.name, error.line, [error]))
            continue
        _load_records(catalog, spec.name, collection, model, items, positions, (collection,))
    if spec.header:
        header = {k: v for k, v in document.items() if k in spec.header.model_fields}
        try:
            catalog.header = spec.header.model_validate(header)
        except ValidationError as exc:
            catalog.errors.extend(_located(exc, spec.name, positions, ()))


def _load_records(catalog: Catalog, name: str, collection: str, model: type[BaseModel],
                  items: list[Any], positions: Positions, prefix: tuple[Any, ...]) -> None:
    table = catalog.records[collection]
    for index, item in enumerate(items):
        path = (*prefix, index)
        line = positions.get(path)
        record_id = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else None
        try:
            record = model.model_validate(item)
        except ValidationError as exc:
            errors = _located(exc, name, positions, path)
            catalog.errors.extend(errors)
            catalog.broken.append(Broken(collection, record_id, name, line, errors))
            continue
        if record.id in table:
            first = catalog.origins[(collection, record.id)][1]
            error = DataError(name, line, f"{dotted_path(path)}.id",
                              f"duplicate id {record.id!r} (first defined on line {first})")
            catalog.errors.append(error)
            catalog.broken.append(Broken(collection, record.id, name, line, [error]))
            continue
        table[record.id] = record
        catalog.origins[(collection, record.id)] = (name, line)


def _located(exc: ValidationError, name: str, positions: Positions, prefix: tuple[Any, ...]) -> list[DataError]:
    errors = []
    for err in exc.errors(include_url=False):
        loc = tuple(part for part in err["loc"] if not (isinstance(part, str) and "[" in part))
        path = (*prefix, *loc)
        line = _nearest_line(positions, path)
        if err["type"] == "extra_forbidden":
            parent = _model_at(exc, loc)
            message = _unknown_key(loc[-1], list(parent.model_fields) if parent else [])
        elif err["type"] == "missing":
            message = "required field is missing"
        else:
            message = f"expected {err['msg'].removeprefix('Input should be ').removeprefix('Value error, ')}"
            if "input" in err and not isinstance(err["input"], dict | list):
                message += f" (got {_short(err['input'])})"
        errors.append(DataError(name, line, dotted_path(path), message))
    return errors


def _model_at(exc: ValidationError, loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The pydantic model that owns the field at ``loc`` (for listing its valid keys)."""
    model: Any = getattr(s, exc.title, None)
    for part in loc[:-1]:
        if not (isinstance(model, type) and issubclass(model, BaseModel)) or isinstance(part, int):
            continue
        info = model.model_fields.get(part)
        if info is None:
            return None
        model = _inner_model(info.annotation)
        if model is None:
            return None
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _inner_model(arg)
        if found is not None:
            return found
    for meta in getattr(annotation, "__metadata__", ()) or ():
        del meta
    origin = getattr(annotation, "__origin__", None)
    return _inner_model(origin) if origin is not None and origin is not annotation else None


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
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# References between records ------------------------------------------------------------------

def _references(collection: str, record: Any, catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    """Yield ``(field, target collection, id)`` for every reference ``record`` makes."""
    def sources(prefix: str, quantities: dict[str, s.Quantity]) -> Iterator[tuple[str, str, str]]:
        for key, q in quantities.items():
            yield f"{prefix}.{key}.source", "sources", q.source

    if hasattr(record, "source") and isinstance(record.source, str):
        yield "source", "sources", record.source
    if collection == "devices":
        yield from sources("specs", record.specs)
    elif collection == "instances":
        yield "device", "devices", record.device
        yield "price.source", "sources", record.price.source
        yield from sources("specs", record.specs)
    elif collection == "frameworks":
        for i, device in enumerate(record.devices):
            yield f"devices[{i}]", "devices", device
    elif collection == "families":
        yield "category", "categories", record.category
        for device, fit in record.devices.items():
            yield f"devices.{device}", "devices", device
            for framework, entry in fit.support.items():
                yield f"devices.{device}.support.{framework}", "frameworks", framework
                if entry.roadmap:
                    yield f"devices.{device}.support.{framework}.roadmap", "roadmap", entry.roadmap
                if entry.known_issue:
                    yield f"devices.{device}.support.{framework}.known_issue", "known_issues", entry.known_issue
    elif collection == "known_issues":
        for attr, target in (("devices", "devices"), ("frameworks", "frameworks"), ("families", "families")):
            for i, ref in enumerate(getattr(record, attr)):
                yield f"{attr}[{i}]", target, ref
        if record.limit:
            yield "limit.source", "sources", record.limit.source
    elif collection == "models":
        yield "family", "families", record.family
        if record.paper_top1:
            yield "paper_top1.source", "sources", record.paper_top1.source
    elif collection == "environments":
        yield "instance", "instances", record.instance
        if record.framework:
            yield "framework", "frameworks", record.framework
    elif collection in ("inference_runs", "accuracy_runs"):
        yield "model", "models", record.model
        yield "environment", "environments", record.environment
    elif collection == "experiments":
        yield "family", "families", record.family
        for i, ref in enumerate(record.instances):
            yield f"instances[{i}]", "instances", ref
        for i, pp in enumerate(record.price_performance):
            yield f"price_performance[{i}].baseline", "instances", pp.baseline
            yield f"price_performance[{i}].candidate", "instances", pp.candidate
            yield f"price_performance[{i}].gain.source", "sources", pp.gain.source
    elif collection == "comparisons":
        yield "subject", "instances", record.subject
        yield "baseline", "instances", record.baseline
        yield "claimed.source", "sources", record.claimed.source


def _consistency(collection: str, record: Any, catalog: Catalog) -> Iterator[tuple[str, str]]:
    """Yield ``(field, message)`` for rules that span records (beyond plain references)."""
    if collection == "families":
        for device, fit in record.devices.items():
            expected = {f.id for f in catalog.frameworks_for(device)}
            for framework in fit.support:
                if framework in catalog.frameworks and framework not in expected:
                    yield (f"devices.{device}.support.{framework}",
                           f"framework {framework!r} does not run on device {device!r}; "
                           f"expected one of: {', '.join(sorted(expected))}")
            for framework in sorted(expected - set(fit.support)):
                if device in catalog.matrix_devices():
                    yield f"devices.{device}.support", f"missing support status for framework {framework!r}"
    elif collection == "inference_runs" and record.variant and record.model in catalog.models:
        variants = [v.id for v in catalog.models[record.model].variants]
        if record.variant not in variants:
            yield "variant", f"unknown variant {record.variant!r} of model {record.model!r}; expected one of: {', '.join(variants) or '(none)'}"
    elif collection == "comparisons":
        from .values import instance_metric

        for attr in ("subject", "baseline"):
            ref = getattr(record, attr)
            if ref in catalog.instances and instance_metric(catalog, ref, record.metric) is None:
                yield "metric", f"instance {ref!r} has no value for metric {record.metric!r}"


def _check_references(catalog: Catalog) -> None:
    """Move records with dangling references to :attr:`Catalog.broken`, until none are left."""
    changed = True
    while changed:
        changed = False
        for collection in COLLECTIONS:
            for record_id, record in list(catalog.records[collection].items()):
                problems = [
                    (f, f"unknown {target.rstrip('s').replace('_', ' ')} {ref!r}; expected one of: "
                        + _choices(catalog.records[target]))
                    for f, target, ref in _references(collection, record, catalog)
                    if ref not in catalog.records[target]
                ]
                problems += list(_consistency(collection, record, catalog))
                if not problems:
                    continue
                name, line = catalog.origin(collection, record_id)
                errors = [DataError(name, line, f"{collection}[{record_id}].{f}", m) for f, m in problems]
                catalog.errors.extend(errors)
                catalog.broken.append(Broken(collection, record_id, name, line, errors))
                del catalog.records[collection][record_id]
                changed = True


def _choices(table: dict[str, Any]) -> str:
    ids = sorted(table)
    return ", ".join(ids[:12]) + (f", ... ({len(ids)} in all)" if len(ids) > 12 else "") if ids else "(none)"
