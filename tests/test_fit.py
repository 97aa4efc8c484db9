"""Will it fit? The estimate on small cases computed by hand, located errors for bad sizes, every
published run checked against it, the advisor's answers for models nobody benchmarked, and the
advisor's script (``neuron-fit.js``, run by node) writing the same sentences as the build."""

from __future__ import annotations

import json
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from neuron_docs.data.checking.validation import load_catalog
from neuron_docs.data.figures import fit
from neuron_docs.data.figures.formatting import MEMORY_UNITS, PARAMETER_UNITS, shown_memory, shown_parameters
from neuron_docs.data.figures.identity import identities
from neuron_docs.data.records.names import name_key

from helpers.edits import edit_yaml

SCRIPT = Path(__file__).resolve().parents[1] / "_ext/neuron_docs/render/static/neuron-fit.js"
ADVISOR_SCRIPT = SCRIPT.with_name("neuron-advisor.js")


def _size(parameters: int, kv: int | None = None, dtype: str = "BF16") -> fit.Size:
    return fit.Size("t", "Tiny", parameters, (dtype,), kv)


def _place(core_bytes: int, cores: int = 4, name: str = "x.large") -> fit.FitInstance:
    return fit.FitInstance(name, "dev", "Device", cores, core_bytes, fit.degrees(cores), ("FP32", "BF16", "FP8"))


# The formula, by hand -----------------------------------------------------------------------------


def test_weights_kv_cache_and_headroom_by_hand():
    # 1000 parameters at BF16: 2000 bytes; a decoder of 2 layers, 2 KV heads of size 4: 2 x 2 x 2 x 4 = 32
    # values per token, x sequence 10 x batch 3 x 2 bytes = 1920; headroom 20% of 3920 = 784.
    est = fit.estimate(_size(1000, kv=32), "BF16", sequence=10, batch=3)
    assert (est.weights, est.kv_cache, est.headroom, est.need) == (2000, 1920, 784, 4704)
    # FP32 doubles both; a headroom that is not whole bytes is rounded up (20% of 4001 is 800.2).
    assert fit.estimate(_size(1000, kv=32), "FP32", 10, 3).need == 9408
    assert fit.estimate(_size(4001), "FP8", 1, 1).headroom == 801
    # Not a decoder: no KV cache, whatever the sequence.
    assert fit.estimate(_size(1000), "BF16", 10**6, 64).kv_cache == 0


def test_a_degree_holds_what_its_neuroncores_hold():
    place = _place(3000, cores=4)
    assert place.degrees == (1, 2, 4)
    assert place.smallest_degree(3000) == 1 and place.smallest_degree(3001) == 2
    assert place.smallest_degree(4704) == 2 and place.smallest_degree(12001) is None
    assert fit.degrees(24) == (1, 2, 4, 8, 16, 24) and fit.degrees(12) == (1, 2, 4, 8, 12)
    small, large = _place(3000, 2, "a"), _place(3000, 8, "b")
    assert fit.smallest_fit([small, large], 7000) == (large, 4)
    assert fit.smallest_fit([small, large], 7000, "INT8") is None


def test_memory_per_neuroncore_comes_from_the_device_memory_and_its_unit(catalog):
    assert fit.core_bytes(catalog, "inferentia2") == 16 * 10**9      # 32 GB, 2 NeuronCores
    assert fit.core_bytes(catalog, "trainium") == 16 * 2**30         # 32 GiB, 2 NeuronCores
    assert fit.core_bytes(catalog, "trainium2") == 12 * 2**30        # 96 GiB, 8 NeuronCores
    assert fit.core_bytes(catalog, "a100") is None                   # not a Neuron device


