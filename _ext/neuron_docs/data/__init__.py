"""The data layer: reading, validating and deriving figures from ``data/`` (no Sphinx here)."""

from __future__ import annotations

from .catalog import Broken, Catalog
from .loader import DataError
from .validation import load_catalog

__all__ = ["Broken", "Catalog", "DataError", "load_catalog"]
