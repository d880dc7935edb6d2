"""The round's exact variance against brute force over every ordering of tiny shoes."""

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from oracles import naive_reference as naive
from oracles import naive_split

from bjcalc import Analysis, Rules
from bjcalc.numbers import to_fraction


def total(cards):
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard + 10 <= 21 else hard


def distinct_orderings(cards):
    """Every distinct ordering of ``cards`` (a multiset), each once: ``set(permutations(cards))``
    without building all n! permutations first (11 cards: 40 million tuples, 3.5 s)."""
    left = Counter(cards)
    order = []

    def extend():
        if len(order) == len(cards):
            yield tuple(order)
            return
        for card in sorted(left):
            if left[card]:
                left[card] -= 1
                order.append(card)
                yield from extend()
                order.pop()
                left[card] += 1

    return list(extend())


def test_distinct_orderings_are_the_set_of_permutations():
    for cards in ([2, 3, 5, 6, 10, 10, 10], [2, 2, 4, 8, 8, 8, 10], [10] * 4, [3]):
        orders = distinct_orderings(cards)
        assert len(orders) == len(set(orders)) and set(orders) == set(permutations(cards))


def over_orderings(shoe, play_round, record=None):
    """E[X], E[X^2], how many orderings split and the most hands one played, over every
    distinct ordering (equally likely) of a shoe without aces: ``play_round(hand, up, draws)``
    plays the player's hands from the deck and returns them as (cards, bet); then the dealer
    draws to 17 and every hand settles. ``record(order, result, hands)``, if given, sees every
    round."""
    cards = [r + 1 for r in range(10) for _ in range(shoe[r])]
    first_moment = second_moment = Fraction(0)
    splits = 0
    most = 1
    orders = distinct_orderings(cards)
    for order in orders:
        hand, up, deck = [order[0], order[2]], order[1], list(order[3:])
        hole, draws = deck[0], deck[1:]
        hands = play_round(hand, up, draws)
        splits += len(hands) > 1
        most = max(most, len(hands))
        dealer = [up, hole]
        if any(total(h) <= 21 for h, _ in hands):
            while total(dealer) < 17:
                dealer.append(draws.pop(0))
        result = sum(settle(h, bet, total(dealer)) for h, bet in hands)
        if record is not None:
            record(order, result, len(hands))
        first_moment += result
        second_moment += result * result
    return first_moment / len(orders), second_moment / len(orders), splits, most


def settle(hand, bet, dealer_total):
    """A finished hand's result against the dealer's final total (no blackjacks here)."""
    mine = total(hand)
    if mine > 21:
        return -bet
    if dealer_total > 21 or mine > dealer_total:
        return bet
    return 0 if mine == dealer_total else -bet


def brute_force(shoe, rules):
    """E[X] and E[X^2] of a round, playing each decision by the naive reference's best EV
    (ties: stand, then hit, then double), over every distinct ordering of the shoe's cards
    (equally likely). The shoes have no aces, so there is no blackjack and no peek."""
    cards = [r + 1 for r in range(10) for _ in range(shoe[r])]
    orders = distinct_orderings(cards)
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
    assert to_fraction(analysis.round().ev) == mean
    assert to_fraction(analysis.variance().variance) == square - mean * mean


