"""A shuffled-shoe simulator of truecount's game: ``bjcalc simulate`` (docs/truecount.md,
"``bjcalc simulate``").

It deals the game :func:`bjcalc.truecount_analysis` models, round after round, from shoes
shuffled at random, and measures what truecount computes, each figure with its standard error:
rounds per shoe, the share of rounds by starting depth (and by bins of depths), how often each
true count comes, the advantage there, and the spread's win rate, SD, DI, SCORE, N0 and risk of
ruin.

- **The game.** Every rule of :class:`bjcalc.Rules`; a hand that reaches a Charlie's cards
  wins (but against a dealer's blackjack) and counts as live for the dealer's draws. A shoe is
  shuffled (a partial Fisher-Yates: each card is drawn as it is needed); a round starts while
  fewer than the cut's cards are dealt. ``seats`` hands, seat 0 the counter's; a card to each
  seat, the up card, a second card to each seat, the hole card.
  Every other seat plays the chart (it only takes cards: truecount places its rounds with the
  chart at every seat). The dealer draws when some hand at the table is live.
- **The counter** plays ``basic`` (the full shoe's chart, :meth:`bjcalc.Analysis.chart`) or
  ``indices`` (that chart with the index plays of ``bjcalc index``, computed at the middle
  round's depth as truecount computes them, or the published list): a two-card hand of an index
  play deviates when the true count of the round's starting running count plus his hand and
  the up card, over the cards not seen (the round's start less three), reaches the index;
  insurance at its index on the count with the ace. Everything else, split hands and hands of
  three or more cards too, as the chart plays it (:mod:`bjcalc.chartpolicy`). ``cd`` is not
  simulated (its play is solved per shoe).
- **Wonging.** ``wong_in`` alone: he plays the rounds whose true count is at least it.
  ``wong_out``: he waits for ``wong_in`` (none: seated from the start), plays, and leaves the
  shoe at the first round below ``wong_out``. The table deals every seat whether he plays or not.
- **The figures.** A shoe is the independent unit (the rounds of a shoe are correlated): every
  figure is a ratio of sums over shoes, and its standard error the delta method's over the
  shoes' own sums (the sums of their products are kept per true count, per depth, per bin of
  depths and for the spread's figures). The true count is bucketed by the convention's rounding
  (``none``: its floor, where the spread and the indices look it up).

The hot loop is compiled (``_simulate_kernel.c``): the chart, the index plays, the true count at
every (cards left, running count) and the bet at every true count are flat tables built before it
runs (:mod:`bjcalc.counting.simtables`). The rounds are dealt in blocks, each seeded from ``seed`` and its number, in
local processes or on Dask (:func:`bjcalc.counting.tasks.run_tasks`): the same seed and rounds
give the same numbers however many workers deal them.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.chart import Chart
from bjcalc.counting.indices import Convention, IndexPlay
from bjcalc.counting.placement import CHAIN_CLASSES, round_start_chances, round_starts
from bjcalc.counting.roundcards import round_cards
from bjcalc.counting.simtables import B_FIELDS, D_FIELDS, G_FIELDS, HEADER, KernelTables, depth_bins, kernel, out_size
from bjcalc.counting.spread import InvalidSpreadError, Spread
from bjcalc.counting.tags import TagClasses, counting_tags
from bjcalc.counting.tasks import RunStats, Task, TaskStore, check_arguments, opens_store, run_tasks
from bjcalc.errors import BjcalcError
from bjcalc.results import _Data
from bjcalc.rules import Rules


class InvalidSimulationError(BjcalcError):
    """A simulation that cannot be run: its rounds, seed, strategy or rules."""


SIMULATED = ("basic", "indices")
MOST_CARDS = 52 * 32  # the true-count tables grow with the shoe: 32 decks at most
MOST_ROUNDS = 10 ** 13
WONG_LIMIT = 10 ** 6  # a true count beyond it is never seen (52 x the largest running count of 32 decks)
# rounds are dealt in blocks (a task each) of at least this many rounds, and at most this many
# blocks: enough to spread over the workers and to report progress, few enough that their sums
# stay small
BLOCK_ROUNDS, MOST_BLOCKS = 1 << 18, 512


@dataclasses.dataclass(frozen=True)
class Estimate(_Data):
    """A simulated figure and its standard error."""

    value: float
    se: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", float(self.value))
        object.__setattr__(self, "se", float(self.se))

    def to_data(self) -> dict[str, Any]:
        """JSON has no NaN: a figure that cannot be formed (nothing played) is null."""
        return {"value": self.value if math.isfinite(self.value) else None,
                "se": self.se if math.isfinite(self.se) else None}


@dataclasses.dataclass(frozen=True)
class SimulatedWin(_Data):
    """The spread's figures as simulated, per round dealt and per round played (as
    :class:`bjcalc.WinFigures`), each with its standard error."""

    strategy: str
    spread: str
    average_bet: Estimate  # per round dealt
    played: Estimate  # the share of rounds played
    win_per_round: Estimate  # per round dealt, in initial-bet units
    win_per_100: Estimate
    sd_per_round: Estimate
    win_per_round_played: Estimate
    sd_per_round_played: Estimate
    di: Estimate  # per round played
    score: Estimate
    n0: Estimate
    risk_of_ruin: Estimate | None
    bankroll: float | None
    ev_per_round_played: Estimate  # flat: the mean unit result of a round played
    second_moment: Estimate  # flat: E[X^2] of a round played

    def to_data(self) -> dict[str, Any]:
        return {f.name: (v.to_data() if isinstance(v, Estimate) else v)
                for f in dataclasses.fields(self) for v in (getattr(self, f.name),)}


@dataclasses.dataclass(frozen=True)
class TrueCountRow(_Data):
    """One true count as simulated: the rounds dealt and played there, the share of the rounds
    dealt, and the mean result per unit bet of the rounds played (the advantage) with the SD of
    one round's result there."""

    true_count: int
    rounds: int
    played: int
    frequency: Estimate
    advantage: Estimate | None
    sd: float | None

    def to_data(self) -> dict[str, Any]:
        return {"true_count": self.true_count, "rounds": self.rounds, "played": self.played,
                "frequency": self.frequency.to_data(),
                "advantage": None if self.advantage is None else self.advantage.to_data(), "sd": self.sd}


