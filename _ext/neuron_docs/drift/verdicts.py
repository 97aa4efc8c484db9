"""What a figure in prose means against the data: candidates, verdicts and suggested roles (no Sphinx).

A :class:`Candidate` is a value of the data or a claim derived from two values; :func:`agrees` says
whether a figure writes it at the rounding (and with the qualifier) the text uses, and a
:class:`Match` is the verdict on one figure, with the value as it should be written and the
``:neuron:value:`` role a page should use instead of the literal.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..data.figures.formatting import NumberFormat, format_number, round_half_up
from .literal_figures import LiteralFigure
from .quantities import base_unit

APPROX = {"about", "around", "approximately", "approx.", "roughly", "nearly", "almost", "some", "~"}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A value of the data, or a claim derived from two values, that a figure may correspond to."""

    expression: str
    number: float
    unit: str
    #: "value", "diff", "pct_more", "pct_less" or "ratio".
    op: str = "value"
    #: Keyword groups per record the candidate reads (a record is named when one word of each group is).
    records: tuple[tuple[frozenset[str], ...], ...] = ()
    #: The claim a text means when it writes this candidate's number with the other direction word.
    counterpart: str = ""
    #: The operands of a derived candidate (paths).
    operands: tuple[str, ...] = ()
    #: What it measures (:mod:`.quantities`): "latency", "price", "memory_bandwidth"...
    quantity: str = ""
    #: The value as the data holds it, at its own precision and in its own unit (typed values only).
    typed: str = ""
    #: The unit the data holds it in (typed values only).
    typed_unit: str = ""

    @property
    def direction(self) -> str:
        return {"diff": "diff", "pct_more": "up", "pct_less": "down", "ratio": "up"}.get(self.op, "")


@dataclass(frozen=True)
class Match:
    """How a figure relates to the data: ``agrees`` or not, with the candidate and its true value."""

    figure: LiteralFigure
    candidate: Candidate
    agrees: bool
    #: The candidate's number written with the figure's rounding and unit.
    expected: str
    #: Why it disagrees when it does (empty when it agrees).
    reason: str = ""
    #: The role a page should use instead of the literal.
    role: str = ""
    #: The other source the figure quotes (:mod:`.sources`): the data uses another value, for a reason.
    quoted: str = ""


def in_unit(number: float, unit: str, figure_unit: str) -> float:
    """``number`` (in the base ``unit``) in the unit of a figure (``ms`` -> ``s``, ``TFLOPS`` -> ``PFLOPS``)."""
    base, factor = base_unit(figure_unit)
    if base == unit and figure_unit:
        return number / factor
    return number


def normal_unit(unit: str) -> str:
    """The base unit a unit written in prose is compared in."""
    return base_unit(unit)[0]


def expected_text(candidate: Candidate, figure: LiteralFigure) -> str:
    """What the data gives, at its own precision: a typed value as the data holds it (``7.14 ms``,
    never rounded to the text's ``7.1 ms``), followed by its value in the text's unit at the text's
    precision when the text writes another unit (``96 GiB = 103 GB``); a derived figure in the
    figure's unit, one decimal more precise than the text (and at least three significant digits)."""
    if candidate.typed:
        if not figure.unit or figure.unit in (candidate.typed_unit, "USD", "USD/h", "%") or figure.unit == "x":
            return candidate.typed
        # In another unit ("100 GB" for 96 GiB): as the data holds it, then in the text's unit at its precision.
        number = in_unit(candidate.number, candidate.unit, figure.unit)
        return f"{candidate.typed} = {format_number(number, figure.unit, NumberFormat(figure.decimals))}"
    unit = figure.unit or candidate.unit
    number = in_unit(candidate.number, candidate.unit, unit) if figure.unit else candidate.number
    if unit == "pp" and figure.unit == "%":
        unit = "%"
    decimals = figure.decimals + 1
    magnitude = abs(number)
    while decimals < 6 and magnitude and magnitude * 10 ** decimals < 100:
        decimals += 1
    return format_number(number, unit, NumberFormat(decimals))


def agrees(candidate: Candidate, figure: LiteralFigure) -> bool:
    """Whether ``candidate`` is what ``figure`` says, at the rounding (and qualifier) the text uses."""
    number = in_unit(candidate.number, candidate.unit, figure.unit)
    qualifier = figure.qualifier
    if figure.low is not None:  # a range, at the rounding of its ends
        half = 0.5 * 10 ** -figure.decimals
        return min(figure.low, figure.number) - half <= number <= max(figure.low, figure.number) + half
    if qualifier in ("less than", "under", "below", "fewer than"):
        return number < figure.number
    if qualifier in ("more than", "over", "above"):
        return number > figure.number
    if qualifier == "at least":
        return number >= figure.number
    if qualifier in ("at most", "up to"):
        return number <= figure.number
    try:
        rounded = round_half_up(number, figure.decimals)
    except InvalidOperation:
        return False
    if rounded == figure.typed:
        return True
    if _tie(number, figure):
        return True
    if qualifier in APPROX:
        # "about 75%": within a unit of its last digit; "almost four times": within a half.
        step = 0.5 if figure.unit == "x" else 1.0
        return abs(number - figure.number) <= max(step * 10 ** -figure.decimals, 0.05 * abs(figure.number))
    return False


