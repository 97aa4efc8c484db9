"""Chart models built from the data: what each ``neuron:chart`` metric draws.

Inference charts (latency, throughput, cost, fast-math) draw the runs :class:`_Runs` selects with
the same filters as the benchmark tables (:func:`~neuron_docs.data.figures.runs.filter_runs`); the
cost chart draws the best run per model, variant and instance and its cost from the data set's
derived costs (:meth:`~neuron_docs.data.figures.derived.Derived.best_runs`), as the cost table does. The
price-performance chart reads its ratios from the figures of :mod:`~neuron_docs.data.figures.values`,
so that no figure is computed twice. Drawing is :mod:`~neuron_docs.directives.charts.svg`; the directive is :mod:`~neuron_docs.directives.charts.directive`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...data.figures.formatting import (NumberFormat, cost_value, display_number, figure_value, plain_value, shown_cost,
                                        shown_measure, shown_price)
from ...data.figures.runs import filter_runs, run_instance
from .svg import Bar, Chart, Group, Panel

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Mapping, Sequence

    from ...data.records import models as s
    from ...data.catalog import Catalog
    from ...data.figures.derived import BestRun, Derived
    from ...data.figures.values import Value

RATIO = NumberFormat(decimals=2)


def _options_label(options: str | None) -> str:
    return options or "default options"


def _measured(value: float | None) -> float:
    """The measurement of a run the chart kept because it has one."""
    assert value is not None
    return value


class _Runs:
    """The inference runs a chart draws, filtered, with their instance and model."""

    def __init__(self, derived: Derived, models: Sequence[str], instances: Sequence[str],
                 devices: Sequence[str]) -> None:
        self.derived = derived
        self.catalog = catalog = derived.catalog
        self.runs = filter_runs(catalog, catalog.inference_runs.values(), models, instances, devices)

    def instance(self, run: s.InferenceRun | s.AccuracyRun) -> s.Instance:
        instance = run_instance(self.catalog, run)
        assert instance is not None  # filter_runs keeps only the runs whose instance is known
        return instance

    def model_label(self, run: s.InferenceRun) -> str:
        name = self.catalog.models[run.model].name
        return f"{name} ({run.variant})" if run.variant else name

    def series(self, run: s.InferenceRun) -> str:
        return self.instance(run).id

    def grouped[T](self, items: Sequence[T], bar: Callable[[T], Bar],
                   run: Callable[[T], s.InferenceRun] | None = None) -> tuple[Group, ...]:
        """One group per model label of the items' runs (``run(item)``; the item itself by default)."""
        groups: dict[str, list[Bar]] = {}
        for item in items:
            labelled = run(item) if run else cast("s.InferenceRun", item)  # without ``run``, the items are runs
            groups.setdefault(self.model_label(labelled), []).append(bar(item))
        return tuple(Group(label, tuple(bars)) for label, bars in groups.items())


def _measure_bar(label: str, value: float, unit: str, series: str) -> Bar:
    """A bar of a measured figure, printed with its unit (:func:`.formatting.shown_measure`)."""
    number = figure_value(value)
    return Bar(label, value, shown_measure(value, unit), series, None if number is None else (number, unit))


def _run_label(runs: _Runs, run: s.InferenceRun) -> str:
    label = f"{runs.instance(run).id}, batch {run.batch_size}"
    return f"{label}, {run.compiler_options}" if run.compiler_options else label


def latency_chart(runs: _Runs, name: str) -> Chart:
    measured = [r for r in runs.runs if r.p90_latency_ms]
    groups = runs.grouped(measured, lambda r: _measure_bar(_run_label(runs, r), _measured(r.p90_latency_ms), "ms",
                                                           runs.series(r)))
    return Chart(name, "p90 latency per model and instance", (Panel("p90 latency (ms)", groups, "lower is better"),))


def throughput_chart(runs: _Runs, name: str) -> Chart:
    measured = [r for r in runs.runs if r.throughput_per_s]
    groups = runs.grouped(measured, lambda r: _measure_bar(_run_label(runs, r), _measured(r.throughput_per_s),
                                                           "inferences/s", runs.series(r)))
    return Chart(name, "Throughput per model and instance",
                 (Panel("Throughput (inferences/s)", groups, "higher is better"),))


def cost_chart(runs: _Runs, name: str) -> Chart:
    """Per model and instance, the cost per 1M inferences at the best measured throughput."""
    def bar(best: BestRun) -> Bar:
        number = cost_value(best.cost)
        return Bar(f"{best.instance.id}, batch {best.run.batch_size}", best.cost,
                   shown_cost(best.cost), runs.series(best.run), None if number is None else (number, "USD"))

    groups = runs.grouped(runs.derived.best_runs(runs.runs), bar, run=lambda best: best.run)
    return Chart(name, "Cost per 1M inferences at the best throughput",
                 (Panel("Cost per 1M inferences (USD, on-demand price)", groups, "lower is better"),))


