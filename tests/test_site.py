"""The real site against the data, cell by cell: matrices, guidelines, specs, prices, benchmarks, prose."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path
from urllib.parse import urldefrag

import pytest
from docutils import nodes

from helpers.edits import change_csv_cell, edit_yaml
from helpers.html import row_texts
from helpers.paths import DATA, FROZEN_DATA
from helpers.site import build_site
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.shown import shown
from neuron_docs.data.figures.expressions import evaluate
from neuron_docs.data.figures.formatting import NumberFormat, format_number, shown_cost, shown_measure
from neuron_docs.data.figures.values import build_values
from neuron_docs.data.figures.runs import cost_per_million
from neuron_docs.render.expand import filled_doctree
from neuron_docs.node_data import FIGURE_EXPRESSION, FIGURE_FORMAT



def _release_of(target: Path) -> Path:
    """``data/`` as a maintainer changes it in a release: one latency, one price, one family name, and
    a new revision of the support matrices that moves one status. Found in the data, never typed here."""
    shutil.copytree(DATA, target)
    catalog = load_catalog(DATA)
    run = next(r for r in catalog.inference_runs.values() if r.p90_latency_ms)
    change_csv_cell(target / "benchmarks" / "inference.csv", run.id, "p90_latency_ms", lambda v: v * 1.0129)
    edit_yaml(target / "instances.yaml", lambda doc: doc["instances"][0]["price"].update(
        usd_per_hour=round(doc["instances"][0]["price"]["usd_per_hour"] * 2, 4)))
    edit_yaml(target / "families.yaml", lambda doc: doc["families"][0].update(name=doc["families"][0]["name"] + " II"))
    latest = max((target / "matrix").glob("*.yaml"))
    date = dt.date.fromisoformat(latest.stem) + dt.timedelta(days=30)
    new = target / "matrix" / f"{date.isoformat()}.yaml"
    shutil.copyfile(latest, new)

    def next_release(revision: dict) -> None:
        revision["date"] = date.isoformat()
        revision.pop("unchanged_because", None)
        row = next(r for m in revision["matrices"] for r in m["rows"]
                   if any(c == "roadmap" for c in r["cells"].values()))
        row["cells"][next(k for k, c in row["cells"].items() if c == "roadmap")] = "supported"

    edit_yaml(new, next_release)
    return target


@pytest.fixture(scope="module", params=["data", pytest.param("data-after-a-release", marks=pytest.mark.site_edits)])
def release(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """Every check of this module runs on today's data and on a copy changed as in a release."""
    return None if request.param == "data" else _release_of(tmp_path_factory.mktemp("release") / "data")


@pytest.fixture(scope="module")
def site(site, release, tmp_path_factory):  # noqa: ANN001, ANN201 - overrides conftest's, which it uses
    return site if release is None else build_site(tmp_path_factory.mktemp("release-site"), data_dir=release)


@pytest.fixture(scope="module")
def catalog(catalog, release):  # noqa: ANN001, ANN201
    return catalog if release is None else load_catalog(release)


def test_the_release_copy_changes_what_it_says(release, catalog):
    """The second run of these checks is on changed data: a latency, a price, a name, a status moved."""
    if release is None:
        pytest.skip("today's data")
    today = load_catalog(DATA)
    assert [r.p90_latency_ms for r in catalog.inference_runs.values()] != \
        [r.p90_latency_ms for r in today.inference_runs.values()]
    first = next(iter(today.instances))
    assert catalog.instances[first].price.usd_per_hour != today.instances[first].price.usd_per_hour
    assert [f.name for f in catalog.families.values()] != [f.name for f in today.families.values()]
    new, old = catalog.revision(), today.revision()
    assert new is not None and old is not None and new.date > old.date
    assert catalog.matrix_revisions.changes(new) != today.matrix_revisions.changes(old)


def test_real_site_builds_without_a_single_warning(site):
    assert site.warnings == ""


# The support matrices, the revision pages and What's new are tested in test_matrix_pages.py.


def test_device_page_specs_match_data(site, catalog):
    assert catalog.devices
    for device, record in catalog.devices.items():  # every device of the data has its page
        page = site.soup(f"devices/{device}.html")
        table = page.find("table", id=f"specs-{device}")
        rows = {row_texts(r)[0]: row_texts(r)[1] for r in table.select("tbody tr")}
        for spec in record.specs.values():
            assert rows[spec.label] == format_number(spec.value, spec.unit)
        assert rows["Data types"] == ", ".join(record.data_types)
        if record.neuroncores:
            assert rows["NeuronCores per device"] == str(record.neuroncores)


