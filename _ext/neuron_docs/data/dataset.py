"""The data set of a build: the validated catalog, its derived costs and its figures, cached on disk
between builds.

:func:`load_cached` returns the :class:`DataSet` of a data directory. Between builds it is kept
in a cache directory as a pickle keyed by the SHA-256 of every data file's bytes, the data
directory, the Python and pydantic versions and the data layer's own code (:func:`source_digest`):
a build whose data did not change unpickles it instead of parsing and validating again. Line
positions, which only validation needs, are released once the catalog is loaded. Python's cyclic
garbage collector is paused while a data set is loaded or unpickled (:func:`collector_paused`).
The derived costs (:class:`~.figures.derived.Derived`) are computed when first read, once per build,
and never cached on disk. No Sphinx here.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import pickle
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pydantic

from .catalog import FILES, Catalog
from .files.loader import file_digest
from .checking.matrix_files import MATRIX_DIR
from .checking.validation import load_catalog
from .figures.derived import Derived
from .figures.values import Values

logger = logging.getLogger(__name__)

#: The data layer's folder: its code is part of the cache key.
DATA_LAYER = Path(__file__).resolve().parent


@dataclass(frozen=True)
class DataSet:
    """The catalog of one build and every figure in it."""

    catalog: Catalog
    #: Every derived cost, computed once per build: what tables, notes, charts and the advisor read.
    derived: Derived
    #: Every figure by path (its costs read from :attr:`derived`): roles, drift checker, downloads.
    values: Values
    #: The digest of the data files' bytes it was loaded from (:func:`content_key`): what is made
    #: from the data alone (the downloads) is the same for the same key, wherever the data lies.
    content_key: str

    def path(self, name: str) -> Path:
        return self.catalog.data_dir / name


def source_digest(package: Path) -> str:
    """A digest of every Python file and jinja2 template under ``package``: it changes whenever its code does."""
    digest = hashlib.sha256()
    for source in sorted([*package.rglob("*.py"), *package.rglob("*.jinja")]):
        digest.update(f"{source.relative_to(package).as_posix()}\0".encode() + source.read_bytes() + b"\0")
    return digest.hexdigest()


@cache
def _code_digest() -> str:
    """A cached catalog is only valid for the code (and interpreter) that made it."""
    return hashlib.sha256(f"{sys.version}\0{pydantic.VERSION}\0{source_digest(DATA_LAYER)}".encode()).hexdigest()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection meanwhile (then as before).

    Loading makes millions of objects that live as long as the build and hold no reference
    cycles; the collector, run every few thousand allocations, would walk them again and again
    (a third of the loading time at 5,000 families, half of it at 20,000). Reference counting
    still frees what is dropped.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_dataset(directory: Path) -> DataSet:
    """Read and validate ``directory`` and derive its figures (no cache)."""
    with collector_paused():
        key = content_key(directory)
        catalog = load_catalog(directory)
        catalog.release_validation_state()
        derived = Derived(catalog)
        return DataSet(catalog, derived, Values(derived), key)


def cache_key(directory: Path) -> str:
    """The key of ``directory``'s data set in the cache: its content and the code, not where it lies (a
    data set holds its directory in one place, :attr:`.Catalog.data_dir`, set again when it is read
    from the cache): a copy of the data, a moved checkout or a restored CI cache finds its entry."""
    return hashlib.sha256(f"{_code_digest()}\0{content_key(directory)}".encode()).hexdigest()


def content_key(directory: Path) -> str:
    """A digest of the bytes of every data file of ``directory`` (not of where it lies)."""
    digest = hashlib.sha256()
    for spec in FILES:  # never reads a FIFO, a device or a file outside the data directory
        digest.update(f"{spec.name}\0{file_digest(directory / spec.name, directory, spec.max_bytes)}\0".encode())
    folder = directory / MATRIX_DIR
    for revision in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        digest.update(f"{MATRIX_DIR}{revision.name}\0{file_digest(revision, directory)}\0".encode())
    return digest.hexdigest()


def _read_cache(path: Path) -> DataSet | None:
    try:
        with path.open("rb") as handle:
            data = pickle.load(handle)  # noqa: S301 - our own file, written by _write_cache
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return data if isinstance(data, DataSet) else None


def _write_cache(path: Path, data: DataSet) -> None:
    """Write atomically (parallel builds may race), and drop the entries but the newest :data:`CACHE_ENTRIES`. The cache
    folder holds a ``.gitignore`` of ``*``, as mypy's and pytest's do: git never sees it."""
    temporary: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        ignore = path.parent / ".gitignore"
        if not ignore.is_file():
            ignore.write_text("# The data set's cache (neuron_docs), made by every build.\n*\n", encoding="utf-8")
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, suffix=".tmp", delete=False) as handle:
            temporary = Path(handle.name)
            pickle.dump(data, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
        for old in _older_entries(path.parent, keep=CACHE_ENTRIES):
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
        logger.info("neuron: catalog cache not written (%s)", exc)
        if temporary is not None:
            temporary.unlink(missing_ok=True)


#: How many data sets the cache keeps (the newest): a checkout's data and a few copies or branches.
CACHE_ENTRIES = 8


def _older_entries(folder: Path, keep: int) -> list[Path]:
    """The cache's entries but the ``keep`` newest (by modification time; a vanished entry is skipped)."""
    entries = []
    for entry in folder.glob("catalog-*.pickle"):
        try:
            entries.append((entry.stat().st_mtime_ns, entry))
        except OSError:
            continue
    return [entry for _, entry in sorted(entries, reverse=True)[keep:]]


def load_cached(directory: Path, cache_dir: Path | None) -> DataSet:
    """The data set of ``directory``: from the cache when its content key matches, else loaded."""
    with collector_paused():
        if cache_dir is None:
            return load_dataset(directory)
        path = cache_dir / f"catalog-{cache_key(directory)}.pickle"
        data = _read_cache(path)
        if data is not None and data.catalog.data_dir != directory:
            data.catalog.data_dir = directory  # the same bytes read from another place
        if data is None:
            data = load_dataset(directory)
            _write_cache(path, data)
        return data
