"""Pydantic models of the data files: what every record in ``data/`` must hold.

Only the shape of single records is checked here, from the field types of :mod:`.fields`; references
between records (a family naming a device, a run naming an environment) are checked by
:mod:`..checking.references`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .fields import (
    Count,
    Date,
    Expression,
    FormatSpec,
    Figure,
    Flag,
    Gbps,
    Generation,
    Id,
    Name,
    Percent,
    PositiveInt,
    PositiveNumber,
    Seconds,
    SpecKey,
    Text,
    Unit,
    Url,
    UsdPerHour,
)


class Record(BaseModel):
    """Base of every record: unknown keys are errors (they are usually typos); records are read-only."""

    model_config = ConfigDict(extra="forbid", strict=False, frozen=True)


def share_equal_parts(record: BaseModel, shared: dict[Any, Any], *, nested: bool = False) -> BaseModel:
    """``record`` with its parts shared with equal parts of records loaded before (records are frozen).

    pydantic keeps on every instance the set of fields its input named, and a matrix at 100x
    today's size holds tens of thousands of equal nested records (``status: supported``): one
    shared "fields given" set per distinct set and one shared instance per distinct nested record
    take most of the data set's memory away. Returns the shared instance when ``nested``.
    """
    given = record.__pydantic_fields_set__
    object.__setattr__(record, "__pydantic_fields_set__", shared.setdefault(frozenset(given), given))
    fields = record.__dict__
    for name, value in fields.items():
        if isinstance(value, BaseModel):
            fields[name] = share_equal_parts(value, shared, nested=True)
        elif isinstance(value, list) and any(isinstance(item, BaseModel) for item in value):
            fields[name] = [share_equal_parts(item, shared, nested=True) if isinstance(item, BaseModel) else item
                            for item in value]
        elif isinstance(value, dict) and any(isinstance(item, BaseModel) for item in value.values()):
            fields[name] = {key: share_equal_parts(item, shared, nested=True) if isinstance(item, BaseModel)
                            else item for key, item in value.items()}
    if not nested:
        return record
    try:
        return shared.setdefault((type(record), record), record)
    except TypeError:  # a field holds a dict or a list: not hashable, kept as it is
        return record


class OtherSource(Record):
    """Another source's value of the same figure, which the data does not use: kept with that source
    and why the data's own is preferred, so a page quoting it is told so (issue 36)."""

    value: Figure
    #: The other source's unit, when it writes another one (GiB/s where the data holds GB/s).
    unit: Unit | None = None
    source: Id
    why: Text


class Quantity(Record):
    value: Figure
    unit: Unit
    label: Name
    source: Id
    note: Text | None = None
    #: Other sources that give this figure another value (``also: [{value, unit?, source, why}]``).
    also: list[OtherSource] = Field(default=[], max_length=8)

    @model_validator(mode="after")
    def _others_disagree(self) -> Quantity:
        for other in self.also:
            if other.source == self.source:
                raise ValueError(f"also: {other.source} is the figure's own source; another source is expected")
            if other.value == self.value and (other.unit or self.unit) == self.unit:
                raise ValueError(f"also: {other.source} gives the same value ({other.value:g} {self.unit}): "
                                 "sources that agree need no entry")
        return self


class Source(Record):
    id: Id
    title: Name
    url: Url | None = None
    date: Date | None = None
    license: Name | None = None


class Device(Record):
    id: Id
    name: Name
    vendor: Name
    kind: Literal["neuron", "gpu"]
    architecture: Name
    generation: Generation | None = None
    purpose: Literal["inference", "training", "general"]
    neuroncores: Count | None = None
    data_types: list[Name] = []
    interconnect: Name
    features: list[Name] = []
    specs: dict[SpecKey, Quantity] = {}
    source: Id

    @model_validator(mode="after")
    def _neuron_devices_have_cores(self) -> Device:
        if self.kind == "neuron" and self.neuroncores is None:
            msg = "neuroncores (it is required for a neuron device)"
            raise ValueError(msg)
        return self


class Price(Record):
    usd_per_hour: UsdPerHour
    source: Id
    as_of: Date


