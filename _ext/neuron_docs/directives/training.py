"""Known issues, roadmap items, the training experiment and vendor comparisons.

- ``.. neuron:known-issues::`` and ``.. neuron:roadmap-items::`` — the canonical places that
  "Roadmap Item" and known-issue cells link to.
- ``.. neuron:comparison-table::`` — each claimed ratio (e.g. Trn1 vs P4d) beside the ratio the
  specifications give, so readers see where a claim is rounded or optimistic.
- ``.. neuron:training-experiment:: vit-toy-training`` — setup, instances with prices, and the
  price-performance result with what it implies (the ``priceperf:*`` figures of
  :mod:`~neuron_docs.data.figures.values`).

The comparison table and the training experiment are rendered when the page is written
(:mod:`neuron_docs.render`): a change of their figures rewrites the page without reading it again.
So are a known issue's facts and description and the roadmap table: the page reads only the ids
and titles of the issues and roadmap items (their sections and objects are made when it is read),
so a change of an issue's text or of a roadmap item rewrites it without reading it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes

from ..state.domain import dataset
from ..data.record_keys import fields_key, file_key, names_key, record_key, records_key
from ..state.dependencies import READS, note
from ..data.figures.formatting import NumberFormat, format_number
from ..data.checking.matrix_files import MATRIX_DIR
from ..data.figures.values import instance_metric
from ..data.catalog import Broken
from ..state.domain import xref
from ..render.placeholder import NoParams, RenderContext, defer, renderer
from .base import Collections, DataDirective, let_through, render_broken_notice
from .specs import NO_ON_DEMAND_PRICE, Anchors, source_ref, source_shown
from ..render.tables import broken_notice
from ..render.table_model import TableCell, TableModel, count, linked, missing, number, price, text

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx


def _refs(objtype: str, ids: list[str], names: Callable[[str], str]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for ref in ids:
        if out:
            out.append(nodes.Text(", "))
        out.append(xref(objtype, ref, names(ref)))
    return out


def _family_name(ctx: RenderContext, family_id: str) -> str:
    """A family's name (its id when it is not in the data: a warning)."""
    family = ctx.known("family", family_id, ctx.catalog.families)
    return family.name if family else family_id


def _device_name(ctx: RenderContext, device_id: str) -> str:
    """A device's name (its id when it is not in the data: a warning)."""
    device = ctx.known("device", device_id, ctx.catalog.devices)
    return device.name if device else device_id


class KnownIssues(DataDirective):
    """A section per known issue (its canonical place, made when the page is read from the issues'
    ids and titles); its facts and description are rendered when the page is written."""

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [names_key("known_issues")])
        result: list[nodes.Node] = []
        for issue in catalog.known_issues.values():
            section = nodes.section(ids=[self.register("issue", issue.id, issue.title)])
            section += nodes.title(issue.title, issue.title)
            section += self.index_nodes()
            section += defer(self, render_known_issue, IssueParams(issue.id),
                             [record_key("known_issues", issue.id), *ISSUE_NAMES])
            result.append(section)
        return [*result, defer(self, render_broken_notice, Collections(("known_issues",)), [file_key("issues.yaml")])]


#: What an issue's facts name: devices, framework packages, families and sources.
ISSUE_NAMES = [names_key("devices"), fields_key("frameworks", "package"), names_key("families"),
               records_key("sources")]


@dataclass(frozen=True)
class IssueParams:
    """A known issue, by id."""

    issue: str


