"""What a generated node carries from one wing to another: every attribute of ours on a docutils node.

A directive, a renderer or a handler of one wing writes an attribute on a node (a table, a row, a
reference, the page's document) that another wing reads later in the build. Each such attribute is
one :class:`Channel` here, named once, typed, and documented with who writes it and who reads it;
no other module spells an attribute's key (``tests/test_node_data.py`` fails on a raw
``"neuron_..."`` key anywhere else in the extension).

The module sits in the wings contract (``pyproject.toml``) just below ``state/``, the lowest wing
that writes a channel (``state.domain``: generated references, the anchors of objects), so that
every wing that writes or reads one imports it downward. It imports nothing of the extension.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, cast

if TYPE_CHECKING:
    from docutils import nodes


@dataclass(frozen=True)
class Channel[T]:
    """An attribute ``key`` of a node, holding a ``T``: written by one wing, read by another."""

    key: str

    def set(self, node: nodes.Element, value: T) -> None:
        node[self.key] = value

    def get(self, node: nodes.Element) -> T | None:
        """The value, or ``None`` when the node does not carry it."""
        return cast("T | None", node.get(self.key))

    def get_or[D](self, node: nodes.Element, default: D) -> T | D:
        """The value, or ``default`` when the node does not carry it."""
        return cast("T | D", node.get(self.key, default))

    def read(self, node: nodes.Element) -> T:
        """The value, which the node must carry (a ``KeyError`` if not)."""
        return cast("T", node[self.key])

    def on(self, node: nodes.Element) -> bool:
        """Whether the node carries the attribute (whatever its value)."""
        return self.key in node.attributes

    def pop[D](self, node: nodes.Element, default: D) -> T | D:
        """The value, taken off the node (``default`` when it does not carry it)."""
        return cast("T | D", node.attributes.pop(self.key, default))

    def attribute(self, value: T) -> dict[str, Any]:
        """The attribute as a keyword argument of a node's constructor (``**channel.attribute(v)``)."""
        return {self.key: value}


# Tables and their CSV downloads ------------------------------------------------------------------

#: The name of a table's CSV download (``<name>.csv``). Written by ``render.table_model`` (a table
#: built from one model: the directives', the device overview's, the index of CSV files) and
#: ``directives.matrix_table``; read by ``site.downloads.table_files`` (a table without it is named by
#: :data:`TABLE_NAME_ID`).
CSV_NAME: Channel[str] = Channel("neuron_csv")

class CsvFigure(NamedTuple):
    """A CSV cell made from a figure: the words printed, and the number and unit they were printed from
    (the number as rounded for the page; the unit as the CSV's header names it: ``USD/h``, ``ms``,
    ``%``, ``""`` for a count), so that the CSV never parses the words back."""

    words: str
    number: float
    unit: str


#: A table's CSV given row by row (header first), made from the same model as its cells rather than
#: read back from them: every generated table carries it (``tests/test_table_csv.py``). A cell is its
#: words, or a :class:`CsvFigure` when it prints a figure. Written by ``render.table_model``
#: (:class:`~neuron_docs.render.table_model.TableModel`: the cells' words and figures, or its own rows,
#: one per run) and ``directives.matrix_table``; read by ``site.downloads.table_csv``.
type CsvRows = Sequence[Sequence[str | CsvFigure]]
CSV_ROWS: Channel[CsvRows] = Channel("neuron_csv_rows")

#: A named table's own id (``:name:``), never an object's place. Written by ``render.tables``
#: (``build_table``); read by ``site.downloads.table_files`` (the CSV's name),
#: ``site.advisor_blocks`` (which table is the advisor's) and ``state.domain`` (an alias's carrier).
TABLE_NAME_ID: Channel[str] = Channel("neuron_name_id")

#: The anchor of the object an element (a section, a row) is the place of: the element keeps that id
#: should another element of the page have it. Written by ``directives.base`` (hosted sections),
#: ``directives.specs`` (instance rows) and ``state.domain`` (alias labels); read by ``site.ids``.
OBJECT_ANCHOR: Channel[str] = Channel("neuron_object_anchor")

