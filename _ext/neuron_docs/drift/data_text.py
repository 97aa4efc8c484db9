"""Free text in the data files checked like a page: errata explanations, rationales, notes (no Sphinx).

An erratum's explanation ("the G5 costs almost four times as much"), a family's rationale, the
``why`` of another source's value (:mod:`.sources`) and any ``note`` are prose the site prints: a
figure in them may drift from the data as a page's may. The data layer gathers each such text as it
reads a file, with its line and the sibling fields naming what it is about (an erratum's quote and
expression, a record's id and name) as its heading (:mod:`..data.files.free_text`);
:func:`data_problems` hands the build's to the drift engine, :func:`check_data_file` any file's
(``make audit``), and each verdict is given at its line of the data file. Only what disagrees with
the data is a problem there (a data file has no role to write a figure with); what an erratum quotes
of its source (``quote``) is left out: it is wrong on purpose, and so are the figures of the quote
its explanation discusses ("75% is how much less Inferentia costs").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.files.free_text import DATA_TEXT_FILES, FreeText
from ..data.files.yaml_reader import read_yaml
from .verdicts import CHECKED_KINDS, Verdict

if TYPE_CHECKING:
    from .engine import DriftEngine


@dataclass(frozen=True)
class DataPassage:
    """A free text of a data file (:class:`~..data.files.free_text.FreeText`) and the file it is in."""

    path: Path
    text: FreeText

    def line_of(self, raw: str, said: str) -> int:
        """The line of the file where ``said`` (a figure or phrase of the text) is written: a folded
        text breaks its words over lines anywhere."""
        words = said.split()
        if words:
            written = re.compile(r"(?<![\w.])" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)")
            match = written.search(raw, self.text.start, self.text.end)
            if match is not None:
                return raw.count("\n", 0, match.start()) + 1
        return self.text.line


def data_passages(path: Path, raw: str | None = None) -> list[DataPassage]:
    """Every free text of a YAML data file, in file order."""
    texts: list[FreeText] = []
    read_yaml(path.read_text(encoding="utf-8") if raw is None else raw, path.name, texts)
    return [DataPassage(path, text) for text in texts]


def _verdicts(engine: DriftEngine, passages: Iterable[DataPassage]) -> Iterable[tuple[DataPassage, Verdict]]:
    """Each figure or comparative of the passages' texts that the data holds, agreeing or not."""
    for passage in passages:
        text = passage.text
        has_digits, _ = engine.worth_checking(text.text)
        if not has_digits and not re.search(r"\btimes\b|\btwice\b", text.text):
            continue
        for verdict in engine.check(text.text, text.heading):
            if text.quoted and " ".join(verdict.text.split()) in " ".join(text.quoted.split()):
                continue  # the source's own figure, which the text discusses ("75% is how much less ...")
            if verdict.kind in CHECKED_KINDS or verdict.kind == "unknown":
                yield passage, verdict


def check_data_file(engine: DriftEngine, path: Path) -> list[tuple[int, Verdict]]:
    """(line, verdict) for every figure or comparative of the file's free text that the data holds,
    agreeing or not."""
    raw = path.read_text(encoding="utf-8")
    return [(passage.line_of(raw, verdict.text), verdict) for passage, verdict in _verdicts(engine, data_passages(path, raw))]


def data_problems(engine: DriftEngine, data_dir: Path) -> list[tuple[Path, int, Verdict]]:
    """The free texts of the build's data that contradict it: (file, line, verdict). The texts are
    those the data layer read (a file it refused has none); a file is read again only to place a
    problem on the line of its figure."""
    out: list[tuple[Path, int, Verdict]] = []
    for name in DATA_TEXT_FILES:
        if name in engine.catalog.failed_files:
            continue
        path = data_dir / name
        passages = (DataPassage(path, text) for text in engine.catalog.free_texts.get(name, ()))
        problems = [(p, v) for p, v in _verdicts(engine, passages) if v.kind in CHECKED_KINDS and not v.agrees]
        if problems:
            raw = _text_of(path)
            out.extend((path, passage.line_of(raw, verdict.text) if raw else passage.text.line, verdict)
                       for passage, verdict in problems)
    return out


def _text_of(path: Path) -> str:
    """The file's text, or nothing when it can no longer be read (its texts' own lines are used)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
