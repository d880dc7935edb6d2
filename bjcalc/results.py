"""What the front door (:class:`bjcalc.Analysis`) hands out: typed, frozen results.

Every result is generic in its number type ``N``: ``float``, or ``sympy.Rational`` from an
exact analysis. Keys are :class:`~bjcalc.Rank` (up cards), :class:`Outcome` (dealer outcomes)
and :class:`~bjcalc.Action`; all three are string enums, so ``table["bust"]`` and
``result.by_upcard["A"]`` work too. Every result says which strategy its numbers assume
(:class:`Strategy`) and ``to_dict()`` gives it in the JSON schema of docs/json.md.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

from bjcalc.actions import Action
from bjcalc.cards import ACE, TEN, Rank
from bjcalc.rules import Rules

N = TypeVar("N")  # float, or sympy.Rational in exact mode

UP_ORDER = "23456789TA"  # up cards in the order charts and tables print them


def json_value(value: Any) -> Any:
    """A result number in JSON: a number (float mode), or the exact fraction as a string
    ``"p/q"`` (exact mode: ``sympy.Rational``, ``Fraction`` or ``int``)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, float):
        return value
    if hasattr(value, "p") and hasattr(value, "q"):
        return str(Fraction(int(value.p), int(value.q)))
    if isinstance(value, (int, Fraction)):
        return str(Fraction(value))
    return float(value)


def _by_up(values: Mapping[Rank, Any]) -> dict[str, Any]:
    return {str(up): json_value(values[up]) for up in sorted(values, key=lambda u: UP_ORDER.index(u.value))}


class Outcome(str, enum.Enum):
    """A dealer's final outcome: standing on a total, bust, or blackjack. Totals below 17 occur
    only where a card limit stops the dealer. The value is the JSON key (``"17"``, ``"bust"``)."""

    TOTAL_4 = "4"
    TOTAL_5 = "5"
    TOTAL_6 = "6"
    TOTAL_7 = "7"
    TOTAL_8 = "8"
    TOTAL_9 = "9"
    TOTAL_10 = "10"
    TOTAL_11 = "11"
    TOTAL_12 = "12"
    TOTAL_13 = "13"
    TOTAL_14 = "14"
    TOTAL_15 = "15"
    TOTAL_16 = "16"
    TOTAL_17 = "17"
    TOTAL_18 = "18"
    TOTAL_19 = "19"
    TOTAL_20 = "20"
    TOTAL_21 = "21"
    BUST = "bust"
    BLACKJACK = "blackjack"

    @classmethod
    def of_code(cls, code: int) -> Outcome:
        """The engine's outcome code (a total, 22 bust, 23 blackjack)."""
        return cls({22: "bust", 23: "blackjack"}.get(code, str(code)))

    @property
    def total(self) -> int | None:
        return int(self.value) if self.value.isdigit() else None

    @property
    def card_limit(self) -> bool:
        """A total below 17: the dealer stopped at the card limit."""
        return self.total is not None and self.total < 17

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"


@dataclasses.dataclass(frozen=True)
class Strategy:
    """Which strategy a number assumes. ``play``: ``"CD"`` (each decision optimal for the
    exact cards) or a chart's name (``"basic"``: total-dependent basic strategy);
    ``split_hands``: how split hands play (``"CDZ-"``, ``"CDP1"``, ``"CDP"``, ``"by the chart"``)
    or ``None`` where the rules allow no split."""

    play: str
    chart: bool = False
    split_hands: str | None = None

    @property
    def label(self) -> str:
        """``"CD; split hands CDZ-"``, ``"basic (chart; split hands by the chart)"``."""
        if self.chart:
            return f"{self.play} (chart; split hands by the chart)"
        return self.play if self.split_hands is None else f"{self.play}; split hands {self.split_hands}"

    def __str__(self) -> str:
        return self.label

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "play": self.play, "chart": self.chart, "split_hands": self.split_hands}


