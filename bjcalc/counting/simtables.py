"""The tables ``bjcalc simulate``'s compiled loop reads (``_simulate_kernel.c``), built before it
runs: the rules as a header of integers; the shoe as card codes (ranks ace to nine, then the
ten-valued cards, as four faces where unlike tens may not split); the chart's first play of
every two-card hand against every up card (:func:`bjcalc.chart.chart_action`), its play of a
hand of three or more cards and of a two-card split hand (:func:`bjcalc.chart.chart_decider`);
the index plays as :class:`bjcalc.counting.states.IndexPolicy` plays them; the convention's true
count at every (cards left, running count), and the bet at every true count. Also the kernel's
rigged deal (:func:`deal_rigged`), for tests.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import SOFT_CELL, TEN, counts_total
from bjcalc.chart import Chart, cell_of, chart_action
from bjcalc.counting.indices import Convention, IndexPlay
from bjcalc.counting.spread import Spread
from bjcalc.counting.tags import Rounding, decks_left, tag_scale
from bjcalc.errors import BjcalcError
from bjcalc.rules import HoleCard, Loss, Rules, Surrender

try:
    from bjcalc.counting import _simulate_kernel as kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    kernel = None

ACTION_CODES = {Action.STAND: 0, Action.HIT: 1, Action.DOUBLE: 2, Action.SPLIT: 3, Action.SURRENDER: 4}
HEADER = ("ncards", "cut", "seats", "h17", "peek", "surrender", "insurance", "max_hands", "max_hands_aces",
          "hit_split_aces", "indices", "insure", "ins_index", "left_lo", "rc_lo", "rc_cols", "tc_min", "nb",
          "wong_mode", "wong_in_on", "wong_in", "wong_out_on", "wong_out", "irc", "double_loss_ace",
          "double_loss_ten", "split_loss_ace", "split_loss_ten", "filler", "player_max", "dealer_max",
          "charlie", "depth_bins")
CODES, STRIDE, NOINDEX = 13, 64, -2 ** 31
B_FIELDS, D_FIELDS, G_FIELDS, K_FIELDS = 9, 2, 7, 2  # as the kernel lays out its sums
# the starting depths are also summed in this many bins (fewer on a cut of fewer cards), bin k
# holding the depths n with n K // cut == k: a bin's share of the rounds and its standard error
# (which the depths' own cannot give: a shoe's rounds at two depths are correlated)
DEPTH_BINS = 8


def depth_bins(cut: int) -> list[tuple[int, int]]:
    """The bins of starting depths the kernel sums: (first, last) cards seen, inclusive.

    >>> depth_bins(26)
    [(0, 3), (4, 6), (7, 9), (10, 12), (13, 16), (17, 19), (20, 22), (23, 25)]
    """
    bins = min(DEPTH_BINS, cut)
    edges = [-(-k * cut // bins) for k in range(bins + 1)]
    return [(edges[k], edges[k + 1] - 1) for k in range(bins)]


def out_size(nb: int, cut: int) -> int:
    """The doubles of a block's sums: per true-count bucket, per depth, the shoe figures and
    their products, per depth bin."""
    return B_FIELDS * nb + D_FIELDS * cut + G_FIELDS + G_FIELDS * G_FIELDS + K_FIELDS * len(depth_bins(cut))


@dataclasses.dataclass(frozen=True)
class KernelTables:
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
              wong_in: int | None, wong_out: int | None) -> KernelTables:
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
            ins_index=insurance_index if insure and insurance_index is not None else 0,
            left_lo=left_lo, rc_lo=low, rc_cols=high - low + 1,
            tc_min=tc_min, nb=nb,
            wong_mode=0 if wong_in is None and wong_out is None else 1 if wong_out is None else 2,
            wong_in_on=int(wong_in is not None), wong_in=wong_in or 0, wong_out_on=int(wong_out is not None),
            wong_out=wong_out or 0, irc=int(irc),
            double_loss_ace=int(takes.doubles_vs_ace is Loss.ALL),
            double_loss_ten=int(takes.doubles_vs_ten is Loss.ALL),
            split_loss_ace=int(takes.splits_vs_ace is Loss.ALL), split_loss_ten=int(takes.splits_vs_ten is Loss.ALL),
            filler=TEN, player_max=rules.player_max_cards or 99, dealer_max=rules.dealer_max_cards or 99,
            charlie=rules.charlie or 99, depth_bins=len(depth_bins(cut)))
        head = np.array([header[name] for name in HEADER], dtype=np.int32)
        codes = np.array(rank_of + pairkey, dtype=np.uint8)
        arguments = (head.tobytes(), np.array([float(rules.blackjack_pays)]).tobytes(), deck.tobytes(),
                     tag_codes.tobytes(), codes.tobytes(), first.tobytes(), hit3.tobytes(), split2.tobytes(),
                     idx.tobytes(), tc.astype(np.int32).tobytes(), bets.tobytes())
        return cls(arguments, tc_min, nb, cut, scale)

    @property
    def size(self) -> int:
        return out_size(self.nb, self.cut)


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


def deal_rigged(tables: KernelTables, cards: Sequence[int]) -> list[tuple[int, int, int, int, float, int]]:
    """One shoe dealt from ``cards`` (card codes: ranks 0..9 aces first, faces of tens 9..12)
    in this order, no shuffle: each round's (cards seen, scaled running count, true count,
    played, seat 0's result per unit, cards used). For tests."""
    head = np.frombuffer(tables.arguments[0], dtype=np.int32)
    if len(cards) != int(head[0]):
        raise BjcalcError(f"a rigged shoe must hold the shoe's {int(head[0])} cards, not {len(cards)}")
    deck = np.array(cards, dtype=np.uint8).tobytes()
    return kernel.deal_rigged(*tables.arguments[:2], deck, *tables.arguments[3:])


