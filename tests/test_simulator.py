"""Self-checks of the Monte Carlo oracle tests/oracles/simulator.py (independent of the bjcalc engine).

Three kinds of checks:
* rigged rounds (`play_sequence` deals the cards in a fixed order: player, up, player, hole, the
  player's draws left to right, the dealer's draws) whose result is forced and worked out by hand
  in the comment next to each;
* shoes whose outcome is forced whatever the shuffle (only tens, ...), run through `simulate`;
* random shoes against an exact expected value computed here by a small independent enumeration
  (`exact_ev`, for strategies that never split and do not depend on the up card), and the
  "mimic the dealer" game whose EV is exactly -P(both bust) by a symmetry argument.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest
from oracles.simulator import play_sequence, simulate

UPS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]


def chart_from(hard, soft=None, pairs=None):
    """A chart dict from functions (total or pair rank, up card string) -> code.

    `soft` defaults to `hard` applied to the soft total, `pairs` to "H" (never split, so the
    hard/soft row is read)."""
    soft = soft or hard
    pairs = pairs or (lambda rank, up: "H")
    return {
        "strategy": "test",
        "hard": {str(t): {u: hard(t, u) for u in UPS} for t in range(4, 22)},
        "soft": {str(t): {u: soft(t, u) for u in UPS} for t in range(12, 22)},
        "pairs": {r: {u: pairs(r, u) for u in UPS} for r in RANKS},
    }


def rules(**over):
    r = dict(
        hit_soft_17=False,
        blackjack_pays=Fraction(3, 2),
        double="any",
        double_soft=True,
        double_after_split=True,
        split_hands=4,
        resplit_aces=False,
        hit_split_aces=False,
        surrender="none",
        hole_card="peek",
        nhc_double_loss={1: "all", 10: "all"},
        nhc_split_loss={1: "all", 10: "all"},
        charlie=None,
        player_max_cards=None,
        dealer_max_cards=None,
    )
    r.update(over)
    return r


def decks(d):
    return (4 * d,) * 9 + (16 * d,)


# Half a deck (two of each rank, eight tens): small enough for the exact enumerations below to
# be quick, and with strong card-removal effects, so the simulator's drawing without
# replacement is really tested.
HALF = (2,) * 9 + (8,)


def split_only(rank, code="P"):
    """A pairs function: `code` for the pair `rank`, "H" (do not split) for every other pair."""
    return lambda r, u: code if r == rank else "H"


# Charts used below.
STAND_ALL = chart_from(lambda t, u: "S", pairs=lambda r, u: "S")
HIT_TO_17 = chart_from(lambda t, u: "H" if t < 17 else "S")  # the S17 dealer's rule
STAND_12 = chart_from(lambda t, u: "H" if t < 12 else "S")


def basic_chart():
    """Multi-deck S17 DAS late-surrender basic strategy (the standard published chart)."""

    def row(s):
        return dict(zip(UPS, s.split()))

    hard = {str(t): row("H H H H H H H H H H") for t in range(4, 9)}
    hard["9"] = row("H Dh Dh Dh Dh H H H H H")
    hard["10"] = row("Dh Dh Dh Dh Dh Dh Dh Dh H H")
    hard["11"] = row("Dh Dh Dh Dh Dh Dh Dh Dh Dh H")
    hard["12"] = row("H H S S S H H H H H")
    hard["13"] = row("S S S S S H H H H H")
    hard["14"] = row("S S S S S H H H H H")
    hard["15"] = row("S S S S S H H H Rh H")
    hard["16"] = row("S S S S S H H Rh Rh Rh")
    for t in range(17, 22):
        hard[str(t)] = row("S S S S S S S S S S")
    soft = {"12": row("H H H H H H H H H H")}
    soft["13"] = soft["14"] = row("H H H Dh Dh H H H H H")
    soft["15"] = soft["16"] = row("H H Dh Dh Dh H H H H H")
    soft["17"] = row("H Dh Dh Dh Dh H H H H H")
    soft["18"] = row("S Ds Ds Ds Ds S S H H H")
    for t in range(19, 22):
        soft[str(t)] = row("S S S S S S S S S S")
    pairs = {
        "A": row("P P P P P P P P P P"),
        "2": row("Ph Ph P P P P H H H H"),
        "3": row("Ph Ph P P P P H H H H"),
        "4": row("H H H Ph Ph H H H H H"),
        "5": row("Dh Dh Dh Dh Dh Dh Dh Dh H H"),
        "6": row("Ph P P P P H H H H H"),
        "7": row("P P P P P P H H H H"),
        "8": row("P P P P P P P P P P"),
        "9": row("P P P P P S P P S S"),
        "T": row("S S S S S S S S S S"),
    }
    return {"strategy": "basic", "hard": hard, "soft": soft, "pairs": pairs}


# ---------------------------------------------------------------------------------------------
# An exact evaluator for strategies without splits whose decisions depend only on the player's
# own hand (total, softness, number of cards) -- not on the up card.  Then the player's cards and
# the dealer's cards can be taken as: the player draws his whole hand from the top of the shoe,
# the dealer then draws up card, hole card and hits from the rest.  (The map from the real deal
# order p1,up,p2,hole,player hits,dealer hits to this order is a bijection of shoe arrangements,
# because where each hand stops depends only on its own cards, so the joint law is the same.)
# ---------------------------------------------------------------------------------------------


def draws(rem):
    """Each card that can be drawn from the remaining shoe ``rem`` (counts of ranks 1..10):
    (rank, the shoe after it, its probability)."""
    tot = sum(rem)
    assert tot > 0, "shoe ran out"
    for r in range(1, 11):
        k = rem[r - 1]
        if k:
            yield r, rem[: r - 1] + (k - 1,) + rem[r:], k / tot


def exact_ev(shoe, policy, R):
    """Exact round EV.  policy(total, soft, ncards) -> "S" | "H" | "D" (only on 2 cards) |
    "R" (only on 2 cards, surrender allowed).  R: a rules dict (splitting is never used)."""
    h17 = R["hit_soft_17"]
    bj_pays = float(R["blackjack_pays"])
    peek = R["hole_card"] == "peek"
    charlie = R["charlie"] or 0
    pmax = R["player_max_cards"] or 0
    dmax = R["dealer_max_cards"] or 0
    dl_all = {u: R["nhc_double_loss"][u] == "all" for u in (1, 10)}

    @cache
    def dealer(rem, hard, ace, n, up):
        """Dealer outcome distribution {result: p}; result = total, 0 = bust, ("BJ", up)."""
        if n >= 2:
            soft = ace and hard <= 11
            t = hard + 10 if soft else hard
            if n == 2 and soft and t == 21:
                return {("BJ", up): 1.0}
            if t > 21:
                return {0: 1.0}
            if t >= 17 and not (t == 17 and soft and h17):
                return {t: 1.0}
            if dmax and n >= dmax:
                return {t: 1.0}
        out = defaultdict(float)
        for r, nrem, q in draws(rem):
            sub = dealer(nrem, hard + r, ace or r == 1, n + 1, up if n else r)
            for res, p in sub.items():
                out[res] += p * q
        return dict(out)

    # Forward over the player's hand compositions.
    finals = []  # (prob, remaining shoe, kind, total, bet)
    frontier = {(tuple(shoe), 0, False, 0, False): 1.0}
    while frontier:
        new = defaultdict(float)
        for (rem, hard, ace, n, dbl), p in frontier.items():
            if n >= 2:
                soft = ace and hard <= 11
                t = hard + 10 if soft else hard
                bet = 2 if dbl else 1
                if n == 2 and soft and t == 21:
                    finals.append((p, rem, "bj", 21, 1))
                    continue
                if t > 21:
                    finals.append((p, rem, "bust", t, bet))
                    continue
                if charlie and n >= charlie:
                    finals.append((p, rem, "charlie", t, bet))
                    continue
                if dbl or (pmax and n >= pmax):
                    finals.append((p, rem, "stand", t, bet))
                    continue
                a = policy(t, soft, n)
                if a == "S":
                    finals.append((p, rem, "stand", t, bet))
                    continue
                if a == "R":
                    finals.append((p, rem, "surrender", t, 1))
                    continue
                if a == "D":
                    assert n == 2
                    dbl = True
            for r, nrem, q in draws(rem):
                new[(nrem, hard + r, ace or r == 1, n + 1, dbl)] += p * q
        frontier = new

    ev = 0.0
    for p, rem, kind, t, bet in finals:
        for res, q in dealer(rem, 0, False, 0, 0).items():
            dbj = isinstance(res, tuple)
            if kind == "bj":
                v = 0.0 if dbj else bj_pays
            elif kind == "surrender":
                if R["surrender"] == "early":
                    v = -0.5
                else:
                    v = -1.0 if dbj else -0.5
            elif dbj:
                v = -1.0 if (peek or bet == 1 or not dl_all[res[1]]) else -2.0
            elif kind == "bust":
                v = -bet
            elif kind == "charlie":
                v = bet
            else:
                v = bet if t > res else (-bet if t < res else 0)
            ev += p * q * v
    return ev


def p_both_bust_s17(shoe):
    """P(player and dealer both bust) when both hit to 17 (standing on soft 17), drawn from one
    shoe, player first (the same bijection argument as in exact_ev)."""

    def finals(start):
        fr = {(start, 0, False): 1.0}
        out = defaultdict(float)  # remaining shoe -> P(busted with it)
        while fr:
            new = defaultdict(float)
            for (rem, hard, ace), p in fr.items():
                t = hard + 10 if ace and hard <= 11 else hard
                if t > 21:
                    out[rem] += p
                    continue
                if t >= 17:
                    continue
                for r, nrem, q in draws(rem):
                    new[(nrem, hard + r, ace or r == 1)] += p * q
            fr = new
        return out

    @cache
    def p_bust(rem):
        return sum(finals(rem).values())

    return sum(p * p_bust(rem) for rem, p in finals(tuple(shoe)).items())


def assert_close(sim, exact, k=4.0):
    mean, se = sim
    assert se > 0
    assert abs(mean - exact) <= k * se, (mean, se, exact, (mean - exact) / se)


# ---------------------------------------------------------------------------------------------
# Random shoes against exact values
# ---------------------------------------------------------------------------------------------


def test_mimic_the_dealer_loses_exactly_p_both_bust():
    # Player hits hard and soft totals < 17 and stands on 17+ (S17 dealer's rule), no doubles,
    # splits or surrender; blackjack pays 1:1; no hole card (a dealer blackjack takes the bet,
    # player blackjack pushes -- with no doubles/splits, identical to a peek game).
    # Swapping the two hands (the bijection p1,up,p2,hole,X..,Y.. -> up,p1,hole,p2,Y..,X.. of shoe
    # arrangements, valid because both hands stop by the same rule on their own cards) shows
    # (player hand, dealer hand) is exchangeable, even in a finite shoe.  The payoff with ranks
    # bust < 17 < ... < 21 < blackjack is antisymmetric except when both bust (player loses
    # instead of pushing), so EV = -P(both bust), exactly.
    R = rules(blackjack_pays=1, hole_card="none", split_hands=1, double="none")
    # Cross-check the symmetry argument against the direct exact enumeration, on a 13-card shoe
    # (one of each rank, four tens) where the direct enumeration is quick.
    tiny = (1,) * 9 + (4,)
    target = -p_both_bust_s17(tiny)
    direct = exact_ev(tiny, lambda t, s, n: "H" if t < 17 else "S", R)
    assert abs(direct - target) < 1e-12
    assert_close(simulate(HIT_TO_17, R, tiny, 150_000, 10), target)
    # Half a deck: only the (cheaper) both-bust probability.
    target = -p_both_bust_s17(HALF)
    assert -0.10 < target < -0.06
    assert_close(simulate(HIT_TO_17, R, HALF, 150_000, 11), target)


def test_stand_on_everything_h17():
    # Never acts (pairs "S" = do not split, rows all "S"); exact EV by enumeration: player
    # blackjack 3:2 unless dealer blackjack, dealer blackjack (peeked) takes 1, else compare.
    R = rules(hit_soft_17=True)
    shoe = HALF
    target = exact_ev(shoe, lambda t, s, n: "S", R)
    assert_close(simulate(STAND_ALL, R, shoe, 200_000, 5), target)


def test_double_everything_nhc_all():
    # Every two-card hand doubles (double "any", soft doubles allowed, chart "Ds" everywhere and
    # pairs "Ds" = do not split).  No hole card, dealer blackjack takes both bets ("all"), a
    # doubled hand wins/loses 2, player blackjack 6:5.  Exact EV by enumeration.
    R = rules(hole_card="none", blackjack_pays=Fraction(6, 5))
    chart = chart_from(lambda t, u: "Ds", pairs=lambda r, u: "Ds")
    shoe = HALF
    target = exact_ev(shoe, lambda t, s, n: "D", R)
    assert_close(simulate(chart, R, shoe, 200_000, 6), target)


def test_charlie_and_dealer_limit_exact():
    # Hit below 17 with a 4-card charlie, and a dealer limit of 4 cards: exact by enumeration.
    R = rules(charlie=4, dealer_max_cards=4)
    target = exact_ev(HALF, lambda t, s, n: "H" if t < 17 else "S", R)
    assert_close(simulate(HIT_TO_17, R, HALF, 200_000, 7), target)


def test_player_limit_exact():
    # Player limit of 3 cards (stands automatically), H17 dealer, no hole card.
    R = rules(player_max_cards=3, hit_soft_17=True, hole_card="none")
    target = exact_ev(HALF, lambda t, s, n: "H" if t < 17 else "S", R)
    assert_close(simulate(HIT_TO_17, R, HALF, 200_000, 8), target)


@pytest.mark.parametrize("surrender,hole", [("late", "none"), ("late", "peek"), ("early", "none")])
def test_surrender_everything(surrender, hole):
    # Chart "Rs" everywhere, pairs "Rs" (= do not split, read the row).  Every non-blackjack hand
    # surrenders: early -> -1/2 always; late with peek -> dealer blackjack -1 (the round ends
    # first) else -1/2; late with no hole card -> a dealer blackjack still takes the whole bet.
    R = rules(surrender=surrender, hole_card=hole)
    chart = chart_from(lambda t, u: "Rs", pairs=lambda r, u: "Rs")
    shoe = HALF
    target = exact_ev(shoe, lambda t, s, n: "R", R)
    assert_close(simulate(chart, R, shoe, 200_000, 9), target)


def test_basic_strategy_8_decks_plausible():
    # Published house edge for 8 decks S17 DAS late surrender, resplit to 4, no RSA is about
    # 0.4%; 100k rounds have SE ~ 0.0036, so only a loose plausibility check.
    R = rules(surrender="late")
    mean, se = simulate(basic_chart(), R, decks(8), 100_000, 3)
    assert abs(mean - (-0.004)) < 5 * se


# ---------------------------------------------------------------------------------------------
# Reproducibility and bookkeeping
# ---------------------------------------------------------------------------------------------


def test_reproducible_with_same_seed():
    R = rules(surrender="late")
    a = simulate(basic_chart(), R, decks(6), 20_000, 42)
    b = simulate(basic_chart(), R, decks(6), 20_000, 42)
    c = simulate(basic_chart(), R, decks(6), 20_000, 43)
    assert a == b
    assert a != c


def test_standard_error_is_sample_sd_over_sqrt_n():
    # Shoe of tens and nines only (no aces: no blackjacks), stand on all: the player holds
    # 18/19/20 and so does the dealer, results in {-1, 0, 1}.  Check se against an independent
    # computation from the mean: with results x in {-1,0,1}, we can't recover P(0) from the mean
    # alone, so instead check se is in the right range: sd <= 1 and se = sd / sqrt(n) > 0.
    n = 10_000
    mean, se = simulate(STAND_ALL, rules(), (0, 0, 0, 0, 0, 0, 0, 0, 20, 20), n, 1)
    assert 0 < se * math.sqrt(n) <= 1.0
    # A shoe that forces every round to the same result has se exactly 0.
    assert simulate(STAND_ALL, rules(), (0,) * 9 + (12,), 1000, 1) == (0.0, 0.0)


def test_runs_out_of_cards_raises():
    # Hitting hard 20 with a shoe of 4 tens needs a fifth card.
    hit20 = chart_from(lambda t, u: "H" if t <= 20 else "S")
    with pytest.raises(RuntimeError):
        simulate(hit20, rules(), (0,) * 9 + (4,), 10, 1)


# ---------------------------------------------------------------------------------------------
# Forced outcomes with a single-rank shoe
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("split_hands,das,expected", [
    (2, True, -4.0), (3, True, -6.0), (4, True, -8.0), (4, False, -4.0), (1, True, -2.0),
])
def test_resplit_count_with_only_tens(split_hands, das, expected):
    # Shoe of tens only; pairs T = "P", hard 20 = "Dh".  Splitting T,T: every split hand's second
    # card is a ten, so the player resplits until split_hands hands; each T,T hand then doubles
    # (DAS) onto a third ten and busts: -2 per hand.  Without DAS the "Dh" hits: -1 per hand.
    # split_hands = 1: no split, the unsplit 20 doubles and busts: -2.
    chart = chart_from(lambda t, u: "Dh" if t == 20 else "S", pairs=split_only("T"))
    R = rules(split_hands=split_hands, double_after_split=das)
    assert simulate(chart, R, (0,) * 9 + (40,), 200, 1) == (expected, 0.0)


def test_split_aces_only_aces_and_resplit():
    # Shoe of aces only (24 aces).  A,A vs A: dealer A,A = soft 12, draws aces: 13, 14, ... soft
    # 17 (6 aces) stands (S17).  Player splits A,A; without resplit_aces each hand takes one ace:
    # soft 12 and stands; 12 < 17: -1 per hand = -2.  With resplit_aces and 4 hands: -4.
    # (Pairs "A" = "P".)
    chart = chart_from(lambda t, u: "H" if t < 17 else "S", pairs=lambda r, u: "P")
    shoe = (24,) + (0,) * 9
    assert simulate(chart, rules(), shoe, 100, 1) == (-2.0, 0.0)
    assert simulate(chart, rules(resplit_aces=True), shoe, 100, 1) == (-4.0, 0.0)
    # With hit_split_aces (no resplit), each A,A hand is soft 12 -> chart hits up to soft 17
    # exactly like the dealer: 17 vs 17 push on both hands -> 0.
    assert simulate(chart, rules(hit_split_aces=True), shoe, 100, 1) == (0.0, 0.0)


# ---------------------------------------------------------------------------------------------
# Rigged rounds.  Order: p1, up, p2, hole, player's draws (left to right), dealer's draws.
# ---------------------------------------------------------------------------------------------


def test_blackjack_payouts():
    # A,T vs 9,8: blackjack pays 3:2 or 6:5.
    assert play_sequence(STAND_ALL, rules(), "A9T8") == 1.5
    assert play_sequence(STAND_ALL, rules(blackjack_pays=Fraction(6, 5)), "A9T8") == 1.2
    # Both blackjack: push, peek or not.
    assert play_sequence(STAND_ALL, rules(), "AATT") == 0.0
    assert play_sequence(STAND_ALL, rules(hole_card="none"), "ATTA") == 0.0
    # Player blackjack vs a dealer that would make a multi-card 21 (5,6 + T): still 3:2.
    assert play_sequence(STAND_ALL, rules(), "A5T6T") == 1.5
    # Ten-valued face cards count as T.
    assert play_sequence(STAND_ALL, rules(), ["K", "9", "A", "8"]) == 1.5


def test_peek_dealer_blackjack_ends_round():
    # 8,8 vs A with hole T: peeked blackjack, the split never happens: -1.
    split8 = chart_from(lambda t, u: "Dh" if t == 11 else ("H" if t < 12 else "S"),
                        pairs=split_only("8"))
    assert play_sequence(split8, rules(), "8A8T") == -1.0
    # Same with up T, hole A.
    assert play_sequence(split8, rules(), "8T8A") == -1.0
    # A dealer's A,6 is not blackjack: 8,8 split, 8+3=11 doubles onto T (21: +2), 8+9=17 vs
    # dealer A,6 = soft 17 (S17 stands): push.  Total +2.  This also checks that hand 2's second
    # card comes after hand 1 is finished (3, T for hand 1, then 9 for hand 2).
    assert play_sequence(split8, rules(), "8A863T9") == 2.0


@pytest.mark.parametrize("split_pol,double_pol,expected", [
    ("all", "all", -4.0),            # original -1, split bet -1, two doubles -1 each
    ("all", "original", -2.0),       # original -1, split bet -1
    ("original", "all", -3.0),       # original -1, two doubles
    ("original", "original", -1.0),  # only the original bet (= peeking dealer)
])
def test_nhc_dealer_blackjack_policies(split_pol, double_pol, expected):
    # No hole card, 8,8 vs A split; each hand 8+3 = 11 doubles onto a ten (21); the dealer's
    # second card T makes blackjack, which settles everything by the policies for up card A.
    split8 = chart_from(lambda t, u: "Dh" if t == 11 else ("H" if t < 12 else "S"),
                        pairs=split_only("8"))
    R = rules(hole_card="none", nhc_split_loss={1: split_pol, 10: "all"},
              nhc_double_loss={1: double_pol, 10: "all"})
    assert play_sequence(split8, R, "8A8T3T3T") == expected
    # Same cards with up T and hole A: the ten-up policies apply (here the A-up ones are "all").
    R10 = rules(hole_card="none", nhc_split_loss={1: "all", 10: split_pol},
                nhc_double_loss={1: "all", 10: double_pol})
    assert play_sequence(split8, R10, "8T8A3T3T") == expected
    assert play_sequence(split8, R10, "8A8T3T3T") == -4.0


def test_nhc_policies_include_busted_hands():
    # No hole card, 8,8 vs A split, chart hits up to 20: each hand 8,T = 18 hits a T and busts.
    # Dealer blackjack: "original" returns the busted split hand's bet: -1; "all": -2.
    hit20 = chart_from(lambda t, u: "H" if t <= 20 else "S", pairs=split_only("8"))
    orig = rules(hole_card="none", nhc_split_loss={1: "original", 10: "original"})
    allr = rules(hole_card="none", nhc_split_loss={1: "all", 10: "all"})
    assert play_sequence(hit20, orig, "8A8TTTTT") == -1.0
    assert play_sequence(hit20, allr, "8A8TTTTT") == -2.0
    # An unsplit double that busts, vs dealer blackjack: "original" -> -1, "all" -> -2.
    dbl = chart_from(lambda t, u: "Dh")
    assert play_sequence(dbl, rules(hole_card="none", nhc_double_loss={1: "original", 10: "all"}),
                         "TAQTT") == -1.0
    assert play_sequence(dbl, rules(hole_card="none", nhc_double_loss={1: "original", 10: "all"}),
                         "TTQAT") == -2.0
    # Without dealer blackjack the bust just loses 2 (dealer T,9 = 19).
    assert play_sequence(dbl, rules(hole_card="none"), "TTQ9T") == -2.0


def test_surrender_timing():
    surr16 = chart_from(lambda t, u: "Rh" if t == 16 else ("H" if t < 17 else "S"))
    # T,6 vs T,7 (dealer 17): late surrender, peek: -1/2.
    assert play_sequence(surr16, rules(surrender="late"), "TT67") == -0.5
    # T,6 vs T,A: peeked blackjack ends the round before late surrender: -1.
    assert play_sequence(surr16, rules(surrender="late"), "TT6A") == -1.0
    # No hole card, late surrender: a dealer blackjack still takes the whole bet: -1.
    assert play_sequence(surr16, rules(surrender="late", hole_card="none"), "TT6A") == -1.0
    # ... and without dealer blackjack: -1/2.
    assert play_sequence(surr16, rules(surrender="late", hole_card="none"), "TT67") == -0.5
    # Early surrender is decided before the blackjack check: -1/2 either way.
    assert play_sequence(surr16, rules(surrender="early"), "TT6A") == -0.5
    assert play_sequence(surr16, rules(surrender="early", hole_card="none"), "TT6A") == -0.5
    # No surrender: "Rh" hits: T,6 + 4 = 20 vs 17: +1.
    assert play_sequence(surr16, rules(), "TT674") == 1.0
    # A three-card 16 may not surrender: T,2 hits 4 -> 16 (3 cards) -> hit 3 -> 19 vs 17: +1.
    assert play_sequence(surr16, rules(surrender="late"), "TT2743") == 1.0


def test_pair_cells():
    # Rp: surrender if allowed, otherwise split.  8,8 vs T (dealer T,7).
    rp = chart_from(lambda t, u: "H" if t < 12 else "S", pairs=split_only("8", "Rp"))
    # Late surrender allowed: -1/2.
    assert play_sequence(rp, rules(surrender="late"), "8T87") == -0.5
    # No surrender: split; hands 8,T = 18 and 8,9 = 17 vs 17: +1 + 0 = +1.
    assert play_sequence(rp, rules(), "8T87T9") == 1.0
    # Ph: split only with DAS; without DAS read the hard row (hard 16 -> "S" here): 16 vs 17: -1.
    ph = chart_from(lambda t, u: "H" if t < 12 else "S", pairs=split_only("8", "Ph"))
    assert play_sequence(ph, rules(double_after_split=True), "8T87T9") == 1.0
    assert play_sequence(ph, rules(double_after_split=False), "8T87") == -1.0
    # "P" with splitting not allowed (split_hands = 1): hard 16 row ("S"): -1.
    p = chart_from(lambda t, u: "H" if t < 12 else "S", pairs=split_only("8"))
    assert play_sequence(p, rules(split_hands=1), "8T87") == -1.0
    # A non-split pair cell defers to the row: 5,5 with pairs "H" and hard 10 "Dh": doubles onto
    # a T (20) vs dealer T,7: +2.
    d10 = chart_from(lambda t, u: "Dh" if t == 10 else ("H" if t < 12 else "S"))
    assert play_sequence(d10, rules(), "5T57T") == 2.0
    # Two different ten-valued cards are a pair: K,Q split vs 7,T, each hand gets a 9: 19, 19
    # vs 17: +2.
    pt = chart_from(lambda t, u: "S", pairs=lambda r, u: "P" if r == "T" else "S")
    assert play_sequence(pt, rules(), ["K", "7", "Q", "T", "9", "9"]) == 2.0


def test_resplit_rigged():
    # Stand on 12+; pairs 8 = P.  Dealer 7,T = 17.
    ch = chart_from(lambda t, u: "H" if t < 12 else "S", pairs=split_only("8"))
    # split_hands 3: hand 1 gets 8 -> resplit (3 hands), gets 8 again -> no more resplits, so 8,8
    # is a hard 16 and stands (-1); hands 2 and 3 get T -> 18 (+1 each).  Total +1.
    assert play_sequence(ch, rules(split_hands=3), "87" "8T" "88TT") == 1.0
    # split_hands 4: 8 -> resplit, 8 -> resplit, then T; 4 hands of 18 vs 17: +4.
    assert play_sequence(ch, rules(split_hands=4), "878T88TTTT") == 4.0
    # split_hands 2: 8,8 hand stands on 16 (-1), second hand 8,T (+1): 0.
    assert play_sequence(ch, rules(split_hands=2), "878T8T") == 0.0


def test_split_aces_rigged():
    ch = chart_from(lambda t, u: "H" if t < 17 else "S", pairs=split_only("A"))
    # A,A vs 7,T (17).  No hit on split aces: A+5 = soft 16 stands (-1), A+9 = 20 (+1): 0.
    assert play_sequence(ch, rules(), "A7AT59") == 0.0
    # Hitting split aces allowed: A,5 hits a 4 -> soft 20 (+1), A,9 = 20 (+1): +2.
    assert play_sequence(ch, rules(hit_split_aces=True), "A7AT549") == 2.0
    # Split ace + T is 21, not blackjack: +1 each (not 3:2) -> +2.
    assert play_sequence(ch, rules(), "A7ATTT") == 2.0
    # ... and pushes a dealer's multi-card 21 (7,4 + T).
    assert play_sequence(ch, rules(), "A7A4TTT") == 0.0
    # Without resplit_aces a third ace is just a card: A,A = soft 12 stands (-1), A,9 (+1): 0.
    assert play_sequence(ch, rules(), "A7ATA9") == 0.0
    # With resplit_aces: three hands A,9 = 20: +3.
    assert play_sequence(ch, rules(resplit_aces=True), "A7ATA999") == 3.0


def test_doubling_rules():
    # Chart: "Dh" on hard <= 11, "Ds" on soft 18, else stand.
    ch = chart_from(lambda t, u: "Dh" if t <= 11 else "S",
                    soft=lambda t, u: "Ds" if t == 18 else "S")
    # 5,3 = 8 vs 6,T (16): doubles onto 9 (17), dealer draws T and busts: +2 ...
    assert play_sequence(ch, rules(double="any"), "563T9T") == 2.0
    # ... but with 9-11 / 10-11 / none only a hit: 17 (3 cards, stands) and dealer busts: +1.
    for d in ("9-11", "10-11", "none"):
        assert play_sequence(ch, rules(double=d), "563T9T") == 1.0
    # 9-11 allows 9: 5,4 doubles onto 9 -> 18 vs dealer bust: +2;  10-11 does not: hit, +1.
    assert play_sequence(ch, rules(double="9-11"), "564T9T") == 2.0
    assert play_sequence(ch, rules(double="10-11"), "564T9T") == 1.0
    # A,7 (soft 18) vs 6,T: soft doubling allowed -> double onto 2 (soft 20), dealer draws T and
    # busts: +2.  Not allowed -> stand 18, dealer draws 2 -> 18: push.
    assert play_sequence(ch, rules(double_soft=True), "A67T2T") == 2.0
    assert play_sequence(ch, rules(double_soft=False), "A67T2T") == 0.0


def test_dealer_soft_17():
    # Player T,8 = 18 vs dealer A,6: S17 stands on 17 (+1); H17 draws a 2 -> soft 19 (-1).
    assert play_sequence(STAND_ALL, rules(), "TA862") == 1.0
    assert play_sequence(STAND_ALL, rules(hit_soft_17=True), "TA862") == -1.0


def test_charlie_rigged():
    # Hit below 17.  2,2 hits 2, 3 -> 9 with 4 cards; then 5 -> 14 (5 cards), T -> bust.
    # Dealer T,T = 20.
    seq = "2T2T" "235T"
    assert play_sequence(HIT_TO_17, rules(charlie=5), seq) == 1.0   # 5 cards, 14: charlie wins
    assert play_sequence(HIT_TO_17, rules(charlie=4), seq) == 1.0   # 4 cards, 9: charlie wins
    assert play_sequence(HIT_TO_17, rules(), seq) == -1.0           # no charlie: busts
    assert play_sequence(HIT_TO_17, rules(charlie=6), seq) == -1.0  # busts on the 6th card
    # A charlie does not beat a no-hole-card dealer blackjack (dealer A + T).
    assert play_sequence(HIT_TO_17, rules(charlie=4, hole_card="none"), "2A2T23") == -1.0
    # A doubled hand reaching the charlie count wins its whole bet: 6,4 doubles onto 5 = 15 with
    # 3 cards vs dealer 7,T: charlie 3 -> +2; without charlie 15 < 17 -> -2.
    dbl10 = chart_from(lambda t, u: "Dh" if t == 10 else ("H" if t < 17 else "S"))
    assert play_sequence(dbl10, rules(charlie=3), "67455") == 2.0
    assert play_sequence(dbl10, rules(), "674T5") == -2.0


def test_card_limits_rigged():
    # Player limit 3: 2,3 hits 4 -> 9 with 3 cards and stands; vs 7,T = 17: -1.  Without the
    # limit it hits a T -> 19: +1.
    assert play_sequence(HIT_TO_17, rules(player_max_cards=3), "273T4") == -1.0
    assert play_sequence(HIT_TO_17, rules(), "273T4T") == 1.0
    # Dealer limit 3: player T,8 = 18; dealer 2,3 draws 4 -> 9 and stops at 3 cards: +1.  Without
    # the limit it draws T -> 19: -1.
    assert play_sequence(STAND_ALL, rules(dealer_max_cards=3), "T283" "4") == 1.0
    assert play_sequence(STAND_ALL, rules(), "T2834T") == -1.0
    # Split hands obey the player limit on their own card count: 8,8 vs 7,T split (limit 3),
    # hand 1: 8,2 hits 2 -> 12, 3 cards, stands (-1); hand 2: 8,T = 18 (+1): 0.
    ch = chart_from(lambda t, u: "H" if t < 17 else "S", pairs=split_only("8"))
    assert play_sequence(ch, rules(player_max_cards=3), "878T22T") == 0.0
