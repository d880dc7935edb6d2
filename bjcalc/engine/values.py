"""The values of every hand of a hand graph against one up card: stand, hit, double and the
best play, in one backward pass over the graph's layers.

Exact arithmetic without fractions: every value of a state with ``k`` cards is kept as an
integer numerator over the common denominator ``G_k = ff(N - k, M - k)`` (``N`` cards in the
shoe the hand draws from, ``M`` = deepest hand + 1 + deepest dealer hand). Drawing a card
multiplies by ``s_r / (N - k)`` and ``G_k = (N - k) G_{k+1}``, so a hit value is simply
``sum_r s_r X(child)``: no division anywhere. The same code runs on float64 arrays in float
mode.

With a peeking dealer and an A or T up, the numerators are ``E[payoff; no dealer blackjack]``,
with the hole card dealt after the player's draws (the cards are exchangeable); dividing by
``P(no blackjack)`` of the state gives the conditional EV, and maximising the numerators is the
same as maximising the conditional EVs because every action of a state shares that divisor.

Several shoes can be solved in one pass (:func:`solve_many`): their rows are stacked layer by
layer and no operation mixes rows of different shoes.

In float mode the pass runs in a small C loop, ``bjcalc/engine/_player_kernel.c`` (an optional
build, like the dealer's, loaded by :mod:`bjcalc.engine.kernels`): it works each hand's cards
left, blackjack units and draw values out row by row instead of building (rows, 10) arrays, with
the same operations in the same order as the numpy code here, which stays as the fallback
(``BJCALC_NUMPY_PLAYER=1`` forces it).

In exact mode the same loop runs in int64 residues modulo primes below ``2**31`` whose product
passes twice the largest value (:func:`_exact_kernel_pass`). Residues cannot be compared, so
the plays are the float loop's, and each near tie there (:data:`NEAR_TIE`) is settled in exact
integers, one layer at a time, before the layer above reads it; the values are rebuilt as
Python ints by the Chinese remainder theorem for the layers read. The numbers are the numpy
pass's, integer for integer.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
from collections.abc import Sequence

import numpy as np

from bjcalc.cards import CHARLIE
from bjcalc.engine.batch import DealerBatch
from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.hands import HandLayers, hand_layers
from bjcalc.engine.kernels import player_kernel, player_kernel_available
from bjcalc.engine.residues import primes_above
from bjcalc.numbers import as_numbers
from bjcalc.rules import Rules


def stop_at(rules: Rules) -> int:
    """The number of cards at which a hand stops drawing (charlie or card limit)."""
    return min(n for n in (rules.charlie, rules.player_max_cards, 99) if n is not None)


Extras = tuple[tuple[int, ...], ...]  # cards out of the context's shoe, one row per shoe solved


def stacked_values(context: UpcardContext, layers: HandLayers, extras: Extras, loss: int) -> _Stack:
    """What does not depend on the player's decisions, for the hands of ``layers`` drawing
    from each shoe ``context.shoe - extras[j]`` (cached on the context): the shoes, the layer
    scales, and the stand, doubled-stand and dealer-blackjack numerators and the draws of every
    hand, the shoes' rows stacked layer by layer (layer ``k`` holds shoe 0's rows, then shoe
    1's...; child rows point into the same shoe's block of the next layer)."""
    key = (layers.key, extras, loss)
    stacks = context.stacks
    if key not in stacks:
        if context.exact and len(extras) > 1:
            # split hands on several shoes: each is solved once per solver, which keeps its
            # values; cached, their big-integer arrays would double an exact analysis' memory
            return _stacked_values(context, layers, extras, loss)
        stacks[key] = _stacked_values(context, layers, extras, loss)
    return stacks[key]


def _suffixes(
    context: UpcardContext, layers: HandLayers, extras: Extras
) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Each shoe ``context.shoe - extras[j]`` and its falling factorials ``suffix[s] = ff(n0 -
    s, top - s)`` for ``s = 0 .. top`` (``n0`` cards, ``top`` = deepest hand + 1 + deepest dealer
    hand), from which every layer's factors come (:func:`_factors`); with replacement (the
    infinite deck) the powers ``n0 ** (top - s)``."""
    top = layers.sizes[-1] + 1 + context.depth
    shoes = [tuple(map(operator.sub, context.shoe, extra)) for extra in extras]
    suffixes = []
    for shoe in shoes:
        n0 = sum(shoe) - (0 if context.model is None else context.model.hidden)  # the cards left
        suffixes.append(_suffix(n0, top, context.replacement))
    return shoes, suffixes


@functools.lru_cache(maxsize=4096)
def _suffix(n0: int, top: int, replacement: bool) -> tuple[int, ...]:
    """``ff(n0 - s, top - s)`` for ``s = 0 .. top`` (with replacement, ``n0 ** (top - s)``): the
    same few for every shoe of one size, so kept. Each factor is at least 1
    (:func:`bjcalc.numbers.falling_left`): on a shoe dealt to its last cards the draws past the
    last card have no numerator, and a path that runs out counts nothing (docs/model.md)."""
    if replacement:  # every draw from all n0: the falling factorials become powers
        return tuple(n0 ** (top - s) for s in range(top + 1))
    suffix = [1] * (top + 1)
    for s in range(top - 1, -1, -1):
        suffix[s] = suffix[s + 1] * max(n0 - s, 1)
    return tuple(suffix)


def _factors(suffix: Sequence[int], sizes: Sequence[int], depth: int) -> tuple[list[int], list[int], list[int]]:
    """A shoe's per-layer factors from its :func:`_suffixes`: the layer scales ``G_k`` and
    blackjack units (layers + 1), and the lifts of the dealer's numerators (layers). The
    compiled loop reads them out of the suffixes itself, in the same way."""
    deepest = sizes[-1] + 1  # cards held after the last possible draw
    scales = [suffix[size] for size in [*sizes, deepest]]
    # P(dealer blackjack) * scale[k] = (cards of the blackjack rank left) * bj_unit[k]
    units = [suffix[size + 1] for size in [*sizes, deepest]]
    # the dealer numerators are over ff(n0 - size, depth); lift brings them to the layer's
    # scale. One-card split hands never stand.
    lifts = [suffix[k + depth] if k >= 2 else 0 for k in sizes]
    return scales, units, lifts


def _payoffs(rules: Rules, totals: np.ndarray, size: np.ndarray) -> np.ndarray:
    """What each hand stands on: its total, or :data:`CHARLIE`."""
    if rules.charlie is None:
        return totals
    return np.where(size >= rules.charlie, CHARLIE, totals)


