"""The index of CSV downloads follows the pages it lists in an incremental build (issue 37 (f)).

A tiny root (``roots/test-csv-index``): a page with a generated table under a section heading, and
the index. The page's title or heading changes, the build is incremental: the index is written
again and names the new heading and title, in its HTML and in its own CSV.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path
from typing import Any

from helpers.paths import DATA

ROOT = Path(__file__).resolve().parent / "roots" / "test-csv-index"


def _build(make_app: Any, srcdir: Path) -> tuple[list[str], list[str]]:
    """Build (incrementally); the pages read and the pages written."""
    read: list[str] = []
    written: list[str] = []
    app = make_app("html", srcdir=srcdir, confoverrides={"neuron_data_dir": str(DATA), "neuron_cache_dir": ""})
    app.connect("env-before-read-docs", lambda _app, _env, docnames: read.extend(docnames))
    app.connect("doctree-resolved", lambda _app, _doctree, docname: written.append(docname))
    app.build()
    assert "Traceback" not in app.warning.getvalue()
    return sorted(read), sorted(written)


def _index_rows(srcdir: Path) -> list[list[str]]:
    found = list((srcdir / "_build" / "html").rglob("csv-index.csv"))
    assert len(found) == 1, found
    return list(csv.reader(found[0].read_text(encoding="utf-8").splitlines()))


def _index_html(srcdir: Path) -> str:
    return (srcdir / "_build" / "html" / "downloads.html").read_text(encoding="utf-8")


def test_the_csv_index_is_rewritten_when_a_listed_pages_heading_or_title_changes(make_app: Any, tmp_path: Path) -> None:
    srcdir = tmp_path / "site"
    shutil.copytree(ROOT, srcdir)
    _build(make_app, srcdir)
    assert "Section before the change" in _index_html(srcdir)
    assert "Page with a table" in _index_html(srcdir)

    page = srcdir / "tables.rst"
    text = page.read_text(encoding="utf-8")
    # The section's heading only: no page's navigation shows it, only the index does.
    page.write_text(text.replace("Section before the change", "Section after the change "), encoding="utf-8")
    read, written = _build(make_app, srcdir)
    assert read == ["tables"]  # the index page itself is not read again: only written
    assert "downloads" in written
    html = _index_html(srcdir)
    assert "Section after the change" in html and "Section before the change" not in html
    rows = _index_rows(srcdir)
    assert any("Section after the change" in cell for row in rows for cell in row), rows
    assert not any("Section before the change" in cell for row in rows for cell in row), rows

    # The page's title (the index's "Page" column).
    page.write_text(page.read_text(encoding="utf-8").replace("Page with a table", "Page renamed now "),
                    encoding="utf-8")
    read, written = _build(make_app, srcdir)
    assert "downloads" in written
    assert "Page renamed now" in _index_html(srcdir) and "Page with a table" not in _index_html(srcdir)

    read, written = _build(make_app, srcdir)  # nothing changed: nothing is read or written
    assert read == [] and written == []
    assert "Section after the change" in _index_html(srcdir)
