"""The renderers of generated content are one table (``neuron_docs.renderers``): every renderer the
extension defines is in it under a name of its own, and every placeholder a build leaves names one."""

from __future__ import annotations

import importlib
import pkgutil
import shutil
from pathlib import Path
from typing import Any

import neuron_docs
from helpers.paths import DATA
from neuron_docs.render.placeholder import Renderer, deferred
from neuron_docs.renderers import RENDERERS

ROOT = Path(__file__).resolve().parent / "roots" / "test-basic"
NAMES = [renderer.name for renderer in RENDERERS]


def _defined() -> dict[str, Renderer[Any]]:
    """Every renderer defined at the top of a module of the extension (the offline tools apart), by name."""
    found: dict[str, Renderer[Any]] = {}
    for module in pkgutil.walk_packages(neuron_docs.__path__, "neuron_docs."):
        if module.name.startswith("neuron_docs.benchmark_import") or module.name.endswith("__main__"):
            continue
        for value in vars(importlib.import_module(module.name)).values():
            if isinstance(value, Renderer):
                found[f"{module.name}.{value.name}"] = value
    return found


def test_every_renderer_is_in_the_table_once() -> None:
    assert len(NAMES) == len(set(NAMES)), sorted(n for n in NAMES if NAMES.count(n) > 1)
    missing = {where for where, one in _defined().items() if not any(one is r for r in RENDERERS)}
    assert not missing, f"renderers not in neuron_docs.renderers.RENDERERS: {sorted(missing)}"


def test_a_build_knows_the_renderers_of_the_table(make_app: Any, tmp_path: Path) -> None:
    from neuron_docs.state.domain import state

    shutil.copytree(ROOT, tmp_path / "site")
    app = make_app("html", srcdir=tmp_path / "site",
                   confoverrides={"neuron_data_dir": str(DATA), "neuron_cache_dir": ""})
    known = state(app.env).renderers
    assert all(known[renderer.name] is renderer for renderer in RENDERERS)
    app.build()
    used = {node["renderer"] for docname in app.env.found_docs
            for node in app.env.get_doctree(docname).findall(deferred)}
    assert used, "the test site leaves no placeholder"
    assert used <= set(NAMES), f"placeholders naming no renderer of the table: {sorted(used - set(NAMES))}"
