"""Downloads: a CSV file per generated table with a link under it, the data set as schema-valid JSON."""

from __future__ import annotations

import csv
import re
import io
import json
from urllib.parse import urljoin

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from neuron_docs.site.downloads.data_json import SCHEMA_VERSION, data_document
from neuron_docs.site.downloads.data_schema import json_schema
from neuron_docs.site.downloads.table_csv import table_csv

PAGES = ["architecture-fit.html", "devices/inferentia.html", "inference/results-analysis.html",
         "training/inferentia2.html", "instances.html"]


@pytest.fixture(scope="module")
def document(site) -> dict:
    return json.loads((site.outdir / "_downloads" / "neuron-data.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def schema(site) -> dict:
    return json.loads((site.outdir / "_downloads" / "neuron-data.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES)
def test_every_named_table_has_a_csv_and_a_link(site, page):
    soup = site.soup(page)
    links = soup.select("p.neuron-download a.neuron-download-link")
    assert links, f"no download links on {page}"
    for link in links:
        href = link["href"]
        assert href.endswith(".csv") and "_downloads/tables/" in href
        path = (site.outdir / urljoin(page, href)).resolve()
        assert path.is_file(), href
        table = link.find_parent("p").find_previous_sibling(lambda t: t.name in ("table", "div"))
        table = table if table.name == "table" else table.find("table")
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
        headers = [th.get_text(" ", strip=True) for th in table.select("thead th")]
        if "neuron-benchmark-table" in table["class"]:  # one CSV row per run, a table row per configuration
            assert len(rows) - 1 == sum(len(tr.get("id", "").split()) + len(tr.select("span[id]"))
                                        for tr in table.select("tbody tr"))
            continue
        # The same columns, a figure's unit moved into its header (and the footnotes as a last column).
        columns = [h for h in rows[0] if not h.endswith(" unit")]  # a figure's unit may get a column
        assert all(h == shown or re.fullmatch(re.escape(shown) + r" \([^)]+\)", h)
                   for h, shown in zip(columns, headers, strict=False)), (rows[0], headers)
        assert columns[len(headers):] in ([], ["Notes"])
        assert len(rows) - 1 == len(table.select("tbody tr"))


def test_matrix_csv_has_badge_words_and_no_note_numbers(site, catalog):
    rows = list(csv.reader(io.StringIO(
        (site.outdir / "_downloads/tables/support-matrix-inferentia.csv").read_text(encoding="utf-8"))))
    rev = catalog.revision()
    end = -1 if rows[0][-1] == "Notes" else None  # the footnotes, kept in a last column
    statuses = {cell for row in rows[1:] for cell in row[3:end]}
    # no "since" dates, no note numbers; a blank cell is empty
    assert statuses and statuses <= {d.label for d in rev.statuses.values()} | {""}
    assert {row[2] for row in rows[1:]} <= set(rev.fits.values())


def test_table_csv_quotes_commas():
    from neuron_docs.render.tables import build_table

    text = table_csv(build_table(["A", "B"], [["x, y", "z"]]))
    assert text == 'A,B\n"x, y",z\n'


def test_schema_is_valid_and_versioned(schema):
    Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith(f"neuron-data-{SCHEMA_VERSION.split('.')[0]}.schema.json")
    assert schema == json.loads(json.dumps(json_schema()))


def test_json_validates_against_the_schema(document, schema):
    errors = sorted(Draft202012Validator(schema, format_checker=FormatChecker()).iter_errors(document),
                    key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    assert document["schema_version"] == SCHEMA_VERSION


def test_json_holds_the_whole_data_set(document, catalog):
    for name, records in document["collections"].items():
        assert [r["id"] for r in records] == list(catalog.records[name]), name
    assert document["data_fingerprint"] == catalog.fingerprint
    assert document["values"]["run:vit-inf1-b3:cost_per_1m"]["derived"] is True
    assert document == json.loads(json.dumps(data_document(catalog)))


def test_schema_rejects_a_broken_document(document, schema):
    broken = json.loads(json.dumps(document))
    broken["collections"]["instances"][0]["price"]["usd_per_hour"] = "cheap"
    assert list(Draft202012Validator(schema).iter_errors(broken))


def test_downloads_page_links_the_files(site):
    page = site.soup("downloads.html")
    hrefs = {a["href"] for a in page.select("a.reference.external")}
    assert {"_downloads/neuron-data.json", "_downloads/neuron-data.schema.json"} <= hrefs
    assert SCHEMA_VERSION in page.get_text()


def test_site_extras(site):
    """Copy buttons, a 404 page, a sitemap with the canonical base URL, data dates on pages."""
    html = site.html("devices/inferentia.html")
    assert "copybutton.js" in html and "neuron-tables.js" in html and "neuron.css" in html
    assert (site.outdir / "404.html").is_file()
    sitemap = (site.outdir / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{site.app.config.html_baseurl}devices/inferentia.html</loc>" in sitemap
    line = site.soup("devices/inferentia.html").select_one("p.neuron-data-updated")
    assert line is not None and "Data last updated" in line.get_text()
    assert (site.outdir / "_static" / "neuron-tables.js").is_file()


def _csvs(site) -> dict[str, list[list[str]]]:
    folder = site.outdir / "_downloads" / "tables"
    return {p.name: list(csv.reader(io.StringIO(p.read_text(encoding="utf-8")))) for p in sorted(folder.glob("*.csv"))}


UNIT_HEADER = re.compile(r"\((USD(/h)?|ms|s|%|inferences/s|Gbps|GB|GB/s|TFLOPS|x)\)$")


def test_every_csv_parses_and_its_figures_are_numbers(site):
    """Every CSV parses with one width; a column whose header carries a unit holds plain numbers."""
    tables = _csvs(site)
    assert len(tables) > 20
    numeric = 0
    for name, rows in tables.items():
        assert rows and len({len(r) for r in rows}) == 1, name
        for column, header in enumerate(rows[0]):
            if UNIT_HEADER.search(header):
                numeric += 1
                for row in rows[1:]:
                    if row[column]:
                        float(row[column])  # raises on "$0.362/h"
            assert not any(re.fullmatch(r"\$\d[\d,.]*(/h)?", row[column]) for row in rows[1:]), (name, header)
    assert numeric > 10
    prices = tables["instances.csv"]
    assert "On-demand price (USD/h)" in prices[0]


def test_the_downloads_page_indexes_every_csv_with_its_page(site):
    page = site.soup("downloads.html")
    index = page.find("table", id="csv-index")
    listed = {tr.find("td").get_text(strip=True) for tr in index.select("tbody tr")}
    assert listed == set(_csvs(site))
    for tr in index.select("tbody tr"):
        link, page_link = tr.find_all("td")[0].a, tr.find_all("td")[2].a
        assert (site.outdir / urljoin("downloads.html", link["href"])).is_file()
        if page_link["href"]:
            assert (site.outdir / urljoin("downloads.html", page_link["href"]).split("#")[0]).is_file()


def test_matrix_footnotes_are_kept_in_the_csv(site):
    page = site.soup("architecture-fit.html")
    for table in page.select("table.neuron-table"):
        notes = table.find_next("ol", class_="neuron-cell-notes")
        if not table.select("a.neuron-note-marker") or notes is None:
            continue
        rows = _csvs(site)[f"{table['id']}.csv"]
        assert rows[0][-1] == "Notes"
        text = " ".join(r[-1] for r in rows[1:])
        for item in notes.find_all("li"):
            assert " ".join(item.get_text(" ", strip=True).split()) in " ".join(text.split())
        break
    else:
        pytest.skip("no matrix with notes in today's data")
