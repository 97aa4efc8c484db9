"""The benchmark history's files as rows and a configuration's identity
(``benchmark_import/history_rows.py``), on rows and runs built in the test: reading the four files
(comments, short rows, missing files), their stable order and text, writing only what changed, and the
columns, description and id a published run is filed under. No data files, no Sphinx (``make
mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.benchmark_import import history_rows as hr
from neuron_docs.benchmark_import.history_rows import History
from neuron_docs.data.catalog import CONFIGURATIONS_FILE, HISTORY_FILES, OBSERVATIONS_FILE, PRICES_FILE, STATES_FILE
from neuron_docs.data.records import history as h
from neuron_docs.data.records import published as s
from helpers.import_files import put


def inference(**fields: Any) -> s.PublishedInferenceRun:
    values = {"id": "run-1", "table": "inf2-throughput-data-encoder", "model": "bert-base-uncased",
              "neuron_version": "2.20.0", "source": "neuron-sdk-benchmarks", "framework": "torch-neuronx",
              "framework_name": "PyTorch", "framework_version": "2.1", "instance": "inf2.xlarge",
              "batch_size": 8, "throughput_inferences_per_s": "100", **fields}
    return s.PublishedInferenceRun.model_validate(values)


def training(**fields: Any) -> s.PublishedTrainingRun:
    values = {"id": "run-t", "table": "trn1-training-data-decoder", "model": "Llama pre-training",
              "neuron_version": "2.24.0", "source": "neuron-sdk-benchmarks",
              "instances": ["trn1.32xlarge", "trn1n.32xlarge"], "nodes": 32, "topology": "TP=32 DP=32 PP=1 ZeRO-1",
              "tp_degree": 32, "dp_degree": 32, "pp_degree": 1, "zero_stage": 1,
              "throughput_sequences_per_s": "47.95", **fields}
    return s.PublishedTrainingRun.model_validate(values)


# Reading ---------------------------------------------------------------------------------------


def test_a_missing_file_is_no_rows_and_comments_and_short_rows_are_read(tmp_path: Path) -> None:
    assert hr._read_rows(tmp_path / "none.csv") == []
    (tmp_path / "folder.csv").mkdir()
    assert hr._read_rows(tmp_path / "folder.csv") == []  # not a file
    put(tmp_path, "f.csv", "# a comment\na,b,c\n#another\n1,2,3\n4\n")
    assert hr._read_rows(tmp_path / "f.csv") == [{"a": "1", "b": "2", "c": "3"}, {"a": "4", "b": "", "c": ""}]


def test_a_line_with_a_hash_inside_is_no_comment(tmp_path: Path) -> None:
    put(tmp_path, "f.csv", "a,b\nx#,#y\n")
    assert hr._read_rows(tmp_path / "f.csv") == [{"a": "x#", "b": "#y"}]


def test_load_groups_the_rows_by_id_by_configuration_and_metric_and_by_instance(tmp_path: Path) -> None:
    put(tmp_path, STATES_FILE, "id,date\ns1,2024-01-01\ns2,2024-02-01\ns3,2024-03-01\n")
    put(tmp_path, CONFIGURATIONS_FILE, "id,model\nc1,A\nc2,B\n")
    put(tmp_path, OBSERVATIONS_FILE, "id,configuration,metric,neuron_version\n"
                                        "o1,c1,latency_p50_ms,2.1\no2,c1,latency_p50_ms,2.2\n"
                                        "o3,c1,throughput_inferences_per_s,2.1\no4,c2,latency_p50_ms,2.1\n")
    put(tmp_path, PRICES_FILE, "id,instance\np1,inf2.xlarge\np2,inf2.xlarge\np3,trn1.2xlarge\n")
    history = History.load(tmp_path)
    assert [r["id"] for r in history.states] == ["s1", "s2", "s3"]
    assert history.latest == history.states[-1] and history.latest["id"] == "s3"
    assert {k: v["model"] for k, v in history.configurations.items()} == {"c1": "A", "c2": "B"}
    assert {k: [o["id"] for o in v] for k, v in history.observations.items()} == {
        ("c1", "latency_p50_ms"): ["o1", "o2"], ("c1", "throughput_inferences_per_s"): ["o3"],
        ("c2", "latency_p50_ms"): ["o4"]}
    assert {k: [p["id"] for p in v] for k, v in history.prices.items()} == {
        "inf2.xlarge": ["p1", "p2"], "trn1.2xlarge": ["p3"]}


def test_an_empty_history_has_no_latest_state(tmp_path: Path) -> None:
    history = History.load(tmp_path)
    assert history.latest is None
    assert (history.states, history.configurations, history.observations, history.prices) == ([], {}, {}, {})
    assert history.latest_tables is None


def test_the_latest_version_of_a_configuration_is_the_highest_release_not_the_last_text() -> None:
    history = History(observations={
        ("c1", "latency_p50_ms"): [{"neuron_version": "2.9.0"}, {"neuron_version": "2.10"}],
        ("c1", "throughput_inferences_per_s"): [{"neuron_version": "2.8"}],
        ("c2", "latency_p50_ms"): [{"neuron_version": "2.30.0"}]})
    assert history.latest_version("c1") == "2.10"
    assert history.latest_version("c2") == "2.30.0"
    assert history.latest_version("c3") is None
    history.observations[("c1", "x")] = [{"neuron_version": "2.11.0"}]
    assert history.latest_version("c1") == "2.11.0"


# Writing ---------------------------------------------------------------------------------------


def observation(oid: str, configuration: str, metric: str, first: str, version: str) -> dict[str, str]:
    return {"id": oid, "configuration": configuration, "metric": metric, "first_published": first,
            "neuron_version": version}


def test_texts_are_in_a_stable_order_whatever_order_the_rows_came_in() -> None:
    obs = [observation("o9", "c2", "throughput_inferences_per_s", "2024-01-01", "2.1"),
           observation("o5", "c1", "latency_p50_ms", "2024-01-01", "2.1"),
           observation("o4", "c1", "throughput_inferences_per_s", "2024-02-01", "2.10"),
           observation("o3", "c1", "throughput_inferences_per_s", "2024-02-01", "2.9"),
           observation("o2", "c1", "throughput_inferences_per_s", "2024-01-01", "2.20"),
           observation("o1", "c1", "throughput_inferences_per_s", "2024-02-01", "2.9")]
    configs = [{"id": "z", "generation": "inf2", "kind": "inference", "view": "latency", "model": "A"},
               {"id": "y", "generation": "inf1", "kind": "inference", "view": "throughput", "model": "Z"},
               {"id": "x", "generation": "inf2", "kind": "inference", "view": "latency", "model": "A"},
               {"id": "w", "generation": "inf2", "kind": "inference", "view": "latency", "model": "B"},
               {"id": "v", "generation": "inf2", "kind": "inference", "view": "throughput", "model": "A"},
               {"id": "u", "generation": "inf2", "kind": "inference", "view": "throughput", "model": "A"},
               {"id": "t", "generation": "trn1", "kind": "training", "view": "training", "model": "A"},
               {"id": "r", "generation": "inf2", "kind": "training", "view": "training", "model": "A"}]
    prices = [{"id": "p3", "instance": "inf2.xlarge", "first_published": "2024-01-01"},
              {"id": "p2", "instance": "inf2.xlarge", "first_published": "2023-01-01"},
              {"id": "p1", "instance": "inf2.xlarge", "first_published": "2024-01-01"},
              {"id": "p0", "instance": "inf1.xlarge", "first_published": "2025-01-01"}]
    states = [{"id": "s2"}, {"id": "s1"}]

    def make(order: int) -> History:
        o, c, p = (obs, configs, prices) if order == 0 else (obs[::-1], configs[::-1], prices[::-1])
        history = History(states=list(states), configurations={r["id"]: r for r in c}, prices={})
        for row in o:
            history.observations.setdefault((row["configuration"], row["metric"]), []).append(row)
        for row in p:
            history.prices.setdefault(row["instance"], []).append(row)
        return history

    texts = make(0).texts()
    assert texts == make(1).texts()
    assert list(texts) == [STATES_FILE, CONFIGURATIONS_FILE, OBSERVATIONS_FILE, PRICES_FILE]

    def ids(name: str) -> list[str]:
        lines = texts[name].split("\n")
        assert lines[0] == ",".join(HISTORY_FILES[name].model_fields)
        assert lines[-1] == ""  # "\n" ends each line, no "\r"
        assert "\r" not in texts[name]
        return [line.split(",")[0] for line in lines[1:-1]]

    # metric order is METRICS' (throughput before latency), then first published, release (2.9 < 2.10), id
    assert ids(OBSERVATIONS_FILE) == ["o2", "o1", "o3", "o4", "o5", "o9"]
    assert ids(CONFIGURATIONS_FILE) == ["y", "x", "z", "w", "u", "v", "r", "t"]
    assert ids(PRICES_FILE) == ["p0", "p2", "p1", "p3"]
    assert ids(STATES_FILE) == ["s2", "s1"]  # states keep their order


def test_a_row_with_a_column_of_no_field_is_refused() -> None:
    with pytest.raises(ValueError, match="nonsense"):
        History(states=[{"id": "s1", "nonsense": "x"}]).texts()


def test_write_writes_the_files_whose_text_changed_and_only_those(tmp_path: Path) -> None:
    history = History(states=[{"id": "s1"}])
    written = history.write(tmp_path)
    assert sorted(written) == sorted(tmp_path / name for name in HISTORY_FILES)
    assert (tmp_path / STATES_FILE).read_text(encoding="utf-8") == history.texts()[STATES_FILE]
    assert history.write(tmp_path) == []
    history.prices["inf2.xlarge"] = [{"id": "p1", "instance": "inf2.xlarge", "first_published": "2024-01-01"}]
    assert history.write(tmp_path) == [tmp_path / PRICES_FILE]
    again = History.load(tmp_path)
    assert again.texts() == history.texts()
    assert again.prices["inf2.xlarge"][0]["id"] == "p1"


# A configuration's identity --------------------------------------------------------------------


def test_digest_is_the_sha256_of_the_parts_joined_by_nul() -> None:
    assert hr.digest("a", 1, None) == hashlib.sha256(b"a\x001\x00None").hexdigest()
    assert hr.digest("ab") != hr.digest("a", "b")


def test_a_cell_is_empty_for_none_joined_for_a_list_text_otherwise() -> None:
    assert hr._cell(None) == ""
    assert hr._cell(["a", "b", "c"]) == "a;b;c"
    assert hr._cell(0) == "0"
    assert hr._cell("x") == "x"


def test_the_view_is_the_file_names() -> None:
    assert hr._view("training", "trn1/latency_data_x.csv") == "training"
    assert hr._view("inference", "inf2/latency_data_encoder.csv") == "latency"
    assert hr._view("inference", "inf1/neuronperf_nlp_latency_optimized.csv") == "latency"
    assert hr._view("inference", "inf2/throughput_data_encoder.csv") == "throughput"
    assert hr._view("inference", "latency/throughput_data.csv") == "throughput"  # the folder does not count
    assert hr._view("inference", "inf2/data.latency") == "throughput"  # nor the suffix


def test_a_runs_identity_is_its_set_configuration_columns_with_generation_kind_and_view() -> None:
    run = inference(sequence_length=128, model_data_type="FP32", tp_degree=2, neuroncores=None)
    out = hr.identity(run, "inf2", "inf2/throughput_data_encoder.csv")
    assert out == {"generation": "inf2", "kind": "inference", "view": "throughput", "model": "bert-base-uncased",
                   "framework": "torch-neuronx", "instance": "inf2.xlarge", "batch_size": "8", "tp_degree": "2",
                   "sequence_length": "128", "model_data_type": "FP32"}
    assert list(out)[:3] == ["generation", "kind", "view"]
    # the figures, release and publication are no part of it
    assert hr.identity(inference(neuron_version="2.21.0", throughput_inferences_per_s="5", script="s", table="t2"),
                       "inf2", "inf2/throughput_data_encoder.csv") == hr.identity(
        inference(), "inf2", "inf2/throughput_data_encoder.csv")


def test_a_training_runs_identity_keeps_a_zero_and_joins_its_instances() -> None:
    out = hr.identity(training(), "trn1", "trn1/training_data_decoder.csv")
    assert out["kind"] == "training" and out["view"] == "training"
    assert out["instances"] == "trn1.32xlarge;trn1n.32xlarge"
    assert out["tp_degree"] == "32" and out["zero_stage"] == "1" and "framework" not in out
    zero = s.PublishedTrainingRun.model_construct(**{**training().__dict__, "zero_stage": 0, "instances": []})
    out = hr.identity(zero, "trn1", "trn1/training_data_decoder.csv")
    assert out["zero_stage"] == "0" and "instances" not in out


def test_a_runs_description_is_its_publication_cells() -> None:
    run = inference(script="bench", os="U22", published_text={"Zeta": "z", "Äpfel": "ä"})
    out = hr.description(run, 7)
    assert list(out) == list(h.DESCRIPTION_FIELDS)
    assert out["row"] == "7" and out["script"] == "bench" and out["os"] == "U22"
    assert out["table"] == "inf2-throughput-data-encoder" and out["framework_version"] == "2.1"
    assert out["topology"] == "" and out["run_name"] == ""
    assert out["published_text"] == '{"Zeta": "z", "Äpfel": "ä"}'  # not escaped
    assert json.loads(out["published_text"]) == {"Zeta": "z", "Äpfel": "ä"}
    assert out["published_text"] == json.dumps({"Zeta": "z", "Äpfel": "ä"}, ensure_ascii=False, sort_keys=True)
    assert hr.description(inference(), 2)["published_text"] == ""


def test_published_text_is_sorted_by_column() -> None:
    run = inference(published_text={"b": "1", "a": "2"})
    assert hr.description(run, 1)["published_text"] == '{"a": "2", "b": "1"}'


def test_a_release_published_short_keeps_its_text_under_the_version_column() -> None:
    short = inference(neuron_version="2.20")
    assert json.loads(hr.description(short, 1, "Neuron Version")["published_text"]) == {"Neuron Version": "2.20"}
    assert hr.description(short, 1)["published_text"] == ""  # no column named: nothing kept
    assert hr.description(inference(neuron_version="2.20.0"), 1, "Neuron Version")["published_text"] == ""
    kept = inference(neuron_version="2.20", published_text={"Neuron Version": "2.20 *"})
    assert json.loads(hr.description(kept, 1, "Neuron Version")["published_text"]) == {"Neuron Version": "2.20 *"}
    # the run's own published text is not changed
    hr.description(short, 1, "Neuron Version")
    assert short.published_text == {}


def test_a_training_runs_description_names_its_framework() -> None:
    out = hr.description(training(framework="neuronx-distributed"), 3)
    assert out["framework"] == "neuronx-distributed" and out["topology"] == "TP=32 DP=32 PP=1 ZeRO-1"
    assert "framework" not in hr.description(inference(), 3)


def test_a_configuration_id_is_its_generation_model_and_digest() -> None:
    ident = {"generation": "inf2", "kind": "inference", "model": "BERT base (bert-base-uncased) " + "x" * 40}
    cid = hr.configuration_id(ident)
    key = json.dumps(ident, sort_keys=True, ensure_ascii=False)
    assert cid == f"inf2-bert-base-bert-base-uncased-xx-{hashlib.sha256(key.encode()).hexdigest()[:8]}"
    assert hr.configuration_id({**ident, "model": "Ünïcode-.model"}).startswith("inf2-n-code-.model-")
    for cut in "-.":  # cut at 30 characters, then stripped of a dash or dot
        assert hr.configuration_id({"model": f"abcdefghijklmnopqrstuvwxyz012{cut}x", "generation": "inf1"})[
            :-8] == "inf1-abcdefghijklmnopqrstuvwxyz012-"
    # the key's order does not matter, its values do
    assert hr.configuration_id(dict(reversed(ident.items()))) == cid
    assert hr.configuration_id({**ident, "kind": "training"}) != cid


def test_a_configuration_id_hashes_unicode_as_itself() -> None:
    ident = {"generation": "inf2", "model": "Ä"}
    assert hr.configuration_id(ident).endswith(
        hashlib.sha256('{"generation": "inf2", "model": "Ä"}'.encode()).hexdigest()[:8])


def test_identity_after_a_pickle_round_trip_is_the_same() -> None:
    run = pickle.loads(pickle.dumps(inference(tp_degree=2)))
    assert hr.identity(run, "".join(["inf", "2"]), "inf2/throughput_data_encoder.csv") == hr.identity(
        inference(tp_degree=2), "inf2", "inf2/throughput_data_encoder.csv")


def test_a_description_does_not_depend_on_its_field_names_being_the_codes_own_texts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The field names built at run time (as a list read from a file or a pickle would be): equal to
    the literals, other objects."""
    built = tuple("".join(list(name)) for name in h.DESCRIPTION_FIELDS)
    i = built.index("published_text")
    assert built == h.DESCRIPTION_FIELDS and built[i] is not h.DESCRIPTION_FIELDS[i]
    monkeypatch.setattr(hr.h, "DESCRIPTION_FIELDS", built)
    run = inference(published_text={"Zed": "1"}, neuron_version="2.20")
    out = hr.description(run, 5, "Neuron Version")
    assert out["published_text"] == '{"Neuron Version": "2.20", "Zed": "1"}' and out["row"] == "5"


def test_the_latest_version_of_a_configuration_named_by_a_text_read_from_a_file() -> None:
    history = History(observations={("c1", "latency_p50_ms"): [{"neuron_version": "2.9.0"}]})
    assert history.latest_version("".join(["c", "1"])) == "2.9.0"


def test_the_view_of_a_kind_read_from_a_file() -> None:
    assert hr._view("".join(["train", "ing"]), "trn1/latency_data_x.csv") == "training"


def test_a_release_whose_canonical_form_sorts_before_its_text_keeps_its_text() -> None:
    long = inference(neuron_version="2.20.00")  # canonical "2.20.0", which sorts before "2.20.00"
    assert json.loads(hr.description(long, 1, "Neuron Version")["published_text"]) == {"Neuron Version": "2.20.00"}
