"""The support matrices on the real site against the revisions in ``data/matrix/``, cell by cell.

The architecture-fit page shows the latest revision, every revision has its own page as published,
a device page shows its matrix, every cell says since which revision it holds its value, "Last
update" is derived, the statuses' published definitions are shown, and What's new lists every
change the data holds (computed here from the data), each linking to where it shows.
"""

from __future__ import annotations

import json
import posixpath
from urllib.parse import urldefrag

import pytest

from helpers.html import row_texts
from neuron_docs.data.matrix.changes import describe
from neuron_docs.site.data_dates import file_dates


def _target(page: str, href: str) -> str:
    """The page a link on ``page`` goes to, relative to the output directory."""
    path = urldefrag(href)[0]
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page


def _line(p) -> str:  # noqa: ANN001 - a BeautifulSoup tag
    return " ".join(p.get_text().split())


def _check_matrix(site, page: str, table_id: str, catalog, rev, matrix, device: str | None = None) -> int:  # noqa: ANN001
    """The table ``table_id`` on ``page`` shows ``matrix`` of ``rev`` cell by cell; returns the cells seen."""
    soup = site.soup(page)
    table = soup.find("table", id=table_id)
    assert table is not None, (page, table_id)
    headers = [th.get_text(" ", strip=True) for th in table.select("thead th")]
    assert headers[3:] == [c.header.replace("``", "") for c in matrix.columns]
    rows = table.select("tbody tr")
    assert len(rows) == len(matrix.rows)
    since = catalog.matrix_revisions.since(rev)
    first = catalog.matrix_revisions.first_listing(device) if device else None
    seen = 0
    for tr, row in zip(rows, matrix.rows, strict=True):
        texts = row_texts(tr)
        assert texts[0] == row.label + (" (from the guideline text)" if row.published_in == "prose" else "")
        assert texts[1] == " and ".join(catalog.categories[c].name for c in row.categories)
        assert texts[2] == rev.fits[row.fit]
        for td, column in zip(tr.find_all("td", recursive=False)[3:], matrix.columns, strict=True):
            cell = row.cells[column.key]
            (badge,) = td.select(".neuron-status")
            assert badge.get_text(strip=True) == rev.statuses[cell.status].label
            assert f"neuron-status-{cell.status}" in badge["class"]
            date = since[(matrix.id, row.family, column.key)]
            date = max(date, first) if first else date
            (marker,) = td.select(".neuron-since")
            assert marker.get_text(strip=True) == f"since {date.isoformat()}"
            assert _target(page, marker.find_parent("a")["href"]) == f"matrix/{date.isoformat()}.html"
            seen += 1
    return seen


def test_architecture_fit_shows_the_latest_revision_cell_by_cell(site, catalog) -> None:  # noqa: ANN001
    rev = catalog.revision()
    seen = sum(_check_matrix(site, "architecture-fit.html", f"support-matrix-{m.id}", catalog, rev, m)
               for m in rev.matrices)
    assert seen == len(rev.cells())


def test_every_revision_page_shows_that_revision_as_published(site, catalog) -> None:  # noqa: ANN001
    for rev in catalog.matrix_revisions.revisions:
        page = f"matrix/{rev.name}.html"
        seen = sum(_check_matrix(site, page, f"support-matrix-{rev.name}-{m.id}", catalog, rev, m)
                   for m in rev.matrices)
        assert seen == len(rev.cells())
        soup = site.soup(page)
        lines = [_line(p) for p in soup.select("p.neuron-last-update")]
        derived = catalog.matrix_revisions.last_update(rev)
        assert lines == [f"Last update - {derived[m.id].isoformat()} (the latest revision that changed this matrix; "
                         f"published as \u201c{m.last_update_published}\u201d)" for m in rev.matrices]
        titles = [h.get_text(strip=True).rstrip("#¶") for h in soup.select("section section > h2")]
        assert titles == [m.title for m in rev.matrices]


def test_device_page_cells_are_dated_no_earlier_than_the_device_joined(site, catalog) -> None:  # noqa: ANN001
    rev = catalog.revision()
    matrix = catalog.matrix("trainium")
    assert _check_matrix(site, "devices/trainium.html", "support-matrix-trainium", catalog, rev, matrix, "trainium")


