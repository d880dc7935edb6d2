"""``bjcalc eor`` on a counter's shoe (docs/counting.md, "Effects of removal on a counter's shoe").

The definition: EOR_r = EV(the counter's shoe once one more r is seen: cards seen + 1, running
count + tag(r)) - EV(the counter's shoe). The oracle is written here from that definition and
the model of the counter's shoe alone (docs/countshoe.md): for a fixed chart, the EV of a
counter's shoe is the mixture, over every discard composition the cards seen and the running
count allow, weighted by the product of binomials C(n_r, d_r), of the exact EV of the
composition the discards leave (the composition engine's, checked against brute force
elsewhere). Tiny shoes, exact fractions.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from fractions import Fraction

import jsonschema
import pytest
from click.testing import CliRunner
from test_json_schema import SCHEMA

from bjcalc import DEFAULT_GAME, Analysis, CountShoe, InvalidHandError, InvalidShoeError, Rank, Rules, game
from bjcalc.cli import cli
from bjcalc.counting.eor import effects_of_removal
from bjcalc.counting.plays import seen_one_more
from bjcalc.counting.systems import SYSTEMS
from bjcalc.numbers import to_fraction

# 13 cards, card limits of 3 and no splits: a composition's exact EV takes a few hundredths of a second
TINY = Rules(shoe=(1,) * 9 + (4,), player_max_cards=3, dealer_max_cards=3, split_hands=1)
TINY_CHART = Analysis(TINY).chart()  # the full shoe's basic strategy, held fixed by the oracle's cases
# 26 cards (two of each rank, eight tens) for float against exact and the command line: the default
# game (late surrender) on it, as SMALL_ARGS give it
SMALL = game(DEFAULT_GAME).rules.replace(shoe=(2,) * 9 + (8,), player_max_cards=4, dealer_max_cards=4, split_hands=1)
SMALL_ARGS = ("--shoe", "2,2,2,2,2,2,2,2,2,8", "--max-cards", "4", "--split-hands", "1", "--workers", "1")
TAGS = {name: tuple(Fraction(t) for t in SYSTEMS[name]) for name in ("hi-lo", "omega-ii", "ko", "wong-halves")}


# -- the oracle -----------------------------------------------------------------------------------


def discard_compositions(shoe, tags, seen, discard_sum):
    """Every discard composition d (d_r <= n_r, sum d_r = seen, sum t_r d_r = discard_sum) with
    its number of discard sets, prod_r C(n_r, d_r)."""
    for d in itertools.product(*(range(min(n, seen) + 1) for n in shoe)):
        if sum(d) == seen and sum(t * k for t, k in zip(tags, d)) == discard_sum:
            yield d, math.prod(math.comb(n, k) for n, k in zip(shoe, d))


@functools.cache
def composition_ev(left):
    """The exact EV of the fixed chart on the composition ``left`` (A..T)."""
    return to_fraction(Analysis(TINY.replace(shoe=left), exact=True).evaluate(TINY_CHART).round.ev)


def mixture_ev(tags, seen, discard_sum, weight=lambda d: 1):
    """The counter's EV: the posterior mixture of the compositions' EVs (``weight``: an extra
    factor per composition, 1 for the counter's posterior)."""
    total = whole = Fraction(0)
    for d, ways in discard_compositions(TINY.shoe_counts, tags, seen, discard_sum):
        ways *= weight(d)
        total += ways * composition_ev(tuple(n - k for n, k in zip(TINY.shoe_counts, d)))
        whole += ways
    return total / whole


# seen before the round, the running count (IRC included), the IRC
ORACLE_CASES = [
    ("hi-lo", 1, 1, 0),  # a low card seen
    ("hi-lo", 0, 0, 0),  # the top of the shoe: the next card's tag is all the counter learns
    ("omega-ii", 1, -2, 0),  # five tag classes; a ten seen
    ("ko", 1, -1, -2),  # unbalanced, with an IRC
]


@pytest.mark.parametrize("system, seen, running_count, irc", ORACLE_CASES)
def test_a_fixed_charts_eors_are_the_differences_of_the_posterior_mixtures(system, seen, running_count, irc):
    tags = TAGS[system]
    shoe = CountShoe(shoe=TINY.shoe_counts, tags=tags, seen=seen, running_count=running_count,
                     initial_running_count=irc)
    result = effects_of_removal(TINY, "chart", chart=TINY_CHART, exact=True, shoe=shoe, workers=1)
    base = mixture_ev(tags, seen, running_count - irc)
    assert to_fraction(result.base) == base
    assert set(result.eor) | set(result.not_removable) == set(Rank)
    for rank, eor in result.eor.items():
        want = mixture_ev(tags, seen + 1, running_count - irc + tags[rank.index]) - base
        assert to_fraction(eor) == want, f"{system}: EOR of {rank}: {eor} against the mixture's {want}"
    # the counter keeps the tag: ranks of one tag share one EOR
    for a, b in itertools.combinations(result.eor, 2):
        if tags[a.index] == tags[b.index]:
            assert result.eor[a] == result.eor[b], (a, b)
    assert result.strategy.play == "basic, held fixed"


def test_the_weighted_sum_is_not_zero_and_the_burn_card_theorem_needs_the_last_cards_tag():
    """On a counter's shoe ``sum_r E[n_r left] EOR_r`` is not 0 for a fixed chart: the counter
    who has seen one more card knows only (cards seen + 1, new count), not that the last card
    had that tag. Weighting each discard composition also by how many cards of the tag it
    holds (the chance that the last card seen had it) restores the theorem exactly: the
    explanation docs/counting.md gives, checked with the oracle."""
    tags, seen, running_count = TAGS["hi-lo"], 1, 1
    shoe = CountShoe(shoe=TINY.shoe_counts, tags=tags, seen=seen, running_count=running_count)
    result = effects_of_removal(TINY, "chart", chart=TINY_CHART, exact=True, shoe=shoe, workers=1)
    left = shoe.expected_left()
    total = to_fraction(result.weighted_sum())
    assert total == sum(left[rank.index] * to_fraction(e) for rank, e in result.eor.items())
    assert total != 0
    informed = Fraction(0)
    for tag in sorted(set(tags)):
        p = sum(left[r] for r in range(10) if tags[r] == tag) / shoe.cards_left
        informed += p * mixture_ev(tags, seen + 1, running_count + tag,
                                   lambda d, tag=tag: sum(k for k, t in zip(d, tags) if t == tag))
    assert informed == to_fraction(result.base)


@pytest.mark.parametrize("strategy", ["cd", "basic"])
def test_a_re_optimised_strategys_eors_are_the_analyses_of_the_shoe_with_one_more_card_seen(strategy):
    """CD play and basic strategy re-derived: the EOR of a rank is the EV on the counter's shoe
    built with one more card seen and the count moved by its tag, minus the EV before."""
    tags = TAGS["hi-lo"]
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=tags, seen=3, running_count=1)
    result = effects_of_removal(SMALL, strategy, exact=True, shoe=shoe, workers=1)

    def ev(count_shoe):
        analysis = Analysis(SMALL, exact=True, shoe=count_shoe)
        return analysis.round().ev if strategy == "cd" else analysis.evaluate(analysis.chart()).round.ev

    base = ev(shoe)
    assert result.base == base
    for tag in sorted(set(tags)):
        after = ev(CountShoe(shoe=SMALL.shoe_counts, tags=tags, seen=4, running_count=1 + tag))
        for rank in Rank:
            if tags[rank.index] == tag:
                assert result.eor[rank] == after - base, rank


