"""Comparatives next to figures checked against the figures themselves (no Sphinx).

"BEiT still costs less on Inferentia: $0.65 per 1M inferences against $0.79" is a claim about the
two figures it names, which may be roles whose values follow the data: when a price changes so that
Inferentia no longer costs less, the words are wrong though every figure is right. A comparative
word (less, cheaper, lower, more, higher, more expensive...) written before two figures of one unit
set against each other ("against", "vs", "compared with", "than", "while"), or between them before
"than" ("$0.74, less than the $0.19"), must hold between them;
and a difference written with a minus sign and a direction word ("-$0.11 less") says the opposite of
its word. Only the words need to be written by hand (the figures may be a role's output).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .literal_figures import LiteralFigure
from .verdicts import Verdict

_CUE = re.compile(r"\b(?:(?:costs?|is|are|was|were|runs?)\s+)?(?:still\s+|much\s+|far\s+|slightly\s+|even\s+)?"
                  r"(?P<word>less|cheaper|lower|fewer|smaller|"
                  r"more\s+expensive|costlier|higher|greater|larger|more)\b", re.IGNORECASE)
_AGAINST = re.compile(r"\bagainst\b|\bvs\.?|\bversus\b|\bcompared\s+(?:with|to)\b|\bwhile\b|\bwhereas\b|\bthan\b",
                      re.IGNORECASE)
_LESS = ("less", "cheaper", "lower", "fewer", "smaller")
#: How far apart (characters) the two figures of a comparison may be.
_GAP = 120


def _inside(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= start and end <= b for a, b in spans)


def comparisons(text: str, sentence_spans: Sequence[tuple[int, int]], figures: Sequence[LiteralFigure],
                allowed: Sequence[tuple[int, int]]) -> list[Verdict]:
    """Comparatives of ``text`` (written by hand, inside ``allowed``) that its ``figures`` (all of
    them, a role's output included) contradict."""
    out: list[Verdict] = []
    for s_start, s_end in sentence_spans:
        here = [f for f in figures if s_start <= f.start < s_end]
        for first, second in zip(here, here[1:], strict=False):
            if first.unit != second.unit or second.start - first.end > _GAP or\
                    not _AGAINST.search(text, first.end, second.start):
                continue
            before = here[here.index(first) - 1].end if here.index(first) else s_start
            # "costs less on Inferentia: A against B", or "A, less than B".
            cues = [m for m in _CUE.finditer(text, before, first.start) if _inside(m.start(), m.end(), allowed)] + [
                m for m in _CUE.finditer(text, first.end, second.start)
                if _inside(m.start(), m.end(), allowed) and re.match(r"\s+than\b", text[m.end():])]
            if not cues:
                continue
            cue = cues[-1]
            word = re.sub(r"\s+", " ", cue.group("word").lower())
            a, b = (-first.number if first.negative else first.number), (-second.number if second.negative
                                                                          else second.number)
            less = word in _LESS
            if (a < b) if less else (a > b):
                continue
            said = cue.group(0).strip()
            relation = "not less than" if less else "not more than"
            out.append(Verdict(cue.start(), said, "comparison", f"{first.text.strip()} vs {second.text.strip()}",
                               f"{first.text.strip()} is {relation} {second.text.strip()}", False,
                               f"'{said}' but {first.text.strip()} is {relation} {second.text.strip()}", ""))
        for figure in here:
            if figure.negative and figure.direction in ("up", "down") and _inside(figure.end + 1, figure.end + 2,
                                                                                  allowed):
                after = re.match(r"\s*\S+", text[figure.end:s_end])
                said = " ".join(f"-{figure.text} {after.group(0) if after else ''}".split())
                opposite = "more" if figure.direction == "down" else "less"
                out.append(Verdict(figure.start - 1, said, "comparison", f"-{figure.text.strip()}",
                                   f"{figure.text.strip()} {opposite}", False,
                                   f"a negative difference with its direction word: it is {figure.text.strip()} "
                                   f"{opposite}", ""))
    return out
