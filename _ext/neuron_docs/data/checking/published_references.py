"""The references of the published benchmark records (prices, tables, runs, the model -> family map, the history).

A price names its instance and table; a published model its family (a published run, derived from
the history, is checked where it is derived: :mod:`.latest_state`); the history's records their state, configuration and instance. :func:`.references.references_of` yields these with the other
collections' references, so a dangling one is a located error like any other. No Sphinx here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: A reference: (field path in the record, target collection, id).
Ref = tuple[tuple[Any, ...], str, str]


def published_references(collection: str, record: Any) -> Iterator[Ref]:
    """Yield the references a record of a published collection makes (besides its ``source``)."""
    if collection == "prices":
        yield ("instance",), "instances", record.instance
        if record.table:
            yield ("table",), "published_tables", record.table
    elif collection == "published_models":
        yield ("family",), "families", record.family
        if record.same_as:
            yield ("same_as",), "published_models", record.same_as
    elif collection == "benchmark_configurations":
        yield ("first_state",), "benchmark_states", record.first_state
        if record.instance:
            yield ("instance",), "instances", record.instance
        if record.framework:
            yield ("framework",), "frameworks", record.framework
    elif collection == "benchmark_observations":
        yield ("configuration",), "benchmark_configurations", record.configuration
        yield ("first_state",), "benchmark_states", record.first_state
    elif collection == "historical_prices":
        yield ("instance",), "instances", record.instance
        yield ("first_state",), "benchmark_states", record.first_state
