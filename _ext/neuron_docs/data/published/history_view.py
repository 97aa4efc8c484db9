"""The benchmark history as the pages show it: a configuration's figures release by release, and what
each published state changed, filed under the Neuron release of the figures it changed.

:func:`releases` gives one :class:`Release` per Neuron release that measured a configuration: its
figures as last published (a correction replaces the figure it corrects, and says so), the dates
and the cost per 1M at the price in force when the figures were first published
(:func:`price_in_force`, never today's price). :func:`state_changes` lists, per published
state, the configurations it added and withdrew, the figures it corrected, and each re-measured
figure (throughput, latencies) as its series across releases is judged (:meth:`BenchmarkHistoryIndex.judgement`,
:mod:`.judgement`, the one rule :data:`.judgement.RULE`): improved or regressed (a sustained step beyond
the noise and :data:`THRESHOLD`, in the metric's own direction), a suspect point (one release out and
back), unstable (the series swings; with its spread) or steady. Each change belongs to the Neuron
release of its figure (a new configuration to the release of its first figure, a withdrawal to the
release last published for the configuration): :meth:`BenchmarkHistoryIndex.published_releases` gives every
release with the date it was first published and :meth:`BenchmarkHistoryIndex.release_changes` its changes,
What's new one section each (:func:`release_title`). Every figure is printed by the display rule of
the performance tables (:func:`.figures.formatting.shown_measure`); the raw value stays in the data
and its JSON download. :func:`since_previous` is what a row of the current performance tables shows
of it: its figure against the previous release that measured its configuration (the run is its
configuration in the latest state, id for id), and
:func:`release_of` (:func:`held_since` in words) the release and date a current figure was first
published with. :func:`changes_since` is what a pull request's new states change (``make matrix-diff``
and the preview's changes page), by release as What's new groups them, then in the order of
:data:`CHANGE_TEXT`: regressions first, then suspect points and unstable series, then improvements.
No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from ..figures.formatting import shown_change, shown_cost_number, shown_figure, shown_measure
from ..figures.runs import CostFigure, costed, first_priced
from ..records import history as hs
from ..records.history import canonical_version, version_key
from ..records.labels import COST_BASIS, METRICS, THROUGHPUT_FIELDS
from .judgement import RULE, SeriesJudgement, judge

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..records.published import PublishedInferenceRun, PublishedTrainingRun

#: A re-measured figure's step counts beyond this fraction of the level before it (and beyond the
#: series' noise): :data:`.judgement.RULE`, the one rule, stated on the history's index page.
THRESHOLD = RULE.threshold
#: The series judged besides the metrics: the cost per 1M at the price in force (where it is one price).
COST = "cost_per_1m"


#: The catalog's collections of the history files (their records change by the hundred with a new state).
#: The kinds of change a published state makes, in the order they are listed (regressions first), and
#: their words; steady re-measurements are only counted.
CHANGE_TEXT = {
    "regressed": "Regressed", "suspect": "Suspect points (one release out and back)",
    "unstable": "Unstable (the series swings)", "improved": "Improved",
    "corrected": "Corrected under the same release", "new": "New configurations",
    "withdrawn": "Withdrawn configurations",
}


@dataclass(frozen=True)
class Release:
    """A configuration's figures under one Neuron release."""

    version: str
    first_published: dt.date
    first_state: str
    #: None while still published.
    last_seen: dt.date | None
    #: Metric -> figure as last published under this release.
    figures: dict[str, Decimal]
    #: Metric -> the figure(s) it corrected, oldest first.
    corrected: dict[str, list[Decimal]]
    #: How publication ended: "superseded", "withdrawn", or "published" (still shown).
    status: str
    #: Cost per 1M units at the price in force when the figure was first published.
    cost: CostFigure[hs.HistoricalPrice] | None


