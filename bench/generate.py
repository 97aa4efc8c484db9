"""Synthetic data set and Sphinx projects for the build-time benchmark (see bench/README.md).

:func:`write_data` writes a data directory in the exact format of ``data/`` (the data layer loads it
with zero errors); :func:`write_projects` writes two Sphinx projects showing the same tables: one
rendered by our extension (``ext/``), one hand-written as ``list-table`` RST (``hand/``).

Shape: 8 devices (``dev-0`` and ``dev-1`` have a support matrix), 4 frameworks running on the
neuron devices, ``families`` model families (their prose in ``families.yaml``; each a row of one
matrix device's matrix, alternating, with a status for each of its 4 frameworks, in one revision
``matrix/<LAST_UPDATE>.yaml``), 100 models and ``runs`` inference runs. The matrix pages show every
family; the benchmark page shows the runs of one model (``runs / 100`` rows).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from neuron_docs.data.catalog import FILES
from neuron_docs.data.figures.formatting import NumberFormat, format_number
from neuron_docs.data.figures.runs import cost_per_million

#: This folder (the synthetic projects load its ``page_hooks`` extension).
BENCH = Path(__file__).resolve().parent
MATRIX_DEVICES = ("dev-0", "dev-1")
FRAMEWORKS = ("fw-0", "fw-1", "fw-2", "fw-3")
CATEGORIES = (("cat-0", "NLP"), ("cat-1", "Computer Vision"), ("cat-2", "Sequence models"), ("cat-3", "Other"))
MODELS = 100
STATUSES = ("supported", "na", "supported", "supported", "na")
FIT_TEXT = {"good": "Good Fit", "poor": "Not a Good Fit"}
STATUS_TEXT = {"supported": "Supported", "roadmap": "Roadmap Item", "na": "NA"}
SUPPORT_DEFINITION = "Supported means that at least a single model of the family is already enabled."
LAST_UPDATE = "2024-01-15"


def family(index: int) -> dict:
    """The synthetic family ``index``: its device, fit, category and one status per framework."""
    return {
        "id": f"f-{index}",
        "name": f"Family {index}",
        "category": CATEGORIES[index % len(CATEGORIES)],
        "device": MATRIX_DEVICES[index % len(MATRIX_DEVICES)],
        "fit": "good" if index % 3 else "poor",
        "support": {fw: STATUSES[(index + k) % len(STATUSES)] for k, fw in enumerate(FRAMEWORKS)},
    }


def run_row(index: int) -> list[str]:
    """Inference run ``index``: model ``index % 100``, on one of the four neuron environments."""
    model, env = index % MODELS, index % 4
    batch = 1 + (index // MODELS) % 64
    latency = f"{1 + (index * 7919) % 5000 / 100:.3f}"
    throughput = f"{10 + (index * 104729) % 900000 / 100:.2f}"
    return [f"run-{index}", f"m-{model}", "", f"env-{env}", str(batch), str(1 + env % 2), "1",
            "" if index % 2 else "fast-math=none", latency, throughput, "bench"]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _families_yaml(count: int) -> str:
    """The families' prose (``families.yaml``): the fit and the support cells are the revision's."""
    lines = [f"guidelines_as_of: {LAST_UPDATE}", "categories:"]
    lines += [f"  - {{id: {cid}, name: {name}, title: {name} models}}" for cid, name in CATEGORIES]
    lines.append("families:")
    for i in range(count):
        f = family(i)
        lines.append(f"  - {{id: {f['id']}, name: {f['name']}, title: F{i}, short_name: F{i}, "
                     f"category: {f['category'][0]}, description: F{i}., devices: {{{f['device']}: {{}}}}}}")
    return "\n".join(lines) + "\n"


def column_header(index: int) -> str:
    return f"Framework {index} (pkg-{index})"


def _revision_yaml(count: int) -> str:
    """One published revision of the support matrices (``matrix/<LAST_UPDATE>.yaml``): a matrix per
    matrix device (each its own architecture), a column per framework, a row per family."""
    lines = [f"date: {LAST_UPDATE}", "commit: 0000000", "source: bench", "page: Synthetic support matrices",
             f"devices: [{', '.join(MATRIX_DEVICES)}]", f"frameworks: [{', '.join(FRAMEWORKS)}]", "statuses:",
             f"  supported: {{label: {STATUS_TEXT['supported']}, definition: {SUPPORT_DEFINITION}}}",
             f"  roadmap: {{label: {STATUS_TEXT['roadmap']}, roadmap: bench-roadmap}}",
             f"  na: {{label: {STATUS_TEXT['na']}}}",
             f"fits: {{good: {FIT_TEXT['good']}, poor: {FIT_TEXT['poor']}}}", "matrices:"]
    month, day, year = LAST_UPDATE[5:7], LAST_UPDATE[8:], LAST_UPDATE[:4]
    for device in MATRIX_DEVICES:
        index = device.split("-")[1]
        lines += [f"  - id: {device}", f"    architecture: Arch {index}", f"    title: Device {index}",
                  f"    devices: [{device}]", f"    last_update_published: {month}/{day}/{year}", "    columns:"]
        lines += [f"      - {{framework: {fw}, workload: inference, header: {column_header(k)}}}"
                  for k, fw in enumerate(FRAMEWORKS)]
        lines.append("    rows:")
        for i in range(count):
            f = family(i)
            if f["device"] != device:
                continue
            cells = ", ".join(f"{fw}/inference: {status}" for fw, status in f["support"].items())
            lines.append(f"      - {{family: {f['id']}, label: {f['name']}, categories: [{f['category'][0]}], "
                         f"fit: {f['fit']}, cells: {{{cells}}}}}")
    return "\n".join(lines) + "\n"


def _devices_yaml() -> str:
    lines = ["devices:"]
    for i in range(8):
        kind = "neuron" if i < 4 else "gpu"
        cores = ", neuroncores: 2" if kind == "neuron" else ""
        lines.append(f"  - {{id: dev-{i}, name: Device {i}, vendor: Bench, kind: {kind}, architecture: Arch {i}, "
                     f"purpose: general{cores}, interconnect: PCIe, source: bench}}")
    return "\n".join(lines) + "\n"


def _instances_yaml() -> str:
    lines = ["instances:"]
    for i in range(8):
        lines.append(f"  - {{id: inst-{i}, family: inst, device: dev-{i}, device_count: 1, vcpus: 8, "
                     f"price: {{usd_per_hour: {1 + i * 0.25}, source: bench, as_of: 2024-01-01}}}}")
    return "\n".join(lines) + "\n"


def _frameworks_yaml() -> str:
    lines = ["frameworks:"]
    for i, fw in enumerate(FRAMEWORKS):
        lines.append(f"  - {{id: {fw}, name: Framework {i}, package: pkg-{i}, framework: Fw{i}, "
                     "devices: [dev-0, dev-1, dev-2, dev-3]}")
    return "\n".join(lines) + "\n"


def _models_yaml() -> str:
    lines = ["models:"]
    lines += [f"  - {{id: m-{i}, name: Model {i}, family: f-{i}, status: compiled}}" for i in range(MODELS)]
    lines.append("environments:")
    lines += [f"  - {{id: env-{i}, instance: inst-{i}, os: Linux, software: {{Neuron: '2.{i}'}}, source: bench}}"
              for i in range(4)]
    return "\n".join(lines) + "\n"


def _csv(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


INFERENCE_HEADER = ["id", "model", "variant", "environment", "batch_size", "neuroncores", "pipeline",
                    "compiler_options", "p90_latency_ms", "throughput_per_s", "source"]


def write_data(target: Path, families: int, runs: int) -> Path:
    """Write the synthetic data set into ``target`` (``families`` >= 100 so every model has a family)."""
    _write(target / "sources.yaml", "sources:\n  - {id: bench, title: Synthetic benchmark data}\n")
    _write(target / "devices.yaml", _devices_yaml())
    _write(target / "instances.yaml", _instances_yaml())
    _write(target / "frameworks.yaml", _frameworks_yaml())
    _write(target / "families.yaml", _families_yaml(families))
    _write(target / "matrix" / f"{LAST_UPDATE}.yaml", _revision_yaml(families))
    _write(target / "issues.yaml", "known_issues: []\nroadmap:\n  - {id: bench-roadmap, title: Roadmap, "
                                   "url: 'https://example.com/roadmap', description: Planned work., source: bench}\n")
    _write(target / "models.yaml", _models_yaml())
    _write(target / "training.yaml", "experiments: []\ncomparisons: []\nclaims: []\n")
    _write(target / "benchmarks/inference.csv", _csv(INFERENCE_HEADER, [run_row(i) for i in range(runs)]))
    _write(target / "benchmarks/accuracy.csv", _csv(
        ["id", "model", "environment", "dataset", "batch_size", "compiler_options", "top1_percent", "duration_s",
         "source"], [[f"acc-{i}", f"m-{i}", "env-0", "ImageNet", "1", "", "76.5", "30", "bench"] for i in range(10)]))
    for spec in FILES:  # data files the benchmark has no figures for (e.g. errata.yaml): empty lists
        if not (target / spec.name).exists() and spec.collections and not spec.header:
            _write(target / spec.name, "".join(f"{c}: []\n" for c in spec.collections))
        elif not (target / spec.name).exists() and spec.csv:  # a header row only (published runs)
            _write(target / spec.name, _csv(list(spec.csv[1].model_fields), []))
    return target


# Sphinx projects ---------------------------------------------------------------------------------

CONF_EXT = '''import sys
sys.path[:0] = [{ext!r}, {here!r}, {bench!r}]
project = "bench"
extensions = ["neuron_docs", "bench_targets", "page_hooks"]
neuron_data_dir = {data!r}
html_theme = "basic"
'''

CONF_HAND = '''project = "bench"
html_theme = "basic"
'''

#: A bench-only directive giving every family its link target (on the real site the guideline
#: sections do this; here only the targets, so both projects link family names the same way).
TARGETS_EXT = '''from docutils import nodes
from sphinx.util.docutils import SphinxDirective
from neuron_docs.state.domain import anchor_for
from neuron_docs.state.domain import dataset
from neuron_docs.state.dependencies import uses


class FamilyTargets(SphinxDirective):
    def run(self):
        uses(self, "families.yaml")
        domain = self.env.get_domain("neuron")
        items = nodes.bullet_list()
        for family in dataset(self.env).catalog.families.values():
            anchor = anchor_for("family", family.id)
            domain.note_object("family", family.id, family.name, anchor)
            items += nodes.list_item("", nodes.paragraph(family.name, family.name, ids=[anchor]))
        return [items]


def setup(app):
    app.add_directive("bench-family-targets", FamilyTargets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
'''

INDEX = """Benchmark
=========

