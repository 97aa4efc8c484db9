"""Generated content is rendered when a page is written (neuron_docs.render).

- The doctree kept between builds holds light placeholders, not the generated tables.
- Every builder renders the content: text and LaTeX output hold the figures of the data, those the
  prose roles print and those of the errata, the training experiment, measured models and What's new,
  the advisor, family guidelines, known issues, roadmap items, specifications, frameworks, sources,
  environments, model status and the data downloads.
- Table rows written straight to HTML (render.html_rows) are, on every generated table of the real
  site they cover, byte for byte what Sphinx's HTML writer writes for the same rows; they cover
  every support matrix and benchmark table (others, with a node they do not know such as a
  literal, are left to the writer).
- Rows made as HTML when a matrix is rendered (render.light_rows) are what the writer writes for the
  same matrix rendered as nodes; the search index reads the same words in them, and their CSV is the
  same.

What a data change re-reads and rewrites is tests/test_incremental.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes

from helpers.edits import edit_yaml
from helpers.paths import DATA
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.formatting import format_number, shown_measure
from neuron_docs.data.records.labels import FIT_WORDS, STATUS_WORDS
from neuron_docs.data.figures.shown import figure
from neuron_docs.data.figures.values import build_values
from neuron_docs.directives import matrix as matrix_directives
from neuron_docs.render.expand import MAX_COLUMN_WIDTH
from neuron_docs.node_data import CELLS_HTML, CSV_ROWS, ROWS_HTML
from neuron_docs.render.html_rows import rows_html
from neuron_docs.render.light_rows import RowWriter
from neuron_docs.render.placeholder import deferred, deferred_inline
from neuron_docs.site.downloads.table_csv import page_notes, table_csv

ROOT = Path(__file__).resolve().parent / "roots" / "test-incremental"
LATE = ROOT.parent / "test-late-prose"
DATA_ROOT = ROOT.parent / "test-late-data"
ROOTS = {"late": LATE, "data": DATA_ROOT}


def test_the_kept_doctree_holds_placeholders_and_the_page_the_tables(site) -> None:
    doctree = site.app.env.get_doctree("architecture-fit")
    placeholders = [p for p in doctree.findall(deferred) if p["renderer"] in ("support-matrix", "matrix-view")]
    assert placeholders
    assert not [t for t in doctree.findall(nodes.table) if "neuron-support-matrix" in t["classes"]]
    tables = site.soup("architecture-fit.html").select("table.neuron-support-matrix")
    assert len(tables) == len(placeholders)


def _translator_rows(builder, doctree: nodes.document, tbody: nodes.tbody, before: int) -> str:
    """What Sphinx's HTML writer writes for the rows of ``tbody`` (after ``before`` header rows)."""
    translator = builder.create_translator(doctree, builder)
    translator._table_row_indices = [before]
    tgroup = tbody.parent
    tgroup.stubs = [False] * int(tgroup["cols"])
    for row in tbody.children:
        row.walkabout(translator)
    return "".join(translator.body)


def _straight_rows_compared(app: Any) -> int:
    """Every table body of ``app``'s pages whose rows are written straight to HTML, against what the
    writer writes for them (asserted); how many were compared."""
    env, builder = app.env, app.builder
    compared = 0
    for docname in sorted(env.found_docs):
        doctree = env.get_and_resolve_doctree(docname, builder, tags=builder.tags)
        doctree.settings = builder.docsettings  # as the HTML builder writes it
        covered = set()
        for table in doctree.findall(nodes.table):  # matrices and benchmark tables: marked and covered
            if {"neuron-support-matrix", "neuron-benchmark-table"} & set(table["classes"]):
                covered |= {id(tbody) for tbody in table.findall(nodes.tbody)}
                assert all(ROWS_HTML.get(tbody) for tbody in table.findall(nodes.tbody)), docname
        for tbody in list(doctree.findall(nodes.tbody)):
            if not ROWS_HTML.get(tbody) or any(CELLS_HTML.on(row) for row in tbody.children):
                continue  # rows made as HTML: see the test below
            before = sum(len(head.children) for head in tbody.parent.findall(nodes.thead))
            fast = rows_html(tbody, before)
            assert fast is not None or id(tbody) not in covered, f"{docname}: a matrix the rows writer does not cover"
            if fast is None:
                continue  # left to the writer
            assert fast[0] == _translator_rows(builder, doctree, tbody, before), docname
            assert fast[1] == before + len(tbody.children)
            compared += 1
    return compared


