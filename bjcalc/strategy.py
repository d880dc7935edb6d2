"""Strategy charts: total-dependent basic strategy, its exact EV, and where CD play differs.

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

import dataclasses
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import ACE, RANK_NOTATION, SOFT_CELL, TEN, UP_INDICES, Rank, counts_total, is_blackjack, parse_card
from bjcalc.engine.analyser import Engine
from bjcalc.engine.codes import Code
from bjcalc.engine.deal import same_face_share, two_card_hands
from bjcalc.engine.hands import HandLayers
from bjcalc.engine.payout import Frame, action_values, surrender_value
from bjcalc.engine.split import SplitSolver
from bjcalc.engine.values import HandValues, solve, stop_at, unsplit_layers
from bjcalc.engine.walk import Dealt, EngineNumber, Optimal, round_totals
from bjcalc.errors import InvalidCardError, InvalidChartError
from bjcalc.results import ChartException, ChartTable, Deviation
from bjcalc.rules import Rules, Surrender

HARD_ROWS = list(range(4, 22))
SOFT_ROWS = list(range(12, 22))


def cell_of(total: int, soft: bool) -> int:
    return total + SOFT_CELL * soft


@dataclasses.dataclass
class UpcardChart:
    """The TD decisions against one up card, indexed by cell (``total + SOFT_CELL * soft``)."""

    hit: np.ndarray  # bool per cell: hands of three or more cards hit (else stand)
    first: np.ndarray  # per cell: Code.NONE, Code.DOUBLE or Code.SURRENDER on the first two cards
    pair: np.ndarray  # per pair rank: Code.NONE, Code.SPLIT or Code.SURRENDER
    split_beats_total: np.ndarray  # per pair rank, for the Rp code
    das_only: np.ndarray | None = None  # per pair rank: split only pays with double after split
    two_cards: np.ndarray | None = None  # bool per cell: two-card hands hit (None: as ``hit``)

    @property
    def hit_two(self) -> np.ndarray:
        """Whether a two-card hand of each cell hits when it neither doubles nor surrenders
        (split hands of two cards too, and a hand whose double or surrender is not offered)."""
        return self.hit if self.two_cards is None else self.two_cards

    def decisions(self, layers: HandLayers) -> list[np.ndarray]:
        """Hit or stand, by the chart, for every hand of ``layers`` (after the first decision):
        two-card hands by :attr:`hit_two`, longer ones by :attr:`hit`."""
        return [np.where((self.hit_two if size == 2 else self.hit)[cells], Code.HIT, Code.STAND)
                for size, cells in zip(layers.sizes, layers.cells)]

    def total_code(self, total: int, soft: bool) -> tuple[str, str]:
        """A hard or soft cell as (two-card code, suffix): the suffix ``/H`` or ``/S`` is the
        play of three or more cards where it differs from the two-card one, else empty."""
        cell = cell_of(total, soft)
        letter = "H" if self.hit_two[cell] else "S"
        if self.first[cell] == Code.DOUBLE:
            base = "D" + letter.lower()
        elif self.first[cell] == Code.SURRENDER:
            base = "R" + letter.lower()
        else:
            base = letter
        more = "H" if self.hit[cell] else "S"
        return base, "" if more == letter else "/" + more

    def code(self, kind: str, row: int | str) -> str:
        if kind == "pairs":
            rank = RANK_NOTATION.index(str(row))
            total, soft = (12, True) if rank == ACE else (2 * (rank + 1), False)
            plain, _ = self.total_code(total, soft)  # the pair as a two-card total
            if self.pair[rank] == Code.SPLIT:
                if self.das_only is not None and self.das_only[rank]:
                    return "P" + ("d" if plain.startswith("D") else plain[-1].lower())
                return "P"
            if self.pair[rank] == Code.SURRENDER and self.split_beats_total[rank]:
                return "Rp"
            if self.pair[rank] == Code.SURRENDER and not plain.startswith("R"):
                return "R" + plain[-1].lower()
            return plain
        base, more = self.total_code(int(row), kind == "soft")
        return base + more


@dataclasses.dataclass
class Chart:
    """A basic-strategy chart for a rule set: per up card decisions, printable as codes."""

    rules: Rules
    ups: dict[int, UpcardChart]
    strategy: str = "basic"
    written: dict[str, dict[str, dict[str, str]]] | None = None  # a chart file's codes as written

    def rows(self, kind: str) -> list[str]:
        return {"hard": [str(t) for t in HARD_ROWS], "soft": [str(t) for t in SOFT_ROWS],
                "pairs": list(RANK_NOTATION)}[kind]

    def table(self, kind: str) -> ChartTable:
        """The ``"hard"``, ``"soft"`` or ``"pairs"`` table: row -> up card -> code, printable
        (``print(chart.table("hard"))``)."""
        return ChartTable(kind, {
            row: {RANK_NOTATION[u]: self.ups[u].code(kind, row) for u in UP_INDICES if u in self.ups}
            for row in self.rows(kind)
        })

    @property
    def key(self) -> tuple:
        """The chart's plays as a value (charts are mutable arrays): equal keys play alike."""
        return tuple((up, c.hit.tobytes(), c.hit_two.tobytes(), c.first.tobytes(), c.pair.tobytes())
                     for up, c in sorted(self.ups.items()))

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "strategy": self.strategy,
                **{kind: self.table(kind).to_dict() for kind in ("hard", "soft", "pairs")}}


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
        for counts, p_hand, _ in two_card_hands(self.context.shoe, self.rules, up):
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
        as_float = [np.asarray(x, dtype=float) / float(g) for x, g in zip(solved.stand, solved.scale)]
        hit = [np.asarray(x, dtype=float) / float(g) for x, g in zip(solved.hit, solved.scale)]
        double = None if solved.double is None else np.asarray(solved.double, dtype=float) / float(solved.scale[0])
        p_bj = np.asarray(solved.blackjack[0], dtype=float) / float(solved.scale[0])
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
                n_left = sum(self.context.shoe) - layers.sizes[k]
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
        gain, gain_two = np.zeros(44), np.zeros(44)
        for k in range(len(self.cells)):
            can_hit = self.layers.sizes[k] < stop_at(self.rules)
            if can_hit:
                into = gain_two if self.layers.sizes[k] == 2 else gain
                into += np.bincount(self.cells[k], weights=reach[k] * (hit[k] - stand[k]), minlength=44)
        # a cell no unsplit hand reaches under this chart (its two-card hands all double, split
        # or surrender) still serves split hands, and a two-card hand whose double or surrender is
        # not offered: decide it as if every hand reached it by hitting
        potential, potential_two = np.zeros(44), np.zeros(44)
        everything = UpcardChart(np.ones(44, dtype=bool), chart.first, chart.pair, chart.split_beats_total)
        for k, weights in enumerate(self._reach(everything, ~self.natural)):
            if self.layers.sizes[k] < stop_at(self.rules):
                into = potential_two if self.layers.sizes[k] == 2 else potential
                into += np.bincount(self.cells[k], weights=weights * (hit[k] - stand[k]), minlength=44)
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
        totals = {key: np.zeros(44) for key in options}
        for key, value in options.items():
            finite = np.where(np.isfinite(value), value, -1e9)
            totals[key] += np.bincount(first_cells, weights=weights * finite, minlength=44)
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