@pytest.mark.parametrize(("name", "parameters"), [
    ("Qwen2-72B", 72 * 10**9), ("Mixtral-8x7B", 56 * 10**9), ("mistralai/Mistral-7B-v0.1", 7 * 10**9),
    ("Qwen2-1.5B-Instruct", 1_500_000_000), ("bert-110M", 110 * 10**6), ("Ling-1T", 10**12),
    ("Qwen1.5-MoE-57B-A14B", 57 * 10**9),
])
def test_sizes_read_from_names(name, parameters):
    size = fit.size_from_name(name)
    assert size is not None and size.parameters == parameters and size.from_name and size.data_types == ("BF16",)


@pytest.mark.parametrize("name", ["gpt2", "BERT", "ViT-B/16", "Llama 3", "resnet50", "v0.2b"])
def test_names_without_a_size(name):
    assert fit.size_from_name(name) is None


def test_one_display_rule_for_memory_and_parameters():
    assert [shown_memory(b) for b in (440_000_000, 16 * 10**9, 17_179_869_184, 1_649_267_441_664, 999, 0)] == \
        ["440 MB", "16 GB", "17.2 GB", "1.65 TB", "999 B", "0 B"]
    assert [shown_parameters(p) for p in (8e9, 46.7e9, 110e6, 11689512, 2.8e9, 405e9)] == \
        ["8B", "46.7B", "110M", "11.7M", "2.8B", "405B"]


# Bad sizes: located errors ------------------------------------------------------------------------


@pytest.mark.parametrize(("edit", "field", "expected"), [
    (lambda r: r.update(parameters=0), "parameters", "at least 1000"),
    (lambda r: r.update(parameters=7e20), "parameters", "at most 100000000000000 (got 7e+20)"),
    (lambda r: r["decoder"].update(kv_heads=3), "decoder.kv_heads", "must divide attention_heads 32"),
    (lambda r: r["decoder"].update(hidden_size=4000, attention_heads=48, kv_heads=8), "decoder.hidden_size",
     "multiple of attention_heads"),
    (lambda r: r.update(data_types=["FP12"]), "data_types[0]", "'FP32', 'TF32', 'BF16'"),
    (lambda r: r.update(model="llama-9"), "model", "unknown published model 'llama-9'"),
])
def test_a_bad_size_is_a_located_error(data_copy, edit, field, expected):
    path = data_copy / "model_sizes.yaml"
    edit_yaml(path, lambda doc: edit(next(r for r in doc["model_sizes"] if r["id"] == "llama-3-8b")))
    catalog = load_catalog(data_copy)
    errors = [e for e in catalog.errors if e.file == "model_sizes.yaml"]
    assert len(errors) == 1, errors
    error = errors[0]
    assert error.field == f"model_sizes[3].{field}" and expected in error.message, error
    lines = path.read_text().splitlines()
    assert error.line is not None and "llama-3-8b" in "\n".join(lines[error.line - 12:error.line]), error.line
    assert "llama-3-8b" not in catalog.records["model_sizes"]  # set aside, the others still load
    assert "llama-3-70b" in catalog.records["model_sizes"]


def test_a_name_of_a_model_with_runs_or_a_second_size_is_refused(data_copy):
    def edit(doc):
        doc["model_sizes"].append({"id": "again", "name": "Meta-Llama-3-8B", "family": "decoder",
                                   "parameters": 8e9, "data_types": ["BF16"], "source": "qwen2-72b-config"})
        doc["model_sizes"].append({"id": "twice", "model": "llama-3-8b", "parameters": 8e9,
                                   "data_types": ["BF16"], "source": "qwen2-72b-config"})
        doc["model_sizes"].append({"id": "spelling", "model": "resnet-50", "parameters": 8e9,
                                   "data_types": ["BF16"], "source": "qwen2-72b-config"})
    edit_yaml(data_copy / "model_sizes.yaml", edit)
    messages = {e.field.split(".")[-1]: e.message for e in load_catalog(data_copy).errors}
    assert "already a name of published model 'llama-3-8b'" in messages["name"]
    assert any("already has a size" in m or "another spelling of 'resnet50'" in m for m in messages.values())
    errors = [e for e in load_catalog(data_copy).errors if e.field.endswith("model")]
    assert {("already has a size" in e.message, "another spelling" in e.message) for e in errors} == \
        {(True, False), (False, True)}


