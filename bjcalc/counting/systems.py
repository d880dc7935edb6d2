"""Count systems: the built-in point counts' tags, and tags as people type them.

A point count gives each rank a tag (A first inside bjcalc; published tables list them 2..T,
A). A count system is one line of :data:`SYSTEMS`; :mod:`bjcalc.counting.measures` measures it against
a game.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from bjcalc.arguments import check_fields, shown
from bjcalc.cards import TEN, UP_INDICES
from bjcalc.errors import InvalidArgumentError, InvalidCardError, InvalidRulesError

# tags for A, 2, ..., 9, T (../shared/reference/counting.md lists them 2..T, A)
_TAGS: dict[str, tuple[int | str, ...]] = {
    "hi-lo": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "ko": (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    "hi-opt-i": (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    "hi-opt-ii": (0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
    "omega-ii": (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    "zen": (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
    "wong-halves": (-1, "1/2", 1, 1, "3/2", 1, "1/2", 0, "-1/2", -1),
    "uston-apc": (0, 1, 2, 2, 3, 2, 2, 1, -1, -3),
}
SYSTEMS: dict[str, tuple[Fraction, ...]] = {name: tuple(map(Fraction, tags)) for name, tags in _TAGS.items()}

# the largest tag in size a count may give (published counts stay within 4): larger tags only
# overflow floating point (a count is the same scaled down)
TAG_LIMIT = 100


def tag_beyond_limit(tags: tuple[Fraction, ...]) -> Fraction | None:
    """The first tag larger in size than :data:`TAG_LIMIT`, or ``None``."""
    return next((t for t in tags if abs(t) > TAG_LIMIT), None)


def parse_tags(text: str) -> tuple[Fraction, ...]:
    """Ten tags for 2, 3, ..., 9, T, A (the order of published tables), comma-separated:
    ``"1,1,1,1,1,0,0,0,-1,-1"`` is Hi-Lo. Returned in bjcalc's order, A first."""
    if not isinstance(text, str):
        raise InvalidCardError(f"tags must be text, ten numbers for 2,3,4,5,6,7,8,9,T,A, not {text!r}")
    fields = [f for f in text.replace(" ", ",").split(",") if f]
    if len(fields) != 10:
        raise InvalidCardError(f"tags must be ten numbers for 2,3,4,5,6,7,8,9,T,A, not {text!r}")
    try:
        tags = [Fraction(f) for f in fields]
    except (ValueError, ZeroDivisionError):
        raise InvalidCardError(f"tags must be numbers such as 1, -1, 0.5 or 1/2, not {text!r}") from None
    if tag_beyond_limit(tuple(tags)) is not None:
        raise InvalidCardError(f"tags must be numbers from -{TAG_LIMIT} to {TAG_LIMIT}, not {text!r}")
    if len(set(tags)) < 2:
        raise InvalidCardError(f"tags {text!r} give every card the same tag: that count counts nothing "
                               "(its correlations are undefined)")
    return (tags[9],) + tuple(tags[:9])



@dataclasses.dataclass(frozen=True)
class CountSystem:
    """A point count: its tags (A first) and whether it is balanced (tags sum to 0 over a deck)."""

    name: str
    tags: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.name.strip():
            raise InvalidArgumentError(f"CountSystem: name must name the count, not {self.name!r}")
        if len(self.tags) != 10:
            raise InvalidArgumentError(f"CountSystem: tags must be ten numbers, for A, 2, ..., 9, T, not "
                                       f"{shown(self.tags)}")
        object.__setattr__(self, "tags", tuple(Fraction(t) for t in self.tags))  # a list or ints: Fractions
        if len(set(self.tags)) < 2:
            same = _signed(self.tags[0]) if self.tags else "missing"
            raise InvalidCardError(f"the tags of {self.name!r} are all {same}: a count that gives every card the "
                                   "same tag counts nothing (its correlations are undefined)")
        beyond = tag_beyond_limit(tuple(Fraction(t) for t in self.tags))
        if beyond is not None:
            raise InvalidCardError(f"the tags of {self.name!r} must be numbers from -{TAG_LIMIT} to {TAG_LIMIT}, "
                                   f"not {_signed(beyond)}")

    @classmethod
    def named(cls, name: str) -> CountSystem:
        """A built-in count by name, as people type it: case, spaces, underscores and hyphens
        do not matter.

        >>> CountSystem.named("hilo").name, CountSystem.named("Omega_II").name
        ('hi-lo', 'omega-ii')
        """
        if not isinstance(name, str):
            raise InvalidRulesError(f"a count system's name must be text such as 'hi-lo', not {shown(name)}")
        key = _SPELLINGS.get(_squeezed(name))
        if key is None:
            raise InvalidRulesError(f"unknown count system {name!r} ({', '.join(SYSTEMS)}; or give --tags)")
        return cls(key, SYSTEMS[key])

    @property
    def balanced(self) -> bool:
        return sum(self.tags[:9]) + 4 * self.tags[TEN] == 0

    def tags_text(self) -> str:
        return " ".join(_signed(self.tags[r]) for r in UP_INDICES)


def _squeezed(name: str) -> str:
    return "".join(c for c in name.lower() if c not in " -_")


_SPELLINGS = {_squeezed(name): name for name in SYSTEMS}  # "hilo" and "hi lo" are Hi-Lo


def _signed(value: Fraction) -> str:
    text = str(value) if value.denominator != 1 else str(value.numerator)
    return text if value <= 0 else "+" + text
