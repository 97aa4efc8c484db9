"""The rules of ``data/checking/references.py`` on records built in the test (no data files, no
Sphinx): which ids each kind of record refers to, the rules that span records, and the message of a
reference that does not resolve. Light (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); the loading of the real data pins the same rules end to end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import Broken, Catalog
from neuron_docs.data.checking import references as r
from neuron_docs.data.checking.references import _choices, consistency_problems, dangling_message, references_of
from neuron_docs.data.records import models as s
from neuron_docs.data.records.model_sizes import ModelSize, ModelSizeGap


def q(source: str, *also: str) -> s.Quantity:
    return s.Quantity.model_construct(value=1, unit="GB", label="x", source=source,
                                      also=[s.OtherSource.model_construct(value=1, source=a, why="w") for a in also])


def refs(collection: str, record: Any) -> list[tuple[tuple[Any, ...], str, str]]:
    return list(references_of(collection, record))


# -- references_of ------------------------------------------------------------------------------------

def test_a_device_refers_to_its_source_and_each_specs_sources() -> None:
    device = s.Device.model_construct(id="d", source="src", specs={"mem": q("a", "b", "c"), "bw": q("e")})
    assert refs("devices", device) == [
        (("source",), "sources", "src"),
        (("specs", "mem", "source"), "sources", "a"),
        (("specs", "mem", "also", 0, "source"), "sources", "b"),
        (("specs", "mem", "also", 1, "source"), "sources", "c"),
        (("specs", "bw", "source"), "sources", "e"),
    ]


def test_an_instance_refers_to_its_device_its_price_source_and_specs() -> None:
    priced = s.Instance.model_construct(id="i", device="dev", source=None, specs={"m": q("a")},
                                        price=s.Price.model_construct(usd_per_hour=1, source="p", as_of="2024-01-01"))
    assert refs("instances", priced) == [(("device",), "devices", "dev"), (("price", "source"), "sources", "p"),
                                         (("specs", "m", "source"), "sources", "a")]
    unpriced = s.Instance.model_construct(id="i", device="dev", source="src", specs={}, price=None)
    assert refs("instances", unpriced) == [(("source",), "sources", "src"), (("device",), "devices", "dev")]


def test_a_framework_family_and_known_issue_refer_to_each_listed_id() -> None:
    framework = s.Framework.model_construct(id="f", devices=["d1", "d2"])
    assert refs("frameworks", framework) == [(("devices", 0), "devices", "d1"), (("devices", 1), "devices", "d2")]
    family = s.Family.model_construct(id="fa", category="cat", devices={"d1": None, "d2": None})
    assert refs("families", family) == [(("category",), "categories", "cat"), (("devices", "d1"), "devices", "d1"),
                                        (("devices", "d2"), "devices", "d2")]
    issue = s.KnownIssue.model_construct(id="k", source="src", devices=["d1", "d2"], frameworks=["f1"],
                                         families=["fa1", "fa2"], limit=q("lim"))
    assert refs("known_issues", issue) == [
        (("source",), "sources", "src"), (("devices", 0), "devices", "d1"), (("devices", 1), "devices", "d2"),
        (("frameworks", 0), "frameworks", "f1"), (("families", 0), "families", "fa1"),
        (("families", 1), "families", "fa2"), (("limit", "source"), "sources", "lim")]
    unlimited = s.KnownIssue.model_construct(id="k", source="src", devices=[], frameworks=[], families=[], limit=None)
    assert refs("known_issues", unlimited) == [(("source",), "sources", "src")]


def test_a_model_refers_to_its_family_and_only_the_optional_fields_it_has() -> None:
    model = s.Model.model_construct(id="m", family="fa", same_as="pm", paper_top1=q("paper"))
    assert refs("models", model) == [(("family",), "families", "fa"), (("same_as",), "published_models", "pm"),
                                     (("paper_top1", "source"), "sources", "paper")]
    bare = s.Model.model_construct(id="m", family="fa", same_as=None, paper_top1=None)
    assert refs("models", bare) == [(("family",), "families", "fa")]


def test_environments_runs_experiments_and_comparisons_refer_to_what_they_name() -> None:
    environment = s.Environment.model_construct(id="e", instance="i", framework="f", source="src")
    assert refs("environments", environment) == [(("source",), "sources", "src"), (("instance",), "instances", "i"),
                                                 (("framework",), "frameworks", "f")]
    bare = s.Environment.model_construct(id="e", instance="i", framework=None, source="src")
    assert refs("environments", bare) == [(("source",), "sources", "src"), (("instance",), "instances", "i")]
    for kind in (s.InferenceRun, s.AccuracyRun):
        run = kind.model_construct(id="r", model="m", environment="e", source="src")
        assert refs("inference_runs", run) == [(("source",), "sources", "src"), (("model",), "models", "m"),
                                               (("environment",), "environments", "e")]
    pp = [s.PricePerformance.model_construct(id=f"pp{n}", baseline=f"b{n}", candidate=f"c{n}", gain=q(f"g{n}"))
          for n in (0, 1)]
    experiment = s.Experiment.model_construct(id="x", family="fa", instances=["i0", "i1"], price_performance=pp,
                                              source="src")
    assert refs("experiments", experiment) == [
        (("source",), "sources", "src"), (("family",), "families", "fa"),
        (("instances", 0), "instances", "i0"), (("instances", 1), "instances", "i1"),
        (("price_performance", 0, "baseline"), "instances", "b0"),
        (("price_performance", 0, "candidate"), "instances", "c0"),
        (("price_performance", 0, "gain", "source"), "sources", "g0"),
        (("price_performance", 1, "baseline"), "instances", "b1"),
        (("price_performance", 1, "candidate"), "instances", "c1"),
        (("price_performance", 1, "gain", "source"), "sources", "g1")]
    comparison = s.Comparison.model_construct(id="c", subject="i1", baseline="i2", claimed=q("cl"))
    assert refs("comparisons", comparison) == [(("subject",), "instances", "i1"), (("baseline",), "instances", "i2"),
                                               (("claimed", "source"), "sources", "cl")]


def test_model_sizes_gaps_and_published_records_go_to_their_own_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(r, "size_references", lambda record: iter([(("size",), "models", record.id)]))
    monkeypatch.setattr(r, "gap_references", lambda record: iter([(("gap",), "models", record.id)]))
    monkeypatch.setattr(r, "published_references",
                        lambda collection, record: iter([((collection,), "published_tables", record.id)]))
    assert refs("model_sizes", ModelSize.model_construct(id="ms")) == [(("size",), "models", "ms")]
    assert refs("model_size_gaps", ModelSizeGap.model_construct(id="mg")) == [(("gap",), "models", "mg")]
    claim = s.Claim.model_construct(id="cl", source=None)
    assert refs("claims", claim) == [(("claims",), "published_tables", "cl")]


# -- consistency_problems -----------------------------------------------------------------------------

def catalog(**collections: dict[str, Any]) -> Catalog:
    cat = Catalog(data_dir=Path("."))
    for name, records in collections.items():
        cat.records[name] = records
    return cat


def problems(collection: str, record: Any, cat: Catalog) -> list[tuple[tuple[Any, ...], str]]:
    return list(consistency_problems(collection, record, cat))


@pytest.fixture
def no_other_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules of other modules stand aside, but say when they are asked."""
    monkeypatch.setattr(r, "same_as_problems", lambda collection, record, catalog: iter(()))
    monkeypatch.setattr(r, "size_problems", lambda record, catalog: iter([(("size",), f"size {record.id}")]))
    monkeypatch.setattr(r, "gap_problems", lambda record, catalog: iter([(("gap",), f"gap {record.id}")]))


