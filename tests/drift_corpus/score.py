"""Score the drift checker on the corpus: every page against its answer key, precision and recall.

``python tests/drift_corpus/score.py`` (``make drift-score``) audits each ``<page>`` of this folder
that has a ``<page>.keys.yaml`` (as ``make audit`` does, which gives the build's verdicts) and
compares every verdict with the key. A key is ``{line, text?, verdict, data?}``: the figure or cell
written on ``line`` (``text`` when the line holds several), ``agrees``, ``contradicts``,
``older`` (the figure of the Neuron release its sentence names, which the benchmark history holds:
right for that release, not a contradiction; scored as an agreement), ``unrecognised``, ``no-subject`` (about a device or instance the data does not hold: reported as
such, never compared) or ``unreadable`` (a table row with more or fewer cells than its header), and
the data path or derived expression it corresponds to. A verdict on a keyed
line that no key expects (or, on a ``complete`` page, on any line) is a false confirmation or a
false alarm. Prints one line per page and the totals; ``--json`` prints them as JSON.

The answer keys were written against the frozen copy of the data (``tests/fixtures/frozen-data/``)
with, as its benchmark history, the part of ``data/benchmarks/history/`` kept in ``history/`` (every
state; the configurations of albert-base-v2 on inf2.xlarge and trn1.2xlarge and of bert-base-cased on
inf2.xlarge, and their observations, rows as imported): the pages are audited against that
(:func:`keyed_data`), so a legitimate change to ``data/`` never moves the score.
"""

from __future__ import annotations

import atexit
import json
import re
import shutil
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "_ext"))
#: The frozen data the answer keys were written against (``FROZEN_DATA`` of ``tests/helpers/paths.py`` names the same folder).
FROZEN_DATA = HERE.parent / "fixtures" / "frozen-data"

from neuron_docs.drift.audit import AuditRow, audit_file  # noqa: E402
from neuron_docs.drift.verdicts import CHECKED_KINDS  # noqa: E402


