"""Derived claims: one test per expression function and per error."""

from __future__ import annotations

import math

import pytest

from neuron_docs.data import Catalog
from neuron_docs.data.figures.expressions import ExpressionError, Result, evaluate
from neuron_docs.data.figures.values import Value, build_values
from neuron_docs.data.figures.runs import cost_per_million

VALUES = {
    "run:a:throughput": Value(500.0, "inferences/s", "throughput of a"),
    "run:b:throughput": Value(400.0, "inferences/s", "throughput of b"),
    "run:a:p90_latency_ms": Value(9.0, "ms", "latency of a"),
    "accuracy:a:top1": Value(76.87, "%", "top-1 of a"),
    "accuracy:b:top1": Value(79.93, "%", "top-1 of b"),
    "instance:x.large:price": Value(0.5, "USD/h", "price of x.large"),
    "instance:x.large:peak": Value(3.4, "PFLOPS", "peak of x.large"),
    "instance:y.large:peak": Value(312.0, "TFLOPS", "peak of y.large"),
    "instance:x.large:vcpus": Value(8.0, "", "vCPUs of x.large"),
    "instance:zero:vcpus": Value(0.0, "", "nothing"),
}


def ev(expression: str) -> Result:
    return evaluate(expression, VALUES)


# Values and arithmetic --------------------------------------------------------------------------

def test_a_single_path_is_its_value() -> None:
    assert ev("run:a:throughput") == Result(500.0, "inferences/s", ("run:a:throughput",))


def test_paths_are_listed_once_in_order() -> None:
    assert ev("run:a:throughput + run:b:throughput - run:a:throughput").paths == (
        "run:a:throughput", "run:b:throughput")


def test_numbers_and_arithmetic() -> None:
    assert ev("2 * run:a:throughput / 4").number == 250.0
    assert ev("-run:a:throughput").number == -500.0
    assert ev("run:a:throughput + run:b:throughput") == Result(900.0, "inferences/s",
                                                              ("run:a:throughput", "run:b:throughput"))
    assert ev("run:a:throughput - run:b:throughput").number == 100.0
    # a figure times a plain number keeps the figure's unit, whichever comes first
    assert ev("run:a:throughput * 2").unit == "inferences/s" and ev("2 * run:a:throughput").unit == "inferences/s"


def test_dividing_figures_of_one_kind_converts_units_first() -> None:
    result = ev("instance:x.large:peak / instance:y.large:peak")
    assert result.number == pytest.approx(3400 / 312)
    assert result.unit == ""


# Functions ----------------------------------------------------------------------------------------

def test_diff() -> None:
    result = ev("diff(run:a:throughput, run:b:throughput)")
    assert (result.number, result.unit) == (100.0, "inferences/s")


def test_diff_of_percentages_is_in_percentage_points() -> None:
    result = ev("diff(accuracy:b:top1, accuracy:a:top1)")
    assert result.number == pytest.approx(3.06)
    assert result.unit == "pp"


def test_ratio() -> None:
    result = ev("ratio(run:a:throughput, run:b:throughput)")
    assert (result.number, result.unit) == (1.25, "x")


def test_ratio_converts_units() -> None:
    assert ev("ratio(instance:x.large:peak, instance:y.large:peak)").number == pytest.approx(3400 / 312)


def test_pct_more() -> None:
    result = ev("pct_more(run:a:throughput, run:b:throughput)")
    assert (result.number, result.unit) == (pytest.approx(25.0), "%")


def test_pct_less() -> None:
    result = ev("pct_less(run:b:throughput, run:a:throughput)")
    assert (result.number, result.unit) == (pytest.approx(20.0), "%")


def test_cost_per_1m() -> None:
    result = ev("cost_per_1m(instance:x.large:price, run:a:throughput)")
    assert result.unit == "USD"
    assert result.number == pytest.approx(cost_per_million(0.5, 500.0))
    assert result.number == pytest.approx(0.5 / (500 * 3600) * 1e6)


