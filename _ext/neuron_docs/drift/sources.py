"""Sources that disagree: another source's value of a figure the data holds (no Sphinx).

A specification may record, besides the value the data uses, the values other sources give it
(``also: [{value, unit?, source, why}]`` in ``data/devices.yaml`` and ``data/instances.yaml``): the
Trn1 page gives Trainium 190 TFLOPS per chip where the Trainium2 page, which the data follows, gives
191. A page writing the other source's value *quotes* that source: the checker says so ("quotes
neuron-trn1-arch"), with the value the data uses and why, instead of calling it a contradiction.
An instance's figure computed from its device's (per chip times its chips) has the other sources'
values times its chips too (3,040 = 16 x 190 per trn1.32xlarge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .quantities import base_unit

if TYPE_CHECKING:
    from ..data.catalog import Catalog
    from ..data.records.models import Quantity


@dataclass(frozen=True)
class OtherValue:
    """Another source's value of a data path, in the data's unit and in its own."""

    number: float  # in the base unit of comparison
    unit: str  # that base unit
    shown: float  # as the source writes it
    shown_unit: str
    source: str
    why: str


def _quantity(catalog: Catalog, path: str) -> tuple[Quantity | None, int]:
    """The specification a data path reads and how many times it counts it (an instance's figure
    computed from its device's: its chips)."""
    kind, _, rest = path.partition(":")
    record, _, field = rest.rpartition(":")
    if kind == "device":
        device = catalog.devices.get(record)
        return (device.specs.get(field) if device else None), 1
    if kind == "instance":
        instance = catalog.instances.get(record)
        if instance is None:
            return None, 1
        if field in instance.specs:
            return instance.specs[field], 1
        device = catalog.devices.get(instance.device)
        return (device.specs.get(field) if device else None), instance.device_count
    return None, 1


def other_values(catalog: Catalog | None, path: str) -> list[OtherValue]:
    """The values other sources give the figure at ``path`` (none for most figures)."""
    if catalog is None:
        return []
    quantity, times = _quantity(catalog, path)
    if quantity is None or not quantity.also:
        return []
    out = []
    for other in quantity.also:
        unit = other.unit or quantity.unit
        base, factor = base_unit(unit)
        out.append(OtherValue(other.value * times * factor, base, other.value * times, unit, other.source, other.why))
    return out