def brute_force_with_splits(shoe, rules, max_hands=2, record=None):
    """E[X] and E[X^2] of a round that may split into up to ``max_hands`` hands, over every
    distinct ordering of a shoe without aces (no blackjack). First decision: the best naive EV
    (stand, hit, double, split; ties keep the earlier); split hands: naive_split's CDZ-
    decisions, each played out before the next gets its second card; a second card of the
    pair's rank starts a new hand (played last) while fewer than ``max_hands`` exist; then
    the dealer. Also returns how many orderings split and the most hands one played;
    ``record`` as in :func:`over_orderings`."""
    first_choice = {}

    def first(hand, up):
        key = (tuple(sorted(hand)), up)
        if key not in first_choice:
            evs = naive.naive_hand(shoe, up, tuple(hand), rules)
            options = [("stand", evs["stand"]), ("hit", evs["hit"]), ("double", evs["double"])]
            if hand[0] == hand[1]:
                options.append(("split", naive_split.naive_split(shoe, up, hand[0], rules)))
            choice, value = options[0]
            for option, v in options[1:]:
                if v is not None and v > value:
                    choice, value = option, v
            first_choice[key] = choice
        return first_choice[key]

    def play(hand, up, draws, action):
        """Play out one hand from its first decision; returns (final cards, bet)."""
        if action == "double":
            return hand + [draws.pop(0)], 2
        while action == "hit":
            hand = hand + [draws.pop(0)]
            if total(hand) > 21:
                break
            action = naive_split.cdz_decision(shoe, up, hand, rules, may_double=False)
        return hand, 1

    def play_round(hand, up, draws):
        action = first(hand, up)
        if action != "split":
            return [play(hand, up, draws, action)]
        hands, waiting = [], 2
        while waiting:
            waiting -= 1
            second = draws.pop(0)
            while second == hand[0] and len(hands) + waiting + 1 < max_hands:
                waiting += 1
                second = draws.pop(0)
            split_hand = [hand[0], second]
            choice = naive_split.cdz_decision(shoe, up, split_hand, rules, may_double=True)
            hands.append(play(split_hand, up, draws, choice))
        return hands

    return over_orderings(shoe, play_round, record)


@pytest.mark.parametrize("shoe", [(0, 2, 0, 1, 0, 1, 0, 1, 0, 6), (0, 0, 1, 0, 0, 0, 0, 2, 1, 7)],
                         ids=["2,2,4,6,8 and 6 tens", "3,8,8,9 and 7 tens"])
def test_exact_variance_with_one_split_matches_brute_force(shoe):
    rules = Rules(shoe=shoe, split_hands=2, surrender="none", double="any", double_after_split=True)
    analysis = Analysis(rules, exact=True)
    mean, square, splits, _ = brute_force_with_splits(shoe, naive.rules_with(split_hands=2))
    assert splits > 0  # the shoe does make splitting the best play somewhere
    assert to_fraction(analysis.round().ev) == mean
    assert to_fraction(analysis.variance().variance) == square - mean * mean


@pytest.mark.parametrize(("shoe", "max_hands"), [((0, 0, 0, 1, 0, 0, 0, 3, 1, 6), 3),
                                                ((0, 0, 0, 1, 0, 0, 0, 3, 1, 6), 4),
                                                ((0, 0, 1, 0, 0, 0, 0, 3, 1, 6), 3)],
                         ids=["4,8,8,8,9 and 6 tens, 3 hands", "4,8,8,8,9 and 6 tens, 4 hands",
                              "3,8,8,8,9 and 6 tens, 3 hands"])
def test_exact_variance_with_resplits_matches_brute_force(shoe, max_hands):
    rules = Rules(shoe=shoe, split_hands=max_hands, surrender="none", double="any", double_after_split=True)
    analysis = Analysis(rules, exact=True)
    mean, square, _, most = brute_force_with_splits(shoe, naive.rules_with(split_hands=max_hands), max_hands)
    assert most == max_hands  # some orderings do resplit to the limit
    assert to_fraction(analysis.round().ev) == mean
    assert to_fraction(analysis.variance().variance) == square - mean * mean


HALF_DECK = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)


# one test per rule set (the 1-deck split one takes 5 s), so that xdist can share them out
@pytest.mark.parametrize("rules", [
    Rules(decks=1, split_hands=1, surrender="late", hit_soft_17=True),
    Rules(decks=1, split_hands=2, hit_soft_17=True, double_after_split=True),
    Rules(shoe=HALF_DECK, split_hands=4, resplit_aces=True, double_after_split=True),
    Rules(shoe=HALF_DECK, split_hands=3, hole_card="none", hit_soft_17=True),
], ids=["1 deck, no split, LS, H17", "1 deck, split to 2, H17", "half deck, resplit to 4, RSA",
        "half deck, split to 3, no hole card, H17"])
def test_variance_float_agrees_with_exact(rules):
    exact = to_fraction(Analysis(rules, exact=True).variance().variance)
    assert abs(float(exact) - Analysis(rules).variance().variance) < 1e-12


