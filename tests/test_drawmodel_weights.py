"""The counter's shoe's class-total weights (bjcalc.engine.drawmodel) against the formula
written out here: Z(M - A) / Z(M) = sum over the posterior's splits d of c_d * prod_j
u_j^(A_j) / M_j^(A_j) (falling factorials), summed in integers, one vector at a time, and the
posterior's splits against a walk over every split of the discards into classes."""

import itertools
import math
import random

import numpy as np
import pytest

from bjcalc.counting.countshoe import CountShoe


def _naive_weight(model, drawn):
    if any(a > m for a, m in zip(drawn, model.pool)):
        return 0
    below = math.prod(math.perm(m, a) for m, a in zip(model.pool, drawn))
    above = sum(c * math.prod(math.perm(u, a) for u, a in zip(left, drawn)) for left, c in model.support)
    return above // below


def _naive_splits(shoe):
    classes = shoe.classes
    pool = shoe.classes.totals(shoe.off_table)
    found = {}
    for d in itertools.product(*(range(min(m, shoe.seen) + 1) for m in pool)):
        if sum(d) == shoe.seen and sum(v * x for v, x in zip(classes.values, d)) == shoe.discard_sum:
            found[tuple(m - x for m, x in zip(pool, d))] = math.prod(math.comb(m, x) for m, x in zip(pool, d))
    return found


@pytest.mark.parametrize("system, decks, seen, rc", [
    ("omega-ii", 2, 40, 4), ("wong-halves", 1, 20, 2), ("zen", 2, 30, -3), ("uston-apc", 1, 15, 3),
    ("hi-lo", 2, 50, 5), ("hi-opt-ii", 1, 12, -2),
])
def test_weights_equal_the_formula(system, decks, seen, rc):
    shoe = CountShoe.named(system, shoe=(4 * decks,) * 9 + (16 * decks,), seen=seen, running_count=rc)
    assert shoe._splits() == _naive_splits(shoe)
    model = shoe.draw_model()
    rng = random.Random(f"{system}{decks}{seen}{rc}")
    # a round's draws: many vectors sharing parts in some classes, a few beyond a class's cards
    draws = [tuple(rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(10)) for _ in range(300)] + [(0,) * 10]
    codes = np.array([model.code_of(d) for d in draws])
    exact = [model._exact_weight(int(c)) for c in codes]
    floats = model.weights(codes, exact=False)
    for c, e, f in zip(codes, exact, floats):
        want = _naive_weight(model, model._unpack(np.array(c)).tolist())
        assert e == want
        assert f == pytest.approx(want / model.total, rel=1e-12, abs=1e-300)
