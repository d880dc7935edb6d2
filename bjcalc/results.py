"""What the front door (:class:`bjcalc.Analysis`) hands out: typed, frozen results.

Every result is generic in its number type ``N``: ``float``, or ``sympy.Rational`` from an
exact analysis. Keys are :class:`~bjcalc.Rank` (up cards), :class:`Outcome` (dealer outcomes)
and :class:`~bjcalc.Action`; all three are string enums, so ``table["bust"]`` and
``result.by_upcard["A"]`` work too. Every result says which strategy its numbers assume
(:class:`Strategy`).

Each result has ``to_data()``, its fields in the JSON schema of docs/json.md with every number
as computed (``sympy.Rational`` in exact mode), and ``to_dict()``, the same with plain JSON
numbers (:func:`plain`). The renderers make the JSON ``"exact"`` mirror from ``to_data()``.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

from bjcalc.actions import Action
from bjcalc.cards import BLACKJACK, BUST, RUN_OUT, UP_ORDER, Rank, is_blackjack

N = TypeVar("N")  # float, or sympy.Rational in exact mode



def is_rational(value: Any) -> bool:
    """Whether ``value`` is an exact fraction (``sympy.Rational`` or ``Fraction``), the numbers
    exact mode computes. Python ints (counts) are exact in JSON already and are not counted.

    >>> import sympy
    >>> is_rational(sympy.Rational(1, 3)), is_rational(Fraction(1, 2)), is_rational(0.5), is_rational(3)
    (True, True, False, False)
    """
    return isinstance(value, Fraction) or (hasattr(value, "p") and hasattr(value, "q"))


def plain(data: Any) -> Any:
    """``to_data()`` output as plain JSON values: every exact fraction as a float, integers
    (counts) kept, keys as strings.

    >>> import sympy
    >>> plain({"ev": sympy.Rational(-1, 2), "combinations": 3, "by_upcard": {Rank.ACE: Fraction(1, 4)}})
    {'ev': -0.5, 'combinations': 3, 'by_upcard': {'A': 0.25}}
    """
    if isinstance(data, dict):
        return {_key(key): plain(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [plain(value) for value in data]
    if isinstance(data, enum.Enum):
        return data.value
    if data is None or isinstance(data, (bool, int, str)):
        return data
    return float(data)


def _key(key: Any) -> str:
    return str(key.value) if isinstance(key, enum.Enum) else str(key)


class _Data:
    """``to_dict()`` is ``to_data()`` with plain JSON numbers."""

    def to_data(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON values (docs/json.md): numbers as floats, counts as ints."""
        result: dict[str, Any] = plain(self.to_data())
        return result


def by_up(values: Mapping[Rank, Any]) -> dict[str, Any]:
    """A mapping keyed by up card, in chart order (2..9, T, A), with string keys."""
    return {str(up): values[up] for up in sorted(values, key=lambda u: UP_ORDER.index(str(u)))}


class Outcome(str, enum.Enum):
    """A dealer's final outcome: standing on a total, bust, or blackjack. Totals below 17 occur
    only where a card limit stops the dealer; ``run-out`` only on a shoe dealt to its last cards,
    where some order of the draws empties it before the dealer can stop (such a deal is void).
    The value is the JSON key (``"17"``, ``"bust"``)."""

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
    RUN_OUT = "run-out"  # the shoe ran out of cards before the dealer could stop (bjcalc.engine.lastcards)

    @classmethod
    def _missing_(cls, value: object) -> Outcome | None:
        """A total as an int (``Outcome(21) is Outcome.TOTAL_21``), and names in any case."""
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str):
            for member in cls:
                if member.value == value.strip().lower():
                    return member
        return None

    @classmethod
    def of_code(cls, code: int) -> Outcome:
        """The engine's outcome code (a total, :data:`~bjcalc.cards.BUST`, :data:`~bjcalc.cards.BLACKJACK`)."""
        return cls({BUST: "bust", BLACKJACK: "blackjack", RUN_OUT: "run-out"}.get(code, str(code)))

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
class DealerResult(_Data, Mapping[Outcome, N], Generic[N]):
    """Dealer final-outcome probabilities with ``up`` showing: before the peek (blackjack
    included) or, ``peeked``, conditioned on no dealer blackjack. A mapping Outcome ->
    probability, summing to exactly 1 in exact mode."""

    up: Rank
    probabilities: dict[Outcome, N]
    peeked: bool
    removed: tuple[Rank, ...] = ()

    def __getitem__(self, outcome: Outcome | str | int) -> N:
        """The probability of ``outcome``: an :class:`Outcome`, its value (``"bust"``, ``"21"``)
        or a total as an int (``21``). A key that is none of this shoe's outcomes is a
        ``KeyError``, as in any mapping (so ``in`` and ``get`` work)."""
        try:
            return self.probabilities[Outcome(outcome)]
        except (ValueError, TypeError):  # not an outcome at all (TypeError: unhashable)
            raise KeyError(outcome) from None

    def __iter__(self) -> Iterator[Outcome]:
        return iter(self.probabilities)

    def __len__(self) -> int:
        return len(self.probabilities)

    @property
    def frame(self) -> str:
        """``"conditioned"`` (on no dealer blackjack: after the peek) or ``"unconditional"``."""
        return "conditioned" if self.peeked else "unconditional"

    def to_data(self) -> dict[str, Any]:
        return {"up": str(self.up), "peeked": self.peeked, "frame": self.frame,
                "removed": [str(c) for c in self.removed],
                "probabilities": {str(o): p for o, p in self.probabilities.items()}}


