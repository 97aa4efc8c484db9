"""``.readthedocs.yaml``: valid against Read the Docs' own schema, and naming files that exist."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from helpers.paths import REPO

CONFIG = REPO / ".readthedocs.yaml"
#: Read the Docs' JSON schema of configuration version 2: the shared copy beside the repository when
#: present (../shared/external/), else the snapshot kept in tests/specs/ (same file, 2026-08-22).
_SHARED = REPO.parent / "shared" / "external" / "readthedocs-config-v2.schema.json"
SCHEMA = Path(os.environ.get("RTD_CONFIG_SCHEMA") or (
    _SHARED if _SHARED.is_file() else REPO / "tests" / "specs" / "readthedocs-config-v2.schema.json"))


@pytest.fixture(scope="module")
def config() -> dict:
    document = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def test_valid_against_the_readthedocs_schema(config: dict) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = sorted(Draft202012Validator(schema).iter_errors(config), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{'.'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors)


def test_build_settings(config: dict) -> None:
    assert config["version"] == 2
    assert config["build"]["os"] == "ubuntu-24.04"
    assert config["build"]["tools"]["python"] == "3.13"
    assert config["sphinx"] == {"configuration": "conf.py", "fail_on_warning": True}
    assert config["python"]["install"] == [{"requirements": "requirements.txt"}]


def test_html_build_reads_source_with_the_top_level_conf(config: dict) -> None:
    """conf.py is at the top but pages are in source/, so the html job is built like ``make html``."""
    [command] = config["build"]["jobs"]["build"]["html"]
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "sphinx"]
    assert argv[argv.index("-c") + 1] == "."
    assert {"-W", "--keep-going", "-n"} <= set(argv)  # what fail_on_warning and `make html` ask for
    assert argv[-2:] == ["source", "$READTHEDOCS_OUTPUT/html"]
    assert (REPO / "source").is_dir()


def test_named_files_exist(config: dict) -> None:
    for item in config["python"]["install"]:
        assert (REPO / item["requirements"]).is_file(), item["requirements"]
    assert (REPO / config["sphinx"]["configuration"]).is_file()


@pytest.mark.parametrize("fmt, builder, made", [("pdf", "latex", ".pdf"), ("epub", "epub", ".epub")])
def test_pdf_and_epub_build_like_make(config: dict, fmt: str, builder: str, made: str) -> None:
    """Read the Docs builds the PDF and the ePub (``formats``) like ``make pdf`` and ``make epub``: its
    default job would read the whole repository (no ``-c . source``)."""
    assert fmt in config["formats"]
    commands = config["build"]["jobs"]["build"][fmt]
    argv = shlex.split(commands[0])
    assert argv[:3] == ["python", "-m", "sphinx"] and argv[argv.index("-b") + 1] == builder
    assert argv[argv.index("-c") + 1] == "." and {"-W", "--keep-going", "-n"} <= set(argv) and argv[-2] == "source"
    assert f"$READTHEDOCS_OUTPUT/{fmt}/" in commands[-1] and made in "".join(commands)
    if fmt == "pdf":
        assert "librsvg2-bin" in config["build"]["apt_packages"]  # rsvg-convert draws the charts
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert f"{fmt}: $(VENV_STAMP)" in makefile and f"-b {builder} -c ." in makefile
