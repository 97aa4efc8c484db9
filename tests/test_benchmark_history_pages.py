"""The benchmark history's pages compared with the data: each configuration's figures across releases,
What's new per Neuron release, the long-format CSV download; every figure printed by the display rule
of the performance tables (``shown_figure``/``shown_measure``), the raw value only in the JSON.
Reuses the session-built site."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from decimal import Decimal

from helpers.html import text_of
from neuron_docs.data.figures.formatting import (
    shown_change, shown_cost, shown_cost_number, shown_figure, shown_measure, shown_price,
)
from neuron_docs.data.records.history import version_key
from neuron_docs.data.published.history_view import (
    LONG_HEADER, THRESHOLD, BenchmarkHistoryIndex, describe_configuration, historical_cost, lower_is_better, releases,
    state_changes,
)
from neuron_docs.data.records.labels import METRICS, THROUGHPUT_FIELDS
from neuron_docs.directives.benchmark_history import CHART_RELEASES, JUDGED_TEXT, model_page
from neuron_docs.state.domain import anchor_for


def _published(catalog) -> dict[tuple[str, str, str], tuple[Decimal, list[Decimal]]]:  # noqa: ANN001
    """(configuration, release, metric) -> the figure as last published under the release and the
    figures it corrected (oldest first), read from the observations alone."""
    rows: dict[tuple[str, str, str], list] = {}
    for obs in sorted(catalog.benchmark_observations.values(), key=lambda o: (o.first_published, o.id)):
        rows.setdefault((obs.configuration, obs.neuron_version, obs.metric), []).append(obs)
    out = {}
    for key, found in rows.items():
        corrected = [o.value for o in found if o.status == "corrected"]
        live = [o.value for o in found if o.status != "corrected"]
        out[key] = (live[-1] if live else corrected[-1], corrected)
    return out


def _blocks(site, catalog, generation: str) -> list:  # noqa: ANN001
    """The configuration blocks of a generation, from its models' pages."""
    pages = sorted({model_page(generation, c.model) for c in catalog.benchmark_configurations.values()
                    if c.generation == generation})
    return [b for page in pages for b in site.soup(f"{page}.html").select("section.neuron-benchmark-history")]


def _releases_in_data(catalog) -> dict[str, dt.date]:  # noqa: ANN001
    """Every Neuron release of the observations -> the earliest date one of its figures was first published."""
    first: dict[str, dt.date] = {}
    for obs in catalog.benchmark_observations.values():
        first[obs.neuron_version] = min(first.get(obs.neuron_version, obs.first_published), obs.first_published)
    return first


def test_every_configuration_has_its_place_with_its_figures_release_by_release(site, catalog) -> None:  # noqa: ANN001
    index = BenchmarkHistoryIndex.of(catalog)
    for generation in ("inf1", "inf2", "trn1"):
        blocks = {b["id"]: b for b in _blocks(site, catalog, generation)}
        index_rows = {r["id"] for r in site.soup(f"history/{generation}.html").select("table.neuron-history-index tbody tr")}
        expected = [c for c in catalog.benchmark_configurations.values() if c.generation == generation]
        assert sorted(blocks) == sorted(index_rows) == sorted(anchor_for("benchmark", c.id) for c in expected)
        for config in expected:
            block = blocks[anchor_for("benchmark", config.id)]
            assert text_of(block.select_one(".neuron-benchmark-title")) == describe_configuration(config)
            rows = block.select("table tbody tr")
            found = releases(index, config.id)
            assert [r.select_one("td").get_text() for r in rows] == [r.version for r in found]  # as the chart
            throughput = next((m for r in found for m in r.figures if m.endswith("_per_s")), None)
            measured = [r for r in found if throughput and throughput in r.figures]
            assert (block.select_one("svg") is not None) == (len(measured) >= CHART_RELEASES)
            if measured and len(measured) >= CHART_RELEASES:  # each bar's label by the display rule
                bars = [t.get_text() for t in block.select("svg text") if t.get_text().endswith(METRICS[throughput].unit)]
                assert bars == [shown_measure(r.figures[throughput], METRICS[throughput].unit) for r in measured]


