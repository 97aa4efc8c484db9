"""A fuzzer over the real data files: mutated structure, types, encodings and sizes never crash the load.

Each example takes one real file of ``data/`` (copied once per module; the real files are never
modified), applies a few random mutations, loads the catalogue with :func:`load_catalog` and checks:
no exception escapes, the load never hangs (a :data:`SECONDS` guard), every error is a located
:class:`DataError` that says what was expected, every record of the other files is loaded or set
aside as a cascade, and every figure derived from what loaded is finite.

The budget is small by default (``make test``); set ``NEURON_FUZZ_EXAMPLES`` (e.g. 2000) for a
longer run.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.paths import DATA, copy_data
from helpers.watchdog import hang_guard
from neuron_docs.data import Catalog, DataError, load_catalog
from neuron_docs.data.catalog import FILE_NAMES, FILES
from neuron_docs.data.files.loader import MAX_FILE_BYTES
from neuron_docs.data.figures.values import build_values

EXAMPLES = int(os.environ.get("NEURON_FUZZ_EXAMPLES", "15"))
#: A hang guard, not a timing: a load that blocks (on a FIFO, a device) never returns, while the
#: slowest case loads in seconds even on a loaded machine. Speed is measured by ``make bench``.
SECONDS = 180
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="NEURON_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_data(tmp_path_factory.mktemp("fuzz") / "data")


@pytest.fixture(scope="module")
def baseline() -> Catalog:
    return load_catalog(DATA)


@pytest.fixture
def watchdog() -> Iterator[None]:
    """The hang guard's handler; each example sets the alarm around its own load (not armed here:
    one alarm for the whole test would count every example's load against it)."""
    with hang_guard(SECONDS, armed=False):
        yield


# Mutations: each takes the file's bytes and a random source, returns new bytes -------------------------

Mutation = Callable[[bytes, st.DataObject], bytes]

#: Things a careless or hostile editor types: YAML and CSV syntax, odd numbers, odd characters.
TOKENS = [
    b"-", b"- ", b":", b": ", b"[", b"]", b"{", b"}", b",", b"&a ", b"*a", b"<<: ", b"!!python/object:x ",
    b"!include ", b"? ", b"|", b">", b"#", b"'", b'"', b"\t", b"\n", b"\r\n", b"\r", b"\x00", b"\xef\xbb\xbf",
    b"\xff", b"\xe2\x80\xae", b"\xe2\x81\xa6", b"\xc2\x85", b"\x1b", b"010", b"0x1F", b"1_000", b"1:28",
    b"1e400", b"1.0e+400", b"-0", b"-0.0", b".inf", b".nan", b"yes", b"no", b"on", b"off", b"~", b"null",
    b"1e-300", b"9" * 400, "\u0661\u0662".encode(), "\uff11".encode(), b"2023-02-30", b"1690848000",
    b"=cmd|' /C calc'!A0", b"\\u202e", b'"\\0"', b'"\\ud800"', b"- - - - - - - -", b"[[[[[[[[",
]


def _splice(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(0, len(raw)), label="at")
    token = data.draw(st.sampled_from(TOKENS) | st.binary(max_size=8), label="insert")
    return raw[:at] + token + raw[at:]


def _delete(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(0, len(raw)), label="at")
    size = data.draw(st.integers(1, 200), label="size")
    return raw[:at] + raw[at + size:]


def _replace_value(raw: bytes, data: st.DataObject) -> bytes:
    """Replace what follows a ``: `` or a ``,`` (a value or a CSV cell) with a token."""
    marks = [i for i in range(len(raw) - 1) if raw[i:i + 2] == b": " or raw[i:i + 1] == b","]
    if not marks:
        return raw
    at = data.draw(st.sampled_from(marks), label="value at") + 1
    end = at
    while end < len(raw) and raw[end:end + 1] not in b",}\n":
        end += 1
    token = data.draw(st.sampled_from(TOKENS), label="value")
    return raw[:at] + b" " + token + raw[end:]


def _duplicate_lines(raw: bytes, data: st.DataObject) -> bytes:
    lines = raw.split(b"\n")
    at = data.draw(st.integers(0, len(lines) - 1), label="line")
    times = data.draw(st.sampled_from([2, 10, 1000]), label="times")
    return b"\n".join(lines[:at] + [lines[at]] * times + lines[at + 1:])