# Checked against reality --------------------------------------------------------------------------


def test_every_published_run_with_a_size_fits_the_estimate(catalog):
    checks, skipped = fit.check_runs(catalog)
    collections = {c.collection for c in checks}
    assert collections == {"published_inference_runs", "published_training_runs"}
    assert len(checks) + len(skipped) == len(catalog.published_inference_runs) + len(catalog.published_training_runs)
    misfits = [fit.misfit_message(c) for c in checks if not c.fits]
    assert not misfits, misfits
    # Every run of a model whose size the data has is checked; the rest only lack a size, and each of
    # those models is a gap of the data (no source gives its size), not a size forgotten.
    assert all(why.startswith("no size of ") for _run, why in skipped)
    runs = {**catalog.published_inference_runs, **catalog.published_training_runs}
    models, gaps = identities(catalog), fit.gaps(catalog)
    unsized = {models.of_published(runs[run].model).id for run, _why in skipped}
    assert unsized <= set(gaps), sorted(unsized - set(gaps))
    decoders = {c.model for c in checks if c.collection == "published_inference_runs" and "KV cache 0 B" not in c.detail}
    assert {"Llama-3-70B", "Llama-2-70b", "Mistral-7B-Instruct-v0.2", "CodeLlama-13b-hf"} <= decoders
    # No run uses fewer NeuronCores than the estimate allows (that would say the headroom is too large).
    assert all(c.smallest_degree is not None and c.smallest_degree <= c.cores
               for c in checks if c.collection == "published_inference_runs")


def test_every_model_of_the_published_tables_and_every_representative_has_a_size_or_a_gap(catalog):
    """Computed from the data: every model a published run names, and every family's representative,
    has a size the estimate uses, or is a gap (no source gives its size, and the gap says why); a gap
    is of such a model only, and a sized model has none."""
    known, gaps, models = fit.sizes(catalog), fit.gaps(catalog), identities(catalog)
    runs = [*catalog.published_inference_runs.values(), *catalog.published_training_runs.values()]
    named = {models.of_published(run.model).id for run in runs}
    assert named, "no published runs"
    missing = sorted(ident for ident in named if ident not in known and ident not in gaps)
    assert not missing, f"models of the published tables with neither a size nor a gap: {missing}"
    representatives: dict[str, str] = {}  # the key a representative's gap has -> the name, in words
    for family in catalog.families.values():
        for name in family.representatives:
            size, ident = fit.resolve_size(catalog, name)
            if size is not None:
                assert not size.from_name and ident is not None, (family.id, name)  # a size of the data
                assert size.family in (None, family.id) or known[ident].family == family.id, (family.id, name)
                continue
            gap = f"representative:{family.id}:{name_key(name)}"
            assert gap in gaps or (ident is not None and ident in gaps), \
                f"representative {name!r} of {family.id!r} has neither a size nor a gap"
            representatives[gap if gap in gaps else str(ident)] = f"{family.id}: {name}"
    # Every gap is of a model the tables name or a representative: no stray gaps, and none of a sized model.
    assert set(gaps) <= (named - set(known)) | set(representatives), \
        sorted(set(gaps) - (named - set(known)) - set(representatives))
    assert all(reason.strip() for reason in gaps.values())


def test_a_seed_model_takes_its_size_and_a_representative_its_name(catalog):
    """BEiT is a compiled model (models.yaml) without published runs: its size is the seed model's; GPT-2,
    a representative of the decoders, is found by its name and its aliases with its decoder dimensions."""
    size, ident = fit.resolve_size(catalog, "BEiT")
    assert ident == "seed:beit" and size is not None and size.parameters == 87_000_000
    assert fit.resolve_size(catalog, "microsoft/beit-base-patch16-224")[1] == "seed:beit"
    gpt2, key = fit.resolve_size(catalog, "openai-community/gpt2")
    assert key == "size:gpt-2" and gpt2 is not None and gpt2.family == "decoder"
    assert gpt2.kv_values_per_token == 2 * 12 * 12 * 64
    assert fit.answer_lines(catalog, gpt2)[1] == "GPT-2: 124M parameters at FP32, 4 bytes each."


