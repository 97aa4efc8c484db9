"""A renderer never crashes on a record that a reference validation let through (issue 37 (e), 4).

The validation sets aside a record whose reference is unknown (a located error:
``tests/test_seeded_bugs.py``). Should a rule of it be lost, the record reaches the figures and the
renderers: every figure is still computed (the record's own figures that need the reference left
out), the page shows the record in its renderer's "Data problem" box and the build says where, in
the data file, the problem is; the build never stops with a KeyError. The tests lose the rules on
purpose (the reference is not yielded) and build a one-page root once.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from helpers.edits import edit_yaml
from helpers.paths import DATA
from helpers.warnings import without_colours
from neuron_docs.data import load_catalog
from neuron_docs.data.checking import references, validation

ROOT = Path(__file__).resolve().parent / "roots" / "test-let-through"


def test_every_renderer_shows_a_reference_let_through_as_a_located_data_problem(
        make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four reference rules lost at once (one build of a one-page root: make test's budget): a
    comparison's baseline (the subject takes the same path), a price-performance claim's baseline, an
    environment's instance, an instance's device. Each record is in its renderer's "Data problem"
    box, and the build warns once, at the record's line in its data file; no KeyError."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    wrong: dict[str, str] = {}

    def training(document: dict[str, Any]) -> None:
        wrong["comparisons"] = document["comparisons"][0]["id"]
        document["comparisons"][0]["baseline"] = "p9z.no-such-instance"
        [e] = [e for e in document["experiments"] if e.get("price_performance")][:1]
        wrong["experiments"] = e["id"]
        e["price_performance"][0]["baseline"] = "p9z.no-such-instance"

    def environment(document: dict[str, Any]) -> None:
        wrong["environments"] = document["environments"][0]["id"]
        document["environments"][0]["instance"] = "p9z.no-such-instance"

    def instance(document: dict[str, Any]) -> None:
        wrong["instances"] = document["instances"][0]["id"]
        document["instances"][0]["device"] = "no-such-device"

    edit_yaml(data / "training.yaml", training)
    edit_yaml(data / "models.yaml", environment)
    edit_yaml(data / "instances.yaml", instance)
    lost = {("baseline",), ("price_performance", 0, "baseline"), ("instance",), ("device",)}  # the seeded bug (e)
    original = references.references_of
    monkeypatch.setattr(validation, "references_of",
                        lambda collection, record: (r for r in original(collection, record) if r[0] not in lost))
    catalog = load_catalog(data)
    assert not [e for e in catalog.errors if "no-such" in e.message], catalog.errors  # let through
    assert wrong["comparisons"] in catalog.comparisons
    runs = [r.id for r in catalog.inference_runs.values() if r.environment == wrong["environments"]]
    assert runs, "the environment must hold inference runs for the case to be exercised"

    srcdir = tmp_path / "site"
    shutil.copytree(ROOT, srcdir)
    (srcdir / "index.rst").write_text(
        "Let through\n===========\n\n.. neuron:comparison-table::\n\n"
        f".. neuron:training-experiment:: {wrong['experiments']}\n\n"
        ".. neuron:benchmark-table::\n\n.. neuron:accuracy-table::\n\n.. neuron:instance-table::\n",
        encoding="utf-8")
    app = make_app("html", srcdir=srcdir, confoverrides={"neuron_data_dir": str(data), "neuron_cache_dir": ""})
    app.build()
    warnings = without_colours(app.warning.getvalue())
    assert "Traceback" not in warnings and "KeyError" not in warnings
    html = (srcdir / "_build" / "html" / "index.html").read_text(encoding="utf-8")
    assert "Data problem" in html
    for collection, file in (("comparisons", "training.yaml"), ("experiments", "training.yaml"),
                             ("environments", "models.yaml"), ("instances", "instances.yaml")):
        record = wrong[collection]
        assert f"{collection} {record}:" in html, collection  # in a "Data problem" box
        located = [w for w in warnings.splitlines() if w.startswith(str(data / file) + ":") and repr(record) in w]
        assert len(located) == 1, (collection, warnings)  # one cause, one warning (the page has two run tables)
        line = int(located[0].split(": ")[0].rsplit(":", 1)[1])
        lines = (data / file).read_text(encoding="utf-8").splitlines()
        assert lines[line - 1].strip().startswith(f"- id: {record}"), (collection, located)
    assert not [r for r in runs if f"run-{r}" in html]  # the runs of the unknown instance are not shown


def _first_price_performance(document: dict[str, Any]) -> None:
    [experiment] = [e for e in document["experiments"] if e.get("price_performance")][:1]
    experiment["price_performance"][0]["baseline"] = "p9z.no-such-instance"


#: (file, edit, the reference rule lost): a record whose reference the validation let through;
#: computing every figure and the advisor's data survives it. The price-performance baseline, the
#: environment's instance and the instance's device crashed with a KeyError (found by this test; fixed:
#: values.py's price ratios, runs.py's run_instance, Catalog.neuroncores).
LOST_RULES = [
    ("training.yaml", _first_price_performance, ("price_performance", 0, "baseline")),
    ("training.yaml", lambda d: d["experiments"][0]["instances"].__setitem__(0, "p9z.no-such-instance"),
     ("instances", 0)),
    ("models.yaml", lambda d: d["environments"][0].__setitem__("instance", "p9z.no-such-instance"), ("instance",)),
    ("instances.yaml", lambda d: d["instances"][0].__setitem__("device", "no-such-device"), ("device",)),
    ("models.yaml", lambda d: d["models"][0].__setitem__("family", "no-such-family"), ("family",)),
]


@pytest.mark.parametrize(("file", "edit", "rule"), [
    pytest.param(*case, id=f"{case[0]}:{'.'.join(map(str, case[2]))}") for case in LOST_RULES])
def test_every_figure_and_the_advisor_survive_a_reference_let_through(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, file: str, edit: Any, rule: tuple[Any, ...]) -> None:
    from neuron_docs.data.figures.advisor import advisor_slice
    from neuron_docs.data.figures.derived import Derived
    from neuron_docs.data.figures.values import Values

    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    edit_yaml(data / file, edit)
    original = references.references_of
    monkeypatch.setattr(validation, "references_of",
                        lambda collection, record: (r for r in original(collection, record) if r[0] != rule))
    derived = Derived(load_catalog(data))
    assert sum(1 for _ in Values(derived).items())
    assert advisor_slice(derived)
