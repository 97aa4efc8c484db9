"""The build's hook into the drift engine: hand-written prose of every page checked against the data.

When a page is written (:class:`DriftCheck`, the first post-transform after the roles' output is
filled in) every paragraph, title and
table cell written by hand is handed to the
:class:`~neuron_docs.drift.engine.DriftEngine` (the same engine as ``make audit``) with the spans
that are prose (literals, code, raw and math, the output of our roles and directives, and anything
with a ``neuron-*`` class are left out). A figure that duplicates or contradicts a data value or a
derived claim, and a fit/support sentence that disagrees with the latest support matrices, is a warning of
type ``neuron.drift`` at its file and line::

    literal 9.007 ms duplicates run:vit-inf1-b1:p90_latency_ms; write :neuron:value:`run:vit-inf1-b1:p90_latency_ms`

``suppress_warnings = ['neuron.drift']`` allows them; ``neuron_drift_check = False`` turns the
checker off. While the page is read, :func:`note_checked_prose` records what it will be checked
against (every figure for prose with a figure, the names and fits for prose with only a
fit/support phrase; never the prose the data holds): when that changes, the page is written, and
so checked, again without being read again.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from ..state.domain import state
from ..data.record_keys import fields_key, file_key
from ..state.dependencies import shows
from ..data.catalog import FILE_NAMES
from ..data.checking.matrix_files import MATRIX_DIR
from ..drift.engine import COMPARATIVE_TRIGGER
from ..drift.page_text import read_page
from ..drift.tables import TextCell
from ..node_data import DRIFT_HEADING

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..drift.engine import DriftEngine

logger = logging.getLogger(__name__)

#: Inline nodes whose text is not prose written by hand (or is quoted on purpose).
_OPAQUE = (nodes.literal, nodes.abbreviation, nodes.raw, nodes.math, nodes.problematic, nodes.image,
           nodes.footnote_reference, nodes.citation_reference, nodes.substitution_reference, nodes.target,
           nodes.system_message)
#: Blocks never checked.
_SKIP_BLOCKS = (nodes.FixedTextElement, nodes.raw, nodes.comment, nodes.system_message, nodes.math_block,
                nodes.substitution_definition, nodes.target)

#: What the drift checker reads of the data: every figure for prose with a figure; for prose with
#: a fit/support phrase the names of families, devices (with their purpose), instance families and
#: frameworks and the matrices. Never the prose the data holds (a family's rationale and support
#: text, an issue's description): a change of it checks no page again.
_FAMILY_NAMES = fields_key("families", "name", "short_name", "title", "representatives")
_FIGURE_KEYS = frozenset({fields_key("known_issues", "limit") if name == "issues.yaml" else _FAMILY_NAMES
                          if name == "families.yaml" else file_key(name) for name in (*FILE_NAMES, MATRIX_DIR)})
_CLAIM_KEYS = frozenset({_FAMILY_NAMES, fields_key("devices", "name", "purpose"),
                         fields_key("instances", "family", "device"), fields_key("frameworks", "package"),
                         file_key(MATRIX_DIR)})


def _generated(node: nodes.Element) -> bool:
    return any(c.startswith("neuron-") for c in node.get("classes", ()))


def _segments(node: nodes.Node, out: list[tuple[str, bool]]) -> None:
    """The text of ``node`` in order, each piece marked whether it may hold a literal figure."""
    for child in node.children:
        if isinstance(child, nodes.Text):
            out.append((child.astext(), True))
        elif isinstance(child, _OPAQUE) or _generated(child) or (
                isinstance(child, nodes.reference) and child.get("refuri") == child.astext()):
            out.append((child.astext(), False))
        elif isinstance(child, nodes.Element):
            _segments(child, out)


def _blocks(doctree: nodes.document, tables: list[tuple[nodes.table, str]] | None = None) -> list[nodes.Element]:
    """Hand-written text blocks: paragraphs, titles, terms... outside generated or skipped subtrees;
    hand-written tables go to ``tables`` (with their heading), to be read row by row."""
    out: list[nodes.Element] = []

    def visit(node: nodes.Element, heading: str) -> None:
        for child in node.children:
            if not isinstance(child, nodes.Element) or isinstance(child, _SKIP_BLOCKS) or _generated(child):
                continue
            if isinstance(child, nodes.table) and tables is not None:
                tables.append((child, heading))
                continue
            if isinstance(child, nodes.TextElement) and not isinstance(child, nodes.Inline):
                if child.line is not None or child.parent.line is not None:
                    DRIFT_HEADING.set(child, heading)
                    out.append(child)
                continue
            title = heading
            if isinstance(child, nodes.section) and child.children and isinstance(child[0], nodes.title):
                title = child[0].astext()
            elif isinstance(child, (nodes.definition, nodes.field_body)):
                # A definition under its term, a field's body under its name, as the audit reads them.
                label = child.parent.next_node(nodes.term if isinstance(child, nodes.definition) else nodes.field_name)
                title = f"{heading}\n{label.astext()}" if label is not None else heading
            visit(child, title)

    visit(doctree, "")
    return out


def _line(block: nodes.Element, text: str, shown: str = "", start: int = 0) -> int | None:
    """The line of ``text`` in ``block``: the block's line plus the line of ``text`` in its source
    (else, when the source does not hold it as shown, such as a role's output, the line of offset
    ``start`` of the block's ``shown`` text)."""
    line = block.line if block.line is not None else block.parent.line
    raw = block.rawsource or ""
    if line is None:
        return None
    if isinstance(block, nodes.paragraph) and raw:
        # docutils gives a paragraph the line of its first line (RST and MyST alike). A figure
        # written twice in the paragraph ("16 Trainium2 chips ... all 16 Trainium2 chips") is the
        # source's occurrence of the same rank as the shown text's before ``start``.
        at = -1
        # The text as the source writes it, its words broken over lines anywhere ("16\nTFLOPS"), and
        # never inside a longer word ("16" is not the one of "FP16").
        written = re.compile(r"(?<![\w.])" + r"\s+".join(re.escape(w) for w in text.split()) + r"(?!\w)")\
            if text.split() else None
        for _ in range(shown.count(text, 0, start) + 1 if shown else 1):
            match = written.search(raw, at + 1) if written is not None else None
            if match is None:
                break
            at = match.start()
        if at < 0:
            at = raw.find(text.split()[0]) if text.split() else -1
        if at >= 0:
            return line + raw.count("\n", 0, at)
        return line + shown.count("\n", 0, start)
    return line


def _cell(entry: nodes.Element) -> TextCell:
    """A table cell's text (its paragraphs, one a line) with the spans written by hand."""
    pieces: list[tuple[str, bool]] = []
    # Its paragraphs, those of lists in it too ("* 1,299 FP8 TFLOPS" in a grid table's cell).
    blocks = [n for n in entry.findall(nodes.TextElement) if not isinstance(n, nodes.Inline)
              and not isinstance(n.parent, nodes.TextElement)]
    for index, child in enumerate(blocks):
        if index:
            pieces.append(("\n", False))
        _segments(child, pieces)
    return TextCell("".join(p for p, _ in pieces), tuple(_written_spans(pieces)))


def _written_spans(pieces: list[tuple[str, bool]]) -> list[tuple[int, int]]:
    """The spans of the joined ``pieces`` that are prose written by hand (may hold a literal figure)."""
    spans: list[tuple[int, int]] = []
    offset = 0
    for piece, checkable in pieces:
        if checkable:
            spans.append((offset, offset + len(piece)))
        offset += len(piece)
    return spans


def _entry_line(entry: nodes.Element) -> int | None:
    for node in entry.findall(nodes.TextElement):
        if node.line is not None:
            return node.line
    return entry.line


def _source_lines(table: nodes.table, rows: list[list[TextCell]]) -> list[list[int]] | None:
    """The lines of a table's cells read from its source (docutils locates a ``csv-table``'s cells at
    line 1, a grid table's at their paragraph): the table of the page's text
    (:func:`~neuron_docs.drift.page_text.read_page`, as the audit reads it) with the same cells."""
    document = table.document
    source = Path(document["source"]) if document is not None and document.get("source") else None
    if source is None or not source.is_file() or not rows:
        return None
    def shown(table_rows: list[list[TextCell]]) -> list[list[str]]:
        return [[" ".join(c.text.split()) for c in row] for row in table_rows]

    wanted = shown(rows)
    markdown = source.suffix.lower() in (".md", ".markdown")
    for candidate in read_page(source.read_text(encoding="utf-8"), markdown=markdown).tables:
        if shown(candidate.rows) == wanted:
            return candidate.lines
    return None


def _table_rows(table: nodes.table) -> tuple[list[list[nodes.Element]], list[list[TextCell]], int]:
    """A hand-written table's entries, their cells and the number of header rows."""
    head = [row for group in table.findall(nodes.thead) for row in group.findall(nodes.row)]
    body = [row for group in table.findall(nodes.tbody) for row in group.findall(nodes.row)]
    entries = [[e for e in row.children if isinstance(e, nodes.entry)] for row in (*head, *body)]
    return entries, [[_cell(e) for e in row] for row in entries], len(head)


def check_table(env: BuildEnvironment, docname: str, table: nodes.table, heading: str) -> None:
    """Figures under their column header and support-matrix badges of a hand-written table."""
    engine = state(env).drift_engine()
    entries, rows, header_rows = _table_rows(table)
    # The lines of the page's source table as the audit reads it (one reading of a table for both),
    # else those docutils gives the cells.
    lines = _source_lines(table, rows)
    for i, j, verdict in engine.check_table(rows, header_rows, heading):
        if verdict.kind == "claim" and verdict.agrees:
            continue
        line = lines[i][j] if lines is not None and j < len(lines[i]) else _entry_line(entries[i][j])
        logger.warning("%s", verdict.message(), location=(docname, line), type="neuron", subtype="drift")


class _Block(NamedTuple):
    block: nodes.Element
    heading: str
    text: str
    allowed: list[tuple[int, int]]
    figures: Any
    claim_words: bool


def _prose(engine: DriftEngine, doctree: nodes.document,
           tables: list[tuple[nodes.table, str]]) -> Iterator[_Block]:
    """The hand-written blocks worth checking (a figure or a fit/support phrase); the hand-written
    tables go to ``tables``. Finding figures does not depend on the data; matching them does."""
    for block in _blocks(doctree, tables):
        heading = DRIFT_HEADING.pop(block, "")
        pieces: list[tuple[str, bool]] = []
        _segments(block, pieces)
        text = "".join(p for p, _ in pieces)
        has_digits, claim_words = engine.worth_checking(text)
        if not claim_words and not has_digits:
            continue
        allowed = _written_spans(pieces)
        figures = engine.figures_in(text, allowed)
        # Digits but no figure ("Matrix dev-0"): nothing to check, now or later; but a comparative
        # between two roles' figures is checked against them.
        if figures or claim_words or COMPARATIVE_TRIGGER.search(text):
            yield _Block(block, heading, text, allowed, figures, claim_words)


def _worth_checking(engine: DriftEngine, table: nodes.table) -> bool:
    return any(any(ch.isdigit() for ch in c.text) or engine.worth_checking(c.text)[1]
               for row in _table_rows(table)[1] for c in row)


def note_checked_prose(app: Sphinx, doctree: nodes.document) -> None:
    """While a page is read: what its prose will be checked against, which the page then shows (it
    is rewritten, and checked again, when that changes). A figure is matched against every figure of
    the data (one that matches nothing today may duplicate or contradict tomorrow's); a fit/support
    phrase needs the names of families, devices, instances and frameworks and the matrices."""
    env = app.env
    if not env.config.neuron_drift_check:
        return
    engine = state(env).drift_engine()
    tables: list[tuple[nodes.table, str]] = []
    wanted: set[str] = set()
    for block in _prose(engine, doctree, tables):
        wanted |= _FIGURE_KEYS if block.figures else _CLAIM_KEYS
    if any(_worth_checking(engine, table) for table, _ in tables):
        wanted |= _FIGURE_KEYS
    if wanted:
        shows(env, *sorted(wanted))


def check_doctree(env: BuildEnvironment, doctree: nodes.document, docname: str) -> None:
    """Report literal figures and fit/support words that duplicate or contradict the data."""
    if not env.config.neuron_drift_check:
        return
    engine = state(env).drift_engine()
    tables: list[tuple[nodes.table, str]] = []
    for block in _prose(engine, doctree, tables):
        for verdict in engine.check(block.text, block.heading, block.allowed, figures=block.figures):
            if verdict.kind == "claim" and verdict.agrees:
                continue
            line = _line(block.block, verdict.text, block.text, verdict.start)
            logger.warning("%s", verdict.message(), location=(docname, line), type="neuron", subtype="drift")
    for table, heading in tables:
        if _worth_checking(engine, table):
            check_table(env, docname, table, heading)


class DriftCheck(SphinxPostTransform):
    """When a page is written, before anything but the roles' output (:mod:`.render.expand`) changes
    its doctree: check its prose against the data of this build (so a page rewritten after a data
    change is checked again)."""

    default_priority = 1

    def run(self, **kwargs: Any) -> None:
        check_doctree(self.env, self.document, self.env.current_document.docname)


def make_drift_indexes(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Build the indexes before reading, only when pages will be read (parallel readers inherit
    them; a rebuild with nothing to read does not pay for them)."""
    if docnames and app.config.neuron_drift_check:
        state(env).drift_engine()


def check_data_text(app: Sphinx, env: BuildEnvironment) -> None:
    """The free text of the data files (errata explanations, rationales, notes, other sources' why),
    checked as a page is: a figure or a multiple that contradicts the data is a warning at its line
    of the data file (:mod:`~neuron_docs.drift.data_text`)."""
    if not app.config.neuron_drift_check:
        return
    from ..drift.data_text import data_problems

    engine = state(env).drift_engine()
    for path, line, verdict in data_problems(engine, Path(app.config.neuron_data_dir)):
        logger.warning("%s", verdict.message(), location=f"{path}:{line}", type="neuron", subtype="drift")


def setup_drift_check(app: Sphinx) -> None:
    app.add_config_value("neuron_drift_check", True, "env", types=frozenset({bool}),
                         description="Warn (neuron.drift) about literal figures and fit/support words "
                                     "that duplicate or contradict the data.")
    app.add_post_transform(DriftCheck)