@dataclasses.dataclass(frozen=True)
class RunOut(_Data, Generic[N]):
    """How likely a deal is to run out of cards (a shoe dealt to its last cards), with the
    plays its numbers assume. bjcalc counts a deal that needs a card the shoe no longer has as
    **void** (every bet returned: the rule ``"void"``); a casino shuffles its discards and deals
    on, which moves the EV by at most ``bound`` either way, whatever the discards hold.
    ``exact``: ``probability`` is worked out; else it is an upper bound (on a counter's shoe
    the deals of a split are bounded, not walked). The casino's best play may differ from
    bjcalc's, so ``bound`` is the stakes times ``most``, the chance of running out when every
    play after the first (and for a round, the first too) is the one likeliest to run out.
    ``frame``: that of the EV it goes with."""

    probability: N
    bound: N
    exact: bool
    most: N  # the chance if every play after the first were the likeliest to run out (what ``bound`` uses)
    frame: str = "unconditional"
    rule: str = "void"

    def describe(self, shown: str) -> str:
        """One line: ``shown`` is the probability as printed."""
        chance = f"{shown}" if self.exact else f"at most {shown}"
        return (f"runs out of cards with probability {chance} ({self.frame}): such deals count as void (bets "
                f"returned); a casino's reshuffle of its discards moves the EV by at most {float(self.bound):.3g}")  # type: ignore[arg-type]

    def to_data(self) -> dict[str, Any]:
        return {"probability": self.probability, "exact": self.exact, "most": self.most, "frame": self.frame,
                "rule": self.rule, "casino_bound": self.bound}


@dataclasses.dataclass(frozen=True)
class HandResult(_Data, Generic[N]):
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
    # on a shoe dealt to its last cards: each action's chance of running out (None: none can)
    run_out: dict[Action, RunOut[N]] | None = None

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
        return is_blackjack([self.cards.count(rank) for rank in Rank])

    @property
    def frame(self) -> str:
        """``"conditioned"`` (on no dealer blackjack) or ``"unconditional"``."""
        return "conditioned" if self.conditioned else "unconditional"

    def to_data(self) -> dict[str, Any]:
        """Every action's EV (``None`` where the rules or the cards do not allow it), insurance
        and even money (``None`` where not offered), and each number's frame in ``frames``."""
        out: dict[str, Any] = {"hand": self.notation, "up": str(self.up)}
        frames: dict[str, str] = {}
        for action in Action:
            value = self.evs.get(action)
            out[action.key] = value
            if value is not None:
                frames[action.key] = self.frame
        for name, value in (("insurance", self.insurance), ("even_money", self.even_money)):
            out[name] = value
            if value is not None:
                frames[name] = "unconditional"
        out["dealer_blackjack"] = self.dealer_blackjack
        out["best"] = self.best.key
        out["conditioned"] = self.conditioned
        out["frames"] = frames
        out["strategy"] = self.strategy.to_dict()
        if self.run_out is not None:
            out["run_out"] = {action.key: r.to_data() for action, r in self.run_out.items()}
        return out


@dataclasses.dataclass(frozen=True)
class RoundResult(_Data, Generic[N]):
    """The whole round under ``strategy``: ``ev`` is the player's expected result per round,
    unconditional, in units of the initial bet (``house_edge = -ev``); ``by_upcard`` the EV
    given each up card (unconditional); ``insurance`` the EV per unit of insurance bet off the
    top (never taken in ``ev``)."""

    ev: N
    by_upcard: dict[Rank, N]
    upcard_probability: dict[Rank, N]
    strategy: Strategy
    insurance: N | None
    run_out: RunOut[N] | None = None  # on a shoe dealt to its last cards (None: no deal runs out)

    @property
    def house_edge(self) -> N:
        return -self.ev  # type: ignore[operator]

    @property
    def house_edge_percent(self) -> float:
        return 100 * float(self.house_edge)  # type: ignore[arg-type]

    def to_data(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy.to_dict(),
            "frame": "unconditional",
            "ev": self.ev,
            "house_edge": self.house_edge,
            "house_edge_percent": 100 * self.house_edge,  # type: ignore[operator]
            "insurance": self.insurance,
            "by_upcard": by_up(self.by_upcard),
            "upcard_probability": by_up(self.upcard_probability),
            **({} if self.run_out is None else {"run_out": self.run_out.to_data()}),
        }


