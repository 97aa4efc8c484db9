"""Pydantic models of the data files: what every record in ``data/`` must hold.

Only the shape of single records is checked here; references between records (a family naming a
device, a run naming an environment) are checked by :mod:`.catalog`.
"""

from __future__ import annotations

import math
import datetime as dt
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$", max_length=80)]
SpecKey = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)]
Text = Annotated[str, Field(min_length=1, max_length=4000)]
Name = Annotated[str, Field(min_length=1, max_length=200)]


def _finite(value: float) -> float:
    if not math.isfinite(value):
        msg = "a finite number (not NaN or infinity)"
        raise ValueError(msg)
    return value


PositiveNumber = Annotated[float, Field(gt=0, allow_inf_nan=True), AfterValidator(_finite)]
PositiveInt = Annotated[int, Field(gt=0, lt=10**9)]

Unit = Literal[
    "TOPS", "TFLOPS", "PFLOPS", "GB", "GB/s", "TB/s", "GHz", "Gbps",
    "%", "x", "million", "devices", "ms", "s", "USD/h", "USD", "inferences/s",
]
Fit = Literal["good", "poor"]
Status = Literal["supported", "roadmap", "na"]


class Record(BaseModel):
    """Base of every record: unknown keys are errors (they are usually typos)."""

    model_config = ConfigDict(extra="forbid", strict=False)


class Quantity(Record):
    value: PositiveNumber
    unit: Unit
    label: Name
    source: Id
    note: Text | None = None


class Source(Record):
    id: Id
    title: Name
    url: Annotated[str, Field(pattern=r"^https://\S+$")] | None = None
    date: dt.date | None = None


class Device(Record):
    id: Id
    name: Name
    vendor: Name
    kind: Literal["neuron", "gpu"]
    architecture: Name
    generation: PositiveInt | None = None
    purpose: Literal["inference", "training", "general"]
    neuroncores: PositiveInt | None = None
    data_types: list[Name] = []
    interconnect: Name
    features: list[Name] = []
    specs: dict[SpecKey, Quantity] = {}
    source: Id

    @model_validator(mode="after")
    def _neuron_devices_have_cores(self) -> Device:
        if self.kind == "neuron" and self.neuroncores is None:
            msg = "neuroncores is required for a neuron device"
            raise ValueError(msg)
        return self


class Price(Record):
    usd_per_hour: PositiveNumber
    source: Id
    as_of: dt.date


class Instance(Record):
    id: Id
    family: Id
    device: Id
    device_count: PositiveInt
    vcpus: PositiveInt
    efa_gbps: PositiveNumber | None = None
    price: Price
    specs: dict[SpecKey, Quantity] = {}


class Framework(Record):
    id: Id
    name: Name
    package: Name
    framework: Name
    framework_version: Name | None = None
    devices: list[Id]


def _status_shorthand(value: object) -> object:
    return {"status": value} if isinstance(value, str) else value


class SupportEntry(Record):
    status: Status
    note: Text | None = None
    roadmap: Id | None = None
    known_issue: Id | None = None


class DeviceFit(Record):
    fit: Fit
    rationale: Text | None = None
    support: dict[Id, Annotated[SupportEntry, BeforeValidator(_status_shorthand)]]
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
    in_seed_tables: bool = True
    devices: dict[Id, DeviceFit]


class FamiliesHeader(Record):
    last_update: dict[Id, dt.date]
    support_definition: Text


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
    url: Annotated[str, Field(pattern=r"^https://\S+$")]
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
    top1_percent: Annotated[PositiveNumber, Field(le=100)]
    duration_s: PositiveNumber | None = None
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
