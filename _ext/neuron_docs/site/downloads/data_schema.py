"""The JSON schema of the data set's download, generated from the record models.

Every collection's records are typed by their model of :mod:`neuron_docs.data.records` (pydantic's
serialization schema, shared definitions under ``$defs``), the support matrices by
:class:`.data_json.MatrixDocument`, and every figure by path as ``number``, ``unit``, ``label``,
``derived`` and an optional ``source``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from ...data import catalog as catalog_module
from .data_json import SCHEMA_ID, SCHEMA_VERSION, MatrixDocument, collection_types
from .json_stream import dumps


def json_schema() -> dict[str, Any]:
    """The JSON schema of :func:`.data_json.data_document`, generated from the record models."""
    types = collection_types()
    defs: dict[str, Any] = {}
    collection_props: dict[str, Any] = {}
    for name, model in types.items():
        schema = TypeAdapter(list[model]).json_schema(mode="serialization", ref_template="#/$defs/{model}")  # type: ignore[valid-type]
        defs.update(schema.pop("$defs", {}))
        schema["description"] = f"The records of {catalog_module.Catalog(Path()).file_of(name)}."
        collection_props[name] = schema
    matrix = TypeAdapter(MatrixDocument).json_schema(mode="serialization", ref_template="#/$defs/{model}")
    defs.update(matrix.pop("$defs", {}))
    defs["MatrixDocument"] = matrix
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Neuron model support & performance data",
        "description": ("Every record of the data set behind the Neuron support matrix, with every figure "
                        f"(typed or derived) by path. Schema version {SCHEMA_VERSION}: the major part changes "
                        "when a field is removed, renamed or retyped, the minor part when one is added."),
        "type": "object",
        "required": ["schema_version", "data_fingerprint", "collections", "values"],
        "additionalProperties": False,
        "properties": {
            "$schema": {"type": "string"},
            "schema_version": {"type": "string", "pattern": rf"^{SCHEMA_VERSION.split('.')[0]}\.\d+$"},
            "data_fingerprint": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                                 "description": "SHA-256 over the data files: equal fingerprints, equal data."},
            "data_last_updated": {"type": ["string", "null"], "format": "date",
                                  "description": "The site's 'Data last updated': the newest date of the data "
                                                 "(the benchmark history's latest published state, the "
                                                 "matrices' last update, prices, other sources)."},
            "matrix": {"anyOf": [{"$ref": "#/$defs/MatrixDocument"}, {"type": "null"}],
                       "description": "Every published revision of the support matrices (the latest is what the "
                                      "site shows), with each matrix's derived last update."},
            "collections": {"type": "object", "properties": collection_props,
                            "required": list(collection_props), "additionalProperties": False},
            "values": {
                "type": "object",
                "description": "Every figure by path kind:id:field, as the pages print it.",
                "additionalProperties": {
                    "type": "object", "required": ["number", "unit", "label", "derived"],
                    "additionalProperties": False,
                    "properties": {"number": {"type": "number"}, "unit": {"type": "string"},
                                   "label": {"type": "string"}, "derived": {"type": "boolean"},
                                   "source": {"type": "string"}},
                },
            },
        },
        "$defs": dict(sorted(defs.items())),
    }


@functools.cache
def schema_text() -> str:
    """The schema as the download writes it: a function of the code alone (the record models), so it is
    generated once per process (about 0.2 s), however many builds the process makes."""
    return dumps(json_schema())
