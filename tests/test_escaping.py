"""Strings from data are text, never markup.

Hostile text - reStructuredText, raw-HTML directives, HTML, MyST and Jinja2 template syntax - is
put into the names, titles, notes, rationales, representatives, labels, source titles, CSV cells
and so on of a copy of ``data/``; the real site is built from it, and every page must show that
text literally (escaped), with no element, link, script or template expansion made from it.

Also here: directive arguments and options never read files (no option takes a path), and data
files are read with a safe YAML loader only (``!!python/...`` tags are refused, never executed).
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest

from helpers.edits import edit_yaml
from helpers.paths import DATA, REPO
from helpers.site import build_site
from helpers.warnings import real_warnings
from neuron_docs.data import load_catalog

# Markup in every language the pipeline touches. None of it may be interpreted.
RST = "**bold** :ref:`x` `e <https://evil.example/r>`_ |s|"
HTML = "<script>alert(1)</script><img src=x onerror=alert(2)>"
MYST = "{ref}`y` [md](https://evil.example/m)"
JINJA = "{{ 7*7 }} {% if 1 %}J{% endif %}{# c #}"
RAW_DIRECTIVE = '.. raw:: html\n\n   <b class="pwned">raw</b>\n\n.. include:: /etc/passwd\n'


def hostile(tag: str) -> str:
    """A one-line hostile string, unique per field so that each field's output can be found."""
    return f"{tag} {RST} {HTML} {MYST} {JINJA}"


def _norm(text: str) -> str:
    return " ".join(text.split())


def _by_id(records: list[dict], record_id: str) -> dict:
    return next(r for r in records if r["id"] == record_id)


#: field tag -> page(s) where the field's text must appear literally.
EXPECTED: dict[str, tuple[str, ...]] = {
    "FAMNAME": ("whats-new.html",),  # matrix rows show the revision's own labels
    "FAMTITLE": ("architecture-fit.html",),
    "REPR": ("architecture-fit.html",),
    "RATIONALE": ("architecture-fit.html",),
    "SUPPORTNOTE": ("architecture-fit.html", "devices/trainium.html"),
    "SUPPORTTEXT": ("architecture-fit.html",),
    "CATNAME": ("architecture-fit.html",),
    "CATTITLE": ("architecture-fit.html",),
    "SUPPORTDEF": ("architecture-fit.html",),
    "FWNAME": ("instances.html",),  # matrix headers are the revision's own
    "ISSUETITLE": ("architecture-fit.html",),
    "ISSUEEX": ("architecture-fit.html",),
    "SRCTITLE": ("sources.html",),
    "SRCLINKTITLE": ("sources.html", "instances.html"),
    "FEATURE": ("devices/trainium.html",),
    "DEVNAME": ("devices/trainium.html", "devices/index.html", "instances.html"),
    "SPECLABEL": ("devices/trainium.html", "instances.html"),
    "MODELNOTES": ("inference/results-analysis.html",),
    "MODELNAME": ("inference/results-analysis.html",),
    "VARIANT": ("inference/results-analysis.html",),
    "ENVOS": ("sources.html",),
    "COMPILEOPTS": ("inference/results-analysis.html",),
    "COMPILENOTE": ("training/inferentia2.html",),
    "ROADMAPDESC": ("roadmap.html",),
}
#: Multi-line hostile text (a raw directive and an include) in long-text fields.
EXPECTED_RAW: dict[str, tuple[str, ...]] = {
    "FAMDESC": ("architecture-fit.html",),
    "ISSUEDESC": ("architecture-fit.html",),
}


