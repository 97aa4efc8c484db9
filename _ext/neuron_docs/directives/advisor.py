"""``.. neuron:advisor::``: which device for a model, in one table, and the data of the interactive advisor.

The directive renders, for every model family and Neuron device, the architecture fit with its
rationale, the support status per framework, known issues and roadmap items, and the configurations
of the family's representative model with one task and shape that give the best inference
throughput, the best inference latency, the lowest inference cost per 1M (with the price it used)
and the best training throughput (:func:`..data.figures.advisor.advisor_slice`), each saying since
which Neuron release its figures hold (:func:`..data.published.history_view.held_since`). This static
table is what a reader without JavaScript sees. On ``doctree-resolved`` the same slice, with the
links of every family, device, issue, roadmap item and model, is embedded once in the page as JSON
for ``neuron-advisor.js``, which adds the form (state in the URL) and is loaded on that page only.

Both are rendered when the page is written (:mod:`neuron_docs.render`): the directive registers
nothing and reads nothing of the data; the page shows every data file, so a change of any figure,
price, rationale, status or issue rewrites it without reading it again.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, cast

from docutils import nodes

from ..state.build import is_html, writes_web_pages
from ..data.figures.advisor import SupportCell, advisor_slice, column_label, support_cell
from ..data.figures.fit import fit_slice
from ..data.figures.prices import unstated_sentence
from ..data.published.history_view import held_since
from ..data.catalog import FILE_NAMES
from ..data.records.labels import FIT_TEXT, STATUS_TEXT
from ..data.checking.matrix_files import MATRIX_DIR
from ..data.record_keys import file_key
from ..state.domain import neuron_domain, state, xref
from ..render.placeholder import NoParams, RenderContext, defer, renderer
from ..render.assets import add_static_path
from ..render.uris import place_uri
from .base import DataDirective
from ..render.table_model import TableCell, TableModel, linked, text
from ..node_data import ADVISOR_DATA

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from ..state.domain import NeuronDomain

JS_FILE = "neuron-advisor.js"
#: The estimate of "Will it fit?" (``window.NeuronFit``), loaded before the advisor's script.
FIT_JS_FILE = "neuron-fit.js"
DATA_ID = "neuron-advisor-data"
HEADERS = ("Model family", "Device", "Architecture fit", "Support", "Known issues and roadmap",
           "Best inference throughput", "Best inference latency", "Lowest inference cost",
           "Best training throughput")
#: The sentence of each run a comparison chose: best throughput, best latency, lowest cost.
TEXT_FIELDS = ("throughput_text", "latency_text", "cost_text")
NO_MATRIX = "Unknown: no published fit or support for this device"
NOT_MEASURED = "None measured"
#: The data files the advisor shows: all of them (fit, rationale, support, issues, runs, prices, and
#: the benchmark history, for since when each best configuration's figures hold).
ADVISOR_FILES = (*FILE_NAMES, MATRIX_DIR)


#: The name (and id) of the advisor's static table.
TABLE_NAME = "advisor-all-families"


class advisor_data(nodes.General, nodes.Element):
    """Where the advisor's JSON goes; filled on ``doctree-resolved``."""


class Advisor(DataDirective):
    """The advisor: the form's place, its data, and the static table for every family and device,
    rendered when the page is written; the page shows every data file."""

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_advisor, NoParams(), [file_key(name) for name in ADVISOR_FILES])]


