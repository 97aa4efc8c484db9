"""Pull-request previews: changed cells and figures marked on the pages, and the changes page.

Each preview build reads the base data from a throw-away git repository holding a copy of
``data/``; the build's own data is that repository's working tree with a support status and a
price changed.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml
from bs4 import BeautifulSoup
from helpers.edits import edit_yaml
from helpers.git import git
from helpers.html import soup_of
from helpers.paths import FROZEN_DATA, REPO
from helpers.site import build_site
from helpers.warnings import without_colours
from test_matrix_diff import HISTORY_STATES, NEW_RELEASE, RELEASE_FIRST_PUBLISHED, import_history_states

from neuron_docs.preview.build import default_base

SUPPORT = ("neuroncore-v2", "decoder", "tensorflow-neuronx", "inference")  # roadmap -> supported, latest revision
G5_PRICE = (1.006, 1.212)  # USD/h of g5.xlarge, which runs vit-g5-b128 and beit-g5-b128
G5_RUNS = ("vit-g5-b128", "beit-g5-b128")
#: The changes above and the figures expected of them are typed here: the preview's repository holds
#: the frozen copy of the data, so that a legitimate change to data/ never breaks these tests.
DATA = FROZEN_DATA


def make_repo(root: Path) -> Path:
    """A git repository with a copy of data/ committed, and a changed status and price in the work tree;
    its benchmark history has two published states committed and a third, a new release, in the work
    tree (:data:`test_matrix_diff.HISTORY_STATES`)."""
    root.mkdir()
    shutil.copytree(DATA, root / "data")
    states = root.parent / f"{root.name}-states"
    import_history_states(root / "data", states, list(HISTORY_STATES)[:2])
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "data")
    git(root, "commit", "-q", "-m", "base data")

    def latest_revision(doc: dict) -> None:
        matrix, family, framework, workload = SUPPORT
        cells = next(r for m in doc["matrices"] if m["id"] == matrix for r in m["rows"] if r["family"] == family)["cells"]
        assert cells[f"{framework}/{workload}"] == "roadmap"
        cells[f"{framework}/{workload}"] = "supported"
        doc.pop("unchanged_because", None)

    def instances(doc: dict) -> None:
        price = next(i for i in doc["instances"] if i["id"] == "g5.xlarge")["price"]
        assert price["usd_per_hour"] == G5_PRICE[0]
        price["usd_per_hour"] = G5_PRICE[1]

    edit_yaml(sorted((root / "data" / "matrix").glob("*.yaml"))[-1], latest_revision)
    edit_yaml(root / "data" / "instances.yaml", instances)
    import_history_states(root / "data", states, list(HISTORY_STATES))
    return root


def html_pages(outdir: Path) -> dict[str, BeautifulSoup]:
    return {p.relative_to(outdir).as_posix(): soup_of(p) for p in sorted(outdir.rglob("*.html"))}


def marked(soup: BeautifulSoup) -> list:
    return soup.select(".neuron-changed")


def preview_warnings(warnings: str) -> list[str]:
    return [line for line in without_colours(warnings).splitlines() if "[neuron.preview]" in line]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("preview") / "repo")


@pytest.fixture(scope="module")
def preview(repo: Path, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 - SiteBuild
    """The preview as Read the Docs builds a pull request: the base comes from the environment
    (``READTHEDOCS_VERSION_TYPE=external``, ``NEURON_PREVIEW_BASE=HEAD``), not from the configuration
    (``test_unknown_base_warns_once_and_builds`` sets ``neuron_preview_base``)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("READTHEDOCS_VERSION_TYPE", "external")
        monkeypatch.setenv("NEURON_PREVIEW_BASE", "HEAD")
        return build_site(tmp_path_factory.mktemp("preview-site"), data_dir=repo / "data",
                          neuron_preview_repo=str(repo))


@pytest.fixture(scope="module")
def pages(preview) -> dict[str, BeautifulSoup]:  # noqa: ANN001
    return html_pages(preview.outdir)


