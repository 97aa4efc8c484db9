"""Every output holds every page's content: the benchmark history and What's new outside HTML.

The history pages and What's new's benchmark changes (``roots/test-history``) are written as HTML from
templates on the web pages; the text and manual-page builders get the same content as docutils nodes
(:mod:`neuron_docs.site.html_only`). Each configuration's table of the HTML is in the text and the
manual pages (same count, same titles), and every change What's new lists; the PDF's share is
measured on the real site in ``tests/test_builders.py``. The advisor's static table is a block per
family outside HTML (:mod:`neuron_docs.site.advisor_blocks`), made from its model
(``tests/test_advisor_blocks_rules.py``) and tested on the real site's LaTeX there.
"""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace, patch_docutils

from helpers.html import soup_of
from helpers.paths import FROZEN_DATA

REAL_DATA = {"neuron_data_dir": str(FROZEN_DATA)}


def _html_content(outdir: Path) -> tuple[list[str], int, list[str]]:
    """The configurations' titles, their tables and the changes' entries of the HTML pages."""
    titles, tables, changes = [], 0, []
    for page in sorted(outdir.rglob("*.html")):
        soup = soup_of(page)
        titles += [p.get_text() for p in soup.select("p.neuron-benchmark-title")]
        tables += len(soup.select("table.neuron-benchmark-history-table"))
        changes += [li.get_text(" ", strip=True) for li in soup.select("ul.neuron-benchmark-change-list > li")]
    return titles, tables, changes


ROOT = Path(__file__).resolve().parent / "roots" / "test-history"


def _build(outdir: Path, builder: str) -> Path:
    """The history root built strictly (every warning collected) by ``builder``."""
    warnings = StringIO()
    with patch_docutils(ROOT), docutils_namespace():
        app = Sphinx(ROOT, ROOT, outdir / builder, outdir / "doctrees", builder, confoverrides=REAL_DATA,
                     status=StringIO(), warning=warnings, freshenv=True)
        app.build()
    assert warnings.getvalue() == ""
    return outdir / builder


@pytest.fixture(scope="module")
def history_html(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], int, list[str]]:
    return _html_content(_build(tmp_path_factory.mktemp("history"), "html"))


#: What the writers make of the text: smart quotes (text), roff's escapes (man).
_SAME = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\\(dq": '"', "\\(aq": "'", "\\(ga": "`",
         "\\-": "-", "\\(em": "\u2014", "\\(en": "\u2013", "\\e": "\\", "\\&": ""}


def _words(text: str) -> str:
    for written, meant in _SAME.items():
        text = text.replace(written, meant)
    return re.sub(r"\s+", "", text)  # the writers wrap lines, after a hyphen too


@pytest.mark.builders
@pytest.mark.parametrize("builder", ["text", "man"])
def test_history_and_changes_are_in_every_output(tmp_path_factory: pytest.TempPathFactory,
                                                 history_html: tuple[list[str], int, list[str]], builder: str) -> None:
    titles, tables, changes = history_html
    assert len(titles) == tables > 100 and len(changes) > 100
    outdir = _build(tmp_path_factory.mktemp(builder), builder)
    files = [p for p in outdir.rglob("*") if p.is_file() and p.suffix in (".txt", ".1")]
    raw = "\n".join(p.read_text(encoding="utf-8") for p in files)
    # A table of the text writer has one heading rule ("|===|"); tbl's manual page, one ".TS".
    found = len(re.findall(r"^\|=+", raw, re.MULTILINE)) if builder == "text" else raw.count(".TS")
    assert found == tables  # share of the HTML's history tables: 100 %
    text = _words(raw)
    assert [title for title in titles if _words(title) not in text] == []
    assert [change for change in changes if _words(change.split(":")[0]) not in text] == []


def test_the_pdf_log_is_read_for_pages_and_overfull_boxes() -> None:
    from neuron_docs.site.latex_log import read_fit

    log = ("Overfull \\hbox (12.5pt too wide) in paragraph at lines 1--2\n"
           "Overfull \\hbox (0.5pt too wide) detected at line 3\n"
           "Overfull \\vbox (3.0pt too high) has occurred while \\output is active []\n"
           "Output written on x.pdf (42 pages, 1000 bytes).\n")
    fit = read_fit(log)
    assert (fit.pages, fit.hboxes, fit.vboxes, fit.wide_hboxes) == (42, [12.5, 0.5], [3.0], [12.5])
    assert "42 pages; overfull vboxes: 1; overfull hboxes: 2 (1 <=1pt, 0 1-5pt, 0 5-10pt, 1 >10pt)" == fit.summary()
    # make pdf applies this reading to the PDF it builds and fails on an overfull vbox or an hbox over 10 pt.

