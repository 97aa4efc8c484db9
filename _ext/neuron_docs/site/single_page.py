"""Links in the single HTML page (``singlehtml``): one anchor each.

The ``singlehtml`` builder's address of a page is ``#document-<page>``, and a link to a place on it
adds ``#<anchor>`` (``#document-architecture-fit#family-encoder``), which no browser follows. Sphinx
deprecated its own repair (``fix_refuris``); here every such link keeps its last anchor, the place's
id, which is unique on the single page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def one_anchor(uri: str) -> str:
    """``#document-page#anchor`` -> ``#anchor`` (and ``index.html#document-page#anchor`` likewise)."""
    first = uri.find("#")
    second = uri.find("#", first + 1) if first >= 0 else -1
    return uri[:first] + uri[second:] if second >= 0 else uri


def fix_double_anchors(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.name != "singlehtml":
        return
    for reference in doctree.findall(nodes.reference):
        if "#" in reference.get("refuri", ""):
            reference["refuri"] = one_anchor(reference["refuri"])
