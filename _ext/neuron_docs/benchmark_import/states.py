"""The benchmark history: every published state of the benchmark folder, folded into ``data/benchmarks/history/``.

A folder of states named ``<commit date>-<commit>/`` (each the whole published folder as it stood,
optionally with a ``STATES.tsv`` of commit subjects) is imported by :func:`import_states`, in any
order: the history is a pure function of the set of states folded into it (:mod:`.fold`,
which states the rules: identity, continued configurations, corrections, supersessions,
withdrawals, releases going backwards), so a state older than the latest folds in where it
belongs and the same states give the same files whatever order they came in. A state already in
the history is not read again: its facts are read back from the history's files; ``rebuild`` reads
every state of the folder into an empty history instead.

Each state is read with :func:`.tables.import_file` (column spellings of :mod:`.columns`, every
problem located by file, line and column) and reduced to its facts by :func:`state_facts`:

- a folder keeps files no page reads any more after a split or rename. A file is *stale* when its
  bytes are unchanged since the state before, or when a file that a later state introduced
  publishes some of its configurations; the states around a state are the history's and the
  folder's together, the history's known by the digests of their files (``states.csv``'s
  ``files``), so an older state folded in alone is compared with the states the history holds
  around it. A stale file's row that disagrees with a fresher file's is a stale copy (a warning, set
  aside); the same disagreement between fresh files is an error naming both rows and both figures.
  A state of the history whose stale files the newly folded states would decide otherwise is read
  again when its folder is in the folder imported, and named in a warning when it is not;
- the oldest states keep their files at the top level (inf1); the 2022 trn1 tables without
  ``Neuron Version`` take the release the state's subject names (or the one before's), without
  ``Instance-Type`` trn1.32xlarge, each a warning at line 1;
- a state none of whose rows parse is a located error and not imported; two states with one date
  are ordered by ``STATES.tsv`` when it lists both, else the second is a located error.

:func:`import_snapshot` folds a published snapshot that is not a folder of states (one CSV, or a
folder of them) in as a *partial* state dated ``as_of``: it withdraws only configurations last
seen in the files it holds. Prices keep their own history (basis, dates);
:func:`~neuron_docs.data.published.history_view.price_in_force` is the price a cost of a given date
uses. ``make import-benchmarks`` runs it (:mod:`.command`). No Sphinx here.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..data.catalog import HISTORY_FILES
from ..data.published import columns as C
from ..data.records import published as s
from ..data.records.history import canonical_version
from ..data.records.labels import METRICS
from .export import TABLES_FILE, latest_tables_text
from .fold import PriceFact, PublishedFigure, RowFact, StateFacts, StateSummary, fold, state_releases, stored_facts
from .history_rows import History, configuration_id, description, identity
from .read import ImportResult, Problem
from .tables import import_file

#: A state folder's name.
STATE_NAME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})-(?P<commit>[0-9a-z]+)$")
#: The states' list of commit subjects (``state<TAB>commit_date<TAB>commit_subject``), when present.
STATES_TSV = "STATES.tsv"
#: The generation of a file outside a generation folder (the oldest states: inf1 only).
TOP_LEVEL_GENERATION = "inf1"
#: Training tables of 2022 have no Instance-Type column: the one trn1 type of the time.
DEFAULT_TRAINING_INSTANCES = ["trn1.32xlarge"]

# States ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StateFolder:
    """A published state to import: its folder, date, commit and (from STATES.tsv) subject."""

    id: str
    path: Path
    date: dt.date
    commit: str
    subject: str | None
    #: Its position in STATES.tsv (None when not listed): orders states of one date.
    listed: int | None


def list_states(src: Path, problems: list[Problem]) -> tuple[list[StateFolder], dict[str, tuple[int, str]]]:
    """The state folders under ``src`` in date order, and STATES.tsv's lines (state -> position, subject).

    A folder not named ``<date>-<commit>`` is a located error and skipped.
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
    found = []
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
        entry = listed.get(child.name)
        found.append(StateFolder(child.name, child, date, m["commit"], (entry[1] if entry else "") or None,
                                 entry[0] if entry else None))
    found.sort(key=lambda f: (f.date, f.listed if f.listed is not None else 10**9, f.id))
    return found, listed


