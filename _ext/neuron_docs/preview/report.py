"""What changed, as sections: one model of a diff, rendered as the preview page and as the report.

:func:`sections` turns a :class:`~neuron_docs.data.figures.compare.MatrixDiff` into :class:`Section` s
(support status, fits, header, the published benchmark changes of the states a pull request adds
to the history, records, moved figures, added and removed figures), each a table of rows whose
cells are plain text or code pieces. The benchmark changes
(:func:`~neuron_docs.data.published.history_view.changes_since`) are grouped as What's new groups
them, one section per Neuron release (newest first, titled as What's new titles it), regressions
first, its new and withdrawn configurations in a folded section of their own; the history's own
records (hundreds per new state) are one folded section.
:func:`render_markdown` writes them for a pull request's job summary (``make matrix-diff``),
:func:`render_html` as the body of the preview's "Changes in this preview" page, with a "Where it
appears" column. No Sphinx here.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..data.figures.compare import CellChange, MatrixDiff, RecordChange, ValueChange
from ..data.figures.formatting import round_half_up
from ..data.records.labels import FIT_TEXT, STATUS_TEXT
from ..data.matrix.changes import Changes, MatrixChange
from ..data.matrix.changes import describe as describe_change
from ..data.catalog import DERIVED, HISTORY_COLLECTIONS
from ..data.published.history_view import CHANGE_TEXT, StateChange

if TYPE_CHECKING:
    from collections.abc import Sequence

Key = tuple[str, ...]
#: A piece of a cell: its text and whether it is code (an id, a path).
Piece = tuple[str, bool]
ReportCell = tuple[Piece, ...]


@dataclass(frozen=True)
class ReportRow:
    key: Key
    cells: tuple[ReportCell, ...]


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    header: tuple[str, ...]
    rows: tuple[ReportRow, ...]
    #: Folded by default in the Markdown report (long lists of added or removed figures).
    folded: bool = False


def _words(kind: str, value: str | None) -> str:
    if value is None:
        return "(none)"
    return (STATUS_TEXT if kind == "support" else FIT_TEXT if kind == "fit" else {}).get(value, value)


def describe(change: CellChange | RecordChange | ValueChange) -> str:
    """``old -> new`` (or what changed) of one change, in the words the pages use."""
    if isinstance(change, CellChange):
        if change.old == change.new:
            return f"{', '.join(change.fields) or 'details'} changed"
        return f"{_words(change.key[0], change.old)} -> {_words(change.key[0], change.new)}"
    if isinstance(change, RecordChange):
        if change.change == "changed":
            return f"{', '.join(change.fields)} changed"
        return change.change
    return f"{change.label}: {_moved(change)}"


def _moved(change: ValueChange) -> str:
    """``old -> new`` of a figure, with its relative change when it has one."""
    text = f"{change.old_text or '(none)'} -> {change.new_text or '(none)'}"
    if (rel := change.relative_change_percent) is not None:
        text += f" ({'+' if rel >= 0 else '-'}{round_half_up(abs(rel), 1)}%)"
    return text


def summary(diff: MatrixDiff, benchmarks: Sequence[StateChange] = ()) -> str:
    counts = {"support cells": len(diff.support), "fits": len(diff.fit), "header fields": len(diff.header),
              **{f"benchmarks {kind}": sum(1 for c in benchmarks if c.change.kind == kind) for kind in CHANGE_TEXT},
              "records": len(diff.records), "figures": len(diff.values), "new data errors": len(diff.errors)}
    return ", ".join(f"{what} {n}" for what, n in counts.items() if n) or "no changes"


#: The kinds of benchmark change whose section is folded in the Markdown report (long lists).
FOLDED_KINDS = frozenset({"new", "withdrawn"})


def benchmark_sections(benchmarks: Sequence[StateChange]) -> list[Section]:
    """The published benchmark changes of the new states (in the order of
    :func:`~neuron_docs.data.published.history_view.changes_since`), a section per Neuron release as
    What's new has them, newest first: its regressed figures, suspect points, unstable series, improved
    and corrected figures (in the order of
    :data:`~neuron_docs.data.published.history_view.CHANGE_TEXT`), then, folded, its new and
    withdrawn configurations."""
    out = []
    header = ("Kind", "Configuration", "Published state", "Change")
    for release in dict.fromkeys(c.release for c in benchmarks):
        mine = [c for c in benchmarks if c.release == release]
        anchor = f"benchmarks-{re.sub(r'[^0-9a-z]+', '-', release.lower()).strip('-')}"
        for folded in (False, True):
            rows = tuple(ReportRow(c.key, (_text(c.change.kind.capitalize()), _text(c.title), _code(c.state), _text(c.text())))
                         for c in mine if (c.change.kind in FOLDED_KINDS) == folded)
            title = f"Published benchmarks: {mine[0].release_title}" + (": new and withdrawn configurations"
                                                                        if folded else "")
            out.append(Section(anchor + ("-configurations" if folded else ""), f"{title} ({len(rows)})", header,
                               rows, folded=folded))
    return [section for section in out if section.rows]


def _text(text: str) -> ReportCell:
    return ((text, False),)


def _code(text: str) -> ReportCell:
    return ((text, True),)


def sections(diff: MatrixDiff, family_names: Mapping[str, str] | None = None,
             benchmarks: Sequence[StateChange] = ()) -> list[Section]:
    """The sections of ``diff`` (and of the published benchmark changes) that have rows, in reading order."""
    def family(family_id: str) -> ReportCell:
        name = (family_names or {}).get(family_id)
        return ((name, False), (" (", False), (family_id, True), (")", False)) if name else _code(family_id)

    def value_row(c: ValueChange) -> ReportRow:
        return ReportRow(c.key, (_text(c.label), _code(c.key[1]), _text(_moved(c))))

    moved = [c for c in diff.values if c.change == "changed"]
    store = (*HISTORY_COLLECTIONS, *DERIVED)  # the store's records and the current runs made from them
    records = [c for c in diff.records if c.key[1] not in store]
    history = tuple(ReportRow(c.key, (_text(c.key[1]), _code(c.key[2]), _text(", ".join(c.fields) or c.change)))
                    for c in diff.records if c.key[1] in store)
    out = [
        Section("support-status", "Support status", ("Family", "Matrix", "Column", "Change"), tuple(
            ReportRow(c.key, (family(c.key[2]), _code(c.key[1]), _code("/".join(c.key[3:])), _text(describe(c))))
            for c in diff.support)),
        Section("architecture-fit", "Architecture fit", ("Family", "Matrix", "Change"), tuple(
            ReportRow(c.key, (family(c.key[2]), _code(c.key[1]), _text(describe(c)))) for c in diff.fit)),
        Section("matrix-header", "Matrix header", ("Field", "Change"), tuple(
            ReportRow(c.key, (_code(".".join(c.key[1:])), _text(describe(c)))) for c in diff.header)),
        *benchmark_sections(benchmarks),
        Section("added-removed-records", "Added and removed records", ("Collection", "Id", "Change"), tuple(
            ReportRow(c.key, (_text(c.key[1]), _code(c.key[2]), _text(c.change)))
            for c in records if c.change != "changed")),
        Section("changed-records", "Changed records", ("Collection", "Id", "Changed fields"), tuple(
            ReportRow(c.key, (_text(c.key[1]), _code(c.key[2]), _text(", ".join(c.fields))))
            for c in records if c.change == "changed")),
        Section("benchmark-history-records", f"Benchmark history records ({len(history)})",
                ("Collection", "Id", "Change"), history, folded=True),
        Section("figures", "Figures (prices, specifications, benchmarks)", ("Figure", "Path", "Change"),
                tuple(value_row(c) for c in moved if not c.derived)),
        Section("derived-figures", "Derived figures (costs, ratios, counts)", ("Figure", "Path", "Change"),
                tuple(value_row(c) for c in moved if c.derived)),
    ]
    for change in ("added", "removed"):
        rows = tuple(value_row(c) for c in diff.values if c.change == change)
        out.append(Section(f"{change}-figures", f"{change.capitalize()} figures ({len(rows)})",
                           ("Figure", "Path", "Change"), rows, folded=True))
    return [section for section in out if section.rows]


# Markdown ----------------------------------------------------------------------------------------

def _md(cell: ReportCell) -> str:
    return "".join(f"`{text}`" if code else text.replace("|", "\\|").replace("\n", " ") for text, code in cell)


def render_markdown(diff: MatrixDiff, family_names: Mapping[str, str] | None = None,
                    benchmarks: Sequence[StateChange] = ()) -> str:
    """The pull-request comment: a section per kind of change, tables of ``old -> new``; the
    published benchmark changes of new states (``benchmarks``) after the matrices', a section per
    release as What's new has them, regressions first."""
    title = f"## Support matrix preview: `{diff.base}` -> `{diff.head}`"
    if diff.is_empty() and not benchmarks:
        return f"{title}\n\nno changes\n"
    out = [title, "", f"Changes: {summary(diff, benchmarks)}.", ""]
    if diff.errors:
        out += ["### Data errors at head", "", *(f"- `{e}`" for e in diff.errors), ""]
    return _markdown_sections(out, sections(diff, family_names, benchmarks))


