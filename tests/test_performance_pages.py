"""The published-performance pages against the data, cell by cell; costs follow a changed price;
prices without basis or date are located errors; stale prices are located warnings.

Expected cells are computed here from the records (never typed): figures rounded to two decimals,
costs as 10^6 / throughput x hourly price x nodes / 3600 at the RI-effective price of the run's
instance, in the published pages' format.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from helpers.html import soup_of
from helpers.edits import set_csv_cell
from helpers.paths import DATA
from helpers.site import build_site
from neuron_docs.data import load_catalog
from neuron_docs.data.figures.derived import Derived
from neuron_docs.data.figures.prices import unstated
from neuron_docs.data.records.labels import METRICS

PAGES = {"inference": ("performance/inf1.html", "performance/inf2.html"), "training": ("performance/trn1-training.html",)}


def _ri_price(catalog, run) -> Decimal | None:
    generation = catalog.published_tables[run.table].generation
    instances = getattr(run, "instances", None) or [run.instance]
    for instance in instances:
        for price in catalog.prices.values():
            if (price.instance == instance and price.basis == "reserved-effective"
                    and catalog.published_tables[price.table].generation == generation):
                return price.usd_per_hour
    return None


def expected_cost(catalog, run) -> str:
    price = _ri_price(catalog, run)
    found = run.throughput()
    if price is None or found is None:
        return ""
    usd = 1e6 / float(found[1]) * float(price) * getattr(run, "nodes", 1) / 3600
    return shown_cost(usd)


def shown_figure(value: Decimal) -> str:
    """The display rule, written out: the published decimals, at most 5 significant digits (never an
    integer digit), half up."""
    decimals = min(max(-value.as_tuple().exponent, 0), max(5 - (value.adjusted() + 1), 0))
    return str(value.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP))


def shown_cost(usd: float) -> str:
    """Dollars and cents; under a dollar, two significant digits; thousands separated."""
    exact = Decimal(repr(usd))
    decimals = 2 if exact >= 1 else max(2 - (exact.adjusted() + 1), 2)
    return f"${exact.quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP):,}"


def _rows(table) -> tuple[list[str], list[tuple[str, list[str]]]]:
    headers = [th.get_text(" ", strip=True) for th in table.select("thead th")]
    rows = [(tr.get("id", ""), [td.get_text(" ", strip=True) for td in tr.select("td")])
            for tr in table.select("tbody tr")]
    return headers, rows


def check_pages(outdir: Path, catalog) -> int:
    """Every performance table against the records of its published table; returns the cells checked."""
    checked = 0
    runs = {**catalog.published_inference_runs, **catalog.published_training_runs}
    by_anchor = {"prun-" + re.sub(r"[^a-z0-9]+", "-", i): r for i, r in runs.items()}
    seen_tables = set()
    for kind, pages in PAGES.items():
        for page in pages:
            soup = soup_of(outdir / page)
            for table in soup.select("table.neuron-performance-table"):
                table_id = table["id"].removeprefix("performance-")
                headers, rows = _rows(table)
                records = [r for r in runs.values() if re.sub(r"[^a-z0-9]+", "-", r.table) == table_id]
                assert len(rows) == len(records) > 0, table_id
                seen_tables.add(table_id)
                for anchor, cells in rows:
                    run = by_anchor[anchor]
                    row = dict(zip(headers, cells, strict=True))
                    assert row["Model"] == run.model
                    for field, metric in METRICS.items():
                        value = getattr(run, field, None)
                        column = f"{metric.label} ({metric.unit})"
                        if value is not None:
                            assert row[column] == shown_figure(value), (anchor, column)
                            checked += 1
                    cost_column = next(h for h in headers if h.startswith("Cost per"))
                    assert cost_column == f"Cost per {run.cost_basis} (RI-effective)"
                    assert row[cost_column] == expected_cost(catalog, run), anchor
                    if kind == "inference":
                        assert row["Instance"] == run.instance
                        assert row["Batch size"] == str(run.batch_size)
                    else:
                        assert row["Nodes"] == str(run.nodes) and row["Topology"] == run.topology
                    checked += 3
                note = table.find_next("p", class_="neuron-price-basis").get_text(" ", strip=True)
                assert "RI-effective" in note and "as of" in note
    assert seen_tables
    return checked


def test_pages_agree_with_the_data_cell_by_cell(site, catalog):
    assert "performance" not in site.warnings
    assert check_pages(site.outdir, catalog) > 500


def _on_demand_price(catalog, instance: str) -> float | None:
    """The newest on-demand price of ``instance``: ``instances.yaml``'s, or one of ``prices.yaml`` on that basis."""
    quotes = [(p.as_of, float(p.usd_per_hour)) for p in catalog.prices.values()
              if p.instance == instance and p.basis == "on-demand"]
    if instance in catalog.instances:
        quotes.append((catalog.instances[instance].price.as_of, catalog.instances[instance].price.usd_per_hour))
    return max(quotes)[1] if quotes else None