def _stacked_values(context: UpcardContext, layers: HandLayers, extras: Extras, loss: int) -> _Stack:
    rules, exact = context.rules, context.exact
    sizes = layers.sizes
    shoes, suffixes = _suffixes(context, layers, extras)
    scales, units, lifts = (list(f) for f in zip(*(_factors(suffix, sizes, context.depth) for suffix in suffixes)))

    # rows in stacked order: layer by layer, and within a layer shoe by shoe
    shape = layers.stacked(len(extras))
    order, copy, layer, counts, size = shape.order, shape.copy, shape.layer, shape.counts, shape.size
    shoe_rows = np.array(shoes, dtype=np.int64)[copy]  # (rows, 10)
    scale_of = as_numbers(scales, exact)  # (copies, layers + 1)
    unit_of = as_numbers(units, exact)

    payoff = _payoffs(rules, shape.totals, size)
    columns = np.concatenate([np.concatenate(context.batch.index.register(layers, extra)) for extra in extras])[order]
    not_blackjack = context.batch.stand_numerators(columns, payoff) * as_numbers(lifts, exact)[copy, layer]
    held = counts * (not context.replacement)  # with replacement a hand takes nothing out
    if context.bj_rank is None:
        bj = as_numbers(np.zeros(len(order), dtype=np.int64), exact)
    else:
        bj = as_numbers((shoe_rows[:, context.bj_rank] - held[:, context.bj_rank]) * (size >= 2), exact)
        bj = bj * unit_of[copy, layer]
    model, weights_all = context.model, None
    if model is not None:
        # a counter's shoe: a state's scale is G_k times the weight of the class totals drawn
        # (up card, extra cards, the hand), its children's and its hole card's likewise
        codes = context.base + model.codes(np.array(extras, dtype=np.int64))[copy] + model.codes(counts)
        ranks = model.rank_codes()
        weights_all = model.weights(codes, exact)
        if context.bj_rank is not None:
            bj = bj * model.weights(codes + ranks[context.bj_rank], exact)
    if context.peeked:
        stand_all, doubled_all = not_blackjack, not_blackjack * 2
    else:
        stand_all = not_blackjack - bj * loss
        doubled_all = not_blackjack * 2 - bj * (loss + context.double_loss)

    # the draws of every row: cards left per rank, where a draw busts, and its value
    left_all = as_numbers(np.maximum(shoe_rows - held, 0), exact)
    g = scale_of[copy, layer + 1][:, None]
    if context.bj_rank is None:  # one column for every draw: it is the same for all ranks
        child_bj_all = as_numbers(np.zeros((len(order), 1), dtype=np.int64), exact)
    else:
        bj_left = shoe_rows[:, context.bj_rank] - held[:, context.bj_rank]
        bj_is = (np.arange(10) == context.bj_rank) & (not context.replacement)
        child_bj_all = as_numbers(bj_left[:, None] - bj_is[None, :], exact) * unit_of[copy, layer + 1][:, None]
    if model is not None:
        children = codes[:, None] + ranks[None, :]
        g = g * model.weights(children, exact)
        if context.bj_rank is not None:
            child_bj_all = child_bj_all * model.weights(children + ranks[context.bj_rank], exact)
    if context.peeked:
        bust_all = -(g - child_bj_all)
        bust_doubled_all = bust_all * 2
    else:
        bust_all = -(g - child_bj_all) - child_bj_all * loss
        bust_doubled_all = -(g - child_bj_all) * 2 - child_bj_all * (loss + context.double_loss)
    busts_all, safe_all = shape.busts, shape.safe
    split = shape.split
    stand, stand_doubled, blackjack = split(stand_all), split(doubled_all), split(bj)
    weights = None if weights_all is None else split(weights_all)
    draws = []
    for k, (left, busts, safe, bust, bust_doubled, child_bj) in enumerate(zip(
        *(split(a) for a in (left_all, busts_all, safe_all, bust_all, bust_doubled_all, child_bj_all))
    )):
        double = one_card = None
        if sizes[k] == 2:
            after, after_single = bust_doubled, bust
            if k + 1 < len(sizes):
                after = np.where(busts, bust_doubled, stand_doubled[k + 1][safe])
                after_single = np.where(busts, bust, stand[k + 1][safe])
            double = (left * after).sum(axis=1)
            one_card = (left * after_single).sum(axis=1)
        draws.append(_Draws(left, busts, safe, bust, double, one_card, child_bj))
    return _Stack(shoes, scales, stand, blackjack, draws, weights)


@dataclasses.dataclass(frozen=True)
class _Draws:
    """A layer's draws: cards left per (hand, rank), which draws bust and their value, the
    child row of the others, the dealer-blackjack chance after each draw, and the two-card
    layer's double and one-card values."""

    left: np.ndarray
    busts: np.ndarray
    safe: np.ndarray
    bust: np.ndarray
    double: np.ndarray | None
    one_card: np.ndarray | None  # take exactly one card and stand, at the same bet
    child_bj: np.ndarray  # per (hand, rank): P(dealer blackjack) after that draw, times the scale
    # (``bust`` and ``child_bj`` have a single column, for every rank, when the up card makes
    # no blackjack: in exact mode the ten copies of each big integer would be ten objects)


@dataclasses.dataclass(frozen=True)
class _Stack:
    """Stand values and draws of one hand graph for several shoes, stacked layer by layer."""

    shoes: list[tuple[int, ...]]
    scales: list[Sequence[int]]
    stand: Sequence[np.ndarray]
    blackjack: Sequence[np.ndarray]
    draws: list[_Draws]
    weights: Sequence[np.ndarray] | None  # a counter's shoe: each row's weight (its scale's factor)


class ShoeRows(Sequence):
    """Shoe ``j``'s rows of stacked per-layer arrays, cut out when a layer is first read (and
    kept: the walk reads a hand's layer for every play it values). Slots: a counter's-shoe state
    makes about 3,750 of them (six for each shoe of each split pass), most never read."""

    __slots__ = ("_arrays", "_layers", "_j", "_cut")

    def __init__(self, arrays: Sequence[np.ndarray], layers: HandLayers, j: int) -> None:
        self._arrays, self._layers, self._j = arrays, layers, j
        self._cut: dict[int, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self._arrays)

    def __getitem__(self, k):
        cut = self._cut.get(k) if isinstance(k, int) else None
        if cut is not None:
            return cut
        if isinstance(k, slice):
            return [self[i] for i in range(len(self))[k]]
        rows = len(self._layers.counts[k])
        cut = self._cut[k] = self._arrays[k][self._j * rows : (self._j + 1) * rows]
        return cut

    def _layers_rows(self) -> np.ndarray:
        """Where this shoe's rows are, layer after layer, in the stacked array (``_arrays``
        a :class:`_Layers`; kept with the graph by the number of shoes and the shoe)."""
        stacked: _Layers = self._arrays  # type: ignore[assignment]
        copies = (stacked._bounds[-1] - stacked._bounds[0]) // max(self._layers.flat.starts[-1], 1)
        key = ("shoe rows", copies, self._j)
        if key not in self._layers.derived:
            at = np.concatenate([stacked._bounds[k] + self._j * len(c) + np.arange(len(c))
                                 for k, c in enumerate(self._layers.counts)]).astype(np.intp)
            at.flags.writeable = False
            self._layers.derived[key] = at
        return self._layers.derived[key]  # type: ignore[return-value]


