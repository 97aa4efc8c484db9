"""Device specifications, instance types with prices, frameworks and sources as tables.

- ``.. neuron:device-specs:: trainium`` — the device's canonical place: architecture, NeuronCores,
  data types, interconnect, features and every specification with its source.
- ``.. neuron:instance-table::`` (``:device:``/``:family:`` filters) — instance types, devices,
  NeuronCores (derived), vCPUs, EFA bandwidth, and side by side the on-demand price (``instances.yaml``)
  and the reserved-instance effective price (``prices.yaml``, the basis of the published pages' costs),
  each with its source and date.
- ``.. neuron:framework-table::`` and ``.. neuron:source-table::``.

Every table is rendered when the page is written (:mod:`neuron_docs.render`); the page reads only
what the objects it registers need (the ids and names of devices, instances' devices and
families, frameworks' headers), so a change of a specification, a price or a source rewrites the
pages that show it without reading them again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, cast

from docutils import nodes
from docutils.parsers.rst import directives

from ..state.domain import dataset
from ..data.record_keys import fields_key, file_key, names_key, record_key, record_keys, records_key
from ..state.dependencies import READS, note
from ..render.placeholder import NoParams, RenderContext, defer, renderer
from ..data.figures.formatting import format_number
from ..data.figures.prices import PUBLISHED_PRICE_BASIS, price_for
from ..data.records.labels import framework_header, with_version
from .base import DataDirective, let_through
from ..render.tables import broken_notice, comma_list
from ..render.table_model import TableCell, TableModel, count, linked, missing, number, text
from ..render.table_model import price as hourly
from ..data.checking.touching import broken_touching
from ..node_data import OBJECT_ANCHOR

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data.records.models import Quantity


def _sources_cell(ctx: RenderContext, q: Quantity) -> TableCell:
    """A specification's source, then each other source that gives it another value and why the
    data's is used ("Also 190 TFLOPS in <source>: <why>")."""
    if not q.also:
        return source_shown(ctx, q.source)
    cell = nodes.inline()
    cell += source_ref(ctx, q.source)
    for other in q.also:
        said = format_number(other.value, other.unit or q.unit)
        cell += nodes.Text(f". Also {said} in ")
        cell += source_ref(ctx, other.source)
        cell += nodes.Text(f": {other.why}")
    return TableCell(cell, cell.astext())


def source_ref(ctx: RenderContext, source_id: str | None) -> nodes.Node:
    """The source's title, linked when it has a URL (its id after a warning when it is not in the data)."""
    source = ctx.known("source", source_id, ctx.catalog.sources) if source_id else None
    if source is None:
        return nodes.Text(source_id or "")
    if source.url:
        return nodes.reference(source.title, source.title, refuri=source.url)
    return nodes.Text(source.title)


def source_shown(ctx: RenderContext, source_id: str | None) -> TableCell:
    """A table's cell of the source (:func:`source_ref`) and its words."""
    node = source_ref(ctx, source_id)
    return TableCell(node, node.astext())


