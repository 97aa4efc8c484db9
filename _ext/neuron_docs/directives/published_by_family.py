"""``.. neuron:measured-models:: <family>``: the published benchmark runs of a model family's models.

One row per published model of the family (``data/benchmarks/published/models.yaml``) and per
instance generation and kind it was measured on: the runs, the best throughput in its unit and the
cost per 1M at that throughput with the price it used (the data set's derived cost, as the
published tables show it). Meant for the family's guideline section.
Rendered when the page is written (:mod:`neuron_docs.render`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes

from ..data.record_keys import PUBLISHED_RUNS_KEYS, file_key, names_key
from ..data.records.labels import GENERATION_TEXT, METRICS
from ..data.figures.prices import price_note, unstated_note
from ..render.placeholder import RenderContext, defer, renderer
from .base import DataDirective
from .published_cells import cost_text, figure_cell
from ..render.table_model import TableModel, count, text

if TYPE_CHECKING:
    from .published_cells import Run


#: The data files the measured models of a family are read from.
MEASURED_FILES = ("benchmarks/published/models.yaml", "benchmarks/published/tables.yaml", "prices.yaml",
                  "instances.yaml")
#: What the measured models of a family show: those files, the current published runs and the
#: families' ids (not their prose).
MEASURED_KEYS = [*(file_key(name) for name in MEASURED_FILES), *PUBLISHED_RUNS_KEYS, names_key("families")]


def measured_models(ctx: RenderContext, family: str) -> list[nodes.Node]:
    """The table of a family's measured models (or a sentence saying there is none yet)."""
    catalog = ctx.catalog
    derived = ctx.data.derived
    models = [m.name for m in catalog.published_models.values() if m.family == family]
    runs: list[Run] = [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values()]
    groups: dict[tuple[str, str, str], list[Run]] = {}
    for run in runs:
        if run.model in models:
            table = ctx.known("published table", run.table, catalog.published_tables)
            if table is None:
                continue
            groups.setdefault((run.model, table.generation, table.kind), []).append(run)
    name = nodes.make_id(f"measured-{family}")
    shown = TableModel(["Model", "Instances", "Kind", "Runs", "Best throughput", "Its cost", "Price used"],
                       classes=["neuron-measured-models", "neuron-sortable"], name=name, csv_name=name)
    quotes = []
    for (model, generation, kind), measured in sorted(groups.items(), key=lambda g: (models.index(g[0][0]),
                                                                                    g[0][1:])):
        best = max(measured, key=lambda r: (r.throughput() or ("", 0, ""))[1])
        found = best.throughput()
        cost = derived.published_cost(best)
        shown.add([text(model), text(GENERATION_TEXT.get(generation, generation)), text(kind),
                   count(len(measured)), figure_cell(found[1], METRICS[found[0]].unit) if found else text(""),
                   text(f"{cost_text(cost)} per {cost.per}" if cost else ""),
                   text(price_note(cost.price, caveat=False) if cost else "")])
        if cost:
            quotes.append(cost.price)
    if not shown.rows:
        none = "No published benchmark measures a model of this family yet."
        return [nodes.paragraph(none, none)]
    note = unstated_note(quotes)
    return [shown.table(), *([nodes.paragraph(note, note, classes=["neuron-price-note"])] if note else [])]


class MeasuredModels(DataDirective):
    """Rendered when the page is written; the page shows the files the table is computed from (an
    unknown family is a warning then, at the directive's line)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_measured_models, FamilyParams(self.arguments[0]), MEASURED_KEYS)]


@dataclass(frozen=True)
class FamilyParams:
    """One model family, by id."""

    family: str


@renderer("measured-models")
def render_measured_models(ctx: RenderContext, params: FamilyParams) -> list[nodes.Node]:
    if ctx.known("family", params.family, ctx.catalog.families) is None:
        return []
    return measured_models(ctx, params.family)