def test_abs() -> None:
    assert ev("abs(diff(run:b:throughput, run:a:throughput))").number == 100.0


def test_min_and_max() -> None:
    assert ev("min(run:a:throughput, run:b:throughput)").number == 400.0
    assert ev("max(run:a:throughput, run:b:throughput)").number == 500.0
    assert ev("max(instance:x.large:peak, instance:y.large:peak)").unit == "PFLOPS"
    assert ev("max(run:a:throughput)").number == 500.0  # one argument is enough


def test_units_are_compared_by_value() -> None:
    # a unit as a data file gives it: equal to the code's literal, not the same object
    values = {**VALUES, "run:c:throughput": Value(300.0, "".join(["inferences", "/s"]), "throughput of c")}
    assert evaluate("diff(run:a:throughput, run:c:throughput)", values).number == 200.0


def test_a_difference_of_counts_is_a_count() -> None:
    assert ev("diff(instance:x.large:vcpus, instance:zero:vcpus)").unit == ""


def test_a_result_is_immutable() -> None:
    from dataclasses import FrozenInstanceError
    with pytest.raises(FrozenInstanceError):
        ev("run:a:throughput").number = 0.0  # type: ignore[misc]


# Errors -------------------------------------------------------------------------------------------

def test_unknown_path() -> None:
    with pytest.raises(ExpressionError, match="unknown data value 'run:c:throughput'"):
        ev("run:c:throughput")


@pytest.mark.parametrize("expression", [
    "diff(run:a:throughput, run:a:p90_latency_ms)",
    "ratio(run:a:throughput, accuracy:a:top1)",
    "pct_more(run:a:throughput, run:a:p90_latency_ms)",
    "pct_less(run:a:throughput, run:a:p90_latency_ms)",
    "run:a:throughput + run:a:p90_latency_ms",
    "run:a:throughput - 1",
    "min(run:a:throughput, run:a:p90_latency_ms)",
])
def test_unit_mismatch(expression: str) -> None:
    with pytest.raises(ExpressionError, match="same unit"):
        ev(expression)


def test_cost_per_1m_needs_a_price_and_a_throughput() -> None:
    with pytest.raises(ExpressionError, match="USD/h"):
        ev("cost_per_1m(run:a:throughput, instance:x.large:price)")
    for other in ("run:a:p90_latency_ms", "instance:x.large:vcpus"):  # a throughput, but no price
        with pytest.raises(ExpressionError, match="USD/h"):
            ev(f"cost_per_1m({other}, run:a:throughput)")
    for other in ("run:a:p90_latency_ms", "accuracy:a:top1"):  # a price, but no throughput
        with pytest.raises(ExpressionError, match="inferences/s"):
            ev(f"cost_per_1m(instance:x.large:price, {other})")


def test_functions_take_plain_arguments() -> None:
    with pytest.raises(ExpressionError, match="takes plain arguments"):
        ev("diff(run:a:throughput, b=run:b:throughput)")
    with pytest.raises(ExpressionError, match="takes plain arguments"):
        ev("min(*run:a:throughput)")


def test_a_unit_mismatch_names_both_units() -> None:
    with pytest.raises(ExpressionError, match="diff[(][)] needs figures of the same unit, got inferences/s and a count"):
        ev("diff(run:a:throughput, instance:x.large:vcpus)")
    with pytest.raises(ExpressionError, match="got a count and ms"):
        ev("diff(instance:x.large:vcpus, run:a:p90_latency_ms)")


def test_multiplying_two_figures_with_units() -> None:
    with pytest.raises(ExpressionError, match="cannot multiply"):
        ev("run:a:throughput * run:a:p90_latency_ms")


