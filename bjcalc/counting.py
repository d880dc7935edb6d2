"""Effects of removal and count systems: what each card does to the game, and how well a point
count tracks it.

**Effect of removal** (EOR) of a rank: the round's EV after removing one card of that rank from
the shoe minus the EV before, per initial bet (``effects`` gives it in percent, as published
tables do). It depends on how the game is played, so the strategy is always named:

- ``chart``: the starting shoe's basic-strategy chart (or a given chart) held fixed for every
  shoe; then the frequency-weighted EORs sum to exactly zero (removing a random card changes
  nothing on average, the burn-card theorem);
- ``basic``: basic strategy re-derived for each shoe;
- ``cd``: composition-dependent play on each shoe (split hands by the analysis' post-split
  strategy).

A **play's EOR**: for one decision (a hand against an up card, two actions), the EOR of the EV
difference of the two actions, in the decision's own frame (conditioned on no dealer blackjack
where the dealer peeks).

**Count systems**: a point count gives each rank a tag. Following Griffin (The Theory of
Blackjack), with ``p_r`` the rank's share of the shoe:

- betting correlation (BC): the correlation of the tags with the round's EORs, weighted by
  ``p_r``;
- insurance correlation (IC): the correlation of the tags with the insurance bet's EORs;
- the linear estimates that follow from the regression of EV on the count: the player's
  advantage gained per unit of true count (count per deck remaining), and a play's index, the
  true count at which its EV difference changes sign. These are labelled linear estimates:
  they are exact regressions of exact EORs, not exact EVs at those counts;
- playing efficiency (PE): the share of the gain from perfect strategy variation that the count
  gains, Griffin's normal-model estimate over the first decisions of two-card hands (their
  frequencies and the EORs of each decision's two best plays) and an even spread of depths.

See docs/counting.md for the definitions written out.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import enum
import functools
import math
import multiprocessing
import os
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.cards import (
    ACE,
    TEN,
    UP_INDICES,
    UP_ORDER,
    Rank,
    as_cards,
    counts_total,
    is_blackjack,
    parse_card,
    parse_cards,
)
from bjcalc.engine import pools
from bjcalc.engine.payout import Frame, reframe
from bjcalc.errors import BjcalcError, InvalidCardError, InvalidHandError, InvalidRulesError
from bjcalc.numbers import to_api, to_fraction
from bjcalc.results import Strategy, _Data, by_up
from bjcalc.rules import Rules
from bjcalc.strategy import Chart


class EorStrategy(str, enum.Enum):
    """How every shoe of an EOR table is played (see the module docstring)."""

    CHART = "chart"
    BASIC = "basic"
    CD = "cd"


# -- the analyses, one shoe each (run in worker processes) ----------------------------------------


def _shoe_ev(
    rules: Rules, strategy: EorStrategy, chart: Chart | None, exact: bool, post_split: str,
    two_card_plays: bool = True,
) -> Fraction | float:
    """The round's EV on ``rules``' shoe under ``strategy`` (a Fraction in exact mode;
    ``two_card_plays=False``: basic strategy is the classic chart, one play per total)."""
    analysis = Analysis(rules, exact=exact, post_split=post_split)
    if strategy is EorStrategy.CD:
        ev = analysis.round().ev
    else:
        played = chart if strategy is EorStrategy.CHART else analysis.chart(two_card_plays)
        assert played is not None
        ev = analysis.evaluate(played).round.ev
    return to_fraction(ev) if exact else float(ev)


def _play_difference(rules: Rules, cards: tuple[Rank, ...], up: Rank, first: Action, second: Action,
                     exact: bool, post_split: str) -> Fraction | float:
    """EV(first) - EV(second) for ``cards`` against ``up`` on ``rules``' shoe."""
    result = Analysis(rules, exact=exact, post_split=post_split).hand(cards, up)
    for action in (first, second):
        if action not in result.evs:
            raise InvalidHandError(f"{action.key} is not a play for {result.notation} against {up}")
    difference = result.evs[first] - result.evs[second]
    return to_fraction(difference) if exact else float(difference)


def _context() -> multiprocessing.context.BaseContext:
    """Worker processes that start clean: a fork server that has imported bjcalc once (never a
    plain fork of this process, whose dealer threads may hold locks), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bjcalc.counting"])
        return context
    return multiprocessing.get_context("spawn")


class WorkerPool:
    """The one place the EOR pipeline's worker processes are made: ``workers`` processes
    (default: one per core; 1 runs every job here), started at the first job that needs them
    and shared by every job until the ``with`` block ends.

    >>> with WorkerPool(1) as pool:
    ...     pool.map(abs, [(-1,), (2,)])
    [1, 2]
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers if workers is not None else (os.cpu_count() or 1)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def map(self, job: Callable[..., Any], arguments: list[tuple], progress: Callable[[str], None] | None = None,
            names: Sequence[str] = ()) -> list[Any]:
        """``job(*a)`` for every ``a``, reporting each finished one to ``progress`` by name."""
        names = list(names) or [str(i) for i in range(len(arguments))]
        if self.workers <= 1 or len(arguments) <= 1:
            return self._here(job, arguments, progress, names)
        try:
            if self._pool is None:
                self._pool = pools.processes(self.workers, _context())
            futures = {self._pool.submit(job, *args): i for i, args in enumerate(arguments)}
            results: list[Any] = [None] * len(arguments)
            for future in concurrent.futures.as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                if progress:
                    progress(names[i])
            return results
        except concurrent.futures.process.BrokenProcessPool:
            # workers could not start (e.g. a __main__ they cannot import): do the work here
            self.workers = 1
            return self._here(job, arguments, progress, names)

    @staticmethod
    def _here(job: Callable[..., Any], arguments: list[tuple], progress: Callable[[str], None] | None,
              names: list[str]) -> list[Any]:
        out = []
        for name, args in zip(names, arguments):
            out.append(job(*args))
            if progress:
                progress(name)
        return out


def _map(job: Callable[..., Any], arguments: list[tuple], workers: int | WorkerPool | None,
         progress: Callable[[str], None] | None, names: list[str]) -> list[Any]:
    """``job(*a)`` for every ``a`` in ``workers`` (a :class:`WorkerPool`, or the number of
    processes of one made for these jobs alone)."""
    if isinstance(workers, WorkerPool):
        return workers.map(job, arguments, progress, names)
    with WorkerPool(min(workers or os.cpu_count() or 1, max(1, len(arguments)))) as pool:
        return pool.map(job, arguments, progress, names)


