"""Finding figures and fit/support claims in prose and matching them against the data (no Sphinx).

Shared by the build's drift checker (:mod:`.checks`) and the ``make audit`` command (:mod:`.audit`),
which import what they use from here. One module per concern:

- :mod:`.literal_figures`: :func:`find_figures` finds the literal figures of a text (a number with
  its unit, the qualifier before it and the direction after it).
- :mod:`.passages`: sentences of a text, the words around an offset (:func:`context_words`), and
  :class:`Passage`, a paragraph with its line and heading.
- :mod:`.figure_index`: :class:`FigureIndex`, every value of a data set and the common claims
  derived from them, and :meth:`FigureIndex.match`, what a figure duplicates or contradicts.
- :mod:`.figure_verdicts`: a :class:`Candidate` value or claim, whether a figure :func:`agrees` with
  it, and the :class:`Match` verdict.
- :mod:`.fit_claims`: :class:`ClaimIndex`, fit/support phrases checked against ``families.yaml``.
"""

from __future__ import annotations

from .figure_index import FigureIndex
from .figure_verdicts import Candidate, Match, agrees, expected_text
from .fit_claims import Claim, ClaimIndex
from .literal_figures import BARE_RE, FIGURE_RE, Figure, find_figures
from .passages import Passage, context_words, sentences, words

__all__ = [
    "BARE_RE", "FIGURE_RE", "Candidate", "Claim", "ClaimIndex", "Figure", "FigureIndex", "Match", "Passage", "agrees",
    "context_words", "expected_text", "find_figures", "sentences", "words",
]
