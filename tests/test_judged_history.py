"""The judgement of the repository's real series (data/benchmarks/history/), as the issue saw them:
computed from the catalog (configurations found by their identity columns, figures read from the
history), not typed figures. The rule on small series: test_judgement.py."""

from __future__ import annotations

import pytest

from neuron_docs.data.records.history import version_key
from neuron_docs.data.published.history_view import (
    BenchmarkHistoryIndex, change_text, held_since, lower_is_better, since_previous, state_changes,
)
from neuron_docs.data.records.labels import THROUGHPUT_FIELDS


def _throughput(index: BenchmarkHistoryIndex, cid: str) -> str:
    metric = index.throughput_metric(cid)
    assert metric is not None
    return metric


def _changes(index: BenchmarkHistoryIndex, cid: str) -> list:
    return [c for found in state_changes(index).values() for c in found if c.configuration == cid]


def _bert_latency_optimised(catalog) -> str:  # noqa: ANN001
    """bert-base-cased on Inf2, latency-optimised table, batch 1, sequence 128: the configuration with most releases."""
    index = BenchmarkHistoryIndex.of(catalog)
    found = [c.id for c in catalog.benchmark_configurations.values()
             if c.generation == "inf2" and c.view == "latency" and c.batch_size == 1 and c.sequence_length == 128
             and c.model in ("bert-base-cased", "BERT base (bert-base-cased)")]
    assert found
    return max(found, key=lambda cid: len(index.releases_of(cid)))


def test_a_publication_error_is_a_suspect_point_not_a_regression_then_an_improvement(catalog) -> None:  # noqa: ANN001
    index = BenchmarkHistoryIndex.of(catalog)
    cid = _bert_latency_optimised(catalog)
    metric = _throughput(index, cid)
    figures = {r.version: r.figures[metric] for r in index.releases_of(cid) if metric in r.figures}
    judged = index.judgement(cid, metric)
    # the release whose figure is a fiftieth of the rest: the publication error
    level = sorted(figures.values())[len(figures) // 2]
    error = next(v for v, x in figures.items() if x < level / 10)
    assert judged.of(error).kind == "suspect"
    changes = [c for c in _changes(index, cid) if c.metric == metric]
    assert not [c for c in changes if c.kind in ("regressed", "improved")], [change_text(c) for c in changes]
    suspect = next(c for c in changes if c.version == error)
    assert suspect.kind == "suspect" and "suspect point" in change_text(suspect)
    # the latency (near 1 ms) stayed around the error: no latency change there either (its own
    # one-release excursions are suspect points; the series may have real steps elsewhere)
    after = sorted(figures, key=version_key)
    around = set(after[after.index(error) - 1:after.index(error) + 2])
    latency = [c for c in _changes(index, cid) if lower_is_better(c.metric) and c.version in around]
    assert latency and {c.kind for c in latency} <= {"steady", "suspect"}


@pytest.mark.parametrize("model", ["conv", "four", "lear"])  # the three vision perceivers
def test_a_series_that_halves_and_doubles_is_unstable_not_improved(catalog, model: str) -> None:  # noqa: ANN001
    index = BenchmarkHistoryIndex.of(catalog)
    found = [c.id for c in catalog.benchmark_configurations.values()
             if c.generation == "inf2" and "vision-perceiver" in c.id and f"-{model}" in c.id]
    swinging = []
    for cid in found:
        metric = _throughput(index, cid)
        values = [float(r.figures[metric]) for r in index.releases_of(cid) if metric in r.figures]
        ups_and_downs = sum(1 for a, b, c in zip(values, values[1:], values[2:], strict=False)
                            if (b / a > 1.5 and b / c > 1.5) or (a / b > 1.5 and c / b > 1.5))
        if ups_and_downs >= 2:
            swinging.append(cid)
            judged = index.judgement(cid, metric)
            assert judged.unstable and judged.spread == (min(values[1:]), max(values[1:]))
            kinds = {c.kind for c in _changes(index, cid) if c.metric == metric}
            assert "unstable" in kinds and "improved" not in kinds and "regressed" not in kinds
    assert swinging  # the case is in the data


def test_latency_changes_are_judged_in_their_own_direction(catalog) -> None:  # noqa: ANN001
    changes = [c for found in state_changes(BenchmarkHistoryIndex.of(catalog)).values() for c in found
               if c.kind in ("improved", "regressed") and c.metric and lower_is_better(c.metric)]
    assert {c.kind for c in changes} == {"improved", "regressed"}
    for c in changes:  # a latency that rose regressed
        assert (c.ratio > 0) == (c.kind == "regressed"), change_text(c)


def test_a_suspect_point_neither_ends_nor_starts_a_hold_nor_is_compared_with(catalog) -> None:  # noqa: ANN001
    index = BenchmarkHistoryIndex.of(catalog)
    checked = 0
    for run in catalog.published_inference_runs.values():
        if run.id not in catalog.benchmark_configurations:
            continue
        metric = index.throughput_metric(run.id)
        if metric is None or run.throughput() is None or run.throughput()[0] != metric:
            continue  # a throughput published under another name earlier (a renamed column): its own series
        judged = index.judgement(run.id, metric)
        since = held_since(catalog, run)
        if since is None:
            continue
        version = since.removeprefix("Neuron ").split(" ")[0]
        point = judged.of(version)
        assert point is not None and point.kind != "suspect"
        found = since_previous(catalog, run, next(m for m in THROUGHPUT_FIELDS if getattr(run, m, None) is not None))
        if found is not None:
            assert judged.of(found.previous_version).kind != "suspect"
        checked += 1
    assert checked
