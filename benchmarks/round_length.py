"""How many cards a shoe's first round uses: the placement's figure against a simulation.

``truecount``'s chain placement (docs/truecount.md, "Where rounds start") takes the cards a round
uses from :func:`bjcalc.counting.roundcards.round_cards`, which draws them with replacement from
the full shoe. The first round of a freshly shuffled shoe is dealt without replacement; its
mean length is measured here by the independent shoe simulator (tests/oracles/shoesim.py,
written from the rules alone), with its standard error, beside the placement's figure.

    python benchmarks/round_length.py [--decks 1] [--rounds 300000] [--seed 5]

Measured 2026-12-07 (S17 DAS, late surrender, split to 2 hands, basic strategy, one seat):
1 deck 5.4405 against 5.4059 +- 0.0024 (z = +14); 2 decks 5.4173 against 5.4009 +- 0.0020
(z = +8). The gap halves as the decks double, as a without-replacement effect does.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "tests"))

from oracles.shoesim import HI_LO, simulate  # noqa: E402
from test_truecount import _Counter  # noqa: E402  (bjcalc's chart as the simulator's decide)

from bjcalc import Analysis, Rules  # noqa: E402
from bjcalc.counting.roundcards import round_cards  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rules = Rules(decks=args.decks, surrender="late", split_hands=2)
    chart = Analysis(rules).chart()
    modelled = sum(sum(cards) * q for cards, q in round_cards(rules, chart, 1).items())
    counter = _Counter(rules, [], None, 1)
    lengths: list[int] = []

    def trace(shoe: int, n: int, rc: object, tc: object, cards: list[int], unit: object) -> None:
        counter.trace(shoe, n, rc, tc, cards, unit)
        if n == 0:
            lengths.append(len(cards))

    start = time.perf_counter()
    simulate(rules.shoe_counts, HI_LO, rounds=args.rounds, seed=args.seed, cut_cards=1, max_hands=2,
             decide=counter.decide, insure=lambda cards, tc: False, bet=lambda tc: 1.0, trace=trace)
    mean = statistics.fmean(lengths)
    error = statistics.stdev(lengths) / math.sqrt(len(lengths))
    print(f"{args.decks} deck(s): placement (with replacement) {modelled:.4f} cards a round; "
          f"simulated first round {mean:.4f} +- {error:.4f} ({len(lengths)} rounds, "
          f"{time.perf_counter() - start:.0f} s); z = {(modelled - mean) / error:+.1f}")


if __name__ == "__main__":
    main()
