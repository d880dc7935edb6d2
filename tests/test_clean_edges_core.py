"""Issue 45, "clean edges", the core library's refusals (rules, shoes, the analysis, charts,
reports, the rule flags, side bets, count systems and spreads): a bad value raises a
:class:`bjcalc.BjcalcError` naming the parameter or the value, before any work; never a
TypeError or AttributeError, never silently taken. Grouped by module. The generated sweep
(tests/test_bad_input_sweep.py, slow) tries every parameter; these are its kinds, kept in CI.
"""

import json
from fractions import Fraction

import pytest

from bjcalc import (
    Analysis,
    BjcalcError,
    BlackjackTakes,
    CountSystem,
    Rules,
    Shoe,
    Spread,
    build_report,
    load_chart,
    perfect_pairs,
    rule_flags,
    rules_from_flags,
    side_bets,
    twenty_one_plus_three,
)
from bjcalc.games.sidebets import SuitedShoe

TINY = (1, 1, 1, 1, 1, 1, 1, 1, 1, 8)  # 17 cards: any analysis of it finishes at once
HI_LO = tuple(map(Fraction, (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)))  # A first


@pytest.fixture(scope="module")
def analysis():
    return Analysis(Rules(shoe=TINY))


# -- rules.py ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [True, 0, "", "zzz", None, ()])
def test_blackjack_takes_holds_each_field_to_a_loss(value):
    with pytest.raises(BjcalcError, match="doubles_vs_ten must be one of 'all', 'original'"):
        BlackjackTakes(doubles_vs_ten=value)
    assert BlackjackTakes(splits_vs_ace="original") == BlackjackTakes(splits_vs_ace="original")  # its text is read


@pytest.mark.parametrize("value", [None, 0, 2.5, True, object()])
def test_rules_without_refuses_what_is_not_cards(value):
    with pytest.raises(BjcalcError, match="cards must be text such as 'A,T,5'"):
        Rules(shoe=TINY).without(value)


# -- shoe.py ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("decks, message", [(0, "decks must be from 1 to"), (True, "decks must be a whole number"),
                                            (2.5, "decks must be a whole number"), (None, "decks"),
                                            (10 ** 100, "decks must be from 1 to")])
def test_shoe_of_decks_takes_a_number_of_decks(decks, message):
    with pytest.raises(BjcalcError, match=message):
        Shoe.of_decks(decks)


@pytest.mark.parametrize("value", [None, 3, (), 2.5])
def test_shoe_and_its_text_refuse_other_kinds(value):
    with pytest.raises(BjcalcError, match="Shoe.parse reads text"):
        Shoe.parse(value)
    with pytest.raises(BjcalcError, match="a shoe is ten counts"):
        Shoe(value)
    assert Shoe(list(TINY)) == Shoe(TINY)  # a list of counts is kept as a tuple


# -- analysis.py ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 1, "no", None])
def test_dealer_peeked_is_a_flag(analysis, value):
    with pytest.raises(BjcalcError, match="peeked must be True or False"):
        analysis.dealer("6", peeked=value)


@pytest.mark.parametrize("value", ["", 0, None])
def test_removed_cards_are_cards_not_a_falsy_value(analysis, value):
    with pytest.raises(BjcalcError, match="removed"):
        analysis.dealer("6", removed=value)
    with pytest.raises(BjcalcError, match="removed"):
        analysis.insurance("A", removed=value)
    assert analysis.dealer("6", removed=()) == analysis.dealer("6")  # none removed


@pytest.mark.parametrize("value", [True, "zzz", 3.5, object()])
def test_deviations_optimal_must_be_a_chart(analysis, value):
    with pytest.raises(BjcalcError, match="optimal must be a bjcalc Chart"):
        analysis.deviations(analysis.chart(), value)


@pytest.mark.parametrize("value, message", [(0, "ups: cards must be"), (True, "ups: cards must be"),
                                            ("", "ups: no cards"), ("zzz", "ups: unknown card 'z' in 'zzz'"),
                                            ((), "ups must name at least one up card")])
def test_plays_ups_are_up_cards(analysis, value, message):
    with pytest.raises(BjcalcError, match=message):
        analysis.plays(value)
    assert analysis.plays("T") == analysis.plays(["T"])  # text is read as cards


# -- chart.py, report.py, ruleset.py ---------------------------------------------------------------