def test_instance_table_matches_data(site, catalog):
    table = site.soup("instances.html").find("table", id="instances")
    rows = table.select("tbody tr")
    assert [row_texts(r)[0] for r in rows] == list(catalog.instances)
    for row, instance in zip(rows, catalog.instances.values(), strict=True):
        texts = row_texts(row)
        assert row["id"] == f"instance-{nodes.make_id(instance.id)}"
        assert texts[2] == str(instance.device_count)
        device = catalog.devices[instance.device]
        if device.neuroncores:
            assert texts[3] == str(instance.device_count * device.neuroncores)
        else:  # a blank cell says why
            assert row.find_all("td")[3].abbr["title"] == "not applicable: not a Neuron device"
        if instance.price is None:  # no source prices it: a blank that says so, no source or date
            assert row.find_all("td")[6].abbr["title"] == "none: no on-demand price in the sources"
            assert texts[8] == ""
            continue
        assert texts[6] == format_number(instance.price.usd_per_hour, "USD/h")
        assert texts[8].endswith(instance.price.as_of.isoformat())  # the on-demand price's source, as of


@pytest.mark.parametrize("model", ["vit-base", "beit", "layoutlmv3"])
def test_benchmark_tables_match_runs_and_derive_costs(site, catalog, model):
    """One row per configuration (runs differing only in what they measured share it); every figure
    of its runs in the one "Measured" cell; a blank cell says why it is blank."""
    page = site.soup("inference/results-analysis.html")
    table = page.find("table", id=f"benchmarks-{model}")
    runs = [r for r in catalog.inference_runs.values() if r.model == model]
    configurations: dict[tuple, list] = {}
    for run in runs:
        configurations.setdefault((run.variant, run.environment, run.batch_size, run.neuroncores, run.pipeline,
                                   run.compiler_options), []).append(run)
    rows = table.select("tbody tr")
    assert len(rows) == len(configurations)
    for row, group in zip(rows, configurations.values(), strict=True):
        run = group[0]
        texts = [" ".join(td.get_text("", strip=False).split()) for td in row.find_all("td")]
        assert {f"run-{nodes.make_id(r.id)}" for r in group} == {e["id"] for e in [row, *row.select("span[id]")]}
        instance = catalog.instances[catalog.environments[run.environment].instance]
        model_name = catalog.models[model].name
        assert texts[0] == (f"{model_name} ({run.variant})" if run.variant else model_name)
        assert texts[1] == instance.id
        assert texts[2] == str(run.batch_size)
        for cell, number in ((row.find_all("td")[3], run.neuroncores), (row.find_all("td")[4], run.pipeline)):
            if number:
                assert cell.get_text(strip=True) == str(number)
            else:
                assert cell.abbr["title"] in {"not applicable: a GPU run", "unknown: not in the data"}
        assert texts[5] == (run.compiler_options or "default")
        expected = []
        for r in group:
            figures = []
            if r.p90_latency_ms is not None:
                figures.append(f"p90 latency {shown_measure(r.p90_latency_ms, 'ms')}")
            if r.throughput_per_s is not None:
                figures.append(f"throughput {shown_measure(r.throughput_per_s, 'inferences/s')}")
                cost = cost_per_million(instance.price.usd_per_hour, r.throughput_per_s)
                figures.append(f"{shown_cost(cost)} per 1M inferences")
            expected.append(", ".join(figures))
        assert row.find_all("td")[6].get_text("", strip=False).strip() == "; ".join(expected)


def test_seed_costs_follow_from_prices_and_throughput():
    """The results analysis quoted $0.19 and $0.74 for ViT and $0.65 for BEiT: they follow from the
    data of its time (the frozen copy; a later price or benchmark in ``data/`` moves them legitimately)."""
    values = build_values(load_catalog(FROZEN_DATA))
    assert format_number(values["run:vit-inf1-b3:cost_per_1m"].number, "USD", NumberFormat(2)) == "$0.19"
    assert format_number(values["run:vit-g5-b128:cost_per_1m"].number, "USD", NumberFormat(2)) == "$0.74"
    assert format_number(values["run:beit-inf1-b4:cost_per_1m"].number, "USD", NumberFormat(2)) == "$0.65"
    assert format_number(values["run:layoutlmv3-inf1-b2:cost_per_1m"].number, "USD", NumberFormat(2)) == "$10.23"


def _value_nodes(site):
    """Every figure the roles print, page by page (printed when the page is written: the doctree
    as read holds placeholders, filled here as the writer fills them)."""
    env = site.app.env
    for docname in sorted(env.found_docs):
        doctree = filled_doctree(site.app, docname)
        for node in doctree.findall(nodes.abbreviation):
            if FIGURE_EXPRESSION.on(node):
                yield docname, node


