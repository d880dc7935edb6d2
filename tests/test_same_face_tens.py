"""Splitting only same-face ten pairs (unlike tens may not be split): the engine against the
face-by-face naive oracle (tests/oracles/naive_faces.py), and the rule's other effects."""

from fractions import Fraction

import pytest
from conftest import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracles import naive_faces
from oracles import naive_reference as naive

from bjcalc import Analysis, Rules
from bjcalc.actions import Action
from bjcalc.errors import InvalidShoeError
from bjcalc.numbers import to_fraction

SHOE = (0, 1, 1, 1, 1, 1, 0, 0, 0, 12)  # 2-6 and three of each ten-valued face


@pytest.mark.parametrize("max_hands", [2, 3, 4])
@pytest.mark.parametrize("up", ["6", "T"])
def test_same_face_split_matches_the_oracle(up, max_hands):
    rules = Rules(shoe=SHOE, split_unlike_tens=False, split_hands=max_hands, double_after_split=True,
                  surrender="none")
    engine = Analysis(rules, exact=True).hand("K,K", up).evs[Action.SPLIT]
    oracle = naive_faces.naive_face_split(SHOE, 10 if up == "T" else int(up), "K",
                                          naive.rules_with(split_hands=max_hands), max_hands)
    assert to_fraction(engine) == oracle


@settings(max_examples=examples(25))
@given(small=st.lists(st.integers(0, 1), min_size=8, max_size=8), tens=st.sampled_from([8, 12]),
       up=st.integers(1, 9), max_hands=st.integers(2, 4), das=st.booleans(), h17=st.booleans())
def test_same_face_split_matches_the_oracle_on_random_shoes(small, tens, up, max_hands, das, h17):
    shoe = (0, *small, tens)
    assume(shoe[up] > 0)
    rules = Rules(shoe=shoe, split_unlike_tens=False, split_hands=max_hands, double_after_split=das,
                  hit_soft_17=h17, surrender="none")
    try:
        engine = Analysis(rules, exact=True).hand("K,K", "23456789T"[up - 1]).evs[Action.SPLIT]
        oracle = naive_faces.naive_face_split(
            shoe, up + 1, "K", naive.rules_with(split_hands=max_hands, double_after_split=das, hit_soft_17=h17),
            max_hands)
    except (InvalidShoeError, naive.ShoeExhausted):
        assume(False)
    assert to_fraction(engine) == oracle


def test_unlike_tens_get_no_split_and_like_tens_do():
    analysis = Analysis(Rules(decks=2, split_unlike_tens=False), exact=True)
    assert Action.SPLIT not in analysis.hand("K,Q", "6").evs
    assert Action.SPLIT in analysis.hand("J,J", "6").evs
    assert Action.SPLIT in analysis.hand("10,T", "6").evs  # T and 10 are the face 10
    assert analysis.hand("K,Q", "6").notation == "K,Q"  # shown by face where faces matter
    assert Analysis(Rules(decks=2)).hand("K,Q", "6").notation == "T,T"


def _face_share(up_face):
    """P(two tens are of one face), counted over labelled cards of SHOE's faces."""
    cards = [f for f in naive_faces.FACES for _ in range(3)]
    if up_face is not None:
        cards.remove(up_face)
    pairs = [(a, b) for i, a in enumerate(cards) for j, b in enumerate(cards) if i != j]
    return Fraction(sum(a == b for a, b in pairs), len(pairs))


def test_round_ev_counts_unlike_tens_as_unsplittable():
    """Without resplits the split of a same-face pair is worth what any ten pair's is, so the
    two rules differ only on unlike tens, which must play by their total: checked against the
    naive oracles hand by hand."""
    from oracles import naive_split


    options = {"shoe": SHOE, "split_hands": 2, "double_after_split": True, "surrender": "none"}
    free = to_fraction(Analysis(Rules(**options), exact=True).round().ev)
    same = to_fraction(Analysis(Rules(split_unlike_tens=False, **options), exact=True).round().ev)
    rules = naive.rules_with(split_hands=2)
    n = sum(SHOE)
    expected = Fraction(0)
    for up in range(1, 10):  # ranks 2..10 (no aces in SHOE)
        up_rank = up + 1
        if not SHOE[up]:
            continue
        tens = SHOE[9] - (up_rank == 10)
        p_tt = Fraction(SHOE[up], n) * Fraction(tens * (tens - 1), (n - 1) * (n - 2))
        if up_rank == 10:
            share = sum(_face_share(f) for f in naive_faces.FACES) / 4
        else:
            share = _face_share(None)
        evs = naive.naive_hand(SHOE, up_rank, (10, 10), rules)
        play = max(v for k, v in evs.items() if k in ("stand", "hit", "double") and v is not None)
        split = naive_split.naive_split(SHOE, up_rank, 10, rules)
        expected += p_tt * (1 - share) * (play - max(play, split))
    assert same - free == expected
    assert expected != 0  # splitting tens is chosen somewhere in this shoe


def test_basic_strategy_with_same_face_tens_exact_and_float_agree():
    rules = Rules(decks=1, split_unlike_tens=False, hit_soft_17=True)
    chart = Analysis(rules).chart()
    evaluation = Analysis(rules, exact=True).evaluate(chart)
    exact, plays = evaluation.round, evaluation.plays
    floats = Analysis(rules).evaluate(chart).round
    assert abs(float(to_fraction(exact.ev)) - floats.ev) < 1e-12
    tens = [p for p in plays if p.up == "6" and p.hand == "T,T"]
    assert sorted(p.same_face for p in tens) == [False, True]
    assert to_fraction(sum(p.probability for p in tens)) == Fraction(1, 13) * Fraction(16 * 15, 51 * 50)
