"""The columns of the published benchmark files (``data/published/columns.py``): a header names its
column whatever the spaces around it, a price file's columns are its own, a vision table's throughput is
in images, every column's field is a field of the records it fills, the files each spelling is in, the
enumerations both ways, what a row requires. No data files, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import pickle

import pytest

from neuron_docs.data.published import columns as C
from neuron_docs.data.records import published as ps

#: Fields no record holds (kept verbatim: ``unmodelled``), or held under another shape.
UNMODELLED = {"scaling_efficiency", "compute_cost_per_sequence"}
RUN_FIELDS = set(ps.PublishedInferenceRun.model_fields) | set(ps.PublishedTrainingRun.model_fields) | {
    "framework_name", "framework_version"}


def built(text: str) -> str:
    """``text`` made at run time: another object than the module's literal (as a parsed header is)."""
    return pickle.loads(pickle.dumps("".join(list(text))))


@pytest.mark.parametrize("name", ["Inst. Type", " Inst. Type", "Inst. Type  ", "\tInst. Type\n"])
def test_a_header_names_its_column_whatever_the_spaces_around_it(name: str) -> None:
    assert C.lookup(name, "inference") is C.RUN_COLUMNS["Inst. Type"]
    assert C.lookup(name, "prices") is C.PRICE_COLUMNS["Inst. Type"]


def test_a_price_file_has_its_own_columns_and_a_run_file_the_run_columns() -> None:
    rate = C.lookup("RI-Effective hourly rate", built("prices"))
    assert rate is not None and rate.field == "usd_per_hour" and rate.kind == "price" and rate.basis == "reserved-effective"
    assert C.lookup("RI-Effective hourly rate", "inference") is None
    assert C.lookup("RI-Effective hourly rate", "training") is None
    assert C.lookup("Model", built("prices")) is None
    assert C.lookup("Model", "training") is C.RUN_COLUMNS["Model"]
    assert C.lookup(" Optimizer", "training") is C.RUN_COLUMNS["Optimizer"]
    assert C.lookup("Unknown Column", "inference") is None and C.lookup("", "prices") is None
    assert C.lookup("inst. type", "inference") is None  # spelled as published, case and all


def test_a_vision_tables_throughput_is_in_images() -> None:
    column = C.RUN_COLUMNS["Throughput (inference/sec)"]
    for category in ("vision", "vision_cnn", "vision-transformers", built("vision")):
        assert C.field_for("Throughput (inference/sec)", column, category) == "throughput_images_per_s"
        assert C.field_for(" Throughput (inference/sec) ", column, category) == "throughput_images_per_s"
    for category in (None, "", "encoder", "decoder", "supervision", "visio"):
        assert C.field_for("Throughput (inference/sec)", column, category) == "throughput_inferences_per_s"
    other = C.RUN_COLUMNS["Latency P50 (ms)"]
    assert C.field_for("Latency P50 (ms)", other, "vision") == "latency_p50_ms"
    # every other header of a vision table keeps its own field, whatever it sorts before or after
    for name in ("Throughput (tokens/second)", "Weight Storage Data Type", "Avg Throughput (/sec)"):
        assert C.field_for(name, C.RUN_COLUMNS[name], "vision") == C.RUN_COLUMNS[name].field
    assert C.field_for(built("Throughput (inference/sec)"), column, built("vision_sd")) == "throughput_images_per_s"


def test_every_column_fills_a_field_of_its_records() -> None:
    for name, column in C.RUN_COLUMNS.items():
        assert column.field in RUN_FIELDS or column.kind == "unmodelled" and column.field in UNMODELLED, name
        assert name == name.strip() and column.basis is None
    prices = set(ps.InstancePrice.model_fields)
    for name, column in C.PRICE_COLUMNS.items():
        assert column.field in prices and column.files in (C.PRICES, C.ANTICIPATED), name
    assert {f for f in C.CONTEXT_FIELDS.values()} <= RUN_FIELDS
    kinds = {"text", "figure", "count", "instance", "instances", "framework", "enum", "topology", "version",
             "unmodelled"}
    assert {c.kind for c in C.RUN_COLUMNS.values()} == kinds
    assert {c.field for c in C.RUN_COLUMNS.values() if c.kind == "enum"} == set(C.ENUMS)


def test_the_files_each_spelling_is_in() -> None:
    assert C.INF2_VISION == tuple(f"inf2/{view}_data_vision{suffix}.csv"
                                  for suffix in ("", "_cnn", "_dit", "_sd", "_transformers")
                                  for view in ("latency", "throughput"))
    assert C.INF2_VISION[:2] == ("inf2/latency_data_vision.csv", "inf2/throughput_data_vision.csv")
    assert len(C.INF1) == 4 and len(C.INF2) == 16 and len(C.TRN1_TRAINING) == 4 and len(C.PRICES) == 3
    assert C.RUN_COLUMNS["Sequence Length"].files[-2:] == ("trn1/training_data_decoder.csv",
                                                            "trn1/training_data_encoder.csv")
    assert "trn1/trn1_trn1n_nlp_data.csv" not in C.RUN_COLUMNS["Sequence Length"].files
    assert C.RUN_COLUMNS["MFU[%]"].files == ("trn1/trn1_trn1n_nlp_data.csv",)
    assert C.RUN_COLUMNS["ComputeCostPerToken(Tflops)"].files == ("trn1/trn1_trn1n_nlp_data.csv",)
    assert C.RUN_COLUMNS["Model"].files == (*C.INF1, *C.INF2, *C.TRN1_TRAINING)
    assert C.ANTICIPATED == () and C.EARLIER == ()
    earlier = [n for n, c in C.RUN_COLUMNS.items() if c.files == C.EARLIER]
    assert "Throughput (/sec)" in earlier and "Scaling Efficiency" in earlier
    assert C.PublishedColumn("f", "text", ()) == ("f", "text", (), "", None)


def test_the_enumerations_both_ways() -> None:
    for field, spellings in C.ENUMS.items():
        assert C.ENUM_TEXT[field] == {slug: text for text, slug in spellings.items()}
        assert all(C.ENUMS[field][C.ENUM_TEXT[field][slug]] == slug for slug in C.ENUM_TEXT[field])
    assert C.ENUM_TEXT["run_mode"]["tensor-parallel"] == "Tensor Parallel"
    assert C.ENUM_TEXT["scaling"] == {"strong": "strong scaling", "weak": "weak scaling"}
    assert set(C.ENUM_TEXT) == {"application_type", "run_mode", "scaling"}


def test_what_a_row_requires_and_what_makes_a_training_table() -> None:
    assert C.REQUIRED["inference"] == ("model", "framework", "instance", "batch_size", "neuron_version")
    assert C.REQUIRED["training"] == ("model", "instances", "nodes", "topology", "throughput_sequences_per_s",
                                      "neuron_version")
    assert C.REQUIRED["prices"] == ("instance", "usd_per_hour")
    fields = {c.field for c in C.RUN_COLUMNS.values()}
    assert set(C.REQUIRED["inference"]) <= fields and set(C.REQUIRED["training"]) <= fields
    assert set(C.REQUIRED["prices"]) <= {c.field for c in C.PRICE_COLUMNS.values()}
    assert C.TRAINING_MARKERS == {"Performance [seq/sec]", "Instance-Type", "Topology", "Nodes"}
    assert all(C.RUN_COLUMNS[m].files == C.TRN1_TRAINING for m in C.TRAINING_MARKERS)
