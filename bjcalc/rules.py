"""The rules of a game: one frozen, keyword-only, validated value.

>>> r = Rules(decks=6, surrender=Surrender.LATE)
>>> r.shoe_counts
(24, 24, 24, 24, 24, 24, 24, 24, 24, 96)
>>> Rules(decks=0)
Traceback (most recent call last):
...
bjcalc.errors.InvalidRulesError: decks must be a whole number from 1 to 1000000 or inf (infinite deck), not 0
"""

from __future__ import annotations

import dataclasses
import enum
import math
import numbers
from collections.abc import Iterable
from fractions import Fraction

from bjcalc.cards import Rank, as_cards
from bjcalc.errors import CardNotInShoeError, InvalidCardError, InvalidRulesError


class Doubling(str, enum.Enum):
    """Which two-card hands may double."""

    ANY = "any"
    NINE_TO_ELEVEN = "9-11"
    TEN_TO_ELEVEN = "10-11"
    NONE = "none"

    def allows_total(self, total: int) -> bool:
        return {
            Doubling.ANY: True,
            Doubling.NINE_TO_ELEVEN: 9 <= total <= 11,
            Doubling.TEN_TO_ELEVEN: 10 <= total <= 11,
            Doubling.NONE: False,
        }[self]


class Surrender(str, enum.Enum):
    NONE = "none"
    LATE = "late"
    EARLY = "early"


class HoleCard(str, enum.Enum):
    """``PEEK``: the dealer checks under an A or T up. ``NONE``: no hole card (European)."""

    PEEK = "peek"
    NONE = "none"


class Loss(str, enum.Enum):
    """What a no-hole-card dealer blackjack does to an extra (double or split) bet."""

    ALL = "all"
    ORIGINAL = "original"


@dataclasses.dataclass(frozen=True, kw_only=True)
class BlackjackTakes:
    """No-hole-card policy: which extra bets a dealer blackjack takes, per bet type and up card.

    ``ALL`` (every bet lost, classic ENHC), ``ORIGINAL`` (only the original bet, extra bets
    returned: equivalent to a peeking dealer) and ``LIVE`` (doubles lost against an ace-up
    blackjack but returned against a ten-up one; split bets lost) are the named policies.
    """

    doubles_vs_ace: Loss = Loss.ALL
    doubles_vs_ten: Loss = Loss.ALL
    splits_vs_ace: Loss = Loss.ALL
    splits_vs_ten: Loss = Loss.ALL

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):  # each a Loss, or its text ("all", "original")
            value = getattr(self, field.name)
            try:
                if not isinstance(value, str):
                    raise ValueError
                object.__setattr__(self, field.name, Loss(value))
            except ValueError:
                choices = ", ".join(repr(loss.value) for loss in Loss)
                raise InvalidRulesError(f"{field.name} must be one of {choices}, not {value!r}") from None

    def doubles(self, up: int) -> Loss:
        return self.doubles_vs_ace if up == 0 else self.doubles_vs_ten

    def splits(self, up: int) -> Loss:
        return self.splits_vs_ace if up == 0 else self.splits_vs_ten

    @property
    def name(self) -> str:
        for name, policy in BLACKJACK_TAKES.items():
            if policy == self:
                return name
        return (
            f"doubles v A {self.doubles_vs_ace.value}, v T {self.doubles_vs_ten.value}; "
            f"splits v A {self.splits_vs_ace.value}, v T {self.splits_vs_ten.value}"
        )

    @property
    def in_words(self) -> str:
        """What the policy takes, in words.

        >>> for part in BLACKJACK_TAKES["live"].in_words.split("; "):
        ...     print(part)
        a double loses both bets to an ace-up blackjack, only the original bet to a ten-up one
        a split loses every hand
        """
        words = []
        for extra, every, vs_ace, vs_ten in (("a double", "both bets", self.doubles_vs_ace, self.doubles_vs_ten),
                                             ("a split", "every hand", self.splits_vs_ace, self.splits_vs_ten)):
            taken = {Loss.ALL: every, Loss.ORIGINAL: "only the original bet"}
            words.append(f"{extra} loses {taken[vs_ace]}" if vs_ace == vs_ten else
                         f"{extra} loses {taken[vs_ace]} to an ace-up blackjack, {taken[vs_ten]} to a ten-up one")
        return "; ".join(words)


BLACKJACK_TAKES = {
    "all": BlackjackTakes(),
    "original": BlackjackTakes(
        doubles_vs_ace=Loss.ORIGINAL,
        doubles_vs_ten=Loss.ORIGINAL,
        splits_vs_ace=Loss.ORIGINAL,
        splits_vs_ten=Loss.ORIGINAL,
    ),
    "live": BlackjackTakes(doubles_vs_ten=Loss.ORIGINAL),
}


