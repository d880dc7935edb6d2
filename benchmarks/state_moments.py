"""What ``--moments state`` adds to a truecount state's task: one state's time with the EVs
alone and with the EVs and the state's E[X^2] (``state_task`` with ``moments="indices"``), and
the process's peak memory, at 1 deck (50 %) and 6 decks (75 %), Hi-Lo, late surrender.

A counter's shoe's split moments are summed by class totals (bjcalc/engine/classsums.py): the
first state of a process works those sums out (reported apart, the one-off), every later one
only weighs them. Two states are timed again without them (each multiset with its own dealer
pass, as before) for the cut. Each deck count runs in its own process, so that each peak is
its own (taken before the states without the class sums).

    python benchmarks/state_moments.py [--states 12] [--workers-threads 2]

Tests never assert these times; run it on an idle machine (``uptime`` says how idle).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from fractions import Fraction


def one(decks: int, states: int) -> dict:
    from bjcalc import Analysis, Rules
    from bjcalc.counting.indices import Convention, default_plays
    from bjcalc.counting.states import state_task
    from bjcalc.counting.systems import CountSystem
    from bjcalc.engine import classsums, moments

    rules = Rules(decks=decks, surrender="late")
    tags = tuple(Fraction(t) for t in CountSystem.named("hilo").tags)
    chart = Analysis(rules).chart()
    plays = tuple((p, p.published) for p in default_plays(rules) if p.published is not None)
    cards = sum(rules.shoe_counts)
    seen = cards // 4  # a quarter of the shoe dealt
    counts = [Fraction(c) for c in range(-(states // 2), states - states // 2)]

    def task(rc: Fraction, moments: str | None) -> float:
        start = time.perf_counter()
        state_task(rules, tags, seen, rc, Fraction(0), chart, plays, 3, Convention(), moments, False)
        return time.perf_counter() - start

    task(Fraction(states), None)  # the process's first analysis: imports, dealer graphs
    first = task(Fraction(states), "indices")  # the class sums, worked out
    ev = [task(rc, None) for rc in counts]
    both = [task(rc, "indices") for rc in counts]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    # the same states' moments without the kept class sums: each multiset with its dealer pass,
    # as every state took them before (the engine still does, where a dealer could run out)
    by_class = moments._SplitSquare._class_dots
    moments._SplitSquare._class_dots = lambda self, forms, named: None  # type: ignore[method-assign]
    try:
        alone = [task(rc, "indices") for rc in counts[:2]]
    finally:
        moments._SplitSquare._class_dots = by_class  # type: ignore[method-assign]
    return {"decks": decks, "seen": seen, "states": len(counts), "first": first, "ev": sum(ev) / len(ev),
            "both": sum(both) / len(both), "alone": sum(alone) / len(alone), "ev_alone": sum(ev[:2]) / 2,
            "kept_mb": classsums.kept_bytes() / 2**20, "peak_mb": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=12, help="running counts timed at one depth")
    parser.add_argument("--decks", type=int, default=None, help=argparse.SUPPRESS)  # one deck count, here
    args = parser.parse_args()
    if args.decks is not None:
        print(json.dumps(one(args.decks, args.states)))
        return
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    for decks in (1, 6):
        done = subprocess.run([sys.executable, __file__, "--decks", str(decks), "--states", str(args.states)],
                              capture_output=True, text=True, check=True)
        r = json.loads(done.stdout.splitlines()[-1])
        extra = r["both"] - r["ev"]
        before = r["alone"] - r["ev_alone"]
        print(f"{r['decks']} deck(s), {r['seen']} cards seen, {r['states']} running counts: "
              f"EV alone {r['ev'] * 1000:.0f} ms a state, EV + moments {r['both'] * 1000:.0f} ms "
              f"(+{extra * 1000:.0f} ms, +{100 * extra / r['ev']:.0f} %); the process's first state with moments "
              f"{r['first']:.1f} s (the class sums: {r['kept_mb']:.0f} MB kept); peak memory {r['peak_mb']:.0f} MB")
        print(f"  without the class sums (two states): +{before * 1000:.0f} ms a state for the moments "
              f"({before / max(extra, 1e-9):.0f} times as much)")


if __name__ == "__main__":
    main()
