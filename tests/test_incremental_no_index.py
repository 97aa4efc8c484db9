"""An incremental build agrees with a clean one when ``:no-index:`` settles a duplicate, MyST or reST.

Two pages describe the same instances (``neuron:instance-table``), a third links to one by hand. The
first build reports the duplicates; adding ``:no-index:`` to one of the two (the MyST page, or the reST
one) and building again incrementally gives no warning, the objects where a clean build of the same
pages puts them, and the link resolved; so does the build after.
"""

from __future__ import annotations

import time
from io import StringIO
from pathlib import Path

import pytest
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace, patch_docutils

from helpers.paths import FROZEN_DATA

CONF = 'extensions = ["neuron_docs", "myst_parser"]\nsource_suffix = {".rst": "restructuredtext", ".md": "markdown"}\n'
INDEX = "Index\n=====\n\n.. toctree::\n\n   a\n   b\n   links\n"
MYST = "# A\n\n```{{neuron:instance-table}}\n:device: inferentia2\n{option}```\n"
REST = "B\n=\n\n.. neuron:instance-table::\n   :device: inferentia2\n{option}"
LINKS = "Links\n=====\n\nSee :neuron:instance:`inf2.xlarge`.\n"


def _write(src: Path, myst_option: str = "", rest_option: str = "") -> None:
    src.mkdir(parents=True, exist_ok=True)
    files = {"conf.py": CONF, "index.rst": INDEX, "a.md": MYST.format(option=myst_option),
             "b.rst": REST.format(option=rest_option), "links.rst": LINKS}
    for name, text in files.items():
        path = src / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _build(src: Path, out: Path, fresh: bool) -> tuple[str, dict[tuple[str, str], str]]:
    warnings = StringIO()
    with patch_docutils(src), docutils_namespace():
        app = Sphinx(src, src, out / "html", out / "doctrees", "html", status=StringIO(), warning=warnings,
                     freshenv=fresh, confoverrides={"neuron_data_dir": str(FROZEN_DATA), "nitpicky": True})
        app.build()
    objects = app.env.get_domain("neuron").objects  # type: ignore[attr-defined]
    return warnings.getvalue(), {key: entry.docname for key, entry in objects.items() if key[0] == "instance"}


@pytest.mark.parametrize(("myst_option", "rest_option"), [(":no-index:\n", ""), ("", "   :no-index:\n")],
                         ids=["myst", "rest"])
def test_no_index_incremental_build_agrees_with_a_clean_one(tmp_path: Path, myst_option: str,
                                                            rest_option: str) -> None:
    src = tmp_path / "src"
    _write(src)
    warnings, _ = _build(src, tmp_path / "inc", fresh=True)
    assert "duplicate instance" in warnings
    time.sleep(1.1)  # a later modification time than the doctrees'
    _write(src, myst_option, rest_option)
    incremental, places = _build(src, tmp_path / "inc", fresh=False)
    clean, clean_places = _build(src, tmp_path / "clean", fresh=True)
    assert clean == "" and incremental == ""
    assert places == clean_places and places
    again, _ = _build(src, tmp_path / "inc", fresh=False)
    assert again == ""
    html = (tmp_path / "inc" / "html" / "links.html").read_text(encoding="utf-8")
    assert 'href="' + ("b" if myst_option else "a") + ".html#instance-inf2-xlarge" in html