@pytest.mark.parametrize(("edit", "field", "expected"), [
    (lambda doc: doc["model_size_gaps"].append({"id": "sized", "model": "llama-3-8b", "reason": "none"}),
     "model_size_gaps[17].model", "has a size (model_sizes 'llama-3-8b')"),
    (lambda doc: doc["model_size_gaps"].append({"id": "stray", "representative": "GPT-9", "family": "decoder",
                                                "reason": "none"}),
     "model_size_gaps[17].representative", "is not one of family 'decoder'"),
    (lambda doc: doc["model_size_gaps"].append({"id": "named", "representative": "GPT-2", "family": "decoder",
                                                "reason": "none"}),
     "model_size_gaps[17].representative", "has a size (model_sizes 'gpt-2')"),
    (lambda doc: doc["model_size_gaps"].append({"id": "twice", "model": "unet", "representative": "YOLO",
                                                "family": "cnn", "reason": "none"}),
     "model_size_gaps[17].model", "exactly one: got model and representative"),
    (lambda doc: doc["model_size_gaps"].append({"id": "again", "model": "unet", "reason": "none"}),
     "model_size_gaps[17].id", "the same model as gap 'unet'"),
    (lambda doc: doc["model_sizes"].append({"id": "resized", "seed_model": "beit", "parameters": 86e6,
                                            "data_types": ["FP32"], "source": "unilm-beit-readme"}),
     "model_sizes[58].seed_model", "already has a size (model_sizes 'beit')"),
    (lambda doc: doc["model_sizes"].append({"id": "vit", "seed_model": "vit-base", "parameters": 86e6,
                                            "data_types": ["FP32"], "source": "unilm-beit-readme"}),
     "model_sizes[58].seed_model", "expected model: google-vit-base-patch16-224"),
])
def test_a_bad_gap_or_seed_size_is_a_located_error(data_copy, edit, field, expected):
    edit_yaml(data_copy / "model_sizes.yaml", edit)
    errors = [e for e in load_catalog(data_copy).errors if e.file == "model_sizes.yaml"]
    assert len(errors) == 1, errors
    assert errors[0].field == field and expected in errors[0].message, errors[0]
    assert errors[0].line is not None


def test_a_run_the_estimate_says_cannot_fit_is_named_with_its_numbers(data_copy):
    edit_yaml(data_copy / "model_sizes.yaml",
              lambda doc: next(r for r in doc["model_sizes"] if r["id"] == "llama-2-70b").update(parameters=300e9))
    checks, _skipped = fit.check_runs(load_catalog(data_copy))
    misfits = [c for c in checks if not c.fits]
    assert misfits and {c.model for c in misfits} == {"Llama-2-70b"}
    message = fit.misfit_message(misfits[0])
    assert misfits[0].run in message and "24 NeuronCores of inf2.48xlarge" in message
    assert "weights 600 GB" in message and "have 384 GB" in message and "headroom (20%)" in message


# The advisor's answers ----------------------------------------------------------------------------


def _answer(catalog, text: str, **given) -> list[str]:
    size, _ident = fit.resolve_size(catalog, text)
    assert size is not None, text
    return fit.answer_lines(catalog, size, **given)


