"""Keys naming what of the data a page depends on, and a digest of each that changes when it does.

A page records the keys of what it reads and what it shows when it is read; a later build compares
their digests with the data it loaded, and re-reads or only rewrites the page (see
:mod:`neuron_docs.state.dependencies`). Three kinds of key, from coarse to fine:

``file:<name>``
    a data file (``matrix/`` is the folder of revisions: every file in it); its content hash.
``names:<collection>``
    the ids and names of a collection's records: what a page that registers them as objects
    (titles, anchors, index entries) uses when it is read. A figure changing leaves it alone.
``record:<collection>/<id>``
    one record, every field of it: what a table row or a chart bar shows.
``records:<collection>``
    every record of a collection, every field: what a table listing the whole collection shows
    (a record added later counts too), without the other collections of its file.
``fields:<collection>:<field>,<field>``
    the ids of a collection's records with the given fields: what a directive that picks records
    by those fields when the page is read (instances of a device) depends on. A field written
    ``<field>[]`` counts with the keys of its mapping only (a family's devices, not their prose).
``matrices:<date>`` (or ``matrices:latest``)
    the matrices of a revision of the support matrices, by id and title: the sections of a page
    that shows them all.
``matrix-rows:<date>`` (or ``matrix-rows:latest``)
    the devices of each matrix of a revision and the families of its rows: which families a
    revision lists on which device (the device sections of a family's guidelines).
``history-configurations:<generation>``
    the ids and what they are (every field but :data:`.records.history.PUBLICATION_FIELDS`) of a
    generation's configurations of the benchmark history: the objects its page registers when it
    is read. A new release's figures, or a configuration republished or withdrawn, leave it alone.
``history-figures:<generation>``
    every field of a generation's configurations and of their observations, the states those were
    first published in (order, date, subject) and the historical prices: what its page shows. A
    release that moves no figure of the generation leaves it alone.
``value:<text>``, ``figure:<text>``, ``fit:<text>``, ``status:<text>``
    what a prose role prints for ``text`` (:mod:`.figures.shown`: the figure of ``:neuron:value:``, the
    same figure with a default format as the errata show it, a fit, a support status), text and
    tooltip: a page showing a figure is rewritten when the figure or its description changes, not
    when another figure of the same file does.

No Sphinx here: the keys are plain strings, the digests short hex strings, "" for what is absent.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import astuple
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .catalog import DERIVED, DERIVED_FROM, HISTORY_COLLECTIONS
from .figures.shown import SHOWN_KINDS, Shown, shown
from .figures.values import build_values
from .records.history import PUBLICATION_FIELDS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .catalog import Catalog
    from .records.history import BenchmarkConfiguration
    from .figures.values import Values


def file_key(name: str) -> str:
    return f"file:{name}"


def names_key(collection: str) -> str:
    return f"names:{collection}"


def record_key(collection: str, record_id: str) -> str:
    return f"record:{collection}/{record_id}"


def records_key(collection: str) -> str:
    return f"records:{collection}"


#: What a page showing the current published runs depends on: the runs themselves (derived from the
#: benchmark store, :mod:`.checking.latest_state`), not the store's files (a figure of an older
#: release leaves them alone).
PUBLISHED_RUNS_KEYS = (records_key("published_inference_runs"), records_key("published_training_runs"))


def fields_key(collection: str, *fields: str) -> str:
    return f"fields:{collection}:{','.join(fields)}"


def matrices_key(date: str | None) -> str:
    return f"matrices:{date or 'latest'}"


def matrix_rows_key(date: str | None) -> str:
    return f"matrix-rows:{date or 'latest'}"


def history_configurations_key(generation: str) -> str:
    return f"history-configurations:{generation}"


def history_figures_key(generation: str) -> str:
    return f"history-figures:{generation}"


def shown_key(kind: str, text: str) -> str:
    """The key of what role ``kind`` (``value``, ``figure``, ``fit``, ``status``) prints for ``text``."""
    return f"{kind}:{text.strip()}"


def record_keys(collection: str, ids: Iterable[str]) -> list[str]:
    return [record_key(collection, i) for i in ids]


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _dumped(record: Any) -> str:
    """A record's every field, as JSON (pydantic models and plain values alike)."""
    if hasattr(record, "model_dump_json"):
        return str(record.model_dump_json())
    return json.dumps(record, sort_keys=True, default=str)


def _field(record: Any, name: str) -> Any:
    """A record's field ``name``; ``name[]``: the keys of a mapping field, in order."""
    if name.endswith("[]"):
        return list(getattr(record, name[:-2], None) or {})
    return getattr(record, name, None)


