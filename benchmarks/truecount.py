"""Speed of ``bjcalc truecount`` (issue 21; the README's figures come from it).

Runs the command as a whole process on a fresh store and reports: wall time, peak memory of
the main process and of a worker, the number of analyses (tasks), the compute time per task
(as measured where each ran, from the store), the scheduling overhead (workers x wall minus the
tasks' compute, per task), and what a cluster of 10 and 100 two-core machines would take:
``compute / cores + tasks x overhead / cores + the serial part`` (the chart, the placement,
the index numbers and the second moments, which run before the tasks).

    python benchmarks/truecount.py [--decks 6] [--penetration 0.75] [--workers 2] [--extra ARGS]

Tests never assert these times; run it on an idle machine.
"""

from __future__ import annotations

import argparse
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
    parser.add_argument("--spread", default="<=0:1,1:2,2:4,3:8,>=4:12")
    parser.add_argument("--extra", default="", help="more options for bjcalc truecount, quoted")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = os.path.join(folder, "bench.sqlite")
        command = [sys.executable, "-c", "from bjcalc.cli import main; main()", "truecount", "--decks", args.decks,
                   "--surrender", "late", "--penetration", args.penetration, "--spread", args.spread,
                   "--workers", str(args.workers), "--store", store, "--bankroll", "1000", *args.extra.split()]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if done.returncode:
            sys.exit(done.stderr)
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        with sqlite3.connect(store) as db:
            rows = db.execute("SELECT job, seconds FROM results").fetchall()
    by_job: dict[str, list[float]] = {}
    for job, seconds in rows:
        by_job.setdefault(job, []).append(seconds)
    tasks = max(by_job.values(), key=len)
    serial = sum(s for job, s in rows if len(by_job[job]) == 1)  # the indices' and the moments' tasks
    compute = sum(tasks)
    overhead = max(0.0, (args.workers * (wall - serial) - compute) / len(tasks))
    print(done.stdout.splitlines()[-1])
    print(f"decks {args.decks}, penetration {args.penetration}, {args.workers} workers")
    print(f"wall {wall:.1f} s; peak memory (largest process) {children:.0f} MB")
    print(f"tasks {len(tasks)}; per task median {statistics.median(tasks):.3f} s, mean {compute / len(tasks):.3f} s; "
          f"serial part {serial:.1f} s (+ the chart and the placement)")
    print(f"scheduling and start-up overhead per task {overhead * 1000:.1f} ms")
    for machines in (10, 100):
        cores = 2 * machines
        print(f"{machines} machines ({cores} cores): about {serial + (compute + overhead * len(tasks)) / cores:.0f} s")


if __name__ == "__main__":
    main()
