"""``bjcalc eor --play`` and ``--insurance`` on a counter's shoe (docs/counting.md, "Effects of
removal on a counter's shoe").

The definition: at a decision the counter has seen N cards with running count RC, the hand and
the up card among them; a play's EOR of rank r is the EV difference of the two plays once one
more card of rank r is seen (N + 1 cards, RC + tag(r)) minus the difference before; insurance's
the same with the insurance EV. The oracles are written here from that definition and the
model of the counter's shoe alone (docs/countshoe.md: the cards seen before the round are a
uniformly random subset of the shoe, known only by their count): every discard composition d
of the N - |hand| - 1 cards seen before the deal, weighted by its hypergeometric probability,
times the chance that the hand and the up card come next from what d leaves, kept where the
tags add up to RC; each composition's own exact EVs (the composition engine, checked against
brute force elsewhere). The plays have no decision after the first (three cards at most), so
the counter's EVs are those mixtures exactly; in the conditioned frame each composition is
weighted also by its chance of no dealer blackjack. Tiny shoes, exact fractions.
"""

from __future__ import annotations

import csv
import functools
import io
import itertools
import json
import math
from fractions import Fraction

import jsonschema
import pytest
from click.testing import CliRunner
from test_json_schema import SCHEMA

from bjcalc import DEFAULT_GAME, Action, Analysis, CountShoe, InvalidShoeError, Rank, eor_table, game
from bjcalc.cli import cli
from bjcalc.counting.plays import insurance_effects, parse_play, play_effects
from bjcalc.counting.systems import SYSTEMS
from bjcalc.numbers import to_fraction

# the default game (peek, late surrender) on 13 cards, three cards at most per hand, no splits:
# a hit or a double is one card, then the hand stands (no later decision the count could change)
TINY = game(DEFAULT_GAME).rules.replace(shoe=(1,) * 9 + (4,), player_max_cards=3, dealer_max_cards=3, split_hands=1)
TINY_ARGS = ("--shoe", "1,1,1,1,1,1,1,1,1,4", "--max-cards", "3", "--split-hands", "1", "--workers", "1")
# 26 cards for insurance, float against exact and the command line
SMALL = game(DEFAULT_GAME).rules.replace(shoe=(2,) * 9 + (8,), player_max_cards=4, dealer_max_cards=4, split_hands=1)
SMALL_ARGS = ("--shoe", "2,2,2,2,2,2,2,2,2,8", "--max-cards", "4", "--split-hands", "1", "--workers", "1")
TAGS = {name: tuple(Fraction(t) for t in SYSTEMS[name]) for name in ("hi-lo", "omega-ii", "ko", "wong-halves")}
ACE, TEN = 0, 9


# -- the oracles ----------------------------------------------------------------------------------


def compositions(shoe, size):
    """Every composition d of ``size`` cards from ``shoe`` (d_r <= n_r), A..T."""
    for d in itertools.product(*(range(min(n, size) + 1) for n in shoe)):
        if sum(d) == size:
            yield d


def hypergeometric(shoe, d):
    """P(the first sum(d) cards of ``shoe`` have composition d)."""
    return Fraction(math.prod(math.comb(n, k) for n, k in zip(shoe, d)), math.comb(sum(shoe), sum(d)))


def next_cards(shoe, cards):
    """P(the next cards dealt from the composition ``shoe`` are ``cards``, in this order)."""
    left, p = list(shoe), Fraction(1)
    for card in cards:
        if left[card] == 0:
            return Fraction(0)
        p *= Fraction(left[card], sum(left))
        left[card] -= 1
    return p


@functools.cache
def composition_hand(shoe, cards, up):
    """The exact EVs of ``cards`` against ``up`` on the composition ``shoe`` (before the deal)."""
    return Analysis(TINY.replace(shoe=shoe), exact=True).hand(cards, up)


@functools.cache
def counter_difference(tags, cards_seen, running_count, hands, up, first, second, irc=0):
    """The counter's EV(first) - EV(second) at the decision, and the ranks the next card seen
    can have: the posterior mixture over (hand, discard composition)."""
    full = TINY.shoe_counts
    total = whole = Fraction(0)
    seeable = set()
    for hand in hands:
        table = [card.index for card in hand] + [up.index]
        before = cards_seen - len(table)
        for d in compositions(full, before):
            if irc + sum(t * k for t, k in zip(tags, d)) + sum(tags[i] for i in table) != running_count:
                continue
            shoe = tuple(n - k for n, k in zip(full, d))
            p = hypergeometric(full, d) * sum(
                next_cards(shoe, [c.index for c in order] + [up.index]) for order in set(itertools.permutations(hand)))
            if p == 0:
                continue
            left = list(shoe)
            for i in table:
                left[i] -= 1
            result = composition_hand(shoe, hand, up)
            if result.conditioned:
                hole = TEN if up is Rank.ACE else ACE
                p *= 1 - Fraction(left[hole], sum(left))
            total += p * (to_fraction(result.evs[first]) - to_fraction(result.evs[second]))
            whole += p
            seeable |= {Rank.from_index(r) for r in range(10) if left[r]}
    return total / whole, seeable


