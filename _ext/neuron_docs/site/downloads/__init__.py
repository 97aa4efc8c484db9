"""Downloads: every generated table as CSV, and the whole data set as one JSON file with its schema.

One module per concern:

- :mod:`.table_csv`: the CSV text of a docutils table (its model's rows and figures, else its cells as
  read and their figures parsed; figures as numbers, notes, neutralised against spreadsheet formulas);
- :mod:`.table_files`: the CSV file of every generated table of a resolved page and its link;
- :mod:`.csv_index`: the ``neuron:csv-index`` directive, a table of every CSV written;
- :mod:`.json_stream`: JSON in pieces, byte for byte ``json.dumps(..., indent=1)``, and the write that
  replaces a file only when its bytes change;
- :mod:`.data_json`: the data set as one JSON document (records in file order, figures by path);
- :mod:`.data_schema`: its JSON schema, from the record models;
- :mod:`.data_download`: writing both on ``build-finished`` and the ``neuron:data-downloads`` directive;
- :mod:`.links`: where a download is from a page of any builder, and the ``neuron:download`` role.
- :mod:`.history_csv`: the benchmark history as one long-format CSV.

Only HTML builders write downloads; an ePub, a PDF or a text build links to the site's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import csv_index, data_download, links

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup_downloads(app: Sphinx) -> None:
    app.add_node(csv_index.csv_index)
    app.add_directive_to_domain("neuron", "csv-index", csv_index.CsvIndex)
    app.add_directive_to_domain("neuron", "data-downloads", data_download.DataDownloads)
    app.add_role_to_domain("neuron", "download", links.DownloadRole())
