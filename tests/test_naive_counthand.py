"""Tests of the counter's-shoe hand oracle (tests/oracles/naive_counthand.py) itself: its identities
with the composition oracle (naive_reference) and the discard-set oracle (naive_countshoe), the
fixed-play average over the discard sets, and a case where the count changes the best play.
Tiny shoes, exact Fractions; no test of bjcalc here.

The case where the count changes the best play (``test_the_count_changes_the_best_play``):
shoe A,2,3,4,5,6,9,T,T,T (``(1,1,1,1,1,1,0,0,1,3)``), Hi-Lo tags, ``seen = 2`` discards, the
dealer's 5 up, the player's T,2, DEFAULT_RULES (S17, peek, DAS, 3:2):

    seen 0 (naive_hand)    stand -3/10   hit -97/420   best: hit
    discard_count -1       stand -7/15   hit -37/90    best: hit
    discard_count  0       stand -14/45  hit -7/45     best: hit
    discard_count +1       stand -11/45  hit -22/45    best: stand
    discard_count +2       stand 4/45    hit -1/45     best: stand

(two small cards gone, +2: stand on 12 against a 5). At discard_count 0 the counter's hit
(-7/45 = -42/270) is below the average over the discard sets of the composition-optimal hit
(-41/270): a player who knew the discards would play better, so an engine that optimised per
discard set would fail against this oracle.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from oracles import naive_countshoe
from oracles.naive_counthand import (
    FIRST_ACTIONS,
    composition_fixed,
    count_deal_probability,
    count_dealer,
    count_hand,
    count_hand_fixed,
    count_hand_policy,
    discard_compositions,
)
from oracles.naive_counthand import _posterior as posterior
from oracles.naive_reference import DEFAULT_RULES, hand_total, naive_dealer, naive_hand, rules_with

HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
OMEGA_II = (0, 1, 1, 2, 2, 2, 1, 0, -1, -2)
HALVES = (-1, Fraction(1, 2), 1, 1, Fraction(3, 2), 1, Fraction(1, 2), 0, Fraction(-1, 2), -1)
SHOE = (1, 1, 1, 1, 1, 1, 0, 0, 1, 3)  # A 2 3 4 5 6 9 T T T
SHOE12 = (2, 1, 1, 1, 1, 1, 1, 0, 0, 4)  # A A 2 3 4 5 6 7 T T T T

RULE_SETS = {
    "default": DEFAULT_RULES,
    "h17 6:5 ls": rules_with(hit_soft_17=True, blackjack_pays=Fraction(6, 5), surrender="late"),
    "early": rules_with(surrender="early"),
    "nhc late": rules_with(hole_card="none", surrender="late", nhc_double_loss={1: "original", 10: "all"}),
    "charlie 4": rules_with(charlie=4, double="10-11"),
    "max 3 cards": rules_with(player_max_cards=3, double_soft=False),
}


def actions(result):
    return {a: v for a, v in result.items() if a != "conditioned" and v is not None}


def best_actions(result):
    acts = actions(result)
    top = max(acts.values())
    return sorted(a for a, v in acts.items() if v == top)


def possible_discard_counts(shoe, tags, seen):
    return sorted({sum(Fraction(t) * k for t, k in zip(tags, d))
                   for d in itertools.product(*(range(c + 1) for c in shoe)) if sum(d) == seen})


# ---------------------------------------------------------------------------------------------
# The discard sets and the deal probabilities, against naive_countshoe
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tags", [HI_LO, OMEGA_II, HALVES])
@pytest.mark.parametrize("seen", [1, 3])
def test_discard_compositions_are_naive_countshoes_sets(tags, seen):
    for dc in possible_discard_counts(SHOE12, tags, seen):
        mine = discard_compositions(SHOE12, tags, seen, dc)
        assert sum(p for _, p in mine) == 1
        sets = naive_countshoe.discard_sets(SHOE12, tags, table=(), seen=seen, running_count=dc)
        theirs = {tuple(left): Fraction(k, len(sets)) for left, k in Counter(map(tuple, sets)).items()}
        assert dict(mine) == theirs


def test_no_discard_set_is_an_error():
    with pytest.raises(ValueError):
        discard_compositions(SHOE, HI_LO, 2, 3)


@pytest.mark.parametrize("tags", [HI_LO, HALVES])
def test_deal_probability(tags):
    seen = 3
    for dc in possible_discard_counts(SHOE12, tags, seen):
        for cards in [(10,), (1, 10), (5, 10, 1), (10, 10, 10), (2, 3, 4, 7)]:
            p = count_deal_probability(SHOE12, tags, seen, dc, cards)
            ref = naive_countshoe.draw_probability(SHOE12, tags, (), seen, dc, [c - 1 for c in cards])
            assert p == ref
            # exchangeable: every order of the same cards
            assert all(count_deal_probability(SHOE12, tags, seen, dc, perm) == p
                       for perm in itertools.permutations(cards))
        # the next card's distribution, and the chain rule
        assert sum(count_deal_probability(SHOE12, tags, seen, dc, (c,)) for c in range(1, 11)) == 1
        prefix = (10, 1)
        assert sum(count_deal_probability(SHOE12, tags, seen, dc, prefix + (c,)) for c in range(1, 11)) == \
            count_deal_probability(SHOE12, tags, seen, dc, prefix)


# ---------------------------------------------------------------------------------------------
# seen = 0: the composition oracle exactly
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_no_discards_is_naive_reference(name):
    rules = RULE_SETS[name]
    shoe = SHOE
    for up, hand in [(1, (10, 6)), (10, (9, 2)), (5, (10, 2)), (6, (1, 3)), (10, (1, 10)), (1, (2, 4))]:
        assert count_hand(shoe, HI_LO, 0, 0, up, hand, rules) == naive_hand(shoe, up, hand, rules), (up, hand)
        assert count_dealer(shoe, HI_LO, 0, 0, up, rules, hand) == naive_dealer(shoe, up, rules, hand)
    assert count_hand(shoe, HI_LO, 0, 0, 10, (1, 10), rules, natural=False) == \
        naive_hand(shoe, 10, (1, 10), rules, natural=False)


def test_uninformative_count_is_the_full_shoe():
    """A count with every tag 0 tells nothing: the discards are a uniformly random subset and the
    cards left are exchangeable, so the counter's shoe is the full shoe, whatever ``seen``."""
    zero = (0,) * 10
    for rules in (DEFAULT_RULES, RULE_SETS["nhc late"]):
        for up, hand in [(10, (10, 5)), (6, (7, 3)), (1, (10, 6))]:
            assert count_hand(SHOE12, zero, 2, 0, up, hand, rules) == naive_hand(SHOE12, up, hand, rules)
            assert count_dealer(SHOE12, zero, 3, 0, up, rules, hand) == naive_dealer(SHOE12, up, rules, hand)


