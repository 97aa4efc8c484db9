"""Edges of the judgement of a series across releases (``data/published/judgement.py``) that the
one-test-per-kind file (``test_judgement.py``) does not reach: the noise, the spread, which excursion
goes first, a suspect point's level, a step of exactly the threshold. Written for the mutants
``make mutation`` left alive (``tests/MUTATION.md``); light (no catalog, no Sphinx). The series with
several excursions and steps were found by comparing each mutant with the code on random series;
the expected judgements are the code's, read as the rule says."""

from __future__ import annotations

import math
import statistics

import pytest

from neuron_docs.data.published.judgement import Point, _beyond, judge


def judged(values: list[float], lower_is_better: bool = False) -> tuple[list[str], list[float | None]]:
    result = judge([(f"v{i}", v) for i, v in enumerate(values)], lower_is_better)
    return [p.kind for p in result.points], [p.level for p in result.points]


def test_the_noise_is_the_median_absolute_deviation_at_least_the_minimum() -> None:
    assert judge([("a", 100.0), ("b", 100.0)], False).noise == pytest.approx(math.log1p(0.01))
    values = [100.0, 104.0, 96.0, 104.0, 96.0]
    y = [math.log(v) for v in values]
    middle = statistics.median(y)
    expected = 1.4826 * statistics.median(abs(v - middle) for v in y)
    assert judge([(f"v{i}", v) for i, v in enumerate(values)], False).noise == pytest.approx(expected)


def test_a_point_against_its_level() -> None:
    assert Point("a", 2.0, "steady", None).ratio is None
    assert Point("a", 2.0, "steady", 0.0).ratio is None
    assert Point("a", 2.0, "steady", 1.0).ratio == pytest.approx(1.0)


def test_a_swinging_series_is_unstable_with_the_spread_from_the_release_before_the_swing() -> None:
    swinging = judge([(f"v{i}", v) for i, v in enumerate([60.0, 100.0, 200.0, 100.0, 200.0])], False)
    assert swinging.unstable and swinging.spread == (100.0, 200.0)  # not the 60 two releases before
    assert judge([(f"v{i}", v) for i, v in enumerate([100.0, 80.0, 200.0, 100.0, 200.0])], False).spread == (
        80.0, 200.0)  # the release just before the swing counts
    assert not judge([("a", 1.0), ("b", 1.0)], False).unstable


def test_a_suspect_point_is_judged_against_the_level_before_it() -> None:
    result = judge([(f"v{i}", v) for i, v in enumerate([1900, 1910, 1890, 41.24, 1920, 1905])], False)
    point = result.of("v3")
    assert point is not None and point.kind == "suspect" and point.level == 1905.0


def test_a_step_of_exactly_the_threshold_is_not_beyond_it() -> None:
    step = math.log1p(0.1)
    assert not _beyond(step, abs(math.expm1(step)))
    assert _beyond(step, 0.09)


def test_several_excursions_largest_first() -> None:
    assert judged([90.0, 300.0, 50.0, 110.0, 50.0]) == (
        ["first", "suspect", "regressed", "suspect", "steady"], [None, 90.0, 90.0, 50.0, 50.0])
    assert judged([80.0, 80.0, 120.0, 60.0, 300.0, 96.0, 120.0, 90.0]) == (
        ["first", "steady", "improved", "suspect", "suspect", "suspect", "steady", "regressed"],
        [None, 80.0, 80.0, 120.0, 120.0, 120.0, 120.0, 120.0])


def test_steps_between_single_releases_and_the_noise_of_mixed_levels() -> None:
    assert judged([60.0, 90.0, 100.0, 150.0]) == (["first", "improved", "improved", "improved"],
                                                  [None, 60.0, 90.0, 100.0])
    result = judge([(f"v{i}", v) for i, v in enumerate([60.0, 300.0, 60.0, 104.0, 80.0, 96.0, 300.0, 120.0])],
                   False)
    assert [p.kind for p in result.points] == ["first", "suspect", "steady", "improved", "suspect", "steady",
                                               "suspect", "improved"]
    assert result.noise == pytest.approx(0.02966782959919626)


