"""Bar charts drawn from the data at build time: static, deterministic SVG with a data table beside it.

``.. neuron:chart:: cost`` (or ``:metric:``) with ``latency``, ``throughput``, ``cost``, ``fastmath``
or ``price-performance``; ``:model:``, ``:instance:``, ``:device:`` filter inference runs and
``:experiment:`` picks training experiments; ``:caption:`` replaces the generated title.

The chart is a grouped horizontal bar chart (one panel per measure, one group per model or
comparison, one bar per configuration), written inline in the page with :mod:`xml.etree` so that
its text follows the theme's colours. Every bar is labelled with its configuration and its value,
so colour is never the only signal; the SVG carries a ``<title>`` and a ``<desc>`` generated from
the data, and a collapsible ``<details>`` below holds the same figures as a (downloadable) table.
Charts read the data through :func:`store.uses`, so a page is rebuilt only when its data changes.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from .data.formatting import NumberFormat, format_number
from .data.values import cost_per_million
from .specs import DataDirective
from .store import dataset, uses
from .tables import build_table

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

METRICS = ("latency", "throughput", "cost", "fastmath", "price-performance")
BENCH_FILES = ("benchmarks/inference.csv", "models.yaml", "instances.yaml", "devices.yaml")
TRAINING_FILES = ("training.yaml", "instances.yaml")
#: Okabe-Ito colours: distinguishable with colour-vision deficiencies, readable on light and dark.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
RATIO = NumberFormat(decimals=2)


# The chart model ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    text: str
    series: int = 0


@dataclass(frozen=True)
class Group:
    label: str
    bars: tuple[Bar, ...]


@dataclass(frozen=True)
class Panel:
    title: str
    groups: tuple[Group, ...]
    note: str = ""


@dataclass(frozen=True)
class Chart:
    name: str
    title: str
    panels: tuple[Panel, ...]
    group_header: str = "Model"
    bar_header: str = "Configuration"

    @property
    def empty(self) -> bool:
        return not any(group.bars for panel in self.panels for group in panel.groups)

    def description(self) -> str:
        """The chart in words: every figure it shows, for screen readers and text browsers."""
        parts = [f"Horizontal bar chart: {self.title}."]
        for panel in self.panels:
            groups = "; ".join(f"{g.label}: " + ", ".join(f"{b.label} {b.text}" for b in g.bars)
                               for g in panel.groups)
            parts.append(f"{panel.title}. {groups}." + (f" {panel.note}" if panel.note else ""))
        return " ".join(parts)


# Drawing ---------------------------------------------------------------------------------------

WIDTH, LABEL_W, VALUE_W = 760, 290, 120
BAR_H, ROW_H, GROUP_H, TITLE_H, AXIS_H, GAP = 16, 22, 22, 26, 26, 14
FONT = 12
#: Average glyph width at ``FONT`` px, to keep labels inside their column.
CHAR_W = 6.3


def nice_step(maximum: float, ticks: int = 5) -> float:
    """A round tick step (1, 2, 2.5 or 5 x 10^n) giving about ``ticks`` intervals up to ``maximum``."""
    if maximum <= 0:
        return 1.0
    raw = maximum / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _num(value: float) -> str:
    """Coordinates with at most two decimals, so output is stable across platforms."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _tick_text(value: float) -> str:
    return f"{value:g}" if value < 1e6 else f"{value:.3g}"


def _fit(label: str, width: float) -> str:
    chars = int(width / CHAR_W)
    return label if len(label) <= chars else label[: max(chars - 1, 1)].rstrip() + "\u2026"


def _text(parent: ET.Element, x: float, y: float, content: str, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, "text", {"x": _num(x), "y": _num(y), **attrs})
    element.text = content
    return element


