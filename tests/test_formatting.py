"""How figures are written: one test per rounding and format rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from neuron_docs.data.figures.formatting import (NumberFormat, format_number, plain_number, round_half_up, shown_change,
                                                 shown_cost, shown_figure)


def test_half_up_rounding_of_a_third_decimal() -> None:
    assert round_half_up(0.125, 2) == Decimal("0.13")  # banker's rounding would give 0.12
    assert format_number(0.125, "", NumberFormat(2)) == "0.13"


def test_half_up_rounding_to_an_integer() -> None:
    assert round_half_up(2.5, 0) == Decimal("3")  # round() would give 2
    assert round_half_up(3.5, 0) == Decimal("4")
    assert format_number(2.5, "", NumberFormat(0)) == "3"


def test_rounding_uses_the_digits_as_typed() -> None:
    # 1.005 is stored as 1.00499999999999989...; people typed 1.005 and expect 1.01.
    assert round_half_up(1.005, 2) == Decimal("1.01")
    assert format_number(0.18735, "USD", NumberFormat(2)) == "$0.19"


def test_fixed_decimals_pad_with_zeros() -> None:
    assert format_number(3, "", NumberFormat(2)) == "3.00"


def test_without_decimals_values_print_as_typed() -> None:
    assert format_number(9.007, "ms") == "9.007 ms"
    assert format_number(536.718, "inferences/s") == "536.718 inferences/s"


def test_integral_values_print_bare() -> None:
    assert plain_number(128.0) == "128"
    assert format_number(8.0, "GB") == "8 GB"


def test_sign_option_adds_a_plus() -> None:
    assert format_number(12.345, "%", NumberFormat.parse("+.1f")) == "+12.3%"
    assert format_number(-12.345, "%", NumberFormat.parse("+.1f")) == "-12.3%"
    assert format_number(5, "") == "5"  # no sign unless asked


def test_usd_is_written_with_a_dollar_sign() -> None:
    assert format_number(0.1874, "USD", NumberFormat(2)) == "$0.19"
    assert format_number(-3.5, "USD", NumberFormat(2)) == "-$3.50"
    assert format_number(1.5, "USD", NumberFormat(1, sign=True)) == "+$1.5"


def test_usd_per_hour_is_written_as_dollars_per_hour() -> None:
    assert format_number(0.228, "USD/h") == "$0.228/h"


def test_percent_has_no_space() -> None:
    assert format_number(39, "%") == "39%"


def test_percentage_points_are_spelt_out() -> None:
    assert format_number(3.06, "pp", NumberFormat(2)) == "3.06 percentage points"


def test_ratio_is_written_with_x() -> None:
    assert format_number(2.5, "x") == "2.5x"


def test_other_units_follow_a_space() -> None:
    assert format_number(190, "TFLOPS") == "190 TFLOPS"
    assert format_number(820, "GB/s") == "820 GB/s"


def test_no_unit_is_a_bare_number() -> None:
    assert format_number(16, "") == "16"


def test_negative_zero_prints_as_zero() -> None:
    assert format_number(-0.0, "") == "0"
    assert format_number(-0.001, "%", NumberFormat(2)) == "0.00%"
    assert format_number(-0.004, "USD", NumberFormat(2)) == "$0.00"


def test_negative_numbers_keep_their_sign() -> None:
    assert format_number(-1.25, "ms", NumberFormat(1)) == "-1.3 ms"


def test_huge_numbers_round_without_losing_precision() -> None:
    assert round_half_up(1e30, 2) == Decimal("1e30")
    assert format_number(1e20, "", NumberFormat(2)) == "100000000000000000000.00"


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_numbers_are_refused(number: float) -> None:
    with pytest.raises(ValueError, match="finite"):
        format_number(number, "")
    with pytest.raises(ValueError, match="finite"):
        round_half_up(number, 2)


@pytest.mark.parametrize(("spec", "expected"), [
    ("", NumberFormat()), (".2f", NumberFormat(2)), (".0f", NumberFormat(0)), ("+.1f", NumberFormat(1, True)),
    (" .1 ", NumberFormat(1)), ("+", NumberFormat(None, True)),
])
def test_format_specs_parse(spec: str, expected: NumberFormat) -> None:
    assert NumberFormat.parse(spec) == expected


@pytest.mark.parametrize("spec", [".f", "2f", ".123f", "%", ",.2f", "-.1f"])
def test_bad_format_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="not understood"):
        NumberFormat.parse(spec)


@pytest.mark.parametrize(("value", "text"), [
    (Decimal("2674.18956433"), "2674.2"),  # the advisor and the CSV once printed every digit
    (Decimal("1180.7"), "1180.7"),         # as published
    (Decimal("12048.659"), "12049"),       # integer digits are never cut
    (Decimal("0.99897385"), "0.99897"),
    (Decimal("1.50"), "1.50"),             # a published trailing zero stays
    (Decimal("100"), "100"),
    (2674.18956433, "2674.2"),
])
def test_one_display_rule_for_figures(value, text):
    assert shown_figure(value) == text


@pytest.mark.parametrize(("usd", "text"), [
    (9176.602, "$9,176.60"), (54.014, "$54.01"), (0.026, "$0.026"), (0.107, "$0.11"), (0.0034, "$0.0034"),
    (0.5, "$0.50"),
])
def test_one_display_rule_for_costs(usd, text):
    assert shown_cost(usd) == text


@pytest.mark.parametrize(("ratio", "text"), [
    (0.031, "+3.1%"), (-0.12, "-12.0%"), (0.0, "+0.0%"), (-0.00001, "+0.0%"), (0.0305, "+3.1%"), (1.5, "+150.0%"),
])
def test_a_change_between_releases_is_a_signed_percentage_with_one_decimal(ratio: float, text: str) -> None:
    assert shown_change(ratio) == text
