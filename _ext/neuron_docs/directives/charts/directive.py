"""Bar charts drawn from the data at build time: static, deterministic SVG with a data table beside it.

``.. neuron:chart:: cost`` (or ``:metric:``) with ``latency``, ``throughput``, ``cost``, ``fastmath``
or ``price-performance``; ``:model:``, ``:instance:``, ``:device:`` filter inference runs and
``:experiment:`` picks training experiments; ``:caption:`` replaces the generated title.

The chart is a grouped horizontal bar chart (one panel per measure, one group per model or
comparison, one bar per configuration), written inline in the page with :mod:`xml.etree` so that
its text follows the theme's colours. Every bar is labelled with its configuration and its value,
so colour is never the only signal; the SVG carries a ``<title>`` and a ``<desc>`` generated from
the data, and a collapsible ``<details>`` below holds the same figures as a (downloadable) table.
Charts read the data through :func:`~neuron_docs.state.dependencies.uses`, so a page is rebuilt only when its data
changes.

This module holds the directive and its nodes; the chart model and its SVG are
:mod:`~neuron_docs.directives.charts.svg`, the charts built from the data :mod:`~neuron_docs.directives.charts.model`
(both re-exported here).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar, cast

from docutils import nodes
from docutils.parsers.rst import directives

from ...data.record_keys import file_key
from ...render.placeholder import RenderContext, defer, renderer
from ...data.figures.runs import BENCH_FILES
from ..base import DataDirective
from ...render.tables import broken_notice, comma_list
from ...render.table_model import TableCell, TableModel, text
from ...data.checking.touching import broken_touching
from .model import _Runs, cost_chart, fastmath_chart, latency_chart, price_performance_chart, throughput_chart
from .svg import PALETTE, Chart, render_svg, series_of

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

    from ...node_data import CsvRows

METRICS = ("latency", "throughput", "cost", "fastmath", "price-performance")
#: The collections a chart draws from: their records set aside leave it empty.
CHARTED = ("inference_runs", "accuracy_runs", "environments", "models", "instances", "experiments")
TRAINING_FILES = ("training.yaml", "instances.yaml")


# Docutils nodes and their HTML -------------------------------------------------------------------

class neuron_chart(nodes.General, nodes.Element):  # noqa: N801 - docutils node naming
    """The SVG of a chart, written as is by HTML builders and skipped by the others."""


class neuron_details(nodes.General, nodes.Element):  # noqa: N801
    """A collapsible ``<details>`` block whose ``summary`` attribute is its visible label."""


def _visit_chart_html(self: HTML5Translator, node: neuron_chart) -> None:
    self.body.append(f'<div class="neuron-chart-canvas">{node["svg"]}</div>\n')
    raise nodes.SkipNode


def _skip(self: object, node: nodes.Element) -> None:
    raise nodes.SkipNode


def _visit_details_html(self: HTML5Translator, node: neuron_details) -> None:
    classes = " ".join(["neuron-details", *node.get("classes", [])])
    self.body.append(f'<details class="{escape(classes)}"><summary>{escape(node["summary"])}</summary>\n')


def _depart_details_html(self: HTML5Translator, node: neuron_details) -> None:
    self.body.append("</details>\n")


def _pass(self: object, node: nodes.Element) -> None:
    pass


# The directive ---------------------------------------------------------------------------------

class ChartDirective(DataDirective):
    """A chart, rendered when the page is written; its id is given when the page is read (one per page)."""

    optional_arguments = 1
    option_spec: ClassVar = {**DataDirective.option_spec, "metric": directives.unchanged,
                             "model": directives.unchanged, "instance": directives.unchanged,
                             "device": directives.unchanged, "experiment": directives.unchanged,
                             "caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        metric = (self.arguments[0] if self.arguments else self.options.get("metric", "")).strip()
        if metric not in METRICS:
            self.warn(f"unknown metric {metric!r}; expected one of: {', '.join(METRICS)}")
            return []
        suffix = "".join(f"-{self.options[k]}" for k in ("model", "instance", "device", "experiment")
                         if self.options.get(k))
        name = nodes.make_id(f"chart-{metric}{suffix}")
        used = cast("set[str]", self.env.temp_data.setdefault("neuron_chart_ids", set()))
        chart_id = name
        while chart_id in used:
            chart_id = f"{name}-{len(used)}"
        used.add(chart_id)
        files = (TRAINING_FILES if metric == "price-performance"
                 else (*BENCH_FILES, *(("benchmarks/accuracy.csv",) if metric == "fastmath" else ())))
        params = ChartParams(metric, name, chart_id, self.options.get("caption"),
                             *(comma_list(self.options.get(k)) for k in ("model", "instance", "device", "experiment")))
        return [defer(self, render_chart, params, [file_key(f) for f in files])]


@dataclass(frozen=True)
class ChartParams:
    """What a chart draws (its metric and filters), its name, HTML id and caption."""

    metric: str
    name: str
    id: str
    caption: str | None
    model: list[str]
    instance: list[str]
    device: list[str]
    experiment: list[str]


@renderer("chart")
def render_chart(ctx: RenderContext, params: ChartParams) -> list[nodes.Node]:
    catalog, metric, name = ctx.catalog, params.metric, params.name
    if metric == "price-performance":
        experiments = ctx.pick("experiment", params.experiment, catalog.experiments)
        chart = price_performance_chart(catalog, ctx.data.values, experiments, name)
    else:
        runs = _Runs(ctx.data.derived, ctx.pick("model", params.model, catalog.models),
                     ctx.pick("instance", params.instance, catalog.instances),
                     ctx.pick("device", params.device, catalog.devices))
        if metric == "latency":
            chart = latency_chart(runs, name)
        elif metric == "throughput":
            chart = throughput_chart(runs, name)
        elif metric == "cost":
            chart = cost_chart(runs, name)
        else:
            chart = fastmath_chart(runs, name, list(catalog.accuracy_runs.values()))
    if chart.empty:
        set_aside = broken_touching(catalog, params.device, *CHARTED)
        if set_aside:  # warned once, where the data is loaded
            return broken_notice(set_aside, "These records failed validation, so the chart has nothing to draw:")
        ctx.warn(f"no data to chart for {metric!r} with these options")
        return []
    return [chart_block(chart, params.id, page_colours(ctx.page, chart), params.caption)]


def page_colours(page: dict[str, Any], chart: Chart) -> dict[str, str]:
    """One colour per series across the page: a series keeps the colour it first had on it."""
    taken = cast("dict[str, str]", page.setdefault("neuron_chart_colours", {}))
    for name in series_of(chart):
        taken.setdefault(name, PALETTE[len(taken) % len(PALETTE)])
    return taken


def chart_block(chart: Chart, chart_id: str, colours: dict[str, str], caption: str | None = None,
                csv: CsvRows | None = None) -> nodes.container:
    """The chart as a figure (its SVG in ``colours``, a series -> colour map) with its caption (``caption``
    or the chart's title), and a collapsible data table of the same figures (its CSV: the table's, or
    ``csv``, rows of the same data): nodes only, no side effects."""
    title = caption or chart.title
    figure = nodes.figure(classes=["neuron-chart"], ids=[chart_id])
    figure += neuron_chart(svg=render_svg(chart, chart_id, colours), alt=chart.description())
    figure += nodes.caption(title, title)
    multi = len(chart.panels) > 1
    headers = [*(["Measure"] if multi else []), chart.group_header, chart.bar_header,
               "Value" if multi else chart.panels[0].title]
    model = TableModel(headers, classes=["neuron-chart-data", "neuron-sortable"], name=f"{chart_id}-data",
                       csv_name=f"{chart_id}-data", csv=csv)
    for panel in chart.panels:
        for group in panel.groups:
            for bar in group.bars:
                model.add([*([text(panel.title)] if multi else []), text(group.label), text(bar.label),
                           TableCell(bar.text, bar.text, bar.figure)])
    table = model.table()
    details = neuron_details(summary=f"Data table: {title}", classes=["neuron-chart-details"])
    details += table
    block = nodes.container(classes=["neuron-chart-block"])
    block += figure
    block += details
    return block


def setup_charts(app: Sphinx) -> None:
    skip = (_skip, None)
    passthrough = (_pass, _pass)
    app.add_node(neuron_chart, html=(_visit_chart_html, None), latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_node(neuron_details, html=(_visit_details_html, _depart_details_html), latex=passthrough,
                 text=passthrough, man=passthrough, texinfo=passthrough)
    app.add_directive_to_domain("neuron", "chart", ChartDirective)
