"""The benchmark history: small synthetic folders of published states (one rule each), and the committed
history against a re-import of the shared states (skipped where they are absent)."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import datetime as dt
import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from neuron_docs.benchmark_import import states as H
from neuron_docs.benchmark_import.command import main
from neuron_docs.benchmark_import.fold import StateSummary
from neuron_docs.benchmark_import.history_rows import IDENTITY, History, configuration_id
from neuron_docs.benchmark_import.read import Problem
from neuron_docs.data import load_catalog
from neuron_docs.data.catalog import CONFIGURATIONS_FILE, HISTORY_DIR, HISTORY_FILES, OBSERVATIONS_FILE
from neuron_docs.data.checking import validation
from neuron_docs.data.published.history_view import price_in_force
from neuron_docs.data.records import history as hs

from helpers.paths import DATA

STATES = Path(os.environ.get("NEURON_BENCHMARK_HISTORY", "/work/shared/external/neuron-sdk/benchmark-history"))
_CATALOG = load_catalog(DATA)
INSTANCES = list(_CATALOG.instances)
FRAMEWORKS = list(_CATALOG.frameworks)

ENCODER = ("Model,Scripts,Framework,Inst. Type,Task,Throughput (inference/second),Latency P50 (ms),"
           "Latency P99 (ms),Application Type,Neuron Version,Run Mode,Batch Size,Sequence Length,Model Data Type,"
           "Compilation Autocast Data Type,OS Type")
PRICES = "Inst. Type,RI-Effective hourly rate\ninf2.xlarge,0.45\n"


def row(model: str = "bert-base", throughput: str = "100.5", version: str = "2.18.0", batch: str = "1",
        instance: str = "Inf2.xlarge") -> str:
    return (f"{model},:ref:`x`,PyTorch 2.1,{instance},Text Classification,{throughput},1.2,1.5,Batch,{version},"
            f"Data Parallel,{batch},128,FP32,Matmult-BF16,U22")


def state(src: Path, name: str, files: dict[str, str]) -> Path:
    folder = src / name
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


def encoder(*rows: str, header: str = ENCODER) -> str:
    return "\n".join((header, *rows)) + "\n"


def run(src: Path, data: Path) -> tuple[History, list[StateSummary], list]:
    history, summaries, problems = H.import_states(src, data, INSTANCES, FRAMEWORKS, source="neuron-sdk-benchmarks")
    assert H.validate_texts(history.texts()) == []
    history.write(data)
    return history, summaries, problems


def observations(history: History, metric: str = "throughput_inferences_per_s") -> list[dict[str, str]]:
    return [o for (_, m), rows in history.observations.items() if m == metric for o in rows]


def errors(problems: list) -> list[tuple[str, int | None, str]]:
    return [(p.file, p.line, p.column) for p in problems if p.severity == "error"]


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path / "states", tmp_path / "data"


def test_republished_kept_once_and_reimport_changes_nothing(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row())})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row())})
    history, _, problems = run(src, data)
    assert errors(problems) == []
    [obs] = observations(history)
    assert (obs["first_published"], obs["status"], obs["last_seen"]) == ("2024-01-01", "published", "")
    before = {p: p.read_text() for p in (data / HISTORY_DIR).iterdir()}
    _, summaries, _ = run(src, data)
    assert summaries == [] and {p: p.read_text() for p in (data / HISTORY_DIR).iterdir()} == before


def test_a_new_state_adds_only_what_it_changed(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(), row("roberta"))})
    run(src, data)
    before = (data / OBSERVATIONS_FILE).read_text().splitlines()
    state(src, "2024-03-01-cccc", {"inf2/throughput_data_encoder.csv": encoder(row(throughput="120", version="2.19.0"),
                                                                             row("roberta"))})
    _, [summary], _ = run(src, data)
    after = (data / OBSERVATIONS_FILE).read_text().splitlines()
    changed = set(after) - set(before)
    # bert's three 2.18 figures end (superseded), its three 2.19 figures are new; roberta's rows are untouched
    assert summary.superseded == 3 and summary.new == 3
    assert len(changed) == 6 and all("bert-base" in line for line in changed)
    assert len(set(before) - set(after)) == 3


def test_a_change_under_the_same_release_is_a_correction_with_both_dates(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(throughput="100.5"))})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row(throughput="101"))})
    history, _, _ = run(src, data)
    old, new = observations(history)
    assert (old["value"], old["status"], old["last_seen"], old["ended"]) == ("100.5", "corrected", "2024-01-01",
                                                                            "2024-02-01")
    assert (new["value"], new["status"], new["first_published"]) == ("101", "published", "2024-02-01")


def test_a_new_release_supersedes_and_a_disappearance_withdraws(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(), row("roberta"))})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row(version="2.19", throughput="110"))})
    history, _, _ = run(src, data)
    by_model = {(history.configurations[o["configuration"]]["model"], o["neuron_version"]): o
                for o in observations(history)}
    assert by_model[("bert-base", "2.18.0")]["status"] == "superseded"
    assert by_model[("bert-base", "2.19.0")]["status"] == "published"  # 2.19 read as 2.19.0
    assert by_model[("roberta", "2.18.0")]["status"] == "withdrawn"
    roberta = next(c for c in history.configurations.values() if c["model"] == "roberta")
    assert (roberta["last_seen"], roberta["withdrawn"]) == ("2024-01-01", "2024-02-01")


def test_identity_survives_renamed_files_and_column_spellings(dirs):
    src, data = dirs
    old_header = ENCODER.replace("Throughput (inference/second)", "Throughput (/sec)").replace(",OS Type", "")
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_language.csv": encoder(row()[: -len(",U22")],
                                                                              header=old_header)})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row())})
    history, _, problems = run(src, data)
    assert errors(problems) == []
    [config] = history.configurations.values()
    assert config["file"] == "inf2/throughput_data_encoder.csv" and config["first_published"] == "2024-01-01"
    assert len(observations(history)) == 1


def test_a_footnoted_version_and_a_missing_version_column(dirs):
    src, data = dirs
    (src).mkdir(parents=True)
    (src / "STATES.tsv").write_text("state\tcommit_date\tcommit_subject\n"
                                    "2022-10-10-aaaa\t2022-10-10\tNeuron SDK Release 2.3.0\n", encoding="utf-8")
    no_version = ENCODER.replace("Neuron Version,", "")
    state(src, "2022-10-10-aaaa", {
        "inf2/throughput_data_encoder.csv": encoder(row().replace("2.18.0,", ""), header=no_version),
        "inf2/latency_data_encoder.csv": encoder(row(version="2.13.0 *")),
    })
    history, _, problems = run(src, data)
    assert errors(problems) == []
    versions = {(o["neuron_version"], o["version_from"]) for o in observations(history)}
    assert versions == {("2.3.0", "state"), ("2.13.0", "column")}
    assert any(p.line == 1 and p.column == "neuron_version" and p.severity == "warning" for p in problems)


def test_rows_that_cannot_be_placed_are_located_and_the_rest_imports(dirs):
    src, data = dirs
    shifted = row().replace(",128,", ",")  # one field missing: every later cell would shift
    extra = row("extra") + ",surplus"
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(
        row("ok"), shifted, extra, row("badversion", version="two"), row("unknown", instance="Inf9.huge"))})
    history, [summary], problems = run(src, data)
    file = "2024-01-01-aaaa/inf2/throughput_data_encoder.csv"
    assert sorted(errors(problems)) == [(file, 3, ""), (file, 4, ""), (file, 5, "Neuron Version"),
                                        (file, 6, "Inst. Type")]
    assert [c["model"] for c in history.configurations.values()] == ["ok"]
    assert (summary.rows, summary.placed, summary.set_aside) == (5, 1, 4)


def test_a_release_going_backwards_is_located_and_set_aside(dirs):
    """The row is set aside (counted) and does not keep its configuration published: the history is what
    the states publish right, whatever order they came in."""
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(version="2.19.0"))})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row(version="2.18.0", throughput="1"),
                                                                             row("new"))})
    history, [_, summary], problems = run(src, data)
    assert errors(problems) == [("2024-02-01-bbbb/inf2/throughput_data_encoder.csv", 2, "Neuron Version")]
    kept = [o for o in observations(history) if history.configurations[o["configuration"]]["model"] == "bert-base"]
    assert [(o["neuron_version"], o["value"], o["status"]) for o in kept] == [("2.19.0", "100.5", "withdrawn")]
    assert (summary.placed, summary.set_aside) == (1, 1)


def test_two_states_with_one_date(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row())})
    state(src, "2024-01-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row(throughput="7"))})
    history, _, problems = run(src, data)
    assert errors(problems) == [("2024-01-01-bbbb", None, "")]
    assert [s["id"] for s in history.states] == ["2024-01-01-aaaa"]


def test_two_states_with_one_date_ordered_by_the_states_list(dirs):
    src, data = dirs
    src.mkdir(parents=True)
    (src / "STATES.tsv").write_text("state\tcommit_date\tcommit_subject\n2024-01-01-bbbb\t2024-01-01\tRelease 2.18.0\n"
                                    "2024-01-01-aaaa\t2024-01-01\tFix numbers\n", encoding="utf-8")
    state(src, "2024-01-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row())})
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(throughput="7"))})
    history, _, problems = run(src, data)
    assert errors(problems) == []
    assert [s["id"] for s in history.states] == ["2024-01-01-bbbb", "2024-01-01-aaaa"]
    assert [s["release"] for s in history.states] == ["2.18.0", "2.18.0"]
    assert [o["status"] for o in observations(history)] == ["corrected", "published"]


def test_a_state_whose_rows_do_not_parse_is_located_and_the_rest_imports(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row())})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": "garbage;text\nmore;garbage\n"})
    state(src, "2024-03-01-cccc", {"inf2/throughput_data_encoder.csv": encoder(row(throughput="5"))})
    history, _, problems = run(src, data)
    assert ("2024-02-01-bbbb", None, "") in errors(problems)
    assert [s["id"] for s in history.states] == ["2024-01-01-aaaa", "2024-03-01-cccc"]
    assert [o["status"] for o in observations(history)] == ["corrected", "published"]


def test_a_stale_copy_left_beside_its_split_file_is_a_warning(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data.csv": encoder(row())})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data.csv": encoder(row()),
                                   "inf2/throughput_data_encoder.csv": encoder(row(version="2.19.0", throughput="9"))})
    history, _, problems = run(src, data)
    assert errors(problems) == []
    assert any("stale copy" in p.message for p in problems)
    assert [o["neuron_version"] for o in observations(history) if o["status"] == "published"] == ["2.19.0"]


def test_prices_keep_their_basis_and_dates_and_the_price_in_force(dirs):
    src, data = dirs
    state(src, "2021-07-29-aaaa", {"data.csv": "Name,Model,Framework,Inst. Type,Batch Size,Avg Throughput (/sec),"
                                               "Neuron Version\nx,Resnet-50,PyTorch 1.8.1,inf1.xlarge,5,821,1.15.0\n",
                                   "instance_prices.csv": "Inst. Type,On-Demand hourly rate\ninf1.xlarge,0.228\n"})
    state(src, "2024-09-17-bbbb", {"inf1/data.csv": "Name,Model,Framework,Inst. Type,Batch Size,Avg Throughput "
                                                    "(/sec),Neuron Version\nx,Resnet-50,PyTorch 1.8.1,inf1.xlarge,5,"
                                                    "821,1.15.0\n",
                                   "inf1/instance_prices.csv": "Inst. Type,RI-Effective hourly rate\ninf1.xlarge,0.137\n"})
    history, _, problems = run(src, data)
    assert errors(problems) == []
    assert {c["generation"] for c in history.configurations.values()} == {"inf1"}  # top-level files: inf1
    prices = [hs.HistoricalPrice.model_validate({k: v for k, v in p.items() if v}) for p in history.prices["inf1.xlarge"]]
    assert [(p.basis, p.status) for p in prices] == [("on-demand", "changed"), ("reserved-effective", "published")]
    then = price_in_force(prices, "inf1.xlarge", dt.date(2022, 1, 1))
    now = price_in_force(prices, "inf1.xlarge", dt.date(2025, 1, 1))
    assert then is not None and (then.basis, then.usd_per_hour) == ("on-demand", Decimal("0.228"))
    assert now is not None and now.basis == "reserved-effective"
    assert price_in_force(prices, "inf1.xlarge", dt.date(2020, 1, 1)) is None


def test_the_command_imports_a_folder_of_states_into_the_data(tmp_path, capsys):
    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("history"))
    src = tmp_path / "states"
    # the latest state holds the price files whose prices data/prices.yaml has (tables.yaml is its layout)
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row()),
                                   "inf1/instance_prices.csv": "Inst. Type,RI-Effective hourly rate\ninf1.xlarge,0.1\n",
                                   "inf2/inf2_instance_prices.csv": PRICES,
                                   "trn1/trn1_instance_prices.csv": "Inst. Type,RI-Effective hourly rate\n"
                                                                    "trn1.2xlarge,0.9\n"})
    assert main([str(src), "--data", str(data)]) == 0
    catalog = load_catalog(data)
    assert catalog.errors == []
    assert len(catalog.benchmark_observations) == 3 and len(catalog.benchmark_states) == 1
    assert "1 states imported" in capsys.readouterr().out


@pytest.mark.skipif(not STATES.is_dir(), reason="the shared benchmark history is not here")
def test_the_committed_history_is_a_reimport_of_the_shared_states(tmp_path):
    history, summaries, _ = H.import_states(STATES, tmp_path, INSTANCES, FRAMEWORKS, source="neuron-sdk-benchmarks")
    assert len(summaries) == len([p for p in STATES.iterdir() if p.is_dir()])
    for name, text in history.texts().items():
        assert (DATA / name).read_text(encoding="utf-8") == text, name


def test_each_history_file_states_its_own_bound_and_every_other_file_keeps_the_common_one() -> None:
    """The history's CSVs grow with the data at their own pace: each states its bound (issue 32: one
    256 MiB bound for all four let a 50 MB file build with 1.7 GB and a 198 MB site). The files
    that grow with releases or prices alone keep MAX_FILE_BYTES; the configurations get less room
    than the figures; none more than what the largest benchmarked history needs (78 MB)."""
    from neuron_docs.data.catalog import FILES, HISTORY_BOUNDS
    from neuron_docs.data.files.loader import MAX_FILE_BYTES

    bounds = {spec.name: spec.max_bytes for spec in FILES}
    assert set(HISTORY_BOUNDS) == set(HISTORY_FILES)
    assert {n: bounds[n] for n in HISTORY_FILES} == HISTORY_BOUNDS
    assert {n for n, b in bounds.items() if b != MAX_FILE_BYTES} == {CONFIGURATIONS_FILE, OBSERVATIONS_FILE}
    assert MAX_FILE_BYTES < bounds[CONFIGURATIONS_FILE] < bounds[OBSERVATIONS_FILE] <= 100 * 1024 * 1024


@pytest.mark.parametrize("name", ["configurations.csv", "states.csv"])
def test_a_50_mb_history_file_is_refused_before_it_is_read(tmp_path: Path, name: str) -> None:
    """A 50 MB history file (sparse: nothing written) beyond its bound: one located error naming the
    bound, from stat alone; the rest of the data loads."""
    from neuron_docs.data.catalog import HISTORY_DIR

    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    path = data / HISTORY_DIR / name
    os.truncate(path, 50 * 1024 * 1024)
    loaded = load_catalog(data)
    [error] = [e for e in loaded.errors if e.file == f"{HISTORY_DIR}/{name}"]
    assert "file is 52428800 bytes; expected at most" in error.message
    assert loaded.devices and loaded.instances


def test_a_history_file_over_the_common_bound_loads_and_one_over_its_own_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """observations.csv beyond 4 MiB loads (with every row validated); beyond the history's bound it
    is refused, located and unread, like any file too large."""
    from neuron_docs.data import catalog as catalog_module
    from neuron_docs.data.files.loader import MAX_FILE_BYTES

    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    path = data / OBSERVATIONS_FILE
    header, *rows = path.read_text(encoding="utf-8").splitlines()
    extra, copies = [], 0
    while len("\n".join([header, *rows, *extra])) <= MAX_FILE_BYTES:  # the same rows under new ids
        copies += 1
        extra += [f"{r.split(',', 1)[0]}-copy{copies},{r.split(',', 1)[1]}" for r in rows]
    path.write_text("\n".join([header, *rows, *extra]) + "\n", encoding="utf-8")
    assert path.stat().st_size > MAX_FILE_BYTES
    loaded = load_catalog(data)
    assert not [e for e in loaded.errors if "expected at most" in e.message]
    assert len(loaded.benchmark_observations) + len([b for b in loaded.broken
                                                     if b.collection == "benchmark_observations"])\
        == len(rows) + len(extra)
    small = [dataclasses.replace(spec, max_bytes=MAX_FILE_BYTES) if spec.name == OBSERVATIONS_FILE else spec
             for spec in catalog_module.FILES]
    monkeypatch.setattr(validation, "FILES", tuple(small))
    refused = load_catalog(data)
    assert [str(e) for e in refused.errors if e.file == OBSERVATIONS_FILE] == [
        f"{OBSERVATIONS_FILE}: file is {path.stat().st_size} bytes; expected at most {MAX_FILE_BYTES} bytes "
        "(MAX_FILE_BYTES)"]


# Any order: the history is a pure function of the set of states ---------------------------------


def texts_of(data: Path) -> dict[str, str]:
    return {name: (data / name).read_text(encoding="utf-8") for name in HISTORY_FILES}


def batches(tmp_path: Path, states: dict[str, dict[str, str]], order: list[list[str]], tsv: str = "") -> Path:
    """Import ``states`` (name -> files) batch by batch, each batch a folder of its own (with ``tsv``
    as its STATES.tsv); the data directory."""
    data = tmp_path / ("data-" + "-".join("+".join(n[:10] for n in b) for b in order))
    for i, names in enumerate(order):
        src = tmp_path / f"src-{i}-{abs(hash(tuple(names)))}"
        for name in names:
            state(src, name, states[name])
        if tsv:
            (src / "STATES.tsv").write_text(tsv, encoding="utf-8")
        _, _, problems = run(src, data)
        assert errors(problems) == []
    return data


#: A small history with every kind of change: a correction, a new release, a withdrawal, a return
#: after a gap, a column added (continuing its configurations).
ORDERED = {
    "2024-01-01-aaaa": {"inf2/throughput_data_encoder.csv": encoder(row(), row("roberta"), row("albert"))},
    "2024-02-01-bbbb": {"inf2/throughput_data_encoder.csv": encoder(row(throughput="101"), row("roberta"))},
    "2024-03-01-cccc": {"inf2/throughput_data_encoder.csv": encoder(row(version="2.19.0", throughput="120"),
                                                                    row("roberta", version="2.19.0"),
                                                                    row("albert"))},
    "2024-04-01-dddd": {"inf2/throughput_data_encoder.csv": encoder(
        *(r + ",BF16" for r in (row(version="2.20.0", throughput="130"), row("roberta", version="2.19.0"))),
        header=ENCODER + ",Weight Storage Data Type")},
}


@pytest.mark.parametrize("order", [
    [["2024-01-01-aaaa", "2024-03-01-cccc"], ["2024-02-01-bbbb", "2024-04-01-dddd"]],
    [["2024-04-01-dddd"], ["2024-03-01-cccc"], ["2024-02-01-bbbb"], ["2024-01-01-aaaa"]],
    [["2024-02-01-bbbb", "2024-04-01-dddd"], ["2024-01-01-aaaa"], ["2024-03-01-cccc"]],
], ids=["interleaved", "newest-first", "scattered"])
def test_the_same_states_in_any_order_give_the_same_files(tmp_path, order):
    """An older state folds in where it belongs (no longer refused): whatever the order of the imports,
    the history's files are byte for byte those of importing every state at once."""
    at_once = batches(tmp_path, ORDERED, [list(ORDERED)])
    assert batches(tmp_path, ORDERED, order) != at_once
    assert texts_of(batches(tmp_path, ORDERED, order)) == texts_of(at_once)


