"""The EV matrix's batched win/push/loss walk (bjcalc.engine.chances: one backward pass per up
card over every hand) against a straightforward per-cell reference written here from the
rules: the player's draws followed card by card from the cards left (hit or stand as the
engine's CD play decides, Analysis.cd_hits), and each final hand met by the dealer's outcome
distribution enumerated recursively from the shoe it leaves (the hole card one of those
cards). Exact arithmetic, tiny shoes, every cell whose best play is stand, hit or double."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bjcalc import Action, Analysis, Rank, Rules
from bjcalc.matrix import ev_matrix
from bjcalc.numbers import to_fraction

INFINITE = float("inf")
GAMES = {
    "peek, S17": Rules(shoe=(2, 2, 2, 2, 2, 2, 2, 2, 2, 8), split_hands=1, surrender="late"),
    "no hole card, H17, charlie": Rules(shoe=(1, 2, 2, 2, 2, 3, 2, 2, 2, 7), split_hands=1, hole_card="none",
                                        hit_soft_17=True, charlie=4, blackjack_takes="original"),
    "card limits": Rules(shoe=(2, 3, 2, 2, 2, 2, 2, 2, 2, 8), split_hands=1, player_max_cards=4, dealer_max_cards=4,
                         double="9-11"),
    "infinite deck": Rules(decks=INFINITE, split_hands=1, hit_soft_17=True),
}


def _total(cards: tuple[int, ...]) -> tuple[int, bool]:
    """Best total and softness of rank counts (index 0 = ace, 9 = ten)."""
    hard = sum(n * (r + 1) for r, n in enumerate(cards))
    soft = cards[0] > 0 and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


def _add(cards: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return cards[:rank] + (cards[rank] + 1,) + cards[rank + 1 :]


class Reference:
    """The rules' round, one cell at a time."""

    def __init__(self, rules: Rules, analysis: Analysis) -> None:
        self.rules, self.analysis = rules, analysis
        self.replace = rules.infinite
        self._dealer: dict[tuple, dict] = {}  # by (shoe, up card, cards drawn)
        self._drawn: dict[tuple, tuple[Fraction, ...]] = {}  # by draw's arguments

    def draws(self, shoe: tuple[int, ...]):
        """(rank, P(next card), shoe after it) for every rank left."""
        n = sum(shoe)
        for rank, left in enumerate(shoe):
            if left:
                yield rank, Fraction(left, n), shoe if self.replace else shoe[:rank] + (left - 1,) + shoe[rank + 1 :]

    def dealer(self, shoe: tuple[int, ...], up: int, drawn: tuple[int, ...] = (0,) * 10) -> dict:
        """The dealer's final outcome ("bj", "bust" or a total) with ``up`` showing and the cards
        ``drawn`` beyond it, drawing from ``shoe``."""
        key = (shoe, up, drawn)
        if key not in self._dealer:
            self._dealer[key] = self._dealer_from(shoe, up, drawn)
        return self._dealer[key]

    def _dealer_from(self, shoe: tuple[int, ...], up: int, drawn: tuple[int, ...]) -> dict:
        held = _add(drawn, up)
        total, soft = _total(held)
        n_cards = sum(held)
        if n_cards == 2 and total == 21:
            return {"bj": Fraction(1)}
        if total > 21:
            return {"bust": Fraction(1)}
        limit = self.rules.dealer_max_cards
        if n_cards >= 2 and (total > 17 or (total == 17 and not (soft and self.rules.hit_soft_17))
                             or (limit is not None and n_cards >= limit)):
            return {total: Fraction(1)}
        out: dict = {}
        for rank, p, after in self.draws(shoe):
            for outcome, q in self.dealer(after, up, _add(drawn, rank)).items():
                out[outcome] = out.get(outcome, 0) + p * q
        return out

    def stand(self, shoe: tuple[int, ...], up: int, hand: tuple[int, ...]) -> tuple[Fraction, ...]:
        """(win, push, loss without a dealer blackjack, dealer blackjack), standing on ``hand``."""
        total, _ = _total(hand)
        charlie = self.rules.charlie is not None and sum(hand) >= self.rules.charlie
        w = p = lo = bj = Fraction(0)
        for outcome, q in self.dealer(shoe, up).items():
            if outcome == "bj":
                bj += q
            elif outcome == "bust" or charlie or total > outcome:
                w += q
            elif total == outcome:
                p += q
            else:
                lo += q
        return w, p, lo, bj

    def draw(self, shoe: tuple[int, ...], up: int, hand: tuple[int, ...], play_on: bool) -> tuple[Fraction, ...]:
        """One card, then stand (a double) or play on as the engine's CD play decides."""
        key = (shoe, up, hand, play_on)
        if key not in self._drawn:
            self._drawn[key] = self._draw(shoe, up, hand, play_on)
        return self._drawn[key]

    def _draw(self, shoe: tuple[int, ...], up: int, hand: tuple[int, ...], play_on: bool) -> tuple[Fraction, ...]:
        sums = [Fraction(0)] * 4
        for rank, p, after in self.draws(shoe):
            child = _add(hand, rank)
            if _total(child)[0] > 21:  # lost, whatever the dealer holds: split by the hole card
                bj_rank = {0: 9, 9: 0}.get(up)
                bj = Fraction(0) if bj_rank is None else Fraction(after[bj_rank], sum(after))
                part = (Fraction(0), Fraction(0), 1 - bj, bj)
            elif play_on and self.analysis.cd_hits(_cards(child), Rank.from_index(up)):
                part = self.draw(after, up, child, True)
            else:
                part = self.stand(after, up, child)
            sums = [s + p * x for s, x in zip(sums, part, strict=True)]
        return tuple(sums)

    def chances(self, cell) -> tuple[Fraction, Fraction, Fraction]:
        """The cell's win, push and loss in its frame."""
        up = cell.up.index
        hand = tuple(sum(1 for c in cell.hand.cards if c.index == r) for r in range(10))
        shoe = self.rules.shoe_counts
        if not self.replace:
            shoe = tuple(s - h - (r == up) for r, (s, h) in enumerate(zip(shoe, hand, strict=True)))
        if cell.best is Action.STAND:
            w, p, lo, bj = self.stand(shoe, up, hand)
        else:
            w, p, lo, bj = self.draw(shoe, up, hand, play_on=cell.best is Action.HIT)
        if cell.frame == "conditioned":
            kept = w + p + lo
            return w / kept, p / kept, lo / kept
        return w, p, lo + bj


def _cards(counts: tuple[int, ...]) -> list[Rank]:
    return [Rank.from_index(r) for r in range(10) for _ in range(counts[r])]


@pytest.mark.parametrize("name", list(GAMES))
def test_the_batched_walk_is_the_per_cell_reference(name):
    rules = GAMES[name]
    analysis = Analysis(rules, exact=True)
    matrix = ev_matrix(analysis)
    reference = Reference(rules, analysis)
    # every up card of the infinite deck; of a finite shoe (whose every final hand leaves its
    # own shoe for the dealer) a low card, a high one and the two that can make a blackjack
    ups = "23456789TA" if rules.infinite else "27TA"
    checked = set()
    for cell in matrix.cells:
        if str(cell.up) not in ups or cell.hand.is_blackjack or cell.best not in (Action.STAND, Action.HIT,
                                                                                  Action.DOUBLE):
            continue
        got = tuple(to_fraction(x) for x in (cell.chances.win, cell.chances.push, cell.chances.loss))
        assert got == reference.chances(cell), (name, cell.label, str(cell.up), cell.best)
        checked.add(cell.best)
    assert checked == {Action.STAND, Action.HIT, Action.DOUBLE}
