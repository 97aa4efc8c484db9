"""What the drift engine costs a build at scale: making it, its indexes on first use, one check.

Usage (see bench/README.md)::

    make bench-drift                                   # 1,000 and 5,000 families, median of 5
    make bench-drift BENCH_ARGS="--sizes 20000 --runs 3"

For each size, generate the benchmark's synthetic data set (:mod:`generate`), load it as a build
does, then, on a fresh engine each run: make the engine (what a build pays before reading any page),
make the figure index (what the first figure found in prose pays) and the names of families,
devices and frameworks (what the first fit/support claim pays), and check one passage holding a
figure and claims. CPU time of this process (steadier than wall time on a shared machine) and wall
time, median of ``--runs``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "_ext")]

import generate  # noqa: E402 - found through sys.path, set above
from neuron_docs.data.catalog import Catalog  # noqa: E402
from neuron_docs.data.dataset import load_dataset  # noqa: E402
from neuron_docs.data.figures.values import Values  # noqa: E402
from neuron_docs.drift.engine import DriftEngine  # noqa: E402

PASSAGE = ("Family 2 is a good fit on dev-0 and supported by fw-0. On inst-0, m-1 has a p90 latency of "
           "12.5 ms, 30% less than m-2.")
STEPS = ("engine made", "figure index", "names", "one check")


def _timed(step: Callable[[], object]) -> tuple[float, float]:
    """(CPU, wall) seconds of ``step()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    step()
    return time.process_time() - cpu, time.perf_counter() - wall


def _one_engine(catalog: Catalog, values: Values) -> list[tuple[float, float]]:
    """(CPU, wall) seconds of each step of :data:`STEPS` on a fresh engine."""
    made: list[DriftEngine] = []
    out = [_timed(lambda: made.append(DriftEngine(catalog, values)))]
    engine = made[0]
    out.append(_timed(lambda: engine.figures))
    out.append(_timed(lambda: (engine.claims.families, engine.claims.devices, engine.claims.frameworks)))
    out.append(_timed(lambda: engine.check(PASSAGE, "Results")))
    return out


def measure(data: Path, runs: int) -> dict[str, tuple[float, float]]:
    """Median (CPU, wall) seconds of each step, on a fresh engine each run."""
    dataset = load_dataset(data)
    samples: dict[str, list[tuple[float, float]]] = {step: [] for step in STEPS}
    for _ in range(runs):
        for step, seconds in zip(STEPS, _one_engine(dataset.catalog, dataset.values), strict=True):
            samples[step].append(seconds)
    return {step: (statistics.median(c for c, _ in s), statistics.median(w for _, w in s))
            for step, s in samples.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[1000, 5000])
    parser.add_argument("--runs", type=int, default=5, help="fresh engines per size, median")
    parser.add_argument("--benchmark-runs", type=int, default=10_000, help="inference runs in the data")
    args = parser.parse_args(argv)
    print(f"CPU (wall) seconds, median of {args.runs}; {args.benchmark_runs:,} inference runs\n")
    print(f"| families | {' | '.join(STEPS)} |\n|---:|{'---:|' * len(STEPS)}")
    with tempfile.TemporaryDirectory(prefix="neuron-bench-drift-") as work:
        for size in args.sizes:
            data = generate.write_data(Path(work) / f"size-{size}", size, args.benchmark_runs)
            figures = measure(data, args.runs)
            cells = " | ".join(f"{cpu:.3f} ({wall:.3f})" for cpu, wall in figures.values())
            print(f"| {size:,} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
