"""How a figure's series across Neuron releases is judged, as benchmark engineers judge it: one rule
(:data:`RULE`), stated once (:func:`rule_text`, rendered on the history's index page) and applied to
every configuration's throughput, latencies and cost per 1M (where its price is fixed).

The series (one figure per release, corrections applied, oldest first) is read on a log scale, so a
step is a ratio whatever the unit:

1. **Unstable.** A series in which two consecutive releases are each a one-release excursion from their
   neighbours (up, down, up: it halves and doubles) swings; from the first swing on its releases are
   *unstable*, and its spread (lowest and highest figure) is given instead of a change.
2. **Suspect points.** A release whose figure leaves its neighbours' level by more than the threshold
   and comes back in the next release (the neighbours differ by less than :attr:`JudgementRule.returns`
   of the smaller move) is a *suspect point*, not two changes; the largest excursion first, then again
   without it. It neither ends nor starts a level (the advisor's "holds since").
3. **Steps.** On the other releases, ruptures' PELT (Killick, Fearnhead and Eckley 2012; l2 cost, every
   segment at least one release long) finds the levels, with the penalty of a step of the threshold
   between two releases. The noise is estimated from the series: 1.4826 x the median absolute deviation
   of the figures from their level (at least :attr:`JudgementRule.min_noise`). A step between two levels
   beyond both the threshold and :attr:`JudgementRule.noise_factor` times the noise is an improvement or
   a regression in the metric's own direction (a latency or a cost improves when it falls); smaller
   steps are merged into one level (smallest first). A release that starts a level is *improved* or
   *regressed* against the level before it; the others are *steady*. The newest release, departing
   alone, is a step until a later release returns (then it becomes a suspect point).

No Sphinx here; ruptures is imported on first use (it brings scipy).
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: The kinds of judgement a release's figure gets (``first``: the series' first release, nothing to judge).
KINDS = ("first", "steady", "improved", "regressed", "suspect", "unstable")


@dataclass(frozen=True)
class JudgementRule:
    """The rule's parameters (one set, :data:`RULE`)."""

    #: A step counts beyond this fraction of the level before it.
    threshold: float = 0.10
    #: ... and beyond this many times the series' noise.
    noise_factor: float = 3.0
    #: The noise is taken as at least this fraction (a series of equal figures has none).
    min_noise: float = 0.01
    #: An excursion returns when its neighbours differ by less than this share of its smaller move.
    returns: float = 0.5


#: The one rule every page, What's new, ``make matrix-diff`` and the preview apply.
RULE = JudgementRule()


@dataclass(frozen=True)
class Point:
    """One release's figure and its judgement."""

    version: str
    value: float
    kind: str
    #: The level it is judged against (the level before it for a step, its own level when steady), and
    #: the releases that level is the median of; None for the first release and an unstable one.
    level: float | None = None
    level_versions: tuple[str, ...] = ()

    @property
    def ratio(self) -> float | None:
        """The figure against its level (+0.031: 3.1% higher)."""
        if self.level is None or self.level == 0:
            return None
        return self.value / self.level - 1.0


@dataclass(frozen=True)
class SeriesJudgement:
    """A series judged: one :class:`Point` per release (oldest first), its noise and, when it swings,
    its spread."""

    points: tuple[Point, ...]
    #: The noise estimated from the series, as a fraction of its level.
    noise: float
    #: (lowest, highest) figure from the first swing on; None unless the series is unstable.
    spread: tuple[float, float] | None = None

    def of(self, version: str) -> Point | None:
        return next((p for p in self.points if p.version == version), None)

    @property
    def unstable(self) -> bool:
        return self.spread is not None

    def holds_since(self) -> str | None:
        """The release the latest level starts with (a suspect point neither ends nor starts one); None
        when the series is unstable at its end or empty."""
        since = None
        for p in self.points:
            if p.kind in ("first", "improved", "regressed"):
                since = p.version
            elif p.kind == "unstable":
                since = None
        return since


def judge(series: Sequence[tuple[str, float]], lower_is_better: bool, rule: JudgementRule = RULE) -> SeriesJudgement:
    """The series ``(version, figure)``, oldest first, judged by ``rule``.

    A judgement is a function of its arguments alone and immutable, so it is made once per process
    for each series (every build judges every configuration's series, the advisor and the history's
    CSV ask again for theirs; change-point detection is a build's costliest computation per figure).
    """
    return _judged(tuple((version, float(x)) for version, x in series), lower_is_better, rule)


@functools.lru_cache(maxsize=1 << 16)
def _judged(series: tuple[tuple[str, float], ...], lower_is_better: bool, rule: JudgementRule) -> SeriesJudgement:
    versions = [v for v, _ in series]
    values = [x for _, x in series]
    if not values:
        return SeriesJudgement((), rule.min_noise)
    y = [math.log(max(x, 1e-12)) for x in values]
    limit = math.log1p(rule.threshold)
    swing = _first_swing(y, list(range(len(y))), limit, rule)
    if swing is not None:
        steady = judge(series[:swing], lower_is_better, rule) if swing else SeriesJudgement((), rule.min_noise)
        rest = tuple(Point(v, x, "unstable") for v, x in zip(versions[swing:], values[swing:], strict=True))
        run = values[max(swing - 1, 0):]
        return SeriesJudgement(steady.points + rest, steady.noise, (min(run), max(run)))
    active = list(range(len(y)))
    suspects: list[int] = []
    while found := _excursions(y, active, limit, rule):
        worst = max(found, key=lambda j: min(abs(y[active[j]] - y[active[j - 1]]), abs(y[active[j + 1]] - y[active[j]])))
        suspects.append(active.pop(worst))
    segments, noise = _levels(y, active, limit, rule)
    kinds: dict[int, Point] = {}
    level_of: dict[int, tuple[float, tuple[str, ...]]] = {}
    previous: tuple[float, tuple[str, ...]] | None = None
    for s, segment in enumerate(segments):
        level = (statistics.median(values[i] for i in segment), tuple(versions[i] for i in segment))
        for k, i in enumerate(segment):
            level_of[i] = level
            if i == 0:
                kinds[i] = Point(versions[i], values[i], "first")
            elif k == 0 and s > 0 and previous is not None:
                better = (level[0] < previous[0]) == lower_is_better
                kinds[i] = Point(versions[i], values[i], "improved" if better else "regressed", *previous)
            else:
                kinds[i] = Point(versions[i], values[i], "steady", *level)
        previous = level
    for i in suspects:
        before = max((a for a in active if a < i), default=None)
        around = level_of.get(before) if before is not None else None
        kinds[i] = Point(versions[i], values[i], "suspect", *(around or (None, ())))
    return SeriesJudgement(tuple(kinds[i] for i in range(len(y))), noise)