.. toctree::

   matrix-dev-0
   matrix-dev-1
   families
   benchmarks
   about
"""

ABOUT = "About\n=====\n\nA page that reads no data.\n"


def _ext_pages(model: str) -> dict[str, str]:
    pages = {f"matrix-{d}.rst": f"{_title(f'Matrix {d}')}.. neuron:support-matrix:: {d}\n" for d in MATRIX_DEVICES}
    pages["families.rst"] = "Families\n========\n\n.. bench-family-targets::\n"
    pages["benchmarks.rst"] = f"Benchmarks\n==========\n\n.. neuron:benchmark-table::\n   :model: {model}\n"
    return pages


def _title(text: str) -> str:
    return f"{text}\n{'=' * len(text)}\n\n"


def _list_table(headers: list[str], rows: list[list[str]]) -> str:
    out = [".. list-table::", "   :header-rows: 1", ""]
    for row in [headers, *rows]:
        out.append(f"   * - {row[0]}" if row[0] else "   * -")
        out += [f"     - {cell}" if cell else "     -" for cell in row[1:]]
    return "\n".join(out) + "\n"


def _hand_matrix(device: str, families: int) -> str:
    headers = ["Model Family / Neural Network Architecture", "Category", "Hardware Architecture",
               *(column_header(i) for i in range(len(FRAMEWORKS)))]
    rows = []
    for i in range(families):
        f = family(i)
        if f["device"] != device:
            continue
        rows.append([f":ref:`{f['name']} <family-{f['id']}>`", f["category"][1], FIT_TEXT[f["fit"]],
                     *(f"{STATUS_TEXT[s]} since {LAST_UPDATE}" for s in f["support"].values())])
    return (f"{_title(f'Matrix {device}')}*Last update* - {LAST_UPDATE}\n\n{_list_table(headers, rows)}\n"
            f".. note::\n\n   {SUPPORT_DEFINITION}\n")


def _hand_families(families: int) -> str:
    lines = ["Families", "========", ""]
    for i in range(families):
        f = family(i)
        lines += [f".. _family-{f['id']}:", "", f"- {f['name']}", ""]
    return "\n".join(lines)


def _hand_benchmarks(model: str, runs: int) -> str:
    headers = ["Model", "Variant", "Instance", "Batch size", "NeuronCores", "Pipeline", "Compiler options",
               "p90 latency", "Throughput", "Cost per 1M inferences"]
    rows = []
    for i in range(runs):
        r = run_row(i)
        if r[1] != model:
            continue
        env = int(r[3].split("-")[1])
        price, throughput = 1 + env * 0.25, float(r[9])
        cost = format_number(cost_per_million(price, throughput), "USD", NumberFormat(decimals=2))
        rows.append([f"Model {model[2:]}", "", f"inst-{env}", r[4], r[5], r[6], r[7] or "default",
                     format_number(float(r[8]), "ms"), format_number(throughput, "inferences/s"), cost])
    return f"Benchmarks\n==========\n\n{_list_table(headers, rows)}"


def write_projects(root: Path, data: Path, families: int, runs: int, ext_dir: Path) -> tuple[Path, Path]:
    """Write ``root/ext`` (our directives) and ``root/hand`` (the same tables as list-table)."""
    model = "m-0"
    ext, hand = root / "ext", root / "hand"
    _write(ext / "conf.py", CONF_EXT.format(ext=str(ext_dir), here=str(ext), bench=str(BENCH), data=str(data)))
    _write(ext / "bench_targets.py", TARGETS_EXT)
    _write(hand / "conf.py", CONF_HAND)
    for project in (ext, hand):
        _write(project / "index.rst", INDEX)
        _write(project / "about.rst", ABOUT)
    for name, text in _ext_pages(model).items():
        _write(ext / name, text)
    for device in MATRIX_DEVICES:
        _write(hand / f"matrix-{device}.rst", _hand_matrix(device, families))
    _write(hand / "families.rst", _hand_families(families))
    _write(hand / "benchmarks.rst", _hand_benchmarks(model, runs))
    return ext, hand


# The benchmark history at scale ------------------------------------------------------------------

HISTORY_GENERATIONS = ("inf1", "inf2", "trn1")
HISTORY_METRIC = "throughput_inferences_per_s"
HISTORY_INSTANCES = ("inst-0", "inst-1", "inst-2", "inst-3")


def history_state(index: int) -> tuple[str, str, str]:
    """Published state ``index``: its id, date and release (one state per release, 45 days apart)."""
    date = _date(index * 45)
    return f"{date}-{index + 0x1000:x}", date, f"2.{index}.0"


def _date(days: int) -> str:
    import datetime as dt

    return (dt.date(2021, 1, 1) + dt.timedelta(days=days)).isoformat()


def history_value(configuration: int, release: int) -> str:
    """The synthetic throughput of configuration ``configuration`` under release ``release``: it
    drifts, with a regression or an improvement now and then."""
    base = 100 + (configuration * 7919) % 9000
    if (configuration + release) % 7:  # mostly steady: -3 .. +3 %
        step = (configuration + release) % 7 - 3
    else:  # one release in seven: -20 .. +20 %
        step = ((configuration * 31 + release * 17) % 41) - 20
    return f"{base * (100 + step) / 100:.2f}"


def write_history(target: Path, configurations: int, releases: int) -> Path:
    """The benchmark history of ``configurations`` configurations, each measured under every one of
    ``releases`` releases (one published state each), in ``target/benchmarks/history/`` in the format
    of ``data/``: one throughput per configuration and release, each superseded by the next."""
    from neuron_docs.benchmark_import.history_rows import History

    states = [history_state(i) for i in range(releases)]
    history = History(states=[{"id": sid, "date": date, "commit": f"{i + 0x1000:x}", "subject": f"Release {rel}",
                               "release": rel, "rows": str(configurations), "placed": str(configurations),
                               "set_aside": "0"} for i, (sid, date, rel) in enumerate(states)])
    first, first_date = states[0][0], states[0][1]
    for j in range(configurations):
        cid = f"cfg-{j}"
        generation = HISTORY_GENERATIONS[j % len(HISTORY_GENERATIONS)]
        history.configurations[cid] = {
            "id": cid, "generation": generation, "kind": "inference",
            "view": "throughput", "model": f"Model {j // 10}", "framework": FRAMEWORKS[0],
            "instance": HISTORY_INSTANCES[j % len(HISTORY_INSTANCES)], "batch_size": str(1 + j % 10),
            # How it is published now: the latest state's runs are derived from these (one store).
            "table": f"{generation}-throughput-data", "row": str(j + 2), "framework_name": "PyTorch",
            "source": "bench", "file": f"{generation}/throughput_data.csv", "first_published": first_date,
            "first_state": first}
        rows = []
        for i, (sid, date, release) in enumerate(states):
            last = i == len(states) - 1
            rows.append({"id": f"{cid}-{i}", "configuration": cid, "neuron_version": release, "version_from": "column",
                         "metric": HISTORY_METRIC, "value": history_value(j, i), "first_published": date,
                         "first_state": sid, "last_seen": "" if last else date,
                         "ended": "" if last else states[i + 1][1], "status": "published" if last else "superseded"})
        history.observations[(cid, HISTORY_METRIC)] = rows
    for k, instance in enumerate(HISTORY_INSTANCES):
        history.prices[instance] = [{"id": f"{instance}-price", "instance": instance, "basis": "on-demand",
                                     "usd_per_hour": f"{1 + k * 0.25:.2f}", "file": "instance_prices.csv",
                                     "first_published": first_date, "first_state": first, "status": "published"}]
    history.write(target)
    tables = [f"  - {{id: {g}-throughput-data, generation: {g}, kind: inference, view: throughput, "
              f"path: {g}/throughput_data.csv, columns: [Model, Inst. Type, Batch Size, Throughput (inference/sec), "
              f"Neuron Version], source: bench}}" for g in HISTORY_GENERATIONS]
    _write(target / "benchmarks/published/tables.yaml", "published_tables:\n" + "\n".join(tables) + "\n")
    return target


HISTORY_INDEX = """History
=======