def chart_decider(chart: UpcardChart, double_after_split: bool = True):
    """How split hands play a chart: hit/stand by total, double two-card hands where the chart
    doubles and the rules allow it after a split; a one-card split hand draws."""

    hit, first, two = chart.hit.copy(), chart.first.copy(), chart.hit_two.copy()  # the chart as it is now

    def decide(layers: HandLayers, may_double: np.ndarray | None) -> list[np.ndarray]:
        if not double_after_split:
            may_double = None
        out = []
        for k, size in enumerate(layers.sizes):
            cells = layers.cells[k]
            chosen = np.where((two if size == 2 else hit)[cells], Code.HIT, Code.STAND)
            if size == 1:
                chosen = np.full(len(cells), Code.HIT)
            elif size == 2 and may_double is not None:
                chosen = np.where(may_double & (first[cells] == Code.DOUBLE), Code.DOUBLE, chosen)
            out.append(chosen)
        return out

    # the same chart plays split hands the same way: solvers share their values by this key
    decide.key = (hit.tobytes(), first.tobytes(), two.tobytes(), double_after_split)  # type: ignore[attr-defined]
    return decide


def basic_strategy(rules: Rules, engine: Engine | None = None, two_card_plays: bool = True) -> Chart:
    """The total-dependent basic strategy chart for ``rules`` (see the module docstring).
    ``engine``: a float engine of the same rules to share work with. ``two_card_plays``: a
    cell may have one hit/stand play for two-card hands and another for longer ones (printed
    ``H/S``); False: one play per total for every hand, as classic charts print."""
    if engine is None or engine.exact:
        from bjcalc.engine.split import PostSplit

        engine = Engine(rules, False, PostSplit.CDZ)
    ups = {}
    engine.prepare_all()
    for up in engine.ups():
        solver = _ChartOptimiser(engine, up, two_card_plays)
        initial = UpcardChart(
            hit=np.array([t < 17 if c < 22 else t < 18 for c, t in ((c, c % 22) for c in range(44))]),
            first=np.full(44, Code.NONE),
            pair=np.full(10, Code.NONE),
            split_beats_total=np.zeros(10, dtype=bool),
        )
        ups[up] = solver.optimise(initial)
    return Chart(rules=rules, ups=ups)


