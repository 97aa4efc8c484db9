"""The queries over benchmark runs (``data/figures/runs.py``) on records built in the test: the cost
per 1M and its words, the first priced instance, a run's instance, the runs left unplaced and the
filters. No data files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``); ``test_one_formula.py`` checks that the formula is written once."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.runs import (cost_formula, cost_per_million, filter_runs, first_priced, run_instance,
                                           unplaced_runs)
from neuron_docs.data.records import models as s


def test_the_cost_per_million() -> None:
    assert cost_per_million(3.6, 1000.0) == pytest.approx(1.0, rel=1e-12)  # $3.6/h for 3.6M an hour
    assert cost_per_million(3.6, 1000.0, 4) == pytest.approx(4.0, rel=1e-12)  # four instances (nodes) paid for
    assert cost_per_million(7.2, 500.0) == pytest.approx(4.0, rel=1e-12)


def test_the_cost_formula_in_words() -> None:
    assert cost_formula() == "Cost per 1M = 10^6 / throughput x hourly price / 3600"
    assert cost_formula(nodes=True) == "Cost per 1M = 10^6 / throughput x hourly price x nodes / 3600"


def test_the_first_priced_instance() -> None:
    prices = {"b": 2.0, "c": 3.0}
    assert first_priced(["a", "b", "c"], prices.get) == 2.0
    assert first_priced(["c", "b"], prices.get) == 3.0
    assert first_priced(["a"], prices.get) is None
    assert first_priced(["z", "a"], {"z": 0.0}.get) == 0.0  # a price of zero is a price


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["instances"] = {i: s.Instance.model_construct(id=i, device=d)
                                for i, d in (("inf2.xlarge", "inf2"), ("trn1.2xlarge", "trn1"), ("inf1.xlarge", "inf1"))}
    cat.records["environments"] = {e: s.Environment.model_construct(id=e, instance=i)
                                   for e, i in (("e-inf2", "inf2.xlarge"), ("e-trn1", "trn1.2xlarge"),
                                                ("e-inf1", "inf1.xlarge"), ("e-lost", "p9.xlarge"))}
    return cat


def run(rid: str, environment: str, model: str = "bert") -> s.InferenceRun:
    return s.InferenceRun.model_construct(id=rid, environment=environment, model=model)


def test_a_runs_instance_and_the_runs_left_unplaced() -> None:
    cat = catalog()
    assert run_instance(cat, run("r", "e-inf2")).id == "inf2.xlarge"  # type: ignore[union-attr]
    assert run_instance(cat, run("r", "e-lost")) is None  # the environment's instance is unknown
    assert run_instance(cat, run("r", "nowhere")) is None  # the environment is unknown
    runs = [run("a", "e-inf2"), run("b", "e-lost"), run("c", "nowhere"), run("d", "e-lost")]
    assert unplaced_runs(cat, runs) == {"e-lost": ["b", "d"], "nowhere": ["c"]}
    assert unplaced_runs(cat, runs[:1]) == {}


def test_the_runs_of_the_given_models_instances_and_devices() -> None:
    cat = catalog()
    runs = [run("lost", "e-lost"), run("a", "e-inf2"), run("b", "e-trn1", "gpt"), run("c", "e-inf1"),
            run("d", "e-inf2", "gpt")]

    def ids(models: list[str], instances: list[str], devices: list[str]) -> list[str]:
        return [r.id for r in filter_runs(cat, runs, models, instances, devices)]

    assert ids([], [], []) == ["a", "b", "c", "d"]  # an empty filter keeps all, never an unplaced run
    assert ids(["gpt"], [], []) == ["b", "d"]
    assert ids([], ["inf2.xlarge", "inf1.xlarge"], []) == ["a", "c", "d"]
    assert ids([], [], ["trn1"]) == ["b"]
    assert ids(["bert"], ["inf2.xlarge"], ["inf2"]) == ["a"]
    assert ids(["bert"], [], ["trn1"]) == []
