"""The seed analysis's own runs (``data/benchmarks/``): inference, cost, accuracy and model-status tables.

- ``.. neuron:benchmark-table::`` (filters ``:model:``, ``:instance:``, ``:device:``) — every run
  with batch size, cores, compiler options, p90 latency, throughput and the derived cost per 1M
  inferences (hourly price / (throughput x 3600) x 10^6, never typed).
- ``.. neuron:cost-table::`` — per model and instance, the best throughput and its cost per 1M.
- ``.. neuron:accuracy-table::``, ``.. neuron:environment-table::``, ``.. neuron:model-status::``.

The run filters and the best run per model, variant and instance come from the data layer
(:mod:`~neuron_docs.data.figures.runs`), as for the charts; every cost from the data set's derived
costs (:class:`~neuron_docs.data.figures.derived.Derived`, through its figures for the run tables). Every table is rendered when the page is
written (:mod:`neuron_docs.render`); the model-status table's objects (the models' canonical
places) are registered when the page is read, from the models' ids and names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..state.domain import dataset
from ..data.record_keys import file_key, names_key, record_keys, records_key
from ..state.dependencies import READS, note
from ..render.placeholder import NoParams, RenderContext, Renderer, defer, renderer
from ..data.records import models as s
from ..data.figures.formatting import cost_value, shown_cost, shown_cost_number, shown_measure
from ..data.records.labels import COMPILATION_TEXT
from ..data.figures.runs import BENCH_FILES, filter_runs, run_instance, unplaced_runs
from .base import DataDirective, let_through
from .specs import Anchors, source_shown
from ..render.tables import broken_notice, comma_list
from ..node_data import CsvFigure
from ..render.table_model import (TableCell, TableModel, cost, count, csv_count, csv_figure, csv_measure, linked,
                                  measure, missing, price, text)
from ..data.checking.touching import broken_touching

if TYPE_CHECKING:

    from sphinx.application import Sphinx

    from ..data.records import models as s
    from ..data.catalog import Broken
    from ..data.figures.values import Value


FILTERS = ("model", "instance", "device")


class _RunDirective(DataDirective):
    """A table of runs filtered by model, instance and device, rendered when the page is written.

    The page shows the runs the filters keep when it is read, the collection's ids (a run added or
    removed) and the files of models, instances and sources: a change to any of them rewrites it."""

    option_spec: ClassVar = {**DataDirective.option_spec, "model": directives.unchanged,
                             "instance": directives.unchanged, "device": directives.unchanged,
                             "caption": directives.unchanged}
    renderer: ClassVar[Renderer[RunFilters]]
    collection: ClassVar[str] = "inference_runs"

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        filters = {k: comma_list(self.options.get(k)) for k in FILTERS}
        keep = (filters["model"], filters["instance"], filters["device"])
        runs: list[s.InferenceRun] | list[s.AccuracyRun] = (
            filter_runs(catalog, catalog.accuracy_runs.values(), *keep) if self.collection == "accuracy_runs"
            else filter_runs(catalog, catalog.inference_runs.values(), *keep))
        files = [*BENCH_FILES, *(("benchmarks/accuracy.csv",) if self.collection == "accuracy_runs" else ())]
        shown = [*(file_key(f) for f in files[1:]), names_key(self.collection),
                 *record_keys(self.collection, (r.id for r in runs))]
        suffix = "".join(f"-{v}" for k in FILTERS if (v := self.options.get(k)))
        params = RunFilters(filters["model"], filters["instance"], filters["device"], suffix,
                            self.options.get("caption"))
        return [defer(self, self.renderer, params, shown)]


@dataclass(frozen=True)
class RunFilters:
    """The runs a table shows (models, instances and devices; none: every one), the suffix of its
    name and its caption."""

    model: list[str]
    instance: list[str]
    device: list[str]
    suffix: str
    caption: str | None


def _runs[R: (s.InferenceRun, s.AccuracyRun)](ctx: RenderContext, params: RunFilters, table: dict[str, R]) -> list[R]:
    """The runs of ``table`` the directive's filters keep, warning about unknown ids."""
    catalog = ctx.catalog
    return filter_runs(catalog, table.values(), ctx.pick("model", params.model, catalog.models),
                       ctx.pick("instance", params.instance, catalog.instances),
                       ctx.pick("device", params.device, catalog.devices))


