"""The benchmark history as the pages show it: a configuration's figures release by release, and what
each published state changed.

:func:`releases` gives one :class:`Release` per Neuron release that measured a configuration: its
figures as last published (a correction replaces the figure it corrects, and says so), the dates
and the cost per 1M at the price in force when the figures were first published
(:func:`.history.price_in_force`, never today's price). :func:`state_changes` lists, per published
state, the configurations it added and withdrew, the figures it corrected, and each re-measured
throughput against a baseline: the median of the configuration's figures in its (up to)
:data:`BASELINE_RELEASES` previous releases, so that one noisy release neither hides nor fakes a
change; beyond :data:`THRESHOLD` it is improved or regressed. No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from ..figures.runs import cost_per_million
from ..records import history as hs
from ..records.labels import COST_BASIS, METRICS, THROUGHPUT_FIELDS
from .history_files import price_in_force, version_key

if TYPE_CHECKING:
    from ..catalog import Catalog

#: A re-measured throughput counts as improved or regressed beyond this fraction of its baseline.
THRESHOLD = 0.10
#: The baseline of a re-measured figure: the median of the configuration's previous releases, up to this many.
BASELINE_RELEASES = 3


@dataclass(frozen=True)
class HistoricalCost:
    """Cost per 1M units at the price in force when the figure was first published."""

    usd: float
    per: str
    price: hs.HistoricalPrice
    nodes: int


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
    cost: HistoricalCost | None


@dataclass(frozen=True)
class Change:
    """One change a published state made to one configuration."""

    kind: str  # new | withdrawn | corrected | improved | regressed | steady
    configuration: str
    metric: str = ""
    old: Decimal | None = None
    new: Decimal | None = None
    #: improved / regressed / steady: the baseline, the releases it is the median of, and the change.
    baseline: Decimal | None = None
    baseline_versions: tuple[str, ...] = ()
    ratio: float | None = None
    version: str = ""


@dataclass
class HistoryIndex:
    """The history's records grouped for the pages (built once per build from the catalog)."""

    catalog: Catalog
    by_configuration: dict[str, list[hs.BenchmarkObservation]] = field(default_factory=dict)
    state_order: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, catalog: Catalog) -> HistoryIndex:
        """The index of ``catalog``: made once, kept while the same catalog is asked for (a build's
        pages, its downloads and its checks share one)."""
        if _LAST and _LAST[0].catalog is catalog:
            return _LAST[0]
        _LAST[:] = [cls._made(catalog)]
        return _LAST[0]

    @classmethod
    def _made(cls, catalog: Catalog) -> HistoryIndex:
        out = cls(catalog)
        out.state_order = {sid: i for i, sid in enumerate(catalog.benchmark_states)}
        for obs in catalog.benchmark_observations.values():
            out.by_configuration.setdefault(obs.configuration, []).append(obs)
        for rows in out.by_configuration.values():
            rows.sort(key=lambda o: (out.state_order.get(o.first_state, -1), version_key(o.neuron_version)))
        return out

    def throughput_metric(self, configuration: str) -> str | None:
        metrics = {o.metric for o in self.by_configuration.get(configuration, [])}
        return next((m for m in THROUGHPUT_FIELDS if m in metrics), None)


#: The last index made (:meth:`HistoryIndex.of`), with the catalog it was made of.
_LAST: list[HistoryIndex] = []


def throughput_of(figures: dict[str, Decimal]) -> tuple[str, Decimal] | None:
    return next(((m, figures[m]) for m in THROUGHPUT_FIELDS if m in figures), None)


def historical_cost(catalog: Catalog, config: hs.BenchmarkConfiguration, figures: dict[str, Decimal],
                    date: dt.date) -> HistoricalCost | None:
    """Cost per 1M units of the configuration's throughput at the price in force on ``date`` (a
    training run: its first instance type with a price, times its nodes)."""
    found = throughput_of(figures)
    if found is None:
        return None
    per = COST_BASIS[THROUGHPUT_FIELDS[found[0]]]
    instances = config.instances.split(";") if config.instances else [config.instance or ""]
    prices = catalog.historical_prices.values()
    price = next((p for i in instances if (p := price_in_force(prices, i, date)) is not None), None)
    if price is None:
        return None
    nodes = config.nodes or 1
    return HistoricalCost(cost_per_million(float(price.usd_per_hour) * nodes, float(found[1])), per, price, nodes)