@dataclasses.dataclass(frozen=True)
class SimulationResult(_Data):
    """:func:`simulate`'s answer: the game, how it was dealt, and every figure with its standard
    error (module docstring)."""

    rules: Rules
    system: str
    tags: tuple[Fraction, ...]
    penetration: Fraction
    cut: int
    seats: int
    convention: Convention
    strategy: str
    spread: Spread
    wong_in: int | None
    wong_out: int | None
    indices: tuple[tuple[str, int], ...]
    insurance_index: int | None
    index_depth: int | None  # None: the published list (or basic strategy)
    seed: int
    blocks: int
    rounds: int
    shoes: int
    void_rounds: int  # rounds the shoe ran out of cards in (result 0)
    cards_per_round: float
    rounds_per_shoe: Estimate
    depths: tuple[tuple[int, int, Estimate], ...]  # (cards seen, rounds, share of the rounds)
    depth_bins: tuple[tuple[int, int, int, Estimate], ...]  # (first and last cards seen, rounds, share)
    true_counts: tuple[TrueCountRow, ...]
    win: SimulatedWin
    run: RunStats
    cpu: float = 0.0  # the CPU seconds the deal took, summed over the blocks (its work, however busy the machine)

    @property
    def frequencies(self) -> dict[int, Estimate]:
        return {row.true_count: row.frequency for row in self.true_counts}

    @property
    def advantage(self) -> dict[int, Estimate]:
        return {row.true_count: row.advantage for row in self.true_counts if row.advantage is not None}

    def to_data(self) -> dict[str, Any]:
        return {
            "simulated": True,
            "system": self.system,
            "tags": [self.tags[r] for r in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)],
            "penetration": self.penetration, "cut": self.cut, "seats": self.seats,
            "divisor": self.convention.divisor.value, "rounding": self.convention.rounding.value,
            "strategy": self.strategy, "spread": self.spread.text(),
            "wong_in": self.wong_in, "wong_out": self.wong_out,
            "indices": [{"play": n, "index": i} for n, i in self.indices],
            "insurance_index": self.insurance_index, "index_cards_seen": self.index_depth,
            "seed": self.seed, "blocks": self.blocks, "rounds": self.rounds, "shoes": self.shoes,
            "void_rounds": self.void_rounds, "cards_per_round": self.cards_per_round,
            "rounds_per_shoe": self.rounds_per_shoe.to_data(),
            "depths": [{"cards_seen": n, "rounds": k, "share_of_rounds": s.to_data()} for n, k, s in self.depths],
            "depth_bins": [{"cards_seen_from": a, "cards_seen_to": b, "rounds": k, "share_of_rounds": s.to_data()}
                           for a, b, k, s in self.depth_bins],
            "true_counts": [row.to_data() for row in self.true_counts],
            "win": self.win.to_data(),
            "run": self.run.to_data(), "cpu_seconds": self.cpu,
        }


