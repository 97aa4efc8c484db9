"""One store of benchmark truth: the current published runs are the history's latest state.

Nothing in ``data/`` holds a second copy of a published figure: the runs the performance pages, the
advisor and the downloads show are derived from ``data/benchmarks/history/``
(:mod:`neuron_docs.data.checking.latest_state`). These tests hold on any data the import writes:
the export of those runs is the latest published state (every row it writes is a row of the
published file, and every row of the latest state is a run of the store), every generation and
kind of the latest state has its performance page with every run on it, and the advisor weighs
every device a run measured.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from docutils import nodes

from neuron_docs.data import Catalog
from neuron_docs.data.figures.advisor import all_runs
from neuron_docs.data.figures.derived import Derived
from neuron_docs.data.published.export import render_table
from neuron_docs.data.published.history_files import configuration_id, identity
from neuron_docs.data.published.importer import import_published
from neuron_docs.data.records.history import version_key

#: The published states the repository's history was imported from (``shared/external``).
STATES = Path(os.environ.get("NEURON_BENCHMARK_HISTORY", "/work/shared/external/neuron-sdk/benchmark-history"))


def _latest_state(catalog: Catalog) -> Path:
    latest = list(catalog.benchmark_states)[-1]
    folder = STATES / latest
    if not folder.is_dir():
        pytest.skip(f"the published state {latest} is not on this machine ({STATES})")
    return folder


def _rows(text: str) -> list[str]:
    return text.splitlines()


def test_the_export_of_the_store_is_the_latest_published_state(catalog: Catalog) -> None:
    """Every table written back from the store has the published header and only rows of the
    published file, in its order: no figure differs and none is invented."""
    folder = _latest_state(catalog)
    runs = [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values()]
    exported = 0
    for table in catalog.published_tables.values():
        if table.kind == "prices":
            continue
        mine = [r for r in runs if r.table == table.id]
        assert mine, f"{table.id}: a table of the store with no run"
        published = _rows((folder / table.path).read_bytes().decode("utf-8-sig"))
        written = _rows(render_table(table, mine))
        assert written[0] == published[0], table.id
        rest = iter(published[1:])
        assert all(line in rest for line in written[1:]), f"{table.id}: a row that is not the published one"
        exported += len(mine)
    assert exported == len(runs)


def test_every_row_of_the_latest_state_is_a_run_of_the_store(catalog: Catalog) -> None:
    """Nothing of the latest state is dropped: each of its rows is a current run (in its own table,
    or, for a copy in a combined file, in the table the import placed it in), or an old copy of a
    configuration the store holds a later release of."""
    folder = _latest_state(catalog)
    result = import_published(folder, catalog.instances, catalog.frameworks, as_of="2000-01-01")
    tables = {t.id: t for t in result.tables}
    current = {*catalog.published_inference_runs, *catalog.published_training_runs}
    releases: dict[str, set[str]] = {}
    for obs in catalog.benchmark_observations.values():
        releases.setdefault(obs.configuration, set()).add(obs.neuron_version)
    for run in [*result.inference_runs, *result.training_runs]:
        table = tables[run.table]
        cid = configuration_id(identity(run, table.generation, table.path))
        where = f"{table.path} line {result.lines.get(run.id)}: {run.model}"
        if cid in current:
            continue
        # Else a stale copy (in a file no page reads any more): the store has a later release of it.
        assert cid in catalog.benchmark_configurations, f"{where} is not in the store"
        assert max(map(version_key, releases[cid])) > version_key(run.neuron_version), f"{where} is not a current run"


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