@dataclass(frozen=True)
class BenchmarkChange:
    """One change a published state made to one configuration."""

    kind: str  # new | withdrawn | corrected | improved | regressed | suspect | unstable | steady
    configuration: str
    metric: str = ""
    old: Decimal | None = None
    new: Decimal | None = None
    #: improved / regressed / suspect / steady (:mod:`.judgement`): the level it is judged against (the
    #: level before a step), the releases it is the median of, and the change.
    baseline: Decimal | None = None
    baseline_versions: tuple[str, ...] = ()
    ratio: float | None = None
    #: The Neuron release the change belongs to: its figure's (a new configuration: its first figure's;
    #: a withdrawal: the release last published for the configuration).
    version: str = ""
    #: The published state that made it.
    state: str = ""
    #: unstable: the lowest and highest figure since the series started to swing.
    spread: tuple[Decimal, Decimal] | None = None


@dataclass(frozen=True)
class PublishedRelease:
    """A Neuron release of the history: when a figure of it was first published, and the states
    that first published its figures (in publication order)."""

    version: str
    first_published: dt.date
    states: tuple[str, ...]

    @property
    def title(self) -> str:
        """``Neuron 2.20.0 (first published 2024-09-17)``."""
        return release_title(self.version, self.first_published)


def release_title(version: str, first_published: dt.date) -> str:
    """A release in words with the date it was first published: ``Neuron 2.20.0 (first published 2024-09-17)``."""
    return f"Neuron {version} (first published {first_published.isoformat()})"


@dataclass
class BenchmarkHistoryIndex:
    """The history's records grouped for the pages (built once per build from the catalog)."""

    catalog: Catalog
    by_configuration: dict[str, list[hs.BenchmarkObservation]] = field(default_factory=dict)
    state_order: dict[str, int] = field(default_factory=dict)
    #: :func:`releases` of each configuration asked about, made once (the current tables ask per row).
    _releases: dict[str, list[Release]] = field(default_factory=dict, repr=False)
    #: :func:`state_changes`, made once (What's new and a preview's report both show them).
    _changes: dict[str, list[BenchmarkChange]] | None = field(default=None, repr=False)
    #: :meth:`published_releases`, made once.
    _published: list[PublishedRelease] | None = field(default=None, repr=False)
    #: :meth:`judgement` of each (configuration, metric) asked about.
    _judged: dict[tuple[str, str], SeriesJudgement] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, catalog: Catalog) -> BenchmarkHistoryIndex:
        """The index of ``catalog``: made once and kept with it (:meth:`.Catalog.made_once`: a build's
        pages, its downloads and its checks share one)."""
        return catalog.made_once("benchmark history index", cls._made)

    @classmethod
    def _made(cls, catalog: Catalog) -> BenchmarkHistoryIndex:
        out = cls(catalog)
        out.state_order = {sid: i for i, sid in enumerate(catalog.benchmark_states)}
        for obs in catalog.benchmark_observations.values():
            out.by_configuration.setdefault(obs.configuration, []).append(obs)
        for rows in out.by_configuration.values():
            rows.sort(key=lambda o: (out.state_order.get(o.first_state, -1), version_key(o.neuron_version)))
        return out

    def changes(self) -> dict[str, list[BenchmarkChange]]:
        """:func:`state_changes` of this index, made on first use."""
        if self._changes is None:
            self._changes = state_changes(self)
        return self._changes

    def published_releases(self) -> list[PublishedRelease]:
        """Every Neuron release the history's figures were measured with, newest first, each with the
        earliest date one of its figures was first published and the states that first published them."""
        if self._published is None:
            first: dict[str, dt.date] = {}
            states: dict[str, set[str]] = {}
            for obs in self.catalog.benchmark_observations.values():
                version = obs.neuron_version
                first[version] = min(first.get(version, obs.first_published), obs.first_published)
                states.setdefault(version, set()).add(obs.first_state)
            order = self.state_order
            self._published = [
                PublishedRelease(v, first[v], tuple(sorted(states[v], key=lambda s: (order.get(s, -1), s))))
                for v in sorted(first, key=version_key, reverse=True)]
        return self._published

    def release_changes(self) -> dict[str, list[BenchmarkChange]]:
        """The changes of every state (:meth:`changes`) by the release they belong to (:attr:`BenchmarkChange.version`),
        each release's in publication order; releases none of whose figures changed are left out."""
        out: dict[str, list[BenchmarkChange]] = {}
        for state in self.catalog.benchmark_states:
            for change in self.changes().get(state, []):
                out.setdefault(change.version, []).append(change)
        return out

    def releases_of(self, configuration: str) -> list[Release]:
        """:func:`releases` of ``configuration``, made on first use."""
        found = self._releases.get(configuration)
        if found is None:
            found = self._releases[configuration] = releases(self, configuration)
        return found

    def judgement(self, configuration: str, metric: str) -> SeriesJudgement:
        """The configuration's ``metric`` (or :data:`COST`) across its releases, judged by the one rule
        (:func:`.judgement.judge`): figures as last published per release (corrections applied); the cost
        per 1M only over the latest releases priced at one price (a price change is not the figure's)."""
        key = (configuration, metric)
        found = self._judged.get(key)
        if found is None:
            rel = self.releases_of(configuration)
            if metric == COST:
                priced = [r for r in rel if r.cost is not None]
                tail = [r for r in priced if priced and r.cost and r.cost.price == priced[-1].cost.price]  # type: ignore[union-attr]
                series = [(r.version, r.cost.usd) for r in tail if r.cost is not None]
                lower = True
            else:
                series = [(r.version, float(r.figures[metric])) for r in rel if metric in r.figures]
                lower = lower_is_better(metric)
            found = self._judged[key] = judge(series, lower)
        return found

    def throughput_metric(self, configuration: str) -> str | None:
        metrics = {o.metric for o in self.by_configuration.get(configuration, [])}
        return next((m for m in THROUGHPUT_FIELDS if m in metrics), None)


