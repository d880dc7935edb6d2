"""Effects of removal: what each card does to the game and to a decision.

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
where the dealer peeks). A decision is named as people write it (:func:`parse_play`), by its
cards or by its total (:class:`HandTotal`).

**On a counter's shoe** (:class:`bjcalc.CountShoe`: the player knows the count and how many
cards were seen, not the discards' ranks) the EOR of a rank is the EV once one more card of that
rank has been seen (one more card seen, the running count plus its tag) minus the EV before:
the counter forgets the card's rank as every other discard's, so ranks sharing a tag share one
EOR (:func:`seen_one_more`).

Each shoe is one analysis, run in worker processes (:class:`WorkerPool`); :func:`eor_table`
gathers what ``bjcalc eor`` prints. How count systems measure up against these EORs is
:mod:`bjcalc.counting.measures`. See docs/counting.md for the definitions written out.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis, _checked_count_shoe
from bjcalc.cards import Rank, parse_card
from bjcalc.chart import Chart
from bjcalc.counting.checking import checked_rules_first
from bjcalc.counting.countshoe import CountShoe
from bjcalc.counting.plays import (
    HandTotal,
    PlayEffects,
    _action,
    _chart_order,
    _decision_states,
    _hand_weight,
    _not_seen_next,
    insurance_effects,
    parse_hand,
    parse_play,
    play_effects,
    seen_one_more,
)
from bjcalc.counting.workers import WorkerPool, check_workers, map_jobs
from bjcalc.engine.door import may_run_out
from bjcalc.errors import (
    InvalidHandError,
    InvalidRulesError,
    InvalidShoeError,
)
from bjcalc.numbers import to_api, to_fraction
from bjcalc.results import RunOut, Strategy, _Data, by_up
from bjcalc.rules import Rules, check_rules


class EorStrategy(str, enum.Enum):
    """How every shoe of an EOR table is played (see the module docstring)."""

    CHART = "chart"
    BASIC = "basic"
    CD = "cd"


# -- the analyses, one shoe each (run in worker processes) ----------------------------------------


def _shoe_ev(
    rules: Rules, strategy: EorStrategy, chart: Chart | None, exact: bool, post_split: str,
    two_card_plays: bool = True, shoe: CountShoe | None = None,
) -> Fraction | float:
    """The round's EV on ``rules``' shoe (or the counter's ``shoe`` of it) under ``strategy``
    (a Fraction in exact mode; ``two_card_plays=False``: basic strategy is the classic chart,
    one play per total)."""
    analysis = Analysis(rules, exact=exact, post_split=post_split, shoe=shoe)
    if strategy is EorStrategy.CD:
        ev = analysis.round().ev
    else:
        played = chart if strategy is EorStrategy.CHART else analysis.chart(two_card_plays)
        assert played is not None
        ev = analysis.evaluate(played).round.ev
    return to_fraction(ev) if exact else float(ev)


def _seen_shoe_ev(
    rules: Rules, strategy: EorStrategy, chart: Chart | None, exact: bool, post_split: str, two_card_plays: bool,
    shoe: CountShoe,
) -> Fraction | float | str:
    """:func:`_shoe_ev` on a counter's shoe after one more card seen, or, where the cards left
    are too few for a round, the error's words."""
    try:
        return _shoe_ev(rules, strategy, chart, exact, post_split, two_card_plays, shoe)
    except InvalidShoeError as error:
        return str(error)


# -- effects of removal ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class EffectsOfRemoval(_Data):
    """EVs after removing one card of each rank, and the EORs. ``base`` and ``ev`` are per
    initial bet, unconditional (``float``, or ``sympy.Rational`` in exact mode); ``effects``
    are in percent of the initial bet (float); ``counts``: the starting shoe.

    On a counter's shoe (``count_shoe``, the shoe before the round), ``ev`` is the EV once one
    more card of the rank has been seen (:func:`seen_one_more`), and ``not_removable`` says, for
    each rank the shoe holds that cannot be the next card seen, why (no EV for it)."""

    rules: Rules
    strategy: Strategy
    base: Any
    ev: dict[Rank, Any]
    exact: bool
    count_shoe: CountShoe | None = None
    not_removable: dict[Rank, str] = dataclasses.field(default_factory=dict)
    # on a shoe dealt to its last cards: how likely the starting shoe's round is to run out
    run_out: RunOut | None = None

    @property
    def counts(self) -> tuple[int, ...]:
        return self.rules.shoe_counts

    @property
    def weights(self) -> tuple[Fraction, ...]:
        """The cards of each rank the EORs are weighted by in :meth:`weighted_sum`, A..T: the
        shoe's counts; on a counter's shoe, the expected cards of each rank left (exact)."""
        if self.count_shoe is None:
            return tuple(Fraction(n) for n in self.counts)
        return self.count_shoe.expected_left()

    @property
    def eor(self) -> dict[Rank, Any]:
        """EV after removal minus the EV before, per initial bet (exact in exact mode)."""
        return {rank: ev - self.base for rank, ev in self.ev.items()}

    @property
    def effects(self) -> dict[Rank, float]:
        """The EORs in percent of the initial bet, ranks in chart order (2..T, A)."""
        return {rank: 100 * float(self.eor[rank]) for rank in _chart_order(self.ev)}

    def weighted_sum(self) -> Any:
        """``sum_r n_r EOR_r``: exactly zero when a fixed chart plays every shoe. On a counter's
        shoe ``n_r`` is the expected number of cards of the rank left, and the sum is not zero in
        general (docs/counting.md)."""
        weights = self.weights
        return sum((to_api(weights[rank.index], self.exact) * e for rank, e in self.eor.items()), 0 * self.base)

    def to_data(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy.to_dict(),
            "shoe_counts": list(self.counts),
            "base_ev": self.base,
            "ev": by_up(self.ev),
            "eor": by_up(self.eor),
            "eor_percent": by_up(self.effects),
            "not_removable": by_up(self.not_removable),
            **({} if self.run_out is None else {"run_out": self.run_out.to_data()}),
        }



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
    shoe: CountShoe | None = None,
) -> EffectsOfRemoval:
    """The EOR of every rank the shoe holds (see the module docstring). ``chart``: the chart
    held fixed (``strategy="chart"``; default: the starting shoe's basic strategy, the classic
    one with ``two_card_plays=False``, as for ``strategy="basic"``). ``shoe``: a counter's shoe
    of ``rules``' shoe, nothing on the table (as :class:`bjcalc.Analysis` takes it): the EORs of
    seeing one more card of each rank there (the default chart is then the counter's).

    >>> from bjcalc import CountShoe
    >>> rules = Rules(shoe=(2,) * 9 + (8,), player_max_cards=4, dealer_max_cards=4, split_hands=1)
    >>> counter = CountShoe.named("hi-lo", shoe=rules.shoe_counts, seen=2, running_count=2)
    >>> result = effects_of_removal(rules, "cd", shoe=counter, workers=1)
    >>> result.eor[Rank.TWO] == result.eor[Rank.SIX], sorted(map(str, result.not_removable))
    (True, [])
    """
    check_rules(rules)
    check_workers(workers)
    try:
        strategy = EorStrategy(strategy)
    except ValueError:
        choices = ", ".join(repr(s.value) for s in EorStrategy)
        raise InvalidRulesError(f"strategy must be one of {choices}, not {strategy!r}") from None
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no effects of removal: cards are drawn with replacement")
    if chart is not None and strategy is not EorStrategy.CHART:
        raise InvalidRulesError(f"a chart is held fixed only with strategy 'chart', not {strategy.value!r}")
    starting = Analysis(rules, post_split=post_split, shoe=shoe)  # refuses a counter's shoe of other cards
    held_fixed = chart
    if strategy is EorStrategy.CHART and chart is None:
        chart = starting.chart(two_card_plays)
    ranks = [rank for rank in Rank if rules.shoe_counts[rank.index] > 0]
    play = (strategy, chart, exact, post_split, two_card_plays)
    if shoe is None:
        base, after, refused = _removal_evs(rules, play, ranks, workers, progress)
    else:
        base, after, refused = _seen_evs(rules, shoe, play, ranks, workers, progress)
    return EffectsOfRemoval(
        rules=rules,
        strategy=_label(starting, strategy, chart, two_card_plays, shoe is not None and held_fixed is None),
        base=to_api(base, exact),
        ev={rank: to_api(ev, exact) for rank, ev in after.items()},
        exact=exact,
        count_shoe=shoe,
        not_removable=refused,
        run_out=_run_out(starting, shoe, strategy, chart, exact, two_card_plays),
    )


