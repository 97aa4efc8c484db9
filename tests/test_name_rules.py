"""Names of families, devices and frameworks found in prose (``drift/names.py``), on names and records
built in the test (the synonym tables replaced by the test's own): how words are compared, which
variants of a name are known, which names a text holds, and which ids several mentions mean. No
catalog loaded, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.records import models as s
from neuron_docs.drift import names as n
from neuron_docs.drift.names import MAX_WORDS, NameTable, key, resolve, stem, variants


@pytest.fixture(autouse=True)
def synonyms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(n, "FAMILY_SYNONYMS", {"enc": ("BERT-like",)})
    monkeypatch.setattr(n, "DEVICE_SYNONYMS", {"inf2": ("Inf-two",)})
    monkeypatch.setattr(n, "FRAMEWORK_SYNONYMS", {"tnx": ("PyTorch",), "tn": ("PyTorch",)})


def test_words_are_compared_lower_cased_without_a_plural_s() -> None:
    assert stem("Decoders") == "decoder"
    assert stem("CNNs") == "cnn"
    assert stem("gas") == "gas"  # three letters: kept
    assert stem("bass") == "bass"
    assert stem("corpus") == "corpus"
    assert stem("analysis") == "analysis"
    assert stem("bats") == "bat"
    assert stem("s") == "s"
    assert key("Transformer decoders, R-CNNs") == ("transformer", "decoder", "r", "cnn")
    assert key("--") == ()


def test_the_variants_of_a_name() -> None:
    assert variants("Convolutional Neural Networks (CNN) models") == {
        "Convolutional Neural Networks (CNN) models", "Convolutional Neural Networks models", "CNN",
        "Convolutional Neural Networks (CNN)", "Convolutional Neural Networks"}
    assert variants("Encoders or Decoders") == {"Encoders or Decoders", "Encoders", "Decoders"}
    assert variants("A, or B network") == {"A, or B network", "A, or B", "A", "B network", "B"}
    assert variants("Vision ( ) architecture") == {"Vision ( ) architecture", "Vision ( )", "Vision architecture", "Vision"}
    assert variants("models") == {"models"}


def test_names_are_found_longest_first_without_overlaps() -> None:
    table = NameTable()
    table.add("Transformer", "t")
    table.add("Transformer Decoders", "dec")
    table.add("Decoder", "d")
    table.add("--", "nothing")
    table.add("Transformer", "t")
    table.add("Transformers", "t2")
    assert table.names == {("transformer",): ("t", "t2"), ("transformer", "decoder"): ("dec",), ("decoder",): ("d",)}
    text = "A transformer decoder, then a Decoder and transformers."
    assert table.find(text) == [(("dec",), 2), (("d",), 30), (("t", "t2"), 42)]
    assert table.ids(text) == ["dec", "d", "t", "t2"]
    assert table.ids("decoder decoder transformer") == ["d", "t", "t2"]
    assert table.find("") == []


def test_a_name_may_have_as_many_words_as_the_longest_allowed() -> None:
    table = NameTable()
    words = " ".join(f"w{i}" for i in range(MAX_WORDS))
    table.add(words, "long")
    table.add(words + " extra", "too-long")
    assert table.find("x " + words + " extra") == [(("long",), 2)]
    assert table.find(words) == [(("long",), 0)]
    short = " ".join(f"w{i}" for i in range(MAX_WORDS - 1))
    assert table.find(short) == []
    assert MAX_WORDS == 8


def test_a_name_at_the_end_of_a_text() -> None:
    table = NameTable()
    table.add("big model", "m")
    assert table.find("a big model") == [(("m",), 2)]
    assert table.find("a big") == []


def catalog() -> Catalog:
    cat = Catalog(Path("."))
    cat.records["families"] = {
        "enc": s.Family.model_construct(id="enc", name="Encoders", short_name="Enc", title="Transformer Encoders (TE)",
                                        representatives=["BERT"]),
        "dec": s.Family.model_construct(id="dec", name="Decoders", short_name="", title="Transformer Decoders",
                                        representatives=["GPT", "BERT"])}
    cat.records["devices"] = {
        "inf2": s.Device.model_construct(id="inf2", name="AWS Inferentia2 (NeuronCore-v2)"),
        "a100": s.Device.model_construct(id="a100", name="NVIDIA A100")}
    cat.records["instances"] = {
        "inf2.xlarge": s.Instance.model_construct(id="inf2.xlarge", family="Inf-fam", device="inf2"),
        "p4d": s.Instance.model_construct(id="p4d", family="A100", device="inf2")}
    cat.records["frameworks"] = {
        "tnx": s.Framework.model_construct(id="tnx", package="torch-neuronx"),
        "tn": s.Framework.model_construct(id="tn", package="torch-neuron")}
    return cat


def test_a_family_is_known_by_its_names_title_representatives_and_synonyms() -> None:
    table = n.family_names(catalog())
    assert table.ids("Encoders") == ["enc"]
    assert table.ids("the Enc family") == ["enc"]
    assert table.ids("transformer encoder") == ["enc"]
    assert table.ids("TE") == ["enc"]
    assert table.ids("BERT-like models") == ["enc"]
    assert table.ids("Transformer Decoders") == ["dec"]
    assert table.ids("GPT") == ["dec"]
    assert table.ids("BERT") == []  # a representative of two families names neither


def test_a_device_is_known_by_its_id_name_synonyms_and_instance_families() -> None:
    table = n.device_names(catalog())
    for text in ("inf2", "AWS Inferentia2 (NeuronCore-v2)", "Inferentia2 (NeuronCore-v2)", "Inferentia2", "Inf-two",
                 "Inf-fam"):
        assert table.ids(text) == ["inf2"], text
    assert table.ids("A100") == ["a100"]  # a device's own name is not taken by an instance family
    assert table.ids("NVIDIA A100") == ["a100"]


def test_a_framework_is_known_by_id_package_and_synonyms_shared_by_several() -> None:
    table = n.framework_names(catalog())
    assert table.ids("torch-neuronx") == ["tnx"]
    assert table.ids("tn") == ["tn"]
    assert table.ids("PyTorch") == ["tnx", "tn"]


def test_the_most_specific_mention_narrows_the_others() -> None:
    assert resolve([("a", "b"), ("b",)], ["a", "b", "c"]) == ["b"]
    assert resolve([("b",), ("a", "b")], ["a", "b"]) == ["b"]
    assert resolve([("a", "b"), ("c",)], ["a", "b", "c"]) == ["a", "b"]  # nothing in common: kept
    assert resolve([("x",), ("b", "a")], ["a", "b"]) == ["a", "b"]
    assert resolve([("x",)], ["a"]) == []
    assert resolve([], ["a"]) == []
    assert resolve(iter([("a", "b")]), iter(["a"])) == ["a"]


def test_a_long_passage_is_read_to_its_end() -> None:
    table = NameTable()
    table.add("big model", "m")
    text = "word " * 300 + "a big model"
    assert table.find(text) == [(("m",), len("word ") * 300 + 2)]


def test_names_written_one_after_another_are_each_found() -> None:
    table = NameTable()
    table.add("decoder", "d")
    table.add("transformer", "t")
    assert table.find("decoder transformer decoder") == [(("d",), 0), (("t",), 8), (("d",), 20)]