@functools.cache
def counter_insurance(shoe, tags, cards_seen, running_count):
    """Insurance's EV with the ace up, ``3 E[tens left | the count] / cards left - 1``: the
    cards seen before the ace are a uniform subset of the shoe less the ace, each composition
    weighted by its number of subsets; and the ranks the next card seen can have."""
    pool = list(shoe)
    pool[ACE] -= 1
    before = cards_seen - 1
    tens = whole = 0
    seeable = set()
    for d in compositions(pool, before):
        if tags[ACE] + sum(t * k for t, k in zip(tags, d)) == running_count:
            ways = math.prod(math.comb(n, k) for n, k in zip(pool, d))
            tens += ways * (pool[TEN] - d[TEN])
            whole += ways
            seeable |= {Rank.from_index(r) for r in range(10) if pool[r] > d[r]}
    return 3 * Fraction(tens, whole) / (sum(pool) - before) - 1, seeable


# -- (a) a play's EORs against the posterior mixtures ----------------------------------------------

# the count, cards seen at the decision (the hand and up card among them), running count (IRC
# included), IRC, the play
PLAY_CASES = [
    ("hi-lo", 4, 0, 0, "T,6 v T stand hit"),  # conditioned frame: the peek
    ("hi-lo", 5, -1, 0, "16 v T stand hit"),  # a total: T,6 and 9,7, each by its chance at the count
    ("omega-ii", 5, 3, 0, "11 v 6 double hit"),  # five tag classes; 6,5 cannot be dealt (one 6, it is up)
    ("ko", 5, 1, -1, "12 v 4 stand hit"),  # unbalanced, with an IRC
]


@pytest.mark.parametrize("system, seen, running_count, irc, text", PLAY_CASES)
def test_a_plays_eors_are_the_differences_of_the_posterior_mixtures(system, seen, running_count, irc, text):
    tags = TAGS[system]
    hand, up, first, second = parse_play(text)
    hands = hand.hands() if not isinstance(hand, tuple) else (hand,)
    shoe = CountShoe(shoe=TINY.shoe_counts, tags=tags, seen=seen, running_count=running_count,
                     initial_running_count=irc)
    result = play_effects(TINY, hand, up, first, second, exact=True, shoe=shoe, workers=1)
    base, seeable = counter_difference(tags, seen, running_count, hands, up, first, second, irc)
    assert to_fraction(result.difference) == base
    assert set(result.eor) == seeable and set(result.not_removable) == set(Rank) - seeable
    for rank in seeable:
        after, _ = counter_difference(tags, seen + 1, running_count + tags[rank.index], hands, up, first, second, irc)
        assert to_fraction(result.eor[rank]) == after - base, f"{system} {text}: EOR of {rank}"
    for a, b in itertools.combinations(result.eor, 2):
        if tags[a.index] == tags[b.index]:
            assert result.eor[a] == result.eor[b], (a, b)


def test_a_total_weighs_its_hands_by_their_chances_at_the_count():
    """The total's difference is not the plain average of its hands' (T,6 v T counts -1 with
    Hi-Lo, 9,7 v T also -1, but their chances at RC -1 differ): each hand alone against the
    oracle, then the total against both."""
    tags = TAGS["hi-lo"]
    shoe = CountShoe(shoe=TINY.shoe_counts, tags=tags, seen=5, running_count=-1)
    up, s, h = Rank.TEN, Action.STAND, Action.HIT
    alone = {cards: to_fraction(play_effects(TINY, cards, up, s, h, exact=True, shoe=shoe, workers=1).difference)
             for cards in ("T,6", "9,7")}
    for cards, value in alone.items():
        assert value == counter_difference(tags, 5, -1, (tuple(Rank(c) for c in cards.split(",")),), up, s, h)[0]
    total = to_fraction(play_effects(TINY, "16", up, s, h, exact=True, shoe=shoe, workers=1).difference)
    assert min(alone.values()) < total < max(alone.values()) and total != sum(alone.values()) / 2


# -- (b) insurance against E[tens left | count] / cards left --------------------------------------


