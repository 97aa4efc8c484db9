"""The whole data set as one JSON document: every record in file order, every figure by path.

:func:`document` lays it out lazily (records and figures produced as they are written, see
:mod:`.json_stream`); :func:`data_pieces` is its text in pieces, byte for byte
``dumps(data_document(...))``. The build's figures are computed once each, a record at a time, in
path order (:meth:`Values.in_path_order <neuron_docs.data.figures.values.Values.in_path_order>`).
:data:`SCHEMA_VERSION` is bumped in its major part when a change could break readers (a field
removed, renamed or retyped) and in its minor part when fields or collections are added.
"""

from __future__ import annotations

import datetime as dt
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ...data import catalog as catalog_module
from ...data.records.matrix import Revision
from ...data.figures.values import Value, Values, build_values
from ..data_dates import data_last_updated
from .json_stream import Members, built, json_pieces

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

    from ...data import Catalog
    from ...data.records import models as s

SCHEMA_VERSION = "2.1"
SCHEMA_ID = f"https://neuron-docs.invalid/schemas/neuron-data-{SCHEMA_VERSION.split('.')[0]}.schema.json"


def collection_types() -> dict[str, type[s.Record]]:
    """Every collection of the download and its record model, in file order."""
    types: dict[str, type[s.Record]] = {}
    for spec in catalog_module.FILES:
        types.update(spec.collections)
        if spec.csv:
            types[spec.csv[0]] = spec.csv[1]
    return types


class MatrixDocument(BaseModel):
    """The support matrices in the JSON download: every revision as published, oldest first, and
    what the site derives from them (never typed)."""

    #: The revision the guideline prose of ``families.yaml`` describes.
    guidelines_as_of: dt.date | None = None
    #: The revision the site shows by default.
    latest: dt.date | None = None
    #: Per matrix of the latest revision: the latest revision that changed what it shows.
    last_update: dict[str, dt.date] = {}
    revisions: list[Revision] = []


def matrix_document(catalog: Catalog) -> MatrixDocument:
    latest = catalog.revision()
    return MatrixDocument(guidelines_as_of=catalog.header.guidelines_as_of if catalog.header else None,
                          latest=latest.date if latest else None,
                          last_update=catalog.matrix_revisions.last_update(latest) if latest else {},
                          revisions=catalog.matrix_revisions.revisions)


def newest_date(catalog: Catalog) -> str | None:
    """The site's "Data last updated" (:func:`..data_dates.data_last_updated`), ISO formatted."""
    newest = data_last_updated(catalog)
    return newest.isoformat() if newest else None


def document(catalog: Catalog, values: Mapping[str, Value]) -> Members:
    """The data set in file order, records and figures produced lazily (an iterator is a JSON array)."""
    collections = Members((name, (record.model_dump(mode="json", exclude_none=True)
                                  for record in catalog.records.get(name, {}).values()))
                          for name in collection_types())
    return Members([
        ("$schema", SCHEMA_ID), ("schema_version", SCHEMA_VERSION), ("data_fingerprint", catalog.fingerprint),
        ("data_last_updated", newest_date(catalog)),
        ("matrix", matrix_document(catalog).model_dump(mode="json", exclude_none=True)
                   if catalog.matrix_revisions.revisions else None),
        ("collections", collections),
        ("values", Members((path, _figure(value)) for path, value in _in_path_order(values))),
    ])


def _in_path_order(values: Mapping[str, Value]) -> Iterable[tuple[str, Value]]:
    """Every figure sorted by path: the build's figures each computed once, a record at a time."""
    return values.in_path_order() if isinstance(values, Values) else sorted(values.items(), key=itemgetter(0))


def data_document(catalog: Catalog, values: Mapping[str, Value] | None = None) -> dict[str, Any]:
    """The whole data set as plain JSON values, in file order (``values``: the build's figures)."""
    return built(document(catalog, values if values is not None else build_values(catalog)))


def _figure(value: Value) -> dict[str, Any]:
    item = {"number": value.number, "unit": value.unit, "label": value.label, "derived": value.derived}
    if value.source:
        item["source"] = value.source
    return item


def data_pieces(catalog: Catalog, values: Mapping[str, Value]) -> Iterator[str]:
    """The text of ``dumps(data_document(catalog, values))`` in pieces of up to a thousand records or figures."""
    yield from json_pieces(document(catalog, values))
    yield "\n"