def test_rows_written_straight_to_html_on_a_small_root_are_what_the_writer_writes(make_app, tmp_path: Path) -> None:
    """The test root's support matrix and benchmark table (``make test``; every page of the real site:
    the next test, in ``make test-e2e``)."""
    srcdir = tmp_path / "src"
    shutil.copytree(ROOT, srcdir)
    app = make_app("html", srcdir=srcdir, confoverrides={"neuron_data_dir": str(DATA)})
    app.build()
    assert _straight_rows_compared(app)


@pytest.mark.builders  # the whole real site rendered again through docutils' HTML writer
def test_rows_written_straight_to_html_are_what_the_writer_writes(site) -> None:
    assert _straight_rows_compared(site.app)


def _resolved(site, docname: str) -> nodes.document:
    builder = site.app.builder
    doctree = site.app.env.get_and_resolve_doctree(docname, builder, tags=builder.tags)
    doctree.settings = builder.docsettings  # as the HTML builder writes it
    return doctree


@pytest.mark.builders  # the whole real site rendered again through docutils' HTML writer
def test_rows_made_as_html_are_what_the_writer_writes_for_the_nodes(site, monkeypatch) -> None:
    """Every matrix whose rows are made as HTML, against the same matrix rendered as nodes: the same
    rows written, the same words for the search index, the same CSV."""
    builder = site.app.builder
    compared = light = 0
    for docname in sorted(site.app.env.found_docs):
        fast = _resolved(site, docname)
        if not any("neuron-support-matrix" in table["classes"] for table in fast.findall(nodes.table)):
            continue  # no matrix: nothing to compare (the history pages are the costliest to render)
        with monkeypatch.context() as patch:
            patch.setattr(matrix_directives, "row_writer", lambda ctx: None)
            slow = _resolved(site, docname)
        tables = [(a, b) for a, b in zip(fast.findall(nodes.table), slow.findall(nodes.table), strict=True)
                  if "neuron-support-matrix" in a["classes"]]
        for made, as_nodes in tables:
            body, nodes_body = next(made.findall(nodes.tbody)), next(as_nodes.findall(nodes.tbody))
            rows = [row for row in body.children if CELLS_HTML.on(row)]
            if not rows:
                continue
            light += len(rows)
            before = sum(len(head.children) for head in made.findall(nodes.thead))
            written = rows_html(body, before)
            assert written is not None
            assert written[0] == _translator_rows(builder, slow, nodes_body, before), docname
            for row, nodes_row in zip(body.children, nodes_body.children, strict=True):
                if CELLS_HTML.on(row):
                    words = [t.astext() for t in nodes_row.findall(nodes.Text)]
                    assert row.astext().split() == " ".join(words).split(), docname
            assert CSV_ROWS.get(made) == CSV_ROWS.get(as_nodes), docname  # one model, however the rows are written
            CSV_ROWS.pop(as_nodes, None)  # the nodes read back: the model says what they show
            assert table_csv(made) == table_csv(as_nodes, page_notes(slow)), docname
            compared += 1
    assert compared and light


def _tbody_html(site, tbody: nodes.tbody) -> str:
    builder = site.app.builder
    translator = builder.create_translator(_resolved(site, "index"), builder)
    translator._table_row_indices = [1]  # after a header row
    tgroup = nodes.tgroup(cols=1)
    tgroup += tbody
    tgroup.stubs = [False]
    tbody.walkabout(translator)
    return "".join(translator.body)


def test_a_row_left_to_the_writer_among_rows_made_as_html(site) -> None:
    """A row the rows writer does not cover (a literal) among rows made as HTML: the writer writes
    that row, the others keep their HTML, the parity runs on; all as the writer would write them."""
    def cell(text: str, ids: tuple[str, ...] = ()) -> nodes.row:
        row = nodes.row(ids=list(ids))
        row += nodes.entry("", nodes.paragraph(text, text))
        return row

    def light(text: str, ids: tuple[str, ...]) -> nodes.row:
        row = nodes.row(ids=list(ids))
        CELLS_HTML.set(row, f"<td><p>{text}</p></td>\n")
        row += nodes.Text(text)
        return row

    literal = nodes.row()
    literal += nodes.entry("", nodes.paragraph("", "", nodes.literal("y", "y")))
    mixed = nodes.tbody(**ROWS_HTML.attribute(True))
    mixed += [light("a", ("row-a",)), literal.deepcopy(), light("b", ())]
    plain = nodes.tbody()
    plain += [cell("a", ("row-a",)), literal.deepcopy(), cell("b")]
    written = _tbody_html(site, mixed)
    assert written == _tbody_html(site, plain)
    assert '<tr class="row-even" id="row-a"><td><p>a</p></td>' in written and "<code" in written


