"""The charts of the published performance pages against the data, bar by bar.

Every performance table has a chart beside it, in the tab of its view: throughput (in the table's
unit) and cost per 1M at the RI-effective price for a throughput-optimized or training table, the
published latencies for a latency-optimized one; one bar per configuration, or per measure the
best configuration of each model when the table is long. Expected bars are computed here from the
records (never typed): the rows come in the order of the page's table, figures and costs as the
table prints them (:func:`test_performance_pages.expected_cost`), and each bar's length is
proportional to its figure.
"""

from __future__ import annotations

import csv
import re
from decimal import Decimal
from pathlib import Path

import pytest

from test_performance_pages import PAGES, _ri_price, expected_cost, shown_figure

from helpers.html import soup_of
from neuron_docs.data.records.labels import METRICS, PRICE_BASIS_TEXT, VIEW_TEXT
from neuron_docs.data.figures.prices import PUBLISHED_PRICE_BASIS
from neuron_docs.directives.charts.published import MAX_BARS, published_chart_block
from neuron_docs.data.figures.derived import Derived
from neuron_docs.directives.published_tables import table_runs

LATENCIES = [f for f in METRICS if f.endswith(("_p50_ms", "_p99_ms"))]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _figure(value: Decimal) -> str:
    return shown_figure(value)


def _cost(catalog, run) -> float | None:
    price, found = _ri_price(catalog, run), run.throughput()
    return None if price is None or found is None else 1e6 / float(found[1]) * float(price) * getattr(run, "nodes", 1) / 3600


def expected_bars(catalog, table, runs) -> list[tuple[str, str, str, float, object]]:
    """(measure, model, text, value, run) of every bar, panel by panel, models in the table's order."""
    if table.view == "latency":
        fields = [f for f in LATENCIES if any(getattr(r, f, None) is not None for r in runs)]
        medians = [f for f in fields if f.endswith("_p50_ms")]
        fields = medians if len(medians) > 1 else fields
        measures = [(f"{METRICS[f].label} ({METRICS[f].unit})",
                     lambda r, f=f: None if getattr(r, f) is None else (float(getattr(r, f)), f"{_figure(getattr(r, f))} ms"),
                     True) for f in fields]
    else:
        field, _, unit = runs[0].throughput()
        basis = PRICE_BASIS_TEXT[PUBLISHED_PRICE_BASIS]
        measures = [(f"{METRICS[field].label} ({unit})",
                     lambda r: (float(getattr(r, field)), f"{_figure(getattr(r, field))} {unit}"), False),
                    (f"Cost per {runs[0].cost_basis} (USD, {basis})",
                     lambda r: None if _cost(catalog, r) is None else (_cost(catalog, r), expected_cost(catalog, r)),
                     True)]
    models = list(dict.fromkeys(r.model for r in runs))
    bars = []
    for title, measure, lower in measures:
        for model in models:
            measured = [(r, m) for r in runs if r.model == model and (m := measure(r)) is not None]
            if len(runs) > MAX_BARS and measured:
                best = (min if lower else max)(m[0] for _, m in measured)
                measured = [next(pair for pair in measured if pair[1][0] == best)]
            bars += [(title, model, text, value, run) for run, (value, text) in measured]
    return bars


