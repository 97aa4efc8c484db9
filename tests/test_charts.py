"""Charts: deterministic SVG drawn from the data, described in words, with the data table beside it."""

from __future__ import annotations

import re

import pytest

from helpers.paths import DATA

from neuron_docs.data.figures.derived import Derived
from neuron_docs.directives.charts.model import _Runs, cost_chart, fastmath_chart, latency_chart
from neuron_docs.directives.charts.svg import PALETTE, Bar, Chart, Group, Panel, nice_step, render_svg
from neuron_docs.data.figures.formatting import NumberFormat, format_number
from neuron_docs.data.figures.values import build_values
from neuron_docs.state.dependencies import files_of

CHART_PAGE = "inference/results-analysis.html"


def small_chart() -> Chart:
    return Chart("demo", "Demo & <chart>", (Panel("p90 latency (ms)", (
        Group("ViT", (Bar("inf1.2xlarge, batch 1", 9.007, "9.007 ms", "inf1.2xlarge"),
                    Bar("g5.xlarge, batch 1", 7.14, "7.14 ms", "g5.xlarge"))),
    ), "lower is better"),))


@pytest.mark.parametrize(("maximum", "step"), [(12.3, 2.5), (536.7, 200), (0.8, 0.2), (49, 10), (1.39, 0.5)])
def test_nice_step(maximum, step):
    assert nice_step(maximum) == pytest.approx(step)


def test_svg_is_deterministic_accessible_and_escaped():
    first, second = render_svg(small_chart(), "c1"), render_svg(small_chart(), "c1")
    assert first == second
    assert 'role="img"' in first and 'aria-labelledby="c1-title c1-desc"' in first
    assert "<title id=\"c1-title\">Demo &amp; &lt;chart&gt;</title>" in first
    assert "9.007 ms" in first and "7.14 ms" in first
    assert "<script" not in first


def test_description_names_every_bar():
    text = small_chart().description()
    assert "ViT: inf1.2xlarge, batch 1 9.007 ms, g5.xlarge, batch 1 7.14 ms" in text
    assert "lower is better" in text


def test_cost_chart_uses_the_derived_cost(catalog):
    values = build_values(catalog)
    chart = cost_chart(_Runs(Derived(catalog), ["vit-base"], [], []), "x")
    texts = {bar.label: bar.text for group in chart.panels[0].groups for bar in group.bars}
    assert texts["inf1.2xlarge, batch 3"] == format_number(values["run:vit-inf1-b3:cost_per_1m"].number, "USD",
                                                           NumberFormat(2))
    assert texts["g5.xlarge, batch 128"] == format_number(values["run:vit-g5-b128:cost_per_1m"].number, "USD",
                                                          NumberFormat(2))


def test_latency_and_fastmath_charts_cover_the_runs(catalog):
    runs = _Runs(Derived(catalog), [], [], [])
    latency = latency_chart(runs, "x")
    bars = [b for g in latency.panels[0].groups for b in g.bars]
    assert len(bars) == sum(1 for r in catalog.inference_runs.values() if r.p90_latency_ms)
    fastmath = fastmath_chart(runs, "y", list(catalog.accuracy_runs.values()))
    assert [p.title for p in fastmath.panels] == ["p90 latency (ms)", "Throughput (inferences/s)", "Top-1 accuracy (%)"]
    for panel in fastmath.panels:
        for group in panel.groups:
            assert [b.label for b in group.bars][0] == "default options"
            assert len(group.bars) >= 2


def test_charts_on_the_site(site):
    page = site.soup(CHART_PAGE)
    figures = page.select("figure.neuron-chart")
    assert {f["id"] for f in figures} >= {"chart-cost", "chart-latency", "chart-throughput", "chart-fastmath",
                                          "chart-latency-vit-base"}
    for figure in figures:
        svg = figure.find("svg")
        assert svg["role"] == "img"
        title_id, desc_id = svg["aria-labelledby"].split()
        assert svg.find(id=title_id).get_text() and len(svg.find(id=desc_id).get_text()) > 40
        assert figure.find("figcaption").get_text(strip=True)
        details = figure.find_next_sibling("details")
        assert details is not None and details.find("summary").get_text().startswith("Data table")
        table = details.find("table", class_="neuron-chart-data")
        rows = table.select("tbody tr")
        assert len(rows) == len(svg.select("g.neuron-chart-bar"))
        for row in rows:  # every value in the table is printed on a bar too
            assert row.find_all("td")[-1].get_text(strip=True) in svg.get_text()


def test_price_performance_chart(site, catalog):
    page = site.soup("training/inferentia2.html")
    svg = page.select_one("figure#chart-price-performance-vit-toy-training svg")
    pp = catalog.experiments["vit-toy-training"].price_performance[0]
    assert format_number(1 + pp.gain.value / 100, "x", NumberFormat(2)) in svg.get_text()


def test_device_page_chart(site):
    assert site.soup("devices/inferentia.html").select_one("figure#chart-cost-inferentia svg")


def test_chart_pages_depend_on_their_data(site):
    """What a page reads or shows of the data (neuron_docs.state.dependencies) names the chart's files."""
    assert {"benchmarks/inference.csv", "benchmarks/accuracy.csv"} <= files_of(site.app.env, "inference/results-analysis")
    assert "training.yaml" in files_of(site.app.env, "training/inferentia2")


@pytest.mark.sphinx("html", testroot="bad-directives", confoverrides={"neuron_data_dir": str(DATA)},
                    freshenv=True)
def test_unknown_metric_warns(app):
    app.build()
    assert re.search(r"index.rst:22: WARNING: neuron:chart: unknown metric 'speed'", app.warning.getvalue())


def _chart_pages(site) -> list[str]:
    pages = [str(p.relative_to(site.outdir)) for p in sorted(site.outdir.rglob("*.html"))
             if "neuron-chart-svg" in p.read_text(encoding="utf-8")]
    assert CHART_PAGE in pages
    return pages


def test_every_chart_has_a_legend_and_one_colour_per_series_on_its_page(site):
    """Each series named in the legend with its swatch; a bar takes its series' colour (its tooltip
    names the bar, the legend the colour), and a series has one colour on the whole page."""
    for path in _chart_pages(site):
        page = site.soup(path)
        colours: dict[str, str] = {}
        for svg in page.select("svg.neuron-chart-svg"):
            legend = {item.find("text").get_text(): item.find("rect")["fill"]
                      for item in svg.select("g.neuron-chart-legend-item")}
            assert legend, path
            for name, fill in legend.items():
                assert colours.setdefault(name, fill) == fill, (path, name)
            if len(legend) <= len(PALETTE):  # distinct colours in one chart while the palette lasts
                assert len(set(legend.values())) == len(legend), (path, legend)
            bar_fills = {rect["fill"] for rect in svg.select("g.neuron-chart-bar rect")}
            assert bar_fills <= set(legend.values()), path


def test_chart_text_stays_legible_when_drawn_at_phone_width(site):
    """Drawn 350 px wide (a 390 px phone less the page's margins) no text is under 11 px."""
    for path in _chart_pages(site):
        for svg in site.soup(path).select("svg.neuron-chart-svg"):
            width = float(svg["viewbox"].split()[2])
            scale = min(350 / width, 1.0)
            sizes = [float(t.get("font-size") or svg["font-size"]) for t in svg.find_all("text")]
            assert min(sizes) * scale >= 11, (path, min(sizes), width)
