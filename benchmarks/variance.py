"""The variance's and the report's figures of issue 22: whole processes, wall time, CPU time
(user + system, all threads) and peak memory (resident set).

- ``edge --decks 8`` (the round without its spread, for the ratio);
- ``edge --decks 8 --sd`` (the round and its exact standard deviation, resplits included);
- ``report`` (the default game), float;
- ``report --exact``.

    python benchmarks/variance.py [--runs 3] [--no-exact]

Each figure is the median of ``--runs`` processes. On a shared machine wall time follows the
load; CPU time moves less. Tests never assert these times; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import time

JOBS = {
    "edge 8D": ["edge", "--decks", "8"],
    "edge 8D --sd": ["edge", "--decks", "8", "--sd"],
    "report": ["report"],
    "report --exact": ["report", "--exact"],
}


def run(args: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of one ``bjcalc`` process."""
    started = time.perf_counter()
    # one child between: RUSAGE_CHILDREN's peak is the largest child's so far, so each run gets its own
    code = f"import sys; sys.argv = ['bjcalc'] + {args!r}; from bjcalc.cli import main; main()"
    script = ("import resource, subprocess, sys, json\n"
              f"p = subprocess.run([sys.executable, '-c', {code!r}], stdout=subprocess.DEVNULL, "
              "stderr=subprocess.DEVNULL)\n"
              "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
              "print(json.dumps([p.returncode, u.ru_utime + u.ru_stime, u.ru_maxrss / 1024]))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    status, cpu, peak = json.loads(out.stdout)
    if status != 0:
        raise SystemExit(f"bjcalc {' '.join(args)} failed")
    return wall, cpu, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-exact", action="store_true")
    options = parser.parse_args()
    compileall.compile_dir(os.path.join(os.path.dirname(__file__), "..", "bjcalc"), quiet=1)
    print(f"{'job':<16} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}")
    for name, args in JOBS.items():
        if options.no_exact and "--exact" in args:
            continue
        runs = [run(args) for _ in range(options.runs)]
        wall, cpu, peak = (statistics.median(r[i] for r in runs) for i in range(3))
        print(f"{name:<16} {wall:8.2f} {cpu:8.2f} {peak:8.0f}", flush=True)
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
