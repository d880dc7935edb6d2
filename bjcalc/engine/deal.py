"""The deal: every two-card hand with its probability, given the up card.

>>> hands = two_card_hands((4,) * 9 + (16,))
>>> len(hands), sum(p for _, p, _ in hands)
(55, Fraction(1, 1))
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from bjcalc.cards import TEN


def two_card_hands(
    shoe: tuple[int, ...], rules: Any = None, up: int | None = None
) -> list[tuple[tuple[int, ...], Fraction, bool]]:
    """Every two-card hand from ``shoe`` (as rank counts) with its probability, and whether it
    may be split as a pair. Where only same-face tens may be split (``rules``, with the up
    card ``up`` already out of ``shoe``), a pair of tens comes twice: same face (splittable)
    and unlike faces, each with its share of the probability."""
    return list(_two_card_hands(tuple(shoe), rules, up))


# the counter's shoes of one depth deal from one composition: each of their analyses deals
# the same hands against each up card (55 fractions, about 0.1 ms an up card); the last few
# shoes' ten up cards are kept
@functools.lru_cache(maxsize=32)
def _two_card_hands(
    shoe: tuple[int, ...], rules: Any, up: int | None
) -> tuple[tuple[tuple[int, ...], Fraction, bool], ...]:
    n = sum(shoe)
    replacement = rules is not None and rules.infinite  # both cards drawn with replacement
    out = []
    for a, b, counts in _PAIRS:
        if replacement:
            ways = shoe[a] * shoe[b] * (1 if a == b else 2)
        else:
            ways = shoe[a] * (shoe[a] - 1) if a == b else 2 * shoe[a] * shoe[b]
        if ways:
            p = Fraction(ways, n * n if replacement else n * (n - 1))
            if a == b == TEN and rules is not None and not rules.split_unlike_tens:
                same = same_face_share(rules, up)
                out.append((counts, p * same, True))
                if same != 1:
                    out.append((counts, p * (1 - same), False))
            else:
                out.append((counts, p, True))
    return tuple(out)


# the two ranks of each two-card hand, lower first, and its rank counts
_PAIRS = tuple((a, b, tuple((r == a) + (r == b) for r in range(10))) for a in range(10) for b in range(a, 10))


def same_face_share(rules: Any, up: int | None) -> Fraction:
    """P(two ten-valued cards are of one face | both tens), with the up card out of the shoe:
    the four faces are equally many in the full shoe; a ten up card is of any face alike."""
    if rules.infinite:  # two faces drawn with replacement: the second matches the first 1 in 4
        return Fraction(1, 4)
    faces = rules.shoe_counts[TEN] // 4
    counts = [faces - 1, faces, faces, faces] if up == TEN else [faces] * 4
    tens = sum(counts)
    if tens < 2:
        return Fraction(1)
    return Fraction(sum(f * (f - 1) for f in counts), tens * (tens - 1))
