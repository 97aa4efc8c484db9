"""A generated table as one model: rows of :class:`TableCell` built once, each holding what the page
shows, its words in the CSV download and, for a figure, the number and unit it was printed from;
:meth:`TableModel.table` makes both the docutils table and its CSV rows
(:data:`~neuron_docs.node_data.CSV_ROWS`) from it. A cell's words are what a reader reads in it (no
"since" date, hidden words or a blank's dash): ``tests/test_table_csv.py`` checks them against the
nodes of every generated table of the site.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, cast

from docutils import nodes

from ..data.figures.formatting import (NumberFormat, cost_value, display_number, figure_value, plain_value, shown_cost,
                                       shown_figure, shown_measure, shown_price)
from ..node_data import CSV_NAME, CSV_ROWS, CsvFigure, CsvRows
from ..state.domain import xref
from .tables import blank, build_table

if TYPE_CHECKING:
    from .tables import Cell


@dataclass(frozen=True)
class TableCell:
    """One cell: what the page shows (text or nodes), its words in the CSV and, when it prints a figure,
    the number (as rounded for the page) and unit (as the CSV's header names it) it was printed from."""

    page: Cell
    csv: str
    figure: tuple[float, str] | None = None

    def csv_cell(self) -> str | CsvFigure:
        """The cell in the CSV rows: its words (white space as one space), a figure with its number."""
        words = " ".join(self.csv.split())
        return CsvFigure(words, *self.figure) if self.figure is not None else words


def text(words: str | None) -> TableCell:
    """Plain text, the same on the page and in the CSV (None: an empty cell)."""
    return TableCell(words or "", words or "")


def figure(words: str, number: float | None, unit: str = "", page: Cell = None) -> TableCell:
    """A figure printed as ``words`` (on the page: ``page``, else the words) from ``number`` in ``unit``
    (as the CSV's header names it; None: no plain number printed, the CSV keeps the words)."""
    return TableCell(words if page is None else page, words, None if number is None else (number, unit))


def count(number: int | None) -> TableCell:
    """A whole number (a batch size, a count of cores), or an empty cell."""
    return text(None) if number is None else figure(str(number), float(number))


def number(value: float, unit: str = "", fmt: NumberFormat = NumberFormat()) -> TableCell:
    """A number in ``unit`` as :func:`~neuron_docs.data.figures.formatting.display_number` writes it
    (``0.56x``, ``39%``, ``400 Gbps``), with the number it shows (dollars with a sign before them, which
    no price or cost has: the words alone)."""
    words = display_number(value, unit, fmt)
    signed_dollars = unit in ("USD", "USD/h") and words[:1] in "+-"
    return figure(words, None if signed_dollars else plain_value(value, fmt), unit)


def measure(value: Decimal | float, unit: str) -> TableCell:
    """A measured figure with its unit (:func:`~neuron_docs.data.figures.formatting.shown_measure`)."""
    return figure(shown_measure(value, unit), figure_value(value), unit)


def cost(usd: Decimal | float) -> TableCell:
    """A cost in dollars (:func:`~neuron_docs.data.figures.formatting.shown_cost`)."""
    return figure(shown_cost(usd), cost_value(usd), "USD")


def price(usd_per_hour: Decimal | float) -> TableCell:
    """An hourly price (:func:`~neuron_docs.data.figures.formatting.shown_price`)."""
    return figure(shown_price(usd_per_hour), plain_value(float(usd_per_hour)), "USD/h")


def csv_figure(words: str, number: float | None, unit: str = "") -> str | CsvFigure:
    """A cell of a table's own CSV rows (:attr:`TableModel.csv`): a figure's words with the number and
    unit they were printed from (None: the words alone)."""
    return words if number is None or not words else CsvFigure(words, number, unit)


def csv_count(number: int | None) -> str | CsvFigure:
    """A whole number in a table's own CSV rows (None or 0: an empty cell)."""
    return csv_figure(str(number), float(number)) if number else ""


def csv_measure(value: Decimal | float | None) -> str | CsvFigure:
    """A measured figure without its unit (the header names it) in a table's own CSV rows."""
    return "" if value is None else csv_figure(shown_figure(value), figure_value(value))


def linked(kind: str, target: str, label: str, *, after: str = "") -> TableCell:
    """A reference to the object ``target`` of ``kind`` shown as ``label`` (then ``after``, as text)."""
    reference = xref(kind, target, label)
    return TableCell([reference, nodes.Text(after)], label + after) if after else TableCell(reference, label)


def _copied(page: Cell) -> Cell:
    """A cell's page content with nodes of its own (text as it is)."""
    if isinstance(page, nodes.Node):
        return page.deepcopy()
    if page is None or isinstance(page, str):
        return page
    return [cast("nodes.Node", node).deepcopy() for node in page]


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
    csv: CsvRows | None = None

    def add(self, cells: list[TableCell], row_id: str | None = None) -> None:
        """A body row (with its id when the table's rows have ids)."""
        self.rows.append(cells)
        self.row_ids.append(row_id)

    def csv_rows(self) -> CsvRows:
        """The header and every row as the CSV holds them, before the download's number rule."""
        if self.csv is not None:
            return self.csv
        return [[" ".join(header.split()) for header in self.headers],
                *([cell.csv_cell() for cell in row] for row in self.rows)]

    def copy(self) -> TableModel:
        """The model with nodes of its own: a table made from a model takes the model's nodes (and
        the links among them are resolved in place), so a model to be written again is copied first."""
        return replace(self, rows=[[replace(cell, page=_copied(cell.page)) for cell in row] for row in self.rows],
                       row_ids=list(self.row_ids))

    def table(self) -> nodes.table:
        """The docutils table, carrying its CSV rows (and its download's name when given)."""
        table = build_table(self.headers, [[cell.page for cell in row] for row in self.rows], classes=self.classes,
                            caption=self.caption, row_ids=self.row_ids, name=self.name)
        if self.csv_name:
            CSV_NAME.set(table, self.csv_name)
        CSV_ROWS.set(table, self.csv_rows())
        return table

