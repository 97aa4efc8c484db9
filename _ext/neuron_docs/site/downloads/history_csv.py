"""The benchmark history as one long-format CSV: ``_downloads/benchmark-history.csv``.

One row per published figure (:func:`~neuron_docs.data.published.history_view.long_rows`): its
configuration's columns, the Neuron release, the metric, unit and value, when it was first
published and last seen and how its publication ended, and for a throughput the cost per 1M at the
price in force when it was published (which price: basis, rate, date). Written on
``build-finished`` by HTML builders, replaced only when its bytes change; cells neutralised against
spreadsheet formulas like every CSV of the site. Its rows are made from the history's own files alone
(:data:`~neuron_docs.data.catalog.HISTORY_FILES`), so a build whose other data changed copies the
file an earlier build of this process made (:func:`history_key`).
"""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path
from typing import TYPE_CHECKING

from ...data.catalog import FILES, HISTORY_FILES
from ...data.files.loader import file_digest
from ...data.published.history_view import LONG_HEADER, BenchmarkHistoryIndex, long_rows
from ...state.domain import dataset
from .links import writes_downloads
from .json_stream import write_made_from
from .table_csv import neutralised

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx

    from ...data import Catalog

HISTORY_CSV = "_downloads/benchmark-history.csv"


def history_csv_pieces(catalog: Catalog) -> Iterator[str]:
    """The CSV's text in pieces (a header, then a piece per 500 rows)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(LONG_HEADER)
    for number, row in enumerate(long_rows(BenchmarkHistoryIndex.of(catalog)), start=1):
        writer.writerow([neutralised(cell) for cell in row])
        if number % 500 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def history_key(catalog: Catalog) -> str:
    """What the CSV is a function of: the bytes of the history's files and which of their records
    validation kept (a record set aside for what another file holds leaves the CSV)."""
    digest = hashlib.sha256()
    for spec in FILES:
        if spec.name in HISTORY_FILES and spec.csv is not None:
            digest.update(f"{spec.name}\0{file_digest(catalog.data_dir / spec.name, catalog.data_dir, spec.max_bytes)}"
                          f"\0{len(catalog.records[spec.csv[0]])}\0".encode())
            digest.update("\0".join(catalog.records[spec.csv[0]]).encode())
    return digest.hexdigest()


def write_history_csv(app: Sphinx, exception: BaseException | None) -> None:
    """Write the history's CSV at the end of a successful HTML build (none when the data has no history)."""
    if exception is not None or not writes_downloads(app):
        return
    data = dataset(app.env)
    if data.catalog.benchmark_observations:
        write_made_from(Path(app.outdir, HISTORY_CSV), history_key(data.catalog),
                        lambda: history_csv_pieces(data.catalog))
