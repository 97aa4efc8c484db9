"""A Sphinx extension for the tests: it gives its build one more renderer (``extra``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from neuron_docs.render.placeholder import NoParams, RenderContext, add_renderers, renderer

if TYPE_CHECKING:
    from sphinx.application import Sphinx


@renderer("extra")
def render_extra(ctx: RenderContext, params: NoParams) -> list[nodes.Node]:
    return [nodes.paragraph("extra", "extra")]


def setup(app: Sphinx) -> dict[str, bool]:
    add_renderers(app, render_extra)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
