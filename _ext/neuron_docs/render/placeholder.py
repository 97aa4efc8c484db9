"""The placeholder of generated content, and the registry of the renderers that fill it.

``.. neuron:support-matrix:: inf2`` leaves ``<deferred renderer="support-matrix" params={...}>``
in the doctree. A renderer is a function of the build's data and the placeholder's parameters
(plain, picklable values) to docutils nodes; it may warn (at the directive's line) about what the
data of this build lacks, and must not touch the environment: every object registration and every
dependency is made by the directive, when the page is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging

from ..state.build import dataset
from ..state.dependencies import shows

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping

    from sphinx.environment import BuildEnvironment
    from sphinx.util.docutils import SphinxDirective

    from ..data import Catalog
    from ..data.dataset import DataSet

logger = logging.getLogger(__name__)


class deferred(nodes.General, nodes.Element):  # noqa: N801 - docutils node naming
    """Generated content to render when the page is written (``renderer``, ``params``)."""


class deferred_inline(nodes.Inline, deferred):  # noqa: N801 - docutils node naming
    """Generated text in prose (a role's output), rendered when the page is written; its
    ``location`` is the role's (``source:line``, an included file's too)."""


@dataclass
class RenderContext:
    """What a renderer gets: the build environment, the page, the placeholder."""

    env: BuildEnvironment
    docname: str
    node: deferred
    directive: str
    #: Warnings are not given (the content is rendered again, for another purpose than writing the page).
    quiet: bool = False
    #: What the placeholders of one page share, in page order (the colour of each chart series).
    page: dict[str, Any] = field(default_factory=dict)

    @property
    def data(self) -> DataSet:
        return dataset(self.env)

    @property
    def catalog(self) -> Catalog:
        return self.data.catalog

    def pick(self, option: str, wanted: list[str], table: Iterable[str]) -> list[str]:
        """``wanted`` ids, warning about those not in ``table`` (the ids of a collection)."""
        known = list(table)
        for unknown in [w for w in wanted if w not in known]:
            self.warn(f"unknown {option} {unknown!r}; expected one of: {', '.join(known)}")
        return wanted

    def known[T](self, what: str, key: str, table: Mapping[str, T]) -> T | None:
        """The record ``key`` of ``table`` (a collection's records by id), or ``None`` after a
        located warning naming the ids it expected."""
        record = table.get(key)
        if record is None:
            self.warn(f"unknown {what} {key!r}; expected one of: {', '.join(table)}")
        return record

    @staticmethod
    def registered[T](table: Mapping[str, T], anchors: Mapping[str, str]) -> Iterator[tuple[T, str]]:
        """The records of ``table`` that the page registered when it was read (``anchors``: id ->
        anchor), with their anchors, in the data's order. A record added since is left out: the page
        is read again before it is written, since the names it registers changed."""
        for record_id, record in table.items():
            if record_id in anchors:
                yield record, anchors[record_id]

    def warn(self, message: str, subtype: str = "directive") -> None:
        """A located warning (``neuron.directive`` unless ``subtype``) at the line of the directive
        or role that left the placeholder."""
        if self.quiet:
            return
        location = self.node.get("location") or (self.docname, self.node.line)
        logger.warning("%s: %s", self.directive, message, location=location, type="neuron", subtype=subtype)


type Renderer = Callable[[RenderContext, dict[str, Any]], list[nodes.Node]]

_RENDERERS: dict[str, Renderer] = {}


def renderer(name: str) -> Callable[[Renderer], Renderer]:
    """Register a renderer under ``name`` (the ``renderer`` of its placeholders)."""
    def register(function: Renderer) -> Renderer:
        _RENDERERS[name] = function
        return function
    return register


def render(context: RenderContext) -> list[nodes.Node]:
    node = context.node
    return _RENDERERS[node["renderer"]](context, node["params"])


def defer(directive: SphinxDirective, name: str, params: dict[str, Any], shown: Iterable[str] = (),
          **attributes: Any) -> deferred:
    """A placeholder for renderer ``name`` with ``params``, at the directive's line; the page shows
    the data keys ``shown`` (it is rewritten when one changes)."""
    if name not in _RENDERERS:
        raise KeyError(f"no renderer {name!r}")
    node = deferred(renderer=name, params=params, directive=directive.name, **attributes)
    directive.set_source_info(node)
    shows(directive.env, *shown)
    return node
