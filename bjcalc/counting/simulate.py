"""A shuffled-shoe simulator of truecount's game: ``bjcalc simulate`` (docs/truecount.md,
"``bjcalc simulate``").

It deals the game :func:`bjcalc.truecount_analysis` models, round after round, from shoes
shuffled at random, and measures what truecount computes, each figure with its standard error:
rounds per shoe, the share of rounds by starting depth, how often each true count comes, the
advantage there, and the spread's win rate, SD, DI, SCORE, N0 and risk of ruin.

- **The game.** Every rule of :class:`bjcalc.Rules`; a hand that reaches a Charlie's cards
  wins (but against a dealer's blackjack) and counts as live for the dealer's draws. A shoe is shuffled (a partial Fisher-Yates: each card is drawn as it is
  needed); a round starts while fewer than the cut's cards are dealt. ``seats`` hands, seat 0
  the counter's; a card to each seat, the up card, a second card to each seat, the hole card.
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
  shoes' own sums (the sums of their products are kept per true count, per depth and for the
  spread's figures). The true count is bucketed by the convention's rounding (``none``: its
  floor, where the spread and the indices look it up).

The hot loop is compiled (``_simulate_kernel.c``): the chart, the index plays, the true count at
every (cards left, running count) and the bet at every true count are flat integer tables built
here before it runs. The rounds are dealt in blocks, each seeded from ``seed`` and its number, in
local processes or on Dask (:func:`bjcalc.counting.tasks.run_tasks`): the same seed and rounds
give the same numbers however many workers deal them.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import ACE, SOFT_CELL, TEN, counts_total
from bjcalc.chart import Chart, cell_of, chart_action
from bjcalc.counting.indices import Convention, IndexPlay
from bjcalc.counting.placement import CHAIN_CLASSES, round_start_chances, round_starts
from bjcalc.counting.roundcards import round_cards
from bjcalc.counting.spread import InvalidSpreadError, Spread
from bjcalc.counting.tags import DeckEstimate, Rounding, TagClasses, counting_tags, decks_left, tag_scale
from bjcalc.counting.tasks import RunStats, Task, TaskStore, check_arguments, opens_store, run_tasks
from bjcalc.errors import BjcalcError
from bjcalc.results import _Data
from bjcalc.rules import HoleCard, Loss, Rules, Surrender

try:
    from bjcalc.counting import _simulate_kernel as kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    kernel = None


class InvalidSimulationError(BjcalcError):
    """A simulation that cannot be run: its rounds, seed, strategy or rules."""


SIMULATED = ("basic", "indices")
ACTION_CODES = {Action.STAND: 0, Action.HIT: 1, Action.DOUBLE: 2, Action.SPLIT: 3, Action.SURRENDER: 4}
HEADER = ("ncards", "cut", "seats", "h17", "peek", "surrender", "insurance", "max_hands", "max_hands_aces",
          "hit_split_aces", "indices", "insure", "ins_index", "left_lo", "rc_lo", "rc_cols", "tc_min", "nb",
          "wong_mode", "wong_in_on", "wong_in", "wong_out_on", "wong_out", "irc", "double_loss_ace",
          "double_loss_ten", "split_loss_ace", "split_loss_ten", "filler", "player_max", "dealer_max",
          "charlie")
CODES, STRIDE, NOINDEX = 13, 64, -2 ** 31
B_FIELDS, D_FIELDS, G_FIELDS = 9, 2, 7  # as the kernel lays out its sums
MOST_CARDS = 52 * 32  # the true-count tables grow with the shoe: 32 decks at most
MOST_ROUNDS = 10 ** 13
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
        return {"value": self.value, "se": self.se}


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
    true_counts: tuple[TrueCountRow, ...]
    win: SimulatedWin
    run: RunStats

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
            "true_counts": [row.to_data() for row in self.true_counts],
            "win": self.win.to_data(),
            "run": self.run.to_data(),
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
    from bjcalc.counting.truecount import _checked, _fraction, _Game, _index_plays

    check_arguments(rules, workers)
    _check_rounds(rounds, seed)
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
    tables = _Tables.build(game, chart, cut, seats, strategy, plays, insurance_index, spread_, wong_in, wong_out)
    blocks = _blocks(rounds)
    tasks = [Task(f"simulate block {i}", _block_task, (tables.arguments, seed, i, share))
             for i, share in enumerate(blocks)]
    with TaskStore(None) as dealt:  # the blocks' sums: memory only, a few kB each
        run = run_tasks(tasks, dealt, "simulate", workers=workers, scheduler=scheduler, progress=progress, batch=1)
        total, rounds_dealt, shoes, voids, cards = _result(dealt, tasks, tables.size)
    return _figures(game, system, tables, total, rounds_dealt, shoes, voids, cards, pen, cut, seats, strategy, spread_,
                    wong_in, wong_out, bankroll, plays, insurance_index, index_depth, seed, len(blocks), run)


def _check_rounds(rounds: Any, seed: Any) -> None:
    if not isinstance(rounds, numbers.Integral) or isinstance(rounds, bool) or not 1 <= rounds <= MOST_ROUNDS:
        raise InvalidSimulationError(f"rounds must be a whole number from 1 to {MOST_ROUNDS:.0e}, not {rounds!r}")
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or not 0 <= seed < 2 ** 64:
        raise InvalidSimulationError(f"seed must be a whole number from 0 to 2^64 - 1, not {seed!r}")


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


@dataclasses.dataclass(frozen=True)
class _Tables:
    """What the kernel reads: the header and the tables (``arguments``, in its order), and
    what the figures need of them (the true counts' lowest bucket and their number)."""

    arguments: tuple[Any, ...]
    tc_min: int
    nb: int
    cut: int
    scale: int

    @classmethod
    def build(cls, game: Any, chart: Chart, cut: int, seats: int, strategy: str,
              plays: Sequence[tuple[IndexPlay, int]], insurance_index: int | None, spread: Spread,
              wong_in: int | None, wong_out: int | None) -> _Tables:
        rules = game.rules
        faces = not rules.split_unlike_tens and rules.split_hands > 1
        rank_of = list(range(10)) + [TEN] * 3
        pairkey = (list(range(13)) if faces else rank_of)
        counts = list(rules.shoe_counts)
        by_code = counts[:9] + ([counts[TEN] // 4] * 4 if faces else [counts[TEN], 0, 0, 0])
        deck = np.repeat(np.arange(CODES, dtype=np.uint8), by_code)
        scale = tag_scale(game.tags)
        scaled = [int(t * scale) for t in game.tags]
        tag_codes = np.array([scaled[r] for r in rank_of], dtype=np.int32)
        irc = game.irc * scale
        ncards = len(deck)
        low = int(irc) + sum(min(0, scaled[r]) * counts[r] for r in range(10))
        high = int(irc) + sum(max(0, scaled[r]) * counts[r] for r in range(10))
        left_lo = max(1, ncards - cut + 1 - 3)
        tc = _true_counts(game.convention, scale, left_lo, ncards, low, high)
        starting = tc[ncards - cut + 1 - left_lo:]
        tc_min, tc_max = int(starting.min()), int(starting.max())
        nb = tc_max - tc_min + 1
        bets = np.array([float(spread.bet(Fraction(tc_min + t))) for t in range(nb)])
        first, hit3, split2 = _chart_tables(rules, chart, faces)
        idx = _index_tables(rules, chart, plays, faces) if strategy == "indices" else \
            np.full((10, CODES, CODES, 3), NOINDEX, dtype=np.int32)
        takes = rules.blackjack_takes
        insure = strategy == "indices" and rules.insurance and insurance_index is not None
        header = dict(
            ncards=ncards, cut=cut, seats=seats, h17=int(rules.hit_soft_17), peek=int(rules.hole_card is HoleCard.PEEK),
            surrender={Surrender.NONE: 0, Surrender.LATE: 1, Surrender.EARLY: 2}[rules.surrender],
            insurance=int(rules.insurance), max_hands=rules.split_hands,
            max_hands_aces=rules.split_hands if rules.resplit_aces else min(2, rules.split_hands),
            hit_split_aces=int(rules.hit_split_aces), indices=int(strategy == "indices"), insure=int(insure),
            ins_index=int(insurance_index) if insure else 0, left_lo=left_lo, rc_lo=low, rc_cols=high - low + 1,
            tc_min=tc_min, nb=nb,
            wong_mode=0 if wong_in is None and wong_out is None else 1 if wong_out is None else 2,
            wong_in_on=int(wong_in is not None), wong_in=wong_in or 0, wong_out_on=int(wong_out is not None),
            wong_out=wong_out or 0, irc=int(irc),
            double_loss_ace=int(takes.doubles_vs_ace is Loss.ALL), double_loss_ten=int(takes.doubles_vs_ten is Loss.ALL),
            split_loss_ace=int(takes.splits_vs_ace is Loss.ALL), split_loss_ten=int(takes.splits_vs_ten is Loss.ALL),
            filler=TEN, player_max=rules.player_max_cards or 99, dealer_max=rules.dealer_max_cards or 99,
            charlie=rules.charlie or 99)
        head = np.array([header[name] for name in HEADER], dtype=np.int32)
        codes = np.array(rank_of + pairkey, dtype=np.uint8)
        arguments = (head.tobytes(), np.array([float(rules.blackjack_pays)]).tobytes(), deck.tobytes(),
                     tag_codes.tobytes(), codes.tobytes(), first.tobytes(), hit3.tobytes(), split2.tobytes(),
                     idx.tobytes(), tc.astype(np.int32).tobytes(), bets.tobytes())
        return cls(arguments, tc_min, nb, cut, scale)

    @property
    def size(self) -> int:
        return B_FIELDS * self.nb + D_FIELDS * self.cut + G_FIELDS + G_FIELDS * G_FIELDS


def _true_counts(convention: Convention, scale: int, left_lo: int, ncards: int, low: int, high: int) -> np.ndarray:
    """The convention's true count (rounded; ``none``: its floor) at every cards left from
    ``left_lo`` to ``ncards`` (rows) and scaled running count from ``low`` to ``high``: exact
    integer arithmetic, as :func:`bjcalc.counting.tags.true_count`."""
    rc = np.arange(low, high + 1, dtype=np.int64)
    rows = []
    for left in range(left_lo, ncards + 1):
        decks = decks_left(left, convention.divisor)  # p / q decks: TC = rc q / (scale p)
        num, den = rc * decks.denominator, scale * decks.numerator
        rounding = convention.rounding
        if rounding in (Rounding.FLOOR, Rounding.NONE):
            row = num // den
        elif rounding is Rounding.TRUNCATE:
            row = np.sign(num) * (np.abs(num) // den)
        else:
            row = np.sign(num) * ((2 * np.abs(num) + den) // (2 * den))
        rows.append(row)
    return np.array(rows, dtype=np.int64)


def _hand(a: int, b: int) -> tuple[int, ...]:
    counts = [0] * 10
    counts[a] += 1
    counts[b] += 1
    return tuple(counts)


def _chart_tables(rules: Rules, chart: Chart, faces: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chart as the kernel plays it (:func:`bjcalc.chart.chart_action` for a two-card hand's
    first play, ``hit`` for three cards or more, :func:`bjcalc.chart.chart_decider` for a
    two-card split hand: double where the chart doubles and the rules let a split hand double,
    else hit or stand as a two-card hand does)."""
    rank_of = list(range(10)) + [TEN] * 3
    first = np.zeros((10, CODES, CODES), dtype=np.uint8)
    hit3 = np.zeros((10, STRIDE), dtype=np.uint8)
    split2 = np.zeros((10, STRIDE), dtype=np.uint8)
    for up, upcard in chart.ups.items():
        for a in range(CODES):
            for b in range(CODES):
                ra, rb = rank_of[a], rank_of[b]
                counts = _hand(ra, rb)
                total, soft = counts_total(counts)
                if total == 21:
                    continue
                same_face = a == b or not faces
                first[up, a, b] = ACTION_CODES[chart_action(rules, upcard, counts, total, soft, same_face)]
        for total in range(4, 22):
            for soft in (False, True):
                if soft and total < 12:
                    continue
                c = cell_of(total, soft)
                hit3[up, c] = bool(upcard.hit[c])
                may_double = (rules.double_after_split and rules.double.allows_total(total)
                              and (rules.double_soft or not soft))
                split2[up, c] = (ACTION_CODES[Action.DOUBLE] if may_double and upcard.first[c] == 2 else
                                 ACTION_CODES[Action.HIT] if upcard.hit_two[c] else ACTION_CODES[Action.STAND])
    assert SOFT_CELL == 22
    return first, hit3, split2


def _legal(rules: Rules, action: Action, counts: tuple[int, ...], same_face: bool) -> bool:
    """Whether the rules offer ``action`` to this unsplit two-card hand."""
    total, soft = counts_total(counts)
    if action is Action.DOUBLE:
        return rules.double.allows_total(total) and (rules.double_soft or not soft)
    if action is Action.SURRENDER:
        return rules.surrender is not Surrender.NONE
    if action is Action.SPLIT:
        pair = max(counts) == 2
        return pair and rules.split_hands >= 2 and (same_face or rules.split_unlike_tens or counts[TEN] != 2)
    return True


def _index_tables(rules: Rules, chart: Chart, plays: Sequence[tuple[IndexPlay, int]], faces: bool) -> np.ndarray:
    """Per (up, card a, card b): the index, the deviation and the play below the index
    (:class:`bjcalc.counting.states.IndexPolicy`: the chart's play where it is one of the
    play's alternatives, else the first of them); NOINDEX where the hand has none. Two tens of
    unlike faces that may not split play by the chart, as there."""
    rank_of = list(range(10)) + [TEN] * 3
    idx = np.full((10, CODES, CODES, 3), NOINDEX, dtype=np.int32)
    for play, index in plays:
        up = play.up.index
        if up not in chart.ups:  # an up card this shoe cannot show
            continue
        for hand in play.hands():
            ranks = sorted(c.index for c in hand)
            for a in range(CODES):
                for b in range(CODES):
                    if sorted((rank_of[a], rank_of[b])) != ranks:
                        continue
                    counts = _hand(rank_of[a], rank_of[b])
                    same_face = a == b or not faces
                    if faces and counts[TEN] == 2 and not same_face:
                        continue
                    total, soft = counts_total(counts)
                    below = chart_action(rules, chart.ups[up], counts, total, soft, same_face)
                    if below not in play.instead:
                        below = play.instead[0]
                    if not (_legal(rules, play.play, counts, same_face) and _legal(rules, below, counts, same_face)):
                        continue  # a play the rules do not offer this hand: the chart's
                    idx[up, a, b] = (index, ACTION_CODES[play.play], ACTION_CODES[below])
    return idx


def _block_task(arguments: tuple[Any, ...], seed: int, block: int, rounds: int) -> dict[str, Any]:
    """One block of rounds, dealt by the kernel: its sums (as a list) and counts."""
    head = np.frombuffer(arguments[0], dtype=np.int32)
    nb, cut = int(head[HEADER.index("nb")]), int(head[HEADER.index("cut")])
    out = np.zeros(B_FIELDS * nb + D_FIELDS * cut + G_FIELDS + G_FIELDS * G_FIELDS)
    dealt, shoes, voids, cards = kernel.deal_block(*arguments, seed, block, rounds, out)
    return {"out": out.tolist(), "rounds": dealt, "shoes": shoes, "voids": voids, "cards": cards}


def deal_rigged(tables: _Tables, cards: Sequence[int]) -> list[tuple[int, int, int, int, float, int]]:
    """One shoe dealt from ``cards`` (card codes: ranks 0..9 aces first, faces of tens 9..12)
    in this order, no shuffle: each round's (cards seen, scaled running count, true count,
    played, seat 0's result per unit, cards used). For tests."""
    head = np.frombuffer(tables.arguments[0], dtype=np.int32)
    if len(cards) != int(head[0]):
        raise InvalidSimulationError(f"a rigged shoe must hold the shoe's {int(head[0])} cards, not {len(cards)}")
    deck = np.array(cards, dtype=np.uint8).tobytes()
    return kernel.deal_rigged(*tables.arguments[:2], deck, *tables.arguments[3:])


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


def _result(store: TaskStore, tasks: Sequence[Task], size: int) -> tuple[np.ndarray, int, int, int, int]:
    """The blocks' sums added in block order (the same numbers however the blocks ran) and their
    rounds, shoes, void rounds and cards."""
    total = np.zeros(size)
    rounds = shoes = voids = cards = 0
    for task in tasks:
        found = store.get(task.key)
        total += np.array(found["out"])
        rounds, shoes = rounds + found["rounds"], shoes + found["shoes"]
        voids, cards = voids + found["voids"], cards + found["cards"]
    return total, rounds, shoes, voids, cards


def _figures(game: Any, system: str, tables: _Tables, total: np.ndarray, rounds: int, shoes: int, voids: int, cards: int,
             pen: Fraction, cut: int, seats: int, strategy: str, spread: Spread, wong_in: int | None,
             wong_out: int | None, bankroll: float | None, plays: Sequence[tuple[IndexPlay, int]],
             insurance_index: int | None, index_depth: int | None, seed: int, blocks: int,
             run: RunStats) -> SimulationResult:
    nb = tables.nb
    bucket = total[:B_FIELDS * nb].reshape(nb, B_FIELDS)
    depth = total[B_FIELDS * nb:B_FIELDS * nb + D_FIELDS * cut].reshape(cut, D_FIELDS)
    g = total[B_FIELDS * nb + D_FIELDS * cut:][:G_FIELDS]
    gg = total[B_FIELDS * nb + D_FIELDS * cut + G_FIELDS:].reshape(G_FIELDS, G_FIELDS)
    gg = np.triu(gg) + np.triu(gg, 1).T
    R, RR = g[0], gg[0, 0]
    mean = g / shoes
    cov = (gg / shoes - np.outer(mean, mean)) * shoes / max(1, shoes - 1)
    rows = []
    for t in range(nb):
        n, p, s, q, nn, nr, pp, ss, sp = bucket[t]
        if n == 0:
            continue
        frequency = _ratio(n, nn, R, RR, nr, shoes)
        advantage = _ratio(s, ss, p, pp, sp, shoes) if p else None
        sd = math.sqrt(max(0.0, q / p - (s / p) ** 2)) if p else None
        rows.append(TrueCountRow(tables.tc_min + t, int(n), int(p), frequency, advantage, sd))
    depths = tuple((n, int(depth[n, 0]), _ratio(depth[n, 0], depth[n, 0], R, RR, depth[n, 1], shoes))
                   for n in range(cut) if depth[n, 0])
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
        return _delta(f, mean, cov, shoes)

    win = SimulatedWin(
        strategy, spread.text(), est(per(ib, ir)), est(per(ip, ir)), est(per(iy, ir)),
        est(lambda m: 100 * m[iy] / m[ir]), est(lambda m: sd_of(m, ir)), est(per(iy, ip)),
        est(lambda m: sd_of(m, ip)), est(di), est(lambda m: di(m) ** 2), est(n0),
        None if bankroll is None else est(ruin), bankroll, est(per(iu, ip)), est(per(iv, ip)))
    return SimulationResult(
        game.rules, system, game.tags, pen, cut, seats, game.convention, strategy, spread, wong_in, wong_out,
        tuple((p.name, i) for p, i in plays), insurance_index, index_depth, seed, blocks, rounds, shoes, voids,
        cards / rounds, _ratio(R, RR, shoes, shoes, R, shoes), depths, tuple(rows), win, run)
