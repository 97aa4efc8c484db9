"""The latest state of the benchmark history as the runs the current pages show
(``data/checking/latest_state.py``), on configurations and observations built in the test: which
configurations become runs, with which figures, and what is set aside where. No data files, no
Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``); the
loading of the real history pins the same rules end to end (``test_benchmark_history.py``)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import DERIVED, Broken, Catalog
from neuron_docs.data.checking import latest_state as ls
from neuron_docs.data.checking.latest_state import derive_latest_runs, run_fields
from neuron_docs.data.files.loader import DataError
from neuron_docs.data.records import history as hs
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps

CONFIGS = "benchmarks/history/configurations.csv"


def config(cid: str, *, kind: str = "inference", table: str | None = "tab", row: int | None = 1,
           withdrawn: dt.date | None = None, **fields: Any) -> hs.BenchmarkConfiguration:
    values = {"id": cid, "generation": "inf2", "kind": kind, "view": "throughput", "model": f"Model {cid}",
              "framework": "fw", "framework_name": "PyTorch", "instance": "inf2.xlarge", "batch_size": 4,
              "table": table, "row": row, "file": "inf2/x.csv", "first_published": dt.date(2024, 1, 1),
              "first_state": "2024-01-01-aaaa", "last_seen": withdrawn, "withdrawn": withdrawn, "source": "src",
              "model_details": "", "published_text": {}} | fields
    return hs.BenchmarkConfiguration.model_construct(**values)


def obs(oid: str, configuration: str, metric: str = "throughput_inferences_per_s", value: str = "10.5",
        version: str = "2.18.0", status: str = "published") -> hs.BenchmarkObservation:
    return hs.BenchmarkObservation.model_construct(id=oid, configuration=configuration, neuron_version=version,
                                                   metric=metric, value=Decimal(value), status=status)


def catalog(configs: list[hs.BenchmarkConfiguration], observations: list[hs.BenchmarkObservation]) -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["benchmark_configurations"] = {c.id: c for c in configs}
    cat.records["benchmark_observations"] = {o.id: o for o in observations}
    cat.lines["benchmark_configurations"] = {c.id: 10 + n for n, c in enumerate(configs)}
    cat.records["published_tables"] = {"tab": ps.PublishedTable.model_construct(id="tab")}
    cat.records["instances"] = {i: s.Instance.model_construct(id=i) for i in ("inf2.xlarge", "trn1.32xlarge")}
    return cat


@pytest.fixture(autouse=True)
def no_conflicts(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[DataError]]:
    """The conflicts of ``history_conflicts`` (its own rules), set by the test."""
    found: dict[str, list[DataError]] = {}
    monkeypatch.setattr(ls, "figure_conflicts", lambda catalog: found)
    return found


def test_a_published_configuration_is_a_run_with_its_published_figures() -> None:
    cat = catalog([config("c1")], [obs("c1-t", "c1"), obs("c1-l", "c1", "latency_p50_ms", "3.25"),
                                   obs("c1-old", "c1", "latency_p90_ms", "9", status="superseded"),
                                   obs("c1-was", "c1", "latency_p99_ms", "8", status="corrected")])
    derive_latest_runs(cat)
    assert cat.errors == [] and cat.broken == []
    run = cat.published_inference_runs["c1"]
    assert (run.throughput_inferences_per_s, run.latency_p50_ms, run.latency_p90_ms, run.latency_p99_ms) == (
        Decimal("10.5"), Decimal("3.25"), None, None)
    assert (run.neuron_version, run.table, run.model, run.batch_size) == ("2.18.0", "tab", "Model c1", 4)
    assert cat.lines["published_inference_runs"]["c1"] == 10
    assert cat.record_paths[("published_inference_runs", "c1")] == ((0,), True)
    assert cat.published_training_runs == {}


def test_the_runs_are_in_the_order_of_their_tables_rows_withdrawn_ones_left_out() -> None:
    configs = [config("b", table="t2", row=1), config("a", table="t1", row=2), config("c", table="t1", row=1),
               config("gone", table="t1", row=3, withdrawn=dt.date(2024, 6, 1)), config("d", table="t1", row=None),
               config("e", table=None, row=None), config("aa", table="t1", row=2)]
    cat = catalog(configs, [obs(f"{c.id}-t", c.id) for c in configs])
    cat.records["published_tables"] = {t: ps.PublishedTable.model_construct(id=t) for t in ("t1", "t2")}
    derive_latest_runs(cat)
    assert list(cat.published_inference_runs) == ["d", "c", "a", "aa", "b"]
    [error] = cat.errors
    assert (error.file, error.line, error.field) == (CONFIGS, 15, "table")
    assert error.message == ("configuration 'e' is published but names no table; expected the published table its row "
                             "is in")
    assert [(b.collection, b.record_id, b.line, b.errors) for b in cat.broken] == [
        ("published_inference_runs", "e", 15, [error])]


def test_a_training_configuration_is_a_training_run() -> None:
    cat = catalog([config("t", kind="training", view="training", instance=None, framework_name=None, instances="trn1.32xlarge",
                          batch_size=None, global_batch_size=1024, nodes=2, topology="TP=8 DP=4", tp_degree=8,
                          dp_degree=4, pp_degree=1)],
                  [obs("t-s", "t", "throughput_sequences_per_s", "123")])
    derive_latest_runs(cat)
    assert cat.errors == []
    run = cat.published_training_runs["t"]
    assert run.throughput_sequences_per_s == Decimal("123") and run.instances == ["trn1.32xlarge"]
    assert cat.published_inference_runs == {}


def test_a_configuration_with_figures_of_two_releases_is_set_aside_at_its_row() -> None:
    cat = catalog([config("ok"), config("c1")], [obs("ok-t", "ok"), obs("c1-a", "c1", version="2.19.0"),
                                                 obs("c1-b", "c1", "latency_p50_ms", "3", version="2.18.0")])
    derive_latest_runs(cat)
    [error] = cat.errors
    assert (error.file, error.line, error.field) == (CONFIGS, 11, "id")
    assert error.message == ("configuration 'c1': figures of 2 releases published at once (2.18.0, 2.19.0); expected "
                             "one release per configuration in a state")
    assert [(b.collection, b.record_id, b.file, b.errors) for b in cat.broken] == [
        ("published_inference_runs", "c1", CONFIGS, [error])]
    assert list(cat.published_inference_runs) == ["ok"]


def test_run_fields_leave_out_what_no_run_has_and_empty_values() -> None:
    fields = run_fields(config("c", model_details="", published_text={}, script=None, os="Linux"),
                        [obs("a", "c"), obs("b", "c", "latency_p50_ms", "2")])
    assert fields["os"] == "Linux" and fields["neuron_version"] == "2.18.0"
    assert fields["throughput_inferences_per_s"] == Decimal("10.5") and fields["latency_p50_ms"] == Decimal("2")
    for absent in ("model_details", "published_text", "script", "generation", "kind", "view", "row", "file",
                   "first_published", "first_state", "last_seen", "withdrawn", "states", "identities", "paths"):
        assert absent not in fields
    assert run_fields(config("c"), [])["neuron_version"] is None
    assert run_fields(config("c", batch_size=0), [])["batch_size"] == 0  # zero is a value, not an empty one
    # one release for several metrics is one release
    assert run_fields(config("c"), [obs("a", "c"), obs("b", "c", "latency_p50_ms")])["neuron_version"] == "2.18.0"


def test_a_configuration_whose_figures_make_no_valid_run_is_located() -> None:
    cat = catalog([config("c1", row=1), config("c2", row=2)],
                  [obs("c1-l", "c1", "latency_p50_ms", "3"), obs("c2-t", "c2")])  # c1: no throughput
    derive_latest_runs(cat)
    assert list(cat.published_inference_runs) == ["c2"]  # the next configuration is still a run
    assert cat.errors and all(e.file == CONFIGS and e.line == 10 for e in cat.errors)
    assert all(e.message.startswith("configuration 'c1' as a published run: ") for e in cat.errors)
    assert [(b.collection, b.record_id, b.errors) for b in cat.broken] == [("published_inference_runs", "c1",
                                                                            cat.errors)]


def test_a_run_naming_a_table_or_instance_the_data_lacks_is_located() -> None:
    cat = catalog([config("c1", table="nowhere"),
                   config("t", kind="training", view="training", instance=None, framework_name=None, instances="trn1.32xlarge;trn9.x",
                          batch_size=None, global_batch_size=8, nodes=1, topology="TP=8 DP=4", tp_degree=8, dp_degree=4,
                          pp_degree=1)],
                  [obs("c1-t", "c1"), obs("t-s", "t", "throughput_sequences_per_s", "1")])
    derive_latest_runs(cat)
    assert [(e.line, e.field, e.message.split(";")[0]) for e in cat.errors] == [
        (10, "table", "unknown published table 'nowhere'"), (11, "instances", "unknown instance 'trn9.x'")]
    assert [(b.collection, b.record_id) for b in cat.broken] == [("published_inference_runs", "c1"),
                                                                 ("published_training_runs", "t")]
    assert cat.published_inference_runs == {} and cat.published_training_runs == {}


def test_a_configuration_with_conflicting_figures_is_set_aside_with_them(
        no_conflicts: dict[str, list[DataError]]) -> None:
    conflict = DataError("benchmarks/history/observations.csv", 5, "value", "two figures")
    no_conflicts["c1"] = [conflict]
    cat = catalog([config("c1"), config("c2")], [obs("c1-t", "c1"), obs("c2-t", "c2")])
    derive_latest_runs(cat)
    assert cat.errors == [conflict]
    assert [(b.collection, b.record_id, b.file, b.line, b.errors) for b in cat.broken] == [
        ("published_inference_runs", "c1", CONFIGS, 10, [conflict])]
    assert list(cat.published_inference_runs) == ["c2"]


def test_a_configuration_one_of_whose_figures_was_set_aside_is_set_aside() -> None:
    # an observation's id is its configuration's and its metric's (ids may hold dashes)
    cat = catalog([config("c-1"), config("c-2")], [obs("c-1-t", "c-1"), obs("c-2-t", "c-2")])
    problem = DataError("benchmarks/history/observations.csv", 7, "value", "bad figure")
    cat.broken = [Broken("".join(list("benchmark_observations")), "c-1-latency", "obs", 7, [problem]),
                  Broken("models", "c-2-model", "models.yaml", 3, [problem]),  # other collections' records,
                  Broken("accuracy_runs", "c-2-run", "accuracy.csv", 3, [problem])]  # sorting after and before
    derive_latest_runs(cat)
    assert cat.errors == []
    assert [(b.collection, b.record_id, b.file, b.line, b.errors) for b in cat.broken[3:]] == [
        ("published_inference_runs", "c-1", CONFIGS, 10, [problem])]
    assert list(cat.published_inference_runs) == ["c-2"]


def test_a_configuration_set_aside_is_a_run_set_aside_in_both_collections() -> None:
    cat = catalog([config("c2")], [obs("c2-t", "c2")])
    problem = DataError(CONFIGS, 4, "kind", "bad row")
    cat.broken = [Broken("".join(list("benchmark_configurations")), "c9", CONFIGS, 4, [problem]),
                  Broken("benchmark_states", "s", "states.csv", 2, [problem]),
                  Broken("accuracy_runs", "a", "accuracy.csv", 2, [problem])]  # sorts first: another collection
    derive_latest_runs(cat)
    assert [(b.collection, b.record_id, b.line) for b in cat.broken[3:]] == [
        (collection, "c9", 4) for collection in DERIVED]
    assert cat.broken[3].errors == [problem] and cat.broken[3].errors is not cat.broken[0].errors
    assert list(cat.published_inference_runs) == ["c2"]


@pytest.mark.parametrize("collection", ["benchmark_configurations", "benchmark_observations"])
def test_a_store_that_could_not_be_read_leaves_the_runs_missing_not_empty(collection: str) -> None:
    cat = catalog([config("c1")], [obs("c1-t", "c1")])
    problem = DataError("f.csv", 3, "x", "unreadable")
    later = DataError("g.csv", 8, "x", "also unreadable")
    cat.broken = [Broken("benchmark_states", None, "s", 1, []), Broken(collection, None, "f.csv", 3, [problem]),
                  Broken("benchmark_observations", None, "g.csv", 8, [later])]
    derive_latest_runs(cat)
    assert [(b.collection, b.record_id, b.file, b.line, b.errors) for b in cat.broken[3:]] == [
        (c, None, name, 3, [problem]) for c, name in DERIVED.items()]
    assert cat.published_inference_runs == {} and cat.errors == []
    # a single record set aside is no unread store
    cat = catalog([config("c1")], [obs("c1-t", "c1")])
    cat.broken = [Broken(collection, "other", "f.csv", 3, [problem])]
    derive_latest_runs(cat)
    assert list(cat.published_inference_runs) == ["c1"]


def test_a_figures_status_is_compared_by_value_as_the_cache_gives_it_back() -> None:
    # The cached catalog is a pickle: its statuses are equal texts, never the code's literal objects.
    status = "".join(["pub", "lished"])
    cat = catalog([config("c1")], [obs("c1-t", "c1", status=status)])
    derive_latest_runs(cat)
    assert cat.published_inference_runs["c1"].throughput_inferences_per_s == Decimal("10.5")
