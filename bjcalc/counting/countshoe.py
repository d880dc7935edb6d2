"""The counter's shoe: what a card counter knows about the cards left, and nothing more.

A counter knows the shoe before the deal, the count's tags, the running count (RC: the initial
running count of an unbalanced count plus the tags of every card seen so far, this round's
visible cards included), how many cards went to the discards unseen-by-rank, and the cards on the
table. Given that, the discards are a uniform random subset of the cards not on the table, among
the subsets with the right size and tag sum; the cards left are the rest.

Ranks that share a tag are exchangeable, so the state is the totals of the *tag classes* (the
sets of ranks with one tag value): a 3-valued count such as Hi-Lo has one free parameter. A run
of draws then has a probability of the form ``f(ranks drawn) * g(class totals drawn)``
(:meth:`CountShoe.draw_probability`); docs/countshoe.md derives it.

Everything here is exact: Python integers and ``fractions.Fraction``.

>>> s = CountShoe(shoe=(4,) * 9 + (16,), tags=(-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), seen=10, running_count=4)
>>> sum(s.posterior().values())
Fraction(1, 1)
>>> sum(s.rank_probabilities().values())
Fraction(1, 1)
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bjcalc.cards import ACE, RANK_NOTATION, TEN, UP_INDICES, Rank, as_cards
from bjcalc.counting.systems import TAG_LIMIT, tag_beyond_limit
from bjcalc.errors import BjcalcError, CardNotInShoeError, InvalidHandError, InvalidShoeError

if TYPE_CHECKING:
    from bjcalc.engine.door import DrawModel

CARDS_PER_DECK = 52


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


def check_initial_running_count(shoe: Sequence[int], tags: Sequence[Fraction], irc: Fraction) -> None:
    """Refuse an initial running count a count does not start from: any but 0 for a balanced
    count (its tags sum to 0 over a deck: it starts at 0, and an IRC only shifts its true count),
    or one larger in size than every tag of the shoe's cards together (no count of this shoe
    comes near it)."""
    if not irc or any(not isinstance(n, int) for n in shoe):  # a shoe that is not one is refused with the shoe
        return
    if sum(tags[:TEN]) + 4 * tags[TEN] == 0:
        raise InvalidCountError(f"initial running count (IRC) {irc} is for an unbalanced count such as KO: this "
                                "count is balanced (its tags sum to 0 over a deck) and starts at 0")
    most = sum(abs(Fraction(t)) * n for t, n in zip(tags, shoe))
    if abs(irc) > most:
        raise InvalidCountError(f"initial running count (IRC) {irc} is beyond what the shoe's cards can produce "
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
    if not isinstance(cards_left, int) or cards_left < 0:
        raise InvalidCountError(f"cards left must be a whole number >= 0, not {cards_left!r}")
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


def _choice(kind: type[enum.Enum], value: Any, field: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in kind)
        raise InvalidCountError(f"{field} must be one of {choices}, not {value!r}") from None


# -- the counter's shoe ----------------------------------------------------------------------------


def _counts(cards: Iterable[Rank]) -> tuple[int, ...]:
    out = [0] * 10
    for card in cards:
        out[card.index] += 1
    return tuple(out)


@dataclasses.dataclass(frozen=True, kw_only=True)
class CountShoe:
    """What a counter knows (module docstring).

    - ``shoe``: the shoe before the deal, ten counts aces first;
    - ``tags``: the count's ten tags, aces first (half-integers allowed);
    - ``initial_running_count``: where an unbalanced count starts (KO's IRC); 0 for balanced ones;
    - ``running_count``: the initial running count plus the tags of every card seen, the
      visible ones included;
    - ``seen``: how many cards went to the discards (seen, counted, their ranks forgotten);
    - ``hand``, ``up``, ``others``: the cards on the table, known by rank: the player's hand, the
      dealer's up card and any other card seen face up this round (:meth:`after`).
    """

    shoe: tuple[int, ...]
    tags: tuple[Fraction, ...]
    running_count: Fraction = Fraction(0)
    seen: int = 0
    hand: tuple[Rank, ...] = ()
    up: Rank | None = None
    others: tuple[Rank, ...] = ()
    initial_running_count: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        shoe = self.shoe
        if (isinstance(shoe, (str, bytes)) or not isinstance(shoe, Sequence) or len(shoe) != 10
                or any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in shoe)):
            raise InvalidShoeError(f"shoe must be ten whole-number counts A..T, each >= 0, not {shoe!r}")
        set_ = functools.partial(object.__setattr__, self)
        set_("shoe", tuple(shoe))
        set_("tags", as_tags(self.tags))
        for field in ("running_count", "initial_running_count"):
            try:
                set_(field, Fraction(getattr(self, field)))
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):  # OverflowError: inf
                raise InvalidCountError(f"{field} must be a number, not {getattr(self, field)!r}") from None
        set_("hand", as_cards(self.hand) if self.hand else ())
        set_("others", as_cards(self.others) if self.others else ())
        if self.up is not None:
            up = as_cards(self.up) if isinstance(self.up, str) else as_cards([self.up])
            if len(up) != 1:
                raise InvalidHandError(f"up must be one card, not {self.up!r}")
            set_("up", up[0])
        left = list(self.shoe)
        for card in self.visible:
            if left[card.index] == 0:
                raise CardNotInShoeError(f"visible card {str(card)!r} is not in the shoe {self.shoe!r}")
            left[card.index] -= 1
        if not isinstance(self.seen, int) or isinstance(self.seen, bool) or not 0 <= self.seen <= sum(left):
            raise InvalidShoeError(f"seen must be a whole number from 0 to {sum(left)} (the cards off the table), "
                                   f"not {self.seen!r}")
        classes = self.classes
        _scaled(self.running_count, classes.scale, "running_count")
        _scaled(self.initial_running_count, classes.scale, "initial_running_count")
        if self._ways(self._pool_totals) == 0:
            raise InvalidCountError(
                f"running_count {self.running_count} cannot be reached with {self.seen} cards seen "
                f"and {_notation(self.visible) or 'no cards'} on the table (probability 0)")

    @classmethod
    def named(cls, system: str, **fields: Any) -> CountShoe:
        """The counter's shoe for a built-in count system (``hi-lo``, ``ko``, ...; see
        :data:`bjcalc.counting.systems.SYSTEMS`)."""
        from bjcalc.counting.systems import CountSystem

        return cls(tags=CountSystem.named(system).tags, **fields)

    # -- what is known (what follows from the fields alone is kept on the instance: a counter's
    # shoe asks for its classes and pool at every draw) -----------------------------------------

    @property
    def visible(self) -> tuple[Rank, ...]:
        """The cards on the table: the hand, the up card, the others."""
        return self.hand + ((self.up,) if self.up is not None else ()) + self.others

    @functools.cached_property
    def classes(self) -> TagClasses:
        return _classes(self.tags)

    @functools.cached_property
    def off_table(self) -> tuple[int, ...]:
        """The counts of the cards not on the table: the discards and the cards left, together."""
        return tuple(n - v for n, v in zip(self.shoe, _counts(self.visible)))

    @functools.cached_property
    def cards_left(self) -> int:
        return sum(self.off_table) - self.seen

    @functools.cached_property
    def discard_sum(self) -> int:
        """The discards' tag sum, scaled to integers: the running count less the initial one and
        the visible cards' tags."""
        classes = self.classes
        return (_scaled(self.running_count - self.initial_running_count, classes.scale, "running_count")
                - classes.scaled_sum(_counts(self.visible)))

    @functools.cached_property
    def _pool_totals(self) -> tuple[int, ...]:
        return self.classes.totals(self.off_table)

    def _ways(self, totals: tuple[int, ...]) -> int:
        """How many discard sets (``seen`` cards with the discards' tag sum) the cards off the
        table minus some drawn ones (their class ``totals``) hold."""
        return _ways(totals, self.classes.values, self.seen, self.discard_sum)

    def discard_sets(self) -> int:
        """How many discard sets fit what the counter knows, ``Z(M)``: the sets of ``seen`` cards
        off the table with the discards' tag sum (the posterior's normaliser; a state's likelihood
        is proportional to it, given the cards on the table).

        >>> hi_lo = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
        >>> CountShoe(shoe=(1,) * 9 + (4,), tags=hi_lo, seen=2, running_count=2).discard_sets()  # C(5, 2)
        10
        """
        return self._ways(self._pool_totals)

    # -- the posterior -----------------------------------------------------------------------------

    def posterior(self) -> dict[tuple[int, ...], Fraction]:
        """The exact distribution of the class totals of the cards left (classes in ascending tag
        order, :attr:`classes`): each possible split of the discards into classes weighted by
        ``prod_j C(M_j, d_j)`` (``M_j`` cards of class ``j`` off the table, ``d_j`` of them
        discarded), normalised. The weights sum to exactly 1."""
        weights = self._splits()
        whole = sum(weights.values())
        return {totals: Fraction(w, whole) for totals, w in weights.items()}

    def _splits(self) -> dict[tuple[int, ...], int]:
        """The posterior's weights before normalising: class totals left -> ``prod_j C(M_j, d_j)``."""
        values = self.classes.values
        pool = self._pool_totals
        weights: dict[tuple[int, ...], int] = {}

        last = len(pool) - 1
        # bounds[j][n]: the least and the most tag sum of n cards of the classes after j
        bounds = [_sum_bounds(pool[j + 1:], values[j + 1:], self.seen) for j in range(len(pool))]

        def walk(j: int, left: int, total: int, taken: tuple[int, ...], ways: int) -> None:
            if j == last:
                if left <= pool[j] and values[j] * left == total:
                    weights[tuple(m - d for m, d in zip(pool, taken + (left,)))] = ways * math.comb(pool[j], left)
                return
            if j == last - 1:
                # two classes left: their split is fixed by the count and the tag sum
                d, odd = divmod(total - values[last] * left, values[j] - values[last])
                if not odd and 0 <= d <= min(pool[j], left):
                    walk(last, left - d, total - values[j] * d, taken + (d,), ways * math.comb(pool[j], d))
                return
            low, high = bounds[j]
            for d in range(min(pool[j], left) + 1):
                rest = left - d
                # the classes after j must be able to make the rest of the sum with the rest of the cards
                if low[rest] <= total - values[j] * d <= high[rest]:
                    walk(j + 1, rest, total - values[j] * d, taken + (d,), ways * math.comb(pool[j], d))

        walk(0, self.seen, self.discard_sum, (), 1)
        return dict(sorted(weights.items()))

    def undealt(self) -> CountShoe:
        """The same knowledge before this round's cards were dealt: the table's cards back among
        the cards left, the running count without their tags (what an analysis of the round
        deals from; the table's cards are then the round's first cards)."""
        visible = _counts(self.visible)
        return dataclasses.replace(self, hand=(), up=None, others=(),
                                   running_count=self.running_count - sum(t * n for t, n in zip(self.tags, visible)))

    def draw_model(self) -> DrawModel:
        """The engine's view of this shoe (:class:`bjcalc.engine.drawmodel.DrawModel`): the
        cards off the table, the hidden discards among them and the weight of every class total
        drawn."""
        from bjcalc.engine.door import DrawModel

        return DrawModel(counts=self.off_table, hidden=self.seen, of_rank=self.classes.of_rank,
                         pool=self._pool_totals, support=tuple(self._splits().items()))

    def expected_left(self) -> tuple[Fraction, ...]:
        """The expected number of cards of each rank left, aces first: a card off the table is
        left unless it is a discard, ``n_r * Z(without one card of r's class) / Z``."""
        pool = self._pool_totals
        whole = self._ways(pool)
        out = []
        for rank, n in enumerate(self.off_table):
            j = self.classes.of_rank[rank]
            out.append(Fraction(0) if n == 0 else Fraction(n * self._ways(_minus(pool, j)), whole))
        return tuple(out)

    # -- draws -------------------------------------------------------------------------------------

    def draw_probability(self, cards: str | Sequence[Rank | str | int] | Mapping[Rank, int]) -> Fraction:
        """The exact probability that the next cards dealt are ``cards``, in the given order (it
        depends only on which ranks, how many of each): with ``a_r`` cards of rank ``r``, ``A_j``
        of class ``j``, ``n`` in all, ``n_r`` / ``M_j`` off the table and ``L`` cards left,

        ``prod_r n_r^(a_r) / L^(n)  *  Z(M - A) / Z(M)``

        (falling factorials; ``Z(M)``: the discard sets the cards off the table hold). A mapping
        gives the multiset directly (rank -> how many).

        >>> s = CountShoe(shoe=(1, 1, 1, 1, 1, 1, 1, 1, 1, 4), tags=(-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), seen=2)
        >>> s.draw_probability("T"), s.draw_probability("T,5") == s.draw_probability("5,T")
        (Fraction(23, 77), True)
        """
        drawn = self._multiset(cards)
        n = sum(drawn)
        if n > self.cards_left:
            return Fraction(0)
        f = math.prod(math.perm(have, a) for have, a in zip(self.off_table, drawn))
        if f == 0:
            return Fraction(0)
        pool = self._pool_totals
        after = tuple(m - a for m, a in zip(pool, self.classes.totals(drawn)))
        return Fraction(f * self._ways(after), math.perm(self.cards_left, n) * self._ways(pool))

    def can_deal(self, cards: str | Sequence[Rank | str | int] | Mapping[Rank, int]) -> bool:
        """Whether the next cards dealt can be ``cards`` (:meth:`draw_probability` is not 0),
        without working the probability out.

        >>> s = CountShoe(shoe=(1, 1, 1, 1, 1, 1, 1, 1, 1, 4), tags=(-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), seen=2,
        ...               running_count=-2)
        >>> s.can_deal("T"), s.can_deal("A,T,T,T")  # both discards are tens or aces
        (True, False)
        """
        drawn = self._multiset(cards)
        if sum(drawn) > self.cards_left or any(a > have for have, a in zip(self.off_table, drawn)):
            return False
        return self._ways(tuple(m - a for m, a in zip(self._pool_totals, self.classes.totals(drawn)))) > 0

    def rank_probabilities(self) -> dict[Rank, Fraction]:
        """The exact probability of each rank as the next card (every rank, zeros included)."""
        if self.cards_left == 0:
            raise InvalidShoeError("no next card: no cards are left")
        left = self.expected_left()
        return {Rank.from_index(r): left[r] / self.cards_left for r in range(10)}

    def after(self, cards: str | Sequence[Rank | str | int]) -> CountShoe:
        """The counter's shoe once ``cards`` are seen face up (dealt from the cards left): they
        join the table (:attr:`others`) and the running count takes their tags."""
        seen = as_cards(cards) if cards else ()
        if len(seen) > self.cards_left:
            raise CardNotInShoeError(f"{len(seen)} cards cannot be dealt from {self.cards_left} cards left")
        if not self.can_deal(seen):
            raise CardNotInShoeError(f"cards {_notation(seen)!r} cannot come from the cards left (probability 0)")
        return dataclasses.replace(self, others=self.others + seen,
                                   running_count=self.running_count + sum(self.tags[c.index] for c in seen))

    def cleared(self) -> CountShoe:
        """The shoe once the table is cleared: its cards join the discards (their ranks are
        forgotten, as a counter forgets them; the running count has them already)."""
        return dataclasses.replace(self, seen=self.seen + len(self.visible), hand=(), up=None, others=())

    # -- counts and insurance ----------------------------------------------------------------------

    def true_count(self, divisor: DeckEstimate | str = DeckEstimate.EXACT,
                   rounding: Rounding | str = Rounding.NONE) -> Fraction:
        """The running count per deck left (:func:`true_count`); the decks left are the cards
        not seen (neither discarded nor on the table)."""
        return true_count(self.running_count, self.cards_left, divisor, rounding)

    def insurance_ev(self) -> Fraction:
        """Insurance's EV per unit bet with an ace up: it pays 2 to 1 on a ten in the hole,
        ``3 E[tens left] / L - 1``."""
        if self.up is not Rank.ACE:
            shown = "no up card" if self.up is None else repr(str(self.up))
            raise InvalidHandError(f"insurance is offered against an ace up, not {shown}")
        if self.cards_left == 0:
            raise InvalidShoeError("no hole card: no cards are left")
        return 3 * self.expected_left()[TEN] / self.cards_left - 1

    def _multiset(self, cards: str | Sequence[Rank | str | int] | Mapping[Rank, int]) -> tuple[int, ...]:
        if isinstance(cards, Mapping):
            counts = [0] * 10
            for rank, k in cards.items():
                if not isinstance(k, int) or k < 0:
                    raise InvalidHandError(f"a card's multiplicity must be a whole number >= 0, not {k!r}")
                counts[as_cards([rank])[0].index] += k
            return tuple(counts)
        return _counts(as_cards(cards)) if cards else (0,) * 10


