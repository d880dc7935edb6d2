"""Every rule of :class:`~bjcalc.rules.Rules` declared once: its command-line flags, its words in
the rules line, its one-rule variants (``bjcalc effects``) and its JSON schema entry. The
command line, :func:`bjcalc.render.common.rules_line`, :func:`bjcalc.report.one_rule_changes` and the
rules block of docs/bjcalc.schema.json are made from :data:`DECLARED_RULES`; the engine gives
each rule its meaning.

>>> [flag.spelling for flag in declared("hit_soft_17").flags]
['--h17/--s17']
>>> rules_from_flags(Rules(decks=6), {"hit_soft_17": True, "charlie": 5}, "mine").charlie
5
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from bjcalc.arguments import checked
from bjcalc.errors import InvalidArgumentError, InvalidRulesError
from bjcalc.rules import (
    BLACKJACK_TAKES,
    FEWEST_CARDS,
    MAX_DECKS,
    MOST_CARDS,
    Doubling,
    HoleCard,
    Loss,
    Rules,
    Surrender,
    check_rules,
    parse_payout,
)
from bjcalc.shoe import Shoe

Changes = dict[str, Any]  # Rules field -> new value
Variant = tuple[str, Changes]  # a one-rule change in words, and the fields it sets


@dataclasses.dataclass(frozen=True, kw_only=True)
class Flag:
    """One command-line option of a rule, without click (the command line makes the option).

    ``spelling`` is click's (``"--charlie"``, or a pair ``"--h17/--s17"``: a switch), ``dest``
    the keyword the command receives (a Rules field unless ``read`` says otherwise). ``read``
    turns the value given into the fields it sets (default: ``{dest: value}``), refusing a bad
    one with the flag's name; ``refuses`` names a contradiction among the flags given, and
    ``check`` one between the flag and the rules it ends in (``source(field)`` says what set that
    field: a flag, or the game)."""

    spelling: str
    dest: str
    help: str | None = None
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    whole: bool = False  # an integer option
    read: Callable[[Any], Changes] | None = None
    refuses: Callable[[Mapping[str, Any]], str | None] | None = None
    check: Callable[[Any, Rules, Callable[[str], str]], str | None] | None = None

    @property
    def switch(self) -> bool:
        return "/" in self.spelling

    def spelled(self, value: Any) -> str:
        """The flag as typed: ``--peek``, ``--no-peek``, ``--charlie 5``."""
        if self.switch:
            on, off = self.spelling.split("/")
            return on if value else off
        return f"{self.spelling} {value}"

    def changes(self, value: Any) -> Changes:
        return self.read(value) if self.read is not None else {self.dest: value}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Rule:
    """A field of :class:`~bjcalc.rules.Rules` and everything outside the engine that follows
    from it: its ``flags``; its ``words`` in the rules line (``None``: no words of its own, as
    for a rule that another's words cover, or the shoe, which the line words first); its
    one-rule ``variants`` for ``bjcalc effects`` given the game's rules; its JSON ``schema``."""

    field: str
    flags: tuple[Flag, ...] = ()
    words: Callable[[Rules], str | None] = lambda rules: None
    variants: Callable[[Rules], list[Variant]] = lambda rules: []
    schema: Mapping[str, Any]


def _switch(field: str, spelling: str, help: str) -> Flag:
    return Flag(spelling=spelling, dest=field, help=help)


def _flip(field: str, to_true: str, to_false: str, when: Callable[[Rules], bool] = lambda rules: True
          ) -> Callable[[Rules], list[Variant]]:
    """The variant that turns a yes/no rule the other way (``when`` it matters)."""
    def variants(rules: Rules) -> list[Variant]:
        on = getattr(rules, field)
        return [(to_false if on else to_true, {field: not on})] if when(rules) else []
    return variants


def _decks(text: str) -> Changes:
    """``--decks``: a whole number, or ``inf`` for the infinite deck."""
    if text.strip().lower() in ("inf", "infinite", "infinity"):
        return {"decks": math.inf, "shoe": None}
    try:
        return {"decks": int(text), "shoe": None}  # Rules checks the range and names the field
    except ValueError:
        raise InvalidRulesError(
            f"--decks must be a whole number from 1 to {MAX_DECKS} or inf (the infinite deck), not {text!r}"
        ) from None


def _one_shoe(given: Mapping[str, Any]) -> str | None:
    if given.get("decks") is None or given.get("shoe_text") is None:
        return None
    return f"give --decks or --shoe, not both (--decks {given['decks']}, --shoe {given['shoe_text']!r})"


def _deck_variants(rules: Rules) -> list[Variant]:
    if rules.decks is None:
        return []
    was = "an infinite deck" if rules.infinite else rules.decks
    return [(f"{decks} deck{'s' if decks > 1 else ''} instead of {was}", {"decks": decks})
            for decks in (1, 2, 6, 8) if decks != rules.decks]


def _cards(option: str, *fields: str) -> Callable[[int], Changes]:
    """A card-count option (``--charlie``, the card limits): 0 means none."""
    def read(value: int) -> Changes:
        if value != 0 and not FEWEST_CARDS <= value <= MOST_CARDS:
            raise InvalidRulesError(
                f"{option} must be 0 (none) or a whole number from {FEWEST_CARDS} to {MOST_CARDS}, not {value}"
            )
        return dict.fromkeys(fields, value or None)
    return read


def _both_limits(given: Mapping[str, Any]) -> str | None:
    """``--max-cards`` with ``--player-max-cards`` or ``--dealer-max-cards``."""
    for flag in (_PLAYER_LIMIT, _DEALER_LIMIT):
        if given.get("max_cards") is not None and given.get(flag.dest) is not None:
            return (f"{_MAX_CARDS.spelled(given['max_cards'])} and {flag.spelled(given[flag.dest])} contradict "
                    "each other: --max-cards sets both card limits")
    return None


def _takes_needs_no_peek(value: str, rules: Rules, source: Callable[[str], str]) -> str | None:
    if not rules.peek:
        return None
    return (f"--bj-takes {value} and {source('hole_card')} contradict each other: a peeking dealer's blackjack "
            "ends the round before any double or split")


def _takes_variants(rules: Rules) -> list[Variant]:
    if rules.peek:
        return []
    return [(f"no hole card, dealer blackjack takes {name}", {"blackjack_takes": takes})
            for name, takes in BLACKJACK_TAKES.items() if takes != rules.blackjack_takes]


def _split_variants(rules: Rules) -> list[Variant]:
    if rules.split_hands == 2:
        return [("resplit to 4 hands", {"split_hands": 4})]
    if rules.split_hands > 2:
        return [("no resplitting (2 hands)", {"split_hands": 2, "resplit_aces": False})]
    return []


def _card_limit_words(rules: Rules) -> str | None:
    if not (rules.player_max_cards or rules.dealer_max_cards):
        return None
    return f"max cards: player {rules.player_max_cards or '-'}, dealer {rules.dealer_max_cards or '-'}"


_MAX_CARDS = Flag(spelling="--max-cards", dest="max_cards", whole=True,
                  help="Cards after which a hand stands, player and dealer (0 = no limit).",
                  read=_cards("--max-cards", "player_max_cards", "dealer_max_cards"), refuses=_both_limits)
_PLAYER_LIMIT = Flag(spelling="--player-max-cards", dest="player_max_cards", whole=True,
                     help="Cards after which the player's hand stands (0 = no limit).",
                     read=_cards("--player-max-cards", "player_max_cards"))
_DEALER_LIMIT = Flag(spelling="--dealer-max-cards", dest="dealer_max_cards", whole=True,
                     help="Cards after which the dealer's hand stands (0 = no limit).",
                     read=_cards("--dealer-max-cards", "dealer_max_cards"))

_BOOLEAN = {"type": "boolean"}
_CARD_COUNT = {"type": ["integer", "null"]}
_TEN_COUNTS = {"minItems": 10, "maxItems": 10}

DECLARED_RULES: tuple[Rule, ...] = (
    Rule(
        field="decks",
        flags=(Flag(spelling="--decks", dest="decks", metavar="N|inf", read=_decks,
                    help="Number of decks, or inf: the infinite deck (every card drawn with replacement)."),),
        variants=_deck_variants,  # words: the shoe comes first in the rules line (render.common.shoe_words)
        schema={"description": "Whole decks, \"inf\" for the infinite deck, or null when the shoe is given by its "
                "counts.", "anyOf": [{"type": ["integer", "null"]}, {"const": "inf"}]},
    ),
    Rule(
        field="shoe",
        flags=(Flag(spelling="--shoe", dest="shoe_text", metavar="COUNTS",
                    help="Ten comma-separated counts A..T of the shoe before the deal.",
                    read=lambda text: {"shoe": Shoe.parse(text).counts, "decks": None}, refuses=_one_shoe),),
        schema={"type": ["array", "null"], "items": {"type": "integer"}, **_TEN_COUNTS},
    ),
    Rule(
        field="hit_soft_17",
        flags=(_switch("hit_soft_17", "--h17/--s17", "Dealer hits / stands on soft 17."),),
        words=lambda rules: "H17" if rules.hit_soft_17 else "S17",
        variants=_flip("hit_soft_17", "dealer hits soft 17", "dealer stands on soft 17"),
        schema=_BOOLEAN,
    ),
    Rule(
        field="blackjack_pays",
        flags=(Flag(spelling="--bj-pays", dest="bj_pays", metavar="A:B", help="Blackjack payout, e.g. 3:2, 6:5.",
                    read=lambda text: {"blackjack_pays": parse_payout(text, "--bj-pays")}),),
        words=lambda rules: f"BJ pays {rules.blackjack_pays.numerator}:{rules.blackjack_pays.denominator}",
        variants=lambda rules: [("blackjack pays 6:5 instead of 3:2", {"blackjack_pays": Fraction(6, 5)})
                                if rules.blackjack_pays == Fraction(3, 2)
                                else ("blackjack pays 3:2", {"blackjack_pays": Fraction(3, 2)})],
        schema={"type": "string", "pattern": "^[0-9]+:[0-9]+$"},
    ),
    Rule(
        field="double",
        flags=(Flag(spelling="--double", dest="double", choices=tuple(d.value for d in Doubling),
                    help="Which two-card hands may double."),),
        words=lambda rules: f"double {rules.double.value}",
        variants=lambda rules: [("double on 10-11 only", {"double": Doubling.TEN_TO_ELEVEN})
                                if rules.double is Doubling.ANY
                                else ("double on any two cards", {"double": Doubling.ANY})],
        schema={"enum": [d.value for d in Doubling]},
    ),
    Rule(
        field="double_soft",
        flags=(_switch("double_soft", "--soft-double/--no-soft-double", "Whether soft hands may double."),),
        words=lambda rules: None if rules.double_soft else "hard hands only",  # after "double any"
        schema=_BOOLEAN,
    ),
    Rule(
        field="double_after_split",
        flags=(_switch("double_after_split", "--das/--no-das", "Double after split."),),
        words=lambda rules: "DAS" if rules.double_after_split else "no DAS",
        variants=_flip("double_after_split", "double after split", "no double after split",
                       when=lambda rules: rules.split_hands > 1),
        schema=_BOOLEAN,
    ),
    Rule(
        field="split_hands",
        flags=(Flag(spelling="--split-hands", dest="split_hands", whole=True,
                    help="Most hands from splitting (1 = no splitting)."),),
        words=lambda rules: f"split to {rules.split_hands} hands" if rules.split_hands > 1 else "no splitting",
        variants=_split_variants,
        schema={"type": "integer"},
    ),
    Rule(
        field="resplit_aces",
        flags=(_switch("resplit_aces", "--resplit-aces/--no-resplit-aces", "Resplit aces."),),
        words=lambda rules: "RSA" if rules.split_hands > 1 and rules.resplit_aces else None,
        variants=_flip("resplit_aces", "resplit aces", "no resplitting aces", when=lambda rules: rules.split_hands > 2),
        schema=_BOOLEAN,
    ),
    Rule(
        field="hit_split_aces",
        flags=(_switch("hit_split_aces", "--hit-split-aces/--no-hit-split-aces",
                       "Hit split aces (otherwise one card each)."),),
        words=lambda rules: "HSA" if rules.split_hands > 1 and rules.hit_split_aces else None,
        variants=_flip("hit_split_aces", "hit split aces", "one card to split aces",
                       when=lambda rules: rules.split_hands > 1),
        schema=_BOOLEAN,
    ),
    Rule(
        field="split_unlike_tens",
        flags=(_switch("split_unlike_tens", "--unlike-tens/--no-unlike-tens", "Split unlike ten-valued cards (J-Q)."),),
        words=lambda rules: "same-face tens only" if rules.split_hands > 1 and not rules.split_unlike_tens else None,
        schema=_BOOLEAN,
    ),
    Rule(
        field="surrender",
        flags=(Flag(spelling="--surrender", dest="surrender", choices=tuple(s.value for s in Surrender)),),
        words=lambda rules: None if rules.surrender is Surrender.NONE else f"{rules.surrender.value} surrender",
        variants=lambda rules: [("late surrender", {"surrender": Surrender.LATE}) if rules.surrender is Surrender.NONE
                                else ("no surrender", {"surrender": Surrender.NONE})],
        schema={"enum": [s.value for s in Surrender]},
    ),
    Rule(
        field="insurance",  # no words, no variant: insurance is never taken in the round's EV
        flags=(_switch("insurance", "--insurance/--no-insurance", "Insurance offered."),),
        schema=_BOOLEAN,
    ),
    Rule(
        field="hole_card",
        flags=(Flag(spelling="--peek/--no-peek", dest="peek", help="Dealer peeks under A and T / no hole card.",
                    read=lambda peek: {"hole_card": HoleCard.PEEK if peek else HoleCard.NONE}),),
        words=lambda rules: "peek" if rules.peek else f"no hole card (BJ takes {rules.blackjack_takes.name})",
        variants=lambda rules: [("no hole card (dealer blackjack takes all bets)",
                                 {"hole_card": HoleCard.NONE, "blackjack_takes": BLACKJACK_TAKES["all"]})
                                if rules.peek else
                                ("peeking dealer instead of no hole card", {"hole_card": HoleCard.PEEK})],
        schema={"enum": [h.value for h in HoleCard]},
    ),
    Rule(
        field="blackjack_takes",  # words: with the hole card's
        flags=(Flag(spelling="--bj-takes", dest="blackjack_takes", choices=tuple(BLACKJACK_TAKES),
                    help="No hole card: what a dealer blackjack takes of doubles and splits "
                    "(all; original bet only; live = doubles v A all, v T original, splits all).",
                    check=_takes_needs_no_peek),),
        variants=_takes_variants,
        schema={"type": "object",
                "properties": {name: {"enum": [loss.value for loss in Loss]}
                               for name in (f.name for f in dataclasses.fields(BLACKJACK_TAKES["all"]))},
                "required": [f.name for f in dataclasses.fields(BLACKJACK_TAKES["all"])],
                "additionalProperties": False},
    ),
    Rule(
        field="charlie",
        flags=(Flag(spelling="--charlie", dest="charlie", whole=True, help="N-card Charlie (0 = none).",
                    read=_cards("--charlie", "charlie")),),
        words=lambda rules: f"{rules.charlie}-card charlie" if rules.charlie else None,
        variants=lambda rules: [] if rules.charlie is None
        else [(f"no {rules.charlie}-card charlie", {"charlie": None})],
        schema=_CARD_COUNT,
    ),
    Rule(
        field="player_max_cards",  # with --max-cards, both limits; words and variant: the card limit
        flags=(_MAX_CARDS, _PLAYER_LIMIT),
        words=_card_limit_words,
        variants=lambda rules: [] if rules.player_max_cards is None and rules.dealer_max_cards is None
        else [("no card limit", {"player_max_cards": None, "dealer_max_cards": None})],
        schema=_CARD_COUNT,
    ),
    Rule(
        field="dealer_max_cards",  # words and variant: with the player's
        flags=(_DEALER_LIMIT,),
        schema=_CARD_COUNT,
    ),
)


def declared(field: str) -> Rule:
    """The declaration of the Rules field ``field``."""
    for rule in DECLARED_RULES:
        if rule.field == field:
            return rule
    raise KeyError(field)


class UnknownFlagError(InvalidArgumentError, TypeError):
    """A key of :func:`rules_from_flags`'s ``given`` that no rule declares: a
    :class:`~bjcalc.errors.BjcalcError` as every bad input's, and still the ``TypeError`` it
    was before."""


@checked
def rule_flags(rules: tuple[Rule, ...] = DECLARED_RULES) -> list[Flag]:
    """Every rule's flags, in declaration order (the order of the command line's options)."""
    return _flags(rules)


def _flags(rules: tuple[Rule, ...]) -> list[Flag]:
    return [flag for rule in rules for flag in rule.flags]


@checked
def rules_from_flags(base: Rules, given: Mapping[str, Any], game: str,
                     rules: tuple[Rule, ...] = DECLARED_RULES) -> Rules:
    """``base`` (the rules of the game called ``game``) with every flag of ``given`` (dest ->
    value; ``None``: not given) applied. A bad value or two flags that contradict each other
    raise :class:`~bjcalc.errors.InvalidRulesError` naming them."""
    check_rules(base, "base")
    if not game.strip():
        raise InvalidArgumentError(f"rules_from_flags: game must name the game the base rules are, not {game!r}")
    flags = _flags(rules)
    unknown = set(given) - {flag.dest for flag in flags}
    if unknown:
        raise UnknownFlagError(f"not a rule flag: {', '.join(sorted(map(repr, unknown)))}")
    for flag in flags:
        problem = flag.refuses(given) if flag.refuses is not None else None
        if problem is not None:
            raise InvalidRulesError(problem)
    set_by = [flag for flag in flags if given.get(flag.dest) is not None]
    changes: Changes = {}
    for flag in set_by:
        changes.update(flag.changes(given[flag.dest]))
    result = base.replace(**changes)

    def source(field: str) -> str:
        for flag in reversed(set_by):
            if field in flag.changes(given[flag.dest]):
                return flag.spelled(given[flag.dest])
        return f"the game ({game})"

    for flag in set_by:
        problem = flag.check(given[flag.dest], result, source) if flag.check is not None else None
        if problem is not None:
            raise InvalidRulesError(problem)
    return result


def rules_words(rules: Rules) -> list[str]:
    """The rules line's words after the shoe, one part per rule that has words."""
    return [words for rule in DECLARED_RULES if (words := rule.words(rules)) is not None]


def one_rule_variants(rules: Rules) -> list[Variant]:
    """Each rule's one-rule changes of ``rules``, in declaration order."""
    return [variant for rule in DECLARED_RULES for variant in rule.variants(rules)]


def rules_schema() -> dict[str, Any]:
    """The JSON schema of the rules block (:meth:`Rules.to_dict`), as docs/bjcalc.schema.json
    holds it under ``$defs/rules``."""
    properties = {rule.field: dict(rule.schema) for rule in DECLARED_RULES}
    properties["shoe_counts"] = {"type": "array", "items": {"type": "integer", "minimum": 0}, **_TEN_COUNTS}
    return {
        "description": "The rules block (Rules.to_dict()): how every rule is read is docs/model.md.",
        "type": "object",
        "propertyNames": {"$ref": "#/$defs/key"},
        "properties": properties,
        "required": list(properties),
    }


def schema_text(text: str) -> str:
    """docs/bjcalc.schema.json's ``text`` with its rules block made from the declarations. To
    regenerate the file after declaring a rule::

        python3 -c "import pathlib, bjcalc.ruleset as r; p = pathlib.Path('docs/bjcalc.schema.json'); \\
        p.write_text(r.schema_text(p.read_text()))"
    """
    import json

    schema = json.loads(text)
    schema["$defs"]["rules"] = rules_schema()
    return json.dumps(schema, indent=2) + "\n"
