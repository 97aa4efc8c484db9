"""``.. neuron:errata::``: the claims of the source documents that the data corrects.

Each entry of ``data/errata.yaml`` quotes a source (as a literal, so the drift checker leaves it
alone), and, when the claim is a figure, gives the expression over data values that yields the true
value: the directive recomputes it on every build, formatted as declared, with a tooltip naming the
data it came from. The explanation is plain text, like every string from the data. An expression
that cannot be computed (an unknown path, a division by zero, a result that overflows to infinity)
is a warning at the erratum's line in ``errata.yaml``, not at the page, and the row shows the rest.
The table is rendered when the page is written (:mod:`neuron_docs.render`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from ..state.domain import dataset
from ..data.record_keys import fields_key, file_key, shown_key
from ..state.dependencies import READS, note
from ..render.placeholder import NoParams, RenderContext, defer, renderer
from .roles import set_aside_mark, value_node
from ..render.table_model import TableCell, TableModel, text
from ..render.tables import broken_notice

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import OptionSpec

    from ..data.records import models as s


class Errata(SphinxDirective):
    """The errata table: source, quoted claim, the true value recomputed from the data, why.

    Rendered when the page is written. The page reads which errata there are and their expressions
    (what it shows depends on them), and shows the errata and sources files and each expression's
    figure: a change of a figure an erratum reads rewrites the page without reading it again."""

    option_spec: ClassVar[OptionSpec] = {}

    def run(self) -> list[nodes.Node]:
        catalog = dataset(self.env).catalog
        note(self.env, READS, [fields_key("errata", "expression", "format")])
        shown = [file_key("errata.yaml"), file_key("sources.yaml"),
                 *(shown_key("figure", f"{e.expression}|{e.format or ''}") for e in catalog.errata.values()
                   if e.expression)]
        return [defer(self, render_errata, NoParams(), shown)]


@renderer("errata")
def render_errata(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    """The table of errata, a row an erratum: its source, the claim quoted, the value and why."""
    catalog = ctx.catalog
    model = TableModel(["Source", "Claim in the source", "What the data gives"], classes=["neuron-errata"],
                       name="errata")
    for erratum in catalog.errata.values():
        source = ctx.known("source", erratum.source, catalog.sources)
        value_cell: list[nodes.Node] = []
        value_words = ""
        if erratum.expression:
            value = _value(ctx, erratum)
            if value is not None:
                value_cell += [value[0], nodes.Text(". ")]
                value_words = f"{value[1]}. "
        value_cell.append(nodes.Text(erratum.explanation))
        model.add([text(source.title if source else erratum.source),
                   TableCell(nodes.literal(erratum.quote, erratum.quote), erratum.quote),
                   TableCell(value_cell, value_words + erratum.explanation)])
    return [model.table(), *broken_notice(catalog.broken_in("errata"))]


def _value(ctx: RenderContext, erratum: s.Erratum) -> tuple[nodes.Node, str] | None:
    """The erratum's value (in bold) and its words in the CSV; None when it cannot be computed."""
    assert erratum.expression is not None  # asked only for errata with an expression
    try:
        node, _ = value_node(ctx.data, erratum.expression, erratum.format or "", require_format=False)
    except ValueError as exc:  # an ExpressionError too: overflow, division by zero, unknown path
        mark = set_aside_mark(ctx.catalog, exc)
        if mark is not None:  # a value of a record set aside: warned once, where the data is loaded
            return mark, ""  # a blank: its dash left out of the CSV
        # The error is in the data, so it is reported at the erratum's line in errata.yaml.
        file, line = ctx.catalog.origin("errata", erratum.id)
        ctx.warn_at(f"{Path(ctx.env.config.neuron_data_dir) / file}:{line or ''}",
                    f"errata[{erratum.id}].expression: {exc}", "value")
        return None
    return nodes.strong("", "", node), node.astext()


def setup_errata(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "errata", Errata)