def test_default_base() -> None:
    assert default_base("", {}) == ""
    assert default_base("", {"READTHEDOCS_VERSION_TYPE": "branch"}) == ""
    assert default_base("", {"READTHEDOCS_VERSION_TYPE": "external"}) == "origin/main"
    assert default_base("", {"READTHEDOCS_VERSION_TYPE": "external", "NEURON_PREVIEW_BASE": "origin/v2"}) == "origin/v2"
    assert default_base("v1.0", {"READTHEDOCS_VERSION_TYPE": "external"}) == "v1.0"


def test_preview_build_has_no_preview_warning(preview) -> None:  # noqa: ANN001
    assert preview_warnings(preview.warnings) == []


LATEST_PAGE = f"matrix/{sorted((DATA / 'matrix').glob('*.yaml'))[-1].stem}.html"
#: Where the changed cell shows: page -> (table id, row id).
#: The devices of the changed matrix, each with its generated page showing it.
MATRIX_DEVICES = next(m["devices"] for m in yaml.safe_load((DATA / "matrix" / f"{LATEST_PAGE[7:-5]}.yaml").read_text(
    encoding="utf-8"))["matrices"] if m["id"] == SUPPORT[0])
SHOWN = {"architecture-fit.html": (f"support-matrix-{SUPPORT[0]}", f"matrix-{SUPPORT[0]}-{SUPPORT[1]}"),
         **{f"devices/{d}.html": (f"support-matrix-{d}", f"matrix-{d}-{SUPPORT[1]}") for d in MATRIX_DEVICES},
         LATEST_PAGE: (f"support-matrix-{LATEST_PAGE[7:-5]}-{SUPPORT[0]}",
                       f"cell-{LATEST_PAGE[7:-5]}-{SUPPORT[0]}-{SUPPORT[1]}")}


@pytest.mark.parametrize("page", sorted(SHOWN))
def test_changed_matrix_cell_is_the_only_mark_in_its_table(pages: dict[str, BeautifulSoup], page: str) -> None:
    soup = pages[page]
    _, _, framework, workload = SUPPORT
    table_id, row_id = SHOWN[page]
    table = soup.find("table", id=table_id)
    assert table is not None
    marks = marked(table)
    assert len(marks) == 1, [str(m)[:200] for m in marks]
    (cell,) = marks
    assert "neuron-status-supported" in cell["class"]
    assert cell.find_parent("tr")["id"] == row_id
    column = [th.get_text() for th in table.find("thead").find_all("th")]
    index = cell.find_parent("td").find_previous_siblings("td")
    assert framework in column[len(index)] and workload in column[len(index)].lower()
    description = "changed in this preview: Roadmap Item -> Supported"
    assert cell.find_parent("abbr")["title"] == description
    assert cell.find_parent("td").select_one(".neuron-changed-note").get_text() == description
    # The other matrices on the page are untouched, and so is every earlier revision's page.
    assert not [m for t in soup.select("table.neuron-support-matrix") if t is not table for m in marked(t)]
    assert not [p for p, s in pages.items() if p.startswith("matrix/") and p != LATEST_PAGE and marked(s)]


def test_figures_that_depend_on_the_price_are_marked(pages: dict[str, BeautifulSoup]) -> None:
    results = pages["inference/results-analysis.html"]
    for run in G5_RUNS:
        row = results.find("tr", id=f"run-{run}")
        assert "neuron-changed" in row["class"]
        assert "changed in this preview" in row.select_one(".neuron-changed-note").get_text()
    assert "neuron-changed" not in results.find("tr", id="run-vit-inf1-b3").get("class", [])
    assert "neuron-changed" in pages["instances.html"].find("tr", id="instance-g5-xlarge")["class"]
    # Every :neuron:value: figure reads the data it names; exactly those that read a G5 cost are marked.
    values = [abbr for soup in pages.values() for abbr in soup.select("abbr.neuron-value")]
    reads_g5 = [v for v in values if any(f"run:{run}:cost_per_1m" in v["data-neuron-figure"] for run in G5_RUNS)
                or "instance:g5.xlarge:price" in v["data-neuron-figure"]]
    assert reads_g5
    assert all("neuron-changed" in v["class"] for v in reads_g5)
    assert not [v for v in values if "neuron-changed" in v["class"] and v not in reads_g5]
    g5_cost = [v for v in values if v["data-neuron-figure"] == "run:vit-g5-b128:cost_per_1m"]
    assert g5_cost
    for value in g5_cost:
        assert "changed in this preview: cost per 1M inferences of vit-g5-b128: $0.7434 -> $0.8957" in value["title"]
        assert "$0.7434 -> $0.8957" in value.find_next_sibling(class_="neuron-changed-note").get_text()