def price_in_force(prices: Iterable[hs.HistoricalPrice], instance: str, date: dt.date) -> hs.HistoricalPrice | None:
    """The price of ``instance`` published on ``date``: first published on or before it and not yet
    changed or withdrawn then (None when the states of the time published none)."""
    found = [p for p in prices if p.instance == instance and p.first_published <= date
             and (p.ended is None or date < p.ended)]
    return max(found, key=lambda p: p.first_published, default=None)


def benchmark_data_date(catalog: Catalog) -> dt.date | None:
    """The benchmark data's date: the date of the history's latest published state (None without one).
    The site's "Data last updated" counts it (:mod:`neuron_docs.site.data_dates`)."""
    return max((state.date for state in catalog.benchmark_states.values()), default=None)


def throughput_of(figures: dict[str, Decimal]) -> tuple[str, Decimal] | None:
    return next(((m, figures[m]) for m in THROUGHPUT_FIELDS if m in figures), None)


def historical_cost(catalog: Catalog, config: hs.BenchmarkConfiguration, figures: dict[str, Decimal],
                    date: dt.date) -> CostFigure[hs.HistoricalPrice] | None:
    """Cost per 1M units of the configuration's throughput at the price in force on ``date`` (a
    training run: its first instance type with a price, times its nodes)."""
    found = throughput_of(figures)
    if found is None:
        return None
    per = COST_BASIS[THROUGHPUT_FIELDS[found[0]]]
    instances = config.instances.split(";") if config.instances else [config.instance or ""]
    prices = catalog.historical_prices.values()
    price = first_priced(instances, lambda instance: price_in_force(prices, instance, date))
    if price is None:
        return None
    nodes = config.nodes or 1
    return costed(price, float(found[1]), per, nodes)


def releases(index: BenchmarkHistoryIndex, configuration: str) -> list[Release]:
    """The configuration's figures release by release, oldest first."""
    config = index.catalog.benchmark_configurations[configuration]
    by_version: dict[str, list[hs.BenchmarkObservation]] = {}
    for obs in index.by_configuration.get(configuration, []):
        by_version.setdefault(obs.neuron_version, []).append(obs)
    out = []
    for version in sorted(by_version, key=version_key):
        rows = by_version[version]
        figures: dict[str, Decimal] = {}
        corrected: dict[str, list[Decimal]] = {}
        for obs in rows:  # in publication order: a correction comes after what it corrects
            if obs.status == "corrected":
                corrected.setdefault(obs.metric, []).append(obs.value)
            else:
                figures[obs.metric] = obs.value
        for metric, values in corrected.items():
            figures.setdefault(metric, values[-1])
        first = min(rows, key=lambda o: (o.first_published, index.state_order.get(o.first_state, -1)))
        live = [o for o in rows if o.status != "corrected"]
        ended = [o.last_seen for o in live if o.last_seen is not None]
        status = "published" if any(o.status == "published" for o in live) else (
            "withdrawn" if any(o.status == "withdrawn" for o in live) else "superseded")
        out.append(Release(version, first.first_published, first.first_state,
                           None if status == "published" else max(ended, default=None), figures, corrected, status,
                           historical_cost(index.catalog, config, figures, first.first_published)))
    return out