@pytest.mark.parametrize("system, seen, running_count", [("hi-lo", 6, 2), ("wong-halves", 4, Fraction(-3, 2))])
@pytest.mark.parametrize("strategy", ["chart", "cd"])
def test_float_agrees_with_exact(system, seen, running_count, strategy):
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS[system], seen=seen, running_count=running_count)
    exact = effects_of_removal(SMALL, strategy, exact=True, shoe=shoe, workers=1)
    floats = effects_of_removal(SMALL, strategy, shoe=shoe, workers=1)
    assert abs(float(exact.base) - floats.base) < 1e-12
    assert set(exact.eor) == set(floats.eor) == set(Rank)
    for rank in Rank:
        assert abs(float(exact.eor[rank]) - floats.eor[rank]) < 1e-12, rank
    assert abs(float(exact.weighted_sum()) - floats.weighted_sum()) < 1e-12


def test_ranks_the_shoe_cannot_show_next_are_stated_not_computed():
    """Ten cards seen at Hi-Lo +10 from the 26-card shoe: every low card is among them, so no 2..6
    can be seen next; at 22 seen one more would leave too few cards for a round."""
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=10, running_count=10)
    assert seen_one_more(shoe, "5") is None
    after = seen_one_more(shoe, "T")
    assert (after.seen, after.running_count, after.visible) == (11, 9, ())
    result = effects_of_removal(SMALL, "cd", shoe=shoe, workers=1)
    low = {Rank(r) for r in "23456"}
    assert set(result.not_removable) == low and set(result.eor) == set(Rank) - low
    assert all("every card tagged +1 (2,3,4,5,6) is among the cards seen" in why
               for why in result.not_removable.values())
    # a round is dealt to the last card (issue 42): with 17 seen, one more leaves 8 cards, which
    # are analysed; with 22 seen, one more leaves 3, too few for a round's four
    late = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=17, running_count=2)
    result = effects_of_removal(SMALL, "cd", shoe=late, workers=1)
    assert set(result.eor) | set(result.not_removable) == set(Rank) and result.eor
    last = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=22, running_count=2)
    result = effects_of_removal(SMALL, "cd", shoe=last, workers=1)
    assert result.eor == {} and set(result.not_removable) == set(Rank)
    assert all("3 cards left: a round needs at least 4" in why for why in result.not_removable.values())


