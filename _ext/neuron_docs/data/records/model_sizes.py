"""Pydantic model of ``data/model_sizes.yaml``: how large a model is, as its publisher gives it.

A model's size decides whether it fits a NeuronCore's memory (:mod:`..figures.fit`): its parameter
count and the data types its weights are published in; for a decoder also what decides its KV cache
(layers, attention heads, key-value heads, head size). Each record is the size of a model the data
has runs of (``model``: a published model's id) or of a model it has none of (``name``, ``aliases``
and ``family``, so that the advisor finds it by name), and cites its sources: ``source`` for the
architecture and data types (a configuration page), ``parameters_source`` for the parameter count
when another page gives it (a model card). Figures are as the source writes them: a model card's
"8B" is 8e9. No Sphinx here.
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


class ModelSize(Record):
    id: Id
    #: The published model (``benchmarks/published/models.yaml``) this is the size of; or, for a
    #: model without runs, its ``name`` (with ``aliases``) and ``family``.
    model: Id | None = None
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
        if (self.model is None) == (self.name is None):
            msg = "model or name (exactly one: a published model's id, or the name of a model without runs)"
            raise ValueError(msg)
        if self.name is not None and self.family is None:
            msg = "family (required with name: the advisor answers for the model's family too)"
            raise ValueError(msg)
        if self.model is not None and (self.aliases or self.family):
            msg = "aliases and family only with name (a published model has its own, in its record)"
            raise ValueError(msg)
        return self

    @property
    def bytes_per_parameter(self) -> int:
        return DTYPE_BYTES[self.data_types[0]]
