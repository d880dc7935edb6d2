"""Ranks, cards and hands.

Internally a rank is an index ``0..9`` (ace first, ``9`` = any ten-valued card) and its point
value is ``index + 1``. :class:`Rank` is the notation people read and type.

>>> parse_cards("a7")
(Rank.ACE, Rank.SEVEN)
>>> parse_cards("10,6") == parse_cards("K 6") == parse_cards("T6")
True
>>> hand_total((0, 6))
(18, True)
"""

from __future__ import annotations

import enum
import functools
import operator
import re
from collections.abc import Iterable, Sequence

from bjcalc.errors import InvalidCardError

RANK_NOTATION = "A23456789T"
ACE, TEN = 0, 9
UP_ORDER = "23456789TA"  # up cards in the order charts and tables print them (the only definition)
UP_INDICES = tuple(RANK_NOTATION.index(up) for up in UP_ORDER)  # the same order as rank indices

# 22, the first total past 21, means three things in the engine's arrays; each has its name:
BUST = 22  # a dealer outcome code: over 21 (0..21: standing on that total; BLACKJACK beside it)
BLACKJACK = 23  # a dealer outcome code: a natural
RUN_OUT = 24  # a dealer outcome code: the shoe ran out of cards before the dealer could stop
CHARLIE = 22  # a player's payoff: a Charlie hand, which beats every dealer hand but a blackjack
SOFT_CELL = 22  # a chart cell is a total, plus SOFT_CELL for a soft one (so 44 cells in all)


class Rank(str, enum.Enum):
    """A card rank; its value is its notation (``Rank.TEN == "T"``)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        raise InvalidCardError(f"unknown card {value!r} (A 2 3 4 5 6 7 8 9 T)")

    _slot: int  # set below for every member: ``index`` is read in every hand's hot path

    @property
    def index(self) -> int:  # type: ignore[override]  # shadows str.index on purpose: the rank's slot
        """Position in a shoe's counts: 0 for the ace ... 9 for the ten-valued cards."""
        return self._slot

    @property
    def points(self) -> int:
        """Point value, counting an ace as 1."""
        return self.index + 1

    @classmethod
    def from_index(cls, index: int) -> Rank:
        return cls(RANK_NOTATION[index])

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __str__(self) -> str:
        return self.value


for _slot, _rank in enumerate(Rank):
    _rank._slot = _slot

_ALIASES = {"10": "T", "J": "T", "Q": "T", "K": "T"}
_TOKEN = re.compile(r"10|[AJQK2-9T]", re.IGNORECASE)


def parse_card(text: str | int | Rank) -> Rank:
    """Parse one card as people write it: ``A``, ``7``, ``T``, ``10``, ``J``, ``q``... The same
    spellings as :func:`parse_cards` (``1`` is not an ace: ``1,0`` would read as a ten). From
    Python a card may also be a :class:`Rank` or its value as an int, 2 to 10.

    >>> parse_card("q")
    Rank.TEN
    >>> parse_card(10)
    Rank.TEN
    """
    if isinstance(text, Rank):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        if 2 <= text <= 10:
            return Rank.from_index(text - 1)
        raise InvalidCardError(f"unknown card {text!r} (use 2 to 10, or 'A' for an ace)")
    if not isinstance(text, str):
        raise InvalidCardError(f"unknown card {text!r} (use A 2-9 T, or 10 J Q K)")
    return _parse_token(text)


@functools.lru_cache(maxsize=1024)
def _parse_token(text: str) -> Rank:
    """:func:`parse_card` of text (kept: the same few spellings come back all the time)."""
    token = text.strip().upper()
    token = _ALIASES.get(token, token)
    if len(token) == 1 and token in RANK_NOTATION:
        return Rank(token)
    raise InvalidCardError(f"unknown card {text!r} (use A 2-9 T, or 10 J Q K)")


def parse_cards(text: str) -> tuple[Rank, ...]:
    """Parse a run of cards: ``T6``, ``10,6``, ``K 6``, ``a7``, ``A,7``.

    >>> parse_cards("2,10,a")
    (Rank.TWO, Rank.TEN, Rank.ACE)
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"cards must be text like 'A,7' or 'T6', not {text!r}")
    return _parse_text(text)


@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> tuple[Rank, ...]:
    """:func:`parse_cards` of text (kept, as :func:`_parse_token`)."""
    compact = re.sub(r"[\s,;/-]+", "", text)
    if not compact:
        raise InvalidCardError(f"no cards in {text!r}")
    cards: list[Rank] = []
    position = 0
    for match in _TOKEN.finditer(compact):
        if match.start() != position:
            break
        cards.append(parse_card(match.group()))
        position = match.end()
    if position != len(compact):
        raise InvalidCardError(f"unknown card {compact[position]!r} in {text!r}")
    return tuple(cards)


def as_cards(cards: str | Sequence[Rank | str | int]) -> tuple[Rank, ...]:
    """Cards as text (``"A,7"``, :func:`parse_cards`) or as a sequence of cards
    (``[Rank.ACE, "7"]``, ``["T", 6]``, :func:`parse_card` each).

    >>> as_cards("A,7") == as_cards([Rank.ACE, 7])
    True
    """
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Sequence):
        raise InvalidCardError(f"cards must be text like 'A,7' or a sequence of cards, not {cards!r}")
    return tuple(parse_card(c) for c in cards)


def ten_faces(cards: str | Iterable[object]) -> list[str]:
    """The face of each ten-valued card as written (``T`` and ``10`` are the face ``10``): it
    matters where only same-face tens may be split.

    >>> ten_faces("K,Q,7,T")
    ['K', 'Q', '10']
    """
    tokens = [m.group().upper() for m in _TOKEN.finditer(re.sub(r"[\s,;/-]+", "", cards))] if isinstance(
        cards, str) else [str(getattr(c, "value", c)).upper() for c in cards]
    return ["10" if t in ("T", "10") else t for t in tokens if t in ("T", "10", "J", "Q", "K")]


def hand_total(ranks: Iterable[int]) -> tuple[int, bool]:
    """Best total and softness of a hand given as rank indices (0 = ace).

    >>> hand_total([0, 0, 9])
    (12, False)
    """
    hard = 0
    has_ace = False
    for rank in ranks:
        hard += rank + 1
        has_ace = has_ace or rank == ACE
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def hard_total(counts: tuple[int, ...]) -> int:
    """The total of a hand given as ten rank counts, every ace counted as 1."""
    return sum(map(operator.mul, counts, _VALUES))


def counts_total(counts: tuple[int, ...]) -> tuple[int, bool]:
    """Best total and softness of a hand given as ten rank counts."""
    hard = hard_total(counts)
    if counts[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def is_blackjack(counts: Sequence[int]) -> bool:
    """Whether a hand (rank counts) is a blackjack: an ace and a ten-valued card, nothing else.

    >>> is_blackjack((1,) + (0,) * 8 + (1,)), is_blackjack((1, 1) + (0,) * 7 + (1,))
    (True, False)
    """
    return counts[ACE] == 1 and counts[TEN] == 1 and sum(counts) == 2


def format_cards(ranks: Iterable[int]) -> str:
    """``[0, 6] -> "A,7"``."""
    return ",".join(RANK_NOTATION[r] for r in ranks)
