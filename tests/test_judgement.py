"""The judgement of a figure's series across releases (data/published/judgement.py), on small series:
one test per kind of judgement. The real cases of the repository's data are in test_judged_history.py."""

from __future__ import annotations

from neuron_docs.data.published.judgement import RULE, judge, rule_text


def _kinds(values: list[float], lower_is_better: bool = False) -> list[str]:
    return [p.kind for p in judge([(f"2.{i}", v) for i, v in enumerate(values)], lower_is_better).points]


def test_a_sustained_step_beyond_the_threshold_is_one_change_in_the_metrics_direction() -> None:
    assert _kinds([100, 101, 99, 100, 80, 81, 79]) == ["first", "steady", "steady", "steady", "regressed",
                                                        "steady", "steady"]
    assert _kinds([100, 101, 99, 100, 125, 124]) == ["first", "steady", "steady", "steady", "improved", "steady"]
    point = judge([("a", 100), ("b", 101), ("c", 99), ("d", 80), ("e", 81)], False).of("d")
    assert point is not None and point.level == 100 and point.level_versions == ("a", "b", "c")
    assert point.ratio is not None and round(point.ratio, 2) == -0.20


def test_a_step_within_the_threshold_or_the_noise_is_steady() -> None:
    assert set(_kinds([100, 101, 99, 100, 95, 96, 94])) == {"first", "steady"}
    # A noisy series (about 8% up and down around its level): a 12% step is within 3 x its noise.
    assert "improved" not in _kinds([100, 108, 93, 104, 96, 112, 118, 109, 121])


def test_a_one_release_excursion_that_returns_is_a_suspect_point_not_two_changes() -> None:
    judged = judge([(f"2.{i}", v) for i, v in enumerate([1900, 1910, 1890, 41.24, 1920, 1905])], False)
    assert [p.kind for p in judged.points] == ["first", "steady", "steady", "suspect", "steady", "steady"]
    assert judged.holds_since() == "2.0"  # a suspect point neither ends nor starts a level


def test_the_newest_release_alone_at_a_new_level_is_a_step_until_a_later_one_returns() -> None:
    assert _kinds([100, 100, 100, 60]) == ["first", "steady", "steady", "regressed"]
    assert _kinds([100, 100, 100, 60, 100]) == ["first", "steady", "steady", "suspect", "steady"]


def test_a_series_that_swings_repeatedly_is_unstable_with_its_spread() -> None:
    judged = judge([(f"2.{i}", v) for i, v in enumerate([71.5, 71.5, 123.8, 70.1, 126.5])], False)
    assert [p.kind for p in judged.points] == ["first", "steady", "unstable", "unstable", "unstable"]
    assert judged.spread == (70.1, 126.5) and judged.holds_since() is None


def test_a_latency_or_a_cost_improves_when_it_falls() -> None:
    assert _kinds([1.0, 1.01, 0.99, 1.3, 1.31], lower_is_better=True)[3] == "regressed"
    assert _kinds([1.0, 1.01, 0.99, 0.7, 0.71], lower_is_better=True)[3] == "improved"


def test_a_steady_series_and_a_short_one() -> None:
    assert _kinds([100, 100, 100]) == ["first", "steady", "steady"]
    assert _kinds([100]) == ["first"] and judge([], False).points == ()


def test_the_rule_is_stated_with_its_parameters() -> None:
    text = " ".join(rule_text())
    assert f"{RULE.threshold:.0%}" in text and "ruptures" in text and "suspect" in text.lower()
