"""The site's search: families, devices, instances and models found by the names people use, every
result on an anchor that exists, no two entries with one label."""

from __future__ import annotations

import collections
import html
import json
import re

import pytest
from docutils import nodes


@pytest.fixture(scope="module")
def index(site) -> dict:
    text = (site.outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1: text.rindex(")")])


def entries(index: dict) -> list[tuple[str, str, str, str]]:
    """(name, object type, page, anchor) of every searchable object, as Sphinx's searchtools.js
    rebuilds them (names unescaped; an anchor written "" or "-" rebuilt from the name)."""
    out = []
    for prefix, items in index["objects"].items():
        for doc, typ, _prio, anchor, name in items:
            full = f"{prefix}.{name}" if prefix else name
            objtype = index["objnames"][str(typ)][1]
            if anchor == "":
                anchor = full
            elif anchor == "-":
                anchor = f"{objtype}-{full}"
            out.append((html.unescape(full), objtype, index["docnames"][doc], anchor))
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


def test_every_search_entry_lands_on_an_anchor_that_exists(site, index):
    found = entries(index)
    assert len(found) > 50
    ids: dict[str, set[str]] = {}
    for name, _objtype, doc, anchor in found:
        if doc not in ids:
            ids[doc] = set(re.findall(r'\bid="([^"]+)"', site.html(f"{doc}.html")))
        assert anchor in ids[doc], (name, doc, anchor)


def test_no_two_search_entries_share_a_label(index):
    labels = collections.Counter((name, objtype) for name, objtype, _, _ in entries(index))
    assert [label for label, count in labels.items() if count > 1] == []


@pytest.mark.parametrize("query", ["LLM", "Llama", "GPT", "Stable Diffusion", "BERT"])
def test_common_names_find_families_and_models(site, index, catalog, query):
    hits = [e for e in entries(index) if query.lower() in e[0].lower()]
    families = {a for _, objtype, _, a in hits if a.startswith("family-")}
    assert families, query
    pages = "".join(site.html(p.relative_to(site.outdir).as_posix()) for p in (site.outdir / "performance").glob("*.html"))
    runs = [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values()]
    shown = {r.model for r in runs if f'id="prun-{nodes.make_id(r.id)}"' in pages}
    models = [m for m in catalog.published_models.values() if query.lower() in m.name.lower() and m.name in shown]
    for model in models:  # every published model the name matches and a page shows is found, on its row
        assert any(name == model.name and anchor.startswith("prun-") for name, _, _, anchor in hits), model.name


def test_a_models_aliases_find_its_rows(site, index, catalog):
    """"SDXL" or "meta-llama/Meta-Llama-3-8B" finds the rows of the model the tables name otherwise."""
    pages = "".join(site.html(p.relative_to(site.outdir).as_posix()) for p in (site.outdir / "performance").glob("*.html"))
    runs = [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values()]
    shown = {r.model for r in runs if f'id="prun-{nodes.make_id(r.id)}"' in pages}
    checked = 0
    for model in catalog.published_models.values():
        root = model.same_as or model.id
        spellings = {m.name for m in catalog.published_models.values() if root in (m.id, m.same_as)}
        if not model.aliases or not spellings & shown:
            continue
        for alias in model.aliases:
            hits = [anchor for name, _, _, anchor in entries(index) if name == alias]
            assert hits and all(a.startswith("prun-") or a.startswith("model-") for a in hits), alias
            checked += 1
    assert checked
