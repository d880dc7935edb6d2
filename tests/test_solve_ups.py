"""Split hands of several up cards in one pass (:func:`bjcalc.engine.split.solve_together`,
float mode) against a pass per up card (:meth:`SplitSolver.solve`), whose values the split
oracle tests check: the same split values and the same hand values, to the bit, wherever the
up card's own play reaches (elsewhere a pass per up card leaves NaN)."""

from __future__ import annotations

import numpy as np
import pytest

from bjcalc.engine.analyser import Engine
from bjcalc.engine.kernels import player_kernel_available
from bjcalc.engine.split import PostSplit, solve_together
from bjcalc.rules import BlackjackTakes, HoleCard, Loss, Rules, Surrender

RULES = [
    Rules(decks=8, surrender=Surrender.LATE, split_hands=4, double_after_split=True),
    Rules(decks=1, hit_soft_17=True, resplit_aces=True, hit_split_aces=True),
    Rules(decks=2, split_unlike_tens=False, split_hands=3, double_after_split=False),
    Rules(decks=6, hole_card=HoleCard.NONE, blackjack_takes=BlackjackTakes(splits_vs_ace=Loss.ORIGINAL)),
    Rules(decks=4, charlie=5, dealer_max_cards=6),
    Rules(shoe=(3, 2, 5, 6, 4, 4, 4, 4, 4, 16), surrender=Surrender.LATE),
]


@pytest.mark.skipif(not player_kernel_available(), reason="the compiled player pass is not built")
@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_one_pass_for_several_up_cards_equals_a_pass_each(rules: Rules) -> None:
    together, alone = Engine(rules, False, PostSplit.CDZ), Engine(rules, False, PostSplit.CDZ)
    ups = together.ups()
    for pair in range(10):
        solvers = [together.splits(up) for up in ups if pair in together.splits(up).pairs()]
        solve_together(solvers, pair)
    compared = 0
    for up in ups:
        mine, theirs = together.splits(up), alone.splits(up)
        for pair in theirs.pairs():
            assert mine.value(pair) == theirs.value(pair)
            for removed in theirs.removals(pair):
                a, b = mine.hand_values(pair, removed), theirs.hand_values(pair, removed)
                assert a.shoe == b.shoe and list(a.scale) == list(b.scale)
                for name in ("decision", "stand", "hit", "best", "blackjack"):
                    for k in range(len(b.layers.counts)):
                        got, want = getattr(a, name)[k], getattr(b, name)[k]
                        reached = ~np.isnan(want) if want.dtype.kind == "f" else np.ones(len(want), dtype=bool)
                        assert np.array_equal(got[reached], want[reached])
                        compared += int(reached.sum())
    assert compared > 0


@pytest.mark.skipif(not player_kernel_available(), reason="the compiled player pass is not built")
@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_unsplit_hands_of_several_up_cards_in_one_pass(rules: Rules) -> None:
    together, alone = Engine(rules, False, PostSplit.CDZ), Engine(rules, False, PostSplit.CDZ)
    together.prepare_all()  # the unsplit tables of up cards alike in one pass
    for up in together.ups():
        a, b = together.table(up), alone.table(up)
        assert list(a.scale) == list(b.scale) and a.double_layer == b.double_layer
        for name in ("decision", "stand", "hit", "best", "blackjack"):
            for k in range(len(b.layers.counts)):
                assert np.array_equal(getattr(a, name)[k], getattr(b, name)[k])
        assert (a.double is None) == (b.double is None)
        if b.double is not None:
            assert np.array_equal(a.double, b.double) and np.array_equal(a.one_card, b.one_card)


@pytest.mark.skipif(not player_kernel_available(), reason="the compiled player pass is not built")
@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_split_shoes_registered_for_the_rows_reached_alone(rules: Rules) -> None:
    """prepare_all registers the later pairs' split shoes for the rows CDZ- reaches alone: the
    same split values and reached values as solving each up card's splits on every row."""
    together, alone = Engine(rules, False, PostSplit.CDZ), Engine(rules, False, PostSplit.CDZ)
    together.prepare_all(splits=True)
    for up in together.ups():
        mine, theirs = together.splits(up), alone.splits(up)
        for pair in theirs.pairs():
            assert mine.value(pair) == theirs.value(pair)
            for removed in theirs.removals(pair):
                a, b = mine.hand_values(pair, removed), theirs.hand_values(pair, removed)
                for k in range(len(b.layers.counts)):
                    want = b.best[k]
                    reached = ~np.isnan(want)
                    assert np.array_equal(a.best[k][reached], want[reached])


def test_a_chart_after_the_round_reads_rows_cdz_does_not_reach() -> None:
    """A chart's split hands reach rows CDZ- does not, whose shoes the round did not register:
    evaluating the chart after the round gives what it gives on a fresh analysis."""
    from bjcalc import Analysis

    rules = RULES[0]
    chart = Analysis(rules).chart()
    after_round = Analysis(rules)
    after_round.round()
    assert after_round.evaluate(chart).round.ev == Analysis(rules).evaluate(chart).round.ev
