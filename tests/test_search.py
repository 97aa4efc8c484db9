"""The site's search finds model families, devices and instances by name and by representative model."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def index(site) -> dict:
    text = (site.outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1: text.rindex(")")])


def entries(index: dict) -> list[tuple[str, str, str, str]]:
    """(full name, object type, page, anchor) of every searchable object."""
    out = []
    for prefix, items in index["objects"].items():
        for doc, typ, _prio, anchor, name in items:
            full = f"{prefix}.{name}" if prefix else name
            objtype = index["objtypes"][str(typ)]
            out.append((full, objtype, index["docnames"][doc], anchor))
    return out


def find(index: dict, name: str) -> list[tuple[str, str, str, str]]:
    return [e for e in entries(index) if e[0].lower() == name.lower()]


def test_families_devices_and_instances_are_searchable(index, catalog):
    names = {e[0] for e in entries(index)}
    for family in catalog.families.values():
        assert family.name in names, family.name
    for device in catalog.devices.values():
        assert device.name in names, device.name
    for instance in catalog.instances:
        assert instance in names, instance


def test_representative_model_finds_its_family(index):
    hits = find(index, "BERT")
    assert hits, "BERT is not in the search index"
    assert any(doc == "architecture-fit" and anchor == "family-encoder" for _, _, doc, anchor in hits)


def test_instance_entry_points_at_its_row(index):
    hits = find(index, "inf1.2xlarge")
    assert any(anchor == "instance-inf1-2xlarge" for *_, anchor in hits)
