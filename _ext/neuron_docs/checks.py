"""The drift checker: literal figures and fit/support words in prose that the data already holds.

On ``doctree-read`` every paragraph, title and table cell written by hand is scanned (literals,
code, raw and math, the output of our roles and directives, and anything with a ``neuron-*`` class
are skipped). A number with a unit (or a %, a price, a factor) that duplicates a data value or a
claim derived from related values, or that contradicts one, is a warning with file and line, in
its own category ``neuron.drift``::

    literal 9.007 ms duplicates run:vit-inf1-b1:p90_latency_ms; write :neuron:value:`run:vit-inf1-b1:p90_latency_ms`
    literal $0.78 contradicts run:beit-g5-b128:cost_per_1m ($0.79); write ...

A sentence naming a model family and a device with a fit or support phrase ("a good fit", "not
supported") that disagrees with ``families.yaml`` is a warning too. ``suppress_warnings =
['neuron.drift']`` allows them; ``neuron_drift_check = False`` turns the checker off. The index of
values is built once per build (:class:`.figures.FigureIndex`), so each figure costs a bisection.
A page is re-read when the data it was checked against changes: every file for prose with a
figure, the files of names and fits for prose with only a fit/support phrase.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging

from . import errata
from .figures import ClaimIndex, FigureIndex, context_words, find_figures, sentences
from .data.catalog import FILE_NAMES
from .store import dataset, note_reads

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

#: Inline nodes whose text is not prose written by hand (or is quoted on purpose).
_OPAQUE = (nodes.literal, nodes.abbreviation, nodes.raw, nodes.math, nodes.problematic, nodes.image,
           nodes.footnote_reference, nodes.citation_reference, nodes.substitution_reference, nodes.target,
           nodes.system_message)
#: Blocks never checked.
_SKIP_BLOCKS = (nodes.FixedTextElement, nodes.raw, nodes.comment, nodes.system_message, nodes.math_block,
                nodes.substitution_definition, nodes.target)

#: Words of a fit or support claim ("a good fit", "Supported", "supports"), any case.
_CLAIM_WORDS = re.compile(r"fit|support", re.IGNORECASE)

#: The data files the drift checker reads: all of them for figures, the names for claims.
_ALL_FILES = frozenset(FILE_NAMES)
_CLAIM_FILES = frozenset({"families.yaml", "devices.yaml", "instances.yaml", "frameworks.yaml"})

_INDEXES: dict[tuple[str, str], tuple[FigureIndex, ClaimIndex]] = {}


def indexes(env: BuildEnvironment) -> tuple[FigureIndex, ClaimIndex]:
    """The figure and claim indexes of this build's data set (built once per data set)."""
    data = dataset(env)
    key = (str(data.catalog.data_dir), data.catalog.fingerprint)
    if key not in _INDEXES:
        _INDEXES.clear()
        _INDEXES[key] = (FigureIndex(data.values, data.catalog), ClaimIndex(data.catalog))
    return _INDEXES[key]


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


def _blocks(doctree: nodes.document) -> list[nodes.Element]:
    """Hand-written text blocks: paragraphs, titles, terms... outside generated or skipped subtrees."""
    out: list[nodes.Element] = []

    def visit(node: nodes.Element, heading: str) -> None:
        for child in node.children:
            if not isinstance(child, nodes.Element) or isinstance(child, _SKIP_BLOCKS) or _generated(child):
                continue
            if isinstance(child, nodes.TextElement) and not isinstance(child, nodes.Inline):
                if child.line is not None or child.parent.line is not None:
                    child["neuron_heading"] = heading
                    out.append(child)
                continue
            title = heading
            if isinstance(child, nodes.section) and child.children and isinstance(child[0], nodes.title):
                title = child[0].astext()
            visit(child, title)

    visit(doctree, "")
    return out


