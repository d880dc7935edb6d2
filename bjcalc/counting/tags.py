"""A count's tags and what they say: tag classes, the subsets of the cards with each tag sum,
and the true count by a divisor and a rounding convention (docs/countshoe.md)."""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bjcalc.arguments import shown
from bjcalc.cards import TEN
from bjcalc.counting.systems import TAG_LIMIT, tag_beyond_limit
from bjcalc.errors import BjcalcError
from bjcalc.rules import MAX_CARDS

if TYPE_CHECKING:
    pass

CARDS_PER_DECK = 52
# the largest running count (or IRC) in size that any shoe bjcalc takes could reach: every card
# of the largest shoe with the largest tag
RUNNING_COUNT_LIMIT = TAG_LIMIT * MAX_CARDS


class InvalidCountError(BjcalcError):
    """Tags, a running count or a count convention that cannot be: tags of the wrong length, a
    running count no subset of the shoe produces, a true count of an empty shoe."""


# -- counting subsets by size and tag sum ----------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def subsets_by_sum(sizes: tuple[int, ...], values: tuple[int, ...], count: int) -> dict[int, int]:
    """How many ``count``-card subsets of a set of cards, ``sizes[j]`` of them with the integer tag
    ``values[j]``, have each tag sum: ``[x^count] prod_j (1 + x y^values[j])^sizes[j]``, by power
    of ``y``. Sums no subset reaches are left out. Kept (by value, bounded): the same classes
    come back for every running count and every draw.

    >>> subsets_by_sum((2, 1), (1, -1), 2)
    {0: 2, 2: 1}
    """
    if not sizes:
        return {0: 1} if count == 0 else {}
    # the largest class last: the others' product is kept for every count, the last is one term
    order = sorted(range(len(sizes)), key=lambda j: sizes[j])
    last = order[-1]
    size, value = sizes[last], values[last]
    binomials = [math.comb(size, d) for d in range(size + 1)]  # once, not once per state
    out: dict[int, int] = {}
    for (taken, total), ways in _product(tuple(sizes[j] for j in order[:-1]), tuple(values[j] for j in order[:-1])):
        d = count - taken
        if 0 <= d <= size:
            key = total + value * d
            out[key] = out.get(key, 0) + ways * binomials[d]
    return dict(sorted(out.items()))


@functools.lru_cache(maxsize=64)
def _product(sizes: tuple[int, ...], values: tuple[int, ...]) -> tuple[tuple[tuple[int, int], int], ...]:
    """The coefficients of ``prod_j (1 + x y^values[j])^sizes[j]``: ((size, tag sum), ways)."""
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for size, value in zip(sizes, values):
        grown: dict[tuple[int, int], int] = {}
        binomials = [math.comb(size, d) for d in range(size + 1)]
        for (taken, total), ways in states.items():
            for d, b in enumerate(binomials):
                key = (taken + d, total + value * d)
                grown[key] = grown.get(key, 0) + ways * b
        states = grown
    return tuple(states.items())


def _ways(sizes: tuple[int, ...], values: tuple[int, ...], count: int, total: int) -> int:
    """How many ``count``-subsets have tag sum ``total`` (:func:`subsets_by_sum`)."""
    if count < 0 or any(n < 0 for n in sizes):
        return 0
    return subsets_by_sum(sizes, values, count).get(total, 0)


# -- the count's tags, scaled to integers ----------------------------------------------------------


def as_tags(tags: Sequence[Any]) -> tuple[Fraction, ...]:
    """Ten tags, aces first, as Fractions (ints, Fractions, ``"1/2"``, ``0.5``)."""
    if isinstance(tags, (str, bytes)) or not isinstance(tags, Sequence) or len(tags) != 10:
        raise InvalidCountError(f"tags must be ten numbers for A,2,...,9,T, not {tags!r}")
    try:
        fractions = tuple(Fraction(t) for t in tags)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):  # OverflowError: an infinite float
        raise InvalidCountError(f"tags must be numbers such as 1, -1, 0.5 or '1/2', not {tags!r}") from None
    if tag_beyond_limit(fractions) is not None:
        raise InvalidCountError(f"tags must be numbers from -{TAG_LIMIT} to {TAG_LIMIT}, not {tags!r}")
    return fractions


def counting_tags(tags: Sequence[Any]) -> tuple[Fraction, ...]:
    """:func:`as_tags`, refusing tags that are all the same (all 0, say): such a count counts
    nothing, and an analysis of it is one of the full shoe."""
    fractions = as_tags(tags)
    if len(set(fractions)) < 2:
        raise InvalidCountError(f"tags {tags!r} give every card the same tag: that count counts nothing")
    return fractions