@functools.lru_cache(maxsize=256)
def _classes(tags: tuple[Fraction, ...]) -> TagClasses:
    return TagClasses.of(tags)


def _minus(totals: tuple[int, ...], j: int) -> tuple[int, ...]:
    return totals[:j] + (totals[j] - 1,) + totals[j + 1:]


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


def _notation(cards: Iterable[Rank]) -> str:
    return ",".join(RANK_NOTATION[c.index] for c in cards)


# -- the running count after N cards ---------------------------------------------------------------


def running_count_distribution(shoe: Sequence[int], tags: Sequence[Any], seen: int,
                               initial_running_count: Fraction | int = 0) -> dict[Fraction, Fraction]:
    """The exact distribution of the running count after ``seen`` cards from the full ``shoe``:
    ``P(RC = IRC + s) = #(seen-subsets with tag sum s) / C(cards, seen)``, summing to exactly 1.

    >>> running_count_distribution((1, 0, 1, 0, 0, 0, 0, 0, 0, 1), (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), 1)
    {Fraction(-1, 1): Fraction(2, 3), Fraction(1, 1): Fraction(1, 3)}
    """
    base = CountShoe(shoe=tuple(shoe), tags=tuple(tags), initial_running_count=Fraction(initial_running_count),
                     running_count=Fraction(initial_running_count))  # validates the shoe and the tags
    if not isinstance(seen, int) or isinstance(seen, bool) or not 0 <= seen <= sum(base.shoe):
        raise InvalidShoeError(f"seen must be a whole number from 0 to {sum(base.shoe)}, not {seen!r}")
    classes = base.classes
    ways = subsets_by_sum(classes.totals(base.shoe), classes.values, seen)
    whole = math.comb(sum(base.shoe), seen)
    irc = base.initial_running_count
    return {irc + Fraction(s, classes.scale): Fraction(w, whole) for s, w in sorted(ways.items())}


