"""Tests of the naive split / round oracle (tests/oracles/naive_split.py): published figures, hand
derivations and exact identities of the rule model (docs/model.md, "Splitting", "The round").
"""

from fractions import Fraction

import pytest
from oracles.naive_reference import (
    ShoeExhausted,
    decks,
    hand_total,
    naive_dealer,
    naive_hand,
    rules_with,
)
from oracles.naive_split import cdz_decision, naive_round, naive_split

ORIGINAL = {1: "original", 10: "original"}
ALL = {1: "all", 10: "all"}


def percent_to(value, printed):
    """``value`` (a fraction of the bet) printed as a percentage to the decimals of ``printed``."""
    decimals = len(printed.split(".")[1])
    return f"{float(value * 100):.{decimals}f}" == printed


# ---------------------------------------------------------------------------------------------
# Published figures
# ---------------------------------------------------------------------------------------------

# Source: Eric Farmer, BlackjackInfo forum (several CAs agreed); /work/shared/reference/
# published.md section 4. Shoe counts A..T = 0 4 4 2 0 0 2 0 0 7, S17, DOA, DAS, resplit to 4
# hands, no RSA, CDZ-, no surrender, 3:2, peek; hand 2,2 v 7 (percent):
FARMER_SHOE = (0, 4, 4, 2, 0, 0, 2, 0, 0, 7)
FARMER_RULES = rules_with(split_hands=4, double_after_split=True, resplit_aces=False)
FARMER = {"stand": "-61.639194139", "hit": "-13.266733267", "double": "-123.278388278",
          "split": "-76.210220335"}


def test_farmer_unsplit_actions():
    evs = naive_hand(FARMER_SHOE, 7, (2, 2), FARMER_RULES)
    for action in ("stand", "hit", "double"):
        assert percent_to(evs[action], FARMER[action]), (action, float(evs[action] * 100))


def test_farmer_split_2_2_v_7():
    # This shoe is so small that in 12/45045 of the split play (hole card 3 or 7, every card
    # dealt to the four split hands, one of them standing) the dealer must draw from an empty
    # shoe. The model refuses such a shoe (default "raise"); the published figure is
    # reproduced exactly when that dealer stands with what it holds (here: 10 or 14 against a
    # standing 19 or 21, so the player's live hand wins).
    value = naive_split(FARMER_SHOE, 7, 2, FARMER_RULES, exhausted="dealer_stands")
    assert value == Fraction(-5492623, 7207200)
    assert percent_to(value, FARMER["split"]), float(value * 100)


def test_farmer_shoe_is_refused_by_default():
    with pytest.raises(ShoeExhausted):
        naive_split(FARMER_SHOE, 7, 2, FARMER_RULES)


# Source: MGP's CA reference sheet (Wizard of Odds and k_c agree: 0.194251 / 0.1943);
# published.md section 4. 1 deck, S17, DAS, split to 2 hands, split aces one card, peek
# (conditioned on no dealer blackjack): A,A v T split = 0.19425144166419975.
def test_mgp_aces_v_ten_one_deck():
    value = naive_split(decks(1), 10, 1, rules_with(split_hands=2, double_after_split=True))
    assert abs(value - Fraction("0.19425144166419975")) < Fraction(1, 10**15)


# ---------------------------------------------------------------------------------------------
# Derived by hand
# ---------------------------------------------------------------------------------------------


def test_only_tens_left_two_hands():
    # 8,8 v T, only tens besides: each hand 8,T = 18 (hitting busts), dealer T,T = 20: -1 each.
    assert naive_split((0, 0, 0, 0, 0, 0, 0, 2, 0, 5), 10, 8, rules_with(split_hands=2)) == -2
    # 8,8 v 7: each hand 18 against the dealer's 17: +1 each.
    assert naive_split((0, 0, 0, 0, 0, 0, 1, 2, 0, 5), 7, 8, rules_with(split_hands=2)) == 2
    # 9,9 v 6: 19 each; the dealer's 6,T draws a ten and busts.
    assert naive_split((0, 0, 0, 0, 0, 1, 0, 0, 2, 6), 6, 9, rules_with(split_hands=4)) == 2


