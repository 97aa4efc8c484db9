"""A generated table as one model: rows of :class:`TableCell` built once, each holding what the page
shows and its words in the CSV download; :meth:`TableModel.table` makes both the docutils table and its
CSV rows (:data:`~neuron_docs.node_data.CSV_ROWS`) from it. A cell's words are what a reader reads in it
(no "since" date, hidden words or a blank's dash): ``tests/test_table_csv.py`` checks them against the
nodes of every generated table of the site.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docutils import nodes

from ..node_data import CSV_NAME, CSV_ROWS
from ..state.domain import xref
from .tables import blank, build_table

if TYPE_CHECKING:
    from .tables import Cell


@dataclass(frozen=True)
class TableCell:
    """One cell: what the page shows (text or nodes) and its words in the CSV."""

    page: Cell
    csv: str


def text(words: str | None) -> TableCell:
    """Plain text, the same on the page and in the CSV (None: an empty cell)."""
    return TableCell(words or "", words or "")


def linked(kind: str, target: str, label: str, *, after: str = "") -> TableCell:
    """A reference to the object ``target`` of ``kind`` shown as ``label`` (then ``after``, as text)."""
    reference = xref(kind, target, label)
    return TableCell([reference, nodes.Text(after)], label + after) if after else TableCell(reference, label)


def missing(kind: str, why: str = "") -> TableCell:
    """No figure, saying why (:func:`.tables.blank`): a dash on the page, an empty CSV cell."""
    return TableCell(blank(kind, why), "")


@dataclass
class TableModel:
    """A generated table: its header, its rows of :class:`TableCell` cells and how the page names it."""

    headers: Sequence[str]
    rows: list[list[TableCell]] = field(default_factory=list)
    #: Each row's HTML id(s) (several: space-separated), or None: one per row.
    row_ids: list[str | None] = field(default_factory=list)
    #: The table's own id (:func:`.tables.build_table`'s ``name``).
    name: str | None = None
    classes: Sequence[str] = ()
    caption: str | None = None
    #: The CSV download's name, when it is not the table's id.
    csv_name: str | None = None
    #: The CSV's own rows (header first) when a row of the page stands for several of them (a benchmark
    #: table's configuration, one CSV row per run): made from the same records as the page's rows.
    csv: list[list[str]] | None = None

    def add(self, cells: list[TableCell], row_id: str | None = None) -> None:
        """A body row (with its id when the table's rows have ids)."""
        self.rows.append(cells)
        self.row_ids.append(row_id)

    def csv_rows(self) -> list[list[str]]:
        """The header and every row as the CSV holds them, before the download's number rule."""
        if self.csv is not None:
            return self.csv
        return [[" ".join(header.split()) for header in self.headers],
                *([" ".join(cell.csv.split()) for cell in row] for row in self.rows)]

    def table(self) -> nodes.table:
        """The docutils table, carrying its CSV rows (and its download's name when given)."""
        table = build_table(self.headers, [[cell.page for cell in row] for row in self.rows], classes=self.classes,
                            caption=self.caption, row_ids=self.row_ids, name=self.name)
        if self.csv_name:
            CSV_NAME.set(table, self.csv_name)
        CSV_ROWS.set(table, self.csv_rows())
        return table