def _line(block: nodes.Element, text: str) -> int | None:
    """The line of ``text`` in ``block``: the block's line plus the line of ``text`` in its source."""
    line = block.line if block.line is not None else block.parent.line
    raw = block.rawsource or ""
    if line is None:
        return None
    if isinstance(block, nodes.paragraph) and raw:
        # docutils gives a paragraph the line of its first line (RST and MyST alike).
        at = raw.find(text)
        if at < 0:
            at = raw.find(text.split()[0]) if text.split() else -1
        if at >= 0:
            return line + raw.count("\n", 0, at)
    return line


def check_doctree(app: Sphinx, doctree: nodes.document) -> None:
    """Report literal figures and fit/support words that duplicate or contradict the data."""
    env = app.env
    if not env.config.neuron_drift_check:
        return
    figure_index, claim_index = indexes(env)
    docname = env.docname
    noted: set[str] = set()
    for block in _blocks(doctree):
        heading = block.attributes.pop("neuron_heading", "")
        pieces: list[tuple[str, bool]] = []
        _segments(block, pieces)
        text = "".join(p for p, _ in pieces)
        claim_words = _CLAIM_WORDS.search(text) is not None
        if not claim_words and not any(ch.isdigit() for ch in text):
            continue
        allowed: list[tuple[int, int]] = []
        offset = 0
        for piece, checkable in pieces:
            if checkable:
                allowed.append((offset, offset + len(piece)))
            offset += len(piece)
        # Finding figures does not depend on the data; matching them and finding claims does.
        figures = [f for f in find_figures(text) if any(a <= f.start and f.end <= b for a, b in allowed)]
        if not figures and not claim_words:
            continue  # digits but no figure ("Matrix dev-0"): nothing to check, now or after a data change
        # What this block is checked against: re-check the page when it changes. Figures are matched
        # against every figure of the data (one that matches nothing today may duplicate or contradict
        # tomorrow's); claims need the names of families, devices, instances and frameworks.
        wanted = _ALL_FILES if figures else _CLAIM_FILES
        if not wanted <= noted:
            note_reads(env, *sorted(wanted - noted))
            noted |= wanted
        claims = claim_index.claims(text, allowed) if claim_words else []
        spans = sentences(text)
        for figure in figures:
            match = figure_index.match(figure, context_words(text, figure.start, heading, spans))
            if match is None:
                continue
            literal = figure.text.strip()
            if match.agrees:
                message = (f"literal {literal} duplicates {match.candidate.expression}; "
                           f"write {match.role}")
            else:
                why = f": {match.reason}" if match.reason and "the data gives" not in match.reason else ""
                message = (f"literal {literal} contradicts {match.candidate.expression} ({match.expected})"
                           f"{why}; write {match.role}")
            logger.warning("%s", message, location=(docname, _line(block, figure.text)),
                           type="neuron", subtype="drift")
        for claim in claims:
            if claim.agrees:
                continue
            truth = {"good": "a good fit", "poor": "not a good fit", "supported": "supported",
                     "unsupported": "not supported"}[claim.truth]
            family = claim_index.catalog.families[claim.family].name
            logger.warning("%s", f"'{claim.text}' contradicts the data: {family} on {claim.device} is {truth} "
                                 f"(families.yaml); write {claim.role}",
                           location=(docname, _line(block, claim.text)), type="neuron", subtype="drift")


def _on_env_before_read_docs(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Build the indexes before reading, only when pages will be read (parallel readers inherit
    them; a rebuild with nothing to read does not pay for them)."""
    if docnames and app.config.neuron_drift_check:
        indexes(env)


def setup_checks(app: Sphinx) -> None:
    app.add_config_value("neuron_drift_check", True, "env", types=frozenset({bool}),
                         description="Warn (neuron.drift) about literal figures and fit/support words "
                                     "that duplicate or contradict the data.")
    app.connect("env-before-read-docs", _on_env_before_read_docs)
    app.connect("doctree-read", check_doctree)
    errata.setup_errata(app)
