"""Hostile and broken data: every way a data file can go wrong is reported, located, and contained.

Each case edits one file of a fresh copy of ``data/``, loads it, and checks that

- no exception escapes (:func:`load_catalog`, then :func:`build_values` on what loaded);
- exactly the expected errors are reported, each with the file, the 1-based line, the field path
  and a message that says what was expected;
- every record that could not be loaded is in ``catalog.broken`` (never silently dropped);
- every other record still loads.

The cases work on their own frozen copy of the data, ``tests/fixtures/frozen-data/`` (a copy of
``data/`` as it was when they were written), never on ``data/`` itself: a maintainer who changes a
latency, a price or a status in ``data/`` breaks none of them. Lines are looked up in the frozen
files by a snippet (see :func:`line`); a snippet that is not unique fails loudly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers.params import representatives
from helpers.paths import FROZEN_DATA, frozen_copy
from neuron_docs.data import Catalog, DataError, load_catalog
from neuron_docs.data.checking.errors import nearest_line
from neuron_docs.data.catalog import HISTORY_COLLECTIONS
from neuron_docs.data.files.loader import MAX_FILE_BYTES
from neuron_docs.data.files.yaml_reader import MAX_DEPTH, read_yaml
from neuron_docs.data.figures.values import build_values

#: The frozen copy of the data these cases edit (see the module docstring), not ``data/``.
DATA = FROZEN_DATA
INF = "benchmarks/inference.csv"
ACC = "benchmarks/accuracy.csv"


def original(file: str) -> str:
    return (DATA / file).read_text(encoding="utf-8")


def line(file: str, snippet: str) -> int:
    """The 1-based line of the one line of ``file`` holding ``snippet``."""
    hits = [n for n, text in enumerate(original(file).splitlines(), start=1) if snippet in text]
    assert len(hits) == 1, f"snippet {snippet!r} is on lines {hits} of {file}"
    return hits[0]


def end(file: str) -> int:
    """The number of lines of ``file``: an appended line is ``end(file) + 1``."""
    return len(original(file).splitlines())


def csv_rows(file: str, column: str, value: str) -> list[tuple[int, str]]:
    """``(line, id)`` of every row of a CSV file whose ``column`` is ``value``."""
    lines = original(file).splitlines()
    header = lines[0].split(",")
    out = []
    for number, text in enumerate(lines[1:], start=2):
        cells = text.split(",")
        if cells[header.index(column)] == value:
            out.append((number, cells[0]))
    return out


# Edits ------------------------------------------------------------------------------------------

Edit = Callable[[Path], None]


def sub(old: str, new: str) -> Callable[[str], Edit]:
    def for_file(file: str) -> Edit:
        def apply(data: Path) -> None:
            path = data / file
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
            path.write_text(text.replace(old, new), encoding="utf-8")
        return apply
    return for_file


def append(extra: str) -> Callable[[str], Edit]:
    def for_file(file: str) -> Edit:
        def apply(data: Path) -> None:
            path = data / file
            text = path.read_text(encoding="utf-8")
            assert text.endswith("\n")
            path.write_text(text + extra, encoding="utf-8")
        return apply
    return for_file


def prepend(extra: str) -> Callable[[str], Edit]:
    def for_file(file: str) -> Edit:
        def apply(data: Path) -> None:
            path = data / file
            path.write_text(extra + path.read_text(encoding="utf-8"), encoding="utf-8")
        return apply
    return for_file


def write(content: str | bytes) -> Callable[[str], Edit]:
    def for_file(file: str) -> Edit:
        def apply(data: Path) -> None:
            path = data / file
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return apply
    return for_file


def transform(fn: Callable[[str], str]) -> Callable[[str], Edit]:
    def for_file(file: str) -> Edit:
        def apply(data: Path) -> None:
            path = data / file
            new = fn(path.read_text(encoding="utf-8"))
            if isinstance(new, bytes):
                path.write_bytes(new)
            else:
                path.write_text(new, encoding="utf-8")
        return apply
    return for_file


def delete() -> Callable[[str], Edit]:
    def for_file(file: str) -> Edit:
        def apply(data: Path) -> None:
            (data / file).unlink()
        return apply
    return for_file


def drop_lines(first: int, last: int) -> Callable[[str], Edit]:
    """Remove lines ``first`` to ``last`` (1-based, inclusive)."""
    def for_file(file: str) -> Edit:
        def apply(data: Path) -> None:
            path = data / file
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            path.write_text("".join(lines[: first - 1] + lines[last:]), encoding="utf-8")
        return apply
    return for_file


# Cases ------------------------------------------------------------------------------------------

#: An expected error: file, line, field, and a fragment of the message.
Expect = tuple[str, int | None, str, str]
Pair = tuple[str, str | None]


@dataclass(frozen=True)
class Case:
    id: str
    file: str
    edit: Callable[[str], Edit]
    errors: tuple[Expect, ...]
    broken: tuple[Pair, ...] = ()
    #: Records in ``broken`` that are still loaded (the first of two with the same id).
    kept: tuple[Pair, ...] = ()
    #: Records that are neither loaded nor broken, because the edit removed them.
    gone: tuple[Pair, ...] = ()
    #: A ``(collection, None)`` in ``broken`` is one record without an id, not the whole collection.
    one_without_id: bool = False


def whole(file: str, *collections: str) -> tuple[Pair, ...]:
    return tuple((c, None) for c in collections)


YAML_FILES = {
    "training.yaml": ("experiments", "comparisons", "claims"),
    "issues.yaml": ("known_issues", "roadmap"),
}

#: A device with no dependants, appended to devices.yaml (it is ``devices[NEW_INDEX]``).
NEW_DEVICE = """\
  - id: test-chip
    name: Test chip
    vendor: Test
    kind: {kind}
    architecture: Test
    purpose: general
    interconnect: PCIe
{extra}    source: talk
"""
DEV = "devices.yaml"
DEV_LINE = end(DEV) + 1  # where the appended device starts
#: The index of the appended device: the number of devices the frozen data holds.
NEW_INDEX = sum(1 for text in original(DEV).splitlines() if text.startswith("  - id: "))
NEW_DEV = (f"devices[{NEW_INDEX}]", ("devices", "test-chip"))


def new_device(extra: str = "", kind: str = "gpu") -> Callable[[str], Edit]:
    return append(NEW_DEVICE.format(kind=kind, extra=extra))


def new_claim(text: str) -> Callable[[str], Edit]:
    return append(f"  - {text}\n")


TR = "training.yaml"
CLAIM = line(TR, "id: alexa-devices")
ISS = "issues.yaml"
INS = "instances.yaml"
FAM = "families.yaml"
MOD = "models.yaml"
SRC = "sources.yaml"
LATEST = "matrix/2023-11-09.yaml"  # a revision of the support matrices (data/matrix/)
LSTM_V1 = "cells: {torch-neuron/inference: supported, tensorflow-neuron-tf1/inference: na, tensorflow-neuron-tf2/inference: na}"
LSTM_V1_LINE = line(LATEST, LSTM_V1)
LSTM_CELLS = "matrices[1].rows[3].cells"


def revision(file: str) -> Pair:
    """The broken entry of a revision file set aside."""
    return ("revisions", file.removeprefix("matrix/").removesuffix(".yaml"))


def family_rows(family: str, reason: str) -> tuple[tuple[Expect, ...], tuple[Pair, ...]]:
    """The errors and revisions set aside when ``family`` is no longer known: one per row naming it."""
    errors: list[Expect] = []
    broken: list[Pair] = []
    for path in sorted((DATA / "matrix").glob("*.yaml")):
        file = f"matrix/{path.name}"
        document, positions, _ = read_yaml(original(file), file)
        rows = [(m, r) for m, matrix in enumerate(document["matrices"])
                for r, row in enumerate(matrix["rows"]) if row["family"] == family]
        errors += [(file, nearest_line(positions, ("matrices", m, "rows", r, "family")), f"matrices[{m}].rows[{r}].family",
                    reason)
                   for m, r in rows]
        broken += [revision(file)] if rows else []
    return tuple(errors), tuple(broken)


G5_RUN = "vit-g5-b1,vit-base,,g5-cuda-11.6,1,,,,7.14,,results-analysis"
G5_RUN_LINE = line(INF, "vit-g5-b1,")


def env_cascade(env: str, reason: str) -> tuple[tuple[Expect, ...], tuple[Pair, ...]]:
    """The errors and broken runs when environment ``env`` cannot be loaded."""
    errors: list[Expect] = []
    broken: list[Pair] = []
    for file, collection in ((INF, "inference_runs"), (ACC, "accuracy_runs")):
        for number, run_id in csv_rows(file, "environment", env):
            errors.append((file, number, "environment", reason))
            broken.append((collection, run_id))
    return tuple(errors), tuple(broken)


def model_cascade(model: str, reason: str) -> tuple[tuple[Expect, ...], tuple[Pair, ...]]:
    errors: list[Expect] = []
    broken: list[Pair] = []
    for file, collection in ((INF, "inference_runs"), (ACC, "accuracy_runs")):
        for number, run_id in csv_rows(file, "model", model):
            errors.append((file, number, "model", reason))
            broken.append((collection, run_id))
    return tuple(errors), tuple(broken)


G5_ERRORS, G5_BROKEN = env_cascade("g5-cuda-11.6", "environment 'g5-cuda-11.6' could not be loaded (see models.yaml:")
INF1_ERRORS, INF1_BROKEN = env_cascade("inf1-neuron-1.11",
                                       "environment 'inf1-neuron-1.11' could not be loaded (see models.yaml:")
VIT_ERRORS, VIT_BROKEN = model_cascade("vit-base", "model 'vit-base' could not be loaded (see models.yaml:")
BEIT_ERRORS, BEIT_BROKEN = model_cascade("beit", "model 'beit' could not be loaded (see models.yaml:")
A10G = (line(DEV, "id: a10g"), line(DEV, "id: a100") - 1)

BILLION_LAUGHS = "".join(
    [
        'lol0: &lol0 "lol"\n',
        *(f"lol{i}: &lol{i} [{', '.join([f'*lol{i - 1}'] * 9)}]\n" for i in range(1, 10)),
    ]
)

CASES: list[Case] = [
    # YAML syntax --------------------------------------------------------------------------------
    Case("yaml-flow-mapping-not-closed", TR,
         sub("source: talk}\n  - {id: alexa-latency", "source: talk\n  - {id: alexa-latency"),
         ((TR, line(TR, "id: alexa-cost-reduction"), "", "while parsing a flow mapping: expected ',' or '}'"),),
         whole(TR, *YAML_FILES[TR])),
    Case("yaml-unterminated-quote", TR, sub('label: "40% higher"', 'label: "40% higher'),
         ((TR, line(TR, '"40% higher"'), "", "YAML syntax"),), whole(TR, *YAML_FILES[TR])),
    Case("yaml-bad-indentation", ISS, sub("    title: Neuron public roadmap", "   title: Neuron public roadmap"),
         ((ISS, line(ISS, "title: Neuron public roadmap"), "", "expected <block end>"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("yaml-tab-indentation", ISS, sub("    title: Neuron public roadmap", "\ttitle: Neuron public roadmap"),
         ((ISS, line(ISS, "title: Neuron public roadmap"), "", "found character '\\t'"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("yaml-control-character", ISS, sub("Neuron public roadmap", "Neuron \x07public roadmap"),
         ((ISS, line(ISS, "title: Neuron public roadmap"), "", "character #x0007 is not allowed"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("yaml-two-documents", ISS, append("---\nroadmap: []\n"),
         ((ISS, end(ISS) + 1, "", "expected a single document"),), whole(ISS, *YAML_FILES[ISS])),
    Case("yaml-nested-too-deep", TR, append("deep: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n"),
         ((TR, end(TR) + 1, "", f"nested more than {MAX_DEPTH} levels"),), whole(TR, *YAML_FILES[TR])),
    # CSV syntax ---------------------------------------------------------------------------------
    Case("csv-unbalanced-quote", INF, sub("vit-g5-b1,vit-base,", 'vit-g5-b1,"vit-base,'),
         ((INF, G5_RUN_LINE, "", f"quoted field opened on line {G5_RUN_LINE} is never closed"),),
         whole(INF, "inference_runs")),
    Case("csv-too-many-fields", INF, sub(G5_RUN, G5_RUN + ",extra"),
         ((INF, G5_RUN_LINE, "", "row has 12 fields; expected 11"),), (("inference_runs", "vit-g5-b1"),)),
    Case("csv-too-few-fields", INF, sub(G5_RUN, "vit-g5-b1,vit-base,,g5-cuda-11.6,1"),
         ((INF, G5_RUN_LINE, "", "row has 5 fields; expected 11"),), (("inference_runs", "vit-g5-b1"),)),
    Case("csv-stray-quote", INF, sub(G5_RUN, 'vit-g5-b1,vit-base,,g5-cuda-11.6,1,,,,"7.14"ms,,results-analysis'),
         ((INF, G5_RUN_LINE, "", "CSV syntax: ',' expected after '\"'"),), (("inference_runs", "vit-g5-b1"),)),
    Case("csv-unknown-column", INF, sub(",throughput_per_s,", ",througput_per_s,"),
         ((INF, 1, "througput_per_s", "unknown column 'througput_per_s' (did you mean 'throughput_per_s'?)"),),
         whole(INF, "inference_runs")),
    Case("csv-missing-column", ACC, sub(",duration_s,source\n", ",duration_s\n"),
         ((ACC, 1, "source", "missing column 'source'"),), whole(ACC, "accuracy_runs")),
    Case("csv-duplicate-column", ACC, sub("id,model,environment,", "id,model,model,"),
         ((ACC, 1, "model", "duplicate column 'model'"),), whole(ACC, "accuracy_runs")),
    Case("csv-empty-file", ACC, write(""), ((ACC, None, "", "file is empty; expected a header row"),),
         whole(ACC, "accuracy_runs")),
    # Wrong types --------------------------------------------------------------------------------
    Case("word-for-integer", INS, sub("device_count: 4,", "device_count: four,"),
         ((INS, line(INS, "id: inf1.6xlarge"), "instances[2].device_count",
           "expected a valid integer, unable to parse string as an integer (got 'four')"),),
         (("instances", "inf1.6xlarge"),)),
    Case("fraction-for-integer", INS, sub("device_count: 16, vcpus: 96,", "device_count: 16, vcpus: 96.5,"),
         ((INS, line(INS, "id: inf1.24xlarge"), "instances[3].vcpus", "fractional part (got 96.5)"),),
         (("instances", "inf1.24xlarge"),)),
    Case("boolean-for-number", INS, sub("usd_per_hour: 1.9679", "usd_per_hour: yes"),
         ((INS, line(INS, "usd_per_hour: 1.9679"), "instances[5].price.usd_per_hour",
           "expected a number (got True; YAML reads true/false/yes/no/on/off as a boolean)"),),
         (("instances", "inf2.8xlarge"),)),
    Case("number-for-text", TR, sub('label: "Alexa devices served"', "label: 100"),
         ((TR, CLAIM, "claims[7].label", "expected text (got 100); write the value in quotes"),),
         (("claims", "alexa-devices"),)),
    Case("list-for-mapping", INS, sub("price: {usd_per_hour: 6.4906, source: aws-pricing, as_of: 2023-08-01}",
                                      "price: [6.4906]"),
         ((INS, line(INS, "usd_per_hour: 6.4906"), "instances[6].price", "expected a mapping of keys to values"),),
         (("instances", "inf2.24xlarge"),)),
    Case("mapping-for-list", ISS, sub("examples: [RegNet, Stable Diffusion, t5-11b]", "examples: {RegNet: yes}"),
         ((ISS, line(ISS, "examples:"), "known_issues[0].examples", "expected a list"),),
         (("known_issues", "large-model-weights-2gb"),)),
    Case("record-not-a-mapping", TR, new_claim("just a sentence"),
         ((TR, end(TR) + 1, "claims[9]", "expected a mapping of keys to values (got 'just a sentence')"),),
         (("claims", None),), one_without_id=True),
    Case("missing-required-field", TR, sub('label: "Alexa devices served", source: talk}', 'label: "Alexa devices served"}'),
         ((TR, CLAIM, "claims[7].source", "required field 'source' is missing; expected a value"),),
         (("claims", "alexa-devices"),)),
    Case("bad-id", TR, sub("id: alexa-devices", "id: Alexa_Devices"),
         ((TR, CLAIM, "claims[7].id", "expected an id (lowercase letters, digits, '.' and '-'"),),
         (("claims", "Alexa_Devices"),), gone=(("claims", "alexa-devices"),)),
    Case("empty-text", TR, sub('label: "Alexa devices served"', 'label: ""'),
         ((TR, CLAIM, "claims[7].label", "expected non-empty text (got an empty string)"),),
         (("claims", "alexa-devices"),)),
    Case("text-too-long", TR, sub('label: "Alexa devices served"', f'label: "{"x" * 201}"'),
         ((TR, CLAIM, "claims[7].label", "expected text of at most 200 characters (got 201 characters)"),),
         (("claims", "alexa-devices"),)),
    Case("csv-word-for-number", INF, sub(",536.718,", ",fast,"),
         ((INF, line(INF, "536.718"), "throughput_per_s", "expected a valid number, unable to parse string"),),
         (("inference_runs", "vit-inf1-b3"),)),
    # Unknown keys -------------------------------------------------------------------------------
    Case("unknown-key-typo", DEV, new_device("    generaton: 1\n"),
         ((DEV, DEV_LINE + 7, f"devices[{NEW_INDEX}].generaton", "unknown key 'generaton' (did you mean 'generation'?)"),),
         (NEW_DEV[1],)),
    Case("unknown-key-nested-quantity", DEV,
         new_device("    specs:\n      memory: {value: 8, unit: GB, label: Memory, source: talk, nte: HBM}\n"),
         ((DEV, DEV_LINE + 8, f"devices[{NEW_INDEX}].specs.memory.nte",
           "unknown key 'nte' (did you mean 'note'?); expected one of: value, unit, label, source, note"),),
         (NEW_DEV[1],)),
    Case("unknown-key-matrix-cell", LATEST,
         sub(LSTM_V1, LSTM_V1.replace("{torch-neuron/inference: supported,", "{torch-neuron/inference: {status: na, notes: x},")),
         ((LATEST, LSTM_V1_LINE, f"{LSTM_CELLS}.torch-neuron/inference.notes", "unknown key 'notes' (did you mean 'note'?)"),),
         (revision(LATEST),)),
    Case("unknown-top-level-key", TR, append("comparison: []\n"),
         ((TR, end(TR) + 1, "comparison", "unknown key 'comparison' (did you mean 'comparisons'?)"),)),
    # Misspelt enum values -----------------------------------------------------------------------
    Case("fit-limted", LATEST, sub("  fit: limited", "  fit: limted"),
         ((LATEST, line(LATEST, "  fit: limited"), "matrices[1].rows[7].fit",
           "expected 'good', 'poor' or 'limited' (got 'limted') (did you mean 'limited'?)"),),
         (revision(LATEST),)),
    Case("status-suported", LATEST, sub(LSTM_V1, LSTM_V1.replace("inference: supported", "inference: suported")),
         ((LATEST, LSTM_V1_LINE, f"{LSTM_CELLS}.torch-neuron/inference.status",
           "expected 'supported', 'limited', 'roadmap' or 'na' (got 'suported') (did you mean 'supported'?)"),),
         (revision(LATEST),)),
    Case("unit-typo", DEV, new_device("    specs:\n      peak: {value: 8, unit: TFLOP, label: Peak, source: talk}\n"),
         ((DEV, DEV_LINE + 8, f"devices[{NEW_INDEX}].specs.peak.unit", "(got 'TFLOP') (did you mean 'TFLOPS'?)"),),
         (NEW_DEV[1],)),
    Case("model-status-typo", MOD, sub("{id: detr, name: DETR, family: vit, status: not_compiled}",
                                       "{id: detr, name: DETR, family: vit, status: not-compiled}"),
         ((MOD, line(MOD, "id: detr"), "models[4].status", "(did you mean 'not_compiled'?)"),),
         (("models", "detr"),)),
    # Dangling references ------------------------------------------------------------------------
    Case("family-unknown-device", FAM, append("      inferentai: {}\n"),
         ((FAM, end(FAM) + 1, "families[8].devices.inferentai",
           "unknown device 'inferentai' (did you mean 'inferentia'?); expected one of: a100, a10g"),),
         (("families", "rnn"),)),
    Case("matrix-cell-for-a-framework-not-in-the-revision", LATEST,
         sub(LSTM_V1, LSTM_V1.replace("tensorflow-neuron-tf2/inference: na", "jax-neuronx/inference: na")),
         ((LATEST, LSTM_V1_LINE, f"{LSTM_CELLS}.jax-neuronx/inference",
           "'jax-neuronx' is a cell for a framework not in this revision; expected one of: tensorflow-neuron-tf1"),
          (LATEST, LSTM_V1_LINE, LSTM_CELLS, "expected a cell for every column (missing 'tensorflow-neuron-tf2/inference')")),
         (revision(LATEST),)),
    Case("matrix-for-a-device-not-in-the-revision", LATEST,
         sub("  devices: [inferentia]\n", "  devices: [inferentia, a10g]\n"),
         ((LATEST, line(LATEST, "  devices: [inferentia]"), "matrices[1].devices[1]",
           "'a10g' is not a device of this revision; expected one of: inferentia, inferentia2, trainium"),),
         (revision(LATEST),)),
    Case("revision-unknown-date-format", LATEST, sub("date: 2023-11-09", "date: 11/09/2023"),
         ((LATEST, line(LATEST, "date: 2023-11-09"), "date",
           "expected a date written YYYY-MM-DD (got '11/09/2023', an unknown date format)"),),
         (revision(LATEST),)),
    Case("two-revisions-with-the-same-date", "matrix/2023-11-09b.yaml", write(original(LATEST)),
         (("matrix/2023-11-09b.yaml", line(LATEST, "date: 2023-11-09"), "date",
           f"expected one revision per date; {LATEST}:{line(LATEST, 'date: 2023-11-09')} has the same date 2023-11-09"),
          ("matrix/2023-11-09b.yaml", line(LATEST, "date: 2023-11-09"), "date",
           "expected the file to be named 2023-11-09.yaml")),
         (revision("matrix/2023-11-09b.yaml"),)),
    Case("model-unknown-family", MOD, sub("{id: detr, name: DETR, family: vit,", "{id: detr, name: DETR, family: viit,"),
         ((MOD, line(MOD, "id: detr"), "models[4].family", "unknown family 'viit' (did you mean 'vit'?)"),),
         (("models", "detr"),)),
    Case("instance-unknown-device", INS, sub("{id: inf1.xlarge, family: inf1, device: inferentia,",
                                             "{id: inf1.xlarge, family: inf1, device: inferentai,"),
         ((INS, line(INS, "id: inf1.xlarge"), "instances[0].device",
           "unknown device 'inferentai' (did you mean 'inferentia'?)"),),
         (("instances", "inf1.xlarge"),)),
    Case("run-unknown-environment", INF, sub(G5_RUN, G5_RUN.replace("g5-cuda-11.6", "g5-cuda-11.7")),
         ((INF, G5_RUN_LINE, "environment", "unknown environment 'g5-cuda-11.7' (did you mean 'g5-cuda-11.6'?)"),),
         (("inference_runs", "vit-g5-b1"),)),
    Case("run-unknown-model", ACC, sub("resnet50-g5-acc,resnet50,", "resnet50-g5-acc,resnet-50,"),
         ((ACC, line(ACC, "resnet50-g5-acc"), "model", "unknown model 'resnet-50' (did you mean 'resnet50'?)"),),
         (("accuracy_runs", "resnet50-g5-acc"),)),
    Case("run-unknown-variant", INF, sub("layoutlmv3-inf1-b1,layoutlmv3,initial,", "layoutlmv3-inf1-b1,layoutlmv3,inital,"),
         ((INF, line(INF, "layoutlmv3-inf1-b1,"), "variant",
           "unknown variant 'inital' of model 'layoutlmv3' (did you mean 'initial'?); expected one of: initial, "
           "embedding-on-device"),),
         (("inference_runs", "layoutlmv3-inf1-b1"),)),
    Case("unknown-source", TR, sub('label: "Alexa devices served", source: talk}', 'label: "Alexa devices served", source: tlak}'),
         ((TR, CLAIM, "claims[7].source", "unknown source 'tlak' (did you mean 'talk'?)"),),
         (("claims", "alexa-devices"),)),
    Case("issue-unknown-family", ISS, sub("families: [diffusion, encoder-decoder, cnn]", "families: [diffusion, encoder-decoder, cnnn]"),
         ((ISS, line(ISS, "families: [diffusion"), "known_issues[0].families[2]", "unknown family 'cnnn'"),),
         (("known_issues", "large-model-weights-2gb"),)),
    Case("comparison-unknown-metric", TR, sub("metric: peak_fp32", "metric: peak_fp64"),
         ((TR, line(TR, "metric: peak_fp32"), "comparisons[2].metric",
           "instance 'trn1.32xlarge' has no value for metric 'peak_fp64'"),
          (TR, line(TR, "metric: peak_fp32"), "comparisons[2].metric",
           "instance 'p4d.24xlarge' has no value for metric 'peak_fp64'")),
         (("comparisons", "trn1-vs-p4d-fp32"),)),
    Case("header-unknown-revision", FAM, sub("guidelines_as_of: 2022-10-10", "guidelines_as_of: 2022-10-11"),
         ((FAM, line(FAM, "guidelines_as_of: 2022-10-10"), "guidelines_as_of",
           "no revision of 2022-10-11 in matrix/; expected one of: 2022-10-10"),)),
    # Duplicates ---------------------------------------------------------------------------------
    Case("duplicate-id", TR, new_claim("{id: alexa-devices, value: 1, unit: x, label: Again, source: talk}"),
         ((TR, end(TR) + 1, "claims[9].id", f"duplicate id 'alexa-devices' (first defined on line {CLAIM})"),),
         (("claims", "alexa-devices"),), kept=(("claims", "alexa-devices"),)),
    Case("duplicate-id-csv", INF, append("vit-inf1-b1,vit-base,,inf1-neuron-1.11,1,1,1,,9.1,,results-analysis\n"),
         ((INF, end(INF) + 1, "id", f"duplicate id 'vit-inf1-b1' (first defined on line {line(INF, 'vit-inf1-b1,')})"),),
         (("inference_runs", "vit-inf1-b1"),), kept=(("inference_runs", "vit-inf1-b1"),)),
    Case("duplicate-key", TR, sub("{id: alexa-devices, value: 100,", "{id: alexa-devices, value: 100, value: 200,"),
         ((TR, CLAIM, "claims[7].value", f"duplicate key 'value' (the first is on line {CLAIM})"),),
         (("claims", "alexa-devices"),)),
    Case("duplicate-top-level-key", ISS, append("roadmap: []\n"),
         ((ISS, end(ISS) + 1, "roadmap", "duplicate key 'roadmap'"),), whole(ISS, *YAML_FILES[ISS])),
    # Whole files --------------------------------------------------------------------------------
    Case("empty-file", ISS, write(""), ((ISS, None, "", "file is empty; expected a mapping with keys: known_issues, roadmap"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("comments-only-file", ISS, write("# nothing here yet\n"), ((ISS, None, "", "file is empty"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("missing-file", TR, delete(), ((TR, None, "", "file is missing"),), whole(TR, *YAML_FILES[TR])),
    Case("missing-csv-file", ACC, delete(), ((ACC, None, "", "file is missing"),), whole(ACC, "accuracy_runs")),
    Case("file-is-a-list", ISS, write("- known_issues\n- roadmap\n"),
         ((ISS, 1, "", "file holds a list; expected a mapping with keys: known_issues, roadmap"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("file-is-a-scalar", ISS, write("just some text\n"),
         ((ISS, 1, "", "file holds a single value ('just some text'); expected a mapping"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("collection-not-a-list", ISS, transform(lambda t: t.split("roadmap:\n")[0] + "roadmap: neuron-roadmap\n"),
         ((ISS, line(ISS, "roadmap:"), "roadmap", "expected a list of roadmap records (got 'neuron-roadmap')"),),
         (("roadmap", None),)),
    Case("collection-missing", ISS, transform(lambda t: t.split("roadmap:\n")[0]),
         ((ISS, None, "roadmap", "missing required list 'roadmap'"),), (("roadmap", None),)),
    Case("non-utf8-bytes", ISS, transform(lambda t: t.encode().replace(b"Neuron public roadmap", b"Neuron \xffroadmap")),
         ((ISS, line(ISS, "title: Neuron public roadmap"), "", "byte 0xff is not UTF-8; expected UTF-8 text"),),
         whole(ISS, *YAML_FILES[ISS])),
    Case("very-large-file", TR, transform(lambda t: t + ("# padding" + " " * 90 + "\n") * (MAX_FILE_BYTES // 100 + 1)),
         ((TR, None, "", f"expected at most {MAX_FILE_BYTES} bytes"),), whole(TR, *YAML_FILES[TR])),
    # Figures ------------------------------------------------------------------------------------
    Case("nan", INS, sub("usd_per_hour: 0.228", "usd_per_hour: .nan"),
         ((INS, line(INS, "usd_per_hour: 0.228"), "instances[0].price.usd_per_hour",
           "expected a finite number (not NaN or infinity)"),), (("instances", "inf1.xlarge"),)),
    Case("infinity", TR, sub("{id: alexa-devices, value: 100,", "{id: alexa-devices, value: .inf,"),
         ((TR, CLAIM, "claims[7].value", "expected a finite number (not NaN or infinity) (got inf)"),),
         (("claims", "alexa-devices"),)),
    Case("nan-in-csv", ACC, sub(",76.38,", ",nan,"),
         ((ACC, line(ACC, "76.38"), "top1_percent", "expected a finite number"),),
         (("accuracy_runs", "resnet50-inf1-acc"),)),
    Case("overflow-to-infinity-in-csv", INF, sub(",536.718,", ",1e999,"),
         ((INF, line(INF, "536.718"), "throughput_per_s", "expected a finite number"),),
         (("inference_runs", "vit-inf1-b3"),)),
    Case("negative-figure", DEV, new_device("    specs:\n      peak: {value: -128, unit: TOPS, label: Peak, source: talk}\n"),
         ((DEV, DEV_LINE + 8, f"devices[{NEW_INDEX}].specs.peak.value", "expected a number greater than 0 (got -128)"),),
         (NEW_DEV[1],)),
    Case("price-of-zero", INS, sub("usd_per_hour: 4.721", "usd_per_hour: 0"),
         ((INS, line(INS, "usd_per_hour: 4.721"), "instances[3].price.usd_per_hour",
           "expected a number greater than 0 (got 0)"),), (("instances", "inf1.24xlarge"),)),
    Case("accuracy-over-100", ACC, sub(",76.72,", ",176.72,"),
         ((ACC, line(ACC, "76.72"), "top1_percent", "expected a number at most 100 (got '176.72')"),),
         (("accuracy_runs", "resnet50-g5-acc"),)),
    Case("batch-size-huge", INF, sub("vit-g5-b128,vit-base,,g5-cuda-11.6,128,", "vit-g5-b128,vit-base,,g5-cuda-11.6,1000000000000,"),
         ((INF, line(INF, "vit-g5-b128,"), "batch_size", "expected a number less than 1000000000"),),
         (("inference_runs", "vit-g5-b128"),)),
    Case("batch-size-negative", INF, sub("vit-g5-b128,vit-base,,g5-cuda-11.6,128,", "vit-g5-b128,vit-base,,g5-cuda-11.6,-1,"),
         ((INF, line(INF, "vit-g5-b128,"), "batch_size", "expected a number greater than 0 (got '-1')"),),
         (("inference_runs", "vit-g5-b128"),)),
    # Hostile YAML -------------------------------------------------------------------------------
    Case("billion-laughs", TR, prepend(BILLION_LAUGHS),
         ((TR, 2, "", "aliases (*name) are not allowed in data files; expected the value written out"),),
         whole(TR, *YAML_FILES[TR])),
    Case("alias", TR, transform(
        lambda t: t.replace('label: "Alexa devices served"', "label: *lbl").replace(
            'label: "Alexa inference latency improvement with Inf1"', 'label: &lbl "Alexa latency"')),
         ((TR, CLAIM, "", "aliases (*name) are not allowed"),), whole(TR, *YAML_FILES[TR])),
    Case("merge-key-with-alias", TR, transform(
        lambda t: t.replace("  - {id: alexa-devices,", "  - {<<: *base, id: alexa-devices,").replace(
            "  - {id: alexa-latency-gain,", "  - &base {id: alexa-latency-gain,")),
         ((TR, CLAIM, "", "aliases (*name) are not allowed"),), whole(TR, *YAML_FILES[TR])),
    Case("merge-key-inline", DEV, new_device("    <<: {generation: 3}\n"),
         ((DEV, DEV_LINE + 7, f"devices[{NEW_INDEX}].<<", "merge keys (<<) are not allowed in data files"),),
         (NEW_DEV[1],)),
    Case("python-object-apply-os-system", DEV, new_device('    features: !!python/object/apply:os.system ["echo pwned"]\n'),
         ((DEV, DEV_LINE + 7, f"devices[{NEW_INDEX}].features",
           "tag tag:yaml.org,2002:python/object/apply:os.system is not allowed"),),
         (NEW_DEV[1],)),
    Case("python-name-tag", TR, sub('label: "Alexa devices served"', "label: !!python/name:os.system ''"),
         ((TR, CLAIM, "claims[7].label", "tag tag:yaml.org,2002:python/name:os.system is not allowed"),),
         (("claims", "alexa-devices"),)),
    Case("python-tag-on-key", TR, sub('label: "Alexa devices served"', "!!python/name:os.system label: x"),
         ((TR, CLAIM, "claims[7].label", "tag tag:yaml.org,2002:python/name:os.system is not allowed"),), (("claims", "alexa-devices"),)),
    Case("local-include-tag", ISS, sub("description: Features and model support planned",
                                       "description: !include secrets.yaml #"),
         ((ISS, line(ISS, "description: Features and model support"), "roadmap[0].description",
           "tag !include is not allowed"),),
         (("roadmap", "neuron-roadmap"),)),
    Case("binary-tag", TR, sub('label: "Alexa devices served"', "label: !!binary aGVsbG8="),
         ((TR, CLAIM, "claims[7].label", "tag tag:yaml.org,2002:binary is not allowed"),), (("claims", "alexa-devices"),)),
    Case("set-tag-on-collection", ISS, sub("examples: [RegNet, Stable Diffusion, t5-11b]", "examples: !!set {RegNet}"),
         ((ISS, line(ISS, "examples:"), "known_issues[0].examples", "tag tag:yaml.org,2002:set is not allowed"),),
         (("known_issues", "large-model-weights-2gb"),)),
    Case("complex-key", TR, sub("{id: alexa-devices, value: 100,", "{id: alexa-devices, [a, b]: c, value: 100,"),
         ((TR, CLAIM, "claims[7]", "keys must be plain names"),), (("claims", "alexa-devices"),)),
    # Rules across records -----------------------------------------------------------------------
    Case("framework-not-on-device", LATEST,
         sub("  - {framework: torch-neuron, workload: inference, header: PyTorch Neuron (``torch-neuron``)}\n",
             "  - {framework: torch-neuron, workload: inference, header: PyTorch Neuron (``torch-neuron``)}\n"
             "  - {framework: torch-neuronx, workload: training, header: PyTorch Neuron (``torch-neuronx``)}\n"),
         ((LATEST, line(LATEST, "- {framework: torch-neuron, workload: inference,") + 1,
           "matrices[1].columns[1].framework", "expected a framework that runs on inferentia ('torch-neuronx' does not)"),
          *((LATEST, n, f"matrices[1].rows[{i}].cells", "expected a cell for every column (missing 'torch-neuronx/training')")
            for i, n in enumerate(n + 2 for n, text in enumerate(original(LATEST).splitlines())
                                  if "cells: {torch-neuron/inference" in text))),
         (revision(LATEST),)),
    Case("missing-matrix-cell", LATEST, sub(LSTM_V1, LSTM_V1.replace(", tensorflow-neuron-tf2/inference: na", "")),
         ((LATEST, LSTM_V1_LINE, LSTM_CELLS,
           "expected a cell for every column (missing 'tensorflow-neuron-tf2/inference')"),),
         (revision(LATEST),)),
    Case("run-without-measurement", INF, sub("1,1,1,,9.007,,results-analysis", "1,1,1,,,,results-analysis"),
         ((INF, line(INF, "9.007"), "p90_latency_ms",
           "expected p90_latency_ms or throughput_per_s (a run needs at least one measurement)"),),
         (("inference_runs", "vit-inf1-b1"),)),
    Case("neuron-device-without-cores", DEV, new_device(kind="neuron"),
         ((DEV, DEV_LINE, f"devices[{NEW_INDEX}].neuroncores", "expected neuroncores (it is required for a neuron device)"),),
         (NEW_DEV[1],)),
    # Dates and URLs -----------------------------------------------------------------------------
    Case("impossible-date", INS, sub("usd_per_hour: 1.18, source: aws-pricing, as_of: 2023-08-01",
                                     "usd_per_hour: 1.18, source: aws-pricing, as_of: 2023-02-30"),
         ((INS, line(INS, "usd_per_hour: 1.18"), "instances[2].price.as_of",
           "expected a date written YYYY-MM-DD (day value is outside expected range) (got '2023-02-30')"),),
         (("instances", "inf1.6xlarge"),)),
    Case("month-13", INS, sub("usd_per_hour: 1.18, source: aws-pricing, as_of: 2023-08-01",
                              'usd_per_hour: 1.18, source: aws-pricing, as_of: "2023-13-01"'),
         ((INS, line(INS, "usd_per_hour: 1.18"), "instances[2].price.as_of", "month value is outside expected range"),),
         (("instances", "inf1.6xlarge"),)),
    Case("date-as-word", INS, sub("usd_per_hour: 1.18, source: aws-pricing, as_of: 2023-08-01",
                                  "usd_per_hour: 1.18, source: aws-pricing, as_of: yesterday"),
         ((INS, line(INS, "usd_per_hour: 1.18"), "instances[2].price.as_of", "expected a date written YYYY-MM-DD"),),
         (("instances", "inf1.6xlarge"),)),
    Case("date-as-number", INS, sub("usd_per_hour: 1.18, source: aws-pricing, as_of: 2023-08-01",
                                    "usd_per_hour: 1.18, source: aws-pricing, as_of: 20230801"),
         ((INS, line(INS, "usd_per_hour: 1.18"), "instances[2].price.as_of",
           "expected a date written YYYY-MM-DD (got 20230801)"),),
         (("instances", "inf1.6xlarge"),)),
    Case("date-with-time", INS, sub("usd_per_hour: 1.18, source: aws-pricing, as_of: 2023-08-01",
                                    "usd_per_hour: 1.18, source: aws-pricing, as_of: 2023-08-01 10:30:00"),
         ((INS, line(INS, "usd_per_hour: 1.18"), "instances[2].price.as_of", "expected a date written YYYY-MM-DD, without a time of day (got 2023-08-01 10:30:00)"),),
         (("instances", "inf1.6xlarge"),)),
    Case("header-bad-date", FAM, sub("guidelines_as_of: 2022-10-10", "guidelines_as_of: 2022-10-32"),
         ((FAM, line(FAM, "guidelines_as_of: 2022-10-10"), "guidelines_as_of",
           "expected a date written YYYY-MM-DD"),)),
    Case("url-not-https", SRC, append("  - {id: new-source, title: New, url: http://example.com/}\n"),
         ((SRC, end(SRC) + 1, f"sources[{original(SRC).count('  - id:')}].url",
           "expected an https:// URL without spaces (got 'http://example.com/')"),),
         (("sources", "new-source"),)),
    Case("url-with-space", ISS, sub("url: https://github.com/orgs/aws-neuron/projects/1",
                                    "url: https://github.com/orgs/aws-neuron/projects 1"),
         ((ISS, line(ISS, "url: https://github.com"), "roadmap[0].url", "expected an https:// URL without spaces"),),
         (("roadmap", "neuron-roadmap"),)),
    Case("url-missing", ISS, sub("    url: https://github.com/orgs/aws-neuron/projects/1\n", ""),
         ((ISS, line(ISS, "- id: neuron-roadmap"), "roadmap[0].url", "required field 'url' is missing"),),
         (("roadmap", "neuron-roadmap"),)),
    # Cascades -----------------------------------------------------------------------------------
    Case("removed-device-cascades", DEV, drop_lines(*A10G),
         ((INS, line(INS, "id: g5.xlarge"), "instances[11].device",
           "unknown device 'a10g' (did you mean 'a100'?)"),
          (MOD, line(MOD, "instance: g5.xlarge"), "environments[1].instance",
           f"instance 'g5.xlarge' could not be loaded (see instances.yaml:{line(INS, 'id: g5.xlarge')})"),
          *G5_ERRORS),
         (("instances", "g5.xlarge"), ("environments", "g5-cuda-11.6"), *G5_BROKEN),
         gone=(("devices", "a10g"),)),
    Case("broken-device-cascades", DEV, sub("    kind: gpu\n    architecture: Ampere\n    purpose: general\n    data_types: [FP32,",
                                            "    kind: gpux\n    architecture: Ampere\n    purpose: general\n    data_types: [FP32,"),
         ((DEV, A10G[0] + 3, "devices[3].kind", "expected 'neuron' or 'gpu' (got 'gpux') (did you mean 'gpu'?)"),
          (INS, line(INS, "id: g5.xlarge"), "instances[11].device",
           f"device 'a10g' could not be loaded (see devices.yaml:{A10G[0]})"),
          (MOD, line(MOD, "instance: g5.xlarge"), "environments[1].instance", "instance 'g5.xlarge' could not be loaded"),
          *G5_ERRORS),
         (("devices", "a10g"), ("instances", "g5.xlarge"), ("environments", "g5-cuda-11.6"), *G5_BROKEN)),
    Case("removed-family-cascades", FAM, drop_lines(line(FAM, "- id: vit"), line(FAM, "- id: diffusion") - 1),
         ((MOD, line(MOD, "id: vit-base") + 2, "models[0].family", "unknown family 'vit'"),
          (MOD, line(MOD, "id: beit") + 2, "models[1].family", "unknown family 'vit'"),
          (MOD, line(MOD, "id: detr"), "models[4].family", "unknown family 'vit'"),
          (MOD, line(MOD, "id: timesformer"), "models[5].family", "unknown family 'vit'"),
          (TR, line(TR, "family: vit"), "experiments[0].family", "unknown family 'vit'"),
          *VIT_ERRORS, *BEIT_ERRORS, *family_rows("vit", "'vit' is not a known family")[0]),
         (("models", "vit-base"), ("models", "beit"), ("models", "detr"), ("models", "timesformer"),
          ("experiments", "vit-toy-training"), *VIT_BROKEN, *BEIT_BROKEN, *family_rows("vit", "")[1]),
         gone=(("families", "vit"),)),
    Case("environment-unknown-framework-cascades", MOD, sub("framework: torch-neuron\n", "framework: torch-neurom\n"),
         ((MOD, line(MOD, "framework: torch-neuron"), "environments[0].framework",
           "unknown framework 'torch-neurom' (did you mean 'torch-neuron'?)"),
          *INF1_ERRORS),
         (("environments", "inf1-neuron-1.11"), *INF1_BROKEN)),
]


#: The published benchmark collections and their files (records that refer to the seed's): the store
#: of published figures (the history, from which the published runs derive) among them.
PUBLISHED = ("prices", "published_tables", "published_models", "published_inference_runs", "published_training_runs",
             *HISTORY_COLLECTIONS)
PUBLISHED_FILES = {Catalog(Path()).file_of(c) for c in PUBLISHED}
@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A writable copy of the frozen data (this module's, not conftest's copy of ``data/``)."""
    return frozen_copy(tmp_path / "data")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    """The frozen data set, loaded once (this module's, not conftest's ``data/``)."""
    return load_catalog(DATA)


