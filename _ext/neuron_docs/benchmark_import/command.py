"""Import the published benchmark tables into ``data/``: ``python -m neuron_docs.benchmark_import SRC``.

``make import-benchmarks SRC=...`` runs :func:`main`. A published CSV or a folder of them is read by
:func:`.tables.import_published` and folded into the benchmark history, the one store of published
figures, as a partial state dated ``--as-of`` (:func:`.states.import_snapshot`: it withdraws only
configurations last seen in the files it holds), and, when that state is the latest, the layouts of
the tables it read and their prices are written with it (:func:`.export.data_texts`); importing the
same files twice changes nothing. A configuration keeps its id, so an updated measurement is a
changed figure on the same id in ``make matrix-diff``. A folder of published states
(``<date>-<commit>/``) is folded in state by state (:func:`import_history`, :func:`.states.import_states`;
``--rebuild``: into an empty history). Every problem is printed, located by file, line and column;
with a ``--source`` that ``sources.yaml`` does not hold, nothing is written.
No Sphinx here.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

from ..data.catalog import HISTORY_FILES
from ..data.checking.validation import load_catalog
from ..data.files.atomic import DataLocked, data_lock, write_files
from .export import data_texts
from .read import SOURCE_ID, ImportResult, Problem
from .states import (
    STATE_NAME, folder_files, history_texts, import_snapshot, import_states, placed_tables, report, validate_texts,
)
from .tables import import_published

def main(argv: list[str] | None = None) -> int:
    """Import ``SRC`` into the data directory; print every problem; exit 1 when any is an error."""
    parser = argparse.ArgumentParser(prog="python -m neuron_docs.benchmark_import",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, help="a published CSV, a folder of them (inf1/, inf2/, trn1/), or a folder "
                                               "of published states named <date>-<commit>/ (the history)")
    parser.add_argument("--data", type=Path, default=Path("data"), help="the data directory (default: data)")
    parser.add_argument("--source", default=SOURCE_ID, help=f"source id of the tables (default: {SOURCE_ID})")
    parser.add_argument("--as-of", help="date the prices held (default: the date of the source in sources.yaml)")
    parser.add_argument("--region", help="AWS region of the prices, when the source says it")
    parser.add_argument("--term", help="reserved-instance term of the prices, when the source says it")
    parser.add_argument("--rebuild", action="store_true",
                        help="a folder of states: fold every state into an empty history (the history's states "
                             "that the folder lacks are dropped) instead of adding those the history lacks")
    args = parser.parse_args(argv)
    if not args.src.exists():
        print(f"{args.src}: no such file or folder; expected a published CSV or a folder of them", file=sys.stderr)
        return 2
    # One writer at a time, from reading the data to writing it (a second import is refused), and an
    # interrupted earlier write finished or undone before anything is read (files.atomic).
    try:
        with data_lock(args.data):
            return _import(args)
    except DataLocked as exc:
        print(exc, file=sys.stderr)
        return 75


def _import(args: argparse.Namespace) -> int:
    catalog = load_catalog(args.data)
    source = catalog.sources.get(args.source)
    # Every row written names the source: with an unknown one the data layer would refuse them, and the
    # states, once in the history, are not imported again (with the right source): nothing is written.
    unknown = None if source else Problem("sources.yaml", None, "id", f"unknown source {args.source!r}; expected "
                                          "a source of data/sources.yaml (add it, with its license)")
    if args.src.is_dir() and any(p.is_dir() and STATE_NAME.match(p.name) for p in args.src.iterdir()):
        if unknown:
            print(unknown)
            print("nothing written")
            return 1
        return import_history(args.src, args.data, list(catalog.instances), list(catalog.frameworks),
                              source=args.source, rebuild=args.rebuild)
    as_of = args.as_of or (source.date.isoformat() if source and source.date else None)
    result = import_published(args.src, catalog.instances, catalog.frameworks, source=args.source, as_of=as_of,
                              region=args.region, term=args.term)
    if unknown:
        result.problems.append(unknown)
    named = {m.name for m in catalog.published_models.values()}
    paths = {t.id: t.path for t in result.tables}
    for model in sorted({(paths[r.table], r.model) for r in [*result.inference_runs, *result.training_runs]
                         if r.model not in named}):
        result.problems.append(Problem(model[0], None, "Model", f"model {model[1]!r} has no family; add it to "
                                       "benchmarks/published/models.yaml to link it to its family", "warning"))
    return _fold_snapshot(args.src, args.data, result, as_of, write=unknown is None)


def _fold_snapshot(src: Path, data: Path, result: ImportResult, as_of: str | None, write: bool) -> int:
    """Fold what :func:`import_published` read into the history as a partial state dated ``as_of``;
    write the history, and the tables' layouts and prices when that state is the latest (``write``
    false: nothing, the problems printed only)."""
    problems = list(result.problems)
    written: list[Path] = []
    summary = None
    if as_of is None:
        problems.append(Problem(str(src), None, "", "no date for the snapshot; expected --as-of YYYY-MM-DD or a "
                                                    "source with a date in sources.yaml"))
    elif write and (result.inference_runs or result.training_runs or result.prices):
        files = (folder_files(src) if src.is_dir()
                 else {next(t.path for t in result.tables): hashlib.sha256(src.read_bytes()).hexdigest()[:12]}
                 if result.tables else {})
        history, summary, folded = import_snapshot(result, files, data, as_of=as_of)
        problems += folded
        texts = {k: v for k, v in history_texts(history).items() if k in HISTORY_FILES}
        invalid = validate_texts(texts)
        problems += invalid
        if not invalid:
            # The history and, when this state is the latest, the tables' layouts and prices: one write,
            # all of the files or none of them (files.atomic)
            if history.latest_tables is not None:
                texts.update(data_texts(result, data, placed_tables(history)))
            written = write_files(data, texts)
    for line in report(problems):
        print(line)
    errors = [p for p in problems if p.severity == "error"]
    state = f"state {summary.state}: {summary.new} new figures, {summary.corrected} corrected, " \
            f"{summary.superseded} superseded, {summary.withdrawn} withdrawn; " if summary else "no new state; "
    print(f"{len(result.inference_runs)} inference runs, {len(result.training_runs)} training runs, "
          f"{len(result.prices)} prices from {len(result.tables)} tables; {state}{len(errors)} errors, "
          f"{len(problems) - len(errors)} warnings; {len(written)} data files changed")
    return 1 if errors else 0


def import_history(src: Path, data_dir: Path, instances: Sequence[str], frameworks: Sequence[str], *, source: str,
                   rebuild: bool = False) -> int:
    """``make import-benchmarks SRC=<folder of states>``: fold them into the history; print every problem."""
    history, summaries, problems = import_states(src, data_dir, instances, frameworks, source=source,
                                                 rebuild=rebuild)
    texts = history_texts(history)
    invalid = validate_texts({k: v for k, v in texts.items() if k in HISTORY_FILES})
    for line in report(problems + invalid):
        print(line)
    if invalid:
        print(f"{len(invalid)} history rows do not validate; nothing written")
        return 1
    written = write_files(data_dir, texts)
    for summary in summaries:
        print(f"{summary.state}: {summary.rows} rows, {summary.placed} placed, {summary.new} new figures, "
              f"{summary.corrected} corrected, {summary.superseded} superseded, {summary.withdrawn} withdrawn")
    errors = sum(1 for p in problems if p.severity == "error")
    print(f"{len(summaries)} states imported ({len(history.states)} in the history), "
          f"{len(history.configurations)} configurations, {sum(map(len, history.observations.values()))} figures; "
          f"{errors} errors; {len(written)} data files changed")
    return 1 if errors else 0
