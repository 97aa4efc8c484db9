"""The supported Pythons: stated once (``pyproject.toml``'s ``requires-python``) and true everywhere.

Every pinned package of the site build installs on the oldest Python it admits, and every place that
names a Python (Read the Docs, CI, the README) names one it admits; ``make`` refuses an older one
with that statement before creating anything.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from helpers.paths import REPO

PYTHONS = SpecifierSet(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"])
OLDEST = re.fullmatch(r">=(\d+\.\d+)", str(PYTHONS)).group(1)  # type: ignore[union-attr]


def test_every_pinned_package_installs_on_the_oldest_supported_python() -> None:
    """A package whose own ``Requires-Python`` refuses ``OLDEST`` would stop pip there (Sphinx 9.2: 3.13)."""
    refusing = []
    for line in (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        requirement = Requirement(line)
        wanted = metadata.metadata(requirement.name).get("Requires-Python")
        if wanted and f"{OLDEST}.0" not in SpecifierSet(wanted):
            refusing.append(f"{requirement.name} needs Python {wanted}")
    assert not refusing, refusing
    sphinx = SpecifierSet(metadata.metadata("sphinx")["Requires-Python"])
    assert f"{OLDEST}.0" in sphinx and f"{OLDEST}.0" in PYTHONS  # not stricter than what it states


def test_every_configuration_names_a_supported_python() -> None:
    readthedocs = yaml.safe_load((REPO / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert f"{readthedocs['build']['tools']['python']}.0" in PYTHONS
    workflow = yaml.safe_load((REPO / ".github/workflows/pr-preview.yml").read_text(encoding="utf-8"))
    versions = [step["with"]["python-version"] for job in workflow["jobs"].values() for step in job["steps"]
                if "setup-python" in step.get("uses", "")]
    assert versions and all(f"{version}.0" in PYTHONS for version in versions)
    assert f"{sys.version_info.major}.{sys.version_info.minor}.0" in PYTHONS  # the tests' own
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"Python >= {OLDEST}" in readme
    assert not re.search(r"Python >= ?3\.(?!" + OLDEST.split(".")[1] + r"\b)\d+", readme), "another minimum"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_refuses_an_older_python_with_the_statement(tmp_path: Path) -> None:
    """``make html PYTHON=<older>`` stops before creating a virtual environment, saying what it needs."""
    older = tmp_path / "python-older"
    older.write_text("#!/bin/sh\n"
                     "case \"$*\" in *version_info*) exit 1;; *python_version*) echo 3.12.9;; esac\n")
    older.chmod(0o755)
    done = subprocess.run(["make", "-s", "html", f"PYTHON={older}", f"VENV={tmp_path / 'venv'}"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert f"is Python 3.12.9; this site needs Python >= {OLDEST}" in done.stderr
    assert not (tmp_path / "venv").exists()


def test_conf_refuses_an_older_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """conf.py states the requirement when Sphinx reads it on an unsupported Python."""
    import platform

    monkeypatch.setattr(platform, "python_version", lambda: "3.12.9")
    conf = REPO / "conf.py"
    with pytest.raises(RuntimeError, match=rf"needs Python >={re.escape(OLDEST)}.*this is Python 3\.12\.9"):
        exec(compile(conf.read_text(encoding="utf-8"), str(conf), "exec"), {"__file__": str(conf)})  # noqa: S102
