"""The variance, Bet Behind and the EV matrix on a counter's shoe (docs/countshoe.md).

The oracle is the law of total expectation over the discards: for a fixed chart, every
expectation on the counter's shoe (E[X], E[X^2], a probability) is the mixture, over every
discard composition the count allows, weighted by its posterior probability, of the same
expectation on the composition the discards leave, computed by the composition engine (which
the rest of the suite checks against brute force). Exact, as fractions.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracles import naive_counthand as oracle

from bjcalc import Action, Analysis, InvalidHandError, Rank, Rules
from bjcalc.counting.countshoe import CountShoe
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
        total = values if total is None else tuple(a + b for a, b in zip(total, values, strict=True))
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


def _sequence(left, cards):
    """P(the next cards from the composition ``left`` are ``cards`` (rank indices), in order)."""
    counts, p = list(left), Fraction(1)
    for card in cards:
        p *= Fraction(counts[card], sum(counts))
        counts[card] -= 1
    return p


def _given_deal(shoe, seen, discard_count, dealt, measure):
    """The mixture of ``measure(cards left)`` given that ``dealt`` (rank indices) came first:
    each discard composition weighted by its posterior x P(``dealt`` | it), normalised."""
    weight, total = Fraction(0), None
    for left, p in oracle.discard_compositions(shoe, HI_LO, seen, discard_count):
        q = p * _sequence(left, dealt)
        if q:
            values = tuple(q * v for v in measure(left))
            total = values if total is None else tuple(a + b for a, b in zip(total, values, strict=True))
            weight += q
    return tuple(v / weight for v in total)


TINY = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)  # 26 cards


@pytest.mark.parametrize("options", [dict(split_hands=2, surrender="late"),
                                     dict(split_hands=3, hole_card="none", blackjack_takes="original")])
def test_split_chances_of_a_fixed_chart_are_the_mixture_given_the_up_card_and_the_pair(options):
    """P(Y > 0), P(Y = 0), P(Y < 0) of a split (joint with no dealer blackjack after a peek; with
    resplits allowed, over the rounds in which none happens) given the up card and the pair:
    on the counter's shoe, each composition's weighted by posterior x P(up card, pair | it)."""
    rules = Rules(shoe=TINY, **options)
    chart = Analysis(rules).chart()
    seen, discard_count = 2, 1
    count_shoe = CountShoe(shoe=TINY, tags=HI_LO, seen=seen, running_count=discard_count)
    exact, floats = Analysis(rules, exact=True, shoe=count_shoe), Analysis(rules, shoe=count_shoe)
    checked = 0
    for pair, up in (("8", "T"), ("3", "6"), ("A", "T"), ("T", "5")):
        p, u = Rank(pair), Rank(up)
        got = exact.split_chances(p, u, chart)
        assert got is not None
        assert got[3] == (options["split_hands"] == 2 or pair != "T")  # only the tens can resplit here
        want = _given_deal(TINY, seen, discard_count, (u.index, p.index, p.index),
                           lambda left, p=p, u=u: tuple(map(to_fraction, Analysis(rules.replace(shoe=left), exact=True)
                                                            .split_chances(p, u, chart)[:3])))
        assert tuple(map(to_fraction, got[:3])) == want, (pair, up)
        assert floats.split_chances(p, u, chart)[:3] == pytest.approx(tuple(map(float, want)), abs=1e-12)
        checked += 1
    assert checked == 4
    with pytest.raises(InvalidHandError, match="cannot be split"):  # two aces in the shoe
        exact.split_chances(Rank("A"), Rank("A"), chart)


def test_the_dealer_after_a_hand_is_the_mixture_given_the_up_card_and_the_hand():
    """P(dealer outcome | up card, the hand's cards dealt) on the counter's shoe: each
    composition's dealer table with the hand out, weighted by posterior x P(up card, hand | it)."""
    rules = Rules(shoe=TINY, split_hands=2)
    seen, discard_count = 2, -1
    count_shoe = CountShoe(shoe=TINY, tags=HI_LO, seen=seen, running_count=discard_count)
    exact, floats = Analysis(rules, exact=True, shoe=count_shoe), Analysis(rules, shoe=count_shoe)
    for hand, up in (("T,6", "T"), ("2,3", "6"), ("A,7", "A"), ("2,2,5", "9"), ("4,2,3,2", "T")):
        cards, u = [Rank(c) for c in hand.split(",")], Rank(up)
        got = exact.dealer_after(cards, u)
        assert got is not None and sum(got.values()) == 1
        outcomes = sorted(got)
        want = _given_deal(TINY, seen, discard_count, (u.index, *(c.index for c in cards)),
                           lambda left, u=u, cards=cards, outcomes=outcomes: tuple(
                               to_fraction(Analysis(rules.replace(shoe=left), exact=True).dealer(u, removed=cards)
                                           .get(o, 0)) for o in outcomes))
        assert tuple(to_fraction(got[o]) for o in outcomes) == want, (hand, up)
        table = exact.dealer(u, removed=cards)  # the analysis' own dealer table agrees
        assert {o: got[o] for o in outcomes} == {o: table.get(o, 0) for o in outcomes}
        f = floats.dealer_after(cards, u)
        assert f is not None and [f[o] for o in outcomes] == pytest.approx([float(w) for w in want], abs=1e-12)


def test_the_ev_matrix_on_a_counters_shoe_adds_up_and_float_agrees_with_exact():
    """The matrix's facts on a counter's shoe (its cells' draws and dealer tables must take the
    counter's odds for them to hold): the deal's chances add up to 1, the best plays to the
    round's EV, each best play's win/push/loss to 1 and to its EV (a unit bet: P(win) -
    P(loss), a doubled one twice that); float agrees with exact to 1e-12 in every cell."""
    from bjcalc.matrix import ev_matrix

    rules = Rules(shoe=TINY, split_hands=2, surrender="late")
    count_shoe = CountShoe(shoe=TINY, tags=HI_LO, seen=4, running_count=2)
    exact = ev_matrix(Analysis(rules, exact=True, shoe=count_shoe))
    assert sum(to_fraction(c.probability) for c in exact.cells) == 1
    assert sum(to_fraction(c.probability) * to_fraction(c.best_unconditional) for c in exact.cells) \
        == to_fraction(exact.round.ev)
    kinds = set()
    for cell in exact.cells:
        w, p, lo = (to_fraction(x) for x in (cell.chances.win, cell.chances.push, cell.chances.loss))
        assert min(w, p, lo) >= 0 and w + p + lo == 1, (cell.label, cell.up)
        ev = to_fraction(cell.hand.evs[cell.best])
        if cell.best in (Action.STAND, Action.HIT) and not cell.hand.is_blackjack:
            assert ev == w - lo, (cell.label, cell.up)
        elif cell.best is Action.DOUBLE:
            assert ev == 2 * (w - lo), (cell.label, cell.up)
        kinds.add(cell.best)
    assert {Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT} <= kinds
    floats = ev_matrix(Analysis(rules, shoe=count_shoe))
    for e, f in zip(exact.cells, floats.cells, strict=True):
        assert (e.label, e.up, e.best) == (f.label, f.up, f.best)
        for x, y in ((e.probability, f.probability), (e.chances.win, f.chances.win),
                     (e.chances.loss, f.chances.loss), *((e.hand.evs[a], f.hand.evs[a]) for a in e.hand.evs)):
            assert abs(float(x) - y) < 1e-12, (e.label, e.up)
    assert abs(float(exact.chances.win) - floats.chances.win) < 1e-12
