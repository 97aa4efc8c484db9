"""Sphinx extension rendering the Neuron support matrix, specifications and benchmarks from data.

The package's folders are its wings, each with one face to the rest:

- ``data/``: reading, validating and deriving the data set; never imports Sphinx or docutils.
- ``drift/``: the figure and claim matching of the drift checker and ``make audit``; no Sphinx.
- ``directives/``: the directives and roles that render data, one module per family; the charts.
- ``render/``: generated content left as placeholders when a page is read, rendered when it is written;
- ``preview/``: pull-request previews: the change model, the page marks, the report sections.
- ``site/``: what a built site adds: downloads, ids, data dates, the sitemap fix.
- ``state/``: what one build holds: the ``neuron`` domain (``domain``: objects, cross-references,
  per-document state; ``neuron_domain(env)``, the one typed way to it), the one owner of per-build
  state (``build``), the data's loading (``loading``), what each page reads and
  shows of the data (``dependencies``: re-read or rewritten when it changes), the objects pages
  make from the data when written (``hosted``) and a preview's change model (``preview``).
- ``checks/``: the build's hook into the drift engine and the price-age warning; ``cli.py``: what
  the command-line tools share.
- ``benchmark_import/``: the offline tools of the published benchmark tables (``make
  import-benchmarks``: reading the published CSVs with pandas, folding their states into the benchmark
  history, writing them back); no build imports it, nor pandas (an import-linter contract).
- ``node_data.py``: what a generated node carries from one wing to another, every attribute of ours
  on a docutils node named once (a typed :class:`~.node_data.Channel`, who writes it, who reads it).
- ``renderers.py``: every renderer of generated content, in one table given to each build (the
  renderers are defined with their directives, above ``render/``, which calls them through it).
- ``lifecycle.py``: every event handler of the extension, in the order a build runs them, connected
  in one place (the wings' own setups add directives, nodes and settings only).

:func:`setup` imports the wings only when Sphinx loads the extension, so the command-line tools
(``python -m neuron_docs.drift.audit``, ``python -m neuron_docs.preview.matrix_diff``) run without
Sphinx. Its ``env_version`` is a digest of the extension's code, so a build after any change to the
extension re-reads every page instead of reusing doctrees the old code made.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__version__ = "0.1.0"


def code_version(package: Path = Path(__file__).parent) -> int:
    """A number that changes whenever a Python file of ``package`` (the extension) changes."""
    from .data.dataset import source_digest

    return int(source_digest(package)[:12], 16)


def setup(app: Sphinx) -> ExtensionMetadata:
    from .state import loading
    from .state import domain
    from .checks import drift as drift_check
    from .checks import price_age
    from .directives import setup_directives
    from .lifecycle import connect_handlers
    from .preview.build import setup_preview
    from .render.expand import setup_expand
    from .render.html_rows import setup_html_rows
    from .renderers import setup_renderers
    from .site import setup_site

    loading.setup_loading(app)
    domain.setup_domain(app)
    setup_expand(app)
    setup_html_rows(app)
    setup_directives(app)
    setup_renderers(app)  # every renderer of generated content, in one table (renderers.RENDERERS)
    setup_preview(app)
    setup_site(app)
    drift_check.setup_drift_check(app)
    price_age.setup_price_age(app)
    connect_handlers(app)  # every event handler, in build order (lifecycle.HANDLERS)
    return {
        "version": __version__,
        "env_version": code_version(),  # pages made by other code are read again
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
