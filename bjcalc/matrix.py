"""The whole EV matrix: every two-card hand against every up card, each action's EV, the best
play, its frame, how likely the deal is, and the chances of winning, pushing and losing.

>>> from bjcalc import Analysis, Rules
>>> m = ev_matrix(Analysis(Rules(shoe=(2,) * 9 + (8,), split_hands=1), exact=True))
>>> sum(cell.probability for cell in m.cells)
1
>>> cell = m.cell("T,6", "T")
>>> cell.best, cell.frame, cell.hand.evs[Action.STAND] == Analysis(m.rules, exact=True).hand("T,6", "T").evs["S"]
(Action.HIT, 'conditioned', True)

Each cell's EVs are :meth:`bjcalc.Analysis.hand`'s, in its frame: conditioned on no dealer
blackjack against a peeking dealer's A or T (early surrender: unconditional), else
unconditional. ``probability`` is P(up card and this hand), unconditional.

Win, push and loss (the result of the best play > 0, = 0, < 0) are exact where the best play
is stand, hit, double or surrender, and for naturals: the player's draws are followed one card
at a time, each from the cards left (the hole card is one of them: the cards are exchangeable),
hit or stand as the CD play behind the EVs decides, and each final hand meets the dealer's
outcomes for the shoe it leaves (:meth:`bjcalc.Analysis.dealer`, blackjack included). A split
into two hands (no resplit possible) is exact too, the total of both hands against the dealer
(:func:`bjcalc.engine.moments.split_chances`). Where a split could resplit they are not
computed (``None``): three or four hands' joint result is out of reach. The round's win, push
and loss are exact over every round in which no resplit happens (for such a split, the rounds
where neither hand's second card is a pair card are enumerated the same way), and the
probability of a round in which a resplit happens is given beside them (``split``, 0 where
none can).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Generic

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.cards import TEN, Rank, as_cards, parse_card
from bjcalc.engine.chances import HandChances, hand_chances
from bjcalc.engine.codes import Code
from bjcalc.engine.payout import Frame, reframe
from bjcalc.errors import InvalidRulesError
from bjcalc.numbers import to_api, to_fraction
from bjcalc.results import UP_ORDER, HandResult, N, RoundResult, Strategy, _Data

Number = Fraction | float  # the walk's numbers: Fraction in exact mode, float otherwise

OUTCOMES_NOTE = (
    "win/push/loss: the chance that the best play's result is > 0, = 0, < 0 (a split: both hands' total), exact, "
    "in the cell's frame; not computed where the best play is a split that could resplit. The round's are "
    "unconditional, over the rounds in which no resplit happens (split: the chance of a round in which one does, "
    "not broken down; a dealer blackjack found by the peek before a split counts as a loss)."
)


@dataclasses.dataclass(frozen=True)
class Chances(Generic[N]):
    """P(result > 0), P(result = 0), P(result < 0), summing to 1 (with ``split``, for the round)."""

    win: N
    push: N
    loss: N


@dataclasses.dataclass(frozen=True)
class MatrixCell(_Data, Generic[N]):
    """One two-card hand against one up card: :meth:`Analysis.hand`'s result, P(up card and
    this hand), and the best play's win/push/loss in the hand's frame (``None`` for a split)."""

    hand: HandResult[N]
    same_face: bool  # False: two tens of unlike faces, where those may not be split
    probability: N
    chances: Chances[N] | None

    @property
    def up(self) -> Rank:
        return self.hand.up

    @property
    def cards(self) -> str:
        """``A,7``; ``T,T`` for both pairs of tens (``same_face`` tells them apart)."""
        return ",".join(map(str, self.hand.cards))

    @property
    def label(self) -> str:
        """The row name tables print: ``T,T (unlike)`` for unlike tens that may not split."""
        return self.cards + ("" if self.same_face else " (unlike)")

    @property
    def best(self) -> Action:
        return self.hand.best

    @property
    def frame(self) -> str:
        return self.hand.frame

    @property
    def best_unconditional(self) -> N:
        """The best play's EV, unconditional: the number the round adds up. A conditioned EV
        is E[result | no dealer blackjack]; the dealer's blackjack takes the bet of every hand
        but a natural, which pushes."""
        ev = self.hand.evs[self.best]
        if not self.hand.conditioned:
            return ev
        pushes = self.hand.is_blackjack
        return reframe(ev, self.hand.dealer_blackjack, Frame.CONDITIONED, Frame.UNCONDITIONAL, 0 if pushes else -1)  # type: ignore[no-any-return]

    @property
    def run_out(self) -> N | None:
        """On a shoe dealt to its last cards: the chance that the best play's deal runs out
        (void; in the hand's frame), else ``None``."""
        run_out = self.hand.run_out
        return None if run_out is None or self.best not in run_out else run_out[self.best].probability

    def to_data(self) -> dict[str, Any]:
        hand = self.hand
        out: dict[str, Any] = {"hand": self.cards, "same_face": self.same_face, "up": str(hand.up),
                               "probability": self.probability}
        for action in Action:
            out[action.key] = hand.evs.get(action)
        chances = self.chances
        out.update({
            "best": self.best.key, "frame": self.frame, "best_unconditional": self.best_unconditional,
            "dealer_blackjack": hand.dealer_blackjack,
            "win": None if chances is None else chances.win,
            "push": None if chances is None else chances.push,
            "loss": None if chances is None else chances.loss,
        })
        if hand.run_out is not None:
            out["run_out"] = self.run_out
        return out


@dataclasses.dataclass(frozen=True)
class EvMatrix(_Data, Generic[N]):
    """Every two-card hand x every up card the shoe holds (chart order 2..9, T, A; hands A,A
    to T,T), the round with CD play (:meth:`Analysis.round`) and its win/push/loss over the
    rounds whose best play is not a split (``split``: the chance of one that is)."""

    rules: Any
    cells: tuple[MatrixCell[N], ...]
    round: RoundResult[N]
    chances: Chances[N]
    split: N
    exact: bool

    @property
    def strategy(self) -> Strategy:
        return self.round.strategy

    @property
    def may_run_out(self) -> bool:
        """Whether some cell's deal can run out of cards (the cells then carry ``run_out``)."""
        return any(cell.hand.run_out is not None for cell in self.cells)

    @property
    def ups(self) -> list[Rank]:
        return list(dict.fromkeys(cell.up for cell in self.cells))

    def cell(self, cards: str, up: Rank | str, same_face: bool = True) -> MatrixCell[N]:
        """The cell of ``cards`` (``"T,6"``, any order) against ``up``."""
        wanted = sorted(c.index for c in as_cards(cards))
        up_rank = parse_card(up)
        for cell in self.cells:
            if cell.up is up_rank and sorted(c.index for c in cell.hand.cards) == wanted \
                    and cell.same_face == (same_face or not _tens(wanted)):
                return cell
        raise KeyError(f"{cards} v {up}")

    def to_data(self) -> dict[str, Any]:
        result = self.round
        return {
            "strategy": self.strategy.to_dict(),
            "round": {"frame": "unconditional", "ev": result.ev, "house_edge": result.house_edge,
                      "house_edge_percent": 100 * result.house_edge,  # type: ignore[operator]
                      "win": self.chances.win, "push": self.chances.push, "loss": self.chances.loss,
                      "split": self.split,
                      **({} if result.run_out is None else {"run_out": result.run_out.to_data()})},
            "outcomes_note": OUTCOMES_NOTE,
            "cells": [cell.to_data() for cell in self.cells],
        }


def _tens(indices: Sequence[int]) -> bool:
    return list(indices) == [TEN, TEN]


def ev_matrix(analysis: Analysis[Any], progress: Callable[[str, int], None] | None = None) -> EvMatrix[Any]:
    """Every two-card hand against every up card, through :meth:`Analysis.hand`; see the
    module's docstring for what each number means. ``progress(name, steps)`` hears of the
    round and then of each up card as its hands begin."""
    if not isinstance(analysis, Analysis):
        raise InvalidRulesError(f"analysis must be a bjcalc Analysis, not {analysis!r}")
    rules, exact = analysis.rules, analysis.exact
    plays = analysis.plays([Rank(up) for up in UP_ORDER])
    ups = list(dict.fromkeys(play.up for play in plays))
    round_ = analysis.round()
    if progress is not None:
        progress("the round", len(ups) + 1)
    walk = _Walk(analysis)
    cells: list[MatrixCell[Any]] = []
    zero = Fraction(0) if exact else 0.0
    win = push = loss = split = zero
    for i, play in enumerate(plays):
        if progress is not None and i and play.up != plays[i - 1].up:
            progress(f"up card {plays[i - 1].up.value}", len(ups) + 1)
        counts = tuple(sum(1 for c in play.cards if c.index == r) for r in range(10))
        hand = analysis.hand(["K", "Q"] if not play.same_face else list(play.cards), play.up)
        weight: Number = to_fraction(play.probability) if exact else play.probability
        chances, parts = walk.cell(hand, counts)
        win, push, loss = win + weight * parts[0], push + weight * parts[1], loss + weight * parts[2]
        split += weight * parts[3]
        cells.append(MatrixCell(hand, play.same_face, play.probability, chances))
    if progress is not None and plays:
        progress(f"up card {plays[-1].up.value}", len(ups) + 1)
    api = lambda x: to_api(x, exact)  # noqa: E731
    return EvMatrix(rules, tuple(cells), round_, Chances(api(win), api(push), api(loss)), api(split), exact)


def _number(value: Any, exact: bool) -> Number:
    return to_fraction(value) if exact else float(value)


class _Walk:
    """The best play's win/push/loss for a hand: the player's draws card by card, hit or stand
    as the engine's CD play decides, and the dealer's outcomes for each final hand's shoe.

    Every probability is joint with the dealer's outcome, blackjack included (the hole card is
    a card left in the shoe when the player draws); a conditioned frame divides by P(no dealer
    blackjack) at the end. Every hand of an up card is worked out in one pass, at its first
    cell (:mod:`bjcalc.engine.chances`)."""

    def __init__(self, analysis: Analysis[Any]) -> None:
        self.analysis = analysis
        self.rules = analysis.rules
        self.exact = analysis.exact
        self._chances: dict[int, HandChances] = {}

    def chances(self, hand: HandResult[Any], counts: tuple[int, ...]) -> Chances[Any]:
        exact = self.exact
        up = hand.up.index
        one: Number = Fraction(1) if exact else 1.0
        zero = one * 0
        p_bj = _number(hand.dealer_blackjack, exact)
        if hand.is_blackjack:  # paid unless the dealer has blackjack too, a push
            w, p, lo = one, zero, zero
            if not hand.conditioned:
                w = reframe(w, p_bj, Frame.CONDITIONED, Frame.UNCONDITIONAL, at_blackjack=0)
                p = reframe(p, p_bj, Frame.CONDITIONED, Frame.UNCONDITIONAL, at_blackjack=1)
        elif hand.best is Action.SURRENDER:  # -1/2, or -1 against a dealer blackjack
            w, p, lo = zero, zero, one
        else:
            play = {Action.STAND: Code.STAND, Action.DOUBLE: Code.DOUBLE}.get(hand.best, Code.HIT)
            joint = self._joint(up, counts, play)
            w, p, lo, bj = joint
            if hand.conditioned:  # over P(no dealer blackjack): a deal that runs out is in none of the three
                kept = w + p + lo if hand.run_out is None else one - bj  # the same where none can (to the bit)
                w, p, lo = w / kept, p / kept, lo / kept
            else:
                lo = lo + bj
        return Chances(to_api(w, exact), to_api(p, exact), to_api(lo, exact))

    def cell(self, hand: HandResult[Any], counts: tuple[int, ...]) -> tuple[Chances[Any] | None, tuple[Number, ...]]:
        """A cell's chances (in its frame; ``None`` for a split that could resplit) and what it
        adds to the round's: (win, push, loss, not broken down), unconditional. A dealer
        blackjack found by the peek is a loss, or a push against a natural."""
        exact = self.exact
        p_bj = _number(hand.dealer_blackjack, exact)
        before = p_bj if hand.conditioned else p_bj * 0
        if hand.best is not Action.SPLIT:
            chances = self.chances(hand, counts)
            w, p, lo = (_number(x, exact) for x in (chances.win, chances.push, chances.loss))
            if hand.conditioned:  # back to unconditional: a dealer blackjack pushes a natural, beats the rest
                pushes = hand.is_blackjack
                w = reframe(w, p_bj, Frame.CONDITIONED, Frame.UNCONDITIONAL, at_blackjack=0)
                p = reframe(p, p_bj, Frame.CONDITIONED, Frame.UNCONDITIONAL, at_blackjack=int(pushes))
                lo = reframe(lo, p_bj, Frame.CONDITIONED, Frame.UNCONDITIONAL, at_blackjack=int(not pushes))
            return chances, (w, p, lo, p_bj * 0)
        joint = self.analysis.split_chances(Rank.from_index(counts.index(2)), hand.up)
        if joint is None:  # not broken down at all
            return None, (p_bj * 0, p_bj * 0, before, 1 - before)
        w, p, lo = (_number(x, exact) for x in joint[:3])
        # the rest: the rounds that resplit, less those that run out of cards (void), where that
        # chance is known exactly (a bounded one stays in the rest)
        run_out = hand.run_out[Action.SPLIT] if hand.run_out is not None else None
        void = p_bj * 0 if run_out is None or not run_out.exact else _number(run_out.probability, exact) * (
            1 - before)
        parts = (w, p, lo + before, 1 - before - w - p - lo - void)
        if not joint[3]:
            return None, parts
        kept = w + p + lo if run_out is None else 1 - before  # P(no dealer blackjack) in a conditioned frame, else 1
        return Chances(to_api(w / kept, exact), to_api(p / kept, exact), to_api(lo / kept, exact)), parts

    def _joint(self, up: int, counts: tuple[int, ...], play: Code) -> tuple[Number, ...]:
        """(win, push, loss without a dealer blackjack, dealer blackjack) of the hand ``counts``
        played by ``play``: read from the up card's :func:`~bjcalc.engine.chances.hand_chances`,
        one backward pass over every hand of the unsplit graph."""
        if up not in self._chances:
            engine = self.analysis.engine
            self._chances[up] = hand_chances(engine.context(up), engine.table(up))
        numerators, denominator = self._chances[up].of(counts, play)
        if self.exact:
            return tuple(Fraction(int(n), int(denominator)) for n in numerators)
        return tuple(float(n) / float(denominator) for n in numerators)
