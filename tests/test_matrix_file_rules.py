"""The revisions of the support matrices as files (``data/checking/matrix_files.py``), on a ``matrix/``
folder written in the test (small JSON-shaped YAML revisions) and a catalog whose records are built in
the test: every reference a revision makes, the folder itself, the revisions against each other and
the latest against the frameworks. No data loaded, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

from neuron_docs.data.catalog import Broken, Catalog
from neuron_docs.data.checking.matrix_files import MATRIX_DIR, load_revisions
from neuron_docs.data.records import models as s


def revision(date: str = "2024-01-01", **changes: Any) -> dict[str, Any]:
    rev: dict[str, Any] = {
        "date": date, "commit": "abcdef0", "source": "src", "page": "p", "devices": ["d1", "d2"],
        "frameworks": ["fw"], "statuses": {"supported": {"label": "S"}, "na": {"label": "N"}},
        "fits": {"good": "Good"}, "instances": [],
        "matrices": [{"id": "m", "architecture": "Arch-A", "title": "T", "devices": ["d1", "d2"],
                      "last_update_published": "01/01/2024",
                      "columns": [{"framework": "fw", "workload": "inference", "header": "H"}],
                      "rows": [{"family": "fa", "label": "L", "categories": ["nlp"], "fit": "good",
                                "cells": {"fw/inference": "supported"}}]}]}
    return rev | changes


def matrix(rev: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``rev`` with its first matrix changed."""
    rev = copy.deepcopy(rev)
    rev["matrices"][0] |= changes
    return rev


