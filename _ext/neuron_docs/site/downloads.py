"""Downloads: every generated table as CSV, and the whole data set as one JSON file with its schema.

- Each table carrying ``table["neuron_csv"] = name`` is written to ``_downloads/tables/<name>.csv``
  (UTF-8, header row first, cell text as shown, note markers left out) while its page is written,
  and a "Download as CSV" link is put under it (two different contents under one name: a warning).
  Cells are neutralised against spreadsheet formula injection (OWASP): text beginning with ``=``,
  ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` (:func:`neutralised`), except
  genuine numbers such as ``-5`` or ``+3.2``, which stay numbers.
- On ``build-finished`` the data set is written to ``_downloads/neuron-data.json``, one record and
  one figure at a time (never whole in memory) yet byte for byte ``json.dumps(data_document(...),
  indent=1, ensure_ascii=False)``, and its JSON schema to ``_downloads/neuron-data.schema.json``.
  The schema is generated from the record models of :mod:`neuron_docs.data.schema`;
  :data:`SCHEMA_VERSION` is bumped in its major part when a change could break readers (a field
  removed, renamed or retyped) and in its minor part when fields or collections are added.

Only HTML builders get downloads. A file is rewritten only when its bytes change (else its mtime stays).
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from pydantic import BaseModel, TypeAdapter
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

from ..build_state import dataset, is_html, state
from ..dependencies import shows_every_page, uses
from ..render.expand import filled_doctree
from ..data import catalog as catalog_module
from ..data import schema as s
from ..data.matrix_loading import MATRIX_DIR
from ..data.matrix_schema import Revision
from ..data.values import Value, build_values
from ..directives.tables import build_table
from .data_dates import file_dates

if TYPE_CHECKING:
    from collections.abc import Mapping

    from sphinx.application import Sphinx

    from ..data import Catalog

logger = logging.getLogger(__name__)

SCHEMA_VERSION = "2.0"
TABLES_DIR = "_downloads/tables"
JSON_NAME = "_downloads/neuron-data.json"
SCHEMA_NAME = "_downloads/neuron-data.schema.json"
SCHEMA_ID = f"https://neuron-docs.invalid/schemas/neuron-data-{SCHEMA_VERSION.split('.')[0]}.schema.json"


# CSV ----------------------------------------------------------------------------------------------

def _cell_text(entry: nodes.Element) -> str:
    """The text of a cell as read, without footnote markers, visually hidden words or "since" dates."""
    parts: list[str] = []

    def walk(node: nodes.Node) -> None:
        if isinstance(node, nodes.Text):
            parts.append(node.astext())
        elif isinstance(node, nodes.Element):
            classes = node.get("classes", [])
            if isinstance(node, nodes.superscript) or {"neuron-visually-hidden", "neuron-since", "neuron-blank"} & set(classes):
                return
            if parts and isinstance(node, nodes.Body) and not parts[-1].endswith(" "):
                parts.append(" ")
            for child in node.children:
                walk(child)

    walk(entry)
    return " ".join("".join(parts).split())


#: What a spreadsheet may take for the start of a formula (OWASP's CSV injection guidance).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A plain number, signed or not, which a spreadsheet reads as a number and never as a formula.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def neutralised(cell: str) -> str:
    """``cell`` with a leading ``'`` if a spreadsheet could read it as a formula (``=HYPERLINK(...)``,
    ``@SUM(...)``, ``-1+1``); genuine numbers (``-5``, ``+3.2``) and other text are left alone."""
    if cell.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


#: A figure as the pages print it: ``$0.362/h``, ``9.007 ms``, ``76.92%``, ``536.718 inferences/s``, ``4``.
_QUANTITY = re.compile(r"(?P<usd>\$)?(?P<number>[+-]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))(?P<unit>%|/h| ?[A-Za-z][A-Za-z/]*)?")


def quantity(cell: str) -> tuple[float, str] | None:
    """``(number, unit)`` of a printed figure (``$0.362/h`` -> ``(0.362, "USD/h")``), else None."""
    match = _QUANTITY.fullmatch(cell)
    if match is None:
        return None
    unit = (match["unit"] or "").strip()
    if match["usd"]:
        unit = "USD" + unit if unit.startswith("/") or not unit else "?"
    return float(match["number"].replace(",", "")), unit


def _numeric_columns(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """Columns whose every filled cell is a figure in one unit become numbers, the unit in the header
    (``Price (USD/h)``, ``0.362``); other columns stay text."""
    header, rows = list(header), [list(row) for row in rows]
    for column in reversed(range(len(header))):  # from the right: a unit column goes in after its figures
        cells = [row[column] for row in rows if column < len(row) and row[column]]
        parsed = [quantity(cell) for cell in cells]
        units = {q[1] for q in parsed if q}
        if not cells or None in parsed or "?" in units:
            continue
        mixed = len(units) > 1  # figures in several units (a chart's panels): the unit in a column of its own
        unit = "" if mixed else units.pop()
        if unit and f"({unit}" not in header[column]:
            header[column] = f"{header[column]} ({unit})"
        if mixed:
            header.insert(column + 1, f"{header[column]} unit")
        for row in rows:
            found = quantity(row[column]) if column < len(row) and row[column] else None
            if found:
                number = found[0]
                row[column] = f"{number:g}" if number.is_integer() and abs(number) < 1e15 else repr(number)
            if mixed:
                row.insert(column + 1, found[1] if found else "")
    return header, rows


def _notes_of(row: nodes.row, notes: Mapping[str, str]) -> str:
    """The footnotes a row's markers point to, ``[1] text``, for the CSV's Notes column."""
    marks = [ref for ref in row.findall(nodes.reference) if "neuron-note-marker" in ref.get("classes", [])]
    return "; ".join(f"[{ref.astext()}] {notes[ref['refid']]}" for ref in marks if ref.get("refid") in notes)


def table_csv(table: nodes.table, notes: Mapping[str, str] | None = None) -> str:
    """A docutils table as CSV text: header row then body rows, every cell :func:`neutralised`;
    figures as numbers with their unit in the header, and the footnotes of a row in a Notes column."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if table.get("neuron_csv_rows"):  # the directive gave its data row by row (numbers, one per run)
        header, *rows = table["neuron_csv_rows"]
        header, rows = _numeric_columns(header, rows)
        writer.writerows([[neutralised(c) for c in r] for r in (header, *rows)])
        return out.getvalue()
    all_rows = list(table.findall(nodes.row))
    head = [_cell_text(entry) for entry in all_rows[0].findall(nodes.entry)] if all_rows else []
    body = [[_cell_text(entry) for entry in row.findall(nodes.entry)] for row in all_rows[1:]]
    row_notes = [_notes_of(row, notes or {}) for row in all_rows[1:]]
    head, body = _numeric_columns(head, body)
    if any(row_notes):
        head.append("Notes")
        body = [[*cells, note] for cells, note in zip(body, row_notes, strict=True)]
    writer.writerows([[neutralised(c) for c in r] for r in (head, *body)])
    return out.getvalue()