def _indent(raw: bytes, data: st.DataObject) -> bytes:
    lines = raw.split(b"\n")
    at = data.draw(st.integers(0, len(lines) - 1), label="line")
    lines[at] = data.draw(st.sampled_from([b" ", b"  ", b"\t", b"- "]), label="indent") * \
        data.draw(st.integers(1, 50_000), label="depth") + lines[at]
    return b"\n".join(lines)


def _encode(raw: bytes, data: st.DataObject) -> bytes:
    encoding = data.draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252"]), label="encoding")
    try:
        return raw.decode("utf-8").encode(encoding, errors="replace")
    except UnicodeDecodeError:
        return raw


def _grow(raw: bytes, data: st.DataObject) -> bytes:
    """Make the file large: a long line, or the file repeated (to just under or over the limit)."""
    if data.draw(st.booleans(), label="long line"):
        at = data.draw(st.integers(0, len(raw)), label="at")
        return raw[:at] + b"x" * data.draw(st.sampled_from([1_000, 200_000, 2_000_000]), label="n") + raw[at:]
    copies = data.draw(st.sampled_from([2, 50, 2000]), label="copies")
    return raw * min(copies, 2 * MAX_FILE_BYTES // max(len(raw), 1) + 1)  # up to about twice the limit


def _truncate(raw: bytes, data: st.DataObject) -> bytes:
    return raw[: data.draw(st.integers(0, len(raw)), label="keep")]


MUTATIONS: list[Mutation] = [_splice, _delete, _replace_value, _duplicate_lines, _indent, _encode, _grow,
                             _truncate]


#: How a record of another file fails when a record it names is broken or gone.
CASCADES = ("could not be", "unknown ", "missing support status", "does not run on", "has no value",
            # the revisions of the support matrices (matrix/) against the other files, and back
            "is not a known ", "expected a device of ", "expected a framework that runs on", "support_matrix: false",
            "as instances.yaml says", "NeuronCores per ", "no revision of ")
#: The revisions of the support matrices, fuzzed like the other files.
REVISIONS = tuple(f"matrix/{p.name}" for p in sorted((DATA / "matrix").glob("*.yaml")))


def _is_cascade(error: DataError) -> bool:
    return any(words in error.message for words in CASCADES)


def _collections(file: str) -> set[str]:
    if file in REVISIONS:
        return {"revisions"}
    spec = next(s for s in FILES if s.name == file)
    return {*spec.collections, *([spec.csv[0]] if spec.csv else [])}


@FUZZ
@given(file=st.sampled_from((*FILE_NAMES, *REVISIONS)), data=st.data())
def test_mutated_data_is_reported_never_raised(scratch: Path, baseline: Catalog, watchdog: None, file: str,
                                               data: st.DataObject) -> None:
    raw = (DATA / file).read_bytes()
    steps = data.draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3), label="mutations")
    for step in steps:
        raw = step(raw, data)
    (scratch / file).write_bytes(raw)
    signal.alarm(SECONDS)
    try:
        catalog = load_catalog(scratch)  # under the alarm: a hang fails the test
    finally:
        signal.alarm(0)
        shutil.copyfile(DATA / file, scratch / file)

    for error in catalog.errors:
        assert isinstance(error, DataError)
        assert error.file and "expected" in error.message, error
        assert error.line is None or error.line >= 1
        assert error.file == file or _is_cascade(error), error
    mutated = _collections(file)
    loaded = {(c, i) for c, table in catalog.records.items() for i in table}
    broken: dict[tuple[str, str | None], list[DataError]] = {}
    for b in catalog.broken:
        broken.setdefault((b.collection, b.record_id), []).extend(b.errors)
    for collection, record_id in {(c, i) for c, t in baseline.records.items() for i in t} - loaded:
        if collection not in mutated:
            assert (collection, record_id) in broken, f"{collection} {record_id} silently dropped"
            assert all(_is_cascade(e) for e in broken[(collection, record_id)])
    for path, value in build_values(catalog).items():
        assert math.isfinite(value.number), path
