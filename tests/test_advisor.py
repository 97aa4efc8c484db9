"""The advisor page's static table and embedded data agree with ``data/``, cell by cell; the advisor
is first in the navigation; the search index lands every entry on an anchor that exists.

Expected values are computed here from the catalog's records (families, issues, runs), not from
:mod:`neuron_docs.data.figures.advisor`, except the run sentences, whose figures are checked against the runs.
"""

from __future__ import annotations

import json

import pytest
from neuron_docs.data.figures.formatting import display_number
from neuron_docs.data.records.labels import FIT_TEXT, STATUS_TEXT, framework_header


@pytest.fixture(scope="module")
def advisor(site):
    return site.soup("advisor.html")


def _cells(row) -> list[str]:
    return [" ".join(td.get_text(" ", strip=True).split()) for td in row.find_all(["td", "th"])]


def test_static_table_has_a_row_per_family_and_neuron_device(advisor, catalog):
    table = advisor.find("table", id="advisor-all-families")
    rows = table.find("tbody").find_all("tr")
    devices = [d for d in catalog.devices.values() if d.kind == "neuron"]
    assert [r["id"] for r in rows] == [f"advisor-{f}-{d.id}" for f in catalog.families for d in devices]
    for row in rows:
        family_id, device_id = next((f, d.id) for f in catalog.families for d in devices
                                    if row["id"] == f"advisor-{f}-{d.id}")
        family, cells = catalog.families[family_id], _cells(row)
        assert cells[0] == family.name and cells[1] == catalog.devices[device_id].name
        fit = catalog.fit(family_id, device_id)  # the latest matrix revision
        if fit is None:
            assert cells[2].startswith("Unknown") and cells[3].startswith("Unknown")
            continue
        assert cells[2].startswith(FIT_TEXT[fit])
        prose = family.devices.get(device_id)
        if prose and prose.rationale:
            assert " ".join(prose.rationale.split()) in cells[2]
        for key, entry in catalog.support(family_id, device_id).items():
            framework_id, workload = key.split("/", 1)
            label = f"{framework_header(catalog.frameworks[framework_id])}, {workload}"
            assert f"{label}: {STATUS_TEXT[entry.status]}" in cells[3]
        issues = [i.title for i in catalog.known_issues.values()
                  if device_id in i.devices and (not i.families or family_id in i.families)]
        for title in issues:
            assert title in cells[4]
        if not issues and not any(catalog.roadmap_item(e) for e in catalog.support(family_id, device_id).values()):
            assert cells[4] == "None known"


def _family_of(catalog, name: str) -> str | None:
    found = next((m.family for m in catalog.published_models.values() if m.name == name), None)
    return found or next((m.family for m in catalog.models.values() if m.name == name), None)


def test_best_training_throughput_is_the_highest_of_the_family(advisor, catalog):
    for family_id in catalog.families:
        runs = [r for r in catalog.published_training_runs.values() if _family_of(catalog, r.model) == family_id]
        row = advisor.find("tr", id=f"advisor-{family_id}-trainium")
        cell = _cells(row)[7]
        if not runs:
            assert cell == "None measured"
            continue
        best = max(runs, key=lambda r: r.throughput_sequences_per_s)
        assert cell.startswith(f"{best.model}: {display_number(float(best.throughput_sequences_per_s), 'sequences/s')}")


def test_best_inference_latency_is_the_lowest_of_its_kind(advisor, catalog):
    """Where every run of the family on the device reports a P50 latency, the lowest is shown."""
    checked = 0
    for family_id in catalog.families:
        for device in ("inferentia", "inferentia2"):
            runs = [r for r in catalog.published_inference_runs.values()
                    if _family_of(catalog, r.model) == family_id
                    and catalog.instances[r.instance].device == device]
            if not runs or any(r.latency_p50_ms is None for r in runs):
                continue
            best = min(runs, key=lambda r: r.latency_p50_ms)
            cell = _cells(advisor.find("tr", id=f"advisor-{family_id}-{device}"))[6]
            assert f"Latency P50 {display_number(float(best.latency_p50_ms), 'ms')}" in cell, (family_id, device)
            checked += 1
    assert checked


def test_embedded_data_is_one_script_and_names_the_data_models(advisor, catalog):
    scripts = advisor.find_all("script", id="neuron-advisor-data")
    assert len(scripts) == 1
    data = json.loads(scripts[0].string)
    names = set(data["models"])
    assert {m.name for m in catalog.published_models.values()} <= names
    assert {m.name for m in catalog.models.values()} <= names
    for family in catalog.families.values():
        for name in family.representatives:
            assert data["names"].get(name) == family.id or name in names
    assert advisor.find("div", id="neuron-advisor-app") is not None
    assert any("neuron-advisor.js" in (s.get("src") or "") for s in advisor.find_all("script"))


def test_advisor_is_first_in_the_navigation(site):
    index = site.soup("index.html")
    first = index.select_one(".sidebar-tree a.reference.internal[href]")
    assert first["href"].startswith("advisor.html")


def test_home_page_starts_from_the_readers_task(site):
    cards = site.soup("index.html").select("a.sd-stretched-link[href]")
    targets = [a["href"].split("#")[0] for a in cards]
    assert targets[0] == "advisor.html" and "architecture-fit.html" in targets
    assert any(t.startswith("performance/") for t in targets)
    whats_new = (site.outdir / "whats-new.html").exists()
    assert targets[-1] == ("whats-new.html" if whats_new else "architecture-fit.html")
    for target in targets:
        assert (site.outdir / target).is_file(), target