def test_consistency_asks_the_identity_and_size_rules(monkeypatch: pytest.MonkeyPatch, no_other_rules: None) -> None:
    monkeypatch.setattr(r, "same_as_problems", lambda collection, record, catalog: iter([(("same_as",), collection)]))
    cat = catalog()
    assert problems("model_sizes", ModelSize.model_construct(id="ms"), cat) == [(("same_as",), "model_sizes"),
                                                                               (("size",), "size ms")]
    assert problems("model_size_gaps", ModelSizeGap.model_construct(id="mg"), cat) == [
        (("same_as",), "model_size_gaps"), (("gap",), "gap mg")]
    assert problems("claims", s.Claim.model_construct(id="c"), cat) == [(("same_as",), "claims")]


def _model(model_id: str, *variants: str) -> s.Model:
    return s.Model.model_construct(id=model_id, family="fa", same_as=None, paper_top1=None,
                                   variants=[s.Variant.model_construct(id=v) for v in variants])


def _run(variant: str | None, model: str = "m", throughput: float | None = None) -> s.InferenceRun:
    return s.InferenceRun.model_construct(id="r", model=model, variant=variant, environment="e",
                                          throughput_per_s=throughput, source="src")


def test_a_run_names_a_variant_of_its_model(no_other_rules: None) -> None:
    cat = catalog(models={"m": _model("m", "bf16", "fp8")})
    assert problems("inference_runs", _run("bf16"), cat) == []
    assert problems("inference_runs", _run(None), cat) == []
    [(field, message)] = problems("inference_runs", _run("bf61"), cat)
    assert field == ("variant",)
    assert message == ("unknown variant 'bf61' of model 'm' (did you mean 'bf16'?); expected one of: bf16, fp8")
    [(_f, message)] = problems("inference_runs", _run("zzzzzz"), cat)
    assert message == "unknown variant 'zzzzzz' of model 'm'; expected one of: bf16, fp8"
    bare = catalog(models={"m": _model("m")})
    [(_f, message)] = problems("inference_runs", _run("v"), bare)
    assert message.endswith("expected one of: (none)")
    # an unknown model is the reference's error, not the variant's
    assert problems("inference_runs", _run("v", model="other"), cat) == []


