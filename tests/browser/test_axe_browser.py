"""Every page of the built site through axe-core in the browser, on a phone (390x844).

axe-core (``vendor/axe.min.js``, MPL-2.0, its licence beside it; vendored because CI has no npm step)
is injected into each page: no critical and no serious violation. On the same visit, each page's
readability for this issue: a region that scrolls sideways says so (a cue above it) and is reachable
from the keyboard with a name, and no chart text is drawn under 11 px. Each page is visited once at
this size (``phone_visits``, ``visits.py``); the same checks at 1440x900 read the desktop visits
that ``test_site_browser.py`` reads (one module per size: pytest-xdist gives each module to one
worker, which visits the pages once). Why axe's colour rules run on the desktop alone is checked
without a browser, by ``tests/test_stylesheets.py`` (in ``make test``).
"""

from __future__ import annotations

from .visits import SiteVisits, accessibility_problems


def test_every_page_has_no_serious_accessibility_violation_on_a_phone(phone_visits: SiteVisits) -> None:
    problems = accessibility_problems(phone_visits)
    scrolling = sum(len(visit.scrollers) for visit in phone_visits.pages.values())
    chart_sizes = [(path, px) for path, visit in phone_visits.pages.items() for px in visit.chart_text_px]
    small = [(path, round(px, 1)) for path, px in chart_sizes if px < 11]
    assert not problems, "\n".join(problems)
    assert not small, small
    assert scrolling and chart_sizes  # the checks above ran on something