def _unplaced[R: (s.InferenceRun, s.AccuracyRun)](ctx: RenderContext, params: RunFilters,
                                                 table: dict[str, R]) -> list[Broken]:
    """The environments of the table's runs (of its models; none when it keeps instances or devices)
    whose instance is unknown: a reference the validation refuses. Should one come through, its runs
    are left out (:func:`filter_runs`), and this says so, at the environment's line."""
    if params.instance or params.device:
        return []
    catalog = ctx.catalog
    runs = [r for r in table.values() if not params.model or r.model in params.model]
    out = []
    for environment_id, run_ids in unplaced_runs(catalog, runs).items():
        environment = catalog.environments.get(environment_id)
        if environment is None:  # the run's own reference: the runs, each at its line
            collection = catalog.collection_named(table) or "inference_runs"
            out += [let_through(ctx, collection, run_id, "environment",
                                f"run {run_id!r}: unknown environment {environment_id!r}", "the run is not shown")
                    for run_id in run_ids]
            continue
        out.append(let_through(ctx, "environments", environment_id, "instance",
                               f"environment {environment_id!r}: unknown instance {environment.instance!r}",
                               f"its runs are not shown: {', '.join(run_ids)}"))
    return out


@dataclass(frozen=True)
class RunLine:
    """One seed run as its table shows it, worked out once for the page's row of its configuration and
    for its own row of the CSV."""

    run: s.InferenceRun
    #: The model's record (None: unknown, a warning; the page leaves its configuration out, the CSV names
    #: the run's model id).
    model: s.Model | None
    instance: s.Instance
    #: The run's cost per 1M inferences (:mod:`..data.figures.values`: derived once, in the data layer).
    cost: Value | None

    @property
    def configuration(self) -> tuple[object, ...]:
        """What a row of the page stands for: runs that differ only in what they measured share it."""
        run = self.run
        return (run.model, run.variant, run.environment, run.batch_size, run.neuroncores, run.pipeline,
                run.compiler_options)

    def csv(self) -> list[str | CsvFigure]:
        """The run's row of the download: every figure a number in its own column."""
        run = self.run
        return [self.model.name if self.model else run.model, run.variant or "", self.instance.id,
                csv_count(run.batch_size), csv_count(run.neuroncores), csv_count(run.pipeline),
                run.compiler_options or "default", csv_measure(run.p90_latency_ms), csv_measure(run.throughput_per_s),
                csv_figure(shown_cost_number(self.cost.number), cost_value(self.cost.number)) if self.cost else ""]

    def measured(self) -> str:
        """What the run measured, in words: p90 latency, throughput and its cost per 1M."""
        run, figures = self.run, []
        if run.p90_latency_ms is not None:
            figures.append(f"p90 latency {shown_measure(run.p90_latency_ms, 'ms')}")
        if run.throughput_per_s is not None:
            figures.append(f"throughput {shown_measure(run.throughput_per_s, 'inferences/s')}")
        if self.cost:
            figures.append(f"{shown_cost(self.cost.number, self.cost.unit)} per 1M inferences")
        return ", ".join(figures)


#: The download of a benchmark table: one row per run (:meth:`RunLine.csv`), unit in the header.
RUN_CSV_HEADER = ["Model", "Variant", "Instance", "Batch size", "NeuronCores", "Pipeline", "Compiler options",
                  "p90 latency (ms)", "Throughput (inferences/s)", "Cost per 1M inferences, on-demand (USD)"]


def run_lines(ctx: RenderContext, runs: list[s.InferenceRun]) -> list[RunLine]:
    """The ``runs`` as their table shows them (a run on an unknown instance: left out, as
    :func:`filter_runs` leaves it)."""
    data = ctx.data
    out = []
    for run in runs:
        instance = run_instance(data.catalog, run)
        if instance is None:
            continue
        out.append(RunLine(run, ctx.known("model", run.model, data.catalog.models), instance,
                           data.values.get(f"run:{run.id}:cost_per_1m")))
    return out


