"""Reading published benchmark tables into records (``benchmark_import/tables.py``), on small CSV
files written in the test: which files a folder gives, the generation, table and kind of a file,
how each column is mapped (unknown, duplicate, unmodelled, defaulted, missing), which rows load and
which are set aside with a located problem, the records' ids, prices, spellings and published text.
No data files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); the real snapshot's import pins the same rules end to end
(``test_published_import.py``)."""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.benchmark_import import tables as T
from neuron_docs.benchmark_import.read import ImportResult, Problem, config_key
from neuron_docs.data.published import columns as C
from neuron_docs.data.records import published as s
from helpers.import_files import ENC, HEAD, INSTANCES, put

FRAMEWORKS = ["torch-neuronx", "torch-neuron", "tensorflow-neuronx"]
ROW = "bert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5"
TRAIN_HEAD = "Model,Instance-Type,Nodes,Topology, Performance [seq/sec],Neuron Version"
TRAIN_ROW = "Llama,trn1.32xlarge/trn1n.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0"
PRICES = "Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.328\n"


def run(path: Path, **kw: Any) -> ImportResult:
    kw.setdefault("as_of", "2024-01-01")
    return T.import_published(path, kw.pop("instances", INSTANCES), kw.pop("frameworks", FRAMEWORKS), **kw)


def one(tmp_path: Path, text: str, rel: str = ENC, **kw: Any) -> ImportResult:
    put(tmp_path, rel, text)
    return run(tmp_path, **kw)


def where(result: ImportResult, severity: str | None = "error") -> list[tuple[str, int | None, str]]:
    return [(p.file, p.line, p.column) for p in result.problems if severity is None or p.severity == severity]


def file_result(tmp_path: Path, text: str | bytes, rel: str = "x.csv", instances: list[str] = INSTANCES,
                **kw: Any) -> ImportResult:
    path = put(tmp_path, rel, text)
    result = ImportResult()
    args: dict[str, Any] = dict(source="src", as_of="2024-01-01", region=None, term=None)
    args.update(kw)
    T.import_file(path, rel, result, set(instances), set(FRAMEWORKS), **args)
    return result


# Files -----------------------------------------------------------------------------------------


def test_a_folder_gives_every_csv_under_it_in_order_and_nothing_else(tmp_path: Path) -> None:
    put(tmp_path, "inf2/throughput_data_encoder.csv", f"{HEAD}\n{ROW}\n")
    put(tmp_path, "inf2/deeper/latency_data_encoder.csv", f"{HEAD}\n{ROW}\n")
    put(tmp_path, "inf2/notes.txt", "not a table")
    put(tmp_path, "inf2/index.rst", "x")
    result = run(tmp_path)
    assert [t.path for t in result.tables] == ["inf2/deeper/latency_data_encoder.csv", "inf2/throughput_data_encoder.csv"]
    assert result.errors == []


def test_a_single_file_is_named_from_its_grandparent_or_the_root_given(tmp_path: Path) -> None:
    path = put(tmp_path / "snap", ENC, f"{HEAD}\n{ROW}\n")
    assert [t.path for t in run(path).tables] == [ENC]
    assert [t.path for t in run(path, root=tmp_path).tables] == ["snap/" + ENC]
    assert [t.path for t in run(path, root=str(tmp_path / "snap")).tables] == [ENC]
    # a root the file is not under: the file's own name
    assert [t.path for t in run(path, root=tmp_path / "elsewhere").tables] == ["throughput_data_encoder.csv"]


