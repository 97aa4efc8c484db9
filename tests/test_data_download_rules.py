"""The rules of the data set's download files and their directive (``site/downloads/data_download.py``)
on a stand-in application and catalog: the JSON and its schema written at the end of a successful
HTML build (the JSON through the register of files made from the data, by the data's content key),
the directive's placeholder showing every data file, and the table of collections with the schema's
version and the data's date. No Sphinx build (``make mutation`` runs it with ``--noconftest`` per
mutant: ``tests/MUTATION.md``); ``test_downloads.py`` builds the site."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes

from neuron_docs.data import catalog as catalog_module
from neuron_docs.data.checking.matrix_files import MATRIX_DIR
from neuron_docs.data.records import models as s
from neuron_docs.node_data import CSV_ROWS
from neuron_docs.render.placeholder import NoParams
from neuron_docs.site.downloads import data_download as dd
from neuron_docs.site.downloads import data_json as dj


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any, Any]]:
    done: list[tuple[str, Any, Any]] = []
    monkeypatch.setattr(dd, "writes_downloads", lambda app: app.builder.format == "html")
    monkeypatch.setattr(dd, "dataset", lambda env: env.data)
    monkeypatch.setattr(dd, "data_pieces", lambda catalog, values: iter([f"{catalog}+{values}"]))
    monkeypatch.setattr(dd, "schema_text", lambda: "the schema")
    monkeypatch.setattr(dd, "write_made_from", lambda path, key, pieces: done.append(("made", path, (key, list(pieces())))))
    monkeypatch.setattr(dd, "write_if_changed", lambda path, pieces: done.append(("changed", path, list(pieces))))
    return done


def app(tmp_path: Path, fmt: str = "html") -> Any:
    data = SimpleNamespace(content_key="key-1", catalog="CATALOG", values="VALUES")
    return SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format=fmt),
                           env=SimpleNamespace(data=data))


def test_the_json_and_its_schema_are_written_at_the_end_of_a_successful_html_build(
        tmp_path: Path, written: list[Any]) -> None:
    dd.write_data_files(app(tmp_path), None)
    assert written == [("made", tmp_path / "_downloads" / "neuron-data.json", ("key-1", ["CATALOG+VALUES"])),
                       ("changed", tmp_path / "_downloads" / "neuron-data.schema.json", ["the schema"])]


def test_nothing_is_written_after_a_failed_build_or_outside_html(tmp_path: Path, written: list[Any]) -> None:
    dd.write_data_files(app(tmp_path), RuntimeError("failed"))
    dd.write_data_files(app(tmp_path, "latex"), None)
    assert written == []


def test_the_directive_shows_every_data_file(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Any, ...]] = []
    monkeypatch.setattr(dd, "defer", lambda *args: seen.append(args) or nodes.comment())
    directive = object.__new__(dd.DataDownloads)
    (node,) = directive.run()
    ((who, kind, params, shown),) = seen
    assert who is directive and kind is dd.render_data_downloads and isinstance(params, NoParams)
    assert shown == [f"file:{name}" for name in catalog_module.FILE_NAMES] + [f"file:{MATRIX_DIR}"]


def test_the_table_lists_every_collection_with_its_file_count_and_type(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dd, "newest_date", lambda catalog: "2024-02-03")
    sources = {"a": s.Source(id="a", title="A"), "b": s.Source(id="b", title="B")}
    catalog = SimpleNamespace(records={"sources": sources}, file_of=lambda name: f"{name}.file")
    intro, table = dd.render_data_downloads(SimpleNamespace(catalog=catalog), NoParams())  # type: ignore[arg-type]
    assert intro.astext() == f"Schema version {dj.SCHEMA_VERSION}; data last updated 2024-02-03."
    assert isinstance(table, nodes.table)
    assert "neuron-download-collections" in table["classes"] and "download-collections" in table["ids"]
    rows = [[cell.words if hasattr(cell, "words") else cell for cell in row] for row in CSV_ROWS.read(table)]
    types = dj.collection_types()
    assert rows[0] == ["Collection", "Data file", "Records", "Record type ($defs)"]
    assert [row[0] for row in rows[1:]] == list(types)
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["sources"] == ["sources", "sources.file", "2", "Source"]
    assert all(by_name[name][1:] == [f"{name}.file", "0", model.__name__]
               for name, model in types.items() if name != "sources")
    literals = [node.astext() for node in table.findall(nodes.literal)]
    assert literals[:2] == [next(iter(types)), next(iter(types.values())).__name__]


def test_a_data_set_without_a_date_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dd, "newest_date", lambda catalog: None)
    catalog = SimpleNamespace(records={}, file_of=lambda name: "x")
    intro, _ = dd.render_data_downloads(SimpleNamespace(catalog=catalog), NoParams())  # type: ignore[arg-type]
    assert intro.astext().endswith("data last updated unknown.")


def test_the_table_is_the_renderer_its_placeholders_name() -> None:
    from neuron_docs.render.placeholder import Renderer

    assert isinstance(dd.render_data_downloads, Renderer)
    assert dd.render_data_downloads.name == "data-downloads" and dd.render_data_downloads.tables
