"""Architecture-fit guideline sections: one per model family, fit and support per device.

``.. neuron:family-guidelines::`` renders, for every category (or those in ``:category:``), a
section per family with its description and representatives, then per device the architecture
fit with its rationale and the Neuron support with a status badge per framework and workload. Fit
and support come from the latest revision of the support matrices; the rationale and support
prose from ``families.yaml``, which says which revision that prose describes (``guidelines_as_of``). The family
section is the family's canonical place in the ``neuron`` domain; representatives are searchable.

The sections are made when the page is read, from what their titles, anchors and objects need
(categories' titles; families' names, titles, categories, representatives and devices; the
models' names; the devices' names; which families the latest revision lists on which device):
a change of those has the page read again. What the sections say (description, fit, rationale,
support, known issues, measured models) is rendered when the page is written
(:mod:`neuron_docs.render`): a change of a rationale, a status or an issue rewrites the page
without reading it again. The prose from the data stays in sections the drift checker leaves out
(``neuron-family``), as when it was built when the page was read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..data.records.labels import FIT_WORDS, STATUS_TEXT, framework_label
from ..data.checking.matrix_files import MATRIX_DIR
from ..data.record_keys import fields_key, file_key, matrix_rows_key, names_key
from ..state.dependencies import READS, note
from ..state.domain import NeuronDomain, anchor_for, dataset, index_entry, neuron_domain, xref
from ..render.placeholder import RenderContext, defer, renderer
from .base import Collections, DataDirective, render_broken_notice
from .published_by_family import MEASURED_KEYS, FamilyParams, render_measured_models
from ..render.tables import badge

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from ..data.records.models import Family

#: What the sections, their titles and the objects they register are made of (read keys).
STRUCTURE_KEYS = [fields_key("categories", "title"),
                  fields_key("families", "name", "title", "category", "representatives", "devices[]"),
                  fields_key("models", "name", "family"), names_key("devices"), matrix_rows_key(None)]
#: What the sections' content shows (shown keys): the families' prose, fits and support, the
#: frameworks' labels, the known issues of each family and device (not their text).
CONTENT_KEYS = [*(file_key(name) for name in ("families.yaml", "frameworks.yaml", "devices.yaml", MATRIX_DIR)),
                fields_key("known_issues", "title", "families", "devices")]


def _section(title: str, anchor: str, classes: tuple[str, ...] = ()) -> nodes.section:
    section = nodes.section(ids=[anchor], classes=list(classes))
    section += nodes.title(title, title)
    return section


def _labelled(label: str, *body: nodes.Node) -> nodes.list_item:
    paragraph = nodes.paragraph()
    paragraph += nodes.strong(label, label)
    paragraph += nodes.Text(" - ")
    for node in body:
        paragraph += node
    return nodes.list_item("", paragraph)


class FamilyGuidelines(DataDirective):
    """Guideline sections for the model families of the data set."""

    option_spec: ClassVar = {
        "category": directives.unchanged,
        "family": directives.unchanged,
        "no-index": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, STRUCTURE_KEYS)
        domain = neuron_domain(self.env)
        categories = self.pick("category", catalog.categories) or list(catalog.categories)
        only = self.pick("family", catalog.families)
        result: list[nodes.Node] = []
        for category_id in categories:
            category = catalog.categories.get(category_id)
            families = [f for f in catalog.families.values()
                        if f.category == category_id and (not only or f.id in only)]
            if category is None or not families:
                continue
            category_section = _section(category.title, anchor_for("category", category_id))
            for family in families:
                category_section += self._family_section(catalog, domain, family)
            result.append(category_section)
        result.append(defer(self, render_broken_notice, Collections(("families",)), [file_key("families.yaml")]))
        return result

    def _family_section(self, catalog: Catalog, domain: NeuronDomain, family: Family) -> nodes.section:
        """The family's section and a section per device (made now: titles and anchors), their
        content left to the writer."""
        anchor = anchor_for("family", family.id)
        section = _section(family.title, anchor, ("neuron-family",))
        if "no-index" not in self.options:
            domain.note_object("family", family.id, family.name, anchor, location=self.get_location())
            section += index_entry("family", family.name, anchor)
            for name in family.representatives:
                domain.note_alias(name, anchor, "representative")
            for model in catalog.models.values():
                if model.family == family.id:
                    domain.note_alias(model.name, anchor, "representative")
        section += defer(self, render_family_intro, FamilyParams(family.id), CONTENT_KEYS)
        for device_id in family_devices(catalog, family):
            sub = _section(catalog.devices[device_id].name, anchor_for("family", f"{family.id}-{device_id}"))
            sub += defer(self, render_family_device, FamilyOnDevice(family.id, device_id), CONTENT_KEYS)
            section += sub
        measured = _section("Measured models", f"{anchor}-measured", ("neuron-measured",))
        measured += defer(self, render_measured_models, FamilyParams(family.id), MEASURED_KEYS)
        section += measured
        return section


def family_devices(catalog: Catalog, family: Family) -> list[str]:
    """The devices a family's guidelines have a section for: those its prose describes, then those
    a matrix of the latest revision lists it on."""
    rev = catalog.revision()
    listed = [d for m in (rev.matrices if rev else []) for d in m.devices if m.row(family.id) and d in catalog.devices]
    return list(dict.fromkeys([*(d for d in family.devices if d in catalog.devices), *listed]))


@renderer("family-intro")
def render_family_intro(ctx: RenderContext, params: FamilyParams) -> list[nodes.Node]:
    """A family's description and representatives."""
    family = ctx.known("family", params.family, ctx.catalog.families)
    if family is None:  # gone since the page was read: the page is read again before it is written
        return []
    result: list[nodes.Node] = [nodes.paragraph(family.description, family.description)]
    if family.representatives:
        paragraph = nodes.paragraph(classes=["neuron-representatives"])
        paragraph += nodes.Text("Representatives of this family include ")
        for index, name in enumerate(family.representatives):
            if index:
                paragraph += nodes.Text(", ")
            paragraph += nodes.strong(name, name)
        paragraph += nodes.Text(".")
        result.append(paragraph)
    return result


