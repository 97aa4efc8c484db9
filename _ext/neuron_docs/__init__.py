"""Sphinx extension rendering the Neuron support matrix, specifications and benchmarks from data.

Each concern lives in its own module with a ``setup_<concern>(app)``; this function only calls
them and declares the extension parallel-safe (the domain merges its per-document data). Its
``env_version`` is a digest of its own code, so a build after any change to the extension
re-reads every page instead of reusing doctrees the old code made.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from . import (
    benchmarks,
    charts,
    checks,
    domain,
    downloads,
    guidelines,
    interactive,
    matrix,
    preview,
    roles,
    specs,
    store,
    training,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__version__ = "0.1.0"


def code_version(package: Path = Path(__file__).parent) -> int:
    """A number that changes whenever a Python file of ``package`` (the extension) changes."""
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        digest.update(f"{source.relative_to(package).as_posix()}\0".encode() + source.read_bytes() + b"\0")
    return int(digest.hexdigest()[:12], 16)


def setup(app: Sphinx) -> ExtensionMetadata:
    store.setup_store(app)
    domain.setup_domain(app)
    roles.setup_roles(app)
    matrix.setup_matrix(app)
    guidelines.setup_guidelines(app)
    specs.setup_specs(app)
    benchmarks.setup_benchmarks(app)
    training.setup_training(app)
    preview.setup_preview(app)
    charts.setup_charts(app)
    downloads.setup_downloads(app)
    interactive.setup_interactive(app)
    checks.setup_checks(app)  # the drift checker and the errata directive
    return {
        "version": __version__,
        "env_version": code_version(),  # pages made by other code are read again
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
