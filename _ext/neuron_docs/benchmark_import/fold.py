"""The benchmark history as a pure function of the set of published states folded into it.

Every state is reduced to its *facts* (:class:`StateFacts`): the rows it publishes (each a
configuration's identity, its release and figures, how it was published), its prices, the files
it could not read. :func:`fold` turns the facts of every state, in the states' order, into the
history's files (:class:`.history_rows.History`); nothing else goes in, so the same states give
the same files whatever order they were imported in, and a state older than the latest one folds in
where it belongs. The facts of the states already in the history are read back from its files
(:func:`stored_facts`: every record says the states that published it), so folding a state in
needs only its own folder.

The rules, in the order :func:`fold` applies them to each state:

- a row is filed under the configuration that has its identity (:func:`.history_rows.identity`:
  the configuration columns, never the file or a column's spelling), its current one first;
- **a row continues a configuration** (:func:`continues`) when no configuration has its identity and
  it pairs, one to one, with a configuration of the state before that this state no longer
  publishes: same generation, kind and view, equal in every configuration column both set, and a
  release not older than the configuration's. A
  column that appears (set for the row, unset before), is dropped, or is renamed (one of each)
  continues the configuration: its id stays that of the identity it was first published with (by
  date), its columns become the row's, and the identities it had before are kept with their states;
- a row whose release is older than one an earlier state published for its configuration is set
  aside (a release going backwards: an error; in a stale copy, a warning) and does not keep its
  configuration published;
- a configuration of the state before that this state does not publish is withdrawn, unless a file
  it was last in could not be read in this state, or the state is partial (a published snapshot
  imported by file) and does not hold that file: then it stays published with its figures;
- a figure (configuration, metric, release, value) is one observation, whatever the states that
  published it; it ends when a state no longer publishes it: ``corrected`` when that state
  publishes another figure under the same release, ``superseded`` under another, else
  ``withdrawn``; ids are digests of what a record is (configuration: its first identity;
  observation: configuration, release, metric, value; price: instance, basis, price), never of when
  it was imported.

No Sphinx here.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

from ..data.records import history as h
from ..data.records.history import canonical_version, parse_runs, runs_text, version_key
from ..data.records.labels import METRICS
from .history_rows import IDENTITY, FileRow, History, configuration_id, digest
from .read import Problem, slug

#: A release named in a commit subject ("Neuron SDK Release 2.3.0", "2.20 Performance page updates").
RELEASE_IN_SUBJECT = re.compile(r"(?<![\d.#])(\d+\.\d+(?:\.\d+)?)(?![\d.])")
#: The identity columns that a continued configuration keeps: never another generation, kind or view.
FIXED = ("generation", "kind", "view")


@dataclass
class PublishedFigure:
    """One published figure of a row: its release (canonical; "" = the state's), where that was read, its text."""

    version: str
    version_from: str
    value: str


@dataclass
class RowFact:
    """A configuration's row in a state: its identity, release, figures and how it was published."""

    identity: dict[str, str]
    #: The row's release, canonical; "" when the file has no release column (the state's release).
    version: str
    figures: dict[str, PublishedFigure]
    #: How it was published (:data:`.records.history.DESCRIPTION_FIELDS`); None for a row read back from the history
    #: that is not the configuration's latest (only the latest publication's description is kept).
    description: dict[str, str] | None = None
    #: The file it is in (inside the state).
    file: str = ""
    #: Where a problem with it is located: the file (with the state's folder), the line, the release column.
    where: str = ""
    line: int | None = None
    column: str = "Neuron Version"
    #: Read from a file that is a stale copy (unchanged since the state before, or replaced by a newer file).
    stale: bool = False
    #: Not a row: the state kept the configuration of this identity published without one (read back
    #: from the history's ``held``).
    held: bool = False


@dataclass(frozen=True)
class PriceFact:
    instance: str
    basis: str
    usd_per_hour: str
    file: str


@dataclass
class StateFacts:
    """What one published state publishes (see the module's rules)."""

    id: str
    date: str
    commit: str
    subject: str
    rows: list[RowFact] = field(default_factory=list)
    prices: list[PriceFact] = field(default_factory=list)
    #: Rows read, and rows set aside before folding (unreadable, or two rows of one configuration).
    rows_read: int = 0
    set_aside: int = 0
    #: For a state read back from the history: the rows it placed then (folding recounts a read state).
    placed: int | None = None
    #: Its CSV files: path inside the state -> digest (:data:`.records.history.StateFiles`).
    files: dict[str, str] = field(default_factory=dict)
    #: What the stale-file rule decided when it was read, for each two of its files that publish a
    #: configuration both: (the file kept, the other, whether the other is stale).
    decided: frozenset[tuple[str, str, bool]] = frozenset()
    scope: str = "whole"
    #: Files with a row that could not be read: their configurations are not withdrawn by this state.
    error_files: frozenset[str] = frozenset()
    #: A price file could not be read: no price is withdrawn by this state.
    price_errors: bool = False
    #: Read from its folder by this import (False: read back from the history's files).
    read: bool = True
    #: Read back: the configurations it kept published without a row (``states.csv``'s ``held``).
    held_ids: frozenset[str] = frozenset()


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


def identity_key(ident: dict[str, str]) -> str:
    return json.dumps(ident, sort_keys=True, ensure_ascii=False)


def continues(old: dict[str, str], new: dict[str, str]) -> bool:
    """Whether identity ``new`` may continue ``old`` (the rule of the module: same generation, kind and
    view; equal in every column both set; a column set in one only is one added, dropped or renamed)."""
    if any(old.get(k) != new.get(k) for k in FIXED) or old == new:
        return False
    return all(old[k] == new[k] for k in old.keys() & new.keys())


def pair_continuations(gone: dict[str, dict[str, str]], rows: Sequence[RowFact], tops: Mapping[str, str],
                       version: Callable[[RowFact], str]) -> list[tuple[str, int]]:
    """The (configuration, row index) pairs of :func:`continues` that are one to one (each the other's only
    match), the row's release (``version``) not older than the configuration's newest (``tops``)."""
    edges = [(cid, j) for cid, ident in gone.items() for j, row in enumerate(rows) if continues(ident, row.identity)
             and not (tops.get(cid) and version(row) and version_key(version(row)) < version_key(tops[cid]))]
    left, right = Counter(c for c, _ in edges), Counter(j for _, j in edges)
    return sorted((c, j) for c, j in edges if left[c] == 1 and right[j] == 1)


def state_releases(subjects: Iterable[str]) -> list[str]:
    """The release of each state in order: the one its subject names, else the one before's."""
    out, release = [], ""
    for subject in subjects:
        named = RELEASE_IN_SUBJECT.search(subject or "")
        release = canonical_version(named[1]) if named else release
        out.append(release)
    return out


def _number(text: str) -> str:
    """A figure's key: ``8.0`` and ``8`` are one figure."""
    return str(Decimal(text).normalize())


@dataclass
class _Config:
    id: str
    identity: dict[str, str]
    presence: set[int] = field(default_factory=set)
    identity_at: dict[int, str] = field(default_factory=dict)
    file_at: dict[int, str] = field(default_factory=dict)
    description: dict[str, str] = field(default_factory=dict)
    file: str = ""
    described_at: int = -1
    top: str = ""  # the newest release placed so far


@dataclass
class _Record:
    """An observation or a price while folding: its first text and where it was read, and its states."""

    text: str
    version_from: str = "column"
    file: str = ""
    presence: set[int] = field(default_factory=set)


#: An observation's key: (configuration, metric, release, value as a number).
type ObservationKey = tuple[str, str, str, str]
#: A price's key: (instance, basis, hourly price as a number).
type PriceKey = tuple[str, str, str]


@dataclass
class _Folding:
    """What folding the states has gathered so far: configurations, observations and prices, and
    the problems found (rows set aside by the module's rules)."""

    problems: list[Problem] = field(default_factory=list)
    configs: dict[str, _Config] = field(default_factory=dict)
    #: A configuration's identity key -> its id.
    by_identity: dict[str, str] = field(default_factory=dict)
    observations: dict[ObservationKey, _Record] = field(default_factory=dict)
    #: (configuration, metric) -> state index -> the observation it published there.
    at: dict[tuple[str, str], dict[int, ObservationKey]] = field(default_factory=dict)
    prices: dict[PriceKey, _Record] = field(default_factory=dict)
    #: Instance -> state index -> the price published there.
    price_at: dict[str, dict[int, PriceKey]] = field(default_factory=dict)


def fold(states: Sequence[StateFacts]) -> tuple[History, dict[str, StateSummary], list[Problem]]:
    """The history of ``states`` (in their order); the summary of each state read by this import; the
    problems folding found (rows set aside by the module's rules)."""
    order = [s.id for s in states]
    releases = state_releases(s.subject for s in states)
    folding = _Folding()
    summaries: dict[str, StateSummary] = {}
    counts: list[tuple[int, int, int]] = []
    held_at: list[set[str]] = []
    before: set[str] = set()

    for i, state in enumerate(states):
        summary = summaries[state.id] = StateSummary(state.id, rows=state.rows_read, set_aside=state.set_aside)
        row_version = partial(_row_version, releases[i])
        matched, held, set_aside_now = _match_rows(folding, state, before, summary, row_version)
        _place_rows(folding, i, releases[i], matched, row_version)
        _keep_held(folding, i, held)
        before = set(matched) | held
        held_at.append(held)
        # A state read back keeps its counts, but for rows an older state folded in now sets aside.
        summary.placed = len(matched) if state.placed is None else state.placed - set_aside_now
        counts.append((summary.rows, summary.placed, summary.set_aside))
        _fold_prices(folding, state, i)

    history, tally = _written(states, order, releases, counts, folding.configs, folding.observations, folding.at,
                              folding.prices, folding.price_at)
    for state_row, kept in zip(history.states, held_at, strict=True):
        state_row["held"] = ";".join(sorted(kept))
    for i, counted in tally.items():
        for name, count in counted.items():
            setattr(summaries[order[i]], name, count)
    return history, {s.id: summaries[s.id] for s in states if s.read}, folding.problems


def _row_version(release: str, row: RowFact) -> str:
    """The newest release of a row: its own, its figures' (each its column's or the state's ``release``)."""
    versions = [f.version if f.version_from == "column" else release for f in row.figures.values()]
    return max([row.version or release, *versions], key=_release_key)


def _release_key(version: str) -> tuple[int, ...]:
    """A release's order; no release ("": none in its file nor its state's subject) before every one."""
    return version_key(version) if version else (-1,)


def _goes_back(folding: _Folding, state: StateFacts, summary: StateSummary, cid: str, row: RowFact,
               version: str) -> bool:
    """A release going backwards: the row set aside (a located problem), True."""
    config = folding.configs[cid]
    if not config.top or not version or version_key(version) >= version_key(config.top):
        return False
    if row.stale:
        folding.problems.append(Problem(row.where, row.line, "", f"stale copy: Neuron {version} in a file unchanged "
                                                                 f"since the state before or replaced by a newer one, "
                                                                 f"the configuration already has {config.top}; set "
                                                                 f"aside", "warning"))
    else:
        folding.problems.append(Problem(row.where or state.id, row.line, row.column if row.line else "",
                                        f"Neuron {version} for a configuration already published with {config.top}: "
                                        f"a release going backwards; expected {config.top} or later; set aside"))
    summary.set_aside += 1
    return True


def _match_rows(folding: _Folding, state: StateFacts, before: set[str], summary: StateSummary,
                row_version: Callable[[RowFact], str]) -> tuple[dict[str, RowFact], set[str], int]:
    """The configuration of each of the state's rows, the configurations it keeps published without
    a row, and how many of its rows this sets aside (a release going backwards)."""
    configs, by_identity = folding.configs, folding.by_identity
    matched: dict[str, RowFact] = {}
    held: set[str] = set()
    loose: list[RowFact] = []
    set_aside_now = 0  # rows of this state set aside by folding
    # 0. Configurations the state kept published without a row (read back from the history).
    for row in state.rows:
        if row.held and (cid := by_identity.get(identity_key(row.identity))) is not None and cid in before:
            held.add(cid)
    # 1. The configuration that has the row's identity, its current identity first.
    later: list[RowFact] = []
    for row in (r for r in state.rows if not r.held):
        cid = by_identity.get(identity_key(row.identity))
        if cid is not None and cid not in matched and cid not in held and configs[cid].identity == row.identity:
            matched[cid] = row
        else:
            later.append(row)
    for row in later:
        cid = by_identity.get(identity_key(row.identity))
        if cid is not None and cid not in matched and cid not in held:
            matched[cid] = row
        else:
            loose.append(row)
    for cid, row in list(matched.items()):
        if _goes_back(folding, state, summary, cid, row, row_version(row)):
            set_aside_now += 1
            del matched[cid]
    # 2. Kept published: its file unreadable in this state, or not in a partial state.
    for cid in sorted(before - matched.keys() - held):
        file = configs[cid].file
        if file in state.error_files or (state.scope == "partial" and file not in state.files):
            held.add(cid)
    # 3. Continued: a configuration this state no longer publishes, one to one with a new identity.
    gone = {cid: configs[cid].identity for cid in sorted(before - matched.keys() - held)}
    paired = set()
    tops = {cid: configs[cid].top for cid in gone}
    for cid, j in pair_continuations(gone, loose, tops, row_version):
        paired.add(j)
        matched[cid] = loose[j]
    # 4. New configurations: id of the identity first published.
    for j, row in enumerate(loose):
        if j in paired:
            continue
        cid = configuration_id(row.identity)
        if cid in configs:  # the identity is an earlier one of a configuration published in this state
            cid = configuration_id({**row.identity, "first_state": state.id})
        configs[cid] = _Config(cid, row.identity)
        matched[cid] = row
    for cid in matched:
        by_identity[identity_key(matched[cid].identity)] = cid
    return matched, held, set_aside_now


def _place_rows(folding: _Folding, i: int, release: str, matched: dict[str, RowFact],
                row_version: Callable[[RowFact], str]) -> None:
    """Place the rows of state ``i``: each its configuration's identity, file, description, newest
    release and observations there."""
    for cid, row in matched.items():
        config = folding.configs[cid]
        config.presence.add(i)
        config.identity = row.identity
        config.identity_at[i] = identity_key(row.identity)
        if row.file:
            config.file = row.file
        config.file_at[i] = config.file
        if row.description is not None and i >= config.described_at:
            config.description, config.described_at = row.description, i
        version = row_version(row)
        if not config.top or _release_key(version) > version_key(config.top):
            config.top = version
        for metric, figure in row.figures.items():
            resolved = figure.version if figure.version_from == "column" else release
            key = (cid, metric, resolved, _number(figure.value))
            found = folding.observations.setdefault(key, _Record(figure.value, figure.version_from))
            found.presence.add(i)
            folding.at.setdefault((cid, metric), {})[i] = key


def _keep_held(folding: _Folding, i: int, held: set[str]) -> None:
    """The configurations state ``i`` keeps published without a row keep their figures of the state before."""
    for cid in held:
        config = folding.configs[cid]
        config.presence.add(i)
        config.identity_at[i] = identity_key(config.identity)
        config.file_at[i] = config.file
        for metric in METRICS:
            key_before = folding.at.get((cid, metric), {}).get(i - 1)
            if key_before is not None:
                folding.observations[key_before].presence.add(i)
                folding.at[(cid, metric)][i] = key_before


def _fold_prices(folding: _Folding, state: StateFacts, i: int) -> None:
    """The prices of state ``i``; an instance's price of the state before is kept when this state's
    price file is unreadable, or not in a partial state."""
    prices, price_at = folding.prices, folding.price_at
    present = set()
    for price in state.prices:
        price_key = (price.instance, price.basis, _number(price.usd_per_hour))
        prices.setdefault(price_key, _Record(price.usd_per_hour, file=price.file)).presence.add(i)
        price_at.setdefault(price.instance, {})[i] = price_key
        present.add(price.instance)
    for instance, by_state in price_at.items():
        price_before = by_state.get(i - 1)
        if instance in present or price_before is None:
            continue
        if state.price_errors or (state.scope == "partial" and prices[price_before].file not in state.files):
            prices[price_before].presence.add(i)
            by_state[i] = price_before


def _written(states: Sequence[StateFacts], order: list[str], releases: list[str], counts: list[tuple[int, int, int]],
             configs: dict[str, _Config], observations: dict[tuple[str, str, str, str], _Record],
             at: dict[tuple[str, str], dict[int, tuple[str, str, str, str]]],
             prices: dict[tuple[str, str, str], _Record], price_at: dict[str, dict[int, tuple[str, str, str]]],
             ) -> tuple[History, dict[int, Counter[str]]]:
    """The history's rows of what :func:`fold` gathered, and per state the figures it added and ended
    (by how they ended)."""
    dates = [s.date for s in states]
    latest = len(states) - 1
    history = History()
    tally: dict[int, Counter[str]] = {i: Counter() for i in range(len(states))}
    for state, release, (rows, placed, set_aside) in zip(states, releases, counts, strict=True):
        history.states.append({"id": state.id, "date": state.date, "commit": state.commit, "subject": state.subject,
                               "release": release, "rows": str(rows), "placed": str(placed),
                               "set_aside": str(set_aside),
                               "files": ";".join(f"{p}:{d}" for p, d in sorted(state.files.items())),
                               "overlaps": ";".join(f"{a}{'>' if stale else '|'}{b}"
                                                    for a, b, stale in sorted(state.decided)),
                               "unread": ";".join(sorted(state.error_files)),
                               "scope": state.scope})

    def ended(presence: set[int]) -> tuple[int, int] | None:
        last = max(presence)
        return None if last == latest else (last, last + 1)

    for cid, config in configs.items():
        first = min(config.presence)
        end = ended(config.presence)
        current = config.identity_at[max(config.presence)]
        earlier: dict[str, set[int]] = {}
        for i, key in config.identity_at.items():
            if key != current:
                earlier.setdefault(key, set()).add(i)
        identities = {runs_text(found, order): json.loads(key) for key, found in earlier.items()}
        before: dict[str, set[int]] = {}
        for i, path in config.file_at.items():
            if path != config.file:
                before.setdefault(path, set()).add(i)
        paths = {runs_text(found, order): path for path, found in before.items()}
        history.configurations[cid] = {
            **{n: "" for n in h.BenchmarkConfiguration.model_fields}, **config.identity, **config.description,
            "id": cid, "file": config.file, "first_published": dates[first], "first_state": order[first],
            "last_seen": dates[end[0]] if end else "", "withdrawn": dates[end[1]] if end else "",
            "states": runs_text(config.presence, order),
            "identities": json.dumps(identities, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            if identities else "",
            "paths": json.dumps(paths, sort_keys=True, ensure_ascii=False, separators=(",", ":")) if paths else ""}
    for (cid, metric, version, number), record in observations.items():
        first = min(record.presence)
        end = ended(record.presence)
        status = "published"
        tally[first]["new"] += 1
        if end:
            then = at[(cid, metric)].get(end[1])
            status = "withdrawn" if then is None else "corrected" if then[2] == version else "superseded"
            tally[end[1]][status] += 1
        history.observations.setdefault((cid, metric), []).append({
            "id": f"{cid}-{digest(version, metric, number)[:8]}", "configuration": cid, "neuron_version": version,
            "version_from": record.version_from, "metric": metric, "value": record.text,
            "first_published": dates[first], "first_state": order[first], "last_seen": dates[end[0]] if end else "",
            "ended": dates[end[1]] if end else "", "status": status, "states": runs_text(record.presence, order)})
    for (instance, basis, number), record in prices.items():
        first = min(record.presence)
        end = ended(record.presence)
        status = "published" if not end else "changed" if end[1] in price_at[instance] else "withdrawn"
        history.prices.setdefault(instance, []).append({
            "id": slug(f"{instance}-{digest(basis, number)[:8]}"), "instance": instance, "basis": basis,
            "usd_per_hour": record.text, "file": record.file, "first_published": dates[first],
            "first_state": order[first], "last_seen": dates[end[0]] if end else "",
            "ended": dates[end[1]] if end else "", "status": status, "states": runs_text(record.presence, order)})
    return history, tally


# The facts of the states already in the history ----------------------------------------------------


def _presence(row: FileRow, position: dict[str, int], latest: int, dates: dict[str, str], order: list[str]) -> set[int]:
    """The states (positions) that published a stored record: its ``states``, else (a history written
    before they were recorded) every state from its first to its last seen."""
    if row.get("states"):
        return parse_runs(row["states"], position, latest)
    first = position[row["first_state"]]
    if not row.get("last_seen"):
        return set(range(first, latest + 1))
    last = max((i for i, sid in enumerate(order) if dates[sid] <= row["last_seen"]), default=first)
    return set(range(first, max(first, last) + 1))


def _decision(text: str) -> tuple[str, str, bool]:
    kept, sep, other = text.partition(">")
    if not sep:
        kept, _, other = text.partition("|")
    return kept, other, bool(sep)


def stored_facts(history: History) -> list[StateFacts]:
    """The facts of every state of a stored history, in its order (see :func:`fold`): the rows each
    state published as its records say, the latest description of a configuration on its last state."""
    order = [s["id"] for s in history.states]
    position = {sid: i for i, sid in enumerate(order)}
    dates = {s["id"]: s["date"] for s in history.states}
    latest = len(order) - 1
    out = [StateFacts(s["id"], s["date"], s["commit"], s["subject"], rows_read=int(s["rows"] or 0),
                      set_aside=int(s["set_aside"] or 0), placed=int(s["placed"] or 0),
                      files=dict(f.rsplit(":", 1) for f in filter(None, (s.get("files") or "").split(";"))),
                      decided=frozenset(_decision(p) for p in filter(None, (s.get("overlaps") or "").split(";"))),
                      error_files=frozenset(filter(None, (s.get("unread") or "").split(";"))),
                      held_ids=frozenset(filter(None, (s.get("held") or "").split(";"))),
                      scope=s.get("scope") or "whole", read=False) for s in history.states]
    description_fields = (*h.DESCRIPTION_FIELDS, "framework")
    for cid, config in history.configurations.items():
        presence = _presence(config, position, latest, dates, order)
        identity_at: dict[int, dict[str, str]] = {}
        for runs, ident in (json.loads(config["identities"]) if config.get("identities") else {}).items():
            for i in parse_runs(runs, position, latest):
                identity_at[i] = ident
        file_at: dict[int, str] = {}
        for runs, path in (json.loads(config["paths"]) if config.get("paths") else {}).items():
            for i in parse_runs(runs, position, latest):
                file_at[i] = path
        kind = config["kind"]
        current = {k: config[k] for k in (*FIXED, *IDENTITY[kind]) if config.get(k)}
        figures: dict[int, dict[str, PublishedFigure]] = {i: {} for i in presence}
        for metric in METRICS:
            for obs in history.observations.get((cid, metric), []):
                for i in _presence(obs, position, latest, dates, order):
                    figures.setdefault(i, {})[metric] = PublishedFigure(obs["neuron_version"], obs["version_from"],
                                                               obs["value"])
        # The description is that of its latest row: a state that kept it published without one
        # (held) published none.
        last = max((i for i in presence if cid not in out[i].held_ids), default=max(presence))
        for i in sorted(presence):
            if cid in out[i].held_ids:
                out[i].rows.append(RowFact(identity_at.get(i, current), "", {}, held=True, where=order[i]))
                continue
            described = {k: config.get(k, "") for k in description_fields} if i == last else None
            version = max((f.version for f in figures[i].values() if f.version_from == "column"),
                          key=version_key, default="")
            out[i].rows.append(RowFact(identity_at.get(i, current), version, figures[i], described,
                                       file=file_at.get(i, config["file"]), where=order[i]))
    for instance, rows in history.prices.items():
        for price in rows:
            for i in _presence(price, position, latest, dates, order):
                out[i].prices.append(PriceFact(instance, price["basis"], price["usd_per_hour"], price["file"]))
    return out
