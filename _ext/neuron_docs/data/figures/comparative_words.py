"""Comparative words written from the data: what ``:neuron:compare:`` prints (no Sphinx).

``A, B | less/more`` prints "less" when A is below B, else "more" ("as much" when they are equal);
the pair may be any two words (``cheaper/more expensive``, ``lower/higher``, ``fewer/more``):
the first is said of A below B. ``faster/slower`` (and ``slower/faster``) reads the figures' unit: a
time (ms, s) is faster when lower, a rate (inferences/s, TFLOPS) when higher. ``A, B | diff less/more``
prints the difference with its word ("$0.11 less"; of two percentages in percentage points, "4
percentage points more"), by the display rule at the declared format (``diff .2f less/more``),
``A, B | pct .0f faster/slower`` the difference in percent of B ("36% faster"); ``A, B | times``
prints "2.9 times as much as" (A at least B), else "65% less than". A data change that moves A past
B rewrites the sentence: its words are the data's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from dataclasses import dataclass

from ..records.labels import UNIT_CONVERSIONS
from .expressions import Result, evaluate
from .formatting import NumberFormat, format_number
from .shown import Shown, figure

if TYPE_CHECKING:
    from ..catalog import Catalog
    from .values import Values

#: Units of time: lower is faster.
_TIMES = {"ms", "s", "us", "min", "h"}
_DEFAULT_DECIMALS = {"USD": 2, "%": 0, "pp": 2, "x": 1}


def split_operands(text: str) -> list[str]:
    """``a, pct_more(b, c)`` -> [``a``, ``pct_more(b, c)``]: commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    parts.append(current.strip())
    return [p for p in parts if p]


def parse(text: str) -> tuple[str, str, str, str, NumberFormat]:
    """(A, B, mode, word pair, format) of a role's text; raises ``ValueError`` for its writer."""
    operands, bar, spec = text.partition("|")
    pair = split_operands(operands)
    if not bar or len(pair) != 2:
        raise ValueError(f"expected 'A, B | less/more' (or '| diff less/more', '| pct less/more', '| times'), "
                         f"got {text!r}")
    words = spec.split()
    mode = words.pop(0) if words and words[0] in ("diff", "pct", "times") else "word"
    number_format = NumberFormat()
    if words and re.fullmatch(r"\+?\.\d+f", words[0]):
        number_format = NumberFormat.parse(words.pop(0))
    wording = " ".join(words)
    if mode != "times" and wording.count("/") != 1:
        raise ValueError(f"expected two words for the two directions ('less/more'), got {spec.strip()!r}")
    return pair[0], pair[1], mode, wording, number_format


def direction_word(a: float, b: float, unit: str, wording: str) -> str:
    """The word of ``wording`` ("less/more") that is true of A against B."""
    first, second = (w.strip() for w in wording.split("/"))
    if a == b:
        return "as fast as" if {first, second} == {"faster", "slower"} else "as much"
    below = a < b
    if {first, second} == {"faster", "slower"}:
        a_faster = below if unit in _TIMES else not below
        return "faster" if a_faster else "slower"
    return first if below else second


@dataclass(frozen=True)
class _Figure:
    number: float
    unit: str


def _in_base(result: Result) -> _Figure:
    """A result in the unit figures of its dimension are compared in (PFLOPS as TFLOPS, s as ms)."""
    unit, factor = UNIT_CONVERSIONS.get(result.unit, (result.unit, 1.0))
    return _Figure(result.number * factor, unit)


def compared(catalog: Catalog, values: Values, text: str) -> Shown:
    """What ``:neuron:compare:`text``` prints; ``ValueError`` with a message for the page's writer."""
    left, right, mode, wording, number_format = parse(text)
    a, b = _in_base(evaluate(left, values)), _in_base(evaluate(right, values))
    if a.unit != b.unit:
        raise ValueError(f"{left} is in {a.unit or 'no unit'} and {right} in {b.unit or 'no unit'}: not comparable")
    if mode == "times":
        if b.number <= 0 or a.number <= 0:
            raise ValueError(f"a ratio needs two positive figures: {left}, {right}")
        ratio = a.number / b.number
        decimals = number_format.decimals if number_format.decimals is not None else 1
        if ratio >= 1:
            words = f"{format_number(ratio, '', NumberFormat(decimals))} times as much as"
        else:
            words = f"{format_number((1 - ratio) * 100, '%', NumberFormat(0))} less than"
    else:
        word = direction_word(a.number, b.number, a.unit, wording)
        words = word
        if mode == "pct":  # how much more or less A is than B, in percent of B
            if b.number == 0:
                raise ValueError(f"a percentage of {right}, which is zero")
            places = number_format.decimals if number_format.decimals is not None else 0
            words = f"{format_number(abs(a.number / b.number - 1) * 100, '%', NumberFormat(places))} {word}"
        if mode == "diff":
            places = number_format.decimals if number_format.decimals is not None else _DEFAULT_DECIMALS.get(a.unit, 2)
            # Two percentages differ by percentage points (as diff() says): "4 percentage points more", not "4% more"
            unit = "pp" if a.unit == "%" else a.unit
            words = f"{format_number(abs(a.number - b.number), unit, NumberFormat(places))} {word}"
    shown_a = figure(catalog, values, left, require_format=False)
    shown_b = figure(catalog, values, right, require_format=False)
    files = tuple(sorted({*shown_a.files, *shown_b.files}))
    return Shown(words, f"{shown_a.text} ({shown_a.explanation}) against {shown_b.text} ({shown_b.explanation})",
                 ("neuron-value", "neuron-compare"), files, expression=f"{left}, {right}", format=text.partition("|")[2].strip())