def test_last_update_is_derived_never_typed(site, catalog) -> None:  # noqa: ANN001
    rev = catalog.revision()
    lines = [_line(p) for p in site.soup("architecture-fit.html").select("p.neuron-last-update")]
    derived = catalog.matrix_revisions.last_update(rev)
    assert lines == [f"Last update - {derived[m.id].isoformat()} (the latest revision that changed this matrix)"
                     for m in rev.matrices]
    # The data-set date follows the derived one; families.yaml holds no typed date any more.
    assert file_dates(catalog)["matrix/"] == max(derived.values())
    assert catalog.header is not None and "last_update" not in type(catalog.header).model_fields
    document = json.loads((site.outdir / "_downloads" / "neuron-data.json").read_text(encoding="utf-8"))
    assert document["matrix"]["last_update"] == {k: v.isoformat() for k, v in derived.items()}
    assert document["data_last_updated"] == max(file_dates(catalog).values()).isoformat()
    assert [r["date"] for r in document["matrix"]["revisions"]] == [r.name for r in catalog.matrix_revisions.revisions]


def test_statuses_show_their_published_definitions(site, catalog) -> None:  # noqa: ANN001
    for page, rev in [("architecture-fit.html", catalog.revision()),
                      *((f"matrix/{r.name}.html", r) for r in catalog.matrix_revisions.revisions)]:
        text = " ".join(site.soup(page).get_text(" ").split())
        for status in rev.statuses.values():
            assert status.label in text
            if status.definition:
                assert " ".join(status.definition.split()) in text, (page, status.label)


def test_whats_new_lists_every_change_of_the_data(site, catalog) -> None:  # noqa: ANN001
    soup = site.soup("whats-new.html")
    revisions = catalog.matrix_revisions
    sections = soup.select("section.neuron-matrix-changes")
    assert [s["id"] for s in sections] == [f"changes-{r.name}" for r in reversed(revisions.revisions)]
    for rev in revisions.revisions[1:]:
        section = soup.find(id=f"changes-{rev.name}")
        items = section.select("ul.neuron-change-list > li")
        diff = revisions.changes(rev)
        expected = [*diff.shown(), *(c for c in diff.items if c.kind == "label")]
        assert len(items) == len(expected), rev.name
        before = revisions.previous(rev)
        for item, change in zip(items, expected, strict=True):
            text = " ".join(item.get_text(" ").split())
            assert text.endswith(" ".join(describe(change).split())), (text, change)
            shown_in = before if change.kind.endswith("-removed") else rev
            assert _target("whats-new.html", item.select_one("a")["href"]) == f"matrix/{shown_in.name}.html", change
        if rev.unchanged_because:
            assert rev.unchanged_because in section.get_text(" ")


@pytest.mark.site_edits
def test_a_broken_revision_is_located_and_the_rest_builds(tmp_path, data_copy, catalog) -> None:  # noqa: ANN001
    """An unknown date format in the newest revision: a located warning, that revision set aside (its
    page and What's new entry gone, a Data problem box shown), the one before it shown as the latest."""
    from helpers.site import build_site

    newest, before = catalog.matrix_revisions.revisions[-1], catalog.matrix_revisions.revisions[-2]
    path = data_copy / "matrix" / f"{newest.name}.yaml"
    text = path.read_text(encoding="utf-8")
    line = text.splitlines().index(f"date: {newest.name}") + 1
    path.write_text(text.replace(f"date: {newest.name}", "date: 11/09/2023"), encoding="utf-8")
    site = build_site(tmp_path / "out", data_dir=data_copy)
    assert f"{path}:{line}: WARNING: date: expected a date written YYYY-MM-DD (got '11/09/2023', an unknown date " \
           "format) [neuron.data]" in site.warnings
    page = site.soup("architecture-fit.html")
    assert page.select(".neuron-data-problem")
    assert _check_matrix(site, "architecture-fit.html", f"support-matrix-{before.matrices[0].id}", catalog, before,
                         before.matrices[0])
    assert not (site.outdir / "matrix" / f"{newest.name}.html").exists()
    assert site.soup("whats-new.html").find(id=f"changes-{before.name}") is not None
