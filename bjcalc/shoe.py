"""Shoe compositions: ten counts, aces first.

>>> Shoe.parse("0,4,4,2,0,0,2,0,0,7").remove(parse_cards("2,2,7")).counts
(0, 2, 4, 2, 0, 0, 1, 0, 0, 7)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

from bjcalc.arguments import check_whole, shown
from bjcalc.cards import RANK_NOTATION, Rank, parse_cards  # noqa: F401  (used by the doctest)
from bjcalc.errors import CardNotInShoeError, InvalidShoeError


@dataclasses.dataclass(frozen=True)
class Shoe:
    """Card counts ``(A, 2, ..., 9, T)``."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        counts = self.counts
        if isinstance(counts, Sequence) and not isinstance(counts, (str, bytes, tuple)):
            counts = tuple(counts)  # a list of counts: kept as a tuple (a shoe is hashable)
            object.__setattr__(self, "counts", counts)
        if (not isinstance(counts, tuple) or len(counts) != 10
                or any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in counts)):
            raise InvalidShoeError(f"a shoe is ten counts A..T, each >= 0, not {shown(counts)}")

    @classmethod
    def of_decks(cls, decks: int) -> Shoe:
        """``decks`` standard decks, 1 to :data:`bjcalc.rules.MAX_DECKS`."""
        from bjcalc.rules import MAX_DECKS

        check_whole(decks, "decks", 1, MAX_DECKS)
        return cls((4 * decks,) * 9 + (16 * decks,))

    @classmethod
    def parse(cls, text: str) -> Shoe:
        """Ten comma- or space-separated counts, aces first: ``"4,4,4,4,4,4,4,4,4,16"``."""
        if not isinstance(text, str):
            raise InvalidShoeError(f"Shoe.parse reads text (ten whole-number counts A..T separated by commas), "
                                   f"not {shown(text)}")
        fields = [f for f in re.split(r"[\s,]+", text.strip()) if f]
        if len(fields) != 10 or not all(f.isdigit() for f in fields):
            raise InvalidShoeError(
                f"shoe must be ten whole-number counts A..T separated by commas, not {text!r}"
            )
        counts = tuple(int(f) for f in fields)
        if sum(counts) == 0:
            raise InvalidShoeError(f"shoe {text!r} holds no cards")
        return cls(counts)

    def __len__(self) -> int:
        return sum(self.counts)

    def remove(self, cards: Iterable[Rank | int]) -> Shoe:
        """The shoe without ``cards``; :class:`CardNotInShoeError` if one is not there."""
        return Shoe(self._without(cards))

    def check_holds(self, cards: Iterable[Rank | int]) -> None:
        """:class:`CardNotInShoeError` unless every one of ``cards`` is in the shoe (as
        :meth:`remove`, without making the shoe left)."""
        self._without(cards)

    def _without(self, cards: Iterable[Rank | int]) -> tuple[int, ...]:
        counts = list(self.counts)
        for card in cards:
            index = card.index if isinstance(card, Rank) else card
            if counts[index] == 0:
                raise CardNotInShoeError(
                    f"card {RANK_NOTATION[index]!r} is not in the shoe ({self.notation()})"
                )
            counts[index] -= 1
        return tuple(counts)

    def notation(self) -> str:
        return ",".join(map(str, self.counts))


@runtime_checkable
class ShoeModel(Protocol):
    """A shoe known only in part, as :class:`bjcalc.Analysis` takes it (``shoe=``): what the
    analysis asks of it. The one kind is the counter's shoe,
    :class:`bjcalc.counting.countshoe.CountShoe`; naming what it must do here keeps the analysis
    below the counting layer that makes it."""

    @property
    def shoe(self) -> tuple[int, ...]:
        """The shoe before the deal, ten counts aces first."""

    @property
    def visible(self) -> tuple[Rank, ...]:
        """The cards on the table, known by rank."""

    @property
    def cards_left(self) -> int:
        """How many cards are left (the discards out)."""

    def draw_model(self) -> Any:
        """The weights of the engine's draws (:class:`bjcalc.engine.drawmodel.DrawModel`)."""

    def draw_probability(self, cards: Any) -> Any:
        """P(the next cards drawn are ``cards``), exact."""

    def can_deal(self, cards: Any) -> bool:
        """Whether ``cards`` can be the next cards drawn."""