@dataclasses.dataclass
class HandValues:
    """Values of every hand of a hand graph against one up card.

    ``stand[k]``, ``hit[k]``, ``best[k]`` are arrays of numerators over ``scale[k]``;
    ``double`` is for the two-card layer (or ``None``); ``blackjack[k]`` is P(dealer blackjack)
    times ``scale[k]``; ``decision[k]`` the play chosen in each state (a :class:`Code`: STAND, HIT or DOUBLE).
    """

    layers: HandLayers
    shoe: tuple[int, ...]  # the shoe the hand draws from (its own cards still in it)
    peeked: bool
    scale: Sequence[int]  # Python ints in both modes
    stand: Sequence[np.ndarray]
    hit: Sequence[np.ndarray]
    best: Sequence[np.ndarray]
    decision: Sequence[np.ndarray]
    can_hit: list[bool]
    double: np.ndarray | None
    double_layer: int | None
    blackjack: Sequence[np.ndarray]
    one_card: np.ndarray | None = None  # two-card layer: take one card and stand, same bet
    # a counter's shoe (bjcalc.engine.drawmodel): row i of layer k is over scale[k] * weights[k][i]
    weights: Sequence[np.ndarray] | None = None

    def row_scale(self, layer: int, row: int) -> int | float:
        """The denominator of row ``row`` of layer ``layer``."""
        if self.weights is None:
            return self.scale[layer]
        return self.scale[layer] * self.weights[layer][row]


def drawing_layers(layers: HandLayers, limit: int) -> tuple[list[bool], int | None]:
    """Which layers of ``layers`` may draw (hands below ``limit`` cards), and the two-card layer
    where it may (a pass works out doubling there), else None."""
    sizes = layers.sizes
    can_hit = [size < limit for size in sizes]
    return can_hit, sizes.index(2) if 2 in sizes and can_hit[sizes.index(2)] else None


def solve(
    context: UpcardContext,
    layers: HandLayers,
    extra: tuple[int, ...] = (0,) * 10,
    *,
    loss: int = 1,
    limit: int | None = None,
    may_double: np.ndarray | None = None,
    decisions: Sequence[np.ndarray] | None = None,
) -> HandValues:
    """Stand/hit/double values of every hand in ``layers`` drawing from ``context.shoe - extra``.

    ``loss``: what a no-hole-card dealer blackjack takes of the hand's base bet (1, or 0 for a
    split hand whose bet the rules return). ``may_double``: which two-card hands may double as
    part of their play (split hands with DAS); unsplit hands double only as a first decision,
    made outside. ``decisions``: a fixed play per state (else the best one is chosen).
    ``limit``: the number of cards at which the hand stops drawing (default: the rules').
    """
    return solve_many(context, layers, (extra,), loss=loss, limit=limit, may_double=may_double,
                      decisions=decisions)[0]


def solve_many(
    context: UpcardContext,
    layers: HandLayers,
    extras: tuple[tuple[int, ...], ...],
    *,
    loss: int = 1,
    limit: int | None = None,
    may_double: np.ndarray | None = None,
    decisions: Sequence[np.ndarray] | None = None,
    roots_only: bool = False,
) -> PassValues:
    """:func:`solve` for the same hands drawing from several shoes ``context.shoe - extras[j]``, in
    one backward pass: the shoes' rows are stacked layer by layer (each row's numerators keep
    their own shoe's scale, and no operation mixes rows of different shoes). ``may_double``
    and ``decisions`` are per hand of ``layers``, the same for every shoe. ``roots_only`` (with
    ``decisions``): the caller reads the values of the first layer's hands alone, so the
    compiled loop may leave out the hands the play never reaches from them (their values are
    NaN; every decision is the play's)."""
    extras = tuple(extras)
    limit = stop_at(context.rules) if limit is None else limit
    can_hit, double_layer = drawing_layers(layers, limit)
    passed = None
    if player_kernel_available() and not context.replacement:
        if not context.exact:
            passed = _kernel_pass(context, layers, extras, loss, limit, double_layer, may_double, decisions,
                                  roots_only=roots_only and decisions is not None)
        else:
            passed = _exact_kernel_pass(context, layers, extras, loss, limit, double_layer, may_double, decisions)
    if passed is None:
        passed = _numpy_pass(context, layers, extras, loss, can_hit, double_layer, may_double, decisions)
    return PassValues(passed, context.peeked, layers, can_hit, double_layer)


@dataclasses.dataclass(frozen=True)
class _Pass:
    """The values of one pass, stacked layer by layer (``double`` and ``one_card``: the
    two-card layer's rows, or ``None``)."""

    shoes: list[tuple[int, ...]]
    scales: list[Sequence[int]]
    stand: Sequence[np.ndarray]
    hit: Sequence[np.ndarray]
    best: Sequence[np.ndarray]
    decision: Sequence[np.ndarray]
    blackjack: Sequence[np.ndarray]
    double: np.ndarray | None
    one_card: np.ndarray | None
    weights: Sequence[np.ndarray] | None = None

    def shoe_values(
        self, j: int, peeked: bool, layers: HandLayers, can_hit: list[bool], double_layer: int | None
    ) -> HandValues:
        """Shoe ``j``'s values, cut out of the stacks."""
        if len(self.shoes) == 1:
            return HandValues(
                layers=layers, shoe=self.shoes[0], peeked=peeked, scale=self.scales[0], stand=self.stand,
                hit=self.hit, best=self.best, decision=self.decision, can_hit=can_hit, double=self.double,
                double_layer=double_layer, blackjack=self.blackjack, one_card=self.one_card, weights=self.weights,
            )
        width = 0 if double_layer is None else len(layers.counts[double_layer])
        return HandValues(
            layers=layers, shoe=self.shoes[j], peeked=peeked, scale=self.scales[j],
            stand=ShoeRows(self.stand, layers, j), hit=ShoeRows(self.hit, layers, j),
            best=ShoeRows(self.best, layers, j), decision=ShoeRows(self.decision, layers, j), can_hit=can_hit,
            double=None if self.double is None else self.double[j * width : (j + 1) * width],
            double_layer=double_layer, blackjack=ShoeRows(self.blackjack, layers, j),
            one_card=None if self.one_card is None else self.one_card[j * width : (j + 1) * width],
            weights=None if self.weights is None else ShoeRows(self.weights, layers, j),
        )