def render_svg(chart: Chart, chart_id: str) -> str:
    """The chart as an SVG document fragment (deterministic: same chart, same bytes)."""
    plot_x, plot_w = LABEL_W, WIDTH - LABEL_W - VALUE_W
    height = 0.0
    for panel in chart.panels:
        rows = sum(len(g.bars) for g in panel.groups)
        height += TITLE_H + GROUP_H * len(panel.groups) + ROW_H * rows + AXIS_H + GAP
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "class": "neuron-chart-svg",
        "viewBox": f"0 0 {WIDTH} {_num(height)}", "width": str(WIDTH), "height": _num(height),
        "role": "img", "aria-labelledby": f"{chart_id}-title {chart_id}-desc",
        "font-size": str(FONT), "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    })
    ET.SubElement(svg, "title", {"id": f"{chart_id}-title"}).text = chart.title
    ET.SubElement(svg, "desc", {"id": f"{chart_id}-desc"}).text = chart.description()
    y = 0.0
    for panel in chart.panels:
        top = y
        values = [b.value for g in panel.groups for b in g.bars]
        step = nice_step(max(values, default=0))
        axis_max = step * max(math.ceil(max(values, default=0) / step), 1)
        scale = plot_w / axis_max
        body = ET.SubElement(svg, "g", {"class": "neuron-chart-panel"})
        _text(body, 0, y + 17, panel.title, **{"font-weight": "bold", "font-size": str(FONT + 1),
                                                "fill": "currentColor"})
        y += TITLE_H
        spans: list[tuple[float, float]] = []
        grid = ET.SubElement(body, "g", {"class": "neuron-chart-grid", "aria-hidden": "true"})
        bars = ET.SubElement(body, "g", {"class": "neuron-chart-bars"})
        for group in panel.groups:
            _text(bars, 0, y + 15, _fit(group.label, WIDTH), **{"font-weight": "bold", "fill": "currentColor"})
            y += GROUP_H
            spans.append((y, y + ROW_H * len(group.bars)))
            for bar in group.bars:
                row = ET.SubElement(bars, "g", {"class": "neuron-chart-bar"})
                ET.SubElement(row, "title").text = f"{group.label}, {bar.label}: {bar.text}"
                _text(row, plot_x - 8, y + 15, _fit(bar.label, LABEL_W - 20),
                      **{"text-anchor": "end", "fill": "currentColor"})
                width = max(bar.value * scale, 1.0)
                ET.SubElement(row, "rect", {"x": _num(plot_x), "y": _num(y + (ROW_H - BAR_H) / 2),
                                            "width": _num(width), "height": str(BAR_H),
                                            "fill": PALETTE[bar.series % len(PALETTE)]})
                _text(row, plot_x + width + 6, y + 15, bar.text, fill="currentColor")
                y += ROW_H
        plot_bottom = y
        tick = 0.0
        while tick <= axis_max + step / 1000:
            x = plot_x + tick * scale
            for span_top, span_bottom in spans:  # gridlines behind the bars, not across group labels
                ET.SubElement(grid, "line", {"x1": _num(x), "x2": _num(x), "y1": _num(span_top),
                                             "y2": _num(span_bottom), "stroke": "currentColor",
                                             "stroke-opacity": "0.45" if tick == 0 else "0.15"})
            _text(grid, x, plot_bottom + 16, _tick_text(tick), **{"text-anchor": "middle", "fill": "currentColor",
                                                                   "fill-opacity": "0.8", "font-size": "11"})
            tick += step
        if panel.note:
            _text(body, plot_x + plot_w + VALUE_W, top + 17, panel.note,
                  **{"text-anchor": "end", "font-style": "italic", "fill": "currentColor", "fill-opacity": "0.8"})
        y = plot_bottom + AXIS_H + GAP
    ET.indent(svg, space="")
    return ET.tostring(svg, encoding="unicode")


# Charts from the data ---------------------------------------------------------------------------

def _options_label(options: str | None) -> str:
    return options or "default options"


class _Runs:
    """The inference runs a chart draws, filtered, with their instance and model."""

    def __init__(self, catalog: object, models: Sequence[str], instances: Sequence[str],
                 devices: Sequence[str]) -> None:
        self.catalog = catalog
        self.runs = []
        for run in catalog.inference_runs.values():
            instance = self.instance(run)
            if ((not models or run.model in models) and (not instances or instance.id in instances)
                    and (not devices or instance.device in devices)):
                self.runs.append(run)
        self.instance_order = list(dict.fromkeys(self.instance(r).id for r in self.runs))

    def instance(self, run: object) -> object:
        return self.catalog.instances[self.catalog.environments[run.environment].instance]

    def model_label(self, run: object) -> str:
        name = self.catalog.models[run.model].name
        return f"{name} ({run.variant})" if run.variant else name

    def series(self, run: object) -> int:
        return self.instance_order.index(self.instance(run).id)

    def grouped(self, runs: Sequence[object], bar: object) -> tuple[Group, ...]:
        groups: dict[str, list[Bar]] = {}
        for run in runs:
            groups.setdefault(self.model_label(run), []).append(bar(run))
        return tuple(Group(label, tuple(bars)) for label, bars in groups.items())


