"""What a figure measures: quantities of data values and of figures in prose, and units (no Sphinx).

A value's quantity follows from its field (``p90_latency_ms`` is a latency, ``price`` an hourly
price, ``memory_bandwidth`` a memory bandwidth: the ``quantity`` of its field's words,
:data:`~neuron_docs.data.records.labels.FIELD_WORDS`); a claim's or comparison's from its label. A
figure's quantity is read from the words nearest to it: in its clause, else its sentence, else its
heading (a table's column header): "latency", "throughput", "per 1M inferences", "per hour",
"accuracy", "DMA bandwidth", "FP32", "warm-up"... A figure whose words name a quantity is only ever
compared with values of that quantity; a figure with no such word is compared by its unit alone.

Units of one dimension are converted to a base unit for comparison (s and ms, TB and GB, PFLOPS
and TFLOPS: :data:`~neuron_docs.data.records.labels.UNIT_CONVERSIONS`; GiB and GB, GiB/s and GB/s: :mod:`.units`).
"""

from __future__ import annotations

import re

from ..data.records.labels import FIELD_WORDS, UNIT_CONVERSIONS, UNIT_SCALE
from .units import to_base

_SPEED = ("speed", "throughput", "latency", "fp32", "bf16", "tf32", "int8", "training_throughput")
_BANDWIDTH = ("memory_bandwidth", "network_bandwidth", "interconnect_bandwidth", "dma_bandwidth")
#: Words in prose -> the quantities they may mean (the most specific patterns first).
_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bsparse\b|\bsparsity\b", ("sparse",)), (r"host\s+memory", ("host_memory",)),
    (r"\bsbuf\b|\bsram\b|on-chip\s+memory", ("sram",)),
    (r"\bdma\b", ("dma_bandwidth",)),
    (r"neuronlink|interconnect|chip-to-chip", ("interconnect_bandwidth",)),
    (r"\befa\b|network(?:ing)?\s+bandwidth|\bnetworking\b", ("network_bandwidth",)),
    (r"memory\s+bandwidth|\bhbm\s+bandwidth", ("memory_bandwidth",)),
    (r"\bfp32\b", ("fp32",)), (r"\b(?:bf16|fp16)\b", ("bf16",)), (r"\btf32\b", ("tf32",)),
    (r"\bint8\b", ("int8",)), (r"\b(?:c|mx)?fp8\b", ("fp8",)),
    (r"training\s+throughput|training\s+speed|trains?\s+faster", ("training_throughput", "speed")),
    (r"price[-\s]performance|cost[-\s]performance|perf(?:ormance)?\s*/\s*\$", ("price_performance",)),
    (r"memory|\bhbm\b|\bdram\b|\bgddr\d?\b|weights?\b|protobuf", ("memory", "size_limit")),
    (r"warm[-\s]?up|compil\w*|load(?:ing)?\s+time|start[-\s]?up|cold\s+start|training\s+time|time\s+to\s+train"
     r"|epochs?\b|to\s+render", ("other_time",)),
    (r"accuracy[-\s]+runs?|evaluation\s+runs?|(?:to|the)\s+evaluat\w*|validation\s+run", ("run_time",)),
    (r"latenc\w*|response\s+time|\bp(?:50|90|95|99)\b", ("latency",)),
    (r"accura\w*|top[-\s]?[15]\b", ("accuracy",)),
    (r"throughput|inferences?\s*(?:/|per)\s*s|per\s+second|operations|images?/s|requests?/s", ("throughput",)),
    (r"per\s+(?:1\s*m\b|one\s+million|million|1,000,000|inference)|cost\s+per\b|inference\s+costs?",
     ("cost",)),
    (r"per\s+hour|/\s*h(?:ou)?r\b|hourly|on[-\s]demand|instance\s+prices?", ("price",)),
    (r"\bpric(?:e|es|ed|ing)\b", ("price", "cost")),
    (r"\bcosts?\b|\bcostly\b|cheaper|expensive|spend\w*|saving\w*", ("cost", "price")),
    (r"frequency|clock|\bghz\b", ("frequency",)),
    (r"bandwidth", _BANDWIDTH),
    (r"faster|slower|speed[-\s]?ups?|\bspeeds?\b|performance", _SPEED),
)
_SPECIFICITY = {quantities: rank for rank, (_, quantities) in reversed(list(enumerate(_WORDS)))}
_WORD_RES = tuple((re.compile(pattern, re.IGNORECASE), quantities) for pattern, quantities in _WORDS)
#: The unit prose counts a count field of the data in ("16 Trainium2 chips": an instance's
#: ``device_count``); other counts (batch sizes, NeuronCores) are not figures with a unit.
COUNT_UNITS = {"device_count": "chips", "vcpus": "vCPUs"}
#: The base unit of each quantity (percentages and ratios can be of any quantity).
_UNITS = {
    "latency": "ms", "run_time": "ms", "other_time": "ms", "throughput": "inferences/s", "cost": "USD",
    "price": "USD/h", "accuracy": "%", "memory": "GB", "size_limit": "GB", "memory_bandwidth": "GB/s",
    "network_bandwidth": "Gbps", "interconnect_bandwidth": "GB/s", "dma_bandwidth": "GB/s", "fp32": "TFLOPS",
    "bf16": "TFLOPS", "tf32": "TFLOPS", "fp8": "TFLOPS", "sparse": "TFLOPS", "host_memory": "GB", "sram": "GB", "int8": "TOPS", "frequency": "GHz",
    "price_performance": "%", "speed": "x", "training_throughput": "x", **COUNT_UNITS,
}


