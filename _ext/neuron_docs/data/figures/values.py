"""Every figure in the data, typed or derived, addressable by a path ``kind:id:field``.

Prose prints these through the ``neuron:value`` role; tables, the drift checker and the matrix diff
read them from here, so a figure is computed in exactly one place. Derived figures (NeuronCores of
an instance, cost per 1M inferences, measured ratios) are never typed in the data; the costs are
read from the data set's :class:`~.derived.Derived` (computed once per build). Each derived figure
declares, where it is computed, the collections it reads besides its own (:attr:`Value.reads`).
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterable, Iterator, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING

from ..records.paths import DOTTED_PARTS
from ..records.labels import METRICS, UNIT_SCALE
from .derived import PUBLISHED_COST_READS, SEED_COST_READS, Derived
from .prices import price_note

if TYPE_CHECKING:
    from ..catalog import Catalog


@dataclass(frozen=True, slots=True)
class Value:
    """A number with its unit, what it is, and where it comes from."""

    number: float
    unit: str
    label: str
    source: str | None = None
    derived: bool = False
    collection: str = ""
    record: str = ""
    #: The collections a derived figure is computed from besides its own, stated where it is computed.
    reads: tuple[str, ...] = ()

    def normalized(self) -> Value:
        if self.unit in UNIT_SCALE:
            unit, factor = UNIT_SCALE[self.unit]
            return Value(self.number * factor, unit, self.label, self.source, self.derived,
                         self.collection, self.record, self.reads)
        return self


def collections_read(path: str, value: Value) -> tuple[str, ...]:
    """Every collection the figure at ``path`` is computed from (its own first).

    A page showing the figure depends on all of them: change a price and every cost per 1M
    inferences computed from it must be re-rendered.
    """
    return (value.collection, *value.reads)


#: What an instance's figure computed from its device's reads besides the instance.
_DEVICE_READS = ("devices",)


def instance_metric(catalog: Catalog, instance_id: str, metric: str) -> Value | None:
    """A metric of a whole instance: its own spec, or its device's spec times the device count."""
    spec = catalog.instance_spec(instance_id, metric)
    if spec is None:
        return None
    return Value(spec.value, spec.unit, spec.label, spec.source, spec.derived, "instances", instance_id,
                 _DEVICE_READS if spec.derived else ())


class Values(Mapping[str, Value]):
    """Every addressable figure of a catalog, keyed by ``kind:id:field``, computed when asked for.

    Nothing is stored but the data set's derived costs: a figure is computed from its record on each
    lookup (a few arithmetic operations), and iterating yields every figure record by record, in file order. At
    100x today's data this keeps tens of thousands of derived figures out of memory.
    """

    __slots__ = ("_catalog", "_derived", "_last")

    def __init__(self, derived: Derived) -> None:
        self._derived = derived
        self._catalog = derived.catalog
        #: The figures of the record looked up last: paths of one record are usually asked for together.
        self._last: tuple[str, str, Figures] | None = None

    def __getitem__(self, path: str) -> Value:
        if not isinstance(path, str):
            raise KeyError(path)
        kind, _, rest = path.partition(":")
        record = rest.rpartition(":")[0]
        if kind not in _PRODUCERS or not record:
            raise KeyError(path)
        figures = _PRODUCERS[kind][1]
        for key in _record_keys(self._catalog, kind, record):
            if self._last is None or self._last[:2] != (kind, key):
                self._last = (kind, key, figures(self._derived, key))
            value = self._last[2].get(path)
            if value is not None:
                return value
        raise KeyError(path)

    def __iter__(self) -> Iterator[str]:
        for figures in _every_record_figures(self._derived):
            yield from figures

    def items(self) -> ItemsView[str, Value]:
        return _Items(self)

    def __len__(self) -> int:
        return sum(len(figures) for figures in _every_record_figures(self._derived))

    def in_path_order(self) -> Iterator[tuple[str, Value]]:
        """``sorted(self.items())``, each figure computed once and one record's figures held at a time.

        Every path of a record is ``kind:<id>:field``, so records sorted by ``kind:<id>:`` give the
        paths in order when no id holds a colon; a kind whose records also have dotted parts
        (``model:<id>.<variant>:field``) or an id with a colon is sorted whole.
        """
        catalog, derived = self._catalog, self._derived
        for kind in sorted(_PRODUCERS, key=lambda name: f"{name}:"):
            figures, keys = _PRODUCERS[kind][1], list(_keys(catalog, kind))
            if kind in _DOTTED or any(":" in key for key in keys):
                yield from sorted((item for key in keys for item in figures(derived, key).items()), key=itemgetter(0))
                continue
            for key in sorted(keys, key=lambda key: f"{key}:"):
                yield from sorted(figures(derived, key).items())  # one record's paths: never equal

    def __reduce__(self) -> tuple[type[Values], tuple[Derived]]:  # the data set's costs, not the last lookup
        return (Values, (self._derived,))


