"""The renderers of generated content: per build, with typed parameters.

A build knows the renderers its extensions' setup gave it, kept in its own state: a second Sphinx
application in the same process does not inherit a renderer that only the first one was given.
A placeholder's parameters are the renderer's frozen dataclass (what the doctree keeps).
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

from helpers.paths import DATA
from neuron_docs.render.placeholder import deferred
from neuron_docs.state.domain import state

ROOT = Path(__file__).resolve().parent / "roots" / "test-basic"


def _app(make_app: Any, srcdir: Path, *extra: str) -> Any:
    shutil.copytree(ROOT, srcdir)
    overrides: dict[str, Any] = {"neuron_data_dir": str(DATA), "neuron_cache_dir": ""}
    if extra:
        overrides["extensions"] = ["neuron_docs", "myst_parser", *extra]
    return make_app("html", srcdir=srcdir, confoverrides=overrides)


def test_a_build_knows_only_the_renderers_its_setup_gave(make_app: Any, tmp_path: Path) -> None:
    first = _app(make_app, tmp_path / "first", "extra_renderer")
    second = _app(make_app, tmp_path / "second")
    given, other = state(first.env).renderers, state(second.env).renderers
    assert "extra" in given
    assert "extra" not in other
    assert set(given) - {"extra"} == set(other)
    assert {"support-matrix", "data-role", "broken-notice"} <= set(other)


def test_a_placeholder_keeps_its_renderers_typed_parameters(make_app: Any, tmp_path: Path) -> None:
    app = _app(make_app, tmp_path / "site")
    app.build()
    found = [node for docname in app.env.found_docs for node in app.env.get_doctree(docname).findall(deferred)]
    assert {node["renderer"] for node in found} >= {"support-matrix", "data-role"}
    for node in found:
        params = node["params"]
        assert dataclasses.is_dataclass(params) and not isinstance(params, type), node["renderer"]
        assert type(params).__dataclass_params__.frozen, node["renderer"]


def test_content_rendered_ahead_for_the_csv_index_is_rendered_and_warned_once(
        make_app: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """The index of CSV downloads renders every page's tables to list them: a page written after it
    (``z``) takes that content instead of rendering it again; one written before (``a``) is rendered
    again for the index. Each warning is given once, at its directive, and nothing rendered ahead
    outlives the build."""
    import neuron_docs.render.expand as expand

    rendered: list[str] = []

    def counting(context: Any) -> Any:
        rendered.append(context.docname)
        return render(context)

    render = expand.render
    monkeypatch.setattr(expand, "render", counting)
    shutil.copytree(Path(__file__).resolve().parent / "roots" / "test-render-ahead", tmp_path / "site")
    app = make_app("html", srcdir=tmp_path / "site",
                   confoverrides={"neuron_data_dir": str(DATA), "neuron_cache_dir": ""})
    app.build()
    warnings = app.warning.getvalue()
    for page in ("a", "z"):
        assert warnings.count(f"{page}.rst:4: WARNING: neuron:device-specs: unknown device 'no-such-device'") == 1
    assert rendered.count("a") == 4 and rendered.count("z") == 2  # two tables each; a's again for the index
    assert "Inferentia" in (app.outdir / "z.html").read_text(encoding="utf-8")
    assert state(app.env).rendered_ahead == {}