@pytest.fixture(scope="module")
def real_ids(catalog: Catalog) -> set[Pair]:
    assert catalog.errors == []
    return {(collection, record_id) for collection, table in catalog.records.items() for record_id in table}


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 45
    assert len({c.id for c in CASES}) == len(CASES)


def _every_figure(catalog: Catalog) -> None:
    """Compute every figure of ``catalog`` both ways (they are computed when asked for)."""
    values = build_values(catalog)
    items = dict(values.items())
    assert all(values[path] == value for path, value in items.items())
    assert len(items) == len(values)


@pytest.mark.parametrize("case", representatives(CASES, lambda case: case.file))
def test_broken_input(case: Case, data_copy: Path, real_ids: set[Pair]) -> None:
    case.edit(case.file)(data_copy)

    catalog = load_catalog(data_copy)  # no exception escapes
    _every_figure(catalog)  # nor when deriving figures from what loaded

    # The published benchmark records name instances, frameworks and sources: breaking one of those
    # cascades into them, each error naming the record that could not be loaded or is gone.
    cascade = [e for e in catalog.errors if e.file in PUBLISHED_FILES and case.file not in PUBLISHED_FILES]
    assert all("could not be" in e.message or e.message.startswith("unknown ") for e in cascade), cascade

    # Exactly the expected errors, each located and saying what was expected.
    got = [e for e in catalog.errors if e not in cascade]
    unmatched = list(got)
    for file, line_no, field, fragment in case.errors:
        match = next((e for e in unmatched if (e.file, e.line, e.field) == (file, line_no, field)
                      and fragment in e.message), None)
        assert match is not None, (f"no error {file}:{line_no} {field}: ...{fragment}...; got:\n"
                                   + "\n".join(map(str, got)))
        unmatched.remove(match)
    assert not unmatched, "unexpected errors:\n" + "\n".join(map(str, unmatched))
    for error in got:
        assert isinstance(error, DataError)
        assert "expected" in error.message, error
        assert error.line is None or error.line >= 1
        assert "Traceback" not in error.message
        assert error.message.count("(got ") <= 1, error

    # The broken records are kept, with their errors.
    broken = {(b.collection, b.record_id) for b in catalog.broken if b.collection not in PUBLISHED or
              case.file in PUBLISHED_FILES}
    assert broken == set(case.broken)
    for b in catalog.broken:
        if (b.collection, b.record_id) not in broken:
            continue
        assert b.errors, b
        assert all(e in got for e in b.errors)
        assert b.file in {e.file for e in b.errors}

    # Everything else still loads.
    removed = ({p for p in case.broken if p[1] is not None} - set(case.kept)) | set(case.gone)
    lost = set() if case.one_without_id else {c for c, record_id in case.broken if record_id is None}
    loaded = {(collection, record_id) for collection, table in catalog.records.items() for record_id in table}
    cascaded = {(b.collection, b.record_id) for b in catalog.broken} - broken
    assert loaded == {p for p in real_ids - removed - cascaded if p[0] not in lost}


