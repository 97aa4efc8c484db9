"""Finding figures and fit/support claims in prose and matching them against the data (no Sphinx).

Shared by the build's drift checker (:mod:`.checks`) and the ``make audit`` command (:mod:`.audit`).

- :func:`find_figures` finds the literal figures of a text: a number with a unit (``9.007 ms``,
  ``$0.78``, ``0.19$``, ``75%``, ``2.5X``, ``800Gbps``, ``536.718 operations in 1 second``...), with
  the qualifier written before it (``less than 2 ms``, ``~39%``) and the direction written after it
  (``75% more expensive``, ``160 more operations per second``).
- :class:`FigureIndex` is built once per data set: every value of the data and the common derived
  claims between related values (differences, ratios and percent changes between runs of the same
  model, accuracy runs of the same model, and instances' specifications), sorted by unit so that a
  figure is matched by bisection, never by scanning all values.
- :meth:`FigureIndex.match` says whether a figure duplicates a value (agrees at the rounding the text
  uses) or contradicts one (a near miss, in a context naming the value's records).
- :class:`ClaimIndex` checks fit/support phrases ("a good fit", "not supported") in a sentence that
  names a model family and a device against ``families.yaml``.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from .data.formatting import NumberFormat, format_number, round_half_up
from .data.values import Value

# Figures ------------------------------------------------------------------------------------------

#: Unit words as written in prose -> the unit of the data (and a factor to the data's common unit).
_UNIT_WORDS: tuple[tuple[str, str], ...] = (
    (r"percentage\s+points?|pp\b", "pp"),
    (r"%", "%"),
    (r"ms\b|milliseconds?\b", "ms"),
    (r"s\b|secs?\b|seconds?\b", "s"),
    (r"TB/s", "TB/s"),
    (r"GB/s", "GB/s"),
    (r"GB\b", "GB"),
    (r"Gbps\b|Gb/s", "Gbps"),
    (r"TOPS\b", "TOPS"),
    (r"TFLOPS\b", "TFLOPS"),
    (r"PFLOPS\b", "PFLOPS"),
    (r"GHz\b", "GHz"),
    (r"USD\b", "USD"),
    (r"(?:more\s+|fewer\s+)?(?:operations|ops|inferences|images)(?:/s\b|\s+per\s+second|\s+in\s+(?:1|one)\s+second|/sec\b)",
     "inferences/s"),
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
_DIFF_BEFORE = re.compile(r"(?:\bby|\bdifference\s+of|\bgap\s+of|\bbehind\s+by|\blagging\s+(?:behind\s+)?by)\s*$",
                          re.IGNORECASE)
_DIFF_AFTER = re.compile(r"^[ \t\n]{0,2}(?:[\w-]+[ \t\n]+){0,2}?(?:difference|gap)\b", re.IGNORECASE)
_SCALE = {"PFLOPS": ("TFLOPS", 1000.0), "TB/s": ("GB/s", 1000.0)}
_APPROX = {"about", "around", "approximately", "approx.", "roughly", "nearly", "almost", "some", "~"}


@dataclass(frozen=True)
class Figure:
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


def _direction(text: str, start: int, end: int) -> str:
    after = text[end:end + 60]
    if _DIFF_BEFORE.search(text[max(0, start - 40):start]) or _DIFF_AFTER.match(after):
        return "diff"
    if _UP.match(after):
        return "up"
    if _DOWN.match(after):
        return "down"
    return ""


def find_figures(text: str, *, loose: bool = False) -> list[Figure]:
    """The literal figures of ``text``; with ``loose``, bare decimal numbers too (for the audit)."""
    found: list[Figure] = []
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
        if match.group("lo"):
            lo, lo_decimals = _number(match.group("lo"))
            found.append(Figure(text[match.start("lo"):match.end("lo")], match.start("lo"), match.end("lo"),
                                lo, lo_decimals, unit, qualifier, direction))
            start = match.start("num")
        found.append(Figure(text[start:end], start, end, number, decimals, unit, qualifier, direction))
    if loose:
        taken = [(f.start, f.end) for f in found]
        for match in BARE_RE.finditer(text):
            if any(a <= match.start() < b for a, b in taken):
                continue
            number, decimals = _number(match.group("num"))
            found.append(Figure(match.group(0), match.start(), match.end(), number, decimals, "",
                                "", _direction(text, match.start(), match.end()), bare=True))
    found.sort(key=lambda f: f.start)
    return found


# Context: which records a passage talks about -----------------------------------------------------

_WORD_RE = re.compile(r"[a-z0-9]+(?:[.\-][a-z0-9]+)*")
_STOP = {"aws", "the", "of", "and", "a", "an", "model", "models", "base", "large", "xlarge", "nvidia", "gb",
         "instance", "instances", "device", "devices", "run", "runs", "acc", "b1", "b2", "b3", "b4", "b128",
         "initial", "on", "none"}


def words(text: str) -> set[str]:
    """Lower-case words of ``text``, with the parts of dotted or hyphenated words too."""
    out: set[str] = set()
    for word in _WORD_RE.findall(text.lower()):
        out.add(word)
        out.update(re.split(r"[.\-]", word))
    return out


def _tokens(*texts: str | None) -> frozenset[str]:
    out: set[str] = set()
    for text in texts:
        if text:
            out.update(words(text))
    return frozenset(w for w in out if w not in _STOP and not w.isdigit())


@dataclass(frozen=True)
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

    @property
    def direction(self) -> str:
        return {"diff": "diff", "pct_more": "up", "pct_less": "down", "ratio": "up"}.get(self.op, "")


@dataclass(frozen=True)
class Match:
    """How a figure relates to the data: ``agrees`` or not, with the candidate and its true value."""

    figure: Figure
    candidate: Candidate
    agrees: bool
    #: The candidate's number written with the figure's rounding and unit.
    expected: str
    #: Why it disagrees when it does (empty when it agrees).
    reason: str = ""
    #: The role a page should use instead of the literal.
    role: str = ""


def _in_unit(number: float, unit: str, figure_unit: str) -> float:
    if figure_unit in _SCALE and _SCALE[figure_unit][0] == unit:
        return number / _SCALE[figure_unit][1]
    return number


def _normal_unit(unit: str) -> str:
    return _SCALE[unit][0] if unit in _SCALE else unit


def _format_spec(figure: Figure) -> str:
    return f".{figure.decimals}f"


def expected_text(candidate: Candidate, figure: Figure) -> str:
    unit = figure.unit or candidate.unit
    number = _in_unit(candidate.number, candidate.unit, unit) if figure.unit else candidate.number
    shown_unit = unit if figure.unit else candidate.unit
    if shown_unit == "pp" and figure.unit == "%":
        shown_unit = "%"
    return format_number(number, shown_unit if shown_unit != "inferences/s" else "inferences/s",
                         NumberFormat(figure.decimals))


def agrees(candidate: Candidate, figure: Figure) -> bool:
    """Whether ``candidate`` is what ``figure`` says, at the rounding (and qualifier) the text uses."""
    number = _in_unit(candidate.number, candidate.unit, figure.unit)
    qualifier = figure.qualifier
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
    if qualifier in _APPROX:
        return abs(number - figure.number) <= max(10 ** -figure.decimals, 0.05 * abs(figure.number))
    return False


def _compatible(candidate: Candidate, figure: Figure) -> bool:
    """A difference is only meant by a text that says "more", "less", "by" or "difference"."""
    if candidate.op == "value":
        return figure.direction in ("", "up", "down") or figure.unit in ("x",)
    if candidate.op == "diff":
        return figure.direction in ("diff", "up", "down")
    if candidate.op == "ratio":
        return figure.unit == "x" or figure.direction == "up"
    return figure.direction in (candidate.direction, "")


class FigureIndex:
    """Every value and common derived claim of a data set, by unit and sorted by number."""

    #: Groups larger than this get no pairwise derived claims (they would grow quadratically).
    MAX_GROUP = 16

    def __init__(self, values: Mapping[str, Value], catalog: Any = None) -> None:
        self.values = values
        self._keywords = _record_keywords(values, catalog)
        by_unit: dict[str, list[tuple[float, Candidate]]] = defaultdict(list)
        for candidate in self._candidates(values):
            by_unit[candidate.unit].append((candidate.number, candidate))
            if candidate.unit == "pp":  # "a 3.06% accuracy difference"
                by_unit["%"].append((candidate.number, candidate))
        self._numbers: dict[str, list[float]] = {}
        self._entries: dict[str, list[Candidate]] = {}
        for unit, entries in by_unit.items():
            entries.sort(key=lambda e: e[0])
            self._numbers[unit] = [n for n, _ in entries]
            self._entries[unit] = [c for _, c in entries]

    def __len__(self) -> int:
        return sum(len(v) for v in self._entries.values())

    def _records(self, path: str) -> tuple[frozenset[str], ...]:
        kind, record, _ = path.split(":", 2)
        return self._keywords.get(f"{kind}:{record}", ())

    def _candidates(self, values: Mapping[str, Value]) -> Iterator[Candidate]:
        groups: dict[tuple[str, ...], list[tuple[str, Value]]] = defaultdict(list)
        for path, value in values.items():
            if not value.unit:
                continue  # counts (batch sizes, NeuronCores) are not figures with a unit
            normal = value.normalized()
            yield Candidate(path, normal.number, normal.unit, records=(self._records(path),))
            kind, record, name = path.split(":", 2)
            groups[(kind, name, normal.unit, self._group_of(kind, record))].append((path, normal))
        for members in groups.values():
            if len(members) < 2 or len(members) > self.MAX_GROUP:
                continue
            for pa, a in members:
                for pb, b in members:
                    if pa == pb or a.number <= b.number or b.number <= 0:
                        continue
                    records = (self._records(pa), self._records(pb))
                    more, less = f"pct_more({pa}, {pb})", f"pct_less({pb}, {pa})"
                    diff_unit = "pp" if a.unit == "%" else a.unit
                    yield Candidate(f"diff({pa}, {pb})", a.number - b.number, diff_unit, "diff", records,
                                    operands=(pa, pb))
                    yield Candidate(more, (a.number / b.number - 1) * 100, "%", "pct_more", records, less, (pa, pb))
                    yield Candidate(less, (1 - b.number / a.number) * 100, "%", "pct_less", records, more, (pb, pa))
                    if a.unit != "%":
                        yield Candidate(f"ratio({pa}, {pb})", a.number / b.number, "x", "ratio", records,
                                        operands=(pa, pb))

    def _group_of(self, kind: str, record: str) -> str:
        """Records whose values are compared with each other: runs of one model, all instances."""
        if kind in ("run", "accuracy"):
            return record.split("-")[0]
        if kind in ("instance", "device"):
            return ""
        return record

    def candidates(self, figure: Figure) -> list[Candidate]:
        """Values of the figure's unit within a factor of two of it (or of any unit, for a bare number)."""
        units = [_normal_unit(figure.unit)] if figure.unit else list(self._numbers)
        if figure.unit == "%":
            units = ["%"]
        out: list[Candidate] = []
        number = figure.number * (_SCALE[figure.unit][1] if figure.unit in _SCALE else 1.0)
        low, high = (number * 0.5, number * 2.0) if number > 0 else (-1e-9, 1e-9)
        if figure.qualifier in ("less than", "under", "below", "up to", "at most", "fewer than"):
            low = 0.0
        for unit in units:
            numbers = self._numbers.get(unit, [])
            entries = self._entries[unit] if numbers else []
            for i in range(bisect.bisect_left(numbers, low), bisect.bisect_right(numbers, high)):
                out.append(entries[i])
        return out

    def match(self, figure: Figure, context: set[str], *, everywhere: bool = False) -> Match | None:
        """What ``figure`` corresponds to in the data, given the words of its ``context``.

        A figure agreeing with a value at its rounding is a match when the context names the value's
        records, or when it is precise enough to be no coincidence (three significant digits, or a
        unit of its own). A figure that misses a value by a little (15%) contradicts it when the
        context names the value's records; so does a figure that equals a claim but with the wrong
        direction word ("75% more" where 75% is how much *less* the other costs).
        """
        best: tuple[tuple[float, ...], Candidate, bool] | None = None
        for candidate in self.candidates(figure):
            score = _score(candidate, context)
            ok = agrees(candidate, figure)
            compatible = _compatible(candidate, figure)
            number = _in_unit(candidate.number, candidate.unit, figure.unit)
            error = abs(number - figure.number) / max(abs(figure.number), 1e-12)
            if ok and compatible:
                precise = score > 0 or (not figure.bare and _significant(figure) >= 3 and candidate.op == "value")
                if not precise and not everywhere:
                    continue
                key = (3.0, candidate.op == "value", score, -error)
            elif ok and not compatible and score > 0 and candidate.op != "value":
                key = (2.0, 0, score, -error)
            elif not ok and compatible and score > 0 and error <= 0.15 and not figure.qualifier:
                if figure.bare and candidate.op != "value":
                    continue
                key = (1.0, 0, score, -error)
            else:
                continue
            if best is None or key > best[0]:
                best = (key, candidate, ok and compatible)
        if best is None:
            return None
        (rank, *_), candidate, ok = best
        if rank == 2.0:
            return self._wrong_direction(figure, candidate, context)
        role = _role(candidate, figure)
        if ok and candidate.expression.endswith(":claimed"):
            measured = candidate.expression.removesuffix(":claimed") + ":measured"
            if measured in self.values:
                value = self.values[measured].normalized()
                target = Candidate(measured, value.number, value.unit, records=candidate.records)
                if not agrees(target, figure):
                    expected = expected_text(target, figure)
                    return Match(figure, target, False, expected,
                                 f"{figure.text.strip()} is the claimed figure ({candidate.expression}); "
                                 f"the specifications give {expected}", _role(target, figure))
        if ok:
            return Match(figure, candidate, True, expected_text(candidate, figure), role=role)
        expected = expected_text(candidate, figure)
        return Match(figure, candidate, False, expected, f"the data gives {expected}", role)

    def _wrong_direction(self, figure: Figure, candidate: Candidate, context: set[str]) -> Match:
        said = expected_text(candidate, figure)
        if candidate.op == "diff":
            # A difference written as an absolute figure ("costing $0.13"): the figure meant is
            # the operand the context names best.
            operand = max(candidate.operands, key=lambda p: (_score_path(self._records(p), context), p))
            target = Candidate(operand, self.values[operand].normalized().number,
                               self.values[operand].normalized().unit, records=(self._records(operand),))
            expected = expected_text(target, figure)
            reason = (f"{figure.text.strip()} is {candidate.expression} (a difference), written as an absolute "
                      f"figure; {operand} is {expected}")
            return Match(figure, target, False, expected, reason, _role(target, figure))
        counterpart = next((c for c in self._entries.get("%", []) if c.expression == candidate.counterpart),
                           None) if candidate.counterpart else None
        if counterpart is None:
            return Match(figure, candidate, False, said, f"{said} is {candidate.expression}, not what the text says",
                         _role(candidate, figure))
        expected = expected_text(counterpart, figure)
        word = "more" if counterpart.op == "pct_more" else "less"
        reason = (f"{said} is {candidate.expression}; {word} is {counterpart.expression} = {expected}")
        return Match(figure, counterpart, False, expected, reason, _role(counterpart, figure))


