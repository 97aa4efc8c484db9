"""What a figure's words pin down besides its quantity: the percentile, and subjects the data lacks (no Sphinx).

A latency figure said to be a "P99" or "90th percentile" one is only compared with values of that
percentile (a P50 equal by chance never confirms it): :func:`percentile_of_text` reads it from the
words nearest the figure, :func:`percentile_of_path` from a data path's field (``latency_p50_ms``,
``p90_latency_ms``). A run's configuration is part of its subject: a figure whose words name a batch size or a compiler
option (:func:`batch_of_text`, :func:`options_of_text`) is compared only with runs of it. A figure
whose words name a device, an instance or an instance family that the
data does not hold ("Trainium2", "trn2.48xlarge", "Trn2", "H100") is about a subject the data cannot
speak for: :func:`unknown_subject` names it, so that the figure is reported as such rather than
matched with the nearest record of another subject.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from .passages import words

_PERCENTILE_TEXT = re.compile(r"\bp(50|90|95|99|100)\b|\b(50|90|95|99)(?:th)?[-\s]+percentile\b|\b(median)\b",
                              re.IGNORECASE)
_PERCENTILE_FIELD = re.compile(r"(?:^|_)p(50|90|95|99|100)(?:_|$)")
#: Names of devices, instance types and instance families as people write them.
_SUBJECT = re.compile(
    r"\b(?:[a-z]{1,4}\d[a-z]*\.(?:\d{0,2}x)?large"          # inf1.2xlarge, trn2u.48xlarge
    r"|(?:inf|trn)\d[a-z]?\s+ultra[-\s]?(?:server|cluster)s?"  # Trn2 UltraServer: several instances
    r"|(?:trainium|inferentia)\d*"                            # Trainium2, Inferentia
    r"|(?:inf|trn)\d[a-z]?"                                   # Inf2, Trn2, trn1n
    r"|neuroncore-?v\d"                                       # NeuronCore-v3
    r"|[ahvl]\d{2,3}[gs]?)\b",                                # A100, H100, A10G, L40S
    re.IGNORECASE)


def percentile_of_text(text: str, at: int) -> str | None:
    """The percentile ("50", "90", ...) the words of ``text`` nearest offset ``at`` name, if any."""
    found = [(abs(m.start() - at), next(g for g in m.groups() if g)) for m in _PERCENTILE_TEXT.finditer(text)]
    if not found:
        return None
    word = min(found)[1].lower()
    return "50" if word == "median" else word


def percentile_of_path(path: str) -> str | None:
    """The percentile a data path's field measures (``prun:x:latency_p99_ms`` -> "99"), if any."""
    match = _PERCENTILE_FIELD.search(path.rpartition(":")[2])
    return match.group(1) if match else None


def same_percentile(wanted: str | None, path: str) -> bool:
    """Whether a value at ``path`` can be the ``wanted`` percentile (either unstated: yes)."""
    if wanted is None:
        return True
    held = percentile_of_path(path)
    return held is None or held == wanted


#: Words before a name that make it a part counted ("Eight NeuronCore-v3 that collectively deliver",
#: "16 Trainium2 chips") or a baseline ("3x speedup relative to NeuronCore-v1"), not the subject.
_NOT_SUBJECT = re.compile(r"(?:\b\d+|\b(?:two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen)"
                          r"|relative\s+to|compared\s+(?:to|with)|\bvs\.?|versus|\bthan|\bfrom|\bover)\s+$",
                          re.IGNORECASE)


_BATCH = re.compile(r"\bbatch[-\s]?size(?:\s+of)?\s+(\d+)\b|\bb(\d+)\b", re.IGNORECASE)
#: A compiler option written in prose ("with --fast-math none", "fast-math=none").
_OPTION = re.compile(r"(?<![\w-])-{0,2}(fast-math|auto-cast)(?:\s*=\s*|\s+)(none|all|fp32|matmult|\w+)\b",
                     re.IGNORECASE)


@dataclass(frozen=True)
class Aspects:
    """What a figure's words pin down of the value besides its quantity and subject."""

    percentile: str | None = None
    batch: int | None = None
    options: frozenset[str] = frozenset()


def batch_of_text(text: str) -> int | None:
    """The one batch size ``text`` names ("at batch size 3"), if it names exactly one."""
    found = {int(next(g for g in m.groups() if g)) for m in _BATCH.finditer(text)}
    return found.pop() if len(found) == 1 else None


def options_of_text(text: str) -> frozenset[str]:
    """The compiler options ``text`` names, as the data writes them (``fast-math=none``)."""
    return frozenset(f"{m.group(1).lower()}={m.group(2).lower()}" for m in _OPTION.finditer(text))


def subjects_named(text: str) -> list[tuple[int, str]]:
    """(offset, name) of every device, instance or instance family ``text`` gives a figure to (not
    one it counts as a part or compares with)."""
    return [(m.start(), m.group(0)) for m in _SUBJECT.finditer(text)
            if not _NOT_SUBJECT.search(text[max(0, m.start() - 30):m.start()])]


def unknown_subject(text: str, at: int, known: Collection[str]) -> str | None:
    """The subject ``text`` names nearest offset ``at`` when the data does not hold it (its words are
    not among the ``known`` words naming platforms); ``None`` when the nearest is known or none is named."""
    named = subjects_named(text)
    if not named:
        return None
    _, name = min(named, key=lambda n: (abs(n[0] - at), n[0]))
    if "." in name:  # an instance type is known only as a whole ("inf1.6xlarge" is not "inf1")
        return None if name.lower() in known else name
    if re.search(r"\s|-", name):  # a group of instances ("Trn2 UltraServer") is known only as a whole
        return None if words(name) <= set(known) else name
    return None if words(name) & set(known) else name
