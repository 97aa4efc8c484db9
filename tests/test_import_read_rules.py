"""Reading one published benchmark CSV (``benchmark_import/read.py``), on CSV text and records built
in the test: the line and field count of every record (quotes, blank lines, carriage returns), the
rows and the ragged ones, each kind of cell, a framework's id, a file's generation and table, the
default text of a field, spellings, the plausibility warnings and the price coverage. No data files,
no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from pydantic import ValidationError

from neuron_docs.benchmark_import import read as R
from neuron_docs.benchmark_import.read import ImportResult, Problem
from neuron_docs.data.records import published as s


def inference(**fields: Any) -> s.PublishedInferenceRun:
    values = {"id": "run-1", "table": "inf2-t", "model": "bert", "neuron_version": "2.20.0", "source": "src",
              "framework": "torch-neuronx", "framework_name": "PyTorch", "framework_version": "2.1",
              "instance": "inf2.xlarge", "batch_size": 8, "throughput_inferences_per_s": "100", **fields}
    return s.PublishedInferenceRun.model_validate(values)


def training(**fields: Any) -> s.PublishedTrainingRun:
    values = {"id": "run-t", "table": "trn1-t", "model": "Llama", "neuron_version": "2.24.0", "source": "src",
              "instances": ["trn1.32xlarge", "trn1n.32xlarge"], "nodes": 2, "topology": "TP=8 DP=8 PP=1",
              "tp_degree": 8, "dp_degree": 8, "pp_degree": 1, "throughput_sequences_per_s": "47.95", **fields}
    return s.PublishedTrainingRun.model_validate(values)


def price(instance: str, table: str = "inf2-p") -> s.InstancePrice:
    return s.InstancePrice.model_validate({"id": f"{instance}-p", "instance": instance, "usd_per_hour": "1",
                                           "basis": "on-demand", "source": "src", "as_of": "2024-01-01",
                                           "table": table})


def table(tid: str, generation: str, kind: str = "inference") -> s.PublishedTable:
    return s.PublishedTable.model_validate({"id": tid, "generation": generation, "kind": kind,
                                            "path": f"{generation}/{tid}.csv", "columns": ["Model"], "source": "src"})


# Problems and results --------------------------------------------------------------------------


def test_a_problem_says_where_and_how_bad() -> None:
    assert str(Problem("f.csv", 3, "Col", "bad")) == "f.csv:3: 'Col': error: bad"
    assert str(Problem("f.csv", None, "", "bad", "warning")) == "f.csv: warning: bad"
    assert str(Problem("f.csv", 0, "", "bad")) == "f.csv: error: bad"


def test_a_result_sorts_its_problems_by_severity_and_its_records_by_kind() -> None:
    result = ImportResult(problems=[Problem("a", 1, "", "e"), Problem("a", 2, "", "w", "warning")])
    assert [p.message for p in result.errors] == ["e"] and [p.message for p in result.warnings] == ["w"]
    run, train, cost = inference(), training(), price("inf2.xlarge", table="inf2-t")
    result = ImportResult(inference_runs=[run], training_runs=[train], prices=[cost])
    assert result.records == [run, train, cost]
    assert result.loaded("inf2-t") == [run, cost] and result.loaded("trn1-t") == [train]
    assert result.loaded("".join(["inf2", "-t"])) == [run, cost]


# Records and lines -----------------------------------------------------------------------------


def test_record_lines_are_quote_aware() -> None:
    text = 'a,b,c\n1,"x,\ny",3\n\n\n4,5\r\n"q""q",,\n'
    assert [(r.line, r.fields) for r in R._record_lines(text)] == [(1, 3), (2, 3), (6, 2), (7, 3)]


def test_a_last_record_without_a_newline_and_a_line_of_a_carriage_return() -> None:
    assert [(r.line, r.fields) for r in R._record_lines("a,b\r\n\r\n1,2")] == [(1, 2), (3, 2)]
    assert [(r.line, r.fields) for r in R._record_lines("a\n\n")] == [(1, 1)]
    assert [(r.line, r.fields) for r in R._record_lines("a\n,\n")] == [(1, 1), (2, 2)]
    assert [(r.line, r.fields) for r in R._record_lines('a\n""\n')] == [(1, 1), (2, 1)]
    assert R._record_lines("") == [] and R._record_lines("\r\n\n") == []


def test_read_table_gives_the_header_rows_and_ragged_rows() -> None:
    header, rows, problems = R.read_table("A,B,C\n1,2,3\n\n4,5\n6,7,8,9\n\"x\ny\",,NA\n", "f.csv")
    assert header == ["A", "B", "C"]
    assert rows == [(2, ["1", "2", "3"]), (6, ["x\ny", "", "NA"])]
    assert [(p.file, p.line, p.column) for p in problems] == [("f.csv", 4, ""), ("f.csv", 5, "")]
    assert "row has 2 fields; expected 3" in problems[0].message
    assert "row has 4 fields; expected 3" in problems[1].message


def test_read_table_of_nothing() -> None:
    assert R.read_table("\n\n", "f.csv") == ([], [], [Problem("f.csv", None, "", "file has no rows; expected a "
                                                                                "header row")])


def test_read_table_keeps_every_cell_as_text() -> None:
    header, rows, problems = R.read_table("N,nan,1\nNA,null,007\n", "f.csv")
    assert header == ["N", "nan", "1"] and rows == [(2, ["NA", "null", "007"])] and problems == []


# Cells -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "generation", "expected"), [
    ("PyTorch 1.13.1", "inf2", ("torch-neuronx", "PyTorch", "1.13.1")),
    (" PyTorch 1.13 ", "inf1", ("torch-neuron", "PyTorch", "1.13")),
    ("pytorch", "trn1", ("torch-neuronx", "pytorch", None)),
    ("Tensorflow 1.15.5", "inf1", ("tensorflow-neuron-tf1", "Tensorflow", "1.15.5")),
    ("Tensorflow 2.10", "inf1", ("tensorflow-neuron-tf2", "Tensorflow", "2.10")),
    ("Tensorflow", "inf1", ("tensorflow-neuron-tf2", "Tensorflow", None)),
    ("Tensorflow 1.15", "inf2", ("tensorflow-neuronx", "Tensorflow", "1.15")),
    ("Transformers NeuronX", "inf2", ("transformers-neuronx", "Transformers NeuronX", None)),
    ("Transformers Neuron 0.5", "inf2", ("transformers-neuronx", "Transformers Neuron", "0.5")),
    ("NeuronX Distributed", "trn1", ("neuronx-distributed", "NeuronX Distributed", None)),
    ("Neuron Distributed", "trn1", ("neuronx-distributed", "Neuron Distributed", None)),
])
def test_a_framework_cell(text: str, generation: str, expected: tuple[str, str, str | None]) -> None:
    assert R.resolve_framework(text, generation) == expected


@pytest.mark.parametrize("text", ["JAX 0.4", "PyTorch 1.x", "1.13 PyTorch", "", "PyTorch  1.13", "PyTorch 1.13-rc"])
def test_an_unknown_framework_cell(text: str) -> None:
    with pytest.raises(ValueError, match=repr(text).replace("(", r"\(").replace(".", r"\.")):
        R.resolve_framework(text, "inf2")


def test_the_default_published_text_of_a_field() -> None:
    run = inference(application_type="batch", tp_degree=2)
    assert R.render_cell("framework", "framework", run) == "PyTorch 2.1"
    assert R.render_cell("framework", "framework", inference(framework_version=None)) == "PyTorch"
    assert R.render_cell("enum", "application_type", run) == "Batch"
    assert R.render_cell("enum", "run_mode", run) == ""
    assert R.render_cell("count", "tp_degree", run) == "2"
    assert R.render_cell("instances", "instances", training()) == "trn1.32xlarge/trn1n.32xlarge"
    assert R.render_cell("text", "instance", run) == "inf2.xlarge"
    assert R.render_cell("framework", "framework", training()) == ""  # a training run has no framework name
    odd = run.model_copy(update={"application_type": "other"})
    assert R.render_cell("enum", "application_type", odd) == "other"


def test_a_slug() -> None:
    assert R.slug("BERT base (bert-base-uncased)") == "bert-base-bert-base-uncased"
    assert R.slug("..a__b--c..") == "a-b-c"
    assert R.slug("v1.2 / x") == "v1.2-x"
    assert R.slug("!!!") == "x" and R.slug("") == "x"


@pytest.mark.parametrize(("rel", "instances", "expected"), [
    ("inf2/latency_data_encoder.csv", (), ("inf2", "inf2-latency-data-encoder", "latency", "encoder")),
    ("INF2/throughput_data_vision_cnn.csv", (), ("inf2", "inf2-throughput-data-vision-cnn", "throughput", "vision_cnn")),
    ("trn1/training_data_decoder.csv", (), ("trn1", "trn1-training-data-decoder", None, "decoder")),
    ("inf1_data.csv", (), ("inf1", "inf1-inf1-data", None, None)),
    ("Trn1_prices.csv", (), ("trn1", "trn1-trn1-prices", None, None)),
    ("x/data.csv", (), (None, "unknown-data", None, None)),
    ("data.csv", ["", " Trn1n.32xlarge ", "inf2.xlarge"], ("trn1", "trn1-data", None, None)),
    ("data.csv", ["trn1"], (None, "unknown-data", None, None)),
    ("latency.csv", (), (None, "unknown-latency", None, None)),
    ("throughputs_data_x.csv", (), (None, "unknown-throughputs-data-x", None, None)),
    ("my_latency_data_x.csv", (), (None, "unknown-my-latency-data-x", None, None)),
    ("inf2/latency_data_.csv", (), ("inf2", "inf2-latency-data", "latency", None)),
])
def test_a_files_generation_table_view_and_category(rel: str, instances: Any, expected: tuple[Any, ...]) -> None:
    assert R.table_identity(rel, instances) == expected


def test_the_instance_column_is_read_lazily_up_to_the_first_generation() -> None:
    seen: list[str] = []

    def cells() -> Any:
        for text in ("inf2.xlarge", "trn1.2xlarge"):
            seen.append(text)
            yield text
    assert R.table_identity("data.csv", cells())[0] == "inf2" and seen == ["inf2.xlarge"]


@pytest.mark.parametrize(("text", "tail"), [("a\nb", 0), ("a\nb\n", 1), ("a\r\nb\r\n\r\n", 2), ("a\rb\r", 1),
                                            ("a\n\n\n", 3), ("", 0), ("a\r\n\r", 2)])
def test_the_line_ends_after_the_last_row(text: str, tail: int) -> None:
    assert R.tail_newlines(text) == tail


def test_each_kind_of_cell() -> None:
    assert R.parse_cell("framework", "framework", "PyTorch 2.1", "inf2") == {
        "framework": "torch-neuronx", "framework_name": "PyTorch", "framework_version": "2.1"}
    assert R.parse_cell("instance", "instance", "Inf2.XLarge", "inf2") == {"instance": "inf2.xlarge"}
    assert R.parse_cell("instances", "instances", "Trn1.32xlarge / trn1n.32xlarge", "trn1") == {
        "instances": ["trn1.32xlarge", "trn1n.32xlarge"]}
    assert R.parse_cell("enum", "run_mode", "Data Parallel", "inf2") == {"run_mode": "data-parallel"}
    assert R.parse_cell("topology", "topology", "TP=8 DP=4 PP=2", "trn1") == {
        "topology": "TP=8 DP=4 PP=2", "tp_degree": 8, "dp_degree": 4, "pp_degree": 2}
    assert R.parse_cell("version", "neuron_version", "2.13.0 **", "inf2") == {"neuron_version": "2.13.0"}
    assert R.parse_cell("version", "neuron_version", "2", "inf2") == {"neuron_version": "2"}
    assert R.parse_cell("figure", "latency_p50_ms", "0.75", "inf2") == {"latency_p50_ms": "0.75"}
    assert R.parse_cell("price", "usd_per_hour", "12", "inf2") == {"usd_per_hour": "12"}
    assert R.parse_cell("count", "batch_size", "007", "inf2") == {"batch_size": "007"}
    assert R.parse_cell("text", "model", "any thing", "inf2") == {"model": "any thing"}


@pytest.mark.parametrize(("kind", "fieldname", "text", "says"), [
    ("enum", "run_mode", "data parallel", "one of 'Data Parallel', 'Model Pipeline', 'Tensor Parallel' (got 'data parallel')"),
    ("version", "neuron_version", "2.13.0 beta", "a Neuron release such as 2.20 or 2.20.0 (got '2.13.0 beta')"),
    ("version", "neuron_version", "v2.13", "a Neuron release"),
    ("version", "neuron_version", "2.13.", "a Neuron release"),
    ("version", "neuron_version", "2.13.0*x", "a Neuron release"),
    ("figure", "latency_p50_ms", "1e3", "a number in plain decimal notation such as 12 or 0.75 (got '1e3')"),
    ("price", "usd_per_hour", "$1", "plain decimal"),
    ("count", "batch_size", "1.0", "a whole number (got '1.0')"),
    ("count", "batch_size", "8x", "a whole number"),
    ("count", "batch_size", "x8", "a whole number"),
    ("topology", "topology", "many", "topology"),
])
def test_a_bad_cell_says_what_was_expected(kind: str, fieldname: str, text: str, says: str) -> None:
    with pytest.raises(ValueError) as exc:
        R.parse_cell(kind, fieldname, text, "inf2")
    assert says.lower() in str(exc.value).lower()


def test_a_validation_error_in_words() -> None:
    assert R.error_message({"type": "missing", "loc": ("as_of",), "msg": "Field required"}) == (
        "as_of is missing; expected a value (prices need their as-of date and basis)")
    assert R.error_message({"type": "value_error", "loc": (), "msg": "Value error, too big", "input": 5}) == (
        "expected too big (got 5)")
    assert R.error_message({"type": "x", "loc": (), "msg": "Value error, bad", "input": {"a": 1}}) == "expected bad"
    assert R.error_message({"type": "x", "loc": (), "msg": "bad", "input": [1]}) == "expected bad"
    assert R.error_message({"type": "x", "loc": (), "msg": "bad", "input": None}) == "expected bad"
    assert R.error_message({"type": "x", "loc": (), "msg": "bad"}) == "expected bad"
    assert R.error_message({"type": "x", "loc": (), "msg": "bad", "input": "t"}) == "expected bad (got 't')"
    assert R.error_message({"type": "x", "loc": (), "msg": "bad", "input": 0}) == "expected bad (got 0)"


def test_a_configuration_key_leaves_out_the_figures_and_the_id() -> None:
    key = R.config_key({"id": "a", "model": "Ä", "latency_p50_ms": "5", "batch_size": 8, "throughput_tokens_per_s": 1,
                        "x": R})
    assert key.startswith('{"batch_size": 8, "model": "Ä", "x": ')
    assert "latency" not in key and "throughput" not in key and '"id"' not in key
    assert R.config_key({"b": 1, "a": 2}) == R.config_key({"a": 2, "b": 1}) == '{"a": 2, "b": 1}'


def test_spellings_are_the_most_common_published_text_first_seen_on_a_tie() -> None:
    runs = [inference(id=f"r{i}", batch_size=i + 1) for i in range(6)]
    kinds = {"Inst. Type": "instance", "Batch Size": "count", "Framework": "framework"}
    fields = {"Inst. Type": "instance", "Batch Size": "batch_size", "Framework": "framework"}
    texts = ["Inf2.xlarge", "INF2.xlarge", "Inf2.xlarge", "inf2.xlarge", "inf2.xlarge", "inf2.xlarge"]
    loaded = [(i + 2, r, {"Inst. Type": t, "Batch Size": str(r.batch_size), "Framework": "PyTorch 2.1"})
              for i, (r, t) in enumerate(zip(runs, texts, strict=True))]
    assert R.spellings_of(loaded, kinds, fields) == {}  # "inf2.xlarge" three times against two
    loaded[5][2]["Inst. Type"] = "Inf2.xlarge"
    assert R.spellings_of(loaded, kinds, fields) == {"Inst. Type": {"inf2.xlarge": "Inf2.xlarge"}}
    tie = [(2, runs[0], {"Inst. Type": "INF2.xlarge"}), (3, runs[1], {"Inst. Type": "Inf2.xlarge"})]
    assert R.spellings_of(tie, kinds, fields) == {"Inst. Type": {"inf2.xlarge": "INF2.xlarge"}}
    tie.reverse()
    assert R.spellings_of(tie, kinds, fields) == {"Inst. Type": {"inf2.xlarge": "Inf2.xlarge"}}


def test_spellings_are_per_column_and_canonical_value_sorted() -> None:
    a, b = inference(id="a"), inference(id="b", instance="inf2.8xlarge", framework_version="2.2")
    kinds = {"Z": "instance", "A": "framework"}
    fields = {"Z": "instance", "A": "framework"}
    loaded = [(2, b, {"Z": "Inf2.8xlarge", "A": "Pytorch 2.2"}), (3, a, {"Z": "Inf2.xlarge", "A": "PyTorch 2.1"})]
    out = R.spellings_of(loaded, kinds, fields)
    assert out == {"A": {"PyTorch 2.2": "Pytorch 2.2"},
                   "Z": {"inf2.8xlarge": "Inf2.8xlarge", "inf2.xlarge": "Inf2.xlarge"}}
    assert list(out) == ["A", "Z"] and list(out["Z"]) == ["inf2.8xlarge", "inf2.xlarge"]


# Plausibility ----------------------------------------------------------------------------------


def warnings_of(record: R.PublishedRecord, column_of: dict[str, str] | None = None) -> list[tuple[str, str]]:
    problems: list[Problem] = []
    R.warn_implausible(record, "f.csv", 4, column_of or {}, problems)
    assert all((p.file, p.line, p.severity) == ("f.csv", 4, "warning") for p in problems)
    return [(p.column, p.message) for p in problems]


def test_latency_percentiles_must_not_fall() -> None:
    assert warnings_of(inference(latency_p50_ms="5", latency_p90_ms="5", latency_p99_ms="6")) == []
    assert warnings_of(inference(latency_p50_ms="5", latency_p99_ms="4"), {"latency_p99_ms": "P99"}) == [
        ("P99", "latency_p99_ms 4 is below latency_p50_ms 5")]
    assert warnings_of(inference(latency_p50_ms="5", latency_p95_ms="7", latency_p100_ms="6")) == [
        ("latency_p100_ms", "latency_p100_ms 6 is below latency_p95_ms 7")]
    assert warnings_of(inference(latency_p90_ms="9", latency_p95_ms="8", latency_p99_ms="7")) == [
        ("latency_p95_ms", "latency_p95_ms 8 is below latency_p90_ms 9"),
        ("latency_p99_ms", "latency_p99_ms 7 is below latency_p95_ms 8")]
    assert warnings_of(inference(latency_p50_ms="9", latency_p90_ms="8")) == [
        ("latency_p90_ms", "latency_p90_ms 8 is below latency_p50_ms 9")]


@pytest.mark.parametrize(("low", "high"), [("ttft_p50_ms", "ttft_p99_ms"), ("tpot_p50_ms", "tpot_p99_ms"),
                                           ("latency_per_token_p50_ms", "latency_per_token_p99_ms")])
def test_a_p99_below_its_p50(low: str, high: str) -> None:
    assert warnings_of(inference(**{low: "5", high: "4"}), {high: "H"}) == [("H", f"{high} is below {low}")]
    assert warnings_of(inference(**{low: "5", high: "5"})) == []
    assert warnings_of(inference(**{low: "5"})) == warnings_of(inference(**{high: "5"})) == []


def test_a_trn1_32xlarge_topology_must_use_every_neuroncore() -> None:
    assert warnings_of(training()) == []  # 8 x 8 x 1 = 2 nodes x 32
    assert warnings_of(training(nodes=4), {"topology": "Topo"}) == [
        ("Topo", "TP x DP x PP = 64 NeuronCores, but 4 nodes x 32 = 128")]
    assert warnings_of(training(nodes=1, topology="TP=8 DP=2 PP=2", dp_degree=2, pp_degree=2)) == []
    assert warnings_of(training(nodes=1, topology="TP=8 DP=2 PP=1", dp_degree=2)) == [
        ("topology", "TP x DP x PP = 16 NeuronCores, but 1 nodes x 32 = 32")]
    assert warnings_of(training(instances=["trn1.32xlarge"], nodes=4)) != []
    assert warnings_of(training(instances=["trn1n.32xlarge"], nodes=4)) != []
    assert warnings_of(training(instances=["trn1.2xlarge"], nodes=4)) == []  # another instance: not checked
    assert warnings_of(training(instances=["trn1.32xlarge", "trn1.2xlarge"], nodes=4)) == []
    no_dp = training(topology="TP=8 PP=1", dp_degree=None)
    assert no_dp.dp_degree is None and warnings_of(no_dp) == []
    unpickled = pickle.loads(pickle.dumps(training(instances=["".join(["trn1", ".32xlarge"])], nodes=4)))
    assert warnings_of(unpickled) != []


def test_cells_with_surrounding_spaces_of_the_files_columns_are_warned() -> None:
    run = inference(published_text={"Model": " bert", "Power": " 75 ", "Task": "x"})
    assert warnings_of(run, {"model": "Model", "task": "Task"}) == [
        ("Model", "cell ' bert' has surrounding spaces; stored stripped, published text kept for export")]
    assert warnings_of(inference(published_text={"Model": "bert\t"}), {"model": "Model"}) != []


def test_a_data_type_in_literal_quotes_is_warned() -> None:
    assert warnings_of(inference(model_data_type='"FP32"'), {"model_data_type": "DT"}) == [
        ("DT", "value '\"FP32\"' holds literal double quotes")]
    assert warnings_of(inference(model_data_type='"FP32')) == warnings_of(inference(model_data_type='FP32"')) == []
    assert warnings_of(training(model_data_type='"FP32"')) == [
        ("model_data_type", "value '\"FP32\"' holds literal double quotes")]
    assert warnings_of(price("inf2.xlarge")) == []


# Prices cover the runs -------------------------------------------------------------------------


def test_a_run_without_a_price_of_its_generation_is_warned() -> None:
    result = ImportResult(
        tables=[table("inf2-t", "inf2"), table("inf2-p", "inf2", "prices"), table("trn1-t", "trn1", "training"),
                table("inf1-t", "inf1")],
        prices=[price("inf2.xlarge"), price("inf2.48xlarge")],
        inference_runs=[inference(), inference(id="r2", instance="inf2.8xlarge"),
                        inference(id="r3", table="inf1-t", instance="inf1.xlarge")],
        training_runs=[training()])
    R.check_prices_cover_runs(result)
    assert [(p.file, p.line, p.column, p.severity) for p in result.problems] == [
        ("inf2/inf2-t.csv", None, "", "warning")]
    assert result.problems[0].message == ("run r2: no price for inf2.8xlarge in the inf2 price file; its cost "
                                          "cannot be shown")


def test_a_training_run_is_priced_by_any_of_its_instances() -> None:
    tables = [table("trn1-t", "trn1", "training"), table("trn1-p", "trn1", "prices")]
    covered = ImportResult(tables=tables, prices=[price("trn1n.32xlarge", "trn1-p")], training_runs=[training()])
    R.check_prices_cover_runs(covered)
    assert covered.problems == []
    bare = ImportResult(tables=tables, prices=[price("trn1.2xlarge", "trn1-p")], training_runs=[training()])
    R.check_prices_cover_runs(bare)
    assert [p.message for p in bare.problems] == [
        "run run-t: no price for trn1.32xlarge/trn1n.32xlarge in the trn1 price file; its cost cannot be shown"]


def built(text: str) -> str:
    """``text`` as another object than the code's literal (as a text read from a file or a pickle is)."""
    return "".join(list(text))


