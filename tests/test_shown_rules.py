"""What the prose roles print (``data/figures/shown.py``) on figures and matrix answers built in the
test: a figure as typed or derived (a declared format required, else the unit's default decimals),
its classes, tooltip, files and format; a fit and a support status in words; the dispatch by role.
No data files, no Sphinx (``make mutation`` runs it with ``--noconftest`` per mutant:
``tests/MUTATION.md``)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from neuron_docs.data.catalog import FILE_NAMES, Catalog
from neuron_docs.data.figures.shown import MATRIX_WORD_FILES, SHOWN_KINDS, figure, fit_words, shown, status_words
from neuron_docs.data.figures.values import Value
from neuron_docs.data.records import models as s
from neuron_docs.data.records.labels import FIT_WORDS, STATUS_WORDS


class MatrixCatalog(Catalog):
    """A catalog whose matrix answers are set in the test."""

    fits: dict[tuple[str, str], str]
    cells: dict[tuple[str, str, str, str | None], tuple[str, Any]]
    latest: Any = SimpleNamespace(name="2026-11-01")

    def fit(self, family_id: str, device_id: str, date: str | None = None) -> Any:
        return self.fits.get((family_id, device_id))

    def revision(self, date: str | None = None) -> Any:
        return self.latest

    def support_cell(self, family_id: str, device_id: str, framework_id: str, workload: str | None = None,
                     date: str | None = None) -> Any:
        return self.cells.get((family_id, device_id, framework_id, workload))


def catalog() -> MatrixCatalog:
    cat = MatrixCatalog(data_dir=Path("."))
    cat.records["sources"] = {}
    cat.records["families"] = {"vit": s.Family.model_construct(id="vit", name="Vision Transformers")}
    cat.fits = {("vit", "inf2"): "good", ("bert", "inf1"): "poor"}
    cat.cells = {("vit", "trn1", "pytorch", None): ("pytorch/training", SimpleNamespace(status="limited")),
                 ("vit", "trn1", "pytorch", "inference"): ("pytorch/inference", SimpleNamespace(status="supported")),
                 ("bert", "inf1", "jax", None): ("jax/inference", SimpleNamespace(status="roadmap"))}
    return cat


VALUES = {
    "instance:a:price": Value(1.25, "USD/h", "Price of a", collection="instances", record="a"),
    "instance:b:price": Value(2.5, "USD/h", "Price of b", collection="instances", record="b"),
    "instance:a:cores": Value(3.0, "", "Cores of a", derived=True, collection="instances", record="a",
                              reads=("devices",)),
    "instance:a:ratio": Value(2.0, "x", "Ratio of a", derived=True, collection="instances", record="a"),
    "run:a:cost_per_1m": Value(0.123456, "USD", "Cost of a", derived=True, collection="inference_runs",
                               record="zz", reads=("instances",)),
    "run:a:share": Value(2.5, "", "Share of a", collection="devices", record="a"),
    "run:a:top1": Value(76.25, "%", "Top-1 of a", derived=True, collection="accuracy_runs", record="zz"),
    "run:a:gain": Value(1.23456, "pp", "Gain of a", derived=True, collection="instances", record="a"),
}


def show(text: str, require_format: bool = True) -> Any:
    return figure(catalog(), VALUES, text, require_format=require_format)


def test_a_typed_figure_is_shown_as_typed_without_a_format() -> None:
    one = show("instance:a:price")
    assert (one.text, one.classes, one.expression, one.format) == ("$1.25/h", ("neuron-value",), "instance:a:price", "")
    assert one.explanation == "Price of a."
    assert one.files == (catalog().file_of("instances"),)
    spaced = show("  instance:a:price  ")  # the expression is the path, spaces aside
    assert (spaced.text, spaced.classes, spaced.expression) == ("$1.25/h", ("neuron-value",), "instance:a:price")
    assert show("instance:a:price | .1f").text == "$1.3/h" and show("instance:a:price | .1f").format == ".1f"
    assert show("run:a:share").text == "2.5"  # a typed count need not be whole


def test_a_derived_figure_needs_a_declared_format_unless_it_is_an_exact_count() -> None:
    for text, suggested in (("instance:a:price * 2", ".2f"), ("max(instance:a:price, instance:b:price)", ".2f"),
                            ("run:a:top1", ".0f"), ("instance:a:ratio", ".1f"), ("run:a:share / 2", ".2f"),
                            ("run:a:cost_per_1m", ".2f")):
        with pytest.raises(ValueError, match=re.escape(f"needs a declared format, e.g. `{text} | {suggested}`")):
            show(text)
    with pytest.raises(ValueError, match="needs a declared format"):
        show("2 * instance:a:price")  # one path, but an expression
    assert show("3").text == "3"  # numbers alone: an exact count
    counted = show("instance:a:cores")  # a derived whole number without a unit is exact: no format needed
    assert (counted.text, counted.classes, counted.format) == ("3", ("neuron-value", "neuron-derived"), "")
    assert show("run:a:share * 2").text == "5"
    assert show("max(instance:a:price, instance:b:price) | .1f").text == "$2.5/h"


def test_without_a_required_format_a_derived_figure_takes_its_units_decimals() -> None:
    assert show("instance:a:price * 2", require_format=False).text == "$2.50/h"
    assert show("run:a:top1", require_format=False).text == "76%"
    assert show("run:a:gain", require_format=False).text == "1.23 percentage points"
    assert show("run:a:top1 | +", require_format=False).text == "+76%"  # the sign kept
    ratio = show("instance:a:ratio", require_format=False)
    assert (ratio.text, ratio.format) == ("2.0x", ".1f")  # the format it was shown at
    cost = show("run:a:cost_per_1m", require_format=False)
    assert (cost.text, cost.format, cost.classes) == ("$0.12", ".2f", ("neuron-value", "neuron-derived"))
    assert show("run:a:cost_per_1m | .3f", require_format=False).format == ".3f"


def test_a_figures_files_are_those_of_every_collection_it_reads() -> None:
    cat = catalog()
    assert show("instance:a:cores").files == tuple(sorted({cat.file_of("instances"), cat.file_of("devices")}))
    both = show("run:a:cost_per_1m + run:a:cost_per_1m | .2f")
    assert both.files == tuple(sorted({cat.file_of("inference_runs"), cat.file_of("instances")}))
    assert both.explanation.startswith("Computed from Cost of a")


def test_what_a_role_shows_is_immutable() -> None:
    from dataclasses import FrozenInstanceError
    with pytest.raises(FrozenInstanceError):
        show("instance:a:price").text = "x"  # type: ignore[misc]


def test_a_fit_in_words() -> None:
    cat = catalog()
    good = fit_words(cat, " vit / inf2 ")
    assert good.text == FIT_WORDS["good"]
    assert good.explanation == "Architecture fit of Vision Transformers on inf2 (support matrices of 2026-11-01)"
    assert good.classes == ("neuron-fit-word", "neuron-fit-good") and good.files == MATRIX_WORD_FILES
    poor = fit_words(cat, "bert/inf1")  # a family the data does not name: its id
    assert poor.text == FIT_WORDS["poor"] and poor.explanation.startswith("Architecture fit of bert on inf1")
    for text in ("vit", "vit/inf2/pytorch"):
        with pytest.raises(ValueError, match="expected 'family/device'"):
            fit_words(cat, text)
    with pytest.raises(ValueError, match="no fit recorded for family 'vit' on device 'trn1'"):
        fit_words(cat, "vit/trn1")
    cat.latest = None
    with pytest.raises(ValueError, match="no fit recorded"):
        fit_words(cat, "vit/inf2")


def test_a_support_status_in_words() -> None:
    cat = catalog()
    default = status_words(cat, "vit/trn1/pytorch")  # the column for the device's purpose
    assert default.text == STATUS_WORDS["limited"]
    assert default.explanation == ("Support of Vision Transformers on trn1 with pytorch/training "
                                   "(support matrices of 2026-11-01)")
    assert default.classes == ("neuron-status-word", "neuron-status-limited") and default.files == MATRIX_WORD_FILES
    inference = status_words(cat, " vit / trn1 / pytorch / inference ")
    assert inference.text == STATUS_WORDS["supported"] and "with pytorch/inference" in inference.explanation
    assert status_words(cat, "bert/inf1/jax").explanation.startswith("Support of bert on inf1 with jax/inference")
    for text in ("vit/trn1", "vit/trn1/pytorch/inference/x"):
        with pytest.raises(ValueError, match=r"expected 'family/device/framework\[/workload\]'"):
            status_words(cat, text)
    with pytest.raises(ValueError, match="no support status for 'vit' on 'trn1' with 'pytorch/training'"):
        status_words(cat, "vit/trn1/pytorch/training")
    with pytest.raises(ValueError, match="with 'jax'"):
        status_words(cat, "vit/trn1/jax")
    cat.latest = None
    with pytest.raises(ValueError, match="no support status"):
        status_words(cat, "vit/trn1/pytorch")


def test_each_role_prints_its_own_kind() -> None:
    cat = catalog()
    with pytest.raises(ValueError, match="needs a declared format"):
        shown("value", cat, VALUES, "instance:a:price * 2")
    assert shown("figure", cat, VALUES, "instance:a:price * 2").text == "$2.50/h"
    assert shown("fit", cat, VALUES, "vit/inf2").text == FIT_WORDS["good"]
    assert shown("status", cat, VALUES, "vit/trn1/pytorch").text == STATUS_WORDS["limited"]
    assert shown("compare", cat, VALUES, "instance:a:price, instance:b:price | cheaper/dearer").text == "cheaper"
    for unknown in ("values", "badge"):  # sorting after every kind, and before "compare"
        with pytest.raises(KeyError):
            shown(unknown, cat, VALUES, "instance:a:price, instance:b:price | less/more")
    # a kind read from a dependency's key ("value:<text>") at run time: equal to the literal, not the same object
    for kind, text in (("value", "instance:a:price"), ("figure", "instance:a:price * 2"), ("fit", "vit/inf2"),
                       ("status", "vit/trn1/pytorch"), ("compare", "instance:a:price, instance:b:price | less/more")):
        read = f"{kind}:{text}".partition(":")[0]
        assert shown(read, cat, VALUES, text) == shown(kind, cat, VALUES, text)
    assert SHOWN_KINDS["value"] == FILE_NAMES and SHOWN_KINDS["fit"] == MATRIX_WORD_FILES
