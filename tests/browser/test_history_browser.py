"""The benchmark history in a real browser, at 1440x900 and 390x844 (issue 31): each generation's index
filters by model, instance and kind from the address and writes a choice back into it; a row's link
opens its model's page on its configuration's block; axe-core finds nothing critical or serious on the
filtered index nor on the model's whole page (the site-wide visits, ``visits.py``, read the pages as
loaded, unfiltered, and a long page's first blocks only).

The generations, the filters' values and the rows are read from the built pages, so that the test
follows the data. Uses the session's served site and browser (``tests/browser/conftest.py``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from helpers.site import SiteBuild

from .visits import AXE, RUN_AXE, SIZES, new_page

#: Every index row as the page shows it: its filter attributes and whether the script hid it.
ROWS = """() => [...document.querySelectorAll("table.neuron-history-index tbody tr")].map(r => ({
  id: r.id, model: r.dataset.model, instance: r.dataset.instance, kind: r.dataset.kind,
  shown: !r.hidden && r.offsetParent !== null, href: r.querySelector("a").getAttribute("href")}))"""
#: The filters' names and their options (the empty value is "All").
FILTERS = """() => Object.fromEntries([...document.querySelectorAll("form.neuron-history-filter select")]
  .map(s => [s.name, {value: s.value, options: [...s.options].map(o => o.value).filter(v => v)}]))"""

#: The element is at least partly within the viewport.
IN_VIEW = "e => { const r = e.getBoundingClientRect(); return r.top < window.innerHeight && r.bottom > 0; }"


def _indexes(built_site: SiteBuild) -> list[str]:
    """Every generation's history index: a page under ``history/`` with the filter form."""
    return sorted(p.relative_to(built_site.outdir).as_posix() for p in (built_site.outdir / "history").glob("*.html")
                  if 'class="neuron-history-filter"' in p.read_text(encoding="utf-8"))


def _serious(page: Any) -> list[dict[str, Any]]:
    """axe-core's critical and serious violations on the page as it is now (every rule)."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("critical", "serious")]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_history_index_filters_from_its_address_and_its_pages_pass_axe(
        browser: Any, site_url: str, built_site: SiteBuild, size: str) -> None:
    indexes = _indexes(built_site)
    assert indexes, "no history index with filters in the built site"
    width, height = SIZES[size]
    context, page = new_page(browser, site_url, width, height)
    try:
        for index in indexes:
            page.goto(site_url + index)
            rows = page.evaluate(ROWS)
            filters = page.evaluate(FILTERS)
            assert set(filters) == {"model", "instance", "kind"}, (index, filters)
            assert rows and all(r["shown"] for r in rows), (index, "unfiltered, every row is shown")
            # The model with the most configurations: the kind can narrow it further, its page holds the most blocks.
            counts = {m: sum(r["model"] == m for r in rows) for m in filters["model"]["options"]}
            model = max(counts, key=lambda m: (counts[m], m))
            page.goto(f"{site_url}{index}?{urlencode({'model': model})}")
            filtered = page.evaluate(FILTERS)
            assert filtered["model"]["value"] == model, (index, filtered)
            shown = [r["id"] for r in page.evaluate(ROWS) if r["shown"]]
            assert shown == [r["id"] for r in rows if r["model"] == model], (index, model, shown)
            count = page.locator("form.neuron-history-filter output").inner_text()
            assert count == f"{len(shown)} configuration{'' if len(shown) == 1 else 's'}", (index, count)
            violations = _serious(page)
            assert violations == [], (index, size, "filtered", violations)

            # A choice made in the form is written into the address, beside the one it came with.
            kind = next(r["kind"] for r in rows if r["model"] == model)
            page.locator("form.neuron-history-filter select[name=kind]").select_option(kind)
            assert parse_qs(urlsplit(page.url).query) == {"model": [model], "kind": [kind]}, page.url
            narrowed = [r for r in page.evaluate(ROWS) if r["shown"]]
            assert narrowed and narrowed == [{**r, "shown": True} for r in rows
                                             if r["model"] == model and r["kind"] == kind], (index, kind)

            # One click from the row to its configuration's table and chart on its model's page.
            page.locator(f"tr[id='{narrowed[0]['id']}'] a").click()
            page.wait_for_load_state("load")
            target = urlsplit(page.url)
            assert target.fragment == narrowed[0]["id"], page.url
            block = page.locator(f"section[id='{target.fragment}']")
            assert block.evaluate(IN_VIEW), (page.url, "the configuration's block is not in view")
            assert block.locator(f"table[id='{target.fragment}-releases'] tbody tr").count() >= 1, page.url
            # Its chart (drawn when its throughput has releases enough to chart) is beside the table.
            for chart in block.locator(f"figure[id='{target.fragment}-chart'] svg").all():
                assert chart.is_visible(), (page.url, "the chart is not drawn")
            violations = _serious(page)
            assert violations == [], (page.url, size, violations)
        assert page.console_errors == []
    finally:
        context.close()
