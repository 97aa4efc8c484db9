"""A hand-written page read as the build reads it, from its source text alone (no Sphinx, no docutils).

``make audit`` must give the build's verdicts, so it must see what the build's doctree holds:
:func:`read_page` splits reStructuredText, Markdown or plain text into :class:`~.passages.Passage`
blocks (paragraphs and list items, each with the heading above it) and :class:`Table` blocks (the
rows of ``list-table`` and ``csv-table`` directives). Inline markup is replaced by what the page
shows (``:ref:`Inferentia <x>``` -> ``Inferentia``), and text the build does not check (inline
literals, code roles, the output of ``neuron`` roles, bare URLs) is kept for context but left out
of the spans a figure or claim may come from. Code blocks, comments and non-prose directives are
skipped.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .passages import Passage
from .tables import TextCell

_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>$])\1{2,}\s*$")
_MD_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:\-]+)::\s*(.*)$")
_COMMENT = re.compile(r"^(\s*)\.\.(?:\s|$)")
_OPTION = re.compile(r"^\s*:[\w\-]+:")
_BULLET = re.compile(r"^\s*(?:[-*+]|#\.|\d+\.)\s+")
#: Directives whose content is prose the build checks (admonitions, containers).
_PROSE = {"note", "warning", "tip", "important", "hint", "caution", "attention", "danger", "error", "seealso",
          "admonition", "topic", "sidebar", "container", "rubric", "only", "versionadded", "versionchanged",
          "deprecated", "tab-item", "card", "dropdown", "grid-item-card"}
_LITERAL_ROLES = {"code", "literal", "file", "command", "func", "meth", "class", "mod", "samp", "kbd", "envvar",
                  "option", "program", "math", "attr", "obj", "data", "exc", "const", "py:func", "py:class",
                  "py:meth", "abbr"}
_INLINE = re.compile(
    r"(?P<role>:(?P<name>[\w:.\-]+):`(?P<body>[^`]*)`)"
    r"|(?P<myst>\{(?P<mname>[\w:.\-]+)\}`(?P<mbody>[^`]*)`)"
    r"|(?P<literal>``(?P<lbody>[^`]*?)``)"
    r"|(?P<link>`(?P<ltext>[^`<]*?)\s*(?:<[^`>]*>)?`__?)"
    r"|(?P<title>`(?P<tbody>[^`\n]*)`)"
    r"|(?P<subst>\|[\w\- ]+\|)"
    r"|(?P<url>https?://\S+)")


@dataclass
class Table:
    """A table of the page: rows of cells, the line of each cell, the header rows and the heading."""

    rows: list[list[TextCell]]
    lines: list[list[int]]
    header_rows: int
    heading: str


@dataclass
class Page:
    passages: list[Passage] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


#: What a ``neuron:value`` role shows, given its body (``None``: not known, left blank).
Shown = Callable[[str], str | None]


def inline(text: str, shown_value: Shown | None = None) -> tuple[str, list[tuple[int, int]]]:
    """What ``text`` shows, and the spans of it written by hand (where figures and claims count);
    with ``shown_value``, a ``neuron:value`` role shows its figure as the build prints it."""
    out: list[str] = []
    allowed: list[tuple[int, int]] = []
    length = 0
    last = 0

    def put(piece: str, checkable: bool) -> None:
        nonlocal length
        if checkable and piece:
            allowed.append((length, length + len(piece)))
        out.append(piece)
        length += len(piece)

    for match in _INLINE.finditer(text):
        put(text[last:match.start()], True)
        last = match.end()
        shown, checkable = match.group(0), False
        name = (match.group("name") or match.group("mname") or "").lower()
        body = match.group("body") if match.group("role") else match.group("mbody")
        if body is not None:
            title = re.match(r"^(.*?)\s*<[^>]*>\s*$", body, re.S)
            shown = (title.group(1) if title else body).lstrip("~!")
            checkable = not name.startswith("neuron:") and name not in _LITERAL_ROLES
            if name.startswith("neuron:"):
                value = None
                if shown_value is not None and name in ("neuron:value", "neuron:compare"):
                    value = shown_value(body if name == "neuron:value" else f"compare:{body}")
                shown = value if value is not None else " " * len(shown)
        elif match.group("literal"):
            shown = match.group("lbody")
        elif match.group("link"):
            shown, checkable = match.group("ltext"), True
        elif match.group("title"):
            shown, checkable = match.group("tbody"), True
        missing = match.group(0).count("\n") - shown.count("\n")
        put(shown + "\n" * max(0, missing), checkable)
    put(text[last:], True)
    return "".join(out), allowed


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """The first line after ``start`` that is not blank and not indented deeper than ``indent``."""
    end = start
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    return end


def _options(lines: list[str], start: int, end: int) -> tuple[dict[str, str], int]:
    options: dict[str, str] = {}
    i = start
    while i < end and (_OPTION.match(lines[i]) or not lines[i].strip()):
        if lines[i].strip():
            name, _, value = lines[i].strip()[1:].partition(":")
            options[name] = value.strip()
        elif options:
            i += 1
            break
        i += 1
    return options, i


def _cell(text: str) -> TextCell:
    shown, allowed = inline(text)
    return TextCell(shown, tuple(allowed))


def _list_table(lines: list[str], start: int, end: int, heading: str, options: dict[str, str]) -> Table:
    rows: list[list[TextCell]] = []
    cell_lines: list[list[int]] = []
    raw: list[list[list[str]]] = []
    for number in range(start, end):
        line = lines[number]
        row = re.match(r"^\s*\*\s+-\s?(.*)$", line)
        cell = re.match(r"^\s*-\s?(.*)$", line)
        if row:
            raw.append([[row.group(1)]])
            cell_lines.append([number + 1])
        elif cell and raw:
            raw[-1].append([cell.group(1)])
            cell_lines[-1].append(number + 1)
        elif raw and line.strip():
            if not raw[-1][-1][-1].strip():  # no text yet (its marker's line is blank): it starts here
                cell_lines[-1][-1] = number + 1
            raw[-1][-1].append(line.strip())
    for row_parts in raw:
        rows.append([_cell("\n".join(p for p in parts if p.strip())) for parts in row_parts])
    return Table(rows, cell_lines, int(options.get("header-rows", "0") or 0), heading)


def _csv_table(lines: list[str], start: int, end: int, heading: str, options: dict[str, str]) -> Table:
    rows: list[list[TextCell]] = []
    cell_lines: list[list[int]] = []
    header_rows = int(options.get("header-rows", "0") or 0)
    if "header" in options:
        header = next(csv.reader([options["header"]], skipinitialspace=True))
        rows.append([_cell(c) for c in header])
        cell_lines.append([start] * len(header))
        header_rows += 1
    for number in range(start, end):
        if lines[number].strip():
            cells = next(csv.reader([lines[number].strip()], skipinitialspace=True))
            rows.append([_cell(c) for c in cells])
            cell_lines.append([number + 1] * len(cells))
    return Table(rows, cell_lines, header_rows, heading)


_GRID_BORDER = re.compile(r"^\s*\+(?:[-=]+\+)+\s*$")
_SIMPLE_BORDER = re.compile(r"^\s*=+(?:\s+=+)+\s*$")
_ITEM = re.compile(r"^(?:[-*+]|#\.|\d+\.)\s+")


def _cell_text(parts: list[str]) -> TextCell:
    """A cell from its source lines: bullets dropped, blank lines left out, one paragraph line a line."""
    return _cell("\n".join(_ITEM.sub("", p.strip()) for p in parts if p.strip()))


def _grid_table(lines: list[str], start: int, heading: str) -> tuple[Table, int]:
    """A grid table at ``start`` (its top border) and the line after it. Columns are cut at the
    top border's ``+``; a row ends at the next border (``+===+`` ends the header)."""
    border = lines[start]
    cuts = [i for i, ch in enumerate(border) if ch == "+"]
    rows: list[list[TextCell]] = []
    cell_lines: list[list[int]] = []
    header_rows = 0
    parts: list[list[str]] = [[] for _ in cuts[1:]]
    firsts: list[int | None] = [None for _ in cuts[1:]]
    end = start + 1
    while end < len(lines) and lines[end].strip().startswith(("|", "+")):
        line = lines[end]
        if _GRID_BORDER.match(line):
            if any(any(p.strip() for p in cell) for cell in parts):
                rows.append([_cell_text(cell) for cell in parts])
                cell_lines.append([(f if f is not None else end) + 1 for f in firsts])
            if "=" in line:
                header_rows = len(rows)
            parts = [[] for _ in cuts[1:]]
            firsts = [None for _ in cuts[1:]]
        else:
            for k, (a, b) in enumerate(zip(cuts, cuts[1:], strict=False)):
                piece = line[a + 1:b] if len(line) > a else ""
                parts[k].append(piece)
                if piece.strip() and firsts[k] is None:
                    firsts[k] = end
        end += 1
    return Table(rows, cell_lines, header_rows, heading), end