def lower_is_better(metric: str) -> bool:
    """Whether a smaller figure of ``metric`` is the better one (a latency)."""
    return metric.endswith("_ms")


@dataclass(frozen=True)
class SincePrevious:
    """A figure of the current tables against the previous Neuron release that measured its configuration."""

    configuration: str
    metric: str
    #: The current figure and its release (canonical).
    value: Decimal
    version: str
    #: The figure of the latest earlier release that measured the metric (corrections applied).
    previous: Decimal
    previous_version: str
    #: The current figure's judgement across releases (:mod:`.judgement`): improved, regressed, suspect,
    #: unstable or steady.
    judged: str = "steady"

    @property
    def ratio(self) -> float:
        """The change as a fraction of the previous figure (+0.031: 3.1% higher)."""
        return float(self.value / self.previous - 1)

    @property
    def better(self) -> bool | None:
        """Whether the figure improved (a latency when it fell); None when it did not move."""
        if self.value == self.previous:
            return None
        return (self.value < self.previous) == lower_is_better(self.metric)


def _level_figure(level: float) -> Decimal:
    """A level (the median of figures) as a figure: ``100.0`` is ``100``, as the figures it is the median of."""
    value = Decimal(repr(level))
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


def run_configuration(catalog: Catalog, run: PublishedInferenceRun | PublishedTrainingRun) -> str | None:
    """The history configuration a current published run is (a run is its configuration in the latest
    state, id for id: :mod:`..checking.latest_state`); None for a run the store does not hold."""
    return run.id if run.id in catalog.benchmark_configurations else None


def release_of(catalog: Catalog, run: PublishedInferenceRun | PublishedTrainingRun) -> Release | None:
    """The history's release of a current run (its Neuron version): when its figures were first published."""
    configuration = run_configuration(catalog, run)
    if configuration is None:
        return None
    version = canonical_version(run.neuron_version)
    return next((r for r in BenchmarkHistoryIndex.of(catalog).releases_of(configuration) if r.version == version), None)


def held_since(catalog: Catalog, run: PublishedInferenceRun | PublishedTrainingRun) -> str | None:
    """Since when a current run's figures hold, in words: ``Neuron 2.18.0 (first published 2024-04-11)``:
    the release its throughput's current level starts with, as the series is judged (:mod:`.judgement`:
    a suspect point neither ends nor starts a level; a step does); the run's own release when its series
    swings or has no throughput; None when the history has no release of it."""
    release = release_of(catalog, run)
    configuration = run_configuration(catalog, run)
    if release is None or configuration is None:
        return None
    index = BenchmarkHistoryIndex.of(catalog)
    metric = index.throughput_metric(configuration)
    if metric is not None:
        judged = index.judgement(configuration, metric)
        since = judged.holds_since() if judged.of(release.version) is not None else None
        release = next((r for r in index.releases_of(configuration) if r.version == since), release)
    return release_title(release.version, release.first_published)


def since_previous(catalog: Catalog, run: PublishedInferenceRun | PublishedTrainingRun,
                   metric: str) -> SincePrevious | None:
    """The run's ``metric`` against the latest earlier Neuron release that measured it for the run's
    configuration; None when the run has no such figure or no earlier release measured it."""
    value = getattr(run, metric, None)
    configuration = run_configuration(catalog, run)
    if value is None or configuration is None:
        return None
    version = canonical_version(run.neuron_version)
    index = BenchmarkHistoryIndex.of(catalog)
    judged = index.judgement(configuration, metric)
    earlier = [r for r in index.releases_of(configuration)
               if version_key(r.version) < version_key(version) and metric in r.figures
               and getattr(judged.of(r.version), "kind", "") != "suspect"]  # a suspect point is no reference
    if not earlier or earlier[-1].figures[metric] == 0:
        return None
    point = judged.of(version)
    return SincePrevious(configuration, metric, Decimal(value), version, earlier[-1].figures[metric],
                         earlier[-1].version, point.kind if point and point.kind != "first" else "steady")