def test_parts_whose_dotted_paths_collide_with_an_earlier_records(no_other_rules: None) -> None:
    first, second = _model("a", "b.c"), _model("a.b", "c", "d")
    cat = catalog(models={"a": first, "a.b": second})
    assert problems("models", first, cat) == []  # the earlier record is not the one to rename
    [(field, message)] = problems("models", second, cat)
    assert field == ("variants", 0, "id")
    assert message == ("the figures of 'a.b' 'c' would have the paths model:a.b.c:..., which are those of 'a' 'b.c'; "
                       "expected ids that give distinct paths (rename one of them)")
    # a record after this one is not looked at; a prefix with other parts is no collision
    later = catalog(models={"a.b": second, "a": first})
    assert problems("models", second, later) == []
    apart = catalog(models={"a": _model("a", "b.x"), "a.b": second})
    assert problems("models", second, apart) == []
    # not a dotted collection: no such rule
    assert problems("claims", second, cat) == []


def test_price_performance_parts_collide_as_well(no_other_rules: None) -> None:
    def experiment(xid: str, *parts: str) -> s.Experiment:
        return s.Experiment.model_construct(id=xid, family="fa", instances=[], source="src", price_performance=[
            s.PricePerformance.model_construct(id=p, baseline="i", candidate="i") for p in parts])
    first, second = experiment("x", "y.z"), experiment("x.y", "w", "z")
    cat = catalog(experiments={"x": first, "x.y": second})
    [(field, message)] = problems("experiments", second, cat)
    assert field == ("price_performance", 1, "id") and "priceperf:x.y.z:..." in message


