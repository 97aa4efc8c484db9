"""The rows of a generated table written straight to HTML, byte for byte as Sphinx's HTML writer would.

A generated table can hold thousands of rows of a few kinds of node (text, paragraphs, spans,
links, abbreviations, superscripts). The HTML writer visits each through its generic dispatch; here
a ``tbody`` marked :data:`..node_data.ROWS_HTML` by :mod:`.expand` is written in one pass that knows only
those kinds, following docutils' and Sphinx's HTML5 translators rule for rule (``starttag``'s
attribute order and extra-id spans, Sphinx's ``row-even``/``row-odd``, the newline after a
paragraph that is not alone in its cell, links' ``reference internal``/``external`` and title).
Any other node, or an attribute those rules do not cover, and the whole ``tbody`` is left to the
writer: the result is always what the writer would produce (a test compares the two on every
generated table of the site).

A row may also come written already (:mod:`.light_rows`): a ``nodes.row`` whose cells are HTML
text in its :data:`..node_data.CELLS_HTML`, made with the same rules when the table was rendered; only its
``<tr>`` (ids and parity) is written here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes

from ..node_data import CELLS_HTML, FIGURE_EXPRESSION, ROWS_HTML

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

_ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", '"': "&quot;", ">": "&gt;", "@": "&#64;"})
_WHITESPACE = re.compile("[\n\r\t\v\f]")
#: Classes the HTML5 writer turns into a tag of their own (``<code>``, ``<kbd>``...): not handled here.
_TAG_CLASSES = frozenset({"code", "kbd", "dfn", "samp", "var", "bdi", "del", "ins", "mark", "small", "b", "i",
                          "q", "s", "u"})
#: Attributes a visitor of these nodes reads beyond ids and classes, where the rules below do not
#: follow it: such a node is left to the writer. (Other attributes, ours or Sphinx's bookkeeping,
#: never reach the HTML.)
_UNHANDLED = {"entry": ("morerows", "morecols"), "row": (), "reference": ("target", "rel"),
              "abbreviation": (FIGURE_EXPRESSION.key,)}  # a figure: .directives.roles writes its expression
_TAGS = {"paragraph": "p", "inline": "span", "superscript": "sup", "strong": "strong", "emphasis": "em",
         "abbreviation": "abbr", "reference": "a", "entry": "td", "row": "tr"}


class Unsupported(Exception):
    """A node the rules here do not cover: the writer writes the ``tbody``."""


def attribute_html(text: str) -> str:
    """``text`` as the value of an HTML attribute, as the writer writes it."""
    return _WHITESPACE.sub(" ", text).translate(_ESCAPE)


def text_html(text: str) -> str:
    """``text`` (a text node's) as HTML, as the writer writes it."""
    return text.translate(_ESCAPE)


def _starttag(node: nodes.Element, tagname: str, attributes: dict[str, str], last: tuple[str, ...] = ()) -> str:
    """docutils' ``HTMLTranslator.starttag`` for a non-empty element with suffix ``''``: the node's
    classes, then ``last`` (the ``class`` a visitor passes), each once."""
    classes: list[str] = []
    for cls in [*node["classes"], *last]:
        if cls.startswith("language-"):
            raise Unsupported(cls)
        if cls.strip() and cls not in classes:
            classes.append(cls)
    atts = dict(attributes)
    if classes:
        atts["class"] = " ".join(classes)
    suffix = ""
    ids = node["ids"]
    if ids:
        atts["id"] = ids[0]
        suffix = "".join(f'<span id="{i}"></span>' for i in ids[1:])
    parts = [tagname, *(f'{name}="{attribute_html(value)}"' for name, value in sorted(atts.items()))]
    return f"<{' '.join(parts)}>{suffix}"


def _write(node: nodes.Node, out: list[str]) -> None:
    if isinstance(node, nodes.Text):
        out.append(text_html(node.astext()))
        return
    name = node.tagname
    if name not in _TAGS or not isinstance(node, nodes.Element) or any(k in node for k in _UNHANDLED.get(name, ())):
        raise Unsupported(name)
    end = f"</{_TAGS[name]}>"
    if name == "reference":
        kind = "internal" if node.get("internal") or "refuri" not in node else "external"
        atts = {"href": (node["refuri"] or "#") if "refuri" in node else "#" + node["refid"]}
        if "reftitle" in node:
            atts["title"] = node["reftitle"]
        if not isinstance(node.parent, nodes.TextElement):
            raise Unsupported("reference outside text")
        out.append(_starttag(node, "a", atts, ("reference", kind)))
    elif name == "abbreviation":
        explanation = node.get("explanation", "")
        out.append(_starttag(node, "abbr", {"title": explanation} if explanation else {}))
    elif name == "inline":
        if _TAG_CLASSES.intersection(node["classes"]) or isinstance(node.parent, nodes.literal | nodes.literal_block):
            raise Unsupported("inline with a tag class")
        out.append(_starttag(node, "span", {}))
    elif name == "paragraph":
        out.append(_starttag(node, "p", {}))
        if not (isinstance(node.parent, nodes.list_item | nodes.entry) and len(node.parent) == 1):
            end += "\n"
    else:
        out.append(_starttag(node, _TAGS[name], {}))
    for child in node.children:
        _write(child, out)
    out.append(end)


def entry_html(entry: nodes.entry) -> str | None:
    """The HTML of one cell (``<td>...</td>`` and its newline), or ``None`` when a node is not one
    the rules here cover."""
    if any(k in entry for k in _UNHANDLED["entry"]):
        return None
    out = [_starttag(entry, "td", {})]
    try:
        for child in entry.children:
            _write(child, out)
    except Unsupported:
        return None
    out.append("</td>\n")
    return "".join(out)


def _row_html(row: nodes.Node, parity: str, out: list[str]) -> bool:
    """Append the HTML of ``row``; False when a node is not one the rules here cover."""
    if not isinstance(row, nodes.row):
        return False
    out.append(_starttag(row, "tr", {}, (parity,)))  # Sphinx's visit_row adds the parity class
    if CELLS_HTML.on(row):
        out.append(CELLS_HTML.read(row))
    else:
        for entry in row.children:
            cell = entry_html(entry) if isinstance(entry, nodes.entry) else None
            if cell is None:
                return False
            out.append(cell)
    out.append("</tr>\n")
    return True


def _parity(row_index: int) -> str:
    return "row-even" if row_index % 2 == 0 else "row-odd"


def rows_html(tbody: nodes.tbody, row_index: int) -> tuple[str, int] | None:
    """The HTML of ``tbody``'s rows (after ``row_index`` rows of its table), and the new row index;
    ``None`` when a node is not one the rules here cover."""
    tgroup = tbody.parent
    if any(getattr(tgroup, "stubs", ())):
        return None
    out: list[str] = []
    for row in tbody.children:
        row_index += 1
        if not _row_html(row, _parity(row_index), out):
            return None
    return "".join(out), row_index


def _visit_tbody(self: HTML5Translator, node: nodes.Element) -> None:
    indices: list[int] = getattr(self, "_table_row_indices", [])
    written = rows_html(node, indices[-1]) if ROWS_HTML.get(node) and indices else None
    if written is None:
        if indices and any(CELLS_HTML.on(row) for row in node.children):
            _rows_one_by_one(self, node)
        type(self).visit_tbody(self, node)
        return
    html, indices[-1] = written
    self.body.append(self.starttag(node, "tbody"))
    self.body.append(html)
    self.body.append("</tbody>\n")
    raise nodes.SkipNode


def _rows_one_by_one(self: HTML5Translator, tbody: nodes.Element) -> None:
    """A ``tbody`` with rows written already and a row the rules here do not cover: that row is
    left to the writer, the others written here."""
    self.body.append(self.starttag(tbody, "tbody"))
    for row in tbody.children:
        out: list[str] = []
        if CELLS_HTML.on(row) and _row_html(row, _parity(self._table_row_indices[-1] + 1), out):
            self._table_row_indices[-1] += 1
            self.body.extend(out)
        else:
            row.walkabout(self)
    self.body.append("</tbody>\n")
    raise nodes.SkipNode


def _depart_tbody(self: HTML5Translator, node: nodes.Element) -> None:
    type(self).depart_tbody(self, node)


def setup_html_rows(app: Sphinx) -> None:
    handlers: Any = (_visit_tbody, _depart_tbody)
    app.add_node(nodes.tbody, override=True, html=handlers)
