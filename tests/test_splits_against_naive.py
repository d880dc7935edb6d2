"""Split EVs and whole rounds against the naive reference (tests/oracles/naive_split.py), exactly.

The reference enumerates every card sequence of the split play, resplits included, with the
hole card dealt first; the engine uses the exact pair-card recursion of bjcalc/split.py.
"""


from conftest import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracles import naive_reference as naive
from oracles import naive_split
from test_against_naive import naive_rules, rule_sets

from bjcalc import Action, Analysis, InvalidShoeError
from bjcalc.cards import RANK_NOTATION
from bjcalc.numbers import to_fraction

SETTINGS = settings(max_examples=examples(25))


@st.composite
def split_cases(draw):
    pair = draw(st.integers(0, 9))
    counts = [draw(st.integers(0, 2)) for _ in range(9)] + [draw(st.integers(4, 8))]
    counts[pair] = max(counts[pair], 2) + draw(st.integers(0, 2))  # room for resplits
    assume(11 <= sum(counts) <= 15)
    up = draw(st.integers(0, 9))
    available = list(counts)
    available[pair] -= 2
    assume(available[up] >= 1)
    return tuple(counts), pair, up


@SETTINGS
@given(case=split_cases(), rules=rule_sets(), hands=st.integers(2, 4), data=st.data())
def test_split_ev_matches_naive_reference(case, rules, hands, data):
    shoe, pair, up = case
    rules = rules.replace(
        shoe=shoe,
        split_hands=hands,
        resplit_aces=hands >= 3 and data.draw(st.booleans(), label="resplit_aces"),
        hit_split_aces=data.draw(st.booleans(), label="hit_split_aces"),
        double_after_split=data.draw(st.booleans(), label="das"),
    )
    try:
        result = Analysis(rules, exact=True).hand(RANK_NOTATION[pair] * 2, RANK_NOTATION[up])
    except InvalidShoeError:
        assume(False)
    reference = naive_rules(rules)
    reference.update(split_hands=rules.split_hands, resplit_aces=rules.resplit_aces,
                     hit_split_aces=rules.hit_split_aces, double_after_split=rules.double_after_split)
    try:
        expected = naive_split.naive_split(shoe, up + 1, pair + 1, reference)
    except naive.ShoeExhausted:
        assume(False)
    assert to_fraction(result.evs[Action.SPLIT]) == expected


@settings(max_examples=examples(12))
@given(rules=rule_sets(), data=st.data())
def test_round_ev_matches_naive_reference(rules, data):

    counts = tuple([data.draw(st.integers(0, 1)) for _ in range(9)] + [data.draw(st.integers(6, 9))])
    assume(12 <= sum(counts) <= 15)
    rules = rules.replace(shoe=counts, split_hands=data.draw(st.integers(1, 3), label="hands"))
    try:
        engine = Analysis(rules, exact=True).round().ev
    except InvalidShoeError:
        assume(False)
    reference = naive_rules(rules)
    reference.update(split_hands=rules.split_hands, resplit_aces=False, hit_split_aces=False,
                     double_after_split=rules.double_after_split)
    try:
        expected = naive_split.naive_round(counts, reference)
    except naive.ShoeExhausted:
        assume(False)
    assert to_fraction(engine) == expected
