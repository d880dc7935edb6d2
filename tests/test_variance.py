"""The round's exact variance against brute force over every ordering of tiny shoes."""

from fractions import Fraction
from itertools import permutations

import pytest

import naive_reference as naive
from bjcalc import Analysis, Rules
from bjcalc.game import round_ev, round_variance
from bjcalc.numbers import to_fraction


def total(cards):
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard + 10 <= 21 else hard


def brute_force(shoe, rules):
    """E[X] and E[X^2] of a round, playing each decision by the naive reference's best EV
    (ties: stand, then hit, then double), over every distinct ordering of the shoe's cards
    (equally likely). The shoes have no aces, so there is no blackjack and no peek."""
    cards = [r + 1 for r in range(10) for _ in range(shoe[r])]
    orders = set(permutations(cards))
    decisions = {}

    def best(hand, up, first):
        key = (tuple(sorted(hand)), up, first)
        if key not in decisions:
            evs = naive.naive_hand(shoe, up, tuple(hand), rules)
            options = ["stand", "hit"] + (["double"] if first else [])
            choice = "stand"
            for option in options:
                if evs[option] is not None and evs[option] > evs[choice]:
                    choice = option
            decisions[key] = choice
        return decisions[key]

    first_moment = second_moment = Fraction(0)
    for order in orders:
        hand, up, deck = [order[0], order[2]], order[1], list(order[3:])  # hole card = deck[0]
        hole, draws = deck[0], deck[1:]
        bet, action = 1, best(hand, up, True)
        if action == "double":
            bet = 2
            hand.append(draws.pop(0))
        while action == "hit" and total(hand) <= 21:
            hand.append(draws.pop(0))
            if total(hand) <= 21:
                action = best(hand, up, False)
        if total(hand) > 21:
            result = -bet
        else:
            dealer = [up, hole]
            while total(dealer) < 17:
                dealer.append(draws.pop(0))
            mine, theirs = total(hand), total(dealer)
            result = bet if theirs > 21 or mine > theirs else (0 if mine == theirs else -bet)
        first_moment += result
        second_moment += result * result
    return first_moment / len(orders), second_moment / len(orders)


@pytest.mark.parametrize("shoe", [(0, 1, 1, 0, 1, 1, 0, 0, 0, 7), (0, 1, 0, 1, 0, 1, 0, 1, 0, 7)],
                         ids=["2,3,5,6 and 7 tens", "2,4,6,8 and 7 tens"])
def test_exact_variance_matches_brute_force(shoe):
    rules = Rules(shoe=shoe, split_hands=1, surrender="none", double="any")
    analysis = Analysis(rules, exact=True)
    mean, square = brute_force(shoe, naive.rules_with())
    assert to_fraction(round_ev(analysis).ev) == mean
    assert to_fraction(round_variance(analysis)) == square - mean * mean


def test_variance_float_agrees_and_splitting_is_declined():
    rules = Rules(decks=1, split_hands=1, surrender="late", hit_soft_17=True)
    exact = to_fraction(round_variance(Analysis(rules, exact=True)))
    assert abs(float(exact) - round_variance(Analysis(rules))) < 1e-12
    assert round_variance(Analysis(Rules(decks=1))) is None


def test_edge_reports_the_standard_deviation():
    import json

    from click.testing import CliRunner

    from bjcalc.cli import cli

    out = json.loads(CliRunner().invoke(cli, ["edge", "--decks", "1", "--split-hands", "1", "--format", "json"]).output)
    assert out["sd"] is not None and abs(out["sd"] ** 2 - out["variance"]) < 1e-12
    text = CliRunner().invoke(cli, ["edge", "--decks", "1"]).output
    assert "not computed exactly when splitting is allowed" in text