class RecordDigests:
    """The digest of each key over one loaded data set, computed when first asked for."""

    def __init__(self, catalog: Catalog, values: Values | None = None) -> None:
        self.catalog = catalog
        self._known: dict[str, str] = {}
        if values is not None:  # the build's figures (and derived costs), not a second copy
            self.values = values

    def __call__(self, key: str) -> str:
        digest = self._known.get(key)
        if digest is None:
            digest = self._known[key] = self._compute(key)
        return digest

    def of(self, keys: Iterable[str]) -> dict[str, str]:
        return {key: self(key) for key in keys}

    @cached_property
    def values(self) -> Values:
        return build_values(self.catalog)

    def _shown(self, kind: str, text: str) -> Shown | ValueError:
        try:
            return shown(kind, self.catalog, self.values, text)
        except ValueError as exc:
            return exc

    def files(self, key: str) -> set[str]:
        """The data files key ``key`` covers (a record's or a collection's file for theirs; those a
        role's output was computed from)."""
        kind, _, rest = key.partition(":")
        if kind == "file":
            return {rest}
        if kind in SHOWN_KINDS:
            found = self._shown(kind, rest)
            return set(SHOWN_KINDS[kind] if isinstance(found, ValueError) else found.files)
        if kind == "history-configurations":
            return {self.catalog.file_of("benchmark_configurations")}
        if kind == "history-figures":
            return {self.catalog.file_of(c) for c in HISTORY_COLLECTIONS}
        collection = rest.partition("/")[0].partition(":")[0]
        if collection in DERIVED:  # the current published runs: made from the store's files
            return set(DERIVED_FROM)
        try:  # a record's, a collection's (``records:``, ``names:``, ``fields:``) file
            return {self.catalog.file_of(collection)}
        except KeyError:
            return set()

    def _configurations(self, generation: str) -> list[BenchmarkConfiguration]:
        return sorted((c for c in self.catalog.benchmark_configurations.values() if c.generation == generation),
                      key=lambda c: c.id)

    def _history_figures(self, generation: str) -> str:
        configurations = self._configurations(generation)
        ids = {c.id for c in configurations}
        observations = sorted((o for o in self.catalog.benchmark_observations.values() if o.configuration in ids),
                              key=lambda o: o.id)
        named = {c.first_state for c in configurations} | {o.first_state for o in observations}
        states = [[i, s.date, s.subject] for i, (sid, s) in enumerate(self.catalog.benchmark_states.items())
                  if sid in named]
        prices = sorted(self.catalog.historical_prices.items())
        return _hash(json.dumps([[_dumped(c) for c in configurations], [_dumped(o) for o in observations], states,
                                 [[i, _dumped(p)] for i, p in prices]], default=str))

    def _compute(self, key: str) -> str:
        kind, _, rest = key.partition(":")
        hashes = self.catalog.file_hashes
        if kind == "file":
            if rest.endswith("/"):  # a folder: every file in it, so that adding or removing one counts
                return _hash("".join(f"{n}\0{h}\0" for n, h in sorted(hashes.items()) if n.startswith(rest)))
            return hashes.get(rest, "")
        records = self.catalog.records
        if kind == "names":
            table = records.get(rest, {})
            return _hash(json.dumps([[i, getattr(r, "name", None) or getattr(r, "title", None)]
                                     for i, r in sorted(table.items())]))
        if kind == "record":
            collection, _, record_id = rest.partition("/")
            record = records.get(collection, {}).get(record_id)
            return "" if record is None else _hash(_dumped(record))
        if kind == "records":
            return _hash("".join(f"{i}\0{_dumped(r)}\0" for i, r in sorted(records.get(rest, {}).items())))
        if kind == "fields":
            collection, _, names = rest.partition(":")
            table = records.get(collection, {})
            return _hash(json.dumps([[i, *(_field(r, f) for f in names.split(","))]
                                     for i, r in sorted(table.items())], default=str))
        if kind == "matrices":
            rev = self.catalog.revision(None if rest == "latest" else rest)
            return "" if rev is None else _hash(json.dumps([rev.name, *([m.id, m.title] for m in rev.matrices)]))
        if kind == "matrix-rows":
            rev = self.catalog.revision(None if rest == "latest" else rest)
            return "" if rev is None else _hash(json.dumps(
                [rev.name, *([m.id, list(m.devices), [row.family for row in m.rows]] for m in rev.matrices)]))
        if kind == "history-configurations":
            return _hash(json.dumps([[c.id, c.model_dump(mode="json", exclude=set(PUBLICATION_FIELDS))]
                                     for c in self._configurations(rest)]))
        if kind == "history-figures":
            return self._history_figures(rest)
        if kind in SHOWN_KINDS:
            found = self._shown(kind, rest)
            if isinstance(found, ValueError):  # fixing the data changes it: the warning goes
                return "!" + _hash(str(found))
            return _hash(json.dumps(astuple(found)))
        raise ValueError(f"unknown record key {key!r}")
