"""Figures quoted for a named Neuron release, read against the benchmark history (no Sphinx).

A sentence that names a release ("ALBERT on inf2.xlarge reached 2,437 inferences/s on Neuron 2.9")
quotes that release's figure, which the current tables may have replaced. :func:`release_named`
reads the release (canonical, ``2.9`` -> ``2.9.0``); :class:`ObservationsByRelease` holds every published
observation of ``data/benchmarks/history/`` by release and finds those the figure's words name:
the model and the instance of the configuration (an instance type written in full must be the
configuration's own), the quantity, percentile and batch size the words give. A figure equal to one
of them, at the text's rounding, is right for that release (an older figure, not a contradiction);
a figure that matches none of that release's figures for the subject (or one published and then
corrected under that release) contradicts the nearest of them. A release the history does not hold for the subject says nothing: the figure is checked
against the current data as any other. The index is made the first time a sentence names a release.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..data.figures.formatting import format_number
from ..data.records.history import canonical_version, version_key
from ..data.records.labels import FIELD_WORDS
from .aspects import Aspects, same_percentile
from .keywords import tokens
from .literal_figures import LiteralFigure
from .quantities import base_unit, of_path
from .verdicts import Candidate, agrees, in_unit, normal_unit

if TYPE_CHECKING:
    from ..data.catalog import Catalog
    from ..data.records import history as hs

#: A Neuron release named in prose: "Neuron 2.9", "Neuron SDK 2.18.0", "Neuron release 2.10",
#: "release 2.9" (a bare "2.9" is a figure or a version of anything else).
_RELEASE = re.compile(r"\bNeuron(?:\s+SDK)?(?:\s+(?:release|version))?\s+v?(\d+\.\d+(?:\.\d+)?)(?!\w|\.\d)"
                      r"|\b(?:release|version)\s+v?(\d+\.\d+(?:\.\d+)?)(?!\w|\.\d)", re.IGNORECASE)
#: An instance type written in full ("inf2.xlarge", "trn1.32xlarge").
_INSTANCE_TYPE = re.compile(r"[a-z]+\d+[a-z]*\.\d*x?large")
#: Words of a model name too weak to name it alone ("v2" of "albert-base-v2", "NeuronCore-v2").
_WEAK = re.compile(r"v\d+")
#: How far off a figure may be from the release's figure it contradicts (beyond: it is not meant).
NEAR = 0.5


def release_named(text: str, at: int) -> str | None:
    """The release ``text`` names nearest offset ``at`` (canonical), if any."""
    found = [(abs(m.start() - at), m.group(1) or m.group(2)) for m in _RELEASE.finditer(text)]
    return canonical_version(min(found)[1]) if found else None


@dataclass(frozen=True)
class Quoted:
    """A figure matched with one release's observation of a configuration."""

    observation: hs.BenchmarkObservation
    configuration: hs.BenchmarkConfiguration
    agrees: bool
    #: The observation's figure as published, in its unit.
    expected: str
    #: What the history says of it: the configuration, when it was published and what followed.
    reason: str

    @property
    def expression(self) -> str:
        return f"history:{self.observation.id}"


@dataclass(frozen=True)
class _Entry:
    observation: hs.BenchmarkObservation
    configuration: hs.BenchmarkConfiguration
    unit: str
    number: float
    quantity: str
    model: frozenset[str]
    instances: frozenset[str]
    families: frozenset[str]


