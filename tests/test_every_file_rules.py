"""Every file of the data folder is read or reported (``data/checking/every_file.py``), on a small data
folder made in the test (empty files: the check never opens one): which files are unread, how each is
said, and what is never reported. No catalog loaded, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import FILES, Catalog
from neuron_docs.data.checking.every_file import MAX_NAMED, _size, unread_files
from neuron_docs.data.files.atomic import JOURNAL, LOCK, STAGED_SUFFIX


def folder(root: Path, *extra: str, sizes: dict[str, int] | None = None) -> Catalog:
    """A data folder holding every data file the site reads (empty), the write lock and journal, one
    revision, and ``extra`` files (of ``sizes`` bytes, else empty)."""
    for name in [spec.name for spec in FILES] + [LOCK, JOURNAL, "matrix/2024-01-01.yaml", *extra]:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * (sizes or {}).get(name, 0))
    return Catalog(root)


def named(catalog: Catalog) -> list[str]:
    return [e.file for e in unread_files(catalog)]


def test_a_folder_of_only_read_files_has_nothing_to_say(tmp_path: Path) -> None:
    assert unread_files(folder(tmp_path)) == []
    assert unread_files(Catalog(tmp_path / "missing")) == []


def test_a_stray_file_is_named_with_its_size_and_the_data_file_it_looks_like(tmp_path: Path) -> None:
    [error] = unread_files(folder(tmp_path, "device.yaml", sizes={"device.yaml": 2048}))
    assert (error.file, error.line, error.field) == ("device.yaml", None, "")
    assert error.message.startswith("a file the site does not read (2.0 KiB) (did you mean devices.yaml?); "
                                    "expected only the data files the site reads (catalog.FILES) and revisions "
                                    "in matrix/: rename it")
    [unlike] = unread_files(folder(tmp_path / "b", "notes.txt", sizes={"notes.txt": 5}))
    assert unlike.message.startswith("a file the site does not read (5 bytes); expected")


def test_stray_files_in_sub_folders_are_named_by_their_path_in_order(tmp_path: Path) -> None:
    cat = folder(tmp_path, "z.txt", "a.txt", "benchmarks/history/old.csv", "benchmarks/b.csv", "extra/deep/x.yaml")
    assert named(cat) == ["a.txt", "z.txt", "benchmarks/b.csv", "benchmarks/history/old.csv", "extra/deep/x.yaml"]


def test_the_revisions_folder_is_left_to_its_own_check(tmp_path: Path) -> None:
    assert named(folder(tmp_path, "matrix/notes.txt", "matrix/sub/x.yaml")) == []


def test_a_file_left_by_an_interrupted_write_says_so(tmp_path: Path) -> None:
    cat = folder(tmp_path, ".devices.yaml" + STAGED_SUFFIX, "benchmarks/.inference.csv" + STAGED_SUFFIX,
                 JOURNAL + STAGED_SUFFIX)
    errors = unread_files(cat)
    assert [e.file for e in errors] == [".devices.yaml" + STAGED_SUFFIX, JOURNAL + STAGED_SUFFIX,
                                        "benchmarks/.inference.csv" + STAGED_SUFFIX]
    assert all(e.message.startswith("left by an interrupted write to the data (not read); expected no such file: "
                                    "the next import removes it, or delete it") for e in errors)


def test_past_the_first_twenty_the_rest_are_counted_in_one_problem(tmp_path: Path) -> None:
    assert MAX_NAMED == 20
    names = [f"f{n:02}.txt" for n in range(23)]
    errors = unread_files(folder(tmp_path, *names, sizes={"f21.txt": 1000, "f22.txt": 48}))
    assert [e.file for e in errors] == [*names[:20], "f20.txt"]
    assert errors[-1].message == ("and 3 more files the site does not read (1.0 KiB in all); expected only the "
                                  "data files")
    exactly = unread_files(folder(tmp_path / "b", *names[:20]))
    assert [e.file for e in exactly] == names[:20]


def test_sizes_in_bytes_then_binary_units_up_to_gib() -> None:
    assert _size(0) == "0 bytes"
    assert _size(1023) == "1023 bytes"
    assert _size(1024) == "1.0 KiB"
    assert _size(1536) == "1.5 KiB"
    assert _size(1024 ** 2 - 1) == "1024.0 KiB"
    assert _size(1024 ** 2) == "1.0 MiB"
    assert _size(1024 ** 3) == "1.0 GiB"
    assert _size(5 * 1024 ** 4) == "5120.0 GiB"


def test_a_data_file_that_links_to_another_file_inside_the_folder_makes_that_file_read(tmp_path: Path) -> None:
    cat = folder(tmp_path, "real/devices-2024.yaml")
    (tmp_path / "devices.yaml").unlink()
    (tmp_path / "devices.yaml").symlink_to(tmp_path / "real" / "devices-2024.yaml")
    assert named(cat) == []


def test_a_link_to_a_file_outside_the_folder_reads_nothing_inside_it(tmp_path: Path) -> None:
    root = tmp_path / "data"
    cat = folder(root, "real/devices.yaml")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "devices.yaml").write_text("")
    (root / "devices.yaml").unlink()
    (root / "devices.yaml").symlink_to(tmp_path / "outside" / "devices.yaml")
    assert named(cat) == ["real/devices.yaml"]


def test_a_data_file_that_is_a_broken_link_or_a_loop_stops_nothing(tmp_path: Path) -> None:
    cat = folder(tmp_path, "stray.txt")
    (tmp_path / "devices.yaml").unlink()
    (tmp_path / "devices.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (tmp_path / "sources.yaml").unlink()
    (tmp_path / "sources.yaml").symlink_to(tmp_path / "sources.yaml")
    assert named(cat) == ["stray.txt"]


def test_a_linked_folder_is_named_not_entered(tmp_path: Path) -> None:
    cat = folder(tmp_path, "elsewhere/inner.txt")
    os.symlink(tmp_path / "elsewhere", tmp_path / "benchmarks" / "linked")
    assert named(cat) == ["benchmarks/linked", "elsewhere/inner.txt"]


def test_a_linked_folder_in_place_of_a_data_folder_is_not_reported(tmp_path: Path) -> None:
    root = tmp_path / "data"
    folder(tmp_path / "real")
    root.mkdir()
    cat = folder(root)
    for name in ("benchmarks", "matrix"):
        for path in sorted((root / name).rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        (root / name).rmdir()
        os.symlink(tmp_path / "real" / name, root / name)
    assert named(cat) == []


def test_a_data_file_that_leads_into_a_loop_of_links_reads_none_of_them(tmp_path: Path) -> None:
    cat = folder(tmp_path)
    (tmp_path / "sources.yaml").unlink()
    (tmp_path / "sources.yaml").symlink_to(tmp_path / "c.yaml")
    (tmp_path / "c.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "c.yaml")
    assert named(cat) == ["b.yaml", "c.yaml"]


def test_a_broken_link_does_not_stop_the_other_data_files_links_being_followed(tmp_path: Path) -> None:
    """Half the data files broken links, half links into ``real/``: every file of ``real/`` is read,
    whatever order the names are looked at in (a stop at the first broken link would leave some)."""
    names = sorted({spec.name for spec in FILES} | {LOCK, JOURNAL})
    cat = folder(tmp_path, *(f"real/{n}" for n in names[1::2]))
    for n, name in enumerate(names):
        (tmp_path / name).unlink()
        (tmp_path / name).symlink_to(tmp_path / ("nowhere" if n % 2 == 0 else f"real/{name}"))
    assert named(cat) == []


def test_a_folder_whose_name_sorts_before_a_dot_keeps_its_path(tmp_path: Path) -> None:
    assert named(folder(tmp_path, "-old/x.txt", "+new/y.txt")) == ["+new/y.txt", "-old/x.txt"]


def test_a_hidden_stray_file_is_a_file_the_site_does_not_read(tmp_path: Path) -> None:
    errors = unread_files(folder(tmp_path, ".notes", "-draft.yaml", ".a" + STAGED_SUFFIX))
    assert [(e.file, e.message.split(";")[0]) for e in errors] == [
        ("-draft.yaml", "a file the site does not read (0 bytes)"),
        (".a" + STAGED_SUFFIX, "left by an interrupted write to the data (not read)"),
        (".notes", "a file the site does not read (0 bytes)")]


def test_a_file_gone_while_the_folder_is_listed_is_not_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cat = folder(tmp_path, "a.txt", "b-gone.txt", "c.txt")
    lstat = os.lstat

    def vanishing(path: str, *args: Any, **kwargs: Any) -> os.stat_result:
        if str(path).endswith("-gone.txt"):
            raise FileNotFoundError(path)
        return lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", vanishing)
    assert named(cat) == ["a.txt", "c.txt"]