def test_an_older_state_folded_in_changes_what_it_changes(dirs):
    """bbbb, found later, corrects bert's figure: the correction is dated bbbb, and the figure cccc
    superseded is bbbb's."""
    src, data = dirs
    for name in ("2024-01-01-aaaa", "2024-03-01-cccc"):
        state(src, name, ORDERED[name])
    run(src, data)
    late = data.parent / "late"
    state(late, "2024-02-01-bbbb", ORDERED["2024-02-01-bbbb"])
    history, [summary], problems = run(late, data)
    assert errors(problems) == [] and summary.state == "2024-02-01-bbbb"
    assert [s["id"] for s in history.states] == ["2024-01-01-aaaa", "2024-02-01-bbbb", "2024-03-01-cccc"]
    bert = sorted((o["value"], o["status"], o["first_state"], o["ended"]) for o in observations(history)
                  if history.configurations[o["configuration"]]["model"] == "bert-base")
    assert bert == [("100.5", "corrected", "2024-01-01-aaaa", "2024-02-01"),
                    ("101", "superseded", "2024-02-01-bbbb", "2024-03-01"),
                    ("120", "published", "2024-03-01-cccc", "")]
    albert = next(c for c in history.configurations.values() if c["model"] == "albert")
    assert albert["states"] == "2024-01-01-aaaa;2024-03-01-cccc.."  # withdrawn by bbbb, back in cccc


