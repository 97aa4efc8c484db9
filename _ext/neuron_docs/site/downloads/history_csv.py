"""The benchmark history as one long-format CSV: ``_downloads/benchmark-history.csv``.

One row per published figure (:func:`~neuron_docs.data.published.history_view.long_rows`): its
configuration's columns, the Neuron release, the metric, unit and value, when it was first
published and last seen and how its publication ended, and for a throughput the cost per 1M at the
price in force when it was published (which price: basis, rate, date). Written on
``build-finished`` by HTML builders, replaced only when its bytes change; cells neutralised against
spreadsheet formulas like every CSV of the site.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING

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


def write_history_csv(app: Sphinx, exception: BaseException | None) -> None:
    """Write the history's CSV at the end of a successful HTML build (none when the data has no history)."""
    if exception is not None or not writes_downloads(app):
        return
    data = dataset(app.env)
    if data.catalog.benchmark_observations:
        write_made_from(Path(app.outdir, HISTORY_CSV), data.content_key, lambda: history_csv_pieces(data.catalog))