@dataclass(frozen=True)
class FamilyOnDevice:
    """A family on one device (its guideline section)."""

    family: str
    device: str


@renderer("family-device")
def render_family_device(ctx: RenderContext, params: FamilyOnDevice) -> list[nodes.Node]:
    """A family on a device: the architecture fit with its rationale, the Neuron support per
    framework and workload with the guideline prose, the known issues."""
    catalog = ctx.catalog
    family, device = ctx.known("family", params.family, catalog.families), ctx.known("device", params.device,
                                                                                       catalog.devices)
    if family is None or device is None:  # gone since the page was read: read again before written
        return []
    device_id = device.id
    prose = family.devices.get(device_id)
    rev = catalog.revision()
    as_of = catalog.header.guidelines_as_of.isoformat() if catalog.header else None
    items = nodes.bullet_list()
    fit = catalog.fit(family.id, device_id)
    fit_body: list[nodes.Node] = []
    if fit:
        fit_text = f"{family.short_name} are {FIT_WORDS[fit]} for {device.name}."
        fit_body.append(badge("fit", fit, fit_text))
    else:
        fit_body.append(nodes.Text("Not in the latest support matrix."))
    if prose and prose.rationale:
        fit_body.append(nodes.Text(" " + prose.rationale))
    items += _labelled("Architecture Fit", *fit_body)
    support_body: list[nodes.Node] = []
    matrix = catalog.matrix(device_id)
    for key, cell in catalog.support(family.id, device_id).items():
        column = matrix.column(key) if matrix else None
        if support_body:
            support_body.append(nodes.Text("; "))
        framework_id = column.framework if column else key.split("/")[0]
        framework = ctx.known("framework", framework_id, catalog.frameworks)
        support_body.append(xref("framework", framework_id, framework_label(framework) if framework
                                 else framework_id))
        support_body.append(nodes.Text(f" ({column.workload if column else key.split('/')[1]}): "))
        support_body.append(badge("status", cell.status, STATUS_TEXT[cell.status]))
    if rev and support_body:
        support_body.append(nodes.Text(f" (support matrices of {rev.name})"))
    if prose and prose.support_text:
        support_body.append(nodes.Text(". " if support_body else ""))
        support_body.append(nodes.inline(prose.support_text, prose.support_text, classes=["neuron-prose"]))
        if as_of:
            note_text = f" (guideline text as of the revision of {as_of})"
            support_body.append(nodes.inline(note_text, note_text, classes=["neuron-prose-as-of"]))
    items += _labelled("Neuron Support", *support_body)
    for issue in catalog.known_issues.values():
        if family.id in issue.families and device_id in issue.devices:
            items += _labelled("Known Issue", xref("issue", issue.id, issue.title))
    return [items]


def setup_guidelines(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "family-guidelines", FamilyGuidelines)
