"""A figure's number and unit, given to its table's CSV by the code that prints it
(:mod:`neuron_docs.data.figures.formatting`), are what reading the printed words back would give
(:func:`~neuron_docs.site.downloads.table_csv.quantity`): the CSV of a generated table parses nothing,
and says what it said when it did."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from hypothesis import example, given, settings
from hypothesis import strategies as st

from neuron_docs.data.figures.formatting import (change_value, cost_value, figure_value, memory_figure,
                                                 parameters_figure, plain_value, shown_change, shown_cost,
                                                 shown_figure, shown_memory, shown_parameters, shown_price)
from neuron_docs.node_data import CSV_ROWS
from neuron_docs.render.table_model import TableCell, TableModel, measure, text
from neuron_docs.site.downloads.table_csv import quantity, table_csv

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


def _csv(model: TableModel, *, read_back: bool = False) -> list[list[str]]:
    table = model.table()
    if read_back:  # as if the table had no model: its cells read and their figures parsed
        CSV_ROWS.pop(table, None)
    return list(csv.reader(io.StringIO(table_csv(table))))


def test_a_models_figures_are_taken_as_given_and_its_words_never_parsed() -> None:
    """A column of a model's figures becomes numbers, its unit in the header (in a column of its own
    when the figures have several); words without a figure stay words, though they look like one
    (read back from the cells, ``1,024`` would be parsed into a number)."""
    model = TableModel(["Memory", "Count", "Price"])
    model.add([TableCell("17.2 GB", "17.2 GB", (17.2, "GB")), text("1,024"),
               TableCell("$0.36/h", "$0.36/h", (0.36, "USD/h"))])
    model.add([TableCell("1.65 TB", "1.65 TB", (1.65, "TB")), text("8"), TableCell("", "")])
    assert _csv(model) == [["Memory", "Memory unit", "Count", "Price (USD/h)"],
                           ["17.2", "GB", "1,024", "0.36"], ["1.65", "TB", "8", ""]]
    assert _csv(model, read_back=True)[1] == ["17.2", "GB", "1024", "0.36"]


def test_a_figure_in_a_unit_of_several_words_is_a_number_too() -> None:
    """The fix of the measured models' CSV of decoders: a throughput in ``output tokens/s`` is a number
    with its unit beside it, as one in ``inferences/s`` is; read back from its printed words it stayed
    words, the unit's space ending what the parser takes for a unit."""
    model = TableModel(["Model", "Best throughput"])
    model.add([text("Llama-3-8B"), measure(Decimal("859.09"), "output tokens/s")])
    model.add([text("BERT base"), measure(Decimal("2674.18956433"), "inferences/s")])
    assert _csv(model) == [["Model", "Best throughput", "Best throughput unit"],
                           ["Llama-3-8B", "859.09", "output tokens/s"], ["BERT base", "2674.2", "inferences/s"]]
    assert _csv(model, read_back=True)[1] == ["Llama-3-8B", "859.09 output tokens/s"]
