"""The validated data set: every record of ``data/`` by collection and id, typed as its model.

:data:`FILES` lists the data files and the record type of each collection; :class:`Catalog` holds
the records (:func:`.checking.validation.load_catalog` fills it), where each came from, the records that
failed (:class:`Broken`) and the facts several pages derive from them. No Sphinx here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .records import history as hs
from .records import published as ps
from .records import models as s
from .records import model_sizes as ms
from .files.free_text import FreeText
from .files.loader import MAX_FILE_BYTES, DataError, Positions
from .matrix.revisions import MatrixRevisions
from .records.fields import Fit
from .records.matrix import Cell, Matrix, Revision

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass(frozen=True)
class InstanceSpec:
    """A figure of a whole instance: its own spec, or its device's spec times the device count."""

    value: float
    unit: str
    label: str
    source: str | None
    derived: bool


@dataclass(frozen=True)
class FileSpec:
    """One data file: its top-level lists of records, or a CSV table of one record type."""

    name: str
    collections: dict[str, type[s.Record]] = field(default_factory=dict)
    header: type[s.FamiliesHeader] | None = None
    csv: tuple[str, type[s.Record]] | None = None
    #: A file a data set may do without (its collections are then empty): the benchmark history.
    optional: bool = False
    #: The largest this file may be, in bytes (:data:`.files.loader.MAX_FILE_BYTES` unless it grows
    #: by design with the data: the benchmark history's, each its own, :data:`HISTORY_BOUNDS`).
    max_bytes: int = MAX_FILE_BYTES


#: The folder of the benchmark history's files.
HISTORY_DIR = "benchmarks/history"
STATES_FILE = f"{HISTORY_DIR}/states.csv"
CONFIGURATIONS_FILE = f"{HISTORY_DIR}/configurations.csv"
OBSERVATIONS_FILE = f"{HISTORY_DIR}/observations.csv"
PRICES_FILE = f"{HISTORY_DIR}/prices.csv"
#: The benchmark history's files (relative to the data directory) and the record each row is.
HISTORY_FILES: dict[str, type[s.Record]] = {
    STATES_FILE: hs.BenchmarkState, CONFIGURATIONS_FILE: hs.BenchmarkConfiguration,
    OBSERVATIONS_FILE: hs.BenchmarkObservation, PRICES_FILE: hs.HistoricalPrice,
}
_MiB = 1024 * 1024
#: The bound of each file of the benchmark history, stated per file from what a build does with it,
#: so that the build's memory and the site it writes stay in proportion to the data: a file beyond
#: its bound is refused from ``stat``, before a byte is read (it costs nothing), and the pages that
#: show the history say so in their "Data problem" box. What a build costs per byte of
#: ``observations.csv`` (the file that grows fastest): about 45 bytes of memory and 4 of site (a
#: 50 MB file: 1.7 GB and 198 MB, issue 32; 78 MB: 3.4 GB, bench/README.md "At scale").
#:
#: - ``states.csv``: a row per published state, about 1.2 KB: 4 MiB is some 3,000 states (sixty
#:   years of weekly releases); the common bound.
#: - ``configurations.csv``: a row per configuration, about 250 bytes: 16 MiB is some 60,000
#:   configurations, three times the largest history benchmarked (20,000).
#: - ``observations.csv``: a row per figure, about 100 bytes: 96 MiB holds 20,000 configurations x
#:   30 releases x 2 figures (78 MB), the largest benchmarked; a build of at most some 4.5 GB of
#:   memory and 400 MB of site on the 24 GB machines of this project.
#: - ``prices.csv``: a row per instance and published price, about 100 bytes: 4 MiB is some 40,000
#:   prices; the common bound.
HISTORY_BOUNDS: dict[str, int] = {
    f"{HISTORY_DIR}/states.csv": MAX_FILE_BYTES,
    f"{HISTORY_DIR}/configurations.csv": 16 * _MiB,
    f"{HISTORY_DIR}/observations.csv": 96 * _MiB,
    f"{HISTORY_DIR}/prices.csv": MAX_FILE_BYTES,
}


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
    FileSpec("prices.yaml", {"prices": ps.InstancePrice}),
    FileSpec("benchmarks/published/tables.yaml", {"published_tables": ps.PublishedTable}),
    FileSpec("benchmarks/published/models.yaml", {"published_models": ps.PublishedModel}),
    FileSpec("model_sizes.yaml", {"model_sizes": ms.ModelSize, "model_size_gaps": ms.ModelSizeGap},
             optional=True),
    FileSpec(f"{HISTORY_DIR}/states.csv", csv=("benchmark_states", hs.BenchmarkState),
             optional=True, max_bytes=HISTORY_BOUNDS[f"{HISTORY_DIR}/states.csv"]),
    FileSpec(f"{HISTORY_DIR}/configurations.csv", csv=("benchmark_configurations", hs.BenchmarkConfiguration),
             optional=True, max_bytes=HISTORY_BOUNDS[f"{HISTORY_DIR}/configurations.csv"]),
    FileSpec(f"{HISTORY_DIR}/observations.csv", csv=("benchmark_observations", hs.BenchmarkObservation),
             optional=True, max_bytes=HISTORY_BOUNDS[f"{HISTORY_DIR}/observations.csv"]),
    FileSpec(f"{HISTORY_DIR}/prices.csv", csv=("historical_prices", hs.HistoricalPrice),
             optional=True, max_bytes=HISTORY_BOUNDS[f"{HISTORY_DIR}/prices.csv"]),
)