def _label(starting: Analysis[Any], strategy: EorStrategy, chart: Chart | None, two_card_plays: bool,
           counters: bool) -> Strategy:
    """How every shoe is played, as outputs say it (``counters``: the chart is the counter's
    shoe's own)."""
    if strategy is EorStrategy.CD:
        return starting.cd
    if strategy is EorStrategy.BASIC:
        return Strategy("basic" + ", classic" * (not two_card_plays) + ", re-derived for each shoe", chart=True,
                        split_hands="by the chart")
    assert chart is not None
    whose = " for the counter's shoe" if counters else ""
    return Strategy(f"{chart.strategy}{whose}, held fixed", chart=True, split_hands="by the chart")


def _run_out(starting: Analysis[Any], shoe: CountShoe | None, strategy: EorStrategy, chart: Chart | None,
             exact: bool, two_card_plays: bool) -> RunOut | None:
    """How likely the starting shoe's round (``starting``'s) is to run out of cards, played as
    its EV is (the basic strategy: the starting shoe's chart; the EV's exact type); ``None``
    where no deal can (checked first: no more analysis then). ``shoe``: ``starting``'s counter's
    shoe, if any."""
    rules = starting.rules
    if shoe is None:
        if not may_run_out(rules, rules.shoe_counts):
            return None
    elif not may_run_out(rules, shoe.off_table, shoe.cards_left):
        return None
    analysis = starting if starting.exact == exact else Analysis(rules, exact=exact, post_split=starting.post_split,
                                                                 shoe=shoe)
    if strategy is EorStrategy.CD:
        return analysis.round().run_out
    return analysis.evaluate(chart if chart is not None else starting.chart(two_card_plays)).round.run_out


