"""Since when a support cell holds, for a device that joined its matrix later (``MatrixRevisions.cell_since``
and the first listing of each device, ``data/matrix/revisions.py``), on revisions built in the test.
Light: no catalog, no Sphinx (``tests/MUTATION.md``); ``test_matrix_revisions.py`` and the seeded-bug
tests pin the other rules of the module on the real revisions."""

from __future__ import annotations

import datetime as dt

from neuron_docs.data.matrix.revisions import MatrixRevisions
from neuron_docs.data.records.matrix import Cell

from test_matrix_changes import _column, _matrix, _matrix_revision, _row


def revisions() -> MatrixRevisions:
    """inf1's matrix from January 1st; inf2 joins it on the 5th; the cell changes on the 9th."""
    def rev(day: int, devices: list[str], status: str) -> object:
        matrix = _matrix("m", [_column("pytorch")], [_row("bert", {"pytorch/inference": Cell(status=status)})],
                         devices=devices)
        return _matrix_revision(day, [matrix], devices=devices)
    return MatrixRevisions.of([rev(1, ["inf1"], "supported"), rev(5, ["inf1", "inf2"], "supported"),
                               rev(9, ["inf1", "inf2"], "limited")])


CELL = ("m", "bert", "pytorch/inference")


def test_each_device_is_first_listed_with_the_first_revision_of_its_matrix() -> None:
    history = revisions()
    assert history.first_listing("inf1") == dt.date(2023, 1, 1)
    assert history.first_listing("inf2") == dt.date(2023, 1, 5)
    assert history.first_listing("trn1") is None


def test_a_cell_holds_for_a_device_never_before_the_device_was_listed() -> None:
    history = revisions()
    five, nine = history.revisions[1], history.revisions[2]
    assert history.cell_since(five, CELL) == dt.date(2023, 1, 1)  # the matrix's own cell
    assert history.cell_since(five, CELL, "inf1") == dt.date(2023, 1, 1)
    assert history.cell_since(five, CELL, "inf2") == dt.date(2023, 1, 5)  # joined later: from then
    assert history.cell_since(nine, CELL, "inf2") == dt.date(2023, 1, 9)  # changed after it joined
    assert history.cell_since(nine, CELL, "trn1") == dt.date(2023, 1, 9)  # a device never listed
    assert history.cell_since(five, ("m", "gpt", "pytorch/inference"), "inf2") is None  # no such cell


def test_more_revisions_than_cpython_caches_ints_for_still_announce_none_after_the_last() -> None:
    """Over 256 revisions, a typed "Last update" after the newest (or none that reads as a date)
    announces no revision: the index past the end is compared with the count by value (two equal ints
    over 256 are other objects)."""
    start = dt.date(2020, 1, 1)
    ahead = (start + dt.timedelta(days=400)).strftime("%m/%d/%Y")
    revs = [_matrix_revision(1, [_matrix("m", [_column("pytorch")],
                                         [_row("bert", {"pytorch/inference": Cell(status="supported")})],
                                         last_update_published=typed)]).model_copy(
                update={"date": start + dt.timedelta(days=n)})
            for n, typed in enumerate([ahead] * 150 + ["soon"] * 150)]
    typed = MatrixRevisions.of(revs).typed_last_updates()
    assert len(typed) == 300 and all(t.announced is None for t in typed)