def test_kinds_and_generations_read_from_a_file_are_compared_by_value() -> None:
    assert R.resolve_framework("PyTorch 1.13", built("inf1"))[0] == "torch-neuron"
    assert R.resolve_framework("Tensorflow 1.15", built("inf1"))[0] == "tensorflow-neuron-tf1"
    assert R.resolve_framework("Tensorflow 2.5", built("inf1"))[0] == "tensorflow-neuron-tf2"
    run = inference(application_type="batch")
    assert R.render_cell(built("framework"), "framework", run) == "PyTorch 2.1"
    assert R.render_cell(built("instances"), "instances", training()) == "trn1.32xlarge/trn1n.32xlarge"
    assert R.render_cell(built("enum"), built("application_type"), run) == "Batch"
    assert R.parse_cell(built("framework"), "framework", "PyTorch 2.1", "inf2")["framework"] == "torch-neuronx"
    assert R.parse_cell(built("instance"), "instance", "Inf2.xlarge", "inf2") == {"instance": "inf2.xlarge"}
    assert R.parse_cell(built("instances"), "instances", "a/B", "inf2") == {"instances": ["a", "b"]}
    assert R.parse_cell(built("enum"), built("run_mode"), "Data Parallel", "inf2") == {"run_mode": "data-parallel"}
    assert R.parse_cell(built("topology"), "topology", "TP=8 PP=1", "trn1")["tp_degree"] == 8
    assert R.parse_cell(built("version"), "neuron_version", "2.1 *", "inf2") == {"neuron_version": "2.1"}
    with pytest.raises(ValueError, match="whole number"):
        R.parse_cell(built("count"), "batch_size", "1.5", "inf2")
    with pytest.raises(ValueError, match="plain decimal"):
        R.parse_cell(built("figure"), "latency_p50_ms", "1e3", "inf2")