@dataclasses.dataclass(frozen=True)
class Variance(_Data, Generic[N]):
    """The variance of one round's result (insurance not taken) under ``strategy``; ``None``
    where the rules allow resplitting (more than two hands), which bjcalc does not compute."""

    variance: N | None
    strategy: Strategy

    @property
    def sd(self) -> float | None:
        """The standard deviation per round, in initial bets."""
        return None if self.variance is None else math.sqrt(float(self.variance))  # type: ignore[arg-type]

    def to_data(self) -> dict[str, Any]:
        return {"strategy": self.strategy.to_dict(), "variance": self.variance, "sd": self.sd}


@dataclasses.dataclass(frozen=True)
class HandPlay(_Data, Generic[N]):
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

    def to_data(self) -> dict[str, Any]:
        return {"hand": self.hand, "up": str(self.up), "same_face": self.same_face, "action": self.action.key,
                "probability": self.probability, "ev": self.ev}


@dataclasses.dataclass(frozen=True)
class ChartEvaluation(_Data, Generic[N]):
    """A chart's round (every play by the chart) and the first play of every two-card hand."""

    round: RoundResult[N]
    plays: tuple[HandPlay[N], ...]

    def to_data(self) -> dict[str, Any]:
        return {"round": self.round.to_data(), "plays": [p.to_data() for p in self.plays]}


@dataclasses.dataclass(frozen=True)
class ChartException(_Data):
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

    def to_data(self) -> dict[str, Any]:
        return {"hand": self.hand, "up": str(self.up), "chart": self.chart.key, "best": self.best.key,
                "gain": self.gain}


class ChartTable(dict[str, dict[str, str]]):
    """One table of a chart (``kind``: ``"hard"``, ``"soft"`` or ``"pairs"``): a dict row ->
    up card -> code (``table["16"]["T"]``), rows and up cards in chart order, that prints as
    a grid (``print(chart.table("hard"))``). ``rows`` and ``columns`` name them; ``to_dict()``
    is a plain dict of plain dicts, as JSON holds it.

    >>> table = ChartTable("hard", {"16": {"9": "H", "T": "Rh"}, "17": {"9": "S", "T": "S"}})
    >>> print(table)
    hard  9  T
    16    H  Rh
    17    S  S
    >>> table["16"]["T"], table.rows, table.columns
    ('Rh', ['16', '17'], ['9', 'T'])
    """

    def __init__(self, kind: str, cells: Mapping[str, Mapping[str, str]]) -> None:
        super().__init__({row: dict(codes) for row, codes in cells.items()})
        self.kind = kind

    @property
    def rows(self) -> list[str]:
        return list(self)

    @property
    def columns(self) -> list[str]:
        """The up cards, in chart order (2..9, T, A, those the shoe holds)."""
        return list(next(iter(self.values()), {}))

    def to_dict(self) -> dict[str, dict[str, str]]:
        return {row: dict(codes) for row, codes in self.items()}

    def __str__(self) -> str:
        grid = [[self.kind, *self.columns]] + [[row, *codes.values()] for row, codes in self.items()]
        widths = [max(len(line[i]) for line in grid) for i in range(len(grid[0]))]
        return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in grid)

    def __repr__(self) -> str:
        return f"ChartTable({self.kind!r}, {self.to_dict()!r})"


@dataclasses.dataclass(frozen=True)
class Deviation(_Data):
    """A chart cell that differs from the optimal chart, and what it costs: the round EV lost
    per round (float)."""

    kind: str  # "hard", "soft" or "pairs"
    row: str
    up: Rank
    code: str
    optimal: str
    cost: float

    def to_data(self) -> dict[str, Any]:
        return {"table": self.kind, "row": self.row, "up": str(self.up), "code": self.code,
                "optimal": self.optimal, "cost": self.cost}


@dataclasses.dataclass(frozen=True)
class BetBehindResult(_Data, Generic[N]):
    """EV per unit bet behind, unconditional: ``follows_everything`` (doubles and splits too:
    the seated player's own EV without insurance) and ``cannot_afford`` (one card instead of a
    double, the first hand of a split). ``seated``: the seated player's strategy."""

    seated: Strategy
    follows_everything: N
    cannot_afford: N
    run_out: RunOut[N] | None = None  # on a shoe dealt to its last cards: the seated player's deal's

    def to_data(self) -> dict[str, Any]:
        """The two bets, each with its EV, house edge and spread (``variance`` and ``sd`` not
        computed here: ``None``); ``strategy`` is the seated player's."""
        return {"strategy": self.seated.to_dict(), "frame": "unconditional",
                "follows_everything": bet_figures(self.follows_everything),
                "cannot_afford": bet_figures(self.cannot_afford),
                **({} if self.run_out is None else {"run_out": self.run_out.to_data()})}


def bet_figures(ev: Any, variance: Any = None) -> dict[str, Any]:
    """One bet's EV per unit bet, its house edge (also in percent), variance and sd (``None``
    where not computed: not asked for, or the infinite deck)."""
    return {"ev": ev, "house_edge": -ev, "house_edge_percent": -100 * ev, "variance": variance,
            "sd": None if variance is None else math.sqrt(float(variance))}
