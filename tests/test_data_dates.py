"""One "Data last updated" for the whole site (``site/data_dates.py``): every page that prints it and
the downloads give :func:`data_last_updated`'s answer, the benchmark data dated by the history's
latest published state. Reuses the session-built site."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

from helpers.edits import edit_yaml
from neuron_docs.data import load_catalog
from neuron_docs.data.published.history_view import benchmark_data_date
from neuron_docs.site.data_dates import data_last_updated, file_dates, history_sources

STATES = "benchmarks/history/states.csv"


def test_every_page_and_download_prints_the_one_date(site, catalog) -> None:  # noqa: ANN001
    """The same date on every page that prints one (the history pages and What's new among them),
    in the JSON download and in the downloads page's intro: :func:`data_last_updated`'s."""
    date = data_last_updated(catalog)
    assert date is not None
    printed: dict[str, list[str]] = {}
    for path in sorted(site.outdir.rglob("*.html")):
        page = str(path.relative_to(site.outdir))
        tree = site.tree(page)  # every page: lxml alone, parsed once per build
        lines = [" ".join(" ".join(p.itertext()).split()) for p in tree.find_class("neuron-data-updated")
                 if p.tag == "p"]
        if lines:
            printed[page] = lines
    assert printed and all(lines == [f"Data last updated : {date.isoformat()}"] for lines in printed.values()), printed
    shown = {"index.html", "whats-new.html", "advisor.html", "architecture-fit.html", "performance/inf2.html",
             "history/inf1.html", "history/inf2.html", "history/trn1.html", "devices/index.html"}
    assert shown <= set(printed)
    document = json.loads((site.outdir / "_downloads" / "neuron-data.json").read_text(encoding="utf-8"))
    assert document["data_last_updated"] == date.isoformat()
    assert f"data last updated {date.isoformat()}" in site.soup("downloads.html").get_text()


def test_the_benchmark_data_is_dated_by_its_latest_published_state(catalog) -> None:  # noqa: ANN001
    """The history's latest state dates the benchmark data; the published tables' source and the
    prices it publishes are dated by it, not by the day they were read; the answer is the newest."""
    dates = file_dates(catalog)
    latest = max(state.date for state in catalog.benchmark_states.values())
    assert dates[STATES] == latest == benchmark_data_date(catalog)
    followed = history_sources(catalog)
    assert followed == {table.source for table in catalog.published_tables.values()} != set()
    assert dates[catalog.file_of("sources")] == max(s.date for s in catalog.sources.values()
                                                    if s.date and s.id not in followed)
    others = [p.as_of for p in catalog.prices.values() if p.source not in followed]
    assert dates.get(catalog.file_of("prices")) == (max(others) if others else None)
    assert data_last_updated(catalog) == max(dates.values())


def test_a_new_published_state_moves_the_date_and_a_read_date_does_not(data_copy: Path) -> None:
    """A state newer than every other date is the site's date; the published tables' source read on
    a later day (its ``date``) does not move it, the history knowing when its figures last changed."""
    later = dt.date(2031, 1, 2)
    path = data_copy / STATES
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows.append({**rows[-1], "id": f"{later}-0badc0de", "date": later.isoformat(), "commit": "0badc0de",
                 "subject": "Neuron SDK Release 9.0.0", "release": "9.0.0"})
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    catalog = load_catalog(data_copy)
    assert catalog.errors == []
    assert data_last_updated(catalog) == later

    followed = history_sources(catalog)

    def read_later(document: dict) -> None:
        for source in document["sources"]:
            if source["id"] in followed:
                source["date"] = "2032-05-06"
    edit_yaml(data_copy / "sources.yaml", read_later)
    assert data_last_updated(load_catalog(data_copy)) == later
