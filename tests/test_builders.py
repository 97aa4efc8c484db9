"""Every builder a user may choose builds the real site strictly, with correct links and no internal text.

html, dirhtml, singlehtml, epub and latex build the real site, text and linkcheck the writer's guide's
small test root, each with Sphinx's API like ``make html`` (nitpicky, every warning collected): no
warning; every link lands, the downloads where that builder's reader finds them (beside the pages
for the HTML builders, on the published site for the others, checked by linkcheck against the built
pages served locally); the ePub's pages well-formed XHTML without foreign files, its charts SVG
files; every LaTeX reference with its label (what pdflatex would report undefined), the charts drawn
and wide tables split; the text without the figures' tooltips. The PDF itself is compiled by
``make pdf`` (CI), not here.
"""

from __future__ import annotations

import functools
import http.server
import json
import posixpath
import re
import shutil
import threading
import zipfile
from collections import Counter
from io import StringIO
from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import pytest
from lxml import etree
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace, patch_docutils

from helpers.html import soup_of
from helpers.paths import FROZEN_DATA
from helpers.site import SiteBuild, build_site
from neuron_docs.site.latex_tables import SPLIT_ABOVE

#: Whole-site builds with other builders (or make html): make test-e2e runs them, make test leaves them out.
pytestmark = pytest.mark.builders


def built(tmp_path_factory: pytest.TempPathFactory, builder: str, **overrides: object) -> SiteBuild:
    result = build_site(tmp_path_factory.mktemp(builder), builder=builder, **overrides)
    assert result.warnings == "", result.warnings
    return result


@pytest.mark.parametrize("builder", ["dirhtml", "singlehtml"])
def test_html_builders_link_within_the_site(tmp_path_factory: pytest.TempPathFactory, builder: str) -> None:
    """Every relative link lands on a file and an id it has (the single page's too: one anchor a link);
    the downloads beside the pages. (The 404 page's links are absolute paths on the server.)"""
    result = built(tmp_path_factory, builder)
    pages = {page.resolve(): soup_of(page)
             for page in result.outdir.rglob("*.html") if not {"_static", "404"} & set(page.parts)
             and page.name != "404.html"}
    ids = {page: {element["id"] for element in soup.select("[id]")} for page, soup in pages.items()}
    broken, downloads = [], 0
    for page, soup in pages.items():
        for link in soup.select("a[href]"):
            href = link["href"]
            if urlsplit(href).scheme or href.startswith("mailto:"):
                continue
            path, fragment = urldefrag(href)
            target = (page.parent / unquote(path)).resolve() if path else page
            target = target / "index.html" if target.is_dir() else target
            downloads += "_downloads/" in href
            if not target.is_file() or (fragment and target in ids and fragment not in ids[target]):
                broken.append((str(page.relative_to(result.outdir.resolve())), href))
    assert broken == []
    assert downloads > 100
    # The advisor's links (its JSON, for its script): one "#" each, landing on a page and an id it has.
    advisor = [(page, json.loads(script.string)["links"]) for page, soup in pages.items()
               for script in soup.select("script#neuron-advisor-data")]
    assert advisor
    for page, links in advisor:
        assert [href for href in links.values() if href.count("#") != 1] == []
        for href in links.values():
            path, fragment = urldefrag(href)
            target = (page.parent / unquote(path)).resolve() if path else page
            target = target / "index.html" if target.is_dir() else target
            assert target in ids and fragment in ids[target], href


