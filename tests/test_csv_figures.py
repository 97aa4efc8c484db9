"""A figure's number and unit, as the code that prints it gives them
(:mod:`neuron_docs.data.figures.formatting`), are what reading the printed words back gives
(:func:`~neuron_docs.site.downloads.table_csv.quantity`)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import example, given, settings
from hypothesis import strategies as st

from neuron_docs.data.figures.formatting import (change_value, cost_value, figure_value, memory_figure,
                                                 parameters_figure, plain_value, shown_change, shown_cost,
                                                 shown_figure, shown_memory, shown_parameters, shown_price)
from neuron_docs.site.downloads.table_csv import quantity

_decimals = st.decimals(min_value=Decimal("-1e22"), max_value=Decimal("1e22"), allow_nan=False, allow_infinity=False,
                        places=None).filter(lambda d: d.as_tuple().exponent > -25)
_floats = st.floats(min_value=-1e22, max_value=1e22, allow_nan=False, allow_infinity=False)


def _read(words: str, unit: str = "") -> float | None:
    """The number read back from ``words`` when they are a figure in ``unit``, else None."""
    found = quantity(words)
    return found[0] if found is not None and found[1] == unit else None


@settings(max_examples=150, deadline=None)
@given(st.one_of(_decimals, _floats))
@example(Decimal("154.30"))
@example(Decimal("2674.18956433"))
@example(-0.0001)
@example(1e-16)
@example(2e16)
def test_a_figure_gives_the_number_it_prints(value: Decimal | float) -> None:
    assert figure_value(value) == _read(shown_figure(value))


@settings(max_examples=150, deadline=None)
@given(st.one_of(_decimals, _floats).filter(lambda usd: usd >= 0))  # the data has no negative price or cost
@example(Decimal("9176.6"))
@example(0.026)
@example(0.0003)
def test_a_cost_and_a_price_give_the_number_they_print(usd: Decimal | float) -> None:
    assert cost_value(usd) == _read(shown_cost(usd), "USD")
    assert plain_value(float(usd)) == _read(shown_price(usd), "USD/h")


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
@example(0.0)
@example(-0.0004)
@example(0.031)
def test_a_change_gives_the_percentage_it_prints(ratio: float) -> None:
    assert change_value(ratio) == _read(shown_change(ratio), "%")


@given(st.integers(min_value=0, max_value=10**16))
def test_a_size_and_a_parameter_count_give_the_number_and_unit_they_print(count: int) -> None:
    number, unit = memory_figure(count)
    assert quantity(shown_memory(count)) == (number, unit)
    number, unit = parameters_figure(count)
    assert quantity(shown_parameters(count)) == (number, unit)

