"""Self-checks of the Monte Carlo shoe simulator tests/oracles/shoesim.py (independent of bjcalc).

* Rigged rounds (``play_round`` deals a fixed card order: one card to each seat, the up card, a
  second card to each seat, the hole card, then the draws in order of play) whose result is
  worked out by hand in the comment beside each.
* Whole-shoe runs against published figures and small exact computations written here, within
  4 standard errors: the dealer's bust rate, the basic-strategy house edge.
* Bookkeeping: frequencies add up to exactly 1, the running count and the true count at every
  round start agree with the cards actually dealt, a balanced count ends a full shoe at 0, a
  seed reproduces a run.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest
from oracles.shoesim import HI_LO, ShoeExhaustedError, play_round, simulate

A, T = 0, 9
SIX_DECKS = (24,) * 9 + (96,)
ONE_DECK = (4,) * 9 + (16,)
WONG_HALVES = (-1, Fraction(1, 2), 1, 1, Fraction(3, 2), 1, Fraction(1, 2), 0, Fraction(-1, 2), -1)
KO = (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1)


def card(*names: str) -> list[int]:
    """Rank indices from names: card("A", "T", "5") == [0, 9, 4]."""
    return ["A23456789T".index(n) for n in names]


def stand(cards, up, options, tc):
    return "S"


def never(cards, tc):
    return False


def always(cards, tc):
    return True


def scripted(*actions):
    """A strategy that plays the given actions in order and records what it was offered."""
    seen = []
    todo = list(actions)

    def decide(cards, up, options, tc):
        seen.append((cards, up, options))
        return todo.pop(0)

    decide.seen = seen
    return decide


# Basic strategy for 4-8 decks, dealer stands on soft 17, double after split, late surrender:
# Wizard of Odds, "4-Deck to 8-Deck Blackjack Strategy" (wizardofodds.com/games/blackjack/
# strategy/4-decks/), the S17 chart. Columns are the up cards 2 3 4 5 6 7 8 9 T A.
# H hit, S stand, D double else hit, d double else stand, R surrender else hit, P split.
HARD = {t: "HHHHHHHHHH" for t in range(4, 9)} | {
    9: "HDDDDHHHHH",
    10: "DDDDDDDDHH",
    11: "DDDDDDDDDH",
    12: "HHSSSHHHHH",
    13: "SSSSSHHHHH",
    14: "SSSSSHHHHH",
    15: "SSSSSHHHRH",
    16: "SSSSSHHRRR",
} | {t: "SSSSSSSSSS" for t in range(17, 22)}
SOFT = {
    12: "HHHHHHHHHH",
    13: "HHHDDHHHHH",
    14: "HHHDDHHHHH",
    15: "HHDDDHHHHH",
    16: "HHDDDHHHHH",
    17: "HDDDDHHHHH",
    18: "SddddSSHHH",
    19: "SSSSSSSSSS",
    20: "SSSSSSSSSS",
    21: "SSSSSSSSSS",
}
PAIRS = {  # rank index -> split against these up cards (P), else play the total
    A: "PPPPPPPPPP",
    1: "PPPPPP----",  # 2,2
    2: "PPPPPP----",  # 3,3
    3: "---PP-----",  # 4,4
    4: "----------",  # 5,5
    5: "PPPPP-----",  # 6,6
    6: "PPPPPP----",  # 7,7
    7: "PPPPPPPPPP",  # 8,8
    8: "PPPPP-PP--",  # 9,9
    T: "----------",
}
FALLBACK = {"H": "H", "S": "S", "D": "H", "d": "S", "R": "H"}


def basic(cards, up, options, tc):
    """The chart above; ``up`` is a rank index (A = 0), so column (up - 1) % 10."""
    col = (up - 1) % 10
    if len(cards) == 2 and cards[0] == cards[1] and "P" in options and PAIRS[cards[0]][col] == "P":
        return "P"
    t = sum(cards) + len(cards)
    code = SOFT[t + 10][col] if t <= 11 and A in cards else HARD[t][col]
    play = code.upper()
    return play if play in options else FALLBACK[code]


def exact_dealer_bust(shoe, s17=True) -> float:
    """P(dealer busts) from a full shoe, before the peek (a blackjack is not a bust), by
    recursion over the dealer's draws."""

    @cache
    def bust(counts, hard, ace):
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        if total > 21:
            return 1.0
        if total >= 18 or (total == 17 and (s17 or not soft)):
            return 0.0
        n = sum(counts)
        p = 0.0
        for r, k in enumerate(counts):
            if k:
                rest = list(counts)
                rest[r] -= 1
                p += k / n * bust(tuple(rest), hard + r + 1, ace or r == A)
        return p

    n = sum(shoe)
    p = 0.0
    for up, ku in enumerate(shoe):
        for hole in range(10):
            rest = list(shoe)
            rest[up] -= 1
            kh = rest[hole]
            if kh == 0 or {up, hole} == {A, T}:
                continue
            rest[hole] -= 1
            p += ku / n * kh / (n - 1) * bust(tuple(rest), up + hole + 2, A in (up, hole))
    return p