def test_mixtral_is_answered_from_its_size(catalog):
    lines = _answer(catalog, "Mixtral-8x7B")
    assert lines[0] == "Estimated from the model's size, not measured."
    assert lines[1] == "Mixtral-8x7B: 46.7B parameters at BF16, 2 bytes each."
    assert lines[2] == "Needs 113 GB: weights 93.4 GB + KV cache 537 MB + 20% headroom 18.8 GB."
    assert lines[3] == "Smallest fit: inf2.24xlarge with 8 NeuronCores (128 GB of device memory)."
    assert "On AWS Trainium: trn1.32xlarge, 8 NeuronCores." in lines
    assert lines[-1].startswith("Assumed: BF16 weights (as published), sequence length 4096 and batch 1 "
                                "(sequence length and batch by default)")
    # The reader's sequence and batch: 32768 tokens x 8 sequences need a larger degree.
    longer = _answer(catalog, "mistralai/Mixtral-8x7B-v0.1", sequence=32768, batch=8)
    assert "KV cache 34.4 GB" in longer[2] and longer[3].startswith("Smallest fit: inf2.24xlarge with 12 NeuronCores")


def test_qwen2_72b_is_answered_from_its_size(catalog):
    lines = _answer(catalog, "Qwen2-72B")
    assert lines[2] == "Needs 174 GB: weights 144 GB + KV cache 1.34 GB + 20% headroom 29.1 GB."
    assert lines[3] == "Smallest fit: inf2.24xlarge with 12 NeuronCores (192 GB of device memory)."
    assert "On AWS Inferentia: too large (at most 2 GB, on inf1.xlarge)." in lines


def test_a_model_too_large_for_every_instance_gets_the_nearest_option(catalog):
    lines = _answer(catalog, "Ling-1T")
    assert "(the size read from its name)" in lines[1]
    assert lines[3] == ("Too large for every instance at BF16: it needs 2.4 TB; the largest, trn2.48xlarge, "
                        "has 1.65 TB in 128 NeuronCores.")
    assert lines[4] == "Nearest: at FP8 it would fit trn2.48xlarge with 128 NeuronCores (it needs 1.2 TB)."
    lines = _answer(catalog, "Example-3T")
    assert lines[4] == "Nearest: 559 NeuronCores of AWS Trainium2 (5 x trn2.48xlarge), beyond one instance."


def test_a_name_without_a_size_stays_not_in_the_data(catalog):
    size, ident = fit.resolve_size(catalog, "Phi-three mini")
    assert size is None and ident is None


# The advisor's script writes the same sentences -----------------------------------------------------


def test_the_script_holds_no_units_of_its_own():
    """The units the script shows memory and parameters in, and reads a size in a name by, are the
    build's (shipped in the advisor's data: :func:`fit.shipped_units`), not a second copy in the script."""
    script = SCRIPT.read_text(encoding="utf-8")
    copies = [f"{text!r}" for text in (" TB", " GB", " kB", "1e12", "1e9", "1e6", "[mbt]", "10**")
              if text in script]
    assert copies == []
    shipped = fit.shipped_units()
    assert re.compile(shipped["size_in_name"]) == fit.SIZE_IN_NAME and shipped["size_units"] == fit.SIZE_UNITS
    assert [tuple(unit) for unit in shipped["memory"]] == list(MEMORY_UNITS)
    assert [tuple(unit) for unit in shipped["parameters"]] == list(PARAMETER_UNITS)