def _make_hostile(data: Path) -> None:
    def families(doc: dict) -> None:
        nlp = _by_id(doc["categories"], "nlp")
        nlp["name"], nlp["title"] = hostile("CATNAME"), hostile("CATTITLE")
        encoder = _by_id(doc["families"], "encoder")
        encoder["name"], encoder["title"] = hostile("FAMNAME"), hostile("FAMTITLE")
        encoder["representatives"][0] = hostile("REPR")
        encoder["description"] = f"FAMDESC\n{RAW_DIRECTIVE}\n{hostile('FAMDESC')}"
        trainium = encoder["devices"]["trainium"]
        trainium["support_text"] = hostile("SUPPORTTEXT")
        _by_id(doc["families"], "decoder")["devices"]["inferentia"]["rationale"] = hostile("RATIONALE")

    def frameworks(doc: dict) -> None:
        _by_id(doc["frameworks"], "torch-neuronx")["name"] = hostile("FWNAME")

    def issues(doc: dict) -> None:
        issue = doc["known_issues"][0]
        issue["title"] = hostile("ISSUETITLE")
        issue["examples"][0] = hostile("ISSUEEX")
        issue["description"] = f"ISSUEDESC\n{RAW_DIRECTIVE}\n{hostile('ISSUEDESC')}"
        doc["roadmap"][0]["description"] = hostile("ROADMAPDESC")

    def sources(doc: dict) -> None:
        _by_id(doc["sources"], "guide")["title"] = hostile("SRCTITLE")
        _by_id(doc["sources"], "aws-pricing")["title"] = hostile("SRCLINKTITLE")

    def devices(doc: dict) -> None:
        _by_id(doc["devices"], "trainium")["features"][0] = hostile("FEATURE")
        _by_id(doc["devices"], "trainium")["name"] = hostile("DEVNAME")  # the generated page's title

    def instances(doc: dict) -> None:
        for spec in _by_id(doc["instances"], "trn1.32xlarge")["specs"].values():
            spec["label"] = hostile("SPECLABEL")

    def models(doc: dict) -> None:
        _by_id(doc["models"], "vit-base")["name"] = hostile("MODELNAME")
        layoutlm = _by_id(doc["models"], "layoutlmv3")
        layoutlm["notes"] = hostile("MODELNOTES")
        layoutlm["variants"][0]["description"] = hostile("VARIANT")
        doc["environments"][0]["os"] = hostile("ENVOS")

    def training(doc: dict) -> None:
        doc["experiments"][0]["compile_time_note"] = hostile("COMPILENOTE")

    def latest_revision(doc: dict) -> None:
        doc.pop("unchanged_because", None)  # it now changes a cell
        doc["statuses"]["supported"]["definition"] = hostile("SUPPORTDEF")
        matrix = next(m for m in doc["matrices"] if "trainium" in m["devices"])
        row = next(r for r in matrix["rows"] if r["family"] == "encoder")
        row["cells"]["torch-neuronx/training"] = {"status": "supported", "note": hostile("SUPPORTNOTE")}

    latest = sorted((data / "matrix").glob("*.yaml"))[-1].relative_to(data)
    for name, edit in ((str(latest), latest_revision), ("families.yaml", families), ("frameworks.yaml", frameworks), ("issues.yaml", issues),
                       ("sources.yaml", sources), ("devices.yaml", devices), ("instances.yaml", instances), ("models.yaml", models),
                       ("training.yaml", training)):
        edit_yaml(data / name, edit)

    runs = data / "benchmarks" / "inference.csv"
    rows = list(csv.reader(io.StringIO(runs.read_text(encoding="utf-8"), newline="")))
    column = rows[0].index("compiler_options")
    rows[1][column] = hostile("COMPILEOPTS")
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows(rows)
    runs.write_text(out.getvalue(), encoding="utf-8")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - SiteBuild
    root = tmp_path_factory.mktemp("hostile")
    data = root / "data"
    shutil.copytree(DATA, data)
    _make_hostile(data)
    catalog = load_catalog(data)
    assert not catalog.errors, "the hostile data set must be valid data:\n" + "\n".join(map(str, catalog.errors))
    return build_site(root, data_dir=data)


def _pages(site: Any) -> dict[str, str]:
    return {str(p.relative_to(site.outdir)): p.read_text(encoding="utf-8")
            for p in sorted(site.outdir.rglob("*.html"))}


def test_hostile_data_builds_without_warnings(hostile_site: Any) -> None:
    assert real_warnings(hostile_site.warnings) == ""


@pytest.mark.parametrize("tag", sorted(EXPECTED))
def test_hostile_field_is_literal_text(hostile_site: Any, tag: str) -> None:
    for page in EXPECTED[tag]:
        text = _norm(hostile_site.soup(page).get_text(" "))
        assert _norm(hostile(tag)) in text, f"{tag} is not shown literally on {page}"


@pytest.mark.parametrize("tag", sorted(EXPECTED_RAW))
def test_hostile_directive_in_long_text_is_literal(hostile_site: Any, tag: str) -> None:
    for page in EXPECTED_RAW[tag]:
        text = _norm(hostile_site.soup(page).get_text(" "))
        assert _norm(f"{tag} {RAW_DIRECTIVE} {hostile(tag)}") in text, f"{tag} is not literal on {page}"


