"""Every page of the built site through axe-core in the browser, on a desktop and on a phone.

axe-core (``vendor/axe.min.js``, MPL-2.0, its licence beside it; vendored because CI has no npm step)
is injected into each page at 1440x900 and at 390x844: no critical and no serious violation. On the
same visit, each page's readability for this issue: a region that scrolls sideways says so (a cue
above it) and is reachable from the keyboard with a name, and on the phone no chart text is drawn
under 11 px. One browser, each page visited once per size.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SIZES = {"desktop": (1440, 900), "phone": (390, 844)}

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
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


def _pages(built_site: Any) -> list[str]:
    return sorted(str(p.relative_to(built_site.outdir)) for p in built_site.outdir.rglob("*.html"))


@pytest.mark.parametrize("size", SIZES)
def test_every_page_has_no_serious_accessibility_violation(browser: Any, site_url: str, built_site: Any,
                                                           size: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    page = context.new_page()
    axe = AXE.read_text(encoding="utf-8")
    problems, scrolling, chart_sizes = [], 0, []
    try:
        for path in _pages(built_site):
            page.goto(site_url + path, wait_until="load")
            page.add_script_tag(content=axe)
            for violation in page.evaluate(RUN_AXE):
                if violation["impact"] in ("critical", "serious"):
                    problems.append(f"{path}: {violation['id']} ({violation['impact']}) {violation['targets']}")
            for region in page.evaluate(SCROLLERS):
                scrolling += 1
                if not (region["focusable"] and region["name"] and region["cue"]):
                    problems.append(f"{path}: a region scrolls sideways without cue, focus or name: {region}")
            if size == "phone":
                chart_sizes.extend((path, px) for px in page.evaluate(CHART_TEXT))
    finally:
        context.close()
    small = [(path, round(px, 1)) for path, px in chart_sizes if px < 11]
    assert not problems, "\n".join(problems)
    assert not small, small
    if size == "phone":
        assert scrolling and chart_sizes  # the checks above ran on something