def _ordered(stored: list[StateFacts], new: list[StateFacts], listed: Mapping[str, tuple[int, str]],
             problems: list[Problem]) -> list[StateFacts]:
    """The states of the history and the new ones in date order. States of one date are in the order
    of STATES.tsv when it lists them all; else the history's keep theirs, and a new one joins them only
    if it is the only state of its date (otherwise a located error: not imported)."""
    groups: dict[str, list[StateFacts]] = {}
    for state in stored:
        groups.setdefault(state.date, []).append(state)
    for state in new:
        group = groups.setdefault(state.date, [])
        if group and not all(g.id in listed for g in (*group, state)):
            others = " and ".join(g.id for g in group)
            problems.append(Problem(state.id, None, "", f"two states dated {state.date} ({others} and {state.id}) "
                                                        f"and no {STATES_TSV} line orders them; {state.id} not "
                                                        f"imported"))
            continue
        if group:
            problems.append(Problem(state.id, None, "", f"published on {state.date} as {group[-1].id} was; ordered "
                                                        f"by {STATES_TSV}", "warning"))
        group.append(state)
    out = []
    for date in sorted(groups):
        group = groups[date]
        if len(group) > 1 and all(g.id in listed for g in group):
            group.sort(key=lambda g: listed[g.id][0])
        out += group
    return out


def folder_files(folder: Path) -> dict[str, str]:
    """A state's CSV files (path inside it -> the first 12 hex digits of the SHA-256 of its bytes)."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()[:12]
            for p in sorted(folder.rglob("*.csv"))}


def _introduced(states: Sequence[StateFacts]) -> dict[str, int]:
    """Each file path (inside a state) -> the position of the first state holding it."""
    out: dict[str, int] = {}
    for index, state in enumerate(states):
        for path in state.files:
            out.setdefault(path, index)
    return out


def _neighbours(states: Sequence[StateFacts], index: int, introduced: Mapping[str, int]
                ) -> tuple[frozenset[str], dict[str, int]]:
    """What the stale-file rule compares state ``index`` with: its files unchanged since the state
    before, and the first state (position) of each of its files."""
    state = states[index]
    before = states[index - 1].files if index else {}
    unchanged = frozenset(p for p, d in state.files.items() if before.get(p) == d)
    return unchanged, {p: introduced[p] for p in state.files}


def _decisions(states: Sequence[StateFacts], index: int, introduced: Mapping[str, int]
               ) -> frozenset[tuple[str, str, bool]]:
    """What the stale-file rule would decide for state ``index`` among the states ``states`` where it
    decided between rows when the state was read: of two of its files that publish a configuration
    both, which ranks first, and whether the other is stale (its disagreeing row a stale copy, not an
    error)."""
    state = states[index]
    pairs = [(a, b) for a, b, _ in state.decided]
    unchanged, first = _neighbours(states, index, introduced)
    stale = set(unchanged) | {p for a, b in pairs for p, q in ((a, b), (b, a)) if first.get(q, 0) > first.get(p, 0)}

    def rank(path: str) -> tuple[bool, int, str]:  # a tie: file order, as reading does
        return path in stale, -first.get(path, 0), path

    out = set()
    for a, b in pairs:
        kept, other = sorted((a, b), key=rank)
        out.add((kept, other, other in stale))
    return frozenset(out)


# One state's facts ----------------------------------------------------------------------------


def _has_column(table: s.PublishedTable, fieldname: str) -> str | None:
    return next((name for name in table.columns if (c := C.lookup(name, table.kind)) is not None
                 and c.field == fieldname), None)


def _difference(version: str, figures: Mapping[str, Decimal], other_version: str,
                other_figures: Mapping[str, Decimal]) -> str:
    """Two rows of one configuration in words: what differs, this row's value first."""
    out = [f"Neuron {version} against {other_version}"] if version != other_version else []
    for metric in METRICS:
        mine, theirs = figures.get(metric), other_figures.get(metric)
        if mine != theirs:
            out.append(f"{metric} {'none' if mine is None else mine} against {'none' if theirs is None else theirs}")
    return "; ".join(out)