# -- effects of removal ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class EffectsOfRemoval(_Data):
    """EVs after removing one card of each rank, and the EORs. ``base`` and ``ev`` are per
    initial bet, unconditional (``float``, or ``sympy.Rational`` in exact mode); ``effects``
    are in percent of the initial bet (float); ``counts``: the starting shoe."""

    rules: Rules
    strategy: Strategy
    base: Any
    ev: dict[Rank, Any]
    exact: bool

    @property
    def counts(self) -> tuple[int, ...]:
        return self.rules.shoe_counts

    @property
    def eor(self) -> dict[Rank, Any]:
        """EV after removal minus the EV before, per initial bet (exact in exact mode)."""
        return {rank: ev - self.base for rank, ev in self.ev.items()}

    @property
    def effects(self) -> dict[Rank, float]:
        """The EORs in percent of the initial bet, ranks in chart order (2..T, A)."""
        return {rank: 100 * float(self.eor[rank]) for rank in _chart_order(self.ev)}

    def weighted_sum(self) -> Any:
        """``sum_r n_r EOR_r``: exactly zero when a fixed chart plays every shoe."""
        return sum((self.counts[rank.index] * e for rank, e in self.eor.items()), 0 * self.base)

    def to_data(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy.to_dict(),
            "shoe_counts": list(self.counts),
            "base_ev": self.base,
            "ev": by_up(self.ev),
            "eor": by_up(self.eor),
            "eor_percent": by_up(self.effects),
        }


def _chart_order(ranks: Mapping[Rank, Any]) -> list[Rank]:
    return sorted(ranks, key=lambda r: UP_ORDER.index(r.value))


def effects_of_removal(
    rules: Rules,
    strategy: EorStrategy | str = EorStrategy.CHART,
    *,
    chart: Chart | None = None,
    exact: bool = False,
    post_split: str = "cdz-",
    workers: int | WorkerPool | None = None,
    progress: Callable[[str], None] | None = None,
    two_card_plays: bool = True,
) -> EffectsOfRemoval:
    """The EOR of every rank the shoe holds (see the module docstring). ``chart``: the chart
    held fixed (``strategy="chart"``; default: the starting shoe's basic strategy, the classic
    one with ``two_card_plays=False``, as for ``strategy="basic"``)."""
    try:
        strategy = EorStrategy(strategy)
    except ValueError:
        choices = ", ".join(repr(s.value) for s in EorStrategy)
        raise InvalidRulesError(f"strategy must be one of {choices}, not {strategy!r}") from None
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no effects of removal: cards are drawn with replacement")
    if chart is not None and strategy is not EorStrategy.CHART:
        raise InvalidRulesError(f"a chart is held fixed only with strategy 'chart', not {strategy.value!r}")
    if strategy is EorStrategy.CHART and chart is None:
        chart = Analysis(rules).chart(two_card_plays)
    ranks = [rank for rank in Rank if rules.shoe_counts[rank.index] > 0]
    shoes = [rules] + [rules.without([rank]) for rank in ranks]
    arguments = [(shoe, strategy, chart, exact, post_split, two_card_plays) for shoe in shoes]
    names = ["full shoe"] + [f"without one {rank}" for rank in ranks]
    evs = _map(_shoe_ev, arguments, workers, progress, names)
    if strategy is EorStrategy.CD:
        label = Analysis(rules, post_split=post_split).cd
    elif strategy is EorStrategy.BASIC:
        label = Strategy("basic" + ", classic" * (not two_card_plays) + ", re-derived for each shoe", chart=True,
                         split_hands="by the chart")
    else:
        assert chart is not None
        label = Strategy(f"{chart.strategy}, held fixed", chart=True, split_hands="by the chart")
    return EffectsOfRemoval(
        rules=rules,
        strategy=label,
        base=to_api(evs[0], exact),
        ev={rank: to_api(ev, exact) for rank, ev in zip(ranks, evs[1:])},
        exact=exact,
    )


@dataclasses.dataclass(frozen=True)
class PlayEffects(_Data):
    """A decision's EV difference (``first`` minus ``second``, per initial bet, in the hand's
    frame) and its EOR for every rank left in the shoe (exact in exact mode)."""

    cards: tuple[Rank, ...]
    up: Rank
    first: Action | None  # None for insurance: insuring minus not
    second: Action | None
    difference: Any
    after: dict[Rank, Any]  # the difference after removing one card of the rank
    conditioned: bool
    rules: Rules  # the shoe the decision is taken from (before the hand is dealt)
    total: HandTotal | None = None  # a decision named by its total: every two-card hand of it

    @property
    def eor(self) -> dict[Rank, Any]:
        return {rank: d - self.difference for rank, d in self.after.items()}

    @property
    def hand_text(self) -> str:
        """``T,6``; for a total, the total and the hands it stands for: ``hard 16 (T,6 or 9,7)``."""
        if self.total is not None:
            return f"{self.total} ({' or '.join(','.join(map(str, h)) for h in self.total.hands())})"
        return ",".join(map(str, self.cards))

    @property
    def label(self) -> str:
        """``T,6 v T: stand - hit``; ``insurance v A`` (insure minus not)."""
        hand = self.hand_text
        if self.first is None or self.second is None:
            return f"insurance v {self.up}" + (f" ({hand} seen)" if hand else "")
        return f"{hand} v {self.up}: {self.first.key} - {self.second.key}"

    def shoe_left(self) -> tuple[Any, ...]:
        """The shoe the EORs are taken on, A..T: the shoe without the hand and the up card; for a
        total, without the up card and the hand's expected cards (each hand weighted by its
        chance), exact fractions."""
        if self.total is None:
            return self.rules.without(list(self.cards) + [self.up]).shoe_counts
        counts = self.rules.without([self.up]).shoe_counts
        expected = [Fraction(0)] * 10
        for hand, share in _total_weights(counts, self.total.hands(), self.up, self.conditioned).items():
            for card in hand:
                expected[card.index] += share
        return tuple(n - e for n, e in zip(counts, expected))

    def to_data(self) -> dict[str, Any]:
        return {
            "play": self.label, "hand": self.hand_text, "up": str(self.up),
            "first": self.first.key if self.first else "insure",
            "second": self.second.key if self.second else "not",
            "frame": "conditioned" if self.conditioned else "unconditional",
            "difference": self.difference,
            "eor": by_up(self.eor),
        }


