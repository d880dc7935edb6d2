"""The front door as documented: ``Analysis`` and its typed results.

Numbers here are checked against each other and against independent facts (probabilities
sum to 1, a chart cannot beat CD play, Bet Behind following everything is the seated round),
never against values the code produced."""

import dataclasses
from fractions import Fraction

import pytest
import sympy

from bjcalc import (
    Action,
    Analysis,
    ChartEvaluation,
    DealerResult,
    HandResult,
    InvalidChartError,
    Outcome,
    Rank,
    RoundResult,
    Rules,
    Strategy,
    Variance,
)
from bjcalc.numbers import to_fraction

SMALL = Rules(shoe=(4,) * 9 + (16,), surrender="late", split_hands=2)  # one deck, quick


@pytest.fixture(scope="module")
def exact():
    return Analysis(SMALL, exact=True)


def test_the_issue_example_works_as_documented():
    a = Analysis(Rules(decks=6))
    edge = a.round().house_edge
    chart = a.chart()
    basic = a.evaluate(chart)
    assert isinstance(edge, float) and isinstance(basic, ChartEvaluation)
    # a chart plays no better than every decision made on the exact cards
    assert basic.round.ev <= a.round().ev + 1e-15
    assert 0.3 < 100 * edge < 0.5  # 6 decks S17 DAS: published house edges are near 0.4 %


def test_round_result_is_typed_keyed_by_rank_and_adds_up(exact):
    result = exact.round()
    assert isinstance(result, RoundResult) and isinstance(result.ev, sympy.Rational)
    assert set(result.by_upcard) == set(Rank)
    assert all(isinstance(up, Rank) for up in result.by_upcard)
    p = {up: to_fraction(v) for up, v in result.upcard_probability.items()}
    assert sum(p.values()) == 1 and p[Rank.TEN] == Fraction(16, 52)
    assert sum(p[up] * to_fraction(result.by_upcard[up]) for up in Rank) == to_fraction(result.ev)
    assert result.by_upcard["A"] == result.by_upcard[Rank.ACE]  # string enum keys
    assert result.strategy == Strategy("CD", split_hands="CDZ-") and str(result.strategy) == "CD; split hands CDZ-"
    assert result.house_edge == -result.ev
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.ev = 0  # type: ignore[misc]


def test_dealer_result_is_a_mapping_by_outcome_summing_to_one(exact):
    table = exact.dealer("6")
    assert isinstance(table, DealerResult) and table.up is Rank.SIX and not table.peeked
    assert all(isinstance(o, Outcome) for o in table)
    assert sum(table.values()) == 1
    assert table["bust"] == table[Outcome.BUST] and Outcome.BLACKJACK in table
    peeked = exact.dealer("A", peeked=True)
    assert Outcome.BLACKJACK not in peeked and sum(peeked.values()) == 1


def test_evaluation_plays_cover_every_deal_once(exact):
    chart = exact.chart()
    evaluation = exact.evaluate(chart)
    total = sum(to_fraction(p.probability) for p in evaluation.plays)
    assert total == 1
    ev = sum(to_fraction(p.probability) * to_fraction(p.ev) for p in evaluation.plays)
    assert ev == to_fraction(evaluation.round.ev)
    assert evaluation.round.strategy.chart and evaluation.round.strategy.play == "basic"
    assert all(isinstance(p.up, Rank) and isinstance(p.action, Action) for p in evaluation.plays)


def test_exceptions_deviations_variance_and_bet_behind(exact):
    chart = exact.chart()
    cd, basic = exact.round(), exact.evaluate(chart).round
    # the CD exceptions' gains, weighted by how often each hand is dealt, are the gap between
    # CD play and the chart when split hands are played alike ... at least they cannot exceed it
    assert all(e.gain > 0 and e.best is not e.chart for e in exact.exceptions(chart))
    assert float(to_fraction(cd.ev) - to_fraction(basic.ev)) >= 0
    assert exact.deviations(chart) == []  # the optimal chart deviates from nothing
    variance = Analysis(SMALL).variance()  # float: the exact one is checked in test_variance.py
    assert isinstance(variance, Variance) and variance.sd is not None and 1.0 < variance.sd < 1.3
    behind = exact.bet_behind(chart)
    assert behind.follows_everything == basic.ev
    assert behind.seated.chart and to_fraction(behind.cannot_afford) != to_fraction(behind.follows_everything)


def test_hand_result_states_its_frame_and_strategy(exact):
    r = exact.hand("T,6", "T")
    assert isinstance(r, HandResult) and r.conditioned and r.frame == "conditioned"
    assert r.strategy == Strategy("CD") and Action.SURRENDER in r.evs
    split = exact.hand("8,8", "6")
    assert split.strategy.split_hands == "CDZ-"


def test_exact_and_float_front_doors_agree():
    floats, exact = Analysis(SMALL), Analysis(SMALL, exact=True)
    assert abs(floats.round().ev - float(exact.round().ev)) < 1e-12
    chart = floats.chart()
    assert abs(floats.evaluate(chart).round.ev - float(exact.evaluate(chart).round.ev)) < 1e-12


def test_a_chart_must_cover_the_shoe_and_be_a_chart():
    a = Analysis(SMALL)
    with pytest.raises(InvalidChartError, match="chart must be"):
        a.evaluate("basic")  # type: ignore[arg-type]
    with pytest.raises(InvalidChartError, match="chart must be a bjcalc Chart .*, not None"):
        a.evaluate(None)  # type: ignore[arg-type]  # it played the CD round
    partial = Analysis(Rules(shoe=(0, 4, 4, 4, 4, 4, 4, 4, 4, 16))).chart()  # no aces: no A column
    with pytest.raises(InvalidChartError, match="up card A"):
        a.evaluate(partial)