def csv_name(table: nodes.table, docname: str, index: int) -> str | None:
    """The download name of a generated table: its own, its id, or ``<page>-table-<n>``."""
    if "neuron-table" not in table.get("classes", []):
        return None
    return table.get("neuron_csv") or table.get("neuron_name_id") or nodes.make_id(f"{docname}-table-{index}")


def page_notes(doctree: nodes.document) -> dict[str, str]:
    """The text of every list item or paragraph with an id (a table's numbered notes), by id."""
    return {node_id: node.astext() for node in doctree.findall(nodes.list_item) for node_id in node["ids"]}


def _on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if not is_html(app):
        return
    written = state(app.env).csv_written
    target = Path(app.outdir, TABLES_DIR)
    page_uri = app.builder.get_target_uri(docname)
    notes = page_notes(doctree)
    for index, table in enumerate(list(doctree.findall(nodes.table)), start=1):
        name = csv_name(table, docname, index)
        if not name:
            continue
        content = table_csv(table, notes).encode("utf-8")
        digest = hashlib.sha256(content).hexdigest()
        if name in written and written[name][1] != digest:
            logger.warning("table download %r is written by %s and %s with different content", name,
                           written[name][0], docname, location=(docname, table.line),
                           type="neuron", subtype="download")
        written[name] = (docname, digest)
        target.mkdir(parents=True, exist_ok=True)
        path = target / f"{name}.csv"
        if not path.is_file() or path.stat().st_size != len(content) or path.read_bytes() != content:
            path.write_bytes(content)
        link = nodes.paragraph(classes=["neuron-download"])
        uri = relative_uri(page_uri, f"{TABLES_DIR}/{name}.csv")
        link += nodes.reference("", "Download this table as CSV", refuri=uri,
                                classes=["neuron-download-link"])
        link += nodes.Text(f" ({name}.csv)")
        table.parent.insert(table.parent.index(table) + 1, link)


