"""The published-performance pages: inference per instance generation, training, a family's measured models.

- ``.. neuron:inference-performance:: inf2`` (``:categories: encoder, decoder``): one section per
  model group of the generation's published inference tables (by default every model group:
  :func:`shown_tables`), each with a tab per view (throughput- and latency-optimized, sphinx-design tabs),
  a sortable, filterable table with a CSV download, and the prices its costs used.
- ``.. neuron:training-performance:: trn1`` (``:categories:``): the same for training tables.
- ``.. neuron:measured-models:: encoder``: the benchmarked models of a family with their best
  throughput and its cost (to be placed in the family's guideline section).

Every cost is read from the data set's derived costs (:class:`~neuron_docs.data.figures.derived.Derived`,
computed once per build for the sort order, the cells, the price note and the chart alike), one
column per field of :data:`~neuron_docs.data.figures.derived.PUBLISHED_COSTS`: at the
reserved-instance effective price, as on the published pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx_design.shared import create_component

from ..state.domain import dataset, neuron_domain
from ..data.record_keys import fields_key, file_key, history_figures_key, names_key, record_keys
from ..state.dependencies import READS, note
from ..render.placeholder import RenderContext, defer, renderer
from ..data.records.labels import CATEGORY_TEXT, VIEW_TEXT
from ..data.figures.derived import PUBLISHED_COSTS
from ..data.figures.prices import price_note, unstated_note
from ..data.figures.runs import cost_formula
from ..data.records.published import PublishedInferenceRun, PublishedTrainingRun
from ..data.figures.identity import identities
from ..data.published.history_view import since_previous
from .base import Collections, DataDirective, render_broken_notice
from ..data.checking.touching import set_aside_pages
from .charts.published import (INFERENCE_LABEL_FIELDS, TRAINING_LABEL_FIELDS, config_label, label_fields,
                               published_chart_block)
from .published_by_family import MeasuredModels
from .published_cells import (
    CONFIGURATION, PREVIOUS, SINCE, cell, header, headline_field, inference_columns, key_columns, previous_cell,
    since_cell, training_columns, wide_only_columns,
)
from .specs import source_ref
from ..render.tables import comma_list
from ..render.table_model import TableModel, text

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..data import Catalog
    from ..data.figures.derived import Derived
    from ..data.records.published import PublishedTable
    from .published_cells import Run

#: The data files the performance pages read (and the families' ids, that models link to).
PERFORMANCE_FILES = ("benchmarks/published/tables.yaml", "benchmarks/published/models.yaml", "prices.yaml",
                     "instances.yaml", "frameworks.yaml", "sources.yaml")


def shown_tables(catalog: Catalog, generation: str, kind: str) -> list[PublishedTable]:
    """The tables of a generation's page of ``kind`` when the page names no categories: those of a
    model group (a category), in the order of :data:`CATEGORY_TEXT`, without a table whose every model
    has rows in the other tables of its view (a combined file that the published pages split into
    groups); every table when none has a category."""
    tables = [t for t in catalog.published_tables.values() if t.generation == generation and t.kind == kind]
    if not any(t.category for t in tables):
        return tables
    order = list(CATEGORY_TEXT)
    grouped = sorted((t for t in tables if t.category),
                     key=lambda t: order.index(t.category) if t.category in order else len(order))
    collection = catalog.published_training_runs if kind == "training" else catalog.published_inference_runs
    rows: dict[str, set[str]] = {t.id: set() for t in grouped}
    for run in collection.values():
        if run.table in rows:
            rows[run.table].add(run.model)

    def repeats(table: PublishedTable) -> bool:
        others = set().union(*(rows[t.id] for t in grouped if t is not table and t.view == table.view
                               and not rows[t.id] >= rows[table.id]))
        return bool(rows[table.id]) and rows[table.id] <= others
    return [t for t in grouped if not repeats(t)]


def table_runs(derived: Derived, table: PublishedTable) -> list[Run]:
    """The runs of a published table, sorted as the published pages sort them: by model, then cost."""
    catalog = derived.catalog
    collection = catalog.published_training_runs if table.kind == "training" else catalog.published_inference_runs
    runs = [r for r in collection.values() if r.table == table.id]

    def key(run: Run) -> tuple[str, float]:
        cost = derived.published_cost(run)
        return run.model, cost.usd if cost else float("inf")
    return sorted(runs, key=key)


class _Performance(DataDirective):
    required_arguments = 1
    kind: ClassVar[str] = "inference"
    option_spec: ClassVar = {**DataDirective.option_spec, "categories": directives.unchanged}

    @property
    def collection(self) -> str:
        return "published_training_runs" if self.kind == "training" else "published_inference_runs"

    def run(self) -> list[nodes.Node]:
        derived = dataset(self.env).derived
        catalog = derived.catalog
        collection = self.collection
        # The sections and tabs are the tables of the generation; the search finds a model's rows.
        note(self.env, READS, [fields_key("published_tables", "generation", "kind", "category", "view", "page"),
                               fields_key(collection, "table", "model"),
                               fields_key("published_models", "name", "aliases", "same_as")])
        generation = self.arguments[0]
        tables = [t for t in catalog.published_tables.values() if t.generation == generation and t.kind == self.kind]
        if not tables and (generation, self.kind) not in set_aside_pages(catalog):  # set aside: warned once
            self.warn(f"no published {self.kind} table of generation {generation!r}; expected one of: "
                      f"{', '.join(sorted({t.generation for t in catalog.published_tables.values()}))}")
        wanted = comma_list(self.options.get("categories"))
        known = {t.category for t in tables if t.category}
        for unknown in [c for c in wanted if c not in known]:
            self.warn(f"unknown category {unknown!r} of {generation}; expected one of: {', '.join(sorted(known))}")
        chosen = [t for t in tables if t.category in wanted] if wanted else shown_tables(catalog, generation, self.kind)
        categories = [c for c in wanted if c in known] or list(dict.fromkeys(t.category or t.id for t in chosen))
        out: list[nodes.Node] = []
        for category in categories:
            group = sorted((t for t in chosen if (t.category or t.id) == category),
                           key=lambda t: list(VIEW_TEXT).index(t.view) if t.view in VIEW_TEXT else len(VIEW_TEXT))
            out.append(self._section(derived, generation, category, group))
        broken = defer(self, render_broken_notice, Collections((collection, "prices", "published_tables")),
                       [*(file_key(name) for name in (*PERFORMANCE_FILES, catalog.file_of(collection))),
                        names_key("families")])
        return [*out, broken]

    def _section(self, derived: Derived, generation: str, category: str, tables: list[PublishedTable]) -> nodes.section:
        title = CATEGORY_TEXT.get(category, category)
        section = nodes.section(ids=[nodes.make_id(f"{generation}-{self.kind}-{category}")])
        section += nodes.title(title, title)
        if not any(t.view for t in tables):  # no throughput/latency views: the tables alone
            for table in tables:
                section += self._table(derived, table)
            return section
        tab_set = create_component("tab-set", classes=["sd-tab-set", "neuron-performance-tabs"])
        for index, table in enumerate(tables):
            label_text = VIEW_TEXT.get(table.view or "", "Results")
            item = create_component("tab-item", classes=["sd-tab-item"], selected=index == 0)
            label = nodes.rubric(label_text, label_text, classes=["sd-tab-label"])
            label["sync_id"], label["sync_group"] = table.view or "results", "neuron-view"
            content = create_component("tab-content", classes=["sd-tab-content"])
            content += self._table(derived, table)
            item += [label, content]
            tab_set += item
        section += tab_set
        return section

    def _table(self, derived: Derived, table: PublishedTable) -> list[nodes.Node]:
        """The table's placeholder. The search finds a model at its first row in the table's order
        (model, then cost) as the page was read: after a change of figures that moves another row of
        the model first, the search still lands on a row of the model (every run keeps its row id)."""
        collection = self.collection
        runs = table_runs(derived, table)
        domain = neuron_domain(self.env)
        known = identities(derived.catalog)
        for run in runs:  # the model's names as people write them find its rows too ("SDXL")
            identity = known.of_published(run.model)
            for name in (run.model, *(identity.aliases if identity else ())):
                domain.note_alias(name, f"prun-{nodes.make_id(run.id)}", "model")
        shown = [*(file_key(name) for name in PERFORMANCE_FILES), names_key("families"), names_key(collection),
                 *record_keys(collection, (r.id for r in runs)),
                 # each row's change since the previous release that measured its configuration: the
                 # history of the table's generation (a release that moves none of its figures leaves it)
                 history_figures_key(table.generation)]
        return [defer(self, render_performance_table, TableParams(table.id, self.kind), shown)]


@dataclass(frozen=True)
class TableParams:
    """A published table, and whether it is an inference or a training table."""

    table: str
    kind: str


@renderer("performance-table")
def render_performance_table(ctx: RenderContext, params: TableParams) -> list[nodes.Node]:
    """A published table: its rows sorted as published (model, then cost), the prices its costs used,
    and its chart."""
    derived = ctx.data.derived
    table = ctx.known("published table", params.table, derived.catalog.published_tables)
    if table is None:  # gone since the page was read: the page is read again next build
        return []
    runs = table_runs(derived, table)
    training = [r for r in runs if isinstance(r, PublishedTrainingRun)]
    inference = [r for r in runs if isinstance(r, PublishedInferenceRun)]
    fields = training_columns(training) if params.kind == "training" else inference_columns(inference, table.view)
    headline = headline_field(fields)
    since = {run.id: since_previous(derived.catalog, run, headline) for run in runs} if headline else {}
    if not any(since.values()):  # no row measured before: no column of changes
        fields = [f for f in fields if f not in (SINCE, PREVIOUS)]
    labelled = label_fields(runs, TRAINING_LABEL_FIELDS if params.kind == "training" else INFERENCE_LABEL_FIELDS)
    if "image_size" in fields:  # what a vision model's figures are of, even when it tells no runs apart
        labelled = ["image_size", *(f for f in labelled if f != "image_size")]
    special = {CONFIGURATION: lambda run: text(config_label(run, labelled)),
               SINCE: lambda run: since_cell(since.get(run.id)), PREVIOUS: lambda run: previous_cell(since.get(run.id))}
    name = nodes.make_id(f"performance-{table.id}")
    model = TableModel([header(f, runs) for f in fields], name=name, csv_name=name,
                       classes=["neuron-performance-table", "neuron-sortable", "neuron-columns"])
    for run in runs:
        model.add([special[f](run) if f in special else cell(derived, run, f) for f in fields],
                  f"prun-{nodes.make_id(run.id)}")
    node = model.table()
    mark_columns(node, fields)
    return [node, prices_used(ctx, runs, table, params.kind), *published_chart_block(derived, table, runs)]


def mark_columns(table: nodes.table, fields: list[str]) -> None:
    """Classes on the header cells that the table's script reads (without it every column shows):
    ``neuron-col-<field>`` names the column in the address, ``neuron-col-key`` marks the reader's
    columns (:func:`~.published_cells.key_columns`; the others are details, shown on request) and
    ``neuron-basis-<basis>`` a cost's price basis (the reader picks one); ``neuron-col-wide`` a
    reader's column on a wide screen only (:func:`~.published_cells.wide_only_columns`)."""
    key, wide_only = set(key_columns(fields)), set(wide_only_columns(fields))
    head = next(table.findall(nodes.thead))
    for entry, field in zip(head.findall(nodes.entry), fields, strict=True):
        entry["classes"] += [f"neuron-col-{field}", "neuron-col-key" if field in key else "neuron-col-more"]
        if field in key and field in wide_only:
            entry["classes"].append("neuron-col-wide")
        if field in PUBLISHED_COSTS:
            entry["classes"].append(f"neuron-basis-{PUBLISHED_COSTS[field]}")