def test_every_figure_of_the_history_pages_is_the_display_rule_of_the_stored_value(site, catalog) -> None:  # noqa: ANN001
    """Cell by cell: each figure of a configuration's table is ``shown_figure`` of the value the
    observations hold (the figure as last published under its release, then the ones it corrected),
    as the performance tables print it; never the stored digits (``2,674.18956433``)."""
    published = _published(catalog)
    labels = {f"{m.label} ({m.unit})": name for name, m in METRICS.items()}
    checked = 0
    for generation in ("inf1", "inf2", "trn1"):
        for block in _blocks(site, catalog, generation):
            config = next(c.id for c in catalog.benchmark_configurations.values() if anchor_for("benchmark", c.id) == block["id"])
            headers = [th.get_text() for th in block.select("thead th")]
            for row in block.select("tbody tr"):
                cells = [td.get_text() for td in row.select("td")]
                version = cells[0]
                for header, text in zip(headers, cells, strict=True):
                    metric = labels.get(header)
                    if metric is None:
                        continue
                    if (config, version, metric) not in published:
                        assert text == ""
                        continue
                    value, corrected = published[(config, version, metric)]
                    expected = shown_figure(value)
                    if corrected:
                        expected += " (corrected from " + ", ".join(shown_figure(v) for v in corrected) + ")"
                    judged = next((f" ({w})" for w in JUDGED_TEXT.values() if text.endswith(f" ({w})")), "")
                    assert text.removesuffix(judged) == expected, (config, version, metric)
                    checked += 1
    assert checked == len(published)


def test_a_historical_cost_uses_the_price_in_force_then_and_says_which(site, catalog) -> None:  # noqa: ANN001
    index = BenchmarkHistoryIndex.of(catalog)
    costs = [(c, r) for c in catalog.benchmark_configurations.values() for r in releases(index, c.id) if r.cost]
    bases = {r.cost.price.basis for _, r in costs}
    assert bases == {"on-demand", "reserved-effective"}  # the oldest states on-demand, later RI-effective
    for config, release in costs:
        price = release.cost.price
        assert price.first_published <= release.first_published
        assert price.ended is None or release.first_published < price.ended
    config, release = next((c, r) for c, r in costs if r.cost.price.basis == "on-demand")
    block = site.soup(f"{model_page(config.generation, config.model)}.html").find(id=anchor_for("benchmark", config.id))
    row = next(r for r in block.select("tbody tr") if r.select_one("td").get_text() == release.version)
    assert f"on-demand {shown_price(release.cost.price.usd_per_hour)}" in text_of(row)  # the display rule's
    assert shown_cost(release.cost.usd) in text_of(row)


def test_whats_new_has_one_section_per_release_with_the_changes_of_its_figures(site, catalog) -> None:  # noqa: ANN001
    """One section per Neuron release of the observations, newest first, titled with the release and
    the earliest date one of its figures was first published; it lists every change every state
    made to a figure of that release (a new configuration under its first figure's release, a
    withdrawal under the release last published for the configuration), each linked."""
    soup = site.soup("whats-new.html")
    sections = soup.select("section.neuron-benchmark-changes")
    first = _releases_in_data(catalog)
    newest_first = sorted(first, key=version_key, reverse=True)
    assert [s["id"] for s in sections] == [anchor_for("changes", v) for v in newest_first]
    for section, version in zip(sections, newest_first, strict=True):
        assert section.find(["h2", "h3"]).get_text().rstrip("¶") ==\
            f"Neuron {version} (first published {first[version].isoformat()})"
    by_section = {s["id"]: s for s in sections}
    changes = state_changes(BenchmarkHistoryIndex.of(catalog))
    listed = {s["id"]: len(s.select("ul.neuron-benchmark-change-list > li")) for s in sections}
    expected: dict[str, int] = {}
    configs = catalog.benchmark_configurations
    for sid, found in changes.items():
        for change in found:
            rows = sorted((o for o in catalog.benchmark_observations.values() if o.configuration == change.configuration),
                          key=lambda o: (o.first_published, version_key(o.neuron_version)))
            if change.kind == "new":
                assert change.version == rows[0].neuron_version
            elif change.kind == "withdrawn":
                assert change.version == max((o.neuron_version for o in rows), key=version_key)
            elif change.metric:  # a re-measured or corrected figure: the release of the figure
                assert any(o.neuron_version == change.version and o.first_state == sid and o.metric == change.metric
                           for o in rows)
            if change.kind != "steady":
                expected[anchor_for("changes", change.version)] = expected.get(anchor_for("changes", change.version), 0) + 1
    assert listed == {anchor: expected.get(anchor, 0) for anchor in listed}
    for section in sections:
        for item in section.select("ul.neuron-benchmark-change-list > li"):
            href = item.select_one("a")["href"]
            page, _, anchor = href.partition("#")
            assert anchor in site.ids(page), href
    regressed = [c for cs in changes.values() for c in cs if c.kind == "regressed"]
    # a regression in the metric's own direction: a throughput fell, a latency rose
    assert regressed and all(c.ratio is not None and (c.ratio > THRESHOLD if lower_is_better(c.metric)
                                                      else c.ratio < -THRESHOLD) for c in regressed)
    for change in regressed:  # under its figure's release, whatever release its state named
        section = by_section[anchor_for("changes", change.version)]
        title = describe_configuration(configs[change.configuration])
        assert any(text_of(li).startswith(title) and f"on Neuron {change.version}," in text_of(li)
                   for li in section.select("li")), (change.version, title)
    assert f"{THRESHOLD:.0%}" in text_of(soup.find(id=sections[0]["id"]).parent)


