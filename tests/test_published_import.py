"""The published-benchmark import: every published file round-trips, the data files are the import's,
and every kind of bad input is a located error while the rest loads.

The published folder is the snapshot in ``/work/shared/external/neuron-sdk/benchmarks`` (or
``$NEURON_PUBLISHED_BENCHMARKS``); the tests that read it are skipped where it is absent.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from pydantic import ValidationError

from neuron_docs.data import load_catalog
from neuron_docs.data.published import columns as C
from neuron_docs.data.records import published as s
from neuron_docs.data.records.labels import METRICS, THROUGHPUT_FIELDS
from neuron_docs.benchmark_import.command import main
from neuron_docs.benchmark_import.export import WRITTEN_FILES, export_published, write_data
from neuron_docs.benchmark_import.history_rows import IDENTITY, identity
from neuron_docs.benchmark_import.read import PAGES
from neuron_docs.benchmark_import.tables import import_published
from neuron_docs.data.records.history import version_key
from neuron_docs.data.figures.derived import Derived

from helpers.paths import DATA

SRC = Path(os.environ.get("NEURON_PUBLISHED_BENCHMARKS", "/work/shared/external/neuron-sdk/benchmarks"))
pytestmark = pytest.mark.skipif(not SRC.is_dir(), reason="the published benchmark snapshot is not here")
AS_OF = "2026-08-21"
FILES = sorted(p.relative_to(SRC).as_posix() for p in SRC.rglob("*.csv")) if SRC.is_dir() else []
_CATALOG = load_catalog(DATA)
INSTANCES = list(_CATALOG.instances)
FRAMEWORKS = list(_CATALOG.frameworks)


def run_import(path: Path, **kw):
    kw.setdefault("as_of", AS_OF)
    return import_published(path, kw.pop("instances", INSTANCES), kw.pop("frameworks", FRAMEWORKS), **kw)


def cells(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row]


@pytest.fixture(scope="module")
def real():
    return run_import(SRC)


def test_every_published_file_is_found():
    assert len(FILES) == len(list(SRC.rglob("*.csv"))) > 0


# Round trip ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", FILES)
def test_export_reproduces_every_published_cell(rel, tmp_path):
    result = run_import(SRC / rel, root=SRC)
    assert not result.errors, [str(p) for p in result.errors]
    export_published(result.records, result.tables, tmp_path)
    published = (SRC / rel).read_bytes()
    exported = (tmp_path / rel).read_bytes()
    assert cells(exported.decode()) == cells(published.decode())
    # The same with pandas reading every cell as a string.
    opts = dict(dtype=str, keep_default_na=False)
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / rel, **opts), pd.read_csv(SRC / rel, **opts))
    assert exported == published  # even byte for byte: line ends, quoting and final newlines


@pytest.mark.parametrize("rel", FILES)
def test_every_row_is_loaded(rel, real):
    table = next(t for t in real.tables if t.path == rel)
    assert len(real.loaded(table.id)) == real.rows_read[rel] == len(cells((SRC / rel).read_text())) - 1


def test_round_trip_through_the_data_files(tmp_path):
    """The runs the catalog derives from the benchmark history (its latest state) export back to every
    file a page reads, byte for byte; a file no page reads (a stale copy the folder keeps after a split
    or rename) comes back without the rows whose configurations a page's file publishes, and without
    nothing else."""
    catalog = load_catalog(DATA)
    assert not [e for e in catalog.errors if "published" in e.file or e.file == "prices.yaml"]
    records = [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values(),
               *catalog.prices.values()]
    export_published(records, catalog.published_tables.values(), tmp_path / "out")
    tables = {t.path: t for t in catalog.published_tables.values()}
    same = [rel for rel in FILES if (tmp_path / "out" / rel).is_file()
            and (tmp_path / "out" / rel).read_bytes() == (SRC / rel).read_bytes()]
    assert {rel for rel in FILES if PAGES.get(rel)} <= set(same)
    assert len(same) == len(FILES) - 4  # inf1/data.csv, inf2/{latency,throughput}_data_vision.csv, trn1_trn1n_nlp
    read = run_import(SRC)
    at = {(t.path, read.lines[r.id]): (r, t) for t in read.tables for r in read.loaded(t.id)}
    derived = {}
    for run in [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values()]:
        table = catalog.published_tables[run.table]
        derived[json.dumps(identity(run, table.generation, table.path), sort_keys=True)] = table.path
    known: dict[str, set[str]] = {}  # every identity a configuration of the history has had
    for config in catalog.benchmark_configurations.values():
        current = {k: v for k, v in config.model_dump(mode="json").items()
                   if k in ("generation", "kind", "view", *IDENTITY[config.kind]) and v is not None}
        for ident in (current, *config.identities.values()):
            known.setdefault(json.dumps({k: str(v) for k, v in ident.items()}, sort_keys=True), set()).add(config.id)
    for rel in sorted(set(FILES) - set(same)):
        published = (SRC / rel).read_text(encoding="utf-8-sig")
        exported = (tmp_path / "out" / rel).read_text(encoding="utf-8") if rel in tables else ""
        kept = cells(exported)[1:]
        rows = cells(published)[1:]
        assert [row for row in rows if row in kept] == kept, rel  # in the published order
        left_out = [i + 2 for i, row in enumerate(rows) if row not in kept]
        assert left_out, rel
        for line in left_out:  # each a configuration another file, fresher, publishes, or an older release
            run, table = at[(rel, line)]  # of one (a stale copy the history has newer figures of)
            key = json.dumps(identity(run, table.generation, rel), sort_keys=True)
            newer = [o.neuron_version for o in catalog.benchmark_observations.values()
                     if o.configuration in known.get(key, ())
                     and version_key(o.neuron_version) > version_key(run.neuron_version)]
            assert derived.get(key) not in (None, rel) or newer, (rel, line)


def test_importing_twice_changes_nothing(tmp_path, real):
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    placed = {r.table for r in [*_CATALOG.published_inference_runs.values(),
                                *_CATALOG.published_training_runs.values()]}
    # data/'s table layouts and prices are what the import of the snapshot writes
    assert write_data(real, target, placed) == []
    for name in WRITTEN_FILES:
        assert (target / name).read_bytes() == (DATA / name).read_bytes(), name
    assert write_data(run_import(SRC), target, placed) == []


def test_command_line_folds_the_snapshot_in_once(tmp_path, capsys):
    """The snapshot (the latest state's files but the trn1 inference tables) folds in as a partial
    state: it changes no figure and withdraws nothing (the trn1 inference configurations stay, their
    files not in it); importing it again changes nothing."""
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    assert main([str(SRC), "--data", str(target)]) == 0
    out = capsys.readouterr().out
    assert "0 errors" in out and "0 new figures, 0 corrected, 0 superseded, 0 withdrawn" in out
    before, after = load_catalog(DATA), load_catalog(target)
    assert after.errors == []
    assert after.published_inference_runs == before.published_inference_runs
    assert after.published_training_runs == before.published_training_runs
    [new] = [s for s in after.benchmark_states if s not in before.benchmark_states]
    state = after.benchmark_states[new]
    assert (state.scope, state.date.isoformat()) == ("partial", "2026-08-21")
    assert {c.id for c in after.benchmark_configurations.values() if c.withdrawn is None} \
        == {c.id for c in before.benchmark_configurations.values() if c.withdrawn is None}
    assert main([str(SRC), "--data", str(target)]) == 0
    assert "0 data files changed" in capsys.readouterr().out


# The real files --------------------------------------------------------------------------------


def test_real_files_load_without_errors(real):
    assert real.errors == []
    assert len(real.inference_runs) + len(real.training_runs) + len(real.prices) == sum(real.rows_read.values())
    assert all(p.line is not None or p.severity == "warning" for p in real.problems)


def test_real_oddities_are_reported(real):
    messages = [str(p) for p in real.warnings]
    assert any("literal double quotes" in m for m in messages)
    assert any("TP x DP x PP" in m for m in messages)
    assert any("surrounding spaces" in m for m in messages)


def test_units_and_cost_basis(real):
    by_table = {t.id: t for t in real.tables}
    bases = {(by_table[r.table].category, r.cost_basis) for r in [*real.inference_runs, *real.training_runs]}
    assert ("decoder", "1M output tokens") in bases
    assert ("encoder_decoder", "1M tokens") in bases
    assert ("vision_cnn", "1M images") in bases
    assert ("encoder", "1M inferences") in bases
    assert any(basis == "1M training sequences" for _, basis in bases)
    assert all(r.cost_basis is not None for r in real.records if not isinstance(r, s.InstancePrice))


def test_cost_matches_the_published_page_formula(catalog):
    """The inf2 page: ((1e6 / throughput) * (RI-Effective hourly rate / 3.6e3)).map('${:,.3f}'.format)."""
    df = pd.read_csv(SRC / "inf2/throughput_data_encoder.csv")
    prices = pd.read_csv(SRC / "inf2/inf2_instance_prices.csv")
    df = pd.merge(df, prices, on="Inst. Type")
    page = ((1.0e6 / df["Throughput (inference/second)"]) * (df["RI-Effective hourly rate"] / 3.6e3)).map(
        "${:,.3f}".format).tolist()
    runs = [r for r in catalog.published_inference_runs.values() if r.table == "inf2-throughput-data-encoder"]
    ours, derived = [], Derived(catalog)
    for run in runs:
        cost = derived.published_cost(run)
        assert cost is not None and cost.per == "1M inferences" and cost.price.basis == "reserved-effective"
        ours.append(f"${cost.usd:,.3f}")
    assert ours == page


def test_every_column_is_mapped_and_its_files_are_noted():
    used: dict[str, set[str]] = {}
    for rel in FILES:
        header = next(csv.reader(io.StringIO((SRC / rel).read_text(encoding="utf-8-sig"))))
        kind = "prices" if "RI-Effective hourly rate" in header else "runs"
        for name in header:
            column = C.lookup(name, "prices" if kind == "prices" else "inference")
            assert column is not None, (rel, name)
            used.setdefault((name.strip(), kind), set()).add(rel)
    for (name, kind), files in used.items():
        table = C.PRICE_COLUMNS if kind == "prices" else C.RUN_COLUMNS
        assert set(table[name].files) >= files, name


def test_every_metric_field_is_in_the_metric_table():
    for model in (s.PublishedInferenceRun, s.PublishedTrainingRun):
        for name, info in model.model_fields.items():
            if "Figure" in str(info.metadata) or name.endswith(("_ms", "_per_s", "_percent", "_tflop")):
                assert name in METRICS, name
    for name in THROUGHPUT_FIELDS:
        assert name in METRICS


def test_topology_parsing():
    assert s.parse_topology("TP=32 DP=32 PP=1 ZeRO-1") == {"tp_degree": 32, "dp_degree": 32, "pp_degree": 1,
                                                           "zero_stage": 1}
    assert s.parse_topology("TP=8 DP=64") == {"tp_degree": 8, "dp_degree": 64, "pp_degree": 1}
    assert s.parse_topology("[32xNC(DP)] x 16Nodes(DP)") == {"tp_degree": 1, "dp_degree": 512, "pp_degree": 1}
    with pytest.raises(ValueError):
        s.parse_topology("lots of cores")


# Prices ----------------------------------------------------------------------------------------


def test_price_needs_basis_and_date():
    good = dict(id="inf2.xlarge-od", instance="inf2.xlarge", usd_per_hour="0.7582", basis="on-demand",
                source="aws-pricing", as_of="2023-08-01")
    assert s.InstancePrice.model_validate(good).usd_per_hour == Decimal("0.7582")
    for missing in ("basis", "as_of"):
        with pytest.raises(ValidationError) as exc:
            s.InstancePrice.model_validate({k: v for k, v in good.items() if k != missing})
        assert exc.value.errors()[0]["loc"] == (missing,)
    with pytest.raises(ValidationError):
        s.InstancePrice.model_validate({**good, "basis": "spot"})
    with pytest.raises(ValidationError):
        s.InstancePrice.model_validate({**good, "term": "3-year"})  # a term only for reserved prices


def test_price_file_without_date_is_a_located_error(tmp_path):
    result = run_import(SRC / "inf2/inf2_instance_prices.csv", root=SRC, as_of=None)
    assert result.prices == []
    assert [(p.file, p.line, p.column) for p in result.errors] == [
        ("inf2/inf2_instance_prices.csv", line, "as_of") for line in (2, 3, 4, 5)]


# Bad input -------------------------------------------------------------------------------------


def edited(tmp_path: Path, rel: str, edit) -> Path:
    """A copy of a published file (under its generation folder) with ``edit(lines) -> lines`` applied."""
    lines = (SRC / rel).read_text().splitlines()
    target = tmp_path / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(edit(lines)) + "\n")
    return target


def replace_cell(line: str, old: str, new: str) -> str:
    assert old in line
    return line.replace(old, new, 1)


ENC = "inf2/throughput_data_encoder.csv"  # 8 rows, lines 2-9


def only(result, severity="error"):
    found = [p for p in result.problems if p.severity == severity]
    assert len(found) == 1, [str(p) for p in found]
    return found[0]


def test_non_number(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [*ls[:2], replace_cell(ls[2], "2674.18956433", "fast"), *ls[3:]])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert (problem.file, problem.line, problem.column) == (ENC, 3, "Throughput (inference/second)")
    assert "number" in problem.message and "'fast'" in problem.message
    assert len(result.inference_runs) == 7


def test_empty_required_cell(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [*ls[:4], replace_cell(ls[4], "Inf2.xlarge", ""), *ls[5:]])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert (problem.line, problem.column) == (5, "Inst. Type") and "required" in problem.message
    assert len(result.inference_runs) == 7


def test_unknown_column_is_named_and_the_rest_loads(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [ls[0] + ",Power (W)", *[line + ",75" for line in ls[1:]]])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert (problem.line, problem.column) == (1, "Power (W)") and "unknown column" in problem.message
    assert len(result.inference_runs) == 8
    # Nothing dropped: the unknown column's cells are kept and exported again.
    export_published(result.records, result.tables, tmp_path / "out")
    assert cells((tmp_path / "out" / ENC).read_text()) == cells(path.read_text())


def test_two_unknown_columns_are_both_named(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [ls[0] + ",Foo,Bar", *[line + ",1,2" for line in ls[1:]]])
    result = run_import(path, root=tmp_path)
    assert sorted(p.column for p in result.errors) == ["Bar", "Foo"]
    assert len(result.inference_runs) == 8


def test_unknown_framework(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [*ls[:3], replace_cell(ls[3], "PyTorch 2.5", "JAX 0.4"), *ls[4:]])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert (problem.line, problem.column) == (4, "Framework") and "framework" in problem.message
    assert len(result.inference_runs) == 7


def test_framework_missing_from_frameworks_yaml(tmp_path):
    rel = "inf2/throughput_data_encoder_decoder.csv"
    frameworks = [f for f in FRAMEWORKS if f != "neuronx-distributed"]
    result = run_import(SRC / rel, root=SRC, frameworks=frameworks)
    assert [(p.line, p.column) for p in result.errors] == [(2, "Framework"), (3, "Framework")]
    assert all("neuronx-distributed" in p.message for p in result.errors)


def test_unknown_instance(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [*ls[:5], replace_cell(ls[5], "Inf2.xlarge", "Inf9.xlarge"), *ls[6:]])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert (problem.line, problem.column) == (6, "Inst. Type") and "inf9.xlarge" in problem.message
    assert len(result.inference_runs) == 7


def test_same_configuration_twice(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [*ls, replace_cell(ls[2], "2674.18956433", "2600")])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert problem.line == 10 and "line 3" in problem.message
    assert len(result.inference_runs) == 8


def test_price_row_without_matching_instance(tmp_path):
    rel = "inf2/inf2_instance_prices.csv"
    path = edited(tmp_path, rel, lambda ls: [*ls, "Inf2.96xlarge,9.999"])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert (problem.file, problem.line, problem.column) == (rel, 6, "Inst. Type")
    assert "inf2.96xlarge" in problem.message
    assert len(result.prices) == 4


def test_ragged_row(tmp_path):
    path = edited(tmp_path, ENC, lambda ls: [*ls[:6], ls[6] + ",extra", *ls[7:]])
    result = run_import(path, root=tmp_path)
    problem = only(result)
    assert problem.line == 7 and "fields" in problem.message
    assert len(result.inference_runs) == 7


def test_bad_training_topology_and_several_problems_in_one_folder(tmp_path):
    edited(tmp_path, "trn1/training_data_decoder.csv",
           lambda ls: [ls[0], replace_cell(ls[1], "TP=32 DP=32 PP=1 ZeRO-1", "lots of cores"), ls[2]])
    edited(tmp_path, ENC, lambda ls: [*ls[:2], replace_cell(ls[2], "2674.18956433", "n/a"), *ls[3:]])
    result = run_import(tmp_path)
    assert [(p.file, p.line, p.column) for p in result.errors] == [
        (ENC, 3, "Throughput (inference/second)"), ("trn1/training_data_decoder.csv", 2, "Topology")]
    assert len(result.training_runs) == 1 and len(result.inference_runs) == 7