class DeviceSpecs(DataDirective):
    """A device's specifications: its canonical place (registered when the page is read, from the
    devices' ids and names), the table rendered when the page is written (an unknown device is a
    warning then, at the directive's line)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [names_key("devices")])
        device = catalog.devices.get(self.arguments[0])
        anchor = self.register("device", device.id, device.name) if device is not None else None
        shown = [record_key("devices", self.arguments[0]), records_key("sources"), file_key("devices.yaml")
                 if device is None else names_key("devices"), *([file_key("instances.yaml")] if device is None else [])]
        return [*self.index_nodes(), defer(self, render_device_specs, DeviceParams(self.arguments[0], anchor), shown)]


@dataclass(frozen=True)
class DeviceParams:
    """A device, and the anchor of its canonical place (None: it is not registered on the page)."""

    device: str
    anchor: str | None


@renderer("device-specs")
def render_device_specs(ctx: RenderContext, params: DeviceParams) -> list[nodes.Node]:
    catalog = ctx.catalog
    if params.device not in catalog.devices and catalog.why_missing("devices", params.device):
        # set aside, and said once where the data is loaded: its problem and the instances it took
        # with it, in the box (no second warning for one cause)
        return broken_notice(broken_touching(catalog, [params.device], "devices", "instances"))
    device = ctx.known("device", params.device, catalog.devices)
    if device is None:
        return broken_notice(catalog.broken_in("devices"))
    model = TableModel(["Property", "Value", "Source"], classes=["neuron-device-specs"], name=f"specs-{device.id}",
                       csv_name=f"specs-{device.id}")
    model.add([text("Vendor"), text(device.vendor), text("")])
    model.add([text("Architecture"), text(device.architecture), source_shown(ctx, device.source)])
    model.add([text("Purpose"), text(device.purpose.capitalize()), text("")])
    if device.neuroncores:
        model.add([text("NeuronCores per device"), count(device.neuroncores), source_shown(ctx, device.source)])
    model.add([text("Data types"), text(", ".join(device.data_types)), source_shown(ctx, device.source)])
    model.add([text("Interconnect"), text(device.interconnect), source_shown(ctx, device.source)])
    for q in device.specs.values():
        model.add([text(q.label), number(q.value, q.unit), _sources_cell(ctx, q)])
    if device.features:
        features = nodes.bullet_list()
        for feature in device.features:
            features += nodes.list_item("", nodes.paragraph(feature, feature))
        model.add([text("Features"), TableCell(features, " ".join(device.features)), source_shown(ctx, device.source)])
    table = model.table()
    if params.anchor:
        table["ids"].append(params.anchor)
    return [table]


class InstanceTable(DataDirective):
    """Instance types: the instances' canonical places (registered when the page is read, from their
    ids, devices and families); the rows are rendered when the page is written."""

    option_spec: ClassVar = {**DataDirective.option_spec, "device": directives.unchanged,
                             "family": directives.unchanged, "specs": directives.flag}

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [fields_key("instances", "device", "family")])
        devices = self.pick("device", catalog.devices)
        families = comma_list(self.options.get("family"))
        instances = [i for i in catalog.instances.values()
                     if (not devices or i.device in devices) and (not families or i.family in families)]
        ids = [self.register("instance", instance.id, instance.id) for instance in instances]
        # An id, never the option's raw text: the name becomes a file name (the table's CSV download).
        name = nodes.make_id("-".join(["instances", *devices, *families]))
        params = InstancesParams([i.id for i in instances], ids, name, "specs" in self.options, tuple(devices),
                                 tuple(families))
        shown = [file_key("devices.yaml"), file_key("sources.yaml"), file_key("prices.yaml"),
                 names_key("instances"),
                 *record_keys("instances", params.instances)]
        return [*self.index_nodes(), defer(self, render_instance_table, params, shown)]


@dataclass(frozen=True)
class InstancesParams:
    """The instances of a table with their anchors, the table's name, whether it lists their specifications."""

    instances: list[str]
    ids: list[str]
    name: str
    specs: bool
    #: The devices and families the table was chosen by (none: every instance).
    devices: tuple[str, ...] = ()
    families: tuple[str, ...] = ()

#: Why an instance's on-demand price cell is blank: no source of the data prices it.
NO_ON_DEMAND_PRICE = "no on-demand price in the sources"


def reserved_cells(ctx: RenderContext, instance_id: str) -> list[TableCell]:
    """The reserved-instance effective price of an instance (the newest of ``prices.yaml``) and its
    source, date, term and region; a blank that says so when none is published."""
    quote = price_for(ctx.catalog, instance_id, PUBLISHED_PRICE_BASIS)
    if quote is None:
        return [missing("none", "no reserved-instance price published"), text("")]
    stated = ", ".join(v for v in (quote.term, quote.region) if v)
    return [hourly(quote.usd_per_hour),
            _dated_source(ctx, quote.source, quote.as_of.isoformat() + (f" ({stated})" if stated else ""))]


def _dated_source(ctx: RenderContext, source_id: str, when: str) -> TableCell:
    """A price's source and its date: ``<source>, 2025-01-15``."""
    source = source_shown(ctx, source_id)
    return TableCell([cast("nodes.Node", source.page), nodes.Text(f", {when}")], f"{source.csv}, {when}")


