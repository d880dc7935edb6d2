"""One walk over the deal: every up card, every two-card hand, its weight, and the play a
policy makes with it.

A :class:`Policy` says how a strategy plays: the first decision for a two-card hand and its
unconditional EV, how the hands play after it (their values, for the variance) and how split
hands play. The round's EV, a chart's evaluation, Bet Behind and the variance all walk the deal
with :func:`deal` and differ only in the policy and in what they add up.

>>> from bjcalc.engine.split import PostSplit
>>> from bjcalc.rules import Rules
>>> engine = Engine(Rules(decks=1, surrender="none"), True, PostSplit.CDZ)
>>> total = round_totals(engine, Optimal(engine))
>>> sum(total.upcard_probability.values())
Fraction(1, 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import NamedTuple, Protocol

from bjcalc.actions import Action
from bjcalc.engine.analyser import Engine
from bjcalc.engine.collector import fewer_collections
from bjcalc.engine.payout import EngineNumber, Plays, best_play, best_plays
from bjcalc.engine.split import SplitSolver
from bjcalc.engine.values import HandValues

__all__ = ["Dealt", "EngineNumber", "Optimal", "Policy", "RoundTotals", "deal", "round_totals"]


class Policy(Plays, Protocol):
    """How a strategy plays the hands dealt against one up card."""

    @property
    def label(self) -> str:
        """The strategy's name as outputs print it (``"CD; split hands CDZ-"``)."""
        ...

    def first(self, up: int, counts: tuple[int, ...], same_face: bool) -> tuple[Action, EngineNumber]:
        """The first play with a two-card hand and its unconditional EV per initial bet."""
        ...

    def hands(self, up: int) -> HandValues:
        """The unsplit hands' values, with the policy's plays after the first decision."""
        ...

    def splits(self, up: int) -> SplitSolver:
        """Split values, with split hands played by the policy."""
        ...


class Optimal:
    """Composition-dependent play (CD): every decision the best for the hand's exact cards;
    split hands by the engine's post-split strategy."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @property
    def label(self) -> str:
        return f"CD; split hands {self.engine.post_split.label}" if self.engine.rules.split_hands > 1 else "CD"

    def first(self, up: int, counts: tuple[int, ...], same_face: bool) -> tuple[Action, EngineNumber]:
        return best_play(self.engine, self, up, counts, same_face)

    def hands(self, up: int) -> HandValues:
        return self.engine.table(up)

    def splits(self, up: int) -> SplitSolver:
        return self.engine.splits(up)


class Dealt(NamedTuple):
    """One two-card hand against one up card, and the play a policy makes with it (a named
    tuple: a round makes one per hand, 1,650 a truecount task, and a tuple costs a third of
    a frozen dataclass to make)."""

    up: int
    counts: tuple[int, ...]
    same_face: bool  # False: two tens of unlike faces, where those may not be split
    p_up: Fraction  # P(up card)
    p_hand: Fraction  # P(this hand | up card)
    action: Action
    value: EngineNumber  # the play's EV, unconditional, per initial bet

    @property
    def probability(self) -> Fraction:
        """P(up card and this hand)."""
        return self.p_up * self.p_hand

    @property
    def pair(self) -> int | None:
        return next((r for r in range(10) if self.counts[r] == 2), None)


def deal(
    engine: Engine, policy: Policy, ups: Iterable[int] | None = None
) -> Iterator[tuple[int, Fraction, list[Dealt]]]:
    """Each up card the shoe can show (or ``ups``), its probability, and every two-card hand
    with the policy's play.

    The dealer work of every up card is batched first; float mode then overlaps each up card's
    dealer pass with the Python work of the one before."""
    chosen = engine.ups() if ups is None else [up for up in ups if engine.rules.shoe_counts[up]]
    engine.prepare_all(chosen, splits=isinstance(policy, Optimal))
    for up in chosen:
        engine.prepare(up)
        context = engine.context(up)
        p_up = context.up_probability()
        dealt = [(counts, p_hand, same_face) for counts, p_hand, same_face in context.dealt_hands()
                 if p_hand != 0]  # a counter's shoe may not deal some hands
        if type(policy).first is Optimal.first:  # every hand's best play at once
            firsts = best_plays(engine, policy, up, [(counts, same_face) for counts, _, same_face in dealt])
        else:
            firsts = [policy.first(up, counts, same_face) for counts, _, same_face in dealt]
        hands = [Dealt(up, counts, same_face, p_up, p_hand, action, value)
                 for (counts, p_hand, same_face), (action, value) in zip(dealt, firsts)]
        yield up, p_up, hands


@dataclasses.dataclass(frozen=True)
class RoundTotals:
    """A walk added up: the round's EV and the EV given each up card (unconditional, engine
    numbers), P(up card), and every hand's play."""

    ev: EngineNumber
    by_upcard: dict[int, EngineNumber]
    upcard_probability: dict[int, Fraction]
    plays: list[Dealt]


def round_totals(engine: Engine, policy: Policy, ups: Iterable[int] | None = None) -> RoundTotals:
    """The round's EV under ``policy`` (a partial sum over ``ups`` when given)."""
    number = engine.number
    ev: EngineNumber = number(0)
    by_upcard: dict[int, EngineNumber] = {}
    upcard_probability: dict[int, Fraction] = {}
    plays: list[Dealt] = []
    with fewer_collections():
        for up, p_up, hands in deal(engine, policy, ups):
            given_up: EngineNumber = number(0)
            for hand in hands:
                given_up += number(hand.p_hand) * hand.value
            plays.extend(hands)
            by_upcard[up], upcard_probability[up] = given_up, p_up
            ev += number(p_up) * given_up
    return RoundTotals(ev, by_upcard, upcard_probability, plays)
