"""Changing a value in data/ changes every page that shows it, and the suite's checks still hold."""

from __future__ import annotations

import pytest

from helpers.site import build_site
from helpers.warnings import without_colours
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.formatting import NumberFormat, format_number
from neuron_docs.data.figures.runs import cost_per_million, run_instance


def _replace(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


#: The claims of results-analysis.rst that compare a cost on Inferentia with one on the G5: the model,
#: the Inferentia run, the G5 run. The prose says each costs less on Inferentia.
COSTS_LESS_CLAIMS = (("ViT", "vit-inf1-b3", "vit-g5-b128"), ("BEiT", "beit-inf1-b4", "beit-g5-b128"))


def _cost(catalog, run_id: str) -> float:
    run = catalog.inference_runs[run_id]
    price = run_instance(catalog, run).price
    assert price is not None and run.throughput_per_s is not None
    return cost_per_million(float(price.usd_per_hour), float(run.throughput_per_s))


def contradicted_claims(catalog) -> list[str]:
    """The "costs less on Inferentia" claims the data under test contradicts (computed, not assumed)."""
    return [model for model, inf, g5 in COSTS_LESS_CLAIMS if not _cost(catalog, inf) < _cost(catalog, g5)]


def test_price_and_throughput_changes_reach_every_page(tmp_path, data_copy):
    check_price_and_throughput_changes(tmp_path, data_copy)


@pytest.mark.sweep
def test_the_checks_follow_the_data_when_the_g5_price_doubles(tmp_path, data_copy):
    """What the prose must say is computed from the data the test runs on: with the G5 twice as dear,
    BEiT costs less on Inferentia again, and no drift is expected (a second build of the site: make
    test-e2e)."""
    _replace(data_copy / "instances.yaml", "usd_per_hour: 1.006,", "usd_per_hour: 2.012,")
    check_price_and_throughput_changes(tmp_path, data_copy)


def check_price_and_throughput_changes(tmp_path, data_copy) -> None:
    _replace(data_copy / "instances.yaml", "usd_per_hour: 0.362,", "usd_per_hour: 0.55,")
    _replace(data_copy / "benchmarks" / "inference.csv", ",,536.718,", ",,612.5,")
    catalog = load_catalog(data_copy)
    assert catalog.errors == []
    site = build_site(tmp_path / "out", data_dir=data_copy)
    # Every figure follows, and so do the words of the seed analysis (issue 36: its comparisons are
    # written by :neuron:compare:). What they must say is computed from the data under test: BEiT
    # costs more on Inferentia where the changed data makes it dearer there than on the G5 (at $0.55
    # an hour, unless the G5 got dearer too), less where not; nothing is left for the drift checker.
    warnings = [without_colours(w) for w in site.warnings.splitlines() if w.strip()]
    assert not [w for w in warnings if "WARNING" in w], warnings
    words = " ".join(site.soup("inference/results-analysis.html").get_text(" ").split())
    expected = "more" if "BEiT" in contradicted_claims(catalog) else "less"
    assert f"BEiT costs {expected} on Inferentia" in words, words

    price = format_number(0.55, "USD/h")
    cost = format_number(cost_per_million(0.55, 612.5), "USD", NumberFormat(2))
    old_cost = format_number(cost_per_million(0.362, 536.718), "USD", NumberFormat(2))
    assert cost != old_cost

    instances = site.soup("instances.html").find(id="instance-inf1-2xlarge")
    assert price in instances.get_text(" ")
    analysis = site.soup("inference/results-analysis.html")
    vit = analysis.find(id="benchmarks-vit-base").find(id="run-vit-inf1-b3")
    assert "612.5 inferences/s" in vit.get_text(" ")
    assert cost in vit.get_text(" ")
    prose = [a.get_text() for a in analysis.select("abbr.neuron-value")]
    assert price in prose and cost in prose and "612.5 inferences/s" in prose
    assert "536.718 inferences/s" not in analysis.get_text(" ")
    assert old_cost not in prose
    device = site.soup("devices/inferentia.html")
    assert cost in device.find(id="costs-inferentia").get_text(" ")


@pytest.mark.site_edits
def test_a_new_revision_reaches_matrix_guidelines_whats_new_and_revision_pages(tmp_path, data_copy):
    """A release is one new file in data/matrix/: a copy of the latest with cells changed."""
    import yaml

    latest = sorted((data_copy / "matrix").glob("*.yaml"))[-1]
    release = "2030-01-01"
    doc = yaml.safe_load(latest.read_text(encoding="utf-8"))
    doc.update(date=release, source="guide")
    doc.pop("unchanged_because", None)
    v1 = next(m for m in doc["matrices"] if "inferentia" in m["devices"])
    row = next(r for r in v1["rows"] if r["family"] == "decoder")
    # Decoders become a good fit for Inferentia and supported by torch-neuron.
    row["fit"], row["cells"]["torch-neuron/inference"] = "good", "supported"
    (data_copy / "matrix" / f"{release}.yaml").write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    catalog = load_catalog(data_copy)
    assert catalog.errors == [] and catalog.warnings == []
    site = build_site(tmp_path / "out", data_dir=data_copy)
    assert site.warnings == ""
    page = site.soup("architecture-fit.html")
    row = page.find(id=f"matrix-{v1['id']}-decoder")
    cells = [td.get_text(" ", strip=True) for td in row.find_all("td")]
    assert cells[2] == "Good Fit"
    assert cells[3] == f"Supported since {release}"
    updated = page.find(id=f"matrix-{v1['id']}").select_one("p.neuron-last-update").get_text(" ", strip=True)
    assert updated.startswith(f"Last update - {release}")
    section = page.find(id="family-decoder-inferentia").get_text(" ", strip=True)
    assert "Autoregressive models are a good fit for AWS Inferentia." in section
    assert site.soup("devices/inferentia.html").find(id="matrix-inferentia-decoder").find_all("td")[2].get_text(
        strip=True) == "Good Fit"
    news = site.soup("whats-new.html").find(id=f"changes-{release}").get_text(" ", strip=True)
    assert "Cell changed" in news and "NA -> Supported" in news and "Not a Good Fit -> Good Fit" in news
    assert site.soup(f"matrix/{release}.html").find(id=f"revision-{release}") is not None