_Play = tuple[EorStrategy, Chart | None, bool, str, bool]  # how each shoe is played: _shoe_ev's arguments
_Evs = tuple[Fraction | float, dict[Rank, Fraction | float], dict[Rank, str]]  # before, after, refused


def _removal_evs(rules: Rules, play: _Play, ranks: list[Rank], workers: int | WorkerPool | None,
                 progress: Callable[[str], None] | None) -> _Evs:
    """The EV of the full shoe and of the shoe without one card of each of ``ranks``."""
    shoes = [rules] + [rules.without([rank]) for rank in ranks]
    names = ["full shoe"] + [f"without one {rank}" for rank in ranks]
    evs = map_jobs(_shoe_ev, [(s, *play) for s in shoes], workers, progress, names)
    return evs[0], dict(zip(ranks, evs[1:])), {}


def _seen_evs(rules: Rules, shoe: CountShoe, play: _Play, ranks: list[Rank], workers: int | WorkerPool | None,
              progress: Callable[[str], None] | None) -> _Evs:
    """The EV of the counter's ``shoe`` and of the shoe once one more card of each of ``ranks``
    is seen, and why for the ranks that cannot be (:func:`seen_one_more`)."""
    seen = {rank: seen_one_more(shoe, rank) for rank in ranks}
    refused = {rank: _not_seen_next(shoe, rank) for rank, s in seen.items() if s is None}
    # the counter keeps the tag, not the rank: the ranks of one tag give one shoe, analysed once
    distinct = list(dict.fromkeys(s for s in seen.values() if s is not None))
    shoes = [shoe, *distinct]
    names = ["the counter's shoe"] + [f"one more card seen, running count {s.running_count}" for s in distinct]
    base, *others = map_jobs(_seen_shoe_ev, [(rules, *play, s) for s in shoes], workers, progress, names)
    if isinstance(base, str):  # the counter's shoe itself is too small: the caller's error
        raise InvalidShoeError(base)
    evs = dict(zip(distinct, others))
    after: dict[Rank, Fraction | float] = {}
    for rank, s in seen.items():
        if s is None:
            continue
        ev = evs[s]
        if isinstance(ev, str):
            refused[rank] = (f"with one more card seen, {s.cards_left} cards are left: too few for a round"
                             if "too small" in ev else f"with one more card seen: {ev}")
        else:
            after[rank] = ev
    return base, after, refused


