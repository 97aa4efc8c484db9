"""What the site publishes is safe whatever the data's strings and ids are.

One build of the real site from a copy of ``data/`` that plants, beside the real records:

- a model note ``=HYPERLINK(...)``: the downloadable CSV holds it neutralised (``'=HYPERLINK``,
  OWASP's guidance against spreadsheet formula injection) while the page shows it as typed;
- ids whose HTML anchors collide: a family ``<family>-<device>`` (the id of the section of
  ``<family>`` on ``<device>``), an instance ``inf2-xlarge`` beside ``inf2.xlarge``, a model
  whose id is a run's id. No page may hold an id twice, every internal link's fragment must exist
  on its target page, and every object's link (``objects.inv``, the links in tables) must land on
  that object's own row or section.
"""

from __future__ import annotations

import copy
import csv
import io
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

import pytest
from bs4 import BeautifulSoup

from helpers.edits import edit_yaml
from helpers.site import build_site
from neuron_docs.data import load_catalog
from neuron_docs.site.downloads.table_csv import neutralised

FORMULA = '=HYPERLINK("https://evil.example/x","Click for details")'


def _plant(data: Path) -> dict[str, str]:
    """Plant the formula and the colliding ids in ``data``; return the planted ids by kind."""
    catalog = load_catalog(data)
    family = next(f for f in catalog.families.values() if f.devices)
    device = next(iter(family.devices))
    run = next(iter(catalog.inference_runs))
    planted = {"family": f"{family.id}-{device}", "family_of_section": family.id, "device": device,
               "model": run, "instance": "inf2-xlarge", "instance_twin": "inf2.xlarge"}
    assert planted["instance_twin"] in catalog.instances

    def families(doc: dict) -> None:
        twin = copy.deepcopy(next(f for f in doc["families"] if f["id"] == family.id))
        twin.update(id=planted["family"], name="Planted family", title="Planted family title",
                    representatives=[])
        doc["families"].append(twin)

    def models(doc: dict) -> None:
        twin = copy.deepcopy(doc["models"][0])
        twin.update(id=planted["model"], name="Planted model", notes=FORMULA)
        doc["models"].append(twin)

    def instances(doc: dict) -> None:
        twin = copy.deepcopy(next(i for i in doc["instances"] if i["id"] == planted["instance_twin"]))
        twin.update(id=planted["instance"], vcpus=twin["vcpus"] + 1)
        doc["instances"].append(twin)

    edit_yaml(data / "families.yaml", families)
    edit_yaml(data / "models.yaml", models)
    edit_yaml(data / "instances.yaml", instances)
    return planted


@pytest.fixture(scope="module")
def planted_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, str]]:
    import shutil

    from helpers.paths import DATA

    root = tmp_path_factory.mktemp("output-safety")
    data = root / "data"
    shutil.copytree(DATA, data)
    planted = _plant(data)
    assert not load_catalog(data).errors, "the planted records must be valid data"
    return build_site(root, data_dir=data), planted


@pytest.fixture(scope="module")
def pages(planted_site: tuple[Any, dict[str, str]]) -> dict[str, BeautifulSoup]:
    """Every page of the planted site, parsed once (:meth:`conftest.SiteBuild.soup`)."""
    site = planted_site[0]
    names = [str(path.relative_to(site.outdir)) for path in sorted(site.outdir.rglob("*.html"))]
    return {name: site.soup(name) for name in names}