class PassValues(Sequence):
    """The values of one pass (:func:`solve_many`), a :class:`HandValues` per shoe, each made
    when first read: a round reads a split pass's shoes through :meth:`root` alone, and the
    five :class:`HandValues` of each of an 8-deck round's hundred split passes cost 2.7 ms.
    ``first``, ``count``: the shoes of the pass these are (one up card's, of a pass of several:
    :func:`solve_ups`)."""

    __slots__ = ("_pass", "_peeked", "_layers", "_can_hit", "_double_layer", "_first", "_count", "_made", "_roots")

    def __init__(self, passed: _Pass, peeked: bool, layers: HandLayers, can_hit: list[bool],
                 double_layer: int | None, first: int = 0, count: int | None = None) -> None:
        # not the context, which keeps the values (context.stacks): no reference cycle
        self._pass, self._peeked, self._layers = passed, peeked, layers
        self._can_hit, self._double_layer = can_hit, double_layer
        self._first, self._count = first, len(passed.shoes) - first if count is None else count
        self._made: dict[int, HandValues] = {}
        self._roots: dict[int, list[tuple[tuple[int, ...], object, object, object]]] = {}  # by rank

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, j):
        if isinstance(j, slice):
            return [self[i] for i in range(len(self))[j]]
        j = range(len(self))[j]
        made = self._made.get(j)
        if made is None:
            made = self._made[j] = self._pass.shoe_values(self._first + j, self._peeked, self._layers,
                                                          self._can_hit, self._double_layer)
        return made

    def root(self, j: int, rank: int) -> tuple[tuple[int, ...], object, object, object]:
        """What shoe ``j``'s one-card hand (the graph's first hand) is worth without its
        :class:`HandValues`: the shoe, its hit numerator, the best numerator after drawing
        ``rank`` (None where that busts) and its denominator (:meth:`HandValues.row_scale`);
        read for every shoe at once."""
        roots = self._roots.get(rank)
        if roots is None:
            roots = self._roots[rank] = self._read_roots(rank)
        return roots[range(len(self))[j]]

    def _read_roots(self, rank: int) -> list[tuple[tuple[int, ...], object, object, object]]:
        passed, counts = self._pass, self._layers.counts
        shoes = range(self._first, self._first + self._count)
        first = [j * len(counts[0]) for j in shoes]  # each shoe's one-card hand in the first layer
        hit = passed.hit[0][first].tolist()
        child = int(self._layers.children[0][0, rank])
        after: list[object] = [None] * len(shoes)
        if child >= 0:
            after = passed.best[1][[j * len(counts[1]) + child for j in shoes]].tolist()
        scales = [passed.scales[j][0] for j in shoes]
        if passed.weights is not None:
            scales = [scale * weight for scale, weight in zip(scales, passed.weights[0][first].tolist())]
        return list(zip(passed.shoes[self._first : self._first + self._count], hit, after, scales))


def can_solve_ups(context: UpcardContext) -> bool:
    """Whether :func:`solve_ups` can take this up card's context: float mode, a composition
    shoe, cards drawn without replacement, the compiled loop built."""
    return not context.exact and context.model is None and not context.replacement and player_kernel_available()


def solve_ups(
    contexts: Sequence[UpcardContext], layers: HandLayers, extras: Extras, *, loss: int, limit: int,
    decisions: Sequence[Sequence[np.ndarray]] | None = None, reached: np.ndarray | None = None,
) -> list[PassValues]:
    """:func:`solve_many` of one graph for several up cards at once, each context's hands
    drawing from its shoes ``context.shoe - extras[j]``, in one pass of the compiled loop
    (float mode, composition shoes, cards drawn without replacement; the contexts' dealer
    blackjack rules alike, ``peeked`` and ``double_loss``, each its own blackjack rank): the best plays, or
    with ``decisions`` (one play per up card) those plays with ``roots_only``. Each up card's
    values are those :func:`solve_many` gives it, to the bit: its rows read its own shoes,
    depth and plays; with ``decisions``, a row another up card's play reaches and its own does
    not is worked out too (its value then its play's, or NaN). An 8-deck round against a
    peeking dealer splits a pair in two passes instead of ten (up cards 2 to 9, then A and T),
    and solves its unsplit hands in two.
    ``reached``: only these rows' shoes are registered (:meth:`ShoeIndex.register`), which
    must hold every row the plays reach."""
    first = contexts[0]
    assert all(c.peeked == first.peeked and c.double_loss == first.double_loss and can_solve_ups(c)
               for c in contexts)
    copies = len(extras)
    depth = max(c.depth for c in contexts)
    width = layers.first + len(layers.counts) + depth + 1
    shoes: list[tuple[int, ...]] = []
    scales: list[Sequence[int]] = []
    suffixes = np.zeros((len(contexts) * copies, width))
    for u, context in enumerate(contexts):
        own, own_suffixes = _suffixes(context, layers, extras)
        shoes += own
        scales += [suffix[layers.first : layers.first + len(layers.counts) + 1] for suffix in own_suffixes]
        for j, suffix in enumerate(own_suffixes):
            suffixes[u * copies + j, : len(suffix)] = _float_suffix(suffix)
    # every up card's stand numerators in one read of the joint pass, where they share one
    payoff, columns = _tiled_payoffs(first.rules, layers, copies), first.batch.index.columns(layers, extras, reached)
    stand_in = first.batch.joint_stands([c.batch for c in contexts[1:]], columns, payoff,
                                        [_tiled_pay_columns(first.rules, layers, copies, c.batch) for c in contexts])
    if stand_in is None:
        stand_in = np.concatenate([c.batch.stand_numerators(columns, payoff) for c in contexts])
    can_hit, double_layer = drawing_layers(layers, limit)
    passed = _compiled_pass(
        layers, len(contexts) * copies, shoes, scales, np.array(shoes, dtype=np.int64).reshape(-1, 10), stand_in,
        suffixes, None if decisions is None else np.concatenate([np.ascontiguousarray(flat_rows(d), dtype=np.int64)
                                                                 for d in decisions]),
        bj_rank=-1, peeked=first.peeked, loss=loss, double_loss=first.double_loss, limit=limit,
        double_layer=double_layer, depth=depth, roots_only=decisions is not None,
        depths=np.repeat(np.array([c.depth for c in contexts], dtype=np.int64), copies), per_group=copies,
        bj_ranks=np.repeat(np.array([-1 if c.bj_rank is None else c.bj_rank for c in contexts], dtype=np.int64),
                           copies),
    )
    return [PassValues(passed, context.peeked, layers, can_hit, double_layer, u * copies, copies)
            for u, context in enumerate(contexts)]


def _numpy_pass(
    context: UpcardContext,
    layers: HandLayers,
    extras: Extras,
    loss: int,
    can_hit: list[bool],
    double_layer: int | None,
    may_double: np.ndarray | None,
    decisions: Sequence[np.ndarray] | None,
) -> _Pass:
    """The backward pass over the stacked rows, in numpy (exact mode, and float without the
    compiled loop)."""
    stack = stacked_values(context, layers, extras, loss)
    copies = len(extras)
    stand, draws = stack.stand, stack.draws
    sizes = layers.sizes
    n_layers = len(sizes)
    if copies > 1:
        may_double = None if may_double is None else np.tile(may_double, copies)
        decisions = None if decisions is None else [np.tile(d, copies) for d in decisions]

    double = draws[double_layer].double if double_layer is not None else None
    hit: list[np.ndarray] = [None] * n_layers  # type: ignore[list-item]
    best: list[np.ndarray] = [None] * n_layers  # type: ignore[list-item]
    decision: list[np.ndarray] = [None] * n_layers  # type: ignore[list-item]
    for k in reversed(range(n_layers)):
        d = draws[k]
        after = d.bust if k + 1 == n_layers else np.where(d.busts, d.bust, best[k + 1][d.safe])
        total_hit = (d.left * after).sum(axis=1)
        hit[k] = total_hit
        n = len(total_hit)
        if sizes[k] < 2:  # a one-card split hand always draws
            chosen = np.full(n, Code.HIT)
        elif not can_hit[k]:
            chosen = np.full(n, Code.STAND)
        elif decisions is not None:
            chosen = decisions[k]
        else:
            chosen = np.where(total_hit > stand[k], Code.HIT, Code.STAND)
            if k == double_layer and may_double is not None:
                better = may_double & (double > np.where(chosen == Code.HIT, total_hit, stand[k]))
                chosen = np.where(better, Code.DOUBLE, chosen)
        decision[k] = chosen
        value = np.where(chosen == Code.HIT, total_hit, stand[k])
        if k == double_layer:
            assert double is not None
            value = np.where(chosen == Code.DOUBLE, double, value)
        best[k] = value
    one_card = draws[double_layer].one_card if double_layer is not None else None
    return _Pass(stack.shoes, stack.scales, stand, hit, best, decision, stack.blackjack, double, one_card,
                 stack.weights)


