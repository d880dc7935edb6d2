"""Exact side bets on a suited shoe: Perfect Pairs (Player Pair) and 21+3.

Side bets see suits and tell ``T J Q K`` apart, so they use their own shoe,
:class:`SuitedShoe`: 13 ranks x 4 suits, counted per physical card. Every figure is an exact
count of unordered combinations of physical cards (two for Perfect Pairs, three for 21+3),
worked out by rank and suit with binomial coefficients rather than by listing hands, so an
8-deck shoe costs no more than a single deck.

>>> shoe = SuitedShoe.of_decks(8)
>>> result = perfect_pairs(shoe)
>>> result.categories["perfect"]
(1456, Fraction(7, 415), Fraction(25, 1))
>>> result.total_combinations, result.expected_return
(86320, Fraction(-17, 415))
>>> print(result.notation())
perfect pairs: perfect 25, coloured 12, mixed 6; return -4.0964 %
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb, prod
from typing import NamedTuple

from bjcalc.arguments import shown
from bjcalc.errors import (
    CardNotInShoeError,
    InvalidCardError,
    InvalidPayTableError,
    InvalidRulesError,
    InvalidShoeError,
)
from bjcalc.rules import MAX_DECKS, MAX_PAYOUT, plain_number

RANKS = "A23456789TJQK"
SUITS = "shdc"
RED_SUITS = frozenset({1, 2})  # hearts, diamonds
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ACE, KING = 0, 12

LOSE = "none"
PERFECT_PAIRS_CATEGORIES = ("perfect", "coloured", "mixed")
TWENTY_ONE_PLUS_THREE_CATEGORIES = (
    "suited_trips",
    "straight_flush",
    "three_of_a_kind",
    "straight",
    "flush",
)
PERFECT_PAIRS_PAYS: dict[str, Fraction] = {
    "perfect": Fraction(25),
    "coloured": Fraction(12),
    "mixed": Fraction(6),
}
TWENTY_ONE_PLUS_THREE_PAYS: dict[str, Fraction] = {
    "suited_trips": Fraction(100),
    "straight_flush": Fraction(40),
    "three_of_a_kind": Fraction(30),
    "straight": Fraction(10),
    "flush": Fraction(5),
}

# JSON keys (docs/json.md): snake_case, no spaces. The text keeps the names above.
BET_KEYS = {"perfect pairs": "perfect_pairs", "21+3": "twenty_one_plus_three"}
CATEGORY_KEYS = {"perfect": "perfect_pair", "coloured": "coloured_pair", "mixed": "mixed_pair"}

# Rank runs that make a 21+3 straight: A-2-3 up to J-Q-K, plus Q-K-A. K-A-2 does not wrap.
STRAIGHTS: tuple[tuple[int, int, int], ...] = tuple(
    (low, low + 1, low + 2) for low in range(KING - 1)
) + ((KING - 1, KING, ACE),)

_SUIT_ALIASES = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_CARD = re.compile(r"(10|[2-9TJQKA])([SHDC♠♥♦♣])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")

Pays = Mapping[str, Fraction | int | str]


class SuitedCard(NamedTuple):
    """One physical card: rank index ``0..12`` (``A 2 .. 9 T J Q K``), suit index ``0..3``
    (``s h d c``)."""

    rank: int
    suit: int

    @property
    def position(self) -> int:
        """Position in :attr:`SuitedShoe.counts`."""
        return 4 * self.rank + self.suit

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]


def parse_suited_card(text: str) -> SuitedCard:
    """Parse one card with its suit: ``Ah``, ``td``, ``10h``, ``KS``, ``Q♠``.

    >>> parse_suited_card("10h")
    SuitedCard(rank=9, suit=1)
    >>> str(parse_suited_card("qS"))
    'Qs'
    """
    match = _CARD.fullmatch(text.strip())
    if match is None:
        raise InvalidCardError(
            f"unknown card {text!r} (use a rank A 2-9 T J Q K, or 10, and a suit s h d c)"
        )
    rank, suit = match.groups()
    rank = "T" if rank == "10" else rank.upper()
    suit = _SUIT_ALIASES.get(suit, suit.lower())
    return SuitedCard(RANKS.index(rank), SUITS.index(suit))


def parse_suited_cards(text: str) -> tuple[SuitedCard, ...]:
    """Parse cards separated by spaces or commas, or run together: ``"Ah Kd 7c"``, ``"AhKd"``.

    >>> [str(card) for card in parse_suited_cards("Ah, 10d 7c9s")]
    ['Ah', 'Td', '7c', '9s']
    """
    cards: list[SuitedCard] = []
    for word in _SEPARATORS.split(text.strip()):
        if not word:
            continue
        position = 0
        for match in _CARD.finditer(word):
            if match.start() != position:
                break
            cards.append(parse_suited_card(match.group()))
            position = match.end()
        if position != len(word):
            raise InvalidCardError(f"unknown card {word[position:]!r} in {text!r}")
    if not cards:
        raise InvalidCardError(f"no cards in {text!r}")
    return tuple(cards)


def _as_cards(cards: str | SuitedCard | Iterable[str | SuitedCard]) -> list[SuitedCard]:
    if isinstance(cards, str):
        return list(parse_suited_cards(cards))
    if isinstance(cards, SuitedCard):
        return [cards]
    result: list[SuitedCard] = []
    for card in cards:
        if isinstance(card, SuitedCard):
            result.append(card)
        elif isinstance(card, str):
            result.extend(parse_suited_cards(card))
        else:
            raise InvalidCardError(f"unknown card {card!r} (use a string such as 'Ah')")
    return result


@dataclasses.dataclass(frozen=True)
class SuitedShoe:
    """How many of each physical card the shoe holds: 52 counts, rank-major
    (``As Ah Ad Ac 2s ... Kc``), as in :attr:`SuitedCard.position`.

    >>> shoe = SuitedShoe.of_decks(2).remove("Ah Kd 10h")
    >>> len(shoe), shoe.count("Ah"), shoe.count("Th"), shoe.count("As")
    (101, 1, 1, 2)
    >>> SuitedShoe.of_decks(1).remove("Ah Ah")
    Traceback (most recent call last):
    ...
    bjcalc.errors.CardNotInShoeError: card 'Ah' is not in the shoe (removing 'Ah Ah')
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        counts = self.counts
        if (
            not isinstance(counts, tuple)
            or len(counts) != 52
            or any(type(n) is not int or n < 0 for n in counts)
        ):
            raise InvalidShoeError(
                "a suited shoe is 52 whole-number counts >= 0 (As Ah Ad Ac 2s .. Kc), "
                f"not {counts!r}"
            )

    @classmethod
    def of_decks(cls, decks: int) -> SuitedShoe:
        """``decks`` full 52-card decks.

        >>> len(SuitedShoe.of_decks(6))
        312
        """
        if type(decks) is not int or decks < 1:
            raise InvalidShoeError(f"decks must be a positive whole number, not {shown(decks)}")
        if decks > MAX_DECKS:
            raise InvalidShoeError(f"decks must be at most {MAX_DECKS}, not {shown(decks)}")
        return cls((decks,) * 52)

    @classmethod
    def from_counts(cls, counts: Mapping[str, int] | Sequence[Sequence[int]]) -> SuitedShoe:
        """A shoe from explicit counts: either a mapping from card (``"Ah"``, ``"10h"``) to
        count, cards left out counting 0, or 13 rows (``A 2 .. 9 T J Q K``) of 4 counts
        (``s h d c``).

        >>> shoe = SuitedShoe.from_counts({"Ah": 2, "Kd": 1})
        >>> len(shoe), shoe.count("Ah")
        (3, 2)
        >>> SuitedShoe.from_counts([[1, 1, 1, 1]] * 13) == SuitedShoe.of_decks(1)
        True
        """
        values = [0] * 52
        if isinstance(counts, Mapping):
            for card, n in counts.items():
                if not isinstance(card, str):
                    raise InvalidCardError(f"unknown card {card!r} (use a string such as 'Ah')")
                if type(n) is not int or n < 0:
                    raise InvalidShoeError(
                        f"count of {card!r} must be a whole number >= 0, not {n!r}"
                    )
                values[parse_suited_card(card).position] += n
            return cls(tuple(values))
        if isinstance(counts, str) or len(counts) != 13 or any(
            isinstance(row, str) or not isinstance(row, Sequence) or len(row) != 4
            for row in counts
        ):
            raise InvalidShoeError(
                f"suited counts must be 13 rows (A..K) of 4 counts (s h d c), not {counts!r}"
            )
        return cls(tuple(n for row in counts for n in row))

    @classmethod
    def dealt_from(cls, decks: int, removed: str | Iterable[str | SuitedCard]) -> SuitedShoe:
        """``decks`` full decks less the cards already ``removed`` (``"Ah Kd 7c"``).

        >>> len(SuitedShoe.dealt_from(1, "Ah Kd 7c"))
        49
        """
        return cls.of_decks(decks).remove(removed)

    def __len__(self) -> int:
        return sum(self.counts)

    def count(self, card: str | SuitedCard) -> int:
        """How many copies of ``card`` the shoe holds."""
        if isinstance(card, str):
            card = parse_suited_card(card)
        return self.counts[card.position]

    def rank_suit_counts(self) -> tuple[tuple[int, int, int, int], ...]:
        """13 rows (``A .. K``) of 4 counts (``s h d c``)."""
        c = self.counts
        return tuple((c[i], c[i + 1], c[i + 2], c[i + 3]) for i in range(0, 52, 4))

    def remove(self, cards: str | SuitedCard | Iterable[str | SuitedCard]) -> SuitedShoe:
        """The shoe without ``cards``; :class:`CardNotInShoeError` if one is not there."""
        values = list(self.counts)
        for card in _as_cards(cards):
            if values[card.position] == 0:
                raise CardNotInShoeError(
                    f"card {str(card)!r} is not in the shoe (removing {_describe(cards)!r})"
                )
            values[card.position] -= 1
        return SuitedShoe(tuple(values))

    def cards(self) -> list[SuitedCard]:
        """Every physical card, one entry per copy (for brute-force checks)."""
        return [
            SuitedCard(index // 4, index % 4)
            for index, n in enumerate(self.counts)
            for _ in range(n)
        ]


def _describe(cards: object) -> str:
    if isinstance(cards, str):
        return cards
    if isinstance(cards, SuitedCard):
        return str(cards)
    if isinstance(cards, Iterable):
        return " ".join(str(card) for card in cards)
    return repr(cards)


@dataclasses.dataclass(frozen=True)
class SideBetResult:
    """Exact outcome of one side bet on one shoe.

    ``categories`` maps each category, best first and the losing ``"none"`` last, to
    ``(combinations, probability, payout)``: the number of unordered combinations of physical
    cards in it, its exact probability, and what it pays per unit bet (-1 for a loss).
    """

    name: str
    categories: dict[str, tuple[int | Fraction, Fraction, Fraction]]
    expected_return: Fraction
    total_combinations: int

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_return

    @property
    def key(self) -> str:
        """The bet's JSON key: ``"perfect_pairs"`` or ``"twenty_one_plus_three"``."""
        return BET_KEYS[self.name]

    @staticmethod
    def category_key(category: str) -> str:
        """A category's JSON key: ``"perfect_pair"`` for ``"perfect"``; the 21+3 names as they are.

        >>> SideBetResult.category_key("coloured"), SideBetResult.category_key("three_of_a_kind")
        ('coloured_pair', 'three_of_a_kind')
        """
        return CATEGORY_KEYS.get(category, category)

    def probability(self, category: str) -> Fraction:
        return self.categories[category][1]

    def notation(self) -> str:
        """One line: the pay table and the return in percent (4 decimals)."""
        pays = ", ".join(
            f"{name.replace('_', ' ')} {_number(payout)}"
            for name, (_, _, payout) in self.categories.items()
            if name != LOSE
        )
        return f"{self.name}: {pays}; return {float(self.expected_return) * 100:.4f} %"


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _normalise(name: str) -> str:
    key = re.sub(r"[\s\-]+", "_", name.strip().lower())
    return {"colored": "coloured", "trips": "three_of_a_kind"}.get(key, key)


def _pay_table(pays: Pays | None, defaults: Mapping[str, Fraction], what: str = "pays") -> dict[str, Fraction]:
    """``defaults`` with ``pays`` (category -> pay "to 1") applied; ``what``: the parameter
    an error names."""
    table = dict(defaults)
    if pays is None:
        return table
    if not isinstance(pays, Mapping):
        raise InvalidPayTableError(f"{what} must be a mapping of category to pay (or None), not {shown(pays)}")
    for name, value in pays.items():
        key = _normalise(name) if isinstance(name, str) else name
        if key not in table:
            raise InvalidPayTableError(
                f"unknown pay category {name!r} (use {', '.join(defaults)})"
            )
        try:
            if isinstance(value, bool):
                raise TypeError
            payout = Fraction(value)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            raise InvalidPayTableError(f"pay for {name!r} must be a number, not {shown(value)}") from None
        if payout < 0:
            raise InvalidPayTableError(f"pay for {name!r} must be >= 0, not {shown(value)}")
        if payout > MAX_PAYOUT:
            raise InvalidPayTableError(f"pay for {name!r} must be at most {MAX_PAYOUT} (to 1), not {shown(value)}")
        table[key] = payout
    return table


def parse_pays(text: str, names: Sequence[str]) -> dict[str, Fraction]:
    """Parse a pay table, "to 1", for the categories ``names`` (best first).

    Three forms: values in the order of ``names`` separated by ``/`` (``"25/12/6"``); named
    values (``"perfect=25,coloured=12,mixed=6"``, any subset); or a single value that every
    category pays (``"9"``). A value may be a fraction (``"3/2"`` only in the named form).

    >>> parse_pays("25/12/6", PERFECT_PAIRS_CATEGORIES)
    {'perfect': Fraction(25, 1), 'coloured': Fraction(12, 1), 'mixed': Fraction(6, 1)}
    >>> parse_pays("colored=10", PERFECT_PAIRS_CATEGORIES)
    {'coloured': Fraction(10, 1)}
    >>> parse_pays("25/12", PERFECT_PAIRS_CATEGORIES)
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidPayTableError: pay table '25/12' needs 1 or 3 values (perfect/coloured/mixed)
    """
    known = [_normalise(name) for name in names]
    source = text.strip()

    def number(value: str, name: str) -> Fraction:
        written = value.strip()
        try:
            payout = plain_number(written)
        except ValueError:
            raise InvalidPayTableError(
                f"pay for {name!r} must be a number like 9, 2.5 or 3/2, not {written!r} in {text!r}"
            ) from None
        if payout > MAX_PAYOUT:
            raise InvalidPayTableError(
                f"pay for {name!r} must be at most {MAX_PAYOUT} (to 1), not {written!r}"
            )
        return payout

    if "=" in source:
        table: dict[str, Fraction] = {}
        for field in filter(None, (f.strip() for f in re.split(r"[,;]", source))):
            name, sep, value = field.partition("=")
            key = _normalise(name)
            if not sep or key not in known:
                raise InvalidPayTableError(
                    f"unknown pay category {name.strip()!r} in {text!r} (use {', '.join(known)})"
                )
            table[key] = number(value, key)
        return table
    values = [v for v in source.split("/")] if source else []
    if len(values) == 1:
        return {name: number(values[0], name) for name in known}
    if len(values) != len(known):
        raise InvalidPayTableError(
            f"pay table {text!r} needs 1 or {len(known)} values ({'/'.join(known)})"
        )
    return {name: number(value, name) for name, value in zip(known, values)}


def _result(
    name: str, counts: dict[str, int], total: int, pays: Mapping[str, Fraction]
) -> SideBetResult:
    categories: dict[str, tuple[int | Fraction, Fraction, Fraction]] = {}
    for category, n in counts.items():
        payout = pays[category] if category != LOSE else Fraction(-1)
        categories[category] = (n, Fraction(n, total), payout)
    expected = sum((p * pay for _, p, pay in categories.values()), Fraction(0))
    return SideBetResult(name, categories, expected, total)


def _check_shoe(shoe: SuitedShoe, cards: int, bet: str) -> None:
    if not isinstance(shoe, SuitedShoe):
        raise InvalidShoeError(f"{bet} needs a SuitedShoe, not {shoe!r}")
    if len(shoe) < cards:
        raise InvalidShoeError(
            f"{bet} needs at least {cards} cards in the shoe, not {len(shoe)}"
        )


def perfect_pairs(shoe: SuitedShoe, pays: Pays | None = None) -> SideBetResult:
    """Perfect Pairs (Player Pair) on the player's first two cards.

    Categories: ``perfect`` (same rank and suit), ``coloured`` (same rank and colour, other
    suit), ``mixed`` (same rank, other colour), ``none``. ``pays`` overrides any of the
    default 25/12/6 ("to 1").

    >>> result = perfect_pairs(SuitedShoe.of_decks(1), {"perfect": 30, "coloured": 10})
    >>> [n for n, _, _ in result.categories.values()]
    [0, 26, 52, 1248]
    >>> result.expected_return
    Fraction(-26, 51)
    """
    _check_shoe(shoe, 2, "perfect pairs")
    table = _pay_table(pays, PERFECT_PAIRS_PAYS)
    perfect = coloured = mixed = 0
    for s, h, d, c in shoe.rank_suit_counts():
        perfect += comb(s, 2) + comb(h, 2) + comb(d, 2) + comb(c, 2)
        coloured += s * c + h * d
        mixed += (s + c) * (h + d)
    total = comb(len(shoe), 2)
    counts = {
        "perfect": perfect,
        "coloured": coloured,
        "mixed": mixed,
        LOSE: total - perfect - coloured - mixed,
    }
    return _result("perfect pairs", counts, total, table)


def twenty_one_plus_three(shoe: SuitedShoe, pays: Pays | None = None) -> SideBetResult:
    """21+3 on the player's two cards and the dealer's up card, counted in its best category.

    Categories, best first: ``suited_trips`` (same rank and suit), ``straight_flush``,
    ``three_of_a_kind``, ``straight`` (A-2-3 and Q-K-A count, K-A-2 does not), ``flush``,
    ``none``. ``pays`` overrides any of the default 100/40/30/10/5 ("to 1").

    >>> result = twenty_one_plus_three(SuitedShoe.of_decks(1))
    >>> {name: n for name, (n, _, _) in result.categories.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'suited_trips': 0, 'straight_flush': 48, 'three_of_a_kind': 52, 'straight': 720,
     'flush': 1096, 'none': 20184}
    >>> result.total_combinations
    22100
    """
    _check_shoe(shoe, 3, "21+3")
    table = _pay_table(pays, TWENTY_ONE_PLUS_THREE_PAYS)
    rows = shoe.rank_suit_counts()
    rank_totals = [sum(row) for row in rows]
    suit_totals = [sum(row[suit] for row in rows) for suit in range(4)]

    suited_trips = sum(comb(n, 3) for row in rows for n in row)
    three_of_a_kind = sum(comb(n, 3) for n in rank_totals) - suited_trips
    straight_flush = sum(
        prod(rows[rank][suit] for rank in run) for run in STRAIGHTS for suit in range(4)
    )
    straight = sum(prod(rank_totals[rank] for rank in run) for run in STRAIGHTS) - straight_flush
    # Any three cards of one suit, less those that rank higher as suited trips or straight flush.
    flush = sum(comb(n, 3) for n in suit_totals) - suited_trips - straight_flush

    total = comb(len(shoe), 3)
    counts = {
        "suited_trips": suited_trips,
        "straight_flush": straight_flush,
        "three_of_a_kind": three_of_a_kind,
        "straight": straight,
        "flush": flush,
    }
    counts[LOSE] = total - sum(counts.values())
    return _result("21+3", counts, total, table)


__all__ = [
    "PERFECT_PAIRS_CATEGORIES",
    "PERFECT_PAIRS_PAYS",
    "SideBets",
    "SideBetResult",
    "SuitedCard",
    "SuitedShoe",
    "TWENTY_ONE_PLUS_THREE_CATEGORIES",
    "TWENTY_ONE_PLUS_THREE_PAYS",
    "parse_pays",
    "side_bets",
    "parse_suited_card",
    "parse_suited_cards",
    "perfect_pairs",
    "twenty_one_plus_three",
]


# -- the side bets of a game: what ``bjcalc sidebets`` prints -------------------------------------

_RANK = re.compile(r"(10|[2-9TJQKA])", re.IGNORECASE)


def _removals(text: str) -> tuple[list[SuitedCard], list[int]]:
    """The cards of ``--removed``: suited cards (``Ah``) and ranks of unknown suit (``A``, ``5``;
    ``T`` is the ten itself, ``J Q K`` their own ranks), as 13-rank indices."""
    suited: list[SuitedCard] = []
    ranks: list[int] = []
    for word in _SEPARATORS.split(text.strip()):
        position = 0
        while position < len(word):
            card = _CARD.match(word, position)
            rank = _RANK.match(word, position)
            if card is not None:
                suited.append(parse_suited_card(card.group()))
                position = card.end()
            elif rank is not None:
                value = rank.group().upper()
                ranks.append(RANKS.index("T" if value == "10" else value))
                position = rank.end()
            else:
                raise InvalidCardError(
                    f"unknown card {word[position:]!r} in {text!r} (a rank A 2-9 T J Q K, or 10, with or "
                    "without a suit s h d c)")
    if not suited and not ranks:
        raise InvalidCardError(f"no cards in {text!r}")
    return suited, ranks


def _shoes_after(shoe: SuitedShoe, ranks: Sequence[int], text: str) -> dict[SuitedShoe, Fraction]:
    """The shoes left once one card of each of ``ranks`` (suit unknown) is out, with their exact
    chances: each suit as likely as the shoe's copies of the card make it."""
    shoes = {shoe: Fraction(1)}
    for rank in ranks:
        after: dict[SuitedShoe, Fraction] = {}
        for current, chance in shoes.items():
            copies = current.counts[4 * rank:4 * rank + 4]
            if not sum(copies):
                raise CardNotInShoeError(f"no {RANKS[rank]} is left in the shoe (removing {text!r})")
            for suit, n in enumerate(copies):
                if n:
                    left = current.remove(SuitedCard(rank, suit))
                    after[left] = after.get(left, Fraction(0)) + chance * Fraction(n, sum(copies))
        shoes = after
    return shoes


def _average(results: Sequence[tuple[Fraction, SideBetResult]]) -> SideBetResult:
    """The result of a bet on a shoe known only up to chances: each category's combinations
    and probability averaged, exactly."""
    first = results[0][1]
    if len(results) == 1:
        return first
    categories: dict[str, tuple[int | Fraction, Fraction, Fraction]] = {}
    for name, (_, _, payout) in first.categories.items():
        combos = sum((w * r.categories[name][0] for w, r in results), Fraction(0))
        probability = sum((w * r.categories[name][1] for w, r in results), Fraction(0))
        categories[name] = (int(combos) if combos.denominator == 1 else combos, probability, payout)
    expected = sum((w * r.expected_return for w, r in results), Fraction(0))
    return SideBetResult(first.name, categories, expected, first.total_combinations)


@dataclasses.dataclass(frozen=True)
class SideBets:
    """Perfect Pairs and 21+3 on a game's shoe: ``removed``, the cards seen as given (suited,
    or a rank of unknown suit); ``cards``: how many cards are left. Where a seen card's suit
    is unknown each result is the exact average over its suits (its combinations then may be
    fractions: expected counts)."""

    results: tuple[SideBetResult, SideBetResult]
    removed: tuple[str, ...]
    cards: int


def side_bets(decks: int, removed: str = "", pp_pays: str | Pays | None = None,
              tto_pays: str | Pays | None = None) -> SideBets:
    """The side bets of a shoe of ``decks`` decks less the ``removed`` cards (``"Ah Kd 7c"``;
    a rank alone, ``"A,T,5"``, is one card of that rank of unknown suit: the result is then
    the exact average over its suits). Pay tables as :func:`parse_pays` reads them, or
    mappings."""
    if isinstance(decks, float) and decks == float("inf"):
        raise InvalidRulesError("side bets are dealt from a shoe of suited cards: give a number of decks, "
                                "not an infinite deck")
    full = SuitedShoe.of_decks(decks)
    if not isinstance(removed, str):
        raise InvalidCardError(f"removed must be text such as 'Ah Kd 7c' or 'A,T,5', not {shown(removed)}")
    # the pay tables read (and checked) before any work
    pp = _pay_table(parse_pays(pp_pays, PERFECT_PAIRS_CATEGORIES) if isinstance(pp_pays, str) else pp_pays,
                    PERFECT_PAIRS_PAYS, "pp_pays")
    tto = _pay_table(parse_pays(tto_pays, TWENTY_ONE_PLUS_THREE_CATEGORIES) if isinstance(tto_pays, str)
                     else tto_pays, TWENTY_ONE_PLUS_THREE_PAYS, "tto_pays")
    suited, ranks = _removals(removed) if removed.strip() else ([], [])
    start = full.remove(suited) if suited else full
    shoes = _shoes_after(start, ranks, removed)
    pairs = _average([(w, perfect_pairs(s, pp)) for s, w in shoes.items()])
    threes = _average([(w, twenty_one_plus_three(s, tto)) for s, w in shoes.items()])
    gone = tuple(str(card) for card in suited) + tuple(RANKS[r] for r in ranks)
    return SideBets((pairs, threes), gone, len(start) - len(ranks))
