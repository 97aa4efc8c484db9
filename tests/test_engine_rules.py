"""The drift engine (``drift/engine.py``) on passages written in the test, over a small catalog built
with ``model_construct`` and stand-ins for its indexes (the figure index, the benchmark history, the
fit-claim index: each records what it is asked and answers what the test says), so that what is
pinned is the engine's own part: which figures of a passage are checked (those written by hand), what
each is asked with (its quantity, from the words inside it first; its percentile, batch size and
options; the subjects of its own clause; a chip's words for a figure per chip), a subject the data
lacks, a figure its sentence gives to a release, another source's value, comparatives and fit claims,
and the verdicts in the order of the text. No data files, no Sphinx (``make mutation`` runs it with
``--noconftest`` per mutant: ``tests/MUTATION.md``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from neuron_docs.data.catalog import Catalog
from neuron_docs.data.records import models as s
from neuron_docs.data.records.labels import CLAIM_WORDS
from neuron_docs.drift.aspects import Aspects
from neuron_docs.drift.engine import DriftEngine, claim_path, said_per_chip
from neuron_docs.drift.fit_claims import FitClaim
from neuron_docs.drift.literal_figures import LiteralFigure
from neuron_docs.drift.verdicts import Candidate, Match, Verdict


def made(text: str) -> str:
    """``text`` built at run time: equal to the literal, another object (as a parsed or unpickled text is)."""
    return "".join(list(text))


def catalog(observations: bool = False) -> Catalog:
    cat = Catalog(data_dir=Path("."))
    r = cat.records
    r["devices"] = {d.id: d for d in (
        s.Device.model_construct(id="trainium", name="Trainium Chip", kind="trainium"),
        s.Device.model_construct(id="inferentia2", name="Inferentia2", kind="inferentia"),
        s.Device.model_construct(id="gpu-a", name="Alpha GPU", kind="gpu"),
        s.Device.model_construct(id="gpu-b", name="Beta GPU", kind="gpu"))}
    per_chip = s.Quantity.model_construct(label="NeuronLink bandwidth per chip")
    total = s.Quantity.model_construct(label="Memory")
    r["instances"] = {i.id: i for i in (
        s.Instance.model_construct(id="trn1.32xlarge", family="Trn1", device="trainium", device_count=16,
                                   specs={"memory": total}),
        s.Instance.model_construct(id="trn2.48xlarge", family="trn2", device="trainium", device_count=16,
                                   specs={"memory": total, "neuronlink": per_chip}),
        s.Instance.model_construct(id="inf2.xlarge", family="inf2", device="inferentia2", device_count=1, specs={}),
        # one family, two devices: the family stands for neither
        s.Instance.model_construct(id="g9.xlarge", family="g9", device="gpu-a", device_count=1, specs={}),
        s.Instance.model_construct(id="g9.2xlarge", family="g9", device="gpu-b", device_count=1, specs={}),
        s.Instance.model_construct(id="x1.large", family="x1", device="no-device", device_count=1, specs={}))}
    r["families"] = {f.id: f for f in (s.Family.model_construct(id="decoder", name="Decoder models"),)}
    if observations:
        r["benchmark_observations"] = {"obs-1": object()}
    return cat


@dataclass
class Figures:
    """A figure index stand-in: the vocabulary it is given, and a match per figure text."""

    models: set[str] = field(default_factory=set)
    platforms: set[str] = field(default_factory=set)
    answers: dict[str, Match] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)

    @property
    def platform_words(self) -> set[str]:
        return self.platforms

    def subject_words(self, kind: str) -> set[str]:
        return {"model": self.models, "platform": self.platforms}[kind]

    def match(self, figure: LiteralFigure, context: set[str], *, quantities: frozenset[str] | None = None,
              aspects: Aspects | None = None, sentence: set[str] | None = None) -> Match | None:
        self.calls.append({"figure": figure.text, "context": context, "quantities": quantities, "aspects": aspects,
                           "sentence": sentence})
        return self.answers.get(figure.text)


@dataclass
class Quoted:
    expression: str
    expected: str
    agrees: bool
    reason: str


@dataclass
class History:
    answer: Quoted | None = None
    calls: list[tuple[str, set[str], str, frozenset[str] | None, Aspects | None]] = field(default_factory=list)

    def match(self, figure: LiteralFigure, context: set[str], release: str, *,
              quantities: frozenset[str] | None = None, aspects: Aspects | None = None) -> Quoted | None:
        self.calls.append((figure.text, context, release, quantities, aspects))
        return self.answer


@dataclass
class Claims:
    found: list[FitClaim] = field(default_factory=list)
    calls: list[tuple[str, list[tuple[int, int]]]] = field(default_factory=list)

    def claims(self, text: str, allowed: list[tuple[int, int]]) -> list[FitClaim]:
        self.calls.append((text, list(allowed)))
        return self.found


def engine(figures: Figures | None = None, history: History | None = None, claims: Claims | None = None,
           observations: bool = False) -> DriftEngine:
    made_engine = DriftEngine(catalog(observations), {})
    made_engine.__dict__["figures"] = figures or Figures()
    made_engine.__dict__["history"] = history or History()
    made_engine.__dict__["claims"] = claims or Claims()
    return made_engine


def answer(figure_text: str, agrees: bool, quoted: str = "") -> Match:
    figure = LiteralFigure(figure_text, 0, len(figure_text), 1.0, 0, "ms")
    return Match(figure, Candidate("run:bert:latency", 5.0, "ms"), agrees, "5 ms", "" if agrees else "it is 5 ms",
                 ":neuron:value:`run:bert:latency`", quoted)


# --- per chip ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("190 TFLOPS per chip", True), ("190 TFLOPS per device", True), ("each accelerator: 5 GB", False),
    ("5 GB each chip", True), ("1,024 GB/sec/chip", True), ("5 GB/device", True),
    ("a Trainium chip delivers 190 TFLOPS", True), ("Inf2 chips deliver 5 GB", True),
    ("one Inferentia2 chip has 32 GB", True), ("every trn1n chip", True), ("Trainium2 chips deliver", True),
    ("16 Trainium2 chips deliver", False), ("sixteen Trainium2 chips deliver", False),
    ("the Trainium chips deliver", False), ("all Trn2 chips", False), ("of Trainium chips", False),
    ("the memory of a Trainium chip", True), ("a GPU chip delivers", False), ("an H100 chip", False),
    ("a GPU chip and a Trainium chip", True), ("a TRAINIUM CHIP", True), ("Trainium delivers 5 GB", False),
])
def test_a_figure_said_per_chip(text: str, expected: bool) -> None:
    assert said_per_chip(text, 0, len(text)) is expected


def test_per_chip_is_read_in_the_clause_only() -> None:
    text = "x per chip; 5 GB on a Trainium chip; 6 GB"
    assert said_per_chip(text, 12, 35)
    assert said_per_chip(text, 0, 10)
    assert not said_per_chip(text, 3, 10)
    assert not said_per_chip(text, 12, 34)
    assert not said_per_chip(text, 37, len(text))
    # A count is read up to twelve characters before the name, and not before the clause.
    assert not said_per_chip("16" + " " * 11 + "Trainium2 chips", 0, 28)
    assert said_per_chip("16" + " " * 12 + "Trainium2 chips", 0, 29)
    assert said_per_chip("sixteen Trainium2 chips", 8, 23)
    assert not said_per_chip("sixteen Trainium2 chips", 0, 23)


def test_the_path_of_a_claims_role() -> None:
    assert claim_path(":neuron:fit:`decoder/inferentia`") == "fit:decoder/inferentia"
    assert claim_path(":neuron:status:`decoder/trainium/pytorch`") == "status:decoder/trainium/pytorch"
    assert claim_path("fit:decoder/inferentia") == "fit:decoder/inferentia"
    assert claim_path(":neuron:fit:`a`b`") == ":neuron:fit:`a`b`"


def test_what_a_text_is_worth_checking_for() -> None:
    assert DriftEngine.worth_checking("takes 12 ms") == (True, False)
    assert DriftEngine.worth_checking("Supported") == (False, True)
    assert DriftEngine.worth_checking("a good FIT, 3 of them") == (True, True)
    assert DriftEngine.worth_checking("nothing") == (False, False)
    assert DriftEngine.worth_checking("") == (False, False)


def test_the_figures_written_by_hand() -> None:
    text = "It takes 12 ms and 5 GB, ratio 0.75."
    #       0        9    14   19 24
    assert [f.text for f in DriftEngine.figures_in(text, [(0, len(text))])] == ["12 ms", "5 GB"]
    assert [f.text for f in DriftEngine.figures_in(text, [(9, 14)])] == ["12 ms"]
    assert [f.text for f in DriftEngine.figures_in(text, [(10, 14), (19, 23)])] == ["5 GB"]
    assert [f.text for f in DriftEngine.figures_in(text, [(9, 13), (20, 40)])] == []
    assert [f.text for f in DriftEngine.figures_in(text, [(0, len(text))], bare=True)] == ["12 ms", "5 GB", "0.75"]


# --- what each figure is asked with ---------------------------------------------------------------------

def test_a_passage_without_a_figure_asks_nothing() -> None:
    figures = Figures()
    assert engine(figures).check("No figure here.") == []
    assert figures.calls == []
    # Nor is the figure index made for it.
    lazy = DriftEngine(catalog(), {})
    assert lazy.check("No figure here, nothing more.") == []
    assert "figures" not in lazy.__dict__


def test_only_the_figures_written_by_hand_are_matched() -> None:
    figures = Figures()
    text = "It takes 12 ms and 5 GB."
    engine(figures).check(text, allowed=[(0, 15)])
    assert [c["figure"] for c in figures.calls] == ["12 ms"]
    figures.calls.clear()
    engine(figures).check(text)
    assert [c["figure"] for c in figures.calls] == ["12 ms", "5 GB"]
    figures.calls.clear()
    engine(figures).check(text, allowed=[(0, 15)], figures=[LiteralFigure("5 GB", 19, 23, 5.0, 0, "GB")])
    assert [c["figure"] for c in figures.calls] == ["5 GB"]


def test_the_quantity_of_a_figure_from_its_own_words_first() -> None:
    figures = Figures()
    engine(figures).check("FP32 peak: 2,563 FP8/FP16 sparse TFLOPS. The latency is 12 ms; warm-up 5 s.", "Throughput")
    assert [(c["figure"], c["quantities"]) for c in figures.calls] == [
        ("2,563 FP8/FP16 sparse TFLOPS", frozenset({"sparse"})), ("12 ms", frozenset({"latency"})),
        ("5 s", frozenset({"other_time"}))]


def test_the_quantity_of_a_figure_from_its_clause_sentence_or_heading() -> None:
    figures = Figures()
    engine(figures).check("It takes 12 ms. Then 40 ms, latency. And 5 GB/s.", "Memory bandwidth")
    assert [c["quantities"] for c in figures.calls] == [None, frozenset({"latency"}),
                                                        frozenset({"memory_bandwidth"})]


def test_a_figure_in_a_later_sentence_is_read_in_that_sentence() -> None:
    figures = Figures()
    text = "The latency is low.  It is 12 ms. Memory: 5 GB"
    engine(figures).check(text)
    assert [c["quantities"] for c in figures.calls] == [None, frozenset({"memory", "size_limit"})]
    assert figures.calls[0]["sentence"] == {"12", "ms", "it", "is"}
    assert figures.calls[1]["sentence"] == {"memory", "5", "gb"}


def test_the_percentile_batch_and_options_of_a_figure() -> None:
    figures = Figures()
    engine(figures).check("P50 is 9 ms; the p99 at batch size 4 is 12 ms. Then 3 ms with --fast-math none.",
                          "Median latency at batch size 8 with auto-cast=all")
    assert [(c["figure"], c["aspects"]) for c in figures.calls] == [
        # the clause's percentile; the sentence's batch size
        ("9 ms", Aspects("50", 4, frozenset())),
        ("12 ms", Aspects("99", 4, frozenset())),
        # the heading's percentile, but never its batch size or options
        ("3 ms", Aspects("50", None, frozenset({"fast-math=none"}))),
    ]


def test_a_percentile_of_the_sentence_when_the_clause_names_none() -> None:
    figures = Figures()
    engine(figures).check("The p90, in short: 12 ms.", "Median")
    assert figures.calls[0]["aspects"] == Aspects("90", None, frozenset())


def test_the_batch_and_options_of_the_clause_before_the_sentences() -> None:
    figures = Figures()
    engine(figures).check("12 ms at batch size 2 with auto-cast=none; 9 ms at batch size 8 with auto-cast=all.")
    assert [c["aspects"] for c in figures.calls] == [
        Aspects(None, 2, frozenset({"auto-cast=none"})), Aspects(None, 8, frozenset({"auto-cast=all"}))]


# --- the subjects of a figure ---------------------------------------------------------------------------

def test_the_subjects_of_a_figures_own_clause_leave_out_those_named_elsewhere() -> None:
    figures = Figures(models={"vit", "resnet50"}, platforms={"inf1", "g5", "g5.xlarge"})
    engine(figures).check("ViT reached 76.9% on Inf1, while ResNet50 achieved 77.5% on g5.xlarge.")
    assert [c["context"] & {"vit", "resnet50", "inf1", "g5", "g5.xlarge"} for c in figures.calls] == [
        {"vit", "inf1"}, {"resnet50", "g5", "g5.xlarge"}]
    assert "reached" in figures.calls[0]["context"] and "achieved" in figures.calls[0]["context"]


def test_a_clause_naming_one_kind_keeps_the_other_kinds_words() -> None:
    figures = Figures(models={"vit", "resnet50"}, platforms={"inf1", "g5"})
    engine(figures).check("On Inf1 ViT runs. It is 12 ms on g5 here.")
    assert figures.calls[0]["context"] & {"vit", "resnet50", "inf1", "g5"} == {"vit", "g5"}


def test_what_a_clause_compares_with_is_not_its_subject() -> None:
    figures = Figures(platforms={"inf2", "p4d", "trn1"})
    engine(figures).check("It runs on Inf2. It is 40% higher than on P4d.")
    assert figures.calls[0]["context"] & {"inf2", "p4d", "trn1"} == {"inf2", "p4d"}
    figures.calls.clear()
    engine(figures).check("It runs on Trn1. Inf2 is 40% higher than on P4d.")
    assert figures.calls[0]["context"] & {"inf2", "p4d", "trn1"} == {"inf2", "p4d"}


def test_a_subject_the_data_lacks() -> None:
    figures = Figures(platforms={"inf2", "trn1"})
    found = engine(figures).check("Trn2 delivers\n12 ms here.")
    assert found == [Verdict(14, "12 ms", "unknown", "", "", False, "no Trn2 in the data", "")]
    assert figures.calls == []
    found = engine(figures).check("On Inf2 it is 5 ms, and\nH100 gets 12\nms.")
    assert [(v.text, v.kind, v.reason) for v in found] == [("12 ms", "unknown", "no H100 in the data")]
    assert [c["figure"] for c in figures.calls] == ["5 ms"]


def test_a_known_subject_in_the_clause_comes_before_an_unknown_one_in_the_sentence() -> None:
    figures = Figures(platforms={"inf2"})
    assert engine(figures).check("On Trn2 it is 4 ms; Inf2 gets 12 ms.") == [
        Verdict(14, "4 ms", "unknown", "", "", False, "no Trn2 in the data", "")]
    assert [c["figure"] for c in figures.calls] == ["12 ms"]
    figures.calls.clear()
    # The heading only when the sentence names no subject.
    assert engine(figures).check("It gets 12 ms.", "Trn2") == [
        Verdict(8, "12 ms", "unknown", "", "", False, "no Trn2 in the data", "")]
    assert engine(figures).check("Inf2 gets 12 ms.", "Trn2") == []
    assert engine(figures).check("It gets 12 ms.", "Inf2") == []


def _per_chip(context: set[str]) -> set[str]:
    return engine()._per_chip(context)


def test_a_figure_per_chip_is_its_devices() -> None:
    trainium = {"trainium", "chip"}
    # An instance stands for its device.
    assert _per_chip({"trn1.32xlarge", "trn1", "memory"}) == {"memory"} | trainium
    # One with a figure of its own per chip stands for itself too.
    assert _per_chip({"trn2.48xlarge", "trn2"}) == {"trn2.48xlarge"} | trainium
    # A family whose instances share a device stands for it ("Trn1" written in any case).
    assert _per_chip({"trn1"}) == trainium
    assert _per_chip({"inf2", "x"}) == {"inferentia2", "x"}
    # A family of two devices does not, nor one of a device the data lacks.
    assert _per_chip({"g9"}) == {"g9"}
    assert _per_chip({"x1"}) == set()
    assert _per_chip({"x1.large"}) == {"no-device", "nodevice", "no"}
    assert _per_chip(set()) == set()


def test_the_engine_asks_with_a_chips_words_for_a_figure_per_chip() -> None:
    figures = Figures(platforms={"trn1.32xlarge", "trn1", "trainium"})
    engine(figures).check("A trn1.32xlarge has 512 GB; 190 TFLOPS per chip.")
    assert "trn1.32xlarge" in figures.calls[0]["context"]
    assert "trn1.32xlarge" not in figures.calls[1]["context"]
    assert {"trainium", "chip"} <= figures.calls[1]["context"]
    figures.calls.clear()
    engine(figures).check("A trn1.32xlarge has 190 TFLOPS/chip")
    assert {"trainium", "chip"} <= figures.calls[0]["context"]
    assert "trn1.32xlarge" not in figures.calls[0]["context"]


# --- verdicts -------------------------------------------------------------------------------------------

def test_a_figure_verdict_and_another_sources() -> None:
    figures = Figures(answers={"12\nms": answer("12 ms", False), "9 ms": answer("9 ms", True, quoted="vendor")})
    found = engine(figures).check("It takes 12\nms, and 9 ms.")
    assert found == [
        Verdict(9, "12 ms", "figure", "run:bert:latency", "5 ms", False, "it is 5 ms",
                ":neuron:value:`run:bert:latency`"),
        Verdict(20, "9 ms", "source", "run:bert:latency", "5 ms", True, "", ":neuron:value:`run:bert:latency`")]


def test_a_figure_given_to_a_release_is_read_in_the_history() -> None:
    quoted = Quoted("history:obs-1", "14 ms", False, "in 2.18")
    history = History(quoted)
    figures = Figures(answers={"12\nms": answer("12 ms", False)})
    found = engine(figures, history, observations=True).check("In Neuron 2.18 it took 12\nms.")
    assert found == [Verdict(23, "12 ms", "history", "history:obs-1", "14 ms", False, "in 2.18", "")]
    assert history.calls == [("12\nms", figures.calls[0]["context"], "2.18.0", None, Aspects())]


def test_the_history_only_when_the_data_does_not_agree_and_holds_a_history() -> None:
    text = "In Neuron 2.18 it took 12 ms."
    history = History(Quoted("history:obs-1", "14 ms", True, ""))
    # The current data agrees: its verdict.
    found = engine(Figures(answers={"12 ms": answer("12 ms", True)}), history, observations=True).check(text)
    assert [v.kind for v in found] == ["figure"]
    assert history.calls == []
    # No history in the data: the figure's verdict.
    found = engine(Figures(answers={"12 ms": answer("12 ms", False)}), history).check(text)
    assert [v.kind for v in found] == ["figure"]
    assert history.calls == []
    # No release named.
    found = engine(Figures(answers={"12 ms": answer("12 ms", False)}), history, observations=True).check(
        "It took 12 ms.")
    assert [v.kind for v in found] == ["figure"]
    assert history.calls == []
    # Nothing in the data: the history's.
    assert [v.kind for v in engine(Figures(), history, observations=True).check(text)] == ["history"]
    # The history holds nothing for it: the figure's verdict.
    found = engine(Figures(answers={"12 ms": answer("12 ms", False)}), History(), observations=True).check(text)
    assert [v.kind for v in found] == ["figure"]
    assert engine(Figures(), History(), observations=True).check(text) == []


def test_comparatives_are_checked_against_every_figure() -> None:
    found = engine().check("It is less: 6 ms against 4 ms.")
    assert [(v.kind, v.text) for v in found] == [("comparison", "is less")]
    # A word outside the spans written by hand is not checked.
    assert engine().check("It is less: 6 ms against 4 ms.", allowed=[(12, 30)]) == []
    assert engine().check("It is less: six against four.") == []


def test_fit_claims_and_their_reasons() -> None:
    claims = Claims([
        FitClaim(30, 40, "a good fit", "decoder", "Inferentia2", "good", made("poor"), ":neuron:fit:`decoder/inf2`"),
        FitClaim(2, 12, "supported", "decoder", "Trainium", "supported", "supported",
                 ":neuron:status:`decoder/trainium`")])
    found = engine(claims=claims).check("It supports Decoder models on 12 ms.", allowed=[(0, 20)])
    assert claims.calls == [("It supports Decoder models on 12 ms.", [(0, 20)])]
    assert found == [
        Verdict(2, "supported", "claim", "status:decoder/trainium", CLAIM_WORDS["supported"], True, "",
                ":neuron:status:`decoder/trainium`"),
        Verdict(30, "a good fit", "claim", "fit:decoder/inf2", CLAIM_WORDS["poor"], False,
                f"Decoder models on Inferentia2 is {CLAIM_WORDS['poor']} (support matrices of ?, the latest revision)",
                ":neuron:fit:`decoder/inf2`")]
    claims.calls.clear()
    engine(claims=claims).check("No such words here, 12 ms.")
    assert claims.calls == []


def test_verdicts_come_in_the_order_of_the_text() -> None:
    claims = Claims([FitClaim(0, 2, "It", "decoder", "Trainium", "supported", "supported", "r")])
    figures = Figures(answers={"12 ms": answer("12 ms", True)})
    found = engine(figures, claims=claims).check("It supports less: 12 ms against 4 ms.")
    assert [(v.start, v.kind) for v in found] == [(0, "claim"), (12, "comparison"), (18, "figure")]


@pytest.mark.parametrize("word", ["cheaper", "faster", "slower", "better", "worse", "over", "above", "ahead", "behind",
                                  "increase", "decreased", "drop", "dropped"])
def test_a_negative_difference_is_checked_whatever_its_direction_word(word: str) -> None:
    # Every direction word the figure reader knows: the engine's trigger must not skip the check.
    found = engine().check(f"It is -$0.11 {word} now.")
    assert [(v.kind, v.text) for v in found] == [("comparison", f"-$0.11 {word}")]


# --- what the engine's own indexes and role outputs are ------------------------------------------------------

def test_each_index_is_made_once_when_first_needed() -> None:
    real = DriftEngine(catalog(), {})
    assert real.figures is real.figures
    assert real.history is real.history
    assert real.claims is real.claims
    assert type(real.history).__name__ == "ObservationsByRelease"
    assert type(real.claims).__name__ == "ClaimIndex"


def test_what_a_value_role_prints() -> None:
    from neuron_docs.data.figures.values import Value
    values = {"run:x:latency": Value(12.0, "ms", "latency", collection="inference_runs"),
              "run:y:latency": Value(10.0, "ms", "latency", collection="inference_runs")}
    real = DriftEngine(catalog(), values)
    assert real.shown_value("run:x:latency") == "12 ms"
    assert real.shown_value("run:x:latency | .1f") == "12.0 ms"
    assert real.shown_value("compare:run:x:latency, run:y:latency | diff less/more") == "2.00 ms more"
    assert real.shown_value("compare:run:x:latency, run:y:latency | less/more") == "more"
    # What the build would show as a problem: nothing.
    assert real.shown_value("run:nope:latency") is None
    assert real.shown_value("compare:run:x:latency") is None


# --- where a figure's words are read ------------------------------------------------------------------------

def test_a_figure_at_the_start_of_its_sentence() -> None:
    figures = Figures()
    engine(figures).check("It is low. About 12 ms, the p99. Then p50.")
    assert figures.calls[0]["figure"] == "About 12 ms"
    assert figures.calls[0]["sentence"] == {"about", "12", "ms", "the", "p99"}
    assert figures.calls[0]["aspects"] == Aspects("99", None, frozenset())


def test_the_nearest_percentile_and_release_in_a_later_sentence() -> None:
    figures, history = Figures(), History()
    text = "Intro here. Then 12 ms, p50 on Neuron 2.9; later the p99 is on Neuron 2.10 and 5 ms."
    engine(figures, history, observations=True).check(text)
    assert figures.calls[0]["aspects"] == Aspects("50", None, frozenset())
    assert [call[2] for call in history.calls][:1] == ["2.9.0"]
    figures.calls.clear()
    # The nearest percentile in the clause, by the figure's place in it.
    engine(figures).check("Intro here. The p50 is 5 ms or the p99 is 12 ms.")
    assert [c["aspects"].percentile for c in figures.calls] == ["50", "99"]


def test_the_options_of_the_sentence_but_never_the_headings() -> None:
    figures = Figures()
    engine(figures).check("With fast-math=none, it takes 12 ms.", "Runs with auto-cast=all at batch size 8")
    assert figures.calls[0]["aspects"] == Aspects(None, None, frozenset({"fast-math=none"}))
    figures.calls.clear()
    engine(figures).check("It takes 12 ms.", "Runs with auto-cast=all at batch size 8")
    assert figures.calls[0]["aspects"] == Aspects(None, None, frozenset())


def test_after_a_history_verdict_the_next_figures_are_checked() -> None:
    history = History(Quoted("history:obs-1", "14 ms", False, "in 2.18"))
    figures = Figures(answers={"5 GB": answer("5 GB", True)})
    found = engine(figures, history, observations=True).check("In Neuron 2.18 it took 12 ms and 5 GB.")
    assert [v.kind for v in found] == ["history", "figure"]


def test_comparatives_of_counts_written_in_words() -> None:
    # A passage without a digit: its counts in words are figures all the same.
    found = engine().check("It has more: twelve Trainium chips against sixteen Trainium chips.")
    assert [(v.kind, v.text) for v in found] == [("comparison", "more")]
    assert engine().check("It has more: sixteen Trainium chips against twelve Trainium chips.") == []


def test_what_an_engine_finds_worth_checking() -> None:
    assert DriftEngine(catalog(), {}).worth_checking("Supported, 12 ms") == (True, True)


def test_a_figure_at_the_start_of_the_passage() -> None:
    figures = Figures()
    engine(figures).check("12 ms is the latency.")
    assert [c["figure"] for c in figures.calls] == ["12 ms"]


def test_the_release_nearest_the_figure_in_a_later_sentence() -> None:
    history = History()
    text = "Intro here, a long first sentence of words. On Neuron 2.9 it gave 12 ms, unlike later on Neuron 2.10."
    engine(Figures(), history, observations=True).check(text)
    assert [call[2] for call in history.calls] == ["2.9.0"]
