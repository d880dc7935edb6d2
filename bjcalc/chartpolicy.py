"""A chart played on the engine: the policy that follows it (first plays, later hit/stand and
split hands), and what its plays cost: where CD play beats it (:func:`exceptions`) and where it
departs from another chart (:func:`deviations`).
"""

from __future__ import annotations

from typing import Any

from bjcalc.actions import Action
from bjcalc.cards import RANK_NOTATION, UP_INDICES, Rank, counts_total, is_blackjack
from bjcalc.chart import CHART_TABLES, Chart, chart_action, chart_decider, chart_from_tables
from bjcalc.engine.analyser import Engine
from bjcalc.engine.payout import Frame, action_values
from bjcalc.engine.split import SplitSolver
from bjcalc.engine.values import HandValues, solve, unsplit_layers
from bjcalc.engine.walk import Dealt, EngineNumber, Optimal, round_totals
from bjcalc.kept import Kept
from bjcalc.results import ChartException, Deviation


class ChartPolicy:
    """A :class:`~bjcalc.engine.walk.Policy` that plays a chart: first plays, later hit/stand
    and split hands all follow it."""

    def __init__(self, engine: Engine, chart: Chart) -> None:
        self.engine, self.chart = engine, chart
        self._hands: dict[int, HandValues] = {}
        self._splits: dict[int, SplitSolver] = {}
        # (up, counts, same_face) -> (the chart's play, its EV) on this engine: shared with a
        # policy that plays the chart's hands alike (bjcalc.counting.truecount.IndexPolicy)
        self._firsts: dict[tuple[int, tuple[int, ...], bool], tuple[Action, EngineNumber]] = {}
        self._actions = _chart_actions(engine.rules, chart)

    @property
    def label(self) -> str:
        return f"{self.chart.strategy} (chart; split hands by the chart)"

    def hands(self, up: int) -> HandValues:
        if up not in self._hands:
            layers = unsplit_layers(self.engine.rules)
            self._hands[up] = solve(self.engine.context(up), layers, decisions=self.chart.ups[up].decisions(layers))
        return self._hands[up]

    def splits(self, up: int) -> SplitSolver:
        if up not in self._splits:
            self._splits[up] = self.engine.chart_splits(up, chart_decider(self.chart.ups[up]))
        return self._splits[up]

    def first(self, up: int, counts: tuple[int, ...], same_face: bool) -> tuple[Action, EngineNumber]:
        key = (up, counts, same_face)
        known = self._firsts.get(key)
        if known is None:
            action = self.action(up, counts, same_face)
            values, _ = action_values(self.engine, self, up, counts, same_face, Frame.UNCONDITIONAL, [action])
            known = self._firsts[key] = action, values[action]
        return known

    def action(self, up: int, counts: tuple[int, ...], same_face: bool) -> Action:
        """The chart's first play with a two-card hand (a natural stands: it is paid)."""
        key = (up, counts, same_face)
        action = self._actions.get(key)
        if action is None:
            if is_blackjack(counts):
                action = Action.STAND
            else:
                total, soft = counts_total(counts)
                action = chart_action(self.engine.rules, self.chart.ups[up], counts, total, soft, same_face)
            self._actions[key] = action
        return action


# the first plays of the charts played lately, by (rules, chart.key): every analysis of a
# counter's shoe plays the same chart on the same hands; a few charts are kept, each at most
# every up card's two-card hands
_CHARTS_KEPT = 8
_CHART_ACTIONS: Kept[dict[tuple[int, tuple[int, ...], bool], Action]] = Kept(_CHARTS_KEPT)


def _chart_actions(rules: Any, chart: Chart) -> dict[tuple[int, tuple[int, ...], bool], Action]:
    return _CHART_ACTIONS.setdefault((rules, chart.key), dict)


def exceptions(engine: Engine, plays: list[Dealt]) -> list[ChartException]:
    """Two-card hands where CD play (split hands by the engine's post-split strategy) beats
    the chart's first play, largest gain first."""
    out = []
    for play in plays:
        if is_blackjack(play.counts):
            continue
        best, value = Optimal(engine).first(play.up, play.counts, play.same_face)
        gain = float(value) - float(play.value)
        if best is not play.action and gain > 1e-12:
            cards = tuple(Rank.from_index(r) for r in range(10) for _ in range(play.counts[r]))
            out.append(ChartException(Rank.from_index(play.up), cards, play.action, best, gain))
    return sorted(out, key=lambda e: (UP_INDICES.index(e.up.index), -e.gain))


def deviations(engine: Engine, chart: Chart, optimal: Chart) -> list[Deviation]:
    """Every cell of ``chart`` that plays differently from ``optimal``, with its cost: the
    round EV of ``optimal`` minus that of ``optimal`` with only that cell changed. Largest
    first. A cell written differently that plays the same (``Ph`` and ``P`` where doubling
    after a split is allowed) is no deviation, nor is one that costs exactly nothing."""
    out = []
    base: dict[int, Any] = {}
    tables = {k: optimal.table(k) for k in CHART_TABLES}
    for kind in CHART_TABLES:
        mine, best = chart.table(kind), tables[kind]
        for row in mine:
            for up_name, code in mine[row].items():
                if code == best[row][up_name]:
                    continue
                up = RANK_NOTATION.index(up_name)
                changed = chart_from_tables(engine.rules, {**tables, kind: {**best, row: {**best[row], up_name: code}}},
                                            "deviation")
                if changed.key == optimal.key:
                    continue
                if up not in base:
                    base[up] = round_totals(engine, ChartPolicy(engine, optimal), [up]).ev
                cost = float(base[up] - round_totals(engine, ChartPolicy(engine, changed), [up]).ev)
                if cost == 0:
                    continue
                shown = chart.written[kind][row][up_name] if chart.written else code  # the user's own code
                out.append(Deviation(kind, row, Rank(up_name), shown, best[row][up_name], cost))
    return sorted(out, key=lambda d: -d.cost)
