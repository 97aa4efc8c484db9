"""References between records and the rules that span records, as messages (no Sphinx).

:func:`references_of` lists every id a record refers to, :func:`consistency_problems` the rules
beyond plain references (a run names a variant of its model, a comparison's metric exists for
both instances; the support matrices' own rules are :mod:`.matrix_files`'s), and
:func:`dangling_message` says why a reference does not resolve and what was expected.
:func:`.validation.load_catalog` applies them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..records import models as s
from ..records.model_sizes import ModelSize, ModelSizeGap
from .model_sizes import gap_problems, gap_references, size_problems, size_references
from .identities import same_as_problems
from .published_references import published_references
from ..records.paths import DOTTED_PARTS

if TYPE_CHECKING:
    from ..catalog import Catalog

#: What one record of each collection is called in messages.
SINGULAR = {
    "sources": "source", "devices": "device", "instances": "instance", "frameworks": "framework",
    "categories": "category", "families": "family", "known_issues": "known issue", "roadmap": "roadmap item",
    "models": "model", "environments": "environment", "experiments": "experiment",
    "comparisons": "comparison", "claims": "claim", "inference_runs": "inference run",
    "accuracy_runs": "accuracy run", "errata": "erratum",
    "prices": "price", "published_tables": "published table", "published_models": "published model",
    "published_inference_runs": "published inference run", "published_training_runs": "published training run",
    "benchmark_states": "benchmark state", "benchmark_configurations": "benchmark configuration",
    "benchmark_observations": "benchmark observation", "historical_prices": "historical price",
    "model_sizes": "model size", "model_size_gaps": "model size gap",
}

#: A reference: (field path in the record, target collection, id).
Ref = tuple[tuple[Any, ...], str, str]


def references_of(collection: str, record: s.Record) -> Iterator[Ref]:
    """Yield ``(field path in the record, target collection, id)`` for every reference ``record`` makes."""
    def sources(prefix: str, quantities: dict[str, s.Quantity]) -> Iterator[Ref]:
        for key, q in quantities.items():
            yield (prefix, key, "source"), "sources", q.source
            for n, other in enumerate(q.also):
                yield (prefix, key, "also", n, "source"), "sources", other.source

    source = getattr(record, "source", None)
    if isinstance(source, str):
        yield ("source",), "sources", source
    if isinstance(record, s.Device):
        yield from sources("specs", record.specs)
    elif isinstance(record, s.Instance):
        yield ("device",), "devices", record.device
        if record.price is not None:
            yield ("price", "source"), "sources", record.price.source
        yield from sources("specs", record.specs)
    elif isinstance(record, s.Framework):
        for i, device in enumerate(record.devices):
            yield ("devices", i), "devices", device
    elif isinstance(record, s.Family):
        yield ("category",), "categories", record.category
        for device in record.devices:
            yield ("devices", device), "devices", device
    elif isinstance(record, s.KnownIssue):
        for attr in ("devices", "frameworks", "families"):
            for i, ref in enumerate(getattr(record, attr)):
                yield (attr, i), attr, ref
        if record.limit:
            yield ("limit", "source"), "sources", record.limit.source
    elif isinstance(record, s.Model):
        yield ("family",), "families", record.family
        if record.same_as:
            yield ("same_as",), "published_models", record.same_as
        if record.paper_top1:
            yield ("paper_top1", "source"), "sources", record.paper_top1.source
    elif isinstance(record, s.Environment):
        yield ("instance",), "instances", record.instance
        if record.framework:
            yield ("framework",), "frameworks", record.framework
    elif isinstance(record, s.InferenceRun | s.AccuracyRun):
        yield ("model",), "models", record.model
        yield ("environment",), "environments", record.environment
    elif isinstance(record, s.Experiment):
        yield ("family",), "families", record.family
        for i, ref in enumerate(record.instances):
            yield ("instances", i), "instances", ref
        for i, pp in enumerate(record.price_performance):
            yield ("price_performance", i, "baseline"), "instances", pp.baseline
            yield ("price_performance", i, "candidate"), "instances", pp.candidate
            yield ("price_performance", i, "gain", "source"), "sources", pp.gain.source
    elif isinstance(record, s.Comparison):
        yield ("subject",), "instances", record.subject
        yield ("baseline",), "instances", record.baseline
        yield ("claimed", "source"), "sources", record.claimed.source
    elif isinstance(record, ModelSize):
        yield from size_references(record)
    elif isinstance(record, ModelSizeGap):
        yield from gap_references(record)
    else:
        yield from published_references(collection, record)


def consistency_problems(collection: str, record: s.Record,
                         catalog: Catalog) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Yield ``(field path, message)`` for rules that span records (beyond plain references)."""
    yield from same_as_problems(collection, record, catalog)
    yield from _unpriced(record, catalog)
    if isinstance(record, ModelSize):
        yield from size_problems(record, catalog)
    elif isinstance(record, ModelSizeGap):
        yield from gap_problems(record, catalog)
    if isinstance(record, s.InferenceRun) and record.variant and record.model in catalog.models:
        variants = [v.id for v in catalog.models[record.model].variants]
        if record.variant not in variants:
            close = difflib.get_close_matches(record.variant, variants, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            yield (("variant",), f"unknown variant {record.variant!r} of model {record.model!r}{hint}; "
                                 f"expected one of: {', '.join(variants) or '(none)'}")
    elif collection in DOTTED_PARTS and isinstance(record, s.Model | s.Experiment):
        yield from _path_collisions(collection, record, catalog)
    elif isinstance(record, s.Comparison):
        for attr in ("subject", "baseline"):
            ref = getattr(record, attr)
            if ref in catalog.instances and catalog.instance_spec(ref, record.metric) is None:
                yield ("metric",), f"instance {ref!r} has no value for metric {record.metric!r}; expected a spec " \
                                   "of the instance or of its device"


def _unpriced(record: s.Record, catalog: Catalog) -> Iterator[tuple[tuple[Any, ...], str]]:
    """A record costed at an instance's on-demand price naming an instance that has none (an
    instance's price is optional: given only with its source): a seed run's throughput (its cost
    per 1M inferences) and an experiment's price-performance comparison (the price ratio)."""
    named: list[tuple[tuple[Any, ...], str, str]] = []
    if isinstance(record, s.InferenceRun) and record.throughput_per_s is not None:
        environment = catalog.environments.get(record.environment)
        if environment is not None:
            named.append((("environment",), environment.instance, "its cost per 1M inferences"))
    elif isinstance(record, s.Experiment):
        for i, pp in enumerate(record.price_performance):
            named += [(("price_performance", i, attr), getattr(pp, attr), "the price ratio")
                      for attr in ("baseline", "candidate")]
    for path, instance_id, what in named:
        instance = catalog.instances.get(instance_id)
        if instance is not None and instance.price is None:
            yield path, (f"instance {instance_id!r} has no on-demand price (instances.yaml gives none), and "
                         f"{what} is computed from it; expected a priced instance")


def _path_collisions(collection: str, record: s.Model | s.Experiment,
                     catalog: Catalog) -> Iterator[tuple[tuple[Any, ...], str]]:
    """A part whose figure path is also that of an earlier record's part (ids may hold dots:
    variant ``b.c`` of model ``a`` and variant ``c`` of model ``a.b`` are both ``model:a.b.c``)."""
    kind, field = DOTTED_PARTS[collection]
    for index, part in enumerate(getattr(record, field)):
        dotted = f"{record.id}.{part.id}"
        for other_id, other in catalog.records[collection].items():
            if other_id == record.id:
                break  # only records before this one: the later record is the one to rename
            prefix = f"{other_id}."
            if dotted.startswith(prefix) and any(p.id == dotted[len(prefix):] for p in getattr(other, field)):
                yield ((field, index, "id"),
                       f"the figures of {record.id!r} {part.id!r} would have the paths {kind}:{dotted}:..., "
                       f"which are those of {other_id!r} {dotted[len(prefix):]!r}; expected ids that give "
                       "distinct paths (rename one of them)")


def dangling_message(catalog: Catalog, target: str, ref: str) -> str:
    """Why ``ref`` is not a record of ``target``, and what was expected."""
    what = SINGULAR.get(target, target)
    for b in catalog.broken:
        if b.collection == target and b.record_id == ref:
            where = f"{b.file}:{b.line}" if b.line else b.file
            return f"{what} {ref!r} could not be loaded (see {where}); expected a valid {what}"
    file = catalog.file_of(target)
    if file in catalog.failed_files:
        return f"unknown {what} {ref!r} ({file} could not be read); expected a {what} defined in {file}"
    close = difflib.get_close_matches(ref, list(catalog.records[target]), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown {what} {ref!r}{hint}; expected one of: {_choices(catalog.records[target])}"


def _choices(table: dict[str, s.Record]) -> str:
    """The ids of a collection as listed in messages: the first twelve, sorted."""
    ids = sorted(table)
    return ", ".join(ids[:12]) + (f", ... ({len(ids)} in all)" if len(ids) > 12 else "") if ids else "(none)"
