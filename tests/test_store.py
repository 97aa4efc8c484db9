"""One store of benchmark truth: the current published runs are the history's latest state.

Nothing in ``data/`` holds a second copy of a published figure: the runs the performance pages, the
advisor and the downloads show are derived from ``data/benchmarks/history/``
(:mod:`neuron_docs.data.checking.latest_state`). These tests hold on any data the import writes: every
generation and kind of the latest state has its performance page with every run on it, and the
advisor weighs every device a run measured. That the runs export back to the latest published
state, byte for byte where a page reads the file, is ``tests/test_published_import.py``'s.
"""

from __future__ import annotations

from docutils import nodes

from neuron_docs.data import Catalog
from neuron_docs.data.figures.advisor import all_runs
from neuron_docs.data.figures.derived import Derived


def test_every_generation_and_kind_has_its_page_with_every_run(site, catalog: Catalog) -> None:  # noqa: ANN001
    """Trn1 inference included: a page per generation and kind of the latest state, and the row of each
    run of a table a published page reads on one of them."""
    pairs = {(t.generation, t.kind) for run in [*catalog.published_inference_runs.values(),
                                                 *catalog.published_training_runs.values()]
             if (t := catalog.published_tables[run.table])}
    assert ("trn1", "inference") in pairs or not any(
        t.generation == "trn1" and t.kind == "inference" for t in catalog.published_tables.values())
    pages = {p.stem for p in (site.outdir / "performance").glob("*.html")}
    ids: set[str] = set()
    for generation, kind in pairs:
        name = generation if kind == "inference" else f"{generation}-{kind}"
        assert name in pages, f"no performance page for {generation} {kind}"
        ids |= site.ids(f"performance/{name}.html")
    # A run of a file no published page reads (a combined file the pages split into groups) may be
    # left to its history; every run of a table a page reads is on its generation's page.
    read = {t.id for t in catalog.published_tables.values() if t.page}
    missing = [run.id for run in [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values()]
               if run.table in read and f"prun-{nodes.make_id(run.id)}" not in ids]
    assert missing == []


def test_the_advisor_weighs_every_device_a_run_measured(catalog: Catalog) -> None:
    measured = {catalog.instances[i].device for run in catalog.published_inference_runs.values()
                for i in [run.instance]}
    measured |= {catalog.instances[i].device for run in catalog.published_training_runs.values() for i in run.instances}
    weighed = {r.device for r in all_runs(Derived(catalog))}
    assert measured <= weighed
