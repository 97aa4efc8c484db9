"""Fit and support claims in prose (``drift/fit_claims.py``), on sentences written in the test, with
name tables of the test's families, devices and frameworks and a catalog whose latest support
matrices are given by the test (``support`` and ``fit`` overridden; ``support_cell`` is the
catalog's own): which phrase a clause says (not a good fit, a good fit, not supported, supported),
the family and device it is about (its clause's, else the sentence's only one), the frameworks it
names, what the matrices give (the frameworks named, else the columns of the device's purpose, else
every column), the phrase's place and role, and the badge of a matrix cell. No data files, no Sphinx
(``make mutation`` runs it with ``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.records import models as s
from neuron_docs.drift.fit_claims import ClaimIndex, FitClaim
from neuron_docs.drift.names import NameTable


@dataclass(frozen=True)
class Cell:
    status: str


def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


class Matrices(Catalog):
    """A catalog whose latest revision's fits and cells are the test's."""

    fits: dict[tuple[str, str], str]
    cells: dict[tuple[str, str], dict[str, Cell]]

    def fit(self, family_id: str, device_id: str, date: str | None = None) -> Any:
        return self.fits.get((family_id, device_id))

    def support(self, family_id: str, device_id: str, date: str | None = None) -> Any:
        return dict(self.cells.get((family_id, device_id), {}))


def catalog() -> Matrices:
    cat = Matrices(data_dir=Path("."))
    cat.records["devices"] = {
        "trn": s.Device.model_construct(id="trn", name="Trainium", purpose=made("training")),
        "inf2": s.Device.model_construct(id="inf2", name="Inferentia2", purpose="inference")}
    cat.fits = {("decoder", "trn"): made("good"), ("decoder", "inf2"): "poor", ("encoder", "inf2"): "good"}
    cat.cells = {
        ("decoder", "trn"): {"pytorch/training": Cell("supported"), "pytorch/inference": Cell("roadmap"),
                             "jax/training": Cell("na")},
        ("decoder", "inf2"): {"pytorch/inference": Cell("na"), "jax/inference": Cell(made("limited"))},
        ("encoder", "inf2"): {},
        ("encoder", "trn"): {"pytorch/training": Cell("supported")},
    }
    return cat


def table(*pairs: tuple[str, str]) -> NameTable:
    names = NameTable()
    for name, record_id in pairs:
        names.add(name, record_id)
    return names


def index() -> ClaimIndex:
    claims = ClaimIndex(catalog())
    claims.__dict__["families"] = table(("Decoders", "decoder"), ("Encoders", "encoder"))
    claims.__dict__["devices"] = table(("Inferentia2", "inf2"), ("Trainium", "trn"))
    claims.__dict__["frameworks"] = table(("PyTorch", "pytorch"), ("JAX", "jax"))
    return claims


def found(text: str, allowed: list[tuple[int, int]] | None = None) -> list[tuple[Any, ...]]:
    return [(c.text, c.family, c.device, c.said, c.truth, c.role) for c in index().claims(text, allowed)]


# --- phrases ----------------------------------------------------------------------------------------------

def test_a_fit_claim_and_what_the_matrices_give() -> None:
    text = "Decoders are a good fit for Trainium."
    assert index().claims(text) == [FitClaim(15, 23, "good fit", "decoder", "trn", "good", "good",
                                             ":neuron:fit:`decoder/trn`")]
    assert found("Decoders are not a good fit for Trainium.") == [
        ("not a good fit", "decoder", "trn", "poor", "good", ":neuron:fit:`decoder/trn`")]
    assert found("Decoders are a poor fit for Inferentia2.") == [
        ("poor fit", "decoder", "inf2", "poor", "poor", ":neuron:fit:`decoder/inf2`")]


@pytest.mark.parametrize(("phrase", "kind", "said"), [
    ("not a good fit", "fit", "poor"), ("never really a good fit", "fit", "poor"), ("bad fits", "fit", "poor"),
    ("Good Fits", "fit", "good"), ("not supported", "support", "unsupported"),
    ("not yet supported", "support", "unsupported"), ("unsupported", "support", "unsupported"),
    ("lacks support", "support", "unsupported"), ("no support", "support", "unsupported"),
    ("supported", "support", "supported"), ("supports", "support", "supported"),
    ("has native support", "support", "supported"), ("added support", "support", "supported"),
    ("not a good fit but supported", "fit", "poor"), ("a good fit, not supported", "fit", "good"),
    ("not supported, a good fit", "fit", "good"), ("supported, not a good fit", "fit", "poor"),
])
def test_the_phrase_a_clause_says(phrase: str, kind: str, said: str) -> None:
    result = ClaimIndex._phrase(f"Decoders are {phrase} here")
    assert result is not None
    assert result[:2] == (kind, said)
    assert f"Decoders are {phrase} here"[result[2]:result[3]].lower() in phrase.lower()


def test_a_clause_without_a_phrase() -> None:
    assert ClaimIndex._phrase("Decoders fit in memory") is None
    assert found("Decoders run on Trainium.") == []


# --- what a claim is about ----------------------------------------------------------------------------------

def test_a_sentence_must_name_a_family_and_a_device() -> None:
    assert found("Decoders are a good fit.") == []
    assert found("It is a good fit for Trainium.") == []
    # In one sentence: the family of the sentence before does not count.
    assert found("Decoders run. It is a good fit for Trainium.") == []


def test_each_clause_its_own_family_and_device() -> None:
    assert found("Decoders are a good fit for Trainium, but not a good fit for Inferentia2.") == [
        ("good fit", "decoder", "trn", "good", "good", ":neuron:fit:`decoder/trn`"),
        ("not a good fit", "decoder", "inf2", "poor", "poor", ":neuron:fit:`decoder/inf2`")]
    assert found("Encoders run on Inferentia2; Decoders are a good fit for Trainium.") == [
        ("good fit", "decoder", "trn", "good", "good", ":neuron:fit:`decoder/trn`")]


def test_a_clause_naming_no_family_takes_the_sentences_only_one() -> None:
    assert found("On Trainium, Decoders (decoders) run: a good fit.") == [
        ("good fit", "decoder", "trn", "good", "good", ":neuron:fit:`decoder/trn`")]
    assert found("Decoders and Encoders on Inferentia2: a good fit.") == []
    assert found("Decoders on Inferentia2 and Trainium: a good fit.") == []


def test_the_family_and_device_at_the_clauses_start_and_end() -> None:
    # A name right at a clause's start is in it; the next clause starts at the cut.
    assert found("Encoders run;Decoders are a good fit on Trainium") == [
        ("good fit", "decoder", "trn", "good", "good", ":neuron:fit:`decoder/trn`")]
    assert found("Decoders are a good fit on Inferentia2;Trainium") == [
        ("good fit", "decoder", "inf2", "good", "poor", ":neuron:fit:`decoder/inf2`")]


def test_one_claim_per_family_and_device() -> None:
    assert len(found("Decoders, Decoders on Trainium and Trainium are a good fit.")) == 1
    assert found("Decoders, Encoders are a good fit for Inferentia2.") == [
        ("good fit", "decoder", "inf2", "good", "poor", ":neuron:fit:`decoder/inf2`"),
        ("good fit", "encoder", "inf2", "good", "good", ":neuron:fit:`encoder/inf2`")]


def test_no_claim_where_the_matrices_have_no_row() -> None:
    assert found("Encoders are a good fit for Trainium.") == [] or False
    cat = catalog()
    cat.fits.pop(("encoder", "trn"), None)
    assert found("Encoders are supported on Trainium.") == []


def test_only_phrases_written_by_hand() -> None:
    text = "Decoders are a good fit for Trainium."
    assert found(text, [(15, 23)]) == [("good fit", "decoder", "trn", "good", "good", ":neuron:fit:`decoder/trn`")]
    assert found(text, [(16, 23)]) == []
    assert found(text, [(15, 22)]) == []
    assert found(text, [(0, 10), (20, 30)]) == []
    assert found(text, []) == []


def test_offsets_in_a_later_sentence() -> None:
    text = "Nothing here. Fine. Decoders are a good fit for Trainium, but not a good fit for Inferentia2."
    claims = index().claims(text)
    assert [(c.start, c.end, text[c.start:c.end]) for c in claims] == [(35, 43, "good fit"), (62, 76, "not a good fit")]


# --- support -------------------------------------------------------------------------------------------------

def test_support_of_the_frameworks_named() -> None:
    assert found("Decoders are supported on Trainium with JAX.") == [
        ("supported", "decoder", "trn", "supported", "unsupported", ":neuron:status:`decoder/trn/jax`")]
    assert found("Decoders are supported on Trainium with PyTorch.") == [
        ("supported", "decoder", "trn", "supported", "supported", ":neuron:status:`decoder/trn/pytorch`")]
    # A framework of another clause is not this one's.
    assert found("With JAX it runs; Decoders are supported on Trainium.") == [
        ("supported", "decoder", "trn", "supported", "supported", ":neuron:status:`decoder/trn/pytorch`")]


def test_support_of_the_devices_purpose_else_every_column() -> None:
    # Trainium trains: its training columns (PyTorch's supported).
    assert found("Decoders are not supported on Trainium.") == [
        ("not supported", "decoder", "trn", "unsupported", "supported", ":neuron:status:`decoder/trn/pytorch`")]
    # Inferentia2: its inference columns (JAX's limited, which is support).
    assert found("Decoders are not supported on Inferentia2.") == [
        ("not supported", "decoder", "inf2", "unsupported", "supported", ":neuron:status:`decoder/inf2/pytorch`")]
    # No column at all: unsupported, no framework.
    assert found("Encoders are supported on Inferentia2.") == [
        ("supported", "encoder", "inf2", "supported", "unsupported", ":neuron:status:`encoder/inf2/`")]


def test_support_of_every_column_for_a_device_of_no_purpose() -> None:
    claims = index()
    claims.catalog.records["devices"]["trn"] = s.Device.model_construct(id="trn", purpose="other")
    assert [(c.truth, c.role) for c in claims.claims("Decoders are supported on Trainium.")] == [
        ("supported", ":neuron:status:`decoder/trn/pytorch`")]
    claims.catalog.records["devices"].pop("trn")
    assert [(c.truth, c.role) for c in claims.claims("Decoders are supported on Trainium.")] == [
        ("supported", ":neuron:status:`decoder/trn/pytorch`")]
    cat = claims.catalog
    assert isinstance(cat, Matrices)
    cat.cells["decoder", "trn"] = {"jax/training": Cell("na"), "pytorch/training": Cell("roadmap")}
    assert [(c.truth, c.role) for c in claims.claims("Decoders are supported on Trainium.")] == [
        ("unsupported", ":neuron:status:`decoder/trn/jax`")]


def test_what_a_claim_agrees_with() -> None:
    assert FitClaim(0, 1, "x", "f", "d", made("good"), "good", "r").agrees
    assert not FitClaim(0, 1, "x", "f", "d", "poor", "good", "r").agrees


# --- badges of matrix cells ---------------------------------------------------------------------------------

def test_the_badge_of_a_matrix_cell() -> None:
    claims = index()
    assert claims.badge("decoder", "trn") == "fit:good"
    assert claims.badge("encoder", "trn") is None
    assert claims.badge("decoder", "trn", "pytorch", "inference") == "status:roadmap"
    assert claims.badge("decoder", "trn", "pytorch") == "status:supported"  # the device's purpose
    assert claims.badge("decoder", "trn", "jax") == "status:na"  # its one column
    assert claims.badge("decoder", "trn", "tensorflow") is None
    assert claims.frameworks_with_cells("decoder", "trn") == ["pytorch", "jax"]
    assert claims.frameworks_with_cells("encoder", "inf2") == []


@pytest.mark.parametrize(("sentence", "said"), [
    ("Decoders aren't a good fit for Trainium.", "poor"), ("Decoders isn\u2019t a good fit for Trainium.", "poor"),
    ("Decoders aren't supported on Trainium.", "unsupported"),
    ("Decoders don't have support on Trainium.", "unsupported"),
    ("Decoders won't be supported on Trainium.", "unsupported"),
])
def test_a_negation_written_as_a_contraction(sentence: str, said: str) -> None:
    [claim] = index().claims(sentence)
    assert claim.said == said


def test_a_phrase_or_a_name_at_the_sentences_start() -> None:
    assert found("Supported: Decoders on Trainium.") == [
        ("Supported", "decoder", "trn", "supported", "supported", ":neuron:status:`decoder/trn/pytorch`")]
    assert found("Decoders are a good fit for Trainium; Encoders are a good fit for Inferentia2.") == [
        ("good fit", "decoder", "trn", "good", "good", ":neuron:fit:`decoder/trn`"),
        ("good fit", "encoder", "inf2", "good", "good", ":neuron:fit:`encoder/inf2`")]
    # A framework at the clause's start is its.
    assert found("JAX supports Decoders on Trainium.") == [
        ("supports", "decoder", "trn", "supported", "unsupported", ":neuron:status:`decoder/trn/jax`")]


def test_what_a_claim_agrees_with_whatever_the_words_order() -> None:
    assert not FitClaim(0, 1, "x", "f", "d", "good", "poor", "r").agrees
    assert not FitClaim(0, 1, "x", "f", "d", "supported", "unsupported", "r").agrees
    assert not FitClaim(0, 1, "x", "f", "d", "unsupported", "supported", "r").agrees


def test_names_of_another_clause_are_not_this_ones() -> None:
    assert found("Encoders are a good fit for Inferentia2; Decoders run on Trainium.") == [
        ("good fit", "encoder", "inf2", "good", "good", ":neuron:fit:`encoder/inf2`")]
    assert found("Trainium is a good fit for Decoders, but Inferentia2 is not a good fit for Encoders.") == [
        ("good fit", "decoder", "trn", "good", "good", ":neuron:fit:`decoder/trn`"),
        ("not a good fit", "encoder", "inf2", "poor", "good", ":neuron:fit:`encoder/inf2`")]


def test_where_a_support_claim_is() -> None:
    text = "Fine. Decoders are not supported on Trainium."
    assert [(c.start, c.end, c.text) for c in index().claims(text)] == [(19, 32, "not supported")]


def test_the_name_tables_are_made_once_from_the_catalog() -> None:
    claims = ClaimIndex(catalog())
    assert claims.families is claims.families
    assert claims.devices is claims.devices
    assert claims.frameworks is claims.frameworks
    assert claims.devices.ids("on Trainium") == ["trn"]


def test_a_claim_is_frozen() -> None:
    claim = FitClaim(0, 1, "x", "f", "d", "good", "good", "r")
    assert hash(claim) == hash(FitClaim(0, 1, "x", "f", "d", "good", "good", "r"))
    with pytest.raises(FrozenInstanceError):
        claim.said = "poor"  # type: ignore[misc]



def test_a_phrase_not_written_by_hand_leaves_the_next_clauses_checked() -> None:
    text = "Decoders are a good fit for Trainium, but not a good fit for Inferentia2."
    assert found(text, [(40, len(text))]) == [
        ("not a good fit", "decoder", "inf2", "poor", "poor", ":neuron:fit:`decoder/inf2`")]


def test_a_framework_of_the_next_clause_is_not_this_ones() -> None:
    assert found("Decoders are supported on Trainium; JAX is another story.") == [
        ("supported", "decoder", "trn", "supported", "supported", ":neuron:status:`decoder/trn/pytorch`")]
