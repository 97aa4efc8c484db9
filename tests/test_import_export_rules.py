"""Writing what an import read (``benchmark_import/export.py``), on small published CSV files and
layouts written in the test: a record as YAML values, the layouts and prices merged into a data
directory built in the test (the tables imported replace theirs, the others stay, by published path;
hand-typed prices and comments kept; a file rewritten only when its text changes), the text of
``tables.yaml``, the latest state's layouts, and the records written back as the published CSV byte
for byte. No repository data, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``)."""

from __future__ import annotations

import datetime as dt
import pickle
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from neuron_docs.benchmark_import import export as E
from neuron_docs.benchmark_import import tables as T
from neuron_docs.benchmark_import.read import PAGES, ImportResult
from neuron_docs.data.records import published as s
from helpers.import_files import ENC, HEAD, INSTANCES, put

FRAMEWORKS = ["torch-neuronx", "torch-neuron"]
LAT = "inf2/latency_data_encoder.csv"
PRICES = "inf2/inf2_instance_prices.csv"
PRICES_TEXT = "Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.328\nInf2.8xlarge,0.9\n"


def imported(root: Path, files: dict[str, str | bytes]) -> ImportResult:
    """What importing ``files`` (published path -> text) reads."""
    for rel, text in files.items():
        put(root, rel, text)
    result = T.import_published(root, INSTANCES, FRAMEWORKS, source="src", as_of="2024-01-01")
    assert result.errors == [], [str(p) for p in result.errors]
    return result


def table(**fields: Any) -> s.PublishedTable:
    values = {"id": "inf2-throughput-data-encoder", "generation": "inf2", "kind": "inference", "view": "throughput",
              "category": "encoder", "path": ENC, "columns": HEAD.split(","), "source": "src", **fields}
    return s.PublishedTable.model_validate(values)


def inference(**fields: Any) -> s.PublishedInferenceRun:
    values = {"id": "run-1", "table": "inf2-throughput-data-encoder", "model": "bert", "neuron_version": "2.20.0",
              "source": "src", "framework": "torch-neuronx", "framework_name": "PyTorch", "framework_version": "2.1",
              "instance": "inf2.xlarge", "batch_size": 8, "throughput_inferences_per_s": "100",
              "latency_p50_ms": "5", **fields}
    return s.PublishedInferenceRun.model_validate(values)


def price(**fields: Any) -> s.InstancePrice:
    values = {"id": "p-1", "instance": "inf2.xlarge", "usd_per_hour": "0.328", "basis": "reserved-effective",
              "source": "src", "as_of": "2024-01-01", "table": "inf2-inf2-instance-prices", **fields}
    return s.InstancePrice.model_validate(values)


def tables_yaml(data: Path, tables: list[dict[str, Any]]) -> None:
    put(data, E.TABLES_FILE, yaml.safe_dump({"published_tables": tables}, sort_keys=False))


def listed(text: str, key: str) -> list[dict[str, Any]]:
    document = yaml.safe_load(text)
    assert isinstance(document, dict)
    items = document[key]
    assert isinstance(items, list)
    return items


# A record as YAML values -----------------------------------------------------------------------


def test_a_record_is_its_set_fields_in_field_order_with_figures_as_their_text() -> None:
    run = inference(published_text={}, throughput_inferences_per_s="100.50")
    plain = E._plain(run)
    assert plain == {"id": "run-1", "table": "inf2-throughput-data-encoder", "model": "bert",
                     "neuron_version": "2.20.0", "source": "src", "framework": "torch-neuronx",
                     "framework_name": "PyTorch", "framework_version": "2.1", "instance": "inf2.xlarge",
                     "batch_size": 8, "throughput_inferences_per_s": "100.50", "latency_p50_ms": "5"}
    assert list(plain) == [n for n in type(run).model_fields if n in plain]  # the model's order
    assert isinstance(plain["throughput_inferences_per_s"], str)  # the figure as published, not a float
    assert isinstance(plain["batch_size"], int)  # a count stays a number


