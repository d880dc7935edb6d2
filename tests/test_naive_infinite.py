"""Tests of the infinite-deck oracle (tests/oracles/naive_infinite.py) itself: against published
infinite-deck figures (each data file in tests/data names its source) and against exact
identities of the game that hold with replacement.

A published figure is matched at its last printed digit (``matches_printed``).
"""

from fractions import Fraction

import pytest
from conftest import matches_printed, read_table
from oracles.naive_infinite import (
    DEFAULT_RULES,
    P_CARD,
    dealer_distribution,
    hand_evs,
    round_ev,
    rules_with,
    split_ev,
)

UPS = range(1, 11)
UP_NAMES = {"A": 1, "T": 10, **{str(n): n for n in range(2, 10)}}
OUTCOMES = (17, 18, 19, 20, 21, "bust", "blackjack")
P_DEALER_BJ = {1: Fraction(4, 13), 10: Fraction(1, 13)}


def assert_printed(value, printed, what):
    assert matches_printed(value, printed), f"{what}: oracle {float(value):.10g}, published {printed}"


def best(evs):
    return max(ev for action, ev in evs.items() if action != "conditioned" and ev is not None)


def two_card_hand(total):
    """A two-card hard hand of ``total`` (5..20) that is not a pair."""
    first = 2 if total <= 12 else total - 10
    second = total - first
    assert first != second and 2 <= first <= 10 and 2 <= second <= 10
    return [first, second]


# ---------------------------------------------------------------------------------------------
# The dealer
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("max_cards", [None, 2, 3, 5])
@pytest.mark.parametrize("peek", [False, True])
@pytest.mark.parametrize("h17", [False, True])
def test_dealer_distribution_sums_to_exactly_one(h17, peek, max_cards):
    for up in UPS:
        dist = dealer_distribution(up, h17, peek, dealer_max_cards=max_cards)
        assert sum(dist.values()) == 1, (up, h17, peek, max_cards)
        assert all(p >= 0 for p in dist.values())
        if peek or up not in (1, 10):
            assert dist["blackjack"] == 0
        else:
            assert dist["blackjack"] == P_DEALER_BJ[up]
        if max_cards is None:
            assert set(dist) == set(OUTCOMES)


@pytest.mark.parametrize("up", [1, 10])
def test_peek_is_conditioning_on_no_blackjack(up):
    before = dealer_distribution(up)
    after = dealer_distribution(up, peek=True)
    for outcome in OUTCOMES[:-1]:
        assert after[outcome] == before[outcome] / (1 - before["blackjack"])


def test_dealer_stopped_at_two_cards_stands_on_up_plus_hole():
    dist = dealer_distribution(6, dealer_max_cards=2)
    expected = {6 + hole: P_CARD[hole] for hole in range(2, 11)}
    expected[17] = P_CARD[1]  # 6 + A is a soft 17
    assert {k: v for k, v in dist.items() if v} == expected


def test_h17_only_changes_soft_17_draws():
    # A 6 up makes soft 17 with an ace hole card: H17 draws to it, so fewer final 17s.
    s17, h17 = dealer_distribution(6), dealer_distribution(6, hit_soft_17=True)
    assert h17[17] < s17[17]
    # A ten up never makes a soft 17 (T + A is blackjack; any ace after that counts 1).
    assert dealer_distribution(10) == dealer_distribution(10, hit_soft_17=True)


KRIGMAN = read_table("dealer_infinite_s17_percent.txt")
# Krigman's ace row is printed to sum to exactly 100.00: its bust is 11.52 where the infinite deck
# gives 11.5286 % (pinned below), so that one cell is allowed one unit in its last digit.
KRIGMAN_SUM_ADJUSTED = {("A", "bust")}


@pytest.mark.parametrize("row", KRIGMAN, ids=lambda r: r["up"])
def test_krigman_infinite_deck_dealer_s17_before_peek(row):
    dist = dealer_distribution(UP_NAMES[row["up"]])
    for outcome in OUTCOMES:
        got = 100 * dist[outcome]
        printed = row[str(outcome)]
        if (row["up"], outcome) in KRIGMAN_SUM_ADJUSTED:
            assert abs(got - Fraction(printed)) <= Fraction(1, 100)
        else:
            assert_printed(got, printed, f"Krigman up {row['up']} {outcome}")


