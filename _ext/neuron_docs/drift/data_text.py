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
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from ..data.files.yaml_reader import compose_tree
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


def _walk(node: yaml.Node, path: Path, out: list[DataPassage]) -> None:
    if isinstance(node, yaml.MappingNode):
        scalars = {k.value: str(v.value) for k, v in node.value
                   if isinstance(k, yaml.ScalarNode) and isinstance(v, yaml.ScalarNode)}
        about = " ".join(v for k, v in scalars.items() if k in _ABOUT_FIELDS)
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value in FREE_TEXT_FIELDS and isinstance(value, yaml.ScalarNode):
                out.append(DataPassage(path, key.value, str(value.value), about, value.start_mark.index,
                                       value.end_mark.index, value.start_mark.line + 1, scalars.get("quote", "")))
            else:
                _walk(value, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _walk(item, path, out)


def data_passages(path: Path, raw: str | None = None) -> list[DataPassage]:
    """Every free text of a YAML data file, in file order."""
    raw = path.read_text(encoding="utf-8") if raw is None else raw
    root = compose_tree(raw)
    out: list[DataPassage] = []
    if root is not None:
        _walk(root, path, out)
    return out


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
