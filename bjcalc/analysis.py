"""The library's front door: dealer tables and per-hand EVs for a rule set.

>>> from bjcalc import Analysis, Rules
>>> a = Analysis(Rules(decks=1, hit_soft_17=True), exact=True)
>>> r = a.hand("5,T", "T")
>>> r.conditioned, r.best
(True, Action.HIT)
>>> round(float(r.evs[Action.STAND]), 6)
-0.538433
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import ACE, TEN, Rank, counts_total, parse_card, parse_cards
from bjcalc.dealer import BLACKJACK, BUST, compiled_dealer, max_draws, outcome_numerators
from bjcalc.errors import InvalidHandError, InvalidShoeError
from bjcalc.numbers import Number, constant, ratio
from bjcalc.player import UnsplitTable, unsplit_table
from bjcalc.rules import Rules, Surrender
from bjcalc.shoe import Shoe

OUTCOME_NAMES = {BUST: "bust", BLACKJACK: "blackjack"}


def outcome_name(outcome: int) -> str:
    return OUTCOME_NAMES.get(outcome, str(outcome))


@dataclasses.dataclass(frozen=True)
class HandResult:
    """EVs of every available action for one hand against one up card.

    ``evs`` are in units of the initial bet, assuming composition-dependent optimal play after
    the first decision (strategy ``"CD"``). They are conditioned on the dealer not having
    blackjack when ``conditioned`` is true (a peeking dealer with an A or T up), otherwise
    unconditional. ``insurance`` is the EV per unit of insurance bet and ``even_money`` the
    value of taking even money; both are decided before the peek and are unconditional.
    """

    cards: tuple[Rank, ...]
    up: Rank
    evs: dict[Action, Number]
    conditioned: bool
    dealer_blackjack: Number
    insurance: Number | None = None
    even_money: Number | None = None
    strategy: str = "CD"

    @property
    def ranked(self) -> list[tuple[Action, Number]]:
        """Actions and EVs, best first."""
        return sorted(self.evs.items(), key=lambda item: -item[1])

    @property
    def best(self) -> Action:
        return self.ranked[0][0]

    @property
    def is_blackjack(self) -> bool:
        return sorted(c.index for c in self.cards) == [ACE, TEN]


def _cards(cards: str | Sequence[Rank | str]) -> tuple[Rank, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(c if isinstance(c, Rank) else parse_card(c) for c in cards)


def _up(up: Rank | str) -> Rank:
    return up if isinstance(up, Rank) else parse_card(up)


class Analysis:
    """Exact or float analysis of one rule set; results are computed on demand and cached.

    In exact mode every number handed out is a ``sympy.Rational``; otherwise a ``float``.
    """

    def __init__(self, rules: Rules, *, exact: bool = False) -> None:
        self.rules = rules
        self.exact = exact
        self.shoe = Shoe(rules.shoe_counts)
        self._tables: dict[int, UnsplitTable] = {}

    def table(self, up: int) -> UnsplitTable:
        """The unsplit values of every hand against up card index ``up`` (cached)."""
        if up not in self._tables:
            self.shoe.remove([up])
            self._tables[up] = unsplit_table(self.rules, up, self.exact)
        return self._tables[up]

    def dealer(self, up: Rank | str, *, peeked: bool = False, removed: str | Sequence[Rank] = ()) -> dict[str, Number]:
        """Dealer final-outcome probabilities with ``up`` showing.

        Before the peek by default (``blackjack`` included); ``peeked=True`` conditions on no
        dealer blackjack. ``removed`` are further cards known to be out of the shoe.
        """
        up_rank = _up(up)
        gone = _cards(removed) if removed else ()
        shoe = self.shoe.remove((up_rank,) + gone)
        extra = self.shoe.remove([up_rank]).counts
        row = np.array([[a - b for a, b in zip(extra, shoe.counts)]], dtype=np.int64)
        after_up = self.shoe.remove([up_rank]).counts
        dealer = compiled_dealer(up_rank.index, self.rules.hit_soft_17, self.rules.dealer_max_cards)
        depth = max_draws(dealer, shoe.counts)
        if depth > len(shoe):
            raise InvalidShoeError(f"shoe {self.shoe.notation()} is too small for the dealer to finish")
        numerators, denominators = outcome_numerators(dealer, after_up, row, depth, self.exact)
        # a card limit adds stopping states below 17; keep only those this shoe can reach
        values = {o: v[0] for o, v in numerators.items() if o >= 17 or v[0] != 0}
        total = denominators[0]
        for always_shown in (BUST, BLACKJACK):
            values.setdefault(always_shown, total * 0)
        if peeked:
            total = total - values.pop(BLACKJACK)
            if total == 0:
                raise InvalidShoeError("the dealer always has blackjack with this shoe and up card")
        ordered = sorted(values, key=lambda o: (o > 21, o))
        return {outcome_name(o): ratio(values[o], total, self.exact) for o in ordered}

    def insurance(self, up: Rank | str = "A", removed: str | Sequence[Rank] = ()) -> Number:
        """EV of insurance per unit of insurance bet, with ``up`` (an ace) and ``removed`` out.

        Off the top (nothing removed) it is ``(2 tens - others) / remaining``.
        """
        up_rank = _up(up)
        if up_rank.index != ACE:
            raise InvalidHandError(f"insurance is offered only against an ace up, not {str(up_rank)!r}")
        left = self.shoe.remove((up_rank,) + (_cards(removed) if removed else ()))
        tens, n = left.counts[TEN], len(left)
        return constant(Fraction(2 * tens - (n - tens), n), self.exact)

    def hand(self, cards: str | Sequence[Rank | str], up: Rank | str) -> HandResult:
        """EVs of every action the rules allow for ``cards`` against ``up``."""
        hand = _cards(cards)
        up_rank = _up(up)
        if len(hand) < 2:
            raise InvalidHandError(f"a hand needs at least two cards, not {len(hand)}")
        counts = tuple(sum(1 for c in hand if c.index == r) for r in range(10))
        total, soft = counts_total(counts)
        notation = ",".join(str(c) for c in hand)
        if total > 21:
            raise InvalidHandError(f"hand {notation!r} is already over 21 ({total})")
        self.shoe.remove((up_rank,) + hand)
        rules = self.rules
        table = self.table(up_rank.index)
        where = table.layers.index.get(counts)
        if where is None:
            raise InvalidHandError(f"hand {notation!r} has more cards than the rules allow")
        layer, row = where
        scale = table.scale[layer]
        bj = table.blackjack[layer][row]
        initial = len(hand) == 2
        early = initial and rules.surrender is Surrender.EARLY
        conditioned = table.peeked and not early
        if conditioned and scale == bj:
            raise InvalidShoeError("the dealer always has blackjack with this shoe and up card")

        def ev(numerator: object) -> Number:
            if conditioned:
                return ratio(numerator, scale - bj, self.exact)
            if table.peeked:  # early surrender frame: a dealer blackjack takes the original bet
                return ratio(numerator - bj, scale, self.exact)
            return ratio(numerator, scale, self.exact)

        evs: dict[Action, Number] = {}
        p_blackjack = ratio(bj, scale, self.exact)
        natural = initial and counts[ACE] == 1 and counts[TEN] == 1
        if natural:
            pays = rules.blackjack_pays
            no_bj = 1 - p_blackjack
            evs[Action.STAND] = constant(pays, self.exact) * (1 if conditioned else no_bj)
        else:
            evs[Action.STAND] = ev(table.stand[layer][row])
        # a blackjack is paid at once; hitting or doubling it (as a soft 21) is shown for
        # information, as other analysers do, and is never the best play
        if table.can_hit[layer]:
            evs[Action.HIT] = ev(table.hit[layer][row])
        if (
            initial
            and table.can_hit[layer]
            and rules.double.allows_total(total)
            and (rules.double_soft or not soft)
        ):
            evs[Action.DOUBLE] = ev(table.double[row])
        if not natural:
            if initial and rules.surrender is not Surrender.NONE:
                half = Fraction(-1, 2)
                if rules.surrender is Surrender.EARLY or conditioned:
                    evs[Action.SURRENDER] = constant(half, self.exact)
                else:  # late, no hole card: a dealer blackjack still takes the whole bet
                    evs[Action.SURRENDER] = (
                        constant(half, self.exact) * (1 - p_blackjack) - p_blackjack
                    )
        insurance = even_money = None
        if up_rank.index == ACE and rules.insurance:
            insurance = self.insurance(up_rank, hand)
            if initial and counts[ACE] == 1 and counts[TEN] == 1:
                even_money = constant(1, self.exact)
        return HandResult(
            cards=hand,
            up=up_rank,
            evs=evs,
            conditioned=conditioned,
            dealer_blackjack=p_blackjack,
            insurance=insurance,
            even_money=even_money,
        )
