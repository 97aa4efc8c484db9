"""The index of every CSV download (``site/downloads/csv_index.py``) on doctrees built in the test and
a stand-in application: which tables are listed, with which title and page link, for HTML and for
the other builders. No Sphinx build (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); ``test_csv_index_incremental.py`` and ``test_downloads.py`` build the site."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes
from sphinx.errors import NoUri

from neuron_docs.node_data import CSV_NAME, CSV_ROWS
from neuron_docs.render.table_model import TableCell
from neuron_docs.render.tables import build_table
from neuron_docs.site.downloads import csv_index as ci


def table(caption: str | None = None, name: str | None = None, generated: bool = True) -> nodes.table:
    made = build_table(["A"], [["1"]], caption=caption, name=name)
    if not generated:
        made["classes"] = []
    return made


def section(title: str, *children: nodes.Node) -> nodes.section:
    out = nodes.section()
    out += nodes.title(title, title)
    for child in children:
        out += child
    return out


def document(*children: nodes.Node) -> nodes.document:
    doc = nodes.document(None, None)  # type: ignore[arg-type]
    for child in children:
        doc += child
    return doc


class Builder:
    def __init__(self, name: str, fmt: str, no_uri: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.name, self.format, self.no_uri = name, fmt, no_uri

    def get_target_uri(self, docname: str) -> str:
        return f"{docname}.html"

    def get_relative_uri(self, fromdoc: str, docname: str) -> str:
        if docname in self.no_uri:
            raise NoUri(docname)
        return f"rel({fromdoc},{docname})"


def app(builder: Builder, trees: dict[str, nodes.document]) -> Any:
    titles = {name: nodes.title(f"Page {name}", f"Page {name}") for name in trees if name != "untitled"}
    return SimpleNamespace(builder=builder, config=SimpleNamespace(root_doc="index"),
                           env=SimpleNamespace(found_docs=set(trees), titles=titles))


@pytest.fixture
def trees(monkeypatch: pytest.MonkeyPatch) -> dict[str, nodes.document]:
    named = table("Prices")
    CSV_NAME.set(named, "prices")
    found = {
        "index": document(section("Home")),
        "b": document(section("Devices", named, table(name="devices-by-kind"),
                              section("Inner", table(generated=False), table(caption="")))),
        "a": document(table(), section("", table())),
        "untitled": document(section("Untitled", table("Loose"))),
    }
    monkeypatch.setattr(ci, "filled_doctree", lambda app, docname: found[docname])
    monkeypatch.setattr(ci, "download_uri", lambda app, fromdoc, path: f"{fromdoc}->{path}")
    return found


def text_rows(rows: list[list[TableCell]]) -> list[tuple[str, str, str, str | None]]:
    """Each row's file, title, page and page link; each cell's CSV words are what it shows."""
    out = []
    for file, title, page in rows:
        assert isinstance(file.page, nodes.reference) and isinstance(page.page, nodes.Node)
        assert file.page["refuri"] == f"index->_downloads/tables/{file.csv}" and file.page.astext() == file.csv
        assert title.page == title.csv and page.page.astext() == page.csv
        out.append((file.csv, title.csv, page.csv,
                    page.page.get("refuri") if isinstance(page.page, nodes.Element) else None))
    return out


def test_every_generated_table_of_every_page_in_page_order_then_the_index(trees: dict[str, nodes.document]) -> None:
    rows = ci._index_rows(app(Builder("html", "html"), trees), "index")
    assert text_rows(rows) == [
        ("a-table-1.csv", "", "Page a", "a.html"),
        ("a-table-2.csv", "", "Page a", "a.html"),
        ("prices.csv", "Prices", "Page b", "b.html"),
        ("devices-by-kind.csv", "Devices", "Page b", "b.html"),
        ("b-table-4.csv", "Inner", "Page b", "b.html"),  # the third table is no generated one
        ("untitled-table-1.csv", "Loose", "untitled", "untitled.html"),
        ("csv-index.csv", "This index", "Page index", ""),  # the page itself
    ]
    assert all(isinstance(page.page, nodes.reference) and page.page["internal"] for _f, _t, page in rows)


def test_page_links_for_each_builder(trees: dict[str, nodes.document]) -> None:
    single = app(Builder("singlehtml", "html"), trees)
    assert ci._page_uri(single, "index", "index") == ""
    # the page's name as the build reads it (from a path): equal to the root's, not the same object
    assert ci._page_uri(single, "b", "".join(["in", "dex"])) == ""
    assert ci._page_uri(single, "index", "b") == "rel(index,b)"
    assert ci._page_uri(single, "index", "zeta") == "rel(index,zeta)"  # a page sorting after the root's
    text = app(Builder("text", "text"), trees)  # a builder sorting after singlehtml: its own links
    assert ci._page_uri(text, "index", "index") == "rel(index,index)"
    html = app(Builder("html", "html"), {"sub/page": document(), "other": document()})
    assert ci._page_uri(html, "sub/page", "other") == "../other.html"
    latex = app(Builder("latex", "latex", no_uri={"gone"}), trees)
    assert ci._page_uri(latex, "index", "b") == "rel(index,b)"
    assert ci._page_uri(latex, "index", "gone") is None
    assert ci._page_link(latex, "index", "gone", "Gone") == TableCell(nodes.Text("Gone"), "Gone")
    link = ci._page_link(latex, "index", "b", "B")
    assert isinstance(link.page, nodes.reference) and (link.page["refuri"], link.page.astext(), link.csv) == (
        "rel(index,b)", "B", "B")


def test_the_html_index_is_a_sortable_table_with_a_csv_of_its_own(trees: dict[str, nodes.document],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    page = document(section("Downloads", ci.csv_index(), ci.csv_index()))
    ci.fill_index(app(Builder("html", "html"), trees), page, "index")
    assert not list(page.findall(ci.csv_index))
    tables = list(page.findall(nodes.table))
    assert len(tables) == 2
    made = tables[0]
    assert {"neuron-table", "neuron-csv-index", "neuron-sortable"} <= set(made["classes"])
    assert CSV_NAME.get(made) == "csv-index" and "csv-index" in made["ids"]
    assert [e.astext() for e in made.findall(nodes.entry)][:3] == ["CSV file", "Table", "Page"]
    assert len(list(made.findall(nodes.row))) == 1 + 7
    rows = CSV_ROWS.get(made)  # its CSV from the rows it is built from, not read back from its cells
    assert rows is not None and rows[0] == ["CSV file", "Table", "Page"] and len(rows) == 1 + 7
    assert rows[-1] == ["csv-index.csv", "This index", "Page index"]


def test_other_builders_get_a_list_linked_where_the_reader_can_follow_a_link(trees: dict[str, nodes.document]) -> None:
    page = document(section("Downloads", ci.csv_index()), section("Again", ci.csv_index()))
    ci.fill_index(app(Builder("latex", "latex", no_uri={"untitled"}), trees), page, "index")
    assert not list(page.findall(nodes.table)) and not list(page.findall(ci.csv_index))
    listing = next(iter(page.findall(nodes.bullet_list)))
    assert listing["classes"] == ["neuron-csv-index"]
    items = [item.astext() for item in listing.children]
    assert items[0] == "a-table-1.csv: on Page a"
    assert items[2] == "prices.csv: Prices, on Page b"
    assert items[5] == "untitled-table-1.csv: Loose, on untitled"
    assert items[-1] == "csv-index.csv: This index, on Page index"
    assert len(list(listing.findall(nodes.reference))) == 7 + 6  # every file, every page but the one without a link
    assert not list(listing.findall(nodes.literal))

    text = document(section("Downloads", ci.csv_index()))
    ci.fill_index(app(Builder("text", "text"), trees), text, "index")
    [listing] = text.findall(nodes.bullet_list)
    assert not list(listing.findall(nodes.reference))
    literals = [lit.astext() for lit in listing.findall(nodes.literal)]
    assert literals[0] == "a-table-1.csv" and len(literals) == 7
    assert listing.children[2].astext() == "prices.csv: Prices, on Page b"


def test_the_directive_leaves_a_placeholder_and_follows_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    monkeypatch.setattr(ci, "shows_every_page", seen.append)
    env = object()
    [placeholder] = ci.CsvIndex.run(SimpleNamespace(env=env))  # type: ignore[arg-type]
    assert isinstance(placeholder, ci.csv_index) and seen == [env]
