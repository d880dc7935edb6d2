"""The counter's shoe by brute force: a test oracle for ``bjcalc.counting.countshoe``.

Written from the definition alone (issue 20), sharing no code with ``bjcalc``: the cards off the
table are labelled one by one; every subset of them with as many cards as were discarded and the
right tag sum is a possible set of discards, all equally likely; the cards left are the rest,
dealt in a uniformly random order. Everything is enumerated (tiny shoes only) and every number
is a :class:`fractions.Fraction`.

Conventions: a shoe is ten counts, index 0 the ace ... index 9 the tens; tags are ten numbers in
the same order (Fractions or ints, not scaled); cards are rank indices 0..9; the running count
is the initial running count plus the tags of the discards and of the cards on the table.

>>> shoe, tags = (1, 1, 0, 0, 0, 0, 0, 0, 0, 1), (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
>>> len(discard_sets(shoe, tags, table=(), seen=1, running_count=-1))
2
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction


def _labelled(counts: Sequence[int]) -> list[int]:
    """Every card, one entry per card: its rank index."""
    return [rank for rank, n in enumerate(counts) for _ in range(n)]


def off_table(shoe: Sequence[int], table: Sequence[int]) -> list[int]:
    counts = list(shoe)
    for card in table:
        counts[card] -= 1
        assert counts[card] >= 0, "a card on the table that the shoe does not hold"
    return counts


def discard_sets(shoe: Sequence[int], tags: Sequence[Fraction | int], table: Sequence[int], seen: int,
                 running_count: Fraction | int, initial_running_count: Fraction | int = 0) -> list[list[int]]:
    """Every possible set of discards (as the rank counts of the cards *left*), one entry per
    subset of labelled cards: the list holds duplicates, each with the same weight."""
    cards = _labelled(off_table(shoe, table))
    target = Fraction(running_count) - Fraction(initial_running_count) - sum(Fraction(tags[c]) for c in table)
    out = []
    for chosen in itertools.combinations(range(len(cards)), seen):
        if sum(Fraction(tags[cards[i]]) for i in chosen) != target:
            continue
        left = [0] * 10
        kept = set(chosen)
        for i, rank in enumerate(cards):
            if i not in kept:
                left[rank] += 1
        out.append(left)
    return out


def sequence_probability(left: Sequence[int], cards: Sequence[int]) -> Fraction:
    """The probability that ``cards`` come first, in this order, from a known composition."""
    counts = list(left)
    p = Fraction(1)
    for card in cards:
        total = sum(counts)
        if total == 0 or counts[card] == 0:
            return Fraction(0)
        p *= Fraction(counts[card], total)
        counts[card] -= 1
    return p


def draw_probability(shoe: Sequence[int], tags: Sequence[Fraction | int], table: Sequence[int], seen: int,
                     running_count: Fraction | int, cards: Sequence[int],
                     initial_running_count: Fraction | int = 0) -> Fraction:
    """The probability that the next cards are ``cards``, in order: the average over every
    possible set of discards."""
    sets = discard_sets(shoe, tags, table, seen, running_count, initial_running_count)
    return sum((sequence_probability(left, cards) for left in sets), Fraction(0)) / len(sets)


def expected_left(shoe: Sequence[int], tags: Sequence[Fraction | int], table: Sequence[int], seen: int,
                  running_count: Fraction | int, initial_running_count: Fraction | int = 0) -> list[Fraction]:
    """The expected number of cards of each rank left."""
    sets = discard_sets(shoe, tags, table, seen, running_count, initial_running_count)
    return [sum((Fraction(left[r]) for left in sets), Fraction(0)) / len(sets) for r in range(10)]


def class_posterior(shoe: Sequence[int], tags: Sequence[Fraction | int], table: Sequence[int], seen: int,
                    running_count: Fraction | int, initial_running_count: Fraction | int = 0
                    ) -> dict[tuple[int, ...], Fraction]:
    """The distribution of the cards left per distinct tag value (tag values ascending)."""
    values = sorted({Fraction(t) for t in tags})
    sets = discard_sets(shoe, tags, table, seen, running_count, initial_running_count)
    out: dict[tuple[int, ...], Fraction] = {}
    for left in sets:
        key = tuple(sum(left[r] for r in range(10) if Fraction(tags[r]) == v) for v in values)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, len(sets))
    return out


def insurance_ev(shoe: Sequence[int], tags: Sequence[Fraction | int], hand: Sequence[int], seen: int,
                 running_count: Fraction | int, initial_running_count: Fraction | int = 0) -> Fraction:
    """Insurance against an ace up (index 0) with ``hand`` on the table: 2 to 1 on a ten in the
    hole, ``3 P(ten) - 1``, the hole card being the next card of the cards left."""
    table = list(hand) + [0]
    return 3 * draw_probability(shoe, tags, table, seen, running_count, [9], initial_running_count) - 1


def running_count_distribution(shoe: Sequence[int], tags: Sequence[Fraction | int], seen: int,
                               initial_running_count: Fraction | int = 0) -> dict[Fraction, Fraction]:
    """The running count after ``seen`` cards from the full shoe, over every subset."""
    cards = _labelled(shoe)
    out: dict[Fraction, Fraction] = {}
    subsets = list(itertools.combinations(cards, seen))
    for chosen in subsets:
        rc = Fraction(initial_running_count) + sum(Fraction(tags[c]) for c in chosen)
        out[rc] = out.get(rc, Fraction(0)) + Fraction(1, len(subsets))
    return out


def possible_running_counts(shoe: Sequence[int], tags: Sequence[Fraction | int], hand: Sequence[int], seen: int,
                            initial_running_count: Fraction | int = 0) -> list[Fraction]:
    """Every running count the counter can see with ``hand`` and an ace on the table."""
    table = list(hand) + [0]
    cards = _labelled(off_table(shoe, table))
    on_table = sum(Fraction(tags[c]) for c in table)
    return sorted({Fraction(initial_running_count) + on_table + sum(Fraction(tags[c]) for c in chosen)
                   for chosen in itertools.combinations(cards, seen)})
