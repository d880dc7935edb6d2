"""Bet Behind: a bet on a seated player's hand, following their decisions.

Per the live-dealer rule text: the bet-behind player follows the seated player's actions, never
insures, and when they cannot afford to follow a double they take one card and stand (at their
single bet), when they cannot follow a split they follow the right-hand (first) hand. Both
cases are computed exactly, per unit bet behind, unconditional: following everything is the
seated player's own round; not affording is the round of a :class:`Follower` policy.
"""

from __future__ import annotations

from bjcalc.actions import Action
from bjcalc.engine.analyser import Engine
from bjcalc.engine.payout import Frame, action_values
from bjcalc.engine.split import SplitSolver
from bjcalc.engine.values import HandValues
from bjcalc.engine.walk import EngineNumber, Policy, round_totals
from bjcalc.numbers import to_api
from bjcalc.results import BetBehindResult, Strategy
from bjcalc.round import round_run_out_result


class Follower:
    """The bet behind of a player who cannot afford to double or split: the seated player's
    plays (``seated``), at a single bet: one card instead of a double, the first hand of a
    split."""

    def __init__(self, engine: Engine, seated: Policy) -> None:
        self.engine, self.seated = engine, seated

    @property
    def label(self) -> str:
        return f"following {self.seated.label}, without doubling or splitting"

    def hands(self, up: int) -> HandValues:
        return self.seated.hands(up)

    def splits(self, up: int) -> SplitSolver:
        return self.seated.splits(up)

    def first(self, up: int, counts: tuple[int, ...], same_face: bool) -> tuple[Action, EngineNumber]:
        action, value = self.seated.first(up, counts, same_face)
        if action not in (Action.DOUBLE, Action.SPLIT):
            return action, value
        values, _ = action_values(self.engine, self.seated, up, counts, same_face, Frame.UNCONDITIONAL, [action],
                                  single_bet=True)
        return action, values[action]


def bet_behind(engine: Engine, seated: Policy, strategy: Strategy) -> BetBehindResult:
    """Bet Behind a seated player who plays ``seated`` (described by ``strategy``)."""
    totals = round_totals(engine, seated)
    alone = round_totals(engine, Follower(engine, seated)).ev
    exact = engine.exact
    # the bet behind rides on the seated player's deal: it runs out when that deal does
    run_out = round_run_out_result(engine, totals, seated)
    return BetBehindResult(seated=strategy, follows_everything=to_api(totals.ev, exact),
                           cannot_afford=to_api(alone, exact), run_out=run_out)
