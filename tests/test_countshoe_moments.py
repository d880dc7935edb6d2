"""The variance, Bet Behind and the EV matrix on a counter's shoe (docs/countshoe.md).

The oracle is the law of total expectation over the discards: for a fixed chart, every
expectation on the counter's shoe (E[X], E[X^2], a probability) is the mixture, over every
discard composition the count allows, weighted by its posterior probability, of the same
expectation on the composition the discards leave, computed by the composition engine (which
the rest of the suite checks against brute force). Exact, as fractions.
"""

from __future__ import annotations

from bjcalc import Analysis, Rules
from bjcalc.countshoe import CountShoe

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
