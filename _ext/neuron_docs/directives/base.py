"""The base of the data directives: located warnings, option filters, object registration.

Every directive that renders data warns through :meth:`DataDirective.warn` (type ``neuron``,
subtype ``directive``, at the directive's line), checks id options with :meth:`DataDirective.pick`,
and makes itself an object's canonical place with :meth:`DataDirective.register`; the sections of
the objects a page hosts are :func:`hosted_sections`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from ..state.domain import anchor_for, index_entry, neuron_domain
from ..render.placeholder import RenderContext, renderer
from ..render.tables import broken_notice, comma_list
from ..data.catalog import Broken
from ..data.files.loader import DataError
from ..node_data import OBJECT_ANCHOR

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ..state.hosted import HostedPlace

logger = logging.getLogger(__name__)


class DataDirective(SphinxDirective):
    """Common helpers: located warnings, id filters, object registration."""

    option_spec: ClassVar = {"no-index": directives.flag}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        #: General-index entries of the objects this directive registered, not yet emitted.
        self.index_entries: list[addnodes.index] = []

    def warn(self, message: str) -> None:
        logger.warning("%s: %s", self.name, message, location=self.get_location(), type="neuron",
                       subtype="directive")

    def pick(self, option: str, table: dict) -> list[str]:
        """Ids named in ``option`` (comma-separated), warning about unknown ones."""
        wanted = comma_list(self.options.get(option))
        for unknown in [w for w in wanted if w not in table]:
            self.warn(f"unknown {option} {unknown!r}; expected one of: {', '.join(table)}")
        return wanted

    def register(self, objtype: str, name: str, title: str) -> str:
        """Make this the canonical place of an object (unless ``:no-index:``); return its anchor.

        The general-index entries collected here are emitted by :meth:`index_nodes`.
        """
        anchor = anchor_for(objtype, name)
        if "no-index" not in self.options:
            domain = neuron_domain(self.env)
            # Unique on the page: another object's anchor may be the same (inf2.xlarge, inf2-xlarge).
            anchor = domain.note_object(objtype, name, title, anchor, location=self.get_location())
            self.index_entries.append(index_entry(objtype, title, anchor))
        return anchor

    def index_nodes(self) -> list[nodes.Node]:
        """Index entries for the objects registered so far (put them before the table)."""
        entries, self.index_entries = self.index_entries, []
        return entries


def hosted_sections(found: list[HostedPlace], objtype: str, here: set[str], body: Callable[[HostedPlace], list[nodes.Node]],
                    classes: Iterable[str] = ()) -> list[nodes.Node]:
    """A section per place a page hosts (:mod:`..state.hosted`), when the page is written: the title
    and anchor its table-of-contents entry has, then ``body``. The places of the objects whose
    canonical place is this page (``here``: :func:`..state.hosted.placed_here`; not a ``:no-index:``
    copy) have their index entry (for the builders that make their index from the page: LaTeX) and
    keep their anchor should another element of the page have it (:mod:`..site.ids`)."""
    sections: list[nodes.Node] = []
    for place in found:
        section = nodes.section(ids=[place.anchor], classes=list(classes))
        section += nodes.title(place.title, place.title)
        if place.name in here:
            OBJECT_ANCHOR.set(section, place.anchor)
            section += index_entry(objtype, place.named, place.anchor)
        section += body(place)
        sections.append(section)
    return sections


@dataclass(frozen=True)
class Collections:
    """The collections whose records that failed validation a notice lists."""

    collections: tuple[str, ...]


@renderer("broken-notice")
def render_broken_notice(context: RenderContext, params: Collections) -> list[nodes.Node]:
    """The records of ``collections`` that failed validation (:func:`.tables.broken_notice`)."""
    return broken_notice(context.catalog.broken_in(*params.collections))


def let_through(ctx: RenderContext, collection: str, record_id: str, field: str, cause: str,
                unshown: str) -> Broken:
    """A record whose reference the validation should have refused reached a renderer: the build
    warns at the record's line in its data file (``neuron.data``, as a validation error is; the
    ``cause``, once per page), and the renderer lists the returned record in its "Data problem" box
    (:func:`.tables.broken_notice`), with what it could not show (``unshown``). Never a crash (issue 37)."""
    file, line = ctx.catalog.origin(collection, record_id)
    warned: set[tuple[str, str, str, str]] = ctx.page.setdefault("let through", set())
    if (collection, record_id, field, cause) not in warned:
        warned.add((collection, record_id, field, cause))
        ctx.warn_at(f"{Path(ctx.env.config.neuron_data_dir) / file}:{line or ''}", f"{field}: {cause}", "data")
    return Broken(collection, record_id, file, line, [DataError(file, line, field, f"{cause}; {unshown}")])
