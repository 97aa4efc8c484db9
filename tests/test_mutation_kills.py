"""Tests written for the mutants ``make mutation`` left alive (``tests/MUTATION.md``): each pins a rule
of a core module that no other test exercised on data that tells the mutant from the code."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from neuron_docs.data import Catalog
from neuron_docs.data.checking.identities import identity_of, name_clashes, same_as_problems
from neuron_docs.data.matrix.revisions import MatrixRevisions, typed_date
from neuron_docs.data.records.matrix import Cell
from neuron_docs.data.records.models import Model
from neuron_docs.data.records.published import PublishedModel

from test_seeded_bugs import _revisions


# -- data/checking/identities.py ------------------------------------------------------------------

def _identity_catalog(published: list[PublishedModel], seeds: tuple[Model, ...] | list[Model] = ()) -> Any:
    """The little of a catalog the identity rules read: the model records, and where each is."""
    records = {"published_models": {m.id: m for m in published}, "models": {m.id: m for m in seeds}}
    return SimpleNamespace(records=records, published_models=records["published_models"], record_paths={},
                           positions={}, file_texts={}, origin=lambda collection, record_id: (f"{collection}.yaml", 7))


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


def test_a_collection_named_by_value_as_a_caller_may_hold_it() -> None:
    """The collection's name compared by value: one made at run time (as a catalog read back from the
    build's pickle holds its collections' names) is the published models' all the same."""
    published = "".join(["published", "_models"])
    catalog = _identity_catalog([_published("base", same_as="base")])
    [(field, message)] = list(same_as_problems(published, catalog.published_models["base"], catalog))
    assert field == ("same_as",) and "is the same as itself" in message
    assert identity_of(published, _published("base")) == "published:base"
    assert identity_of("".join(["mod", "els"]), _seed("base")) == "seed:base"


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


# -- data/matrix/history.py (the real data's latest revision, copied: these load the catalog, so they come last) --

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
    from neuron_docs.data.matrix.revisions import TypedLastUpdate

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

    from helpers.edits import edit_yaml
    from helpers.paths import DATA
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