def _excursions(y: list[float], active: list[int], limit: float, rule: JudgementRule) -> list[int]:
    """Positions in ``active`` (never its ends) of one-release excursions: out beyond the threshold and back."""
    out = []
    for j in range(1, len(active) - 1):
        a, b, c = (y[active[j - 1]], y[active[j]], y[active[j + 1]])
        into, back = b - a, c - b
        smaller = min(abs(into), abs(back))
        if (into * back < 0 and _beyond(into, rule.threshold) and _beyond(back, rule.threshold)
                and abs(c - a) < rule.returns * smaller):
            out.append(j)
    return out


def _first_swing(y: list[float], active: list[int], limit: float, rule: JudgementRule) -> int | None:
    """The first of two consecutive excursions (the series swings from there), or None."""
    found = _excursions(y, active, limit, rule)
    pairs = [j for j in found if j + 1 in found]
    return active[pairs[0]] if pairs else None


def _beyond(step: float, threshold: float) -> bool:
    """Whether a step (log scale) changes the figure by more than ``threshold`` of the figure before it
    (a fall of 10% is a larger step on the log scale than a rise of 10%)."""
    return abs(math.expm1(step)) > threshold


def _levels(y: list[float], active: list[int], limit: float, rule: JudgementRule) -> tuple[list[list[int]], float]:
    """The active releases in levels (PELT, then steps within the threshold or the noise merged) and the noise."""
    if len(active) < 2:
        return ([active] if active else []), rule.min_noise
    import numpy as np
    from ruptures import Pelt  # scipy comes with it: imported when a series is first judged

    signal = np.array([y[i] for i in active]).reshape(-1, 1)
    # The penalty of one step of the threshold between two single releases (l2 cost: d^2 / 2).
    ends = Pelt(model="l2", min_size=1, jump=1).fit(signal).predict(pen=limit * limit / 2)
    cuts = [0, *ends[:-1], len(active)]
    segments = [active[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]
    while True:
        noise = _noise(y, segments, rule)
        levels = [math.log(statistics.median(math.exp(y[i]) for i in s)) for s in segments]
        small = []
        for k in range(1, len(segments)):
            step, first = levels[k] - levels[k - 1], y[segments[k][0]] - levels[k - 1]
            # a step: its levels and its first release's figure beyond the threshold, the same way, and
            # the levels beyond the noise
            if not (_beyond(step, rule.threshold) and _beyond(first, rule.threshold) and step * first > 0
                    and abs(step) > rule.noise_factor * noise):
                small.append((abs(step), k))
        if not small:
            return segments, noise
        _, k = min(small)
        segments[k - 1:k + 1] = [segments[k - 1] + segments[k]]


def _noise(y: list[float], segments: list[list[int]], rule: JudgementRule) -> float:
    """1.4826 x the median absolute deviation of the figures from their level's median (log scale)."""
    residuals = []
    for segment in segments:
        middle = statistics.median(y[i] for i in segment)
        residuals += [abs(y[i] - middle) for i in segment if len(segment) > 1]
    mad = statistics.median(residuals) if residuals else 0.0
    return max(math.log1p(rule.min_noise), 1.4826 * mad)


def rule_text(rule: JudgementRule = RULE) -> list[str]:
    """The rule in words, one sentence a line, with its parameters (the history's index page prints it)."""
    pct = f"{rule.threshold:.0%}"
    return [
        "Each configuration's throughput, latencies and cost per 1M (at one price) are judged across Neuron "
        "releases as one series, on a log scale, with the figure as last published for each release.",
        f"Unstable: when two consecutive releases each leave their neighbours by more than {pct} and come "
        "back, the series swings; from there on its releases are unstable and its lowest and highest "
        "figures are given, not a change.",
        f"Suspect point: a release whose figure moves more than {pct} from the release before and comes "
        f"back in the next release (the two neighbours differ by less than {rule.returns:.0%} of the "
        "smaller move) is marked suspect, not counted as two changes; it neither ends nor starts a level.",
        "Levels: the other releases are cut into levels by change-point detection (ruptures' PELT, "
        "Killick et al. 2012, l2 cost; the penalty of one step of "
        f"{pct} between two releases). The noise is estimated from the series: 1.4826 times the median "
        f"absolute deviation of its figures from their level, at least {rule.min_noise:.0%}.",
        f"Improved or regressed: a release that starts a level beyond both {pct} and {rule.noise_factor:g} "
        "times the noise from the level before it; smaller steps are merged. Throughput improves when it "
        "rises, a latency or a cost when it falls. Other releases are steady. The newest release, alone "
        "at a new level, counts as a step until a later release returns.",
        "Corrections (a figure republished under the same release) are listed as corrections.",
    ]
