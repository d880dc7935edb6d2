"""Tests of the last-cards oracle (tests/oracles/naive_lastcards.py) itself: hand-computed tiny
shoes, a second brute force over every order of the cards (for the plays that need no decision
after the first action), and, on shoes that cannot run out, the existing oracles
(naive_reference, naive_split), which both run-out rules must then agree with exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import pytest
from oracles.naive_lastcards import (
    Rules,
    cdz_action,
    dealer_distribution,
    hand_evs,
    round_ev,
    round_runout_probability,
    runout_probability,
    runout_probability_max,
)
from oracles.naive_reference import naive_dealer, naive_hand, rules_with
from oracles.naive_split import naive_round, naive_split

NONE = (0,) * 10
RULES = ("reshuffle", "void")


def counts(*cards: int) -> tuple[int, ...]:
    """The ten counts (A..T) of some cards."""
    return tuple(cards.count(rank) for rank in range(1, 11))


def reference_rules(rules: Rules) -> dict:
    """naive_reference's rules dict for the same game."""
    return rules_with(
        hit_soft_17=rules.h17,
        hole_card="peek" if rules.peek else "none",
        surrender="late" if rules.surrender else "none",
        split_hands=rules.split_hands,
        double_after_split=rules.das,
        blackjack_pays=rules.blackjack_pays,
    )


# ---------------------------------------------------------------------------------------------
# Hand-computed tiny shoes
# ---------------------------------------------------------------------------------------------


def test_dealer_distribution_tiny():
    # 6 up, the hole card is the only T left: 16, and the dealer must draw.
    assert dealer_distribution(counts(10), NONE, 6, False, "void")["void"] == 1
    assert dealer_distribution(counts(10), counts(5), 6, False, "void")["void"] == 1
    assert dealer_distribution(counts(10), counts(5), 6, False, "reshuffle")[21] == 1
    assert dealer_distribution(counts(10), counts(10), 6, False, "reshuffle")["bust"] == 1
    # Empty discards: the reshuffle yields an empty shoe, the round is void.
    assert dealer_distribution(counts(10), NONE, 6, False, "reshuffle")["void"] == 1
    # 6 + T = 16, then the reshuffled discards: a 2 (18) or an A (hard 17), half and half.
    d = dealer_distribution(counts(10), counts(2, 1), 6, False, "reshuffle")
    assert d[18] == Fraction(1, 2) and d[17] == Fraction(1, 2)
    # 6 + A = soft 17: stands, or (h17) takes the 2 of the discards (soft 19), or runs out.
    assert dealer_distribution(counts(1), counts(2), 6, False, "void")[17] == 1
    assert dealer_distribution(counts(1), counts(2), 6, True, "reshuffle")[19] == 1
    assert dealer_distribution(counts(1), counts(2), 6, True, "void")["void"] == 1
    # Only once: the reshuffled shoe runs out too.
    assert dealer_distribution(counts(1), counts(1), 5, True, "reshuffle")["void"] == 1
    # The hole card itself may run out.
    assert dealer_distribution(NONE, counts(10), 1, False, "reshuffle")["blackjack"] == 1
    assert dealer_distribution(NONE, counts(10), 1, False, "void")["void"] == 1


def test_tens_against_nine_hole_seven():
    shoe = counts(10, 10, 9, 7)  # T,T v 9, the hole card is the 7: the dealer's 16 must draw
    rules = Rules(surrender=True, split_hands=2)
    void = hand_evs(shoe, counts(5), (10, 10), 9, rules, "void")
    assert void == {"stand": 0, "hit": 0, "double": 0, "surrender": Fraction(-1, 2), "split": 0}
    # The 5 of the discards: the dealer's 21, or the player's bust (the dealer does not draw).
    # Split: the first hand takes the 5, the second hand's card runs out again: void.
    five = hand_evs(shoe, counts(5), (10, 10), 9, rules, "reshuffle")
    assert five == {"stand": -1, "hit": -1, "double": -2, "surrender": Fraction(-1, 2), "split": 0}
    ten = hand_evs(shoe, counts(10), (10, 10), 9, rules, "reshuffle")
    assert ten["stand"] == 1 and ten["hit"] == -1 and ten["double"] == -2
    # Empty discards: the same as void.
    assert hand_evs(shoe, NONE, (10, 10), 9, rules, "reshuffle") == void
    expected = {"stand": 1, "hit": 1, "double": 1, "surrender": 0, "split": 1}
    for action, p in expected.items():
        assert runout_probability(shoe, counts(5), (10, 10), 9, rules, action) == p
        assert runout_probability_max(shoe, counts(5), (10, 10), 9, rules, action) == p


