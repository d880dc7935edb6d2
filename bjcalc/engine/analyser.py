"""The engine's view of one analysis: per up card, the context, the unsplit hands' values and
the split values, computed on demand and cached; and the values of a two-card hand's first
decisions in the engine's own measure.

The engine's measure: with a peeking dealer and an A or T up, values are
E[result; no dealer blackjack]; otherwise unconditional. :meth:`Engine.best_first` turns a
first decision's value into the unconditional EV the round sums.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.cards import ACE, TEN, counts_total
from bjcalc.engine.batch import JointBatch, ShoeIndex
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.dealer import joint_available
from bjcalc.engine.split import Decide, PostSplit, SplitSolver
from bjcalc.engine.values import HandValues, unsplit_layers, unsplit_table
from bjcalc.numbers import quotient
from bjcalc.rules import Rules, Surrender


def surrender_value(surrender: Surrender, peeked: bool, p_bj: Any) -> Any:
    """Surrendering, in the engine's measure. ``p_bj`` (P(dealer blackjack)) may be a
    Fraction, a float or a numpy array of floats.

    Late: -1/2 after the peek; with no hole card a dealer blackjack still takes the whole bet.
    Early: -1/2 whatever the dealer holds (so E[result; no blackjack] = -1/2 + P(blackjack)).
    """
    half = Fraction(1, 2) if isinstance(p_bj, Fraction) else 0.5
    if surrender is Surrender.EARLY:
        return p_bj - half if peeked else p_bj * 0 - half
    return -(1 - p_bj) * half - (0 if peeked else p_bj)


class Engine:
    """Exact (integer numerators) or float values of one rule set, by up card (a rank index)."""

    def __init__(self, rules: Rules, exact: bool, post_split: PostSplit) -> None:
        self.rules, self.exact, self.post_split = rules, exact, post_split
        self._contexts: dict[int, UpcardContext] = {}
        self._index = ShoeIndex(rules.infinite)  # the shoes the hands leave, shared by the up cards
        # float mode: one dealer pass per shoe for every up card (with the compiled loop)
        self._joint = JointBatch(rules, self._index) if not exact and not rules.infinite and joint_available() else None
        self._tables: dict[int, HandValues] = {}
        self._splits: dict[int, SplitSolver] = {}
        self._chart_splits: dict[int, dict[tuple[Any, int], dict[int, HandValues]]] = {}

    def context(self, up: int) -> UpcardContext:
        """The up card's context: shoe, dealer graph and dealer batch (cached)."""
        if up not in self._contexts:
            self._contexts[up] = UpcardContext(self.rules, up, self.exact, self._index, self._joint)
        return self._contexts[up]

    def table(self, up: int) -> HandValues:
        """The unsplit values of every hand against ``up``, CD play after the first decision."""
        if up not in self._tables:
            self._tables[up] = unsplit_table(self.context(up))
        return self._tables[up]

    def splits(self, up: int) -> SplitSolver:
        """Split values against ``up`` for the analysis' post-split strategy."""
        if up not in self._splits:
            self._splits[up] = SplitSolver.optimal(self.context(up), self.table(up), self.post_split)
        return self._splits[up]

    def chart_splits(self, up: int, decide: Decide) -> SplitSolver:
        """Split values against ``up`` with split hands played by a chart (``decide``); solvers
        of one chart share their values."""
        return SplitSolver.fixed(self.context(up), decide, self._chart_splits.setdefault(up, {}))

    def prepare(self, up: int) -> None:
        """Batch the dealer work for every hand and every split against ``up`` at once."""
        if up not in self._tables:
            context = self.context(up)
            context.batch.index.register(unsplit_layers(self.rules), (0,) * 10)
            context.batch.start(more=True)  # the joint pass: the unsplit hands' shoes first
            if self.rules.split_hands > 1:
                SplitSolver(context, None, self.post_split).prepare()
            context.batch.start()

    def prepare_all(self, ups: Iterable[int] | None = None, splits: bool = False) -> None:
        """:meth:`prepare` every up card in the shoe (or ``ups``): in float mode the dealer
        runs in the background while Python goes on (with the joint pass, solving the unsplit
        hands and, with ``splits``, the split hands of the post-split strategy; else preparing
        the next up card)."""
        chosen = [up for up in (range(10) if ups is None else ups) if self.rules.shoe_counts[up]]
        for up in chosen:
            self.prepare(up)
        if self._joint is not None:
            # the joint pass evaluates the unsplit hands' shoes first, then each pair's split
            # hands' shoes: solve in the same order, so that Python works while it runs
            for up in chosen:
                self.table(up)
            if splits:
                for pair in range(10):
                    for up in chosen:
                        solver = self.splits(up)
                        if pair in solver.pairs():
                            solver.solve(pair)

    def ups(self) -> list[int]:
        """The up cards the shoe can show, A first."""
        return [up for up in range(10) if self.rules.shoe_counts[up]]

    def div(self, numerator: object, denominator: object) -> Fraction | float:
        """An engine ratio: a Fraction in exact mode, else a float."""
        return quotient(numerator, denominator, self.exact)

    def number(self, value: Fraction | int) -> Fraction | float:
        """An exact constant in the engine's number type."""
        return value if self.exact else float(value)

    def joint_values(
        self, up: int, counts: tuple[int, ...], same_face: bool = True
    ) -> tuple[dict[Action, Fraction | float], Fraction | float]:
        """Values of every action for a hand (given as rank counts) against ``up``, in the
        engine's measure, and P(dealer blackjack). Two-card hands get the first-decision
        actions; a natural gets only its payout. ``same_face``: for two tens where unlike tens
        may not be split, whether they are of one face (only then may they be split)."""
        rules = self.rules
        table = self.table(up)
        layer, row = table.layers.index[counts]
        scale = table.scale[layer]
        p_bj = self.div(table.blackjack[layer][row], scale)
        initial = layer == 0
        total, soft = counts_total(counts)
        values: dict[Action, Fraction | float] = {}
        natural = initial and counts[ACE] == 1 and counts[TEN] == 1
        if natural:
            values[Action.STAND] = self.number(rules.blackjack_pays) * (1 - p_bj)
        else:
            values[Action.STAND] = self.div(table.stand[layer][row], scale)
        if table.can_hit[layer] and not natural:
            values[Action.HIT] = self.div(table.hit[layer][row], scale)
            if initial and rules.double.allows_total(total) and (rules.double_soft or not soft):
                assert table.double is not None  # the two-card layer can draw
                values[Action.DOUBLE] = self.div(table.double[row], scale)
        if initial and not natural:
            pair = next((r for r in range(10) if counts[r] == 2), None)
            splittable = same_face or pair != TEN or rules.split_unlike_tens
            if pair is not None and rules.split_hands >= 2 and splittable:
                values[Action.SPLIT] = self.splits(up).value(pair)
            if rules.surrender is not Surrender.NONE:
                values[Action.SURRENDER] = surrender_value(rules.surrender, table.peeked, p_bj)
        return values, p_bj

    def best_first(self, up: int, counts: tuple[int, ...], same_face: bool = True) -> tuple[Action, Fraction | float]:
        """The best first decision for a two-card hand and its unconditional EV."""
        joint, p_bj = self.joint_values(up, counts, same_face)
        natural = counts[ACE] == 1 and counts[TEN] == 1
        action, value = max(joint.items(), key=lambda item: item[1])
        if self.table(up).peeked and not natural:
            value = value - p_bj  # a peeking dealer's blackjack takes the original bet
        return action, value
