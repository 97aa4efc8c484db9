"""One identity per model and the resolver (``data/figures/identity.py``) on model records built in
the test: the records of one model grouped under its identity (its own record's name first), the
names people write resolved to it (whole, or the start of one model's names), a family by its names
and synonyms, and the nearest models and families for a name that matches nothing. No data files,
no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``); the
real data's names are resolved in ``test_identity.py``."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.figures.identity import Identities, Identity, Suggestion, identities, resolve
from neuron_docs.data.records import models as s
from neuron_docs.data.records import published as ps
from neuron_docs.data.records.labels import FAMILY_SYNONYMS

#: A family id the code gives synonyms for, and one of them.
SYNONYM_FAMILY, SYNONYMS = next(iter(FAMILY_SYNONYMS.items()))


def name(*parts: str) -> str:
    """A text made at run time, as one read from a file is: equal to the code's literal, not the same object."""
    return "".join(parts)


def published(pid: str, name: str, family: str, *aliases: str, same_as: str | None = None) -> ps.PublishedModel:
    return ps.PublishedModel.model_construct(id=pid, name=name, family=family, aliases=list(aliases), same_as=same_as)


def seed(mid: str, name: str, family: str, *aliases: str, same_as: str | None = None) -> s.Model:
    return s.Model.model_construct(id=mid, name=name, family=family, aliases=list(aliases), same_as=same_as)


def family(fid: str, name: str, short: str, *representatives: str) -> s.Family:
    return s.Family.model_construct(id=fid, name=name, short_name=short, representatives=list(representatives))


def catalog() -> Catalog:
    cat = Catalog(data_dir=Path("."))
    cat.records["families"] = {f.id: f for f in (
        family("enc", "Masked language models", "Maskers", "Roberta"),
        family("dec", "Large decoders", "Decoders"),
        family(SYNONYM_FAMILY, "Synonymous models", "Synonymous"),
        family("img", "Image models", "Imagers", "Llama"),
        family("vis", "Visual models", "Visuals"))}
    cat.records["published_models"] = {m.id: m for m in (
        # a spelling of a model listed before the model's own record: the own record still names it
        published("pm-bert-long", "BERT base (bert-base-uncased)", "enc", "bert uncased", same_as="pm-bert"),
        published("pm-bert", "bert-base-uncased", "enc", "BERT base", "google-bert/bert-base-uncased", "bert uncased"),
        published("pm-llama8", "Llama-3-8B", "dec", "Llama 3 8B"),
        published("pm-llama70", "Llama-3-70B", "dec"),
        published("pm-minilm", "MiniLM", "enc"),
        published("pm-mistral", "Mistral-7B", "dec"),
        published("pm-claims", "Roberta large", "enc"),
        published("pm-roberta", "Roberta base", "enc"))}
    cat.records["models"] = {m.id: m for m in (
        seed("bert", "BERT", "enc", "BERT base", same_as="pm-bert"),
        seed("vit", "ViT", name("im", "g"), "vit-b16"),  # its family as the file gives it
        seed("llama8", "Llama-3-8B", "dec"))}  # a name an identity already claims: the first keeps it
    return cat


def test_the_records_of_one_model_are_one_identity() -> None:
    ids = Identities(catalog())
    bert = ids.by_id["published:pm-bert"]
    assert bert == Identity("published:pm-bert", "bert-base-uncased", "enc",
                            names=["bert-base-uncased", "BERT base", "google-bert/bert-base-uncased", "bert uncased",
                                   "BERT base (bert-base-uncased)", "BERT"],
                            aliases=["BERT base", "google-bert/bert-base-uncased", "bert uncased"],
                            published=["bert-base-uncased", "BERT base (bert-base-uncased)"], seed=["bert"])
    assert ids.by_id["seed:vit"] == Identity("seed:vit", "ViT", "img", ["ViT", "vit-b16"], ["vit-b16"], [], ["vit"])
    assert list(ids.by_id) == ["published:pm-bert", "published:pm-llama8", "published:pm-llama70",
                               "published:pm-minilm", "published:pm-mistral", "published:pm-claims", "published:pm-roberta",
                               "seed:vit", "seed:llama8"]
    assert ids.of_published("BERT base (bert-base-uncased)") is bert and ids.of_published("bert-base-uncased") is bert
    assert ids.of_published("bert") is None and ids.of_published("BERT") is None  # a seed id, a seed name
    assert ids.of_seed("bert") is bert and ids.of_seed("vit") is ids.by_id["seed:vit"]
    assert ids.of_seed("pm-bert") is None and ids.of_seed("bert-base-uncased") is None
    assert ids.keys["llama38b"] == "published:pm-llama8"  # claimed by the published model first
    assert ids.family_names == {"enc": "Masked language models", "dec": "Large decoders",
                                SYNONYM_FAMILY: "Synonymous models", "img": "Image models",
                                "vis": "Visual models"}


def test_a_name_as_people_write_it_resolves_to_its_model() -> None:
    cat = catalog()
    for text in ("BERT", "bert base", "Google-BERT/bert-base-uncased", "BERT base (bert-base-uncased)", " bert-uncased "):
        found = resolve(cat, text)
        assert found.identity is not None and found.identity.id == "published:pm-bert" and not found.partial, text
        assert found.family is None and found.suggestions == ()
    assert resolve(cat, "vit b16").identity.id == "seed:vit"  # type: ignore[union-attr]
    assert resolve(cat, "Llama 3 8B").identity.id == "published:pm-llama8"  # type: ignore[union-attr]


def test_the_start_of_one_models_names_finds_it() -> None:
    cat = catalog()
    found = resolve(cat, "Llama 3 7")
    assert found.identity is not None and found.identity.id == "published:pm-llama70" and found.partial
    assert found.suggestions == ()
    found = resolve(cat, "Mistral")
    assert found.identity is not None and found.identity.id == "published:pm-mistral" and found.partial