def _infinite(value: object) -> bool:
    """``math.inf`` or its spellings: ``"inf"``, ``"infinite"``."""
    if isinstance(value, str):
        return value.strip().lower() in ("inf", "infinite", "infinity")
    return isinstance(value, float) and value == math.inf


def _whole(value: object) -> bool:
    """A whole number: an int, or any integral type such as numpy's, but not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


MAX_DECKS = 1_000_000
MAX_CARDS = 52 * MAX_DECKS  # below engine.residues.EXACT_CARD_LIMIT, where exact residues stay in int64
MAX_PAYOUT = 1000  # to 1: a blackjack or side-bet payout above this is a typing error
FEWEST_CARDS, MOST_CARDS = 3, 99  # card limits and Charlie (2 would mean no hand ever draws)


def plain_number(text: str) -> Fraction:
    """A number as a pay table writes it: ``9``, ``2.5`` or ``3/2``; ``ValueError`` for
    anything else (``1e999`` is a typing error, not a pay) and for a zero denominator.

    >>> plain_number("3/2"), plain_number("2.5")
    (Fraction(3, 2), Fraction(5, 2))
    """
    import re

    if not re.fullmatch(r"\d+(\.\d+)?(/\d*[1-9]\d*)?", text):
        raise ValueError(text)
    return Fraction(text)



def check_rules(rules: object, name: str = "rules") -> None:
    """Refuse a ``rules`` argument that is not a :class:`Rules` (before any work is done on it)."""
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"{name} must be a bjcalc.Rules, not {rules!r}")


def parse_payout(value: object, name: str) -> Fraction:
    """A payout "to 1" as people write it: ``3:2``, ``6:5``, ``3/2``, ``1.5``, ``2`` (or a
    number). It must be above 0 and at most :data:`MAX_PAYOUT`; ``name`` is the field the error
    names.

    >>> parse_payout("6:5", "blackjack_pays")
    Fraction(6, 5)
    >>> parse_payout("0:1", "blackjack_pays")
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidRulesError: blackjack_pays must be above 0 and at most 1000 (to 1), not '0:1'
    """
    import re

    try:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, str):
            match = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", value)
            payout = plain_number(f"{match.group(1)}/{match.group(2)}" if match else value.strip())
        elif isinstance(value, float):
            payout = Fraction(str(value))  # 1.2 means 6/5, not the binary float near it
        else:
            payout = Fraction(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise InvalidRulesError(
            f"{name} must be a payout like 3:2, 6:5 or 1.5, not {value!r}"
        ) from None
    if not 0 < payout <= MAX_PAYOUT:
        raise InvalidRulesError(f"{name} must be above 0 and at most {MAX_PAYOUT} (to 1), not {value!r}")
    return payout


_VOCABULARIES: dict[object, type[enum.Enum]] = {"Doubling": Doubling, "Surrender": Surrender, "HoleCard": HoleCard}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Rules:
    """A rule set and the shoe it is dealt from.

    The shoe is ``decks`` standard decks (8 when neither is given) or ``shoe``, the ten counts
    (A..T) explicitly: give one or the other. ``decks=math.inf`` (or ``"inf"``) is the infinite
    deck: every card is drawn with replacement, a rank with probability 1/13 (tens 4/13).
    Every field is checked on construction, its type
    too, and a bad value raises :class:`~bjcalc.errors.InvalidRulesError` naming the field.
    ``blackjack_pays`` may be written as people do (``"6:5"``). ``blackjack_takes`` matters
    only with no hole card. Each field has its declaration in :data:`bjcalc.ruleset.DECLARED_RULES`
    (its command-line flags, its words, its one-rule variants, its JSON schema).
    """

    decks: int | float | None = None  # a whole number, or math.inf
    shoe: tuple[int, ...] | None = None
    hit_soft_17: bool = False
    blackjack_pays: Fraction = Fraction(3, 2)
    double: Doubling = Doubling.ANY
    double_soft: bool = True
    double_after_split: bool = True
    split_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    split_unlike_tens: bool = True
    surrender: Surrender = Surrender.NONE
    insurance: bool = True
    hole_card: HoleCard = HoleCard.PEEK
    blackjack_takes: BlackjackTakes = BlackjackTakes()
    charlie: int | None = None
    player_max_cards: int | None = None
    dealer_max_cards: int | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        fields = dataclasses.fields(self)  # the annotation says which are yes/no rules and which enums
        for name, enum_type in ((f.name, _VOCABULARIES[f.type]) for f in fields if f.type in _VOCABULARIES):
            value = getattr(self, name)
            try:
                set_(self, name, enum_type(value))
            except (ValueError, TypeError):
                choices = ", ".join(repr(e.value) for e in enum_type)
                raise InvalidRulesError(f"{name} must be one of {choices}, not {value!r}") from None
        if not isinstance(self.blackjack_takes, BlackjackTakes):
            if not isinstance(self.blackjack_takes, str) or self.blackjack_takes not in BLACKJACK_TAKES:
                raise InvalidRulesError(
                    f"blackjack_takes must be one of {', '.join(map(repr, BLACKJACK_TAKES))} "
                    f"or a BlackjackTakes, not {self.blackjack_takes!r}"
                )
            set_(self, "blackjack_takes", BLACKJACK_TAKES[self.blackjack_takes])
        for name in (f.name for f in fields if f.type == "bool"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise InvalidRulesError(f"{name} must be True or False, not {value!r}")
        self._check_shoe()
        set_(self, "blackjack_pays", parse_payout(self.blackjack_pays, "blackjack_pays"))
        if not _whole(self.split_hands) or not 1 <= self.split_hands <= 16:
            raise InvalidRulesError(
                f"split_hands must be a whole number from 1 to 16 (1 = no splitting), not {self.split_hands!r}"
            )
        for name in ("charlie", "player_max_cards", "dealer_max_cards"):
            value = getattr(self, name)
            if value is not None and (not _whole(value) or not FEWEST_CARDS <= value <= MOST_CARDS):
                raise InvalidRulesError(
                    f"{name} must be a whole number from {FEWEST_CARDS} to {MOST_CARDS} (or None), not {value!r}"
                )
        for name in ("split_hands", "charlie", "player_max_cards", "dealer_max_cards"):
            if getattr(self, name) is not None:  # plain ints (numpy's would not go into JSON)
                set_(self, name, int(getattr(self, name)))
        self._check_combinations()

    def _check_shoe(self) -> None:
        if self.shoe is not None:
            if self.decks is not None:
                raise InvalidRulesError(
                    f"give decks or shoe, not both (decks={self.decks!r}, shoe={self.shoe!r})"
                )
            if isinstance(self.shoe, (str, bytes)) or not hasattr(self.shoe, "__len__"):
                raise InvalidRulesError(f"shoe must be ten card counts A..T, not {self.shoe!r}")
            shoe = tuple(self.shoe)
            if len(shoe) != 10 or not all(_whole(n) and n >= 0 for n in shoe):  # type: ignore[operator]
                raise InvalidRulesError(
                    f"shoe must be ten card counts A..T, each a whole number >= 0, not {self.shoe!r}"
                )
            if sum(shoe) == 0:
                raise InvalidRulesError(f"shoe must hold at least one card, not {self.shoe!r}")
            if sum(shoe) > MAX_CARDS:
                raise InvalidRulesError(f"shoe must hold at most {MAX_CARDS} cards, not {sum(shoe)}")
            object.__setattr__(self, "shoe", tuple(int(n) for n in shoe))  # type: ignore[call-overload]
            return
        if self.decks is None:
            object.__setattr__(self, "decks", 8)
        elif _infinite(self.decks):
            object.__setattr__(self, "decks", math.inf)
        elif not _whole(self.decks) or not 1 <= self.decks <= MAX_DECKS:
            raise InvalidRulesError(
                f"decks must be a whole number from 1 to {MAX_DECKS} or inf (infinite deck), not {self.decks!r}"
            )
        else:
            object.__setattr__(self, "decks", int(self.decks))

    def _check_combinations(self) -> None:
        tens = self.shoe_counts[9]
        if not self.split_unlike_tens and self.split_hands > 1 and tens % 4:
            # same-face pairs are modelled with the four faces (10, J, Q, K) equally many
            raise InvalidRulesError(
                f"split_unlike_tens=False needs the ten-valued cards in four equal faces "
                f"(10, J, Q, K): the shoe has {tens} ten-valued cards, not a multiple of 4"
            )
        if self.resplit_aces and self.split_hands < 3:
            raise InvalidRulesError(
                f"resplit_aces needs split_hands >= 3, not split_hands={self.split_hands}"
            )
        if self.hit_split_aces and self.split_hands < 2:
            raise InvalidRulesError("hit_split_aces needs splitting (split_hands >= 2)")
        if (
            self.charlie is not None
            and self.player_max_cards is not None
            and self.charlie > self.player_max_cards
        ):
            raise InvalidRulesError(
                f"charlie ({self.charlie}) can never happen with player_max_cards="
                f"{self.player_max_cards}"
            )

    @property
    def infinite(self) -> bool:
        """Cards drawn with replacement (``decks=math.inf``)."""
        return self.decks == math.inf

    @property
    def shoe_counts(self) -> tuple[int, ...]:
        """The ten counts (A..T) of the shoe before the deal; for the infinite deck, the
        composition every draw is made from: one of each rank per 13 cards, four tens."""
        if self.shoe is not None:
            return self.shoe
        if self.infinite:
            return (1,) * 9 + (4,)
        assert self.decks is not None
        decks = int(self.decks)
        return (4 * decks,) * 9 + (16 * decks,)

    @property
    def peek(self) -> bool:
        return self.hole_card is HoleCard.PEEK

    def doubles(self, total: int, soft: bool) -> bool:
        """Whether a two-card hand of this total (and softness) may double."""
        return self.double.allows_total(total) and (self.double_soft or not soft)

    def replace(self, **changes: object) -> Rules:
        """A copy with some fields changed (validated again)."""
        if "shoe" in changes and changes["shoe"] is not None:
            changes.setdefault("decks", None)
        if "decks" in changes and changes["decks"] is not None:
            changes.setdefault("shoe", None)
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def without(self, cards: str | Iterable[Rank | str | int]) -> Rules:
        """The same rules on the shoe with ``cards`` (text such as ``"A,T,5"`` or a sequence of
        cards) already seen and gone: a depleted shoe, given by its counts.

        >>> Rules(decks=1).without("A,T,T").shoe_counts
        (3, 4, 4, 4, 4, 4, 4, 4, 4, 14)
        """
        if not isinstance(cards, (str, Iterable)):
            raise InvalidCardError(f"cards must be text such as 'A,T,5' or a sequence of cards, not {cards!r}")
        seen = as_cards(cards if isinstance(cards, str) else tuple(cards))
        if self.infinite and seen:
            raise InvalidRulesError("an infinite deck has no seen cards: cards are drawn with replacement")
        counts = list(self.shoe_counts)
        for card in seen:
            if counts[card.index] == 0:
                raise CardNotInShoeError(
                    f"card {str(card)!r} is not in the shoe ({','.join(map(str, counts))} left of "
                    f"{','.join(map(str, self.shoe_counts))})"
                )
            counts[card.index] -= 1
        if sum(counts) == 0:
            raise InvalidRulesError("removed cards leave no card in the shoe")
        return self.replace(shoe=tuple(counts))

    def to_dict(self) -> dict[str, object]:
        """The rules as plain JSON values (enums by value, the payout as ``"3:2"``), with the
        shoe's ten counts as ``shoe_counts``.

        >>> Rules(decks=1).to_dict()["blackjack_pays"]
        '3:2'
        """
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, Fraction):
                value = f"{value.numerator}:{value.denominator}"
            elif isinstance(value, BlackjackTakes):
                value = {k: v.value for k, v in dataclasses.asdict(value).items()}
            elif isinstance(value, tuple):
                value = list(value)
            elif value == math.inf:
                value = "inf"  # JSON has no infinity
            out[field.name] = value
        out["shoe_counts"] = list(self.shoe_counts)
        return out

    def describe(self) -> list[tuple[str, str]]:
        """The rules as (name, value) rows for printing."""
        if self.infinite:
            shoe = "infinite deck"
        elif self.decks:
            shoe = f"{self.decks} deck{'s' if self.decks != 1 else ''}"
        else:
            shoe = "counts A..T " + ",".join(map(str, self.shoe_counts))
        rows = [
            ("shoe", shoe),
            ("dealer soft 17", "hits (H17)" if self.hit_soft_17 else "stands (S17)"),
            ("blackjack pays", f"{self.blackjack_pays.numerator}:{self.blackjack_pays.denominator}"),
            ("double on", self.double.value + ("" if self.double_soft else ", hard hands only")),
            ("double after split", "yes" if self.double_after_split else "no"),
            ("split to", f"{self.split_hands} hands" if self.split_hands > 1 else "no splitting"),
            ("resplit aces", "yes" if self.resplit_aces else "no"),
            ("split aces", "may hit" if self.hit_split_aces else "one card each"),
            ("split unlike tens", "yes" if self.split_unlike_tens else "no"),
            ("surrender", self.surrender.value),
            ("insurance", "offered" if self.insurance else "not offered"),
            ("hole card", "dealer peeks under A and T" if self.peek else "no hole card"),
        ]
        if not self.peek:
            takes = self.blackjack_takes
            named = takes.name in BLACKJACK_TAKES
            rows.append(("dealer blackjack takes", f"{takes.name}: {takes.in_words}" if named else takes.in_words))
        if self.charlie:
            rows.append(("charlie", f"{self.charlie} cards"))
        if self.player_max_cards or self.dealer_max_cards:
            rows.append(
                ("card limit", f"player {self.player_max_cards or '-'}, dealer {self.dealer_max_cards or '-'}")
            )
        return rows
