"""The advisor's slice of the data: per model family and device, fit, support, issues and the best runs.

"Which device for my model?" joins what lives on different pages: the architecture fit and its
rationale, the support status per framework, known issues and roadmap items (``families.yaml``,
``issues.yaml``), and the measured configurations (seed and published runs, costs read from the
data set's :class:`~.derived.Derived`). Comparisons are like for like (:func:`compare`): per device, the configurations of one model (its
identity, :mod:`.identity`; for a family, its representative model) with one task and shape, and
within those the best throughput, the best latency and the lowest cost, each its own configuration:
:func:`choose` is the one place that choice is made, for the advisor and for a device page's best
configuration of each family measured on the device (:func:`best_on_device`).
:func:`advisor_slice` computes it once, as plain JSON-ready values that the advisor page embeds and
its static table shows, with the keys of every model's and family's names for the script to look a
typed name up; no Sphinx here. Fit and support are read through :func:`support_cell` only. A
published run's sentences say since when its figures hold (the Neuron release that measured them
and its first publication), as the caller's ``held_since`` gives it from the benchmark history
(:func:`..published.history_view.held_since`, a room above this one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING

from .formatting import shown_cost, shown_measure
from .identity import GUIDELINES_DOC, identities
from ..records.labels import COST_BASIS, FIT_TEXT, METRICS, STATUS_TEXT, framework_header
from ..records.names import KEY_RULE, name_key
from .prices import ON_DEMAND_PRICE_BASIS, price_note, prices_of, unstated, unstated_sentences
from .runs import run_instance

if TYPE_CHECKING:
    from ..records import published as ps
    from ..records import models as s
    from ..catalog import Catalog
    from ..records.matrix import Cell
    from ..records.models import Family
    from .derived import Derived
    from .prices import PriceQuote
    from .runs import CostFigure

WORKLOADS = ("inference", "training")
#: Since when a published run's figures hold, in words (``Neuron 2.18.0 (first published 2024-04-11)``), or None.
type HeldSince = Callable[[ps.PublishedInferenceRun | ps.PublishedTrainingRun], str | None]
#: The runs a comparison chose: best throughput, best latency, lowest cost, lowest on-demand cost.
type Picked = tuple[Best | None, Best | None, Best | None, Best | None]
#: The fields of a published run that make its shape (beside its task and throughput unit).
SHAPE_FIELDS = ("sequence_length", "input_length", "output_length", "image_size")
#: Latency fields of a run, the first one set is its latency (p50 before tails, end-to-end before per token).
LATENCY_FIELDS = ("latency_p50_ms", "latency_p90_ms", "ttft_p50_ms", "latency_per_token_p50_ms", "latency_p99_ms")


@dataclass(frozen=True)
class SupportCell:
    """What the latest matrix says about a family on a device: fit, rationale, support per column."""

    fit: str
    rationale: str | None
    #: Column key (``framework/workload``) -> its cell.
    support: dict[str, Cell]
    #: Column key -> the revision date since which the cell holds its value.
    held_since: dict[str, str]
    #: The latest of those dates: since when the row reads as it does.
    since: str | None = None


def support_cell(catalog: Catalog, family_id: str, device_id: str) -> SupportCell | None:
    """The one place the advisor reads fit and support: None when no matrix covers the device."""
    fit = catalog.fit(family_id, device_id)
    matrix, revision = catalog.matrix(device_id), catalog.revision()
    if fit is None or matrix is None or revision is None:
        return None
    family = catalog.families.get(family_id)
    prose = family.devices.get(device_id) if family else None
    cells = catalog.support(family_id, device_id)
    held = {key: catalog.matrix_revisions.cell_since(revision, (matrix.id, family_id, key), device_id) for key in cells}
    since = {key: date.isoformat() for key, date in held.items() if date is not None}
    return SupportCell(fit, prose.rationale if prose else None, cells, since, max(since.values(), default=None))


@dataclass
class Best:
    """A run shown as the best of its kind: what it measured, where, at what cost."""

    run: str            # run id (seed ``run:`` or published ``prun:``/``ptrain:``)
    kind: str           # "seed", "published" or "training"
    model: str          # the model as its table names it
    identity: str       # the model's identity (:mod:`.identity`)
    family: str
    device: str
    workload: str
    framework: str | None
    instance: str
    config: str
    #: The figures as the data holds them (a published figure keeps its published decimals).
    throughput: float | Decimal | None
    throughput_unit: str | None
    latency: float | Decimal | None
    latency_label: str | None
    cost: float | None
    cost_per: str | None
    price: str | None
    #: What the run measured and at what shape: task, lengths, image size, throughput unit. Runs
    #: with equal shapes (and one model) are the configurations a comparison chooses between.
    shape: tuple[str | int | None, ...] = ()
    #: What the source of the price does not say (``term and region``): said once per answer, not in
    #: every sentence (:func:`.prices.unstated_note`).
    price_unstated: tuple[str, ...] = ()
    #: Since when its figures hold (a published run with a history): see :data:`HeldSince`.
    since: str | None = None
    #: Its cost at the on-demand price, for a reader who picks that basis: (cost, price, unsaid).
    on_demand: tuple[float, str, tuple[str, ...]] | None = None

    def at_on_demand(self) -> Best:
        """The run with its cost at the on-demand price (no cost when it has none)."""
        cost, price, unsaid = self.on_demand if self.on_demand else (None, None, ())
        return replace(self, cost=cost, price=price, price_unstated=unsaid)


#: The fields of a run the page embeds (beside its sentences).
SHIPPED_FIELDS = ("run", "kind", "model", "identity", "device", "framework")
#: The numbers the script ranks devices by (for the reader's goal), never shown: the sentences are;
#: and what the sources of the prices do not say, said once under the answer.
RANKED_FIELDS = ("throughput_value", "throughput_unit", "latency_value", "cost_value", "price_unstated")
#: What changes with the on-demand basis: the sentences that name a cost, the cost, the price's gaps.
ON_DEMAND_FIELDS = ("throughput_text_od", "cost_text_od", "cost_value_od", "price_unstated_od")


@dataclass
class Advice:
    """One family (or model) on one device for one workload and framework filter."""

    fit: str | None = None
    fit_text: str = "No published fit"
    rationale: str | None = None
    support: list[dict[str, str | None]] = field(default_factory=list)
    since: str | None = None
    issues: list[str] = field(default_factory=list)
    roadmap: list[str] = field(default_factory=list)


def _seed_best(derived: Derived, run: s.InferenceRun) -> Best | None:
    catalog = derived.catalog
    instance = run_instance(catalog, run)
    model = catalog.models.get(run.model)
    identity = identities(catalog).of_seed(run.model)
    if model is None or identity is None or instance is None:
        return None
    quote = next(iter(prices_of(catalog, instance.id)), None)
    cost = derived.seed_cost(run)
    config = ", ".join(x for x in (f"batch {run.batch_size}",
                                   f"{run.neuroncores} NeuronCores" if run.neuroncores else "",
                                   run.compiler_options or "") if x)
    note: str | None = None
    gaps: tuple[str, ...] = ()
    on_demand: tuple[float, str, tuple[str, ...]] | None = None
    if quote is not None and cost is not None:  # a seed run's price is its instance's on-demand price already
        note, gaps = price_note(quote, caveat=False), unstated(quote)
        on_demand = (cost, note, gaps)
    return Best(run.id, "seed", model.name, identity.id, model.family, instance.device, "inference",
                catalog.environments[run.environment].framework, instance.id, config, run.throughput_per_s,
                "inferences/s" if run.throughput_per_s is not None else None, run.p90_latency_ms,
                "Latency P90" if run.p90_latency_ms is not None else None, cost,
                COST_BASIS["inferences/s"] if cost is not None else None, note, ("seed", run.model, "inferences/s"),
                gaps, on_demand=on_demand)


def _published_best(derived: Derived, run: ps.PublishedInferenceRun | ps.PublishedTrainingRun,
                    training: bool, held_since: HeldSince | None = None) -> Best | None:
    catalog = derived.catalog
    model = identities(catalog).of_published(run.model)
    instances = list(getattr(run, "instances", [])) or [getattr(run, "instance", "")]
    instance = catalog.instances.get(instances[0])
    if model is None or instance is None:
        return None
    found = run.throughput()
    latency_field = next((f for f in LATENCY_FIELDS if getattr(run, f, None) is not None), None)
    cost = derived.published_cost(run)
    on_demand = derived.published_cost(run, ON_DEMAND_PRICE_BASIS)
    config = [f"batch {getattr(run, 'batch_size', None) or getattr(run, 'global_batch_size', '')}".strip()]
    config += [f"{label} {getattr(run, name)}" for name, label in (
        ("nodes", "nodes"), ("tp_degree", "TP"), ("sequence_length", "sequence"), ("input_length", "input"),
        ("output_length", "output"), ("image_size", "image")) if getattr(run, name, None) is not None]
    shape = (getattr(run, "task", None), *(getattr(run, name, None) for name in SHAPE_FIELDS),
             found[2] if found else None)
    return Best(run.id, "training" if training else "published", run.model, model.id, model.family, instance.device,
                "training" if training else "inference", run.framework, " / ".join(instances),
                ", ".join(c for c in config if c != "batch"), found[1] if found else None,
                found[2] if found else None,
                getattr(run, latency_field) if latency_field else None,
                METRICS[latency_field].label if latency_field else None,
                cost.usd if cost else None, cost.per if cost else None, _priced(cost) if cost else None, shape,
                price_unstated=unstated(cost.price) if cost else (),
                since=held_since(run) if held_since else None,
                on_demand=(float(on_demand.usd), _priced(on_demand), unstated(on_demand.price))
                if on_demand else None)


def _priced(cost: CostFigure[PriceQuote]) -> str:
    """The price a published run's cost used, nodes included: ``RI-effective $8.197/h, as of ... x 32 nodes``."""
    return price_note(cost.price, caveat=False) + cost.nodes_text


