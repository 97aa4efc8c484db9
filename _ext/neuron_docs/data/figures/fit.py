"""Will it fit? The memory a model needs, estimated from its size, against the NeuronCores that hold it.

One estimate, written once (the advisor's script applies the same formula to what a reader types:
``neuron-fit.js``, checked against this module by ``tests/test_fit.py``; its sentences are worded once,
in :data:`SENTENCES`, which the script is shipped and fills in)::

    weights  = parameters x bytes of the data type
    KV cache = 2 x layers x key-value heads x head size x sequence length x batch x bytes   (decoders)
    need     = (weights + KV cache) x (1 + headroom)

and a tensor-parallel degree of *d* NeuronCores holds it when ``need <= d x memory per NeuronCore``
(a device's memory divided among its NeuronCores). The headroom (:data:`HEADROOM_PERCENT`) is what the
weights and the KV cache leave for activations, the compiled program and the runtime. Sizes are the
data's (:mod:`..records.model_sizes`), else read from a model's name ("Qwen2-72B", "Mixtral-8x7B":
:func:`size_from_name`); bytes are integers from the device memory of ``devices.yaml`` (its unit
converted by :func:`.units.bytes_in`) and are shown by one rule (:func:`.formatting.shown_memory`).

Every published run is checked against the estimate (:func:`check_runs`): its configuration must fit
the NeuronCores it used; a training run by the memory of mixed-precision Adam (:data:`TRAINING_BYTES`
per parameter, sharded over its tensor- and pipeline-parallel degrees, the optimizer's part also over
data parallelism under ZeRO-1). No Sphinx here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..records.model_sizes import DTYPE_BYTES, ModelSize
from .units import bytes_in
from ..records.names import name_key
from .formatting import MEMORY_UNITS, PARAMETER_UNITS, shown_memory, shown_parameters
from .identity import identities

if TYPE_CHECKING:
    from ..catalog import Catalog
    from ..records import published as ps

#: What the weights and the KV cache leave for activations, the compiled program and the runtime,
#: in percent of them.
HEADROOM_PERCENT = 20
#: The sequence length (tokens) and batch an estimate assumes when the reader gives none.
DEFAULT_SEQUENCE = 4096
DEFAULT_BATCH = 1
#: The data type assumed for a model whose size is read from its name (the data says none).
NAME_DATA_TYPE = "BF16"
#: Bytes per parameter of training with mixed-precision Adam: 16-bit weights and gradients (2 + 2)
#: and the optimizer's 32-bit copy of the weights, momentum and variance (4 + 4 + 4), as the ZeRO
#: paper counts them; activations are not counted.
TRAINING_WEIGHT_BYTES, TRAINING_OPTIMIZER_BYTES = 4, 12
TRAINING_BYTES = TRAINING_WEIGHT_BYTES + TRAINING_OPTIMIZER_BYTES
#: The first device generation whose NeuronCores split a model by tensor parallelism (NeuronCore-v2).
TENSOR_PARALLEL_GENERATION = 2
#: Data types from the largest to the smallest (the nearest option of a model too large).
DTYPE_ORDER = ("FP32", "BF16", "FP16", "FP8", "INT8")
#: A size in a model's name: "72B", "7b", "1.5B", "405B", "8x7B" (experts x size), "110M", "1T".
SIZE_IN_NAME = re.compile(r"(?<![a-z0-9.])(?:(\d+)\s*x\s*)?(\d+(?:\.\d+)?)\s*([mbt])(?![a-z0-9])")
SIZE_UNITS = {"m": 10**6, "b": 10**9, "t": 10**12}
#: The rule in words, shipped with the advisor's data (its script applies it to what a reader types).
SIZE_RULE = ("the first number followed by M, B or T (millions, billions, trillions of parameters) that is "
             "not part of a word, lower case; 'NxS' (experts x size) multiplies")


@dataclass(frozen=True)
class Size:
    """What the estimate needs of a model: parameters, published data types, the KV cache's dimensions."""

    id: str
    name: str
    parameters: int
    data_types: tuple[str, ...]
    #: 2 x layers x key-value heads x head size: the KV cache's values per token (None: not a decoder,
    #: or not known).
    kv_values_per_token: int | None = None
    family: str | None = None
    #: True when the size was read from the model's name (no record in the data).
    from_name: bool = False
    source: str | None = None


