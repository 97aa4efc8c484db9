"""What a figure measures (``drift/quantities.py``) and the units pint converts (``drift/units.py``): the
quantity of a data path's field or label, the words prose names a quantity with and which of them a
figure takes (its clause, its sentence, its heading's most specific word, a count's unit), which units
a quantity's values can be written in, base units and their factors, counts as prose writes them.
Texts, paths and spans built in the test; no catalog, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import pytest

from neuron_docs.drift import quantities
from neuron_docs.drift.quantities import base_unit, compatible, counted, mentioned, of_field, of_figure, of_path
from neuron_docs.drift.units import to_base


def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


# --- counts -----------------------------------------------------------------------------------------

def test_a_count_of_one_is_written_in_the_singular() -> None:
    assert counted(1.0, "chips") == "chip"
    assert counted(1, made("vCPUs")) == "vCPU"
    assert [counted(n, "chips") for n in (0, 0.5, 2, 16)] == ["chips"] * 4
    # Only the units counts are written in lose their plural.
    assert counted(1, "ms") == "ms"
    assert counted(1, "TFLOPS") == "TFLOPS"


# --- base units -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("unit", "base"), [
    ("ms", ("ms", 1.0)), ("s", ("ms", 1000.0)), ("us", ("ms", 0.001)), ("TB", ("GB", 1000.0)),
    ("GB", ("GB", 1.0)), ("GiB", ("GB", 1.073741824)), ("GiB/s", ("GB/s", 1.073741824)), ("TB/s", ("GB/s", 1000.0)),
    ("PFLOPS", ("TFLOPS", 1000.0)), ("USD/h", ("USD/h", 1.0)), ("%", ("%", 1.0)),
])
def test_the_base_unit_of_a_unit_and_its_factor(unit: str, base: tuple[str, float]) -> None:
    got = base_unit(made(unit))
    assert got[0] == base[0]
    assert got[1] == pytest.approx(base[1], rel=1e-12)


def test_a_scaled_unit_is_scaled_then_converted(monkeypatch: pytest.MonkeyPatch) -> None:
    # A unit of UNIT_SCALE whose scaled unit converts further: both factors, multiplied.
    monkeypatch.setitem(quantities.UNIT_SCALE, "ks", ("s", 2.0))
    assert base_unit("ks") == ("ms", 2000.0)
    # One whose scaled unit converts no further: its own factor.
    monkeypatch.setitem(quantities.UNIT_SCALE, "hGB", ("GB", 3.0))
    assert base_unit("hGB") == ("GB", 3.0)


@pytest.mark.parametrize(("unit", "base"), [
    ("GiB", ("GB", 1.073741824)), ("MiB", ("GB", 0.001048576)), ("kB", ("GB", 1e-6)), ("TB", ("GB", 1000.0)),
    ("GiB/s", ("GB/s", 1.073741824)), ("TB/s", ("GB/s", 1000.0)), ("PFLOPS", ("TFLOPS", 1000.0)),
    ("GFLOPS", ("TFLOPS", 0.001)), ("POPS", ("TOPS", 1000.0)), ("GOPS", ("TOPS", 0.001)),
])
def test_pint_converts_bytes_bandwidth_flops_and_ops(unit: str, base: tuple[str, float]) -> None:
    got = to_base(made(unit))
    assert got is not None
    assert got[0] == base[0]
    assert got[1] == pytest.approx(base[1], rel=1e-12)


@pytest.mark.parametrize("unit", ["GB", "GB/s", "TFLOPS", "TOPS", "ms", "USD", "%", "chips", "GiBs", "xGB"])
def test_a_base_unit_or_a_unit_pint_is_not_asked_about_gives_none(unit: str) -> None:
    assert to_base(made(unit)) is None


# --- which units a quantity's values take -----------------------------------------------------------

def test_percentages_ratios_and_points_go_with_any_quantity() -> None:
    for unit in ("%", "x", "pp"):
        assert compatible("latency", made(unit))
        assert compatible("memory", made(unit))


@pytest.mark.parametrize(("quantity", "unit", "expected"), [
    ("latency", "ms", True), ("latency", "GB", False), ("latency", "USD", False), ("memory", "ms", False),
    ("memory", "GB", True), ("memory", "Gbps", False), ("memory", "GB/s", False), ("price", "USD/h", True),
    ("price", "USD", False), ("cost", "USD", True), ("cost", "USD/h", False), ("throughput", "inferences/s", True),
    ("fp32", "TFLOPS", True), ("int8", "TFLOPS", False), ("int8", "TOPS", True),
    # A bandwidth is written in either unit of bandwidth.
    ("memory_bandwidth", "GB/s", True), ("memory_bandwidth", "Gbps", True), ("network_bandwidth", "GB/s", True),
    ("network_bandwidth", "Gbps", True), ("memory_bandwidth", "GB", False), ("dma_bandwidth", "ms", False),
    # A quantity of no known unit takes any unit.
    ("no_such_quantity", "GB", True), ("no_such_quantity", "ms", True),
    ("device_count", "chips", True), ("device_count", "vCPUs", False),
])
def test_the_units_a_quantity_is_written_in(quantity: str, unit: str, expected: bool) -> None:
    assert compatible(quantity, made(unit)) is expected


# --- the quantity of a data path ----------------------------------------------------------------------

@pytest.mark.parametrize(("path", "expected"), [
    ("instances:inf2-big:price", "price"), ("devices:chip-x:memory_bandwidth", "memory_bandwidth"),
    ("published_models:bert:runs:0:p90_latency_ms", "latency"), ("models:bert:top1", "accuracy"),
    ("price", None),  # no kind: the whole path is the kind
    ("instances:inf2-big:batch_size", None),  # a field of no quantity
    ("instances:inf2-big:no_such_field", None),
    ("claim:some-claim:price", None), ("comparison:one-comparison:price", None),
    ("claim:some-claim:no_such_field", None), ("comparison:one-comparison:value", None),
])
def test_the_quantity_of_a_fields_path(path: str, expected: str | None) -> None:
    assert of_field(made(path)) == expected


def test_the_quantity_of_a_path_is_its_fields_else_its_labels_first_word() -> None:
    assert of_path("instances:inf2-big:price", "the latency") == "price"
    assert of_path("claim:some-claim:value", "the latency of a run") == "latency"
    # The label's first quantity word, and of its quantities the first.
    assert of_path("claim:some-claim:value", "the price and the latency") == "price"
    assert of_path("claim:some-claim:value", "a latency, then a price") == "latency"
    assert of_path("claim:some-claim:value", "no word of a quantity") == ""
    assert of_path("claim:some-claim:value") == ""


# --- words of quantities in prose -------------------------------------------------------------------

def test_quantity_words_and_where_they_are() -> None:
    assert mentioned("the latency and the price") == [(4, ("latency",)), (20, ("price", "cost"))]
    assert mentioned("") == []
    # Out of their order in the text, sorted by offset.
    assert mentioned("price, then memory bandwidth") == [(0, ("price", "cost")), (12, ("memory_bandwidth",))]


def test_a_span_is_claimed_by_the_first_pattern_that_matches_it() -> None:
    # "memory bandwidth" is a memory bandwidth, not a memory and a bandwidth.
    assert mentioned("memory bandwidth") == [(0, ("memory_bandwidth",))]
    assert mentioned("LATENCY") == [(0, ("latency",))]


def test_spans_that_only_touch_do_not_overlap() -> None:
    # A later pattern's word right after an earlier pattern's, and right before it.
    assert mentioned("host memorylatency") == [(0, ("host_memory",)), (11, ("latency",))]
    assert mentioned("throughputmemory bandwidth") == [(0, ("throughput",)), (10, ("memory_bandwidth",))]


def test_a_word_claimed_once_is_still_read_where_it_is_written_again() -> None:
    assert mentioned("memory bandwidth and memory") == [(0, ("memory_bandwidth",)), (21, ("memory", "size_limit"))]
    assert mentioned("memory bandwidth, memory, memory") == [
        (0, ("memory_bandwidth",)), (18, ("memory", "size_limit")), (26, ("memory", "size_limit"))]


# --- the quantity of a figure ---------------------------------------------------------------------------

S = "latency 5 ms      warm-up"  # "5" at 8: latency 8 before it, warm-up 10 after it


def test_the_nearest_word_of_the_sentence() -> None:
    assert of_figure("ms", 8, (8, 12), S, 0, "") == frozenset({"latency"})
    near_warm_up = "latency      5 ms warm-up"  # "5" at 13: latency 13 before, warm-up 5 after
    assert of_figure("ms", 13, (13, 17), near_warm_up, 0, "") == frozenset({"other_time"})


def test_a_word_of_the_clause_comes_before_a_nearer_one_of_the_sentence() -> None:
    assert of_figure("ms", 8, (8, 25), S, 0, "") == frozenset({"other_time"})
    # The clause holds the words from its start, not those at its end.
    assert of_figure("ms", 8, (0, 5), "latency 5 ms warm-up", 0, "") == frozenset({"latency"})
    assert of_figure("ms", 8, (3, 18), S, 0, "") == frozenset({"latency"})


def test_offsets_are_the_passages_the_sentence_starts_at_its_own() -> None:
    assert of_figure("ms", 108, (108, 112), S, 100, "") == frozenset({"latency"})
    assert of_figure("ms", 108, (108, 125), S, 100, "") == frozenset({"other_time"})
    assert of_figure("ms", 108, (100, 105), "latency 5 ms warm-up", 100, "") == frozenset({"latency"})


def test_a_word_of_a_quantity_the_unit_cannot_be_is_passed_over() -> None:
    # "price" is nearer, but no price is in ms.
    assert of_figure("ms", 17, (0, 30), "latency and price 5 ms", 0, "") == frozenset({"latency"})
    # Of the nearest word's quantities, those the unit can be.
    assert of_figure("USD", 8, (0, 12), "pricing $5", 0, "") == frozenset({"cost"})
    assert of_figure("USD/h", 8, (0, 12), "pricing $5", 0, "") == frozenset({"price"})
    assert of_figure("GB", 7, (0, 11), "memory 5 GB", 0, "") == frozenset({"memory", "size_limit"})


def test_the_other_words_narrow_the_nearest() -> None:
    text = "bandwidth 5 GB/s, memory bandwidth"
    assert of_figure("GB/s", 10, (0, 34), text, 0, "") == frozenset({"memory_bandwidth"})
    # Words that do not narrow it leave the nearest as it is.
    assert of_figure("GB/s", 10, (0, 40), "bandwidth 5 GB/s of the latency", 0, "") == frozenset(
        {"memory_bandwidth", "network_bandwidth", "interconnect_bandwidth", "dma_bandwidth"})
    assert of_figure("ms", 8, (0, 25), S, 0, "") == frozenset({"latency"})


@pytest.mark.parametrize("at", [0, 50])
def test_in_the_heading_the_most_specific_word_wins(at: int) -> None:
    heading = "FP8/FP16/BF16/TF32 Sparse (TFLOPS)"
    assert of_figure("TFLOPS", at, (at, at + 4), "5 TFLOPS", at, heading) == frozenset({"sparse"})
    assert of_figure("TFLOPS", at, (at, at + 4), "5 TFLOPS", at, "BF16 or FP32") == frozenset({"fp32"})
    # The sentence's word comes first.
    assert of_figure("TFLOPS", at, (at, at + 4), "5 TFLOPS in FP8", at, heading) == frozenset({"fp8"})


def test_a_count_says_what_it_counts_when_no_word_does() -> None:
    assert of_figure(made("chips"), 0, (0, 8), "16 chips", 0, "") == frozenset({"device_count"})
    assert of_figure(made("vCPUs"), 0, (0, 8), "16 vCPUs", 0, "") == frozenset({"vcpus"})
    assert of_figure("ms", 0, (0, 4), "5 ms", 0, "") is None
    assert of_figure("ms", 0, (0, 4), "5 ms of price", 0, "no word") is None