def test_resplit_counting():
    # 8,8 v 7 from 8s x3, 7 x1, T x5: after the deal one 8 and five tens are left.
    # Hole 8 (1/6): dealer 15 draws a ten and busts; both hands get tens (18): +2.
    # Hole T (5/6): dealer 17; a hand's second card is the last 8 with probability 1/5 (first
    # hand) + 4/5 * 1/4 (second hand) = 2/5 -> resplit to 3 hands of 18: +3; else +2.
    # EV = 1/6 * 2 + 5/6 * (2 + 2/5) = 7/3 (the same with 4 hands: there is no third 8).
    shoe = (0, 0, 0, 0, 0, 0, 1, 3, 0, 5)
    assert naive_split(shoe, 7, 8, rules_with(split_hands=3)) == Fraction(7, 3)
    assert naive_split(shoe, 7, 8, rules_with(split_hands=4)) == Fraction(7, 3)


def test_split_aces_resplit_rule():
    # A,A v 9 from aces x3, 9 x1, T x4: one ace and four tens left after the deal.
    # Hole A (1/5): dealer 20; both hands A,T = 21: +2.
    # Hole T (4/5): dealer 19. No RSA: a hand gets the ace (prob 2/4) -> A,A soft 12 stands:
    # -1 + 1 = 0, else +2. EV = 2/5 + 4/5 * 1 = 6/5.
    # RSA: the ace is resplit into a third hand, all hands A,T: +3 w.p. 2/4 else +2;
    # EV = 2/5 + 4/5 * 5/2 = 12/5.
    shoe = (3, 0, 0, 0, 0, 0, 0, 0, 1, 4)
    assert naive_split(shoe, 9, 1, rules_with(split_hands=4)) == Fraction(6, 5)
    assert naive_split(shoe, 9, 1, rules_with(split_hands=4, resplit_aces=True)) == Fraction(
        12, 5)
    assert naive_split(shoe, 9, 1, rules_with(split_hands=2, resplit_aces=True)) == Fraction(
        6, 5)


def test_ace_ten_after_split_is_not_blackjack():
    # T,T v 7 from A x3, 7 x1, T x2: every card left is an ace. Each hand T,A = 21 paid 1:1
    # (not 3:2); the dealer 7,A = soft 18 stands. EV = +2.
    assert naive_split((3, 0, 0, 0, 0, 0, 1, 0, 0, 2), 7, 10, rules_with(split_hands=2)) == 2


def test_cdz_falls_back_to_best_available():
    # 5,6 v 6, one deck: the unsplit best play is double; without DAS the split hand hits.
    rules = rules_with()
    evs = naive_hand(decks(1), 6, (5, 6), rules)
    assert evs["double"] > evs["hit"] > evs["stand"]
    assert cdz_decision(decks(1), 6, (5, 6), rules, may_double=True) == "double"
    assert cdz_decision(decks(1), 6, (6, 5), rules, may_double=False) == "hit"


# ---------------------------------------------------------------------------------------------
# Identities of the model
# ---------------------------------------------------------------------------------------------


def _settle_one(total, outcome):
    if total > 21:
        return -1
    if outcome == "bust" or total > outcome:
        return 1
    return 0 if total == outcome else -1


def test_split_aces_one_card_equals_direct_sum():
    # Split aces, one card each, two hands, 2-9 up (unconditional): the split EV is the sum,
    # over the two cards dealt, of the dealer's outcome probabilities (naive_dealer with the
    # four player cards removed) times the two hands' results. Shoe: half a deck plus tens.
    shoe = (3, 2, 2, 2, 2, 3, 2, 2, 2, 9)
    up = 6
    rules = rules_with(split_hands=2)
    counts = list(shoe)
    counts[0] -= 2
    counts[up - 1] -= 1
    n = sum(counts)
    expected = Fraction(0)
    for c1 in range(1, 11):
        p1 = Fraction(counts[c1 - 1], n)
        if not p1:
            continue
        counts[c1 - 1] -= 1
        for c2 in range(1, 11):
            p2 = Fraction(counts[c2 - 1], n - 1)
            if not p2:
                continue
            dist = naive_dealer(shoe, up, rules, removed=(1, 1, c1, c2))
            t1, t2 = hand_total([1, c1])[0], hand_total([1, c2])[0]
            expected += p1 * p2 * sum(p * (_settle_one(t1, o) + _settle_one(t2, o))
                                      for o, p in dist.items() if p)
        counts[c1 - 1] += 1
    assert naive_split(shoe, up, 1, rules) == expected


SMALL_SHOE = (2, 1, 1, 1, 1, 1, 1, 2, 1, 8)


