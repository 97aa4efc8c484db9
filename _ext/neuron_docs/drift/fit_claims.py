"""Fit and support claims in prose checked against the latest revision of the support matrices (no Sphinx).

:class:`ClaimIndex` finds fit/support phrases ("a good fit", "not supported") in a sentence that
names a model family and a device, and says what the data gives for that family and device.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from .names import NameTable, device_names, family_names, framework_names
from .passages import sentences

if TYPE_CHECKING:
    from ..data.catalog import Catalog

#: A negation: "not", "never", or a contraction ("isn't", "aren't", "don't", typographic apostrophe too),
#: whose "n't" follows a letter, so no word boundary comes before it.
_NEGATION = r"(?:\bnot|\bnever|n['\u2019]t)"
_NOT_FIT = re.compile(rf"{_NEGATION}\s+(?:\w+\s+)?(?:a\s+)?good\s+fit\b|\b(?:poor|bad)\s+fits?\b", re.I)
_FIT = re.compile(r"\bgood\s+fits?\b", re.I)
_NOT_SUPPORTED = re.compile(rf"{_NEGATION}\s+(?:\w+\s+)?(?:supported|support)\b|\bunsupported\b|"
                            r"\b(?:no|lacks?)\s+support\b", re.I)
_SUPPORTED = re.compile(r"\bsupport(?:ed|s)\b|\b(?:has|have|with|adds?|added|offers?)\s+(?:\w+\s+)?support\b", re.I)
_CLAUSE = re.compile(r"[;:]|,\s*(?:but|while|whereas|and)\b|\s(?:but|whereas|while)\s", re.I)


@dataclass(frozen=True)
class FitClaim:
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
    """Names of families, devices and frameworks, for finding fit/support claims in sentences (each
    table of names made when first used: a sentence naming no device needs no framework's name)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    @cached_property
    def families(self) -> NameTable:
        return family_names(self.catalog)

    @cached_property
    def devices(self) -> NameTable:
        return device_names(self.catalog)

    @cached_property
    def frameworks(self) -> NameTable:
        return framework_names(self.catalog)

    @staticmethod
    def _names(text: str, table: NameTable) -> list[tuple[str, int]]:
        """(id, offset) of every name of ``table`` in ``text`` (a shared name gives each of its ids)."""
        return [(record_id, at) for ids, at in table.find(text) for record_id in ids]

    def claims(self, text: str, allowed: Iterable[tuple[int, int]] | None = None) -> list[FitClaim]:
        """Fit/support claims in ``text`` (a paragraph); phrases only inside ``allowed`` spans count."""
        spans = list(allowed) if allowed is not None else [(0, len(text))]
        out: list[FitClaim] = []
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
               span: tuple[int, int], text: str) -> FitClaim | None:
        fit = self.catalog.fit(family_id, device_id)  # the latest revision's
        cells = self.catalog.support(family_id, device_id)
        if fit is None:
            return None
        phrase = text[span[0]:span[1]]
        if kind == "fit":
            return FitClaim(span[0], span[1], phrase, family_id, device_id, said, fit,
                         f":neuron:fit:`{family_id}/{device_id}`")
        found = [f for f in (self.catalog.support_cell(family_id, device_id, fw) for fw in frameworks) if f]
        device = self.catalog.devices.get(device_id)
        purpose = [k for k in cells if device and k.endswith(f"/{device.purpose}")]
        # The frameworks named; else the columns of the device's purpose (training on Trainium); else all.
        chosen = [key for key, _ in found] or purpose or list(cells)
        supported = any(cells[k].status in ("supported", "limited") for k in chosen)
        framework = chosen[0].split("/")[0] if chosen else ""
        return FitClaim(span[0], span[1], phrase, family_id, device_id, said,
                     "supported" if supported else "unsupported",
                     f":neuron:status:`{family_id}/{device_id}/{framework}`")

    def badge(self, family_id: str, device_id: str, framework_id: str = "", workload: str | None = None) -> str | None:
        """What the latest revision gives for a matrix cell: ``fit:<fit>`` (no framework) or
        ``status:<status>`` (the framework's column for ``workload``; without it, for the device's
        purpose when it has several)."""
        if not framework_id:
            fit = self.catalog.fit(family_id, device_id)
            return f"fit:{fit}" if fit is not None else None
        found = self.catalog.support_cell(family_id, device_id, framework_id, workload)
        return f"status:{found[1].status}" if found is not None else None

    def frameworks_with_cells(self, family_id: str, device_id: str) -> list[str]:
        """The frameworks with a cell for ``family_id`` on ``device_id`` in the latest revision."""
        return list(dict.fromkeys(key.split("/")[0] for key in self.catalog.support(family_id, device_id)))
