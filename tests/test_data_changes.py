"""Changing a value in data/ changes every page that shows it, and the suite's checks still hold."""

from __future__ import annotations

import re

from conftest import build_site
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.formatting import NumberFormat, format_number
from neuron_docs.data.figures.runs import cost_per_million


def _replace(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_price_and_throughput_changes_reach_every_page(tmp_path, data_copy):
    _replace(data_copy / "instances.yaml", "usd_per_hour: 0.362,", "usd_per_hour: 0.55,")
    _replace(data_copy / "benchmarks" / "inference.csv", ",,536.718,", ",,612.5,")
    catalog = load_catalog(data_copy)
    assert catalog.errors == []
    site = build_site(tmp_path / "out", data_dir=data_copy)
    # Every figure follows, and so do the words of the seed analysis (issue 36: its comparisons are
    # written by :neuron:compare:): at $0.55 an hour BEiT no longer costs less on Inferentia, and the
    # page says so; nothing is left for the drift checker to report.
    warnings = [re.sub(r"\x1b\[[0-9;]*m", "", w) for w in site.warnings.splitlines() if w.strip()]
    assert not [w for w in warnings if "WARNING" in w], warnings
    words = " ".join(site.soup("inference/results-analysis.html").get_text(" ").split())
    assert "BEiT costs more on Inferentia" in words, words

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