@renderer("known-issue")
def render_known_issue(ctx: RenderContext, params: IssueParams) -> list[nodes.Node]:
    """An issue's facts (devices, frameworks, families, limit, examples, source) and description."""
    catalog = ctx.catalog
    issue = ctx.known("known issue", params.issue, catalog.known_issues)
    if issue is None:  # gone since the page was read: the page is read again before it is written
        return []

    def package(framework_id: str) -> str:
        framework = ctx.known("framework", framework_id, catalog.frameworks)
        return framework.package if framework else framework_id

    facts = nodes.field_list()
    for label, body in (
        ("Devices", _refs("device", issue.devices, lambda d: _device_name(ctx, d))),
        ("Frameworks", _refs("framework", issue.frameworks, package)),
        ("Model families", _refs("family", issue.families, lambda f: _family_name(ctx, f))),
        ("Limit", [nodes.Text(f"{issue.limit.label}: {format_number(issue.limit.value, issue.limit.unit)}")]
         if issue.limit else []),
        ("Examples", [nodes.Text(", ".join(issue.examples))] if issue.examples else []),
        ("Source", [source_ref(ctx, issue.source)]),
    ):
        if body:
            field = nodes.field()
            field += nodes.field_name(label, label)
            paragraph = nodes.paragraph()
            paragraph.extend(body)
            field += nodes.field_body("", paragraph)
            facts += field
    return [facts, nodes.paragraph(issue.description, issue.description)]


class RoadmapItems(DataDirective):
    """The roadmap items' table: their objects registered when the page is read (ids and titles),
    the rows rendered when it is written (each item, and the matrix cells that point to it)."""

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [names_key("roadmap")])
        ids = {item.id: self.register("roadmap", item.id, item.title) for item in catalog.roadmap.values()}
        shown = [records_key("roadmap"), file_key(MATRIX_DIR), names_key("families"), names_key("devices")]
        return [*self.index_nodes(), defer(self, render_roadmap_items, Anchors(ids), shown)]


@renderer("roadmap-items")
def render_roadmap_items(ctx: RenderContext, params: Anchors) -> list[nodes.Node]:
    catalog = ctx.catalog
    table = TableModel(["Roadmap item", "Description", "Matrix cells that point here"],
                       classes=["neuron-roadmap-table"], name="roadmap")
    latest = catalog.revision()

    for item, anchor in ctx.registered(catalog.roadmap, params.ids):
        cells = [(row.family, d) for m in (latest.matrices if latest else []) for d in m.devices
                 for row in m.rows for cell in row.cells.values() if catalog.roadmap_item(cell) == item.id]
        covered = sorted({f"{_family_name(ctx, f)} on {_device_name(ctx, d)}" for f, d in cells})
        table.add([TableCell(nodes.reference(item.title, item.title, refuri=item.url), item.title),
                   text(item.description), text("; ".join(covered))], anchor)
    return [table.table()]


class ComparisonTable(DataDirective):
    """Rendered when the page is written; the page shows the files it is computed from."""

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_comparison_table, NoParams(), [file_key(f) for f in COMPARISON_FILES])]


#: The files of the vendor comparisons.
COMPARISON_FILES = ("training.yaml", "instances.yaml", "devices.yaml", "sources.yaml")