# Tolerated input ------------------------------------------------------------------------------

TOLERATED = {
    "yaml-byte-order-mark": ("issues.yaml", lambda t: "\ufeff" + t),
    "csv-byte-order-mark": (INF, lambda t: "\ufeff" + t),
    "crlf-line-ends-yaml": ("training.yaml", lambda t: t.replace("\n", "\r\n")),
    "crlf-line-ends-csv": (ACC, lambda t: t.replace("\n", "\r\n")),
    "blank-rows-in-csv": (ACC, lambda t: t.replace("\n", "\n\n", 3)),
    "spaces-around-csv-cells": (ACC, lambda t: t.replace(",", " , ")),
    "quoted-csv-cells": (ACC, lambda t: t.replace("ImageNet validation", '"ImageNet validation"')),
}


@pytest.mark.parametrize("name", sorted(TOLERATED))
def test_tolerated_input(name: str, data_copy: Path, real_ids: set[Pair]) -> None:
    file, fn = TOLERATED[name]
    path = data_copy / file
    path.write_bytes(fn(path.read_text(encoding="utf-8")).encode("utf-8"))
    catalog = load_catalog(data_copy)
    assert catalog.errors == []
    assert catalog.broken == []
    loaded = {(collection, record_id) for collection, table in catalog.records.items() for record_id in table}
    assert loaded == real_ids