@dataclasses.dataclass(frozen=True)
class _KernelInputs:
    """What the compiled loop reads for one hand graph and several shoes, besides the graph."""

    shoes: list[tuple[int, ...]]
    scales: list[Sequence[int]]
    shoe_rows: np.ndarray  # (copies, 10) int64
    stand: np.ndarray  # the dealer's stand numerators of each hand, over ff(n - size, depth): shoe by shoe, flat rows
    suffixes: np.ndarray  # (copies, top + 1): the shoes' _suffixes as floats
    # a counter's shoe (else None): each row's entry (shoe by shoe, flat rows) in the table of
    # weights of its class totals (:func:`_kernel_weights`)
    weight_row: np.ndarray | None = None
    weights: np.ndarray | None = None


def _kernel_inputs(context: UpcardContext, layers: HandLayers, extras: Extras) -> _KernelInputs:
    """:class:`_KernelInputs` (cached on the context like the numpy stacks): the dealer's stand
    numerators are looked up once per hand and shoe, flat rows shoe by shoe."""
    key = ("kernel", layers.key, extras)
    stacks = context.stacks
    if key not in stacks:
        shoes, suffixes = _suffixes(context, layers, extras)
        columns = context.batch.index.columns(layers, extras)
        stand = context.batch.stand_numerators(columns, _tiled_payoffs(context.rules, layers, len(extras)))
        weight_row = weights = None
        if context.model is not None:
            weight_row, weights = _kernel_weights(context, layers, extras)
        stacks[key] = _KernelInputs(
            shoes=shoes,
            scales=[suffix[layers.first : layers.first + len(layers.counts) + 1] for suffix in suffixes],
            shoe_rows=np.array(shoes, dtype=np.int64).reshape(-1, 10),
            stand=np.ascontiguousarray(stand, dtype=np.float64),
            suffixes=np.array([_float_suffix(suffix) for suffix in suffixes]),
            weight_row=weight_row,
            weights=weights,
        )
    return stacks[key]


def _tiled_payoffs(rules: Rules, layers: HandLayers, copies: int) -> np.ndarray:
    """What each hand of ``layers`` stands on (:func:`_payoffs`), flat rows, ``copies`` times
    over (kept with the graph, read-only)."""
    key = ("payoffs", rules.charlie, copies)
    if key not in layers.derived:
        flat = layers.flat
        payoff = flat.totals if rules.charlie is None else _payoffs(rules, flat.totals,
                                                                    np.asarray(layers.sizes)[flat.layer])
        tiled = np.tile(payoff, copies)
        tiled.flags.writeable = False
        layers.derived[key] = tiled
    return layers.derived[key]  # type: ignore[return-value]


def _tiled_pay_columns(rules: Rules, layers: HandLayers, copies: int, batch: DealerBatch) -> np.ndarray:
    """``batch``'s :meth:`~bjcalc.engine.batch.DealerBatch.pay_columns` of
    :func:`_tiled_payoffs`, kept with the graph (read-only) by the dealer's outcomes, which a
    depleted shoe's analysis shares with the full shoe's."""
    key = ("pay columns", rules.charlie, copies, batch.outcome_key)
    if key not in layers.derived:
        columns = batch.pay_columns(_tiled_payoffs(rules, layers, copies))
        columns.flags.writeable = False
        layers.derived[key] = columns
    return layers.derived[key]  # type: ignore[return-value]


_FLOAT_SUFFIXES: dict[tuple[int, ...], np.ndarray] = {}  # by the (kept) integer suffix, see _float_suffix


def _float_suffix(suffix: tuple[int, ...]) -> np.ndarray:
    """An integer suffix of :func:`_suffix` as floats (float(int) rounds as as_numbers does, and
    overflows alike), kept like the suffixes themselves: a handful of shoe sizes per analysis."""
    floats = _FLOAT_SUFFIXES.get(suffix)
    if floats is None:
        if len(_FLOAT_SUFFIXES) >= 4096:
            _FLOAT_SUFFIXES.clear()
        floats = _FLOAT_SUFFIXES[suffix] = np.array(suffix, dtype=np.float64)
        floats.flags.writeable = False
    return floats


def _kernel_weights(context: UpcardContext, layers: HandLayers, extras: Extras,
                    both: bool = False) -> tuple[np.ndarray, ...]:
    """A counter's shoe in the compiled loop: the class totals of the rows (the up card's, the
    extra cards' and the hand's, as :func:`_stacked_values` weights them; each shoe's distinct
    ones), the entry of each row (shoe by shoe, flat rows) and the table of each entry's
    weights: its own, with the dealer's blackjack card, with each rank drawn, with each rank and
    the blackjack card (the loop's ``WEIGHTS`` columns; the blackjack columns are the others'
    where no up card makes a blackjack, and then never read). ``both``: the table's exact
    weights as well."""
    model = context.model
    assert model is not None
    bj = -1 if context.bj_rank is None else context.bj_rank
    key = ("weight entries", model.of_rank, extras, bj)  # the same for every up card, shoe and count: kept
    if key not in layers.derived:
        hands, of_hand = model.distinct_index(model.codes(layers.flat.counts))
        # the hands' few distinct class totals on each shoe (one entry each, shoe by shoe: shoes
        # that share an entry repeat it, which costs less than finding the repeats), then each
        # row's entry; the entries' codes are kept without the up card's (added per up card)
        codes = model.codes(np.array(extras, dtype=np.int64))[:, None] + hands[None, :]
        ranks = model.rank_codes()
        bj_code = 0 if bj < 0 else int(ranks[bj])
        offsets = np.concatenate([[0, bj_code], ranks, ranks + bj_code])
        entries = codes.reshape(-1, 1) + offsets[None, :]
        rows = (np.arange(len(extras), dtype=np.int64)[:, None] * len(hands) + of_hand[None, :]).reshape(-1)
        for array in (entries, rows):
            array.flags.writeable = False
        layers.derived[key] = entries, rows
    kept: tuple[np.ndarray, np.ndarray] = layers.derived[key]  # type: ignore[assignment]
    relative, rows = kept
    entries = relative + context.base
    table = np.ascontiguousarray(model.weights(entries, False), dtype=np.float64)
    if both:  # the exact weights too (Python ints)
        return rows, table, model.weights(entries, True)
    return rows, table