def test_ace_up_bust_is_11_5286_percent():
    assert round(float(100 * dealer_distribution(1)["bust"]), 4) == 11.5286


# ---------------------------------------------------------------------------------------------
# Hands against published infinite-deck tables (Wizard of Odds, S17, conditioned on no dealer BJ)
# ---------------------------------------------------------------------------------------------

UP_COLUMNS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]


def hands_standing_on(total_label):
    """Hands (hard and soft, two or more cards) whose stand EV the row ``total_label`` gives."""
    if total_label == "0-16":
        hands = [[2, 2], [2, 3, 2]] + [two_card_hand(t) for t in range(5, 17)] + [[1, 5], [1, 2, 3], [10, 2, 4]]
    else:
        total = int(total_label)
        hard = [10, total - 10] if total <= 20 else [7, 7, 7]
        soft = [1, total - 11] if total <= 20 else [1, 5, 5]  # A,T would be a blackjack
        hands = [hard, soft, [10, 2, total - 12]]
    return hands


@pytest.mark.parametrize(
    "row", read_table("infinite_s17_wizard_stand_hit.txt"), ids=lambda r: f"{r['action']}-{r['total']}"
)
def test_wizard_infinite_deck_stand_and_hit_tables(row):
    for column in UP_COLUMNS:
        printed = row[column]
        if printed == "-":
            continue
        up = UP_NAMES[column]
        if row["action"] == "stand":
            for hand in hands_standing_on(row["total"]):
                evs = hand_evs(hand, up)
                assert evs["conditioned"] == (up in (1, 10))
                assert_printed(evs["stand"], printed, f"stand {hand} v {column}")
        else:
            total = int(row["total"])
            hand = [2, 2] if total == 4 else two_card_hand(total)
            assert_printed(hand_evs(hand, up)["hit"], printed, f"hit {hand} v {column}")


@pytest.mark.parametrize("row", read_table("infinite_s17_wizard_best_ev.txt"), ids=lambda r: r["total"])
def test_wizard_appendix_5_best_ev_of_hard_totals(row):
    hand = two_card_hand(int(row["total"]))
    for column in UP_COLUMNS:
        got = best(hand_evs(hand, UP_NAMES[column]))
        # printed to 4 decimals with trailing zeros dropped (see the data file)
        assert abs(got - Fraction(row[column])) <= Fraction(1, 2 * 10**4), (
            f"best EV {hand} v {column}: oracle {float(got):.6f}, published {row[column]}"
        )


WIZARD_RULES = {"split4": DEFAULT_RULES, "unlimited": rules_with(split_hands=None)}
WIZARD_ROUND = read_table("infinite_s17_wizard_round.txt")


@pytest.mark.parametrize(
    "row", [r for r in WIZARD_ROUND if r["figure"] == "round_ev_percent"], ids=lambda r: r["rules"]
)
def test_wizard_infinite_deck_round_ev(row):
    assert_printed(100 * round_ev(WIZARD_RULES[row["rules"]]), row["value"], f"round EV ({row['rules']})")


def test_wizard_worked_example_8_8_v_10():
    published = {r["figure"].split("_")[1]: r["value"] for r in WIZARD_ROUND if r["figure"].startswith("8,8vT")}
    evs = hand_evs([8, 8], 10)
    evs["split"] = split_ev(8, 10)
    for action, printed in published.items():
        assert_printed(evs[action], printed, f"8,8 v T {action}")


# ---------------------------------------------------------------------------------------------
# Exact identities
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("up", UPS)
def test_stand_on_16_wins_exactly_when_the_dealer_busts(up):
    peeked = dealer_distribution(up, peek=True)
    assert hand_evs([10, 6], up)["stand"] == peeked["bust"] - (1 - peeked["bust"])
    unpeeked = dealer_distribution(up)  # no hole card: a dealer blackjack beats 16 too
    assert hand_evs([10, 6], up, rules_with(hole_card="none"))["stand"] == unpeeked["bust"] - (1 - unpeeked["bust"])


