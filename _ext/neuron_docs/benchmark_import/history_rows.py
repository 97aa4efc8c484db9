"""The benchmark history's files (``data/benchmarks/history/``) as rows, and the identity of a configuration.

:class:`History` holds the four files (:data:`~neuron_docs.data.catalog.HISTORY_FILES`) as rows of
text cells (empty = unset), reads and writes them in a stable order (equal histories are equal files;
a file is rewritten only when its text changes); :func:`identity` and :func:`configuration_id` name a
published run's configuration by its configuration columns (:data:`IDENTITY`): the one rule by which
the import files a row, so that a run is its configuration in the latest state, id for id (what the
current performance tables look a row's history up by). The import (:mod:`.states`, :mod:`.fold`)
reads this module; it imports neither of them. No Sphinx here.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..data.catalog import CONFIGURATIONS_FILE, HISTORY_FILES, OBSERVATIONS_FILE, PRICES_FILE, STATES_FILE
from ..data.files.atomic import write_files
from ..data.records import history as h
from ..data.records import published as s
from ..data.records.history import canonical_version, version_key
from ..data.records.labels import METRICS
from .read import slug

METRIC_ORDER = {m: i for i, m in enumerate(METRICS)}
#: The configuration columns: what identifies a configuration, by kind
#: (see :class:`.records.history.BenchmarkConfiguration`).
IDENTITY: dict[str, tuple[str, ...]] = {
    "inference": ("model", "model_details", "framework", "instance", "application_type", "run_mode", "batch_size",
                  "neuroncores", "threads", "n_models", "workers_per_model", "tp_degree", "dp_degree",
                  "sequence_length", "input_length", "output_length", "image_size", "model_data_type",
                  "autocast_data_type", "weight_storage_data_type"),
    "training": ("model", "instances", "model_data_type", "training_data_type", "nodes", "tp_degree", "dp_degree",
                 "pp_degree", "zero_stage", "micro_batch_size", "global_batch_size", "optimizer",
                 "sequence_length", "scaling"),
}


FileRow = dict[str, str]


def _read_rows(path: Path) -> list[FileRow]:
    if not path.is_file():
        return []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines(keepends=True) if not line.startswith("#")]
    return [{k: v or "" for k, v in row.items()} for row in csv.DictReader(io.StringIO("".join(lines)))]


@dataclass
class History:
    """The history as rows of its CSV files (text cells; empty = unset), made by :func:`.fold.fold`."""

    states: list[FileRow] = field(default_factory=list)
    configurations: dict[str, FileRow] = field(default_factory=dict)
    #: (configuration, metric) -> its observations, oldest first.
    observations: dict[tuple[str, str], list[FileRow]] = field(default_factory=dict)
    #: instance -> its prices, oldest first.
    prices: dict[str, list[FileRow]] = field(default_factory=dict)
    #: The latest state's id and table layouts, when an import read it (not a file: the import
    #: writes them to ``benchmarks/published/tables.yaml``).
    latest_tables: tuple[str, list[s.PublishedTable]] | None = None

    @classmethod
    def load(cls, data_dir: Path) -> History:
        out = cls(states=_read_rows(data_dir / STATES_FILE))
        out.configurations = {r["id"]: r for r in _read_rows(data_dir / CONFIGURATIONS_FILE)}
        for row in _read_rows(data_dir / OBSERVATIONS_FILE):
            out.observations.setdefault((row["configuration"], row["metric"]), []).append(row)
        for row in _read_rows(data_dir / PRICES_FILE):
            out.prices.setdefault(row["instance"], []).append(row)
        return out

    @property
    def latest(self) -> FileRow | None:
        return self.states[-1] if self.states else None

    def latest_version(self, configuration: str) -> str | None:
        versions = [o["neuron_version"] for (c, _), rows in self.observations.items() if c == configuration
                    for o in rows]
        return max(versions, key=version_key, default=None)

    def texts(self) -> dict[str, str]:
        """Every history file's text, rows in a stable order (so that equal histories are equal files)."""
        observations = sorted((o for rows in self.observations.values() for o in rows),
                              key=lambda o: (o["configuration"], METRIC_ORDER[o["metric"]], o["first_published"],
                                             version_key(o["neuron_version"]), o["id"]))
        configurations = sorted(self.configurations.values(),
                                key=lambda c: (c["generation"], c["kind"], c["view"], c["model"], c["id"]))
        prices = sorted((p for rows in self.prices.values() for p in rows),
                        key=lambda p: (p["instance"], p["first_published"], p["id"]))
        out = {}
        for name, rows in ((STATES_FILE, self.states), (CONFIGURATIONS_FILE, configurations),
                           (OBSERVATIONS_FILE, observations), (PRICES_FILE, prices)):
            buffer = io.StringIO()
            writer = csv.DictWriter(buffer, fieldnames=list(HISTORY_FILES[name].model_fields), lineterminator="\n",
                                    extrasaction="raise")
            writer.writeheader()
            writer.writerows(rows)
            out[name] = buffer.getvalue()
        return out

    def write(self, data_dir: Path) -> list[Path]:
        """Write the files whose text changed (all of them or none:
        :func:`~neuron_docs.data.files.atomic.write_files`); return them."""
        return write_files(data_dir, self.texts())


# A configuration's identity --------------------------------------------------------------------


def digest(*parts: object) -> str:
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ";".join(value)
    return str(value)


def _view(kind: str, path: str) -> str:
    """The tab a run was published under: from the file name (``..._latency_optimized``, ``latency_data_*``)."""
    if kind == "training":
        return "training"
    return "latency" if "latency" in Path(path).stem else "throughput"


def identity(run: s.PublishedInferenceRun | s.PublishedTrainingRun, generation: str, path: str) -> dict[str, str]:
    """A run's configuration columns (set ones only), with its generation, kind and view."""
    kind = "training" if isinstance(run, s.PublishedTrainingRun) else "inference"
    out = {"generation": generation, "kind": kind, "view": _view(kind, path)}
    for name in IDENTITY[kind]:
        value = getattr(run, name, None)
        if value is not None and value != []:
            out[name] = _cell(value)
    return out


def description(run: s.PublishedInferenceRun | s.PublishedTrainingRun, line: int,
                version_column: str = "") -> dict[str, str]:
    """How ``run`` was published (:data:`.records.history.DESCRIPTION_FIELDS`: its table, its row's ``line``, script,
    software names), as a configuration's cells; a field the run has not is an empty cell. A release
    published in other words than its canonical form (``2.20`` for 2.20.0) keeps its text in
    ``published_text`` under ``version_column``, so that the latest state's runs export as published."""
    out = {}
    verbatim = dict(run.published_text)
    if version_column and version_column not in verbatim and canonical_version(run.neuron_version) != run.neuron_version:
        verbatim[version_column] = run.neuron_version
    for name in h.DESCRIPTION_FIELDS:
        value = line if name == "row" else verbatim if name == "published_text" else getattr(run, name, None)
        if name == "published_text":
            out[name] = json.dumps(value, ensure_ascii=False, sort_keys=True) if value else ""
        else:
            out[name] = _cell(value)
    if isinstance(run, s.PublishedTrainingRun):  # not part of a training configuration's identity
        out["framework"] = run.framework
    return out


def configuration_id(ident: dict[str, str]) -> str:
    key = json.dumps(ident, sort_keys=True, ensure_ascii=False)
    return f"{ident['generation']}-{slug(ident['model'])[:30].strip('-.')}-{digest(key)[:8]}"