@cache
def keyed_data() -> Path:
    """The frozen data (with its benchmark history, the one store of published figures), in a folder
    made once per process (and removed when it ends)."""
    folder = Path(tempfile.mkdtemp(prefix="drift-corpus-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    data = folder / "data"
    shutil.copytree(FROZEN_DATA, data)
    return data


@dataclass
class Score:
    page: str
    contradictions: int = 0
    caught: int = 0  # contradictions flagged with the right data value
    agreements: int = 0
    confirmed: int = 0  # agreements confirmed with the right data value
    false_confirmations: int = 0  # a verdict "agrees" where the key says otherwise
    false_alarms: int = 0  # a verdict "disagrees" where the key says agrees or unrecognised
    wrong_value: int = 0  # a contradiction flagged against another data value
    not_checked: int = 0  # figures about a subject the data lacks, and unreadable rows (keyed so)
    reported: int = 0  # of them, reported as such
    misses: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.caught / self.contradictions if self.contradictions else 1.0

    @property
    def precision(self) -> float:
        alarms = self.caught + self.false_alarms + self.wrong_value
        return self.caught / alarms if alarms else 1.0

    def add(self, other: Score) -> None:
        for name in ("contradictions", "caught", "agreements", "confirmed", "false_confirmations", "false_alarms",
                     "wrong_value", "not_checked", "reported"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses += other.misses


def _same(a: str, b: str) -> bool:
    return re.sub(r"\s+", "", a) == re.sub(r"\s+", "", b)


def score_page(page: Path, keys: dict) -> Score:  # type: ignore[type-arg]
    rows = audit_file(page, keyed_data())
    score = Score(page.name)
    used: set[int] = set()
    for key in keys["keys"]:
        on_line = [(i, r) for i, r in enumerate(rows) if r.line == key["line"] and i not in used
                   and ("text" not in key or _same(r.figure, str(key["text"])))]
        where = f"{page.name}:{key['line']} {key.get('text', '')}".strip()
        verdict, data = key["verdict"], key.get("data", "")
        match = next(((i, r) for i, r in on_line if data and _same(r.data, data)), None) or\
            (on_line[0] if on_line else None)
        if match is not None:
            used.add(match[0])
        row: AuditRow | None = match[1] if match else None
        if verdict in ("no-subject", "unreadable"):
            score.not_checked += 1
            wanted = "unknown" if verdict == "no-subject" else "table"
            if row is not None and row.kind == wanted:
                score.reported += 1
            else:
                score.misses.append(f"not reported as {verdict} {where}")
            continue
        if verdict == "older" and row is not None and row.kind != "history" and row.agrees:
            score.agreements += 1
            score.false_confirmations += 1  # confirmed as the current figure: the release is not read
            score.misses.append(f"confirmed as a current figure {where}: {row.data}")
            continue
        if row is not None and row.kind not in CHECKED_KINDS:
            score.misses.append(f"reported as not checked ({row.note}) {where}")
            if verdict == "contradicts":
                score.contradictions += 1
            elif verdict == "agrees":
                score.agreements += 1
            else:
                score.false_alarms += 1
            continue
        if verdict == "contradicts":
            score.contradictions += 1
            if row is None:
                score.misses.append(f"missed contradiction {where}")
            elif row.agrees:
                score.false_confirmations += 1
                score.misses.append(f"false confirmation {where}: {row.data}")
            elif _same(row.data, data):
                score.caught += 1
            else:
                score.wrong_value += 1
                score.misses.append(f"wrong data value {where}: {row.data}")
        elif verdict in ("agrees", "older"):
            score.agreements += 1
            if row is None:
                score.misses.append(f"unrecognised agreement {where}")
            elif not row.agrees:
                score.false_alarms += 1
                score.misses.append(f"false alarm {where}: {row.data}")
            elif _same(row.data, data):
                score.confirmed += 1
            else:
                score.false_confirmations += 1
                score.misses.append(f"confirmed against another value {where}: {row.data}")
        elif row is not None:
            if row.agrees:
                score.false_confirmations += 1
            else:
                score.false_alarms += 1
            score.misses.append(f"verdict on an unrecognised figure {where}: {row.data}")
    keyed_lines = {k["line"] for k in keys["keys"]}
    for i, row in enumerate(rows):
        if i in used or (not keys.get("complete", True) and row.line not in keyed_lines):
            continue
        if row.agrees and row.kind in CHECKED_KINDS:
            score.false_confirmations += 1
        else:
            score.false_alarms += 1
        score.misses.append(f"unkeyed verdict {page.name}:{row.line} {row.figure}: {row.data or row.note}")
    return score


def held_out(folder: Path = HERE) -> set[str]:
    """The pages whose keys were written by reading them before the checker was tuned on them
    (``held_out: true``): their score is the checker's on pages it has not seen."""
    out = set()
    for keys_file in sorted(folder.glob("*.keys.yaml")):
        keys = yaml.safe_load(keys_file.read_text(encoding="utf-8"))
        if keys.get("held_out"):
            out.add(keys["page"])
    return out


def score_corpus(folder: Path = HERE) -> tuple[list[Score], Score]:
    pages = []
    for keys_file in sorted(folder.glob("*.keys.yaml")):
        keys = yaml.safe_load(keys_file.read_text(encoding="utf-8"))
        pages.append(score_page(folder / keys["page"], keys))
    total = Score("overall")
    for page in pages:
        total.add(page)
    return pages, total


def held_out_total(pages: list[Score], folder: Path = HERE) -> Score:
    """The totals of the held-out pages alone."""
    names = held_out(folder)
    total = Score("held out")
    for page in pages:
        if page.page in names:
            total.add(page)
    return total


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    pages, total = score_corpus()
    unseen = held_out_total(pages)
    if "--json" in argv:
        print(json.dumps([{**asdict(s), "recall": s.recall, "precision": s.precision}
                          for s in [*pages, unseen, total]], indent=2))
        return 0
    print(f"{'page':26} {'contradictions':>14} {'caught':>6} {'recall':>7} {'precision':>9} "
          f"{'agreements':>10} {'confirmed':>9} {'false conf.':>11} {'false alarms':>12} {'wrong value':>11} "
          f"{'not checked':>11} {'reported':>8}")
    for s in [*pages, unseen, total]:
        print(f"{s.page:26} {s.contradictions:>14} {s.caught:>6} {s.recall:>7.0%} {s.precision:>9.0%} "
              f"{s.agreements:>10} {s.confirmed:>9} {s.false_confirmations:>11} {s.false_alarms:>12} {s.wrong_value:>11} "
              f"{s.not_checked:>11} {s.reported:>8}")
    for miss in total.misses:
        print(f"  {miss}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
