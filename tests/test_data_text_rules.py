"""Free text in the data files checked like a page (``drift/data_text.py``), on YAML written in the
test and a stand-in engine (it records what it is asked and answers the verdicts the test gives):
the line of a figure in a folded text, the texts of a file, which texts are checked (a digit, or
"times"/"twice"), a figure the erratum quotes of its source left out, which verdicts count, and the
build's problems by file and line (a refused file skipped, a file gone placed at its text's line).
No catalog loaded, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.files.free_text import DATA_TEXT_FILES, FreeText
from neuron_docs.drift.data_text import DataPassage, _verdicts, check_data_file, data_passages, data_problems
from neuron_docs.drift.engine import DriftEngine
from neuron_docs.drift.verdicts import Verdict


def verdict(text: str, kind: str = "figure", agrees: bool = False) -> Verdict:
    """An engine's verdict, its kind made at run time (as one read back from a cache is)."""
    return Verdict(0, text, "".join(list(kind)), "run:x:latency", "5 ms", agrees, "" if agrees else "it is 5 ms", "")


@dataclass
class Engine:
    """The engine's part the data's texts use: what is worth checking, the check, the catalog."""

    answers: dict[str, list[Verdict]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    catalog: Catalog = field(default_factory=lambda: Catalog(data_dir=Path(".")))

    worth_checking = staticmethod(DriftEngine.worth_checking)

    def check(self, text: str, heading: str = "") -> list[Verdict]:
        self.calls.append((text, heading))
        return self.answers.get(text, [])


def engine(answers: dict[str, list[Verdict]] | None = None) -> Any:
    return Engine(answers or {})


def free(text: str, start: int = 0, end: int | None = None, line: int = 1, quoted: str = "",
         heading: str = "") -> FreeText:
    return FreeText("explanation", text, heading, start, len(text) if end is None else end, line, quoted)


# --- the line of a figure ------------------------------------------------------------------------------

RAW = "id: x\nexplanation: >\n  it takes 12\n  ms, then 112 ms\n  and 1.12 ms.\nnote: 12 ms\n"
#      0     6              21


def test_the_line_of_a_figure_in_a_folded_text() -> None:
    passage = DataPassage(Path("errata.yaml"), free("", RAW.index("it"), RAW.index("note"), line=3))
    assert passage.line_of(RAW, "12 ms") == 3
    assert passage.line_of(RAW, "112 ms") == 4
    assert passage.line_of(RAW, "1.12 ms") == 5
    assert passage.line_of(RAW, "then  112\nms") == 4
    # Only inside another number ("1.12 ms."), not at all, or nothing said: the text's own line.
    assert passage.line_of(RAW, "12 ms.") == 3
    assert passage.line_of(RAW, "7 ms") == 3
    assert passage.line_of(RAW, "") == 3
    assert passage.line_of(RAW, "   ") == 3


def test_a_line_after_a_blank_first_line() -> None:
    raw = "\n" + RAW
    passage = DataPassage(Path("errata.yaml"), free("", raw.index("it"), raw.index("note"), line=4))
    assert passage.line_of(raw, "12 ms") == 4
    assert passage.line_of(raw, "112 ms") == 5


def test_a_figure_is_looked_for_in_its_text_only() -> None:
    note = RAW.index("note: ") + 6
    passage = DataPassage(Path("errata.yaml"), free("", note, len(RAW), line=6))
    assert passage.line_of(RAW, "12 ms") == 6
    first = DataPassage(Path("errata.yaml"), free("", 0, RAW.index("112"), line=9))
    assert first.line_of(RAW, "112 ms") == 9
    assert first.line_of(RAW, "12 ms") == 3


# --- the texts of a file ---------------------------------------------------------------------------------

YAML = """errata:
- id: beit-cost
  quote: Inferentia costs 75% less
  explanation: >
    75% is how much less Inferentia costs; the
    data gives 12 ms.
- id: plain
  explanation: nothing to check here
- id: many
  note: twice as fast
"""


def test_the_free_texts_of_a_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "errata.yaml"
    path.write_text(YAML, encoding="utf-8")
    passages = data_passages(path)
    assert [(p.path, p.text.text.strip(), p.text.line, p.text.quoted) for p in passages] == [
        (path, "75% is how much less Inferentia costs; the data gives 12 ms.", 4, "Inferentia costs 75% less"),
        (path, "nothing to check here", 8, ""), (path, "twice as fast", 10, "")]
    assert [p.text.text for p in data_passages(path, "errata:\n- id: y\n  note: 5 ms\n")] == ["5 ms"]


def test_which_texts_are_checked_and_which_verdicts_count(tmp_path: Path) -> None:
    path = tmp_path / "errata.yaml"
    path.write_text(YAML, encoding="utf-8")
    quoted, own = verdict("75%"), verdict("12\nms")
    checker = engine({"75% is how much less Inferentia costs; the data gives 12 ms.\n": [quoted, own],
                      "twice as fast": [verdict("twice", "comparison", agrees=True), verdict("x", "unknown"),
                                        verdict("y", "table"), verdict("z", "history")]})
    found = check_data_file(checker, path)
    # The text without a digit or a multiple is not checked; the quote's own figure is left out.
    assert [call[0] for call in checker.calls] == ["75% is how much less Inferentia costs; the data gives 12 ms.\n",
                                                   "twice as fast"]
    assert [call[1] for call in checker.calls] == ["beit-cost Inferentia costs 75% less", "many"]
    assert found == [(6, own), (10, verdict("twice", "comparison", agrees=True)), (10, verdict("x", "unknown")),
                     (10, verdict("z", "history"))]


@pytest.mark.parametrize(("text", "checked"), [
    ("it runs 3 times faster", True), ("twice", True), ("TWICE", False), ("sometimes", False), ("3x", True),
    ("nothing", False), ("times", True), ("twicefold", False),
])
def test_a_text_is_checked_for_a_digit_or_a_multiple_in_words(tmp_path: Path, text: str, checked: bool) -> None:
    path = tmp_path / "errata.yaml"
    path.write_text(f"errata:\n- id: a\n  note: {text}\n", encoding="utf-8")
    checker = engine()
    check_data_file(checker, path)
    assert bool(checker.calls) is checked


def test_a_quoted_figure_whatever_its_spacing() -> None:
    passage = DataPassage(Path("errata.yaml"), free("it is 75  % less", quoted="Inferentia costs 75 %\n less"))
    checker = engine({"it is 75  % less": [verdict("75 %\n less"), verdict("75 % more")]})
    assert [v.text for _, v in _verdicts(checker, [passage])] == ["75 % more"]


# --- the build's problems --------------------------------------------------------------------------------

def test_the_problems_of_the_builds_data_by_file_and_line(tmp_path: Path) -> None:
    raw = "errata:\n- id: a\n  explanation: >\n    it takes\n    12 ms\n"
    (tmp_path / "errata.yaml").write_text(raw, encoding="utf-8")
    text = free("it takes 12 ms\n", raw.index("it takes"), len(raw), line=4)
    wrong, right = verdict("12 ms"), verdict("12 ms", agrees=True)
    checker = engine({"it takes 12 ms\n": [wrong, right, verdict("12 ms", "unknown"), verdict("9", "table")]})
    checker.catalog.free_texts = {"errata.yaml": [text], "devices.yaml": [free("no figure")]}
    assert data_problems(checker, tmp_path) == [(tmp_path / "errata.yaml", 5, wrong)]
    assert checker.calls == [("it takes 12 ms\n", "")]


def test_a_file_that_was_refused_or_is_gone(tmp_path: Path) -> None:
    text = free("it takes 12 ms", 0, 14, line=7)
    checker = engine({"it takes 12 ms": [verdict("12 ms")]})
    checker.catalog.free_texts = {"errata.yaml": [text], "instances.yaml": [text]}
    checker.catalog.failed_files = {"errata.yaml"}
    # errata.yaml refused: none of its texts; instances.yaml gone since: its text's own line.
    assert data_problems(checker, tmp_path) == [(tmp_path / "instances.yaml", 7, verdict("12 ms"))]
    assert len(checker.calls) == 1
    # A file that cannot be read as text: the same.
    (tmp_path / "instances.yaml").write_bytes(b"\xff\xfe\x00bad")
    assert data_problems(checker, tmp_path) == [(tmp_path / "instances.yaml", 7, verdict("12 ms"))]


def test_every_file_with_texts_in_order(tmp_path: Path) -> None:
    checker = engine({"it takes 12 ms": [verdict("12 ms")]})
    checker.catalog.free_texts = {name: [free("it takes 12 ms", 0, 14, line=i + 1)]
                                  for i, name in enumerate(reversed(DATA_TEXT_FILES))}
    found = data_problems(checker, tmp_path)
    assert [(p.name, line) for p, line, _ in found] == [
        (name, len(DATA_TEXT_FILES) - i) for i, name in enumerate(DATA_TEXT_FILES)]
    checker.catalog.free_texts = {"notes.yaml": [free("it takes 12 ms")]}
    assert data_problems(checker, tmp_path) == []


def test_a_passage_is_frozen() -> None:
    passage = DataPassage(Path("errata.yaml"), free("it takes 12 ms"))
    assert hash(passage) == hash(DataPassage(Path("errata.yaml"), free("it takes 12 ms")))
    with pytest.raises(FrozenInstanceError):
        passage.path = Path("x")  # type: ignore[misc]

