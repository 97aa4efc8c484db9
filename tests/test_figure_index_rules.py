"""The figure index (``drift/figure_index.py``) on a few values built in the test, without a catalog
(records are named by the words of their ids): which values and derived claims it holds, by unit and
number, which of them a figure may be, and what a figure duplicates or contradicts; then with a small
catalog built in the test (``model_construct``): the batch size and compiler options of a run, the
subjects of each kind a context names, the platforms a sentence names, another source's value. No data
loaded, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.values import Value
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps
from neuron_docs.drift.aspects import Aspects
from neuron_docs.drift.figure_index import FigureIndex
from neuron_docs.drift.literal_figures import LiteralFigure, find_figures

VALUES = {
    "run:bert-inf1:latency": Value(10.0, "ms", "latency"),
    "run:bert-g5:latency": Value(8.0, "ms", "latency"),
    "run:vit-inf1:accuracy": Value(80.0, "%", "top-1"),
    "run:vit-g5:accuracy": Value(75.0, "%", "top-1"),
    "instance:inf2:device_count": Value(12, "", "chips"),
    "instance:inf2:batch": Value(4, "", "batch"),
    "device:trn1:memory": Value(32.0, "GB", "memory"),
    "device:trn1:clock": Value(2.0, "s", "time"),
}
INDEX = FigureIndex(VALUES)


def entries(index: FigureIndex) -> dict[str, list[Any]]:
    return {unit: [e if isinstance(e, str) else (e.expression, e.op) for e in found]
            for unit, found in index._entries.items()}


def match(text: str, context: set[str], index: FigureIndex = INDEX, **options: Any) -> tuple[Any, ...] | None:
    [figure] = find_figures(text)
    found = index.match(figure, context, **options)
    return found and (found.candidate.expression, found.agrees, found.expected, found.reason)


def test_every_value_and_derived_claim_by_unit_sorted_by_number() -> None:
    assert {unit: list(numbers) for unit, numbers in INDEX._numbers.items()} == {
        "ms": [2.0, 8.0, 10.0, 2000.0], "%": [5.0, 6.25, 6.666666666666665, 19.999999999999996, 25.0, 75.0, 80.0],
        "chips": [12.0], "GB": [32.0], "x": [1.25], "pp": [5.0]}
    bert, vit = "run:bert-inf1:latency, run:bert-g5:latency", "run:vit-inf1:accuracy, run:vit-g5:accuracy"
    assert entries(INDEX) == {
        "ms": [(f"diff({bert})", "diff"), "run:bert-g5:latency", "run:bert-inf1:latency", "device:trn1:clock"],
        "%": [(f"diff({vit})", "diff"), ("pct_less(run:vit-g5:accuracy, run:vit-inf1:accuracy)", "pct_less"),
              (f"pct_more({vit})", "pct_more"), ("pct_less(run:bert-g5:latency, run:bert-inf1:latency)", "pct_less"),
              (f"pct_more({bert})", "pct_more"), "run:vit-g5:accuracy", "run:vit-inf1:accuracy"],
        "chips": ["instance:inf2:device_count"], "GB": ["device:trn1:memory"],
        "x": [(f"ratio({bert})", "ratio")], "pp": [(f"diff({vit})", "diff")]}


def test_values_are_compared_only_within_their_group() -> None:
    index = FigureIndex({"run:bert-inf1:latency": Value(10.0, "ms", "l"), "run:gpt-g5:latency": Value(8.0, "ms", "l"),
                         "instance:a:memory": Value(4.0, "GB", "m"), "instance:b:memory": Value(2.0, "GB", "m"),
                         "model:x:size": Value(4.0, "GB", "s"), "model:y:size": Value(2.0, "GB", "s"),
                         "instance:a:price": Value(2.0, "USD/h", "p"), "instance:b:price": Value(2.0, "USD/h", "p"),
                         "instance:c:price": Value(0.0, "USD/h", "p")})
    assert sorted(e for e in entries(index)["GB"] if isinstance(e, tuple)) == [
        ("diff(instance:a:memory, instance:b:memory)", "diff")]
    assert all(isinstance(e, str) for e in entries(index)["ms"] + entries(index)["USD/h"])
    assert index._group_of("accuracy", "vit-inf1-b4") == "vit"
    assert index._group_of("device", "trn1") == index._group_of("instance", "inf2") == ""
    assert index._group_of("model", "bert") == "bert"


def test_a_group_larger_than_the_bound_has_no_derived_claims() -> None:
    def runs(n: int) -> dict[str, Value]:
        return {f"run:m-i{k}:latency": Value(float(k + 1), "ms", "l") for k in range(n)}
    assert FigureIndex.MAX_GROUP == 16
    assert len(FigureIndex(runs(16))._entries["ms"]) == 16 + 120
    assert len(FigureIndex(runs(17))._entries["ms"]) == 17
    assert len(FigureIndex(runs(2))._entries["x"]) == 1


def test_a_figure_that_agrees_with_a_value_its_context_names() -> None:
    assert match("10 ms", {"bert", "inf1"}) == ("run:bert-inf1:latency", True, "10 ms", "")
    assert match("10 ms", set()) is None
    assert match("10 ms", set(), everywhere=True) is None  # a value whose records nothing names is not a subject
    assert match("12 chips", {"inf2"}) == ("instance:inf2:device_count", True, "12 chips", "")
    assert match("4 chips", {"inf2"}) is None  # a batch size is no figure


def test_a_near_miss_contradicts_the_value() -> None:
    assert match("11 ms", {"bert", "inf1"}) == ("run:bert-inf1:latency", False, "10 ms", "the data gives 10 ms")
    assert match("12 ms", {"bert", "inf1"}) is None


def test_a_value_in_another_unit() -> None:
    assert match("2 s", {"trn1"}) == ("device:trn1:clock", True, "2 s", "")
    assert match("2000 ms", {"trn1"}) == ("device:trn1:clock", True, "2 s = 2000 ms", "")


def test_derived_claims_with_their_direction() -> None:
    bert = "run:bert-inf1:latency, run:bert-g5:latency"
    context = {"bert", "inf1", "g5"}
    assert match("2 ms more", context) == (f"diff({bert})", True, "2.00 ms", "")
    assert match("25% more", context) == (f"pct_more({bert})", True, "25.0%", "")
    assert match("20% less", context) == ("pct_less(run:bert-g5:latency, run:bert-inf1:latency)", True, "20.0%", "")
    assert match("1.25x", context) == (f"ratio({bert})", True, "1.250x", "")
    assert match("5% more", {"vit", "inf1", "g5"}) == (
        "diff(run:vit-inf1:accuracy, run:vit-g5:accuracy)", True, "5.00%", "")


def test_a_percentage_with_the_wrong_direction_word_is_its_counterpart() -> None:
    assert match("25% less", {"bert", "inf1", "g5"}) == (
        "pct_less(run:bert-g5:latency, run:bert-inf1:latency)", False, "20.0%",
        "25.0% is pct_more(run:bert-inf1:latency, run:bert-g5:latency); less is "
        "pct_less(run:bert-g5:latency, run:bert-inf1:latency) = 20.0%")


def test_a_difference_written_as_an_absolute_figure() -> None:
    assert match("5 pp", {"vit", "inf1", "g5"}) == (
        "run:vit-inf1:accuracy", False, "80% = 80 percentage points",
        "5 pp is diff(run:vit-inf1:accuracy, run:vit-g5:accuracy) (a difference), written as an absolute figure; "
        "run:vit-inf1:accuracy is 80% = 80 percentage points")


def figure(number: float, unit: str, **fields: Any) -> LiteralFigure:
    return LiteralFigure("f", 0, 1, number, 0, unit, **fields)


def paths(found: list[Any]) -> list[str]:
    return sorted(c.expression for c in found)


def test_the_candidates_of_a_figure_are_within_a_factor_of_it() -> None:
    assert paths(INDEX.candidates(figure(9.0, "ms"))) == [
        "run:bert-g5:latency", "run:bert-inf1:latency"]
    assert paths(INDEX.candidates(figure(9.0, "ms"), spread=1.2)) == ["run:bert-g5:latency", "run:bert-inf1:latency"]
    assert paths(INDEX.candidates(figure(9.0, "ms"), spread=1.1)) == []
    assert paths(INDEX.candidates(figure(16.0, "ms"))) == ["run:bert-g5:latency", "run:bert-inf1:latency"]
    assert paths(INDEX.candidates(figure(4.0, "ms"))) == [
        "diff(run:bert-inf1:latency, run:bert-g5:latency)", "run:bert-g5:latency"]
    assert paths(INDEX.candidates(figure(9.0, "ms", qualifier="less than"))) == [
        "diff(run:bert-inf1:latency, run:bert-g5:latency)", "run:bert-g5:latency", "run:bert-inf1:latency"]
    assert paths(INDEX.candidates(figure(9.0, "ms", qualifier="up to"))) == paths(
        INDEX.candidates(figure(9.0, "ms", qualifier="under")))
    assert paths(INDEX.candidates(figure(21.0, "ms", low=1.0))) == [
        "diff(run:bert-inf1:latency, run:bert-g5:latency)", "run:bert-g5:latency", "run:bert-inf1:latency"]
    assert paths(INDEX.candidates(figure(0.0, "ms"))) == []


def test_a_percentage_is_compared_with_percentages_and_a_bare_number_with_any_unit() -> None:
    assert paths(INDEX.candidates(figure(5.0, "%"))) == [
        "diff(run:vit-inf1:accuracy, run:vit-g5:accuracy)", "pct_less(run:vit-g5:accuracy, run:vit-inf1:accuracy)",
        "pct_more(run:vit-inf1:accuracy, run:vit-g5:accuracy)"]
    assert paths(INDEX.candidates(figure(5.0, "pp"))) == ["diff(run:vit-inf1:accuracy, run:vit-g5:accuracy)"]
    assert paths(INDEX.candidates(figure(12.0, ""))) == [  # 6 to 24 of any unit
        "instance:inf2:device_count", "pct_less(run:bert-g5:latency, run:bert-inf1:latency)",
        "pct_less(run:vit-g5:accuracy, run:vit-inf1:accuracy)", "pct_more(run:vit-inf1:accuracy, run:vit-g5:accuracy)",
        "run:bert-g5:latency", "run:bert-inf1:latency"]


def test_the_candidates_of_a_figure_measure_what_its_words_name() -> None:
    latency = frozenset({"latency"})
    assert paths(INDEX.candidates(figure(9.0, "ms"), quantities=latency)) == [
        "run:bert-g5:latency", "run:bert-inf1:latency"]
    assert paths(INDEX.candidates(figure(9.0, "ms"), quantities=frozenset({"throughput"}))) == []
    assert paths(INDEX.candidates(figure(9.0, "ms"), context={"g5"})) == ["run:bert-g5:latency"]
    assert paths(INDEX.candidates(figure(4.0, "ms"), quantities=latency, context={"bert"})) == [
        "diff(run:bert-inf1:latency, run:bert-g5:latency)", "run:bert-g5:latency"]
    assert paths(INDEX.candidates(figure(9.0, "ms"), aspects=Aspects("p99"))) == [
        "run:bert-g5:latency", "run:bert-inf1:latency"]


def test_how_far_a_near_miss_may_be() -> None:
    assert FigureIndex._near(figure(4.0, "x")) == 0.5
    assert FigureIndex._near(LiteralFigure("f", 0, 1, 4.5, 1, "x")) == 0.15
    assert FigureIndex._near(figure(4.0, "ms")) == 0.15


def test_a_claimed_figure_is_checked_against_the_measured_one() -> None:
    index = FigureIndex({"device:trn1:bandwidth:claimed": Value(100.0, "GB/s", "claimed"),
                         "device:trn1:bandwidth:measured": Value(80.0, "GB/s", "measured")})
    found = index.match(find_figures("100 GB/s")[0], {"trn1"})
    assert found is not None and (found.candidate.expression, found.agrees, found.expected) == (
        "device:trn1:bandwidth:measured", False, "80 GB/s")
    assert found.reason == "100 GB/s is the claimed figure (device:trn1:bandwidth:claimed); the specifications give 80 GB/s"
    agreeing = index.match(find_figures("80 GB/s")[0], {"trn1"})
    assert agreeing is not None and (agreeing.candidate.expression, agreeing.agrees) == (
        "device:trn1:bandwidth:measured", True)


def test_the_quantity_of_a_value() -> None:
    assert INDEX.quantity("run:bert-inf1:latency") == "latency"
    assert INDEX._cheap_quantity("run:bert-inf1:latency") == "latency"
    assert INDEX.quantity("device:trn1:memory") == "memory"


LATENCY = frozenset({"latency"})


def test_a_figure_further_off_contradicts_the_value_its_words_name_in_full() -> None:
    assert match("20 ms", {"bert", "inf1"}, quantities=LATENCY) == (
        "run:bert-inf1:latency", False, "10 ms", "the data gives 10 ms")
    assert match("20 ms", {"bert", "inf1"}) is None  # the quantity unnamed
    assert match("about 20 ms", {"bert", "inf1"}, quantities=LATENCY) is None
    assert match("20 ms more", {"bert", "inf1"}, quantities=LATENCY) is None  # a direction: no absolute figure
    assert match("20 ms", {"bert"}, quantities=LATENCY) is None  # two runs named alike: neither is meant


def test_of_several_values_of_one_subject_the_nearest() -> None:
    index = FigureIndex({"run:m-a:latency_p50": Value(10.0, "ms", "latency"),
                         "run:m-a:latency_p99": Value(30.0, "ms", "latency")})
    assert match("25 ms", {"m", "a"}, index, quantities=LATENCY) == (
        "run:m-a:latency_p99", False, "30 ms", "the data gives 30 ms")


def test_a_value_of_zero() -> None:
    index = FigureIndex({"run:m-a:wait": Value(0.0, "ms", "latency"), "run:m-b:wait": Value(1e-12, "ms", "latency"),
                         "run:m-c:wait": Value(-0.5, "ms", "latency")})
    assert paths(index.candidates(figure(0.0, "ms"))) == ["run:m-a:wait", "run:m-b:wait"]
    assert match("0 ms", {"m", "a"}, index) == ("run:m-a:wait", True, "0 ms", "")
    assert paths(index.candidates(figure(2.0, "ms", qualifier="less than"))) == ["run:m-a:wait", "run:m-b:wait"]


def test_the_percentile_the_words_name_is_that_of_a_derived_claims_operand() -> None:
    index = FigureIndex({"run:m-a:latency_p50_ms": Value(10.0, "ms", "l"),
                         "run:m-b:latency_p50_ms": Value(8.0, "ms", "l")})
    assert [c.op for c in index.candidates(figure(2.0, "ms"), aspects=Aspects("50"))] == ["diff"]
    assert [c.op for c in index.candidates(figure(2.0, "ms"), aspects=Aspects("99"))] == []


def test_a_derived_claim_only_its_context_names_in_full_is_matched() -> None:
    bert = "run:bert-inf1:latency, run:bert-g5:latency"
    assert match("2 ms more", {"inf1"}) is None
    assert match("2 ms more", {"inf1"}, everywhere=True) == (f"diff({bert})", True, "2.00 ms", "")
    assert match("25% less", {"inf1"}) is None
    assert match("2.2 ms more", {"inf1"}) is None
    assert match("2.2 ms more", {"inf1", "g5"}) == (f"diff({bert})", False, "2.00 ms", "the data gives 2.00 ms")


def test_of_values_that_agree_the_best_named_then_the_nearest_then_the_first_by_name() -> None:
    index = FigureIndex({"run:m-a:latency": Value(8.6, "ms", "l"), "run:m-b:latency": Value(9.2, "ms", "l")})
    assert match("9 ms", {"m", "a", "b"}, index)[:2] == ("run:m-b:latency", True)  # type: ignore[index]
    named = FigureIndex({"run:m-b:latency": Value(10.0, "ms", "l"), "run:m-a:latency": Value(10.4, "ms", "l")})
    assert match("10 ms", {"m", "b"}, named)[:2] == ("run:m-b:latency", True)  # type: ignore[index]
    tie = FigureIndex({"run:m-a:latency": Value(10.0, "ms", "l"), "run:m-b:latency": Value(10.0, "ms", "l")})
    assert match("10 ms", {"m"}, tie)[:2] == ("run:m-a:latency", True)  # type: ignore[index]
    reverse = FigureIndex({"run:m-b:latency": Value(10.0, "ms", "l"), "run:m-a:latency": Value(10.0, "ms", "l")})
    assert match("10 ms", {"m"}, reverse)[:2] == ("run:m-a:latency", True)  # type: ignore[index]


def test_a_near_miss_of_a_claimed_figure_is_said_against_it() -> None:
    index = FigureIndex({"device:trn1:bandwidth:claimed": Value(100.0, "GB/s", "claimed"),
                         "device:trn1:bandwidth:measured": Value(80.0, "GB/s", "measured")})
    assert match("110 GB/s", {"trn1"}, index) == (
        "device:trn1:bandwidth:claimed", False, "100 GB/s", "the data gives 100 GB/s")
    same = FigureIndex({"device:trn1:bandwidth:claimed": Value(100.0, "GB/s", "claimed"),
                        "device:trn1:bandwidth:measured": Value(100.0, "GB/s", "measured")})
    assert match("100 GB/s", {"trn1"}, same)[:2] == ("device:trn1:bandwidth:claimed", True)  # type: ignore[index]


def test_a_derived_value_with_many_digits_is_written_at_the_texts_precision() -> None:
    index = FigureIndex({"run:m-a:latency": Value(1.2345678, "ms", "l", derived=True),
                         "run:m-b:latency": Value(1.2345678, "ms", "l"),
                         "run:m-c:latency": Value(1.25, "ms", "l", derived=True)})
    assert match("1.23 ms", {"m", "a"}, index) == ("run:m-a:latency", True, "1.235 ms", "")
    assert match("1.23 ms", {"m", "b"}, index) == ("run:m-b:latency", True, "1.2345678 ms", "")
    assert match("1.25 ms", {"m", "c"}, index) == ("run:m-c:latency", True, "1.25 ms", "")


def test_a_range_looks_from_its_low_end() -> None:
    index = FigureIndex({"run:m-a:latency": Value(3.2, "ms", "l"), "run:n-b:latency": Value(3.6, "ms", "l")})
    assert paths(index.candidates(figure(10.0, "ms", low=7.0))) == ["run:n-b:latency"]


def test_a_maximum_is_near_its_figure() -> None:
    index = FigureIndex({"run:bert-inf1:latency": Value(10.0, "ms", "latency")})
    assert match("up to 12 ms", {"bert", "inf1"}, index) is None
    assert match("up to 10.5 ms", {"bert", "inf1"}, index) == ("run:bert-inf1:latency", True, "10 ms", "")


def test_a_maximum_far_above_a_difference_is_not_that_difference_written_as_a_figure() -> None:
    # "up to 12 ms" about runs of 10 and 8 ms: the 2 ms between them is below the maximum, as each run
    # is, but far below it; the figure is no difference, and says nothing wrong about either run.
    for context in ({"bert", "inf1"}, {"bert", "g5"}, {"bert", "inf1", "g5"}):
        assert match("up to 12 ms", context) is None
        assert match("at most 12 ms", context) is None
    assert match("up to 2.2 ms", {"bert", "inf1", "g5"})[:2] == (  # type: ignore[index]
        "run:bert-inf1:latency", False)  # near the difference: still a difference written as a figure


def test_a_bare_number_near_a_derived_claim_is_no_contradiction() -> None:
    [bare] = find_figures("26.5", loose=True)
    assert INDEX.match(bare, {"bert", "inf1", "g5"}) is None


def test_a_percentage_with_the_wrong_direction_word_more() -> None:
    assert match("20% more", {"bert", "inf1", "g5"}) == (
        "pct_more(run:bert-inf1:latency, run:bert-g5:latency)", False, "25.0%",
        "20.0% is pct_less(run:bert-g5:latency, run:bert-inf1:latency); more is "
        "pct_more(run:bert-inf1:latency, run:bert-g5:latency) = 25.0%")


def test_a_bare_number_skips_a_derived_claim_and_looks_on() -> None:
    index = FigureIndex({**VALUES, "device:bert-box:memory": Value(27.0, "GB", "memory")})
    [bare] = find_figures("26.5", loose=True)
    found = index.match(bare, {"bert", "inf1", "g5"})
    assert found is not None and (found.candidate.expression, found.agrees) == ("device:bert-box:memory", False)


def test_of_near_misses_the_nearest() -> None:
    index = FigureIndex({"run:m-a:latency": Value(10.0, "ms", "l"), "run:m-b:latency": Value(10.8, "ms", "l")})
    assert match("11.5 ms", {"m", "a", "b"}, index)[:2] == ("run:m-b:latency", False)  # type: ignore[index]


def test_a_ratio_said_the_other_way_is_no_agreement() -> None:
    [bare] = find_figures("1.25 lower", loose=True)
    found = INDEX.match(bare, {"bert", "inf1", "g5"})
    assert found is not None and (found.candidate.op, found.agrees) == ("ratio", False)
    assert found.reason == "1.250x is ratio(run:bert-inf1:latency, run:bert-g5:latency), not what the text says"


def test_a_derived_claim_measures_what_its_operands_measure() -> None:
    everyone = {"bert", "inf1", "g5"}
    assert paths(INDEX.candidates(figure(2.0, "ms"), quantities=frozenset({"throughput"}), context=everyone)) == []
    assert paths(INDEX.candidates(figure(2.0, "ms"), quantities=LATENCY, context=everyone)) == [
        "diff(run:bert-inf1:latency, run:bert-g5:latency)"]


def test_a_value_named_in_full_is_looked_for_up_to_ten_times_off() -> None:
    index = FigureIndex({"run:bert-inf1:latency": Value(10.0, "ms", "latency")})
    assert match("95 ms", {"bert", "inf1"}, index, quantities=LATENCY)[:2] == (  # type: ignore[index]
        "run:bert-inf1:latency", False)
    assert match("105 ms", {"bert", "inf1"}, index, quantities=LATENCY) is None


def test_without_a_catalog_no_word_names_a_kind_of_subject() -> None:
    assert INDEX.platform_words == set()
    assert INDEX.subject_words("model") == set()


def test_a_value_in_percentage_points_read_from_a_file_is_a_percentage_too() -> None:
    points = "".join(["p", "p"])  # as a file or the build's pickle gives it: not the code's literal
    index = FigureIndex({"run:m-a:gain": Value(3.0, points, "gain")})
    assert paths(index.candidates(figure(3.0, "%"))) == ["run:m-a:gain"]


def test_a_derived_claim_named_in_part_does_not_stop_the_values_after_it() -> None:
    index = FigureIndex({**VALUES, "device:inf1:setup": Value(2.04, "ms", "setup")})
    assert match("2 ms more", {"inf1"}, index) == ("device:inf1:setup", True, "2.04 ms", "")


def test_a_maximum_far_above_one_value_does_not_stop_the_next() -> None:
    index = FigureIndex({"run:bert-inf1:latency": Value(5.0, "ms", "latency"),
                         "run:bert-inf1:latency_p50": Value(11.8, "ms", "latency")})
    assert match("up to 12 ms", {"bert", "inf1"}, index) == ("run:bert-inf1:latency_p50", True, "11.8 ms", "")


def test_a_difference_written_as_an_absolute_figure_in_another_unit() -> None:
    index = FigureIndex({"run:m-a:time": Value(2.0, "s", "time"), "run:m-b:time": Value(1.5, "s", "time")})
    found = match("500 ms", {"m", "a", "b"}, index)
    assert found is not None and found[0] == "run:m-b:time"
    assert found[3].endswith("run:m-b:time is 1.5 s = 1500 ms")


def test_a_value_before_a_derived_claim_that_agrees_as_well() -> None:
    index = FigureIndex({**VALUES, "run:bert-inf1:gap": Value(2.0, "ms", "gap")})
    assert match("2 ms more", {"bert", "inf1", "g5"}, index)[:2] == ("run:bert-inf1:gap", True)  # type: ignore[index]


def test_a_value_is_never_a_difference_said_the_other_way() -> None:
    assert match("faster by 10 ms", {"bert", "inf1"}) is None


def test_of_equally_named_values_the_nearest() -> None:
    agreeing = FigureIndex({"run:m-x:latency": Value(8.6, "ms", "l"), "run:m-y:latency": Value(9.2, "ms", "l")})
    assert match("9 ms", {"m", "x", "y"}, agreeing)[:2] == ("run:m-y:latency", True)  # type: ignore[index]
    missing = FigureIndex({"run:m-x:latency": Value(10.0, "ms", "l"), "run:m-y:latency": Value(10.8, "ms", "l")})
    assert match("11.5 ms", {"m", "x", "y"}, missing)[:2] == ("run:m-y:latency", False)  # type: ignore[index]
    tied = FigureIndex({"run:m-a:latency_p50": Value(30.0, "ms", "latency"),
                        "run:m-a:latency_p99": Value(20.0, "ms", "latency")})
    assert match("25 ms", {"m", "a"}, tied, quantities=LATENCY)[0] == "run:m-a:latency_p50"  # type: ignore[index]


def test_figures_below_one_and_zero_look_near_themselves() -> None:
    index = FigureIndex({"run:m-a:wait": Value(0.5, "ms", "latency")})
    assert paths(index.candidates(figure(0.5, "ms"))) == ["run:m-a:wait"]
    assert paths(index.candidates(figure(0.0, "ms"))) == []


def test_a_derived_value_keeps_its_own_text_up_to_six_digits() -> None:
    six = FigureIndex({"run:m-x:latency": Value(1.23456, "ms", "l", derived=True)})
    assert match("1.23 ms", {"m", "x"}, six)[2] == "1.23456 ms"  # type: ignore[index]
    seven = FigureIndex({"run:m-x:latency": Value(1.234567, "ms", "l", derived=True)})
    assert match("1.23 ms", {"m", "x"}, seven)[2] == "1.235 ms"  # type: ignore[index]


def test_a_near_miss_of_a_figure_below_one_is_relative_to_it() -> None:
    index = FigureIndex({"run:m-x:latency": Value(0.6, "ms", "latency")})
    assert match("0.5 ms", {"m", "x"}, index) is None  # 20% off
    near = FigureIndex({"run:m-x:latency": Value(0.56, "ms", "latency")})
    assert match("0.5 ms", {"m", "x"}, near)[:2] == ("run:m-x:latency", False)  # type: ignore[index]


def test_a_claimed_figure_equal_to_the_measured_one_in_another_unit() -> None:
    index = FigureIndex({"device:trn1:bandwidth:claimed": Value(1.0, "TB/s", "claimed"),
                         "device:trn1:bandwidth:measured": Value(1.0, "TB/s", "measured")})
    assert match("1 TB/s", {"trn1"}, index)[:2] == ("device:trn1:bandwidth:claimed", True)  # type: ignore[index]


def test_a_bare_number_is_never_a_value_named_in_full() -> None:
    [bare] = find_figures("20.5", loose=True)
    assert INDEX.match(bare, {"bert", "inf1"}, quantities=LATENCY) is None


# --- with a small catalog (``model_construct``): runs' configurations, the vocabulary of subjects,
# the platforms a sentence names, other sources' values ---------------------------------------------

def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


def spec(value: float, unit: str, *also: tuple[float, str]) -> s.Quantity:
    return s.Quantity.model_construct(value=value, unit=unit, label="x", source="own", also=[
        s.OtherSource.model_construct(value=v, unit=None, source=source, why=f"{source} rounds") for v, source in also])


def catalog() -> Catalog:
    """Two models; a Trainium device and a GPU; two trn1 instances (one of 16 chips) and a g5; runs of
    BERT on both trn1 and of ViT on the g5, accuracy runs and a published run, of several batch sizes
    and compiler options."""
    cat = Catalog(data_dir=Path("."))
    r = cat.records
    r["devices"] = {d.id: d for d in (
        s.Device.model_construct(id="trainium", name="Trainium Chip", kind="trainium", specs={
            "fp8": spec(190.0, "TFLOPS", (185.0, "old-page"), (191.0, "arch-page")),
            "bf16": spec(95.0, "TFLOPS", (95.3, "slides"))}),
        s.Device.model_construct(id="alpha", name="Alpha GPU", kind="gpu", specs={}))}
    r["instances"] = {i.id: i for i in (
        s.Instance.model_construct(id="trn1.32xlarge", family="trn1", device="trainium", device_count=16, specs={}),
        s.Instance.model_construct(id="trn1.2xlarge", family="trn1", device="trainium", device_count=1, specs={}),
        s.Instance.model_construct(id="g5.xlarge", family="g5", device="alpha", device_count=1, specs={}))}
    r["models"] = {m.id: m for m in (
        s.Model.model_construct(id="bert", name="BERT Cased", family="enc", aliases=[], same_as=None),
        s.Model.model_construct(id="vit", name="ViT Huge", family="img", aliases=[], same_as=None))}
    r["environments"] = {e.id: e for e in (
        s.Environment.model_construct(id="env-big", instance="trn1.32xlarge"),
        s.Environment.model_construct(id="env-small", instance="trn1.2xlarge"),
        s.Environment.model_construct(id="env-g5", instance="g5.xlarge"))}
    r["inference_runs"] = {x.id: x for x in (
        s.InferenceRun.model_construct(id="bert-big", model="bert", environment="env-big", batch_size=1,
                                       compiler_options=made("Fast-Math=none")),
        s.InferenceRun.model_construct(id="bert-small", model="bert", environment="env-small", batch_size=4,
                                       compiler_options=None),
        s.InferenceRun.model_construct(id="bert-wide", model="bert", environment="env-small", batch_size=16,
                                       compiler_options="fast-math=none, auto-cast=all;x"),
        s.InferenceRun.model_construct(id="vit-g5", model="vit", environment="env-g5", batch_size=1),
        s.InferenceRun.model_construct(id="vit-many", model="vit", environment="env-g5", batch_size=512))}
    r["accuracy_runs"] = {x.id: x for x in (
        s.AccuracyRun.model_construct(id="vit-a8", model="vit", environment="env-g5", batch_size=8),
        s.AccuracyRun.model_construct(id="vit-any", model="vit", environment="env-g5", batch_size=None))}
    r["published_inference_runs"] = {x.id: x for x in (
        ps.PublishedInferenceRun.model_construct(id="vit-pub", model="ViT Huge", instance="g5.xlarge", batch_size=2),)}
    return cat


CATALOG_VALUES = {
    "run:bert-big:latency": Value(10.0, "ms", "latency"), "run:bert-small:latency": Value(8.0, "ms", "latency"),
    "run:bert-wide:latency": Value(9.0, "ms", "latency"), "run:vit-g5:latency": Value(9.5, "ms", "latency"),
    "run:ghost-x:latency": Value(9.0, "ms", "latency"),  # a run the catalog does not hold
    "accuracy:vit-a8:top1": Value(80.0, "%", "accuracy"), "accuracy:vit-any:top1": Value(81.0, "%", "accuracy"),
    "prun:vit-pub:latency": Value(9.2, "ms", "latency"),
    "device:trainium:fp8": Value(190.0, "TFLOPS", "FP8", source="trainium-page"),
    "device:trainium:bf16": Value(95.0, "TFLOPS", "BF16", source="trainium-page"),
    "device:trainium:clock": Value(9.0, "ms", "clock"),
    "instance:g5.xlarge:price": Value(1.0, "USD/h", "price"),
    "run:vit-many:throughput": Value(900.0, "inferences/s", "throughput"),
    "device:trainium:memory_bandwidth:claimed": Value(820.0, "GB/s", "memory bandwidth"),
}


def catalog_index() -> FigureIndex:
    return FigureIndex(CATALOG_VALUES, catalog())


def test_a_run_is_a_candidate_only_with_the_batch_size_its_text_names() -> None:
    index = catalog_index()
    everyone = ["device:trainium:clock", "prun:vit-pub:latency", "run:bert-big:latency", "run:bert-small:latency",
                "run:bert-wide:latency", "run:ghost-x:latency", "run:vit-g5:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects())) == everyone
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects("50"))) == everyone
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects(batch=4))) == [
        "device:trainium:clock", "run:bert-small:latency", "run:ghost-x:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects(batch=1))) == [
        "device:trainium:clock", "run:bert-big:latency", "run:ghost-x:latency", "run:vit-g5:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects(batch=2))) == [
        "device:trainium:clock", "prun:vit-pub:latency", "run:ghost-x:latency"]
    assert paths(index.candidates(figure(80.0, "%"), aspects=Aspects(batch=8))) == [
        "accuracy:vit-a8:top1", "accuracy:vit-any:top1"]  # an accuracy run of no stated batch size: any
    assert paths(index.candidates(figure(80.0, "%"), aspects=Aspects(batch=1))) == ["accuracy:vit-any:top1"]
    # A batch size as the text gives it is another object than the data's (beyond the small integers
    # Python keeps one of): equal is the same batch size.
    assert paths(index.candidates(figure(900.0, "inferences/s"), aspects=Aspects(batch=int(made("512"))))) == [
        "run:vit-many:throughput"]
    assert paths(index.candidates(figure(800.0, "GB/s"), aspects=Aspects(batch=4))) == [
        "device:trainium:memory_bandwidth:claimed"]  # a path of four parts: no run
    # Without a catalog no run's configuration is known: every value is a candidate.
    assert paths(FigureIndex(CATALOG_VALUES).candidates(figure(9.0, "ms"), aspects=Aspects(batch=4))) == everyone


def test_a_run_is_a_candidate_only_with_the_compiler_options_its_text_names() -> None:
    index = catalog_index()
    fast = frozenset({"fast-math=none"})
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects(options=fast))) == [
        "device:trainium:clock", "run:bert-big:latency", "run:bert-wide:latency", "run:ghost-x:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects(options=fast | {"auto-cast=all"}))) == [
        "device:trainium:clock", "run:bert-wide:latency", "run:ghost-x:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), aspects=Aspects(batch=1, options=fast))) == [
        "device:trainium:clock", "run:bert-big:latency", "run:ghost-x:latency"]
    assert paths(index.candidates(figure(80.0, "%"), aspects=Aspects(options=fast))) == []


def test_a_part_of_a_record_its_context_does_not_name_is_one_no_other_subject_of_its_kind_is_named() -> None:
    index = catalog_index()
    assert paths(index.candidates(figure(9.0, "ms"), context={"bert"})) == [
        "run:bert-big:latency", "run:bert-small:latency", "run:bert-wide:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), context={"bert", "g5"})) == []  # another instance named
    assert paths(index.candidates(figure(9.0, "ms"), context={"vit", "trn1"})) == []  # another of each named
    assert paths(index.candidates(figure(9.0, "ms"), context={"vit", "trainium"})) == [
        "device:trainium:clock"]  # BERT's runs on Trainium: another model named
    assert paths(index.candidates(figure(9.0, "ms"), context={"trainium"})) == [
        "device:trainium:clock", "run:bert-big:latency", "run:bert-small:latency", "run:bert-wide:latency"]


def test_an_instance_type_written_in_full_is_that_instance_only() -> None:
    index = catalog_index()
    assert paths(index.candidates(figure(9.0, "ms"), context={"bert", "trn1"})) == [
        "run:bert-big:latency", "run:bert-small:latency", "run:bert-wide:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), context={"bert", "trn1", "trn1.32xlarge"})) == [
        "run:bert-big:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), context={"bert", "trn1.2xlarge", "trn1.32xlarge"})) == [
        "run:bert-big:latency", "run:bert-small:latency", "run:bert-wide:latency"]
    assert paths(index.candidates(figure(9.0, "ms"), context={"trainium", "trn1.2xlarge"})) == [
        "device:trainium:clock", "run:bert-small:latency", "run:bert-wide:latency"]


def test_a_derived_claim_covers_every_platform_its_sentence_names() -> None:
    index = FigureIndex({"run:bert-big:latency": Value(10.0, "ms", "latency"),
                         "run:bert-small:latency": Value(8.0, "ms", "latency"),
                         "run:vit-g5:latency": Value(5.0, "ms", "latency")}, catalog())
    diff = "diff(run:bert-big:latency, run:bert-small:latency)"
    context = {"bert", "trn1"}
    assert match("2 ms more", context, index) == (diff, True, "2.00 ms", "")
    assert match("2 ms more", context, index, sentence={"bert", "trn1"}) == (diff, True, "2.00 ms", "")
    assert match("2 ms more", context, index, sentence={"bert"}) == (diff, True, "2.00 ms", "")
    own = {"trn1", "trn1.32xlarge", "trn1.2xlarge", "trainium", "chip"}
    assert match("2 ms more", context, index, sentence=own) == (diff, True, "2.00 ms", "")
    assert match("2 ms more", context, index, sentence={"bert", "trn1", "g5"}) is None
    # Records the catalog does not hold are named by their ids' words, of no kind: "trn1" in one is
    # no platform of the claim.
    ghosts = FigureIndex({"run:ghost-trn1:latency": Value(10.0, "ms", "latency"),
                          "run:ghost-g5:latency": Value(8.0, "ms", "latency")}, catalog())
    assert match("2 ms more", {"ghost"}, ghosts, sentence={"ghost"})[:2] == (  # type: ignore[index]
        "diff(run:ghost-trn1:latency, run:ghost-g5:latency)", True)
    assert match("2 ms more", {"ghost"}, ghosts, sentence={"ghost", "trn1"}) is None
    # A value is no derived claim: the platforms its sentence names are its context's business.
    assert match("10 ms", context | {"trn1.32xlarge"}, index, sentence={"g5"})[:2] == (  # type: ignore[index]
        "run:bert-big:latency", True)


def test_a_figure_agreeing_with_another_sources_value_quotes_that_source() -> None:
    index = catalog_index()
    [figure] = find_figures("191 TFLOPS")
    found = index.match(figure, {"trainium"})
    assert found is not None
    assert (found.candidate.expression, found.agrees, found.expected, found.role, found.quoted) == (
        "device:trainium:fp8", True, "190 TFLOPS", ":neuron:value:`device:trainium:fp8`", "arch-page")
    assert found.reason == ("arch-page (191 TFLOPS) for device:trainium:fp8; the data uses 190 TFLOPS "
                            "(trainium-page): arch-page rounds")
    assert match("188 TFLOPS", {"trainium"}, index) == (
        "device:trainium:fp8", False, "190 TFLOPS", "the data gives 190 TFLOPS")  # no source's value
    # A figure agreeing with the data's value is the data's, whatever another source says.
    [agreeing] = find_figures("95 TFLOPS")
    found = index.match(agreeing, {"trainium"})
    assert found is not None and (found.agrees, found.quoted, found.reason) == (True, "", "")


def test_a_value_named_in_full_is_one_of_a_subject_of_each_kind_the_words_name() -> None:
    index = catalog_index()
    price = frozenset({"price"})
    assert match("$5 per hour", {"g5"}, index, quantities=price) == (
        "instance:g5.xlarge:price", False, "$1/h", "the data gives $1/h")
    assert match("$5 per hour", {"vit", "g5"}, index, quantities=price) is None  # a model's figure
    # A run is named in full by its model and its instance, not by its model alone.
    assert match("50 ms", {"vit"}, index, quantities=LATENCY) is None
    assert match("50 ms", {"vit", "g5"}, index, quantities=LATENCY)[:2] == (  # type: ignore[index]
        "run:vit-g5:latency", False)


def test_a_range_in_a_unit_with_a_factor_looks_from_its_low_end_in_the_base_unit() -> None:
    index = FigureIndex({"run:m-a:time": Value(100.0, "ms", "time"), "run:n-b:time": Value(600.0, "ms", "time")})
    assert paths(index.candidates(find_figures("1-2 s")[0])) == ["run:n-b:time"]  # 500 ms to 4 s


def test_a_value_within_a_billionth_of_zero_either_side_is_a_candidate_of_zero() -> None:
    index = FigureIndex({"run:m-a:wait": Value(-5e-10, "ms", "latency"), "run:m-b:wait": Value(5e-10, "ms", "latency"),
                         "run:m-c:wait": Value(-2e-9, "ms", "latency")})
    assert paths(index.candidates(figure(0.0, "ms"))) == ["run:m-a:wait", "run:m-b:wait"]


def test_fifteen_percent_off_is_still_near() -> None:
    index = FigureIndex({"run:m-a:latency": Value(17.0, "ms", "latency")})
    assert abs(17.0 - 20.0) / 20.0 == 0.15
    assert match("20 ms", {"m", "a"}, index) == ("run:m-a:latency", False, "17 ms", "the data gives 17 ms")
    assert match("up to 20 ms", {"m", "a"}, index)[:2] == ("run:m-a:latency", True)  # type: ignore[index]


def test_of_derived_claims_said_the_other_way_the_nearest_is_named() -> None:
    # 25.4% and 25.1% more both read "25%": the second, nearer, is the one the text says the other way
    # (its name sorts after the first's, so that neither the order of names nor the farther decides).
    index = FigureIndex({"run:m-a:latency": Value(12.54, "ms", "l"), "run:m-b:latency": Value(10.0, "ms", "l"),
                         "run:n-a:latency": Value(12.51, "ms", "l"), "run:n-b:latency": Value(10.0, "ms", "l")})
    found = match("25% less", {"m", "n", "a", "b"}, index)
    assert found is not None and found[:2] == ("pct_less(run:n-b:latency, run:n-a:latency)", False)
    assert found[3].startswith("25.1% is pct_more(run:n-a:latency, run:n-b:latency); less is")


def test_a_value_of_a_subject_of_another_kind_does_not_stop_the_values_after_it() -> None:
    index = FigureIndex({"device:trainium:wait": Value(6.0, "ms", "latency"),
                         "run:bert-big:latency": Value(10.0, "ms", "latency")}, catalog())
    # The device's 6 ms comes first and is no model's figure; BERT's run on Trainium is named in full.
    assert match("50 ms", {"bert", "trainium"}, index, quantities=LATENCY) == (
        "run:bert-big:latency", False, "10 ms", "the data gives 10 ms")


def test_a_derived_claim_its_sentence_does_not_cover_does_not_stop_the_values_after_it() -> None:
    index = FigureIndex({"run:bert-big:latency": Value(10.0, "ms", "latency"),
                         "run:bert-small:latency": Value(8.0, "ms", "latency"),
                         "run:vit-g5:gap": Value(2.04, "ms", "gap")}, catalog())
    # BERT's 2 ms between two trn1 runs comes first; the sentence names the g5: ViT's 2.04 ms on it.
    assert match("2 ms more", {"bert", "trn1", "vit", "g5"}, index, sentence={"g5"}) == (
        "run:vit-g5:gap", True, "2.04 ms", "")