def test_a_validation_error_of_pydantic_in_words() -> None:
    with pytest.raises(ValidationError) as exc:
        s.InstancePrice.model_validate({"id": "x", "instance": "inf2.xlarge", "usd_per_hour": "-1",
                                        "basis": "on-demand", "source": "src"})
    messages = sorted(R.error_message(err) for err in exc.value.errors())
    assert messages[0] == "as_of is missing; expected a value (prices need their as-of date and basis)"
    assert messages[1].startswith("expected ") and messages[1].endswith("(got '-1')")
    errors = pickle.loads(pickle.dumps([{**e, "type": built(e["type"])} for e in exc.value.errors()]))
    assert sorted(R.error_message(err) for err in errors) == messages


def test_a_generation_of_a_folder_read_from_a_path() -> None:
    assert R.table_identity(built("inf1/latency_data_encoder.csv"))[0] == "inf1"


def test_the_width_is_the_headers_and_a_ragged_first_or_last_row_is_named() -> None:
    header, rows, problems = R.read_table("A,B\n1\n2,3\n4,5,6\n", "f.csv")
    assert header == ["A", "B"] and rows == [(3, ["2", "3"])]
    assert [(p.line, p.message.split(";")[0]) for p in problems] == [(2, "row has 1 fields"), (4, "row has 3 fields")]