def _markdown_sections(out: list[str], found: list[Section]) -> str:
    for section in found:
        table = ["| " + " | ".join(section.header) + " |", "|" + "---|" * len(section.header),
                 *("| " + " | ".join(_md(c) for c in row.cells) + " |" for row in section.rows), ""]
        if section.folded:
            out += [f"<details><summary>{section.title}</summary>", "", *table, "</details>", ""]
        else:
            out += [f"### {section.title}", "", *table]
    return "\n".join(out).rstrip("\n") + "\n"


def render_json(diff: MatrixDiff, benchmarks: Sequence[StateChange] = ()) -> str:
    """:meth:`MatrixDiff.to_json` and ``benchmarks``: the published benchmark changes of the new
    states in report order (by release, newest first; regressions first), each :meth:`StateChange.to_json`."""
    data = {**diff.to_json(), "benchmarks": [c.to_json() for c in benchmarks]}
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# Two revisions of the support matrices ----------------------------------------------------------

def revision_sections(diff: Changes, family_names: Mapping[str, str] | None = None) -> list[Section]:
    """What one revision changed since another: the changes a reader sees, then the labels (folded)."""
    def row(c: MatrixChange) -> ReportRow:
        name = (family_names or {}).get(c.family or "", c.family or "")
        where = "/".join(p for p in (c.matrix, c.column, c.subject) if p)
        return ReportRow((c.kind, c.matrix or "", c.family or "", c.column or "", c.subject or ""),
                   (_code(c.kind), _text(name), _code(where) if where else _text(""), _text(describe_change(c))))

    header = ("Kind", "Family", "Where", "Change")
    labels = tuple(row(c) for c in diff.items if c.kind == "label")
    out = [Section("matrix-changes", "Support matrix changes", header, tuple(row(c) for c in diff.shown())),
           Section("label-changes", f"Label changes ({len(labels)})", header, labels, folded=True)]
    return [section for section in out if section.rows]