def expected_on_demand_cost(catalog, run) -> str:
    """At the on-demand price of the run's (first) instance."""
    found = run.throughput()
    price = _on_demand_price(catalog, (getattr(run, "instances", None) or [run.instance])[0])
    if price is None or found is None:
        return ""
    usd = 1e6 / float(found[1]) * price * getattr(run, "nodes", 1) / 3600
    return shown_cost(usd)


def test_the_on_demand_cost_is_beside_the_ri_cost_with_its_price(site, catalog):
    """What a reader without a reservation pays: a column after the RI-effective cost, its basis in
    the header, the on-demand prices it used in the note under the table."""
    runs = {**catalog.published_inference_runs, **catalog.published_training_runs}
    by_anchor = {"prun-" + re.sub(r"[^a-z0-9]+", "-", i): r for i, r in runs.items()}
    checked = 0
    for page in [p for pages in PAGES.values() for p in pages]:
        for table in site.soup(page).select("table.neuron-performance-table"):
            headers, rows = _rows(table)
            ri = next(i for i, h in enumerate(headers) if h.endswith("(RI-effective)"))
            assert headers[ri + 1].startswith("Cost per ") and headers[ri + 1].endswith(" (on-demand)")
            for anchor, cells in rows:
                run = by_anchor[anchor]
                assert headers[ri + 1] == f"Cost per {run.cost_basis} (on-demand)"
                assert cells[ri + 1] == expected_on_demand_cost(catalog, run), anchor
                checked += bool(cells[ri + 1])
            note = table.find_next("p", class_="neuron-price-basis").get_text(" ", strip=True)
            instances = {c for _, cells in rows for c in cells if c in catalog.instances}
            for instance in instances:
                assert f"{instance}: on-demand ${_on_demand_price(catalog, instance):g}/h" in note, (table["id"], instance)
    assert checked > 100


def test_pages_have_tabs_per_view_and_csv_downloads(site, catalog):
    soup = site.soup("performance/inf2.html")
    labels = [label.get_text(strip=True) for label in soup.select(".sd-tab-set label")]
    assert labels[:2] == ["Throughput optimized", "Latency optimized"]
    for table in soup.select("table.neuron-performance-table"):
        assert "neuron-sortable" in table["class"]
        link = table.find_next("p", class_="neuron-download").find("a")["href"]
        assert (site.outdir / "performance" / link).resolve().is_file()
    linked = {a.get_text(strip=True) for a in soup.select("table.neuron-performance-table a")}
    mapped = {m.name for m in catalog.published_models.values()}
    assert linked & mapped  # models link to their family


@pytest.mark.site_edits
def test_costs_follow_a_changed_price_and_stale_prices_warn(data_copy, tmp_path, catalog):
    prices = data_copy / "prices.yaml"
    text = prices.read_text()
    assert "usd_per_hour: '0.328'" in text
    prices.write_text(text.replace("usd_per_hour: '0.328'", "usd_per_hour: '0.5'"))
    edited = load_catalog(data_copy)
    assert edited.errors == []
    build = build_site(tmp_path, data_copy, neuron_price_max_age_days=365)
    assert check_pages(build.outdir, edited) > 500  # the new price, everywhere
    from test_performance_charts import check_charts  # noqa: PLC0415 - it imports this module
    assert check_charts(build.outdir, edited) > 150  # and in the charts' costs
    changed = [r for r in edited.published_inference_runs.values() if r.instance == "inf2.xlarge"]
    # ``catalog``: the real data, loaded once for the session
    assert changed and all(expected_cost(edited, r) != expected_cost(catalog, r) for r in changed)
    stale = [line for line in build.warnings.splitlines() if "neuron_price_max_age_days" in line]
    assert stale and all(re.search(r"instances\.yaml:\d+:", line) for line in stale)
    priced = [i for i in edited.instances.values() if i.price is not None]
    assert len(stale) == len(priced)  # the on-demand prices are years older than the RI prices