@pytest.mark.parametrize("up", [4, 5, 6])
@pytest.mark.parametrize("hand", [[4, 6], [5, 6], [2, 8], [3, 8]])
def test_doubling_10_or_11_against_4_to_6_is_two_hits(hand, up):
    # Every one-card result (12..21) stands against 4-6, so hitting takes exactly one card too.
    evs = hand_evs(hand, up)
    assert evs["double"] == 2 * evs["hit"]


def test_composition_does_not_matter():
    for up in UPS:
        assert hand_evs([2, 3, 5], up)["hit"] == hand_evs([4, 6], up)["hit"]
        assert hand_evs([1, 2, 3], up)["stand"] == hand_evs([1, 5], up)["stand"]


def test_actions_offered():
    assert hand_evs([1, 10], 5) == {
        "stand": Fraction(3, 2),
        "hit": None,
        "double": None,
        "surrender": None,
        "conditioned": False,
    }
    assert hand_evs([1, 10], 10)["stand"] == Fraction(3, 2)  # conditioned: no dealer blackjack
    assert hand_evs([2, 3, 4], 5)["double"] is None
    assert hand_evs([5, 5], 5, rules_with(double="10-11"))["double"] is not None
    assert hand_evs([4, 5], 5, rules_with(double="10-11"))["double"] is None
    assert hand_evs([1, 8], 5, rules_with(double="9-11"))["double"] is None  # soft 19
    assert hand_evs([10, 6], 10, rules_with(surrender="late"))["surrender"] == Fraction(-1, 2)
    assert hand_evs([10, 6, 1], 10, rules_with(surrender="late"))["surrender"] is None


@pytest.mark.parametrize("hand", [[10, 6], [5, 6], [1, 7], [1, 10], [8, 8]])
@pytest.mark.parametrize("up", [1, 10])
def test_early_surrender_frame_is_unconditional(hand, up):
    p = P_DEALER_BJ[up]
    natural = sorted(hand) == [1, 10]
    late = hand_evs(hand, up, rules_with(surrender="late"))
    early = hand_evs(hand, up, rules_with(surrender="early"))
    assert late["conditioned"] and not early["conditioned"]
    for action in ("stand", "hit", "double"):
        if late[action] is not None:
            assert early[action] == p * (0 if natural else -1) + (1 - p) * late[action]
    assert early["surrender"] == (None if natural else Fraction(-1, 2))
    if hand == [8, 8]:
        assert split_ev(8, up, rules_with(surrender="early")) == -p + (1 - p) * split_ev(8, up)


@pytest.mark.parametrize("up", UPS)
@pytest.mark.parametrize("hand", [[10, 6], [5, 6], [1, 7], [1, 10], [9, 9]])
def test_no_hole_card_frames(hand, up):
    p = P_DEALER_BJ.get(up, Fraction(0))
    natural = sorted(hand) == [1, 10]
    peek = hand_evs(hand, up, rules_with(surrender="late"))
    takes_all = hand_evs(hand, up, rules_with(surrender="late", hole_card="none"))
    takes_original = hand_evs(hand, up, rules_with(surrender="late", hole_card="none", blackjack_takes="original"))
    assert not takes_all["conditioned"] and not takes_original["conditioned"]
    for action, bet in (("stand", 1), ("hit", 1), ("double", 2), ("surrender", 1)):
        if peek[action] is None:
            assert takes_all[action] is None
            continue
        lose = 0 if natural else -1
        assert takes_original[action] == p * lose + (1 - p) * peek[action], action
        assert takes_all[action] == p * lose * bet + (1 - p) * peek[action], action


@pytest.mark.parametrize("up", [1, 10])
def test_no_hole_card_split_with_exactly_two_bets(up):
    # Split aces take one card each and are never resplit, so exactly two bets are out; 8,8 to two
    # hands without DAS too.
    p = P_DEALER_BJ[up]
    for pair, rules in ((1, {}), (8, {"split_hands": 2, "double_after_split": False})):
        peek = split_ev(pair, up, rules_with(**rules))
        takes_all = split_ev(pair, up, rules_with(hole_card="none", **rules))
        takes_original = split_ev(pair, up, rules_with(hole_card="none", blackjack_takes="original", **rules))
        assert takes_all == p * -2 + (1 - p) * peek
        assert takes_original == p * -1 + (1 - p) * peek


