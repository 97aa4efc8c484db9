"""Reading built pages: a page parsed (BeautifulSoup over lxml, or lxml alone for the checks of
every page), its ids, the text of its cells."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag


def soup_of(path: Path) -> BeautifulSoup:
    """The HTML page at ``path`` parsed (BeautifulSoup with lxml's parser)."""
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def tree_of(path: Path) -> Any:
    """The HTML page at ``path`` parsed by lxml alone (an ``lxml.html`` element, queried with XPath, or lxml's
    ``find_class``): several times faster than :func:`soup_of`."""
    from lxml import html as lxml_html  # type: ignore[import-untyped]

    return lxml_html.document_fromstring(path.read_text(encoding="utf-8"))


def text_of(element: Tag) -> str:
    """The text of ``element`` as a reader sees it: its words, one space between each."""
    return " ".join(element.get_text(" ").split())


def row_texts(row: Tag) -> list[str]:
    """The text of each data cell (``td``) of a table row, its own cells only (not a nested table's)."""
    return [td.get_text(" ", strip=True) for td in row.find_all("td", recursive=False)]