def play_effects(
    rules: Rules,
    cards: str | Sequence[Rank | str] | HandTotal,
    up: Rank | str,
    first: Action | str,
    second: Action | str,
    *,
    exact: bool = False,
    post_split: str = "cdz-",
    workers: int | WorkerPool | None = None,
) -> PlayEffects:
    """The EOR of ``EV(first) - EV(second)`` for ``cards`` against ``up`` (CD play after the
    first decision), removing one card of each rank from the shoe left after the hand and the
    up card. ``cards`` may name a total (``"16"``, ``"soft 18"``, :func:`parse_hand`): the
    difference is then the average over every two-card hand of the total, each weighted by its
    chance of being dealt with ``up``, on the shoe before and after each removal."""
    hand = parse_hand(cards) if isinstance(cards, str) else cards
    plays = [_action(first), _action(second)]
    if isinstance(hand, HandTotal):
        hands = hand.hands()
        up_rank = parse_card(up)
        left = rules.without([up_rank])
        if not any(_hand_weight(left.shoe_counts, h) for h in hands):
            raise InvalidHandError(f"the shoe cannot deal a {hand} against {up_rank}")
        analysis = Analysis(rules, exact=exact, post_split=post_split)
        for h in hands:
            if _hand_weight(left.shoe_counts, h):
                evs = analysis.hand(h, up_rank).evs
                for action in plays:
                    if action not in evs:
                        raise InvalidHandError(f"{action.key} is not a play for {hand} against {up_rank}")
        ranks = [rank for rank in Rank if left.shoe_counts[rank.index] > 0]
        shoes = [rules] + [rules.without([rank]) for rank in ranks]
        jobs: list[tuple] = [(shoe, hands, up_rank, plays[0], plays[1], exact, post_split) for shoe in shoes]
        base_difference, *after = _map(_total_difference, jobs, workers, None,
                                       ["full shoe"] + [str(r) for r in ranks])
        conditioned = analysis.hand(next(h for h in hands if _hand_weight(left.shoe_counts, h)), up_rank).conditioned
        return PlayEffects(
            cards=(), up=up_rank, first=plays[0], second=plays[1], difference=to_api(base_difference, exact),
            after={rank: to_api(d, exact) for rank, d in zip(ranks, after)},
            conditioned=conditioned, rules=rules, total=hand,
        )
    analysis = Analysis(rules, exact=exact, post_split=post_split)
    base = analysis.hand(hand, up)
    for action in plays:
        if action not in base.evs:
            raise InvalidHandError(f"{action.key} is not a play for {base.notation} against {base.up}")
    left = rules.without(list(base.cards) + [base.up])
    ranks = [rank for rank in Rank if left.shoe_counts[rank.index] > 0]
    arguments = [(rules.without([rank]), base.cards, base.up, plays[0], plays[1], exact, post_split)
                 for rank in ranks]
    after = _map(_play_difference, arguments, workers, None, [str(r) for r in ranks])
    return PlayEffects(
        cards=base.cards, up=base.up, first=plays[0], second=plays[1],
        difference=base.evs[plays[0]] - base.evs[plays[1]],
        after={rank: to_api(d, exact) for rank, d in zip(ranks, after)},
        conditioned=base.conditioned, rules=rules,
    )


@dataclasses.dataclass(frozen=True)
class HandTotal:
    """A decision named by its total, as counters name them: every two-card hand of the total
    that is not a pair (a pair is named by its cards, ``8,8``).

    >>> HandTotal(16).hands(), str(HandTotal(18, soft=True))
    (((Rank.TEN, Rank.SIX), (Rank.NINE, Rank.SEVEN)), 'soft 18')
    """

    value: int
    soft: bool = False

    def __str__(self) -> str:
        return f"{'soft' if self.soft else 'hard'} {self.value}"

    def hands(self) -> tuple[tuple[Rank, Rank], ...]:
        """The two-card hands of the total, not pairs, higher card first."""
        out = []
        for high in range(10, 1, -1):  # 10 = a ten-valued card
            for low in range(high - 1, 0, -1):
                soft = low == 1
                value = high + low + (10 if soft else 0)
                if soft == self.soft and value == self.value and high != low:
                    out.append((_rank_of(high), _rank_of(low)))
        return tuple(out)


def _rank_of(value: int) -> Rank:
    return Rank.ACE if value == 1 else Rank.TEN if value == 10 else Rank(str(value))


_TOTAL = re.compile(r"(?P<kind>h|hard|s|soft)?\s*(?P<value>\d{1,2})", re.IGNORECASE)


def parse_hand(text: str) -> tuple[Rank, ...] | HandTotal:
    """A hand as a play names it: cards (``T,6``, ``A7``, ``8,8``) or a total: ``16`` or ``h16``
    (hard 16: T,6 and 9,7), ``s18`` or ``soft 18`` (A,7). Digits that read as two or more
    cards (``55``) are cards; a total stands for the two-card hands of it that are not pairs.

    >>> parse_hand("16"), parse_hand("soft18"), parse_hand("55")
    (HandTotal(value=16, soft=False), HandTotal(value=18, soft=True), (Rank.FIVE, Rank.FIVE))
    """
    match = _TOTAL.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        return parse_cards(text)
    if match["kind"] is None:
        try:
            cards = parse_cards(text)
        except InvalidCardError:
            cards = ()
        if len(cards) >= 2:
            return cards
    total = HandTotal(int(match["value"]), soft=(match["kind"] or "h").lower().startswith("s"))
    if not total.hands():
        kind = "soft" if total.soft else "hard"
        raise InvalidHandError(
            f"no two-card {kind} {total.value} that is not a pair, in {text!r}: a total is "
            f"{'13 to 20 (soft)' if total.soft else '5 to 19 (hard)'}; give a pair by its cards, e.g. 8,8")
    return total