def _run_label(runs: _Runs, run: object) -> str:
    label = f"{runs.instance(run).id}, batch {run.batch_size}"
    return f"{label}, {run.compiler_options}" if run.compiler_options else label


def latency_chart(runs: _Runs, name: str) -> Chart:
    measured = [r for r in runs.runs if r.p90_latency_ms]
    groups = runs.grouped(measured, lambda r: Bar(_run_label(runs, r), r.p90_latency_ms,
                                                  format_number(r.p90_latency_ms, "ms"), runs.series(r)))
    return Chart(name, "p90 latency per model and instance", (Panel("p90 latency (ms)", groups, "lower is better"),))


def throughput_chart(runs: _Runs, name: str) -> Chart:
    measured = [r for r in runs.runs if r.throughput_per_s]
    groups = runs.grouped(measured, lambda r: Bar(_run_label(runs, r), r.throughput_per_s,
                                                  format_number(r.throughput_per_s, "inferences/s"),
                                                  runs.series(r)))
    return Chart(name, "Throughput per model and instance",
                 (Panel("Throughput (inferences/s)", groups, "higher is better"),))


def cost_chart(runs: _Runs, name: str) -> Chart:
    """Per model and instance, the cost per 1M inferences at the best measured throughput."""
    best: dict[tuple[str, str, str], object] = {}
    for run in runs.runs:
        if run.throughput_per_s is None:
            continue
        key = (run.model, run.variant or "", runs.instance(run).id)
        if key not in best or run.throughput_per_s > best[key].throughput_per_s:
            best[key] = run

    def bar(run: object) -> Bar:
        instance = runs.instance(run)
        cost = cost_per_million(instance.price.usd_per_hour, run.throughput_per_s)
        return Bar(f"{instance.id}, batch {run.batch_size}", cost, format_number(cost, "USD", RATIO),
                   runs.series(run))

    groups = runs.grouped(list(best.values()), bar)
    return Chart(name, "Cost per 1M inferences at the best throughput",
                 (Panel("Cost per 1M inferences (USD, on-demand price)", groups, "lower is better"),))


def fastmath_chart(runs: _Runs, name: str, accuracy: Sequence[object]) -> Chart:
    """Default compiler options against the others, where the same model ran both ways."""
    catalog = runs.catalog

    def compared(records: Sequence[object], key: object) -> dict[tuple, list[object]]:
        groups: dict[tuple, list[object]] = {}
        for record in records:
            groups.setdefault(key(record), []).append(record)
        return {k: v for k, v in groups.items() if len({r.compiler_options or "" for r in v}) > 1}

    def panel(title: str, records: Sequence[object], key: object, label: object, value: object, unit: str,
              note: str) -> Panel:
        groups = []
        for group_key, members in compared(records, key).items():
            members = sorted(members, key=lambda r: (r.compiler_options or "") != "")
            groups.append(Group(label(group_key, members[0]), tuple(
                Bar(_options_label(r.compiler_options), value(r), format_number(value(r), unit),
                    0 if not r.compiler_options else 1) for r in members)))
        return Panel(title, tuple(groups), note)

    def run_label(key: tuple, run: object) -> str:
        return f"{runs.model_label(run)} on {runs.instance(run).id}, batch {run.batch_size}"

    run_key = (lambda r: (r.model, r.variant or "", r.environment, r.batch_size))
    wanted_models = {r.model for r in runs.runs}
    wanted_envs = {r.environment for r in runs.runs}
    accuracy_runs = [a for a in accuracy if a.model in wanted_models and a.environment in wanted_envs]
    panels = (
        panel("p90 latency (ms)", [r for r in runs.runs if r.p90_latency_ms], run_key, run_label,
              lambda r: r.p90_latency_ms, "ms", "lower is better"),
        panel("Throughput (inferences/s)", [r for r in runs.runs if r.throughput_per_s], run_key, run_label,
              lambda r: r.throughput_per_s, "inferences/s", "higher is better"),
        panel("Top-1 accuracy (%)", accuracy_runs, lambda a: (a.model, a.environment, a.dataset, a.batch_size),
              lambda k, a: f"{catalog.models[a.model].name} on "
                           f"{catalog.environments[a.environment].instance}, {a.dataset}",
              lambda a: a.top1_percent, "%", "higher is better"),
    )
    return Chart(name, "The fast-math trade-off: default compiler options against fast-math disabled",
                 tuple(p for p in panels if p.groups), bar_header="Compiler options")