@pytest.mark.parametrize("drop", ["basis", "as_of"])
def test_a_price_without_basis_or_date_is_a_located_error(data_copy, drop):
    prices = data_copy / "prices.yaml"
    lines = prices.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if "inf2.xlarge" in line)
    lines[index] = re.sub(rf", {drop}: [^,}}]+", "", lines[index])
    prices.write_text("\n".join(lines) + "\n")
    catalog = load_catalog(data_copy)
    assert [(e.file, e.line, e.field.rpartition(".")[2]) for e in catalog.errors] == [("prices.yaml", index + 1, drop)]
    assert len(catalog.prices) == len(load_catalog(DATA).prices) - 1


def test_a_run_with_an_unknown_framework_is_a_located_error(data_copy):
    """A published run is a configuration of the store: an unknown framework in its row of
    ``configurations.csv`` is one located error there, and the run is set aside (not shown)."""
    baseline = load_catalog(data_copy)
    run = next(r for r in baseline.published_inference_runs.values() if r.framework == "torch-neuron")
    _, line = set_csv_cell(data_copy / "benchmarks/history/configurations.csv", run.id, "framework", "jax-neuron")
    catalog = load_catalog(data_copy)
    assert [(e.file, e.line, e.field) for e in catalog.errors
            if e.file.endswith("configurations.csv")] == [("benchmarks/history/configurations.csv", line, "framework")]
    assert run.id not in catalog.published_inference_runs
    assert len(catalog.published_inference_runs) == len(baseline.published_inference_runs) - 1


def test_a_published_configuration_naming_an_unknown_table_is_a_located_error(data_copy):
    baseline = load_catalog(data_copy)
    run = next(iter(baseline.published_training_runs.values()))
    _, line = set_csv_cell(data_copy / "benchmarks/history/configurations.csv", run.id, "table", "no-such-table")
    catalog = load_catalog(data_copy)
    assert [(e.file, e.line, e.field) for e in catalog.errors] == [("benchmarks/history/configurations.csv", line,
                                                                    "table")]
    assert "unknown published table 'no-such-table'" in catalog.errors[0].message
    assert run.id not in catalog.published_training_runs


@pytest.mark.sphinx("html", testroot="measured", confoverrides={"neuron_data_dir": str(DATA)}, freshenv=True)
def test_measured_models_of_a_family(app, catalog):
    app.build()
    warnings = app.warning.getvalue()
    assert "unknown family 'no-such-family'" in warnings and "index.rst" in warnings
    soup = soup_of(Path(app.outdir) / "index.html")
    for family in ("encoder", "decoder"):
        table = soup.select_one(f"table#measured-{family}")
        shown = {tr.select("td")[0].get_text(strip=True) for tr in table.select("tbody tr")}
        assert shown == {m.name for m in catalog.published_models.values() if m.family == family}
        # Each row names the price its cost used; what the prices' source leaves unsaid is said once,
        # under the table, for every price it applies to.
        derived = Derived(catalog)
        gaps = {unstated(cost.price) for r in _measured_runs(catalog, family)
                if (cost := derived.published_cost(r)) is not None}
        place = table.find_parent("div", class_="table-wrapper") or table  # the note follows in its section
        note = next(iter(place.find_next_siblings("p", class_="neuron-price-note")), None)
        assert (note is not None) == any(gaps)
        if note is not None:  # the parts left unsaid by the prices the rows name, and no others
            missing = note.get_text().rsplit(": ", 1)[1].rstrip(".").split(" and ")
            assert set(missing) <= {part for gap in gaps for part in gap}
        assert not any("not stated" in tr.get_text() for tr in table.select("tbody tr"))


def _measured_runs(catalog, family):
    """Every published run of a model of ``family``."""
    models = {m.name for m in catalog.published_models.values() if m.family == family}
    return [r for r in (*catalog.published_inference_runs.values(), *catalog.published_training_runs.values())
            if r.model in models]




def _latest_figure(observations) -> Decimal:  # noqa: ANN001
    """A release's figure as last published: its live observation, else its last correction."""
    live = [o for o in observations if o.status != "corrected"]
    return (live or observations)[-1].value


