"""One state's task: the counter's shoe of a (depth, running count) analysed for each strategy
(basic, the chart with its index plays, CD), and the runs of such tasks."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.cards import ACE, TEN, Rank
from bjcalc.chart import Chart
from bjcalc.chartpolicy import ChartPolicy
from bjcalc.counting.countshoe import CountShoe
from bjcalc.counting.indices import Convention, IndexPlay, _index_table
from bjcalc.counting.tags import true_count
from bjcalc.counting.tasks import RunStats, Task, TaskStore, run_tasks
from bjcalc.engine.door import (
    Frame,
    Optimal,
    RoundTotals,
    action_values,
    round_run_out,
    round_totals,
    shared_stands,
    stands_together,
)
from bjcalc.errors import InvalidShoeError
from bjcalc.numbers import to_fraction
from bjcalc.rules import Rules

# -- the index plays, on the count the counter sees when deciding ----------------------------


class IndexPolicy(ChartPolicy):
    """Basic strategy with index plays: a two-card hand of an index play (its total's hands, or
    its pair) deviates when the true count the counter sees then reaches the index: the
    round's starting running count plus the tags of the hand and the up card, over the cards
    not seen (the convention of ``bjcalc index``, whose numbers these are). Otherwise, and for
    every later decision and split hand, the chart."""

    def __init__(self, engine: Any, chart: Chart, plays: Sequence[tuple[IndexPlay, int]], tags: Sequence[Fraction],
                 running_count: Fraction, seen: int, convention: Convention, like: ChartPolicy | None = None) -> None:
        super().__init__(engine, chart)
        if like is not None and like.chart is chart and like.engine is engine:
            # the same chart on the same shoe: its solved hands and split hands are these, and so
            # are its first plays where no index play applies
            self._hands, self._splits, self._firsts = like._hands, like._splits, like._firsts
        self.tags, self.running_count, self.convention = tags, running_count, convention
        self.cards_left = sum(engine.rules.shoe_counts) - seen - 3
        self._true_counts: dict[Fraction, Fraction] = {}  # by running count: few distinct ones
        self._plays: dict[tuple[tuple[int, ...], int], tuple[IndexPlay, int]] = {}
        for play, index in plays:
            for hand in play.hands():
                counts = [0] * 10
                for card in hand:
                    counts[card.index] += 1
                self._plays[tuple(counts), play.up.index] = (play, index)

    @property
    def label(self) -> str:
        return f"{self.chart.strategy} with index plays (chart; split hands by the chart)"

    def may_differ(self, up: int, counts: tuple[int, ...]) -> bool:
        """Whether this two-card hand against ``up`` has an index play: every other hand, and
        every later decision and split hand, is played as the chart plays it."""
        return (counts, up) in self._plays

    def round_ev(self, chart_round: RoundTotals) -> Any:
        """The round's EV under this policy (what :func:`round_totals` gives), from the chart's
        round on the same engine: the chart's EV plus, for each hand with an index play, its
        chance times what the index play changes. Exact mode: the same number; float: the same
        to rounding (summed in another order). The walk of every hand again cost a truecount
        task about 3 ms."""
        number = self.engine.number
        ev = chart_round.ev
        for hand in chart_round.plays:
            if self.may_differ(hand.up, hand.counts):
                _, value = self.first(hand.up, hand.counts, hand.same_face)
                if value != hand.value:
                    ev += number(hand.p_up) * number(hand.p_hand) * (value - hand.value)
        return ev

    def first(self, up: int, counts: tuple[int, ...], same_face: bool) -> tuple[Action, Any]:
        entry = self._plays.get((counts, up))
        if entry is None or not same_face and not self.engine.rules.split_unlike_tens and counts[TEN] == 2:
            return super().first(up, counts, same_face)
        play, index = entry
        seen = self.running_count + self.tags[up] + sum(self.tags[r] * n for r, n in enumerate(counts) if n)
        tc = self._true_counts.get(seen)
        if tc is None:
            tc = self._true_counts[seen] = true_count(seen, self.cards_left, self.convention.divisor,
                                                      self.convention.rounding)
        if tc >= index:
            action = play.play
        else:
            action = self.action(up, counts, same_face)
            if action not in play.instead:
                action = play.instead[0]
        values, _ = action_values(self.engine, self, up, counts, same_face, Frame.UNCONDITIONAL, [action])
        return action, values[action]


# -- one task: the advantage at one depth and running count ------------------------------------


def state_task(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction, irc: Fraction,
               chart: Chart, plays: tuple[tuple[IndexPlay, int], ...], insurance_index: int | None,
               convention: Convention, moments: str | None, exact: bool) -> dict[str, Any]:
    """The round's EV on the counter's shoe at ``seen`` cards and ``running_count`` for each of
    :data:`STRATEGIES`, per initial bet, insurance included where the strategy takes it; with
    ``moments`` (a strategy's name), also that strategy's ``E[X^2]`` there (``m2``, by name:
    the split moments of every state are the costly part). The dealer's weighted pass is
    shared with the other states of a batch at the same depth (:func:`_states_together`), and
    its numbers are the same alone."""
    shoe = _count_shoe(rules, tags, seen, running_count, irc)
    with shared_stands([shoe.draw_model()]):
        return _state_values(rules, tags, seen, running_count, shoe, chart, plays, insurance_index, convention,
                             moments, exact)


def _state_values(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction, shoe: CountShoe,
                  chart: Chart, plays: tuple[tuple[IndexPlay, int], ...], insurance_index: int | None,
                  convention: Convention, moments: str | None, exact: bool) -> dict[str, Any]:
    from bjcalc.analysis import Analysis

    analysis: Analysis[Any] = Analysis(rules, shoe=shoe, exact=exact)
    number: Callable[[Any], Any] = to_fraction if exact else float
    # insurance by the index: against the ace alone, as bjcalc index takes it
    tc = true_count(running_count + tags[ACE], sum(rules.shoe_counts) - seen - 1, convention.divisor,
                    convention.rounding)
    engine = analysis.engine
    chart_policy = ChartPolicy(engine, chart)
    chart_round = round_totals(engine, chart_policy)
    basic = number(chart_round.ev)
    index_policy = IndexPolicy(engine, chart, plays, tags, running_count, seen, convention, like=chart_policy)
    indexed = number(index_policy.round_ev(chart_round))
    cd = number(round_totals(engine, Optimal(engine)).ev)
    p_ace = shoe.draw_probability([Rank.ACE]) if rules.insurance else Fraction(0)
    insurance = number(analysis.insurance("A")) if p_ace else number(0)
    p_ace_number: Any = p_ace if exact else float(p_ace)
    if insurance_index is not None and tc >= insurance_index:
        indexed += p_ace_number * insurance / 2
    if insurance > 0:
        cd += p_ace_number * insurance / 2
    out = {"basic": basic, "indices": indexed, "cd": cd, "p_ace": p_ace_number, "insurance": insurance}
    if moments is not None:
        insure = {"basic": False, "indices": insurance_index is not None and tc >= insurance_index and bool(p_ace),
                  "cd": insurance > 0}[moments]
        policy = {"basic": chart_policy, "indices": index_policy, "cd": Optimal(engine)}[moments]
        out["m2"] = {moments: number(_second_moment(engine, policy, insure))}
    # None: no deal of this state runs out; a chart plays alike under the casino's rule
    chances = round_run_out(engine, chart_policy, chart_round.plays, fixed=True)
    if chances is not None and chances.most != 0:
        out.update(run_out=number(chances.probability), run_out_most=number(chances.most),
                   run_out_exact=chances.exact)
    return out


def _second_moment(engine: Any, policy: Any, insure: bool) -> Any:
    """``E[X^2]`` of the round on the engine's shoe under ``policy``, insurance against every
    ace with ``insure`` (:func:`bjcalc.round.round_moments`)."""
    from bjcalc.round import round_moments

    moments = round_moments(engine, policy, insure=insure)
    assert moments is not None  # a counter's shoe is finite
    return moments[1]


def _states_together(calls: Sequence[tuple]) -> contextlib.ExitStack:
    """The float :func:`state_task` calls of a batch at the same depth share their dealer
    passes (``state_task.together``, which :func:`bjcalc.counting.tasks.run_tasks` enters around a batch;
    :func:`bjcalc.engine.batch.stands_together`)."""
    return stands_together(_count_shoe(rules, tags, seen, running_count, irc).draw_model()
                           for rules, tags, seen, running_count, irc, *_, exact in calls if not exact)


def _count_shoe(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction,
                irc: Fraction) -> CountShoe:
    """The counter's shoe of one :func:`state_task`."""
    return CountShoe(shoe=rules.shoe_counts, tags=tags, running_count=running_count, seen=seen,
                     initial_running_count=irc)


def run_states(tasks: Sequence[Task], store: TaskStore, job: str, cards: int, pen: Fraction, remedy: str, *,
               workers: int | None, scheduler: str | None, progress: Callable[[int, int], None] | None,
               batch: int | None) -> RunStats:
    """Run the (depth, running count) tasks of a shoe (``arguments[2]``: the cards seen), the
    deepest first, here: a shoe too small for the work at the cut card says so at once, in one
    line naming the ``remedy``."""
    deepest = max(range(len(tasks)), key=lambda i: tasks[i].arguments[2])
    try:
        run_tasks([tasks[deepest]], store, job, workers=1, scheduler=scheduler)
    except InvalidShoeError as error:
        raise InvalidShoeError(f"penetration {float(pen):g} leaves {cards - tasks[deepest].arguments[2]} cards at the "
                               f"last round's start: {error} ({remedy})") from None
    return run_tasks(tasks, store, job, workers=workers, scheduler=scheduler, progress=progress, batch=batch)


def _indices_task(rules: Rules, system: str, tags: tuple[Fraction, ...], seen: int, convention: Convention,
                  exact: bool) -> dict[str, Any]:
    table = _index_table(rules, system, tags, seen, None, convention, True, 1, None, exact)  # one a state: unchecked
    return {"plays": [(row.play.name, row.index) for row in table.plays],
            "insurance": None if table.insurance is None else table.insurance.index}


def _second_moment_task(rules: Rules, exact: bool) -> dict[str, Any]:
    """``E[X^2]`` of one round on the full shoe, basic strategy (for ``indices`` too) and CD."""
    from bjcalc.analysis import Analysis

    analysis: Analysis[Any] = Analysis(rules, exact=exact)
    number: Callable[[Any], Any] = to_fraction if exact else float
    chart = analysis.chart()
    basic = number(analysis.variance(chart).variance) + number(analysis.evaluate(chart).round.ev) ** 2
    cd = number(analysis.variance().variance) + number(analysis.round().ev) ** 2
    return {"basic": basic, "indices": basic, "cd": cd}