def price_performance_chart(catalog: object, experiments: Sequence[str], name: str) -> Chart:
    ratios, prices = [], []
    for experiment in catalog.experiments.values():
        if experiments and experiment.id not in experiments:
            continue
        for pp in experiment.price_performance:
            base = catalog.instances[pp.baseline].price.usd_per_hour
            cand = catalog.instances[pp.candidate].price.usd_per_hour
            gain = 1 + pp.gain.value / 100
            bars = (("Price", cand / base), ("Implied speed", cand / base * gain), ("Price-performance", gain))
            ratios.append(Group(f"{pp.candidate} against {pp.baseline} ({pp.label})", tuple(
                Bar(label, value, format_number(value, "x", RATIO), index) for index, (label, value) in
                enumerate(bars))))
        prices.append(Group(experiment.title, tuple(
            Bar(i, catalog.instances[i].price.usd_per_hour,
                format_number(catalog.instances[i].price.usd_per_hour, "USD/h"), index % len(PALETTE))
            for index, i in enumerate(experiment.instances))))
    panels = (Panel("Candidate relative to baseline (baseline = 1)", tuple(ratios), "higher is better"),
              Panel("On-demand price (USD/h)", tuple(prices)))
    return Chart(name, "Training price-performance", tuple(p for p in panels if p.groups),
                 group_header="Comparison", bar_header="Measure")


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
        catalog = dataset(self.env).catalog
        suffix = "".join(f"-{self.options[k]}" for k in ("model", "instance", "device", "experiment")
                         if self.options.get(k))
        name = nodes.make_id(f"chart-{metric}{suffix}")
        if metric == "price-performance":
            uses(self, *TRAINING_FILES)
            chart = price_performance_chart(catalog, self.pick("experiment", catalog.experiments), name)
        else:
            uses(self, *BENCH_FILES, *(("benchmarks/accuracy.csv",) if metric == "fastmath" else ()))
            runs = _Runs(catalog, self.pick("model", catalog.models), self.pick("instance", catalog.instances),
                         self.pick("device", catalog.devices))
            if metric == "latency":
                chart = latency_chart(runs, name)
            elif metric == "throughput":
                chart = throughput_chart(runs, name)
            elif metric == "cost":
                chart = cost_chart(runs, name)
            else:
                chart = fastmath_chart(runs, name, list(catalog.accuracy_runs.values()))
        if chart.empty:
            self.warn(f"no data to chart for {metric!r} with these options")
            return []
        used = self.env.temp_data.setdefault("neuron_chart_ids", set())
        chart_id = name
        while chart_id in used:
            chart_id = f"{name}-{len(used)}"
        used.add(chart_id)
        return [self.block(chart, chart_id)]

    def block(self, chart: Chart, chart_id: str) -> nodes.container:
        title = self.options.get("caption") or chart.title
        figure = nodes.figure(classes=["neuron-chart"], ids=[chart_id])
        figure += neuron_chart(svg=render_svg(chart, chart_id), alt=chart.description())
        figure += nodes.caption(title, title)
        multi = len(chart.panels) > 1
        rows = [[*([panel.title] if multi else []), group.label, bar.label, bar.text]
                for panel in chart.panels for group in panel.groups for bar in group.bars]
        headers = [*(["Measure"] if multi else []), chart.group_header, chart.bar_header,
                   "Value" if multi else chart.panels[0].title]
        table = build_table(headers, rows, classes=["neuron-chart-data", "neuron-sortable"],
                            name=f"{chart_id}-data")
        table["neuron_csv"] = f"{chart_id}-data"
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
