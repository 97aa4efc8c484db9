"""Reading one published benchmark CSV: its rows with their lines, its cells, its plausibility checks.

The published files are read with pandas (every cell as text, nothing turned into NaN); a small
quote-aware scanner finds each record's line and field count, so that every :class:`Problem` names
the file, the CSV's own line (header = 1) and the column. :mod:`.tables` builds records
from what this module reads; :mod:`.export` writes them back. No Sphinx here.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..data.published import columns as C
from ..data.records import published as s
from ..data.records.labels import METRICS

#: A record of a published table.
PublishedRecord = s.PublishedInferenceRun | s.PublishedTrainingRun | s.InstancePrice
#: A run of a published table.
PublishedRunRecord = s.PublishedInferenceRun | s.PublishedTrainingRun

#: Default source id of the published tables (data/sources.yaml).
SOURCE_ID = "neuron-sdk-benchmarks"
#: Generations, and the file name prefix or folder that names them.
GENERATIONS = ("inf1", "inf2", "trn1")
#: Pages of the snapshot that render each file (files no page reads map to None).
PAGES = {
    "inf1/throughput_data_encoder.csv": "inf1/index.rst",
    "inf1/latency_data_encoder.csv": "inf1/index.rst",
    "inf1/throughput_data_cnn.csv": "inf1/index.rst",
    "inf1/instance_prices.csv": "inf1/index.rst",
    **{f"inf2/{v}_data_{c}.csv": "inf2/inf2-performance.rst"
       for v in ("throughput", "latency")
       for c in ("encoder", "encoder_decoder", "vision_transformers", "vision_cnn", "vision_sd", "vision_dit")},
    "inf2/inf2_instance_prices.csv": "inf2/inf2-performance.rst",
    "trn1/training_data_encoder.csv": "trn1/trn1-training-performance.rst",
    "trn1/training_data_decoder.csv": "trn1/trn1-training-performance.rst",
    "trn1/training_data_vision_transformers.csv": "trn1/trn1-training-performance.rst",
    "trn1/trn1_instance_prices.csv": "trn1/trn1-inference-performance.rst",
    **{f"trn1/{v}_data_{c}.csv": "trn1/trn1-inference-performance.rst"
       for v in ("throughput", "latency") for c in ("encoder", "encoder_decoder", "decoder")},
}
#: NeuronCores of one trn1.32xlarge / trn1n.32xlarge (16 Trainium devices x 2), for the topology check.
TRN1_32XL_NEURONCORES = 32


@dataclass(frozen=True, order=True)
class Problem:
    """One located problem: file, line (header = 1; None for the whole file), column, message."""

    file: str
    line: int | None
    column: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        column = f" {self.column!r}:" if self.column else ""
        return f"{where}:{column} {self.severity}: {self.message}"


@dataclass
class ImportResult:
    """What an import read: the records by kind, the table layouts, every problem, rows read per file."""

    inference_runs: list[s.PublishedInferenceRun] = field(default_factory=list)
    training_runs: list[s.PublishedTrainingRun] = field(default_factory=list)
    prices: list[s.InstancePrice] = field(default_factory=list)
    tables: list[s.PublishedTable] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: Rows read per file (header and blank lines excluded), loaded or not.
    rows_read: dict[str, int] = field(default_factory=dict)
    #: The CSV line of every loaded record, by record id.
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def records(self) -> list[PublishedRecord]:
        return [*self.inference_runs, *self.training_runs, *self.prices]

    def loaded(self, table_id: str) -> list[PublishedRecord]:
        return [r for r in self.records if r.table == table_id]


# Reading ---------------------------------------------------------------------------------------


@dataclass
class _RawRecord:
    line: int
    fields: int


def _record_lines(text: str) -> list[_RawRecord]:
    """Start line and field count of every non-blank CSV record (quote-aware, like the csv module)."""
    out: list[_RawRecord] = []
    line = start = 1
    fields, content, quoted = 1, False, False
    for ch in text:
        if quoted:
            if ch == '"':
                quoted = False
            elif ch == "\n":
                line += 1
            continue
        if ch == '"':
            quoted, content = True, True
        elif ch == ",":
            fields, content = fields + 1, True
        elif ch == "\n":
            if content:
                out.append(_RawRecord(start, fields))
            line += 1
            start, fields, content = line, 1, False
        elif ch != "\r":
            content = True
    if content:
        out.append(_RawRecord(start, fields))
    return out


def read_table(text: str, name: str) -> tuple[list[str], list[tuple[int, list[str]]], list[Problem]]:
    """The header, the rows with their line numbers, and the rows that could not be split."""
    raw = _record_lines(text)
    if not raw:
        return [], [], [Problem(name, None, "", "file has no rows; expected a header row")]
    width = raw[0].fields
    frame = pd.read_csv(io.StringIO(text), header=None, dtype=str, keep_default_na=False, na_filter=False,
                        engine="python", skip_blank_lines=True, on_bad_lines=lambda _bad: None)
    header = [str(c) for c in frame.iloc[0].tolist()]
    problems: list[Problem] = []
    good = [r for r in raw[1:] if r.fields <= width]
    for r in raw[1:]:
        if r.fields != width:
            problems.append(Problem(name, r.line, "", f"row has {r.fields} fields; expected {width}, one per column "
                                                      f"of the header (quote a cell that holds a comma)"))
    body = frame.iloc[1:]
    if len(body) != len(good):  # pragma: no cover - the scanner and pandas disagree on the records
        return header, [], [Problem(name, None, "", "cannot match CSV records to lines; file not imported")]
    rows = []
    for r, (_, values) in zip(good, body.iterrows(), strict=True):
        if r.fields == width:
            rows.append((r.line, ["" if v is None or (isinstance(v, float) and v != v) else str(v)
                                  for v in values.tolist()]))
    return header, rows, problems


# Cells -----------------------------------------------------------------------------------------

_FRAMEWORK = re.compile(r"^(?P<name>[A-Za-z][A-Za-z ]*?)(?: (?P<version>\d+(?:\.\d+)*))?$")
FRAMEWORK_NAMES = "PyTorch <version>, Tensorflow <version>, Transformers NeuronX, NeuronX Distributed"


def resolve_framework(text: str, generation: str) -> tuple[str, str, str | None]:
    """``"PyTorch 1.13.1"`` on inf2 -> ("torch-neuronx", "PyTorch", "1.13.1"). Raises ValueError."""
    m = _FRAMEWORK.match(text.strip())
    if not m:
        raise ValueError(f"a framework such as {FRAMEWORK_NAMES} (got {text!r})")
    name, version = m["name"], m["version"]
    key = name.lower()
    if key == "pytorch":
        fid = "torch-neuron" if generation == "inf1" else "torch-neuronx"
    elif key == "tensorflow":
        if generation == "inf1":
            fid = "tensorflow-neuron-tf1" if (version or "").startswith("1.") else "tensorflow-neuron-tf2"
        else:
            fid = "tensorflow-neuronx"
    elif key in ("transformers neuronx", "transformers neuron"):  # "Transformers Neuron": 2023 tables
        fid = "transformers-neuronx"
    elif key in ("neuronx distributed", "neuron distributed"):  # "Neuron Distributed": 2023 tables
        fid = "neuronx-distributed"
    else:
        raise ValueError(f"a known framework: {FRAMEWORK_NAMES} (got {text!r})")
    return fid, name, version


def render_cell(kind: str, fieldname: str, record: PublishedRecord) -> str:
    """The default published text of a field (before table spellings)."""
    if kind == "framework":
        name, version = getattr(record, "framework_name", ""), getattr(record, "framework_version", None)
        return f"{name} {version}" if version else name
    value = getattr(record, fieldname, None)
    if value is None:
        return ""
    if kind == "instances":
        return "/".join(value)
    if kind == "enum":
        return C.ENUM_TEXT[fieldname].get(value, value)
    return str(value)


def slug(text: str) -> str:
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9.]+", "-", text.lower())).strip("-.") or "x"


#: The generation of an instance type: its family's letters and number (``trn1n.32xlarge`` -> ``trn1``).
_GENERATION = re.compile(r"[a-z]+[0-9]+(?=[a-z]*\.)")


def table_identity(rel: str, instances: Iterable[str] = ()) -> tuple[str | None, str, str | None, str | None]:
    """(generation, table id, view, category) of a published file path such as ``inf2/latency_data_encoder.csv``;
    when neither its folder nor its name says the generation, that of the first of ``instances`` (the
    file's instance column: ``trn1.2xlarge`` -> ``trn1``; ``trn2.48xlarge``: None, not one of GENERATIONS)."""
    path = Path(rel)
    stem = path.stem
    parent = path.parent.name.lower()
    generation = parent if parent in GENERATIONS else next(
        (g for g in GENERATIONS if stem.lower().startswith(g)), None)
    if generation is None and (m := next(filter(None, (_GENERATION.match(t.strip().lower()) for t in instances)), None)):
        generation = m[0] if m[0] in GENERATIONS else None
    view = next((v for v in ("throughput", "latency") if stem.startswith(v + "_")), None)
    category = None
    m = re.match(r"^(?:throughput|latency|training)_data_(.+)$", stem)
    if m:
        category = m[1]
    table_id = slug(f"{generation or 'unknown'}-{stem}".replace("_", "-"))
    return generation, table_id, view, category


def tail_newlines(text: str) -> int:
    """How many line ends follow the last row (0: no final newline; 2: a blank line at the end)."""
    tail = text[len(text.rstrip("\r\n")):]
    return tail.count("\n") + tail.replace("\r\n", "").count("\r")


#: A footnote marker after a published version ("2.13.0 *"): dropped, the published text kept for export.
VERSION_FOOTNOTE = re.compile(r"\s*\*+$")


def parse_cell(kind: str, fieldname: str, text: str, generation: str) -> dict[str, Any]:
    if kind == "framework":
        fid, name, version = resolve_framework(text, generation)
        return {"framework": fid, "framework_name": name, "framework_version": version}
    if kind == "instance":
        return {fieldname: text.lower()}
    if kind == "instances":
        return {fieldname: [t.strip().lower() for t in text.split("/")]}
    if kind == "enum":
        table = C.ENUMS[fieldname]
        if text not in table:
            raise ValueError(f"one of {', '.join(map(repr, table))} (got {text!r})")
        return {fieldname: table[text]}
    if kind == "topology":
        return {fieldname: text, **s.parse_topology(text)}
    if kind == "version":
        version = VERSION_FOOTNOTE.sub("", text)
        if not re.fullmatch(r"\d+(\.\d+)*", version):
            raise ValueError(f"a Neuron release such as 2.20 or 2.20.0 (got {text!r})")
        return {fieldname: version}
    if kind in ("figure", "price") and not s.PLAIN_DECIMAL.match(text):
        raise ValueError(f"a number in plain decimal notation such as 12 or 0.75 (got {text!r})")
    if kind == "count" and not re.fullmatch(r"\d+", text):
        raise ValueError(f"a whole number (got {text!r})")
    return {fieldname: text}


def error_message(err: Mapping[str, Any]) -> str:
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "missing":
        return f"{err['loc'][0]} is missing; expected a value (prices need their as-of date and basis)"
    got = err.get("input")
    if isinstance(got, dict | list) or got is None:
        return f"expected {msg}"
    return f"expected {msg} (got {got!r})"


def config_key(values: dict[str, Any]) -> str:
    """Every value of a row except its measurements, as a canonical string."""
    config = {k: v for k, v in values.items() if k not in METRICS and k not in ("id",)}
    return json.dumps(config, sort_keys=True, default=str, ensure_ascii=False)


def spellings_of(loaded: list[tuple[int, PublishedRecord, dict[str, str]]], kinds: dict[str, str],
               fields: dict[str, str]) -> dict[str, dict[str, str]]:
    counts: dict[str, dict[str, Counter[str]]] = {}
    for _, record, published in loaded:
        for name, text in published.items():
            default = render_cell(kinds[name], fields[name], record)
            counts.setdefault(name, {}).setdefault(default, Counter())[text] += 1
    out: dict[str, dict[str, str]] = {}
    for name, by_default in counts.items():
        for default, texts in by_default.items():
            best = max(texts.items(), key=lambda kv: kv[1])[0]  # ties: first seen (Counter keeps order)
            if best != default:
                out.setdefault(name, {})[default] = best
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def warn_implausible(record: PublishedRecord, rel: str, line: int, column_of: dict[str, str], problems: list[Problem]) -> None:
    """Plausibility warnings: the row loads, but a reader should look."""
    if isinstance(record, s.PublishedInferenceRun):
        chain = [f for f in ("latency_p50_ms", "latency_p90_ms", "latency_p95_ms", "latency_p99_ms", "latency_p100_ms")
                 if getattr(record, f) is not None]
        for a, b in zip(chain, chain[1:], strict=False):
            if getattr(record, a) > getattr(record, b):
                problems.append(Problem(rel, line, column_of.get(b, b), f"{b} {getattr(record, b)} is below "
                                        f"{a} {getattr(record, a)}", "warning"))
        for a, b in (("ttft_p50_ms", "ttft_p99_ms"), ("tpot_p50_ms", "tpot_p99_ms"),
                     ("latency_per_token_p50_ms", "latency_per_token_p99_ms")):
            if getattr(record, a) is not None and getattr(record, b) is not None and getattr(record, a) > getattr(record, b):
                problems.append(Problem(rel, line, column_of.get(b, b), f"{b} is below {a}", "warning"))
    if isinstance(record, s.PublishedTrainingRun) and set(record.instances) <= {"trn1.32xlarge", "trn1n.32xlarge"}:
        world = record.nodes * TRN1_32XL_NEURONCORES
        used = record.tp_degree * (record.dp_degree or 0) * record.pp_degree
        if record.dp_degree is not None and used != world:
            problems.append(Problem(rel, line, column_of.get("topology", "topology"),
                                    f"TP x DP x PP = {used} NeuronCores, but {record.nodes} nodes x "
                                    f"{TRN1_32XL_NEURONCORES} = {world}", "warning"))
    for name, text in getattr(record, "published_text", {}).items():
        if name in column_of.values() and text != text.strip():
            problems.append(Problem(rel, line, name, f"cell {text!r} has surrounding spaces; stored stripped, "
                                                     f"published text kept for export", "warning"))
    for fieldname in ("model_data_type",):
        value = getattr(record, fieldname, None)
        if isinstance(value, str) and value.startswith('"') and value.endswith('"'):
            problems.append(Problem(rel, line, column_of.get(fieldname, fieldname),
                                    f"value {value!r} holds literal double quotes", "warning"))


def check_prices_cover_runs(result: ImportResult) -> None:
    """A run whose instance has no price of its generation gets a warning: its cost cannot be shown."""
    tables = {t.id: t for t in result.tables}
    priced: dict[str, set[str]] = {}
    for price in result.prices:
        assert price.table is not None  # every imported price names its table
        priced.setdefault(tables[price.table].generation, set()).add(price.instance)
    for run in [*result.inference_runs, *result.training_runs]:
        assert run.table is not None  # every imported run names its table
        table = tables[run.table]
        if table.generation not in priced:
            continue
        wanted = run.instances if isinstance(run, s.PublishedTrainingRun) else [run.instance]  # type: ignore[attr-defined]
        if not any(i in priced[table.generation] for i in wanted):
            result.problems.append(Problem(table.path, None, "", f"run {run.id}: no price for {'/'.join(wanted)} in "
                                                                 f"the {table.generation} price file; its cost "
                                                                 f"cannot be shown", "warning"))


