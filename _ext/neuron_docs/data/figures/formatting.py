"""How figures are written: rounding (half up, on the decimal digits as typed) and units.

``format_number(9.007, "ms")`` is ``"9.007 ms"``; with ``decimals=2``, ``0.18735`` USD is ``"$0.19"``.
Without ``decimals`` a value is written with the digits it was typed with (its shortest repr),
positionally down to 1e-15 (``0.000000001%``, not ``1e-09%``). Absurd magnitudes, which the data's
ranges keep out of pages, are written in scientific notation rather than as 40-digit figures:
``format_number(1.5e40, "USD", NumberFormat(2))`` is ``"$1.50 × 10⁴⁰"``. :func:`plain_number` stays
machine-readable (``float()`` reads it back). NaN and infinity are refused by :func:`format_number`
(no page should print one); :func:`display_number` prints them instead and never raises.

Measured figures and costs are shown by one rule everywhere (the performance tables and their CSVs
and charts, the seed runs' tables and charts, the measured models, the advisor, and so the search): :func:`shown_figure` keeps the
decimals a figure was published with, cut to :data:`SIGNIFICANT_DIGITS` significant digits (never
an integer digit: ``2674.18956433`` is ``2674.2``, ``1180.7`` stays, ``12048.659`` is ``12049``);
:func:`shown_cost` writes dollars and cents (``$9,176.60``), and under a dollar two significant
digits (``$0.026``); :func:`shown_change` a figure's change between releases as a signed percentage
with one decimal (``+3.1%``). The raw value stays in the data and its JSON download.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext

#: Numbers at least this large are written in scientific notation by :func:`format_number`.
SCIENTIFIC_FROM = 1e21
#: Without fixed decimals, numbers this small or smaller keep Python's exponent form (``1e-16``).
POSITIONAL_DOWN_TO = 1e-15
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

_SUFFIX = {
    "": "", "%": "%", "x": "x", "pp": " percentage points", "USD/h": "/h",
}
_FORMAT_RE = re.compile(r"^\s*(?P<sign>\+)?(?:\.(?P<decimals>\d{1,2})f?)?\s*$")


@dataclass(frozen=True)
class NumberFormat:
    """A declared format: fixed decimals (or as typed) and whether to show a plus sign."""

    decimals: int | None = None
    sign: bool = False

    @classmethod
    def parse(cls, spec: str) -> NumberFormat:
        """Parse ``".2f"``, ``"+.1"``, ``".0f"`` or ``""``; raise ``ValueError`` otherwise."""
        match = _FORMAT_RE.match(spec)
        if not match:
            msg = f"format {spec!r} is not understood; expected e.g. '.2f', '+.1f' or '.0f'"
            raise ValueError(msg)
        decimals = match.group("decimals")
        return cls(int(decimals) if decimals is not None else None, bool(match.group("sign")))


def round_half_up(number: float, decimals: int) -> Decimal:
    """Round as people do on paper: 0.125 -> 0.13, 2.5 -> 3 (not banker's rounding).

    The digits rounded are those the number is written with (its shortest repr), so 1.005 rounds
    to 1.01 although the nearest binary float is slightly below 1.005. Raises ``ValueError`` for
    NaN and infinity.
    """
    exact = Decimal(number) if isinstance(number, int) and not isinstance(number, bool) else Decimal(repr(float(number)))
    if not exact.is_finite():
        msg = f"cannot round {number!r}; expected a finite number"
        raise ValueError(msg)
    # Enough precision for every digit before the point plus the decimals kept.
    digits = max(exact.adjusted() + 1, 1) + max(decimals, 0) + 2
    with localcontext() as context:
        context.prec = max(28, digits)
        return exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def plain_value(number: float, fmt: NumberFormat = NumberFormat()) -> float | None:
    """The number :func:`format_number` writes, as a number (what a CSV holds of the figure): rounded
    per ``fmt``, a zero unsigned; None when it writes no plain number (NaN, infinity, scientific
    notation or Python's exponent form: ``1e-16``)."""
    if not math.isfinite(number):
        return None
    magnitude = abs(float(number))
    if magnitude >= SCIENTIFIC_FROM:
        return None
    if fmt.decimals is not None:
        value = float(round_half_up(magnitude, fmt.decimals))
    elif float(number).is_integer() and magnitude < 1e15:
        value = float(int(magnitude))
    elif not POSITIONAL_DOWN_TO <= magnitude < 1 and "e" in repr(magnitude):
        return None
    else:
        value = magnitude
    return -value if number < 0 and value else value


def plain_number(number: float, fmt: NumberFormat = NumberFormat()) -> str:
    """The number alone, rounded per ``fmt``; integral values typed without decimals stay bare.

    A value that rounds to zero is written without a minus sign. Raises ``ValueError`` for NaN and
    infinity, which no page should print.
    """
    if not math.isfinite(number):
        msg = f"cannot format {number!r}; expected a finite number"
        raise ValueError(msg)
    magnitude = abs(float(number))
    if fmt.decimals is not None and magnitude >= SCIENTIFIC_FROM:
        text = f"{round_half_up(magnitude, fmt.decimals):.{fmt.decimals}e}"
    elif fmt.decimals is not None:
        text = f"{round_half_up(magnitude, fmt.decimals):f}"
    elif float(number).is_integer() and magnitude < 1e15:
        text = str(int(magnitude))
    elif POSITIONAL_DOWN_TO <= magnitude < 1:
        text = f"{Decimal(repr(magnitude)):f}"  # the typed digits, without an exponent
    else:
        text = repr(magnitude)
    if text.strip("0.") == "":
        negative = False
    else:
        negative = number < 0
    return ("-" if negative else ("+" if fmt.sign else "")) + text


def scientific(number: float, fmt: NumberFormat = NumberFormat()) -> str:
    """``number`` as ``1.5 × 10⁴⁰``: the mantissa as typed, or rounded half up to ``fmt.decimals``.

    Raises ``ValueError`` for NaN and infinity.
    """
    if not math.isfinite(number):
        msg = f"cannot format {number!r}; expected a finite number"
        raise ValueError(msg)
    exact = Decimal(repr(abs(float(number))))
    exponent = exact.adjusted() if exact else 0
    mantissa = exact.scaleb(-exponent)
    if fmt.decimals is not None:
        rounded = round_half_up(float(mantissa), fmt.decimals)
        if rounded >= 10:  # 9.999 -> 10.00: one more power of ten
            exponent += 1
            rounded = round_half_up(float(exact.scaleb(-exponent)), fmt.decimals)
        digits = f"{rounded:f}"
    else:
        digits = f"{mantissa.normalize():f}"
    negative = number < 0 and digits.strip("0.") != ""
    sign = "-" if negative else ("+" if fmt.sign else "")
    power = f" × 10{str(exponent).translate(_SUPERSCRIPT)}" if exponent else ""
    return f"{sign}{digits}{power}"


def _absurd(number: float, text: str) -> bool:
    """Whether ``number``, written ``text``, is better read in scientific notation."""
    magnitude = abs(number)
    return magnitude >= SCIENTIFIC_FROM or (magnitude > 1e12 and "e" in text)


def format_number(number: float, unit: str, fmt: NumberFormat = NumberFormat()) -> str:
    """The number with its unit, as it appears on the page.

    Magnitudes no figure should have (``1e40`` dollars) are written in scientific notation.
    Raises ``ValueError`` for NaN and infinity; see :func:`display_number`.
    """
    text = plain_number(number, fmt)
    if _absurd(float(number), text):
        text = scientific(number, fmt)
        if unit in ("%", "x"):  # "1.5 × 10¹⁷ x", not "10¹⁷x"
            return f"{text} {unit}"
    return _with_unit(text, unit)


def display_number(number: float, unit: str, fmt: NumberFormat = NumberFormat()) -> str:
    """:func:`format_number`, but never raising: NaN and infinity are written ``NaN`` and ``∞``."""
    if math.isnan(number):
        return _with_unit("NaN", unit)
    if math.isinf(number):
        return _with_unit(("-" if number < 0 else "+" if fmt.sign else "") + "∞", unit)
    return format_number(number, unit, fmt)


#: The most significant digits a measured figure is shown with (its integer digits are always kept).
SIGNIFICANT_DIGITS = 5
#: The significant digits of a cost under a dollar (a cost of a dollar or more is shown to the cent).
COST_DIGITS = 2


def _exact(value: Decimal | float) -> Decimal:
    """The value's digits as typed: a Decimal as it is, a float by its shortest repr."""
    if isinstance(value, Decimal):
        return value
    return Decimal(value) if isinstance(value, int) and not isinstance(value, bool) else Decimal(repr(float(value)))


def _cut(exact: Decimal, digits: int, at_least: int = 0) -> int:
    """How many decimals keep ``digits`` significant digits of ``exact`` (never fewer than ``at_least``)."""
    return max(digits - (exact.adjusted() + 1) if exact else 0, at_least, 0)


def _figure_decimals(exact: Decimal) -> int:
    """The decimals :func:`shown_figure` keeps: the published ones, cut to the significant digits."""
    published = max(-int(exact.as_tuple().exponent), 0)
    return min(published, _cut(exact, SIGNIFICANT_DIGITS))


def shown_figure(value: Decimal | float) -> str:
    """A measured figure as it is shown: its published decimals, at most :data:`SIGNIFICANT_DIGITS`
    significant digits, rounded half up; NaN and infinity as :func:`display_number` writes them."""
    exact = _exact(value)
    if not exact.is_finite():
        return display_number(float(value), "")
    return format_number(float(exact), "", NumberFormat(_figure_decimals(exact)))


def figure_value(value: Decimal | float) -> float | None:
    """The number :func:`shown_figure` shows (``2674.2`` of ``2674.18956433``), None where it shows none."""
    exact = _exact(value)
    return plain_value(float(exact), NumberFormat(_figure_decimals(exact))) if exact.is_finite() else None


def shown_measure(value: Decimal | float, unit: str) -> str:
    """A measured figure with its unit, by the rule of :func:`shown_figure`: ``2674.2 inferences/s``."""
    return _with_unit(shown_figure(value), unit)


def shown_cost(usd: Decimal | float, unit: str = "USD") -> str:
    """A cost as it is shown: ``$9,176.60`` (to the cent), under a dollar ``$0.026`` (two significant
    digits), thousands separated; ``unit`` "USD/h" for a price per hour."""
    exact = _exact(usd)
    if not exact.is_finite():
        return display_number(float(usd), unit)
    text = format_number(float(exact), unit, NumberFormat(_cost_decimals(exact)))
    head, dot, tail = text.partition(".")
    sign = head[: len(head) - len(head.lstrip("+-$"))]
    digits = head[len(sign):]
    return f"{sign}{int(digits):,}{dot}{tail}" if digits.isdigit() else text


def _cost_decimals(exact: Decimal) -> int:
    """The decimals :func:`shown_cost` keeps: cents, under a dollar two significant digits."""
    return 2 if abs(exact) >= 1 else _cut(exact, COST_DIGITS, at_least=2)


def cost_value(usd: Decimal | float) -> float | None:
    """The number :func:`shown_cost` shows (``9176.6`` of ``$9,176.60``), None where it shows none."""
    exact = _exact(usd)
    return plain_value(float(exact), NumberFormat(_cost_decimals(exact))) if exact.is_finite() else None


#: The decimals of a figure's change between releases, in percent (``+3.1%``).
CHANGE_DECIMALS = 1


def shown_price(usd_per_hour: Decimal | float) -> str:
    """An hourly price as its source gives it, every digit kept: ``$0.7582/h``, ``$24.78/h``."""
    return format_number(float(usd_per_hour), "USD/h")


def shown_change(ratio: float) -> str:
    """A figure's change as a fraction of an earlier one, as it is shown: ``+3.1%``, ``-12.0%``, ``+0.0%``
    (rounded half up to :data:`CHANGE_DECIMALS` decimals, always signed)."""
    return display_number(ratio * 100, "%", NumberFormat(CHANGE_DECIMALS, sign=True))


def change_value(ratio: float) -> float | None:
    """The number, in percent, that :func:`shown_change` shows (``3.1`` of ``+3.1%``)."""
    return plain_value(ratio * 100, NumberFormat(CHANGE_DECIMALS, sign=True))


def shown_cost_number(usd: Decimal | float) -> str:
    """A cost as :func:`shown_cost` shows it, as a plain number for a CSV whose header names the unit:
    ``0.026``, ``9176.60``."""
    return shown_cost(usd).removeprefix("$").replace(",", "")


def _with_unit(text: str, unit: str) -> str:
    if unit in ("USD", "USD/h"):
        sign = text[0] if text[0] in "+-" else ""
        return f"{sign}${text.lstrip('+-')}{_SUFFIX.get(unit, '')}"
    if unit == "pp" and text.lstrip("+-") == "1":
        return text + " percentage point"  # one point, as people write it
    if unit in _SUFFIX:
        return text + _SUFFIX[unit]
    return f"{text} {unit}"


#: The decimal units a size in bytes is shown in, largest first, and those of a parameter count.
MEMORY_UNITS = ((10**12, " TB"), (10**9, " GB"), (10**6, " MB"), (10**3, " kB"), (1, " B"))
PARAMETER_UNITS = ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "K"), (1, ""))