# JSON ---------------------------------------------------------------------------------------------

def _collection_types() -> dict[str, type[s.Record]]:
    types: dict[str, type[s.Record]] = {}
    for spec in catalog_module.FILES:
        types.update(spec.collections)
        if spec.csv:
            types[spec.csv[0]] = spec.csv[1]
    return types


class MatrixDocument(BaseModel):
    """The support matrices in the JSON download: every revision as published, oldest first, and
    what the site derives from them (never typed)."""

    #: The revision the guideline prose of ``families.yaml`` describes.
    guidelines_as_of: dt.date | None = None
    #: The revision the site shows by default.
    latest: dt.date | None = None
    #: Per matrix of the latest revision: the latest revision that changed what it shows.
    last_update: dict[str, dt.date] = {}
    revisions: list[Revision] = []


def matrix_document(catalog: Catalog) -> MatrixDocument:
    latest = catalog.revision()
    return MatrixDocument(guidelines_as_of=catalog.header.guidelines_as_of if catalog.header else None,
                          latest=latest.date if latest else None,
                          last_update=catalog.history.last_update(latest) if latest else {},
                          revisions=catalog.history.revisions)


def newest_date(catalog: Catalog) -> str | None:
    """The newest date anywhere in the data (prices, sources, matrix updates), ISO formatted."""
    newest = max(file_dates(catalog).values(), default=None)
    return newest.isoformat() if newest else None


class _Members(NamedTuple):
    """A JSON object produced one member at a time: its ``(key, value)`` pairs, iterated once."""

    pairs: Iterable[tuple[str, Any]]


def _document(catalog: Catalog, values: Mapping[str, Value]) -> _Members:
    """The data set in file order, records and figures produced lazily (an iterator is a JSON array)."""
    collections = _Members((name, (record.model_dump(mode="json", exclude_none=True)
                                   for record in catalog.records.get(name, {}).values()))
                           for name in _collection_types())
    return _Members([
        ("$schema", SCHEMA_ID), ("schema_version", SCHEMA_VERSION), ("data_fingerprint", catalog.fingerprint),
        ("data_last_updated", newest_date(catalog)),
        ("matrix", matrix_document(catalog).model_dump(mode="json", exclude_none=True)
                   if catalog.history.revisions else None),
        ("collections", collections),
        ("values", _Members((path, _figure(values[path])) for path in sorted(values))),  # one at a time
    ])


def _built(value: Any) -> Any:
    """A value of :func:`_document` with its lazy parts built: plain JSON values."""
    if isinstance(value, _Members):
        return {key: _built(item) for key, item in value.pairs}
    if isinstance(value, Iterator):
        return [_built(item) for item in value]
    return value


#: Encodes as ``json.dumps(value, indent=1, ensure_ascii=False)`` does (made once, not per call).
_ENCODER = json.JSONEncoder(indent=1, ensure_ascii=False)


def _json_pieces(value: Any, depth: int = 0) -> Iterator[str]:
    """``json.dumps(value, indent=1, ensure_ascii=False)`` in pieces, for a value nested ``depth`` deep:
    a :class:`_Members` or an iterator member by member, anything else in one piece."""
    if not isinstance(value, _Members | Iterator):
        yield _ENCODER.encode(value).replace("\n", "\n" + " " * depth)
        return
    is_object = isinstance(value, _Members)
    opening, closing = "{}" if is_object else "[]"
    inner, first = "\n" + " " * (depth + 1), True
    for member in value.pairs if isinstance(value, _Members) else value:
        prefix = (opening if first else ",") + inner
        if is_object:
            key, member = member
            prefix += _ENCODER.encode(key) + ": "
        yield prefix
        yield from _json_pieces(member, depth + 1)
        first = False
    yield opening + closing if first else "\n" + " " * depth + closing  # empty: [] / {} as json.dumps


