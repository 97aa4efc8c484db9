"""The revisions of the support matrices as data (no Sphinx): the seed, what is derived from the revisions, bad input.

- the 2022-10-10 revision holds exactly the seed document's facts (``tests/fixtures/seed-matrix.yaml``,
  the support data ``families.yaml`` held before the matrices moved to ``data/matrix/``);
- "since" and each matrix's "last update" are derived, and agree with the changes;
- every bad input kind is a located error (or warning), and the other revisions still load.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from neuron_docs.data import Catalog, load_catalog
from neuron_docs.data.matrix.changes import changes
from neuron_docs.data.files.yaml_reader import read_yaml
from neuron_docs.data.checking.errors import nearest_line

SEED = Path(__file__).resolve().parent / "fixtures" / "seed-matrix.yaml"


@pytest.fixture(scope="module")
def seed() -> dict[str, Any]:
    return yaml.safe_load(SEED.read_text(encoding="utf-8"))


def test_every_revision_loads_without_problems(catalog: Catalog) -> None:
    assert catalog.errors == [] and catalog.warnings == []
    files = sorted(p.stem for p in (catalog.data_dir / "matrix").glob("*.yaml"))
    assert [r.name for r in catalog.matrix_revisions.revisions] == files and len(files) >= 2


def test_first_revision_is_the_seed_document_cell_by_cell(catalog: Catalog, seed: dict[str, Any]) -> None:
    first = catalog.matrix_revisions.revisions[0]
    assert first.name == seed["date"]
    compared = 0
    for family, devices in seed["families"].items():
        for device, facts in devices.items():
            if device == "in_seed_tables":
                continue
            assert catalog.fit(family, device, first.name) == facts["fit"], (family, device)
            cells = {key.split("/")[0]: cell for key, cell in catalog.support(family, device, first.name).items()}
            assert set(cells) == set(facts["support"]), (family, device)
            for framework, want in facts["support"].items():
                want = {"status": want} if isinstance(want, str) else want
                assert cells[framework].status == want["status"], (family, device, framework)
                assert " ".join((cells[framework].annotation or "").split()) == " ".join(want.get("note", "").split())
                compared += 1
    assert compared == sum(len(d["support"]) for f in seed["families"].values() for k, d in f.items()
                           if k != "in_seed_tables")
    # Every row of the seed is there, and the rows the seed's tables missed are marked as the text's.
    rows = {(m.devices[0], r.family) for m in first.matrices for r in m.rows}
    assert rows == {(d, f) for f, devices in seed["families"].items() for d in devices if d != "in_seed_tables"}
    prose = {r.family for m in first.matrices for r in m.rows if r.published_in == "prose"}
    assert prose == {f for f, devices in seed["families"].items() if devices.get("in_seed_tables") is False}
    # The definition of "Supported", as the seed published it (the project had corrected its grammar).
    words = first.statuses["supported"].definition.replace(" is ", " ").split()
    assert words == seed["support_definition"].replace(" is ", " ").split()


def test_since_points_at_the_revision_that_set_the_value(catalog: Catalog) -> None:
    revs = catalog.matrix_revisions.revisions
    for i, rev in enumerate(revs):
        held = catalog.matrix_revisions.since(rev)
        assert set(held) == set(rev.cells())
        for (matrix, family, key), date in held.items():
            value = rev.cells()[(matrix, family, key)].published
            j = catalog.matrix_revisions.dates.index(date)
            assert all(r.cells()[(matrix, family, key)].published == value for r in revs[j:i + 1])
            before = revs[j - 1].cells().get((matrix, family, key)) if j else None
            assert before is None or before.published != value


def test_last_update_is_the_latest_revision_that_changed_the_matrix(catalog: Catalog) -> None:
    revisions = catalog.matrix_revisions
    for rev in revisions.revisions:
        derived = revisions.last_update(rev)
        assert set(derived) == {m.id for m in rev.matrices}
        for matrix, date in derived.items():
            changer = revisions.at(date)
            assert matrix in revisions.changes(changer).matrices_touched()
            later = [r for r in revisions.revisions if date < r.date <= rev.date]
            assert all(matrix not in revisions.changes(r).matrices_touched() for r in later)
            assert date >= max(d for (m, _, _), d in revisions.since(rev).items() if m == matrix)


def test_the_typed_last_update_of_2023_03_24_lags_a_cell_change(catalog: Catalog) -> None:
    """The issue's case: on 2023-03-24 the NeuronCore-v2 matrix still says 02/25/2023, but a cell
    changed after the revision that date announces; the site shows the derived date instead."""
    checks = catalog.matrix_revisions.typed_last_updates()
    case = next(c for c in checks if c.revision == dt.date(2023, 3, 24) and c.matrix == "neuroncore-v2")
    assert case.typed == "02/25/2023" and not case.consistent
    assert (case.announced, case.derived) == (dt.date(2023, 2, 26), dt.date(2023, 2, 27))


def test_changes_account_for_every_cell(catalog: Catalog) -> None:
    revs = catalog.matrix_revisions.revisions
    for old, new in zip(revs, revs[1:], strict=False):
        before = {k: c.published for k, c in old.cells().items()}
        after = {k: c.published for k, c in new.cells().items()}
        diff = catalog.matrix_revisions.changes(new).items
        assert diff == changes(old, new).items
        where = {kind: {(c.matrix, c.family, c.column) for c in diff if c.kind == kind}
                 for kind in ("cell", "cell-added", "cell-removed")}
        assert where["cell-added"] == after.keys() - before.keys()
        assert where["cell-removed"] == before.keys() - after.keys()
        assert where["cell"] == {k for k in before.keys() & after.keys() if before[k] != after[k]}


def test_catalog_api_is_the_latest_revision(catalog: Catalog) -> None:
    latest = catalog.revision()
    assert latest is catalog.matrix_revisions.revisions[-1]
    assert catalog.matrix_devices() == [d for m in latest.matrices for d in m.devices]
    for matrix in latest.matrices:
        for device in matrix.devices:
            for row in matrix.rows:
                assert catalog.fit(row.family, device) == row.fit
                assert catalog.support(row.family, device) == dict(row.cells)


# Bad input: located, and the rest still loads -------------------------------------------------------

def _copy(tmp_path: Path) -> Path:
    data = Path(__file__).resolve().parent.parent / "data"
    shutil.copytree(data, tmp_path / "data")
    return tmp_path / "data"


def _line(path: Path, *key: Any) -> int | None:
    return nearest_line(read_yaml(path.read_text(encoding="utf-8"), path.name)[1], key)


def test_a_revision_that_changes_nothing_is_a_located_warning(tmp_path: Path) -> None:
    data = _copy(tmp_path)
    newest = sorted((data / "matrix").glob("*.yaml"))[-1]
    later = dt.date.fromisoformat(newest.stem) + dt.timedelta(days=1)
    doc = yaml.safe_load(newest.read_text(encoding="utf-8"))
    doc["date"] = later
    doc.pop("unchanged_because", None)
    copy = data / "matrix" / f"{later}.yaml"
    copy.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    catalog = load_catalog(data)
    assert catalog.errors == []
    [warning] = catalog.warnings
    assert (warning.file, warning.line, warning.field) == (f"matrix/{copy.name}", _line(copy, "date"), "date")
    assert "changes nothing since" in warning.message and "expected a change" in warning.message
    assert catalog.revision().date == later  # it still loads


@pytest.mark.parametrize("bad", ["11/16/2022", "2022-11-31", "16 Nov 2022"])
def test_an_unknown_date_format_sets_only_that_revision_aside(tmp_path: Path, bad: str) -> None:
    data = _copy(tmp_path)
    path = sorted((data / "matrix").glob("*.yaml"))[1]
    path.write_text(path.read_text(encoding="utf-8").replace(f"date: {path.stem}", f"date: {bad}"), encoding="utf-8")
    catalog = load_catalog(data)
    [error] = catalog.errors
    assert (error.file, error.line, error.field) == (f"matrix/{path.name}", _line(path, "date"), "date")
    assert "expected a date written YYYY-MM-DD" in error.message
    assert path.stem not in [r.name for r in catalog.matrix_revisions.revisions]
    assert len(catalog.matrix_revisions.revisions) == len(list((data / "matrix").glob("*.yaml"))) - 1


def _frameworks_without_matrix(catalog: Catalog) -> list[str]:
    return [f.id for f in catalog.frameworks.values() if not f.support_matrix]


def test_frameworks_without_matrix_columns_have_none_in_any_revision(catalog: Catalog) -> None:
    """``support_matrix: false`` (frameworks.yaml): no column in any revision, and left out of a
    device's matrix frameworks."""
    without = _frameworks_without_matrix(catalog)
    assert without  # transformers-neuronx and neuronx-distributed
    for rev in catalog.matrix_revisions.revisions:
        assert not {c.framework for m in rev.matrices for c in m.columns} & set(without), rev.name
    for device in catalog.matrix_devices():
        assert not {f.id for f in catalog.frameworks_for(device)} & set(without)


