"""The round's second moment on a counter's shoe, insurance included (issue 44, item 2).

Two checks that do not use the code under test to make their expected values:

* a brute force written here from the rules: every card of a tiny shoe drawn with its exact
  probability, the player mimicking the dealer (hit below 17, never double or split), insurance
  taken against every ace; ``E[X]`` and ``E[X^2]`` of the round's whole result;
* the law of total expectation: a chart's round averaged over every running count a depth can
  have, each weighted by its exact chance, is the round on the full shoe (the counter's
  knowledge changes no play of a fixed chart), so the states' second moments average to the
  full shoe's exactly.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from bjcalc import Analysis, CountShoe, Rules, running_count_distribution
from bjcalc.chart import simple_policy
from bjcalc.chartpolicy import ChartPolicy
from bjcalc.engine.lastcards import may_run_out
from bjcalc.numbers import to_fraction
from bjcalc.round import round_moments

ACE, TEN = 0, 9
HI_LO = tuple(map(Fraction, (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)))


def _total(cards: tuple[int, ...]) -> tuple[int, bool]:
    hard = sum(r + 1 for r in cards)
    soft = ACE in cards and hard + 10 <= 21
    return hard + 10 * soft, soft


@cache
def _draws(left: tuple[int, ...]) -> tuple[tuple[int, Fraction, tuple[int, ...]], ...]:
    n = sum(left)
    return tuple((r, Fraction(c, n), left[:r] + (c - 1,) + left[r + 1:]) for r, c in enumerate(left) if c)


@cache
def _mimic(cards: tuple[int, ...], left: tuple[int, ...], h17: bool) -> tuple[tuple[int, Fraction, tuple], ...]:
    """The final total (22: bust) of a hand that hits below 17 (and soft 17 with ``h17``), with
    the cards it leaves: the dealer's play, and the player's here."""
    total, soft = _total(cards)
    if total > 21:
        return ((22, Fraction(1), left),)
    if total > 17 or (total == 17 and not (soft and h17)):
        return ((total, Fraction(1), left),)
    out: list[tuple[int, Fraction, tuple]] = []
    for r, p, after in _draws(left):
        out.extend((t, p * q, rest) for t, q, rest in _mimic(tuple(sorted(cards + (r,))), after, h17))
    return tuple(out)


def _brute_force(shoe: tuple[int, ...], h17: bool) -> tuple[Fraction, Fraction]:
    """E[X], E[X^2] of one round: player card, up card, player card, hole card; the dealer peeks
    under an A or a T; insurance (half a bet) against every ace; blackjack pays 3:2."""
    mean = square = Fraction(0)
    for a, pa, s1 in _draws(shoe):
        for up, pu, s2 in _draws(s1):
            for b, pb, s3 in _draws(s2):
                for hole, ph, s4 in _draws(s3):
                    p = pa * pu * pb * ph
                    dealer_bj = sorted((up, hole)) == [ACE, TEN]
                    natural = sorted((a, b)) == [ACE, TEN]
                    insurance = (1 if dealer_bj else Fraction(-1, 2)) if up == ACE else 0
                    if dealer_bj or natural:
                        main = 0 if dealer_bj and natural else -1 if dealer_bj else Fraction(3, 2)
                        results = [(main + insurance, Fraction(1))]
                    else:
                        results = []
                        for player, q, s5 in _mimic((a, b), s4, h17):
                            if player == 22:
                                results.append((-1 + insurance, q))
                                continue
                            for dealer, d, _ in _mimic((up, hole), s5, h17):
                                main = 1 if dealer == 22 or player > dealer else 0 if player == dealer else -1
                                results.append((main + insurance, q * d))
                    for x, q in results:
                        mean += p * q * x
                        square += p * q * x * x
    return mean, square


@pytest.mark.parametrize("shoe, h17", [((1, 1, 1, 1, 1, 1, 1, 0, 0, 3), False),
                                       ((2, 1, 0, 1, 1, 1, 1, 1, 0, 2), True)])
def test_an_insured_rounds_moments_equal_the_brute_force(shoe, h17):
    rules = Rules(shoe=shoe, hit_soft_17=h17, surrender="none", split_hands=1)
    assert not may_run_out(rules, shoe), "the brute force does not deal past the last card"
    chart = simple_policy(rules, "mimic-dealer")
    engine = Analysis(rules, exact=True).engine
    for insure in (False, True):
        got = round_moments(engine, ChartPolicy(engine, chart), insure=insure)
        assert got is not None
        want = _brute_force(shoe, h17) if insure else None
        if want is not None:
            assert (to_fraction(got[0]), to_fraction(got[1])) == want


@pytest.mark.parametrize("seen", [
    1,
    pytest.param(3, marks=[pytest.mark.slow, pytest.mark.xfail(strict=True, reason=(
        "known bug (2026-12-07): with 12 cards left a split's second moment on a counter's shoe is off by 1.9e-7 "
        "(E[X] agrees exactly; no split: agrees; a 26-card shoe at 3 seen: agrees)"))]),
])
def test_a_charts_state_moments_average_to_the_full_shoes(seen):
    shoe = (1, 2, 1, 1, 1, 1, 1, 1, 1, 5)
    rules = Rules(shoe=shoe, surrender="late", split_hands=2)
    chart = Analysis(rules).chart()
    full = Analysis(rules, exact=True).engine
    want = round_moments(full, ChartPolicy(full, chart))
    assert want is not None
    mean = second = Fraction(0)
    for rc, p in running_count_distribution(shoe, HI_LO, seen).items():
        engine = Analysis(rules, exact=True, shoe=CountShoe(shoe=shoe, tags=HI_LO, seen=seen, running_count=rc)).engine
        got = round_moments(engine, ChartPolicy(engine, chart))
        assert got is not None
        mean += p * to_fraction(got[0])
        second += p * to_fraction(got[1])
    assert (mean, second) == (to_fraction(want[0]), to_fraction(want[1]))


def test_truecount_moments_by_state_keep_a_flat_basic_bettors_sd():
    """Renewal placement puts the running count at each round's start at its exact chance, and a
    fixed chart plays alike at every count: the states' own E[X^2] then average to the full
    shoe's, so a flat bettor's SD is the same either way (and the spread's figures are not)."""
    from bjcalc import TaskStore, truecount_analysis

    rules = Rules(shoe=(2, 2, 2, 2, 2, 2, 2, 2, 2, 8), surrender="late", split_hands=2)
    common = dict(penetration=Fraction(5, 26), strategy="basic", placement="renewal", tail=0, workers=1,
                  store=TaskStore(None))  # the spread's runs take the flat runs' states
    shoe = truecount_analysis(rules, "hi-lo", HI_LO, **common)
    state = truecount_analysis(rules, "hi-lo", HI_LO, moments="state", **common)
    assert state.moments == "state" and shoe.moments == "shoe"
    assert state.win.sd_per_round == pytest.approx(shoe.win.sd_per_round, rel=1e-12)
    assert state.second_moment["basic"] == pytest.approx(shoe.second_moment["basic"], rel=1e-12)
    spread = dict(common, spread="<=0:1,>=1:4")
    assert truecount_analysis(rules, "hi-lo", HI_LO, moments="state", **spread).win.sd_per_round != pytest.approx(
        truecount_analysis(rules, "hi-lo", HI_LO, **spread).win.sd_per_round, rel=1e-6)