def data_document(catalog: Catalog, values: Mapping[str, Value] | None = None) -> dict[str, Any]:
    """The whole data set as plain JSON values, in file order (``values``: the build's figures)."""
    return _built(_document(catalog, values if values is not None else build_values(catalog)))


def _figure(value: Value) -> dict[str, Any]:
    item = {"number": value.number, "unit": value.unit, "label": value.label, "derived": value.derived}
    if value.source:
        item["source"] = value.source
    return item


def dataset_values(values: Mapping[str, Value]) -> dict[str, dict[str, Any]]:
    """Every figure by path, as plain JSON values."""
    return {path: _figure(value) for path, value in sorted(values.items())}


def json_schema() -> dict[str, Any]:
    """The JSON schema of :func:`data_document`, generated from the record models."""
    types = _collection_types()
    defs: dict[str, Any] = {}
    collection_props: dict[str, Any] = {}
    for name, model in types.items():
        schema = TypeAdapter(list[model]).json_schema(mode="serialization", ref_template="#/$defs/{model}")  # type: ignore[valid-type]
        defs.update(schema.pop("$defs", {}))
        schema["description"] = f"The records of {catalog_module.Catalog(Path()).file_of(name)}."
        collection_props[name] = schema
    matrix = TypeAdapter(MatrixDocument).json_schema(mode="serialization", ref_template="#/$defs/{model}")
    defs.update(matrix.pop("$defs", {}))
    defs["MatrixDocument"] = matrix
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Neuron model support & performance data",
        "description": ("Every record of the data set behind the Neuron support matrix, with every figure "
                        f"(typed or derived) by path. Schema version {SCHEMA_VERSION}: the major part changes "
                        "when a field is removed, renamed or retyped, the minor part when one is added."),
        "type": "object",
        "required": ["schema_version", "data_fingerprint", "collections", "values"],
        "additionalProperties": False,
        "properties": {
            "$schema": {"type": "string"},
            "schema_version": {"type": "string", "pattern": rf"^{SCHEMA_VERSION.split('.')[0]}\.\d+$"},
            "data_fingerprint": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                                 "description": "SHA-256 over the data files: equal fingerprints, equal data."},
            "data_last_updated": {"type": ["string", "null"], "format": "date",
                                  "description": "The newest date in the data (prices, sources, matrix)."},
            "matrix": {"anyOf": [{"$ref": "#/$defs/MatrixDocument"}, {"type": "null"}],
                       "description": "Every published revision of the support matrices (the latest is what the "
                                      "site shows), with each matrix's derived last update."},
            "collections": {"type": "object", "properties": collection_props,
                            "required": list(collection_props), "additionalProperties": False},
            "values": {
                "type": "object",
                "description": "Every figure by path kind:id:field, as the pages print it.",
                "additionalProperties": {
                    "type": "object", "required": ["number", "unit", "label", "derived"],
                    "additionalProperties": False,
                    "properties": {"number": {"type": "number"}, "unit": {"type": "string"},
                                   "label": {"type": "string"}, "derived": {"type": "boolean"},
                                   "source": {"type": "string"}},
                },
            },
        },
        "$defs": dict(sorted(defs.items())),
    }


