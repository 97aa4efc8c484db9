"""The number a printed figure shows, and equality of two such numbers (for the tests of the display rule)."""

from __future__ import annotations

import math


def number_of(text: str) -> float | None:
    """The number a plain text shows (its unit, dollar sign, thousands separators and percent dropped),
    None for scientific notation or an exponent form."""
    bare = text.removesuffix("%").replace("$", "").replace(",", "")
    return None if "e" in bare or "×" in bare else float(bare)


def same_number(value: float | None, expected: float | None) -> bool:
    """Equal, and a zero as unsigned as the other (a CSV's -0 would be a second spelling of 0)."""
    if value is None or expected is None:
        return value is expected
    return value == expected and math.copysign(1, value) == math.copysign(1, expected)
