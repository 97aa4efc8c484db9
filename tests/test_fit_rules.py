"""The "will it fit?" rules (``data/figures/fit.py``) on records built in the test: sizes read from a
record or a name, the estimate, the NeuronCores and degrees of each instance, the smallest fit, the
answer's sentences, the sizes and gaps by model identity, the check of every published run, the
advisor's slice. A catalog is built in the test (no data files, no Sphinx; ``make mutation`` runs it
with ``--noconftest`` per mutant: ``tests/MUTATION.md``); ``test_fit.py`` checks the real data."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures import fit
from neuron_docs.data.figures.formatting import MEMORY_UNITS, PARAMETER_UNITS
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps
from neuron_docs.data.records.model_sizes import DTYPE_BYTES, Decoder, ModelSize, ModelSizeGap

GB = 10**9


# -- records built in the test ----------------------------------------------------------------------

def memory(value: float, unit: str) -> s.Quantity:
    return s.Quantity.model_construct(value=value, unit=unit, label="Memory", source="src")


def device(did: str, *, kind: str = "neuron", generation: int | None = 2, cores: int | None = 2,
           mem: s.Quantity | None = None, types: list[str] = (), name: str = "") -> s.Device:  # type: ignore[assignment]
    specs = {"memory": mem} if mem is not None else {}
    return s.Device.model_construct(id=did, name=name or did.title(), kind=kind, generation=generation,
                                    neuroncores=cores, data_types=list(types), specs=specs)


def instance(iid: str, dev: str, count: int, vcpus: int) -> s.Instance:
    return s.Instance.model_construct(id=iid, device=dev, device_count=count, vcpus=vcpus, specs={})


def size_record(sid: str, **fields: Any) -> ModelSize:
    values = {"id": sid, "model": None, "seed_model": None, "name": None, "aliases": [], "family": None,
              "parameters_source": None, "data_types_source": None, "decoder": None, "source": f"src-{sid}"} | fields
    return ModelSize.model_construct(**values)


def gap_record(gid: str, **fields: Any) -> ModelSizeGap:
    values = {"id": gid, "model": None, "seed_model": None, "representative": None, "family": None,
              "reason": f"why {gid}"} | fields
    return ModelSizeGap.model_construct(**values)


def published_model(pid: str, name: str, aliases: list[str] = (), same_as: str | None = None) -> ps.PublishedModel:  # type: ignore[assignment]
    return ps.PublishedModel.model_construct(id=pid, name=name, family="fam", aliases=list(aliases), same_as=same_as)


def seed_model(mid: str, name: str, same_as: str | None = None) -> s.Model:
    return s.Model.model_construct(id=mid, name=name, family="fam", aliases=[], same_as=same_as)


def inference_run(rid: str, model: str, instance_id: str, **fields: Any) -> ps.PublishedInferenceRun:
    values = {"id": rid, "model": model, "instance": instance_id, "batch_size": 1, "tp_degree": None,
              "neuroncores": None, "sequence_length": None, "input_length": None, "output_length": None,
              "model_data_type": None, "autocast_data_type": None, "weight_storage_data_type": None} | fields
    return ps.PublishedInferenceRun.model_construct(**values)


def training_run(rid: str, model: str, instances: list[str], **fields: Any) -> ps.PublishedTrainingRun:
    values = {"id": rid, "model": model, "instances": instances, "tp_degree": 1, "pp_degree": 1, "dp_degree": None,
              "zero_stage": None} | fields
    return ps.PublishedTrainingRun.model_construct(**values)


#: 70B parameters, a decoder of 80 layers, 8 key-value heads of 128: 2 x 80 x 8 x 128 values per token.
BIG_DECODER = Decoder.model_construct(layers=80, attention_heads=64, kv_heads=8, hidden_size=8192, head_size=None)


def catalog() -> Catalog:
    """Devices: "accel" (NeuronCore-v2: 2 NeuronCores of 16 GB), "elder" (first generation: 4 of 2 GiB),
    a GPU, a Neuron device without memory; instances of each, and one of an unknown device. Models:
    two published (one sized, one a gap), a spelling of the first, seed models, sizes and gaps of each kind."""
    cat = Catalog(data_dir=Path("."))
    cat.records["devices"] = {
        "accel": device("accel", mem=memory(32, "GB"), types=["bf16", "FP8", "fp32", "TF32"], name="Accel Two"),
        "elder": device("elder", generation=1, cores=4, mem=memory(8, "GiB"), types=["FP16", "INT8"], name="Elder One"),
        "gpu": device("gpu", kind="gpu", generation=None, cores=None, mem=memory(80, "GB")),
        "blank": device("blank"),
        "odd": device("odd", cores=3, mem=memory(1.1, "GB")),
    }
    cat.records["instances"] = {
        "elder.x": instance("elder.x", "elder", 2, 500),
        "accel.large": instance("accel.large", "accel", 6, 192),
        "accel.small": instance("accel.small", "accel", 1, 8),
        "accel.wide": instance("accel.wide", "accel", 6, 96),
        "accel.alt": instance("accel.alt", "accel", 6, 192),
        "gpu.x": instance("gpu.x", "gpu", 8, 96),
        "blank.x": instance("blank.x", "blank", 1, 4),
        "ghost.x": instance("ghost.x", "ghost", 1, 4),
    }
    cat.records["families"] = {"fam": s.Family.model_construct(
        id="fam", name="Famille", short_name="Fm", representatives=["Rep Model-X"], devices={})}
    cat.records["published_models"] = {
        "pm-big": published_model("pm-big", "Big Model 70B", aliases=["bigm"]),
        "pm-big-spelled": published_model("pm-big-spelled", "Big-Model-70B (chat)", same_as="pm-big"),
        "pm-small": published_model("pm-small", "Small Model"),
        "pm-unsized": published_model("pm-unsized", "Unsized Model"),
    }
    cat.records["models"] = {"seed-vit": seed_model("seed-vit", "Seed ViT"),
                             "seed-bare": seed_model("seed-bare", "Seed Bare"),
                             "seed-big": seed_model("seed-big", "Seed Big", same_as="pm-big")}
    cat.records["model_sizes"] = {
        "big": size_record("big", model="pm-big", parameters=70e9, data_types=["BF16", "FP8"], decoder=BIG_DECODER,
                           parameters_source="src-params"),
        "small": size_record("small", model="pm-small", parameters=3e9, data_types=["FP32"]),
        "vit": size_record("vit", seed_model="seed-vit", parameters=86_400_000.4, data_types=["FP32"]),
        "dangling": size_record("dangling", model="pm-ghost", parameters=1e9, data_types=["BF16"]),
        "dangling-seed": size_record("dangling-seed", seed_model="seed-ghost", parameters=2e9, data_types=["BF16"]),
        "free": size_record("free", name="Free Model 3B", aliases=["free-3b", "Free Model 3B v2"], family="fam",
                            parameters=3e9, data_types=["FP16"]),
        "anon": size_record("anon", parameters=5e9, data_types=["INT8"]),
    }
    cat.records["model_size_gaps"] = {
        "g-model": gap_record("g-model", model="pm-unsized"),
        "g-seed": gap_record("g-seed", seed_model="seed-bare"),
        "g-seed-ghost": gap_record("g-seed-ghost", seed_model="seed-nowhere"),
        "g-rep": gap_record("g-rep", representative="Rep Model-X", family="fam"),
        "g-rep-none": gap_record("g-rep-none", family="fam"),
    }
    return cat


def sized(parameters: int, kv: int | None = None, dtype: str = "BF16", name: str = "Tiny", from_name: bool = False) -> fit.Size:
    return fit.Size("t", name, parameters, (dtype,), kv, from_name=from_name)


# -- sizes ----------------------------------------------------------------------------------------------

def test_a_size_record_gives_its_parameters_types_kv_values_and_source() -> None:
    cat = catalog()
    big = fit.size_of(cat.records["model_sizes"]["big"], "Big")
    assert big == fit.Size("big", "Big", 70 * GB, ("BF16", "FP8"), 2 * 80 * 8 * 128, None, False, "src-params")
    assert isinstance(big.parameters, int) and isinstance(big.data_types, tuple)
    vit = fit.size_of(cat.records["model_sizes"]["vit"], "ViT")
    assert vit.parameters == 86_400_000 and vit.kv_values_per_token is None and vit.source == "src-vit"
    free = fit.size_of(cat.records["model_sizes"]["free"], "Free")
    assert free.family == "fam" and not free.from_name
    # a head size given is the head's dimension, not hidden size / heads
    sized_heads = Decoder.model_construct(layers=3, attention_heads=4, kv_heads=2, hidden_size=40, head_size=7)
    assert fit.size_of(size_record("h", parameters=1e6, data_types=["FP8"], decoder=sized_heads), "H").kv_values_per_token \
        == 2 * 3 * 2 * 7
    assert fit.size_of(size_record("h", parameters=1e6, data_types=["FP8"], decoder=Decoder.model_construct(
        layers=3, attention_heads=4, kv_heads=2, hidden_size=40, head_size=None)), "H").kv_values_per_token == 2 * 3 * 2 * 10


@pytest.mark.parametrize(("name", "parameters"), [
    ("Qwen2-72B", 72 * GB), ("Mixtral-8x7B", 56 * GB), ("Mixtral-8 x 22b", 176 * GB), ("Qwen2-1.5B", 1_500_000_000),
    ("x-0.25B", 250_000_000), ("m-1.05b", 1_050_000_000), ("bert-110M", 110_000_000), ("Ling-1T", 10**12),
    ("Ling 2 t", 2 * 10**12), ("One-3B-then-7B", 3 * GB), ("7B", 7 * GB), ("(13B)", 13 * GB),
])
def test_a_size_read_from_a_name(name: str, parameters: int) -> None:
    found = fit.size_from_name(name)
    assert found is not None and found.parameters == parameters and isinstance(found.parameters, int)
    assert found.from_name and found.data_types == (fit.NAME_DATA_TYPE,) == ("BF16",)
    assert found.kv_values_per_token is None and found.family is None and found.source is None


@pytest.mark.parametrize("name", ["gpt2", "BERT", "Llama 3", "v0.2b", "model-0B", "x-0.0b", "resnet50", "7Bx", "a7b",
                                  "7.b", "big", ""])
def test_a_name_without_a_size(name: str) -> None:
    assert fit.size_from_name(name) is None


def test_the_smallest_size_a_name_gives_is_one_parameter() -> None:
    one = fit.size_from_name("x-0.000001m")
    assert one is not None and one.parameters == 1
    assert fit.size_from_name("x-0.0000001m") is None  # a tenth of a parameter: none


def test_a_size_from_a_name_is_named_by_its_key_and_its_text() -> None:
    found = fit.size_from_name("  Org/Some-Model-7B  ")
    assert found is not None and found.name == "Org/Some-Model-7B" and found.id == "name:somemodel7b"


# -- the estimate --------------------------------------------------------------------------------------

def test_weights_kv_cache_and_headroom() -> None:
    # 1000 parameters at BF16: 2000 bytes; 32 values per token x 10 x 3 x 2 bytes = 1920; 20% of 3920 = 784.
    est = fit.estimate(sized(1000, kv=32), "BF16", sequence=10, batch=3)
    assert (est.weights, est.kv_cache, est.headroom, est.need) == (2000, 1920, 784, 4704)
    assert (est.data_type, est.sequence, est.batch, est.kv_counted) == ("BF16", 10, 3, True)
    # the KV cache in its own data type
    assert fit.estimate(sized(1000, kv=32), "BF16", 10, 3, kv_data_type="FP32").kv_cache == 3840
    assert fit.estimate(sized(1000, kv=32), "FP32", 10, 3, kv_data_type="FP8").kv_cache == 960
    # a headroom that is not whole bytes is rounded up
    assert fit.estimate(sized(4001), "FP8", 1, 1).headroom == 801
    assert fit.estimate(sized(4005), "FP8", 1, 1).headroom == 801
    assert fit.estimate(sized(4000), "FP8", 1, 1).headroom == 800
    # not a decoder: no KV cache, whatever the sequence, and not counted
    plain = fit.estimate(sized(1000), "BF16", 10**6, 64)
    assert plain.kv_cache == 0 and not plain.kv_counted and plain.need == 2400


def test_the_estimate_defaults_to_the_first_published_type_and_the_default_shape() -> None:
    est = fit.estimate(fit.Size("t", "T", 100, ("FP32", "BF16"), 2))
    assert est.data_type == "FP32" and est.weights == 400
    assert (est.sequence, est.batch) == (fit.DEFAULT_SEQUENCE, fit.DEFAULT_BATCH) == (4096, 1)
    assert est.kv_cache == 2 * 4096 * 1 * 4


# -- where a model can be held ---------------------------------------------------------------------------

def test_the_memory_of_one_neuroncore_is_its_devices_over_its_neuroncores() -> None:
    cat = catalog()
    assert fit.core_bytes(cat, "accel") == 16 * GB
    assert fit.core_bytes(cat, "elder") == 2 * 2**30
    odd = fit.core_bytes(cat, "odd")  # 1.1 GB over 3: whole bytes, rounded down
    assert odd == 366_666_666 and isinstance(odd, int)
    assert fit.core_bytes(cat, "gpu") is None  # no NeuronCores
    assert fit.core_bytes(cat, "blank") is None  # no memory
    assert fit.core_bytes(cat, "ghost") is None  # no such device
    cat.records["devices"]["none"] = device("none", cores=0, mem=memory(4, "GB"))
    assert fit.core_bytes(cat, "none") is None


def test_degrees_are_the_powers_of_two_up_to_the_neuroncores_and_all_of_them() -> None:
    assert fit.degrees(1) == (1,)
    assert fit.degrees(2) == (1, 2)
    assert fit.degrees(3) == (1, 2, 3)
    assert fit.degrees(4) == (1, 2, 4)
    assert fit.degrees(12) == (1, 2, 4, 8, 12)
    assert fit.degrees(16) == (1, 2, 4, 8, 16)
    assert fit.degrees(24) == (1, 2, 4, 8, 16, 24)


def test_places_are_the_neuron_instances_with_a_memory_smallest_first() -> None:
    options = fit.places(catalog())
    assert [p.instance for p in options] == ["elder.x", "accel.small", "accel.wide", "accel.alt", "accel.large"]
    elder, small, wide = options[0], options[1], options[2]
    assert elder == fit.FitInstance("elder.x", "elder", "Elder One", 8, 2 * 2**30, (1,), ("FP16", "INT8"), 500)
    assert small == fit.FitInstance("accel.small", "accel", "Accel Two", 2, 16 * GB, (1, 2), ("FP32", "BF16", "FP8"), 8)
    assert wide.cores == 12 and wide.degrees == (1, 2, 4, 8, 12) and wide.vcpus == 96
    assert wide.memory(8) == 128 * GB


def test_places_are_ordered_by_what_the_whole_instance_holds_not_one_neuroncore() -> None:
    cat = catalog()
    # 8 NeuronCores of 5 GB: less per NeuronCore than accel's 16 GB, more in all (40 GB) than accel.small's 32
    cat.records["devices"]["dense"] = device("dense", cores=8, mem=memory(40, "GB"), types=["BF16"])
    cat.records["instances"]["dense.x"] = instance("dense.x", "dense", 1, 1)
    assert [p.instance for p in fit.places(cat)][:3] == ["elder.x", "accel.small", "dense.x"]


def test_only_a_neuron_devices_instances_are_places() -> None:
    # a GPU record that gives NeuronCores (as a "neuron" would) is still no place for the estimate
    cat = catalog()
    cat.records["devices"]["gpu"] = device("gpu", kind="gpu", cores=4, mem=memory(80, "GB"))
    assert fit.core_bytes(cat, "gpu") == 20 * GB
    assert "gpu.x" not in {p.instance for p in fit.places(cat)}
    # a kind read back from a pickle (not the literal's object) is still "neuron"
    cat.records["devices"]["accel"] = device("accel", kind="".join(["neu", "ron"]), mem=memory(32, "GB"))
    assert "accel.small" in {p.instance for p in fit.places(pickle.loads(pickle.dumps(cat)))}


def test_an_instance_that_is_no_place_is_passed_over() -> None:
    cat = catalog()
    cat.records["instances"] = {"gpu.x": cat.records["instances"]["gpu.x"],
                                "ghost.x": cat.records["instances"]["ghost.x"],
                                "blank.x": cat.records["instances"]["blank.x"],
                                "accel.small": cat.records["instances"]["accel.small"]}
    assert [p.instance for p in fit.places(cat)] == ["accel.small"]


def test_a_first_generation_device_offers_one_neuroncore_and_a_later_one_every_degree() -> None:
    cat = catalog()
    cat.records["devices"]["accel"] = device("accel", generation=None, mem=memory(32, "GB"), types=["BF16"])
    assert {p.instance: p.degrees for p in fit.places(cat)}["accel.large"] == (1,)
    cat.records["devices"]["accel"] = device("accel", generation=3, mem=memory(32, "GB"), types=["BF16"])
    assert {p.instance: p.degrees for p in fit.places(cat)}["accel.large"] == (1, 2, 4, 8, 12)


def test_a_degree_holds_what_its_neuroncores_hold() -> None:
    place = fit.FitInstance("x", "d", "D", 4, 3000, (1, 2, 4), ("BF16",))
    assert place.memory(4) == 12000 and place.vcpus == 0
    assert place.smallest_degree(1) == 1 and place.smallest_degree(3000) == 1 and place.smallest_degree(3001) == 2
    assert place.smallest_degree(12000) == 4 and place.smallest_degree(12001) is None


def test_the_smallest_fit_is_the_first_place_and_degree_that_hold_it() -> None:
    small = fit.FitInstance("a", "d", "D", 2, 3000, (1, 2), ("FP32", "BF16"))
    large = fit.FitInstance("b", "d", "D", 8, 3000, (1, 2, 4, 8), ("BF16", "FP8"))
    assert fit.smallest_fit([small, large], 2000) == (small, 1)
    assert fit.smallest_fit([small, large], 7000) == (large, 4)
    assert fit.smallest_fit([small, large], 5000, "FP8") == (large, 2)
    assert fit.smallest_fit([small, large], 5000, "FP32") == (small, 2)
    assert fit.smallest_fit([small, large], 7000, "INT8") is None
    assert fit.smallest_fit([small, large], 25000) is None
    assert fit.smallest_fit([], 1) is None


# -- the answer -------------------------------------------------------------------------------------------

def test_the_sentences_of_a_model_that_fits() -> None:
    cat = catalog()
    small = fit.sizes(cat)["published:pm-small"]  # 3B parameters at FP32, no decoder: 14.4 GB
    lines = fit.answer_lines(cat, small)
    assert lines == [
        "Estimated from the model's size, not measured.",
        "Small Model: 3B parameters at FP32, 4 bytes each.",
        "Needs 14.4 GB: weights 12 GB + 20% headroom 2.4 GB; no KV cache counted (the data gives no decoder "
        "dimensions for it).",
        "Smallest fit: accel.small with 1 NeuronCore (16 GB of device memory).",
        "On Elder One: too large (at most 2.15 GB, on elder.x).",
        "On Accel Two: accel.small, 1 NeuronCore.",
        "Assumed: FP32 weights (as published), sequence length 4096 and batch 1 (sequence length and batch by "
        "default); KV cache = 2 x layers x key-value heads x head size x sequence x batch x bytes; headroom 20% of "
        "weights and KV cache for activations, the compiled program and the runtime; each NeuronCore holds its "
        "device's memory divided by its NeuronCores.",
    ]


def test_the_sentences_of_a_decoder_with_the_readers_shape() -> None:
    cat = catalog()
    lines = fit.lines_for(fit.places(cat), sized(10 * GB, kv=1000, dtype="FP8", name="Dec"), None, 1000, 3)
    # weights 10 GB; KV cache 1000 x 1000 x 3 x 1 byte = 3 MB; headroom 2.0006 GB rounded up
    assert lines[1] == "Dec: 10B parameters at FP8, 1 byte each."
    assert lines[2] == "Needs 12 GB: weights 10 GB + KV cache 3 MB + 20% headroom 2 GB."
    assert lines[3] == "Smallest fit: accel.small with 1 NeuronCore (16 GB of device memory)."
    assert lines[-1].startswith("Assumed: FP8 weights (as published), sequence length 1000 and batch 3; KV cache")
    # the data type the reader chose has no origin; a default batch is said
    chosen = fit.lines_for(fit.places(cat), sized(10 * GB, kv=1000, dtype="FP8"), "BF16", 1000)
    assert chosen[1].endswith("at BF16, 2 bytes each.")
    assert chosen[-1].startswith("Assumed: BF16 weights, sequence length 1000 and batch 1 (batch by default); ")
    only_batch = fit.lines_for(fit.places(cat), sized(10 * GB, kv=1000, dtype="FP8"), None, None, 2)
    assert only_batch[-1].startswith("Assumed: FP8 weights (as published), sequence length 4096 and batch 2 "
                                     "(sequence length by default); ")


def test_a_degree_of_several_neuroncores_and_a_device_that_fits_them() -> None:
    options = fit.places(catalog())
    lines = fit.lines_for(options, sized(10 * GB, dtype="BF16", name="Twenty"))  # 24 GB
    assert lines[3] == "Smallest fit: accel.small with 2 NeuronCores (32 GB of device memory)."
    assert lines[4:6] == ["On Elder One: too large (at most 2.15 GB, on elder.x).", "On Accel Two: accel.small, 2 NeuronCores."]
    # devices in the order of their first place, each with its own smallest
    big = fit.lines_for(options, sized(40 * GB, dtype="BF16", name="Eighty"))  # 96 GB
    assert big[3] == "Smallest fit: accel.wide with 8 NeuronCores (128 GB of device memory)."
    assert big[5] == "On Accel Two: accel.wide, 8 NeuronCores."
    tiny = fit.lines_for(options, sized(10**6, dtype="BF16"))
    assert tiny[3] == "Smallest fit: elder.x with 1 NeuronCore (2.15 GB of device memory)."
    assert tiny[4] == "On Elder One: elder.x, 1 NeuronCore."
    assert tiny[5] == "On Accel Two: accel.small, 1 NeuronCore."  # each device's own places only


def test_a_device_too_large_says_the_most_its_largest_place_holds() -> None:
    options = [fit.FitInstance("s.x", "s", "Small", 4, 10, (1, 2, 4), ("BF16",)),
               fit.FitInstance("b.x", "b", "Big", 1, 100, (1,), ("BF16",))]
    lines = fit.lines_for(options, sized(20))  # 48 bytes
    assert lines[3:6] == ["Smallest fit: b.x with 1 NeuronCore (100 B of device memory).",
                          "On Small: too large (at most 40 B, on s.x).", "On Big: b.x, 1 NeuronCore."]


def test_a_devices_places_are_those_of_its_name_however_it_was_made() -> None:
    # device ids equal but other objects (read back from a file or a pickle): one device, both places
    small = fit.FitInstance("a.small", "".join(["dev", "ice"]), "Dev", 1, 10, (1,), ("BF16",))
    large = fit.FitInstance("a.large", "".join(["de", "vice"]), "Dev", 8, 10, (1, 2, 4, 8), ("BF16",))
    lines = fit.lines_for([small, large], sized(20))  # 48 bytes: 8 NeuronCores of a.large
    assert lines[3:5] == ["Smallest fit: a.large with 8 NeuronCores (80 B of device memory).",
                          "On Dev: a.large, 8 NeuronCores."]


def test_the_answer_assumes_the_first_published_type() -> None:
    lines = fit.lines_for(fit.places(catalog()), fit.Size("two", "Two", 10**6, ("FP32", "FP8")))
    assert lines[1] == "Two: 1M parameters at FP32, 4 bytes each."
    assert lines[-1].startswith("Assumed: FP32 weights (as published), ")


def test_a_size_read_from_a_name_says_so() -> None:
    found = fit.size_from_name("Named-2B")
    assert found is not None
    lines = fit.lines_for(fit.places(catalog()), found)
    assert lines[1] == "Named-2B: 2B parameters at BF16, 2 bytes each (the size read from its name)."
    assert lines[2].endswith("no KV cache counted (its layers and key-value heads are not known from its name).")
    assert "Assumed: BF16 weights (assumed: the data has no size for this model), sequence" in lines[-1]
    assert "Assumed: FP8 weights, sequence" in fit.lines_for(fit.places(catalog()), found, "FP8")[-1]


def test_a_model_too_large_for_every_instance_gets_more_neuroncores() -> None:
    options = fit.places(catalog())
    huge = fit.size_from_name("Huge-1T")
    assert huge is not None
    lines = fit.lines_for(options, huge)  # 2.4 TB at BF16, 1.2 TB at FP8: neither fits 192 GB
    assert lines[3] == ("Too large for every instance at BF16: it needs 2.4 TB; the largest, accel.wide, "
                        "has 192 GB in 12 NeuronCores.")
    # 2.4 TB over 16 GB: 150 NeuronCores, 13 instances of 12
    assert lines[4] == "Nearest: 150 NeuronCores of Accel Two (13 x accel.wide), beyond one instance."
    assert lines[5].startswith("Assumed: BF16 weights (assumed")
    # 2.4 TB + 1 byte: 151 NeuronCores; 12 x 16 GB x 13 exactly: 156, 13 instances
    assert fit._nearest(options, huge, "BF16", 4096, 1, fit.Estimate(0, 0, 2_400_000_000_001, "BF16", 1, 1, False),
                        options[2]).startswith("Nearest: 151 NeuronCores of Accel Two (13 x")
    assert fit._nearest(options, huge, "BF16", 4096, 1, fit.Estimate(0, 0, 156 * 16 * GB, "BF16", 1, 1, False),
                        options[2]) == "Nearest: 156 NeuronCores of Accel Two (13 x accel.wide), beyond one instance."
    assert fit._nearest(options, huge, "BF16", 4096, 1, fit.Estimate(0, 0, 156 * 16 * GB + 1, "BF16", 1, 1, False),
                        options[2]).startswith("Nearest: 157 NeuronCores of Accel Two (14 x")


def test_a_model_too_large_gets_the_nearest_smaller_data_type_that_fits() -> None:
    options = fit.places(catalog())
    mid = fit.size_from_name("Mid-100B")  # 240 GB at BF16; 120 GB at FP8, on 8 NeuronCores of accel.wide
    assert mid is not None
    lines = fit.lines_for(options, mid)
    assert lines[3].startswith("Too large for every instance at BF16: it needs 240 GB;")
    assert lines[4] == "Nearest: at FP8 it would fit accel.wide with 8 NeuronCores (it needs 120 GB)."
    # at FP32, BF16 is the nearest (2 bytes); at INT8 nothing is smaller: more NeuronCores
    wide = fit.lines_for(options, fit.Size("w", "W", 50 * GB, ("FP32",)))  # 240 GB at FP32, 120 GB at BF16
    assert wide[4] == "Nearest: at BF16 it would fit accel.wide with 8 NeuronCores (it needs 120 GB)."
    # a smaller type only where a place has it: INT8 is elder's only, too small for 120 GB
    assert fit.lines_for(options, fit.Size("i", "I", 200 * GB, ("INT8",)))[4].startswith("Nearest: 15 NeuronCores")
    # a type outside the order (TF32) has no smaller one here: more NeuronCores
    assert fit.lines_for(options, fit.Size("t", "T", 50 * GB, ("TF32",)))[4].startswith("Nearest: 15 NeuronCores")


def test_a_smaller_type_of_as_many_bytes_is_no_nearer() -> None:
    # FP16 follows BF16 in the order but takes as many bytes: skipped, FP8 is the nearest.
    options = [fit.FitInstance("fp16.x", "d16", "Sixteen", 8, 20 * GB, fit.degrees(8), ("FP16",)),
               fit.FitInstance("fp8.x", "d8", "Eight", 8, 16 * GB, fit.degrees(8), ("FP8",))]
    over = fit.Size("o", "O", 80 * GB, ("BF16",))  # 192 GB at BF16 or FP16; 96 GB at FP8
    lines = fit.lines_for(options, over)
    assert lines[4] == "Nearest: at FP8 it would fit fp8.x with 8 NeuronCores (it needs 96 GB)."


def test_no_place_no_fit_sentence() -> None:
    lines = fit.lines_for([], sized(1000))
    assert [line.split(":")[0] for line in lines] == ["Estimated from the model's size, not measured.", "Tiny",
                                                      "Needs 2.4 kB", "Assumed"]


def test_the_largest_place_is_the_first_with_the_most_memory() -> None:
    a = fit.FitInstance("a", "d", "D", 2, 10, (1, 2), ())
    b = fit.FitInstance("b", "d", "D", 4, 5, (1, 2, 4), ())
    c = fit.FitInstance("c", "d", "D", 1, 20, (1,), ())
    d = fit.FitInstance("d", "d", "D", 1, 19, (1,), ())
    assert fit._largest([a, b, c, d]) is a and fit._largest([d, b, a]) is b and fit._largest([d, c]) is c
    assert fit._largest([d]) is d


def test_a_word_for_one_and_for_more() -> None:
    assert (fit._word("core", 1), fit._word("core", 2), fit._word("byte", 1), fit._word("byte", 4)) == \
        ("NeuronCore", "NeuronCores", "byte", "bytes")
    assert fit._say("origin_name") == " (the size read from its name)"
    assert fit._say("defaults", given="x") == " (x by default)"


# -- sizes and gaps by model --------------------------------------------------------------------------

def test_every_size_is_keyed_by_the_identity_of_its_model_or_its_own_id() -> None:
    known = fit.sizes(catalog())
    assert set(known) == {"published:pm-big", "published:pm-small", "seed:seed-vit", "published:pm-ghost",
                          "seed:seed-ghost", "size:free", "size:anon"}
    assert known["published:pm-big"].name == "Big Model 70B" and known["published:pm-big"].id == "big"
    assert known["seed:seed-vit"].name == "Seed ViT"
    assert known["published:pm-ghost"].name == "pm-ghost" and known["seed:seed-ghost"].name == "seed-ghost"
    assert known["size:free"].name == "Free Model 3B" and known["size:anon"].name == "anon"


def test_a_seed_model_that_is_a_published_one_takes_the_published_identity() -> None:
    cat = catalog()
    cat.records["model_sizes"] = {"s": size_record("s", seed_model="seed-big", parameters=7e9, data_types=["BF16"])}
    assert {k: v.name for k, v in fit.sizes(cat).items()} == {"published:pm-big": "Big Model 70B"}


def test_every_gap_is_keyed_by_its_model_or_representative() -> None:
    assert fit.gaps(catalog()) == {
        "published:pm-unsized": "why g-model", "seed:seed-bare": "why g-seed", "seed:seed-nowhere": "why g-seed-ghost",
        "representative:fam:repmodelx": "why g-rep", "representative:fam:": "why g-rep-none"}
    cat = catalog()
    cat.records["model_size_gaps"] = {"g": gap_record("g", seed_model="seed-big")}
    assert fit.gaps(cat) == {"published:pm-big": "why g"}


def test_the_names_of_a_model_without_runs_key_its_size_the_first_claim_kept() -> None:
    cat = catalog()
    cat.records["model_sizes"]["later"] = size_record("later", name="Later", aliases=["FREE 3b"], family="fam",
                                                      parameters=1e9, data_types=["BF16"])
    assert fit.size_keys(cat) == {"freemodel3b": "size:free", "free3b": "size:free", "freemodel3bv2": "size:free",
                                  "later": "size:later"}


def test_a_typed_name_resolves_to_a_size_of_the_data_else_its_own() -> None:
    cat = catalog()
    size, ident = fit.resolve_size(cat, "big model 70b")
    assert ident == "published:pm-big" and size is not None and size.parameters == 70 * GB
    assert fit.resolve_size(cat, "bigm")[1] == "published:pm-big"  # an alias
    assert fit.resolve_size(cat, "Big-Model-70B (chat)")[1] == "published:pm-big"  # a spelling: the same model
    size, ident = fit.resolve_size(cat, "Free Model 3B v2")
    assert ident == "size:free" and size is not None and size.parameters == 3 * GB
    assert fit.resolve_size(cat, "Unsized Model") == (None, "published:pm-unsized")
    size, ident = fit.resolve_size(cat, "Stranger-7B")
    assert ident is None and size is not None and size.from_name and size.parameters == 7 * GB
    assert fit.resolve_size(cat, "Stranger") == (None, None)


# -- the check of every published run -----------------------------------------------------------------

def test_a_run_that_fits_and_one_that_does_not() -> None:
    cat = catalog()
    big = fit.sizes(cat)["published:pm-big"]
    wide = {p.instance: p for p in fit.places(cat)}["accel.large"]
    run = inference_run("r1", "Big Model 70B", "accel.large", batch_size=4, tp_degree=8, sequence_length=2048,
                        model_data_type="bf16")
    check = fit._inference_check(run, big, wide)
    est = fit.estimate(big, "BF16", 2048, 4, "BF16")
    assert est.need == 171_221_225_472  # 140 GB + 2.68 GB of KV cache, + 20%
    assert (check.run, check.collection, check.model, check.instance) == ("r1", "published_inference_runs",
                                                                          "Big Model 70B", "accel.large")
    assert (check.cores, check.need, check.memory, check.smallest_degree) == (8, est.need, 128 * GB, 12)
    assert check.tensor_parallel and not check.fits and check.share == est.need / (128 * GB)
    assert check.detail == ("Big Model 70B at BF16, sequence 2048, batch 4: weights 140 GB + KV cache 2.68 GB "
                            "+ 20% headroom")
    fitting = fit._inference_check(inference_run("r2", "Big Model 70B", "accel.large", tp_degree=12), big, wide)
    assert fitting.fits and fitting.memory == 192 * GB and fitting.cores == 12


def test_a_run_fits_exactly_at_its_memory() -> None:
    at = fit.RunCheck("r", "published_inference_runs", "m", "i", 1, 100, 100, 1, "d")
    over = fit.RunCheck("r", "published_inference_runs", "m", "i", 1, 101, 100, None, "d")
    assert at.fits and not over.fits and at.share == 1.0 and over.share == 1.01 and not at.tensor_parallel


@pytest.mark.parametrize(("fields", "dtype", "kv_dtype"), [
    ({"weight_storage_data_type": "FP8 weights", "model_data_type": "fp32", "autocast_data_type": "Matmult-BF16"},
     "FP8", "BF16"),
    ({"weight_storage_data_type": "int8, fp8", "model_data_type": None}, "INT8", "INT8"),
    ({"model_data_type": "fp16, fp32 and bf16"}, "FP32", "FP16"),
    ({"model_data_type": "FP8 / BF16", "autocast_data_type": "None"}, "BF16", "FP8"),
    ({"model_data_type": "mixed"}, "BF16", "BF16"),
    ({}, "BF16", "BF16"),
    ({"autocast_data_type": "fp32"}, "BF16", "FP32"),
    ({"autocast_data_type": "bf16, then fp32"}, "BF16", "BF16"),
])
def test_the_types_a_run_names_decide_its_weights_and_kv_cache(fields: dict[str, Any], dtype: str, kv_dtype: str) -> None:
    cat = catalog()
    big = fit.sizes(cat)["published:pm-big"]
    place = {p.instance: p for p in fit.places(cat)}["accel.large"]
    check = fit._inference_check(inference_run("r", "Big Model 70B", "accel.large", sequence_length=100, **fields),
                                 big, place)
    assert check.need == fit.estimate(big, dtype, 100, 1, kv_dtype).need
    assert check.detail.startswith(f"Big Model 70B at {dtype}, sequence 100, batch 1: ")


@pytest.mark.parametrize(("fields", "sequence"), [
    ({"sequence_length": 512, "input_length": 100, "output_length": 28}, 512),
    ({"input_length": 100, "output_length": 28}, 128), ({"input_length": 100}, 100), ({"output_length": 28}, 28),
    ({}, 4096),
])
def test_a_runs_sequence_is_its_length_else_its_input_and_output(fields: dict[str, Any], sequence: int) -> None:
    cat = catalog()
    big = fit.sizes(cat)["published:pm-big"]
    place = {p.instance: p for p in fit.places(cat)}["accel.large"]
    check = fit._inference_check(inference_run("r", "Big Model 70B", "accel.large", **fields), big, place)
    assert check.need == fit.estimate(big, "BF16", sequence, 1).need
    assert f", sequence {sequence}, batch 1:" in check.detail


def test_a_runs_neuroncores_are_its_tp_degree_else_its_own_else_its_instances() -> None:
    cat = catalog()
    small = fit.sizes(cat)["published:pm-small"]
    place = {p.instance: p for p in fit.places(cat)}["accel.large"]
    both = fit._inference_check(inference_run("r", "Small Model", "accel.large", tp_degree=4, neuroncores=2), small, place)
    assert (both.cores, both.memory, both.tensor_parallel) == (4, 64 * GB, True)
    own = fit._inference_check(inference_run("r", "Small Model", "accel.large", neuroncores=2), small, place)
    assert (own.cores, own.memory, own.tensor_parallel) == (2, 32 * GB, False)
    every = fit._inference_check(inference_run("r", "Small Model", "accel.large"), small, place)
    assert (every.cores, every.memory, every.smallest_degree) == (12, 192 * GB, 1)


def test_training_needs_sixteen_bytes_a_parameter_sharded_and_its_headroom() -> None:
    size = sized(3 * GB)
    # TP 2 x PP 1: 12 GB of weights / 2 + 36 GB of optimizer / 2 (no ZeRO) = 24 GB, + 4.8 GB
    assert fit.training_need(size, 2, 1, 4, None) == (24 * GB, 4_800_000_000)
    assert fit.training_need(size, 2, 1, 4, 0) == (24 * GB, 4_800_000_000)  # ZeRO-0 shards nothing more
    # ZeRO-1 over DP 4: 36 GB / 8 = 4.5 GB
    assert fit.training_need(size, 2, 1, 4, 1) == (10_500_000_000, 2_100_000_000)
    assert fit.training_need(size, 1, 3, 1, 1) == (16 * GB, 3_200_000_000)
    # rounded up, each part and the headroom
    assert fit.training_need(sized(1001), 2, 1, 1, None) == (2002 + 6006, 1602)
    assert fit.training_need(sized(1001), 3, 1, 1, None) == (1335 + 4004, 1068)
    assert fit.training_need(sized(1), 1, 1, 3, 2) == (4 + 4, 2)
    # the optimizer's share rounded up to whole bytes: 12012 / 5 is 2402.4
    need = fit.training_need(sized(1001), 1, 1, 5, 1)
    assert need == (4004 + 2403, 1282) and all(isinstance(n, int) for n in need)
    assert fit.TRAINING_BYTES == 16


def test_a_training_run_is_checked_on_one_neuroncore_of_its_first_known_instance() -> None:
    cat = catalog()
    small = fit.sizes(cat)["published:pm-small"]
    place = {p.instance: p for p in fit.places(cat)}["accel.small"]
    run = training_run("t1", "Small Model", ["accel.small"], tp_degree=2, pp_degree=1, dp_degree=4, zero_stage=1)
    check = fit._training_check(run, small, place)
    assert (check.run, check.collection, check.model, check.instance, check.cores) == (
        "t1", "published_training_runs", "Small Model", "accel.small", 1)
    assert (check.need, check.memory, check.smallest_degree, check.tensor_parallel) == (
        12_600_000_000, 16 * GB, 2, False)
    assert check.fits
    assert check.detail == ("Small Model training, TP 2 x PP 1, ZeRO-1 over DP 4: 16 bytes per parameter, "
                            "10.5 GB per NeuronCore + 20% headroom")
    no_zero = fit._training_check(training_run("t2", "Small Model", ["accel.small"], tp_degree=2), small, place)
    assert no_zero.detail == ("Small Model training, TP 2 x PP 1: 16 bytes per parameter, 24 GB per NeuronCore + "
                              "20% headroom")
    assert not no_zero.fits and no_zero.smallest_degree is None and no_zero.need == 28_800_000_000


def test_the_smallest_training_degree_agrees_with_the_check() -> None:
    # 1001 parameters: 16016 bytes on one NeuronCore and 3204 of headroom (20% is 3203.2, rounded up): 19220.
    # On 19219 bytes the run at TP 1 does not fit, so TP 1 is not the smallest degree either.
    place = fit.FitInstance("x", "d", "D", 2, 19219, (1, 2), ("BF16",))
    check = fit._training_check(training_run("t", "m", ["x"], tp_degree=1), sized(1001), place)
    assert check.need == 19220 and not check.fits and check.smallest_degree == 2
    roomy = fit.FitInstance("x", "d", "D", 2, 19220, (1, 2), ("BF16",))
    check = fit._training_check(training_run("t", "m", ["x"], tp_degree=1), sized(1001), roomy)
    assert check.fits and check.smallest_degree == 1


def test_a_training_run_without_a_data_parallel_degree_has_one() -> None:
    place = fit.FitInstance("x", "d", "D", 4, 10**9, (1, 2, 4), ("BF16",))
    run = training_run("t", "m", ["x"], tp_degree=2, dp_degree=None, zero_stage=1)
    check = fit._training_check(run, sized(1000), place)
    assert ", ZeRO-1 over DP 1:" in check.detail
    assert check.need == sum(fit.training_need(sized(1000), 2, 1, 1, 1)) == 9600  # 2000 + 6000 on one NeuronCore


def test_the_smallest_training_degree_is_the_first_whose_share_and_headroom_fit() -> None:
    # 1000 parameters: 16000 bytes on one NeuronCore, 19200 with the headroom
    place = fit.FitInstance("x", "d", "D", 4, 19200, (1, 2, 4), ("BF16",))
    run = training_run("t", "m", ["x"], tp_degree=4)
    assert fit._training_check(run, sized(1000), place).smallest_degree == 1
    tight = fit.FitInstance("x", "d", "D", 4, 19199, (1, 2, 4), ("BF16",))
    assert fit._training_check(run, sized(1000), tight).smallest_degree == 2
    # the degree shards the run's pipeline stages and ZeRO too: PP 2 halves it
    assert fit._training_check(training_run("t", "m", ["x"], tp_degree=4, pp_degree=2), sized(2000), place) \
        .smallest_degree == 1
    assert fit._training_check(training_run("t", "m", ["x"], tp_degree=4, dp_degree=4, zero_stage=1), sized(1500),
                               place).smallest_degree == 1  # 6000 + 18000 / 4 = 10500, 12600 with headroom
    assert fit._training_check(training_run("t", "m", ["x"], tp_degree=4, dp_degree=4), sized(1500),
                               place).smallest_degree == 2  # 24000 on one


def test_every_published_run_is_checked_or_said_why_not() -> None:
    cat = catalog()
    cat.records["published_inference_runs"] = {
        "i-fits": inference_run("i-fits", "Small Model", "accel.small"),
        "i-unsized": inference_run("i-unsized", "Unsized Model", "accel.small"),
        "i-unknown": inference_run("i-unknown", "Nobody", "accel.small"),
        "i-gpu": inference_run("i-gpu", "Small Model", "gpu.x"),
        "i-spelled": inference_run("i-spelled", "Big-Model-70B (chat)", "accel.large", tp_degree=12),
    }
    cat.records["published_training_runs"] = {
        "t-first": training_run("t-first", "Small Model", ["ghost.x", "gpu.x", "accel.small", "accel.large"], tp_degree=2,
                                dp_degree=4, zero_stage=1),
        "t-none": training_run("t-none", "Small Model", ["gpu.x", "ghost.x"]),
        "t-unsized": training_run("t-unsized", "Unsized Model", ["accel.small"]),
        "t-unknown": training_run("t-unknown", "Nobody", ["accel.small"]),
    }
    checked, skipped = fit.check_runs(cat)
    assert [(c.run, c.instance, c.model) for c in checked] == [
        ("i-fits", "accel.small", "Small Model"), ("i-spelled", "accel.large", "Big-Model-70B (chat)"),
        ("t-first", "accel.small", "Small Model")]
    assert checked[1].need == fit.estimate(fit.sizes(cat)["published:pm-big"], "BF16", 4096, 1).need
    assert checked[2].memory == 16 * GB
    assert skipped == [("i-unsized", "no size of Unsized Model"), ("i-unknown", "no size of Nobody"),
                       ("i-gpu", "no memory of gpu.x"), ("t-none", "no memory of its instances"),
                       ("t-unsized", "no size of Unsized Model"), ("t-unknown", "no size of Nobody")]


def test_a_misfit_says_the_run_its_numbers_and_what_is_wrong() -> None:
    inference = fit.RunCheck("r9", "published_inference_runs", "Big", "accel.large", 8, 171 * GB, 128 * GB, 12, "Big at BF16:")
    assert fit.misfit_message(inference) == (
        "published run r9 (Big) ran on 8 NeuronCores of accel.large, but the fit estimate says it cannot: Big at BF16: "
        "need 171 GB, 8 NeuronCores of accel.large have 128 GB; the headroom (20%) or the model's size in "
        "model_sizes.yaml is wrong")
    training = fit.RunCheck("t9", "published_training_runs", "Small", "accel.small", 1, 29 * GB, 16 * GB, None, "S:")
    assert "ran on one NeuronCore of accel.small, but" in fit.misfit_message(training)
    assert "need 29 GB, one NeuronCore of accel.small have 16 GB;" in fit.misfit_message(training)
    # a check read back (its collection another object than the literal) is worded the same
    again = fit.RunCheck("r9", "".join(["published_", "inference_runs"]), "Big", "accel.large", 8, 2, 1, None, "d")
    assert "ran on 8 NeuronCores of accel.large, but" in fit.misfit_message(pickle.loads(pickle.dumps(again)))


@pytest.mark.parametrize(("text", "types"), [
    (None, []), ("", []), ("BF16", ["BF16"]), ("Matmult-bf16 and FP32", ["BF16", "FP32"]), ("fp8/int8/fp16", ["FP8", "INT8", "FP16"]),
    ("TF32", []),
])
def test_the_types_a_text_names(text: str | None, types: list[str]) -> None:
    assert fit._named_types(text) == types


# -- the advisor's script ----------------------------------------------------------------------------------

def test_the_shipped_units_are_the_builds() -> None:
    units = fit.shipped_units()
    assert units == {"memory": [list(u) for u in MEMORY_UNITS], "parameters": [list(u) for u in PARAMETER_UNITS],
                     "size_in_name": fit.SIZE_IN_NAME.pattern, "size_units": {"m": 10**6, "b": 10**9, "t": 10**12}}


def test_the_slice_ships_the_sentences_constants_places_sizes_and_keys() -> None:
    cat = catalog()
    shipped = fit.fit_slice(cat)
    assert shipped["sentences"] is fit.SENTENCES and shipped["headroom_percent"] == 20
    assert shipped["defaults"] == {"sequence": 4096, "batch": 1, "name_data_type": "BF16"}
    assert shipped["dtype_bytes"] == DTYPE_BYTES and shipped["dtype_order"] == ["FP32", "BF16", "FP16", "FP8", "INT8"]
    assert shipped["size_rule"] == fit.SIZE_RULE and shipped["units"] == fit.shipped_units()
    assert shipped["places"][:2] == [
        {"instance": "elder.x", "device": "elder", "device_name": "Elder One", "core_bytes": 2 * 2**30, "degrees": [1],
         "data_types": ["FP16", "INT8"]},
        {"instance": "accel.small", "device": "accel", "device_name": "Accel Two", "core_bytes": 16 * GB,
         "degrees": [1, 2], "data_types": ["FP32", "BF16", "FP8"]}]
    assert len(shipped["places"]) == 5
    assert shipped["sizes"]["published:pm-big"] == {"name": "Big Model 70B", "parameters": 70 * GB,
                                                    "data_types": ["BF16", "FP8"], "kv_values_per_token": 163840,
                                                    "family": None}
    assert shipped["sizes"]["size:free"]["family"] == "fam" and set(shipped["sizes"]) == set(fit.sizes(cat))
    assert shipped["keys"] == fit.size_keys(cat)


def test_the_estimates_records_are_immutable() -> None:
    with pytest.raises(FrozenInstanceError):
        sized(1).parameters = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        fit.estimate(sized(1)).weights = 0  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        fit.FitInstance("x", "d", "D", 1, 1, (1,), ()).cores = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        fit.RunCheck("r", "c", "m", "i", 1, 1, 1, 1, "d").need = 2  # type: ignore[misc]


def test_a_catalog_read_back_from_a_pickle_answers_the_same() -> None:
    cat = catalog()
    again = pickle.loads(pickle.dumps(cat))
    assert fit.places(again) == fit.places(cat)
    assert fit.sizes(again) == fit.sizes(cat) and fit.gaps(again) == fit.gaps(cat)
