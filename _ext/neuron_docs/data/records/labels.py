"""Every human-readable label the site prints for a data code: one table per kind (no Sphinx).

Matrix badges, role output, the drift checker's verdicts, the audit, previews and benchmark tables
all take their words from here, so a status is worded the same everywhere; the words of every
figure's field (its header, unit, quantity and words in a sentence) are one table, :data:`FIELD_WORDS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .models import Framework

#: Support status as printed in a matrix cell (its badge).
STATUS_TEXT = {"supported": "Supported", "limited": "Supported with limitations", "roadmap": "Roadmap Item",
               "na": "NA"}
#: Architecture fit as printed in a matrix cell (its badge).
FIT_TEXT = {"good": "Good Fit", "poor": "Not a Good Fit", "limited": "Supported with limitations"}
#: Architecture fit in a sentence ("Encoders are a good fit for Inferentia").
FIT_WORDS = {"good": "a good fit", "poor": "not a good fit", "limited": "a fit with limitations"}
#: Support status in a sentence.
STATUS_WORDS = {"supported": "supported", "limited": "supported with limitations", "roadmap": "not supported yet (a roadmap item)",
                "na": "not supported (not applicable)"}
#: What a fit or support claim in prose can say, in words ("unsupported": roadmap or not applicable).
CLAIM_WORDS = {**FIT_WORDS, "supported": "supported", "unsupported": "not supported"}
#: What each badge means, for the legend under a matrix.
BADGE_MEANING = {
    ("fit", "good"): "the architecture suits the device",
    ("fit", "poor"): "the architecture does not suit the device",
    ("fit", "limited"): "the architecture suits the device with limitations",
    ("status", "supported"): "at least one model of the family runs with this framework",
    ("status", "limited"): "at least one model of the family runs with this framework, with limitations",
    ("status", "roadmap"): "planned; links to its roadmap item",
    ("status", "na"): "not applicable to this framework",
}
#: Compilation status of a benchmarked model.
COMPILATION_TEXT = {"compiled": "Compiled", "fragmented": "Compiles, fragmented", "not_compiled": "Not compiled"}
#: Units written in prose that are a multiple of a data unit: unit -> (the data's unit, factor).
UNIT_SCALE = {"PFLOPS": ("TFLOPS", 1000.0), "TB/s": ("GB/s", 1000.0)}


def badge_text(kind: str, value: str) -> str:
    """The words of a fit (``kind="fit"``) or support badge."""
    return (FIT_TEXT if kind == "fit" else STATUS_TEXT)[value]


def with_version(text: str, framework: Framework) -> str:
    """``text`` followed by the framework's version when it has one: ``TensorFlow (TF 1.x)``."""
    return f"{text} ({framework.framework_version})" if framework.framework_version else text


def framework_label(framework: Framework) -> str:
    """The package with its framework version: ``tensorflow-neuron (TF 1.x)``."""
    return with_version(framework.package, framework)


def framework_header(framework: Framework) -> str:
    """The matrix column header: ``TensorFlow Neuron (tensorflow-neuron (TF 1.x))``."""
    return f"{framework.name} ({framework_label(framework)})"

#: Units of one dimension that prose may write instead of the data's, for comparing figures only
#: (never for rendering): unit -> (the base unit, factor). Times in ms, sizes in GB, compute in
#: TFLOPS, bandwidth in GB/s; the drift checker converts both the figure and the value.
UNIT_CONVERSIONS = {"s": ("ms", 1000.0), "min": ("ms", 60000.0), "us": ("ms", 0.001), "TB": ("GB", 1000.0),
                    "PFLOPS": ("TFLOPS", 1000.0), "TB/s": ("GB/s", 1000.0)}
