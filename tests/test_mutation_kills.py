"""Tests written for the mutants ``make mutation`` left alive (``tests/MUTATION.md``): each pins a rule
of a core module that no other test exercised on data that tells the mutant from the code."""

from __future__ import annotations

import datetime as dt

from neuron_docs.data import Catalog
from neuron_docs.data.matrix.revisions import MatrixRevisions, typed_date
from neuron_docs.data.records.matrix import Cell

from test_seeded_bugs import _revisions


def _matrix_revisions(catalog: Catalog, count: int = 3) -> MatrixRevisions:
    revs, _ident = _revisions(catalog, [Cell(status="supported")] * count)
    return MatrixRevisions.of(list(reversed(revs)))  # given newest first: MatrixRevisions.of sorts them


def test_a_revision_is_found_by_its_date_or_its_iso_text(catalog: Catalog) -> None:
    revisions = _matrix_revisions(catalog)
    assert revisions.dates == sorted(revisions.dates)
    for rev in revisions.revisions:
        assert revisions.at(rev.date) is rev
        assert revisions.at(rev.date.isoformat()) is rev
        assert revisions.at(f" {rev.date.isoformat()} ") is rev
    assert revisions.at(None) is revisions.revisions[-1] is revisions.latest()
    assert revisions.at(revisions.revisions[0].date - dt.timedelta(days=1)) is None
    assert revisions.at("not a date") is None
    assert MatrixRevisions().latest() is None


def test_the_previous_revision_is_the_one_just_before(catalog: Catalog) -> None:
    revisions = _matrix_revisions(catalog, 4)
    revs = revisions.revisions
    assert revisions.previous(revs[0]) is None
    for before, rev in zip(revs, revs[1:], strict=False):
        assert revisions.previous(rev) is before


def test_a_typed_last_update_announces_the_revision_of_its_own_date(catalog: Catalog) -> None:
    """A typed date equal to a revision's date announces that revision (on or after it, not after);
    a date after the revision announces nothing in it; before the first: the first."""
    revs, _ident = _revisions(catalog, [Cell(status="supported")] * 3)
    typed_text = revs[1].date.strftime("%m/%d/%Y")
    revs = [r.model_copy(update={"matrices": [m.model_copy(update={"last_update_published": typed_text})
                                              for m in r.matrices]}) for r in revs]
    revisions = MatrixRevisions.of(revs)
    first, second, third = revisions.revisions
    typed = {(t.revision, t.matrix): t for t in revisions.typed_last_updates()}
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
    typed = MatrixRevisions.of(revs).typed_last_updates()
    assert typed and all(t.announced is None and not t.consistent for t in typed)


def test_a_typed_last_update_is_consistent_by_value_and_immutable() -> None:
    import dataclasses

    import pytest

    from neuron_docs.data.matrix.revisions import TypedLastUpdate

    day = dt.date(2023, 5, 6)
    same = TypedLastUpdate(day, "m", "05/06/2023", day, dt.date(2023, 5, 6), dt.date.fromisoformat("2023-05-06"))
    assert same.consistent  # equal dates, not the same object
    assert not dataclasses.replace(same, announced=None).consistent
    assert not dataclasses.replace(same, announced=dt.date(2023, 5, 7)).consistent
    with pytest.raises(dataclasses.FrozenInstanceError):
        same.announced = None  # type: ignore[misc]


def test_a_name_clash_names_the_model_that_claimed_the_name_first(tmp_path) -> None:  # noqa: ANN001
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
