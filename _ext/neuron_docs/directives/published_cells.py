"""The rows of the published-performance tables: which columns a table shows, and each cell.

A table shows the columns its runs fill (an empty column is left out), the reader's first: model
(linked to its family), the configuration in a few words, the headline figure (throughput in its own
unit; in a latency-optimized table its first latency) and each cost per 1M with its price basis
(:data:`~neuron_docs.data.figures.derived.PUBLISHED_COSTS`, read from the data set's derived costs);
after the headline figure its change since the previous Neuron release that measured the row's
configuration (:func:`~neuron_docs.data.published.history_view.since_previous`), linked to the
configuration's place in the benchmark history; then the details in the order of the published
pages: framework, instance, image size, the other figures, every field of the configuration, the
release the change is measured from, the script. Figures print as published, rounded to two
decimals when published with more; each cell is a :class:`~neuron_docs.render.table_model.TableCell`
(docutils nodes or text, never markup, and its words in the CSV). Used by :mod:`.published_tables` and
tested cell by cell against the data.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING

from docutils import nodes

from ..data.records.labels import CONFIG_TEXT, METRICS, PRICE_BASIS_TEXT, TRAINING_CONFIG_TEXT
from ..data.published.columns import ENUM_TEXT
from ..data.records.published import PublishedInferenceRun, PublishedTrainingRun
from ..data.figures.formatting import change_value, cost_value, figure_value, shown_change, shown_cost, shown_figure
from ..data.figures.identity import identities
from ..data.figures.derived import PUBLISHED_COSTS
from ..state.domain import xref
from ..render.table_model import TableCell, count, figure, linked, text

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..data import Catalog
    from ..data.figures.derived import Derived
    from ..data.figures.prices import PriceQuote
    from ..data.figures.runs import CostFigure
    from ..data.published.history_view import SincePrevious

    Run = PublishedInferenceRun | PublishedTrainingRun

#: A published script cell: ```Label <https://...>`_`` or roles such as ``:ref:`Label <target>```.
_LINK = re.compile(r"^`(?P<label>[^<`]+?)\s*<(?P<url>https://[^>\s]+)>`__?$")
_MARKUP = re.compile(r"(?::[\w:-]+:)?`(?P<label>[^<`]+?)(?:\s*<[^>]*>)?`_{0,2}")


def figure_text(value: Decimal | int | None) -> str:
    """A figure as every table, CSV and chart prints it (:func:`~neuron_docs.data.figures.formatting.shown_figure`)."""
    return "" if value is None else shown_figure(value)


def cost_text(cost: CostFigure[PriceQuote] | None) -> str:
    """A cost as every table prints it: ``$0.026``, ``$9,176.60``
    (:func:`~neuron_docs.data.figures.formatting.shown_cost`)."""
    return "" if cost is None else shown_cost(cost.usd)


def figure_cell(value: Decimal | int | None, unit: str = "") -> TableCell:
    """A measured figure (:func:`figure_text`), with its unit after it when given, and the number it shows."""
    if value is None:
        return text("")
    words = figure_text(value)
    return figure(f"{words} {unit}" if unit else words, figure_value(value), unit)


def cost_cell(cost: CostFigure[PriceQuote] | None) -> TableCell:
    """A cost (:func:`cost_text`) and the number it shows, in USD."""
    return text("") if cost is None else figure(cost_text(cost), cost_value(cost.usd), "USD")


def script_cell(script: str | None) -> TableCell:
    """The benchmark script or tutorial: a link when the cell holds one, else its label."""
    if not script:
        return text("")
    link = _LINK.match(script.strip())
    if link:
        return TableCell(nodes.reference(link["label"], link["label"], refuri=link["url"]), link["label"])
    return text(_MARKUP.sub(lambda m: m["label"], script).strip())


def model_cell(catalog: Catalog, name: str) -> TableCell:
    """The model, linked to its family's canonical place when its identity (``models.yaml``) has one."""
    identity = identities(catalog).of_published(name)
    return linked("family", identity.family, name) if identity else text(name)


def _config(run: Run, field: str) -> TableCell:
    """A field of the configuration: its words, a number (a batch size, a count) with its value."""
    value = getattr(run, field, None)
    if value is None:
        return text("")
    words = ENUM_TEXT.get(field, {}).get(value, str(value))
    if isinstance(value, int) and not isinstance(value, bool) and words == str(value):
        return count(value)
    if isinstance(value, float | Decimal) and words == str(value) and "e" not in words.lower():
        return figure(words, float(value))
    return text(words)


def throughput_field(runs: Sequence[Run]) -> str | None:
    """The throughput field of a table's runs (the first run's; a table has one unit)."""
    found = next((r.throughput() for r in runs if r.throughput()), None)
    return found[0] if found else None


#: The column that names a run's configuration in a few words (instance, batch size, image size and
#: what tells the runs of a model apart; training: nodes and parallelism), as the chart labels its bars.
CONFIGURATION = "configuration"
#: The column of the headline figure's change since the previous Neuron release that measured the
#: configuration (``+3.1%`` and, small, ``since 2.18.0``: a CSV has the number), and the details
#: column naming that release. A table shows them when a row has one.
SINCE = "change_since_previous"
PREVIOUS = "previous_release"


