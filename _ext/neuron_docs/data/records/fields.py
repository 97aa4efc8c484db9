"""The field types of the data files: ids, names, text, numbers in a range, dates, URLs, units and codes.

A number is finite, in a range per field (:func:`_at_least` and ``Field``), and read as people write it
(:func:`_number_input`); text holds no control or bidirectional-override characters (the readers refuse
them first, with the line). The record models (:mod:`.models`) are made of these.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field

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
    "TOPS", "TFLOPS", "PFLOPS", "GB", "GiB", "MiB", "GB/s", "TB/s", "GHz", "Gbps",
    "%", "x", "million", "devices", "ms", "s", "USD/h", "USD", "inferences/s",
    "images/s", "tokens/s", "output tokens/s", "sequences/s",
]
Fit = Literal["good", "poor", "limited"]
Status = Literal["supported", "limited", "roadmap", "na"]
Workload = Literal["training", "inference"]

#: A derived claim's expression (``data/training.yaml``) and the format its figure is printed with.
Expression = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_printable)]
FormatSpec = Annotated[str, Field(max_length=10), AfterValidator(_one_line)]
