"""The bet spread: bets by true count, as given (``<=0:1,1:2,>=3:8``) or the Kelly-optimal one
for a game's advantage by true count (:func:`_kelly_spread`)."""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bjcalc.arguments import shown
from bjcalc.errors import BjcalcError

# the largest max bet ratio --optimal-spread searches: the Kelly scales tried reach it (a larger
# ratio is never bet), and spreads wider than 1-100 are not played
OPTIMAL_SPREAD_LIMIT = 100


# the largest bet of a spread, in units: larger ones only overflow floating point
BET_LIMIT = 10 ** 6


class InvalidSpreadError(BjcalcError):
    """A bet spread, wonging threshold or bankroll that cannot be used."""


# -- the bet spread ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Spread:
    """Bets by true count: ``steps`` is ``(low, high, bet)`` with ``low <= TC <= high`` (``None``
    open), covering every whole true count once. The bet is looked up at the whole true count
    the convention gives (with rounding ``none``, its floor).

    >>> s = Spread.parse("<=1:1,2:2,3:4,4:8,>=5:12")
    >>> [s.bet(t) for t in (-3, 1, 2, 4, 9)]
    [Fraction(1, 1), Fraction(1, 1), Fraction(2, 1), Fraction(8, 1), Fraction(12, 1)]
    """

    steps: tuple[tuple[int | None, int | None, Fraction], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", _checked_steps(self.steps))
        _check_cover(self.steps, f"spread steps {shown(self.steps)}")

    @classmethod
    def flat(cls) -> Spread:
        return cls(((None, None, Fraction(1)),))

    @classmethod
    def parse(cls, text: str) -> Spread:
        if not isinstance(text, str):
            raise InvalidSpreadError(f"spread must be text such as '<=1:1,2:2,>=3:4', not {text!r}")
        steps = []
        for field in (f.strip() for f in text.split(",") if f.strip()):
            where, colon, bet_text = field.partition(":")
            if not colon or not bet_text.strip():
                raise InvalidSpreadError(f"spread step {field!r} needs a bet >= 0 after a colon")
            try:
                bet = Fraction(bet_text.strip())
                where = where.strip().replace(" ", "")
                if where == "any":
                    low = high = None
                elif where.startswith("<="):
                    low, high = None, int(where[2:])
                elif where.startswith(">="):
                    low, high = int(where[2:]), None
                elif ".." in where:
                    a, b = where.split("..")
                    low, high = int(a), int(b)
                else:
                    low = high = int(where)
            except (ValueError, ZeroDivisionError):
                raise InvalidSpreadError(f"spread step {field!r} must read TC:BET, <=TC:BET, >=TC:BET "
                                         "or LOW..HIGH:BET (whole true counts)") from None
            if not colon or bet < 0:
                raise InvalidSpreadError(f"spread step {field!r} needs a bet >= 0 after a colon")
            if bet > BET_LIMIT:
                raise InvalidSpreadError(f"spread step {field!r}: a bet is at most {BET_LIMIT} units")
            if low is not None and high is not None and low > high:
                raise InvalidSpreadError(f"spread step {field!r}: {low} is above {high}")
            steps.append((low, high, bet))
        if not steps:
            raise InvalidSpreadError(f"spread {text!r} has no steps")
        ordered = tuple(sorted(steps, key=lambda s: -math.inf if s[0] is None else s[0]))
        _check_cover(ordered, f"spread {text!r}")
        return cls(ordered)

    def bet(self, tc: Fraction) -> Fraction:
        whole = math.floor(tc)
        for low, high, bet in self.steps:
            if (low is None or whole >= low) and (high is None or whole <= high):
                return bet
        raise AssertionError("a checked spread covers every count")

    @property
    def ratio(self) -> Fraction:
        bets = [b for _, _, b in self.steps if b > 0]
        return max(bets) / min(bets)

    def text(self) -> str:
        def where(low: int | None, high: int | None) -> str:
            if low is None and high is None:
                return "any"
            if low is None:
                return f"<={high}"
            if high is None:
                return f">={low}"
            return str(low) if low == high else f"{low}..{high}"

        return ",".join(f"{where(lo, hi)}:{_number_text(b)}" for lo, hi, b in self.steps)


def _checked_steps(steps: object) -> tuple[tuple[int | None, int | None, Fraction], ...]:
    """``steps`` as :class:`Spread` holds them, each ``(low, high, bet)``: whole true counts
    (or ``None``, open) and a bet from 0 to :data:`BET_LIMIT` units, as a Fraction."""
    what = "steps must be a sequence of (low, high, bet): whole true counts or None, and a bet"
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence) or not steps:
        raise InvalidSpreadError(f"spread {what}, not {shown(steps)}")
    out = []
    for step in steps:
        if isinstance(step, (str, bytes)) or not isinstance(step, Sequence) or len(step) != 3:
            raise InvalidSpreadError(f"spread {what}, not {shown(step)} in {shown(steps)}")
        low, high, bet = step
        for end in (low, high):
            if end is not None and (isinstance(end, bool) or not isinstance(end, numbers.Integral)):
                raise InvalidSpreadError(f"spread step {shown(step)}: a true count must be whole or None, "
                                         f"not {shown(end)}")
        if isinstance(bet, bool) or not isinstance(bet, (int, float, Fraction)) or not math.isfinite(bet):
            raise InvalidSpreadError(f"spread step {shown(step)}: the bet must be a number, not {shown(bet)}")
        if not 0 <= bet <= BET_LIMIT:
            raise InvalidSpreadError(f"spread step {shown(step)}: a bet is from 0 to {BET_LIMIT} units")
        if low is not None and high is not None and low > high:
            raise InvalidSpreadError(f"spread step {shown(step)}: {low} is above {high}")
        out.append((None if low is None else int(low), None if high is None else int(high), Fraction(bet)))
    return tuple(out)


