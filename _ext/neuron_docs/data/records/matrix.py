"""Pydantic models of one published revision of the support matrices (``data/matrix/<date>.yaml``).

A revision holds what the architecture-fit page showed on its date: its vocabulary (devices,
frameworks), its status and fit labels with their published definitions, its instance table, and
its matrices (one per NeuronCore generation, for one or more devices; columns are a framework for
a workload; rows are families, each in one or more categories, with a fit and one cell per column).
Only the shape of a record is checked here; references are checked by :mod:`..checking.matrix_files`.
No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from .fields import Count, Fit, Id, Name, Status, Text, Workload
from .models import Record

#: A column's key in a row's ``cells``: ``<framework id>/<workload>``.
ColumnKey = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9.\-]*/[a-z]+$", max_length=100)]
#: A cell's place across revisions: (matrix id, family id, column key).
CellId = tuple[str, str, str]


def _iso_date(value: object) -> object:
    """Accept a YAML date or text written YYYY-MM-DD; refuse any other format, times and numbers."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    msg = f"a date written YYYY-MM-DD (got {str(value)!r}, an unknown date format)"
    raise ValueError(msg)


def _cell_shorthand(value: object) -> object:
    return {"status": value} if isinstance(value, str) else value


IsoDate = Annotated[dt.date, BeforeValidator(_iso_date)]


class Cell(Record):
    """One status cell as published, with an optional published note or link, and the project's
    own ``annotation`` (not part of the page, never counted as a change)."""

    status: Status
    note: Text | None = None
    link: Name | None = None
    annotation: Text | None = None

    @property
    def published(self) -> tuple[str, str | None, str | None]:
        """What the page shows: the value compared between revisions."""
        return (self.status, self.note, self.link)


class Column(Record):
    """A support column: a framework for a workload, with its header as published."""

    framework: Id
    workload: Workload
    header: Name

    @property
    def key(self) -> str:
        return f"{self.framework}/{self.workload}"

class Row(Record):
    """A family's row: its categories, architecture fit and one cell per column."""

    family: Id
    label: Name
    categories: Annotated[list[Id], Field(min_length=1)]
    fit: Fit
    #: ``prose``: the page gave this row's facts in its text, not in the table (R-CNN, 2022-10-10).
    published_in: Literal["table", "prose"] = "table"
    evidence: list[Text] = []
    cells: dict[ColumnKey, Annotated[Cell, BeforeValidator(_cell_shorthand)]]


class Matrix(Record):
    """One support matrix: devices of one NeuronCore generation, its columns and rows."""

    id: Id
    architecture: Name
    title: Name
    devices: Annotated[list[Id], Field(min_length=1)]
    #: The hand-typed "Last update" text, kept only as a recorded fact (the site derives its own).
    last_update_published: Name
    columns: Annotated[list[Column], Field(min_length=1)]
    rows: list[Row]

    def column(self, key: str) -> Column | None:
        return next((c for c in self.columns if c.key == key), None)

    def row(self, family: str) -> Row | None:
        return next((r for r in self.rows if r.family == family), None)


class StatusDefinition(Record):
    """A status as the revision publishes it: label, definition (when given), link."""

    label: Name
    definition: Text | None = None
    link: Name | None = None
    roadmap: Id | None = None


class InstanceRow(Record):
    """A row of the page's instance table (from 2023-02-26), mapped to an instance id."""

    instance: Id
    label: Name
    device: Id
    device_count: Count
    neuroncores: Count
    neuroncores_per_device: Count


class Revision(Record):
    """One published revision of the page: its date and commit, vocabulary and matrices."""

    date: IsoDate
    commit: Annotated[str, Field(pattern=r"^[0-9a-f]{7,40}$")]
    source: Id
    page: Text
    #: Why a revision whose matrices did not change is kept (turns off the "changes nothing" warning).
    unchanged_because: Text | None = None
    devices: Annotated[list[Id], Field(min_length=1)]
    frameworks: Annotated[list[Id], Field(min_length=1)]
    statuses: dict[Status, StatusDefinition]
    fits: dict[Fit, Name]
    instances: list[InstanceRow] = []
    matrices: Annotated[list[Matrix], Field(min_length=1)]

    def matrix(self, matrix_id: str) -> Matrix | None:
        return next((m for m in self.matrices if m.id == matrix_id), None)

    def matrix_of(self, device: str) -> Matrix | None:
        """The matrix that lists ``device`` (a device is in at most one matrix of a revision)."""
        return next((m for m in self.matrices if device in m.devices), None)

    def cells(self) -> dict[CellId, Cell]:
        """Every cell by (matrix, family, column key)."""
        return {(m.id, row.family, key): cell for m in self.matrices for row in m.rows
                for key, cell in row.cells.items()}

    @property
    def name(self) -> str:
        """The revision as readers see it named: its ISO date."""
        return self.date.isoformat()