def _scaled(count: int, units: tuple[tuple[int, str], ...]) -> tuple[str, float, str]:
    """``count`` in the largest unit it has one of, to three significant digits (two decimals under 10,
    one under 100, none from 100), rounded half up on the integer, trailing zeros dropped: the text,
    its number and its unit."""
    unit, suffix = next(((u, s) for u, s in units if count >= u), units[-1])
    decimals = 0 if count >= 100 * unit else 1 if count >= 10 * unit else 2
    rounded = (count * 10**decimals * 2 + unit) // (2 * unit)
    whole, part = divmod(rounded, 10**decimals)
    text = f"{whole}.{part:0{decimals}d}".rstrip("0").rstrip(".") if decimals else str(whole)
    return text + suffix, float(Decimal(rounded).scaleb(-decimals)), suffix.strip()


def shown_memory(size_bytes: int) -> str:
    """A memory size in decimal units, as every fit estimate shows it: ``17.2 GB``, ``440 MB``, ``1.65 TB``
    (the script of the advisor writes it by the same rule: ``memoryText`` of ``neuron-fit.js``)."""
    return _scaled(max(int(size_bytes), 0), MEMORY_UNITS)[0]


def memory_figure(size_bytes: int) -> tuple[float, str]:
    """The number and unit :func:`shown_memory` shows: ``(17.2, "GB")``."""
    return _scaled(max(int(size_bytes), 0), MEMORY_UNITS)[1:]


def shown_parameters(count: float) -> str:
    """A parameter count as model cards write it: ``8B``, ``46.7B``, ``110M``, ``11.7M``."""
    return _scaled(max(round(count), 0), PARAMETER_UNITS)[0]


def parameters_figure(count: float) -> tuple[float, str]:
    """The number and unit :func:`shown_parameters` shows: ``(46.7, "B")``."""
    return _scaled(max(round(count), 0), PARAMETER_UNITS)[1:]
