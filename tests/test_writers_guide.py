"""The README's writer's guide: its example page in each syntax builds strictly and says the same thing.

``tests/roots/test-writers-guide`` holds the two pages; every snippet the README shows is part of
them, so the guide cannot drift from what builds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers.html import soup_of
from helpers.paths import FROZEN_DATA

ROOT = Path(__file__).resolve().parent / "roots" / "test-writers-guide"
README = Path(__file__).resolve().parent.parent / "README.md"


def _links(app, page: str) -> list[tuple[str, str]]:
    soup = soup_of(app.outdir / page)
    body = soup.select_one("div.body") or soup
    return [(a["href"], a.get_text(" ", strip=True)) for a in body.select("p a[href]")]


@pytest.mark.sphinx("html", testroot="writers-guide", confoverrides={"neuron_data_dir": str(FROZEN_DATA)},
                    freshenv=True)
def test_both_example_pages_build_strictly_and_agree(app) -> None:
    app.build()
    assert app.warning.getvalue() == ""
    rst, md = _links(app, "example-rst.html"), _links(app, "example-md.html")
    hrefs = {href for href, _ in md}
    assert rst and {href for href, _ in rst} == hrefs
    for anchor in ("device-trainium", "instance-trn1-2xlarge", "family-decoder", "framework-torch-neuronx"):
        assert f"index.html#{anchor}" in hrefs  # typed role, :ref: and MyST #anchor alike
    assert ("index.html#device-trainium", "Trainium") in md  # [Trainium](#device-trainium)
    assert ("_downloads/neuron-data.json", "neuron-data.json") in md
    for page in ("example-rst.html", "example-md.html"):
        soup = soup_of(app.outdir / page)
        assert soup.select("table.neuron-table") and soup.select("abbr.neuron-value") and soup.select(".sd-tab-set")


def test_every_readme_snippet_is_in_an_example_page() -> None:
    text = README.read_text(encoding="utf-8")
    guide = text[text.index("## Writer's guide"):text.index("## Linking to this site from another")]
    blocks = re.findall(r"^(`{3,4})(rst|md)\n(.*?)^\1$", guide, flags=re.S | re.M)
    assert {kind for _, kind, _ in blocks} == {"rst", "md"}
    for _, kind, block in blocks:
        page = (ROOT / ("example-rst.rst" if kind == "rst" else "example-md.md")).read_text(encoding="utf-8")
        for paragraph in block.strip().split("\n\n"):
            assert paragraph in page, paragraph


@pytest.mark.sphinx("html", testroot="writers-guide", confoverrides={"neuron_data_dir": str(FROZEN_DATA)},
                    freshenv=True)
def test_the_guide_lists_every_directive_with_every_option(app) -> None:
    text = README.read_text(encoding="utf-8")
    guide = text[text.index("## Writer's guide"):text.index("## Linking to this site from another")]
    listed: dict[str, str] = {}
    for line in guide.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 3:
            for name in re.findall(r"`([a-z-]+)`", cells[0]):
                listed[name] = cells[2]
    directives = app.registry.domain_directives["neuron"]
    assert set(listed) == set(directives)
    for name, directive in directives.items():
        options = set(getattr(directive, "option_spec", None) or {})
        assert options == set(re.findall(r"`:([a-z-]+):`", listed[name])), name
    roles = set(app.registry.domain_roles["neuron"])
    assert all(f"neuron:{role}" in guide for role in roles)