def test_severities_read_back_are_compared_by_value() -> None:
    result = ImportResult(problems=[Problem("a", 1, "", "e", built("error")), Problem("a", 2, "", "w", built("warning"))])
    assert [p.message for p in result.errors] == ["e"] and [p.message for p in result.warnings] == ["w"]


def test_a_run_of_an_unpriced_generation_does_not_end_the_price_check() -> None:
    result = ImportResult(tables=[table("inf1-t", "inf1"), table("inf2-t", "inf2"), table("inf2-p", "inf2", "prices")],
                          prices=[price("inf2.xlarge")],
                          inference_runs=[inference(id="r1", table="inf1-t", instance="inf1.xlarge"),
                                          inference(id="r2", instance="inf2.8xlarge")])
    R.check_prices_cover_runs(result)
    assert [p.message.split(":")[0] for p in result.problems] == ["run r2"]


def test_an_instance_of_another_generation_names_none() -> None:
    assert R.table_identity("data.csv", ["trn2.48xlarge", "inf2.xlarge"])[0] is None
    assert R.table_identity("data.csv", ["c5.xlarge"])[:2] == (None, "unknown-data")
    assert R.table_identity("data.csv", ["x", "trn1.2xlarge", "c5.xlarge"])[0] == "trn1"


def test_problems_order_by_file_line_column_and_message() -> None:
    problems = [Problem("b", 1, "", "x"), Problem("a", 2, "", "x"), Problem("a", 1, "z", "x"), Problem("a", 1, "b", "y"),
                Problem("a", 1, "b", "x")]
    assert sorted(problems) == [Problem("a", 1, "b", "x"), Problem("a", 1, "b", "y"), Problem("a", 1, "z", "x"),
                                Problem("a", 2, "", "x"), Problem("b", 1, "", "x")]
    assert len({Problem("a", 1, "", "x"), Problem("a", 1, "", "x")}) == 1  # frozen: hashable, equal by value


