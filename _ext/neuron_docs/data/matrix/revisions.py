"""The revisions of the support matrices, and what is derived once from the valid ones (no Sphinx).

:class:`MatrixRevisions` answers every question the site asks of the revisions: the latest one, the
changes each made since the one before, since which revision every cell holds its value, each
matrix's "last update" (the latest revision that changed what it shows: never typed), and how the
hand-typed "Last update" of each revision compares with the derived one.
"""

from __future__ import annotations

import bisect
import datetime as dt
import re
from dataclasses import dataclass, field

from .changes import Changes, changes
from ..records.matrix import CellId, Revision


@dataclass(frozen=True)
class TypedLastUpdate:
    """A matrix's hand-typed "Last update" against the derived one, in one revision."""

    revision: dt.date
    matrix: str
    typed: str
    typed_date: dt.date | None
    derived: dt.date
    #: The first revision dated on or after the typed date: the one the typed date announces.
    announced: dt.date | None

    @property
    def consistent(self) -> bool:
        """True when the last change was published by the revision the typed date announces."""
        return self.announced == self.derived


def typed_date(text: str) -> dt.date | None:
    """A "Last update" as typed on the page (MM/DD/YYYY), or None when it is not one."""
    m = re.fullmatch(r"(\d\d)/(\d\d)/(\d{4})", text.strip())
    try:
        return dt.date(int(m.group(3)), int(m.group(1)), int(m.group(2))) if m else None
    except ValueError:
        return None


@dataclass
class MatrixRevisions:
    """The revisions oldest first, and what is derived from them."""

    revisions: list[Revision] = field(default_factory=list)
    #: What each revision changed since the one before (the first: everything added), by date.
    diffs: dict[dt.date, Changes] = field(default_factory=dict)
    #: Per revision, per cell: the date since which the cell holds its published value.
    held_since: dict[dt.date, dict[CellId, dt.date]] = field(default_factory=dict)
    #: Per revision, per matrix: the latest revision up to it that changed what the matrix shows.
    updated: dict[dt.date, dict[str, dt.date]] = field(default_factory=dict)
    #: Per device: the first revision with a matrix that lists it.
    first_listed: dict[str, dt.date] = field(default_factory=dict)

    @classmethod
    def of(cls, revisions: list[Revision]) -> MatrixRevisions:
        derived = cls(sorted(revisions, key=lambda r: r.date))
        before: Revision | None = None
        held: dict[CellId, tuple[tuple[str, str | None, str | None], dt.date]] = {}
        updated: dict[str, dt.date] = {}
        for rev in derived.revisions:
            diff = derived.diffs[rev.date] = changes(before, rev)
            now = {}
            for ident, cell in rev.cells().items():
                prev = held.get(ident)
                now[ident] = prev if prev and prev[0] == cell.published else (cell.published, rev.date)
            held = now
            derived.held_since[rev.date] = {ident: date for ident, (_, date) in held.items()}
            touched = diff.matrices_touched()
            updated = {m.id: rev.date if m.id in touched or m.id not in updated else updated[m.id]
                       for m in rev.matrices}
            derived.updated[rev.date] = dict(updated)
            for matrix in rev.matrices:
                for device in matrix.devices:
                    derived.first_listed.setdefault(device, rev.date)
            before = rev
        return derived

    @property
    def dates(self) -> list[dt.date]:
        return [r.date for r in self.revisions]

    def latest(self) -> Revision | None:
        """The newest revision: what the site shows by default."""
        return self.revisions[-1] if self.revisions else None

    def at(self, date: dt.date | str | None = None) -> Revision | None:
        """The revision of ``date`` (a date or ISO text; ``None``: the latest), or None."""
        if date is None:
            return self.latest()
        wanted = date if isinstance(date, dt.date) else _parse(date)
        return next((r for r in self.revisions if r.date == wanted), None)

    def previous(self, rev: Revision) -> Revision | None:
        i = self.dates.index(rev.date)
        return self.revisions[i - 1] if i else None

    def since(self, rev: Revision) -> dict[CellId, dt.date]:
        """Per cell of ``rev``: the date of the revision since which it holds its published value."""
        return self.held_since.get(rev.date, {})

    def last_update(self, rev: Revision) -> dict[str, dt.date]:
        """Per matrix of ``rev``: the latest revision up to it that changed what the matrix shows."""
        return self.updated.get(rev.date, {})

    def changes(self, rev: Revision) -> Changes:
        """What ``rev`` changed since the revision before it."""
        return self.diffs[rev.date]

    def first_listing(self, device: str) -> dt.date | None:
        """The first revision with a matrix for ``device``."""
        return self.first_listed.get(device)

    def cell_since(self, rev: Revision, cell: CellId, device: str | None = None) -> dt.date | None:
        """Since when ``cell`` of ``rev`` holds its published value, as every page and the advisor say
        it (the one rule): the revision since which it holds it (:meth:`since`), but for ``device``,
        whose matrix shows it, never before the device was first listed (a matrix that a device
        joined later held nothing for it before). None when ``rev`` has no such cell."""
        held = self.held_since.get(rev.date, {}).get(cell)
        first = self.first_listed.get(device) if device else None
        return max(held, first) if held is not None and first is not None else held

    def typed_last_updates(self) -> list[TypedLastUpdate]:
        """For every revision and matrix: the typed "Last update", the derived one and whether they agree."""
        dates = self.dates
        out = []
        for rev in self.revisions:
            derived = self.last_update(rev)
            for m in rev.matrices:
                typed = typed_date(m.last_update_published)
                i = bisect.bisect_left(dates, typed) if typed else len(dates)
                announced = dates[i] if i < len(dates) and dates[i] <= rev.date else None
                out.append(TypedLastUpdate(rev.date, m.id, m.last_update_published, typed, derived[m.id], announced))
        return out


def _parse(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        return None