def test_a_count_that_names_the_discards_is_that_composition():
    """Tags 1 on the tens only, two discards with tag sum 2: both discards were tens."""
    tens_only = (0,) * 9 + (1,)
    left = SHOE12[:9] + (SHOE12[9] - 2,)
    for up, hand in [(10, (10, 5)), (6, (7, 3)), (1, (2, 6))]:
        assert count_hand(SHOE12, tens_only, 2, 2, up, hand, DEFAULT_RULES) == naive_hand(left, up, hand, DEFAULT_RULES)
        assert count_dealer(SHOE12, tens_only, 2, 2, up, DEFAULT_RULES, hand) == \
            naive_dealer(left, up, DEFAULT_RULES, hand)


# ---------------------------------------------------------------------------------------------
# The dealer
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tags", [HI_LO, HALVES])
def test_dealer_sums_to_one_and_blackjack_is_the_deal_probability(tags):
    seen = 2
    for dc in possible_discard_counts(SHOE12, tags, seen):
        for up, removed in [(1, ()), (10, (5, 6)), (6, (10,)), (1, (10, 3))]:
            try:
                d = count_dealer(SHOE12, tags, seen, dc, up, DEFAULT_RULES, removed)
            except ValueError:  # up and removed impossible after such discards
                continue
            assert sum(d.values()) == 1
            dealt = (up,) + removed
            bj_hole = {1: 10, 10: 1}.get(up)
            p_bj = Fraction(0) if bj_hole is None else \
                count_deal_probability(SHOE12, tags, seen, dc, dealt + (bj_hole,)) / \
                count_deal_probability(SHOE12, tags, seen, dc, dealt)
            assert d["blackjack"] == p_bj


