"""The weighted joint pass of several counter's shoes at once (``_dealer_kernel.joint_many``,
:func:`bjcalc.engine.jointdealer.joint_stands`): each shoe's stand tables against the joint pass
of that shoe alone (``joint``, itself checked against the numpy loop in test_dealer_kernel),
the same numbers whichever shoes go together, and the analyses of one batch of truecount states
sharing it (:class:`bjcalc.engine.batch.SharedStands`) with the numbers they get alone."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from bjcalc import Analysis, Rules
from bjcalc.counting.countshoe import CountShoe
from bjcalc.counting.indices import Convention, default_plays
from bjcalc.counting.states import state_task
from bjcalc.counting.tasks import _timed
from bjcalc.engine import batch, kernels
from bjcalc.engine.batch import JointBatch, ShoeIndex, shared_stands
from bjcalc.engine.jointdealer import joint_numerators, joint_stands

needs_kernel = pytest.mark.skipif(kernels.dealer_kernel is None, reason="compiled dealer loop not built")

HI_LO = (Fraction(-1),) + (Fraction(1),) * 5 + (Fraction(0),) * 3 + (Fraction(-1),)
# Zen Count: four tag values, so more node classes than Hi-Lo's
ZEN = tuple(Fraction(t) for t in (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2))


def _models(rules: Rules, tags, seen: int, counts) -> list:
    return [CountShoe(shoe=rules.shoe_counts, tags=tags, running_count=Fraction(rc), seen=seen).draw_model()
            for rc in counts]


@needs_kernel
@pytest.mark.parametrize("rules,tags,seen,counts", [
    (Rules(decks=6), HI_LO, 150, (-9, 0, 4, 12)),
    (Rules(decks=2, hit_soft_17=True), ZEN, 40, (-6, 3)),
    (Rules(decks=1, dealer_max_cards=5), HI_LO, 20, (0,)),
    # more shoes than the loop's vector of shoes holds (8): a second group, part full
    (Rules(decks=6, surrender="late"), HI_LO, 200, tuple(range(-10, 12, 2))),
])
def test_each_shoe_gets_what_its_own_joint_pass_gives(rules, tags, seen, counts):
    models = _models(rules, tags, seen, counts)
    joint = JointBatch(rules, ShoeIndex(False), models[0])
    rng = np.random.default_rng(seen)
    removed = rng.integers(0, 3, size=(333, 10))  # not a whole number of blocks
    removed[:, 9] += rng.integers(0, 3, size=333)
    together = joint_stands(joint.joint, joint.shoe, removed, joint.depths, joint.pay, models)
    for model, stand in zip(models, together):
        alone = joint_numerators(joint.joint, joint.shoe, removed, joint.depths, joint.pay, False, model)[1]
        scale = np.abs(alone).max(axis=(1, 2), keepdims=True)  # each up card's numerators' size
        np.testing.assert_allclose(stand / scale, alone / scale, rtol=0, atol=1e-13)
        # the sums are grouped otherwise than the joint pass's, but never by the company
        assert np.array_equal(joint_stands(joint.joint, joint.shoe, removed, joint.depths, joint.pay, [model])[0],
                              stand)


@needs_kernel
def test_analyses_sharing_the_pass_get_their_own_numbers():
    rules = Rules(decks=6, surrender="late")
    models = _models(rules, HI_LO, 120, (-4, 5))
    shoes = [CountShoe(shoe=rules.shoe_counts, tags=HI_LO, running_count=Fraction(rc), seen=120) for rc in (-4, 5)]
    alone = [Analysis(rules, shoe=shoe).round().ev for shoe in shoes]
    with shared_stands(models) as shared:
        analyses = [Analysis(rules, shoe=shoe) for shoe in shoes]
        assert all(a.engine._joint.shared is shared for a in analyses)
        together = [a.round().ev for a in analyses[::-1]][::-1]  # the second asks first
    assert not batch._SHARED
    for a, b in zip(together, alone):
        assert abs(a - b) < 1e-14
    with shared_stands(models[1:]):
        assert Analysis(rules, shoe=shoes[1]).round().ev == together[1]


@needs_kernel
def test_a_batch_of_states_gives_each_state_its_own_numbers():
    rules = Rules(decks=2, surrender="late")
    chart = Analysis(rules).chart()
    plays = tuple((p, p.published) for p in default_plays(rules) if p.published is not None)
    states = [(40, Fraction(rc)) for rc in (-3, 0, 2)] + [(60, Fraction(1))]
    tasks = [(str(i), state_task, (rules, HI_LO, n, rc, Fraction(0), chart, plays, 3, Convention(), None, False))
             for i, (n, rc) in enumerate(states)]
    together = [value for _, value, _ in _timed(tasks)]
    assert not batch._SHARED
    alone = [state_task(*arguments) for _, _, arguments in tasks]
    assert together == alone


@needs_kernel
def test_index_states_of_a_batch_give_each_state_its_own_numbers():
    from bjcalc.counting.indices import wanted_hands
    from bjcalc.counting.shoeindex import state_task as index_state

    rules = Rules(decks=2)
    wanted = wanted_hands(rules, default_plays(rules))
    tasks = [(str(i), index_state, (rules, HI_LO, 30, Fraction(rc), wanted, True, False))
             for i, rc in enumerate((-2, 4))]
    together = [value for _, value, _ in _timed(tasks)]
    assert not batch._SHARED
    assert together == [index_state(*arguments) for _, _, arguments in tasks]


@needs_kernel
def test_shoes_of_other_rules_in_a_group_get_their_own_rules_numbers():
    s17, h17 = Rules(decks=2), Rules(decks=2, hit_soft_17=True)
    shoes = [CountShoe(shoe=s17.shoe_counts, tags=HI_LO, running_count=Fraction(rc), seen=30) for rc in (-2, 3)]
    alone = Analysis(h17, shoe=shoes[1]).round().ev
    with shared_stands([shoe.draw_model() for shoe in shoes]):
        Analysis(s17, shoe=shoes[0]).round()  # asks first, and works out the other shoe's tables too
        shared = Analysis(h17, shoe=shoes[1]).round().ev
    assert abs(shared - alone) < 1e-14
