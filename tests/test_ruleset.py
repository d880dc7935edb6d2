"""A rule is one declaration (bjcalc/ruleset.py): every Rules field has exactly one, and the
command line's rule options, the rules line, the one-rule changes of ``bjcalc effects`` and the
rules block of docs/bjcalc.schema.json are the declared ones. Expected texts are written out
here, not produced by the code under test."""

import dataclasses
import pathlib
from fractions import Fraction

import click
import pytest
from click.testing import CliRunner

from bjcalc import DECLARED_RULES, Flag, InvalidRulesError, Rule, Rules, rule_flags, rules_from_flags
from bjcalc.cli import cli
from bjcalc.cli.common import _click_option
from bjcalc.render.common import rules_line
from bjcalc.report import one_rule_changes
from bjcalc.ruleset import rules_schema, schema_text

SCHEMA_FILE = pathlib.Path(__file__).resolve().parent.parent / "docs" / "bjcalc.schema.json"
REGENERATE = ("python3 -c \"import pathlib, bjcalc.ruleset as r; p = pathlib.Path('docs/bjcalc.schema.json'); "
              "p.write_text(r.schema_text(p.read_text()))\"")


def _spelling(option: click.Option) -> str:
    return "/".join([*option.opts, *option.secondary_opts])


def test_every_rules_field_has_exactly_one_declaration_in_field_order():
    assert [rule.field for rule in DECLARED_RULES] == [field.name for field in dataclasses.fields(Rules)]


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Rules) if f.type == "bool"])
def test_every_yes_no_rule_is_checked_from_its_annotation(field):
    with pytest.raises(InvalidRulesError, match=f"^{field} must be True or False, not 1$"):
        Rules(**{field: 1})


def test_every_flag_is_declared_once():
    flags = rule_flags()
    assert len({flag.dest for flag in flags}) == len(flags)
    assert len({flag.spelling for flag in flags}) == len(flags)


COMMANDS_WITH_RULES = ["dealer", "hand", "chart", "edge", "sidebets", "betbehind", "report", "effects", "matrix"]


@pytest.mark.parametrize("name", [*COMMANDS_WITH_RULES, "eor", "count"])
def test_the_commands_rule_options_are_the_declared_flags(name):
    params = [p for p in cli.commands[name].params if isinstance(p, click.Option)]
    start = next(i for i, p in enumerate(params) if p.name == "game_name")
    flags = [flag for flag in rule_flags() if name in COMMANDS_WITH_RULES or flag.dest != "insurance"]
    options = params[start + 1:start + 1 + len(flags)]
    assert [_spelling(o) for o in options] == [flag.spelling for flag in flags]
    assert [o.name for o in options] == [flag.dest for flag in flags]
    for option, flag in zip(options, flags):
        assert option.default is None and option.help == flag.help
        if flag.choices is not None:
            assert isinstance(option.type, click.Choice) and tuple(option.type.choices) == flag.choices
        elif flag.whole:
            assert option.type is click.INT
    # and no other option of the command is a rule's (eor's and count's --insurance is insurance_row)
    rest = {o.name for o in params if o not in options}
    assert not rest & {flag.dest for flag in rule_flags()}


def test_a_few_options_as_written_before_the_declarations():
    options = {o.name: o for o in cli.commands["hand"].params}
    assert _spelling(options["hit_soft_17"]) == "--h17/--s17"
    assert _spelling(options["peek"]) == "--peek/--no-peek"
    assert _spelling(options["max_cards"]) == "--max-cards"
    assert options["split_hands"].type is click.INT
    assert list(options["double"].type.choices) == ["any", "9-11", "10-11", "none"]
    assert list(options["blackjack_takes"].type.choices) == ["all", "original", "live"]


def test_a_new_declaration_makes_a_flag_that_sets_its_field():
    fake = Rule(field="hit_soft_17",
                flags=(Flag(spelling="--dealer-hits-soft/--dealer-stands-soft", dest="fake",
                            help="A fake flag.", read=lambda on: {"hit_soft_17": on}),),
                schema={"type": "boolean"})
    declared = (*DECLARED_RULES, fake)
    assert rule_flags(declared)[-1].spelling == "--dealer-hits-soft/--dealer-stands-soft"

    @click.command()
    @_click_option(rule_flags(declared)[-1])
    def command(fake):
        click.echo(rules_from_flags(Rules(decks=1), {"fake": fake}, "test", declared).hit_soft_17)

    assert "--dealer-hits-soft / --dealer-stands-soft" in CliRunner().invoke(command, ["--help"]).output
    assert CliRunner().invoke(command, ["--dealer-hits-soft"]).output == "True\n"
    assert CliRunner().invoke(command, []).output == "False\n"
    with pytest.raises(TypeError, match="fake"):
        rules_from_flags(Rules(decks=1), {"fake": True}, "test")  # not declared: no such flag