class ObservationsByRelease:
    """Every observation of the benchmark history, by release, with the words naming its configuration."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._by_release: dict[str, list[_Entry]] = defaultdict(list)
        self._latest: dict[tuple[str, str], hs.BenchmarkObservation] = {}
        configurations = catalog.benchmark_configurations
        named: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {}  # per configuration
        for obs in catalog.benchmark_observations.values():
            config = configurations.get(obs.configuration)
            words = FIELD_WORDS.get(obs.metric)
            if config is None or words is None or not words.unit:
                continue
            if config.id not in named:  # its model's words, its instances, their families and kinds
                instances = tuple(i for i in (config.instances or config.instance or "").split(";") if i)
                families = frozenset(f for i in instances if (f := getattr(catalog.instances.get(i), "family", None)))
                named[config.id] = (tokens(config.model), frozenset(instances),
                                    families | frozenset(i.split(".")[0] for i in instances))
            unit, factor = base_unit(words.unit)
            self._by_release[obs.neuron_version].append(_Entry(
                obs, config, unit, float(obs.value) * factor, of_path(f"history:{obs.id}:{obs.metric}", words.label),
                *named[config.id]))
            key = (obs.configuration, obs.metric)
            held = self._latest.get(key)
            if obs.status != "corrected" and (held is None or version_key(obs.neuron_version)
                                              >= version_key(held.neuron_version)):
                self._latest[key] = obs

    def match(self, figure: LiteralFigure, context: set[str], release: str, *, quantities: frozenset[str] | None = None,
              aspects: Aspects | None = None) -> Quoted | None:
        """The observation of ``release`` that ``figure`` quotes, or contradicts, given the words of its
        ``context``; None when the history holds no figure of that release for the subject named."""
        entries = self._subject(self._by_release.get(release, []), context)
        unit = normal_unit(figure.unit)
        entries = [e for e in entries if e.unit == unit and (quantities is None or e.quantity in quantities)
                   and (aspects is None or (same_percentile(aspects.percentile, f"history:{e.observation.id}:"
                                                                                  f"{e.observation.metric}")
                                            and aspects.batch in (None, e.configuration.batch_size)))]
        if not entries:
            return None
        # A figure published and then corrected under the same release is that release's figure no more.
        for entry in entries:
            if entry.observation.status == "corrected" and agrees(
                    Candidate(entry.observation.id, entry.number, entry.unit), figure):
                fixed = next((e for e in entries if e.configuration.id == entry.configuration.id
                              and e.observation.metric == entry.observation.metric
                              and e.observation.status != "corrected"), None)
                if fixed is not None:
                    quoted = self._quoted(fixed, False, release)
                    return replace(quoted, reason=f"{quoted.reason} ({figure.text.strip()} was published "
                                                  f"{entry.observation.first_published.isoformat()} and corrected)")
        entries = [e for e in entries if e.observation.status != "corrected"]
        if not entries:
            return None
        scored = []
        for entry in entries:
            candidate = Candidate(f"history:{entry.observation.id}", entry.number, entry.unit)
            error = abs(in_unit(entry.number, entry.unit, figure.unit) - figure.number) / max(abs(figure.number), 1e-12)
            scored.append((not agrees(candidate, figure), error, entry.observation.id, entry))
        ok, error, _, entry = min(scored)
        if ok and error > NEAR:
            return None
        quoted = self._quoted(entry, not ok, release)
        if ok:  # a figure of another release of the subject, given to this one
            other = self._release_of(figure, context, release, entries)
            if other:
                quoted = replace(quoted, reason=f"{quoted.reason} ({figure.text.strip()} is Neuron {other}'s figure)")
        return quoted

    def _release_of(self, figure: LiteralFigure, context: set[str], release: str, entries: list[_Entry]) -> str | None:
        """The first other release whose figure of the same metric and subject ``figure`` agrees with."""
        metrics = {e.observation.metric for e in entries}
        for other in sorted(self._by_release, key=version_key):
            if other == release:
                continue
            for entry in self._subject(self._by_release[other], context):
                if entry.observation.metric in metrics and agrees(
                        Candidate(entry.observation.id, entry.number, entry.unit), figure):
                    return other
        return None

    def _subject(self, entries: list[_Entry], context: set[str]) -> list[_Entry]:
        """The entries whose model and instance the context names, those naming the model best."""
        named_types = {w for w in context if _INSTANCE_TYPE.fullmatch(w)}
        found: list[tuple[int, _Entry]] = []
        for entry in entries:
            model = entry.model & context
            if not {w for w in model if not _WEAK.fullmatch(w)}:
                continue
            if named_types and not named_types & entry.instances:
                continue
            if not named_types and not entry.families & context:
                continue
            found.append((len(model), entry))
        best = max((n for n, _ in found), default=0)
        return [e for n, e in found if n == best]

    def _quoted(self, entry: _Entry, agrees_: bool, release: str) -> Quoted:
        obs, config = entry.observation, entry.configuration
        unit = FIELD_WORDS[obs.metric].unit
        expected = format_number(float(obs.value), unit)
        subject = f"{config.model} on {config.instance or config.instances}" + (
            f", batch size {config.batch_size}" if config.batch_size else "")
        latest = self._latest.get((obs.configuration, obs.metric))
        later = latest is not None and version_key(latest.neuron_version) > version_key(obs.neuron_version)
        if later and latest is not None:
            after = (f"Neuron {latest.neuron_version} gives {format_number(float(latest.value), unit)}, "
                     f"published {latest.first_published.isoformat()}")
        elif config.withdrawn is not None:
            after = f"the configuration was withdrawn on {config.withdrawn.isoformat()}"
        else:
            after = "still published"
        older = "an older release's figure" if later or config.withdrawn is not None else "the current figure"
        label = FIELD_WORDS[obs.metric].label.lower()
        if agrees_:
            reason = (f"right for Neuron {release} ({older}): the {label} of {subject}, published "
                      f"{obs.first_published.isoformat()}; {after}")
        else:
            reason = f"Neuron {release} gives {expected} for the {label} of {subject}; {after}"
        return Quoted(obs, config, agrees_, expected, reason)
