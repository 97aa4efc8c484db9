"""Every case of :mod:`hostile_cases`: located, contained, bounded, and nothing from outside data/.

For each case a copy of ``data/`` is mutated and loaded with :func:`load_catalog` (no Sphinx):

- nothing raises, and the load never hangs (a :data:`SECONDS` guard: a FIFO or a device must not block);
- the expected error is reported at the file, line and field the case names, and every error is
  located (a file; a line unless the whole file is refused) and says what was expected;
- a tolerated case loads without errors;
- every record of the real data is loaded or set aside in ``catalog.broken``, never dropped; a
  record of another file is set aside only as a cascade (it names a record that could not load);
- every figure derived from what loaded is finite and formats;
- text planted outside ``data/`` appears in no message and no record.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.params import representatives
from helpers.paths import DATA
from helpers.watchdog import hang_guard
from hostile_cases import CASES, SECRET, Hostile

from neuron_docs.data import Catalog, DataError, load_catalog
from neuron_docs.data.catalog import DERIVED, FILES
from neuron_docs.data.figures.formatting import format_number
from neuron_docs.data.figures.values import build_values
from neuron_docs.render.tables import broken_notice
from neuron_docs.site import device_pages

SOURCE = DATA.parent / "source"
#: Longest a single hostile load may take (a clean load takes a few hundredths of a second).
#: A hang guard, not a timing: a load that blocks (on a FIFO, a device) never returns, while the
#: slowest case loads in seconds even on a loaded machine. Speed is measured by ``make bench``.
SECONDS = 180


@pytest.fixture(scope="module")
def baseline() -> Catalog:
    catalog = load_catalog(DATA)
    assert catalog.errors == []
    return catalog


@pytest.fixture
def watchdog() -> Iterator[None]:
    """Fail, rather than hang, if a load blocks (on a FIFO, a device) or runs away."""
    with hang_guard(SECONDS):
        yield


def _collections(file: str) -> set[str]:
    """The collections ``file`` holds, and those derived from it (the published runs, from the store)."""
    spec = next((s for s in FILES if s.name == file), None)
    if spec is None:  # a file the site does not read: it holds nothing
        return set()
    return {*spec.collections, *([spec.csv[0]] if spec.csv else []), *(c for c, f in DERIVED.items() if f == file)}


def _ids(catalog: Catalog) -> set[tuple[str, str]]:
    return {(c, i) for c, table in catalog.records.items() for i in table}


def _is_cascade(error: DataError) -> bool:
    return "could not be" in error.message


def test_the_catalogue_is_broad() -> None:
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)
    assert {c.kind for c in CASES} >= {"file", "encoding", "size", "yaml", "number", "text", "type"}


@pytest.mark.parametrize("case", representatives(CASES, lambda case: case.kind))
def test_hostile_case(case: Hostile, tmp_path: Path, baseline: Catalog, watchdog: None) -> None:
    data, outside = tmp_path / "data", tmp_path / "outside"
    shutil.copytree(DATA, data)
    outside.mkdir()
    line = case.mutate(data, outside)

    catalog = load_catalog(data)  # under the watchdog: a hang fails the test

    errors = catalog.errors
    shown = "\n".join(map(str, errors))
    if case.expect is None:
        assert errors == [], shown
        assert catalog.broken == []
        assert _ids(catalog) == _ids(baseline)
        return

    # The expected error, located.
    match = [e for e in errors if e.file == case.file and case.expect in e.message
             and e.line == line and case.field in e.field]
    assert match, f"no error {case.file}:{line}: {case.field}...: ...{case.expect}...; got:\n{shown}"
    for error in errors:
        assert isinstance(error, DataError)
        assert error.file and "expected" in error.message, error
        assert error.line is not None or error.field or "file" in error.message, error
        assert "Traceback" not in error.message
        assert len(str(error)) < 2000, f"{str(error)[:200]}..."
        assert error.file in (case.file, *case.also) or _is_cascade(error), error

    # The whole file, or only the records with problems, set aside; nothing silently dropped.
    mutated = _collections(case.file).union(*(_collections(f) for f in case.also))
    if case.whole and line is None:  # refused before parsing: every collection it holds is set aside
        assert {(b.collection, b.record_id) for b in catalog.broken} >= {(c, None) for c in mutated}
    why: dict[tuple[str, str | None], list[DataError]] = {}
    for b in catalog.broken:
        why.setdefault((b.collection, b.record_id), []).extend(b.errors)
    loaded = _ids(catalog)
    for collection, record_id in _ids(baseline) - loaded:
        if collection in mutated:
            continue  # a record of the mutated file: edited, or the whole file refused
        assert (collection, record_id) in why, f"{collection} {record_id} silently dropped"
        reasons = why[(collection, record_id)]
        assert all(_is_cascade(e) for e in reasons), reasons
    if not case.whole:
        lost = {p for p in _ids(baseline) - loaded if p[0] in mutated}
        assert len(lost) <= 1, f"more than the mutated record set aside: {lost}"

    # No device page vanishes (issue 32): a device set aside keeps its page, which shows its box; no
    # box prints the value the data refused.
    named = {i.device for i in baseline.instances.values()}
    assert named <= {n.removesuffix(".rst") for n in device_pages.render(catalog, SOURCE, "_devices")}
    if case.value:
        shown = " ".join(box.astext() for box in broken_notice(catalog.broken))
        assert "(value not shown)" in shown and case.value not in shown

    # What loaded still derives finite figures, and they format.
    for path, value in build_values(catalog).items():
        assert math.isfinite(value.number), path
        format_number(value.number, value.unit)

    # Nothing of a file outside data/ is shown.
    assert SECRET not in shown
    assert SECRET not in repr(catalog.records)
    assert SECRET not in repr(catalog.broken)


# The safe reader's helpers ------------------------------------------------------------------------


def test_file_digest_hashes_the_bytes_and_never_opens_what_it_refuses(tmp_path: Path, watchdog: None) -> None:
    import hashlib
    import os

    from neuron_docs.data.files.loader import file_digest

    data, outside = tmp_path / "data", tmp_path / "outside"
    data.mkdir()
    outside.mkdir()
    (data / "a.yaml").write_bytes(b"a: 1\n")
    assert file_digest(data / "a.yaml", data) == hashlib.sha256(b"a: 1\n").hexdigest()
    (data / "a.yaml").write_bytes(b"a: 2\n")
    assert file_digest(data / "a.yaml", data) == hashlib.sha256(b"a: 2\n").hexdigest()

    os.mkfifo(data / "fifo.yaml")  # would block a plain read forever
    (data / "zero.yaml").symlink_to("/dev/zero")  # would exhaust memory
    (outside / "secret.yaml").write_text("one")
    (data / "leak.yaml").symlink_to(outside / "secret.yaml")
    digests = {name: file_digest(data / name, data) for name in ("fifo.yaml", "zero.yaml", "leak.yaml", "gone.yaml")}
    assert all(len(d) == 64 for d in digests.values())
    assert len(set(digests.values())) == 3  # FIFO, link leaving data/ (x2), missing
    (outside / "secret.yaml").write_text("two")
    assert file_digest(data / "leak.yaml", data) == digests["leak.yaml"]  # its content is never read


def test_absurd_magnitudes_print_in_scientific_notation() -> None:
    from neuron_docs.data.figures.formatting import NumberFormat, display_number

    assert format_number(1.5e40, "USD", NumberFormat(2)) == "$1.50 × 10⁴⁰"
    assert format_number(2e30, "USD/h") == "$2 × 10³⁰/h"
    assert format_number(1e-9, "%") == "0.000000001%"
    assert format_number(3e17, "x") == "3 × 10¹⁷ x"
    assert display_number(float("inf"), "USD/h") == "$∞/h"
    assert display_number(float("nan"), "ms") == "NaN ms"
    assert display_number(9.007, "ms") == "9.007 ms"
