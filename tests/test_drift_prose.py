"""Issue 36: prose that follows the data, and a checker that reads names as people write them.

Name forms (instances, devices in any case, "the Trn1 instance", "a Trainium chip", "Inf2 chips"),
count forms ("up to twelve", "Two", "Up to 16" under a chips header), comparatives written by
``:neuron:compare:`` (a price change flips the sentence), free text of the data checked at its line,
and sources that disagree (a page quoting the other source is told so, not contradicted).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from neuron_docs.data.dataset import load_dataset
from neuron_docs.data.figures.comparative_words import direction_word, parse
from neuron_docs.data.figures.shown import shown
from neuron_docs.drift.audit import audit_file, audit_text, engine
from neuron_docs.drift.data_text import check_data_file, data_passages
from neuron_docs.drift.literal_figures import count_cell, find_figures
from neuron_docs.drift.page_text import read_page

from helpers.paths import DATA, FROZEN_DATA, REPO
from helpers.warnings import without_colours

ANALYSIS = REPO / "source" / "inference" / "results-analysis.rst"

BEIT_COSTS = ":neuron:compare:`run:beit-inf1-b4:cost_per_1m, run:beit-g5-b128:cost_per_1m | less/more`"


def _rows(text: str, data: Path = FROZEN_DATA) -> list[tuple[str, str, bool, str]]:
    return [(r.figure, r.data, r.agrees, r.kind) for r in audit_text(text, data)]


# --- names as people write them -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "path"), [
    ("A TRN1.32XLARGE has 128 vCPUs.", "instance:trn1.32xlarge:vcpus"),
    ("A Trn1.2xlarge has 8 vCPUs.", "instance:trn1.2xlarge:vcpus"),
    ("The Trn1 instance offers up to 16 chips.", "instance:trn1.32xlarge:device_count"),
    ("A Trainium chip delivers 191 TFLOPS of BF16 compute.", "device:trainium:peak_bf16"),
    ("Inf2 chips deliver 190 TFLOPS of BF16 compute.", "device:inferentia2:peak_bf16"),
    ("An inf2 instance holds up to twelve Inferentia2 chips.", "instance:inf2.48xlarge:device_count"),
])
def test_a_name_in_any_case_and_spelling_names_its_record(text: str, path: str) -> None:
    assert (path, True) in [(data, agrees) for _, data, agrees, _ in _rows(text)], _rows(text)


def test_an_instance_table_written_with_capitals_is_read_as_a_table() -> None:
    table = """.. list-table::
   :header-rows: 1

   * - Instance size
     - # of Trainium chips
     - vCPUs
   * - Trn1.2xlarge
     - One
     - 8
   * - Trn1.32xlarge
     - Up to 16
     - 128
   * - Trn1n.32xlarge
     - 16
     - 128
