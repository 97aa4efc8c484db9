"""Each device page says what runs well on it, near its top: per workload and model family with a
published run on an instance of the device, the configuration the advisor chooses for the family
there with the best throughput, its figure and its cost per 1M, linked to the row that publishes it
and to the advisor; a device no published run measures says so.

The families a page must list are computed here from the catalog's records (each published run's
instance and its model's family), the configuration from the advisor's own choice
(:func:`neuron_docs.data.figures.advisor.choose`), the text from the display rule: whatever the data
holds, never a typed number.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest
from docutils.nodes import make_id

from helpers.html import soup_of
from helpers.paths import FROZEN_DATA
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.advisor import WORKLOADS, best_on_device, choose, neuron_devices, published_runs
from neuron_docs.data.figures.derived import Derived
from neuron_docs.data.figures.formatting import shown_cost, shown_figure, shown_measure
from neuron_docs.data.figures.identity import identities
from neuron_docs.data.record_keys import RecordDigests
from neuron_docs.site.device_overview import ADVISOR_DOC
from neuron_docs.site.device_pages import OVERVIEW

SECTION = "what-runs-well-here"
EMPTY = "The published benchmarks measure no model on an instance of {}."


def _measured_families(catalog, device: str, workload: str) -> list[str]:
    """The families with a published run of ``workload`` on an instance of ``device``, in the order
    of ``families.yaml``: from the runs' instances and their models' identities."""
    known = identities(catalog)
    runs = catalog.published_training_runs if workload == "training" else catalog.published_inference_runs
    found = set()
    for run in runs.values():
        instance = catalog.instances.get((getattr(run, "instances", None) or [getattr(run, "instance", "")])[0])
        model = known.of_published(run.model)
        if instance is not None and model is not None and instance.device == device:
            found.add(model.family)
    return [f for f in catalog.families if f in found] + sorted(found - set(catalog.families))


def _family_of(line, catalog) -> str:  # noqa: ANN001 - Tag
    """The family a line of the section is about (its class: ``neuron-device-best-<family as an id>``)."""
    return {make_id(f): f for f in catalog.families}[line["class"][0].removeprefix("neuron-device-best-")]


def _advisors_best(catalog, derived: Derived, device: str, workload: str, family: str):  # noqa: ANN202 - Best | None
    """The advisor's best-throughput configuration of ``family`` on ``device``, among the published runs."""
    runs = [r for r in published_runs(derived) if r.workload == workload and r.family == family]
    devices = neuron_devices(catalog) + ([] if device in neuron_devices(catalog) else [device])
    picked = choose(runs, devices, catalog.families.get(family)).get(device)
    return picked[0] if picked else None


@pytest.fixture(scope="module")
def derived(catalog) -> Derived:
    return Derived(catalog)


def _section(site, device: str):  # noqa: ANN202 - Tag
    page = site.soup(f"devices/{device}.html")
    section = page.find("section", id=SECTION)
    assert section is not None, device
    return section


def test_each_device_page_lists_the_families_measured_on_it_with_the_advisors_best(site, catalog, derived) -> None:
    checked = 0
    for device in (d for d in catalog.devices.values() if d.id != OVERVIEW):
        section = _section(site, device.id)
        text = " ".join(section.get_text(" ").split())
        expected = {w: _measured_families(catalog, device.id, w) for w in WORKLOADS}
        if not any(expected.values()):
            assert EMPTY.format(device.name) in text
            assert not section.find("li")
            continue
        assert "no model on an instance" not in text
        for workload in WORKLOADS:
            items = section.select(f"ul.neuron-device-best-{workload} > li > p")
            assert [p["class"][0].removeprefix("neuron-device-best-") for p in items] == [
                make_id(f) for f in expected[workload]], (device.id, workload)
            for line, family in zip(items, expected[workload], strict=True):
                best = _advisors_best(catalog, derived, device.id, workload, family)
                assert best is not None and best.throughput is not None
                words = " ".join(line.get_text(" ").split())
                assert f"{best.model} on {best.instance}" in words
                assert line.select_one(".neuron-device-best-figure").get_text() == shown_measure(
                    best.throughput, best.throughput_unit)
                cost = line.select_one(".neuron-device-best-cost").get_text()
                assert cost == (f"{shown_cost(best.cost)} per {best.cost_per}" if best.cost is not None
                                else "no cost (no price of its instance)")
                checked += 1
    assert checked  # the real data measures families on some device


