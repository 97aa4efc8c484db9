"""The rules of model identities: one record per model, every name of it unique (no Sphinx).

A published model or a seed model may name, with ``same_as``, the published model it is another
spelling of; that record is the model's identity, and its family must be theirs. Every name and
alias of every model gives a key (:func:`~neuron_docs.data.records.names.name_key`); a key given by
two identities would make a name resolve to either, so the later one is a located error at the
name or alias that clashes. :func:`.validation.load_catalog` applies :func:`same_as_problems` with
the other rules that span records and :func:`name_clashes` once every record is loaded.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..files.loader import DataError, dotted_path
from ..records import models as s
from ..records import published as ps
from ..records.names import name_key

if TYPE_CHECKING:
    from ..catalog import Catalog

#: The collections that hold models, in the order their names are claimed.
MODEL_COLLECTIONS = ("published_models", "models")


def identity_of(collection: str, record: s.Model | ps.PublishedModel) -> str:
    """The identity a model record belongs to: ``published:<id>`` of its ``same_as`` or of itself."""
    if record.same_as:
        return f"published:{record.same_as}"
    return f"{'published' if collection == 'published_models' else 'seed'}:{record.id}"


def same_as_problems(collection: str, record: s.Record,
                     catalog: Catalog) -> Iterator[tuple[tuple[Any, ...], str]]:
    """``same_as`` names a published model that is itself an identity (no chains), of the same family."""
    if not isinstance(record, s.Model | ps.PublishedModel) or not record.same_as:
        return
    target = catalog.published_models.get(record.same_as)
    if target is None:
        return  # a dangling reference, reported as such
    if collection == "published_models" and target.id == record.id:
        yield ("same_as",), f"model {record.id!r} is the same as itself; expected another published model's id"
    elif target.same_as:
        yield ("same_as",), (f"{record.same_as!r} is itself the same as {target.same_as!r}; expected the "
                             f"identity's own record: same_as: {target.same_as}")
    elif target.family != record.family:
        yield ("family",), (f"family {record.family!r} differs from the family of {record.same_as!r} "
                            f"({target.family!r}), the model it is the same as; expected {target.family!r}")


def model_names(record: s.Model | ps.PublishedModel) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(field path, name) of a model's name and each of its aliases."""
    yield ("name",), record.name
    for index, alias in enumerate(record.aliases):
        yield ("aliases", index), alias


def name_clashes(catalog: Catalog) -> list[DataError]:
    """A located error for every name or alias whose key is empty or is another identity's."""
    claimed: dict[str, tuple[str, str]] = {}  # key -> (identity, the name that claimed it)
    errors = []
    for collection in MODEL_COLLECTIONS:
        for record_id, record in catalog.records[collection].items():
            identity = identity_of(collection, record)
            for rel, name in model_names(record):
                key = name_key(name)
                first = claimed.setdefault(key, (identity, name)) if key else None
                if first is not None and first[0] == identity:
                    continue
                message = (f"alias {name!r} has no letter or digit; expected a name to compare" if first is None else
                           f"name {name!r} reads as {first[1]!r} of {_label(first[0])} (both are {key!r} "
                           f"once case, organisation and punctuation are dropped); expected a name of one "
                           f"model only (set same_as: if they are the same model, else drop or change this one)")
                errors.append(_located(catalog, collection, record_id, rel, message))
    return errors


def _label(identity: str) -> str:
    kind, _, record_id = identity.partition(":")
    return f"published model {record_id!r}" if kind == "published" else f"model {record_id!r}"


def _located(catalog: Catalog, collection: str, record_id: str, rel: tuple[Any, ...], message: str) -> DataError:
    from .file_records import place_of  # here: file_records reads a file's records, whose rules use this module

    line, path, _csv = place_of(catalog, collection, record_id, rel)
    return DataError(catalog.origin(collection, record_id)[0], line, dotted_path(path), message)
