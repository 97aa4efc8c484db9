"""The stylesheets the pages load set no colour by the width of the screen.

This is the premise of the browser tests' shortcut (``tests/browser/visits.py``): axe-core's colour
rules run on the desktop visit of every page, not on the phone visit, since a page's contrast is
the same at every width. Checked here, on the built site, without a browser.
"""

from __future__ import annotations

import re
from typing import Any

#: A block of rules for some widths of the screen: ``@media (max-width: 67em) {``.
WIDTH_QUERY = re.compile(r"@media[^{]*width[^{]*\{")
COLOUR = re.compile(r"(?<![-\w])(?:color|background(?:-color)?|fill|stroke|opacity|filter)\s*:\s*([^;}]*)")
#: The one colour a width sets: the sticky first column of a wide table on a narrow screen takes the
#: page's own background, so its text keeps the contrast axe measured on the desktop.
PAGE_BACKGROUND = "var(--color-background-primary)"


def _width_blocks(css: str) -> list[str]:
    """The body of every ``@media`` block that depends on the width of the screen."""
    blocks = []
    for found in WIDTH_QUERY.finditer(css):
        depth, end = 1, found.end()
        while depth and end < len(css):
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        blocks.append(css[found.end():end - 1])
    return blocks


def test_no_stylesheet_sets_a_colour_by_width(site: Any) -> None:
    """Why axe's colour rules (:data:`browser.visits.COLOUR_RULES`) run on the desktop visit alone: no
    stylesheet the pages load (the theme's, sphinx-design's, ours) changes a colour for a phone."""
    sheets = sorted((site.outdir / "_static").rglob("*.css"))
    assert any(sheet.name == "neuron.css" for sheet in sheets) and any(s.name == "furo.css" for s in sheets)
    set_by_width = [(sheet.name, value) for sheet in sheets for block in _width_blocks(sheet.read_text(encoding="utf-8"))
                    for value in COLOUR.findall(block) if value.strip() != PAGE_BACKGROUND]
    assert set_by_width == []
