"""The streamed JSON download is byte for byte ``dumps(data_document(...))``; files are rewritten only
when their bytes change; the CSV collision check keeps digests, per build."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from docutils import nodes
from docutils.utils import new_document

from neuron_docs.state.build import BuildState
from neuron_docs.site.downloads import table_files
from neuron_docs.data import Catalog
from neuron_docs.data.records import models as s
from neuron_docs.data.figures.values import Value, build_values
from neuron_docs.site.downloads.data_json import data_document, data_pieces, document
from neuron_docs.site.downloads import json_stream
from neuron_docs.site.downloads.json_stream import Members, built, dumps, json_pieces, write_if_changed
from neuron_docs.render.tables import build_table
from neuron_docs.node_data import CSV_NAME

TRICKY = 'Ünïcödé "quoted" \\ back\\slash, tab\t, new\nline, \u2028 separator, emoji \U0001f680 and </script>'


class LazyValues(Mapping[str, Value]):
    """A mapping that is not a dict, like a lazily computed ``data.values``."""

    def __init__(self, values: dict[str, Value]) -> None:
        self._values = values

    def __getitem__(self, path: str) -> Value:
        return self._values[path]

    def __iter__(self) -> Iterator[str]:
        return iter(reversed(list(self._values)))  # not sorted: the writer must sort

    def __len__(self) -> int:
        return len(self._values)


def _streamed(tmp_path: Path, catalog: Catalog, values: Mapping[str, Value]) -> bytes:
    target = tmp_path / "_downloads" / "neuron-data.json"
    write_if_changed(target, data_pieces(catalog, values))
    assert [p.name for p in target.parent.iterdir()] == ["neuron-data.json"], "a temporary file was left"
    return target.read_bytes()


def _hand_made() -> tuple[Catalog, dict[str, Value]]:
    catalog = Catalog(Path("hand-made"))  # every collection empty, no matrix header
    catalog.records["sources"]["src-1"] = s.Source(id="src-1", title=TRICKY, url="https://example.com/a?b=\"c\"")
    catalog.records["sources"]["src-2"] = s.Source(id="src-2", title="Plain")
    catalog.file_hashes = {"sources.yaml": "0" * 64}
    values = {
        "device:d\u00e9v:tops": Value(1e21, "TOPS", TRICKY, "src-1", False, "devices", "d\u00e9v"),
        "run:r-1:cost_per_1m": Value(0.1 + 0.2, "USD", "cost", None, True, "inference_runs", "r-1"),
        "run:r-1:batch_size": Value(4, "", 'batch "size"', "src-2", False, "inference_runs", "r-1"),
        "a:b:c": Value(-0.0, "ms", "", None, False, "x", "b"),
    }
    return catalog, values


def test_real_data_streams_byte_for_byte(tmp_path, catalog):
    values = build_values(catalog)
    expected = dumps(data_document(catalog, values)).encode("utf-8")
    assert _streamed(tmp_path, catalog, values) == expected
    assert _streamed(tmp_path / "lazy", catalog, LazyValues(dict(values.items()))) == expected
    assert json.loads(expected)["values"], "the real data has figures"


def test_hand_made_catalog_streams_byte_for_byte(tmp_path):
    catalog, values = _hand_made()
    expected = dumps(data_document(catalog, values))
    assert _streamed(tmp_path, catalog, LazyValues(values)).decode("utf-8") == expected
    assert '"errata": []' in expected and '"matrix": null' in expected and TRICKY not in expected
    assert json.loads(expected)["collections"]["sources"][0]["title"] == TRICKY
    no_figures = dumps(data_document(catalog, {}))
    assert _streamed(tmp_path / "empty", catalog, LazyValues({})).decode("utf-8") == no_figures
    assert '"values": {}' in no_figures


@pytest.mark.parametrize("chunk", [1, 2, 3, 1000])
def test_pieces_match_json_dumps_on_nesting_and_empty_containers(monkeypatch, chunk):
    monkeypatch.setattr(json_stream, "CHUNK", chunk)  # members encoded together, a chunk at a time

    def lazy() -> Members:
        return Members(iter([
            ("empty list", iter([])), ("empty object", Members(iter([]))),
            ("nested", iter([{"x": [1, {"y": [], "z": {}}], "q": TRICKY}, [], {}, iter([iter([])])])),
            ("deep", Members([("k", Members([("\u00e9", iter([None, True, 1.5]))]))])),
            ("plain", Members((f"k{n}", {"n": n, "s": TRICKY, "l": [n, -0.0, 1e21]}) for n in range(5))),
            ("mixed", iter([1, "two", iter([3, 4, 5]), {"six": 6}, Members([]), 7, 8.5, None])),
        ]))

    plain = built(lazy())
    assert plain["nested"][3] == [[]]
    assert "".join(json_pieces(lazy())) == json.dumps(plain, indent=1, ensure_ascii=False)
    assert "".join(json_pieces(iter([]))) == "[]" and "".join(json_pieces(Members([]))) == "{}"


@pytest.mark.parametrize("chunk", [1, 7])
def test_real_data_streams_byte_for_byte_in_small_chunks(tmp_path, catalog, monkeypatch, chunk):
    monkeypatch.setattr(json_stream, "CHUNK", chunk)
    values = build_values(catalog)
    assert _streamed(tmp_path, catalog, values) == dumps(data_document(catalog, values)).encode("utf-8")


def test_a_repeated_key_is_written_twice_as_streamed():
    """A lazy object is written member by member, as given: a key seen twice is written twice."""
    pairs = [("a", 1), ("b", 2), ("a", 3)]
    assert "".join(json_pieces(Members(iter(pairs)))) == '{\n "a": 1,\n "b": 2,\n "a": 3\n}'


def test_the_layout_is_the_documented_one(catalog):
    layout = document(catalog, build_values(catalog))
    assert [key for key, _ in layout.pairs] == ["$schema", "schema_version", "data_fingerprint",
                                                  "data_last_updated", "matrix", "collections", "values"]


def test_a_file_is_replaced_only_when_its_bytes_change(tmp_path):
    target = tmp_path / "out" / "file.json"
    write_if_changed(target, ["{", "\"a\": 1", "}\n"])
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    write_if_changed(target, ['{"a": 1}\n'])  # same bytes in other pieces: left alone
    assert target.stat().st_mtime_ns == 1_000_000_000
    write_if_changed(target, ['{"a": 2}\n'])  # same size, other bytes
    assert target.read_text(encoding="utf-8") == '{"a": 2}\n'
    write_if_changed(target, ['{"a": "é"}\n'])
    assert target.read_text(encoding="utf-8") == '{"a": "é"}\n'
    write_if_changed(target, ['{"a": "é"}'])  # the old file with a byte more
    assert target.read_text(encoding="utf-8") == '{"a": "é"}'
    write_if_changed(target, ['{"a": "é"}', "\n", "\n"])  # the old file as a beginning
    assert target.read_text(encoding="utf-8") == '{"a": "é"}\n\n'
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    write_if_changed(target, ["", '{"a"', ': "é"}\n', "", "\n"])  # same bytes, pieces of any size: left alone
    assert target.stat().st_mtime_ns == 1_000_000_000
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.json"]


def test_a_failed_write_leaves_no_temporary_file_and_the_old_file(tmp_path):
    target = tmp_path / "file.json"
    target.write_text("old\n", encoding="utf-8")

    def broken() -> Iterator[str]:
        yield "new"
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_if_changed(target, broken())
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["file.json"]


# CSV collision check ------------------------------------------------------------------------------

class FakeBuilder:
    format = "html"

    def get_target_uri(self, docname: str) -> str:
        return f"{docname}.html"


class FakeDomain:
    def __init__(self) -> None:
        self.build = BuildState(Path("."))


class FakeEnv:
    def __init__(self) -> None:
        self.domain = FakeDomain()

    def get_domain(self, name: str) -> FakeDomain:
        return self.domain


class FakeApp:
    def __init__(self, outdir: Path) -> None:
        self.builder = FakeBuilder()
        self.outdir = outdir
        self.env = FakeEnv()


def _page(*tables: tuple[str, str]) -> nodes.document:
    doctree = new_document("page")
    for name, cell in tables:
        table = build_table(["Name"], [[cell]])
        CSV_NAME.set(table, name)
        doctree += table
    return doctree


def test_csv_collisions_are_warned_from_digests_per_build(tmp_path, monkeypatch):
    warnings: list[tuple] = []
    monkeypatch.setattr(table_files.logger, "warning", lambda *args, **kwargs: warnings.append(args))
    app = FakeApp(tmp_path)
    csv_file = tmp_path / "_downloads" / "tables" / "t.csv"

    table_files.write_table_csvs(app, _page(("t", "one")), "a")
    assert csv_file.read_text(encoding="utf-8") == "Name\none\n"
    os.utime(csv_file, ns=(1_000_000_000, 1_000_000_000))
    table_files.write_table_csvs(app, _page(("t", "one")), "b")  # same content: no warning, no write
    assert not warnings and csv_file.stat().st_mtime_ns == 1_000_000_000
    assert app.env.domain.build.csv_written["t"][0] == "b"
    assert all(len(digest) == 64 for _, digest in app.env.domain.build.csv_written.values())

    table_files.write_table_csvs(app, _page(("t", "two")), "c")
    assert len(warnings) == 1 and "different content" in warnings[0][0] and warnings[0][2:] == ("b", "c")
    assert csv_file.read_text(encoding="utf-8") == "Name\ntwo\n"

    table_files.forget_written(app, RuntimeError("the build failed"))  # each build starts afresh
    assert app.env.domain.build.csv_written == {}
    table_files.write_table_csvs(app, _page(("t", "three")), "a")
    assert len(warnings) == 1
    assert not hasattr(app.builder, "_neuron_csv_written")


def test_the_history_csv_is_keyed_by_the_history_files_and_the_records_kept(catalog, tmp_path: Path) -> None:
    """The history's CSV is made again when a history file or the records validation kept of it
    change, and copied from an earlier build when only other data changed."""
    import copy
    import shutil

    from neuron_docs.data.catalog import OBSERVATIONS_FILE
    from neuron_docs.site.downloads.history_csv import history_key

    copied = tmp_path / "data"
    shutil.copytree(catalog.data_dir, copied)
    moved = copy.copy(catalog)
    moved.data_dir = copied
    key = history_key(moved)
    assert key == history_key(catalog)  # the bytes count, not where they lie
    (copied / "families.yaml").write_text("# another file changed\n" + (copied / "families.yaml").read_text(
        encoding="utf-8"), encoding="utf-8")
    assert history_key(moved) == key
    fewer = copy.copy(moved)
    fewer.records = {**moved.records, "benchmark_configurations": dict(
        list(moved.records["benchmark_configurations"].items())[1:])}
    assert history_key(fewer) != key  # a configuration set aside leaves the CSV
    observations = copied / OBSERVATIONS_FILE
    observations.write_text(observations.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert history_key(moved) != key