def within(value, expected, se, k=4.0) -> bool:
    return abs(value - expected) <= k * se


# --- rigged rounds ---------------------------------------------------------------------------


def test_blackjack_pays_and_pushes():
    # A,T v up 9, hole T: blackjack paid 3:2 (or 6:5); the dealer does not play: 4 cards
    assert play_round(card("A", "9", "T", "T"), decide=stand) == (1.5, 4, "unplayed")
    assert play_round(card("A", "9", "T", "T"), decide=stand, blackjack_pays=1.2) == (1.2, 4, "unplayed")
    # T,A v up A, hole T: both blackjacks push; insured ("even money"): +1
    assert play_round(card("T", "A", "A", "T"), decide=stand) == (0.0, 4, "blackjack")
    assert play_round(card("T", "A", "A", "T"), decide=stand, insure=always) == (1.0, 4, "blackjack")
    # the same blackjack insured against a dealer without one: -1/2 + 3/2
    assert play_round(card("T", "A", "A", "9"), decide=stand, insure=always) == (1.0, 4, "unplayed")


def test_dealer_blackjack_ends_the_round():
    boom = scripted()  # any call would fail: nothing is left to decide after the peek
    # T,T v up T, hole A: -1, no decision
    assert play_round(card("T", "T", "T", "A"), decide=boom) == (-1.0, 4, "blackjack")
    # T,9 v up A, hole T, insured: -1 + 1
    assert play_round(card("T", "A", "9", "T"), decide=boom, insure=always) == (0.0, 4, "blackjack")
    # insurance lost: T,T v A,9 (dealer 20 after the peek): -1/2 for insurance, push 20 v 20
    assert play_round(card("T", "A", "T", "9"), decide=stand, insure=always) == (-0.5, 4, 20)


def test_surrender_double_and_options():
    # T,6 v up T, hole 7: surrender -1/2; no live hand, so the dealer does not play
    d = scripted("R")
    assert play_round(card("T", "T", "6", "7", "5"), decide=d) == (-0.5, 4, "unplayed")
    assert d.seen == [((T, 5), T, frozenset("HSDR"))]
    d = scripted("S")
    play_round(card("T", "T", "6", "7"), decide=d, surrender=False)
    assert d.seen[0][2] == frozenset("HSD")
    # 5,6 v up 6, hole T: double, draws T (21); dealer 16 draws 9, busts: +2
    d = scripted("D")
    assert play_round(card("5", "6", "6", "T", "T", "9"), decide=d) == (2.0, 6, "bust")
    # the same double drawing 2 (13) against the dealer's 16 + 5 = 21: -2
    d = scripted("D")
    assert play_round(card("5", "6", "6", "T", "2", "5"), decide=d) == (-2.0, 6, 21)
    # hit 5,6 to 3 cards: only H and S are offered
    d = scripted("H", "S")
    play_round(card("5", "6", "6", "T", "2", "5"), decide=d)
    assert d.seen[1] == ((4, 5, 1), 5, frozenset("HS"))


def test_split_aces_take_one_card_and_21_is_not_blackjack():
    # A,A v up 6, hole T; split; the aces get T and 5 (21 and soft 16, standing); dealer draws T:
    # bust. Both hands win 1 (21 on split aces is not a blackjack); one decision only.
    d = scripted("P")
    assert play_round(card("A", "6", "A", "T", "T", "5", "T"), decide=d) == (2.0, 7, "bust")
    assert d.seen == [((A, A), 5, frozenset("HSDPR"))]
    # an ace drawn to split aces is not resplit: the hands A,A (soft 12) and A,9 (soft 20) stand
    # without a call; the dealer's 16 draws 5: 21 beats both
    d = scripted("P")
    assert play_round(card("A", "6", "A", "T", "A", "9", "5"), decide=d) == (-2.0, 7, 21)
    assert len(d.seen) == 1


