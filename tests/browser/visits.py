"""Every page of the built site visited once per viewport, collecting what every per-page check needs.

The browser tests that look at every page (console errors, content, links and anchors, generated
tables, axe-core, sideways scrolling, chart text, screenshots) assert on these collected visits
instead of each loading every page again. One visit of one page, in this order:

1. open it (``load``): the HTTP status, the ids in its DOM and the targets of its links;
2. the regions that scroll sideways and the drawn size of chart text, then axe-core
   (``vendor/axe.min.js``) on the page as loaded (its colour rules on the desktop only:
   :data:`COLOUR_RULES`), except a history page's configuration blocks after the first
   :data:`AXE_BLOCKS`: hundreds of copies of one template (:data:`REPEATED_BLOCKS`), whose every
   id, link and figure the HTML tests check, and most of axe's time on the site;
3. on the desktop only: wait until the network is idle, screenshot a key page, then open every
   generated table as a reader would (a collapsed ``<details>``, a tab not selected) and look at
   its rows, then forget the tab chosen (kept in ``localStorage`` for the next page);
   ``search.html`` is then searched, as it is empty until searched; then the page's text
   and every console error or uncaught script error of the whole visit.

A visit that raises (a timeout, a closed page) is recorded with its error and the next page is
visited: every check fails on it, each naming the page.

The pages are shared among :data:`LANES` lanes that visit at once, heaviest page first: a visit
mostly waits on Chromium (a page load, axe-core in the page's own renderer), so one lane leaves the
machine's second core idle. The first lane drives the session's browser; each other lane is a
thread with its own Playwright and Chromium (Playwright's sync API belongs to the thread that
started it), stopped before :func:`visit_site` returns.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SIZES = {"desktop": (1440, 900), "phone": (390, 844)}
SCREENSHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
#: Pages screenshotted on their desktop visit, for a person to look at: name -> page.
KEY_PAGES = {
    "index": "index.html",
    "architecture-fit": "architecture-fit.html",
    "device-trainium": "devices/trainium.html",
    "results-analysis": "inference/results-analysis.html",
}
#: Generous: with -n auto another worker builds whole sites on the same cores while pages load.
TIMEOUT_MS = 60_000
#: Pages visited at once per viewport (see the module docstring).
LANES = 2

#: axe-core's rules that read colours alone: run on the desktop visit only. No stylesheet of the site
#: sets a colour by the width of the screen (``tests/test_stylesheets.py``, in make test),
#: so a page's contrast is the same on a phone; these rules are most of axe's time on a large page.
COLOUR_RULES = ("color-contrast", "link-in-text-block")
#: One template repeated per configuration on a history page (hundreds), and how many axe-core reads.
REPEATED_BLOCKS, AXE_BLOCKS = "section.neuron-benchmark-history", 20
#: Takes the repeated blocks after the first ``keep`` out of the page, before axe-core reads it.
TRIM = """([selector, keep]) => [...document.querySelectorAll(selector)].slice(keep).forEach(b => b.remove())"""
RUN_AXE = """async (skipped) => {
  const rules = Object.fromEntries((skipped || []).map(id => [id, {enabled: false}]));
  const result = await axe.run(document, {resultTypes: ["violations"], rules});
  return result.violations.map(v => ({id: v.id, impact: v.impact,
                                      targets: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
}"""
SCROLLERS = """() => [...document.querySelectorAll(".table-wrapper, .neuron-chart-canvas")]
  .filter(r => r.scrollWidth > r.clientWidth + 1 && r.offsetParent !== null)
  .map(r => ({focusable: r.tabIndex === 0, name: r.getAttribute("aria-label") || "",
              cue: !!(r.previousElementSibling && r.previousElementSibling.classList.contains("neuron-scroll-cue"))}))"""
CHART_TEXT = """() => [...document.querySelectorAll("svg.neuron-chart-svg")].filter(s => s.getBoundingClientRect().width > 0)
  .flatMap(svg => { const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll("text")].map(t => parseFloat(getComputedStyle(t).fontSize) * scale); })"""
TAB_XPATH = "ancestor::div[contains(@class, 'sd-tab-content')][1]/preceding-sibling::label[1]"
TAB_LABEL = "xpath=" + TAB_XPATH
#: Playwright's test of a visible element (``is_visible``), for one round trip per table.
VISIBLE = """e => { const box = e.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== "hidden"
    && (!e.checkVisibility || e.checkVisibility()); }"""
TABLE_STATE = f"""t => {{ const visible = {VISIBLE};
  const xpath = (path, type) => document.evaluate(path, t, null, type, null);
  return {{label: t.getAttribute("id") || t.getAttribute("class"), visible: visible(t),
          closed: xpath("count(ancestor::details[not(@open)])", XPathResult.NUMBER_TYPE).numberValue,
          tab: !!xpath("{TAB_XPATH}", XPathResult.FIRST_ORDERED_NODE_TYPE).singleNodeValue}}; }}"""
TABLE_ROWS = f"""t => {{ const visible = {VISIBLE};
  if (!visible(t)) return {{visible: false}};
  const row = [...t.querySelectorAll(":scope tbody tr")].find(visible);
  if (!row) return {{visible: true, box: null}};
  const b = row.getBoundingClientRect();
  return {{visible: true, box: {{x: b.x, y: b.y, width: b.width, height: b.height}}, text: row.innerText}}; }}"""


@dataclass
class PageVisit:
    """What one load of one page showed."""

    path: str
    status: int | None = None
    error: str = ""  # what the visit raised, if it did not finish
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)  # every a[href], absolute
    axe: list[dict[str, Any]] = field(default_factory=list)  # violations: id, impact, targets
    scrollers: list[dict[str, Any]] = field(default_factory=list)  # regions that scroll sideways
    chart_text_px: list[float] = field(default_factory=list)  # drawn font sizes of chart text
    console_errors: list[str] = field(default_factory=list)
    screenshot: Path | None = None
    tables_seen: int = 0  # generated tables with a visible row
    table_problems: list[str] = field(default_factory=list)
    has_content: bool = False  # the article shows text

    @property
    def failure(self) -> str:
        """Why the visit does not count (an HTTP error or what it raised), or ``""``."""
        if self.error:
            return f"{self.path}: the visit failed: {self.error}"
        if self.status is None or not 200 <= self.status < 300:
            return f"{self.path}: HTTP {self.status if self.status is not None else 'no response'}"
        return ""


@dataclass
class SiteVisits:
    """Every page visited once at one viewport size."""

    size: str
    site_url: str
    pages: dict[str, PageVisit]
    external_requests: list[str]  # refused: a check never depends on the network

    def failures(self) -> list[str]:
        return [visit.failure for visit in self.pages.values() if visit.failure]

    def at(self, url: str) -> PageVisit | None:
        """The visit of the page a URL (without fragment) of the site names, if it was visited."""
        if not url.startswith(self.site_url) or "?" in url:
            return None
        path = url[len(self.site_url):]
        return self.pages.get(path + "index.html" if path == "" or path.endswith("/") else path)


def accessibility_problems(visits: SiteVisits) -> list[str]:
    """Every page's critical and serious axe-core violations, and the regions that scroll sideways
    without a cue above them, keyboard focus or a name; a visit that failed is a problem too."""
    problems = visits.failures()
    for path, visit in visits.pages.items():
        for violation in visit.axe:
            if violation["impact"] in ("critical", "serious"):
                problems.append(f"{path}: {violation['id']} ({violation['impact']}) {violation['targets']}")
        for region in visit.scrollers:
            if not (region["focusable"] and region["name"] and region["cue"]):
                problems.append(f"{path}: a region scrolls sideways without cue, focus or name: {region}")
    return problems


def site_pages(outdir: Path) -> list[str]:
    """Every HTML page of a built site, relative to it."""
    return sorted(str(p.relative_to(outdir)) for p in outdir.rglob("*.html"))


def heaviest_first(outdir: Path, pages: list[str]) -> list[str]:
    """``pages`` largest file first (then by name): the lanes that share them end together."""
    return sorted(pages, key=lambda page: (-(outdir / page).stat().st_size, page))


def new_page(browser: Any, site_url: str, width: int, height: int) -> tuple[Any, Any]:
    """A page in a fresh context of that size: ``page.console_errors`` collects every console error
    and uncaught page error, ``page.external_requests`` every request that tried to leave the site.

    Chromium itself refuses those (``conftest.CHROMIUM_ARGS`` resolve no host but 127.0.0.1), so the
    requests are only listened to, not intercepted: intercepting (``page.route``) would turn off the
    HTTP cache and send every request of every page through Python."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.console_errors = []
    page.external_requests = []

    def on_console(message: Any) -> None:
        if message.type == "error":
            location = message.location or {}
            page.console_errors.append(f"console error: {message.text} ({location.get('url', '')})")

    def on_request(request: Any) -> None:
        if not request.url.startswith((site_url, "data:", "blob:", "about:")):
            page.external_requests.append(request.url)

    page.on("console", on_console)
    page.on("pageerror", lambda error: page.console_errors.append(f"page error: {error}"))
    page.on("request", on_request)
    return context, page


def visit_site(browser: Any, site_url: str, pages: list[str], size: str, launch: dict[str, Any],
               lanes: int = LANES) -> SiteVisits:
    """Visit every page once at ``size`` (a key of ``SIZES``), in the order given, on ``lanes`` lanes:
    ``browser`` (the session's) and ``lanes - 1`` threads, each launching Chromium with ``launch``
    (the keyword arguments of ``chromium.launch``); see the module docstring. The visits are
    returned by path; a lane that could not start fails the call, after the others have visited
    every page."""
    axe = AXE.read_text(encoding="utf-8")
    todo: queue.Queue[str] = queue.Queue()
    for path in pages:
        todo.put(path)
    visits: dict[str, PageVisit] = {}
    external: list[str] = []
    failures: list[BaseException] = []

    def thread_lane() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                own = playwright.chromium.launch(**launch)
                try:
                    _lane(own, site_url, size, axe, todo, visits, external)
                finally:
                    own.close()
        except BaseException as error:  # noqa: BLE001 - raised again by the calling thread
            failures.append(error)

    threads = [threading.Thread(target=thread_lane, name=f"visits-{size}-{n}", daemon=True)
               for n in range(1, lanes)]
    for thread in threads:
        thread.start()
    try:
        _lane(browser, site_url, size, axe, todo, visits, external)
    finally:
        for thread in threads:
            thread.join()
    if failures:
        raise failures[0]
    return SiteVisits(size, site_url, {path: visits[path] for path in sorted(pages)}, external)


def _lane(browser: Any, site_url: str, size: str, axe: str, todo: queue.Queue[str],
          visits: dict[str, PageVisit], external: list[str]) -> None:
    """Visit pages from ``todo`` in one page of ``browser`` until none is left."""
    width, height = SIZES[size]
    context, page = new_page(browser, site_url, width, height)
    try:
        while True:
            try:
                path = todo.get_nowait()
            except queue.Empty:
                return
            visit = PageVisit(path)
            page.console_errors.clear()
            try:
                _visit(page, site_url, visit, axe, desktop=size == "desktop")
            except Exception as error:  # noqa: BLE001 - recorded: every check fails on this page
                visit.error = f"{type(error).__name__}: {error}"
            visit.console_errors = list(page.console_errors)
            visits[path] = visit
    finally:
        external.extend(page.external_requests)
        context.close()


def _visit(page: Any, site_url: str, visit: PageVisit, axe: str, desktop: bool) -> None:
    response = page.goto(site_url + visit.path, wait_until="load")
    visit.status = response.status if response is not None else None
    if visit.failure:
        return
    visit.ids = set(page.eval_on_selector_all("[id], a[name]", "els => els.map(e => e.id || e.name)"))
    visit.links = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    visit.scrollers = page.evaluate(SCROLLERS)
    visit.chart_text_px = page.evaluate(CHART_TEXT)
    page.evaluate(TRIM, [REPEATED_BLOCKS, AXE_BLOCKS])
    page.add_script_tag(content=axe)
    visit.axe = page.evaluate(RUN_AXE, [] if desktop else list(COLOUR_RULES))
    if not desktop:
        return
    page.wait_for_load_state("networkidle")
    screenshot = next((key for key, path in KEY_PAGES.items() if path == visit.path), None)
    if screenshot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        visit.screenshot = SCREENSHOTS / f"{screenshot}.png"
        page.screenshot(path=str(visit.screenshot), full_page=True)
    _check_tables(page, visit)
    # A tab chosen is remembered for the next pages (sphinx-design keeps it in localStorage): forget
    # it, so that every page is checked as a new reader first sees it.
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    if visit.path == "search.html":  # empty until searched: search, and wait for results
        response = page.goto(site_url + "search.html?q=Trainium", wait_until="load")
        if response is None or not response.ok:
            visit.error = f"search.html?q=Trainium: HTTP {response.status if response else 'no response'}"
            return
        page.locator("#search-results li").first.wait_for(state="visible")
    visit.has_content = bool(page.locator("article").inner_text().strip())


def _check_tables(page: Any, visit: PageVisit) -> None:
    """Every generated table (``table.neuron-table``) renders with visible, non-empty body rows.

    What a table shows is read in one round trip before and one after the clicks that open it
    (Playwright's test of visibility: a box, and not ``visibility: hidden``)."""
    tables = page.locator("table.neuron-table")
    for index in range(tables.count()):
        table = tables.nth(index)
        state = table.evaluate(TABLE_STATE)
        label = f"{visit.path} table #{index} ({state['label']})"
        # A table kept in a collapsed <details> (a chart's data) is opened as a reader would.
        closed = table.locator("xpath=ancestor::details[not(@open)]")
        for level in range(state["closed"]):
            closed.nth(level).locator(":scope > summary").click()
        # A table in a tab that is not selected (sphinx-design tabs) is shown by clicking its tab.
        if state["tab"] and (state["closed"] or not state["visible"]) and not table.is_visible():
            table.locator(TAB_LABEL).click()
        shown = table.evaluate(TABLE_ROWS)
        if not shown["visible"]:
            visit.table_problems.append(f"{label}: not visible")
            continue
        if shown["box"] is None:
            visit.table_problems.append(f"{label}: no visible rows")
            continue
        box = shown["box"]
        if box["height"] < 5 or box["width"] < 50:
            visit.table_problems.append(f"{label}: first row is squashed ({box})")
        if not shown["text"].strip():
            visit.table_problems.append(f"{label}: first row is empty")
        visit.tables_seen += 1
