"""Index numbers averaged over the shoe to a penetration (``bjcalc index --penetration P``;
docs/countshoe.md, "Averaged over the shoe").

:func:`bjcalc.counting.indices.index_table` finds each play's index at one depth. A counter plays every
round of the shoe, though, and rounds start at every depth up to the cut card. Here every state
``(N, RC)`` at which a round starts (``N`` cards seen, the discards' running count ``RC``) is
one counter's-shoe analysis (:func:`bjcalc.counting.indices._job`, a task of :mod:`bjcalc.counting.tasks`: local
processes or Dask, resumable from the store), weighted by the share of the shoe's rounds that
start there, ``w(N, RC) = P(a round starts at N) P(RC | N)``, from the placement ``bjcalc
truecount`` uses (:func:`bjcalc.counting.truecount.round_start_states`: by default the chain, whose
counts lean as the rounds' lengths make them; renewal with ``exact``). Each play's EV
differences are then pooled by the **true count** the convention gives at that depth (the
counter knows the true count, not the depth, when he looks the index up):

    D(t) = sum over N, RC and the play's hands h with TC(R, cards not seen) = t:
           w(N, RC) P(up, h | N, RC) (EV_play - EV_instead),

``R = RC + tags(h, up)`` and ``cards not seen = cards - N - 3``; ``P(t)`` the same sum
without the difference. The index is the integer ``I`` for which "deviate at TC >= I" gains
most over the rounds dealt, ``sum over t >= I of D(t)`` (per round dealt, as the weights sum to
one over the shoe's rounds); the crossing interpolates the mean difference ``D(t) / P(t)``
between true counts, each placed at the mean exact true count (exact divisor, not rounded) of
the rounds it pools. Insurance likewise (the ace alone, ``cards - N - 1`` not seen).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.arguments import check_whole
from bjcalc.cards import UP_INDICES
from bjcalc.counting.checking import checked_rules_first
from bjcalc.counting.countshoe import CountShoe
from bjcalc.counting.indices import (
    INSURANCE_PLAY,
    NEGLIGIBLE,
    Convention,
    IndexPlay,
    PlayIndex,
    Wanted,
    _crossing,
    _job,
    as_plays,
    check_something_to_index,
    check_system_name,
    default_plays,
    insurance_sums,
    play_sums,
    wanted_hands,
)
from bjcalc.counting.placement import round_start_states
from bjcalc.counting.states import run_states
from bjcalc.counting.tags import CARDS_PER_DECK, counting_tags, true_count
from bjcalc.counting.tasks import RunStats, Task, TaskStore, check_arguments, check_scheduler, opens_store, task_key
from bjcalc.counting.truecount import _fraction
from bjcalc.engine.door import DrawModel, shared_stands, stands_together
from bjcalc.errors import InvalidShoeError
from bjcalc.results import _Data
from bjcalc.rules import Rules

# tasks to a batch: more than any run has (a larger batch would be all of them in one)
MAX_BATCH = 1_000_000

STRATEGY = "CD play after the first decision, on the counter's shoe; split hands CDZ-"


@dataclasses.dataclass(frozen=True)
class ShoeIndexTable(_Data):
    """Every play's index averaged over the rounds of a shoe dealt to ``penetration``
    (:func:`shoe_index_table`): ``plays`` and ``insurance`` as :class:`bjcalc.counting.indices.IndexTable`'s,
    their ``differences`` by the convention's true count (``running_count`` is ``None``: no one
    running count stands for every depth); ``starts`` the depths at which rounds start (cards
    seen), ``states`` how many (depth, running count) states were analysed, ``left_out`` the
    share of the rounds at the states too unlikely to analyse."""

    rules: Rules
    system: str
    tags: tuple[Fraction, ...]
    penetration: Fraction
    cut: int  # rounds start while fewer cards than this have been dealt
    placement: str
    starts: tuple[int, ...]
    rounds_per_shoe: float
    convention: Convention
    plays: tuple[PlayIndex, ...]
    insurance: PlayIndex | None
    left_out: Any
    states: int
    exact: bool
    run: RunStats

    def averaged(self) -> str:
        """The sentence every output states: over what the indices are averaged."""
        return (f"averaged over the shoe to penetration {float(self.penetration):g} (cut card after {self.cut} of "
                f"{sum(self.rules.shoe_counts)} cards): every round from the first to the last before the cut, "
                f"{len(self.starts)} depths ({self.starts[0]} to {self.starts[-1]} cards seen), "
                f"{self.states} states (depth, running count), each weighted by the share of rounds that start "
                f"there (placement {self.placement}, as bjcalc truecount places rounds; "
                f"{self.rounds_per_shoe:.2f} rounds a shoe); pooled by the convention's true count")

    def to_data(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "tags": [int(t) if t.denominator == 1 else float(t) for t in (self.tags[r] for r in UP_INDICES)],
            "cards_seen": None, "cards_left": None,
            "penetration": self.penetration, "cut": self.cut, "placement": self.placement,
            "round_starts": list(self.starts), "rounds_per_shoe": self.rounds_per_shoe, "states": self.states,
            "averaged": self.averaged(),
            "divisor": self.convention.divisor.value, "rounding": self.convention.rounding.value,
            "deviate": "at or above the index", "strategy": STRATEGY, "left_out": self.left_out,
            "plays": [p.to_data() for p in self.plays],
            "insurance": None if self.insurance is None else self.insurance.to_data(),
            "run": self.run.to_data(),
        }


def state_task(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction, wanted: Wanted,
               insurance: bool, exact: bool) -> dict[str, Any]:
    """One state's analysis (:func:`bjcalc.counting.indices._job`) as the store keeps it: per wanted
    (hand, up card) its deal probability and its actions' EVs (unconditional), and P(ace up)
    with insurance's EV. The dealer's weighted pass is shared with the other states of a batch
    at the same depth (:func:`_states_together`); the numbers are the same alone."""
    with shared_stands([_draw_model(rules, tags, seen, running_count)]):
        hands, ace = _job(rules, tags, seen, running_count, wanted, insurance, exact)
    return {"hands": [[list(hand), up, dealt, [[a.value, ev] for a, ev in evs.items()]]
                      for (hand, up), (dealt, evs, _) in hands.items()],
            "ace": None if ace is None else list(ace)}


def _draw_model(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction) -> DrawModel:
    """The engine's view of :func:`bjcalc.counting.indices._job`'s counter's shoe."""
    return CountShoe(shoe=rules.shoe_counts, tags=tags, running_count=running_count, seen=seen).draw_model()