@renderer("instance-table")
def render_instance_table(ctx: RenderContext, params: InstancesParams) -> list[nodes.Node]:
    catalog = ctx.catalog
    name = params.name
    table = TableModel(["Instance type", "Device", "Devices", "NeuronCores", "vCPUs", "EFA", "On-demand price",
                        "RI-effective price", "On-demand source, as of", "RI-effective source, as of"],
                       classes=["neuron-instance-table", "neuron-sortable"], name=name, csv_name=name)
    unknown = missing("unknown", "not in the data")
    instances, unshown = [], []
    for instance_id, anchor in zip(params.instances, params.ids, strict=True):
        instance = ctx.known("instance", instance_id, catalog.instances)
        if instance is None:  # gone since the page was read: the page is read again next build
            continue
        instances.append(instance)
        cores = catalog.neuroncores(instance.id)
        price = instance.price
        reserved = reserved_cells(ctx, instance.id)
        known = instance.device in catalog.devices
        if not known:  # refused by validation; should it come through, a located data problem, not a crash
            unshown.append(let_through(ctx, "instances", instance.id, "device",
                                       f"instance {instance.id!r}: unknown device {instance.device!r}",
                                       "its device and NeuronCores are not shown"))
        table.add([
            TableCell(nodes.literal(instance.id, instance.id), instance.id),
            _device_shown(ctx, instance.device) if known else unknown,
            count(instance.device_count),
            count(cores) if cores else missing("na", "not a Neuron device") if known else unknown,
            count(instance.vcpus),
            number(instance.efa_gbps, "Gbps") if instance.efa_gbps else missing("none", "no EFA"),
            hourly(price.usd_per_hour) if price else missing("none", NO_ON_DEMAND_PRICE),
            reserved[0],
            _dated_source(ctx, price.source, price.as_of.isoformat()) if price else text(""),
            reserved[1],
        ], anchor)
    node = table.table()
    for row, place in zip(node.findall(nodes.row), [None, *table.row_ids], strict=False):  # each instance's place
        if place:
            OBJECT_ANCHOR.set(row, place)
    result: list[nodes.Node] = [node]
    if params.specs:
        for instance in instances:
            if instance.specs:
                specs = TableModel(["Property", "Value", "Source"], caption=f"{instance.id} specifications",
                                   classes=["neuron-instance-specs"], name=f"specs-{instance.id}")
                for q in instance.specs.values():
                    specs.add([text(q.label), number(q.value, q.unit), source_shown(ctx, q.source)])
                result.append(specs.table())
    # the instances set aside that would be in this table: of its devices, or of no device that
    # could be told (a table of some families alone shows every one); then those it leaves unshown
    broken = broken_touching(catalog, params.devices if not params.families else [], "instances")
    return result + broken_notice([*broken, *unshown])


class FrameworkTable(DataDirective):
    """The frameworks' table: their objects registered when the page is read (ids and headers), the
    rows rendered when it is written."""

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [fields_key("frameworks", *HEADER_FIELDS)])
        ids = {f.id: self.register("framework", f.id, framework_header(f)) for f in catalog.frameworks.values()}
        shown = [records_key("frameworks"), names_key("devices"), file_key("frameworks.yaml")]
        return [*self.index_nodes(), defer(self, render_framework_table, Anchors(ids), shown)]


#: The fields of a framework its header (the title of its object) is made of.
HEADER_FIELDS = ("name", "package", "framework_version")


def _device_shown(ctx: RenderContext, device_id: str) -> TableCell:
    """A link to a device, with its name (its id when it is not in the data: a warning)."""
    device = ctx.known("device", device_id, ctx.catalog.devices)
    return linked("device", device_id, device.name if device else device_id)


@dataclass(frozen=True)
class Anchors:
    """The records a page registered when it was read: id -> anchor."""

    ids: dict[str, str]


@renderer("framework-table")
def render_framework_table(ctx: RenderContext, params: Anchors) -> list[nodes.Node]:
    catalog = ctx.catalog
    table = TableModel(["Name", "Package", "Framework", "Devices"], classes=["neuron-framework-table"],
                       name="frameworks")
    for framework, anchor in ctx.registered(catalog.frameworks, params.ids):
        devices: list[nodes.Node] = []
        words = []
        for device in framework.devices:
            if devices:
                devices.append(nodes.Text(", "))
            shown = _device_shown(ctx, device)
            devices.append(cast("nodes.Node", shown.page))
            words.append(shown.csv)
        table.add([text(framework.name), TableCell(nodes.literal(framework.package, framework.package), framework.package),
                   text(with_version(framework.framework, framework)), TableCell(devices, ", ".join(words))], anchor)
    return [table.table(), *broken_notice(catalog.broken_in("frameworks"))]


class SourceTable(DataDirective):
    """Every source, rendered when the page is written."""

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_source_table, NoParams(), [file_key("sources.yaml")])]


@renderer("source-table")
def render_source_table(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    catalog = ctx.catalog
    table = TableModel(["Id", "Source", "Date"], classes=["neuron-source-table"], name="sources")
    for source in catalog.sources.values():
        table.add([TableCell(nodes.literal(source.id, source.id), source.id), source_shown(ctx, source.id),
                   text(source.date.isoformat()) if source.date else missing("unknown", "undated")])
    return [table.table()]


def setup_specs(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "device-specs", DeviceSpecs)
    app.add_directive_to_domain("neuron", "instance-table", InstanceTable)
    app.add_directive_to_domain("neuron", "framework-table", FrameworkTable)
    app.add_directive_to_domain("neuron", "source-table", SourceTable)
