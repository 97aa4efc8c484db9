"""Every figure of a data set by path (``data/figures/values.py``) on records built in the test: the
figures of each kind of record, typed or derived, with their unit, label, source and the collections
a derived one reads; the mapping's lookups (a record's figures computed once per record, dotted
parts, missing paths), its iteration, its length and its path order. No data files, no Sphinx (``make
mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``); ``test_values_mapping.py``
checks the same mapping on the real data."""

from __future__ import annotations

import datetime as dt
import pickle
from dataclasses import FrozenInstanceError
from decimal import Decimal
from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.derived import Derived
from neuron_docs.data.figures.runs import cost_per_million
from neuron_docs.data.figures.values import Value, Values, build_values, collections_read, instance_metric
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps


def q(value: float, unit: str, label: str, source: str = "src") -> s.Quantity:
    return s.Quantity.model_construct(value=value, unit=unit, label=label, source=source)


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["devices"] = {
        "inf2": s.Device.model_construct(id="inf2", name="Inferentia2", neuroncores=2, source="dsrc",
                                         specs={"memory": q(32, "GB", "memory of inf2"),
                                                "bandwidth": q(0.8, "TB/s", "bandwidth of inf2")}),
        "gpu": s.Device.model_construct(id="gpu", name="A GPU", neuroncores=None, source="dsrc", specs={})}

    def instance(iid: str, device: str, count: int, price: float | None, family: str, **more: object) -> s.Instance:
        return s.Instance.model_construct(
            id=iid, family=family, device=device, device_count=count, vcpus=4 * count, source="isrc",
            price=s.Price.model_construct(usd_per_hour=price, source="aws", as_of=dt.date(2026, 1, 1))
            if price is not None else None, **{"efa_gbps": None, "specs": {}, **more})

    cat.records["instances"] = {i.id: i for i in (
        instance("inf2.xlarge", "inf2", 1, 0.8, "inf2"),
        instance("inf2.48xlarge", "inf2", 12, 12.0, "inf2", efa_gbps=100, specs={"memory": q(384, "".join(["G", "B"]), "own memory")}),
        instance("g5.xlarge", "gpu", 1, None, "g5", specs={"bandwidth": q(800, "GB/s", "bandwidth of g5"),
                                                           "memory": q(24, "GiB", "memory of g5")}))}
    cat.records["environments"] = {"e": s.Environment.model_construct(id="e", instance="inf2.xlarge")}
    cat.records["inference_runs"] = {
        "r1": s.InferenceRun.model_construct(id="r1", model="bert", variant=None, environment="e", batch_size=4,
                                             neuroncores=2, p90_latency_ms=9.0, throughput_per_s=500.0, source="rsrc"),
        "r2": s.InferenceRun.model_construct(id="r2", model="bert", variant=None, environment="e", batch_size=1,
                                             neuroncores=None, p90_latency_ms=None, throughput_per_s=None,
                                             source="rsrc")}
    cat.records["accuracy_runs"] = {
        "a1": s.AccuracyRun.model_construct(id="a1", top1_percent=76.5, duration_s=120.0, source="asrc"),
        "a2": s.AccuracyRun.model_construct(id="a2", top1_percent=80.0, duration_s=None, source="asrc")}
    cat.records["models"] = {
        "bert": s.Model.model_construct(id="bert", name="BERT", paper_top1=q(80, "%", "paper top-1", "paper"),
                                        variants=[s.Variant.model_construct(id="base", script_modules=12),
                                                  s.Variant.model_construct(id="large", script_modules=None)]),
        "vit": s.Model.model_construct(id="vit", name="ViT", paper_top1=None, variants=[]),
        # an id with a dot whose first part is no model: its variants are found by the whole id
        "llama-3.1": s.Model.model_construct(id="llama-3.1", name="Llama 3.1", paper_top1=None,
                                             variants=[s.Variant.model_construct(id="base", script_modules=7)])}
    cat.records["known_issues"] = {
        "k1": s.KnownIssue.model_construct(id="k1", limit=q(2, "GB", "size limit", "ksrc")),
        "k2": s.KnownIssue.model_construct(id="k2", limit=None)}
    cat.records["claims"] = {"c1": s.Claim.model_construct(id="c1", value=3.0, unit="x", label="faster", source="csrc")}
    cat.records["comparisons"] = {
        "mem": s.Comparison.model_construct(id="mem", label="memory ratio", subject="inf2.48xlarge",
                                            baseline="inf2.xlarge", metric="memory", claimed=q(12, "x", "claimed")),
        "bw": s.Comparison.model_construct(id="bw", label="bandwidth ratio", subject="inf2.48xlarge",
                                           baseline="g5.xlarge", metric="bandwidth", claimed=q(9, "x", "claimed")),
        "mixed": s.Comparison.model_construct(id="mixed", label="memory ratio", subject="inf2.xlarge",
                                              baseline="g5.xlarge", metric="memory", claimed=q(1, "x", "claimed")),
        "mixed2": s.Comparison.model_construct(id="mixed2", label="memory ratio", subject="g5.xlarge",
                                               baseline="inf2.xlarge", metric="memory", claimed=q(1, "x", "claimed")),
        "none": s.Comparison.model_construct(id="none", label="sram ratio", subject="inf2.xlarge",
                                             baseline="g5.xlarge", metric="sram", claimed=q(1, "x", "claimed"))}
    cat.records["experiments"] = {"exp": s.Experiment.model_construct(id="exp", price_performance=[
        s.PricePerformance.model_construct(id="p2", candidate="g5.xlarge", baseline="inf2.xlarge",
                                           gain=q(10, "%", "gain", "esrc")),
        s.PricePerformance.model_construct(id="p1", candidate="inf2.48xlarge", baseline="inf2.xlarge",
                                           gain=q(50, "%", "gain", "esrc"))])}
    cat.records["published_tables"] = {"t": ps.PublishedTable.model_construct(id="t", generation="inf2")}
    cat.records["published_inference_runs"] = {"pr": ps.PublishedInferenceRun.model_construct(
        id="pr", instance="inf2.xlarge", table="t", model="Llama", batch_size=8, throughput_tokens_per_s=1000.0,
        latency_p50_ms=20.0, source="psrc")}
    cat.records["prices"] = {"pp": ps.InstancePrice.model_construct(
        id="pp", instance="inf2.xlarge", usd_per_hour=Decimal("0.5"), basis="reserved-effective", source="prsrc",
        as_of=dt.date(2026, 2, 1), table=None, term=None, region=None)}
    return cat


