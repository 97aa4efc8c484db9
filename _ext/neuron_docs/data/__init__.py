"""The data layer: reading, validating and deriving figures from ``data/`` (no Sphinx here)."""

from __future__ import annotations

from .catalog import Broken, Catalog, load_catalog
from .loader import DataError

__all__ = ["Broken", "Catalog", "DataError", "load_catalog"]
