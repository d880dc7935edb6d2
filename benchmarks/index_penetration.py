"""Speed of ``bjcalc index --penetration`` (issue 20, item 2: the indices averaged over the shoe).

Runs the command as a whole process on a fresh store, Hi-Lo, the Illustrious 18, the Fab 4 and
insurance, S17 DAS late surrender, and reports: wall time, peak memory of the largest process,
the number of analyses (one per (depth, running count) where a round starts), the compute time
per task (as measured where each ran, from the store), the scheduling and start-up overhead
(workers x wall minus the tasks' compute, per task), and what a cluster of 10 and 100
two-core machines would take (``compute / cores + tasks x overhead / cores``); then a second run
on the same store, which computes nothing (the resumed run's wall time).

    python benchmarks/index_penetration.py [--decks 6] [--penetration 0.75] [--workers 2] [--extra ARGS]

Tests never assert these times; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="6")
    parser.add_argument("--penetration", default="0.75")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--extra", default="", help="more options for bjcalc index, quoted (e.g. --placement spaced)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = os.path.join(folder, "bench.sqlite")
        command = [sys.executable, "-c", "from bjcalc.cli import main; main()", "index", "--decks", args.decks,
                   "--s17", "--das", "--surrender", "late", "--count", "hi-lo", "--penetration", args.penetration,
                   "--workers", str(args.workers), "--store", store, "--format", "json", *args.extra.split()]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if done.returncode:
            sys.exit(done.stderr)
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        start = time.perf_counter()
        again = subprocess.run(command, capture_output=True, text=True)
        resumed = time.perf_counter() - start
        with sqlite3.connect(store) as db:
            tasks = [s for (s,) in db.execute("SELECT seconds FROM results")]
    out = json.loads(done.stdout)
    second = json.loads(again.stdout)
    compute = sum(tasks)
    overhead = max(0.0, (args.workers * wall - compute) / len(tasks))
    print(f"decks {args.decks}, penetration {args.penetration}, {args.workers} workers, placement {out['placement']}: "
          f"{len(out['round_starts'])} depths, {out['states']} states, left out {out['left_out']:.2g}")
    print(f"wall {wall:.1f} s; peak memory (largest process) {children:.0f} MB")
    print(f"tasks {len(tasks)}; per task median {statistics.median(tasks):.3f} s, mean {compute / len(tasks):.3f} s")
    print(f"scheduling and start-up overhead per task {overhead * 1000:.1f} ms (the chart and the placement included)")
    for machines in (10, 100):
        cores = 2 * machines
        print(f"{machines} machines ({cores} cores): about {(compute + overhead * len(tasks)) / cores:.0f} s")
    print(f"second run on the same store: {second['run']['computed']} computed, {second['run']['stored']} stored, "
          f"wall {resumed:.1f} s")
    for row in out["plays"] + [out["insurance"]]:
        crossing = "-" if row["crossing"] is None else f"{row['crossing']:+.2f}"
        print(f"  {row['play'] if row is not out['insurance'] else 'insurance':18} index {row['index']}  "
              f"crossing {crossing}  list {row['published']}  gain/100 {row['gain_per_100']:.4f}  "
              f"monotone {row['monotone']}")


if __name__ == "__main__":
    main()
