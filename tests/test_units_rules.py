"""The one unit registry of ``data/figures/units.py``: bytes with decimal and binary prefixes, per
second or not, FLOPS and OPS, and the bytes in one unit. No data files, no Sphinx (``make mutation``
runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import pytest

from neuron_docs.data.figures.units import bytes_in, registry


@pytest.mark.parametrize(("unit", "count"), [
    ("B", 1), ("kB", 10**3), ("MB", 10**6), ("GB", 10**9), ("TB", 10**12), ("PB", 10**15), ("EB", 10**18),
    ("KiB", 2**10), ("MiB", 2**20), ("GiB", 2**30), ("TiB", 2**40), ("PiB", 2**50), ("EiB", 2**60),
])
def test_the_bytes_in_one_unit_decimal_and_binary(unit: str, count: int) -> None:
    assert bytes_in(unit) == count
    assert isinstance(bytes_in(unit), int)


def test_one_registry_per_process_so_quantities_of_its_callers_combine() -> None:
    # The fit estimate and the drift checker each ask for the registry: pint refuses to combine
    # quantities of two registries, so both must get the same one.
    assert registry() is registry()
    total = registry().Quantity(1, "GB") + registry().Quantity(1, "GiB")
    assert total.to("B").magnitude == pytest.approx(10**9 + 2**30)


def test_rates_of_bytes_and_operations() -> None:
    units = registry()
    assert units.Quantity(1, "TB/s").to("GB/s").magnitude == pytest.approx(1000.0)
    assert units.Quantity(1, "PFLOPS").to("TFLOPS").magnitude == pytest.approx(1000.0)
    assert units.Quantity(2, "TOPS").to("OPS").magnitude == pytest.approx(2e12)
