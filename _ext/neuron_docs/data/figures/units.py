"""One pint registry for the units the data and the pages write: bytes, bandwidth, FLOPS and OPS (no Sphinx).

pint's default registry parses its whole definitions file (a thousand units) each time one is made,
about half a second. The site converts only bytes with decimal and binary prefixes, per second or
not, and rates of operations, so the registry defines just those (a hundredth of a second), once
per process, and both the fit estimate (:mod:`.fit`) and the drift checker's unit table
(:mod:`neuron_docs.drift.units`) use it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

#: What the registry knows: base dimensions, then SI and IEC prefixes (pint's own definitions).
DEFINITIONS = (
    "byte = [information] = B",
    "second = [time] = s",
    "FLOPS = [floating_point_operations_per_second]",
    "OPS = [operations_per_second]",
    "kilo- = 1e3 = k", "mega- = 1e6 = M", "giga- = 1e9 = G",
    "tera- = 1e12 = T", "peta- = 1e15 = P", "exa- = 1e18 = E",
    "kibi- = 2**10 = Ki", "mebi- = 2**20 = Mi", "gibi- = 2**30 = Gi",
    "tebi- = 2**40 = Ti", "pebi- = 2**50 = Pi", "exbi- = 2**60 = Ei",
)


@cache
def registry() -> Any:
    """The process's registry of :data:`DEFINITIONS` (pint is imported the first time it is asked for)."""
    import pint  # noqa: PLC0415 - paid only when a unit is converted

    units: Any = pint.UnitRegistry(None, cache_folder=None)
    for definition in DEFINITIONS:
        units.define(definition)
    return units


@cache
def bytes_in(unit: str) -> int:
    """Bytes in one ``unit`` (GB, GiB, MiB, ...)."""
    return round(registry().Quantity(1, unit).to("B").magnitude)