#: Other names of model families as people write them, by family id (plurals are matched anyway).
FAMILY_SYNONYMS = {
    "encoder": ("Transformer encoders", "encoder models", "autoencoding models", "BERT-like models"),
    "decoder": ("Transformer decoders", "decoder models", "autoregressive models", "GPT-like models",
                "LLM", "large language models"),
    "encoder-decoder": ("encoder-decoder models", "sequence-to-sequence", "seq2seq", "seq2seq models"),
    "vit": ("ViT", "ViTs", "vision transformer models"),
    "diffusion": ("diffusion", "Stable Diffusion"),
    "cnn": ("CNN", "CNN models", "CNN based models", "CNN-based models", "convolutional networks",
            "convolutional neural networks"),
    "rcnn": ("R-CNN", "RCNN", "Region-based CNN", "region-based CNNs", "Mask R-CNN", "Faster R-CNN"),
    "lstm": ("LSTM", "LSTM networks", "LSTM models", "LSTM cells", "models with LSTM cells",
             "Long Short-Term Memory networks", "Long Short-Term Memory"),
    "rnn": ("RNN", "recurrent neural networks", "recurrent networks"),
}
#: Short names of devices (instance families are known from the data).
DEVICE_SYNONYMS = {
    "inferentia": ("Inferentia1", "Inferentia 1", "NeuronCore v1", "NeuronCore-v1", "first-generation Inferentia"),
    "inferentia2": ("Inferentia 2", "second-generation Inferentia"),
    "trainium": ("Trainium1",),
}
#: Other names of Neuron frameworks (a name shared by several ids is resolved by the device).
FRAMEWORK_SYNONYMS = {
    "torch-neuron": ("PyTorch", "PyTorch Neuron", "torch neuron"),
    "torch-neuronx": ("PyTorch", "PyTorch Neuron", "torch neuronx"),
    "tensorflow-neuron-tf1": ("TensorFlow", "TensorFlow Neuron", "TF 1.x", "TF1.x", "TF1", "TensorFlow 1.x",
                              "tensorflow-neuron"),
    "tensorflow-neuron-tf2": ("TensorFlow", "TensorFlow Neuron", "TF 2.x", "TF2.x", "TF2", "TensorFlow 2.x",
                              "tensorflow-neuron"),
    "tensorflow-neuronx": ("TensorFlow", "TensorFlow Neuron", "tensorflow neuronx"),
}
#: A matrix cell's words -> the badge it states (``fit:good``, ``status:roadmap``...).
CELL_WORDS = {"supported": "status:supported", "roadmap item": "status:roadmap", "roadmap": "status:roadmap",
              "na": "status:na", "n/a": "status:na", "not applicable": "status:na", "good fit": "fit:good",
              "not a good fit": "fit:poor", "poor fit": "fit:poor",
              # a status under a framework's column, the fit elsewhere (drift.tables decides)
              "supported with limitations": "status:limited"}

# Published benchmarks (data/benchmarks/published/) ------------------------------------------------

class FieldWords(NamedTuple):
    """The words of a figure's field (the last part of its path ``kind:id:field``, or a published run's
    column): how a table or chart heads it, its unit, the quantity it measures, in a sentence."""

    #: As a column header or a chart names it ("Latency P50"); "" when no table heads it.
    label: str
    #: The data's unit ("" when the record states its own, as a device's specifications do).
    unit: str
    #: What the drift checker compares it with (:mod:`neuron_docs.drift.quantities`); None: its
    #: figure's label says.
    quantity: str | None = None
    #: A seed run's figure in a sentence, in a tooltip ("p90 latency of ViT on inf1.2xlarge ...").
    words: str = ""
    #: What it measures, for a reader.
    meaning: str = ""
    #: A measurement of a published run (a column of its table, a figure ``prun:<id>:<field>``).
    measured: bool = False


def _measured(label: str, unit: str, meaning: str) -> FieldWords:
    return FieldWords(label, unit, None, "", meaning, True)


