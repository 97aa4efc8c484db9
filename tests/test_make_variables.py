"""Make variables are data (issue 32): BASE, FROM, TO, SRC, FILE and the *_ARGS reach the tools as
arguments, never as shell text nor make text; a `$(...)`, a backtick or a `$(shell ...)` in them is
never run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from helpers.paths import REPO

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")

HOSTILE = ("$(touch {m}a)", "`touch {m}b`", "$(shell touch {m}c)", "x; touch {m}d", "$$(touch {m}e)")


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-s", *args], cwd=REPO, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("variables", [
    ["matrix-diff", "BASE={v}"],
    ["matrix-diff", "FROM={v}", "TO={v}", "FORMAT={v}"],
    ["import-benchmarks", "SRC={v}", "IMPORT_ARGS={v}"],
    ["audit", "FILE={v}", "AUDIT_ARGS={v}"],
], ids=["BASE", "FROM-TO-FORMAT", "SRC-IMPORT_ARGS", "FILE-AUDIT_ARGS"])
def test_a_variable_holding_a_command_never_runs_it(tmp_path: Path, variables: list[str]) -> None:
    marker = f"{tmp_path}/ran-"
    value = " ".join(h.format(m=marker) for h in HOSTILE)
    target, *assignments = variables
    result = make(target, *(a.format(v=value) for a in assignments))
    assert list(tmp_path.iterdir()) == [], result.stdout + result.stderr
    assert result.returncode != 0  # the tool got the text and refused it as a revision, a file, a date


def test_the_value_reaches_the_tool_verbatim() -> None:
    result = make("matrix-diff", "BASE=$(touch x) `y`")
    assert "unknown revision '$(touch x) `y`'" in result.stderr