def chart_action(rules: Rules, chart: UpcardChart, counts: tuple[int, ...], total: int, soft: bool,
                 same_face: bool = True) -> Action:
    """The first play the chart makes with a (non-blackjack) two-card hand (``same_face``:
    False for two tens of unlike faces where those may not be split: they play by total)."""
    pair = next((r for r in range(10) if counts[r] == 2), None)
    if pair == TEN and not same_face and not rules.split_unlike_tens:
        pair = None
    if pair is not None and rules.split_hands >= 2:
        if chart.pair[pair] == Code.SPLIT:
            return Action.SPLIT
        if chart.pair[pair] == Code.SURRENDER and rules.surrender is not Surrender.NONE:
            return Action.SURRENDER
    cell = cell_of(total, soft)
    if chart.first[cell] == Code.DOUBLE and rules.double.allows_total(total) and (rules.double_soft or not soft):
        return Action.DOUBLE
    if chart.first[cell] == Code.SURRENDER and rules.surrender is not Surrender.NONE:
        return Action.SURRENDER
    return Action.HIT if chart.hit_two[cell] else Action.STAND


class ChartPolicy:
    """A :class:`~bjcalc.engine.walk.Policy` that plays a chart: first plays, later hit/stand
    and split hands all follow it."""

    def __init__(self, engine: Engine, chart: Chart) -> None:
        self.engine, self.chart = engine, chart
        self._hands: dict[int, HandValues] = {}
        self._splits: dict[int, SplitSolver] = {}

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
        rules = self.engine.rules
        if is_blackjack(counts):
            action = Action.STAND  # paid as a natural
        else:
            total, soft = counts_total(counts)
            action = chart_action(rules, self.chart.ups[up], counts, total, soft, same_face)
        values, _ = action_values(self.engine, self, up, counts, same_face, Frame.UNCONDITIONAL, [action])
        return action, values[action]


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


CHART_CODES = ("H", "S", "Dh", "Ds", "Rh", "Rs", "P", "Ph", "Ps", "Pd", "Rp")  # docs/charts.md
TOTAL_CODES = CHART_CODES[:6]  # what a hard or soft cell may hold; a pairs cell takes them all
_CANONICAL_CODES = {code.lower(): code for code in CHART_CODES}
MORE_CARDS = ("H", "S")  # a code may end in /H or /S: the play of three or more cards, where it differs
_TABLES = ("hard", "soft", "pairs")
CHART_ROWS = {"hard": [str(t) for t in HARD_ROWS], "soft": [str(t) for t in SOFT_ROWS], "pairs": list(RANK_NOTATION)}
_ROW_SPANS = {"hard": "4..21", "soft": "12..21", "pairs": "A, 2..9, T"}


def _where(name: str | None) -> str:
    return "chart" if name is None else f"chart {name!r}"


def _quoted(items: list[str]) -> str:
    return ", ".join(map(repr, items))


def _chart_ups(rules: Rules) -> list[str]:
    """The up cards a chart for ``rules`` needs a column for: those the shoe holds."""
    return [RANK_NOTATION[u] for u in UP_INDICES if rules.shoe_counts[u]]


def _ups_text(ups: list[str]) -> str:
    return "2..9, T, A" if len(ups) == 10 else ", ".join(ups)


