"""The data of a git revision: ``data/`` as committed at a commit, read without a checkout.

:func:`load_revision` is what the matrix diff (:mod:`.matrix_diff`) and preview builds
(:mod:`.preview`) compare the working tree's data with; :class:`RevisionError` says in one line
why a revision cannot be read (unknown, no ``data/``, git missing, not a repository). This
module does not import Sphinx.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from pathlib import Path

from .catalog import Catalog
from .checking.validation import load_catalog

#: The data directory, relative to the repository's top.
DATA_DIR = "data"


class RevisionError(Exception):
    """A git revision (or its ``data/``) that cannot be read; the message says why."""


def _git(repo: Path | str, *args: str) -> bytes:
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise RevisionError("git is not installed (needed to read a revision's data/)") from None
    if proc.returncode != 0:
        raise RevisionError(proc.stderr.decode(errors="replace").strip() or f"git {args[0]} failed")
    return proc.stdout


def repo_root(path: Path | str = ".") -> Path:
    """The top directory of the git work tree that holds ``path``."""
    try:
        return Path(_git(path, "rev-parse", "--show-toplevel").decode().strip())
    except RevisionError as exc:
        raise RevisionError(f"{path} is not inside a git repository ({exc})") from None


def resolve(rev: str, repo: Path | str = ".") -> str:
    """The commit id of ``rev``; :class:`RevisionError` when git does not know it."""
    if not rev or rev.startswith("-"):
        raise RevisionError(f"unknown revision {rev!r}")
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").decode().strip()
    except RevisionError:
        raise RevisionError(f"unknown revision {rev!r} in {repo_root(repo)} "
                            "(in CI, fetch the full history: git fetch --unshallow)") from None


def load_revision(rev: str, repo: Path | str = ".") -> Catalog:
    """The catalog of ``data/`` as committed at ``rev`` (read with ``git archive``, no checkout)."""
    root = repo_root(repo)
    commit = resolve(rev, root)
    try:
        archive = _git(root, "archive", "--format=tar", commit, DATA_DIR)
    except RevisionError:
        raise RevisionError(f"revision {rev!r} has no {DATA_DIR}/ directory") from None
    with tempfile.TemporaryDirectory(prefix="matrix-diff-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        return load_catalog(Path(tmp) / DATA_DIR)