def test_no_hole_card_dealer_blackjack_takes_the_double():
    shoe = counts(1, 2, 3, 10)  # 2,3 v A, the T comes next
    rules = Rules(peek=False, surrender=True)
    void = hand_evs(shoe, NONE, (2, 3), 1, rules, "void")
    # stand: the dealer's second card is the T, a blackjack; hit: the player takes the T, and
    # the dealer's second card runs out; surrender: the dealer's blackjack takes the whole bet.
    assert void == {"stand": -1, "hit": 0, "double": 0, "surrender": -1}
    # The T of the discards: the dealer's blackjack takes the double. Hit: after the player's T
    # (15), standing meets that blackjack (-1), hitting takes it (bust) and the dealer's second
    # card runs out: void (0), the better play.
    ten = hand_evs(shoe, counts(10), (2, 3), 1, rules, "reshuffle")
    assert ten["double"] == -2 and ten["stand"] == -1 and ten["hit"] == 0
    assert runout_probability(shoe, NONE, (2, 3), 1, rules, "stand") == 0
    assert runout_probability(shoe, NONE, (2, 3), 1, rules, "double") == 1


def test_no_hole_card_second_card_runs_out():
    shoe = counts(10, 10, 9)
    rules = Rules(peek=False)
    assert hand_evs(shoe, counts(7), (10, 10), 9, rules, "reshuffle")["stand"] == 0  # 16, void
    assert hand_evs(shoe, counts(10), (10, 10), 9, rules, "reshuffle")["stand"] == 1  # 19
    assert hand_evs(shoe, counts(10), (10, 10), 9, rules, "void")["stand"] == 0


def test_peek_conditions_on_no_blackjack():
    shoe = counts(9, 9, 1, 7, 10)  # 9,9 v A; the hole card is the 7 (the T would be a blackjack)
    evs = hand_evs(shoe, NONE, (9, 9), 1, Rules(split_hands=1), "void")
    assert evs == {"stand": 0, "hit": -1, "double": -2}  # soft 18 stands; the T busts the player
    with pytest.raises(ValueError):
        hand_evs(counts(9, 9, 1, 10), NONE, (9, 9), 1, Rules(), "void")  # only a blackjack left
    # A player blackjack against a peeking dealer's A without blackjack: paid, nothing drawn.
    assert hand_evs(counts(1, 10, 1, 5), NONE, (1, 10), 1, Rules(), "void") == {"stand": Fraction(3, 2)}
    assert hand_evs(counts(1, 10, 1), NONE, (1, 10), 1, Rules(), "void") == {"stand": 0}  # no hole
    assert runout_probability(counts(1, 10, 1, 5), NONE, (1, 10), 1, Rules(), "stand") == 0
    # No hole card can be dealt: void, whatever the player does.
    assert hand_evs(counts(9, 9, 1), NONE, (9, 9), 1, Rules(split_hands=1), "void")["hit"] == 0


def test_round_tiny():
    # T,T v T and nothing else: the hole card runs out (void), or is the card of the discards:
    # a 5 (15: the dealer must draw and runs out again, void) or a 7 (17: the player's 20 wins).
    shoe = counts(10, 10, 10)
    assert round_ev(shoe, counts(5), Rules(), "reshuffle") == 0
    assert round_runout_probability(shoe, NONE, Rules()) == 1
    assert round_ev(shoe, counts(7), Rules(), "reshuffle") == 1  # T + 7 = 17 stands
    assert round_ev(counts(1, 10, 10), NONE, Rules(), "void") == 0  # every deal: void hole card


def test_rules_as_dict():
    shoe = counts(10, 10, 9, 7)
    assert hand_evs(shoe, counts(10), (10, 10), 9, {"surrender": True}, "reshuffle") == hand_evs(
        shoe, counts(10), (10, 10), 9, Rules(surrender=True), "reshuffle"
    )


# ---------------------------------------------------------------------------------------------
# A second brute force: every order of the cards left and of the discards, equally likely, for
# the first actions after which nothing is decided (stand, double, surrender, split aces,
# blackjack); for hit, every fixed policy is a lower bound of the oracle's optimal hit.
# ---------------------------------------------------------------------------------------------


class _Cards:
    """The cards in dealing order: the shoe's, then (under "reshuffle") the discards'.
    ``ran_out``: a card was needed beyond the shoe."""

    def __init__(self, shoe: tuple[int, ...], discards: tuple[int, ...]) -> None:
        self.shoe = shoe
        self.cards: Iterator[int] = itertools.chain(shoe, discards)
        self.dealt = 0
        self.ran_out = False

    def next(self) -> int | None:
        if self.dealt == len(self.shoe):
            self.ran_out = True
        self.dealt += 1
        return next(self.cards, None)


