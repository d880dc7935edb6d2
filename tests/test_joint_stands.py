"""The weighted joint pass of several counter's shoes at once (``_dealer_kernel.joint_many``,
:func:`bjcalc.engine.jointdealer.joint_stands`): each shoe's stand tables against the joint pass
of that shoe alone (``joint``, itself checked against the numpy loop in test_dealer_kernel),
and the same numbers whichever shoes go together."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from bjcalc import Rules
from bjcalc.countshoe import CountShoe
from bjcalc.engine import kernels
from bjcalc.engine.batch import JointBatch, ShoeIndex
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