def true_count_distribution(shoe: Sequence[int], tags: Sequence[Any], seen: int,
                            initial_running_count: Fraction | int = 0,
                            divisor: DeckEstimate | str = DeckEstimate.EXACT,
                            rounding: Rounding | str = Rounding.NONE) -> dict[Fraction, Fraction]:
    """The exact distribution of the true count (:func:`true_count`, by the given conventions)
    after ``seen`` cards from the full ``shoe`` (:func:`running_count_distribution`)."""
    left = sum(shoe) - seen
    out: dict[Fraction, Fraction] = {}
    for rc, p in running_count_distribution(shoe, tags, seen, initial_running_count).items():
        tc = true_count(rc, left, divisor, rounding)
        out[tc] = out.get(tc, Fraction(0)) + p
    return dict(sorted(out.items()))


# -- insurance by count ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class InsuranceIndex:
    """Where insurance turns positive at one depth, for a hand against an ace.

    ``running_count``: the smallest running count (hand and ace included) from which insurance
    is positive at every possible running count above it (``None`` if it never is);
    ``below``: the largest possible running count under it (insurance not positive there);
    ``evs``: insurance's exact EV per unit bet at every possible running count;
    ``monotone``: whether the EV rises with the running count at this depth (then insurance is
    positive exactly at and above ``running_count``)."""

    cards_left: int
    running_count: Fraction | None
    below: Fraction | None
    evs: dict[Fraction, Fraction]
    monotone: bool

    @property
    def true_count(self) -> Fraction | None:
        """The index as a true count: ``running_count`` per deck left, exact (cards left / 52)."""
        return None if self.running_count is None else true_count(self.running_count, self.cards_left)

    @property
    def below_true_count(self) -> Fraction | None:
        return None if self.below is None else true_count(self.below, self.cards_left)

    def to_data(self) -> dict[str, Any]:
        return {"cards_left": self.cards_left, "decks_left": Fraction(self.cards_left, CARDS_PER_DECK),
                "running_count": self.running_count, "true_count": self.true_count,
                "below_running_count": self.below, "below_true_count": self.below_true_count,
                "ev_at_index": None if self.running_count is None else self.evs[self.running_count],
                "ev_below": None if self.below is None else self.evs[self.below],
                "monotone": self.monotone}


