"""Every figure in the data, typed or derived, addressable by a path ``kind:id:field``.

Prose prints these through the ``neuron:value`` role; tables, the drift checker and the matrix diff
read them from here, so a figure is computed in exactly one place. Derived figures (NeuronCores of
an instance, cost per 1M inferences, measured ratios) are never typed in the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .catalog import Catalog

#: Units converted to a common one before two figures are compared.
_SCALE = {"PFLOPS": ("TFLOPS", 1000.0), "TB/s": ("GB/s", 1000.0)}


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

    def normalized(self) -> Value:
        if self.unit in _SCALE:
            unit, factor = _SCALE[self.unit]
            return Value(self.number * factor, unit, self.label, self.source, self.derived,
                         self.collection, self.record)
        return self


#: Collections a derived figure reads besides its own, by the kind and field of its path.
_DERIVED_INPUTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("instance", "neuroncores"): ("devices",),
    ("run", "cost_per_1m"): ("instances", "environments"),
    ("comparison", "measured"): ("instances", "devices"),
    ("priceperf", "price_ratio"): ("instances",),
    ("priceperf", "implied_speed_ratio"): ("instances",),
}


def collections_read(path: str, value: Value) -> tuple[str, ...]:
    """Every collection the figure at ``path`` is computed from (its own first).

    A page showing the figure depends on all of them: change a price and every cost per 1M
    inferences computed from it must be re-rendered.
    """
    kind, _, rest = path.partition(":")
    field = rest.rpartition(":")[2]
    extra = _DERIVED_INPUTS.get((kind, field), ())
    if kind == "instance" and value.derived:  # a device spec times the device count
        extra = (*extra, "devices")
    return (value.collection, *extra)


def cost_per_million(price_per_hour: float, throughput_per_s: float) -> float:
    """USD per 1M inferences: hourly price / (throughput x 3600) x 10^6."""
    return price_per_hour / (throughput_per_s * 3600.0) * 1_000_000.0


def instance_metric(catalog: Catalog, instance_id: str, metric: str) -> Value | None:
    """A metric of a whole instance: its own spec, or its device's spec times the device count."""
    instance = catalog.instances.get(instance_id)
    if instance is None:
        return None
    if metric == "efa_gbps":
        if instance.efa_gbps is None:
            return None
        return Value(instance.efa_gbps, "Gbps", "EFA network bandwidth", None, False, "instances", instance_id)
    if metric in instance.specs:
        q = instance.specs[metric]
        return Value(q.value, q.unit, q.label, q.source, False, "instances", instance_id)
    device = catalog.devices.get(instance.device)
    if device is not None and metric in device.specs:
        q = device.specs[metric]
        return Value(q.value * instance.device_count, q.unit, f"{q.label} x {instance.device_count} devices",
                     q.source, True, "instances", instance_id)
    return None


