"""Issue 45, "clean edges": what the counter's shoe, true counts, the rounds' placement and
truecount_analysis refuse before any work (the bad-input sweep's finds for them). Each refusal is a
:class:`bjcalc.BjcalcError` naming the parameter or the value, never a TypeError, an
OverflowError or a value taken as something it does not mean. By module.
"""

import math
import time
from fractions import Fraction

import pytest

import bjcalc
from bjcalc import BjcalcError, Counter, CountShoe, Rules

TINY = (1, 1, 1, 1, 1, 1, 1, 1, 1, 8)  # 17 cards
HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)  # aces first
KO = (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1)


@pytest.fixture(scope="module")
def rules():
    return Rules(shoe=TINY)


@pytest.fixture(scope="module")
def chart(rules):
    return bjcalc.Analysis(rules).chart()


# -- tags.py: true counts -------------------------------------------------------------------------


@pytest.mark.parametrize("running_count, named", [
    (math.inf, "inf"), (math.nan, "nan"), (None, "None"), ("zzz", "zzz"), (True, "True"), (10 ** 100, "running_count")])
def test_a_true_count_refuses_a_running_count_that_is_not_one(running_count, named):
    with pytest.raises(BjcalcError, match=named):
        bjcalc.true_count(running_count, 26)


@pytest.mark.parametrize("cards_left", [True, 10 ** 100])
def test_decks_left_refuses_a_bool_or_more_cards_than_any_shoe(cards_left):
    with pytest.raises(BjcalcError, match="cards left"):
        bjcalc.decks_left(cards_left)
    with pytest.raises(BjcalcError, match="cards left"):
        bjcalc.true_count(2, cards_left)


def test_true_counts_still_take_half_counts_and_fractions():
    assert bjcalc.true_count(2.5, 26) == 5 and bjcalc.true_count(Fraction(-1, 2), 52) == Fraction(-1, 2)


# -- countshoe.py: the counter's shoe, the counter, the distributions ----------------------------


@pytest.mark.parametrize("field, value", [("hand", None), ("hand", 0), ("others", None), ("others", 0)])
def test_the_counters_shoe_refuses_cards_that_are_not_cards(field, value):
    with pytest.raises(BjcalcError, match=field):
        CountShoe(shoe=TINY, tags=HI_LO, **{field: value})


def test_the_counters_shoe_names_its_irc_when_the_running_count_cannot_follow_from_it():
    with pytest.raises(BjcalcError, match="initial_running_count -1"):
        CountShoe(shoe=TINY, tags=HI_LO, initial_running_count=-1)
    with pytest.raises(BjcalcError, match="initial_running_count"):
        CountShoe(shoe=TINY, tags=HI_LO, initial_running_count=True)


@pytest.mark.parametrize("cards", [None, 0])
def test_a_draw_or_a_card_seen_must_be_cards(cards):
    shoe = CountShoe(shoe=TINY, tags=HI_LO)
    with pytest.raises(BjcalcError, match="cards"):
        shoe.draw_probability(cards)
    with pytest.raises(BjcalcError, match="cards"):
        shoe.after(cards)
    assert shoe.draw_probability(()) == 1 and shoe.after("") == shoe  # no cards: as documented


def test_a_named_counters_shoe_refuses_a_system_that_is_not_a_name():
    with pytest.raises(BjcalcError, match="system"):
        CountShoe.named(None, shoe=TINY)


@pytest.mark.parametrize("fields, named", [
    (dict(system=1), "system"), (dict(system=""), "system"), (dict(shoe="zzz"), "shoe"),
    (dict(divisor=None), "divisor")])
def test_a_counter_refuses_what_it_is_not_made_of(fields, named):
    with pytest.raises(BjcalcError, match=named):
        Counter(**{"system": "hi-lo", "shoe": CountShoe(shoe=TINY, tags=HI_LO), **fields})
    assert Counter("hi-lo", CountShoe(shoe=TINY, tags=HI_LO), "half-deck").divisor is bjcalc.DeckEstimate.HALF_DECK


@pytest.mark.parametrize("fields, named", [
    (dict(full_shoe=6), "full_shoe"), (dict(full_shoe=()), "full_shoe"), (dict(hand=5), "hand"),
    (dict(hand="zzz"), "zzz"), (dict(running_count=True), "running count"), (dict(system=None), "system")])
def test_counter_of_refuses_before_any_work(fields, named):
    given = {"full_shoe": TINY, "system": "hi-lo", "tags": HI_LO, "cards_seen": 2, "running_count": 1, **fields}
    with pytest.raises(BjcalcError, match=named):
        Counter.of(**given)


def test_counter_of_reads_its_hand_as_text_too():
    counter = Counter.of(TINY, "hi-lo", HI_LO, cards_seen=2, running_count=0, hand="T,6")
    assert counter.shoe.hand == (bjcalc.Rank.TEN, bjcalc.Rank.SIX)