@renderer("comparison-table")
def render_comparison_table(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    data = ctx.data
    catalog = data.catalog
    table = TableModel(["Comparison", "Specifications", "Claimed", "From the specifications", "Claim source"],
                       classes=["neuron-comparison-table"], name="comparisons", csv_name="comparisons")
    unshown: list[Broken] = []
    for comparison in catalog.comparisons.values():
        subject = instance_metric(catalog, comparison.subject, comparison.metric)
        baseline = instance_metric(catalog, comparison.baseline, comparison.metric)
        found = data.values.get(f"comparison:{comparison.id}:measured")
        if subject is None or baseline is None or found is None:
            # The validation sets such a comparison aside (an unknown instance, a metric neither has);
            # should one come through, it is a data problem shown and located, never a crash.
            attr = "subject" if subject is None else "baseline" if baseline is None else "metric"
            why = (f"instance {getattr(comparison, attr)!r} has no value for metric {comparison.metric!r}"
                   if attr != "metric" else f"subject and baseline give {comparison.metric!r} in different units")
            unshown.append(let_through(ctx, "comparisons", comparison.id, attr,
                                       f"comparison {comparison.id!r}: {why}", "not shown"))
            continue
        measured = found.number
        table.add([
            text(comparison.label),
            text(f"{format_number(subject.number, subject.unit)} vs {format_number(baseline.number, baseline.unit)}"),
            text(f"{comparison.claimed.label} ({format_number(comparison.claimed.value, 'x')})"),
            number(measured, "x", NumberFormat(2)),
            source_shown(ctx, comparison.claimed.source),
        ])
    return [table.table(), *broken_notice([*catalog.broken_in("comparisons"), *unshown])]


class TrainingExperiment(DataDirective):
    """Rendered when the page is written; the page shows the files it is computed from (an unknown
    experiment is a warning then, at the directive's line)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_training_experiment, ExperimentParams(self.arguments[0]),
                      [*(file_key(f) for f in EXPERIMENT_FILES), names_key("families")])]


#: The files of the training experiment (and the families' names: its family's).
EXPERIMENT_FILES = ("training.yaml", "instances.yaml", "devices.yaml", "sources.yaml")


@dataclass(frozen=True)
class ExperimentParams:
    """A training experiment, by id."""

    experiment: str


@renderer("training-experiment")
def render_training_experiment(ctx: RenderContext, params: ExperimentParams) -> list[nodes.Node]:
    catalog = ctx.catalog
    experiment = ctx.known("experiment", params.experiment, catalog.experiments)
    if experiment is None:
        return broken_notice(catalog.broken_in("experiments"))
    settings = TableModel(["Setting", "Value"], classes=["neuron-experiment"], name=f"experiment-{experiment.id}")
    for setting, value in [("Model", text(experiment.model)),
                           ("Model family", linked("family", experiment.family, _family_name(ctx, experiment.family))),
                           ("Dataset", text(experiment.dataset)), ("Precision", text(experiment.precision)),
                           ("Batch size per worker", text(str(experiment.batch_size_per_worker))),
                           *((k, text(v)) for k, v in experiment.software.items()),
                           *([("Compilation", text(experiment.compile_time_note))]
                             if experiment.compile_time_note else [])]:
        settings.add([text(setting), value])
    instances = TableModel(["Instance", "Device", "NeuronCores", "On-demand price"],
                           classes=["neuron-experiment-instances"], name=f"experiment-{experiment.id}-instances")
    for instance_id in experiment.instances:
        instance = ctx.known("instance", instance_id, catalog.instances)
        if instance is None:
            continue
        instances.add([linked("instance", instance.id, instance.id),
                       linked("device", instance.device, _device_name(ctx, instance.device)),
                       count(catalog.neuroncores(instance.id) or None),
                       price(instance.price.usd_per_hour) if instance.price else missing("none", NO_ON_DEMAND_PRICE)])
    result: list[nodes.Node] = [settings.table(), instances.table()]
    values = ctx.data.values
    gains = TableModel(["Comparison", "Better price-performance (claimed)", "Price ratio (candidate / baseline)",
                        "Implied speed ratio"], classes=["neuron-price-performance"], name=f"experiment-{experiment.id}-pp")
    unshown = []
    for pp in experiment.price_performance:
        path = f"priceperf:{experiment.id}.{pp.id}"
        ratio, implied = values.get(f"{path}:price_ratio"), values.get(f"{path}:implied_speed_ratio")
        if ratio is None or implied is None:
            # Validation refuses an unknown or unpriced instance; should one come through, the claim is
            # a located data problem, not a crash.
            unknown = [i for i in (pp.candidate, pp.baseline) if i not in catalog.instances]
            why = (f"unknown instance {unknown[0]!r}" if unknown
                   else f"no on-demand price of {pp.candidate!r} or {pp.baseline!r}")
            field = "baseline" if pp.baseline in unknown else "candidate" if unknown else "price_performance"
            unshown.append(let_through(ctx, "experiments", experiment.id, field,
                                       f"experiment {experiment.id!r}, price-performance {pp.id!r}: {why}",
                                       "its price and speed ratios are not shown"))
            continue
        gains.add([text(pp.label), number(pp.gain.value, pp.gain.unit), number(ratio.number, "x", NumberFormat(2)),
                   number(implied.number, "x", NumberFormat(2))])
    if gains.rows:
        result.append(gains.table())
    return [*result, *broken_notice(unshown)]


def setup_training(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "known-issues", KnownIssues)
    app.add_directive_to_domain("neuron", "roadmap-items", RoadmapItems)
    app.add_directive_to_domain("neuron", "comparison-table", ComparisonTable)
    app.add_directive_to_domain("neuron", "training-experiment", TrainingExperiment)