@dataclasses.dataclass(frozen=True)
class InsuranceTable:
    """:func:`insurance_index` at several depths, for one count, shoe and hand."""

    system: str
    tags: tuple[Fraction, ...]
    shoe: tuple[int, ...]
    hand: tuple[Rank, ...]  # the cards on the table besides the ace (none: only the ace)
    initial_running_count: Fraction
    rows: tuple[InsuranceIndex, ...]

    @property
    def balanced(self) -> bool:
        """Whether the tags sum to 0 over the shoe."""
        return sum(t * n for t, n in zip(self.tags, self.shoe)) == 0

    def to_data(self) -> dict[str, Any]:
        # the tags are given, not computed: plain numbers (as the count command prints them), no exact mirror
        tags = [self.tags[r] for r in list(range(1, 10)) + [ACE]]
        return {"system": self.system, "tags": [int(t) if t.denominator == 1 else float(t) for t in tags],
                "balanced": self.balanced, "initial_running_count": self.initial_running_count,
                "hand": ",".join(map(str, self.hand)), "up": "A",
                "rows": [row.to_data() for row in self.rows]}


def insurance_index(shoe: Sequence[int], tags: Sequence[Any], hand: str | Sequence[Rank | str | int],
                    cards_left: int, initial_running_count: Fraction | int = 0) -> InsuranceIndex:
    """Insurance for ``hand`` (any number of cards on the table besides the ace; none for an
    index that counts only the ace) against an ace with ``cards_left`` cards unseen, at every
    running count the shoe can produce there, and the smallest running count from which it is
    positive (:class:`InsuranceIndex`); exact.

    >>> row = insurance_index((4,) * 9 + (16,), (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), "T,9", 26)
    >>> row.running_count, row.true_count
    (Fraction(1, 1), Fraction(2, 1))
    """
    return _insurance_rows(tuple(shoe), as_tags(tuple(tags)), as_cards(hand) if hand else (), (cards_left,),
                           Fraction(initial_running_count))[0]