def test_a_matrix_with_notes_gives_the_same_html_and_csv_with_rows_made_as_html(make_app, tmp_path: Path,
                                                                                monkeypatch) -> None:
    """Cells with a note or an annotation (numbered notes under the table, a Notes column in the
    CSV) among rows made as HTML: the pages and CSV files are those of the matrix made as nodes."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)

    def note(cells: dict, **what: str) -> None:  # a cell is its status, or a mapping with one
        key, cell = next(iter(cells.items()))
        cells[key] = {**(cell if isinstance(cell, dict) else {"status": cell}), **what}

    def add_notes(document: dict) -> None:
        matrix = next(m for m in document["matrices"] if "trainium" in m["devices"])
        note(matrix["rows"][0]["cells"], note="Published note, with a comma")
        note(matrix["rows"][2]["cells"], annotation="=Our own note")
        # Family labels put into the HTML of another row's (RowWriter.link_cell): characters to
        # escape, a label followed by words of its own, one holding a character the swap stands on.
        matrix["rows"][1]["label"] = 'Encoder <&> "quoted"'
        matrix["rows"][3]["published_in"] = "prose"
        matrix["rows"][4]["label"] = "Odd \ue003 label"
        matrix["rows"][5]["published_in"] = "prose"
        matrix["rows"][5]["label"] = "Tail & <b>"

    edit_yaml(sorted((data / "matrix").glob("*.yaml"))[-1], add_notes)
    outputs = {}
    made: list[bool] = []
    light_row = RowWriter.row

    def counted(self: RowWriter, *args: Any, **kwargs: Any) -> nodes.row | None:
        row = light_row(self, *args, **kwargs)
        made.append(row is not None)
        return row

    read_back: list[tuple[str, str]] = []

    def read_matrices_back(app: Any, doctree: nodes.document, docname: str) -> None:
        """Each matrix's CSV as its model gives it, and as its nodes read back with the page's notes."""
        for table in doctree.findall(nodes.table):
            if "neuron-support-matrix" in table["classes"]:
                given = table_csv(table)
                rows = CSV_ROWS.pop(table, None)
                assert rows is not None, docname  # made from its rows, though they are written as nodes
                read_back.append((table_csv(table, page_notes(doctree)), given))
                CSV_ROWS.set(table, rows)

    for mode in ("light", "nodes"):
        srcdir = tmp_path / mode
        shutil.copytree(ROOT, srcdir)
        # The families' own places, on a page of their own: the matrix's rows link to them.
        (srcdir / "guidelines.rst").write_text(":orphan:\n\nGuidelines\n==========\n\n.. neuron:family-guidelines::\n")
        with monkeypatch.context() as patch:
            patch.setattr(RowWriter, "row", counted)
            if mode == "nodes":
                patch.setattr(matrix_directives, "row_writer", lambda ctx: None)
            app = make_app("html", srcdir=srcdir, confoverrides={"neuron_data_dir": str(data)})
            if mode == "nodes":  # before the tables' CSVs are written (400)
                app.connect("doctree-resolved", read_matrices_back, priority=390)
            app.build()
        out = Path(app.outdir)
        outputs[mode] = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
                         if p.suffix in (".html", ".csv")}
    assert outputs["light"] == outputs["nodes"]
    csv = outputs["light"]["_downloads/tables/support-matrix-trainium.csv"].decode()
    assert "Notes" in csv.splitlines()[0]
    assert "[1] Published note, with a comma" in csv and "[2] Project note: =Our own note" in csv
    page = outputs["light"]["matrix.html"].decode()
    assert CELLS_HTML.key not in page
    assert 'href="guidelines.html#family-' in page
    assert "Encoder &lt;&amp;&gt; &quot;quoted&quot;" in page and "Odd \ue003 label" in page
    assert any(made)  # the rows without a note were made as HTML
    # The matrix's CSV is its model's however its rows are written, and says what its nodes show.
    assert read_back and all(nodes_read == given for nodes_read, given in read_back), read_back


def test_prose_roles_leave_placeholders_and_the_page_the_figures(site) -> None:
    """A page of prose with figures: the kept doctree holds no figure, the HTML every one."""
    doctree = site.app.env.get_doctree("inference/results-analysis")
    roles = list(doctree.findall(deferred_inline))
    assert roles
    printed = {"neuron-value", "neuron-fit-word", "neuron-status-word"}
    assert not [a for a in doctree.findall(nodes.abbreviation) if printed & set(a["classes"])]
    shown = site.soup("inference/results-analysis.html").select("abbr.neuron-value, abbr.neuron-fit-word, "
                                                                "abbr.neuron-status-word")
    assert len(shown) == len(roles)


@pytest.fixture
def built(make_app, tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """The incremental test root (or one of ``ROOTS``, for a builder named ``text:late``...) built
    with the builder ``request.param``; its output directory."""
    srcdir = tmp_path / "root"
    builder, _, root = request.param.partition(":")
    shutil.copytree(ROOTS.get(root, ROOT), srcdir)
    app = make_app(builder, srcdir=srcdir, confoverrides={"neuron_data_dir": str(DATA)})
    app.build()
    assert "Traceback" not in app.warning.getvalue()
    return Path(app.outdir)


@pytest.mark.parametrize("built", ["text", "latex"], indirect=True)
def test_other_builders_render_the_generated_content(built: Path) -> None:
    """The matrix of trainium and the benchmark table of vit-base, as text and as LaTeX: every row
    label and status of the matrix, every run's instance and figures, as the data holds them."""
    catalog = load_catalog(DATA)
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(built.rglob("*.t*")) if p.suffix in (".txt", ".tex"))
    text = " ".join(text.replace("\\sphinxhyphen{}", "-").replace("{-}", "-").split())
    matrix = catalog.matrix("trainium")
    assert matrix is not None and matrix.rows
    rev = catalog.revision()
    assert rev is not None
    for row in matrix.rows:  # a cell wider than the text writer's column wraps
        assert row.label in text if len(row.label) <= MAX_COLUMN_WIDTH else all(w in text for w in row.label.split())
        for cell in row.cells.values():
            assert rev.statuses[cell.status].label in text
    runs = [r for r in catalog.inference_runs.values() if r.model == "vit-base"]
    assert runs
    for run in runs:
        if run.throughput_per_s is not None:
            assert shown_measure(run.throughput_per_s, "inferences/s") in text
        if run.p90_latency_ms is not None:
            assert shown_measure(run.p90_latency_ms, "ms") in text


