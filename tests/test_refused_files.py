"""Every data file refused in turn: the real site still builds, and every problem is located.

Each file of :data:`~neuron_docs.data.catalog.FILE_NAMES`, and the latest revision of the support
matrices, is saved as UTF-16 (which the loader refuses before parsing it) and the real site is
built again. The build must finish without a traceback (no renderer, handler or check may look a
record up unguarded: a record missing because its file was refused is a warning where it would
appear), report the refusal at the file, and give every other warning a location: an existing
file or folder, with a line unless it is the refused file itself.

Cheap by construction: the real site is built once (``base``); each case starts from a copy of
that build's doctrees and output and refuses its file in the same data folder and source tree, so
Sphinx reads and writes again only the pages that read or show the refused file (the pages the
data-key dependencies name), as an incremental build after such a change would.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers.paths import DATA, copy_source
from helpers.site import SiteBuild, build_site
from helpers.warnings import without_colours
from neuron_docs.data.catalog import FILE_NAMES
from neuron_docs.data.checking.matrix_files import MATRIX_DIR

#: Run by ``make test-e2e`` (and CI), not by ``make test``.
pytestmark = pytest.mark.sweep

#: Every data file, and the latest revision of the support matrices (the one every page shows).
REFUSED = (*FILE_NAMES, MATRIX_DIR + max(p.name for p in (DATA / MATRIX_DIR).glob("*.yaml")))
WARNING = re.compile(r"^(?P<path>[^:\s][^:]*):(?P<line>\d*): (?:WARNING|ERROR): ")  # an included file: relative to the cwd


@dataclass
class Base:
    """The real site built once from a copy of ``data/``, into ``root/base``."""

    root: Path
    data: Path
    source: Path


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Base:
    root = tmp_path_factory.mktemp("refused")
    data = root / "data"
    shutil.copytree(DATA, data)
    source = copy_source(root / "source")
    built = build_site(root / "base", data_dir=data, srcdir=source, neuron_cache_dir="")
    assert "WARNING" not in built.warnings, built.warnings
    return Base(root, data, source)


def _refused_build(base: Base, name: str) -> SiteBuild:
    """The site built again, from the base build, with ``name`` saved as UTF-16 (then restored)."""
    case = base.root / name.replace("/", "_")
    shutil.copytree(base.root / "base", case)
    path = base.data / name
    text = path.read_bytes()
    path.write_bytes(text.decode("utf-8").encode("utf-16"))
    try:
        return build_site(case, data_dir=base.data, srcdir=base.source, fresh=False, neuron_cache_dir="")
    finally:
        path.write_bytes(text)


@pytest.mark.parametrize("name", REFUSED)
def test_a_refused_file_is_reported_and_the_site_still_builds(base: Base, name: str) -> None:
    built = _refused_build(base, name)  # an exception in a renderer or a handler fails here
    warnings = without_colours(built.warnings).splitlines()
    assert "Traceback" not in built.warnings
    assert built.app.statuscode == 0  # type: ignore[attr-defined]
    refused = base.data / name
    assert any(line.startswith(f"{refused}:") and "UTF-16" in line and "[neuron.data]" in line
               for line in warnings), "\n".join(warnings[:20])
    # One cause, one warning (issue 32): what the refusal sets aside elsewhere is counted in it, and
    # the pages that would show it say so in their box, not in a warning of their own.
    given = [w for w in warnings if "WARNING" in w or "ERROR" in w]
    assert len(given) == 1, "\n".join(given[:20])
    env = built.app.env  # type: ignore[attr-defined]
    assert all((built.outdir / f"{doc}.html").is_file() for doc in env.all_docs)
    for line in (w for w in warnings if "WARNING" in w or "ERROR" in w):
        found = WARNING.match(line)
        assert found, f"a warning without a location: {line}"
        where = Path(found["path"])
        assert where.exists(), f"a warning located in no file or folder: {line}"
        assert found["line"] or where.is_dir() or where == refused, f"a warning without a line: {line}"
