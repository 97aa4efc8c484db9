"""The devices overview's table and the device pages' sentence on frameworks, from the data.

``.. neuron:device-table::``: every device of the data in one table, the devices overview's body.

One row per device, in the order of ``devices.yaml``: its name (linking to its specifications),
vendor, architecture, purpose, NeuronCores, the instance types that carry it, the Neuron
frameworks that run on it and whether a support matrix is published for it
(``Catalog.matrix_devices``). Built as docutils nodes (data is text, never markup); the table is
a CSV download like every other.

``.. neuron:device-frameworks:: inferentia2``: "The Neuron frameworks that run on it: ..." with a
link to each framework of ``frameworks.yaml`` that lists the device.

``.. neuron:device-best:: inferentia2``: what runs well on a device, near the top of its page. Per
workload (inference, then training) and model family with a published run on an instance of the
device, the configuration the advisor answers for the family there with the best throughput
(:func:`..data.figures.advisor.best_on_device`, which shares the advisor's one choice): model,
instance, configuration, the throughput (linked to its row on the performance page) and its cost
per 1M at the published pages' price basis, both written by the display rule
(:func:`..data.figures.formatting.shown_measure`, :func:`~..data.figures.formatting.shown_cost`),
and a link to the advisor's row of the family on the device. A device no published run measures
gets one sentence saying so.

All three are rendered when the page is written (:mod:`neuron_docs.render`): a data change rewrites
the page without reading it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.nodes import make_refnode

from ..data.checking.identities import MODEL_COLLECTIONS
from ..data.figures.advisor import WORKLOADS, best_on_device, neuron_devices, published_runs
from ..data.figures.derived import PUBLISHED_COST_READS
from ..data.figures.formatting import shown_cost, shown_measure
from ..data.figures.prices import PUBLISHED_PRICE_BASIS, unstated_sentence
from ..data.published.history_view import run_configuration
from ..data.record_keys import fields_key, file_key, names_key, records_key
from ..directives.base import DataDirective
from ..directives.published_tables import shown_tables
from ..render.tables import broken_notice
from ..render.table_model import TableCell, TableModel, count, linked, missing, text
from ..data.records.labels import PRICE_BASIS_TEXT, framework_header
from ..data.checking.matrix_files import MATRIX_DIR
from ..state.domain import state
from ..state.domain import xref
from ..render.placeholder import NoParams, RenderContext, defer, renderer
from .performance_pages import page_name

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sphinx.application import Sphinx

    from ..data.figures.advisor import Best, FamilyBest
    from ..directives.published_cells import Run

HEADERS = ["Device", "Vendor", "Architecture", "Purpose", "NeuronCores per device", "Instance types",
           "Neuron frameworks", "Support matrix"]
MATRIX_TEXT = {True: "Published", False: "Not published yet"}


def _links(objtype: str, ids: Iterable[tuple[str, str]]) -> TableCell:
    cell: list[nodes.Node] = []
    words = []
    for target, label in ids:
        if cell:
            cell.append(nodes.Text(", "))
        cell.append(xref(objtype, target, label))
        words.append(label)
    return TableCell(cell, ", ".join(words))


class DeviceTable(DataDirective):
    """Every device with what the data holds about it, each row linking to the device's page."""

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_device_table, NoParams(), [file_key(f) for f in DEVICE_TABLE_FILES])]


#: The files the devices overview is computed from.
DEVICE_TABLE_FILES = ("devices.yaml", "instances.yaml", "frameworks.yaml", MATRIX_DIR)