def test_load_chart_names_its_argument_and_stays_a_type_error(analysis):
    rules = Rules(shoe=TINY)
    with pytest.raises(BjcalcError, match="chart's contents") as error:
        load_chart(rules, 3)
    assert isinstance(error.value, TypeError)  # as before issue 45: except TypeError still catches it
    with pytest.raises(BjcalcError, match="text is ''"):
        load_chart(rules, "")
    with pytest.raises(BjcalcError, match="name must be its file's name"):
        load_chart(rules, json.dumps(analysis.chart().to_dict()), "")


@pytest.mark.parametrize("arguments, message", [
    ({"title": None}, "title must be text"), ({"title": ""}, "title must name the game"),
    ({"assumed": "zzz"}, "assumed must be a sequence of text"), ({"assumed": None}, "assumed must be")])
def test_build_report_checks_its_arguments_first(arguments, message):
    with pytest.raises(BjcalcError, match=message):
        build_report(**{"title": "t", "rules": Rules(shoe=TINY), **arguments})


def test_rule_flags_and_rules_from_flags_check_their_arguments():
    base = Rules(decks=1)
    for value in ("zzz", 3, None):
        with pytest.raises(BjcalcError, match="rules must be a sequence of Rules"):
            rule_flags(value)
    with pytest.raises(BjcalcError, match="given must be a mapping"):
        rules_from_flags(base, (), "mine")
    with pytest.raises(BjcalcError, match="game must"):
        rules_from_flags(base, {}, "")
    with pytest.raises(BjcalcError, match="game must be text"):
        rules_from_flags(base, {}, None)
    with pytest.raises(BjcalcError, match="not a rule flag: 'fake'"):
        rules_from_flags(base, {"fake": True}, "mine")


# -- games/sidebets.py -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, "", (), True, 2.5])
def test_a_pay_table_is_a_mapping_or_none(value):
    shoe = SuitedShoe.of_decks(1)
    for bet in (perfect_pairs, twenty_one_plus_three):
        with pytest.raises(BjcalcError, match="pays must be a mapping"):
            bet(shoe, value)


@pytest.mark.parametrize("pay", [True, float("inf"), 10 ** 9])
def test_a_pay_is_a_finite_number_in_range(pay):
    with pytest.raises(BjcalcError, match="pay for 'perfect'"):
        perfect_pairs(SuitedShoe.of_decks(1), {"perfect": pay})


def test_side_bets_check_their_arguments_before_dealing():
    with pytest.raises(BjcalcError, match="decks must be at most"):
        side_bets(10 ** 100)
    with pytest.raises(BjcalcError, match="removed must be text"):
        side_bets(1, None)
    with pytest.raises(BjcalcError, match="pp_pays must be a mapping"):
        side_bets(1, "", 0)
    with pytest.raises(BjcalcError, match="tto_pays must be a mapping"):
        side_bets(1, "", None, ())


# -- counting/systems.py, counting/spread.py -------------------------------------------------------


@pytest.mark.parametrize("name, tags, message", [
    (None, HI_LO, "name must be text"), ("", HI_LO, "name must name the count"),
    ("mine", None, "tags must be a sequence of numbers"), ("mine", "zzz", "tags must be a sequence"),
    ("mine", HI_LO[:9], "tags must be ten numbers"), ("mine", HI_LO[:9] + (float("nan"),), "tags must be")])
def test_count_system_checks_its_name_and_tags(name, tags, message):
    with pytest.raises(BjcalcError, match=message):
        CountSystem(name, tags)


@pytest.mark.parametrize("value", [None, 3, (), 2.5])
def test_count_system_named_takes_a_name(value):
    with pytest.raises(BjcalcError, match="name must be text"):
        CountSystem.named(value)
    assert CountSystem("mine", list(HI_LO)).tags == HI_LO  # a list of tags is kept as a tuple


@pytest.mark.parametrize("steps, message", [
    (None, "steps must be a sequence"), ((), "steps must be a sequence"), ("zzz", "steps must be a sequence"),
    (((None, None, "1"),), "the bet must be a number"), (((None, None, float("inf")),), "the bet must be a number"),
    (((None, None, 10 ** 9),), "a bet is from 0 to"), (((None, 1.5, 1), (2, None, 2)), "a true count must be whole"),
    (((None, 0, 1), (2, None, 2)), "leaves a gap"), (((None, None, 0),), "never bets")])
def test_spread_steps_are_checked(steps, message):
    with pytest.raises(BjcalcError, match=message):
        Spread(steps)
    assert Spread(((None, 0, 1), (1, None, 2))).bet(Fraction(5)) == 2