#: The one table of the words of every field a figure has: a published run's measurements (in the
#: order their columns show), a seed run's figures, the derived costs, and the fields of other
#: records the drift checker reads by quantity. Units of the published measurements are those of
#: :data:`.fields.Unit`; the throughput's unit decides the run's cost basis (:data:`COST_BASIS`).
FIELD_WORDS: dict[str, FieldWords] = {
    "throughput_inferences_per_s": _measured(
        "Throughput", "inferences/s", "Inferences completed per second on the whole instance (one inference = "
        "one input of the batch)."),
    "max_throughput_inferences_per_s": _measured(
        "Max throughput", "inferences/s", "Highest inferences per second observed during the run."),
    "throughput_images_per_s": _measured(
        "Throughput", "images/s", "Images processed (classified, segmented or generated) per second; published "
        "as 'Throughput (inference/sec)' in the vision tables, billed per 1M images."),
    "throughput_tokens_per_s": _measured(
        "Throughput", "tokens/s", "Tokens per second counting both input and output tokens."),
    "output_token_throughput_tokens_per_s": _measured(
        "Output token throughput", "output tokens/s", "Generated (output) tokens per second over the batch."),
    "throughput_sequences_per_s": _measured(
        "Training throughput", "sequences/s", "Training samples (sequences, or images for vision models) "
        "processed per second by all the nodes of the run."),
    "latency_p50_ms": _measured("Latency P50", "ms", "Median end-to-end latency of one inference request."),
    "latency_p90_ms": _measured("Latency P90", "ms", "90th percentile end-to-end latency."),
    "latency_p95_ms": _measured("Latency P95", "ms", "95th percentile end-to-end latency."),
    "latency_p99_ms": _measured("Latency P99", "ms", "99th percentile end-to-end latency."),
    "latency_p100_ms": _measured("Latency P100", "ms", "Largest end-to-end latency."),
    "ttft_p50_ms": _measured("TTFT P50", "ms", "Median time to first token."),
    "ttft_p99_ms": _measured("TTFT P99", "ms", "99th percentile time to first token."),
    "tpot_p50_ms": _measured("TPOT P50", "ms", "Median time per output token after the first."),
    "tpot_p99_ms": _measured("TPOT P99", "ms", "99th percentile time per output token."),
    "latency_per_token_p50_ms": _measured(
        "Latency per token P50", "ms", "Median latency per token, input and output tokens counted."),
    "latency_per_token_p99_ms": _measured(
        "Latency per token P99", "ms", "99th percentile latency per token, input and output tokens counted."),
    "mfu_percent": _measured("MFU", "%", "Model FLOPs utilisation: achieved model FLOP/s over the hardware's peak."),
    "compute_cost_per_token_tflop": _measured(
        "Compute cost per token", "TFLOP", "As published ('ComputeCostPerToken(Tflops)'); the values match "
        "6 x parameters x sequence length, i.e. training compute per sequence."),
    # A seed run's figures (``run:`` and ``accuracy:``), and the derived cost of every run.
    "p90_latency_ms": FieldWords("p90 latency", "ms", "latency", "p90 latency"),
    "throughput": FieldWords("Throughput", "inferences/s", "throughput", "throughput"),
    "batch_size": FieldWords("Batch size", "", None, "batch size"),
    "neuroncores": FieldWords("NeuronCores", "", None, "NeuronCores used"),
    "cost_per_1m": FieldWords("Cost per 1M", "USD", "cost", "cost per 1M inferences at the on-demand price"),
    "top1": FieldWords("Top-1 accuracy", "%", "accuracy", "top-1 accuracy"),
    "duration": FieldWords("Accuracy-run time", "s", "run_time", "accuracy-run time"),
    # Other records' fields, by the quantity they measure.
    "paper_top1": FieldWords("Top-1 in the original paper", "%", "accuracy"),
    "price": FieldWords("On-demand price", "USD/h", "price"),
    "memory": FieldWords("", "", "memory"),
    "accelerator_memory": FieldWords("", "", "memory"),
    "memory_bandwidth": FieldWords("", "", "memory_bandwidth"),
    "neuronlink_bandwidth": FieldWords("", "", "interconnect_bandwidth"),
    "efa_gbps": FieldWords("", "Gbps", "network_bandwidth"),
    "peak_fp32": FieldWords("", "", "fp32"),
    "peak_bf16": FieldWords("", "", "bf16"),
    "peak_tf32": FieldWords("", "", "tf32"),
    "peak_int8": FieldWords("", "", "int8"),
    "math_engine_frequency": FieldWords("", "", "frequency"),
    "peak_fp8": FieldWords("", "", "fp8"),
    "peak_sparse": FieldWords("", "", "sparse"),
    "dma_bandwidth": FieldWords("", "", "dma_bandwidth"),
    "sram": FieldWords("", "", "sram"),
    "host_memory": FieldWords("", "", "host_memory"),
    "device_count": FieldWords("", "", "device_count"),
    "vcpus": FieldWords("", "", "vcpus"),
    "limit": FieldWords("", "", "size_limit"),
    "price_ratio": FieldWords("", "x", "price"),
    "implied_speed_ratio": FieldWords("", "x", "speed"),
    "gain": FieldWords("", "%", "price_performance"),
}
#: The measurements of a published run, in column order (the fields of :data:`FIELD_WORDS` it measures).
METRICS: dict[str, FieldWords] = {field: words for field, words in FIELD_WORDS.items() if words.measured}