def test_the_library_refuses_what_it_does_not_compute():
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=3, running_count=1)
    with pytest.raises(InvalidShoeError, match="not the rules' shoe"):
        effects_of_removal(TINY, shoe=shoe, workers=1)
    dealt = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=3, running_count=1, up="5")
    with pytest.raises(InvalidHandError, match="nothing on the table"):
        seen_one_more(dealt, "5")


# -- the command line -----------------------------------------------------------------------------

COUNTED = ("--count", "hi-lo", "--running-count", "1", "--cards-seen", "3")


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["eor", *SMALL_ARGS, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_format_carries_the_counter_and_the_same_numbers():
    data = json.loads(run(*COUNTED, "--format", "json", "--exact"))
    errors = [e.message[:300] for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(data)]
    assert not errors, errors
    counter = data["counter"]
    assert (counter["system"], counter["running_count"], counter["cards_seen"], counter["cards_left"]) == (
        "hi-lo", 1, 3, 23)
    assert data["not_removable"] == {} and data["plays"] == []
    shoe = CountShoe(shoe=SMALL.shoe_counts, tags=TAGS["hi-lo"], seen=3, running_count=1)
    want = effects_of_removal(SMALL, exact=True, shoe=shoe, workers=1)
    assert Fraction(data["exact"]["ev"]) == to_fraction(want.base)
    assert {r: Fraction(e) for r, e in data["exact"]["eor"].items()} == {
        str(r): to_fraction(e) for r, e in want.eor.items()}

    text = run(*COUNTED)
    first, second = text.splitlines()[:2]
    assert first.startswith("Counter's shoe: hi-lo running count +1 after 3 cards seen") and "true count +2.26" in first
    assert "(exact divisor)" in first and second.startswith("Effects of removal")
    assert "EV per round on the counter's shoe" in text and "ranks of one tag share one EOR" in text
    assert "not 0 in general on a counter's shoe" in text

    markdown = run(*COUNTED, "--format", "markdown").splitlines()
    assert markdown[0].startswith("# Effects of removal:") and markdown[2].startswith("Counter's shoe: hi-lo")

    rows = run(*COUNTED, "--format", "csv").splitlines()
    assert len(rows) == 2 and rows[1].startswith("round,unconditional,initial_bet,")
    assert rows[1].split(",")[4:9] == [rows[1].split(",")[4]] * 5  # 2..6 share one EOR


def test_ranks_without_an_eor_are_listed_in_text_and_json():
    args = ("--strategy", "cd", "--count", "hi-lo", "--true-count", "32.5", "--cards-seen", "10")
    data = json.loads(run(*args, "--format", "json"))
    assert list(data["not_removable"]) == list("23456") and list(data["eor"]) == list("789TA")
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(data)
    text = run(*args)
    assert "no EOR for 2, 3, 4, 5, 6: every card tagged +1 (2,3,4,5,6) is among the cards seen" in text


@pytest.mark.parametrize("args, words", [
    (["--running-count", "2"], "--running-count is for a counter's shoe: give the count with --count or --tags"),
    (["--cards-seen", "3"], "--cards-seen is for a counter's shoe"),
    (["--count", "hi-lo", "--cards-seen", "3"], "needs --running-count or --true-count"),
    (["--count", "hi-lo", "--running-count", "1"], "needs --cards-seen"),
    ([*COUNTED, "--removed", "5"], "--removed and --count contradict each other"),
    (["--count", "hi-lo", "--running-count", "9", "--cards-seen", "3"], "cannot be reached with 3 cards seen"),
    (["--count", "hi-lo", "--running-count", "1/2", "--cards-seen", "3"], "not a sum of the tags"),
    (["--count", "zip", "--running-count", "1", "--cards-seen", "3"], "unknown count system 'zip'"),
    (["--count", "hi-lo", "--running-count", "0", "--cards-seen", "25"], "has 1 card left: a round needs at least 4"),
])
def test_bad_input_is_one_line_and_exit_status_2(args, words):
    result = CliRunner().invoke(cli, ["eor", *SMALL_ARGS, *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.output
    assert result.stderr.startswith("Error: ") and words in result.stderr, result.stderr


def test_an_infinite_deck_has_no_counter():
    result = CliRunner().invoke(cli, ["eor", "--decks", "inf", *COUNTED])
    assert result.exit_code == 2 and "infinite deck" in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_count_is_named_as_people_type_it():
    """``--count hilo`` (no hyphen) is Hi-Lo, as ``hi-lo`` is."""
    assert run("--count", "hilo", "--running-count", "1", "--cards-seen", "3") == run(*COUNTED)
