"""Sphinx extension rendering the Neuron support matrix, specifications and benchmarks from data.

Each concern lives in its own module with a ``setup_<concern>(app)``; this function only calls
them and declares the extension parallel-safe (the domain merges its per-document data).
"""

from __future__ import annotations

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
        "env_version": 4,  # bump when pages must be re-read after an output change
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
