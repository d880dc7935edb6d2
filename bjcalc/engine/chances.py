"""Win, push and loss of every unsplit hand against one up card, in one backward pass.

What the EV matrix (:mod:`bjcalc.matrix`) shows beside a cell's EVs: the chances that the
result of standing, of doubling (one card, then stand) or of hitting and playing on as the
engine's CD play decides is above, at or below zero. Each final hand meets the dealer's
outcomes on the shoe its cards leave (blackjack included: the hole card is one of the cards
left, and the cards are exchangeable).

One dealer table per hand would be one dealer evaluation per cell and state; instead the
dealer numerators that the analysis' batch (:class:`bjcalc.engine.batch.DealerBatch`) already
evaluated for every hand of the unsplit graph are read at once, and the four chances of every
hand (win, push, loss with no dealer blackjack, dealer blackjack) are pushed back through the
graph's layers as :mod:`bjcalc.engine.values` pushes EVs: numerators over the layer's common
denominator ``G_k = ff(N - k, M - k)`` (``N`` cards left, ``M`` = deepest hand + 1 + deepest
dealer hand; on a counter's shoe times the weight of the row's class totals), where a draw of
rank ``r`` adds ``s_r`` times the child's numerators and nothing is divided. Exact mode keeps
Python integers, float mode float64, the same code. With replacement (the infinite deck)
nothing a hand holds changes the shoe, the dealer's numerators are one row for every hand, and
``G_k`` are powers of ``N``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from bjcalc.cards import BLACKJACK, BUST
from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.values import HandValues, _suffixes
from bjcalc.numbers import as_numbers

# the four numerators of a hand, in this order
WIN, PUSH, LOSS, DEALER_BLACKJACK = range(4)
_VALUES = np.arange(1, 11, dtype=np.int64)  # a card's value, aces 1


@dataclasses.dataclass(frozen=True)
class HandChances:
    """Per layer of the unsplit graph, each hand's (win, push, loss with no dealer blackjack,
    dealer blackjack) numerators, shape (rows, 4), over ``scale[k]`` (times ``weights[k]`` per
    row on a counter's shoe): standing, and hitting then playing on by the CD play; and for the
    two-card layer, doubling (one card, then stand)."""

    table: HandValues
    scale: list[int]  # Python ints in both modes
    stand: list[np.ndarray]
    hit: list[np.ndarray]
    double: np.ndarray | None
    weights: list[np.ndarray] | None

    def of(self, counts: tuple[int, ...], play: Code) -> tuple[np.ndarray, int | float]:
        """The numerators of the hand ``counts`` played by ``play`` (STAND, HIT or DOUBLE) and
        their denominator."""
        layer, row = self.table.layers.index[counts]
        if play == Code.DOUBLE:
            assert self.double is not None and layer == self.table.double_layer
            numerators = self.double[row]
        else:
            numerators = (self.hit if play == Code.HIT else self.stand)[layer][row]
        denominator = self.scale[layer]
        if self.weights is not None:
            denominator = denominator * self.weights[layer][row]
        return numerators, denominator


def hand_chances(context: UpcardContext, table: HandValues) -> HandChances:
    """:class:`HandChances` of every hand of ``table`` (the up card's unsplit values, whose CD
    decisions the hands follow after their first play)."""
    exact, rules, model = context.exact, context.rules, context.model
    layers = table.layers
    sizes = layers.sizes
    (shoe,), (suffix,) = _suffixes(context, layers, ((0,) * 10,))
    shoe_row = np.array(shoe, dtype=np.int64)
    number = (lambda x: x) if exact else float
    columns = context.batch.index.register(layers, (0,) * 10)
    # every hand's dealer numerators in one read, over ff(N - size, depth) (with the row's weight)
    codes, matrix_all = context.batch.outcome_matrix(np.concatenate(columns))
    codes = np.asarray(codes)
    cut = np.cumsum([len(c) for c in columns])[:-1]
    is_bj, is_bust = codes == BLACKJACK, codes == BUST
    ranks = np.zeros(10, dtype=np.int64) if model is None else model.rank_codes()
    bj_rank = context.bj_rank

    def weights_of(counts: np.ndarray) -> np.ndarray:
        assert model is not None
        return model.weights(context.base + model.codes(counts), exact)

    stand: list[np.ndarray] = []
    weights: list[np.ndarray] | None = None if model is None else []
    for k, (size, matrix) in enumerate(zip(sizes, np.split(matrix_all, cut))):
        totals = layers.totals[k][:, None]
        charlie = rules.charlie is not None and size >= rules.charlie
        dealer = ~is_bj & ~is_bust
        masks = (is_bust | (~is_bj if charlie else dealer & (totals > codes)),
                 dealer & (totals == codes) & (not charlie),
                 dealer & (totals < codes) & (not charlie),
                 np.broadcast_to(is_bj, matrix.shape))
        zero = number(0)
        parts = [np.where(np.broadcast_to(mask, matrix.shape), matrix, zero).sum(axis=1) for mask in masks]
        if charlie:  # where the dealer may run out, a charlie wins on the deals that do too
            at, values = context.batch.charlie_numerators(columns[k])
            parts[0][at] = values
        lift = number(suffix[size + context.depth])  # to the layer's scale, G = ff(N - size, M - size)
        stand.append(np.stack(parts, axis=1) * lift if len(matrix) else _empty(exact))
        if weights is not None:
            weights.append(weights_of(layers.counts[k]))

    hit: list[np.ndarray] = [None] * len(sizes)  # type: ignore[list-item]
    play: list[np.ndarray] = [None] * len(sizes)  # type: ignore[list-item]
    double = None
    for k in reversed(range(len(sizes))):
        size, counts = sizes[k], layers.counts[k]
        held = counts * (not context.replacement)  # with replacement a hand takes nothing out
        left = as_numbers(np.maximum(shoe_row[None, :] - held, 0), exact)  # (rows, 10)
        busts = (counts @ _VALUES)[:, None] + _VALUES[None, :] > 21
        children = layers.children[k]
        # a draw that neither busts nor leads to a hand of the graph: no card of that rank is
        # left, or the hand may not draw (a card limit), where its hit numerators are not read
        assert not table.can_hit[k] or not ((children < 0) & ~busts & (shoe_row[None, :] > held)).any()
        # a draw that busts loses, split by whether the hole card makes a dealer blackjack:
        # over the child's scale G_{size+1} (and weight), P(blackjack) is the blackjack rank's
        # cards left times G_{size+2}
        child_scale = as_numbers(np.full((len(counts), 10), 1, dtype=np.int64), exact) * number(suffix[size + 1])
        child_codes = context.base + ranks[None, :] + (0 if model is None else model.codes(counts)[:, None])
        if model is not None:
            child_scale = child_scale * model.weights(child_codes, exact)
        if bj_rank is None:
            bj = child_scale * 0
        else:
            bj_left = np.maximum(shoe_row[bj_rank] - held[:, bj_rank][:, None]
                                 - ((np.arange(10) == bj_rank) & (not context.replacement))[None, :], 0)
            bj = as_numbers(bj_left, exact) * number(suffix[size + 2])
            if model is not None:
                bj = bj * model.weights(child_codes + ranks[bj_rank], exact)
        bust = np.stack([child_scale * 0, child_scale * 0, child_scale - bj, bj], axis=-1)  # (rows, 10, 4)
        last = k + 1 == len(sizes)
        hit[k] = (left[:, :, None] * _after(busts, bust, children, None if last else play[k + 1])).sum(axis=1)
        hits = table.can_hit[k] & (np.asarray(table.decision[k]) == Code.HIT)
        play[k] = np.where(hits[:, None], hit[k], stand[k])
        if k == table.double_layer:
            double = (left[:, :, None] * _after(busts, bust, children, None if last else stand[k + 1])).sum(axis=1)
    return HandChances(table, [suffix[size] for size in sizes], stand, hit, double, weights)


def _after(busts: np.ndarray, bust: np.ndarray, children: np.ndarray, values: np.ndarray | None) -> np.ndarray:
    """Each draw's numerators (rows, 10, 4): a bust's, else the child's row of ``values`` (the
    next layer's; ``None``: there is none, so every draw busts or finds no card)."""
    if values is None:
        return np.where(busts[:, :, None], bust, bust * 0)
    reached = np.where((children >= 0)[:, :, None], values[np.maximum(children, 0)], bust * 0)
    return np.where(busts[:, :, None], bust, reached)


def _empty(exact: bool) -> np.ndarray:
    return np.zeros((0, 4), dtype=object if exact else np.float64)
