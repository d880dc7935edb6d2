"""Exact mode returns the exact rational: hands, splits and rounds against the naive references,
compared as fractions, with the ace and ten up and shoes where the dealer draws long runs of
small cards (issue 8).

The engine keeps every value as an integer numerator over a per-layer denominator. Those
denominators are products of card counts, and numpy types a list of Python ints holding one in
[2**63, 2**64) as float64, so a shoe whose largest layer denominator fell there had its values
rounded (about one 30-card shoe in six). The explicit examples below are shoes of that kind for
a hand, a split and a round; the random sweeps look further afield.
"""

from fractions import Fraction

import numpy as np
import pytest
from conftest import examples
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from oracles import naive_reference as naive
from oracles import naive_split
from test_against_naive import naive_rules

from bjcalc import Action, Analysis, InvalidShoeError, Rules
from bjcalc.cards import RANK_NOTATION
from bjcalc.numbers import as_numbers, to_fraction

# issue 8: 6,7 v A, S17, peek, no card limit; the engine printed -124045126516038420/160947367194363749
ISSUE_SHOE = (2, 4, 4, 4, 4, 2, 3, 3, 3, 5)


def test_integer_arrays_keep_every_digit_in_exact_mode():
    near = [[2**63 + 12345, 5], [2**64 - 1, 0]]
    assert as_numbers(near, True).tolist() == near
    assert as_numbers(np.array([2**62, 3], dtype=np.int64), True).tolist() == [2**62, 3]
    with pytest.raises(TypeError):
        as_numbers(np.array([0.5]), True)


def test_issue_case_is_the_exact_fraction():
    # stand = (P(bust) - P(17..21)) / (1 - P(blackjack)) from the dealer table after the 6 and
    # the 7 are gone, as the issue worked it out; the naive reference gives the same
    result = Analysis(Rules(shoe=ISSUE_SHOE, surrender="late"), exact=True).hand("6,7", "A")
    assert to_fraction(result.evs[Action.STAND]) == Fraction(-89238518, 115786125)
    reference = naive.naive_hand(ISSUE_SHOE, 1, (6, 7), naive.rules_with(surrender="late"))
    for action in (Action.STAND, Action.HIT, Action.DOUBLE):
        assert to_fraction(result.evs[action]) == reference[action.key], action


@st.composite
def long_run_shoes(draw, low=24, high=40):
    """Many small cards (the dealer can draw long runs of them), a few of the rest."""
    counts = ([draw(st.integers(2, 5)) for _ in range(5)] + [draw(st.integers(0, 3)) for _ in range(4)]
              + [draw(st.integers(2, 8))])
    assume(low <= sum(counts) <= high)
    return tuple(counts)


def _rules(shoe, hit_soft_17, hole_card, surrender, **more):
    return Rules(shoe=shoe, hit_soft_17=hit_soft_17, hole_card=hole_card, surrender=surrender, **more)


@settings(max_examples=examples(25))
@given(shoe=long_run_shoes(24, 34), up=st.sampled_from([0, 9]), hit_soft_17=st.booleans(),
       hole_card=st.sampled_from(["peek", "none"]), surrender=st.sampled_from(["none", "late", "early"]),
       limit=st.sampled_from([None, None, 3, 4]), data=st.data())
@example(shoe=ISSUE_SHOE, up=0, hit_soft_17=False, hole_card="peek", surrender="late", limit=None,
         data=(5, 6)).via("issue 8")
@example(shoe=ISSUE_SHOE, up=0, hit_soft_17=False, hole_card="none", surrender="none", limit=None,
         data=(5, 6)).via("issue 8, no hole card")