#: Every data file, relative to the data directory.
FILE_NAMES: tuple[str, ...] = tuple(spec.name for spec in FILES)


def collections_of(spec: FileSpec) -> tuple[str, ...]:
    """The collections a file holds, in the order of the file."""
    return (*spec.collections, *([spec.csv[0]] if spec.csv else []))


#: Collections no file holds: derived from the benchmark store when the data is loaded
#: (:mod:`.checking.latest_state`), each from the file named here (where its problems are located).
DERIVED: dict[str, str] = {
    "published_inference_runs": f"{HISTORY_DIR}/configurations.csv",
    "published_training_runs": f"{HISTORY_DIR}/configurations.csv",
}
#: The files the derived collections are made from (what a page showing them reads).
DERIVED_FROM: tuple[str, ...] = (f"{HISTORY_DIR}/configurations.csv", f"{HISTORY_DIR}/observations.csv")

COLLECTIONS: tuple[str, ...] = (*(name for spec in FILES for name in collections_of(spec)), *DERIVED)
#: The collections of the benchmark history (the files of :data:`HISTORY_DIR`): the store of published
#: figures, and with :data:`DERIVED` everything a new published state changes.
HISTORY_COLLECTIONS: tuple[str, ...] = tuple(name for spec in FILES if spec.name.startswith(f"{HISTORY_DIR}/")
                                             for name in collections_of(spec))


@dataclass
class Broken:
    """A record that failed validation, kept so that it can be reported where it would appear."""

    collection: str
    record_id: str | None
    file: str
    line: int | None
    errors: list[DataError]
    #: The records it names, as far as they could be read from it ((collection, id), in its order):
    #: what tells the pages it would have appeared on (:mod:`.checking.touching`).
    refs: tuple[tuple[str, str], ...] = ()