@dataclasses.dataclass(frozen=True)
class DealerResult(Mapping[Outcome, N], Generic[N]):
    """Dealer final-outcome probabilities with ``up`` showing: before the peek (blackjack
    included) or, ``peeked``, conditioned on no dealer blackjack. A mapping Outcome ->
    probability, summing to exactly 1 in exact mode."""

    up: Rank
    probabilities: dict[Outcome, N]
    peeked: bool
    removed: tuple[Rank, ...] = ()

    def __getitem__(self, outcome: Outcome | str) -> N:
        return self.probabilities[Outcome(outcome)]

    def __iter__(self) -> Iterator[Outcome]:
        return iter(self.probabilities)

    def __len__(self) -> int:
        return len(self.probabilities)

    def to_dict(self) -> dict[str, Any]:
        return {"up": str(self.up), "peeked": self.peeked, "removed": [str(c) for c in self.removed],
                "probabilities": {str(o): json_value(p) for o, p in self.probabilities.items()}}


@dataclasses.dataclass(frozen=True)
class HandResult(Generic[N]):
    """EVs of every available action for one hand against one up card.

    ``evs`` are in units of the initial bet, with composition-dependent optimal play after the
    first decision (``strategy``). They are conditioned on the dealer not having blackjack
    when ``conditioned`` is true (a peeking dealer with an A or T up), otherwise
    unconditional. ``insurance`` is the EV per unit of insurance bet and ``even_money`` the
    value of taking even money; both are decided before the peek and are unconditional.
    """

    cards: tuple[Rank, ...]
    up: Rank
    evs: dict[Action, N]
    conditioned: bool
    dealer_blackjack: N
    insurance: N | None = None
    even_money: N | None = None
    strategy: Strategy = Strategy("CD")
    faces: tuple[str, ...] = ()  # the ten-valued cards' faces as given, where they matter

    @property
    def notation(self) -> str:
        """The cards as ``A,7``; ten-valued cards by face (``K,Q``) where only same-face tens
        split."""
        faces = iter(self.faces)
        return ",".join(next(faces, "T") if c is Rank.TEN and self.faces else str(c) for c in self.cards)

    @property
    def ranked(self) -> list[tuple[Action, N]]:
        """Actions and EVs, best first."""
        return sorted(self.evs.items(), key=lambda item: -item[1])  # type: ignore[operator]

    @property
    def best(self) -> Action:
        return self.ranked[0][0]

    @property
    def is_blackjack(self) -> bool:
        return sorted(c.index for c in self.cards) == [ACE, TEN]

    @property
    def frame(self) -> str:
        """``"conditioned"`` (on no dealer blackjack) or ``"unconditional"``."""
        return "conditioned" if self.conditioned else "unconditional"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.notation, "up": str(self.up)}
        frames: dict[str, str] = {}
        for action in Action:
            if action is not Action.SPLIT or action in self.evs:
                value = self.evs.get(action)
                out[action.key] = json_value(value)
                if value is not None:
                    frames[action.key] = self.frame
        out["insurance"] = json_value(self.insurance)
        if self.insurance is not None:
            frames["insurance"] = "unconditional"
        if self.even_money is not None:
            out["even_money"] = json_value(self.even_money)
            frames["even_money"] = "unconditional"
        out["dealer_blackjack"] = json_value(self.dealer_blackjack)
        out["best"] = self.best.key
        out["conditioned"] = self.conditioned
        out["frames"] = frames
        out["strategy"] = self.strategy.to_dict()
        return out