"""
    rows = _rows(table)
    assert [(d, a) for _, d, a, _ in rows] == [
        ("instance:trn1.2xlarge:device_count", True), ("instance:trn1.2xlarge:vcpus", True),
        ("instance:trn1.32xlarge:device_count", True), ("instance:trn1.32xlarge:vcpus", True),
        ("instance:trn1n.32xlarge:device_count", True), ("instance:trn1n.32xlarge:vcpus", True)]


# --- counts in words and "up to N" ----------------------------------------------------------------

@pytest.mark.parametrize(("text", "number", "qualifier"), [
    ("up to twelve Inferentia2 chips", 12, "up to"), ("Two Trainium chips", 2, ""), ("sixteen chips", 16, ""),
    ("up to 16 chips", 16, "up to"), ("thirty-two vCPUs", 32, ""),
])
def test_counts_in_words_are_figures(text: str, number: int, qualifier: str) -> None:
    [figure] = find_figures(text)
    assert (figure.number, figure.qualifier) == (number, qualifier)
    assert figure.unit in ("chips", "vCPUs")


def test_a_count_cell_takes_its_headers_unit() -> None:
    assert count_cell("Up to 16", "chips") == "Up to 16 chips"
    assert count_cell("Two", "chips") == "2 chips"
    assert count_cell("N/A", "chips") is None


def test_a_count_in_words_far_from_every_value_is_no_contradiction() -> None:
    """"Two Trainium chips" counts chips of no instance the data holds: never "the data gives 1 chip"."""
    assert not [r for r in _rows("Two Trainium chips are linked by NeuronLink.") if not r[2]]


def test_each_figure_is_its_own_clauses_subject() -> None:
    rows = _rows("ViT reached 76.9% top-1 accuracy on Inf1, while ResNet50 achieved a top-1 accuracy of "
                 "77.5% on g5.xlarge.")
    assert rows[0][1].startswith("accuracy:vit-inf1-acc") and rows[0][2]
    assert rows[1][1] == "accuracy:resnet50-g5-acc:top1" and not rows[1][2]


# --- comparatives written from the data -----------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "unit", "wording", "word"), [
    (1, 2, "USD", "less/more", "less"), (2, 1, "USD", "less/more", "more"),
    (1, 2, "USD", "cheaper/more expensive", "cheaper"), (3, 2, "USD", "cheaper/more expensive", "more expensive"),
    (5, 9, "ms", "faster/slower", "faster"), (5, 9, "inferences/s", "faster/slower", "slower"),
    (2, 2, "USD", "less/more", "as much"),
])
def test_the_comparative_word_is_the_one_the_figures_make_true(a: float, b: float, unit: str, wording: str,
                                                             word: str) -> None:
    assert direction_word(a, b, unit, wording) == word


def test_a_difference_in_percent_says_its_direction() -> None:
    data = load_dataset(DATA)
    text = "instance:trn1.32xlarge:peak_bf16, instance:p4d.24xlarge:peak_bf16 | pct .0f faster/slower"
    a, b = data.values["instance:trn1.32xlarge:peak_bf16"], data.values["instance:p4d.24xlarge:peak_bf16"]
    ratio = (a.number * 1000 if a.unit == "PFLOPS" else a.number) / b.number
    expected = f"{abs(ratio - 1) * 100:.0f}% {'faster' if ratio > 1 else 'slower'}"
    assert shown("compare", data.catalog, data.values, text).text == expected


def test_a_comparative_role_is_written_with_two_figures_and_two_words() -> None:
    assert parse("run:a:x, pct_more(run:b:y, run:c:y) | diff .2f less/more")[:4] == (
        "run:a:x", "pct_more(run:b:y, run:c:y)", "diff", "less/more")
    for wrong in ("run:a:x | less/more", "run:a:x, run:b:x", "run:a:x, run:b:x | less"):
        with pytest.raises(ValueError):
            parse(wrong)


def _scale_price(data: Path, instance: str, factor: float) -> None:
    """The on-demand price of ``instance`` in a copy of the data, times ``factor`` (read, not typed)."""
    path = data / "instances.yaml"
    text = path.read_text(encoding="utf-8")
    entry = re.search(rf"id: {re.escape(instance)},.*?usd_per_hour: ([0-9.]+)", text, re.S)
    assert entry is not None
    old = float(entry.group(1))
    path.write_text(text[:entry.start(1)] + f"{old * factor:.4f}" + text[entry.end(1):], encoding="utf-8")


def test_a_price_change_flips_the_comparative_sentence(tmp_path: Path) -> None:
    """BEiT costs less on Inferentia; with the G5's price cut to a third, the seed analysis says "more"."""
    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    before = load_dataset(DATA)
    text = BEIT_COSTS.split("`")[1]
    assert shown("compare", before.catalog, before.values, text).text == "less"
    _scale_price(copy, "g5.xlarge", 1 / 3)
    after = load_dataset(copy)
    assert shown("compare", after.catalog, after.values, text).text == "more"
    # The page as the audit reads it (the build prints the same words) says so.
    drift = engine(str(copy.resolve()))
    page = read_page(ANALYSIS.read_text(encoding="utf-8"), shown_value=drift.shown_value)
    prose = " ".join(" ".join(p.text.split()) for p in page.passages)
    assert "BEiT costs more on Inferentia" in prose


def test_the_seed_analysis_compares_only_with_the_role() -> None:
    """Every comparative word next to two figures of the seed analysis is the role's."""
    source = ANALYSIS.read_text(encoding="utf-8")
    assert source.count(":neuron:compare:") >= 8
    assert "still costs less" not in source and "yet BEiT" not in source


# --- free text of the data checked like a page ----------------------------------------------------

def test_errata_explanations_are_found_with_their_lines() -> None:
    passages = {p.text.field for p in data_passages(DATA / "errata.yaml")}
    assert passages == {"explanation"}
    assert all(p.text.line > 1 for p in data_passages(DATA / "errata.yaml"))


def test_an_erratum_that_the_data_no_longer_bears_is_located(tmp_path: Path) -> None:
    """The G5's price cut: ViT costs 2.9 times as much on the G5, and "almost four times" is wrong, at
    its line of errata.yaml."""
    from helpers.paths import frozen_copy

    copy = frozen_copy(tmp_path / "data")  # its erratum still says "almost four times as much"
    _scale_price(copy, "g5.xlarge", 0.72)
    raw = (copy / "errata.yaml").read_text(encoding="utf-8")
    line = next(n for n, text in enumerate(raw.splitlines(), start=1) if "almost four times" in text)
    found = [(at, v) for at, v in check_data_file(engine(str(copy.resolve())), copy / "errata.yaml")
             if v.text == "almost four times"]
    assert [(at, v.agrees) for at, v in found] == [(line, False)], found
    assert found[0][1].expected.startswith("2.")
    # The 75% of the same explanation is the source's figure (its quote's), discussed: never checked.
    assert not [v for _, v in check_data_file(engine(str(copy.resolve())), copy / "errata.yaml") if v.text == "75%"]
    # The real data bears every figure of its errata.
    assert all(v.agrees for _, v in check_data_file(engine(str(DATA.resolve())), DATA / "errata.yaml"))