def row(rev: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``rev`` with the first row of its first matrix changed."""
    rev = copy.deepcopy(rev)
    rev["matrices"][0]["rows"][0] |= changes
    return rev


def catalog(root: Path) -> Catalog:
    cat = Catalog(root)
    cat.records["sources"] = {"src": s.Source.model_construct(id="src")}
    cat.records["devices"] = {d: s.Device.model_construct(id=d, architecture=a, neuroncores=2)
                              for d, a in (("d1", "Arch-A"), ("d2", "Arch-A"), ("d3", "Arch-B"))}
    cat.records["frameworks"] = {
        "fw": s.Framework.model_construct(id="fw", devices=["d1", "d2"], support_matrix=True),
        "fx": s.Framework.model_construct(id="fx", devices=["d3"], support_matrix=True),
        "off": s.Framework.model_construct(id="off", devices=["d1"], support_matrix=False)}
    cat.records["families"] = {f: s.Family.model_construct(id=f) for f in ("fa", "fb")}
    cat.records["categories"] = {"nlp": s.Category.model_construct(id="nlp")}
    cat.records["instances"] = {"i1": s.Instance.model_construct(id="i1", device="d1", device_count=2)}
    cat.records["roadmap"] = {"rm": s.RoadmapItem.model_construct(id="rm")}
    return cat


def load(root: Path, *revisions: dict[str, Any], names: list[str] | None = None,
         cat: Catalog | None = None) -> Catalog:
    """``revisions`` written to ``root/matrix/`` (as ``<date>.yaml`` unless ``names`` says), then loaded."""
    (root / "matrix").mkdir(parents=True, exist_ok=True)
    for n, rev in enumerate(revisions):
        name = names[n] if names else f"{rev['date']}.yaml"
        (root / "matrix" / name).write_text(json.dumps(rev, indent=1), encoding="utf-8")
    cat = cat or catalog(root)
    load_revisions(cat)
    return cat


def said(cat: Catalog) -> list[tuple[str, str, str]]:
    return [(e.file, e.field, e.message) for e in cat.errors]


def one_error(root: Path, rev: dict[str, Any], cat: Catalog | None = None) -> tuple[str, str]:
    loaded = load(root, rev, cat=cat)
    [(file, field, message)] = said(loaded)
    assert file == f"matrix/{rev['date']}.yaml"
    [broken] = loaded.broken
    assert (broken.collection, broken.record_id, broken.file) == ("revisions", rev["date"], file)
    assert broken.line == loaded.errors[0].line and broken.line is not None
    assert loaded.matrix_revisions.revisions == []
    return field, message


# -- a revision and its references -----------------------------------------------------------------------

def test_a_revision_whose_references_hold_loads_without_a_word(tmp_path: Path) -> None:
    cat = load(tmp_path, revision())
    assert cat.errors == [] and cat.warnings == [] and cat.broken == []
    assert [r.name for r in cat.matrix_revisions.revisions] == ["2024-01-01"]
    assert len(cat.file_hashes["matrix/2024-01-01.yaml"]) == 64


def test_unknown_source_device_framework_and_roadmap_item(tmp_path: Path) -> None:
    assert one_error(tmp_path / "a", revision(source="nope")) == (
        "source", "'nope' is not a known source; expected one of: src")
    devices = revision(devices=["d1", "d2", "d9"])
    assert one_error(tmp_path / "b", devices) == ("devices[2]", "'d9' is not a known device; expected one of: d1, d2, d3")
    frameworks = revision(frameworks=["fw", "zz"])
    assert one_error(tmp_path / "c", frameworks) == (
        "frameworks[1]", "'zz' is not a known framework; expected one of: fw, fx, off")
    roadmap = revision(statuses={"supported": {"label": "S", "roadmap": "rx"}, "roadmap": {"label": "R", "roadmap": "rm"}})
    assert one_error(tmp_path / "d", roadmap) == (
        "statuses.supported.roadmap", "'rx' is not a known roadmap item; expected one of: rm")


def test_records_set_aside_are_known_and_a_whole_file_set_aside_knows_any(tmp_path: Path) -> None:
    rev = revision(devices=["d1", "d2", "d8"], source="gone")
    cat = catalog(tmp_path / "a")
    cat.broken += [Broken("devices", "d8", "devices.yaml", 3, []), Broken("sources", None, "sources.yaml", None, [])]
    assert load(tmp_path / "a", rev, cat=cat).errors == []
    other = catalog(tmp_path / "b")
    other.broken.append(Broken("devices", "d7", "devices.yaml", 3, []))
    assert [f for _, f, _ in said(load(tmp_path / "b", rev, cat=other))] == ["source", "devices[2]"]


def test_a_matrixs_devices(tmp_path: Path) -> None:
    assert one_error(tmp_path / "a", matrix(revision(), devices=["d1", "d3"])) == (
        "matrices[0].devices[1]", "'d3' is not a device of this revision; expected one of: d1, d2")
    assert one_error(tmp_path / "b", matrix(revision(devices=["d1", "d2", "d3"]), devices=["d1", "d3"])) == (
        "matrices[0].devices[1]", "expected a device of Arch-A; 'd3' is Arch-B")
    assert one_error(tmp_path / "b2", matrix(revision(devices=["d1", "d2", "d3"]), architecture="Arch-B", devices=["d3", "d1"])) == (
        "matrices[0].devices[1]", "expected a device of Arch-B; 'd1' is Arch-A")
    rev = revision()
    second = copy.deepcopy(rev["matrices"][0]) | {"id": "n", "devices": ["d2"]}
    rev["matrices"].append(second)
    assert one_error(tmp_path / "c", rev) == (
        "matrices[1].devices[0]", "'d2' is already in matrix 'm'; expected a device in one matrix")
    # a device the catalog does not have (reported at the revision's devices) is not checked again here
    unknown = catalog(tmp_path / "d")
    unknown.broken.append(Broken("devices", "d9", "devices.yaml", 3, []))
    assert load(tmp_path / "d", matrix(revision(devices=["d1", "d9"]), devices=["d1", "d9"]), cat=unknown).errors == []


def test_a_second_matrix_of_one_id(tmp_path: Path) -> None:
    rev = revision(devices=["d1", "d2", "d3"], frameworks=["fw", "fx"])
    second = copy.deepcopy(rev["matrices"][0]) | {
        "architecture": "Arch-B", "devices": ["d3"],
        "columns": [{"framework": "fx", "workload": "inference", "header": "H"}],
        "rows": [{"family": "fa", "label": "L", "categories": ["nlp"], "fit": "good", "cells": {"fx/inference": "na"}}]}
    rev["matrices"].append(second)
    assert one_error(tmp_path, rev) == ("matrices[1].id", "a second matrix 'm'; expected one matrix per id")


def test_a_matrixs_columns(tmp_path: Path) -> None:
    column = {"framework": "fx", "workload": "inference", "header": "H"}
    cells = {"fw/inference": "supported", "fx/inference": "supported"}
    rev = row(matrix(revision(), columns=[revision()["matrices"][0]["columns"][0], column]), cells=cells)
    assert said(load(tmp_path / "a", rev))[0][1:] == (
        "matrices[0].columns[1].framework", "'fx' is not a framework of this revision; expected one of: fw")
    rev["frameworks"] = ["fw", "fx"]
    assert one_error(tmp_path / "b", rev) == (
        "matrices[0].columns[1].framework", "expected a framework that runs on d1, d2 ('fx' does not)")
    off = row(matrix(revision(frameworks=["fw", "off"]), columns=[
        revision()["matrices"][0]["columns"][0], column | {"framework": "off"}]),
        cells={"fw/inference": "supported", "off/inference": "na"})
    assert one_error(tmp_path / "c", off) == (
        "matrices[0].columns[1].framework",
        "expected a framework with support-matrix columns; 'off' has support_matrix: false in frameworks.yaml")
    twice = matrix(revision(), columns=[revision()["matrices"][0]["columns"][0]] * 2)
    assert one_error(tmp_path / "d", twice) == (
        "matrices[0].columns[1]", "a second column 'fw/inference'; expected one column per framework and workload")


def test_a_column_of_a_framework_set_aside_is_not_checked_against_its_record(tmp_path: Path) -> None:
    cat = catalog(tmp_path)
    del cat.records["frameworks"]["fx"]
    cat.broken.append(Broken("frameworks", "fx", "frameworks.yaml", 3, []))
    column = {"framework": "fx", "workload": "inference", "header": "H"}
    rev = row(matrix(revision(frameworks=["fw", "fx"]), columns=[revision()["matrices"][0]["columns"][0], column]),
              cells={"fw/inference": "supported", "fx/inference": "supported"})
    assert load(tmp_path, rev, cat=cat).errors == []


def test_a_matrixs_rows(tmp_path: Path) -> None:
    assert one_error(tmp_path / "a", row(revision(), family="fz")) == (
        "matrices[0].rows[0].family", "'fz' is not a known family; expected one of: fa, fb")
    rev = revision()
    rev["matrices"][0]["rows"].append(copy.deepcopy(rev["matrices"][0]["rows"][0]))
    assert one_error(tmp_path / "b", rev) == (
        "matrices[0].rows[1].family", "expected one row per family ('fa' appears twice)")
    assert one_error(tmp_path / "c", row(revision(), categories=["nlp", "cv"])) == (
        "matrices[0].rows[0].categories[1]", "'cv' is not a known category; expected one of: nlp")
    assert one_error(tmp_path / "d", row(revision(), fit="poor")) == (
        "matrices[0].rows[0].fit", "'poor' is not a fit this revision defines; expected one of: good")


def test_a_rows_cells(tmp_path: Path) -> None:
    assert one_error(tmp_path / "a", row(revision(), cells={"fw/inference": "supported", "zz/inference": "na"})) == (
        "matrices[0].rows[0].cells.zz/inference",
        "'zz' is a cell for a framework not in this revision; expected one of: fw")
    assert one_error(tmp_path / "b", row(revision(), cells={"fw/inference": "na", "fw/training": "na"})) == (
        "matrices[0].rows[0].cells.fw/training",
        "'fw/training' is a cell for a column not in this matrix; expected one of: fw/inference")
    assert one_error(tmp_path / "c", row(revision(), cells={"fw/inference": "limited"})) == (
        "matrices[0].rows[0].cells.fw/inference.status",
        "'limited' is not a status this revision defines; expected one of: na, supported")
    assert one_error(tmp_path / "d", row(revision(), cells={})) == (
        "matrices[0].rows[0].cells", "expected a cell for every column (missing 'fw/inference')")


def test_the_instance_table(tmp_path: Path) -> None:
    good = {"instance": "i1", "label": "L", "device": "d1", "device_count": 2, "neuroncores": 4,
            "neuroncores_per_device": 2}
    assert load(tmp_path / "a", revision(instances=[good])).errors == []
    assert one_error(tmp_path / "b", revision(instances=[good | {"instance": "i9"}])) == (
        "instances[0].instance", "'i9' is not a known instance; expected one of: i1")
    assert one_error(tmp_path / "c", revision(instances=[good | {"device_count": 3, "neuroncores": 6}])) == (
        "instances[0]", "expected d1 x 2 as instances.yaml says (got d1 x 3)")
    assert one_error(tmp_path / "d", revision(instances=[good | {"device": "d2"}])) == (
        "instances[0]", "expected d1 x 2 as instances.yaml says (got d2 x 2)")
    assert one_error(tmp_path / "d2", revision(instances=[good | {"device_count": 1, "neuroncores": 2}])) == (
        "instances[0]", "expected d1 x 2 as instances.yaml says (got d1 x 1)")
    cat = catalog(tmp_path / "d3")
    cat.records["instances"]["i1"] = s.Instance.model_construct(id="i1", device="d2", device_count=2)
    assert one_error(tmp_path / "d3", revision(instances=[good]), cat=cat) == (
        "instances[0]", "expected d2 x 2 as instances.yaml says (got d1 x 2)")
    assert one_error(tmp_path / "e2", revision(instances=[good | {"neuroncores": 3}])) == (
        "instances[0].neuroncores", "expected device_count x 2 NeuronCores per d1 (got 3 = 2 x 2)")
    assert one_error(tmp_path / "f2", revision(instances=[good | {"neuroncores": 2, "neuroncores_per_device": 1}])) == (
        "instances[0].neuroncores", "expected device_count x 2 NeuronCores per d1 (got 2 = 2 x 1)")
    assert one_error(tmp_path / "e", revision(instances=[good | {"neuroncores": 5}])) == (
        "instances[0].neuroncores", "expected device_count x 2 NeuronCores per d1 (got 5 = 2 x 2)")
    assert one_error(tmp_path / "f", revision(instances=[good | {"neuroncores": 6, "neuroncores_per_device": 3}])) == (
        "instances[0].neuroncores", "expected device_count x 2 NeuronCores per d1 (got 6 = 2 x 3)")
    # a count the device's equals is accepted whatever its size
    many = catalog(tmp_path / "h")
    many.records["devices"]["d1"] = s.Device.model_construct(id="d1", architecture="Arch-A", neuroncores=1000)
    big = good | {"neuroncores": 2000, "neuroncores_per_device": 1000}
    assert load(tmp_path / "h", revision(instances=[big]), cat=many).errors == []
    # a device the catalog does not know: the row's own count is taken, only the product checked
    cat = catalog(tmp_path / "g")
    cat.records["instances"]["i2"] = s.Instance.model_construct(id="i2", device="d9", device_count=2)
    cat.broken.append(Broken("devices", "d9", "devices.yaml", 3, []))
    row9 = good | {"instance": "i2", "device": "d9", "neuroncores": 6, "neuroncores_per_device": 3}
    assert load(tmp_path / "g", revision(devices=["d1", "d2", "d9"], instances=[row9]), cat=cat).errors == []


def test_a_revision_set_aside_is_placed_at_its_first_error(tmp_path: Path) -> None:
    cat = load(tmp_path, revision(source="nope", devices=["d1", "d2", "d9"]))
    assert [e.field for e in cat.errors] == ["source", "devices[2]"]
    assert cat.errors[0].line != cat.errors[1].line
    assert cat.broken[0].line == cat.errors[0].line


def test_a_revision_that_does_not_read_or_validate_is_set_aside_with_its_errors(tmp_path: Path) -> None:
    (tmp_path / "matrix").mkdir()
    (tmp_path / "matrix" / "2024-01-02.yaml").write_text("date: [unclosed\n", encoding="utf-8")
    cat = load(tmp_path, revision(), revision("2024-01-03", commit="XYZ"))
    assert [(b.record_id, b.file) for b in cat.broken] == [("2024-01-02", "matrix/2024-01-02.yaml"),
                                                            ("2024-01-03", "matrix/2024-01-03.yaml")]
    assert all(b.errors for b in cat.broken)
    assert [e.field for e in cat.broken[1].errors] == ["commit"]
    assert [r.name for r in cat.matrix_revisions.revisions] == ["2024-01-01"]


# -- the folder ----------------------------------------------------------------------------------------

def test_the_folder_must_hold_revisions(tmp_path: Path) -> None:
    missing = catalog(tmp_path / "a")
    (tmp_path / "a").mkdir()
    load_revisions(missing)
    assert said(missing) == [("matrix/", "", "folder is missing; expected a folder of revisions named YYYY-MM-DD.yaml")]
    assert MATRIX_DIR not in missing.file_hashes
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "matrix").write_text("")
    assert said(load(tmp_path / "c", names=[])) == [
        ("matrix/", "", "holds no revision; expected a folder of revisions named YYYY-MM-DD.yaml")]
    file = catalog(tmp_path / "b")
    load_revisions(file)
    assert said(file) == [("matrix/", "", "is not a folder; expected a folder of revisions named YYYY-MM-DD.yaml")]


def test_a_folder_outside_the_data_or_a_loop_is_not_followed(tmp_path: Path) -> None:
    load(tmp_path / "elsewhere", revision())
    (tmp_path / "data").mkdir()
    os.symlink(tmp_path / "elsewhere" / "matrix", tmp_path / "data" / "matrix")
    outside = catalog(tmp_path / "data")
    load_revisions(outside)
    assert said(outside) == [("matrix/", "", "folder is a symbolic link leading outside the data folder (not "
                                            "followed); expected a folder of revisions named YYYY-MM-DD.yaml inside it")]
    assert outside.matrix_revisions.revisions == []
    (tmp_path / "loop").mkdir()
    os.symlink(tmp_path / "loop" / "matrix", tmp_path / "loop" / "matrix")
    looped = catalog(tmp_path / "loop")
    load_revisions(looped)
    assert said(looped) == [("matrix/", "", "folder cannot be resolved (a loop of symbolic links?); expected a "
                                           "folder of revisions named YYYY-MM-DD.yaml")]
    inside = catalog(tmp_path / "in")
    (tmp_path / "in" / "kept").mkdir(parents=True)
    (tmp_path / "in" / "kept" / "2024-01-01.yaml").write_text(json.dumps(revision()), encoding="utf-8")
    os.symlink(tmp_path / "in" / "kept", tmp_path / "in" / "matrix")
    load_revisions(inside)
    assert inside.errors == [] and len(inside.matrix_revisions.revisions) == 1


def test_other_files_are_warned_about_hidden_ones_ignored(tmp_path: Path) -> None:
    (tmp_path / "matrix" / "sub").mkdir(parents=True)
    (tmp_path / "matrix" / "notes.txt").write_text("")
    (tmp_path / "matrix" / ".hidden.yaml").write_text("not: [read")
    cat = load(tmp_path, revision())
    assert cat.errors == []
    assert [(w.file, w.message) for w in cat.warnings] == [
        ("matrix/notes.txt", "not read: expected a revision file named YYYY-MM-DD.yaml (or a hidden file)"),
        ("matrix/sub", "not read: expected a revision file named YYYY-MM-DD.yaml (or a hidden file)")]


def test_a_file_is_named_after_its_date_and_a_date_has_one_revision(tmp_path: Path) -> None:
    cat = load(tmp_path / "a", revision(), names=["2024-01-02.yaml"])
    assert said(cat) == [("matrix/2024-01-02.yaml", "date", "expected the file to be named 2024-01-01.yaml")]
    assert cat.errors[0].line == 2
    early = load(tmp_path / "a2", revision("2024-01-02"), names=["2024-01-01.yaml"])
    assert said(early) == [("matrix/2024-01-01.yaml", "date", "expected the file to be named 2024-01-02.yaml")]
    two = load(tmp_path / "b", revision(), revision(commit="abcdef1"), names=["2024-01-01.yaml", "2024-01-01x.yaml"])
    assert [e.message for e in two.errors] == [
        "expected the file to be named 2024-01-01.yaml",
        "expected one revision per date; matrix/2024-01-01.yaml:2 has the same date 2024-01-01"]
    assert [b.file for b in two.broken] == ["matrix/2024-01-01x.yaml"]


def test_a_revision_set_aside_does_not_hold_its_date(tmp_path: Path) -> None:
    cat = load(tmp_path, revision(source="nope"), revision(commit="abcdef1"), names=["2024-01-01.yaml", "2024-01-01x.yaml"])
    assert [(e.file, e.field) for e in cat.errors] == [("matrix/2024-01-01.yaml", "source"),
                                                       ("matrix/2024-01-01x.yaml", "date")]


# -- revisions against each other and the latest against the frameworks ----------------------------------------

def test_a_revision_that_changes_nothing_says_why_it_is_kept(tmp_path: Path) -> None:
    first, same = revision(), revision("2024-02-01")
    cat = load(tmp_path / "a", first, same)
    assert [(w.file, w.field, w.line, w.message) for w in cat.warnings] == [
        ("matrix/2024-02-01.yaml", "date", 2, "this revision changes nothing since 2024-01-01; expected a change, "
                                              "or unchanged_because saying why it is kept")]
    assert cat.errors == [] and len(cat.matrix_revisions.revisions) == 2
    assert load(tmp_path / "b", first, same | {"unchanged_because": "why"}).warnings == []
    changed = row(revision("2024-02-01", unchanged_because="why"), cells={"fw/inference": "na"})
    [warning] = load(tmp_path / "c", first, changed).warnings
    line = next(n for n, text in enumerate(json.dumps(changed, indent=1).splitlines(), 1) if "unchanged_because" in text)
    assert (warning.field, warning.line) == ("unchanged_because", line)
    assert warning.message.startswith("expected no change since 2024-01-01 (it has 1: ")
    two = row(revision("2024-02-01", unchanged_because="why"), cells={"fw/inference": "na"}, label="Other")
    loaded = load(tmp_path / "c2", first, two)
    diff = loaded.matrix_revisions.changes(loaded.matrix_revisions.revisions[1])
    assert len(diff.items) == 2 and str(diff.items[0]) != str(diff.items[-1])
    assert [w.message for w in loaded.warnings] == [f"expected no change since 2024-01-01 (it has 2: {diff.items[0]}, ...)"]
    assert load(tmp_path / "d", first, row(revision("2024-02-01"), cells={"fw/inference": "na"})).warnings == []
    three = load(tmp_path / "e", first, row(revision("2024-02-01"), cells={"fw/inference": "na"}),
                 row(revision("2024-03-01"), cells={"fw/inference": "na"}))
    assert [w.message.split(";")[0] for w in three.warnings] == ["this revision changes nothing since 2024-02-01"]


def test_a_last_update_that_is_no_date_is_kept_as_text_with_a_warning(tmp_path: Path) -> None:
    cat = load(tmp_path, matrix(revision(), last_update_published="soon"))
    assert cat.errors == []
    assert [(w.field, w.message) for w in cat.warnings] == [
        ("matrices[0].last_update_published", "expected a date written MM/DD/YYYY as published (got 'soon'); "
                                              "kept as text")]


def test_the_latest_revision_has_a_column_for_every_framework_of_its_devices(tmp_path: Path) -> None:
    cat = catalog(tmp_path / "a")
    cat.records["frameworks"]["fy"] = s.Framework.model_construct(id="fy", devices=["d2", "d1"], support_matrix=True)
    cat.records["frameworks"]["fz"] = s.Framework.model_construct(id="fz", devices=["d2"], support_matrix=True)
    loaded = load(tmp_path / "a", revision(), cat=cat)
    assert [(w.file, w.field, w.message) for w in loaded.warnings] == [
        ("matrix/2024-01-01.yaml", "matrices[0].columns",
         "expected a column for every framework that runs on d1, d2 (missing 'fy', 'fz'); or support_matrix: "
         "false for it in frameworks.yaml")]
    # only the latest revision is held to today's frameworks
    older = catalog(tmp_path / "b")
    older.records["frameworks"]["fy"] = cat.records["frameworks"]["fy"]
    rev = revision(frameworks=["fw", "fy"])
    rev = row(matrix(rev, columns=[*rev["matrices"][0]["columns"], {"framework": "fy", "workload": "inference",
                                                                     "header": "Y"}]),
              cells={"fw/inference": "supported", "fy/inference": "na"})
    assert load(tmp_path / "b", revision("2023-01-01"), rev, cat=older).warnings == []


def test_the_folders_digest_follows_every_revision(tmp_path: Path) -> None:
    first = load(tmp_path, revision(), revision("2024-02-01", unchanged_because="w")).file_hashes[MATRIX_DIR]
    again = load(tmp_path).file_hashes[MATRIX_DIR]
    assert first == again
    (tmp_path / "matrix" / "2024-02-01.yaml").write_text(
        json.dumps(revision("2024-02-01", unchanged_because="x")), encoding="utf-8")
    assert load(tmp_path).file_hashes[MATRIX_DIR] != first
    (tmp_path / "matrix" / "2024-02-01.yaml").rename(tmp_path / "matrix" / "2024-03-01.yaml")
    assert load(tmp_path).file_hashes[MATRIX_DIR] != first
