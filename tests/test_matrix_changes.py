"""What changed between two revisions of the support matrices (:mod:`neuron_docs.data.matrix.changes`),
on revisions built here: every kind of change found once, counted, shown, described. Written for the
mutants ``make mutation`` left alive (``tests/MUTATION.md``); light (no catalog, no Sphinx), so that
``make mutation`` runs it without the shared fixtures (``--noconftest``)."""

from __future__ import annotations

import datetime as dt
import json
import pickle
from typing import Any, TypeVar

import pytest
from pydantic import ValidationError

from neuron_docs.data.matrix.changes import MatrixChange, Changes, changes, describe
from neuron_docs.data.records.matrix import Cell, Column, InstanceRow, Matrix, Revision, Row, StatusDefinition


def _column(framework: str, workload: str = "inference") -> Column:
    return Column(framework=framework, workload=workload, header=f"{framework} {workload}")


def _row(family: str, cells: dict[str, Cell], **fields: Any) -> Row:
    return Row(**{"family": family, "label": family.title(), "categories": ["nlp"], "fit": "good", "cells": cells,
                  **fields})


def _matrix(matrix_id: str, columns: list[Column], rows: list[Row], **fields: Any) -> Matrix:
    return Matrix(**{"id": matrix_id, "architecture": "NeuronCore", "title": f"Matrix {matrix_id}",
                     "devices": ["inf1"], "last_update_published": "01/02/2023", "columns": columns, "rows": rows,
                     **fields})


def _matrix_revision(day: int, matrices: list[Matrix], **fields: Any) -> Revision:
    return Revision(**{"date": dt.date(2023, 1, day), "commit": "abcdef1", "source": "src", "page": "page",
                       "devices": ["inf1"], "frameworks": ["pytorch"],
                       "statuses": {"supported": StatusDefinition(label="Supported")}, "fits": {"good": "Good Fit"},
                       "matrices": matrices, **fields})


def _instance(instance: str) -> InstanceRow:
    return InstanceRow(instance=instance, label=instance, device="inf1", device_count=1, neuroncores=4,
                       neuroncores_per_device=4)


def _as_tuples(items: list[MatrixChange]) -> set[tuple[Any, ...]]:
    return {(c.kind, c.matrix, c.family, c.column, c.subject, json.dumps(c.old), json.dumps(c.new)) for c in items}


def test_the_first_revision_adds_everything() -> None:
    first = _matrix_revision(1, [_matrix("m1", [_column("pytorch")], [_row("enc", {"pytorch/inference": Cell(status="supported")})])],
                             instances=[_instance("inf1.xlarge")])
    diff = changes(None, first)
    assert (diff.old, diff.new) == (None, dt.date(2023, 1, 1))
    assert _as_tuples(diff.items) == {
        ("matrix-added", "m1", None, None, "Matrix m1", "null", '"Matrix m1"'),
        ("cell-added", "m1", "enc", "pytorch/inference", None, "null", '"supported"'),
        ("device-added", None, None, None, "inf1", "null", '"inf1"'),
        ("instance-added", None, None, None, "inf1.xlarge", "null", '"inf1.xlarge"'),
        ("status-definition", None, None, None, "supported", "null", '{"label": "Supported"}')}


