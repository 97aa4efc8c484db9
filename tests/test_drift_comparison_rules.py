"""Comparatives next to figures (``drift/comparatives.py``), on sentences written in the test: a
comparative word before two figures of one unit set against each other, or between them before
"than", must hold between them; which pairs are compared (one sentence, one unit, a word setting
them against each other, at most ``_GAP`` characters apart); which word counts (the last one written
by hand, after the figure before the pair); signed figures and ties; a negative difference with its
direction word; the verdicts' texts. No catalog, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from neuron_docs.drift.comparatives import _GAP, comparisons
from neuron_docs.drift.literal_figures import LiteralFigure, find_figures
from neuron_docs.drift.passages import sentences
from neuron_docs.drift.verdicts import Verdict


def check(text: str, allowed: Sequence[tuple[int, int]] | None = None,
          spans: Sequence[tuple[int, int]] | None = None) -> list[Verdict]:
    """The comparison verdicts of ``text``, all of it written by hand unless ``allowed`` says."""
    return comparisons(text, sentences(text) if spans is None else spans, find_figures(text),
                       [(0, len(text))] if allowed is None else allowed)


def said(text: str, allowed: Sequence[tuple[int, int]] | None = None,
         spans: Sequence[tuple[int, int]] | None = None) -> list[str]:
    return [v.text for v in check(text, allowed, spans)]


# --- a word before two figures set against each other -----------------------------------------------

def test_a_comparative_that_holds_says_nothing_one_that_does_not_is_reported() -> None:
    assert check("BEiT still costs less on Inferentia: $0.65 against $0.79.") == []
    assert check("BEiT costs still less on Inferentia: $0.85 against $0.79.") == [Verdict(
        5, "costs still less", "comparison", "$0.85 vs $0.79", "$0.85 is not less than $0.79", False,
        "'costs still less' but $0.85 is not less than $0.79", "")]
    assert check("It is more expensive: $0.65 vs $0.79.") == [Verdict(
        3, "is more expensive", "comparison", "$0.65 vs $0.79", "$0.65 is not more than $0.79", False,
        "'is more expensive' but $0.65 is not more than $0.79", "")]
    assert check("It is more expensive: $0.85 vs $0.79.") == []


@pytest.mark.parametrize("word", ["less", "cheaper", "lower", "fewer", "smaller", "CHEAPER"])
def test_words_of_less(word: str) -> None:
    assert check(f"It is {word}: 4 ms against 6 ms.") == []
    assert said(f"It is {word}: 6 ms against 4 ms.") == [f"is {word}"]


@pytest.mark.parametrize("word", ["more", "higher", "greater", "larger", "costlier", "more  expensive"])
def test_words_of_more(word: str) -> None:
    assert check(f"It is {word}: 6 ms against 4 ms.") == []
    assert said(f"It is {word}: 4 ms against 6 ms.") == [f"is {word}"]


@pytest.mark.parametrize("against", ["against", "vs", "vs.", "versus", "compared with", "compared to", "while",
                                     "whereas", "than"])
def test_the_words_that_set_two_figures_against_each_other(against: str) -> None:
    assert said(f"It is less: 6 ms {against} 4 ms.") == ["is less"]
    assert check(f"It is less: 4 ms {against} 6 ms.") == []


def test_a_tie_is_neither_less_nor_more() -> None:
    assert said("It costs less: $5 against $5.") == ["costs less"]
    assert said("It costs more: $5 against $5.") == ["costs more"]


def test_negative_figures_are_compared_with_their_sign() -> None:
    # -$5 is less than $3, and $3 is more than -$5: both hold.
    assert check("It costs less: -$5 against $3.") == []
    assert check("It costs more: $3 against -$5.") == []
    assert said("It costs more: -$5 against $3.") == ["costs more"]
    assert said("It costs less: $3 against -$5.") == ["costs less"]
    assert said("It costs less: -$3 against -$5.") == ["costs less"]
    # Both negative: each with its own sign.
    assert check("It costs less: -$5 against -$3.") == []
    assert check("It costs more: -$3 against -$5.") == []


# --- a word between the two figures before "than" ---------------------------------------------------

def test_a_word_between_the_figures_before_than() -> None:
    assert [(v.start, v.text, v.expected) for v in check("$0.74, less than the $0.19")] == [
        (7, "less", "$0.74 is not less than $0.19")]
    assert check("$0.14, less than the $0.19") == []
    # Between the figures, a word not followed by "than" is no cue.
    assert check("$0.74 is less, against $0.19") == []


# --- which pairs are compared ---------------------------------------------------------------------------

def test_figures_of_other_units_or_sentences_are_not_compared() -> None:
    assert check("It is less: 6 ms against $4.") == []
    assert check("It is less: $6 against 4 ms.") == []
    assert check("It is less: 6 ms. Against 4 ms it is.") == []


def test_figures_without_a_word_setting_them_against_each_other_are_not_compared() -> None:
    assert check("It is less: 6 ms and 4 ms.") == []


def test_figures_at_most_the_gap_apart_are_compared() -> None:
    def text(gap: int) -> str:
        return "It is less: 6 ms against" + " " * (gap - len(" against ")) + " 4 ms."
    assert said(text(_GAP)) == ["is less"]
    assert check(text(_GAP + 1)) == []
    assert _GAP == 120


def test_each_pair_of_neighbours_is_compared() -> None:
    # The second and third figures are a pair, the first and third are not.
    assert said("It is less: 6 ms, 7 ms against 8 ms; more: 1 ms against 2 ms.") == ["more"]
    assert said("It is less: 6 ms against 4 ms, and 3 ms against 9 ms.") == ["is less"]
    assert check("It is less: 1 ms; 9 ms against 5 ms.") == []
    # A comparison that holds leaves the next ones of its sentence to be checked.
    assert said("It is less: 4 ms against 6 ms; and less: 9 ms against 5 ms.") == ["less"]


def test_the_words_before_the_figure_before_the_pair_are_not_its() -> None:
    # The pair is $4 and $6: "more" before $5 is not about it; right after $5 it is.
    assert check("more $5, then $4 against $6") == []
    assert said("$5 more: $4 against $6") == ["more"]
    assert [v.start for v in check("Then $5 more: $4 against $6")] == [8]


def test_the_sentence_a_figure_starts_in_is_its_own() -> None:
    text = "It is less: 6 ms against 4 ms."
    assert said(text) == ["is less"]
    # "4 ms" starts at 25: where the first sentence ends, so it is the next one's.
    assert check(text, spans=[(0, 25), (25, len(text))]) == []
    assert said(text, spans=[(0, 26), (26, len(text))]) == ["is less"]
    # A figure at the very start of its sentence is in it.
    assert said("6 ms, less than the 4 ms") == ["less"]


def test_the_last_word_written_counts() -> None:
    assert check("It is more, or rather less: $4 against $6.") == []
    assert said("It is less, or rather more: $4 against $6.") == ["more"]
    assert check("It is less, more, less: $4 against $6.") == []
    assert said("It is more, less, more: $4 against $6.") == ["more"]


# --- only words written by hand --------------------------------------------------------------------

def test_only_a_word_written_by_hand_counts() -> None:
    text = "It costs less: $6 against $4."
    cue = (3, 13)  # "costs less"
    assert said(text, allowed=[cue]) == ["costs less"]
    assert check(text, allowed=[(4, 13)]) == []
    assert check(text, allowed=[(3, 12)]) == []
    assert check(text, allowed=[(0, 3), (13, len(text))]) == []
    assert check(text, allowed=[]) == []
    between = "$0.74, less than the $0.19"
    assert said(between, allowed=[(7, 11)]) == ["less"]
    assert check(between, allowed=[(8, 11)]) == []
    assert check(between, allowed=[(7, 10)]) == []


# --- a negative difference with its direction word ---------------------------------------------------

def test_a_negative_difference_says_the_opposite_of_its_word() -> None:
    text = "It is -$0.11 cheaper and -$0.12 more."
    assert check(text) == [
        Verdict(6, "-$0.11 cheaper", "comparison", "-$0.11", "$0.11 more", False,
                "a negative difference with its direction word: it is $0.11 more", ""),
        Verdict(25, "-$0.12 more.", "comparison", "-$0.12", "$0.12 less", False,
                "a negative difference with its direction word: it is $0.12 less", "")]
    assert check("It is $0.11 cheaper.") == []


def _negative(direction: str, text: str = "It is -$0.11 x") -> LiteralFigure:
    return LiteralFigure("$0.11", 7, 12, 0.11, 2, "USD", direction=direction, negative=True)


@pytest.mark.parametrize(("direction", "opposite"), [("down", "more"), ("up", "less")])
def test_the_direction_of_a_negative_difference_read_at_run_time(direction: str, opposite: str) -> None:
    text = "It is -$0.11 x"
    figure = _negative("".join(list(direction)))
    [verdict] = comparisons(text, [(0, len(text))], [figure], [(0, len(text))])
    assert verdict.expected == f"$0.11 {opposite}"
    assert verdict.text == "-$0.11 x"


def test_figures_of_one_unit_read_at_run_time_are_compared() -> None:
    text = "It is less: 6 ms against 4 ms."
    first, second = find_figures(text)
    figures = [LiteralFigure(first.text, first.start, first.end, first.number, 0, "".join(["m", "s"])), second]
    assert [v.text for v in comparisons(text, [(0, len(text))], figures, [(0, len(text))])] == ["is less"]


@pytest.mark.parametrize("direction", ["", "diff"])
def test_a_negative_figure_without_a_direction_says_nothing(direction: str) -> None:
    text = "It is -$0.11 x"
    assert comparisons(text, [(0, len(text))], [_negative(direction)], [(0, len(text))]) == []


def test_the_direction_word_of_a_negative_difference_must_be_written_by_hand() -> None:
    text = "It is -$0.11 cheaper"
    end = 12  # "$0.11" ends at 12, its word starts at 13
    assert len(check(text, allowed=[(end + 1, end + 2)])) == 1
    assert len(check(text, allowed=[(0, end + 1)])) == 0
    assert len(check(text, allowed=[(end + 2, len(text))])) == 0
    assert len(check(text, allowed=[(end + 1, end + 1)])) == 0
