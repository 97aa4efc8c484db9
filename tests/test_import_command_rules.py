"""The importer's command line (``benchmark_import/command.py``), on a data directory of the few files
it reads built in the test (devices, instances, frameworks, sources, published models) and published
CSV files written in the test: a snapshot folded in as a partial state dated by the source or
``--as-of`` (its layouts and prices written with the history when it is the latest), a folder of
states folded in state by state, all of the files or none, every problem printed and counted, the
exit status. Never the repository's ``data/``; no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import csv
import fcntl
import hashlib
import io
import pickle
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.benchmark_import import command
from neuron_docs.benchmark_import.command import main
from neuron_docs.benchmark_import.export import PRICES_FILE, TABLES_FILE
from neuron_docs.benchmark_import.read import Problem
from neuron_docs.benchmark_import.states import import_states
from neuron_docs.data.catalog import CONFIGURATIONS_FILE, HISTORY_FILES, OBSERVATIONS_FILE, STATES_FILE
from neuron_docs.data.files.atomic import LOCK
from helpers.import_files import ENC, HEAD, put

LAT = "inf2/latency_data_encoder.csv"
PRICES = "inf2/inf2_instance_prices.csv"
TRAIN = "trn1/training_data_decoder.csv"
ENC_TEXT = f"{HEAD}\nbert,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5\ngpt,PyTorch 2.1,Inf2.xlarge,1,2.20.0,50,9\n"
PRICES_TEXT = "Inst. Type,RI-Effective hourly rate\nInf2.xlarge,0.328\nInf2.8xlarge,0.9\n"
TRAIN_TEXT = ("Model,Instance-Type,Nodes,Topology, Performance [seq/sec],Neuron Version\n"
              "Llama,trn1.32xlarge,2,TP=8 DP=8 PP=1,47.95,2.24.0\n")

DEVICE = ("{{id: {0}, name: {0}, vendor: AWS, kind: neuron, architecture: NeuronCore-v2, generation: 2, "
          "purpose: {1}, neuroncores: 2, interconnect: ring, source: src}}")
CATALOG = {
    "sources.yaml": "sources:\n  - {id: src, title: Published tables, date: 2024-03-01}\n"
                    "  - {id: undated, title: Tables of no date}\n"
                    "  - {id: neuron-sdk-benchmarks, title: The default source}\n",
    "devices.yaml": f"devices:\n  - {DEVICE.format('inferentia2', 'inference')}\n"
                    f"  - {DEVICE.format('trainium', 'training')}\n",
    "instances.yaml": "instances:\n"
                      "  - {id: inf2.xlarge, family: inf2, device: inferentia2, device_count: 1, vcpus: 4}\n"
                      "  - {id: inf2.8xlarge, family: inf2, device: inferentia2, device_count: 1, vcpus: 32}\n"
                      "  - {id: trn1.32xlarge, family: trn1, device: trainium, device_count: 16, vcpus: 128}\n",
    "frameworks.yaml": "frameworks:\n  - {id: torch-neuronx, name: PyTorch Neuron, package: torch-neuronx, "
                       "framework: PyTorch, devices: [inferentia2, trainium]}\n",
    "families.yaml": "guidelines_as_of: 2024-01-01\ncategories:\n  - {id: nlp, name: NLP, title: NLP}\n"
                     "families:\n  - {id: encoder, name: Encoders, title: Encoders, short_name: Encoders, "
                     "category: nlp, description: Encoders., devices: {}}\n",
    "benchmarks/published/models.yaml": "published_models:\n  - {id: bert, name: bert, family: encoder}\n",
}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data directory of the files the import reads (no history, no layouts, no prices yet)."""
    root = tmp_path / "data"
    for rel, text in CATALOG.items():
        put(root, rel, text)
    return root