class Instance(Record):
    """An instance type. ``source`` says where its own figures (devices, vCPUs, EFA) come from. The
    on-demand ``price`` is given only with its source: an instance no source prices (Trn2: the
    shared hardware pages publish none) has none, and a record that is costed at an instance's
    on-demand price (a seed run's environment, an experiment) may only name a priced one
    (:func:`..checking.references.consistency_problems`)."""

    id: Id
    family: Id
    device: Id
    device_count: Count
    vcpus: Count
    efa_gbps: Gbps | None = None
    source: Id | None = None
    price: Price | None = None
    specs: dict[SpecKey, Quantity] = {}


class Framework(Record):
    id: Id
    name: Name
    package: Name
    framework: Name
    framework_version: Name | None = None
    devices: list[Id]
    #: False for a library that has no support-matrix column (yet): families.yaml gives it no status.
    support_matrix: Flag = True


class DeviceFit(Record):
    """The guideline prose of a family on a device: why it fits or not, and its support in words.
    The fit and the support cells themselves are the matrices' (``data/matrix/``)."""

    rationale: Text | None = None
    support_text: Text | None = None


class Category(Record):
    id: Id
    name: Name
    title: Name


class Family(Record):
    id: Id
    name: Name
    title: Name
    short_name: Name
    category: Id
    representatives: list[Name] = []
    description: Text
    devices: dict[Id, DeviceFit]


class FamiliesHeader(Record):
    #: The revision of the support matrices (``data/matrix/<date>.yaml``) the guideline prose describes.
    guidelines_as_of: Date


class KnownIssue(Record):
    id: Id
    title: Name
    devices: list[Id]
    frameworks: list[Id] = []
    families: list[Id] = []
    limit: Quantity | None = None
    examples: list[Name] = []
    description: Text
    source: Id


class RoadmapItem(Record):
    id: Id
    title: Name
    url: Url
    description: Text
    source: Id


class Variant(Record):
    id: Id
    description: Name
    script_modules: PositiveInt | None = None


class Model(Record):
    id: Id
    name: Name
    family: Id
    status: Literal["compiled", "fragmented", "not_compiled"]
    dataset: Name | None = None
    paper_top1: Quantity | None = None
    unsupported_operators: list[Name] = []
    notes: Text | None = None
    variants: list[Variant] = []
    #: Other names of the model (Hugging Face ids, abbreviations), as for a published model.
    aliases: list[Name] = []
    #: The published model (id of ``benchmarks/published/models.yaml``) this model is: one identity.
    same_as: Id | None = None


class Environment(Record):
    id: Id
    instance: Id
    os: Name
    software: dict[Name, Name]
    framework: Id | None = None
    source: Id


class InferenceRun(Record):
    id: Id
    model: Id
    variant: Id | None = None
    environment: Id
    batch_size: PositiveInt
    neuroncores: PositiveInt | None = None
    pipeline: PositiveInt | None = None
    compiler_options: Name | None = None
    p90_latency_ms: PositiveNumber | None = None
    throughput_per_s: PositiveNumber | None = None
    source: Id

    @model_validator(mode="after")
    def _has_a_measurement(self) -> InferenceRun:
        if self.p90_latency_ms is None and self.throughput_per_s is None:
            msg = "p90_latency_ms or throughput_per_s (a run needs at least one measurement)"
            raise ValueError(msg)
        return self


class AccuracyRun(Record):
    id: Id
    model: Id
    environment: Id
    dataset: Name
    batch_size: PositiveInt | None = None
    compiler_options: Name | None = None
    top1_percent: Percent
    duration_s: Seconds | None = None
    source: Id


class PricePerformance(Record):
    id: Id
    label: Name
    baseline: Id
    candidate: Id
    gain: Quantity


class Experiment(Record):
    id: Id
    title: Name
    model: Name
    family: Id
    dataset: Name
    precision: Name
    batch_size_per_worker: PositiveInt
    software: dict[Name, Name]
    instances: list[Id]
    compile_time_note: Text | None = None
    price_performance: list[PricePerformance] = []
    source: Id


class Comparison(Record):
    id: Id
    label: Name
    subject: Id
    baseline: Id
    metric: SpecKey
    claimed: Quantity


class Claim(Record):
    id: Id
    value: PositiveNumber
    unit: Unit
    label: Name
    source: Id


class Erratum(Record):
    """A claim of a source document that the data corrects: the quote, the true value, why."""

    id: Id
    source: Id
    quote: Text
    expression: Expression | None = None
    format: FormatSpec | None = None
    explanation: Text
