"""The compiled float passes on a counter's shoe (the player loop with its per-row weights,
bjcalc/engine/_player_kernel.c; every up card's dealer in the weighted joint pass,
bjcalc/engine/_dealer_kernel.c) against the numpy passes they replace
(``BJCALC_NUMPY_PLAYER=1``, ``BJCALC_NUMPY_DEALER=1``), to 1e-13: every hand's stand, hit,
double, one-card, best and dealer-blackjack values as EVs, the row weights, the plays, the split
values, the dealer's outcomes, the round and a chart's round. Random counter's shoes (a random
depleted shoe, cards seen and a running count drawn from its exact distribution) for Hi-Lo,
Omega II, Wong Halves and KO with its initial running count, over rule sets with H17, DAS,
resplits (aces too), surrender and no hole card."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bjcalc import Analysis, Rules
from bjcalc.counting.countshoe import CountShoe, running_count_distribution
from bjcalc.counting.systems import CountSystem
from bjcalc.engine import kernels

needs_kernels = pytest.mark.skipif(
    kernels.player_kernel is None or not hasattr(kernels.dealer_kernel, "joint"), reason="compiled loops not built")

TOLERANCE = 1e-13

# (system, decks, initial running count, rules, seed)
CASES = {
    "Hi-Lo, S17 DAS RS4 LS": ("hi-lo", 2, 0, dict(surrender="late", split_hands=4, double_after_split=True), 1),
    "Omega II, H17 DAS resplit and hit aces, no hole card": (
        "omega-ii", 1, 0, dict(hit_soft_17=True, double_after_split=True, split_hands=4, resplit_aces=True,
                               hit_split_aces=True, hole_card="none", blackjack_takes="all"), 2),
    "Wong Halves, H17 LS, no hole card takes the original bet": (
        "wong-halves", 1, 0, dict(hit_soft_17=True, surrender="late", split_hands=3, hole_card="none",
                                  blackjack_takes="original"), 3),
    "KO with its IRC, S17 ES DAS RSA": (
        "ko", 2, -4, dict(surrender="early", double_after_split=True, split_hands=4, resplit_aces=True), 4),
    "Hi-Lo, H17 five-card charlie, 10/11 doubles": (
        "hi-lo", 1, 0, dict(hit_soft_17=True, charlie=5, double="10-11"), 5),
}


def _counter(system: str, decks: int, irc: int, seed: int) -> tuple[tuple[int, ...], CountShoe]:
    """A random depleted shoe, and a counter's shoe on it: random cards seen, a running count
    drawn from their exact distribution."""
    rng = random.Random(seed)
    shoe = [4 * decks] * 9 + [16 * decks]
    for _ in range(rng.randint(0, 4)):
        shoe[rng.randrange(10)] -= 1
    tags = CountSystem.named(system).tags
    seen = rng.randint(4, sum(shoe) // 3)
    counts = running_count_distribution(shoe, tags, seen, irc)
    rc = rng.choices(list(counts), weights=[float(p) for p in counts.values()])[0]
    return tuple(shoe), CountShoe(shoe=tuple(shoe), tags=tags, seen=seen, running_count=rc,
                                  initial_running_count=irc)


def _everything(rules: Rules, counter: CountShoe, chart) -> dict:
    analysis = Analysis(rules, shoe=counter)
    engine = analysis.engine
    ev = analysis.round().ev
    return {
        "compiled": engine._joint is not None,
        "tables": {up: engine.table(up) for up in engine.ups()},
        "splits": {(up, pair, first): engine.splits(up).value(pair, first_hand_only=first)
                   for up in engine.ups() for pair in engine.splits(up).pairs() for first in (False, True)},
        "dealer": {up: analysis.dealer(up).probabilities for i, up in enumerate("A23456789T") if rules.shoe_counts[i]},
        "round": ev,
        "chart": analysis.evaluate(chart).round.ev,
    }


def _same_tables(fast, slow, what: str) -> None:
    assert list(fast.scale) == list(slow.scale)
    dealable = np.asarray(fast.shoe)  # rows whose cards the shoe holds; the others have probability 0
    for k in range(len(fast.stand)):
        weight, slow_weight = np.asarray(fast.weights[k]), np.asarray(slow.weights[k])
        np.testing.assert_allclose(weight, slow_weight, rtol=TOLERANCE, atol=0, err_msg=f"{what}: weights, layer {k}")
        rows = (slow_weight > 0) & (np.asarray(fast.layers.counts[k]) <= dealable).all(axis=1)
        scale = fast.scale[k] * slow_weight[rows]
        for name in ("stand", "hit", "best", "blackjack"):
            a, b = (np.asarray(getattr(t, name)[k])[rows] / scale for t in (fast, slow))
            np.testing.assert_allclose(a, b, rtol=0, atol=TOLERANCE, err_msg=f"{what}: {name}, layer {k}")
        hit, stand = np.asarray(slow.hit[k])[rows] / scale, np.asarray(slow.stand[k])[rows] / scale
        tie = np.isclose(hit, stand, rtol=0, atol=1e-12)
        if k == fast.double_layer:
            for name in ("double", "one_card"):
                a, b = (np.asarray(getattr(t, name))[rows] / scale for t in (fast, slow))
                np.testing.assert_allclose(a, b, rtol=0, atol=TOLERANCE, err_msg=f"{what}: {name}")
            tie |= np.isclose(np.asarray(slow.double)[rows] / scale, np.maximum(hit, stand), rtol=0, atol=1e-12)
        differ = (np.asarray(fast.decision[k])[rows] != np.asarray(slow.decision[k])[rows]) & ~tie
        assert not differ.any(), f"{what}: plays differ in layer {k}"


@needs_kernels
@pytest.mark.parametrize("name", list(CASES))
def test_the_compiled_counters_shoe_equals_the_numpy_one(monkeypatch, name):
    system, decks, irc, options, seed = CASES[name]
    shoe, counter = _counter(system, decks, irc, seed)
    rules = Rules(shoe=shoe, **options)
    chart = Analysis(rules).chart()  # a composition's chart, played on the counter's shoe by both
    monkeypatch.delenv("BJCALC_NUMPY_PLAYER", raising=False)
    monkeypatch.delenv("BJCALC_NUMPY_DEALER", raising=False)
    fast = _everything(rules, counter, chart)
    monkeypatch.setenv("BJCALC_NUMPY_PLAYER", "1")
    monkeypatch.setenv("BJCALC_NUMPY_DEALER", "1")
    slow = _everything(rules, counter, chart)
    assert fast["compiled"] and not slow["compiled"]
    for up, table in fast["tables"].items():
        _same_tables(table, slow["tables"][up], f"{name}, up {up}")
    assert fast["splits"].keys() == slow["splits"].keys()
    for key, value in fast["splits"].items():
        assert abs(value - slow["splits"][key]) < TOLERANCE, (name, "split", key)
    for up, outcomes in fast["dealer"].items():
        assert outcomes.keys() == slow["dealer"][up].keys()
        for outcome, p in outcomes.items():
            assert abs(p - slow["dealer"][up][outcome]) < TOLERANCE, (name, "dealer", up, outcome)
    assert abs(fast["round"] - slow["round"]) < TOLERANCE
    assert abs(fast["chart"] - slow["chart"]) < TOLERANCE