def test_every_kind_of_change_between_two_revisions_is_found_once() -> None:
    pt, tf, jx = _column("pytorch"), _column("tensorflow"), _column("jax")
    old = _matrix_revision(1, [
        _matrix("m1", [pt, tf], [
            _row("enc", {"pytorch/inference": Cell(status="supported"), "tensorflow/inference": Cell(status="na")}),
            _row("dec", {"pytorch/inference": Cell(status="roadmap")}, fit="poor", categories=["nlp"],
                 published_in="prose", label="Decoders"),
            _row("gone", {"pytorch/inference": Cell(status="supported")})],
            devices=["inf1", "trn1"]),
        _matrix("m2", [pt], [_row("vis", {"pytorch/inference": Cell(status="limited")})])],
        instances=[_instance("inf1.xlarge")], devices=["inf1", "trn1"],
        statuses={"supported": StatusDefinition(label="Supported"), "na": StatusDefinition(label="NA")})
    new = _matrix_revision(2, [
        _matrix("m1", [pt.model_copy(update={"header": "PyTorch (inference)"}), jx], [
            _row("enc", {"pytorch/inference": Cell(status="supported", note="from 2.1"),
                         "jax/inference": Cell(status="limited")}),
            _row("dec", {"pytorch/inference": Cell(status="roadmap")}, fit="limited", categories=["nlp", "cv"],
                 published_in="table", label="Decoder models"),
            _row("new", {"pytorch/inference": Cell(status="roadmap")})],
            devices=["inf1", "inf2"], title="Matrix one")],
        instances=[_instance("inf2.xlarge")], devices=["inf1", "inf2"],
        statuses={"supported": StatusDefinition(label="Supported", definition="works"), "roadmap": StatusDefinition(label="Roadmap")})
    diff = changes(old, new)
    assert (diff.old, diff.new) == (dt.date(2023, 1, 1), dt.date(2023, 1, 2))
    note = '{"status": "supported", "note": "from 2.1", "link": null}'
    expected = {
        ("device-added", "m1", None, None, "inf2", "null", '"inf2"'),
        ("device-removed", "m1", None, None, "trn1", '"trn1"', "null"),
        ("column-added", "m1", None, "jax/inference", None, "null", '"jax/inference"'),
        ("column-removed", "m1", None, "tensorflow/inference", None, '"tensorflow/inference"', "null"),
        ("family-added", "m1", "new", None, None, "null", '"new"'),
        ("family-removed", "m1", "gone", None, None, '"gone"', "null"),
        ("label", "m1", None, "pytorch/inference", None, '"pytorch inference"', '"PyTorch (inference)"'),
        ("label", "m1", None, None, "title", '"Matrix m1"', '"Matrix one"'),
        ("cell", "m1", "enc", "pytorch/inference", None, '"supported"', note),
        ("cell-added", "m1", "enc", "jax/inference", None, "null", '"limited"'),
        ("cell-removed", "m1", "enc", "tensorflow/inference", None, '"na"', "null"),
        ("fit", "m1", "dec", None, None, '"poor"', '"limited"'),
        ("categories", "m1", "dec", None, None, '["nlp"]', '["nlp", "cv"]'),
        ("row-published", "m1", "dec", None, None, '"prose"', '"table"'),
        ("label", "m1", "dec", None, None, '"Decoders"', '"Decoder models"'),
        ("cell-added", "m1", "new", "pytorch/inference", None, "null", '"roadmap"'),
        ("cell-removed", "m1", "gone", "pytorch/inference", None, '"supported"', "null"),
        ("matrix-removed", "m2", None, None, "Matrix m2", '"Matrix m2"', "null"),
        ("cell-removed", "m2", "vis", "pytorch/inference", None, '"limited"', "null"),
        ("device-added", None, None, None, "inf2", "null", '"inf2"'),
        ("device-removed", None, None, None, "trn1", '"trn1"', "null"),
        ("instance-added", None, None, None, "inf2.xlarge", "null", '"inf2.xlarge"'),
        ("instance-removed", None, None, None, "inf1.xlarge", '"inf1.xlarge"', "null"),
        ("status-definition", None, None, None, "supported", '{"label": "Supported"}',
         '{"label": "Supported", "definition": "works"}'),
        ("status-definition", None, None, None, "na", '{"label": "NA"}', "null"),
        ("status-definition", None, None, None, "roadmap", "null", '{"label": "Roadmap"}')}
    assert _as_tuples(diff.items) == expected and len(diff.items) == len(expected)
    # Backwards, every change is there mirrored: a change is found whichever way its values sort.
    mirrored = {(kind.replace("-added", "-ADDED").replace("-removed", "-added").replace("-ADDED", "-removed"),
                 matrix, family, column, subject, new_value, old_value)
                for kind, matrix, family, column, subject, old_value, new_value in expected}
    assert _as_tuples(changes(new, old).items) == mirrored
    assert not diff.is_empty() and changes(new, new).is_empty()
    assert diff.counts()["label"] == 3 and diff.counts()["cell-removed"] == 3 and sum(diff.counts().values()) == 26
    assert [c.kind for c in diff.shown()] == [c.kind for c in diff.items if c.kind != "label"]
    assert diff.matrices_touched() == {"m1", "m2"}
    labels_only = Changes(old=None, new=dt.date(2023, 1, 2), items=[c for c in diff.items if c.kind == "label"])
    assert labels_only.matrices_touched() == set() and labels_only.shown() == []


