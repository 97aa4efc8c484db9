"""The benchmark history's pages compared with the data: each configuration's figures across releases,
What's new per published state, the long-format CSV download. Reuses the session-built site."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from neuron_docs.data.figures.formatting import shown_cost, shown_price
from neuron_docs.data.published.history_view import (
    LONG_HEADER, THRESHOLD, HistoryIndex, describe_configuration, releases, state_changes,
)
from neuron_docs.directives.benchmark_history import CHART_RELEASES
from neuron_docs.state.domain import anchor_for


def _text(node) -> str:  # noqa: ANN001
    return " ".join(node.get_text(" ").split())


def test_every_configuration_has_its_place_with_its_figures_release_by_release(site, catalog) -> None:  # noqa: ANN001
    index = HistoryIndex.of(catalog)
    for generation in ("inf1", "inf2", "trn1"):
        soup = site.soup(f"history/{generation}.html")
        blocks = {b["id"]: b for b in soup.select("section.neuron-benchmark-history")}
        expected = [c for c in catalog.benchmark_configurations.values() if c.generation == generation]
        assert sorted(blocks) == sorted(anchor_for("benchmark", c.id) for c in expected)
        for config in expected:
            block = blocks[anchor_for("benchmark", config.id)]
            assert _text(block.select_one(".neuron-benchmark-title")) == describe_configuration(config)
            rows = block.select("table tbody tr")
            found = releases(index, config.id)
            assert [r.select_one("td").get_text() for r in rows] == [r.version for r in reversed(found)]
            throughput = next((m for r in found for m in r.figures if m.endswith("_per_s")), None)
            if throughput:  # every release's throughput is in its row, as published
                for row, release in zip(rows, reversed(found), strict=True):
                    if throughput in release.figures:
                        value = release.figures[throughput]
                        assert f"{value:,}" in _text(row) or f"{value:,f}" in _text(row)
            measured = [r for r in found if throughput and throughput in r.figures]
            assert (block.select_one("svg") is not None) == (len(measured) >= CHART_RELEASES)


def test_a_historical_cost_uses_the_price_in_force_then_and_says_which(site, catalog) -> None:  # noqa: ANN001
    index = HistoryIndex.of(catalog)
    costs = [(c, r) for c in catalog.benchmark_configurations.values() for r in releases(index, c.id) if r.cost]
    bases = {r.cost.price.basis for _, r in costs}
    assert bases == {"on-demand", "reserved-effective"}  # the oldest states on-demand, later RI-effective
    for config, release in costs:
        price = release.cost.price
        assert price.first_published <= release.first_published
        assert price.ended is None or release.first_published < price.ended
    config, release = next((c, r) for c, r in costs if r.cost.price.basis == "on-demand")
    block = site.soup(f"history/{config.generation}.html").find(id=anchor_for("benchmark", config.id))
    row = next(r for r in block.select("tbody tr") if r.select_one("td").get_text() == release.version)
    assert f"on-demand {shown_price(release.cost.price.usd_per_hour)}" in _text(row)  # the display rule's
    assert shown_cost(release.cost.usd) in _text(row)


def test_whats_new_lists_what_each_published_state_changed_with_links(site, catalog) -> None:  # noqa: ANN001
    soup = site.soup("whats-new.html")
    sections = soup.select("section.neuron-benchmark-changes")
    assert [s["id"] for s in sections] == [anchor_for("benchmark-state", sid)
                                            for sid in reversed(catalog.benchmark_states)]
    changes = state_changes(HistoryIndex.of(catalog))
    for section in sections:
        sid = next(s for s in catalog.benchmark_states if anchor_for("benchmark-state", s) == section["id"])
        found = changes.get(sid, [])
        listed = section.select("ul.neuron-benchmark-change-list > li")
        assert len(listed) == sum(1 for c in found if c.kind != "steady")
        for item in listed:
            href = item.select_one("a")["href"]
            page, _, anchor = href.partition("#")
            assert anchor in site.ids(page), href
    regressed = [c for cs in changes.values() for c in cs if c.kind == "regressed"]
    assert regressed and all(c.ratio is not None and c.ratio < -THRESHOLD for c in regressed)
    assert f"{THRESHOLD:.0%}" in _text(soup.find(id=sections[0]["id"]).parent)


def test_the_history_downloads_as_one_long_format_csv(site, catalog) -> None:  # noqa: ANN001
    text = (site.outdir / "_downloads/benchmark-history.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == LONG_HEADER
    assert len(rows) == len(catalog.benchmark_observations)
    by_key = {(o.configuration, o.neuron_version, o.metric, o.first_published.isoformat()): o.value
              for o in catalog.benchmark_observations.values()}
    assert all(by_key[(r["configuration"], r["neuron_version"], r["metric"], r["first_published"])]
               == Decimal(r["value"]) for r in rows)
    assert "benchmark-history.csv" in site.soup("downloads.html").get_text()
