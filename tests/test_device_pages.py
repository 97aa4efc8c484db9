"""A device added to the data alone appears in every view of the site; one removed leaves nothing.

A device the data does not hold (Trainium3, its instance trn3.48xlarge, with figures made up for the
test), a framework that runs on it, a new revision of the support matrices with a matrix for it (a
family's fit and support), and a benchmark run are added to a copy of ``data/``; the real site is
built from a copy of ``source/`` (device pages are generated into the source directory) and every
place a reader looks is compared with the data: the device page (specifications, instances,
matrix, frameworks, benchmarks), the devices overview, toctree and sidebar, ``sitemap.xml``,
``objects.inv``, the search index, the CSV and JSON downloads. Then the device is removed again.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from docutils import nodes
from sphinx.util.inventory import InventoryFile

from helpers.edits import edit_yaml
from helpers.git import git
from helpers.paths import DATA, REPO, copy_source
from helpers.site import build_site
from helpers.warnings import without_colours
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.formatting import format_number
from neuron_docs.site import device_pages

DEVICE = "trainium3"
INSTANCE = "trn3.48xlarge"
FRAMEWORK = "torch-neuronx"
FAMILY = "encoder"
RUN = "vit-trn3-b1"
RELEASE = "2024-12-03"  # the revision of the support matrices that lists Trainium3
PROSE = "Trainium3 prose written by hand for this test."


def release(data: Path, edit: Any, date: str = RELEASE) -> None:
    """A new revision of the support matrices in ``data``: a copy of the latest, changed by ``edit``."""
    latest = sorted((data / "matrix").glob("*.yaml"))[-1]

    def revision(doc: dict) -> None:
        doc["date"] = dt.date.fromisoformat(date)
        doc.pop("unchanged_because", None)
        edit(doc)

    shutil.copy(latest, data / "matrix" / f"{date}.yaml")
    edit_yaml(data / "matrix" / f"{date}.yaml", revision)


def add_trainium3(data: Path) -> None:
    """Trainium3 in ``data`` (a copy): device, instance, framework, its matrix in a new revision, a run."""
    edit_yaml(data / "devices.yaml", lambda d: d["devices"].append({
        "id": DEVICE, "name": "AWS Trainium3", "vendor": "AWS", "kind": "neuron", "architecture": "NeuronCore-v4",
        "generation": 3, "purpose": "training", "neuroncores": 8, "data_types": ["FP32", "BF16", "FP8"],
        "interconnect": "NeuronLink-v3", "features": ["Sparsity support"],
        "specs": {"memory": {"value": 96, "unit": "GB", "label": "HBM device memory", "source": "talk"}},
        "source": "talk"}))
    edit_yaml(data / "instances.yaml", lambda d: d["instances"].append({
        "id": INSTANCE, "family": "trn3", "device": DEVICE, "device_count": 16, "vcpus": 192,
        "price": {"usd_per_hour": 44.5, "source": "aws-pricing", "as_of": dt.date(2024, 12, 3)}}))

    def frameworks(doc: dict) -> None:
        next(f for f in doc["frameworks"] if f["id"] == FRAMEWORK)["devices"].append(DEVICE)

    def matrices(doc: dict) -> None:
        doc["devices"].append(DEVICE)
        doc["matrices"].append({
            "id": "neuroncore-v4", "architecture": "NeuronCore-v4", "title": "AWS Trainium3 (NeuronCore-v4)",
            "devices": [DEVICE], "last_update_published": "12/03/2024",
            "columns": [{"framework": FRAMEWORK, "workload": "training", "header": "Training with PyTorch Neuron"}],
            "rows": [{"family": FAMILY, "label": "Transformer Encoders", "categories": ["nlp"], "fit": "good",
                      "cells": {f"{FRAMEWORK}/training": "supported"}}]})

    def models(doc: dict) -> None:
        doc["environments"].append({"id": "trn3-env", "instance": INSTANCE, "os": "Ubuntu 22.04",
                                    "software": {FRAMEWORK: "2.21"}, "framework": FRAMEWORK, "source": "talk"})

    edit_yaml(data / "frameworks.yaml", frameworks)
    release(data, matrices)
    edit_yaml(data / "models.yaml", models)
    with (data / "benchmarks" / "inference.csv").open("a", encoding="utf-8", newline="") as handle:
        handle.write(f"{RUN},vit-base,,trn3-env,1,1,1,,2.5,400,talk\n")


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - SiteBuild
    root = tmp_path_factory.mktemp("grown")
    data = root / "data"
    shutil.copytree(DATA, data)
    add_trainium3(data)
    assert load_catalog(data).errors == []
    source = copy_source(root / "source")
    (source / "_devices" / DEVICE).mkdir()
    (source / "_devices" / DEVICE / "intro.rst").write_text(PROSE + "\n", encoding="utf-8")
    return build_site(root / "out", data_dir=data, srcdir=source)


@pytest.fixture(scope="module")
def grown_catalog(grown):  # noqa: ANN201 - Catalog
    return load_catalog(Path(grown.app.config.neuron_data_dir))


def _cells(row: Any) -> list[str]:
    return [c.get_text(" ", strip=True) for c in row.find_all(["td", "th"])]


def _inventory(outdir: Path) -> dict[str, dict[str, Any]]:
    return InventoryFile.loads((outdir / "objects.inv").read_bytes(), uri="").data


def _search_index(outdir: Path) -> dict:
    text = (outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1: text.rindex(")")])


def _csv_of(site: Any, page: str, name: str) -> list[list[str]]:
    """The rows of the CSV download linked from ``page`` for the table ``name``."""
    links = [a["href"] for a in site.soup(page).select("a.neuron-download-link") if a["href"].endswith(f"/{name}.csv")]
    assert links, f"{page} has no CSV download of {name}"
    path = site.outdir / urljoin(page, links[0])
    return list(csv.reader(path.read_text(encoding="utf-8").splitlines()))


@pytest.mark.site_edits
def test_grown_site_builds_without_warnings(grown) -> None:
    assert grown.warnings == ""
    assert not (REPO / "source" / "devices" / f"{DEVICE}.rst").exists()  # the real source is untouched
    assert (Path(grown.app.srcdir) / "devices" / f"{DEVICE}.rst").is_file()


@pytest.mark.site_edits
def test_device_page_shows_specs_instances_matrix_frameworks_and_benchmarks(grown, grown_catalog) -> None:
    page = grown.soup(f"devices/{DEVICE}.html")
    device = grown_catalog.devices[DEVICE]
    assert page.find("h1").get_text(strip=True).rstrip("#¶") == device.name
    assert PROSE in page.get_text(" ")  # the hand-written prose, included
    specs = {c[0]: c[1] for c in map(_cells, page.find("table", id=f"specs-{DEVICE}").select("tbody tr"))}
    assert specs["NeuronCores per device"] == str(device.neuroncores)
    assert specs["Data types"] == ", ".join(device.data_types)
    for spec in device.specs.values():
        assert specs[spec.label] == format_number(spec.value, spec.unit)
    instance = grown_catalog.instances[INSTANCE]
    row = page.find("table", id=f"instances-{DEVICE}").find(id=f"instance-{nodes.make_id(INSTANCE)}")
    texts = _cells(row)
    assert texts[0] == INSTANCE
    assert texts[3] == str(instance.device_count * device.neuroncores)
    assert texts[6] == format_number(instance.price.usd_per_hour, "USD/h")
    matrix = page.find("table", id=f"support-matrix-{DEVICE}")
    rev, data_matrix = grown_catalog.revision(), grown_catalog.matrix(DEVICE)
    assert rev.name == RELEASE and data_matrix is not None
    assert [r["id"] for r in matrix.select("tbody tr")] == [f"matrix-{DEVICE}-{r.family}" for r in data_matrix.rows]
    for row in data_matrix.rows:
        assert _cells(matrix.find(id=f"matrix-{DEVICE}-{row.family}"))[2:] == [
            rev.fits[row.fit], *(f"{rev.statuses[row.cells[c.key].status].label} since {RELEASE}"
                                 for c in data_matrix.columns)]
    assert "No support matrix has been published" not in page.get_text(" ")
    sentence = page.select_one("p.neuron-device-frameworks")
    assert [a.get_text(" ", strip=True) for a in sentence.find_all("a")] == [
        f"{f.name} ({f.package})" for f in grown_catalog.frameworks_for(DEVICE)]
    benchmarks = page.find("table", id=f"benchmarks-{DEVICE}")
    assert [r["id"] for r in benchmarks.select("tbody tr")] == [f"run-{RUN}"]
    assert page.select_one(f"figure#chart-cost-{DEVICE} svg")
    # Its one run is the seed analysis's, not a published benchmark's: what runs well says so.
    best = page.find("section", id="what-runs-well-here")
    assert " ".join(best.get_text(" ").split()).endswith(
        f"The published benchmarks measure no model on an instance of {device.name}.")


@pytest.mark.site_edits
def test_overview_toctree_and_sidebar_list_every_device(grown, grown_catalog) -> None:
    overview = grown.soup("devices/index.html")
    toctree = [a["href"] for a in overview.select(".toctree-wrapper a.reference.internal")]
    assert toctree == [f"{d}.html" for d in grown_catalog.devices]
    table = overview.find("table", id="device-table")
    rows = table.select("tbody tr")
    assert [r["id"] for r in rows] == [f"devices-{nodes.make_id(d)}" for d in grown_catalog.devices]
    row = _cells(table.find(id=f"devices-{DEVICE}"))
    assert row[0] == grown_catalog.devices[DEVICE].name and INSTANCE in row[5] and row[7] == "Published"
    assert table.find(id=f"devices-{DEVICE}").find("a")["href"] == f"{DEVICE}.html#device-{DEVICE}"
    for page, href in (("index.html", f"devices/{DEVICE}.html"), ("instances.html", f"devices/{DEVICE}.html")):
        sidebar = grown.soup(page).select(".sidebar-tree a")
        assert href in [a["href"] for a in sidebar], page


@pytest.mark.site_edits
def test_sitemap_inventory_and_search_hold_the_device(grown, grown_catalog) -> None:
    sitemap = (grown.outdir / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{grown.app.config.html_baseurl}devices/{DEVICE}.html</loc>" in sitemap
    inventory = _inventory(grown.outdir)
    assert inventory["neuron:device"][DEVICE].uri == f"devices/{DEVICE}.html#device-{DEVICE}"
    assert inventory["neuron:device"][DEVICE].display_name == grown_catalog.devices[DEVICE].name
    assert INSTANCE in inventory["neuron:instance"]
    index = _search_index(grown.outdir)
    docnames = index["docnames"]
    assert f"devices/{DEVICE}" in docnames
    assert index["titles"][docnames.index(f"devices/{DEVICE}")] == grown_catalog.devices[DEVICE].name
    found = [(doc, anchor) for items in index["objects"].values() for doc, _t, _p, anchor, name in items
             if name == grown_catalog.devices[DEVICE].name]
    # Sphinx writes the anchor "<type>-<name>" as "-"
    assert found and all(doc == docnames.index(f"devices/{DEVICE}") and anchor in {"-", f"device-{DEVICE}"}
                         for doc, anchor in found)


@pytest.mark.site_edits
def test_csv_and_json_downloads_hold_the_device(grown, grown_catalog) -> None:
    page = f"devices/{DEVICE}.html"
    device = grown_catalog.devices[DEVICE]
    specs = _csv_of(grown, page, f"specs-{DEVICE}")
    assert specs[0] == ["Property", "Value", "Source"]
    assert [device.specs["memory"].label, format_number(device.specs["memory"].value, "GB")] in [r[:2] for r in specs]
    assert [r[0] for r in _csv_of(grown, page, f"instances-{DEVICE}")[1:]] == [INSTANCE]
    assert [r[0] for r in _csv_of(grown, page, f"support-matrix-{DEVICE}")[1:]] == [
        row.label for row in grown_catalog.matrix(DEVICE).rows]
    assert [r[0] for r in _csv_of(grown, "devices/index.html", "device-table")[1:]] == [
        d.name for d in grown_catalog.devices.values()]
    document = json.loads((grown.outdir / "_downloads" / "neuron-data.json").read_text(encoding="utf-8"))
    assert json.dumps(document).count(f'"{DEVICE}"') > 0


@pytest.mark.site_edits
def test_removing_the_device_leaves_nothing_behind(grown, tmp_path: Path) -> None:
    """The same source folder and output, rebuilt from the data without Trainium3: the page, its
    HTML, toctree entry, sitemap, inventory and search entries go; its prose is pointed out."""
    source = Path(grown.app.srcdir)
    outroot = Path(grown.outdir).parent
    rebuilt = build_site(outroot, data_dir=DATA, srcdir=source)
    prose = source / "_devices" / DEVICE
    assert f"{prose}:: WARNING: prose for device {DEVICE!r}, which is not in devices.yaml" in rebuilt.warnings
    assert "[neuron.device-page]" in rebuilt.warnings
    others = [w for w in rebuilt.warnings.splitlines() if w and str(prose) not in w]
    assert others == [], others  # no broken reference, no missing toctree document
    assert not (source / "devices" / f"{DEVICE}.rst").exists()
    assert not (rebuilt.outdir / "devices" / f"{DEVICE}.html").exists()
    overview = rebuilt.soup("devices/index.html")
    assert f"{DEVICE}.html" not in [a["href"] for a in overview.select(".toctree-wrapper a")]
    assert not overview.find(id=f"devices-{DEVICE}")
    assert f"devices/{DEVICE}.html" not in [a["href"] for a in rebuilt.soup("index.html").select(".sidebar-tree a")]
    assert f"devices/{DEVICE}.html" not in (rebuilt.outdir / "sitemap.xml").read_text(encoding="utf-8")
    assert DEVICE not in _inventory(rebuilt.outdir)["neuron:device"]
    assert f"devices/{DEVICE}" not in _search_index(rebuilt.outdir)["docnames"]
    for html in rebuilt.outdir.rglob("*.html"):
        assert f"{DEVICE}.html" not in html.read_text(encoding="utf-8"), html
        assert f"specs-{DEVICE}.csv" not in html.read_text(encoding="utf-8"), html


def _without_inferentia2(doc: dict) -> None:
    doc["devices"].remove("inferentia2")
    for matrix in doc["matrices"]:
        if "inferentia2" in matrix["devices"]:
            matrix["devices"].remove("inferentia2")


@pytest.fixture(scope="module")
def without_inferentia2(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - (SiteBuild, Path)
    """The site built from a copy of the data with a new revision of the support matrices that no
    longer lists Inferentia2, and with support prose for it (a family's ``support_text``) that
    therefore no matrix shows: one build for the two tests below. Returns the build and its data."""
    root = tmp_path_factory.mktemp("without-inferentia2")
    data = root / "data"
    shutil.copytree(DATA, data)
    release(data, _without_inferentia2)

    def families(doc: dict) -> None:
        family = next(f for f in doc["families"] if f["id"] == FAMILY)
        family["devices"]["inferentia2"] = {"support_text": "Supported with torch-neuronx."}

    edit_yaml(data / "families.yaml", families)
    return build_site(root / "out", data_dir=data), data


def _prose_warning(data: Path) -> str:
    """The located warning for the support prose of ``without_inferentia2``."""
    _, line = load_catalog(data).origin("families", FAMILY)
    return (f"{data / 'families.yaml'}:{line}: WARNING: family {FAMILY!r} has support prose for device "
            "'inferentia2', but no support matrix of the latest revision lists that device")


@pytest.mark.site_edits
def test_inferentia2_says_no_matrix_is_published_only_while_no_revision_lists_it(site, catalog,
                                                                                 without_inferentia2) -> None:
    """The sentence follows the data: Inferentia2 is in the latest revision's matrices, so its page
    shows that matrix; a new revision without it brings the sentence back, and the build says
    nothing else than the warning about the support prose no matrix shows now."""
    sentence = "No support matrix has been published for AWS Inferentia2 yet."
    assert "inferentia2" in catalog.matrix_devices()
    page = site.soup("devices/inferentia2.html")
    assert sentence not in " ".join(page.get_text(" ").split())
    matrix = catalog.matrix("inferentia2")
    assert [r["id"] for r in page.find("table", id="support-matrix-inferentia2").select("tbody tr")] == [
        f"matrix-inferentia2-{r.family}" for r in matrix.rows]

    built, data = without_inferentia2
    assert "inferentia2" not in load_catalog(data).matrix_devices()
    warnings = without_colours(built.warnings).splitlines()  # without colours
    assert [w for w in warnings if w and not w.startswith(_prose_warning(data))] == []
    page = built.soup("devices/inferentia2.html")
    assert sentence in " ".join(page.get_text(" ").split())
    assert not page.find("table", class_="neuron-support-matrix")


@pytest.mark.site_edits
def test_support_prose_without_a_published_matrix_is_a_located_warning(without_inferentia2) -> None:
    built, data = without_inferentia2
    assert _prose_warning(data) in built.warnings
    assert "No support matrix has been published for AWS Inferentia2 yet." in " ".join(
        built.soup("devices/inferentia2.html").get_text(" ").split())


@pytest.mark.site_edits
def test_a_device_whose_page_is_not_read_is_a_located_warning(tmp_path, catalog) -> None:
    """With the generated Trainium and Inferentia2 pages (which share one matrix), the
    architecture-fit page and the latest revision's page excluded, no page shows their
    specifications or their matrix (Inferentia's still shows on its own page)."""
    assert catalog.matrix("trainium") is catalog.matrix("inferentia2")
    source = copy_source(tmp_path / "source")
    built = build_site(tmp_path, srcdir=source, exclude_patterns=[
        "devices/trainium.rst", "devices/inferentia2.rst", "architecture-fit.rst",
        f"matrix/{catalog.revision().name}.rst"])
    for device in ("trainium", "inferentia2"):
        _, line = catalog.origin("devices", device)
        location = f"{DATA / 'devices.yaml'}:{line}: WARNING:"
        assert f"{location} no page shows the specifications of device {device!r}" in built.warnings
        assert (f"{location} a support matrix is published for device {device!r}, but no page shows it"
                in built.warnings)
    assert "[neuron.device-page]" in built.warnings
    assert "device 'inferentia'" not in built.warnings


# Generation itself -----------------------------------------------------------------------------

def test_generated_files_are_rewritten_only_when_their_text_changes(tmp_path: Path) -> None:
    folder = tmp_path / "devices"
    mark = device_pages.MARKER + "\n"
    assert device_pages.write(folder, {"a.rst": mark + "A", "b.rst": mark + "B"}) == (["a.rst", "b.rst"], [])
    (folder / "mine.rst").write_text("written by hand\n", encoding="utf-8")
    before = (folder / "a.rst").stat().st_mtime_ns
    assert device_pages.write(folder, {"a.rst": mark + "A", "b.rst": mark + "B2"}) == (["b.rst"], [])
    assert (folder / "a.rst").stat().st_mtime_ns == before
    assert device_pages.write(folder, {"a.rst": mark + "A"}) == ([], ["b.rst"])
    assert sorted(p.name for p in folder.iterdir()) == [".gitignore", "a.rst", "mine.rst"]  # a hand-written file stays
    ignored = (folder / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "/a.rst" in ignored and "/b.rst" not in ignored and "/mine.rst" not in ignored


def test_a_build_leaves_git_status_clean_whatever_its_source_directory(tmp_path: Path) -> None:
    """A project whose source directory is its repository's root (as when ``sphinx-build`` is given
    ``.``): the generated device, performance and revision pages land there, and git sees nothing new."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "conf.py").write_text("\n".join([
        "import sys", f"sys.path.insert(0, {str(REPO / '_ext')!r})", 'extensions = ["neuron_docs"]',
        f"neuron_data_dir = {str(DATA)!r}", 'neuron_device_pages = "devices"',
        'neuron_performance_pages = "performance"', 'neuron_revision_pages = "matrix"',
        'exclude_patterns = ["_build"]', ""]), encoding="utf-8")
    (repo / "index.rst").write_text("Root\n====\n\n.. toctree::\n   :glob:\n\n   */*\n", encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a project at the root")
    with docutils_namespace():
        Sphinx(repo, repo, tmp_path / "out", tmp_path / "doctrees", "html", status=None, warning=None,
               freshenv=True).build()
    for folder in ("devices", "performance", "matrix"):
        assert list((repo / folder).glob("*.rst")), folder  # the pages were generated there
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_the_real_pages_are_the_templates_rendered_from_the_data(site, catalog) -> None:
    """What ``make html`` generated in ``source/devices`` is exactly the rendering of the data."""
    expected = device_pages.render(catalog, REPO / "source", "_devices")
    generated = REPO / "source" / "devices"
    assert {p.name for p in generated.glob("*.rst")} == set(expected)
    for name, text in expected.items():
        assert (generated / name).read_text(encoding="utf-8") == text, name


@pytest.mark.parametrize("text", ["**b** `x <https://e.example>`_ :ref:`y` |s| .. raw:: html", "a\\b_ c*",
                                  "{{ 7*7 }} {% if 1 %}J{% endif %}", "x`\n\n.. include:: /etc/passwd"])
def test_data_text_is_escaped_for_rst(text: str) -> None:
    from docutils.core import publish_doctree

    markup = device_pages.rst_text(text)
    doctree = publish_doctree(markup, settings_overrides={"report_level": 5})
    assert doctree.astext() == " ".join(text.split())
    assert len(list(doctree.findall(nodes.Element))) == 2  # the document and one paragraph
