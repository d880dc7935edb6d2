"""The up-card context: everything about one up card that the player's values need.

The shoe after the up card, the dealer's graph and how deep it can draw, whether the dealer
peeks (and with which rank a blackjack completes), what a dealer blackjack takes of doubled
and split bets, and the dealer batch that evaluates the shoes the hands leave.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bjcalc.cards import ACE, RANK_NOTATION, TEN
from bjcalc.engine.batch import DealerBatch, JointBatch, ShoeIndex
from bjcalc.engine.deal import two_card_hands
from bjcalc.engine.dealer import after_up, compiled_dealer, dealer_depth
from bjcalc.errors import InvalidShoeError
from bjcalc.rules import Loss, Rules

if TYPE_CHECKING:
    from bjcalc.engine.drawmodel import DrawModel


class UpcardContext:
    """One up card (``up``, a rank index) of one analysis: its shoe, dealer and dealer batch."""

    def __init__(
        self, rules: Rules, up: int, exact: bool, index: ShoeIndex | None = None, joint: JointBatch | None = None,
        model: DrawModel | None = None,
    ) -> None:
        """``index``: the shoe index to share with the other up cards of one analysis; ``joint``:
        the dealer pass of every up card on that index, likewise shared. ``model``: the
        shoe is a counter's shoe (:mod:`bjcalc.engine.drawmodel`; its counts are the rules'
        shoe), whose weights every value carries."""
        full = rules.shoe_counts if model is None else model.counts
        if full[up] == 0:
            raise InvalidShoeError(f"up card {RANK_NOTATION[up]!r} is not in the shoe")
        self.rules, self.up, self.exact = rules, up, exact
        # with replacement (the infinite deck) the up card leaves the shoe as it was
        self.replacement = rules.infinite
        self.shoe = full if self.replacement else after_up(full, up)
        self.dealer = compiled_dealer(up, rules.hit_soft_17, rules.dealer_max_cards)
        # at least one draw: a dealer who cannot stop on these cards (four aces) runs out on every deal
        self.depth = max(dealer_depth(up, rules.hit_soft_17, rules.dealer_max_cards, self.shoe, self.replacement), 1)
        self.bj_rank = {ACE: TEN, TEN: ACE}.get(up)
        self.peeked = rules.peek and self.bj_rank is not None
        takes = rules.blackjack_takes
        self.double_loss = 1 if takes.doubles(up) is Loss.ALL else 0
        self.split_loss = 1 if takes.splits(up) is Loss.ALL else 0
        if index is None:
            index = ShoeIndex(self.replacement)
        self.model = model
        # the packed class totals of the up card, drawn before every hand's cards
        self.base = 0 if model is None else int(model.rank_codes()[up])
        # the cards the hands and the dealer draw from (a counter's shoe hides its discards)
        self.cards_left = sum(self.shoe) - (0 if model is None else model.hidden)
        self.batch = DealerBatch(self.dealer, self.shoe, self.depth, exact, index, joint, model, self.base)
        # what stays with the up card for the analysis' lifetime (bjcalc.engine.values):
        # hand graphs' decision-free values, by (graph's key, shoes, loss), and split hands'
        # values by their plays (bjcalc.engine.split)
        self.stacks: dict[tuple, Any] = {}
        self._dealt: list[tuple[tuple[int, ...], Fraction, bool]] | None = None

    def up_probability(self) -> Fraction:
        """P(this up card) off the top of the full shoe (a counter's shoe: with its weights)."""
        full = self.rules.shoe_counts
        p = Fraction(full[self.up], sum(full))
        if self.model is not None:
            p *= self.model.draw_factor(0, tuple(int(r == self.up) for r in range(10)), sum(full))
        return p

    def can_deal(self, out: tuple[int, ...]) -> bool:
        """Whether the cards ``out`` (rank counts, beyond the up card) can be dealt with this up
        card showing: always where the shoe holds them, but a counter's shoe may have a rank's
        cards certainly gone (the state then has probability 0, exactly)."""
        if not self.replacement and any(o > s for o, s in zip(out, self.shoe)):
            return False
        return self.model is None or self.model.can_draw(self.base + self.model.code_of(out))

    def draw_chance(self, out: tuple[int, ...], rank: int, favourable: int | None = None) -> Fraction | float:
        """P(the next card is of ``rank``) once the cards ``out`` (rank counts, beyond the up
        card; none with replacement) were drawn, in the engine's number type (a counter's shoe:
        with its weights). ``favourable``: only that many of the rank's cards count (one face
        of tens); by default all of them left."""
        shoe = self.shoe if self.replacement else tuple(s - o for s, o in zip(self.shoe, out))
        cards = sum(shoe)
        left = shoe[rank] if favourable is None else favourable
        if left <= 0 or cards == 0:
            return Fraction(0) if self.exact else 0.0
        model = self.model
        if model is None:
            return Fraction(left, cards) if self.exact else left / cards
        card = tuple(int(r == rank) for r in range(10))
        before = self.base + model.code_of(out)
        if self.exact:
            return Fraction(left, cards) * model.draw_factor(before, card, cards)
        return left / cards * model.float_draw_factor(before, card, cards)

    def dealt_hands(self) -> list[tuple[tuple[int, ...], Fraction, bool]]:
        """:func:`bjcalc.engine.deal.two_card_hands` from this up card's shoe: every two-card hand,
        P(hand | up card) (a counter's shoe: with its weights) and whether it may split. Kept:
        every policy walked on the context deals the same hands (read it, do not change it)."""
        if self._dealt is None:
            hands = two_card_hands(self.shoe, self.rules, self.up)
            if self.model is not None:
                cards, model = sum(self.shoe), self.model
                hands = [(counts, p * model.draw_factor(self.base, counts, cards), same) for counts, p, same in hands]
            self._dealt = hands
        return self._dealt