def _significant(figure: Figure) -> int:
    digits = f"{figure.typed}".replace(".", "").lstrip("0")
    return len(digits)


def _score_path(groups: tuple[frozenset[str], ...], context: set[str]) -> int:
    return sum(1 for group in groups if group & context)


def _score(candidate: Candidate, context: set[str]) -> float:
    """How well the context names the candidate's records: every record must be named at least in part."""
    scores = [_score_path(groups, context) for groups in candidate.records]
    if not scores or min(scores) == 0:
        return 0.0
    return float(sum(scores))


def _role(candidate: Candidate, figure: Figure) -> str:
    spec = "" if candidate.op == "value" and figure.decimals == _typed_decimals(candidate.number) else \
        f" | {_format_spec(figure)}"
    return f":neuron:value:`{candidate.expression}{spec}`"


def _typed_decimals(number: float) -> int:
    if float(number).is_integer():
        return 0
    return len(repr(number).partition(".")[2])


def _record_keywords(values: Mapping[str, Value], catalog: Any) -> dict[str, tuple[frozenset[str], ...]]:
    """Keyword groups naming each record: a run is named by its model and by its instance or device."""
    out: dict[str, tuple[frozenset[str], ...]] = {}
    if catalog is None:
        for path in values:
            kind, record, _ = path.split(":", 2)
            out.setdefault(f"{kind}:{record}", (_tokens(record),))
        return out

    def instance_words(instance_id: str) -> frozenset[str]:
        instance = catalog.instances.get(instance_id)
        if instance is None:
            return _tokens(instance_id)
        device = catalog.devices.get(instance.device)
        extra = ["gpu"] if device is not None and device.kind == "gpu" else []
        extra += ["inf"] if instance.family.startswith("inf") else []
        return _tokens(instance_id, instance.family, instance.device, device.name if device else "", *extra)

    def model_words(model_id: str) -> frozenset[str]:
        model = catalog.models.get(model_id)
        return _tokens(model_id, model.name if model else "")

    for run in catalog.inference_runs.values():
        env = catalog.environments.get(run.environment)
        groups = [model_words(run.model), instance_words(env.instance) if env else frozenset()]
        out[f"run:{run.id}"] = tuple(g for g in groups if g)
    for acc in catalog.accuracy_runs.values():
        env = catalog.environments.get(acc.environment)
        groups = [model_words(acc.model), instance_words(env.instance) if env else frozenset()]
        out[f"accuracy:{acc.id}"] = tuple(g for g in groups if g)
    for instance_id in catalog.instances:
        out[f"instance:{instance_id}"] = (instance_words(instance_id),)
    for device in catalog.devices.values():
        out[f"device:{device.id}"] = (_tokens(device.id, device.name),)
    for model_id in catalog.models:
        out[f"model:{model_id}"] = (model_words(model_id),)
    for path in values:
        kind, record, _ = path.split(":", 2)
        key = f"{kind}:{record}"
        if key not in out:
            if kind == "comparison" and record in catalog.comparisons:
                c = catalog.comparisons[record]
                out[key] = (instance_words(c.subject), instance_words(c.baseline))
            elif kind == "model":
                out[key] = (model_words(record.split(".")[0]),)
            else:
                out[key] = (_tokens(record.replace(".", " ")),)
    return out


