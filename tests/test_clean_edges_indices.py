"""Issue 45, "clean edges": the index numbers, insurance and count-measure functions refuse a bad
value with a :class:`bjcalc.BjcalcError` naming the parameter or the value, before any work
(the sweep, tests/test_bad_input_sweep.py, tries every parameter; these are its kinds, one or two
a module, in the regular suite)."""

import time
from fractions import Fraction

import pytest

import bjcalc
from bjcalc import Action, BjcalcError, Convention, DeckEstimate, HandTotal, IndexPlay, Rank, Rounding

TINY = (1, 1, 1, 1, 1, 1, 1, 1, 1, 8)  # 17 cards: any analysis of it finishes at once
HI_LO = (1, 1, 1, 1, 1, 0, 0, 0, -1, -1)  # tags A, 2..T as the shoe orders them


def _refused(call, *words):
    """``call()`` raises a BjcalcError, quickly, whose message holds every one of ``words``."""
    start = time.perf_counter()
    with pytest.raises(BjcalcError) as raised:
        call()
    assert time.perf_counter() - start < 5, "refused only after the work"
    for word in words:
        assert word in str(raised.value), str(raised.value)


# -- bjcalc.counting.indices: IndexPlay, Convention, index_table --------------------------------------


def _play(**change):
    fields = dict(hand=(Rank.TEN, Rank.SIX), up=Rank.TEN, play=Action.STAND, instead=(Action.HIT,))
    return IndexPlay(**{**fields, **change})


@pytest.mark.parametrize("change, words", [
    ({"hand": "T,6"}, ("hand", "'T,6'")),
    ({"hand": ()}, ("hand",)),
    ({"up": "T"}, ("up", "'T'")),
    ({"play": None}, ("play", "None")),
    ({"instead": ()}, ("instead",)),
    ({"instead": (Action.STAND,)}, ("instead", "stand")),
    ({"published": True}, ("published", "True")),
    ({"published": 10 ** 100}, ("published",)),
    ({"group": None}, ("group", "None")),
])
def test_an_index_play_holds_its_fields_to_their_kinds(change, words):
    _refused(lambda: _play(**change), *words)


def test_an_index_play_of_the_common_list_is_still_made():
    assert _play(published=-1).name == "T,6 v T stand"
    assert bjcalc.play_from_text("16 v T stand hit").hand == HandTotal(16)


def test_a_convention_takes_its_words_and_refuses_others():
    assert Convention("half-deck", "round") == Convention(DeckEstimate.HALF_DECK, Rounding.ROUND)
    _refused(lambda: Convention("zzz"), "divisor", "'zzz'")
    _refused(lambda: Convention(rounding=None), "rounding", "None")


@pytest.mark.parametrize("change, words", [
    ({"insurance": "no"}, ("insurance", "'no'")),
    ({"convention": 0}, ("convention", "0")),
    ({"system": ""}, ("system",)),
    ({"cards_seen": 2.5}, ("cards_seen", "2.5")),
    ({"plays": (), "insurance": False}, ("plays", "nothing to index")),
])
def test_index_table_refuses_a_bad_value_before_the_work(change, words):
    arguments = dict(rules=bjcalc.Rules(shoe=TINY), system="hi-lo", tags=HI_LO, cards_seen=2,
                     plays=("16 v T stand hit",), workers=1)
    _refused(lambda: bjcalc.index_table(**{**arguments, **change}), *words)


# -- bjcalc.counting.indexgrid and shoeindex: all_indices, shoe_index_table -----------------------------


@pytest.mark.parametrize("change, words", [
    ({"system": None}, ("system", "None")),
    ({"likely": True}, ("likely", "True")),
    ({"insurance": 1}, ("insurance", "1")),
])
def test_all_indices_refuses_a_bad_value_before_the_work(change, words):
    arguments = dict(rules=bjcalc.Rules(shoe=(1,) * 9 + (12,)), system="hi-lo", tags=HI_LO, cards_seen=2, workers=1)
    _refused(lambda: bjcalc.all_indices(**{**arguments, **change}), *words)


