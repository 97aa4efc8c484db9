"""One cause, one warning (issue 32): a refused data file is one warning at its location, with the
count of what it set aside, not one per record that names it (6,454 for a UTF-16 devices.yaml)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from neuron_docs.data import load_catalog
from neuron_docs.state.build import one_warning_per_cause

from helpers.paths import DATA


def _utf16(path: Path, outside: Path) -> None:
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))


def _link(path: Path, outside: Path) -> None:
    target = outside / path.name
    shutil.move(path, target)
    path.symlink_to(target)


@pytest.mark.parametrize("refuse", [_utf16, pytest.param(_link, marks=pytest.mark.sweep)], ids=["utf16", "symlink"])
def test_a_refused_devices_yaml_is_one_warning_with_the_count_it_set_aside(tmp_path, refuse):
    data, outside = tmp_path / "data", tmp_path / "outside"
    shutil.copytree(DATA, data)
    outside.mkdir()
    refuse(data / "devices.yaml", outside)
    catalog = load_catalog(data)
    assert len(catalog.errors) > 1000  # the catalog keeps every record's own reason ...
    causes, affected = one_warning_per_cause(catalog.errors)
    assert [e.file for e in causes] == ["devices.yaml"]  # ... the build says the cause, once
    [cause] = causes
    assert f"because of it, {len(catalog.errors) - 1} records of " in affected[cause]
    # no device page vanishes: each device the other files name keeps its page, which says it was
    # set aside (its "Data problem" box: the device-specs directive of a device set aside)
    from neuron_docs.site.device_pages import render

    named = {instance.device for instance in load_catalog(DATA).instances.values()}  # the real data's, read once
    pages = render(catalog, tmp_path, "_devices")
    assert {name.removesuffix(".rst") for name in pages} >= named
    for device in named:
        assert "The record of this device was set aside" in pages[f"{device}.rst"]
        assert f".. neuron:device-specs:: {device}" in pages[f"{device}.rst"]


def test_independent_problems_stay_apart_and_a_cascade_without_a_cause_is_kept():
    from neuron_docs.data.files.loader import DataError

    a = DataError("instances.yaml", 3, "price", "expected a number")
    b = DataError("errata.yaml", 9, "quote", "expected text")
    cascade = DataError("training.yaml", 4, "subject", "instance 'x' could not be loaded (see instances.yaml:3); "
                                                        "expected a valid instance")
    orphan = DataError("models.yaml", 2, "env", "environment 'y' could not be loaded (see nowhere.yaml:1); "
                                                "expected a valid environment")
    causes, affected = one_warning_per_cause([a, b, cascade, orphan])
    assert causes == [a, b, orphan]
    assert affected == {a: "; because of it, 1 record of 1 other file set aside (training.yaml)"}


def test_a_cascade_is_counted_with_the_cause_of_the_record_it_names_not_of_its_file():
    """Two causes in one file: a comparison set aside because its instance was, itself set aside
    because of a device, counts with the device's cause, not the other instance's price."""
    from neuron_docs.data.catalog import Broken
    from neuron_docs.data.files.loader import DataError

    device = DataError("devices.yaml", 89, "specs.peak_fp32.value", "expected a number at most 1000000000000")
    price = DataError("instances.yaml", 5, "price.usd_per_hour", "expected a number at most 100000")
    instance = DataError("instances.yaml", 48, "device", "device 'a100' could not be loaded (see devices.yaml:78); "
                                                         "expected a valid device")
    comparison = DataError("training.yaml", 30, "baseline", "instance 'p4d.24xlarge' could not be loaded (see "
                                                            "instances.yaml:46); expected a valid instance")
    broken = [Broken("devices", "a100", "devices.yaml", 78, [device]),
              Broken("instances", "inf1.xlarge", "instances.yaml", 4, [price]),
              Broken("instances", "p4d.24xlarge", "instances.yaml", 46, [instance])]
    causes, affected = one_warning_per_cause([device, price, instance, comparison], broken)
    assert causes == [device, price]
    assert affected == {device: "; because of it, 2 records of 2 other files set aside (instances.yaml, training.yaml)"}