# Passages: sentences and their context ---------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[*\"'])|\n\s*\n")


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text``."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def context_words(text: str, start: int, heading: str = "", spans: list[tuple[int, int]] | None = None) -> set[str]:
    """Words of the sentence holding offset ``start``, the sentence before it and the heading."""
    spans = spans if spans is not None else sentences(text)
    index = next((i for i, (a, b) in enumerate(spans) if a <= start <= b), len(spans) - 1)
    first = max(0, index - 1)
    return words(text[spans[first][0]:spans[index][1]]) | words(heading)


# Fit and support claims -----------------------------------------------------------------------------

_NOT_FIT = re.compile(r"\b(?:not|n't|never)\s+(?:\w+\s+)?(?:a\s+)?good\s+fit\b|\b(?:poor|bad)\s+fits?\b", re.I)
_FIT = re.compile(r"\bgood\s+fits?\b", re.I)
_NOT_SUPPORTED = re.compile(r"\b(?:not|n't|never)\s+(?:\w+\s+)?(?:supported|support)\b|\bunsupported\b", re.I)
_SUPPORTED = re.compile(r"\bsupport(?:ed|s)\b", re.I)
_CLAUSE = re.compile(r"[;:]|,\s*(?:but|while|whereas|and)\b|\s(?:but|whereas|while)\s", re.I)