def counted(number: float, unit: str) -> str:
    """A count of :data:`COUNT_UNITS` as prose writes it: ``1 chip``, ``16 chips``."""
    return unit.removesuffix("s") if number == 1 and unit in COUNT_UNITS.values() else unit


def base_unit(unit: str) -> tuple[str, float]:
    """The unit values of ``unit`` are compared in, and the factor to it (``s`` -> ``ms``, 1000)."""
    if unit in UNIT_SCALE:
        unit, factor = UNIT_SCALE[unit]
        base, more = UNIT_CONVERSIONS.get(unit, (unit, 1.0))
        return base, factor * more
    return UNIT_CONVERSIONS.get(unit) or to_base(unit) or (unit, 1.0)


def compatible(quantity: str, unit: str) -> bool:
    """Whether a figure in ``unit`` (a base unit) can be a value of ``quantity``."""
    if unit in ("%", "x", "pp"):
        return True
    wanted = _UNITS.get(quantity)
    return wanted is None or base_unit(wanted)[0] == unit or (quantity.endswith("bandwidth") and unit in
                                                              ("GB/s", "Gbps"))


def of_field(path: str) -> str | None:
    """The quantity a data path's field measures; ``None`` when its label must say (claims,
    comparisons, fields of no known quantity)."""
    kind, _, rest = path.partition(":")
    field = rest.rpartition(":")[2]
    words = FIELD_WORDS.get(field)
    if kind not in ("claim", "comparison") and words is not None:
        return words.quantity
    return None


def of_path(path: str, label: str = "") -> str:
    """The quantity a data path measures (its field, else the words of its label)."""
    by_field = of_field(path)
    if by_field is not None:
        return by_field
    mentions = mentioned(label)
    return mentions[0][1][0] if mentions else ""


def mentioned(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """(offset, quantities) of every quantity word in ``text``; a span is claimed by the first pattern."""
    found: list[tuple[int, int, tuple[str, ...]]] = []
    for regex, quantities in _WORD_RES:
        for match in regex.finditer(text):
            if any(a < match.end() and match.start() < b for a, b, _ in found):
                continue
            found.append((match.start(), match.end(), quantities))
    return sorted((a, q) for a, _, q in found)


def of_figure(unit: str, at: int, clause: tuple[int, int], sentence: str, sentence_start: int,
              heading: str) -> frozenset[str] | None:
    """The quantities a figure in ``unit`` (a base unit) at offset ``at`` may mean, from the nearest
    quantity word in its clause, else its sentence, else its heading; ``None`` when none names one."""
    mentions = [(sentence_start + a, q) for a, q in mentioned(sentence)]
    # In the heading (a table's header and stub) the most specific word wins, wherever it stands:
    # "FP8/FP16/BF16/TF32 Sparse (TFLOPS)" is sparse compute.
    scopes = ([m for m in mentions if clause[0] <= m[0] < clause[1]], mentions,
              [(at + _SPECIFICITY[q], q) for _, q in mentioned(heading)])
    for scope in scopes:
        usable = [(abs(a - at), q) for a, q in scope if any(compatible(x, unit) for x in q)]
        if usable:
            nearest = frozenset(x for x in min(usable, key=lambda u: u[0])[1] if compatible(x, unit))
            # Words that narrow each other ("costs ... per 1M inferences": a cost, not a price).
            narrowed = nearest.intersection(*(q for _, q in usable))
            return narrowed or nearest
    # A count's unit says what it counts ("16 Trainium2 chips": the devices of an instance).
    fields = [field for field, counted_in in COUNT_UNITS.items() if counted_in == unit]
    return frozenset(fields) or None