def test_flags_given_set_their_fields():
    base = Rules(decks=8)
    rules = rules_from_flags(base, {"decks": "inf", "bj_pays": "6:5", "peek": False, "blackjack_takes": "original",
                                    "max_cards": 7, "charlie": 0, "split_hands": 2}, "g")
    assert rules.infinite and rules.blackjack_pays == Fraction(6, 5) and not rules.peek
    assert rules.blackjack_takes.name == "original"
    assert (rules.player_max_cards, rules.dealer_max_cards, rules.charlie, rules.split_hands) == (7, 7, None, 2)
    assert rules_from_flags(base, {"shoe_text": "1,1,1,1,1,1,1,1,1,4"}, "g").shoe_counts == (1,) * 9 + (4,)
    assert rules_from_flags(base, {"hit_soft_17": None}, "g") == base


@pytest.mark.parametrize("given, message", [
    ({"decks": "2", "shoe_text": "4,4,4,4,4,4,4,4,4,16"},
     "give --decks or --shoe, not both (--decks 2, --shoe '4,4,4,4,4,4,4,4,4,16')"),
    ({"max_cards": 5, "dealer_max_cards": 6},
     "--max-cards 5 and --dealer-max-cards 6 contradict each other: --max-cards sets both card limits"),
    ({"charlie": 2}, "--charlie must be 0 (none) or a whole number from 3 to 99, not 2"),
    ({"blackjack_takes": "all"},
     "--bj-takes all and the game (g) contradict each other: a peeking dealer's blackjack ends the round"),
    ({"blackjack_takes": "all", "peek": True}, "--bj-takes all and --peek contradict each other"),
    ({"decks": "six"}, "--decks must be a whole number from 1 to 1000000 or inf (the infinite deck), not 'six'"),
])
def test_bad_flags_are_refused_naming_them(given, message):
    with pytest.raises(InvalidRulesError) as error:
        rules_from_flags(Rules(decks=8), given, "g")
    assert str(error.value).startswith(message)


def test_the_rules_line_words_every_rule():
    assert rules_line(Rules(decks=6, surrender="late")) == (
        "6 decks, S17, BJ pays 3:2, double any, DAS, split to 4 hands, late surrender, peek")
    rules = Rules(decks=2, hit_soft_17=True, blackjack_pays="6:5", double="10-11", double_soft=False,
                  double_after_split=False, split_hands=3, resplit_aces=True, hit_split_aces=True,
                  split_unlike_tens=False, surrender="early", insurance=False, hole_card="none",
                  blackjack_takes="live", charlie=6, player_max_cards=7)
    assert rules_line(rules, ()) == (
        "2 decks, H17, BJ pays 6:5, double 10-11, hard hands only, no DAS, split to 3 hands, RSA, HSA, "
        "same-face tens only, early surrender, no hole card (BJ takes live), 6-card charlie, "
        "max cards: player 7, dealer -")
    assert rules_line(rules.replace(split_hands=1, resplit_aces=False, hit_split_aces=False)).startswith(
        "2 decks, H17, BJ pays 6:5, double 10-11, hard hands only, no DAS, no splitting, early surrender")


def test_the_one_rule_changes_of_a_game():
    rules = Rules(decks=1, split_hands=3, hole_card="none", blackjack_takes="live", dealer_max_cards=9)
    changes = one_rule_changes(rules)
    assert [words for words, _ in changes] == [
        "2 decks instead of 1", "6 decks instead of 1", "8 decks instead of 1", "dealer hits soft 17",
        "blackjack pays 6:5 instead of 3:2", "double on 10-11 only", "no double after split",
        "no resplitting (2 hands)", "resplit aces", "hit split aces", "late surrender",
        "peeking dealer instead of no hole card", "no hole card, dealer blackjack takes all",
        "no hole card, dealer blackjack takes original", "no card limit"]
    changed = {words: {f.name for f in dataclasses.fields(Rules) if getattr(r, f.name) != getattr(rules, f.name)}
               for words, r in changes}
    assert changed["no resplitting (2 hands)"] == {"split_hands"}  # resplit_aces was already off
    assert changed["no card limit"] == {"dealer_max_cards"}
    assert changed["2 decks instead of 1"] == {"decks"}


def test_the_schema_file_holds_the_declared_rules_block():
    assert schema_text(SCHEMA_FILE.read_text()) == SCHEMA_FILE.read_text(), f"regenerate it: {REGENERATE}"
    block = rules_schema()
    assert list(block["properties"]) == [*(rule.field for rule in DECLARED_RULES), "shoe_counts"]
    assert block["required"] == list(block["properties"])
    assert set(Rules(decks=1).to_dict()) == set(block["properties"])
