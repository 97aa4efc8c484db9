"""A figure's tooltip stays a tooltip: builders without tooltips do not print it after the figure.

The site's figures, fit and status words and blank cells are ``abbreviation`` nodes whose
explanation says where the figure comes from ("Computed from NeuronCores in inf1.2xlarge."): in HTML
the ``title`` of an ``<abbr>``. The text and LaTeX writers print an explanation in brackets after
the text ("4 (Computed from ...)"), and a blank cell, whose words are already in its text for
screen readers, twice. For every builder that does not write HTML, each of the site's abbreviations
(a class ``neuron-...``) becomes an ``inline`` with its text and classes; an abbreviation written by
hand (``:abbr:``) is left to the writer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def is_ours(node: nodes.abbreviation) -> bool:
    return any(name.startswith("neuron-") for name in node["classes"])


def drop_tooltips(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Outside HTML, the site's abbreviations print their text only."""
    if getattr(app.builder, "format", "") == "html":
        return
    for node in list(doctree.findall(nodes.abbreviation)):
        if is_ours(node):
            plain = nodes.inline(node.rawsource, "", *node.children, classes=node["classes"])
            node.replace_self(plain)