def test_csv_lines_follow_blank_and_multiline_rows(data_copy: Path) -> None:
    """Rows after blank lines and quoted multi-line cells are still located on their own line."""
    path = data_copy / ACC
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace("ImageNet validation", '"ImageNet\nvalidation"')
    lines.insert(2, "")
    lines[-1] = lines[-1].replace("76.72", "176.72")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    catalog = load_catalog(data_copy)
    [error] = catalog.errors
    assert (error.file, error.field) == (ACC, "top1_percent")
    assert error.line == len(path.read_text(encoding="utf-8").splitlines())
    assert catalog.origin("accuracy_runs", "vit-inf1-acc-nofm") == (ACC, 5)


def test_whole_unreadable_file_cascades_with_the_reason(data_copy: Path, catalog: Catalog) -> None:
    """If frameworks.yaml cannot be read, everything naming a framework says so, and nothing escapes."""
    (data_copy / "frameworks.yaml").write_text("frameworks: [\n", encoding="utf-8")
    broken_catalog = load_catalog(data_copy)
    _every_figure(broken_catalog)
    assert broken_catalog.frameworks == {}
    # The file's own error is the one report: the revisions that name frameworks still load.
    assert "frameworks.yaml" in {e.file for e in broken_catalog.errors}
    assert not [e for e in broken_catalog.errors if e.file.startswith("matrix/")]
    assert broken_catalog.matrix_revisions.dates == catalog.matrix_revisions.dates
    assert broken_catalog.families == catalog.families  # the guideline prose names no framework
    assert broken_catalog.sources == catalog.sources  # unrelated records still load


