"""The matrix diff of pull-request previews, on a throw-away git repository with real commits."""

from __future__ import annotations

import contextlib
import csv as csv_module
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from neuron_docs.data.figures import compare as md
from neuron_docs.data.revisions import RevisionError, load_revision
from neuron_docs.preview import matrix_diff
from neuron_docs.preview.report import render_markdown
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.values import build_values
from neuron_docs.data.figures.runs import cost_per_million

from helpers.edits import edit_yaml
from helpers.git import git
from helpers.paths import FROZEN_DATA, REPO, frozen_copy

#: The release below edits figures typed here (a price of 1.006 moves to 1.212): it is made on the
#: frozen copy of the data, so that a legitimate change to data/ never breaks these tests.
DATA = FROZEN_DATA

# The changes made by the "update" commit, and what they must show as.
SUPPORT = ("support", "neuroncore-v2", "decoder", "tensorflow-neuronx", "inference")  # roadmap -> supported
FIT = ("fit", "neuroncore-v1", "decoder")  # poor -> good
RELEASE = "2026-01-01"  # the new revision of the support matrices the "update" commit adds
G5_PRICE = (1.006, 1.212)  # USD/h of g5.xlarge (runs vit-g5-b128 and beit-g5-b128)
VIT_B3 = (536.718, 600.0)  # throughput of vit-inf1-b3 on inf1.2xlarge ($0.362/h)


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A copy of the frozen data (this module's edits name figures typed here), not of ``data/``."""
    return frozen_copy(tmp_path / "data")


def run_cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command ``make matrix-diff`` runs, run in this process on ``repo`` (``--repo``): its exit
    status, standard output and standard error as a finished process gives them. Run as a module
    through ``make`` it is checked by ``test_audit.test_matrix_diff_prints_no_runpy_warning``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = matrix_diff.main([*args, "--repo", str(repo)])
        except SystemExit as exit_:  # argparse's refusals
            status = exit_.code if isinstance(exit_.code, int) else 2
    return subprocess.CompletedProcess(["matrix-diff", *args], status, out.getvalue(), err.getvalue())


def change_data(data: Path) -> None:
    """A release: a new revision of the matrices (a copy of the latest with one cell and one fit
    changed), a new family, a price, an instance added and one removed, a benchmark figure."""
    def release(doc: dict) -> None:
        doc.update(date=RELEASE, source="guide")
        doc.pop("unchanged_because", None)
        matrices = {m["id"]: m for m in doc["matrices"]}
        rows = {r["family"]: r for r in matrices[SUPPORT[1]]["rows"]}
        assert rows[SUPPORT[2]]["cells"]["/".join(SUPPORT[3:])] == "roadmap"
        rows[SUPPORT[2]]["cells"]["/".join(SUPPORT[3:])] = "supported"
        row = next(r for r in matrices[FIT[1]]["rows"] if r["family"] == FIT[2])
        assert row["fit"] == "poor"
        row["fit"] = "good"

    def families(doc: dict) -> None:
        doc["families"].append({
            "id": "gnn", "name": "Graph neural networks", "title": "Graph neural network models",
            "short_name": "GNNs", "category": "cv", "description": "Message passing over graphs.",
            "devices": {"inferentia": {}},
        })

    latest = sorted((data / "matrix").glob("*.yaml"))[-1]
    shutil.copy(latest, data / "matrix" / f"{RELEASE}.yaml")
    edit_yaml(data / "matrix" / f"{RELEASE}.yaml", release)

    def instances(doc: dict) -> None:
        doc["instances"] = [i for i in doc["instances"] if i["id"] != "inf1.xlarge"]
        g5 = next(i for i in doc["instances"] if i["id"] == "g5.xlarge")
        assert g5["price"]["usd_per_hour"] == G5_PRICE[0]
        g5["price"]["usd_per_hour"] = G5_PRICE[1]
        doc["instances"].append({"id": "trn2.48xlarge", "family": "trn2", "device": "trainium", "device_count": 16,
                                 "vcpus": 192, "price": {"usd_per_hour": 40.0, "source": "aws-pricing",
                                                         "as_of": "2026-01-01"}})

    edit_yaml(data / "families.yaml", families)
    edit_yaml(data / "instances.yaml", instances)
    # inf1.xlarge goes with its published prices and runs.
    prices = data / "prices.yaml"
    prices.write_text("".join(line for line in prices.read_text(encoding="utf-8").splitlines(keepends=True)
                              if "instance: inf1.xlarge," not in line), encoding="utf-8")
    # The store's configurations on inf1.xlarge and their figures go (the published runs are made of them).
    store = data / "benchmarks" / "history"
    rows = (store / "configurations.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    column = rows[0].split(",").index("instance")
    gone = {cells[0] for r in rows[1:] if (cells := next(csv_module.reader([r])))[column] == "inf1.xlarge"}
    (store / "configurations.csv").write_text("".join(r for n, r in enumerate(rows) if n == 0 or r.split(",")[0]
                                                      not in gone), encoding="utf-8")
    rows = (store / "observations.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (store / "observations.csv").write_text("".join(r for n, r in enumerate(rows) if n == 0 or r.split(",")[1]
                                                    not in gone), encoding="utf-8")
    rows = (store / "prices.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (store / "prices.csv").write_text("".join(r for n, r in enumerate(rows) if n == 0 or r.split(",")[1]
                                              != "inf1.xlarge"), encoding="utf-8")
    csv = data / "benchmarks" / "inference.csv"
    old_row = "vit-inf1-b3,vit-base,,inf1-neuron-1.11,3,1,1,,,536.718,results-analysis"
    text = csv.read_text(encoding="utf-8")
    assert text.count(old_row) == 1
    csv.write_text(text.replace(old_row, old_row.replace(",536.718,", ",600,")), encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose first commit (tagged ``base``) holds a copy of the real ``data/``."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    shutil.copytree(DATA, root / "data")
    git(root, "add", "data")
    git(root, "commit", "-q", "-m", "base data")
    git(root, "tag", "base")
    return root


@pytest.fixture
def changed_repo(repo: Path) -> Path:
    """``repo`` with a second commit (HEAD) that makes the changes of :func:`change_data`."""
    change_data(repo / "data")
    git(repo, "add", "-A", "data")
    git(repo, "commit", "-q", "-m", "update the matrix")
    return repo


def expected_changes(repo: Path) -> tuple[set[tuple[str, ...]], set[str], set[str]]:
    base, head = load_revision("base", repo), load_revision("HEAD", repo)
    removed = {p for p in build_values(base) if p.startswith("instance:inf1.xlarge:")}
    added = {p for p in build_values(head) if p.startswith("instance:trn2.48xlarge:")} | {
        "instance_family:trn2:count"}
    moved = {"instance:g5.xlarge:price", "run:vit-g5-b128:cost_per_1m", "run:beit-g5-b128:cost_per_1m",
             "run:vit-inf1-b3:throughput", "run:vit-inf1-b3:cost_per_1m", "instance_family:inf1:count"}
    keys = {SUPPORT, FIT, *(("value", p) for p in moved | added | removed)} | {
        ("record", "families", "gnn"), ("record", "instances", "g5.xlarge"), ("record", "instances", "inf1.xlarge"),
        ("record", "instances", "trn2.48xlarge"), ("record", "inference_runs", "vit-inf1-b3")}
    gone = _published_on_inf1_xlarge(base)
    keys |= {("record", c, i) for c, i in gone}
    removed |= {p for p in build_values(base) if any(p.startswith(f"{KINDS[c]}:{i}:") for c, i in gone if c in KINDS)}
    keys |= {("value", p) for p in removed}
    return keys, moved, added | removed


#: The path kind of the figures of each published collection.
KINDS = {"published_inference_runs": "prun", "prices": "price"}


def _published_on_inf1_xlarge(catalog) -> set[tuple[str, str]]:
    """The published runs and prices of inf1.xlarge, and the store's configurations, figures and prices
    they are made of (removed with it)."""
    configurations = {c.id for c in catalog.benchmark_configurations.values() if c.instance == "inf1.xlarge"}
    return ({("published_inference_runs", r.id) for r in catalog.published_inference_runs.values()
             if r.instance == "inf1.xlarge"} | {("prices", p.id) for p in catalog.prices.values()
                                                 if p.instance == "inf1.xlarge"}
            | {("benchmark_configurations", c) for c in configurations}
            | {("benchmark_observations", o.id) for o in catalog.benchmark_observations.values()
               if o.configuration in configurations}
            | {("historical_prices", p.id) for p in catalog.historical_prices.values() if p.instance == "inf1.xlarge"})


def test_compare_reports_exactly_the_changes(changed_repo: Path) -> None:
    base, head = load_revision("base", changed_repo), load_revision("HEAD", changed_repo)
    assert not base.errors and not head.errors
    diff = md.compare(base, head, "base", "HEAD")
    keys, moved, added_or_removed = expected_changes(changed_repo)

    assert diff.changed_keys() == keys
    assert diff.support == [md.CellChange(SUPPORT, "roadmap", "supported", ("status",))]
    assert diff.fit == [md.CellChange(FIT, "poor", "good", ("fit",))]
    assert diff.header == [] and diff.errors == []
    records = {c.key[1:]: (c.change, c.fields) for c in diff.records}
    assert records == {
        ("families", "gnn"): ("added", ()),
        ("inference_runs", "vit-inf1-b3"): ("changed", ("throughput_per_s",)),
        ("instances", "g5.xlarge"): ("changed", ("price",)), ("instances", "inf1.xlarge"): ("removed", ()),
        ("instances", "trn2.48xlarge"): ("added", ()),
        **{key: ("removed", ()) for key in _published_on_inf1_xlarge(base)},
    }
    values = {c.key[1]: c for c in diff.values}
    assert {p for p, c in values.items() if c.change == "changed"} == moved
    assert {p for p, c in values.items() if c.change != "changed"} == added_or_removed
    assert values["instance:inf1.xlarge:price"].change == "removed"
    assert values["instance_family:trn2:count"].change == "added"

    # The derived cost per 1M inferences moves with the price and with the throughput.
    for run, throughput in (("vit-g5-b128", 375.89), ("beit-g5-b128", 355.67)):
        cost = values[f"run:{run}:cost_per_1m"]
        assert cost.derived and cost.unit == "USD"
        assert cost.old == pytest.approx(cost_per_million(G5_PRICE[0], throughput))
        assert cost.new == pytest.approx(cost_per_million(G5_PRICE[1], throughput))
    cost = values["run:vit-inf1-b3:cost_per_1m"]
    assert (cost.old, cost.new) == (pytest.approx(cost_per_million(0.362, VIT_B3[0])),
                                    pytest.approx(cost_per_million(0.362, VIT_B3[1])))
    assert (cost.old_text, cost.new_text) == ("$0.1874", "$0.1676")
    assert values["run:vit-g5-b128:cost_per_1m"].relative_change_percent == pytest.approx(
        (G5_PRICE[1] / G5_PRICE[0] - 1) * 100, abs=0.005)
    price = values["instance:g5.xlarge:price"]
    assert (price.old_text, price.new_text, price.derived) == ("$1.006/h", "$1.212/h", False)
    count = values["instance_family:inf1:count"]
    assert (count.old, count.new) == (4, 3)


def test_markdown_report(changed_repo: Path) -> None:
    result = run_cli(changed_repo, "--base", "base", "--head", "HEAD")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    base_commit = git(changed_repo, "rev-parse", "base").strip()[:12]
    assert out.startswith(f"## Support matrix preview: `base ({base_commit})` -> `HEAD (")
    sections = [line for line in out.splitlines() if line.startswith("### ")]
    assert sections == ["### Support status", "### Architecture fit", "### Added and removed records",
                        "### Changed records", "### Figures (prices, specifications, benchmarks)",
                        "### Derived figures (costs, ratios, counts)"]
    for row in (
        "| Transformers Decoders (`decoder`) | `neuroncore-v2` | `tensorflow-neuronx/inference` "
        "| Roadmap Item -> Supported |",
        "| Transformers Decoders (`decoder`) | `neuroncore-v1` | Not a Good Fit -> Good Fit |",
        "| families | `gnn` | added |",
        "| instances | `inf1.xlarge` | removed |", "| instances | `trn2.48xlarge` | added |",
        "| instances | `g5.xlarge` | price |", "| inference_runs | `vit-inf1-b3` | throughput_per_s |",
        "| g5.xlarge on-demand price | `instance:g5.xlarge:price` | $1.006/h -> $1.212/h (+20.5%) |",
        "| throughput of vit-inf1-b3 | `run:vit-inf1-b3:throughput` "
        "| 536.718 inferences/s -> 600 inferences/s (+11.8%) |",
        "| cost per 1M inferences of vit-inf1-b3 | `run:vit-inf1-b3:cost_per_1m` | $0.1874 -> $0.1676 (-10.5%) |",
        "| cost per 1M inferences of vit-g5-b128 | `run:vit-g5-b128:cost_per_1m` | $0.7434 -> $0.8957 (+20.5%) |",
        "| cost per 1M inferences of beit-g5-b128 | `run:beit-g5-b128:cost_per_1m` "
        "| $0.7857 -> $0.9466 (+20.5%) |",
        "| instance types in the inf1 family | `instance_family:inf1:count` | 4 -> 3 (-25.0%) |",
        "| inf1.xlarge on-demand price | `instance:inf1.xlarge:price` | $0.228/h -> (none) |",
        "| trn2.48xlarge on-demand price | `instance:trn2.48xlarge:price` | (none) -> $40/h |",
    ):
        assert row in out.splitlines(), row
    # Nothing else moved: one table row per change.
    keys, _, _ = expected_changes(changed_repo)
    rows = [line for line in out.splitlines() if line.startswith("| ") and not line.startswith(
        ("| Family |", "| Collection |", "| Figure |"))]
    assert len(rows) == len(keys)


def test_json_report(changed_repo: Path) -> None:
    result = run_cli(changed_repo, "--base", "base", "--head", "HEAD", "--format", "json")
    assert result.returncode == 0, result.stderr
    assert run_cli(changed_repo, "--base", "base", "--head", "HEAD", "--format", "json").stdout == result.stdout
    report = json.loads(result.stdout)
    assert set(report) == {"schema_version", "base", "head", "changed", "summary", "support", "fit", "header",
                           "records", "values", "errors", "keys", "benchmarks"}
    assert report["benchmarks"] == []  # the data's benchmark history is the same on both sides
    assert report["schema_version"] == md.SCHEMA_VERSION == 2
    assert report["changed"] is True
    keys, moved, added_or_removed = expected_changes(changed_repo)
    assert report["keys"] == sorted([list(k) for k in keys])
    gone = len(_published_on_inf1_xlarge(load_revision("base", changed_repo)))
    assert report["summary"] == {"support": 1, "fit": 1, "header": 0, "records": 5 + gone,
                                 "values": len(moved | added_or_removed), "errors": 0}
    assert report["support"] == [{"key": list(SUPPORT), "matrix": SUPPORT[1], "family": SUPPORT[2],
                                  "framework": SUPPORT[3], "workload": SUPPORT[4], "old": "roadmap",
                                  "new": "supported", "fields": ["status"]}]
    assert report["fit"] == [{"key": list(FIT), "matrix": FIT[1], "family": FIT[2],
                              "old": "poor", "new": "good", "fields": ["fit"]}]
    assert [v["path"] for v in report["values"]] == sorted(v["path"] for v in report["values"])
    cost = next(v for v in report["values"] if v["path"] == "run:vit-g5-b128:cost_per_1m")
    assert cost == {
        "key": ["value", "run:vit-g5-b128:cost_per_1m"], "path": "run:vit-g5-b128:cost_per_1m",
        "change": "changed", "label": "cost per 1M inferences of vit-g5-b128", "unit": "USD", "derived": True,
        "collection": "inference_runs", "record": "vit-g5-b128",
        "old": pytest.approx(cost_per_million(G5_PRICE[0], 375.89)),
        "new": pytest.approx(cost_per_million(G5_PRICE[1], 375.89)),
        "old_text": "$0.7434", "new_text": "$0.8957", "relative_change_percent": 20.48,
    }
    removed = next(v for v in report["values"] if v["path"] == "instance:inf1.xlarge:price")
    assert (removed["change"], removed["old"], removed["new"], removed["new_text"]) == ("removed", 0.228, None, None)


def test_working_tree_and_data_dir(changed_repo: Path, tmp_path: Path) -> None:
    """Without --head the working tree's data/ is compared (uncommitted edits included)."""
    assert "no changes" in run_cli(changed_repo, "--base", "HEAD").stdout
    csv = changed_repo / "data" / "benchmarks" / "inference.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace(",375.89,", ",400,"), encoding="utf-8")
    result = run_cli(changed_repo, "--base", "HEAD", "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["head"] == "working tree"
    assert [v["path"] for v in report["values"]] == ["run:vit-g5-b128:cost_per_1m", "run:vit-g5-b128:throughput"]
    other = tmp_path / "other-data"
    shutil.copytree(changed_repo / "data", other)
    report = json.loads(run_cli(changed_repo, "--base", "HEAD", "--data-dir", str(other), "--format", "json").stdout)
    assert report["head"] == str(other) and len(report["values"]) == 2


def test_no_changes(changed_repo: Path) -> None:
    for args in (("--base", "HEAD"), ("--base", "HEAD", "--head", "main")):
        result = run_cli(changed_repo, *args)
        assert result.returncode == 0, result.stderr
        assert result.stdout.rstrip().endswith("no changes")
        assert "|" not in result.stdout
    report = json.loads(run_cli(changed_repo, "--base", "HEAD", "--format", "json").stdout)
    assert report["changed"] is False and report["keys"] == [] and report["support"] == []

    # Reformatting a file (comments, layout) changes no record and no figure.
    path = changed_repo / "data" / "frameworks.yaml"
    path.write_text("# reformatted\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    git(changed_repo, "commit", "-q", "-a", "-m", "comment only")
    result = run_cli(changed_repo, "--base", "HEAD~1", "--head", "HEAD")
    assert result.returncode == 0 and "no changes" in result.stdout


def test_unknown_revision_is_a_clear_error(repo: Path, tmp_path: Path) -> None:
    result = run_cli(repo, "--base", "no-such-branch")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "matrix-diff: error: unknown revision 'no-such-branch'" in result.stderr
    assert "Traceback" not in result.stderr
    assert run_cli(repo, "--base", "base", "--head", "--bogus").returncode == 2
    with pytest.raises(RevisionError, match="unknown revision 'deadbeef'"):
        load_revision("deadbeef", repo)

    # A revision without data/ and a directory outside any repository are errors too.
    (repo / "README.md").write_text("readme\n", encoding="utf-8")
    git(repo, "rm", "-q", "-r", "data")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "no data")
    result = run_cli(repo, "--base", "HEAD", "--data-dir", str(DATA))
    assert result.returncode == 2 and "revision 'HEAD' has no data/ directory" in result.stderr
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    result = run_cli(outside, "--base", "HEAD")
    assert result.returncode == 2 and "is not inside a git repository" in result.stderr


def test_derived_figures_get_the_digits_that_tell_them_apart(data_copy: Path) -> None:
    base = load_catalog(data_copy)
    edit_yaml(data_copy / "instances.yaml", lambda doc: next(
        i for i in doc["instances"] if i["id"] == "g5.xlarge")["price"].update(usd_per_hour=1.00601))
    diff = md.compare(base, load_catalog(data_copy))
    cost = next(c for c in diff.values if c.key == ("value", "run:vit-g5-b128:cost_per_1m"))
    assert cost.old_text != cost.new_text
    assert cost.old_text.startswith("$0.7434") and cost.new_text.startswith("$0.7434")
    rows = [line for line in render_markdown(diff).splitlines() if line.startswith("| ") and " -> " in line]
    assert len(rows) == len(diff.values) == 3


def test_two_revisions_of_the_matrices_markdown_and_json(catalog) -> None:
    """``make matrix-diff FROM=<date> TO=<date>``: every change between two revisions, from the data."""
    from neuron_docs.data.matrix.changes import changes, describe

    revisions = catalog.matrix_revisions.revisions
    for old, new in ((revisions[0], revisions[-1]), (revisions[3], revisions[6])):
        expected = changes(old, new)
        result = run_cli(REPO, "--from", old.name, "--to", new.name, "--format", "json")
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert (report["old"], report["new"]) == (old.name, new.name)
        assert report["items"] == expected.model_dump(mode="json")["items"] and report["items"]
        markdown = run_cli(REPO, "--from", old.name, "--to", new.name).stdout
        assert markdown.startswith(f"## Support matrices: `{old.name}` -> `{new.name}`")
        rows = [line for line in markdown.splitlines() if line.startswith("| `")]
        assert len(rows) == len(expected.items)
        for change, row in zip([*expected.shown(), *(c for c in expected.items if c.kind == "label")], rows,
                               strict=True):
            assert row.startswith(f"| `{change.kind}` |") and describe(change).replace("|", "\\|") in row
    result = run_cli(REPO, "--from", "2023-02-30")
    assert result.returncode == 2 and "no revision '2023-02-30'" in result.stderr and "Traceback" not in result.stderr


# A new release of the published benchmarks: the history's changes, regressions first ---------------

#: Throughputs (inferences/s) of synthetic configurations in three published states: the third
#: regresses one, improves one, keeps one within the threshold, corrects one under its release,
#: withdraws one and adds one. Typed here: the expected changes follow from these alone.
HISTORY_STATES = {
    "2024-01-01-aaaa": [("bert-base", "100", "2.18.0"), ("roberta", "100", "2.18.0"), ("distil", "100", "2.18.0"),
                        ("albert", "100", "2.18.0"), ("electra", "100", "2.18.0")],
    "2024-02-01-bbbb": [("bert-base", "100", "2.19.0"), ("roberta", "100", "2.19.0"), ("distil", "100", "2.19.0"),
                        ("albert", "100", "2.19.0"), ("electra", "100", "2.19.0")],
    "2024-03-01-cccc": [("bert-base", "80", "2.20.0"), ("roberta", "130", "2.20.0"), ("distil", "103", "2.20.0"),
                        ("albert", "95", "2.19.0"), ("gpt2", "50", "2.20.0")],
}
#: The changes of the third state, in report order: by the release each belongs to, newest first (the
#: release of its figure; a withdrawal's: the release last published for it), regressions first:
#: (kind, model, change in percent or None, release).
NEW_RELEASE = [("regressed", "bert-base", -20.0, "2.20.0"), ("improved", "roberta", 30.0, "2.20.0"),
               ("new", "gpt2", None, "2.20.0"), ("corrected", "albert", None, "2.19.0"),
               ("withdrawn", "electra", None, "2.19.0")]
#: When a figure of each release was first published (the state that first published one).
RELEASE_FIRST_PUBLISHED = {"2.20.0": "2024-03-01", "2.19.0": "2024-02-01"}


def import_history_states(data: Path, src: Path, names: list[str]) -> None:
    """Import the states ``names`` of :data:`HISTORY_STATES` into ``data``'s benchmark history (the
    store of published figures: the states' runs are then the only published runs)."""
    from neuron_docs.benchmark_import import states as H  # noqa: PLC0415
    from test_benchmark_history import encoder, row, state  # noqa: PLC0415

    if not (src / "STATES.tsv").exists():  # the first import: the store holds these states only
        for old in (data / "benchmarks" / "history").glob("*.csv"):
            old.unlink()

    for name in names:
        state(src, name, {"inf2/throughput_data_encoder.csv": encoder(
            *(row(model, throughput, version) for model, throughput, version in HISTORY_STATES[name]))})
    (src / "STATES.tsv").write_text("state\tcommit_date\tcommit_subject\n" + "".join(
        f"{name}\t{name[:10]}\tNeuron SDK Release {max(v for _, _, v in HISTORY_STATES[name])}\n"
        for name in names), encoding="utf-8")
    catalog = load_catalog(data)
    history, _, problems = H.import_states(src, data, list(catalog.instances), list(catalog.frameworks),
                                           source="neuron-sdk-benchmarks")
    assert [p for p in problems if p.severity == "error"] == []
    history.write(data)


@pytest.fixture
def release_repo(repo: Path, tmp_path: Path) -> Path:
    """``repo`` with two published states in its history (tagged ``before``), then a third (HEAD)."""
    src = tmp_path / "states"
    import_history_states(repo / "data", src, list(HISTORY_STATES)[:2])
    git(repo, "add", "-A", "data")
    git(repo, "commit", "-q", "-m", "two published states")
    git(repo, "tag", "before")
    import_history_states(repo / "data", src, list(HISTORY_STATES))
    git(repo, "add", "-A", "data")
    git(repo, "commit", "-q", "-m", "a new release of the benchmarks")
    assert load_catalog(repo / "data").errors == []
    return repo


def test_a_new_releases_benchmark_changes_regressions_first(release_repo: Path) -> None:
    """Markdown and JSON list what the new state changed grouped as What's new groups it: by the
    release of each changed figure, newest first, regressions first within a release, its new and
    withdrawn configurations folded; the history's own records (hundreds with a real release) are
    folded; steady re-measurements are left out."""
    report = json.loads(run_cli(release_repo, "--base", "before", "--head", "HEAD", "--format", "json").stdout)
    found = [(c["kind"], c["title"].split(" on ")[0], c["change_percent"], c["release"]) for c in report["benchmarks"]]
    assert found == NEW_RELEASE
    assert {c["state"] for c in report["benchmarks"]} == {"2024-03-01-cccc"}
    assert all(c["release_first_published"] == RELEASE_FIRST_PUBLISHED[c["release"]] for c in report["benchmarks"])
    regressed = report["benchmarks"][0]
    assert (regressed["old"], regressed["new"], regressed["baseline"], regressed["baseline_versions"],
            regressed["version"]) == ("100", "80", "100", ["2.18.0", "2.19.0"], "2.20.0")
    assert report["benchmarks"][3]["old"] == "100" and report["benchmarks"][3]["new"] == "95"

    out = run_cli(release_repo, "--base", "before", "--head", "HEAD").stdout.splitlines()
    titles = [line for line in out if line.startswith("### ") or line.startswith("<details><summary>")]
    new, old = (f"Neuron {v} (first published {RELEASE_FIRST_PUBLISHED[v]})" for v in ("2.20.0", "2.19.0"))
    assert titles[:4] == [f"### Published benchmarks: {new} (2)",
                          f"<details><summary>Published benchmarks: {new}: new and withdrawn configurations (1)</summary>",
                          f"### Published benchmarks: {old} (1)",
                          f"<details><summary>Published benchmarks: {old}: new and withdrawn configurations (1)</summary>"]
    assert any(t.startswith("<details><summary>Benchmark history records (") for t in titles)
    assert not any(t in ("### Added and removed records", "### Changed records") for t in titles)
    kinds = tuple(f"| {kind.capitalize()} | " for kind, _, _, _ in NEW_RELEASE)
    rows = [line for line in out if line.startswith(kinds) and " | `2024-03-01-cccc` | " in line]
    assert [(line.split(" | ")[0].removeprefix("| "), line.split(" | ")[1].split(" on ")[0]) for line in rows] == \
        [(kind.capitalize(), m) for kind, m, _, _ in NEW_RELEASE]
    assert "-20.0% against the level 100 inferences/s (median of Neuron 2.18.0 to 2.19.0, 2 releases)" in rows[0]
    assert "+30.0%" in rows[1] and "100 -> 95 inferences/s (Neuron 2.19.0)" in rows[3]
    assert "benchmarks regressed 1, benchmarks improved 1" in next(line for line in out if line.startswith("Changes:"))
    # Nothing new in the history: no benchmark section, an empty list in the JSON.
    again = json.loads(run_cli(release_repo, "--base", "HEAD", "--head", "HEAD", "--format", "json").stdout)
    assert again["benchmarks"] == []