def _inventory(outdir: Path) -> dict[str, dict[str, Any]]:
    from sphinx.util.inventory import InventoryFile

    with (outdir / "objects.inv").open("rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    return inventory.data if hasattr(inventory, "data") else inventory


def _uri(entry: Any) -> str:
    """An inventory entry's URI (``page.html#anchor``), from Sphinx 8's item or an older tuple."""
    return entry.uri if hasattr(entry, "uri") else entry[2]


def _target(pages: dict[str, BeautifulSoup], uri: str) -> Any:
    page, fragment = urldefrag(uri)
    return pages[page].find(id=fragment)


# CSV neutralisation -------------------------------------------------------------------------------

@pytest.mark.parametrize(("cell", "expected"), [
    ("=1+1", "'=1+1"), ("+1+1", "'+1+1"), ("-1+1", "'-1+1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), (FORMULA, "'" + FORMULA),
    ("-5", "-5"), ("+3.2", "+3.2"), ("-.5e3", "-.5e3"), ("9.007 ms", "9.007 ms"), ("", ""),
    ("a=b", "a=b"), ("$0.19", "$0.19"),
])
def test_neutralised(cell: str, expected: str) -> None:
    assert neutralised(cell) == expected


@pytest.mark.site_edits
def test_formula_reaches_the_csv_neutralised_and_the_page_as_typed(planted_site, pages) -> None:
    site, planted = planted_site
    rows = list(csv.reader(io.StringIO(
        (site.outdir / "_downloads/tables/model-status.csv").read_text(encoding="utf-8"))))
    notes = rows[0].index("Notes")
    planted_row = next(row for row in rows if row[0] == "Planted model")
    assert planted_row[notes] == "'" + FORMULA
    for row in rows[1:]:  # no cell of the file can start a formula
        assert not any(cell.startswith(("=", "@", "\t", "\r")) for cell in row), row
    cells = [td.get_text(" ", strip=True) for page in pages.values()
             for td in page.select("table.neuron-model-status td")]
    assert FORMULA in cells


# HTML ids -----------------------------------------------------------------------------------------

@pytest.mark.site_edits
def test_no_page_holds_an_id_twice(pages) -> None:
    for name, page in pages.items():
        ids = [element["id"] for element in page.find_all(id=True)]
        duplicates = sorted({anchor for anchor in ids if ids.count(anchor) > 1})
        assert not duplicates, f"{name}: duplicate ids {duplicates}"


@pytest.mark.site_edits
def test_every_internal_fragment_exists_on_its_page(planted_site: tuple[Any, dict[str, str]], pages) -> None:
    site = planted_site[0]  # its ids of each page, gathered once (the history pages hold thousands)
    for name, page in pages.items():
        for link in page.find_all("a", href=True):
            href = link["href"]
            if "://" in href or href.startswith(("mailto:", "javascript:")) or "#" not in href:
                continue
            target, fragment = urldefrag(urljoin(name, href))
            if not fragment or not target.endswith(".html"):
                continue
            assert target in pages, f"{name}: link to a missing page {href}"
            assert fragment in site.ids(target), f"{name}: {href} has no element #{fragment}"


def _row_first_cell(element: Any) -> str:
    assert element is not None and element.name == "tr", element
    return element.find("td").get_text(" ", strip=True)


@pytest.mark.site_edits
def test_every_object_lands_on_its_own_place(planted_site, pages) -> None:
    site, planted = planted_site
    catalog = load_catalog(Path(site.app.config.neuron_data_dir))
    inventory = _inventory(site.outdir)
    # Other entries (published models by their published name, search aliases) land on their object's
    # place: a canonical entry's, or a row that names them.
    def canonical(objtype: str, records: Any) -> dict[str, Any]:
        entries = inventory[objtype]
        places = {_uri(entry) for key, entry in entries.items() if key in records}
        for key, entry in entries.items():
            if key not in records and _uri(entry) not in places:
                row = _target(pages, _uri(entry))
                assert row is not None and row.name == "tr", (objtype, key)
                assert key.split(" (")[0] in row.get_text(" ", strip=True), (objtype, key)
        return {key: entry for key, entry in entries.items() if key in records}

    for instance_id, entry in canonical("neuron:instance", catalog.instances).items():
        assert _row_first_cell(_target(pages, _uri(entry))) == instance_id
    # An object is in the inventory under its id, and under its title where search needs it.
    models = {**{m.name: m for m in catalog.models.values()}, **catalog.models}
    aliases: dict[str, set[str]] = {}  # a model's other name -> the tables' spellings of that model
    for model in catalog.published_models.values():
        root = model.same_as or model.id
        for alias in model.aliases:
            aliases.setdefault(alias, set()).update(
                m.name for m in catalog.published_models.values() if root in (m.id, m.same_as))
    for name, entry in inventory["neuron:model"].items():  # a published model: its first row on its page
        first = _row_first_cell(_target(pages, _uri(entry)))
        if name in aliases and name not in models:  # "SDXL": a row of the model it names
            assert first in aliases[name], (name, first)
        else:
            assert first == (models[name].name if name in models else name)
    families = {**{f.name: f for f in catalog.families.values()}, **{f.title: f for f in catalog.families.values()},
                **catalog.families}
    for name, entry in inventory["neuron:family"].items():
        section = _target(pages, _uri(entry))
        assert section.name == "section", entry
        heading = section.find(["h1", "h2", "h3", "h4"]).get_text(strip=True).rstrip("#¶")
        if name in families:
            assert heading == families[name].title
        else:  # another name of a family ("LLM", "BERT-like models"): it lands on a family's section
            assert heading in {f.title for f in catalog.families.values()}, name
    anchors = {_uri(inventory["neuron:instance"][planted[k]]) for k in ("instance", "instance_twin")}
    assert len(anchors) == 2


@pytest.mark.site_edits
def test_the_section_of_a_family_on_a_device_is_not_the_planted_family(planted_site, pages) -> None:
    site, planted = planted_site
    catalog = load_catalog(Path(site.app.config.neuron_data_dir))
    family = catalog.families[planted["family_of_section"]]
    device = catalog.devices[planted["device"]]
    page = urldefrag(_uri(_inventory(site.outdir)["neuron:family"][family.id]))[0]
    section = _target(pages, _uri(_inventory(site.outdir)["neuron:family"][family.id]))
    titles = [s.find(["h2", "h3", "h4", "h5"]).get_text(strip=True).rstrip("#¶")
              for s in section.find_all("section", recursive=False)]
    assert device.name in titles
    planted_place = _target(pages, _uri(_inventory(site.outdir)["neuron:family"][planted["family"]]))
    assert planted_place not in section.find_all("section")
    # The local table of contents links the device section of the family, not the planted family.
    sub = next(s for s in section.find_all("section", recursive=False)
               if s.find(["h2", "h3", "h4", "h5"]).get_text(strip=True).rstrip("#¶") == device.name)
    assert any(a["href"] == f"#{sub['id']}" for a in pages[page].find_all("a", href=True))


@pytest.mark.site_edits
def test_links_in_tables_land_on_their_object(planted_site, pages) -> None:
    site, _ = planted_site
    inventory = _inventory(site.outdir)
    checked = 0
    for name, page in pages.items():
        for link in page.select("a.reference.internal"):
            span = link.find("span", class_="neuron-instance")
            if span is None or "#" not in link["href"]:
                continue
            target = urljoin(name, link["href"])
            assert target == _uri(inventory["neuron:instance"][span.get_text(strip=True)]), (name, link)
            checked += 1
    assert checked