@dataclasses.dataclass(frozen=True)
class RoundResult(Generic[N]):
    """The whole round under ``strategy``: ``ev`` is the player's expected result per round,
    unconditional, in units of the initial bet (``house_edge = -ev``); ``by_upcard`` the EV
    given each up card (unconditional); ``insurance`` the EV per unit of insurance bet off the
    top (never taken in ``ev``)."""

    ev: N
    by_upcard: dict[Rank, N]
    upcard_probability: dict[Rank, N]
    strategy: Strategy
    insurance: N | None

    @property
    def house_edge(self) -> N:
        return -self.ev  # type: ignore[operator]

    @property
    def house_edge_percent(self) -> float:
        return 100 * float(self.house_edge)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ev": json_value(self.ev),
            "house_edge": json_value(self.house_edge),
            "house_edge_percent": self.house_edge_percent,
            "by_upcard": _by_up(self.by_upcard),
            "upcard_probability": _by_up(self.upcard_probability),
            "insurance": json_value(self.insurance),
            "strategy": self.strategy.to_dict(),
        }


@dataclasses.dataclass(frozen=True)
class Variance(Generic[N]):
    """The variance of one round's result (insurance not taken) under ``strategy``; ``None``
    where the rules allow resplitting (more than two hands), which bjcalc does not compute."""

    variance: N | None
    strategy: Strategy

    @property
    def sd(self) -> float | None:
        """The standard deviation per round, in initial bets."""
        return None if self.variance is None else math.sqrt(float(self.variance))  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        return {"variance": json_value(self.variance), "sd": self.sd, "strategy": self.strategy.to_dict()}


@dataclasses.dataclass(frozen=True)
class HandPlay(Generic[N]):
    """One two-card hand against one up card: the first play a strategy makes and its EV
    (unconditional, per initial bet)."""

    up: Rank
    cards: tuple[Rank, ...]
    probability: N  # P(this up card and this hand)
    action: Action
    ev: N
    same_face: bool = True  # False: two tens of unlike faces, where those may not be split

    @property
    def hand(self) -> str:
        return ",".join(map(str, self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "up": str(self.up), "same_face": self.same_face, "action": self.action.key,
                "probability": json_value(self.probability), "ev": json_value(self.ev)}


@dataclasses.dataclass(frozen=True)
class ChartEvaluation(Generic[N]):
    """A chart's round (every play by the chart) and the first play of every two-card hand."""

    round: RoundResult[N]
    plays: tuple[HandPlay[N], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round.to_dict(), "plays": [p.to_dict() for p in self.plays]}


@dataclasses.dataclass(frozen=True)
class ChartException:
    """A two-card hand whose CD best first play differs from the chart's: ``gain`` is the EV
    per occurrence (unconditional) that CD play gains."""

    up: Rank
    cards: tuple[Rank, ...]
    chart: Action
    best: Action
    gain: float

    @property
    def hand(self) -> str:
        return ",".join(map(str, self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "up": str(self.up), "chart": self.chart.key, "best": self.best.key,
                "gain": self.gain}


@dataclasses.dataclass(frozen=True)
class Deviation:
    """A chart cell that differs from the optimal chart, and what it costs: the round EV lost
    per round (float)."""

    kind: str  # "hard", "soft" or "pairs"
    row: str
    up: Rank
    code: str
    optimal: str
    cost: float

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.kind, "row": self.row, "up": str(self.up), "code": self.code,
                "optimal": self.optimal, "cost": self.cost}


@dataclasses.dataclass(frozen=True)
class BetBehindResult(Generic[N]):
    """EV per unit bet behind, unconditional: ``follows_everything`` (doubles and splits too:
    the seated player's own EV without insurance) and ``cannot_afford`` (one card instead of a
    double, the first hand of a split). ``seated``: the seated player's strategy."""

    seated: Strategy
    follows_everything: N
    cannot_afford: N

    def to_dict(self) -> dict[str, Any]:
        return {"seated": self.seated.to_dict(), "follows_everything": json_value(self.follows_everything),
                "cannot_afford": json_value(self.cannot_afford)}


def with_rules(result: Any, rules: Rules) -> dict[str, Any]:
    """A result's dict with the ``rules`` block every JSON output carries."""
    return {**result.to_dict(), "rules": rules.to_dict()}
