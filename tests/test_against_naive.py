"""The engine against the naive reference (tests/oracles/naive_reference.py), exactly.

The reference was written from docs/model.md alone: it deals the hole card first (conditioned
on no blackjack for a peeking dealer) and expectimaxes over every card sequence with
``Fraction``; it shares no code with the engine. Here both run on hundreds of random small
shoes, hands and rule combinations, and must agree to the last bit.
"""

from fractions import Fraction

from conftest import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracles import naive_reference as naive

from bjcalc import Action, Analysis, BlackjackTakes, InvalidShoeError, Loss, Rules
from bjcalc.cards import RANK_NOTATION
from bjcalc.numbers import to_fraction

SETTINGS = settings(max_examples=examples(300))


@st.composite
def small_shoes(draw, low=12, high=22):
    counts = [draw(st.integers(0, 3)) for _ in range(9)] + [draw(st.integers(2, 8))]
    assume(low <= sum(counts) <= high)
    return tuple(counts)


@st.composite
def rule_sets(draw):
    loss = st.sampled_from([Loss.ALL, Loss.ORIGINAL])
    charlie = draw(st.sampled_from([None, None, 3, 4, 5]))
    limit = draw(st.sampled_from([None, None, 3, 4, 6]))
    if charlie and limit and charlie > limit:
        charlie = None
    return Rules(
        shoe=(1,) * 10,  # replaced by the test's shoe
        hit_soft_17=draw(st.booleans()),
        blackjack_pays=draw(st.sampled_from([Fraction(3, 2), Fraction(6, 5), Fraction(1), Fraction(2)])),
        double=draw(st.sampled_from(["any", "9-11", "10-11", "none"])),
        double_soft=draw(st.booleans()),
        surrender=draw(st.sampled_from(["none", "late", "early"])),
        insurance=draw(st.booleans()),
        hole_card=draw(st.sampled_from(["peek", "none"])),
        blackjack_takes=BlackjackTakes(
            doubles_vs_ace=draw(loss), doubles_vs_ten=draw(loss),
            splits_vs_ace=draw(loss), splits_vs_ten=draw(loss),
        ),
        charlie=charlie,
        player_max_cards=limit,
        dealer_max_cards=draw(st.sampled_from([None, None, 3, 4, 5])),
    )


def naive_rules(rules: Rules) -> dict:
    takes = rules.blackjack_takes
    return naive.rules_with(
        hit_soft_17=rules.hit_soft_17,
        blackjack_pays=rules.blackjack_pays,
        double=rules.double.value,
        double_soft=rules.double_soft,
        surrender=rules.surrender.value,
        insurance=rules.insurance,
        hole_card=rules.hole_card.value,
        nhc_double_loss={1: takes.doubles_vs_ace.value, 10: takes.doubles_vs_ten.value},
        nhc_split_loss={1: takes.splits_vs_ace.value, 10: takes.splits_vs_ten.value},
        charlie=rules.charlie,
        player_max_cards=rules.player_max_cards,
        dealer_max_cards=rules.dealer_max_cards,
    )


def _available(shoe, cards):
    counts = list(shoe)
    for c in cards:
        counts[c] -= 1
    return min(counts) >= 0


@SETTINGS
@given(shoe=small_shoes(), rules=rule_sets(), data=st.data())
def test_hand_evs_match_naive_reference(shoe, rules, data):
    up = data.draw(st.integers(0, 9), label="up")
    n_cards = data.draw(st.sampled_from([2, 2, 2, 3]), label="n_cards")
    hand = tuple(data.draw(st.integers(0, 9)) for _ in range(n_cards))
    assume(_available(shoe, hand + (up,)))
    assume(sum(c + 1 for c in hand) <= 21)
    if rules.player_max_cards:
        assume(n_cards <= rules.player_max_cards)
    if rules.charlie:
        assume(n_cards <= rules.charlie)
    rules = rules.replace(shoe=shoe)
    try:
        result = Analysis(rules, exact=True).hand([RANK_NOTATION[c] for c in hand], RANK_NOTATION[up])
    except InvalidShoeError:
        assume(False)
    reference_rules = naive_rules(rules)
    if n_cards > 2 and rules.surrender.value == "early":
        # surrender is long past on a hit hand: the player has seen the peek (see docs/model.md)
        reference_rules["surrender"] = "late"
    expected = naive.naive_hand(shoe, up + 1, tuple(c + 1 for c in hand), reference_rules)
    natural = n_cards == 2 and sorted(hand) == [0, 9]
    assert result.conditioned == expected["conditioned"]
    for action in (Action.STAND, Action.HIT, Action.DOUBLE, Action.SURRENDER):
        if natural and action is not Action.STAND:
            continue  # the engine shows a natural's soft-21 plays for information only
        got = result.evs.get(action)
        want = expected[action.key]
        assert (got is None) == (want is None), f"{action.key}: engine {got}, reference {want}"
        if want is not None:
            assert to_fraction(got) == want, f"{action.key}: engine {got}, reference {want}"
    if up == 0 and rules.insurance:
        assert to_fraction(result.insurance) == naive.naive_insurance(shoe, 1, tuple(c + 1 for c in hand))
        if natural:
            assert to_fraction(result.even_money) == naive.naive_even_money(shoe, 1, (1, 10))


@SETTINGS
@given(shoe=small_shoes(8, 30), rules=rule_sets(), data=st.data())
def test_dealer_tables_match_naive_reference(shoe, rules, data):
    up = data.draw(st.integers(0, 9), label="up")
    removed = tuple(data.draw(st.lists(st.integers(0, 9), max_size=3), label="removed"))
    assume(_available(shoe, removed + (up,)))
    rules = rules.replace(shoe=shoe)
    try:
        table = Analysis(rules, exact=True).dealer(RANK_NOTATION[up], removed=[RANK_NOTATION[c] for c in removed])
    except InvalidShoeError:
        assume(False)
    try:
        expected = naive.naive_dealer(shoe, up + 1, naive_rules(rules), removed=tuple(c + 1 for c in removed))
    except naive.ShoeExhausted:
        assume(False)
    assert sum(table.values()) == 1
    for outcome, p in expected.items():
        assert to_fraction(table.get(str(outcome), 0)) == p, f"outcome {outcome}"
    for outcome, p in table.items():
        key = int(outcome) if outcome.isdigit() else outcome
        assert to_fraction(p) == expected.get(key, 0), f"outcome {outcome}"
