"""The data set's download files and the ``neuron:data-downloads`` directive.

On ``build-finished`` (HTML builders, a build without error) the data set is written to
``_downloads/neuron-data.json`` in pieces (:func:`.data_json.data_pieces`, never whole in memory)
and its JSON schema to ``_downloads/neuron-data.schema.json``; each file is replaced only when its
bytes change. The directive lists the download's collections: name, data file, record count and
record type, rendered when the page is written (:mod:`neuron_docs.render`): the page shows every
data file, and a change of one rewrites it without reading it again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from ...state.domain import dataset
from ...data import catalog as catalog_module
from ...data.checking.matrix_files import MATRIX_DIR
from ...data.record_keys import file_key
from ...render.table_model import TableCell, TableModel, count, text
from ...render.placeholder import NoParams, RenderContext, defer, renderer
from .data_json import SCHEMA_VERSION, collection_types, data_pieces, newest_date
from .data_schema import schema_text
from .json_stream import write_if_changed, write_made_from
from .links import writes_downloads

if TYPE_CHECKING:
    from sphinx.application import Sphinx

JSON_NAME = "_downloads/neuron-data.json"
SCHEMA_NAME = "_downloads/neuron-data.schema.json"


def write_data_files(app: Sphinx, exception: BaseException | None) -> None:
    """Write the JSON download and its schema at the end of a successful HTML build."""
    if exception is not None or not writes_downloads(app):
        return
    data = dataset(app.env)
    write_made_from(Path(app.outdir, JSON_NAME), data.content_key, lambda: data_pieces(data.catalog, data.values))
    write_if_changed(Path(app.outdir, SCHEMA_NAME), [schema_text()])


class DataDownloads(SphinxDirective):
    """The collections of the JSON download: name, data file, record count and record type (rendered
    when the page is written; the page shows every data file)."""

    def run(self) -> list[nodes.Node]:
        shown = [file_key(name) for name in (*catalog_module.FILE_NAMES, MATRIX_DIR)]
        return [defer(self, render_data_downloads, NoParams(), shown)]


@renderer("data-downloads")
def render_data_downloads(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    """The schema's version, the data's date, and a table of the download's collections."""
    catalog = ctx.catalog
    table = TableModel(["Collection", "Data file", "Records", "Record type ($defs)"],
                       classes=["neuron-download-collections"], name="download-collections")
    for name, model in collection_types().items():
        table.add([TableCell(nodes.literal(name, name), name), text(catalog.file_of(name)),
                   count(len(catalog.records.get(name, {}))),
                   TableCell(nodes.literal(model.__name__, model.__name__), model.__name__)])
    intro = nodes.paragraph()
    intro += nodes.Text(f"Schema version {SCHEMA_VERSION}; data last updated {newest_date(catalog) or 'unknown'}.")
    return [intro, table.table()]
