"""Benchmark of the benchmark history: importing it, what it adds to the strict build, one new release.

Usage (see bench/README.md, "The benchmark history")::

    make bench-history                                        # the real data: import, build, release
    make bench-history BENCH_ARGS="--parts build --runs 3"    # one part, median of 3
    make bench-history BENCH_ARGS="--states DIR --keep /tmp/h"
    make bench-history BENCH_ARGS="--parts scale --scale 2000x30"   # synthetic, against hand-written

On the real site and the published states (default ``../shared/external/neuron-sdk/benchmark-history``):

* **import**: every state into a copy of ``data/`` without ``benchmarks/history/`` (wall and CPU
  seconds of the importer's process), then the same states again, which must change no file;
* **build**: the build (``-n``, from clean: no output, no catalog cache, no generated pages) of a
  copy of the site with the history against the same site with an empty history (a data copy
  without ``benchmarks/history/``); CPU of the ``sphinx-build`` child. Not ``-W``: without a history
  there are no performance pages, and the prose that links to them warns (the warnings are counted);
* **release**: import every state but the last, build, import the last, build again: the pages
  re-read and written (the ``page_hooks`` extension), against the pages whose figures moved;
* **scale** (``--scale NxR``): a synthetic history of N configurations x R releases
  (:func:`generate.write_history`, the format of ``data/``), its load, and the strict clean build of
  its pages by the extension against the same tables hand-written as ``list-table``
  (:func:`generate.write_history_projects`).

Every figure is from child processes (:func:`run.run_child`, ``os.wait4``), as ``make bench``'s.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(HERE), str(REPO / "_ext")]

import generate  # noqa: E402
from run import Build, median, run_child, sphinx_build  # noqa: E402

from neuron_docs.data import load_catalog  # noqa: E402
from neuron_docs.data.dataset import collector_paused  # noqa: E402

from neuron_docs.benchmark_import.history_rows import History  # noqa: E402
from neuron_docs.data.catalog import HISTORY_DIR  # noqa: E402

#: ``../shared`` beside the checkout (or beside the folder of git worktrees it is in).
_SHARED = next((base / "shared" for base in (REPO.parent, REPO.parent.parent) if (base / "shared").is_dir()),
               REPO.parent / "shared")
STATES = _SHARED / "external" / "neuron-sdk" / "benchmark-history"
PYTHON = REPO / ".venv" / "bin" / "python"
#: Pages of the site generated into ``source/`` on every build (git-ignored): a clean build has none.
GENERATED = ("devices", "performance", "matrix")
PARTS = ("import", "build", "release", "scale")
#: The hooks that report pages read and written, added to the copy's configuration.
CONF_HOOKS = "\nsys.path.insert(0, {bench!r})\nextensions.append(\"page_hooks\")\n"


def data_copy(target: Path, history: bool = True) -> Path:
    """A copy of the real ``data/``; without ``benchmarks/history/`` unless ``history``."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(REPO / "data", target)
    if not history:
        shutil.rmtree(target / HISTORY_DIR)
    return target


def site_copy(root: Path, data: Path) -> Path:
    """A copy of the site in ``root`` (configuration, pages without the generated ones, the
    extension linked) reading ``data``, with the page hooks."""
    root.mkdir(parents=True, exist_ok=True)
    conf = (REPO / "conf.py").read_text(encoding="utf-8") + CONF_HOOKS.format(bench=str(HERE))
    (root / "conf.py").write_text(conf, encoding="utf-8")
    shutil.copy2(REPO / "pyproject.toml", root / "pyproject.toml")
    shutil.rmtree(root / "source", ignore_errors=True)
    shutil.copytree(REPO / "source", root / "source",
                    ignore=lambda folder, names: [n for n in names if Path(folder) == REPO / "source" and n in GENERATED])
    if not (root / "_ext").exists():
        (root / "_ext").symlink_to(REPO / "_ext")
    if (root / "data").is_symlink():
        (root / "data").unlink()
    if data != root / "data":
        (root / "data").symlink_to(data)
    return root


def build(root: Path, out: str = "html", clean: bool = True, strict: bool = True) -> Build:
    """The HTML build of the site copy ``root`` (strict unless not ``strict``); ``clean``: no output,
    cache or generated pages."""
    if clean:
        shutil.rmtree(root / out, ignore_errors=True)
        shutil.rmtree(root / ".neuron-cache", ignore_errors=True)
        for name in GENERATED:
            shutil.rmtree(root / "source" / name, ignore_errors=True)
    return sphinx_build(root / "source", root / out, "-c", str(root), strict=strict)


def import_states(data: Path, states: Path, log: Path) -> Build:
    """``make import-benchmarks SRC=states`` into ``data``, in a child process (located problems are
    printed by the importer: an exit status of 1 says some rows were set aside)."""
    command = [str(PYTHON), "-m", "neuron_docs.benchmark_import", "--data", str(data), str(states)]
    return run_child(command, log, "import-benchmarks", ok=(0, 1))