def _insurance_rows(shoe: tuple[int, ...], tags: tuple[Fraction, ...], cards: tuple[Rank, ...],
                    depths: tuple[int, ...], irc: Fraction) -> tuple[InsuranceIndex, ...]:
    # the top of the shoe with the table dealt validates the shoe, the tags and the table
    top = CountShoe(shoe=shoe, tags=tags, hand=cards, up=Rank.ACE, initial_running_count=irc,
                    running_count=irc + sum(tags[c.index] for c in cards + (Rank.ACE,)))
    pool = top.off_table
    if not depths:
        # an empty table would read as "never insure": say why there is no depth instead
        if sum(pool):
            raise InvalidShoeError("cards left: give at least one depth")
        dealt = "the hand and the dealer's ace are" if cards else "the dealer's ace is"
        raise InvalidShoeError(f"shoe {','.join(map(str, shoe))} has no card left once {dealt} dealt: "
                               "no depth to show an insurance index at")
    for cards_left in depths:
        if not isinstance(cards_left, int) or isinstance(cards_left, bool) or not 1 <= cards_left <= sum(pool):
            raise InvalidShoeError(f"cards left must be a whole number from 1 to {sum(pool)} (the cards off the "
                                   f"table), not {cards_left!r}")
    classes = top.classes
    totals = classes.totals(pool)
    ten_class = classes.of_rank[TEN]
    rows = []
    for cards_left in depths:
        seen = sum(pool) - cards_left
        every = subsets_by_sum(totals, classes.values, seen)
        without_ten = subsets_by_sum(_minus(totals, ten_class), classes.values, seen) if pool[TEN] else {}
        evs = {}
        for s, ways in every.items():
            tens = Fraction(pool[TEN] * without_ten.get(s, 0), ways)
            evs[top.running_count + Fraction(s, classes.scale)] = 3 * tens / cards_left - 1
        counts = sorted(evs)
        index = None
        for rc in reversed(counts):
            if evs[rc] <= 0:
                break
            index = rc
        below_counts = [rc for rc in counts if index is None or rc < index]
        below = below_counts[-1] if below_counts else None
        monotone = all(evs[a] <= evs[b] for a, b in zip(counts, counts[1:]))
        rows.append(InsuranceIndex(cards_left, index, below, dict(sorted(evs.items())), monotone))
    return tuple(rows)


