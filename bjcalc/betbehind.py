"""Bet Behind: a bet on a seated player's hand, following their decisions.

Per the live-dealer rule text: the bet-behind player follows the seated player's actions, never
insures, and when they cannot afford to follow a double they take one card and stand (at their
single bet), when they cannot follow a split they follow the right-hand (first) hand. Both
cases are computed exactly, per unit bet behind, unconditional.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.deal import two_card_hands, unconditional_best
from bjcalc.numbers import to_api
from bjcalc.split import SplitSolver
from bjcalc.strategy import Chart, chart_decider, evaluate


@dataclasses.dataclass(frozen=True)
class BetBehind:
    """EV per unit bet behind, unconditional: ``follows_everything`` (doubles and splits too:
    the seated player's own EV without insurance) and ``cannot_afford`` (one card instead of a
    double, the first hand of a split)."""

    seated: str
    follows_everything: Any
    cannot_afford: Any


def bet_behind(analysis: Analysis, seated: Chart | None = None) -> BetBehind:
    """Bet Behind a seated player who plays ``seated`` (a chart), or optimally (CD, split hands
    by the analysis' post-split strategy) when ``seated`` is ``None``."""
    rules = analysis.rules
    full = rules.shoe_counts
    n = sum(full)
    plays = evaluate(analysis, seated)[1] if seated is not None else None
    by_hand = {(p.up, p.counts, p.same_face): p for p in plays} if plays is not None else {}
    follow: Any = 0
    alone: Any = 0
    analysis.prepare_all()
    for up in range(10):
        if not full[up]:
            continue
        analysis.prepare(up)
        context = analysis.upcard(up)
        table = analysis.table(up)
        if seated is not None:
            splitter = SplitSolver(context, None, decide=chart_decider(seated.ups[up]))  # type: ignore[arg-type]
        else:
            splitter = analysis.splits(up)
        p_up = Fraction(full[up], n)
        single: Any  # Fraction in exact mode, float otherwise; so is weight
        weight: Any
        for counts, p_hand, same_face in two_card_hands(context.shoe, rules, up):
            if seated is None:
                action, value = unconditional_best(analysis, up, counts, same_face)
            else:
                play = by_hand[(up, counts, same_face)]
                action, value = play.action, play.ev
            single = value
            if action in (Action.DOUBLE, Action.SPLIT):
                row = table.layers.index[counts][1]
                g = table.scale[0]
                p_bj = analysis._div(table.blackjack[0][row], g)
                if action is Action.DOUBLE:
                    assert table.one_card is not None
                    single = analysis._div(table.one_card[row], g)
                else:
                    pair = next(r for r in range(10) if counts[r] == 2)
                    single = splitter.value(pair, first_hand_only=True)
                if table.peeked:
                    single = single - p_bj
            weight = p_up * p_hand
            if not analysis.exact:
                weight, single, value = float(weight), float(single), float(value)
            follow += weight * value
            alone += weight * single
    name = seated.strategy if seated is not None else f"optimal (CD; split hands {analysis.post_split.label})"
    return BetBehind(seated=name, follows_everything=to_api(follow, analysis.exact),
                     cannot_afford=to_api(alone, analysis.exact))
