"""The built site in a real browser: every page loads cleanly, tables render, links resolve.

- Every HTML page opens without console errors or uncaught script errors, and requests nothing
  from outside the site.
- Every generated table (``table.neuron-table``) renders with visible body rows (a table inside
  a collapsed ``<details>`` is opened first, as a reader would).
- Every link to a page of the site resolves: the page loads, and its ``#anchor`` is an id in the DOM
  of that page; links to files (CSV and JSON downloads, sources) answer 200.
- Full-page screenshots of key pages go to ``tests/artifacts/screenshots/`` for a person to look at.
- axe-core at 1440x900: no critical and no serious violation, and a region that scrolls sideways
  says so and is reachable from the keyboard with a name (at 390x844: ``test_axe_browser.py``).

Each page is loaded once, at 1440x900, and every check reads that visit (``desktop_visits``,
``visits.py``); a link to a page the visits did not load is loaded here (one under the 404 page's
prefix is requested, and its ids are those of the same file's visit). Every check of the desktop
visits is in this module: pytest-xdist gives a module to one worker, which visits the pages once.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

from .visits import KEY_PAGES, SiteVisits, accessibility_problems, site_pages


def test_site_has_pages(built_site: Any) -> None:
    pages = site_pages(built_site.outdir)
    assert {"index.html", *KEY_PAGES.values()} <= set(pages)


def test_every_page_loads_without_errors(desktop_visits: SiteVisits) -> None:
    problems = desktop_visits.failures()
    for name, visit in desktop_visits.pages.items():
        if visit.console_errors:
            problems.append(f"{name}: {visit.console_errors}")
        if not visit.failure and not visit.has_content:
            problems.append(f"{name}: the page shows no content")
    assert not problems, "\n".join(problems)
    assert not desktop_visits.external_requests, \
        f"pages requested outside the site: {desktop_visits.external_requests}"


def test_every_generated_table_renders_with_visible_rows(desktop_visits: SiteVisits) -> None:
    problems = desktop_visits.failures()
    for visit in desktop_visits.pages.values():
        problems.extend(visit.table_problems)
    seen = sum(visit.tables_seen for visit in desktop_visits.pages.values())
    assert not problems, "\n".join(problems)
    assert seen >= 10, f"expected the site's generated tables, found {seen}"
    errors = [error for visit in desktop_visits.pages.values() for error in visit.console_errors]
    assert not errors, errors


def test_every_internal_link_and_anchor_resolves(desktop_visits: SiteVisits, page: Any, site_url: str,
                                                 built_site: Any) -> None:
    # The 404 page links under its absolute prefix (``notfound_urls_prefix``, e.g. /en/latest/),
    # where the server answers with the same files: such a page's ids are those of its visit.
    prefix = (getattr(built_site.app.config, "notfound_urls_prefix", None) or "/").strip("/")
    prefixed = site_url + prefix + "/" if prefix else None
    links: dict[str, set[tuple[str, str]]] = {}  # target URL without fragment -> {(fragment, from page)}
    for name, visit in desktop_visits.pages.items():
        for href in visit.links:
            if not href.startswith(site_url):
                continue
            target, fragment = urldefrag(href)
            links.setdefault(target, set()).add((unquote(fragment), name))
    assert len(links) > 10, "expected links between the pages"
    problems = desktop_visits.failures()
    for target, uses in sorted(links.items()):
        path = urlsplit(target).path
        if path.endswith((".html", "/")):
            visited = desktop_visits.at(target)
            same = desktop_visits.at(site_url + target[len(prefixed):]) \
                if prefixed and target.startswith(prefixed) else None
            if visited is not None:  # loaded once already: its status and its ids
                ok, status, ids = not visited.failure, visited.status, visited.ids
            elif same is not None and not same.failure:  # the file visited, served under the prefix
                response = page.request.get(target)
                ok, status, ids = response.ok, response.status, same.ids
            else:
                response = page.goto(target, wait_until="domcontentloaded")
                ok, status = response is not None and response.ok, response.status if response else None
                ids = set(page.eval_on_selector_all("[id], a[name]", "els => els.map(e => e.id || e.name)"))
            if not ok:
                problems.append(f"{target} (linked from {sorted({u[1] for u in uses})}): "
                                f"HTTP {status if status is not None else 'none'}")
                continue
            for fragment, source in sorted(uses):
                if fragment and fragment not in ids:
                    problems.append(f"{source}: link to {target}#{fragment}: no element with that id")
        else:
            response = page.request.get(target)
            if not response.ok:
                problems.append(f"{target} (linked from {sorted({u[1] for u in uses})}): HTTP {response.status}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key", sorted(KEY_PAGES))
def test_screenshot_key_pages(desktop_visits: SiteVisits, key: str) -> None:
    visit = desktop_visits.pages[KEY_PAGES[key]]
    assert not visit.failure, visit.failure
    assert visit.screenshot is not None and visit.screenshot.stat().st_size > 10_000
    assert not visit.console_errors, visit.console_errors


def test_every_page_has_no_serious_accessibility_violation_on_a_desktop(desktop_visits: SiteVisits) -> None:
    problems = accessibility_problems(desktop_visits)
    assert not problems, "\n".join(problems)
