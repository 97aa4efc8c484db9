"""Loading the data once per build, reporting its problems, and tracking which pages read which file.

The catalog is loaded on ``builder-inited`` (before any page is read, so parallel readers inherit
it) and every data problem becomes a located warning (``neuron.data``). Directives call
:func:`uses` to declare the files they read: Sphinx then re-reads exactly those pages when a file
changes (``note_dependency``), and ``env-get-outdated`` catches content changes by hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.util import logging

from .data import Catalog, load_catalog
from .data.values import Value, build_values

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.docutils import SphinxDirective, SphinxRole

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class DataSet:
    """The catalog of one build and every figure in it."""

    catalog: Catalog
    values: dict[str, Value]

    def path(self, name: str) -> Path:
        return self.catalog.data_dir / name


_LOADED: dict[Path, DataSet] = {}


def _on_config_inited(app: Sphinx, config: Config) -> None:
    """Make ``neuron_data_dir`` absolute (it is given relative to the configuration directory)."""
    config.neuron_data_dir = str((Path(app.confdir) / config.neuron_data_dir).resolve())


def dataset(env: BuildEnvironment) -> DataSet:
    """The data set of the build ``env`` belongs to (loaded on first use if need be)."""
    directory = Path(env.config.neuron_data_dir)
    if directory not in _LOADED:
        _LOADED[directory] = _load(directory)
    return _LOADED[directory]


def _load(directory: Path) -> DataSet:
    catalog = load_catalog(directory)
    return DataSet(catalog, build_values(catalog))


def _on_builder_inited(app: Sphinx) -> None:
    directory = Path(app.config.neuron_data_dir)
    data = _LOADED[directory] = _load(directory)
    for error in data.catalog.errors:
        location = f"{directory / error.file}:{error.line}" if error.line else str(directory / error.file)
        message = f"{error.field}: {error.message}" if error.field else error.message
        logger.warning("%s", message, location=location, type="neuron", subtype="data")


def uses(directive: SphinxDirective | SphinxRole, *files: str) -> None:
    """Declare that the current page reads ``files`` (names relative to the data directory)."""
    env = directive.env
    data = dataset(env)
    for name in files:
        env.note_dependency(str(data.path(name)))
    hashes = env.domaindata.setdefault("neuron", {}).setdefault("doc_files", {})
    hashes.setdefault(env.docname, {}).update({n: data.catalog.file_hashes.get(n, "") for n in files})


def _on_env_get_outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                         removed: set[str]) -> list[str]:
    """Pages whose data files changed in content since they were read."""
    current = dataset(env).catalog.file_hashes
    read = env.domaindata.get("neuron", {}).get("doc_files", {})
    return sorted(doc for doc, files in read.items()
                  if doc in env.all_docs and any(current.get(n, "") != h for n, h in files.items()))


def setup_store(app: Sphinx) -> None:
    app.add_config_value("neuron_data_dir", "data", "env", types=frozenset({str}),
                         description="Directory of the data files, relative to the configuration directory.")
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-get-outdated", _on_env_get_outdated)