def size_of(record: ModelSize, name: str) -> Size:
    d = record.decoder
    kv = 2 * d.layers * d.kv_heads * d.head_dim if d else None
    return Size(record.id, name, round(record.parameters), tuple(record.data_types), kv, record.family,
                source=record.parameters_source or record.source)


def size_from_name(text: str) -> Size | None:
    """The size a name gives (:data:`SIZE_RULE`): "Qwen2-72B" is 72B parameters, "Mixtral-8x7B" 56B
    (an upper bound: experts share their attention); None when the name gives none."""
    match = SIZE_IN_NAME.search(text.lower())
    if not match:
        return None
    experts, number, unit = match.groups()
    whole, _, fraction = number.partition(".")
    count = (int(whole) * 10**len(fraction) + int(fraction or 0)) * SIZE_UNITS[unit] // 10**len(fraction)
    count *= int(experts or 1)
    if count <= 0:
        return None
    return Size(f"name:{name_key(text)}", text.strip(), count, (NAME_DATA_TYPE,), from_name=True)


@dataclass(frozen=True)
class Estimate:
    """The memory a model needs in one configuration, in bytes."""

    weights: int
    kv_cache: int
    headroom: int
    data_type: str
    sequence: int
    batch: int
    kv_counted: bool

    @property
    def need(self) -> int:
        return self.weights + self.kv_cache + self.headroom


