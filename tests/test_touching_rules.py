"""Where a record set aside would have appeared (``data/checking/touching.py``), on records and records
set aside built in the test: the ids a record places itself by, the devices it reaches through loaded
and set-aside records, which records a device's page shows as set aside, and why a value is missing.
No data files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``)."""

from __future__ import annotations

import datetime as dt
import pickle
from pathlib import Path

from neuron_docs.data.catalog import Broken, Catalog
from neuron_docs.data.checking.touching import (_index, broken_touching, devices_touched, raw_refs, refused_devices,
                                                set_aside, set_aside_pages, set_aside_value, value_record)
from neuron_docs.data.records import history as hs
from neuron_docs.data.records import models as s


def aside(collection: str, record_id: str | None, *refs: tuple[str, str], line: int | None = 5) -> Broken:
    return Broken(collection, record_id, "f.yaml", line, [], tuple(refs))


def catalog(*broken: Broken) -> Catalog:
    cat = Catalog(Path("."))
    cat.records["devices"] = {d: s.Device.model_construct(id=d, source="src", specs={}) for d in ("d1", "d2", "d3")}
    cat.records["instances"] = {
        "i1": s.Instance.model_construct(id="i1", device="d1", source="src", specs={}, price=None),
        "i2": s.Instance.model_construct(id="i2", device="d2", source="src", specs={}, price=None)}
    cat.records["environments"] = {"e1": s.Environment.model_construct(id="e1", instance="i1", framework="fw",
                                                                       source="src")}
    cat.broken.extend(broken)
    return cat


# -- raw_refs ---------------------------------------------------------------------------------------------

def test_what_a_record_that_did_not_validate_names_in_its_placing_fields() -> None:
    assert raw_refs("instances", {"id": "i", "device": "d1", "source": "s"}) == (("devices", "d1"),)
    assert raw_refs("frameworks", {"devices": ["d1", 3, "", "d2"]}) == (("devices", "d1"), ("devices", "d2"))
    assert raw_refs("families", {"devices": {"d1": {}, "d2": None}}) == (("devices", "d1"), ("devices", "d2"))
    assert raw_refs("comparisons", {"subject": "i1", "baseline": "i2"}) == (("instances", "i1"), ("instances", "i2"))
    assert raw_refs("comparisons", {"baseline": "i2"}) == (("instances", "i2"),)
    assert raw_refs("instances", {"device": 3}) == ()
    assert raw_refs("instances", {"device": ""}) == ()
    assert raw_refs("instances", None) == ()
    assert raw_refs("sources", {"device": "d1"}) == ()


def test_what_a_loaded_record_names_in_its_placing_fields() -> None:
    instance = s.Instance.model_construct(id="i", device="d1")
    assert raw_refs("instances", instance) == (("devices", "d1"),)
    experiment = s.Experiment.model_construct(id="x", instances=["i1", "i2"])
    assert raw_refs("experiments", experiment) == (("instances", "i1"), ("instances", "i2"))
    assert raw_refs("instances", s.Instance.model_construct(id="i")) == ()


# -- devices_touched ----------------------------------------------------------------------------------------

def test_a_device_set_aside_touches_itself_or_none() -> None:
    cat = catalog()
    assert devices_touched(cat, aside("devices", "d9", ("sources", "s"))) == {"d9"}
    assert devices_touched(cat, aside("devices", None, ("devices", "d1"))) == frozenset()


def test_devices_are_reached_through_loaded_placing_records() -> None:
    cat = catalog()
    run = aside("inference_runs", "r", ("environments", "e1"), ("models", "m"))
    assert devices_touched(cat, run) == {"d1"}
    assert devices_touched(cat, aside("comparisons", "c", ("instances", "i1"), ("instances", "i2"))) == {"d1", "d2"}
    assert devices_touched(cat, aside("frameworks", "f", ("devices", "d3"), ("devices", "d9"))) == {"d3", "d9"}


def test_devices_are_reached_through_records_set_aside_too() -> None:
    env = aside("environments", "e2", ("instances", "i9"))
    instance = aside("instances", "i9", ("devices", "d3"))
    run = aside("accuracy_runs", "r", ("environments", "e2"))
    cat = catalog(run, env, instance)
    assert devices_touched(cat, run) == {"d3"}
    assert devices_touched(cat, run, _index(cat)) == {"d3"}
    twice = aside("instances", "i9", ("devices", "d2"))
    assert devices_touched(catalog(run, env, instance, twice), run) == {"d2", "d3"}


