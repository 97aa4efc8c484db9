"""How figures are written: one test per rounding and format rule."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from helpers.numbers import number_of, same_number
from neuron_docs.data.figures.formatting import (NumberFormat, change_value, cost_value, display_number, figure_value,
                                                 format_number, memory_figure, parameters_figure, plain_number,
                                                 plain_value, round_half_up, scientific, shown_change, shown_cost,
                                                 shown_cost_number, shown_figure, shown_measure, shown_memory,
                                                 shown_parameters, shown_price)


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


# -- edges written for the mutants make mutation left alive (tests/MUTATION.md) -------------------

def test_scientific_notation_keeps_the_typed_mantissa_or_rounds_it() -> None:
    assert scientific(1.5e40) == "1.5 × 10⁴⁰"
    assert scientific(1.5e-20) == "1.5 × 10⁻²⁰" and scientific(-1.5e-20) == "-1.5 × 10⁻²⁰"
    assert scientific(1.5e40, NumberFormat(2)) == "1.50 × 10⁴⁰"
    assert scientific(-1.5e40, NumberFormat(2)) == "-1.50 × 10⁴⁰"
    assert scientific(1.5e40, NumberFormat(None, True)) == "+1.5 × 10⁴⁰"
    assert scientific(9.994e40, NumberFormat(2)) == "9.99 × 10⁴⁰"
    assert scientific(9.999e40, NumberFormat(2)) == "1.00 × 10⁴¹"  # rounds up to the next power of ten
    assert scientific(2.0) == "2" and scientific(0.0) == "0"  # no "× 10⁰"
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite"):
            scientific(bad)


def test_only_absurd_magnitudes_are_written_in_scientific_notation() -> None:
    assert format_number(1.5e40, "USD", NumberFormat(2)) == "$1.50 × 10⁴⁰"
    assert format_number(1.5e17, "%") == "1.5 × 10¹⁷ %"
    assert format_number(1.5e17, "x") == "1.5 × 10¹⁷ x"
    assert format_number(1.5e17, "ms") == "1.5 × 10¹⁷ ms"
    assert format_number(1e21, "", NumberFormat(0)) == "1 × 10²¹"
    assert format_number(9.99e20, "", NumberFormat(0)) == "999000000000000000000"
    assert format_number(1e16, "") == "1 × 10¹⁶"
    assert format_number(999999999999999.0, "") == "999999999999999"
    # Integral values are bare below 1e15 (the bound of the CSV writer too); from it on, as Python writes them.
    assert plain_number(1e15) == "1000000000000000.0" and plain_number(2e15) == "2000000000000000.0"
    assert format_number(2.5e12, "") == "2500000000000"
    assert format_number(1.5e-16, "") == "1.5e-16"  # tiny: Python's exponent form, never "× 10⁻¹⁶"
    assert format_number(1.5e40, "") == "1.5 × 10⁴⁰"  # as typed, no decimals declared
    assert plain_number(1.5e40, NumberFormat(2)) == "1.50e+40"  # machine-readable, not forty digits
    assert plain_number(1e21, NumberFormat(2)) == "1.00e+21"  # from SCIENTIFIC_FROM on


def test_plain_numbers_are_positional_down_to_1e_15() -> None:
    assert plain_number(1e-15) == "0.000000000000001"
    assert plain_number(0.000000001) == "0.000000001"
    assert plain_number(0.5) == "0.5" and plain_number(1.25) == "1.25" and plain_number(1.0) == "1"
    assert plain_number(-0.0001, NumberFormat(2)) == "0.00"  # rounds to zero: no minus sign
    assert plain_number(-0.5, NumberFormat(0)) == "-1"
    assert plain_number(0.25, NumberFormat(None, True)) == "+0.25"
    assert plain_number(0.0, NumberFormat(None, True)) == "+0"


def test_display_number_writes_nan_and_infinity() -> None:
    assert display_number(float("nan"), "ms") == "NaN ms"
    assert display_number(float("inf"), "ms") == "∞ ms"
    assert display_number(float("-inf"), "USD") == "-$∞"
    assert display_number(float("inf"), "%", NumberFormat(1, True)) == "+∞%"
    assert display_number(2.5, "ms") == "2.5 ms"
    assert shown_change(float("inf")) == "+∞%"


def test_shown_figures_costs_and_prices() -> None:
    assert shown_measure(Decimal("2674.18956433"), "inferences/s") == "2674.2 inferences/s"
    assert shown_figure(float("nan")) == "NaN" and shown_figure(Decimal("Infinity")) == "∞"
    assert shown_figure(Decimal("0")) == "0" and shown_figure(0) == "0" and shown_figure(12) == "12"
    assert shown_figure(Decimal("0.000")) == "0" and shown_figure(0.0) == "0"  # zero has no significant digit
    assert shown_figure(0.1) == "0.1" and shown_figure(0.3) == "0.3"  # a float's digits as typed, not its binary value
    assert shown_figure(Decimal("1.23456789")) == "1.2346"
    assert shown_figure(Decimal("0.000123456")) == "0.00012346"
    assert shown_figure(Decimal("123456.7")) == "123457"
    assert shown_cost(float("inf")) == "$∞"
    assert shown_cost(1.0) == "$1.00" and shown_cost(0.999) == "$1.00" and shown_cost(0) == "$0.00"
    assert shown_cost(-1234.5) == "-$1,234.50"
    assert shown_cost(1234.5, "USD/h") == "$1,234.50/h"
    assert shown_cost(1.5e40) == "$1.50 × 10⁴⁰"
    assert shown_cost(Decimal("0.0034")) == "$0.0034"
    assert shown_cost_number(9176.602) == "9176.60" and shown_cost_number(0.026) == "0.026"
    assert shown_price(0.7582) == "$0.7582/h" and shown_price(24.78) == "$24.78/h"


@pytest.mark.parametrize(("size", "text"), [
    (17_200_000_000, "17.2 GB"), (440_000_000, "440 MB"), (1_650_000_000_000, "1.65 TB"), (999, "999 B"),
    (0, "0 B"), (-5, "0 B"), (1000, "1 kB"), (1_005, "1.01 kB"), (1_004, "1 kB"), (9_995, "10 kB"),
    (9_950, "9.95 kB"), (10_000, "10 kB"), (10_050, "10.1 kB"), (99_500, "99.5 kB"), (99_950, "100 kB"), (100_000, "100 kB"), (100_500, "101 kB"),
    (12_345_678_901_234_567, "12346 TB")])
def test_a_memory_size_has_three_significant_digits_in_its_largest_unit(size: int, text: str) -> None:
    assert shown_memory(size) == text


def test_a_parameter_count_is_written_as_model_cards_do() -> None:
    assert [shown_parameters(n) for n in (8e9, 46.7e9, 110e6, 11.7e6, 1.5e12, 1234, 999.6, 7, 1, 0.4, -3)] == \
        ["8B", "46.7B", "110M", "11.7M", "1.5T", "1.23K", "1K", "7", "1", "0", "0"]


def test_rounding_half_up_of_ints_and_large_numbers() -> None:
    assert round_half_up(5, 0) == Decimal(5) and round_half_up(True, 0) == Decimal(1)
    assert round_half_up(2**53 + 1, 0) == Decimal(2**53 + 1)  # an int keeps every digit (a float would not)
    assert round_half_up(1e30, 0) == Decimal("1e30")  # 31 digits: the precision follows the number
    assert round_half_up(2.5, 0) == Decimal(3) and round_half_up(0.125, 2) == Decimal("0.13")
    assert str(round_half_up(123456789012345678901234567890.0, 2)) == "123456789012345680000000000000.00"
    assert NumberFormat.parse("+.12f") == NumberFormat(12, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        NumberFormat(2).decimals = 3  # type: ignore[misc]


# The numbers the printed figures are made from (`*_value`, `*_figure`): what a CSV or a chart holds ----






@pytest.mark.parametrize("number", [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, 2.5, -2.675, 0.125, 1e-5, -1e-5, 1e-15,
                                    2e-15, 9e-16, 1e-16, 0.3, 123.456, 999_999.5, 1e15 - 1, 1e15, 1e15 + 2.5, 1e16,
                                    -1e16, 2**53 + 2, 1e20, 9.99e20, 1e21, 1e22, -1e22, 1.5e40, 7, -7, 10**17])
@pytest.mark.parametrize("fmt", [NumberFormat(), NumberFormat(0), NumberFormat(2), NumberFormat(1, sign=True)])
def test_a_plain_value_is_the_number_the_text_shows(number: float, fmt: NumberFormat) -> None:
    assert same_number(plain_value(number, fmt), number_of(plain_number(number, fmt))), (number, fmt)


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_no_plain_value_of_nan_or_infinity(number: float) -> None:
    assert plain_value(number) is None and plain_value(number, NumberFormat(2)) is None
    assert figure_value(number) is None and cost_value(number) is None and change_value(number) is None
    assert figure_value(Decimal(str(number))) is None and cost_value(Decimal(str(number))) is None


def test_plain_values_by_hand() -> None:
    assert plain_value(1e-5) == 1e-05 and plain_value(1e-16) is None and plain_value(1e16) is None
    assert plain_value(1e15) == 1e15 and plain_value(1e20) is None and plain_value(1e21) is None and plain_value(5e21) is None
    assert plain_value(1e21, NumberFormat(2)) is None and plain_value(9.99e20, NumberFormat(0)) == 9.99e20
    assert plain_value(1e20, NumberFormat(1)) == 1e20
    assert plain_value(0.5) == 0.5 and plain_value(-0.5) == -0.5 and plain_value(-2.5, NumberFormat(0)) == -3.0
    assert same_number(plain_value(-0.04, NumberFormat(1)), 0.0) and same_number(plain_value(-0.0), 0.0)
    assert plain_value(1.005, NumberFormat(2)) == 1.01 and plain_value(7) == 7.0


@pytest.mark.parametrize("value", [Decimal("2674.18956433"), Decimal("1180.7"), Decimal("12048.659"), 0.1, 0.3, 12,
                                   0, Decimal("0.000"), Decimal("-0.00001"), Decimal("0.000123456"), -5.5,
                                   Decimal("1E+3"), Decimal("2.5E+2"), Decimal("123456.7"), 1e16, 1e25, 3e-17,
                                   Decimal("-12.34567")])
def test_a_figures_value_is_the_number_shown(value: Decimal | float) -> None:
    assert same_number(figure_value(value), number_of(shown_figure(value))), value


@pytest.mark.parametrize("usd", [Decimal("9176.6"), 9176.6, 0.0263, Decimal("0.02649"), 0.18735, 1, 0.999, -1.005,
                                 Decimal("-0.0012345"), 0, Decimal("1234567.891"), 1e25, 0.00000012, 2.5])
def test_a_costs_value_is_the_number_shown(usd: Decimal | float) -> None:
    assert same_number(cost_value(usd), number_of(shown_cost(usd))), usd
    if cost_value(usd) is not None and usd >= 0:  # (a negative cost, which no data has, keeps its "$")
        assert cost_value(usd) == float(shown_cost_number(usd))


@pytest.mark.parametrize("ratio", [0.031, -0.12, 0.0, -0.0004, 0.00049, 1.5, -0.99949, 1e18, 2.0, 0.5])
def test_a_changes_value_is_the_percentage_shown(ratio: float) -> None:
    assert same_number(change_value(ratio), number_of(shown_change(ratio))), ratio


def test_values_by_hand() -> None:
    assert figure_value(Decimal("2674.18956433")) == 2674.2 and figure_value(Decimal("12048.659")) == 12049.0
    assert figure_value(1.5) == 1.5 and figure_value(Decimal("1E+3")) == 1000.0
    assert cost_value(Decimal("9176.6")) == 9176.6 and cost_value(0.0263) == 0.026 and cost_value(2.5) == 2.5
    assert change_value(0.031) == 3.1 and change_value(-0.12) == -12.0 and change_value(2.0) == 200.0
    assert same_number(change_value(-0.0004), 0.0)


@pytest.mark.parametrize("size", [0, -5, 1, 7, 999, 1000, 9_949, 9_950, 99_499, 99_500, 100_000, 440_000_000,
                                  17_179_869_184, 1_649_267_441_664, 10**15, 2**70, 12.7])
def test_a_memory_figure_is_the_number_and_unit_shown(size: int) -> None:
    text = shown_memory(size)  # type: ignore[arg-type]
    number, unit = text.split(" ")
    assert memory_figure(size) == (float(number), unit)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [0, -3, 0.4, 0.6, 1, 7, 999.6, 1234, 8e9, 46.7e9, 110e6, 11.7e6, 1.5e12, 2.5e15])
def test_a_parameter_figure_is_the_number_and_unit_shown(count: float) -> None:
    text = shown_parameters(count)
    unit = text.lstrip("0123456789.")
    assert parameters_figure(count) == (float(text.removesuffix(unit)), unit)


def test_figures_by_hand() -> None:
    assert memory_figure(17_179_869_184) == (17.2, "GB") and memory_figure(0) == (0.0, "B")
    assert memory_figure(-1) == (0.0, "B") and memory_figure(1_649_267_441_664) == (1.65, "TB")
    assert parameters_figure(46.7e9) == (46.7, "B") and parameters_figure(0) == (0.0, "")
    assert parameters_figure(-2) == (0.0, "") and parameters_figure(7) == (7.0, "")


def test_one_percentage_point_is_singular_whatever_its_sign() -> None:
    """The display rule writes one point as people write it; other amounts keep the plural."""
    assert format_number(1, "pp") == "1 percentage point"
    assert format_number(-1, "pp") == "-1 percentage point"
    assert format_number(1, "pp", NumberFormat(sign=True)) == "+1 percentage point"
    assert format_number(1, "pp", NumberFormat(1)) == "1.0 percentage points"
    assert format_number(11, "pp") == "11 percentage points"