def state_facts(state: StateFacts, result: ImportResult, prefix: str, unchanged: frozenset[str],
                introduced: Mapping[str, int]) -> tuple[StateFacts | None, list[Problem]]:
    """``state`` with the facts of its files as ``result`` read them (paths prefixed with ``prefix``);
    None when no row of it could be placed. See the module for the stale-file rule."""
    problems: list[Problem] = []
    tables = {t.id: t for t in result.tables}
    errors_by_file = {p.file.removeprefix(prefix) for p in result.errors}
    price_files = {t.path for t in result.tables if t.kind == "prices"}
    rows_read = sum(n for f, n in result.rows_read.items() if f not in price_files)

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
    overlaps = [(p, q) for p in by_path for q in by_path if p < q and by_path[p] & by_path[q]]
    stale = set(unchanged) | {p for a, b in overlaps for p, q in ((a, b), (b, a))
                              if introduced.get(q, 0) > introduced.get(p, 0)}
    decided = set()
    for a, b in overlaps:
        ahead, behind = sorted((a, b), key=lambda p: (p in stale, -introduced.get(p, 0), p))
        decided.add((ahead, behind, behind in stale))

    def rank(path: str) -> tuple[bool, int]:
        return path in stale, -introduced.get(path, 0)

    seen: dict[str, tuple[str, int, str, dict[str, Decimal]]] = {}  # configuration -> file, line, version, figures
    rows: list[RowFact] = []
    set_aside = sum(1 for p in result.errors if p.line and p.file not in price_files)
    runs.sort(key=lambda r: rank(r[2]))  # stable: file order kept
    for run, table, path, ident, cid in runs:
        line = result.lines.get(run.id, 0)
        version = canonical_version(run.neuron_version)
        column = _has_column(table, "neuron_version")
        version_from = "column" if column else "state"
        figures = {m: getattr(run, m) for m in METRICS if getattr(run, m, None) is not None}
        if cid in seen:
            other = seen[cid]
            if other[2] == version and other[3] == figures:
                problems.append(Problem(table.path, line, "", f"same configuration and figures as {other[0]} line "
                                                              f"{other[1]}; kept once", "warning"))
            elif rank(other[0]) < rank(path) and path in stale:
                problems.append(Problem(table.path, line, "", f"stale copy: {other[0]} line {other[1]}, a newer or "
                                                              f"updated file, publishes the configuration with other "
                                                              f"figures ({_difference(version, figures, *other[2:])}); "
                                                              f"its figures kept", "warning"))
            else:
                problems.append(Problem(table.path, line, "", f"same configuration as {prefix}{other[0]} line "
                                                              f"{other[1]} with other figures: "
                                                              f"{_difference(version, figures, *other[2:])}; expected "
                                                              f"one row per configuration in a state; set aside"))
                set_aside += 1
            continue
        seen[cid] = (path, line, version, figures)
        shown = version if version_from == "column" else ""
        rows.append(RowFact(ident, shown, {m: PublishedFigure(shown, version_from, str(v)) for m, v in figures.items()},
                            description(run, line, column or ""), file=path, where=table.path, line=line,
                            column=column or "Neuron Version", stale=path in stale))
    if _placed_none(result):
        problems.append(_not_imported(state.id, result))
        return None, problems
    prices = []
    for price in result.prices:
        assert price.table is not None
        prices.append(PriceFact(price.instance, price.basis, str(price.usd_per_hour),
                                tables[price.table].path.removeprefix(prefix)))
    price_errors = any(p.file in price_files or "price" in Path(p.file).name for p in result.errors)
    return replace(state, rows=rows, prices=prices, rows_read=rows_read, set_aside=set_aside, placed=None,
                   decided=frozenset(decided),
                   error_files=frozenset(errors_by_file), price_errors=price_errors, read=True), problems


def _runs_read(result: ImportResult) -> int:
    price_files = {t.path for t in result.tables if t.kind == "prices"}
    return sum(n for f, n in result.rows_read.items() if f not in price_files)


def _placed_none(result: ImportResult) -> bool:
    """Rows were read and none loaded (so none can be placed): the state is not imported."""
    return bool(_runs_read(result)) and not (result.inference_runs or result.training_runs)


def _not_imported(state: str, result: ImportResult) -> Problem:
    return Problem(state, None, "", f"no row of the state could be placed ({_runs_read(result)} rows read); "
                                    "expected published benchmark tables; state not imported")


def _read(folder: StateFolder, src: Path, release: str, instances: Sequence[str], frameworks: Sequence[str],
          source: str) -> ImportResult:
    """Every CSV of a state folder, read (file names relative to ``src``: ``<state>/<path>``)."""
    result = ImportResult()
    defaults: dict[str, Any] = {"instances": DEFAULT_TRAINING_INSTANCES}
    if release:
        defaults["neuron_version"] = release
    for file in sorted(folder.path.rglob("*.csv")):
        rel = file.relative_to(src).as_posix()
        generation = TOP_LEVEL_GENERATION if file.parent == folder.path else None
        import_file(file, rel, result, set(instances), set(frameworks), source=source, as_of=folder.date,
                    region=None, term=None, generation=generation, defaults=defaults)
    return result


