"""The engine on a counter's shoe (bjcalc.counting.countshoe, docs/countshoe.md) against the brute-force
oracle tests/oracles/naive_counthand.py (written from the model alone: every discard set, every
card sequence, an expectimax whose hidden state is the discard set and the hole card), exactly;
float against exact; and the law of total expectation for a fixed chart over every running
count (splits, doubles and the deal's weights included).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracles import naive_counthand as oracle
from oracles.naive_reference import DEFAULT_RULES
from test_against_naive import naive_rules, rule_sets

from bjcalc import Action, Analysis, InvalidShoeError, Rules
from bjcalc.cards import RANK_NOTATION
from bjcalc.counting.countshoe import CountShoe, running_count_distribution
from bjcalc.counting.systems import CountSystem
from bjcalc.numbers import to_fraction

HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
TAGS = [HI_LO, (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),  # Omega II
        (-1, Fraction(1, 2), 1, 1, Fraction(3, 2), 1, Fraction(1, 2), 0, Fraction(-1, 2), -1),  # Halves
        (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1)]  # KO (unbalanced)


@st.composite
def count_cases(draw):
    counts = [draw(st.integers(0, 2)) for _ in range(9)] + [draw(st.integers(2, 5))]
    assume(9 <= sum(counts) <= 12)
    tags = draw(st.sampled_from(TAGS))
    seen = draw(st.integers(1, 3))
    try:
        sums = sorted({sum(Fraction(tags[r]) for r in subset)
                       for subset in _subsets(counts, seen)})
    except ValueError:
        assume(False)
    discard_count = draw(st.sampled_from(sums))
    return tuple(counts), tags, seen, discard_count


def _subsets(counts, seen):
    import itertools

    cards = [r for r, n in enumerate(counts) for _ in range(n)]
    return itertools.combinations(cards, seen)


@settings(max_examples=examples(40), deadline=None)
@given(case=count_cases(), rules=rule_sets(), data=st.data())
def test_hand_evs_equal_the_expectimax_over_the_counters_knowledge(case, rules, data):
    shoe, tags, seen, discard_count = case
    up = data.draw(st.integers(0, 9), label="up")
    hand = (data.draw(st.integers(0, 9), label="first"), data.draw(st.integers(0, 9), label="second"))
    dealt = tuple(c + 1 for c in (up,) + hand)
    assume(oracle.count_deal_probability(shoe, tags, seen, discard_count, dealt) > 0)
    rules = rules.replace(shoe=shoe)
    count_shoe = CountShoe(shoe=shoe, tags=tags, seen=seen, running_count=discard_count)
    try:
        result = Analysis(rules, exact=True, shoe=count_shoe).hand([RANK_NOTATION[c] for c in hand], RANK_NOTATION[up])
    except InvalidShoeError:
        assume(False)
    try:
        expected = oracle.count_hand(shoe, tags, seen, discard_count, up + 1, tuple(c + 1 for c in hand),
                                     naive_rules(rules))
    except Exception as error:  # the oracle's shoe ran out where the engine's check did not
        assume(type(error).__name__ != "ShoeExhausted")
        raise
    natural = sorted(hand) == [0, 9]
    assert result.conditioned == expected["conditioned"]
    for action in (Action.STAND, Action.HIT, Action.DOUBLE, Action.SURRENDER):
        if natural and action is not Action.STAND:
            continue
        got, want = result.evs.get(action), expected[action.key]
        assert (got is None) == (want is None), f"{action.key}: engine {got}, oracle {want}"
        if want is not None:
            assert to_fraction(got) == want, f"{action.key}: engine {got}, oracle {want}"


@settings(max_examples=examples(40), deadline=None)
@given(case=count_cases(), rules=rule_sets(), data=st.data())
def test_dealer_outcomes_equal_the_oracles(case, rules, data):
    shoe, tags, seen, discard_count = case
    up = data.draw(st.integers(0, 9), label="up")
    removed = tuple(data.draw(st.lists(st.integers(0, 9), max_size=2), label="removed"))
    dealt = tuple(c + 1 for c in (up,) + removed)
    assume(oracle.count_deal_probability(shoe, tags, seen, discard_count, dealt) > 0)
    rules = rules.replace(shoe=shoe)
    count_shoe = CountShoe(shoe=shoe, tags=tags, seen=seen, running_count=discard_count)
    try:
        table = Analysis(rules, exact=True, shoe=count_shoe).dealer(
            RANK_NOTATION[up], removed=[RANK_NOTATION[c] for c in removed])
    except InvalidShoeError:
        assume(False)
    try:
        expected = oracle.count_dealer(shoe, tags, seen, discard_count, up + 1, naive_rules(rules),
                                       removed=tuple(c + 1 for c in removed))
    except Exception as error:
        assume(type(error).__name__ != "ShoeExhausted")
        raise
    assert sum(table.values()) == 1
    for outcome, p in expected.items():
        assert to_fraction(table.get(str(outcome), 0)) == p, f"outcome {outcome}"


def test_the_count_changes_the_best_play_and_the_oracle_agrees():
    """16 against a ten, two cards seen from a 13-card shoe: hit at discard counts -1 and 0,
    stand at +1 (the index play, in miniature); both EVs equal the oracle's."""
    shoe = (2, 1, 0, 0, 1, 1, 1, 2, 0, 5)
    best = {}
    for discard_count in (-1, 0, 1):
        count_shoe = CountShoe(shoe=shoe, tags=HI_LO, seen=2, running_count=discard_count)
        result = Analysis(Rules(shoe=shoe), exact=True, shoe=count_shoe).hand("T,6", "T")
        want = oracle.count_hand(shoe, HI_LO, 2, discard_count, 10, (10, 6), DEFAULT_RULES)
        assert to_fraction(result.evs[Action.HIT]) == want["hit"]
        assert to_fraction(result.evs[Action.STAND]) == want["stand"]
        best[discard_count] = result.best
    assert best == {-1: Action.HIT, 0: Action.HIT, 1: Action.STAND}


