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
import sys
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from ..cli import emit
from ..data.dataset import load_dataset
from .engine import DriftEngine
from .page_text import read_page
from .verdicts import CHECKED_KINDS

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "data"

@dataclass(frozen=True)
class AuditRow:
    """One figure or claim of the audited file."""

    line: int
    figure: str
    data: str
    value: str
    agrees: bool
    note: str = ""
    #: ``figure``, ``claim``, ``comparison``, ``source`` (quotes another source's value), ``unknown``
    #: (no such subject in the data) or ``table``
    #: (an unreadable row).
    kind: str = "figure"


@lru_cache(maxsize=4)
def engine(data_dir: str) -> DriftEngine:
    """The drift engine over the data set in ``data_dir`` (one per directory and process)."""
    data = load_dataset(Path(data_dir))
    return DriftEngine(data.catalog, data.values)


def audit_text(text: str, data_dir: Path | str = DEFAULT_DATA, *, bare: bool = False, plain: bool = False,
               markdown: bool = False) -> list[AuditRow]:
    """Every figure, fit/support claim and matrix badge of ``text`` that corresponds to the data."""
    drift = engine(str(Path(data_dir).resolve()))
    page = read_page(text, plain=plain, markdown=markdown, shown_value=drift.shown_value)
    rows: list[AuditRow] = []
    for passage in page.passages:
        for verdict in drift.check(passage.text, passage.heading, passage.allowed, bare=bare):
            rows.append(AuditRow(passage.line_of(verdict.start), verdict.text, verdict.expression, verdict.expected,
                            verdict.agrees, verdict.reason, verdict.kind))
    for table in page.tables:
        for i, j, verdict in drift.check_table(table.rows, table.header_rows, table.heading):
            line = table.lines[i][min(j, len(table.lines[i]) - 1)] if table.lines[i] else 0
            rows.append(AuditRow(line, verdict.text, verdict.expression, verdict.expected, verdict.agrees,
                            verdict.reason, verdict.kind))
    rows.sort(key=lambda r: r.line)
    return rows


def audit_file(path: Path | str, data_dir: Path | str = DEFAULT_DATA, *, bare: bool = False) -> list[AuditRow]:
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):  # a data file: its free text (errata explanations, rationales, notes)
        from .data_text import check_data_file

        drift = engine(str(Path(data_dir).resolve()))
        return [AuditRow(line, v.text, v.expression, v.expected, v.agrees, v.reason, v.kind)
                for line, v in check_data_file(drift, path)]
    return audit_text(path.read_text(encoding="utf-8"), data_dir, bare=bare,
                      plain=suffix not in (".rst", ".md", ".markdown", ".rest"), markdown=suffix in (".md", ".markdown"))


def _agrees(row: AuditRow) -> str:
    if row.kind not in CHECKED_KINDS:
        return "not checked"
    if row.kind == "source":  # another source's value, which the data records (drift/sources.py)
        return f"quotes {row.note.split(' ', 1)[0]}"
    return "yes" if row.agrees else "**no**"


def markdown(rows: list[AuditRow], name: str) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    checked = [r for r in rows if r.kind in CHECKED_KINDS]
    lines = [f"Audit of {name}: {len(checked)} figures match the data, "
             f"{sum(not r.agrees for r in checked)} disagree, {len(rows) - len(checked)} not checked.", "",
             "| Line | Figure in the text | Data value or derived claim | Data gives | Agrees | Note |",
             "|---:|---|---|---|---|---|"]
    lines += [f"| {r.line} | {cell(r.figure)} | `{cell(r.data)}` | {cell(r.value)} | "
              f"{_agrees(r)} | {cell(r.note)} |" for r in rows]
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
    reports: dict[str, list[AuditRow]] = {}
    for path in args.files:
        if not path.is_file():
            parser.error(f"no such file: {path}")
        try:
            rows = audit_file(path, args.data, bare=args.bare)
        except UnicodeDecodeError as exc:  # the build reports such a data file at the file; so does the audit
            parser.exit(2, f"{parser.prog}: {path}: not UTF-8 text: byte {exc.object[exc.start]:#04x} at offset "
                           f"{exc.start} cannot be decoded; expected a UTF-8 text file\n")
        reports[str(path)] = rows
        disagreements += sum(not r.agrees for r in rows if r.kind in CHECKED_KINDS)
    if args.format == "json":
        emit(json.dumps({name: [asdict(r) for r in rows] for name, rows in reports.items()}, indent=2) + "\n")
    else:
        emit("\n\n".join(markdown(rows, name) for name, rows in reports.items()) + "\n")
    return 1 if args.strict and disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