def test_whats_new_prints_every_figure_by_the_display_rule(site, catalog) -> None:  # noqa: ANN001
    """Each re-measured or corrected figure of What's new is ``shown_measure`` of the stored value
    (``46.898 inferences/s``, never ``46.89836990``), its change ``shown_change``."""
    changes = [c for cs in state_changes(BenchmarkHistoryIndex.of(catalog)).values() for c in cs
               if c.kind in ("improved", "regressed", "corrected") and c.new is not None]
    assert changes
    text = text_of(site.soup("whats-new.html"))
    configs = catalog.benchmark_configurations
    for c in changes:
        unit = METRICS[c.metric].unit
        title = describe_configuration(configs[c.configuration])
        if c.kind == "corrected":
            words = f"{title} : {shown_figure(c.old)} -> {shown_measure(c.new, unit)} (Neuron {c.version})"
        else:
            words = (f"{title} : {METRICS[c.metric].label} {shown_measure(c.new, unit)} on Neuron {c.version}, "
                     f"{shown_change(c.ratio)} against the level {shown_measure(c.baseline, unit)}")
        assert words in text, words


def test_the_history_downloads_as_one_long_format_csv(site, catalog) -> None:  # noqa: ANN001
    """One row per published figure, its value and cost by the display rule (as the performance
    tables' CSVs print them); the raw value is the JSON download's."""
    text = (site.outdir / "_downloads/benchmark-history.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == LONG_HEADER
    assert len(rows) == len(catalog.benchmark_observations)
    by_key = {(o.configuration, o.neuron_version, o.metric, o.first_published.isoformat()): o
              for o in catalog.benchmark_observations.values()}
    configs = catalog.benchmark_configurations
    for row in rows:
        obs = by_key[(row["configuration"], row["neuron_version"], row["metric"], row["first_published"])]
        assert row["value"] == shown_figure(obs.value)
        cost = historical_cost(catalog, configs[obs.configuration], {obs.metric: obs.value}, obs.first_published)
        if cost is not None and obs.metric in THROUGHPUT_FIELDS:
            assert row["cost_usd_per_1m"] == shown_cost_number(cost.usd)
    assert any(row["value"] != str(by_key[(row["configuration"], row["neuron_version"], row["metric"],
                                           row["first_published"])].value) for row in rows)  # the rule cut some
    document = json.loads((site.outdir / "_downloads/neuron-data.json").read_text(encoding="utf-8"))
    raw = {o["id"]: o["value"] for o in document["collections"]["benchmark_observations"]}
    assert {i: Decimal(str(v)) for i, v in raw.items()} == {i: o.value for i, o in catalog.benchmark_observations.items()}
    assert "benchmark-history.csv" in site.soup("downloads.html").get_text()


def test_a_history_a_reader_finds_their_way_in(site, catalog) -> None:  # noqa: ANN001
    """Per generation a compact index filtering by model, instance and kind (the filters are the URL's
    query: the form's select names), each row one click from its configuration's table and chart; no
    history page over 300 KB."""
    for generation in ("inf1", "inf2", "trn1"):
        soup = site.soup(f"history/{generation}.html")
        form = soup.select_one("form.neuron-history-filter")
        assert form is not None and form.get("method") == "get"
        selects = {s["name"]: {o["value"] for o in s.select("option")} for s in form.select("select")}
        assert set(selects) == {"model", "instance", "kind"}
        for row in soup.select("table.neuron-history-index tbody tr"):
            for name, options in selects.items():
                assert row[f"data-{name}"] in options
            href = row.select_one("a")["href"]
            page, _, anchor = href.partition("#")
            assert anchor == row["id"]
            target = site.soup(f"history/{page}").find(id=anchor)
            assert target is not None and target.select_one("table") is not None
    sizes = {p.relative_to(site.outdir).as_posix(): p.stat().st_size for p in (site.outdir / "history").rglob("*.html")}
    assert sizes and max(sizes.values()) < 300_000, max(sizes.items(), key=lambda kv: kv[1])
