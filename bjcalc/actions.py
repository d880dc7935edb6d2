"""What a player can do with a hand, in the notation of strategy charts."""

from __future__ import annotations

import enum


class Action(str, enum.Enum):
    """A player action; its value is the chart letter (``Action.SPLIT == "P"``)."""

    STAND = "S"
    HIT = "H"
    DOUBLE = "D"
    SPLIT = "P"
    SURRENDER = "R"

    @property
    def key(self) -> str:
        """The plain name used as a JSON key: ``"stand"``, ``"hit"``, ..."""
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Action.{self.name}"
