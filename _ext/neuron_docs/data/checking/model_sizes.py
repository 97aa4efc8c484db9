"""The references and cross-record rules of model sizes (``data/model_sizes.yaml``; no Sphinx).

A size names the published or seed model it is the size of, or a name of its own for a model
without runs; its sources are records of ``sources.yaml``. Across records: one size per model (a
second size of one model would make the estimate depend on the order of the file), and a name of a
model without runs must not be a name of a model with runs or of another size (names are compared by
their key, :func:`~neuron_docs.data.records.names.name_key`): it would shadow that model's measured
figures. A gap (a model no source gives a size of) names a published or seed model, or a family's
representative; a model with a size has no gap, and a representative is one its family names.
:mod:`.references` yields these with every other collection's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..records.model_sizes import ModelSize, ModelSizeGap
from ..records.names import name_key
from .identities import MODEL_COLLECTIONS, model_names

if TYPE_CHECKING:
    from ..catalog import Catalog

#: A reference: (field path in the record, target collection, id).
Ref = tuple[tuple[Any, ...], str, str]


def size_references(record: ModelSize) -> Iterator[Ref]:
    """The records a size names (its ``source`` is yielded with every record's)."""
    yield from gap_references(record)
    for attr in ("parameters_source", "data_types_source"):
        if (ref := getattr(record, attr)) is not None:
            yield (attr,), "sources", ref


def size_problems(record: ModelSize, catalog: Catalog) -> Iterator[tuple[tuple[Any, ...], str]]:
    """One size per model; a size's own names are no other model's or size's."""
    sizes: dict[str, ModelSize] = catalog.records["model_sizes"]
    target = catalog.published_models.get(record.model) if record.model else None
    if target is not None and target.same_as:
        yield ("model",), (f"{record.model!r} is another spelling of {target.same_as!r} (same_as); expected the "
                           f"model's own record: model: {target.same_as}")
    seed = catalog.records["models"].get(record.seed_model) if record.seed_model else None
    if seed is not None and seed.same_as:
        yield ("seed_model",), (f"seed model {record.seed_model!r} is the published model {seed.same_as!r} "
                                f"(same_as); expected model: {seed.same_as}")
    for other_id, other in sizes.items():
        if other_id == record.id:
            break  # only records before this one: the later record is the one to fix
        for attr in ("model", "seed_model"):
            if getattr(record, attr) and getattr(other, attr) == getattr(record, attr):
                yield (attr,), (f"{attr.replace('_', ' ')} {getattr(record, attr)!r} already has a size "
                                f"(model_sizes {other_id!r}); expected one size per model")
    if record.name is None:
        return
    taken = _model_keys(catalog)
    for other_id, other in sizes.items():
        if other_id == record.id:
            break
        if other.name is not None:
            taken.update({name_key(n): f"model size {other_id!r}" for n in (other.name, *other.aliases)})
    for path, name in (("name",), record.name), *((("aliases", i), a) for i, a in enumerate(record.aliases)):
        key = name_key(name)
        if not key:
            yield path, f"name {name!r} has no letter or digit; expected a name to compare"
        elif key in taken:
            yield path, (f"name {name!r} is already a name of {taken[key]} (both are {key!r} once case, "
                         "organisation and punctuation are dropped); expected the name of a model without "
                         "runs (a model with runs takes its size with model:)")


def _model_keys(catalog: Catalog) -> dict[str, str]:
    """The key of every name and alias of every model with runs -> the model, in words."""
    out: dict[str, str] = {}
    for collection in MODEL_COLLECTIONS:
        for record_id, model in catalog.records[collection].items():
            for _path, name in model_names(model):
                out.setdefault(name_key(name), f"{'published model' if collection == 'published_models' else 'model'} "
                                               f"{record_id!r}")
    return out


def gap_references(record: ModelSize | ModelSizeGap) -> Iterator[Ref]:
    """The model, seed model or family a size or a gap is of."""
    if record.model:
        yield ("model",), "published_models", record.model
    if record.seed_model:
        yield ("seed_model",), "models", record.seed_model
    if record.family:
        yield ("family",), "families", record.family


def gap_problems(record: ModelSizeGap, catalog: Catalog) -> Iterator[tuple[tuple[Any, ...], str]]:
    """A gap is of a model without a size, once; a representative is one its family names."""
    sizes: dict[str, ModelSize] = catalog.records["model_sizes"]
    for attr in ("model", "seed_model"):
        ref = getattr(record, attr)
        sized = next((size_id for size_id, size in sizes.items() if ref and getattr(size, attr) == ref), None)
        if sized is not None:
            yield (attr,), (f"{attr.replace('_', ' ')} {ref!r} has a size (model_sizes {sized!r}); expected a gap "
                            "only for a model no source gives a size of (drop the gap)")
    if record.representative is not None and record.family is not None:
        family = catalog.records["families"].get(record.family)
        key = name_key(record.representative)
        if family is not None and key not in {name_key(r) for r in family.representatives}:
            yield ("representative",), (f"representative {record.representative!r} is not one of family "
                                        f"{record.family!r}'s ({', '.join(family.representatives) or 'none'})")
        named = next((size_id for size_id, size in sizes.items()
                      if size.name and key in {name_key(n) for n in (size.name, *size.aliases)}), None)
        if named is not None:
            yield ("representative",), (f"representative {record.representative!r} has a size (model_sizes "
                                        f"{named!r}); expected a gap only for a model no source gives a size of")
    gaps: dict[str, ModelSizeGap] = catalog.records["model_size_gaps"]
    mine = (record.model, record.seed_model, name_key(record.representative or ""))
    for other_id, other in gaps.items():
        if other_id == record.id:
            break
        if mine == (other.model, other.seed_model, name_key(other.representative or "")):
            yield ("id",), f"the same model as gap {other_id!r}; expected one gap per model"