def render_revisions_markdown(diff: Changes, family_names: Mapping[str, str] | None = None) -> str:
    """``make matrix-diff FROM=<date> TO=<date>``: a table of every change between two revisions."""
    title = f"## Support matrices: `{diff.old or '(nothing)'}` -> `{diff.new}`"
    if diff.is_empty():
        return f"{title}\n\nno changes\n"
    counts = ", ".join(f"{kind} {n}" for kind, n in sorted(diff.counts().items()))
    return _markdown_sections([title, "", f"Changes: {counts}.", ""], revision_sections(diff, family_names))


def render_revisions_json(diff: Changes) -> str:
    """The changes as JSON: ``{"old", "new", "items": [{"kind", "matrix", "family", "column",
    "subject", "old", "new"}]}`` (dates ISO)."""
    return json.dumps(diff.model_dump(mode="json"), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# HTML ----------------------------------------------------------------------------------------------

def _html(cell: ReportCell) -> str:
    return "".join(f"<code>{html.escape(text)}</code>" if code else html.escape(text) for text, code in cell)


def render_html(diff: MatrixDiff, base_label: str, where: Callable[[Key], str],
                family_names: Mapping[str, str] | None = None, *, page: str, title: str,
                benchmarks: Sequence[StateChange] = ()) -> str:
    """The body of the changes page; ``where(key)`` is the HTML of the places a change appears."""
    out = [f'<section id="{page}"><h1>{html.escape(title)}</h1>',
           f"<p>This preview compares the data of this build with <code>{html.escape(base_label)}</code>: "
           f"{html.escape(summary(diff, benchmarks))}. Changed places are outlined on the pages and carry a "
           f"&#8220;changed in this preview&#8221; note.</p>"]
    if diff.errors:
        items = "".join(f"<li><code>{html.escape(e)}</code></li>" for e in diff.errors)
        out.append(f'<section id="data-errors"><h2>Data errors in this build</h2><ul>{items}</ul></section>')
    for section in sections(diff, family_names, benchmarks):
        head = "".join(f'<th class="head">{html.escape(h)}</th>' for h in [*section.header, "Where it appears"])
        body = "".join("<tr>" + "".join(f"<td>{_html(c)}</td>" for c in row.cells) + f"<td>{where(row.key)}</td></tr>"
                       for row in section.rows)
        out.append(f'<section id="{section.anchor}"><h2>{html.escape(section.title)}</h2>'
                   f'<table class="docutils align-default neuron-table neuron-preview-changes">'
                   f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></section>")
    out.append("</section>")
    return "\n".join(out)

