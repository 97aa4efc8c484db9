"""How records are addressed by figure paths (``kind:id:field``): the parts that have paths of their own."""

from __future__ import annotations

#: Collections whose parts have figures of their own, at ``kind:<record>.<part>:field``:
#: collection -> (path kind, the field holding the parts).
DOTTED_PARTS = {"models": ("model", "variants"), "experiments": ("priceperf", "price_performance")}
