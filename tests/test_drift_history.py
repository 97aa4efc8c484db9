"""The drift checker knows the benchmark history: a figure given to a named Neuron release is read
against that release's figures (right for it, an older figure; or contradicting it), not the current ones.

The data is the frozen copy (with its benchmark history), as the corpus's answer keys are, so a change
to ``data/`` moves nothing.
"""

from __future__ import annotations


import pytest

from neuron_docs.data.dataset import load_dataset
from neuron_docs.drift.engine import DriftEngine
from neuron_docs.drift.history import release_named

from helpers.paths import frozen_copy

#: albert-base-v2 on inf2.xlarge at batch size 4 under Neuron 2.9 (withdrawn with 2.10).
OLDER = "history:inf2-albert-base-v2-ebf30914-eae2e002"


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    folder = frozen_copy(tmp_path_factory.mktemp("history") / "data")
    return load_dataset(folder)


def _engine(data) -> DriftEngine:  # noqa: ANN001
    return DriftEngine(data.catalog, data.values)


@pytest.mark.parametrize(("text", "release"), [
    ("2,437 inferences/s on Neuron 2.9.", "2.9.0"),
    ("with Neuron SDK 2.18.0, it", "2.18.0"),
    ("Neuron release 2.20 gives", "2.20.0"),
    ("since release 2.10", "2.10.0"),
    ("on inf1.2xlarge at 2.9 ms", None),
    ("torch-neuronx 1.13.1 on Neuron", None),
])
def test_the_release_a_sentence_names(text: str, release: str | None) -> None:
    assert release_named(text, 0) == release


def test_the_history_is_read_only_when_a_sentence_names_a_release(data) -> None:  # noqa: ANN001
    engine = _engine(data)
    engine.check("ALBERT base v2 on inf2.xlarge reached 2,437 inferences/s.")
    assert "history" not in vars(engine)
    engine.check("ALBERT base v2 on inf2.xlarge reached 2,437 inferences/s on Neuron 2.9.")
    assert "history" in vars(engine)


def test_an_older_release_figure_is_right_for_that_release(data) -> None:  # noqa: ANN001
    [verdict] = _engine(data).check("ALBERT base v2 on inf2.xlarge reached 2,437 inferences/s on Neuron 2.9.")
    assert (verdict.kind, verdict.expression, verdict.agrees) == ("history", OLDER, True)
    assert verdict.reason.startswith("right for Neuron 2.9.0 (an older release's figure)")
    assert "withdrawn on 2023-05-11" in verdict.reason
    assert verdict.message().startswith(f"literal 2,437 inferences/s quotes {OLDER} (2437.5 inferences/s)")


def test_a_figure_of_no_release_is_still_a_contradiction(data) -> None:  # noqa: ANN001
    engine = _engine(data)
    [wrong] = engine.check("ALBERT base v2 on inf2.xlarge reached 2,900 inferences/s on Neuron 2.9.")
    assert (wrong.kind, wrong.expression, wrong.agrees) == ("history", OLDER, False)
    # Another release's figure, given to this one: contradicts it, and says whose figure it is.
    [moved] = engine.check("ALBERT base v2 on inf2.xlarge reached 2,437 inferences/s with Neuron 2.10.")
    assert moved.kind == "history" and not moved.agrees
    assert "2,437 inferences/s is Neuron 2.9.0's figure" in moved.reason
    # Without a release the same figure is compared with the current data.
    [current] = engine.check("ALBERT base v2 on inf2.xlarge reached 2,437 inferences/s.")
    assert current.kind == "figure" and not current.agrees and current.expression.startswith("prun:")


def test_the_current_figure_stays_the_current_data(data) -> None:  # noqa: ANN001
    run = data.catalog.published_inference_runs["inf2-albert-base-v2-67dda9e5"]
    text = (f"albert-base-v2 on inf2.xlarge reaches {run.throughput_inferences_per_s:.2f} inferences/s on "
            f"Neuron {run.neuron_version}.")
    [verdict] = _engine(data).check(text)
    assert verdict.kind == "figure" and verdict.agrees
    assert verdict.expression == f"prun:{run.id}:throughput_inferences_per_s"


def test_a_corrected_figure_is_no_longer_the_release_figure(data) -> None:  # noqa: ANN001
    [verdict] = _engine(data).check(
        "Neuron release 2.20 first gave albert-base-v2 on trn1.2xlarge 3,076 inferences/s at batch size 16.")
    assert verdict.kind == "history" and not verdict.agrees
    assert "was published 2024-09-17 and corrected" in verdict.reason


def test_the_history_without_the_subject_named_says_nothing(data) -> None:  # noqa: ANN001
    # inf2.48xlarge: neither the history nor the current data has albert-base-v2 on it.
    assert _engine(data).check("ALBERT base v2 on inf2.48xlarge reached 2,437 inferences/s on Neuron 2.9.") == []
