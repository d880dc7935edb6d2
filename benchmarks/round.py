"""Benchmark: S17, DAS, resplit to 4, late surrender, split hands CDZ-: every two-card hand's EVs
for every action including split (55 hands x 10 up cards), the round EV (CD) and the
basic-strategy chart with its exact EV, from a cold process, float and exact.

    python benchmarks/round.py [--decks 1 2 6 8] [--modes float exact]

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
    rules = Rules(decks=decks, surrender="late", split_hands=4, double_after_split=True)
    analysis = Analysis(rules, exact=exact)
    analysis.engine.prepare_all()
    for up in RANK_NOTATION:
        for a, b in itertools.combinations_with_replacement(RANK_NOTATION, 2):
            analysis.hand(a + b, up)
    hands = time.perf_counter()
    cd = analysis.round()
    rounded = time.perf_counter()
    floats = analysis if not exact else Analysis(rules)
    chart = floats.chart()
    basic = analysis.evaluate(chart).round
    done = time.perf_counter()
    return {
        "mode": "exact" if exact else "float",
        "decks": decks,
        "import_s": round(imported - started, 2),
        "hand_evs_s": round(hands - imported, 2),
        "round_ev_s": round(rounded - hands, 2),
        "chart_s": round(done - rounded, 2),
        "compute_s": round(done - imported, 2),
        "total_s": round(done - started, 2),
        "house_edge_cd": f"{100 * float(cd.house_edge):.6f} %",
        "house_edge_basic": f"{100 * float(basic.house_edge):.6f} %",
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "dealer_loop": "compiled" if dealer_kernel_available() else "numpy",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2, 6, 8])
    parser.add_argument("--modes", nargs="+", default=["float", "exact"], choices=["float", "exact"])
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run(int(args.child[0]), args.child[1] == "exact")))
        return
    print("S17 DAS RS4 LS, split hands CDZ-; hands + round EV + chart, cold process each")
    for mode in args.modes:
        for decks in args.decks:
            out = subprocess.run([sys.executable, __file__, "--child", str(decks), mode],
                                 check=True, capture_output=True, text=True).stdout
            r = json.loads(out)
            print(
                f"{r['mode']:>5} {r['decks']} deck(s): total {r['total_s']:.2f} s (import {r['import_s']:.2f}, "
                f"hands {r['hand_evs_s']:.2f}, round {r['round_ev_s']:.2f}, chart {r['chart_s']:.2f}); "
                f"peak RSS {r['peak_rss_mb']} MB, dealer loop {r['dealer_loop']}; "
                f"house edge CD {r['house_edge_cd']}, basic {r['house_edge_basic']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