class _Items(ItemsView[str, Value]):
    """``values.items()`` computing each record's figures once (not once per path)."""

    _mapping: Values

    def __iter__(self) -> Iterator[tuple[str, Value]]:
        for figures in _every_record_figures(self._mapping._derived):  # noqa: SLF001 - its own view
            yield from figures.items()


def build_values(data: Catalog | Derived) -> Values:
    """Every addressable figure of a catalog, keyed by ``kind:id:field`` (computed on demand), its
    costs read from ``data`` (a data set's :class:`~.derived.Derived`, or one of the catalog's own)."""
    return Values(data if isinstance(data, Derived) else Derived(data))


def _every_record_figures(derived: Derived) -> Iterator[Figures]:
    """The figures of every record, record by record in file order."""
    for kind, (_, figures) in _PRODUCERS.items():
        for key in _keys(derived.catalog, kind):
            yield figures(derived, key)


def _keys(catalog: Catalog, kind: str) -> Iterable[str]:
    """The records whose figures have paths of ``kind``: ids in file order, or instance families."""
    collection = _PRODUCERS[kind][0]
    return catalog.records[collection].keys() if collection else _instance_families(catalog)


def _record_keys(catalog: Catalog, kind: str, record: str) -> Iterator[str]:
    """The records a path's record part can name: itself, and for ``model:m.v`` / ``priceperf:e.p``
    (ids may contain dots) each known id that the part starts with."""
    known = _keys(catalog, kind)
    if record in known:
        yield record
    if kind in _DOTTED:
        for index, char in enumerate(record):
            if char == "." and record[:index] in known:
                yield record[:index]


Figures = dict[str, Value]


class RecordFigures:
    """The figures of one record (of ``collection``, id ``record``), by path, as they are put: typed
    (the record's own) or derived (computed; ``reads``: the collections it is computed from besides
    ``collection``)."""

    __slots__ = ("collection", "figures", "record")

    def __init__(self, collection: str, record: str) -> None:
        self.collection, self.record = collection, record
        self.figures: Figures = {}

    def typed(self, path: str, number: float, unit: str, label: str, source: str | None = None) -> None:
        self.figures[path] = Value(float(number), unit, label, source, False, self.collection, self.record, ())

    def derived(self, path: str, number: float, unit: str, label: str, reads: tuple[str, ...],
                source: str | None = None) -> None:
        self.figures[path] = Value(float(number), unit, label, source, True, self.collection, self.record, reads)


def _device(derived: Derived, device_id: str) -> Figures:
    catalog = derived.catalog
    d = catalog.devices[device_id]
    out = RecordFigures("devices", d.id)
    if d.neuroncores:
        out.typed(f"device:{d.id}:neuroncores", d.neuroncores, "", f"NeuronCores per {d.name}", d.source)
    for key, q in d.specs.items():
        out.typed(f"device:{d.id}:{key}", q.value, q.unit, q.label, q.source)
    return out.figures


def _instance(derived: Derived, instance_id: str) -> Figures:
    catalog = derived.catalog
    i = catalog.instances[instance_id]
    out = RecordFigures("instances", i.id)
    if i.price is not None:
        out.typed(f"instance:{i.id}:price", i.price.usd_per_hour, "USD/h", f"{i.id} on-demand price", i.price.source)
    out.typed(f"instance:{i.id}:device_count", i.device_count, "", f"devices in {i.id}", i.source)
    out.typed(f"instance:{i.id}:vcpus", i.vcpus, "", f"vCPUs of {i.id}", i.source)
    cores = catalog.neuroncores(i.id)
    if cores:
        out.derived(f"instance:{i.id}:neuroncores", cores, "", f"NeuronCores in {i.id}", _DEVICE_READS)
    device = catalog.devices.get(i.device)  # unknown: refused by validation, else the instance's own specs only
    for metric in sorted({"efa_gbps", *i.specs, *(device.specs if device else ())}):
        value = instance_metric(catalog, i.id, metric)
        if value is not None:
            out.figures[f"instance:{i.id}:{metric}"] = value
    return out.figures


