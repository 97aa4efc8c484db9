"""Build-time benchmark at scale: our extension against the same tables hand-written as list-table.

Usage (see bench/README.md)::

    make bench                                  # 1,000 / 5,000 / 20,000 families, median of 3
    make bench BENCH_ARGS="--quick"             # 200 / 1,000 families, 1 run each
    make bench BENCH_ARGS="--sizes 5000 --runs 1 --no-incremental"

For each size: generate the data set and both projects into a temporary directory, build each
from clean (``-W --keep-going -n``), report the median wall time and peak RSS; then, at the
incremental size, rebuild with nothing changed, after changing one data file, after a mere touch
and after a configuration change, counting the pages re-read; and compare ``-j 2`` with serial.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(HERE), str(REPO / "_ext")]

import generate  # noqa: E402
from page_hooks import READ_MARK, WRITTEN_MARK  # noqa: E402
from neuron_docs.data.checking import validation as validation_module  # noqa: E402
from neuron_docs.data.dataset import collector_paused  # noqa: E402
from neuron_docs.data.figures.formatting import shown_figure  # noqa: E402

SPHINX = REPO / ".venv" / "bin" / "sphinx-build"
STRICT = ["-W", "--keep-going", "-n"]


@dataclass
class Build:
    seconds: float
    cpu: float
    peak_mb: float
    output: str
    returncode: int

    def read_docs(self) -> list[str]:
        """Pages re-read by the build (printed by the bench project's env-before-read-docs hook)."""
        return self._marked(READ_MARK)

    def written_docs(self) -> list[str]:
        """Pages written by the build (its doctree-resolved hook)."""
        return self._marked(WRITTEN_MARK)

    def _marked(self, mark: str) -> list[str]:
        lines = [line for line in self.output.splitlines() if line.startswith(mark)]
        return sorted(name for line in lines for name in line[len(mark):].split())


def run_child(command: list[str], log: Path, what: str = "", ok: tuple[int, ...] = (0,)) -> Build:
    """Run ``command`` in a child process, its output into ``log``; wall time, and the child's CPU
    time and peak RSS (``os.wait4``). An exit status not in ``ok`` stops the benchmark."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as handle:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    output = log.read_text()
    if process.returncode not in ok:
        print(output[-3000:], file=sys.stderr)
        raise SystemExit(f"{what or command[0]} failed ({process.returncode}): {' '.join(command)}")
    return Build(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output, process.returncode)


def sphinx_build(project: Path, out: Path, *extra: str, strict: bool = True) -> Build:
    """Run sphinx-build (strict, unless not ``strict``: ``-n`` alone, a warning does not fail it) in a
    child process; wall time, CPU time and peak RSS (os.wait4)."""
    command = [str(SPHINX), "-b", "html", *(STRICT if strict else ["-n"]), *extra, str(project), str(out)]
    return run_child(command, out.parent / f"{out.name}.log", "sphinx-build")


def clean_builds(project: Path, out: Path, runs: int, *extra: str, cold: bool = True) -> list[Build]:
    """``runs`` builds from an empty output directory (and, if ``cold``, no catalog cache)."""
    builds = []
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        if cold:
            shutil.rmtree(project / ".neuron-cache", ignore_errors=True)
        builds.append(sphinx_build(project, out, *extra))
    return builds


def median(builds: list[Build]) -> tuple[float, float, float]:
    """Median wall time, median CPU time (user + system: less sensitive to a busy machine), peak RSS."""
    return (statistics.median(b.seconds for b in builds), statistics.median(b.cpu for b in builds),
            max(b.peak_mb for b in builds))


def time_data_layer(data: Path) -> tuple[float, float]:
    """CPU seconds of one load_catalog (parse + validate + checks; the garbage collector paused, as
    in a build), and of its consistency checks alone."""
    spent = {"checks": 0.0}
    originals = {name: getattr(validation_module, name) for name in ("_check_references", "_check_header")}

    def timed(function):  # noqa: ANN001, ANN202
        def wrapper(*args):  # noqa: ANN002, ANN202
            start = time.process_time()
            try:
                return function(*args)
            finally:
                spent["checks"] += time.process_time() - start
        return wrapper

    for name, function in originals.items():
        setattr(validation_module, name, timed(function))
    try:
        with collector_paused():
            start = time.process_time()
            loaded = validation_module.load_catalog(data)
            total = time.process_time() - start
    finally:
        for name, function in originals.items():
            setattr(validation_module, name, function)
    if loaded.errors:
        raise SystemExit(f"synthetic data has {len(loaded.errors)} errors, e.g. {loaded.errors[0]}")
    return total, spent["checks"]


def html_files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.html"))}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if old not in text:
        raise SystemExit(f"{old!r} not in {path}")
    path.write_text(text.replace(old, new, 1))


def incremental(root: Path, ext: Path, data: Path) -> list[tuple[str, str, str, str]]:
    """Rebuild after each change; (what changed, pages re-read, pages written, check of the output)."""
    out = root / "out-inc"
    shutil.rmtree(ext / ".neuron-cache", ignore_errors=True)
    first = clean_builds(ext, out, 1)[0]
    rows = [("clean build", f"{len(first.read_docs())} (all)", f"{len(first.written_docs())} (all)",
             f"{first.seconds:.1f} s")]

    def step(label: str, check: str | None = None, page: str = "") -> None:
        build = sphinx_build(ext, out)
        ok = "" if check is None else ("new value shown" if check in (out / page).read_text()
                                       else "NEW VALUE MISSING")
        docs, written = build.read_docs(), build.written_docs()
        rows.append((label, f"{len(docs)} {docs}", f"{len(written)} {written}", f"{build.seconds:.1f} s {ok}".strip()))

    step("nothing changed")
    run0 = generate.run_row(0)
    edit(data / "benchmarks/inference.csv", f",{run0[9]},", ",123456.78,")
    # the page prints the figure by the one display rule (123456.78 inferences/s reads "123457")
    step("benchmarks/inference.csv: one throughput", shown_figure(123456.78), "benchmarks.html")
    edit(data / "matrix" / f"{generate.LAST_UPDATE}.yaml", "label: Family 2,", "label: Renamed Family 2,")
    step("matrix/<date>.yaml: one row label", "Renamed Family 2", "matrix-dev-0.html")
    os.utime(data / "models.yaml")
    step("models.yaml: touched, content unchanged")
    copy = root / "data-copy"
    shutil.copytree(data, copy, dirs_exist_ok=True)
    build = sphinx_build(ext, out, "-D", f"neuron_data_dir={copy}")
    rows.append(("config: neuron_data_dir changed", f"{len(build.read_docs())} (all)",
                 f"{len(build.written_docs())} (all)", f"{build.seconds:.1f} s"))
    return rows


def parallel(ext: Path, root: Path, runs: int) -> tuple[float, float, bool]:
    serial_out, parallel_out = root / "out-serial", root / "out-j2"
    serial = clean_builds(ext, serial_out, runs, cold=False)
    both = clean_builds(ext, parallel_out, runs, "-j", "2", cold=False)
    same = html_files(serial_out) == html_files(parallel_out)
    return median(serial)[0], median(both)[0], same


def measure_size(root: Path, families: int, runs: int, args: argparse.Namespace) -> dict:
    data = generate.write_data(root / "data", families, args.benchmark_runs)
    ext, hand = generate.write_projects(root, data, families, args.benchmark_runs, REPO / "_ext")
    load, checks = time_data_layer(data)
    print(f"  {families:,} families: data layer {load:.2f} s CPU (consistency checks {checks:.2f} s)", flush=True)
    figures = {}
    for key, label, project, cold in (("hand", "hand-written list-table", hand, True),
                                      ("ext", "extension, cold (no catalog cache)", ext, True),
                                      ("warm", "extension, catalog cache warm", ext, False)):
        figures[key] = median(clean_builds(project, root / f"out-{key}", runs, cold=cold))
        wall, cpu, peak = figures[key]
        print(f"  {label}: {wall:.1f} s wall, {cpu:.1f} s CPU, {peak:.0f} MB", flush=True)
    return {"families": families, **figures, "load": load, "checks": checks}


def print_table(results: list[dict]) -> None:
    print("\nWall (CPU) seconds, median; ratio = ours / hand-written, on wall (CPU) time.\n\n"
          "| families | hand-written | ours, cold | ratio | ours, cache warm | ratio | peak RSS hand / cold / warm "
          "| data layer load, CPU (its consistency checks) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        (hw, hc, hm), (cw, cc, cm), (ww, wc, wm) = r["hand"], r["ext"], r["warm"]
        print(f"| {r['families']:,} | {hw:.1f} ({hc:.1f}) | {cw:.1f} ({cc:.1f}) | {cw / hw:.2f}x ({cc / hc:.2f}x) "
              f"| {ww:.1f} ({wc:.1f}) | {ww / hw:.2f}x ({wc / hc:.2f}x) | {hm:.0f} / {cm:.0f} / {wm:.0f} MB "
              f"| {r['load']:.2f} s ({r['checks']:.2f} s = {100 * r['checks'] / cc:.1f} % of the cold build's CPU) |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=None,
                        help="family counts, comma-separated (default 1000,5000,20000; --quick: 200,1000)")
    parser.add_argument("--runs", type=int, default=None, help="clean builds per figure, median (default 3)")
    parser.add_argument("--quick", action="store_true", help="1 run, smaller sizes")
    parser.add_argument("--benchmark-runs", type=int, default=10_000, help="inference runs in the data")
    parser.add_argument("--incremental-size", type=int, default=None,
                        help="families for the incremental and -j 2 figures (default: 5000, --quick: 1000)")
    parser.add_argument("--no-incremental", action="store_true", help="skip incremental and -j 2 figures")
    parser.add_argument("--keep", type=Path, default=None, help="work in this directory and keep it")
    args = parser.parse_args(argv)
    sizes = args.sizes or ([200, 1000] if args.quick else [1000, 5000, 20000])
    runs = args.runs or (1 if args.quick else 3)
    inc_size = args.incremental_size or (1000 if args.quick else 5000)
    base = args.keep or Path(tempfile.mkdtemp(prefix="neuron-bench-"))
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {runs} run(s) per figure, work dir {base}")
    try:
        results = []
        for size in sizes:
            results.append(measure_size(base / f"size-{size}", size, runs, args))
        print_table(results)
        if not args.no_incremental:
            root = base / f"inc-{inc_size}"
            generate.write_projects(root, generate.write_data(root / "data", inc_size, args.benchmark_runs),
                                    inc_size, args.benchmark_runs, REPO / "_ext")
            print(f"\nIncremental rebuilds at {inc_size:,} families (pages: index, matrix-dev-0, matrix-dev-1, "
                  "families, benchmarks, about)\n\n| change | pages re-read | pages written | time |\n|---|---|---|---|")
            for label, docs, written, note in incremental(root, root / "ext", root / "data"):
                print(f"| {label} | {docs} | {written} | {note} |", flush=True)
            serial_t, j2_t, same = parallel(root / "ext", root, runs)
            print(f"\nParallel at {inc_size:,} families (cache warm, wall): serial {serial_t:.1f} s, -j 2 {j2_t:.1f} s "
                  f"({j2_t / serial_t:.2f}x); HTML identical: {same}")
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