def estimate(size: Size, data_type: str | None = None, sequence: int = DEFAULT_SEQUENCE,
             batch: int = DEFAULT_BATCH, kv_data_type: str | None = None) -> Estimate:
    """Weights + KV cache + headroom (the module's formula) of ``size`` at ``data_type`` (default: the
    first it is published in); the KV cache in ``kv_data_type`` (default: the weights')."""
    dtype = data_type or size.data_types[0]
    weights = size.parameters * DTYPE_BYTES[dtype]
    kv_values = size.kv_values_per_token
    kv = kv_values * sequence * batch * DTYPE_BYTES[kv_data_type or dtype] if kv_values else 0
    headroom = -(-(weights + kv) * HEADROOM_PERCENT // 100)  # rounded up
    return Estimate(weights, kv, headroom, dtype, sequence, batch, kv_values is not None)


# Where a model can be held: Neuron instances, their NeuronCores and the memory of each ------------


def core_bytes(catalog: Catalog, device_id: str) -> int | None:
    """The device memory of one NeuronCore of ``device_id`` (its memory over its NeuronCores), in bytes."""
    device = catalog.devices.get(device_id)
    memory = device.specs.get("memory") if device else None
    if device is None or memory is None or not device.neuroncores:
        return None
    return round(memory.value * bytes_in(memory.unit)) // device.neuroncores


@dataclass(frozen=True)
class FitInstance:
    """A Neuron instance: its device, NeuronCores, memory per NeuronCore and the degrees it offers."""

    instance: str
    device: str
    device_name: str
    cores: int
    core_bytes: int
    #: Tensor-parallel degrees: powers of two up to its NeuronCores, and all of them (one NeuronCore on
    #: a first-generation device: NeuronCore-v1 has no tensor parallelism).
    degrees: tuple[int, ...]
    data_types: tuple[str, ...]
    vcpus: int = 0

    def memory(self, degree: int) -> int:
        return degree * self.core_bytes

    def smallest_degree(self, need: int) -> int | None:
        return next((d for d in self.degrees if self.memory(d) >= need), None)


def degrees(cores: int) -> tuple[int, ...]:
    powers = [2**k for k in range(cores.bit_length()) if 2**k <= cores]
    return tuple(sorted({*powers, cores}))


def places(catalog: Catalog) -> list[FitInstance]:
    """Every Neuron instance whose device has a known memory, the smallest first (memory, then id)."""
    out = []
    for instance in catalog.instances.values():
        device = catalog.devices.get(instance.device)
        per_core = core_bytes(catalog, instance.device)
        cores = catalog.neuroncores(instance.id) if device is not None and device.kind == "neuron" else None
        if device is None or per_core is None or not cores:
            continue
        dtypes = tuple(t for t in DTYPE_ORDER if t in {d.upper() for d in device.data_types})
        offered = degrees(cores) if (device.generation or 0) >= TENSOR_PARALLEL_GENERATION else (1,)
        out.append(FitInstance(instance.id, device.id, device.name, cores, per_core, offered, dtypes, instance.vcpus))
    return sorted(out, key=lambda p: (p.memory(p.degrees[-1]), p.vcpus, p.instance))


def smallest_fit(options: list[FitInstance], need: int, data_type: str | None = None) -> tuple[FitInstance, int] | None:
    """The smallest instance and degree that hold ``need`` bytes (on a device that has ``data_type``)."""
    for place in options:
        if data_type and data_type not in place.data_types:
            continue
        degree = place.smallest_degree(need)
        if degree is not None:
            return place, degree
    return None


# The answer a reader gets ---------------------------------------------------------------------------


#: The estimate's sentences, worded once: :func:`lines_for` fills them with ``str.format`` and the
#: advisor's script (``neuron-fit.js``, which holds no wording of its own) fills the same ones, shipped
#: in the advisor's data (:func:`fit_slice`), with the same fields. A template names its fields as
#: ``{field}`` and nothing else (no format specification, no literal brace): the script replaces each
#: ``{field}`` by its value, once. Which template a sentence takes is the estimate's logic (here and in
#: the script); its words are only here. ``*_one`` and ``*_many``: a word for a count of one, or more.
SENTENCES: dict[str, str] = {
    "label": "Estimated from the model's size, not measured.",
    "size": "{name}: {parameters} parameters at {data_type}, {bytes} {byte_word} each{origin}.",
    "origin_name": " (the size read from its name)",
    "byte_one": "byte",
    "byte_many": "bytes",
    "need_kv": "Needs {need}: weights {weights} + KV cache {kv_cache} + {headroom_percent}% headroom {headroom}.",
    "need_no_kv": ("Needs {need}: weights {weights} + {headroom_percent}% headroom {headroom}; "
                   "no KV cache counted ({why})."),
    "no_kv_name": "its layers and key-value heads are not known from its name",
    "no_kv_data": "the data gives no decoder dimensions for it",
    "smallest_fit": "Smallest fit: {instance} with {cores} {core_word} ({memory} of device memory).",
    "core_one": "NeuronCore",
    "core_many": "NeuronCores",
    "device_too_large": "On {device}: too large (at most {memory}, on {instance}).",
    "device_fit": "On {device}: {instance}, {cores} {core_word}.",
    "too_large": ("Too large for every instance at {data_type}: it needs {need}; the largest, {instance}, "
                  "has {memory} in {cores} NeuronCores."),
    "nearest_data_type": "Nearest: at {data_type} it would fit {instance} with {cores} NeuronCores (it needs {need}).",
    "nearest_cores": "Nearest: {cores} NeuronCores of {device} ({count} x {instance}), beyond one instance.",
    "assumed": ("Assumed: {data_type} weights{data_type_origin}, sequence length {sequence} and batch {batch}"
                "{defaults}; KV cache = 2 x layers x key-value heads x head size x sequence x batch x bytes; "
                "headroom {headroom_percent}% of weights and KV cache for activations, the compiled program "
                "and the runtime; each NeuronCore holds its device's memory divided by its NeuronCores."),
    "data_type_name": " (assumed: the data has no size for this model)",
    "data_type_published": " (as published)",
    "defaults": " ({given} by default)",
    "default_sequence": "sequence length",
    "default_batch": "batch",
    "and": " and ",
}


def _say(key: str, **fields: object) -> str:
    """The sentence ``key`` of :data:`SENTENCES` with its fields."""
    return SENTENCES[key].format(**fields)


def _word(key: str, count: int) -> str:
    """``key_one`` or ``key_many`` of :data:`SENTENCES`, for ``count``."""
    return SENTENCES[f"{key}_many" if count > 1 else f"{key}_one"]


def answer_lines(catalog: Catalog, size: Size, data_type: str | None = None, sequence: int | None = None,
                 batch: int | None = None) -> list[str]:
    """The estimate in sentences: what it counts, the smallest instance and degree that fit (or that
    none does, and the nearest option), per device, and what it assumed. The advisor's script writes
    the same sentences (``neuron-fit.js``, from :data:`SENTENCES`)."""
    return lines_for(places(catalog), size, data_type, sequence, batch)


def lines_for(options: list[FitInstance], size: Size, data_type: str | None = None, sequence: int | None = None,
              batch: int | None = None) -> list[str]:
    dtype = data_type or size.data_types[0]
    seq, n = sequence or DEFAULT_SEQUENCE, batch or DEFAULT_BATCH
    est = estimate(size, dtype, seq, n)
    bytes_each = DTYPE_BYTES[dtype]
    lines = [_say("label"),
             _say("size", name=size.name, parameters=shown_parameters(size.parameters), data_type=dtype,
                  bytes=bytes_each, byte_word=_word("byte", bytes_each),
                  origin=_say("origin_name") if size.from_name else "")]
    amounts = {"need": shown_memory(est.need), "weights": shown_memory(est.weights),
               "headroom": shown_memory(est.headroom), "headroom_percent": HEADROOM_PERCENT}
    if est.kv_counted:
        lines.append(_say("need_kv", kv_cache=shown_memory(est.kv_cache), **amounts))
    else:
        lines.append(_say("need_no_kv", why=_say("no_kv_name" if size.from_name else "no_kv_data"), **amounts))
    best = smallest_fit(options, est.need)
    if best is not None:
        place, degree = best
        lines.append(_say("smallest_fit", instance=place.instance, cores=degree, core_word=_word("core", degree),
                          memory=shown_memory(place.memory(degree))))
        for device in dict.fromkeys(p.device for p in options):
            mine = [p for p in options if p.device == device]
            found = smallest_fit(mine, est.need)
            if found is None:
                largest = _largest(mine)
                lines.append(_say("device_too_large", device=largest.device_name, instance=largest.instance,
                                  memory=shown_memory(largest.memory(largest.degrees[-1]))))
            else:
                lines.append(_say("device_fit", device=found[0].device_name, instance=found[0].instance,
                                  cores=found[1], core_word=_word("core", found[1])))
    elif options:
        largest = _largest(options)
        lines.append(_say("too_large", data_type=dtype, need=shown_memory(est.need), instance=largest.instance,
                          memory=shown_memory(largest.memory(largest.degrees[-1])), cores=largest.degrees[-1]))
        lines.append(_nearest(options, size, dtype, seq, n, est, largest))
    defaults = [_say(key) for key, given in (("default_sequence", sequence), ("default_batch", batch)) if not given]
    origin = ("" if data_type else _say("data_type_name") if size.from_name else _say("data_type_published"))
    lines.append(_say("assumed", data_type=dtype, data_type_origin=origin, sequence=seq, batch=n,
                      defaults=_say("defaults", given=_say("and").join(defaults)) if defaults else "",
                      headroom_percent=HEADROOM_PERCENT))
    return lines


def _largest(options: list[FitInstance]) -> FitInstance:
    """The first of the places with the most memory (trn1.32xlarge before trn1n.32xlarge)."""
    most = max(p.memory(p.degrees[-1]) for p in options)
    return next(p for p in options if p.memory(p.degrees[-1]) == most)


def _nearest(options: list[FitInstance], size: Size, dtype: str, seq: int, batch: int, est: Estimate,
             largest: FitInstance) -> str:
    """The nearest option of a model too large: a smaller data type that fits, else more NeuronCores."""
    for smaller in DTYPE_ORDER[DTYPE_ORDER.index(dtype) + 1:] if dtype in DTYPE_ORDER else ():
        if DTYPE_BYTES[smaller] >= DTYPE_BYTES[dtype]:
            continue
        other = estimate(size, smaller, seq, batch)
        found = smallest_fit(options, other.need, smaller)
        if found is not None:
            return _say("nearest_data_type", data_type=smaller, instance=found[0].instance, cores=found[1],
                        need=shown_memory(other.need))
    cores = -(-est.need // largest.core_bytes)
    count = -(-cores // largest.degrees[-1])
    return _say("nearest_cores", cores=cores, device=largest.device_name, count=count, instance=largest.instance)


def sizes(catalog: Catalog) -> dict[str, Size]:
    """Every size of the data, by the identity of its model (``published:<id>``, ``seed:<id>``) or its
    own id (``size:<id>``: a model without runs)."""
    out: dict[str, Size] = {}
    known = identities(catalog)
    for record in catalog.records["model_sizes"].values():
        model = (known.by_id.get(f"published:{record.model}") if record.model
                 else known.of_seed(record.seed_model) if record.seed_model else None)
        if model is not None:
            out[model.id] = size_of(record, model.name)
        elif record.model or record.seed_model:  # a dangling reference, reported as such
            ident = f"published:{record.model}" if record.model else f"seed:{record.seed_model}"
            out[ident] = size_of(record, record.model or record.seed_model or record.id)
        else:
            out[f"size:{record.id}"] = size_of(record, record.name or record.id)
    return out


def gaps(catalog: Catalog) -> dict[str, str]:
    """The models no source gives a size of (``model_size_gaps``), and why: by the identity of a
    published or seed model, and by ``representative:<family>:<name key>`` for a family's
    representative."""
    out: dict[str, str] = {}
    known = identities(catalog)
    for gap in catalog.records["model_size_gaps"].values():
        if gap.model:
            out[f"published:{gap.model}"] = gap.reason
        elif gap.seed_model:
            model = known.of_seed(gap.seed_model)
            out[model.id if model else f"seed:{gap.seed_model}"] = gap.reason
        else:
            out[f"representative:{gap.family}:{name_key(gap.representative or '')}"] = gap.reason
    return out


def size_keys(catalog: Catalog) -> dict[str, str]:
    """The key of every name and alias of a model without runs -> ``size:<id>``."""
    out: dict[str, str] = {}
    for record in catalog.records["model_sizes"].values():
        if record.name:
            for name in (record.name, *record.aliases):
                out.setdefault(name_key(name), f"size:{record.id}")
    return out


def resolve_size(catalog: Catalog, text: str) -> tuple[Size | None, str | None]:
    """The size a typed name has, and the model identity or size it names (None: read from the name,
    or none): a model with runs and a size, a model without runs of the data, else the name's own."""
    resolution = identities(catalog).resolve(text)
    known = sizes(catalog)
    if resolution.identity is not None and resolution.identity.id in known:
        return known[resolution.identity.id], resolution.identity.id
    hit = size_keys(catalog).get(name_key(text))
    if hit is not None:
        return known[hit], hit
    if resolution.identity is not None:
        return None, resolution.identity.id
    return size_from_name(text), None


# The check against every published run -----------------------------------------------------------


_DTYPE_WORDS = re.compile(r"fp32|bf16|fp16|fp8|int8")


def _named_types(text: str | None) -> list[str]:
    return [t.upper() for t in _DTYPE_WORDS.findall((text or "").lower())]


@dataclass(frozen=True)
class RunCheck:
    """One published run against the estimate: what its configuration needs on the NeuronCores it used."""

    run: str
    collection: str
    model: str
    instance: str
    cores: int
    need: int
    memory: int
    #: The fewest NeuronCores of its instance the estimate allows for its configuration (None: none do).
    smallest_degree: int | None
    detail: str
    #: Whether the run split the model by tensor parallelism (an inference run with a TP degree).
    tensor_parallel: bool = False

    @property
    def fits(self) -> bool:
        return self.need <= self.memory

    @property
    def share(self) -> float:
        """The share of the NeuronCores' memory the estimate says it takes."""
        return self.need / self.memory


def check_runs(catalog: Catalog) -> tuple[list[RunCheck], list[tuple[str, str]]]:
    """Every published run whose model has a size, against the estimate; and the runs not checked
    (run id, why). Read through the catalog: the runs are whatever its collections hold."""
    known, options = sizes(catalog), {p.instance: p for p in places(catalog)}
    models = identities(catalog)
    checked: list[RunCheck] = []
    skipped: list[tuple[str, str]] = []
    for run in catalog.published_inference_runs.values():
        ident = models.of_published(run.model)
        size = known.get(ident.id) if ident else None
        place = options.get(run.instance)
        if size is None or place is None:
            skipped.append((run.id, f"no size of {run.model}" if size is None else f"no memory of {run.instance}"))
            continue
        checked.append(_inference_check(run, size, place))
    for train in catalog.published_training_runs.values():
        ident = models.of_published(train.model)
        size = known.get(ident.id) if ident else None
        place = next((options[i] for i in train.instances if i in options), None)
        if size is None or place is None:
            skipped.append((train.id, f"no size of {train.model}" if size is None else "no memory of its instances"))
            continue
        checked.append(_training_check(train, size, place))
    return checked, skipped


def _inference_check(run: ps.PublishedInferenceRun, size: Size, place: FitInstance) -> RunCheck:
    stored = _named_types(run.weight_storage_data_type)
    named = _named_types(run.model_data_type)
    dtype = stored[0] if stored else max(named, key=DTYPE_BYTES.__getitem__) if named else size.data_types[0]
    compute = _named_types(run.autocast_data_type)
    kv_dtype = compute[0] if compute else named[0] if named else dtype
    sequence = run.sequence_length or ((run.input_length or 0) + (run.output_length or 0)) or DEFAULT_SEQUENCE
    est = estimate(size, dtype, sequence, run.batch_size, kv_dtype)
    cores = run.tp_degree or run.neuroncores or place.cores
    detail = (f"{size.name} at {dtype}, sequence {sequence}, batch {run.batch_size}: weights "
              f"{shown_memory(est.weights)} + KV cache {shown_memory(est.kv_cache)} + {HEADROOM_PERCENT}% headroom")
    return RunCheck(run.id, "published_inference_runs", run.model, run.instance, cores, est.need,
                    place.memory(cores), place.smallest_degree(est.need), detail, run.tp_degree is not None)


def training_need(size: Size, tp: int, pp: int, dp: int, zero_stage: int | None) -> tuple[int, int]:
    """(bytes of one NeuronCore, its headroom) for training ``size``: :data:`TRAINING_BYTES` per
    parameter over ``tp x pp`` NeuronCores, the optimizer's part over ``dp`` more under ZeRO-1 or above."""
    shards = tp * pp
    optimizer_shards = shards * (dp if zero_stage else 1)
    held = (-(-size.parameters * TRAINING_WEIGHT_BYTES // shards)
            + -(-size.parameters * TRAINING_OPTIMIZER_BYTES // optimizer_shards))
    return held, -(-held * HEADROOM_PERCENT // 100)


def _training_check(run: ps.PublishedTrainingRun, size: Size, place: FitInstance) -> RunCheck:
    dp = run.dp_degree or 1
    held, headroom = training_need(size, run.tp_degree, run.pp_degree, dp, run.zero_stage)
    detail = (f"{size.name} training, TP {run.tp_degree} x PP {run.pp_degree}"
              + (f", ZeRO-{run.zero_stage} over DP {dp}" if run.zero_stage else "")
              + f": {TRAINING_BYTES} bytes per parameter, {shown_memory(held)} per NeuronCore + "
              f"{HEADROOM_PERCENT}% headroom")
    # The need of each degree as the check counts it (the headroom rounded up), so that the run's own
    # degree is among those allowed exactly when the run fits.
    smallest = next((d for d in place.degrees
                     if sum(training_need(size, d, run.pp_degree, dp, run.zero_stage)) <= place.core_bytes), None)
    return RunCheck(run.id, "published_training_runs", run.model, place.instance, 1, held + headroom,
                    place.core_bytes, smallest, detail)


def misfit_message(check: RunCheck) -> str:
    """A run the estimate says cannot fit, in words: the run, its numbers, what is wrong."""
    where = (f"{check.cores} NeuronCores of {check.instance}" if check.collection == "published_inference_runs"
             else f"one NeuronCore of {check.instance}")
    return (f"published run {check.run} ({check.model}) ran on {where}, but the fit estimate says it cannot: "
            f"{check.detail} need {shown_memory(check.need)}, {where} have {shown_memory(check.memory)}; "
            f"the headroom ({HEADROOM_PERCENT}%) or the model's size in model_sizes.yaml is wrong")


# What the advisor's script needs ---------------------------------------------------------------------


def shipped_units() -> dict[str, Any]:
    """The units of the estimate, for the script that applies it (``neuron-fit.js`` holds none of its
    own): those a memory size and a parameter count are shown in (:data:`.formatting.MEMORY_UNITS`,
    :data:`.formatting.PARAMETER_UNITS`), and the pattern and units of a size in a name
    (:data:`SIZE_IN_NAME`, :data:`SIZE_UNITS`)."""
    return {"memory": [list(unit) for unit in MEMORY_UNITS], "parameters": [list(unit) for unit in PARAMETER_UNITS],
            "size_in_name": SIZE_IN_NAME.pattern, "size_units": SIZE_UNITS}


def fit_slice(catalog: Catalog) -> dict[str, Any]:
    """The estimate's inputs for the advisor's script: the templates of its sentences (:data:`SENTENCES`),
    the formula's constants, the units it shows and reads sizes in (:func:`shipped_units`), every place,
    every size (by the identity of its model or its own id), the keys of the names of models without runs."""
    def shipped(size: Size) -> dict[str, Any]:
        return {"name": size.name, "parameters": size.parameters, "data_types": list(size.data_types),
                "kv_values_per_token": size.kv_values_per_token, "family": size.family}

    return {
        "sentences": SENTENCES,
        "headroom_percent": HEADROOM_PERCENT,
        "defaults": {"sequence": DEFAULT_SEQUENCE, "batch": DEFAULT_BATCH, "name_data_type": NAME_DATA_TYPE},
        "dtype_bytes": DTYPE_BYTES,
        "dtype_order": list(DTYPE_ORDER),
        "size_rule": SIZE_RULE,
        "units": shipped_units(),
        "places": [{"instance": p.instance, "device": p.device, "device_name": p.device_name,
                    "core_bytes": p.core_bytes, "degrees": list(p.degrees), "data_types": list(p.data_types)}
                   for p in places(catalog)],
        "sizes": {key: shipped(size) for key, size in sizes(catalog).items()},
        "keys": size_keys(catalog),
    }