def _instance_families(catalog: Catalog) -> list[str]:
    return sorted({i.family for i in catalog.instances.values()})


def _instance_family(derived: Derived, family: str) -> Figures:
    catalog = derived.catalog
    out = RecordFigures("instances", family)
    members = [i for i in catalog.instances.values() if i.family == family]
    if members:
        out.derived(f"instance_family:{family}:count", len(members), "", f"instance types in the {family} family", ())
    return out.figures


def _run(derived: Derived, run_id: str) -> Figures:
    catalog = derived.catalog
    run = catalog.inference_runs[run_id]
    out = RecordFigures("inference_runs", run.id)
    out.typed(f"run:{run.id}:batch_size", run.batch_size, "", f"batch size of {run.id}", run.source)
    if run.neuroncores:
        out.typed(f"run:{run.id}:neuroncores", run.neuroncores, "", f"NeuronCores used by {run.id}", run.source)
    if run.p90_latency_ms is not None:
        out.typed(f"run:{run.id}:p90_latency_ms", run.p90_latency_ms, "ms", f"p90 latency of {run.id}",
                  run.source)
    if run.throughput_per_s is not None:
        out.typed(f"run:{run.id}:throughput", run.throughput_per_s, "inferences/s", f"throughput of {run.id}",
                  run.source)
        cost = derived.seed_cost(run)  # None only for an unknown or unpriced instance: refused by validation
        if cost is not None:
            out.derived(f"run:{run.id}:cost_per_1m", cost, "USD", f"cost per 1M inferences of {run.id}",
                        SEED_COST_READS, source=run.source)
    return out.figures


def _accuracy(derived: Derived, run_id: str) -> Figures:
    catalog = derived.catalog
    acc = catalog.accuracy_runs[run_id]
    out = RecordFigures("accuracy_runs", acc.id)
    out.typed(f"accuracy:{acc.id}:top1", acc.top1_percent, "%", f"top-1 accuracy of {acc.id}", acc.source)
    if acc.duration_s is not None:
        out.typed(f"accuracy:{acc.id}:duration", acc.duration_s, "s", f"accuracy-run time of {acc.id}",
                  acc.source)
    return out.figures


def _model(derived: Derived, model_id: str) -> Figures:
    catalog = derived.catalog
    m = catalog.models[model_id]
    out = RecordFigures("models", m.id)
    if m.paper_top1:
        out.typed(f"model:{m.id}:paper_top1", m.paper_top1.value, m.paper_top1.unit, m.paper_top1.label,
                  m.paper_top1.source)
    for v in m.variants:
        if v.script_modules:
            out.typed(f"model:{m.id}.{v.id}:script_modules", v.script_modules, "",
                      f"recursive script modules of {m.name} ({v.id})")
    return out.figures


def _issue(derived: Derived, issue_id: str) -> Figures:
    catalog = derived.catalog
    k = catalog.known_issues[issue_id]
    out = RecordFigures("known_issues", k.id)
    if k.limit:
        out.typed(f"issue:{k.id}:limit", k.limit.value, k.limit.unit, k.limit.label, k.limit.source)
    return out.figures


def _claim(derived: Derived, claim_id: str) -> Figures:
    catalog = derived.catalog
    c = catalog.claims[claim_id]
    out = RecordFigures("claims", c.id)
    out.typed(f"claim:{c.id}:value", c.value, c.unit, c.label, c.source)
    return out.figures