#: A comment, or a string literal, of JavaScript (the first to start wins: a quote in a comment is not a string).
_JS_TOKENS = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`", re.S)
_FIELD = re.compile(r"\{\w+\}")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")  # four letters or more: not "at", "on", "of", "and"


def _wording_in(script: str) -> list[str]:
    """The templates' wording (:data:`fit.SENTENCES`) a script holds: a word of theirs (of four letters
    or more) in one of its strings, or a phrase of theirs (three words or more, between fields)
    anywhere, comments included."""
    words = {w.lower() for template in fit.SENTENCES.values() for w in _WORD.findall(_FIELD.sub(" ", template))}
    found = [f"{token.group()} ({word})" for token in _JS_TOKENS.finditer(script) if not token.group().startswith("/")
             for word in _WORD.findall(token.group()) if word.lower() in words]
    phrases = {piece.strip(" .,;:()") for template in fit.SENTENCES.values() for piece in _FIELD.split(template)}
    return found + sorted(phrase for phrase in phrases if len(phrase.split()) >= 3 and phrase in script)


def test_the_script_holds_no_wording_of_its_own():
    """The sentences of the estimate are worded once, in :data:`fit.SENTENCES` (shipped in the advisor's
    data): the script names its templates by property and holds none of their words, so that a second
    copy cannot creep back; and the page gets its sentences as text, never as markup."""
    assert _wording_in(SCRIPT.read_text(encoding="utf-8")) == []
    # What the check finds: the script's sentences as they were written before (issue 33).
    assert _wording_in('out.push("On " + name + ": too large (at most " + most + ")");') == [
        '": too large (at most " (large)', '": too large (at most " (most)', "too large (at most"]
    assert _wording_in("// headroom: no KV cache counted, say") == ["no KV cache counted"]
    for script in (SCRIPT, ADVISOR_SCRIPT):
        text = script.read_text(encoding="utf-8")
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", text), script.name


def test_the_templates_name_their_fields_and_nothing_else():
    """Each template is ``str.format``'s and the script's alike: fields named ``{field}``, without a format
    specification or conversion, and no literal brace (the script replaces each ``{field}`` by its value)."""
    for key, template in fit.SENTENCES.items():
        for literal, field, spec, conversion in string.Formatter().parse(template):
            assert "{" not in literal and "}" not in literal, key
            assert field is None or (re.fullmatch(r"\w+", field) and not spec and conversion is None), (key, field)
    # Every template is used: a sentence's words are in the answers (or the one/many words of a count).
    assert {"label", "size", "need_kv", "need_no_kv", "assumed"} <= set(fit.SENTENCES)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the advisor's script")
def test_a_sentence_reworded_in_the_build_is_reworded_in_the_script(catalog, monkeypatch):
    """Every template reworded (here: tagged with its name) rewords the build's sentences and the
    script's alike: the script writes what the data it is given says, and nothing of its own."""
    for key, template in list(fit.SENTENCES.items()):
        monkeypatch.setitem(fit.SENTENCES, key, f"<{key}>{template}")
    known = fit.sizes(catalog)
    cases = [(known["size:mixtral-8x7b"], {}), (known["size:qwen2-72b"], {"sequence": 8192}),
             (known["size:gpt-2"], {"batch": 4, "data_type": "FP8"}), (known["seed:beit"], {"data_type": "FP32"})]
    cases += [(size, {}) for size in map(fit.size_from_name, ("Ling-1T", "Example-3T", "Falcon-40B")) if size]
    program = (
        "const fit = require(process.argv[1]); const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(input.cases.map(c => fit.lines(input.fit, c.name ? "
        "fit.sizeFromName(c.name, input.fit) : c.size, c.data_type, c.sequence, c.batch))));")
    payload = {"fit": fit.fit_slice(catalog), "cases": [
        {**given, **({"name": size.name} if size.from_name else {"size": {
            "name": size.name, "parameters": size.parameters, "data_types": list(size.data_types),
            "kv_values_per_token": size.kv_values_per_token}})} for size, given in cases]}
    written = json.loads(subprocess.run(["node", "-e", program, str(SCRIPT)], input=json.dumps(payload), text=True,
                                        capture_output=True, check=True, timeout=60).stdout)
    expected = [fit.lines_for(fit.places(catalog), size, **given) for size, given in cases]
    assert written == expected
    said = " ".join(line for lines in written for line in lines)
    assert set(re.findall(r"<(\w+)>", said)) == set(fit.SENTENCES)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the advisor's script")
def test_the_script_writes_the_builds_sentences(catalog):
    shipped = fit.fit_slice(catalog)
    known = fit.sizes(catalog)
    cases: list[tuple[str, fit.Size, dict]] = []
    for key in known:
        cases.append((key, known[key], {}))
    for key, given in (("size:mixtral-8x7b", {"sequence": 32768, "batch": 8}),
                       ("size:llama-3.1-405b", {"data_type": "FP32"}),
                       ("published:llama-3-8b", {"data_type": "FP8", "batch": 64})):
        cases.append((key, known[key], given))
    for name in ("Ling-1T", "Example-3T", "Falcon-40B", "Qwen1.5-MoE-57B-A14B"):
        size = fit.size_from_name(name)
        assert size is not None
        cases.append((f"name:{name}", size, {}))
    program = (
        "const fit = require(process.argv[1]); const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = input.cases.map(c => fit.lines(input.fit, c.key.startsWith('name:') ? "
        "fit.sizeFromName(c.key.slice(5), input.fit) : input.fit.sizes[c.key], c.data_type, c.sequence, c.batch));"
        "out.push([1, 999, 440e6, 17179869184, 1649267441664, 34359738368].map(b => fit.memoryText(input.fit, b)));"
        "out.push([8e9, 46.7e9, 110e6, 11689512, 7.3e9].map(p => fit.parametersText(input.fit, p)));"
        "process.stdout.write(JSON.stringify(out));")
    payload = {"fit": shipped, "cases": [{"key": key, **given} for key, _size, given in cases]}
    result = subprocess.run(["node", "-e", program, str(SCRIPT)], input=json.dumps(payload), text=True,
                            capture_output=True, check=True, timeout=60)
    written = json.loads(result.stdout)
    options = fit.places(catalog)
    for (key, size, given), lines in zip(cases, written, strict=False):
        assert lines == fit.lines_for(options, size, **given), key
    assert written[-2] == [shown_memory(b) for b in (1, 999, 440_000_000, 17179869184, 1649267441664, 34359738368)]
    assert written[-1] == [shown_parameters(p) for p in (8e9, 46.7e9, 110e6, 11689512, 7.3e9)]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the advisor's script")
def test_the_advisor_page_answers_models_nobody_benchmarked(site, catalog):
    """The advisor page's data finds Mixtral-8x7B and Qwen2-72B by name (they only said "not in the
    data" before), and its script answers them, and a name it can only read a size from, as the build does."""
    soup = site.soup("advisor.html")
    data = json.loads(soup.find("script", id="neuron-advisor-data").string)
    assert data["keys"][name_key("Mixtral-8x7B")] == "size:mixtral-8x7b"
    assert data["keys"][name_key("Qwen/Qwen2-72B")] == "size:qwen2-72b"
    assert name_key("Ling-1T") not in data["keys"]
    # A family's representative with a size answers with its estimate (and its family), not the family alone.
    assert data["keys"][name_key("GPT-2")] == "size:gpt-2" and data["fit"]["sizes"]["size:gpt-2"]["family"] == "decoder"
    assert "neuron-fit.js" in str(soup.find_all("script"))
    program = (
        "const fit = require(process.argv[1]); const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify([fit.lines(data.fit, data.fit.sizes['size:mixtral-8x7b']),"
        "fit.lines(data.fit, data.fit.sizes['size:qwen2-72b'], null, 8192, 4),"
        "fit.lines(data.fit, fit.sizeFromName('Ling-1T', data.fit))]));")
    written = json.loads(subprocess.run(["node", "-e", program, str(SCRIPT)], input=json.dumps(data), text=True,
                                        capture_output=True, check=True, timeout=60).stdout)
    assert written[0] == _answer(catalog, "Mixtral-8x7B")
    assert written[1] == _answer(catalog, "Qwen2-72B", sequence=8192, batch=4)
    assert written[2] == _answer(catalog, "Ling-1T") and written[2][3].startswith("Too large for every instance")
    check = " ".join(p.get_text() for p in soup.select("p"))
    assert "runs fit the NeuronCores they used" in check and "0 do not" in check
