"""Fixtures for tests that drive a real browser (headless Chromium through Playwright).

- ``built_site`` (session): the real site, built once per test process (``site`` of ``tests/conftest.py``).
- ``site_url`` (session): that directory served over HTTP on 127.0.0.1 (a free port), ending in ``/``.
  The server also answers under the 404 page's absolute prefix (``notfound_urls_prefix``, e.g.
  ``/en/latest/``), so the 404 page's links and assets resolve as on the real host.
- ``browser`` (session): Chromium from ``/usr/bin/chromium``; the tests are skipped, with the
  reason, only when that binary is missing (``.ci/run`` installs it).
- ``page`` (function): a new page in a fresh context. ``page.console_errors`` collects every console
  message of type ``error`` and every uncaught page error; ``page.external_requests`` lists requests
  that tried to leave 127.0.0.1 (Chromium refuses them, so a test never depends on the network).
- ``desktop_visits`` and ``phone_visits`` (session): every page of the site visited once at that
  size, with what every per-page check needs (``visits.py``). Each is read by one test module only
  (``test_site_browser.py``, ``test_axe_browser.py``): pytest-xdist runs a module on one worker
  (``--dist loadscope``), so the pages are visited once per size, not once per worker. Two
  pages are visited at once (``visits.LANES``), heaviest first: a visit mostly waits on Chromium.

Every test under ``tests/browser/`` gets the ``browser`` marker; ``tests/conftest.py`` orders them
after the modules that fork.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from helpers.site import SiteBuild

from .visits import SiteVisits, heaviest_first, new_page, site_pages, visit_site

CHROMIUM = Path("/usr/bin/chromium")
#: No host resolves but 127.0.0.1 (IP addresses included): whatever a page asks of the network fails,
#: so a test never depends on it (``visits.new_page`` lists what was asked).
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
#: How Chromium is started: the session's browser and each further lane of ``visits.visit_site``.
LAUNCH: dict[str, Any] = {"executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}
BROWSER_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the browser tests. When they run is set by ``tests/conftest.py`` (``FIRST``): after every
    module that forks a parallel Sphinx build, as the browser and the HTTP server they keep for the
    session run threads, and a threaded process should not fork."""
    for item in items:
        if BROWSER_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def built_site(site: SiteBuild) -> SiteBuild:
    """The real site for the browser tests (a ``SiteBuild``: ``.outdir``, ``.warnings``): the session's
    one build of it, which the other tests of this process read too (nothing writes into it)."""
    return site


class _Handler(SimpleHTTPRequestHandler):
    prefix = "/"

    def translate_path(self, path: str) -> str:
        if self.prefix != "/" and path.startswith(self.prefix):
            path = "/" + path[len(self.prefix):]
        return super().translate_path(path)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Any) -> Iterator[str]:
    prefix = getattr(built_site.app.config, "notfound_urls_prefix", None) or "/"
    handler = type("Handler", (_Handler,), {"prefix": "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(built_site.outdir)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser(built_site: Any) -> Iterator[Any]:
    """Chromium, started after the site is built (see the note on forked processes below)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (.ci/run installs it with apt-get install chromium)")
    import multiprocessing

    from playwright.sync_api import sync_playwright

    before = set(multiprocessing.active_children())
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(**LAUNCH)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        # A Sphinx build forks a multiprocessing manager (sphinx-sitemap's page queue) that lives as
        # long as its application. One forked while Playwright runs inherits the pipe to Playwright's
        # driver, which then never sees end-of-file and stop() would wait forever: end those first.
        for process in set(multiprocessing.active_children()) - before:
            process.terminate()
            process.join(timeout=10)
        playwright.stop()


@pytest.fixture
def page(browser: Any, site_url: str) -> Iterator[Any]:
    context, page = new_page(browser, site_url, 1280, 900)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="session")
def desktop_visits(browser: Any, site_url: str, built_site: SiteBuild) -> SiteVisits:
    """Every page visited once at 1440x900, with every per-page check's findings."""
    return visit_site(browser, site_url, _pages(built_site), "desktop", LAUNCH)


@pytest.fixture(scope="session")
def phone_visits(browser: Any, site_url: str, built_site: SiteBuild) -> SiteVisits:
    """Every page visited once at 390x844 (axe-core, sideways scrolling, chart text)."""
    return visit_site(browser, site_url, _pages(built_site), "phone", LAUNCH)


def _pages(built_site: SiteBuild) -> list[str]:
    """Every page of the site, heaviest first (the visits' lanes end together)."""
    return heaviest_first(built_site.outdir, site_pages(built_site.outdir))