def test_problems_come_sorted_by_file_line_column_and_message(tmp_path: Path) -> None:
    put(tmp_path, "inf2/throughput_data_encoder.csv",
        f"{HEAD},Zed,Alpha\n{ROW},1,2\nbert,PyTorch 2.1,Inf9.xlarge,8,2.20.0,fast,5,1,2\n")
    put(tmp_path, "inf2/latency_data_encoder.csv", f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,x,2.20.0,100,5\n")
    result = run(tmp_path)
    problems = [(p.file, p.line, p.column) for p in result.problems]
    assert problems == sorted(problems, key=lambda p: (p[0], p[1] or 0, p[2]))
    assert problems == [("inf2/latency_data_encoder.csv", 2, "Batch Size"),
                        (ENC, 1, "Alpha"), (ENC, 1, "Zed"),
                        (ENC, 3, "Inst. Type"), (ENC, 3, "Throughput (inference/second)")]
    assert result.problems == sorted(result.problems, key=lambda p: (p.file, p.line or 0, p.column, p.message))


def test_problems_of_the_whole_file_come_before_its_lines(tmp_path: Path) -> None:
    put(tmp_path, "inf2/throughput_data_encoder.csv", f"{HEAD},Zed\n{ROW},1\n")
    put(tmp_path, "inf2/throughput_data_encoder.csv", f"{HEAD},Zed\n{ROW},1\n")
    put(tmp_path, "inf2/inf2_instance_prices.csv", "Inst. Type,RI-Effective hourly rate\nInf2.8xlarge,0.85\n")
    result = run(tmp_path)
    ordered = [(p.file, p.line) for p in result.problems]
    assert ordered == [("inf2/throughput_data_encoder.csv", None), ("inf2/throughput_data_encoder.csv", 1)]


def test_two_problems_of_one_cell_are_sorted_by_message(tmp_path: Path) -> None:
    result = one(tmp_path, f"{TRAIN_HEAD}\nLlama,trn9.32xlarge/trn8.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0\n",
                 rel="trn1/training_data_decoder.csv")
    assert [p.message.split("'")[1] for p in result.problems] == ["trn8.32xlarge", "trn9.32xlarge"]


def test_an_unreadable_file_is_a_problem_and_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    result = file_result(tmp_path, b"Model\n\xff\xfe\n", rel=ENC)
    assert where(result) == [(ENC, None, "")] and "UTF-8" in result.problems[0].message
    assert result.tables == [] and result.rows_read == {}
    result = file_result(tmp_path, ("\ufeff" + f"{HEAD}\n{ROW}\n").encode("utf-8"), rel=ENC)
    assert result.tables[0].columns[0] == "Model" and len(result.inference_runs) == 1


def test_a_file_with_no_rows_is_a_problem_and_no_table(tmp_path: Path) -> None:
    result = file_result(tmp_path, "\n\n", rel=ENC)
    assert where(result) == [(ENC, None, "")] and result.tables == [] and result.rows_read == {}


def test_rows_read_counts_every_row_the_scanner_located_loaded_or_not(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\n{ROW}\n\n{ROW},extra\nbert,PyTorch 2.1,Inf2.xlarge,16,2.20.0,x,5\n",
                         rel=ENC)
    assert result.rows_read == {ENC: 3}
    assert len(result.inference_runs) == 1


def test_a_header_only_file_is_a_table_of_no_rows(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\n", rel=ENC)
    assert result.rows_read == {ENC: 0} and [t.path for t in result.tables] == [ENC]


# A file's generation, table and kind -----------------------------------------------------------


def test_the_generation_from_the_folder_from_the_caller_or_from_the_instance_column(tmp_path: Path) -> None:
    assert file_result(tmp_path, f"{HEAD}\n{ROW}\n", rel=ENC).tables[0].generation == "inf2"
    given = file_result(tmp_path, f"{HEAD}\n{ROW}\n", rel="throughput_data_encoder.csv", generation="inf2")
    assert given.tables[0].generation == "inf2" and given.tables[0].id == "inf2-throughput-data-encoder"
    assert [(p.line, p.severity) for p in given.problems] == [(None, "warning")]
    assert "read as inf2" in given.problems[0].message
    assert given.inference_runs[0].id.startswith("inf2-bert-")
    # the caller's generation does not override the path's
    path_wins = file_result(tmp_path, f"{HEAD}\n{ROW}\n", rel=ENC, generation="inf1")
    assert path_wins.tables[0].generation == "inf2" and path_wins.problems == []
    # no folder, no caller: the instance column's first set cell
    found = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1, ,8,2.20.0,100,5\n{ROW}\n", rel="data.csv")
    assert found.tables[0].generation == "inf2" and found.tables[0].id == "inf2-data"
    assert [p for p in found.problems if p.line is None] == []


def test_the_generation_from_a_spaced_instance_column_of_a_training_or_price_file(tmp_path: Path) -> None:
    training = file_result(tmp_path, "Model, Instance-Type ,Nodes,Topology,Performance [seq/sec],Neuron Version\n"
                                     "Llama,trn1.32xlarge/trn1n.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0\n",
                           rel="data.csv")
    assert training.tables[0].generation == "trn1"
    prices = file_result(tmp_path, " Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.328\n", rel="prices.csv")
    assert prices.tables[0].generation == "inf2" and prices.tables[0].kind == "prices"


def test_a_short_row_does_not_break_the_instance_column_search(tmp_path: Path) -> None:
    result = file_result(tmp_path, "Model,Batch Size,Inst. Type\nbert,8\nbert,8,Inf2.xlarge\n", rel="data.csv")
    assert result.tables[0].generation == "inf2"


def test_a_file_no_one_can_place_is_a_problem_and_no_table(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1,,8,2.20.0,100,5\n", rel="data.csv")
    assert where(result) == [("data.csv", None, "")] and "generation" in result.problems[0].message
    assert result.tables == [] and result.inference_runs == []
    assert result.rows_read == {"data.csv": 1}


def test_the_caller_generation_drops_the_unknown_prefix_only() -> None:
    problems: list[Problem] = []
    assert T._identify("data.csv", ["Model"], [], "inf1", problems) == ("inf1", "inf1-data", None, None)
    assert T._identify("unknown-x.csv", ["Model"], [], "inf1", []) == ("inf1", "inf1-unknown-x", None, None)
    assert T._identify("throughput_data_cnn.csv", ["Model"], [], "inf1", []) == (
        "inf1", "inf1-throughput-data-cnn", "throughput", "cnn")


def test_a_files_kind_by_its_columns() -> None:
    assert T._table_kind(["Inst. Type", " RI-Effective hourly rate "]) == "prices"
    assert T._table_kind(["Inst. Type", "On-Demand hourly rate"]) == "prices"
    assert T._table_kind(["Inst. Type"]) == "inference"
    for marker in C.TRAINING_MARKERS:
        assert T._table_kind(["Model", f" {marker} "]) == "training"
    assert T._table_kind(["Model", "Topology", "RI-Effective hourly rate"]) == "prices"
    assert T._table_kind(["Model", "Framework"]) == "inference"


def test_the_table_layout_is_kept(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\r\n{ROW}\r\n\r\n", rel=ENC, source="my-source")
    table = result.tables[0]
    assert (table.id, table.generation, table.kind, table.view, table.category, table.path) == (
        "inf2-throughput-data-encoder", "inf2", "inference", "throughput", "encoder", ENC)
    assert table.page == "inf2/inf2-performance.rst" and table.columns == HEAD.split(",")
    assert (table.line_terminator, table.tail_newlines, table.source) == ("crlf", 2, "my-source")
    plain = file_result(tmp_path, f"{HEAD}\n{ROW}", rel="inf2/other_data.csv")
    assert (plain.tables[0].line_terminator, plain.tables[0].tail_newlines, plain.tables[0].page) == ("lf", 0, None)


# Columns ---------------------------------------------------------------------------------------


def test_an_unknown_column_is_named_with_its_closest_name_and_kept_verbatim(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD},Batch Sise,Power\n{ROW},8,\n", rel=ENC)
    assert where(result) == [(ENC, 1, "Batch Sise"), (ENC, 1, "Power")]
    assert "did you mean 'Batch Size'?" in result.problems[0].message
    assert "did you mean" not in result.problems[1].message
    assert result.inference_runs[0].published_text == {"Batch Sise": "8"}  # empty cells are not kept


def test_an_unknown_price_column_is_matched_against_the_price_columns(tmp_path: Path) -> None:
    result = file_result(tmp_path, "Inst. Type,RI-Effective hourly rate,Inst Type\nInf2.xlarge,0.328,x\n",
                         rel="inf2/inf2_instance_prices.csv")
    assert where(result) == [("inf2/inf2_instance_prices.csv", 1, "Inst Type")]
    assert "did you mean 'Inst. Type'?" in result.problems[0].message
    run_file = file_result(tmp_path, f"{HEAD},RI-Effective hourly rat\n{ROW},1\n", rel=ENC)
    assert "did you mean" not in run_file.problems[0].message  # a run file is matched against the run columns


def test_an_unknown_column_with_spaces_is_matched_stripped(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}, Batch Sise \n{ROW},8\n", rel=ENC)
    assert "did you mean 'Batch Size'?" in result.problems[0].message


def test_a_duplicate_column_is_named_and_its_cells_kept(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD},Zed,Batch Size,Zed\n{ROW},1,16,2\n", rel=ENC)
    assert where(result) == [(ENC, 1, "Zed"), (ENC, 1, "Batch Size"), (ENC, 1, "Zed")]
    assert "duplicate column" in result.problems[1].message and "duplicate column" in result.problems[2].message
    run = result.inference_runs[0]
    assert run.batch_size == 8


def test_an_unmodelled_column_is_kept_without_a_problem(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{TRAIN_HEAD},Scaling Efficiency\n{TRAIN_ROW},97%\n",
                         rel="trn1/training_data_decoder.csv")
    assert result.errors == [] and result.training_runs[0].published_text == {"Scaling Efficiency": "97%"}


def test_two_columns_of_one_field_name_the_first(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD},Instance Type\n{ROW},Inf2.8xlarge\n", rel=ENC)
    assert where(result) == [(ENC, 1, "Instance Type")]
    assert "column holds instance, as column 'Inst. Type' does" in result.problems[0].message
    assert result.inference_runs[0].instance == "inf2.xlarge"
    assert result.inference_runs[0].published_text == {"Instance Type": "Inf2.8xlarge"}


def test_a_column_whose_field_depends_on_the_category(tmp_path: Path) -> None:
    head = "Model,Framework,Inst. Type,Batch Size,Neuron Version,Throughput (inference/sec)"
    vision = file_result(tmp_path, f"{head}\nvit,PyTorch 2.1,Inf2.xlarge,1,2.20.0,30\n",
                         rel="inf2/throughput_data_vision_transformers.csv")
    assert vision.inference_runs[0].throughput_images_per_s == 30
    encoder = file_result(tmp_path, f"{head}\nbert,PyTorch 2.1,Inf2.xlarge,1,2.20.0,30\n", rel=ENC)
    assert encoder.inference_runs[0].throughput_inferences_per_s == 30


def test_a_missing_required_column_fails_every_row(tmp_path: Path) -> None:
    head = "Model,Framework,Inst. Type,Neuron Version,Throughput (inference/second)"
    result = file_result(tmp_path, f"{head}\nbert,PyTorch 2.1,Inf2.xlarge,2.20.0,100\n", rel=ENC)
    assert where(result)[0] == (ENC, 1, "batch_size")
    assert "missing column for required field batch_size" in result.problems[0].message
    assert result.inference_runs == []


def test_a_default_stands_for_a_missing_required_column_with_a_warning(tmp_path: Path) -> None:
    head = "Model,Framework,Inst. Type,Batch Size,Throughput (inference/second)"
    text = f"{head}\nbert,PyTorch 2.1,Inf2.xlarge,8,100\n"
    result = file_result(tmp_path, text, rel=ENC,
                         defaults={"neuron_version": "2.5.0", "os": "U20", "batch_size": "99"})
    assert [(p.line, p.column, p.severity) for p in result.problems] == [(1, "neuron_version", "warning")]
    assert "every row read as '2.5.0'" in result.problems[0].message
    run = result.inference_runs[0]
    assert run.neuron_version == "2.5.0" and run.os is None and run.batch_size == 8
    without = file_result(tmp_path, text, rel=ENC)
    # the column's problem, then the row's (located at the field: no column holds it)
    assert [(p.line, p.column, p.severity) for p in without.problems] == [(1, "neuron_version", "error"),
                                                                          (2, "neuron_version", "error")]
    assert without.inference_runs == []


def test_a_framework_column_gives_its_name_and_version_and_training_needs_none(tmp_path: Path) -> None:
    head = "Model,Inst. Type,Batch Size,Neuron Version,Throughput (inference/second)"
    result = file_result(tmp_path, f"{head}\nbert,Inf2.xlarge,8,2.20.0,100\n", rel=ENC)
    # the missing column once (not framework_name nor framework_version), then the row's missing fields
    assert [(p.line, p.column) for p in result.errors] == [(1, "framework"), (2, "framework"), (2, "")]
    training = file_result(tmp_path, f"{TRAIN_HEAD}\n{TRAIN_ROW}\n", rel="trn1/training_data_decoder.csv")
    assert training.problems == []


def test_the_fields_parsed_from_a_column_are_located_in_it() -> None:
    header = ["Model", "Framework", "Topology"]
    mapping = {0: (C.RUN_COLUMNS["Model"], "model"), 1: (C.RUN_COLUMNS["Framework"], "framework"),
               2: (C.RUN_COLUMNS["Topology"], "topology")}
    inference = T._columns_of_fields(header, mapping, "inference")
    assert inference["framework_name"] == inference["framework_version"] == "Framework"
    assert "tp_degree" not in inference
    training = T._columns_of_fields(header, mapping, "training")
    assert {training[f] for f in ("tp_degree", "dp_degree", "pp_degree", "zero_stage")} == {"Topology"}
    assert "framework_name" not in training
    assert T._columns_of_fields(["Model"], {0: (C.RUN_COLUMNS["Model"], "model")}, "inference")[
        "framework_name"] == ""
    assert T._columns_of_fields(["Model"], {0: (C.RUN_COLUMNS["Model"], "model")}, "training")["tp_degree"] == ""


# Rows ------------------------------------------------------------------------------------------


def test_an_empty_required_cell_sets_the_row_aside(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\n{ROW}\nbert,PyTorch 2.1,Inf2.xlarge, ,2.20.0,100,5\n", rel=ENC)
    assert where(result) == [(ENC, 3, "Batch Size")] and "batch_size is required" in result.problems[0].message
    assert len(result.inference_runs) == 1


def test_an_empty_required_cell_after_a_problem_in_its_column_is_said_once(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 0.1 beta,Inf2.xlarge,8,2.20.0,100,5\n", rel=ENC)
    assert where(result) == [(ENC, 2, "Framework")]


def test_an_empty_required_instances_cell_in_training(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{TRAIN_HEAD}\nLlama,,2,TP=8 DP=8 PP=1,47.95,2.24.0\n",
                         rel="trn1/training_data_decoder.csv")
    assert where(result) == [("trn1/training_data_decoder.csv", 2, "Instance-Type")]


def test_unknown_instances_and_frameworks_are_located(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1,Inf9.xlarge,8,2.20.0,100,5\n"
                                   f"bert,Tensorflow 2.1,Inf2.xlarge,8,2.20.0,100,5\n", rel=ENC,
                         )
    assert where(result) == [(ENC, 2, "Inst. Type")]
    assert "unknown instance 'inf9.xlarge'" in result.problems[0].message
    assert "a price for" not in result.problems[0].message
    result = file_result(tmp_path, f"{HEAD}\nbert,Tensorflow 2.1,Inf2.xlarge,8,2.20.0,100,5\n", rel=ENC)
    assert result.errors == [] and result.inference_runs[0].framework == "tensorflow-neuronx"
    result = file_result(tmp_path, f"{HEAD}\nbert,Transformers NeuronX 1,Inf2.xlarge,8,2.20.0,100,5\n", rel=ENC)
    assert where(result) == [(ENC, 2, "Framework")]
    assert "unknown framework 'transformers-neuronx' (from 'Transformers NeuronX 1')" in result.problems[0].message


def test_an_unknown_instance_of_a_price_file_says_so(tmp_path: Path) -> None:
    rel = "inf2/inf2_instance_prices.csv"
    result = file_result(tmp_path, "Inst. Type,RI-Effective hourly rate\nInf9.xlarge,0.3\n", rel=rel)
    assert where(result) == [(rel, 2, "Inst. Type")]
    assert "(a price for an instance that is not there)" in result.problems[0].message


def test_unknown_instances_of_a_training_row_are_each_named(tmp_path: Path) -> None:
    rel = "trn1/training_data_decoder.csv"
    result = file_result(tmp_path, f"{TRAIN_HEAD}\nLlama,trn9.32xlarge/trn1n.32xlarge/trn8.2xlarge,2,"
                                   f"TP=8 DP=8 PP=1,47.95,2.24.0\n", rel=rel)
    assert where(result) == [(rel, 2, "Instance-Type")] * 2
    assert "'trn9.32xlarge'" in result.problems[0].message and "'trn8.2xlarge'" in result.problems[1].message


def test_a_bad_cell_is_located_and_the_rest_of_the_row_still_checked(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1,Inf9.xlarge,eight,2.20.0,fast,5\n", rel=ENC)
    assert where(result) == [(ENC, 2, "Inst. Type"), (ENC, 2, "Batch Size"), (ENC, 2, "Throughput (inference/second)")]
    assert "expected a whole number (got 'eight')" in result.problems[1].message


def test_cells_are_stripped_but_published_as_they_were(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\n{ROW}\nbert,PyTorch 2.1,Inf2.xlarge,16,2.20.0,100,5\n"
                                   f"bert, PyTorch 2.1 , Inf2.xlarge ,32,2.20.0,100,5\n", rel=ENC)
    run = result.inference_runs[2]
    assert run.framework == "torch-neuronx" and run.instance == "inf2.xlarge"
    assert run.published_text == {"Framework": " PyTorch 2.1 ", "Inst. Type": " Inf2.xlarge "}
    assert {p.column for p in result.warnings} == {"Framework", "Inst. Type"}


def test_an_empty_optional_cell_is_unset() -> None:
    layout = T._Layout("x.csv", "inf2", "t", "inference", ["Model", "Latency P50 (ms)", "Extra"],
                       {0: (C.RUN_COLUMNS["Model"], "model"),
                        1: (C.RUN_COLUMNS["Latency P50 (ms)"], "latency_p50_ms")}, {}, {"neuron_version": "2.1"})
    problems: list[Problem] = []
    values, published, verbatim = T._parse_row(layout, 2, ["bert", "  ", ""], set(), set(), problems)
    assert values == {"neuron_version": "2.1", "model": "bert"} and problems == []
    assert published == {"Model": "bert", "Latency P50 (ms)": "  "} and verbatim == {}
    values, _, verbatim = T._parse_row(layout, 2, ["bert", "5", "x"], set(), set(), problems)
    assert values["latency_p50_ms"] == "5" and verbatim == {"Extra": "x"}
    assert layout.defaulted == {"neuron_version": "2.1"}  # the layout's defaults are not changed


# Records ---------------------------------------------------------------------------------------


def test_a_runs_id_is_its_generation_model_and_a_digest_of_its_table_and_configuration(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD},Zed\n{ROW},1\n", rel=ENC, source="src")
    run = result.inference_runs[0]
    values = {"model": "bert", "framework": "torch-neuronx", "framework_name": "PyTorch", "framework_version": "2.1",
              "instance": "inf2.xlarge", "batch_size": "8", "neuron_version": "2.20.0",
              "throughput_inferences_per_s": "100", "latency_p50_ms": "5", "table": "inf2-throughput-data-encoder",
              "source": "src", "published_text": {"Zed": "1"}}
    key = config_key(values)
    digest = hashlib.sha256(f"inf2-throughput-data-encoder\0{key}".encode()).hexdigest()[:10]
    assert run.id == f"inf2-bert-{digest}"
    assert (run.table, run.source) == ("inf2-throughput-data-encoder", "src")
    assert result.lines == {run.id: 2}


def test_a_long_model_name_is_cut_at_fifty_and_stripped(tmp_path: Path) -> None:
    model = "m" * 49 + "-" + "tail"
    result = file_result(tmp_path, f"{HEAD}\n{model},PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5\n", rel=ENC)
    assert result.inference_runs[0].id.startswith("inf2-" + "m" * 49 + "-")
    assert len(result.inference_runs[0].id) == len("inf2-") + 49 + 1 + 10


def test_a_repeated_configuration_is_set_aside_saying_which_figures_differ(tmp_path: Path) -> None:
    text = f"{HEAD}\n{ROW}\nbert,PyTorch 2.1,Inf2.xlarge,16,2.20.0,1,1\n{ROW.replace(',100,5', ',120,5')}\n{ROW}\n"
    result = file_result(tmp_path, text, rel=ENC)
    assert where(result) == [(ENC, 4, ""), (ENC, 5, "")]
    assert "same configuration as the row on line 2" in result.problems[0].message
    assert "Throughput (inference/second) 120 against 100" in result.problems[0].message
    assert "Latency P50" not in result.problems[0].message
    assert ": the same figures;" in result.problems[1].message
    assert [r.batch_size for r in result.inference_runs] == [8, 16]


def test_a_repeated_configuration_names_a_figure_one_row_lacks(tmp_path: Path) -> None:
    text = f"{HEAD}\n{ROW}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,\n"
    result = file_result(tmp_path, text, rel=ENC)
    assert "Latency P50 (ms) none against 5" in result.problems[0].message
    text = f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,\n{ROW}\n"
    result = file_result(tmp_path, text, rel=ENC)
    assert "Latency P50 (ms) 5 against none" in result.problems[0].message


def test_rows_that_differ_in_a_verbatim_cell_are_two_configurations(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD},Zed\n{ROW},1\n{ROW},2\n", rel=ENC)
    assert len(result.inference_runs) == 2 and where(result) == [(ENC, 1, "Zed")]


def test_a_record_its_model_refuses_is_located_at_the_fields_column(tmp_path: Path) -> None:
    rel = "trn1/training_data_decoder.csv"
    result = file_result(tmp_path, f"{TRAIN_HEAD}\nLlama,trn1.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0\n"
                                   "Llama,trn1.32xlarge,4,TP=8 DP=16 PP=1,-1,2.24.0\n", rel=rel)
    assert [(p.line, p.column) for p in result.errors] == [(3, " Performance [seq/sec]")]
    assert len(result.training_runs) == 1
    no_throughput = file_result(tmp_path, "Model,Framework,Inst. Type,Batch Size,Neuron Version\n"
                                          "bert,PyTorch 2.1,Inf2.xlarge,8,2.20.0\n", rel=ENC)
    assert [(p.line, p.column) for p in no_throughput.errors] == [(2, "")]


def test_prices_take_their_basis_date_and_source_from_the_caller(tmp_path: Path) -> None:
    rel = "inf2/inf2_instance_prices.csv"
    result = file_result(tmp_path, f"{PRICES}Inf2.8xlarge,0.85\n", rel=rel, source="aws", as_of="2024-03-01",
                         region="us-east-1", term="1-year")
    price = result.prices[0]
    assert (price.id, price.basis, price.term, price.region, price.source, str(price.as_of), price.table) == (
        "inf2.xlarge-reserved-effective-2024-03-01", "reserved-effective", "1-year", "us-east-1", "aws",
        "2024-03-01", "inf2-inf2-instance-prices")
    assert [p.id for p in result.prices] == ["inf2.xlarge-reserved-effective-2024-03-01",
                                            "inf2.8xlarge-reserved-effective-2024-03-01"]
    assert result.lines == {result.prices[0].id: 2, result.prices[1].id: 3}
    undated = file_result(tmp_path, PRICES, rel=rel, as_of=None)
    assert [(p.line, p.column) for p in undated.errors] == [(2, "as_of")]
    assert undated.prices == []


def test_an_undated_price_row_has_an_undated_id_and_a_missing_instance() -> None:
    layout = T._Layout("p.csv", "inf2", "inf2-p", "prices", ["RI-Effective hourly rate"],
                       {0: (C.PRICE_COLUMNS["RI-Effective hourly rate"], "usd_per_hour")},
                       {"usd_per_hour": "RI-Effective hourly rate"}, {})
    problems: list[Problem] = []
    T._load_records(layout, [(2, {"usd_per_hour": "1"}, {}, {})], problems, source="s", as_of=None,
                    region=None, term=None)
    assert {p.column for p in problems} >= {"as_of"}
    assert all(p.line == 2 for p in problems)


def test_a_price_id_without_a_basis() -> None:
    layout = T._Layout("p.csv", "inf2", "inf2-p", "prices", ["Inst. Type"], {0: (C.PRICE_COLUMNS["Inst. Type"],
                                                                                 "instance")},
                       {"instance": "Inst. Type"}, {})
    problems: list[Problem] = []
    loaded = T._load_records(layout, [(2, {"instance": "inf2.xlarge", "usd_per_hour": "1", "basis": "x"}, {}, {})],
                             problems, source="s", as_of="2024-01-01", region=None, term=None)
    assert loaded == [] and [p.column for p in problems] == ["basis"]


def test_a_second_price_of_an_instance_is_set_aside(tmp_path: Path) -> None:
    rel = "inf2/inf2_instance_prices.csv"
    result = file_result(tmp_path, f"{PRICES}Inf2.8xlarge,0.85\ninf2.xlarge,0.4\n", rel=rel)
    assert where(result) == [(rel, 4, "Inst. Type")]
    assert "second price for 'inf2.xlarge' (first on line 2)" in result.problems[0].message
    assert [str(p.usd_per_hour) for p in result.prices] == ["0.328", "0.85"]


def test_spellings_are_the_tables_and_what_they_do_not_reproduce_is_published_text(tmp_path: Path) -> None:
    text = (f"{HEAD}\n{ROW}\nbert,PyTorch 2.1,Inf2.xlarge,16,2.20.0,100,5\n"
            f"bert,PyTorch 2.1,inf2.xlarge,32,2.20.0,100,5\n")
    result = file_result(tmp_path, text, rel=ENC)
    assert result.tables[0].spellings == {"Inst. Type": {"inf2.xlarge": "Inf2.xlarge"}}
    assert [r.published_text for r in result.inference_runs] == [{}, {}, {"Inst. Type": "inf2.xlarge"}]
    assert result.problems == []


def test_a_spelling_that_is_only_spaces_is_a_warning(tmp_path: Path) -> None:
    text = f"{HEAD}\nbert,PyTorch 2.1,inf2.xlarge ,8,2.20.0,100,5\nbert,PyTorch 2.1,inf2.xlarge ,16,2.20.0,100,5\n"
    result = file_result(tmp_path, text, rel=ENC)
    assert result.tables[0].spellings == {"Inst. Type": {"inf2.xlarge": "inf2.xlarge "}}
    assert [(p.line, p.column, p.severity) for p in result.problems] == [(None, "Inst. Type", "warning")]
    assert "surrounding spaces" in result.problems[0].message
    assert [r.published_text for r in result.inference_runs] == [{}, {}]


def test_published_text_adds_to_the_cells_kept_verbatim(tmp_path: Path) -> None:
    text = (f"{HEAD},Zed\n{ROW},1\nbert,PyTorch 2.1,Inf2.xlarge,16,2.20.0,100,5,2\n"
            f"bert,PyTorch 2.1,INF2.xlarge,32,2.20.0,100,5,3\n")
    result = file_result(tmp_path, text, rel=ENC)
    assert result.inference_runs[2].published_text == {"Zed": "3", "Inst. Type": "INF2.xlarge"}


def test_records_go_to_their_kind_and_implausible_ones_are_warned(tmp_path: Path) -> None:
    put(tmp_path, "inf2/inf2_instance_prices.csv", PRICES)
    put(tmp_path, "trn1/training_data_decoder.csv", f"{TRAIN_HEAD}\n{TRAIN_ROW.replace(',2,', ',4,')}\n")
    put(tmp_path, ENC, f"{HEAD},Latency P99 (ms)\n{ROW},4\n")
    result = run(tmp_path)
    assert len(result.inference_runs) == len(result.training_runs) == len(result.prices) == 1
    assert [(p.file, p.line, p.column, p.severity) for p in result.problems] == [
        (ENC, 2, "Latency P99 (ms)", "warning"),
        ("trn1/training_data_decoder.csv", 2, "Topology", "warning")]


def test_runs_without_a_price_of_their_generation_are_warned(tmp_path: Path) -> None:
    put(tmp_path, "inf2/inf2_instance_prices.csv", "Inst. Type,RI-Effective hourly rate\nInf2.8xlarge,0.85\n")
    put(tmp_path, ENC, f"{HEAD}\n{ROW}\n")
    result = run(tmp_path)
    assert [(p.file, p.line, p.severity) for p in result.problems] == [(ENC, None, "warning")]


def test_a_pickled_catalogue_of_known_ids_is_as_good_as_the_literals(tmp_path: Path) -> None:
    instances = pickle.loads(pickle.dumps(["".join(["inf2", ".xlarge"])]))
    result = one(tmp_path, f"{HEAD}\n{ROW}\n", instances=instances)
    assert result.errors == [] and len(result.inference_runs) == 1


def test_the_import_of_a_file_is_its_records_once(tmp_path: Path) -> None:
    path = put(tmp_path, ENC, f"{HEAD}\n{ROW}\n")
    first, second = run(path), run(path)
    assert [r.model_dump() for r in first.records] == [r.model_dump() for r in second.records]
    assert json.dumps([t.model_dump() for t in first.tables]) == json.dumps([t.model_dump() for t in second.tables])
    assert isinstance(first.inference_runs[0], s.PublishedInferenceRun)


def test_the_columns_after_an_unmodelled_or_a_second_column_of_a_field_are_mapped(tmp_path: Path) -> None:
    rel = "trn1/training_data_decoder.csv"
    result = file_result(tmp_path, "Model,Scaling Efficiency,Instance-Type,Nodes,Topology,Performance [seq/sec],"
                                   "Neuron Version\nLlama,97%,trn1.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0\n", rel=rel)
    assert result.errors == [] and result.training_runs[0].nodes == 2
    result = file_result(tmp_path, "Model,Framework,Inst. Type,Instance Type,Batch Size,Neuron Version,"
                                   "Throughput (inference/second)\nbert,PyTorch 2.1,Inf2.xlarge,x,8,2.20.0,100\n",
                         rel=ENC)
    assert where(result) == [(ENC, 1, "Instance Type")] and result.inference_runs[0].batch_size == 8


def test_a_problem_of_no_line_comes_before_the_header_s_whatever_its_column(tmp_path: Path) -> None:
    text = f"{HEAD},Alpha\nbert,PyTorch 2.1,inf2.xlarge ,8,2.20.0,100,5,1\n"
    result = one(tmp_path, text)
    assert [(p.line, p.column) for p in result.problems] == [(None, "Inst. Type"), (1, "Alpha")]


def test_a_model_name_of_fifty_characters_or_more_is_cut_at_fifty(tmp_path: Path) -> None:
    model = "a" * 60
    result = file_result(tmp_path, f"{HEAD}\n{model},PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5\n", rel=ENC)
    assert result.inference_runs[0].id.startswith("inf2-" + "a" * 50 + "-")


def test_column_tables_read_from_a_pickle_import_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The published columns as other objects than the code's literals (a table read from a file or a
    pickle): the import compares their kinds and fields by value."""
    put(tmp_path, ENC, f"{HEAD},Scaling Efficiency,Zed\n{ROW},9,1\nbert,PyTorch 2.1,Inf9.xlarge,16,2.20.0,1,1,,\n"
                       f"bert,Transformers NeuronX,Inf2.xlarge,32,2.20.0,1,1,,\nbert,PyTorch 2.1,Inf2.xlarge,64,2.20.0,1,1,,\n")
    put(tmp_path, "trn1/training_data_decoder.csv",
        f"{TRAIN_HEAD},Strong/Weak Scaling\n{TRAIN_ROW},strong scaling\n"
        "Llama,trn1.32xlarge/trn9.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0,weak scaling\n")
    put(tmp_path, "inf2/inf2_instance_prices.csv", f"{PRICES}Inf9.xlarge,1\n")

    def seen() -> tuple[list[str], list[dict[str, Any]], list[dict[str, Any]]]:
        result = run(tmp_path)
        return ([str(p) for p in result.problems], [r.model_dump() for r in result.records],
                [t.model_dump() for t in result.tables])

    expected = seen()
    assert len(expected[1]) == 4 and len(expected[0]) == 5
    for name in ("RUN_COLUMNS", "PRICE_COLUMNS", "REQUIRED", "ENUMS", "ENUM_TEXT", "TRAINING_MARKERS",
                 "CONTEXT_FIELDS"):
        monkeypatch.setattr(C, name, pickle.loads(pickle.dumps(getattr(C, name))))
    assert C.RUN_COLUMNS["Inst. Type"].kind == "instance"
    assert seen() == expected


def test_the_rows_after_one_its_model_refuses_still_load(tmp_path: Path) -> None:
    rel = "trn1/training_data_decoder.csv"
    result = file_result(tmp_path, f"{TRAIN_HEAD}\nLlama,trn1.32xlarge,4,TP=8 DP=16 PP=1,-1,2.24.0\n{TRAIN_ROW}\n",
                         rel=rel)
    assert [(p.line, p.column) for p in result.errors] == [(2, " Performance [seq/sec]")]
    assert [r.nodes for r in result.training_runs] == [2]


def built(text: str) -> str:
    """``text`` as another object than the code's literal (as a text read from a file or a pickle is)."""
    return "".join(list(text))


def test_a_layouts_kind_read_back_is_compared_by_value() -> None:
    header = ["Model", "Topology", "Inst. Type"]
    mapping = {0: (C.RUN_COLUMNS["Model"], "model"), 1: (C.RUN_COLUMNS["Topology"], "topology")}
    assert T._columns_of_fields(header, mapping, built("training"))["tp_degree"] == "Topology"
    assert T._columns_of_fields(header, mapping, built("inference"))["framework_name"] == ""
    layout = T._Layout("p.csv", "inf2", "t", built("prices"), header,
                       {2: (C.PRICE_COLUMNS["Inst. Type"], "instance")}, {}, {})
    problems: list[Problem] = []
    T._parse_row(layout, 2, ["", "", "Inf9.xlarge"], set(), set(), problems)
    assert [p.message for p in problems] == ["unknown instance 'inf9.xlarge'; expected an id of instances.yaml "
                                             "(a price for an instance that is not there)"]


def test_an_empty_required_cell_is_said_whatever_the_other_problems_of_its_row(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1,Inf9.xlarge,,2.20.0,100,5\n", rel=ENC)
    assert where(result) == [(ENC, 2, "Inst. Type"), (ENC, 2, "Batch Size")]


def test_a_spelling_longer_than_its_value_is_no_spacing_warning(tmp_path: Path) -> None:
    text = f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0 *,100,5\nbert,PyTorch 2.1,Inf2.xlarge,16,2.20.0 *,100,5\n"
    result = file_result(tmp_path, text, rel=ENC)
    assert result.tables[0].spellings["Neuron Version"] == {"2.20.0": "2.20.0 *"}
    assert result.problems == []


def test_equal_figures_of_two_rows_are_the_same_figures_however_written(tmp_path: Path) -> None:
    text = f"{HEAD}\n{ROW}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0, 100,5\n"
    result = file_result(tmp_path, text, rel=ENC)
    assert where(result) == [(ENC, 3, "")] and ": the same figures;" in result.problems[0].message


def test_an_unknown_column_of_a_training_file_is_matched_against_the_run_columns(tmp_path: Path) -> None:
    rel = "trn1/training_data_decoder.csv"
    result = file_result(tmp_path, f"{TRAIN_HEAD},Nodez\n{TRAIN_ROW},1\n", rel=rel)
    assert where(result) == [(rel, 1, "Nodez")] and "did you mean 'Nodes'?" in result.problems[0].message
    problems: list[Problem] = []
    T._map_columns("p.csv", ["Inst Type"], built("prices"), None, problems)
    assert "did you mean 'Inst. Type'?" in problems[0].message


def test_a_price_cell_its_tables_spelling_cannot_give_is_a_problem(tmp_path: Path) -> None:
    rel = "inf2/inf2_instance_prices.csv"
    result = file_result(tmp_path, "Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.85\nInf2.8xlarge,0.85\n"
                                   "Inf2.24xlarge, 0.85\n", rel=rel, instances=INSTANCES + ["inf2.24xlarge"])
    assert [(p.line, p.column) for p in result.errors] == [(4, "RI-Effective hourly rate")]
    assert result.errors[0].message == "published text cannot be reproduced"
    assert len(result.prices) == 3


def test_the_rows_after_a_row_with_a_problem_still_load(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,x,2.20.0,100,5\n{ROW}\n", rel=ENC)
    assert where(result) == [(ENC, 2, "Batch Size")] and len(result.inference_runs) == 1


def test_an_empty_required_cell_is_said_beside_a_problem_of_a_column_named_before_it(tmp_path: Path) -> None:
    result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1,,x,2.20.0,100,5\n", rel=ENC)
    assert where(result) == [(ENC, 2, "Batch Size"), (ENC, 2, "Inst. Type")]


def test_a_refused_item_of_a_list_is_located_at_the_lists_column(tmp_path: Path) -> None:
    rel = "trn1/training_data_decoder.csv"
    result = file_result(tmp_path, f"{TRAIN_HEAD}\nLlama,trn1.32xlarge/Bad_Id!,2,TP=8 DP=8 PP=1,47.95,2.24.0\n",
                         rel=rel, instances=[*INSTANCES, "bad_id!"])
    assert [(p.line, p.column) for p in result.errors] == [(2, "Instance-Type")]


def test_an_unknown_instance_of_a_training_file_is_no_price(tmp_path: Path) -> None:
    rel = "trn1/training_data_decoder.csv"
    result = file_result(tmp_path, f"{TRAIN_HEAD},Inst. Type\n{TRAIN_ROW},trn9.2xlarge\n", rel=rel)
    assert [p.message for p in result.errors] == ["unknown instance 'trn9.2xlarge'; expected an id of instances.yaml"]


def test_a_price_layout_read_back_loads_prices() -> None:
    layout = T._Layout("p.csv", "inf2", "inf2-p", built("prices"), ["Inst. Type", "RI-Effective hourly rate"],
                       {0: (C.PRICE_COLUMNS["Inst. Type"], "instance"),
                        1: (C.PRICE_COLUMNS["RI-Effective hourly rate"], "usd_per_hour")},
                       {"instance": "Inst. Type", "usd_per_hour": "RI-Effective hourly rate"}, {})
    problems: list[Problem] = []
    rows: list[T.ParsedRow] = [(2, {"instance": "inf2.xlarge", "usd_per_hour": "1"}, {}, {}),
                               (3, {"instance": "inf2.xlarge", "usd_per_hour": "2"}, {}, {})]
    loaded = T._load_records(layout, rows, problems, source="s", as_of="2024-01-01", region=None, term=None)
    assert [(line, r.id) for line, r, _ in loaded] == [(2, "inf2.xlarge-reserved-effective-2024-01-01")]
    assert [(p.line, p.column) for p in problems] == [(3, "Inst. Type")]


def test_a_row_shorter_than_the_header_is_passed_over_in_the_instance_column() -> None:
    header = ["Model", "Batch Size", "Inst. Type"]
    rows = [(2, ["bert", "8"]), (3, ["bert"]), (4, ["bert", "8", "Inf2.xlarge"])]
    assert T._identify("data.csv", header, rows, None, []) == ("inf2", "inf2-data", None, None)


def test_an_unknown_column_of_a_price_layout_read_back_is_matched_against_the_price_columns() -> None:
    problems: list[Problem] = []
    T._map_columns("p.csv", ["RI-Effective hourly rat"], built("prices"), None, problems)
    assert "did you mean 'RI-Effective hourly rate'?" in problems[0].message


def test_an_instance_column_of_a_generation_the_records_do_not_know_is_a_located_problem(tmp_path: Path) -> None:
    """Not a crash: the table's generation must be one of inf1, inf2, trn1 (``PublishedTable``), so a
    file outside a generation folder whose instance column names a trn2 (or c5) instance cannot be
    placed, and says so."""
    for instance in ("Trn2.48xlarge", "c5.xlarge"):
        result = file_result(tmp_path, f"{HEAD}\nbert,PyTorch 2.1,{instance},8,2.20.0,100,5\n{ROW}\n", rel="data.csv",
                             instances=[*INSTANCES, instance.lower()])
        assert where(result) == [("data.csv", None, "")] and "generation" in result.problems[0].message
        assert result.tables == [] and result.inference_runs == []