def test_splits_resplits_and_das():
    # 8,8 v up T, hole 7 (17). Split, first hand gets 8 again: resplit; 3 hands: 8+T, 8+2, 8+9;
    # the 8,2 doubles (DAS) and draws T: 20, stake 2. Results: 18 W, 20 W x2, 17 push: +3.
    d = scripted("P", "P", "S", "D", "S")
    unit, used, dealer = play_round(card("8", "T", "8", "7", "8", "T", "2", "T", "9"), decide=d)
    assert (unit, used, dealer) == (3.0, 9, 17)
    offered = [options for _, _, options in d.seen]
    assert offered == [frozenset("HSDPR"), frozenset("HSDP"), frozenset("HSD"), frozenset("HSD"),
                       frozenset("HSD")]
    # no DAS: the unsplit pair may still double; the split hands are offered H and S only
    d = scripted("P", "S", "S")
    play_round(card("8", "T", "8", "7", "T", "T"), decide=d, das=False)
    assert [o for _, _, o in d.seen] == [frozenset("HSDPR"), frozenset("HS"), frozenset("HS")]
    # max_hands=2: the second 8 may not be resplit
    d = scripted("P", "S", "S")
    play_round(card("8", "T", "8", "7", "8", "T"), decide=d, max_hands=2)
    assert d.seen[1] == ((7, 7), T, frozenset("HSD"))
    # max_hands=1: never a split
    d = scripted("S")
    play_round(card("8", "T", "8", "7"), decide=d, max_hands=1)
    assert d.seen[0][2] == frozenset("HSDR")


def test_dealer_soft_17_and_when_the_dealer_plays():
    # T,8 v up 6, hole A (soft 17): S17 stands, 18 wins; H17 draws 4 (21)
    assert play_round(card("T", "6", "8", "A", "4"), decide=stand) == (1.0, 4, 17)
    assert play_round(card("T", "6", "8", "A", "4"), decide=stand, s17=False) == (-1.0, 5, 21)
    # the only hand busts: the dealer's 16 is not played out
    d = scripted("H")
    assert play_round(card("T", "T", "6", "6", "T", "T"), decide=d) == (-1.0, 5, "unplayed")


def test_seats_deal_order_and_live_hands():
    # seats 0 and 1: 6 and T, up T, 6 and 9, hole 7. Seat 0 hits (T: bust), seat 1 stands on 19:
    # seat 1 is live, so the dealer plays (17 stands); seat 0 loses 1.
    d = scripted("H", "S")
    assert play_round(card("6", "T", "T", "6", "9", "7", "T"), decide=d, seats=2) == (-1.0, 7, 17)
    assert [c for c, _, _ in d.seen] == [(5, 5), (T, 8)]
    # the counter sits out: only seat 1 and the dealer are dealt
    assert play_round(card("T", "T", "9", "7"), decide=stand, seats=2, counter_plays=False) == (None, 4, 17)


def test_bad_action_and_exhausted_shoe():
    with pytest.raises(ValueError, match="'R'"):
        play_round(card("T", "T", "6", "7"), decide=scripted("R"), surrender=False)
    with pytest.raises(ShoeExhaustedError):
        play_round(card("T", "T", "6", "7"), decide=scripted("H"))
    with pytest.raises(ShoeExhaustedError):
        play_round(card("T", "T", "6"), decide=stand)


# --- whole shoes against published and exact figures ----------------------------------------


def test_dealer_bust_rate_six_decks():
    """Dealer bust rate, 6 decks, S17, the dealer playing every hand: 28.2 % (Alan Krigman,
    "How often does the dealer bust?", Gaming Today, 7 August 2001: "in multi-deck games,
    dealers who must stand on any 17 or above should break an average of 28.2 percent of the
    time"); exact full-shoe figure by recursion here: 0.281921. The player stands on
    everything, so the dealer plays every round except those the player's blackjack settles
    (they are left out: conditioning on them moves the rate by far less than the SE)."""
    r = simulate(SIX_DECKS, HI_LO, rounds=150_000, seed=11, penetration=0.75, decide=stand, insure=never,
                 bet=lambda tc: 1)
    n = r.rounds - r.dealer["unplayed"]
    p = r.dealer["bust"] / n
    se = math.sqrt(p * (1 - p) / n)
    assert within(p, exact_dealer_bust(SIX_DECKS), se)
    assert abs(p - 0.282) <= 4 * se + 0.0005  # the published figure has one decimal of a percent
    # H17 busts more (exact 0.285760); the same check of the H17 dealer
    r = simulate(SIX_DECKS, HI_LO, rounds=150_000, seed=12, penetration=0.75, decide=stand, insure=never,
                 bet=lambda tc: 1, s17=False)
    n = r.rounds - r.dealer["unplayed"]
    p = r.dealer["bust"] / n
    assert within(p, exact_dealer_bust(SIX_DECKS, s17=False), math.sqrt(p * (1 - p) / n))


