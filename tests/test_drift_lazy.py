"""The drift engine's indexes are made on first use, and what a build checked first never changes a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.paths import REPO
from neuron_docs.data.dataset import load_dataset
from neuron_docs.drift.engine import DriftEngine
from neuron_docs.drift.page_text import read_page
from neuron_docs.drift.verdicts import Verdict

#: The corpus pages with a verdict to compare (the published performance pages' prose holds no figure).
CORPUS = sorted(p for p in (REPO / "tests" / "drift_corpus").glob("*.rst") if not p.name.startswith("real-perf-"))


@pytest.fixture(scope="module")
def data():  # noqa: ANN201
    return load_dataset(REPO / "data")


def _fresh(data) -> DriftEngine:  # noqa: ANN001
    return DriftEngine(data.catalog, data.values)


def _made(engine: DriftEngine) -> set[str]:
    """The indexes the engine has made so far (``cached_property`` values live in its ``__dict__``)."""
    return {name for name in ("figures", "claims") if name in vars(engine)}


def _verdicts(engine: DriftEngine, path: Path) -> list[tuple[int, int, Verdict]]:
    """Every verdict of a page's passages and tables, as the audit reads them."""
    page = read_page(path.read_text(encoding="utf-8"))
    out = [(n, -1, v) for n, p in enumerate(page.passages) for v in engine.check(p.text, p.heading, p.allowed)]
    for t in page.tables:
        out += [(i, j, v) for i, j, v in engine.check_table(t.rows, t.header_rows, t.heading)]
    return out


def test_no_index_is_made_for_prose_without_figures_or_claims(data) -> None:  # noqa: ANN001
    engine = _fresh(data)
    assert _made(engine) == set()
    # Digits but no figure (a title), and a figure-free sentence: nothing to match, nothing made.
    assert engine.check("Matrix dev-0") == []
    assert engine.check("The compiler reads the model and writes a NEFF.") == []
    assert _made(engine) == set()


def test_a_figure_makes_the_figure_index_and_a_claim_the_names(data) -> None:  # noqa: ANN001
    engine = _fresh(data)
    run = next(r for r in data.catalog.inference_runs.values() if r.p90_latency_ms is not None)
    figure = f"run:{run.id}:p90_latency_ms"
    value = data.values[figure]
    model, instance = data.catalog.models[run.model].name, data.catalog.environments[run.environment].instance
    verdicts = engine.check(f"{model} on {instance} has a p90 latency of {value.number:g} {value.unit}.")
    assert _made(engine) == {"figures"}
    assert [v.expression for v in verdicts] == [figure] and verdicts[0].agrees
    family = next(iter(data.catalog.families.values()))
    engine.check(f"{family.name} is supported.")
    assert _made(engine) == {"figures", "claims"}


@pytest.fixture(scope="module")
def used(data) -> DriftEngine:  # noqa: ANN001
    """One engine that has checked every page of the corpus, in reverse order."""
    engine = _fresh(data)
    for page in reversed(CORPUS):
        _verdicts(engine, page)
    return engine


@pytest.mark.parametrize("page", CORPUS, ids=lambda p: p.name)
def test_verdicts_do_not_depend_on_what_was_checked_before(data, used: DriftEngine, page: Path) -> None:  # noqa: ANN001
    """Keyword sets and names are made when first asked for: a page checked by a fresh engine gets
    the same verdicts as checked again by an engine that has checked the whole corpus (in reverse
    order: the pages after it first)."""
    fresh = _verdicts(_fresh(data), page)
    assert fresh, f"{page.name} has no verdict: the comparison would say nothing"
    assert _verdicts(used, page) == fresh


def test_a_count_of_one_is_written_as_prose_writes_it(data) -> None:  # noqa: ANN001
    """What the data gives for an instance with one chip reads "1 chip", as a writer would put it."""
    one = next(i for i in data.catalog.instances.values() if i.device_count == 1)
    verdicts = _fresh(data).check(f"The {one.id} instance has 4 chips.")
    found = [v for v in verdicts if v.expression.endswith(":device_count")]
    assert found and found[0].expected == "1 chip" and not found[0].agrees
