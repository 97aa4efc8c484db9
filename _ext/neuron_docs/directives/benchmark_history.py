"""The published benchmarks across releases: ``.. neuron:benchmark-history:: <generation>``.

It gives every configuration of a generation (``data/benchmarks/history/``) its place (the canonical
place of the ``neuron:benchmark`` object): in a web build, a row of the generation's compact index
(model, instance, kind, the releases, the latest figure and its series' judgement) that filters by
model, instance and kind (the filters are the URL's query: ``?model=...&instance=...&kind=...``,
``static/neuron-history.js``), linking to its block on the model's page (``history/<generation>/<model>``,
written at ``html-collect-pages`` from the data, so a new release or a new model re-reads no page). A
block is a table of the figures release by release (each by the display rule of the performance
tables, :func:`~neuron_docs.data.figures.formatting.shown_figure`, with its judgement,
:meth:`~neuron_docs.data.published.history_view.BenchmarkHistoryIndex.judgement`: a suspect point marked),
with the cost per 1M at the price in force when they were published (and which price that was), and
a chart of its throughput when at least three releases measured it; table and chart oldest release
first. Builders of one file or of a package (singlehtml, ePub) get the blocks on the page itself.
What's new's list of what each release changed (``neuron:benchmark-changes``, :mod:`.whats_new`)
links to the places.

Hundreds of configurations would make large docutils trees that every transform walks: they are
written as HTML from jinja2 templates (``templates/``, autoescaped) in a node that only HTML builders
write and the search does not index (:class:`neuron_history_html`). The page hosts its objects
(:mod:`..state.hosted`): the configurations are registered from the data once every page has been
read, and rendered when the page is written, so a new release rewrites the pages it changed and
reads none again. Nothing here is typed by hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import jinja2
from docutils import nodes
from docutils.parsers.rst import directives
from markupsafe import Markup
from sphinx.util.osutil import relative_uri

from ..data.catalog import HISTORY_FILES
from ..data.published.history_view import COST, BenchmarkHistoryIndex, Release, describe_configuration
from ..data.published.judgement import SeriesJudgement
from ..data.figures.formatting import shown_cost, shown_figure, shown_measure, shown_price
from ..data.records.labels import GENERATION_TEXT, METRICS, PRICE_BASIS_TEXT, THROUGHPUT_FIELDS
from ..data.record_keys import history_configurations_key, history_figures_key
from ..render.placeholder import RenderContext, defer, renderer
from ..render.tables import broken_notice
from ..render.assets import add_script
from ..state.build import is_html
from ..state.domain import dataset
from ..state.dependencies import uses
from ..state.domain import anchor_for
from ..state.hosted import HostedPlace, HostedType, add_hosted_type, hosts, note_host, places
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
#: The page of a generation's history (its index of configurations).
HISTORY_PAGE = "history/{generation}"
#: A model's page of a generation's history, under the page that hosts the generation's places (its
#: index): its configurations' tables and charts (``html-collect-pages``).
MODEL_PAGE = "{host}/{model}"
#: The page that states the judgement's rule (``.. _benchmark-judgement:``).
RULE_PAGE = "whats-new"
#: The index's filter script (the filters are the URL's query).
JS_FILE = "neuron-history.js"
#: Builders that write one page per document, and so the models' pages.
PAGED_BUILDERS = ("html", "dirhtml")
#: The words of a judgement in a table cell (:mod:`..data.published.judgement`); steady and first say nothing.
JUDGED_TEXT = {"improved": "improved", "regressed": "regressed", "suspect": "suspect point", "unstable": "unstable"}
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


def configuration_places(catalog: Catalog, generation: str) -> list[HostedPlace]:
    """A generation's configurations, in the order its page shows them (view, model, configuration)."""
    described = sorted(((c, describe_configuration(c)) for c in catalog.benchmark_configurations.values()
                        if c.generation == generation),
                       key=lambda cd: (cd[0].view, cd[0].model.lower(), cd[1], cd[0].id))
    return [HostedPlace(c.id, anchor_for("benchmark", c.id), title) for c, title in described]


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


def model_slug(model: str) -> str:
    """A model's part of its page name: ``BERT base (bert-base-cased)`` -> ``bert-base-bert-base-cased``."""
    return re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-") or "model"


def model_page(generation: str, model: str, host: str | None = None) -> str:
    """The page of a generation's configurations of ``model`` (their tables and charts), under the page
    ``host`` that hosts the generation's places (by default its history page)."""
    return MODEL_PAGE.format(host=host or history_page(generation), model=model_slug(model))


def history_host(env: Any, generation: str) -> str | None:
    """The page that hosts the generation's places (the canonical one, not a ``:no-index:`` copy)."""
    return next((doc for doc, found in sorted(hosts(env).items())
                 if any(k == "benchmark" and scope == generation and indexed for k, scope, _, indexed in found)), None)


def _paged(builder_name: str) -> bool:
    return builder_name in PAGED_BUILDERS