def expected_since(catalog, run, metric: str) -> tuple[str, str, str] | None:  # noqa: ANN001
    """(change, previous release, configuration) of the run's ``metric`` against the latest earlier
    Neuron release of its history configuration, worked out here from the observations."""
    from neuron_docs.benchmark_import.history_rows import configuration_id, identity  # noqa: PLC0415
    from neuron_docs.data.records.history import version_key  # noqa: PLC0415

    table = catalog.published_tables[run.table]
    # the current runs are the history's latest state, id for id (a configuration continued under a
    # new column keeps the id of its first identity)
    cid = run.id if run.id in catalog.benchmark_configurations else configuration_id(
        identity(run, table.generation, table.path))
    value = getattr(run, metric, None)
    if cid not in catalog.benchmark_configurations or value is None:
        return None
    order = {sid: i for i, sid in enumerate(catalog.benchmark_states)}
    by_version: dict[str, list] = {}
    for obs in sorted((o for o in catalog.benchmark_observations.values()
                       if o.configuration == cid and o.metric == metric),
                      key=lambda o: order[o.first_state]):
        by_version.setdefault(obs.neuron_version, []).append(obs)
    from neuron_docs.data.published.history_view import BenchmarkHistoryIndex  # noqa: PLC0415

    judged = BenchmarkHistoryIndex.of(catalog).judgement(cid, metric)  # a suspect point is never the one compared with
    earlier = sorted((v for v in by_version if version_key(v) < version_key(run.neuron_version)
                      and getattr(judged.of(v), "kind", "") != "suspect"), key=version_key)
    if not earlier:
        return None
    previous = _latest_figure(by_version[earlier[-1]])
    percent = (Decimal(value) / previous - 1) * 100
    text = f"{percent.quantize(Decimal('0.1'), ROUND_HALF_UP):+}%".replace("-0.0%", "+0.0%")
    return text, earlier[-1], cid


def test_each_row_shows_the_change_since_the_previous_release_that_measured_it(site, catalog):
    """The change column against the history, row by row: the headline figure (the first figure
    column) against the latest earlier release of the row's configuration, linked to its place on the
    history page; a table none of whose rows was measured before has no such column."""
    from neuron_docs.state.domain import anchor_for  # noqa: PLC0415

    runs = {**catalog.published_inference_runs, **catalog.published_training_runs}
    by_anchor = {"prun-" + re.sub(r"[^a-z0-9]+", "-", i): r for i, r in runs.items()}
    labels = {f"{m.label} ({m.unit})": field for field, m in METRICS.items()}
    shown = 0
    for page in [p for pages in PAGES.values() for p in pages]:
        for table in site.soup(page).select("table.neuron-performance-table"):
            headers, rows = _rows(table)
            metric = next(labels[h] for h in headers if h in labels)
            expected = {anchor: expected_since(catalog, by_anchor[anchor], metric) for anchor, _ in rows}
            if "Change since previous release" not in headers:
                assert not any(expected.values()), table["id"]
                continue
            column = headers.index("Change since previous release")
            assert column == headers.index(next(h for h in headers if h in labels)) + 1  # beside the headline figure
            previous = headers.index("Previous release")
            for tr, (anchor, cells) in zip(table.select("tbody tr"), rows, strict=True):
                want = expected[anchor]
                if want is None:
                    assert cells[column] == cells[previous] == "", anchor
                    continue
                change, version, cid = want
                assert cells[column].split(" (")[0] == f"{change} since {version}", anchor
                assert cells[previous] == version
                link = tr.select("td")[column].select_one("a")
                generation = catalog.benchmark_configurations[cid].generation
                assert link["href"] == f"../history/{generation}.html#{anchor_for('benchmark', cid)}"
                shown += 1
    assert shown  # some row of the data was measured by an earlier release (its tables have the column)


def test_the_change_column_is_a_number_in_the_tables_csv(site, catalog):
    """The CSV download carries the change as a number (percent in the header) and the release it is
    measured from in a column of its own."""
    import csv  # noqa: PLC0415

    soup = site.soup("performance/inf2.html")
    table = next(t for t in soup.select("table.neuron-performance-table")
                 if "Change since previous release" in _rows(t)[0])
    headers, rows = _rows(table)
    link = table.find_next("p", class_="neuron-download").find("a")["href"]
    data = list(csv.DictReader((site.outdir / "performance" / link).resolve().read_text(encoding="utf-8").splitlines()))
    assert len(data) == len(rows)
    for (_, cells), record in zip(rows, data, strict=True):
        shown = cells[headers.index("Change since previous release")]
        written = record["Change since previous release (%)"]
        assert (shown == "") == (written == "")
        if shown:
            assert Decimal(written) == Decimal(shown.split("%")[0])
            assert record["Previous release"] == shown.split(" since ")[1].split(" ")[0]
