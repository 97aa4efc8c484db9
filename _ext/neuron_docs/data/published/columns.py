"""Every column name of the published benchmark files, mapped to its canonical field (the importer's table).

Column names vary between files and generations ("Inst. Type" / "Instance-Type", "Num. Cores" /
"Num Cores", "Avg Throughput (/sec)" / "Throughput (inference/second)" / "Throughput
(inference/sec)"); trn1 training headers carry leading spaces (" Optimizer", " OS Type."). Names are
looked up with surrounding spaces removed; the exact header is kept in the table layout so that an
export writes it back as published.

``kind`` says how a cell is read and written:

- ``text``: kept as published (surrounding spaces stripped);
- ``figure``: an exact decimal (:data:`..records.published.Figure`), text kept (``8.0`` stays ``8.0``);
- ``count``: a whole number;
- ``instance`` / ``instances``: an EC2 instance id, lower-cased (``Inf2.xlarge`` -> ``inf2.xlarge``);
  ``instances`` is a ``/``-separated list (``trn1.32xlarge/trn1n.32xlarge``);
- ``framework``: ``"<name> <version>"`` resolved to a frameworks.yaml id (see
  :func:`~neuron_docs.benchmark_import.read.resolve_framework`);
- ``enum``: one of the published spellings in :data:`ENUMS`, stored as a slug;
- ``topology``: kept as text; TP/DP/PP degrees and ZeRO stage are parsed from it;
- ``price``: an hourly price; ``basis`` says which kind of price the column holds;
- ``version``: a Neuron release (``2.20``, ``2.20.0``); a footnote marker (``2.13.0 *``) is dropped,
  the published text kept for export;
- ``unmodelled``: a known column no record field holds (a derived or retired figure); its cells are kept
  verbatim, as an unknown column's are, without an error.

Spellings marked ``EARLIER`` appear only in states published before the snapshot (the benchmark
history, :mod:`neuron_docs.benchmark_import.states`).

No Sphinx here.
"""

from __future__ import annotations

from typing import NamedTuple

INF1_ENCODER = ("inf1/latency_data_encoder.csv", "inf1/throughput_data_encoder.csv")
INF1_CNN = ("inf1/data.csv", "inf1/throughput_data_cnn.csv")
INF1 = (*INF1_CNN, *INF1_ENCODER)
INF2_DECODER = ("inf2/latency_data_decoder.csv", "inf2/throughput_data_decoder.csv")
INF2_ENCODER = ("inf2/latency_data_encoder.csv", "inf2/throughput_data_encoder.csv")
INF2_ENC_DEC = ("inf2/latency_data_encoder_decoder.csv", "inf2/throughput_data_encoder_decoder.csv")
INF2_VISION = tuple(f"inf2/{view}_data_vision{suffix}.csv" for suffix in ("", "_cnn", "_dit", "_sd", "_transformers")
                    for view in ("latency", "throughput"))
INF2 = (*INF2_DECODER, *INF2_ENCODER, *INF2_ENC_DEC, *INF2_VISION)
TRN1_TRAINING = ("trn1/training_data_decoder.csv", "trn1/training_data_encoder.csv",
                 "trn1/training_data_vision_transformers.csv", "trn1/trn1_trn1n_nlp_data.csv")
PRICES = ("inf1/instance_prices.csv", "inf2/inf2_instance_prices.csv", "trn1/trn1_instance_prices.csv")
ANTICIPATED = ()  # a name that no file of the snapshot uses, accepted for the next release
EARLIER = ()  # a name only earlier published states use (the benchmark history)


class PublishedColumn(NamedTuple):
    field: str
    kind: str
    files: tuple[str, ...]
    note: str = ""
    basis: str | None = None