def test_the_section_comes_first_before_any_table(site, catalog) -> None:
    """The first screens: the section follows the title and the introduction, before the
    specifications and every table of the page, and holds no table itself."""
    for device in (d for d in catalog.devices.values() if d.id != OVERVIEW):
        page = site.soup(f"devices/{device.id}.html")
        main = page.select_one("article[role=main]") or page.find(attrs={"role": "main"}) or page
        headings = [h.get("id") or h.find_parent("section")["id"] for h in main.find_all("h2")]
        assert headings[0] == SECTION, device.id
        section = _section(site, device.id)
        assert section.find("table") is None
        first_table = main.find("table")
        assert first_table is not None and first_table.find_previous("section", id=SECTION) is not None


def test_each_figure_links_to_a_row_showing_it_and_each_family_to_the_advisor(site, catalog, derived) -> None:
    rows = 0
    for device in (d for d in catalog.devices.values() if d.id != OVERVIEW):
        name = f"devices/{device.id}.html"
        for workload in WORKLOADS:
            for line in _section(site, device.id).select(f"ul.neuron-device-best-{workload} > li > p"):
                family = _family_of(line, catalog)
                figure = line.select_one(".neuron-device-best-figure")
                link = figure.find_parent("a")
                best = _advisors_best(catalog, derived, device.id, workload, family)
                if link is not None:
                    target, anchor = urldefrag(urljoin(name, link["href"]))
                    assert anchor in site.ids(target), link["href"]
                    place = site.soup(target).find(id=anchor)
                    if anchor.startswith("prun-"):  # a performance table's row: the same figure
                        assert target.startswith("performance/")
                        assert shown_figure(best.throughput) in place.get_text(" "), (link["href"], best.run)
                        rows += 1
                advisor = line.find("a", string="Compare devices")
                if device.id in neuron_devices(catalog):
                    assert advisor is not None and advisor["href"] == f"../{ADVISOR_DOC}.html#advisor-{family}-{device.id}"
                    assert f"advisor-{family}-{device.id}" in site.ids(f"{ADVISOR_DOC}.html")
                else:
                    assert advisor is None
    assert rows  # at least some figures land on their performance row


def test_a_changed_figure_rewrites_the_device_page(site, catalog, derived) -> None:
    """What a device page shows is noted when it is read: changing the throughput of the run its
    section names changes a digest the page recorded, so the page is written again (not read)."""
    domain = site.app.env.get_domain("neuron")
    for device in (d for d in catalog.devices.values() if d.id != OVERVIEW):
        named = [f.best for f in best_on_device(catalog, published_runs(derived), device.id) if f.best]
        if not named:
            continue
        best = named[0]
        collection = "published_training_runs" if best.kind == "training" else "published_inference_runs"
        run = catalog.records[collection][best.run]
        field, value, _ = run.throughput()
        changed_run = run.model_copy(update={field: value * 2})
        changed = dataclasses.replace(catalog, records={
            **catalog.records, collection: {**catalog.records[collection], best.run: changed_run}})
        recorded = domain.dependencies("shows")[f"devices/{device.id}"]
        now = RecordDigests(changed).of(recorded)
        assert now != recorded, device.id
        assert RecordDigests(catalog).of(recorded) == recorded  # unchanged data: nothing to rewrite
        return
    pytest.fail("no device page names a measured configuration")


@pytest.mark.sphinx("html", testroot="device-best", confoverrides={"neuron_data_dir": str(FROZEN_DATA)},
                    freshenv=True)
def test_a_device_without_published_runs_says_so_and_an_unknown_device_warns(app) -> None:
    """The small root (no performance pages, no advisor): Trainium2, which the frozen data's published
    benchmarks never measure, gets one sentence; Inferentia2 its families, unlinked; an unknown
    device is a located warning at the directive, and the build goes on."""
    catalog = load_catalog(FROZEN_DATA)
    derived = Derived(catalog)
    assert best_on_device(catalog, published_runs(derived), "trainium2") == []
    assert best_on_device(catalog, [], "inferentia2") == []
    app.build()
    warnings = app.warning.getvalue().strip().splitlines()
    assert len(warnings) == 1 and "index.rst:" in warnings[0]
    assert "device-best: unknown device 'no-such-device'" in warnings[0] and "[neuron.directive]" in warnings[0]
    soup = soup_of(Path(app.outdir) / "index.html")
    boxes = soup.select("div.neuron-device-best")
    assert len(boxes) == 2
    assert " ".join(boxes[0].get_text(" ").split()) == EMPTY.format(catalog.devices["trainium2"].name)
    lines = boxes[1].select("li > p")
    assert [p["class"][0].removeprefix("neuron-device-best-") for p in lines] == [
        make_id(f.family) for f in best_on_device(catalog, published_runs(derived), "inferentia2")]
    assert lines and not boxes[1].find("a", string="Compare devices")  # no advisor page in this project
    assert not any(p.select_one(".neuron-device-best-figure").find_parent("a") for p in lines)
