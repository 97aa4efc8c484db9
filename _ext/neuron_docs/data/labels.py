"""Every human-readable label the site prints for a data code: one table per kind (no Sphinx).

Matrix badges, role output, the drift checker's verdicts, the audit, previews and benchmark tables
all take their words from here, so a status is worded the same everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .schema import Framework

#: Support status as printed in a matrix cell (its badge).
STATUS_TEXT = {"supported": "Supported", "roadmap": "Roadmap Item", "na": "NA"}
#: Architecture fit as printed in a matrix cell (its badge).
FIT_TEXT = {"good": "Good Fit", "poor": "Not a Good Fit"}
#: Architecture fit in a sentence ("Encoders are a good fit for Inferentia").
FIT_WORDS = {"good": "a good fit", "poor": "not a good fit"}
#: Support status in a sentence.
STATUS_WORDS = {"supported": "supported", "roadmap": "not supported yet (a roadmap item)",
                "na": "not supported (not applicable)"}
#: What a fit or support claim in prose can say, in words ("unsupported": roadmap or not applicable).
CLAIM_WORDS = {**FIT_WORDS, "supported": "supported", "unsupported": "not supported"}
#: What each badge means, for the legend under a matrix.
BADGE_MEANING = {
    ("fit", "good"): "the architecture suits the device",
    ("fit", "poor"): "the architecture does not suit the device",
    ("status", "supported"): "at least one model of the family runs with this framework",
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
    "decoder": ("Transformer decoders", "decoder models", "autoregressive models", "GPT-like models"),
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
              "not a good fit": "fit:poor", "poor fit": "fit:poor"}