def test_only_placing_references_are_followed() -> None:
    cat = catalog(aside("families", "fa", ("devices", "d3")), aside("sources", "src", ("devices", "d2")))
    cat.records["families"] = {"fa": s.Family.model_construct(id="fa", category="c", devices={"d3": None})}
    cat.records["models"] = {"m": s.Model.model_construct(id="m", family="fa", same_as=None)}
    run = aside("inference_runs", "r", ("models", "m"), ("families", "fa"), ("sources", "src"))
    assert devices_touched(cat, run) == frozenset()


def test_a_loop_of_references_ends() -> None:
    a = aside("instances", "ia", ("environments", "eb"))
    b = aside("environments", "eb", ("instances", "ia"), ("devices", "d2"))
    assert devices_touched(catalog(a, b), a) == {"d2"}


def test_a_published_run_without_refs_is_placed_by_its_configuration() -> None:
    config = aside("benchmark_configurations", "c1", ("instances", "i2"))
    run = aside("published_inference_runs", "c1")
    assert devices_touched(catalog(config, run), run) == {"d2"}
    unnamed = aside("published_inference_runs", None)
    assert devices_touched(catalog(config, unnamed), unnamed) == frozenset()
    own = aside("published_training_runs", "c1", ("instances", "i1"))
    assert devices_touched(catalog(config, own), own) == {"d1"}
    plain = aside("inference_runs", "c1")
    assert devices_touched(catalog(config, plain), plain) == frozenset()


def test_records_set_aside_without_an_id_are_not_looked_up() -> None:
    whole = aside("instances", None, ("devices", "d3"))
    cat = catalog(whole)
    assert _index(cat) == {}
    assert devices_touched(cat, aside("comparisons", "c", ("instances", "i9"))) == frozenset()


# -- broken_touching and refused_devices ----------------------------------------------------------------------

def test_a_page_shows_the_records_set_aside_that_touch_its_devices_or_may_touch_any() -> None:
    on_d1 = aside("inference_runs", "r1", ("environments", "e1"))
    on_d2 = aside("inference_runs", "r2", ("instances", "i2"))
    untold = aside("inference_runs", "r3", ("models", "m"))
    other = aside("comparisons", "c", ("instances", "i1"))
    cat = catalog(on_d1, on_d2, untold, other)
    assert broken_touching(cat, ["d1"], "inference_runs") == [on_d1, untold]
    assert broken_touching(cat, ["d2", "d3"], "inference_runs", "comparisons") == [on_d2, untold]
    assert broken_touching(cat, [], "inference_runs") == [on_d1, on_d2, untold]
    assert broken_touching(cat, iter(["d1"]), "comparisons") == [other]


def test_the_devices_set_aside_that_keep_their_page() -> None:
    cat = catalog(aside("devices", "d7"), aside("devices", "d1"), aside("devices", None),
                  aside("instances", "i8", ("devices", "d8")), aside("frameworks", "f", ("devices", "d2"),
                                                                     ("devices", "d7"), ("devices", "d9")))
    del cat.records["devices"]["d1"]
    assert refused_devices(cat) == ["d7", "d1", "d8", "d9"]
    named_only = catalog(aside("devices", "d7"), aside("instances", "i8", ("devices", "d8")))
    assert refused_devices(named_only) == ["d7"]
    none = catalog(aside("devices", "d1"))
    assert refused_devices(none) == []


# -- values of records set aside --------------------------------------------------------------------------

def test_a_data_path_is_a_value_of_one_record() -> None:
    cat = catalog()
    cat.records["models"] = {"m.v": s.Model.model_construct(id="m.v")}
    assert value_record(cat, "device:d1:memory") == ("devices", "d1")
    assert value_record(cat, "run:r1") == ("inference_runs", "r1")
    assert value_record(cat, "accuracy:a:top1") == ("accuracy_runs", "a")
    assert value_record(cat, "model:bert.large:params") == ("models", "bert")
    assert value_record(cat, "model:m.v:params") == ("models", "m.v")
    assert value_record(cat, "price:p:usd") == ("prices", "p")
    assert value_record(cat, "device::memory") is None
    assert value_record(cat, "nothing:d1:memory") is None
    assert value_record(cat, "instance.x:i1") is None


def test_why_a_record_is_missing_only_when_it_was_set_aside() -> None:
    cat = catalog(aside("devices", "d9", line=12))
    assert set_aside(cat, "devices", "d9") == "its record (devices.yaml:12) could not be loaded"
    assert set_aside(cat, "devices", "d1") is None
    assert set_aside(cat, "devices", "typo") is None
    assert set_aside(cat, "not_a_collection", "d9") is None
    cat.failed_files.add("instances.yaml")
    assert set_aside(cat, "instances", "i7") == "instances.yaml could not be read"