.. toctree::

{pages}
"""


def write_history_projects(root: Path, data: Path, ext_dir: Path) -> tuple[Path, Path]:
    """Two projects showing the history of ``data``: ``root/ext`` by the extension
    (``neuron:benchmark-history`` per generation, ``neuron:benchmark-changes``), ``root/hand`` the
    same tables, titles, anchors and lists of changes written by hand as RST (``list-table``,
    ``:ref:``), without the extension (and without the charts, which RST cannot draw)."""
    from neuron_docs.data import load_catalog
    from neuron_docs.data.published.history_view import (
        CHANGE_TEXT, BenchmarkHistoryIndex, change_text, describe_configuration, releases,
    )
    from neuron_docs.directives.benchmark_history import _row, history_page
    from neuron_docs.data.records.labels import METRICS
    from neuron_docs.state.domain import anchor_for

    ext, hand = root / "ext", root / "hand"
    pages = [history_page(g) for g in HISTORY_GENERATIONS] + ["changes"]
    _write(ext / "conf.py", CONF_EXT.format(ext=str(ext_dir), here=str(ext), bench=str(BENCH), data=str(data))
           .replace('"bench_targets", ', ""))
    _write(hand / "conf.py", CONF_HAND)
    for project in (ext, hand):
        _write(project / "index.rst", HISTORY_INDEX.format(pages="\n".join(f"   {p}" for p in pages)))
    for g in HISTORY_GENERATIONS:
        _write(ext / f"{history_page(g)}.rst", f"{_title(f'{g} history')}.. neuron:benchmark-history:: {g}\n")
    _write(ext / "changes.rst", f"{_title('Changes')}.. neuron:benchmark-changes::\n")

    catalog = load_catalog(data)
    if catalog.errors:
        raise SystemExit(f"synthetic history has {len(catalog.errors)} errors, e.g. {catalog.errors[0]}")
    index = BenchmarkHistoryIndex.of(catalog)
    for g in HISTORY_GENERATIONS:
        configs = sorted((c for c in catalog.benchmark_configurations.values() if c.generation == g),
                         key=lambda c: (c.view, c.model.lower(), describe_configuration(c), c.id))
        out = [_title(f"{g} history")]
        for config in configs:
            found = releases(index, config.id)
            metrics = [m for m in METRICS if any(m in r.figures for r in found)]
            per = next((r.cost.per for r in found if r.cost), None)
            headers = ["Neuron release", "First published", "Last seen",
                       *(f"{METRICS[m].label} ({METRICS[m].unit})" for m in metrics),
                       *([f"Cost per {per}", "Price in force"] if per else [])]
            rows = [_row(r, metrics, per is not None) for r in reversed(found)]
            out += [f".. _{anchor_for('benchmark', config.id)}:\n", f".. rubric:: {describe_configuration(config)}\n",
                    f"First published on {config.first_published}; still published. Last published in "
                    f"{config.file}.\n", _list_table(headers, rows)]
        _write(hand / f"{history_page(g)}.rst", "\n".join(out))
    changes = index.release_changes()
    out = [_title("Changes")]
    for release in index.published_releases():
        found = changes.get(release.version, [])
        out.append(_title(release.title).replace("=", "-"))
        out.append(f"Figures of Neuron {release.version} first published in {len(release.states)} states.\n")
        for kind, words in CHANGE_TEXT.items():
            items = [c for c in found if c.kind == kind]
            if items:
                out.append(f"{words} ({len(items)})\n")
                out += [f"- :ref:`{describe_configuration(catalog.benchmark_configurations[c.configuration])} "
                        f"<{anchor_for('benchmark', c.configuration)}>`{change_text(c)}"
                        for c in items]
                out.append("")
    _write(hand / "changes.rst", "\n".join(out))
    return ext, hand
