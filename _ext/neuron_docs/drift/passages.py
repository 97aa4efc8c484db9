"""Passages of prose and their context: which words surround a figure or a claim (no Sphinx).

The context of an offset is the words of its sentence, of the sentence before it and of the heading
above it; the figure index uses it to tell which records a passage talks about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD_RE = re.compile(r"[a-z0-9]+(?:[.\-][a-z0-9]+)*")


def words(text: str) -> set[str]:
    """Lower-case words of ``text``, with the parts of dotted or hyphenated words too, and a
    hyphenated word joined ("ResNet-50" also names "resnet50")."""
    out: set[str] = set()
    for word in _WORD_RE.findall(text.lower()):
        out.add(word)
        if "-" in word:
            out.add(word.replace("-", ""))
        out.update(re.split(r"[.\-]", word))
    return out


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


_CLAUSE_CUT = re.compile(r";|,(?=\s)|\s(?:and|but|while|whereas|against|versus|vs\.?|compared\s+with)\s", re.IGNORECASE)


def clause_of(text: str, start: int, end: int, at: int) -> tuple[int, int]:
    """The span of the clause of ``text[start:end]`` (a sentence) that holds offset ``at``."""
    low, high = start, end
    for match in _CLAUSE_CUT.finditer(text, start, end):
        if match.end() <= at:
            low = match.end()
        elif match.start() >= at:
            high = match.start()
            break
    return low, high


def context_words(text: str, start: int, heading: str = "", spans: list[tuple[int, int]] | None = None) -> set[str]:
    """Words of the sentence holding offset ``start``, the sentence before it and the heading."""
    spans = spans if spans is not None else sentences(text)
    index = next((i for i, (a, b) in enumerate(spans) if a <= start <= b), len(spans) - 1)
    first = max(0, index - 1)
    return words(text[spans[first][0]:spans[index][1]]) | words(heading)


@dataclass
class Passage:
    """A block of text (a paragraph) with where it starts and its heading."""

    text: str
    line: int
    heading: str = ""
    #: The spans of ``text`` written by hand (``None``: all of it).
    allowed: tuple[tuple[int, int], ...] | None = None

    def line_of(self, offset: int) -> int:
        """The line of the file that holds ``offset`` of the text."""
        return self.line + self.text.count("\n", 0, offset)
