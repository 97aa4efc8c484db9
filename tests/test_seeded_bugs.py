"""Tests that catch the bugs they exist for (issue 37): each rule exercised on data built for the case.

A reviewer seeded small plausible bugs into the core rules, one at a time; the tests that stated
these rules passed anyway, because today's data never triggers them. Each test here makes the data
that does (a twin of a real record with one field changed, a throw-away copy of a data file, a few
records built in the test) and fails when its rule is broken. Catalog-level: no site build.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.edits import edit_yaml
from helpers.paths import DATA
from neuron_docs.data import Catalog, load_catalog
from neuron_docs.data.figures.advisor import _published_best, choose, compare
from neuron_docs.data.figures.derived import Derived
from neuron_docs.data.figures.identity import Identities
from neuron_docs.data.matrix.revisions import MatrixRevisions
from neuron_docs.data.records.matrix import Cell, Revision
from neuron_docs.data.records.models import Model
from neuron_docs.data.records.published import PublishedModel
from neuron_docs.drift.literal_figures import find_figures
from neuron_docs.drift.verdicts import Candidate, agrees

# -- (a) the advisor compares one shape ---------------------------------------------------------

#: The fields that make a published run's shape, written out here (not read from the advisor's own
#: SHAPE_FIELDS: a field dropped from it must fail this test, not shrink it).
SHAPE = ("sequence_length", "input_length", "output_length", "image_size")


def _other(value: object) -> object:
    return "999x999" if isinstance(value, str) else int(value) * 2  # type: ignore[call-overload]


@pytest.mark.parametrize("shape_field", SHAPE)
def test_the_advisor_never_compares_runs_of_another_shape(catalog: Catalog, shape_field: str) -> None:
    """A twin of a real run at another sequence length (input, output, image size) with ten times
    the throughput, a tenth of the latency: it is a configuration of another shape, so the best
    figures of a comparison that holds the run are the run's own, never the twin's."""
    run = next(r for r in catalog.published_inference_runs.values()
               if getattr(r, shape_field, None) is not None and r.throughput() is not None)
    name, value, _unit = run.throughput()  # type: ignore[misc]
    update: dict[str, object] = {"id": f"{run.id}-twin", shape_field: _other(getattr(run, shape_field)),
                                 name: value * 10}
    for latency in ("latency_p50_ms", "latency_p90_ms", "ttft_p50_ms", "latency_per_token_p50_ms", "latency_p99_ms"):
        if getattr(run, latency, None) is not None:
            update[latency] = getattr(run, latency) / 10
    twin = run.model_copy(update=update)
    derived = Derived(catalog)
    mine, other = _published_best(derived, run, False), _published_best(derived, twin, False)
    assert mine is not None and other is not None
    assert mine.shape != other.shape
    device = mine.device
    for family in (None, catalog.families[mine.family]):
        assert compare([mine, other], [device], family)[device] == [mine]
        best_t, best_l, best_c, best_od = choose([mine, other], [device], family)[device]
        assert best_t is mine
        assert best_l in (mine, None)
        assert best_c in (mine, None) and best_od in (mine, None)
    # The twin alone is compared with itself: nothing of the other shape leaks in the other way.
    assert compare([other, mine], [device])[device] == [other]


# -- (b) a model's display name is its own record's ---------------------------------------------

def _models_catalog(published: list[PublishedModel], seed: list[Model]) -> SimpleNamespace:
    """What :class:`Identities` reads of a catalog: the model records and the families."""
    return SimpleNamespace(records={"published_models": {m.id: m for m in published},
                                    "models": {m.id: m for m in seed}}, families={})


def _seed(model_id: str, name: str, same_as: str | None, aliases: list[str]) -> Model:
    return Model(id=model_id, name=name, family="encoder", status="compiled", aliases=aliases, same_as=same_as)


def test_a_models_name_is_its_own_records_not_an_alias_or_a_spelling() -> None:
    """The spellings (``same_as``) come first in the files and every record has aliases: the
    identity's name is still the name of the record it is, and it comes first of its names."""
    spelling = PublishedModel(id="bert-spelled", name="BERT base (spelled)", family="encoder",
                              aliases=["bert spelled alias"], same_as="bert-base")
    own = PublishedModel(id="bert-base", name="bert-base-uncased", family="encoder",
                         aliases=["BERT-B", "bert base uncased model"])
    seed = _seed("bert-seed", "BERT seed spelling", "bert-base", ["bert seed alias"])
    alone = _seed("vit-alone", "ViT alone", None, ["vit alias first"])
    ids = Identities(_models_catalog([spelling, own], [seed, alone]))  # type: ignore[arg-type]
    assert ids.by_id["published:bert-base"].name == "bert-base-uncased"
    assert ids.by_id["published:bert-base"].names[0] == "bert-base-uncased"
    assert ids.by_id["seed:vit-alone"].name == "ViT alone"
    assert ids.of_seed("bert-seed").name == "bert-base-uncased"  # type: ignore[union-attr]
    assert ids.of_published("BERT base (spelled)").name == "bert-base-uncased"  # type: ignore[union-attr]


_names = st.text(alphabet="abcdefgh ", min_size=3, max_size=10).map(str.strip).filter(bool)


