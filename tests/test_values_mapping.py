"""The figures mapping computes figures on demand, and loaded records share their equal parts.

Both exist to keep memory flat at 100x today's data (bench/README.md); these tests check that
they change nothing a page or a download can see.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pydantic
import pytest

from neuron_docs.data import Catalog, load_catalog
from neuron_docs.data.records import models as s
from neuron_docs.data.records.matrix import Cell
from neuron_docs.data.figures.values import Values, build_values


def test_every_figure_iterated_is_found_by_lookup(catalog) -> None:  # noqa: ANN001
    values = build_values(catalog)
    items = dict(values.items())
    assert list(items) == list(values)  # items() and iteration agree, in the same order
    assert len(values) == len(items) > 150
    for path, value in items.items():
        assert values[path] == value
        assert path in values
    # A lookup after another record's does not return the other record's figure.
    assert values["run:vit-inf1-b3:throughput"].record == "vit-inf1-b3"
    assert values["run:vit-g5-b128:throughput"].record == "vit-g5-b128"
    assert values["run:vit-inf1-b3:throughput"].record == "vit-inf1-b3"


@pytest.mark.parametrize("path", [
    "run:no-such-run:throughput", "run:vit-inf1-b3:no_such_field", "nokind:vit-inf1-b3:throughput",
    "run:", "run", "", "model:layoutlmv3.no-such-variant:script_modules", "instance_family:nope:count",
    "priceperf:nope.x:gain",
])
def test_unknown_paths_are_missing(catalog, path: str) -> None:  # noqa: ANN001
    values = build_values(catalog)
    assert path not in values
    with pytest.raises(KeyError):
        values[path]
    assert values.get(path) is None


def test_ids_with_dots_resolve(data_copy: Path) -> None:
    """``model:<model>.<variant>:...``: a model id may itself contain dots."""
    for path in data_copy.rglob("*"):
        if path.is_file():
            path.write_text(path.read_text(encoding="utf-8").replace("layoutlmv3", "layout.lm3"), encoding="utf-8")
    catalog = load_catalog(data_copy)
    assert catalog.errors == []
    values = build_values(catalog)
    assert values["model:layout.lm3.initial:script_modules"].number == 15
    assert values["model:layout.lm3.embedding-on-device:script_modules"].number == 13
    assert "model:layout.lm3.initial:script_modules" in list(values)


def test_figure_paths_of_dotted_ids_cannot_collide(data_copy: Path) -> None:
    """Variant ``initial`` of model ``layout.lm`` and variant ``lm.initial`` of model ``layout``
    would both be ``model:layout.lm.initial:...``: the later record is reported, not merged."""
    for path in data_copy.rglob("*"):
        if path.is_file():
            path.write_text(path.read_text(encoding="utf-8").replace("layoutlmv3", "layout.lm"), encoding="utf-8")
    models = data_copy / "models.yaml"
    clash = ("  - id: layout\n    name: Layout\n    family: encoder\n    status: compiled\n"
             "    variants:\n      - {id: lm.initial, description: Clash, script_modules: 7}\n")
    text = models.read_text(encoding="utf-8")
    models.write_text(text.replace("\nenvironments:", "\n" + clash + "environments:", 1), encoding="utf-8")
    catalog = load_catalog(data_copy)
    (error,) = catalog.errors
    assert "distinct paths" in error.message and "model:layout.lm.initial" in error.message
    assert error.file == "models.yaml" and error.field.endswith("variants[0].id") and error.line
    assert "layout" not in catalog.models and "layout.lm" in catalog.models
    values = build_values(catalog)
    paths = list(values)
    assert len(paths) == len(set(paths))
    assert values["model:layout.lm.initial:script_modules"].number == 15


def test_non_string_keys_are_missing(catalog) -> None:  # noqa: ANN001
    values = build_values(catalog)
    assert 123 not in values and None not in values
    assert values.get(None) is None


def test_the_mapping_pickles_as_its_catalog(catalog) -> None:  # noqa: ANN001
    values = build_values(catalog)
    values["run:vit-inf1-b3:throughput"]  # fills the one-record cache, which is not pickled
    copy = pickle.loads(pickle.dumps(values))
    assert isinstance(copy, Values)
    assert dict(copy.items()) == dict(values.items())


def test_equal_nested_records_are_one_object(catalog) -> None:  # noqa: ANN001
    entries = [cell for rev in catalog.matrix_revisions.revisions for cell in rev.cells().values()]
    distinct = {id(entry) for entry in entries}
    assert len(distinct) == len({(type(e), e) for e in entries}) < len(entries)
    given = {id(entry.__pydantic_fields_set__) for entry in entries}
    assert len(given) == len({frozenset(e.__pydantic_fields_set__) for e in entries})


def test_records_are_read_only(catalog) -> None:  # noqa: ANN001
    family = next(iter(catalog.families.values()))
    entry = next(iter(catalog.revision().cells().values()))
    with pytest.raises(pydantic.ValidationError):
        entry.status = "na"  # would change every equal cell that shares it
    with pytest.raises(pydantic.ValidationError):
        family.name = "x"


def test_sharing_keeps_what_each_record_was_given() -> None:
    shared: dict = {}
    first = Cell.model_validate({"status": "supported"})
    second = Cell.model_validate({"status": "supported"})
    with_note = Cell.model_validate({"status": "supported", "note": "n"})
    a, b, c = (s.share_equal_parts(r, shared, nested=True) for r in (first, second, with_note))
    assert a is b is first
    assert c is with_note and c.note == "n"
    assert a.model_dump(exclude_unset=True) == {"status": "supported"}
    assert c.model_dump(exclude_unset=True) == {"status": "supported", "note": "n"}


def _by_path(values: Values) -> list[tuple[str, object]]:
    return sorted(values.items(), key=lambda item: item[0])


def test_figures_in_path_order_are_the_sorted_items(catalog) -> None:  # noqa: ANN001
    values = build_values(catalog)
    assert list(values.in_path_order()) == _by_path(values)


def test_path_order_holds_for_ids_that_prefix_one_another() -> None:
    """Ids where one begins another (``bert``, ``bert2``, ``bert.x``, ``bert-a``), a model with both a
    figure of its own and of its variants, and an id with a colon that validation would refuse."""
    catalog = Catalog(Path("hand-made"))
    top1 = s.Quantity(value=80.0, unit="%", label="top-1", source="src")
    for model_id, variants in [("bert", ["v"]), ("bert2", []), ("bert.x", ["w", "v"]), ("bert-a", ["a1"])]:
        catalog.records["models"][model_id] = s.Model(
            id=model_id, name=model_id, family="f", status="compiled", paper_top1=top1,
            variants=[s.Variant(id=v, description=v, script_modules=3) for v in variants])
    for claim_id in ["c", "c1", "c-1", "c.1", "c:1", "b"]:
        catalog.records["claims"][claim_id] = s.Claim.model_construct(id=claim_id, value=1.0, unit="x", label=claim_id,
                                                                      source="src")
    values = build_values(catalog)
    assert list(values.in_path_order()) == _by_path(values)
    paths = [path for path, _ in values.in_path_order()]
    assert paths.index("model:bert.v:script_modules") < paths.index("model:bert.x:paper_top1") < paths.index(
        "model:bert2:paper_top1") < paths.index("model:bert:paper_top1")  # "." < "2" < ":": records interleave
    assert "claim:c:1:value" in paths
