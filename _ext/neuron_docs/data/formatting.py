"""How figures are written: rounding (half up, on the decimal digits as typed) and units.

``format_number(9.007, "ms")`` is ``"9.007 ms"``; with ``decimals=2``, ``0.18735`` USD is ``"$0.19"``.
Without ``decimals`` a value is written with the digits it was typed with (its shortest repr).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext

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


def plain_number(number: float, fmt: NumberFormat = NumberFormat()) -> str:
    """The number alone, rounded per ``fmt``; integral values typed without decimals stay bare.

    A value that rounds to zero is written without a minus sign. Raises ``ValueError`` for NaN and
    infinity, which no page should print.
    """
    if not math.isfinite(number):
        msg = f"cannot format {number!r}; expected a finite number"
        raise ValueError(msg)
    if fmt.decimals is not None:
        text = f"{round_half_up(abs(number), fmt.decimals):f}"
    elif float(number).is_integer() and abs(number) < 1e15:
        text = str(int(abs(number)))
    else:
        text = repr(abs(float(number)))
    if text.strip("0.") == "":
        negative = False
    else:
        negative = number < 0
    return ("-" if negative else ("+" if fmt.sign else "")) + text


def format_number(number: float, unit: str, fmt: NumberFormat = NumberFormat()) -> str:
    """The number with its unit, as it appears on the page."""
    text = plain_number(number, fmt)
    if unit in ("USD", "USD/h"):
        sign = text[0] if text[0] in "+-" else ""
        return f"{sign}${text.lstrip('+-')}{_SUFFIX.get(unit, '')}"
    if unit in _SUFFIX:
        return text + _SUFFIX[unit]
    return f"{text} {unit}"