def throughput_text(run: Best) -> str:
    """The best-throughput run in words: model, figure, instance and configuration, cost and its price."""
    if run.throughput is None or run.throughput_unit is None:
        return ""
    text = f"{run.model}: {shown_measure(run.throughput, run.throughput_unit)} on {run.instance}"
    return text + _config_and_cost(run) + _since(run)


def latency_text(run: Best) -> str:
    """The best-latency run in words: its own configuration, without a cost (the cost of a latency-
    optimised configuration is not what a reader choosing for latency compares; :func:`cost_text` is)."""
    if run.latency is None or run.latency_label is None:
        return ""
    text = f"{run.model}: {run.latency_label} {shown_measure(run.latency, 'ms')} on {run.instance}"
    return text + (f" ({run.config})" if run.config else "") + _since(run)


def cost_text(run: Best) -> str:
    """The lowest-cost run in words: its cost per 1M, then model, instance and configuration."""
    if run.cost is None or not run.cost_per:
        return ""
    text = f"{shown_cost(run.cost)} per {run.cost_per}: {run.model} on {run.instance}"
    return text + (f" ({run.config})" if run.config else "") + f" at {run.price}" + _since(run)


def _since(run: Best) -> str:
    return f"; holds since {run.since}" if run.since else ""


def ranked_values(run: Best) -> tuple[float | None, str | None, float | None, float | None, tuple[str, ...]]:
    """The run's figures as the script compares them (:data:`RANKED_FIELDS`): throughput and its
    unit, latency, cost per 1M (``None`` where not measured); what its price's source leaves unsaid."""
    def number(value: float | Decimal | None) -> float | None:
        return None if value is None else float(value)
    return number(run.throughput), run.throughput_unit, number(run.latency), number(run.cost), run.price_unstated