def prices_used(ctx: RenderContext, runs: list[Run], table: PublishedTable, kind: str) -> nodes.paragraph:
    """Which prices the table's costs used (of each price basis, by instance), and the published
    table it reproduces."""
    derived = ctx.data.derived
    used = []
    for basis in dict.fromkeys(PUBLISHED_COSTS.values()):
        quotes = {cost.price.instance: cost.price for run in runs
                  if (cost := derived.published_cost(run, basis)) is not None}
        used += sorted(quotes.items())
    note = nodes.paragraph(classes=["neuron-price-basis"])
    text = (f"{cost_formula(nodes=kind == 'training')}, at "
            + ("; ".join(f"{i}: {price_note(q, caveat=False)}" for i, q in used) or "no price")
            + ". Published as ")
    note += nodes.Text(text)
    note += nodes.literal(table.path, table.path)
    note += nodes.Text(" in ")
    note += source_ref(ctx, table.source)
    note += nodes.Text(".")
    if unsaid := unstated_note(q for _, q in used):  # once for the table's prices
        note += nodes.Text(f" {unsaid}")
    return note


class InferencePerformance(_Performance):
    kind = "inference"


class TrainingPerformance(_Performance):
    kind = "training"


def setup_published_tables(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "inference-performance", InferencePerformance)
    app.add_directive_to_domain("neuron", "training-performance", TrainingPerformance)
    app.add_directive_to_domain("neuron", "measured-models", MeasuredModels)