def _total(cards: list[int]) -> int:
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard + 10 <= 21 else hard


def _dealer_draws(cards: list[int], h17: bool) -> bool:
    total = _total(cards)
    soft = 1 in cards and sum(cards) + 10 == total
    return total < 17 or (total == 17 and soft and h17)


def _split(order: _Cards, pair: int, up: int, rules: Rules, cdz) -> list[tuple[int, int, str]] | None:
    """The split hands (total, bet, kind), played left to right, each taking its second card
    when its turn comes, resplitting while allowed (never aces); split aces take one card each,
    the other hands play ``cdz(cards, may_double)``. None: void."""
    queue = 2
    n_hands = 2
    out = []
    while queue:
        queue -= 1
        cards = [pair]
        while len(cards) < 2:
            card = order.next()
            if card is None:
                return None
            if card == pair and pair != 1 and n_hands < rules.split_hands:
                queue += 1
                n_hands += 1
            else:
                cards.append(card)
        bet = 1
        if pair != 1:
            while _total(cards) <= 21:
                action = cdz(tuple(cards), len(cards) == 2 and rules.das)
                if action == "stand":
                    break
                card = order.next()
                if card is None:
                    return None
                cards.append(card)
                if action == "double":
                    bet = 2
                    break
        total = _total(cards)
        out.append((total, bet, "bust" if total > 21 else "stand"))
    return out


def _play(order: _Cards, hand: tuple[int, int], up: int, rules: Rules, action: str, cdz=None) -> Fraction | None:
    """The round's result for one order of the cards (0 when void); None: a peeking dealer's
    blackjack (conditioned away). ``cdz``: the split hands' strategy."""
    bj = {1, 10}
    hole = None
    if rules.peek:
        hole = order.next()
        if hole is None:
            return Fraction(0)
        if {up, hole} == bj:
            return None
    natural = set(hand) == bj
    hands: list[tuple[int, int, str]] = []  # (total, bet, kind)
    if natural:
        hands.append((21, 1, "natural"))
    elif action == "surrender":
        hands.append((0, 1, "surrender"))
    elif action == "split":
        split_hands = _split(order, hand[0], up, rules, cdz)
        if split_hands is None:
            return Fraction(0)
        hands.extend(split_hands)
    else:
        cards = list(hand)
        bet = 2 if action == "double" else 1
        # stand: no card; double, "hit once": one card; "hit to t": one card, then up to t or more
        least = 0 if action == "stand" else 1
        to = {"hit to 17": 17, "hit to bust": 22}.get(action, 0)
        while len(cards) < 2 + least or _total(cards) < to:
            card = order.next()
            if card is None:
                return Fraction(0)
            cards.append(card)
        total = _total(cards)
        hands.append((total, bet, "bust" if total > 21 else "stand"))
    live = any(kind == "stand" for _, _, kind in hands)
    dealer = [up] if hole is None else [up, hole]
    if hole is None and (live or up in bj):
        second = order.next()
        if second is None:
            return Fraction(0)
        dealer.append(second)
        if {up, second} == bj:
            return Fraction(-sum(bet for _, bet, kind in hands if kind != "natural"))
    if live:
        while _dealer_draws(dealer, rules.h17):
            card = order.next()
            if card is None:
                return Fraction(0)
            dealer.append(card)
    result = Fraction(0)
    dealer_total = _total(dealer)
    for total, bet, kind in hands:
        if kind == "natural":
            result += rules.blackjack_pays
        elif kind == "surrender":
            result -= Fraction(1, 2)
        elif kind == "bust":
            result -= bet
        elif dealer_total > 21 or total > dealer_total:
            result += bet
        elif total < dealer_total:
            result -= bet
    return result


def _by_orders(shoe, discards, hand, up, rules, rule, action, cdz=None) -> tuple[Fraction, Fraction]:
    """(EV, P(run-out)) over every order of the cards, in the oracle's frame (a peeking
    dealer's blackjack conditioned away). Every distinct order of a multiset of cards stands
    for the same number of orders of the physical cards: they are equally likely."""
    rest = list(shoe)
    for card in (*hand, up):
        rest.remove(card)
    pile = list(discards) if rule == "reshuffle" else []
    results = []
    for order in set(itertools.permutations(rest)):
        for pile_order in set(itertools.permutations(pile)):
            cards = _Cards(order, pile_order)
            result = _play(cards, hand, up, rules, action, cdz)
            if result is not None:
                results.append((result, cards.ran_out))
    ev = Fraction(sum(r for r, _ in results), len(results))
    ran_out = Fraction(sum(1 for _, r in results if r), len(results))
    return ev, ran_out