def check_initial_running_count(shoe: Sequence[int], tags: Sequence[Fraction], irc: Fraction,
                                name: str = "initial running count (IRC)") -> None:
    """Refuse an initial running count a count does not start from: any but 0 for a balanced
    count (its tags sum to 0 over a deck: it starts at 0, and an IRC only shifts its true count),
    or one larger in size than every tag of the shoe's cards together (no count of this shoe
    comes near it)."""
    if not irc or any(not isinstance(n, int) for n in shoe):  # a shoe that is not one is refused with the shoe
        return
    if sum(tags[:TEN]) + 4 * tags[TEN] == 0:
        raise InvalidCountError(f"{name} {irc} is for an unbalanced count such as KO: this "
                                "count is balanced (its tags sum to 0 over a deck) and starts at 0")
    most = sum(abs(Fraction(t)) * n for t, n in zip(tags, shoe))
    if abs(irc) > most:
        raise InvalidCountError(f"{name} {irc} is beyond what the shoe's cards can produce "
                                f"(from {-most} to {most})")


def tag_scale(tags: Sequence[Fraction]) -> int:
    """The smallest positive integer that makes every tag an integer (2 for Wong Halves)."""
    return math.lcm(*(Fraction(t).denominator for t in tags))


@dataclasses.dataclass(frozen=True)
class TagClasses:
    """A count's tag classes: the distinct tag values (ascending, scaled by ``scale`` to
    integers) and, for each rank, the class it is in."""

    scale: int
    values: tuple[int, ...]
    of_rank: tuple[int, ...]

    @classmethod
    def of(cls, tags: Sequence[Fraction]) -> TagClasses:
        scale = tag_scale(tags)
        scaled = [int(Fraction(t) * scale) for t in tags]
        values = tuple(sorted(set(scaled)))
        return cls(scale, values, tuple(values.index(v) for v in scaled))

    def totals(self, counts: Sequence[int]) -> tuple[int, ...]:
        """The cards of each class among ``counts`` (ten counts, aces first)."""
        out = [0] * len(self.values)
        for rank, n in enumerate(counts):
            out[self.of_rank[rank]] += n
        return tuple(out)

    def scaled_sum(self, counts: Sequence[int]) -> int:
        return sum(self.values[self.of_rank[r]] * n for r, n in enumerate(counts))


def _scaled(value: Fraction, scale: int, field: str) -> int:
    scaled = value * scale
    if scaled.denominator != 1:
        raise InvalidCountError(f"{field} {value} is not a sum of the tags (a multiple of 1/{scale})")
    return scaled.numerator


# -- true counts -----------------------------------------------------------------------------------


class DeckEstimate(str, enum.Enum):
    """How the decks left (the true count's divisor) are estimated from the cards left ``L``.

    - ``exact``: ``L / 52``;
    - ``half-deck``: ``L / 26`` rounded to the nearest whole number (halves up), halved, and
      never below half a deck;
    - ``full-deck``: ``L / 52`` rounded to the nearest whole number (halves up), never below one.
    """

    EXACT = "exact"
    HALF_DECK = "half-deck"
    FULL_DECK = "full-deck"


class Rounding(str, enum.Enum):
    """How the quotient RC / decks left is made a whole number.

    - ``none``: kept exact (a Fraction);
    - ``floor``: toward minus infinity (Blackjack Attack; -0.5 is -1);
    - ``truncate``: toward zero (later editions of Professional Blackjack; -0.5 is 0);
    - ``round``: to the nearest whole number, halves away from zero (-0.5 is -1, 0.5 is 1).
    """

    NONE = "none"
    FLOOR = "floor"
    TRUNCATE = "truncate"
    ROUND = "round"