def test_epub_is_valid_and_links_downloads_to_the_site(tmp_path_factory: pytest.TempPathFactory,
                                                       site: SiteBuild) -> None:
    result = built(tmp_path_factory, "epub")
    [book] = result.outdir.glob("*.epub")
    base = result.app.config.html_baseurl  # type: ignore[attr-defined]
    with zipfile.ZipFile(book) as archive:
        names = archive.namelist()
        assert not [n for n in names if n.endswith((".csv", ".json"))]
        pages = [n for n in names if n.endswith(".xhtml")]
        ids: dict[str, set[str]] = {}
        links: list[tuple[str, str]] = []
        images: list[tuple[str, str]] = []
        widest: list[int] = []
        for name in pages:
            tree = etree.fromstring(archive.read(name))  # raises on XHTML that is not well-formed XML
            ids[name] = set(tree.xpath("//@id"))
            links += [(name, href) for href in tree.xpath("//*[local-name()='a']/@href")]
            images += [(name, src) for src in tree.xpath("//*[local-name()='img']/@src") if "_neuron_charts/" in src]
            widest += [len(row.xpath("*[local-name()='td' or local-name()='th']"))
                       for row in tree.xpath("//*[local-name()='tr'][not(ancestor::*[local-name()='tr'])]")
                       if not row.xpath("*[@colspan or @rowspan]")]
            assert not tree.xpath("//*[local-name()='svg']"), name
    charts = [href for _, href in images]  # the history's charts too: as images, as in the PDF
    assert charts and len(charts) == sum(len(site.soup(str(p.relative_to(site.outdir))).select(
        "div.neuron-chart-canvas")) for p in site.outdir.rglob("*.html") if "_static" not in p.parts)
    assert widest and max(widest) <= SPLIT_ABOVE  # wide tables split as the PDF's (readable at 600 px)
    for name, href in images:  # the charts as SVG files of the book (inline SVG is undeclared in Sphinx's OPF)
        assert posixpath.normpath(posixpath.join(posixpath.dirname(name), href)) in names, (name, href)
    downloads = [href for _, href in links if "_downloads/" in href]
    assert downloads and all(href.startswith(base) for href in downloads)
    published = {str(p.relative_to(site.outdir)) for p in (site.outdir / "_downloads").rglob("*")}
    assert {href[len(base):] for href in downloads} <= published  # the HTML build writes each one
    for name, href in links:  # every link inside the book lands on a page and an id it has
        if urlsplit(href).scheme or href.startswith("mailto:"):
            continue
        path, fragment = urldefrag(href)
        target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(path))) if path else name
        assert target in ids, (name, href)
        assert not fragment or fragment in ids[target], (name, href)


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="the PDF's charts need rsvg-convert (librsvg2-bin)")
def test_latex_every_reference_has_its_label(tmp_path_factory: pytest.TempPathFactory, site: SiteBuild) -> None:
    """What pdflatex reports as undefined references, read from the ``.tex`` without compiling it; every
    chart drawn, no table wider than a page holds."""
    result = built(tmp_path_factory, "latex")
    [tex] = result.outdir.glob("*.tex")
    text = tex.read_text(encoding="utf-8")
    # The charts of neuron:chart, the performance tables and the history pages.
    charts = sum(len(site.soup(str(p.relative_to(site.outdir))).select("div.neuron-chart-canvas"))
                 for p in site.outdir.rglob("*.html") if "_static" not in p.parts)
    drawn = re.findall(r"\\sphinxincludegraphics\[[^]]*\]\{\{(_neuron_charts/[0-9a-f]+)\}\.pdf\}", text)
    assert charts and len(drawn) == charts
    assert all((result.outdir / f"{name}.pdf").is_file() for name in drawn)
    widths = [line.count("\\X{") or line.count("T") for line in
              re.findall(r"\\begin\{(?:longtable|tabulary|tabular)\}(?:\[t\])?(\{.*)", text)]
    assert widths and max(widths) <= SPLIT_ABOVE
    assert "Continued: columns" in text  # the published performance tables, split
    # Every table of the HTML pages is in the PDF (share 100 %; a split table's parts counted once), but
    # the advisor's static table, a block per family (devices ranked), the index of CSV files, a list, and
    # the history's index of configurations (a filter of the web pages: the book holds every configuration).
    pages = [p for p in site.outdir.rglob("*.html") if not {"_static", "_downloads"} & set(p.parts)
             and p.stem not in ("404", "search", "genindex")]
    html_tables = sum(len(site.soup(str(p.relative_to(site.outdir))).select(
        "table:not(#advisor-all-families):not(.neuron-csv-index):not(.neuron-history-index)")) for p in pages)
    latex_tables = len(re.findall(r"\\begin\{(?:longtable|tabulary|tabular)\}", text)) - text.count("Continued: columns")
    assert latex_tables == html_tables
    assert text.count("{sphinxuseclass}{neuron-advisor-family}") > 5
    assert re.findall(r"\\part\{([^}]*)\}", text) == ["Choosing a device", "Performance and cost", "Reference"]
    assert r"\renewcommand{\contentsname}{Contents}" in text
    labels = Counter(re.findall(r"\\label\{\\detokenize\{([^}]*)\}\}", text))
    references = set(re.findall(r"\\hyperref\[\\detokenize\{([^}]*)\}\]", text))
    assert len(references) > 100
    assert sorted(references - set(labels)) == []
    assert [label for label, count in labels.items() if count > 1] == []
    assert len([label for label in labels if label.endswith("::doc")]) >= 25  # Sphinx's page labels kept
    base = result.app.config.html_baseurl  # type: ignore[attr-defined]
    downloads = {link.replace("\\_", "_") for link in
                 re.findall(r"\\sphinxhref\{" + re.escape(base) + r"(\\_downloads/[^}]*)\}", text)}
    assert "_downloads/neuron-data.json" in downloads and len(downloads) > 50
    published = {str(p.relative_to(site.outdir)) for p in (site.outdir / "_downloads").rglob("*")}
    assert downloads <= published  # the HTML build writes each one


