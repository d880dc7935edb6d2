"""Speed of ``bjcalc simulate`` (issue 44; the README's figures come from it).

Deals 6-deck Hi-Lo (the us-shoe game: S17 DAS LS, 75 % penetration, one seat), a 1-12 spread with the published
indices and insurance, on local worker processes and on a local two-worker Dask cluster
(``dask.distributed.LocalCluster``), each run a whole ``bjcalc simulate`` process, and prints for
each: rounds dealt, wall time, rounds a second, the CPU per round (the blocks' thread CPU time,
which a busy machine does not stretch) and a worker's wall per round, and the peak memory of
the largest process.

    python benchmarks/simulate.py [--rounds 1e8,1e9] [--workers 2] [--no-dask] [--save DIR]

Tests never assert these times; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

GAME = ["--game", "us-shoe", "--penetration", "0.75",  # 6 decks S17 DAS LS, split to 4, no card limit
        "--spread", "<=0:1,1:2,2:4,3:6,4:8,5:10,>=6:12", "--indices", "published", "--store", "none",
        "--format", "json"]


def run(rounds: int, extra: list[str]) -> dict:
    command = [sys.executable, "-c", "from bjcalc.cli import main; main()", "simulate", *GAME,
               "--rounds", str(rounds), *extra]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(done.stderr)
    out = json.loads(done.stdout)
    out["bench_wall"] = wall
    return out


def report(label: str, out: dict, peak_mb: float) -> None:
    dealt, run = out["rounds"], out["run"]
    win = out["win"]
    print(f"{label}: {dealt:,} rounds in {out['bench_wall']:.1f} s wall ({run['wall']:.1f} s dealing), "
          f"{dealt / out['bench_wall'] / 1e6:.1f} M rounds/s; {1e9 * out['cpu_seconds'] / dealt:.0f} ns of CPU a round "
          f"({1e9 * run['compute'] / dealt:.0f} ns of a worker's wall; {run['workers']} workers, {run['where']}); "
          f"peak memory (largest process) {peak_mb:.0f} MB")
    print(f"    win/100 {win['win_per_100']['value']:+.4f} +- {win['win_per_100']['se']:.4f}, "
          f"SD {win['sd_per_round']['value']:.4f} +- {win['sd_per_round']['se']:.4f}, "
          f"SCORE {win['score']['value']:.2f} +- {win['score']['se']:.2f}, "
          f"rounds per shoe {out['rounds_per_shoe']['value']:.4f} +- {out['rounds_per_shoe']['se']:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="1e8,1e9", help="comma-separated round counts")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--save", default=None, metavar="DIR", help="also keep each run's JSON document there")
    args = parser.parse_args()
    sizes = [int(float(r)) for r in args.rounds.split(",")]
    print(f"bjcalc simulate, 6 decks Hi-Lo S17 DAS LS 75 %, spread 1-12, published indices; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    for rounds in sizes:
        out = run(rounds, ["--workers", str(args.workers)])
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # so far: the largest yet
        report(f"local, {args.workers} workers", out, peak)
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            with open(os.path.join(args.save, f"simulate-{rounds:.0e}.json"), "w") as file:
                json.dump(out, file, indent=1)
    if args.no_dask:
        return
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        for rounds in sizes:
            out = run(rounds, ["--scheduler", cluster.scheduler_address])
            report("dask LocalCluster, 2 workers x 1 thread", out,
                   resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
    print("(peak memory: the largest process run so far, Dask's workers once they are gone)")


if __name__ == "__main__":
    main()