@pytest.mark.parametrize("expression", [
    "run:a:throughput.__class__",
    "().__class__.__bases__[0]",
    "__import__('os').system('true')",
    "lambda: 1",
    "open('/etc/passwd')",
    "[1, 2]",
    "'text'",
    "True",
    "2 ** 10",
    "1 if 1 else 2",
    "x",
    "diff(a=run:a:throughput, b=run:b:throughput)",
    "__v0",
    "+1",
    "1j",
])
def test_disallowed_syntax(expression: str) -> None:
    with pytest.raises(ExpressionError):
        ev(expression)


def test_attribute_access_names_what_is_allowed() -> None:
    with pytest.raises(ExpressionError, match=r"only data paths, numbers, \+ - \* / and the functions"):
        ev("run:a:throughput.real")


def test_division_by_zero() -> None:
    with pytest.raises(ExpressionError, match="division by zero"):
        ev("run:a:throughput / 0")
    with pytest.raises(ExpressionError, match="division by zero"):
        ev("ratio(instance:x.large:vcpus, instance:zero:vcpus)")


@pytest.mark.parametrize(("expression", "message"), [
    ("diff(run:a:throughput)", "expected 2, got 1"),
    ("ratio(run:a:throughput, run:b:throughput, run:a:throughput)", "expected 2, got 3"),
    ("abs()", "expected 1, got 0"),
    ("min()", "expected at least 1, got 0"),
    ("max()", "expected at least 1, got 0"),
    ("pct_more(run:a:throughput)", "expected 2, got 1"),
    ("pct_less(run:a:throughput)", "expected 2, got 1"),
    ("pct_less(run:a:throughput, run:b:throughput, run:a:throughput)", "expected 2, got 3"),
    ("pct_more(run:a:throughput, run:b:throughput, run:a:throughput)", "expected 2, got 3"),
    ("cost_per_1m(instance:x.large:price)", "expected 2, got 1"),
    ("cost_per_1m(instance:x.large:price, run:a:throughput, run:b:throughput)", "expected 2, got 3"),
])
def test_wrong_argument_count(expression: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=f"wrong number of arguments.*{message}"):
        ev(expression)


def test_an_expression_of_the_longest_length_is_evaluated() -> None:
    assert ev(" " * 499 + "1").number == 1.0


def test_overly_long_expression() -> None:
    expression = " + ".join(["run:a:throughput"] * 40)
    assert len(expression) > 500
    with pytest.raises(ExpressionError, match="longer than 500 characters"):
        ev(expression)


def test_syntax_error() -> None:
    with pytest.raises(ExpressionError, match="cannot parse"):
        ev("diff(run:a:throughput,")


def test_empty_expression() -> None:
    with pytest.raises(ExpressionError, match="empty"):
        ev("   ")


def test_non_finite_result() -> None:
    with pytest.raises(ExpressionError, match="finite"):
        ev("1e308 * 10")
    with pytest.raises(ExpressionError):
        ev("9" * 400 + " * 1")


def test_expression_errors_are_value_errors() -> None:
    # Callers (the neuron:value role) catch ValueError.
    assert issubclass(ExpressionError, ValueError)


def test_real_claims_evaluate(catalog: Catalog) -> None:
    values = build_values(catalog)
    result = evaluate("pct_less(run:vit-inf1-b3:cost_per_1m, run:vit-g5-b128:cost_per_1m)", values)
    assert result.unit == "%"
    assert 0 < result.number < 100
    ratio = evaluate("ratio(instance:trn1.32xlarge:peak_bf16, instance:p4d.24xlarge:peak_bf16)", values)
    assert math.isclose(ratio.number, 3400 / (312 * 8))


def test_parse_warnings_do_not_leak(recwarn: pytest.WarningsRecorder) -> None:
    with pytest.raises(ExpressionError):
        ev("1if 2")
    assert not [w for w in recwarn if issubclass(w.category, SyntaxWarning)]


def test_unary_minus_before_a_path() -> None:
    assert ev("-run:a:throughput").number == -500.0
    assert ev("(-run:a:throughput)").number == -500.0
