"""What the command-line tools (``make audit``, ``make matrix-diff``) share: writing their report.

No Sphinx here: the tools run without a build.
"""

from __future__ import annotations

import os
import sys


def emit(text: str) -> None:
    """Write ``text`` to standard output; a reader that stops early (``| head``) is not an error."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at /dev/null so that flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
