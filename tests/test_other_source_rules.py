"""Other sources' values of a figure the data holds (``drift/sources.py``), on devices and instances
built in the test (``model_construct``): the specification a data path reads (a device's, an
instance's own, else its device's counted once per chip), and each other source's value in the unit
of comparison and as the source writes it. No data files, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.records import models as s
from neuron_docs.drift.sources import OtherValue, _quantity, other_values


def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


def spec(value: float, unit: str, *also: s.OtherSource) -> s.Quantity:
    return s.Quantity.model_construct(value=value, unit=unit, label="x", source="own", also=list(also))


def other(value: float, source: str, why: str, unit: str | None = None) -> s.OtherSource:
    return s.OtherSource.model_construct(value=value, unit=unit, source=source, why=why)


FP8 = spec(191.0, "TFLOPS", other(190.0, "trn1-page", "older page"), other(0.2, "slides", "rounded", unit="PFLOPS"))
MEMORY = spec(32.0, "GB", other(30.0, "blog", "binary", unit="GiB"))
OWN = spec(3000.0, "TFLOPS", other(2990.0, "instance-page", "its own"))


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["devices"] = {
        "trainium": s.Device.model_construct(id="trainium", specs={"fp8": FP8, "memory": MEMORY,
                                                                   "bf16": spec(95.0, "TFLOPS")})}
    cat.records["instances"] = {
        "trn1.32xlarge": s.Instance.model_construct(id="trn1.32xlarge", device="trainium", device_count=16,
                                                    specs={"own": OWN}),
        "x1.large": s.Instance.model_construct(id="x1.large", device="no-such-device", device_count=300, specs={})}
    return cat


@pytest.mark.parametrize(("path", "expected"), [
    ("device:trainium:fp8", (FP8, 1)), ("device:trainium:nothing", (None, 1)), ("device:gone:fp8", (None, 1)),
    ("instance:trn1.32xlarge:own", (OWN, 1)), ("instance:trn1.32xlarge:fp8", (FP8, 16)),
    ("instance:trn1.32xlarge:nothing", (None, 16)), ("instance:gone:fp8", (None, 1)),
    ("instance:x1.large:fp8", (None, 300)), ("model:trainium:fp8", (None, 1)),
    ("device:a:b:fp8", (None, 1)),
    # Only a device's or an instance's path reads a specification.
    ("claim:trainium:fp8", (None, 1)), ("accuracy:trainium:fp8", (None, 1)), ("run:trn1.32xlarge:own", (None, 1)),
    ("claim:trn1.32xlarge:own", (None, 1)), ("prun:trn1.32xlarge:fp8", (None, 1)),
])
def test_the_specification_a_path_reads_and_how_many_times(path: str, expected: tuple[object, int]) -> None:
    assert _quantity(catalog(), made(path)) == expected


def test_a_devices_other_values_in_the_unit_of_comparison_and_as_written() -> None:
    assert other_values(catalog(), "device:trainium:fp8") == [
        OtherValue(190.0, "TFLOPS", 190.0, "TFLOPS", "trn1-page", "older page"),
        OtherValue(200.0, "TFLOPS", 0.2, "PFLOPS", "slides", "rounded")]
    [memory] = other_values(catalog(), "device:trainium:memory")
    assert (memory.unit, memory.shown, memory.shown_unit, memory.source, memory.why) == ("GB", 30.0, "GiB", "blog",
                                                                                         "binary")
    assert memory.number == pytest.approx(30.0 * 1.073741824)


def test_an_instances_figure_from_its_devices_counts_each_chip() -> None:
    assert other_values(catalog(), "instance:trn1.32xlarge:fp8") == [
        OtherValue(3040.0, "TFLOPS", 3040.0, "TFLOPS", "trn1-page", "older page"),
        OtherValue(3200.0, "TFLOPS", 3.2, "PFLOPS", "slides", "rounded")]
    assert other_values(catalog(), "instance:trn1.32xlarge:own") == [
        OtherValue(2990.0, "TFLOPS", 2990.0, "TFLOPS", "instance-page", "its own")]


@pytest.mark.parametrize("path", ["device:trainium:bf16", "device:trainium:nothing", "instance:x1.large:fp8",
                                  "model:trainium:fp8"])
def test_most_figures_have_no_other_value(path: str) -> None:
    assert other_values(catalog(), path) == []


def test_without_a_catalog_no_other_value() -> None:
    assert other_values(None, "device:trainium:fp8") == []


def test_another_value_is_frozen() -> None:
    value = OtherValue(1.0, "GB", 1.0, "GB", "blog", "why")
    assert hash(value) == hash(OtherValue(1.0, "GB", 1.0, "GB", "blog", "why"))
    with pytest.raises(FrozenInstanceError):
        value.number = 2.0  # type: ignore[misc]