@pytest.mark.parametrize(("values", "kinds", "levels"), [
    # the first release is never an excursion (it has no release before it)
    ([96.0, 150.0, 50.0, 108.0, 200.0, 300.0, 108.0, 110.0],
     ["first", "suspect", "suspect", "improved", "improved", "improved", "regressed", "steady"],
     [None, 96.0, 96.0, 96.0, 108.0, 200.0, 300.0, 109.0]),
    # an excursion comes back: 120 -> 60 -> 300 does not
    ([96.0, 112.0, 112.0, 300.0, 120.0, 60.0, 300.0],
     ["first", "improved", "steady", "suspect", "steady", "regressed", "improved"],
     [None, 96.0, 112.0, 112.0, 112.0, 112.0, 60.0]),
    # two releases left once the suspect points are out: still cut by change-point detection
    ([108.0, 50.0, 96.0, 108.0], ["first", "suspect", "suspect", "steady"], [None, 108.0, 108.0, 108.0]),
    # steps within three times the noise are merged
    ([120.0, 112.0, 50.0, 104.0, 96.0, 118.0, 100.0],
     ["first", "steady", "suspect", "steady", "steady", "suspect", "steady"],
     [None, 104.0, 104.0, 104.0, 104.0, 104.0, 104.0]),
    ([104.0, 96.0, 93.0, 118.0], ["first", "steady", "steady", "improved"], [None, 96.0, 96.0, 96.0]),
    # a step is judged by the first release of its new level
    ([60.0, 96.0, 108.0, 150.0, 104.0], ["first", "improved", "improved", "suspect", "steady"],
     [None, 60.0, 96.0, 106.0, 106.0]),
    # the penalty of change-point detection: one step of the threshold between two releases
    ([120.0, 104.0, 100.0, 200.0, 108.0, 100.0], ["first", "regressed", "steady", "suspect", "steady", "steady"],
     [None, 120.0, 102.0, 102.0, 102.0, 102.0]),
    ([118.0, 120.0, 100.0, 80.0, 112.0, 112.0, 104.0, 300.0, 96.0],
     ["first", "steady", "regressed", "regressed", "improved", "steady", "steady", "suspect", "steady"],
     [None, 119.0, 119.0, 100.0, 80.0, 108.0, 108.0, 108.0, 108.0]),
    # of several excursions, the one whose smaller move is the largest goes first
    ([96.0, 118.0, 300.0, 90.0, 50.0, 110.0, 93.0, 60.0],
     ["first", "suspect", "suspect", "steady", "suspect", "suspect", "steady", "regressed"], [None, *[93.0] * 7]),
    # 300 goes first (its smaller move, down to 100, is larger than 120's down to 60); then, of 120 and
    # 60 (each now an excursion between its neighbours), 120, whose smaller move is larger: 50, 60 and
    # 100 are left, two steps
    ([50.0, 120.0, 60.0, 300.0, 100.0], ["first", "suspect", "improved", "suspect", "improved"],
     [None, 50.0, 50.0, 60.0, 60.0]),
])
def test_series_found_against_the_mutants(values: list[float], kinds: list[str], levels: list[float | None]) -> None:
    assert judged(values) == (kinds, levels)


def test_a_release_is_found_by_its_version_not_as_text() -> None:
    result = judge([("2.9", 100.0), ("2.10", 100.0)], False)
    assert result.of("2.10") is result.points[1] and result.of("2.9") is result.points[0]
    assert result.of("2.11") is None


def test_a_swing_from_the_second_release_counts_the_first_in_its_spread() -> None:
    assert judge([(f"v{i}", v) for i, v in enumerate([90.0, 200.0, 100.0, 200.0])], False).spread == (90.0, 200.0)


def test_a_suspect_point_before_a_step_is_judged_against_the_level_before_it_not_after() -> None:
    kinds, levels = judged([100.0, 100.0, 50.0, 100.0, 100.0, 200.0, 200.0])
    assert kinds[2] == "suspect" and levels[2] == 100.0 and levels[6] == 200.0


def test_a_judgement_and_its_points_are_immutable() -> None:
    from dataclasses import FrozenInstanceError
    result = judge([("a", 1.0), ("b", 2.0)], False)
    with pytest.raises(FrozenInstanceError):
        result.noise = 0.0  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        result.points[0].kind = "steady"  # type: ignore[misc]


def test_a_single_release_has_the_minimum_noise_as_the_rule_states_it() -> None:
    assert judge([("a", 100.0)], False).noise == 0.01


def test_a_series_swings_from_its_first_swing() -> None:
    assert judged([100.0, 200.0, 100.0, 200.0, 100.0])[0] == ["first", "unstable", "unstable", "unstable", "unstable"]