def state_changes(index: BenchmarkHistoryIndex) -> dict[str, list[BenchmarkChange]]:
    """Per published state (id), what it changed, each change with its release
    (:attr:`BenchmarkChange.version`); states that changed nothing are left out."""
    catalog = index.catalog
    out: dict[str, list[BenchmarkChange]] = {}
    last_of_date: dict[dt.date, str] = {}
    for sid, state in catalog.benchmark_states.items():
        last_of_date[state.date] = sid
    for cid, config in catalog.benchmark_configurations.items():
        rows = index.by_configuration.get(cid, [])
        if rows:  # the release of its first figure, and the release last published for it
            out.setdefault(config.first_state, []).append(
                BenchmarkChange("new", cid, version=rows[0].neuron_version, state=config.first_state))
            if config.withdrawn is not None and config.withdrawn in last_of_date:
                sid = last_of_date[config.withdrawn]
                last = max((o.neuron_version for o in rows), key=version_key)
                out.setdefault(sid, []).append(BenchmarkChange("withdrawn", cid, version=last, state=sid))
        corrections: dict[str, list[hs.BenchmarkObservation]] = {}
        for metric in METRICS:
            series = [o for o in rows if o.metric == metric]
            for i, obs in enumerate(series[1:], start=1):
                before = series[i - 1]
                if before.neuron_version == obs.neuron_version and before.status == "corrected":
                    corrections.setdefault(obs.first_state, []).append(obs)
                    if metric in THROUGHPUT_FIELDS:
                        out.setdefault(obs.first_state, []).append(
                            BenchmarkChange("corrected", cid, metric, before.value, obs.value, version=obs.neuron_version,
                                   state=obs.first_state))
                elif before.neuron_version != obs.neuron_version:
                    out.setdefault(obs.first_state, []).append(
                        _remeasured(index.judgement(cid, metric), cid, metric, before, obs))
        for sid, corrected in corrections.items():
            if not any(c.kind == "corrected" and c.configuration == cid for c in out.get(sid, [])):
                out.setdefault(sid, []).append(BenchmarkChange("corrected", cid, corrected[0].metric,
                                                      version=corrected[0].neuron_version, state=sid))
    return out


def _remeasured(judged: SeriesJudgement, cid: str, metric: str, before: hs.BenchmarkObservation,
                obs: hs.BenchmarkObservation) -> BenchmarkChange:
    """A figure of a new release as its series' judgement has it (:mod:`.judgement`): a step against the
    level before it, a suspect point, an unstable series (with its spread), or steady."""
    point = judged.of(obs.neuron_version)
    if point is None or point.kind == "first":
        return BenchmarkChange("steady", cid, metric, before.value, obs.value, version=obs.neuron_version, state=obs.first_state)
    spread = (None if judged.spread is None or point.kind != "unstable"
              else (Decimal(str(judged.spread[0])), Decimal(str(judged.spread[1]))))
    return BenchmarkChange(point.kind, cid, metric, before.value, obs.value,
                  None if point.level is None else _level_figure(point.level), point.level_versions,
                  None if point.level is None else float(obs.value) / point.level - 1.0,
                  obs.neuron_version, obs.first_state, spread)


def _level_text(versions: tuple[str, ...]) -> str:
    """The releases a level is the median of: ``2.10.0`` or ``2.10.0 to 2.18.0, 7 releases``."""
    if len(versions) == 1:
        return f"Neuron {versions[0]}"
    return f"Neuron {versions[0]} to {versions[-1]}, {len(versions)} releases"


