"""The ``neuron:csv-index`` directive: a table of every CSV the build writes, with its page.

The directive leaves a :class:`csv_index` placeholder; when its page is resolved (before the tables'
CSVs are written, so the index gets a CSV of its own) the placeholder becomes a sortable table of
every generated table of every page (:func:`.table_files.csv_name`): the CSV file, the table's
title (else its section's) and the page it is on, then the index itself. Builders other than HTML
(the PDF, text, manual pages) get the same index as a list, an item a file ("name.csv: title, on
Page"), its file linked to the published site where the reader can follow a link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.errors import NoUri
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

from ...state.dependencies import shows_every_page
from ...render.expand import filled_doctree
from ...render.table_model import TableCell, TableModel, text
from ...state.build import is_html
from .links import download_uri, links_downloads
from .table_files import TABLES_DIR, csv_name

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class csv_index(nodes.General, nodes.Element):  # noqa: N801 - docutils node naming
    """Where the index of every CSV download goes; filled when the page is resolved."""


INDEX_NAME = "csv-index"


class CsvIndex(SphinxDirective):
    """A table of every CSV the build writes: its file, the table's title and the page it is on."""

    def run(self) -> list[nodes.Node]:
        shows_every_page(self.env)  # lists the tables of every page: written again when one is
        return [csv_index()]


def _page_uri(app: Sphinx, fromdoc: str, docname: str) -> str | None:
    """The link to page ``docname`` (the HTML builders: relative to the page; the others their own)."""
    if app.builder.name == "singlehtml":  # "#document-<page>", the root page its top
        return "" if docname == app.config.root_doc else app.builder.get_relative_uri(fromdoc, docname)
    if is_html(app):
        return relative_uri(app.builder.get_target_uri(fromdoc), app.builder.get_target_uri(docname))
    try:
        return app.builder.get_relative_uri(fromdoc, docname)
    except NoUri:
        return None


def _page_link(app: Sphinx, fromdoc: str, docname: str, title: str) -> TableCell:
    uri = _page_uri(app, fromdoc, docname)
    return TableCell(nodes.reference("", title, refuri=uri, internal=True) if uri is not None else nodes.Text(title),
                     title)


def _file_link(app: Sphinx, fromdoc: str, name: str) -> TableCell:
    file = f"{name}.csv"
    return TableCell(nodes.reference("", file, refuri=download_uri(app, fromdoc, f"{TABLES_DIR}/{file}")), file)


def _index_rows(app: Sphinx, fromdoc: str) -> list[list[TableCell]]:
    """A row per generated table of every page (its file, title and page), then the index's own."""
    rows: list[list[TableCell]] = []
    for docname in sorted(app.env.found_docs):
        doctree = filled_doctree(app, docname)
        for index, table in enumerate(doctree.findall(nodes.table), start=1):
            name = csv_name(table, docname, index)
            if not name:
                continue
            title = next(iter(table.findall(nodes.title)), None)
            heading = title.astext() if title else ""
            if not heading:
                parent = table.parent
                while parent is not None and not isinstance(parent, nodes.section):
                    parent = parent.parent
                heading = parent[0].astext() if parent is not None and parent.children else ""
            doc_title = app.env.titles[docname].astext() if docname in app.env.titles else docname
            rows.append([_file_link(app, fromdoc, name), text(heading), _page_link(app, fromdoc, docname, doc_title)])
    rows.append([_file_link(app, fromdoc, INDEX_NAME), text("This index"),
                 _page_link(app, fromdoc, fromdoc, app.env.titles[fromdoc].astext())])
    return rows


def _index_list(rows: list[list[TableCell]], links: bool) -> nodes.bullet_list:
    """The index as a list (builders other than HTML): "file.csv: title, on Page" an item."""
    items = nodes.bullet_list(classes=["neuron-csv-index"])
    for file, title, page in rows:
        paragraph = nodes.paragraph()
        paragraph += file.page if links else nodes.literal(file.csv, file.csv)
        paragraph += nodes.Text(f": {title.csv}, on " if title.csv else ": on ")
        paragraph += page.page if links or isinstance(page.page, nodes.Text) else nodes.Text(page.csv)
        items += nodes.list_item("", paragraph)
    return items


def fill_index(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Replace each placeholder of a resolved page with the index table (a list for other builders)."""
    for node in list(doctree.findall(csv_index)):
        if not is_html(app):
            node.replace_self(_index_list(_index_rows(app, docname), links_downloads(app)))
            continue
        model = TableModel(["CSV file", "Table", "Page"], classes=["neuron-csv-index", "neuron-sortable"],
                           name=INDEX_NAME, csv_name=INDEX_NAME)
        for row in _index_rows(app, docname):
            model.add(row)
        node.replace_self(model.table())
