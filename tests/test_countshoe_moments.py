"""The variance, Bet Behind and the EV matrix on a counter's shoe (docs/countshoe.md).

The oracle is the law of total expectation over the discards: for a fixed chart, every
expectation on the counter's shoe (E[X], E[X^2], a probability) is the mixture, over every
discard composition the count allows, weighted by its posterior probability, of the same
expectation on the composition the discards leave, computed by the composition engine (which
the rest of the suite checks against brute force). Exact, as fractions.
"""

from __future__ import annotations

import pytest
from oracles import naive_counthand as oracle

from bjcalc import Analysis, Rules
from bjcalc.countshoe import CountShoe
from bjcalc.numbers import to_fraction

HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)


def test_an_exact_analysis_chooses_the_chart_for_the_counters_shoe():
    """The chart (chosen in floats) of an exact analysis on a counter's shoe is the counter's
    chart, not the full shoe's: one deck, 20 cards seen at RC +6."""
    rules = Rules(decks=1)
    count_shoe = CountShoe.named("hi-lo", shoe=rules.shoe_counts, seen=20, running_count=6)
    exact = Analysis(rules, exact=True, shoe=count_shoe)
    counters = Analysis(rules, shoe=count_shoe).chart()
    assert counters.key != Analysis(rules).chart().key  # the count changes the chart here
    assert exact.chart().key == counters.key
    assert exact.deviations(counters) == []


def _mixture(shoe, tags, seen, discard_count, measure):
    """sum over the discard compositions of P(composition | count) x ``measure(cards left)`` (a
    tuple of Fractions, added term by term): the law of total expectation's right-hand side."""
    total = None
    for left, p in oracle.discard_compositions(shoe, tags, seen, discard_count):
        values = tuple(p * v for v in measure(left))
        total = values if total is None else tuple(a + b for a, b in zip(total, values))
    return total


def _moments(analysis, chart):
    """E[X] and E[X^2] of the round played by ``chart``, as Fractions."""
    ev = to_fraction(analysis.evaluate(chart).round.ev)
    return ev, to_fraction(analysis.variance(chart).variance) + ev * ev


# small shoes, with pairs to split and resplit, rule sets that reach every branch of the moments
MOMENT_CASES = [
    ((2, 2, 2, 2, 1, 2, 2, 2, 2, 6), 1, 1, dict(split_hands=3, surrender="late")),
    ((1, 2, 2, 2, 1, 2, 2, 2, 2, 6), 2, -1, dict(hole_card="none", blackjack_takes="original", hit_soft_17=True)),
    ((2, 2, 2, 2, 2, 1, 2, 2, 2, 6), 1, 0, dict(split_hands=3, double_after_split=False, resplit_aces=True,
                                                  hit_split_aces=True, charlie=5)),
]


@pytest.mark.parametrize("shoe, seen, discard_count, options", MOMENT_CASES)
def test_the_counters_moments_for_a_fixed_chart_are_the_mixture_over_the_discards(shoe, seen, discard_count,
                                                                                  options):
    """E[X] and E[X^2] of the round (splits and resplits included) on the counter's shoe equal
    the posterior mixture of the compositions' own, exactly; float mode agrees to 1e-12, with
    the chart and with CD play."""
    rules = Rules(shoe=shoe, **options)
    chart = Analysis(rules).chart()
    count_shoe = CountShoe(shoe=shoe, tags=HI_LO, seen=seen, running_count=discard_count)
    exact = Analysis(rules, exact=True, shoe=count_shoe)
    got = _moments(exact, chart)
    want = _mixture(shoe, HI_LO, seen, discard_count,
                    lambda left: _moments(Analysis(rules.replace(shoe=left), exact=True), chart))
    assert got == want
    floats = Analysis(rules, shoe=count_shoe)
    assert floats.variance(chart).variance == pytest.approx(float(got[1] - got[0] ** 2), abs=1e-12)
    assert floats.variance().variance == pytest.approx(float(exact.variance().variance), abs=1e-12)


def _bet_behind(analysis, chart):
    result = analysis.bet_behind(chart)
    return to_fraction(result.follows_everything), to_fraction(result.cannot_afford)


@pytest.mark.parametrize("shoe, seen, discard_count, options", MOMENT_CASES[:2])
def test_bet_behind_a_fixed_chart_on_the_counters_shoe_is_the_mixture_over_the_discards(shoe, seen, discard_count,
                                                                                        options):
    """Both Bet Behind EVs (following everything; one card for a double, the first hand of a
    split) with the seated player on a fixed chart, exactly; float agrees to 1e-12."""
    rules = Rules(shoe=shoe, **options)
    chart = Analysis(rules).chart()
    count_shoe = CountShoe(shoe=shoe, tags=HI_LO, seen=seen, running_count=discard_count)
    got = _bet_behind(Analysis(rules, exact=True, shoe=count_shoe), chart)
    assert got == _mixture(shoe, HI_LO, seen, discard_count,
                           lambda left: _bet_behind(Analysis(rules.replace(shoe=left), exact=True), chart))
    assert got[0] != got[1]  # the chart doubles or splits
    floats = Analysis(rules, shoe=count_shoe).bet_behind(chart)
    assert (floats.follows_everything, floats.cannot_afford) == pytest.approx(tuple(map(float, got)), abs=1e-12)
