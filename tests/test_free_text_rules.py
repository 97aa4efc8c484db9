"""The prose of the data files (``data/files/free_text.py``), gathered from YAML composed in the test:
which fields are prose, the heading a text gets from its sibling fields, where it is in the file, what
its record quotes, texts in nested records and lists. No data files, no Sphinx (``make mutation`` runs
it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest
import yaml

from neuron_docs.data.files.free_text import (ABOUT_FIELDS, DATA_TEXT_FILES, FREE_TEXT_FIELDS, FreeText,
                                              free_texts_of)


def texts(source: str) -> list[FreeText]:
    return free_texts_of(yaml.compose(source))


def test_no_document_has_no_text() -> None:
    assert free_texts_of(None) == []
    assert free_texts_of(yaml.compose("")) == []
    assert texts("just a scalar") == [] and texts("[a, b]") == [] and texts("{}") == []


@pytest.mark.parametrize("field", ["explanation", "rationale", "why", "note", "notes", "description", "support_text"])
def test_each_prose_field_is_gathered(field: str) -> None:
    found = texts(f"id: rec\n{field}: Some prose of 12 GB\n")
    assert [(t.field, t.text, t.heading) for t in found] == [(field, "Some prose of 12 GB", "rec")]


@pytest.mark.parametrize("field", ["title", "name", "text", "value", "source", "quote", "explanations", "Note"])
def test_other_fields_are_not_prose(field: str) -> None:
    assert texts(f"id: rec\n{field}: Some words\n") == []


def test_the_prose_fields_and_files() -> None:
    assert FREE_TEXT_FIELDS == {"explanation", "rationale", "why", "note", "notes", "description", "support_text"}
    assert ABOUT_FIELDS == ("id", "name", "family", "device", "instance", "model", "quote", "expression", "title",
                            "label")
    assert DATA_TEXT_FILES == ("errata.yaml", "families.yaml", "devices.yaml", "instances.yaml", "issues.yaml")


@pytest.mark.parametrize("field", ["id", "name", "family", "device", "instance", "model", "quote", "expression",
                                   "title", "label"])
def test_each_about_field_heads_the_text(field: str) -> None:
    found = texts(f"{field}: About it\nsource: src-x\nnote: Prose\n")
    assert [t.heading for t in found] == ["About it"]


def test_the_heading_is_every_about_field_in_file_order() -> None:
    found = texts("title: A title\nvalue: 12\nid: rec-1\nsource: s\nmodel: Llama\nnote: The prose\n")
    assert found[0].heading == "A title rec-1 Llama"
    # an about field that is not a scalar says nothing; no about field, no heading
    assert texts("name: [x, y]\nid: r\nwhy: Because\n")[0].heading == "r"
    assert texts("value: 3\nwhy: Because\n")[0].heading == ""


def test_where_a_text_is_in_the_file() -> None:
    source = "records:\n  - id: one\n    note: First text\n  - id: two\n    why: 'Second, quoted'\n"
    first, second = texts(source)
    assert (first.line, second.line) == (3, 5)
    assert source[first.start:first.end] == "First text"
    assert source[second.start:second.end] == "'Second, quoted'" and second.text == "Second, quoted"
    assert (first.heading, second.heading) == ("one", "two")


def test_a_block_text_keeps_its_lines_and_starts_at_its_indicator() -> None:
    source = "id: rec\nexplanation: |\n  One line.\n  Another.\nname: after\n"
    (found,) = texts(source)
    assert found.text == "One line.\nAnother.\n" and found.line == 2
    assert source[found.start:found.end].startswith("|") and found.heading == "rec after"


def test_a_text_of_a_record_that_quotes_its_source() -> None:
    found = texts("id: e1\nquote: 'a 32 GB device'\nexplanation: The device has 16 GB\n")
    assert found[0].quoted == "a 32 GB device" and found[0].heading == "e1 a 32 GB device"
    assert texts("id: e1\nexplanation: No quote\n")[0].quoted == ""


def test_texts_in_nested_records_and_lists_in_file_order() -> None:
    source = """\
id: fam
devices:
  inf2:
    rationale: Fits in memory
    device: inf2
  trn1: {why: Fast, name: Trn}
also:
  - value: 3
    source: s
    why: Another source
notes: Family notes
tags: [note, why]
"""
    found = texts(source)
    assert [(t.field, t.text, t.heading) for t in found] == [
        ("rationale", "Fits in memory", "inf2"), ("why", "Fast", "Trn"), ("why", "Another source", ""),
        ("notes", "Family notes", "fam")]
    assert [t.line for t in found] == [4, 6, 10, 11]


def test_a_prose_field_that_is_not_a_scalar_is_walked_into() -> None:
    found = texts("id: top\nnotes:\n  - id: inner\n    note: Inner prose\n  - plain\ndescription: {why: Deep}\n")
    assert [(t.field, t.text, t.heading) for t in found] == [("note", "Inner prose", "inner"), ("why", "Deep", "")]


def test_a_key_that_is_not_a_scalar_is_walked_into() -> None:
    found = texts("? [a, b]\n: {note: Under a list key}\n? {why: In a key}\n: x\nid: k\n")
    assert [(t.field, t.text, t.heading) for t in found] == [("note", "Under a list key", "")]
    # its value is walked, not the key; and a scalar under a complex key is no prose
    assert texts("? [note]\n: prose\n") == []


def test_a_texts_numbers_and_words_are_kept_as_written() -> None:
    found = texts("id: 12\nnote: 3.50\nwhy: yes\n")
    assert [(t.text, t.heading) for t in found] == [("3.50", "12"), ("yes", "12")]
    assert all(isinstance(t.text, str) for t in found)


def test_a_free_text_is_immutable_and_survives_a_pickle() -> None:
    (found,) = texts("id: r\nnote: Prose\n")
    with pytest.raises(FrozenInstanceError):
        found.text = "other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(found)) == found