def inference_columns(runs: Sequence[PublishedInferenceRun], view: str | None = None) -> list[str]:
    """The fields a table of ``runs`` shows, in page order (a field no run fills is left out): the
    reader's columns first (:func:`key_columns`), then the rest as published."""
    def filled(field: str) -> bool:
        return any(getattr(r, field, None) is not None for r in runs)

    throughput = throughput_field(runs)
    latencies = [f for f in METRICS if f.endswith("_ms") and filled(f)]
    headline = latencies[:1] if view == "latency" else []
    config = [f for f in CONFIG_TEXT if filled(f)]
    figures = [*headline, *([throughput] if throughput and not headline else [])]
    return ["model", CONFIGURATION, *figures, *([SINCE] if figures else []), *PUBLISHED_COSTS,
            "framework", "instance", *(["image_size"] if filled("image_size") else []),
            *(["task"] if filled("task") else []),
            *[f for f in [throughput, *latencies] if f and f not in figures], *config,
            *([PREVIOUS] if figures else []), *(["script"] if filled("script") else [])]


def training_columns(runs: Sequence[PublishedTrainingRun]) -> list[str]:
    def filled(field: str) -> bool:
        return any(getattr(r, field, None) is not None for r in runs)

    config = [f for f in TRAINING_CONFIG_TEXT if filled(f)]
    extra = [f for f in ("mfu_percent", "compute_cost_per_token_tflop") if filled(f)]
    return ["model", CONFIGURATION, "throughput_sequences_per_s", SINCE, *PUBLISHED_COSTS, "instances", *config,
            *extra, PREVIOUS, *(["script"] if filled("script") else [])]


def headline_field(fields: Sequence[str]) -> str | None:
    """The headline figure of a table of ``fields`` (as :func:`inference_columns` and
    :func:`training_columns` order them): its first measured figure."""
    return next((f for f in fields if f in METRICS), None)


def key_columns(fields: Sequence[str]) -> list[str]:
    """The reader's columns of a table of ``fields`` (as :func:`inference_columns` orders them):
    model, configuration, the headline figure and its costs, the leading columns up to the last
    cost. The others are details, shown on request."""
    last_cost = max((i for i, f in enumerate(fields) if f in PUBLISHED_COSTS), default=-1)
    return list(fields[:last_cost + 1])


def wide_only_columns(fields: Sequence[str]) -> list[str]:
    """The reader's columns that a narrow screen (a phone) leaves behind the column chooser, so that
    model, configuration, the headline figure and its cost stay in view: the change since the
    previous release."""
    return [f for f in fields if f == SINCE]


def header(field: str, runs: Sequence[Run]) -> str:
    """The column header of ``field``: a figure with its unit, a cost with what it is per and its basis."""
    if field in PUBLISHED_COSTS:
        basis = PUBLISHED_COSTS[field]
        per = next((r.cost_basis for r in runs if r.cost_basis), "1M")
        return f"Cost per {per} ({PRICE_BASIS_TEXT.get(basis, basis)})"
    if field in METRICS:
        metric = METRICS[field]
        return f"{metric.label} ({metric.unit})"
    named = {"model": "Model", CONFIGURATION: "Configuration", SINCE: "Change since previous release",
             PREVIOUS: "Previous release", "image_size": "Image size", "framework": "Framework", "instance": "Instance",
             "instances": "Instances", "task": "Task", "script": "Script"}
    return named.get(field) or CONFIG_TEXT.get(field) or TRAINING_CONFIG_TEXT.get(field) or field


def since_cell(found: SincePrevious | None) -> TableCell:
    """The headline figure's change since the previous release that measured the configuration:
    ``+3.1%`` linked to the configuration's place in the benchmark history, ``since 2.18.0`` beside it
    (left out of the CSV, whose number it is), and its judgement across releases in words (steady,
    improved, regressed, suspect point, unstable series: the one rule, :mod:`..data.published.judgement`;
    a suspect point is never the release compared with); empty without an earlier release."""
    if found is None:
        return text("")
    verdict = "unchanged" if found.better is None else "better" if found.better else "worse"
    judged = JUDGED_WORDS.get(found.judged, found.judged)
    change = shown_change(found.ratio)
    since = f"since {found.previous_version} "
    # inside "since": the CSV, which has the number, leaves both out
    return figure(change, change_value(found.ratio), "%", [
        xref("benchmark", found.configuration, change, classes=[f"neuron-change-{verdict}"]), nodes.Text(" "),
        nodes.inline("", "", nodes.Text(since), nodes.inline(f"({judged})", f"({judged})",
                                                             classes=["neuron-judged", f"neuron-judged-{found.judged}"]),
                     classes=["neuron-since"])])


#: The judgement of a figure across releases in the change column (the rule: What's new's "How a change is judged").
JUDGED_WORDS = {"improved": "improved", "regressed": "regressed", "suspect": "suspect point",
                "unstable": "unstable series", "steady": "steady"}


def previous_cell(found: SincePrevious | None) -> TableCell:
    """The release the change is measured from (a details column: the CSV's copy of "since")."""
    return text(found.previous_version if found else "")


def cell(derived: Derived, run: Run, field: str) -> TableCell:
    """One cell of ``run``'s row."""
    catalog = derived.catalog
    if field == "model":
        return model_cell(catalog, run.model)
    if field == "framework":
        name, version = getattr(run, "framework_name", None), getattr(run, "framework_version", None)
        return text(f"{name} {version}" if name and version else (name or run.framework))
    if field == "instance" and isinstance(run, PublishedInferenceRun):
        return linked("instance", run.instance, run.instance)
    if field == "instances" and isinstance(run, PublishedTrainingRun):
        links: list[nodes.Node] = []
        for i in run.instances:
            links += [nodes.Text(", ")] if links else []
            links.append(xref("instance", i, i))
        return TableCell(links, ", ".join(run.instances))
    if field in PUBLISHED_COSTS:
        return cost_cell(derived.published_cost(run, PUBLISHED_COSTS[field]))
    if field == "script":
        return script_cell(run.script)
    if field in METRICS:
        return figure_cell(getattr(run, field))
    return _config(run, field)
