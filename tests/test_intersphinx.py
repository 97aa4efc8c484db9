"""Other sites link to every object of ``objects.inv``, both ways the README gives.

A consumer project is built with Sphinx, strict and nitpicky, reading the real site's built
``objects.inv`` from a local path: with ``sphinx.ext.intersphinx`` alone, through the standard roles
(``:ref:``, ``:external+neuron:std:ref:``); and with the typed roles once it installs what we
publish for them (``consumer/neuron_intersphinx.py``: ``:neuron:device:`...```). Each resolves a
device, an instance, a family, a model and a framework to the page and anchor the site gives them.
"""

from __future__ import annotations

import sys
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace
from sphinx.util.inventory import InventoryFile

from helpers.html import soup_of
from helpers.paths import REPO
from helpers.site import SiteBuild
from neuron_docs.state.domain import OBJECT_TYPES, NeuronDomain, anchor_for

SITE = "https://neuron.example/en/latest/"
KINDS = ("device", "instance", "family", "model", "framework")


@pytest.fixture(scope="module")
def inventory(site: SiteBuild) -> Path:
    return site.outdir / "objects.inv"


@pytest.fixture(scope="module")
def wanted(site: SiteBuild) -> dict[str, tuple[str, str, str]]:
    """Per kind, one object of the site (found in its domain, not typed here): its name, and the
    address and title a link to it must have."""
    domain = site.app.env.domains["neuron"]  # type: ignore[attr-defined]
    assert isinstance(domain, NeuronDomain)
    chosen = {}
    for kind in KINDS:
        name, entry = min((key[1], entry) for key, entry in domain.objects.items() if key[0] == kind)
        uri = site.app.builder.get_target_uri(entry.docname)  # type: ignore[attr-defined]
        chosen[kind] = (name, f"{SITE}{uri}#{entry.anchor}", entry.title)
    return chosen


def build_consumer(root: Path, inventory: Path, extensions: list[str], page: str) -> BeautifulSoup:
    (root / "src").mkdir(parents=True)
    (root / "src" / "conf.py").write_text("", encoding="utf-8")
    (root / "src" / "index.rst").write_text(f"Consumer\n========\n\n{page}\n", encoding="utf-8")
    warnings = StringIO()
    overrides = {"extensions": extensions, "nitpicky": True,
                 "intersphinx_mapping": {"neuron": (SITE, str(inventory))}}
    with docutils_namespace():
        app = Sphinx(root / "src", root / "src", root / "html", root / "doctrees", "html", confoverrides=overrides,
                     status=StringIO(), warning=warnings, freshenv=True)
        app.build()
    assert not warnings.getvalue(), warnings.getvalue()
    return soup_of(root / "html" / "index.html")


def links(soup: BeautifulSoup) -> list[tuple[str, str]]:
    return [(a["href"], a.get_text()) for a in soup.select("p a.reference.external")]


def test_every_object_has_a_standard_label(inventory: Path) -> None:
    """intersphinx alone reaches every ``neuron:`` entry of ``objects.inv`` through a ``std:label``."""
    data = InventoryFile.loads(inventory.read_bytes(), uri="").data
    labels = {item.uri for item in data["std:label"].values()}
    typed = {(kind, name): item.uri for kind in data if kind.startswith("neuron:") for name, item in data[kind].items()}
    assert typed
    assert [key for key, uri in typed.items() if uri not in labels] == []
    for kind in KINDS:  # the label is named like the object's anchor: device-trainium
        name, item = min(data[f"neuron:{kind}"].items())
        if not item.uri.endswith(f"#{anchor_for(kind, name)}"):
            continue  # a title or an alias: the object's own id has the label
        assert data["std:label"][anchor_for(kind, name)].uri == item.uri


def test_intersphinx_alone_links_through_standard_roles(tmp_path: Path, inventory: Path, wanted: dict) -> None:
    lines = []
    for kind in KINDS:
        name = wanted[kind][0]
        lines += [f"- :ref:`{anchor_for(kind, name)}`", f"- :external+neuron:std:ref:`{anchor_for(kind, name)}`"]
    soup = build_consumer(tmp_path, inventory, ["sphinx.ext.intersphinx"], "\n".join(lines))
    found = [(a["href"], a.get_text()) for a in soup.select("li a.reference.external")]
    expected = [(uri, title) for kind in KINDS for uri, title in [wanted[kind][1:]] * 2]
    assert found == expected


def test_typed_roles_with_the_published_consumer_extension(tmp_path: Path, inventory: Path, wanted: dict,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "consumer"))
    lines = []
    for kind in KINDS:
        name = wanted[kind][0]
        lines += [f"- :neuron:{kind}:`{name}`", f"- :external+neuron:neuron:{kind}:`{name}`",
                  f"- :external:neuron:{kind}:`the {kind} <{name}>`"]
    soup = build_consumer(tmp_path, inventory, ["neuron_intersphinx"], "\n".join(lines))
    found = [(a["href"], a.get_text()) for a in soup.select("li a.reference.external")]
    expected = [item for kind in KINDS for item in
                [wanted[kind][1:], wanted[kind][1:], (wanted[kind][1], f"the {kind}")]]
    assert found == expected
    sys.modules.pop("neuron_intersphinx", None)


def test_the_consumer_extension_declares_the_site_object_types(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(REPO / "consumer"))
    import neuron_intersphinx

    assert neuron_intersphinx.OBJECT_TYPES == {name: label for name, (label, _) in OBJECT_TYPES.items()}
    sys.modules.pop("neuron_intersphinx", None)
