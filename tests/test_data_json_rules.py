"""The rules of the data set's JSON document (``site/downloads/data_json.py``) on a stand-in catalog built
in the test: its members in their documented order, the collections in file order with their records
as dumped, the figures sorted by path (the build's own order when they are the build's), a figure's
source only when it has one, the matrices only when there are revisions, the schema's id by the
version's major part. No Sphinx, no catalog loaded (``make mutation`` runs it with ``--noconftest``
per mutant: ``tests/MUTATION.md``); ``test_downloads.py`` and ``test_downloads_streaming.py`` check
the real data's document."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from neuron_docs.data import Catalog
from neuron_docs.data import catalog as catalog_module
from neuron_docs.data.figures.values import Value, Values
from neuron_docs.data.records import models as s
from neuron_docs.data.records.matrix import Revision
from neuron_docs.site.downloads import data_json as dj
from neuron_docs.site.downloads.json_stream import built, dumps


def revision(day: int) -> Revision:
    return Revision.model_construct(date=dt.date(2024, 1, day), commit="abcdef1", source="src", page="p",
                                    devices=["d"], frameworks=["f"], statuses={}, fits={}, instances=[], matrices=[])


def stand_in(records: dict[str, dict[str, Any]] | None = None, revisions: list[Revision] | None = None,
             guidelines: dt.date | None = None, header: bool = True) -> Any:
    """A catalog as the document reads one: records by collection, a fingerprint, the matrices."""
    revisions = revisions or []
    last_update = {"m-1": dt.date(2024, 1, 1), "m-2": dt.date(2024, 1, 3)}
    return SimpleNamespace(
        records=records or {}, fingerprint="f" * 64,
        header=SimpleNamespace(guidelines_as_of=guidelines) if header else None,
        revision=lambda: revisions[-1] if revisions else None,
        matrix_revisions=SimpleNamespace(revisions=revisions,
                                         last_update=lambda latest: dict(last_update, latest=latest.date)))


@pytest.fixture(autouse=True)
def no_dates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dj, "data_last_updated", lambda catalog: None)


def value(number: float, source: str | None = None, derived: bool = False) -> Value:
    return Value(number, "ms", f"label {number}", source, derived, "c", "r")


# The schema's id and the collections --------------------------------------------------------------------


def test_the_schemas_id_names_the_versions_major_part_only() -> None:
    major, minor = dj.SCHEMA_VERSION.split(".")
    assert re.fullmatch(r"\d+\.\d+", dj.SCHEMA_VERSION)
    assert dj.SCHEMA_ID == f"https://neuron-docs.invalid/schemas/neuron-data-{major}.schema.json"
    assert f"-{major}.{minor}." not in dj.SCHEMA_ID


def test_the_collections_are_every_files_in_file_order() -> None:
    expected: list[str] = []
    for spec in catalog_module.FILES:
        expected += list(spec.collections)
        if spec.csv is not None:
            expected.append(spec.csv[0])
    types = dj.collection_types()
    assert list(types) == expected
    for spec in catalog_module.FILES:
        for name, model in spec.collections.items():
            assert types[name] is model
        if spec.csv is not None:
            assert types[spec.csv[0]] is spec.csv[1]


def test_a_file_without_a_csv_adds_only_its_collections(monkeypatch: pytest.MonkeyPatch) -> None:
    specs = [catalog_module.FileSpec("a.yaml", {"sources": s.Source}),
             catalog_module.FileSpec("b.csv", csv=("devices", s.Device)),
             catalog_module.FileSpec("c.yaml", {"models": s.Model}, csv=None)]
    monkeypatch.setattr(catalog_module, "FILES", specs)
    assert dj.collection_types() == {"sources": s.Source, "devices": s.Device, "models": s.Model}


# The document ------------------------------------------------------------------------------------------


def test_the_document_has_its_members_in_the_documented_order() -> None:
    doc = dj.data_document(stand_in(), {})
    assert list(doc) == ["$schema", "schema_version", "data_fingerprint", "data_last_updated", "matrix",
                         "collections", "values"]
    assert doc["$schema"] == dj.SCHEMA_ID and doc["schema_version"] == dj.SCHEMA_VERSION
    assert doc["data_fingerprint"] == "f" * 64 and doc["data_last_updated"] is None
    assert doc["matrix"] is None and doc["values"] == {}
    assert list(doc["collections"]) == list(dj.collection_types())
    assert all(records == [] for records in doc["collections"].values())


def test_records_are_dumped_in_their_files_order_without_empty_fields() -> None:
    sources = {"src-b": s.Source(id="src-b", title="B", url="https://b.invalid/"),
               "src-a": s.Source(id="src-a", title="A")}
    doc = dj.data_document(stand_in({"sources": sources, "unknown": {"x": s.Source(id="x", title="X")}}), {})
    assert doc["collections"]["sources"] == [
        {"id": "src-b", "title": "B", "url": "https://b.invalid/"}, {"id": "src-a", "title": "A"}]
    assert "unknown" not in doc["collections"]


def test_figures_are_sorted_by_path_with_a_source_only_when_they_have_one() -> None:
    values: Mapping[str, Value] = {"b:2:x": value(2, "src-1", True), "a:1:y": value(1), "b:10:x": value(3, "")}
    doc = dj.data_document(stand_in(), values)
    assert list(doc["values"]) == ["a:1:y", "b:10:x", "b:2:x"]
    assert doc["values"]["b:2:x"] == {"number": 2, "unit": "ms", "label": "label 2", "derived": True, "source": "src-1"}
    assert doc["values"]["a:1:y"] == {"number": 1, "unit": "ms", "label": "label 1", "derived": False}
    assert "source" not in doc["values"]["b:10:x"]


def test_the_builds_figures_are_written_in_their_own_path_order(monkeypatch: pytest.MonkeyPatch) -> None:
    class Built(Values):
        def __init__(self) -> None:
            pass

        def in_path_order(self) -> Iterator[tuple[str, Value]]:
            yield from [("z", value(1)), ("a", value(2))]  # the build's order, taken as given

        def items(self) -> Any:
            raise AssertionError("sorted again")

    assert list(dj.data_document(stand_in(), Built())["values"]) == ["z", "a"]


def test_without_figures_given_the_builds_are_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = stand_in()
    monkeypatch.setattr(dj, "build_values", lambda c: {"p:1:x": value(5)} if c is catalog else {})
    assert list(dj.data_document(catalog)["values"]) == ["p:1:x"]
    assert dj.data_document(catalog, {})["values"] == {}


def test_the_matrices_are_there_only_with_revisions() -> None:
    revisions = [revision(1), revision(5)]
    doc = dj.data_document(stand_in(revisions=revisions, guidelines=dt.date(2023, 12, 1)), {})
    matrix = doc["matrix"]
    assert matrix["guidelines_as_of"] == "2023-12-01" and matrix["latest"] == "2024-01-05"
    assert matrix["last_update"] == {"m-1": "2024-01-01", "m-2": "2024-01-03", "latest": "2024-01-05"}
    assert [r["date"] for r in matrix["revisions"]] == ["2024-01-01", "2024-01-05"]


def test_a_matrix_document_leaves_out_what_the_data_does_not_say() -> None:
    doc = dj.data_document(stand_in(revisions=[revision(2)], header=False), {})
    assert "guidelines_as_of" not in doc["matrix"] and doc["matrix"]["latest"] == "2024-01-02"
    doc = dj.data_document(stand_in(revisions=[revision(2)], guidelines=None), {})
    assert "guidelines_as_of" not in doc["matrix"]


def test_a_matrix_document_without_a_latest_revision_says_so() -> None:
    catalog = stand_in(revisions=[revision(2)], guidelines=dt.date(2023, 1, 1))
    catalog.revision = lambda: None
    matrix = dj.matrix_document(catalog)
    assert matrix.latest is None and matrix.last_update == {} and matrix.guidelines_as_of == dt.date(2023, 1, 1)


def test_the_data_last_updated_is_the_sites_date_in_iso_form(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = stand_in()
    monkeypatch.setattr(dj, "data_last_updated", lambda c: dt.date(2024, 3, 9) if c is catalog else None)
    assert dj.newest_date(catalog) == "2024-03-09"
    assert dj.data_document(catalog, {})["data_last_updated"] == "2024-03-09"


def test_an_empty_catalog_has_no_date() -> None:
    assert dj.newest_date(Catalog(Path("nothing"))) is None


# Pieces ------------------------------------------------------------------------------------------------


def test_the_pieces_are_the_documents_text_and_a_newline() -> None:
    sources = {"src-a": s.Source(id="src-a", title="A \"q\" é")}
    catalog = stand_in({"sources": sources}, revisions=[revision(3)])
    values = {"b:1:x": value(2, "src-a"), "a:1:x": value(1.5)}
    pieces = list(dj.data_pieces(catalog, values))
    assert pieces[-1] == "\n" and "".join(pieces[:-1]).endswith("}")
    assert "".join(pieces) == dumps(dj.data_document(catalog, values))
    assert json.loads("".join(pieces)) == built(dj.document(catalog, values))