def _kernel_pass(
    context: UpcardContext,
    layers: HandLayers,
    extras: Extras,
    loss: int,
    limit: int,
    double_layer: int | None,
    may_double: np.ndarray | None,
    decisions: Sequence[np.ndarray] | None,
    inputs: _KernelInputs | None = None,
    roots_only: bool = False,
) -> _Pass:
    """The backward pass in the compiled loop (float mode, and exact mode's plays, with
    ``inputs`` from :func:`_exact_inputs`): the same numbers as :func:`_numpy_pass`, stacked
    the same way (``roots_only``: :func:`solve_many`'s)."""
    if inputs is None:
        inputs = _kernel_inputs(context, layers, extras)
    weighted = None
    if inputs.weights is not None:
        assert inputs.weight_row is not None
        weighted = (inputs.weight_row, inputs.weights)
    return _compiled_pass(
        layers, len(extras), inputs.shoes, inputs.scales, inputs.shoe_rows, inputs.stand, inputs.suffixes,
        None if decisions is None else np.ascontiguousarray(flat_rows(decisions), dtype=np.int64),
        bj_rank=-1 if context.bj_rank is None else context.bj_rank, peeked=context.peeked, loss=loss,
        double_loss=context.double_loss, limit=limit, double_layer=double_layer, depth=context.depth,
        may_double=None if may_double is None else np.ascontiguousarray(may_double, dtype=np.uint8),
        weighted=weighted, roots_only=roots_only,
    )


def _compiled_pass(
    layers: HandLayers, copies: int, shoes: list[tuple[int, ...]], scales: list[Sequence[int]],
    shoe_rows: np.ndarray, stand_in: np.ndarray, suffixes: np.ndarray, decisions: np.ndarray | None, *,
    bj_rank: int, peeked: bool, loss: int, double_loss: int, limit: int, double_layer: int | None, depth: int,
    may_double: np.ndarray | None = None, weighted: tuple[np.ndarray, np.ndarray] | None = None,
    roots_only: bool = False, depths: np.ndarray | None = None, per_group: int = 0, bj_ranks: np.ndarray | None = None,
) -> _Pass:
    """``player_kernel.solve`` over ``copies`` shoes of ``layers`` (its inputs as it takes them:
    ``decisions`` flat, ``weighted`` a counter's shoe's weight rows and table; ``depths``,
    ``per_group`` and ``bj_ranks`` several up cards' copies), its outputs stacked as a
    :class:`_Pass` of ``shoes`` and ``scales``."""
    flat = layers.flat
    n = copies * len(flat.layer)
    stand, blackjack, hit, best = (np.empty(n) for _ in range(4))
    decision = np.empty(n, dtype=np.int64)
    double = one_card = None
    if double_layer is not None:
        width = copies * len(layers.counts[double_layer])
        double, one_card = np.empty(width), np.empty(width)
    weight_out = None if weighted is None else np.empty(n)
    player_kernel.solve(
        np.ascontiguousarray(flat.counts, dtype=np.int64),
        np.ascontiguousarray(flat.children, dtype=np.intp),
        np.ascontiguousarray(flat.starts, dtype=np.int64),
        shoe_rows, stand_in, suffixes, may_double, decisions,
        stand, blackjack, hit, best, decision, double, one_card,
        layers.first, bj_rank, int(peeked), loss, double_loss, limit, -1 if double_layer is None else double_layer,
        depth, *(weighted or (None, None)), weight_out, roots_only, depths, per_group, bj_ranks,
    )
    bounds = (flat.starts * copies).tolist()
    return _Pass(shoes, scales, _Layers(stand, bounds), _Layers(hit, bounds), _Layers(best, bounds),
                 _Layers(decision, bounds), _Layers(blackjack, bounds), double, one_card,
                 None if weight_out is None else _Layers(weight_out, bounds))


# A near tie of the float pass (hit against stand, or double against the better of the two,
# closer than this times the state's scale) is settled in exact integers. The float values are
# within about 1e-13 of the scale of the exact values of the same plays (float mode agrees with
# exact to 1e-12), so every other comparison comes out as it would exactly.
NEAR_TIE = 1e-9
FLOAT_ERROR = 1e-12  # what the float values may be off by, relative to their scale, before any tie
MAX_PRIMES = 256  # the compiled loop's most primes (_player_kernel.c)


@dataclasses.dataclass(frozen=True)
class _ExactInputs:
    """What the exact compiled loop reads besides the graph: the float loop's inputs (for the
    plays) and the same numbers modulo each of ``primes``."""

    floats: _KernelInputs
    primes: np.ndarray  # int64 (P,)
    stand: np.ndarray  # int64 (C, R, P): the dealer's stand numerators
    suffixes: np.ndarray  # int64 (C, top + 1, P)
    weights: np.ndarray | None  # int64 (entries, WEIGHTS, P) for a counter's shoe
    weight_table: np.ndarray | None  # the same weights as Python ints (entries, WEIGHTS)
    scale: np.ndarray  # float: the scale of each stacked row (G_k, times its weight on a counter's shoe)


def _exact_inputs(context: UpcardContext, layers: HandLayers, extras: Extras) -> _ExactInputs | None:
    """:class:`_ExactInputs` (cached on the context for one shoe, like the exact stacks), or
    ``None`` where the floats would overflow (the numpy pass runs instead)."""
    key = ("exact kernel", layers.key, extras)
    stacks = context.stacks
    if key in stacks:
        return stacks[key]
    shoes, suffixes = _suffixes(context, layers, extras)
    flat = layers.flat
    copies, rows = len(extras), len(flat.layer)
    weight_table = None
    biggest_weight = 1
    if context.model is not None:
        weight_row, _, weight_table = _kernel_weights(context, layers, extras, both=True)
        biggest_weight = max(int(abs(w)) for w in weight_table.reshape(-1).tolist()) if weight_table.size else 1
        if biggest_weight >= 2**1000:
            return None  # the floats of the plays would overflow
        # the float loop's weights as the exact ones (not the float mode's, which are divided
        # by the weight of the whole shoe): the exact dealer numerators carry those
        float_table = np.array(weight_table.tolist(), dtype=np.float64).reshape(weight_table.shape)
    # every value is a play's expected result (at most 2 + 2 bets, a doubled bet and what a
    # dealer blackjack takes) times its row's scale, which is at most the largest suffix times
    # the largest weight: residues modulo primes whose product passes twice that bound (the
    # values' signs) determine them
    bound = 16 * max(max(suffix) for suffix in suffixes) * biggest_weight
    primes = primes_above(2 * bound + 1)
    if len(primes) > MAX_PRIMES:
        return None
    payoff = flat.totals if context.rules.charlie is None else _payoffs(
        context.rules, flat.totals, np.asarray(layers.sizes)[flat.layer])
    index = context.batch.index
    columns = np.concatenate([part for extra in extras for part in index.register(layers, extra)])
    standing = context.batch.stand_residues(columns, np.tile(payoff, copies), primes)
    float_suffixes = np.array([[float(x) if x < 2.0**1023 else np.inf for x in suffix] for suffix in suffixes])
    if standing is None or not np.isfinite(float_suffixes).all():
        return None
    stand_floats, stand_residues = standing
    floats = _KernelInputs(
        shoes=shoes,
        scales=[suffix[layers.first : layers.first + len(layers.counts) + 1] for suffix in suffixes],
        shoe_rows=np.array(shoes, dtype=np.int64).reshape(-1, 10),
        stand=np.ascontiguousarray(stand_floats, dtype=np.float64),
        suffixes=float_suffixes,
    )
    weights = None
    if weight_table is not None:
        floats = dataclasses.replace(floats, weight_row=weight_row, weights=float_table)
        weights = np.stack([(weight_table % p).astype(np.int64) for p in primes], axis=-1)  # (entries, WEIGHTS, P)
    # each stacked row's scale in floats: the layer's G_k for its shoe, times the row's weight
    shape = layers.stacked(copies)
    scale = float_suffixes[shape.copy, layers.first + shape.layer]
    if weight_table is not None:
        scale = scale * float_table[weight_row[shape.order], 0]
    inputs = _ExactInputs(
        floats=floats,
        primes=np.array(primes, dtype=np.int64),
        stand=np.ascontiguousarray(stand_residues.reshape(copies, rows, len(primes))),
        suffixes=np.array([[[x % p for p in primes] for x in suffix] for suffix in suffixes], dtype=np.int64),
        weights=weights,
        weight_table=weight_table,
        scale=scale,
    )
    if len(extras) == 1:
        stacks[key] = inputs
    return inputs