def test_no_hole_card_original_bets_only_is_the_peek_game():
    # Against a dealer blackjack everything but the original bet comes back, whatever was played,
    # so the best play and the round's value are those of the peeking game.
    rules = {"surrender": "late", "split_hands": 3}
    assert round_ev(rules_with(hole_card="none", blackjack_takes="original", **rules)) == round_ev(rules_with(**rules))


def post_split_value(pair, card, up, rules):
    """EV of one split hand of ``pair`` and ``card``, through ``hand_evs`` (no surrender, no
    natural: only for pairs other than aces and tens here)."""
    evs = hand_evs([pair, card], up, rules)
    options = [evs["stand"], evs["hit"]] + ([evs["double"]] if rules["double_after_split"] else [])
    return max(ev for ev in options if ev is not None)


@pytest.mark.parametrize("das", [True, False])
@pytest.mark.parametrize("pair", [2, 4, 8, 9])
def test_split_to_two_and_three_hands_by_enumeration(pair, das):
    """Split EVs against the hand sequences enumerated in "Calculating split EVs exactly"
    (https://www.blackjackinfo.com/community/threads/calculating-split-evs-exactly.22850/): with
    P the pair card, N any other card and x any card once no more splits are allowed, two hands
    give xx; three hands give NN, Pxxx and NPxx."""
    for up in (2, 6, 10):
        rules = rules_with(double_after_split=das)
        p = P_CARD[pair]
        values = {card: post_split_value(pair, card, up, rules) for card in UPS}
        ev_x = sum(P_CARD[card] * values[card] for card in UPS)
        ev_n = sum(P_CARD[card] * values[card] for card in UPS if card != pair) / (1 - p)
        assert split_ev(pair, up, rules_with(double_after_split=das, split_hands=2)) == 2 * ev_x
        three = 2 * ev_n * (1 - p) ** 2 + 3 * ev_x * p + (ev_n + 2 * ev_x) * (1 - p) * p
        assert split_ev(pair, up, rules_with(double_after_split=das, split_hands=3)) == three


def test_split_aces_one_card_each():
    for up in UPS:
        # a split ace and a ten is 21, not a blackjack: stand as the soft 21 A,5,5 does
        one_card = sum(P_CARD[card] * hand_evs([1, card] if card != 10 else [1, 5, 5], up)["stand"] for card in UPS)
        assert split_ev(1, up) == 2 * one_card
        assert split_ev(1, up, rules_with(resplit_aces=True)) > split_ev(1, up)
        assert split_ev(1, up, rules_with(hit_split_aces=True)) > split_ev(1, up)


def test_unlimited_resplitting_is_the_limit_of_many_hands():
    for pair in (2, 8, 9):
        unlimited = split_ev(pair, 6, rules_with(split_hands=None))
        assert abs(unlimited - split_ev(pair, 6, rules_with(split_hands=16))) < Fraction(1, 10**9)
        assert split_ev(pair, 6, rules_with(split_hands=4)) < split_ev(pair, 6, rules_with(split_hands=8)) < unlimited


def test_round_ev_orders_rules_as_expected():
    base = round_ev(DEFAULT_RULES)
    assert round_ev(rules_with(hit_soft_17=True)) < base
    assert round_ev(rules_with(surrender="late")) > base
    assert round_ev(rules_with(blackjack_pays=Fraction(6, 5))) < base


def test_bad_rules_are_refused():
    with pytest.raises(KeyError):
        rules_with(decks=6)
    for key, value in (("double", "soft"), ("surrender", "yes"), ("hole_card", "enhc"), ("blackjack_takes", 1)):
        with pytest.raises(ValueError):
            rules_with(**{key: value})
    with pytest.raises(ValueError):
        hand_evs([10, 10, 5], 6)
    with pytest.raises(ValueError):
        dealer_distribution(11)