def on_demand_values(run: Best) -> tuple[str, str, float | None, tuple[str, ...]]:
    """:data:`ON_DEMAND_FIELDS`: the throughput and cost sentences, the cost and the price's gaps, on demand."""
    priced = run.at_on_demand()
    return throughput_text(priced), cost_text(priced), priced.cost, priced.price_unstated


def _config_and_cost(run: Best) -> str:
    text = f" ({run.config})" if run.config else ""
    if run.cost is not None and run.cost_per:
        text += f"; {shown_cost(run.cost)} per {run.cost_per} at {run.price}"
    else:
        text += "; cost unknown (no throughput or no price)"
    return text


def all_runs(derived: Derived, held_since: HeldSince | None = None) -> list[Best]:
    """Every seed and published run with a measurement, as the advisor shows it."""
    catalog = derived.catalog
    out = [b for r in catalog.inference_runs.values() if (b := _seed_best(derived, r)) is not None]
    return out + published_runs(derived, held_since)


def published_runs(derived: Derived, held_since: HeldSince | None = None) -> list[Best]:
    """Every published run (inference, then training) with a measurement, as the advisor shows it."""
    catalog = derived.catalog
    out = [b for r in catalog.published_inference_runs.values()
           if (b := _published_best(derived, r, False, held_since))]
    out += [b for r in catalog.published_training_runs.values()
            if (b := _published_best(derived, r, True, held_since))]
    return out