#: The throughput fields of a published run and their unit (a run has exactly one).
THROUGHPUT_FIELDS: dict[str, str] = {
    "throughput_inferences_per_s": "inferences/s",
    "throughput_images_per_s": "images/s",
    "throughput_tokens_per_s": "tokens/s",
    "output_token_throughput_tokens_per_s": "output tokens/s",
    "throughput_sequences_per_s": "sequences/s",
}

#: What a cost is per, by the unit of the throughput it is computed from.
COST_BASIS: dict[str, str] = {
    "inferences/s": "1M inferences",
    "images/s": "1M images",
    "tokens/s": "1M tokens",
    "output tokens/s": "1M output tokens",
    "sequences/s": "1M training sequences",
}

#: A price's basis as printed beside every cost computed from it.
PRICE_BASIS_TEXT = {"on-demand": "on-demand", "reserved-effective": "RI-effective"}
#: A published table's view, as its tab is labelled.
VIEW_TEXT = {"throughput": "Throughput optimized", "latency": "Latency optimized"}
#: An instance generation of the published benchmarks, as page titles name it.
GENERATION_TEXT = {"inf1": "Inf1", "inf2": "Inf2", "trn1": "Trn1/Trn1n"}
#: The model group of a published table, as its section is titled.
CATEGORY_TEXT = {
    "encoder": "Encoder models", "decoder": "Decoder models", "encoder_decoder": "Encoder-decoder models",
    "vision_transformers": "Vision Transformer models", "vision_cnn": "Convolutional Neural Network (CNN) models",
    "vision_sd": "Stable Diffusion models", "vision_dit": "Diffusion Transformer models", "cnn": "Computer vision models",
    "vision": "Vision models",
}
#: A published run's configuration fields as column headers, in the order the pages show them.
CONFIG_TEXT = {
    "application_type": "Application type", "neuron_version": "Neuron version", "run_mode": "Run mode",
    "tp_degree": "TP degree", "dp_degree": "DP degree", "batch_size": "Batch size", "neuroncores": "NeuronCores",
    "threads": "Threads", "n_models": "Models", "workers_per_model": "Workers per model",
    "sequence_length": "Sequence length", "input_length": "Input length", "output_length": "Output length",
    "model_data_type": "Model data type", "autocast_data_type": "Autocast data type",
    "weight_storage_data_type": "Weight storage data type", "os": "OS",
}
#: A training run's configuration fields as column headers.
TRAINING_CONFIG_TEXT = {
    "nodes": "Nodes", "topology": "Topology", "micro_batch_size": "Micro batch", "global_batch_size": "Global batch",
    "optimizer": "Optimizer", "sequence_length": "Sequence length", "training_data_type": "Training data type",
    "scaling": "Scaling", "neuron_version": "Neuron version", "framework_package_version": "torch-neuronx version",
    "os": "OS",
}
#: A published run's configuration as a chart's bar label names it, compactly: field -> format of
#: its value (``{}``); a field not listed prints its value alone (``fp16``, ``512x512``, ``Real Time``).
CONFIG_SHORT_TEXT = {
    "batch_size": "batch {}", "tp_degree": "TP={}", "dp_degree": "DP={}", "neuroncores": "{} NeuronCores",
    "threads": "{} threads", "n_models": "{} models", "workers_per_model": "{} workers per model",
    "sequence_length": "sequence {}", "input_length": "input {}", "output_length": "output {}",
    "neuron_version": "Neuron {}", "micro_batch_size": "micro batch {}", "global_batch_size": "global batch {}",
    "framework_package_version": "torch-neuronx {}", "scaling": "{} scaling", "optimizer": "{} optimizer",
}


def nodes_text(nodes: int) -> str:
    """A training run's node count as charts name its series: "1 node", "16 nodes"."""
    return f"{nodes} node" if nodes == 1 else f"{nodes} nodes"


def parallelism_text(tp: int, dp: int | None, pp: int, zero_stage: int | None) -> str:
    """A training run's parallelism as charts name it: the degrees above 1 and the ZeRO stage,
    "TP=32 DP=4 PP=8", "DP=512", "TP=32 DP=32 ZeRO-1"."""
    degrees = [f"{name}={degree}" for name, degree in (("TP", tp), ("DP", dp), ("PP", pp)) if degree and degree > 1]
    return " ".join([*degrees, *([f"ZeRO-{zero_stage}"] if zero_stage is not None else [])])

