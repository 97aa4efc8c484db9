"""The benchmark history: every published state of the benchmark folder, folded into ``data/benchmarks/history/``.

A folder of states named ``<commit date>-<commit>/`` (each the whole published folder as it stood,
optionally with a ``STATES.tsv`` of commit subjects) is imported in date order, one state at a time,
by :func:`import_states`: each state is read with :func:`.importer.import_file` (column spellings of
:mod:`.columns`, every problem located by file, line and column) and folded into the
:class:`History` by :func:`apply_state`:

- a configuration's identity is its configuration columns (:data:`IDENTITY`), never its file or
  column spelling, so it survives renames and split files;
- a figure republished unchanged is kept once; one that changes under the same release is
  ``corrected`` (both kept, with their dates); one replaced by a later release's is ``superseded``;
  one whose configuration leaves the tables is ``withdrawn``;
- a release going backwards for a configuration, a configuration published twice with different
  figures in one state, a state whose rows do not parse, two states with one date (unless
  ``STATES.tsv`` orders them) are located problems, and the rest imports;
- prices keep their own history (basis, dates); :func:`price_in_force` is the price a cost of a
  given date uses.

States already in the history are skipped, so importing the same states again changes nothing and
a new state adds only what it changed. No Sphinx here.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..records import history as h
from ..records import published as s
from ..records.labels import METRICS
from . import columns as C
from .history_files import (
    CONFIGURATIONS_FILE, HISTORY_DIR, HISTORY_FILES, IDENTITY, METRIC_ORDER, OBSERVATIONS_FILE, PRICES_FILE,
    STATES_FILE, History, Row, canonical_version, configuration_id, description, identity, price_in_force,
    version_key,
)
from .history_files import digest as _digest
from .export import TABLES_FILE, latest_tables_text, write_changed
from .importer import import_file
from .read import ImportResult, Problem, slug

__all__ = ["CONFIGURATIONS_FILE", "HISTORY_DIR", "HISTORY_FILES", "IDENTITY", "METRIC_ORDER", "OBSERVATIONS_FILE",
           "PRICES_FILE", "STATES_FILE", "History", "Row", "canonical_version", "configuration_id", "identity",
           "price_in_force", "version_key"]

#: A state folder's name.
STATE_NAME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})-(?P<commit>[0-9a-z]+)$")
#: The states' list of commit subjects (``state<TAB>commit_date<TAB>commit_subject``), when present.
STATES_TSV = "STATES.tsv"
#: A release named in a commit subject ("Neuron SDK Release 2.3.0", "2.20 Performance page updates").
RELEASE_IN_SUBJECT = re.compile(r"(?<![\d.#])(\d+\.\d+(?:\.\d+)?)(?![\d.])")
#: The generation of a file outside a generation folder (the oldest states: inf1 only).
TOP_LEVEL_GENERATION = "inf1"
#: Training tables of 2022 have no Instance-Type column: the one trn1 type of the time.
DEFAULT_TRAINING_INSTANCES = ["trn1.32xlarge"]

# States ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StateFolder:
    """A published state to import: its folder, date, commit and (from STATES.tsv) subject and release."""

    id: str
    path: Path
    date: dt.date
    commit: str
    subject: str | None
    release: str | None
    #: Its position in STATES.tsv (None when not listed): orders states of one date.
    listed: int | None


def list_states(src: Path, problems: list[Problem], previous_release: str | None = None) -> list[StateFolder]:
    """The state folders under ``src`` in date order (STATES.tsv orders states of one date).

    A folder not named ``<date>-<commit>`` is a located error and skipped; of two states with one
    date that STATES.tsv does not order, the second is a located error and skipped. A state whose
    subject names no release takes the previous state's.
    """
    listed: dict[str, tuple[int, str]] = {}
    tsv = src / STATES_TSV
    if tsv.is_file():
        rows = list(csv.reader(io.StringIO(tsv.read_text(encoding="utf-8-sig")), delimiter="\t"))
        for index, row in enumerate(rows[1:], start=2):
            if len(row) >= 3:
                listed[row[0]] = (index, row[2])
            elif row:
                problems.append(Problem(STATES_TSV, index, "", f"row has {len(row)} fields; expected 3 "
                                                              "(state, commit_date, commit_subject)", "warning"))
    found: list[tuple[dt.date, int, str, Path, str]] = []
    for child in sorted(src.iterdir()):
        if not child.is_dir():
            continue
        m = STATE_NAME.match(child.name)
        date = None
        if m:
            try:
                date = dt.date.fromisoformat(m["date"])
            except ValueError:
                date = None
        if m is None or date is None:
            problems.append(Problem(child.name, None, "", "not a state folder; expected a folder named "
                                                          "<commit date>-<commit> such as 2024-04-11-8907253c"))
            continue
        order = listed.get(child.name, (10**9, ""))[0]
        found.append((date, order, child.name, child, m["commit"]))
    found.sort()
    out: list[StateFolder] = []
    release = previous_release
    for date, order, name, path, commit in found:
        if out and out[-1].date == date:
            if out[-1].listed is not None and order < 10**9:
                problems.append(Problem(name, None, "", f"published on {date} as {out[-1].id} was; imported after "
                                                        f"it, in the order of {STATES_TSV}", "warning"))
            else:
                problems.append(Problem(name, None, "", f"two states dated {date} ({out[-1].id} and {name}) and no "
                                                        f"{STATES_TSV} line orders them; {name} not imported"))
                continue
        subject = listed.get(name, (0, None))[1]
        named = RELEASE_IN_SUBJECT.search(subject or "")
        release = canonical_version(named[1]) if named else release
        out.append(StateFolder(name, path, date, commit, subject or None, release,
                               order if order < 10**9 else None))
    return out


# The history ----------------------------------------------------------------------------------


# Folding one state in -------------------------------------------------------------------------


@dataclass
class StateSummary:
    """What one state did to the history."""

    state: str
    rows: int = 0
    placed: int = 0
    set_aside: int = 0
    new: int = 0
    corrected: int = 0
    superseded: int = 0
    withdrawn: int = 0
    skipped: bool = False


def _has_column(table: s.PublishedTable, fieldname: str) -> bool:
    return any((c := C.lookup(name, table.kind)) is not None and c.field == fieldname for name in table.columns)


def _end(row: Row, status: str, last_seen: str, ended: str) -> None:
    row.update(status=status, last_seen=last_seen, ended=ended)


def apply_state(history: History, state: StateFolder, result: ImportResult,
                unchanged: frozenset[str] = frozenset(), introduced: Mapping[str, int] | None = None,
                ) -> tuple[StateSummary, list[Problem]]:
    """Fold one imported state into ``history``; return what changed and the problems it found.

    A folder keeps files that no page reads any more after a split or rename. A file is *stale*
    when its bytes are ``unchanged`` since the previous state, or when a file ``introduced`` later
    (path inside the state -> the index of the first state holding it) publishes some of its
    configurations. Files are read fresh first, newest first; a stale file's row that disagrees
    with a fresher file's row of its configuration, or is older than the history, is a stale copy
    (a warning, set aside); the same disagreement between fresh files is an error.
    """
    problems: list[Problem] = []
    summary = StateSummary(state.id)
    date = state.date.isoformat()
    previous = history.latest["date"] if history.latest else date
    prefix = state.id + "/"
    tables = {t.id: t for t in result.tables}
    errors_by_file = {p.file.removeprefix(prefix) for p in result.errors}
    price_files = {t.path for t in result.tables if t.kind == "prices"}
    summary.rows = sum(n for f, n in result.rows_read.items() if f not in price_files)
    introduced = introduced or {}

    runs = []
    by_path: dict[str, set[str]] = {}
    every: list[s.PublishedInferenceRun | s.PublishedTrainingRun] = [*result.inference_runs, *result.training_runs]
    for run in every:
        assert run.table is not None
        table = tables[run.table]
        path = table.path.removeprefix(prefix)
        ident = identity(run, table.generation, path)
        cid = configuration_id(ident)
        runs.append((run, table, path, ident, cid))
        by_path.setdefault(path, set()).add(cid)
    stale = set(unchanged) | {p for p in by_path for q in by_path
                              if introduced.get(q, 0) > introduced.get(p, 0) and by_path[p] & by_path[q]}

    def rank(path: str) -> tuple[bool, int]:
        return path in stale, -introduced.get(path, 0)

    seen: dict[str, tuple[str, int, str, dict[str, Decimal]]] = {}  # configuration -> file, line, version, figures
    kept_open: set[str] = set()  # configurations with a row set aside: not withdrawn by this state
    placed: list[tuple[str, dict[str, str], str, int, str, str, dict[str, Decimal], dict[str, str]]] = []
    runs.sort(key=lambda r: rank(r[2]))  # stable: file order kept
    for run, table, path, ident, cid in runs:
        line = result.lines.get(run.id, 0)
        version = canonical_version(run.neuron_version)
        version_from = "column" if _has_column(table, "neuron_version") else "state"
        figures = {m: getattr(run, m) for m in METRICS if getattr(run, m, None) is not None}
        if cid in seen:
            other = seen[cid]
            if other[2] == version and other[3] == figures:
                problems.append(Problem(table.path, line, "", f"same configuration and figures as {other[0]} line "
                                                              f"{other[1]}; kept once", "warning"))
            elif rank(other[0]) < rank(path) and path in stale:
                problems.append(Problem(table.path, line, "", f"stale copy: {other[0]} line {other[1]}, a newer or "
                                                              f"updated file, publishes the configuration with other "
                                                              f"figures; its figures kept", "warning"))
            else:
                problems.append(Problem(table.path, line, "", f"same configuration as {prefix}{other[0]} line "
                                                              f"{other[1]} with other figures or release; expected "
                                                              f"one row per configuration in a state; set aside"))
                summary.set_aside += 1
            continue
        latest = history.latest_version(cid)
        if latest is not None and version_key(version) < version_key(latest):
            if path in stale:  # an old copy in a file no page reads: the fresh files decide whether it is withdrawn
                problems.append(Problem(table.path, line, "", f"stale copy: Neuron {version} in a file unchanged "
                                                              f"since the previous state or replaced by a newer one, "
                                                              f"the configuration already has {latest}; set aside",
                                        "warning"))
                continue
            kept_open.add(cid)
            column = next((c for c in table.columns if (k := C.lookup(c, table.kind)) and k.field == "neuron_version"),
                          "Neuron Version")
            problems.append(Problem(table.path, line, column, f"Neuron {version} for a configuration already "
                                                              f"published with {latest}: a release going backwards; "
                                                              f"expected {latest} or later; set aside"))
            summary.set_aside += 1
            continue
        seen[cid] = (path, line, version, figures)
        placed.append((cid, ident, path, line, version, version_from, figures, description(run, line)))

    summary.set_aside += sum(1 for p in result.errors if p.line and p.file not in price_files)
    if summary.rows and not placed:
        problems.append(Problem(state.id, None, "", f"no row of the state could be placed ({summary.rows} rows read); "
                                                    "expected published benchmark tables; state not imported"))
        return summary, problems

    for cid, ident, path, _line, version, version_from, figures, described in placed:
        summary.placed += 1
        config = history.configurations.get(cid)
        if config is None:
            history.configurations[cid] = {**{n: "" for n in h.BenchmarkConfiguration.model_fields}, **ident,
                                           "id": cid, "file": path, "first_published": date, "first_state": state.id,
                                           **described}
        else:
            config.update(file=path, last_seen="", withdrawn="", **described)
        for metric, value in figures.items():
            rows = history.observations.setdefault((cid, metric), [])
            current = next((o for o in rows if o["status"] == "published"), None)
            if current is not None:
                if current["neuron_version"] == version and Decimal(current["value"]) == value:
                    continue
                corrected = current["neuron_version"] == version
                _end(current, "corrected" if corrected else "superseded", previous, date)
                if corrected:
                    summary.corrected += 1
                else:
                    summary.superseded += 1
            else:
                again = [o for o in rows if o["neuron_version"] == version and Decimal(o["value"]) == value]
                if again:  # republished after a gap: the same observation, kept once
                    _end(again[-1], "published", "", "")
                    continue
            summary.new += 1
            rows.append({"id": f"{cid}-{_digest(version, metric, state.id)[:8]}", "configuration": cid,
                         "neuron_version": version, "version_from": version_from, "metric": metric,
                         "value": str(value), "first_published": date, "first_state": state.id, "last_seen": "",
                         "ended": "", "status": "published"})

    # Withdrawn: published before, not in this state, and its file read without a row set aside.
    for cid, config in history.configurations.items():
        if config["withdrawn"] or cid in kept_open:
            continue
        if cid not in seen and config["file"] in errors_by_file:
            continue
        gone = cid not in seen
        if gone:
            config.update(last_seen=previous, withdrawn=date)
        for metric in METRICS:
            published = history.observations.get((cid, metric)) or []
            current = next((o for o in published if o["status"] == "published"), None)
            if current is not None and (gone or metric not in seen[cid][3]):
                _end(current, "withdrawn", previous, date)
                summary.withdrawn += 1

    _apply_prices(history, state, result, problems)
    history.states.append({"id": state.id, "date": date, "commit": state.commit, "subject": state.subject or "",
                           "release": state.release or "", "rows": str(summary.rows), "placed": str(summary.placed),
                           "set_aside": str(summary.set_aside)})
    return summary, problems


def _apply_prices(history: History, state: StateFolder, result: ImportResult, problems: list[Problem]) -> None:
    date = state.date.isoformat()
    previous = history.latest["date"] if history.latest else date
    prefix = state.id + "/"
    tables = {t.id: t for t in result.tables}
    price_files = {t.path for t in result.tables if t.kind == "prices"}
    price_errors = any(p.file in price_files or "price" in Path(p.file).name for p in result.errors)
    present: set[str] = set()
    for price in result.prices:
        assert price.table is not None
        present.add(price.instance)
        rows = history.prices.setdefault(price.instance, [])
        current = next((p for p in rows if p["status"] == "published"), None)
        if current is not None:
            if current["basis"] == price.basis and Decimal(current["usd_per_hour"]) == price.usd_per_hour:
                continue
            _end(current, "changed", previous, date)
        rows.append({"id": slug(f"{price.instance}-{_digest(price.basis, price.usd_per_hour, state.id)[:8]}"),
                     "instance": price.instance, "basis": price.basis, "usd_per_hour": str(price.usd_per_hour),
                     "file": tables[price.table].path.removeprefix(prefix), "first_published": date,
                     "first_state": state.id, "last_seen": "", "ended": "", "status": "published"})
    if price_errors:
        return
    for instance, rows in history.prices.items():
        current = next((p for p in rows if p["status"] == "published"), None)
        if current is not None and instance not in present:
            _end(current, "withdrawn", previous, date)


def validate_texts(texts: dict[str, str]) -> list[Problem]:
    """Every history row checked against its model (what the data layer will load); a located problem each."""
    problems = []
    for name, text in texts.items():
        model = HISTORY_FILES[name]
        for line, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
            try:
                model.model_validate({k: v for k, v in row.items() if v != ""})
            except ValueError as exc:
                problems.append(Problem(name, line, "", f"history row does not validate: {exc}"))
    return problems


def import_states(src: Path, data_dir: Path, instances: Sequence[str], frameworks: Sequence[str], *,
                  source: str) -> tuple[History, list[StateSummary], list[Problem]]:
    """Import every state under ``src`` not yet in the history of ``data_dir`` (the history is not written;
    :attr:`History.latest_tables` holds the latest state's table layouts when this import read it)."""
    history = History.load(data_dir)
    problems: list[Problem] = []
    known = {r["id"]: r for r in history.states}
    previous_release = history.latest["release"] or None if history.latest else None
    summaries = []
    states = list_states(src, problems, previous_release)
    order = [state.id for state in states]
    introduced: dict[str, int] = {}
    for index, state in enumerate(states):
        for file in state.path.rglob("*.csv"):
            introduced.setdefault(file.relative_to(state.path).as_posix(), index)
    for state in states:
        if state.id in known:
            continue
        latest = history.latest
        if latest is not None and not (order.index(state.id) > order.index(latest["id"]) if latest["id"] in order
                                       else state.date.isoformat() > latest["date"]):
            problems.append(Problem(state.id, None, "", f"published on {state.date}, not after the history's latest "
                                                        f"state {latest['id']}; states import in date order; "
                                                        "not imported"))
            continue
        result = ImportResult()
        defaults: dict[str, Any] = {"instances": DEFAULT_TRAINING_INSTANCES}
        if state.release:
            defaults["neuron_version"] = state.release
        for file in sorted(state.path.rglob("*.csv")):
            rel = file.relative_to(src).as_posix()
            generation = TOP_LEVEL_GENERATION if file.parent == state.path else None
            import_file(file, rel, result, set(instances), set(frameworks), source=source, as_of=state.date,
                        region=None, term=None, generation=generation, defaults=defaults)
        before = order.index(state.id) - 1
        unchanged = _unchanged_files(states[before].path, state.path) if before >= 0 else set()
        summary, found = apply_state(history, state, result, frozenset(unchanged), introduced)
        problems.extend(result.problems)
        problems.extend(found)
        summaries.append(summary)
        if history.latest and history.latest["id"] == state.id:
            history.latest_tables = (state.id, result.tables)
    return history, summaries, problems


def _unchanged_files(previous: Path, current: Path) -> set[str]:
    """The CSV paths of ``current`` whose bytes equal those of the same path in ``previous``."""
    out = set()
    for file in current.rglob("*.csv"):
        rel = file.relative_to(current)
        before = previous / rel
        if before.is_file() and before.read_bytes() == file.read_bytes():
            out.add(rel.as_posix())
    return out


def report(problems: list[Problem]) -> list[str]:
    """The problems as lines, a problem repeated in later states (same file, line, column, message) once."""
    seen: dict[tuple[str, int | None, str, str], list[Problem]] = {}
    for p in problems:
        _, _, rest = p.file.partition("/")
        key = (rest or p.file, p.line, p.column, p.message)
        seen.setdefault(key, []).append(p)
    out = []
    for group in seen.values():
        text = str(group[0])
        if len(group) > 1:
            text += f" (also in {len(group) - 1} later state{'s' if len(group) > 2 else ''})"
        out.append(text)
    return out


def main(src: Path, data_dir: Path, instances: Sequence[str], frameworks: Sequence[str], *, source: str) -> int:
    """``make import-benchmarks SRC=<folder of states>``: import them into the history; print every problem."""
    history, summaries, problems = import_states(src, data_dir, instances, frameworks, source=source)
    texts = history.texts()
    invalid = validate_texts(texts)
    for line in report(problems + invalid):
        print(line)
    if invalid:
        print(f"{len(invalid)} history rows do not validate; nothing written")
        return 1
    texts = dict(texts)
    if history.latest_tables is not None:
        state, tables = history.latest_tables
        placed = {c["table"] for c in history.configurations.values() if not c["withdrawn"] and c["table"]}
        texts[TABLES_FILE] = latest_tables_text(tables, state + "/", placed)
    written = write_changed(data_dir, texts)
    for summary in summaries:
        print(f"{summary.state}: {summary.rows} rows, {summary.placed} placed, {summary.new} new figures, "
              f"{summary.corrected} corrected, {summary.superseded} superseded, {summary.withdrawn} withdrawn")
    errors = sum(1 for p in problems if p.severity == "error")
    print(f"{len(summaries)} states imported ({len(history.states)} in the history), "
          f"{len(history.configurations)} configurations, {sum(map(len, history.observations.values()))} figures; "
          f"{errors} errors; {len(written)} data files changed")
    return 1 if errors else 0
