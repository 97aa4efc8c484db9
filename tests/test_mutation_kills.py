"""Tests written for the mutants ``make mutation`` left alive (``tests/MUTATION.md``): each pins a rule
of a core module that no other test exercised on data that tells the mutant from the code."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

from neuron_docs.data import Catalog
from neuron_docs.data.checking.identities import name_clashes, same_as_problems
from neuron_docs.data.figures.formatting import (NumberFormat, display_number, format_number, plain_number,
                                                 round_half_up, scientific, shown_change, shown_cost,
                                                 shown_cost_number, shown_figure, shown_measure, shown_memory,
                                                 shown_parameters, shown_price)
from neuron_docs.data.matrix.changes import Change, Changes, changes, describe
from neuron_docs.data.matrix.history import MatrixHistory, typed_date
from neuron_docs.data.records.matrix import Cell, Column, InstanceRow, Matrix, Revision, Row, StatusDefinition
from neuron_docs.data.records.models import Model
from neuron_docs.data.records.published import PublishedModel

from test_seeded_bugs import _revisions


# -- data/checking/identities.py ------------------------------------------------------------------

def _identity_catalog(published: list[PublishedModel], seeds: tuple[Model, ...] | list[Model] = ()) -> Any:
    """The little of a catalog the identity rules read: the model records, and where each is."""
    records = {"published_models": {m.id: m for m in published}, "models": {m.id: m for m in seeds}}
    return SimpleNamespace(records=records, published_models=records["published_models"], record_paths={},
                           positions={}, origin=lambda collection, record_id: (f"{collection}.yaml", 7))


def _published(record_id: str, family: str = "fam-a", same_as: str | None = None, name: str | None = None,
               aliases: tuple[str, ...] = ()) -> PublishedModel:
    return PublishedModel(id=record_id, name=name or f"Model {record_id}", family=family, same_as=same_as,
                          aliases=list(aliases))


def _seed(record_id: str, family: str = "fam-a", same_as: str | None = None, name: str | None = None,
          aliases: tuple[str, ...] = ()) -> Model:
    return Model(id=record_id, name=name or f"Model {record_id}", family=family, status="compiled",
                 same_as=same_as, aliases=list(aliases))


@pytest.mark.parametrize(("own", "target"), [("fam-a", "fam-b"), ("fam-b", "fam-a")])
def test_same_as_a_model_of_another_family_is_an_error_whichever_family_sorts_first(own: str, target: str) -> None:
    catalog = _identity_catalog([_published("base", family=target), _published("spelling", family=own, same_as="base")])
    [(field, message)] = list(same_as_problems("published_models", catalog.published_models["spelling"], catalog))
    assert field == ("family",) and f"expected {target!r}" in message
    seed = _seed("seed-spelling", family=own, same_as="base")
    assert [f for f, _m in same_as_problems("models", seed, catalog)] == [("family",)]


def test_same_as_a_model_of_its_own_family_is_no_problem() -> None:
    catalog = _identity_catalog([_published("base"), _published("spelling", same_as="base")])
    assert list(same_as_problems("published_models", catalog.published_models["spelling"], catalog)) == []
    assert list(same_as_problems("models", _seed("seed", same_as="base"), catalog)) == []


def test_a_published_model_the_same_as_itself_is_an_error_but_a_seed_of_the_same_id_is_not() -> None:
    catalog = _identity_catalog([_published("base", same_as="base")])
    [(field, message)] = list(same_as_problems("published_models", catalog.published_models["base"], catalog))
    assert field == ("same_as",) and "is the same as itself" in message
    plain = _identity_catalog([_published("base")])
    # A seed model may share its published model's id: that is the point of same_as, not a loop.
    assert list(same_as_problems("models", _seed("base", same_as="base"), plain)) == []


def test_a_same_as_chain_names_the_identity_to_point_at() -> None:
    catalog = _identity_catalog([_published("root"), _published("middle", same_as="root"),
                               _published("leaf", same_as="middle")])
    [(field, message)] = list(same_as_problems("published_models", catalog.published_models["leaf"], catalog))
    assert field == ("same_as",) and message.endswith("same_as: root")


def test_a_name_claimed_by_an_identity_that_sorts_first_still_clashes() -> None:
    """Published 'aaa' claims "Model X" first; published 'zzz' writing it too is the error (and the
    other way round): the order of the ids plays no part."""
    for first, second in (("aaa", "zzz"), ("zzz", "aaa")):
        catalog = _identity_catalog([_published(first, name="Model X"), _published(second, aliases=("model-x",))])
        [error] = name_clashes(catalog)
        assert (error.file, error.line, error.field) == ("published_models.yaml", 7, "aliases[0]")
        assert f"reads as 'Model X' of published model {first!r}" in error.message


def test_a_seed_model_is_its_own_identity_unless_it_says_same_as() -> None:
    """A seed model of the same id and name as a published model but no same_as is another model: its
    name clashes; with same_as it is the published model, and shares its names."""
    [error] = name_clashes(_identity_catalog([_published("bert")], [_seed("bert")]))
    assert error.file == "models.yaml" and "of published model 'bert'" in error.message
    assert name_clashes(_identity_catalog([_published("bert")], [_seed("bert", same_as="bert")])) == []


def test_a_name_clash_between_seed_models_names_a_model_not_a_published_model() -> None:
    [error] = name_clashes(_identity_catalog([], [_seed("first", name="ViT"), _seed("second", aliases=("vit",))]))
    assert "reads as 'ViT' of model 'first' (" in error.message


def test_an_alias_without_a_letter_or_digit_is_an_error() -> None:
    [error] = name_clashes(_identity_catalog([_published("m", aliases=("--",))]))
    assert error.field == "aliases[0]" and "has no letter or digit" in error.message


# -- data/matrix/changes.py -----------------------------------------------------------------------

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


def _as_tuples(items: list[Change]) -> set[tuple[Any, ...]]:
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
    assert not diff.is_empty() and changes(new, new).is_empty()
    assert diff.counts()["label"] == 3 and diff.counts()["cell-removed"] == 3 and sum(diff.counts().values()) == 26
    assert [c.kind for c in diff.shown()] == [c.kind for c in diff.items if c.kind != "label"]
    assert diff.matrices_touched() == {"m1", "m2"}
    labels_only = Changes(old=None, new=dt.date(2023, 1, 2), items=[c for c in diff.items if c.kind == "label"])
    assert labels_only.matrices_touched() == set() and labels_only.shown() == []


def test_a_change_in_words() -> None:
    cell = Change(kind="cell", matrix="m1", family="enc", column="pytorch/inference", old="supported",
                  new={"status": "limited", "note": "from 2.1", "link": None})
    assert describe(cell) == "Supported -> Supported with limitations (note 'from 2.1')"
    assert str(cell) == ("cell m1/enc/pytorch/inference: 'supported' -> "
                         "{'status': 'limited', 'note': 'from 2.1', 'link': None}")
    assert describe(Change(kind="fit", old="good", new="poor")) == "Good Fit -> Not a Good Fit"
    assert describe(Change(kind="cell-added", new="roadmap")) == "added: Roadmap Item"
    assert describe(Change(kind="cell-removed", old="na")) == "removed: NA"
    assert describe(Change(kind="family-added", new="enc")) == "added: enc"
    assert describe(Change(kind="categories", old=["nlp"], new=["nlp", "cv"])) == "nlp -> nlp and cv"
    assert describe(Change(kind="label", old=None, new="Title")) == "(none) -> Title"
    assert describe(Change(kind="status-definition", old={"label": "Supported"},
                           new={"label": "Supported", "definition": "works", "link": None})) == \
        "label: Supported -> label: Supported; definition: works"
    assert describe(Change(kind="cell", old={"status": "na", "note": None, "link": "roadmap"}, new="na")) == \
        "NA (link 'roadmap') -> NA"
    with pytest.raises(ValidationError):
        cell.kind = "fit"  # type: ignore[misc]


# -- data/figures/formatting.py -------------------------------------------------------------------

def test_scientific_notation_keeps_the_typed_mantissa_or_rounds_it() -> None:
    assert scientific(1.5e40) == "1.5 × 10⁴⁰"
    assert scientific(1.5e-20) == "1.5 × 10⁻²⁰"
    assert scientific(1.5e40, NumberFormat(2)) == "1.50 × 10⁴⁰"
    assert scientific(-1.5e40, NumberFormat(2)) == "-1.50 × 10⁴⁰"
    assert scientific(1.5e40, NumberFormat(None, True)) == "+1.5 × 10⁴⁰"
    assert scientific(9.994e40, NumberFormat(2)) == "9.99 × 10⁴⁰"
    assert scientific(9.999e40, NumberFormat(2)) == "1.00 × 10⁴¹"  # rounds up to the next power of ten
    assert scientific(2.0) == "2" and scientific(0.0) == "0"  # no "× 10⁰"
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite"):
            scientific(bad)


def test_only_absurd_magnitudes_are_written_in_scientific_notation() -> None:
    assert format_number(1.5e40, "USD", NumberFormat(2)) == "$1.50 × 10⁴⁰"
    assert format_number(1.5e17, "%") == "1.5 × 10¹⁷ %"
    assert format_number(1.5e17, "x") == "1.5 × 10¹⁷ x"
    assert format_number(1.5e17, "ms") == "1.5 × 10¹⁷ ms"
    assert format_number(1e21, "", NumberFormat(0)) == "1 × 10²¹"
    assert format_number(9.99e20, "", NumberFormat(0)) == "999000000000000000000"
    assert format_number(1e16, "") == "1 × 10¹⁶"
    assert format_number(999999999999999.0, "") == "999999999999999"
    assert format_number(2.5e12, "") == "2500000000000"
    assert format_number(1.5e-16, "") == "1.5e-16"  # tiny: Python's exponent form, never "× 10⁻¹⁶"


def test_plain_numbers_are_positional_down_to_1e_15() -> None:
    assert plain_number(1e-15) == "0.000000000000001"
    assert plain_number(0.000000001) == "0.000000001"
    assert plain_number(0.5) == "0.5" and plain_number(1.25) == "1.25" and plain_number(1.0) == "1"
    assert plain_number(-0.0001, NumberFormat(2)) == "0.00"  # rounds to zero: no minus sign
    assert plain_number(-0.5, NumberFormat(0)) == "-1"
    assert plain_number(0.25, NumberFormat(None, True)) == "+0.25"
    assert plain_number(0.0, NumberFormat(None, True)) == "+0"


def test_display_number_writes_nan_and_infinity() -> None:
    assert display_number(float("nan"), "ms") == "NaN ms"
    assert display_number(float("inf"), "ms") == "∞ ms"
    assert display_number(float("-inf"), "USD") == "-$∞"
    assert display_number(float("inf"), "%", NumberFormat(1, True)) == "+∞%"
    assert display_number(2.5, "ms") == "2.5 ms"
    assert shown_change(float("inf")) == "+∞%"


def test_shown_figures_costs_and_prices() -> None:
    assert shown_measure(Decimal("2674.18956433"), "inferences/s") == "2674.2 inferences/s"
    assert shown_figure(float("nan")) == "NaN" and shown_figure(Decimal("Infinity")) == "∞"
    assert shown_figure(Decimal("0")) == "0" and shown_figure(0) == "0" and shown_figure(12) == "12"
    assert shown_figure(Decimal("1.23456789")) == "1.2346"
    assert shown_figure(Decimal("0.000123456")) == "0.00012346"
    assert shown_figure(Decimal("123456.7")) == "123457"
    assert shown_cost(float("inf")) == "$∞"
    assert shown_cost(1.0) == "$1.00" and shown_cost(0.999) == "$1.00" and shown_cost(0) == "$0.00"
    assert shown_cost(-1234.5) == "-$1,234.50"
    assert shown_cost(1234.5, "USD/h") == "$1,234.50/h"
    assert shown_cost(1.5e40) == "$1.50 × 10⁴⁰"
    assert shown_cost(Decimal("0.0034")) == "$0.0034"
    assert shown_cost_number(9176.602) == "9176.60" and shown_cost_number(0.026) == "0.026"
    assert shown_price(0.7582) == "$0.7582/h" and shown_price(24.78) == "$24.78/h"


@pytest.mark.parametrize(("size", "text"), [
    (17_200_000_000, "17.2 GB"), (440_000_000, "440 MB"), (1_650_000_000_000, "1.65 TB"), (999, "999 B"),
    (0, "0 B"), (-5, "0 B"), (1000, "1 kB"), (1_005, "1.01 kB"), (1_004, "1 kB"), (9_995, "10 kB"),
    (10_000, "10 kB"), (10_050, "10.1 kB"), (99_950, "100 kB"), (100_000, "100 kB"), (100_500, "101 kB"),
    (12_345_678_901_234_567, "12346 TB")])
def test_a_memory_size_has_three_significant_digits_in_its_largest_unit(size: int, text: str) -> None:
    assert shown_memory(size) == text


def test_a_parameter_count_is_written_as_model_cards_do() -> None:
    assert [shown_parameters(n) for n in (8e9, 46.7e9, 110e6, 11.7e6, 1.5e12, 1234, 999.6, 0.4, -3)] == \
        ["8B", "46.7B", "110M", "11.7M", "1.5T", "1.23K", "1K", "0", "0"]


def test_rounding_half_up_of_ints_and_large_numbers() -> None:
    assert round_half_up(5, 0) == Decimal(5) and round_half_up(True, 0) == Decimal(1)
    assert round_half_up(2.5, 0) == Decimal(3) and round_half_up(0.125, 2) == Decimal("0.13")
    assert str(round_half_up(123456789012345678901234567890.0, 2)) == "123456789012345680000000000000.00"
    assert NumberFormat.parse("+.12f") == NumberFormat(12, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        NumberFormat(2).decimals = 3  # type: ignore[misc]


# -- data/matrix/history.py (the real data's latest revision, copied: these load the catalog, so they come last) --

def _history(catalog: Catalog, count: int = 3) -> MatrixHistory:
    revs, _ident = _revisions(catalog, [Cell(status="supported")] * count)
    return MatrixHistory.of(list(reversed(revs)))  # given newest first: the history sorts them


def test_a_revision_is_found_by_its_date_or_its_iso_text(catalog: Catalog) -> None:
    history = _history(catalog)
    assert history.dates == sorted(history.dates)
    for rev in history.revisions:
        assert history.at(rev.date) is rev
        assert history.at(rev.date.isoformat()) is rev
        assert history.at(f" {rev.date.isoformat()} ") is rev
    assert history.at(None) is history.revisions[-1] is history.latest()
    assert history.at(history.revisions[0].date - dt.timedelta(days=1)) is None
    assert history.at("not a date") is None
    assert MatrixHistory().latest() is None


def test_the_previous_revision_is_the_one_just_before(catalog: Catalog) -> None:
    history = _history(catalog, 4)
    revs = history.revisions
    assert history.previous(revs[0]) is None
    for before, rev in zip(revs, revs[1:], strict=False):
        assert history.previous(rev) is before


def test_a_typed_last_update_announces_the_revision_of_its_own_date(catalog: Catalog) -> None:
    """A typed date equal to a revision's date announces that revision (on or after it, not after);
    a date after the revision announces nothing in it; before the first: the first."""
    revs, _ident = _revisions(catalog, [Cell(status="supported")] * 3)
    typed_text = revs[1].date.strftime("%m/%d/%Y")
    revs = [r.model_copy(update={"matrices": [m.model_copy(update={"last_update_published": typed_text})
                                              for m in r.matrices]}) for r in revs]
    history = MatrixHistory.of(revs)
    first, second, third = history.revisions
    typed = {(t.revision, t.matrix): t for t in history.typed_last_updates()}
    matrix = first.matrices[0].id
    assert typed[(second.date, matrix)].announced == second.date
    assert typed[(third.date, matrix)].announced == second.date
    assert typed[(first.date, matrix)].announced is None  # announced later than the revision itself
    assert typed[(second.date, matrix)].typed_date == second.date


def test_a_typed_date_is_month_day_year() -> None:
    assert typed_date("05/06/2023") == dt.date(2023, 5, 6)
    assert typed_date(" 05/06/2023 ") == dt.date(2023, 5, 6)
    assert typed_date("2023-05-06") is None
    assert typed_date("13/40/2023") is None
    assert typed_date("5/6/2023") is None


def test_a_typed_last_update_after_every_revision_announces_none(catalog: Catalog) -> None:
    """A typed date later than the newest revision (a typo, a page dated ahead) announces no revision."""
    revs, _ident = _revisions(catalog, [Cell(status="supported")] * 2)
    typed_text = (revs[-1].date + dt.timedelta(days=3)).strftime("%m/%d/%Y")
    revs = [r.model_copy(update={"matrices": [m.model_copy(update={"last_update_published": typed_text})
                                              for m in r.matrices]}) for r in revs]
    typed = MatrixHistory.of(revs).typed_last_updates()
    assert typed and all(t.announced is None and not t.consistent for t in typed)


def test_a_typed_last_update_is_consistent_by_value_and_immutable() -> None:
    from neuron_docs.data.matrix.history import TypedLastUpdate

    day = dt.date(2023, 5, 6)
    same = TypedLastUpdate(day, "m", "05/06/2023", day, dt.date(2023, 5, 6), dt.date.fromisoformat("2023-05-06"))
    assert same.consistent  # equal dates, not the same object
    assert not dataclasses.replace(same, announced=None).consistent
    assert not dataclasses.replace(same, announced=dt.date(2023, 5, 7)).consistent
    with pytest.raises(dataclasses.FrozenInstanceError):
        same.announced = None  # type: ignore[misc]


def test_a_name_clash_names_the_model_that_claimed_the_name_first(tmp_path: Path) -> None:
    """The message says which model already has the name: ``of published model '<id>'`` (a seed
    model's: ``of model '<id>'``)."""
    import shutil

    from conftest import DATA, edit_yaml
    from neuron_docs.data import load_catalog

    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    claimed: dict[str, str] = {}

    def clash(document: dict) -> None:
        first, second = [m for m in document["published_models"] if not m.get("same_as")][:2]
        claimed.update(id=first["id"], name=first["name"])
        second.setdefault("aliases", []).append(first["name"])

    edit_yaml(data / "benchmarks/published/models.yaml", clash)
    [error] = [e for e in load_catalog(data).errors if e.file == "benchmarks/published/models.yaml"]
    assert f"reads as {claimed['name']!r} of published model {claimed['id']!r}" in error.message
