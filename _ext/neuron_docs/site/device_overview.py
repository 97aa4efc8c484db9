"""The devices overview's table and the device pages' sentence on frameworks, from the data.

``.. neuron:device-table::``: every device of the data in one table, the devices overview's body.

One row per device, in the order of ``devices.yaml``: its name (linking to its specifications),
vendor, architecture, purpose, NeuronCores, the instance types that carry it, the Neuron
frameworks that run on it and whether a support matrix is published for it
(``Catalog.matrix_devices``). Built as docutils nodes (data is text, never markup); the table is
a CSV download like every other.

``.. neuron:device-frameworks:: inferentia2``: "The Neuron frameworks that run on it: ..." with a
link to each framework of ``frameworks.yaml`` that lists the device.

Both are rendered when the page is written (:mod:`neuron_docs.render`): a data change rewrites the
page without reading it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes

from ..data.record_keys import file_key
from ..directives.base import DataDirective
from ..render.tables import blank, broken_notice, build_table
from ..data.records.labels import framework_header
from ..data.checking.matrix_files import MATRIX_DIR
from ..state.domain import xref
from ..render.placeholder import NoParams, RenderContext, add_renderers, defer, renderer

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx

HEADERS = ["Device", "Vendor", "Architecture", "Purpose", "NeuronCores per device", "Instance types",
           "Neuron frameworks", "Support matrix"]
MATRIX_TEXT = {True: "Published", False: "Not published yet"}


def _links(objtype: str, ids: Iterable[tuple[str, str]]) -> list[nodes.Node]:
    cell: list[nodes.Node] = []
    for target, text in ids:
        if cell:
            cell.append(nodes.Text(", "))
        cell.append(xref(objtype, target, text))
    return cell


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
    rows, ids = [], []
    for device in catalog.devices.values():
        frameworks = catalog.frameworks_for(device.id)
        instances = [i.id for i in catalog.instances.values() if i.device == device.id]
        has_matrix = device.id in matrices
        ids.append(f"devices-{nodes.make_id(device.id)}")
        rows.append([
            xref("device", device.id, device.name), device.vendor, device.architecture,
            device.purpose.capitalize(),
            str(device.neuroncores) if device.neuroncores else blank("na", "not a Neuron device"),
            _links("instance", ((i, i) for i in instances)),
            _links("framework", ((f.id, f.name) for f in frameworks)),
            MATRIX_TEXT[has_matrix] if has_matrix or frameworks or device.kind == "neuron" else "",
        ])
    table = build_table(HEADERS, rows, row_ids=ids, classes=["neuron-device-table", "neuron-sortable"],
                        name="device-table")
    table["neuron_csv"] = "device-table"
    return [table, *broken_notice(catalog.broken_in("devices"))]


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


def setup_device_overview(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "device-table", DeviceTable)
    app.add_directive_to_domain("neuron", "device-frameworks", DeviceFrameworks)
    add_renderers(app, render_device_table, render_device_frameworks)