# (shoe, discards, hand, up): small shoes where the last cards are often needed
ORDER_CASES = [
    ((10, 6, 6, 2, 3, 4, 10, 1), (2, 5, 10), (10, 6), 6),
    ((1, 1, 10, 2, 3, 4, 5, 9), (10, 6), (1, 1), 10),
    ((2, 3, 1, 1, 2, 4, 5, 10), (10, 3), (2, 3), 1),
    ((10, 10, 5, 2, 2, 3, 4), (6, 10, 1), (10, 10), 5),
    ((1, 10, 10, 6, 2, 3), (7, 2), (1, 10), 10),
    ((9, 2, 7, 3, 2, 4, 1), (5, 10), (9, 2), 7),
]


@pytest.mark.parametrize("shoe, discards, hand, up", ORDER_CASES)
@pytest.mark.parametrize("peek", [True, False])
def test_against_every_order(shoe, discards, hand, up, peek):
    rules = Rules(peek=peek, surrender=True, split_hands=2, h17=up == 6)
    shoe_counts, discard_counts = counts(*shoe), counts(*discards)
    for rule in RULES:
        evs = hand_evs(shoe_counts, discard_counts, hand, up, rules, rule)
        fixed = [a for a in ("stand", "double", "surrender") if a in evs]
        if hand == (1, 1):
            fixed.append("split")
        for action in fixed:
            ev, void = _by_orders(shoe, discards, hand, up, rules, rule, action)
            assert evs[action] == ev, (rule, action)
            if rule == "void":
                assert runout_probability(shoe_counts, discard_counts, hand, up, rules, action) == void
                assert runout_probability_max(shoe_counts, discard_counts, hand, up, rules, action) == void
        if "hit" in evs:
            for policy in ("hit once", "hit to 17", "hit to bust"):
                ev, void = _by_orders(shoe, discards, hand, up, rules, rule, policy)
                assert evs["hit"] >= ev, (rule, policy)
                if rule == "void":
                    assert runout_probability_max(shoe_counts, discard_counts, hand, up, rules, "hit") >= void
    # The run-out of the optimal play is at most the largest.
    for action in evs:
        assert runout_probability(shoe_counts, discard_counts, hand, up, rules, action) <= (
            runout_probability_max(shoe_counts, discard_counts, hand, up, rules, action)
        )


# (shoe, discards, pair, up, split_hands): splits, resplits and CDZ- near the last cards
SPLIT_CASES = [
    ((8, 8, 6, 2, 3, 8, 10, 5), (4, 10), 8, 6, 3),
    ((2, 2, 9, 2, 10, 1, 3), (5, 4), 2, 9, 4),
    ((10, 10, 10, 3, 4, 2, 6), (7, 10), 10, 3, 2),
    ((7, 7, 1, 7, 2, 3), (10, 4, 9), 7, 1, 4),
]


@pytest.mark.parametrize("shoe, discards, pair, up, split_hands", SPLIT_CASES)
@pytest.mark.parametrize("peek", [True, False])
def test_splits_against_every_order(shoe, discards, pair, up, split_hands, peek):
    """The split, played by the oracle's own CDZ- decisions, card order by card order."""
    rules = Rules(peek=peek, split_hands=split_hands, das=split_hands != 2)
    shoe_counts, discard_counts = counts(*shoe), counts(*discards)
    for rule in RULES:

        def cdz(cards, may_double, rule=rule):
            return cdz_action(shoe_counts, discard_counts, cards, up, rules, rule, may_double=may_double)

        ev, ran_out = _by_orders(shoe, discards, (pair, pair), up, rules, rule, "split", cdz)
        assert hand_evs(shoe_counts, discard_counts, (pair, pair), up, rules, rule)["split"] == ev
        if rule == "void":
            assert runout_probability(shoe_counts, discard_counts, (pair, pair), up, rules, "split") == ran_out


def test_the_cases_run_out():
    """The order cases do exercise the run-out rules."""
    differ = 0
    for shoe, discards, hand, up in ORDER_CASES:
        a = hand_evs(counts(*shoe), counts(*discards), hand, up, Rules(), "reshuffle")
        b = hand_evs(counts(*shoe), counts(*discards), hand, up, Rules(), "void")
        differ += a != b
    assert differ >= 4


# ---------------------------------------------------------------------------------------------
# Dealer distributions
# ---------------------------------------------------------------------------------------------