def _unknown_or_na(gpu: bool) -> TableCell:
    return missing("na", "a GPU run") if gpu else missing("unknown", "not in the data")


@renderer("benchmark-table")
def render_benchmark_table(ctx: RenderContext, params: RunFilters) -> list[nodes.Node]:
    catalog = ctx.catalog
    configurations: dict[tuple[object, ...], list[RunLine]] = {}
    for line in run_lines(ctx, _runs(ctx, params, catalog.inference_runs)):
        configurations.setdefault(line.configuration, []).append(line)
    name = nodes.make_id("benchmarks" + params.suffix)
    model = TableModel(["Model", "Instance", "Batch size", "NeuronCores", "Pipeline", "Compiler options",
                        "Measured (cost per 1M inferences at the on-demand price)"],
                       classes=["neuron-benchmark-table", "neuron-sortable"], caption=params.caption, name=name,
                       csv_name=name, csv=[RUN_CSV_HEADER, *(line.csv() for lines in configurations.values()
                                                             for line in lines)])
    for lines in configurations.values():
        first, run = lines[0], lines[0].run
        if first.model is None:
            continue
        gpu = not catalog.neuroncores(first.instance.id)
        model.add([linked("model", first.model.id, first.model.name, after=f" ({run.variant})" if run.variant else ""),
                   linked("instance", first.instance.id, first.instance.id), count(run.batch_size),
                   count(run.neuroncores) if run.neuroncores else _unknown_or_na(gpu),
                   count(run.pipeline) if run.pipeline else _unknown_or_na(gpu),
                   text(run.compiler_options or "default"), measured(lines)],
                  " ".join(f"run-{nodes.make_id(line.run.id)}" for line in lines))
    return [model.table(), *broken_notice([*broken_touching(catalog, params.device, "inference_runs", "environments",
                                                            "models"),
                                           *_unplaced(ctx, params, catalog.inference_runs)])]


class BenchmarkTable(_RunDirective):
    """One row per configuration: runs that differ only in what they measured share a row (a run
    measured at another batch size is another configuration); the figures sit in one "Measured"
    cell, so a latency run and a throughput run never leave half-empty columns."""

    renderer = render_benchmark_table


def measured(lines: list[RunLine]) -> TableCell:
    """What the runs of one configuration measured (:meth:`RunLine.measured`), one after the other."""
    parts: list[nodes.Node] = []
    for line in lines:
        words = line.measured()
        parts.append(nodes.inline(words, ("; " if parts else "") + words, classes=["neuron-measured"]))
    return TableCell(parts, "".join(part.astext() for part in parts))


@renderer("cost-table")
def render_cost_table(ctx: RenderContext, params: RunFilters) -> list[nodes.Node]:
    catalog = ctx.catalog
    name = nodes.make_id("costs" + params.suffix)
    table = TableModel(["Model", "Variant", "Instance", "Batch size", "Compiler options", "Best throughput",
                        "On-demand price", "Cost per 1M inferences"],
                       classes=["neuron-cost-table", "neuron-sortable"], caption=params.caption, name=name, csv_name=name)
    for best in ctx.data.derived.best_runs(_runs(ctx, params, catalog.inference_runs)):
        instance, run = best.instance, best.run
        model = ctx.known("model", best.model, catalog.models)
        if model is None:
            continue
        table.add([
            linked("model", model.id, model.name), text(best.variant) if best.variant else missing("na", "one variant"),
            linked("instance", instance.id, instance.id),
            count(run.batch_size), text(run.compiler_options or "default"),
            measure(run.throughput_per_s or 0.0, "inferences/s"),  # best_runs keeps measured runs
            price(instance.price.usd_per_hour) if instance.price else text(""),  # best runs are priced
            cost(best.cost),
        ])
    return [table.table()]


class CostTable(_RunDirective):
    """The best throughput of each model on each instance, with its price and cost per 1M inferences."""

    renderer = render_cost_table