@opens_store
def simulate(rules: Rules, system: str, tags: Sequence[Any], *, rounds: int, seed: int = 0,
             penetration: float | Fraction | str = Fraction(3, 4), seats: int = 1,
             convention: Convention | None = None, strategy: str = "indices", spread: Spread | str | None = None,
             wong_in: int | None = None, wong_out: int | None = None, bankroll: float | None = None,
             irc: Fraction | int = 0, indices: str = "computed", store: TaskStore | str | None = None,
             workers: int | None = None, scheduler: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Deal ``rounds`` rounds (at least: each block finishes its last shoe) of truecount's game
    and measure its figures (module docstring). The options are :func:`bjcalc.truecount_analysis`'s
    (``strategy`` ``basic`` or ``indices``); ``seed`` a whole number from 0 to 2^64 - 1;
    ``store``: where the computed index plays are kept (as truecount keeps them); ``progress(done,
    total)`` hears of every block dealt.

    >>> from bjcalc import Rules
    >>> r = simulate(Rules(decks=1), "hi-lo", (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), rounds=20_000, seed=1,
    ...              strategy="basic", penetration=0.5, workers=1)
    >>> r.rounds >= 20_000, abs(sum(row.frequency.value for row in r.true_counts) - 1) < 1e-12
    (True, True)
    """
    from bjcalc.analysis import Analysis
    from bjcalc.counting.countshoe import _check_system_name
    from bjcalc.counting.truecount import _checked, _fraction, _Game, _index_plays

    check_arguments(rules, workers)
    _check_system_name(system)
    _check_rounds(rounds, seed)
    _check_options(convention, bankroll, wong_in, wong_out)
    tags = counting_tags(tags)
    game = _Game(rules, tags, convention or Convention(), _fraction(irc, "irc"), False,
                 store if isinstance(store, TaskStore) else TaskStore(None), scheduler)
    if strategy == "cd":
        raise InvalidSimulationError("strategy cd is not simulated: composition-dependent play is solved for each "
                                     "shoe, far too slow to deal; use basic or indices")
    pen, spread_ = _checked(game, penetration, spread, wong_in, wong_out, seats, strategy, 0, bankroll, None)
    if indices not in ("computed", "published"):
        raise InvalidSpreadError(f"indices must be computed or published, not {indices!r}")
    _check_rules(rules)
    cut = round(pen * game.cards)
    if cut < 1:
        raise InvalidSimulationError(f"penetration {penetration} puts the cut card before the first card")
    if kernel is None:  # pragma: no cover - depends on the build
        raise InvalidSimulationError("bjcalc simulate needs its compiled kernel: reinstall bjcalc with a C compiler")
    chart = Analysis(rules).chart()
    plays: tuple[tuple[IndexPlay, int], ...] = ()
    insurance_index = index_depth = None
    if strategy == "indices":
        index_depth = _index_depth(game, chart, cut, seats, wong_out)
        plays, insurance_index = _index_plays(game, system, index_depth, indices)
        if indices == "published":
            index_depth = None
    tables = KernelTables.build(game, chart, cut, seats, strategy, plays, insurance_index, spread_, wong_in, wong_out)
    blocks = _blocks(rounds)
    tasks = [Task(f"simulate block {i}", _block_task, (tables.arguments, seed, i, share))
             for i, share in enumerate(blocks)]
    with TaskStore(None) as dealt:  # the blocks' sums: memory only, a few kB each
        run = run_tasks(tasks, dealt, "simulate", workers=workers, scheduler=scheduler, progress=progress, batch=1)
        total, rounds_dealt, shoes, voids, cards, cpu = _result(dealt, tasks, tables.size)
    result = _figures(game, system, tables, total, rounds_dealt, shoes, voids, cards, pen, cut, seats, strategy,
                      spread_, wong_in, wong_out, bankroll, plays, insurance_index, index_depth, seed, len(blocks), run)
    return dataclasses.replace(result, cpu=cpu)


def _check_rounds(rounds: Any, seed: Any) -> None:
    if not isinstance(rounds, numbers.Integral) or isinstance(rounds, bool) or not 1 <= int(rounds) <= MOST_ROUNDS:
        raise InvalidSimulationError(f"rounds must be a whole number from 1 to {MOST_ROUNDS:.0e}, not {rounds!r}")
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or not 0 <= int(seed) < 2 ** 64:
        raise InvalidSimulationError(f"seed must be a whole number from 0 to 2^64 - 1, not {seed!r}")


def _check_options(convention: Any, bankroll: Any, wong_in: Any, wong_out: Any) -> None:
    """What truecount's checks let through and the kernel cannot take."""
    if convention is not None and not isinstance(convention, Convention):
        raise InvalidSimulationError(f"convention must be a Convention or None, not {convention!r}")
    if bankroll is not None and (not isinstance(bankroll, (int, float, Fraction)) or isinstance(bankroll, bool)
                                 or not 0 < bankroll < math.inf):
        raise InvalidSimulationError(f"bankroll must be a number of units above 0, not {bankroll!r}")
    for name, count in (("wong_in", wong_in), ("wong_out", wong_out)):
        if isinstance(count, int) and not isinstance(count, bool) and abs(count) > WONG_LIMIT:
            raise InvalidSimulationError(f"{name} must be a true count from {-WONG_LIMIT} to {WONG_LIMIT}, "
                                         f"not {count!r}")


def _check_rules(rules: Rules) -> None:
    """The shoes the simulator deals: at most :data:`MOST_CARDS` (its true-count tables grow with them)."""
    if sum(rules.shoe_counts) > MOST_CARDS:
        raise InvalidSimulationError(f"simulate deals shoes of at most {MOST_CARDS} cards (32 decks), not "
                                     f"{sum(rules.shoe_counts)}")


def _index_depth(game: Any, chart: Chart, cut: int, seats: int, wong_out: int | None) -> int:
    """The middle round's depth, where truecount computes its index plays: the depths a round
    can start at (the chain's and renewal's are those of the renewal; spaced, truecount's
    placement when wonging out with more tag values than the chain follows, its own)."""
    rules = game.rules
    if wong_out is not None and len(TagClasses.of(game.tags).values) > CHAIN_CLASSES:
        per_round = sum(sum(c) * q for c, q in round_cards(rules, chart, seats).items())
        starts = tuple(round_starts(game.cards, cut, per_round))
    else:
        chances = round_start_chances(cut, round_cards(rules, chart, seats))
        starts = tuple(sorted(n for n, p in chances.items() if p))
    return starts[len(starts) // 2]


def _blocks(rounds: int) -> list[int]:
    """The rounds of each block: as many blocks as ``rounds`` fill (at least BLOCK_ROUNDS each,
    at most MOST_BLOCKS), the rounds shared out evenly; a function of ``rounds`` alone."""
    count = max(1, min(MOST_BLOCKS, rounds // BLOCK_ROUNDS))
    return [rounds // count + (i < rounds % count) for i in range(count)]


def _block_task(arguments: tuple[Any, ...], seed: int, block: int, rounds: int) -> dict[str, Any]:
    """One block of rounds, dealt by the kernel: its sums (as a list) and counts."""
    head = np.frombuffer(arguments[0], dtype=np.int32)
    nb, cut = int(head[HEADER.index("nb")]), int(head[HEADER.index("cut")])
    out = np.zeros(out_size(nb, cut))
    start = time.thread_time()  # the CPU the deal took: a busy machine stretches its wall time, not this
    dealt, shoes, voids, cards = kernel.deal_block(*arguments, seed, block, rounds, out)
    return {"out": out.tolist(), "rounds": dealt, "shoes": shoes, "voids": voids, "cards": cards,
            "cpu": time.thread_time() - start}


# -- the figures ------------------------------------------------------------------------------


def _ratio(a: float, aa: float, b: float, bb: float, ab: float, shoes: int) -> Estimate:
    """sum a / sum b over ``shoes`` independent shoes, with the delta method's standard error
    from the sums of their squares and products."""
    if b == 0:
        return Estimate(math.nan, math.nan)
    r = a / b
    spread = max(0.0, aa - 2 * r * ab + r * r * bb)
    return Estimate(r, math.sqrt(spread * shoes / max(1, shoes - 1)) / b)


def _delta(f: Callable[[np.ndarray], float], mean: np.ndarray, cov: np.ndarray, shoes: int) -> Estimate:
    """f(the mean of the shoes' totals) and its standard error (the delta method, with f's
    gradient by central differences)."""
    value = f(mean)
    grad = np.zeros(len(mean))
    for i in range(len(mean)):
        h = 1e-6 * max(abs(mean[i]), 1e-9)
        up, down = mean.copy(), mean.copy()
        up[i] += h
        down[i] -= h
        grad[i] = (f(up) - f(down)) / (2 * h)
    var = float(grad @ cov @ grad) / shoes
    return Estimate(value, math.sqrt(max(0.0, var)) if math.isfinite(var) else math.nan)


def _result(store: TaskStore, tasks: Sequence[Task], size: int) -> tuple[np.ndarray, int, int, int, int, float]:
    """The blocks' sums added in block order (the same numbers however the blocks ran) and their
    rounds, shoes, void rounds, cards and CPU seconds."""
    total = np.zeros(size)
    rounds = shoes = voids = cards = 0
    cpu = 0.0
    for task in tasks:
        found = store.get(task.key)
        total += np.array(found["out"])
        rounds, shoes = rounds + found["rounds"], shoes + found["shoes"]
        voids, cards, cpu = voids + found["voids"], cards + found["cards"], cpu + found["cpu"]
    return total, rounds, shoes, voids, cards, cpu


def _by_count_and_depth(tables: KernelTables, bucket: np.ndarray, depth: np.ndarray, kk: np.ndarray, R: float,
                        RR: float, shoes: int, cut: int) -> tuple[list[TrueCountRow], tuple, tuple]:
    """The rows by true count, the rounds by starting depth and by bins of depths, each share
    with its standard error over shoes."""
    rows = []
    for t in range(tables.nb):
        n, p, s, q, nn, nr, pp, ss, sp = bucket[t]
        if n == 0:
            continue
        frequency = _ratio(n, nn, R, RR, nr, shoes)
        advantage = _ratio(s, ss, p, pp, sp, shoes) if p else None
        sd = math.sqrt(max(0.0, q / p - (s / p) ** 2)) if p else None
        rows.append(TrueCountRow(tables.tc_min + t, int(n), int(p), frequency, advantage, sd))
    depths = tuple((n, int(depth[n, 0]), _ratio(depth[n, 0], depth[n, 0], R, RR, depth[n, 1], shoes))
                   for n in range(cut) if depth[n, 0])
    bins = tuple((a, b, int(n), _ratio(n, nn, R, RR, nr, shoes))
                 for (a, b), (nn, nr) in zip(depth_bins(cut), kk) for n in (depth[a:b + 1, 0].sum(),))
    return rows, depths, bins


def _figures(game: Any, system: str, tables: KernelTables, total: np.ndarray, rounds: int, shoes: int, voids: int,
             cards: int, pen: Fraction, cut: int, seats: int, strategy: str, spread: Spread, wong_in: int | None,
             wong_out: int | None, bankroll: float | None, plays: Sequence[tuple[IndexPlay, int]],
             insurance_index: int | None, index_depth: int | None, seed: int, blocks: int,
             run: RunStats) -> SimulationResult:
    nb = tables.nb
    bucket = total[:B_FIELDS * nb].reshape(nb, B_FIELDS)
    depth = total[B_FIELDS * nb:B_FIELDS * nb + D_FIELDS * cut].reshape(cut, D_FIELDS)
    g = total[B_FIELDS * nb + D_FIELDS * cut:][:G_FIELDS]
    gg = total[B_FIELDS * nb + D_FIELDS * cut + G_FIELDS:][:G_FIELDS * G_FIELDS].reshape(G_FIELDS, G_FIELDS)
    kk = total[B_FIELDS * nb + D_FIELDS * cut + G_FIELDS + G_FIELDS * G_FIELDS:].reshape(len(depth_bins(cut)), -1)
    gg = np.triu(gg) + np.triu(gg, 1).T
    R, RR = g[0], gg[0, 0]
    mean = g / shoes
    cov = (gg / shoes - np.outer(mean, mean)) * shoes / max(1, shoes - 1)
    rows, depths, bins = _by_count_and_depth(tables, bucket, depth, kk, R, RR, shoes, cut)
    ir, ip, ib, iy, iz, iu, iv = range(G_FIELDS)

    def per(i: int, j: int) -> Callable[[np.ndarray], float]:
        return lambda m: m[i] / m[j] if m[j] else math.nan

    def sd_of(m: np.ndarray, j: int) -> float:
        w = m[iy] / m[j]
        return math.sqrt(max(0.0, m[iz] / m[j] - w * w))

    def di(m: np.ndarray) -> float:
        s = sd_of(m, ip)
        return 1000 * m[iy] / m[ip] / s if s else math.nan

    def n0(m: np.ndarray) -> float:
        w = m[iy] / m[ip]
        return (sd_of(m, ip) / w) ** 2 if w else math.inf

    def ruin(m: np.ndarray) -> float:
        w, s = m[iy] / m[ip], sd_of(m, ip)
        return 1.0 if w <= 0 else math.exp(-2 * w * float(bankroll or 0) / (s * s))

    def est(f: Callable[[np.ndarray], float]) -> Estimate:
        with np.errstate(all="ignore"):  # nothing played: the figure is nan, not a warning
            return _delta(f, mean, cov, shoes)

    win = SimulatedWin(
        strategy, spread.text(), est(per(ib, ir)), est(per(ip, ir)), est(per(iy, ir)),
        est(lambda m: 100 * m[iy] / m[ir]), est(lambda m: sd_of(m, ir)), est(per(iy, ip)),
        est(lambda m: sd_of(m, ip)), est(di), est(lambda m: di(m) ** 2), est(n0),
        None if bankroll is None else est(ruin), bankroll, est(per(iu, ip)), est(per(iv, ip)))
    return SimulationResult(
        game.rules, system, game.tags, pen, cut, seats, game.convention, strategy, spread, wong_in, wong_out,
        tuple((p.name, i) for p, i in plays), insurance_index, index_depth, seed, blocks, rounds, shoes, voids,
        cards / rounds, _ratio(R, RR, shoes, shoes, R, shoes), depths, bins, tuple(rows), win, run)
