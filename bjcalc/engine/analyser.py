"""The engine's view of one analysis: per up card, the context, the unsplit hands' values and
the split values, computed on demand and cached, in the engine's measure (the joint frame of
:mod:`bjcalc.engine.payout`, which turns them into what each play is worth)."""

from __future__ import annotations

import concurrent.futures
import hashlib
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from bjcalc.engine import allocator, pools
from bjcalc.engine.batch import ShoeIndex, joint_batch
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.split import Decide, PostSplit, SolvedHands, SplitSolver, reached_rows, solve_together
from bjcalc.engine.values import HandValues, can_solve_ups, solve_ups, stop_at, unsplit_layers, unsplit_table
from bjcalc.numbers import quotient
from bjcalc.rules import Rules

if TYPE_CHECKING:
    from bjcalc.engine.drawmodel import DrawModel


# the estimated bytes of split moments worked out side by side at most (Engine.prepare_moments)
MOMENTS_BUDGET = 160 * 2**20


# the pairs whose split shoes are registered in full before the unsplit hands are solved
# (Engine.prepare_all): the joint pass works on them while the others' reached rows are found
_EARLY_PAIRS = (0, 1)


class Engine:
    """Exact (integer numerators) or float values of one rule set, by up card (a rank index)."""

    def __init__(self, rules: Rules, exact: bool, post_split: PostSplit, model: DrawModel | None = None) -> None:
        """``model``: the shoe is a counter's shoe (:mod:`bjcalc.engine.drawmodel`), its counts
        the rules' shoe; every value then carries its weights."""
        self.rules, self.exact, self.post_split, self.model = rules, exact, post_split, model
        if not exact:
            allocator.for_float_engines()
        self._contexts: dict[int, UpcardContext] = {}
        self._index = ShoeIndex(rules.infinite)  # the shoes the hands leave, shared by the up cards
        # one dealer pass per shoe for every up card (with the compiled loop)
        self._joint = joint_batch(rules, self._index, exact, model)
        self._tables: dict[int, HandValues] = {}
        self._splits: dict[int, SplitSolver] = {}
        self._chart_splits: dict[int, dict[tuple[Any, int], SolvedHands]] = {}
        self._moments: dict[tuple[int, int, bytes], tuple[Any, Any]] = {}  # see split_moments

    def context(self, up: int) -> UpcardContext:
        """The up card's context: shoe, dealer graph and dealer batch (cached)."""
        if up not in self._contexts:
            self._contexts[up] = UpcardContext(self.rules, up, self.exact, self._index, self._joint, self.model)
        return self._contexts[up]

    def table(self, up: int) -> HandValues:
        """The unsplit values of every hand against ``up``, CD play after the first decision."""
        if up not in self._tables:
            self._tables[up] = unsplit_table(self.context(up))
        return self._tables[up]

    def splits(self, up: int) -> SplitSolver:
        """Split values against ``up`` for the analysis' post-split strategy."""
        solver = self._splits.get(up)
        if solver is None:
            solver = self._splits[up] = SplitSolver.optimal(self.context(up), None, self.post_split)
        if solver.unsplit is None:  # made by prepare, before the unsplit hands were solved
            solver.unsplit = self.table(up)
        return solver

    def chart_splits(self, up: int, decide: Decide) -> SplitSolver:
        """Split values against ``up`` with split hands played by a chart (``decide``); solvers
        of one chart share their values."""
        return SplitSolver.fixed(self.context(up), decide, self._chart_splits.setdefault(up, {}))

    def split_moments(self, splitter: SplitSolver, pair: int) -> tuple[Any, Any]:
        """(E[Y], E[Y^2]) of splitting ``pair`` with split hands played as ``splitter`` plays
        them (:func:`bjcalc.engine.moments.split_moments`), kept by what they depend on: the up
        card and the split hands' decisions at every removal. A chart and CD play mostly split
        alike (8 decks: 51 of 52 pairs), so a report's two spreads share this work."""
        return self.many_split_moments([(splitter, pair)])[0]

    def _moments_key(self, splitter: SplitSolver, pair: int) -> tuple[int, int, bytes]:
        """What a split's moments depend on: the up card, the pair and the split hands'
        decisions at every removal (solving them, where not yet solved)."""
        up = splitter.context.up
        assert splitter.context is self.context(up), "a splitter of another engine"
        alike = splitter.plays_alike(pair)  # then the first removal's decisions are every removal's
        plays = hashlib.blake2b(repr((splitter.limit(pair), splitter.removals(pair), alike)).encode())
        for removed in splitter.removals(pair)[: 1 if alike else None]:
            plays.update(splitter.plays_digest(pair, removed))
        return up, pair, plays.digest()

    def many_split_moments(self, wanted: Sequence[tuple[SplitSolver, int]]) -> list[tuple[Any, Any]]:
        """:meth:`split_moments` of every ``(splitter, pair)`` of ``wanted``, in order. Those
        not yet kept are worked out side by side on the moment threads
        (:func:`bjcalc.engine.pools.moment_threads`), largest first, as many at once as fit
        :data:`MOMENTS_BUDGET` by their estimated peaks
        (:func:`bjcalc.engine.moments.moments_size`, float mode's; one at a time where one
        alone exceeds it); the split hands are solved here first, so the threads only read
        them. Each split's moments are the same numbers either way. Exact mode too: its sums
        run in the compiled loops (128-bit dealer numerators, residues), which release the GIL
        (8 decks: 3.3-3.4 -> 2.9-3.2 s for ``edge --sd --exact``, peak 291-297 -> 313-319 MB)."""
        from bjcalc.engine.moments import moments_size, split_moments

        keys = [self._moments_key(splitter, pair) for splitter, pair in wanted]
        todo: dict[tuple[int, int, bytes], tuple[SplitSolver, int]] = {}
        for key, job in zip(keys, wanted):
            if key not in self._moments:
                todo.setdefault(key, job)
        if len(todo) < 2 or pools.DEALER_WORKERS < 2:
            for key, (splitter, pair) in todo.items():
                self._moments[key] = split_moments(splitter, pair)
            return [self._moments[key] for key in keys]
        size = {key: moments_size(*job) for key, job in todo.items()}
        waiting = sorted(todo, key=lambda key: -size[key])
        running: dict[concurrent.futures.Future, tuple[int, int, bytes]] = {}
        held = 0
        try:
            while waiting or running:
                while waiting and len(running) < pools.DEALER_WORKERS:
                    fits = next((key for key in waiting if held + size[key] <= MOMENTS_BUDGET), None)
                    if fits is None and running:
                        break
                    key = waiting[0] if fits is None else fits
                    waiting.remove(key)
                    held += size[key]
                    running[pools.moment_threads().submit(split_moments, *todo[key])] = key
                done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    key = running.pop(future)
                    held -= size[key]
                    self._moments[key] = future.result()
        finally:  # on an error, let the splits under way finish before it goes up
            concurrent.futures.wait(running)
        return [self._moments[key] for key in keys]

    def prepare(self, up: int, pairs: Sequence[int] | None = None) -> None:
        """Batch the dealer work for every hand and every split (of ``pairs``, default all)
        against ``up`` at once."""
        if up not in self._tables:
            context = self.context(up)
            context.batch.index.register(unsplit_layers(self.rules), (0,) * 10)
            context.batch.start(more=True)  # the joint pass: the unsplit hands' shoes first
            if self.rules.split_hands > 1:  # the solver is kept: its graphs are every split's
                self._splits.setdefault(up, SplitSolver.optimal(context, None, self.post_split)).prepare(pairs)
            context.batch.start()

    def prepare_all(self, ups: Iterable[int] | None = None, splits: bool = False) -> None:
        """:meth:`prepare` every up card in the shoe (or ``ups``): the dealer runs in the
        background while Python goes on (with the joint pass, solving the unsplit hands and,
        with ``splits``, the split hands of the post-split strategy and the splits' values;
        else, in float mode, preparing the next up card)."""
        chosen = [up for up in (range(10) if ups is None else ups) if self.rules.shoe_counts[up]]
        # CDZ- split hands in float mode on a composition shoe reach only some rows of their
        # graphs (8 decks: 72 %): once the unsplit hands are solved, those plays are known, and
        # the later pairs' shoes are registered for the rows reached alone (the first pairs' in
        # full, for the joint pass to work on meanwhile)
        pruned = (splits and self._joint is not None and self.post_split is PostSplit.CDZ
                  and all(can_solve_ups(self.context(up)) for up in chosen))
        for up in chosen:
            self.prepare(up, _EARLY_PAIRS if pruned else None)
        if self._joint is not None:
            # the joint pass evaluates the unsplit hands' shoes first, then each pair's split
            # hands' shoes: solve in the same order, so that Python works while it runs
            self._unsplit_tables(chosen)
            solvers = {pair: [self.splits(up) for up in chosen if pair in self.splits(up).pairs()]
                       for pair in range(10)} if splits else {}
            reached = {pair: self._register_reached(of_pair, pair) for pair, of_pair in solvers.items()
                       if pruned and pair not in _EARLY_PAIRS and of_pair}
            for up in chosen:
                self.context(up).dealt_hands()  # the deal's hands, while the pass goes on
            # and each split's value while the next pair's shoes are in the pass: the round
            # asks for every pair's
            for pair, of_pair in solvers.items():
                solve_together(of_pair, pair, reached.get(pair))  # up cards alike in one pass
                for solver in of_pair:
                    solver.value(pair)

    def _register_reached(self, solvers: Sequence[SplitSolver], pair: int) -> np.ndarray:
        """Register the shoes of the rows of the split graph of ``pair`` that the solvers'
        CDZ- plays reach (:func:`bjcalc.engine.split.reached_rows`), at every removal any of
        them visits, and start the joint pass on them; the rows reached."""
        reached = reached_rows(solvers, pair)
        layers, batch = solvers[0].layers(pair), solvers[0].context.batch
        for removed in sorted({r for solver in solvers for r in solver.removals(pair)}):
            batch.index.register(layers, solvers[0].extra(pair, removed), reached)
        batch.start()
        return reached

    def _unsplit_tables(self, ups: Sequence[int]) -> None:
        """:meth:`table` of each of ``ups``: in float mode on a composition shoe, the up cards
        whose dealers settle a blackjack alike in one pass (:func:`bjcalc.engine.values.solve_ups`,
        the same values as a pass each)."""
        groups: dict[tuple, list[int]] = {}
        for up in ups:
            context = self.context(up)
            if up in self._tables or not can_solve_ups(context):
                self.table(up)
            else:
                groups.setdefault((context.peeked, context.double_loss), []).append(up)
        layers, limit = unsplit_layers(self.rules), stop_at(self.rules)
        for group in groups.values():
            if len(group) == 1:
                self.table(group[0])
                continue
            solved = solve_ups([self.context(up) for up in group], layers, ((0,) * 10,), loss=1, limit=limit)
            for up, values in zip(group, solved):
                self._tables[up] = values[0]

    def ups(self) -> list[int]:
        """The up cards the shoe can show, A first."""
        return [up for up in range(10) if self.rules.shoe_counts[up]]

    def div(self, numerator: object, denominator: object) -> Fraction | float:
        """An engine ratio: a Fraction in exact mode, else a float."""
        return quotient(numerator, denominator, self.exact)

    def number(self, value: Fraction | int) -> Fraction | float:
        """An exact constant in the engine's number type."""
        return value if self.exact else float(value)
