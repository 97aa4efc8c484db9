"""Will it fit? How large a model each NeuronCore count holds, and the estimate checked against every run.

- ``.. neuron:fit-table::`` (``:device:`` for one device) — per tensor-parallel degree (with a
  device) or per instance (without), the device memory of its NeuronCores and the largest model they
  hold at each data type the device has, by the estimate of :mod:`..data.figures.fit` (weights and
  headroom; a decoder's KV cache comes on top: the advisor counts it for a sequence length and batch).
  The device pages show it through their prose slot ``_devices/<id>/instances.rst``, the instances
  page under its table: no generated page or template is changed for it.
- ``.. neuron:fit-check::`` — the estimate checked against every published run: how many fit, the
  tightest, what headroom the runs allow, which models have no size (not checked).

A published run the estimate says cannot fit is a located warning (``neuron.fit``) at its line of
the data when the build starts, naming the run and its numbers. No figure is typed: both tables are
rendered when the page is written, from ``model_sizes.yaml`` and the devices and instances.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging

from ..data.catalog import FILES
from ..data.figures.fit import HEADROOM_PERCENT, FitInstance, check_runs, misfit_message, places
from ..data.figures.formatting import memory_figure, parameters_figure, shown_memory, shown_parameters
from ..data.record_keys import PUBLISHED_RUNS_KEYS, file_key
from ..data.records.model_sizes import DTYPE_BYTES
from ..render.placeholder import RenderContext, defer, renderer
from ..render.table_model import TableCell, TableModel, count, figure, text
from ..state.domain import state
from .base import DataDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

#: What the tables show: every file the estimate reads (sizes, devices, instances, published runs).
FIT_FILES = tuple(spec.name for spec in FILES if spec.name in (
    "model_sizes.yaml", "devices.yaml", "instances.yaml", "sources.yaml", "benchmarks/published/models.yaml",
    "models.yaml"))
#: ... and the keys of what the tables show: those files and the current published runs.
FIT_KEYS = [*(file_key(n) for n in FIT_FILES), *PUBLISHED_RUNS_KEYS]
#: The data types a table's columns show, largest first, when the device has them.
SHOWN_TYPES = ("FP32", "BF16", "FP8")


@dataclass(frozen=True)
class FitParams:
    device: str | None


class FitTable(DataDirective):
    option_spec: ClassVar = {**DataDirective.option_spec, "device": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        return [defer(self, render_fit_table, FitParams(self.options.get("device")), FIT_KEYS)]


def largest_model(memory: int, data_type: str) -> int:
    """The most parameters ``memory`` bytes hold at ``data_type`` with the headroom: weights x (1 + headroom)."""
    return memory * 100 // (DTYPE_BYTES[data_type] * (100 + HEADROOM_PERCENT))


def _memory(size_bytes: int) -> TableCell:
    return figure(shown_memory(size_bytes), *memory_figure(size_bytes))


def _parameters(parameters: int) -> TableCell:
    return figure(shown_parameters(parameters), *parameters_figure(parameters))


@renderer("fit-table")
def render_fit_table(ctx: RenderContext, params: FitParams) -> list[nodes.Node]:
    options = places(ctx.catalog)
    if params.device is not None:
        if ctx.known("device", params.device, ctx.catalog.devices) is None:
            return []
        options = [p for p in options if p.device == params.device]
    if not options:
        return [nodes.paragraph(text="No instance of this device has a known device memory per NeuronCore.")]
    types = [t for t in SHOWN_TYPES if any(t in p.data_types for p in options)]
    headers = ["NeuronCores" if params.device else "Instance", "Device memory",
               *(f"Largest model at {t}" for t in types), "Instances" if params.device else "NeuronCores"]
    table = TableModel(headers, name=f"fit-{params.device or 'instances'}", classes=["neuron-fit-table"])
    if params.device:
        per_degree: dict[int, list[FitInstance]] = {}
        for place in options:
            for degree in place.degrees:
                per_degree.setdefault(degree, []).append(place)
        for degree, holders in sorted(per_degree.items()):
            memory = holders[0].memory(degree)
            table.add([count(degree), _memory(memory), *(_parameters(largest_model(memory, t)) for t in types),
                       text(", ".join(p.instance for p in holders))])
    else:
        for place in options:
            memory = place.memory(place.degrees[-1])
            table.add([text(place.instance), _memory(memory),
                       *(_parameters(largest_model(memory, t)) if t in place.data_types else text("—") for t in types),
                       count(place.degrees[-1])])
    note = (f"Estimated from the device memory, not measured: the weights (parameters x bytes of the data type) "
            f"and a {HEADROOM_PERCENT}% headroom for activations, the compiled program and the runtime. A "
            "decoder's KV cache (2 x layers x key-value heads x head size x sequence length x batch x bytes) "
            "comes on top: the advisor counts it for the sequence length and batch you give.")
    if any(p.degrees == (1,) and p.cores > 1 for p in options):
        note += (" On a first-generation device a model is held by one NeuronCore: NeuronCore-v1 has no tensor "
                 "parallelism.")
    return [table.table(), nodes.paragraph(text=note, classes=["neuron-fit-note"])]


class FitCheck(DataDirective):
    def run(self) -> list[nodes.Node]:
        return [defer(self, render_fit_check, FitParams(None), FIT_KEYS)]


@renderer("fit-check")
def render_fit_check(ctx: RenderContext, params: FitParams) -> list[nodes.Node]:
    checks, skipped = check_runs(ctx.catalog)
    fitting = [c for c in checks if c.fits]
    out = [nodes.paragraph(text=(
        f"The estimate is checked against every published run whose model has a size in the data: "
        f"{len(fitting)} of {len(checks)} runs fit the NeuronCores they used "
        f"({sum(c.collection == 'published_inference_runs' for c in checks)} inference runs, "
        f"{sum(c.collection == 'published_training_runs' for c in checks)} training runs); "
        f"{len(checks) - len(fitting)} do not."))]
    if checks:
        tightest = max(checks, key=lambda c: c.share)
        allowed = min(c.memory * 100 // (c.need * 100 // (100 + HEADROOM_PERCENT)) - 100 for c in checks)
        wider = sorted((c for c in checks if c.tensor_parallel and c.smallest_degree and c.smallest_degree < c.cores),
                       key=lambda c: -c.share)
        text = (f"The tightest is {tightest.model} on {tightest.instance} ({tightest.detail}: "
                f"{shown_memory(tightest.need)} of {shown_memory(tightest.memory)}). A headroom of up to "
                f"{allowed}% would still let every checked run fit; the estimate uses {HEADROOM_PERCENT}%. ")
        if wider:
            text += (f"{len(wider)} tensor-parallel inference runs use more NeuronCores than the estimate needs (the closest: "
                     f"{wider[0].model} on {wider[0].cores} NeuronCores, where {wider[0].smallest_degree} would "
                     "hold it): they were chosen for speed, and say nothing against the headroom. ")
        text += ("No run uses fewer NeuronCores than the estimate allows; one that did would show the headroom "
                 "too large, and is a build warning naming the run and its numbers.")
        out.append(nodes.paragraph(text=text))
    if skipped:
        models = sorted({why.removeprefix("no size of ") for _run, why in skipped})
        out.append(nodes.paragraph(text=(
            f"Not checked: {len(skipped)} runs of models without a size in the data ({', '.join(models)}): no "
            "source found gives their size, and the data says so, with why, rather than guess one.")))
    return out


def warn_misfits(app: Sphinx) -> None:
    """A located warning for every published run the estimate says cannot fit."""
    build = state(app.env)
    catalog = build.dataset.catalog
    checks, _skipped = check_runs(catalog)
    for check in checks:
        if check.fits:
            continue
        name, line = catalog.origin(check.collection, check.run)
        logger.warning("%s", misfit_message(check), location=f"{build.data_dir / name}:{line or ''}",
                       type="neuron", subtype="fit")


def setup_fit(app: Sphinx) -> None:
    app.add_directive_to_domain("neuron", "fit-table", FitTable)
    app.add_directive_to_domain("neuron", "fit-check", FitCheck)