def _hand_weight(counts: Sequence[int], hand: tuple[Rank, ...]) -> int:
    """How many ways ``counts`` deals the two distinct ranks of ``hand`` (proportional to its
    chance)."""
    a, b = hand[0].index, hand[1].index
    return counts[a] * counts[b]


def _total_weights(counts: Sequence[int], hands: Sequence[tuple[Rank, Rank]], up: Rank,
                   conditioned: bool) -> dict[tuple[Rank, Rank], Fraction]:
    """Each hand's share of the decision dealt from ``counts`` (the shoe once ``up`` is out):
    its chance, and where the frame is conditioned, times the chance of no dealer blackjack
    with it out (the hole card drawn from the cards left). Hands the shoe cannot deal: 0."""
    raw: dict[tuple[Rank, Rank], Fraction] = {}
    hole = {Rank.ACE: TEN, Rank.TEN: ACE}.get(up)
    for hand in hands:
        weight = Fraction(_hand_weight(counts, hand))
        if conditioned and hole is not None and weight:
            left = list(counts)
            for card in hand:
                left[card.index] -= 1
            weight *= 1 - Fraction(left[hole], sum(left))
        raw[hand] = weight
    whole = sum(raw.values())
    return {hand: w / whole if whole else Fraction(0) for hand, w in raw.items()}


def _total_difference(rules: Rules, hands: Sequence[tuple[Rank, Rank]], up: Rank, first: Action, second: Action,
                      exact: bool, post_split: str) -> Fraction | float:
    """EV(first) - EV(second) averaged over ``hands`` against ``up`` on ``rules``' shoe, each
    hand weighted by its share of the decision (:func:`_total_weights`)."""
    counts = rules.without([up]).shoe_counts
    analysis = Analysis(rules, exact=exact, post_split=post_split)
    results = {h: analysis.hand(h, up) for h in hands if _hand_weight(counts, h)}
    conditioned = next(iter(results.values())).conditioned
    total: Fraction | float = Fraction(0) if exact else 0.0
    for hand, share in _total_weights(counts, hands, up, conditioned).items():
        if share:
            evs = results[hand].evs
            difference = evs[first] - evs[second]
            total += to_fraction(difference) * share if exact else float(difference) * float(share)
    return total


def _action(action: Action | str) -> Action:
    if isinstance(action, Action):
        return action
    for member in Action:
        if str(action).lower() in (member.key, member.value.lower()):
            return member
    raise InvalidHandError(f"unknown play {action!r} (stand, hit, double, split, surrender)")


_PLAY = re.compile(r"(?P<cards>.+?)\s+vs?\.?\s+(?P<up>\S+)\s+(?P<first>\S+)\s+(?P<second>\S+)", re.IGNORECASE)


def parse_play(text: str) -> tuple[tuple[Rank, ...] | HandTotal, Rank, Action, Action]:
    """A decision as people write it, ``"CARDS v UP FIRST SECOND"``: the hand (cards, or a
    total: :func:`parse_hand`), the up card and the two plays compared (:func:`play_effects`
    takes the first minus the second).

    >>> parse_play("T,6 v T stand hit")
    ((Rank.TEN, Rank.SIX), Rank.TEN, Action.STAND, Action.HIT)
    """
    match = _PLAY.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidHandError(f"a play reads 'CARDS v UP ACTION ACTION', e.g. 'T,6 v T stand hit', not {text!r}")
    first, second = _action(match["first"]), _action(match["second"])
    if first is second:
        raise InvalidHandError(f"a play compares two different actions, not {first.key} with itself in {text!r}")
    return parse_hand(match["cards"]), parse_card(match["up"]), first, second


def insurance_effects(rules: Rules, cards: str | Sequence[Rank | str] = ()) -> PlayEffects:
    """The EOR of insurance (EV per unit of insurance bet, insuring minus not), exact: with
    ``t`` tens among ``n`` cards left, insurance is worth ``(3 t - n) / n``."""
    analysis = Analysis(rules, exact=True)
    seen = as_cards(cards) if cards else ()
    ace = Rank.ACE
    base = to_fraction(analysis.insurance(ace, seen))
    left = rules.without(list(seen) + [ace])
    after = {}
    for rank in Rank:
        if left.shoe_counts[rank.index]:
            after[rank] = analysis.insurance(ace, seen + (rank,))
    return PlayEffects(cards=seen, up=ace, first=None, second=None, difference=to_api(base, True),
                       after=after, conditioned=False, rules=rules)


# -- the EOR table and the count table: what ``bjcalc eor`` and ``bjcalc count`` print ------------

Progress = Callable[[str, int], None]  # (the step just done, the number of steps in all)


@dataclasses.dataclass(frozen=True)
class EorTable:
    """The round's effects of removal, each asked-for play's (then insurance's, where asked)
    and the strategy the plays' EVs assume after the decision. ``fixed_chart``: one chart
    played every shoe (the check ``sum n_r EOR_r`` is then exactly 0)."""

    removal: EffectsOfRemoval
    plays: tuple[PlayEffects, ...]
    play_strategy: Strategy
    fixed_chart: bool


def _check_plays(rules: Rules, plays: Sequence[str | tuple[Any, Any, Any, Any]], post_split: str
                 ) -> list[tuple[tuple[Rank, ...] | HandTotal, Rank, Action, Action]]:
    """Every play parsed and checked against the rules and the shoe before any work."""
    analysis = Analysis(rules, post_split=post_split)
    out = []
    for play in plays:
        hand, up, first, second = parse_play(play) if isinstance(play, str) else (
            parse_hand(play[0]) if isinstance(play[0], str) else play[0], parse_card(play[1]),
            _action(play[2]), _action(play[3]))
        where = f" in play {play!r}" if isinstance(play, str) else ""
        if isinstance(hand, HandTotal):
            dealt = [h for h in hand.hands() if _hand_weight(rules.without([up]).shoe_counts, h)]
            if not dealt:
                raise InvalidHandError(f"the shoe cannot deal a {hand} against {up}{where}")
            hands: list[tuple[Rank, ...]] = list(dealt)
            name = str(hand)
        else:
            hands, name = [hand], ",".join(map(str, hand))
        for cards in hands:
            evs = analysis.hand(cards, up).evs  # refuses cards the shoe cannot deal
            for action in (first, second):
                if action not in evs:
                    raise InvalidHandError(
                        f"{action.key} is not a play for {name} against {up} under these rules{where}")
        out.append((hand, up, first, second))
    return out


