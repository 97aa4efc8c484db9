"""Inline roles that print data in prose.

- ``:neuron:value:`run:vit-inf1-b3:throughput``` prints a figure with its unit; an expression over
  figures with a declared format prints a derived claim:
  ``:neuron:value:`pct_less(run:vit-inf1-b3:cost_per_1m, run:vit-g5-b128:cost_per_1m) | .0f```.
- ``:neuron:fit:`decoder/inferentia``` prints "a good fit" or "not a good fit".
- ``:neuron:status:`encoder/trainium/torch-neuronx``` prints the support status in words.
- ``:neuron:compare:`run:a:cost_per_1m, run:b:cost_per_1m | less/more``` prints the comparative word
  the two figures make true ("less" while A is below B), ``| diff .2f less/more`` the difference with
  it ("$0.11 less"), ``| times`` the ratio in words ("2.9 times as much as").
Each output carries a tooltip naming the data it came from.

The role leaves a placeholder (:class:`~neuron_docs.render.placeholder.deferred_inline`); what it
prints (:mod:`neuron_docs.data.figures.shown`) is rendered when the page is written, before the drift
check reads the prose around it. The page *shows* that output (key ``value:<text>``...): a change
of the figure rewrites the page without reading it again. An unknown path is a warning at the
role's line when the page is written. In a title (read into the table of contents) the output is
built when the page is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole

from ..state.build import DataSet
from ..state.domain import dataset
from ..data.record_keys import shown_key
from ..data.figures.shown import SHOWN_KINDS, Shown, shown
from ..state.dependencies import shows, uses
from ..render.placeholder import RenderContext, deferred_inline, renderer
from ..render.tables import blank
from ..data.checking.touching import set_aside_value, value_record
from ..node_data import FIGURE_EXPRESSION, FIGURE_FORMAT, SET_ASIDE

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from sphinx.writers.html5 import HTML5Translator

logger = logging.getLogger(__name__)


def shown_node(found: Shown) -> nodes.abbreviation:
    """A role's output: an ``<abbr>`` whose tooltip names the data it came from."""
    node = nodes.abbreviation(found.text, found.text, explanation=found.explanation, classes=list(found.classes))
    if found.expression is not None:
        FIGURE_EXPRESSION.set(node, found.expression)
        FIGURE_FORMAT.set(node, found.format)
    return node


def set_aside_mark(catalog: Catalog, exc: ValueError) -> nodes.Node | None:
    """For a value whose record was set aside (its problem warned once, where the data is loaded): a
    dash that says so, and no second warning for the same cause; None for any other problem."""
    path = getattr(exc, "path", None)
    reason = set_aside_value(catalog, path) if path else None
    if not reason or path is None:
        return None
    mark = blank("unknown", f"{path} is set aside: {reason}")
    record = value_record(catalog, path)
    if record:
        SET_ASIDE.set(mark, "/".join(record))  # the page shows the record's box (render.expand)
    return mark


def value_node(data: DataSet, expression: str, spec: str, *, require_format: bool = True
               ) -> tuple[nodes.abbreviation, list[str]]:
    """The rendered figure of ``expression`` and the data files it read (:func:`.figures.shown.figure`).
    Raises ``ValueError`` (including :class:`.expressions.ExpressionError`) with a message for the page's writer."""
    found = shown("value" if require_format else "figure", data.catalog, data.values, f"{expression}|{spec}")
    return shown_node(found), list(found.files)


class _DataRole(SphinxRole):
    """A role printing data: a placeholder in the doctree, its output rendered when the page is
    written; the page shows that output (it is rewritten, not read again, when it changes)."""

    kind: str

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        if isinstance(getattr(self.inliner, "parent", None), nodes.Titular):
            return self.run_now()  # a title is read into the table of contents: printed now
        node = deferred_inline(self.rawtext, renderer=render_data_role.name, directive=f"neuron:{self.kind}",
                               params=RoleParams(self.kind, self.text, self.rawtext), location=self.get_location())
        node.source, node.line = self.get_source_info()
        shows(self.env, shown_key(self.kind, self.text))
        return [node], []

    def run_now(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """The output built when the page is read (the page is read again when its files change)."""
        data = dataset(self.env)
        try:
            found = shown(self.kind, data.catalog, data.values, self.text)
        except ValueError as exc:
            uses(self, *SHOWN_KINDS[self.kind])
            mark = set_aside_mark(data.catalog, exc)
            if mark is not None:
                return [mark], []
            logger.warning("neuron:%s: %s", self.kind, exc, location=self.get_location(), type="neuron",
                           subtype="value")
            return [nodes.problematic(self.rawtext, self.rawtext)], []
        uses(self, *found.files)
        return [shown_node(found)], []


@dataclass(frozen=True)
class RoleParams:
    """A role's kind (``value``, ``fit``, ``status``), its text and its whole source text."""

    kind: str
    text: str
    rawtext: str


@renderer("data-role")
def render_data_role(ctx: RenderContext, params: RoleParams) -> list[nodes.Node]:
    """What a role prints, or its text marked as a problem (a located warning at the role)."""
    try:
        found = shown(params.kind, ctx.catalog, ctx.data.values, params.text)
    except ValueError as exc:
        mark = set_aside_mark(ctx.catalog, exc)
        if mark is not None:
            return [mark]
        ctx.warn(str(exc), subtype="value")
        return [nodes.problematic(params.rawtext, params.rawtext)]
    return [shown_node(found)]


class ValueRole(_DataRole):
    """A figure or a derived claim from the data, formatted with its unit."""

    kind = "value"


class FitRole(_DataRole):
    """``family/device`` -> "a good fit" / "not a good fit" (the latest revision of the matrices)."""

    kind = "fit"


class StatusRole(_DataRole):
    """``family/device/framework[/workload]`` -> the support status in words (the latest revision).
    Without a workload: the framework's column for the device's purpose (training on Trainium)."""

    kind = "status"


class CompareRole(_DataRole):
    """Comparative words from two figures: ``A, B | less/more`` ("less" while A is below B),
    ``A, B | diff .2f less/more`` ("$0.11 less"), ``A, B | times`` ("2.9 times as much as")
    (:mod:`neuron_docs.data.figures.compare`): a data change that moves A past B rewrites the words."""

    kind = "compare"


def _visit_abbreviation(self: HTML5Translator, node: nodes.abbreviation) -> None:
    """``<abbr>`` as Sphinx writes it, plus the figure's expression in ``data-neuron-figure`` (for
    scripts and tests: the words of the tooltip are for readers)."""
    attrs = {"title": node["explanation"]} if node.hasattr("explanation") else {}
    if expression := FIGURE_EXPRESSION.get(node):
        attrs["data-neuron-figure"] = expression
    self.body.append(self.starttag(node, "abbr", "", **attrs))


def _depart_abbreviation(self: HTML5Translator, node: nodes.abbreviation) -> None:
    self.body.append("</abbr>")


def setup_roles(app: Sphinx) -> None:
    app.add_node(nodes.abbreviation, override=True, html=(_visit_abbreviation, _depart_abbreviation))
    app.add_role_to_domain("neuron", "value", ValueRole())
    app.add_role_to_domain("neuron", "fit", FitRole())
    app.add_role_to_domain("neuron", "status", StatusRole())
    app.add_role_to_domain("neuron", "compare", CompareRole())