def test_a_devices_and_an_instances_figures() -> None:
    values = build_values(catalog())
    assert values["device:inf2:neuroncores"] == Value(2.0, "", "NeuronCores per Inferentia2", "dsrc", False, "devices",
                                                      "inf2")
    assert values["device:inf2:memory"] == Value(32.0, "GB", "memory of inf2", "src", False, "devices", "inf2")
    assert "device:gpu:neuroncores" not in values
    assert values["instance:inf2.xlarge:price"] == Value(0.8, "USD/h", "inf2.xlarge on-demand price", "aws", False,
                                                         "instances", "inf2.xlarge")
    assert "instance:g5.xlarge:price" not in values
    assert values["instance:inf2.48xlarge:device_count"].number == 12.0
    assert values["instance:inf2.48xlarge:vcpus"] == Value(48.0, "", "vCPUs of inf2.48xlarge", "isrc", False,
                                                           "instances", "inf2.48xlarge")
    assert values["instance:inf2.48xlarge:neuroncores"] == Value(24.0, "", "NeuronCores in inf2.48xlarge", None, True,
                                                                 "instances", "inf2.48xlarge", ("devices",))
    assert "instance:g5.xlarge:neuroncores" not in values
    # its own spec, else its device's times the device count, and its network bandwidth
    assert values["instance:inf2.48xlarge:memory"] == Value(384.0, "GB", "own memory", "src", False, "instances",
                                                            "inf2.48xlarge")
    assert values["instance:inf2.xlarge:memory"] == Value(32.0, "GB", "memory of inf2 x 1 devices", "src", True,
                                                          "instances", "inf2.xlarge", ("devices",))
    assert values["instance:inf2.48xlarge:efa_gbps"].number == 100.0
    assert values["instance:g5.xlarge:memory"].unit == "GiB"
    assert "instance:inf2.xlarge:efa_gbps" not in values
    assert values["instance_family:inf2:count"] == Value(2.0, "", "instance types in the inf2 family", None, True,
                                                         "instances", "inf2")
    assert values["instance_family:g5:count"].number == 1.0