def change_text(change: BenchmarkChange) -> str:
    """What a change did, in words after the configuration (``: 1234.6 inferences/s on Neuron 2.20.0,
    -12.0% against ...``, every figure by the display rule, :func:`.figures.formatting.shown_measure`);
    empty for a new or withdrawn configuration."""
    unit = METRICS[change.metric].unit if change.metric in METRICS else ""
    label = METRICS[change.metric].label if change.metric in METRICS else "figure"
    if change.kind == "unstable" and change.new is not None:
        low, high = change.spread or (change.new, change.new)
        return (f": {label} {shown_measure(change.new, unit)} on Neuron {change.version}; the series swings "
                f"between {shown_figure(low)} and {shown_measure(high, unit)} (unstable)")
    if (change.kind in ("improved", "regressed", "steady", "suspect") and change.new is not None
            and change.ratio is not None):
        level = (f"{shown_change(change.ratio)} against the level "
                 f"{shown_measure(change.baseline or Decimal(0), unit)} (median of {_level_text(change.baseline_versions)})")
        if change.kind == "suspect":
            return (f": {label} {shown_measure(change.new, unit)} on Neuron {change.version}, {level}; "
                    "the next release came back: a suspect point, not a change")
        return f": {label} {shown_measure(change.new, unit)} on Neuron {change.version}, {level}"
    if change.kind == "corrected" and change.old is not None and change.new is not None:
        return (f": {shown_figure(change.old)} -> {shown_measure(change.new, unit)} "
                f"(Neuron {change.version})")
    if change.kind == "corrected":
        return f": {METRICS[change.metric].label} corrected"
    return ""


@dataclass(frozen=True)
class StateChange:
    """One change a published state made, with what a report names it by (no catalog needed)."""

    state: str
    date: dt.date
    #: The release the change belongs to (:attr:`BenchmarkChange.version`) and the date it was first published.
    release: str
    change: BenchmarkChange
    #: The configuration in words (:func:`describe_configuration`) and its generation (its history page).
    title: str
    generation: str
    release_first_published: dt.date | None = None

    @property
    def release_title(self) -> str:
        """``Neuron 2.20.0 (first published 2024-09-17)``, as What's new titles the release's section."""
        if self.release_first_published is None:
            return f"Neuron {self.release}"
        return release_title(self.release, self.release_first_published)

    @property
    def key(self) -> tuple[str, ...]:
        """A stable key: ``("benchmark", state, kind, configuration, metric)``."""
        return ("benchmark", self.state, self.change.kind, self.change.configuration, self.change.metric)

    def text(self) -> str:
        """The change in words, without the configuration (:func:`change_text`), or its kind's."""
        return change_text(self.change).removeprefix(": ") or self.change.kind

    def to_json(self) -> dict[str, object]:
        c = self.change
        return {"state": self.state, "date": self.date.isoformat(), "release": self.release,
                "release_first_published": (self.release_first_published.isoformat()
                                            if self.release_first_published else None), "kind": c.kind,
                "configuration": c.configuration, "generation": self.generation, "title": self.title,
                "metric": c.metric or None, "version": c.version or None,
                "old": None if c.old is None else str(c.old), "new": None if c.new is None else str(c.new),
                "baseline": None if c.baseline is None else str(c.baseline),
                "baseline_versions": list(c.baseline_versions),
                "change_percent": None if c.ratio is None else round(c.ratio * 100, 2),
                "spread": None if c.spread is None else [str(c.spread[0]), str(c.spread[1])]}


def changes_since(base: Catalog, head: Catalog) -> list[StateChange]:
    """What the published states of ``head``'s history that ``base``'s lacks changed (a new release
    imported), grouped as What's new groups them: by the release each change belongs to, newest first;
    within a release regressed, improved, corrected, new, withdrawn (in the order of
    :data:`CHANGE_TEXT`), the largest changes first within a kind; steady re-measurements left out."""
    added = [sid for sid in head.benchmark_states if sid not in base.benchmark_states]
    if not added:
        return []
    index = BenchmarkHistoryIndex.of(head)
    found = index.changes()
    first = {r.version: r.first_published for r in index.published_releases()}
    configs = head.benchmark_configurations
    order = list(CHANGE_TEXT)
    out = []
    for sid in added:
        state = head.benchmark_states[sid]
        out += [StateChange(sid, state.date, c.version, c, describe_configuration(configs[c.configuration]),
                            configs[c.configuration].generation, first.get(c.version))
                for c in found.get(sid, []) if c.kind in CHANGE_TEXT and c.configuration in configs]
    newest = {v: i for i, v in enumerate(first)}  # published_releases: newest first
    return sorted(out, key=lambda s: (newest.get(s.release, len(newest)), order.index(s.change.kind),
                                      -abs(s.change.ratio or 0.0), s.title, s.change.metric, s.date, s.state))