def _states_together(calls: Sequence[tuple]) -> contextlib.ExitStack:
    """The float :func:`state_task` calls of a batch share their dealer passes by depth
    (``state_task.together``, entered by :func:`bjcalc.counting.tasks.run_tasks` around a batch;
    :func:`bjcalc.engine.batch.stands_together`)."""
    return stands_together(_draw_model(rules, tags, seen, running_count)
                           for rules, tags, seen, running_count, *_, exact in calls if not exact)


state_task.together = _states_together  # type: ignore[attr-defined]


def _unstored(value: dict[str, Any]) -> tuple[dict[tuple[tuple[int, ...], int], Any], tuple[Any, Any] | None]:
    """:func:`state_task`'s stored answer back as :func:`bjcalc.counting.indices._job` gives it."""
    hands = {(tuple(hand), up): (dealt, {Action(a): ev for a, ev in evs}, 0.0)
             for hand, up, dealt, evs in value["hands"]}
    ace = value["ace"]
    return hands, None if ace is None else (ace[0], ace[1])


@checked_rules_first
@opens_store
def shoe_index_table(rules: Rules, system: str, tags: Sequence[Any],
                     penetration: Fraction | float | str = Fraction(3, 4),
                     plays: Sequence[IndexPlay | str] | None = None, convention: Convention | None = None,
                     insurance: bool = True, *, placement: str | dict[int, Any] | None = None, seats: int = 1,
                     store: TaskStore | str | os.PathLike[str] | None = None, workers: int | None = None,
                     scheduler: str | None = None,
                     progress: Callable[[int, int], None] | None = None, batch: int | None = None,
                     exact: bool = False) -> ShoeIndexTable:
    """The index of each play (default :func:`bjcalc.counting.indices.default_plays`) and of insurance,
    averaged over the rounds of a shoe dealt to ``penetration`` (module docstring).
    ``placement``: where rounds start (:func:`bjcalc.counting.truecount.round_start_states`; default as
    ``bjcalc truecount``: the chain, renewal with ``exact``); ``store``, ``workers``,
    ``scheduler``, ``progress(done, total)`` and ``batch`` as :func:`bjcalc.counting.tasks.run_tasks`
    takes them (an interrupted run resumes from the store; ``store`` may be a file's path, as
    ``--store`` takes it). ``plays``: :class:`IndexPlay` values or their text (``"16 v T stand
    hit"``). ``exact``: every state in exact arithmetic (small shoes)."""
    check_arguments(rules, workers)  # the store: opens_store
    from bjcalc.analysis import Analysis

    check_system_name(system, "shoe_index_table")
    check_something_to_index(plays, insurance, "shoe_index_table")
    check_whole(seats, "shoe_index_table: seats", 1, 7)
    if batch is not None:
        check_whole(batch, "shoe_index_table: batch", 1, MAX_BATCH)
    tags = counting_tags(tags)
    convention = convention or Convention()
    pen, cut = _checked(rules, penetration, scheduler)
    cards = sum(rules.shoe_counts)
    plays = tuple(default_plays(rules) if plays is None else as_plays(plays))
    wanted = wanted_hands(rules, plays)
    insure = insurance and rules.insurance
    starting = round_start_states(rules, Analysis(rules).chart(), tags, cut, placement=placement, seats=seats,
                                  exact=exact)
    if starting.starts[-1] > cards - 4:
        raise InvalidShoeError(f"penetration {float(pen):g} leaves {cards - starting.starts[-1]} cards at the last "
                               "round's start: a round needs 4 (a smaller --penetration)")
    kept, left_out = _kept(starting.rounds, exact)
    job = task_key("index-state", rules, tags, wanted, insure, exact)
    tasks = [Task(task_key(job, n, rc), state_task, (rules, tags, n, rc, wanted, insure, exact))
             for n, at in zip(starting.starts, kept) for rc in sorted(at)]
    store = store if isinstance(store, TaskStore) else TaskStore(None)
    run = run_states(tasks, store, job, cards, pen, "a smaller --penetration", workers=workers, scheduler=scheduler,
                     progress=progress, batch=batch)

    # one depth at a time (the analyses of every state at once would be a few hundred MB at 6 decks)
    pools = {play.name: _Pool(convention, exact) for play in plays}
    insured = _Pool(convention, exact)
    for n, at in zip(starting.starts, kept):
        found = {rc: _unstored(store.get(task_key(job, n, rc))) for rc in at}
        for play in plays:
            pools[play.name].add(play_sums(play, tags, at, found, exact), cards - n - 3)
        if insure:
            insured.add(insurance_sums(tags, at, found, exact), cards - n - 1)
    rows = tuple(pools[play.name].index(play) for play in plays)
    ace = insured.index(INSURANCE_PLAY) if insure else None
    return ShoeIndexTable(rules, system, tags, pen, cut, starting.placement, starting.starts,
                          starting.rounds_per_shoe, convention, rows, ace, left_out, len(tasks), exact, run)


