"""Every file in the data directory is read, or reported: nothing sits there in silence.

A misnamed file (``device.yaml`` for ``devices.yaml``, ``prices.yml``), a stray export (a 50 MB
CSV), a file left by an interrupted write: none of them is data the site reads, and each used to be
ignored without a word, so its author believed it published. :func:`unread_files` names every file
under the data directory that no :data:`~..catalog.FILES` spec reads, with its size and, when it
looks like one, the data file it was perhaps meant to be. It only lists the folder and ``stat``-s
(``lstat``: a link is not followed) what it finds: it never opens a file, so a huge one costs
nothing. The revisions folder (``matrix/``) checks its own contents (:mod:`.matrix_files`); the
write lock and journal of :mod:`..files.atomic` are known. No Sphinx here.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from ..catalog import FILES, Catalog
from ..files.atomic import JOURNAL, OWN_NAMES, STAGED_SUFFIX
from ..files.loader import DataError
from .matrix_files import MATRIX_DIR

#: At most this many unread files are named one by one; the rest are counted in one problem.
MAX_NAMED = 20


def _size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} bytes"


def unread_files(catalog: Catalog) -> list[DataError]:
    """A problem for every file under the data directory that the site does not read (see above)."""
    root = catalog.data_dir
    if not root.is_dir():
        return []
    known = {spec.name for spec in FILES} | set(OWN_NAMES)
    targets = set()
    for name in known:  # a data file that is a link to another file inside data/: that file is read
        try:
            target = (root / name).resolve(strict=True)
        except (OSError, RuntimeError):
            continue
        if target.is_relative_to(root.resolve()):
            targets.add(target.relative_to(root.resolve()).as_posix())
    folders = {str(Path(name).parent.as_posix()) for name in known}
    found: list[tuple[str, int]] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        rel_folder = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel_folder == "." else rel_folder + "/"
        if prefix == MATRIX_DIR:
            dirs[:] = []
            continue
        entries = list(files) + [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
        for entry in sorted(entries):
            name = prefix + entry
            if name in known or name in targets or name in folders or name == MATRIX_DIR.rstrip("/"):
                continue
            try:
                size = os.lstat(os.path.join(folder, entry)).st_size
            except OSError:
                continue
            found.append((name, size))
    problems = []
    readable = sorted(spec.name for spec in FILES)
    for name, size in found[:MAX_NAMED]:
        base = Path(name).name
        if base.endswith(STAGED_SUFFIX) or base == JOURNAL + STAGED_SUFFIX:
            why = ("left by an interrupted write to the data (not read); expected no such file: the next "
                   "import removes it, or delete it")
        else:
            near = difflib.get_close_matches(name, readable, n=1, cutoff=0.75)
            hint = f" (did you mean {near[0]}?)" if near else ""
            why = (f"a file the site does not read ({_size(size)}){hint}; expected only the data files the site "
                   f"reads (catalog.FILES) and revisions in {MATRIX_DIR}: rename it to the file it was meant "
                   "to be, or move it out of the data folder")
        problems.append(DataError(name, None, "", why))
    if len(found) > MAX_NAMED:
        rest = found[MAX_NAMED:]
        problems.append(DataError(rest[0][0], None, "", f"and {len(rest)} more files the site does not read "
                                  f"({_size(sum(s for _, s in rest))} in all); expected only the data files"))
    return problems