def _check_cover(steps: Sequence[tuple[int | None, int | None, Fraction]], where: str) -> None:
    """Every whole true count in one step of ``steps`` (in order), and some bet above 0."""
    if steps[0][0] is not None or steps[-1][1] is not None:
        raise InvalidSpreadError(f"{where} must cover every true count: start with <=TC and end with >=TC")
    for (_, high, _), (low, _, _) in zip(steps, steps[1:]):
        if high is None or low is None or low != high + 1:
            raise InvalidSpreadError(f"{where} leaves a gap or an overlap after true count {high}")
    if max(bet for _, _, bet in steps) == 0:
        raise InvalidSpreadError(f"{where} never bets")


def _number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _kelly_spread(advantage: dict[Fraction, Any], m2: Any, ratio: Fraction, scale: float) -> Spread:
    """Bets proportional to ``A / E[X^2]`` at each whole true count (the Kelly fraction), times
    ``scale``, rounded to whole units and clipped to 1 .. ``ratio``: :func:`truecount_analysis` keeps the
    scale whose SCORE is largest."""
    whole: dict[int, list[float]] = {}
    for tc, a in advantage.items():
        whole.setdefault(math.floor(tc), []).append(float(a))
    tcs = sorted(whole)
    bets = []
    for t in tcs:
        a = sum(whole[t]) / len(whole[t])
        kelly = round(scale * a / float(m2))
        bets.append(Fraction(min(float(ratio), max(1.0, kelly))).limit_denominator(1000))
    steps: list[tuple[int | None, int | None, Fraction]] = []
    for t, b in zip(tcs, bets):
        if steps and steps[-1][2] == b:
            steps[-1] = (steps[-1][0], t, b)
        elif steps:  # a true count the game never reaches, between two bets, takes the lower
            steps[-1] = (steps[-1][0], t - 1, steps[-1][2])
            steps.append((t, t, b))
        else:
            steps.append((None, t, b))
    steps[-1] = (steps[-1][0], None, steps[-1][2])
    return Spread(tuple(steps))