def test_a_column_for_a_framework_without_matrix_is_a_located_error(tmp_path: Path) -> None:
    data = _copy(tmp_path)
    newest = sorted((data / "matrix").glob("*.yaml"))[-1]
    framework = _frameworks_without_matrix(load_catalog(data))[0]
    doc = yaml.safe_load(newest.read_text(encoding="utf-8"))
    doc["frameworks"].append(framework)
    matrix = next(m for m in doc["matrices"] if "trainium" in m["devices"])
    matrix["columns"].append({"framework": framework, "workload": "inference", "header": "Inference"})
    for row in matrix["rows"]:
        row["cells"][f"{framework}/inference"] = "supported"
    newest.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    catalog = load_catalog(data)
    m = doc["matrices"].index(matrix)
    [error] = catalog.errors
    path = ("matrices", m, "columns", len(matrix["columns"]) - 1, "framework")
    assert (error.file, error.line, error.field) == (f"matrix/{newest.name}", _line(newest, *path),
                                                     f"matrices[{m}].columns[{len(matrix['columns']) - 1}].framework")
    assert f"{framework!r} has support_matrix: false" in error.message
    assert newest.stem not in [r.name for r in catalog.matrix_revisions.revisions]  # set aside; the others load


def test_the_latest_revision_misses_a_column_of_a_matrix_framework_is_a_located_warning(tmp_path: Path) -> None:
    data = _copy(tmp_path)
    framework = _frameworks_without_matrix(load_catalog(data))[0]
    path = data / "frameworks.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    next(f for f in doc["frameworks"] if f["id"] == framework)["support_matrix"] = True
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    catalog = load_catalog(data)
    assert catalog.errors == []
    newest = sorted((data / "matrix").glob("*.yaml"))[-1]
    rev = catalog.revision()
    runs_on = set(catalog.frameworks[framework].devices)
    expected = [m for m, matrix in enumerate(rev.matrices) if runs_on & set(matrix.devices)]
    assert expected
    assert [(w.file, w.line, w.field) for w in catalog.warnings] == [
        (f"matrix/{newest.name}", _line(newest, "matrices", m, "columns"), f"matrices[{m}].columns") for m in expected]
    assert all(f"missing {framework!r}" in w.message for w in catalog.warnings)


