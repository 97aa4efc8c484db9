"""The address of a place (a page and an anchor on it) from a page, for every builder.

A builder's address of a page may hold an anchor already: the single HTML page's is
``#document-<page>`` (``index.html#document-<page>`` from elsewhere), so that a place's address
written as ``<page's address>#<anchor>`` would hold two, which no browser follows. The anchors of
the site's places are unique on the single page: there, a place is its anchor alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.builders import Builder


def place_uri(builder: Builder, fromdoc: str, todoc: str, anchor: str) -> str:
    """The link from page ``fromdoc`` to ``anchor`` on page ``todoc`` (one ``#`` in every builder)."""
    if builder.name == "singlehtml":
        return f"#{anchor}"
    return f"{builder.get_relative_uri(fromdoc, todoc)}#{anchor}"