def test_a_runs_figures_and_its_cost() -> None:
    values = build_values(catalog())
    assert values["run:r1:batch_size"] == Value(4.0, "", "batch size of r1", "rsrc", False, "inference_runs", "r1")
    assert values["run:r1:neuroncores"].number == 2.0
    assert values["run:r1:p90_latency_ms"] == Value(9.0, "ms", "p90 latency of r1", "rsrc", False, "inference_runs", "r1")
    assert values["run:r1:throughput"].unit == "inferences/s"
    cost = values["run:r1:cost_per_1m"]
    assert cost.number == pytest.approx(cost_per_million(0.8, 500.0))
    assert (cost.unit, cost.derived, cost.source, cost.reads) == ("USD", True, "rsrc", ("instances", "environments"))
    assert [p for p in values if p.startswith("run:r2:")] == ["run:r2:batch_size"]
    assert values["accuracy:a1:top1"] == Value(76.5, "%", "top-1 accuracy of a1", "asrc", False, "accuracy_runs", "a1")
    assert values["accuracy:a1:duration"].unit == "s" and "accuracy:a2:duration" not in values


def test_a_models_issues_claims_figures_and_dotted_parts() -> None:
    values = build_values(catalog())
    assert values["model:bert:paper_top1"] == Value(80.0, "%", "paper top-1", "paper", False, "models", "bert")
    assert values["model:bert.base:script_modules"] == Value(12.0, "", "recursive script modules of BERT (base)",
                                                             None, False, "models", "bert")
    assert "model:bert.large:script_modules" not in values and "model:vit:paper_top1" not in values
    assert values["model:llama-3.1.base:script_modules"].number == 7.0
    assert values["issue:k1:limit"] == Value(2.0, "GB", "size limit", "ksrc", False, "known_issues", "k1")
    assert "issue:k2:limit" not in values
    assert values["claim:c1:value"] == Value(3.0, "x", "faster", "csrc", False, "claims", "c1")


def test_a_comparison_measured_from_the_specifications_in_one_unit() -> None:
    values = build_values(catalog())
    assert values["comparison:mem:claimed"].number == 12.0
    measured = values["comparison:mem:measured"]
    assert measured == Value(12.0, "x", "memory ratio computed from the specifications", None, True, "comparisons",
                             "mem", ("instances", "devices"))
    # 0.8 TB/s x 12 devices against 800 GB/s: compared in GB/s
    assert values["comparison:bw:measured"].number == pytest.approx(12.0)
    assert "comparison:mixed:measured" not in values  # GB against GiB: no common unit
    assert "comparison:mixed2:measured" not in values  # nor GiB against GB
    assert "comparison:none:measured" not in values  # neither has such a specification


def test_an_experiments_price_ratios() -> None:
    values = build_values(catalog())
    assert values["priceperf:exp.p1:gain"] == Value(50.0, "%", "gain", "esrc", False, "experiments", "exp")
    ratio = values["priceperf:exp.p1:price_ratio"]
    assert ratio.number == pytest.approx(15.0) and ratio.reads == ("instances",) and ratio.derived
    assert values["priceperf:exp.p1:implied_speed_ratio"].number == pytest.approx(15.0 * 1.5)
    assert values["priceperf:exp.p2:gain"].number == 10.0
    assert "priceperf:exp.p2:price_ratio" not in values  # an unpriced candidate: no ratio, the next one still has one


