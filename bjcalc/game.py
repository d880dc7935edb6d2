"""The whole round: its unconditional EV (house edge), per up card, for a stated strategy.

>>> from bjcalc import Analysis, Rules
>>> r = round_ev(Analysis(Rules(decks=1, surrender="none")))
>>> r.strategy
'CD; split hands CDZ-'
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.cards import RANK_NOTATION
from bjcalc.rules import Surrender


@dataclasses.dataclass(frozen=True)
class RoundResult:
    """``ev``: the player's expected result per round, unconditional, in units of the initial
    bet (``house_edge = -ev``); ``by_upcard``: the EV given each up card (unconditional);
    ``upcard_probability``; ``insurance``: EV per unit of insurance bet off the top (never taken
    in ``ev``)."""

    ev: Any
    by_upcard: dict[str, Any]
    upcard_probability: dict[str, Any]
    strategy: str
    insurance: Any | None

    @property
    def house_edge(self) -> Any:
        return -self.ev


def two_card_hands(shoe: tuple[int, ...]) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every two-card hand from ``shoe`` (as rank counts) with its probability."""
    n = sum(shoe)
    out = []
    for a in range(10):
        for b in range(a, 10):
            ways = shoe[a] * (shoe[a] - 1) if a == b else 2 * shoe[a] * shoe[b]
            if ways:
                counts = tuple((r == a) + (r == b) for r in range(10))
                out.append((counts, Fraction(ways, n * (n - 1))))
    return out


def unconditional_best(analysis: Analysis, up: int, counts: tuple[int, ...]) -> tuple[Action, Any]:
    """The best first decision for a two-card hand and its unconditional EV."""
    joint, p_bj = analysis.joint_values(up, counts)
    peeked = analysis.table(up).peeked
    natural = counts[0] == 1 and counts[9] == 1
    action, value = max(joint.items(), key=lambda item: item[1])
    if peeked and not natural:
        value = value - p_bj  # a peeking dealer's blackjack takes the original bet
    if analysis.rules.surrender is Surrender.EARLY and not natural and value < Fraction(-1, 2):
        action, value = Action.SURRENDER, Fraction(-1, 2) if analysis.exact else -0.5
    return action, value


def round_ev(analysis: Analysis) -> RoundResult:
    """The round's EV with composition-dependent first decisions (CD) and split hands played
    by the analysis' post-split strategy."""
    rules = analysis.rules
    full = rules.shoe_counts
    total_cards = sum(full)
    ev: Any = 0
    by_upcard, upcard_probability = {}, {}
    for up in range(10):
        if not full[up]:
            continue
        analysis.prepare(up)
        shoe = analysis.upcard(up).shoe
        given_up: Any = 0
        for counts, p_hand in two_card_hands(shoe):
            _, value = unconditional_best(analysis, up, counts)
            given_up += (p_hand if analysis.exact else float(p_hand)) * value
        p_up = Fraction(full[up], total_cards)
        by_upcard[RANK_NOTATION[up]] = given_up
        upcard_probability[RANK_NOTATION[up]] = p_up
        ev += (p_up if analysis.exact else float(p_up)) * given_up
    insurance = analysis.insurance("A") if full[0] and rules.insurance else None
    return RoundResult(
        ev=_out(ev, analysis.exact),
        by_upcard={u: _out(v, analysis.exact) for u, v in by_upcard.items()},
        upcard_probability={u: _out(p, analysis.exact) for u, p in upcard_probability.items()},
        strategy=f"CD; split hands {analysis.post_split.label}" if rules.split_hands > 1 else "CD",
        insurance=insurance,
    )


def _out(value: Any, exact: bool) -> Any:
    if exact:
        import sympy

        value = Fraction(value)
        return sympy.Rational(value.numerator, value.denominator)
    return float(value)
