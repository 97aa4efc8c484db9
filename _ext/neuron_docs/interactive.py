"""What readers get in the browser: sortable, filterable tables, badge styles, and data dates.

- HTML builders only: the extension's ``static/`` directory is added to ``html_static_path`` and
  ``neuron-tables.js`` (vanilla, no network) and ``neuron.css`` are linked from every page. The
  script enhances ``table.neuron-sortable`` in place (sort buttons in the headers with
  ``aria-sort``, a filter box per table); without it the tables read as they are.
- Every page that reads dated data gets a "Data last updated" line with the newest date among
  the files it declared with :func:`store.uses` (matrix updates, instance prices, source dates).
- Every id once per page: a generated table whose id a section or other element of the page
  already has gets ``-table`` added (:func:`_unique_table_ids`; a section "Accuracy" and the
  accuracy table), and furo, which wraps each table in a ``div.table-wrapper`` (so that a wide
  table scrolls on a narrow screen) and copies the table's ids onto it, has them taken off the
  wrapper (:class:`TableWrapperIds`).
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import queue
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .store import dataset
from .tables import unique_id

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from .data import Catalog

STATIC = Path(__file__).resolve().parent / "static"
JS_FILE = "neuron-tables.js"
CSS_FILE = "neuron.css"


def _on_builder_inited(app: Sphinx) -> None:
    if getattr(app.builder, "format", "") != "html":
        return
    if str(STATIC) not in app.config.html_static_path:
        app.config.html_static_path.append(str(STATIC))
    app.add_css_file(CSS_FILE)
    app.add_js_file(JS_FILE, loading_method="defer")


class _LocalManager:
    """Stands in for ``multiprocessing.Manager`` in sphinx-sitemap when the build runs in one process."""

    @staticmethod
    def Queue() -> queue.Queue:  # noqa: N802 - the name sphinx-sitemap calls
        return queue.Queue()


def _sitemap_without_a_server_process(app: Sphinx) -> None:
    """sphinx-sitemap starts a ``multiprocessing.Manager`` server process on every build, which is
    never shut down (slow, and it can hang the interpreter's exit when other threads run, as in the
    browser tests). A serial build needs only an in-process queue; parallel builds keep the Manager.
    """
    sitemap = sys.modules.get("sphinx_sitemap")
    if sitemap is not None and hasattr(sitemap, "Manager"):
        sitemap.Manager = multiprocessing.Manager if app.parallel > 1 else _LocalManager


def file_dates(catalog: Catalog) -> dict[str, dt.date]:
    """The newest date in each data file that holds dates."""
    found: dict[str, list[dt.date]] = {}
    if catalog.header and catalog.header.last_update:
        found.setdefault(catalog.file_of("families"), []).extend(catalog.header.last_update.values())
    found.setdefault(catalog.file_of("instances"), []).extend(i.price.as_of for i in catalog.instances.values())
    found.setdefault(catalog.file_of("sources"), []).extend(s.date for s in catalog.sources.values() if s.date)
    return {name: max(dates) for name, dates in found.items() if dates}


def page_data_date(app: Sphinx, docname: str) -> dt.date | None:
    """The newest date among the data files page ``docname`` reads."""
    used = app.env.domaindata.get("neuron", {}).get("doc_files", {}).get(docname, {})
    dates = file_dates(dataset(app.env).catalog)
    return max((dates[name] for name in used if name in dates), default=None)


def _on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    date = page_data_date(app, docname)
    if date is None:
        return
    line = nodes.paragraph(classes=["neuron-data-updated"])
    line += nodes.emphasis("Data last updated", "Data last updated")
    line += nodes.Text(f": {date.isoformat()}")
    sections = [n for n in doctree.children if isinstance(n, nodes.section)]
    (sections[0] if sections else doctree).append(line)


def _unique_table_ids(app: Sphinx, doctree: nodes.document) -> None:
    """Give a generated table a new id when the page already uses its id (sections keep theirs)."""
    tables = [t for t in doctree.findall(nodes.table) if "neuron-table" in t["classes"]]
    generated = {id(t) for t in tables}
    taken = {anchor for node in doctree.findall(nodes.Element) if id(node) not in generated
             for anchor in node["ids"]}
    for table in tables:
        table["ids"] = [unique_id(f"{anchor}-table" if anchor in taken else anchor, taken)
                        for anchor in table["ids"]]


class TableWrapperIds(SphinxPostTransform):
    """Take the table's ids off the wrapper furo puts around it (the same id twice on a page is
    invalid HTML, and ``#support-matrix-trainium`` would name the wrapper, not the table)."""

    default_priority = 510  # after furo's TableWrapper (500)
    formats = ("html",)

    def run(self, **kwargs: object) -> None:
        for wrapper in self.document.findall(nodes.container):
            if "table-wrapper" in wrapper["classes"] and wrapper.children and isinstance(wrapper[0], nodes.table):
                on_table = set(wrapper[0]["ids"])
                wrapper["ids"] = [anchor for anchor in wrapper["ids"] if anchor not in on_table]


def setup_interactive(app: Sphinx) -> None:
    app.connect("doctree-read", _unique_table_ids)
    app.add_post_transform(TableWrapperIds)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("builder-inited", _sitemap_without_a_server_process, priority=100)
    app.connect("doctree-resolved", _on_doctree_resolved)
