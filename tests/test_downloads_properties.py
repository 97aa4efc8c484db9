"""Rules of the downloads that hold for any data, as hypothesis properties: the JSON pieces say what
``json.dumps`` says for any value and any chunk; a cell is neutralised exactly when a spreadsheet could
read it as a formula; a figure's CSV cell reads back as the very number; a file holds what was written
and keeps its mtime only when its bytes are the same. The light rule files
(``test_json_stream_rules.py``, ``test_table_csv_rules.py``) pin the cases; these say it for any data
(kept out of ``make mutation``'s selections: hypothesis costs seconds to import per mutant)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neuron_docs.node_data import CSV_ROWS, CsvFigure
from neuron_docs.site.downloads import json_stream
from neuron_docs.site.downloads.json_stream import Members, json_pieces, write_if_changed
from neuron_docs.site.downloads.table_csv import FORMULA_STARTS, _PLAIN_NUMBER, neutralised, table_csv

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(max_size=4), children, max_size=4))


_values = st.recursive(_scalars, _containers, max_leaves=12)


@settings(max_examples=40, deadline=None)
@given(_values, st.data(), st.integers(1, 4), st.integers(0, 3))
def test_the_pieces_of_any_value_say_what_json_dumps_says(plain: Any, data: st.DataObject, chunk: int,
                                                          depth: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(json_stream, "CHUNK", chunk)
        lazy = _as_lazy(plain, data)
        expected = json.dumps(plain, indent=1, ensure_ascii=False)
        if depth:
            expected = expected.replace("\n", "\n" + " " * depth)
        assert "".join(json_pieces(lazy, depth)) == expected


def _as_lazy(value: Any, data: st.DataObject) -> Any:
    """``value`` with some of its lists iterators and some of its objects :class:`Members` (drawn: a
    lazy part's members may be lazy again, a plain container's are plain)."""
    if not isinstance(value, dict | list) or not data.draw(st.booleans()):
        return value
    if isinstance(value, dict):
        return Members(iter([(k, _as_lazy(v, data)) for k, v in value.items()]))
    return iter([_as_lazy(v, data) for v in value])


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=12))
def test_a_cell_is_quoted_exactly_when_a_spreadsheet_could_read_a_formula(cell: str) -> None:
    out = neutralised(cell)
    formula = cell.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(cell)
    assert out == ("'" + cell if formula else cell)
    assert not out.startswith(FORMULA_STARTS) or _PLAIN_NUMBER.fullmatch(out)


@settings(max_examples=100, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_figures_csv_cell_reads_back_as_its_number(number: float) -> None:
    from docutils import nodes

    table = nodes.table()
    CSV_ROWS.set(table, [["N"], [CsvFigure("shown", number, "")]])
    cell = table_csv(table).splitlines()[1].lstrip("'")
    assert float(cell) == number


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=5), max_size=5), st.lists(st.text(max_size=5), max_size=5))
def test_a_file_holds_what_was_written_and_keeps_its_mtime_only_when_the_same(old: list[str], new: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "file"
        write_if_changed(path, old)
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
        write_if_changed(path, new)
        assert path.read_bytes() == "".join(new).encode("utf-8")
        assert (path.stat().st_mtime_ns == 1_000_000_000) == ("".join(old) == "".join(new))
        assert [p.name for p in Path(folder).iterdir()] == ["file"]
