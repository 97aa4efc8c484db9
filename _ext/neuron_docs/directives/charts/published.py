"""Charts of the published performance tables, one per table, in the tab of its view.

A throughput-optimized table (and a training table) compares its models' throughput, in the table's
own unit, and their cost per 1M units at the published pages' price basis (the data set's derived
cost, :class:`~neuron_docs.data.figures.derived.Derived`, as the table shows it); a latency-optimized table compares the latencies
its group publishes: P50 and P99 of the end-to-end latency or of the latency per token, or the P50
of TTFT and TPOT (the P99s are in the table). One group per model, one bar per configuration,
labelled with what tells the model's configurations apart and coloured by instance (inference) or
node count (training). A table of more than :data:`MAX_BARS` runs shows, per measure, the best
configuration of each model (highest throughput, lowest cost or latency), and its caption says so.

Everything here is a pure function of the catalog and a table's runs (no warnings, no domain
entries, no per-page state): colours follow the instances (or node counts) of the table's
generation, so that one series has one colour on its page. Figures print as the table prints them
(:mod:`..published_cells`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes

from ...data.records.labels import (CATEGORY_TEXT, CONFIG_SHORT_TEXT, METRICS, PRICE_BASIS_TEXT, VIEW_TEXT, nodes_text,
                            parallelism_text)
from ...data.figures.formatting import cost_value, figure_value, shown_cost_number
from ...data.figures.prices import PUBLISHED_PRICE_BASIS
from ...data.published.columns import ENUM_TEXT
from ...data.records.published import PublishedTrainingRun
from ..published_cells import cost_text, figure_text, throughput_field
from .directive import chart_block
from ...render.table_model import csv_figure
from .svg import PALETTE, Bar, Chart, Group, Panel

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ...data import Catalog
    from ...node_data import CsvFigure
    from ...data.figures.derived import Derived
    from ...data.records.published import PublishedTable
    from ..published_cells import Run

#: A table with more runs than this charts the best configuration of each model per measure.
MAX_BARS = 12
#: What a bar label may name beyond the instance and batch size (inference) or the node count and
#: parallelism (training), in order: a field is named when it tells apart runs of one model that the
#: fields before it leave alike (:func:`label_fields`).
INFERENCE_LABEL_FIELDS = (
    "input_length", "output_length", "sequence_length", "image_size", "tp_degree", "model_data_type",
    "autocast_data_type", "weight_storage_data_type", "application_type", "run_mode", "neuroncores", "n_models",
    "workers_per_model", "threads", "dp_degree", "framework_name", "neuron_version", "os")
TRAINING_LABEL_FIELDS = ("training_data_type", "sequence_length", "micro_batch_size", "global_batch_size",
                         "optimizer", "scaling", "framework_package_version", "neuron_version", "os")
#: The latencies a latency-optimized chart compares: P50 and P99 of the kind a table publishes, or the
#: P50 of each kind when it publishes several (TTFT and TPOT; the P99s are in the table).
LATENCY_FIELDS = tuple(f for f in METRICS if f.endswith(("_p50_ms", "_p99_ms")))


@dataclass(frozen=True)
class Measure:
    """One panel of a chart: what it measures, a run's value (None: not measured), its figure as the
    table prints it without unit (``number``, for the download) and with it (``text``), and the number
    they show (``shown``: rounded as printed; None, no plain number)."""

    name: str
    title: str
    unit: str
    value: Callable[[Run], float | None]
    number: Callable[[Run], str]
    text: Callable[[Run], str]
    shown: Callable[[Run], float | None]
    lower_is_better: bool


def _config_text(run: Run, field: str) -> str:
    value = getattr(run, field, None)
    if value is None:
        return ""
    return CONFIG_SHORT_TEXT.get(field, "{}").format(ENUM_TEXT.get(field, {}).get(value, str(value)))


def config_label(run: Run, fields: Sequence[str]) -> str:
    """A bar's label: instance and batch size (training: node count and parallelism), then ``fields``
    the run fills."""
    base = ([nodes_text(run.nodes), parallelism_text(run.tp_degree, run.dp_degree, run.pp_degree, run.zero_stage)]
            if isinstance(run, PublishedTrainingRun) else [run.instance, _config_text(run, "batch_size")])
    return ", ".join([*base, *(text for f in fields if (text := _config_text(run, f)))])


def series(run: Run) -> str:
    """What a bar's colour stands for: the instance, or a training run's node count."""
    return nodes_text(run.nodes) if isinstance(run, PublishedTrainingRun) else run.instance


def by_model(runs: Sequence[Run]) -> dict[str, list[Run]]:
    """The runs per model, models and runs in the table's order."""
    models: dict[str, list[Run]] = {}
    for run in runs:
        models.setdefault(run.model, []).append(run)
    return models


def label_fields(runs: Sequence[Run], candidates: Sequence[str]) -> list[str]:
    """The fields of ``candidates``, in order, that tell apart runs of one model (the same for every
    bar of the table, so that bars of different models compare like with like)."""
    chosen: list[str] = []
    models = by_model(runs)
    for field in candidates:
        def distinct(fields: Sequence[str], model_runs: list[Run]) -> int:
            return len({config_label(r, fields) for r in model_runs})
        if any(distinct([*chosen, field], rs) > distinct(chosen, rs) for rs in models.values()):
            chosen.append(field)
    return chosen