def test_a_published_runs_figures_and_a_price() -> None:
    values = build_values(catalog())
    assert values["prun:pr:batch_size"] == Value(8.0, "", "batch size of Llama (pr)", "psrc", False,
                                                 "published_inference_runs", "pr")
    assert values["prun:pr:latency_p50_ms"].label == "Latency P50 of Llama (pr)"
    cost = values["prun:pr:cost_per_1m"]
    assert cost.number == pytest.approx(cost_per_million(0.5, 1000.0)) and cost.derived
    assert cost.reads == ("prices", "instances", "published_tables")
    assert cost.label.startswith("cost per 1M tokens of Llama (pr) at RI-effective $0.5/h")
    assert values["price:pp:usd_per_hour"] == Value(0.5, "USD/h", "inf2.xlarge reserved-effective price as of 2026-02-01",
                                                    "prsrc", False, "prices", "pp")


def test_missing_paths() -> None:
    values = build_values(catalog())
    for path in ("nope:x:y", "device::memory", "device:inf9:memory", "device:inf2:nothing", "device", "",
                 "model:bert.huge:script_modules", "model:vi.base:paper_top1"):
        assert path not in values
        with pytest.raises(KeyError):
            values[path]
    with pytest.raises(KeyError):
        values[1]  # type: ignore[index]


def test_lookups_of_records_in_turn() -> None:
    values = build_values(catalog())
    assert values["device:inf2:memory"].number == 32.0
    assert values["instance:inf2.xlarge:price"].number == 0.8  # another record, after one
    assert values["device:inf2:neuroncores"].number == 2.0  # the first again
    assert values["instance:g5.xlarge:vcpus"].number == 4.0


def test_iteration_length_items_and_path_order() -> None:
    values = build_values(catalog())
    paths = list(values)
    assert len(values) == len(paths) == len(set(paths))
    assert paths[:3] == ["device:inf2:neuroncores", "device:inf2:memory", "device:inf2:bandwidth"]  # record order
    assert list(values.items()) == [(p, values[p]) for p in paths]
    assert list(values.in_path_order()) == sorted(values.items())


def test_path_order_with_dotted_parts_and_ids_holding_a_colon() -> None:
    cat = catalog()
    cat.records["claims"]["a:b"] = s.Claim.model_construct(id="a:b", value=1.0, unit="", label="odd", source="s")
    # "bert2" sorts between "bert.base" and "bert:" as text: the model paths are sorted whole, not by record
    cat.records["models"]["bert2"] = s.Model.model_construct(id="bert2", name="BERT 2", variants=[],
                                                             paper_top1=q(81, "%", "paper top-1", "paper"))
    values = build_values(cat)
    assert list(values.in_path_order()) == sorted(values.items())
    models = [p for p, _ in values.in_path_order() if p.startswith("model:")]
    assert models[:3] == ["model:bert.base:script_modules", "model:bert2:paper_top1", "model:bert:paper_top1"]


def test_a_value_normalized_and_the_collections_it_reads() -> None:
    assert Value(3.4, "PFLOPS", "peak").normalized() == Value(3400.0, "TFLOPS", "peak")
    assert Value(2.9, "TB/s", "bw", "s", True, "devices", "d", ("x",)).normalized() == Value(
        2900.0, "GB/s", "bw", "s", True, "devices", "d", ("x",))
    plain = Value(1.0, "GB", "m")
    assert plain.normalized() is plain and not plain.derived  # typed unless said
    assert collections_read("p", Value(1.0, "", "x", collection="instances", reads=("devices",))) == (
        "instances", "devices")
    with pytest.raises(FrozenInstanceError):
        plain.number = 2.0  # type: ignore[misc]


def test_an_instance_metric() -> None:
    cat = catalog()
    assert instance_metric(cat, "inf2.xlarge", "memory") == Value(32.0, "GB", "memory of inf2 x 1 devices", "src",
                                                                  True, "instances", "inf2.xlarge", ("devices",))
    assert instance_metric(cat, "inf2.48xlarge", "memory").reads == ()  # type: ignore[union-attr]
    assert instance_metric(cat, "g5.xlarge", "sram") is None


def test_the_mapping_pickles_as_its_costs() -> None:
    values = build_values(catalog())
    _ = values["device:inf2:memory"]
    again = pickle.loads(pickle.dumps(values))
    assert isinstance(again, Values) and list(again) == list(values)
    assert build_values(Derived(catalog()))["device:inf2:memory"].number == 32.0