def _folder_missing(data: Path, outside: Path) -> None:
    shutil.rmtree(data / "matrix")


def _folder_linked_outside(data: Path, outside: Path) -> None:
    shutil.move(data / "matrix", outside / "matrix")
    (data / "matrix").symlink_to(outside / "matrix")


def _folder_is_a_file(data: Path, outside: Path) -> None:
    shutil.rmtree(data / "matrix")
    (data / "matrix").write_text("2023-11-09\n", encoding="utf-8")


def _folder_empty(data: Path, outside: Path) -> None:
    for path in (data / "matrix").iterdir():
        path.unlink()


def _folder_loop(data: Path, outside: Path) -> None:
    shutil.rmtree(data / "matrix")
    (data / "matrix").symlink_to(data / "matrix")


@pytest.mark.parametrize(("mutate", "expected"), [
    (_folder_missing, "folder is missing"),
    (_folder_linked_outside, "symbolic link leading outside the data folder (not followed)"),
    (_folder_is_a_file, "is not a folder"),
    (_folder_empty, "holds no revision"),
    (_folder_loop, "cannot be resolved"),
], ids=["missing", "linked-outside", "a-file", "empty", "link-loop"])
def test_the_revisions_folder_itself_is_checked_before_anything_is_read(
        tmp_path: Path, mutate: Any, expected: str) -> None:
    data, outside = _copy(tmp_path), tmp_path / "outside"
    outside.mkdir()
    mutate(data, outside)
    catalog = load_catalog(data)
    [error] = catalog.errors
    assert (error.file, error.line) == ("matrix/", None)
    assert expected in error.message and "expected a folder of revisions named YYYY-MM-DD.yaml" in error.message
    assert catalog.matrix_revisions.revisions == []
    assert catalog.families and catalog.devices  # the other files still load


def test_a_file_in_the_revisions_folder_that_is_not_a_revision_is_a_warning(tmp_path: Path) -> None:
    data = _copy(tmp_path)
    newest = sorted((data / "matrix").glob("*.yaml"))[-1]
    newest.rename(data / "matrix" / f"{newest.stem}.yml")
    (data / "matrix" / ".keep").write_text("", encoding="utf-8")  # hidden files are ignored
    catalog = load_catalog(data)
    assert catalog.errors == []
    [warning] = catalog.warnings
    assert warning.file == f"matrix/{newest.stem}.yml" and "not read" in warning.message
    assert newest.stem not in [r.name for r in catalog.matrix_revisions.revisions]
