"""The drift engine: figures and fit/support claims of a passage checked against the data (no Sphinx).

One engine serves the build's checker (:mod:`neuron_docs.checks.drift`, over doctree blocks) and
``make audit`` (:mod:`.audit`, over a file's text): both hand it a passage's text, the heading
above it and the spans that are prose written by hand, and get the same :class:`Verdict` list.

- :mod:`.literal_figures` finds the literal figures of a text (a number with its unit, the
  qualifier before it and the direction after it);
- :mod:`.passages` splits sentences and gives the words around an offset;
- :mod:`.figure_index` holds every value of the data set and the claims derived from them, and
  says what a figure duplicates or contradicts (:mod:`.verdicts` judges one candidate);
- :mod:`.history` reads a figure its sentence gives to a Neuron release against the benchmark
  history (right for that release, or contradicting it);
- :mod:`.fit_claims` checks fit/support phrases against the latest revision of the support matrices;
- :mod:`.comparatives` checks comparative words against the figures they compare (a role's output too).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property

from ..data.catalog import Catalog
from ..data.records.labels import CLAIM_WORDS
from ..data.figures.shown import figure, shown
from ..data.figures.values import Value
from .aspects import Aspects, batch_of_text, options_of_text, percentile_of_text, subjects_named, unknown_subject
from .comparatives import comparisons
from .figure_index import FigureIndex
from .fit_claims import ClaimIndex
from .history import ObservationsByRelease, release_named
from .literal_figures import LiteralFigure, find_figures
from .keywords import tokens
from .passages import clause_of, context_words, sentences, words
from .quantities import of_figure
from .tables import TextCell, check_table
from .verdicts import Verdict, normal_unit

#: A figure said to be per chip ("190 TFLOPS per chip", "each chip", "GB/sec/chip").
PER_CHIP = re.compile(r"\bper\s+(?:chip|device|accelerator)\b|\beach\s+(?:chip|device)\b|/(?:chip|device)\b",
                      re.IGNORECASE)
#: A chip named as one ("a Trainium chip delivers", "Inf2 chips deliver", "one Inferentia2 chip"): a figure
#: of its clause is the chip's, unless a count comes before it ("16 Trainium2 chips deliver": the instance's).
ONE_CHIP = re.compile(r"(?<![\d,])(?<!\d\s)\b(?:(?:a|an|one|each|every|single)\s+)?(?P<name>[A-Za-z][\w-]*)\s+chips?\b",
                      re.IGNORECASE)
_COUNTING = re.compile(r"(?:\d|\b(?:two|three|four|five|six|eight|twelve|sixteen|all|of|the)\b)\s*$", re.IGNORECASE)


def said_per_chip(text: str, start: int, end: int) -> bool:
    """Whether the clause ``text[start:end]`` gives its figure to one chip: "per chip", "each chip",
    "GB/sec/chip", or a chip named by a device or instance family ("a Trainium chip", "Inf2 chips
    deliver") that no count precedes ("16 Trainium2 chips": a total over them)."""
    if PER_CHIP.search(text, start, end):
        return True
    for match in ONE_CHIP.finditer(text, start, end):
        name = match.group("name").lower()
        if not re.fullmatch(r"(?:trainium|inferentia)\d*|(?:trn|inf)\d[a-z]?", name):
            continue
        if match.group(0).lower().startswith(("a ", "an ", "one ", "each ", "every ", "single ")) or\
                not _COUNTING.search(text[max(start, match.start() - 12):match.start()]):
            return True
    return False


#: Words after which a clause names what it compares with, not its subject.
_BASELINE = re.compile(r"\b(?:than|against|vs\.?|versus|compared\s+(?:with|to)|relative\s+to|over|from)\b",
                       re.IGNORECASE)
#: Words of a comparative (:mod:`.comparatives`), and the direction words a negative difference is
#: written with ("-$0.11 less", "a -$0.11 drop": :mod:`.literal_figures`' ``_UP`` and ``_DOWN``).
COMPARATIVE_TRIGGER = re.compile(r"more|less|cheaper|lower|fewer|smaller|expensive|costlier|higher|greater|larger|"
                                 r"faster|slower|better|worse|increase|decrease|drop|over|above|ahead|behind",
                                 re.IGNORECASE)
#: Words of a fit or support claim ("a good fit", "Supported", "supports"), any case.
CLAIM_TRIGGER = re.compile(r"fit|support", re.IGNORECASE)


def claim_path(role: str) -> str:
    """The data path of a fit or status role: ``:neuron:fit:`decoder/inferentia``` -> ``fit:decoder/inferentia``."""
    match = re.fullmatch(r":neuron:(\w+):`([^`]*)`", role)
    return f"{match.group(1)}:{match.group(2)}" if match else role


class DriftEngine:
    """The figure and claim indexes of one data set, and the check of one passage against them.

    Making the engine costs nothing: each index is made the first time a passage needs it (a build
    whose pages hold no figure in prose never makes the figure index), then kept for the build.
    """

    def __init__(self, catalog: Catalog, values: Mapping[str, Value]) -> None:
        self.catalog = catalog
        self.values = values

    @cached_property
    def figures(self) -> FigureIndex:
        """Every figure of the data, made when the first figure found in prose is matched."""
        return FigureIndex(self.values, self.catalog)

    @cached_property
    def history(self) -> ObservationsByRelease:
        """The benchmark history by release, made when a sentence first gives a figure to a release."""
        return ObservationsByRelease(self.catalog)

    @cached_property
    def claims(self) -> ClaimIndex:
        """The names of families, devices and frameworks, made when the first claim is looked for."""
        return ClaimIndex(self.catalog)

    def shown_value(self, body: str) -> str | None:
        """What a ``:neuron:value:`` role with ``body`` prints (as the build does); ``None`` when it
        cannot be computed (the build shows a problem there)."""
        try:
            if body.startswith("compare:"):  # a ``:neuron:compare:`` role's words
                return shown("compare", self.catalog, self.values, body.removeprefix("compare:")).text  # type: ignore[arg-type]
            return figure(self.catalog, self.values, body).text  # type: ignore[arg-type]
        except ValueError:
            return None

    @staticmethod
    def worth_checking(text: str) -> tuple[bool, bool]:
        """Whether ``text`` may hold a figure (a digit) and a fit/support claim (its words)."""
        return any(ch.isdigit() for ch in text), CLAIM_TRIGGER.search(text) is not None

    @staticmethod
    def figures_in(text: str, allowed: Sequence[tuple[int, int]], *, bare: bool = False) -> list[LiteralFigure]:
        """The literal figures of ``text`` inside the ``allowed`` spans (finding them needs no data)."""
        return [f for f in find_figures(text, loose=bare) if any(a <= f.start and f.end <= b for a, b in allowed)]

    def check(self, text: str, heading: str = "", allowed: Sequence[tuple[int, int]] | None = None, *,
              bare: bool = False,
              figures: list[LiteralFigure] | None = None) -> list[Verdict]:
        """Every figure and claim of ``text`` (within the ``allowed`` spans) that the data holds.

        ``bare`` also looks at bare decimal numbers (no unit), which the audit may ask for;
        ``figures`` are those of :meth:`figures_in` when the caller has found them already.
        """
        spans = list(allowed) if allowed is not None else [(0, len(text))]
        if figures is None:
            figures = self.figures_in(text, spans, bare=bare)
        out: list[Verdict] = []
        if figures:
            sentence_spans = sentences(text)
            for figure in figures:
                s_start, s_end = next(((a, b) for a, b in sentence_spans if a <= figure.start <= b),
                                      sentence_spans[-1])
                clause = clause_of(text, s_start, s_end, figure.start)
                # The words inside the figure first ("2,563 FP8/FP16 sparse TFLOPS": the most specific).
                quantities = of_figure(normal_unit(figure.unit), 0, (0, 0), "", 0, figure.text) or of_figure(
                    normal_unit(figure.unit), figure.start, clause, text[s_start:s_end], s_start, heading)
                scopes = ((text[clause[0]:clause[1]], figure.start - clause[0]),
                          (text[s_start:s_end], figure.start - s_start), (heading, 0))
                missing = self._unknown_subject(scopes)
                if missing:
                    out.append(Verdict(figure.start, figure.text.replace("\n", " "), "unknown", "", "", False,
                                       f"no {missing} in the data", ""))
                    continue
                # Meaning before number: the percentile and configuration the words name.
                percentile = next((p for p in (percentile_of_text(t, at) for t, at in scopes) if p), None)
                batch = next((b for b in (batch_of_text(t) for t, _ in scopes[:2]) if b is not None), None)
                options = next((o for o in (options_of_text(t) for t, _ in scopes[:2]) if o), frozenset())
                aspects = Aspects(percentile, batch, options)
                context = self._nearest_subjects(context_words(text, figure.start, heading, sentence_spans),
                                                 text[clause[0]:clause[1]])
                if said_per_chip(text, clause[0], clause[1]) or PER_CHIP.search(figure.text):
                    context = self._per_chip(context)
                match = self.figures.match(figure, context, quantities=quantities, aspects=aspects,
                                           sentence=words(text[s_start:s_end]))
                # A figure its sentence gives to a Neuron release, unless it is the current data's:
                # right for that release (an older figure), or contradicting it.
                release = release_named(text[s_start:s_end], figure.start - s_start)
                if release is not None and not (match is not None and match.agrees) and self.catalog.benchmark_observations:
                    quoted = self.history.match(figure, context, release, quantities=quantities, aspects=aspects)
                    if quoted is not None:
                        out.append(Verdict(figure.start, figure.text.replace("\n", " "), "history",
                                           quoted.expression, quoted.expected, quoted.agrees, quoted.reason, ""))
                        continue
                if match is not None and match.quoted:  # another source's value (drift/sources.py)
                    out.append(Verdict(figure.start, figure.text.replace("\n", " "), "source",
                                       match.candidate.expression, match.expected, True, match.reason, match.role))
                elif match is not None:
                    out.append(Verdict(figure.start, figure.text.replace("\n", " "), "figure",
                                       match.candidate.expression, match.expected, match.agrees, match.reason,
                                       match.role))
        if COMPARATIVE_TRIGGER.search(text) and (any(ch.isdigit() for ch in text) or figures):  # "twelve chips"
            out.extend(comparisons(text, sentences(text), find_figures(text), spans))
        if CLAIM_TRIGGER.search(text):
            for claim in self.claims.claims(text, spans):
                truth = CLAIM_WORDS[claim.truth]
                family = self.catalog.families[claim.family].name
                latest = self.catalog.revision()
                reason = "" if claim.agrees else (f"{family} on {claim.device} is {truth} (support matrices "
                                                  f"of {latest.name if latest else '?'}, the latest revision)")
                out.append(Verdict(claim.start, claim.text, "claim", claim_path(claim.role), truth, claim.agrees,
                                   reason, claim.role))
        return sorted(out, key=lambda v: v.start)

    def _nearest_subjects(self, context: set[str], clause: str) -> set[str]:
        """The context of a figure whose own clause names a model or a platform: the subjects of that
        kind named elsewhere (the sentence before, another clause) are not its subject ("ViT reached
        76.9% on Inf1, while ResNet50 achieved 77.5% on g5.xlarge": each figure is its clause's)."""
        # What the clause compares with ("40% higher than of P4d") is a baseline, not its subject.
        subject = _BASELINE.split(clause, maxsplit=1)[0]
        own, kept = words(subject), words(clause)
        out = set(context)
        for kind in ("model", "platform"):
            vocabulary = self.figures.subject_words(kind)
            if own & vocabulary:
                out -= vocabulary - kept
        return out

    @cached_property
    def _instance_devices(self) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        """Instance id -> (the words naming the instance, those naming its device)."""
        out = {}
        for instance in self.catalog.instances.values():
            device = self.catalog.devices.get(instance.device)
            out[instance.id] = (tokens(instance.id, instance.family),
                                tokens(instance.device, device.name if device else ""))
        return out

    def _per_chip(self, context: set[str]) -> set[str]:
        """The context of a figure said to be per chip: the instances it names stand for their device
        ("a trn1.32xlarge ... 190 TFLOPS per chip" is Trainium's figure, not the instance's), and for
        themselves only where they hold a per-chip figure of their own (trn2.48xlarge's intra-instance
        NeuronLink bandwidth per chip): never for a total over their chips."""
        out = set(context)
        # An instance family stands for its device ("Inf2 chips": Inferentia2's).
        for family, device_words in self._family_devices.items():
            if family in out:
                out = (out - {family}) | device_words
        for instance_id in context & self._instance_devices.keys():
            own, device = self._instance_devices[instance_id]
            out = (out if instance_id in self._per_chip_instances else out - own) | device
        return out

    @cached_property
    def _family_devices(self) -> dict[str, frozenset[str]]:
        """Instance family ("inf2") -> the words naming its device, when all its instances share one."""
        devices: dict[str, set[str]] = {}
        for instance in self.catalog.instances.values():
            devices.setdefault(instance.family.lower(), set()).add(instance.device)
        out = {}
        for family, ids in devices.items():
            if len(ids) == 1:
                device = self.catalog.devices.get(next(iter(ids)))
                out[family] = tokens(device.id, device.name) if device else frozenset()
        return out

    @cached_property
    def _per_chip_instances(self) -> frozenset[str]:
        """The instances with a specification of their own given per chip (its label says so)."""
        return frozenset(i.id for i in self.catalog.instances.values()
                         if any(PER_CHIP.search(q.label) for q in i.specs.values()))

    def _unknown_subject(self, scopes: Sequence[tuple[str, int]]) -> str | None:
        """The device, instance or instance family the nearest words of a figure name (its clause, else
        its sentence, else its heading) when the data holds no such subject."""
        known = self.figures.platform_words
        for text, at in scopes:
            if subjects_named(text):
                return unknown_subject(text, at, known)
        return None

    def check_table(self, rows: Sequence[Sequence[TextCell]], header_rows: int, heading: str = ""
                    ) -> list[tuple[int, int, Verdict]]:
        """Every figure and matrix badge of a table that the data holds, as (row, column, verdict)."""
        return check_table(self.check, self.claims, rows, header_rows, heading)