def digests(folder: Path) -> dict[str, str]:
    """SHA-256 of every file under ``folder``, by relative path."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def states_but_last(states: Path, target: Path) -> tuple[Path, str]:
    """A folder of links to every state of ``states`` but the last (and its ``STATES.tsv`` rows);
    the last state's name."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    names = sorted(p.name for p in states.iterdir() if p.is_dir())
    for name in names[:-1]:
        (target / name).symlink_to(states / name)
    tsv = states / "STATES.tsv"
    if tsv.is_file():
        lines = tsv.read_text(encoding="utf-8").splitlines(keepends=True)
        (target / tsv.name).write_text("".join(line for line in lines if not line.startswith(names[-1])), encoding="utf-8")
    return target, names[-1]


def moved_generations(before: History, after: History) -> set[str]:
    """The generations with a configuration or an observation added or changed between two histories."""
    generation = {cid: c["generation"] for cid, c in after.configurations.items()}
    moved = {generation[cid] for cid, c in after.configurations.items() if before.configurations.get(cid) != c}
    for key, rows in after.observations.items():
        if before.observations.get(key) != rows:
            moved.add(generation[key[0]])
    return moved


def part_import(base: Path, states: Path, runs: int) -> None:
    print(f"\n## Import: {len([p for p in states.iterdir() if p.is_dir()])} states into a data copy "
          "without the history\n", flush=True)
    firsts, agains = [], []
    for run in range(runs):
        data = data_copy(base / "import-data", history=False)
        firsts.append(import_states(data, states, base / f"import-{run}.log"))
        before = digests(data)
        agains.append(import_states(data, states, base / f"import-again-{run}.log"))
        changed = sorted(k for k, v in digests(data).items() if before.get(k) != v)
        same = digests(data / HISTORY_DIR) == digests(REPO / "data" / HISTORY_DIR)
        print(f"  run {run + 1}: {firsts[-1].seconds:.1f} s wall, {firsts[-1].cpu:.1f} s CPU, "
              f"{firsts[-1].peak_mb:.0f} MB; again: {agains[-1].seconds:.1f} s wall, {agains[-1].cpu:.1f} s CPU, "
              f"files changed: {changed or 'none'}; history identical to data/'s: {same}", flush=True)
        print("  importer: " + firsts[-1].output.strip().splitlines()[-1], flush=True)
    wall, cpu, peak = median(firsts)
    wall2, cpu2, _ = median(agains)
    print(f"\n| import | wall | CPU | peak RSS |\n|---|---:|---:|---:|\n| all states, first time | {wall:.1f} s "
          f"| {cpu:.1f} s | {peak:.0f} MB |\n| the same states again | {wall2:.1f} s | {cpu2:.1f} s | |", flush=True)


def part_build(base: Path, runs: int) -> None:
    print("\n## Build of the real site (-n, not -W), from clean: with the history against an empty history\n",
          flush=True)
    sites = {"empty history": site_copy(base / "site-empty", data_copy(base / "data-empty", history=False)),
             "with the history": site_copy(base / "site-history", data_copy(base / "data-history"))}
    found: dict[str, list[Build]] = {name: [] for name in sites}
    for run in range(runs):
        for name, root in sites.items():  # alternated, so that a change of load falls on both
            found[name].append(build(root, strict=False))
            b = found[name][-1]
            warnings = b.output.count("WARNING:")
            print(f"  run {run + 1}, {name}: {b.seconds:.1f} s wall, {b.cpu:.1f} s CPU, {b.peak_mb:.0f} MB, "
                  f"{len(b.written_docs())} pages, {warnings} warnings", flush=True)
    empty, full = found["empty history"], found["with the history"]
    (ew, ec, em), (hw, hc, hm) = median(empty), median(full)
    print(f"\n| site | wall | CPU | peak RSS | pages |\n|---|---:|---:|---:|---:|\n"
          f"| empty history | {ew:.1f} s | {ec:.1f} s | {em:.0f} MB | {len(empty[0].written_docs())} |\n"
          f"| with the history | {hw:.1f} s | {hc:.1f} s | {hm:.0f} MB | {len(full[0].written_docs())} |\n"
          f"| ratio | {hw / ew:.2f}x | **{hc / ec:.2f}x** | {hm / em:.2f}x | |", flush=True)


