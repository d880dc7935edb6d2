"""What the states' advantages come to: win rate, SD, DI, SCORE, N0 and risk of ruin for a spread
(:func:`_win`), and the share of rounds that run out of cards."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.counting.spread import Spread
from bjcalc.engine.door import (
    casino_bound,
)
from bjcalc.results import _Data
from bjcalc.rules import Rules

# -- the whole analysis ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class WinFigures(_Data):
    """What a spread earns (module docstring): per round dealt and per round played."""

    strategy: str
    spread: str
    average_bet: Any  # per round dealt
    played: Any  # the share of rounds played
    win_per_round: Any  # per round dealt, in initial-bet units
    win_per_100: Any
    sd_per_round: float  # per round dealt
    win_per_round_played: Any
    sd_per_round_played: float
    di: float  # per round played
    score: float
    n0: float
    risk_of_ruin: float | None
    bankroll: Any

    def to_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _run_out_share(rules: Rules, starts: Sequence[int], rounds: Sequence[dict[Fraction, Any]],
                   values: dict[tuple[int, Fraction], Any], spread: Spread, zero: Any,
                   number: Callable[[Any], Any]) -> RunOutShare | None:
    """How likely a round of the shoe is to run out of cards, over the rounds analysed (the
    basic chart's plays; bjcalc.engine.runout), and the most a casino's reshuffle could move the
    win per round (the largest bet times the stakes times the chance with the plays likeliest to
    run out); ``None`` where no analysed round can run out."""
    played = most = whole = zero
    exact = True
    for n, at in zip(starts, rounds):
        for rc, w in at.items():
            value = values.get((n, rc))
            if value is not None:
                whole += number(w)
                played += number(w) * value.get("run_out", zero)
                most += number(w) * value.get("run_out_most", zero)
                exact = exact and value.get("run_out_exact", True)
    if whole == 0 or most == 0:
        return None
    top = max(b for _, _, b in spread.steps)
    return RunOutShare(played / whole, casino_bound(rules, most / whole) * top, exact)


@dataclasses.dataclass(frozen=True)
class RunOutShare:
    """The share of a shoe's rounds that run out of cards (``exact``: worked out; else an upper
    bound) and the most the casino's reshuffle could move the win per round by."""

    probability: Any
    bound: Any
    exact: bool

    def to_data(self) -> dict[str, Any]:
        return {"probability": self.probability, "exact": self.exact, "rule": "void", "casino_bound": self.bound}


def _win(strategy: str, spread: Spread, rounds: Sequence[tuple[int, dict[Fraction, Any]]], whole: Any,
         values: dict[tuple[int, Fraction], dict[str, Any]], m2: Any, tc_of: Callable[[Fraction, int], Fraction],
         cards: int, bankroll: float | None, exact: bool) -> WinFigures:
    """The spread's figures over ``rounds`` (start depth, running count -> share of rounds
    played there), ``whole`` the share of all rounds they stand for; ``m2``: one round's E[X^2],
    where a state's values do not carry their own (``m2``, truecount's moments by state)."""
    zero: Any = Fraction(0) if exact else 0.0
    number: Callable[[Any], Any] = Fraction if exact else float
    played = staked = won = second = zero
    for n, here in rounds:
        for rc, p in here.items():
            if not p:
                continue
            b = number(spread.bet(tc_of(rc, cards - n)))
            here_values = values[n, rc]
            a = here_values[strategy]
            played += p
            staked += p * b
            won += p * b * a
            second += p * b * b * (here_values["m2"][strategy] if "m2" in here_values else m2)
    played, staked, won, second = played / whole, staked / whole, won / whole, second / whole
    sd = math.sqrt(max(0.0, float(second - won * won)))
    won_p = won / played if played else zero
    var_p = second / played - won_p * won_p if played else zero
    sd_p = math.sqrt(max(0.0, float(var_p)))
    di = 1000 * float(won_p) / sd_p if sd_p else 0.0
    n0 = float(var_p / (won_p * won_p)) if won_p else math.inf
    ruin = None
    if bankroll is not None and sd_p:
        ruin = 1.0 if won_p <= 0 else math.exp(-2 * float(won_p) * bankroll / float(var_p))
    return WinFigures(strategy, spread.text(), staked, played, won, 100 * won, sd, won_p, sd_p, di,
                      di * di, n0, ruin, bankroll)