def test_hand_with_a_or_t_up_matches_naive_exactly(shoe, up, hit_soft_17, hole_card, surrender, limit, data):
    if isinstance(data, tuple):
        hand = data
    else:
        hand = (data.draw(st.integers(0, 9), label="first"), data.draw(st.integers(0, 9), label="second"))
    left = list(shoe)
    for card in hand + (up,):
        left[card] -= 1
    assume(min(left) >= 0)
    total = sum(c + 1 for c in hand)
    # the naive walks every card sequence: without a card limit only stiff hands keep it quick
    assume(total <= 21 and (limit is not None or total >= 13))
    rules = _rules(shoe, hit_soft_17, hole_card, surrender, player_max_cards=limit)
    try:
        result = Analysis(rules, exact=True).hand([RANK_NOTATION[c] for c in hand], RANK_NOTATION[up])
    except InvalidShoeError:
        assume(False)
    expected = naive.naive_hand(shoe, up + 1, tuple(c + 1 for c in hand), naive_rules(rules))
    assert result.conditioned == expected["conditioned"]
    natural = sorted(hand) == [0, 9]
    for action in (Action.STAND, Action.HIT, Action.DOUBLE, Action.SURRENDER):
        if natural and action is not Action.STAND:
            continue
        want, got = expected[action.key], result.evs.get(action)
        assert (got is None) == (want is None), action
        if want is not None:
            assert to_fraction(got) == want, f"{action.key}: engine {got}, reference {want}"


def _split_reference(rules):
    reference = naive_rules(rules)
    reference.update(split_hands=rules.split_hands, resplit_aces=rules.resplit_aces,
                     hit_split_aces=rules.hit_split_aces, double_after_split=rules.double_after_split)
    return reference


@settings(max_examples=examples(6))
@given(shoe=long_run_shoes(22, 34), pair=st.sampled_from([0, 7, 8, 9]), up=st.sampled_from([0, 9]),
       hands=st.just(2), hit_soft_17=st.booleans(), hole_card=st.sampled_from(["peek", "none"]),
       surrender=st.sampled_from(["none", "late"]), dealer_limit=st.sampled_from([5, 6]))
@example(shoe=(6, 3, 3, 4, 5, 0, 1, 0, 1, 5), pair=0, up=9, hands=2, hit_soft_17=False, hole_card="peek",
         surrender="late", dealer_limit=None).via("largest denominator in [2**63, 2**64)")
@example(shoe=(4, 2, 4, 2, 4, 0, 1, 2, 1, 10), pair=0, up=0, hands=3, hit_soft_17=False, hole_card="peek",
         surrender="none", dealer_limit=None).via("largest denominator in [2**63, 2**64)")
def test_split_with_a_or_t_up_matches_naive_exactly(shoe, pair, up, hands, hit_soft_17, hole_card, surrender,
                                                    dealer_limit):
    left = list(shoe)
    for card in (pair, pair, up):
        left[card] -= 1
    assume(min(left) >= 0)
    # The naive enumerates every sequence of both hands and the dealer: split aces take one
    # card each, other pairs are kept to three cards, and the random dealers to 5 or 6 cards
    # (the examples above draw without a limit), so that it finishes in seconds.
    limit = None if pair == 0 else 3
    rules = _rules(shoe, hit_soft_17, hole_card, surrender, split_hands=hands, player_max_cards=limit,
                   dealer_max_cards=dealer_limit)
    try:
        result = Analysis(rules, exact=True).hand(RANK_NOTATION[pair] * 2, RANK_NOTATION[up])
        expected = naive_split.naive_split(shoe, up + 1, pair + 1, _split_reference(rules))
    except (InvalidShoeError, naive.ShoeExhausted):
        assume(False)
    assert to_fraction(result.evs[Action.SPLIT]) == expected


def test_round_with_its_largest_denominator_near_2_64_matches_naive_exactly():
    # 500 of each rank but 2,000 tens, player and dealer stopped at 3 and 4 cards: the largest
    # layer denominator of the round is a 64-bit number (the naive needs the card limits)
    rules = Rules(shoe=(500,) * 9 + (2000,), split_hands=1, player_max_cards=3, dealer_max_cards=4,
                  surrender="late")
    engine = to_fraction(Analysis(rules, exact=True).round().ev)
    assert engine == naive_split.naive_round(rules.shoe, _split_reference(rules))
