"""Rules that hold for any data, checked on data hypothesis makes (issue 37, 3).

The display rule (:mod:`neuron_docs.data.figures.formatting`): a figure shown and read back is the
figure at the precision shown; a published figure within the significant digits the rule keeps comes
back exactly. A change between releases is better or worse by its metric's direction
(:func:`~neuron_docs.data.published.history_view.lower_is_better`, ``SincePrevious.better``). Every id
of a page is on one element once the page's ids are made unique (:mod:`neuron_docs.site.ids`).
(Since-when is the first revision with the current cell: ``tests/test_seeded_bugs.py``.)
"""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace

from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers.numbers import number_of, same_number
from neuron_docs.data.figures.formatting import (SIGNIFICANT_DIGITS, NumberFormat, change_value, cost_value,
                                                 figure_value, plain_number, plain_value, round_half_up, shown_change,
                                                 shown_cost, shown_cost_number, shown_figure)
from neuron_docs.data.published.history_view import SincePrevious, lower_is_better
from neuron_docs.data.records.published import PublishedInferenceRun, PublishedTrainingRun
from neuron_docs.render.tables import unique_id
from neuron_docs.site.ids import unique_ids

#: Published figures: up to 9 digits, up to 3 decimals, as the tables type them.
figures = st.builds(lambda digits, exponent: Decimal(digits).scaleb(-exponent),
                    st.integers(min_value=0, max_value=999_999_999), st.integers(min_value=0, max_value=3))


def _read(text: str) -> Decimal:
    return Decimal(text.replace(",", "").replace("$", ""))


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


@settings(max_examples=120)
@given(figures)
def test_a_figure_shown_reads_back_as_the_figure_at_the_precision_shown(value: Decimal) -> None:
    shown = shown_figure(value)
    places = _decimals(shown)
    assert places <= max(-value.as_tuple().exponent, 0)  # never more decimals than published
    assert _read(shown) == round_half_up(float(value), places)
    assert abs(_read(shown) - value) <= Decimal(5).scaleb(-places - 1)
    digits = len(value.normalize().as_tuple().digits)
    if digits <= SIGNIFICANT_DIGITS or value >= 10 ** SIGNIFICANT_DIGITS and value == value.to_integral_value():
        assert _read(shown) == value  # within the digits kept, every published digit comes back


@settings(max_examples=100)
@given(figures)
def test_a_float_figure_is_shown_as_its_decimal(value: Decimal) -> None:
    """The data's float holds the figure the JSON keeps: shown the same as its published Decimal."""
    assert shown_figure(float(value)) == shown_figure(Decimal(repr(float(value))))


@settings(max_examples=120)
@given(figures)
def test_a_cost_is_shown_to_the_cent_or_two_significant_digits(value: Decimal) -> None:
    shown, number = shown_cost(value), shown_cost_number(value)
    assert shown.startswith("$") and _read(shown) == _read(number)
    if value >= 1:
        assert _decimals(number) == 2 and _read(number) == round_half_up(float(value), 2)
    elif value:
        assert _decimals(number) >= 2
        back = _read(number)
        assert abs(back - value) <= Decimal(5).scaleb(-_decimals(number) - 1)
        assert len(back.normalize().as_tuple().digits) <= 2
    if value >= 1000:
        assert "," in shown


@given(st.floats(min_value=-0.99, max_value=10, allow_nan=False))
def test_a_change_is_signed_and_read_back_to_a_tenth_of_a_percent(ratio: float) -> None:
    shown = shown_change(ratio)
    assert shown[0] in "+-" and shown.endswith("%")
    assert abs(float(shown.rstrip("%")) - ratio * 100) <= 0.05 + 1e-9






@settings(max_examples=150, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e25, max_value=1e25)
       | st.floats(min_value=1e-18, max_value=1e-12) | st.integers(-10**18, 10**18),
       st.sampled_from([NumberFormat(), NumberFormat(0), NumberFormat(1), NumberFormat(3, sign=True)]))
def test_any_plain_value_is_the_number_its_text_shows(number: float, fmt: NumberFormat) -> None:
    assert same_number(plain_value(number, fmt), number_of(plain_number(number, fmt))), (number, fmt)


@settings(max_examples=100)
@given(figures, st.booleans())
def test_the_value_of_a_figure_or_cost_is_the_number_shown(value: Decimal, negative: bool) -> None:
    """What a CSV or chart holds of a figure is the number its text shows (issue 37, 3)."""
    value = -value if negative else value
    assert same_number(figure_value(value), number_of(shown_figure(value)))
    assert same_number(cost_value(value), number_of(shown_cost(value)))
    assert same_number(change_value(float(value) / 100), number_of(shown_change(float(value) / 100)))