#: Published column name (surrounding spaces removed) -> canonical field, for inference and training runs.
RUN_COLUMNS: dict[str, PublishedColumn] = {
    "Name": PublishedColumn("run_name", "text", INF1_CNN, "inf1 run label such as 'YOLOv4-PT(fp32,b1,c4)'"),
    "Model": PublishedColumn("model", "text", (*INF1, *INF2, *TRN1_TRAINING)),
    "Model details": PublishedColumn("model_details", "text", INF1, "data type, checkpoint and sequence length in words"),
    "Source": PublishedColumn("model_source", "text", INF1_ENCODER, "where the model comes from (HuggingFace)"),
    "Application": PublishedColumn("application_area", "text", INF1_CNN, "CV or NLP"),
    "Task": PublishedColumn("task", "text", INF2),
    "Framework": PublishedColumn("framework", "framework", (*INF1, *INF2),
                        "'PyTorch 1.13.1' -> framework torch-neuron(x), framework_name, framework_version"),
    "Inst. Type": PublishedColumn("instance", "instance", (*INF1, *INF2, *PRICES)),
    "Instance Type": PublishedColumn("instance", "instance", ANTICIPATED, "anticipated spelling"),
    "Instance-Type": PublishedColumn("instances", "instances", TRN1_TRAINING, "'trn1.32xlarge/trn1n.32xlarge': both types"),
    "Application Type": PublishedColumn("application_type", "enum", (*INF1, *INF2)),
    "Run Mode": PublishedColumn("run_mode", "enum", (*INF1, *INF2)),
    "Num. Cores": PublishedColumn("neuroncores", "count", INF1_CNN, "NeuronCores used"),
    "Num Cores": PublishedColumn("neuroncores", "count", INF1_ENCODER, "NeuronCores used"),
    "Batch Size": PublishedColumn("batch_size", "count", (*INF1, *INF2)),
    "Threads": PublishedColumn("threads", "count", INF1, "client threads sending requests"),
    "N Models": PublishedColumn("n_models", "count", INF1_ENCODER, "model copies loaded"),
    "Workers per Model": PublishedColumn("workers_per_model", "count", INF1_ENCODER),
    "Ops in Inferentia": PublishedColumn("ops_on_inferentia", "text", INF1_CNN, "empty in every row; unit not stated"),
    "TP Degree": PublishedColumn("tp_degree", "count", (*INF2_DECODER, *INF2_ENC_DEC)),
    "DP Degree": PublishedColumn("dp_degree", "count", INF2_ENC_DEC),
    "Seq. Length": PublishedColumn("sequence_length", "count", INF1_ENCODER, "tokens"),
    "Sequence Length": PublishedColumn("sequence_length", "count",
                              (*INF2_DECODER, *INF2_ENCODER, *INF2_ENC_DEC, *TRN1_TRAINING[:2]),
                              "tokens; ' Sequence Length' (leading space) in trn1 training"),
    "Input Length": PublishedColumn("input_length", "count", (*INF2_DECODER, *INF2_ENC_DEC), "tokens"),
    "Output Length": PublishedColumn("output_length", "count", (*INF2_DECODER, *INF2_ENC_DEC), "tokens"),
    "Image Size": PublishedColumn("image_size", "text", INF2_VISION, "pixels, e.g. 224x224"),
    "Model Data Type": PublishedColumn("model_data_type", "text", INF2),
    "Compilation Autocast Data Type": PublishedColumn("autocast_data_type", "text", INF2),
    "Weight Storage Data Type": PublishedColumn("weight_storage_data_type", "text", INF2_DECODER),
    "Training Data-Type": PublishedColumn("training_data_type", "text", TRN1_TRAINING, "precision / autocast mode"),
    "Neuron Version": PublishedColumn("neuron_version", "version", (*INF1, *INF2, *TRN1_TRAINING), "Neuron SDK release"),
    "OS Type": PublishedColumn("os", "text", INF2_ENCODER),
    "OS Type.": PublishedColumn("os", "text", TRN1_TRAINING, "published as ' OS Type.'"),
    "Scripts": PublishedColumn("script", "text", (*INF1_ENCODER, *INF2)),
    "Tutorial": PublishedColumn("script", "text", INF1_CNN),
    "Neuron Tutorial/Example": PublishedColumn("script", "text", TRN1_TRAINING),
    "Pytorch Neuron(torch-neuronx) Version": PublishedColumn("framework_package_version", "text", TRN1_TRAINING,
                                                    "torch-neuronx package version"),
    "# Nodes": PublishedColumn("nodes", "count", EARLIER, "trn1 training tables of 2022"),
    "Global Minibatch": PublishedColumn("global_batch_size", "count", EARLIER, "trn1 training tables until 2024"),
    "Precision": PublishedColumn("training_data_type", "text", EARLIER, "trn1 training tables of 2022 (BF16+SR)"),
    "Data-Type": PublishedColumn("model_data_type", "text", EARLIER, "trn1 training tables of 2022 (FP32)"),
    "Model Data-Type": PublishedColumn("model_data_type", "text", EARLIER, "trn1 training tables of 2022-2023"),
    "Scaling Efficiency": PublishedColumn("scaling_efficiency", "unmodelled", EARLIER, "percent, derived; kept verbatim"),
    "ComputeCostPerSequence": PublishedColumn("compute_cost_per_sequence", "unmodelled", EARLIER,
                                     "unit not stated; kept verbatim (not the per-token figure)"),
    # Throughput.
    "Throughput (/sec)": PublishedColumn("throughput_inferences_per_s", "figure", EARLIER,
                                "inf2/trn1 tables of 2023 (throughput_data.csv, latency_data.csv)"),
    "Avg Throughput (/sec)": PublishedColumn("throughput_inferences_per_s", "figure", INF1),
    "Max Throughput": PublishedColumn("max_throughput_inferences_per_s", "figure", INF1, "empty in every row"),
    "Throughput (inference/second)": PublishedColumn("throughput_inferences_per_s", "figure", INF2_ENCODER),
    "Throughput (inference/sec)": PublishedColumn("throughput_inferences_per_s", "figure", INF2_VISION,
                                         "images/s in vision tables (see CONTEXT_FIELDS); trn1 encoder page "
                                         "uses it for inferences/s"),
    "Throughput (tokens/second)": PublishedColumn("throughput_tokens_per_s", "figure", INF2_ENC_DEC,
                                         "input + output tokens"),
    "Output Token Throughput (tokens/sec)": PublishedColumn("output_token_throughput_tokens_per_s", "figure", INF2_DECODER),
    "Performance [seq/sec]": PublishedColumn("throughput_sequences_per_s", "figure", TRN1_TRAINING,
                                    "published as ' Performance [seq/sec]'"),
    # Latency.
    "Latency P50 (ms)": PublishedColumn("latency_p50_ms", "figure", (*INF1, *INF2_ENCODER, *INF2_VISION)),
    "Latency P90 (ms)": PublishedColumn("latency_p90_ms", "figure", INF1),
    "Latency P95 (ms)": PublishedColumn("latency_p95_ms", "figure", INF1),
    "Latency P99 (ms)": PublishedColumn("latency_p99_ms", "figure", (*INF1, *INF2_ENCODER, *INF2_VISION)),
    "Latency P100 (ms)": PublishedColumn("latency_p100_ms", "figure", INF1_CNN),
    "TTFT Latency P50 (ms)": PublishedColumn("ttft_p50_ms", "figure", INF2_DECODER),
    "TTFT Latency P99 (ms)": PublishedColumn("ttft_p99_ms", "figure", INF2_DECODER),
    "TPOT Latency P50 (ms)": PublishedColumn("tpot_p50_ms", "figure", INF2_DECODER),
    "TPOT Latency P99 (ms)": PublishedColumn("tpot_p99_ms", "figure", INF2_DECODER),
    "Latency per Token P50 (ms)": PublishedColumn("latency_per_token_p50_ms", "figure", INF2_ENC_DEC),
    "Latency per Token P99 (ms)": PublishedColumn("latency_per_token_p99_ms", "figure", INF2_ENC_DEC),
    # Training.
    "Nodes": PublishedColumn("nodes", "count", TRN1_TRAINING, "instances"),
    "Topology": PublishedColumn("topology", "topology", TRN1_TRAINING),
    "Microbatch": PublishedColumn("micro_batch_size", "count", TRN1_TRAINING),
    "Globalbatch": PublishedColumn("global_batch_size", "count", TRN1_TRAINING),
    "Optimizer": PublishedColumn("optimizer", "text", TRN1_TRAINING, "published as ' Optimizer'"),
    "Strong/Weak Scaling": PublishedColumn("scaling", "enum", TRN1_TRAINING),
    "MFU[%]": PublishedColumn("mfu_percent", "figure", TRN1_TRAINING[3:]),
    "ComputeCostPerToken(Tflops)": PublishedColumn("compute_cost_per_token_tflop", "figure", TRN1_TRAINING[3:]),
}