def _write_if_changed(path: Path, pieces: Iterable[str]) -> None:
    """Write ``pieces`` as UTF-8 to a temporary file beside ``path``; it replaces ``path`` only if
    the bytes differ (same size, then same SHA-256), so an unchanged file keeps its mtime."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    digest, size = hashlib.sha256(), 0
    try:
        with temporary.open("wb") as out:
            for piece in pieces:
                data = piece.encode("utf-8")
                digest.update(data)
                size += out.write(data)
        if path.is_file() and path.stat().st_size == size:
            with path.open("rb") as handle:  # read in chunks
                if hashlib.file_digest(handle, "sha256").digest() == digest.digest():
                    return
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


def _dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def data_pieces(catalog: Catalog, values: Mapping[str, Value]) -> Iterator[str]:
    """The text of ``_dumps(data_document(catalog, values))`` in pieces, one record or figure at a time."""
    yield from _json_pieces(_document(catalog, values))
    yield "\n"


def _on_build_finished(app: Sphinx, exception: BaseException | None) -> None:
    state(app.env).csv_written.clear()
    if exception is not None or not is_html(app):
        return
    data = dataset(app.env)
    _write_if_changed(Path(app.outdir, JSON_NAME), data_pieces(data.catalog, data.values))
    _write_if_changed(Path(app.outdir, SCHEMA_NAME), [_dumps(json_schema())])


class DataDownloads(SphinxDirective):
    """The collections of the JSON download: name, data file, record count and record type."""

    def run(self) -> list[nodes.Node]:
        data = dataset(self.env)
        uses(self, *catalog_module.FILE_NAMES, MATRIX_DIR)
        rows = [[nodes.literal(name, name), data.catalog.file_of(name), str(len(data.catalog.records.get(name, {}))),
                 nodes.literal(model.__name__, model.__name__)]
                for name, model in _collection_types().items()]
        intro = nodes.paragraph()
        intro += nodes.Text(f"Schema version {SCHEMA_VERSION}; data last updated "
                            f"{newest_date(data.catalog) or 'unknown'}.")
        table = build_table(["Collection", "Data file", "Records", "Record type ($defs)"], rows,
                            classes=["neuron-download-collections"], name="download-collections")
        return [intro, table]


class csv_index(nodes.General, nodes.Element):  # noqa: N801 - docutils node naming
    """Where the index of every CSV download goes; filled when the page is resolved."""


INDEX_NAME = "csv-index"


class CsvIndex(SphinxDirective):
    """A table of every CSV the build writes: its file, the table's title and the page it is on."""

    def run(self) -> list[nodes.Node]:
        shows_every_page(self.env)  # lists the tables of every page: written again when one is
        return [csv_index()]


def _index_rows(app: Sphinx, fromdoc: str) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for docname in sorted(app.env.found_docs):
        doctree = filled_doctree(app, docname)
        for index, table in enumerate(doctree.findall(nodes.table), start=1):
            name = csv_name(table, docname, index)
            if not name:
                continue
            title = next(iter(table.findall(nodes.title)), None)
            heading = title.astext() if title else ""
            if not heading:
                parent = table.parent
                while parent is not None and not isinstance(parent, nodes.section):
                    parent = parent.parent
                heading = parent[0].astext() if parent is not None and parent.children else ""
            uri = relative_uri(app.builder.get_target_uri(fromdoc), f"{TABLES_DIR}/{name}.csv")
            page = relative_uri(app.builder.get_target_uri(fromdoc), app.builder.get_target_uri(docname))
            doc_title = app.env.titles[docname].astext() if docname in app.env.titles else docname
            rows.append([nodes.reference("", f"{name}.csv", refuri=uri), heading,
                         nodes.reference("", doc_title, refuri=page)])
    own = relative_uri(app.builder.get_target_uri(fromdoc), f"{TABLES_DIR}/{INDEX_NAME}.csv")
    rows.append([nodes.reference("", f"{INDEX_NAME}.csv", refuri=own), "This index",
                 nodes.reference("", app.env.titles[fromdoc].astext(), refuri="")])
    return rows


def _fill_index(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(csv_index)):
        if not is_html(app):
            node.parent.remove(node)
            continue
        table = build_table(["CSV file", "Table", "Page"], _index_rows(app, docname),
                            classes=["neuron-csv-index", "neuron-sortable"], name=INDEX_NAME)
        table["neuron_csv"] = INDEX_NAME
        node.replace_self(table)


def setup_downloads(app: Sphinx) -> None:
    app.add_node(csv_index)
    app.add_directive_to_domain("neuron", "csv-index", CsvIndex)
    app.connect("doctree-resolved", _fill_index, priority=390)
    app.add_directive_to_domain("neuron", "data-downloads", DataDownloads)
    # Before preview marking (priority 500), so the CSVs hold the data, not "changed in this preview".
    app.connect("doctree-resolved", _on_doctree_resolved, priority=400)
    app.connect("build-finished", _on_build_finished)
