"""The figure index: every value of a data set and the common claims derived from them (no Sphinx).

:class:`FigureIndex` is built once per data set: every value of the data and the common derived
claims between related values (differences, ratios and percent changes between runs of the same
model, accuracy runs of the same model, and instances' specifications), sorted by unit so that a
figure is matched by bisection, never by scanning all values. It is made in one pass over the
figures of the data; the words naming each record (:mod:`.keywords`) are made when a figure first
comes near one of its values. :meth:`FigureIndex.match` says
whether a figure duplicates a value (agrees at the rounding the text uses) or contradicts one (a
near miss, in a context naming the value's records).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from ..data.figures.formatting import format_number
from ..data.figures.values import Value
from .aspects import Aspects, same_percentile
from .keywords import Groups, RecordKeywords
from .literal_figures import LiteralFigure
from .sources import other_values
from .quantities import COUNT_UNITS, base_unit, counted, of_field, of_path
from .verdicts import (
    Candidate,
    Match,
    agrees,
    context_score,
    expected_text,
    fits_direction,
    in_unit,
    normal_unit,
    path_score,
    role_of,
)

if TYPE_CHECKING:
    from ..data.catalog import Catalog


class FigureIndex:
    """Every value and common derived claim of a data set, by unit and sorted by number."""

    #: Groups larger than this get no pairwise derived claims (they would grow quadratically).
    MAX_GROUP = 16

    def __init__(self, values: Mapping[str, Value], catalog: Catalog | None = None) -> None:
        self.values = values
        self._keywords = RecordKeywords(catalog)
        self._vocabulary = self._keywords.vocabulary
        self._quantity: dict[str, str] = {}
        by_unit: dict[str, list[tuple[float, str | Candidate]]] = defaultdict(list)
        for unit, number, entry in self._candidates(values):
            by_unit[unit].append((number, entry))
            if unit == "pp":  # "a 3.06% accuracy difference"
                by_unit["%"].append((number, entry))
        # Per unit, the numbers sorted (a packed array) and what each is: a value's path (its
        # Candidate is made when a figure comes near it: at scale, almost all of them never are)
        # or a derived claim's Candidate.
        self._numbers: dict[str, array[float]] = {}
        self._entries: dict[str, list[str | Candidate]] = {}
        for unit, entries in by_unit.items():
            entries.sort(key=lambda e: e[0])
            self._numbers[unit] = array("d", (n for n, _ in entries))
            self._entries[unit] = [c for _, c in entries]

    @property
    def platform_words(self) -> set[str]:
        """Every word naming an instance, an instance family or a device of the data."""
        return self._vocabulary.words["platform"]

    def subject_words(self, kind: str) -> set[str]:
        """Every word naming a subject of ``kind`` ("model" or "platform") in the data."""
        return self._vocabulary.words[kind]

    def _records(self, path: str) -> Groups:
        kind, record, _ = path.split(":", 2)
        return self._keywords.groups(f"{kind}:{record}")

    def _candidates(self, values: Mapping[str, Value]) -> Iterator[tuple[str, float, str | Candidate]]:
        """(unit, number, the value's path or the derived claim) for every candidate."""
        # Values compared with each other, in their base unit: (path, number, label) by group.
        groups: dict[tuple[str, str, str, str], list[tuple[str, float, str]]] = defaultdict(list)
        for path, value in values.items():
            kind, record, name = path.split(":", 2)
            if not value.unit:
                if name in COUNT_UNITS:  # an instance's chips and vCPUs, compared as they are, never derived
                    yield COUNT_UNITS[name], float(value.number), path
                continue  # other counts (batch sizes, NeuronCores) are not figures with a unit
            unit, factor = base_unit(value.unit)
            number = value.number * factor
            yield unit, number, path
            groups[(kind, name, unit, self._group_of(kind, record))].append((path, number, value.label))
        for (_, _, unit, _), members in groups.items():
            if len(members) < 2 or len(members) > self.MAX_GROUP:
                continue
            for pa, a, label in members:
                for pb, b, _ in members:
                    if pa == pb or a <= b or b <= 0:
                        continue
                    records = (self._records(pa), self._records(pb))
                    quantity = self._quantity_of(pa, label)
                    more, less = f"pct_more({pa}, {pb})", f"pct_less({pb}, {pa})"
                    diff_unit = "pp" if unit == "%" else unit
                    derived = [
                        Candidate(f"diff({pa}, {pb})", a - b, diff_unit, "diff", records,
                                  operands=(pa, pb), quantity=quantity),
                        Candidate(more, (a / b - 1) * 100, "%", "pct_more", records, less, (pa, pb), quantity),
                        Candidate(less, (1 - b / a) * 100, "%", "pct_less", records, more, (pb, pa), quantity),
                    ]
                    if unit != "%":
                        derived.append(Candidate(f"ratio({pa}, {pb})", a / b, "x", "ratio", records,
                                                 operands=(pa, pb), quantity=quantity))
                    for candidate in derived:
                        yield candidate.unit, candidate.number, candidate

    def _group_of(self, kind: str, record: str) -> str:
        """Records whose values are compared with each other: runs of one model, all instances."""
        if kind in ("run", "accuracy"):
            return record.split("-")[0]
        if kind in ("instance", "device"):
            return ""
        return record

    def candidates(self, figure: LiteralFigure, quantities: frozenset[str] | None = None,
                   context: set[str] | None = None, aspects: Aspects | None = None,
                   spread: float = 2.0) -> list[Candidate]:
        """Values of the figure's unit within a factor of ``spread`` of it (or of any unit, for a bare
        number); with ``quantities``, only those measuring one of them (of the percentile, batch size
        and compiler options the text names: ``aspects``), and with ``context``, only those whose
        records it may talk about (:meth:`_subject`): the others are never made."""
        units = [normal_unit(figure.unit)] if figure.unit else list(self._numbers)
        if figure.unit == "%":
            units = ["%"]
        out: list[Candidate] = []
        percentile = aspects.percentile if aspects is not None else None
        number = figure.number * base_unit(figure.unit)[1]
        bottom = min(number, figure.low * base_unit(figure.unit)[1]) if figure.low is not None else number
        low, high = (bottom / spread, number * spread) if number > 0 else (-1e-9, 1e-9)
        if figure.qualifier in ("less than", "under", "below", "up to", "at most", "fewer than"):
            low = 0.0
        for unit in units:
            numbers = self._numbers.get(unit)
            if not numbers:
                continue
            entries = self._entries[unit]
            for i in range(bisect.bisect_left(numbers, low), bisect.bisect_right(numbers, high)):
                entry = entries[i]
                if isinstance(entry, Candidate):
                    if (quantities is None or entry.quantity in quantities) and (
                            not entry.operands or same_percentile(percentile, entry.operands[0])) and (
                            context is None or self._subject(entry.records, context)):
                        out.append(entry)
                elif (quantities is None or self._cheap_quantity(entry) in quantities) and (
                        same_percentile(percentile, entry)) and (
                        context is None or self._subject((self._records(entry),), context)) and (
                        aspects is None or self._configured(entry, aspects)):
                    out.append(self._value(entry, numbers[i], unit))
        return out

    def _configured(self, path: str, aspects: Aspects) -> bool:
        """Whether the run at ``path`` has the batch size and compiler options the text names."""
        catalog = self._keywords.catalog
        if catalog is None or (aspects.batch is None and not aspects.options):
            return True
        kind, record, _ = path.split(":", 2)
        collections: dict[str, Mapping[str, object]] = {
            "run": catalog.inference_runs, "accuracy": catalog.accuracy_runs, "prun": catalog.published_inference_runs}
        run = collections.get(kind, {}).get(record)
        if run is None:
            return True
        batch = getattr(run, "batch_size", None)
        if aspects.batch is not None and batch is not None and batch != aspects.batch:
            return False
        held = {o.strip().lower() for o in re.split(r"[,;]|\s+", getattr(run, "compiler_options", None) or "") if o}
        return aspects.options <= held

    def _cheap_quantity(self, path: str) -> str:
        """:meth:`quantity`, from the path's field when it says (no lookup of the value)."""
        return self._quantity.get(path) or of_field(path) or self.quantity(path)

    def quantity(self, path: str) -> str:
        """What the value at ``path`` measures."""
        if path not in self._quantity:
            self._quantity[path] = of_path(path, self.values[path].label)
        return self._quantity[path]

    def _quantity_of(self, path: str, label: str) -> str:
        """:meth:`quantity` when the value's label is at hand (no lookup of the value)."""
        if path not in self._quantity:
            self._quantity[path] = of_path(path, label)
        return self._quantity[path]

    def _value(self, path: str, number: float, unit: str) -> Candidate:
        """The candidate of a value of the data (typed values keep their own precision and unit)."""
        value = self.values[path]
        digits = repr(float(value.number)).removesuffix(".0").replace(".", "").strip("0")
        shown = value.unit or COUNT_UNITS.get(path.rpartition(":")[2], "")  # a count in the unit prose counts it
        typed = "" if value.derived and len(digits) > 6 else format_number(value.number, counted(value.number, shown))
        return Candidate(path, number, unit, records=(self._records(path),), quantity=self._quantity_of(path, value.label),
                         typed=typed, typed_unit=shown if typed else "")

    def _subject(self, records: tuple[Groups, ...], context: set[str]) -> bool:
        """Whether the context may talk about a candidate's ``records``: a record part it does not name
        (a model, an instance or device) is allowed only when the context names no other subject of
        that kind than the candidate's own; at least one part must be named."""
        named = 0
        unnamed_kinds: set[str] = set()
        own: dict[str, set[str]] = {"model": set(), "platform": set()}
        for groups in records:
            for group in groups:
                kind = self._vocabulary.kind(group)
                if kind:
                    own[kind] |= group
                if group & context:
                    named += 1
                elif kind:
                    unnamed_kinds.add(kind)
        if any((self._vocabulary.words[kind] & context) - own[kind] for kind in unnamed_kinds):
            return False
        # An instance type written in full is that instance only: "on inf2.48xlarge" names no
        # inf2.xlarge run, though both are Inf2 (a device's figure is any of its instances').
        own_types = {w for w in own["platform"] if "." in w}
        if own_types and not own_types & context and any(
                "." in w for w in (self._vocabulary.words["platform"] & context) - own["platform"]):
            return False
        return named > 0 or not records

    def _covers(self, candidate: Candidate, sentence: set[str]) -> bool:
        """Whether a derived claim's operands are every platform its sentence names ("On the G5, ViT
        costs twice as much as on Inf1" is no ratio of two Inf1 runs)."""
        named = sentence & self._vocabulary.words["platform"]
        if not named:
            return True
        own = {word for groups in candidate.records for group in groups
               if self._vocabulary.kind(group) == "platform" for word in group}
        return named <= own

    def match(self, figure: LiteralFigure, context: set[str], *, everywhere: bool = False,
              quantities: frozenset[str] | None = None, aspects: Aspects | None = None,
              sentence: set[str] | None = None) -> Match | None:
        """:meth:`_match`, then, for a figure contradicting a value, the value another source gives
        it (:mod:`.sources`): a figure agreeing with that quotes the source."""
        found = self._match(figure, context, everywhere=everywhere, quantities=quantities, aspects=aspects,
                            sentence=sentence)
        if found is None or found.agrees or found.candidate.op != "value":
            return found
        for other in other_values(self._keywords.catalog, found.candidate.expression):
            said = Candidate(found.candidate.expression, other.number, other.unit, records=found.candidate.records,
                             quantity=found.candidate.quantity,
                             typed=format_number(other.shown, other.shown_unit), typed_unit=other.shown_unit)
            if agrees(said, figure):
                used = self.values[found.candidate.expression]
                reason = (f"{other.source} ({expected_text(said, figure)}) for {found.candidate.expression}; the "
                          f"data uses {found.expected} ({used.source}): {other.why}")
                return Match(figure, found.candidate, True, found.expected, reason, found.role, quoted=other.source)
        return found

    def _match(self, figure: LiteralFigure, context: set[str], *, everywhere: bool = False,
              quantities: frozenset[str] | None = None, aspects: Aspects | None = None,
              sentence: set[str] | None = None) -> Match | None:
        """What ``figure`` corresponds to in the data, given the words of its ``context``.

        A figure agreeing with a value at its rounding is a match only when the context names the
        value's records (a value equal by chance, of another subject, never confirms). A figure that
        misses a value by a little (15%) contradicts it when the context names the value's records;
        so does a figure that equals a claim but with the wrong direction word ("75% more" where 75%
        is how much *less* the other costs); and so does a figure further off when its words name
        the quantity and every record of the value (:meth:`_named_value`).
        """
        best: tuple[tuple[float, ...], Candidate, bool] | None = None
        # Meaning before number: what the figure measures, and what it is about.
        for candidate in self.candidates(figure, quantities, context, aspects):
            if candidate.operands and sentence is not None and not self._covers(candidate, sentence):
                continue
            score = context_score(candidate, context)
            ok = agrees(candidate, figure)
            compatible = fits_direction(candidate, figure)
            number = in_unit(candidate.number, candidate.unit, figure.unit)
            error = abs(number - figure.number) / max(abs(figure.number), 1e-12)
            if ok and figure.qualifier in ("up to", "at most") and error > 0.15:
                continue  # "up to $0.80" is a maximum near that figure, not any value or difference below it
            if ok and compatible:
                if score <= 0 and not everywhere:
                    continue
                key: tuple[float, ...] = (3.0, candidate.op == "value", int(score), -error, score)
            elif ok and not compatible and score > 0 and candidate.op != "value":
                key = (2.0, 0, int(score), -error, score)
            elif not ok and compatible and score > 0 and error <= self._near(figure):
                # (a bound the value breaks, "up to $0.70" for $0.7582, is a near miss too)
                if figure.bare and candidate.op != "value":
                    continue
                key = (1.0, 0, int(score), -error, score)
            else:
                continue
            # Equal keys: the first expression in sorting order, so the result never depends on
            # the order candidates come in (which can follow string hashing).
            if best is None or key > best[0] or (key == best[0] and candidate.expression < best[1].expression):
                best = (key, candidate, ok and compatible)
        if best is None:
            return self._named_value(figure, context, quantities, aspects)
        (rank, *_), candidate, ok = best
        if rank == 2.0:
            return self._wrong_direction(figure, candidate, context)
        role = role_of(candidate, figure)
        if ok and candidate.expression.endswith(":claimed"):
            measured = candidate.expression.removesuffix(":claimed") + ":measured"
            if measured in self.values:
                value = self.values[measured]
                unit, factor = base_unit(value.unit)
                target = self._value(measured, value.number * factor, unit)
                if not agrees(target, figure):
                    expected = expected_text(target, figure)
                    return Match(figure, target, False, expected,
                                 f"{figure.text.strip()} is the claimed figure ({candidate.expression}); "
                                 f"the specifications give {expected}", role_of(target, figure))
        if ok:
            return Match(figure, candidate, True, expected_text(candidate, figure), role=role)
        expected = expected_text(candidate, figure)
        return Match(figure, candidate, False, expected, f"the data gives {expected}", role)

    @staticmethod
    def _near(figure: LiteralFigure) -> float:
        """How far off a near miss may be: 15%, or for a multiple in words ("almost four times" for
        a ratio now 2.9) a half, since its whole number is its precision."""
        return 0.5 if figure.unit == "x" and figure.decimals == 0 else 0.15

    #: How far off a figure may be from the value of the subject and quantity its words name.
    NAMED_SPREAD = 10.0

    def _named_value(self, figure: LiteralFigure, context: set[str], quantities: frozenset[str] | None,
                     aspects: Aspects | None) -> Match | None:
        """A contradiction of a figure further off than a near miss: its words name the quantity
        (``quantities``) and every record of a typed value (the model and the instance), so the data
        holds what the text should say. The nearest such value (several configurations of one subject)."""
        if quantities is None or figure.qualifier or figure.bare or figure.spelled or figure.direction or\
                figure.unit in ("%", "x"):
            return None
        kinds_named = {kind for kind, vocabulary in self._vocabulary.words.items() if vocabulary & context}
        found: list[tuple[float, float, str, Candidate]] = []
        for candidate in self.candidates(figure, quantities, context, aspects, self.NAMED_SPREAD):
            if candidate.op != "value" or not all(all(group & context for group in groups)
                                                  for groups in candidate.records):
                continue
            if kinds_named - {self._vocabulary.kind(group) for group in candidate.records[0]}:
                continue  # "ViT on the G5 costs $0.74 per hour": a model's figure, not the instance's price
            number = in_unit(candidate.number, candidate.unit, figure.unit)
            error = abs(number - figure.number) / max(abs(figure.number), 1e-12)
            found.append((-context_score(candidate, context), error, candidate.expression, candidate))
        if not found:
            return None
        # The subjects named most precisely ("trn1.32xlarge" rather than every trn1); among their
        # values (several configurations) the nearest; several such subjects: none is meant.
        top = min(found)[0]
        found = [f for f in found if f[0] == top]
        if len({f[3].records[0] for f in found}) > 1:
            return None
        candidate = min(found, key=lambda f: f[1:3])[3]
        expected = expected_text(candidate, figure)
        return Match(figure, candidate, False, expected, f"the data gives {expected}", role_of(candidate, figure))

    def _wrong_direction(self, figure: LiteralFigure, candidate: Candidate, context: set[str]) -> Match:
        said = expected_text(candidate, figure)
        if candidate.op == "diff":
            # A difference written as an absolute figure ("costing $0.13"): the figure meant is
            # the operand the context names best.
            operand = max(candidate.operands, key=lambda p: (path_score(self._records(p), context), p))
            unit, factor = base_unit(self.values[operand].unit)
            target = self._value(operand, self.values[operand].number * factor, unit)
            expected = expected_text(target, figure)
            reason = (f"{figure.text.strip()} is {candidate.expression} (a difference), written as an absolute "
                      f"figure; {operand} is {expected}")
            return Match(figure, target, False, expected, reason, role_of(target, figure))
        counterpart = next((c for c in self._entries.get("%", [])
                            if isinstance(c, Candidate) and c.expression == candidate.counterpart),
                           None) if candidate.counterpart else None
        if counterpart is None:
            return Match(figure, candidate, False, said, f"{said} is {candidate.expression}, not what the text says",
                         role_of(candidate, figure))
        expected = expected_text(counterpart, figure)
        word = "more" if counterpart.op == "pct_more" else "less"
        reason = (f"{said} is {candidate.expression}; {word} is {counterpart.expression} = {expected}")
        return Match(figure, counterpart, False, expected, reason, role_of(counterpart, figure))
