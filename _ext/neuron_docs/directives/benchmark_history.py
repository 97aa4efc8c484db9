"""The published benchmarks across releases: ``.. neuron:benchmark-history:: <generation>``.

It gives every configuration of a generation (``data/benchmarks/history/``) its block (the canonical
place of the ``neuron:benchmark`` object): a table of its figures release by release (each by the
display rule of the performance tables, :func:`~neuron_docs.data.figures.formatting.shown_figure`),
with the cost per 1M at the price in force when they were published (and which price that was), and
a chart of its throughput when at least three releases measured it. What's new's list of what each
release changed (``neuron:benchmark-changes``, :mod:`.whats_new`) links to these blocks.

Hundreds of configurations would make large docutils trees that every transform walks: they are
written as HTML from jinja2 templates (``templates/``, autoescaped) in a node that only HTML builders
write and the search does not index (:class:`neuron_history_html`). The page hosts its objects
(:mod:`..state.hosted`): the configurations are registered from the data once every page has been
read, and rendered when the page is written, so a new release rewrites the pages it changed and
reads none again. Nothing here is typed by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import jinja2
from docutils import nodes
from docutils.parsers.rst import directives
from markupsafe import Markup

from ..data.published.history_files import HISTORY_FILES
from ..data.published.history_view import HistoryIndex, Release, describe_configuration
from ..data.figures.formatting import shown_cost, shown_figure, shown_measure, shown_price
from ..data.records.labels import GENERATION_TEXT, METRICS, PRICE_BASIS_TEXT, THROUGHPUT_FIELDS
from ..data.record_keys import history_configurations_key, history_figures_key
from ..render.placeholder import RenderContext, add_renderers, defer, renderer
from ..state.dependencies import uses
from ..state.domain import anchor_for
from ..state.hosted import HostedType, Place, add_hosted_type, note_host, places
from .base import DataDirective
from .charts.svg import PALETTE, Bar, Chart, Group, Panel, render_svg

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

    from ..data import Catalog
    from ..data.records import history as hs

#: The chart colour of a configuration's throughput (one series).
SERIES = "Throughput"
#: A configuration's throughput is charted from this many releases (fewer: the table says it all).
CHART_RELEASES = 3
#: The page of a generation's history.
HISTORY_PAGE = "history/{generation}"
TEMPLATES = Path(__file__).parent / "templates"


def _unit(metric: str) -> str:
    return METRICS[metric].unit


class neuron_history_html(nodes.General, nodes.Element):  # noqa: N801 - docutils node naming
    """HTML made from a template of this module (autoescaped), written as is by HTML builders and
    skipped by the others; unlike a ``raw`` node, the search index does not read it (hundreds of
    tables and charts of figures)."""


def _visit_html(self: HTML5Translator, node: neuron_history_html) -> None:
    self.body.append(node["html"])
    raise nodes.SkipNode


def _skip(self: object, node: nodes.Element) -> None:
    raise nodes.SkipNode


@cache
def template(name: str) -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    return env.get_template(name)


def history_page(generation: str) -> str:
    """The page that holds a generation's history (the configurations' canonical places)."""
    return HISTORY_PAGE.format(generation=generation)


@dataclass(frozen=True)
class HistoryParams:
    """A generation's history page: the generation."""

    generation: str


def configuration_places(catalog: Catalog, generation: str) -> list[Place]:
    """A generation's configurations, in the order its page shows them (view, model, configuration)."""
    described = sorted(((c, describe_configuration(c)) for c in catalog.benchmark_configurations.values()
                        if c.generation == generation),
                       key=lambda cd: (cd[0].view, cd[0].model.lower(), cd[1], cd[0].id))
    return [Place(c.id, anchor_for("benchmark", c.id), title) for c, title in described]