def test_every_figure_in_prose_is_the_data_value(site, catalog):
    values = build_values(catalog)
    seen = 0
    for docname, node in _value_nodes(site):
        if "neuron-compare" in node["classes"]:  # comparative words: written from the two figures
            expected = shown("compare", catalog, values, f"{FIGURE_EXPRESSION.read(node)} | {FIGURE_FORMAT.read(node)}").text
            assert node.astext() == expected, (docname, FIGURE_EXPRESSION.read(node))
            continue
        result = evaluate(FIGURE_EXPRESSION.read(node), values)
        expected = format_number(result.number, result.unit, NumberFormat.parse(FIGURE_FORMAT.read(node)))
        assert node.astext() == expected, (docname, FIGURE_EXPRESSION.read(node))
        seen += 1
    assert seen > 80


def test_html_shows_the_same_figures_as_the_doctrees(site):
    by_doc: dict[str, list[str]] = {}
    for docname, node in _value_nodes(site):
        by_doc.setdefault(docname, []).append(node.astext())
    for docname, texts in by_doc.items():
        html = site.soup(f"{docname}.html")
        main = html.find(attrs={"role": "main"}) or html
        assert [a.get_text() for a in main.select("abbr.neuron-value")] == texts, docname


def test_every_internal_link_and_anchor_resolves(site):
    checked = 0
    for page in sorted(site.outdir.rglob("*.html")):
        if page.name == "404.html":  # absolute links to the deployed site, checked in test_downloads/notfound
            continue
        for href in site.tree(str(page.relative_to(site.outdir))).xpath("//a/@href"):
            if href.startswith(("http:", "https:", "mailto:", "javascript:")) or href in ("", "#"):
                continue
            path, fragment = urldefrag(href)
            target = (page.parent / path).resolve() if path else page
            assert target.exists(), f"{page.name}: {href}"
            if fragment and target.suffix == ".html":
                assert fragment in site.ids(str(target.relative_to(site.outdir))), f"{page.name}: {href}"
            checked += 1
    assert checked > 200


def test_every_id_is_used_once_per_page(site):
    """Anchors name one element: furo's table wrapper does not repeat the table's ids."""
    for page in sorted(site.outdir.rglob("*.html")):
        ids = site.tree(str(page.relative_to(site.outdir))).xpath("//@id")
        assert len(ids) == len(set(ids)), (page.name, sorted({i for i in ids if ids.count(i) > 1}))
    wrapper = site.soup("architecture-fit.html").find("table", id="support-matrix-neuroncore-v2").parent
    assert "table-wrapper" in wrapper["class"] and not wrapper.get("id")


INTERNAL_PATH = re.compile(r"\b[a-z_]+:[\w.-]+:[a-z_0-9]+\b")


def test_figure_tooltips_say_what_where_and_source_in_words(site, catalog):
    """A figure's tooltip names what was measured, on which model and instance, and its source's
    title; never an internal path such as ``run:vit-inf1-b1:p90_latency_ms``."""
    seen = 0
    for path in sorted(site.outdir.rglob("*.html")):
        abbrs = [e for e in site.tree(str(path.relative_to(site.outdir))).find_class("neuron-value") if e.tag == "abbr"]
        for abbr in abbrs:
            title, figure = abbr.get("title"), abbr.get("data-neuron-figure")
            assert not INTERNAL_PATH.search(title), (path.name, title)
            kind, record, field = figure.split(":") if figure.count(":") == 2 else ("", "", "")
            if kind == "run":
                run = catalog.inference_runs[record]
                instance = catalog.environments[run.environment].instance
                assert catalog.models[run.model].name in title and instance in title, title
                assert f"batch size {run.batch_size}" in title, title
                assert f"Source: {catalog.sources[run.source].title}" in title, title
                seen += 1
    assert seen > 20


def test_seed_run_downloads_print_figures_by_the_display_rule(site):
    """The seed runs' CSVs print each figure and cost as the pages do (:func:`shown_figure`,
    :func:`shown_cost_number`), never a float's every digit (``0.7434207998202783``)."""
    import csv
    from decimal import Decimal

    from neuron_docs.data.figures.formatting import shown_cost_number, shown_figure

    files = sorted((site.outdir / "_downloads" / "tables").glob("benchmarks-*.csv"))
    assert files
    seen = 0
    for path in files:
        for row in csv.DictReader(path.open(encoding="utf-8")):
            for column, cell in row.items():
                if not cell or "(" not in column:
                    continue
                if column.startswith("Cost per 1M"):
                    assert cell == shown_cost_number(Decimal(cell)), (path.name, column, cell)
                elif column.startswith(("p90 latency", "Throughput")):
                    assert cell == shown_figure(Decimal(cell)), (path.name, column, cell)
                seen += 1
    assert seen