def part_release(base: Path, states: Path) -> None:
    partial, last = states_but_last(states, base / "states-but-last")
    print(f"\n## One new release: every state but {last} imported and built, then {last}\n", flush=True)
    data = data_copy(base / "data-release", history=False)
    first = import_states(data, partial, base / "release-import-1.log")
    root = site_copy(base / "site-release", data)
    clean = build(root)
    print(f"  {len(clean.read_docs())} pages read and {len(clean.written_docs())} written "
          f"from clean ({clean.seconds:.1f} s wall, {clean.cpu:.1f} s CPU); import {first.cpu:.1f} s CPU", flush=True)
    unchanged = build(root, clean=False)
    before = History.load(data)
    files = digests(data)
    second = import_states(data, states, base / "release-import-2.log")
    changed = sorted(k for k, v in digests(data).items() if files.get(k) != v)
    moved = sorted(moved_generations(before, History.load(data)))
    after = build(root, clean=False)
    print(f"| step | pages re-read | pages written | wall (CPU) |\n|---|---|---|---:|\n"
          f"| nothing changed | {len(unchanged.read_docs())} {unchanged.read_docs()} | "
          f"{len(unchanged.written_docs())} {unchanged.written_docs()} | {unchanged.seconds:.1f} s ({unchanged.cpu:.1f} s) |\n"
          f"| import {last} ({second.cpu:.1f} s CPU; files changed: {', '.join(changed)}) | "
          f"{len(after.read_docs())} {after.read_docs()} | {len(after.written_docs())} {after.written_docs()} | "
          f"{after.seconds:.1f} s ({after.cpu:.1f} s) |", flush=True)
    print(f"\n  generations whose figures moved: {', '.join(moved) or 'none'}", flush=True)


def part_scale(base: Path, configurations: int, releases: int, runs: int) -> None:
    root = base / f"scale-{configurations}x{releases}"
    print(f"\n## At scale: {configurations:,} configurations x {releases} releases, the extension against the "
          "same tables hand-written\n", flush=True)
    shutil.rmtree(root, ignore_errors=True)
    data = generate.write_data(root / "data", 100, 1000)
    generate.write_history(data, configurations, releases)
    sizes = {p.name: p.stat().st_size for p in sorted((data / HISTORY_DIR).iterdir())}
    print("  history files: " + ", ".join(f"{n} {s / 1e6:.1f} MB" for n, s in sizes.items()), flush=True)
    with collector_paused():
        start = time.process_time()
        loaded = load_catalog(data)
        load = time.process_time() - start
    print(f"  load_catalog: {load:.1f} s CPU ({len(loaded.benchmark_observations):,} observations, "
          f"{len(loaded.errors)} errors)", flush=True)
    del loaded
    ext, hand = generate.write_history_projects(root, data, REPO / "_ext")
    rst = sum(p.stat().st_size for p in hand.rglob("*.rst"))
    print(f"  hand-written RST: {rst / 1e6:.1f} MB", flush=True)
    found: dict[str, list[Build]] = {"hand": [], "ext": []}
    for run in range(runs):
        for name, project in (("hand", hand), ("ext", ext)):
            shutil.rmtree(root / f"out-{name}", ignore_errors=True)
            shutil.rmtree(project / ".neuron-cache", ignore_errors=True)
            found[name].append(sphinx_build(project, root / f"out-{name}"))
            b = found[name][-1]
            print(f"  run {run + 1}, {name}: {b.seconds:.1f} s wall, {b.cpu:.1f} s CPU, {b.peak_mb:.0f} MB", flush=True)
    (hw, hc, hm), (ew, ec, em) = median(found["hand"]), median(found["ext"])
    print(f"\n| {configurations:,} x {releases} | wall | CPU | peak RSS |\n|---|---:|---:|---:|\n"
          f"| hand-written list-table | {hw:.1f} s | {hc:.1f} s | {hm:.0f} MB |\n"
          f"| ours, cold | {ew:.1f} s | {ec:.1f} s | {em:.0f} MB |\n"
          f"| ratio | {ew / hw:.2f}x | **{ec / hc:.2f}x** | {em / hm:.2f}x |", flush=True)


def _scale(text: str) -> tuple[int, int]:
    configurations, _, releases = text.partition("x")
    return int(configurations), int(releases)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--parts", type=lambda s: s.split(","), default=list(PARTS[:3]),
                        help=f"comma-separated, of {', '.join(PARTS)} (default: the first three; scale needs --scale)")
    parser.add_argument("--states", type=Path, default=STATES, help=f"the folder of published states (default {STATES})")
    parser.add_argument("--runs", type=int, default=1, help="runs of the import and build figures, median (default 1)")
    parser.add_argument("--scale", type=_scale, default=None, metavar="NxR",
                        help="also (or, with --parts scale, only) N synthetic configurations x R releases, "
                             "against the same tables hand-written (e.g. 2000x30)")
    parser.add_argument("--keep", type=Path, default=None, help="work in this directory and keep it")
    args = parser.parse_args(argv)
    unknown = set(args.parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts {sorted(unknown)}; expected {', '.join(PARTS)}")
    os.environ["PYTHONPATH"] = str(REPO / "_ext")
    base = args.keep or Path(tempfile.mkdtemp(prefix="neuron-bench-history-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}, work dir {base}", flush=True)
    try:
        if "import" in args.parts:
            part_import(base, args.states, args.runs)
        if "build" in args.parts:
            part_build(base, args.runs)
        if "release" in args.parts:
            part_release(base, args.states)
        if args.scale:
            part_scale(base, *args.scale, args.runs)
        print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