def _code(code: object, kind: str, cell: str, where: str) -> str:
    """A cell's code as people write it (any case) in its canonical spelling; ``cell`` names
    the cell for the error.

    >>> _code("rh", "hard", "hard 16 against up card 'T'", "chart")
    'Rh'
    >>> _code("P", "hard", "hard 19 against up card 'A'", "chart")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidChartError: chart: code 'P' for hard 19 against up card 'A' is not allowed in the hard ...
    """
    allowed = CHART_CODES if kind == "pairs" else TOTAL_CODES
    if isinstance(code, str) and "/" in code:  # two-card play / play of three or more cards
        base, _, more = code.partition("/")
        if more.upper() not in MORE_CARDS or kind == "pairs" and base.lower().startswith("p"):
            raise InvalidChartError(
                f"{where}: code {code!r} for {cell}: after '/' comes the play of three or more cards, "
                f"H or S, and only for a play by total"
            )
        return _code(base, kind, cell, where) + "/" + more.upper()
    canonical = _CANONICAL_CODES.get(code.lower()) if isinstance(code, str) else None
    if canonical is None:
        raise InvalidChartError(f"{where}: unknown code {code!r} for {cell} ({', '.join(allowed)})")
    if canonical not in allowed:
        raise InvalidChartError(
            f"{where}: code {code!r} for {cell} is not allowed in the {kind} table ({', '.join(allowed)})"
        )
    return canonical


def _row_name(kind: str, row: object) -> str | None:
    """A row as written (``" 12"``, ``"10"`` or ``"t"`` for the pair of tens) in the chart's
    notation, or None when the table has no such row."""
    text = str(row).strip()
    if kind == "pairs":
        try:
            return str(parse_card(text))
        except InvalidCardError:
            return None
    try:
        total = int(text)
    except ValueError:
        return None
    return str(total) if total in (HARD_ROWS if kind == "hard" else SOFT_ROWS) else None


def _row_cells(cells: object, label: str, where: str) -> dict[str, str]:
    """One row's cells, up card -> code as written (blank cells left out)."""
    if not isinstance(cells, dict):
        raise InvalidChartError(f"{where}: {label} must map up cards to codes, not {cells!r}")
    out: dict[str, str] = {}
    for key, code in cells.items():
        try:
            up = str(parse_card(str(key)))
        except InvalidCardError:
            raise InvalidChartError(f"{where}: {label} has a cell for unknown up card {key!r}") from None
        if up in out:
            raise InvalidChartError(f"{where}: {label} has two cells for up card {up!r}")
        written = code.strip() if isinstance(code, str) else code
        if written is not None and written != "":
            out[up] = written
    return out


Tables = dict[str, dict[str, dict[str, str]]]  # table -> row -> up card -> code


def _checked_tables(rules: Rules, tables: Any, where: str) -> tuple[Tables, Tables]:
    """``tables`` (table -> row -> up card -> code, as a chart file holds them) checked against
    what a chart for ``rules`` needs: the three tables, each with all its rows, each row with a
    code for every up card the shoe holds. Returns them in the chart's notation (canonical
    rows, up cards and codes), and the same with the codes as written."""
    if not isinstance(tables, dict):
        raise InvalidChartError(f"{where} must map hard, soft and pairs to their tables")
    absent = [kind for kind in _TABLES if not tables.get(kind)]
    if absent:
        raise InvalidChartError(f"{where} has no {_quoted(absent)} table{'s' * (len(absent) > 1)}")
    needed = _chart_ups(rules)
    codes: Tables = {}
    written: Tables = {}
    for kind in _TABLES:
        table = tables[kind]
        if not isinstance(table, dict):
            raise InvalidChartError(f"{where}: the {kind} table must map rows to up cards to codes")
        rows: dict[str, object] = {}
        for raw, cells in table.items():
            row = _row_name(kind, raw)
            if row is None:
                raise InvalidChartError(f"{where}: unknown {kind} row {raw!r} (rows {_ROW_SPANS[kind]})")
            if row in rows:
                raise InvalidChartError(f"{where}: {kind} {row} appears twice")
            rows[row] = cells
        missing_rows = [row for row in CHART_ROWS[kind] if row not in rows]
        if missing_rows:
            raise InvalidChartError(
                f"{where}: {kind} table is missing row{'s' * (len(missing_rows) > 1)} {', '.join(missing_rows)}"
            )
        codes[kind], written[kind] = {}, {}
        for row in CHART_ROWS[kind]:
            label = f"{kind} {row}"
            cells = _row_cells(rows[row], label, where)
            missing = [up for up in needed if up not in cells]
            if missing:
                have = len(needed) - len(missing)
                raise InvalidChartError(
                    f"{where}: {label} has {have} cell{'s' * (have != 1)}, needs {len(needed)} "
                    f"({_ups_text(needed)}); no code for up card{'s' * (len(missing) > 1)} {_quoted(missing)}"
                )
            codes[kind][row] = {up: _code(code, kind, f"{label} against up card {up!r}", where)
                                for up, code in cells.items()}
            written[kind][row] = cells
    return codes, written


