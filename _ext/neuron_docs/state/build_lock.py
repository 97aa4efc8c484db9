"""One build at a time in one build directory: a second ``make html`` waits for the first.

Two builds writing the same ``build/`` at once leave a site half of one and half of the other (a
truncated ``searchindex.js``, a truncated ``sitemap.xml``, an environment pickle one of them read
while the other wrote it). On ``config-inited`` (before the environment is read) the build takes
``fcntl.flock`` on ``.neuron-build.lock`` in the doctrees (``build/doctrees/`` for ``make html``: a
folder the build owns and writes anyway, so the lock never lands outside what the build writes, nor
in the published site); a
second build says it is waiting, and whose build it waits for, then waits. The lock is released on
``build-finished`` after every other handler (the downloads, the sitemap) has written, and by the
system when the process ends however it ends. Within one process a build left unfinished (its
``Sphinx`` object raised before building) does not block the next one: the process's own earlier
lock is let go first.
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

LOCK_NAME = ".neuron-build.lock"

#: This process's locks (the lock file -> its open handle): a lock is a process's resource, not a
#: build's, so it lives here rather than on ``app``.
_held: dict[Path, IO[str]] = {}


def lock_path(app: Sphinx) -> Path:
    return Path(app.doctreedir).resolve() / LOCK_NAME


def acquire(path: Path) -> None:
    """Hold the lock at ``path``; say so and wait when another process holds it."""
    release(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        print(f"{path.parent}: another build (process {holder}) is writing it; waiting for it to finish",
              file=sys.stderr, flush=True)
        fcntl.flock(handle, fcntl.LOCK_EX)
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    _held[path] = handle


def release(path: Path) -> None:
    handle = _held.pop(path, None)
    if handle is not None:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def take_build_lock(app: Sphinx, config: Config) -> None:
    acquire(lock_path(app))


def release_build_lock(app: Sphinx, exception: BaseException | None) -> None:
    release(lock_path(app))
