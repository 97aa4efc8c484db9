"""Pydantic models of the benchmark tables the AWS Neuron documentation publishes, and of prices.

The published tables (``about-neuron/benchmarks/`` of aws-neuron/aws-neuron-sdk) hold inference runs
(inf1, inf2), training runs (trn1) and reserved-instance prices;
:mod:`neuron_docs.benchmark_import.tables` reads them into these records (``data/benchmarks/published/``,
``data/prices.yaml``). Figures keep the text they were published with: a :data:`Figure` is a
:class:`~decimal.Decimal` parsed from plain decimal notation and ``str(figure)`` gives back the published text ("8.0", "524.10"), so an export
reproduces every published cell. The unit of a run's throughput decides its cost basis (per 1M
inferences, images, tokens, output tokens or training sequences: :data:`.labels.COST_BASIS`).
No Sphinx here.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from .labels import COST_BASIS, THROUGHPUT_FIELDS
from .models import Date, Id, Record, Text

Name = Annotated[str, Field(min_length=1, max_length=300)]
Version = Annotated[str, Field(pattern=r"^\d+(\.\d+)*$", max_length=40)]
ImageSize = Annotated[str, Field(pattern=r"^\d+(x\d+)+$", max_length=40)]

#: Plain decimal notation: what the published files write, and what ``str(Decimal)`` gives back.
PLAIN_DECIMAL = re.compile(r"^-?\d+(\.\d+)?$")


def _figure_input(value: object) -> object:
    """A published figure: plain decimal text (or an int/Decimal); never a bool, NaN or infinity."""
    if isinstance(value, bool):
        msg = f"a number (got {value})"
        raise ValueError(msg)
    if isinstance(value, float):
        if not math.isfinite(value):
            msg = "a finite number (not NaN or infinity)"
            raise ValueError(msg)
        return Decimal(repr(value))
    if isinstance(value, int | Decimal):
        return Decimal(value)
    if isinstance(value, str):
        text = value.strip()
        if not PLAIN_DECIMAL.match(text):
            msg = f"a number in plain decimal notation such as 12 or 0.75 (got {value!r})"
            raise ValueError(msg)
        try:
            return Decimal(text)
        except InvalidOperation:  # pragma: no cover - the pattern already refuses it
            msg = f"a number (got {value!r})"
            raise ValueError(msg) from None
    return value


def _count_input(value: object) -> object:
    if isinstance(value, bool):
        msg = f"a whole number (got {value})"
        raise ValueError(msg)
    if isinstance(value, str) and not re.fullmatch(r"\s*\d+\s*", value):
        msg = f"a whole number (got {value!r})"
        raise ValueError(msg)
    return value

#: A published measurement: exact decimal, > 0.
Figure = Annotated[Decimal, BeforeValidator(_figure_input), Field(gt=0, allow_inf_nan=False)]
#: A count of things (batch size, nodes, cores, degrees).
Count = Annotated[int, BeforeValidator(_count_input), Field(gt=0, lt=10**9)]
Percent = Annotated[Decimal, BeforeValidator(_figure_input), Field(gt=0, le=100, allow_inf_nan=False)]

Generation = Literal["inf1", "inf2", "trn1"]
ApplicationType = Literal["real-time", "batch"]
RunMode = Literal["data-parallel", "model-pipeline", "tensor-parallel"]
Scaling = Literal["strong", "weak"]
PriceBasis = Literal["on-demand", "reserved-effective"]
View = Literal["throughput", "latency"]



def json_object_cell(example: str, *, blank_is_empty: bool = False) -> Callable[[object], object]:
    """A validator of a JSON object held in one CSV cell: ``None`` (an empty cell; with
    ``blank_is_empty`` also ``""``) is ``{}``; text is parsed, else refused with ``example`` as what
    was expected; anything else is left to the field's type."""
    def parse(value: object) -> object:
        if value is None or (blank_is_empty and value == ""):
            return {}
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise ValueError(f"a JSON object such as {example} (got {value!r})") from None
        return value

    return parse


def _id_list(value: object) -> object:
    """``instances`` as the data CSV holds it: ids separated by ``;``."""
    return [part.strip() for part in value.split(";")] if isinstance(value, str) else value


Verbatim = Annotated[dict[str, str], BeforeValidator(json_object_cell('{"Column": "text"}'))]


class PublishedRun(Record):
    """What inference and training runs share: where the row was published, and its software."""

    id: Id
    #: The published table (see :class:`PublishedTable`) the run is a row of; rows keep their order.
    table: Id
    model: Name
    neuron_version: Version
    #: The benchmark script or tutorial, as published (reStructuredText link or role).
    script: Text | None = None
    os: Name | None = None
    #: Cells whose published text cannot be rendered from the fields (unknown columns, stray
    #: spaces): column header -> text, so that an export still reproduces the published file.
    published_text: Verbatim = {}
    source: Id

    def throughput(self) -> tuple[str, Decimal, str] | None:
        """The run's throughput: (field, value, unit), the first of :data:`THROUGHPUT_FIELDS` set."""
        for name, unit in THROUGHPUT_FIELDS.items():
            value = getattr(self, name, None)
            if value is not None:
                return name, value, unit
        return None

    @property
    def cost_basis(self) -> str | None:
        """What a cost of the run is per: "1M output tokens" for an output-token throughput, ..."""
        found = self.throughput()
        return COST_BASIS[found[2]] if found else None


