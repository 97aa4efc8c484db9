"""Fixtures for tests that drive a real browser (headless Chromium through Playwright).

- ``built_site`` (session): the real site, built once into a temporary directory.
- ``site_url`` (session): that directory served over HTTP on 127.0.0.1 (a free port), ending in ``/``.
  The server also answers under the 404 page's absolute prefix (``notfound_urls_prefix``, e.g.
  ``/en/latest/``), so the 404 page's links and assets resolve as on the real host.
- ``browser`` (session): Chromium from ``/usr/bin/chromium``; the tests are skipped, with the
  reason, only when that binary is missing (``.ci/run`` installs it).
- ``page`` (function): a new page in a fresh context. ``page.console_errors`` collects every console
  message of type ``error`` and every uncaught page error; ``page.external_requests`` lists requests
  that tried to leave 127.0.0.1 (they are refused, so a test never depends on the network).

Every test under ``tests/browser/`` gets the ``browser`` marker and runs after the other tests.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from conftest import build_site

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
BROWSER_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the browser tests, and run them last: the browser and the HTTP server they keep for the
    session run threads, and other tests' parallel Sphinx builds should not fork a threaded process."""
    def in_browser_dir(item: pytest.Item) -> bool:
        return BROWSER_DIR in Path(str(item.fspath)).resolve().parents

    for item in items:
        if in_browser_dir(item):
            item.add_marker(pytest.mark.browser)
    items.sort(key=in_browser_dir)  # stable: the order within each group is kept


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The real site built once for the browser tests (a ``SiteBuild``: ``.outdir``, ``.warnings``)."""
    from sphinx.util.docutils import docutils_namespace

    # In its own docutils namespace, as sphinx-build does, so later Sphinx applications in this
    # test process do not warn that its directives and node classes are already registered.
    with docutils_namespace():
        return build_site(tmp_path_factory.mktemp("browser-site"))


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
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
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
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    # Generous: with -n auto another worker builds whole sites on the same cores while pages load.
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.console_errors = []
    page.external_requests = []

    def on_console(message: Any) -> None:
        if message.type == "error":
            location = message.location or {}
            page.console_errors.append(f"console error: {message.text} ({location.get('url', '')})")

    def on_request(route: Any) -> None:
        url = route.request.url
        if url.startswith(site_url) or url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            page.external_requests.append(url)
            route.abort()

    page.on("console", on_console)
    page.on("pageerror", lambda error: page.console_errors.append(f"page error: {error}"))
    page.route("**/*", on_request)
    try:
        yield page
    finally:
        context.close()