#: Published column name -> canonical field, for price files.
PRICE_COLUMNS: dict[str, PublishedColumn] = {
    "Inst. Type": PublishedColumn("instance", "instance", PRICES),
    "Instance Type": PublishedColumn("instance", "instance", ANTICIPATED, "anticipated spelling"),
    "RI-Effective hourly rate": PublishedColumn("usd_per_hour", "price", PRICES,
                                       "reserved-instance effective USD/h", basis="reserved-effective"),
    "On-Demand hourly rate": PublishedColumn("usd_per_hour", "price", ANTICIPATED, "anticipated", basis="on-demand"),
}

#: A column whose field depends on the table's category: (column, category prefix) -> field.
CONTEXT_FIELDS: dict[tuple[str, str], str] = {
    ("Throughput (inference/sec)", "vision"): "throughput_images_per_s",
}

#: Columns whose presence makes a file a training table.
TRAINING_MARKERS = frozenset({"Performance [seq/sec]", "Instance-Type", "Topology", "Nodes"})

#: Published spellings of the enumerations -> canonical slug.
ENUMS: dict[str, dict[str, str]] = {
    "application_type": {"Real Time": "real-time", "Batch": "batch"},
    "run_mode": {"Data Parallel": "data-parallel", "Model Pipeline": "model-pipeline",
                 "Tensor Parallel": "tensor-parallel"},
    "scaling": {"strong scaling": "strong", "weak scaling": "weak"},
}

#: Canonical slug -> published spelling (what an export writes unless the table spells it otherwise).
ENUM_TEXT: dict[str, dict[str, str]] = {f: {v: k for k, v in m.items()} for f, m in ENUMS.items()}

#: Required fields: an empty cell (or a missing column) is a located error and the row is not loaded.
REQUIRED: dict[str, tuple[str, ...]] = {
    "inference": ("model", "framework", "instance", "batch_size", "neuron_version"),
    "training": ("model", "instances", "nodes", "topology", "throughput_sequences_per_s", "neuron_version"),
    "prices": ("instance", "usd_per_hour"),
}


def lookup(name: str, kind: str) -> PublishedColumn | None:
    """The column a published header names (spaces around it ignored), or None."""
    table = PRICE_COLUMNS if kind == "prices" else RUN_COLUMNS
    return table.get(name.strip())


def field_for(name: str, column: PublishedColumn, category: str | None) -> str:
    for (col, prefix), field in CONTEXT_FIELDS.items():
        if col == name.strip() and category and category.startswith(prefix):
            return field
    return column.field
