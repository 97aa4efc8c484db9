"""What a figure's words pin down besides its quantity (``drift/aspects.py``), on texts and paths
written in the test: the percentile named nearest a figure and the one a data path's field measures,
whether a value can be the percentile wanted, the one batch size and the compiler options a text
names, the devices and instances it gives figures to (not those it counts or compares with), and
which of them the data does not hold. No catalog, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from neuron_docs.drift.aspects import (
    Aspects,
    batch_of_text,
    options_of_text,
    percentile_of_path,
    percentile_of_text,
    same_percentile,
    subjects_named,
    unknown_subject,
)


def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


# --- percentiles -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("P99 latency", "99"), ("p100", "100"), ("90th percentile", "90"), ("95 percentile", "95"), ("50th-percentile", "50"),
    ("the median", "50"), ("the MEDIAN", "50"), ("Median", "50"), ("latency", None), ("p42", None), ("p900", None),
    ("", None),
])
def test_the_percentile_a_text_names(text: str, expected: str | None) -> None:
    assert percentile_of_text(text, 0) == expected


def test_the_percentile_nearest_the_figure() -> None:
    text = "p90 is 5 ms and p50 is 3 ms"
    #       0               16
    assert percentile_of_text(text, 4) == "90"
    assert percentile_of_text(text, 20) == "50"
    assert percentile_of_text(text, 7) == "90"
    assert percentile_of_text(text, 9) == "50"
    assert percentile_of_text("median 7 ms, p99 9 ms", 13) == "99"
    assert percentile_of_text("p99 9 ms, median 7 ms", 13) == "50"


@pytest.mark.parametrize(("path", "expected"), [
    ("prun:x:latency_p99_ms", "99"), ("run:y:p90_latency_ms", "90"), ("prun:x:ttft_p50_ms", "50"),
    ("prun:x:latency_p100_ms", "100"), ("p99", "99"), ("prun:x:latency_ms", None), ("p90:x:latency_ms", None),
    ("prun:x:latencyp90_ms", None), ("prun:x:latency_p900", None), ("prun:p90_x:latency", None),
])
def test_the_percentile_a_paths_field_measures(path: str, expected: str | None) -> None:
    assert percentile_of_path(made(path)) == expected


def test_a_value_can_be_the_percentile_wanted() -> None:
    assert same_percentile(None, "prun:x:latency_p99_ms")
    assert same_percentile(made("99"), made("prun:x:latency_p99_ms"))
    assert not same_percentile(made("90"), "prun:x:latency_p99_ms")
    assert not same_percentile(made("100"), "prun:x:latency_p99_ms")
    assert not same_percentile(made("90"), "prun:x:latency_p50_ms")
    assert not same_percentile(made("99"), "prun:x:latency_p100_ms")
    # A value of no percentile can be any.
    assert same_percentile(made("90"), "prun:x:latency_ms")
    assert same_percentile(None, "prun:x:latency_ms")


# --- batch sizes and options ---------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("at batch size 3", 3), ("batch-size of 16", 16), ("batchsize 4", 4), ("B8", 8), ("b1 and batch size 1", 1),
    ("b1 and b2", None), ("no batch", None), ("batch size 300", 300), ("ab8", None),
])
def test_the_one_batch_size_a_text_names(text: str, expected: int | None) -> None:
    assert batch_of_text(text) == expected


def test_the_compiler_options_a_text_names() -> None:
    assert options_of_text("with --fast-math none and auto-cast=ALL") == frozenset({"fast-math=none", "auto-cast=all"})
    assert options_of_text("-Fast-Math  FP32") == frozenset({"fast-math=fp32"})
    assert options_of_text("x-fast-math fp32, nofast-math none") == frozenset()
    assert options_of_text("") == frozenset()
    assert Aspects() == Aspects(None, None, frozenset())
    # Frozen: hashable, and not changed once made.
    assert hash(Aspects("50", 4)) == hash(Aspects("50", 4))
    with pytest.raises(FrozenInstanceError):
        Aspects().batch = 4  # type: ignore[misc]


# --- subjects --------------------------------------------------------------------------------------------

def test_the_devices_and_instances_a_text_gives_figures_to() -> None:
    text = "Inf2, trn2.48xlarge, Trn2 UltraServer, NeuronCore-v3, H100, A10G, L40S, trn1n and Trainium2"
    assert [name for _, name in subjects_named(text)] == [
        "Inf2", "trn2.48xlarge", "Trn2 UltraServer", "NeuronCore-v3", "H100", "A10G", "L40S", "trn1n", "Trainium2"]
    assert subjects_named("on Inf2")[0] == (3, "Inf2")


@pytest.mark.parametrize("before", ["16", "eight", "relative to", "compared with", "vs", "vs.", "than", "from", "over",
                                    "versus"])
def test_a_name_counted_or_compared_with_is_no_subject(before: str) -> None:
    assert subjects_named(f"it runs {before} Trainium2") == []
    assert subjects_named(f"{before} Trainium2") == []


def test_the_words_before_a_name_are_read_up_to_thirty_characters_back() -> None:
    # "than" then spaces: within the 30 characters before the name it counts, one character further it does not.
    assert subjects_named("than" + " " * 26 + "Inf2") == []
    assert subjects_named("x than" + " " * 27 + "Inf2") == [(33, "Inf2")]
    assert subjects_named("than Inf2") == []


def test_the_subject_nearest_the_figure_unknown_or_not() -> None:
    text = "Inf2 an Trn1"  # Inf2 at 0, Trn1 at 8
    assert unknown_subject(text, 1, {"trn1"}) == "Inf2"
    assert unknown_subject(text, 7, {"trn1"}) is None
    assert unknown_subject(text, 7, {"inf2"}) == "Trn1"
    # Equally near: the first.
    assert unknown_subject(text, 4, {"trn1"}) == "Inf2"
    assert unknown_subject(text, 4, {"inf2"}) is None
    # The first in the text, not the first in order of names.
    assert unknown_subject("Trn1 an Inf2", 4, {"inf2"}) == "Trn1"
    assert unknown_subject("Trn1 an Inf2", 4, {"trn1"}) is None
    assert unknown_subject("no subject here", 0, set()) is None
    assert unknown_subject("Inf2 and more", 40, {"trn1"}) == "Inf2"


def test_an_instance_type_is_known_only_as_a_whole() -> None:
    assert unknown_subject("on inf1.6xlarge", 0, {"inf1"}) == "inf1.6xlarge"
    assert unknown_subject("on Inf1.6xlarge", 0, {made("inf1.6xlarge")}) is None


def test_a_group_of_instances_is_known_only_as_a_whole() -> None:
    name = "Trn2 UltraServer"
    assert unknown_subject(f"a {name}", 0, {"trn2", "ultraserver"}) is None
    assert unknown_subject(f"a {name}", 0, {"trn2", "ultraserver", "inf2"}) is None
    assert unknown_subject(f"a {name}", 0, {"trn2"}) == name
    assert unknown_subject("a NeuronCore-v3", 0, {"neuroncore"}) == "NeuronCore-v3"
    assert unknown_subject("a NeuronCore-v3", 0, {"neuroncore-v3", "neuroncorev3", "neuroncore", "v3"}) is None


def test_a_device_or_family_is_known_by_any_of_its_words() -> None:
    assert unknown_subject("on Trainium2", 0, {"trainium2", "trn2"}) is None
    assert unknown_subject("on Trainium2", 0, {"trn2"}) == "Trainium2"
    assert unknown_subject("on H100", 0, []) == "H100"