def _checked(rules: Rules, penetration: Fraction | float | str, scheduler: str | None) -> tuple[Fraction, int]:
    """The penetration and the cut card's place, checked before any work (and the scheduler)."""
    if rules.infinite:
        raise InvalidShoeError("an infinite deck has no count: the cards are drawn with replacement")
    pen = _fraction(penetration, "penetration")
    if not 0 < pen < 1:
        raise InvalidShoeError(f"penetration must be above 0 and below 1, not {penetration!r}")
    cut = round(pen * sum(rules.shoe_counts))
    if cut < 1:
        raise InvalidShoeError(f"penetration {penetration} puts the cut card before the first card")
    if scheduler is not None:
        check_scheduler(scheduler)
    return pen, cut


def _kept(rounds: Sequence[dict[Fraction, Any]], exact: bool) -> tuple[list[dict[Fraction, Any]], Any]:
    """The states analysed: at each depth, every running count but those below NEGLIGIBLE of the
    likeliest there (as index_table leaves them out at one depth); and the share left out."""
    number: Callable[[Any], Any] = Fraction if exact else float
    kept: list[dict[Fraction, Any]] = []
    left_out = number(0)
    for at in rounds:
        top = max(at.values())
        kept.append({rc: w for rc, w in at.items() if w >= NEGLIGIBLE * top})
        left_out += sum((number(w) for rc, w in at.items() if rc not in kept[-1]), number(0))
    return kept, left_out


class _Pool:
    """A play's sums by the convention's true count, pooled over depths (module docstring):
    the differences ``D(t)``, the weights ``P(t)`` and the weighted exact true counts (where
    each ``t`` stands for the crossing)."""

    def __init__(self, convention: Convention, exact: bool) -> None:
        self.convention, self.exact = convention, exact
        self.difference: dict[Fraction, Any] = {}
        self.weight: dict[Fraction, Any] = {}
        self.position: dict[Fraction, Any] = {}

    def add(self, sums: tuple[dict[Fraction, Any], dict[Fraction, Any]], cards_left: int) -> None:
        """One depth's sums by observed running count (each weighted by the share of rounds at
        its states), ``cards_left`` not seen when deciding."""
        number: Callable[[Any], Any] = Fraction if self.exact else float
        differences, weights = sums
        for observed, d in differences.items():
            tc = true_count(observed, cards_left, self.convention.divisor, self.convention.rounding)
            w = weights[observed]
            self.difference[tc] = self.difference.get(tc, 0) + d
            self.weight[tc] = self.weight.get(tc, 0) + w
            self.position[tc] = self.position.get(tc, 0) + w * number(Fraction(CARDS_PER_DECK * observed, cards_left))

    def index(self, play: IndexPlay) -> PlayIndex:
        positions = {tc: self.position[tc] / self.weight[tc] for tc in self.weight if self.weight[tc] > 0}
        return _crossing(play, self.difference, self.weight, 0, self.convention, self.exact, positions=positions)
