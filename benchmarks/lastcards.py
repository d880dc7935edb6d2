"""Shoes dealt to their last cards (issue 42): the runs the issue names, whole process, wall
time and peak memory (the process or its largest worker), each printed with the line that says
how likely a round is to run out.

    python benchmarks/lastcards.py [--only truecount-1-0.75 ...]

Uses benchmarks/commands.py's measurement. Tests never assert these times; run it on an idle
machine. ``--store none``: every state is computed, none read from an earlier run.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from commands import run_with_output  # noqa: E402

RUNS: list[tuple[str, list[str]]] = [
    ("truecount-1-0.75", ["truecount", "--decks", "1", "--store", "none"]),
    ("truecount-1-0.85", ["truecount", "--decks", "1", "--penetration", "0.85", "--store", "none"]),
    ("truecount-2-0.85", ["truecount", "--decks", "2", "--penetration", "0.85", "--store", "none"]),
    ("index-1-0.8", ["index", "--decks", "1", "--penetration", "0.8", "--store", "none"]),
    ("hand-count-2-4left", ["hand", "5,6", "--up", "A", "--decks", "2", "--count", "ko", "--running-count", "8",
                            "--cards-seen", "100"]),
    ("edge-1-deck-10-left", ["edge", "--decks", "1", "--removed", "T,T,T,T,T,T,T,T,T,T,T,T,T,T,T,T,9,9,9,9,8,8,8,8,"
                             "7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=None, help="Only these rows (by name).")
    options = parser.parse_args()
    for name, args in RUNS:
        if options.only and name not in options.only:
            continue
        wall, peak, said = run_with_output(args)
        lines = [line for line in said.splitlines() if "runs out" in line or "run out" in line][:2]
        print(f"{name:22} {wall:8.1f} s {peak:8.0f} MB   bjcalc {' '.join(args)}")
        for line in lines:
            print(f"{'':24}{line[:160]}")


if __name__ == "__main__":
    main()
