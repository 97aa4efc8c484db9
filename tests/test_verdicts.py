"""The drift checker's verdicts on one figure (:mod:`neuron_docs.drift.verdicts`), on figures and
candidates built here: a figure is made as the prose reader would give it, never parsed, so that only
the verdict's rules are tested. Written for the mutants ``make mutation`` left alive
(``tests/MUTATION.md``); light (no catalog, no Sphinx), so that ``make mutation`` runs it without
the shared fixtures (``--noconftest``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from neuron_docs.drift.literal_figures import LiteralFigure
from neuron_docs.drift.verdicts import (Candidate, Match, Verdict, _tie, agrees, context_score, expected_text,
                                        fits_direction, in_unit, normal_unit, path_score, role_of)


def _figure(number: float, decimals: int, unit: str, **fields: Any) -> LiteralFigure:
    """A figure as the prose reader gives it, built here (not parsed) so that only the verdict is tested."""
    return LiteralFigure(text=fields.pop("text", "the figure"), start=0, end=1, number=number, decimals=decimals,
                  unit=unit, **fields)


def test_a_number_is_converted_to_the_figures_unit_only_within_one_dimension() -> None:
    assert in_unit(1500.0, "ms", "s") == 1.5
    assert in_unit(1500.0, "ms", "ms") == 1500.0
    assert in_unit(2.0, "TFLOPS", "PFLOPS") == 0.002
    assert in_unit(5.0, "GB", "s") == 5.0  # another dimension: left as it is
    assert in_unit(5.0, "ms", "") == 5.0
    read = "".join(["m", "s"])  # a unit as read from a data file: equal to the literal, not the same object
    assert in_unit(1500.0, read, "s") == 1.5
    assert normal_unit("s") == "ms" and normal_unit("GiB") == "GB"


def test_the_expected_text_of_a_typed_value_is_the_datas_own_then_the_texts_unit() -> None:
    gib = Candidate("devices:d:memory", 96 * 1.073741824, "GB", typed="96 GiB", typed_unit="GiB")
    assert expected_text(gib, _figure(100, 0, "GB")) == "96 GiB = 103 GB"
    for unit in ("GiB", "", "USD", "USD/h", "%", "x"):
        assert expected_text(gib, _figure(96, 0, unit)) == "96 GiB"
    latency = Candidate("runs:r:p50", 1500.0, "ms", typed="1500 ms", typed_unit="ms")
    assert expected_text(latency, _figure(1.5, 1, "s")) == "1500 ms = 1.5 s"


def test_the_expected_text_of_a_derived_value_is_one_decimal_finer_and_three_digits() -> None:
    diff = Candidate("a - b", 12.345, "ms", op="diff")
    assert expected_text(diff, _figure(12, 0, "ms")) == "12.3 ms"
    assert expected_text(diff, _figure(12, 0, "")) == "12.3 ms"  # no unit written: the candidate's
    assert expected_text(Candidate("a - b", 1234.5, "ms", op="diff"), _figure(1.2, 1, "s")) == "1.23 s"
    assert expected_text(Candidate("a - b", -3.456, "ms", op="diff"), _figure(3, 0, "ms")) == "-3.46 ms"
    assert expected_text(Candidate("a - b", 0.00001234, "ms", op="diff"), _figure(0, 0, "ms")) == "0.000012 ms"
    assert expected_text(Candidate("a - b", 0.0, "ms", op="diff"), _figure(0, 0, "ms")) == "0.0 ms"
    # Three significant digits: as many decimals as 1.00 and 9.95 need, not one more nor one fewer.
    assert expected_text(Candidate("a - b", 1.0, "ms", op="diff"), _figure(1, 0, "ms")) == "1.00 ms"
    assert expected_text(Candidate("a - b", 9.95, "ms", op="diff"), _figure(10, 0, "ms")) == "9.95 ms"
    assert expected_text(Candidate("a - b", 12.5, "pp", op="diff"), _figure(12, 0, "%")) == "12.5%"
    assert expected_text(Candidate("a - b", 12.5, "pp", op="diff"), _figure(12, 0, "")) == "12.5 percentage points"
    assert expected_text(Candidate("a - b", 12.5, "pp", op="diff"), _figure(12, 0, "pp")) == "12.5 percentage points"
    # A text already finer than six decimals: one decimal more, never more digits chased.
    assert expected_text(Candidate("a - b", 1.234e-9, "ms", op="diff"), _figure(0, 7, "ms")) == "0.00000000 ms"
    assert expected_text(Candidate("a / b", 3.456, "x", op="ratio"), _figure(3.5, 1, "x")) == "3.46x"


@pytest.mark.parametrize(("number", "verdict"), [(6.5, True), (7.0, True), (10.5, True), (6.49, False), (10.51, False)])
def test_a_range_agrees_at_the_rounding_of_its_ends(number: float, verdict: bool) -> None:
    for low, high in ((7.0, 10.0), (10.0, 7.0)):  # "7-10 ms", and a range written high to low
        assert agrees(Candidate("x", number, "ms"), _figure(high, 0, "ms", low=low)) is verdict
    tenth = _figure(1.0, 1, "ms", low=0.7)  # "0.7-1.0 ms": 0.65 to 1.05
    assert [agrees(Candidate("x", n, "ms"), tenth) for n in (0.64, 0.66, 1.04, 1.06)] == [False, True, True, False]
    assert [agrees(Candidate("x", n, "ms"), tenth) for n in (0.647, 0.652, 1.048, 1.053)] == [False, True, True, False]


@pytest.mark.parametrize(("qualifier", "below", "at", "above"), [
    ("less than", True, False, False), ("under", True, False, False), ("below", True, False, False),
    ("fewer than", True, False, False), ("more than", False, False, True), ("over", False, False, True),
    ("above", False, False, True), ("at least", False, True, True), ("at most", True, True, False),
    ("up to", True, True, False)])
def test_a_bound_agrees_with_the_values_on_its_side(qualifier: str, below: bool, at: bool, above: bool) -> None:
    figure = _figure(5, 0, "ms", qualifier=qualifier)
    assert [agrees(Candidate("x", n, "ms"), figure) for n in (4.0, 5.0, 6.0)] == [below, at, above]


def test_a_plain_figure_agrees_at_its_rounding_or_halfway() -> None:
    assert agrees(Candidate("x", 1.499, "s"), _figure(1.5, 1, "s"))
    assert agrees(Candidate("x", 1500.0, "ms"), _figure(1.5, 1, "s"))
    assert not agrees(Candidate("x", 1.56, "s"), _figure(1.5, 1, "s"))
    assert agrees(Candidate("x", 2437.5, "ms"), _figure(2437, 0, "ms"))  # halfway: cut, or half down
    assert agrees(Candidate("x", 2437.5, "ms"), _figure(2438, 0, "ms"))
    assert not agrees(Candidate("x", 2437.6, "ms"), _figure(2437, 0, "ms"))


def test_halfway_is_exactly_half_a_unit_of_the_last_digit() -> None:
    assert _tie(2437.5, _figure(2437, 0, "ms")) and _tie(2436.5, _figure(2437, 0, "ms"))
    assert not _tie(2437.4, _figure(2437, 0, "ms")) and not _tie(2437.0, _figure(2437, 0, "ms"))
    assert _tie(1.25, _figure(1.2, 1, "ms")) and not _tie(1.7, _figure(1.2, 1, "ms"))
    assert not _tie(1.0, _figure(float("inf"), 0, "ms"))


@pytest.mark.parametrize(("op", "fits"), [
    ("value", {"": True, "up": True, "down": True, "diff": False}),
    ("diff", {"": False, "up": True, "down": True, "diff": True}),
    ("ratio", {"": False, "up": True, "down": False, "diff": False}),
    ("pct_more", {"": True, "up": True, "down": False, "diff": False}),
    ("pct_less", {"": True, "up": False, "down": True, "diff": False})])
def test_a_candidate_fits_the_direction_words_of_its_claim(op: str, fits: dict[str, bool]) -> None:
    candidate = Candidate("x", 12.0, "%", op=op)
    assert {d: fits_direction(candidate, _figure(12, 0, "%", direction=d)) for d in fits} == fits
    assert fits_direction(candidate, _figure(3, 0, "x", direction="diff")) is (op in ("value", "diff", "ratio"))
    assert Candidate("x", 1.0, "%", op=op).direction == {"diff": "diff", "pct_more": "up", "pct_less": "down",
                                                        "ratio": "up"}.get(op, "")


def test_the_context_names_a_candidate_when_it_names_every_record_of_it() -> None:
    instance = (frozenset({"inf2", "xlarge"}), frozenset({"bert"}))
    assert path_score(instance, {"inf2", "xlarge", "bert"}) == pytest.approx(1.2 + 1.1)
    assert path_score(instance, {"inf2"}) == pytest.approx(1.1)
    assert path_score(instance, {"trn1"}) == 0
    two = Candidate("a / b", 2.0, "x", op="ratio", records=(instance, (frozenset({"trn1"}),)))
    assert context_score(two, {"inf2", "bert", "trn1"}) == pytest.approx(2.2 + 1.1)
    assert context_score(two, {"inf2", "bert"}) == 0.0  # the second record is not named
    assert context_score(Candidate("x", 1.0, "ms"), {"inf2"}) == 0.0


def test_the_role_keeps_the_datas_precision_unless_the_text_rounds() -> None:
    typed = Candidate("runs:r:p50", 7.14, "ms")
    assert role_of(typed, _figure(7.14, 2, "ms")) == ":neuron:value:`runs:r:p50`"
    assert role_of(typed, _figure(7.1, 1, "ms")) == ":neuron:value:`runs:r:p50 | .1f`"
    assert role_of(Candidate("runs:r:p50", 7.1, "ms"), _figure(7.1, 2, "ms")) == ":neuron:value:`runs:r:p50 | .2f`"  # "7.10"
    assert role_of(Candidate("runs:r:p50", 7.0, "ms"), _figure(7, 0, "ms")) == ":neuron:value:`runs:r:p50`"
    assert role_of(Candidate("a - b", 7.0, "ms", op="diff"), _figure(7, 0, "ms")) == ":neuron:value:`a - b | .0f`"


def _verdict(kind: str, agrees: bool = False, reason: str = "too low") -> Verdict:
    return Verdict(3, " 760 GB/s ", kind, "devices:d:bw", "820 GB/s", agrees, reason, ":neuron:value:`devices:d:bw`")


def test_each_kind_of_verdict_has_its_message() -> None:
    role = ":neuron:value:`devices:d:bw`"
    assert _verdict("unknown").message() == "literal 760 GB/s not checked: too low"
    assert _verdict("table").message() == "literal 760 GB/s not checked: too low"
    assert _verdict("comparison").message() == "'760 GB/s' contradicts the figures it compares: too low"
    assert _verdict("claim").message() == f"'760 GB/s' contradicts the data: too low; write {role}"
    assert _verdict("source").message() == f"literal 760 GB/s quotes too low; write {role}"
    assert _verdict("history", True).message() == "literal 760 GB/s quotes devices:d:bw (820 GB/s): too low"
    assert _verdict("history").message() == "literal 760 GB/s contradicts devices:d:bw (820 GB/s): too low"
    assert _verdict("figure", True).message() == f"literal 760 GB/s duplicates devices:d:bw; write {role}"
    assert _verdict("figure").message() == f"literal 760 GB/s contradicts devices:d:bw (820 GB/s): too low; write {role}"
    assert _verdict("figure", reason="the data gives 820").message() == \
        f"literal 760 GB/s contradicts devices:d:bw (820 GB/s); write {role}"
    assert _verdict("figure", reason="").message() == f"literal 760 GB/s contradicts devices:d:bw (820 GB/s); write {role}"


def test_candidates_matches_and_verdicts_are_immutable() -> None:
    candidate = Candidate("x", 1.0, "ms")
    with pytest.raises(dataclasses.FrozenInstanceError):
        candidate.number = 2.0  # type: ignore[misc]
    for value in (Match(_figure(1, 0, "ms"), candidate, True, "1 ms"), _verdict("figure")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.agrees = False  # type: ignore[misc]


@pytest.mark.parametrize(("qualifier", "number", "verdict"), [
    ("about", 760, True), ("about", 798, True), ("about", 722, True), ("about", 799, False), ("about", 720, False),
    ("around", 798, True), ("approximately", 799, False), ("roughly", 798, True), ("nearly", 722, True),
    ("almost", 798, True), ("some", 798, True), ("~", 798, True), ("approx.", 798, True), ("", 761, False)])
def test_an_approximate_figure_is_within_five_percent(qualifier: str, number: float, verdict: bool) -> None:
    """"about 760 GB/s" is 722 to 798 GB/s; a figure without the word must round to the value."""
    figure = _figure(760, 0, "GB/s", qualifier=qualifier)
    assert agrees(Candidate("devices:d:bw", number, "GB/s"), figure) is verdict


@pytest.mark.parametrize(("figure", "number", "verdict"), [
    ((75, 0, "%"), 78.7, True), ((75, 0, "%"), 78.8, False), ((0.4, 1, "ms"), 0.5, True), ((0.4, 1, "ms"), 0.51, False),
    ((4, 0, "x"), 4.4, True), ((4, 0, "x"), 4.51, False), ((4, 0, "x"), 3.6, True), ((4, 0, "x"), 3.49, False),
    ((4.0, 1, "x"), 4.05, True), ((4.0, 1, "x"), 4.19, True), ((4.0, 1, "x"), 4.21, False)])
def test_an_approximate_small_figure_allows_a_unit_of_its_last_digit(figure: tuple[float, int, str], number: float,
                                                                      verdict: bool) -> None:
    """"about 0.4 ms": 0.3 to 0.5 (a unit of the last digit beats 5% of a small figure); "about 4x":
    within half a unit (3.5 to 4.5); "about 4.0x" and "about 75%": 5% (3.8 to 4.2; 71.25 to 78.75)."""
    assert agrees(Candidate("x", number, figure[2]), _figure(*figure, qualifier="about")) is verdict
