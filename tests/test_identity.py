"""One identity per model: names as people write them resolve to the model the data holds, an unknown
name gets the nearest models and families, and the data's names are unique (located errors).

Expected identities are read from the records (the published model a table spells a name with, and
its ``same_as``), not from the resolver.
"""

from __future__ import annotations

import pytest

from helpers.edits import edit_yaml
from neuron_docs.data.checking.validation import load_catalog
from neuron_docs.data.figures.identity import resolve
from neuron_docs.data.records.names import name_key


def _published(catalog, name: str):
    """The published model the tables write ``name`` as, followed to the record it is the same as."""
    record = next((m for m in catalog.published_models.values() if m.name == name), None)
    if record is None:
        pytest.skip(f"the data has no published model {name!r}")
    return catalog.published_models[record.same_as] if record.same_as else record


@pytest.mark.parametrize(("text", "table_name"), [
    ("bert-base-uncased", "BERT base (bert-base-uncased)"),
    ("BERT base (bert-base-uncased)", "bert-base-uncased"),
    ("google-bert/bert-base-uncased", "bert-base-uncased"),
    ("BERT-BASE-UNCASED", "bert-base-uncased"),
    ("ViT", "google/vit-base-patch16-224"),
    ("google/vit-base-patch16-224", "google/vit-base-patch16-224"),
    ("vit-base-patch16-224", "google/vit-base-patch16-224"),
    ("ViT-B/16", "google/vit-base-patch16-224"),
    ("meta-llama/Meta-Llama-3-8B", "Llama-3-8B"),
    ("Llama 3 8B", "Llama-3-8B"),
    ("llama-3-8b", "Llama-3-8B"),
    ("LLAMA3 8b", "Llama-3-8B"),
    ("Llama2-7B", "Llama-2-7b"),
    ("SDXL", "Stable Diffusion XL Base"),
    ("Stable Diffusion XL", "Stable Diffusion XL Base"),
    ("stabilityai/stable-diffusion-xl-base-1.0", "Stable Diffusion XL Base"),
    ("ResNet-50", "resnet50"),
    ("Mixtral-8x7B", "Mixtral-8x7B"),
])
def test_names_as_people_write_them_resolve_to_one_model(catalog, text, table_name):
    expected = _published(catalog, table_name)
    found = resolve(catalog, text)
    assert found.identity is not None, (text, found.suggestions)
    assert found.identity.id == f"published:{expected.id}"
    assert found.identity.family == expected.family
    # every spelling of the model in the tables belongs to it, so its runs are all of them
    spellings = {m.name for m in catalog.published_models.values() if expected.id in (m.id, m.same_as)}
    assert set(found.identity.published) == spellings


def test_a_seed_model_and_its_published_spelling_are_one_model(catalog):
    for model in catalog.models.values():
        found = resolve(catalog, model.name)
        assert found.identity is not None and model.id in found.identity.seed
        if model.same_as:
            assert found.identity.id == f"published:{model.same_as}"


def test_the_start_of_one_models_names_finds_it(catalog):
    names = [m.name for m in catalog.published_models.values()]
    for name in names:
        key = name_key(name)
        prefix = key[: max(4, len(key) - 2)]
        owners = {resolve(catalog, n).identity.id for n in names if name_key(n).startswith(prefix)}
        found = resolve(catalog, prefix)
        if len(owners) == 1 and found.identity is not None and found.partial:
            assert found.identity.id in owners


def test_a_family_name_resolves_to_the_family(catalog):
    for family in catalog.families.values():
        found = resolve(catalog, family.name)
        assert found.identity is None and found.family == family.id


@pytest.mark.parametrize("text", ["Mixtral-8x7B", "Falcon-40B", "Zorblax 9000 XL", "whisper-large-v3"])
def test_an_unknown_name_gets_the_nearest_models_or_families(catalog, text):
    found = resolve(catalog, text)
    if found.identity is not None:
        pytest.skip(f"the data now holds {text!r}")
    assert found.suggestions, text
    for suggestion in found.suggestions:
        assert suggestion.kind in ("model", "family")
        if suggestion.kind == "family":
            assert suggestion.id in catalog.families


def test_mixtral_is_near_mistral_and_the_decoders(catalog):
    found = resolve(catalog, "Mixtral-8x7B")
    if found.identity is not None:
        pytest.skip("the data now holds Mixtral")
    mistral = [m for m in catalog.published_models.values() if name_key(m.name).startswith("mistral")]
    if not mistral:
        pytest.skip("the data holds no Mistral model")
    assert found.suggestions[0].name == mistral[0].name
    assert any(s.kind == "family" and s.id == mistral[0].family for s in found.suggestions)


@pytest.mark.parametrize(("name", "key"), [
    ("meta-llama/Meta-Llama-3-8B", "metallama38b"),
    ("Llama 3 8B", "llama38b"),
    ("ViT-B/16", "vitb16"),
    ("Ｌｌａｍａ ３ ８Ｂ", "llama38b"),  # full-width letters, as a phone keyboard may type them
    ("  SD 2.1  ", "sd21"),
    ("---", ""),
])
def test_name_key(name, key):
    assert name_key(name) == key


def test_an_alias_of_two_models_is_a_located_error(data_copy):
    path = data_copy / "benchmarks/published/models.yaml"

    def clash(document):
        first, second = document["published_models"][:2]
        second.setdefault("aliases", []).append(first["name"].upper().replace(" ", "_"))
    edit_yaml(path, clash)
    catalog = load_catalog(data_copy)
    errors = [e for e in catalog.errors if e.file == "benchmarks/published/models.yaml"]
    assert len(errors) == 1
    assert errors[0].line and "aliases" in errors[0].field
    assert "expected a name of one model only" in errors[0].message


def test_same_as_must_name_an_identity_of_the_same_family(data_copy):
    path = data_copy / "benchmarks/published/models.yaml"

    def chain(document):
        models = document["published_models"]
        by_id = {m["id"]: m for m in models}
        linked = next(m for m in models if m.get("same_as"))
        other = next(m for m in models if not m.get("same_as") and m["id"] != linked["same_as"]
                     and m["family"] != by_id[linked["same_as"]]["family"])
        by_id[linked["same_as"]]["same_as"] = other["id"]  # the target now points on: a chain
    edit_yaml(path, chain)
    catalog = load_catalog(data_copy)
    messages = [e.message for e in catalog.errors if e.file == "benchmarks/published/models.yaml"]
    assert any("is itself the same as" in m for m in messages) or any("differs from the family" in m
                                                                     for m in messages), messages


def test_the_drift_checker_names_a_seed_model_by_its_identitys_names(catalog):
    """A page that writes the seed's ViT as google/vit-base-patch16-224 talks about the same model."""
    from neuron_docs.drift.keywords import RecordKeywords, tokens
    for model in catalog.models.values():
        found = resolve(catalog, model.name).identity
        if found is None or not found.aliases:
            continue
        [group] = RecordKeywords(catalog).groups(f"model:{model.id}")
        assert tokens(found.name, *found.aliases) <= group, model.id