def test_dealer_is_the_posterior_mix():
    """Explicitly: P(S | up, removed) from naive_countshoe's subsets, times naive_dealer on S."""
    seen, dc, up, removed = 2, 1, 10, (6,)
    rules = rules_with(hit_soft_17=True)
    sets = naive_countshoe.discard_sets(SHOE12, HI_LO, table=(), seen=seen, running_count=dc)
    dealt = [up - 1] + [c - 1 for c in removed]
    weights = [naive_countshoe.sequence_probability(left, dealt) for left in sets]
    expected: dict = {}
    for left, w in zip(sets, weights):
        if w:
            for k, p in naive_dealer(tuple(left), up, rules, removed).items():
                expected[k] = expected.get(k, 0) + w * p / sum(weights)
    assert count_dealer(SHOE12, HI_LO, seen, dc, up, rules, removed) == expected


# ---------------------------------------------------------------------------------------------
# One fixed play: the average over the discard sets; the expectimax's play attains count_hand
# ---------------------------------------------------------------------------------------------

CASES = [  # (shoe, tags, seen, discard_count, up, hand, rules name)
    (SHOE, HI_LO, 2, 0, 5, (10, 2), "default"),
    (SHOE, HI_LO, 2, 2, 5, (10, 2), "default"),
    (SHOE12, HI_LO, 2, -1, 10, (10, 3), "default"),  # peek, T up: conditioned
    (SHOE12, HI_LO, 2, 1, 1, (5, 6), "h17 6:5 ls"),  # peek, A up: conditioned, late surrender
    (SHOE12, HI_LO, 2, 0, 10, (7, 4), "early"),  # early surrender: unconditional
    (SHOE12, HALVES, 2, Fraction(3, 2), 1, (10, 2), "nhc late"),  # no hole card
    (SHOE12, HI_LO, 2, 2, 6, (2, 3), "charlie 4"),
    (SHOE12, OMEGA_II, 2, 1, 7, (1, 5), "max 3 cards"),
]


def threshold_policy(stand_hard, stand_soft):
    def play(cards):
        total, soft = hand_total(cards)
        return "stand" if total >= (stand_soft if soft else stand_hard) else "hit"
    return play


@pytest.mark.parametrize("case", CASES, ids=[f"{c[6]}-{c[4]}v{c[5]}" for c in CASES])
def test_fixed_play_of_the_expectimax_is_count_hand(case):
    shoe, tags, seen, dc, up, hand, name = case
    rules = RULE_SETS[name]
    result, policy = count_hand_policy(shoe, tags, seen, dc, up, hand, rules)
    assert result == count_hand(shoe, tags, seen, dc, up, hand, rules)
    for first in FIRST_ACTIONS:
        if result[first] is None:
            with pytest.raises(ValueError):
                count_hand_fixed(shoe, tags, seen, dc, up, hand, rules, first, policy.__getitem__)
            continue
        assert count_hand_fixed(shoe, tags, seen, dc, up, hand, rules, first, policy.__getitem__) == result[first]
    # every other fixed play is no better than the expectimax
    if result["hit"] is not None:
        for stand_hard, stand_soft in itertools.product(range(12, 23), (17, 18, 19, 22)):
            play = threshold_policy(stand_hard, stand_soft)
            assert count_hand_fixed(shoe, tags, seen, dc, up, hand, rules, "hit", play) <= result["hit"]


@pytest.mark.parametrize("case", CASES[:4], ids=[f"{c[6]}-{c[4]}v{c[5]}" for c in CASES[:4]])
def test_fixed_play_is_the_weighted_average_of_the_compositions(case):
    """The definition, written out with naive_countshoe's subsets (one entry per subset)."""
    shoe, tags, seen, dc, up, hand, name = case
    rules = RULE_SETS[name]
    play = threshold_policy(15, 18)
    sets = naive_countshoe.discard_sets(shoe, tags, table=(), seen=seen, running_count=dc)
    dealt = [up - 1] + [c - 1 for c in hand]
    conditioned = rules["hole_card"] == "peek" and up in (1, 10) and rules["surrender"] != "early"
    num = den = Fraction(0)
    for left in sets:
        w = naive_countshoe.sequence_probability(left, dealt)
        if not w:
            continue
        value, p_no_bj = composition_fixed(tuple(left), up, hand, rules, "hit", play)
        if conditioned:
            w *= p_no_bj
        if w:
            num += w * value
            den += w
    assert count_hand_fixed(shoe, tags, seen, dc, up, hand, rules, "hit", play) == num / den