def test_a_zero_and_set_lists_and_mappings_are_kept_unset_fields_left_out() -> None:
    run = s.PublishedTrainingRun.model_validate({
        "id": "t", "table": "trn1-training-data-decoder", "model": "Llama", "neuron_version": "2.24.0",
        "source": "src", "instances": ["trn1.32xlarge"], "nodes": 2, "topology": "TP=8 DP=8 PP=1 ZeRO-0",
        "tp_degree": 8, "dp_degree": 8, "pp_degree": 1, "zero_stage": 0, "throughput_sequences_per_s": "47.95",
        "published_text": {"Nodes": "2 "}})
    plain = E._plain(run)
    assert plain["zero_stage"] == 0  # falsy, but set
    assert plain["instances"] == ["trn1.32xlarge"] and plain["published_text"] == {"Nodes": "2 "}
    assert "scaling" not in plain and "optimizer" not in plain
    assert E._plain(price(as_of=dt.date(2024, 1, 1)))["as_of"] == dt.date(2024, 1, 1)
    layout = E._plain(table(spellings={}, columns=["Model"]))
    assert "spellings" not in layout and layout["columns"] == ["Model"] and layout["tail_newlines"] == 1
    # an empty list is unset too (a published model of no aliases)
    model = s.PublishedModel.model_validate({"id": "bert", "name": "BERT", "family": "encoder", "aliases": []})
    assert E._plain(model) == {"id": "bert", "name": "BERT", "family": "encoder"}


# Reading a list of the data directory ---------------------------------------------------------


def test_a_list_is_read_from_its_key_only_as_mappings(tmp_path: Path) -> None:
    assert E._read_list(tmp_path / "none.yaml", "prices") == []
    (tmp_path / "folder.yaml").mkdir()
    assert E._read_list(tmp_path / "folder.yaml", "prices") == []
    put(tmp_path, "empty.yaml", "")
    assert E._read_list(tmp_path / "empty.yaml", "prices") == []
    put(tmp_path, "list.yaml", "- {id: a}\n")
    assert E._read_list(tmp_path / "list.yaml", "prices") == []
    put(tmp_path, "other.yaml", "other: [{id: a}]\n")
    assert E._read_list(tmp_path / "other.yaml", "prices") == []
    put(tmp_path, "null.yaml", "prices:\n")
    assert E._read_list(tmp_path / "null.yaml", "prices") == []
    put(tmp_path, "p.yaml", "prices:\n- {id: a}\n- just text\n- [1]\n- {id: b}\n")
    assert E._read_list(tmp_path / "p.yaml", "prices") == [{"id": "a"}, {"id": "b"}]


# Merging ---------------------------------------------------------------------------------------


def test_merge_drops_the_replaced_tables_rows_and_orders_by_table_then_row() -> None:
    old = [{"id": "a1", "table": "a"}, {"id": "hand"}, {"id": "b1", "table": "b"}, {"id": "a2", "table": "a"},
           {"id": "c1", "table": "c"}]
    new = [{"id": "b2", "table": "b"}, {"id": "b3", "table": "b"}]
    merged = E._merge(old, new, {"b"}, {"a": 0, "b": 1, "c": 2})
    # a row of no known table (typed by hand) first, then the tables in order, each row in its order
    assert [r["id"] for r in merged] == ["hand", "a1", "a2", "b2", "b3", "c1"]
    assert [r["id"] for r in E._merge(old, [], set(), {"c": 0, "a": 1, "b": 2})] == ["hand", "c1", "a1", "a2", "b1"]
    # a row of a table not in the order goes with the rows of no table, in its place
    assert [r["id"] for r in E._merge([{"id": "x", "table": "gone"}, {"id": "h"}], [{"id": "n", "table": "a"}],
                                      set(), {"a": 0})] == ["x", "h", "n"]


def test_merge_puts_a_table_at_order_zero_after_the_rows_of_no_table() -> None:
    old = [{"id": "a1", "table": "a"}, {"id": "hand"}, {"id": "b1", "table": "b"}]
    assert [r["id"] for r in E._merge(old, [], set(), {"a": 0, "b": 1})] == ["hand", "a1", "b1"]
    assert [r["id"] for r in E._merge(old, [], set(), {"a": 1, "b": 0})] == ["hand", "b1", "a1"]


ROWS = st.lists(st.fixed_dictionaries({"id": st.integers(0, 99), "table": st.sampled_from(["a", "b", "c", "d"])}),
                max_size=8)


