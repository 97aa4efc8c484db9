"""Every human-readable label the site prints for a data code: one table per kind (no Sphinx).

Matrix badges, role output, the drift checker's verdicts, the audit, previews and benchmark tables
all take their words from here, so a status is worded the same everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .schema import Framework

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