GUIDE = Path(__file__).resolve().parent / "roots" / "test-writers-guide"


def build_guide(outdir: Path, builder: str, **overrides: object) -> Path:
    """The writer's guide's small test root (figures, blank cells, a download link), built strictly."""
    warnings = StringIO()
    with patch_docutils(GUIDE), docutils_namespace():
        app = Sphinx(GUIDE, GUIDE, outdir / builder, outdir / f"doctrees-{builder}", builder,
                     confoverrides={"neuron_data_dir": str(FROZEN_DATA), **overrides}, status=StringIO(),
                     warning=warnings, freshenv=True)
        app.build()
    assert warnings.getvalue() == ""
    return outdir / builder


@pytest.fixture(scope="module")
def guide_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_guide(tmp_path_factory.mktemp("guide"), "html")


def test_text_has_no_tooltips(tmp_path_factory: pytest.TempPathFactory, guide_html: Path) -> None:
    outdir = build_guide(tmp_path_factory.mktemp("guide-text"), "text")
    abbrs = [abbr for page in guide_html.glob("*.html")
             for abbr in soup_of(page).select("abbr[title]")]
    tooltips = {abbr["title"] for abbr in abbrs if "neuron-blank" not in abbr.get("class", [])}
    assert tooltips and any("neuron-value" in abbr.get("class", []) for abbr in abbrs)
    text = re.sub(r"\s+", " ", "\n".join(page.read_text(encoding="utf-8") for page in outdir.glob("*.txt")))
    assert [tip for tip in tooltips if f"({tip})" in text] == []
    doubled = re.findall(r"(\([^()]+\)) \1", text)  # a blank cell's words once, not again as its tooltip
    assert doubled == []


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def test_linkcheck_finds_every_download_on_the_built_site(tmp_path_factory: pytest.TempPathFactory,
                                                          guide_html: Path) -> None:
    """linkcheck, strict; the links to the site's downloads of hand-written pages checked against the site
    built from the same pages, served locally (other external links are not checked: no network here)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(guide_html)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        outdir = build_guide(tmp_path_factory.mktemp("guide-linkcheck"), "linkcheck", html_baseurl=base,
                             linkcheck_ignore=[rf"^(?!{re.escape(base)})"], linkcheck_workers=2)
    finally:
        server.shutdown()
    checked = [json.loads(line) for line in (outdir / "output.json").read_text(encoding="utf-8").splitlines()]
    assert [entry for entry in checked if entry["status"] == "broken"] == []
    ours = {entry["uri"]: entry["status"] for entry in checked if entry["uri"].startswith(base)}
    assert ours == {urljoin(base, "_downloads/neuron-data.json"): "working"}
