"""Literal figures in prose (``drift/literal_figures.py``), on sentences written in the test: the number,
decimals, unit, qualifier and direction of each figure, ranges, prices per hour, negative prices,
multiples and counts in words, bare decimals for the audit, and what is no figure. No catalog, no
Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from neuron_docs.drift.literal_figures import LiteralFigure, count_cell, find_figures


def fields(text: str, loose: bool = False) -> list[tuple[Any, ...]]:
    return [(f.text, f.start, f.end, f.number, f.decimals, f.unit, f.qualifier, f.direction)
            for f in find_figures(text, loose=loose)]


def test_a_figure_with_its_qualifier_before_and_direction_after() -> None:
    assert fields("It takes less than 2 ms and ~39% more.") == [
        ("less than 2 ms", 9, 23, 2.0, 0, "ms", "less than", ""), ("~39%", 28, 32, 39.0, 0, "%", "~", "up")]
    assert fields("LESS  THAN\n2 ms") == [("LESS  THAN\n2 ms", 0, 15, 2.0, 0, "ms", "less than", "")]
    assert fields("APPROX. 3 ms") == [("APPROX. 3 ms", 0, 12, 3.0, 0, "ms", "approx.", "")]


@pytest.mark.parametrize(("text", "number", "decimals", "unit"), [
    ("12 ms", 12.0, 0, "ms"), ("1,234.5 ms", 1234.5, 1, "ms"), ("800Gbps", 800.0, 0, "Gbps"),
    ("2.5X", 2.5, 1, "x"), ("0.19$", 0.19, 2, "USD"), ("%12", 12.0, 0, "%"), ("$1,000", 1000.0, 0, "USD"),
    ("1,299 FP8 TFLOPS", 1299.0, 0, "TFLOPS"), ("536.718 operations in 1 second", 536.718, 3, "inferences/s"),
    ("192 vCPUs", 192.0, 0, "vCPUs"), ("16 Trainium2 chips", 16.0, 0, "chips"), ("2 pp", 2.0, 0, "pp"),
    ("3 GHz", 3.0, 0, "GHz"), ("4 USD", 4.0, 0, "USD"), ("9.007 ms", 9.007, 3, "ms"),
])
def test_the_number_decimals_and_unit_of_a_figure(text: str, number: float, decimals: int, unit: str) -> None:
    [figure] = find_figures(text)
    assert (figure.text, figure.number, figure.decimals, figure.unit) == (text, number, decimals, unit)
    assert (figure.qualifier, figure.negative, figure.low, figure.spelled, figure.bare) == ("", False, None, False,
                                                                                           False)


def test_numbers_glued_to_identifiers_versions_or_paths_are_no_figures() -> None:
    assert find_figures("inf1.2xlarge") == []
    assert find_figures("version 1.11.0") == []
    assert find_figures("about  3   ms") == []
    assert find_figures("12 apples") == []


@pytest.mark.parametrize(("text", "direction"), [
    ("75% more expensive", "up"), ("2.5X faster", "up"), ("20% lower", "down"), ("-$0.11 cheaper", "down"),
    ("faster by 20%", "diff"), ("a difference of 5 ms", "diff"), ("20% difference", "diff"), ("5 ms gap", "diff"),
    ("5 ms of the gap", "diff"), ("$0.13 is how much less BEiT costs", "down"), ("$0.13 was how much more", "up"),
    ("powered by 16 chips", ""), ("12 ms", ""), ("20% in total", ""), ("20% much lower", "down"),
])
def test_the_direction_written_around_a_figure(text: str, direction: str) -> None:
    [figure] = find_figures(text)
    assert figure.direction == direction


def test_a_direction_word_inside_the_unit_phrase() -> None:
    assert fields("160 more operations per second") == [
        ("160 more operations per second", 0, 30, 160.0, 0, "inferences/s", "", "up")]
    assert fields("160 fewer inferences/s, less") == [("160 fewer inferences/s", 0, 22, 160.0, 0, "inferences/s",
                                                       "", "down")]
    assert fields("160 MORE images/sec") == [("160 MORE images/sec", 0, 19, 160.0, 0, "inferences/s", "", "up")]


def test_an_hourly_price() -> None:
    assert fields("$0.78 per hour") == [("$0.78 per hour", 0, 14, 0.78, 2, "USD/h", "", "")]
    assert fields("costs $1.34/hr") == [("$1.34/hr", 6, 14, 1.34, 2, "USD/h", "", "")]
    assert fields("12 ms per hour") == [("12 ms", 0, 5, 12.0, 0, "ms", "", "")]
    assert fields("5 GB per hour") == [("5 GB", 0, 4, 5.0, 0, "GB", "", "")]
    assert fields("5% per hour") == [("5%", 0, 2, 5.0, 0, "%", "", "")]


def test_a_price_with_a_minus_sign_before_it_is_negative() -> None:
    assert [(f.text, f.start, f.negative) for f in find_figures("-$0.11, \u2212$0.12, $0.13, 5 $0.14")] == [
        ("$0.11", 1, True), ("$0.12", 9, True), ("$0.13", 16, False), ("$0.14", 25, False)]
    assert [f.negative for f in find_figures("\u22125 ms")] == [False]  # only a price is read as negative
    assert [f.negative for f in find_figures("$0.1")] == [False]


def test_a_range_is_one_figure_whose_number_is_its_high_end() -> None:
    for text in ("7-10 ms", "7 to 10 ms", "7\u201310 ms"):
        [figure] = find_figures("in " + text)
        assert (figure.text, figure.start, figure.end, figure.number, figure.low) == (text, 3, 3 + len(text), 10.0, 7.0)


def test_multiples_in_words() -> None:
    assert fields("almost four times as much") == [("almost four times", 0, 17, 4.0, 0, "x", "almost", "up")]
    assert fields("twice as fast") == [("twice", 0, 5, 2.0, 0, "x", "", "up")]
    assert fields("Ten times faster") == [("Ten times", 0, 9, 10.0, 0, "x", "", "up")]
    assert fields("3.5 times more") == [("3.5 times", 0, 9, 3.5, 1, "x", "", "up")]
    assert fields("2.5x faster, 3 times more") == [("2.5x", 0, 4, 2.5, 1, "x", "", "up"),
                                                 ("3 times", 13, 20, 3.0, 0, "x", "", "up")]
    assert fields("four times") == []
    assert [f.spelled for f in find_figures("twice as fast")] == [False]


def test_a_multiple_inside_another_figure_is_not_read_again() -> None:
    assert [f.text for f in find_figures("3 times more operations per second")] == ["3 times"]
    assert [f.text for f in find_figures("up to 3 times the 12 ms")] == ["up to 3 times", "12 ms"]
    assert [f.text for f in find_figures("5 x 3 times more")] == ["3 times"]


def test_counts_in_words() -> None:
    figures = find_figures("up to twelve Inferentia2 chips and Two vCPUs, one chip")
    assert [(f.text, f.number, f.decimals, f.unit, f.qualifier, f.spelled) for f in figures] == [
        ("up to twelve Inferentia2 chips", 12.0, 0, "chips", "up to", True), ("Two vCPUs", 2.0, 0, "vCPUs", "", True),
        ("one chip", 1.0, 0, "chips", "", True)]
    assert [(f.direction, f.negative, f.low, f.bare) for f in figures] == [("", False, None, False)] * 3
    assert fields("sixty-four vCPU") == [("sixty-four vCPU", 0, 15, 64.0, 0, "vCPUs", "", "")]
    assert fields("up  to   two chips") == [("up  to   two chips", 0, 18, 2.0, 0, "chips", "up to", "")]


def test_a_count_in_words_inside_another_figure_is_not_read_again() -> None:
    assert [f.text for f in find_figures("two times more chips")] == ["two times"]
    assert [f.text for f in find_figures("at least 2 two chips")] == ["at least 2 two chips"]
    assert [f.text for f in find_figures("at least 2 two chips and three chips")] == ["at least 2 two chips",
                                                                                 "three chips"]


def test_bare_decimals_only_for_the_audit() -> None:
    text = "536.18 and 2.5 ms, 3 and 1.5"
    assert fields(text) == [("2.5 ms", 11, 17, 2.5, 1, "ms", "", "")]
    loose = find_figures(text, loose=True)
    assert [(f.text, f.start, f.end, f.number, f.decimals, f.unit, f.bare) for f in loose] == [
        ("536.18", 0, 6, 536.18, 2, "", True), ("2.5 ms", 11, 17, 2.5, 1, "ms", False),
        ("1.5", 25, 28, 1.5, 1, "", True)]
    assert [f.direction for f in find_figures("1.5 more", loose=True)] == ["up"]
    assert [f.text for f in find_figures("2.5 ms", loose=True)] == ["2.5 ms"]


def test_figures_come_in_the_order_of_the_text() -> None:
    text = "1.5 then twice as fast then two chips then 3 ms"
    assert [f.text for f in find_figures(text, loose=True)] == ["1.5", "twice", "two chips", "3 ms"]


def test_a_figure_as_typed() -> None:
    assert LiteralFigure("x", 0, 1, 2.5, 2, "ms").typed == Decimal("2.50")
    assert LiteralFigure("x", 0, 1, 0.1, 1, "ms").typed == Decimal("0.1")
    assert LiteralFigure("x", 0, 1, 3.0, 0, "ms").typed == Decimal("3")
    with pytest.raises(AttributeError):
        LiteralFigure("x", 0, 1, 3.0, 0, "ms").number = 4  # type: ignore[misc]


def test_a_count_cell_under_a_header_that_gives_its_unit() -> None:
    assert count_cell("Up to 16", "chips") == "Up to 16 chips"
    assert count_cell("Two", "chips") == "2 chips"
    assert count_cell(" 1,024 ", "vCPUs") == "1,024 vCPUs"
    assert count_cell("sixteen", "chips") == "16 chips"
    assert count_cell("16 GB", "chips") is None
    assert count_cell("", "chips") is None


@pytest.mark.parametrize(("word", "number"), [
    ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7), ("eight", 8), ("nine", 9),
    ("ten", 10)])
def test_each_multiple_in_words_reads_as_its_number(word: str, number: int) -> None:
    [figure] = find_figures(f"{word} times faster")
    assert (figure.number, figure.unit) == (number, "x")


@pytest.mark.parametrize(("word", "number"), [
    ("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7), ("eight", 8),
    ("nine", 9), ("ten", 10), ("eleven", 11), ("twelve", 12), ("sixteen", 16), ("twenty-four", 24),
    ("thirty-two", 32), ("sixty-four", 64)])
def test_each_count_in_words_reads_as_its_number(word: str, number: int) -> None:
    [figure] = find_figures(f"{word} Trainium chips")
    assert (figure.number, figure.unit, figure.spelled) == (number, "chips", True)
    assert count_cell(word.capitalize(), "chips") == f"{number} chips"


def test_a_figure_as_typed_keeps_its_decimals() -> None:
    assert str(LiteralFigure("x", 0, 1, 2.5, 2, "ms").typed) == "2.50"
    assert str(LiteralFigure("x", 0, 1, 3.0, 0, "ms").typed) == "3"


def test_the_words_read_after_a_figure_are_its_next_sixty_characters() -> None:
    near = "5 ms " + "a" * 20 + " " + "b" * 20 + " gap"
    assert [f.direction for f in find_figures(near)] == ["diff"]
    far = "5 ms " + "a" * 30 + " " + "b" * 30 + " gap"
    assert [f.direction for f in find_figures(far)] == [""]
    assert [f.direction for f in find_figures("so 5 ms " + "a" * 30 + " " + "b" * 30 + " gap")] == [""]
    at_sixty = "5 ms " + "a" * 27 + " " + "b" * 27 + " gap"  # "gap" ends at the 60th character after the figure
    assert [f.direction for f in find_figures(at_sixty)] == ["diff"]
    at_sixty_one = "5 ms " + "a" * 27 + " " + "b" * 28 + " gap"
    assert [f.direction for f in find_figures(at_sixty_one)] == [""]


def test_the_words_read_before_a_figure_are_its_last_forty_characters() -> None:
    assert [f.direction for f in find_figures("by" + " " * 38 + "5 ms")] == ["diff"]
    assert [f.direction for f in find_figures("by" + " " * 39 + "5 ms")] == [""]


def test_a_figure_ends_where_the_next_may_begin() -> None:
    assert [f.text for f in find_figures("20%twice as fast")] == ["20%", "twice"]
    assert [f.text for f in find_figures("20%two chips")] == ["20%", "two chips"]
    assert [f.text for f in find_figures("two chips$5")] == ["two chips", "$5"]


def test_a_bare_decimal_inside_another_figure_is_not_read_again() -> None:
    assert [f.text for f in find_figures("1.5 times more", loose=True)] == ["1.5 times"]
    assert [f.text for f in find_figures("about 1.5 times more", loose=True)] == ["about 1.5 times"]
    assert [f.text for f in find_figures("1.5 times more, then 2.5", loose=True)] == ["1.5 times", "2.5"]


def test_bare_decimals_are_left_out_unless_asked_for() -> None:
    assert [f.text for f in find_figures("536.18 and 2.5 ms")] == ["2.5 ms"]


def test_a_multiple_inside_a_price_does_not_stop_the_multiples_after_it() -> None:
    assert [f.text for f in find_figures("$3 times more, twice as fast")] == ["$3", "twice"]