class BenchmarkHistory(DataDirective):
    """Every configuration of one generation: its figures across releases, a table and a chart.

    Hundreds of configurations make one page: they are written as HTML from a jinja2 template
    (autoescaped; the charts are :func:`.charts.svg.render_svg`'s) in one node, and not as
    sections, so that they stay out of the navigation; each is still the ``neuron:benchmark``
    object's canonical place. The page hosts them (:mod:`..state.hosted`): they are registered
    from the data once every page has been read, and rendered when the page is written (it shows
    :func:`.record_keys.history_configurations_key` and :func:`.record_keys.history_figures_key`),
    so a new release, new configurations included, rewrites the pages of the generations it
    changed and reads none again.
    """

    required_arguments = 1
    option_spec: ClassVar = {"no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        generation = self.arguments[0]
        if generation not in GENERATION_TEXT:
            uses(self, *HISTORY_FILES)
            self.warn(f"unknown generation {generation!r}; expected one of: {', '.join(GENERATION_TEXT)}")
            return []
        indexed = "no-index" not in self.options
        placeholder = defer(self, render_history, HistoryParams(generation),
                            [history_configurations_key(generation), history_figures_key(generation)])
        note_host(self.env, placeholder, "benchmark", generation, indexed)
        return [placeholder]


@renderer("benchmark-history", tables=False)
def render_history(context: RenderContext, params: HistoryParams) -> list[nodes.Node]:
    """The generation's configurations, in the order of their places, with their figures of this build."""
    catalog = context.catalog
    found = places(context.env, "benchmark", params.generation)
    if not found:
        text = f"No {GENERATION_TEXT[params.generation]} figure has been published yet."
        return [nodes.paragraph(text, text)]
    index = HistoryIndex.of(catalog)
    charts = context.env.app.builder.name != "epub"
    configs = catalog.benchmark_configurations
    blocks = [_block(catalog, index, configs[place.name], place, charts) for place in found]
    # ``blocks``: the same content as data, for the builders that do not write this HTML (site.html_only)
    return [neuron_history_html(html=template("benchmark-history.html.jinja").render(configurations=blocks),
                                blocks=blocks)]


def _block(catalog: Catalog, index: HistoryIndex, config: hs.BenchmarkConfiguration, place: Place,
           charts: bool) -> dict[str, Any]:
    title, anchor = place.title, place.anchor
    found = index.releases_of(config.id)
    first = catalog.benchmark_states.get(config.first_state)
    intro = f"First published on {config.first_published}"
    intro += f" ({first.subject})" if first and first.subject else ""
    intro += (f"; withdrawn on {config.withdrawn} (last seen {config.last_seen})." if config.withdrawn
              else "; still published.")
    intro += f" Last published in {config.file}."
    metrics = [m for m in METRICS if any(m in r.figures for r in found)]
    per = next((r.cost.per for r in found if r.cost), None)
    headers = ["Neuron release", "First published", "Last seen",
               *(f"{METRICS[m].label} ({_unit(m)})" for m in metrics),
               *([f"Cost per {per}", "Price in force"] if per else [])]
    chart = _chart(config, found)
    chart_id = f"{anchor}-chart"
    return {"anchor": anchor, "title": title, "intro": intro, "headers": headers,
            "rows": [_row(r, metrics, per is not None) for r in reversed(found)],
            # ElementTree's escaped SVG; an ePub leaves the charts out (its pages take no inline SVG)
            "svg": Markup(render_svg(chart, chart_id, {SERIES: PALETTE[0]}))  # noqa: S704
            if chart and charts else None,
            "chart_title": chart.title if chart else "", "chart": chart}


def _row(release: Release, metrics: list[str], costs: bool) -> list[str]:
    cells = [release.version, release.first_published.isoformat(),
             "still published" if release.last_seen is None else f"{release.last_seen} ({release.status})"]
    for metric in metrics:
        value = release.figures.get(metric)
        text = shown_figure(value) if value is not None else ""
        if metric in release.corrected:
            text += " (corrected from " + ", ".join(shown_figure(v) for v in release.corrected[metric]) + ")"
        cells.append(text)
    if costs:
        cost = release.cost
        cells.append(shown_cost(cost.usd) if cost else "no price published then")
        cells.append(f"{PRICE_BASIS_TEXT[cost.price.basis]} {shown_price(cost.price.usd_per_hour)}"
                     + (f" x {cost.nodes} nodes" if cost.nodes > 1 else "")
                     + f", published {cost.price.first_published}" if cost else "")
    return cells


def _chart(config: hs.BenchmarkConfiguration, found: list[Release]) -> Chart | None:
    metric = next((m for m in THROUGHPUT_FIELDS if any(m in r.figures for r in found)), None)
    points = [r for r in found if metric and metric in r.figures]
    if metric is None or len(points) < CHART_RELEASES:
        return None
    groups = tuple(Group(r.version, (Bar(r.first_published.isoformat(), float(r.figures[metric]),
                                         shown_measure(r.figures[metric], _unit(metric)), SERIES),))
                   for r in points)
    panel = Panel(f"{METRICS[metric].label} ({_unit(metric)}), by Neuron release", groups)
    return Chart(config.id, f"{config.model}: throughput across Neuron releases", (panel,),
                 group_header="Neuron release", bar_header="First published")


def setup_benchmark_history(app: Sphinx) -> None:
    add_renderers(app, render_history)
    add_hosted_type(app, HostedType("benchmark", configuration_places, sections=False))
    skip = (_skip, None)
    app.add_node(neuron_history_html, html=(_visit_html, None), latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_directive_to_domain("neuron", "benchmark-history", BenchmarkHistory)