@settings(max_examples=25, deadline=None)
@given(ROWS, ROWS, st.sets(st.sampled_from(["a", "b", "c", "d"])),
       st.permutations(["a", "b", "c"]))
def test_merge_keeps_every_row_it_should_in_table_order_and_stable(old: list[dict[str, Any]], new: list[dict[str, Any]],
                                                                   replaced: set[str], tables: list[str]) -> None:
    order = {t: i for i, t in enumerate(tables)}  # "d" is in no order
    merged = E._merge(old, new, replaced, order)
    expected = [r for r in old if r["table"] not in replaced] + new
    assert sorted(map(id, merged)) == sorted(map(id, expected))  # the same row objects, none twice
    keys = [order.get(r["table"], -1) for r in merged]
    assert keys == sorted(keys)
    for t in "abcd":  # within a table, the rows in the order given (old before new)
        assert [id(r) for r in merged if r["table"] == t] == [id(r) for r in expected if r["table"] == t]


# Layouts and prices into the data directory ----------------------------------------------------


def test_the_tables_imported_replace_theirs_the_others_stay_sorted_by_path(tmp_path: Path) -> None:
    data = tmp_path / "data"
    other = E._plain(table(id="trn1-training-data-decoder", generation="trn1", kind="training", view=None,
                           category="decoder", path="trn1/training_data_decoder.csv", columns=["Model"]))
    tables_yaml(data, [{**E._plain(table(columns=["Model", "Old"])), "page": "old.rst"}, other,
                       {"id": "inf1-x", "path": "inf1/x.csv", "kind": "inference"}])
    result = imported(tmp_path / "src", {ENC: f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5\n"})
    tables = E._tables(data, result.tables)
    assert [t["path"] for t in tables] == ["inf1/x.csv", ENC, "trn1/training_data_decoder.csv"]
    [enc] = [t for t in tables if t["path"] == ENC]
    assert enc["columns"] == HEAD.split(",") and enc["page"] == PAGES[ENC]  # the new layout, not the old one
    assert other in tables
    # keep: only the tables holding a row (by id), and every price table
    prices = {"id": "p", "path": "a/p.csv", "kind": "prices"}
    tables_yaml(data, [other, prices, {"id": "inf1-x", "path": "inf1/x.csv", "kind": "inference"}])
    kept = E._tables(data, result.tables, {"inf1-x"})
    assert [t["id"] for t in kept] == ["p", "inf1-x"]
    assert [t["id"] for t in E._tables(data, result.tables, set())] == ["p"]
    assert [t["id"] for t in E._tables(data, result.tables, None)] == ["p", "inf1-x", enc["id"], other["id"]]


def test_a_tables_own_page_is_kept_and_a_missing_one_comes_from_its_path(tmp_path: Path) -> None:
    read = [table(page="mine.rst"), table(id="inf2-latency-data-encoder", view="latency", path=LAT),
            table(id="inf2-x", path="inf2/x.csv")]
    tables = E._tables(tmp_path, read)
    assert {t["path"]: t.get("page") for t in tables} == {ENC: "mine.rst", LAT: PAGES[LAT], "inf2/x.csv": None}


def test_the_files_written_hold_the_layouts_and_the_merged_prices(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = imported(tmp_path / "src", {ENC: f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5\n",
                                         PRICES: PRICES_TEXT})
    assert E.WRITTEN_FILES == (E.TABLES_FILE, E.PRICES_FILE)
    written = E.write_data(result, data)
    assert sorted(written) == sorted(data / name for name in E.WRITTEN_FILES)
    tables = listed((data / E.TABLES_FILE).read_text(encoding="utf-8"), "published_tables")
    assert [t["path"] for t in tables] == [PRICES, ENC]
    prices_text = (data / E.PRICES_FILE).read_text(encoding="utf-8")
    assert prices_text.startswith(E._PRICES_HEADER)
    prices = listed(prices_text, "prices")
    assert [(p["instance"], p["usd_per_hour"]) for p in prices] == [("inf2.xlarge", "0.328"), ("inf2.8xlarge", "0.9")]
    assert E.write_data(result, data) == []  # the same import again changes nothing
    assert E.write_data(result, str(data)) == []  # a data directory given as text


def test_prices_typed_by_hand_and_their_comments_stay_and_the_tables_prices_are_replaced(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = imported(tmp_path / "src", {PRICES: PRICES_TEXT})
    put(data, E.PRICES_FILE, "# my comment\nprices:\n"
                             "  - {id: old, instance: inf2.xlarge, usd_per_hour: '9', basis: on-demand, source: src,"
                             " as_of: 2023-01-01, table: inf2-inf2-instance-prices}\n"
                             "  # hand-typed\n"
                             "  - {id: hand, instance: inf1.xlarge, usd_per_hour: '0.2', basis: on-demand,"
                             " source: src, as_of: 2023-01-01}\n"
                             "  - {id: other, instance: trn1.2xlarge, usd_per_hour: '1', basis: on-demand,"
                             " source: src, as_of: 2023-01-01, table: trn1-prices}\n")
    tables_yaml(data, [{"id": "trn1-prices", "path": "trn1/trn1_instance_prices.csv", "kind": "prices"}])
    texts = E.data_texts(result, data)
    assert set(texts) == {E.TABLES_FILE, E.PRICES_FILE}
    assert "# my comment" in texts[E.PRICES_FILE] and "# hand-typed" in texts[E.PRICES_FILE]
    prices = listed(texts[E.PRICES_FILE], "prices")
    # the hand price (no table) first, then by the tables' order (their paths: inf2/ before trn1/)
    assert [p["id"] for p in prices] == ["hand", *[p.id for p in result.prices], "other"]
    assert not (data / E.TABLES_FILE).read_text(encoding="utf-8").startswith(E._TABLES_HEADER)  # nothing written
    assert texts[E.TABLES_FILE].startswith(E._TABLES_HEADER)


def test_a_price_table_read_again_keeps_its_order_among_the_prices(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = imported(tmp_path / "src", {PRICES: PRICES_TEXT})
    tables_yaml(data, [{"id": "aa-prices", "path": "aa/p.csv", "kind": "prices"},
                       {"id": "zz-prices", "path": "zz/p.csv", "kind": "prices"}])
    put(data, E.PRICES_FILE, "prices:\n"
                             "  - {id: z, instance: trn1.2xlarge, usd_per_hour: '1', basis: on-demand, source: src,"
                             " as_of: 2023-01-01, table: zz-prices}\n"
                             "  - {id: a, instance: trn1.2xlarge, usd_per_hour: '1', basis: on-demand, source: src,"
                             " as_of: 2023-01-01, table: aa-prices}\n")
    prices = listed(E.data_texts(result, data)[E.PRICES_FILE], "prices")
    # the file's order of the prices it keeps is its own; the new ones go after the table before theirs
    assert [p["id"] for p in prices] == ["z", "a", *[p.id for p in result.prices]]


def test_keep_leaves_out_the_tables_holding_no_row(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = imported(tmp_path / "src", {ENC: f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5\n",
                                         LAT: f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,1,2.20.0,10,5\n",
                                         PRICES: PRICES_TEXT})
    enc = next(t.id for t in result.tables if t.path == ENC)
    texts = E.data_texts(result, data, {enc})
    assert [t["path"] for t in listed(texts[E.TABLES_FILE], "published_tables")] == [PRICES, ENC]
    E.write_data(result, data, {enc})
    assert [t["path"] for t in listed((data / E.TABLES_FILE).read_text(encoding="utf-8"), "published_tables")] \
        == [PRICES, ENC]


# The text of tables.yaml -------------------------------------------------------------------------


def test_tables_text_is_the_header_then_block_yaml_in_the_order_given() -> None:
    shared = ["Model", "Größe"]
    tables: list[dict[str, Any]] = [{"id": "z", "path": "z.csv", "columns": shared, "spellings": {"Model": {"b": "B", "a": "A"}}},
              {"id": "a", "path": "a.csv", "columns": shared}]
    text = E.tables_text(tables)
    assert text.startswith(E._TABLES_HEADER + "published_tables:\n- id: z\n  path: z.csv\n")
    body = text.removeprefix(E._TABLES_HEADER)
    assert yaml.safe_load(body) == {"published_tables": tables}
    assert "&" not in body and "*" not in body  # one list used twice is written twice, no alias
    assert "Größe" in body  # as written, not escaped
    assert "{" not in body and "[" not in body  # block style
    assert body.index("b: B") < body.index("a: A")  # keys in their order, not sorted
    assert E.tables_text([]) == E._TABLES_HEADER + "published_tables: []\n"


def test_tables_text_folds_long_texts_at_120_columns() -> None:
    fits, folds = "x" * 112 + " y", "x" * 113 + " y"
    text = E.tables_text([{"id": "a", "page": fits}, {"id": "b", "page": folds}])
    assert f"  page: {fits}\n" in text  # 122 columns with its key, kept on one line at width 120
    assert f"  page: {folds}\n" not in text  # 123: folded
    assert [t["page"] for t in listed(text.removeprefix(E._TABLES_HEADER), "published_tables")] == [fits, folds]


TEXT = st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=12)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.fixed_dictionaries({"id": TEXT, "columns": st.lists(TEXT, min_size=1, max_size=3)}), max_size=3))
def test_tables_text_reads_back_as_the_tables_for_any_text(tables: list[dict[str, Any]]) -> None:
    text = E.tables_text(tables)
    assert text.startswith(E._TABLES_HEADER)
    assert yaml.safe_load(text) == {"published_tables": tables}


def test_the_latest_states_layouts_are_at_their_path_inside_the_state() -> None:
    prefix = "2024-01-01-abc/"
    tables = [table(id="lat", view="latency", path=prefix + LAT), table(id="enc", path=prefix + ENC, page="own.rst"),
              table(id="gone", path=prefix + "inf2/gone.csv"),
              table(id="trn", kind="training", view=None, path=prefix + "trn1/training_data_decoder.csv"),
              table(id="p", kind="prices", view=None, category=None, path=prefix + PRICES, columns=["Inst. Type"]),
              table(id="x", path="other/" + ENC)]
    text = E.latest_tables_text(tables, prefix, {"lat", "enc", "x"})
    assert text.startswith(E._TABLES_HEADER)
    found = listed(text, "published_tables")
    assert [(t["id"], t["path"], t.get("page")) for t in found] == [
        ("p", PRICES, PAGES[PRICES]), ("lat", LAT, PAGES[LAT]), ("enc", ENC, "own.rst"),
        ("x", "other/" + ENC, None)]
    assert listed(E.latest_tables_text(tables, prefix, set()), "published_tables") == [found[0]]


# Written back as published ---------------------------------------------------------------------


def test_render_table_writes_the_header_the_rows_spellings_and_verbatim_cells() -> None:
    layout = table(columns=["Model", "Framework", "Inst. Type", "Batch Size", "Throughput (inference/second)",
                            "Power (W)"],
                   spellings={"Inst. Type": {"inf2.xlarge": "Inf2.xlarge"}})
    rows = [inference(), inference(id="r2", batch_size=1, instance="inf2.8xlarge", framework_version=None,
                                   published_text={"Power (W)": "75", "Model": "BERT, cased"})]
    assert E.render_table(layout, rows) == (
        "Model,Framework,Inst. Type,Batch Size,Throughput (inference/second),Power (W)\n"
        "bert,PyTorch 2.1,Inf2.xlarge,8,100,\n"
        '"BERT, cased",PyTorch,inf2.8xlarge,1,100,75\n')
    assert E.render_table(layout, []) == (
        "Model,Framework,Inst. Type,Batch Size,Throughput (inference/second),Power (W)\n")
    # a column of no field, and a verbatim cell, before the others: the cells after them are written
    middle = table(columns=["Power (W)", "Model", "Notes", "Batch Size"])
    assert E.render_table(middle, [inference(published_text={"Model": "BERT"})]) == \
        "Power (W),Model,Notes,Batch Size\n,BERT,,8\n"


def test_render_table_keeps_the_line_ends_and_the_newlines_at_the_end() -> None:
    rows = [inference(), inference(id="r2")]
    head = ",".join(HEAD.split(","))
    row = "bert,PyTorch 2.1,inf2.xlarge,8,2.20.0,100,5"
    assert E.render_table(table(line_terminator="crlf"), rows) == f"{head}\r\n{row}\r\n{row}\r\n"
    assert E.render_table(table(tail_newlines=0), rows) == f"{head}\n{row}\n{row}"
    assert E.render_table(table(tail_newlines=2), rows) == f"{head}\n{row}\n{row}\n\n"
    assert E.render_table(table(line_terminator="crlf", tail_newlines=0), rows) == f"{head}\r\n{row}\r\n{row}"
    assert E.render_table(table(line_terminator="crlf", tail_newlines=3), [rows[0]]) == f"{head}\r\n{row}\r\n\r\n\r\n"


def test_render_table_reads_a_column_whose_field_depends_on_the_category() -> None:
    layout = table(columns=["Model", "Throughput (inference/second)", "Throughput (tokens/second)"])
    run = inference(throughput_inferences_per_s=None, throughput_tokens_per_s="123")
    text = E.render_table(layout, [run])
    assert text.splitlines()[1].startswith("bert,")


def test_a_published_file_is_written_back_byte_for_byte(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        ENC: f"{HEAD}\r\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100.0,5\r\n\"bert, cased\",PyTorch 2.1,Inf2.xlarge,"
             "1,2.20.0,90,6\r\n\r\n",
        LAT: f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,1,2.20.0, 10,5",
        PRICES: PRICES_TEXT,
        "trn1/training_data_decoder.csv": "Model,Instance-Type,Nodes,Topology, Performance [seq/sec],Neuron Version\n"
                                          "Llama,trn1.32xlarge/trn1n.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0\n"}
    result = imported(tmp_path / "src", files)
    out = tmp_path / "out"
    written = E.export_published(result.records, result.tables, out)
    assert written == {rel: out / rel for rel in files}
    for rel, text in files.items():
        assert (out / rel).read_bytes() == (text if isinstance(text, bytes) else text.encode("utf-8")), rel
    # into an existing folder again, given as text: the same
    assert E.export_published(result.records, result.tables, str(out)) == written
    assert (out / ENC).read_bytes() == str(files[ENC]).encode("utf-8")


def test_export_writes_each_record_under_its_own_table_and_a_table_of_no_rows_as_its_header(tmp_path: Path) -> None:
    enc, lat = table(), table(id="lat", view="latency", path=LAT, columns=["Model", "Batch Size"])
    orphan = inference(id="r3", model="none")
    orphan = orphan.model_copy(update={"table": ""})
    records = [inference(), inference(id="r2", table="lat", model="gpt"), orphan]
    E.export_published(records, [enc, lat, table(id="empty", path="inf2/empty.csv", columns=["Model"])], tmp_path)
    assert (tmp_path / ENC).read_text(encoding="utf-8").splitlines()[1:] == ["bert,PyTorch 2.1,inf2.xlarge,8,2.20.0,100,5"]
    assert (tmp_path / LAT).read_text(encoding="utf-8") == "Model,Batch Size\ngpt,8\n"
    assert (tmp_path / "inf2/empty.csv").read_text(encoding="utf-8") == "Model\n"


def test_layouts_read_back_from_a_pickle_write_the_same(tmp_path: Path) -> None:
    """A layout's texts built at run time (a pickled catalog's are other objects than the literals)."""
    layout = table(line_terminator="".join(["cr", "lf"]), columns=["Model", "Batch Size", "Framework"])
    again = pickle.loads(pickle.dumps(layout))
    rows = [pickle.loads(pickle.dumps(inference()))]
    assert E.render_table(again, rows) == "Model,Batch Size,Framework\r\nbert,8,PyTorch 2.1\r\n"
    kinds = [table(id="p", kind="".join(["pri", "ces"]), view=None, category=None, path=PRICES)]
    assert [t["id"] for t in listed(E.latest_tables_text(pickle.loads(pickle.dumps(kinds)), "", set()),
                                    "published_tables")] == ["p"]
    tables_yaml(tmp_path, [{"id": "p", "path": PRICES, "kind": "prices"}])  # read from YAML: other objects
    assert [t["id"] for t in E._tables(tmp_path, [], set())] == ["p"]


def test_figures_are_written_as_published_not_as_numbers() -> None:
    plain = E._plain(inference(throughput_inferences_per_s=Decimal("1.50E+3")))
    assert plain["throughput_inferences_per_s"] == str(Decimal("1.50E+3"))