@pytest.mark.parametrize("function", [bjcalc.running_count_distribution, bjcalc.true_count_distribution])
@pytest.mark.parametrize("fields, named", [
    (dict(shoe=5), "shoe"), (dict(tags=None), "tags"), (dict(initial_running_count=math.inf), "inf"),
    (dict(initial_running_count="zzz"), "zzz"), (dict(initial_running_count=True), "initial_running_count"),
    (dict(initial_running_count=10 ** 100), "initial_running_count"),
    (dict(initial_running_count=2.5), "initial_running_count"), (dict(seen="zzz"), "seen")])
def test_the_count_distributions_refuse_before_any_work(function, fields, named):
    with pytest.raises(BjcalcError, match=named):
        function(**{"shoe": TINY, "tags": HI_LO, "seen": 2, **fields})


def test_a_true_count_distribution_refuses_an_irc_on_a_balanced_count_and_takes_it_on_ko():
    with pytest.raises(BjcalcError, match="initial_running_count"):
        bjcalc.true_count_distribution(TINY, HI_LO, 2, initial_running_count=-1)
    assert sum(bjcalc.true_count_distribution(TINY, KO, 2, initial_running_count=-1).values()) == 1


# -- roundcards.py and placement.py: where rounds start ------------------------------------------


@pytest.mark.parametrize("seats", [0, -1, True, 10 ** 100, 2.5, None])
def test_cards_per_round_and_the_placement_refuse_a_seat_count_before_any_work(rules, chart, seats):
    start = time.perf_counter()
    with pytest.raises(BjcalcError, match="seats"):
        bjcalc.cards_per_round(rules, chart, seats)
    with pytest.raises(BjcalcError, match="seats"):
        bjcalc.round_start_states(rules, chart, HI_LO, 6, seats=seats)
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("chart_", [None, "zzz", 0])
def test_cards_per_round_refuses_what_is_not_a_chart(rules, chart_):
    with pytest.raises(BjcalcError, match="chart"):
        bjcalc.cards_per_round(rules, chart_)


@pytest.mark.parametrize("fields, named", [
    (dict(cut=0), "cut"), (dict(cut=-1), "cut"), (dict(cut=10 ** 100), "cut"), (dict(cut=True), "cut"),
    (dict(exact=0), "exact"), (dict(exact="no"), "exact"), (dict(irc=-1), "irc"), (dict(irc=math.inf), "inf"),
    (dict(irc=None), "irc"), (dict(wong=()), "wong"), (dict(wong=(1, 2, 3)), "wong")])
def test_the_placement_refuses_before_any_work(rules, chart, fields, named):
    start = time.perf_counter()
    with pytest.raises(BjcalcError, match=named):
        bjcalc.round_start_states(**{"rules": rules, "chart": chart, "tags": HI_LO, "cut": 6, **fields})
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("fields, named", [
    (dict(cards=0), "cards"), (dict(cards="zzz"), "cards"), (dict(cut=0), "cut"), (dict(cut=math.nan), "cut"),
    (dict(cut=2.5), "cut"), (dict(per_round=0), "per_round"), (dict(per_round=-1), "per_round"),
    (dict(per_round=math.inf), "per_round"), (dict(per_round=2.5), "per_round"),
    (dict(per_round=10 ** 100), "per_round")])
def test_spaced_round_starts_refuse_what_would_loop_for_ever(fields, named):
    with pytest.raises(BjcalcError, match=named):
        bjcalc.round_starts(**{"cards": 17, "cut": 8, "per_round": 5.0, **fields})


# -- truecount.py: the analysis ------------------------------------------------------------------


@pytest.mark.parametrize("fields, named", [
    (dict(system=None), "system"), (dict(system=""), "system"), (dict(convention=0), "convention"),
    (dict(convention="zzz"), "convention"), (dict(irc=True), "irc"), (dict(irc=2.5), "irc"),
    (dict(bankroll="zzz"), "bankroll"), (dict(bankroll=math.inf), "bankroll"), (dict(bankroll=True), "bankroll"),
    (dict(bankroll=10 ** 100), "bankroll"), (dict(batch=True), "batch"), (dict(batch=2.5), "batch"),
    (dict(optimal_spread=True), "optimal spread"), (dict(penetrations=""), "penetrations"),
    (dict(penetrations=(0.9,)), "penetrations"), (dict(penetrations=(math.nan,)), "penetrations"),
    (dict(tail=None), "tail"), (dict(tail="zzz"), "tail"), (dict(wong_in=10 ** 100), "wong_in"),
    (dict(wong_out=-(10 ** 100)), "wong_out"), (dict(indices="zzz"), "indices"), (dict(exact="no"), "exact")])
def test_truecount_analysis_refuses_before_any_work(rules, fields, named):
    assert callable(bjcalc.truecount_analysis)  # (its module imported before the clock starts)
    start = time.perf_counter()
    with pytest.raises(BjcalcError, match=named):
        bjcalc.truecount_analysis(**{"rules": rules, "system": "hi-lo", "tags": HI_LO,
                                     "penetration": Fraction(3, 10), "workers": 1, **fields})
    assert time.perf_counter() - start < 1
