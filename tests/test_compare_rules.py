"""Comparing two data sets (``data/figures/compare.py``) on catalogs built in the test: changed
support cells and fits of the latest revision on each side, header fields, records added, removed
and changed, figures added, removed and moved (with their relative change and their text), new data
errors, and the JSON document. No data files, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``); ``test_matrix_diff.py`` compares real data."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.compare import CellChange, MatrixDiff, RecordChange, ValueChange, _text, compare
from neuron_docs.data.figures.values import Value
from neuron_docs.data.files.loader import DataError
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps
from neuron_docs.data.records.matrix import Cell
from neuron_docs.data.records.models import Record


class Header(Record):
    """A families header with a field of several values (by device), as such a header may have."""

    guidelines_as_of: dt.date
    limits: dict[str, str] = {}


class Revisioned(Catalog):
    """A catalog whose latest revision of the support matrices is set in the test."""

    latest: Any = None

    def revision(self, date: str | None = None) -> Any:
        return self.latest


def revision(cells: dict[tuple[str, str, str], Cell], fits: dict[tuple[str, str], str]) -> Any:
    matrices = sorted({m for m, _ in fits})
    return SimpleNamespace(cells=lambda: cells, matrices=[
        SimpleNamespace(id=m, rows=[SimpleNamespace(family=f, fit=fit) for (mm, f), fit in fits.items() if mm == m])
        for m in matrices])


def cell(status: str, note: str | None = None) -> Cell:
    return Cell.model_construct(status=status, note=note, link=None, annotation=None)


def device(did: str, memory: float, unit: str = "GB") -> s.Device:
    return s.Device.model_construct(id=did, name=did.upper(), neuroncores=None, source="src", specs={
        "memory": s.Quantity.model_construct(value=memory, unit=unit, label=f"memory of {did}", source="src")})


def price(pid: str, usd: str, as_of: str = "2026-01-01") -> ps.InstancePrice:
    return ps.InstancePrice.model_construct(id=pid, instance="inf2.xlarge", usd_per_hour=Decimal(usd), basis="on-demand",
                                            source="src", as_of=dt.date.fromisoformat(as_of))


def catalogs() -> tuple[Revisioned, Revisioned]:
    base, head = Revisioned(data_dir=Path("base")), Revisioned(data_dir=Path("head"))
    base.latest = revision({("m1", "vit", "pytorch/inference"): cell("supported"),
                            ("m1", "vit", "jax/training"): cell("roadmap"),
                            ("m1", "bert", "pytorch/inference"): cell("supported"),
                            ("m2", "vit", "pytorch/inference"): cell("na")},
                           {("m1", "vit"): "good", ("m1", "bert"): "poor", ("m2", "vit"): "good", ("m2", "cnn"): "good"})
    head.latest = revision({("m1", "vit", "pytorch/inference"): cell("limited", "slow"),
                            ("m1", "bert", "pytorch/inference"): cell("supported"),
                            ("m2", "vit", "pytorch/inference"): cell("na", "not applicable"),
                            ("m2", "bert", "pytorch/inference"): cell("supported")},
                           {("m1", "vit"): "limited", ("m1", "bert"): "poor", ("m2", "vit"): "".join(["go", "od"]),
                            ("m2", "bert"): "good"})
    base.header = Header(guidelines_as_of=dt.date(2026, 1, 1),  # type: ignore[assignment]
                         limits={"inf1": "a", "inf2": "b", "trn2": "same"})
    # an unchanged value read from the other file: equal, not the same object
    head.header = Header(guidelines_as_of=dt.date(2026, 2, 1),  # type: ignore[assignment]
                         limits={"inf2": "c", "trn1": "d", "trn2": "".join(["sa", "me"])})
    base.records["devices"] = {"inf1": device("inf1", 8.0), "inf2": device("inf2", 32.0), "trn1": device("trn1", 32.0),
                               "inf3": device("inf3", 10.0), "trn3": device("trn3", 32.0, "GiB")}
    head.records["devices"] = {"inf2": device("inf2", 32.0), "trn1": device("trn1", 32.0, "GiB"),
                               "trn2": device("trn2", 96.0),
                               "inf3": device("inf3", 12.0, "".join(["G", "B"])),  # a unit read apart: equal
                               "trn3": device("trn3", 32.0)}
    base.records["prices"] = {"p1": price("p1", "0.5"), "p2": price("p2", "0.0"), "p3": price("p3", "1.0"),
                              "p4": price("p4", "0.3")}
    head.records["prices"] = {"p1": price("p1", "0.55", "2026-02-01"), "p2": price("p2", "1.0"), "p3": price("p3", "1.0"),
                              "p4": price("p4", "0.29")}
    base.errors = [DataError("a.yaml", 3, "x", "old problem")]
    head.errors = [DataError("a.yaml", 9, "x", "old problem"), DataError("a.yaml", 3, "y", "new problem")]
    return base, head


def test_changed_support_cells_and_fits_of_the_latest_revisions() -> None:
    diff = compare(*catalogs())
    assert diff.support == [
        CellChange(("support", "m1", "vit", "jax", "training"), "roadmap", None, ("status",)),
        CellChange(("support", "m1", "vit", "pytorch", "inference"), "supported", "limited", ("note", "status")),
        CellChange(("support", "m2", "bert", "pytorch", "inference"), None, "supported", ("status",)),
        CellChange(("support", "m2", "vit", "pytorch", "inference"), "na", "na", ("note",))]
    assert diff.fit == [CellChange(("fit", "m1", "vit"), "good", "limited", ("fit",)),
                        CellChange(("fit", "m2", "bert"), None, "good", ("fit",)),
                        CellChange(("fit", "m2", "cnn"), "good", None, ("fit",))]


def test_a_side_without_a_revision_has_no_cells() -> None:
    base, head = catalogs()
    base.latest = None
    diff = compare(base, head)
    assert len(diff.support) == 4 and all(c.old is None for c in diff.support)
    assert [c.key for c in diff.fit] == [("fit", "m1", "bert"), ("fit", "m1", "vit"), ("fit", "m2", "bert"),
                                         ("fit", "m2", "vit")]
    base, head = catalogs()
    head.latest = None
    diff = compare(base, head)
    assert len(diff.support) == 4 and all(c.new is None for c in diff.support)


def test_header_fields_and_each_value_of_a_field_by_key() -> None:
    diff = compare(*catalogs())
    assert diff.header == [CellChange(("header", "guidelines_as_of"), "2026-01-01", "2026-02-01"),
                           CellChange(("header", "limits", "inf1"), "a", None),
                           CellChange(("header", "limits", "inf2"), "b", "c"),
                           CellChange(("header", "limits", "trn1"), None, "d")]
    base, head = catalogs()
    head.header = None
    assert compare(base, head).header == [CellChange(("header", "guidelines_as_of"), "2026-01-01", None),
                                          CellChange(("header", "limits", "inf1"), "a", None),
                                          CellChange(("header", "limits", "inf2"), "b", None),
                                          CellChange(("header", "limits", "trn2"), "same", None)]


def test_records_added_removed_and_changed_by_collection_and_id() -> None:
    diff = compare(*catalogs())
    assert diff.records == [RecordChange(("record", "devices", "inf1"), "removed"),
                            RecordChange(("record", "devices", "inf3"), "changed", ("specs",)),
                            RecordChange(("record", "devices", "trn1"), "changed", ("specs",)),
                            RecordChange(("record", "devices", "trn2"), "added"),
                            RecordChange(("record", "devices", "trn3"), "changed", ("specs",)),
                            RecordChange(("record", "prices", "p1"), "changed", ("as_of", "usd_per_hour")),
                            RecordChange(("record", "prices", "p2"), "changed", ("usd_per_hour",)),
                            RecordChange(("record", "prices", "p4"), "changed", ("usd_per_hour",))]


def test_figures_added_removed_and_moved_with_their_relative_change() -> None:
    diff = compare(*catalogs())
    by_path = {c.key[1]: c for c in diff.values}
    assert list(by_path) == ["device:inf1:memory", "device:inf3:memory", "device:trn1:memory", "device:trn2:memory",
                             "device:trn3:memory", "price:p1:usd_per_hour", "price:p2:usd_per_hour",
                             "price:p4:usd_per_hour"]
    assert by_path["device:trn3:memory"].relative_change_percent is None  # GiB to GB: a new unit, either way
    assert by_path["device:inf3:memory"].relative_change_percent == pytest.approx(20.0)  # the same unit
    assert by_path["device:inf1:memory"] == ValueChange(("value", "device:inf1:memory"), "removed", "memory of inf1",
                                                        "GB", False, "devices", "inf1", 8.0, None, "8 GB", None, None)
    assert by_path["device:trn2:memory"].change == "added"
    assert (by_path["device:trn2:memory"].old, by_path["device:trn2:memory"].new) == (None, 96.0)
    assert by_path["device:trn2:memory"].new_text == "96 GB"
    moved = by_path["device:trn1:memory"]  # the same number in another unit: changed, no relative change
    assert (moved.change, moved.unit, moved.relative_change_percent) == ("changed", "GiB", None)
    assert (moved.old_text, moved.new_text) == ("32 GB", "32 GiB")
    p1 = by_path["price:p1:usd_per_hour"]
    assert p1.relative_change_percent == pytest.approx(10.0) and p1.collection == "prices" and p1.record == "p1"
    assert by_path["price:p2:usd_per_hour"].relative_change_percent is None  # from zero


def test_a_relative_change_is_of_the_old_figures_size() -> None:
    base, head = Revisioned(data_dir=Path("b")), Revisioned(data_dir=Path("h"))
    base.records["prices"] = {"p": price("p", "-2.0")}
    head.records["prices"] = {"p": price("p", "-1.0")}
    assert compare(base, head).values[0].relative_change_percent == pytest.approx(50.0)


def v(number: float, unit: str = "USD", derived: bool = True) -> Value:
    return Value(number, unit, "x", derived=derived)


def test_a_figures_text_typed_as_typed_derived_to_four_significant_digits() -> None:
    assert _text(None, v(1.0)) is None
    assert _text(v(0.123456, derived=False), None) == "$0.123456"
    assert _text(v(0.123456), None) == "$0.1235"
    assert _text(v(1234.5678, "ms"), None) == "1235 ms"
    assert _text(v(12.345678, "ms"), None) == "12.35 ms"
    assert _text(v(0.0), None) == "$0"
    assert _text(v(-0.123456), None) == "-$0.1235"  # a negative derived figure too
    assert _text(v(12345.6, "ms"), None) == "12346 ms"  # never fewer than 0 decimals


def test_a_derived_figures_text_has_the_digits_that_tell_it_from_the_other() -> None:
    assert _text(v(0.123456), v(0.123461)) == "$0.123456"  # equal to four digits and to five, not to six
    assert _text(v(0.123461), v(0.123456)) == "$0.123461"
    assert _text(v(0.123456), v(0.123449)) == "$0.1235"  # four tell them apart
    assert _text(v(0.1234567891), v(0.1234567890)) == "$0.1234567891"
    assert _text(v(0.123456), v(0.123461, "ms")) == "$0.1235"  # another unit: nothing to tell apart
    assert _text(v(0.123456), v(0.123461, "".join(["U", "SD"]))) == "$0.123456"  # the same unit, read apart
    assert _text(v(0.123456), v(0.2)) == "$0.1235"
    assert _text(v(5.55, "ms"), v(5.5, "ms")) == "5.55 ms"  # 4 digits: 5.550
    assert _text(v(0.5, "ms"), v(0.5, "ms")) == "0.5 ms"
    # at most 7 more decimals than the first 4 significant digits, even if they do not tell them apart
    assert _text(v(0.123456789012), v(0.123456789013)) == "$0.12345678901"
    assert _text(v(0.123456, "ms"), v(0.123461, "USD")) == "0.1235 ms"  # a unit sorting before: nothing to tell


def test_only_the_heads_new_errors_are_reported() -> None:
    diff = compare(*catalogs())
    assert diff.errors == ["a.yaml:3: y: new problem"]  # the old one moved to line 9: not new


def test_the_json_document() -> None:
    diff = compare(*catalogs(), base_label="main", head_label="working tree")
    doc = diff.to_json()
    assert (doc["schema_version"], doc["base"], doc["head"], doc["changed"]) == (2, "main", "working tree", True)
    assert doc["summary"] == {"support": 4, "fit": 3, "header": 4, "records": 8, "values": 8, "errors": 1}
    assert doc["support"][1] == {"key": ["support", "m1", "vit", "pytorch", "inference"], "old": "supported",
                                 "new": "limited", "fields": ["note", "status"], "matrix": "m1", "family": "vit",
                                 "framework": "pytorch", "workload": "inference"}
    assert doc["fit"][0] == {"key": ["fit", "m1", "vit"], "old": "good", "new": "limited", "fields": ["fit"],
                             "matrix": "m1", "family": "vit"}
    assert doc["header"][2] == {"key": ["header", "limits", "inf2"], "old": "b", "new": "c", "fields": [],
                                "field": "limits.inf2"}
    assert doc["records"][0] == {"key": ["record", "devices", "inf1"], "change": "removed", "fields": [],
                                 "collection": "devices", "id": "inf1"}
    p1 = next(r for r in doc["values"] if r["path"] == "price:p1:usd_per_hour")
    assert p1["relative_change_percent"] == 10.0 and p1["key"] == ["value", "price:p1:usd_per_hour"]
    p4 = next(r for r in doc["values"] if r["path"] == "price:p4:usd_per_hour")
    assert p4["relative_change_percent"] == -3.33  # -3.333...%, to two decimals: a fall is a change too
    assert doc["errors"] == ["a.yaml:3: y: new problem"]
    assert doc["keys"] == sorted(doc["keys"]) and len(doc["keys"]) == 27
    assert ["record", "devices", "trn2"] in doc["keys"]


def test_changes_are_immutable() -> None:
    from dataclasses import FrozenInstanceError
    diff = compare(*catalogs())
    for change in (diff.support[0], diff.records[0], diff.values[0]):
        with pytest.raises(FrozenInstanceError):
            change.key = ()  # type: ignore[misc]


def test_an_empty_diff() -> None:
    base, _ = catalogs()
    diff = compare(base, base)
    assert diff.is_empty() and diff.changes() == [] and diff.changed_keys() == frozenset()
    assert diff.to_json()["changed"] is False
    assert not MatrixDiff("a", "b", errors=["e"]).is_empty()
    assert MatrixDiff("a", "b", errors=["e"]).to_json()["changed"] is True
