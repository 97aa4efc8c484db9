"""The latest published state of the benchmark store, as the runs the current pages show.

The benchmark history (``data/benchmarks/history/``) is the one store of published figures. A
configuration still published in its latest state (not withdrawn), with the figures it publishes
now (observations whose status is ``published``), is a run of the current performance tables:
:func:`derive_latest_runs` makes each such configuration one :class:`.published.PublishedInferenceRun`
or :class:`.published.PublishedTrainingRun`, id for id, in the order of its table's rows, into the
catalog's ``published_inference_runs`` and ``published_training_runs`` (:data:`.catalog.DERIVED`).
Nothing else in ``data/`` holds those figures, so the performance tables, the advisor, the device
pages, the charts, the downloads and the drift checker cannot disagree with the history.

Two figures of one configuration and metric published at once (:mod:`.history_conflicts`: one
release with two values, as a hand edit of ``observations.csv`` makes, or two releases) are located
errors naming both lines and values, and the configuration's run is set aside, never one figure
picked in silence. A configuration whose figures do not make a valid run otherwise (a metric its
kind does not have) is a located error at its row of ``configurations.csv``, set aside like any
broken record. No Sphinx here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from ..catalog import DERIVED, Broken, Catalog
from ..files.loader import DataError
from ..records import history as hs
from ..records import published as ps
from ..records.history import DESCRIPTION_FIELDS
from .errors import located_errors
from .history_conflicts import figure_conflicts
from .references import dangling_message

#: The run model of each kind of configuration, and the collection its runs go to.
RUN_OF_KIND: dict[str, tuple[type[ps.PublishedInferenceRun] | type[ps.PublishedTrainingRun], str]] = {
    "inference": (ps.PublishedInferenceRun, "published_inference_runs"),
    "training": (ps.PublishedTrainingRun, "published_training_runs"),
}
#: Fields of a configuration that no run has (where and when it was published, what kind it is).
_NOT_RUN_FIELDS = frozenset({"generation", "kind", "view", "row", "file", "first_published", "first_state",
                             "last_seen", "withdrawn", "states", "identities", "paths"})


def _current_figures(catalog: Catalog) -> dict[str, list[hs.BenchmarkObservation]]:
    """Configuration -> its observations still published, in file order."""
    out: dict[str, list[hs.BenchmarkObservation]] = {}
    for obs in catalog.benchmark_observations.values():
        if obs.status == "published":
            out.setdefault(obs.configuration, []).append(obs)
    return out


def run_fields(config: hs.BenchmarkConfiguration, figures: list[hs.BenchmarkObservation]) -> dict[str, Any]:
    """The fields of the run ``config`` is in the latest state: its identity, its description and its
    published figures (raises ValueError when those name more than one release)."""
    releases = sorted({o.neuron_version for o in figures})
    if len(releases) > 1:
        msg = (f"figures of {len(releases)} releases published at once ({', '.join(releases)}); expected one "
               f"release per configuration in a state")
        raise ValueError(msg)
    fields: dict[str, Any] = {name: value for name, value in config.model_dump().items()
                              if name not in _NOT_RUN_FIELDS and value not in (None, "", {})}
    fields["neuron_version"] = releases[0] if releases else None
    values: dict[str, Decimal] = {o.metric: o.value for o in figures}
    fields.update(values)
    return fields


def _dangling(catalog: Catalog, run: ps.PublishedInferenceRun | ps.PublishedTrainingRun) -> list[tuple[str, str]]:
    """(field, message) for each record ``run`` names that the data lacks (the configuration's own
    instance and framework were checked with it; a run adds its table and a training run's instances)."""
    out = []
    # set aside, or its file refused: said so as a cascade of that cause (one cause, one warning)
    if run.table not in catalog.published_tables:
        out.append(("table", dangling_message(catalog, "published_tables", run.table)))
    for instance in getattr(run, "instances", []):
        if instance not in catalog.instances:
            out.append(("instances", dangling_message(catalog, "instances", instance)))
    return out


def _set_aside_with_their_rows(catalog: Catalog) -> None:
    """A configuration set aside is a run set aside too: its problem is reported once, at its row, and
    the pages that would show the run show that problem instead (:meth:`.catalog.Catalog.why_missing`).
    Its kind is unknown (the row did not load), so both collections say so; ids are unique across them."""
    for broken in [b for b in catalog.broken if b.collection == "benchmark_configurations" and b.record_id]:
        for collection in DERIVED:
            catalog.broken.append(Broken(collection, broken.record_id, broken.file, broken.line, list(broken.errors)))


def derive_latest_runs(catalog: Catalog) -> None:
    """Fill the derived collections of :data:`.catalog.DERIVED` from the loaded history."""
    unread = [b for b in catalog.broken
              if b.record_id is None and b.collection in ("benchmark_configurations", "benchmark_observations")]
    if unread:  # the store could not be read: the current runs are missing, not empty
        for collection, name in DERIVED.items():
            catalog.broken.append(Broken(collection, None, name, unread[0].line, list(unread[0].errors)))
        return
    figures = _current_figures(catalog)
    conflicts = figure_conflicts(catalog)
    for errors in conflicts.values():
        catalog.errors.extend(errors)
    lines = catalog.lines["benchmark_configurations"]
    name = catalog.file_of("benchmark_configurations")
    _set_aside_with_their_rows(catalog)
    unsure = {b.record_id.rsplit("-", 1)[0]: b for b in catalog.broken
              if b.collection == "benchmark_observations" and b.record_id}
    published = [c for c in catalog.benchmark_configurations.values() if c.withdrawn is None]
    published.sort(key=lambda c: (c.table or "", c.row or 0, c.id))
    for config in published:
        model, collection = RUN_OF_KIND[config.kind]
        line = lines.get(config.id)
        if config.id in unsure:  # one of its figures was set aside: the run would show the others only
            catalog.broken.append(Broken(collection, config.id, name, line, list(unsure[config.id].errors)))
            continue
        if config.id in conflicts:
            catalog.broken.append(Broken(collection, config.id, name, line, list(conflicts[config.id])))
            continue
        try:
            fields = run_fields(config, figures.get(config.id, []))
        except ValueError as exc:
            error = DataError(name, line, "id", f"configuration {config.id!r}: {exc}")
            catalog.errors.append(error)
            catalog.broken.append(Broken(collection, config.id, name, line, [error]))
            continue
        if not config.table:
            error = DataError(name, line, "table", f"configuration {config.id!r} is published but names no table; "
                                                   f"expected the published table its row is in")
            catalog.errors.append(error)
            catalog.broken.append(Broken(collection, config.id, name, line, [error]))
            continue
        try:
            run = model.model_validate(fields)
        except ValidationError as exc:
            errors = [DataError(name, line, e.field, f"configuration {config.id!r} as a published run: {e.message}")
                      for e in located_errors(exc, model, name, {}, (), lambda path: ".".join(map(str, path)))]
            catalog.errors.extend(errors)
            catalog.broken.append(Broken(collection, config.id, name, line, errors))
            continue
        dangling = _dangling(catalog, run)
        if dangling:
            errors = [DataError(name, line, field, message) for field, message in dangling]
            catalog.errors.extend(errors)
            catalog.broken.append(Broken(collection, config.id, name, line, errors))
            continue
        catalog.records[collection][run.id] = run
        catalog.lines[collection][run.id] = line
        catalog.record_paths[(collection, run.id)] = ((0,), True)  # a CSV row: field names follow


__all__ = ["DERIVED", "DESCRIPTION_FIELDS", "RUN_OF_KIND", "derive_latest_runs", "run_fields"]