def test_edge_reports_the_standard_deviation():
    import json

    from click.testing import CliRunner

    from bjcalc.cli import cli

    out = json.loads(CliRunner().invoke(cli, ["edge", "--decks", "1", "--split-hands", "1", "--format", "json",
                                              "--sd"]).stdout)
    assert out["sd"] is not None and abs(out["sd"] ** 2 - out["variance"]) < 1e-12
    out = json.loads(CliRunner().invoke(cli, ["edge", "--decks", "1", "--split-hands", "1", "--format", "json"]).output)
    assert out["sd"] is None and out["variance"] is None  # asked for with --sd only
    text = CliRunner().invoke(cli, ["edge", "--decks", "1"]).output
    assert "standard deviation: add --sd" in text
    text = CliRunner().invoke(cli, ["edge", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--sd"]).output
    assert "standard deviation per round: 1.1" in text  # resplitting to 4 hands


@pytest.mark.parametrize("options", [{}, {"hole_card": "none", "blackjack_takes": "original"},
                                     {"hole_card": "none"}, {"hit_split_aces": True, "hit_soft_17": True},
                                     {"hole_card": "none", "blackjack_takes": "live", "charlie": 5}],
                         ids=["peek", "no hole card, original bet", "no hole card, all", "hit split aces, H17",
                              "no hole card, live policy, 5-card charlie"])
def test_split_moments_first_moment_is_the_split_ev(options):
    """The enumeration of split hands (one and two at a time) gives the split EV of the
    recursion in bjcalc/engine/split.py exactly, with and without resplitting (so its weights,
    conditioned second cards and blackjack settlements are right)."""
    from bjcalc.engine.moments import split_moments

    for hands in (2, 4):
        analysis = Analysis(Rules(decks=1, split_hands=hands, double_after_split=True, **options), exact=True)
        for up, pair in ((0, 0), (0, 7), (9, 1), (5, 9), (6, 6)):
            splitter = analysis.engine.splits(up)
            mean, _ = split_moments(splitter, pair)
            assert mean == to_fraction(splitter.value(pair))


@pytest.mark.parametrize("post_split", ["cdp1", "cdp"])
def test_split_moments_first_moment_under_re_optimised_play(post_split):
    """CDP plays split hands differently by the number of pair cards removed: the pending hand
    of a product keeps its own play. Same-face tens resplit only their face."""
    from bjcalc.engine.moments import split_moments

    rules = Rules(decks=1, split_hands=4, resplit_aces=True, split_unlike_tens=False, double_after_split=True)
    analysis = Analysis(rules, exact=True, post_split=post_split)
    for up, pair in ((9, 9), (5, 7), (0, 0), (8, 1)):
        splitter = analysis.engine.splits(up)
        mean, _ = split_moments(splitter, pair)
        assert mean == to_fraction(splitter.value(pair))


def brute_force_chart(shoe, chart_table):
    """E[X] and E[X^2] of a round played by a printed chart (``Chart.to_dict()``: codes per
    total, soft total and pair; ``X/H`` is X with two cards, hit with three or more), over every
    distinct ordering of a shoe without aces; split hands (one split, double after split) play
    by the totals rows."""
    up_name = {10: "T"}

    def code(hand, up):
        # "H/S": the code for two-card hands, then the play of three or more cards
        base, _, more = chart_table["hard"][str(total(hand))][up_name.get(up, str(up))].partition("/")
        return base if len(hand) == 2 else more or base

    def play(hand, up, draws, first):
        c = code(hand, up)
        if first and c in ("Dh", "Ds"):
            return hand + [draws.pop(0)], 2
        while c in ("H", "Dh"):
            hand = hand + [draws.pop(0)]
            if total(hand) > 21:
                break
            c = code(hand, up)
        return hand, 1

    def play_round(hand, up, draws):
        pair_code = chart_table["pairs"][up_name.get(hand[0], str(hand[0]))][up_name.get(up, str(up))]
        if hand[0] == hand[1] and pair_code.startswith("P"):
            return [play([hand[0], draws.pop(0)], up, draws, True) for _ in range(2)]
        return [play(hand, up, draws, True)]

    return over_orderings(shoe, play_round)


def test_chart_variance_matches_brute_force():

    shoe = (0, 2, 0, 1, 0, 1, 0, 1, 0, 6)
    rules = Rules(shoe=shoe, split_hands=2, surrender="none", double="any", double_after_split=True)
    chart = Analysis(rules).chart()
    mean, square, splits, _ = brute_force_chart(shoe, chart.to_dict())
    assert splits > 0
    analysis = Analysis(rules, exact=True)
    assert to_fraction(analysis.evaluate(chart).round.ev) == mean
    assert to_fraction(analysis.variance(chart).variance) == square - mean * mean


def test_chart_variance_near_the_published_simulation():
    """Wizard of Odds, Blackjack Appendix 4 ("Variance in blackjack", updated 2019): basic
    strategy, 6 decks, S17, DAS, late surrender, resplitting aces (to four hands), variance
    1.303 from about ten billion simulated hands of a cut-card game. bjcalc's figure is for a
    reshuffle every round and its own basic chart; the cut card and strategy differences move
    the variance by under 0.01 in his other rows (our reading of them: 0.001 to 0.010)."""
    rules = Rules(decks=6, double_after_split=True, surrender="late", resplit_aces=True, split_hands=4)
    analysis = Analysis(rules)
    assert abs(analysis.variance(analysis.chart()).variance - 1.303) < 0.01


@pytest.mark.parametrize("rules", [
    Rules(shoe=(0, 0, 0, 1, 0, 0, 0, 3, 1, 6), split_hands=4, surrender="none", double_after_split=True),
    Rules(shoe=HALF_DECK, split_hands=3, hole_card="none", hit_soft_17=True),
], ids=["4,8,8,8,9 and 6 tens, 4 hands", "half deck, split to 3, no hole card, H17"])
def test_exact_split_sums_by_residues_equal_the_python_integers(monkeypatch, rules):
    """Exact mode sums a split's weights modulo primes (the dealer's 128-bit numerators, the
    Chinese remainder theorem); with the compiled dealer switched off it sums Python integers.
    The same Fraction both ways, and the one the brute force above checks."""
    found = []
    for switch in ("1", "0"):
        monkeypatch.setenv("BJCALC_NUMPY_DEALER", switch)
        found.append(to_fraction(Analysis(rules, exact=True).variance().variance))
    assert found[0] == found[1]


def test_split_moments_are_shared_between_a_chart_and_cd_play():
    """A report's two spreads: split hands that the chart and CD play alike are solved once,
    and the CD spread is the one computed afresh."""
    rules = Rules(shoe=HALF_DECK, split_hands=3)
    shared = Analysis(rules, exact=True)
    chart = shared.chart()
    both = (shared.variance(chart).variance, shared.variance().variance)
    fresh = (Analysis(rules, exact=True).variance(chart).variance, Analysis(rules, exact=True).variance().variance)
    assert both == fresh
    assert len(shared.engine._moments) < 2 * len({key[:2] for key in shared.engine._moments})  # some were shared


@pytest.mark.parametrize("budget", [0, None], ids=["one at a time", "side by side"])
def test_many_split_moments_are_each_splits_own(monkeypatch, budget):
    """Float mode works several splits' moments out side by side on the moment threads, as
    many at once as the memory budget lets (0: one at a time, however many threads): each is
    what :func:`bjcalc.engine.moments.split_moments` gives for that split alone, float for
    float, and no more run at once than the budget and the threads allow."""
    import threading

    from bjcalc.engine import analyser, moments, pools

    rules = Rules(shoe=HALF_DECK, split_hands=4, double_after_split=True)
    alone = Analysis(rules).engine
    expected = {(up, pair): moments.split_moments(alone.splits(up), pair)
                for up in range(10) for pair in alone.splits(up).pairs()}
    lock, running, most = threading.Lock(), [0], [0]
    one = moments.split_moments

    def counted(splitter, pair):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            return one(splitter, pair)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(moments, "split_moments", counted)
    if budget is not None:
        monkeypatch.setattr(analyser, "MOMENTS_BUDGET", budget)
    engine = Analysis(rules).engine
    wanted = [(engine.splits(up), pair) for up, pair in expected]
    assert engine.many_split_moments(wanted) == list(expected.values())
    assert 1 <= most[0] <= (1 if budget == 0 else pools.DEALER_WORKERS)
    # kept: asked again, none is worked out afresh
    most[0] = 0
    assert engine.many_split_moments(wanted[::-1]) == list(expected.values())[::-1]
    assert most[0] == 0
