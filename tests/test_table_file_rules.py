"""The rules of the tables' CSV files (``site/downloads/table_files.py``) on pages built in the test and
a stand-in application: which tables get a file and under which name, the file written (only by HTML
builders, only when its bytes change), the link under the table, two contents under one name a
warning within a build and not across builds. No Sphinx build (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``); ``test_downloads.py`` and
``test_downloads_streaming.py`` build the site."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes

from neuron_docs.node_data import CSV_NAME, TABLE_NAME_ID
from neuron_docs.site.downloads import table_files as tf
from neuron_docs.site.downloads.table_csv import table_csv


def table(cell: str = "1", *, generated: bool = True, name: str | None = None, name_id: str | None = None) -> nodes.table:
    made = nodes.table(classes=["neuron-table"] if generated else ["other"])
    group = nodes.tgroup(cols=1)
    made += group
    for text in ("A", cell):
        row = nodes.row()
        row += nodes.entry("", nodes.paragraph(text, text))
        group += row
    if name:
        CSV_NAME.set(made, name)
    if name_id:
        TABLE_NAME_ID.set(made, name_id)
    return made


def page(*tables: nodes.table) -> nodes.document:
    doc = nodes.document(None, None)  # type: ignore[arg-type]
    section = nodes.section()
    for made in tables:
        section += made
        section += nodes.paragraph("", "after")
    doc += section
    return doc


class App:
    def __init__(self, outdir: Path, name: str = "html", fmt: str = "html") -> None:
        self.outdir = str(outdir)
        self.builder = SimpleNamespace(name=name, format=fmt, get_target_uri=lambda docname: f"{docname}.html")
        self.config = SimpleNamespace(html_baseurl="https://site.invalid/")
        self.env = SimpleNamespace(csv_written={})


@pytest.fixture
def warnings(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    seen: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tf, "state", lambda env: env)
    monkeypatch.setattr(tf.logger, "warning", lambda *args, **kwargs: seen.append((*args, kwargs)))
    return seen


# Names ----------------------------------------------------------------------------------------------------


def test_a_generated_table_is_named_by_its_csv_name_its_id_or_its_place() -> None:
    assert tf.csv_name(table(name="prices", name_id="other"), "p", 1) == "prices"
    assert tf.csv_name(table(name_id="by-kind"), "p", 1) == "by-kind"
    assert tf.csv_name(table(), "guide/Devices", 3) == "guide-devices-table-3"
    assert tf.csv_name(table(generated=False, name="prices"), "p", 1) is None
    assert tf.csv_name(nodes.table(), "p", 1) is None


# Files and links --------------------------------------------------------------------------------------------


def test_each_generated_table_gets_its_file_and_a_link_under_it(tmp_path: Path, warnings: list[Any]) -> None:
    first, plain, second = table("1", name="prices"), table("2", generated=False), table("3")
    doc = page(first, plain, second)
    tf.write_table_csvs(App(tmp_path), doc, "guide/devices")
    files = tmp_path / "_downloads" / "tables"
    assert sorted(p.name for p in files.iterdir()) == ["guide-devices-table-3.csv", "prices.csv"]
    assert (files / "prices.csv").read_text(encoding="utf-8") == table_csv(table("1"))
    assert (files / "guide-devices-table-3.csv").read_text(encoding="utf-8") == "A\n3\n"
    section = doc[0]
    after_first = section[section.index(first) + 1]
    assert isinstance(after_first, nodes.paragraph) and after_first["classes"] == ["neuron-download"]
    assert after_first.astext() == "Download this table as CSV (prices.csv)"
    (link,) = list(after_first.findall(nodes.reference))
    assert link["refuri"] == "../_downloads/tables/prices.csv" and link["classes"] == ["neuron-download-link"]
    assert section[section.index(plain) + 1].astext() == "after"  # no link under a table that gets no file
    after_second = section[section.index(second) + 1]
    assert after_second.astext() == "Download this table as CSV (guide-devices-table-3.csv)"
    assert warnings == []


def test_a_builder_that_links_but_writes_nothing_links_to_the_site(tmp_path: Path, warnings: list[Any]) -> None:
    doc = page(table(name="prices"))
    tf.write_table_csvs(App(tmp_path, "epub", "html"), doc, "guide/devices")
    assert not (tmp_path / "_downloads").exists()
    (link,) = list(doc.findall(nodes.reference))
    assert link["refuri"] == "https://site.invalid/_downloads/tables/prices.csv"


def test_a_builder_that_cannot_link_gets_neither_files_nor_links(tmp_path: Path, warnings: list[Any]) -> None:
    doc = page(table(name="prices"))
    app = App(tmp_path, "text", "text")
    tf.write_table_csvs(app, doc, "p")
    assert not (tmp_path / "_downloads").exists() and not list(doc.findall(nodes.reference))
    assert app.env.csv_written == {}


def _old(path: Path) -> None:
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))


def test_a_file_is_rewritten_only_when_its_bytes_change(tmp_path: Path, warnings: list[Any]) -> None:
    path = tmp_path / "_downloads" / "tables" / "t.csv"
    tf.write_table_csvs(App(tmp_path), page(table("1", name="t")), "p")
    _old(path)
    tf.write_table_csvs(App(tmp_path), page(table("1", name="t")), "p")
    assert path.stat().st_mtime_ns == 1_000_000_000
    tf.write_table_csvs(App(tmp_path), page(table("2", name="t")), "p")  # same size, other bytes
    assert path.read_text(encoding="utf-8") == "A\n2\n"
    _old(path)
    tf.write_table_csvs(App(tmp_path), page(table("22", name="t")), "p")  # another size
    assert path.read_text(encoding="utf-8") == "A\n22\n"
    path.unlink()
    tf.write_table_csvs(App(tmp_path), page(table("22", name="t")), "p")  # gone: written again
    assert path.read_text(encoding="utf-8") == "A\n22\n"


# One name, two contents -------------------------------------------------------------------------------------


def test_two_contents_under_one_name_in_a_build_are_a_warning(tmp_path: Path, warnings: list[Any]) -> None:
    app = App(tmp_path)
    tf.write_table_csvs(app, page(table("1", name="t")), "a")
    tf.write_table_csvs(app, page(table("1", name="t")), "b")  # the same content: fine
    assert warnings == []
    clash = table("2", name="t")
    clash.line = 7
    tf.write_table_csvs(app, page(clash), "c")
    ((message, name, before, now, kwargs),) = warnings
    assert "different content" in message and (name, before, now) == ("t", "b", "c")
    assert kwargs == {"location": ("c", 7), "type": "neuron", "subtype": "download"}
    # the latest content is the one compared with next
    tf.write_table_csvs(app, page(table("2", name="t")), "d")
    assert len(warnings) == 1
    assert app.env.csv_written["t"][0] == "d"


def test_each_build_checks_its_own_names(tmp_path: Path, warnings: list[Any]) -> None:
    app = App(tmp_path)
    tf.write_table_csvs(app, page(table("1", name="t")), "a")
    tf.forget_written(app, None)  # type: ignore[arg-type]
    assert app.env.csv_written == {}
    tf.write_table_csvs(app, page(table("2", name="t")), "b")
    assert warnings == []


def test_tables_of_a_page_are_numbered_from_one_whatever_they_are(tmp_path: Path, warnings: list[Any]) -> None:
    doc = page(table("1", generated=False), table("2"), table("3"))
    tf.write_table_csvs(App(tmp_path), doc, "p")
    assert sorted(p.name for p in (tmp_path / "_downloads" / "tables").iterdir()) == ["p-table-2.csv", "p-table-3.csv"]


@pytest.mark.parametrize(("before", "after"), [("1", "2"), ("2", "1"), ("x", "y"), ("y", "x")])
def test_a_clash_is_warned_whichever_content_comes_first(tmp_path: Path, warnings: list[Any], before: str,
                                                         after: str) -> None:
    app = App(tmp_path)
    tf.write_table_csvs(app, page(table(before, name="t")), "a")
    tf.write_table_csvs(app, page(table(after, name="t")), "b")
    assert len(warnings) == 1


def test_a_file_is_rewritten_for_other_bytes_of_its_size_whichever_sort_first(tmp_path: Path,
                                                                              warnings: list[Any]) -> None:
    path = tmp_path / "_downloads" / "tables" / "t.csv"
    for cell in ("5", "3", "9", "1"):
        tf.write_table_csvs(App(tmp_path), page(table(cell, name="t")), "p")
        assert path.read_text(encoding="utf-8") == f"A\n{cell}\n"


def test_a_long_file_of_the_same_bytes_is_left_alone(tmp_path: Path, warnings: list[Any]) -> None:
    # Over 256 bytes: its size and the content's length are equal ints but not one object.
    long = "".join(["x"] * 600)
    path = tmp_path / "_downloads" / "tables" / "t.csv"
    tf.write_table_csvs(App(tmp_path), page(table(long, name="t")), "p")
    _old(path)
    tf.write_table_csvs(App(tmp_path), page(table(long, name="t")), "p")
    assert path.stat().st_mtime_ns == 1_000_000_000 and path.stat().st_size > 256
