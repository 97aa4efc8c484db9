"""One support matrix of one revision as docutils nodes: its derived "Last update", the table, the
cell notes, and the revision's status and fit labels with their published definitions.

Every cell says since which revision it holds its value ("since 2023-02-27", a link to that
revision's page); matrix cells carry preview keys ``support/<matrix>/<family>/<framework>/<workload>``
and ``fit/<matrix>/<family>``. Used by :mod:`.matrix` (``neuron:support-matrix`` for a device,
``neuron:support-matrices`` for every matrix of a revision). For the HTML builder the rows are
light rows (:mod:`..render.light_rows`): each distinct cell is made and written once, and the
table's CSV is given row by row from the data.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from docutils import nodes

from ..data.records.labels import BADGE_MEANING
from ..state.domain import xref
from ..render.tables import badge, build_table, table_row
from ..node_data import CSV_NAME, CSV_ROWS, MATRIX_DEVICES, PREVIEW_KEY

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..data import Catalog
    from ..data.records.matrix import Cell, Column, Matrix, Revision, Row
    from ..render.light_rows import RowWriter
    from ..render.placeholder import RenderContext


def header_text(column: Column) -> str:
    """A column's header as published, without the reStructuredText literal markers."""
    return column.header.replace("``", "")


def cell_anchor(rev: Revision, matrix: Matrix, family: str, column: str = "") -> str:
    """The HTML id of a cell (or, without ``column``, of a row) on the revision's page."""
    return nodes.make_id("-".join(p for p in ("cell", rev.name, matrix.id, family, column.replace("/", "-")) if p))


def revision_link(date: dt.date, text: str, fragment: str = "", classes: tuple[str, ...] = ()) -> nodes.Node:
    """A link to the page of the revision of ``date`` (and an anchor on it)."""
    target = date.isoformat() + (f"#{fragment}" if fragment else "")
    return xref("revision", target, text, classes=classes)


@dataclass(frozen=True)
class CellText:
    """What one status cell says, worked out once for its nodes and for its CSV text."""

    #: The status's label as the revision publishes it (the badge's text; the CSV's cell).
    label: str
    #: The note under the table the cell points at (numbered per table), if it has one.
    note: str | None


@dataclass(frozen=True)
class RowText:
    """What one row says, worked out once for its nodes and for its CSV text."""

    #: The family's name as shown (a link to its page in the table).
    name: str
    #: What follows the name: where the row was published, when not in the matrix itself.
    source: str
    categories: str
    #: The fit's label as the revision publishes it.
    fit: str
    cells: tuple[CellText, ...]

    @property
    def label(self) -> str:
        """The row's label as text (the CSV's first cell)."""
        return self.name + self.source