def eor_table(
    rules: Rules,
    strategy: EorStrategy | str = EorStrategy.CHART,
    *,
    chart: Chart | None = None,
    plays: Sequence[str | tuple[Any, Any, Any, Any]] = (),
    insurance: bool = False,
    exact: bool = False,
    post_split: str = "cdz-",
    workers: int | None = None,
    progress: Progress | None = None,
    two_card_plays: bool = True,
) -> EorTable:
    """Everything ``bjcalc eor`` prints: :func:`effects_of_removal` of the round under
    ``strategy``, :func:`play_effects` of each of ``plays`` (text such as ``"T,6 v T stand
    hit"`` or ``"16 v T stand hit"``, or (hand, up, first, second)) and, with ``insurance``,
    :func:`insurance_effects`. Every play is checked before the work; the analyses share one
    :class:`WorkerPool` of ``workers`` processes; ``progress`` hears of each step done.
    ``two_card_plays=False``: the charts built (the one held fixed, or basic strategy for each
    shoe) are classic, one play per total.

    >>> table = eor_table(Rules(decks=1), workers=1)
    >>> table.removal.weighted_sum() == 0 or abs(table.removal.weighted_sum()) < 1e-12
    True
    """
    decisions = _check_plays(rules, plays, post_split)
    if insurance and not rules.shoe_counts[Rank.ACE.index]:
        raise InvalidHandError("insurance needs an ace up, and the shoe holds no ace")
    extra = [insurance_effects(rules)] if insurance else []
    steps = 1 + sum(1 for n in rules.shoe_counts if n) + len(decisions)

    def step(name: str) -> None:
        if progress is not None:
            progress(name, steps)

    with WorkerPool(workers) as pool:
        removal = effects_of_removal(rules, strategy, chart=chart, exact=exact, post_split=post_split,
                                     workers=pool, progress=step, two_card_plays=two_card_plays)
        done = []
        for hand, up, first, second in decisions:
            done.append(play_effects(rules, hand, up, first, second, exact=exact, post_split=post_split,
                                     workers=pool))
            step(done[-1].label)
    return EorTable(removal, tuple(done + extra), Analysis(rules, post_split=post_split).cd,
                    EorStrategy(strategy) is EorStrategy.CHART)


@dataclasses.dataclass(frozen=True)
class CountTable:
    """Everything ``bjcalc count`` prints: the EOR table the figures come from, each system's
    figures, each system's index of each play (:func:`play_index`: the true count, exact in
    exact mode, and whether the first play is the better above it; ``(None, None)`` where the
    count does not move the play) and, with playing efficiency, what its model assumes."""

    eor: EorTable
    figures: tuple[CountFigures, ...]
    indices: tuple[tuple[tuple[Any, bool | None], ...], ...]
    pe_model: dict[str, Any] | None = None


def count_table(
    rules: Rules,
    systems: Sequence[CountSystem | str] = (),
    strategy: EorStrategy | str = EorStrategy.CHART,
    *,
    chart: Chart | None = None,
    plays: Sequence[str | tuple[Any, Any, Any, Any]] = (),
    insurance: bool = False,
    playing_efficiency: bool = False,
    exact: bool = False,
    post_split: str = "cdz-",
    workers: int | None = None,
    progress: Progress | None = None,
    two_card_plays: bool = True,
) -> CountTable:
    """``systems`` (names of :data:`SYSTEMS` or :class:`CountSystem`; default: all the
    built-in ones) measured on the game's EORs (:func:`eor_table`, same arguments), and with
    ``playing_efficiency`` their playing efficiency (:func:`strategy_variations`, reported to
    ``progress`` after the EORs)."""
    chosen = [CountSystem.named(s) if isinstance(s, str) else s for s in systems]
    chosen = chosen or [CountSystem.named(name) for name in SYSTEMS]
    table = eor_table(rules, strategy, chart=chart, plays=plays, insurance=insurance, exact=exact,
                      post_split=post_split, workers=workers, progress=progress, two_card_plays=two_card_plays)
    variations = model = None
    if playing_efficiency:
        steps = 1 + sum(1 for n in rules.shoe_counts if n)
        variations = strategy_variations(rules, post_split=post_split, workers=workers,
                                         progress=None if progress is None else lambda name: progress(name, steps))
        model = playing_efficiency_model(variations, even_depths(sum(rules.shoe_counts)))
    figures = tuple(count_figures(system, table.removal, variations) for system in chosen)
    indices = []
    for system in chosen:
        row = []
        for play in table.plays:
            found = play_index(system, play)
            row.append((None, None) if found is None else ((found[0] if exact else float(found[0])), found[1]))
        indices.append(tuple(row))
    return CountTable(table, figures, tuple(indices), model)


# -- count systems --------------------------------------------------------------------------------

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


def parse_tags(text: str) -> tuple[Fraction, ...]:
    """Ten tags for 2, 3, ..., 9, T, A (the order of published tables), comma-separated:
    ``"1,1,1,1,1,0,0,0,-1,-1"`` is Hi-Lo. Returned in bjcalc's order, A first."""
    fields = [f for f in text.replace(" ", ",").split(",") if f]
    if len(fields) != 10:
        raise InvalidCardError(f"tags must be ten numbers for 2,3,4,5,6,7,8,9,T,A, not {text!r}")
    try:
        tags = [Fraction(f) for f in fields]
    except (ValueError, ZeroDivisionError):
        raise InvalidCardError(f"tags must be numbers such as 1, -1, 0.5 or 1/2, not {text!r}") from None
    if len(set(tags)) < 2:
        raise InvalidCardError(f"tags {text!r} give every card the same tag: that count counts nothing "
                               "(its correlations are undefined)")
    return (tags[9],) + tuple(tags[:9])


def _fraction(value: Any) -> Fraction:
    """A tag or an EOR (float, int, Fraction or sympy.Rational) as an exact Fraction."""
    return Fraction(value) if isinstance(value, (float, int, Fraction)) else to_fraction(value)


def _weights(counts: Sequence[int]) -> list[Fraction]:
    n = sum(counts)
    return [Fraction(c, n) for c in counts]