def fastmath_chart(runs: _Runs, name: str, accuracy: Sequence[s.AccuracyRun]) -> Chart:
    """Default compiler options against the others, where the same model ran both ways."""
    catalog = runs.catalog

    def compared[R: (s.InferenceRun, s.AccuracyRun)](records: Sequence[R],
                                                     key: Callable[[R], Hashable]) -> dict[Hashable, list[R]]:
        groups: dict[Hashable, list[R]] = {}
        for record in records:
            groups.setdefault(key(record), []).append(record)
        return {k: v for k, v in groups.items() if len({r.compiler_options or "" for r in v}) > 1}

    def panel[R: (s.InferenceRun, s.AccuracyRun)](title: str, records: Sequence[R], key: Callable[[R], Hashable],
              label: Callable[[Hashable, R], str], value: Callable[[R], float], unit: str,
              note: str) -> Panel:
        groups = []
        for group_key, members in compared(records, key).items():
            members = sorted(members, key=lambda r: (r.compiler_options or "") != "")
            groups.append(Group(label(group_key, members[0]), tuple(
                _measure_bar(_options_label(r.compiler_options), value(r), unit, _options_label(r.compiler_options))
                for r in members)))
        return Panel(title, tuple(groups), note)

    def run_label(key: Hashable, run: s.InferenceRun) -> str:
        return f"{runs.model_label(run)} on {runs.instance(run).id}, batch {run.batch_size}"

    def run_key(r: s.InferenceRun) -> tuple[str, str, str, int]:
        return (r.model, r.variant or "", r.environment, r.batch_size)

    wanted_models = {r.model for r in runs.runs}
    wanted_envs = {r.environment for r in runs.runs}
    accuracy_runs = [a for a in accuracy if a.model in wanted_models and a.environment in wanted_envs]
    panels = (
        panel("p90 latency (ms)", [r for r in runs.runs if r.p90_latency_ms], run_key, run_label,
              lambda r: _measured(r.p90_latency_ms), "ms", "lower is better"),
        panel("Throughput (inferences/s)", [r for r in runs.runs if r.throughput_per_s], run_key, run_label,
              lambda r: _measured(r.throughput_per_s), "inferences/s", "higher is better"),
        panel("Top-1 accuracy (%)", accuracy_runs, lambda a: (a.model, a.environment, a.dataset, a.batch_size),
              lambda k, a: f"{catalog.models[a.model].name} on "
                           f"{catalog.environments[a.environment].instance}, {a.dataset}",
              lambda a: a.top1_percent, "%", "higher is better"),
    )
    return Chart(name, "The fast-math trade-off: default compiler options against fast-math disabled",
                 tuple(p for p in panels if p.groups), bar_header="Compiler options")


def _figure(number: float | None, unit: str) -> tuple[float, str] | None:
    return None if number is None else (number, unit)


def price_performance_chart(catalog: Catalog, values: Mapping[str, Value], experiments: Sequence[str],
                            name: str) -> Chart:
    """Per price-performance claim, the price ratio and the speed ratio it implies (read from ``values``,
    the ``priceperf:<experiment>.<id>:*`` figures), and the instances' prices."""
    ratios, prices = [], []
    for experiment in catalog.experiments.values():
        if experiments and experiment.id not in experiments:
            continue
        for pp in experiment.price_performance:
            path = f"priceperf:{experiment.id}.{pp.id}"
            ratio, implied = values.get(f"{path}:price_ratio"), values.get(f"{path}:implied_speed_ratio")
            if ratio is None or implied is None:  # an unknown or unpriced instance: the experiment's data problem
                continue
            bars = (("Price", ratio.number), ("Implied speed", implied.number),
                    ("Price-performance", 1 + values[f"{path}:gain"].number / 100))
            ratios.append(Group(f"{pp.candidate} against {pp.baseline} ({pp.label})", tuple(
                Bar(label, value, display_number(value, "x", RATIO), label, _figure(plain_value(value, RATIO), "x"))
                for label, value in bars)))
        prices.append(Group(experiment.title, tuple(
            Bar(i, price.usd_per_hour, shown_price(price.usd_per_hour), i,
                _figure(plain_value(float(price.usd_per_hour)), "USD/h"))
            for i in experiment.instances
            if (instance := catalog.instances.get(i)) is not None and (price := instance.price) is not None)))
    panels = (Panel("Candidate relative to baseline (baseline = 1)", tuple(ratios), "higher is better"),
              Panel("On-demand price (USD/h)", tuple(prices)))
    return Chart(name, "Training price-performance", tuple(p for p in panels if p.groups),
                 group_header="Comparison", bar_header="Measure")