def _instance(instance_id: str, priced: bool = True, specs: dict[str, Any] | None = None,
              device: str = "dev") -> s.Instance:
    price = s.Price.model_construct(usd_per_hour=1, source="p", as_of="2024-01-01") if priced else None
    return s.Instance.model_construct(id=instance_id, device=device, device_count=2, price=price, specs=specs or {},
                                      efa_gbps=None, source=None)


def test_a_comparisons_metric_is_a_spec_of_both_instances(no_other_rules: None) -> None:
    device = s.Device.model_construct(id="dev", specs={"hbm": q("s")}, source="s")
    cat = catalog(devices={"dev": device, "bare": s.Device.model_construct(id="bare", specs={}, source="s")},
                  instances={"own": _instance("own", specs={"tflops": q("s")}, device="bare"), "dev": _instance("dev"),
                             "none": _instance("none", device="bare")})

    def comparison(subject: str, baseline: str, metric: str) -> s.Comparison:
        return s.Comparison.model_construct(id="c", subject=subject, baseline=baseline, metric=metric, claimed=q("s"))

    assert problems("comparisons", comparison("dev", "dev", "hbm"), cat) == []
    assert problems("comparisons", comparison("own", "own", "tflops"), cat) == []
    assert problems("comparisons", comparison("unknown", "other-unknown", "hbm"), cat) == []
    assert problems("comparisons", comparison("dev", "none", "hbm"), cat) == [
        (("metric",), "instance 'none' has no value for metric 'hbm'; expected a spec of the instance or of its device")]
    assert [m for _f, m in problems("comparisons", comparison("none", "dev", "hbm"), cat)] == [
        "instance 'none' has no value for metric 'hbm'; expected a spec of the instance or of its device"]
    assert len(problems("comparisons", comparison("own", "none", "hbm"), cat)) == 2


def test_a_run_or_experiment_costed_at_an_unpriced_instance(no_other_rules: None) -> None:
    environment = s.Environment.model_construct(id="e", instance="cheap", source="s")
    cat = catalog(instances={"cheap": _instance("cheap", priced=False), "priced": _instance("priced")},
                  environments={"e": environment,
                                "p": s.Environment.model_construct(id="p", instance="priced", source="s")},
                  models={"m": _model("m")})
    [(field, message)] = problems("inference_runs", _run(None, throughput=10.0), cat)
    assert field == ("environment",)
    assert message == ("instance 'cheap' has no on-demand price (instances.yaml gives none), and its cost per 1M "
                       "inferences is computed from it; expected a priced instance")
    assert problems("inference_runs", _run(None, throughput=None), cat) == []
    priced_run = s.InferenceRun.model_construct(id="r", model="m", variant=None, environment="p",
                                                throughput_per_s=10.0, source="s")
    assert problems("inference_runs", priced_run, cat) == []
    lost = s.InferenceRun.model_construct(id="r", model="m", variant=None, environment="gone", throughput_per_s=1.0,
                                          source="s")
    assert problems("inference_runs", lost, cat) == []
    experiment = s.Experiment.model_construct(id="x", family="fa", instances=[], source="s", price_performance=[
        s.PricePerformance.model_construct(id="a", baseline="priced", candidate="cheap"),
        s.PricePerformance.model_construct(id="b", baseline="cheap", candidate="nowhere")])
    assert [(f, m.split(",")[1]) for f, m in problems("experiments", experiment, catalog(
        instances=cat.instances, experiments={"x": experiment}))] == [
        (("price_performance", 0, "candidate"), " and the price ratio is computed from it; expected a priced instance"),
        (("price_performance", 1, "baseline"), " and the price ratio is computed from it; expected a priced instance")]


# -- dangling_message ---------------------------------------------------------------------------------

def test_a_dangling_reference_says_why_and_what_was_expected() -> None:
    cat = catalog(instances={"trn1.2xlarge": None, "inf2.xlarge": None})
    assert dangling_message(cat, "instances", "trn1.2xlarg") == (
        "unknown instance 'trn1.2xlarg' (did you mean 'trn1.2xlarge'?); expected one of: inf2.xlarge, trn1.2xlarge")
    assert dangling_message(cat, "instances", "zzz") == "unknown instance 'zzz'; expected one of: inf2.xlarge, trn1.2xlarge"
    assert dangling_message(catalog(), "devices", "d") == "unknown device 'd'; expected one of: (none)"


