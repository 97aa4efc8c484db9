"""Drawing a chart: the chart model and its static, deterministic SVG.

A chart is a grouped horizontal bar chart: one :class:`Panel` per measure, one :class:`Group` per
model or comparison, one :class:`Bar` per configuration. :func:`render_svg` writes it with
:mod:`xml.etree` so that its text follows the theme's colours (``currentColor``); every bar is
labelled with its configuration and its value, so colour is never the only signal, and the SVG
carries a ``<title>`` and a ``<desc>`` (:meth:`Chart.description`) for screen readers. Same chart,
same bytes: coordinates are rounded to two decimals. Long panel titles wrap onto a second line, the
values' column widens for long values, and a group of one bar is drawn on one line with it
(:func:`inline`) when both fit.

Building charts from the data is :mod:`~neuron_docs.directives.charts.model`; the directive is
:mod:`~neuron_docs.directives.charts.directive`.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

#: Okabe-Ito colours (then a grey and a brown): distinguishable with colour-vision deficiencies, readable
#: on light and dark.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F7F7F", "#A6761D")


# The chart model ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    text: str
    #: What the bar's colour stands for (an instance, compiler options, a measure): one colour per
    #: series on a page, named in the chart's legend.
    series: str = ""
    #: The number and unit ``text`` was printed from, for the chart's data table and its CSV (None:
    #: ``text`` holds no plain number).
    figure: tuple[float, str] | None = None


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

#: A narrow drawing that stacks (each bar's label above its bar): at a phone's 390 px it is drawn at
#: nearly its own width, so no text is smaller than about 11.5 px; on a desktop it is drawn larger.
WIDTH, VALUE_W = 360, 130
BAR_H, LABEL_H, ROW_H, GROUP_H, TITLE_H, NOTE_H, LEGEND_H, AXIS_H, GAP = 14, 15, 20, 22, 20, 18, 20, 24, 14
#: Space above a group drawn on one line (:func:`inline`), instead of its heading row.
INLINE_H = 6
FONT = 12
#: Average glyph width at ``FONT`` px, to keep labels inside their column.
CHAR_W = 6.6


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


def series_of(chart: Chart) -> list[str]:
    """The chart's series in order of first appearance."""
    return list(dict.fromkeys(b.series for p in chart.panels for g in p.groups for b in g.bars))


def title_lines(title: str) -> list[str]:
    """A panel's title (bold, a point larger: glyphs counted a fifth wider) wrapped at spaces to fit
    :data:`WIDTH`, on at most two lines (the second shortened with an ellipsis if it must be)."""
    chars = int(WIDTH / (CHAR_W * 1.2))
    lines: list[str] = []
    for word in title.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    head = lines[:1] if len(lines[0]) <= chars else [_fit(lines[0], chars * CHAR_W)]
    rest = " ".join(lines[1:])
    return [*head, _fit(rest, chars * CHAR_W)] if rest else head


def inline(group: Group) -> bool:
    """Whether a group of one bar is drawn with its name and the bar's label on one line (when they
    fit: bold glyphs counted a fifth wider), saving the group's own heading row."""
    return len(group.bars) == 1 and (len(group.label) * 1.2 + 3 + len(group.bars[0].label)) * CHAR_W <= WIDTH


def value_width(panel: Panel) -> float:
    """The width kept right of the bars for their values: :data:`VALUE_W`, more for a longer value
    (``57407.92 sequences/s``) so that no value is cut off, at most half the drawing."""
    longest = max((len(b.text) for g in panel.groups for b in g.bars), default=0)
    return min(max(VALUE_W, longest * CHAR_W + 10), WIDTH / 2)


def _legend_rows(names: list[str]) -> list[list[tuple[str, float]]]:
    """The legend's entries (name, x) wrapped into rows that fit :data:`WIDTH`."""
    rows: list[list[tuple[str, float]]] = [[]]
    x = 0.0
    for name in names:
        width = 18 + len(name) * CHAR_W + 14
        if rows[-1] and x + width > WIDTH:
            rows.append([])
            x = 0.0
        rows[-1].append((name, x))
        x += width
    return rows


def render_svg(chart: Chart, chart_id: str, colours: dict[str, str] | None = None) -> str:
    """The chart as an SVG document fragment (deterministic: same chart, same bytes).

    ``colours`` maps a series to its colour (the page's, so that one colour means one series on a
    page); a series it lacks takes the palette colour of its place in the chart. A legend names
    every series above the bars.
    """
    names = series_of(chart)
    colour = {name: (colours or {}).get(name) or PALETTE[index % len(PALETTE)] for index, name in enumerate(names)}
    legend = _legend_rows(names)
    height = _height(chart, legend)
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "class": "neuron-chart-svg",
        "viewBox": f"0 0 {WIDTH} {_num(height)}", "width": str(WIDTH), "height": _num(height),
        "role": "img", "aria-labelledby": f"{chart_id}-title {chart_id}-desc",
        "font-size": str(FONT), "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    })
    ET.SubElement(svg, "title", {"id": f"{chart_id}-title"}).text = chart.title
    ET.SubElement(svg, "desc", {"id": f"{chart_id}-desc"}).text = chart.description()
    y = _draw_legend(svg, legend, colour)
    for panel in chart.panels:
        y = _draw_panel(svg, panel, y, colour)
    ET.indent(svg, space="")
    return ET.tostring(svg, encoding="unicode")


