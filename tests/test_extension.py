"""The extension on small test roots: directives, roles, cross-references and located warnings."""

from __future__ import annotations

import re

import pytest
import sphinx.builders
from bs4 import BeautifulSoup

from helpers.html import soup_of
from helpers.paths import DATA, FROZEN_DATA
from neuron_docs.data import Catalog, load_catalog
from neuron_docs.data.figures.formatting import NumberFormat, format_number
from neuron_docs.data.records.labels import FIT_WORDS, STATUS_WORDS
from neuron_docs.state.domain import anchor_for

#: The test roots' pages name records and their names by hand (``encoder``, "Support of large
#: models", "ViT"): they are built against the frozen copy of the data, as the tests' catalog is.
REAL_DATA = {"neuron_data_dir": str(FROZEN_DATA)}
#: The data of the repository (the frozen data has no benchmark history).
REPOSITORY_DATA = {"neuron_data_dir": str(DATA)}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    """The frozen data set these builds read (this module's, not conftest's ``data/``)."""
    return load_catalog(FROZEN_DATA)


def soup(app, page: str) -> BeautifulSoup:
    return soup_of(app.outdir / page)


@pytest.mark.sphinx("html", testroot="basic", confoverrides=REAL_DATA, freshenv=True)
def test_basic_project_builds_without_warnings(app):
    """It builds cleanly; and the data set, frozen for the garbage collector while the pages are read
    and written, is the collector's again once the build is over (``state.loading``)."""
    import gc

    frozen: list[int] = []
    app.connect("env-updated", lambda app, env: frozen.append(gc.get_freeze_count()))
    app.build()
    assert app.warning.getvalue() == ""
    assert frozen and frozen[0] > 0 and gc.get_freeze_count() == 0


@pytest.mark.sphinx("html", testroot="basic", confoverrides=REAL_DATA, freshenv=True)
def test_filtered_matrix_has_only_requested_rows_and_columns(app, catalog):
    app.build()
    table = soup(app, "matrix.html").select_one("table.neuron-support-matrix")
    headers = [th.get_text(" ", strip=True) for th in table.select("thead th")]
    rev, matrix = catalog.revision(), catalog.matrix("trainium")
    columns = [c for c in matrix.columns if c.framework == "torch-neuronx"]
    assert headers == ["Model Family / Neural Network Architecture", "Category", "Hardware Architecture",
                       *(c.header.replace("``", "") for c in columns)]
    expected = [r for r in matrix.rows if "nlp" in r.categories]
    rows = table.select("tbody tr")
    assert [r.select("td")[0].get_text(strip=True) for r in rows] == [r.label for r in expected]
    since = catalog.matrix_revisions.since(rev)
    first = catalog.matrix_revisions.first_listing("trainium")
    for row, data in zip(rows, expected, strict=True):
        cells = [td.get_text(" ", strip=True) for td in row.select("td")]
        assert cells[1] == " and ".join(catalog.categories[c].name for c in data.categories)
        assert cells[2] == rev.fits[data.fit]
        for text, column in zip(cells[3:], columns, strict=True):
            date = max(since[(matrix.id, data.family, column.key)], first)
            assert text == f"{rev.statuses[data.cells[column.key].status].label} since {date.isoformat()}"


@pytest.mark.sphinx("html", testroot="basic", confoverrides=REAL_DATA, freshenv=True)
def test_cross_references_resolve_to_canonical_places(app):
    app.build()
    page = soup(app, "index.html")
    links = {a.get_text(strip=True): a["href"] for a in page.select("a.reference.internal")}
    # A reference without an explicit title reads as the object's name.
    assert links["Transformers Encoders"] == "matrix.html#family-encoder"
    assert links["AWS Trainium"] == "matrix.html#device-trainium"
    assert links["inf1.2xlarge"] == "matrix.html#instance-inf1-2xlarge"
    assert links["PyTorch Neuron (torch-neuronx)"] == "matrix.html#framework-torch-neuronx"
    assert links["ViT"] == "matrix.html#model-vit-base"
    assert links["Support of large models"] == "matrix.html#issue-large-model-weights-2gb"
    assert links["BERT"] == "matrix.html#family-encoder"  # a representative model finds its family
    target = soup(app, "matrix.html")
    for href in (v for v in links.values() if "#" in v):
        assert target.find(id=href.split("#", 1)[1]) is not None, href


