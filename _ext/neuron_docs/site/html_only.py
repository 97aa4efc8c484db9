"""Content written as HTML for the web pages, as docutils nodes for every other builder.

The benchmark history (hundreds of configurations, :mod:`..directives.benchmark_history`) and What's
new's lists of benchmark changes (:mod:`..directives.whats_new`) are written as HTML from templates
in a :class:`~..directives.benchmark_history.neuron_history_html` node, which only HTML writers can
write: the PDF, text and manual pages would hold the pages' introductions and empty headings only.
For every builder but the web ones (``html``, ``dirhtml``, ``singlehtml``) each such node becomes
the same content as docutils nodes, from the data the node carries (``blocks``; ``summary`` and
``groups``): a configuration's title, introduction, table of figures release by release and
throughput chart (a :class:`~..directives.charts.directive.neuron_chart`, an image of its file in
the PDF and the ePub: :mod:`.chart_files`; left out where a builder takes no images), and a release's
summary and lists of changes, each linking to the configuration's place where the builder links.
This runs before the charts become files, wide tables are split and ids labelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.errors import NoUri

from ..directives.benchmark_history import PALETTE, SERIES, neuron_history_html
from ..directives.charts.directive import neuron_chart
from ..directives.charts.svg import render_svg
from ..render.expand import size_columns
from ..render.table_model import TableModel, text
from ..render.uris import place_uri
from ..state.build import writes_web_pages

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: The formats that take the charts as images (their files: :mod:`.chart_files`).
IMAGE_FORMATS = ("latex",)


def writes_html_as_is(app: Sphinx) -> bool:
    return writes_web_pages(app.builder)


def _takes_images(app: Sphinx) -> bool:
    return getattr(app.builder, "format", "") in IMAGE_FORMATS or app.builder.name.startswith("epub")


def configuration_nodes(block: dict[str, Any], charts: bool) -> nodes.container:
    """One configuration of the history: its title, introduction, table and chart."""
    box = nodes.container(ids=[block["anchor"]], classes=["neuron-benchmark-history"])
    box += nodes.rubric(block["title"], block["title"], classes=["neuron-benchmark-title"])
    box += nodes.paragraph(block["intro"], block["intro"])
    table = TableModel(block["headers"], [[text(cell) for cell in row] for row in block["rows"]],
                       classes=["neuron-benchmark-history-table"]).table()
    table["ids"].append(f"{block['anchor']}-releases")
    for group in table.findall(nodes.tgroup):
        size_columns(group)  # the text writer lays the columns out by these widths
    box += table
    chart = block.get("chart")
    if chart is not None and charts:
        chart_id = f"{block['anchor']}-chart"
        figure = nodes.figure(ids=[chart_id], classes=["neuron-chart"])
        figure += neuron_chart(svg=render_svg(chart, chart_id, {SERIES: PALETTE[0]}), alt=chart.description())
        figure += nodes.caption(block["chart_title"], block["chart_title"])
        box += figure
    return box


def _link(app: Sphinx, docname: str, title: str, target: tuple[str, str] | None) -> nodes.Node:
    if target is None or target[0] not in app.env.found_docs:
        return nodes.Text(title)
    try:
        uri = place_uri(app.builder, docname, *target)
    except NoUri:
        return nodes.Text(title)
    return nodes.reference(title, title, refuri=uri, internal=True)


def changes_nodes(app: Sphinx, docname: str, summary: str, groups: list[dict[str, Any]]) -> list[nodes.Node]:
    """A release's changes: its summary, then each kind's list, linked to the configurations."""
    out: list[nodes.Node] = [nodes.paragraph(summary, summary)]
    for group in groups:
        out.append(nodes.paragraph("", "", nodes.strong(group["title"], group["title"])))
        items = nodes.bullet_list(classes=["neuron-benchmark-change-list"])
        for entry in group["entries"]:
            paragraph = nodes.paragraph()
            paragraph += _link(app, docname, entry["title"], entry.get("target"))
            paragraph += nodes.Text(entry["text"] + (f", {entry['when']}" if entry["when"] else ""))
            items += nodes.list_item("", paragraph)
        out.append(items)
    return out


def html_as_nodes(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Outside the web builders, each template's HTML becomes the same content as docutils nodes."""
    if writes_html_as_is(app):
        return
    charts = _takes_images(app)
    for node in list(doctree.findall(neuron_history_html)):
        if "blocks" in node:
            content: list[nodes.Node] = [configuration_nodes(block, charts) for block in node["blocks"]]
        elif "groups" in node:
            content = changes_nodes(app, docname, node["summary"], node["groups"])
        else:
            continue
        node.replace_self(content)