def releases(index: HistoryIndex, configuration: str) -> list[Release]:
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


def state_changes(index: HistoryIndex) -> dict[str, list[Change]]:
    """Per published state (id), what it changed; states that changed nothing are left out."""
    catalog = index.catalog
    out: dict[str, list[Change]] = {}
    last_of_date: dict[dt.date, str] = {}
    for sid, state in catalog.benchmark_states.items():
        last_of_date[state.date] = sid
    for cid, config in catalog.benchmark_configurations.items():
        out.setdefault(config.first_state, []).append(Change("new", cid))
        if config.withdrawn is not None and config.withdrawn in last_of_date:
            out.setdefault(last_of_date[config.withdrawn], []).append(Change("withdrawn", cid))
        rows = index.by_configuration.get(cid, [])
        corrections: dict[str, list[str]] = {}
        for metric in METRICS:
            series = [o for o in rows if o.metric == metric]
            for i, obs in enumerate(series[1:], start=1):
                before = series[i - 1]
                if before.neuron_version == obs.neuron_version and before.status == "corrected":
                    corrections.setdefault(obs.first_state, []).append(metric)
                    if metric in THROUGHPUT_FIELDS:
                        out.setdefault(obs.first_state, []).append(
                            Change("corrected", cid, metric, before.value, obs.value, version=obs.neuron_version))
                elif metric in THROUGHPUT_FIELDS and before.neuron_version != obs.neuron_version:
                    out.setdefault(obs.first_state, []).append(_remeasured(cid, metric, series[:i], obs))
        for sid, metrics in corrections.items():
            if not any(c.kind == "corrected" and c.configuration == cid for c in out.get(sid, [])):
                out.setdefault(sid, []).append(Change("corrected", cid, metrics[0], version=""))
    return out


def _remeasured(cid: str, metric: str, earlier: list[hs.BenchmarkObservation], obs: hs.BenchmarkObservation) -> Change:
    """A figure of a new release against the median of the previous releases' (their last figure each)."""
    last: dict[str, Decimal] = {}
    for o in earlier:
        last[o.neuron_version] = o.value
    versions = sorted(last, key=version_key)[-BASELINE_RELEASES:]
    baseline = Decimal(statistics.median([last[v] for v in versions]))
    ratio = float(obs.value / baseline) - 1.0
    lower_is_better = metric.endswith("_ms")
    gain = -ratio if lower_is_better else ratio
    kind = "improved" if gain > THRESHOLD else "regressed" if gain < -THRESHOLD else "steady"
    return Change(kind, cid, metric, earlier[-1].value, obs.value, baseline, tuple(versions), ratio,
                  obs.neuron_version)


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


def changed_metrics(changes: Iterable[Change]) -> list[str]:
    return sorted({c.metric for c in changes if c.metric})


#: The configuration columns of the long-format download, after its id, generation, kind and view.
_CONFIG_COLUMNS = ("model", "instance", "instances", "framework", "batch_size", "nodes", "tp_degree", "dp_degree",
                   "pp_degree", "sequence_length", "input_length", "output_length", "image_size", "model_data_type",
                   "autocast_data_type", "training_data_type")
#: The long-format download's header: one row per published figure.
LONG_HEADER = ("configuration", "generation", "kind", "view", *_CONFIG_COLUMNS, "neuron_version", "version_from",
               "metric", "unit", "value", "first_published", "first_state", "last_seen", "ended", "status",
               "cost_usd_per_1m", "cost_per", "price_usd_per_hour", "price_basis", "price_first_published")


def long_rows(index: HistoryIndex) -> Iterable[list[str]]:
    """Every published figure as one row of :data:`LONG_HEADER` (configurations in id order, figures in
    publication order); a throughput's row carries its cost at the price in force when it was published."""
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
            yield [*head, obs.neuron_version, obs.version_from, obs.metric, METRICS[obs.metric].unit, str(obs.value),
                   obs.first_published.isoformat(), obs.first_state,
                   obs.last_seen.isoformat() if obs.last_seen else "", obs.ended.isoformat() if obs.ended else "",
                   obs.status, f"{cost.usd:.6g}" if cost else "", cost.per if cost else "",
                   str(cost.price.usd_per_hour) if cost else "", cost.price.basis if cost else "",
                   cost.price.first_published.isoformat() if cost else ""]