def _output_text(built: Path) -> str:
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(built.rglob("*.t*")) if p.suffix in (".txt", ".tex"))
    return " ".join(text.replace("\\sphinxhyphen{}", "-").replace("{-}", "-").replace("\\%", "%").split())


@pytest.mark.parametrize("built", ["text:late", "latex:late"], indirect=True)
def test_other_builders_render_what_is_printed_when_the_page_is_written(built: Path) -> None:
    """The figures, fit and status of prose roles, the errata's recomputed values, the training
    experiment's claimed gains, the measured models of a family and What's new's revisions."""
    catalog = load_catalog(DATA)
    values = build_values(catalog)
    text = _output_text(built)
    for expression in ("run:vit-inf1-b3:throughput", "run:vit-inf1-b3:batch_size", "run:beit-inf1-b4-nofm:throughput"):
        assert figure(catalog, values, expression).text in text, expression
    fit = catalog.fit("decoder", "inferentia")
    found = catalog.support_cell("encoder", "inferentia", "torch-neuron")
    assert fit is not None and found is not None
    assert FIT_WORDS[fit] in text
    assert STATUS_WORDS[found[1].status] in text
    errata = [e for e in catalog.errata.values() if e.expression]
    assert errata
    for erratum in errata:
        assert figure(catalog, values, f"{erratum.expression}|{erratum.format or ''}", require_format=False).text in text
    for experiment in catalog.experiments.values():
        assert experiment.model in text
        for pp in experiment.price_performance:
            assert format_number(pp.gain.value, pp.gain.unit) in text
    models = [m.name for m in catalog.published_models.values() if m.family == "encoder"]
    assert any(name in text for name in models)
    for rev in catalog.matrix_revisions.revisions:
        assert f"The support matrices as of {rev.name}" in text


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("built", ["text:data", "latex:data"], indirect=True)
def test_other_builders_render_the_content_of_registered_objects(built: Path) -> None:
    """The guidelines' descriptions, rationales and support text, the known issues' descriptions,
    the roadmap items, a device's specifications, the frameworks, sources, environments and models,
    the advisor's families and the download's collections, as the data holds them; no JSON island."""
    catalog = load_catalog(DATA)
    text = _output_text(built).replace("\\$", "$").replace("\\&", "&").replace("\\_", "_")
    for family in catalog.families.values():
        assert family.name in text and _words(family.description) in text, family.id
        for prose in family.devices.values():
            for said in (prose.rationale, prose.support_text):
                assert said is None or _words(said) in text, family.id
    for issue in catalog.known_issues.values():
        assert issue.title in text and _words(issue.description) in text, issue.id
    for item in catalog.roadmap.values():
        assert item.title in text
    device = catalog.devices["inferentia"]
    for quantity in device.specs.values():
        assert format_number(quantity.value, quantity.unit) in text, quantity.label
    for framework in catalog.frameworks.values():
        assert framework.package in text
    for source in catalog.sources:
        assert source in text
    for environment in catalog.environments:
        assert environment in text
    for model in catalog.models.values():
        assert model.name in text
    assert "neuron-advisor-data" not in text
    assert "Record type" in text
