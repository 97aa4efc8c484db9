"""Figures quoted for a named Neuron release (``drift/history.py``), on a small benchmark history built
in the test (configurations, observations and instances made with ``model_construct``): the release a
sentence names, which observations a figure's words name (the model, the instance or its family, an
instance type in full, the model named best), the unit, quantity, percentile and batch size, a figure
right for its release or contradicting the nearest figure, one published and then corrected, one
that is another release's, and what is said of each (what followed, a withdrawn configuration). No
data files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.records import history as hs
from neuron_docs.data.records import models as s
from neuron_docs.drift.aspects import Aspects
from neuron_docs.drift.history import ObservationsByRelease, Quoted, release_named
from neuron_docs.drift.literal_figures import LiteralFigure, find_figures

THROUGHPUT, P50, P99 = "throughput_inferences_per_s", "latency_p50_ms", "latency_p99_ms"


def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


def config(cid: str, model: str, instance: str | None = None, instances: str | None = None, batch: int | None = 1,
           withdrawn: date | None = None) -> hs.BenchmarkConfiguration:
    return hs.BenchmarkConfiguration.model_construct(id=cid, model=model, instance=instance, instances=instances,
                                                     batch_size=batch, withdrawn=withdrawn)


def obs(oid: str, cid: str, version: str, metric: str, value: float, published: date = date(2023, 3, 1),
        status: str = "published") -> hs.BenchmarkObservation:
    return hs.BenchmarkObservation.model_construct(id=oid, configuration=cid, neuron_version=made(version),
                                                   metric=made(metric), value=value, first_published=published,
                                                   status=made(status))


CONFIGS = [
    config("c-albert", "albert-base-v2", "inf2.xlarge"),
    config("c-albert-b8", "albert-base-v2", "inf2.xlarge", batch=8),
    config("c-bert-large", "bert-large", instances="trn1.32xlarge;trn1.2xlarge"),
    config("c-bert-base", "bert-base", instances="trn1.32xlarge", batch=None),
    config("c-gpt2", "gpt2", "inf2.xlarge", withdrawn=date(2024, 1, 2)),
    config("c-vit", "vit", "inf2.8xlarge"),
    config("c-albert-13", "albert-base-v2", "inf2.xlarge"),
    config("c-albert-00", "albert-base-v2", "inf2.xlarge"),
    config("c-albert-99", "albert-base-v2", "inf2.xlarge"),
    config("c-albert-14", "albert-base-v2", "inf2.xlarge"),
    config("c-albert-15", "albert-base-v2", "inf2.xlarge"),
    config("c-albert-trn", "albert-base-v2", "trn1.32xlarge"),
    config("c-roberta", "roberta", "inf2.xlarge"),
    config("c-albert-b4", "albert-base-v2", "inf2.xlarge", batch=4),
]
OBSERVATIONS = [
    # Left out: a configuration the history lacks, a metric of no known field, a field without a unit.
    obs("o-lost", "c-gone", "2.9.0", THROUGHPUT, 2437.0),
    obs("o-odd", "c-albert", "2.9.0", "no_such_metric", 2437.0),
    obs("o-batch", "c-albert", "2.9.0", "batch_size", 2437.0),
    # Named by its model but not its instance's family where ALBERT is: passed over, not the end.
    obs("o-albert-trn", "c-albert-trn", "2.9.0", THROUGHPUT, 111.0),
    obs("o-albert-29", "c-albert", "2.9.0", THROUGHPUT, 2437.0),
    obs("o-albert-210", "c-albert", "2.10.0", THROUGHPUT, 2500.0, date(2023, 5, 1)),
    obs("o-albert-p50", "c-albert", "2.9.0", P50, 4.1),
    obs("o-albert-p99", "c-albert", "2.9.0", P99, 6.0),
    obs("o-albert-p50-210", "c-albert", "2.10.0", P50, 5.0, date(2023, 5, 1)),
    obs("o-albert-b8", "c-albert-b8", "2.9.0", THROUGHPUT, 9000.0),
    obs("o-albert-212-wrong", "c-albert", "2.12.0", THROUGHPUT, 2600.0, date(2023, 7, 1), status="corrected"),
    obs("o-albert-212", "c-albert", "2.12.0", THROUGHPUT, 2650.0, date(2023, 7, 3)),
    obs("o-bert-large", "c-bert-large", "2.9.0", THROUGHPUT, 300.0),
    obs("o-bert-base", "c-bert-base", "2.9.0", THROUGHPUT, 500.0),
    obs("o-gpt2", "c-gpt2", "2.9.0", THROUGHPUT, 100.0),
    obs("o-gpt2-wrong", "c-gpt2", "2.11.0", THROUGHPUT, 120.0, status="corrected"),
    obs("o-vit", "c-vit", "2.9.0", THROUGHPUT, 700.0),
    # 2.13.0: a P99 listed before a P50 corrected and its fix.
    obs("o-13-other-after", "c-albert-99", "2.13.0", P50, 20.0),
    obs("o-13-other-before", "c-albert-00", "2.13.0", P50, 21.0),
    obs("o-13-p99", "c-albert-13", "2.13.0", P99, 9.0),
    obs("o-13-p50-wrong", "c-albert-13", "2.13.0", P50, 7.0, date(2024, 2, 1), status="corrected"),
    obs("o-13-p50", "c-albert-13", "2.13.0", P50, 7.5, date(2024, 2, 3)),
    # 2.14.0: a P50 listed before a P99 corrected and its fix.
    obs("o-14-p50", "c-albert-14", "2.14.0", P50, 3.0),
    obs("o-14-p99-wrong", "c-albert-14", "2.14.0", P99, 7.0, date(2024, 3, 1), status="corrected"),
    obs("o-14-p99", "c-albert-14", "2.14.0", P99, 7.5, date(2024, 3, 3)),
    # 2.15.0: a figure below one, and one in seconds.
    obs("o-15-p50", "c-albert-15", "2.15.0", P50, 0.6),
    obs("o-15-run", "c-albert-15", "2.15.0", "duration", 2.0),
    # A later release's figure listed before an earlier one's.
    obs("o-roberta-220-old", "c-roberta", "2.20.0", THROUGHPUT, 45.0, date(2024, 12, 1), status="superseded"),
    obs("o-roberta-220", "c-roberta", "2.20.0", THROUGHPUT, 50.0, date(2025, 1, 1)),
    obs("o-roberta-29", "c-roberta", "2.9.0", THROUGHPUT, 40.0),
    obs("o-albert-b4", "c-albert-b4", "2.9.0", THROUGHPUT, 3000.0),
]


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["benchmark_configurations"] = {c.id: c for c in CONFIGS}
    cat.records["benchmark_observations"] = {o.id: o for o in OBSERVATIONS}
    cat.records["instances"] = {i.id: i for i in (
        s.Instance.model_construct(id="inf2.xlarge", family="inf2"),
        s.Instance.model_construct(id="trn1.32xlarge", family="trn1"),
        s.Instance.model_construct(id="inf2.8xlarge", family="inferentia-two"))}
    return cat


HISTORY = ObservationsByRelease(catalog())
ALBERT = {"albert", "base", "v2", "inf2"}


def quote(text: str, context: set[str], release: str = "2.9.0", **options: Any) -> Quoted | None:
    [figure] = find_figures(text)
    return HISTORY.match(figure, context, release, **options)


def summary(found: Quoted | None) -> tuple[str, bool, str] | None:
    return found and (found.expression, found.agrees, found.expected)


# --- the release a sentence names ------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "release"), [
    ("on Neuron 2.9", "2.9.0"), ("with Neuron SDK 2.18.0", "2.18.0"), ("Neuron release 2.10", "2.10.0"),
    ("neuron version v2.11", "2.11.0"), ("release 2.9", "2.9.0"), ("version 2.12.1", "2.12.1"),
    ("it is 2.9 ms", None), ("Neuron 2.9.1.5", None), ("Neuron 2.9x", None), ("", None),
])
def test_the_release_a_sentence_names(text: str, release: str | None) -> None:
    assert release_named(text, 0) == release


def test_the_release_nearest_the_figure() -> None:
    text = "Neuron 2.9 gave 5 ms and Neuron 2.10 gave 4 ms"
    #       0               16      24      32
    assert release_named(text, 5) == "2.9.0"
    assert release_named(text, 12) == "2.9.0"
    assert release_named(text, 13) == "2.10.0"
    assert release_named(text, 40) == "2.10.0"


# --- the observations a figure's words name ---------------------------------------------------------------

def test_a_figure_right_for_its_release() -> None:
    found = quote("2,437 inferences/s", ALBERT, quantities=frozenset({"throughput"}), aspects=Aspects(batch=1))
    assert found is not None
    assert (found.expression, found.agrees, found.expected) == ("history:o-albert-29", True, "2437 inferences/s")
    assert found.observation is next(o for o in OBSERVATIONS if o.id == "o-albert-29")
    assert found.configuration is CONFIGS[0]
    assert found.reason == ("right for Neuron 2.9.0 (an older release's figure): the throughput of albert-base-v2 on "
                            "inf2.xlarge, batch size 1, published 2023-03-01; Neuron 2.12.0 gives 2650 inferences/s, published "
                            "2023-07-03")


def test_a_figure_contradicting_its_releases_nearest() -> None:
    found = quote("2,300 inferences/s", ALBERT, aspects=Aspects(batch=1))
    assert summary(found) == ("history:o-albert-29", False, "2437 inferences/s")
    assert found is not None
    assert found.reason == ("Neuron 2.9.0 gives 2437 inferences/s for the throughput of albert-base-v2 on inf2.xlarge, batch "
                            "size 1; Neuron 2.12.0 gives 2650 inferences/s, published 2023-07-03")
    # Off by more than half the figure: not meant.
    assert quote("1,600 inferences/s", ALBERT, aspects=Aspects(batch=1)) is None
    assert summary(quote("1,700 inferences/s", ALBERT, aspects=Aspects(batch=1))) == (
        "history:o-albert-29", False, "2437 inferences/s")
    assert quote("4,900 inferences/s", ALBERT, aspects=Aspects(batch=1)) is None
    # Exactly half off (2,437 of 4,874) is still meant.
    assert summary(quote("4,874 inferences/s", ALBERT, aspects=Aspects(batch=1))) == (
        "history:o-albert-29", False, "2437 inferences/s")
    assert summary(quote("4,800 inferences/s", ALBERT, aspects=Aspects(batch=1))) == (
        "history:o-albert-29", False, "2437 inferences/s")


def test_of_several_the_one_it_agrees_with_else_the_nearest() -> None:
    assert summary(quote("9,000 inferences/s", ALBERT)) == ("history:o-albert-b8", True, "9000 inferences/s")
    assert summary(quote("2,437 inferences/s", ALBERT)) == ("history:o-albert-29", True, "2437 inferences/s")
    assert summary(quote("8,000 inferences/s", ALBERT)) == ("history:o-albert-b8", False, "9000 inferences/s")
    assert summary(quote("2,000 inferences/s", ALBERT)) == ("history:o-albert-29", False, "2437 inferences/s")


def test_a_figure_in_another_unit_of_the_same_measure() -> None:
    assert summary(quote("0.0041 s", ALBERT, aspects=Aspects(percentile="50"))) == ("history:o-albert-p50", True,
                                                                                  "4.1 ms")


def test_the_unit_quantity_percentile_and_batch_the_words_give() -> None:
    assert summary(quote("4.1 ms", ALBERT)) == ("history:o-albert-p50", True, "4.1 ms")
    assert summary(quote("6 ms", ALBERT)) == ("history:o-albert-p99", True, "6 ms")
    assert summary(quote("5 ms", ALBERT, aspects=Aspects(percentile="99"))) == ("history:o-albert-p99", False, "6 ms")
    assert summary(quote("5 ms", ALBERT, aspects=Aspects(percentile=made("50")))) == ("history:o-albert-p50", False,
                                                                                     "4.1 ms")
    assert quote("5 ms", ALBERT, quantities=frozenset({"throughput"})) is None
    assert quote("5 ms", ALBERT, quantities=frozenset({"latency"})) is not None
    assert quote("5 GB", ALBERT) is None
    assert summary(quote("8,500 inferences/s", ALBERT, aspects=Aspects(batch=1))) is None
    assert summary(quote("8,500 inferences/s", ALBERT, aspects=Aspects(batch=8))) == ("history:o-albert-b8", False,
                                                                                     "9000 inferences/s")
    assert summary(quote("2,437 inferences/s", ALBERT, aspects=Aspects())) == ("history:o-albert-29", True, "2437 inferences/s")


def test_the_subject_the_words_name() -> None:
    # The model by a word that names it ("v2" alone does not), and the instance or its family.
    assert quote("2,437 inferences/s", {"v2", "inf2"}) is None
    assert quote("2,437 inferences/s", {"albert"}) is None
    assert quote("2,437 inferences/s", {"albert", "trn1"}) is None
    assert summary(quote("2,437 inferences/s", {"albert", "inf2.xlarge"})) == ("history:o-albert-29", True, "2437 inferences/s")
    # An instance type written in full must be the configuration's own.
    assert quote("2,437 inferences/s", {"albert", "inf2", "inf2.8xlarge"}) is None
    assert summary(quote("300 inferences/s", {"bert", "bert-large", "trn1.2xlarge"})) == ("history:o-bert-large", True,
                                                                                      "300 inferences/s")
    # A family the catalog gives the instance, or the instance type's first part.
    assert summary(quote("700 inferences/s", {"vit", "inferentia-two"})) == ("history:o-vit", True, "700 inferences/s")
    assert summary(quote("700 inferences/s", {"vit", "inf2"})) == ("history:o-vit", True, "700 inferences/s")


def test_the_model_named_best() -> None:
    assert summary(quote("300 inferences/s", {"bert", "bert-large", "trn1"})) == ("history:o-bert-large", True, "300 inferences/s")
    assert summary(quote("500 inferences/s", {"bert", "bert-base", "trn1"})) == ("history:o-bert-base", True, "500 inferences/s")
    # A model named less well is not meant, even by a figure it agrees with.
    assert summary(quote("500 inferences/s", {"bert", "bert-large", "trn1"})) == ("history:o-bert-large", False,
                                                                            "300 inferences/s")
    # Named as well: both, the nearest.
    assert summary(quote("450 inferences/s", {"bert", "trn1"})) == ("history:o-bert-base", False, "500 inferences/s")
    assert summary(quote("350 inferences/s", {"bert", "trn1"})) == ("history:o-bert-large", False, "300 inferences/s")


def test_a_release_the_history_does_not_hold_says_nothing() -> None:
    assert quote("2,437 inferences/s", ALBERT, release="2.8.0") is None
    assert quote("100 inferences/s", {"gpt2", "inf2"}, release="2.11.0") is None


# --- corrected figures, other releases, what followed ---------------------------------------------------------

def test_a_figure_published_and_then_corrected() -> None:
    found = quote("2,600 inferences/s", ALBERT, release="2.12.0")
    assert summary(found) == ("history:o-albert-212", False, "2650 inferences/s")
    assert found is not None
    assert found.reason == ("Neuron 2.12.0 gives 2650 inferences/s for the throughput of albert-base-v2 on inf2.xlarge, batch "
                            "size 1; still published (2,600 inferences/s was published 2023-07-01 and corrected)")
    # The corrected figure is no candidate otherwise.
    assert summary(quote("2,610 inferences/s", ALBERT, release="2.12.0")) == ("history:o-albert-212", False, "2650 inferences/s")
    assert summary(quote("2,650 inferences/s", ALBERT, release="2.12.0")) == ("history:o-albert-212", True, "2650 inferences/s")


def test_a_figure_of_another_release_given_to_this_one() -> None:
    found = quote("2,500 inferences/s", ALBERT, aspects=Aspects(batch=1))
    assert summary(found) == ("history:o-albert-29", False, "2437 inferences/s")
    assert found is not None
    assert found.reason.endswith("(2,500 inferences/s is Neuron 2.10.0's figure)")
    found = quote("2,437 inferences/s", ALBERT, release="2.10.0")
    assert found is not None
    assert found.reason.endswith("(2,437 inferences/s is Neuron 2.9.0's figure)")
    # The first other release whose figure it is, in release order.
    found = quote("2,650 inferences/s", ALBERT, aspects=Aspects(batch=1))
    assert found is not None
    assert found.reason.endswith("(2,650 inferences/s is Neuron 2.12.0's figure)")
    # A figure of no release.
    found = quote("2,300 inferences/s", ALBERT, aspects=Aspects(batch=1))
    assert found is not None
    assert "figure)" not in found.reason


def test_another_releases_figure_only_of_the_same_metric() -> None:
    # 6 ms is 2.9.0's P99, not a P50: at 2.10.0 it contradicts the P50 and is no other release's figure.
    found = quote("6 ms", ALBERT, release="2.10.0")
    assert summary(found) == ("history:o-albert-p50-210", False, "5 ms")
    assert found is not None
    assert found.reason.endswith("; still published")
    found = quote("4.1 ms", ALBERT, release="2.10.0")
    assert found is not None
    assert found.reason.endswith("(4.1 ms is Neuron 2.9.0's figure)")


def test_what_followed_a_withdrawn_configuration() -> None:
    found = quote("100 inferences/s", {"gpt2", "inf2"})
    assert found is not None
    assert found.reason == ("right for Neuron 2.9.0 (an older release's figure): the throughput of gpt2 on inf2.xlarge, "
                            "batch size 1, published 2023-03-01; the configuration was withdrawn on 2024-01-02")


def test_the_current_figure_still_published() -> None:
    found = quote("300 inferences/s", {"bert", "bert-large", "trn1"})
    assert found is not None
    assert found.reason == ("right for Neuron 2.9.0 (the current figure): the throughput of bert-large on "
                            "trn1.32xlarge;trn1.2xlarge, batch size 1, published 2023-03-01; still published")
    found = quote("500 inferences/s", {"bert", "bert-base", "trn1"})
    assert found is not None
    assert found.reason == ("right for Neuron 2.9.0 (the current figure): the throughput of bert-base on "
                            "trn1.32xlarge, published 2023-03-01; still published")


def test_a_figure_with_a_qualifier_or_a_range() -> None:
    assert summary(HISTORY.match(LiteralFigure("over 2,000 inferences/s", 0, 1, 2000.0, 0, "inferences/s",
                                               qualifier="over"), ALBERT, "2.9.0", aspects=Aspects(batch=1))) == (
        "history:o-albert-29", True, "2437 inferences/s")


def test_a_corrected_figure_is_replaced_by_its_own_metrics_fix() -> None:
    found = quote("7 ms", ALBERT, release="2.13.0")
    assert summary(found) == ("history:o-13-p50", False, "7.5 ms")



def test_quotes_and_entries_are_frozen() -> None:
    found = quote("2,437 inferences/s", ALBERT, aspects=Aspects(batch=1))
    assert found is not None
    with pytest.raises(FrozenInstanceError):
        found.agrees = False  # type: ignore[misc]
    entry = HISTORY._by_release["2.9.0"][0]
    with pytest.raises(FrozenInstanceError):
        entry.number = 1.0  # type: ignore[misc]


def test_a_corrected_figure_is_replaced_by_its_fix_whatever_the_metrics_order() -> None:
    assert summary(quote("7 ms", ALBERT, release="2.14.0")) == ("history:o-14-p99", False, "7.5 ms")


def test_a_figure_in_another_unit_is_not_a_releases_figure() -> None:
    assert quote("2,437 ms", ALBERT, aspects=Aspects(batch=1)) is None


def test_a_figure_below_one_is_off_by_its_own_size() -> None:
    # 0.6 ms against 0.35 ms is off by 0.25, more than half of 0.35; against 0.42 ms, less than half.
    assert quote("0.35 ms", ALBERT, release="2.15.0") is None
    assert summary(quote("0.42 ms", ALBERT, release="2.15.0")) == ("history:o-15-p50", False, "0.6 ms")
    assert quote("0 ms", ALBERT, release="2.15.0") is None


def test_a_figure_in_seconds_of_a_metric_in_seconds() -> None:
    assert summary(quote("2 s", ALBERT, release="2.15.0")) == ("history:o-15-run", True, "2 s")
    assert summary(quote("2,000 ms", ALBERT, release="2.15.0")) == ("history:o-15-run", True, "2 s")


def test_an_entry_of_another_family_is_passed_over() -> None:
    assert summary(quote("111 inferences/s", {"albert", "trn1"})) == ("history:o-albert-trn", True,
                                                                       "111 inferences/s")
    assert summary(quote("2,437 inferences/s", {"albert", "inf2"})) == ("history:o-albert-29", True,
                                                                         "2437 inferences/s")


def test_what_followed_is_the_latest_release_whatever_the_order() -> None:
    found = quote("40 inferences/s", {"roberta", "inf2"})
    assert found is not None
    assert found.reason.endswith("; Neuron 2.20.0 gives 50 inferences/s, published 2025-01-01")


def test_a_figure_of_this_release_is_not_another_releases() -> None:
    # 3,000 is 2.9.0's figure at batch size 4: at batch size 1 it contradicts 2.9.0's, and is no other release's.
    found = quote("3,000 inferences/s", ALBERT, aspects=Aspects(batch=1))
    assert summary(found) == ("history:o-albert-29", False, "2437 inferences/s")
    assert found is not None
    assert "figure)" not in found.reason

