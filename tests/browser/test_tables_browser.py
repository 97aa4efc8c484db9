"""The performance tables in a real browser: the reader's columns in view at 1440x900 and 390x844,
the rest behind the column chooser, costs on the price basis chosen, and every choice (tab, filter,
sort, columns, basis) kept in the address and restored from it on load; axe-core finds nothing
critical or serious with the chooser open.

Uses the session's served site and browser (``tests/browser/conftest.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from .visits import AXE, RUN_AXE, new_page

PAGES = ("performance/inf1.html", "performance/inf2.html", "performance/trn1-training.html")

#: Every visible performance table's reader's columns: header text, right edge, and the viewport width.
KEY_COLUMNS = """() => [...document.querySelectorAll("table.neuron-columns")].filter(t => t.offsetParent !== null)
  .map(t => ({id: t.id, width: window.innerWidth,
              shown: [...t.tHead.rows[0].cells].filter(th => getComputedStyle(th).display !== "none").length,
              all: t.tHead.rows[0].cells.length,
              key: [...t.tHead.rows[0].cells].filter(th => getComputedStyle(th).display !== "none")
                     .map(th => ({text: th.innerText.replace(/\\s+/g, " ").trim(),
                                  right: th.getBoundingClientRect().right}))}))"""


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_the_readers_columns_are_in_view(browser: Any, site_url: str, width: int, height: int) -> None:
    context, page = new_page(browser, site_url, width, height)
    try:
        checked = 0
        for path in PAGES:
            page.goto(site_url + path)
            for table in page.evaluate(KEY_COLUMNS):
                texts = [c["text"] for c in table["key"]]
                assert texts[0].startswith("Model") and "Configuration" in texts[1:3], (path, texts)
                assert texts[-1].startswith("Cost per") and "(RI-effective)" in texts[-1], (path, texts)
                assert table["shown"] < table["all"], (path, table["id"])  # the others are behind the chooser
                assert all(c["right"] <= table["width"] for c in table["key"]), (path, width, table)
                checked += 1
        assert checked >= 3
        assert page.console_errors == []
    finally:
        context.close()


def _state(page: Any, table: str) -> dict[str, Any]:
    return page.evaluate("""table => {
      const t = document.getElementById(table);
      const tools = document.getElementById(table + "-tools");
      const heads = [...t.tHead.rows[0].cells];
      return {
        filter: tools.querySelector("input.neuron-filter").value,
        basis: tools.querySelector("select.neuron-basis-choice").value,
        rows: [...t.tBodies[0].rows].filter(r => !r.hidden).length,
        sorted: heads.filter(th => th.hasAttribute("aria-sort")).map(th => [th.innerText.trim(), th.getAttribute("aria-sort")]),
        shown: heads.filter(th => getComputedStyle(th).display !== "none").map(th => th.innerText.replace(/\\s+/g, " ").trim()),
        tab: [...document.querySelectorAll(".sd-tab-set > input:checked + label")].map(l => l.innerText.trim())[0],
      };
    }""", table)


def test_choices_live_in_the_address_and_are_restored(browser: Any, site_url: str) -> None:
    context, page = new_page(browser, site_url, 1440, 900)
    try:
        page.goto(site_url + "performance/inf2.html")
        table = "performance-inf2-latency-data-encoder"
        page.locator(".sd-tab-set label", has_text="Latency optimized").first.click()
        tools = page.locator(f"#{table}-tools")
        tools.locator("input.neuron-filter").fill("bert")
        tools.locator("select.neuron-basis-choice").select_option("all")
        tools.locator("summary").click()
        tools.locator("label", has_text="Framework").locator("input").check()
        page.locator(f"#{table} thead th button", has_text="Cost per 1M inferences (on-demand)").click()
        chosen = _state(page, table)
        assert chosen["tab"] == "Latency optimized" and chosen["filter"] == "bert" and chosen["basis"] == "all"
        assert "Framework" in chosen["shown"] and any("(on-demand)" in s for s in chosen["shown"])
        assert chosen["sorted"] and chosen["sorted"][0][1] == "ascending"
        url = page.url
        for part in ("neuron-view=latency", "basis=all", "cols=framework", f"filter-{table}=bert",
                     f"sort-{table}=cost_per_1m_on_demand.asc"):
            assert part in url, (part, url)
    finally:
        context.close()
    context, page = new_page(browser, site_url, 1440, 900)
    try:
        page.goto(url)
        assert _state(page, table) == chosen
        assert page.console_errors == []
    finally:
        context.close()


def test_the_column_chooser_has_no_serious_accessibility_violation(browser: Any, site_url: str) -> None:
    context, page = new_page(browser, site_url, 390, 844)
    try:
        page.goto(site_url + "performance/trn1-training.html?basis=all&cols=instances,nodes")
        page.locator("details.neuron-column-chooser summary").first.click()
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        serious = [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("critical", "serious")]
        assert serious == []
    finally:
        context.close()


WIDE_ONLY = """() => [...document.querySelectorAll("table.neuron-columns th.neuron-col-wide")]
  .filter(th => th.closest("table").offsetParent !== null).map(th => getComputedStyle(th).display !== "none")"""


def test_the_change_since_the_previous_release_shows_on_a_wide_screen_and_waits_on_a_phone(
        browser: Any, site_url: str) -> None:
    """The change column is a reader's column at 1440 px; at 390 px it is behind the column chooser
    (so that the figure and its cost stay in view), and the chooser brings it back."""
    for width, height, shown in ((1440, 900, True), (390, 844, False)):
        context, page = new_page(browser, site_url, width, height)
        try:
            page.goto(site_url + "performance/inf2.html")
            states = page.evaluate(WIDE_ONLY)
            assert states and all(state is shown for state in states), (width, states)
            if not shown:
                table = page.locator("table.neuron-columns:has(th.neuron-col-wide)").first
                tools = page.locator(f"#{table.get_attribute('id')}-tools")
                tools.locator("summary").first.click()
                tools.locator("label", has_text="Change since previous release").locator("input").check()
                assert table.locator("th.neuron-col-wide").is_visible()
        finally:
            context.close()