def _simple_table(lines: list[str], start: int, heading: str) -> tuple[Table, int]:
    """A simple table at ``start`` (its top border) and the line after it: columns are the runs of
    ``=``; a line whose first column is blank continues the row above; a second border ends the header
    when a third follows."""
    border = lines[start]
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
    rows: list[list[list[str]]] = []
    cell_lines: list[list[int]] = []
    borders: list[int] = []
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if _SIMPLE_BORDER.match(line):
            borders.append(len(rows))
            end += 1
            if end >= len(lines) or not lines[end].strip():
                break
            continue
        if not line.strip():
            end += 1
            continue
        pieces = [line[a:b if k < len(spans) - 1 else None] for k, (a, b) in enumerate(spans)]
        if rows and not pieces[0].strip():
            for k, piece in enumerate(pieces):
                rows[-1][k].append(piece)
        else:
            rows.append([[piece] for piece in pieces])
            cell_lines.append([end + 1] * len(spans))
        end += 1
    header_rows = borders[0] if len(borders) > 1 else 0
    return Table([[_cell_text(c) for c in row] for row in rows], cell_lines, header_rows, heading), end


_PIPE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
#: A field of a field list (":Latency: 9 ms").
_FIELD = re.compile(r"^\s*:((?:[^:`\\]|\\.|`[^`]*`)+):(?:\s+(.*))?$")
_PLAIN_HEADING = re.compile(r"^\s*[A-Z][\w\-. ()]{0,60}:\s*$")


