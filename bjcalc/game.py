"""The whole round: its unconditional EV (house edge), per up card, for a stated strategy.

>>> from bjcalc import Analysis, Rules
>>> r = round_ev(Analysis(Rules(decks=1, surrender="none")))
>>> r.strategy
'CD; split hands CDZ-'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.cards import RANK_NOTATION
from bjcalc.deal import RoundResult, two_card_hands, unconditional_best
from bjcalc.numbers import to_api
from bjcalc.rules import Surrender


def round_ev(analysis: Analysis) -> RoundResult:
    """The round's EV with composition-dependent first decisions (CD) and split hands played
    by the analysis' post-split strategy."""
    rules = analysis.rules
    full = rules.shoe_counts
    total_cards = sum(full)
    ev: Any = 0
    by_upcard, upcard_probability = {}, {}
    analysis.prepare_all()
    for up in range(10):
        if not full[up]:
            continue
        analysis.prepare(up)
        shoe = analysis.upcard(up).shoe
        given_up: Any = 0
        for counts, p_hand, same_face in two_card_hands(shoe, rules, up):
            _, value = unconditional_best(analysis, up, counts, same_face)
            given_up += (p_hand if analysis.exact else float(p_hand)) * value
        p_up = Fraction(full[up], total_cards)
        by_upcard[RANK_NOTATION[up]] = given_up
        upcard_probability[RANK_NOTATION[up]] = p_up
        ev += (p_up if analysis.exact else float(p_up)) * given_up
    insurance = analysis.insurance("A") if full[0] and rules.insurance else None
    return RoundResult(
        ev=to_api(ev, analysis.exact),
        by_upcard={u: to_api(v, analysis.exact) for u, v in by_upcard.items()},
        upcard_probability={u: to_api(p, analysis.exact) for u, p in upcard_probability.items()},
        strategy=f"CD; split hands {analysis.post_split.label}" if rules.split_hands > 1 else "CD",
        insurance=insurance,
    )


def round_variance(analysis: Analysis, chart: Any = None) -> Any | None:
    """The exact variance of the round's result (CD play, split hands by the analysis'
    post-split strategy; or every play by ``chart``, a :class:`bjcalc.strategy.Chart`;
    insurance not taken), or ``None`` when the rules allow resplitting (more than two hands).
    The standard deviation is its square root.

    The second moment of an unsplit hand runs through the same backward pass as the values: a
    standing hand's squared result is 1 unless it pushes; a doubled hand's is 4 (or the
    no-hole-card blackjack loss squared); a surrender's 1/4; a blackjack's the payout squared.
    A split's is computed by enumerating both hands jointly (:mod:`bjcalc.moments`).
    """
    import numpy as np

    from bjcalc.cards import ACE, TEN
    from bjcalc.moments import split_moments
    from bjcalc.player import HIT, falling, solve, unsplit_layers
    from bjcalc.split import SplitSolver

    rules = analysis.rules
    if rules.split_hands > 2:
        return None
    plays = {}
    if chart is not None:
        from bjcalc.strategy import chart_decider, evaluate

        plays = {(p.up, p.counts, p.same_face): p for p in evaluate(analysis, chart)[1]}
    full = rules.shoe_counts
    total_cards = sum(full)
    second: Any = 0
    ev: Any = 0
    for up in range(10):
        if not full[up]:
            continue
        context = analysis.upcard(up)
        if chart is None:
            table, splitter = analysis.table(up), analysis.splits(up)
        else:
            unsplit = unsplit_layers(rules)
            table = solve(context, unsplit, decisions=chart.ups[up].decisions(unsplit))
            splitter = SplitSolver(context, None, decide=chart_decider(chart.ups[up]))  # type: ignore[arg-type]
        layers = table.layers
        n0 = sum(context.shoe)
        columns = context.register(layers, (0,) * 10)
        stand_sq, stand_sq_doubled = [], []
        double_loss = 1 + context.double_loss
        for k, totals in enumerate(layers.totals):
            size = layers.sizes[k]
            g = table.scale[k]
            outcomes = context.outcomes(columns[k])
            lift = g // falling(n0 - size, context.depth) if analysis.exact else (
                float(g) / float(falling(n0 - size, context.depth)))
            push = np.zeros(len(totals), dtype=object if analysis.exact else float)
            charlie = rules.charlie is not None and size >= rules.charlie
            if not charlie:
                for outcome, values in outcomes.items():
                    if outcome <= 21:
                        push = push + np.where(totals == outcome, values, 0) * lift
            bj = table.blackjack[k]
            not_bj = g - bj - push
            stand_sq.append(not_bj + (0 if context.peeked else bj))
            stand_sq_doubled.append(not_bj * 4 + (0 if context.peeked else bj * double_loss**2))
        draws = context.stand_values(layers, (0,) * 10, 1)[4]
        best_sq: list[Any] = [None] * len(layers.counts)
        hit_sq: list[Any] = [None] * len(layers.counts)
        double_sq = None
        for k in reversed(range(len(layers.counts))):
            d = draws[k]
            g = table.scale[k + 1]
            child_bj = d.child_bj
            bust_sq = (g - child_bj) + (0 if context.peeked else child_bj)
            after = bust_sq if k + 1 == len(layers.counts) else np.where(d.busts, bust_sq, best_sq[k + 1][d.safe])
            hit_sq[k] = (d.left * after).sum(axis=1)
            best_sq[k] = np.where(table.decision[k] == HIT, hit_sq[k], stand_sq[k])
            if k == table.double_layer:
                bust_sq_doubled = (g - child_bj) * 4 + (0 if context.peeked else child_bj * double_loss**2)
                after = bust_sq_doubled if k + 1 == len(layers.counts) else np.where(
                    d.busts, bust_sq_doubled, stand_sq_doubled[k + 1][d.safe])
                double_sq = (d.left * after).sum(axis=1)
        p_up = Fraction(full[up], total_cards)
        value: Any  # Fraction in exact mode, float otherwise; so are square and weight
        square: Any
        weight: Any
        for counts, p_hand, same_face in two_card_hands(context.shoe, rules, up):
            row = layers.index[counts][1]
            g = table.scale[0]
            p_bj = analysis._div(table.blackjack[0][row], g)
            natural = counts[ACE] == 1 and counts[TEN] == 1
            if chart is None:
                action, value = unconditional_best(analysis, up, counts, same_face)
            else:
                play = plays[up, counts, same_face]
                action, value = play.action, play.ev
            if natural:
                square = rules.blackjack_pays**2 * (1 - p_bj)
            elif action is Action.SURRENDER:
                if rules.surrender is Surrender.EARLY or context.peeked:
                    square = Fraction(1, 4) * (1 if rules.surrender is Surrender.EARLY else 1 - p_bj)
                    square += 0 if rules.surrender is Surrender.EARLY else p_bj  # blackjack took 1
                else:
                    square = Fraction(1, 4) * (1 - p_bj) + p_bj
            elif action is Action.SPLIT:
                pair = next(r for r in range(10) if counts[r] == 2)
                square = split_moments(splitter, pair)[1] + (p_bj if context.peeked else 0)
            else:
                x = {Action.STAND: stand_sq[0][row], Action.HIT: hit_sq[0][row],
                     Action.DOUBLE: None if double_sq is None else double_sq[row]}[action]
                square = analysis._div(x, g) + (p_bj if context.peeked else 0)
            weight = p_up * p_hand
            if not analysis.exact:
                weight, square, value = float(weight), float(square), float(value)
            second += weight * square
            ev += weight * value
    return to_api(second - ev * ev, analysis.exact)