@pytest.mark.sphinx("html", testroot="basic", confoverrides=REAL_DATA, freshenv=True)
def test_roles_print_values_and_derived_claims(app, catalog):
    app.build()
    values = [a.get_text() for a in soup(app, "prose.html").select("abbr.neuron-value")]
    run, gpu = catalog.inference_runs["vit-inf1-b3"], catalog.inference_runs["vit-g5-b128"]
    price = catalog.instances["inf1.2xlarge"].price.usd_per_hour
    assert values == [
        format_number(run.throughput_per_s, "inferences/s"),
        format_number(price / (run.throughput_per_s * 3600) * 1e6, "USD", NumberFormat(2)),
        format_number(run.throughput_per_s - gpu.throughput_per_s, "inferences/s", NumberFormat(0)),
    ]
    words = [a.get_text() for a in soup(app, "prose.html").select("abbr.neuron-fit-word, abbr.neuron-status-word")]
    _, cell = catalog.support_cell("encoder-decoder", "trainium", "torch-neuronx")
    assert words == [FIT_WORDS[catalog.fit("decoder", "inferentia")], STATUS_WORDS[cell.status]]


@pytest.mark.sphinx("html", testroot="basic", confoverrides=REAL_DATA, freshenv=True)
def test_objects_inventory_lists_every_object(app, catalog):
    from sphinx.util.inventory import InventoryFile

    app.build()
    with (app.outdir / "objects.inv").open("rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    data = inventory.data if hasattr(inventory, "data") else inventory
    nlp = {f.id for f in catalog.families.values() if f.category == "nlp"}
    assert {name for name in data["neuron:family"] if name in catalog.families} == nlp
    for name, entry in data["neuron:family"].items():  # other names (titles, synonyms) land on a family
        assert entry[2].split("#")[1] in {f"family-{f}" for f in nlp}, name
    assert set(data["neuron:instance"]) == {i.id for i in catalog.instances.values() if i.device == "inferentia"}
    assert {name for name in data["neuron:framework"] if name in catalog.frameworks} == set(catalog.frameworks)
    for name, entry in data["neuron:framework"].items():  # a framework's title lands on its row
        assert entry[2].split("#")[1] in {f"framework-{f}" for f in catalog.frameworks}, name
    assert "BERT" in data["neuron:representative"]


@pytest.mark.sphinx("html", testroot="basic", confoverrides=REAL_DATA, freshenv=True)
def test_general_index_has_entries(app):
    app.build()
    text = soup(app, "genindex.html").get_text(" ")
    assert "Transformers Encoders (model family)" in text
    assert "inf1.2xlarge (instance type)" in text


@pytest.mark.sphinx("html", testroot="bad-directives", confoverrides=REAL_DATA, freshenv=True)
def test_misuse_gives_located_warnings_not_tracebacks(app):
    app.build()
    warnings = app.warning.getvalue()
    expected = [
        r"index.rst:4: WARNING: neuron:support-matrix: no support matrix for device 'tpu-v9'",
        r"index.rst:6: WARNING: neuron:support-matrix: framework 'jax-neuronx' has no column in the matrix of 'trainium'",
        r"index.rst:6: WARNING: neuron:support-matrix: unknown category 'audio'",
        r"index.rst:10: WARNING: neuron:value: unknown data value 'run:nope:throughput'",
        r"index.rst:12: WARNING: neuron:value: a derived figure needs a declared format",
        r"index.rst:14: WARNING: neuron:value: format ' %d' is not understood",
        r"index.rst:16: WARNING: neuron:value: only data paths, numbers",
        r"index.rst:18: WARNING: .*transformers",
        r"index.rst:20: WARNING: neuron:fit: expected 'family/device'",
    ]
    for pattern in expected:
        assert re.search(pattern, warnings), f"{pattern!r} not in:\n{warnings}"
    assert "Traceback" not in warnings


@pytest.mark.sphinx("html", testroot="basic", confoverrides=REAL_DATA, parallel=2, freshenv=True)
def test_parallel_build_merges_domain_data(app):
    app.build()
    assert app.warning.getvalue() == ""
    domain = app.env.get_domain("neuron")
    assert ("family", "encoder") in domain.objects
    assert soup(app, "index.html").select_one('a[href="matrix.html#family-encoder"]') is not None


@pytest.mark.sphinx("html", testroot="duplicates", confoverrides=REAL_DATA, freshenv=True)
def test_duplicate_object_is_reported_in_a_serial_build(app):
    app.build()
    assert "duplicate device 'inferentia', also described in p1" in app.warning.getvalue()


@pytest.mark.sphinx("html", testroot="duplicates", confoverrides=REAL_DATA, parallel=2, freshenv=True)
def test_duplicate_object_is_reported_in_a_parallel_build_too(app):
    app.build()
    assert "duplicate device 'inferentia', also described in p1" in app.warning.getvalue()
    assert app.env.get_domain("neuron").objects[("device", "inferentia")].docname == "p1"


@pytest.mark.sphinx("html", testroot="alias-labels", confoverrides=REAL_DATA, parallel=2, freshenv=True)
def test_an_alias_label_goes_to_the_first_page_by_name_in_a_parallel_build(app, monkeypatch):
    """``a`` and ``b`` both name ``ResNet-50``; ``b``, read slowly, is merged last. Its label
    (``model-...``, in ``objects.inv`` as ``std:label``) goes to ``a`` all the same, as in a serial
    build: the standard domain keeps the label of the page merged last, so the label is given once
    every page has been merged."""
    monkeypatch.setattr(sphinx.builders, "make_chunks", lambda docnames, nproc, maxbatch=10: [[d] for d in docnames])
    app.build()
    assert app.warning.getvalue() == ""
    std = app.env.domains.standard_domain
    aliases = app.env.get_domain("neuron").aliases
    named = [alias for alias, place in aliases.items() if place[2] == "model"]
    assert named, "the pages name no model"
    for alias in named:
        label = anchor_for("model", alias)
        assert std.anonlabels[label][0] == aliases[alias][0] == "a", alias


@pytest.fixture(scope="module")
def releases() -> list[str]:
    """The Neuron releases of the repository's benchmark history, oldest first."""
    from neuron_docs.data.records.history import version_key  # noqa: PLC0415

    found = sorted({o.neuron_version for o in load_catalog(DATA).benchmark_observations.values()}, key=version_key)
    assert found, "the data has no published benchmark figure"
    return found


def _release_sections(app, page: str) -> list[str]:
    soup = soup_of(app.outdir / f"{page}.html")
    return [section["id"] for section in soup.select("section.neuron-benchmark-changes")]


@pytest.mark.sphinx("html", testroot="hosted", confoverrides=REPOSITORY_DATA, parallel=2, freshenv=True)
def test_hosted_releases_have_one_canonical_place_and_a_copy_without_index(app, releases: list[str]) -> None:
    """The releases' sections of What's new are made when ``a`` and ``b`` are written; their
    objects (``neuron:changes``), labels and index entries once both are read (in two workers here):
    every one at ``a``, none at ``b``."""
    app.build()
    assert "[neuron" not in app.warning.getvalue()
    anchors = [anchor_for("changes", version) for version in reversed(releases)]
    assert _release_sections(app, "a") == _release_sections(app, "b") == anchors
    objects = app.env.get_domain("neuron").objects
    assert sorted(name for kind, name in objects if kind == "changes") == sorted(releases)
    assert {objects[("changes", version)].docname for version in releases} == {"a"}
    assert app.env.domains.standard_domain.anonlabels[anchors[0]] == ("a", anchors[0])
    genindex = (app.outdir / "genindex.html").read_text(encoding="utf-8")
    assert f'a.html#{anchors[0]}' in genindex and "b.html#changes-" not in genindex


@pytest.mark.sphinx("html", testroot="hosted", confoverrides=REPOSITORY_DATA, freshenv=True)
def test_two_canonical_places_of_the_releases_are_a_located_warning(app) -> None:
    page = app.srcdir / "b.rst"
    page.write_text(page.read_text(encoding="utf-8").replace("   :no-index:\n", ""), encoding="utf-8")
    app.build()
    warnings = app.warning.getvalue()
    assert re.search(r"b\.rst: WARNING: duplicate what's new section '[^']+'( and \d+ more)?, also described in a",
                     warnings)
    assert warnings.count("duplicate what's new section") == 1  # once, not once per release


@pytest.mark.sphinx("singlehtml", testroot="hosted", confoverrides=REPOSITORY_DATA, freshenv=True)
def test_on_one_page_the_canonical_sections_keep_their_anchors_before_a_copy(app, releases: list[str]) -> None:
    """The single HTML page holds ``b``'s copy first (the toctree lists it first here), then ``a``'s
    canonical sections: the anchors, table-of-contents links and index stay with ``a``'s; the copy's
    sections take numbered ids."""
    index = app.srcdir / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace("   a\n   b\n", "   b\n   a\n"), encoding="utf-8")
    app.build()
    soup = soup_of(app.outdir / "index.html")
    latest = anchor_for("changes", releases[-1])
    holder = soup.find(id=latest)
    assert holder is not None and holder.find_parent("section", id="benchmark-changes") is not None
    copy = soup.find("section", id="benchmark-changes-again")
    assert copy is not None and copy.find(id=latest) is None
