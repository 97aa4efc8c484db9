"""The CSV file of every generated table, and the "Download this table as CSV" link under it.

Each table carrying the class ``neuron-table`` is written to ``_downloads/tables/<name>.csv``
(:func:`csv_name`: its :data:`...node_data.CSV_NAME`, its id, or ``<page>-table-<n>``) while its page is
resolved, its text made by :func:`.table_csv.table_csv` (an ePub links to the site's: :mod:`.links`). Two different contents under one name are a
warning (``neuron.download``); the check keeps a digest per name, per build. A file is rewritten
only when its bytes change (else its mtime stays). Only HTML builders get downloads.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging

from ...state.domain import state
from .links import download_uri, links_downloads, writes_downloads
from .table_csv import table_csv
from ...node_data import CSV_NAME, TABLE_NAME_ID

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

TABLES_DIR = "_downloads/tables"


def csv_name(table: nodes.table, docname: str, index: int) -> str | None:
    """The download name of a generated table: its own, its id, or ``<page>-table-<n>``."""
    if "neuron-table" not in table.get("classes", []):
        return None
    return CSV_NAME.get(table) or TABLE_NAME_ID.get(table) or nodes.make_id(f"{docname}-table-{index}")


def write_table_csvs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Write the CSV of every generated table of a resolved page and put its link under it."""
    if not links_downloads(app):
        return
    writes = writes_downloads(app)
    written = state(app.env).csv_written
    target = Path(app.outdir, TABLES_DIR)
    for index, table in enumerate(list(doctree.findall(nodes.table)), start=1):
        name = csv_name(table, docname, index)
        if not name:
            continue
        content = table_csv(table).encode("utf-8")
        digest = hashlib.sha256(content).hexdigest()
        if name in written and written[name][1] != digest:
            logger.warning("table download %r is written by %s and %s with different content", name,
                           written[name][0], docname, location=(docname, table.line),
                           type="neuron", subtype="download")
        written[name] = (docname, digest)
        path = target / f"{name}.csv"
        if writes and (not path.is_file() or path.stat().st_size != len(content) or path.read_bytes() != content):
            target.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        link = nodes.paragraph(classes=["neuron-download"])
        uri = download_uri(app, docname, f"{TABLES_DIR}/{name}.csv")
        link += nodes.reference("", "Download this table as CSV", refuri=uri,
                                classes=["neuron-download-link"])
        link += nodes.Text(f" ({name}.csv)")
        table.parent.insert(table.parent.index(table) + 1, link)


def forget_written(app: Sphinx, exception: BaseException | None) -> None:
    """Each build checks its own names: the digests of this one are dropped when it ends."""
    state(app.env).csv_written.clear()