def chart_from_tables(rules: Rules, tables: Tables, strategy: str,
                      name: str | None = None) -> Chart:
    """A chart from table -> row -> up card -> code tables (the format ``bjcalc chart`` writes;
    codes in any case, ``dh`` is ``Dh``). ``name`` names the chart in errors. The chart keeps
    the codes as written, to show them back."""
    codes, written = _checked_tables(rules, tables, _where(name))
    ups = {}
    for up in range(10):
        if not rules.shoe_counts[up]:
            continue
        key = RANK_NOTATION[up]
        hit = np.array([c < 17 if c < SOFT_CELL else c - SOFT_CELL < 18 for c in range(2 * SOFT_CELL)])
        two = hit.copy()
        first = np.full(44, Code.NONE)
        pair = np.full(10, Code.NONE)
        beats = np.zeros(10, dtype=bool)
        das_only = np.zeros(10, dtype=bool)
        for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS)):
            for total in rows:
                base, _, more = codes[kind][str(total)][key].partition("/")
                cell = cell_of(total, kind == "soft")
                first[cell] = {"D": Code.DOUBLE, "R": Code.SURRENDER}.get(base[0], Code.NONE)
                two[cell] = base[-1] in "Hh"
                hit[cell] = (more or base[-1]) in "Hh"
        for rank in range(10):
            code = codes["pairs"][RANK_NOTATION[rank]][key].partition("/")[0]
            if code == "P" or (code in ("Ph", "Ps", "Pd") and rules.double_after_split):
                pair[rank] = Code.SPLIT
                das_only[rank] = code != "P"
            elif code == "Rp":
                pair[rank], beats[rank] = Code.SURRENDER, True
            elif code in ("Rh", "Rs"):
                pair[rank] = Code.SURRENDER
        ups[up] = UpcardChart(hit=hit, first=first, pair=pair, split_beats_total=beats, das_only=das_only,
                              two_cards=two)
    return Chart(rules=rules, ups=ups, strategy=strategy, written=written)


def _json_tables(text: str, where: str) -> dict[str, Any]:
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidChartError(f"{where} is not valid JSON: {error.msg}") from None
    if not isinstance(data, dict):
        raise InvalidChartError(f"{where} must be a JSON object with hard, soft and pairs tables")
    return {kind: data[kind] for kind in _TABLES if kind in data}


def _csv_tables(text: str, where: str, needed: list[str]) -> Tables:
    """The tables of a CSV chart: a header ``table,row,2,...,T,A``, then one line per row.
    Spreadsheets' exports are read too: ``;`` or tab separators, blank lines and columns."""
    import csv
    import io

    header_line = text.lstrip().splitlines()[0]
    reader = csv.reader(io.StringIO(text), delimiter=max(",;\t", key=header_line.count))
    try:
        lines = [(reader.line_num, cells) for cells in reader if any(cell.strip() for cell in cells)]
    except csv.Error as error:
        raise InvalidChartError(f"{where} is not valid CSV: {error} (line {reader.line_num})") from None
    (_, header), body = lines[0], lines[1:]
    names = [cell.strip().lower() for cell in header]
    if "table" not in names or "row" not in names:
        raise InvalidChartError(f"{where}: the first line must be the header table,row,2,...,T,A, "
                                f"not {','.join(header)!r}")
    columns: dict[int, str] = {}  # column -> up card
    for column, name in enumerate(names):
        if name in ("table", "row", ""):
            continue
        try:
            up = str(parse_card(name))
        except InvalidCardError:
            raise InvalidChartError(f"{where}: unknown column {header[column].strip()!r} in the header "
                                    "(table, row and the up cards 2..9, T, A)") from None
        if up in columns.values():
            raise InvalidChartError(f"{where}: the header has two columns for up card {up!r}")
        columns[column] = up
    no_column = [up for up in needed if up not in columns.values()]
    if no_column:
        raise InvalidChartError(f"{where}: the header has no column for up card{'s' * (len(no_column) > 1)} "
                                f"{_quoted(no_column)}")
    if not body:
        raise InvalidChartError(f"{where} has a header but no rows")
    at_table, at_row = names.index("table"), names.index("row")
    tables: Tables = {}
    for number, cells in body:
        cells = [cell.strip() for cell in cells] + [""] * (len(header) - len(cells))
        kind, row = cells[at_table].lower(), cells[at_row]
        if kind not in _TABLES:
            raise InvalidChartError(f"{where}: unknown table {cells[at_table]!r} on line {number} (hard, soft, pairs)")
        if any(cell for column, cell in enumerate(cells) if column not in columns and column not in (at_table, at_row)):
            raise InvalidChartError(f"{where}: {kind} {row} has more cells than the header has up cards")
        table = tables.setdefault(kind, {})
        if row in table:
            raise InvalidChartError(f"{where}: {kind} {row} appears twice")
        table[row] = {up: cells[column] for column, up in columns.items()}
    return tables


