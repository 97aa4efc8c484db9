"""Tables written by hand: figures under a column header, and the badges of support matrices (no Sphinx).

The build hands over a docutils table, the audit the rows of a ``list-table`` or ``csv-table``: both
as rows of :class:`TextCell`. A cell's figures are read with its row's first cell and its column's header
as context (the subject and the quantity; a bare number takes the header's unit: "Latency (ms)");
a multiple ("6.7x" under "Improvement factor") is the ratio of its row's figures, with the other
columns' headers (their subjects) as context too.
A cell that is a badge ("Supported", "Roadmap Item", "NA", "Good Fit", "Not a Good Fit") in a row
naming one model family, under a column naming one framework (or none, for the fit), in a column or
section naming one device, is checked against the latest revision of the support matrices.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..data.records.labels import CELL_WORDS, FIT_TEXT, STATUS_TEXT
from .literal_figures import count_cell, find_figures
from .names import resolve
from .verdicts import Verdict

if TYPE_CHECKING:
    from .fit_claims import ClaimIndex

_BARE_NUMBER = re.compile(r"^\s*\d{1,3}(?:,\d{3})*(?:\.\d+)?\s*$|^\s*\d+(?:\.\d+)?\s*$")
#: A column header naming the workload of a matrix column ("Training with PyTorch Neuron").
_WORKLOADS = (("training", re.compile(r"\btrain", re.I)), ("inference", re.compile(r"\binferenc", re.I)))
_HEADER_UNIT = re.compile(r"\(([^()]{1,20})\)|\bin\s+(\S+)\s*$|\[([^\]]{1,20})\]")
_TRAILING_UNIT = re.compile(r"\s([A-Za-z]{2,6}(?:/[A-Za-z]{1,6}){0,2})\s*$")
#: A cell that is a multiple ("6.7x", "3.4 times"): a ratio between the figures of its row.
_MULTIPLE = re.compile(r"^\W*\d+(?:\.\d+)?\s*(?:x|×|times)\W*$", re.IGNORECASE)


@dataclass(frozen=True)
class TextCell:
    """The text of a cell and the spans of it written by hand (``None``: all of it)."""

    text: str
    allowed: tuple[tuple[int, int], ...] | None = None


def header_unit(header: str) -> str:
    """The unit a column header (or a row's stub) gives its bare numbers: "P90 latency (ms)" -> "ms",
    "Device Memory Bandwidth (TB/sec)" -> "TB/sec", "FP8 PFLOPS" -> "PFLOPS", "vCPUs" -> "vCPUs"."""
    for match in [*_HEADER_UNIT.finditer(header), *_TRAILING_UNIT.finditer(f" {header.strip()}")]:
        word = next(g for g in match.groups() if g)
        word = {"$": "USD", "usd": "USD", "$/hr": "USD/h"}.get(word.lower(), word)
        if word == "USD":
            return "$"
        figures = find_figures(f"1 {word}")
        if figures and figures[0].end == len(f"1 {word}"):
            return word
    return ""


def _badge_verdict(claims: ClaimIndex, cell: str, stub: str, header: str, heading: str) -> Verdict | None:
    said = CELL_WORDS.get(re.sub(r"\s+", " ", cell.strip().strip("*").lower()))
    if said is None or not stub:
        return None
    families = claims.families.ids(stub)
    devices = claims.devices.ids(header) or claims.devices.ids(heading)
    if len(families) != 1 or len(devices) != 1:
        return None
    family, device = families[0], devices[0]
    if said == "status:limited" and not claims.frameworks.find(header):
        said = "fit:limited"  # the same words in the fit column
    kind, value = said.split(":")
    framework = ""
    if kind == "status":
        options = resolve((ids for ids, _ in claims.frameworks.find(header)),
                          claims.frameworks_with_cells(family, device))
        if len(options) != 1:
            return None
        framework = options[0]
    elif claims.frameworks.find(header):
        return None  # a fit word under a framework's column says nothing we hold
    workload = next((w for w, word in _WORKLOADS if word.search(header)), None) if framework else None
    truth = claims.badge(family, device, framework, workload)
    if truth is None:
        return None
    path = f"status:{family}/{device}/{framework}" if framework else f"fit:{family}/{device}"
    role = f":neuron:{path.replace(':', ':`', 1)}`"
    true_kind, true_value = truth.split(":")
    words = (STATUS_TEXT if true_kind == "status" else FIT_TEXT)[true_value]
    agrees = truth == said
    reason = "" if agrees else f"{claims.catalog.families[family].name} on {device}: the data gives {words}"
    return Verdict(0, cell.strip(), "claim", path, words, agrees, reason, role)


def check_table(check: Callable[..., list[Verdict]], claims: ClaimIndex, rows: Sequence[Sequence[TextCell]],
                header_rows: int, heading: str = "") -> list[tuple[int, int, Verdict]]:
    """(row, column, verdict) for every figure and badge of a table that the data holds; ``check`` is
    :meth:`.engine.DriftEngine.check`."""
    width = max((len(r) for r in rows), default=0)
    headers = [" ".join(r[j].text for r in rows[:header_rows] if j < len(r)) for j in range(width)]
    columns = len(rows[header_rows - 1]) if header_rows else len(rows[0]) if rows else 0
    out: list[tuple[int, int, Verdict]] = []
    said = "header" if header_rows else "first row"
    for i, row in enumerate(rows[header_rows:], start=header_rows):
        if len(row) != columns:
            # Which cell is under which header is a guess: the row is reported, and (as docutils
            # refuses such a list-table) no row of the table is read.
            out.append((i, 0, Verdict(0, (row[0].text.strip() if row else "") or f"row {i + 1}", "table", "", "",
                                      False, f"the row has {len(row)} cells and the {said} {columns}: the "
                                      f"table's figures are not read", "")))
    if out:
        return out
    for i, row in enumerate(rows[header_rows:], start=header_rows):
        stub = row[0].text if row else ""
        found: dict[int, list[Verdict]] = {}
        # The row's multiples last: they are read as ratios of the figures the row's other cells hold.
        order = sorted(range(len(row)), key=lambda j: bool(j and _MULTIPLE.match(row[j].text)))
        for j in order:
            cell = row[j]
            header = headers[j] if j < len(headers) else ""
            context = "\n".join(t for t in (header, stub if j else "", heading) if t)
            multiple = bool(j and _MULTIPLE.match(cell.text))
            if multiple:
                # An "Improvement factor" column: the ratio of the row's other figures, whose
                # subjects are the other columns' headers (Trainium2 against Trainium).
                context = "\n".join([context, *(h for k, h in enumerate(headers) if k and k != j and h)])
            text, allowed = cell.text, cell.allowed
            # The quantity and unit from the column's header, else (a table of specifications by
            # row: "Host Memory (GiB)", "FP8 PFLOPS") from the row's stub.
            unit = header_unit(header) or (header_unit(stub) if j else "")
            if unit and _BARE_NUMBER.match(text):
                text = f"{unit}{text.strip()}" if unit == "$" else f"{text.strip()} {unit}"
                allowed = None
            elif unit in ("chips", "vCPUs") and count_cell(text, unit):
                # A count in words or with its qualifier ("Two", "Up to 16") under "# of chips".
                text, allowed = count_cell(text, unit) or text, None
            verdicts: list[Verdict] = []
            if any(ch.isdigit() for ch in text) or re.search(r"fit|support", text, re.I):
                verdicts = check(text, context, allowed)
            if multiple:
                # Only a ratio of two figures of this row (a "4x" beside "Up to 64 chips", which
                # the data does not hold, is no ratio of other figures that happen to be 3x).
                held = {v.expression for k, vs in found.items() for v in vs if v.kind == "figure"}
                verdicts = [v for v in verdicts if _operands(v.expression) <= held and _operands(v.expression)]
                unknown = next((v for vs in found.values() for v in vs if v.kind == "unknown"), None)
                if not verdicts and unknown is not None:
                    # A ratio of the row's figures, one of them about a subject the data lacks
                    # (Trainium3 against Trainium2): not checked, for that reason.
                    verdicts = [Verdict(0, cell.text.strip(), "unknown", "", "", False,
                                        f"{unknown.reason} (a ratio of this row's figures)", "")]
            if j:
                badge = _badge_verdict(claims, cell.text, stub, header, heading)
                if badge is not None:
                    verdicts.append(badge)
            found[j] = verdicts
        out.extend((i, j, v) for j in sorted(found) for v in found[j])
    return out


def _operands(expression: str) -> set[str]:
    """The data paths a ratio's expression reads (``ratio(a, b)`` -> {a, b}); empty for anything else."""
    match = re.fullmatch(r"ratio\((\S+), (\S+)\)", expression)
    return set(match.groups()) if match else set()
