"""``make audit FILE=path``: the figures of a hand-written page checked against the data (no Sphinx).

The file is read as text (reStructuredText, Markdown or plain text): roles, inline literals and code
blocks are left out, and every passage goes through the same :class:`~.engine.DriftEngine` as the
build's drift checker: every figure (a number with a unit, a percentage, a price; with ``--bare``
bare decimal numbers too) that corresponds to a data value or a claim derived from related values
(difference, ratio, percent more or less, cost per 1M inferences) is listed with its line, the
value and whether the text agrees at the rounding it uses. Fit and support claims ("X are not a
good fit for Inferentia") are checked against ``families.yaml``.

Prints a Markdown table (or JSON with ``--format json``). Exits 0 even when figures disagree,
unless ``--strict`` is given (then 1 when one does).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from ..cli import emit
from ..data.dataset import load_dataset
from .engine import DriftEngine
from .passages import Passage

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "data"

_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>])\1{2,}\s*$")
_MD_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_PLAIN_HEADING = re.compile(r"^\s*([A-Z][\w\-. ()]{0,40}):?\s*$")
#: Roles (``:neuron:value:`...```, ``{neuron:value}`...```), inline literals and substitutions.
_MASKED = re.compile(r"(?::[\w:.\-]+:|\{[\w:.\-]+\})`[^`]*`|``[^`]*``|`[^`\n]*`|https?://\S+")


@dataclass(frozen=True)
class Row:
    """One figure or claim of the audited file."""

    line: int
    figure: str
    data: str
    value: str
    agrees: bool
    note: str = ""


@lru_cache(maxsize=4)
def engine(data_dir: str) -> DriftEngine:
    """The drift engine over the data set in ``data_dir`` (one per directory and process)."""
    data = load_dataset(Path(data_dir))
    return DriftEngine(data.catalog, data.values)


def passages(text: str) -> list[Passage]:
    """Blocks of ``text`` separated by blank lines, each with its first line and the heading above it."""
    lines = text.splitlines()
    out: list[Passage] = []
    heading = ""
    block: list[str] = []
    start = 0
    in_code = False

    def flush() -> None:
        if block:
            out.append(Passage("\n".join(block), start + 1, heading))
        block.clear()

    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code:
            continue
        if not stripped:
            flush()
            continue
        if _RST_UNDERLINE.match(stripped) and block and len(block) == 1:
            heading = block[0].strip()
            block.clear()
            continue
        md = _MD_HEADING.match(stripped)
        if md:
            flush()
            heading = md.group(1)
            continue
        if not block and _PLAIN_HEADING.match(line) and stripped.endswith(":") and len(stripped) < 40:
            heading = stripped.rstrip(":")
            continue
        if not block:
            start = number
        block.append(line)
    flush()
    return out


def _mask(text: str) -> str:
    return _MASKED.sub(lambda m: " " * len(m.group(0)), text)


def audit_text(text: str, data_dir: Path | str = DEFAULT_DATA, *, bare: bool = False) -> list[Row]:
    """Every figure and fit/support claim of ``text`` that corresponds to the data."""
    drift = engine(str(Path(data_dir).resolve()))
    rows: list[Row] = []
    for passage in passages(text):
        for verdict in drift.check(_mask(passage.text), passage.heading, bare=bare):
            rows.append(Row(passage.line_of(verdict.start), verdict.text, verdict.expression, verdict.expected,
                            verdict.agrees, verdict.reason))
    rows.sort(key=lambda r: r.line)
    return rows


def audit_file(path: Path | str, data_dir: Path | str = DEFAULT_DATA, *, bare: bool = False) -> list[Row]:
    return audit_text(Path(path).read_text(encoding="utf-8"), data_dir, bare=bare)


def markdown(rows: list[Row], name: str) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = [f"Audit of {name}: {len(rows)} figures match the data, "
             f"{sum(not r.agrees for r in rows)} disagree.", "",
             "| Line | Figure in the text | Data value or derived claim | Data gives | Agrees | Note |",
             "|---:|---|---|---|---|---|"]
    lines += [f"| {r.line} | {cell(r.figure)} | `{cell(r.data)}` | {cell(r.value)} | "
              f"{'yes' if r.agrees else '**no**'} | {cell(r.note)} |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m neuron_docs.drift.audit", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="pages (RST, Markdown or plain text) to audit")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="data directory (default: %(default)s)")
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown")
    parser.add_argument("--bare", action="store_true",
                        help="bare decimal numbers too (the build's checker looks only at figures with a unit)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a figure disagrees with the data")
    args = parser.parse_args(argv)
    disagreements = 0
    reports: dict[str, list[Row]] = {}
    for path in args.files:
        if not path.is_file():
            parser.error(f"no such file: {path}")
        rows = audit_file(path, args.data, bare=args.bare)
        reports[str(path)] = rows
        disagreements += sum(not r.agrees for r in rows)
    if args.format == "json":
        emit(json.dumps({name: [asdict(r) for r in rows] for name, rows in reports.items()}, indent=2) + "\n")
    else:
        emit("\n\n".join(markdown(rows, name) for name, rows in reports.items()) + "\n")
    return 1 if args.strict and disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
