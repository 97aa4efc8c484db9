"""Typed links from another Sphinx site to the objects of the Neuron model support site.

Install it beside ``sphinx.ext.intersphinx`` and list both in ``extensions``; then
``:neuron:device:`trainium```, ``:neuron:instance:`inf2.xlarge```, ``:neuron:family:`decoder```,
``:neuron:model:`vit-base``` and ``:neuron:framework:`torch-neuronx``` (or, naming the inventory,
``:external+neuron:neuron:device:`trainium```) link to the site, resolved by intersphinx from its
``objects.inv``. This module only declares the ``neuron`` domain's object types and roles: it
resolves nothing itself, so a link to an object the inventory lacks is Sphinx's usual warning.
"""

from __future__ import annotations

from typing import Any

from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole

__version__ = "1.0.0"

#: The site's object types and what each is called (the site's ``neuron_docs.state.domain``
#: has the same; a test compares them).
OBJECT_TYPES: dict[str, str] = {
    "device": "device",
    "instance": "instance type",
    "framework": "framework",
    "family": "model family",
    "model": "model",
    "issue": "known issue",
    "roadmap": "roadmap item",
    "representative": "representative model",
    "revision": "support matrix revision",
    "changes": "what's new section",
    "benchmark": "published benchmark configuration",
}


class NeuronDomain(Domain):
    """The ``neuron`` domain's object types and roles, for links resolved by intersphinx."""

    name = "neuron"
    label = "Neuron"
    object_types = {name: ObjType(label, name) for name, label in OBJECT_TYPES.items()}
    roles = {name: XRefRole() for name in OBJECT_TYPES}
    initial_data: dict[str, Any] = {}

    def merge_domaindata(self, docnames: Any, otherdata: dict[str, Any]) -> None:
        """Nothing is kept per document."""

    def resolve_xref(self, *args: Any) -> None:
        return None  # intersphinx's missing-reference handler resolves it from objects.inv

    def resolve_any_xref(self, *args: Any) -> list[Any]:
        return []


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.intersphinx")
    app.add_domain(NeuronDomain)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
