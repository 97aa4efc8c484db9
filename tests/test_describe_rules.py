"""The tooltip of a figure (``data/figures/describe.py``) on records built in the test: what was
measured and where (a run's model, variant, instance, batch size, compiler options, an accuracy run's
data set), other figures by their label without the record's id, and the sources by title. No data
files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from pathlib import Path

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.describe import describe, source_title, what_it_is
from neuron_docs.data.figures.values import Value
from neuron_docs.data.records import models as s
from neuron_docs.data.records.labels import FIELD_WORDS

LATENCY = FIELD_WORDS["p90_latency_ms"].words
TOP1 = FIELD_WORDS["top1"].words


def name(*parts: str) -> str:
    """A name made at run time, as one read from a file is: equal to the code's literal, not the same object."""
    return "".join(parts)


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["sources"] = {"src": s.Source.model_construct(id="src", title="The benchmark page"),
                              "other": s.Source.model_construct(id="other", title="The blog post")}
    cat.records["models"] = {"bert": s.Model.model_construct(id="bert", name="BERT base")}
    cat.records["instances"] = {"inf2.xlarge": s.Instance.model_construct(id="inf2.xlarge", device="inf2")}
    cat.records["environments"] = {"e": s.Environment.model_construct(id="e", instance="inf2.xlarge"),
                                   "lost": s.Environment.model_construct(id="lost", instance="p9.xlarge")}
    # ids are per collection: an inference run and an accuracy run may share one
    cat.records["inference_runs"] = {
        "r1": s.InferenceRun.model_construct(id="r1", model="bert", variant=None, environment="e", batch_size=4,
                                             compiler_options=None),
        "r2": s.InferenceRun.model_construct(id="r2", model="bert", variant="large", environment="lost",
                                             batch_size=1, compiler_options="--auto-cast none"),
    }
    cat.records["accuracy_runs"] = {
        "r1": s.AccuracyRun.model_construct(id="r1", model="bert", environment="e", dataset="SQuAD",
                                            batch_size=None, compiler_options=None),
    }
    return cat


def value(collection: str, record: str, label: str = "a figure", source: str | None = "src") -> Value:
    return Value(1.0, "ms", label, source, collection=collection, record=record)


def test_an_inference_runs_figure_names_the_model_instance_batch_and_options() -> None:
    cat = catalog()
    assert what_it_is(cat, "run:r1:p90_latency_ms", value(name("inference", "_runs"), "r1")) == (
        f"{LATENCY} of BERT base on inf2.xlarge, batch size 4")
    assert what_it_is(cat, "run:r2:p90_latency_ms", value("inference_runs", "r2")) == (
        f"{LATENCY} of BERT base (large) on an unknown instance, batch size 1, compiler options --auto-cast none")


def test_an_accuracy_runs_figure_names_its_data_set() -> None:
    cat = catalog()
    assert what_it_is(cat, "accuracy:r1:top1", value(name("accuracy", "_runs"), "r1")) == (
        f"{TOP1} of BERT base on inf2.xlarge (SQuAD)")


def test_a_field_without_words_is_named_by_itself() -> None:
    cat = catalog()
    assert not FIELD_WORDS["memory"].words
    assert what_it_is(cat, "run:r1:memory", value("inference_runs", "r1")) == "memory of BERT base on inf2.xlarge, batch size 4"
    assert what_it_is(cat, "run:r1:made_up", value("inference_runs", "r1")) == (
        "made_up of BERT base on inf2.xlarge, batch size 4")


def test_other_figures_are_their_label_without_the_records_id() -> None:
    cat = catalog()
    # a record of another collection is described by its label, whatever runs share its id and
    # whichever way its collection's name sorts against the runs'
    for collection in ("instances", "devices", "published_runs", "accuracy", "inference"):
        assert what_it_is(cat, "x:r1:p90_latency_ms", value(collection, "r1", "Latency (r1) of r1")) == "Latency of r1"
    assert what_it_is(cat, "x:r1:top1", value("accuracy_runs", "r9", "Top-1 (r9)")) == "Top-1"  # not a run of the data
    assert what_it_is(cat, "x:r1:top1", value("inference_runs", "r9", "Top-1 (r9)")) == "Top-1"
    assert what_it_is(cat, "x::price", value("", "", "Price (r1)")) == "Price (r1)"  # no record: the label as it is


def test_a_source_is_named_by_its_title_else_its_id() -> None:
    cat = catalog()
    assert source_title(cat, value("instances", "i", source="src")) == "The benchmark page"
    assert source_title(cat, value("instances", "i", source="unknown")) == "unknown"
    assert source_title(cat, value("instances", "i", source=None)) is None


def test_a_tooltip_lists_each_figure_then_each_source_once() -> None:
    cat = catalog()
    values = {"a": value("instances", "i", "Price (i)", "src"), "b": value("instances", "j", "Memory (j)", "other"),
              "c": value("instances", "k", "Cores (k)", "src"), "d": value("instances", "k", "Vcpus", None)}
    assert describe(cat, values, ["a"], False) == "Price. Source: The benchmark page."
    assert describe(cat, values, ["a", "b", "c"], True) == (
        "Computed from Price; Memory; Cores. Source: The benchmark page; The blog post.")
    assert describe(cat, values, ["d"], False) == "Vcpus."  # no source, no "Source:"
    assert describe(cat, values, ["d"], True) == "Computed from Vcpus."
