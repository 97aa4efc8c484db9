"""Instance prices with their basis (``data/figures/prices.py``) on records built in the test: every
price of an instance, the one a cost uses (by basis, the published table's generation, the newest),
what a price's source leaves unsaid and the note that says which price a cost used, and the prices
older than the data set's newest by more than an age. No data files, no Sphinx (``make mutation``
runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.prices import (ON_DEMAND_PRICE_BASIS, PUBLISHED_PRICE_BASIS, PriceQuote, newest_as_of,
                                             price_for, price_note, prices_of, stale_prices, unstated, unstated_note,
                                             unstated_sentence, unstated_sentences)
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps

D = dt.date.fromisoformat


def name(*parts: str) -> str:
    """A text made at run time, as one read from a file is: equal to the code's literal, not the same object."""
    return "".join(parts)


def price(pid: str, instance: str, usd: float, basis: str, as_of: str, table: str | None = None,
          term: str | None = None, region: str | None = None) -> ps.InstancePrice:
    return ps.InstancePrice.model_construct(id=pid, instance=instance, usd_per_hour=usd, basis=basis, term=term,
                                            region=region, source="src", as_of=D(as_of), table=table)


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["instances"] = {
        "inf2.xlarge": s.Instance.model_construct(id="inf2.xlarge", price=s.Price.model_construct(
            usd_per_hour=0.76, source="aws", as_of=D("2026-01-10"))),
        "trn1.2xlarge": s.Instance.model_construct(id="trn1.2xlarge", price=None),
    }
    cat.records["published_tables"] = {
        # a generation as a file gives it: equal to the code's literal, not the same object
        "t-inf2": ps.PublishedTable.model_construct(id="t-inf2", generation=name("inf", "2")),
        "t-trn1": ps.PublishedTable.model_construct(id="t-trn1", generation="trn1"),
        "t-trn2": ps.PublishedTable.model_construct(id="t-trn2", generation="trn2"),
    }
    cat.records["prices"] = {
        "p-old": price("p-old", name("inf2", ".xlarge"), 0.50, name("reserved", "-effective"), "2025-06-01", "t-inf2",
                       term="1-year"),
        "p-new": price("p-new", "inf2.xlarge", 0.45, "reserved-effective", "2026-02-01", region="us-east-1"),
        "p-trn": price("p-trn", "trn1.2xlarge", 1.10, "reserved-effective", "2025-12-01", "t-trn1"),
        "p-trn2gen": price("p-trn2gen", "trn1.2xlarge", 1.00, "reserved-effective", "2026-01-20", "t-trn2"),
        "p-trn-od": price("p-trn-od", "trn1.2xlarge", 2.00, "on-demand", "2026-02-15"),
        "p-od": price("p-od", "inf2.xlarge", 0.80, name("on", "-demand"), "2026-03-01", region="us-west-2"),
        "p-lost": price("p-lost", "inf2.xlarge", 0.30, "reserved-effective", "2026-04-01", "t-unknown"),
    }
    return cat


def test_every_price_of_an_instance_its_own_first() -> None:
    cat = catalog()
    quotes = prices_of(cat, "inf2.xlarge")
    assert quotes[0] == PriceQuote("inf2.xlarge", 0.76, ON_DEMAND_PRICE_BASIS, "aws", D("2026-01-10"))
    assert [q.price_id for q in quotes] == [None, "p-old", "p-new", "p-od", "p-lost"]
    assert quotes[1] == PriceQuote("inf2.xlarge", 0.50, "reserved-effective", "src", D("2025-06-01"), "1-year", None,
                                   "p-old", "t-inf2")
    assert [q.price_id for q in prices_of(cat, "trn1.2xlarge")] == ["p-trn", "p-trn2gen", "p-trn-od"]  # none of its own
    assert prices_of(cat, "inf1.xlarge") == []  # no such instance
    assert [q.price_id for q in prices_of(cat, "inf2")] == []  # an instance id sorting before


def test_the_price_a_cost_uses_by_basis_generation_and_date() -> None:
    cat = catalog()
    assert price_for(cat, "inf2.xlarge", ON_DEMAND_PRICE_BASIS).price_id == "p-od"  # type: ignore[union-attr]
    # the newest of the basis, whatever table it is of
    assert price_for(cat, "inf2.xlarge", PUBLISHED_PRICE_BASIS).price_id == "p-lost"  # type: ignore[union-attr]
    # one of a published table of the generation, even an older one
    assert price_for(cat, "inf2.xlarge", PUBLISHED_PRICE_BASIS, "inf2").price_id == "p-old"  # type: ignore[union-attr]
    # no table of that generation: the newest of the basis
    assert price_for(cat, "inf2.xlarge", PUBLISHED_PRICE_BASIS, "trn2").price_id == "p-lost"  # type: ignore[union-attr]
    # of the generation asked for, not of one sorting after it
    assert price_for(cat, "trn1.2xlarge", PUBLISHED_PRICE_BASIS, "trn1").price_id == "p-trn"  # type: ignore[union-attr]
    # of the basis asked for, not of one sorting before it, however new
    assert price_for(cat, "trn1.2xlarge", PUBLISHED_PRICE_BASIS).price_id == "p-trn2gen"  # type: ignore[union-attr]
    assert price_for(cat, "trn1.2xlarge", ON_DEMAND_PRICE_BASIS).price_id == "p-trn-od"  # type: ignore[union-attr]
    assert price_for(cat, "trn1.2xlarge", ON_DEMAND_PRICE_BASIS, "trn1").price_id == "p-trn-od"  # type: ignore[union-attr]
    assert price_for(cat, "inf1.xlarge", ON_DEMAND_PRICE_BASIS) is None


