"""The single Hi-Lo insurance index (``insure iff true count > w``, exact divisor) that gains the
most, over rounds dealt evenly at every depth from the top of the shoe to a penetration (default
75 %: down to 13 N cards left), each depth's running counts weighted by their exact
probabilities, with the dealer's ace (and ``--hand``) on the table. docs/countshoe.md, "The Wong
comparison", quotes its output.

    python docs/scripts/wong_insurance.py 1,2,3,4,5,6,7,8 [--penetration 3/4] [--hand T,9] [--count hi-lo]
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction

from bjcalc import insurance_table, parse_cards, running_count_distribution
from bjcalc.counting import SYSTEMS

WONG = {1: "1.4", 2: "2.4", 3: "2.7", 4: "2.9", 5: "3.0", 6: "3.0", 7: "3.1", 8: "3.1", 9: "3.1", 10: "3.1"}


def best_index(decks: int, tags: tuple[Fraction, ...], hand: str, penetration: Fraction
               ) -> tuple[Fraction, Fraction, Fraction, dict[Fraction, Fraction], int]:
    """(low, high, gain, gain above each true count, depths): every ``w`` in [low, high) is best."""
    shoe = (4 * decks,) * 9 + (16 * decks,)
    table = tuple(parse_cards(hand)) if hand else ()
    pool = list(shoe)
    for card in (*table, parse_cards("A")[0]):
        pool[card.index] -= 1
    on_table = sum(tags[c.index] for c in table) + tags[0]
    depths = list(range(sum(pool), math.ceil(52 * decks * (1 - penetration)) - 1, -1))
    rows = insurance_table(shoe, tags, table, depths).rows
    gain_at: dict[Fraction, Fraction] = {}  # true count -> probability-weighted insurance EV
    for row in rows:
        seen = sum(pool) - row.cards_left
        for rc, p in running_count_distribution(tuple(pool), tags, seen, on_table).items():
            tc = rc * 52 / row.cards_left
            gain_at[tc] = gain_at.get(tc, Fraction(0)) + p * row.evs[rc]
    counts = sorted(gain_at)
    best, running, at = Fraction(0), Fraction(0), len(counts)
    for i in range(len(counts) - 1, -1, -1):
        running += gain_at[counts[i]]
        if running > best:
            best, at = running, i
    low = counts[at - 1] if at else Fraction(-10**9)
    return low, counts[at], best, gain_at, len(depths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", help="comma-separated numbers of decks")
    parser.add_argument("--penetration", default="3/4")
    parser.add_argument("--hand", default="")
    parser.add_argument("--count", default="hi-lo")
    args = parser.parse_args()
    tags = SYSTEMS[args.count]
    for decks in map(int, args.decks.split(",")):
        low, high, gain, gain_at, depths = best_index(decks, tags, args.hand, Fraction(args.penetration))
        wong = Fraction(WONG[decks])
        at_wong = sum((g for tc, g in gain_at.items() if tc > wong), Fraction(0))
        print(f"{decks} decks: best w in [{float(low):.4f}, {float(high):.4f}); gain per round dealt with an ace up "
              f"{float(gain) / depths:.4e}; at Wong's {wong}: {float(at_wong) / depths:.4e} "
              f"({float((gain - at_wong) / gain) * 100:.3f} % less)", flush=True)


if __name__ == "__main__":
    main()