def test_a_refused_data_file_has_no_free_text_to_check(tmp_path: Path) -> None:
    """The build's check of the data's free text reads what the loader read: errata.yaml saved as
    UTF-16 is refused at the file (the loader says so), and its text is not read again."""
    from helpers.paths import frozen_copy

    from neuron_docs.drift.data_text import data_problems

    copy = frozen_copy(tmp_path / "data")
    _scale_price(copy, "g5.xlarge", 0.72)  # "almost four times as much" is then wrong
    errata = copy / "errata.yaml"
    raw = errata.read_text(encoding="utf-8")
    line = next(n for n, text in enumerate(raw.splitlines(), start=1) if "almost four times" in text)
    assert [(path, at, v.text) for path, at, v in data_problems(engine(str(copy.resolve())), copy)] == \
        [(errata, line, "almost four times")]
    refused = shutil.copytree(copy, tmp_path / "refused")  # another folder: engine() keeps one per folder
    (refused / "errata.yaml").write_bytes(errata.read_text(encoding="utf-8").encode("utf-16"))
    drift = engine(str(refused.resolve()))
    assert "errata.yaml" in drift.catalog.failed_files
    assert data_problems(drift, refused) == []


def test_make_audit_reads_a_data_file() -> None:
    rows = audit_file(FROZEN_DATA / "errata.yaml", FROZEN_DATA)
    assert ("almost four times", True) in [(r.figure, r.agrees) for r in rows]
    assert [(r.figure, r.kind) for r in audit_file(DATA / "instances.yaml")] == [
        ("190 TFLOPS", "source"), ("3.4 PFLOPS", "figure")]


# --- sources that disagree ------------------------------------------------------------------------

def test_a_page_quoting_the_other_source_is_told_so() -> None:
    rows = audit_text("A Trainium chip delivers 190 TFLOPS of BF16 compute, and a trn1.32xlarge "
                      "3,040 TFLOPS.", DATA)
    assert [(r.figure, r.data, r.kind, r.agrees) for r in rows] == [
        ("190 TFLOPS", "device:trainium:peak_bf16", "source", True),
        ("3,040 TFLOPS", "instance:trn1.32xlarge:peak_bf16", "source", True)]
    assert rows[0].note.startswith("neuron-trn1-arch (190 TFLOPS)")
    assert "the data uses 191 TFLOPS (neuron-trainium2-arch)" in rows[0].note
    # A figure neither source gives is a contradiction as before.
    assert [(r.kind, r.agrees) for r in audit_text("A Trainium chip delivers 185 TFLOPS of BF16 compute.", DATA)] \
        == [("figure", False)]


def test_another_source_must_disagree_and_be_known(tmp_path: Path) -> None:
    """An ``also`` naming no known source, or the figure's own value, is a located data error."""
    from neuron_docs.data import load_catalog

    copy = tmp_path / "data"
    shutil.copytree(DATA, copy)
    devices = copy / "devices.yaml"
    raw = devices.read_text(encoding="utf-8")
    devices.write_text(raw.replace("source: neuron-trn1-arch", "source: no-such-source", 1), encoding="utf-8")
    line = next(n for n, text in enumerate(raw.splitlines(), start=1) if "source: neuron-trn1-arch" in text)
    errors = [str(e) for e in load_catalog(copy).errors]
    assert any(e.startswith(f"devices.yaml:{line}") and "no-such-source" in e for e in errors), errors
    devices.write_text(raw.replace("- value: 190\n", "- value: 191\n", 1), encoding="utf-8")
    errors = [str(e) for e in load_catalog(copy).errors]
    assert any("devices.yaml" in e and "sources that agree need no entry" in e for e in errors), errors


def test_the_build_warns_at_the_data_files_line(make_app, tmp_path: Path) -> None:  # noqa: ANN001
    """The build checks the data's free text too: a contradicted erratum is a neuron.drift warning at
    errata.yaml's line."""
    from helpers.paths import frozen_copy

    copy = frozen_copy(tmp_path / "data")
    _scale_price(copy, "g5.xlarge", 0.72)
    line = next(n for n, text in enumerate((copy / "errata.yaml").read_text(encoding="utf-8").splitlines(), start=1)
                if "almost four times" in text)
    src = tmp_path / "src"
    shutil.copytree(REPO / "tests" / "roots" / "test-drift-basic", src)
    app = make_app("html", srcdir=src, confoverrides={"neuron_data_dir": str(copy)})
    app.build()
    warnings = without_colours(app.warning.getvalue())
    assert f"{copy / 'errata.yaml'}:{line}: WARNING: literal almost four times contradicts " \
           "ratio(run:vit-g5-b128:cost_per_1m, run:vit-inf1-b3:cost_per_1m)" in warnings, warnings