def _pipe_table(lines: list[str], start: int, heading: str) -> tuple[Table, int]:
    """A Markdown pipe table at ``start`` (its header row; a separator row follows) and the line after it."""

    def cells(line: str) -> list[str]:
        return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]

    rows = [[_cell(c) for c in cells(lines[start])]]
    cell_lines = [[start + 1] * len(rows[0])]
    end = start + 2
    while end < len(lines) and lines[end].strip().startswith("|"):
        rows.append([_cell(c) for c in cells(lines[end])])
        cell_lines.append([end + 1] * len(rows[-1]))
        end += 1
    return Table(rows, cell_lines, 1, heading), end


def _fenced(lines: list[str], start: int) -> tuple[str, dict[str, str], int, int]:
    """A MyST fence at ``start``: its directive name (empty for code), options, first content line and
    closing line."""
    stripped = lines[start].strip()
    fence = re.match(r"^(`{3,}|~{3,})", stripped)
    mark = fence.group(1) if fence else stripped[:3]
    name = re.match(r"^[`~]{3,}\s*\{([\w:\-]+)\}", stripped)
    close = start + 1
    while close < len(lines) and not lines[close].strip().startswith(mark):
        close += 1
    body = start + 1
    options: dict[str, str] = {}
    while body < close and _OPTION.match(lines[body]):
        key, _, value = lines[body].strip()[1:].partition(":")
        options[key] = value.strip()
        body += 1
    return (name.group(1).lower() if name else ""), options, body, close


def _read_fence(lines: list[str], i: int, page: Page, heading: str) -> int:
    """The MyST fence opening at line ``i``: a table it holds into ``page``; the line to read next (the
    fence's content when it is prose, read on without the fences; else the line after the fence)."""
    name, options, body, close = _fenced(lines, i)
    if name == "list-table":
        page.tables.append(_list_table(lines, body, close, heading, options))
    elif name == "csv-table" and "file" not in options and "url" not in options:
        page.tables.append(_csv_table(lines, body, close, heading, options))
    elif name in _PROSE:  # its content is prose: read on, without the fences
        lines[close:close + 1] = [""]
        return body
    return close + 1