@renderer("accuracy-table")
def render_accuracy_table(ctx: RenderContext, params: RunFilters) -> list[nodes.Node]:
    catalog = ctx.catalog
    name = nodes.make_id("accuracy" + params.suffix)
    table = TableModel(["Model", "Instance", "Dataset", "Batch size", "Compiler options", "Top-1 accuracy",
                        "Accuracy-run time", "Top-1 in the original paper"],
                       classes=["neuron-accuracy-table", "neuron-sortable"], name=name, caption=params.caption,
                       csv_name=name)
    unknown = missing("unknown", "not in the data")
    for run in _runs(ctx, params, catalog.accuracy_runs):
        instance = run_instance(catalog, run)
        model = ctx.known("model", run.model, catalog.models)
        if model is None or instance is None:  # an unknown instance: filter_runs leaves it out
            continue
        table.add([
            linked("model", model.id, model.name), linked("instance", instance.id, instance.id), text(run.dataset),
            count(run.batch_size) if run.batch_size else unknown,
            text(run.compiler_options or "default"),
            measure(run.top1_percent, "%"),
            measure(run.duration_s, "s") if run.duration_s else unknown,
            measure(model.paper_top1.value, "%") if model.paper_top1 else unknown,
        ])
    return [table.table(), *broken_notice([*broken_touching(catalog, params.device, "accuracy_runs"),
                                   *_unplaced(ctx, params, catalog.accuracy_runs)])]


class AccuracyTable(_RunDirective):
    renderer = render_accuracy_table
    collection = "accuracy_runs"


class EnvironmentTable(DataDirective):
    """The test environments, rendered when the page is written."""

    def run(self) -> list[nodes.Node]:
        shown = [records_key("environments"), names_key("instances"), records_key("sources")]
        return [defer(self, render_environment_table, NoParams(), shown)]


@renderer("environment-table")
def render_environment_table(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    catalog = ctx.catalog
    table = TableModel(["Environment", "Instance", "Operating system", "Software", "Source"],
                       classes=["neuron-environment-table"], name="environments")
    for env in catalog.environments.values():
        software = "; ".join(f"{k} {v}" for k, v in env.software.items())
        table.add([text(env.id), linked("instance", env.instance, env.instance), text(env.os), text(software),
                   source_shown(ctx, env.source)])
    return [table.table()]


class ModelStatus(DataDirective):
    """Compilation status of every benchmarked model; the models' canonical place (registered when
    the page is read, from their ids and names), the rows rendered when it is written."""

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [names_key("models")])
        ids = {model.id: self.register("model", model.id, model.name) for model in catalog.models.values()}
        shown = [records_key("models"), names_key("families"), file_key("models.yaml")]
        return [*self.index_nodes(), defer(self, render_model_status, Anchors(ids), shown)]


@renderer("model-status")
def render_model_status(ctx: RenderContext, params: Anchors) -> list[nodes.Node]:
    catalog = ctx.catalog
    table = TableModel(["Model", "Family", "Status", "Unsupported operators", "Variants", "Notes"],
                       classes=["neuron-model-status", "neuron-sortable"], name="model-status", csv_name="model-status")
    for model, anchor in ctx.registered(catalog.models, params.ids):
        variants = "; ".join(f"{v.id}: {v.description}" + (f" ({v.script_modules} script modules)"
                                                            if v.script_modules else "") for v in model.variants)
        family = ctx.known("family", model.family, catalog.families)
        operators = ", ".join(model.unsupported_operators)
        table.add([
            text(model.name), linked("family", model.family, family.name if family else model.family),
            text(COMPILATION_TEXT[model.status]),
            text(operators) if operators else missing("none", "no unsupported operator recorded"),
            text(variants) if variants else missing("na", "one variant"),
            text(model.notes) if model.notes else missing("none"),
        ], anchor)
    return [table.table(), *broken_notice(catalog.broken_in("models"))]


def setup_seed_runs(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "benchmark-table", BenchmarkTable)
    app.add_directive_to_domain("neuron", "cost-table", CostTable)
    app.add_directive_to_domain("neuron", "accuracy-table", AccuracyTable)
    app.add_directive_to_domain("neuron", "environment-table", EnvironmentTable)
    app.add_directive_to_domain("neuron", "model-status", ModelStatus)