@pytest.mark.parametrize("system, seen, running_count", [("hi-lo", 6, 2), ("omega-ii", 4, -3), ("hi-lo", 1, -1)])
def test_insurance_eors_are_the_tens_left_over_the_cards_left(system, seen, running_count):
    tags = TAGS[system]
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=tags, seen=seen, running_count=running_count)
    result = insurance_effects(SMALL, shoe=shoe)
    base, seeable = counter_insurance(SMALL.shoe_counts, tags, seen, running_count)
    assert (result.up, result.first, result.conditioned) == (Rank.ACE, None, False)
    assert to_fraction(result.difference) == base
    assert set(result.eor) == seeable and set(result.not_removable) == set(Rank) - seeable
    for rank in seeable:
        after, _ = counter_insurance(SMALL.shoe_counts, tags, seen + 1, running_count + tags[rank.index])
        assert to_fraction(result.eor[rank]) == after - base, rank


# -- (c) float against exact ----------------------------------------------------------------------


@pytest.mark.parametrize("system, seen, running_count, text", [
    ("hi-lo", 8, 2, "16 v T stand hit"),
    ("wong-halves", 6, Fraction(-3, 2), "T,6 v T stand surrender"),
    ("omega-ii", 7, 1, "11 v 6 double hit"),
])
def test_float_agrees_with_exact(system, seen, running_count, text):
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS[system], seen=seen, running_count=running_count)
    hand, up, first, second = parse_play(text)
    e = play_effects(SMALL, hand, up, first, second, exact=True, shoe=shoe, workers=1)
    f = play_effects(SMALL, hand, up, first, second, shoe=shoe, workers=1)
    assert e.label == f.label and e.not_removable == f.not_removable
    assert isinstance(f.difference, float) and abs(float(e.difference) - f.difference) < 1e-12
    assert set(e.eor) == set(f.eor) and e.eor
    for rank in e.eor:
        assert abs(float(e.eor[rank]) - f.eor[rank]) < 1e-12, (e.label, rank)


# -- ranks without an EOR ------------------------------------------------------------------------


def test_ranks_the_count_rules_out_have_no_eor():
    """13 cards seen at Hi-Lo +10 with 9,7 v 8 on the table (tags 0): the ten cards seen before
    the deal add up to +10, so they are the shoe's ten low cards, and no 2..6 can be seen next."""
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=13, running_count=10)
    play = play_effects(SMALL, "9,7", "8", "stand", "hit", shoe=shoe, workers=1)
    low = {Rank(r) for r in "23456"}
    assert set(play.not_removable) == low and set(play.eor) == set(Rank) - low
    assert all("every card tagged +1 (2,3,4,5,6) is among the cards seen" in why for why in play.not_removable.values())
    one_each = CountShoe(shoe=TINY.shoe_counts, tags=TAGS["hi-lo"], seen=4, running_count=0)
    play = play_effects(TINY, "T,6", "T", "stand", "hit", shoe=one_each, workers=1)
    assert play.not_removable.get(Rank.SIX) == "every 6 of the shoe is on the table"


# -- (d) the command line -------------------------------------------------------------------------