@renderer("advisor")
def render_advisor(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    """The form's place, the JSON island's place (filled on ``doctree-resolved``) and the static table."""
    catalog = ctx.catalog
    data = advisor_slice(ctx.data.derived, lambda run: held_since(catalog, run))
    data["fit"] = fit = fit_slice(catalog)
    keys = cast("dict[str, str]", data["keys"])
    # A model without runs, by its names: after every model's, before a family's (a family's representative
    # with a size answers with its estimate, and with its family: the size names it).
    for key, size in fit.pop("keys").items():
        if not keys.get(key, "").startswith("model:"):
            keys[key] = size
    runs = data["runs"]
    fields = data["run_fields"]
    assert isinstance(runs, list) and isinstance(fields, list)
    table = cast("dict[str, dict[str, object]]", data["table"])

    shown: set[int] = set()  # the runs the table names (their prices' gaps are said once, under it)

    def best(key: str, workload: str, which: int) -> TableCell:
        index = cast("list[int | None]", table.get(key, {}).get(workload, [None, None, None, None]))[which]
        if index is None:
            # A latency is not what a training run is measured by; a throughput or a cost is.
            return text("Not applicable" if workload == "training" and which == 1 else NOT_MEASURED)
        shown.add(index)
        return text(str(runs[index][fields.index(TEXT_FIELDS[which])]))

    model = TableModel(HEADERS, name=TABLE_NAME, classes=["neuron-advisor-table", "neuron-sortable"])
    for family in catalog.families.values():
        for device in data["devices"]:  # type: ignore[attr-defined]
            key = f"{family.id}|{device['id']}|"
            cell = support_cell(catalog, family.id, device["id"])
            model.add([linked("family", family.id, family.name), linked("device", device["id"], device["name"]),
                       _fit(cell), _support(catalog, cell), _issues(ctx, table, key),
                       best(key, "inference", 0), best(key, "inference", 1), best(key, "inference", 2),
                       best(key, "training", 0)], f"advisor-{family.id}-{device['id']}")
    app_box = nodes.container(ids=["neuron-advisor-app"], classes=["neuron-advisor-app"])
    placeholder = advisor_data()
    placeholder["slice"] = data
    builder = state(ctx.env).builder
    if builder is not None and not writes_web_pages(builder):  # for its blocks (.site.advisor_blocks)
        state(ctx.env).table_models[(ctx.docname, TABLE_NAME)] = model.copy()
    static = model.table()
    unsaid = fields.index("price_unstated")
    note = unstated_sentence([cast("list[str]", runs[i][unsaid]) for i in sorted(shown)])
    return [app_box, placeholder, static, *([nodes.paragraph(note, note, classes=["neuron-price-note"])] if note else [])]


def _fit(cell: SupportCell | None) -> TableCell:
    """The fit in bold, then its rationale."""
    if cell is None:
        return text(NO_MATRIX)
    fit = FIT_TEXT[cell.fit]
    out: list[nodes.Node] = [nodes.strong(fit, fit)]
    if cell.rationale:
        out.append(nodes.Text(f": {cell.rationale}"))
    return TableCell(out, f"{fit}: {cell.rationale}" if cell.rationale else fit)


def _support(catalog: Catalog, cell: SupportCell | None) -> TableCell:
    """A list of the support per framework (the CSV: the items one after the other)."""
    if cell is None:
        return text(NO_MATRIX)
    items = nodes.bullet_list()
    lines = []
    for key, entry in cell.support.items():
        line = f"{column_label(catalog, key)}: {STATUS_TEXT[entry.status]}"
        line += f" ({entry.note})" if entry.note else ""
        line += f", since {cell.held_since[key]}" if key in cell.held_since else ""
        items += nodes.list_item("", nodes.paragraph(line, line))
        lines.append(line)
    return TableCell([items], " ".join(lines))


def _issues(ctx: RenderContext, table: dict[str, dict[str, object]], key: str) -> TableCell:
    """The known issues and roadmap items of a family on a device, linked, or "None known"."""
    advice = cast("dict[str, list[str]]", table.get(key, {}).get("advice", {}))
    links: list[nodes.Node] = []
    titles: list[str] = []
    for kind, ids in (("issue", advice.get("issues", [])), ("roadmap", advice.get("roadmap", []))):
        for item in ids:
            record = (ctx.known("known issue", item, ctx.catalog.known_issues) if kind == "issue"
                      else ctx.known("roadmap item", item, ctx.catalog.roadmap))
            title = record.title if record else item
            links += [nodes.Text("; ")] if links else []
            links.append(xref(kind, item, title))
            titles.append(title)
    return TableCell(links, "; ".join(titles)) if links else text("None known")


def _links(app: Sphinx, domain: NeuronDomain, fromdocname: str) -> dict[str, str]:
    """``objtype:name`` -> the relative URL of the object's canonical place, for every object and alias."""
    builder = app.builder
    out = {}
    for (objtype, name), entry in sorted(domain.objects.items()):
        out[f"{objtype}:{name}"] = place_uri(builder, fromdocname, entry.docname, entry.anchor)
    for alias, (docname, anchor, objtype) in sorted(domain.aliases.items()):
        out.setdefault(f"{objtype}:{alias}", place_uri(builder, fromdocname, docname, anchor))
    return out


def fill_advisor(app: Sphinx, doctree: nodes.document, fromdocname: str) -> None:
    for node in list(doctree.findall(advisor_data)):
        if not is_html(app):
            node.parent.remove(node)
            continue
        domain = neuron_domain(app.env)
        data = {**node["slice"], "links": _links(app, domain, fromdocname)}
        # The page an unknown name is sent to (a document of the site, when it has one).
        if data.get("guidelines") in app.env.found_docs:
            data["guidelines_url"] = app.builder.get_relative_uri(fromdocname, str(data["guidelines"]))
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        # Inside <script>, "</" could end the element: escape every "<" (JSON allows \u003c).
        text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        raw = nodes.raw("", f'<script type="application/json" id="{DATA_ID}">{text}</script>', format="html")
        node.replace_self(raw)
        ADVISOR_DATA.set(doctree, True)


def advisor_script(app: Sphinx, pagename: str, templatename: str, context: dict[str, object],
                   doctree: nodes.document | None) -> None:
    """Load the advisor's script on the pages that hold its data, and nowhere else."""
    if doctree is not None and ADVISOR_DATA.get(doctree):
        app.add_js_file(FIT_JS_FILE, loading_method="defer")
        app.add_js_file(JS_FILE, loading_method="defer")


def add_advisor_static_path(app: Sphinx) -> None:
    if is_html(app):
        add_static_path(app)


def setup_advisor(app: Sphinx) -> None:
    app.add_node(advisor_data)
    app.add_directive_to_domain("neuron", "advisor", Advisor)