@renderer("benchmark-history", tables=False)
def render_history(context: RenderContext, params: HistoryParams) -> list[nodes.Node]:
    """The generation's configurations, in the order of their places, with their figures of this
    build: the index (a web build; the blocks on the models' pages), else every block."""
    catalog = context.catalog
    found = places(context.env, "benchmark", params.generation)
    if not found:
        text = f"No {GENERATION_TEXT[params.generation]} figure has been published yet."
        return [nodes.paragraph(text, text)]
    index = BenchmarkHistoryIndex.of(catalog)
    builder = context.env.app.builder
    configs = catalog.benchmark_configurations
    set_aside = _set_aside(catalog, params.generation)
    if _paged(builder.name):
        here = builder.get_target_uri(context.docname)
        host = history_host(context.env, params.generation) or context.docname
        rows = [_index_row(index, configs[p.name], p, relative_uri(here, builder.get_target_uri(
            model_page(params.generation, configs[p.name].model, host)))) for p in found]
        html = template("benchmark-history-index.html.jinja").render(
            rows=rows, generation=GENERATION_TEXT[params.generation],
            filters=[("model", "Model", sorted({r["model"] for r in rows}, key=str.lower)),
                     ("instance", "Instance", sorted({r["instance"] for r in rows})),
                     ("kind", "Kind", sorted({r["kind"] for r in rows}))])
        return [neuron_history_html(html=html), *set_aside]
    charts = builder.name != "epub"
    blocks = [_block(catalog, index, configs[place.name], place, charts) for place in found]
    # ``blocks``: the same content as data, for the builders that do not write this HTML (site.html_only)
    return [neuron_history_html(html=template("benchmark-history.html.jinja").render(configurations=blocks),
                                blocks=blocks), *set_aside]


def _set_aside(catalog: Catalog, generation: str) -> list[nodes.Node]:
    """The Data problem box of the generation's configurations set aside (a record of theirs failed
    validation, or one they name did), with the count of their figures missing with them: their
    model's page is not made, this page says why."""
    prefix = f"{generation}-"
    configurations = [b for b in catalog.broken if b.collection == "benchmark_configurations"
                      and (b.record_id or "").startswith(prefix)]
    figures = [b for b in catalog.broken if b.collection == "benchmark_observations"
               and (b.record_id or "").startswith(prefix)]
    if not configurations:
        return broken_notice(figures, intro="These published figures failed validation and are missing above:")
    return broken_notice(configurations, intro=f"These configurations failed validation or name a record that "
                         f"did; they are missing above, with their {len(figures)} figures:")


def _summary(judged: SeriesJudgement) -> str:
    """A series' judgement in a few words: ``unstable (70.1 to 126.5)``, ``2 suspect points; level since 2.10.0``."""
    if judged.spread is not None:
        return f"unstable ({shown_figure(judged.spread[0])} to {shown_figure(judged.spread[1])})"
    parts = []
    suspects = sum(p.kind == "suspect" for p in judged.points)
    steps = [p for p in judged.points if p.kind in ("improved", "regressed")]
    if steps:
        parts.append(f"{steps[-1].kind} in {steps[-1].version}")
    if suspects:
        parts.append(f"{suspects} suspect point{'s' if suspects > 1 else ''}")
    since = judged.holds_since()
    if since and len(judged.points) > 1:
        parts.append(f"level since {since}")
    return "; ".join(parts)


def _index_row(index: BenchmarkHistoryIndex, config: hs.BenchmarkConfiguration, place: HostedPlace, page: str) -> dict[str, Any]:
    """A configuration's row of the index: what filters it, its releases, its latest figure, its judgement."""
    found = index.releases_of(config.id)
    metric = index.throughput_metric(config.id)
    latest = next((r.figures[metric] for r in reversed(found) if metric and metric in r.figures), None)
    kind = f"{config.kind}, {config.view}" if config.view else config.kind
    instance = config.instance or (config.instances or "").replace(";", "/")
    return {"anchor": place.anchor, "href": f"{page}#{place.anchor}", "title": place.title, "model": config.model,
            "instance": instance, "kind": kind,
            "releases": (f"{found[0].version} to {found[-1].version} ({len(found)})" if len(found) > 1
                         else found[0].version if found else ""),
            "latest": shown_measure(latest, _unit(metric)) if latest is not None and metric else "",
            "judged": _summary(index.judgement(config.id, metric)) if metric else "",
            "status": "still published" if config.withdrawn is None else f"withdrawn {config.withdrawn}"}


def model_pages(catalog: Catalog, generation: str, host: str, uri: Any, rule_page: str | None = None
                ) -> Iterable[tuple[str, str, str]]:
    """``(page name, title, body HTML)`` of each model's page of ``generation``; ``uri(here, page)`` is
    the relative link from a model's page to ``page`` (a document); ``rule_page`` states the judgement."""
    index = BenchmarkHistoryIndex.of(catalog)
    by_model: dict[str, list[HostedPlace]] = {}
    configs = catalog.benchmark_configurations
    for place in configuration_places(catalog, generation):
        by_model.setdefault(model_page(generation, configs[place.name].model, host), []).append(place)
    for page, found in by_model.items():
        model = configs[found[0].name].model
        title = f"{model} on {GENERATION_TEXT[generation]} across Neuron releases"
        blocks = [_block(catalog, index, configs[p.name], p, True) for p in found]
        body = template("benchmark-history-model.html.jinja").render(
            title=title, slug=model_slug(model), configurations=blocks, back=uri(page, host),
            rule=uri(page, rule_page) + "#benchmark-judgement" if rule_page else None,
            generation=GENERATION_TEXT[generation])
        yield page, title, body


