"""Trn2 in the data: an instance no source prices, and its hardware page audited against it.

The records are typed here from the Trn2 architecture page (``tests/drift_corpus/real-trn2-arch.rst``,
as ``data/instances.yaml`` holds them) and appended to a copy of the frozen data, so that a
maintainer's change to ``data/`` never moves these verdicts. An instance's on-demand price is
optional (given only with its source), but a record costed at an instance's price may only name a
priced one: that is a located error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from neuron_docs.data import load_catalog
from neuron_docs.data.figures.prices import prices_of
from neuron_docs.data.figures.values import build_values
from neuron_docs.drift.audit import audit_file

from helpers.paths import frozen_copy

PAGE = Path(__file__).resolve().parent / "drift_corpus" / "real-trn2-arch.rst"
TRN2 = "".join(f"""\
  - id: {instance}
    family: {instance.split(".")[0]}
    device: trainium2
    device_count: 16
    vcpus: 192
    efa_gbps: 3200
    source: neuron-trn2-arch
    specs:
      host_memory: {{value: 2048, unit: GiB, label: "Host memory", source: neuron-trn2-arch}}
      intra_instance_neuronlink_bandwidth: {{value: 1024, unit: GB/s,
                                            label: "Intra-instance NeuronLink-v3 bandwidth per chip",
                                            source: neuron-trn2-arch}}
""" for instance in ("trn2.48xlarge", "trn2u.48xlarge"))


@pytest.fixture(scope="module")
def trn2_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = frozen_copy(tmp_path_factory.mktemp("trn2") / "data")
    instances = data / "instances.yaml"
    instances.write_text(instances.read_text(encoding="utf-8") + TRN2, encoding="utf-8")
    return data


def test_an_instance_without_a_price_loads_and_has_its_derived_figures(trn2_data: Path) -> None:
    catalog = load_catalog(trn2_data)
    assert catalog.errors == []
    assert catalog.instances["trn2.48xlarge"].price is None
    assert prices_of(catalog, "trn2.48xlarge") == []
    values = build_values(catalog)
    assert "instance:trn2.48xlarge:price" not in values
    # 16 Trainium2 chips: the instance's totals are derived from the chip's figures, never typed.
    assert values["instance:trn2.48xlarge:peak_fp8"].number == 16 * catalog.devices["trainium2"].specs["peak_fp8"].value
    assert values["instance:trn2.48xlarge:vcpus"].source == "neuron-trn2-arch"


def test_a_run_costed_on_an_unpriced_instance_is_a_located_error(tmp_path: Path) -> None:
    data = frozen_copy(tmp_path / "data")
    instances = data / "instances.yaml"
    instances.write_text(instances.read_text(encoding="utf-8") + TRN2, encoding="utf-8")
    models = data / "models.yaml"
    text = models.read_text(encoding="utf-8")
    models.write_text(text.replace("    instance: inf1.2xlarge\n", "    instance: trn2.48xlarge\n", 1), encoding="utf-8")
    catalog = load_catalog(data)
    errors = [e for e in catalog.errors if "no on-demand price" in e.message]
    assert errors, catalog.errors
    for error in errors:
        assert error.file.endswith("benchmarks/inference.csv") and error.line and error.field == "environment"
        assert "instance 'trn2.48xlarge' has no on-demand price" in error.message
    # The runs refused are named; every other run still loads, and none is costed at a missing price.
    assert {b.collection for b in catalog.broken} == {"inference_runs"}
    assert catalog.inference_runs


def test_the_trn2_page_audits_clean(trn2_data: Path) -> None:
    rows = audit_file(PAGE, trn2_data)
    instance = [r for r in rows if r.kind == "figure"]
    ultraserver = [r for r in rows if r.kind == "unknown"]
    # The trn2.48xlarge column and the prose about it: every figure confirmed, with the instance's
    # own or derived figure (its chips counted in prose and in the table, its vCPUs). Line 33 ("a
    # trn2.48xlarge or trn2u.48xlarge instance") names two instances, one the data lacks: no one subject.
    assert {(r.line, r.data) for r in instance} == {
        (29, "instance:trn2.48xlarge:device_count"), (31, "instance:trn2.48xlarge:device_count"),
        (71, "instance:trn2.48xlarge:device_count"),
        (74, "instance:trn2.48xlarge:vcpus"), (77, "instance:trn2.48xlarge:host_memory"), (80, "instance:trn2.48xlarge:peak_fp8"),
        (83, "instance:trn2.48xlarge:peak_bf16"), (86, "instance:trn2.48xlarge:peak_sparse"),
        (89, "instance:trn2.48xlarge:peak_fp32"), (92, "instance:trn2.48xlarge:memory"),
        (95, "instance:trn2.48xlarge:memory_bandwidth"),
        (98, "instance:trn2.48xlarge:intra_instance_neuronlink_bandwidth"), (104, "instance:trn2.48xlarge:efa_gbps")}
    assert all(r.agrees for r in instance)
    # The UltraServer (four instances) is a subject the data lacks: reported as such, never compared
    # with the one instance's figures.
    assert [r.line for r in ultraserver] == [47, 72, 75, 78, 81, 84, 87, 90, 93, 96, 99, 102, 105]
    assert all(re.fullmatch(r"no Trn2 UltraServer in the data", r.note) for r in ultraserver)
    assert len(rows) == len(instance) + len(ultraserver)
