"""What changed between two revisions of the support matrices (``changes(old, new)``).

Matrices are matched by id (the NeuronCore generation: ``neuroncore-v1``, ``neuroncore-v2``), rows
by family, columns by (framework, workload), so the Trainium-only matrix of 2022 and the
Trainium + Inferentia2 matrix of 2023 are one matrix that gained a device and columns. Every
:class:`MatrixChange` is JSON-ready (``Changes.model_dump(mode="json")``). No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ..records.labels import FIT_TEXT, STATUS_TEXT
from ..records.matrix import Cell, Matrix, Revision

ChangeKind = Literal[
    "cell", "cell-added", "cell-removed", "fit", "categories", "row-published",
    "family-added", "family-removed", "column-added", "column-removed",
    "device-added", "device-removed", "matrix-added", "matrix-removed",
    "instance-added", "instance-removed", "status-definition", "label",
]
#: What a change holds on either side: a status or fit id, a list of categories, a cell with its
#: note and link, a status definition, a title or label; ``None`` where absent.
ChangeValue = str | list[str] | dict[str, str | None] | None
#: Kinds that change what a matrix shows (and so move its derived "last update"); "label" does not.
MATRIX_KINDS = frozenset({
    "cell", "cell-added", "cell-removed", "fit", "categories", "row-published", "family-added", "family-removed",
    "column-added", "column-removed", "device-added", "device-removed", "matrix-added",
})


class MatrixChange(BaseModel):
    """One change: its kind, where it is (matrix, family, column or device), old and new value."""

    model_config = ConfigDict(frozen=True)

    kind: ChangeKind
    matrix: str | None = None
    family: str | None = None
    column: str | None = None
    subject: str | None = None
    old: ChangeValue = None
    new: ChangeValue = None

    def __str__(self) -> str:
        where = "/".join(p for p in (self.matrix, self.family, self.column, self.subject) if p)
        return f"{self.kind} {where}: {self.old!r} -> {self.new!r}"


class Changes(BaseModel):
    """Every change from the revision of ``old`` (``None``: nothing before) to that of ``new``."""

    old: dt.date | None
    new: dt.date
    items: list[MatrixChange]

    def is_empty(self) -> bool:
        return not self.items

    def counts(self) -> dict[str, int]:
        """Number of changes per kind."""
        return dict(Counter(c.kind for c in self.items))

    def shown(self) -> list[MatrixChange]:
        """The changes a reader sees in the matrices (labels aside)."""
        return [c for c in self.items if c.kind != "label"]

    def matrices_touched(self) -> set[str]:
        """Ids of the matrices whose shown content changed (labels aside)."""
        return {c.matrix for c in self.items if c.kind in MATRIX_KINDS and c.matrix}


def _cell_value(cell: Cell | None) -> ChangeValue:
    if cell is None:
        return None
    status, note, link = cell.published
    return status if note is None and link is None else {"status": status, "note": note, "link": link}


def _added_removed(kind: str, old: list[str], new: list[str], at: str = "subject", **where: Any) -> list[MatrixChange]:
    """``<kind>-added`` / ``-removed`` changes for the ids in one list and not the other (id in ``at``)."""
    out = [MatrixChange(kind=f"{kind}-added", new=x, **{at: x}, **where) for x in new if x not in old]
    out += [MatrixChange(kind=f"{kind}-removed", old=x, **{at: x}, **where) for x in old if x not in new]
    return out


def _matrix_changes(old: Matrix, new: Matrix) -> list[MatrixChange]:
    m = new.id
    out = _added_removed("device", old.devices, new.devices, matrix=m)
    old_cols, new_cols = [c.key for c in old.columns], [c.key for c in new.columns]
    out += _added_removed("column", old_cols, new_cols, at="column", matrix=m)
    out += _added_removed("family", [r.family for r in old.rows], [r.family for r in new.rows], at="family", matrix=m)
    for col in new.columns:
        before = old.column(col.key)
        if before and before.header != col.header:
            out.append(MatrixChange(kind="label", matrix=m, column=col.key, old=before.header, new=col.header))
    if old.title != new.title:
        out.append(MatrixChange(kind="label", matrix=m, subject="title", old=old.title, new=new.title))
    for row in new.rows:
        prev = old.row(row.family)
        f = row.family
        if prev is not None:
            if prev.fit != row.fit:
                out.append(MatrixChange(kind="fit", matrix=m, family=f, old=prev.fit, new=row.fit))
            if prev.categories != row.categories:
                out.append(MatrixChange(kind="categories", matrix=m, family=f, old=prev.categories, new=row.categories))
            if prev.published_in != row.published_in:  # e.g. R-CNN: prose (2022-10-10) -> table
                out.append(MatrixChange(kind="row-published", matrix=m, family=f, old=prev.published_in, new=row.published_in))
            if prev.label != row.label:
                out.append(MatrixChange(kind="label", matrix=m, family=f, old=prev.label, new=row.label))
        for key in dict.fromkeys([*new_cols, *(prev.cells if prev else {})]):
            was = _cell_value(prev.cells.get(key)) if prev else None
            now = _cell_value(row.cells.get(key))
            if was != now:
                kind = "cell" if was is not None and now is not None else ("cell-added" if was is None else "cell-removed")
                out.append(MatrixChange(kind=kind, matrix=m, family=f, column=key, old=was, new=now))
    for row in old.rows:
        if new.row(row.family) is None:
            out += [MatrixChange(kind="cell-removed", matrix=m, family=row.family, column=key, old=_cell_value(cell))
                    for key, cell in row.cells.items()]
    return out


def _whole_matrix(matrix: Matrix, kind: str) -> list[MatrixChange]:
    side = "new" if kind == "added" else "old"
    out = [MatrixChange(kind=f"matrix-{kind}", matrix=matrix.id, subject=matrix.title, **{side: matrix.title})]
    out += [MatrixChange(kind=f"cell-{kind}", matrix=matrix.id, family=row.family, column=key,
                   **{side: _cell_value(cell)}) for row in matrix.rows for key, cell in row.cells.items()]
    return out


def changes(old: Revision | None, new: Revision) -> Changes:
    """Every cell changed (old -> new), every family, device, column, matrix and instance added or
    removed, every status definition and label changed, from ``old`` to ``new``."""
    items: list[MatrixChange] = []
    old_matrices = {m.id: m for m in old.matrices} if old else {}
    for matrix in new.matrices:
        before = old_matrices.get(matrix.id)
        items += _matrix_changes(before, matrix) if before else _whole_matrix(matrix, "added")
    new_ids = {m.id for m in new.matrices}
    for matrix in old_matrices.values():
        if matrix.id not in new_ids:
            items += _whole_matrix(matrix, "removed")
    items += _added_removed("device", old.devices if old else [], new.devices)
    items += _added_removed("instance", [i.instance for i in old.instances] if old else [],
                            [i.instance for i in new.instances])
    old_statuses = old.statuses if old else {}
    for sid in dict.fromkeys([*old_statuses, *new.statuses]):
        was, now = old_statuses.get(sid), new.statuses.get(sid)
        if was != now:
            items.append(MatrixChange(kind="status-definition", subject=sid,
                                old=was.model_dump(exclude_none=True) if was else None,
                                new=now.model_dump(exclude_none=True) if now else None))
    return Changes(old=old.date if old else None, new=new.date, items=items)


def _words(kind: str, value: ChangeValue) -> str:
    """A value of a change in the words the pages use."""
    if value is None:
        return "(none)"
    if isinstance(value, list):
        return " and ".join(value)
    if isinstance(value, dict):
        status = value.get("status")
        if status is None:  # a status definition
            return "; ".join(f"{k}: {v}" for k, v in value.items() if v)
        extra = [f"{k} {v!r}" for k, v in value.items() if k != "status" and v]
        return STATUS_TEXT.get(status, status) + (f" ({', '.join(extra)})" if extra else "")
    if kind == "fit":
        return FIT_TEXT.get(value, value)
    if kind.startswith("cell"):
        return STATUS_TEXT.get(value, value)
    return value


def describe(change: MatrixChange) -> str:
    """``old -> new`` of a change (or what was added or removed), in the words the pages use."""
    if change.kind.endswith("-added"):
        return f"added: {_words(change.kind, change.new)}"
    if change.kind.endswith("-removed"):
        return f"removed: {_words(change.kind, change.old)}"
    return f"{_words(change.kind, change.old)} -> {_words(change.kind, change.new)}"