SHOES_AFTER = [counts(2, 3, 4, 5, 6), counts(1, 10, 2, 2), counts(5), NONE, counts(1, 2, 3, 4)]


@pytest.mark.parametrize("shoe_after", SHOES_AFTER)
@pytest.mark.parametrize("discards", [NONE, counts(10, 6), counts(1, 2, 2, 3)])
def test_dealer_distribution_sums_to_one(shoe_after, discards):
    for up in range(1, 11):
        for h17 in (False, True):
            for rule in RULES:
                d = dealer_distribution(shoe_after, discards, up, h17, rule)
                assert set(d) == {17, 18, 19, 20, 21, "bust", "blackjack", "void"}
                assert sum(d.values()) == 1
                assert all(p >= 0 for p in d.values())


def test_dealer_distribution_matches_naive_dealer():
    shoe = counts(1, 10, 10, 10, 10, 9, 9, 8, 8, 7, 7, 6, 5, 5, 4)
    for up in (1, 4, 5, 6, 10):
        for h17 in (False, True):
            after = list(shoe)
            after[up - 1] -= 1
            expected = naive_dealer(shoe, up, rules_with(hit_soft_17=h17))
            for rule in RULES:
                d = dealer_distribution(tuple(after), counts(2, 3), up, h17, rule)
                assert d["void"] == 0
                assert {k: v for k, v in d.items() if k != "void"} == expected


# ---------------------------------------------------------------------------------------------
# Shoes that cannot run out: both rules agree, and agree with naive_reference / naive_split
# ---------------------------------------------------------------------------------------------

SAFE_SHOES = [
    (1, 0, 0, 0, 1, 1, 1, 1, 1, 6),
    (2, 0, 0, 1, 1, 1, 1, 1, 2, 5),
]
SAFE_HANDS = [((10, 6), 10), ((5, 6), 9), ((1, 7), 1), ((10, 10), 7), ((9, 8), 5), ((1, 10), 10), ((10, 10), 1)]


@pytest.mark.parametrize("shoe", SAFE_SHOES)
@pytest.mark.parametrize("peek", [True, False])
def test_safe_shoes_match_naive_reference(shoe, peek):
    rules = Rules(peek=peek, surrender=True, split_hands=2, h17=not peek)
    ref_rules = reference_rules(rules)
    discards = (1,) * 10
    for hand, up in SAFE_HANDS:
        if any(counts(*hand, up)[r] > shoe[r] for r in range(10)):
            continue  # not in this shoe
        reference = naive_hand(shoe, up, hand, ref_rules)
        if hand[0] == hand[1]:
            reference["split"] = naive_split(shoe, up, hand[0], ref_rules)
        expected = {k: v for k, v in reference.items() if k != "conditioned" and v is not None}
        for rule in RULES:
            assert hand_evs(shoe, discards, hand, up, rules, rule) == expected, (hand, up, rule)
        for action in expected:
            assert runout_probability_max(shoe, discards, hand, up, rules, action) == 0


@pytest.mark.parametrize("peek", [True, False])
def test_safe_round_matches_naive_round(peek):
    shoe = SAFE_SHOES[0]
    rules = Rules(peek=peek, surrender=True, split_hands=2)
    expected = naive_round(shoe, reference_rules(rules))
    for rule in RULES:
        assert round_ev(shoe, (2,) * 10, rules, rule) == expected
    assert round_runout_probability(shoe, NONE, rules) == 0


def test_round_composes_the_hands():
    """round_ev = the deals' probabilities times the best first action (peek: blackjack first)."""
    shoe = counts(1, 2, 3, 4, 5, 10, 10)
    discards = counts(3, 10)
    rules = Rules(surrender=True)
    cards = [rank for rank in range(1, 11) for _ in range(shoe[rank - 1])]
    total = Fraction(0)
    n = len(cards)
    for i, j, k in itertools.permutations(range(n), 3):
        first, up, second = cards[i], cards[j], cards[k]
        hand = (first, second)
        natural = {first, second} == {1, 10}
        p_bj = Fraction(0)
        if up in (1, 10):
            left = list(shoe)
            for card in (first, second, up):
                left[card - 1] -= 1
            p_bj = Fraction(left[0 if up == 10 else 9], sum(left))
        best = Fraction(0) if p_bj == 1 else max(hand_evs(shoe, discards, hand, up, rules, "reshuffle").values())
        total += (p_bj * (0 if natural else -1) + (1 - p_bj) * best) / (n * (n - 1) * (n - 2))
    assert round_ev(shoe, discards, rules, "reshuffle") == total
    p = round_runout_probability(shoe, discards, rules)
    assert 0 < p < 1