def files_of(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` but the lock, by path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != LOCK}


def rows(root: Path, name: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((root / name).read_text(encoding="utf-8"))))


def snapshot(tmp_path: Path, files: dict[str, str], name: str = "src") -> Path:
    for rel, text in files.items():
        put(tmp_path / name, rel, text)
    return tmp_path / name


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def state_id(date: str, files: dict[str, str]) -> str:
    key = ";".join(f"{p}:{digest(t)}" for p, t in sorted(files.items()))
    return f"{date}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, list[str], str]:
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out.splitlines(), out.err


# A snapshot ------------------------------------------------------------------------------------


def test_a_snapshot_is_a_partial_state_of_its_sources_date_written_with_its_layouts_and_prices(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {ENC: ENC_TEXT, PRICES: PRICES_TEXT}
    src = snapshot(tmp_path, files)
    status, out, err = run(capsys, src, "--data", data, "--source", "src")
    state = state_id("2024-03-01", files)
    assert (status, err) == (0, "")
    assert out == [f"{ENC}: 'Model': warning: model 'gpt' has no family; add it to benchmarks/published/models.yaml "
                   "to link it to its family",
                   f"2 inference runs, 0 training runs, 2 prices from 2 tables; state {state}: 4 new figures, "
                   "0 corrected, 0 superseded, 0 withdrawn; 0 errors, 1 warnings; 6 data files changed"]
    [row] = rows(data, STATES_FILE)
    assert (row["id"], row["date"], row["scope"]) == (state, "2024-03-01", "partial")
    assert row["files"] == ";".join(f"{p}:{digest(t)}" for p, t in sorted(files.items()))
    assert sorted(r["model"] for r in rows(data, CONFIGURATIONS_FILE)) == ["bert", "gpt"]
    assert len(rows(data, OBSERVATIONS_FILE)) == 4
    assert f"path: {ENC}" in (data / TABLES_FILE).read_text(encoding="utf-8")
    assert "inf2.8xlarge" in (data / PRICES_FILE).read_text(encoding="utf-8")
    before = files_of(data)
    status, out, _ = run(capsys, src, "--data", data, "--source", "src")
    assert status == 0 and out[-1].endswith("; no new state; 0 errors, 1 warnings; 0 data files changed")
    assert files_of(data) == before


def test_as_of_dates_the_state_and_its_prices(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {PRICES: PRICES_TEXT}
    status, out, _ = run(capsys, snapshot(tmp_path, files), "--data", data, "--source", "src", "--as-of", "2024-05-02",
                         "--region", "us-east-1", "--term", "1yr")
    assert status == 0
    assert out == [f"0 inference runs, 0 training runs, 2 prices from 1 tables; state {state_id('2024-05-02', files)}: "
                   "0 new figures, 0 corrected, 0 superseded, 0 withdrawn; 0 errors, 0 warnings; 6 data files changed"]
    assert [r["date"] for r in rows(data, STATES_FILE)] == ["2024-05-02"]
    prices = (data / PRICES_FILE).read_text(encoding="utf-8")
    assert "as_of: 2024-05-02" in prices and "region: us-east-1" in prices and "term: 1yr" in prices


def test_one_file_is_a_state_of_that_file_and_its_digest(tmp_path: Path, data: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    src = snapshot(tmp_path, {ENC: ENC_TEXT, LAT: ENC_TEXT.replace(",8,", ",4,")})
    status, out, _ = run(capsys, src / ENC, "--data", data, "--source", "src")
    assert status == 0 and out[-1].startswith("2 inference runs, 0 training runs, 0 prices from 1 tables; state "
                                              f"{state_id('2024-03-01', {ENC: ENC_TEXT})}: 4 new figures")
    assert [r["files"] for r in rows(data, STATES_FILE)] == [f"{ENC}:{digest(ENC_TEXT)}"]


def test_a_training_table_counts_its_runs(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, snapshot(tmp_path, {TRAIN: TRAIN_TEXT}), "--data", data, "--source", "src")
    assert status == 0
    assert out[-1].startswith("0 inference runs, 1 training runs, 0 prices from 1 tables; state ")
    assert "1 new figures" in out[-1] and out[-1].endswith("; 0 errors, 1 warnings; 6 data files changed")
    assert out[0] == f"{TRAIN}: 'Model': warning: model 'Llama' has no family; add it to " \
                     "benchmarks/published/models.yaml to link it to its family"


def test_models_of_no_family_are_named_once_per_file_in_order(tmp_path: Path, data: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    text = f"{HEAD}\nzeta,PyTorch 2.1,Inf2.xlarge,8,2.20.0,100,5\nalpha,PyTorch 2.1,Inf2.xlarge,1,2.20.0,50,9\n" \
           "zeta,PyTorch 2.1,Inf2.xlarge,2,2.20.0,60,9\nbert,PyTorch 2.1,Inf2.xlarge,2,2.20.0,60,9\n"
    status, out, _ = run(capsys, snapshot(tmp_path, {ENC: text, LAT: text.replace("zeta", "beta")}), "--data", data,
                         "--source", "src")
    assert status == 0
    assert [line.split("'")[3] for line in out[:-1]] == ["alpha", "beta", "alpha", "zeta"]  # by file, then name
    assert [line.split(":")[0] for line in out[:-1]] == [LAT, LAT, ENC, ENC]
    assert out[-1].endswith("; 0 errors, 4 warnings; 6 data files changed")


def test_a_snapshot_older_than_the_history_writes_the_history_only(tmp_path: Path, data: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, snapshot(tmp_path, {ENC: ENC_TEXT}, "new"), "--data", data, "--source", "src")[0] == 0
    layouts, prices = (data / TABLES_FILE).read_bytes(), (data / PRICES_FILE).read_bytes()
    status, out, _ = run(capsys, snapshot(tmp_path, {LAT: ENC_TEXT, PRICES: PRICES_TEXT}, "old"), "--data", data,
                         "--source", "src", "--as-of", "2023-01-01")
    assert status == 0 and out[-1].endswith("; 4 data files changed")  # the four history files
    assert (data / TABLES_FILE).read_bytes() == layouts and (data / PRICES_FILE).read_bytes() == prices
    assert [r["date"] for r in rows(data, STATES_FILE)] == ["2023-01-01", "2024-03-01"]


def test_a_snapshot_of_no_runs_and_no_prices_writes_nothing(tmp_path: Path, data: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    before = files_of(data)
    status, out, _ = run(capsys, snapshot(tmp_path, {ENC: HEAD + "\n"}), "--data", data, "--source", "src")
    assert status == 0
    assert out == ["0 inference runs, 0 training runs, 0 prices from 1 tables; no new state; 0 errors, 0 warnings; "
                   "0 data files changed"]
    assert files_of(data) == before


# Problems --------------------------------------------------------------------------------------


def test_a_source_of_no_date_and_no_as_of_writes_nothing(tmp_path: Path, data: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    before = files_of(data)
    src = snapshot(tmp_path, {ENC: ENC_TEXT.replace("gpt", "bert")})
    status, out, _ = run(capsys, src, "--data", data, "--source", "undated")
    assert status == 1
    assert out == [f"{src}: error: no date for the snapshot; expected --as-of YYYY-MM-DD or a source with a date "
                   "in sources.yaml",
                   "2 inference runs, 0 training runs, 0 prices from 1 tables; no new state; 1 errors, 0 warnings; "
                   "0 data files changed"]
    assert files_of(data) == before


def test_an_unknown_source_is_an_error_and_writes_nothing(tmp_path: Path, data: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Every row written names its source: the data layer would refuse them all, and the state, once in
    the history, is not imported again with the right source."""
    before = files_of(data)
    src = snapshot(tmp_path, {ENC: ENC_TEXT.replace("gpt", "bert")})
    status, out, _ = run(capsys, src, "--data", data, "--source", "nowhere", "--as-of", "2024-01-01")
    assert status == 1
    assert out == ["sources.yaml: 'id': error: unknown source 'nowhere'; expected a source of data/sources.yaml "
                   "(add it, with its license)",
                   "2 inference runs, 0 training runs, 0 prices from 1 tables; no new state; 1 errors, 0 warnings; "
                   "0 data files changed"]
    assert files_of(data) == before
    assert run(capsys, src, "--data", data, "--source", "src", "--as-of", "2024-01-01")[0] == 0
    assert {r["source"] for r in rows(data, CONFIGURATIONS_FILE)} == {"src"}


def test_a_folder_of_states_of_an_unknown_source_writes_nothing(tmp_path: Path, data: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    before = files_of(data)
    src = states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT}})
    status, out, _ = run(capsys, src, "--data", data, "--source", "nowhere")
    assert status == 1
    assert out == ["sources.yaml: 'id': error: unknown source 'nowhere'; expected a source of data/sources.yaml "
                   "(add it, with its license)", "nothing written"]
    assert files_of(data) == before


def test_an_unknown_source_of_no_as_of_is_an_error_and_no_date(tmp_path: Path, data: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    before = files_of(data)
    src = snapshot(tmp_path, {ENC: ENC_TEXT.replace("gpt", "bert")})
    status, out, _ = run(capsys, src, "--data", data, "--source", "nowhere")
    assert status == 1
    assert [line.split(": error: ")[1][:14] for line in out[:-1]] == ["unknown source", "no date for th"]
    assert out[-1].endswith("; no new state; 2 errors, 0 warnings; 0 data files changed")
    assert files_of(data) == before


def test_help_names_the_command_and_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m neuron_docs.benchmark_import ")
    assert "Import the published benchmark tables into ``data/``" in " ".join(out.split())
    assert "folded in state by state" not in out  # the first line of the docstring only


def test_a_row_in_error_is_printed_and_the_exit_status_is_1(tmp_path: Path, data: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    text = ENC_TEXT.replace("gpt", "bert") + "bert,PyTorch 2.1,Inf2.xlarge,2,2.20.0,fast,9\n"
    status, out, _ = run(capsys, snapshot(tmp_path, {ENC: text}), "--data", data, "--source", "src")
    assert status == 1
    assert out[0].startswith(f"{ENC}:4: 'Throughput (inference/second)': error: ")
    assert out[-1].startswith("2 inference runs, ") and "; 1 errors, 0 warnings; " in out[-1]


def test_history_rows_that_do_not_validate_write_nothing(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[set[str]] = []

    def invalid(texts: dict[str, str]) -> list[Problem]:
        seen.append(set(texts))
        # a severity built at run time: problems compared by value, not as the code's own literal
        return [Problem(STATES_FILE, 2, "", "history row does not validate: no", "".join(["er", "ror"]))]

    monkeypatch.setattr(command, "validate_texts", invalid)
    before = files_of(data)
    status, out, _ = run(capsys, snapshot(tmp_path, {ENC: ENC_TEXT}), "--data", data, "--source", "src")
    assert status == 1
    assert out[1] == f"{STATES_FILE}:2: error: history row does not validate: no"
    assert out[-1].endswith("; 1 errors, 1 warnings; 0 data files changed")
    assert files_of(data) == before
    assert seen == [set(HISTORY_FILES)]  # the history's files only


def test_the_missing_source_of_an_import_is_refused_before_the_data_is_touched(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, tmp_path / "none", "--data", data)
    assert (status, out) == (2, [])
    assert err == f"{tmp_path / 'none'}: no such file or folder; expected a published CSV or a folder of them\n"
    assert not (data / LOCK).exists()


def test_a_second_import_while_one_writes_is_refused(tmp_path: Path, data: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    src = snapshot(tmp_path, {ENC: ENC_TEXT})
    before = files_of(data)
    with open(data / LOCK, "a+", encoding="utf-8") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("4242")
        held.flush()
        status, out, err = run(capsys, src, "--data", data, "--source", "src")
    assert (status, out) == (75, [])
    assert "another command (process 4242) is writing the data" in err
    assert files_of(data) == before


# A folder of states ----------------------------------------------------------------------------


def states(tmp_path: Path, folders: dict[str, dict[str, str]], name: str = "states") -> Path:
    for state, files in folders.items():
        for rel, text in files.items():
            put(tmp_path / name / state, rel, text)
    return tmp_path / name


def test_a_folder_of_states_is_folded_in_state_by_state(tmp_path: Path, data: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    src = states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT, PRICES: PRICES_TEXT},
                            "2024-02-01-bbbb": {ENC: ENC_TEXT.replace(",50,", ",55,"), PRICES: PRICES_TEXT}})
    status, out, err = run(capsys, src, "--data", data)
    assert (status, err) == (0, "")
    assert out == ["2024-01-01-aaaa: 2 rows, 2 placed, 4 new figures, 0 corrected, 0 superseded, 0 withdrawn",
                   "2024-02-01-bbbb: 2 rows, 2 placed, 1 new figures, 1 corrected, 0 superseded, 0 withdrawn",
                   "2 states imported (2 in the history), 2 configurations, 5 figures; 0 errors; 5 data files changed"]
    assert [r["id"] for r in rows(data, STATES_FILE)] == ["2024-01-01-aaaa", "2024-02-01-bbbb"]
    assert f"path: {ENC}" in (data / TABLES_FILE).read_text(encoding="utf-8")
    before = files_of(data)
    status, out, _ = run(capsys, src, "--data", data)
    assert status == 0
    assert out == ["0 states imported (2 in the history), 2 configurations, 5 figures; 0 errors; 0 data files changed"]
    status, out, _ = run(capsys, src, "--data", data, "--rebuild")
    assert status == 0 and out[-1].startswith("2 states imported (2 in the history)")
    assert files_of(data) == before


def test_rebuild_drops_the_states_the_folder_lacks(tmp_path: Path, data: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT}}, "one"), "--data", data)
    src = states(tmp_path, {"2024-02-01-bbbb": {ENC: ENC_TEXT}}, "two")
    assert run(capsys, src, "--data", data, "--rebuild")[0] == 0
    assert [r["id"] for r in rows(data, STATES_FILE)] == ["2024-02-01-bbbb"]
    assert run(capsys, states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT}}, "one"), "--data", data)[0] == 0
    assert [r["id"] for r in rows(data, STATES_FILE)] == ["2024-01-01-aaaa", "2024-02-01-bbbb"]


def test_a_state_in_error_is_counted_and_the_exit_status_is_1(tmp_path: Path, data: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    src = states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT + "bert,PyTorch 2.1,Inf2.xlarge,2,2.20.0,fast,9\n"}})
    status, out, _ = run(capsys, src, "--data", data)
    assert status == 1
    assert out[0].startswith(f"2024-01-01-aaaa/{ENC}:4: 'Throughput (inference/second)': error: ")
    assert out[-1] == "1 states imported (1 in the history), 2 configurations, 4 figures; 1 errors; 5 data files changed"


def test_a_state_of_warnings_only_is_no_error(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT.replace(",100,", ", 100,")}})
    status, out, _ = run(capsys, src, "--data", data)
    assert status == 0
    assert out[0].startswith(f"2024-01-01-aaaa/{ENC}: 'Throughput (inference/second)': warning: ")
    assert out[-1] == "1 states imported (1 in the history), 2 configurations, 4 figures; 0 errors; 5 data files changed"


def test_import_history_adds_the_states_the_history_lacks_and_counts_errors_by_value(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Called by its parameters' names, without ``rebuild``: the history's states are kept; problems
    read back from a pickle (their severities other objects than the code's literals) are counted."""
    run(capsys, states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT}}, "one"), "--data", data)
    real = import_states

    def pickled(*args: Any, **kw: Any) -> Any:
        history, summaries, problems = real(*args, **kw)
        return history, summaries, pickle.loads(pickle.dumps(problems))

    monkeypatch.setattr(command, "import_states", pickled)
    bad = ENC_TEXT + "bert,PyTorch 2.1,Inf2.xlarge,2,2.20.0,fast,9\n"
    src = states(tmp_path, {"2024-02-01-bbbb": {ENC: bad}}, "two")
    status = command.import_history(src=src, data_dir=data, instances=["inf2.xlarge"], frameworks=["torch-neuronx"],
                                    source="src")
    assert status == 1
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 states imported (2 in the history), ")
    assert [r["id"] for r in rows(data, STATES_FILE)] == ["2024-01-01-aaaa", "2024-02-01-bbbb"]


def test_a_folder_of_states_whose_history_does_not_validate_writes_nothing(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[set[str]] = []

    def invalid(texts: dict[str, str]) -> list[Problem]:
        seen.append(set(texts))
        return [Problem(STATES_FILE, 2, "", "no"), Problem(STATES_FILE, 3, "", "no")]

    monkeypatch.setattr(command, "validate_texts", invalid)
    before = files_of(data)
    status, out, _ = run(capsys, states(tmp_path, {"2024-01-01-aaaa": {ENC: ENC_TEXT}}), "--data", data)
    assert status == 1
    assert out == [f"{STATES_FILE}:2: error: no", f"{STATES_FILE}:3: error: no",
                   "2 history rows do not validate; nothing written"]
    assert files_of(data) == before
    assert seen == [set(HISTORY_FILES)]  # not tables.yaml


def test_a_folder_is_a_folder_of_states_only_when_it_holds_a_state_folder(
        tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = snapshot(tmp_path, {ENC: ENC_TEXT, "2024-01-01-aaaa": "a file named like a state"})
    status, out, _ = run(capsys, src, "--data", data, "--source", "src")
    assert status == 0 and out[-1].startswith("2 inference runs, 0 training runs, 0 prices from 1 tables; state ")
    assert [r["scope"] for r in rows(data, STATES_FILE)] == ["partial"]
