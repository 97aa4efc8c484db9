"""The rules of the data set's JSON schema (``site/downloads/data_schema.py``): it types every collection
by its record model, the matrices by their document and every figure by path, accepts a document made
by ``data_json`` from a stand-in catalog and refuses one with anything added, missing or of another
major version; it is generated once per process. No Sphinx, no catalog loaded (``make mutation`` runs
it with ``--noconftest`` per mutant: ``tests/MUTATION.md``); ``test_downloads.py`` validates the real
data's document."""

from __future__ import annotations

import copy
import datetime as dt
import json
from types import SimpleNamespace
from typing import Any

import jsonschema
import pytest

from neuron_docs.data import catalog as catalog_module
from neuron_docs.data.figures.values import Value
from neuron_docs.data.records import models as s
from neuron_docs.data.records.matrix import Revision
from pathlib import Path
from neuron_docs.site.downloads import data_json as dj
from neuron_docs.site.downloads import data_schema as ds
from neuron_docs.site.downloads.json_stream import dumps


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return ds.json_schema()


def stand_in(revisions: list[Revision]) -> Any:
    sources = {"src-a": s.Source(id="src-a", title="A", url="https://a.invalid/")}
    return SimpleNamespace(
        records={"sources": sources}, fingerprint="0123456789abcdef" * 4, header=None,
        revision=lambda: revisions[-1] if revisions else None,
        matrix_revisions=SimpleNamespace(revisions=revisions, last_update=lambda latest: {"m": latest.date}))


def document(monkeypatch: pytest.MonkeyPatch, revisions: list[Revision] | None = None) -> dict[str, Any]:
    monkeypatch.setattr(dj, "data_last_updated", lambda catalog: dt.date(2024, 2, 3))
    values = {"a:1:x": Value(1.5, "ms", "latency", "src-a", False), "a:2:x": Value(2, "", "count", None, True)}
    return json.loads(json.dumps(dj.data_document(stand_in(revisions or []), values)))


def valid(schema: dict[str, Any], doc: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(doc)


def test_the_schema_is_a_valid_draft_2020_12_schema_with_its_id(schema: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == dj.SCHEMA_ID
    assert f"Schema version {dj.SCHEMA_VERSION}:" in schema["description"]


def test_every_collection_is_typed_by_its_record_model(schema: dict[str, Any]) -> None:
    collections = schema["properties"]["collections"]
    types = dj.collection_types()
    assert list(collections["properties"]) == list(types) and collections["required"] == list(types)
    assert collections["additionalProperties"] is False
    for name, model in types.items():
        items = collections["properties"][name]
        assert items["type"] == "array" and items["items"] == {"$ref": f"#/$defs/{model.__name__}"}, name
        assert items["description"] == f"The records of {catalog_module.Catalog(Path()).file_of(name)}."
        assert model.__name__ in schema["$defs"]


def test_the_definitions_are_sorted_and_hold_the_matrix_document(schema: dict[str, Any]) -> None:
    defs = schema["$defs"]
    assert list(defs) == sorted(defs)
    assert defs["MatrixDocument"]["properties"]["revisions"]["items"] == {"$ref": "#/$defs/Revision"}
    assert "Revision" in defs and "$defs" not in defs["MatrixDocument"]
    assert not any("$defs" in one for one in defs.values())
    refs = {ref for ref in _refs(schema)}
    assert refs <= {f"#/$defs/{name}" for name in defs}


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [*([node["$ref"]] if "$ref" in node else []), *(r for v in node.values() for r in _refs(v))]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_a_document_of_the_data_is_valid(schema: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    assert valid(schema, document(monkeypatch))


@pytest.mark.parametrize("change", [
    "extra member", "no values", "no collections", "no fingerprint", "no version", "short fingerprint",
    "other major", "two-part major", "extra collection", "missing collection", "figure without label",
    "figure with more", "figure number as text", "figure source not text", "derived not boolean",
    "date not text", "matrix not an object",
])
def test_a_document_changed_is_refused(schema: dict[str, Any], monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    doc = copy.deepcopy(document(monkeypatch))
    major = int(dj.SCHEMA_VERSION.split(".")[0])
    figure = doc["values"]["a:1:x"]
    match change:
        case "extra member":
            doc["extra"] = 1
        case "no values":
            del doc["values"]
        case "no collections":
            del doc["collections"]
        case "no fingerprint":
            del doc["data_fingerprint"]
        case "no version":
            del doc["schema_version"]
        case "short fingerprint":
            doc["data_fingerprint"] = "0" * 63
        case "other major":
            doc["schema_version"] = f"{major + 1}.0"
        case "two-part major":
            doc["schema_version"] = f"{major}{major}.1"
        case "extra collection":
            doc["collections"]["extra"] = []
        case "missing collection":
            del doc["collections"]["sources"]
        case "figure without label":
            del figure["label"]
        case "figure with more":
            figure["more"] = 1
        case "figure number as text":
            figure["number"] = "1.5"
        case "figure source not text":
            figure["source"] = 1
        case "derived not boolean":
            figure["derived"] = "no"
        case "date not text":
            doc["data_last_updated"] = 20240203
        case "matrix not an object":
            doc["matrix"] = []
    assert not valid(schema, doc), change


def test_a_document_without_optional_parts_is_valid(schema: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    doc = document(monkeypatch)
    del doc["$schema"], doc["data_last_updated"], doc["matrix"]
    doc["values"]["a:1:x"].pop("source")
    doc["schema_version"] = f"{dj.SCHEMA_VERSION.split('.')[0]}.99"
    assert valid(schema, doc)
    doc["data_last_updated"] = None
    assert valid(schema, doc)


def test_the_schema_is_made_once_per_process_as_the_download_writes_it(schema: dict[str, Any]) -> None:
    assert ds.schema_text() is ds.schema_text()
    assert ds.schema_text() == dumps(schema)
