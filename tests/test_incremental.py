"""Incremental builds: which pages a rebuild re-reads, which it only rewrites, and how often the
data is loaded.

The test root (``roots/test-incremental``) has a page showing a support matrix, one showing a
benchmark table and one reading no data; ``roots/test-late-prose`` pages printing figures, a fit
and a status through roles, the errata, the training experiment, measured models and What's new;
``roots/test-late-data`` the advisor, family guidelines, known issues, roadmap items, device
specifications, frameworks, sources, environments, model status and the data downloads. Each test builds a copy of it against a copy of ``data/``
several times in a row, recording the pages Sphinx re-reads (``env-before-read-docs``), the pages
it writes (``doctree-resolved``) and the calls of ``load_catalog``. Generated content is rendered
when a page is written, so a data change re-reads nothing: the pages that show the changed data
are written again. Behaviour only, no timings: speed is measured by ``bench/run.py``.
"""

from __future__ import annotations

import csv
import html
import os
import shutil
from pathlib import Path

import pytest

import neuron_docs.data.dataset
import neuron_docs.state.domain
from neuron_docs.state.domain import anchor_for
from bs4 import BeautifulSoup
from helpers.edits import change_csv_cell, edit_yaml
from helpers.paths import DATA, frozen_copy
from sphinx.util.inventory import InventoryFile
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.advisor import advisor_slice
from neuron_docs.data.figures.expressions import evaluate
from neuron_docs.data.figures.formatting import format_number, shown_figure
from neuron_docs.data.figures.derived import Derived
from neuron_docs.data.figures.shown import figure
from neuron_docs.data.figures.values import build_values
from neuron_docs.data.records.history import version_key
from neuron_docs.directives.benchmark_history import model_page


ROOT = Path(__file__).resolve().parent / "roots" / "test-incremental"


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """The data these builds read and edit: a copy of the frozen data, not of ``data/``, since the
    edits and the pages of the test roots name figures typed here (``,9.007,``, ``$0.1874``)."""
    return frozen_copy(tmp_path / "data")


