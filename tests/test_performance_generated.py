"""Performance pages made from the data, their reader's columns, and the prices a reader can choose.

- Importing a generation's inference tables (Trn1, from a folder that does not name it: the
  generation is read from the instance column) gives that generation's page with no hand edit.
- Every performance table puts model, configuration, the headline figure and its costs first, and
  marks them for the column chooser; the other columns follow.
- The instance table shows the on-demand and the reserved-instance effective price side by side.

Expected values are computed from the records, never typed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers.html import soup_of
from helpers.paths import REPO
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.derived import PUBLISHED_COSTS
from neuron_docs.data.figures.prices import PUBLISHED_PRICE_BASIS, price_for
from neuron_docs.benchmark_import.command import main
from neuron_docs.benchmark_import.tables import import_published
from neuron_docs.site import performance_pages

#: A Trn1 inference table as the Neuron documentation would publish it (the columns of its Inf2
#: encoder tables), in a folder that does not name the generation.
TRN1_INFERENCE = (
    "Model,Scripts,Framework,Inst. Type,Task,Throughput (inference/second),Latency P50 (ms),Latency P99 (ms),"
    "Application Type,Neuron Version,Run Mode,Batch Size,Sequence Length,Model Data Type,"
    "Compilation Autocast Data Type,OS Type\n"
    "bert-base-uncased,,PyTorch 2.9,Trn1.2xlarge,Raw Output (AutoModel),2100.5,6.1,6.4,Batch,2.27.0,"
    "Data Parallel,8,128,FP32,Matmult-BF16,U22\n"
    "roberta-base,,PyTorch 2.9,Trn1.2xlarge,Raw Output (AutoModel),2200.25,5.9,6.2,Batch,2.27.0,"
    "Data Parallel,8,128,FP32,Matmult-BF16,U22\n"
)


@pytest.fixture
def trn1_inference(tmp_path: Path) -> Path:
    folder = tmp_path / "published" / "trainium-inference"
    folder.mkdir(parents=True)
    (folder / "throughput_data_encoder.csv").write_text(TRN1_INFERENCE, encoding="utf-8")
    return folder.parent


def test_the_generation_is_read_from_the_instance_column(trn1_inference, catalog):
    result = import_published(trn1_inference, catalog.instances, catalog.frameworks, as_of="2026-08-21")
    assert [p for p in result.problems if p.severity == "error"] == []
    (table,) = result.tables
    assert (table.id, table.generation, table.kind, table.category) == (
        "trn1-throughput-data-encoder", "trn1", "inference", "encoder")
    assert {r.instance for r in result.inference_runs} == {"trn1.2xlarge"}


def test_a_file_without_an_instance_still_names_what_is_missing(tmp_path, catalog):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "data.csv").write_text("Model,Batch Size\nm,1\n", encoding="utf-8")
    result = import_published(tmp_path, catalog.instances, catalog.frameworks, as_of="2026-08-21")
    assert any("cannot tell the instance generation" in p.message and "instance column" in p.message
               for p in result.problems)


def test_importing_trn1_inference_gives_its_page(trn1_inference, data_copy, catalog, capsys):
    before = performance_pages.render(catalog, REPO / "source", "_performance")
    assert main([str(trn1_inference), "--data", str(data_copy)]) == 0
    capsys.readouterr()
    edited = load_catalog(data_copy)
    after = performance_pages.render(edited, REPO / "source", "_performance")
    assert set(after) == {*before, "trn1.rst"}
    assert all(after[name] == text for name, text in before.items())  # the other pages are as they were
    page = after["trn1.rst"]
    assert ":neuron-data:`Trn1 inference performance`" in page
    assert "\n.. neuron:inference-performance:: trn1\n" in page
    assert "AWS Trainium" in page


def test_every_generation_and_kind_of_the_data_has_a_page(site, catalog):
    pages = performance_pages.performance_pages(catalog, REPO / "source", "_performance")
    wanted = {(t.generation, t.kind) for t in catalog.published_tables.values() if t.kind in performance_pages.KINDS}
    assert {(p.generation, p.kind) for p in pages} == wanted
    for page in pages:
        html = site.soup(f"performance/{page.name}.html")
        assert html.select("table.neuron-performance-table"), page.name
        assert html.find("h1").get_text(strip=True).rstrip("#¶") == f"{page.families} {page.kind} performance"


def _headers(table) -> list[tuple[str, list[str]]]:
    return [(th.get_text(" ", strip=True), th.get("class", [])) for th in table.select("thead th")]


def test_the_readers_columns_come_first_and_are_marked(site, catalog):
    checked = 0
    for page in ("performance/inf1.html", "performance/inf2.html", "performance/trn1-training.html"):
        for table in site.soup(page).select("table.neuron-performance-table"):
            headers = _headers(table)
            key = [text for text, classes in headers if "neuron-col-key" in classes]
            more = [text for text, classes in headers if "neuron-col-more" in classes]
            assert len(key) + len(more) == len(headers)
            assert [text for text, _ in headers[:len(key)]] == key  # the reader's columns lead
            assert key[0] == "Model" and "Configuration" in key[:3]
            costs = [c for c in key if c.startswith("Cost per")]
            assert len(costs) == len(PUBLISHED_COSTS) and key[-len(costs):] == costs
            figures = [c for c in key[:-len(costs)] if c != "Change since previous release"]
            headline = figures[-1]  # then its change since the previous release, when a row has one
            assert key[len(figures):-len(costs)] in ([], ["Change since previous release"])
            assert "throughput" in headline.lower() or "latency" in headline.lower() or "TTFT" in headline
            for (_, classes), basis in zip(headers[len(key) - len(costs):len(key)], PUBLISHED_COSTS.values(),
                                           strict=True):
                assert f"neuron-basis-{basis}" in classes
            assert "neuron-columns" in table["class"]
            checked += 1
    assert checked >= 15


def test_the_configuration_names_what_tells_a_models_runs_apart(site, catalog):
    """Two rows of one model in a table never read the same in the columns a reader sees first."""
    for page in ("performance/inf2.html", "performance/trn1-training.html"):
        for table in site.soup(page).select("table.neuron-performance-table"):
            headers = [text for text, _ in _headers(table)]
            at = headers.index("Configuration")
            seen = set()
            for row in table.select("tbody tr"):
                cells = [td.get_text(" ", strip=True) for td in row.select("td")]
                assert cells[at], row.get("id")
                seen.add((cells[0], *cells[1:at + 1]))
            assert len(seen) == len(table.select("tbody tr")), table["id"]


def test_the_instance_table_shows_both_prices(site, catalog):
    soup = site.soup("instances.html")
    table = soup.select_one("table.neuron-instance-table")
    headers = [th.get_text(" ", strip=True) for th in table.select("thead th")]
    on_demand, reserved = headers.index("On-demand price"), headers.index("RI-effective price")
    assert reserved == on_demand + 1  # side by side
    reserved_source = headers.index("RI-effective source, as of")
    shown = 0
    for row in table.select("tbody tr"):
        cells = [td.get_text(" ", strip=True) for td in row.select("td")]
        instance = catalog.instances[cells[0]]
        if instance.price is None:  # an instance no source prices (Trn2): a blank that says so
            assert cells[on_demand].startswith("\u2014") and "no on-demand price" in cells[on_demand]
        else:
            assert cells[on_demand] == f"${instance.price.usd_per_hour:g}/h"
        quote = price_for(catalog, instance.id, PUBLISHED_PRICE_BASIS)
        if quote is None:
            assert cells[reserved].startswith("\u2014")
        else:
            assert cells[reserved] == f"${quote.usd_per_hour:g}/h" and quote.as_of.isoformat() in cells[reserved_source]
            shown += 1
    assert shown == len({p.instance for p in catalog.prices.values() if p.basis == PUBLISHED_PRICE_BASIS})


def test_a_new_generation_builds_with_no_hand_edit(make_app, tmp_path, rootdir, trn1_inference, data_copy):
    """The Trn1 inference import into a store without it, built: its page lists the rows of the import."""
    for old in (data_copy / "benchmarks" / "history").glob("*.csv"):  # a store before any Trn1 inference
        old.unlink()
    assert main([str(trn1_inference), "--data", str(data_copy)]) == 0
    srcdir = tmp_path / "src"
    shutil.copytree(rootdir / "test-performance-pages", srcdir, dirs_exist_ok=True)
    app = make_app("html", srcdir=srcdir, confoverrides={"neuron_data_dir": str(data_copy)}, freshenv=True)
    app.build()
    soup = soup_of(Path(app.outdir) / "performance" / "trn1.html")
    rows = soup.select("table.neuron-performance-table tbody tr")
    assert {tr.select("td")[0].get_text(strip=True) for tr in rows} == {"bert-base-uncased", "roberta-base"}
    assert "performance-page" not in app.warning.getvalue()
