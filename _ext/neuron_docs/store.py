"""Loading the data once per build, reporting its problems, and tracking which pages read which file.

The catalog is loaded on ``builder-inited`` (before any page is read, so parallel readers inherit
it) and every data problem becomes a located warning (``neuron.data``). Directives call
:func:`uses` to declare the files they read: Sphinx then re-reads exactly those pages when a file
changes (``note_dependency``), and ``env-get-outdated`` catches content changes by hash.

Between builds the loaded data set is kept on disk (``neuron_cache_dir``, default
``.neuron-cache`` next to ``conf.py``; empty to turn it off), keyed by the SHA-256 of every data
file's bytes, the data directory, the Python version and the data layer's own code: a build whose
data did not change unpickles it instead of parsing and validating again. Line positions, which
only the validation needs, are not kept in memory once the catalog is loaded.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pydantic
from sphinx.util import logging

from . import data as data_layer
from .data import Catalog, load_catalog
from .data.catalog import FILES
from .data.values import Values, build_values

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
    values: Values

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
    catalog._positions = {}  # line of every value: used only while validating, and the bulk of the memory
    catalog._paths = {}
    catalog._shared = {}  # the records keep sharing what they share; the lookup table is not needed
    return DataSet(catalog, build_values(catalog))


@cache
def _code_digest() -> str:
    """A digest of the data layer's code: a cached catalog is only valid for the code that made it."""
    digest = hashlib.sha256(f"{sys.version}\0{pydantic.VERSION}\0".encode())
    for source in sorted(Path(data_layer.__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()


def cache_key(directory: Path) -> str:
    """The content key of ``directory``'s data: every file's bytes, the directory and the code."""
    digest = hashlib.sha256(f"{_code_digest()}\0{directory}\0".encode())
    for spec in FILES:
        try:
            content = (directory / spec.name).read_bytes()
        except OSError:
            content = b"\0(unreadable)"
        digest.update(f"{spec.name}\0".encode() + hashlib.sha256(content).digest())
    return digest.hexdigest()


def _read_cache(path: Path) -> DataSet | None:
    try:
        with path.open("rb") as handle:
            data = pickle.load(handle)  # noqa: S301 - our own file, written by _write_cache
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return data if isinstance(data, DataSet) else None


def _write_cache(path: Path, data: DataSet) -> None:
    """Write atomically (parallel builds may race), and drop the entries of older data."""
    temporary: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, suffix=".tmp", delete=False) as handle:
            temporary = Path(handle.name)
            pickle.dump(data, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
        for old in path.parent.glob("catalog-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
        logger.info("neuron: catalog cache not written (%s)", exc)
        if temporary is not None:
            temporary.unlink(missing_ok=True)


def _load_cached(directory: Path, cache_dir: Path | None) -> DataSet:
    """The data set of ``directory``: from the cache when its content key matches, else loaded."""
    if cache_dir is None:
        return _load(directory)
    path = cache_dir / f"catalog-{cache_key(directory)}.pickle"
    data = _read_cache(path)
    if data is None:
        data = _load(directory)
        _write_cache(path, data)
    return data


def _cache_dir(app: Sphinx) -> Path | None:
    setting = app.config.neuron_cache_dir
    return (Path(app.confdir) / setting).resolve() if setting else None


def _on_builder_inited(app: Sphinx) -> None:
    directory = Path(app.config.neuron_data_dir)
    data = _LOADED[directory] = _load_cached(directory, _cache_dir(app))
    for error in data.catalog.errors:
        # Always "path:line" (or "path:" for a whole-file problem): a location without a colon would be
        # taken for a document name.
        location = f"{directory / error.file}:{error.line or ''}"
        message = f"{error.field}: {error.message}" if error.field else error.message
        logger.warning("%s", message, location=location, type="neuron", subtype="data")


def uses(directive: SphinxDirective | SphinxRole, *files: str) -> None:
    """Declare that the current page reads ``files`` (names relative to the data directory)."""
    note_reads(directive.env, *files)


def note_reads(env: BuildEnvironment, *files: str) -> None:
    """Declare that the page being read (``env.docname``) depends on the data ``files``."""
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
    app.add_config_value("neuron_cache_dir", ".neuron-cache", "", types=frozenset({str}),
                         description="Where the loaded data is kept between builds, relative to the configuration "
                                     "directory; empty: no cache.")
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-get-outdated", _on_env_get_outdated)
