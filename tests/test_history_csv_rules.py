"""The rules of the benchmark history's CSV (``site/downloads/history_csv.py``) on rows and data files
made in the test: the header then every row neutralised, in pieces of 500 rows; the key of the file is
the bytes of the history's files and the records kept, nothing else; the file is written only at the
end of a successful HTML build whose data has a history. No Sphinx, no catalog loaded (``make
mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``);
``test_downloads_streaming.py`` writes the real history's CSV."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from neuron_docs.data import Catalog
from neuron_docs.data.catalog import FILES, HISTORY_FILES
from neuron_docs.data.published.history_view import LONG_HEADER
from neuron_docs.site.downloads import history_csv as hc


def rows(count: int) -> list[list[str]]:
    return [[f"r{n}", "=1+1" if n == 1 else "-5", "@x"] for n in range(1, count + 1)]


@pytest.fixture
def given_rows(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The rows of the history (its index stands in: ``long_rows`` gets the catalog itself)."""
    made: list[list[str]] = []
    monkeypatch.setattr(hc.BenchmarkHistoryIndex, "of", classmethod(lambda cls, catalog: catalog))
    monkeypatch.setattr(hc, "long_rows", lambda index: iter(index))
    return made


def test_the_header_then_every_row_neutralised(given_rows: Any) -> None:
    text = "".join(hc.history_csv_pieces(rows(3)))  # type: ignore[arg-type]
    assert list(csv.reader(io.StringIO(text))) == [list(LONG_HEADER), ["r1", "'=1+1", "'@x"], ["r2", "-5", "'@x"],
                                                    ["r3", "-5", "'@x"]]
    assert text.endswith("\n") and "\r" not in text


def test_the_rows_come_in_pieces_of_500(given_rows: Any) -> None:
    pieces = list(hc.history_csv_pieces(rows(1001)))  # type: ignore[arg-type]
    assert len(pieces) == 3
    counts = [len(list(csv.reader(io.StringIO(piece)))) for piece in pieces]
    assert counts == [501, 500, 1]  # the header with the first 500
    assert pieces[0].startswith(",".join(LONG_HEADER) + "\n")
    assert list(csv.reader(io.StringIO(pieces[1])))[0][0] == "r501"
    pieces = list(hc.history_csv_pieces(rows(1000)))  # type: ignore[arg-type]
    assert [len(list(csv.reader(io.StringIO(piece)))) for piece in pieces] == [501, 500, 0] and pieces[-1] == ""
    pieces = list(hc.history_csv_pieces(rows(499)))  # type: ignore[arg-type]
    assert [len(list(csv.reader(io.StringIO(piece)))) for piece in pieces] == [500]


def test_a_history_without_rows_is_its_header(given_rows: Any) -> None:
    assert list(hc.history_csv_pieces([])) == [",".join(LONG_HEADER) + "\n"]  # type: ignore[arg-type]


# The key ----------------------------------------------------------------------------------------------------


def history_data(root: Path) -> Catalog:
    """A data folder holding the history's four files (and one other file), a record kept per file."""
    catalog = Catalog(root)
    for spec in FILES:
        path = root / spec.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{spec.name}\n", encoding="utf-8")
        if spec.csv is not None:
            catalog.records[spec.csv[0]] = {f"{spec.csv[0]}-1": object()}
    return catalog


def history_specs() -> list[Any]:
    specs = [spec for spec in FILES if spec.name in HISTORY_FILES]
    assert len(specs) == len(HISTORY_FILES) and all(spec.csv is not None for spec in specs)
    return specs


def test_the_key_follows_the_bytes_of_each_history_file(tmp_path: Path) -> None:
    catalog = history_data(tmp_path)
    key = hc.history_key(catalog)
    assert key == hc.history_key(history_data(tmp_path)) and len(key) == 64
    for spec in history_specs():
        path = tmp_path / spec.name
        before = path.read_bytes()
        path.write_bytes(before + b"more\n")
        assert hc.history_key(catalog) != key, spec.name
        path.write_bytes(before)
    assert hc.history_key(catalog) == key


def test_the_key_follows_which_records_each_history_file_kept(tmp_path: Path) -> None:
    catalog = history_data(tmp_path)
    key = hc.history_key(catalog)
    for spec in history_specs():
        name = spec.csv[0]
        kept = catalog.records[name]
        catalog.records[name] = {}
        assert hc.history_key(catalog) != key, name
        catalog.records[name] = {**kept, f"{name}-2": object()}
        assert hc.history_key(catalog) != key, name
        catalog.records[name] = {f"{name}-2": object()}  # as many, another one
        assert hc.history_key(catalog) != key, name
        catalog.records[name] = kept
    assert hc.history_key(catalog) == key


def test_the_key_tells_the_ids_apart_however_they_split(tmp_path: Path) -> None:
    catalog = history_data(tmp_path)
    spec = history_specs()[0]
    catalog.records[spec.csv[0]] = {"a": object(), "bc": object()}
    key = hc.history_key(catalog)
    catalog.records[spec.csv[0]] = {"ab": object(), "c": object()}
    assert hc.history_key(catalog) != key


def test_the_key_ignores_the_other_files_and_their_records(tmp_path: Path) -> None:
    catalog = history_data(tmp_path)
    key = hc.history_key(catalog)
    for spec in FILES:
        if spec.name in HISTORY_FILES:
            continue
        (tmp_path / spec.name).write_text("changed\n", encoding="utf-8")
        if spec.csv is not None:
            catalog.records[spec.csv[0]] = {}
    catalog.records["sources"] = {"another": object()}
    assert hc.history_key(catalog) == key


def test_the_key_is_the_same_for_the_same_history_in_another_folder(tmp_path: Path) -> None:
    assert hc.history_key(history_data(tmp_path / "a")) == hc.history_key(history_data(tmp_path / "b"))


# The write ------------------------------------------------------------------------------------------------


def app(tmp_path: Path, observations: bool = True) -> Any:
    catalog = SimpleNamespace(benchmark_observations={"o": 1} if observations else {})
    return SimpleNamespace(outdir=str(tmp_path), env=SimpleNamespace(data=SimpleNamespace(catalog=catalog)))


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Path, str, list[str]]]:
    done: list[tuple[Path, str, list[str]]] = []
    monkeypatch.setattr(hc, "writes_downloads", lambda app: app.outdir != "no")
    monkeypatch.setattr(hc, "dataset", lambda env: env.data)
    monkeypatch.setattr(hc, "history_key", lambda catalog: "key")
    monkeypatch.setattr(hc, "history_csv_pieces", lambda catalog: iter(["a,b\n"]))
    monkeypatch.setattr(hc, "write_made_from", lambda path, key, pieces: done.append((path, key, list(pieces()))))
    return done


def test_the_csv_is_written_at_the_end_of_a_successful_html_build(tmp_path: Path, writes: list[Any]) -> None:
    hc.write_history_csv(app(tmp_path), None)
    assert writes == [(tmp_path / "_downloads" / "benchmark-history.csv", "key", ["a,b\n"])]


def test_no_csv_after_a_failed_build_outside_html_or_without_a_history(tmp_path: Path, writes: list[Any]) -> None:
    hc.write_history_csv(app(tmp_path), RuntimeError("failed"))
    no_html = app(tmp_path)
    no_html.outdir = "no"
    hc.write_history_csv(no_html, None)
    hc.write_history_csv(app(tmp_path, observations=False), None)
    assert writes == []
