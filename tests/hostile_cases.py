"""The catalogue of hostile and careless data: one row per case, with the outcome expected.

Each case mutates one file of a throw-away copy of ``data/`` (the real files are never touched)
and says what :func:`neuron_docs.data.load_catalog` must report: a message fragment, the file, the
line (returned by the mutation itself, so no case depends on the data's values or line numbers)
and a fragment of the field. ``expect=None`` marks input that is tolerated: it loads without an
error. :mod:`test_hostile_data` runs every case and checks, besides the expected error, that
nothing raises, every message is located and says what was expected, the run finishes in bounded
time, no content of a file outside ``data/`` shows anywhere, and every other record still loads.

Kinds: ``file`` (what sits where a data file should be), ``encoding``, ``size``, ``yaml``
(structure and YAML features), ``number`` (typing, overflow, ranges), ``text`` (control and
bidirectional-override characters), ``type`` (a value of the wrong shape), ``csv``.

The table is meant to be scanned: ``make hostile-cases`` prints it. The revisions folder itself
(missing, empty, a file, a link leaving ``data/``) is checked in :mod:`test_matrix_revisions`.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from neuron_docs.data.catalog import FILE_NAMES
from neuron_docs.data.files.atomic import JOURNAL, STAGED_SUFFIX
from neuron_docs.data.files.loader import MAX_FILE_BYTES
from neuron_docs.data.files.yaml_reader import MAX_DEPTH

#: A mutation: (copy of data/, a folder outside it) -> the 1-based line of the problem, or None.
Mutation = Callable[[Path, Path], int | None]

#: Text planted outside data/ that must never reach a message or a record.
SECRET = "TOP-SECRET-d41d8cd98f00"


@dataclass(frozen=True)
class Hostile:
    """One hostile input and its expected outcome."""

    id: str
    kind: str
    file: str
    mutate: Mutation
    #: A fragment of the expected message; ``None``: tolerated, loads without errors.
    expect: str | None
    #: A fragment of the expected error's field ("" for a whole file).
    field: str = ""
    #: The whole file is refused, or all its records are (more than one record may be lost).
    whole: bool = False
    #: Other files the mutation makes unreadable too.
    also: tuple[str, ...] = ()
    #: The value the data refuses: no "Data problem" box prints it (issue 32).
    value: str = ""


# Mutations ----------------------------------------------------------------------------------------


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def sub(file: str, pattern: str, new: str | Callable[[str], str]) -> Mutation:
    """Replace group ``v`` of the first match of ``pattern`` (multi-line) in ``file``."""
    def apply(data: Path, _outside: Path) -> int:
        path = data / file
        text = path.read_text(encoding="utf-8")
        match = re.search(pattern, text, re.M)
        assert match, f"{pattern!r} not found in {file}"
        value = new(match.group("v")) if callable(new) else new
        path.write_text(text[: match.start("v")] + value + text[match.end("v"):], encoding="utf-8")
        return _line_of(text, match.start("v"))
    return apply


def cell(file: str, column: str, value: str, row: int = 0) -> Mutation:
    """Set ``column`` of data row ``row`` (0-based) of a CSV file to ``value`` (written as is)."""
    def apply(data: Path, _outside: Path) -> int:
        path = data / file
        lines = path.read_text(encoding="utf-8").split("\n")
        header = next(csv.reader([lines[0]]))
        rows = [n for n, text in enumerate(lines[1:], start=1) if text.strip()]
        number = rows[row]
        cells = next(csv.reader([lines[number]]))
        cells[header.index(column)] = value
        out = io.StringIO()
        csv.writer(out, lineterminator="", quoting=csv.QUOTE_MINIMAL).writerow(cells)
        lines[number] = out.getvalue() if value.isprintable() else ",".join(cells)
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        return number + 1
    return apply


def raw_cell(file: str, column: str, value: str, row: int = 0) -> Mutation:
    """Like :func:`cell`, the cells joined with bare commas (for values csv would quote)."""
    def apply(data: Path, _outside: Path) -> int:
        path = data / file
        lines = path.read_text(encoding="utf-8").split("\n")
        header = next(csv.reader([lines[0]]))
        number = [n for n, text in enumerate(lines[1:], start=1) if text.strip()][row]
        cells = next(csv.reader([lines[number]]))
        cells[header.index(column)] = value
        lines[number] = ",".join(cells)
        path.write_bytes("\n".join(lines).encode("utf-8", errors="surrogatepass"))
        return number + 1
    return apply


def write(file: str, content: bytes | Callable[[bytes], bytes], line: int | None = None) -> Mutation:
    """Replace the bytes of ``file`` (``content`` may compute them from the original)."""
    def apply(data: Path, _outside: Path) -> int | None:
        path = data / file
        path.write_bytes(content(path.read_bytes()) if callable(content) else content)
        return line
    return apply


def append(file: str, extra: str, offset: int = 0) -> Mutation:
    """Append text to ``file``; the problem is on appended line ``offset`` (0: the first)."""
    def apply(data: Path, _outside: Path) -> int:
        path = data / file
        text = path.read_text(encoding="utf-8")
        if not text.endswith("\n"):
            text += "\n"
        path.write_text(text + extra, encoding="utf-8")
        return text.count("\n") + 1 + offset
    return apply


def replace_with(file: str, make: Callable[[Path, Path], None]) -> Mutation:
    """Remove ``file`` and let ``make(path, outside)`` put something else in its place."""
    def apply(data: Path, outside: Path) -> None:
        path = data / file
        path.unlink()
        make(path, outside)
    return apply


def link_outside(path: Path, outside: Path) -> None:
    secret = outside / "secret.yaml"
    secret.write_text(f"errata:\n  - {{id: leak, source: x, quote: {SECRET}, explanation: {SECRET}}}\n"
                      f"{SECRET}: [\n", encoding="utf-8")
    path.symlink_to(secret)


def deep_block(levels: int) -> str:
    """``levels`` lists nested in block style on one line: ``- - - ... x`` (2 bytes a level)."""
    return "deep:\n  " + "- " * levels + "x\n"


def deep_indented(levels: int) -> str:
    return "deep:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(levels)) + " " * (levels + 1) + "x\n"


NUMBER = r"usd_per_hour: (?P<v>[^,}\s]+)"            # instances.yaml, a price
COUNT = r"device_count: (?P<v>[^,}\s]+)"            # instances.yaml, an integer
LABEL = r"^\s+- \{id: [^,]+, value: [^,]+, unit: [^,]+, label: (?P<v>\"[^\"]*\")"  # training.yaml claims
VERSION = r"framework_version: (?P<v>[^,}\n]+)"     # frameworks.yaml, a name
DATE = r"as_of: (?P<v>[0-9-]+)"                     # instances.yaml
URL = r"^\s+url: (?P<v>\S+)"                        # issues.yaml (roadmap)
FLAG = r"support_matrix: (?P<v>\w+)"                # frameworks.yaml
TITLE = r"^\s+title: (?P<v>.+)$"                    # issues.yaml
QUOTE = r"^\s+quote: (?P<v>.+)$"                    # errata.yaml
TR, ISS, ERR, INS, FW, FAM, SRC = ("training.yaml", "issues.yaml", "errata.yaml", "instances.yaml",
                                   "frameworks.yaml", "families.yaml", "sources.yaml")
INF, ACC = "benchmarks/inference.csv", "benchmarks/accuracy.csv"
DEV, PRI = "devices.yaml", "prices.yaml"
SPEC_VALUE = r"specs:\n\s+\w+: \{value: (?P<v>[^,]+)"    # devices.yaml, a device's first specification
PUBLISHED_PRICE = r"usd_per_hour: '(?P<v>[^']+)'"    # prices.yaml
STATES, CONFIGURATIONS = "benchmarks/history/states.csv", "benchmarks/history/configurations.csv"
#: Every data file under benchmarks/ (a linked benchmarks/ folder takes them all).
BENCHMARK_FILES = tuple(name for name in FILE_NAMES if name.startswith("benchmarks/"))


def _link_to(target: str) -> Callable[[Path, Path], None]:
    return lambda path, _outside: path.symlink_to(target)


def _fifo(path: Path, _outside: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path, _outside: Path) -> None:
    path.mkdir()


def _loop(path: Path, _outside: Path) -> None:
    path.symlink_to(path.name)


def _inside_link(data: Path, _outside: Path) -> None:
    path = data / ERR
    os.replace(path, data / "errata-real.yaml")
    path.symlink_to("errata-real.yaml")


def _linked_folder(data: Path, outside: Path) -> None:
    """data/benchmarks -> a copy outside data/."""
    target = outside / "benchmarks"
    os.replace(data / "benchmarks", target)
    (data / "benchmarks").symlink_to(target)


def _link_outside(data: Path, outside: Path) -> None:
    path = data / ERR
    path.unlink()
    link_outside(path, outside)


def new_file(name: str, content: bytes = b"", size: int = 0) -> Mutation:
    """A file the site does not read, put in data/ (``size``: made that large, sparse: nothing written)."""
    def apply(data: Path, _outside: Path) -> None:
        path = data / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        if size:
            os.truncate(path, size)
    return apply


def _grow(file: str, size: int) -> Mutation:
    """``file`` made ``size`` bytes long (sparse: nothing written; a bound refuses it from stat)."""
    def apply(data: Path, _outside: Path) -> None:
        os.truncate(data / file, size)
    return apply


def _stray_link_outside(data: Path, outside: Path) -> None:
    link_outside(data / "notes.yaml", outside)


def _utf16(bom: bool) -> Callable[[bytes], bytes]:
    return lambda raw: raw.decode("utf-8").encode("utf-16" if bom else "utf-16-le")


def _many_bad_rows(raw: bytes) -> bytes:
    header = raw.split(b"\n", 1)[0]
    row = b"x," * (header.count(b",") + 3) + b"\n"  # too many fields
    return header + b"\n" + row * ((MAX_FILE_BYTES - 1000) // len(row))


CASES: list[Hostile] = [
    # What sits where a data file should be -------------------------------------------------------
    Hostile("fifo", "file", TR, replace_with(TR, _fifo), "named pipe (FIFO); expected a regular file", whole=True),
    Hostile("symlink-to-dev-zero", "file", ERR, replace_with(ERR, _link_to("/dev/zero")),
            "symbolic link leading outside the data folder", whole=True),
    Hostile("symlink-to-dev-urandom", "file", ACC, replace_with(ACC, _link_to("/dev/urandom")),
            "symbolic link leading outside the data folder", whole=True),
    Hostile("symlink-outside-data", "file", ERR, _link_outside,
            "symbolic link leading outside the data folder (not followed)", whole=True),
    Hostile("linked-folder-outside-data", "file", INF, _linked_folder,
            "symbolic link leading outside the data folder", whole=True,
            also=tuple(name for name in BENCHMARK_FILES if name != INF)),
    Hostile("symlink-inside-data", "file", ERR, _inside_link, None),
    Hostile("dangling-symlink", "file", ISS, replace_with(ISS, _link_to("nowhere.yaml")),
            "symbolic link to nothing", whole=True),
    Hostile("symlink-loop", "file", ISS, replace_with(ISS, _loop), "loop of symbolic links", whole=True),
    Hostile("folder", "file", ACC, replace_with(ACC, _folder), "file is a folder; expected a regular file",
            whole=True),
    # Encodings ---------------------------------------------------------------------------------------
    Hostile("utf8-bom", "encoding", ERR, write(ERR, lambda raw: b"\xef\xbb\xbf" + raw), None),
    Hostile("utf16-with-bom", "encoding", TR, write(TR, _utf16(True), 1), "UTF-16 text", whole=True),
    Hostile("utf16-without-bom", "encoding", ACC, write(ACC, _utf16(False), 1), "NUL bytes", whole=True),
    Hostile("utf32", "encoding", ISS, write(ISS, lambda raw: raw.decode().encode("utf-32"), 1), "UTF-32 text",
            whole=True),
    Hostile("latin1-byte", "encoding", ISS, write(ISS, lambda raw: raw.replace(b"\n", b" caf\xe9\n", 1), 1),
            "byte 0xe9 is not UTF-8", whole=True),
    Hostile("crlf-line-ends", "encoding", INF, write(INF, lambda raw: raw.replace(b"\n", b"\r\n")), None),
    Hostile("cr-only-line-ends", "encoding", TR, write(TR, lambda raw: raw.replace(b"\n", b"\r")), None),
    Hostile("binary-garbage", "encoding", ERR, write(ERR, bytes(range(256)) * 8, 2), "expected UTF-8 text",
            whole=True),
    # Sizes -------------------------------------------------------------------------------------------
    Hostile("empty-yaml", "size", ERR, write(ERR, b""), "file is empty", whole=True),
    Hostile("empty-csv", "size", ACC, write(ACC, b""), "file is empty", whole=True),
    Hostile("bom-only", "size", ERR, write(ERR, b"\xef\xbb\xbf"), "file is empty", whole=True),
    Hostile("one-byte-over-the-limit", "size", TR,
            write(TR, lambda raw: raw + b"#" * (MAX_FILE_BYTES + 1 - len(raw))),
            f"expected at most {MAX_FILE_BYTES} bytes", whole=True),
    Hostile("huge-line-in-yaml", "size", ISS, sub(ISS, TITLE, "x" * 3_000_000),
            "expected text of at most 200 characters", "title"),
    Hostile("huge-csv-cell", "size", ACC, cell(ACC, "dataset", "y" * 200_000), "field larger than field limit"),
    Hostile("many-broken-csv-rows", "size", INF, write(INF, _many_bad_rows, 2), "expected 11", whole=True),
    # YAML structure and features ---------------------------------------------------------------------
    Hostile("deep-block-nesting", "yaml", TR, append(TR, deep_block(150_000), 1),
            f"nested more than {MAX_DEPTH} levels", whole=True),
    Hostile("deep-flow-nesting", "yaml", TR, append(TR, "deep: " + "[" * 100_000 + "]" * 100_000 + "\n"),
            f"nested more than {MAX_DEPTH} levels", whole=True),
    Hostile("deep-indented-mappings", "yaml", ERR, append(ERR, deep_indented(MAX_DEPTH + 10), MAX_DEPTH - 1),
            f"nested more than {MAX_DEPTH} levels", whole=True),
    Hostile("billion-laughs", "yaml", TR,
            append(TR, "lol0: &a [x, x, x, x, x, x, x, x, x]\n"
                       + "".join(f"lol{i}: &a{i} [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" for i in range(1, 9)), 1),
            "aliases (*name) are not allowed", whole=True),
    Hostile("anchor-without-alias", "yaml", ISS, sub(ISS, TITLE, lambda v: "&anchor " + v), None),
    Hostile("duplicate-key", "yaml", INS, sub(INS, NUMBER, lambda v: f"{v}, usd_per_hour: {v}"),
            "duplicate key 'usd_per_hour'", "usd_per_hour"),
    Hostile("python-object-tag", "yaml", ISS, sub(ISS, TITLE, '!!python/object/apply:os.system ["id"]'),
            "tag tag:yaml.org,2002:python/object/apply:os.system is not allowed", "title"),
    Hostile("custom-tag", "yaml", ISS, sub(ISS, TITLE, "!include /etc/passwd"), "tag !include is not allowed",
            "title"),
    Hostile("tab-indentation", "yaml", ISS, sub(ISS, r"^(?P<v>    )title:", "\t"), "found character '\\t'",
            whole=True),
    Hostile("two-documents", "yaml", ERR, append(ERR, "---\nerrata: []\n"), "expected a single document",
            whole=True),
    Hostile("key-too-long", "yaml", ISS, sub(ISS, r"^(?P<v>)\s+title:", "    ? " + "k" * 10_000 + "\n    : 1\n"),
            "expected a name of at most 200 characters"),
    Hostile("key-with-nul", "yaml", TR, sub(TR, LABEL, lambda v: v + ', "a\\0b": 1'), "U+0000 (NUL)"),
    # Numbers: typing, overflow, ranges ----------------------------------------------------------------
    Hostile("octal-looking-number", "number", INS, sub(INS, NUMBER, "010"), "without leading zeros",
            "usd_per_hour"),
    Hostile("octal-looking-version-stays-text", "number", FW, sub(FW, VERSION, "010"), None),
    Hostile("sexagesimal-number", "number", INS, sub(INS, COUNT, "1:28"), "unable to parse string",
            "device_count"),
    Hostile("sexagesimal-version-stays-text", "number", FW, sub(FW, VERSION, "1:28"), None),
    Hostile("hex-number", "number", INS, sub(INS, COUNT, "0x10"), "unable to parse string", "device_count"),
    Hostile("underscore-number", "number", INS, sub(INS, COUNT, "1_000"), "digits 0-9", "device_count"),
    Hostile("yes-for-number", "number", INS, sub(INS, NUMBER, "yes"), "YAML reads true/false/yes/no/on/off",
            "usd_per_hour"),
    Hostile("no-for-a-name", "number", FW, sub(FW, VERSION, "no"), "write the value in quotes", "framework_version"),
    Hostile("yes-for-flag", "number", FW, sub(FW, FLAG, "yes"), None),
    Hostile("quoted-yes-for-flag", "number", FW, sub(FW, FLAG, '"yes"'), "valid boolean", "support_matrix"),
    Hostile("overflow-yaml", "number", INS, sub(INS, NUMBER, "1e400"), "overflows to infinity", "usd_per_hour"),
    Hostile("overflow-dotted-yaml", "number", INS, sub(INS, NUMBER, "1.0e+400"), "overflows to infinity",
            "usd_per_hour"),
    Hostile("overflow-csv", "number", INF, cell(INF, "p90_latency_ms", "1e400", row=0), "overflows to infinity",
            "p90_latency_ms"),
    Hostile("huge-integer", "number", INS, sub(INS, COUNT, "9" * 5000), "overflows to infinity", "device_count"),
    Hostile("infinity", "number", INS, sub(INS, NUMBER, ".inf"), "finite number", "usd_per_hour"),
    Hostile("nan", "number", INS, sub(INS, NUMBER, ".nan"), "finite number", "usd_per_hour"),
    Hostile("negative-zero", "number", INS, sub(INS, NUMBER, "-0.0"), "greater than 0", "usd_per_hour"),
    Hostile("negative-zero-int-csv", "number", INF, cell(INF, "batch_size", "-0"), "greater than 0", "batch_size"),
    Hostile("absurd-price", "number", INS, sub(INS, NUMBER, "1.0e+40"), "at most 100000", "usd_per_hour"),
    Hostile("tiny-price", "number", INS, sub(INS, NUMBER, "1.0e-09"), "at least 0.0001", "usd_per_hour"),
    Hostile("absurd-device-count", "number", INS, sub(INS, COUNT, "100000000"), "at most 100000", "device_count"),
    Hostile("arabic-indic-digits-csv", "number", INF, cell(INF, "batch_size", "\u0661\u0662"), "digits 0-9",
            "batch_size"),
    Hostile("fullwidth-digits-yaml", "number", INS, sub(INS, NUMBER, "\uff11\uff12"), "digits 0-9",
            "usd_per_hour"),
    Hostile("unix-time-for-date", "number", INS, sub(INS, DATE, '"1690848000"'), "a date written YYYY-MM-DD",
            "as_of"),
    Hostile("date-out-of-range", "number", INS, sub(INS, DATE, "1900-01-01"), "between 1970-01-01", "as_of"),
    # Text: control and bidirectional-override characters ---------------------------------------------
    Hostile("nul-in-csv-cell", "text", ACC, raw_cell(ACC, "dataset", "Image\x00Net"), "U+0000 (NUL)", "dataset"),
    Hostile("nul-escape-in-yaml", "text", ISS, sub(ISS, TITLE, '"Neuron\\0roadmap"'), "U+0000 (NUL)", "title"),
    Hostile("escape-character-in-yaml", "text", ISS, sub(ISS, TITLE, '"\\e[31mred"'), "U+001B (ESCAPE)", "title"),
    Hostile("bell-in-csv-header", "text", ACC, write(ACC, lambda raw: b"\x07" + raw, 1), "U+0007 (BEL)",
            whole=True),
    Hostile("c1-control-in-csv", "text", ACC, raw_cell(ACC, "dataset", "a\x85b"), "U+0085", "dataset"),
    Hostile("carriage-return-in-csv-cell", "text", ACC, raw_cell(ACC, "dataset", '"a\rb"'), "CARRIAGE RETURN",
            "dataset"),
    Hostile("bidi-override-in-yaml", "text", ERR, sub(ERR, QUOTE, lambda v: "\u202e" + v),
            "U+202E (RIGHT-TO-LEFT OVERRIDE)", "quote"),
    Hostile("bidi-override-escape-in-yaml", "text", ISS, sub(ISS, TITLE, '"abc\\u202Edef"'), "U+202E", "title"),
    Hostile("bidi-isolate-in-csv", "text", INF, raw_cell(INF, "compiler_options", "a\u2066b"),
            "U+2066 (LEFT-TO-RIGHT ISOLATE)", "compiler_options"),
    Hostile("bidi-override-in-csv-id", "text", ACC, raw_cell(ACC, "id", "x\u202ey"), "U+202E", "id"),
    Hostile("lone-surrogate-escape", "text", ISS, sub(ISS, TITLE, '"\\ud800"'), "lone surrogate", "title"),
    Hostile("ordinary-unicode-is-kept", "text", ISS, sub(ISS, TITLE, "Café 東京 🚀 مرحبا Ωmega"), None),
    Hostile("newline-in-url", "text", ISS, sub(ISS, URL, lambda v: f'"{v}\\nx"'), "https:// URL", "url"),
    Hostile("formula-like-cell-is-data", "text", INF, raw_cell(INF, "compiler_options", "=1+1"), None),
    # Wrong shapes ------------------------------------------------------------------------------------
    Hostile("list-for-number", "type", INS, sub(INS, NUMBER, "[1, 2]"), "valid number", "usd_per_hour"),
    Hostile("mapping-for-text", "type", ISS, sub(ISS, TITLE, "{a: b}"), "valid string", "title"),
    Hostile("number-for-url", "type", ISS, sub(ISS, URL, "42"), "expected text (got 42)", "url"),
    Hostile("null-for-required", "type", INS, sub(INS, NUMBER, "~"), "valid number", "usd_per_hour"),
    Hostile("file-is-a-number", "type", ERR, write(ERR, b"42\n", 1), "file holds a single value", whole=True),
    # Files the site does not read, and writes left half done (issue 32) --------------------------------
    Hostile("misnamed-yaml", "file", "device.yaml", new_file("device.yaml", b"devices: []\n"),
            "did you mean devices.yaml?"),
    Hostile("yml-extension", "file", "prices.yml", new_file("prices.yml", b"prices: []\n"),
            "did you mean prices.yaml?"),
    Hostile("stray-50-mb-csv", "size", "benchmarks/inference-2023.csv",
            new_file("benchmarks/inference-2023.csv", size=50 * 1024 * 1024), "a file the site does not read (50.0 MiB)"),
    Hostile("stray-symlink-outside-data", "file", "notes.yaml", _stray_link_outside, "a file the site does not read"),
    Hostile("staged-file-left-by-a-kill", "file", ".prices.yaml" + STAGED_SUFFIX,
            new_file(".prices.yaml" + STAGED_SUFFIX, b"prices: [half"), "left by an interrupted write"),
    Hostile("write-interrupted-after-its-commit", "file", JOURNAL, new_file(JOURNAL, b'["prices.yaml"]'),
            "an import was interrupted while writing the data"),
    Hostile("lookalike-cyrillic-key", "yaml", INS, sub(INS, r"(?P<v>device): ", "d\u0435vice"),
            "looks like 'device' but is written with look-alike characters ('е' U+0435 CYRILLIC SMALL LETTER IE)"),
    # One cause, one box on every page it touches, no refused value printed (issue 32) -----------------
    Hostile("devices-yaml-saved-as-utf16", "encoding", DEV, write(DEV, _utf16(True), 1), "UTF-16 text", whole=True),
    Hostile("device-record-refused", "number", DEV, sub(DEV, SPEC_VALUE, "1.7e308"), "at most 1000000000000",
            "value", value="1.7e308"),
    Hostile("instance-price-1.7e308", "number", INS, sub(INS, NUMBER, "1.7e308"), "at most 100000", "usd_per_hour",
            value="1.7e308"),
    Hostile("published-price-1.7e308", "number", PRI, sub(PRI, PUBLISHED_PRICE, "1.7e308"), "plain decimal notation",
            "usd_per_hour", value="1.7e308"),
    # The history's files, each under its own bound (sparse: nothing written, refused from stat) ------
    Hostile("history-configurations-over-its-bound", "size", CONFIGURATIONS,
            _grow(CONFIGURATIONS, 50 * 1024 * 1024),
            "file is 52428800 bytes; expected at most", whole=True),
    Hostile("history-states-over-its-bound", "size", STATES, _grow(STATES, 5 * 1024 * 1024),
            f"expected at most {MAX_FILE_BYTES} bytes", whole=True),
]


def describe() -> str:
    """The catalogue as a table: id, kind, file, expected outcome."""
    rows = [f"{c.id:40} {c.kind:9} {c.file:26} {c.expect or 'tolerated (loads without errors)'}"
            + (f"; no box prints {c.value}" if c.value else "") for c in CASES]
    rows.append("Every case: the rest loads, every device page is kept (a device set aside keeps its page, with "
                "its Data problem box), and no box prints a refused value.")
    return "\n".join(rows)


if __name__ == "__main__":
    print(describe())