def quote(basis: str, term: str | None = None, region: str | None = None, usd: float = 0.328) -> PriceQuote:
    return PriceQuote("i", usd, basis, "src", D("2026-08-21"), term, region)


def test_what_a_prices_source_leaves_unsaid() -> None:
    assert unstated(quote("reserved-effective")) == ("term", "region")
    assert unstated(quote("reserved-effective", "1-year")) == ("region",)
    assert unstated(quote("reserved-effective", region="us-east-1")) == ("term",)
    assert unstated(quote(name("on", "-demand"))) == ("region",)  # an on-demand price has no term
    assert unstated(quote("on-demand", region="us-east-1")) == ()
    assert unstated(quote("spot")) == ("term", "region")  # a basis sorting after on-demand
    assert unstated(quote("capacity-block")) == ("term", "region")  # and one sorting before


def test_the_note_of_the_price_a_cost_used() -> None:
    assert price_note(quote("reserved-effective")) == "RI-effective $0.328/h, as of 2026-08-21 (term and region not stated)"
    assert price_note(quote("reserved-effective"), caveat=False) == "RI-effective $0.328/h, as of 2026-08-21"
    assert price_note(quote("reserved-effective", "3-year", "us-east-1")) == (
        "RI-effective $0.328/h (3-year, us-east-1), as of 2026-08-21")
    assert price_note(quote("reserved-effective", None, "us-east-1")) == (
        "RI-effective $0.328/h (us-east-1), as of 2026-08-21 (term not stated)")
    assert price_note(quote("on-demand", usd=1.5)) == "on-demand $1.5/h, as of 2026-08-21 (region not stated)"
    assert price_note(quote("spot", "1-year")) == "spot $0.328/h (1-year), as of 2026-08-21 (region not stated)"


def test_a_price_quote_is_immutable() -> None:
    from dataclasses import FrozenInstanceError
    with pytest.raises(FrozenInstanceError):
        quote("on-demand").usd_per_hour = 1.0  # type: ignore[misc]


def test_the_note_said_once_under_a_table() -> None:
    assert unstated_note([]) is None
    assert unstated_note([quote("on-demand", region="r")]) is None
    assert unstated_note([quote("reserved-effective")]) == "Not stated by the source of these prices: term and region."
    assert unstated_note([quote("reserved-effective"), quote("on-demand")]) == (
        "Not stated by the source of some of these prices: term and region.")
    assert unstated_note([quote("on-demand"), quote("reserved-effective", "1-year")]) == (
        "Not stated by the source of these prices: region.")
    assert unstated_sentence([("region", "term")]) == "Not stated by the source of these prices: term and region."
    assert unstated_sentence([("term",), ()]) == "Not stated by the source of some of these prices: term."


def test_every_sentence_for_the_readers_browser() -> None:
    assert unstated_sentences() == {"facets": ["term", "region"], "sentences": {
        "term": {"all": "Not stated by the source of these prices: term.",
                 "some": "Not stated by the source of some of these prices: term."},
        "region": {"all": "Not stated by the source of these prices: region.",
                   "some": "Not stated by the source of some of these prices: region."},
        "term|region": {"all": "Not stated by the source of these prices: term and region.",
                        "some": "Not stated by the source of some of these prices: term and region."}}}


def test_the_newest_price_of_the_data_set() -> None:
    cat = catalog()
    assert newest_as_of(cat) == D("2026-04-01")
    cat.records["prices"] = {}
    assert newest_as_of(cat) == D("2026-01-10")  # the instances' own
    cat.records["instances"] = {}
    assert newest_as_of(cat) is None


def test_prices_older_than_the_newest_by_more_than_an_age_are_located() -> None:
    cat = catalog()
    cat.lines["prices"] = {"p-old": 12, "p-trn": 30}
    cat.lines["instances"] = {"inf2.xlarge": 4}
    # the newest is 2026-04-01; 81 days before it is 2026-01-10, the instance's own price: not older
    assert [e.field for e in stale_prices(cat, 81)] == ["p-old: as_of", "p-trn: as_of"]
    errors = stale_prices(cat, 80)
    assert [(e.file, e.line, e.field) for e in errors] == [
        (cat.file_of("instances"), 4, "inf2.xlarge: price.as_of"), (cat.file_of("prices"), 12, "p-old: as_of"),
        (cat.file_of("prices"), 30, "p-trn: as_of")]
    assert errors[1].message == (
        "price as of 2025-06-01 is 304 days older than the newest price of the data set (2026-04-01); "
        "expected at most 80 days (neuron_price_max_age_days): check the price and update its as_of")
    assert [e.field for e in stale_prices(cat, 121)] == ["p-old: as_of"]  # 2025-12-01 is 121 days before
    assert [e.field for e in stale_prices(cat, 1)] == [  # all but the newest, a day and more older
        "inf2.xlarge: price.as_of", "p-old: as_of", "p-new: as_of", "p-trn: as_of", "p-trn2gen: as_of",
        "p-trn-od: as_of", "p-od: as_of"]
    assert stale_prices(cat, 0) == [] and stale_prices(cat, -5) == []  # no age limit
    assert stale_prices(cat, 1000) == []
    cat.records["prices"], cat.records["instances"] = {}, {}
    assert stale_prices(cat, 1) == []
