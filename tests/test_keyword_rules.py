"""The words naming the records of a data set (``drift/keywords.py``), on a small catalog of devices,
instances, models, environments, runs, comparisons and published runs built in the test
(``model_construct``): the words that tell records apart, each kind of record's keyword groups (a
run's model and instance, a published run's model as its table writes it and its instances, an
instance's own words, a device's, a comparison's two instances, a model's and its variants'), keys
that name no record, the vocabulary of models and platforms from every record (words naming both
dropped) and the kind of each group. No data files, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps
from neuron_docs.drift.keywords import RecordKeywords, Vocabulary, tokens


def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


def catalog(inf2_devices: int = 1) -> Catalog:
    cat = Catalog(data_dir=Path("."))
    r = cat.records
    r["devices"] = {d.id: d for d in (
        s.Device.model_construct(id="trn-chip", name="Trainium Neuron", kind="trainium"),
        s.Device.model_construct(id="hopper-card", name="H100 Card", kind=made("gpu")),
        s.Device.model_construct(id="infer-two", name="Inferentia Two", kind="inferentia"),
        s.Device.model_construct(id="lonely-dev", name="Solo Board", kind="gpu"))}
    r["instances"] = {i.id: i for i in (
        s.Instance.model_construct(id="inf2.xlarge", family=made("inf2"), device="infer-two",
                                   device_count=inf2_devices),
        s.Instance.model_construct(id="trn1.32xlarge", family="trn1", device="trn-chip", device_count=16),
        s.Instance.model_construct(id="p5.48xlarge", family="p5", device="hopper-card", device_count=8),
        s.Instance.model_construct(id="spare.metal", family="spare", device="no-such-device", device_count=1))}
    r["models"] = {m.id: m for m in (
        s.Model.model_construct(id="bert-base", name="BERT Base Cased", family="enc", aliases=["bert-uncased"],
                                same_as=None),
        s.Model.model_construct(id="vit", name="ViT Huge Neuron", family="img", aliases=[], same_as=None),
        s.Model.model_construct(id="llama-3.1", name="Llama Three", family="dec", aliases=[], same_as=None),
        s.Model.model_construct(id="lonely-net", name="Lonely Net", family="img", aliases=[], same_as=None))}
    r["environments"] = {e.id: e for e in (
        s.Environment.model_construct(id="env-inf2", instance="inf2.xlarge"),
        s.Environment.model_construct(id="env-gone", instance="no-such-box"))}
    r["inference_runs"] = {x.id: x for x in (
        s.InferenceRun.model_construct(id="r1", model="bert-base", environment="env-inf2"),
        s.InferenceRun.model_construct(id="r2", model="vit", environment="env-missing"),
        s.InferenceRun.model_construct(id="r3", model="ghost-net", environment="env-gone"))}
    r["accuracy_runs"] = {x.id: x for x in (
        s.AccuracyRun.model_construct(id="a1", model="vit", environment="env-inf2"),
        s.AccuracyRun.model_construct(id="a2", model="phantom-net", environment="env-missing"))}
    r["comparisons"] = {x.id: x for x in (
        s.Comparison.model_construct(id="c1", subject="inf2.xlarge", baseline="p5.48xlarge"),
        s.Comparison.model_construct(id="c2", subject="unknown-box", baseline="inf2.xlarge"))}
    r["published_inference_runs"] = {x.id: x for x in (
        ps.PublishedInferenceRun.model_construct(id="pr1", model="Llama Seven", instance="trn1.32xlarge"),
        ps.PublishedInferenceRun.model_construct(id="pr2", model="The Model", instance="inf2.xlarge"),
        ps.PublishedInferenceRun.model_construct(id="pr3", model="Orphan Net", instance="offsite-box"))}
    r["published_training_runs"] = {x.id: x for x in (
        ps.PublishedTrainingRun.model_construct(id="pt1", model="Mamba Train",
                                                instances=["trn1.32xlarge", "inf2.xlarge"]),
        ps.PublishedTrainingRun.model_construct(id="pt2", model="Mamba Train", instances=["farm-box", "yard-box"]),
        ps.PublishedTrainingRun.model_construct(id="pt3", model="Mamba Train", instances=[]))}
    return cat


BERT = frozenset({"bert-base", "bertbase", "bert", "cased", "bert-uncased", "bertuncased", "uncased"})
VIT = frozenset({"vit", "huge", "neuron"})
INF2 = frozenset({"inf2.xlarge", "inf2", "infer-two", "infertwo", "infer", "two", "inferentia", "inf"})
TRN1_OWN = frozenset({"trn1.32xlarge", "trn1"})
TRN1 = TRN1_OWN | {"trn-chip", "trnchip", "trn", "chip", "trainium", "neuron"}
LLAMA = frozenset({"llama-3.1", "llama3.1", "llama", "three"})
P5 = frozenset({"p5.48xlarge", "p5", "hopper-card", "hoppercard", "hopper", "card", "h100", "gpu"})


# --- the words that tell records apart ------------------------------------------------------------

def test_tokens_leave_out_stop_words_numbers_and_sizes() -> None:
    assert tokens("The BERT base model on AWS") == {"bert"}
    assert tokens("inf2.48xlarge", "metal", "32 chips", None, "") == {"inf2.48xlarge", "inf2", "chips"}
    assert tokens("trn1n.xlarge, large, 2xlarge, x large") == {"trn1n.xlarge", "trn1n", "x"}
    assert tokens() == frozenset()
    assert tokens(None) == frozenset()


def test_the_kind_of_a_group_is_the_first_it_was_added_as() -> None:
    vocabulary = Vocabulary()
    group = frozenset({"alpha", "beta"})
    assert vocabulary.add("model", group) is group
    vocabulary.add("platform", group)
    assert vocabulary.kind(frozenset({"beta", "alpha"})) == "model"
    assert vocabulary.kind(frozenset({"alpha"})) == ""
    assert vocabulary.words == {"model": {"alpha", "beta"}, "platform": {"alpha", "beta"}}


# --- without a catalog ---------------------------------------------------------------------------------

def test_without_a_catalog_a_record_is_named_by_the_words_of_its_id() -> None:
    keywords = RecordKeywords(None)
    assert keywords.groups("run:bert-base-inf2") == ({"bert-base-inf2", "bertbaseinf2", "bert", "inf2"},)
    assert keywords.groups("model:vit.v2") == ({"vit.v2", "vit", "v2"},)
    assert keywords.vocabulary.words == {"model": set(), "platform": set()}


# --- the groups of each kind of record -------------------------------------------------------------------

@pytest.mark.parametrize(("key", "expected"), [
    ("run:r1", (BERT, INF2)),
    ("run:r2", (VIT,)),  # an environment the catalog does not hold: the model alone
    ("run:r3", (frozenset({"ghost-net", "ghostnet", "ghost", "net"}),
                frozenset({"no-such-box", "nosuchbox", "no", "such", "box"}))),
    ("accuracy:a1", (VIT, INF2)),
    ("prun:pr1", (frozenset({"llama", "seven"}), TRN1)),
    ("prun:pr2", (INF2,)),  # a model named by stop words only: its instance alone
    ("ptrain:pt1", (frozenset({"mamba", "train"}), TRN1 | INF2)),
    ("ptrain:pt3", (frozenset({"mamba", "train"}),)),  # no instance: its model alone
    ("instance:inf2.xlarge", (INF2,)),
    ("instance:trn1.32xlarge", (TRN1_OWN,)),  # sixteen chips: not named by its device
    ("instance:p5.48xlarge", (frozenset({"p5.48xlarge", "p5"}),)),
    # one device the catalog does not hold: named by its id ("device" is a stop word)
    ("instance:spare.metal", (frozenset({"spare.metal", "spare", "no-such-device", "nosuchdevice", "no", "such"}),)),
    ("device:hopper-card", (frozenset({"hopper-card", "hoppercard", "hopper", "card", "h100"}),)),
    ("comparison:c1", (INF2, P5)),
    ("comparison:c2", (frozenset({"unknown-box", "unknownbox", "unknown", "box"}), INF2)),
    ("model:bert-base", (BERT,)),
    ("model:vit.int8", (VIT,)),  # a variant: its model's words
    ("model:llama-3.1", (LLAMA,)),
    ("model:llama-3.1.fp8", (LLAMA,)),  # a model whose id has a dot: its variant found by the id's start
    ("model:vitals", (frozenset({"vitals"}),)),
    ("model:c1", (frozenset({"c1"}),)), ("model:inf2.xlarge", (frozenset({"inf2"}),)),
    ("model:other-net.v2", (frozenset({"other-net", "othernet", "other", "net"}),)),
    ("some:thing.else", (frozenset({"thing", "else"}),)),
])
def test_the_groups_of_a_record(key: str, expected: tuple[frozenset[str], ...]) -> None:
    assert RecordKeywords(catalog()).groups(made(key)) == expected


@pytest.mark.parametrize("key", ["run:a1", "run:nope", "accuracy:r1", "prun:r1", "prun:pt1", "ptrain:pr1",
                                 "instance:trn-chip", "device:inf2.xlarge", "comparison:r1", "comparison:nope",
                                 # a record of a kind checked later (kinds that sort after the key's own)
                                 "run:pt1", "prun:inf2.xlarge", "device:c1", "instance:bert-base", "accuracy:vit.x",
                                 "device:pr1", "accuracy:c1", "comparison:hopper-card", "accuracy:trn-chip",
                                 # and of kinds the keywords do not know
                                 "zone:r1", "aa:a1", "zone:c1", "aa:hopper-card"])
def test_a_key_that_names_no_record_of_its_kind_is_named_by_its_words(key: str) -> None:
    record = key.partition(":")[2]
    assert RecordKeywords(catalog()).groups(key) == (tokens(record.replace(".", " ")),)


def test_an_instance_is_named_by_its_device_only_when_it_has_one() -> None:
    for count in (0, 2, 300):
        assert RecordKeywords(catalog(count)).groups("instance:inf2.xlarge") == (
            frozenset({"inf2.xlarge", "inf2"}),)
    assert RecordKeywords(catalog(1)).groups("instance:inf2.xlarge") == (INF2,)
    # Its runs are named by all its words, however many devices it has.
    assert RecordKeywords(catalog(2)).groups("run:r1") == (BERT, INF2)


def test_a_records_groups_are_made_once() -> None:
    keywords = RecordKeywords(catalog())
    first = keywords.groups("run:r1")
    assert keywords.groups(made("run:r1")) is first
    assert keywords.groups("model:bert-base")[0] is first[0]
    assert keywords.groups("instance:inf2.xlarge")[0] is first[1]


# --- the vocabulary ------------------------------------------------------------------------------------

def test_the_vocabulary_holds_every_records_words_but_those_naming_both_kinds() -> None:
    keywords = RecordKeywords(catalog())
    models = (BERT | VIT | {"ghost-net", "ghostnet", "ghost", "net", "phantom-net", "phantomnet", "phantom",
                            "llama-3.1", "llama3.1", "three", "lonely-net", "lonelynet", "lonely",
                            "seven", "mamba", "train", "orphan"} | {"llama"})
    platforms = INF2 | TRN1 | P5 | {"spare.metal", "spare", "no-such-device", "nosuchdevice", "no", "such", "lonely-dev", "lonelydev", "lonely", "dev", "solo", "board",
                                           # a published run on two instances the catalog does not hold
                                           "farm-box", "farmbox", "farm", "box", "yard-box", "yardbox", "yard"}
    shared = models & platforms
    assert shared == {"neuron", "lonely"}
    assert keywords.vocabulary.words == {"model": models - shared, "platform": platforms - shared}


def test_asking_for_groups_leaves_the_vocabulary_as_it_is() -> None:
    keywords = RecordKeywords(catalog())
    before = {kind: set(words) for kind, words in keywords.vocabulary.words.items()}
    for key in ("run:r1", "prun:pr1", "ptrain:pt2", "comparison:c2", "instance:p5.48xlarge", "device:lonely-dev"):
        keywords.groups(key)
    assert keywords.vocabulary.words == before


def test_the_kind_of_each_group() -> None:
    keywords = RecordKeywords(catalog())
    kind = keywords.vocabulary.kind
    assert kind(BERT) == kind(frozenset({"llama", "seven"})) == "model"
    assert kind(INF2) == kind(TRN1_OWN) == kind(TRN1) == kind(P5) == "platform"
    # The instances of a run on several: one platform group; an unknown instance's words are no group.
    assert kind(TRN1 | INF2) == "platform"
    assert kind(frozenset({"farm-box", "farmbox", "farm", "box", "yard-box", "yardbox", "yard"})) == "platform"
    assert kind(frozenset({"offsite-box", "offsitebox", "offsite", "box"})) == ""
    assert kind(frozenset({"no-such-box", "nosuchbox", "no", "such", "box"})) == ""


def test_a_published_run_on_no_instance_gives_no_platform_group() -> None:
    cat = Catalog(data_dir=Path("."))
    cat.records["published_training_runs"] = {"pt": ps.PublishedTrainingRun.model_construct(
        id="pt", model="Mamba Train", instances=[])}
    keywords = RecordKeywords(cat)
    assert keywords.groups("ptrain:pt") == (frozenset({"mamba", "train"}),)
    assert keywords.vocabulary.kind(frozenset()) == ""
    assert keywords.vocabulary.words == {"model": {"mamba", "train"}, "platform": set()}
