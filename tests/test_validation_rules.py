"""Reading and validating data files into a catalog (``data/checking/validation.py`` and, one file,
``data/checking/file_records.py``), on small files
written in the test: what a file gives (records, errors, records set aside), what makes a whole file
unreadable, where each error is located, references checked until none dangle, and the catalog put
together from its files. No real data, no Sphinx (``make mutation`` runs it with ``--noconftest`` per
mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.checking import validation as v
from neuron_docs.data.checking.file_records import (SPECS, _problems_by_record, _shown_id, field_name, file_places,
                                                    merge, place_of, read_file)
from neuron_docs.data.checking.validation import _check_header, _check_references, load_catalog
from neuron_docs.data.files.atomic import JOURNAL
from neuron_docs.data.files.loader import DataError
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps

SOURCES = """\
sources:
- id: a
  title: A
- id: b
  title: B
"""


def said(cat: Catalog) -> list[tuple[str, int | None, str, str]]:
    return [(e.file, e.line, e.field, e.message) for e in cat.errors]


# -- one YAML file ---------------------------------------------------------------------------------------

def test_a_file_gives_its_records_their_lines_and_paths() -> None:
    cat = read_file("sources.yaml", SOURCES)
    assert list(cat.sources) == ["a", "b"] and cat.sources["b"].title == "B"
    assert cat.lines["sources"] == {"a": 2, "b": 4}
    assert cat.record_paths[("sources", "b")] == (("sources", 1), False)
    assert cat.errors == [] and cat.broken == []
    assert len(cat.file_hashes["sources.yaml"]) == 64
    assert cat.positions["sources.yaml"][("sources", 1, "title")] == 5


def test_a_record_that_does_not_validate_is_set_aside_with_its_located_errors() -> None:
    cat = read_file("sources.yaml", SOURCES + "- id: c\n  titel: C\n")
    assert list(cat.sources) == ["a", "b"]
    assert [(e.line, e.field) for e in cat.errors] == [(6, "sources[2].title"), (7, "sources[2].titel")]
    [broken] = cat.broken
    assert (broken.collection, broken.record_id, broken.file, broken.line) == ("sources", "c", "sources.yaml", 6)
    assert broken.errors == cat.errors


def test_a_record_with_a_problem_in_its_text_is_set_aside_with_what_it_names() -> None:
    text = "instances:\n- id: i\n  device: d1\n  device: d2\n"
    cat = read_file("instances.yaml", text)
    assert cat.instances == {}
    assert said(cat) == [("instances.yaml", 4, "instances[0].device",
                          "duplicate key 'device' (the first is on line 3); expected each key once")]
    [broken] = cat.broken
    assert (broken.record_id, broken.line, broken.refs) == ("i", 2, (("devices", "d1"),))


def test_a_problem_at_a_record_itself_is_that_records_only() -> None:
    cat = read_file("sources.yaml", SOURCES + "- id: c\n  [x]: 1\n")
    assert list(cat.sources) == ["a", "b"]
    assert [(e.line, e.field) for e in cat.errors] == [(7, "sources[2]")]
    assert [(b.record_id, b.errors) for b in cat.broken] == [("c", cat.errors)]


def test_the_records_after_one_set_aside_load() -> None:
    cat = read_file("sources.yaml", "sources:\n- id: a\n  title: A\n  title: B\n- id: b\n  title: B\n")
    assert list(cat.sources) == ["b"] and [b.record_id for b in cat.broken] == ["a"]
    invalid = read_file("sources.yaml", "sources:\n- id: a\n- id: b\n  title: B\n")
    assert list(invalid.sources) == ["b"] and [b.record_id for b in invalid.broken] == ["a"]


def test_a_record_that_validates_names_what_it_names_when_set_aside() -> None:
    cat = read_file("instances.yaml", "instances:\n- id: i\n  device: d1\n")
    [broken] = cat.broken
    assert broken.refs == (("devices", "d1"),)


def test_a_second_record_of_one_id_is_set_aside() -> None:
    cat = read_file("sources.yaml", SOURCES + "- id: a\n  title: Again\n")
    assert cat.sources["a"].title == "A"
    later = read_file("sources.yaml", SOURCES + "- id: a\n  title: Again\n- id: c\n  title: C\n")
    assert list(later.sources) == ["a", "b", "c"]
    assert said(cat) == [("sources.yaml", 6, "sources[2].id",
                          "duplicate id 'a' (first defined on line 2); expected a unique id")]
    [broken] = cat.broken
    assert (broken.record_id, broken.line, broken.errors) == ("a", 6, cat.errors)


def test_a_record_is_reported_under_its_id_only_when_it_is_short_printable_text() -> None:
    assert _shown_id({"id": "abc"}) == "abc"
    assert _shown_id({"id": "x" * 200}) == "x" * 200
    assert _shown_id({"id": "x" * 201}) is None
    assert _shown_id({"id": "a\x00b"}) is None
    assert _shown_id({"id": 3}) is None
    assert _shown_id(["id"]) is None


def test_an_empty_file_or_one_that_is_no_mapping_is_refused_whole() -> None:
    for text, why in (("", "file is empty"), ("- 1\n", "file holds a list"), ("5\n", "file holds a single value (5)")):
        cat = read_file("families.yaml", text)
        [error] = cat.errors
        assert error.message == f"{why}; expected a mapping with keys: categories, families, guidelines_as_of"
        assert cat.failed_files == {"families.yaml"}
        assert [(b.collection, b.record_id, b.file, b.errors) for b in cat.broken] == [
            ("categories", None, "families.yaml", [error]), ("families", None, "families.yaml", [error])]
    assert read_file("sources.yaml", "- 1\n").errors[0].line == 1


def test_a_file_that_cannot_be_parsed_is_refused_whole() -> None:
    cat = read_file("sources.yaml", "sources: [unclosed\n")
    assert cat.failed_files == {"sources.yaml"}
    [broken] = cat.broken
    assert (broken.collection, broken.record_id, broken.errors) == ("sources", None, cat.errors)
    assert "sources.yaml" not in cat.positions


def test_a_problem_at_the_top_of_a_file_or_of_a_list_refuses_the_file() -> None:
    top = read_file("sources.yaml", SOURCES + "sources: []\nextra: 1\nextra: 2\n")
    assert top.failed_files == {"sources.yaml"} and top.sources == {}
    assert [(e.line, e.field) for e in top.errors] == [(6, "sources"), (8, "extra")]
    assert [b.line for b in top.broken] == [6]  # the file is set aside at its first problem
    key = read_file("sources.yaml", "[a, b]: 1\n" + SOURCES)
    assert key.failed_files == {"sources.yaml"} and key.sources == {}
    merge = read_file("sources.yaml", "<<: {a: 1}\n" + SOURCES)  # a problem at a key of the top: reported
    assert merge.failed_files == set() and list(merge.sources) == ["a", "b"]
    assert [e.field for e in merge.errors] == ["<<"]


def test_an_unknown_key_at_the_top_is_reported_and_the_records_load() -> None:
    cat = read_file("sources.yaml", SOURCES + "sorces: 1\nextra: 2\nextra: 3\n")
    assert list(cat.sources) == ["a", "b"]
    assert [(e.line, e.field, e.message) for e in cat.errors] == [
        (8, "extra", "duplicate key 'extra' (the first is on line 7); expected each key once"),
        (6, "sorces", "unknown key 'sorces' (did you mean 'sources'?); expected one of: sources"),
        (7, "extra", "unknown key 'extra'; expected one of: sources")]
    assert cat.broken == [] and cat.failed_files == set()


def test_a_problem_inside_a_collection_that_is_no_list_does_not_refuse_the_file() -> None:
    cat = read_file("sources.yaml", "sources:\n  a: 1\n  a: 2\n")
    assert cat.failed_files == set()
    assert [(e.line, e.field) for e in cat.errors] == [(3, "sources.a"), (1, "sources")]
    assert [(b.collection, b.record_id) for b in cat.broken] == [("sources", None)]


def test_a_collection_that_is_missing_or_no_list_is_set_aside_not_the_file() -> None:
    cat = read_file("issues.yaml", "known_issues: 5\n")
    assert said(cat) == [
        ("issues.yaml", 1, "known_issues", "expected a list of known_issues records (got 5)"),
        ("issues.yaml", None, "roadmap",
         "missing required list 'roadmap'; expected a key 'roadmap:' holding a list of roadmap records")]
    assert [(b.collection, b.record_id, b.line) for b in cat.broken] == [("known_issues", None, 1),
                                                                         ("roadmap", None, None)]
    assert cat.failed_files == set()


def test_the_header_of_a_file_is_read_and_checked() -> None:
    lists = "categories: []\nfamilies: []\n"
    assert read_file("families.yaml", "guidelines_as_of: 2024-01-01\n" + lists).header == s.FamiliesHeader(
        guidelines_as_of=dt.date(2024, 1, 1))
    bad = read_file("families.yaml", lists + "guidelines_as_of: 2024-13-01\n")
    assert bad.header is None
    assert [(e.line, e.field) for e in bad.errors] == [(3, "guidelines_as_of")]
    twice = read_file("families.yaml", "guidelines_as_of: 2024-01-01\n" + lists + "guidelines_as_of: 2024-01-02\n")
    assert twice.header is None
    assert [e.field for e in twice.errors] == ["guidelines_as_of"]
    assert twice.failed_files == set()
    loose = read_file("families.yaml", "guidelines_as_of: 2024-01-01\n" + lists + "zzz: 1\nzzz: 2\n")
    assert loose.header == s.FamiliesHeader(guidelines_as_of=dt.date(2024, 1, 1))  # a problem elsewhere
    under = read_file("families.yaml", "guidelines_as_of: 2024-01-01\n" + lists +
                       "zzz:\n  guidelines_as_of: 1\n  guidelines_as_of: 2\n")
    assert under.header is not None  # a problem under another key named like a header field
    missing = read_file("families.yaml", lists)
    assert missing.header is None and [e.field for e in missing.errors] == ["guidelines_as_of"]
    assert read_file("sources.yaml", SOURCES).header is None


def test_problems_by_record() -> None:
    e = [DataError("f", n, "", str(n)) for n in range(5)]
    problems = [(("a", 0, "x"), e[0]), (("a", 0), e[1]), (("a",), e[2]), (("b", 1), e[3]), (("a", "k"), e[4]),
                (("a", 2, "y", "z"), e[0])]
    assert _problems_by_record(problems, ("a",)) == {0: [e[0], e[1]], 2: [e[0]]}
    assert _problems_by_record(problems, ()) == {}
    assert _problems_by_record(problems, ("b",)) == {1: [e[3]]}
    assert _problems_by_record([((3, "x"), e[1]), ((3,), e[2])], ()) == {3: [e[1], e[2]]}


# -- one CSV file ----------------------------------------------------------------------------------------

STATES = "benchmarks/history/states.csv"
HEADER = "id,date,rows,placed,set_aside\n"


def test_a_csv_file_gives_a_record_per_row_and_names_fields_by_column() -> None:
    cat = read_file(STATES, HEADER + "2024-01-01-aaaa,2024-01-01,1,1,0\n2024-01-02-bbbb,2024-13-02,1,1,0\n")
    assert list(cat.benchmark_states) == ["2024-01-01-aaaa"]
    assert cat.record_paths[("benchmark_states", "2024-01-01-aaaa")] == ((0,), True)
    assert [(e.line, e.field) for e in cat.errors] == [(3, "date")]
    [broken] = cat.broken
    assert (broken.collection, broken.record_id, broken.line) == ("benchmark_states", "2024-01-02-bbbb", 3)


def test_a_csv_row_with_a_problem_in_its_text_is_set_aside() -> None:
    cat = read_file(STATES, HEADER + "2024-01-01-aaaa,2024-01-01,1,1,0,extra\n2024-01-02-bbbb,2024-01-02,1,1,0\n")
    assert list(cat.benchmark_states) == ["2024-01-02-bbbb"]
    assert [b.record_id for b in cat.broken] == ["2024-01-01-aaaa"]
    assert [e.line for e in cat.errors] == [2]


def test_a_csv_file_without_a_required_column_is_refused_whole() -> None:
    cat = read_file(STATES, "id,date\n")
    assert cat.failed_files == {STATES}
    assert [(b.collection, b.record_id) for b in cat.broken] == [("benchmark_states", None)]


def test_fields_are_named_by_key_path_in_yaml_and_by_column_in_csv() -> None:
    assert field_name(("sources", 2, "title"), csv=False) == "sources[2].title"
    assert field_name((2, "title"), csv=True) == "title"


# -- the catalog of every file ----------------------------------------------------------------------------

def test_merging_a_files_catalog_copies_what_it_gave() -> None:
    part = read_file("sources.yaml", SOURCES + "- id: c\n# this test's own (the catalog of a text is cached)\n")
    cat = Catalog(Path("."))
    cat.shared_parts["k"] = "mine"
    part.shared_parts["k"] = "theirs"
    part.shared_parts["j"] = "new"
    part.header = s.FamiliesHeader.model_construct(guidelines_as_of=dt.date(2024, 1, 1))
    part.failed_files.add("x.yaml")
    positions, record_paths = part.positions, part.record_paths
    merge(cat, part)
    assert list(cat.sources) == ["a", "b"] and cat.lines["sources"] == {"a": 2, "b": 4}
    assert cat.errors == part.errors and cat.broken == part.broken
    cat.broken[0].errors.append(DataError("f", 1, "", "later"))
    assert len(part.broken[0].errors) == 1  # the file's own catalog is left as it is (it is cached)
    assert cat.file_hashes == part.file_hashes and cat.file_texts == part.file_texts
    assert cat.positions == positions and cat.record_paths == record_paths and cat.failed_files == {"x.yaml"}
    # The part remembered keeps its records and text, not their places: the catalog has them alone.
    assert (part.positions, part.record_paths, list(part.sources)) == ({}, {}, ["a", "b"])
    assert cat.header is part.header
    assert (cat.shared_parts["k"], cat.shared_parts["j"]) == ("mine", "new")
    kept = s.FamiliesHeader.model_construct(guidelines_as_of=dt.date(2023, 1, 1))
    cat.header = kept
    merge(cat, read_file("sources.yaml", SOURCES))
    assert cat.header is kept


def test_references_are_checked_until_none_dangles() -> None:
    cat = Catalog(Path("."))
    cat.records["devices"] = {"d1": s.Device.model_construct(id="d1", source="src", specs={})}
    cat.records["instances"] = {"i1": s.Instance.model_construct(id="i1", device="d1", source=None, specs={},
                                                                 price=None)}
    cat.records["environments"] = {"e1": s.Environment.model_construct(id="e1", instance="i1", framework=None,
                                                                       source="src")}
    cat.lines["devices"] = {"d1": 3}
    cat.lines["environments"] = {"e1": 9}
    cat.positions["devices.yaml"] = {("devices", 0): 3, ("devices", 0, "source"): 4}
    cat.record_paths[("devices", "d1")] = (("devices", 0), False)
    _check_references(cat)  # no source "src": the device goes, then its instance, then the environment
    assert cat.devices == {} and cat.instances == {} and cat.environments == {}
    assert [(b.collection, b.record_id, b.file, b.line) for b in cat.broken] == [
        ("devices", "d1", "devices.yaml", 3), ("instances", "i1", "instances.yaml", None),
        ("environments", "e1", "models.yaml", 9)]
    assert [(e.file, e.line, e.field) for e in cat.errors] == [
        ("devices.yaml", 4, "devices[0].source"), ("instances.yaml", None, "device"),
        ("models.yaml", 9, "source"), ("models.yaml", 9, "instance")]
    assert cat.broken[2].refs == (("sources", "src"), ("instances", "i1"))
    assert cat.broken[0].errors == cat.errors[:1]


def test_a_record_whose_reference_is_set_aside_later_in_a_pass_is_set_aside_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """models.yaml comes before the published models: a model the same as a published model set aside
    for its own dangling family is found in the next pass."""
    monkeypatch.setattr(v, "consistency_problems", lambda collection, record, catalog: [])
    cat = Catalog(Path("."))
    cat.records["families"] = {"fa": s.Family.model_construct(id="fa", category="cat", devices={})}
    cat.records["categories"] = {"cat": s.Category.model_construct(id="cat")}
    cat.records["models"] = {"m": s.Model.model_construct(id="m", family="fa", same_as="pm", paper_top1=None)}
    cat.records["published_models"] = {"pm": ps.PublishedModel.model_construct(id="pm", family="nope", same_as=None)}
    _check_references(cat)
    assert cat.published_models == {} and cat.models == {}
    assert [(b.collection, b.record_id) for b in cat.broken] == [("published_models", "pm"), ("models", "m")]


def test_a_rule_across_records_sets_a_record_aside_too(monkeypatch: pytest.MonkeyPatch) -> None:
    cat = Catalog(Path("."))
    cat.records["sources"] = {"a": s.Source.model_construct(id="a"), "b": s.Source.model_construct(id="b")}
    monkeypatch.setattr(v, "consistency_problems",
                        lambda collection, record, catalog: [(("title",), "no")] if record.id == "b" else [])
    _check_references(cat)
    assert list(cat.sources) == ["a"]
    assert [(e.field, e.message) for e in cat.errors] == [("title", "no")]


def test_the_guidelines_name_a_revision(tmp_path: Path) -> None:
    cat = Catalog(tmp_path)
    _check_header(cat)
    assert cat.errors == []
    cat.header = s.FamiliesHeader.model_construct(guidelines_as_of=dt.date(2024, 1, 1))
    _check_header(cat)  # no revision at all: said where the revisions are loaded
    assert cat.errors == []


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def test_the_catalog_of_a_data_folder(tmp_path: Path) -> None:
    write(tmp_path, {"sources.yaml": SOURCES, "devices.yaml": "devices: []\n", "stray.txt": "",
                     "families.yaml": "guidelines_as_of: 2024-01-01\ncategories: []\nfamilies: []\n"})
    cat = load_catalog(tmp_path)
    assert list(cat.sources) == ["a", "b"]
    files = [e.file for e in cat.errors]
    assert files == sorted(files)
    assert "stray.txt" in files and "matrix/" in files and "instances.yaml" in files
    assert "model_sizes.yaml" not in files  # optional
    assert "instances.yaml" in cat.failed_files and "sources.yaml" not in cat.failed_files
    assert JOURNAL not in files


def test_errors_are_sorted_by_file_line_field_and_message(tmp_path: Path) -> None:
    write(tmp_path, {"sources.yaml": SOURCES + "sorces: 1\nextra: 1\nextra: 2\n", "issues.yaml": "known_issues: 5\n"})
    cat = load_catalog(tmp_path)
    assert [(e.line, e.field) for e in cat.errors if e.file == "sources.yaml"] == [(6, "sorces"), (7, "extra"),
                                                                                  (8, "extra")]
    assert [(e.line, e.field) for e in cat.errors if e.file == "issues.yaml"] == [(None, "roadmap"),
                                                                                 (1, "known_issues")]
    (tmp_path / JOURNAL).write_text("{}")
    interrupted = load_catalog(str(tmp_path))
    [journal] = [e for e in interrupted.errors if e.file == JOURNAL]
    assert journal.message.startswith("an import was interrupted while writing the data")


def test_the_guidelines_revision_is_one_of_the_folder(tmp_path: Path) -> None:
    rev = ("date: 2024-01-01\ncommit: abcdef0\nsource: a\npage: p\ndevices: [d]\nframeworks: [f]\n"
           "statuses: {}\nfits: {}\nmatrices: [{id: m, architecture: A, title: T, devices: [d], "
           "last_update_published: 01/01/2024, columns: [{framework: f, workload: inference, header: H}], rows: []}]\n")
    write(tmp_path, {"sources.yaml": SOURCES, "matrix/2024-01-01.yaml": rev,
                     "families.yaml": "categories: []\nfamilies: []\n\nguidelines_as_of: 2024-02-01\n"})
    cat = load_catalog(tmp_path)
    [error] = [e for e in cat.errors if e.file == "families.yaml"]
    assert (error.line, error.field, error.message) == (
        4, "guidelines_as_of", "no revision of 2024-02-01 in matrix/; expected one of: 2024-01-01")
    write(tmp_path, {"families.yaml": "categories: []\nfamilies: []\nguidelines_as_of: 2024-01-01\n"})
    assert [e for e in load_catalog(tmp_path).errors if e.file == "families.yaml"] == []


def test_a_file_over_its_size_bound_is_refused_whole(tmp_path: Path) -> None:
    write(tmp_path, {"sources.yaml": SOURCES})
    cat = Catalog(tmp_path)
    v._load_file(cat, dataclasses.replace(SPECS["sources.yaml"], max_bytes=10))
    assert cat.failed_files == {"sources.yaml"} and cat.sources == {}
    assert [(b.collection, b.record_id) for b in cat.broken] == [("sources", None)]


def test_an_optional_file_may_be_missing_a_required_one_not(tmp_path: Path) -> None:
    cat = Catalog(tmp_path)
    v._load_file(cat, SPECS["model_sizes.yaml"])
    assert cat.errors == [] and cat.broken == []
    v._load_file(cat, SPECS["sources.yaml"])
    assert cat.failed_files == {"sources.yaml"}
    write(tmp_path, {"model_sizes.yaml": "model_sizes: []\nmodel_size_gaps: []\n"})
    v._load_file(cat, SPECS["model_sizes.yaml"])
    assert "model_sizes.yaml" in cat.file_hashes



def test_a_record_of_a_remembered_part_is_placed_from_the_files_text() -> None:
    """A catalog merged from a part the memo already held has none of its places: where a record's
    field is comes from the file's text, read again once, and is where a first read puts it."""
    text = SOURCES + "- id: c\n  title: C\n# this test's own text\n"
    first = Catalog(Path("."))
    merge(first, read_file("sources.yaml", text))
    assert place_of(first, "sources", "c", ("title",)) == (7, ("sources", 2, "title"), False)
    again = Catalog(Path("."))
    merge(again, read_file("sources.yaml", text))  # the same text: the memo's part, without places
    assert again.positions == {} and again.record_paths == {}
    assert place_of(again, "sources", "c", ("title",)) == (7, ("sources", 2, "title"), False)
    assert ("sources", "a") in again.record_paths and file_places(again, "sources.yaml") is again.positions["sources.yaml"]
    assert file_places(Catalog(Path(".")), "sources.yaml") == {}  # a file never read has no places


def test_the_prose_of_a_file_that_has_some_is_read_with_it() -> None:
    """A file of prose (devices.yaml: its notes) gives its free texts with its records; a file without
    prose (sources.yaml) gives none, and a catalog made of both has the one file's."""
    devices = "devices:\n- id: d1\n  name: D1\n  note: About 2 GB/s.\n# this test's own text\n"
    part = read_file("devices.yaml", devices)
    [text] = part.free_texts["devices.yaml"]
    assert (text.field, text.text, text.heading, text.line) == ("note", "About 2 GB/s.", "d1 D1", 4)
    assert read_file("sources.yaml", SOURCES).free_texts == {}
    cat = Catalog(Path("."))
    merge(cat, read_file("sources.yaml", SOURCES))
    merge(cat, part)
    assert list(cat.free_texts) == ["devices.yaml"]
