"""Free text in the data files checked like a page: errata explanations, rationales, notes (no Sphinx).

An erratum's explanation ("the G5 costs almost four times as much"), a family's rationale, the
``why`` of another source's value (:mod:`.sources`) and any ``note`` are prose the site prints: a
figure in them may drift from the data as a page's may. :func:`data_passages` reads a YAML file of
``data/`` with the line of every such text, and the sibling fields naming what it is about (an
erratum's quote and expression, a record's id and name) as its heading; :func:`check_data_file`
hands each to the drift engine and gives every verdict at its line of the data file. Only what
disagrees with the data is a problem there (a data file has no role to write a figure with); what
an erratum quotes of its source (``quote``) is left out: it is wrong on purpose, and so are the
figures of the quote its explanation discusses ("75% is how much less Inferentia costs").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import TYPE_CHECKING, cast

import yaml

from .verdicts import CHECKED_KINDS, Verdict

if TYPE_CHECKING:
    from .engine import DriftEngine

#: Fields whose text is prose the site prints.
FREE_TEXT_FIELDS = frozenset({"explanation", "rationale", "why", "note", "notes", "description", "support_text"})
#: Sibling fields that say what a text is about (its heading for the checker).
_ABOUT_FIELDS = ("id", "name", "family", "device", "instance", "model", "quote", "expression", "title", "label")
#: The data files holding free text the checker reads.
DATA_TEXT_FILES = ("errata.yaml", "families.yaml", "devices.yaml", "instances.yaml", "issues.yaml")


@dataclass(frozen=True)
class DataPassage:
    """A free text of a data file: its text, heading, and where it is in the file."""

    path: Path
    field: str
    text: str
    heading: str
    #: Offsets in the file of the node's first and last character.
    start: int
    end: int
    #: The line (1-based) of the node's first character.
    line: int
    #: What the record quotes of its source (an erratum's ``quote``): its figures, discussed in the
    #: text, are the source's and are not checked against the data.
    quoted: str = ""

    def line_of(self, raw: str, said: str) -> int:
        """The line of the file where ``said`` (a figure or phrase of the text) is written: a folded
        text breaks its words over lines anywhere."""
        words = said.split()
        if words:
            written = re.compile(r"(?<![\w.])" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)")
            match = written.search(raw, self.start, self.end)
            if match is not None:
                return raw.count("\n", 0, match.start()) + 1
        return self.line


@dataclass
class _Collection:
    """A mapping or list being read from the event stream, with a mapping's scalar fields so far and
    its free texts."""

    mapping: bool
    #: False inside a key that is not a name (refused by the loader): nothing there is prose.
    read: bool
    scalars: dict[str, str] = dataclass_field(default_factory=dict)
    #: (index in the output, field, the text's event) of each free text of this mapping.
    texts: list[tuple[int, str, yaml.ScalarEvent]] = dataclass_field(default_factory=list)
    key: str | None = None
    expecting_key: bool = True

    def inner(self, mapping: bool) -> _Collection:
        """The collection that starts here: a value (a list's item or a mapping's value) or a key."""
        read = self.read
        if self.mapping:
            if self.expecting_key:  # a key that is a mapping or a list: its value follows
                self.key, read = None, False
            self.expecting_key = not self.expecting_key
        return _Collection(mapping, read)


def data_passages(path: Path, raw: str | None = None) -> list[DataPassage]:
    """Every free text of a YAML data file, in file order. Read from libyaml's event stream, so no
    node tree of the file is held; a mapping's texts are made at its end, when all its fields (the
    heading) are known."""
    raw = path.read_text(encoding="utf-8") if raw is None else raw
    out: list[DataPassage | None] = []
    stack = [_Collection(mapping=False, read=True)]  # the document
    for event in yaml.parse(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        top = stack[-1]
        if isinstance(event, yaml.ScalarEvent) and top.mapping:
            if top.expecting_key:
                top.key = event.value
            elif top.key is not None:
                top.scalars[top.key] = event.value
                if top.read and top.key in FREE_TEXT_FIELDS:
                    top.texts.append((len(out), top.key, event))
                    out.append(None)
            top.expecting_key = not top.expecting_key
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            stack.append(top.inner(isinstance(event, yaml.MappingStartEvent)))
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            stack.pop()
            heading = " ".join(v for k, v in top.scalars.items() if k in _ABOUT_FIELDS)
            for at, name, text in top.texts:
                start, end = cast("yaml.Mark", text.start_mark), cast("yaml.Mark", text.end_mark)  # libyaml marks every event
                out[at] = DataPassage(path, name, text.value, heading, start.index, end.index, start.line + 1,
                                      top.scalars.get("quote", ""))
    return [passage for passage in out if passage is not None]


def check_data_file(engine: DriftEngine, path: Path) -> list[tuple[int, Verdict]]:
    """(line, verdict) for every figure or comparative of the file's free text that the data holds,
    agreeing or not."""
    raw = path.read_text(encoding="utf-8")
    out: list[tuple[int, Verdict]] = []
    for passage in data_passages(path, raw):
        has_digits, _ = engine.worth_checking(passage.text)
        if not has_digits and not re.search(r"\btimes\b|\btwice\b", passage.text):
            continue
        for verdict in engine.check(passage.text, passage.heading):
            if passage.quoted and " ".join(verdict.text.split()) in " ".join(passage.quoted.split()):
                continue  # the source's own figure, which the text discusses ("75% is how much less ...")
            if verdict.kind in CHECKED_KINDS or verdict.kind == "unknown":
                out.append((passage.line_of(raw, verdict.text), verdict))
    return out


def data_problems(engine: DriftEngine, data_dir: Path) -> list[tuple[Path, int, Verdict]]:
    """The free texts of ``data/`` that contradict the data: (file, line, verdict). A file the loader
    refused (not UTF-8, not YAML: reported at the file when the data was loaded) has no text to read."""
    out: list[tuple[Path, int, Verdict]] = []
    for name in DATA_TEXT_FILES:
        path = data_dir / name
        if name not in engine.catalog.failed_files and path.is_file():
            out.extend((path, line, v) for line, v in check_data_file(engine, path)
                       if v.kind in CHECKED_KINDS and not v.agrees)
    return out
