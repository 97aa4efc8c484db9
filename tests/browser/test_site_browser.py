"""The built site in a real browser: every page loads cleanly, tables render, links resolve.

- Every HTML page opens without console errors or uncaught script errors, and requests nothing
  from outside the site.
- Every generated table (``table.neuron-table``) renders with visible body rows (a table inside
  a collapsed ``<details>`` is opened first, as a reader would).
- Every link to a page of the site resolves: the page loads, and its ``#anchor`` is an id in the DOM
  of that page; links to files (CSV and JSON downloads, sources) answer 200.
- Full-page screenshots of key pages go to ``tests/artifacts/screenshots/`` for a person to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

SCREENSHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
KEY_PAGES = {
    "index": "index.html",
    "architecture-fit": "architecture-fit.html",
    "device-trainium": "devices/trainium.html",
    "results-analysis": "inference/results-analysis.html",
}


def _pages(built_site: Any) -> list[str]:
    return sorted(str(p.relative_to(built_site.outdir)) for p in built_site.outdir.rglob("*.html"))


def _open(page: Any, url: str) -> None:
    response = page.goto(url, wait_until="load")
    assert response is not None and response.ok, f"{url}: HTTP {response.status if response else 'no response'}"


def test_site_has_pages(built_site: Any) -> None:
    pages = _pages(built_site)
    assert {"index.html", *KEY_PAGES.values()} <= set(pages)


def test_every_page_loads_without_errors(page: Any, site_url: str, built_site: Any) -> None:
    problems = []
    for name in _pages(built_site):
        page.console_errors.clear()
        _open(page, site_url + name)
        page.wait_for_load_state("networkidle")
        if page.console_errors:
            problems.append(f"{name}: {page.console_errors}")
        if name == "search.html":  # empty until searched: search, and wait for results
            _open(page, site_url + "search.html?q=Trainium")
            page.locator("#search-results li").first.wait_for(state="visible")
        assert page.locator("article").inner_text().strip(), f"{name}: the page shows no content"
    assert not problems, "\n".join(problems)
    assert not page.external_requests, f"pages requested outside the site: {page.external_requests}"


def test_every_generated_table_renders_with_visible_rows(page: Any, site_url: str, built_site: Any) -> None:
    seen = 0
    problems = []
    for name in _pages(built_site):
        _open(page, site_url + name)
        tables = page.locator("table.neuron-table")
        for index in range(tables.count()):
            table = tables.nth(index)
            # A table kept in a collapsed <details> (a chart's data) is opened as a reader would.
            closed = table.locator("xpath=ancestor::details[not(@open)]")
            for level in range(closed.count()):
                closed.nth(level).locator(":scope > summary").click()
            # A table in a tab that is not selected (sphinx-design tabs) is shown by clicking its tab.
            tab = table.locator("xpath=ancestor::div[contains(@class, 'sd-tab-content')][1]/preceding-sibling::label[1]")
            if tab.count() and not table.is_visible():
                tab.click()
            label = f"{name} table #{index} ({table.get_attribute('id') or table.get_attribute('class')})"
            rows = table.locator("tbody tr")
            if not table.is_visible():
                problems.append(f"{label}: not visible")
                continue
            visible = [r for r in range(rows.count()) if rows.nth(r).is_visible()]
            if not visible:
                problems.append(f"{label}: no visible rows")
                continue
            box = rows.nth(visible[0]).bounding_box()
            if not box or box["height"] < 5 or box["width"] < 50:
                problems.append(f"{label}: first row is squashed ({box})")
            if not rows.nth(visible[0]).inner_text().strip():
                problems.append(f"{label}: first row is empty")
            seen += 1
    assert not problems, "\n".join(problems)
    assert seen >= 10, f"expected the site's generated tables, found {seen}"
    assert not page.console_errors, page.console_errors


def test_every_internal_link_and_anchor_resolves(page: Any, site_url: str, built_site: Any) -> None:
    links: dict[str, set[tuple[str, str]]] = {}  # target URL without fragment -> {(fragment, from page)}
    for name in _pages(built_site):
        _open(page, site_url + name)
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
            if not href.startswith(site_url):
                continue
            target, fragment = urldefrag(href)
            links.setdefault(target, set()).add((unquote(fragment), name))
    assert len(links) > 10, "expected links between the pages"
    problems = []
    for target, uses in sorted(links.items()):
        path = urlsplit(target).path
        if path.endswith((".html", "/")):
            response = page.goto(target, wait_until="domcontentloaded")
            if response is None or not response.ok:
                problems.append(f"{target} (linked from {sorted({u[1] for u in uses})}): "
                                f"HTTP {response.status if response else 'none'}")
                continue
            ids = set(page.eval_on_selector_all("[id], a[name]", "els => els.map(e => e.id || e.name)"))
            for fragment, source in sorted(uses):
                if fragment and fragment not in ids:
                    problems.append(f"{source}: link to {target}#{fragment}: no element with that id")
        else:
            response = page.request.get(target)
            if not response.ok:
                problems.append(f"{target} (linked from {sorted({u[1] for u in uses})}): HTTP {response.status}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key", sorted(KEY_PAGES))
def test_screenshot_key_pages(page: Any, site_url: str, key: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    _open(page, site_url + KEY_PAGES[key])
    page.wait_for_load_state("networkidle")
    path = SCREENSHOTS / f"{key}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    assert not page.console_errors, page.console_errors