def test_the_start_of_several_models_names_is_their_family_when_they_share_one() -> None:
    cat = catalog()
    found = resolve(cat, "Llama-3")
    assert found.identity is None and found.family == "dec" and not found.partial
    assert found.suggestions == (Suggestion("model", "published:pm-llama8", "Llama-3-8B", 100.0),
                                 Suggestion("model", "published:pm-llama70", "Llama-3-70B", 100.0))
    mixed = resolve(cat, "Mi")  # MiniLM and Mistral: two families
    assert mixed.identity is None and mixed.family is None
    assert [x.id for x in mixed.suggestions] == ["published:pm-minilm", "published:pm-mistral"]


def test_at_most_the_first_five_models_starting_alike_are_suggested() -> None:
    cat = catalog()
    extra = [published(f"pm-v{i}", f"Voxel {i}", "img") for i in range(7)]
    cat.records["published_models"].update({m.id: m for m in extra})
    found = resolve(cat, "Voxel")
    assert [x.id for x in found.suggestions] == [f"published:pm-v{i}" for i in range(5)]
    assert found.family == "img"


def test_a_family_by_its_id_name_short_name_representatives_and_synonyms() -> None:
    cat = catalog()
    for text in ("Large decoders", "decoders", "dec", SYNONYMS[0], "Synonymous", "Image models"):
        found = resolve(cat, text)
        assert found.identity is None and found.family is not None, text
    assert resolve(cat, "Large decoders").family == "dec"
    assert resolve(cat, SYNONYMS[0]).family == SYNONYM_FAMILY
    # a representative that is the start of several models' names: the family, the models suggested
    found = resolve(cat, "Roberta")
    assert found.identity is None and found.family == "enc"
    assert [x.id for x in found.suggestions] == ["published:pm-claims", "published:pm-roberta"]
    # a family's own name wins over the one family of the models whose names start alike
    found = resolve(cat, "llama")
    assert found.family == "img" and [x.id for x in found.suggestions] == ["published:pm-llama8",
                                                                           "published:pm-llama70"]


def test_a_text_without_letters_or_digits_names_nothing() -> None:
    assert resolve(catalog(), " -/- ").identity is None
    assert resolve(catalog(), " -/- ") == resolve(catalog(), " -/- ").__class__(" -/- ")


def test_an_unknown_name_gets_the_nearest_models_and_their_families() -> None:
    ids = Identities(catalog())
    found = ids.resolve("Lama 3 8B")
    assert found.identity is None and found.family is None
    kinds = [(x.kind, x.id) for x in found.suggestions]
    assert kinds[0] == ("model", "published:pm-llama8")
    assert Suggestion("family", "dec", "Large decoders", 0.0) in found.suggestions  # the family of the models found
    assert [k for k, _ in kinds] == sorted((k for k, _ in kinds), key=lambda k: k != "model")  # models first
    assert len(kinds) == len(set(kinds))  # one per model or family
    scores = [x.score for x in found.suggestions if x.kind == "model"]
    assert scores == sorted(scores, reverse=True) and scores[0] >= 50.0


def test_suggestions_name_a_close_family_by_its_score_and_a_models_family_after() -> None:
    ids = Identities(catalog())
    near = ids.suggest("Image modls")
    assert near[0].kind == "family" and near[0].id == "img" and near[0].name == "Image models"
    assert near[0].score >= 50.0
    # the family of a model found, with no family name close: named after the models, at score 0
    viz = ids.suggest("vit-b1")
    assert viz[0] == Suggestion("model", "seed:vit", "ViT", viz[0].score)
    assert Suggestion("family", "img", "Image models", 0.0) in viz
    assert ids.suggest("vit-b1", limit=1)[:1] == viz[:1]
    # a name as near as the cutoff (the family "vis": ratio 50 of "vitb1") is suggested too
    assert Suggestion("family", "vis", "Visual models", 50.0) in viz
    # a model's family is added unless it was found itself, whichever way its id sorts
    assert [(x.kind, x.id) for x in ids.suggest("img vit")] == [("model", "seed:vit"), ("family", "img")]
    assert [(x.kind, x.id, x.score) for x in ids.suggest("Mask vit")][1:] == [("family", "enc", pytest.approx(57.14, abs=0.01)),
                                                                              ("family", "img", 0.0)]


def test_names_nearly_as_near_as_the_cutoff_are_not_suggested() -> None:
    cat = catalog()
    cat.records["published_models"] = {m.id: m for m in (
        published("far", "a" * 25 + "b" * 25, "enc"), published("near", "a" * 25 + "c" * 20, "enc"))}
    query = "a" * 25 + "c" * 27
    suggested = {x.id: x.score for x in Identities(cat).suggest(query)}
    assert suggested["published:near"] > 50.0
    assert "published:far" not in suggested  # 25 of 102 characters in common: a ratio of 49.02


def test_nothing_close_still_gets_the_nearest_few() -> None:
    ids = Identities(catalog())
    far = ids.suggest("Phi-3")
    found = [x for x in far if x.score > 0]  # the nearest names, however far (then the families of models found)
    assert len(found) == 3 and all(x.score < 50.0 for x in far)  # three, not four


def test_a_resolution_and_its_suggestions_are_immutable() -> None:
    found = resolve(catalog(), "Llama-3")
    with pytest.raises(FrozenInstanceError):
        found.family = "vis"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        found.suggestions[0].score = 0.0  # type: ignore[misc]


def test_a_catalogs_identities_are_made_once() -> None:
    cat = catalog()
    assert identities(cat) is identities(cat)
    assert identities(catalog()) is not identities(cat)