# -- the EOR table: what ``bjcalc eor`` prints ----------------------------------------------------

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


@checked_rules_first
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
    shoe: CountShoe | None = None,
) -> EorTable:
    """Everything ``bjcalc eor`` prints: :func:`effects_of_removal` of the round under
    ``strategy``, :func:`play_effects` of each of ``plays`` (text such as ``"T,6 v T stand
    hit"`` or ``"16 v T stand hit"``, or (hand, up, first, second)) and, with ``insurance``,
    :func:`insurance_effects`. Every play is checked before the work; the analyses share one
    :class:`WorkerPool` of ``workers`` processes; ``progress`` hears of each step done.
    ``two_card_plays=False``: the charts built (the one held fixed, or basic strategy for each
    shoe) are classic, one play per total. ``shoe``: a counter's shoe (:func:`effects_of_removal`;
    for the plays and insurance its cards seen and running count are the counter's at the
    decision, the hand and the up card among them: :func:`play_effects`, :func:`insurance_effects`).

    >>> table = eor_table(Rules(decks=1), workers=1)
    >>> table.removal.weighted_sum() == 0 or abs(table.removal.weighted_sum()) < 1e-12
    True
    """
    check_rules(rules)
    check_workers(workers)
    decisions = _check_plays(rules, plays, post_split)
    if insurance and not rules.shoe_counts[Rank.ACE.index]:
        raise InvalidHandError("insurance needs an ace up, and the shoe holds no ace")
    if shoe is not None:
        _checked_count_shoe(rules, shoe)  # refuses a counter's shoe of other cards before the plays' checks
        for hand, up, _, _ in decisions:
            _decision_states(shoe, hand, up)  # refuses a decision the count cannot reach, before the work
    extra = [insurance_effects(rules, shoe=shoe)] if insurance else []
    if shoe is None:
        steps = 1 + sum(1 for n in rules.shoe_counts if n) + len(decisions)
    else:  # one analysis per tag the next card seen can have, then one step per play
        shoes = {seen_one_more(shoe, rank) for rank in Rank if rules.shoe_counts[rank.index]} - {None}
        steps = 1 + len(shoes) + len(decisions)

    def step(name: str) -> None:
        if progress is not None:
            progress(name, steps)

    with WorkerPool(workers) as pool:
        removal = effects_of_removal(rules, strategy, chart=chart, exact=exact, post_split=post_split,
                                     workers=pool, progress=step, two_card_plays=two_card_plays, shoe=shoe)
        done = []
        for hand, up, first, second in decisions:
            done.append(play_effects(rules, hand, up, first, second, exact=exact, post_split=post_split,
                                     workers=pool, shoe=shoe))
            step(done[-1].label)
    return EorTable(removal, tuple(done + extra), Analysis(rules, post_split=post_split).cd,
                    EorStrategy(strategy) is EorStrategy.CHART)