def check_charts(outdir: Path, catalog) -> int:
    """Every performance table's chart against its records; returns the bars checked."""
    runs = {**catalog.published_inference_runs, **catalog.published_training_runs}
    checked = 0
    for page in [p for pages in PAGES.values() for p in pages]:
        soup = soup_of(outdir / page)
        legend_colours: dict[str, str] = {}
        for html_table in soup.select("table.neuron-performance-table"):
            table = next(t for t in catalog.published_tables.values()
                         if html_table["id"] == f"performance-{_slug(t.id)}")
            by_anchor = {f"prun-{_slug(r.id)}": r for r in runs.values() if r.table == table.id}
            ordered = [by_anchor[tr["id"]] for tr in html_table.select("tbody tr")]
            # the chart sits beside its table: in the tab of the table's view, else in its section
            place = html_table.find_parent(class_="sd-tab-content") or html_table.find_parent("section")
            figures = [f for f in place.select("figure.neuron-chart")
                       if f.find_parent(class_="sd-tab-content") is html_table.find_parent(class_="sd-tab-content")]
            assert [f["id"] for f in figures] == [f"chart-{_slug(table.id)}"], (page, table.id)
            figure = figures[0]
            if table.view:
                assert place.find_previous_sibling("label").get_text(strip=True) == VIEW_TEXT[table.view]
            # caption: which configurations the chart shows
            caption = figure.select_one("figcaption .caption-text").get_text(" ", strip=True)
            if len(ordered) > MAX_BARS:
                assert "best" in caption and f"({len(ordered)} in the table)" in caption, caption
            else:
                assert "every configuration" in caption, caption
            expected = expected_bars(catalog, table, ordered)
            # the data table beside the chart: measure, model, configuration, value
            details = figure.find_next_sibling("details")
            assert details.find("summary").get_text(strip=True) == f"Data table: {caption}"
            rows = [[td.get_text(" ", strip=True) for td in tr.select("td")]
                    for tr in details.select("table.neuron-chart-data tbody tr")]
            assert [(r[0], r[1], r[3]) for r in rows] == [(m, model, text) for m, model, text, _, _ in expected]
            for row, (_, _, _, _, run) in zip(rows, expected, strict=True):
                config = row[2]
                if table.kind == "training":
                    assert config.split(", ")[0] == (f"{run.nodes} node" + ("s" if run.nodes > 1 else ""))
                else:
                    assert config.startswith(f"{run.instance}, batch {run.batch_size}"), config
            assert len({tuple(r[:3]) for r in rows}) == len(rows), table.id  # a model's configurations told apart
            # its download: the same rows, every figure a number with its unit in a column of its own
            with (outdir / "_downloads" / "tables" / f"{figure['id']}-data.csv").open(encoding="utf-8") as handle:
                header, *download = list(csv.reader(handle))
            assert header == ["Measure", "Model", "Configuration", "Value", "Unit"]
            assert [(m, model, config, float(number), unit) for m, model, config, number, unit in download] == [
                (row[0], row[1], row[2], float(text.removeprefix("$").split(" ")[0].replace(",", "")),
                 "USD" if text.startswith("$") else text.split(" ", 1)[1])
                for row, (_, _, text, _, _) in zip(rows, expected, strict=True)]
            # the SVG: accessible, every bar labelled as in the data table, lengths proportional to figures
            svg = figure.find("svg")
            title_id, desc_id = svg["aria-labelledby"].split()
            assert svg["role"] == "img" and svg.find(id=title_id).get_text() == caption
            description = svg.find(id=desc_id).get_text()
            legend = {item.find("text").get_text(): item.find("rect")["fill"]
                      for item in svg.select("g.neuron-chart-legend-item")}
            panels = svg.select("g.neuron-chart-panel")
            assert len(panels) == len(dict.fromkeys(m for m, *_ in expected))
            index = 0
            for panel in panels:
                scale = []
                for bar in panel.select("g.neuron-chart-bar"):
                    _, model, text, value, run = expected[index]
                    config = rows[index][2]
                    assert bar.find("title").get_text() == f"{model}, {config}: {text}"
                    assert f"{config} {text}" in description and f"{model}: " in description
                    rect = bar.find("rect")
                    series = f"{run.nodes} node" + ("s" if run.nodes > 1 else "") if table.kind == "training" \
                        else run.instance
                    assert rect["fill"] == legend[series]
                    assert legend_colours.setdefault(series, rect["fill"]) == rect["fill"]  # one colour a page
                    if float(rect["width"]) > 1:
                        scale.append(float(rect["width"]) / value)
                    index += 1
                    checked += 1
                assert scale and max(scale) / min(scale) < 1.01, (table.id, scale)
            assert index == len(expected)
    return checked


def test_every_table_has_its_chart_bar_by_bar(site, catalog):
    assert check_charts(site.outdir, catalog) > 150


def test_long_tables_chart_the_best_configuration_of_each_model(site, catalog):
    """A table of more than MAX_BARS runs (the decoders' 27) shows one bar per model and measure."""
    long = [t for t in catalog.published_tables.values() if t.kind != "prices"
            and len(table_runs(Derived(catalog), t)) > MAX_BARS and f'id="chart-{_slug(t.id)}"' in site.html("performance/inf2.html")]
    assert long
    for table in long:
        figure = site.soup("performance/inf2.html").select_one(f"figure#chart-{_slug(table.id)}")
        models = {r.model for r in table_runs(Derived(catalog), table)}
        for panel in figure.select("g.neuron-chart-panel"):
            assert len(panel.select("g.neuron-chart-bar")) == len(models)


def test_the_chart_is_a_pure_function_of_the_data(catalog):
    """Built without Sphinx, twice, from the catalog and a table's runs: the same nodes."""
    derived = Derived(catalog)
    for table in catalog.published_tables.values():
        if table.kind == "prices":
            continue
        runs = table_runs(derived, table)
        first, second = published_chart_block(derived, table, runs), published_chart_block(Derived(catalog), table, runs)
        assert [n.pformat() for n in first] == [n.pformat() for n in second]
        assert len(first) == (1 if runs else 0)


@pytest.mark.parametrize("page", [p for pages in PAGES.values() for p in pages])
def test_each_view_tab_has_its_chart(site, page):
    for content in site.soup(page).select(".sd-tab-content"):
        tables = content.select("table.neuron-performance-table")
        charts = content.select("figure.neuron-chart")
        assert len(tables) == len(charts) == 1
        assert charts[0]["id"] == "chart-" + tables[0]["id"].removeprefix("performance-")
