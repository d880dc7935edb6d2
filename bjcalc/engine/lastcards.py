"""Shoes dealt to their last cards: whether a round could run out, and how likely it is to.

A round runs out when it needs a card (a hit, a double's card, a split hand's second card, the
dealer's hole card or draws) and the shoe has none left. bjcalc deals every shoe down to its last
card: the engine's denominators take a factor of 1 for every draw past the last card
(:func:`bjcalc.numbers.falling_left`), so a deal that runs out has no numerator and counts in no
outcome: the numbers it prints are the round's with such deals **void** (every bet returned).
What a casino does instead (its discards shuffled and dealt on) can move an EV by at most the
stakes on the table times the chance of running out, which :mod:`bjcalc.runout` works out.

Here: the cheap tests that decide which shoes can run out at all. A hand's cards are worth at
most 31 (a hand draws at a hard total of 21 or less, and then at most a ten); an ace is worth 1.
A hand asks for a card holding at most 21, the dealer at most 16 (hard 16; a soft 17 is a hard
7). A round that needs a card it cannot have has dealt every card left: if the dealer asks, the
cards left are worth at most ``31 h + 16`` for ``h`` hands; if a hand asks, at most ``31 (h - 1)
+ 21`` and the dealer's two cards, 20, which is less.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bjcalc.rules import Rules

HAND_WORTH = 31  # the most a player's hand's cards are worth (a hit at hard 21, then a ten)
DEALER_ASKS = 16  # the most the dealer's cards are worth when it asks for a card (hard 16; soft 17 is hard 7)


def most_hands(rules: Rules) -> int:
    """The most hands one round can hold: one, or ``split_hands`` where pairs split."""
    return max(1, rules.split_hands)


def worth_budget(rules: Rules) -> int:
    """The most the cards a round deals can be worth when it asks for one more card."""
    return HAND_WORTH * most_hands(rules) + DEALER_ASKS


def may_run_out(rules: Rules, counts: Sequence[int], cards_left: int | None = None) -> bool:
    """Whether some deal of a round from these cards could need a card the shoe no longer
    has. ``counts``: ten counts (A..T) of the cards that may be left; ``cards_left``: how many
    of them are (a counter's shoe: the cards off the table less its discards; by default all).
    Sufficient, not exact: ``False`` means no deal can run out; ``True`` that the cheapest
    ``cards_left`` of the cards are worth no more than a round can take."""
    if rules.infinite:
        return False
    left = sum(counts) if cards_left is None else cards_left
    return bool(cheapest_worth(np.asarray([counts]), np.asarray([left]))[0] <= worth_budget(rules))


def dealer_may_run_out(counts: np.ndarray, cards_left: np.ndarray) -> np.ndarray:
    """For each row of ``counts`` (ten counts of the cards that may be left, the dealer's up
    card among them, before the dealer's hole card) of which ``cards_left`` are left, whether
    the dealer could ask for a card the shoe no longer has: only if the cheapest of them are
    worth at most 16, what the dealer holds when it asks. Every card is worth at least 1, so
    only rows of at most 16 cards left are looked at (a round's shoes mostly have hundreds)."""
    counts = np.asarray(counts, dtype=np.int64).reshape(-1, 10)
    cards_left = np.broadcast_to(np.asarray(cards_left, dtype=np.int64), (len(counts),))
    out = np.zeros(len(counts), dtype=bool)
    few = np.flatnonzero(cards_left <= DEALER_ASKS)
    if len(few):
        out[few] = cheapest_worth(counts[few], cards_left[few]) <= DEALER_ASKS
    return out


def cheapest_worth(counts: np.ndarray, cards_left: np.ndarray) -> np.ndarray:
    """For each row of ``counts`` (n, 10), the worth of its ``cards_left`` cheapest cards (an
    ace 1, a ten 10)."""
    counts = np.asarray(counts, dtype=np.int64).reshape(-1, 10)
    left = np.asarray(cards_left, dtype=np.int64).copy()
    worth = np.zeros(len(counts), dtype=np.int64)
    for rank in range(10):  # the cheapest cards first: aces (1) up to tens (10)
        take = np.clip(np.minimum(counts[:, rank], left), 0, None)
        worth += take * (rank + 1)
        left -= take
    return worth
