"""Figures described for a reader: what was measured, where, and its source, in words.

The tooltip of every figure printed in prose (``:neuron:value:``) comes from here: a run's figure
names the model, the instance, the batch size and the compiler options rather than the run's id,
and the source is its title from ``sources.yaml``, never an internal path. No Sphinx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..records.labels import FIELD_WORDS
from .runs import run_instance

from ..records import models as s

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..catalog import Catalog
    from .values import Value


def _run_words(catalog: Catalog, run: s.InferenceRun | s.AccuracyRun) -> str:
    model = catalog.models[run.model]
    variant = run.variant if isinstance(run, s.InferenceRun) else None
    name = f"{model.name} ({variant})" if variant else model.name
    instance = run_instance(catalog, run)
    where = f"{name} on {instance.id if instance else 'an unknown instance'}"
    if run.batch_size:
        where += f", batch size {run.batch_size}"
    if run.compiler_options:
        where += f", compiler options {run.compiler_options}"
    return where


def what_it_is(catalog: Catalog, path: str, value: Value) -> str:
    """The figure at ``path`` in words: what was measured and where (the run's model and instance)."""
    field = path.rpartition(":")[2]
    words = FIELD_WORDS[field].words if field in FIELD_WORDS and FIELD_WORDS[field].words else field
    if value.collection == "inference_runs" and value.record in catalog.inference_runs:
        return f"{words} of {_run_words(catalog, catalog.inference_runs[value.record])}"
    if value.collection == "accuracy_runs" and value.record in catalog.accuracy_runs:
        run = catalog.accuracy_runs[value.record]
        return f"{words} of {_run_words(catalog, run)} ({run.dataset})"
    # Other labels say what they are; a record id in parentheses means nothing to a reader.
    return value.label.replace(f" ({value.record})", "") if value.record else value.label


def source_title(catalog: Catalog, value: Value) -> str | None:
    source = catalog.sources.get(value.source or "")
    return source.title if source else value.source


def describe(catalog: Catalog, values: Mapping[str, Value], paths: Sequence[str], derived: bool) -> str:
    """A tooltip for a figure read from ``paths``: what each is, where, and the sources' titles."""
    what = "; ".join(what_it_is(catalog, p, values[p]) for p in paths)
    sources = list(dict.fromkeys(t for p in paths if (t := source_title(catalog, values[p]))))
    text = f"Computed from {what}" if derived else what
    if sources:
        text += f". Source: {'; '.join(sources)}"
    return text + "."
