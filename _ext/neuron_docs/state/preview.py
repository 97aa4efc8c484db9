"""The change model of a preview build: what changed since the base, and where pages show it.

:class:`Preview` is the state of one preview build (kept by the build's
:class:`~neuron_docs.state.build.BuildState`): the diff with the base, its changes by key, and the
table rows that show a changed record; :class:`MarkedPlace` is one marked place on a page. No Sphinx here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..data.figures.compare import CellChange, MatrixDiff, RecordChange, ValueChange
from ..data.published.history_view import StateChange

Key = tuple[str, ...]


@dataclass(frozen=True)
class MarkedPlace:
    """A marked place: the page, the id to link to, what it says, and the changes it shows."""

    docname: str
    anchor: str
    description: str
    keys: frozenset[Key]


@dataclass
class Preview:
    """The state of one preview build."""

    base: str
    base_label: str
    diff: MatrixDiff
    keys: frozenset[Key]
    #: Changes by key, for descriptions.
    by_key: dict[Key, CellChange | RecordChange | ValueChange]
    #: Row id -> the changes shown in that row (record changes and moved figures of the record).
    rows: dict[str, list[Key]]
    #: docname -> marked places, filled on ``doctree-resolved`` (in the main process).
    places: dict[str, list[MarkedPlace]] = field(default_factory=dict)
    #: What the published benchmark states new since the base changed, regressions first.
    benchmarks: list[StateChange] = field(default_factory=list)