def test_error_strings_are_located() -> None:
    error = DataError("devices.yaml", 12, "devices[1].name", "expected text")
    assert str(error) == "devices.yaml:12: devices[1].name: expected text"
    assert str(DataError("x.yaml", None, "", "file is missing")) == "x.yaml: file is missing"


def test_every_case_message_fragment_is_plain_text() -> None:
    for case in CASES:
        for _, _, _, fragment in case.errors:
            assert not re.search(r"Input should|Value error|String should", fragment), case.id


def test_strict_parsers_raise_on_any_problem() -> None:
    """``parse_yaml`` and ``parse_csv`` (the all-or-nothing readers) raise the first problem."""
    from neuron_docs.data.files.csv_reader import parse_csv
    from neuron_docs.data.files.loader import DataFileError
    from neuron_docs.data.files.yaml_reader import parse_yaml

    value, positions = parse_yaml("a: 1\nb: [x]\n  # c\nc:\n  - y\n", "f.yaml")
    assert value == {"a": 1, "b": ["x"], "c": ["y"]}
    # The line of each value; one on the line of the value holding it has no entry of its own.
    assert positions == {(): 1, ("b",): 2, ("c",): 4, ("c", 0): 5}
    assert [nearest_line(positions, path) for path in [("a",), ("b", 0), ("c", 0), ("c", 1)]] == [1, 2, 5, 4]
    with pytest.raises(DataFileError) as info:
        parse_yaml("a: 1\na: 2\n", "f.yaml")
    assert (info.value.error.line, info.value.error.field) == (2, "a")
    records, positions = parse_csv("id,a\nx,1\n\ny,\n", "f.csv", ["id", "a"])
    assert records == [{"id": "x", "a": "1"}, {"id": "y", "a": None}]
    assert positions[(1,)] == 4
    with pytest.raises(DataFileError) as info:
        parse_csv("id,a\nx,1,2\n", "f.csv", ["id", "a"])
    assert info.value.error.line == 2


def test_an_error_in_a_file_read_before_is_located_as_when_first_read(tmp_path: Path) -> None:
    """A loaded file's part is remembered without its places (the lines of its values and records):
    when a later load reuses the part and a cross-file check finds a problem in it, the places are
    read again from its text, so the error names the same line and field as on the first read."""
    data = frozen_copy(tmp_path / "data")
    models = data / "models.yaml"
    models.write_text(models.read_text(encoding="utf-8").replace("    family: cnn\n", "    family: no-such-family\n", 1),
                      encoding="utf-8")
    line = models.read_text(encoding="utf-8").splitlines().index("    family: no-such-family") + 1

    def family_errors(catalog: Catalog) -> list[tuple[str, int | None, str]]:
        return [(e.file, e.line, e.field) for e in catalog.errors if "no-such-family" in e.message]

    first = family_errors(load_catalog(data))
    assert first and all(at == ("models.yaml", line, at[2]) and at[2].startswith("models[") for at in first), first
    devices = data / "devices.yaml"  # another file changes: models.yaml's part is the one remembered
    devices.write_text(devices.read_text(encoding="utf-8") + "# another build\n", encoding="utf-8")
    assert family_errors(load_catalog(data)) == first