def test_neighbours_differing_by_exactly_half_the_smaller_move_do_not_make_an_excursion() -> None:
    # 1000 -> 4000 -> 500: the smaller move is 4000 -> 500 (a factor 8), the neighbours differ by a
    # factor 2, exactly half of it on the log scale: not "less than" half, so two steps, no suspect point
    a, b, c = (math.log(v) for v in (1000.0, 4000.0, 500.0))
    assert abs(c - a) == 0.5 * min(abs(b - a), abs(c - b))  # the premise, exact in floats
    assert judged([1000.0, 1000.0, 4000.0, 500.0, 500.0])[0] == ["first", "steady", "improved", "regressed", "steady"]
    assert judged([1000.0, 1000.0, 4000.0, 600.0, 600.0])[0] == ["first", "steady", "suspect", "regressed", "steady"]


def test_a_step_of_exactly_the_noise_factor_times_the_noise_is_not_a_step() -> None:
    # Two levels of three releases each, about 14% apart, each release within 3% of its level: the
    # step between the levels is, in floats, exactly three times the noise (found by searching the
    # last digits of the second level), so it is not beyond it and the levels are one.
    values = [100.0, 97.0, 103.0, 114.05055632216049, 110.62903963249568, 117.4720730118253]
    y = [math.log(v) for v in values]
    residuals = [abs(y[i] - statistics.median(y[j] for j in part)) for part in ((0, 1, 2), (3, 4, 5)) for i in part]
    noise = 1.4826 * statistics.median(residuals)
    step = math.log(statistics.median(math.exp(y[i]) for i in (3, 4, 5))) - math.log(
        statistics.median(math.exp(y[i]) for i in (0, 1, 2)))
    assert step == 3.0 * noise  # the premise, exact in floats
    assert set(judged(values)[0]) == {"first", "steady"}
    higher = [*values[:3], *(v * 1.001 for v in values[3:])]  # a step just beyond it
    assert judged(higher)[0] == ["first", "steady", "steady", "improved", "steady", "steady"]


def test_a_figure_of_zero_is_judged_like_any_other() -> None:
    # read on the log scale as a tiny figure, never an error
    assert judged([100.0, 0.0, 100.0]) == (["first", "suspect", "steady"], [None, 100.0, 100.0])
    assert judged([100.0, 100.0, 0.0]) == (["first", "steady", "regressed"], [None, 100.0, 100.0])
    assert judged([0.0, 0.0, 100.0]) == (["first", "steady", "improved"], [None, 0.0, 0.0])


def test_a_rule_of_other_parameters_judges_and_states_them() -> None:
    from dataclasses import FrozenInstanceError

    from neuron_docs.data.published.judgement import JudgementRule, rule_text
    series = [(f"v{i}", v) for i, v in enumerate([100.0, 100.0, 100.0, 125.0, 125.0])]
    assert [p.kind for p in judge(series, False).points] == ["first", "steady", "steady", "improved", "steady"]
    wide = JudgementRule(threshold=0.3)  # a 25% step is within a threshold of 30%
    assert [p.kind for p in judge(series, False, wide).points] == ["first", "steady", "steady", "steady", "steady"]
    text = " ".join(rule_text(JudgementRule(threshold=0.25, noise_factor=2.5, min_noise=0.02, returns=0.4)))
    assert "more than 25%" in text and "less than 40%" in text and "2.5 times the noise" in text and "at least 2%" in text
    with pytest.raises(FrozenInstanceError):
        wide.threshold = 0.1  # type: ignore[misc]


def test_a_level_whose_first_release_moves_the_other_way_is_no_step() -> None:
    # PELT cuts 112 112 | 100 100 | 109 118 118 | 129 x 6. 118 -> 129 (9.3%) is within the threshold:
    # merged first (129's six releases make the level 129); then 100 -> that level, whose first release
    # (109) is within 10% of 100: merged. The level so made is 129, 15% above the 112 before it, but its
    # first release, 100, is 11% *below* 112: not a step the same way, so it is merged too and the
    # series is one level (median 118). Counting it as a step would call a fall of 11% "improved".
    values = [112.0, 112.0, 100.0, 100.0, 109.0, 118.0, 118.0, *[129.0] * 6]
    assert 129.0 / 112.0 > 1.1 and 100.0 / 112.0 < 0.9 and 109.0 / 100.0 < 1.1 and 129.0 / 118.0 < 1.1  # the premise
    assert judged(values) == (["first", *["steady"] * 12], [None, *[118.0] * 12])
    assert judged(values, lower_is_better=True) == (["first", *["steady"] * 12], [None, *[118.0] * 12])
