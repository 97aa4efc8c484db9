"""The placeholder of generated content, the renderers that fill it, and the one guarded way a
renderer looks a record up.

``.. neuron:support-matrix:: inf2`` leaves ``<deferred renderer="support-matrix" params=...>`` in
the doctree. A :class:`Renderer` is a function of the build's data and the placeholder's
parameters (a frozen dataclass of plain, picklable values, one type per renderer: mypy checks that
a directive gives a renderer the parameters it takes) to docutils nodes; it may warn (at the
directive's line) about what the data of this build lacks, and must not touch the environment:
every object registration and every dependency is made by the directive, when the page is read.

A build knows the renderers its extension's setup gave it (:func:`add_renderers`; the extension's
own are one table, :data:`neuron_docs.renderers.RENDERERS`, since they are defined above this
layer): they are put into the build's state when its builder is made, so a second build in the
same process knows only its own. Every record a renderer looks up by id goes through :meth:`RenderContext.known`: a record
that is not there (an unknown id, or one whose file was refused or whose record was set aside) is
a located warning at the directive's line, and the renderer shows what it can without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging

from ..state.domain import dataset, state
from ..state.dependencies import shows

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping

    from sphinx.application import Sphinx
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
    #: Warnings held to be given later, when the page is written (the content is rendered ahead,
    #: for the index of CSV downloads: :func:`.expand.filled_doctree`), as (message, location, subtype).
    held: list[tuple[str, Any, str]] | None = None
    #: What the placeholders of one page share, in page order (the colour of each chart series).
    page: dict[str, Any] = field(default_factory=dict)

    @property
    def read_in(self) -> str:
        """The page the placeholder was read in: :attr:`docname` but on a page made of several (the
        single HTML page), where it is the page the placeholder came from."""
        return str(self.node.get("docname") or self.docname)

    @property
    def data(self) -> DataSet:
        return dataset(self.env)

    @property
    def catalog(self) -> Catalog:
        return self.data.catalog

    def pick(self, option: str, wanted: list[str], table: Mapping[str, object]) -> list[str]:
        """``wanted`` ids, warning (as :meth:`known` does) about those not in ``table`` (a collection)."""
        for unknown in [w for w in wanted if w not in table]:
            self._missing(option, unknown, table)
        return wanted

    def known[T](self, what: str, key: str, table: Mapping[str, T]) -> T | None:
        """The record ``key`` of ``table`` (a collection's records by id), or ``None`` after a
        located warning (once per page and directive): why the record was not loaded when
        ``table`` is a collection of the data set and its file was refused or the record set aside,
        else the ids it expected. The one way a renderer looks a record up."""
        record = table.get(key)
        if record is None:
            self._missing(what, key, table)
        return record

    def _missing(self, what: str, key: str, table: Mapping[str, object]) -> None:
        location = self.node.get("location") or (self.docname, self.node.line)
        warned: set[tuple[object, ...]] = self.page.setdefault("missing records", set())
        if (location, what, key) in warned:
            return
        warned.add((location, what, key))
        catalog = self.catalog
        collection = catalog.collection_named(table)
        reason = catalog.why_missing(collection, key) if collection else None
        if reason and collection:
            # set aside: warned once, where the data is loaded; the page shows its box (render.expand)
            self.page.setdefault(SET_ASIDE_KEY, set()).add(f"{collection}/{key}")
            return
        self.warn(f"unknown {what} {key!r}; expected one of: {', '.join(table)}")

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
        location = self.node.get("location") or (self.docname, self.node.line)
        self.warn_at(location, f"{self.directive}: {message}", subtype)

    def warn_at(self, location: Any, message: str, subtype: str) -> None:
        """A warning at ``location`` (a data file's line, for a problem of the data), given now, or
        when the page is written if the content is rendered ahead (:attr:`held`)."""
        if self.held is not None:
            self.held.append((message, location, subtype))
        else:
            give_warning(message, location, subtype)


#: The key of a page's shared dict (:attr:`RenderContext.page`) naming the records set aside that its
#: renderers looked up ("<collection>/<id>"): the page shows their "Data problem" box.
SET_ASIDE_KEY = "records set aside"


def give_warning(message: str, location: Any, subtype: str) -> None:
    """A renderer's warning (type ``neuron``)."""
    logger.warning("%s", message, location=location, type="neuron", subtype=subtype)


type RenderFunction[P] = Callable[[RenderContext, P], list[nodes.Node]]


@dataclass(frozen=True)
class NoParams:
    """The parameters of a renderer that takes none."""


@dataclass(frozen=True)
class Renderer[P]:
    """A kind of generated content: the name its placeholders carry, and the function that renders
    one from the build's data and the placeholder's parameters ``P``."""

    name: str
    function: RenderFunction[P]
    #: Whether its content may hold a table (whose CSV is written and listed by the index of CSV
    #: downloads); content without one (the benchmark history's HTML) is not rendered for that index.
    tables: bool = True

    def __call__(self, context: RenderContext, params: P) -> list[nodes.Node]:
        return self.function(context, params)


def renderer[P](name: str, tables: bool = True) -> Callable[[RenderFunction[P]], Renderer[P]]:
    """Make a function the renderer ``name`` (a build renders it once :func:`add_renderers` gave it
    to the build); ``tables=False``: its content never holds a table (see :attr:`Renderer.tables`)."""
    def make(function: RenderFunction[P]) -> Renderer[P]:
        return Renderer(name, function, tables)
    return make


def _give(renderers: tuple[Renderer[Any], ...], app: Sphinx) -> None:
    known = state(app.env).renderers
    for one in renderers:
        known[one.name] = one


def add_renderers(app: Sphinx, *renderers: Renderer[Any]) -> None:
    """Give ``renderers`` to the builds of ``app``: each build's state gets them when its builder
    is made, before any page is read."""
    app.connect("builder-inited", partial(_give, renderers), priority=400)


def render(context: RenderContext) -> list[nodes.Node]:
    node = context.node
    return state(context.env).renderers[node["renderer"]](context, node["params"])


def defer[P](directive: SphinxDirective, kind: Renderer[P], params: P, shown: Iterable[str] = (),
             **attributes: Any) -> deferred:
    """A placeholder for renderer ``kind`` with ``params``, at the directive's line; the page shows
    the data keys ``shown`` (it is rewritten when one changes)."""
    name = kind.name
    if state(directive.env).renderers.get(name) is not kind:
        raise KeyError(f"no renderer {name!r} in this build")
    node = deferred(renderer=name, params=params, directive=directive.name, docname=directive.env.docname, **attributes)
    directive.set_source_info(node)
    shows(directive.env, *shown)
    return node