def build_values(catalog: Catalog) -> dict[str, Value]:
    """Every addressable figure of ``catalog``, keyed by ``kind:id:field``."""
    values: dict[str, Value] = {}

    def put(path: str, number: float, unit: str, label: str, source: str | None, collection: str,
            record: str, derived: bool = False) -> None:
        values[path] = Value(float(number), unit, label, source, derived, collection, record)

    for d in catalog.devices.values():
        if d.neuroncores:
            put(f"device:{d.id}:neuroncores", d.neuroncores, "", f"NeuronCores per {d.name}", d.source, "devices", d.id)
        for key, q in d.specs.items():
            put(f"device:{d.id}:{key}", q.value, q.unit, q.label, q.source, "devices", d.id)
    for i in catalog.instances.values():
        put(f"instance:{i.id}:price", i.price.usd_per_hour, "USD/h", f"{i.id} on-demand price",
            i.price.source, "instances", i.id)
        put(f"instance:{i.id}:device_count", i.device_count, "", f"devices in {i.id}", None, "instances", i.id)
        put(f"instance:{i.id}:vcpus", i.vcpus, "", f"vCPUs of {i.id}", None, "instances", i.id)
        cores = catalog.neuroncores(i.id)
        if cores:
            put(f"instance:{i.id}:neuroncores", cores, "", f"NeuronCores in {i.id}", None, "instances", i.id, True)
        for metric in {"efa_gbps", *i.specs, *catalog.devices[i.device].specs}:
            value = instance_metric(catalog, i.id, metric)
            if value is not None:
                values[f"instance:{i.id}:{metric}"] = value
    for family in sorted({i.family for i in catalog.instances.values()}):
        members = [i for i in catalog.instances.values() if i.family == family]
        put(f"instance_family:{family}:count", len(members), "", f"instance types in the {family} family",
            None, "instances", family, True)
    for run in catalog.inference_runs.values():
        env = catalog.environments[run.environment]
        put(f"run:{run.id}:batch_size", run.batch_size, "", f"batch size of {run.id}", run.source,
            "inference_runs", run.id)
        if run.neuroncores:
            put(f"run:{run.id}:neuroncores", run.neuroncores, "", f"NeuronCores used by {run.id}", run.source,
                "inference_runs", run.id)
        if run.p90_latency_ms is not None:
            put(f"run:{run.id}:p90_latency_ms", run.p90_latency_ms, "ms", f"p90 latency of {run.id}",
                run.source, "inference_runs", run.id)
        if run.throughput_per_s is not None:
            put(f"run:{run.id}:throughput", run.throughput_per_s, "inferences/s", f"throughput of {run.id}",
                run.source, "inference_runs", run.id)
            price = catalog.instances[env.instance].price.usd_per_hour
            put(f"run:{run.id}:cost_per_1m", cost_per_million(price, run.throughput_per_s), "USD",
                f"cost per 1M inferences of {run.id}", run.source, "inference_runs", run.id, True)
    for acc in catalog.accuracy_runs.values():
        put(f"accuracy:{acc.id}:top1", acc.top1_percent, "%", f"top-1 accuracy of {acc.id}", acc.source,
            "accuracy_runs", acc.id)
        if acc.duration_s is not None:
            put(f"accuracy:{acc.id}:duration", acc.duration_s, "s", f"accuracy-run time of {acc.id}",
                acc.source, "accuracy_runs", acc.id)
    for m in catalog.models.values():
        if m.paper_top1:
            put(f"model:{m.id}:paper_top1", m.paper_top1.value, m.paper_top1.unit, m.paper_top1.label,
                m.paper_top1.source, "models", m.id)
        for v in m.variants:
            if v.script_modules:
                put(f"model:{m.id}.{v.id}:script_modules", v.script_modules, "",
                    f"recursive script modules of {m.name} ({v.id})", None, "models", m.id)
    for k in catalog.known_issues.values():
        if k.limit:
            put(f"issue:{k.id}:limit", k.limit.value, k.limit.unit, k.limit.label, k.limit.source, "known_issues", k.id)
    for c in catalog.claims.values():
        put(f"claim:{c.id}:value", c.value, c.unit, c.label, c.source, "claims", c.id)
    for c in catalog.comparisons.values():
        put(f"comparison:{c.id}:claimed", c.claimed.value, c.claimed.unit, c.claimed.label, c.claimed.source,
            "comparisons", c.id)
        subject = instance_metric(catalog, c.subject, c.metric)
        baseline = instance_metric(catalog, c.baseline, c.metric)
        if subject and baseline:
            subject, baseline = subject.normalized(), baseline.normalized()
        if subject and baseline and subject.unit == baseline.unit:
            put(f"comparison:{c.id}:measured", subject.number / baseline.number, "x",
                f"{c.label} computed from the specifications", None, "comparisons", c.id, True)
    for e in catalog.experiments.values():
        for pp in e.price_performance:
            key = f"{e.id}.{pp.id}"
            put(f"priceperf:{key}:gain", pp.gain.value, pp.gain.unit, pp.gain.label, pp.gain.source, "experiments", e.id)
            ratio = catalog.instances[pp.candidate].price.usd_per_hour / catalog.instances[pp.baseline].price.usd_per_hour
            put(f"priceperf:{key}:price_ratio", ratio, "x", f"price of {pp.candidate} relative to {pp.baseline}",
                None, "experiments", e.id, True)
            put(f"priceperf:{key}:implied_speed_ratio", ratio * (1 + pp.gain.value / 100), "x",
                f"training speed of {pp.candidate} relative to {pp.baseline} implied by the price-performance gain",
                None, "experiments", e.id, True)
    return values
