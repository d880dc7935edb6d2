"""The single insurance index (``insure iff true count > w``, exact divisor) that gains the most,
over rounds dealt evenly at every depth from the top of the shoe to a penetration (default 75 %:
down to 13 N cards left), each depth's running counts weighted by their exact probabilities, with
the dealer's ace (and ``--hand``) on the table (``bjcalc.best_insurance_index``), beside Wong's
Hi-Lo figure. docs/countshoe.md, "The Wong comparison", quotes its output.

    python docs/scripts/wong_insurance.py 1,2,3,4,5,6,7,8 [--penetration 3/4] [--hand T,9] [--count hi-lo]
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction

from bjcalc import best_insurance_index, parse_cards
from bjcalc.counting.systems import SYSTEMS

WONG = {1: "1.4", 2: "2.4", 3: "2.7", 4: "2.9", 5: "3.0", 6: "3.0", 7: "3.1", 8: "3.1", 9: "3.1", 10: "3.1"}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("decks", help="comma-separated numbers of decks")
    parser.add_argument("--penetration", default="3/4")
    parser.add_argument("--hand", default="")
    parser.add_argument("--count", default="hi-lo")
    args = parser.parse_args()
    tags = SYSTEMS[args.count]
    for decks in map(int, args.decks.split(",")):
        top = 52 * decks - 1 - (len(parse_cards(args.hand)) if args.hand else 0)
        depths = range(top, math.ceil(52 * decks * (1 - Fraction(args.penetration))) - 1, -1)
        best = best_insurance_index((4 * decks,) * 9 + (16 * decks,), tags, args.hand, depths)
        low = "-inf" if best.low is None else f"{float(best.low):.4f}"
        high = "inf" if best.high is None else f"{float(best.high):.4f}"
        wong = Fraction(WONG[decks])
        lost = (best.best_gain - best.gain(wong)) / best.best_gain if best.best_gain else Fraction(0)
        print(f"{decks} decks: best w in [{low}, {high}); gain per round dealt with an ace up "
              f"{float(best.best_gain):.4e}; at Wong's {wong}: {float(best.gain(wong)):.4e} "
              f"({float(lost) * 100:.3f} % less)", flush=True)


if __name__ == "__main__":
    main()