class Site:
    """A copy of the test root, built again and again against the data directory ``data``."""

    def __init__(self, make_app, srcdir: Path, data: Path, monkeypatch: pytest.MonkeyPatch, root: Path = ROOT,
                 **overrides) -> None:
        shutil.copytree(root, srcdir)  # the session's data-set cache unless ``neuron_cache_dir`` is given
        self.make_app, self.srcdir, self.data, self.overrides = make_app, srcdir, data, overrides
        self.loads = 0
        original = neuron_docs.data.dataset.load_catalog

        def counting(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            self.loads += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(neuron_docs.data.dataset, "load_catalog", counting)

    def build(self, parallel: int = 0, builder: str = "html") -> list[str]:
        """Build (incrementally); the pages that were re-read, sorted (those written: :attr:`written`)."""
        read: list[str] = []
        written: list[str] = []
        app = self.make_app(builder, srcdir=self.srcdir, parallel=parallel,
                            confoverrides={"neuron_data_dir": str(self.data), **self.overrides})
        app.connect("env-before-read-docs", lambda _app, _env, docnames: read.extend(docnames))
        app.connect("doctree-resolved", lambda _app, _doctree, docname: written.append(docname))
        app.build()
        self.warnings = app.warning.getvalue()
        self.written = sorted(written)
        return sorted(read)

    def html(self, page: str) -> str:
        return (self.srcdir / "_build" / "html" / f"{page}.html").read_text(encoding="utf-8")


@pytest.fixture
def site(make_app, tmp_path: Path, data_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Site:
    """The test root with a data-set cache of its own: these tests count the loads of the data."""
    return Site(make_app, tmp_path / "site", data_copy, monkeypatch, neuron_cache_dir=".neuron-cache")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_first_build_reads_every_page_and_loads_the_data_once(site: Site) -> None:
    assert site.build() == ["benchmarks", "index", "matrix", "plain"]
    assert site.loads == 1  # once per build, not per page or directive


def test_rebuild_with_nothing_changed_reads_and_writes_nothing(site: Site) -> None:
    site.build()
    assert site.written == ["benchmarks", "index", "matrix", "plain"]
    assert site.build() == []
    assert site.written == []
    assert site.loads == 1  # the second build took the catalog from the content-keyed cache


def test_a_figure_change_rereads_nothing_and_rewrites_the_page_that_shows_it(site: Site) -> None:
    site.build()
    assert "536.72" in site.html("benchmarks")  # 536.718, at five significant digits
    edit(site.data / "benchmarks" / "inference.csv", ",536.718,", ",537.5,")
    assert site.build() == []
    assert site.written == ["benchmarks", "index"]  # and the page whose toctree lists it, as Sphinx does
    assert site.loads == 2  # new content: validated again, once
    assert "537.5" in site.html("benchmarks")
    assert "536.72" not in site.html("benchmarks")


def test_a_figure_no_page_shows_rewrites_nothing(site: Site) -> None:
    """The benchmark page shows the runs of one model (``:model: vit-base``): a figure of a run of
    another model changes no page."""
    site.build()
    inference = site.data / "benchmarks" / "inference.csv"
    header, *rows = inference.read_text(encoding="utf-8").splitlines()
    columns = header.split(",")
    model, throughput = columns.index("model"), columns.index("throughput_per_s")
    row = next(r for r in rows if r.split(",")[model] != "vit-base" and r.split(",")[throughput])
    cells = row.split(",")
    cells[throughput] = str(float(cells[throughput]) * 2)
    edit(inference, row, ",".join(cells))
    assert site.build() == []
    assert site.written == []
    assert site.loads == 2  # the data did change


def test_families_change_rereads_nothing_and_rewrites_the_matrix_page(site: Site) -> None:
    site.build()
    edit(site.data / "families.yaml", "{id: nlp, name: NLP,", "{id: nlp, name: NLP Renamed,")
    assert site.build() == []
    assert site.written == ["index", "matrix"]
    assert "NLP Renamed" in site.html("matrix")


def test_touch_without_change_rereads_and_rewrites_nothing(site: Site) -> None:
    """A new mtime alone (``touch``): what a page depends on is compared by content, not by date, so
    nothing is read or written again and the catalog comes from the cache."""
    site.build()
    before = site.html("matrix")
    os.utime(site.data / "families.yaml")  # now: later than the page's own mtime
    assert site.build() == []
    assert site.written == []
    assert site.loads == 1
    assert site.html("matrix") == before


def test_data_directory_change_rereads_everything(site: Site, tmp_path: Path) -> None:
    site.build()
    other = tmp_path / "other-data"
    shutil.copytree(site.data, other)
    site.data = other  # neuron_data_dir is an "env" setting: Sphinx re-reads every page
    assert site.build() == ["benchmarks", "index", "matrix", "plain"]


def test_without_the_cache_every_build_loads_once(make_app, tmp_path: Path, data_copy: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    site = Site(make_app, tmp_path / "site", data_copy, monkeypatch, neuron_cache_dir="")
    site.build()
    assert site.build() == []
    assert site.loads == 2
    assert not (site.srcdir / ".neuron-cache").exists()


def test_parallel_build_gives_the_same_html_as_serial(make_app, tmp_path: Path, data_copy: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    serial = Site(make_app, tmp_path / "serial", data_copy, monkeypatch, neuron_cache_dir=".neuron-cache")
    parallel = Site(make_app, tmp_path / "parallel", data_copy, monkeypatch, neuron_cache_dir=".neuron-cache")
    assert serial.build() == parallel.build(parallel=2)
    for page in ("index", "matrix", "benchmarks", "plain"):
        assert parallel.html(page) == serial.html(page), page


def test_a_damaged_cache_entry_is_ignored(site: Site) -> None:
    site.build()
    (entry,) = (site.srcdir / ".neuron-cache").glob("catalog-*.pickle")
    entry.write_bytes(b"not a pickle")
    edit(site.srcdir / "plain.rst", "reads no data", "still reads no data")
    assert site.build() == ["plain"]
    assert site.loads == 2  # loaded again, and the entry rewritten
    assert entry.read_bytes() != b"not a pickle"


# Pages whose figures are derived from several files, or that failed, or whose prose is checked ---

@pytest.fixture
def deps(make_app, tmp_path: Path, data_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Site:
    return Site(make_app, tmp_path / "deps", data_copy, monkeypatch,
                root=ROOT.parent / "test-dependencies", suppress_warnings=[])


def test_a_derived_figure_follows_every_file_it_is_computed_from(deps: Site) -> None:
    deps.build()
    assert "$0.1874" in deps.html("cost") and ">16<" in deps.html("cost")
    edit(deps.data / "instances.yaml", "usd_per_hour: 0.362,", "usd_per_hour: 0.724,")  # the price
    assert "cost" not in deps.build()  # printed when written: rewritten, not read again
    assert "cost" in deps.written
    assert "$0.3747" in deps.html("cost")
    edit(deps.data / "devices.yaml", "    neuroncores: 4\n", "    neuroncores: 8\n")  # cores per device
    assert "cost" not in deps.build()
    assert "cost" in deps.written
    assert ">32<" in deps.html("cost")


def test_a_failed_value_is_fixed_by_fixing_the_data(deps: Site) -> None:
    deps.build()
    assert "unknown data value 'instance:newbox.xlarge:price'" in deps.warnings
    text = (deps.data / "instances.yaml").read_text(encoding="utf-8")
    (deps.data / "instances.yaml").write_text(text + """  - {id: newbox.xlarge, family: newbox, device: inferentia,
     device_count: 1, vcpus: 4, price: {usd_per_hour: 0.5, source: aws-pricing, as_of: 2024-01-01}}
""", encoding="utf-8")
    assert "missing" not in deps.build()  # rewritten, not read again
    assert "missing" in deps.written
    assert "$0.5/h" in deps.html("missing")
    assert "newbox" not in deps.warnings


def test_prose_is_checked_again_when_the_data_changes(deps: Site) -> None:
    deps.build()
    assert "literal 9.007 ms duplicates run:vit-inf1-b1:p90_latency_ms" in deps.warnings
    edit(deps.data / "benchmarks" / "inference.csv", ",9.007,", ",9.9,")
    assert "prose" not in deps.build()  # not read again: written, and checked, again
    assert "prose" in deps.written
    assert "literal 9.007 ms contradicts run:vit-inf1-b1:p90_latency_ms" in deps.warnings


def test_a_fit_claim_is_checked_again_when_the_names_or_fits_change(deps: Site) -> None:
    """A page whose prose makes a fit claim (and has no figure) depends on the files naming and
    rating families, not on the benchmarks."""
    deps.build()
    assert "'good fit' contradicts the data: Transformers Decoders on inferentia" in deps.warnings
    edit(deps.data / "benchmarks" / "inference.csv", ",9.007,", ",9.9,")
    deps.build()
    assert "claims" not in deps.written
    latest = sorted((deps.data / "matrix").glob("*.yaml"))[-1]  # the revision the claims are checked against
    decoder = "  - family: decoder\n    label: Transformer Decoders\n    categories: [nlp]\n    fit: poor\n"
    edit(latest, decoder, decoder.replace("fit: poor", "fit: good"))
    assert "claims" not in deps.build()
    assert "claims" in deps.written
    assert "Transformers Decoders on inferentia" not in deps.warnings


def test_a_change_to_the_extension_code_rereads_every_page(site: Site, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``env_version`` is a digest of the extension's code: doctrees made by other code are not reused."""
    package = Path(neuron_docs.__file__).parent
    copy = tmp_path / "neuron_docs"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert neuron_docs.code_version(copy) == neuron_docs.code_version()
    module = copy / Path(neuron_docs.state.domain.__file__).relative_to(package)  # wherever it lives
    module.write_text(module.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    changed = neuron_docs.code_version(copy)
    assert changed != neuron_docs.code_version()
    assert site.build() == ["benchmarks", "index", "matrix", "plain"]
    assert site.build() == []
    monkeypatch.setattr(neuron_docs, "code_version", lambda package=None: changed)
    assert site.build() == ["benchmarks", "index", "matrix", "plain"]


# Data printed when a page is written: prose roles, errata, the training experiment ---------------

LATE = ROOT.parent / "test-late-prose"
LATE_PAGES = ["beit", "changes", "errata", "index", "measured", "plain", "training", "vit", "words"]


@pytest.fixture
def late(make_app, tmp_path: Path, data_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Site:
    return Site(make_app, tmp_path / "late", data_copy, monkeypatch, root=LATE)


def scale_run_figure(data: Path, run_id: str, column: str, factor: float) -> float:
    """Multiply the ``column`` figure of run ``run_id`` in ``benchmarks/inference.csv``; the new figure."""
    path = data / "benchmarks" / "inference.csv"
    header, *rows = path.read_text(encoding="utf-8").splitlines()
    columns = header.split(",")
    row = next(r for r in rows if r.split(",")[0] == run_id)
    cells = row.split(",")
    assert len(cells) == len(columns) and cells[columns.index(column)], row  # no quoted comma, a figure
    new = float(cells[columns.index(column)]) * factor
    cells[columns.index(column)] = repr(new)
    edit(path, row, ",".join(cells))
    return new


def test_a_figure_shown_through_a_value_role_rereads_nothing_and_rewrites_only_its_page(late: Site) -> None:
    """``beit.rst`` alone prints the throughput of run ``beit-inf1-b4-nofm`` (no other page and no
    erratum reads it): a change of it re-reads no page and rewrites that page (and the index, whose
    toctree lists it)."""
    assert late.build() == LATE_PAGES
    catalog = load_catalog(late.data)
    before = catalog.inference_runs["beit-inf1-b4-nofm"].throughput_per_s
    assert before is not None
    assert format_number(before, "inferences/s") in late.html("beit")
    new = scale_run_figure(late.data, "beit-inf1-b4-nofm", "throughput_per_s", 2)
    assert late.build() == []
    assert late.written == ["beit", "index"]
    assert format_number(new, "inferences/s") in late.html("beit")
    assert format_number(before, "inferences/s") not in late.html("beit")


def test_an_errata_figure_rereads_nothing_and_rewrites_the_errata(late: Site) -> None:
    """A run that an erratum's expression reads, and no prose role: its throughput changes, the
    errata page is rewritten with the recomputed value, and nothing is read again."""
    late.build()
    catalog = load_catalog(late.data)
    values = build_values(catalog)
    shown_by_prose = {"vit-inf1-b3", "beit-inf1-b4-nofm"}
    read = [path.split(":")[1] for erratum in catalog.errata.values() if erratum.expression
            for path in evaluate(erratum.expression, values).paths if path.startswith("run:")]
    run_id = next(r for r in read if r not in shown_by_prose and catalog.inference_runs[r].throughput_per_s)
    scale_run_figure(late.data, run_id, "throughput_per_s", 2)
    assert late.build() == []
    assert late.written == ["errata", "index"]
    changed = load_catalog(late.data)
    changed_values = build_values(changed)
    for erratum in changed.errata.values():
        if erratum.expression and run_id in erratum.expression:
            text = figure(changed, changed_values, f"{erratum.expression}|{erratum.format or ''}",
                          require_format=False).text
            assert text in late.html("errata"), erratum.id


def test_a_training_figure_rereads_nothing_and_rewrites_the_experiment(late: Site) -> None:
    late.build()
    experiment = next(iter(load_catalog(late.data).experiments.values()))
    gain = experiment.price_performance[0].gain
    edit(late.data / "training.yaml", f"gain: {{value: {gain.value:g},", f"gain: {{value: {gain.value + 1:g},")
    assert late.build() == []
    assert late.written == ["index", "training"]
    assert format_number(gain.value + 1, gain.unit) in late.html("training")


def test_an_unknown_value_path_warns_at_the_role_when_the_page_is_written(late: Site) -> None:
    """At the role's line as docutils gives it (its paragraph's first line), as when roles printed
    their output when the page was read."""
    late.build()
    edit(late.srcdir / "vit.rst", "run:vit-inf1-b3:batch_size", "run:vit-inf1-b3:no_such_field")
    assert late.build() == ["vit"]
    assert "vit.rst:4: WARNING: neuron:value: unknown data value 'run:vit-inf1-b3:no_such_field' [neuron.value]" \
        in late.warnings


# Objects registered when a page is read, their content rendered when it is written ---------------

DATA_ROOT = ROOT.parent / "test-late-data"
DATA_PAGES = ["advisor", "downloads", "guidelines", "index", "issues", "matrix", "plain", "tables"]


@pytest.fixture
def objects(make_app, tmp_path: Path, data_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Site:
    """The advisor, family guidelines, known issues and roadmap, device specifications, frameworks,
    sources, environments, model status and the data downloads (``roots/test-late-data``)."""
    return Site(make_app, tmp_path / "objects", data_copy, monkeypatch, root=DATA_ROOT)


def test_a_rationale_change_rereads_nothing_and_rewrites_the_pages_showing_it(objects: Site) -> None:
    """A family's rationale on a device is shown by its guideline section and the advisor (and the
    downloads, which show every file): those are rewritten, none is read again; the pages that only
    name families (issues, model status, a support matrix) are left alone."""
    assert objects.build() == DATA_PAGES
    catalog = load_catalog(objects.data)
    family, device = next((f.id, d) for f in catalog.families.values() for d, prose in f.devices.items()
                          if prose.rationale)
    new = "A rationale rewritten for the test, in words the data never held."

    def change(document: dict) -> None:
        record = next(f for f in document["families"] if f["id"] == family)
        record["devices"][device]["rationale"] = new

    edit_yaml(objects.data / "families.yaml", change)
    assert objects.build() == []
    assert objects.written == ["advisor", "downloads", "guidelines", "index"]
    assert new in objects.html("guidelines")
    assert new in objects.html("advisor")


def _advisor_price(catalog) -> tuple[str, str]:  # noqa: ANN001 - a Catalog
    """A price of ``prices.yaml`` that the cost of a run the advisor shows uses: (price id, run id)."""
    derived = Derived(catalog)
    data = advisor_slice(derived)
    fields = data["run_fields"]
    for row in data["runs"]:
        run = catalog.published_inference_runs.get(row[fields.index("run")])
        cost = derived.published_cost(run) if run is not None else None
        if cost is not None and cost.price.price_id:
            return cost.price.price_id, run.id
    raise AssertionError("the advisor shows no cost at a price of prices.yaml")


def _advisor_text(catalog, run_id: str) -> str:  # noqa: ANN001 - a Catalog
    data = advisor_slice(Derived(catalog))
    fields = data["run_fields"]
    row = next(r for r in data["runs"] if r[fields.index("run")] == run_id)
    return html.escape(row[fields.index("throughput_text")], quote=False)


def test_a_price_the_advisor_shows_rereads_nothing_and_rewrites_the_pages_showing_it(objects: Site) -> None:
    """An RI-effective price that the cost of a best run uses: the advisor (and the guidelines'
    measured models, which show prices, and the downloads) are rewritten with the new cost."""
    objects.build()
    catalog = load_catalog(objects.data)
    price_id, run_id = _advisor_price(catalog)
    before = _advisor_text(catalog, run_id)
    assert before in objects.html("advisor")
    path = objects.data / "prices.yaml"
    line = next(x for x in path.read_text(encoding="utf-8").splitlines() if f"{{id: {price_id}," in x)
    old = float(catalog.prices[price_id].usd_per_hour)
    edit(path, line, line.replace(f"usd_per_hour: '{catalog.prices[price_id].usd_per_hour}'",
                                  f"usd_per_hour: '{old * 2:.3f}'"))
    assert objects.build() == []
    assert objects.written == ["advisor", "downloads", "guidelines", "index"]
    after = _advisor_text(load_catalog(objects.data), run_id)
    assert after != before
    assert after in objects.html("advisor")
    assert before not in objects.html("advisor")


def _change_first_issue(objects: Site, field: str, new: str) -> str:
    """Set ``field`` of the first known issue of the data copy to ``new``; returns ``new``."""
    issue = next(iter(load_catalog(objects.data).known_issues.values()))
    edit_yaml(objects.data / "issues.yaml", lambda document: next(
        i for i in document["known_issues"] if i["id"] == issue.id).update({field: new}))
    return new


def test_a_known_issue_text_rereads_nothing_and_rewrites_the_pages_showing_it(objects: Site) -> None:
    """An issue's description: its section (issues) and the advisor are rewritten; the guidelines,
    which show only the issue's title and whom it concerns, are not."""
    objects.build()
    new = _change_first_issue(objects, "description", "An issue described anew for the test.")
    assert objects.build() == []
    assert objects.written == ["advisor", "downloads", "index", "issues"]
    assert new in objects.html("issues")


def test_a_known_issue_title_rereads_the_page_that_registers_it(objects: Site) -> None:
    """An issue's title is its object's title (search, index, links): the page whose section it
    names is read again; the pages that link to it are rewritten."""
    objects.build()
    new = _change_first_issue(objects, "title", "An issue retitled for the test")
    assert objects.build() == ["issues"]
    assert "guidelines" in objects.written and "advisor" in objects.written
    assert new in objects.html("issues") and new in objects.html("guidelines")


def test_an_unknown_device_warns_at_the_directive_when_the_page_is_written(objects: Site) -> None:
    objects.build()
    edit(objects.srcdir / "tables.rst", "device-specs:: inferentia", "device-specs:: no-such-device")
    assert objects.build() == ["tables"]
    assert "tables.rst:4: WARNING: neuron:device-specs: unknown device 'no-such-device'" in objects.warnings


def test_a_family_renamed_rewrites_the_support_matrix_that_links_to_it(objects: Site) -> None:
    """A matrix shows the families' names (its links' titles) but not their prose: a rename reaches it."""
    assert objects.build() == DATA_PAGES
    catalog = load_catalog(objects.data)
    matrix = catalog.matrix("trainium")
    assert matrix is not None
    family = matrix.rows[0].family
    new = "A family name the data never held"
    edit_yaml(objects.data / "families.yaml",
              lambda document: next(f for f in document["families"] if f["id"] == family).update(name=new))
    objects.build()
    assert "matrix" in objects.written
    assert new in objects.html("matrix")


def test_a_changed_page_title_rewrites_every_page_whose_navigation_shows_it(
        make_app, tmp_path: Path, data_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page's sidebar lists every page (the real site's theme shows the global toctree): a
    title changed (by hand here; a device page's title is its name in the data) is written into all
    of them, not only into the page and its parent."""
    site = Site(make_app, tmp_path / "site", data_copy, monkeypatch, html_sidebars={"**": ["globaltoc.html"]})
    everything = site.build()
    title = (site.srcdir / "plain.rst").read_text(encoding="utf-8").splitlines()[0]
    new = "A page title the site never had"
    edit(site.srcdir / "plain.rst", f"{title}\n{'=' * len(title)}", f"{new}\n{'=' * len(new)}")
    assert site.build() == ["plain"]
    assert site.written == everything
    others = [doc for doc in everything if doc not in ("plain", "index")]
    assert others and all(new in site.html(doc) for doc in others)
    edit(site.srcdir / "plain.rst", "reads no data", "still reads no data")  # the body only
    assert site.build() == ["plain"]
    assert "benchmarks" not in site.written


HISTORY_ROOT = Path(__file__).resolve().parent / "roots" / "test-history"
HISTORY = "benchmarks/history"


@pytest.fixture
def history(make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Site:
    """The history pages of Inf1 and Inf2 and the benchmark changes (``roots/test-history``), each
    with its own table of contents in the sidebar, against a copy of ``data/`` (its history is the
    one imported from the published states)."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    return Site(make_app, tmp_path / "history", data, monkeypatch, root=HISTORY_ROOT,
                html_sidebars={"**": ["localtoc.html"]})


def test_a_history_figure_rereads_nothing_and_rewrites_only_its_generation(
        history: Site, catalog) -> None:  # noqa: ANN001
    """A figure of the history moving (as a new release's do) is shown by its generation's page and
    the changes: those are rewritten, none is read again; the other generation's page is left alone."""
    assert history.build() == ["changes", "history-inf1", "history-inf2", "index"]
    configs = {c.id for c in catalog.benchmark_configurations.values() if c.generation == "inf2"}
    first = next(o for o in catalog.benchmark_observations.values() if o.configuration in configs)
    change_csv_cell(history.data / HISTORY / "observations.csv", first.id, "value", lambda _: 987654.5, decimals=1)
    assert history.build() == []
    assert history.written == ["changes", "history-inf2", "index"]  # and the page whose toctree lists them
    # on the configuration's model page (written from the data, read by no one), by the display rule
    page = model_page("inf2", catalog.benchmark_configurations[first.configuration].model, "history-inf2")
    assert shown_figure(987654.5) in history.html(page)  # the display rule's 987655
    assert "987,654.5" not in history.html(page)
    assert anchor_for("benchmark", first.configuration) in history.html("history-inf2")  # its index row


def _rows(path: Path) -> list[dict[str, str]]:
    """A history file's rows, by column."""
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _write_rows(path: Path, rows: list[dict[str, str]]) -> None:
    """``rows`` as the history file, in its columns' order (a cell a row lacks is empty)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _append_csv_row(path: Path, row: dict[str, str]) -> None:
    """Add a row to a history file."""
    _write_rows(path, [*_rows(path), row])


def test_a_new_release_rereads_no_page_and_each_page_shows_what_it_added(
        history: Site, catalog) -> None:  # noqa: ANN001
    """A new published state that measured a configuration first with a new release: no page is
    read again. What's new is rewritten with the release's section, its table-of-contents entry and
    its index entry; the generation's page with the configuration's place; both are objects of
    ``objects.inv``. A configuration renamed reaches its page too. The state's date is the data's
    new "Data last updated": every page that prints it is rewritten (the other generation's too)."""
    history.build()
    generation = next(g for g in ("inf1", "inf2")  # the generations the root has a page for
                      if sum(c.generation == g for c in catalog.benchmark_configurations.values()) >= 2)
    path = history.data / HISTORY / "configurations.csv"
    rows = _rows(path)
    template, renamed = [r for r in rows if r["generation"] == generation][:2]
    state, date, new = "2031-01-02-0badc0de", "2031-01-02", f"{generation}-a-model-never-published-0badc0de"
    _append_csv_row(history.data / HISTORY / "states.csv", {
        "id": state, "date": date, "commit": "0badc0de", "subject": "Neuron SDK Release 9.0.0", "release": "9.0.0",
        "rows": "1", "placed": "1", "set_aside": "0"})
    renamed["model"] = f"{renamed['model']} renamed"
    rows.append({**template, "id": new, "model": "A model never published", "first_published": date,
                 "first_state": state, "last_seen": "", "withdrawn": ""})
    _write_rows(path, rows)
    _append_csv_row(history.data / HISTORY / "observations.csv", {
        "id": f"{new}-1", "configuration": new, "neuron_version": "9.0.0", "version_from": "column",
        "metric": "throughput_inferences_per_s", "value": "4321", "first_published": date, "first_state": state,
        "status": "published"})

    assert history.build() == []
    assert "[neuron." not in history.warnings
    assert history.written == ["changes", "history-inf1", "history-inf2", "index"]
    for page in ("changes", "history-inf1", "history-inf2"):
        assert f"Data last updated</em>: {date}" in history.html(page)
    changes = BeautifulSoup(history.html("changes"), "lxml")
    section = changes.find("section", id=anchor_for("changes", "9.0.0"))
    assert section is not None and section.find("h2").get_text().rstrip("¶") == \
        f"Neuron 9.0.0 (first published {date})"
    assert "Neuron SDK Release 9.0.0" in section.get_text()  # the state that published it
    assert changes.select("section.neuron-benchmark-changes")[0] is section  # newest first
    toc = [a["href"] for a in changes.select(".sphinxsidebar a") if a["href"].startswith("#")]
    newest = max((o.neuron_version for o in catalog.benchmark_observations.values()), key=version_key)
    assert toc[:3] == ["#", f"#{anchor_for('changes', '9.0.0')}", f"#{anchor_for('changes', newest)}"]
    assert "A model never published" in section.get_text()  # new in this release
    page = BeautifulSoup(history.html(f"history-{generation}"), "lxml")
    assert page.find(id=anchor_for("benchmark", new)) is not None
    assert "A model never published" in page.get_text()
    assert renamed["model"] in page.get_text()
    genindex = history.html("genindex")
    assert f"changes.html#{anchor_for('changes', '9.0.0')}" in genindex
    assert f"history-{generation}.html#{anchor_for('benchmark', new)}" in genindex
    inventory = InventoryFile.loads((history.srcdir / "_build" / "html" / "objects.inv").read_bytes(), uri="")
    assert inventory["neuron:changes", "9.0.0"].uri == f"changes.html#{anchor_for('changes', '9.0.0')}"
    assert inventory["neuron:benchmark", new].uri == f"history-{generation}.html#{anchor_for('benchmark', new)}"


def test_a_new_revision_of_the_matrices_rereads_no_page_and_whats_new_shows_it(
        make_app, tmp_path: Path, data_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new revision of the support matrices (a new file in ``data/matrix/``) is a new section of
    What's new, with its table-of-contents entry and its object: the page is rewritten, not read again."""
    import yaml

    site = Site(make_app, tmp_path / "news", data_copy, monkeypatch,
                root=Path(__file__).resolve().parent / "roots" / "test-matrix-news",
                html_sidebars={"**": ["localtoc.html"]})
    site.build()
    latest = sorted((data_copy / "matrix").glob("*.yaml"))[-1]
    document = yaml.safe_load(latest.read_text(encoding="utf-8"))
    document.update(date="2030-01-01", source="guide", unchanged_because="a test of a new revision")
    (data_copy / "matrix" / "2030-01-01.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    assert site.build() == []
    assert "news" in site.written
    soup = BeautifulSoup(site.html("news"), "lxml")
    sections = soup.select("section.neuron-matrix-changes")
    assert sections[0]["id"] == anchor_for("changes", "2030-01-01")
    assert f"#{anchor_for('changes', '2030-01-01')}" in [a["href"] for a in soup.select(".sphinxsidebar a")]
    inventory = InventoryFile.loads((site.srcdir / "_build" / "html" / "objects.inv").read_bytes(), uri="")
    assert inventory["neuron:changes", "2030-01-01"].uri == f"news.html#{anchor_for('changes', '2030-01-01')}"
