"""The book's front matter: the landing page's cards as a list, every toctree caption a part.

The landing page's cards (sphinx-design's ``grid-item-card``) are boxes side by side on a web page;
the LaTeX and text writers print their titles, texts and links one after the other, run together.
For every builder but the web ones a grid of cards becomes a bullet list, an item per card: its
title (linked to the card's page where the builder links), then its text.

Sphinx's LaTeX builder names the contents page after the first toctree caption ("CHOOSING A
DEVICE") and prints no caption: the chapters of every toctree follow each other. In the PDF the
contents page is "Contents" (``conf.py``'s ``latex_elements``) and each captioned toctree of the
root page starts a part (``\\part{<caption>}``) before the first page it includes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from .html_only import writes_html_as_is

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def _classes(node: nodes.Node) -> list[str]:
    return node.get("classes", []) if isinstance(node, nodes.Element) else []


def _card_item(card: nodes.Element) -> nodes.list_item:
    title = next((n for n in card.findall(nodes.Element) if "sd-card-title" in _classes(n)), None)
    texts = [n for n in card.findall(nodes.paragraph) if "sd-card-text" in _classes(n)]
    links = [n for n in card.findall(nodes.reference) if title is None or n not in list(title.findall(nodes.reference))]
    heading = nodes.paragraph()
    words = title.astext().strip() if title is not None else ""
    if links and (links[-1].get("refuri") or links[-1].get("refid")):
        link = links[-1]
        attributes = {key: link[key] for key in ("refuri", "refid", "internal") if key in link}
        heading += nodes.strong("", "", nodes.reference(words, words, **attributes))
    else:
        heading += nodes.strong(words, words)
    item = nodes.list_item("", heading)
    for text in texts:
        item += nodes.paragraph("", "", *[child.deepcopy() for child in text.children])
    return item


def cards_as_lists(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Outside the web builders, each grid of cards (or a card alone) becomes a bullet list."""
    if writes_html_as_is(app):
        return
    for grid in list(doctree.findall(nodes.container)):
        if grid.parent is None or "sd-container-fluid" not in _classes(grid):
            continue
        cards = [n for n in grid.findall(nodes.container) if "sd-card" in _classes(n)]
        if cards:
            grid.replace_self(nodes.bullet_list("", *[_card_item(card) for card in cards], classes=["neuron-cards"]))


def toctree_parts(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """In the PDF, a part per captioned toctree of the root page, before the first page it includes."""
    if getattr(app.builder, "format", "") != "latex" or docname != app.config.root_doc:
        return
    captions = [(toctree["caption"], str(toctree["includefiles"][0]))
                for toctree in app.env.get_doctree(docname).findall(addnodes.toctree)
                if toctree.get("caption") and toctree.get("includefiles")]
    starts = {node["docname"]: node for node in doctree.findall(addnodes.start_of_file)}
    for caption, first in captions:
        start = starts.get(first)
        if start is None or start.parent is None:
            continue
        text = caption.replace("\\", "").replace("{", "").replace("}", "")
        for char in "&%$#_":
            text = text.replace(char, "\\" + char)
        start.parent.insert(start.parent.index(start), nodes.raw("", f"\\part{{{text}}}\n", format="latex"))
