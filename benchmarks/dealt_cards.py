"""The cost of ``--placement dealt``: a round's cards as dealt (bjcalc.counting.dealtcards), worked
out once per run, for one seat playing the chart.

Prints, per shoe: the wall and CPU time, the peak memory of the process, the share of rounds left
out (split multisets dealt with a chance below ``dealtcards.NEGLIGIBLE``) and the mean cards a
round, beside the full shoe's drawn with replacement (the default chain's).

    python benchmarks/dealt_cards.py [--decks 1,6] [--split-hands 4]

Measured 2026-12-07 on the 2-core machine, idle: 1 deck (Hi-Lo's classes with the aces apart,
split to 4) 52 s, 465 MB, 6.7e-6 of the rounds left out, 5.4387 cards a round against 5.4765
drawn with replacement; 6 decks (the same classes) 124 s, 776 MB, 2.1e-5 left out, 5.4668 against
5.4736. Tests never assert these times.
"""

from __future__ import annotations

import argparse
import resource
import time

from bjcalc import Analysis, Rules
from bjcalc.counting import dealtcards
from bjcalc.counting.roundcards import round_cards

HI_LO_ACES_APART = (3, 0, 0, 0, 0, 0, 1, 1, 1, 2)  # the chain's classes at one and two decks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="1,6")
    parser.add_argument("--split-hands", type=int, default=4)
    args = parser.parse_args()
    for decks in (int(d) for d in args.decks.split(",")):
        rules = Rules(decks=decks, split_hands=args.split_hands)
        chart = Analysis(rules).chart()
        wall, cpu = time.perf_counter(), time.process_time()
        dealt = dealtcards.dealt_round_cards(rules, chart, 1, HI_LO_ACES_APART)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        whole = sum(dealt.values())
        mean = sum(sum(c) * q for c, q in dealt.items()) / whole
        replaced = sum(sum(c) * q for c, q in round_cards(rules, chart, 1).items())
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{decks} deck(s), split to {args.split_hands}: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB "
              f"(the process so far); left out {1 - whole:.2g} of the rounds; {mean:.4f} cards a round as dealt, "
              f"{replaced:.4f} drawn with replacement")


if __name__ == "__main__":
    main()
