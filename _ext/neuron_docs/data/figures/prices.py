"""Instance prices with their basis: several per instance, chosen by an explicit basis, checked for age.

An instance has its on-demand price in ``instances.yaml`` (the seed analysis's prices) and any
number of priced records in ``prices.yaml`` (``basis`` on-demand or reserved-effective, ``term``,
``region``, ``source``, ``as_of``; the published price tables are imported there). :func:`prices_of`
lists them all as :class:`PriceQuote`; :func:`price_for` picks the one a cost uses, by basis (and
the generation of the published table it serves); :func:`price_note` says in words which price a
cost used; :func:`stale_prices` finds prices older than a given age, measured against the newest
as-of date of the data set itself (never the clock, so builds stay reproducible). No Sphinx here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..records.labels import PRICE_BASIS_TEXT
from .formatting import shown_price
from ..files.loader import DataError

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..catalog import Catalog

#: The price basis of every cost on the published-benchmark pages, as the published pages use it.
PUBLISHED_PRICE_BASIS = "reserved-effective"
#: The basis of an instance's price in ``instances.yaml``: what a reader without a reservation pays.
ON_DEMAND_PRICE_BASIS = "on-demand"
#: The price basis of the seed analysis's costs (``instances.yaml``).
SEED_PRICE_BASIS = ON_DEMAND_PRICE_BASIS


@dataclass(frozen=True)
class PriceQuote:
    """One hourly price of an instance and what kind of price it is."""

    instance: str
    usd_per_hour: float
    basis: str
    source: str
    as_of: dt.date
    term: str | None = None
    region: str | None = None
    #: The ``prices.yaml`` record, or None for the on-demand price of ``instances.yaml``.
    price_id: str | None = None
    #: The published price table it was imported from (None when typed by hand).
    table: str | None = None


def prices_of(catalog: Catalog, instance_id: str) -> list[PriceQuote]:
    """Every price of an instance: its ``instances.yaml`` on-demand price, then those of ``prices.yaml``."""
    out = []
    instance = catalog.instances.get(instance_id)
    if instance is not None and instance.price is not None:
        out.append(PriceQuote(instance.id, instance.price.usd_per_hour, SEED_PRICE_BASIS, instance.price.source,
                              instance.price.as_of))
    out.extend(PriceQuote(p.instance, float(p.usd_per_hour), p.basis, p.source, p.as_of, p.term, p.region, p.id,
                          p.table) for p in catalog.prices.values() if p.instance == instance_id)
    return out


def price_for(catalog: Catalog, instance_id: str, basis: str, generation: str | None = None) -> PriceQuote | None:
    """The price of ``instance_id`` on ``basis``: one of a published price table of ``generation`` if
    there is one, else the newest of that basis (None when the instance has no price on that basis)."""
    quotes = [q for q in prices_of(catalog, instance_id) if q.basis == basis]
    if generation is not None:
        tables = catalog.published_tables
        same = [q for q in quotes if q.table in tables and tables[q.table].generation == generation]
        quotes = same or quotes
    return max(quotes, key=lambda q: q.as_of, default=None)


#: What a price's source may leave unsaid, in the order a note names them.
UNSTATED_FACETS = ("term", "region")


def unstated(quote: PriceQuote) -> tuple[str, ...]:
    """What the price's source does not say of it: ``("term", "region")`` (an on-demand price has no term)."""
    unknown = [name for name, value in zip(UNSTATED_FACETS, (quote.term, quote.region), strict=True) if value is None]
    if quote.basis == SEED_PRICE_BASIS and "term" in unknown:
        unknown.remove("term")
    return tuple(unknown)


def price_note(quote: PriceQuote, *, caveat: bool = True) -> str:
    """Which price a cost used, in words: ``RI-effective $0.328/h, as of 2026-08-21 (term and region not stated)``;
    without ``caveat`` the parenthesis is left to a note said once for a whole table (:func:`unstated_note`)."""
    known = ", ".join(v for v in (quote.term, quote.region) if v)
    text = f"{PRICE_BASIS_TEXT.get(quote.basis, quote.basis)} {shown_price(quote.usd_per_hour)}"
    text += f" ({known})" if known else ""
    text += f", as of {quote.as_of.isoformat()}"
    if caveat and (unknown := unstated(quote)):
        text += f" ({' and '.join(unknown)} not stated)"
    return text


def unstated_note(quotes: Iterable[PriceQuote]) -> str | None:
    """Said once under a table whose prices are named without their caveat: ``Not stated by the source of
    these prices: term and region.`` (``of some of these prices`` when not all of them); None if nothing is."""
    return unstated_sentence([unstated(quote) for quote in quotes])


def unstated_sentence(gaps: Sequence[Sequence[str]]) -> str | None:
    """:func:`unstated_note` from what each price leaves unsaid (:func:`unstated`)."""
    missing = [name for name in UNSTATED_FACETS if any(name in gap for gap in gaps)]
    if not missing:
        return None
    whose = "these prices" if all(set(missing) <= set(gap) for gap in gaps) else "some of these prices"
    return f"Not stated by the source of {whose}: {' and '.join(missing)}."


def unstated_sentences() -> dict[str, Any]:
    """Every sentence :func:`unstated_sentence` can say, for a script that says it in the reader's
    browser: the facets in order, and by the facets left unsaid (joined with ``|``) the sentence
    when every price leaves them unsaid (``all``) and when only some do (``some``)."""
    subsets = [[f for i, f in enumerate(UNSTATED_FACETS) if mask >> i & 1]
               for mask in range(1, 2 ** len(UNSTATED_FACETS))]
    return {"facets": list(UNSTATED_FACETS),
            "sentences": {"|".join(m): {"all": unstated_sentence([m]), "some": unstated_sentence([m, []])}
                          for m in subsets}}


def newest_as_of(catalog: Catalog) -> dt.date | None:
    """The newest as-of date of any price in the data set: what a price's age is measured against."""
    dates = [i.price.as_of for i in catalog.instances.values() if i.price] + [p.as_of for p in catalog.prices.values()]
    return max(dates, default=None)


def stale_prices(catalog: Catalog, max_age_days: int) -> list[DataError]:
    """Every price older than ``max_age_days`` before the newest as-of date of the data set, located."""
    newest = newest_as_of(catalog)
    if newest is None or max_age_days <= 0:
        return []
    out = []
    limit = newest - dt.timedelta(days=max_age_days)
    for instance in catalog.instances.values():
        if instance.price is not None and instance.price.as_of < limit:
            out.append(_stale(catalog, "instances", instance.id, "price.as_of", instance.price.as_of, newest,
                              max_age_days))
    for price in catalog.prices.values():
        if price.as_of < limit:
            out.append(_stale(catalog, "prices", price.id, "as_of", price.as_of, newest, max_age_days))
    return out


def _stale(catalog: Catalog, collection: str, record_id: str, field: str, as_of: dt.date, newest: dt.date,
           max_age_days: int) -> DataError:
    file, line = catalog.origin(collection, record_id)
    age = (newest - as_of).days
    return DataError(file, line, f"{record_id}: {field}",
                     f"price as of {as_of.isoformat()} is {age} days older than the newest price of the data set "
                     f"({newest.isoformat()}); expected at most {max_age_days} days (neuron_price_max_age_days): "
                     "check the price and update its as_of")