def test_a_reference_to_a_record_set_aside_points_at_the_record() -> None:
    cat = catalog()
    cat.broken = [Broken("devices", "other", "devices.yaml", 3, []), Broken("instances", "d", "instances.yaml", 4, []),
                  Broken("devices", "d", "devices.yaml", 9, []), Broken("devices", "e", "devices.yaml", None, [])]
    assert dangling_message(cat, "devices", "d") == ("device 'd' could not be loaded (see devices.yaml:9); "
                                                     "expected a valid device")
    assert dangling_message(cat, "devices", "e") == ("device 'e' could not be loaded (see devices.yaml); "
                                                     "expected a valid device")


def test_a_reference_into_a_file_that_could_not_be_read() -> None:
    cat = catalog(devices={"d": None})
    name = cat.file_of("devices")
    cat.failed_files = {name}
    assert dangling_message(cat, "devices", "x") == (f"unknown device 'x' ({name} could not be read); "
                                                     f"expected a device defined in {name}")


def test_the_choices_listed_are_the_first_twelve_sorted() -> None:
    assert _choices({}) == "(none)"
    assert _choices({"b": None, "a": None}) == "a, b"
    twelve = {f"id{n:02}": None for n in range(12, 0, -1)}
    assert _choices(twelve) == ", ".join(f"id{n:02}" for n in range(1, 13))
    thirteen = {**twelve, "id13": None}
    assert _choices(thirteen) == ", ".join(f"id{n:02}" for n in range(1, 13)) + ", ... (13 in all)"


def test_every_collection_has_a_singular_in_messages() -> None:
    assert r.SINGULAR["known_issues"] == "known issue" and r.SINGULAR["errata"] == "erratum"
    assert dangling_message(catalog(), "errata", "x").startswith("unknown erratum 'x'")


# -- written for the survivors of make mutation (tests/MUTATION.md) -----------------------------------

def _runtime(text: str) -> str:
    """``text`` as a string built at run time (equal, not the same object): as read from a file."""
    return "".join(list(text))


def test_a_record_set_aside_is_matched_by_collection_and_id_by_value() -> None:
    cat = catalog()
    cat.broken = [Broken(_runtime("devices"), _runtime("dev-1"), "devices.yaml", 9, [])]
    assert cat.broken[0].record_id is not "dev-1"  # noqa: F632 - the point: equal, not the same object
    assert dangling_message(cat, "devices", "dev-1").startswith("device 'dev-1' could not be loaded")
    # a record of another collection with the same id is not the one named (whichever sorts first)
    assert dangling_message(cat, "instances", "dev-1").startswith("unknown instance 'dev-1'")
    cat.broken = [Broken("sources", "dev-1", "sources.yaml", 2, [])]
    assert dangling_message(cat, "devices", "dev-1").startswith("unknown device 'dev-1'")


def test_the_records_before_this_one_are_found_by_id_by_value(no_other_rules: None) -> None:
    first, second = _model("a", "b.c"), _model("a.b", "c", "d")
    # the catalog's keys read from the file: equal to the records' ids, not the same objects
    later = catalog(models={_runtime("a.b"): second, _runtime("a"): first})
    assert problems("models", second, later) == []


def test_an_earlier_record_whose_id_sorts_after_this_ones_is_still_looked_at(no_other_rules: None) -> None:
    first, second = _model("a.b", "c"), _model("a", "b.c")
    cat = catalog(models={"a.b": first, "a": second})
    [(field, message)] = problems("models", second, cat)
    assert field == ("variants", 0, "id") and "which are those of 'a.b' 'c'" in message
