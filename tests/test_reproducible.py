"""Reproducible output: the same sources and data give the same bytes, however and whenever built.

- Two clean builds of the real site give byte-identical files: every HTML page, every generated
  asset (CSV and JSON downloads, search index, inventory, sitemap, static files), whether built
  serially or in parallel (``make html SPHINXOPTS="-j 2"``, strict), with the data loaded afresh
  or from the catalog cache, in one build directory or another.
- No page carries the date of the build (dates on pages come from the data).
- ``make html`` publishes no doctrees and no path of its build directory.

Two builds prove all of it: the session's (Sphinx's API, serial, with the catalog cache) and
``make html`` in a build directory of its own (``make_tree``): with ``-j 2``, loading the data
afresh (no catalog cache).

Nothing is excluded as volatile except, in ``sitemap.xml``, the order of the URLs: sphinx-sitemap
lists pages in the order they are written, which under ``-j`` is the order in which worker
processes finish (the set of URLs must still be equal).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers.paths import REPO
from helpers.warnings import real_warnings

#: Whole-site builds with other builders (or make html): make test-e2e runs them, make test leaves them out.
pytestmark = pytest.mark.builders

#: Files whose content may differ only in the order of their entries (see the module docstring).
ORDER_FREE = {"sitemap.xml"}


def _files(outdir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(outdir)): p.read_bytes() for p in sorted(outdir.rglob("*"))
            if p.is_file() and ".doctrees" not in p.relative_to(outdir).parts}


def _sitemap_urls(content: bytes) -> list[str]:
    return sorted(re.findall(r"<url>.*?</url>", content.decode("utf-8"), flags=re.S))


def assert_same_output(expected_dir: Path, actual_dir: Path) -> None:
    """Every file of the two trees byte for byte, the files of ``ORDER_FREE`` up to the order of
    their entries (a parallel build is one of the two)."""
    expected, actual = _files(expected_dir), _files(actual_dir)
    assert sorted(actual) == sorted(expected), "the two builds wrote different files"
    assert any(name.endswith(".html") for name in expected)
    differing = []
    for name, content in expected.items():
        if name in ORDER_FREE:
            if _sitemap_urls(actual[name]) != _sitemap_urls(content):
                differing.append(name)
        elif actual[name] != content:
            differing.append(name)
    assert not differing, f"files differ between the builds: {differing}"


def _make_html(builddir: Path, options: str = "") -> Path:
    """``make html`` (strict: a warning fails it) into ``builddir``; it says nothing else either."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS"))}
    result = subprocess.run(["make", "-C", str(REPO), "html", f"SPHINXOPTS=-q {options}".strip(),
                             f"BUILDDIR={builddir}"], capture_output=True, text=True, timeout=600, env=env,
                            check=False)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output and "Traceback" not in output, output
    return builddir / "html"


@pytest.fixture(scope="module")
def make_tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``make html`` in a build directory of its own: in parallel (``-j 2``), loading the data afresh
    (no catalog cache, ``-D neuron_cache_dir=``); the root it is under, and the published tree."""
    root = tmp_path_factory.mktemp("make")
    return root, _make_html(root / "build", "-j 2 -D neuron_cache_dir=")


def test_two_clean_builds_are_byte_identical(site: Any, make_tree: tuple[Path, Path]) -> None:
    """The session's build (Sphinx's API, serial, the catalog from its cache) and ``make html -j 2``
    (strict: ``_make_html``), loading the data afresh, in another directory: the same files, byte for
    byte (``sitemap.xml`` up to the order of its URLs, which a parallel build writes as its workers
    finish)."""
    assert real_warnings(site.warnings) == ""
    assert_same_output(site.outdir, make_tree[1])


def test_generated_assets_are_compared(site: Any) -> None:
    """The comparison above covers the generated downloads and indexes, not only the pages."""
    names = set(_files(site.outdir))
    assert {"searchindex.js", "objects.inv", "_static/basic.css"} <= names
    assert any(n.startswith("_downloads/") for n in names), "expected generated downloads"


def test_no_page_carries_the_build_date(site: Any) -> None:
    today = dt.datetime.now(dt.UTC).date()
    stamps = {today.isoformat(), today.strftime("%b %d, %Y"), today.strftime("%d %B %Y"),
              today.strftime("%B %d, %Y"), f"{today:%b} {today.day}, {today.year}"}
    for path in site.outdir.rglob("*"):
        if path.suffix in {".html", ".json", ".csv", ".xml", ".js"} and path.is_file():
            text = path.read_text(encoding="utf-8")
            found = [s for s in stamps if s in text]
            assert not found, f"{path.relative_to(site.outdir)} holds the build date {found}"


def test_make_html_publishes_no_doctrees_and_no_build_path(make_tree: tuple[Path, Path]) -> None:
    """``make html BUILDDIR=...`` publishes neither doctrees (pickles holding absolute paths of the
    build machine) nor a path of the build directory (its tree is the session's, built elsewhere:
    ``test_two_clean_builds_are_byte_identical``)."""
    root, tree = make_tree
    published = [p.relative_to(tree) for p in tree.rglob("*")]
    assert published
    assert not [p for p in published if ".doctrees" in p.parts or p.suffix in {".doctree", ".pickle"}]
    assert not [p for p in tree.rglob("*") if p.is_file() and str(root).encode() in p.read_bytes()]
