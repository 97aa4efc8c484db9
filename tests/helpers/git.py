"""git run in a throw-away repository, the same whoever runs the tests: a fixed author, committer and
date, and neither the machine's nor the user's git configuration."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

#: The identity and date of every commit a test makes, and no configuration but the repository's own.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Neuron Docs Test", "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "Neuron Docs Test", "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
}


def git(repo: Path, *args: str) -> str:
    """``git args...`` in ``repo``; its standard output (a failure raises)."""
    return subprocess.run(["git", *args], cwd=repo, env={**os.environ, **GIT_ENV}, check=True,
                          capture_output=True, text=True).stdout
