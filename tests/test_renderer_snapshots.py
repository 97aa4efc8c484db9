"""Doctree snapshots of every renderer, in the way sphinx-design tests its components.

One small project (``roots/test-renderers``) uses every directive and role of the extension on a
small data set of its own (its ``data/``: a trimmed copy of the frozen data, so that a legitimate
change to ``data/`` never moves a snapshot). It is built once (HTML); then each page's doctree is
resolved again with every placeholder wrapped in a marker, so that what each renderer made, after
the post-transforms, can be told apart. Each renderer's output (every placeholder of it, in page
order) is compared, as docutils' pseudo-XML, with ``snapshots/<renderer>.xml``: a change to what a
renderer makes fails its test with a diff.

A change that is meant: ``NEURON_UPDATE_SNAPSHOTS=1`` writes the snapshots anew (``make snapshots``);
review them with ``git diff tests/snapshots`` and commit them with the change. A new renderer
fails :func:`test_every_renderer_has_a_snapshot` until the root uses it and its snapshot is written.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest
from docutils import nodes

from helpers.paths import ROOTS
from helpers.snapshots import check_snapshot, doctree_text, updating
from helpers.warnings import without_colours
from neuron_docs.render.placeholder import deferred
from neuron_docs.renderers import RENDERERS

ROOT = ROOTS / "test-renderers"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
NAMES = [renderer.name for renderer in RENDERERS]
#: The attribute of the marker around a placeholder: the renderer's name.
MARK = "snapshot_of"
#: The warnings the root gives, on purpose: a known issue set aside (the "Data problem" box of
#: ``broken-notice``) and a revision that does not exist (``support-matrices-missing``).
EXPECTED_WARNINGS = [
    "<src>/data/issues.yaml:19: WARNING: known_issues[1].title: required field 'title' is missing; "
    "expected a value for it [neuron.data]",
    "<src>/data/issues.yaml:20: WARNING: known_issues[1].titel: unknown key 'titel' (did you mean 'title'?); "
    "expected one of: id, title, devices, frameworks, families, limit, examples, description, source [neuron.data]",
    "<src>/matrix.rst:11: WARNING: neuron:support-matrices: no revision '1999-01-01' of the support matrices; "
    "expected one of: 2022-10-10, 2022-11-16 [neuron.directive]",
]


@dataclass
class Rendered:
    """What the root's build made: each renderer's output as text, by renderer, and the build's warnings."""

    outputs: dict[str, list[str]]
    warnings: list[str]


def _mark(doctree: nodes.document, docname: str) -> None:
    """Wrap every placeholder in a marker naming its renderer and its line (inline in prose, a
    container elsewhere)."""
    for node in list(doctree.findall(deferred)):
        line = node.line or str(node.get("location", "")).rpartition(":")[2]
        marker = (nodes.inline if isinstance(node, nodes.Inline) else nodes.container)(
            **{MARK: node["renderer"], "where": f"{docname}:{line} {node.get('directive', '')}"})
        node.replace_self(marker)
        marker += node


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory, shared_data_cache: Path) -> Rendered:
    """The root built once; each page resolved again (its post-transforms) with its placeholders marked."""
    from sphinx.testing.util import SphinxTestApp

    src = tmp_path_factory.mktemp("renderers") / "src"
    shutil.copytree(ROOT, src)
    app = SphinxTestApp("html", srcdir=src, status=StringIO(), warning=StringIO(), freshenv=True,
                        confoverrides={"neuron_cache_dir": str(shared_data_cache)})
    try:
        app.build()
        stable = {str(src): "<src>"}
        warnings = [line.replace(str(src), "<src>")
                    for line in without_colours(app.warning.getvalue()).splitlines() if line.strip()]
        outputs: dict[str, list[str]] = {}
        for docname in sorted(app.env.found_docs):
            doctree = app.env.get_doctree(docname)
            _mark(doctree, docname)
            app.env.apply_post_transforms(doctree, docname)
            for marker in doctree.findall(nodes.Element):
                if MARK in marker.attributes:
                    placeholder = f"<!-- {marker['where']} -->\n"
                    outputs.setdefault(marker[MARK], []).append(
                        placeholder + (doctree_text(marker.children, stable) or "(nothing)\n"))
    finally:
        app.cleanup()
    return Rendered(outputs, warnings)


def test_the_root_gives_only_its_warnings(rendered: Rendered) -> None:
    assert rendered.warnings == EXPECTED_WARNINGS


def test_every_renderer_has_a_snapshot(rendered: Rendered) -> None:
    """A renderer new to :data:`RENDERERS` fails here until the root uses it and its snapshot is
    written; a snapshot whose renderer is gone fails too."""
    unused = [name for name in NAMES if name not in rendered.outputs]
    assert not unused, f"renderers the root (roots/test-renderers) does not use: {unused}"
    if updating():  # the snapshots are being written
        return
    stored = {path.stem for path in SNAPSHOTS.glob("*.xml")}
    assert stored == set(NAMES), (f"renderers without a snapshot: {sorted(set(NAMES) - stored)}; "
                                  f"snapshots of no renderer: {sorted(stored - set(NAMES))}")


@pytest.mark.parametrize("name", NAMES)
def test_renderer_snapshot(rendered: Rendered, name: str) -> None:
    check_snapshot(SNAPSHOTS / f"{name}.xml", "\n".join(rendered.outputs.get(name, [])))