def load_chart(rules: Rules, text: str | bytes, name: str | None = None) -> Chart:
    """A chart from the JSON or CSV that ``bjcalc chart`` writes, or a spreadsheet's CSV of it
    (a leading byte-order mark, codes in any case): the file's contents as text, or as bytes
    in UTF-8. ``name`` (the file's) is quoted in errors.

    >>> from bjcalc import Rules
    >>> load_chart(Rules(decks=1), "\\ufefftable,row,2,3,4,5,6,7,8,9,T,A\\n", "x.csv")
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidChartError: chart 'x.csv' has a header but no rows
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"load_chart needs the bjcalc.Rules the chart is for, not {rules!r}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"a chart's name must be a str (its file's name), not {name!r}")
    where = _where(name)
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidChartError(f"{where} is not UTF-8 text (save it as CSV UTF-8)") from None
    if not isinstance(text, str):
        raise TypeError(f"load_chart reads a chart's contents, as a str or UTF-8 bytes, not {text!r} "
                        "(for a file: load_chart(rules, path.read_text(), path.name))")
    text = text.removeprefix("\ufeff")  # Excel's "CSV UTF-8" starts with one
    if not text.strip():
        raise InvalidChartError(f"{where} is empty")
    if text.lstrip().startswith("{"):
        tables = _json_tables(text, where)
    else:
        tables = _csv_tables(text, where, _chart_ups(rules))
    return chart_from_tables(rules, tables, "chart" if name is None else f"chart {name}", name)


def simple_policy(rules: Rules, name: str) -> Chart:
    """Named simple strategies as charts: ``never-bust`` (hit hard 11 or less and soft 17 or
    less, never double, split or surrender) and ``mimic-dealer`` (hit below 17 and, when the
    dealer hits soft 17, soft 17; never double, split or surrender)."""
    if name == "never-bust":
        hit = np.array([c <= 11 if c < SOFT_CELL else c - SOFT_CELL <= 17 for c in range(2 * SOFT_CELL)])
    elif name == "mimic-dealer":
        hit = np.array([c < 17 if c < SOFT_CELL else (c - SOFT_CELL < 17 or (c - SOFT_CELL == 17 and rules.hit_soft_17))
                        for c in range(2 * SOFT_CELL)])
    else:
        raise InvalidChartError(f"unknown policy {name!r} (never-bust, mimic-dealer)")
    ups = {
        up: UpcardChart(hit=hit.copy(), first=np.full(44, Code.NONE), pair=np.full(10, Code.NONE),
                        split_beats_total=np.zeros(10, dtype=bool))
        for up in range(10) if rules.shoe_counts[up]
    }
    return Chart(rules=rules, ups=ups, strategy=name)


def deviations(engine: Engine, chart: Chart, optimal: Chart) -> list[Deviation]:
    """Every cell of ``chart`` that plays differently from ``optimal``, with its cost: the
    round EV of ``optimal`` minus that of ``optimal`` with only that cell changed. Largest
    first. A cell written differently that plays the same (``Ph`` and ``P`` where doubling
    after a split is allowed) is no deviation, nor is one that costs exactly nothing."""
    out = []
    base: dict[int, Any] = {}
    tables = {k: optimal.table(k) for k in _TABLES}
    for kind in _TABLES:
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
