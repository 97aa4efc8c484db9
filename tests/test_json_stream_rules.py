"""The rules of JSON in pieces (``site/downloads/json_stream.py``) on values built in the test: the
pieces say what ``json.dumps(..., indent=1, ensure_ascii=False)`` says, plain members gathered a chunk
at a time and a lazy member in pieces of its own; a file is replaced only when its bytes change; a file
made from the data alone is copied from this process's earlier one while that is unchanged. No Sphinx,
no catalog (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``);
``test_downloads_streaming.py`` streams the real data."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.site.downloads import json_stream
from neuron_docs.site.downloads.json_stream import (MadeFiles, Members, built, dumps, json_pieces, write_if_changed,
                                                    write_made_from)


def expected(value: Any) -> str:
    return json.dumps(built(value), indent=1, ensure_ascii=False)


def lazy() -> Members:
    """Lazy parts at every place: first, last, between plain members, nested, empty."""
    return Members(iter([
        ("first lazy", iter([1, 2])),
        ("plain", {"x": [1, {"y": []}], "é": "ü\n\"q\""}),
        ("tuple", (1, 2)),
        ("empty list", iter([])), ("empty object", Members(iter([]))),
        ("nested", iter([{"a": 1}, iter([iter([])]), Members([("k", Members([("l", iter([None, True, 1.5]))]))]),
                         7, "eight", [9], {}])),
        ("many", Members((f"k{n}", {"n": n, "l": [n, -0.0, 1e21]}) for n in range(7))),
        ("last lazy", Members([("z", 1)])),
    ]))


# Built values ------------------------------------------------------------------------------------


def test_built_makes_every_lazy_part_plain() -> None:
    assert built(Members(iter([("a", iter([Members([("b", 1)]), 2])), ("c", "d")]))) == {"a": [{"b": 1}, 2], "c": "d"}
    assert built(iter([])) == [] and built(Members([])) == {}
    plain = {"a": [1, 2]}
    assert built(plain) is plain
    assert built((1, 2)) == (1, 2)


# Pieces ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("chunk", [1, 2, 3, 1000])
def test_the_pieces_say_what_json_dumps_says(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", chunk)
    assert "".join(json_pieces(lazy())) == expected(lazy())
    assert "".join(json_pieces(iter([lazy(), lazy()]))) == expected(iter([lazy(), lazy()]))
    for depth in (1, 2, 3):  # a value nested that deep: its lines indented as json.dumps does inside
        outer: Any = lazy()
        plain_outer: Any = built(lazy())
        for _ in range(depth):
            outer, plain_outer = iter([outer]), [plain_outer]
        assert "".join(json_pieces(outer)) == json.dumps(plain_outer, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("value", [1, "é\n", None, [1, [2, {}]], {"a": {"b": [1, 2]}}, [], {}, 1.5, True])
def test_a_plain_value_is_one_piece_as_json_dumps_writes_it(value: Any) -> None:
    assert list(json_pieces(value)) == [json.dumps(value, indent=1, ensure_ascii=False)]


def test_a_plain_value_nested_is_indented_by_its_depth() -> None:
    assert list(json_pieces({"a": [1]}, 2)) == ['{\n   "a": [\n    1\n   ]\n  }']
    assert list(json_pieces(5, 3)) == ["5"]


def test_empty_lazy_parts_are_written_as_json_dumps_writes_them() -> None:
    assert list(json_pieces(iter([]))) == ["[]"]
    assert list(json_pieces(Members([]))) == ["{}"]
    assert "".join(json_pieces(iter([iter([]), Members([])]))) == "[\n [],\n {}\n]"
    assert "".join(json_pieces(Members([("a", iter([]))]), 1)) == '{\n  "a": []\n }'


def test_plain_members_are_gathered_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", 2)
    pieces = list(json_pieces(iter([1, 2, 3, 4, 5])))
    assert pieces == ["[\n 1,\n 2", ",\n 3,\n 4", ",\n 5", "\n]"]
    pieces = list(json_pieces(Members(iter([("a", 1), ("b", 2), ("c", 3)]))))
    assert pieces == ['{\n "a": 1,\n "b": 2', ',\n "c": 3', "\n}"]
    monkeypatch.setattr(json_stream, "CHUNK", 3)
    assert list(json_pieces(iter([1, 2, 3]))) == ["[\n 1,\n 2,\n 3", "\n]"]


def test_a_lazy_member_is_written_in_pieces_of_its_own_and_a_plain_one_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", 1000)
    pieces = list(json_pieces(Members(iter([("a", 1), ("b", iter([2, 3])), ("c", (4,)), ("d", {"e": 5})]))))
    assert pieces == ['{\n "a": 1', ',\n "b": ', "[\n  2,\n  3", "\n ]", ',\n "c": [\n  4\n ],\n "d": {\n  "e": 5\n }',
                      "\n}"]
    pieces = list(json_pieces(iter([iter([1]), 2])))
    assert pieces == ["[\n ", "[\n  1", "\n ]", ",\n 2", "\n]"]


def test_a_repeated_key_is_written_twice_as_streamed() -> None:
    pairs = [("a", 1), ("b", 2), ("a", 3), ("a", 4)]
    assert "".join(json_pieces(Members(iter(pairs)))) == '{\n "a": 1,\n "b": 2,\n "a": 3,\n "a": 4\n}'
    # in an array, equal members are no repeated key
    assert list(json_pieces(iter(["a", "a"]))) == ['[\n "a",\n "a"', "\n]"]


def test_a_key_of_the_batch_is_compared_by_value() -> None:
    key = "".join(["ke", "y"])
    assert "".join(json_pieces(Members(iter([("key", 1), (key, 2)])))) == '{\n "key": 1,\n "key": 2\n}'


def test_dumps_is_json_dumps_with_a_newline() -> None:
    assert dumps({"é": [1]}) == '{\n "é": [\n  1\n ]\n}\n'


# Writing a file only when its bytes change ----------------------------------------------------------------


def _old(path: Path) -> None:
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))


def test_a_file_is_written_in_a_new_folder(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "file.json"
    write_if_changed(target, ["{", "}"])
    assert target.read_bytes() == b"{}"
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.json"]


@pytest.mark.parametrize("new", [["same"], ["sa", "me"], ["", "s", "", "ame", ""]])
def test_the_same_bytes_leave_the_file_alone(tmp_path: Path, new: list[str]) -> None:
    target = tmp_path / "file"
    target.write_text("same", encoding="utf-8")
    _old(target)
    write_if_changed(target, new)
    assert target.stat().st_mtime_ns == 1_000_000_000
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


@pytest.mark.parametrize("new", [["other"], ["sam"], ["same", "!"], ["samé"], ["s", "ama"], ["", "x", "ame"], []])
def test_other_bytes_replace_the_file(tmp_path: Path, new: list[str]) -> None:
    target = tmp_path / "file"
    target.write_text("same", encoding="utf-8")
    _old(target)
    write_if_changed(target, new)
    assert target.read_text(encoding="utf-8") == "".join(new)
    assert target.stat().st_mtime_ns != 1_000_000_000
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_an_empty_file_is_written_where_none_was(tmp_path: Path) -> None:
    target = tmp_path / "file"
    write_if_changed(target, [])
    assert target.read_bytes() == b""


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("old", encoding="utf-8")

    def broken() -> Iterator[str]:
        yield "new"
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        write_if_changed(target, broken())
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_the_temporary_file_is_beside_the_file_and_named_after_it(tmp_path: Path) -> None:
    target = tmp_path / "file.json"
    seen: list[list[str]] = []

    def pieces() -> Iterator[str]:
        seen.append(sorted(p.name for p in tmp_path.iterdir()))
        yield "x"

    write_if_changed(target, pieces())
    assert seen == [[f".file.json.{os.getpid()}.tmp"]]


# Files made from the data alone ---------------------------------------------------------------------------


class Pieces:
    """The pieces of a file, counting how often they are made."""

    def __init__(self, text: str) -> None:
        self.text, self.calls = text, 0

    def __call__(self) -> list[str]:
        self.calls += 1
        return [self.text]


def test_a_file_made_again_from_the_same_data_is_copied_from_the_earlier_one(tmp_path: Path) -> None:
    made = MadeFiles()
    first, second = tmp_path / "one" / "data.json", tmp_path / "two" / "data.json"
    pieces = Pieces("made once")
    made.write(first, "key-1", pieces)
    made.write(second, "key-1", Pieces("never made"))
    assert pieces.calls == 1
    assert second.read_text(encoding="utf-8") == "made once"
    # this very file again: nothing written
    _old(first)
    again = Pieces("never")
    made.write(first, "key-1", again)
    assert again.calls == 0 and first.stat().st_mtime_ns == 1_000_000_000
    assert first.read_text(encoding="utf-8") == "made once"


def test_a_copy_is_taken_in_full_and_as_bytes(tmp_path: Path) -> None:
    made = MadeFiles()
    text = "line\r\nbreaks\ré" + "x" * (1 << 20) + "end"
    made.write(tmp_path / "a" / "f.json", "k", Pieces(text))
    made.write(tmp_path / "b" / "f.json", "k", Pieces("never"))
    assert (tmp_path / "b" / "f.json").read_bytes() == text.encode("utf-8")


def test_an_earlier_file_changed_since_is_not_copied(tmp_path: Path) -> None:
    made = MadeFiles()
    first, second = tmp_path / "one" / "data.json", tmp_path / "two" / "data.json"
    made.write(first, "key-1", Pieces("made"))
    first.write_text("edited", encoding="utf-8")
    _old(first)
    made.write(second, "key-1", Pieces("made again"))
    assert second.read_text(encoding="utf-8") == "made again"
    # the same file changed since: made again too
    made = MadeFiles()
    made.write(first, "key-1", Pieces("made"))
    first.write_text("edited!", encoding="utf-8")
    pieces = Pieces("made anew")
    made.write(first, "key-1", pieces)
    assert pieces.calls == 1 and first.read_text(encoding="utf-8") == "made anew"


def test_an_earlier_file_of_the_same_size_touched_since_is_not_copied(tmp_path: Path) -> None:
    made = MadeFiles()
    first, second = tmp_path / "one" / "data.json", tmp_path / "two" / "data.json"
    made.write(first, "key-1", Pieces("made"))
    first.write_text("MADE", encoding="utf-8")
    _old(first)
    made.write(second, "key-1", Pieces("anew"))
    assert second.read_text(encoding="utf-8") == "anew"


def test_an_earlier_file_gone_is_made_again(tmp_path: Path) -> None:
    made = MadeFiles()
    first = tmp_path / "one" / "data.json"
    made.write(first, "key-1", Pieces("made"))
    first.unlink()
    pieces = Pieces("anew")
    made.write(first, "key-1", pieces)
    assert pieces.calls == 1 and first.read_text(encoding="utf-8") == "anew"


def test_other_data_or_another_name_is_made_anew(tmp_path: Path) -> None:
    made = MadeFiles()
    made.write(tmp_path / "one" / "data.json", "key-1", Pieces("one"))
    other_key = Pieces("two")
    made.write(tmp_path / "two" / "data.json", "key-2", other_key)
    other_name = Pieces("three")
    made.write(tmp_path / "one" / "schema.json", "key-1", other_name)
    assert other_key.calls == 1 and other_name.calls == 1
    assert (tmp_path / "two" / "data.json").read_text(encoding="utf-8") == "two"


def test_the_latest_file_written_is_the_one_copied(tmp_path: Path) -> None:
    made = MadeFiles()
    made.write(tmp_path / "one" / "data.json", "k", Pieces("first"))
    made.write(tmp_path / "two" / "data.json", "k", Pieces("never"))
    (tmp_path / "one" / "data.json").unlink()
    made.write(tmp_path / "three" / "data.json", "k", Pieces("never either"))
    assert (tmp_path / "three" / "data.json").read_text(encoding="utf-8") == "first"


def test_clear_forgets_every_file(tmp_path: Path) -> None:
    made = MadeFiles()
    made.write(tmp_path / "one" / "data.json", "k", Pieces("first"))
    made.clear()
    pieces = Pieces("second")
    made.write(tmp_path / "two" / "data.json", "k", pieces)
    assert pieces.calls == 1


def test_a_file_that_could_not_be_stamped_is_not_remembered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = MadeFiles()
    monkeypatch.setattr(json_stream, "write_if_changed", lambda path, pieces: list(pieces))  # nothing written
    made.write(tmp_path / "one" / "data.json", "k", Pieces("first"))
    monkeypatch.undo()
    pieces = Pieces("second")
    made.write(tmp_path / "two" / "data.json", "k", pieces)
    assert pieces.calls == 1


def test_write_made_from_goes_through_the_process_register(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_stream, "MADE_FILES", MadeFiles())
    write_made_from(tmp_path / "one" / "data.json", "k", Pieces("first"))
    pieces = Pieces("never")
    write_made_from(tmp_path / "two" / "data.json", "k", pieces)
    assert pieces.calls == 0 and (tmp_path / "two" / "data.json").read_text(encoding="utf-8") == "first"
    assert isinstance(json_stream.MADE_FILES, MadeFiles)


def test_nulls_in_an_array_are_no_repeated_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", 1000)
    assert list(json_pieces(iter([None, None, 1]))) == ["[\n null,\n null,\n 1", "\n]"]


def test_this_very_file_is_not_read_again_when_its_path_is_given_anew(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    made = MadeFiles()
    first = tmp_path / "one" / "data.json"
    made.write(first, "key-1", Pieces("made once"))

    def never(path: Path, pieces: Any) -> None:
        raise AssertionError(f"{path} written again")

    monkeypatch.setattr(json_stream, "write_if_changed", never)
    made.write(Path(str(first)), "".join(["key-", "1"]), Pieces("never"))  # equal path and key, other objects


def test_plain_members_are_gathered_a_thousand_at_a_time_by_default() -> None:
    pieces = list(json_pieces(iter(range(2001))))
    assert len(pieces) == 4 and pieces[-1] == "\n]"
    assert [piece.count("\n") for piece in pieces[:3]] == [1000, 1000, 1]