def test_float_agrees_with_exact_on_a_counters_shoe():
    rules = Rules(decks=1, surrender="late")
    count_shoe = CountShoe.named("hi-lo", shoe=rules.shoe_counts, seen=12, running_count=3)
    exact, floats = Analysis(rules, exact=True, shoe=count_shoe), Analysis(rules, shoe=count_shoe)
    for cards, up in (("T,6", "T"), ("9,2", "A"), ("8,8", "9"), ("A,7", "3")):
        e, f = exact.hand(cards, up), floats.hand(cards, up)
        for action, value in e.evs.items():
            assert abs(float(value) - f.evs[action]) < 1e-12, (cards, up, action)
    assert abs(float(exact.dealer("6")["bust"]) - floats.dealer("6")["bust"]) < 1e-12


def test_a_fixed_chart_averaged_over_the_running_count_is_the_chart_on_the_full_shoe():
    """E[EV | RC] averaged over the running count's exact distribution is the unconditioned
    EV: for a fixed chart (splits, doubles, surrender played by it), to float precision."""
    rules = Rules(decks=1, surrender="late")
    full = Analysis(rules)
    chart = full.chart()
    want = full.evaluate(chart).round.ev
    tags = CountSystem.named("hi-lo").tags
    total = 0.0
    for rc, p in running_count_distribution(rules.shoe_counts, tags, 2).items():
        count_shoe = CountShoe(shoe=rules.shoe_counts, tags=tags, seen=2, running_count=rc)
        total += float(p) * Analysis(rules, shoe=count_shoe).evaluate(chart).round.ev
    assert total == pytest.approx(want, abs=1e-14)


def test_a_counters_shoe_must_be_the_rules_shoe_with_nothing_on_the_table():
    rules = Rules(decks=1)
    with pytest.raises(InvalidShoeError, match="not the rules' shoe"):
        Analysis(rules, shoe=CountShoe.named("hi-lo", shoe=Rules(decks=2).shoe_counts))
    with pytest.raises(InvalidShoeError, match="undealt"):
        Analysis(rules, shoe=CountShoe.named("hi-lo", shoe=rules.shoe_counts, hand="T,6", up="T", running_count=-1))
    with pytest.raises(InvalidShoeError, match="CountShoe"):
        Analysis(rules, shoe=rules.shoe_counts)  # type: ignore[arg-type]


