"""Benchmark: every dealer table and the stand/hit/double/surrender EVs of all 55 two-card
hands against all 10 up cards, 8 decks S17, float and exact, each from a cold process.

    python benchmarks/unsplit.py [--decks 8]

Prints wall-clock seconds (import and compute separately) and the process's peak memory.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import subprocess
import sys
import time


def run(decks: int, exact: bool) -> dict:
    started = time.perf_counter()
    from bjcalc import Analysis, Rules
    from bjcalc.cards import RANK_NOTATION
    from bjcalc.engine.kernels import dealer_kernel_available

    imported = time.perf_counter()
    # stand/hit/double/surrender only: splits are timed by benchmarks/round.py
    rules = Rules(decks=decks, hit_soft_17=False, surrender="late", split_hands=1)
    analysis = Analysis(rules, exact=exact)
    for up in RANK_NOTATION:
        analysis.dealer(up)
        analysis.dealer(up, peeked=True)
    dealt = time.perf_counter()
    n = 0
    for up in RANK_NOTATION:
        for a, b in itertools.combinations_with_replacement(RANK_NOTATION, 2):
            analysis.hand(a + b, up)
            n += 1
    done = time.perf_counter()
    return {
        "mode": "exact" if exact else "float",
        "decks": decks,
        "hands": n,
        "import_s": round(imported - started, 3),
        "dealer_tables_s": round(dealt - imported, 3),
        "hand_evs_s": round(done - dealt, 3),
        "compute_s": round(done - imported, 3),
        "total_s": round(done - started, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "dealer_loop": "compiled" if dealer_kernel_available() else "numpy",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--child", choices=["float", "exact"])
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run(args.decks, args.child == "exact")))
        return
    print(f"{args.decks} decks S17 LS, no splitting: dealer tables and 550 hands' EVs, cold process per mode")
    for mode in ("float", "exact"):
        out = subprocess.run(
            [sys.executable, __file__, "--decks", str(args.decks), "--child", mode],
            check=True, capture_output=True, text=True,
        ).stdout
        r = json.loads(out)
        print(
            f"{r['mode']:>5}: compute {r['compute_s']:.3f} s (dealer tables {r['dealer_tables_s']:.3f} s, "
            f"{r['hands']} hand EVs {r['hand_evs_s']:.3f} s), import {r['import_s']:.3f} s, "
            f"total {r['total_s']:.3f} s, peak RSS {r['peak_rss_mb']} MB, dealer loop {r['dealer_loop']}"
        )


if __name__ == "__main__":
    main()