def test_changes_page_links_every_change_to_where_it_appears(preview, pages) -> None:  # noqa: ANN001
    page = pages["preview-changes.html"]
    main = page.find(id="preview-changes")
    assert main.find("h1").get_text() == "Changes in this preview"
    text = main.get_text(" ")
    assert "Roadmap Item -> Supported" in text
    assert "$1.006/h -> $1.212/h" in text
    assert "$0.7434 -> $0.8957" in text
    linked: set[tuple[str, str]] = set()
    for link in main.select("a.reference.internal"):
        target = urlsplit(urljoin("https://preview.invalid/preview-changes.html", link["href"]))
        path = target.path.lstrip("/")
        assert path in pages, link["href"]
        assert pages[path].find(id=target.fragment) is not None, link["href"]
        linked.add((path, target.fragment))
    marks = {(path, m["id"]) for path, soup in pages.items() for m in marked(soup)}
    assert marks and marks <= linked
    support = main.find(id="support-status").find("tbody").find_all("tr")
    assert len(support) == 1
    places = {(urlsplit(a["href"]).path, urlsplit(a["href"]).fragment) for a in support[0].find_all("a")}
    assert {path for path, _ in places} == set(SHOWN)
    for path, fragment in places:
        assert pages[path].find(id=fragment).find_parent("tr")["id"] == SHOWN[path][1]
    # The root page says this is a preview and links to the list; the pages link the stylesheet.
    banner = pages["index.html"].select_one(".neuron-preview-banner a")
    assert banner["href"] == "preview-changes.html"
    assert (preview.outdir / "_static" / "preview.css").is_file()
    assert pages["index.html"].find("link", href=re.compile(r"_static/preview\.css"))


def test_changes_page_lists_benchmark_changes_regressions_first(preview, pages) -> None:  # noqa: ANN001
    """The third published state of the work tree's history, against the base's two: a section per
    release of the changed figures as What's new has them (newest first; regressed first, the new
    and withdrawn configurations in a section of their own), each row linking to the configuration's
    block on its history page."""
    from neuron_docs.data import load_catalog  # noqa: PLC0415
    from neuron_docs.state.domain import anchor_for  # noqa: PLC0415

    main = pages["preview-changes.html"].find(id="preview-changes")
    found = [s["id"] for s in main.select("section[id^='benchmarks-']")]
    assert found == ["benchmarks-2-20-0", "benchmarks-2-20-0-configurations", "benchmarks-2-19-0",
                     "benchmarks-2-19-0-configurations"]
    assert main.find(id="benchmarks-2-20-0").find("h2").get_text() == \
        f"Published benchmarks: Neuron 2.20.0 (first published {RELEASE_FIRST_PUBLISHED['2.20.0']}) (2)"
    ids = [s["id"] for s in main.select("section[id]")]
    assert ids.index(found[-1]) < ids.index("benchmark-history-records")
    head = load_catalog(preview.app.config.neuron_data_dir)
    configs = {c.model: c.id for c in head.benchmark_configurations.values()}
    rows = [row for section in found for row in main.find(id=section).select("tbody tr")]
    for (kind, model, percent, release), row in zip(NEW_RELEASE, rows, strict=True):
        section = row.find_parent("section")["id"]
        assert section.startswith(f"benchmarks-{release.replace('.', '-')}")
        assert section.endswith("-configurations") == (kind in ("new", "withdrawn"))
        cells = [td.get_text(" ", strip=True) for td in row.select("td")]
        assert cells[0] == kind.capitalize() and cells[1].startswith(f"{model} on inf2.xlarge")
        assert cells[2] == "2024-03-01-cccc"
        if percent is not None:
            assert f"{percent:+.1f}%" in cells[3]
        link = row.select_one("a.reference.internal")
        target = urlsplit(urljoin("https://preview.invalid/preview-changes.html", link["href"]))
        assert target.path == "/history/inf2.html" and target.fragment == anchor_for("benchmark", configs[model])
        assert pages["history/inf2.html"].find(id=target.fragment) is not None, kind
    assert "benchmarks regressed 1" in main.find("p").get_text(" ")