def test_basic_strategy_house_edge_six_decks_s17_das_ls():
    """6 decks, S17, DAS, LS, split to 4, no resplit of aces, peek, 3:2, basic strategy above.
    Published: the Wizard of Odds calculator (transcribed in shared/reference/published.md,
    section 2) gives 0.527 % for these rules with H17 and S17 worth about -0.20 %, so about
    0.33 % for a reshuffle every round; a total-dependent basic strategy and the cut-card
    effect (0.02 % for 6 decks dealt to 4.5, shared/reference/counting.md section 5) add a few
    hundredths. This simulator gave 0.335 % +- 0.036 % over 10 million rounds (seeds 1 and 2,
    75 % penetration). The test takes 0.4 %, within 4 SE (SE about 0.2 %)."""
    r = simulate(SIX_DECKS, HI_LO, rounds=300_000, seed=2024, penetration=0.75, decide=basic, insure=never,
                 bet=lambda tc: 1)
    mean, se = r.win_rate()
    assert within(mean, -0.004, se)
    assert 1.10 < r.sd() < 1.18  # SD per round of basic strategy, about 1.15 units
    assert 5.2 < r.mean_cards < 5.6  # about 5.4 cards a round with one seat


# --- bookkeeping ------------------------------------------------------------------------------


def test_frequencies_add_up_and_rounds_sit_along_the_shoe():
    r = simulate(SIX_DECKS, HI_LO, shoes=300, seed=5, penetration=0.75, decide=basic, insure=never,
                 bet=lambda tc: 1)
    assert r.shoes == 300
    assert sum(r.frequencies().values()) == 1
    assert sum(r.count.values()) == r.rounds == sum(r.played.values())
    assert sum(r.placement.values()) == r.rounds == sum(r.depth_rc.values())
    assert sum(r.dealer.values()) == r.rounds
    assert r.placement[0] == 300  # every shoe starts at N = 0
    assert max(r.placement) < 234 == round(0.75 * 312)  # no round starts at or past the cut
    for tc in r.count:
        mean, se = r.advantage(tc)
        assert mean == r.unit_sum[tc] / r.played[tc]
    assert all(math.isnan(x) for x in r.advantage(99))  # a true count never seen


def test_reproducible_with_a_seed():
    def run(seed):
        return simulate(ONE_DECK, HI_LO, rounds=3_000, seed=seed, penetration=0.7, seats=3, decide=basic,
                        insure=lambda cards, tc: tc >= 2, bet=lambda tc: max(1, tc))

    assert run(7) == run(7)
    assert run(7) != run(8)


@pytest.mark.parametrize("tags, irc", [(HI_LO, 0), (WONG_HALVES, 0), (KO, -20)])
def test_running_count_follows_the_cards(tags, irc):
    """At each round start RC = IRC + tags of every card dealt from the shoe before; at the end
    of a full shoe (the cards dealt plus the rest) it is IRC + the shoe's tag sum: 0 for the
    balanced counts, 4 for KO over 6 decks from -20."""
    rounds = []
    simulate(SIX_DECKS, tags, rounds=2_000, seed=3, penetration=0.8, seats=2, irc=irc, decide=basic,
             insure=never, bet=lambda tc: 1, trace=lambda *rec: rounds.append(rec))
    full = irc + sum(Fraction(t) * k for t, k in zip(tags, SIX_DECKS))
    assert full == (4 if tags == KO else 0)
    shoes = {}
    for shoe_no, n, rc, _, cards, _ in rounds:
        shoes.setdefault(shoe_no, []).append((n, rc, cards))
    for rows in shoes.values():
        dealt = []
        count = Fraction(irc)
        for n, rc, cards in rows:
            assert n == len(dealt)
            assert rc == count
            dealt += cards
            count += sum(Fraction(tags[c]) for c in cards)
        rest = [k - dealt.count(r) for r, k in enumerate(SIX_DECKS)]
        assert min(rest) >= 0
        assert count + sum(Fraction(tags[r]) * k for r, k in enumerate(rest)) == full


