"""Benchmark: the player's side of an 8-deck round (S17, DAS, resplit to 4, late surrender, split
hands CDZ-: the round EV, which takes every two-card hand's CD EVs), float mode, with the compiled
player loop and with the numpy one (``BJCALC_NUMPY_PLAYER=1``), each in a fresh process.

    python benchmarks/player.py [--decks 8] [--shoes 5] [--repeat 3]

For each loop it prints the first round in the process (graphs built, import excluded), the
median of further rounds on depleted shoes in the same process (the cost of one more shoe, with
the main thread's CPU time beside it: the dealer's pass runs on other threads), and the
process's peak memory. With ``--repeat`` the whole child runs several times and the fastest
run of each figure is kept: the machine's load varies.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time


def depleted(full: tuple[int, ...], i: int) -> tuple[int, ...]:
    """The ``i``-th depleted shoe: a few cards of several ranks dealt out (a fixed recipe)."""
    out = list(full)
    for step in range(8):
        rank = (3 * i + 7 * step) % 10
        out[rank] -= 1 + (i + step) % 3
    return tuple(out)


def run(decks: int, shoes: int) -> dict:
    from bjcalc import Analysis, Rules
    from bjcalc.engine.kernels import dealer_kernel_available as dealer_kernel
    from bjcalc.engine.kernels import player_kernel_available as player_kernel

    rules = dict(surrender="late", split_hands=4, double_after_split=True)
    full = Rules(decks=decks, **rules)
    started = time.perf_counter()
    first_ev = Analysis(full).round().ev
    first = time.perf_counter() - started
    walls, cpus, evs = [], [], []
    for i in range(shoes):
        game = Rules(shoe=depleted(full.shoe_counts, i), **rules)
        wall, cpu = time.perf_counter(), time.thread_time()
        evs.append(Analysis(game).round().ev)
        cpus.append(time.thread_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return {
        "first_s": first,
        "another_s": statistics.median(walls),
        "another_cpu_s": statistics.median(cpus),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "evs": [first_ev, *evs],
        "player_loop": "compiled" if player_kernel() else "numpy",
        "dealer_loop": "compiled" if dealer_kernel() else "numpy",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--shoes", type=int, default=5, help="depleted shoes after the first")
    parser.add_argument("--repeat", type=int, default=3, help="child runs per loop (best kept)")
    parser.add_argument("--child", action="store_true")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run(args.decks, args.shoes)))
        return
    print(f"{args.decks} decks S17 DAS RS4 LS, split hands CDZ-, float: round EV (every two-card hand's CD EVs)")
    results = {}
    for numpy in (False, True):
        env = dict(os.environ, BJCALC_NUMPY_PLAYER="1" if numpy else "0")
        runs = [
            json.loads(subprocess.run(
                [sys.executable, __file__, "--child", "--decks", str(args.decks), "--shoes", str(args.shoes)],
                check=True, capture_output=True, text=True, env=env,
            ).stdout)
            for _ in range(args.repeat)
        ]
        r = {key: min(run[key] for run in runs) for key in ("first_s", "another_s", "another_cpu_s", "peak_rss_mb")}
        r.update({key: runs[0][key] for key in ("evs", "player_loop", "dealer_loop")})
        results[numpy] = r
        print(
            f"player loop {r['player_loop']:>8}: first round {r['first_s']:.3f} s, another shoe "
            f"{r['another_s']:.3f} s (main thread CPU {r['another_cpu_s']:.3f} s), "
            f"peak RSS {r['peak_rss_mb']:.0f} MB (dealer loop {r['dealer_loop']})",
            flush=True,
        )
    gap = max(abs(a - b) for a, b in zip(results[False]["evs"], results[True]["evs"]))
    print(f"largest difference between the two loops' round EVs: {gap:.1e}")


if __name__ == "__main__":
    main()