def _comparison(derived: Derived, comparison_id: str) -> Figures:
    catalog = derived.catalog
    c = catalog.comparisons[comparison_id]
    out = RecordFigures("comparisons", c.id)
    out.typed(f"comparison:{c.id}:claimed", c.claimed.value, c.claimed.unit, c.claimed.label, c.claimed.source)
    subject = instance_metric(catalog, c.subject, c.metric)
    baseline = instance_metric(catalog, c.baseline, c.metric)
    if subject and baseline:
        subject, baseline = subject.normalized(), baseline.normalized()
    if subject and baseline and subject.unit == baseline.unit:
        out.derived(f"comparison:{c.id}:measured", subject.number / baseline.number, "x",
                    f"{c.label} computed from the specifications", ("instances", "devices"))
    return out.figures


#: What a ratio of instances' on-demand prices reads besides the experiment.
_PRICE_READS = ("instances",)


def _experiment(derived: Derived, experiment_id: str) -> Figures:
    catalog = derived.catalog
    e = catalog.experiments[experiment_id]
    out = RecordFigures("experiments", e.id)
    for pp in e.price_performance:
        key = f"{e.id}.{pp.id}"
        out.typed(f"priceperf:{key}:gain", pp.gain.value, pp.gain.unit, pp.gain.label, pp.gain.source)
        # An unknown or unpriced instance (a located error of the data, should validation let it
        # through): no ratio (the renderers show the claim as a data problem).
        candidate, baseline = (i.price if (i := catalog.instances.get(pp.candidate)) else None,
                               i.price if (i := catalog.instances.get(pp.baseline)) else None)
        if candidate is None or baseline is None:
            continue
        ratio = candidate.usd_per_hour / baseline.usd_per_hour
        out.derived(f"priceperf:{key}:price_ratio", ratio, "x", f"price of {pp.candidate} relative to {pp.baseline}",
                    _PRICE_READS)
        out.derived(f"priceperf:{key}:implied_speed_ratio", ratio * (1 + pp.gain.value / 100), "x",
                    f"training speed of {pp.candidate} relative to {pp.baseline} implied by the price-performance gain",
                    _PRICE_READS)
    return out.figures


def _published(kind: str, collection: str) -> Callable[[Derived, str], Figures]:
    """The figures of a published run at ``<kind>:<id>:<field>``: every measurement in its unit, the
    batch size, and the derived cost per 1M units of its throughput with the price it used."""
    def figures(derived: Derived, run_id: str) -> Figures:
        run = derived.catalog.records[collection][run_id]
        out = RecordFigures(collection, run.id)
        if getattr(run, "batch_size", None):
            out.typed(f"{kind}:{run.id}:batch_size", run.batch_size, "", f"batch size of {run.model} ({run.id})",
                      run.source)
        for field, metric in METRICS.items():
            number = getattr(run, field, None)
            if number is not None:
                out.typed(f"{kind}:{run.id}:{field}", number, metric.unit, f"{metric.label} of {run.model} ({run.id})",
                          run.source)
        for field, cost in derived.published_costs(run).items():
            out.derived(f"{kind}:{run.id}:{field}", cost.usd, "USD", f"cost per {cost.per} of {run.model} "
                        f"({run.id}) at {price_note(cost.price)}", PUBLISHED_COST_READS)
        return out.figures
    return figures


def _price(derived: Derived, price_id: str) -> Figures:
    catalog = derived.catalog
    p = catalog.prices[price_id]
    out = RecordFigures("prices", p.id)
    out.typed(f"price:{p.id}:usd_per_hour", float(p.usd_per_hour), "USD/h",
              f"{p.instance} {p.basis} price as of {p.as_of}", p.source)
    return out.figures


#: Path kind -> (the collection of its records, ``None`` for instance families; the figures of one
#: record).
_PRODUCERS: dict[str, tuple[str | None, Callable[[Derived, str], Figures]]] = {
    "device": ("devices", _device),
    "instance": ("instances", _instance),
    "instance_family": (None, _instance_family),
    "run": ("inference_runs", _run),
    "accuracy": ("accuracy_runs", _accuracy),
    "model": ("models", _model),
    "issue": ("known_issues", _issue),
    "claim": ("claims", _claim),
    "comparison": ("comparisons", _comparison),
    "priceperf": ("experiments", _experiment),
    "prun": ("published_inference_runs", _published("prun", "published_inference_runs")),
    "ptrain": ("published_training_runs", _published("ptrain", "published_training_runs")),
    "price": ("prices", _price),
}

_DOTTED = frozenset(kind for kind, _ in DOTTED_PARTS.values())