@pytest.mark.parametrize("change, words", [
    ({"seats": 10 ** 100}, ("seats",)),
    ({"seats": 0}, ("seats", "0")),
    ({"batch": True}, ("batch", "True")),
    ({"batch": 10 ** 100}, ("batch",)),
    ({"convention": ""}, ("convention",)),
    ({"insurance": None}, ("insurance", "None")),
])
def test_shoe_index_table_refuses_a_bad_value_before_the_work(change, words):
    arguments = dict(rules=bjcalc.Rules(shoe=TINY), system="hi-lo", tags=HI_LO, penetration=Fraction(1, 2),
                     plays=("16 v T stand hit",), store=None, workers=1)
    _refused(lambda: bjcalc.shoe_index_table(**{**arguments, **change}), *words)


# -- bjcalc.counting.insurance ---------------------------------------------------------------------


@pytest.mark.parametrize("call, words", [
    (lambda: bjcalc.insurance_index(TINY, HI_LO, None, 10), ("hand", "None")),
    (lambda: bjcalc.insurance_index(TINY, HI_LO, "", 10, float("nan")), ("initial_running_count", "nan")),
    (lambda: bjcalc.insurance_index(TINY, HI_LO, "", 10, 10 ** 100), ("initial running count",)),
    (lambda: bjcalc.insurance_index(None, HI_LO, "", 10), ("shoe", "None")),
    (lambda: bjcalc.best_insurance_index(TINY, HI_LO, "", 10), ("cards_left", "10")),
    (lambda: bjcalc.best_insurance_index(TINY, HI_LO, "", (10,), "zzz"), ("initial running count", "'zzz'")),
    (lambda: bjcalc.insurance_table(TINY, HI_LO, 0), ("hand", "0")),
    (lambda: bjcalc.insurance_table(TINY, HI_LO, "", system=""), ("system",)),
])
def test_insurance_indices_refuse_a_bad_value(call, words):
    _refused(call, *words)


def test_an_insurance_index_of_the_ace_alone_is_still_made():
    assert bjcalc.insurance_index(TINY, HI_LO, (), 10).cards_left == 10
    assert bjcalc.insurance_table(TINY, HI_LO, "", initial_running_count="0").rows


# -- bjcalc.counting.plays: HandTotal, insurance_effects ----------------------------------------------


@pytest.mark.parametrize("value, soft, words", [
    (21, False, ("value", "21")), (4, False, ("value", "4")), (12, True, ("value", "12")),
    (True, False, ("value", "True")), (16, 1, ("soft", "1")), (16, "no", ("soft", "'no'")),
])
def test_a_hand_total_is_one_a_play_can_have(value, soft, words):
    _refused(lambda: HandTotal(value, soft), *words)


def test_insurance_effects_refuses_cards_that_are_not_cards():
    _refused(lambda: bjcalc.insurance_effects(bjcalc.Rules(shoe=TINY), None), "cards", "None")


# -- bjcalc.counting.eor and measures ----------------------------------------------------------------


def test_eor_table_refuses_a_play_given_as_bare_text_and_a_word_for_a_flag():
    rules = bjcalc.Rules(shoe=TINY)
    _refused(lambda: bjcalc.eor_table(rules, plays="16 v T stand hit", workers=1), "plays")
    _refused(lambda: bjcalc.eor_table(rules, insurance="no", workers=1), "insurance", "'no'")
    _refused(lambda: bjcalc.count_table(rules, ("hi-lo",), playing_efficiency="no", workers=1),
             "playing_efficiency", "'no'")


def test_count_measures_refuse_what_they_cannot_measure():
    rules = bjcalc.Rules(shoe=TINY)
    system = bjcalc.CountSystem.named("hi-lo")
    eor = bjcalc.effects_of_removal(rules, "basic", workers=1)
    play = bjcalc.play_effects(rules, "T,2", "T", "stand", "hit", workers=1)
    _refused(lambda: bjcalc.count_figures(system, eor, depths=(1, 2)), "depths", "variations")
    _refused(lambda: bjcalc.count_figures("hi-lo", eor), "system", "'hi-lo'")
    _refused(lambda: bjcalc.play_index(system, "T,2 v T stand hit"), "play")
    _refused(lambda: bjcalc.exact_indices(rules, (), (play,), 2, workers=1), "systems")
    _refused(lambda: bjcalc.exact_indices(rules, (system,), (play,), None, workers=1), "cards_seen", "None")
