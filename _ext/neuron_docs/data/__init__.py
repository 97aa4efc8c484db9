"""The data layer: reading, validating and deriving figures from ``data/`` (no Sphinx here).

Its rooms, each importing only those before it: ``files`` (reading files) < ``records`` (field types,
record models, words) < ``matrix`` (the matrices across revisions) < ``catalog`` (the validated data
set) < ``checking`` (validation and references) < ``figures`` (derived figures) < ``published`` (the
published tables' import and export), ``dataset``, ``record_keys``, ``revisions``.

The names below are loaded when first used, so importing one room does not load the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalog import Broken, Catalog
    from .checking.validation import load_catalog
    from .files.loader import DataError

__all__ = ["Broken", "Catalog", "DataError", "load_catalog"]


def __getattr__(name: str) -> Any:
    if name in ("Broken", "Catalog"):
        from . import catalog

        return getattr(catalog, name)
    if name == "DataError":
        from .files.loader import DataError

        return DataError
    if name == "load_catalog":
        from .checking.validation import load_catalog

        return load_catalog
    raise AttributeError(name)