#: The devices whose latest support matrix a table (or its placeholder) shows. Written by
#: ``directives.matrix`` (the placeholder) and ``directives.matrix_table`` (the table); read by
#: ``site.device_checks`` (the matrices each device page shows).
MATRIX_DEVICES: Channel[list[str]] = Channel("neuron_matrix_devices")

#: The data key a matrix cell shows (``support/<matrix>/<family>/<key>``, ``fit/<matrix>/<family>``).
#: Written by ``directives.matrix_table``; read (and moved onto the badge) by ``preview.marks``,
#: which marks the cells a preview changes.
PREVIEW_KEY: Channel[str] = Channel("neuron_key")

#: The rows of a written table body are written in one pass (:mod:`.render.html_rows`). Written by
#: ``render.expand`` (HTML builders); read by ``render.html_rows``.
ROWS_HTML: Channel[bool] = Channel("neuron_rows_html")

#: A row whose cells' HTML is written already (``<td>...</td>`` each). Written by
#: ``render.light_rows``; read by ``render.html_rows`` (the HTML writer) and ``site.latex_tables``
#: (which leaves such tables whole).
CELLS_HTML: Channel[str] = Channel("neuron_cells_html")


# Figures and references in prose and tables -----------------------------------------------------

#: The data expression a figure (an ``abbreviation``) shows. Written by ``directives.roles``; read by
#: ``directives.roles`` (the HTML visitor's ``data-neuron-figure``), ``preview.marks`` (the values a
#: preview changes) and ``render.html_rows`` (which leaves such a node to the writer).
FIGURE_EXPRESSION: Channel[str] = Channel("neuron_expression")

#: The number format of that expression (``| <format>``; ``None``: the data's own). Written by
#: ``directives.roles``; read by the tests that check each figure against the data.
FIGURE_FORMAT: Channel[str | None] = Channel("neuron_format")

#: A cross-reference made by the extension, not written by hand: left as text when its target is
#: described nowhere. Written by ``state.domain`` (``xref``); read by ``state.domain`` (the
#: ``missing-reference`` handler) and ``render.expand`` (resolving generated references).
GENERATED_REFERENCE: Channel[bool] = Channel("neuron_generated")

#: A node standing for a record set aside (``<collection>/<id>``): the page shows that record's
#: "Data problem" box. Written by ``directives.roles`` and ``state.domain``; read by ``render.expand``.
SET_ASIDE: Channel[str] = Channel("neuron_set_aside")

#: The path of a data file a download link points at. Written and read by ``site.downloads.links``
#: (the role's reference, resolved when the page is written).
DOWNLOAD: Channel[str] = Channel("neuron_download")

#: The object type of the list of places a page hosts (``state.hosted``: written and read there).
HOSTED: Channel[str] = Channel("neuron_hosted")

#: The heading a prose block of the page is under. Written and read (taken off) by ``checks.drift``.
DRIFT_HEADING: Channel[str] = Channel("neuron_heading")


# The page (the document node) -------------------------------------------------------------------

#: The page's generated content is in it: its new ids are to be made unique. Written by
#: ``render.expand``; read by ``site.ids``.
FILLED: Channel[bool] = Channel("neuron_filled")

#: The page holds the advisor's data: it loads the advisor's script. Written and read by
#: ``directives.advisor``.
ADVISOR_DATA: Channel[bool] = Channel("neuron_advisor_data")

#: Every channel, for the test that no other module spells a key.
CHANNELS: tuple[Channel[Any], ...] = (
    CSV_NAME, CSV_ROWS, TABLE_NAME_ID, OBJECT_ANCHOR, MATRIX_DEVICES, PREVIEW_KEY, ROWS_HTML, CELLS_HTML,
    FIGURE_EXPRESSION, FIGURE_FORMAT, GENERATED_REFERENCE, SET_ASIDE, DOWNLOAD, HOSTED, DRIFT_HEADING, FILLED,
    ADVISOR_DATA,
)
