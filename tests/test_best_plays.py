"""Every two-card hand of an up card worked out at once (float mode): the round's first
decisions (:func:`bjcalc.engine.payout.best_plays`) against :func:`~bjcalc.engine.payout.best_play`
hand by hand, and each hand's EVs in its frame (:func:`~bjcalc.engine.payout.first_values`)
against :func:`~bjcalc.engine.payout.action_values`, whose values the oracle tests check: the
same plays and the same floats, to the bit, under rules that change what is offered and how a
play is reframed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bjcalc.actions import Action
from bjcalc.cards import is_blackjack
from bjcalc.engine.analyser import Engine
from bjcalc.engine.payout import Frame, action_values, best_play, best_plays, first_values
from bjcalc.engine.split import PostSplit
from bjcalc.engine.walk import Optimal
from bjcalc.rules import BlackjackTakes, Doubling, HoleCard, Loss, Rules, Surrender

RULES = [
    Rules(decks=8, surrender=Surrender.LATE, split_hands=4, double_after_split=True),
    Rules(decks=1, hit_soft_17=True, double=Doubling.TEN_TO_ELEVEN, double_soft=False),
    Rules(decks=2, surrender=Surrender.EARLY, split_unlike_tens=False, split_hands=2),
    Rules(decks=6, hole_card=HoleCard.NONE, surrender=Surrender.LATE,
          blackjack_takes=BlackjackTakes(doubles_vs_ace=Loss.ORIGINAL, splits_vs_ten=Loss.ORIGINAL)),
    Rules(decks=4, blackjack_pays=1.2, charlie=5, split_hands=1),
    Rules(shoe=(3, 2, 5, 6, 4, 4, 4, 4, 4, 16), surrender=Surrender.LATE),
]


def _dealt(rules: Rules) -> Iterator[tuple[Engine, Optimal, int, list[tuple[tuple[int, ...], bool]]]]:
    """A float engine of ``rules`` with CD play, and each up card with the hands it deals."""
    engine = Engine(rules, False, PostSplit.CDZ)
    policy = Optimal(engine)
    for up in engine.ups():
        yield engine, policy, up, [(counts, same) for counts, p, same in engine.context(up).dealt_hands() if p]


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_best_plays_equal_best_play_hand_by_hand(rules: Rules) -> None:
    for engine, policy, up, hands in _dealt(rules):
        batch = best_plays(engine, policy, up, hands)
        one_by_one = [best_play(engine, policy, up, counts, same) for counts, same in hands]
        assert [action for action, _ in batch] == [action for action, _ in one_by_one]
        assert [value for _, value in batch] == [value for _, value in one_by_one]  # floats, to the bit
        assert all(type(value) is float for _, value in batch)


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_first_values_equal_action_values_hand_by_hand(rules: Rules) -> None:
    for engine, policy, up, hands in _dealt(rules):
        table = policy.hands(up)
        for frame in (Frame.CONDITIONED, Frame.UNCONDITIONAL) if table.peeked else (Frame.UNCONDITIONAL,):
            kept = first_values(engine, policy, up, hands, frame)
            assert kept is not None
            for counts, same in hands:
                shown = [Action.STAND, Action.HIT, Action.DOUBLE] if is_blackjack(counts) else None
                assert kept.get(counts, same) == action_values(engine, policy, up, counts, same, frame, shown)