def pick_best(runs: list[Best]) -> Picked:
    """The best run for throughput, for latency and for cost among ``runs`` (configurations that
    compare: :func:`compare` chooses them): the highest throughput in the unit most of them report,
    the lowest latency of the latency most of them report, the lowest cost per 1M of that unit; and
    the lowest cost at the on-demand price (another configuration may be cheapest on that basis)."""
    def commonest(values: list[str | None]) -> str | None:
        present = [v for v in values if v is not None]
        return max(dict.fromkeys(present), key=present.count) if present else None

    unit = commonest([r.throughput_unit for r in runs])
    by_throughput = [r for r in runs if r.throughput_unit == unit and r.throughput is not None]
    label = commonest([r.latency_label for r in runs])
    by_latency = [r for r in runs if r.latency_label == label and r.latency is not None]
    per = commonest([r.cost_per for r in runs])
    by_cost = [r for r in runs if r.cost_per == per and r.cost is not None]
    best_t = max(by_throughput, key=lambda r: r.throughput or 0.0, default=None)
    best_l = min(by_latency, key=lambda r: r.latency or 0.0, default=None)
    best_c = min(by_cost, key=lambda r: r.cost or 0.0, default=None)
    by_on_demand = [r for r in runs if r.cost_per == per and r.on_demand is not None]
    best_od = min(by_on_demand, key=lambda r: r.on_demand[0] if r.on_demand else 0.0, default=None)
    return best_t, best_l, best_c, best_od


def representative(runs: list[Best], family: Family | None, devices: list[str]) -> str | None:
    """The identity a family's comparison is made on: the one of ``runs`` measured on the most of
    ``devices``, then one named by the family's representatives, then the most measured."""
    wanted = [name_key(r) for r in (family.representatives if family else [])]
    counts: dict[str, tuple[int, bool, int]] = {}
    for ident in dict.fromkeys(r.identity for r in runs):
        mine = [r for r in runs if r.identity == ident]
        named = any(name_key(r.model).startswith(w) for r in mine for w in wanted if w)
        counts[ident] = (len({r.device for r in mine if r.device in devices}), named, len(mine))
    return max(counts, key=lambda i: counts[i]) if counts else None