def _exact_kernel_pass(
    context: UpcardContext,
    layers: HandLayers,
    extras: Extras,
    loss: int,
    limit: int,
    double_layer: int | None,
    may_double: np.ndarray | None,
    decisions: Sequence[np.ndarray] | None,
) -> _Pass | None:
    """The backward pass of exact mode in the compiled loop: the plays from the float loop,
    each near tie (:data:`NEAR_TIE`) settled in exact integers before the layer above is
    worked out, and the values in residues modulo primes, rebuilt as Python ints where a layer
    is read. The same numbers as :func:`_numpy_pass`; ``None`` where it cannot run (floats
    that overflow)."""
    inputs = _exact_inputs(context, layers, extras)
    if inputs is None:
        return None
    floats = _kernel_pass(context, layers, extras, loss, limit, double_layer, may_double, decisions,
                          inputs=inputs.floats)
    finite = [np.isfinite(_flat_of(a)).all() for a in (floats.hit, floats.stand)]
    if decisions is None and not (all(finite) and np.isfinite(inputs.scale).all()
                                  and (floats.double is None or np.isfinite(floats.double).all())):
        return None  # floats that overflow cannot choose the plays: the numpy pass runs
    flat = layers.flat
    copies, rows = len(extras), len(flat.layer)
    primes = inputs.primes
    n_primes = len(primes)
    # each row's residues side by side (rows, primes): a child's are read together
    stand, blackjack, hit, best, doubled = (np.zeros((copies * rows, n_primes), dtype=np.int64) for _ in range(5))
    decision = _flat_of(floats.decision).copy()
    double = one_card = None
    width = 0
    if double_layer is not None:
        width = len(layers.counts[double_layer])
        double, one_card = (np.zeros((copies * width, n_primes), dtype=np.int64) for _ in range(2))
    bounds = (flat.starts * copies).tolist()
    weight_row = inputs.floats.weight_row
    sizes = layers.sizes
    error = FLOAT_ERROR
    counts = np.ascontiguousarray(flat.counts, dtype=np.int64)
    children = np.ascontiguousarray(flat.children, dtype=np.intp)
    starts = np.ascontiguousarray(flat.starts, dtype=np.int64)
    for k in reversed(range(len(sizes))):
        player_kernel.solve_exact(
            counts, children, starts, inputs.floats.shoe_rows, inputs.stand, inputs.suffixes, primes, decision,
            stand, blackjack, hit, best, doubled, double, one_card, weight_row, inputs.weights,
            layers.first, -1 if context.bj_rank is None else context.bj_rank, int(context.peeked), loss,
            context.double_loss, -1 if double_layer is None else double_layer, context.depth, k,
        )
        if decisions is not None or sizes[k] < 2 or sizes[k] >= limit:
            continue  # the plays are given, or forced
        lo, hi = bounds[k], bounds[k + 1]
        tie = max(NEAR_TIE, 4 * error)
        tolerance = tie * inputs.scale[lo:hi]
        hit_f, stand_f = floats.hit[k], floats.stand[k]
        near = ~(np.abs(hit_f - stand_f) > tolerance)  # NaN counts as near
        doubling = None
        if k == double_layer and may_double is not None:
            assert floats.double is not None
            doubling = np.tile(np.asarray(may_double, dtype=bool), copies)
            near |= doubling & ~(np.abs(floats.double - np.maximum(hit_f, stand_f)) > tolerance)
        at = np.flatnonzero(near)
        if not len(at):
            continue
        rows_at = lo + at
        hit_x = _signed(hit[rows_at], primes)
        stand_x = _signed(stand[rows_at], primes)
        chosen = np.where(hit_x > stand_x, Code.HIT, Code.STAND)
        if doubling is not None:
            assert double is not None
            double_x = _signed(double[at], primes)
            better = doubling[at] & (double_x > np.where(chosen == Code.HIT, hit_x, stand_x))
            chosen = np.where(better, Code.DOUBLE, chosen)
        flips = chosen != decision[rows_at]
        if flips.any():
            # the float values above this layer carry these rows' old plays, off by less than the
            # tie's width: every comparison above allows for that
            error += tie
            fixed = rows_at[flips]
            decision[fixed] = chosen[flips]
            for code, values in ((Code.HIT, hit), (Code.STAND, stand)):
                pick = fixed[chosen[flips] == code]
                best[pick] = values[pick]
            if double is not None:
                pick = chosen[flips] == Code.DOUBLE
                best[fixed[pick]] = double[at[flips][pick]]
    weights = None
    if inputs.weight_table is not None:
        shape = layers.stacked(copies)
        assert weight_row is not None
        weights = _Layers(inputs.weight_table[weight_row[shape.order], 0], bounds)
    del best  # each layer's best value is its hit, stand or double by its decision (_ExactBest)
    stand_layers, hit_layers, decision_layers = (_ExactLayers(stand, primes, bounds), _ExactLayers(hit, primes, bounds),
                                                 _Layers(decision, bounds))
    double_values = None if double is None else _signed(double, primes)
    blackjack_layers: _Layers = (
        _ExactLayers(blackjack, primes, bounds) if context.model is not None
        else _ExactBlackjack(layers, floats.shoes, floats.scales, context.bj_rank, bounds))
    return _Pass(
        floats.shoes, floats.scales, stand_layers, hit_layers,
        _ExactBest(stand_layers, hit_layers, decision_layers, double_values, double_layer, bounds), decision_layers,
        blackjack_layers, double_values, None if one_card is None else _signed(one_card, primes),
        weights,
    )


def _flat_of(layered: Sequence[np.ndarray]) -> np.ndarray:
    """The one array a :class:`_Layers` cuts its layers out of."""
    assert isinstance(layered, _Layers)
    return layered.array