# Importing ------------------------------------------------------------------------------------


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
                  source: str, rebuild: bool = False) -> tuple[History, list[StateSummary], list[Problem]]:
    """Fold every state under ``src`` that the history of ``data_dir`` lacks into it (``rebuild``: every
    state of ``src`` into an empty history); the history is not written. :attr:`History.latest_tables`
    holds the latest state's table layouts when this import read it."""
    problems: list[Problem] = []
    stored = [] if rebuild else stored_facts(History.load(data_dir))
    known = {state.id: state for state in stored}
    folders, listed = list_states(src, problems)
    by_id = {f.id: f for f in folders}
    new = [StateFacts(f.id, f.date.isoformat(), f.commit, f.subject or "", files=folder_files(f.path))
           for f in folders if f.id not in known]
    for state in stored:  # STATES.tsv names a state's subject when the history has none
        if not state.subject and state.id in listed:
            state.subject = listed[state.id][1]

    def arranged(states: list[StateFacts]) -> tuple[list[StateFacts], list[str], dict[str, int]]:
        return states, state_releases(st.subject for st in states), _introduced(states)

    def moved(state_id: str, order: list[StateFacts], index: int, introduced: dict[str, int]) -> bool:
        """Whether the stale-file rule would decide otherwise now for a state of the history than it
        did when the state was read."""
        return known[state_id].decided != _decisions(order, index, introduced)

    merged = _ordered(stored, new, listed, problems)
    # Read the new states (and the history's whose stale files the new ones would decide otherwise).
    order, releases, introduced = arranged(merged)
    rereads = {st.id for index, st in enumerate(order)
               if st.id in known and st.id in by_id and moved(st.id, order, index, introduced)}
    results = {st.id: _read(by_id[st.id], src, releases[index], instances, frameworks, source)
               for index, st in enumerate(order) if st.id not in known or st.id in rereads}
    # A state none of whose rows parse is not imported: the others are compared without it.
    failed = set()
    for state_id, result in results.items():
        if _placed_none(result):
            failed.add(state_id)
            problems.extend(result.problems)
            problems.append(_not_imported(state_id, result))
    order, releases, introduced = arranged([st for st in order if st.id not in failed])
    facts = []
    for index, state in enumerate(order):
        unchanged, first = _neighbours(order, index, introduced)
        if state.id not in results:
            facts.append(state)
            if moved(state.id, order, index, introduced):
                problems.append(Problem(state.id, None, "", "read when the states around it were others: the "
                                                            "stale copies among its files may be decided otherwise "
                                                            "now; import it again with its folder in the folder "
                                                            "imported", "warning"))
            continue
        found, found_problems = state_facts(state, results[state.id], state.id + "/", unchanged, first)
        assert found is not None
        problems.extend(results[state.id].problems)
        problems.extend(found_problems)
        facts.append(found)
    history, summaries, folded = fold(facts)
    problems.extend(folded)
    if facts and facts[-1].id in results:
        latest = facts[-1].id
        history.latest_tables = (latest, results[latest].tables)
    return history, list(summaries.values()), problems


def import_snapshot(result: ImportResult, files: Mapping[str, str], data_dir: Path, *, as_of: str,
                    subject: str = "") -> tuple[History, StateSummary | None, list[Problem]]:
    """Fold a published snapshot (the CSVs ``result`` read, ``files``: their paths and digests) into the
    history of ``data_dir`` as a partial state dated ``as_of``: it withdraws only configurations last
    seen in the files it holds. Importing the same files again changes nothing (the state's id is the
    date and a digest of its files). The history is not written."""
    problems: list[Problem] = []
    stored = stored_facts(History.load(data_dir))
    key = hashlib.sha256(";".join(f"{p}:{d}" for p, d in sorted(files.items())).encode()).hexdigest()[:8]
    state = StateFacts(f"{as_of}-{key}", as_of, "", subject or f"Published files imported by file "
                                                               f"({len(files)} files)", files=dict(files),
                       scope="partial")
    order = [] if any(st.id == state.id for st in stored) else _ordered(stored, [state], {}, problems)
    index = next((i for i, st in enumerate(order) if st.id == state.id), None)
    if index is None:  # imported before, or a second state of its date
        return History.load(data_dir), None, problems
    unchanged, first = _neighbours(order, index, _introduced(order))
    found, found_problems = state_facts(state, result, "", unchanged, first)
    problems.extend(found_problems)
    if found is None:
        return History.load(data_dir), None, problems
    order[index] = found
    history, summaries, folded = fold(order)
    problems.extend(folded)
    if index == len(order) - 1:
        history.latest_tables = (state.id, result.tables)
    return history, summaries[state.id], problems


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


def history_texts(history: History) -> dict[str, str]:
    """The files a folder of states writes: the history's, and ``tables.yaml`` when the import read the
    latest state (its tables that hold a row of the history, and the price tables)."""
    texts = dict(history.texts())
    if history.latest_tables is not None:
        state, tables = history.latest_tables
        texts[TABLES_FILE] = latest_tables_text(tables, state + "/", placed_tables(history))
    return texts


def placed_tables(history: History) -> set[str]:
    """The tables (ids) that hold a configuration still published."""
    return {c["table"] for c in history.configurations.values() if not c["withdrawn"] and c["table"]}

