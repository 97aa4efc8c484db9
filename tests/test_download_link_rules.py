"""The rules of where a download is (``site/downloads/links.py``) on stand-in builders made in the test:
which builders write the files and which link to them, the link from a page relative to its own URL
(HTML) or to the published site (the others), and the ``neuron:download`` role's link as written and
as resolved per builder. No Sphinx build (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); ``test_downloads.py`` and ``test_builders.py`` build the site."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes

from neuron_docs.node_data import DOWNLOAD
from neuron_docs.site.downloads import links

BASE = "https://site.invalid/docs/"


def app(name: str, fmt: str, base: str = BASE) -> Any:
    def target_uri(docname: str) -> str:
        return {"dirhtml": f"{docname}/", "singlehtml": "index.html"}.get(name, f"{docname}.html")

    builder = SimpleNamespace(name=name, format=fmt, get_target_uri=target_uri)
    return SimpleNamespace(builder=builder, config=SimpleNamespace(html_baseurl=base))


@pytest.mark.parametrize(("name", "fmt", "writes", "links_to"), [
    ("html", "html", True, True), ("dirhtml", "html", True, True), ("singlehtml", "html", True, True),
    ("epub", "html", False, True), ("epub3", "html", False, True), ("latex", "latex", False, True),
    ("text", "text", False, False), ("man", "man", False, False), ("xml", "", False, False),
    ("myhtml-epub", "html", True, True),
])
def test_which_builders_write_the_downloads_and_which_link_to_them(name: str, fmt: str, writes: bool,
                                                                   links_to: bool) -> None:
    assert links.writes_downloads(app(name, fmt)) is writes
    assert links.links_downloads(app(name, fmt)) is links_to


def test_a_builder_without_a_name_or_format_writes_and_links_nothing_or_as_its_format_says() -> None:
    assert links.writes_downloads(SimpleNamespace(builder=SimpleNamespace(format="html"))) is True
    assert links.writes_downloads(SimpleNamespace(builder=SimpleNamespace(name="html"))) is False
    assert links.links_downloads(SimpleNamespace(builder=SimpleNamespace(name="html"))) is False
    fmt = "".join(["ht", "ml"])  # a format made at run time: compared by value
    assert links.writes_downloads(app("html", fmt)) is True and links.links_downloads(app("html", fmt)) is True


@pytest.mark.parametrize("base", ["https://site.invalid/docs/", "https://site.invalid/docs", "https://site.invalid/docs///"])
def test_the_sites_address_of_a_download_has_one_slash_before_its_path(base: str) -> None:
    assert links.site_uri(SimpleNamespace(html_baseurl=base), "_downloads/a.csv") == \
        "https://site.invalid/docs/_downloads/a.csv"


@pytest.mark.parametrize(("name", "docname", "uri"), [
    ("html", "index", "_downloads/tables/t.csv"),
    ("html", "guide/devices", "../_downloads/tables/t.csv"),
    ("dirhtml", "guide/devices", "../../_downloads/tables/t.csv"),
    ("singlehtml", "guide/devices", "_downloads/tables/t.csv"),
])
def test_an_html_page_links_to_its_download_relatively(name: str, docname: str, uri: str) -> None:
    assert links.download_uri(app(name, "html"), docname, "_downloads/tables/t.csv") == uri


@pytest.mark.parametrize(("name", "fmt"), [("epub", "html"), ("latex", "latex"), ("text", "text")])
def test_other_builders_link_to_the_published_site(name: str, fmt: str) -> None:
    assert links.download_uri(app(name, fmt), "guide/devices", "_downloads/tables/t.csv") == \
        BASE + "_downloads/tables/t.csv"


def role(text: str) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    made = links.DownloadRole()
    made.rawtext, made.text = f":neuron:download:`{text}`", text
    made.inliner = SimpleNamespace(document=SimpleNamespace(  # type: ignore[assignment]
        settings=SimpleNamespace(env=SimpleNamespace(config=SimpleNamespace(html_baseurl=BASE)))))
    return made.run()


def test_the_role_links_to_the_file_named_under_its_name_or_a_title() -> None:
    (reference,), messages = role("neuron-data.json")
    assert messages == [] and isinstance(reference, nodes.reference)
    assert reference.astext() == "neuron-data.json"
    assert reference["refuri"] == BASE + "_downloads/neuron-data.json"
    assert DOWNLOAD.get(reference) == "_downloads/neuron-data.json"
    assert reference["classes"] == ["neuron-download-link"]
    assert reference.rawsource == ":neuron:download:`neuron-data.json`"
    (titled,), _ = role("the roadmap <tables/roadmap.csv>")
    assert titled.astext() == "the roadmap"
    assert DOWNLOAD.get(titled) == "_downloads/tables/roadmap.csv"  # type: ignore[arg-type]
    assert titled["refuri"] == BASE + "_downloads/tables/roadmap.csv"  # type: ignore[index]


def test_the_links_of_a_page_are_resolved_for_its_builder() -> None:
    doc = nodes.document(None, None)  # type: ignore[arg-type]
    (reference,), _ = role("neuron-data.json")
    other = nodes.reference("", "elsewhere", refuri="https://other.invalid/")
    paragraph = nodes.paragraph()
    paragraph += reference
    paragraph += other
    doc += paragraph
    links.resolve_download_links(app("html", "html"), doc, "guide/devices")
    assert reference["refuri"] == "../_downloads/neuron-data.json"  # type: ignore[index]
    assert other["refuri"] == "https://other.invalid/"
    links.resolve_download_links(app("text", "text"), doc, "guide/devices")
    assert reference["refuri"] == BASE + "_downloads/neuron-data.json"  # type: ignore[index]