@dataclass(frozen=True)
class Claim:
    """A fit/support phrase in a sentence naming a family and a device, and what the data says."""

    start: int
    end: int
    text: str
    family: str
    device: str
    said: str
    truth: str
    role: str

    @property
    def agrees(self) -> bool:
        return self.said == self.truth


class ClaimIndex:
    """Names of families, devices and frameworks, for finding fit/support claims in sentences."""

    MAX_WORDS = 6

    def __init__(self, catalog: Any) -> None:
        self.catalog = catalog
        self.families: dict[tuple[str, ...], str] = {}
        self.devices: dict[tuple[str, ...], str] = {}
        self.frameworks: dict[tuple[str, ...], str] = {}
        for family in catalog.families.values():
            for name in (family.name, family.short_name, family.title, *family.representatives):
                self.families.setdefault(self._key(name), family.id)
        for device in catalog.devices.values():
            for name in (device.id, device.name, device.name.removeprefix("AWS ").removeprefix("NVIDIA ")):
                self.devices.setdefault(self._key(name), device.id)
        for instance in catalog.instances.values():
            self.devices.setdefault(self._key(instance.family), instance.device)
        for framework in catalog.frameworks.values():
            for name in (framework.id, framework.package):
                self.frameworks.setdefault(self._key(name), framework.id)

    @staticmethod
    def _key(name: str) -> tuple[str, ...]:
        return tuple(re.findall(r"[a-z0-9]+", name.lower()))

    def _names(self, text: str, table: dict[tuple[str, ...], str]) -> list[tuple[str, int]]:
        tokens = [(m.group(0).lower(), m.start()) for m in re.finditer(r"[A-Za-z0-9]+", text)]
        found: list[tuple[str, int]] = []
        i = 0
        while i < len(tokens):
            for size in range(min(self.MAX_WORDS, len(tokens) - i), 0, -1):
                key = tuple(t for t, _ in tokens[i:i + size])
                if key in table:
                    found.append((table[key], tokens[i][1]))
                    i += size
                    break
            else:
                i += 1
        return found

    def claims(self, text: str, allowed: Iterable[tuple[int, int]] | None = None) -> list[Claim]:
        """Fit/support claims in ``text`` (a paragraph); phrases only inside ``allowed`` spans count."""
        spans = list(allowed) if allowed is not None else [(0, len(text))]
        out: list[Claim] = []
        for s_start, s_end in sentences(text):
            sentence = text[s_start:s_end]
            families = self._names(sentence, self.families)
            devices = self._names(sentence, self.devices)
            if not families or not devices:
                continue
            frameworks = self._names(sentence, self.frameworks)
            clauses = [(0, len(sentence))]
            cuts = [m.start() for m in _CLAUSE.finditer(sentence)]
            if cuts:
                bounds = [0, *cuts, len(sentence)]
                clauses = list(zip(bounds, bounds[1:], strict=False))
            for c_start, c_end in clauses:
                clause = sentence[c_start:c_end]
                phrase = self._phrase(clause)
                if phrase is None:
                    continue
                kind, said, p_start, p_end = phrase
                absolute = (s_start + c_start + p_start, s_start + c_start + p_end)
                if not any(a <= absolute[0] and absolute[1] <= b for a, b in spans):
                    continue
                fams = [f for f, at in families if c_start <= at < c_end] or (
                    [families[0][0]] if len({f for f, _ in families}) == 1 else [])
                devs = [d for d, at in devices if c_start <= at < c_end] or (
                    [devices[0][0]] if len({d for d, _ in devices}) == 1 else [])
                fws = [f for f, at in frameworks if c_start <= at < c_end]
                for family_id in dict.fromkeys(fams):
                    for device_id in dict.fromkeys(devs):
                        claim = self._check(kind, said, family_id, device_id, fws, absolute, text)
                        if claim is not None:
                            out.append(claim)
        return out

    @staticmethod
    def _phrase(clause: str) -> tuple[str, str, int, int] | None:
        for regex, kind, said in ((_NOT_FIT, "fit", "poor"), (_FIT, "fit", "good"),
                                  (_NOT_SUPPORTED, "support", "unsupported"), (_SUPPORTED, "support", "supported")):
            match = regex.search(clause)
            if match:
                return kind, said, match.start(), match.end()
        return None

    def _check(self, kind: str, said: str, family_id: str, device_id: str, frameworks: list[str],
               span: tuple[int, int], text: str) -> Claim | None:
        family = self.catalog.families.get(family_id)
        entry = family.devices.get(device_id) if family else None
        if entry is None:
            return None
        phrase = text[span[0]:span[1]]
        if kind == "fit":
            return Claim(span[0], span[1], phrase, family_id, device_id, said, entry.fit,
                         f":neuron:fit:`{family_id}/{device_id}`")
        chosen = [f for f in frameworks if f in entry.support] or list(entry.support)
        supported = any(entry.support[f].status == "supported" for f in chosen)
        framework = chosen[0] if chosen else ""
        return Claim(span[0], span[1], phrase, family_id, device_id, said,
                     "supported" if supported else "unsupported",
                     f":neuron:status:`{family_id}/{device_id}/{framework}`")


@dataclass
class Passage:
    """A block of text (a paragraph) with where it starts and its heading."""

    text: str
    line: int
    heading: str = ""
    #: Offsets of the characters that may hold literal figures (the rest is generated or quoted).
    checkable: list[tuple[int, int]] = field(default_factory=list)

    def line_of(self, offset: int) -> int:
        return self.line + self.text.count("\n", 0, offset)


def is_number_like(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False
