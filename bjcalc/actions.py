"""What a player can do with a hand, in the notation of strategy charts."""

from __future__ import annotations

import enum

from bjcalc.errors import InvalidHandError


class Action(str, enum.Enum):
    """A player action; its value is the chart letter (``Action.SPLIT == "P"``)."""

    STAND = "S"
    HIT = "H"
    DOUBLE = "D"
    SPLIT = "P"
    SURRENDER = "R"

    @classmethod
    def _missing_(cls, value: object) -> Action:
        raise InvalidHandError(f"unknown action {value!r} ({', '.join(repr(a.value) for a in cls)})")

    @property
    def key(self) -> str:
        """The plain name used as a JSON key: ``"stand"``, ``"hit"``, ..."""
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Action.{self.name}"
