"""Literal figures in prose: a number with its unit, qualifier and direction (no Sphinx).

:func:`find_figures` finds ``9.007 ms``, ``$0.78``, ``0.19$``, ``75%``, ``2.5X``, ``800Gbps``,
``536.718 operations in 1 second``..., with the qualifier written before the number (``less than 2 ms``,
``~39%``) and the direction written after it (``75% more expensive``, ``160 more operations per second``).
Numbers glued to identifiers, versions or paths (``inf1.2xlarge``, ``1.11.0``) are not figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

#: A per-chip or per-device suffix of a bandwidth ("GB/sec/chip").
_PER_PART = r"(?:/(?:chip|device|core))?\b"
#: Data types written between a number and its FLOPS ("1,299 FP8 TFLOPS", "2,563 FP8/FP16 sparse TFLOPS").
_PRECISION = r"(?:(?:(?:c|mx)?fp\d+|bf16|tf32|int8)(?:/(?:(?:c|mx)?fp\d+|bf16|tf32|int8))*\s+)?(?:(?:sparse|dense)\s+)?"
#: Unit words as written in prose -> the unit of the data (and a factor to the data's common unit).
_UNIT_WORDS: tuple[tuple[str, str], ...] = (
    (r"percentage\s+points?|pp\b", "pp"),
    (r"%", "%"),
    (r"ms\b|milliseconds?\b", "ms"),
    (r"s\b|secs?\b|seconds?\b", "s"),
    (rf"TB/s(?:ec)?{_PER_PART}", "TB/s"),
    (r"TB\b", "TB"),
    (r"TiB\b", "TiB"),
    (r"min\b|minutes?\b", "min"),
    (r"µs\b|us\b|microseconds?\b", "us"),
    (rf"GB/s(?:ec)?{_PER_PART}", "GB/s"),
    (rf"GiB/s(?:ec)?{_PER_PART}", "GiB/s"),
    (r"GB\b", "GB"),
    (r"GiB\b", "GiB"),
    (r"MiB\b", "MiB"),
    (r"Gbps\b|Gb/s", "Gbps"),
    (r"TOPS\b", "TOPS"),
    (rf"{_PRECISION}(?:TFLOPS|TeraFLOPS)\b", "TFLOPS"),
    (rf"{_PRECISION}(?:PFLOPS|PetaFLOPS)\b", "PFLOPS"),
    (r"GHz\b", "GHz"),
    (r"USD\b", "USD"),
    (r"(?:more\s+|fewer\s+)?(?:operations|ops|inferences|images)(?:/s\b|\s+per\s+second|\s+in\s+(?:1|one)\s+second|/sec\b)",
     "inferences/s"),
    # Counts of an instance's parts: "192 vCPUs", "16 Trainium2 chips" (the device's name may come between).
    (r"vCPUs?\b", "vCPUs"),
    (r"(?:[a-z][\w-]*\s+)?chips?\b", "chips"),
)
_UNIT_RE = "|".join(f"(?P<u{i}>{pattern})" for i, (pattern, _) in enumerate(_UNIT_WORDS))
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_QUALIFIER = (r"less\s+than|more\s+than|fewer\s+than|under|below|over|above|at\s+least|at\s+most|up\s+to|"
              r"about|around|approximately|approx\.|roughly|nearly|almost|some|~")
#: Numbers glued to identifiers, versions or paths are not figures: ``inf1.2xlarge``, ``1.11.0``.
_BEFORE = r"(?<![\w.\-/:$%])"
_AFTER = r"(?![\w]|\.\d|-\w)"
FIGURE_RE = re.compile(
    rf"(?:(?P<qual>{_QUALIFIER})\s*)?"
    rf"(?:"
    rf"(?P<usd>\$)\s?(?P<n_usd>{_NUMBER}){_AFTER}"
    rf"|%(?P<n_pct>\d+(?:\.\d+)?){_AFTER}"
    rf"|{_BEFORE}(?:(?P<lo>{_NUMBER})\s?(?:-|–|to)\s?)?(?P<num>{_NUMBER})"
    rf"(?:(?P<x>[xX])(?![\w])|(?P<usd_after>\$)|\s?(?:{_UNIT_RE}))"
    rf")",
    re.IGNORECASE,
)
#: A bare decimal number (``536.18``), matched by the audit only (``loose=True``).
BARE_RE = re.compile(rf"{_BEFORE}(?P<num>\d+\.\d+){_AFTER}(?!\s?(?:[%$xX]|{_UNIT_RE}))", re.IGNORECASE)
_UP = re.compile(r"^[ \t\n]{0,2}(?:[\w-]+[ \t\n]+)?(?:more|higher|faster|greater|larger|better|expensive|increase[sd]?|"
                 r"over|above|ahead)\b", re.IGNORECASE)
_DOWN = re.compile(r"^[ \t\n]{0,2}(?:[\w-]+[ \t\n]+)?(?:less|lower|cheaper|slower|fewer|smaller|behind|worse|"
                   r"decrease[sd]?|drop(?:ped)?)\b", re.IGNORECASE)
#: ("powered by 16 chips", "backed by", "driven by", "served by": what a thing is made of, not a difference.)
_DIFF_BEFORE = re.compile(r"(?:(?<!powered\s)(?<!backed\s)(?<!driven\s)(?<!served\s)\bby|\bdifference\s+of|\bgap\s+of|\bbehind\s+by|\blagging\s+(?:behind\s+)?by)\s*$",
                          re.IGNORECASE)
#: An hourly price: ``$0.76 per hour``, ``$1.34/hr``, ``$21.50 an hour``.
_PER_HOUR = re.compile(r"\s*(?:per\s+hour|an\s+hour|/\s*h(?:ou)?r\b|/h\b|\s+hourly)", re.IGNORECASE)
_DIFF_AFTER = re.compile(r"^[ \t\n]{0,2}(?:[\w-]+[ \t\n]+){0,2}?(?:difference|gap)\b", re.IGNORECASE)


_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "twice": 2}
#: A multiple in words: "almost four times as much", "twice as fast", "3 times more".
_MULTIPLE = re.compile(
    rf"(?:(?P<qual>{_QUALIFIER})\s+)?\b(?:(?P<n>{'|'.join(w for w in _WORD_NUMBERS if w != 'twice')}|\d+(?:\.\d+)?)"
    rf"\s+times|(?P<twice>twice))(?=\s+(?:as\b|more\b|faster\b|higher\b|larger\b|greater\b|cheaper\b|the\b))",
    re.IGNORECASE)


#: Counts written in words ("up to twelve Inferentia2 chips", "Two Trainium chips"): a count of a unit
#: prose counts (chips, vCPUs), read as the digits would be.
COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
               "ten": 10, "eleven": 11, "twelve": 12, "sixteen": 16, "twenty-four": 24, "thirty-two": 32,
               "sixty-four": 64}
_COUNT_WORD = re.compile(
    rf"(?:(?P<qual>{_QUALIFIER})\s+)?\b(?P<n>{'|'.join(sorted(COUNT_WORDS, key=len, reverse=True))})"
    r"\s+(?P<unit>(?:[a-z][\w-]*\s+)?chips?\b|vCPUs?\b)", re.IGNORECASE)
#: "a Trainium chip", "one chip", "each chip" are not counts: only a word number followed by its unit is.
#: A cell of a table whose header gives the unit: a bare count with its qualifier ("Up to 16", "Two").
COUNT_CELL = re.compile(rf"^\s*(?:(?P<qual>{_QUALIFIER})\s+)?(?P<n>\d{{1,3}}(?:,\d{{3}})*(?:\.\d+)?|"
                        rf"{'|'.join(COUNT_WORDS)})\s*$", re.IGNORECASE)


def count_cell(text: str, unit: str) -> str | None:
    """A table cell that is a count with its header's ``unit`` ("Up to 16" under "# of chips" ->
    "Up to 16 chips"; "Two" -> "2 chips"); ``None`` when the cell is no such count."""
    match = COUNT_CELL.match(text)
    if match is None:
        return None
    number = match.group("n")
    number = str(COUNT_WORDS.get(number.lower(), number))
    qualifier = f"{match.group('qual')} " if match.group("qual") else ""
    return f"{qualifier}{number} {unit}"


@dataclass(frozen=True)
class LiteralFigure:
    """A literal figure in a text: ``text`` at ``start:end``, its number, decimals and unit."""

    text: str
    start: int
    end: int
    number: float
    decimals: int
    unit: str
    qualifier: str = ""
    #: "up" (more, higher...), "down" (less, cheaper...), "diff" (by, difference) or "".
    direction: str = ""
    bare: bool = False
    #: Written with a minus sign ("-$0.11").
    negative: bool = False
    #: The low end of a range ("7-10 ms", "7 to 10 ms"); ``number`` is its high end.
    low: float | None = None
    #: A count written in words ("twelve Inferentia2 chips"): compared when it agrees or nearly does,
    #: never with a value far off (words count parts of many things).
    spelled: bool = False

    @property
    def typed(self) -> Decimal:
        return Decimal(repr(self.number)).quantize(Decimal(1).scaleb(-self.decimals))


def _number(text: str) -> tuple[float, int]:
    clean = text.replace(",", "")
    decimals = len(clean.partition(".")[2])
    return float(clean), decimals


def _unit_of(match: re.Match[str]) -> str:
    if match.group("usd") or match.group("usd_after"):
        return "USD"
    if match.group("n_pct"):
        return "%"
    if match.group("x"):
        return "x"
    for i, (_, unit) in enumerate(_UNIT_WORDS):
        if match.group(f"u{i}"):
            return unit
    return ""


#: "$0.13 is how much less BEiT costs": a difference said with its direction.
_HOW_MUCH = re.compile(r"^[ \t\n]{0,2}(?:is|was|being)\s+how\s+much\s+(?:(?P<down>less|lower|cheaper|fewer|slower)|"
                       r"(?P<up>more|higher|faster|greater))\b", re.IGNORECASE)


def _direction(text: str, start: int, end: int) -> str:
    after = text[end:end + 60]
    how_much = _HOW_MUCH.match(after)
    if how_much:
        return "down" if how_much.group("down") else "up"
    if _DIFF_BEFORE.search(text[max(0, start - 40):start]) or _DIFF_AFTER.match(after):
        return "diff"
    if _UP.match(after):
        return "up"
    if _DOWN.match(after):
        return "down"
    return ""


def find_figures(text: str, *, loose: bool = False) -> list[LiteralFigure]:
    """The literal figures of ``text``; with ``loose``, bare decimal numbers too (for the audit)."""
    found: list[LiteralFigure] = []
    for match in FIGURE_RE.finditer(text):
        unit = _unit_of(match)
        raw = match.group("n_usd") or match.group("n_pct") or match.group("num")
        if not raw or not unit:
            continue
        qualifier = re.sub(r"\s+", " ", (match.group("qual") or "").lower())
        start, end = match.start(), match.end()
        # "160 more operations per second": the direction word sits inside the unit phrase.
        inner_more = re.search(r"\b(more|fewer)\s+(?:operations|ops|inferences|images)", match.group(0), re.I)
        direction = _direction(text, start, end)
        if inner_more:
            direction = "up" if inner_more.group(1).lower() == "more" else "down"
        number, decimals = _number(raw)
        hourly = _PER_HOUR.match(text, end) if unit == "USD" else None
        if hourly:
            unit, end = "USD/h", hourly.end()
        low: float | None = None
        if match.group("lo"):  # a range: one figure, the data's value within it ("7-10 ms")
            low, _ = _number(match.group("lo"))
            start = match.start("lo")
        negative = unit.startswith("USD") and text[max(0, start - 1):start] in ("-", "\u2212")
        found.append(LiteralFigure(text[start:end], start, end, number, decimals, unit, qualifier, direction,
                            negative=negative, low=low))
    taken = [(f.start, f.end) for f in found]
    for match in _MULTIPLE.finditer(text):
        if any(a < match.end() and match.start() < b for a, b in taken):
            continue
        word = (match.group("n") or match.group("twice")).lower()
        number, decimals = (float(_WORD_NUMBERS[word]), 0) if word in _WORD_NUMBERS else _number(word)
        qualifier = re.sub(r"\s+", " ", (match.group("qual") or "").lower())
        found.append(LiteralFigure(match.group(0), match.start(), match.end(), number, decimals, "x", qualifier, "up"))
    taken = [(f.start, f.end) for f in found]
    for match in _COUNT_WORD.finditer(text):
        if any(a < match.end() and match.start() < b for a, b in taken):
            continue
        unit = "vCPUs" if match.group("unit").lower().startswith("vcpu") else "chips"
        qualifier = re.sub(r"\s+", " ", (match.group("qual") or "").lower())
        found.append(LiteralFigure(match.group(0), match.start(), match.end(), float(COUNT_WORDS[match.group("n").lower()]),
                            0, unit, qualifier, spelled=True))
    if loose:
        taken = [(f.start, f.end) for f in found]
        for match in BARE_RE.finditer(text):
            if any(a <= match.start() < b for a, b in taken):
                continue
            number, decimals = _number(match.group("num"))
            found.append(LiteralFigure(match.group(0), match.start(), match.end(), number, decimals, "",
                                "", _direction(text, match.start(), match.end()), bare=True))
    found.sort(key=lambda f: f.start)
    return found