def _tie(number: float, figure: LiteralFigure) -> bool:
    """Whether ``number`` lies exactly halfway between the figure and its neighbour at the text's
    precision: 2437.5 is written 2,438 (half up) or 2,437 (half down, or cut), both at the rounding
    the text uses."""
    try:
        exact = Decimal(repr(float(number)))
        said = figure.typed
    except (InvalidOperation, ValueError):
        return False
    return abs(exact - said) == Decimal(5).scaleb(-figure.decimals - 1)


def fits_direction(candidate: Candidate, figure: LiteralFigure) -> bool:
    """A difference is only meant by a text that says "more", "less", "by" or "difference"."""
    if candidate.op == "value":
        return figure.direction in ("", "up", "down") or figure.unit in ("x",)
    if candidate.op == "diff":
        return figure.direction in ("diff", "up", "down")
    if candidate.op == "ratio":
        return figure.unit == "x" or figure.direction == "up"
    return figure.direction in (candidate.direction, "")


def path_score(groups: tuple[frozenset[str], ...], context: set[str]) -> float:
    """How many keyword groups of one record the context names (and, to tell ``inf2.xlarge`` from
    ``inf2.8xlarge``, a tenth for each word it names)."""
    return sum(1 + 0.1 * len(group & context) for group in groups if group & context)


def context_score(candidate: Candidate, context: set[str]) -> float:
    """How well the context names the candidate's records: every record must be named at least in part."""
    scores = [path_score(groups, context) for groups in candidate.records]
    if not scores or min(scores) == 0:
        return 0.0
    return float(sum(scores))


def role_of(candidate: Candidate, figure: LiteralFigure) -> str:
    """The ``:neuron:value:`` role a page should write instead of ``figure``."""
    spec = "" if candidate.op == "value" and figure.decimals == _typed_decimals(candidate.number) else\
        f" | .{figure.decimals}f"
    return f":neuron:value:`{candidate.expression}{spec}`"


def _typed_decimals(number: float) -> int:
    if float(number).is_integer():
        return 0
    return len(repr(number).partition(".")[2])


#: The kinds of verdict that compare a figure or claim with the data (agreeing or not); the others
#: (``unknown``, ``table``) say why a figure was not compared.
CHECKED_KINDS = ("figure", "claim", "comparison", "history", "source")


@dataclass(frozen=True)
class Verdict:
    """A figure or claim of a passage that corresponds to the data, and whether it agrees."""

    start: int
    #: The figure or claim as written.
    text: str
    #: ``figure``, ``claim``, ``comparison`` (a comparative word the figures it compares contradict),
    #: ``history`` (a figure of the Neuron release its sentence names, read in the benchmark history:
    #: right for that release, or contradicting it), ``unknown`` (a figure about a subject the data
    #: does not hold), ``source`` (the value another source gives a figure the data holds, which
    #: the data records with why it uses its own: :mod:`.sources`) or
    #: ``table`` (a table row that cannot be read: more or fewer cells than its header).
    kind: str
    #: The data path or derived expression it corresponds to.
    expression: str
    #: What the data gives, in words or at the data's own precision.
    expected: str
    agrees: bool
    #: Why it disagrees (empty when it agrees).
    reason: str
    #: What to write instead of the literal (a role).
    role: str

    def message(self) -> str:
        """The build's warning for this verdict."""
        literal = self.text.strip()
        if self.kind in ("unknown", "table"):
            return f"literal {literal} not checked: {self.reason}"
        if self.kind == "comparison":
            return f"'{literal}' contradicts the figures it compares: {self.reason}"
        if self.kind == "claim":
            return f"'{literal}' contradicts the data: {self.reason}; write {self.role}"
        if self.kind == "source":
            return f"literal {literal} quotes {self.reason}; write {self.role}"
        if self.kind == "history":
            said = "quotes" if self.agrees else "contradicts"
            return f"literal {literal} {said} {self.expression} ({self.expected}): {self.reason}"
        if self.agrees:
            return f"literal {literal} duplicates {self.expression}; write {self.role}"
        why = f": {self.reason}" if self.reason and "the data gives" not in self.reason else ""
        return f"literal {literal} contradicts {self.expression} ({self.expected}){why}; write {self.role}"
