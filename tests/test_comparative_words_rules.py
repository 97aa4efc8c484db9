"""Comparative words written from the data (``data/figures/comparative_words.py``, what
``:neuron:compare:`` prints) on figures built in the test: the operands and the word pair of a role's
text, the word true of A against B (faster for a time when lower, for a rate when higher), a
difference, a percentage, a ratio, and the figures shown in the tooltip. No data files, no Sphinx
(``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.comparative_words import compared, direction_word, parse, split_operands
from neuron_docs.data.figures.formatting import NumberFormat
from neuron_docs.data.figures.values import Value


def test_operands_are_split_at_commas_outside_parentheses() -> None:
    assert split_operands("a, pct_more(b, c)") == ["a", "pct_more(b, c)"]
    assert split_operands("max(a, b), min(c, d)") == ["max(a, b)", "min(c, d)"]
    assert split_operands("max(a, (b)), c") == ["max(a, (b))", "c"]
    assert split_operands(" a ,, b , ") == ["a", "b"]  # empty operands dropped, each stripped
    assert split_operands("a") == ["a"]
    assert split_operands("a), b") == ["a), b"]  # after a stray ")" a comma is not outside parentheses


def test_a_roles_text_is_two_operands_a_mode_a_format_and_two_words() -> None:
    assert parse("a, b | less/more") == ("a", "b", "word", "less/more", NumberFormat())
    assert parse("a, b | cheaper/more expensive") == ("a", "b", "word", "cheaper/more expensive", NumberFormat())
    assert parse("a,b|diff .2f less/more") == ("a", "b", "diff", "less/more", NumberFormat(2))
    assert parse("a, b | pct +.1f faster/slower") == ("a", "b", "pct", "faster/slower", NumberFormat(1, sign=True))
    assert parse("a, b | .0f lower/higher") == ("a", "b", "word", "lower/higher", NumberFormat(0))
    assert parse("a, b | times") == ("a", "b", "times", "", NumberFormat())
    assert parse("a, b | times .2f") == ("a", "b", "times", "", NumberFormat(2))


@pytest.mark.parametrize("text", [
    "a, b less/more",  # no bar
    "a | less/more",  # one operand
    "a, b, c | less/more",  # three
    "a, b |",  # no words
    "a, b | less",  # one word
    "a, b | diff",
    "a, b | pct .1f",
    "a, b | less/more/same",
])
def test_a_role_text_without_two_operands_and_two_words_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="expected"):
        parse(text)


def test_the_word_true_of_a_against_b() -> None:
    assert direction_word(1, 2, "", "less/more") == "less"
    assert direction_word(2, 1, "", "less/more") == "more"
    assert direction_word(1, 2, "USD", " cheaper / more expensive ") == "cheaper"
    assert direction_word(3, 3, "", "less/more") == "as much"
    # faster and slower read the unit: a time is faster when lower, a rate when higher
    assert direction_word(1, 2, "ms", "faster/slower") == "faster"
    assert direction_word(1, 2, "ms", "slower/faster") == "faster"
    assert direction_word(2, 1, "s", "faster/slower") == "slower"
    assert direction_word(1, 2, "inferences/s", "faster/slower") == "slower"
    assert direction_word(2, 1, "TFLOPS", "slower/faster") == "faster"
    assert direction_word(3, 3, "ms", "faster/slower") == "as fast as"
    assert direction_word(3, 3, "ms", "slower/faster") == "as fast as"
    assert direction_word(3, 3, "ms", "faster/quicker") == "as much"
    assert direction_word(3, 3, "ms", "faster/faster") == "as much"  # "as fast as" only for the pair
    assert direction_word(2, 1, "ms", "faster/faster") == "faster"  # any other pair: its own words


def v(number: float, unit: str, label: str, collection: str = "instances", source: str | None = None) -> Value:
    return Value(number, unit, label, source, collection=collection, record="r")


VALUES = {
    "instance:a:price": v(3.0, "USD/h", "Price of a"),
    "instance:b:price": v(1.0, "USD/h", "Price of b", "devices"),
    "instance:c:price": v(1.11, "USD/h", "Price of c"),
    "instance:d:price": v(2.0, "USD/h", "Price of d"),
    "instance:z:price": v(0.0, "USD/h", "Price of z"),
    "instance:n:price": v(-1.0, "USD/h", "Price of n"),
    "run:a:latency": v(0.5, "s", "Latency of a"),
    "run:b:latency": v(400.0, "ms", "Latency of b"),
    "run:c:latency": v(400.0, "ms", "Latency of c"),
    "run:a:top1": v(80.0, "%", "Top-1 of a"),
    "run:b:top1": v(76.4, "%", "Top-1 of b"),
    "run:a:speed": v(2.5, "x", "Speed of a"),
    "run:b:speed": v(1.25, "x", "Speed of b"),
    "run:a:memory": v(12.345, "GB", "Memory of a"),
    "run:b:memory": v(2.0, "GB", "Memory of b"),
    "run:a:cores": v(3.0, "", "Cores of a"),
    "run:a:gain": v(1.234, "pp", "Gain of a"),
    "run:b:gain": v(0.5, "pp", "Gain of b"),
    # a unit as a data file gives it: equal to the code's literal, not the same object
    "instance:r:price": v(2.0, "".join(["USD", "/h"]), "Price of r"),
}


def words(text: str) -> str:
    return compared(Catalog(data_dir=Path(".")), VALUES, text).text


def test_figures_are_compared_in_one_unit_of_their_dimension() -> None:
    # 0.5 s is 500 ms, more than 400 ms: slower
    assert words("run:a:latency, run:b:latency | faster/slower") == "slower"
    assert words("run:b:latency, run:a:latency | faster/slower") == "faster"
    assert words("run:a:latency, run:b:latency | diff .0f less/more") == "100 ms more"
    assert words("run:b:latency, run:c:latency | faster/slower") == "as fast as"
    assert words("instance:a:price, instance:b:price | cheaper/more expensive") == "more expensive"
    assert words("instance:r:price, instance:a:price | cheaper/more expensive") == "cheaper"


def test_figures_of_two_dimensions_are_not_compared() -> None:
    with pytest.raises(ValueError, match="is in ms and instance:a:price in USD/h: not comparable"):
        words("run:b:latency, instance:a:price | less/more")
    with pytest.raises(ValueError, match="run:a:cores is in no unit and run:b:latency in ms"):
        words("run:a:cores, run:b:latency | less/more")
    with pytest.raises(ValueError, match="run:b:latency is in ms and run:a:cores in no unit"):
        words("run:b:latency, run:a:cores | less/more")


def test_a_difference_at_the_declared_decimals_else_the_units_own() -> None:
    assert words("instance:c:price, instance:b:price | diff more/less") == "$0.11/h less"
    assert words("instance:b:price, instance:c:price | diff .1f less/more") == "$0.1/h less"
    assert words("run:a:top1, run:b:top1 | diff less/more") == "4 percentage points more"  # %: 0 decimals
    assert words("run:a:speed, run:b:speed | diff less/more") == "1.3x more"  # x: 1 decimal
    assert words("run:a:memory, run:b:memory | diff less/more") == "10.35 GB more"  # any other unit: 2
    assert words("run:a:gain, run:b:gain | diff less/more") == "0.73 percentage points more"  # pp: 2
    assert words("diff(instance:c:price, instance:b:price), diff(instance:b:price, instance:b:price)"
                 " | diff less/more") == "$0.11/h more"


def test_a_difference_of_two_percentages_is_in_percentage_points() -> None:
    # 80% against 76.4% is 3.6 percentage points more; "4% more" would be 4% of 76.4%, about 3 points
    assert words("run:a:top1, run:b:top1 | diff .1f less/more") == "3.6 percentage points more"
    assert words("run:b:top1, run:a:top1 | diff less/more") == "4 percentage points less"
    percent = "".join(["%"])  # as a file or the build's pickle gives it
    values = {"run:c:top1": v(81.0, percent, "Top-1 of c"), "run:d:top1": v(80.0, percent, "Top-1 of d")}
    shown = compared(Catalog(data_dir=Path(".")), values, "run:c:top1, run:d:top1 | diff less/more")
    assert shown.text == "1 percentage point more"  # one point, as people write it
    shown = compared(Catalog(data_dir=Path(".")), values, "run:c:top1, run:d:top1 | diff .1f less/more")
    assert shown.text == "1.0 percentage points more"
    assert words("run:a:top1, run:b:top1 | pct .0f less/more") == "5% more"  # a percentage of B stays a percentage


def test_a_difference_in_dollars_has_the_cents() -> None:
    values = {"instance:a:cost": v(0.5, "USD", "Cost of a"), "instance:b:cost": v(0.39, "USD", "Cost of b"),
              "instance:c:cost": v(0.4, "USD", "Cost of c")}
    catalog = Catalog(data_dir=Path("."))
    assert compared(catalog, values, "instance:a:cost, instance:b:cost | diff less/more").text == "$0.11 more"
    assert compared(catalog, values, "instance:b:cost, instance:c:cost | diff less/more").text == "$0.01 less"


def test_a_percentage_of_b() -> None:
    assert words("instance:a:price, instance:b:price | pct less/more") == "200% more"
    assert words("instance:b:price, instance:a:price | pct less/more") == "67% less"
    assert words("instance:b:price, instance:a:price | pct .1f cheaper/dearer") == "66.7% cheaper"
    assert words("run:b:latency, run:a:latency | pct faster/slower") == "20% faster"  # of 500 ms
    assert words("instance:a:price, instance:n:price | pct less/more") == "400% more"  # of a negative B: its size
    with pytest.raises(ValueError, match="a percentage of instance:z:price, which is zero"):
        words("instance:a:price, instance:z:price | pct less/more")


def test_a_ratio_as_times_as_much_or_percent_less() -> None:
    assert words("instance:a:price, instance:b:price | times") == "3.0 times as much as"
    assert words("run:a:memory, run:b:memory | times") == "6.2 times as much as"
    assert words("run:a:memory, run:b:memory | times .2f") == "6.17 times as much as"
    assert words("run:b:latency, run:c:latency | times") == "1.0 times as much as"
    assert words("instance:b:price, instance:a:price | times") == "67% less than"
    assert words("instance:b:price, instance:d:price | times") == "50% less than"
    assert words("run:b:latency, run:a:latency | times") == "20% less than"


@pytest.mark.parametrize("text", ["instance:a:price, instance:z:price | times",
                                  "instance:z:price, instance:a:price | times",
                                  "instance:a:price, instance:n:price | times",
                                  "instance:n:price, instance:a:price | times"])
def test_a_ratio_needs_two_positive_figures(text: str) -> None:
    with pytest.raises(ValueError, match="a ratio needs two positive figures"):
        words(text)


def test_the_tooltip_shows_both_figures_and_the_files_they_come_from() -> None:
    catalog = Catalog(data_dir=Path("."))
    shown = compared(catalog, VALUES, "instance:a:price, instance:b:price | diff .1f less/more")
    assert shown.text == "$2.0/h more"
    assert shown.explanation == "$3/h (Price of a.) against $1/h (Price of b.)"
    assert shown.classes == ("neuron-value", "neuron-compare")
    assert shown.files == tuple(sorted({catalog.file_of("instances"), catalog.file_of("devices")}))
    assert shown.expression == "instance:a:price, instance:b:price"
    assert shown.format == "diff .1f less/more"
    one_file = compared(catalog, VALUES, "instance:a:price, instance:c:price | less/more")
    assert one_file.files == (catalog.file_of("instances"),)
