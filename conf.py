"""Sphinx configuration of the Neuron model support & performance site.

Pages live in ``source/``; build with ``make html`` (``sphinx-build -c . source build/html``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "_ext"))

project = "Neuron Model Support & Performance"
author = "Neuron documentation team"
copyright = "2022-2026, the Neuron documentation authors"  # noqa: A001

extensions = [
    "neuron_docs",
    "myst_parser",
    "sphinx_design",
]

neuron_data_dir = "data"

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
root_doc = "index"
exclude_patterns = ["_build"]
nitpicky = True
suppress_warnings: list[str] = []

html_theme = "furo"
html_title = project
html_last_updated_fmt = None