def describe_configuration(config: hs.BenchmarkConfiguration) -> str:
    """A configuration in words, every identity column it has: ``bert-base on inf2.xlarge, batch 1, sequence
    128, FP32, ... (throughput)`` (two configurations never read the same: they are search entries)."""
    parts = [config.instance or (config.instances or "").replace(";", "/")]
    for name, label in (("nodes", "nodes"), ("batch_size", "batch"), ("micro_batch_size", "micro-batch"),
                        ("global_batch_size", "global batch"), ("neuroncores", "cores"), ("tp_degree", "TP"),
                        ("dp_degree", "DP"), ("pp_degree", "PP"), ("sequence_length", "sequence"),
                        ("input_length", "input"), ("output_length", "output"), ("image_size", "image"),
                        ("threads", "threads"), ("n_models", "models"), ("workers_per_model", "workers per model"),
                        ("zero_stage", "ZeRO")):
        value = getattr(config, name)
        if value is not None:
            parts.append(f"{label} {value}")
    for name in ("model_data_type", "training_data_type", "autocast_data_type", "weight_storage_data_type",
                 "optimizer", "application_type", "run_mode", "scaling", "framework", "model_details"):
        value = getattr(config, name)
        if value:
            parts.append(str(value))
    return f"{config.model} on {', '.join(parts)} ({config.view})"


#: The configuration columns of the long-format download, after its id, generation, kind and view.
_CONFIG_COLUMNS = ("model", "instance", "instances", "framework", "batch_size", "nodes", "tp_degree", "dp_degree",
                   "pp_degree", "sequence_length", "input_length", "output_length", "image_size", "model_data_type",
                   "autocast_data_type", "training_data_type")
#: The long-format download's header: one row per published figure.
LONG_HEADER = ("configuration", "generation", "kind", "view", *_CONFIG_COLUMNS, "neuron_version", "version_from",
               "metric", "unit", "value", "first_published", "first_state", "last_seen", "ended", "status",
               "cost_usd_per_1m", "cost_per", "price_usd_per_hour", "price_basis", "price_first_published")


def long_rows(index: BenchmarkHistoryIndex) -> Iterable[list[str]]:
    """Every published figure as one row of :data:`LONG_HEADER` (configurations in id order, figures in
    publication order); a throughput's row carries its cost at the price in force when it was published.
    Figures and costs as the performance tables' CSVs print them (:func:`.figures.formatting.shown_figure`,
    :func:`.figures.formatting.shown_cost_number`); the raw value is the JSON download's."""
    catalog = index.catalog
    for cid in sorted(index.by_configuration):
        config = catalog.benchmark_configurations.get(cid)
        if config is None:
            continue
        head = [cid, config.generation, config.kind, config.view,
                *("" if getattr(config, c) is None else str(getattr(config, c)) for c in _CONFIG_COLUMNS)]
        for obs in index.by_configuration[cid]:
            cost = (historical_cost(catalog, config, {obs.metric: obs.value}, obs.first_published)
                    if obs.metric in THROUGHPUT_FIELDS else None)
            yield [*head, obs.neuron_version, obs.version_from, obs.metric, METRICS[obs.metric].unit,
                   shown_figure(obs.value),
                   obs.first_published.isoformat(), obs.first_state,
                   obs.last_seen.isoformat() if obs.last_seen else "", obs.ended.isoformat() if obs.ended else "",
                   obs.status, shown_cost_number(cost.usd) if cost else "", cost.per if cost else "",
                   str(cost.price.usd_per_hour) if cost else "", cost.price.basis if cost else "",
                   cost.price.first_published.isoformat() if cost else ""]