def collect_model_pages(app: Sphinx) -> Iterable[tuple[str, dict[str, Any], str]]:
    """The models' pages of every generation whose history page this build has (web builds of a page
    per document)."""
    if not is_html(app) or not _paged(app.builder.name):
        return []
    catalog = dataset(app.env).catalog
    out = []
    for generation in GENERATION_TEXT:
        host = history_host(app.env, generation)
        if host is None:
            continue
        for page, title, body in model_pages(
                catalog, generation, host, lambda here, doc: relative_uri(app.builder.get_target_uri(here),
                                                                    app.builder.get_target_uri(doc)),
                RULE_PAGE if RULE_PAGE in app.env.found_docs else None):
            out.append((page, {"title": title, "body": body}, "page.html"))
    return out


def _block(catalog: Catalog, index: BenchmarkHistoryIndex, config: hs.BenchmarkConfiguration, place: HostedPlace,
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
    judged = {m: index.judgement(config.id, m) for m in metrics}
    per = next((r.cost.per for r in found if r.cost), None)
    if per:
        judged[COST] = index.judgement(config.id, COST)
    notes = [f"{METRICS[m].label if m in METRICS else 'Cost'}: {_summary(j)}" for m, j in judged.items() if _summary(j)]
    headers = ["Neuron release", "First published", "Last seen",
               *(f"{METRICS[m].label} ({_unit(m)})" for m in metrics),
               *([f"Cost per {per}", "Price in force"] if per else [])]
    chart = _chart(config, found, judged)
    chart_id = f"{anchor}-chart"
    return {"anchor": anchor, "title": title, "intro": intro, "headers": headers, "notes": notes,
            # oldest release first, as the chart
            "rows": [_row(r, metrics, per is not None, judged) for r in found],
            # ElementTree's escaped SVG; an ePub leaves the charts out (its pages take no inline SVG)
            "svg": Markup(render_svg(chart, chart_id, {SERIES: PALETTE[0]}))  # noqa: S704
            if chart and charts else None,
            "chart_title": chart.title if chart else "", "chart": chart}


def _judged(judged: SeriesJudgement | None, version: str) -> str:
    point = judged.of(version) if judged else None
    return f" ({JUDGED_TEXT[point.kind]})" if point and point.kind in JUDGED_TEXT else ""


def _row(release: Release, metrics: list[str], costs: bool, judged: dict[str, SeriesJudgement]) -> list[str]:
    cells = [release.version, release.first_published.isoformat(),
             "still published" if release.last_seen is None else f"{release.last_seen} ({release.status})"]
    for metric in metrics:
        value = release.figures.get(metric)
        text = shown_figure(value) if value is not None else ""
        if metric in release.corrected:
            text += " (corrected from " + ", ".join(shown_figure(v) for v in release.corrected[metric]) + ")"
        if value is not None:
            text += _judged(judged.get(metric), release.version)
        cells.append(text)
    if costs:
        cost = release.cost
        cells.append(shown_cost(cost.usd) + _judged(judged.get(COST), release.version) if cost
                     else "no price published then")
        cells.append(f"{PRICE_BASIS_TEXT[cost.price.basis]} {shown_price(cost.price.usd_per_hour)}"
                     + cost.nodes_text
                     + f", published {cost.price.first_published}" if cost else "")
    return cells


def _chart(config: hs.BenchmarkConfiguration, found: list[Release],
           judged: dict[str, SeriesJudgement] | None = None) -> Chart | None:
    metric = next((m for m in THROUGHPUT_FIELDS if any(m in r.figures for r in found)), None)
    points = [r for r in found if metric and metric in r.figures]
    if metric is None or len(points) < CHART_RELEASES:
        return None
    series = (judged or {}).get(metric)
    groups = tuple(Group(r.version + _judged(series, r.version),
                         (Bar(r.first_published.isoformat(), float(r.figures[metric]),
                              shown_measure(r.figures[metric], _unit(metric)), SERIES),))
                   for r in points)
    panel = Panel(f"{METRICS[metric].label} ({_unit(metric)}), by Neuron release", groups)
    return Chart(config.id, f"{config.model}: throughput across Neuron releases", (panel,),
                 group_header="Neuron release", bar_header="First published")


def add_history_script(app: Sphinx) -> None:
    """The history pages' script, on the pages of an HTML build."""
    if is_html(app):
        add_script(app, JS_FILE)


def setup_benchmark_history(app: Sphinx) -> None:
    add_hosted_type(app, HostedType("benchmark", configuration_places, sections=False))
    skip = (_skip, None)
    app.add_node(neuron_history_html, html=(_visit_html, None), latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_directive_to_domain("neuron", "benchmark-history", BenchmarkHistory)
