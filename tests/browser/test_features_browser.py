"""The reader features in a real browser: sorting, filtering, charts, downloads, badges and search.

Uses the fixtures of ``tests/browser/conftest.py`` (``site_url``: the served real site; ``page``: a
Playwright page collecting console errors in ``page.console_errors``). While that file does not
exist, equivalent fixtures are defined here.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]

if not (Path(__file__).parent / "conftest.py").is_file():  # fallback fixtures, same names and meaning

    class _Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    @pytest.fixture(scope="session")
    def site_url(site):  # noqa: ANN001, ANN201
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                 functools.partial(_Quiet, directory=str(site.outdir)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()

    @pytest.fixture(scope="session")
    def _browser():  # noqa: ANN202
        if not Path(CHROMIUM).exists():
            pytest.skip("no Chromium at /usr/bin/chromium")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield browser
            browser.close()

    @pytest.fixture
    def page(_browser):  # noqa: ANN001, ANN201
        context = _browser.new_context(viewport={"width": 1280, "height": 900})
        tab = context.new_page()
        tab.console_errors = []
        tab.on("console", lambda m: tab.console_errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: tab.console_errors.append(str(e)))
        yield tab
        context.close()


def _column(page, table: str, index: int) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all(
        f"{table} tbody tr:not([hidden])",
        f"rows => rows.map(r => r.cells[{index}].innerText.replace(/\\s+/g, ' ').trim())")


def test_matrix_sorts_by_header_and_filters(page, site_url):
    page.goto(site_url + "devices/inferentia.html")
    table = "#support-matrix-inferentia"
    header = page.locator(f"{table} thead th").nth(2)
    assert header.get_attribute("aria-sort") is None
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "ascending"
    fits = _column(page, table, 2)
    assert fits == sorted(fits, key=lambda t: t.lstrip("✓✗ ").lower())
    header.locator("button").click()
    assert header.get_attribute("aria-sort") == "descending"
    total = page.locator(f"{table} tbody tr").count()
    tools = page.locator(".neuron-table-tools:has(input[aria-controls='support-matrix-inferentia'])")
    assert tools.get_by_label("Filter rows").count() == 1
    tools.get_by_label("Filter rows").fill("vision")
    visible = page.locator(f"{table} tbody tr:not([hidden])")
    assert 0 < visible.count() < total
    assert all("Vision" in t for t in _column(page, table, 1))
    assert tools.locator(".neuron-filter-status").inner_text() == f"{visible.count()} of {total} rows"
    assert page.console_errors == []


def test_numeric_sort_of_benchmark_costs(page, site_url):
    page.goto(site_url + "inference/results-analysis.html")
    table = "#costs"
    page.locator(f"{table} thead th").last.locator("button").click()
    costs = [float(t.lstrip("$")) for t in _column(page, table, 7)]
    assert costs == sorted(costs)


def test_charts_render_with_a_data_table(page, site_url):
    page.goto(site_url + "inference/results-analysis.html")
    chart = page.locator("figure#chart-cost svg")
    box = chart.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 100
    assert page.locator("figure#chart-cost svg rect").count() >= 4
    details = page.locator("figure#chart-cost + details")
    assert not details.locator("table").is_visible()
    details.locator("summary").click()
    assert details.locator("table").is_visible()
    assert page.console_errors == []


def test_badges_have_text_and_contrast(page, site_url):
    page.goto(site_url + "architecture-fit.html")
    ratios = page.eval_on_selector_all(".neuron-support-matrix .neuron-badge", """els => els.map(e => {
        const rgb = s => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map(v => v / 255)
          .map(c => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        const lum = s => { const [r, g, b] = rgb(s); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const st = getComputedStyle(e);
        const [a, b] = [lum(st.color), lum(st.backgroundColor)].sort((x, y) => y - x);
        return [e.innerText.trim(), (a + 0.05) / (b + 0.05)];
    })""")
    assert ratios
    for text, ratio in ratios:
        assert text, "a badge without text"
        assert ratio >= 4.5, (text, ratio)
    assert page.locator(".neuron-legend").count() >= 1


def test_csv_download_link_resolves(page, site_url):
    page.goto(site_url + "devices/inferentia.html")
    href = page.locator("p.neuron-download a").first.get_attribute("href")
    response = page.request.get(page.url.rsplit("/", 1)[0] + "/" + href)
    assert response.ok and response.text().count("\n") > 1


def test_search_finds_a_representative_model(page, site_url):
    page.goto(site_url + "search.html?q=BERT")
    # Sphinx shows the results one by one, then says the search finished: read them all.
    page.wait_for_function("() => /Search finished/.test(document.querySelector('.search-summary')?.textContent "
                           "|| '')", timeout=15000)
    links = page.eval_on_selector_all("#search-results li a", "as => as.map(a => a.getAttribute('href'))")
    assert any("architecture-fit.html" in h and "#family-encoder" in h for h in links), links


def test_search_for_a_model_lands_on_the_advisors_answer_first_without_a_script_error(page, site_url):
    """Issue 31: a model's name finds the advisor's answer for it first, said so in its line; every
    result's summary is shown without a script error (the advisor's address is a query, no anchor)."""
    page.goto(site_url + "search.html?q=BERT")
    page.wait_for_function("() => /Search finished/.test(document.querySelector('.search-summary')?.textContent "
                           "|| '')", timeout=15000)
    page.wait_for_load_state("networkidle")  # the summaries, each fetched from its page
    assert page.console_errors == []
    first = page.locator("#search-results li").first
    assert first.locator("a").get_attribute("href") == "advisor.html?model=BERT"
    assert "its answer for BERT" in first.inner_text()
    assert page.locator("#search-results li p.context").count() > 0  # the other results' summaries
    first.locator("a").click()
    assert page.locator("#advisor-model").input_value() == "BERT"
    assert page.locator("#advisor-result tbody tr").count() > 0
    assert page.console_errors == []


def test_wide_table_scrolls_on_a_phone_with_its_first_column_in_view(page, site_url):
    """The benchmark table on a 390 px screen: it scrolls sideways inside its wrapper (the
    page itself does not), and the run a row is about stays in view while the figures scroll."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + "inference/results-analysis.html")
    table = page.locator("table.neuron-benchmark-table").first
    wrapper = table.locator("xpath=..")
    sizes = wrapper.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert sizes[0] > sizes[1], sizes  # wider than the screen: it scrolls
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    first = table.locator("tbody tr").first.locator("td").first
    second = table.locator("tbody tr").first.locator("td").nth(1)
    before = (first.bounding_box()["x"], second.bounding_box()["x"])
    wrapper.evaluate("w => { w.scrollLeft = 300; }")
    page.evaluate("() => new Promise(requestAnimationFrame)")  # the next frame, drawn scrolled
    after = (first.bounding_box()["x"], second.bounding_box()["x"])
    assert after[1] < before[1] - 100  # the figures moved
    assert abs(after[0] - before[0]) < 1  # the first column did not