def test_true_count_roundings():
    # 2 decks, IRC -5: the first round's TC is -5 / (104 / 52) = -5/2
    first = {}
    for rounding, expected in [("floor", -3), ("truncate", -2), ("round", -3), ("none", Fraction(-5, 2))]:
        seen: list = []
        simulate((8,) * 9 + (32,), HI_LO, rounds=1, seed=0, penetration=0.5, irc=-5, rounding=rounding,
                 decide=stand, insure=never, bet=lambda tc: 1, trace=lambda *rec, seen=seen: seen.append(rec))
        first[rounding] = seen[0][3]
        assert first[rounding] == expected, rounding
    assert type(first["floor"]) is int and type(first["none"]) is Fraction
    # every round: TC from RC and N, each convention (Wong Halves gives half-integer counts)
    for rounding in ("floor", "truncate", "round", "none"):
        seen = []
        simulate(SIX_DECKS, WONG_HALVES, rounds=1_500, seed=9, penetration=0.85, rounding=rounding, decide=basic,
                 insure=never, bet=lambda tc: 1, trace=lambda *rec, seen=seen: seen.append(rec))
        for _, n, rc, tc, _, _ in seen:
            x = rc / Fraction(312 - n, 52)
            want = {"floor": math.floor(x), "truncate": int(x), "none": x,
                    "round": int(math.copysign(math.floor(abs(x) + Fraction(1, 2)), x))}[rounding]
            assert tc == want


def test_bets_wins_and_sitting_out():
    # flat bet of 2: win = 2 x unit; win rate and SD in betting units
    r = simulate(ONE_DECK, HI_LO, rounds=5_000, seed=4, penetration=0.6, decide=basic, insure=never,
                 bet=lambda tc: 2)
    assert r.bet_sum == 10_000
    assert r.win_sum == 2 * sum(r.unit_sum.values())
    assert r.win_sq == 4 * sum(r.unit_sq.values())
    assert r.win_rate()[0] == r.win_sum / 5_000
    # play all: a bet of 0 still plays the hand (and records its unit result)
    r = simulate(SIX_DECKS, HI_LO, rounds=5_000, seed=4, penetration=0.75, seats=2, decide=basic, insure=never,
                 bet=lambda tc: 1 if tc >= 1 else 0)
    assert r.played == r.count and r.sat_out == 0
    assert r.bet_sum == sum(n for tc, n in r.count.items() if tc >= 1)
    cards_play_all = r.mean_cards
    # wonging: seat 0 is empty at TC < 1, so those rounds use fewer cards and record no result
    r = simulate(SIX_DECKS, HI_LO, rounds=5_000, seed=4, penetration=0.75, seats=2, decide=basic, insure=never,
                 bet=lambda tc: 1 if tc >= 1 else 0, sit_out_when_zero=True)
    assert all(r.played.get(tc, 0) == 0 for tc in r.count if tc < 1)
    assert all(r.played[tc] == r.count[tc] for tc in r.count if tc >= 1)
    assert r.sat_out == sum(n for tc, n in r.count.items() if tc < 1) > 0
    assert r.mean_cards < cards_play_all
    # one seat, always out: the dealer's two cards a round, 5 rounds below a 10-card cut
    r = simulate(ONE_DECK, HI_LO, shoes=3, seed=1, cut_cards=10, decide=basic, insure=never, bet=lambda tc: 0,
                 sit_out_when_zero=True)
    assert r.rounds == 15 == r.sat_out and r.mean_cards == 2 and r.placement == {0: 3, 2: 3, 4: 3, 6: 3, 8: 3}


def test_bad_arguments():
    kw = dict(seed=0, decide=stand, insure=never, bet=lambda tc: 1)
    with pytest.raises(ValueError, match="exactly one of rounds"):
        simulate(ONE_DECK, HI_LO, penetration=0.5, **kw)
    with pytest.raises(ValueError, match="exactly one of penetration"):
        simulate(ONE_DECK, HI_LO, rounds=1, penetration=0.5, cut_cards=20, **kw)
    with pytest.raises(ValueError, match="rounding"):
        simulate(ONE_DECK, HI_LO, rounds=1, penetration=0.5, rounding="half", **kw)
    with pytest.raises(ValueError, match="cut"):
        simulate(ONE_DECK, HI_LO, rounds=1, cut_cards=53, **kw)
    with pytest.raises(ShoeExhaustedError):  # dealing to the last card must run out eventually
        simulate(ONE_DECK, HI_LO, rounds=10_000, seed=0, cut_cards=52, decide=basic, insure=never,
                 bet=lambda tc: 1)
