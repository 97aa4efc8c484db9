"""``make audit``: figures of a page matched against the data, and the errata found in the seeds."""

from __future__ import annotations

import json

import re
import subprocess
from pathlib import Path

import pytest

from neuron_docs.data import Catalog, load_catalog
from neuron_docs.drift.audit import AuditRow, audit_file, main

from helpers.paths import FROZEN_DATA, REPO

FIXTURE = REPO / "tests" / "fixtures" / "audit-page.rst"
SEEDS = Path("/work/shared/seeds")
#: The fixture page and the seeds hold figures typed by hand: they are audited against the frozen data.
DATA_ARGS = ["--data", str(FROZEN_DATA)]
SEED_OF_SOURCE = {"results-analysis": "001_", "training-faq": "002_", "guide": "000_", "training-article": "003_"}

PCT_MORE = "pct_more(run:vit-g5-b128:cost_per_1m, run:vit-inf1-b3:cost_per_1m)"


def test_fixture_rows_are_exactly_the_expected_ones() -> None:
    rows = audit_file(FIXTURE, FROZEN_DATA)
    assert [(r.line, r.figure, r.data, r.value, r.agrees) for r in rows] == [
        (4, "9.007 ms", "run:vit-inf1-b1:p90_latency_ms", "9.007 ms", True),
        (4, "7.14 ms", "run:vit-g5-b1:p90_latency_ms", "7.14 ms", True),
        (6, "$0.78", "run:beit-g5-b128:cost_per_1m", "$0.786", False),
        (6, "$0.65", "run:beit-inf1-b4:cost_per_1m", "$0.652", True),
        (8, "75%", PCT_MORE, "296.8%", False),
        (14, "good fit", "fit:decoder/inferentia", "not a good fit", False),
    ]


def test_markdown_output_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*DATA_ARGS, str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "| Line | Figure in the text |" in out
    assert "| 6 | $0.78 | `run:beit-g5-b128:cost_per_1m` | $0.786 | **no** |" in out
    assert main([*DATA_ARGS, "--strict", str(FIXTURE)]) == 1


def test_make_audit_runs_without_sphinx() -> None:
    result = subprocess.run(["make", "-s", "audit", f"FILE={FIXTURE}", f"AUDIT_ARGS={' '.join(DATA_ARGS)}"], cwd=REPO, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert "run:vit-inf1-b1:p90_latency_ms" in result.stdout



def _seed(source: str) -> Path:
    return next(SEEDS.glob(f"{SEED_OF_SOURCE[source]}*.txt"))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not on this machine")
def test_audit_over_the_seeds_finds_every_erratum() -> None:
    catalog: Catalog = load_catalog(FROZEN_DATA)
    figures = [e for e in catalog.errata.values() if e.expression]
    assert len(figures) >= 8
    audits: dict[str, list[AuditRow]] = {}
    for erratum in figures:
        seed = _seed(erratum.source)
        text = seed.read_text(encoding="utf-8")
        lines = [i + 1 for i, line in enumerate(text.splitlines()) if erratum.quote in line]
        assert lines, f"{erratum.id}: quote not found in {seed.name}"
        rows = audits.setdefault(seed.name, audit_file(seed, FROZEN_DATA, bare=True))
        found = [r for r in rows if r.line in lines and not r.agrees
                 and re.sub(r"\s", "", r.data) == re.sub(r"\s", "", erratum.expression)]
        assert found, f"{erratum.id}: the audit of {seed.name} did not flag line {lines}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not on this machine")
def test_audit_agrees_with_the_correct_figures_of_the_results_analysis() -> None:
    rows = {(r.line, r.figure): r for r in audit_file(_seed("results-analysis"), FROZEN_DATA)}
    assert rows[(14, "9.007 ms")].agrees
    assert rows[(16, "less than 2 ms")].agrees
    assert rows[(36, "3.06%")].agrees
    assert rows[(36, "3.06%")].data == "diff(accuracy:vit-g5-acc:top1, accuracy:vit-inf1-acc:top1)"


def test_matrix_diff_prints_no_runpy_warning_and_json_only() -> None:
    # Without make's -s: FORMAT=json's standard output is the JSON and nothing else (no echoed command line).
    # (--no-print-directory: under make test, make runs inside make and would say which directory it enters)
    result = subprocess.run(["make", "--no-print-directory", "matrix-diff", "BASE=HEAD", "FORMAT=json"], cwd=REPO,
                            capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert isinstance(json.loads(result.stdout), dict), result.stdout[:200]
    assert "RuntimeWarning" not in result.stderr and "runpy" not in result.stderr, result.stderr


def test_audit_piped_into_head_ends_quietly() -> None:
    # The corpus four times: about 160 KB of report, well past a pipe's 64 KiB buffer, so the
    # audit is still writing when head has gone.
    pages = " ".join([str(p) for p in sorted((REPO / "tests" / "drift_corpus").glob("*.rst"))] * 4)
    result = subprocess.run(f"make -s audit FILE='{pages}' | head -n 2", shell=True, cwd=REPO, capture_output=True,
                            text=True, check=False)
    assert len(result.stdout.splitlines()) == 2
    assert "Traceback" not in result.stderr and "BrokenPipeError" not in result.stderr, result.stderr


def test_audit_options_through_make(tmp_path: Path) -> None:
    """--format json, --strict and several files reach the audit through AUDIT_ARGS."""
    import json

    corpus = REPO / "tests" / "drift_corpus"
    files = f"{corpus / 'planted-fit.rst'} {FIXTURE}"
    result = subprocess.run(["make", "-s", "audit", f"FILE={files}", "AUDIT_ARGS=--format json --strict"],
                            cwd=REPO, capture_output=True, text=True, check=False)
    assert result.returncode != 0  # --strict: both pages hold a contradiction
    report = json.loads(result.stdout[result.stdout.index("{"):])
    assert set(report) == {str(corpus / "planted-fit.rst"), str(FIXTURE)}


@pytest.mark.parametrize("name", ["page.rst", "errata.yaml"])
def test_a_file_that_is_not_utf8_is_a_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              name: str) -> None:
    """A page or data file in another encoding: the audit says which file and byte, and exits 2."""
    path = tmp_path / name
    path.write_bytes("title: caf\u00e9 at 760 GB/s\n".encode("latin-1"))
    with pytest.raises(SystemExit) as stopped:
        main([str(path)])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"{path}: not UTF-8 text: byte 0xe9 at offset 10" in err and "Traceback" not in err