class PublishedInferenceRun(PublishedRun):
    """One row of a published inference table (inf1, inf2; trn1 inference once published)."""

    # Identity and software.
    run_name: Name | None = None                 # inf1 "Name", e.g. "YOLOv4-PT(fp32,b1,c4)"
    model_details: Text | None = None            # inf1 "Model details", e.g. "fp32, bert-base-uncased, sequence-length=128"
    model_source: Name | None = None             # inf1 "Source", e.g. "HuggingFace"
    application_area: Name | None = None         # inf1 "Application": CV, NLP
    task: Name | None = None                     # inf2 "Task", e.g. "Text Generation"
    framework: Id                                # a frameworks.yaml id (torch-neuronx, transformers-neuronx, ...)
    framework_name: Name                         # as published: "PyTorch", "Tensorflow", "Transformers NeuronX"
    framework_version: Version | None = None     # "1.13.1" of "PyTorch 1.13.1"
    instance: Id
    # Configuration.
    application_type: ApplicationType | None = None
    run_mode: RunMode | None = None
    batch_size: Count
    neuroncores: Count | None = None
    threads: Count | None = None
    n_models: Count | None = None
    workers_per_model: Count | None = None
    tp_degree: Count | None = None
    dp_degree: Count | None = None
    sequence_length: Count | None = None         # tokens
    input_length: Count | None = None            # tokens
    output_length: Count | None = None           # tokens
    image_size: ImageSize | None = None          # pixels, e.g. 224x224 (16x224x224: 16 frames)
    model_data_type: Name | None = None
    autocast_data_type: Name | None = None       # compiler autocast, e.g. "Matmult-BF16", "None"
    weight_storage_data_type: Name | None = None
    ops_on_inferentia: Name | None = None        # inf1 "Ops in Inferentia" (unit not stated; always empty)
    # Measurements (see METRICS).
    throughput_inferences_per_s: Figure | None = None
    max_throughput_inferences_per_s: Figure | None = None
    throughput_images_per_s: Figure | None = None
    throughput_tokens_per_s: Figure | None = None
    output_token_throughput_tokens_per_s: Figure | None = None
    latency_p50_ms: Figure | None = None
    latency_p90_ms: Figure | None = None
    latency_p95_ms: Figure | None = None
    latency_p99_ms: Figure | None = None
    latency_p100_ms: Figure | None = None
    ttft_p50_ms: Figure | None = None
    ttft_p99_ms: Figure | None = None
    tpot_p50_ms: Figure | None = None
    tpot_p99_ms: Figure | None = None
    latency_per_token_p50_ms: Figure | None = None
    latency_per_token_p99_ms: Figure | None = None

    @model_validator(mode="after")
    def _one_throughput(self) -> PublishedInferenceRun:
        given = [f for f in THROUGHPUT_FIELDS if f != "throughput_sequences_per_s" and getattr(self, f) is not None]
        if not given:
            msg = ("a throughput (one of " + ", ".join(f for f in THROUGHPUT_FIELDS if f != "throughput_sequences_per_s")
                   + "); a published run needs one, it decides the cost basis")
            raise ValueError(msg)
        if len(given) > 1:
            msg = f"one throughput field (got {', '.join(given)}); each run has one unit"
            raise ValueError(msg)
        return self


_TOPOLOGY_PART = re.compile(r"\b(TP|DP|PP)=(\d+)|ZeRO-(\d)")
_DP_CORES = re.compile(r"^\[(\d+)xNC\(DP\)\](?: x (\d+)Nodes\(DP\))?$")
_TP_DP_CORES = re.compile(r"^\[(\d+)xNC\(TP\)x(\d+)\(DP\)\](?: x (\d+)Nodes\(DP\))?$")


def parse_topology(text: str) -> dict[str, int]:
    """The TP/DP/PP degrees and ZeRO stage a published topology names.

    ``"TP=32 DP=4 PP=8"``, ``"TP=32 DP=32 PP=1 ZeRO-1"``, ``"TP=8 DP=64"`` (PP=1),
    ``"[32xNC(DP)] x 16Nodes(DP)"`` (pure data parallel over 32 cores x 16 nodes: DP=512),
    ``"[8xNC(TP)x4(DP)] x 16Nodes(DP)"`` (2022 tables: TP=8, DP=4 x 16 = 64).
    Raises ValueError for any other form.
    """
    text = text.strip()
    match = _DP_CORES.match(text)
    if match:
        return {"tp_degree": 1, "dp_degree": int(match[1]) * int(match[2] or 1), "pp_degree": 1}
    match = _TP_DP_CORES.match(text)
    if match:
        return {"tp_degree": int(match[1]), "dp_degree": int(match[2]) * int(match[3] or 1), "pp_degree": 1}
    found: dict[str, int] = {}
    rest = text
    for m in _TOPOLOGY_PART.finditer(text):
        if m[1]:
            found[f"{m[1].lower()}_degree"] = int(m[2])
        else:
            found["zero_stage"] = int(m[3])
        rest = rest.replace(m[0], "", 1)
    if not found or rest.strip():
        msg = (f"a topology such as 'TP=8 DP=32 PP=4', 'TP=32 DP=32 PP=1 ZeRO-1' or "
               f"'[32xNC(DP)] x 16Nodes(DP)' (got {text!r})")
        raise ValueError(msg)
    found.setdefault("tp_degree", 1)
    found.setdefault("pp_degree", 1)
    return found


