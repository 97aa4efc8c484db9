"""Units of memory, bandwidth and compute converted with pint to the units values are compared in (no Sphinx).

Hardware pages write 96 GiB where the data may hold GB, 2.9 TB/sec, 1,024 GB/sec/chip, 161
PetaFLOPS, 48 MiB: :func:`to_base` gives the unit a value in such a unit is compared in (GB, GB/s,
TFLOPS, TOPS) and the factor to it, computed by pint (binary and decimal prefixes alike), once per
unit and only for units of these dimensions: the registry is made the first time one is seen.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: The units values are compared in, for the dimensions pint converts.
BASES = ("GB", "GB/s", "TFLOPS", "TOPS")
#: A unit pint is asked about: bytes with a decimal or binary prefix (per second or not), FLOPS, OPS.
_CONVERTIBLE = re.compile(r"^(?:[kMGTPE]i?B(?:/s)?|[kMGTPE]?FLOPS|[kMGTPE]?OPS)$")


@cache
def _registry() -> Any:
    import pint  # noqa: PLC0415 - a quarter of a second, paid only when a page writes such a unit

    registry: Any = pint.UnitRegistry(cache_folder=None)
    registry.define("FLOPS = [floating_point_operations_per_second]")
    registry.define("OPS = [operations_per_second]")
    return registry


@cache
def to_base(unit: str) -> tuple[str, float] | None:
    """(base unit, factor) of ``unit`` when pint converts it to one of :data:`BASES`, else ``None``."""
    if unit in BASES or not _CONVERTIBLE.match(unit):
        return None
    registry = _registry()
    import pint  # noqa: PLC0415

    quantity = registry.Quantity(1.0, unit)
    for base in BASES:
        try:
            return base, float(quantity.to(base).magnitude)
        except pint.DimensionalityError:
            continue
    return None