@dataclass
class MatrixView:
    """What to render of one matrix: which revision, for which device, which columns and rows."""

    #: The placeholder being rendered (the data set, and where a missing record is reported).
    ctx: RenderContext
    rev: Revision
    matrix: Matrix
    #: The device a page is about: cells are dated no earlier than the revision that listed it.
    device: str | None = None
    columns: list[Column] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    #: Table id and CSV name.
    name: str = ""
    #: Give every cell its anchor (the revision's canonical rendering).
    anchors: bool = False
    notes: list[str] = field(default_factory=list)
    #: Makes the rows as HTML (the HTML builder), else they are nodes.
    writer: RowWriter | None = None
    #: The roadmap item of each status's cells (a status links to one, or to none).
    _roadmaps: dict[str, str | None] = field(default_factory=dict, init=False, repr=False)

    @property
    def catalog(self) -> Catalog:
        return self.ctx.catalog

    @property
    def latest(self) -> bool:
        return self.rev is self.catalog.matrix_revisions.latest()

    def rows(self) -> list[Row]:
        return [r for r in self.matrix.rows if not self.categories or set(r.categories) & set(self.categories)]

    def since(self, family: str, column: str) -> dt.date:
        date = self.catalog.matrix_revisions.cell_since(self.rev, (self.matrix.id, family, column), self.device)
        if date is None:  # every cell of the revision's matrices holds its value since some revision
            raise KeyError((self.matrix.id, family, column))
        return date

    def _roadmap(self, cell: Cell) -> str | None:
        if cell.status not in self._roadmaps:
            self._roadmaps[cell.status] = self.catalog.roadmap_item(cell, self.rev.name)
        return self._roadmaps[cell.status]

    def render(self) -> list[nodes.Node]:
        result: list[nodes.Node] = [self._last_update()]
        rows = self.rows()
        headers = ["Model Family / Neural Network Architecture", "Category", "Hardware Architecture",
                   *(header_text(c) for c in self.columns)]
        row_ids = [cell_anchor(self.rev, self.matrix, r.family) if self.anchors
                   else f"matrix-{self.device or self.matrix.id}-{r.family}" for r in rows]
        if self.writer is None:
            table = build_table(headers, [self._row(row) for row in rows],
                                classes=["neuron-support-matrix", "neuron-sortable"], name=self.name, row_ids=row_ids)
        else:
            table = build_table(headers, [], classes=["neuron-support-matrix", "neuron-sortable"], name=self.name)
            body = next(iter(table.findall(nodes.tbody)))
            body.extend([self._light_row(self.writer, row, row_id) for row, row_id in zip(rows, row_ids, strict=True)])
        CSV_ROWS.set(table, self._csv_rows(headers, rows))  # from the rows, however they are written
        CSV_NAME.set(table, self.name)
        # The devices whose current matrix this table shows (read by site.device_checks).
        MATRIX_DEVICES.set(table, list(self.matrix.devices) if self.latest else [])
        result.append(table)
        if self.notes:
            note_list = nodes.enumerated_list(classes=["neuron-cell-notes"])
            for index, text in enumerate(self.notes, start=1):
                item = nodes.list_item(ids=[f"{self.name}-note-{index}"])
                item += nodes.paragraph(text, text)
                note_list += item
            result.append(note_list)
        since = ("Legend: \u201csince <date>\u201d after a status is the revision from which the cell has "
                 "held that value; it links to that revision as published.")
        result.append(nodes.paragraph(since, since, classes=["neuron-legend", "neuron-since-legend"]))
        result.append(definitions(self.rev))
        return result

    def _last_update(self) -> nodes.paragraph:
        """"Last update - <date>": the latest revision that changed this matrix (derived, never typed)."""
        date = self.catalog.matrix_revisions.last_update(self.rev)[self.matrix.id]
        line = nodes.paragraph(classes=["neuron-last-update"])
        line += nodes.emphasis("Last update", "Last update")
        line += nodes.Text(f" - {date.isoformat()}")
        line += nodes.Text(" (")
        line += xref("changes", date.isoformat(), "the latest revision that changed this matrix")
        if self.anchors:  # the revision as it was: what its page typed, kept as a recorded fact
            line += nodes.Text(f"; published as \u201c{self.matrix.last_update_published}\u201d")
        line += nodes.Text(")")
        return line

    def _categories(self, row: Row) -> str:
        return " and ".join(category.name if (category := self.ctx.known("category", c, self.catalog.categories))
                            else c for c in row.categories)

    def cell_text(self, cell: Cell) -> CellText:
        """What ``cell`` says: the one place that works it out (:meth:`_cell`, :meth:`_csv_rows`)."""
        note = cell.note or (f"Project note: {cell.annotation}" if cell.annotation else None)
        return CellText(self.rev.statuses[cell.status].label, note)

    def row_text(self, row: Row) -> RowText:
        """What ``row`` says, for its CSV (:meth:`_csv_rows`), from what its nodes show."""
        name, source = self._name(row)
        return RowText(name, source, self._categories(row), self._fit_label(row),
                       tuple(self.cell_text(row.cells[column.key]) for column in self.columns))

    @staticmethod
    def _name(row: Row) -> tuple[str, str]:
        """The family's name as shown, and what follows it: the one place that works them out."""
        return row.label or row.family, " (from the guideline text)" if row.published_in == "prose" else ""

    def _fit_label(self, row: Row) -> str:
        """The label of the row's fit: the one place that works it out."""
        return self.rev.fits[row.fit]

    def _label(self, row: Row) -> list[nodes.Node]:
        name, source = self._name(row)
        label: list[nodes.Node] = [xref("family", row.family, name)]
        if source:
            label.append(nodes.Text(source))
        return label

    def _fit(self, row: Row) -> nodes.Node:
        fit = badge("fit", row.fit, self._fit_label(row))
        if self.latest:  # preview keys name the latest revision's cells, never an older one's
            PREVIEW_KEY.set(fit, f"fit/{self.matrix.id}/{row.family}")
        return fit

    def _row(self, row: Row) -> list[nodes.Node | str | list[nodes.Node]]:
        return [self._label(row), self._categories(row), self._fit(row),
                *(self._cell(row, column.key, row.cells[column.key]) for column in self.columns)]

    def _light_row(self, writer: RowWriter, row: Row, row_id: str) -> nodes.row:
        """The row written as HTML by ``writer`` (cells alike in what they show made once), or as
        nodes when a cell holds a note or an anchor (numbered per table, and ids of the page)."""
        cells = [row.cells[column.key] for column in self.columns]
        if self.anchors or any(self.cell_text(cell).note for cell in cells):
            return table_row(self._row(row), row_id)
        name, source = self._name(row)
        made: list[Callable[[], tuple[str, str] | None]] = [
            partial(writer.link_cell, "family", row.family, name, source, partial(self._label, row)),
            partial(writer.cell, ("categories", *row.categories), partial(self._categories, row)),
            partial(writer.cell, ("fit", row.fit), partial(self._fit, row)),
        ]
        for column, cell in zip(self.columns, cells, strict=True):
            # What a cell shows: its status (badge and roadmap link) and its date, not its place.
            made.append(partial(writer.cell, ("cell", cell.status, self.since(row.family, column.key)),
                                partial(self._cell, row, column.key, cell)))
        return writer.row(made, row_id.split()) or table_row(self._row(row), row_id)

    def _csv_rows(self, headers: list[str], rows: list[Row]) -> list[list[str]]:
        """The table's CSV, as :mod:`..site.downloads.table_csv` reads the cells' text: the labels
        shown, no "since" date, a Notes column when a cell has a note (``[n] text``)."""
        out = [[" ".join(h.split()) for h in headers]]
        notes: list[str] = []
        numbered = 0
        for row in rows:
            text = self.row_text(row)
            line = [text.label, text.categories, text.fit]
            marks = []
            for cell in text.cells:
                line.append(cell.label)
                if cell.note:
                    numbered += 1
                    marks.append(f"[{numbered}] {cell.note}")
            out.append([" ".join(text.split()) for text in line])
            notes.append("; ".join(marks))
        if any(notes):
            out[0].append("Notes")
            for line, note in zip(out[1:], notes, strict=True):
                line.append(note)
        return out

    def _cell(self, row: Row, key: str, cell: Cell) -> list[nodes.Node]:
        text = self.cell_text(cell)
        mark = badge("status", cell.status, text.label)
        if self.latest:
            PREVIEW_KEY.set(mark, f"support/{self.matrix.id}/{row.family}/{key}")
        if self.anchors:
            mark["ids"].append(cell_anchor(self.rev, self.matrix, row.family, key))
        roadmap = self._roadmap(cell)
        out: list[nodes.Node] = [xref("roadmap", roadmap, content=mark) if roadmap else mark]
        if text.note:
            self.notes.append(text.note)
            number = str(len(self.notes))
            marker = nodes.reference(number, number, refid=f"{self.name}-note-{number}",
                                     classes=["neuron-note-marker"])
            hidden = nodes.inline("Note ", "Note ", classes=["neuron-visually-hidden"])  # read as "Note 1"
            out.append(nodes.superscript("", "", hidden, marker))
        since = self.since(row.family, key)
        out.append(nodes.Text(" "))
        out.append(revision_link(since, f"since {since.isoformat()}", classes=("neuron-since",)))
        return out


def definitions(rev: Revision) -> nodes.definition_list:
    """The revision's status and fit labels, each with its published definition (or the project's
    explanation, said to be the project's, when the page published none)."""
    out = nodes.definition_list(classes=["neuron-legend", "neuron-status-definitions"])
    entries: list[tuple[str, str, str, str | None]] = [
        ("status", sid, d.label, d.definition) for sid, d in rev.statuses.items()]
    entries += [("fit", fid, label, None) for fid, label in rev.fits.items()]
    for kind, value, label, published in entries:
        item = nodes.definition_list_item()
        term = nodes.term()
        term += badge(kind, value, label)
        item += term
        body = nodes.definition()
        if published:
            text = f"Published definition ({rev.name}): {published}"
        else:
            meaning = BADGE_MEANING.get((kind, value), "")
            text = f"{meaning[:1].upper()}{meaning[1:]} (the page of {rev.name} publishes no definition)."
        body += nodes.paragraph(text, text)
        item += body
        out += item
    return out