def test_no_markup_is_made_from_data(hostile_site: Any) -> None:
    """On every page: no script, image, link, emphasis, raw HTML or template output from the data.
    (Read with lxml: every page of the site, the benchmark history's included, whose sidebars hold
    the hostile device names.)"""
    from lxml import html as lxml_html

    pages = _pages(hostile_site)
    assert "architecture-fit.html" in pages
    for name, html in pages.items():
        assert "<script>alert" not in html, name
        assert "<img src=x" not in html, name
        assert '<b class="pwned">' not in html, name
        assert "root:x:0:0" not in html, name  # no include of /etc/passwd
        tree = lxml_html.document_fromstring(html)
        for script in tree.iter("script"):
            if script.get("type") == "application/json":  # a data island (the advisor's): inert, "<" escaped
                assert "<" not in (script.text or "") and json.loads(script.text or ""), name
                continue
            assert "alert(" not in script.text_content(), f"{name}: a script element holds data: {script.text}"
        for element in tree.iter():
            if isinstance(element.tag, str):  # not a comment or a processing instruction
                assert not any(a.lower().startswith("on") for a in element.attrib), f"{name}: event handler {element.tag}"
        assert not tree.find_class("pwned"), name
        assert not [a for a in tree.iter("a") if (a.get("href") or "").startswith("https://evil.example")], \
            f"{name}: a link was made from data"
        for tag in ("strong", "em", "b", "i"):
            for element in tree.iter(tag):
                assert element.text_content() not in {"bold", "em", "md", "raw"}, f"{name}: <{tag}> made from data"
        assert "49 J" not in _norm(" ".join(tree.itertext())), f"{name}: template syntax was expanded"


def test_generated_device_page_title_and_sidebar_are_literal(hostile_site: Any) -> None:
    """A device's name is the title of its generated page and its sidebar entry, as text."""
    page = hostile_site.soup("devices/trainium.html")
    assert _norm(page.find("h1").get_text(" ")).rstrip("#¶ ") == _norm(hostile("DEVNAME"))
    entries = [_norm(a.get_text(" ")) for a in hostile_site.soup("index.html").select(".sidebar-tree a")
               if a["href"] == "devices/trainium.html"]
    assert entries == [_norm(hostile("DEVNAME"))]


def test_template_syntax_is_not_expanded(hostile_site: Any) -> None:
    text = _norm(hostile_site.soup("architecture-fit.html").get_text(" "))
    assert JINJA in text
    assert "49 J" not in text


def test_attributes_hold_data_literally(hostile_site: Any) -> None:
    """Data in attributes (a figure's tooltip names its label) is escaped, not markup."""
    from lxml import html as lxml_html

    titles = [abbr.get("title") for html in _pages(hostile_site).values()
              for abbr in lxml_html.document_fromstring(html).iter("abbr") if "SPECLABEL" in (abbr.get("title") or "")]
    assert titles, "expected a figure whose tooltip names a hostile spec label"
    assert all(hostile("SPECLABEL") in t for t in titles)


@pytest.mark.site_edits
def test_invalid_id_with_markup_is_shown_escaped_in_the_problem_box(tmp_path: Path, data_copy: Path) -> None:
    """Ids cannot hold markup (the schema's id pattern); a record trying it is set aside and shown as text."""
    def edit(doc: dict) -> None:
        doc["families"][-1]["id"] = "<script>alert(3)</script>"

    edit_yaml(data_copy / "families.yaml", edit)
    site = build_site(tmp_path, data_dir=data_copy, pages=("architecture-fit",))
    assert "<script>alert(3)" in site.warnings
    soup = site.soup("architecture-fit.html")
    boxes = soup.select(".neuron-data-problem")
    assert boxes and any("<script>alert(3)</script>" in box.get_text() for box in boxes)
    assert not any("alert(3)" in s.get_text() for s in soup.find_all("script"))
    assert "<script>alert(3)" not in site.html("architecture-fit.html")


# Directive arguments and options never read files ---------------------------------------------

def test_no_directive_option_takes_a_path(hostile_site: Any) -> None:
    """No option of any neuron directive converts a path or URI (ids and flags only, read as text)."""
    from docutils.parsers.rst import directives

    domain = hostile_site.app.env.get_domain("neuron")
    assert domain.directives, "expected the neuron domain to register directives"
    for name, directive in domain.directives.items():
        for option, converter in (getattr(directive, "option_spec", None) or {}).items():
            converter_name = getattr(converter, "__name__", repr(converter)).lower()
            assert converter not in (directives.path, directives.uri), f"neuron:{name} :{option}: takes a path"
            assert not any(w in converter_name for w in ("path", "uri", "file")), \
                f"neuron:{name} option :{option}: converts its value with {converter}"
            assert not any(w in option for w in ("path", "file", "include")), f"neuron:{name} has :{option}:"