def test_why_a_value_is_missing() -> None:
    cat = catalog(aside("devices", "d9", line=12), aside("experiments", "x"))
    assert set_aside_value(cat, "device:d9:memory") == "its record (devices.yaml:12) could not be loaded"
    assert set_aside_value(cat, "device:d1:memory") is None
    assert set_aside_value(cat, "priceperf:x.y:ratio") == "records of training.yaml were set aside"
    assert set_aside_value(cat, "instance_family:trn1:memory") is None
    assert set_aside_value(cat, "other:x") is None
    assert set_aside_value(catalog(aside("instances", "i9")), "instance_family:trn1:memory") == (
        "records of instances.yaml were set aside")


def config(cid: str, generation: str, kind: str, withdrawn: dt.date | None = None) -> hs.BenchmarkConfiguration:
    return hs.BenchmarkConfiguration.model_construct(id=cid, generation=generation, kind=kind, withdrawn=withdrawn)


def test_the_pages_of_published_tables_set_aside() -> None:
    cat = catalog(aside("published_inference_runs", "c1"), aside("published_training_runs", "c2"),
                  aside("published_inference_runs", "gone"), aside("published_inference_runs", "old"),
                  aside("published_tables", "t", ("generations", "inf2"), ("table_kinds", "training")),
                  aside("published_tables", "u", ("generations", "trn1")),
                  aside("published_tables", "v", ("table_kinds", "inference")),
                  aside("published_tables", "w", ("generations", "trn2"), ("generations", "x"),
                        ("table_kinds", "inference"), ("table_kinds", "y")))
    cat.records["benchmark_configurations"] = {
        "c1": config("c1", "inf2", "inference"), "c2": config("c2", "trn1", "training"),
        "old": config("old", "inf1", "inference", withdrawn=dt.date(2024, 1, 1))}
    assert set_aside_pages(cat) == [("inf2", "inference"), ("trn1", "training"), ("inf2", "training"),
                                    ("trn2", "inference")]


def test_a_device_named_twice_does_not_stop_the_others_being_reached() -> None:
    framework = aside("frameworks", "f", ("devices", "d3"), ("devices", "d1"), ("devices", "d1"))
    assert devices_touched(catalog(framework), framework) == {"d1", "d3"}
    comparison = aside("comparisons", "c", ("instances", "i2"), ("instances", "i1"), ("instances", "i1"))
    assert devices_touched(catalog(comparison), comparison) == {"d1", "d2"}


def test_a_catalog_read_back_from_the_builds_cache_gives_the_same_answers() -> None:
    """The build keeps the catalog in a pickle: the texts of what it reads back (collections, the
    targets of references) are equal to the code's, not the same objects."""
    run = aside("inference_runs", "r", ("devices", "d3"))
    tables = [aside("published_tables", "t", ("generations", "inf2"), ("table_kinds", "training"))]
    cat = catalog(run, aside("devices", "d7"), aside("devices", None), aside("frameworks", "f", ("devices", "d8")),
                  *tables)
    back = pickle.loads(pickle.dumps(cat))
    assert devices_touched(back, back.broken[0]) == {"d3"}
    assert devices_touched(back, back.broken[1]) == {"d7"}
    assert refused_devices(back) == refused_devices(cat) == ["d7", "d8"]
    assert set_aside_pages(back) == set_aside_pages(cat) == [("inf2", "training")]


def test_only_devices_set_aside_or_named_by_records_set_aside_keep_a_page() -> None:
    cat = catalog(aside("comparisons", "c1", ("instances", "i9")), aside("accuracy_runs", None),
                  aside("instances", None), aside("instances", "i8", ("devices", "d8")),
                  aside("environments", "e9", ("instances", "i9")))
    assert refused_devices(cat) == []
    whole = catalog(aside("devices", None), aside("environments", "e9", ("instances", "i9")),
                    aside("benchmark_observations", "o", ("benchmark_configurations", "c9")),
                    aside("instances", "i8", ("devices", "d8")))
    assert refused_devices(whole) == ["d8"]


def test_a_record_whose_id_has_dots_is_the_value_of_that_record() -> None:
    cat = catalog()
    assert value_record(cat, "instance:inf2.xlarge:vcpus") == ("instances", "inf2.xlarge")
    assert value_record(cat, "run:r.1:latency") == ("inference_runs", "r.1")
    assert value_record(cat, "price:inf2.xlarge-2024:usd") == ("prices", "inf2.xlarge-2024")