def _signed(residues: np.ndarray, primes: np.ndarray) -> np.ndarray:
    """The integers (an object array of Python ints) in ``(-M / 2, M / 2]``, ``M`` the primes'
    product, with the residues ``residues[:, t]`` modulo ``primes[t]``: rebuilt in the compiled
    loop (the Chinese remainder theorem) as fixed-width two's complement, read by
    ``int.from_bytes``."""
    inverses, product, half = _rebuild_tables(tuple(int(p) for p in primes))
    n, width = len(residues), 4 * len(product)
    out = np.empty((n, len(product)), dtype=np.uint32)
    player_kernel.rebuild(np.ascontiguousarray(residues, dtype=np.int64), primes, inverses, product, half, out)
    raw = out.tobytes()
    values = np.empty(n, dtype=object)
    values[:] = [int.from_bytes(raw[i : i + width], "little", signed=True) for i in range(0, n * width, width)]
    return values


@functools.lru_cache(maxsize=64)
def _rebuild_tables(primes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For :func:`_signed`: the inverses ``p_s^-1 mod p_t`` (s < t) of Garner's algorithm, and
    the primes' product ``M`` and ``M // 2`` as 32-bit limbs, with a sign bit to spare."""
    count = len(primes)
    inverses = np.zeros((count, count), dtype=np.int64)
    for t in range(count):
        for s in range(t):
            inverses[s, t] = pow(primes[s], -1, primes[t])
    product = math.prod(primes)
    limbs = product.bit_length() // 32 + 1

    def as_limbs(x: int) -> np.ndarray:
        return np.frombuffer(x.to_bytes(4 * limbs, "little"), dtype=np.uint32).copy()

    return inverses, as_limbs(product), as_limbs(product // 2)


class _Layers(Sequence):
    """Per-layer arrays cut out of one array when a layer is first read (and kept)."""

    __slots__ = ("_array", "_bounds", "_cut")

    def __init__(self, array: np.ndarray, bounds: list[int]) -> None:
        self._array, self._bounds = array, bounds
        self._cut: dict[int, np.ndarray] = {}  # by layer, as first read

    @property
    def array(self) -> np.ndarray:
        """The array the layers are cut out of."""
        return self._array

    def __len__(self) -> int:
        return len(self._bounds) - 1

    def __getitem__(self, k):
        cut = self._cut.get(k) if isinstance(k, int) else None
        if cut is not None:
            return cut
        if isinstance(k, slice):
            return [self[i] for i in range(len(self))[k]]
        k = range(len(self))[k]  # negative indices count from the end; IndexError past it
        cut = self._cut.get(k)
        if cut is None:
            cut = self._cut[k] = self._build(k)
        return cut

    def _build(self, k: int) -> np.ndarray:
        """Layer ``k`` as read (at its first read)."""
        return self._layer(self._array[self._bounds[k] : self._bounds[k + 1]])

    def _layer(self, rows: np.ndarray) -> np.ndarray:
        """A layer as read, from its rows of the array."""
        return rows


def layer_views(rows: np.ndarray, layers: HandLayers) -> Sequence[np.ndarray]:
    """``rows`` (one entry per flat row of ``layers``) cut into its layers, each a view, as it
    is first read (:func:`flat_rows` gives ``rows`` back)."""
    return _Layers(rows, layers.bounds)


def flat_rows(layers: Sequence[np.ndarray]) -> np.ndarray:
    """Per-layer arrays of one shoe as one array over the graph's flat rows: a float pass's
    own array where the layers are cut out of it whole, one shoe's rows of it where several
    shoes' are (a gather by an index kept with the graph), else the layers joined."""
    if type(layers) is _Layers and layers._bounds[0] == 0 and layers._bounds[-1] == len(layers.array):
        return layers.array
    if type(layers) is ShoeRows and type(layers._arrays) is _Layers:
        return layers._arrays.array[layers._layers_rows()]
    return np.concatenate(list(layers))


class _ExactLayers(_Layers):
    """Per-layer exact values held as residues (rows, primes), rebuilt as Python ints when a
    layer is first read. The residues are below the primes, under 2^31, so they are kept as
    int32: half the memory of the pass's int64 arrays, which an analysis keeps for every hand
    graph it solves (74 MB of an 8-deck exact round)."""

    def __init__(self, residues: np.ndarray, primes: np.ndarray, bounds: list[int]) -> None:
        assert int(primes.max(initial=0)) < 2**31
        super().__init__(residues.astype(np.int32), bounds)
        self._primes = primes

    def _layer(self, rows: np.ndarray) -> np.ndarray:
        return _signed(rows, self._primes)


class _ExactBest(_Layers):
    """The best values of an exact pass, not kept as residues of their own (an 8-deck exact
    round kept 13 MB of them): a layer, when first read, is each row's hit, stand or (the
    two-card layer's rows) double value, by its decision."""

    def __init__(self, stand: _ExactLayers, hit: _ExactLayers, decision: _Layers, double: np.ndarray | None,
                 double_layer: int | None, bounds: list[int]) -> None:
        super().__init__(decision.array, bounds)
        self._stand, self._hit, self._decision = stand, hit, decision
        self._double, self._double_layer = double, double_layer

    def _build(self, k: int) -> np.ndarray:
        chosen = self._decision[k]
        values = np.where(chosen == Code.HIT, self._hit[k], self._stand[k])
        if k == self._double_layer and self._double is not None:
            values = np.where(chosen == Code.DOUBLE, self._double, values)
        return values


class _ExactBlackjack(_Layers):
    """The dealer-blackjack numerators of an exact pass on a composition shoe, not kept as
    residues (13 MB of an 8-deck exact round): a hand of two or more cards in layer ``k``,
    drawing from shoe ``j``, has the blackjack cards it leaves times ``scales[j][k + 1]``, as
    the compiled loop works them out (``bj_left * unit``); none without a blackjack rank."""

    def __init__(self, layers: HandLayers, shoes: Sequence[tuple[int, ...]], scales: Sequence[Sequence[int]],
                 bj_rank: int | None, bounds: list[int]) -> None:
        super().__init__(np.zeros(0), bounds)
        self._layers, self._shoes, self._scales, self._bj_rank = layers, shoes, scales, bj_rank

    def _build(self, k: int) -> np.ndarray:
        counts, size = self._layers.counts[k], self._layers.sizes[k]
        values = np.zeros(len(counts) * len(self._shoes), dtype=object)
        if self._bj_rank is not None and size >= 2:
            held = counts[:, self._bj_rank].tolist()
            values[:] = [(shoe[self._bj_rank] - h) * scale[k + 1]
                         for shoe, scale in zip(self._shoes, self._scales) for h in held]
        return values


def graph_shoe(rules: Rules) -> tuple[int, ...]:
    """The shoe that bounds the hand graphs: the rules' shoe, or for the infinite deck one
    holding as many of each rank as a hand can."""
    return (21,) * 10 if rules.infinite else rules.shoe_counts


def unsplit_layers(rules: Rules) -> HandLayers:
    """The graph of unsplit hands: two or more cards."""
    return hand_layers(graph_shoe(rules), 2, stop_at(rules))


def unsplit_table(context: UpcardContext) -> HandValues:
    """Every unsplit hand's values against the up card: hands of two or more cards, hit/stand
    chosen optimally after the first decision (composition-dependent)."""
    return solve(context, unsplit_layers(context.rules))