def test_path_like_arguments_read_nothing(tmp_path: Path, data_copy: Path) -> None:
    """Paths given as directive arguments and options are just unknown ids: warned about, never opened."""
    from io import StringIO

    from sphinx.application import Sphinx

    secret = tmp_path / "secret.yaml"
    secret.write_text("SECRET-CONTENT\n", encoding="utf-8")
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(REPO / "_ext")!r})
        extensions = ["neuron_docs"]
        neuron_data_dir = {str(data_copy)!r}
    """), encoding="utf-8")
    (src / "index.rst").write_text(textwrap.dedent(f"""
        Paths
        =====

        .. neuron:support-matrix:: {secret}
           :category: {secret}
           :frameworks: ../../../../etc/passwd

        .. neuron:device-specs:: ../secret.yaml

        .. neuron:training-experiment:: /etc/passwd

        .. neuron:instance-table::
           :device: {secret}

        .. neuron:instance-table::
           :device: ../../../../../escaped

        .. neuron:benchmark-table::
           :device: ../../escaped
           :model: {secret}

        .. neuron:chart:: latency
           :device: ../../escaped
    """), encoding="utf-8")
    before = sorted(tmp_path.rglob("*"))
    from sphinx.util.docutils import docutils_namespace

    warnings = StringIO()
    with docutils_namespace():
        app = Sphinx(src, src, tmp_path / "out", tmp_path / "doctrees", "html", status=StringIO(),
                     warning=warnings, freshenv=True)
        app.build()
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "SECRET-CONTENT" not in html and "root:x:0:0" not in html
    assert "SECRET-CONTENT" not in warnings.getvalue()
    assert "unknown device" in warnings.getvalue()
    assert "Traceback" not in warnings.getvalue()
    after = sorted(p for p in tmp_path.rglob("*")
                   if p.relative_to(tmp_path).parts[0] not in ("out", "doctrees") and ".neuron-cache" not in p.parts)
    assert after == before, "a directive option made the build write outside its output directory"
    tables = tmp_path / "out" / "_downloads" / "tables"
    assert all(p.parent == tables and ".." not in p.name for p in tmp_path.rglob("*escaped*"))


def test_data_dir_reads_only_the_known_file_names(tmp_path: Path) -> None:
    """``neuron_data_dir`` only names where the fixed set of data files is; another file there is named
    as one the site does not read, with its size, and never opened (issue 32: nothing in silence)."""
    (tmp_path / "passwd").write_text("root:x:0:0\n", encoding="utf-8")
    catalog = load_catalog(tmp_path)
    assert catalog.file_hashes == {}
    # Every data file is missing, and so is the folder of matrix revisions (checked before it is read).
    others = [e for e in catalog.errors if not e.message.startswith(("file is missing", "folder is missing"))]
    assert [(e.file, e.message.split(";")[0]) for e in others] == [
        ("passwd", "a file the site does not read (11 bytes)")]
    assert "root:x" not in "\n".join(map(str, catalog.errors))


# The YAML loader is safe -----------------------------------------------------------------------

@pytest.mark.parametrize("payload", [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/apply:subprocess.check_call [['touch', '{marker}']]",
    "!!python/object/new:os.system ['touch {marker}']",
    "!!python/name:os.system",
    "!!python/module:os",
    "!!python/tuple [1, 2]",
])
def test_python_tags_are_refused_and_not_executed(data_copy: Path, tmp_path: Path, payload: str) -> None:
    marker = tmp_path / "executed"
    path = data_copy / "families.yaml"
    text = path.read_text(encoding="utf-8")
    last = list(load_catalog(data_copy).families)[-1]  # the family whose name gets the tag, whatever it is
    text, count = re.subn(rf"(?m)^(  - id: {re.escape(last)}\n(?:    .*\n)*?    name: ).+$",
                          lambda m: m.group(1) + payload.format(marker=marker), text)
    assert count == 1
    path.write_text(text, encoding="utf-8")
    catalog = load_catalog(data_copy)
    assert not marker.exists(), "a YAML tag ran code"
    assert last not in catalog.families
    messages = [str(e) for e in catalog.errors]
    assert any("tag" in m and "not allowed" in m and "families.yaml:" in m for m in messages), messages


@pytest.mark.site_edits
def test_python_tag_in_a_site_build_is_a_located_warning(data_copy: Path, tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    path = data_copy / "sources.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "title: Model Architecture Fit Guidelines (AWS Neuron documentation)",
        f"title: !!python/object/apply:os.system ['touch {marker}']", 1), encoding="utf-8")
    site = build_site(tmp_path / "site", data_dir=data_copy, pages=("sources",))
    assert not marker.exists()
    assert re.search(r"sources\.yaml:\d+: WARNING: sources\[0\]\.title: tag tag:yaml.org,2002:python/object/apply"
                     r":os.system is not allowed", site.warnings), site.warnings
    assert "Traceback" not in site.warnings