def _read_directive(lines: list[str], i: int, page: Page, heading: str, name: str) -> int:
    """The directive ``name`` (``""``: a comment) at line ``i``: a table it holds into ``page``; the line to
    read next (its content, dedented, when it is prose; else the line after its block)."""
    indent = _indent(lines[i])
    end = _block_end(lines, i + 1, indent)
    options, body = _options(lines, i + 1, end)
    if name == "list-table":
        page.tables.append(_list_table(lines, body, end, heading, options))
    elif name == "csv-table" and "file" not in options and "url" not in options:
        page.tables.append(_csv_table(lines, body, end, heading, options))
    if name in _PROSE:
        lines[body:end] = [ln[indent:] if ln.strip() else ln for ln in lines[body:end]]
        return body
    return end


def read_page(text: str, *, plain: bool = False, markdown: bool = False,
              shown_value: Shown | None = None) -> Page:
    """The passages and tables of a page's text, as the build sees them; in ``plain`` text a line of
    its own ending with a colon ("Results for Inferentia:") is a heading too. In reStructuredText a
    definition is read under its term and a field's body under its name, as the build reads them."""
    lines = text.splitlines()
    page = Page()
    heading = ""
    block: list[str] = []
    start = 0
    label = ""  # the term or field name a definition or field body is read under

    def flush() -> None:
        nonlocal label
        if block:
            shown, allowed = inline("\n".join(block), shown_value)
            page.passages.append(Passage(shown, start + 1, f"{heading}\n{label}" if label else heading,
                                         tuple(allowed)))
        block.clear()
        label = ""

    rst = not markdown and not plain
    i = 0
    while i < len(lines):
        line, stripped = lines[i], lines[i].strip()
        if stripped.startswith("```") or re.match(r"^~~~+\s*\{", stripped):  # MyST fences, code alike
            flush()
            i = _read_fence(lines, i, page, heading)
            continue
        if not block and stripped.startswith("|") and i + 1 < len(lines) and _PIPE_SEPARATOR.match(lines[i + 1]):
            table, i = _pipe_table(lines, i, heading)
            page.tables.append(table)
            continue
        field_item = _FIELD.match(line) if rst else None
        if field_item:
            flush()
            shown_name = inline(field_item.group(1))[0].strip()
            if field_item.group(2):
                start, label = i, shown_name
                block.append(" " * field_item.start(2) + field_item.group(2))
            i += 1
            continue
        if rst and len(block) == 1 and not label and stripped and _indent(line) > _indent(block[0])\
                and not _BULLET.match(block[0]):
            term = inline(block[0])[0].strip()  # a definition list: the term, then its definition
            flush()
            start, label = i, term
        if not block and (_GRID_BORDER.match(line) or _SIMPLE_BORDER.match(line)) and not (
                i + 1 < len(lines) and not lines[i + 1].strip()):
            flush()
            table, i = (_grid_table if _GRID_BORDER.match(line) else _simple_table)(lines, i, heading)
            page.tables.append(table)
            continue
        directive = _DIRECTIVE.match(line)
        if directive or _COMMENT.match(line):
            flush()
            i = _read_directive(lines, i, page, heading, directive.group(2).lower() if directive else "")
            continue
        if not stripped:
            flush()
        elif _RST_UNDERLINE.match(stripped) and len(block) == 1:
            heading = block[0].strip()
            block.clear()
        elif _RST_UNDERLINE.match(stripped) and not block:
            pass  # an overline
        elif plain and not block and _PLAIN_HEADING.match(line):
            heading = stripped.rstrip(":")
        elif _MD_HEADING.match(stripped):
            flush()
            heading = _MD_HEADING.match(stripped).group(1)  # type: ignore[union-attr]
        else:
            if block and _BULLET.match(line):
                flush()
            if not block:
                start = i
            block.append(line)
            if stripped.endswith("::") and not stripped.startswith(".."):  # a literal block follows
                flush()
                i = _block_end(lines, i + 1, _indent(line))
                continue
        i += 1
    flush()
    return page
