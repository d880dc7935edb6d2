"""The basic-strategy optimiser: total-dependent basic strategy for a rule set.

**Total-dependent (TD) basic strategy**, per up card: per hard or soft total, one hit/stand
decision for two-card hands and one for hands of three or more cards (printed ``H/S`` where they
differ: a two-card 16 v T hits, a longer one stands; ``two_card_plays=False`` gives the classic
chart, one decision for every size), split hands included; one first-two-card decision per
total (double, surrender, or neither: play by hit/stand), also used by two-card split hands
where doubling after a split is allowed; one decision per pair (split, surrender, or play as
its total). Each decision maximises the round's EV given all the others: a hit/stand or
double/surrender choice maximises the EV summed over every unsplit hand that reaches it
(weighted by the probability of reaching it under the chart), a pair's choice is made on the
exact EVs of splitting it (split hands following the chart) and of its alternatives; the
choices are repeated until none changes (a fixed point). Decisions are chosen in floating
point; the EV of the resulting chart is then computed exactly in exact mode.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from bjcalc.cards import SOFT_CELL, TEN, is_blackjack
from bjcalc.chart import CELLS, Chart, UpcardChart, chart_decider
from bjcalc.engine.analyser import Engine
from bjcalc.engine.codes import Code
from bjcalc.engine.deal import same_face_share
from bjcalc.engine.payout import surrender_value
from bjcalc.engine.values import solve, stop_at, unsplit_layers
from bjcalc.rules import Rules, Surrender


class _ChartOptimiser:
    """The TD optimisation for one up card (float)."""

    def __init__(self, engine: Engine, up: int, two_card_plays: bool = True) -> None:
        self.engine, self.up = engine, up
        self.two_card_plays = two_card_plays  # else one hit/stand play per total, as classic charts
        self.context = engine.context(up)
        self.rules = engine.rules
        self.layers = unsplit_layers(self.rules)
        self.cells = self.layers.cells
        first = self.layers.counts[0]
        dealt: dict[tuple[int, ...], Fraction] = {}  # both kinds of a pair of tens together
        for counts, p_hand, _ in self.context.dealt_hands():
            dealt[counts] = dealt.get(counts, Fraction(0)) + p_hand
        self.deal = np.array([float(dealt.get(tuple(row), 0)) for row in first.tolist()])
        self.natural = np.array([is_blackjack(row) for row in first.tolist()])
        self.pair_rank = np.array([next((r for r in range(10) if row[r] == 2), -1) for row in first.tolist()])
        # the share of each pair that the pair decision covers: all of it, but for tens where
        # unlike faces may not be split (those play by their total)
        self.split_share = np.ones(len(first))
        if not self.rules.split_unlike_tens:
            self.split_share[self.pair_rank == TEN] = float(same_face_share(self.rules, up))

    def values(self, chart: UpcardChart):
        solved = solve(self.context, self.layers, decisions=chart.decisions(self.layers))
        # a counter's shoe: a state its shoe cannot deal has weight 0 and numerators 0; over 1 it is 0, not NaN
        scales = [np.float64(g) if solved.weights is None else float(g) * _nonzero(np.asarray(w, dtype=float))
                  for g, w in zip(solved.scale, solved.weights or solved.scale)]
        as_float = [np.asarray(x, dtype=float) / g for x, g in zip(solved.stand, scales)]
        hit = [np.asarray(x, dtype=float) / g for x, g in zip(solved.hit, scales)]
        double = None if solved.double is None else np.asarray(solved.double, dtype=float) / scales[0]
        p_bj = np.asarray(solved.blackjack[0], dtype=float) / scales[0]
        return solved, as_float, hit, double, p_bj


    def optimise(self, initial: UpcardChart, rounds: int = 60) -> UpcardChart:
        chart = initial
        for _ in range(4):
            for _ in range(rounds):
                if not self._improve_totals(chart):
                    break
            if not self._improve_pairs(chart):
                break
        self._mark_das_only(chart)
        return chart

    def _as_total(self, chart: UpcardChart) -> tuple[np.ndarray, np.ndarray]:
        """Each two-card hand's value when played by its total's cells (no split), and
        P(dealer blackjack)."""
        _, stand, hit, double, p_bj = self.values(chart)
        options = self._first_options(chart, stand, hit, double, p_bj)
        as_total = options[Code.NONE].copy()
        for key, value in options.items():
            as_total = np.where(chart.first[self.cells[0]] == key, value, as_total)
        return as_total, p_bj

    def _mark_das_only(self, chart: UpcardChart) -> None:
        """Which splits pay only because doubling after a split is allowed (codes Ph/Ps/Pd)."""
        chart.das_only = np.zeros(10, dtype=bool)
        if not self.rules.double_after_split or self.rules.split_hands < 2:
            return
        as_total, p_bj = self._as_total(chart)
        plain = self.engine.chart_splits(self.up, chart_decider(chart, double_after_split=False))
        for row in np.flatnonzero((self.pair_rank >= 0) & (self.deal > 0)):  # pairs this shoe can deal
            rank = self.pair_rank[row]
            if chart.pair[rank] == Code.SPLIT:
                chart.das_only[rank] = float(plain.value(rank)) < as_total[row]

    def _reach(self, chart: UpcardChart, playing: np.ndarray) -> list[np.ndarray]:
        """P(reaching each unsplit state and then choosing by hit/stand)."""
        layers, shoe = self.layers, np.array(self.context.shoe)
        reach = [self.deal * playing]
        for k in range(len(layers.counts) - 1):
            hitting = reach[k] * (chart.hit_two if layers.sizes[k] == 2 else chart.hit)[self.cells[k]]
            if self.context.replacement:
                left = np.broadcast_to(shoe[None, :] / shoe.sum(), layers.counts[k].shape)
            else:
                # past the shoe's last card no rank is left: a factor of 1 (numbers.falling_left)
                n_left = max(sum(self.context.shoe) - layers.sizes[k], 1)
                left = np.maximum(shoe[None, :] - layers.counts[k], 0) / n_left
            child = layers.children[k]
            ok = child >= 0
            flow = (hitting[:, None] * left)[ok]
            reach.append(np.bincount(child[ok], weights=flow, minlength=len(layers.counts[k + 1])))
        return reach

    def _first_options(self, chart, stand, hit, double, p_bj):
        rules = self.rules
        cells = self.cells[0]
        play = np.where(chart.hit_two[cells], hit[0], stand[0])
        options = {Code.NONE: play}
        totals, soft = self.layers.totals[0], self.layers.soft[0]
        if double is not None:
            may = np.array([rules.double.allows_total(int(t)) for t in totals]) & (rules.double_soft | ~soft)
            options[Code.DOUBLE] = np.where(may, double, -np.inf)
        if rules.surrender is not Surrender.NONE:
            options[Code.SURRENDER] = surrender_value(self.rules.surrender, self.context.peeked, p_bj)
        return options

    def _improve_totals(self, chart: UpcardChart) -> bool:
        _, stand, hit, double, p_bj = self.values(chart)
        splitting = (self.pair_rank >= 0) & (chart.pair[np.maximum(self.pair_rank, 0)] != Code.NONE)
        first_cells = self.cells[0]
        # the share of each two-card hand played by the hard/soft cells
        playing_first = ~self.natural * (1 - splitting * self.split_share)
        playing = playing_first * (chart.first[first_cells] == Code.NONE)
        reach = self._reach(chart, playing)
        # two-card hands (k = 0) and longer ones decide apart: each cell has a two-card play and
        # a play for three or more cards (the chart prints both where they differ)
        gain, gain_two = np.zeros(CELLS), np.zeros(CELLS)
        for k in range(len(self.cells)):
            can_hit = self.layers.sizes[k] < stop_at(self.rules)
            if can_hit:
                into = gain_two if self.layers.sizes[k] == 2 else gain
                into += np.bincount(self.cells[k], weights=reach[k] * (hit[k] - stand[k]), minlength=CELLS)
        # a cell no unsplit hand reaches under this chart (its two-card hands all double, split
        # or surrender) still serves split hands, and a two-card hand whose double or surrender is
        # not offered: decide it as if every hand reached it by hitting
        potential, potential_two = np.zeros(CELLS), np.zeros(CELLS)
        everything = UpcardChart(np.ones(CELLS, dtype=bool), chart.first, chart.pair, chart.split_beats_total)
        for k, weights in enumerate(self._reach(everything, ~self.natural)):
            if self.layers.sizes[k] < stop_at(self.rules):
                into = potential_two if self.layers.sizes[k] == 2 else potential
                into += np.bincount(self.cells[k], weights=weights * (hit[k] - stand[k]), minlength=CELLS)
        if not self.two_card_plays:  # one play per total for hands of every size
            gain, potential = gain + gain_two, potential + potential_two
            gain_two, potential_two = gain, potential
        new_hit = np.where(gain > 0, True, np.where(gain < 0, False, potential > 0))
        new_two = np.where(gain_two > 0, True, np.where(gain_two < 0, False, potential_two > 0))
        longer = (gain != 0) | (potential != 0)  # cells that hands of three or more cards reach
        shorter = (gain_two != 0) | (potential_two != 0)
        new_hit = np.where(longer, new_hit, new_two)  # no such hands: one play for the cell
        new_two = np.where(shorter, new_two, new_hit)
        options = self._first_options(chart, stand, hit, double, p_bj)
        weights = self.deal * playing_first
        totals = {key: np.zeros(CELLS) for key in options}
        for key, value in options.items():
            finite = np.where(np.isfinite(value), value, -1e9)
            totals[key] += np.bincount(first_cells, weights=weights * finite, minlength=CELLS)
        keys = list(options)
        stacked = np.vstack([totals[key] for key in keys])
        new_first = np.array([keys[i] for i in stacked.argmax(axis=0)])
        new_first[stacked.max(axis=0) == stacked[0]] = Code.NONE  # ties (and empty cells): no extra play
        changed = not (np.array_equal(new_hit, chart.hit) and np.array_equal(new_first, chart.first)
                       and np.array_equal(new_two, chart.hit_two))
        chart.hit, chart.first, chart.two_cards = new_hit, new_first, new_two
        return changed

    def _improve_pairs(self, chart: UpcardChart) -> bool:
        if self.rules.split_hands < 2:
            return False
        as_total, p_bj = self._as_total(chart)
        splitter = self.engine.chart_splits(self.up, chart_decider(chart))
        changed = False
        for row in np.flatnonzero((self.pair_rank >= 0) & (self.deal > 0)):  # pairs this shoe can deal
            rank = self.pair_rank[row]
            split = float(splitter.value(rank))
            choices = {Code.NONE: as_total[row], Code.SPLIT: split}
            if self.rules.surrender is not Surrender.NONE:
                choices[Code.SURRENDER] = surrender_value(self.rules.surrender, self.context.peeked, p_bj[row])
            best = max(choices, key=lambda key: (choices[key], key == Code.NONE))
            chart.split_beats_total[rank] = split > as_total[row]
            if best != chart.pair[rank]:
                chart.pair[rank], changed = best, True
        return changed


def basic_strategy(rules: Rules, engine: Engine | None = None, two_card_plays: bool = True) -> Chart:
    """The total-dependent basic strategy chart for ``rules`` (see the module docstring).
    ``engine``: an engine of the same rules to share work with (an exact one lends its shoe: a
    counter's shoe's chart is chosen for that shoe, in floats). ``two_card_plays``: a
    cell may have one hit/stand play for two-card hands and another for longer ones (printed
    ``H/S``); False: one play per total for every hand, as classic charts print."""
    if engine is None or engine.exact:
        from bjcalc.engine.split import PostSplit

        engine = Engine(rules, False, PostSplit.CDZ, None if engine is None else engine.model)
    ups = {}
    engine.prepare_all()
    for up in engine.ups():
        solver = _ChartOptimiser(engine, up, two_card_plays)
        initial = UpcardChart(
            hit=np.array([t < 17 if c < SOFT_CELL else t < 18 for c, t in ((c, c % SOFT_CELL) for c in range(CELLS))]),
            first=np.full(CELLS, Code.NONE),
            pair=np.full(10, Code.NONE),
            split_beats_total=np.zeros(10, dtype=bool),
        )
        ups[up] = solver.optimise(initial)
    return Chart(rules=rules, ups=ups)


def _nonzero(weights: np.ndarray) -> np.ndarray:
    return np.where(weights == 0, 1.0, weights)