def _half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def decks_left(cards_left: int, estimate: DeckEstimate | str = DeckEstimate.EXACT) -> Fraction:
    """The true count's divisor for ``cards_left`` cards (:class:`DeckEstimate`).

    >>> decks_left(78), decks_left(78, "half-deck"), decks_left(78, "full-deck"), decks_left(12, "half-deck")
    (Fraction(3, 2), Fraction(3, 2), Fraction(2, 1), Fraction(1, 2))
    """
    estimate = _choice(DeckEstimate, estimate, "deck estimate")
    if not isinstance(cards_left, int) or isinstance(cards_left, bool) or not 0 <= cards_left <= MAX_CARDS:
        raise InvalidCountError(f"cards left must be a whole number from 0 to {MAX_CARDS} (the largest shoe), "
                                f"not {shown(cards_left)}")
    if estimate is DeckEstimate.EXACT:
        if cards_left == 0:
            raise InvalidCountError("no true count with 0 cards left (the exact divisor is 0 decks)")
        return Fraction(cards_left, CARDS_PER_DECK)
    if estimate is DeckEstimate.HALF_DECK:
        return Fraction(max(1, _half_up(Fraction(cards_left, CARDS_PER_DECK // 2))), 2)
    return Fraction(max(1, _half_up(Fraction(cards_left, CARDS_PER_DECK))))


def true_count(running_count: Fraction | int, cards_left: int, estimate: DeckEstimate | str = DeckEstimate.EXACT,
               rounding: Rounding | str = Rounding.NONE) -> Fraction:
    """The running count per deck left, ``running_count / decks_left(cards_left, estimate)``,
    rounded by ``rounding`` (:class:`Rounding`; a whole-number Fraction unless ``none``).

    >>> true_count(-3, 78), true_count(-3, 78, rounding="floor"), true_count(-3, 78, rounding="truncate")
    (Fraction(-2, 1), Fraction(-2, 1), Fraction(-2, 1))
    >>> [true_count(-1, 104, rounding=r) for r in ("floor", "truncate", "round")]
    [Fraction(-1, 1), Fraction(0, 1), Fraction(-1, 1)]
    """
    # checked here, cheaply (the library takes true counts in its loops): an int or a Fraction
    # within the limit goes straight on
    if (type(running_count) is not int and type(running_count) is not Fraction) or not (
            -RUNNING_COUNT_LIMIT <= running_count <= RUNNING_COUNT_LIMIT):
        running_count = count_value(running_count, "running_count")
    rounding = _choice(Rounding, rounding, "rounding")
    quotient = Fraction(running_count) / decks_left(cards_left, estimate)
    if rounding is Rounding.NONE:
        return quotient
    if rounding is Rounding.FLOOR:
        return Fraction(math.floor(quotient))
    if rounding is Rounding.TRUNCATE:
        return Fraction(math.trunc(quotient))
    whole = _half_up(abs(quotient))
    return Fraction(whole if quotient >= 0 else -whole)


def count_value(value: Any, field: str) -> Fraction:
    """A running count (or an initial one) as a Fraction: an int, a Fraction, a finite float or
    text such as ``"-4"`` or ``"1/2"``; not a bool, and at most :data:`RUNNING_COUNT_LIMIT` in size."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise InvalidCountError(f"{field} must be a number such as -4, 2.5 or 1/2, not {shown(value)}")
    number = _number(value, field)
    if abs(number) > RUNNING_COUNT_LIMIT:
        raise InvalidCountError(f"{field} must be from -{RUNNING_COUNT_LIMIT} to {RUNNING_COUNT_LIMIT} (beyond what "
                                f"any shoe's cards can produce), not {shown(value)}")
    return number


def _choice(kind: type[enum.Enum], value: Any, field: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in kind)
        raise InvalidCountError(f"{field} must be one of {choices}, not {value!r}") from None


@functools.lru_cache(maxsize=256)
def _classes(tags: tuple[Fraction, ...]) -> TagClasses:
    return TagClasses.of(tags)


def _sum_bounds(sizes: Sequence[int], values: Sequence[int], most: int) -> tuple[list[float], list[float]]:
    """For ``n`` from 0 to ``most``: the least and the most tag sum of ``n`` cards of these
    classes (infinite bounds where they hold fewer than ``n`` cards). A bound, not a proof
    that a sum between them is reached."""
    ordered = sorted(zip(values, sizes))
    low: list[float] = []
    high: list[float] = []
    for n in range(most + 1):
        if n > sum(sizes):
            low.append(math.inf)
            high.append(-math.inf)
            continue
        low.append(_greedy_sum(ordered, n))
        high.append(_greedy_sum(ordered[::-1], n))
    return low, high


def _greedy_sum(ordered: Sequence[tuple[int, int]], count: int) -> int:
    total = 0
    for value, size in ordered:
        take = min(size, count)
        total += value * take
        count -= take
    return total


def _number(value: Any, field: str) -> Fraction:
    try:
        return Fraction(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):  # OverflowError: inf
        raise InvalidCountError(f"{field} must be a number such as -4, 2.5 or 1/2, not {value!r}") from None


def _signed_text(value: Fraction) -> str:
    text = str(value)
    return text if value <= 0 else "+" + text
