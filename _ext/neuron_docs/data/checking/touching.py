"""The devices a record set aside would have appeared with: where its "Data problem" box goes.

A record that does not load is kept in :attr:`.catalog.Catalog.broken` with the records it names
(:attr:`.catalog.Broken.refs`: read from its text when it did not validate, :func:`raw_refs`; every
reference when it validated but named a record that did not load). :func:`devices_touched` follows
the references that *place* a record (:data:`FOLLOWED`: a run's environment, an environment's
instance, an instance's device, a published run's configuration), through loaded records and set
aside ones alike, to the devices it would have been shown with; never a source, a model or a family
(a model's family does not put its runs on every device of the family). :func:`broken_touching` is
what a page of some devices shows: the records set aside that touch one of them, and those whose
device could not be told at all (a whole file refused), which may touch any. No Sphinx here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..catalog import DERIVED, Broken, Catalog
from .references import references_of

#: The fields that name another record, read from a record that did not validate (collection ->
#: field -> the collection it names); a text, a list of texts or the keys of a mapping.
PLACING: Mapping[str, Mapping[str, str]] = {
    "instances": {"device": "devices"},
    "environments": {"instance": "instances"},
    "inference_runs": {"environment": "environments"},
    "accuracy_runs": {"environment": "environments"},
    "frameworks": {"devices": "devices"},
    "known_issues": {"devices": "devices"},
    "families": {"devices": "devices"},
    "prices": {"instance": "instances"},
    "historical_prices": {"instance": "instances"},
    "benchmark_configurations": {"instance": "instances"},
    "benchmark_observations": {"configuration": "benchmark_configurations"},
    "comparisons": {"subject": "instances", "baseline": "instances"},
    "experiments": {"instances": "instances"},
    # not records: the page a published table is on (its generation and kind), kept when it is set aside
    "published_tables": {"generation": "generations", "kind": "table_kinds"},
}
#: The references followed to a device (the records that place a record; ``devices`` ends the way).
FOLLOWED = frozenset({"instances", "environments", "benchmark_configurations"})


def raw_refs(collection: str, item: Any) -> tuple[tuple[str, str], ...]:
    """What a record names in its placing fields (:data:`PLACING`): a record that did not validate
    (a mapping, as read), or one that did (its fields)."""
    fields = PLACING.get(collection, {})
    if not fields or item is None:
        return ()
    out: list[tuple[str, str]] = []
    for name, target in fields.items():
        value = item.get(name) if isinstance(item, dict) else getattr(item, name, None)
        values = [value] if isinstance(value, str) else list(value) if isinstance(value, list | dict) else []
        out.extend((target, v) for v in values if isinstance(v, str) and v)
    return tuple(out)


def _refs_of(broken: Broken) -> tuple[tuple[str, str], ...]:
    if not broken.refs and broken.collection in DERIVED and broken.record_id:
        # a published run is derived from the configuration of the same id
        return (("benchmark_configurations", broken.record_id),)
    return broken.refs


Index = dict[tuple[str, str], list[Broken]]


def _index(catalog: Catalog) -> Index:
    """The records set aside by (collection, id)."""
    index: Index = {}
    for other in catalog.broken:
        if other.record_id:
            index.setdefault((other.collection, other.record_id), []).append(other)
    return index


def devices_touched(catalog: Catalog, broken: Broken, index: Index | None = None) -> frozenset[str]:
    """The devices ``broken`` would have been shown with (empty: none could be told); ``index``:
    :func:`_index` of the catalog, when several records are asked about."""
    if broken.collection == "devices":
        return frozenset({broken.record_id} if broken.record_id else ())
    if index is None:
        index = _index(catalog)
    found: set[str] = set()
    seen: set[tuple[str, str]] = set()
    todo = list(_refs_of(broken))
    while todo:
        target, ref = todo.pop()
        if (target, ref) in seen:
            continue
        seen.add((target, ref))
        if target == "devices":
            found.add(ref)
        elif target in FOLLOWED:
            record = catalog.records.get(target, {}).get(ref)
            if record is not None:
                todo.extend((t, r) for _, t, r in references_of(target, record))
            for other in index.get((target, ref), ()):
                todo.extend(_refs_of(other))
    return frozenset(found)


def broken_touching(catalog: Catalog, devices: Iterable[str], *collections: str) -> list[Broken]:
    """The records of ``collections`` set aside that touch one of ``devices``, or whose devices could
    not be told (they may touch any); every one when ``devices`` is empty."""
    wanted = set(devices)
    chosen = catalog.broken_in(*collections)
    if not wanted:
        return chosen
    out = []
    index = _index(catalog)
    for broken in chosen:
        touched = devices_touched(catalog, broken, index)
        if not touched or touched & wanted:
            out.append(broken)
    return out


def refused_devices(catalog: Catalog) -> list[str]:
    """The devices set aside (their record, or the whole of ``devices.yaml``) that other records name
    or whose record names them, in the order first named: each still has its page, with its box."""
    out: dict[str, None] = {}
    for broken in catalog.broken:
        if broken.collection == "devices" and broken.record_id:
            out[broken.record_id] = None
    whole = any(b.collection == "devices" and b.record_id is None for b in catalog.broken)
    if whole:
        for broken in catalog.broken:
            for target, ref in _refs_of(broken):
                if target == "devices" and ref not in catalog.devices:
                    out[ref] = None
    return [d for d in out if d not in catalog.devices]


#: The record a data path (``kind:id:field``, :mod:`..figures.values`) is a value of: kind -> collection.
VALUE_KINDS: Mapping[str, str] = {
    "device": "devices", "instance": "instances", "run": "inference_runs", "accuracy": "accuracy_runs",
    "model": "models", "issue": "known_issues", "claim": "claims", "comparison": "comparisons",
    "price": "prices",
}


def set_aside(catalog: Catalog, collection: str, record_id: str) -> str | None:
    """Why record ``record_id`` of ``collection`` is not in the data when it was set aside (its record,
    or its file, refused: a problem already said where the data is loaded), else None (the data never
    had it: a typo, to be warned about)."""
    if collection not in catalog.records or record_id in catalog.records[collection]:
        return None
    return catalog.why_missing(collection, record_id)


def value_record(catalog: Catalog, path: str) -> tuple[str, str] | None:
    """The record (collection, id) a data path is a value of (``model:<id>.<variant>:...``: the model)."""
    kind, _, rest = path.partition(":")
    record_id = rest.partition(":")[0]
    collection = VALUE_KINDS.get(kind)
    if collection is None or not record_id:
        return None
    if collection == "models" and record_id not in catalog.models:
        record_id = record_id.partition(".")[0]
    return collection, record_id


#: The values made of several records, or of a record named otherwise (kind -> collection): one is
#: taken for set aside while a record of that collection is.
LOOSE_KINDS: Mapping[str, str] = {"instance_family": "instances", "priceperf": "experiments"}


def set_aside_value(catalog: Catalog, path: str) -> str | None:
    """:func:`set_aside` for the record a data path is a value of."""
    record = value_record(catalog, path)
    if record:
        return set_aside(catalog, *record)
    loose = LOOSE_KINDS.get(path.partition(":")[0])
    broken = catalog.broken_in(loose) if loose else []
    return f"records of {catalog.file_of(loose)} were set aside" if broken and loose else None


def set_aside_pages(catalog: Catalog) -> list[tuple[str, str]]:
    """The (generation, kind) of every published table set aside whose fields could be read, and of
    every configuration still published whose run was set aside (its table's file refused whole)."""
    out: dict[tuple[str, str], None] = {}
    for collection in DERIVED:
        for broken in catalog.broken_in(collection):
            config = catalog.benchmark_configurations.get(broken.record_id or "")
            if config is not None and config.withdrawn is None:
                out[(config.generation, config.kind)] = None
    for broken in catalog.broken_in("published_tables"):
        generations = [r for t, r in broken.refs if t == "generations"]
        kinds = [r for t, r in broken.refs if t == "table_kinds"]
        if generations and kinds:
            out[(generations[0], kinds[0])] = None
    return list(out)
