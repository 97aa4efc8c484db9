"""Units of memory, bandwidth and compute converted with pint to the units values are compared in (no Sphinx).

Hardware pages write 96 GiB where the data may hold GB, 2.9 TB/sec, 1,024 GB/sec/chip, 161
PetaFLOPS, 48 MiB: :func:`to_base` gives the unit a value in such a unit is compared in (GB, GB/s,
TFLOPS, TOPS) and the factor to it, computed by pint (binary and decimal prefixes alike, the one
registry of :mod:`neuron_docs.data.figures.units`), once per unit.
"""

from __future__ import annotations

import re
from functools import cache

from ..data.figures.units import registry

#: The units values are compared in, for the dimensions pint converts.
BASES = ("GB", "GB/s", "TFLOPS", "TOPS")
#: A unit pint is asked about: bytes with a decimal or binary prefix (per second or not), FLOPS, OPS.
_CONVERTIBLE = re.compile(r"^(?:[kMGTPE]i?B(?:/s)?|[kMGTPE]?FLOPS|[kMGTPE]?OPS)$")


@cache
def to_base(unit: str) -> tuple[str, float] | None:
    """(base unit, factor) of ``unit`` when pint converts it to one of :data:`BASES`, else ``None``."""
    if unit in BASES or not _CONVERTIBLE.match(unit):
        return None
    import pint  # noqa: PLC0415 - imported by registry() already

    units = registry()

    quantity = units.Quantity(1.0, unit)
    for base in BASES:
        try:
            return base, float(quantity.to(base).magnitude)
        except pint.DimensionalityError:
            continue
    return None