COUNTED = ("--count", "hi-lo", "--running-count", "0", "--cards-seen", "4")
PLAY = ("--play", "T,6 v T stand hit", "--insurance")


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args) if args[0] == "hand" else ["eor", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_json_carries_the_plays_exact_eors():
    data = json.loads(run(*TINY_ARGS, *COUNTED, *PLAY, "--format", "json", "--exact"))
    errors = [e.message[:300] for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(data)]
    assert not errors, errors
    play, insurance = data["plays"]
    exact_play, exact_insurance = data["exact"]["plays"]
    assert (play["play"], play["frame"], play["unit"]) == ("T,6 v T: stand - hit", "conditioned", "initial_bet")
    tags = TAGS["hi-lo"]
    base, seeable = counter_difference(tags, 4, 0, ((Rank.TEN, Rank.SIX),), Rank.TEN, Action.STAND, Action.HIT)
    assert Fraction(exact_play["difference"]) == base
    assert set(play["eor"]) == {str(r) for r in seeable} and list(play["not_removable"]) == ["6"]
    for rank in seeable:
        after, _ = counter_difference(tags, 5, tags[rank.index], ((Rank.TEN, Rank.SIX),), Rank.TEN,
                                      Action.STAND, Action.HIT)
        assert Fraction(exact_play["eor"][str(rank)]) == after - base, rank
    # insurance: the ace up among the 4 cards seen, 3 before it adding up to +1
    tens = whole = 0
    for d in compositions((0, 1, 1, 1, 1, 1, 1, 1, 1, 4), 3):
        if sum(t * k for t, k in zip(tags, d)) == 1:
            ways = math.prod(math.comb(n, k) for n, k in zip((0, 1, 1, 1, 1, 1, 1, 1, 1, 4), d))
            tens, whole = tens + ways * (4 - d[TEN]), whole + ways
    assert Fraction(exact_insurance["difference"]) == 3 * Fraction(tens, whole) / 9 - 1
    assert (insurance["unit"], insurance["strategy"]) == ("insurance_bet", None)
    assert insurance["not_removable"] == {"A": "every A of the shoe is on the table"}  # the shoe's one ace is up
    assert data["counter"]["cards_seen"] == 4
    # the same counter as bjcalc hand's: the hand and the up card among the cards seen
    hand = json.loads(run("hand", "T,6", "--up", "T", *TINY_ARGS[:-2], *COUNTED, "--format", "json", "--exact"))
    assert Fraction(exact_play["difference"]) == Fraction(hand["exact"]["stand"]) - Fraction(hand["exact"]["hit"])


def test_text_markdown_and_csv_show_the_plays():
    args = (*SMALL_ARGS, "--count", "hi-lo", "--running-count", "10", "--cards-seen", "13",
            "--play", "9,7 v 8 stand hit", "--strategy", "cd")
    text = run(*args)
    assert text.splitlines()[0].startswith("Counter's shoe: hi-lo running count +10 after 13 cards seen")
    assert "the hand and the up card among them (as bjcalc hand counts them)" in text
    row = next(line for line in text.splitlines() if line.startswith("9,7 v 8: stand - hit"))
    assert row.split()[8:13] == ["-"] * 5  # 2..6: no EOR
    assert ("no EOR for 2, 3, 4, 5, 6 in 9,7 v 8: stand - hit: every card tagged +1 (2,3,4,5,6) is among the cards "
            "seen at this count") in text
    markdown = run(*args, "--format", "markdown")
    assert "| 9,7 v 8: stand - hit" in markdown and "- no EOR for 2, 3, 4, 5, 6 in 9,7 v 8" in markdown
    rows = list(csv.reader(io.StringIO(run(*args, "--format", "csv"))))
    assert len(rows) == 3 and rows[2][:3] == ["9,7 v 8: stand - hit", "unconditional", "initial_bet"]
    cells = rows[2]
    assert cells[4:9] == [""] * 5 and cells[9] == cells[10] == cells[11] and cells[12] == cells[13]
    exact = run(*args, "--exact")
    assert "9,7 v 8: stand - hit:" in exact and "EOR T" in exact


@pytest.mark.parametrize("args, words", [
    (["--count", "hi-lo", "--running-count", "0", "--cards-seen", "2", "--play", "T,6 v T stand hit"],
     "cards seen must be at least 3 for T,6 v T: the hand and the up card are among them, not 2"),
    (["--count", "hi-lo", "--running-count", "0", "--cards-seen", "0", "--insurance"],
     "cards seen must be at least 1 for insurance"),
    (["--count", "hi-lo", "--running-count", "-3", "--cards-seen", "3", "--play", "T,6 v T stand hit"],
     "the counter's shoe cannot deal T,6 against T at running count -3 after 3 cards seen (probability 0)"),
    (["--count", "hi-lo", "--running-count", "1", "--cards-seen", "1", "--insurance"],
     "the counter's shoe cannot show an ace up at running count 1 after 1 cards seen (probability 0)"),
    (["--count", "hi-lo", "--running-count", "0", "--cards-seen", "4", "--play", "T,6 v T stand split"],
     "split is not a play for T,6 against T"),
])
def test_bad_input_is_one_line_and_exit_status_2(args, words):
    result = CliRunner().invoke(cli, ["eor", *SMALL_ARGS, *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.output
    assert result.stderr.startswith("Error: ") and words in result.stderr, result.stderr


def test_the_library_refuses_a_counters_shoe_of_other_cards_or_with_cards_on_the_table():
    small = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=5, running_count=1)
    with pytest.raises(InvalidShoeError, match="not the rules' shoe"):
        play_effects(TINY, "T,6", "T", "stand", "hit", shoe=small, workers=1)
    with pytest.raises(InvalidShoeError, match="not the rules' shoe"):
        insurance_effects(TINY, shoe=small)
    dealt = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=5, running_count=1, up="5")
    with pytest.raises(InvalidShoeError, match="before the deal"):
        eor_table(SMALL, plays=["T,6 v T stand hit"], shoe=dealt, workers=1)