#: Every metric of a published run, by its field: a latency (``_ms``) is better lower, a throughput higher.
METRICS = [name for model in (PublishedInferenceRun, PublishedTrainingRun) for name in model.model_fields
           if name.endswith(("_ms", "_per_s", "_per_second", "_per_sec"))
           or name.startswith(("throughput", "latency", "ttft", "tpot"))]


def test_the_direction_of_every_metric_is_its_meaning() -> None:
    assert METRICS
    for metric in METRICS:
        latency = metric.endswith("_ms") or metric.startswith(("latency", "ttft", "tpot"))
        assert lower_is_better(metric) is latency, metric


@given(metric=st.sampled_from(METRICS), value=figures, previous=figures)
def test_a_change_is_better_when_it_moves_the_way_its_metric_wants(metric: str, value: Decimal,
                                                                    previous: Decimal) -> None:
    assume(previous > 0)
    change = SincePrevious("c", metric, value, "2.20.0", previous, "2.19.0")
    if value == previous:
        assert change.better is None
    else:
        assert change.better is ((value < previous) if lower_is_better(metric) else (value > previous))
        assert (change.ratio > 0) is (value > previous)


# -- every id of a page is unique ----------------------------------------------------------------

_anchors = st.sampled_from(["a", "b", "a-2", "a-table", "family-encoder", "family-encoder-inferentia", "x"])


@given(st.lists(_anchors, max_size=30), st.sets(_anchors, max_size=4))
def test_unique_id_never_gives_an_id_twice(wanted: list[str], taken: set[str]) -> None:
    before = set(taken)
    given_ids = [unique_id(w, taken) for w in wanted]
    assert len(set(given_ids)) == len(given_ids)
    assert not set(given_ids) & before
    for want, got in zip(wanted, given_ids, strict=True):
        assert got == want or (got.startswith(want + "-") and got.rpartition("-")[2].isdigit())


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["section", "table", "paragraph"]),
                          st.lists(_anchors, min_size=1, max_size=2, unique=True), st.booleans()),
                min_size=1, max_size=12),
       st.lists(_anchors, max_size=4))
def test_every_id_of_a_page_is_on_one_element(elements: list[tuple[str, list[str], bool]], links: list[str]) -> None:
    document = new_document("page", get_default_settings(Parser))
    made: list[nodes.Element] = []
    for kind, anchors, generated in elements:
        node = {"section": nodes.section, "table": nodes.table, "paragraph": nodes.paragraph}[kind]()
        node["ids"] = list(anchors)
        if kind == "table" and generated:
            node["classes"].append("neuron-table")
        document += node
        made.append(node)
    for anchor in links:
        paragraph = nodes.paragraph()
        paragraph += nodes.reference("", anchor, refid=anchor)
        document += paragraph
    counts = [len(node["ids"]) for node in made]
    unique_ids(SimpleNamespace(builder=SimpleNamespace(format="html")), document)  # type: ignore[arg-type]
    every = [anchor for node in document.findall(nodes.Element) for anchor in node["ids"]]
    assert len(every) == len(set(every)), every
    assert [len(node["ids"]) for node in made] == counts  # no element loses an id
    for reference in document.findall(nodes.reference):
        if any(reference["refid"] == a for _kind, anchors, _g in elements for a in anchors):
            assert reference["refid"] in every  # a same-page link still lands on an element


# -- a CSV cell is never a spreadsheet formula ----------------------------------------------------

#: OWASP's formula starts, written out here (not read from table_csv.FORMULA_STARTS: a start dropped
#: from it must fail this test, not shrink it).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@given(st.sampled_from(FORMULA_STARTS), st.text(max_size=12) | st.from_regex(r"\A[0-9]{1,4}(\.[0-9]{0,3})?([eE][+-]?[0-9])?\Z"))
def test_every_formula_start_is_neutralised_unless_the_cell_is_a_plain_number(start: str, rest: str) -> None:
    from neuron_docs.site.downloads.table_csv import neutralised

    cell = start + rest
    plain = re.fullmatch(r"[+-](?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", cell) is not None
    out = neutralised(cell)
    if plain:
        assert out == cell
    else:
        assert out == "'" + cell


@given(st.text(max_size=12).filter(lambda t: not t.startswith(FORMULA_STARTS)))
def test_any_other_cell_is_kept(cell: str) -> None:
    from neuron_docs.site.downloads.table_csv import neutralised

    assert neutralised(cell) == cell
