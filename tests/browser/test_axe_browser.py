"""Every page of the built site through axe-core in the browser, on a phone (390x844).

axe-core (``vendor/axe.min.js``, MPL-2.0, its licence beside it; vendored because CI has no npm step)
is injected into each page: no critical and no serious violation. On the same visit, each page's
readability for this issue: a region that scrolls sideways says so (a cue above it) and is reachable
from the keyboard with a name, and no chart text is drawn under 11 px. Each page is visited once at
this size (``phone_visits``, ``visits.py``); the same checks at 1440x900 read the desktop visits
that ``test_site_browser.py`` reads (one module per size: pytest-xdist gives each module to one
worker, which visits the pages once).
"""

from __future__ import annotations

import re
from typing import Any

from .visits import SiteVisits, accessibility_problems

#: A block of rules for some widths of the screen: ``@media (max-width: 67em) {``.
WIDTH_QUERY = re.compile(r"@media[^{]*width[^{]*\{")
COLOUR = re.compile(r"(?<![-\w])(?:color|background(?:-color)?|fill|stroke|opacity|filter)\s*:\s*([^;}]*)")
#: The one colour a width sets: the sticky first column of a wide table on a narrow screen takes the
#: page's own background, so its text keeps the contrast axe measured on the desktop.
PAGE_BACKGROUND = "var(--color-background-primary)"


def test_every_page_has_no_serious_accessibility_violation_on_a_phone(phone_visits: SiteVisits) -> None:
    problems = accessibility_problems(phone_visits)
    scrolling = sum(len(visit.scrollers) for visit in phone_visits.pages.values())
    chart_sizes = [(path, px) for path, visit in phone_visits.pages.items() for px in visit.chart_text_px]
    small = [(path, round(px, 1)) for path, px in chart_sizes if px < 11]
    assert not problems, "\n".join(problems)
    assert not small, small
    assert scrolling and chart_sizes  # the checks above ran on something


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


def test_no_stylesheet_sets_a_colour_by_width(built_site: Any) -> None:
    """Why axe's colour rules (:data:`~.visits.COLOUR_RULES`) run on the desktop visit alone: no
    stylesheet the pages load (the theme's, sphinx-design's, ours) changes a colour for a phone."""
    sheets = sorted((built_site.outdir / "_static").rglob("*.css"))
    assert any(sheet.name == "neuron.css" for sheet in sheets) and any(s.name == "furo.css" for s in sheets)
    set_by_width = [(sheet.name, value) for sheet in sheets for block in _width_blocks(sheet.read_text(encoding="utf-8"))
                    for value in COLOUR.findall(block) if value.strip() != PAGE_BACKGROUND]
    assert set_by_width == []