def compare(runs: list[Best], devices: list[str], family: Family | None = None) -> dict[str, list[Best]]:
    """Per device, the runs a comparison chooses between: one model's configurations with one task
    and shape. For a family (``family`` given) the model is its :func:`representative` where it is
    measured, else the model of the family measured most on that device; the shape is the one of the
    model measured on the most devices (then with the most runs) among those the device has."""
    out: dict[str, list[Best]] = {}
    chosen = representative(runs, family, devices) if family is not None else None
    for device in devices:
        here = [r for r in runs if r.device == device]
        if not here:
            continue
        ident = chosen if any(r.identity == chosen for r in here) else representative(here, family, [device])
        mine = [r for r in runs if r.identity == ident]
        shapes: dict[tuple[str | int | None, ...], tuple[int, int]] = {}
        for shape in dict.fromkeys(r.shape for r in mine):
            same = [r for r in mine if r.shape == shape]
            shapes[shape] = (len({r.device for r in same}), len(same))
        shape = max((sh for sh in shapes if any(r.shape == sh for r in here if r.identity == ident)),
                    key=lambda sh: shapes[sh])
        out[device] = [r for r in here if r.identity == ident and r.shape == shape]
    return out


def choose(runs: list[Best], devices: list[str], family: Family | None = None) -> dict[str, Picked]:
    """The advisor's choice, made here only: per device of ``devices`` where one of ``runs`` (one
    subject's runs of one workload: a family's, or a model's with ``family`` None) is measured, the
    configurations a comparison chooses between (:func:`compare`) and the best of them for each goal
    (:func:`pick_best`); a device where none has a figure to rank is left out."""
    out: dict[str, Picked] = {}
    for device_id, group in compare(runs, devices, family).items():
        picked = pick_best(group)
        if any(picked):
            out[device_id] = picked
    return out


@dataclass(frozen=True)
class FamilyBest:
    """What runs well on a device: a model family measured on it for a workload, and the advisor's
    best-throughput configuration of the family there (None when no run of it reports a throughput)."""

    workload: str
    family: str
    best: Best | None


def best_on_device(catalog: Catalog, runs: list[Best], device_id: str) -> list[FamilyBest]:
    """Per workload (:data:`WORKLOADS`) and family with one of ``runs`` on ``device_id`` (in the
    order of ``families.yaml``), the configuration the advisor answers for the family on that device
    with the best throughput (:func:`choose`, over the devices the advisor compares and ``device_id``)."""
    devices = neuron_devices(catalog)
    devices += [] if device_id in devices else [device_id]
    order = {family_id: index for index, family_id in enumerate(catalog.families)}
    out = []
    for workload in WORKLOADS:
        of_workload = [r for r in runs if r.workload == workload]
        here = dict.fromkeys(r.family for r in of_workload if r.device == device_id)
        for family_id in sorted(here, key=lambda f: order.get(f, len(order))):
            mine = [r for r in of_workload if r.family == family_id]
            picked = choose(mine, devices, catalog.families.get(family_id)).get(device_id)
            out.append(FamilyBest(workload, family_id, picked[0] if picked else None))
    return out


def advice(catalog: Catalog, family_id: str, device_id: str, framework: str | None) -> Advice:
    """Fit, support (for ``framework`` or every framework of the device), issues and roadmap items."""
    out = Advice()
    cell = support_cell(catalog, family_id, device_id)
    if cell is None:
        return out
    out.fit, out.fit_text, out.rationale, out.since = cell.fit, FIT_TEXT[cell.fit], cell.rationale, cell.since
    for key, entry in cell.support.items():
        framework_id, workload = key.split("/", 1)
        if framework and framework != framework_id:
            continue
        out.support.append({"framework": framework_id, "workload": workload, "label": column_label(catalog, key),
                            "status": entry.status, "text": STATUS_TEXT[entry.status], "note": entry.note,
                            "since": cell.held_since.get(key)})
        if (item := catalog.roadmap_item(entry)) and item not in out.roadmap:
            out.roadmap.append(item)
    for issue in catalog.known_issues.values():
        if (device_id in issue.devices and (not issue.families or family_id in issue.families)
                and (not framework or not issue.frameworks or framework in issue.frameworks)
                and issue.id not in out.issues):
            out.issues.append(issue.id)
    return out