@settings(max_examples=60, deadline=None)
@given(order=st.permutations(range(4)), aliases=st.lists(st.lists(_names, max_size=2), min_size=4, max_size=4))
def test_any_order_of_records_names_each_identity_after_its_own_record(order: list[int],
                                                                       aliases: list[list[str]]) -> None:
    """Property: whatever the order of the records and their aliases, an identity's name is the
    name of its own record (the one whose id it is)."""
    records = [PublishedModel(id="m-own", name="Own Name", family="encoder", aliases=aliases[0]),
               PublishedModel(id="m-two", name="Second Spelling", family="encoder", aliases=aliases[1], same_as="m-own"),
               PublishedModel(id="m-three", name="Third Spelling", family="encoder", aliases=aliases[2], same_as="m-own"),
               PublishedModel(id="n-own", name="Other Model", family="encoder", aliases=aliases[3])]
    ids = Identities(_models_catalog([records[i] for i in order], []))  # type: ignore[arg-type]
    assert {i: x.name for i, x in ids.by_id.items()} == {"published:m-own": "Own Name",
                                                         "published:n-own": "Other Model"}
    assert ids.by_id["published:m-own"].names[0] == "Own Name"


# -- (c) since-when: the first revision with the current cell (status, note, link) ----------------

def _revisions(catalog: Catalog, cells: list[Cell]) -> tuple[list[Revision], tuple[str, str, str]]:
    """Copies of the latest revision a month apart, where one cell holds ``cells[i]`` in the i-th."""
    latest = catalog.matrix_revisions.latest()
    assert latest is not None
    ident = next(iter(latest.cells()))
    matrix_id, family, key = ident
    out = []
    for i, cell in enumerate(cells):
        rev = latest.model_copy(deep=True, update={"date": latest.date + dt.timedelta(days=31 * (i + 1))})
        row = next(r for m in rev.matrices if m.id == matrix_id for r in m.rows if r.family == family)
        row.cells[key] = cell
        out.append(rev)
    return out, ident


@pytest.mark.parametrize("change", [{"note": "only with the 2.x compiler"}, {"link": "neuron_roadmap"},
                                    {"status": "limited"}])
def test_a_cells_since_date_moves_when_its_note_link_or_status_changes(catalog: Catalog,
                                                                      change: dict[str, str]) -> None:
    before = Cell(status="supported")
    after = before.model_copy(update=change)
    annotated = after.model_copy(update={"annotation": "the project's own note: not published"})
    revs, ident = _revisions(catalog, [before, before, after, annotated, after])
    revisions = MatrixRevisions.of(revs)
    since = [revisions.since(r)[ident] for r in revs]
    assert since == [revs[0].date, revs[0].date, revs[2].date, revs[2].date, revs[2].date]
    assert not revisions.changes(revs[1]).shown()
    assert revisions.changes(revs[2]).shown()  # the change is reported, as the date says
    assert not revisions.changes(revs[3]).shown()  # an annotation is never a change


_cells = st.builds(Cell, status=st.sampled_from(["supported", "limited", "roadmap", "na"]),
                   note=st.sampled_from([None, "a note", "another note"]), link=st.sampled_from([None, "neuron_roadmap"]),
                   annotation=st.sampled_from([None, "ours"]))


@settings(max_examples=40, deadline=None)
@given(cells=st.lists(_cells, min_size=1, max_size=6))
def test_since_when_is_the_first_revision_of_the_current_run_of_the_cell(catalog: Catalog, cells: list[Cell]) -> None:
    """Property: for any sequence of a cell's values, each revision's since-date is the first
    revision of the unbroken run of revisions that published the same value (annotation aside)."""
    revs, ident = _revisions(catalog, cells)
    revisions = MatrixRevisions.of(revs)
    for i, rev in enumerate(revs):
        first = i
        while first and cells[first - 1].published == cells[i].published:
            first -= 1
        assert revisions.since(rev)[ident] == revs[first].date


# -- (d) the drift checker's "about" --------------------------------------------------------------

@pytest.mark.parametrize(("number", "verdict"), [(760, True), (790, True), (798, True), (722, True),
                                                 (799, False), (720, False), (820, False), (700, False)])
def test_about_is_within_five_percent(number: float, verdict: bool) -> None:
    """"about 760 GB/s" is 722 to 798 GB/s (5%): 820 contradicts it."""
    [figure] = find_figures("Its memory gives about 760 GB/s of bandwidth.")
    assert figure.qualifier == "about"
    assert agrees(Candidate("devices:x:memory_bandwidth", number, "GB/s"), figure) is verdict


@pytest.mark.parametrize(("text", "number", "verdict"), [
    ("roughly 75%", 75.9, True), ("roughly 75%", 76.0, True), ("roughly 75%", 79, False),
    ("almost 4x faster", 4.4, True), ("almost 4x faster", 4.6, False),
    ("about 0.4 ms", 0.45, True), ("about 0.4 ms", 0.5, True), ("about 0.4 ms", 0.55, False)])
def test_about_small_figures_allow_one_unit_of_the_last_digit(text: str, number: float, verdict: bool) -> None:
    [figure] = find_figures(text)
    assert agrees(Candidate("x", number, figure.unit), figure) is verdict


# -- (e) a comparison's baseline names an instance that does not exist ---------------------------

@pytest.mark.parametrize("attr", ["baseline", "subject"])
def test_a_comparison_naming_an_unknown_instance_is_a_located_error(tmp_path: Path, attr: str) -> None:
    import shutil

    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    comparison = {}

    def edit(document: dict) -> None:
        comparison.update(document["comparisons"][0])
        document["comparisons"][0][attr] = "p9z.no-such-instance"

    edit_yaml(data / "training.yaml", edit)
    catalog = load_catalog(data)
    errors = [e for e in catalog.errors if e.file == "training.yaml" and "p9z.no-such-instance" in e.message]
    assert len(errors) == 1, catalog.errors
    [error] = errors
    assert error.field == f"comparisons[0].{attr}" and error.line is not None
    lines = (data / "training.yaml").read_text(encoding="utf-8").splitlines()
    assert "p9z.no-such-instance" in lines[error.line - 1]
    assert comparison["id"] not in catalog.comparisons
    assert [b.record_id for b in catalog.broken_in("comparisons")] == [comparison["id"]]