def test_a_change_in_words() -> None:
    cell = MatrixChange(kind="cell", matrix="m1", family="enc", column="pytorch/inference", old="supported",
                  new={"status": "limited", "note": "from 2.1", "link": None})
    assert describe(cell) == "Supported -> Supported with limitations (note 'from 2.1')"
    assert str(cell) == ("cell m1/enc/pytorch/inference: 'supported' -> "
                         "{'status': 'limited', 'note': 'from 2.1', 'link': None}")
    assert describe(MatrixChange(kind="fit", old="good", new="poor")) == "Good Fit -> Not a Good Fit"
    assert describe(MatrixChange(kind="cell-added", new="roadmap")) == "added: Roadmap Item"
    assert describe(MatrixChange(kind="cell-removed", old="na")) == "removed: NA"
    assert describe(MatrixChange(kind="family-added", new="enc")) == "added: enc"
    assert describe(MatrixChange(kind="categories", old=["nlp"], new=["nlp", "cv"])) == "nlp -> nlp and cv"
    assert describe(MatrixChange(kind="label", old=None, new="Title")) == "(none) -> Title"
    assert describe(MatrixChange(kind="label", old="good", new="limited")) == "good -> limited"  # a label, not a fit
    assert describe(MatrixChange(kind="status-definition", old={"label": "Supported"},
                           new={"label": "Supported", "definition": "works", "link": None})) == \
        "label: Supported -> label: Supported; definition: works"
    assert describe(MatrixChange(kind="cell", old={"status": "na", "note": None, "link": "roadmap"}, new="na")) == \
        "NA (link 'roadmap') -> NA"
    with pytest.raises(ValidationError):
        cell.kind = "fit"  # type: ignore[misc]


def test_a_category_dropped_is_a_change_too() -> None:
    """Lists compare in both directions: a row that loses a category changed as much as one that gains it."""
    # Each revision built apart, as two files are read: equal texts, never the same objects.
    wide = _matrix_revision(1, [_matrix("m1", [_column("pytorch")], [
        _row("enc", {"pytorch/inference": Cell(status="supported")}, categories=["nlp", "cv"])])])
    narrow = _matrix_revision(2, [_matrix("m1", [_column("pytorch")], [
        _row("enc", {"pytorch/inference": Cell(status="supported")}, categories=["nlp"])])])
    assert _as_tuples(changes(wide, narrow).items) == {("categories", "m1", "enc", None, None, '["nlp", "cv"]', '["nlp"]')}
    assert _as_tuples(changes(narrow, wide).items) == {("categories", "m1", "enc", None, None, '["nlp"]', '["nlp", "cv"]')}


T = TypeVar("T")


def _read_back(value: T) -> T:
    """``value`` as the build's cache gives it back (``data/dataset.py`` pickles the catalog, its
    revisions and their changes with it): equal texts, none of them the code's literal objects."""
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))  # type: ignore[no-any-return]


def test_changes_read_back_from_the_cache_are_shown_and_described_by_value() -> None:
    made = Changes(old=None, new=dt.date(2023, 1, 2), items=[
        MatrixChange(kind="label", matrix="m1", subject="title", old="Matrix m1", new="Matrix one"),
        MatrixChange(kind="fit", matrix="m1", family="dec", old="good", new="poor"),
        MatrixChange(kind="cell", matrix="m1", family="enc", old={"status": "na", "note": "later", "link": None},
                     new="na")])
    diff = _read_back(made)
    label = made.items[0].kind  # the code's literal, as pydantic keeps it
    assert diff.items[0].kind == label and diff.items[0].kind is not label  # the premise
    assert [c.kind for c in diff.shown()] == ["fit", "cell"]  # a label is no change a reader sees
    assert describe(diff.items[1]) == "Good Fit -> Not a Good Fit"  # a fit in the pages' words
    assert describe(diff.items[2]) == "NA (note 'later') -> NA"  # the status said once, not as an extra


def test_revisions_read_back_apart_compare_their_rows_by_value() -> None:
    """A preview's base and head come from two catalogs (each maybe from its own cache entry): equal
    fits and places of publication are no change, though they are not the same objects."""
    def revision(day: int) -> Revision:
        return _matrix_revision(day, [_matrix("m1", [_column("pytorch")], [
            _row("enc", {"pytorch/inference": Cell(status="supported")}, fit="poor", published_in="prose")])])
    old, new = _read_back(revision(1)), _read_back(revision(2))
    assert old.matrices[0].rows[0].fit is not new.matrices[0].rows[0].fit  # the premise
    assert changes(old, new).is_empty()