def test_known_composition_fixed_play_of_naive_hands_best_play():
    """seen = 0: composition_fixed of the expectimax's play is naive_hand's hit."""
    for up, hand, rules in [(5, (10, 2), DEFAULT_RULES), (10, (10, 3), DEFAULT_RULES),
                            (1, (5, 6), RULE_SETS["h17 6:5 ls"])]:
        result, policy = count_hand_policy(SHOE12, HI_LO, 0, 0, up, hand, rules)
        value, _ = composition_fixed(SHOE12, up, hand, rules, "hit", policy.__getitem__)
        assert value == naive_hand(SHOE12, up, hand, rules)["hit"]


def test_the_player_does_not_see_the_discards():
    """The expectimax is at most the average over the discard sets of the composition-optimal
    hit (a player who knew the discards), and strictly below it in the docstring's case."""
    for shoe, tags, seen, dc, up, hand, name in CASES[:4]:
        rules = RULE_SETS[name]
        hit = count_hand(shoe, tags, seen, dc, up, hand, rules)["hit"]
        conditioned = rules["hole_card"] == "peek" and up in (1, 10) and rules["surrender"] != "early"
        num = den = Fraction(0)
        for left, q in posterior(shoe, tags, seen, dc, (up,) + hand):
            _, p_no_bj = composition_fixed(left, up, hand, rules, "stand")
            w = q * p_no_bj if conditioned else q
            if w:
                num += w * naive_hand(left, up, hand, rules)["hit"]
                den += w
        knows = num / den
        assert hit <= knows
        if (shoe, dc, up, hand) == (SHOE, 0, 5, (10, 2)):
            assert (hit, knows) == (Fraction(-7, 45), Fraction(-41, 270))


# ---------------------------------------------------------------------------------------------
# The count changes the best play (see the module docstring)
# ---------------------------------------------------------------------------------------------


def test_the_count_changes_the_best_play():
    up, hand, rules = 5, (10, 2), DEFAULT_RULES
    base = naive_hand(SHOE, up, hand, rules)
    assert (base["stand"], base["hit"]) == (Fraction(-3, 10), Fraction(-97, 420))
    assert best_actions(base) == ["hit"]
    expected = {
        -1: (Fraction(-7, 15), Fraction(-37, 90), "hit"),
        0: (Fraction(-14, 45), Fraction(-7, 45), "hit"),
        1: (Fraction(-11, 45), Fraction(-22, 45), "stand"),
        2: (Fraction(4, 45), Fraction(-1, 45), "stand"),
    }
    assert possible_discard_counts(SHOE, HI_LO, 2) == [-2, -1, 0, 1, 2]
    for dc, (stand, hit, best) in expected.items():
        r = count_hand(SHOE, HI_LO, 2, dc, up, hand, rules)
        assert (r["stand"], r["hit"]) == (stand, hit), dc
        assert best_actions(r) == [best], dc
    # averaged over the discard counts (weighted by their probability given the T,2 and the 5
    # dealt), the counter's shoe is the full shoe: P(dc | up, hand) times the EV of a fixed play
    play = threshold_policy(13, 18)
    total = Fraction(0)
    for dc in possible_discard_counts(SHOE, HI_LO, 2):
        p_dc = count_deal_probability(SHOE, HI_LO, 2, dc, (up,) + hand) * \
            len(naive_countshoe.discard_sets(SHOE, HI_LO, (), 2, dc))
        total += p_dc * count_hand_fixed(SHOE, HI_LO, 2, dc, up, hand, rules, "hit", play)
    full = count_deal_probability(SHOE, HI_LO, 0, 0, (up,) + hand) * \
        len(list(itertools.combinations(range(sum(SHOE)), 2)))
    assert total / full == composition_fixed(SHOE, up, hand, rules, "hit", play)[0]