@renderer("device-table")
def render_device_table(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    catalog = ctx.catalog
    matrices = set(catalog.matrix_devices())
    table = TableModel(HEADERS, classes=["neuron-device-table", "neuron-sortable"], name="device-table",
                       csv_name="device-table")
    for device in catalog.devices.values():
        frameworks = catalog.frameworks_for(device.id)
        instances = [i.id for i in catalog.instances.values() if i.device == device.id]
        has_matrix = device.id in matrices
        table.add([
            linked("device", device.id, device.name), text(device.vendor), text(device.architecture),
            text(device.purpose.capitalize()),
            count(device.neuroncores) if device.neuroncores else missing("na", "not a Neuron device"),
            _links("instance", ((i, i) for i in instances)),
            _links("framework", ((f.id, f.name) for f in frameworks)),
            text(MATRIX_TEXT[has_matrix] if has_matrix or frameworks or device.kind == "neuron" else ""),
        ], f"devices-{nodes.make_id(device.id)}")
    return [table.table(), *broken_notice(catalog.broken_in("devices"))]


class DeviceFrameworks(DataDirective):
    """A sentence naming the Neuron frameworks that run on a device, each linked to its row."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_device_frameworks, DeviceId(self.arguments[0]),
                      [file_key("frameworks.yaml"), file_key("devices.yaml")])]


@dataclass(frozen=True)
class DeviceId:
    """A device, by id."""

    device: str


@renderer("device-frameworks")
def render_device_frameworks(ctx: RenderContext, params: DeviceId) -> list[nodes.Node]:
    catalog, device_id = ctx.catalog, params.device
    if ctx.known("device", device_id, catalog.devices) is None:
        return []
    frameworks = catalog.frameworks_for(device_id)
    paragraph = nodes.paragraph(classes=["neuron-device-frameworks"])
    if not frameworks:
        paragraph += nodes.Text("No Neuron framework runs on it.")
        return [paragraph]
    paragraph += nodes.Text("The Neuron frameworks that run on it: ")
    for index, framework in enumerate(frameworks):
        if index:
            paragraph += nodes.Text(" and " if index == len(frameworks) - 1 else ", ")
        paragraph += xref("framework", framework.id, framework_header(framework))
    paragraph += nodes.Text(".")
    return [paragraph]


#: The page that holds the advisor (``.. neuron:advisor::``), whose static table has a row per family
#: and Neuron device (``advisor-<family>-<device>``): a device page links each family there.
ADVISOR_DOC = "advisor"
WORKLOAD_TEXT = {"inference": "Inference", "training": "Training"}
#: What the best configurations of a device show: every published run (another run of a family,
#: on any device, may change which model and shape the advisor compares), what their costs and
#: their models' identities are computed from, the families' names and representatives, and the
#: devices the advisor compares, and the configurations of the benchmark history (a figure whose
#: row no performance page shows links to its configuration there). By collection, wherever its
#: records are read from.
BEST_KEYS = [*(records_key(c) for c in ("published_inference_runs", "published_training_runs",
                                        *PUBLISHED_COST_READS, *MODEL_COLLECTIONS)),
             fields_key("families", "name", "representatives"), fields_key("devices", "name", "kind"),
             names_key("benchmark_configurations")]


class DeviceBest(DataDirective):
    """What runs well on a device: the advisor's best configuration of each family measured on it."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_device_best, DeviceId(self.arguments[0]), BEST_KEYS)]


@renderer("device-best", tables=False)
def render_device_best(ctx: RenderContext, params: DeviceId) -> list[nodes.Node]:
    catalog = ctx.catalog
    device = ctx.known("device", params.device, catalog.devices)
    if device is None:
        return []
    found = best_on_device(catalog, published_runs(ctx.data.derived), device.id)
    box = nodes.container(classes=["neuron-device-best"])
    if not found:
        text = f"The published benchmarks measure no model on an instance of {device.name}."
        box += nodes.paragraph(text, text)
        return [box]
    basis = PRICE_BASIS_TEXT.get(PUBLISHED_PRICE_BASIS, PUBLISHED_PRICE_BASIS)
    text = (f"The best measured configuration of each model family on {device.name} in the published "
            "benchmarks, as the advisor chooses it: the highest throughput among the configurations of one "
            f"model of the family with one task and shape. Costs per 1M are at the {basis} price of the instance.")
    box += nodes.paragraph(text, text)
    rows = _RowPlaces(ctx)
    for workload in WORKLOADS:
        mine = [f for f in found if f.workload == workload]
        if not mine:
            continue
        box += nodes.rubric(WORKLOAD_TEXT.get(workload, workload), WORKLOAD_TEXT.get(workload, workload))
        items = nodes.bullet_list(classes=[f"neuron-device-best-{workload}"])
        for entry in mine:
            items += nodes.list_item("", _best_line(ctx, entry, device.id, rows))
        box += items
    if note := unstated_sentence([f.best.price_unstated for f in found if f.best and f.best.cost is not None]):
        box += nodes.paragraph(note, note, classes=["neuron-price-note"])
    return [box]


def _best_line(ctx: RenderContext, entry: FamilyBest, device_id: str, rows: _RowPlaces) -> nodes.paragraph:
    """``Family: model on instance (configuration): throughput, cost per 1M. Compare devices``."""
    family = ctx.known("family", entry.family, ctx.catalog.families)
    line = nodes.paragraph(classes=[f"neuron-device-best-{nodes.make_id(entry.family)}"])
    line += nodes.strong("", "", xref("family", entry.family, family.name if family else entry.family))
    best = entry.best
    if best is None or best.throughput is None or best.throughput_unit is None:
        line += nodes.Text(": measured, but no run reports a throughput.")
    else:
        line += nodes.Text(f": {best.model} on {best.instance}" + (f" ({best.config})" if best.config else "") + ", ")
        figure = shown_measure(best.throughput, best.throughput_unit)
        line += rows.link(best, nodes.inline(figure, figure, classes=["neuron-device-best-figure"]))
        cost = (f"{shown_cost(best.cost)} per {best.cost_per}" if best.cost is not None and best.cost_per
                else "no cost (no price of its instance)")
        line += nodes.Text(", ")
        line += nodes.inline(cost, cost, classes=["neuron-device-best-cost"])
        line += nodes.Text(".")
    if device_id in neuron_devices(ctx.catalog) and ADVISOR_DOC in ctx.env.all_docs:
        line += nodes.Text(" ")
        line += _link(ctx, (ADVISOR_DOC, f"advisor-{entry.family}-{device_id}"),
                      nodes.inline("Compare devices", "Compare devices"), "The advisor's answer for the family")
    return line


class _RowPlaces:
    """Where a reader finds a published run's figure: its row on the performance page that shows its
    table (:func:`..directives.published_tables.shown_tables`, the page in the build), else the row
    of the same configuration (:func:`..data.published.history_view.run_configuration`) with the same
    figure in a table that page shows (a combined file's copy of a model group's row), else the
    configuration's place in the benchmark history (a link to it stays text where there is none)."""

    def __init__(self, ctx: RenderContext) -> None:
        self.ctx = ctx
        self._pages: dict[str, str] | None = None

    def pages(self) -> dict[str, str]:
        """Published table id -> the performance page in the build that shows it."""
        if self._pages is None:
            catalog, env = self.ctx.catalog, self.ctx.env
            folder = env.config.neuron_performance_pages
            self._pages = {}
            for generation, kind in dict.fromkeys((t.generation, t.kind) for t in catalog.published_tables.values()):
                docname = f"{folder}/{page_name(generation, kind)}"
                if folder and docname in env.all_docs:
                    self._pages.update((t.id, docname) for t in shown_tables(catalog, generation, kind))
        return self._pages

    def link(self, best: Best, content: nodes.inline) -> nodes.Node:
        catalog = self.ctx.catalog
        runs: Mapping[str, Run] = (catalog.published_training_runs if best.kind == "training"
                                   else catalog.published_inference_runs)
        run = runs.get(best.run)
        if run is None:
            return content
        pages = self.pages()
        if run.table in pages:
            return _link(self.ctx, (pages[run.table], _row_id(run)), content, f"{best.model}: its row")
        configuration = run_configuration(catalog, run)
        if configuration is None:
            return content
        figure = run.throughput()
        for other in runs.values():
            if (other.table in pages and other.model == run.model and other.throughput() == figure
                    and run_configuration(catalog, other) == configuration):
                return _link(self.ctx, (pages[other.table], _row_id(other)), content, f"{best.model}: its row")
        return xref("benchmark", configuration, content=content)


def _row_id(run: Run) -> str:
    """The id of a published run's row in its performance table."""
    return f"prun-{nodes.make_id(run.id)}"


def _link(ctx: RenderContext, place: tuple[str, str] | None, content: nodes.Element, title: str) -> nodes.Node:
    """``content`` linked to ``place`` (a page and an anchor on it), or alone without one."""
    builder = state(ctx.env).builder
    if place is None or builder is None:
        return content
    return make_refnode(builder, ctx.docname, place[0], place[1], content, title)


def setup_device_overview(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "device-table", DeviceTable)
    app.add_directive_to_domain("neuron", "device-frameworks", DeviceFrameworks)
    app.add_directive_to_domain("neuron", "device-best", DeviceBest)
