"""The whole round under a policy: its unconditional EV (house edge) by up card, and the exact
variance of its result. Both walk the deal once (:func:`bjcalc.engine.walk.deal`).
"""

from __future__ import annotations

from typing import Any

from bjcalc.actions import Action
from bjcalc.cards import Rank, is_blackjack
from bjcalc.engine.analyser import Engine
from bjcalc.engine.moments import unsplit_squares
from bjcalc.engine.payout import Frame, insured_moments, natural_value, reframe, surrender_value
from bjcalc.engine.runout import RoundRunOut, casino_bound, round_run_out
from bjcalc.engine.walk import Optimal, Policy, RoundTotals, deal
from bjcalc.numbers import to_api, to_fraction
from bjcalc.results import RoundResult, RunOut, Strategy
from bjcalc.rules import Rules


def round_result(engine: Engine, totals: RoundTotals, strategy: Strategy, insurance: Any | None,
                 policy: Policy) -> RoundResult:
    """A walk's totals (:func:`bjcalc.engine.walk.round_totals`) under ``policy`` as the API's
    result, with the insurance EV off the top (``None`` where not offered) and, on a shoe dealt
    to its last cards, how likely the round is to run out (:mod:`bjcalc.engine.runout`)."""
    exact = engine.exact
    return RoundResult(
        ev=to_api(totals.ev, exact),
        by_upcard={Rank.from_index(u): to_api(v, exact) for u, v in totals.by_upcard.items()},
        upcard_probability={Rank.from_index(u): to_api(p, exact) for u, p in totals.upcard_probability.items()},
        strategy=strategy,
        insurance=insurance,
        run_out=round_run_out_result(engine, totals, policy),
    )


def round_run_out_result(engine: Engine, totals: RoundTotals, policy: Policy) -> RunOut | None:
    """How likely the round walked in ``totals`` is to run out of cards with ``policy``'s plays,
    and the most a casino's reshuffle could move its EV; ``None`` where no deal can run out."""
    chances = round_run_out(engine, policy, totals.plays, fixed=not isinstance(policy, Optimal))
    return run_out_result(engine.rules, chances, engine.exact)


def run_out_result(rules: Rules, chances: RoundRunOut | None, exact: bool) -> RunOut | None:
    """A round's chances of running out (:func:`~bjcalc.engine.runout.round_run_out`, the
    engine's numbers) as the API's :class:`RunOut`; ``None`` where it cannot run out."""
    if chances is None or chances.most == 0:
        return None
    bound = casino_bound(rules, chances.most)
    return RunOut(probability=to_api(chances.probability, exact), bound=to_api(bound, exact), exact=chances.exact,
                  most=to_api(chances.most, exact))


def round_variance(engine: Engine, policy: Policy) -> Any | None:
    """The exact variance of the round's result under ``policy`` (insurance not taken), or
    ``None`` for the infinite deck (:func:`round_moments`)."""
    moments = round_moments(engine, policy)
    if moments is None:
        return None
    ev, second = moments
    return to_api(second - ev * ev, engine.exact)


def round_moments(engine: Engine, policy: Policy, insure: bool = False) -> tuple[Any, Any] | None:
    """``(E[X], E[X^2])`` of the round's result ``X`` under ``policy``, unconditional, in the
    engine's numbers; with ``insure``, X takes insurance beside the hand on every round against
    an ace (a peeking dealer only; :func:`bjcalc.engine.payout.insured_moments`). ``None`` for
    the infinite deck.

    The second moment of an unsplit hand runs through the same backward pass as the values
    (:func:`bjcalc.engine.moments.unsplit_squares`); a surrender's is 1/4; a blackjack's the
    payout squared. A split's comes from the split recursion carried to second moments, with
    every pair of split hands enumerated jointly with the dealer
    (:func:`bjcalc.engine.moments.split_moments`), resplits included.
    """
    rules = engine.rules
    if rules.infinite:  # the split moments enumerate a finite shoe
        return None
    number, div = engine.number, engine.div
    second: Any = number(0)
    ev: Any = number(0)
    dealt = list(deal(engine, policy))
    # every split's moments first, side by side (the sums below keep their order)
    splits = [(up, hand.pair) for up, _, hands in dealt for hand in hands
              if hand.action is Action.SPLIT and hand.pair is not None]
    moments = dict(zip(splits, engine.many_split_moments([(policy.splits(up), pair) for up, pair in splits])))
    for up, _, hands in dealt:
        context = engine.context(up)
        insured = insure and up == Rank.ACE.index
        if insured and not context.peeked:
            raise ValueError("insurance's second moment is worked out for a peeking dealer")
        table = policy.hands(up)
        squares = unsplit_squares(context, table)
        for hand in hands:
            counts = hand.counts
            row = table.layers.index[counts][1]
            g = table.row_scale(0, row)  # a counter's shoe: the row's weight with its scale
            p_bj = div(table.blackjack[0][row], g)
            square: Any
            if is_blackjack(counts):
                square = natural_value(number(rules.blackjack_pays), p_bj, power=2)
            elif hand.action is Action.SURRENDER:
                square = surrender_value(rules.surrender, context.peeked, p_bj, Frame.UNCONDITIONAL, power=2)
            else:
                if hand.action is Action.SPLIT:
                    pair = hand.pair
                    assert pair is not None
                    joint = moments[up, pair][1]
                else:
                    x = {Action.STAND: squares.stand[0][row], Action.HIT: squares.hit[0][row],
                         Action.DOUBLE: None if squares.double is None else squares.double[row]}[hand.action]
                    joint = div(x, g)
                # a peeking dealer's blackjack takes the original bet: a square of 1
                square = reframe(joint, p_bj, Frame.JOINT, Frame.UNCONDITIONAL, at_blackjack=1) if context.peeked \
                    else joint
            value = hand.value
            if not engine.exact:
                square, p_bj = float(square), float(p_bj)
            if insured:
                value, square = insured_moments(value, square, to_fraction(p_bj) if engine.exact else p_bj,
                                                is_blackjack(counts))
            weight = number(hand.probability)
            second += weight * square
            ev += weight * value
    return ev, second