def _metric(field: str) -> Measure:
    metric = METRICS[field]

    def value(run: Run) -> float | None:
        figure = getattr(run, field, None)
        return None if figure is None else float(figure)

    def shown(run: Run) -> float | None:
        figure = getattr(run, field, None)
        return None if figure is None else figure_value(figure)
    return Measure(metric.label, f"{metric.label} ({metric.unit})", metric.unit, value,
                   lambda run: figure_text(getattr(run, field)),
                   lambda run: f"{figure_text(getattr(run, field))} {metric.unit}", shown, field.endswith("_ms"))


def _cost(derived: Derived, per: str) -> Measure:
    basis = PUBLISHED_PRICE_BASIS

    def value(run: Run) -> float | None:
        cost = derived.published_cost(run, basis)
        return None if cost is None else cost.usd
    def text(run: Run) -> str:
        return cost_text(derived.published_cost(run, basis))
    return Measure(f"cost per {per}", f"Cost per {per} (USD, {PRICE_BASIS_TEXT.get(basis, basis)})", "USD", value,
                   lambda run: "" if (usd := value(run)) is None else shown_cost_number(usd), text,
                   lambda run: None if (usd := value(run)) is None else cost_value(usd), lower_is_better=True)


def measures(derived: Derived, table: PublishedTable, runs: Sequence[Run]) -> list[Measure]:
    """What the table's chart compares: latencies for a latency-optimized table, else throughput and cost."""
    def filled(field: str) -> bool:
        return any(getattr(r, field, None) is not None for r in runs)
    if table.view == "latency":
        published = [f for f in LATENCY_FIELDS if filled(f)]
        medians = [f for f in published if f.endswith("_p50_ms")]
        return [_metric(f) for f in (medians if len(medians) > 1 else published)]
    field = throughput_field(runs)
    per = next((r.cost_basis for r in runs if r.cost_basis), None)
    return [*([_metric(field)] if field else []), *([_cost(derived, per)] if per else [])]


def _panel(measure: Measure, runs: Sequence[Run], fields: Sequence[str],
           best_only: bool) -> tuple[Panel, list[list[str | CsvFigure]]]:
    """A measure's panel, and its rows for the download (measure, model, configuration, number, unit)."""
    groups, rows = [], []
    for model, model_runs in by_model(runs).items():
        measured = [(r, v) for r in model_runs if (v := measure.value(r)) is not None]
        if best_only and measured:
            measured = [min(measured, key=lambda pair: pair[1] if measure.lower_is_better else -pair[1])]
        bars = tuple(Bar(config_label(r, fields), v, measure.text(r), series(r),
                         None if (shown := measure.shown(r)) is None else (shown, measure.unit)) for r, v in measured)
        rows += [[measure.title, model, bar.label, csv_figure(measure.number(r), measure.shown(r)), measure.unit]
                 for bar, (r, _) in zip(bars, measured, strict=True)]
        if bars:
            groups.append(Group(model, bars))
    note = "lower is better" if measure.lower_is_better else "higher is better"
    return Panel(measure.title, tuple(groups), note), rows


def _words(names: Sequence[str]) -> str:
    names = [n if n[:2].isupper() else n[0].lower() + n[1:] for n in names]  # "Latency P50", but "TTFT P50"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def chart_title(table: PublishedTable, shown: Sequence[Measure], runs: Sequence[Run], best_only: bool) -> str:
    """The chart's title and caption: the model group, the view, what is compared, which configurations."""
    group = CATEGORY_TEXT.get(table.category or "", table.category or table.id)
    view = VIEW_TEXT.get(table.view or "", "").lower() or table.kind
    which = (f"per measure, the best of each model's configurations ({len(runs)} in the table)" if best_only
             else "every configuration of the table")
    return f"{group}, {view}: {_words([m.name for m in shown])} per model; {which}"


def published_chart(derived: Derived, table: PublishedTable,
                    runs: Sequence[Run]) -> tuple[Chart, list[list[str | CsvFigure]]]:
    """The chart of one published table's runs (``runs`` in the table's order), and its download:
    a header and one row per bar, every figure a number with its unit in a column of its own."""
    fields = label_fields(runs, TRAINING_LABEL_FIELDS if table.kind == "training" else INFERENCE_LABEL_FIELDS)
    best_only = len(runs) > MAX_BARS
    shown = measures(derived, table, runs)
    built = [_panel(m, runs, fields, best_only) for m in shown]
    chart = Chart(nodes.make_id(f"chart-{table.id}"), chart_title(table, shown, runs, best_only) if shown else "",
                  tuple(panel for panel, _ in built if panel.groups))
    return chart, [["Measure", chart.group_header, chart.bar_header, "Value", "Unit"],
                   *(row for _, rows in built for row in rows)]


def series_colours(catalog: Catalog, generation: str, kind: str) -> dict[str, str]:
    """One colour per instance (training: node count) of a generation's published runs of ``kind``,
    in the order of ``instances.yaml`` (node counts ascending): the same on every chart of a page."""
    tables = {t.id for t in catalog.published_tables.values() if t.generation == generation and t.kind == kind}
    if kind == "training":
        names = [nodes_text(n) for n in sorted({r.nodes for r in catalog.published_training_runs.values()
                                                if r.table in tables})]
    else:
        used = {r.instance for r in catalog.published_inference_runs.values() if r.table in tables}
        names = [i for i in catalog.instances if i in used] + sorted(used - set(catalog.instances))
    return {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(names)}


def published_chart_block(derived: Derived, table: PublishedTable, runs: Sequence[Run]) -> list[nodes.Node]:
    """The chart of a published table with its data table (nothing when no run has a figure to chart)."""
    chart, download = published_chart(derived, table, runs)
    if chart.empty:
        return []
    return [chart_block(chart, chart.name, series_colours(derived.catalog, table.generation, table.kind), csv=download)]