def test_a_file_of_many_columns_has_no_ragged_row() -> None:
    width = 300  # beyond CPython's small ints: field counts compared by value
    header, rows, problems = R.read_table(",".join(f"c{i}" for i in range(width)) + "\n" + ",".join("1" * width) + "\n",
                                          "f.csv")
    assert len(header) == width and problems == [] and rows == [(2, ["1"] * width)]


def test_a_p99_above_its_p50_is_no_warning() -> None:
    for low, high in (("ttft_p50_ms", "ttft_p99_ms"), ("tpot_p50_ms", "tpot_p99_ms"),
                      ("latency_per_token_p50_ms", "latency_per_token_p99_ms")):
        assert warnings_of(inference(**{low: "4", high: "5"})) == []


def test_a_topology_using_more_neuroncores_than_the_nodes_have_is_warned() -> None:
    assert warnings_of(training(nodes=1)) == [("topology", "TP x DP x PP = 64 NeuronCores, but 1 nodes x 32 = 32")]


def test_a_topology_of_many_nodes_using_every_neuroncore_is_no_warning() -> None:
    # 16 nodes x 32 = 512 NeuronCores: beyond CPython's small ints, compared by value
    assert warnings_of(training(nodes=16, topology="TP=8 DP=64 PP=1", dp_degree=64)) == []


def test_a_tab_is_a_character_of_its_record_not_a_line_end() -> None:
    assert [(r.line, r.fields) for r in R._record_lines("a\tb,c\n1\t,2\n")] == [(1, 2), (2, 2)]
    assert [(r.line, r.fields) for r in R._record_lines("a\n\t\n")] == [(1, 1), (2, 1)]


def test_a_file_of_many_rows_is_read_whole() -> None:
    count = 300  # beyond CPython's small ints: record counts compared by value
    header, rows, problems = R.read_table("A,B\n" + "".join(f"{i},x\n" for i in range(count)), "f.csv")
    assert problems == [] and len(rows) == count and rows[-1] == (count + 1, [str(count - 1), "x"])


def test_a_tab_inside_quotes_is_no_line_end_either() -> None:
    assert [(r.line, r.fields) for r in R._record_lines('a\n"x\ty"\n2\n')] == [(1, 1), (2, 1), (3, 1)]