def default_depths(cards_off_table: int) -> tuple[int, ...]:
    """The depths an insurance table shows by default, most cards left first: every half deck
    (26, 52, ... cards left), every quarter deck for a shoe of fewer than 104 cards off the
    table, every card for one of fewer than 13.

    >>> default_depths(51), default_depths(10)
    ((39, 26, 13), (10, 9, 8, 7, 6, 5, 4, 3, 2, 1))
    """
    step = 1 if cards_off_table < 13 else 13 if cards_off_table < 104 else 26
    return tuple(range(cards_off_table // step * step, 0, -step))


def insurance_table(shoe: Sequence[int], tags: Sequence[Any], hand: str | Sequence[Rank | str | int],
                    cards_left: Iterable[int] | None = None, initial_running_count: Fraction | int = 0,
                    system: str = "custom") -> InsuranceTable:
    """:func:`insurance_index` at each of ``cards_left`` (default :func:`default_depths`), for
    ``hand`` (two cards, as counters print the table for a hand; none: only the ace counted)."""
    cards = as_cards(hand) if hand else ()
    fixed = counting_tags(tuple(tags) if isinstance(tags, Sequence) else tags)
    if isinstance(shoe, (str, bytes)) or not isinstance(shoe, Sequence):
        raise InvalidShoeError(f"shoe must be ten whole-number counts A..T, each >= 0, not {shoe!r}")
    off = sum(shoe) - len(cards) - 1
    depths = tuple(cards_left) if cards_left is not None else default_depths(off)
    irc = _number(initial_running_count, "initial running count")
    check_initial_running_count(shoe, fixed, irc)
    rows = _insurance_rows(tuple(shoe), fixed, cards, depths, irc)
    return InsuranceTable(system, fixed, tuple(shoe), cards, irc, rows)


@dataclasses.dataclass(frozen=True)
class BestInsuranceIndex:
    """The single true-count index ``w`` of the rule "insure iff TC > w" (exact true count) that
    gains most over rounds dealt evenly at the given depths, each depth's running counts weighted
    by their exact probabilities: every ``w`` in ``[low, high)`` does (``low`` is ``None`` when
    insuring at every count is best; ``high`` is ``None`` when never insuring is).

    ``by_true_count``: insurance's EV times the probability of each true count, averaged over the
    depths (per round with the ace up and the table dealt); :meth:`gain` sums it above ``w``."""

    low: Fraction | None
    high: Fraction | None
    by_true_count: dict[Fraction, Fraction]

    def gain(self, w: Fraction | int | None) -> Fraction:
        """The expected insurance gain per round of "insure iff TC > w" (``None``: at every count)."""
        return sum((g for tc, g in self.by_true_count.items() if w is None or tc > w), Fraction(0))

    @property
    def best_gain(self) -> Fraction:
        return self.gain(self.low) if self.high is not None else Fraction(0)


def best_insurance_index(shoe: Sequence[int], tags: Sequence[Any], hand: str | Sequence[Rank | str | int],
                         cards_left: Iterable[int], initial_running_count: Fraction | int = 0) -> BestInsuranceIndex:
    """The one insurance index (a true count) that gains most over ``cards_left`` depths, the way a
    table of indices averaged over a shoe is made (:class:`BestInsuranceIndex`); exact. The
    running count's probabilities at each depth are :func:`running_count_distribution` of the
    cards off the table, from the running count of the table.

    >>> best = best_insurance_index((4,) * 9 + (16,), (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), "", range(51, 12, -1))
    >>> float(best.low), float(best.high)
    (1.3333333333333333, 1.368421052631579)
    """
    cards = as_cards(hand) if hand else ()
    fixed = as_tags(tuple(tags) if isinstance(tags, Sequence) else tags)
    depths = tuple(cards_left)
    if not depths:
        raise InvalidShoeError("best_insurance_index needs at least one number of cards left")
    irc = Fraction(initial_running_count)
    rows = _insurance_rows(tuple(shoe), fixed, cards, depths, irc)
    table = cards + (Rank.ACE,)
    pool = [n - v for n, v in zip(shoe, _counts(table))]
    start = irc + sum(fixed[c.index] for c in table)
    by: dict[Fraction, Fraction] = {}
    for row in rows:
        seen = sum(pool) - row.cards_left
        for rc, p in running_count_distribution(tuple(pool), fixed, seen, start).items():
            tc = true_count(rc, row.cards_left)
            by[tc] = by.get(tc, Fraction(0)) + p * row.evs[rc] / len(depths)
    counts = sorted(by)
    best, running, at = Fraction(0), Fraction(0), len(counts)  # at: the lowest true count insured
    for i in range(len(counts) - 1, -1, -1):
        running += by[counts[i]]
        if running > best:
            best, at = running, i
    if at == len(counts):
        return BestInsuranceIndex(counts[-1], None, dict(sorted(by.items())))
    return BestInsuranceIndex(counts[at - 1] if at else None, counts[at], dict(sorted(by.items())))


# -- what a counter tells an analysis ----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Counter:
    """What a counter knows, as the commands take it (``--count``, ``--running-count`` or
    ``--true-count``, ``--cards-seen``, ``--irc``): the count system's name, the divisor a true
    count was given with, and :attr:`shoe`, the counter's shoe with this round's visible cards
    on the table. :meth:`for_analysis` is the shoe an :class:`bjcalc.Analysis` deals from."""

    system: str
    shoe: CountShoe
    divisor: DeckEstimate = DeckEstimate.EXACT

    @classmethod
    def of(cls, full_shoe: Sequence[int], system: str, tags: Sequence[Any], cards_seen: int,
           running_count: Fraction | int | str | None = None, true_count: Fraction | int | str | None = None,
           initial_running_count: Fraction | int | str = 0, hand: Sequence[Rank] = (), up: Rank | None = None,
           divisor: DeckEstimate | str = DeckEstimate.EXACT) -> Counter:
        """The counter's state from what they count: ``cards_seen`` cards seen so far and the
        running count of all of them (or the true count: the running count per deck not yet
        seen, by ``divisor``), this round's visible cards (``hand``, ``up``) included in both."""
        estimate: DeckEstimate = _choice(DeckEstimate, divisor, "divisor")
        visible = tuple(hand) + ((up,) if up is not None else ())
        if (running_count is None) == (true_count is None):
            raise InvalidCountError("give the running count or the true count (one of them)")
        if not isinstance(cards_seen, int) or isinstance(cards_seen, bool) or cards_seen < len(visible):
            raise InvalidShoeError(f"cards seen must be a whole number of at least {len(visible)} (this round's "
                                   f"visible cards count among them), not {cards_seen!r}")
        if cards_seen > sum(full_shoe):
            raise InvalidShoeError(f"cards seen ({cards_seen}) cannot be more than the shoe's {sum(full_shoe)} cards")
        start = _number(initial_running_count, "initial running count")
        check_initial_running_count(full_shoe, counting_tags(tags), start)
        if true_count is not None:
            tc = _number(true_count, "true count")
            unseen = sum(full_shoe) - cards_seen
            if not unseen:
                raise InvalidCountError(f"true count {tc} with all {cards_seen} cards seen: no deck is left to divide "
                                        "by; give the running count")
            decks = decks_left(unseen, estimate) if unseen else Fraction(0)
            rc = start + tc * decks
            classes = _classes(as_tags(tags))
            if (rc * classes.scale).denominator != 1:
                raise InvalidCountError(
                    f"true count {tc} at {decks} decks left ({estimate.value} divisor) is running count {rc}, "
                    "which no set of cards makes: give the running count")
        else:
            rc = _number(running_count, "running count")
        shoe = CountShoe(shoe=tuple(full_shoe), tags=as_tags(tags), running_count=rc, seen=cards_seen - len(visible),
                         hand=tuple(hand), up=up, initial_running_count=start)
        return cls(system, shoe, estimate)

    def for_analysis(self) -> CountShoe:
        """The shoe before this round's cards were dealt (:meth:`CountShoe.undealt`)."""
        return self.shoe.undealt()

    @property
    def true_count(self) -> Fraction:
        return true_count(self.shoe.running_count, self.shoe.cards_left, self.divisor)

    def describe(self) -> str:
        """One line for text outputs: the count, the cards seen and what every number assumes."""
        shoe = self.shoe
        seen = shoe.seen + len(shoe.visible)
        tc = self.true_count
        irc = f", IRC {_signed_text(shoe.initial_running_count)}" if shoe.initial_running_count else ""
        return (f"Counter's shoe: {self.system} running count {_signed_text(shoe.running_count)}{irc} after "
                f"{seen} cards seen (this round's {len(shoe.visible)} included), true count {float(tc):+.2f} "
                f"({self.divisor.value} divisor). Every number is for a player who knows the count and the cards "
                "on the table, not the ranks of the discards.")

    def to_data(self) -> dict[str, Any]:
        shoe = self.shoe
        return {
            "system": self.system,
            # plain numbers (a list of exact strings would break the mirror's convention)
            "tags": [int(t) if t.denominator == 1 else float(t) for t in (shoe.tags[r] for r in UP_INDICES)],
            "initial_running_count": shoe.initial_running_count,
            "running_count": shoe.running_count,
            "cards_seen": shoe.seen + len(shoe.visible),
            "cards_left": shoe.cards_left,
            "true_count": self.true_count,
            "divisor": self.divisor.value,
            "on_table": _notation(shoe.visible),
        }


def _number(value: Any, field: str) -> Fraction:
    try:
        return Fraction(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):  # OverflowError: inf
        raise InvalidCountError(f"{field} must be a number such as -4, 2.5 or 1/2, not {value!r}") from None


def _signed_text(value: Fraction) -> str:
    text = str(value)
    return text if value <= 0 else "+" + text