def _moments(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> tuple[Fraction, Fraction, Fraction]:
    """The covariance of ``tags`` and ``values`` (per rank, A first) over the cards of a shoe
    with ``counts``, each rank weighted by its share of the shoe, and their two variances."""
    w = _weights(counts)
    t = [_fraction(x) for x in tags]
    v = [_fraction(x) for x in values]
    mt = sum(wi * ti for wi, ti in zip(w, t))
    mv = sum(wi * vi for wi, vi in zip(w, v))
    cov = sum(wi * (ti - mt) * (vi - mv) for wi, ti, vi in zip(w, t, v))
    var_t = sum(wi * (ti - mt) ** 2 for wi, ti in zip(w, t))
    var_v = sum(wi * (vi - mv) ** 2 for wi, vi in zip(w, v))
    return Fraction(cov), Fraction(var_t), Fraction(var_v)


def correlation(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> float:
    """The correlation of ``tags`` with ``values`` (both per rank, A first) over the cards of a
    shoe with ``counts``: each rank weighted by its share of the shoe."""
    cov, var_t, var_v = _moments(tags, values, counts)
    if var_t == 0 or var_v == 0:
        return 0.0
    return float(cov) / math.sqrt(float(var_t) * float(var_v))


def slope(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> Fraction:
    """The regression of ``values`` (per rank, per card removed) on the tags, scaled to one
    unit of true count (running count per deck remaining): the linear estimate of how much
    the value changes per true count, exact for exact inputs. Derivation in docs/counting.md."""
    cov, var_t, _ = _moments(tags, values, counts)
    # per card removed -> per true count: (cards in the shoe - 1) / 52 (docs/counting.md)
    return cov / var_t * Fraction(sum(counts) - 1, 52) if var_t else Fraction(0)


def mean_tag(tags: Sequence[Any], counts: Sequence[int]) -> Fraction:
    """The average tag of the cards in a shoe: 0 for a balanced count on a full shoe; after
    seen cards, minus their running count over the cards left."""
    return sum((wi * _fraction(ti) for wi, ti in zip(_weights(counts), tags)), Fraction(0))


INSURANCE_VECTOR = (4, 4, 4, 4, 4, 4, 4, 4, 4, -9)  # A..T: Griffin's insurance EORs, up to scale


@dataclasses.dataclass(frozen=True)
class CountSystem:
    """A point count: its tags (A first) and whether it is balanced (tags sum to 0 over a deck)."""

    name: str
    tags: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        if len(set(self.tags)) < 2:
            same = _signed(self.tags[0]) if self.tags else "missing"
            raise InvalidCardError(f"the tags of {self.name!r} are all {same}: a count that gives every card the "
                                   "same tag counts nothing (its correlations are undefined)")

    @classmethod
    def named(cls, name: str) -> CountSystem:
        key = name.lower().replace(" ", "-").replace("_", "-")
        if key not in SYSTEMS:
            raise InvalidRulesError(f"unknown count system {name!r} ({', '.join(SYSTEMS)}; or give --tags)")
        return cls(key, SYSTEMS[key])

    @property
    def balanced(self) -> bool:
        return sum(self.tags[:9]) + 4 * self.tags[TEN] == 0

    def tags_text(self) -> str:
        return " ".join(_signed(self.tags[r]) for r in UP_INDICES)


def _signed(value: Fraction) -> str:
    text = str(value) if value.denominator != 1 else str(value.numerator)
    return text if value <= 0 else "+" + text


@dataclasses.dataclass(frozen=True)
class CountFigures(_Data):
    """A count system measured against a game's exact EORs (module docstring). ``per_true_count``:
    the linear estimate of the player's advantage gained per unit of true count, in percent;
    ``playing_efficiency``: Griffin's normal-model estimate (:func:`playing_efficiency`), or
    ``None`` where it was not computed."""

    system: CountSystem
    betting_correlation: float | None  # None: undefined (the tags or the EORs do not vary over the shoe)
    insurance_correlation: float | None  # None: no ace left in the shoe, so no insurance
    per_true_count: float
    playing_efficiency: float | None = None
    per_true_count_exact: Fraction | None = None  # the same, exact, from exact EORs

    def to_data(self) -> dict[str, Any]:
        return {"system": self.system.name, "tags": self.system.tags_text(), "balanced": self.system.balanced,
                "betting_correlation": self.betting_correlation,
                "insurance_correlation": self.insurance_correlation,
                "advantage_per_true_count_percent": self.per_true_count,
                "playing_efficiency": self.playing_efficiency,
                "linear_estimate": True}


def count_figures(system: CountSystem, eor: EffectsOfRemoval, variations: Sequence[StrategyVariation] | None = None,
                  depths: Sequence[int] | None = None) -> CountFigures:
    """BC, IC and the advantage per true count of ``system`` for the game of ``eor``; with
    ``variations`` (:func:`strategy_variations`) also its playing efficiency over ``depths``
    (default :func:`even_depths` of the shoe)."""
    counts = eor.counts
    values = [eor.eor.get(Rank.from_index(r), 0) for r in range(10)]
    present = [c for c in counts]
    efficiency = None
    if variations is not None:
        efficiency = playing_efficiency(system, variations, even_depths(sum(counts)) if depths is None else depths)
    per_true_count = 100 * slope(system.tags, values, present)
    return CountFigures(
        system=system,
        betting_correlation=_defined_correlation(system.tags, values, present),
        insurance_correlation=_defined_correlation(system.tags, INSURANCE_VECTOR, present) if counts[ACE] else None,
        per_true_count=float(per_true_count),
        playing_efficiency=efficiency,
        per_true_count_exact=per_true_count if eor.exact else None,
    )


def _defined_correlation(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> float | None:
    """:func:`correlation`, or ``None`` where it is undefined (either side constant over the shoe)."""
    _, var_t, var_v = _moments(tags, values, counts)
    return correlation(tags, values, counts) if var_t and var_v else None


def play_index(system: CountSystem, play: PlayEffects) -> tuple[Fraction, bool] | None:
    """The linear estimate of the true count at which ``play.first`` becomes as good as
    ``play.second`` (their EV difference crosses zero), counting the hand's cards and the up
    card as seen, and whether ``play.first`` is the better play above it (the difference grows
    with the count); ``None`` where the count does not move the difference. Exact for exact
    EORs: ``-difference / slope - 52 * mean tag`` (docs/counting.md)."""
    counts = play.shoe_left()
    values = [play.eor.get(Rank.from_index(r), 0) for r in range(10)]
    per_count = slope(system.tags, values, counts)
    if per_count == 0:
        return None
    return -_fraction(play.difference) / per_count - 52 * mean_tag(system.tags, counts), per_count > 0


def linear_index(system: CountSystem, play: PlayEffects) -> Fraction | None:
    """:func:`play_index` without the direction."""
    found = play_index(system, play)
    return None if found is None else found[0]


# -- playing efficiency ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StrategyVariation:
    """One strategy variation, as Griffin's playing efficiency weighs it: a hand against an up
    card, its basic play (the better of the two on the full shoe) against the alternative.

    ``margin``: EV(basic) - EV(alternative) on the full shoe, per initial bet, in the hand's
    frame (0 or more); ``eor``: the EOR of that difference for each rank, A first (0 where the
    shoe left holds none); ``counts``: the shoe left after the hand and the up card (A..T), the
    one the EORs are taken on; ``frequency``: the chance per round that the decision arises
    (the hand and up card dealt, and no dealer blackjack where the hand's frame excludes it)."""

    label: str
    margin: float
    eor: tuple[float, ...]
    counts: tuple[int, ...]
    frequency: float

    @classmethod
    def from_effects(cls, play: PlayEffects, frequency: float) -> StrategyVariation:
        """The variation of ``play`` (``first`` the basic play, ``second`` the alternative)."""
        counts = play.rules.without(list(play.cards) + [play.up]).shoe_counts
        eor = play.eor
        return cls(play.label, float(play.difference), tuple(float(eor.get(Rank.from_index(r), 0)) for r in range(10)),
                   counts, frequency)

    def sd(self, seen: int) -> float:
        """The standard deviation of the EV difference over the shoes left after ``seen`` cards
        drawn at random (besides the hand and up card), in Griffin's linear model:
        ``sqrt((M - 1) seen / (M - seen) var_p(EOR))`` with ``M`` cards in :attr:`counts`
        (docs/counting.md derives it).

        >>> StrategyVariation("x", 0.0, (1.0, -1.0) + (0.0,) * 8, (1, 1) + (0,) * 8, 1.0).sd(1)
        1.0
        """
        cards = sum(self.counts)
        if seen <= 0 or seen >= cards:
            return 0.0
        return math.sqrt((cards - 1) * seen / (cards - seen) * self.eor_variance)

    @functools.cached_property
    def eor_variance(self) -> float:
        """``var_p(EOR)``: the variance of the EORs over the cards of :attr:`counts`."""
        return _float_moments([0.0] * 10, self.eor, self.counts)[2]

    def correlation(self, tags: Sequence[Any]) -> float:
        """The correlation of ``tags`` (A first) with the EORs over the cards of :attr:`counts`
        (as :func:`correlation`, in floating point)."""
        cov, var_t, var_v = _float_moments([float(t) for t in tags], self.eor, self.counts)
        return cov / math.sqrt(var_t * var_v) if var_t > 0 and var_v > 0 else 0.0


def _float_moments(tags: Sequence[float], values: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """:func:`_moments` in floating point: PE sums thousands of them."""
    n = sum(counts)
    w = [c / n for c in counts]
    mt = sum(wi * ti for wi, ti in zip(w, tags))
    mv = sum(wi * vi for wi, vi in zip(w, values))
    cov = sum(wi * (ti - mt) * (vi - mv) for wi, ti, vi in zip(w, tags, values))
    var_t = sum(wi * (ti - mt) ** 2 for wi, ti in zip(w, tags))
    var_v = sum(wi * (vi - mv) ** 2 for wi, vi in zip(w, values))
    return cov, var_t, var_v


def unit_normal_loss(z: float) -> float:
    """Griffin's unit normal linear loss integral ``G(z) = E[max(0, X - z)]`` for a standard
    normal ``X``: ``phi(z) - z (1 - Phi(z))``.

    >>> round(unit_normal_loss(0.0), 6)
    0.398942
    """
    return max(0.0, math.exp(-z * z / 2) / math.sqrt(2 * math.pi) - z * math.erfc(z / math.sqrt(2)) / 2)


def variation_gain(margin: float, sd: float) -> float:
    """What deviating from the basic play is worth when the alternative's EV difference is
    normal with mean ``-|margin|`` and standard deviation ``sd``: ``E[max(0, X)]``, taking
    the alternative exactly when it is the better, ``sd G(|margin| / sd)``.

    >>> round(variation_gain(0.0, 1.0), 6)
    0.398942
    """
    return sd * unit_normal_loss(abs(margin) / sd) if sd > 0 else 0.0


def even_depths(cards: int, penetration: Fraction | float = Fraction(2, 3)) -> tuple[int, ...]:
    """The depth model of :func:`playing_efficiency`: rounds dealt after 0, 1, ... seen cards,
    each equally weighted, up to ``penetration`` of a shoe of ``cards`` cards (Griffin
    thought the linear model good over the first two thirds of a deck).

    >>> even_depths(52)[-1], len(even_depths(52))
    (34, 35)
    """
    return tuple(range(math.floor(Fraction(penetration) * cards) + 1))


def playing_efficiency(tags: CountSystem | Sequence[Any], variations: Sequence[StrategyVariation],
                       depths: Sequence[int]) -> float:
    """Griffin's playing efficiency of a count (a normal-model estimate, docs/counting.md): the
    share of what perfect strategy variation gains that the count gains, summed over the
    ``variations`` (weighted by frequency) and the ``depths`` (cards seen before the round,
    equally weighted). At each, the perfect player gains ``variation_gain(margin, sd)`` and the
    count, whose correlation with the variation's EORs is ``rho``, gains
    ``variation_gain(margin, |rho| sd)``.

    >>> one = StrategyVariation("x", 0.01, (1.0, -1.0) + (0.0,) * 8, (4, 4) + (0,) * 8, 1.0)
    >>> playing_efficiency((3, -3) + (0,) * 8, [one], range(1, 7))
    1.0
    """
    values = tags.tags if isinstance(tags, CountSystem) else tags
    count = perfect = 0.0
    for variation in variations:
        rho = abs(variation.correlation(values))
        for seen in depths:
            sd = variation.sd(seen)
            count += variation.frequency * variation_gain(variation.margin, rho * sd)
            perfect += variation.frequency * variation_gain(variation.margin, sd)
    if perfect == 0:
        raise InvalidRulesError("no strategy variation gains anything at these depths: playing efficiency is undefined")
    return count / perfect


def _hand_evs(rules: Rules, post_split: str) -> dict[tuple[tuple[Rank, Rank], Rank], Any]:
    """Every two-card hand (naturals aside) against every up card on ``rules``' shoe: (EVs by
    action, P(dealer blackjack), conditioned), by hand then up card; the deal
    (:meth:`Analysis.plays`) gives the hands the shoe can deal."""
    analysis = Analysis(rules, post_split=post_split)
    out: dict[tuple[tuple[Rank, Rank], Rank], Any] = {}
    for play in analysis.plays():
        if not play.same_face or is_blackjack([play.cards.count(rank) for rank in Rank]):
            continue  # a pair of tens plays as one hand here; naturals are not decisions
        try:
            result = analysis.hand(play.cards, play.up)
        except BjcalcError:
            continue
        out[(play.cards[0], play.cards[1]), play.up] = (
            {a: float(v) for a, v in result.evs.items()}, float(result.dealer_blackjack), result.conditioned)
    return dict(sorted(out.items(), key=lambda item: (item[0][0][0].index, item[0][0][1].index, item[0][1].index)))


def _deal_probability(counts: Sequence[int], hand: tuple[Rank, Rank], up: Rank) -> float:
    """P(the up card is ``up`` and the player's two cards are ``hand``) dealt from ``counts``."""
    left = list(counts)
    n = sum(left)
    p_up = left[up.index] / n
    left[up.index] -= 1
    a, b = hand[0].index, hand[1].index
    pairs = left[a] * (left[a] - 1) if a == b else 2 * left[a] * left[b]
    return p_up * pairs / ((n - 1) * (n - 2))


def _variation_actions(hand: tuple[Rank, Rank], evs: Mapping[Action, Any], splits: bool,
                       soft_doubles: bool) -> list[Action]:
    """The plays a variation compares for ``hand``: stand and hit, double on a hard total (and
    on a soft one with ``soft_doubles``), split a pair with ``splits``; those the rules offer."""
    _, soft = counts_total(tuple(sum(1 for c in hand if c.index == r) for r in range(10)))
    plays = [Action.STAND, Action.HIT]
    if soft_doubles or not soft:
        plays.append(Action.DOUBLE)
    if splits and hand[0] == hand[1]:
        plays.append(Action.SPLIT)
    return [p for p in plays if p in evs]


def strategy_variations(
    rules: Rules,
    *,
    splits: bool = False,
    soft_doubles: bool = False,
    post_split: str = "cdz-",
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[StrategyVariation]:
    """The strategy variations of a game, for :func:`playing_efficiency`: the first decision
    of every two-card hand (naturals aside) against every up card, the better of its two best
    plays on the full shoe (the basic play) against the other, with the EORs of their EV
    difference and how often the decision arises. The plays compared are stand, hit and
    doubling a hard total; pair splitting (``splits``) and soft doubling (``soft_doubles``)
    are left out by default, as in Griffin's single-deck evaluation (docs/counting.md). Eleven
    float analyses of the shoe (the full one and one without each rank), in ``workers``
    processes, each reported to ``progress``."""
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no effects of removal: cards are drawn with replacement")
    ranks = [rank for rank in Rank if rules.shoe_counts[rank.index] > 0]
    shoes = [rules] + [rules.without([rank]) for rank in ranks]
    names = ["variations: full shoe"] + [f"variations: without one {rank}" for rank in ranks]
    base, *after = _map(_hand_evs, [(shoe, post_split) for shoe in shoes], workers, progress, names)
    removed = dict(zip(ranks, after))
    variations = []
    for (hand, up), (evs, blackjack, conditioned) in base.items():
        plays = sorted(_variation_actions(hand, evs, splits, soft_doubles), key=lambda a: -evs[a])
        if len(plays) < 2:
            continue
        first, second = plays[:2]
        left = rules.without(list(hand) + [up]).shoe_counts
        differences = {rank: removed[rank][hand, up][0] for rank in ranks
                       if left[rank.index] and (hand, up) in removed[rank]}
        if len(differences) != sum(1 for n in left if n) or any(
                first not in d or second not in d for d in differences.values()):
            continue  # a smaller shoe cannot play the hand (a card limit, a tiny shoe): left out
        play = PlayEffects(cards=hand, up=up, first=first, second=second, difference=evs[first] - evs[second],
                           after={rank: d[first] - d[second] for rank, d in differences.items()},
                           conditioned=conditioned, rules=rules)
        frequency = _deal_probability(rules.shoe_counts, hand, up)
        if conditioned:  # the decision arises only when the dealer has no blackjack
            frequency = reframe(frequency, blackjack, Frame.CONDITIONED, Frame.JOINT)
        variations.append(StrategyVariation.from_effects(play, frequency))
    return variations


def playing_efficiency_model(variations: Sequence[StrategyVariation], depths: Sequence[int], *, splits: bool = False,
                             soft_doubles: bool = False) -> dict[str, Any]:
    """What the PE figures of an output assume, as outputs print it: the number of variations,
    the cards seen before the round (from, to; each count of cards equally weighted) and a
    one-line description (``splits`` and ``soft_doubles`` as given to
    :func:`strategy_variations`).

    >>> playing_efficiency_model([], range(35))["cards_seen"]
    [0, 34]
    """
    plays = "stand, hit, double on hard totals" + ", double on soft ones" * soft_doubles + ", split pairs" * splits
    left_out = ["pair splitting"] * (not splits) + ["soft doubling"] * (not soft_doubles) + ["surrender", "insurance"]
    return {
        "variations": len(variations),
        "cards_seen": [min(depths), max(depths)],
        "description": ("Griffin's normal-model estimate: the share of the gain from perfect strategy variation "
                        "that the count captures; the first play of every two-card hand against every up card "
                        f"({plays}; no {', '.join(left_out[:-1])} or {left_out[-1]}), weighted by frequency; "
                        f"rounds dealt after {min(depths)} to {max(depths)} seen cards, evenly"),
    }