def column_label(catalog: Catalog, key: str) -> str:
    """A support column in words: ``PyTorch Neuron (torch-neuronx), training``."""
    framework_id, workload = key.split("/", 1)
    fw = catalog.frameworks.get(framework_id)
    return f"{framework_header(fw) if fw else framework_id}, {workload}"


def neuron_devices(catalog: Catalog) -> list[str]:
    return [d.id for d in catalog.devices.values() if d.kind == "neuron"]


def advisor_slice(derived: Derived, held_since: HeldSince | None = None) -> dict[str, object]:
    """The advisor's data: models and families by the keys of their names, every run it may show,
    and per family or model, device, workload and framework filter ("" = any) the advice and the
    runs a comparison chose (indexes into ``runs``: best throughput, best latency, lowest cost); a
    published run's sentences end with since when it holds when ``held_since`` is given."""
    catalog = derived.catalog
    runs = all_runs(derived, held_since)
    devices = neuron_devices(catalog)
    frameworks = {fid: f for fid, f in catalog.frameworks.items() if any(d in devices for d in f.devices)}
    known = identities(catalog)
    models = {i.id: {"name": i.name, "family": i.family, "names": i.names, "seed": i.seed}
              for i in known.by_id.values()}
    keys = {key: f"model:{ident}" for key, ident in known.keys.items()}
    for key, family_id in known.family_keys.items():
        keys.setdefault(key, f"family:{family_id}")
    table: dict[str, dict[str, object]] = {}
    position = {id(r): i for i, r in enumerate(runs)}
    subjects = [(f, f) for f in catalog.families] + [(f"model:{i.id}", i.family) for i in known.by_id.values()]
    for key, family_id in subjects:
        is_model = key.startswith("model:")
        for framework in ["", *frameworks]:
            for workload in WORKLOADS:
                mine = [r for r in runs if r.workload == workload and (not framework or r.framework == framework)
                        and (r.identity == key[6:] if is_model else r.family == key)]
                chosen = choose(mine, devices, None if is_model else catalog.families.get(key))
                for device_id, picked in chosen.items():
                    entry = table.setdefault(f"{key}|{device_id}|{framework}", {})
                    entry[workload] = [position[id(b)] if b else None for b in picked]
        if not is_model:
            for device_id in devices:
                entry = table.setdefault(f"{key}|{device_id}|", {})
                entry["advice"] = asdict(advice(catalog, family_id, device_id, None))
    used = sorted({i for e in table.values() for w in WORKLOADS for i in e.get(w, []) if i is not None})  # type: ignore[attr-defined]
    renumber = {old: new for new, old in enumerate(used)}
    for e in table.values():
        for w in WORKLOADS:
            if w in e:
                e[w] = [renumber[i] if i is not None else None for i in e[w]]  # type: ignore[attr-defined]
    runs = [runs[i] for i in used]
    return {
        "families": [{"id": f.id, "name": f.name} for f in catalog.families.values()],
        "devices": [{"id": d, "name": catalog.devices[d].name} for d in devices],
        "frameworks": [{"id": fid, "label": framework_header(f), "devices": [d for d in f.devices if d in devices]}
                       for fid, f in frameworks.items()],
        "models": models,
        "keys": dict(sorted(keys.items())),
        "key_rule": KEY_RULE,
        "unstated": unstated_sentences(),
        "guidelines": GUIDELINES_DOC,
        "issues": {i.id: {"title": i.title, "frameworks": i.frameworks} for i in catalog.known_issues.values()},
        "roadmap": {r.id: r.title for r in catalog.roadmap.values()},
        "run_fields": [*SHIPPED_FIELDS, "throughput_text", "latency_text", "cost_text", *RANKED_FIELDS,
                       *ON_DEMAND_FIELDS],
        "runs": [[*(getattr(r, f) for f in SHIPPED_FIELDS), throughput_text(r), latency_text(r), cost_text(r),
                  *ranked_values(r), *on_demand_values(r)] for r in runs],
        "table": table,
    }
