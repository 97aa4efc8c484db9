"""Writing ``data/``: all the files of one write or none of them, and one writer at a time.

Every command that writes the data directory goes through :func:`write_files` (the import's
:mod:`neuron_docs.benchmark_import.command`, :func:`~neuron_docs.benchmark_import.export.write_data`
and :meth:`~neuron_docs.benchmark_import.history_rows.History.write`). A write happens in
three steps, as databases and git do:

1. *Stage*: each changed file is written beside its target under a temporary name
   (``.<name>.nothing-lost-tmp``, same folder, so that the rename below never crosses a file
   system), flushed and ``fsync``-ed. Nothing the readers see has changed yet.
2. *Commit*: a journal (:data:`JOURNAL`) listing the staged files is written aside and renamed
   into place. This rename is the one instant the write happens: before it, none of the files
   is replaced; after it, all of them will be.
3. *Apply*: each staged file is ``os.replace``-d over its target, then the journal is removed.

A write interrupted anywhere (an exception, a kill, a power cut) leaves either the old files and
some staged leftovers (before the commit), or a journal (after it). :func:`recover`, run whenever
the lock is taken, finishes a committed write (roll forward) and deletes uncommitted leftovers; so a
rerun after any interruption starts from the data an uninterrupted run would have left, and ends
where it would have ended.

:func:`data_lock` holds ``fcntl.flock`` on :data:`LOCK` in the data directory: a second writer is
refused with a message naming the first one's process (:class:`DataLocked`), not interleaved with
it. The lock is re-entrant within one process (the importer's ``main`` takes it, and the writes it
makes take it again). :func:`pending_write` tells a reader (the build) that a committed write was
interrupted. No Sphinx here.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

#: The lock file a writer holds (in the data directory; its text is the holder's process id).
LOCK = ".write.lock"
#: The journal of a committed write whose files are not all in place yet.
JOURNAL = ".write-journal.json"
#: The suffix of a staged file (``.<name>`` + this, beside its target).
STAGED_SUFFIX = ".nothing-lost-tmp"
#: The names in the data directory that belong to this module (every reader skips them).
OWN_NAMES = frozenset({LOCK, JOURNAL})

_held: dict[Path, int] = {}


class DataLocked(RuntimeError):
    """Another process is writing the data directory."""


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_synced(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def staged_name(target: Path) -> Path:
    """Where ``target``'s new text is staged before it replaces it."""
    return target.with_name(f".{target.name}{STAGED_SUFFIX}")


@contextlib.contextmanager
def data_lock(data_dir: Path | str) -> Iterator[None]:
    """Hold the data directory's write lock (re-entrant in one process); finish or undo an interrupted
    write first (:func:`recover`). Raise :class:`DataLocked` when another process holds it."""
    data_dir = Path(data_dir)
    key = data_dir.resolve()
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    handle = open(data_dir / LOCK, "a+", encoding="utf-8")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise DataLocked(f"{data_dir}: another command (process {holder}) is writing the data; nothing "
                             f"written; run this again when it has finished") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        _held[key] = 1
        try:
            recover(data_dir)
            yield
        finally:
            del _held[key]
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        handle.close()


def pending_write(data_dir: Path | str) -> bool:
    """Whether a committed write was interrupted before all its files were in place."""
    return (Path(data_dir) / JOURNAL).exists()


def recover(data_dir: Path | str) -> list[Path]:
    """Finish a committed write (its journal) and delete staged files no journal names; return the
    files put in place. Call with the lock held (:func:`data_lock` does)."""
    data_dir = Path(data_dir)
    journal = data_dir / JOURNAL
    placed = []
    if journal.exists():
        entries = json.loads(journal.read_text(encoding="utf-8"))
        for name in entries:
            target = data_dir / name
            staged = staged_name(target)
            if staged.exists():
                os.replace(staged, target)
                placed.append(target)
        for folder in {(data_dir / name).parent for name in entries}:
            _fsync_dir(folder)
        journal.unlink()
        _fsync_dir(data_dir)
    for leftover in data_dir.rglob(f".*{STAGED_SUFFIX}"):
        leftover.unlink()
    leftover_journal = data_dir / (JOURNAL + STAGED_SUFFIX)
    if leftover_journal.exists():
        leftover_journal.unlink()
    return placed


def write_files(data_dir: Path | str, texts: Mapping[str, str]) -> list[Path]:
    """Write each file of ``texts`` (path under ``data_dir`` -> text) whose text changed, all of them or
    none (see the module's docstring); return them. Raise :class:`DataLocked` when another process is
    writing."""
    data_dir = Path(data_dir)
    with data_lock(data_dir):
        changed = []
        for name, text in texts.items():
            target = data_dir / name
            if target.is_file() and target.read_bytes() == text.encode("utf-8"):
                continue
            changed.append((name, target, text))
        if not changed:
            return []
        staged: list[Path] = []
        try:
            for _, target, text in changed:
                target.parent.mkdir(parents=True, exist_ok=True)
                path = staged_name(target)
                staged.append(path)
                _write_synced(path, text)
            journal = data_dir / JOURNAL
            aside = data_dir / (JOURNAL + STAGED_SUFFIX)
            _write_synced(aside, json.dumps([name for name, _, _ in changed]))
            os.replace(aside, journal)  # the commit: from here on, every file will be in place
            _fsync_dir(data_dir)
        except BaseException:
            for path in staged:
                path.unlink(missing_ok=True)
            (data_dir / (JOURNAL + STAGED_SUFFIX)).unlink(missing_ok=True)
            raise
        recover(data_dir)
        return [target for _, target, _ in changed]
