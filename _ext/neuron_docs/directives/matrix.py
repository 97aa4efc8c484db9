"""The per-device support matrix: one row per model family, fit and one column per framework.

``.. neuron:support-matrix:: trainium`` with options ``:category: nlp, cv`` and
``:frameworks: torch-neuronx`` to filter. Family names link to their guideline section, roadmap
cells to the roadmap item, known issues to the issue; notes become numbered footnotes under the
table. The "Last update" line comes from the data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..build_state import dataset, uses
from ..data.labels import FIT_TEXT, STATUS_TEXT, framework_header
from ..domain import xref
from .base import DataDirective
from .tables import badge, badge_cell, broken_notice, build_table, comma_list, status_legend

if TYPE_CHECKING:
    from sphinx.application import Sphinx

MATRIX_FILES = ("families.yaml", "frameworks.yaml", "devices.yaml", "issues.yaml")


class SupportMatrix(DataDirective):
    """The support table of one device."""

    required_arguments = 1
    option_spec: ClassVar = {
        "category": directives.unchanged,
        "frameworks": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        uses(self, *MATRIX_FILES)
        device_id = self.arguments[0]
        device = catalog.devices.get(device_id)
        if device is None:
            self.warn(f"unknown device {device_id!r}; expected one of: "
                      f"{', '.join(catalog.matrix_devices())}")
            return []
        frameworks = catalog.frameworks_for(device_id)
        wanted = comma_list(self.options.get("frameworks"))
        for unknown in [w for w in wanted if w not in {f.id for f in frameworks}]:
            self.warn(f"framework {unknown!r} does not run on {device_id!r}; expected "
                      f"one of: {', '.join(f.id for f in frameworks)}")
        if wanted:
            frameworks = [f for f in frameworks if f.id in wanted]
        categories = self.pick("category", catalog.categories)
        families = [f for f in catalog.families.values()
                    if device_id in f.devices and (not categories or f.category in categories)]

        # The table's id and CSV name: one per device, and per filter when the table is filtered.
        name = nodes.make_id("-".join(["support-matrix", device_id, *categories, *wanted]))
        notes: list[str] = []
        rows = []
        for family in families:
            fit = family.devices[device_id]
            row = [
                xref("family", family.id, family.name),
                catalog.categories[family.category].name,
                self._fit_cell(family.id, device_id, fit.fit),
            ]
            for framework in frameworks:
                entry = fit.support.get(framework.id)
                row.append(self._status_cell(catalog, family.id, device_id, framework.id, entry, notes, name))
            rows.append(row)

        headers = ["Model Family / Neural Network Architecture", "Category", "Hardware Architecture",
                   *(framework_header(f) for f in frameworks)]
        table = build_table(headers, rows, classes=["neuron-support-matrix", "neuron-sortable"],
                            caption=self.options.get("caption"), name=name,
                            row_ids=[f"matrix-{device_id}-{f.id}" for f in families])
        table["neuron_csv"] = name
        result: list[nodes.Node] = []
        updated = catalog.header.last_update.get(device_id) if catalog.header else None
        if updated:
            line = nodes.paragraph(classes=["neuron-last-update"])
            line += nodes.emphasis("Last update", "Last update")
            line += nodes.Text(f" - {updated.isoformat()}")
            result.append(line)
        result.append(table)
        if notes:
            note_list = nodes.enumerated_list(classes=["neuron-cell-notes"])
            for index, text in enumerate(notes, start=1):
                item = nodes.list_item(ids=[f"{name}-note-{index}"])
                item += nodes.paragraph(text, text)
                note_list += item
            result.append(note_list)
        result.append(status_legend())
        if catalog.header:
            definition = nodes.note()
            definition += nodes.paragraph(catalog.header.support_definition, catalog.header.support_definition)
            result.append(definition)
        result.extend(broken_notice(catalog.broken_in("families", "frameworks", "categories")))
        return result

    @staticmethod
    def _fit_cell(family: str, device: str, fit: str) -> nodes.Node:
        mark = badge_cell("fit", fit, FIT_TEXT[fit])
        mark["neuron_key"] = f"fit/{family}/{device}"
        return mark

    def _status_cell(self, catalog: object, family: str, device: str, framework: str, entry: object,
                     notes: list[str], name: str) -> nodes.Node | list[nodes.Node]:
        if entry is None:
            return [nodes.Text("")]
        key = f"support/{family}/{device}/{framework}"
        roadmap = catalog.roadmap_item(entry)
        if not (roadmap or entry.known_issue or entry.note):  # the badge alone: the cell's paragraph
            mark = badge_cell("status", entry.status, STATUS_TEXT[entry.status])
            mark["neuron_key"] = key
            return mark
        mark = badge("status", entry.status, STATUS_TEXT[entry.status])
        mark["neuron_key"] = key
        cell: list[nodes.Node] = []
        if roadmap:
            cell.append(xref("roadmap", roadmap, content=mark))
        else:
            cell.append(mark)
        if entry.known_issue:
            cell.append(nodes.Text(" "))
            cell.append(xref("issue", entry.known_issue, "known issue"))
        if entry.note:
            notes.append(entry.note)
            number = str(len(notes))
            marker = nodes.reference(number, number, refid=f"{name}-note-{number}",
                                     classes=["neuron-note-marker"])
            hidden = nodes.inline("Note ", "Note ", classes=["neuron-visually-hidden"])  # read as "Note 1"
            cell.append(nodes.superscript("", "", hidden, marker))
        return cell


def setup_matrix(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "support-matrix", SupportMatrix)