class PublishedTrainingRun(PublishedRun):
    """One row of a published training table (trn1/trn1n)."""

    #: The instance types the figures hold for ("trn1.32xlarge/trn1n.32xlarge": both).
    instances: Annotated[list[Id], BeforeValidator(_id_list), Field(min_length=1)]
    framework: Id = "torch-neuronx"
    framework_package_version: Version | None = None   # "Pytorch Neuron(torch-neuronx) Version"
    training_data_type: Name | None = None             # e.g. "Autocast:BF16+SR", "FP32", "BF16"
    model_data_type: Name | None = None                # "Model Data-Type" of 2022-2023 tables, e.g. "FP32"
    nodes: Count
    topology: Name                                     # as published; the degrees below are parsed from it
    tp_degree: Count
    dp_degree: Count | None = None
    pp_degree: Count
    zero_stage: Annotated[int, Field(ge=0, le=3)] | None = None
    micro_batch_size: Count | None = None
    global_batch_size: Count | None = None
    optimizer: Name | None = None
    sequence_length: Count | None = None
    scaling: Scaling | None = None
    throughput_sequences_per_s: Figure
    mfu_percent: Percent | None = None
    compute_cost_per_token_tflop: Figure | None = None

    @model_validator(mode="after")
    def _degrees_follow_topology(self) -> PublishedTrainingRun:
        parsed = parse_topology(self.topology)
        for name, value in parsed.items():
            if getattr(self, name) != value:
                msg = f"{name} {getattr(self, name)} (the topology {self.topology!r} says {value})"
                raise ValueError(msg)
        return self


class InstancePrice(Record):
    """An hourly price of an instance type, with what kind of price it is and when it held."""

    id: Id
    instance: Id
    usd_per_hour: Figure
    basis: PriceBasis
    #: Reserved-instance term ("1-year", "3-year", optionally with the payment option) when known.
    term: Name | None = None
    #: AWS region code (us-east-1) when the source says it; None when it does not.
    region: Annotated[str, Field(pattern=r"^[a-z]{2}(-[a-z]+)+-\d$")] | None = None
    source: Id
    as_of: Date
    #: The published price table the price is a row of (None for prices typed by hand).
    table: Id | None = None

    @model_validator(mode="after")
    def _term_only_reserved(self) -> InstancePrice:
        if self.term is not None and self.basis != "reserved-effective":
            msg = "term only with basis 'reserved-effective' (an on-demand price has no term)"
            raise ValueError(msg)
        return self


class PublishedTable(Record):
    """The layout of one published file, so that an export writes it back as it was published."""

    id: Id
    generation: Generation
    kind: Literal["inference", "training", "prices"]
    #: Throughput- or latency-optimized tab of the page; None for tables without tabs.
    view: View | None = None
    #: Model group of the table (file name without its prefix): encoder, decoder, vision_cnn, ...
    category: Name | None = None
    #: Path inside the published ``about-neuron/benchmarks/`` folder.
    path: Name
    #: The page that renders the table, or None when no page of the snapshot reads it.
    page: Name | None = None
    #: The header as published, in order (leading spaces included).
    columns: list[str] = Field(min_length=1)
    #: Per column, published text of a canonical value where the two differ ("inf2.xlarge" -> "Inf2.xlarge").
    spellings: dict[str, dict[str, str]] = {}
    line_terminator: Literal["lf", "crlf"] = "lf"
    #: Line ends after the last row: 0 when the file has no final newline, 2 when a blank line ends it.
    tail_newlines: Annotated[int, Field(ge=0, le=100)] = 1
    source: Id




class PublishedModel(Record):
    """A benchmarked model as the published tables name it, the model family it belongs to, the
    other names people write it with, and the record it is the same model as (one identity:
    :mod:`neuron_docs.data.figures.identity`)."""

    id: Id
    #: The model exactly as the tables' "Model" column writes it.
    name: Name
    family: Id
    #: Other names of the model: Hugging Face ids, abbreviations ("SDXL"), sizes as written ("Llama 3 8B").
    aliases: list[Name] = []
    #: The published model (id) this one is another spelling of ("BERT base (bert-base-uncased)" is
    #: "bert-base-uncased"): its runs are that model's runs.
    same_as: Id | None = None
