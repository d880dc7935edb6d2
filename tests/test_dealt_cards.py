"""The cards a round uses as dealt (bjcalc.counting.dealtcards), against every order of tiny shoes
played by the simulator's port (tests/oracles/simport.py: the compiled dealer's loop in Python,
itself checked against the kernel round by round in test_simulate), and what the chain placement
makes of them."""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracles.simport import Port, deal_shoe, enumerate_round
from sympy.utilities.iterables import multiset_permutations
from test_simulate import _codes, _tables

from bjcalc import Rules
from bjcalc.analysis import Analysis
from bjcalc.counting import simtables
from bjcalc.counting.dealtcards import class_weights, dealt_round_cards
from bjcalc.counting.indices import Convention
from bjcalc.counting.placement import round_start_states
from bjcalc.counting.spread import Spread
from bjcalc.counting.tasks import TaskStore
from bjcalc.counting.truecount import _Game

EACH_RANK = tuple(range(10))  # every rank its own class: the cards themselves

SHOES = [
    (2, 0, 0, 0, 2, 3, 0, 0, 0, 8),  # test_simulate's TINY: blackjacks, splits of aces and tens
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 5),  # every rank: hits, doubles, soft hands (about 7 s a rule set: slow)
]

RULES = [
    dict(),
    dict(hit_soft_17=True, surrender="late"),
    dict(double_after_split=False, double="10-11", resplit_aces=True, hit_split_aces=True),
    dict(split_hands=2, double_soft=False),
]


def _port_cards(rules: Rules, seats: int) -> dict[tuple[int, ...], Fraction]:
    """The first round's cards by rank over every order of the shoe, from the port."""
    tables, _ = _tables(rules, seats=seats)
    out: dict[tuple[int, ...], Fraction] = {}
    for (_, used), p in enumerate_round(Port(tables), _codes(rules)).items():
        ranks = tuple(used[:9]) + (sum(used[9:]),)
        out[ranks] = out.get(ranks, Fraction(0)) + p
    return out


@pytest.mark.parametrize("shoe, rules", [(SHOES[0], rules) for rules in RULES] + [
    pytest.param(SHOES[1], rules, marks=pytest.mark.slow) for rules in RULES])
def test_a_rounds_cards_are_those_of_every_order_of_the_shoe(shoe: tuple[int, ...], rules: dict) -> None:
    rules_ = Rules(shoe=shoe, **rules)
    chart = Analysis(rules_).chart()
    expected = _port_cards(rules_, 1)
    got = dealt_round_cards(rules_, chart, 1, EACH_RANK)
    assert set(got) == {c for c, p in expected.items() if p}
    for cards, p in expected.items():
        assert got[cards] == pytest.approx(float(p), abs=1e-13), cards


def test_two_seats_cards_are_those_of_every_order_of_the_shoe() -> None:
    rules = Rules(shoe=SHOES[0], surrender="late")
    expected = _port_cards(rules, 2)
    got = dealt_round_cards(rules, Analysis(rules).chart(), 2, EACH_RANK)
    for cards, p in expected.items():
        assert got.get(cards, 0.0) == pytest.approx(float(p), abs=1e-13), cards
    assert sum(got.values()) == pytest.approx(float(sum(expected.values())), abs=1e-13)


def test_class_weights_give_back_the_full_shoes_round() -> None:
    """On the full shoe, ``W(d) prod_j ff(C_j, d_j) / ff(L, |d|)`` is the round's own chance: the
    chain's first step is the round as dealt."""
    rules = Rules(shoe=SHOES[1])
    of_rank = (2, 0, 0, 0, 0, 0, 1, 1, 1, 2)  # Hi-Lo's classes
    dealt = dealt_round_cards(rules, Analysis(rules).chart(), 1, of_rank)
    totals = [sum(n for n, c in zip(SHOES[1], of_rank) if c == j) for j in range(3)]

    def ff(n: int, k: int) -> int:
        out = 1
        for i in range(k):
            out *= n - i
        return out

    for d, w in class_weights(rules, dealt, of_rank).items():
        back = w * ff(totals[0], d[0]) * ff(totals[1], d[1]) * ff(totals[2], d[2]) / ff(sum(totals), sum(d))
        assert back == pytest.approx(dealt[d], rel=1e-12)


# a count whose classes each hold one rank of the shoe below (the aces followed apart): the
# chain's state is then the whole of the cards seen, and the chain is the game as dealt
PURE_TAGS = tuple(Fraction(t) for t in (-1, 1, 1, 1, 1, 0, 0, 0, 0, -1))


def _every_shoe(rules: Rules, tags: tuple[Fraction, ...], cut: int) -> tuple[Fraction, dict[int, Fraction]]:
    """Rounds a shoe and rounds by starting depth, over every order of the shoe (the port)."""
    game = _Game(rules, tags, Convention(), Fraction(0), False, TaskStore(None), None)
    port = Port(simtables.KernelTables.build(game, Analysis(rules).chart(), cut, 1, "basic", (), None,
                                             Spread.flat(), None, None))
    cards = [code for code, n in enumerate(_codes(rules)) for _ in range(n)]
    orders = list(multiset_permutations(cards))
    by_depth: dict[int, Fraction] = {}
    for order in orders:
        for record in deal_shoe(port, order):
            by_depth[record[0]] = by_depth.get(record[0], Fraction(0)) + Fraction(1, len(orders))
    return sum(by_depth.values(), Fraction(0)), by_depth


@pytest.mark.parametrize("shoe, cut", [((2, 0, 0, 0, 1, 2, 0, 0, 0, 8), 6), ((1, 0, 0, 0, 1, 2, 0, 0, 0, 8), 5)])
def test_the_dealt_chain_is_the_game_as_dealt_where_each_class_is_one_rank(shoe: tuple[int, ...], cut: int) -> None:
    """Every order of the shoe, the port's rounds against the dealt placement: equal (the
    chain with the full shoe's cards drawn with replacement gave 1.6001 rounds a shoe where
    the game deals 1.6642, and 1.6241 where it deals 1.5428). Some orders run out in the
    second round here, where no third could start; where a run-out round is followed by
    another start, the chain's steps renormalise over the rounds that finish and the two
    differ (the chain's convention for the last cards, not the dealt cards')."""
    rules = Rules(shoe=shoe)
    rounds, by_depth = _every_shoe(rules, PURE_TAGS, cut)
    starts = round_start_states(rules, Analysis(rules).chart(), PURE_TAGS, cut, placement="dealt")
    assert starts.rounds_per_shoe == pytest.approx(float(rounds), abs=1e-12)
    for depth, share in zip(starts.starts, starts.shares):
        assert float(share) * starts.rounds_per_shoe == pytest.approx(float(by_depth[depth]), abs=1e-12), depth