def _height(chart: Chart, legend: list[list[tuple[str, float]]]) -> float:
    """The height of the whole chart: its legend's rows, then each panel's titles, note, groups and axis."""
    height = LEGEND_H * len(legend)
    for panel in chart.panels:
        rows = sum(len(g.bars) for g in panel.groups)
        heads = sum(INLINE_H if inline(g) else GROUP_H for g in panel.groups)
        height += TITLE_H * len(title_lines(panel.title)) + (NOTE_H if panel.note else 0) + heads + (LABEL_H + ROW_H) * rows + AXIS_H + GAP
    return height


def _draw_legend(svg: ET.Element, legend: list[list[tuple[str, float]]], colour: dict[str, str]) -> float:
    """The legend, a row of series at a time; the height below it."""
    key = ET.SubElement(svg, "g", {"class": "neuron-chart-legend"})
    y = 0.0
    for entries in legend:
        for name, x in entries:
            item = ET.SubElement(key, "g", {"class": "neuron-chart-legend-item"})
            ET.SubElement(item, "rect", {"x": _num(x), "y": _num(y + 4), "width": "12", "height": "12",
                                         "fill": colour[name]})
            _text(item, x + 17, y + 15, name, fill="currentColor")
        y += LEGEND_H
    return y


def _draw_panel(svg: ET.Element, panel: Panel, y: float, colour: dict[str, str]) -> float:
    """One panel from ``y`` down: its title, its note, its groups of bars and the axis under them; the
    height below it."""
    values = [b.value for g in panel.groups for b in g.bars]
    plot_w = WIDTH - value_width(panel)
    step = nice_step(max(values, default=0))
    axis_max = step * max(math.ceil(max(values, default=0) / step), 1)
    scale = plot_w / axis_max
    body = ET.SubElement(svg, "g", {"class": "neuron-chart-panel"})
    for line in title_lines(panel.title):
        _text(body, 0, y + 15, line, **{"font-weight": "bold", "font-size": str(FONT + 1), "fill": "currentColor"})
        y += TITLE_H
    if panel.note:
        _text(body, 0, y + 13, panel.note, **{"font-style": "italic", "fill": "currentColor",
                                              "fill-opacity": "0.85"})
        y += NOTE_H
    spans: list[tuple[float, float]] = []
    grid = ET.SubElement(body, "g", {"class": "neuron-chart-grid", "aria-hidden": "true"})
    bars = ET.SubElement(body, "g", {"class": "neuron-chart-bars"})
    for group in panel.groups:
        y = _draw_group(bars, group, y, scale, colour, spans)
    _draw_axis(grid, spans, y, step, axis_max, scale)
    return y + AXIS_H + GAP


def _draw_group(bars: ET.Element, group: Group, y: float, scale: float, colour: dict[str, str],
                spans: list[tuple[float, float]]) -> float:
    """One group of bars from ``y`` down (its span into ``spans``, for the gridlines); the height below it."""
    one_line = inline(group)
    if not one_line:
        _text(bars, 0, y + 16, _fit(group.label, WIDTH), **{"font-weight": "bold", "fill": "currentColor"})
    y += INLINE_H if one_line else GROUP_H
    spans.append((y, y + (LABEL_H + ROW_H) * len(group.bars)))
    for bar in group.bars:
        row = ET.SubElement(bars, "g", {"class": "neuron-chart-bar"})
        ET.SubElement(row, "title").text = f"{group.label}, {bar.label}: {bar.text}"
        label = _text(row, 0, y + 12, "" if one_line else _fit(bar.label, WIDTH), fill="currentColor")
        if one_line:  # the group's name in bold, then the bar's label, on one line
            bold = ET.SubElement(label, "tspan", {"font-weight": "bold"})
            bold.text, bold.tail = group.label, f" \u00b7 {bar.label}"
        y += LABEL_H
        width = max(bar.value * scale, 1.0)
        ET.SubElement(row, "rect", {"x": "0", "y": _num(y + (ROW_H - BAR_H) / 2), "width": _num(width),
                                    "height": str(BAR_H), "fill": colour[bar.series]})
        _text(row, width + 5, y + 14, bar.text, fill="currentColor")
        y += ROW_H
    return y


def _draw_axis(grid: ET.Element, spans: list[tuple[float, float]], plot_bottom: float, step: float,
               axis_max: float, scale: float) -> None:
    """The gridlines behind the groups' spans and the tick labels under the plot."""
    tick = 0.0
    while tick <= axis_max + step / 1000:
        x = tick * scale
        for span_top, span_bottom in spans:  # gridlines behind the bars, not across group labels
            ET.SubElement(grid, "line", {"x1": _num(x), "x2": _num(x), "y1": _num(span_top),
                                         "y2": _num(span_bottom), "stroke": "currentColor",
                                         "stroke-opacity": "0.45" if tick == 0 else "0.15"})
        anchor = "start" if tick == 0 else "middle"
        _text(grid, x, plot_bottom + 16, _tick_text(tick), **{"text-anchor": anchor, "fill": "currentColor",
                                                               "fill-opacity": "0.85"})
        tick += step
