"""Pydantic model of ``data/model_sizes.yaml``: how large a model is, as its publisher gives it.

A model's size decides whether it fits a NeuronCore's memory (:mod:`..figures.fit`): its parameter
count and the data types its weights are published in; for a decoder also what decides its KV cache
(layers, attention heads, key-value heads, head size). Each record is the size of a model the data
has runs of (``model``: a published model's id), of a model it has compiled (``seed_model``: a
``models.yaml`` id), or of a model it has none of (``name``, ``aliases`` and ``family``, so that the
advisor finds it by name: a family's representative, a model people ask for), and cites its
sources: ``source`` for the architecture and data types (a configuration page), ``parameters_source``
for the parameter count when another page gives it (a model card). Figures are as the source writes
them: a model card's "8B" is 8e9. No Sphinx here.

A model the published tables name, or a family's representative, whose size no source gives is a
:class:`ModelSizeGap`: the model, and why there is no figure (what was looked for, what the sources
give instead). A gap is said, never filled with a guess; a test holds that every such model has a
size or a gap.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from .fields import Id, Name, Text, _number_input
from .models import Record

#: The data types a model's weights are published in, and the bytes of one parameter in each.
DTYPE_BYTES: dict[str, int] = {"FP32": 4, "TF32": 4, "BF16": 2, "FP16": 2, "FP8": 1, "INT8": 1}
DataType = Literal["FP32", "TF32", "BF16", "FP16", "FP8", "INT8"]
#: The fewest and most parameters a model may have: fewer than a thousand or more than 100 trillion
#: is a typo (a count typed in billions, a stray exponent), not a model.
MIN_PARAMETERS, MAX_PARAMETERS = 1e3, 1e14
Parameters = Annotated[float, BeforeValidator(_number_input),
                       Field(ge=MIN_PARAMETERS, le=MAX_PARAMETERS, allow_inf_nan=False)]
#: Layers, heads and head sizes: whole numbers from 1 to a bound no published model comes near.
Dimension = Annotated[int, BeforeValidator(_number_input), Field(gt=0, le=1_000_000)]


class Decoder(Record):
    """What decides a decoder's KV cache: 2 x layers x kv_heads x head_size values per token."""

    layers: Dimension
    attention_heads: Dimension
    kv_heads: Dimension
    hidden_size: Dimension
    #: The size of one attention head; without it, ``hidden_size / attention_heads``.
    head_size: Dimension | None = None

    @model_validator(mode="after")
    def _heads_divide(self) -> Decoder:
        if self.kv_heads > self.attention_heads or self.attention_heads % self.kv_heads:
            msg = (f"kv_heads {self.kv_heads} (it must divide attention_heads {self.attention_heads}: each "
                   "key-value head serves a whole group of attention heads)")
            raise ValueError(msg)
        if self.head_size is None and self.hidden_size % self.attention_heads:
            msg = (f"hidden_size {self.hidden_size} (it must be a multiple of attention_heads "
                   f"{self.attention_heads}, or head_size must be given)")
            raise ValueError(msg)
        return self

    @property
    def head_dim(self) -> int:
        return self.head_size or self.hidden_size // self.attention_heads


#: The fields that say which model a size or a gap is of: exactly one of them.
SUBJECT_FIELDS = ("model", "seed_model", "name")


def _one_subject(record: ModelSize | ModelSizeGap, fields: tuple[str, ...], what: str) -> None:
    given = [f for f in fields if getattr(record, f) is not None]
    if len(given) != 1:
        msg = (f"{' or '.join(fields)} (exactly one{': got ' + ' and '.join(given) if given else ''}: {what})")
        raise ValueError(msg)


class ModelSize(Record):
    id: Id
    #: The published model (``benchmarks/published/models.yaml``) this is the size of; or the seed
    #: model (``models.yaml``: compiled, not in the published tables); or, for a model without runs,
    #: its ``name`` (with ``aliases``) and ``family``.
    model: Id | None = None
    seed_model: Id | None = None
    name: Name | None = None
    aliases: list[Name] = []
    family: Id | None = None
    parameters: Parameters
    #: The data types the weights are published in, the first the one an estimate assumes.
    data_types: list[DataType] = Field(min_length=1)
    decoder: Decoder | None = None
    note: Text | None = None
    source: Id
    parameters_source: Id | None = None
    data_types_source: Id | None = None

    @model_validator(mode="after")
    def _model_or_name(self) -> ModelSize:
        _one_subject(self, SUBJECT_FIELDS, "a published model's id, a seed model's id, or the name of a model "
                                           "without runs")
        if self.name is not None and self.family is None:
            msg = "family (required with name: the advisor answers for the model's family too)"
            raise ValueError(msg)
        if self.name is None and (self.aliases or self.family):
            msg = "aliases and family only with name (a published or seed model has its own, in its record)"
            raise ValueError(msg)
        return self

class ModelSizeGap(Record):
    """A model the data must size (a model of the published tables, a family's representative) whose
    size no source gives: which model, and why there is no figure."""

    id: Id
    #: A published model's id, a seed model's id (``models.yaml``), or a family's representative as
    #: ``families.yaml`` names it (with its ``family``).
    model: Id | None = None
    seed_model: Id | None = None
    representative: Name | None = None
    family: Id | None = None
    #: Why there is no size: what was looked for, and what the sources give instead.
    reason: Text

    @model_validator(mode="after")
    def _one_model(self) -> ModelSizeGap:
        _one_subject(self, ("model", "seed_model", "representative"),
                     "a published model's id, a seed model's id, or a family's representative")
        if (self.representative is None) != (self.family is None):
            msg = "family (with representative, and only with it: the family whose representatives name it)"
            raise ValueError(msg)
        return self
