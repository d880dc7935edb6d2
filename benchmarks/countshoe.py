"""Speed of the counter's shoe (issue 20; README figures come from it).

- **one shoe**: in a warm process, one more analysis (round EV and every two-card hand's CD EVs
  against every up card) of a composition shoe (a depleted shoe, as benchmarks/speed.py "warm")
  and of a counter's shoe (Hi-Lo, half the shoe seen, running counts -4..+4), medians; and the
  ratio. Float.
- **index**: ``bjcalc index`` (the Illustrious 18, the Fab 4 and insurance at half the shoe) as a
  whole process, wall time and peak memory, with both cores.

    python benchmarks/countshoe.py [--decks 1 2 6 8] [--runs 3]

Tests never assert these times; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

_ONE = """
import itertools, json, random, resource, statistics, time
from bjcalc import Analysis, CountShoe, Rules
options = dict(surrender="late", split_hands=4, double_after_split=True)
full = [4 * {decks}] * 9 + [16 * {decks}]
rules = Rules(shoe=full, **options)
Analysis(rules).round()

def everything(analysis):
    analysis.round()
    for up in "A23456789T":
        for a, b in itertools.combinations_with_replacement("A23456789T", 2):
            analysis.hand(a + b, up)

composition, counted = [], []
rng = random.Random(1)
for rc in range(-4, 5):
    shoe = list(full)
    for _ in range(rng.randint(1, 6)):
        rank = rng.randrange(10)
        shoe[rank] -= shoe[rank] > 3
    started = time.perf_counter()
    everything(Analysis(Rules(shoe=shoe, **options)))
    composition.append(time.perf_counter() - started)
    started = time.perf_counter()
    counter = CountShoe.named("hi-lo", shoe=tuple(full), seen=sum(full) // 2, running_count=rc)
    everything(Analysis(rules, shoe=counter))
    counted.append(time.perf_counter() - started)
print(json.dumps({{"composition": statistics.median(composition), "counter": statistics.median(counted),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""

_CLI = """
import resource, sys, time
started = time.perf_counter()
from bjcalc.cli import main
sys.argv = ["bjcalc"] + {args!r}
try:
    main()
except SystemExit:
    pass
sys.stderr.write("BENCH %.4f %.1f\\n" % (time.perf_counter() - started,
                 max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                     resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2, 6, 8])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    print("decks | composition shoe (s) | counter's shoe (s) | ratio | index I18+Fab4+ins (s, wall) | peak MB")
    for decks in args.decks:
        one = json.loads(subprocess.run([sys.executable, "-c", _ONE.format(decks=decks)], capture_output=True,
                                        text=True, check=True).stdout)
        walls, peak = [], 0.0
        for _ in range(args.runs):
            command = ["index", "--decks", str(decks), "--surrender", "late"]
            started = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", _CLI.format(args=command)], capture_output=True, text=True,
                                 check=True)
            walls.append(time.perf_counter() - started)
            line = next(x for x in out.stderr.splitlines() if x.startswith("BENCH"))
            peak = max(peak, float(line.split()[2]), one["rss"])
        print(f"{decks} | {one['composition']:.3f} | {one['counter']:.3f} | {one['counter'] / one['composition']:.2f} "
              f"| {statistics.median(walls):.1f} | {peak:.0f}")


if __name__ == "__main__":
    main()
