"""Pydantic models of the benchmark history (``data/benchmarks/history/``): every figure the Neuron
documentation has published, across its published states.

A :class:`BenchmarkState` is one published state of the documentation's benchmark folder (a commit
that changed a benchmark CSV). A :class:`BenchmarkConfiguration` is what was measured (model,
instance, batch size, parallelism, data types, ...), its identity decided from the configuration
columns so that it survives file renames and column spellings. A :class:`BenchmarkObservation` is
one figure of one configuration measured with one Neuron release, first published on one date and
last seen on another; :class:`HistoricalPrice` is an instance price with its basis and the dates it
was published. ``last_seen`` is empty while the record is still published in the latest state
(so that a new state rewrites only the rows it changed). :mod:`neuron_docs.benchmark_import.states`
writes these files; no Sphinx here.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from .fields import Date, Id, Name, Text
from .labels import METRICS
from .models import Record
from .published import Count, Figure, Generation, PriceBasis, Verbatim, Version, json_object_cell

@cache
def canonical_version(text: str) -> str:
    """A release with at least three parts: ``2.20`` -> ``2.20.0`` (``2.13.0`` stays)."""
    parts = [str(int(p)) for p in text.split(".")]
    return ".".join(parts + ["0"] * (3 - len(parts)))


@cache  # a history holds a few dozen releases, compared hundreds of thousands of times
def version_key(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in canonical_version(text).split("."))


#: A published state's folder name: ``<commit date>-<commit>``.
StateId = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}-[0-9a-z]{1,40}$", max_length=60)]
_STATE = r"\d{4}-\d{2}-\d{2}-[0-9a-z]{1,40}"
#: The states that published a record: runs of states in the order of ``states.csv``, ``;``-separated;
#: a run is one state (``2024-04-11-8907253c``), ``first..last``, or ``first..`` (open: through the
#: latest state, so that a new state publishing the record again leaves its row as it is).
StateRuns = Annotated[str, Field(pattern=rf"^{_STATE}(\.\.(?:{_STATE})?)?(;{_STATE}(\.\.(?:{_STATE})?)?)*$",
                                 max_length=20000)]
#: A state's CSV files as ``path:digest`` (the first 12 hex digits of the SHA-256 of its bytes), ``;``-separated:
#: what the stale-file rule compares a state with when its neighbours' folders are not at hand.
StateFiles = Annotated[str, Field(pattern=r"^[^:;\n]+:[0-9a-f]{12}(;[^:;\n]+:[0-9a-f]{12})*$", max_length=200000)]

#: Pairs of a state's files that publish one configuration both, ``;``-separated, as the stale-file rule
#: decided between them when the state was read: ``kept>other`` (the other a stale copy: where it
#: disagrees, a warning) or ``kept|other`` (both fresh: where they disagree, an error).
StateOverlaps = Annotated[str, Field(pattern=r"^[^|>;\n]+[|>][^|>;\n]+(;[^|>;\n]+[|>][^|>;\n]+)*$",
                                     max_length=200000)]


def runs_text(indices: Iterable[int], order: list[str]) -> str:
    """``indices`` (positions in ``order``, the states in order) as :data:`StateRuns` text: runs of
    consecutive states ``first..last``, a single state alone, and a run through the latest state open
    (``first..``), so that a new state publishing the record again leaves the text as it is."""
    found = sorted(set(indices))
    out = []
    start = 0
    for i, index in enumerate(found):
        if i + 1 < len(found) and found[i + 1] == index + 1:
            continue
        first = found[start]
        if index == len(order) - 1:
            out.append(f"{order[first]}..")
        elif index == first:
            out.append(order[first])
        else:
            out.append(f"{order[first]}..{order[index]}")
        start = i + 1
    return ";".join(out)


def parse_runs(text: str, position: dict[str, int], latest: int) -> set[int]:
    """The positions (in ``position``, state id -> index) of the states :data:`StateRuns` text names;
    an open run ends at ``latest`` (the index of the latest state the text was written with).
    Raises KeyError for a state the order does not hold."""
    out: set[int] = set()
    for run in filter(None, text.split(";")):
        first, sep, last = run.partition("..")
        start = position[first]
        end = (position[last] if last else latest) if sep else start
        out.update(range(start, end + 1))
    return out


#: A configuration's earlier identities (or paths) as the CSV holds them: a JSON object ``{runs: ...}``.
_identities = json_object_cell('{"2024-01-17-1351ee12..2024-04-11-8907253c": {"model": "..."}}', blank_is_empty=True)


#: The identities a configuration had before its latest one (a column added, dropped or renamed since),
#: each with the states it was published under it (:data:`StateRuns` text).
EarlierIdentities = Annotated[dict[StateRuns, dict[str, str]], BeforeValidator(_identities)]
#: The files a configuration was in before its latest, each with the states it was in it (``{runs: path}``).
EarlierPaths = Annotated[dict[StateRuns, str], BeforeValidator(_identities)]
#: What ended a figure's publication: a correction under the same release, a figure of a later
#: release, its configuration leaving the tables; "published": still in the latest state.
ObservationStatus = Literal["published", "corrected", "superseded", "withdrawn"]


def _metric(value: str) -> str:
    if value not in METRICS:
        msg = f"a metric of the published tables: {', '.join(METRICS)} (got {value!r})"
        raise ValueError(msg)
    return value


#: A measured figure's field name (:data:`.labels.METRICS`).
Metric = Annotated[str, AfterValidator(_metric)]
#: The tab a configuration's figures were published under; "training" for training tables.
HistoryView = Literal["throughput", "latency", "training"]


def _check_dates(first: object, last: object, ended: object, status: str) -> None:
    """The dates in order; ``last_seen`` and ``ended`` empty exactly while the status is "published"."""
    if last is not None and first is not None and last < first:  # type: ignore[operator]
        msg = f"last_seen {last} on or after first_published {first}"
        raise ValueError(msg)
    if (status == "published") != (ended is None) or (status == "published") != (last is None):
        msg = ("ended and last_seen empty exactly when the status is 'published' "
               f"(status {status!r}, last_seen {last}, ended {ended})")
        raise ValueError(msg)


class BenchmarkState(Record):
    """One published state of the benchmark folder, in the order it was imported."""

    id: StateId
    date: Date
    commit: Annotated[str, Field(pattern=r"^[0-9a-f]{4,40}$")] | None = None
    #: The commit subject (usually the Neuron release), from the states' ``STATES.tsv``.
    subject: Text | None = None
    #: The release the subject names: the version of files that have no ``Neuron Version`` column.
    release: Version | None = None
    #: Rows of its run tables, rows placed as observations, rows set aside (each a located error);
    #: the rest repeat a placed row (a stale copy in a file no page reads any more: a warning).
    rows: Annotated[int, Field(ge=0)]
    placed: Annotated[int, Field(ge=0)]
    set_aside: Annotated[int, Field(ge=0)]
    #: Its CSV files and their digests (what the stale-file rule of a state folded in later compares with).
    files: StateFiles | None = None
    #: Its files that publish a configuration both, and what the stale-file rule decided between them
    #: (see :data:`StateOverlaps`): a state folded in later that would decide otherwise has it read again.
    overlaps: StateOverlaps | None = None
    #: Its files with a row that could not be read (``;``-separated): the configurations last seen in
    #: them are not withdrawn by this state.
    unread: Annotated[str, Field(pattern=r"^[^;\n]+(;[^;\n]+)*$", max_length=200000)] | None = None
    #: The configurations (ids, ``;``-separated) it kept published without a row of theirs: their file
    #: unread, or not held by a partial state.
    held: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9.\-]*(;[a-z0-9][a-z0-9.\-]*)*$", max_length=2000000)] | None = None
    #: "whole" (or empty): the whole benchmark folder as it stood; "partial": some of its files only (a
    #: published snapshot imported by file), which withdraws only configurations last seen in the files it holds.
    scope: Literal["whole", "partial"] | None = None


#: The fields of a configuration that describe how it was last published (its table, row, script,
#: software names), not what was measured: the importer updates them with each state.
DESCRIPTION_FIELDS = ("table", "row", "script", "os", "source", "run_name", "model_source", "application_area",
                      "task", "framework_name", "framework_version", "framework_package_version",
                      "ops_on_inferentia", "topology", "published_text")

#: The fields of a configuration that say where and when it was published, not what it is: a
#: release that republishes it, moves it to another file or withdraws it changes only these.
PUBLICATION_FIELDS = frozenset({
    "file", "first_published", "first_state", "last_seen", "withdrawn", "states", "identities", "paths",
    *DESCRIPTION_FIELDS,
})


class BenchmarkConfiguration(Record):
    """What was measured: the configuration columns of a published row, without its figures."""

    id: Id
    generation: Generation
    kind: Literal["inference", "training"]
    view: HistoryView
    model: Name
    model_details: Text | None = None
    framework: Id | None = None
    instance: Id | None = None
    #: Training: the instance types the figures hold for, ``;``-separated.
    instances: Name | None = None
    application_type: Name | None = None
    run_mode: Name | None = None
    batch_size: Count | None = None
    neuroncores: Count | None = None
    threads: Count | None = None
    n_models: Count | None = None
    workers_per_model: Count | None = None
    nodes: Count | None = None
    tp_degree: Count | None = None
    dp_degree: Count | None = None
    pp_degree: Count | None = None
    zero_stage: Annotated[int, Field(ge=0, le=3)] | None = None
    micro_batch_size: Count | None = None
    global_batch_size: Count | None = None
    optimizer: Name | None = None
    sequence_length: Count | None = None
    input_length: Count | None = None
    output_length: Count | None = None
    image_size: Name | None = None
    model_data_type: Name | None = None
    autocast_data_type: Name | None = None
    weight_storage_data_type: Name | None = None
    training_data_type: Name | None = None
    scaling: Name | None = None
    # How it was last published (not its identity): the table and place of its row, and the cells
    # that describe it. The latest published state's runs are these with their published figures
    # (:mod:`..checking.latest_state`).
    #: The published table (a ``published_tables`` id) it was last seen in.
    table: Name | None = None
    #: Its row's line in that table's file, so that rows keep their published order.
    row: Count | None = None
    script: Text | None = None
    os: Name | None = None
    source: Id | None = None
    run_name: Name | None = None
    model_source: Name | None = None
    application_area: Name | None = None
    task: Name | None = None
    framework_name: Name | None = None
    framework_version: Version | None = None
    framework_package_version: Version | None = None
    ops_on_inferentia: Name | None = None
    topology: Name | None = None
    #: Cells whose published text cannot be rendered from the fields (see :class:`.published.PublishedRun`).
    published_text: Verbatim = {}
    #: The published file it was last seen in (``inf2/throughput_data_encoder.csv``).
    file: Name
    first_published: Date
    #: The state it was first published in.
    first_state: StateId
    #: Empty while published in the latest state; else the last date it was.
    last_seen: Date | None = None
    #: The date of the first state that no longer published it.
    withdrawn: Date | None = None
    #: The states that published it (empty in a history written before they were recorded: then
    #: from ``first_state`` to ``last_seen``).
    states: StateRuns | None = None
    #: Its identities before the latest (a column added, dropped or renamed since), with their states;
    #: its ``id`` is that of the identity it was first published with.
    identities: EarlierIdentities = {}
    #: The files it was in before the latest (``file``), with their states: ``{runs: path}``.
    paths: EarlierPaths = {}

    @model_validator(mode="after")
    def _withdrawn_with_last_seen(self) -> BenchmarkConfiguration:
        if (self.withdrawn is None) != (self.last_seen is None):
            msg = "withdrawn and last_seen both set (a withdrawn configuration) or both empty (a published one)"
            raise ValueError(msg)
        if self.last_seen is not None and self.last_seen < self.first_published:
            msg = f"last_seen {self.last_seen} on or after first_published {self.first_published}"
            raise ValueError(msg)
        return self


class BenchmarkObservation(Record):
    """One published figure: a configuration's metric under one Neuron release, and when it was published."""

    id: Id
    configuration: Id
    #: The Neuron release, canonical (``2.20`` and ``2.20.0`` are both ``2.20.0``).
    neuron_version: Version
    #: Where the release was read: the row's ``Neuron Version`` column, or the state's release
    #: (files of 2022 have no such column).
    version_from: Literal["column", "state"] = "column"
    metric: Metric
    #: The figure exactly as published (``8.0`` stays ``8.0``).
    value: Figure
    first_published: Date
    first_state: StateId
    last_seen: Date | None = None
    #: The date of the state that corrected, superseded or withdrew it.
    ended: Date | None = None
    status: ObservationStatus = "published"
    #: The states that published it (see :attr:`BenchmarkConfiguration.states`).
    states: StateRuns | None = None

    @model_validator(mode="after")
    def _dates(self) -> BenchmarkObservation:
        _check_dates(self.first_published, self.last_seen, self.ended, self.status)
        return self


class HistoricalPrice(Record):
    """An hourly instance price as a published state gave it, with its basis and dates.

    The price files carry no date: a price holds from the state that first published it until the
    one that changed it (``changed``) or dropped it (``withdrawn``).
    """

    id: Id
    instance: Id
    basis: PriceBasis
    usd_per_hour: Figure
    #: The published price file (``inf2/inf2_instance_prices.csv``).
    file: Name
    first_published: Date
    first_state: StateId
    last_seen: Date | None = None
    ended: Date | None = None
    status: Literal["published", "changed", "withdrawn"] = "published"
    #: The states that published it (see :attr:`BenchmarkConfiguration.states`).
    states: StateRuns | None = None

    @model_validator(mode="after")
    def _dates(self) -> HistoricalPrice:
        _check_dates(self.first_published, self.last_seen, self.ended, self.status)
        return self
