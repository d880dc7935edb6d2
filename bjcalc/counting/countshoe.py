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
import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bjcalc.arguments import checked, shown
from bjcalc.cards import RANK_NOTATION, TEN, UP_INDICES, Rank, as_cards
from bjcalc.counting.tags import (
    RUNNING_COUNT_LIMIT,
    DeckEstimate,
    InvalidCountError,
    Rounding,
    TagClasses,
    _choice,
    _classes,
    _scaled,
    _signed_text,
    _sum_bounds,
    _ways,
    as_tags,
    check_initial_running_count,
    count_value,
    counting_tags,
    decks_left,
    subsets_by_sum,
    true_count,
)
from bjcalc.errors import CardNotInShoeError, InvalidHandError, InvalidShoeError

if TYPE_CHECKING:
    from bjcalc.engine.door import DrawModel


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
        _check_shoe(shoe, "shoe")
        set_ = functools.partial(object.__setattr__, self)
        set_("shoe", tuple(shoe))
        set_("tags", as_tags(self.tags))
        for field in ("running_count", "initial_running_count"):
            value = getattr(self, field)
            if type(value) is not Fraction or abs(value) > RUNNING_COUNT_LIMIT:  # (a Fraction in range: as it is)
                set_(field, count_value(value, field))
        set_("hand", _table_cards(self.hand, "hand"))
        set_("others", _table_cards(self.others, "others"))
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
            start = f" from initial_running_count {self.initial_running_count}" if self.initial_running_count else ""
            raise InvalidCountError(
                f"running_count {self.running_count}{start} cannot be reached with {self.seen} cards seen "
                f"and {_notation(self.visible) or 'no cards'} on the table (probability 0)")

    @classmethod
    @checked
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
        seen = as_cards(cards) if cards or not isinstance(cards, (str, Sequence)) else ()  # None, 0: refused
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
        # no cards ("" or ()) is the empty draw; None or 0 is not cards (as_cards refuses it)
        return _counts(as_cards(cards)) if cards or not isinstance(cards, (str, Sequence)) else (0,) * 10


def _check_shoe(shoe: Any, name: str) -> None:
    """Refuse a ``shoe`` that is not ten whole-number counts (aces first), each at least 0."""
    if (isinstance(shoe, (str, bytes)) or not isinstance(shoe, Sequence) or len(shoe) != 10
            or any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in shoe)):
        raise InvalidShoeError(f"{name} must be ten whole-number counts A..T, each >= 0, not {shown(shoe)}")


def _table_cards(cards: Any, name: str) -> tuple[Rank, ...]:
    """Cards on the table as text (``"T,6"``; ``""``: none) or a sequence of cards (``()``: none);
    ``None`` or a number is refused, naming ``name``."""
    if not isinstance(cards, (str, Sequence)):
        raise InvalidHandError(f"{name} must be cards as text like 'T,6' or a sequence of cards, not {shown(cards)}")
    return as_cards(cards) if cards else ()


def _minus(totals: tuple[int, ...], j: int) -> tuple[int, ...]:
    return totals[:j] + (totals[j] - 1,) + totals[j + 1:]


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
    # the initial running count is an offset here (any, within what a shoe can reach: the
    # distribution of IRC + the tag sum); the callers that take a user's IRC refuse one on a
    # balanced count (check_initial_running_count)
    _check_shoe(shoe, "shoe")
    tags = as_tags(tags)
    initial_running_count = count_value(initial_running_count, "initial_running_count")
    _scaled(initial_running_count, _classes(tags).scale, "initial_running_count")
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
    after ``seen`` cards from the full ``shoe`` (:func:`running_count_distribution`). An initial
    running count is for an unbalanced count, within what the shoe's cards produce (it would
    shift a balanced count's true counts)."""
    _check_shoe(shoe, "shoe")
    tags = as_tags(tags)
    start = count_value(initial_running_count, "initial_running_count")
    check_initial_running_count(shoe, tags, start, "initial_running_count (IRC)")
    divisor = _choice(DeckEstimate, divisor, "divisor")
    rounding = _choice(Rounding, rounding, "rounding")
    out: dict[Fraction, Fraction] = {}
    distribution = running_count_distribution(shoe, tags, seen, start)
    left = sum(shoe) - seen
    for rc, p in distribution.items():
        tc = true_count(rc, left, divisor, rounding)
        out[tc] = out.get(tc, Fraction(0)) + p
    return dict(sorted(out.items()))


# -- what a counter tells an analysis ----------------------------------------------------------


def _check_system_name(system: Any) -> None:
    """A count system's name as it is shown: any text but empty (``custom`` for one's own tags)."""
    if not isinstance(system, str) or not system.strip():
        raise InvalidCountError(f"system must be the count's name (text such as 'hi-lo'), not {shown(system)}")


@dataclasses.dataclass(frozen=True)
class Counter:
    """What a counter knows, as the commands take it (``--count``, ``--running-count`` or
    ``--true-count``, ``--cards-seen``, ``--irc``): the count system's name, the divisor a true
    count was given with, and :attr:`shoe`, the counter's shoe with this round's visible cards
    on the table. :meth:`for_analysis` is the shoe an :class:`bjcalc.Analysis` deals from."""

    system: str
    shoe: CountShoe
    divisor: DeckEstimate = DeckEstimate.EXACT

    def __post_init__(self) -> None:
        _check_system_name(self.system)
        if not isinstance(self.shoe, CountShoe):
            raise InvalidCountError(f"shoe must be a CountShoe, not {shown(self.shoe)}")
        object.__setattr__(self, "divisor", _choice(DeckEstimate, self.divisor, "divisor"))

    @classmethod
    def of(cls, full_shoe: Sequence[int], system: str, tags: Sequence[Any], cards_seen: int,
           running_count: Fraction | int | str | None = None, true_count: Fraction | int | str | None = None,
           initial_running_count: Fraction | int | str = 0, hand: Sequence[Rank] = (), up: Rank | None = None,
           divisor: DeckEstimate | str = DeckEstimate.EXACT) -> Counter:
        """The counter's state from what they count: ``cards_seen`` cards seen so far and the
        running count of all of them (or the true count: the running count per deck not yet
        seen, by ``divisor``), this round's visible cards (``hand``, ``up``) included in both."""
        _check_shoe(full_shoe, "full_shoe")
        _check_system_name(system)
        estimate: DeckEstimate = _choice(DeckEstimate, divisor, "divisor")
        hand = _table_cards(hand, "hand")
        visible = tuple(hand) + ((up,) if up is not None else ())
        if (running_count is None) == (true_count is None):
            raise InvalidCountError("give the running count or the true count (one of them)")
        if not isinstance(cards_seen, int) or isinstance(cards_seen, bool) or cards_seen < len(visible):
            raise InvalidShoeError(f"cards seen must be a whole number of at least {len(visible)} (this round's "
                                   f"visible cards count among them), not {cards_seen!r}")
        if cards_seen > sum(full_shoe):
            raise InvalidShoeError(f"cards seen ({cards_seen}) cannot be more than the shoe's {sum(full_shoe)} cards")
        start = count_value(initial_running_count, "initial running count")
        check_initial_running_count(full_shoe, counting_tags(tags), start)
        if true_count is not None:
            tc = count_value(true_count, "true count")
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
            rc = count_value(running_count, "running count")
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
