"""Pydantic models of the data files: what every record in ``data/`` must hold.

Only the shape of single records is checked here; references between records (a family naming a
device, a run naming an environment) are checked by :mod:`.catalog`. Numbers are finite and in a
range per field (:func:`positive`), typed as people write them (:func:`_number_input`); text holds
no control or bidirectional-override characters (the readers refuse them first, with the line).
"""

from __future__ import annotations

import math
import re
import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from ..files.loader import bad_character


def _printable(value: str) -> str:
    """Refuse control, bidirectional-override and lone surrogate characters (the readers do too)."""
    found = bad_character(value)
    if found:
        index, what = found
        msg = f"printable text (found {what} at character {index + 1})"
        raise ValueError(msg)
    return value


_LINE_BREAKS = re.compile(r"[\n\t\r\v\f\u0085\u2028\u2029]")


def _one_line(value: str) -> str:
    """Refuse line breaks and tabs in URLs and formats (ids and keys have patterns)."""
    _printable(value)
    if _LINE_BREAKS.search(value):
        msg = "text on one line (without line breaks or tabs)"
        raise ValueError(msg)
    return value


Id = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$", max_length=80)]
SpecKey = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)]
#: Prose (descriptions, notes, quotes): line breaks and tabs allowed, control characters not.
Text = Annotated[str, Field(min_length=1, max_length=4000), AfterValidator(_printable)]
#: Names, titles and labels: short; a line break (a quoted CSV cell over two lines) is allowed.
Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_printable)]

#: A number typed in the data: digits 0-9, an optional sign, point and exponent (``12.5``, ``1e3``).
_NUMBER = re.compile(r"[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_LEADING_ZEROS = re.compile(r"[-+]?0[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?")


def _number_input(value: object) -> object:
    """Refuse, before parsing, what a number field must not read as a number.

    Booleans (YAML reads true/false/yes/no/on/off as a boolean), NaN and infinity, figures that
    overflow to infinity (``1e400``), and text that Python would read as a number but people
    would not write as one: leading zeros (``010``, octal 8 in YAML 1.1), ``_`` separators,
    digits other than 0-9 (``١٢``, ``１２``).
    """
    if isinstance(value, bool):
        msg = f"a number (got {value}; YAML reads true/false/yes/no/on/off as a boolean)"
        raise ValueError(msg)
    if isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            msg = "a finite number (this one is too large: it overflows to infinity)"
            raise ValueError(msg) from None
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            msg = "a finite number (not NaN or infinity)"
            raise ValueError(msg)
        return value
    if not isinstance(value, str):
        return value
    text = value.strip()
    try:
        number = float(text)
    except ValueError:
        return value  # not a number at all: pydantic says so
    if math.isnan(number) or (math.isinf(number) and not _NUMBER.fullmatch(text)):
        msg = "a finite number (not NaN or infinity)"
        raise ValueError(msg)
    if _LEADING_ZEROS.fullmatch(text):
        msg = "a number without leading zeros (YAML 1.1 reads 010 as the octal 8)"
        raise ValueError(msg)
    if not _NUMBER.fullmatch(text):
        msg = "a number written with the digits 0-9, an optional '.' and exponent (e.g. 12.5 or 1e3)"
        raise ValueError(msg)
    if math.isinf(number):
        msg = "a finite number (this one is too large: it overflows to infinity)"
        raise ValueError(msg)
    return value


#: The earliest and latest dates accepted.
FIRST_DATE, LAST_DATE = dt.date(1970, 1, 1), dt.date(2100, 12, 31)
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _date_input(value: object) -> object:
    """Accept a date or text written YYYY-MM-DD; refuse numbers (pydantic would read Unix time)."""
    if isinstance(value, dt.datetime):
        if value.time() != dt.time(0) or value.tzinfo is not None:
            msg = "a date written YYYY-MM-DD, without a time of day"
            raise ValueError(msg)
        return value.date()
    if isinstance(value, dt.date) or (isinstance(value, str) and _ISO_DATE.fullmatch(value.strip())):
        return value
    msg = "a date written YYYY-MM-DD"
    raise ValueError(msg)


def _date_in_range(value: dt.date) -> dt.date:
    if not FIRST_DATE <= value <= LAST_DATE:
        msg = f"a date between {FIRST_DATE} and {LAST_DATE}"
        raise ValueError(msg)
    return value


def _at_least(low: float) -> AfterValidator:
    def check(value: float) -> float:
        if value < low:
            msg = f"a number of at least {low:g}"
            raise ValueError(msg)
        return value
    return AfterValidator(check)


#: The smallest and largest figures any number field accepts: every figure derived from them
#: (a cost per 1M inferences is price / throughput x 277.8) stays finite.
MIN_FIGURE, MAX_FIGURE = 1e-300, 1e300


# Number fields: positive, finite floats (``low`` to ``high``) and positive integers, written out as
# type aliases so that the type checker reads them as types.
PositiveNumber = Annotated[float, BeforeValidator(_number_input),
                           Field(gt=0, le=MAX_FIGURE, allow_inf_nan=False), _at_least(MIN_FIGURE)]
PositiveInt = Annotated[int, BeforeValidator(_number_input), Field(gt=0, lt=10**9)]
#: Ranges of the figures whose meaning bounds them.
UsdPerHour = Annotated[float, BeforeValidator(_number_input),
                       Field(gt=0, le=1e5, allow_inf_nan=False), _at_least(1e-4)]
Gbps = Annotated[float, BeforeValidator(_number_input), Field(gt=0, le=1e6, allow_inf_nan=False), _at_least(1e-3)]
Seconds = Annotated[float, BeforeValidator(_number_input), Field(gt=0, le=1e9, allow_inf_nan=False), _at_least(1e-6)]
Figure = Annotated[float, BeforeValidator(_number_input), Field(gt=0, le=1e12, allow_inf_nan=False), _at_least(1e-9)]
Percent = Annotated[float, BeforeValidator(_number_input), Field(gt=0, le=100, allow_inf_nan=False), _at_least(1e-6)]
Count = Annotated[int, BeforeValidator(_number_input), Field(gt=0, le=100_000)]
Generation = Annotated[int, BeforeValidator(_number_input), Field(gt=0, le=1000)]
Date = Annotated[dt.date, BeforeValidator(_date_input), AfterValidator(_date_in_range)]
Url = Annotated[str, Field(pattern=r"^https://\S+$", max_length=2000), AfterValidator(_one_line)]
#: true or false, as written in YAML (quoted text such as "yes" is refused).
Flag = Annotated[bool, Field(strict=True)]

Unit = Literal[
    "TOPS", "TFLOPS", "PFLOPS", "GB", "GB/s", "TB/s", "GHz", "Gbps",
    "%", "x", "million", "devices", "ms", "s", "USD/h", "USD", "inferences/s",
    "images/s", "tokens/s", "output tokens/s", "sequences/s",
]
Fit = Literal["good", "poor", "limited"]
Status = Literal["supported", "limited", "roadmap", "na"]
Workload = Literal["training", "inference"]


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


class Quantity(Record):
    value: Figure
    unit: Unit
    label: Name
    source: Id
    note: Text | None = None


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
    id: Id
    family: Id
    device: Id
    device_count: Count
    vcpus: Count
    efa_gbps: Gbps | None = None
    price: Price
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
    expression: Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_printable)] | None = None
    format: Annotated[str, Field(max_length=10), AfterValidator(_one_line)] | None = None
    explanation: Text