def test_downloads_hold_the_data_not_the_preview_marks(preview) -> None:  # noqa: ANN001
    tables = sorted((preview.outdir / "_downloads" / "tables").glob("*.csv"))
    assert tables
    for table in tables:
        assert "changed in this preview" not in table.read_text(encoding="utf-8"), table.name


def test_non_preview_build_has_no_marks(site) -> None:  # noqa: ANN001
    outdir = Path(site.outdir)
    assert not (outdir / "preview-changes.html").exists()
    for path in sorted(outdir.rglob("*.html")):
        tree = site.tree(str(path.relative_to(outdir)))  # every page: lxml alone, parsed once per build
        for name in ("neuron-changed", "neuron-changed-note", "neuron-preview-banner"):
            assert not tree.find_class(name), (path, name)
        assert not [link for link in tree.iter("link") if re.search(r"preview\.css", link.get("href") or "")], path


def test_readthedocs_pull_request_build_is_a_preview(preview) -> None:  # noqa: ANN001
    """The module's preview build is configured by Read the Docs' environment alone (``preview``)."""
    assert "neuron_preview_base" not in preview.app.config.overrides
    assert preview.app.config.neuron_preview_base == "HEAD"
    assert preview_warnings(preview.warnings) == []
    assert (preview.outdir / "preview-changes.html").is_file()
    assert len(marked(preview.soup("architecture-fit.html").find("table", id=f"support-matrix-{SUPPORT[0]}"))) == 1


@pytest.mark.site_edits
def test_unknown_base_warns_once_and_builds(repo: Path, tmp_path: Path) -> None:
    # The pages a preview of this change marks (the tests above), written; every page read.
    marked_pages = (*SHOWN, "inference/results-analysis.html", "instances.html")
    build = build_site(tmp_path, data_dir=repo / "data", neuron_preview_base="no-such-revision",
                       neuron_preview_repo=str(repo), pages=tuple(page[:-5] for page in marked_pages))
    warnings = preview_warnings(build.warnings)
    assert len(warnings) == 1, build.warnings
    location, _, message = warnings[0].partition(": WARNING: ")
    assert location == f"{REPO / 'conf.py'}:1"  # conf.py does not set neuron_preview_base
    assert "no-such-revision" in message
    assert (build.outdir / "index.html").is_file()
    assert not (build.outdir / "preview-changes.html").exists()
    written = html_pages(build.outdir)
    assert set(marked_pages) <= set(written)
    for path, soup in written.items():
        assert not marked(soup), path


def test_base_is_the_merge_base_like_a_pull_request(tmp_path: Path) -> None:
    from neuron_docs.preview.build import _comparison_commit

    root = make_repo(tmp_path / "repo")
    git(root, "stash", "-q")
    fork_point = git(root, "rev-parse", "HEAD").strip()
    git(root, "switch", "-q", "-c", "feature")
    git(root, "switch", "-q", "main")
    git(root, "stash", "pop", "-q")
    git(root, "commit", "-q", "-a", "-m", "later change on main")
    git(root, "switch", "-q", "feature")
    commit, label = _comparison_commit("main", root)
    assert commit == fork_point
    assert label == f"the merge base of HEAD and main ({fork_point[:12]})"
    assert _comparison_commit("HEAD", root) == (fork_point, f"HEAD ({fork_point[:12]})")
