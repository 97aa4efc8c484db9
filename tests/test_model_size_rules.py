"""The references and cross-record rules of model sizes and gaps (``data/checking/model_sizes.py``), on
records built in the test: what a size or gap names, one size per model, a size's own names against
the models' and the other sizes', one gap per model, a representative its family names. No data
files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.checking.model_sizes import gap_problems, gap_references, size_problems, size_references
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps
from neuron_docs.data.records.model_sizes import ModelSize, ModelSizeGap


def size(sid: str, **fields: Any) -> ModelSize:
    values = {"id": sid, "model": None, "seed_model": None, "name": None, "aliases": [], "family": None,
              "parameters_source": None, "data_types_source": None} | fields
    return ModelSize.model_construct(**values)


def gap(gid: str, **fields: Any) -> ModelSizeGap:
    values = {"id": gid, "model": None, "seed_model": None, "representative": None, "family": None} | fields
    return ModelSizeGap.model_construct(**values)


def catalog(sizes: list[ModelSize] = (), gaps: list[ModelSizeGap] = ()) -> Catalog:  # type: ignore[assignment]
    cat = Catalog(data_dir=Path("."))
    cat.records["published_models"] = {
        "bert": ps.PublishedModel.model_construct(id="bert", name="BERT base", aliases=["bert-base-uncased"],
                                                  same_as=None),
        "bert-spelling": ps.PublishedModel.model_construct(id="bert-spelling", name="Bert Base Spelled", aliases=[],
                                                           same_as="bert")}
    cat.records["models"] = {
        "resnet": s.Model.model_construct(id="resnet", name="ResNet-50", aliases=[], same_as=None),
        "bert-seed": s.Model.model_construct(id="bert-seed", name="BERT seed", aliases=[], same_as="bert")}
    cat.records["families"] = {"encoders": s.Family.model_construct(id="encoders", representatives=["RoBERTa large"]),
                               "bare": s.Family.model_construct(id="bare", representatives=[])}
    cat.records["model_sizes"] = {x.id: x for x in sizes}
    cat.records["model_size_gaps"] = {x.id: x for x in gaps}
    return cat


def problems(record: ModelSize, cat: Catalog) -> list[tuple[tuple[Any, ...], str]]:
    return list(size_problems(record, cat))


def test_what_a_size_and_a_gap_name() -> None:
    full = size("s", model="bert", seed_model="resnet", family="encoders", parameters_source="p",
                data_types_source="d")
    assert list(size_references(full)) == [
        (("model",), "published_models", "bert"), (("seed_model",), "models", "resnet"),
        (("family",), "families", "encoders"), (("parameters_source",), "sources", "p"),
        (("data_types_source",), "sources", "d")]
    assert list(size_references(size("s", name="Own"))) == []
    assert list(gap_references(gap("g", seed_model="resnet"))) == [(("seed_model",), "models", "resnet")]


def test_a_size_names_a_models_own_record() -> None:
    cat = catalog()
    [(field, message)] = problems(size("s", model="bert-spelling"), cat)
    assert field == ("model",)
    assert message == ("'bert-spelling' is another spelling of 'bert' (same_as); expected the model's own record: "
                       "model: bert")
    [(field, message)] = problems(size("s", seed_model="bert-seed"), cat)
    assert field == ("seed_model",)
    assert message == "seed model 'bert-seed' is the published model 'bert' (same_as); expected model: bert"
    assert problems(size("s", model="bert", seed_model="resnet"), cat) == []
    assert problems(size("s", model="unknown", seed_model="unknown"), cat) == []  # the reference's error


def test_one_size_per_model_the_later_record_is_the_one_to_fix() -> None:
    first, second = size("a", model="bert"), size("b", model="bert", seed_model="resnet")
    third = size("c", seed_model="resnet")
    cat = catalog([first, second, third])
    assert problems(first, cat) == []
    assert problems(second, cat) == [(("model",), "model 'bert' already has a size (model_sizes 'a'); expected one "
                                                  "size per model")]
    assert problems(third, cat) == [(("seed_model",), "seed model 'resnet' already has a size (model_sizes 'b'); "
                                                      "expected one size per model")]
    # whichever id sorts first: the order of the file decides
    cat = catalog([size("z", model="bert"), size("a", model="bert")])
    assert [f for f, _m in problems(cat.records["model_sizes"]["a"], cat)] == [("model",)]
    assert problems(cat.records["model_sizes"]["z"], cat) == []
    # sizes of their own names only are no sizes of one model
    cat = catalog([size("x", name="X"), size("y", name="Y")])
    assert problems(cat.records["model_sizes"]["y"], cat) == []


def test_a_sizes_own_names_are_no_models_or_earlier_sizes() -> None:
    earlier = size("a", name="Llama 3", aliases=["llama-3-8b"])
    cat = catalog([earlier, size("b", name="Own model")])
    assert problems(size("new", name="Brand New", aliases=["brand-new-2"]), cat) == []
    [(field, message)] = problems(size("new", name="bert base"), cat)
    assert field == ("name",)
    assert message == ("name 'bert base' is already a name of published model 'bert' (both are 'bertbase' once case, "
                       "organisation and punctuation are dropped); expected the name of a model without runs (a model "
                       "with runs takes its size with model:)")
    [(field, message)] = problems(size("new", name="Fine", aliases=["ok", "RESNET 50"]), cat)
    assert field == ("aliases", 1) and "already a name of model 'resnet'" in message
    [(field, message)] = problems(size("new", name="LLAMA-3-8B"), cat)
    assert "already a name of model size 'a'" in message
    assert problems(size("new", name="Bert Base Uncased"), cat)[0][1].startswith(
        "name 'Bert Base Uncased' is already a name of published model 'bert'")
    [(field, message)] = problems(size("new", name="--"), cat)
    assert message == "name '--' has no letter or digit; expected a name to compare"
    # only the sizes before this one are looked at
    later = catalog([size("b", name="Own model"), size("c", name="Later")])
    assert problems(later.records["model_sizes"]["b"], later) == []
    assert [f for f, _m in problems(size("c", name="own model"), catalog([size("c", name="x"),
                                                                          size("b", name="Own model")]))] == []


def test_a_gap_is_of_a_model_without_a_size_once() -> None:
    sizes = [size("sz", model="bert"), size("sr", seed_model="resnet"), size("own", name="Phi 3", aliases=["phi3"])]
    cat = catalog(sizes)
    assert list(gap_problems(gap("g", model="other"), cat)) == []
    [(field, message)] = gap_problems(gap("g", model="bert"), cat)
    assert field == ("model",)
    assert message == ("model 'bert' has a size (model_sizes 'sz'); expected a gap only for a model no source gives "
                       "a size of (drop the gap)")
    [(field, message)] = gap_problems(gap("g", seed_model="resnet"), cat)
    assert field == ("seed_model",) and "(model_sizes 'sr')" in message
    assert list(gap_problems(gap("g"), cat)) == []  # neither: no size matches a missing reference


def test_a_gaps_representative_is_its_familys_and_has_no_size() -> None:
    cat = catalog([size("own", name="Phi 3", aliases=["roberta-LARGE"])])
    [(field, message)] = gap_problems(gap("g", family="encoders", representative="GPT-2"), cat)
    assert field == ("representative",)
    assert message == "representative 'GPT-2' is not one of family 'encoders''s (RoBERTa large)"
    [(field, message)] = gap_problems(gap("g", family="bare", representative="GPT-2"), cat)
    assert message == "representative 'GPT-2' is not one of family 'bare''s (none)"
    [(field, message)] = gap_problems(gap("g", family="encoders", representative="roberta large"), cat)
    assert message == ("representative 'roberta large' has a size (model_sizes 'own'); expected a gap only for a model "
                       "no source gives a size of")
    assert list(gap_problems(gap("g", family="unknown", representative="x"), cat)) == []
    assert list(gap_problems(gap("g", representative="GPT-2"), cat)) == []  # no family: nothing to compare
    assert list(gap_problems(gap("g", family="encoders"), cat)) == []
    named = catalog([size("other", name="Other"), size("phi", name="PHI 3")])
    assert [m for _f, m in gap_problems(gap("g", family="bare", representative="phi-3"), named)][1].endswith(
        "(model_sizes 'phi'); expected a gap only for a model no source gives a size of")


def test_one_gap_per_model_the_later_one_is_the_error() -> None:
    first, second = gap("a", model="m1"), gap("b", model="m1")
    other = gap("c", model="m2")
    rep1, rep2 = gap("d", family="bare", representative="GPT 2"), gap("e", family="bare", representative="gpt-2")
    cat = catalog(gaps=[first, second, other, rep1, rep2])
    assert list(gap_problems(first, cat)) == []
    assert list(gap_problems(second, cat)) == [(("id",), "the same model as gap 'a'; expected one gap per model")]
    assert list(gap_problems(other, cat)) == []
    assert [m for _f, m in gap_problems(rep2, cat)][-1] == "the same model as gap 'd'; expected one gap per model"
    assert [m for _f, m in gap_problems(rep1, cat) if "same model" in m] == []


def test_sizes_compared_by_value_and_in_file_order_whichever_id_sorts_first() -> None:
    # a model's id as each record reads it: equal, not the same object
    cat = catalog([size("a", model="bert"), size("b", model="".join(list("bert")))])
    assert [f for f, _m in problems(cat.records["model_sizes"]["b"], cat)] == [("model",)]
    cat = catalog([size("z", name="Own model"), size("b", name="OWN MODEL")])
    [(field, message)] = problems(cat.records["model_sizes"]["b"], cat)
    assert field == ("name",) and "already a name of model size 'z'" in message


def _as_read(text: str) -> str:
    return "".join(list(text))


def test_a_record_is_not_compared_with_itself_when_the_keys_are_read_from_the_file() -> None:
    """The catalog's keys as the loader makes them: equal to the records' ids, not the same objects."""
    one = size("one", model="bert", name="Own model")
    lone_gap = gap("lone", model="m1")
    cat = catalog()
    cat.records["model_sizes"] = {_as_read("one"): one}
    cat.records["model_size_gaps"] = {_as_read("lone"): lone_gap}
    assert problems(one, cat) == []
    assert list(gap_problems(lone_gap, cat)) == []


def test_gaps_compared_by_value_and_in_file_order_whichever_id_sorts_first() -> None:
    cat = catalog([size("sz", model="bert")])
    assert [f for f, _m in gap_problems(gap("g", model=_as_read("bert")), cat)] == [("model",)]
    first, later = gap("z", model="m1"), gap("a", model="m1")
    cat = catalog(gaps=[first, later])
    assert list(gap_problems(later, cat)) == [(("id",), "the same model as gap 'z'; expected one gap per model")]