@pytest.mark.parametrize("up, pair", [(10, 8), (1, 8), (10, 1), (10, 10)])
def test_nhc_original_everything_equals_peek(up, pair):
    # Model: "original" for every bet type makes the no-hole-card game equivalent to a peeking
    # dealer: nhc EV = p_bj * (-1) + (1 - p_bj) * (peek EV, conditioned on no blackjack).
    peek = rules_with(split_hands=3, resplit_aces=True)
    nhc = rules_with(split_hands=3, resplit_aces=True, hole_card="none",
                     nhc_double_loss=ORIGINAL, nhc_split_loss=ORIGINAL)
    counts = list(SMALL_SHOE)
    counts[pair - 1] -= 2
    counts[up - 1] -= 1
    p_bj = Fraction(counts[9] if up == 1 else counts[0], sum(counts))
    assert naive_split(SMALL_SHOE, up, pair, nhc) == (
        p_bj * -1 + (1 - p_bj) * naive_split(SMALL_SHOE, up, pair, peek))


def test_nhc_split_policy_costs_one_bet_per_extra_hand():
    # Split aces, one card each, two hands: against a no-hole-card blackjack, "all" loses the
    # second hand's bet, "original" returns it: EV(original) - EV(all) = P(dealer blackjack).
    shoe = SMALL_SHOE
    base = dict(split_hands=2, hole_card="none", nhc_double_loss=ALL)
    orig = naive_split(shoe, 10, 1, rules_with(nhc_split_loss=ORIGINAL, **base))
    lose_all = naive_split(shoe, 10, 1, rules_with(nhc_split_loss=ALL, **base))
    aces_left = shoe[0] - 2
    assert orig - lose_all == Fraction(aces_left, sum(shoe) - 3)


def test_early_surrender_frame_is_unconditional():
    rules = rules_with(split_hands=3)
    early = rules_with(split_hands=3, surrender="early")
    up, pair = 10, 8
    counts = list(SMALL_SHOE)
    counts[pair - 1] -= 2
    counts[up - 1] -= 1
    p_bj = Fraction(counts[0], sum(counts))
    assert naive_split(SMALL_SHOE, up, pair, early) == (
        -p_bj + (1 - p_bj) * naive_split(SMALL_SHOE, up, pair, rules))


def test_no_further_pair_cards_split_limit_irrelevant():
    shoe = (0, 1, 1, 1, 1, 1, 1, 2, 1, 8)  # both 8s are the pair
    values = {naive_split(shoe, 7, 8, rules_with(split_hands=k)) for k in (2, 3, 4)}
    assert len(values) == 1


def test_split_hands_below_two_refused():
    with pytest.raises(ValueError):
        naive_split(SMALL_SHOE, 7, 8, rules_with(split_hands=1))


# ---------------------------------------------------------------------------------------------
# The round
# ---------------------------------------------------------------------------------------------


def test_round_one_ace_and_tens():
    # One ace and seven tens (n = 8), peek. The ace's position is uniform:
    # player's hand (2/8): natural v T up, T hole: +3/2. Up card (1/8) or hole with T up
    # (1/8): dealer blackjack, -1. Elsewhere (4/8): T,T v T, dealer 20: standing pushes;
    # splitting to 2 hands gets the ace (21, paid 1:1) with probability 2/4: +1/2.
    shoe = (1, 0, 0, 0, 0, 0, 0, 0, 0, 7)
    no_split = Fraction(2, 8) * Fraction(3, 2) - Fraction(2, 8)
    assert naive_round(shoe, rules_with(split_hands=1)) == no_split
    assert naive_round(shoe, rules_with(split_hands=2)) == no_split + Fraction(4, 8) / 2


def test_round_nhc_original_equals_peek():
    shoe = (2, 0, 0, 0, 1, 0, 1, 2, 2, 12)
    peek = rules_with(split_hands=4)
    nhc = rules_with(split_hands=4, hole_card="none", nhc_double_loss=ORIGINAL,
                     nhc_split_loss=ORIGINAL)
    value = naive_round(shoe, peek)
    assert value == naive_round(shoe, nhc)
    assert value == Fraction(13429571, 63488880)  # regression value of this oracle


def test_round_surrender_only_helps():
    shoe = (2, 0, 0, 0, 0, 0, 0, 2, 2, 10)
    none = naive_round(shoe, rules_with())
    late = naive_round(shoe, rules_with(surrender="late"))
    early = naive_round(shoe, rules_with(surrender="early"))
    assert none <= late <= early