@pytest.mark.parametrize("exact", [False, True])
def test_solvers_that_share_split_hands_give_what_each_gives_alone(exact):
    """A chart's and CD's split solvers on one engine share the passes (and split EVs) of
    pairs whose split hands they play alike: each pair's EV is the one a solver alone on its
    own engine gives, so no pair takes another play's values."""
    from bjcalc.chart import chart_decider
    from bjcalc.chartpolicy import ChartPolicy
    from bjcalc.engine.walk import Optimal

    rules = Rules(decks=1, surrender="late")
    chart = Analysis(rules).chart()
    hi_lo = CountSystem.named("hi-lo").tags

    def engine():
        shoe = CountShoe(shoe=rules.shoe_counts, tags=hi_lo, seen=14, running_count=3)
        return Analysis(rules, shoe=shoe, exact=exact).engine

    both = engine()
    chart_alone, cd_alone = engine(), engine()
    tolerance = 0 if exact else 1e-13
    shared = 0
    for up in (9,) if exact else range(10):  # exact mode: one up card (tens: ten pairs; slow)
        together_chart = ChartPolicy(both, chart).splits(up)
        together_cd = Optimal(both).splits(up)
        alone_chart = chart_alone.chart_splits(up, chart_decider(chart.ups[up]))
        alone_cd = Optimal(cd_alone).splits(up)
        for pair in together_cd.pairs():
            # floats: the float weights of a counter's shoe are worked out in batches, in the
            # order an engine asks for them, so two engines differ in the last digits
            for together, alone in ((together_chart, alone_chart), (together_cd, alone_cd)):
                assert together.value(pair) == pytest.approx(alone.value(pair), rel=0, abs=tolerance), (up, pair)
            shared += together_chart.hand_values(pair, 0) is together_cd.hand_values(pair, 0)
    assert shared  # some pair's split hands play alike, so the sharing was exercised


def test_chart_policies_of_many_charts_keep_a_few_charts_plays():
    """The first plays a chart policy looks up are kept per chart for the process, a few
    charts at most; each policy plays its own chart."""
    from bjcalc.cards import RANK_NOTATION as NAMES
    from bjcalc.chart import CHART_TABLES, chart_from_tables
    from bjcalc.chartpolicy import _CHART_ACTIONS, _CHARTS_KEPT, ChartPolicy

    rules = Rules(decks=1, surrender="late")
    analysis = Analysis(rules)
    base = analysis.chart()
    tables = {kind: base.table(kind) for kind in CHART_TABLES}
    hand = (0, 0, 0, 0, 0, 1, 0, 0, 0, 1)  # 6,T: hard 16
    for up in range(10):
        hard = {**tables["hard"], "16": {**tables["hard"]["16"], NAMES[up]: "Dh"}}  # a chart of its own
        chart = chart_from_tables(rules, {**tables, "hard": hard}, "16 doubles")
        policy = ChartPolicy(analysis.engine, chart)
        assert policy.action(up, hand, True) is Action.DOUBLE, up
        assert ChartPolicy(analysis.engine, base).action(up, hand, True) is not Action.DOUBLE, up
        assert len(_CHART_ACTIONS) <= _CHARTS_KEPT


def test_a_charlie_on_a_counters_shoe_wins_as_the_expectimax_says():
    """Found by the property test above in CI: 9 cards, one seen with Hi-Lo running count -1 (so
    a ten, both aces being on the table), A,2 against an A with a 4-card charlie. The four cards
    left are 3, 5, 7, 8 and the ten less the hole card: A,2 and any two of them is at most a hard
    21, so hitting twice always makes the charlie, and hit's EV is exactly 1."""
    shoe = (2, 1, 1, 0, 1, 0, 1, 1, 0, 2)
    rules = Rules(shoe=shoe, double_soft=False, split_hands=4, surrender="none", insurance=False, charlie=4)
    count_shoe = CountShoe(shoe=shoe, tags=(-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), seen=1, running_count=-1)
    result = Analysis(rules, exact=True, shoe=count_shoe).hand(["A", "2"], "A")
    assert to_fraction(result.evs[Action.HIT]) == 1
