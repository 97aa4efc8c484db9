"""The benchmark history: small synthetic folders of published states (one rule each), and the committed
history against a re-import of the shared states (skipped where they are absent)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from neuron_docs.data import load_catalog
from neuron_docs.data.checking import validation
from neuron_docs.data.published import history as H
from neuron_docs.data.published.importer import main
from neuron_docs.data.records import history as hs

from conftest import DATA

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


def run(src: Path, data: Path) -> tuple[H.History, list[H.StateSummary], list]:
    history, summaries, problems = H.import_states(src, data, INSTANCES, FRAMEWORKS, source="neuron-sdk-benchmarks")
    assert H.validate_texts(history.texts()) == []
    history.write(data)
    return history, summaries, problems


def observations(history: H.History, metric: str = "throughput_inferences_per_s") -> list[dict[str, str]]:
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
    before = {p: p.read_text() for p in (data / H.HISTORY_DIR).iterdir()}
    _, summaries, _ = run(src, data)
    assert summaries == [] and {p: p.read_text() for p in (data / H.HISTORY_DIR).iterdir()} == before


def test_a_new_state_adds_only_what_it_changed(dirs):
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(), row("roberta"))})
    run(src, data)
    before = (data / H.OBSERVATIONS_FILE).read_text().splitlines()
    state(src, "2024-03-01-cccc", {"inf2/throughput_data_encoder.csv": encoder(row(throughput="120", version="2.19.0"),
                                                                             row("roberta"))})
    _, [summary], _ = run(src, data)
    after = (data / H.OBSERVATIONS_FILE).read_text().splitlines()
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
    src, data = dirs
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row(version="2.19.0"))})
    state(src, "2024-02-01-bbbb", {"inf2/throughput_data_encoder.csv": encoder(row(version="2.18.0", throughput="1"),
                                                                             row("new"))})
    history, _, problems = run(src, data)
    assert errors(problems) == [("2024-02-01-bbbb/inf2/throughput_data_encoder.csv", 2, "Neuron Version")]
    kept = [o for o in observations(history) if history.configurations[o["configuration"]]["model"] == "bert-base"]
    assert [(o["neuron_version"], o["status"]) for o in kept] == [("2.19.0", "published")]  # not withdrawn


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
    then = H.price_in_force(prices, "inf1.xlarge", dt.date(2022, 1, 1))
    now = H.price_in_force(prices, "inf1.xlarge", dt.date(2025, 1, 1))
    assert then is not None and (then.basis, then.usd_per_hour) == ("on-demand", Decimal("0.228"))
    assert now is not None and now.basis == "reserved-effective"
    assert H.price_in_force(prices, "inf1.xlarge", dt.date(2020, 1, 1)) is None


def test_the_command_imports_a_folder_of_states_into_the_data(tmp_path, capsys):
    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("history"))
    src = tmp_path / "states"
    state(src, "2024-01-01-aaaa", {"inf2/throughput_data_encoder.csv": encoder(row())})
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


def test_the_history_declares_its_own_file_bound_and_every_other_file_keeps_the_common_one() -> None:
    """The history's long-format CSVs grow with configurations x releases by design: they declare a
    larger bound with their spec; every other data file keeps MAX_FILE_BYTES."""
    from neuron_docs.data.catalog import FILES, HISTORY_MAX_BYTES
    from neuron_docs.data.files.loader import MAX_FILE_BYTES

    bounds = {spec.name: spec.max_bytes for spec in FILES}
    assert {n for n, b in bounds.items() if b != MAX_FILE_BYTES} == set(H.HISTORY_FILES)
    assert {bounds[n] for n in H.HISTORY_FILES} == {HISTORY_MAX_BYTES}
    assert MAX_FILE_BYTES < HISTORY_MAX_BYTES


def test_a_history_file_over_the_common_bound_loads_and_one_over_its_own_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """observations.csv beyond 4 MiB loads (with every row validated); beyond the history's bound it
    is refused, located and unread, like any file too large."""
    from neuron_docs.data import catalog as catalog_module
    from neuron_docs.data.files.loader import MAX_FILE_BYTES

    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    path = data / H.OBSERVATIONS_FILE
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
                                                     if b.collection == "benchmark_observations"]) \
        == len(rows) + len(extra)
    small = [dataclasses.replace(spec, max_bytes=MAX_FILE_BYTES) if spec.name == H.OBSERVATIONS_FILE else spec
             for spec in catalog_module.FILES]
    monkeypatch.setattr(validation, "FILES", tuple(small))
    refused = load_catalog(data)
    assert [str(e) for e in refused.errors if e.file == H.OBSERVATIONS_FILE] == [
        f"{H.OBSERVATIONS_FILE}: file is {path.stat().st_size} bytes; expected at most {MAX_FILE_BYTES} bytes "
        "(MAX_FILE_BYTES)"]
