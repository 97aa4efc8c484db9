"""The references of the published benchmark records (``data/checking/published_references.py``), on
records built in the test. Light (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); the loading of the real data pins the same references end to end."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from neuron_docs.data.checking.published_references import published_references


def refs(collection: str, **fields: Any) -> list[tuple[tuple[Any, ...], str, str]]:
    """The references of a record of ``collection``, its name given as a string made at run time (equal
    to the code's literal, not the same object)."""
    return list(published_references("".join(list(collection)), SimpleNamespace(**fields)))


def test_a_price_names_its_instance_and_table() -> None:
    assert refs("prices", instance="inf2.xlarge", table="tab") == [(("instance",), "instances", "inf2.xlarge"),
                                                                   (("table",), "published_tables", "tab")]
    assert refs("prices", instance="inf2.xlarge", table=None) == [(("instance",), "instances", "inf2.xlarge")]


def test_a_published_model_names_its_family_and_the_model_it_is() -> None:
    assert refs("published_models", family="fam", same_as="bert") == [(("family",), "families", "fam"),
                                                                      (("same_as",), "published_models", "bert")]
    assert refs("published_models", family="fam", same_as=None) == [(("family",), "families", "fam")]


def test_the_historys_records_name_their_states_configurations_and_instances() -> None:
    assert refs("benchmark_configurations", first_state="s1", instance="i", framework="f") == [
        (("first_state",), "benchmark_states", "s1"), (("instance",), "instances", "i"),
        (("framework",), "frameworks", "f")]
    assert refs("benchmark_configurations", first_state="s1", instance=None, framework=None) == [
        (("first_state",), "benchmark_states", "s1")]
    assert refs("benchmark_observations", configuration="c", first_state="s1") == [
        (("configuration",), "benchmark_configurations", "c"), (("first_state",), "benchmark_states", "s1")]
    assert refs("historical_prices", instance="i", first_state="s2") == [
        (("instance",), "instances", "i"), (("first_state",), "benchmark_states", "s2")]


def test_other_collections_name_nothing_here() -> None:
    assert refs("published_tables") == []
    assert refs("benchmark_states") == []
    assert refs("accuracy_runs") == []  # a name sorting before every published collection's