def test_a_rebuild_from_a_folder_of_states_is_one_command(tmp_path, capsys):
    """``--rebuild`` folds every state of the folder into an empty history: the states the folder lacks
    go, and the files are those of an import into an empty history."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    src = tmp_path / "states"
    for name in ("2024-01-01-aaaa", "2024-02-01-bbbb"):
        state(src, name, ORDERED[name])
    empty = tmp_path / "empty"
    run(src, empty)
    assert main([str(src), "--data", str(data), "--rebuild"]) == 0
    assert texts_of(data) == texts_of(empty)
    assert "2 states imported (2 in the history)" in capsys.readouterr().out


def test_two_states_with_one_date_folded_in_apart_keep_the_order_of_the_states_list(tmp_path):
    tsv = ("state\tcommit_date\tcommit_subject\n2024-01-01-bbbb\t2024-01-01\tRelease 2.18.0\n"
           "2024-01-01-aaaa\t2024-01-01\tFix numbers\n")
    states = {"2024-01-01-bbbb": {"inf2/throughput_data_encoder.csv": encoder(row())},
              "2024-01-01-aaaa": {"inf2/throughput_data_encoder.csv": encoder(row(throughput="7"))}}
    apart = batches(tmp_path, states, [["2024-01-01-aaaa"], ["2024-01-01-bbbb"]], tsv)
    assert texts_of(apart) == texts_of(batches(tmp_path, states, [list(states)], tsv))
    assert [r["id"] for r in History.load(apart).states] == ["2024-01-01-bbbb", "2024-01-01-aaaa"]


def test_an_older_state_folded_in_alone_is_compared_with_the_states_around_it_in_the_history(dirs):
    """The stale-file rule of a state folded in alone compares it with the history's states around it
    (their files' digests in states.csv): bbbb's copy of the file split in aaaa is a stale copy."""
    src, data = dirs
    split = {"inf2/throughput_data.csv": encoder(row()),
             "inf2/throughput_data_encoder.csv": encoder(row(version="2.19.0", throughput="9"))}
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data.csv": encoder(row())})
    state(src, "2024-03-01-cccc", split)
    run(src, data)
    late = data.parent / "late"
    state(late, "2024-02-01-bbbb", split)
    _, _, problems = run(late, data)
    assert errors(problems) == []
    assert any("stale copy" in p.message and p.file.startswith("2024-02-01-bbbb/") for p in problems)
    every = data.parent / "every"
    for name in ("2024-01-01-aaaa", "2024-02-01-bbbb", "2024-03-01-cccc"):
        shutil.copytree(src / name if name != "2024-02-01-bbbb" else late / name, every / name)
    once = data.parent / "once"
    run(every, once)
    assert texts_of(data) == texts_of(once)


REAL_ORDER = ["2024-04-11-8907253c", "2024-04-30-78169c6c", "2024-09-17-b3398f39", "2024-09-18-5ccac8f3"]


@pytest.mark.skipif(not STATES.is_dir(), reason="the shared benchmark history is not here")
@pytest.mark.sweep
def test_real_states_in_other_orders_give_the_same_files(tmp_path):
    """Four real states (split files with stale copies left beside them, the Weight Storage Data Type
    column appearing): imported at once; all but one, then the missing one alone (found later); the
    newest two first, then the folder of all four. A state read without the states before it cannot
    tell its stale copies apart: when they come, it is read again from the folder (and named in a
    warning when the folder lacks it)."""
    def folder(name: str, members: list[str]) -> Path:
        out = tmp_path / name
        out.mkdir()
        for member in members:
            (out / member).symlink_to(STATES / member)
        shutil.copy(STATES / "STATES.tsv", out / "STATES.tsv")
        return out

    def imported(data: Path, *steps: list[str]) -> list[Problem]:
        found = []
        for members in steps:
            src = folder(f"src-{len(list(tmp_path.glob('src-*')))}", members)
            history, _, problems = H.import_states(src, data, INSTANCES, FRAMEWORKS, source="neuron-sdk-benchmarks")
            history.write(data)
            found += problems
        return found

    imported(tmp_path / "once", REAL_ORDER)
    at_once = texts_of(tmp_path / "once")
    problems = imported(tmp_path / "missing", [n for n in REAL_ORDER if n != REAL_ORDER[1]], REAL_ORDER[1:2])
    assert texts_of(tmp_path / "missing") == at_once
    assert not [p for p in problems if "read when the states around it were others" in p.message]
    problems = imported(tmp_path / "newest-first", REAL_ORDER[2:], REAL_ORDER[:2])
    warned = {p.file for p in problems if "read when the states around it were others" in p.message}
    assert warned and warned <= set(REAL_ORDER[2:])  # the older ones folded in alone: the newer named
    imported(tmp_path / "newest-first", REAL_ORDER)
    assert texts_of(tmp_path / "newest-first") == at_once


# Identity that survives the tables' schema --------------------------------------------------------

WEIGHTS = ENCODER + ",Weight Storage Data Type"


def configurations(history: History) -> list[dict[str, str]]:
    return sorted(history.configurations.values(), key=lambda c: (c["model"], c["first_published"]))


def same_state_pairs(history: History) -> list[tuple[str, str]]:
    """Configurations withdrawn by a state that publishes a new configuration equal to it on the columns
    both set (What's new would list one configuration as withdrawn and new)."""
    order = [s["id"] for s in history.states]
    dates = {s["id"]: s["date"] for s in history.states}
    withdrawn_by: dict[str, list[dict[str, str]]] = {}
    for config in history.configurations.values():
        if config["withdrawn"]:  # the state after its last one
            last = max(order.index(s.partition("..")[2] or s.partition("..")[0])
                       for s in config["states"].split(";"))
            withdrawn_by.setdefault(order[last + 1], []).append(config)
    pairs = []
    for new in history.configurations.values():
        for old in withdrawn_by.get(new["first_state"], []):
            columns = ("generation", "kind", "view", *IDENTITY[new["kind"]])
            if old["id"] != new["id"] and all(old[k] == new[k] for k in columns[:3]) and all(
                    old[k] == new[k] for k in columns[3:] if old[k] and new[k]):
                pairs.append((old["id"], new["id"]))
    assert all(dates[s] for s in order)
    return pairs


def test_a_column_that_appears_continues_its_configurations(tmp_path):
    """The Weight Storage Data Type column appears with one value for the rows that lacked it: the same
    configurations go on under the id of the identity they were first published with, their earlier
    identity kept with its states; What's new lists no configuration as withdrawn and new."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("history"))
    src = tmp_path / "states"
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(), row("roberta"))})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(
        row(throughput="101") + ",BF16", row("roberta") + ",BF16", header=WEIGHTS)})
    history, _, problems = run(src, data)
    assert errors(problems) == []
    first = {c["model"]: c for c in History.load(data).configurations.values()}
    bert = first["bert-base"]
    assert len(history.configurations) == 2 and bert["weight_storage_data_type"] == "BF16"
    earlier = {k: v for k, v in bert.items() if k in ("generation", "kind", "view", *IDENTITY["inference"]) and v
               and k != "weight_storage_data_type"}
    assert bert["id"] == configuration_id(earlier)
    assert json.loads(bert["identities"]) == {"2024-01-01-aaaa": earlier}
    assert [o["status"] for o in observations(history) if o["configuration"] == bert["id"]] == ["corrected",
                                                                                                "published"]
    assert same_state_pairs(history) == []
    from neuron_docs.data.published.history_view import BenchmarkHistoryIndex  # noqa: PLC0415

    changes = BenchmarkHistoryIndex.of(load_catalog(data)).changes().get("2024-02-01-bbbb", [])
    assert {c.kind for c in changes} == {"corrected"}  # no configuration new or withdrawn


@pytest.mark.parametrize(("old", "new"), [
    (ENCODER, ENCODER.replace(",Compilation Autocast Data Type", "")),  # a column dropped
    (ENCODER.replace(",Compilation Autocast Data Type", ""),  # a column renamed (to another field)
     ENCODER.replace("Model Data Type,Compilation Autocast Data Type", "Compilation Autocast Data Type")),
], ids=["dropped", "renamed"])
def test_a_column_dropped_or_renamed_continues_its_configuration(dirs, old, new):
    src, data = dirs
    cells = row().split(",")
    without = ",".join(cells[:-2] + cells[-1:])  # the row without its autocast cell
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(
        row() if old == ENCODER else without, header=old)})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(
        without if new.count(",") == without.count(",") else row(), header=new)})
    history, _, problems = run(src, data)
    assert errors(problems) == []
    [config] = history.configurations.values()
    assert config["states"] == "2024-01-01-aaaa.." and config["identities"]


def test_a_column_with_two_values_for_one_row_does_not_continue_it(dirs):
    """One configuration, then two rows that both match it on their shared columns: which one it
    became is not known, so it is withdrawn and both are new."""
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row())})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(
        row() + ",BF16", row() + ",FP8", header=WEIGHTS)})
    history, _, _ = run(src, data)
    assert [(c["first_state"], c["withdrawn"]) for c in configurations(history)] == [
        ("2024-01-01-aaaa", "2024-02-01"), ("2024-02-01-bbbb", ""), ("2024-02-01-bbbb", "")]
    assert not any(c["identities"] for c in configurations(history))


def test_a_changed_value_is_another_configuration(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(batch="1"))})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row(batch="2"))})
    history, _, _ = run(src, data)
    assert len(history.configurations) == 2


def test_the_committed_history_has_no_configuration_withdrawn_and_new_in_one_state():
    """Across the real states (a column added on 2024-04-30, n_models added, DP Degree dropped, the 2023
    trn1 tables reshaped): no state withdraws a configuration and publishes a new one equal to it on
    their shared columns."""
    history = History.load(DATA)
    assert len(history.states) == 34
    assert same_state_pairs(history) == []
    assert sum(1 for c in history.configurations.values() if c["identities"]) > 80


# Conflicts: two figures for one configuration, release and metric --------------------------------


def test_two_files_of_a_state_with_other_figures_for_one_configuration_name_both(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row()),
                                   "inf2/throughput_data_language.csv": encoder(row(throughput="7"))})
    _, [summary], problems = run(src, data)
    [problem] = [p for p in problems if p.severity == "error"]
    assert (problem.file, problem.line) == ("2024-01-01-aaaa/inf2/throughput_data_language.csv", 2)
    assert "inf2/throughput_data_encoder.csv line 2" in problem.message
    assert "throughput_inferences_per_s 7 against 100.5" in problem.message
    assert summary.set_aside == 1


def test_two_figures_published_at_once_in_the_data_are_a_located_error(tmp_path):
    """observations.csv edited by hand: a second figure for a configuration's published release and
    metric. Loading names both lines and both values, and sets the configuration's run aside."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    path = data / OBSERVATIONS_FILE
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    index, original = next((i, line) for i, line in enumerate(lines) if ",published," in line
                           and ",throughput_inferences_per_s," in line)
    cells = next(csv.reader([original]))
    cells[0] += "x"
    cells[5] = "1234.5"
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    lines.insert(index + 1, buffer.getvalue())
    path.write_text("".join(lines), encoding="utf-8")
    catalog = load_catalog(data)
    found = [e for e in catalog.errors if e.file == OBSERVATIONS_FILE]
    assert [(e.line, e.field) for e in found] == [(index + 2, "value")]
    message = found[0].message
    assert f"line {index + 1})" in message and f"line {index + 2})" in message
    assert f"{next(csv.reader([original]))[5]} (Neuron" in message and "1234.5 (Neuron" in message
    assert cells[1] not in catalog.published_inference_runs
    assert any(b.record_id == cells[1] for b in catalog.broken)