@dataclass
class Catalog:
    """All records by collection and id, with where each came from and what went wrong."""

    data_dir: Path
    records: dict[str, dict[str, Any]] = field(default_factory=lambda: {c: {} for c in COLLECTIONS})
    header: s.FamiliesHeader | None = None
    #: The line each record starts on, by collection and id (the file is the collection's).
    lines: dict[str, dict[str, int | None]] = field(default_factory=lambda: {c: {} for c in COLLECTIONS})
    errors: list[DataError] = field(default_factory=list)
    #: Problems a writer should fix that do not set data aside (reported as ``neuron.matrix`` warnings).
    warnings: list[DataError] = field(default_factory=list)
    #: Every valid revision of the support matrices (``data/matrix/``) and what derives from them.
    matrix_revisions: MatrixRevisions = field(default_factory=MatrixRevisions)
    broken: list[Broken] = field(default_factory=list)
    file_hashes: dict[str, str] = field(default_factory=dict)
    #: Where each loaded record sits in its file: (collection, id) -> (key path, whether CSV).
    record_paths: dict[tuple[str, str], tuple[tuple[Any, ...], bool]] = field(default_factory=dict, repr=False)
    #: The line of every value, by file.
    positions: dict[str, Positions] = field(default_factory=dict, repr=False)
    #: Each file's text as read: what a message reads its places again from when a merged part let
    #: them go (``checking.file_records.file_places``).
    file_texts: dict[str, str] = field(default_factory=dict, repr=False)
    #: The prose of each file that has some (:data:`.files.free_text.DATA_TEXT_FILES`), read with it:
    #: what the drift checker reads of the data (``drift.data_text``).
    free_texts: dict[str, list[FreeText]] = field(default_factory=dict, repr=False)
    #: Files that could not be read at all.
    failed_files: set[str] = field(default_factory=set, repr=False)
    #: Distinct nested records and "fields given" sets, shared by equal ones (:func:`.records.models.share_equal_parts`).
    shared_parts: dict[Any, Any] = field(default_factory=dict, repr=False)
    #: What is made from this catalog once and kept as long as it (:meth:`made_once`): the benchmark
    #: history's index, the models' identities. Never pickled, never copied by ``dataclasses.replace``.
    _made: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def made_once[T](self, name: str, make: Callable[[Catalog], T]) -> T:
        """``make(self)``, made on the first call for ``name`` and kept with the catalog: a build's
        pages, downloads and checks share one catalog (:class:`~.dataset.DataSet`), so what is
        derived from it lives and dies with it, and a second build, with a catalog of its own,
        never sees the first one's."""
        if name not in self._made:
            self._made[name] = make(self)
        return self._made[name]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what was made from it (:meth:`made_once`): the cached catalog makes it again."""
        return {**self.__dict__, "_made": {}}

    # Collections, typed as their records ---------------------------------------------------------

    @property
    def sources(self) -> dict[str, s.Source]:
        return self.records["sources"]

    @property
    def devices(self) -> dict[str, s.Device]:
        return self.records["devices"]

    @property
    def instances(self) -> dict[str, s.Instance]:
        return self.records["instances"]

    @property
    def frameworks(self) -> dict[str, s.Framework]:
        return self.records["frameworks"]

    @property
    def categories(self) -> dict[str, s.Category]:
        return self.records["categories"]

    @property
    def families(self) -> dict[str, s.Family]:
        return self.records["families"]

    @property
    def known_issues(self) -> dict[str, s.KnownIssue]:
        return self.records["known_issues"]

    @property
    def roadmap(self) -> dict[str, s.RoadmapItem]:
        return self.records["roadmap"]

    @property
    def models(self) -> dict[str, s.Model]:
        return self.records["models"]

    @property
    def environments(self) -> dict[str, s.Environment]:
        return self.records["environments"]

    @property
    def experiments(self) -> dict[str, s.Experiment]:
        return self.records["experiments"]

    @property
    def comparisons(self) -> dict[str, s.Comparison]:
        return self.records["comparisons"]

    @property
    def claims(self) -> dict[str, s.Claim]:
        return self.records["claims"]

    @property
    def inference_runs(self) -> dict[str, s.InferenceRun]:
        return self.records["inference_runs"]

    @property
    def accuracy_runs(self) -> dict[str, s.AccuracyRun]:
        return self.records["accuracy_runs"]

    @property
    def errata(self) -> dict[str, s.Erratum]:
        return self.records["errata"]

    @property
    def prices(self) -> dict[str, ps.InstancePrice]:
        return self.records["prices"]

    @property
    def published_tables(self) -> dict[str, ps.PublishedTable]:
        return self.records["published_tables"]

    @property
    def published_models(self) -> dict[str, ps.PublishedModel]:
        return self.records["published_models"]

    @property
    def published_inference_runs(self) -> dict[str, ps.PublishedInferenceRun]:
        return self.records["published_inference_runs"]

    @property
    def published_training_runs(self) -> dict[str, ps.PublishedTrainingRun]:
        return self.records["published_training_runs"]

    @property
    def benchmark_states(self) -> dict[str, hs.BenchmarkState]:
        return self.records["benchmark_states"]

    @property
    def benchmark_configurations(self) -> dict[str, hs.BenchmarkConfiguration]:
        return self.records["benchmark_configurations"]

    @property
    def benchmark_observations(self) -> dict[str, hs.BenchmarkObservation]:
        return self.records["benchmark_observations"]

    @property
    def historical_prices(self) -> dict[str, hs.HistoricalPrice]:
        return self.records["historical_prices"]

    def file_of(self, collection: str) -> str:
        """The data file (relative to the data directory) that holds ``collection`` (for a derived
        collection, the file it is derived from)."""
        if collection in DERIVED:
            return DERIVED[collection]
        for spec in FILES:
            if collection in collections_of(spec):
                return spec.name
        raise KeyError(collection)

    def origin(self, collection: str, record_id: str) -> tuple[str, int | None]:
        return self.file_of(collection), self.lines.get(collection, {}).get(record_id)

    def broken_in(self, *collections: str) -> list[Broken]:
        return [b for b in self.broken if b.collection in collections]

    def collection_named(self, table: object) -> str | None:
        """The collection whose records ``table`` is (the very dict of :attr:`records`), or None."""
        return next((name for name, records in self.records.items() if records is table), None)

    def why_missing(self, collection: str, record_id: str) -> str | None:
        """Why record ``record_id`` of ``collection`` was not loaded: its file was refused, the
        file holds no list of the collection, or the record was set aside (each reported at its
        file and line when the data was loaded); None when the data has no such record at all."""
        name = self.file_of(collection)
        if name in self.failed_files:
            return f"{name} could not be read"
        for broken in self.broken_in(collection):
            if broken.record_id is None:
                return f"{name} holds no valid list of {collection}"
            if broken.record_id == record_id:
                return f"its record ({name}:{broken.line or ''}) could not be loaded"
        return None

    def release_validation_state(self) -> None:
        """Forget what only validation needs: the line of every value (the bulk of the memory), the
        record paths and the files' texts; the records keep sharing the parts they share, the lookup
        table goes."""
        self.positions = {}
        self.record_paths = {}
        self.file_texts = {}
        self.shared_parts = {}

    @property
    def fingerprint(self) -> str:
        """A digest of every data file's content: equal fingerprints mean equal data."""
        digest = hashlib.sha256()
        for name in sorted(self.file_hashes):
            digest.update(f"{name}\0{self.file_hashes[name]}\0".encode())
        return digest.hexdigest()

    # Derived facts used by several pages -----------------------------------------------------

    def neuroncores(self, instance_id: str) -> int | None:
        """NeuronCores of an instance (None for a GPU's, or an unknown device's: refused by validation)."""
        instance = self.instances[instance_id]
        device = self.devices.get(instance.device)
        cores = device.neuroncores if device else None
        return instance.device_count * cores if cores else None

    def instance_spec(self, instance_id: str, metric: str) -> InstanceSpec | None:
        """``metric`` of a whole instance (None when neither the instance nor its device has it)."""
        instance = self.instances.get(instance_id)
        if instance is None:
            return None
        if metric == "efa_gbps":
            if instance.efa_gbps is None:
                return None
            return InstanceSpec(instance.efa_gbps, "Gbps", "EFA network bandwidth", instance.source, False)
        if metric in instance.specs:
            q = instance.specs[metric]
            return InstanceSpec(q.value, q.unit, q.label, q.source, False)
        device = self.devices.get(instance.device)
        if device is not None and metric in device.specs:
            q = device.specs[metric]
            return InstanceSpec(q.value * instance.device_count, q.unit, f"{q.label} x {instance.device_count} devices",
                                q.source, True)
        return None

    def frameworks_for(self, device_id: str) -> list[s.Framework]:
        """The frameworks of ``device_id``'s support matrix (those with ``support_matrix: false`` left out)."""
        return [f for f in self.frameworks.values() if device_id in f.devices and f.support_matrix]

    # The support matrices: the latest revision unless one is named ---------------------------

    def revision(self, date: str | None = None) -> Revision | None:
        """The revision of ``date`` (ISO text), the latest when ``date`` is None; None if there is none."""
        return self.matrix_revisions.at(date)

    def matrix(self, device_id: str, date: str | None = None) -> Matrix | None:
        """The matrix that lists ``device_id`` in a revision (default: the latest)."""
        rev = self.matrix_revisions.at(date)
        return rev.matrix_of(device_id) if rev else None

    def support(self, family_id: str, device_id: str, date: str | None = None) -> dict[str, Cell]:
        """Column key (``framework/workload``) -> cell of ``family_id`` on ``device_id``; empty when
        the revision (default: the latest) has no such row."""
        matrix = self.matrix(device_id, date)
        row = matrix.row(family_id) if matrix else None
        return dict(row.cells) if row else {}

    def fit(self, family_id: str, device_id: str, date: str | None = None) -> Fit | None:
        """The architecture fit of ``family_id`` on ``device_id`` in a revision (default: the latest)."""
        matrix = self.matrix(device_id, date)
        row = matrix.row(family_id) if matrix else None
        return row.fit if row else None

    def support_cell(self, family_id: str, device_id: str, framework_id: str, workload: str | None = None,
                     date: str | None = None) -> tuple[str, Cell] | None:
        """The column key and cell of a framework (for ``workload``; without it, the column for the
        device's purpose when there are several) on ``device_id``, or None."""
        cells = {k: c for k, c in self.support(family_id, device_id, date).items() if k.split("/")[0] == framework_id}
        purpose = self.devices[device_id].purpose if device_id in self.devices else None
        key = f"{framework_id}/{workload or purpose}"
        if workload is None and len(cells) == 1:
            key = next(iter(cells))
        return (key, cells[key]) if key in cells else None

    def roadmap_item(self, cell: Cell, date: str | None = None) -> str | None:
        """The roadmap item a cell points to: its status's published roadmap link (``roadmap``)."""
        rev = self.matrix_revisions.at(date)
        definition = rev.statuses.get(cell.status) if rev else None
        return definition.roadmap if definition else None

    def matrix_devices(self) -> list[str]:
        """Devices with a support matrix in the latest revision, in the order of its matrices."""
        rev = self.matrix_revisions.latest()
        return [d for m in rev.matrices for d in m.devices if d in self.devices] if rev else []
