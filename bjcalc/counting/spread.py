"""The bet spread: bets by true count, as given (``<=0:1,1:2,>=3:8``) or the Kelly-optimal one
for a game's advantage by true count (:func:`_kelly_spread`)."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

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
        spread = cls(tuple(sorted(steps, key=lambda s: -math.inf if s[0] is None else s[0])))
        spread._check(text)
        return spread

    def _check(self, text: str) -> None:
        if self.steps[0][0] is not None or self.steps[-1][1] is not None:
            raise InvalidSpreadError(f"spread {text!r} must cover every true count: start with <=TC and end with >=TC")
        for (_, high, _), (low, _, _) in zip(self.steps, self.steps[1:]):
            if high is None or low is None or low != high + 1:
                raise InvalidSpreadError(f"spread {text!r} leaves a gap or an overlap after true count {high}")
        if max(bet for _, _, bet in self.steps) == 0:
            raise InvalidSpreadError(f"spread {text!r} never bets")

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
        low = None if t == tcs[0] else t
        if steps and steps[-1][2] == b:
            steps[-1] = (steps[-1][0], t, b)
        else:
            steps.append((low, t, b))
    steps[-1] = (steps[-1][0], None, steps[-1][2])
    return Spread(tuple(steps))
