"""The player's hands: stand, hit and double values of every hand at once.

The player's states are the multisets of cards a hand can hold (hard total <= 21). They form a
graph (networkx, compiled to layers by number of cards); the dealer's outcomes for every state
come from one vectorised pass of :mod:`bjcalc.dealer` per up card, shared by every hand graph
that needs it (unsplit hands and split hands alike), and the values from one backward pass over
the layers.

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
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import itertools
import math
from collections.abc import Sequence
from typing import Any

import networkx as nx
import numpy as np

from bjcalc.cards import ACE, TEN, counts_total, hard_total
from bjcalc.dealer import (
    BLACKJACK,
    BUST,
    compiled_dealer,
    kernel_available,
    max_draws,
    outcome_numerators,
)
from bjcalc.errors import InvalidShoeError
from bjcalc.rules import Loss, Rules

STAND, HIT, DOUBLE = 0, 1, 2
CHARLIE = 22  # the payoff of a hand that beats every dealer hand but a blackjack
_PACK = 64 ** np.arange(10, dtype=np.int64)  # a removal vector (counts < 64) as one integer


def player_hand_graph(
    shoe: tuple[int, ...], first_cards: int, stop_at: int, start: tuple[int, ...] | None = None
) -> nx.DiGraph:
    """Hands from ``shoe`` with hard total <= 21, and the draws between them.

    The graph starts from every hand of ``first_cards`` cards, or from the one hand ``start``.
    A hand of ``stop_at`` cards draws no more. Edges carry the drawn ``rank``; draws that bust
    have no edge.
    """
    if start is not None:
        frontier = [start] if _fits(start, shoe) else []
    else:
        frontier = [
            counts
            for combo in itertools.combinations_with_replacement(range(10), first_cards)
            if _fits(counts := tuple(combo.count(r) for r in range(10)), shoe)
        ]
    seen = set(frontier)
    nodes, edges = list(frontier), []
    while frontier:
        next_frontier = []
        for hand in frontier:
            if sum(hand) >= stop_at:
                continue
            hard = hard_total(hand)
            for rank in range(10):
                if hard + rank + 1 > 21 or hand[rank] >= shoe[rank]:
                    continue
                child = hand[:rank] + (hand[rank] + 1,) + hand[rank + 1 :]
                if child not in seen:
                    seen.add(child)
                    nodes.append(child)
                    next_frontier.append(child)
                edges.append((hand, child, {"rank": rank}))
        frontier = next_frontier
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


def _fits(counts: tuple[int, ...], shoe: tuple[int, ...]) -> bool:
    hard = hard_total(counts)
    return hard <= 21 and all(n <= s for n, s in zip(counts, shoe))


@dataclasses.dataclass(frozen=True)
class HandLayers:
    """The hand graph as layers: ``counts[k]`` (hands of ``first + k`` cards, one row each) and
    ``children[k]`` (for each hand and rank, the row of the child in the next layer, -1 = bust)."""

    first: int
    counts: tuple[np.ndarray, ...]
    children: tuple[np.ndarray, ...]
    totals: tuple[np.ndarray, ...]  # best total of each hand
    soft: tuple[np.ndarray, ...]

    @property
    def sizes(self) -> list[int]:
        return [self.first + k for k in range(len(self.counts))]

    @functools.cached_property
    def cells(self) -> list[np.ndarray]:
        """Each hand's chart cell: its total, plus 22 when soft (see bjcalc.strategy)."""
        return [t + 22 * s for t, s in zip(self.totals, self.soft)]

    @functools.cached_property
    def index(self) -> dict[tuple[int, ...], tuple[int, int]]:
        """hand (ten counts) -> (layer, row)."""
        return {
            hand: (layer, row)
            for layer, counts in enumerate(self.counts)
            for row, hand in enumerate(map(tuple, counts.tolist()))
        }

    def rows_in(self, other: HandLayers) -> list[np.ndarray]:
        """For each layer, the row in ``other`` (same number of cards) of each hand, -1 where
        ``other`` does not have it (cached)."""
        maps = self._row_maps
        if id(other) not in maps:
            found = []
            for size, counts in zip(self.sizes, self.counts):
                k = size - other.first
                if not 0 <= k < len(other.counts) or not len(other.counts[k]):
                    found.append(np.full(len(counts), -1, dtype=np.intp))
                    continue
                theirs = other.counts[k] @ _PACK
                order = np.argsort(theirs)
                mine = counts @ _PACK
                at = order[np.minimum(np.searchsorted(theirs[order], mine), len(order) - 1)]
                found.append(np.where(theirs[at] == mine, at, -1).astype(np.intp))
            maps[id(other)] = (other, found)
        return maps[id(other)][1]

    @functools.cached_property
    def _row_maps(self) -> dict[int, tuple[HandLayers, list[np.ndarray]]]:
        return {}

    def stacked(self, copies: int) -> _StackShape:
        """The rows of ``copies`` shoes stacked layer by layer, shoe by shoe (cached)."""
        shapes = self._shapes
        if copies not in shapes:
            shapes[copies] = _StackShape.build(self.flat, self.sizes, copies)
        return shapes[copies]

    @functools.cached_property
    def _shapes(self) -> dict[int, _StackShape]:
        return {}

    @functools.cached_property
    def flat(self) -> _FlatLayers:
        """Every layer's rows stacked, for work that is the same in every layer."""
        lengths = [len(c) for c in self.counts]
        return _FlatLayers(
            counts=np.concatenate(self.counts),
            totals=np.concatenate(self.totals),
            children=np.concatenate(self.children),
            layer=np.repeat(np.arange(len(lengths)), lengths),
            starts=np.cumsum([0] + lengths),
        )


@dataclasses.dataclass(frozen=True)
class _StackShape:
    """Where each row of a stack of shoes comes from, and what does not depend on the shoes."""

    order: np.ndarray  # stacked row -> shoe * rows + flat row
    copy: np.ndarray  # the shoe of each stacked row
    layer: np.ndarray
    counts: np.ndarray
    size: np.ndarray  # cards held
    totals: np.ndarray
    busts: np.ndarray  # (rows, 10): the draw busts
    safe: np.ndarray  # (rows, 10): the child's stacked row in the next layer (0 where it busts)
    starts: np.ndarray  # first stacked row of each layer, and the number of rows

    def split(self, array: np.ndarray) -> list[np.ndarray]:
        """``array`` (one entry per stacked row) cut into its layers."""
        return [array[a:b] for a, b in zip(self.starts[:-1], self.starts[1:])]

    @classmethod
    def build(cls, flat: _FlatLayers, sizes: list[int], copies: int) -> _StackShape:
        n_rows = len(flat.layer)
        shoe, row = np.divmod(np.arange(copies * n_rows), n_rows)
        order = np.lexsort((row, shoe, flat.layer[row]))  # by layer, then shoe, then row
        copy, row = shoe[order], row[order]
        layer = flat.layer[row]
        children = flat.children[row]
        busts = children < 0
        widths = np.diff(flat.starts).tolist() + [0]  # rows per layer, per shoe
        block = (copy * np.array(widths)[layer + 1])[:, None]  # the shoe's block of the next layer
        return cls(order=order, copy=copy, layer=layer, counts=flat.counts[row],
                   size=np.asarray(sizes)[layer], totals=flat.totals[row], busts=busts,
                   safe=np.where(busts, 0, children + block), starts=flat.starts * copies)


@dataclasses.dataclass(frozen=True)
class _FlatLayers:
    counts: np.ndarray  # (rows, 10)
    totals: np.ndarray
    children: np.ndarray  # (rows, 10): child row in the next layer, -1 = bust
    layer: np.ndarray  # the layer of each row
    starts: np.ndarray  # first row of each layer, and the number of rows


# a hand (hard total <= 21) holds at most 21 aces, 10 twos, ..., 2 tens
_MOST_HELD = tuple(21 // (rank + 1) for rank in range(10))


def hand_layers(
    shoe: tuple[int, ...], first_cards: int, stop_at: int, start: tuple[int, ...] | None = None
) -> HandLayers:
    """The hand graph of :func:`player_hand_graph` as layers, rows sorted within each layer.

    Every graph here is a part of one graph, every hand from one card: the hands of at least
    ``first_cards`` cards, or the hands holding ``start`` (all that can be drawn to from it).
    That graph is compiled once and the parts are cut out of its layers. The shoe matters only
    where it holds fewer cards of a rank than a hand can, so the graphs are cached under the
    shoe capped at that: the depleted shoes of a large shoe share one graph."""
    capped = tuple(min(n, most) for n, most in zip(shoe, _MOST_HELD))
    return _hand_layers(capped, first_cards, stop_at, start)


@functools.lru_cache(maxsize=64)
def _hand_layers(
    shoe: tuple[int, ...], first_cards: int, stop_at: int, start: tuple[int, ...] | None
) -> HandLayers:
    whole = _all_hands(shoe, stop_at)
    if start is None:
        keep: list[np.ndarray] = [np.ones(len(c), dtype=bool) for c in whole.counts]
        first = first_cards
    else:
        need = np.array(start, dtype=np.int64)
        keep = [np.asarray((c >= need[None, :]).all(axis=1)) for c in whole.counts]
        first = sum(start)
    layers = list(range(first - 1, len(whole.counts)))
    while len(layers) > 1 and not keep[layers[-1]].any():
        layers.pop()  # no hand that long
    renumber = [np.cumsum(k) - 1 for k in keep] + [np.zeros(0, dtype=np.intp)]
    counts, children, totals, softs = [], [], [], []
    for k in layers:
        rows = keep[k]
        kids = whole.children[k][rows]
        if k + 1 < len(whole.counts):
            kids = np.where(kids >= 0, renumber[k + 1][np.maximum(kids, 0)], -1)
        counts.append(whole.counts[k][rows])
        children.append(kids.astype(np.intp))
        totals.append(whole.totals[k][rows])
        softs.append(whole.soft[k][rows])
    return HandLayers(first, tuple(counts), tuple(children), tuple(totals), tuple(softs))


@functools.lru_cache(maxsize=16)
def _all_hands(shoe: tuple[int, ...], stop_at: int) -> HandLayers:
    """Every hand from one card: :func:`player_hand_graph` compiled to layers."""
    graph = player_hand_graph(shoe, 1, stop_at)
    by_size: dict[int, list[tuple[int, ...]]] = {}
    for hand in graph:
        by_size.setdefault(sum(hand), []).append(hand)
    sizes = range(1, max(by_size, default=1) + 1)
    hands = [sorted(by_size.get(size, [])) for size in sizes]
    row_of = {hand: row for layer in hands for row, hand in enumerate(layer)}
    counts, children, totals, softs = [], [], [], []
    for layer in hands:
        kids = np.full((len(layer), 10), -1, dtype=np.intp)
        for row, hand in enumerate(layer):
            for child, edge in graph.adj[hand].items():
                kids[row, edge["rank"]] = row_of[child]
        counts.append(np.array(layer, dtype=np.int64).reshape(-1, 10))
        children.append(kids)
        both = [counts_total(hand) for hand in layer]
        totals.append(np.array([t for t, _ in both], dtype=np.int64))
        softs.append(np.array([s for _, s in both], dtype=bool))
    return HandLayers(1, tuple(counts), tuple(children), tuple(totals), tuple(softs))


def as_numbers(array: np.ndarray | Sequence[Any], exact: bool) -> np.ndarray:
    """Integers (an integer array, or nested lists of Python ints) as Python ints in an object
    array (exact mode) or as float64.

    Lists never pass through ``np.asarray`` in exact mode: numpy types ``[2**63, 5]`` as
    float64 (uint64 and int64 promote to float), which silently rounds the big integers.
    """
    if not exact:
        return np.asarray(array).astype(np.float64)
    if isinstance(array, np.ndarray):
        if array.dtype.kind not in "iub" and array.dtype != object:
            raise TypeError(f"exact numbers must be integers, not {array.dtype}")
        return array.astype(object)
    out = np.array(array, dtype=object)
    if not all(isinstance(x, int) for x in out.flat):
        raise TypeError("exact numbers must be integers")
    return out


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)``."""
    if k <= 0:
        return 1
    if n >= k:
        return math.perm(n, k)
    return 0 if n >= 0 else math.prod(range(n, n - k, -1))


def stop_at(rules: Rules) -> int:
    """The number of cards at which a hand stops drawing (charlie or card limit)."""
    return min(n for n in (rules.charlie, rules.player_max_cards, 99) if n is not None)


@functools.lru_cache(maxsize=1)
def _background() -> concurrent.futures.ThreadPoolExecutor:
    """One thread for dealer passes started ahead of need (:meth:`UpCard.start_dealer`)."""
    return concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bjcalc-ahead")


class ShoeIndex:
    """Column numbers for the shoes the hands leave, as removal vectors (cards taken out of the
    shoe after the up card). The vectors a hand graph leaves do not depend on the up card, so
    one index serves every up card of an analysis and each up card evaluates its dealer on
    the rows it has not seen yet."""

    def __init__(self) -> None:
        self._table: dict[int, int] = {}  # packed row -> column
        self._chunks: list[np.ndarray] = []  # the rows, in column order, as added
        self._registered: dict[tuple[int, tuple[int, ...]], tuple[HandLayers, list[np.ndarray]]] = {}

    def __len__(self) -> int:
        return len(self._table)

    def rows(self, start: int) -> np.ndarray:
        """The rows of columns ``start`` onwards."""
        if len(self._chunks) > 1:
            self._chunks = [np.concatenate(self._chunks)]
        return self._chunks[0][start:] if self._chunks else np.zeros((0, 10), dtype=np.int64)

    def columns(self, removed: np.ndarray) -> np.ndarray:
        """The column of each row of ``removed``, adding the rows not seen before."""
        removed = np.asarray(removed, dtype=np.int64).reshape(-1, 10)
        table, out, new = self._table, [], []
        for i, key in enumerate((removed @ _PACK).tolist()):
            column = table.get(key)
            if column is None:
                column = table[key] = len(table)
                new.append(i)
            out.append(column)
        if new:
            self._chunks.append(removed[new])
        return np.array(out, dtype=np.intp)

    def register(self, layers: HandLayers, extra: tuple[int, ...]) -> list[np.ndarray]:
        """The columns of the shoes every hand of ``layers`` leaves with ``extra`` also removed."""
        key = (id(layers), extra)
        if key not in self._registered:
            extra_row = np.array(extra, dtype=np.int64)
            self._registered[key] = (layers, [self.columns(c + extra_row) for c in layers.counts])
        return self._registered[key][1]


class UpCard:
    """Everything that depends on the up card: the shoe after it, the dealer graph, and the
    dealer outcomes of every shoe the player's hands leave, evaluated in batches."""

    def __init__(self, rules: Rules, up: int, exact: bool, index: ShoeIndex | None = None) -> None:
        """``index``: the shoe index to share with the other up cards of one analysis."""
        full = rules.shoe_counts
        if full[up] == 0:
            raise InvalidShoeError(f"up card {'A23456789T'[up]!r} is not in the shoe")
        self.rules, self.up, self.exact = rules, up, exact
        self.shoe = full[:up] + (full[up] - 1,) + full[up + 1 :]
        self.dealer = compiled_dealer(up, rules.hit_soft_17, rules.dealer_max_cards)
        self.depth = max_draws(self.dealer, self.shoe)
        self.bj_rank = {ACE: TEN, TEN: ACE}.get(up)
        self.peeked = rules.peek and self.bj_rank is not None
        takes = rules.blackjack_takes
        self.double_loss = 1 if takes.doubles(up) is Loss.ALL else 0
        self.split_loss = 1 if takes.splits(up) is Loss.ALL else 0
        self.index = ShoeIndex() if index is None else index
        self.split_hands: dict[tuple, Any] = {}  # split-hand values of fixed charts (bjcalc.split)
        self._stacks: dict[tuple, tuple[HandLayers, _Stack]] = {}
        self._codes = np.array(self.dealer.outcomes)
        self._matrix: np.ndarray | None = None  # dealer numerators, (column, outcome)
        self._stand_table: np.ndarray | None = None  # float: (column, payoff) stand numerators
        # what a hand standing on each payoff (total 0..21, CHARLIE) wins per dealer outcome
        self._pay = np.sign(np.arange(CHARLIE + 1)[None, :] - self._codes[:, None])
        self._pay[self._codes == BUST] = 1
        self._pay[:, CHARLIE] = 1
        self._pay[self._codes == BLACKJACK] = 0
        self._evaluated = 0
        self._pending: tuple[concurrent.futures.Future, int] | None = None  # see start_dealer

    def register(self, layers: HandLayers, extra: tuple[int, ...]) -> list[np.ndarray]:
        """Register the shoes every hand of ``layers`` leaves (with ``extra`` also removed);
        returns their column numbers, layer by layer."""
        return self.index.register(layers, extra)

    def stacked_values(self, layers: HandLayers, extras: tuple[tuple[int, ...], ...], loss: int) -> _Stack:
        """What does not depend on the player's decisions, for the hands of ``layers`` drawing
        from each shoe ``up.shoe - extras[j]`` (cached): the shoes, the layer scales, and the
        stand, doubled-stand and dealer-blackjack numerators and the draws of every hand, the
        shoes' rows stacked layer by layer (layer ``k`` holds shoe 0's rows, then shoe 1's...;
        child rows point into the same shoe's block of the next layer)."""
        key = (id(layers), extras, loss)
        if key not in self._stacks:
            self._stacks[key] = (layers, self._stacked_values(layers, extras, loss))
        return self._stacks[key][1]

    def stand_values(self, layers: HandLayers, extra: tuple[int, ...], loss: int):
        """:meth:`stacked_values` of one shoe: (shoe, scales, stand, blackjack, draws)."""
        stack = self.stacked_values(layers, (extra,), loss)
        return stack.shoes[0], stack.scales[0], stack.stand, stack.blackjack, stack.draws

    def _stacked_values(self, layers: HandLayers, extras: tuple[tuple[int, ...], ...], loss: int) -> _Stack:
        up = self
        rules, exact = up.rules, up.exact
        sizes = layers.sizes
        deepest = sizes[-1] + 1  # cards held after the last possible draw
        top = deepest + up.depth
        shoes = [tuple(s - e for s, e in zip(up.shoe, extra)) for extra in extras]
        scales, units, lifts = [], [], []
        for shoe in shoes:
            n0 = sum(shoe)
            if n0 < deepest + up.depth:
                raise InvalidShoeError(
                    f"shoe {','.join(map(str, rules.shoe_counts))} is too small: a round could run out of cards"
                )
            # suffix[s] = (n0 - s) (n0 - s - 1) ... (n0 - top + 1) = ff(n0 - s, top - s)
            suffix = [1] * (top + 1)
            for s in range(top - 1, -1, -1):
                suffix[s] = suffix[s + 1] * (n0 - s)
            scales.append([suffix[size] for size in sizes + [deepest]])
            # P(dealer blackjack) * scale[k] = (cards of the blackjack rank left) * bj_unit[k]
            units.append([suffix[size + 1] for size in sizes + [deepest]])
            # the dealer numerators are over ff(n0 - size, depth); lift brings them to the
            # layer's scale. One-card split hands never stand.
            lifts.append([suffix[k + up.depth] if k >= 2 else 0 for k in sizes])

        # rows in stacked order: layer by layer, and within a layer shoe by shoe
        shape = layers.stacked(len(extras))
        order, copy, layer, counts, size = shape.order, shape.copy, shape.layer, shape.counts, shape.size
        shoe_rows = np.array(shoes, dtype=np.int64)[copy]  # (rows, 10)
        scale_of = as_numbers(scales, exact)  # (copies, layers + 1)
        unit_of = as_numbers(units, exact)

        payoff = shape.totals
        if rules.charlie is not None:
            payoff = np.where(size >= rules.charlie, CHARLIE, payoff)
        columns = np.concatenate([np.concatenate(up.register(layers, extra)) for extra in extras])[order]
        not_blackjack = up.stand_numerators(columns, payoff) * as_numbers(lifts, exact)[copy, layer]
        if up.bj_rank is None:
            bj = as_numbers(np.zeros(len(order), dtype=np.int64), exact)
        else:
            bj = as_numbers((shoe_rows[:, up.bj_rank] - counts[:, up.bj_rank]) * (size >= 2), exact)
            bj = bj * unit_of[copy, layer]
        if up.peeked:
            stand_all, doubled_all = not_blackjack, not_blackjack * 2
        else:
            stand_all = not_blackjack - bj * loss
            doubled_all = not_blackjack * 2 - bj * (loss + up.double_loss)

        # the draws of every row: cards left per rank, where a draw busts, and its value
        left_all = as_numbers(np.maximum(shoe_rows - counts, 0), exact)
        g = scale_of[copy, layer + 1][:, None]
        if up.bj_rank is None:  # one column for every draw: it is the same for all ranks
            child_bj_all = as_numbers(np.zeros((len(order), 1), dtype=np.int64), exact)
        else:
            bj_left = shoe_rows[:, up.bj_rank] - counts[:, up.bj_rank]
            bj_is = np.arange(10) == up.bj_rank
            child_bj_all = as_numbers(bj_left[:, None] - bj_is[None, :], exact) * unit_of[copy, layer + 1][:, None]
        if up.peeked:
            bust_all = -(g - child_bj_all)
            bust_doubled_all = bust_all * 2
        else:
            bust_all = -(g - child_bj_all) - child_bj_all * loss
            bust_doubled_all = -(g - child_bj_all) * 2 - child_bj_all * (loss + up.double_loss)
        busts_all, safe_all = shape.busts, shape.safe
        split = shape.split
        stand, stand_doubled, blackjack = split(stand_all), split(doubled_all), split(bj)
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
        return _Stack(shoes, scales, stand, blackjack, draws)

    def start_dealer(self) -> None:
        """Start evaluating the dealer on the registered shoes in a background thread (float
        mode with the compiled loop, which releases the GIL), so that the work overlaps with
        whatever Python does next; :meth:`_evaluate` collects it."""
        if self.exact or self._pending is not None or not kernel_available():
            return
        if len(self.index) > self._evaluated:
            end = len(self.index)
            future = _background().submit(self._dealer_block, self.index.rows(self._evaluated))
            self._pending = (future, end)

    def _dealer_block(self, removed: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Dealer numerators of the shoes ``removed`` (rows: outcomes in ``_codes`` order) and,
        in float mode, their stand numerators of every payoff."""
        batch, _ = outcome_numerators(self.dealer, self.shoe, removed, self.depth, self.exact)
        block = np.stack([batch[o] for o in self._codes], axis=1)
        # einsum, not @: a BLAS product would start BLAS threads that spin on the cores
        table = None if self.exact else np.einsum("no,ot->nt", block, self._pay.astype(np.float64))
        return block, table

    def _evaluate(self) -> None:
        """Evaluate the dealer on the registered shoes not evaluated yet."""
        blocks = []
        if self._pending is not None:
            future, self._evaluated = self._pending
            self._pending = None
            blocks.append(future.result())
        if len(self.index) > self._evaluated:
            blocks.append(self._dealer_block(self.index.rows(self._evaluated)))
            self._evaluated = len(self.index)
        for block, table in blocks:
            self._matrix = block if self._matrix is None else np.concatenate([self._matrix, block])
            if table is not None:
                self._stand_table = table if self._stand_table is None else np.concatenate([self._stand_table, table])

    def outcome_matrix(self, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Dealer outcome numerators (over ``ff(cards left, depth)``) of registered columns:
        the outcome codes and a (columns, outcomes) array."""
        self._evaluate()
        if self._matrix is None:
            dtype = object if self.exact else np.float64
            return self._codes, np.zeros((len(columns), len(self._codes)), dtype=dtype)
        return self._codes, self._matrix[columns]

    def stand_numerators(self, columns: np.ndarray, payoff: np.ndarray) -> np.ndarray:
        """E[result of standing; no dealer blackjack], as numerators over ``ff(cards left,
        depth)``, for the registered shoes ``columns`` and payoffs ``payoff`` (a hand's total,
        or :data:`CHARLIE` for a hand that beats everything but a dealer blackjack). In float
        mode every shoe's value of every payoff is tabled once (one matrix product)."""
        if self.exact or not len(columns):
            _, matrix = self.outcome_matrix(columns)
            return (matrix * as_numbers(self._pay[:, payoff].T, self.exact)).sum(axis=1)
        self._evaluate()
        assert self._stand_table is not None  # tabled by every float dealer block
        return self._stand_table[columns, payoff]

    def outcomes(self, columns: np.ndarray) -> dict[int, np.ndarray]:
        """Dealer outcome numerators (over ``ff(cards left, depth)``) of registered columns."""
        codes, matrix = self.outcome_matrix(columns)
        return {int(o): matrix[:, i] for i, o in enumerate(codes)}


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
    scales: list[list[int]]
    stand: Sequence[np.ndarray]
    blackjack: Sequence[np.ndarray]
    draws: list[_Draws]


class _ShoePart(Sequence):
    """Shoe ``j``'s rows of stacked per-layer arrays, cut out when a layer is read."""

    def __init__(self, arrays: Sequence[np.ndarray], layers: HandLayers, j: int) -> None:
        self._arrays, self._layers, self._j = arrays, layers, j

    def __len__(self) -> int:
        return len(self._arrays)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(len(self))[k]]
        rows = len(self._layers.counts[k])
        return self._arrays[k][self._j * rows : (self._j + 1) * rows]


@dataclasses.dataclass
class Solved:
    """Values of every hand of a hand graph against one up card.

    ``stand[k]``, ``hit[k]``, ``best[k]`` are arrays of numerators over ``scale[k]``;
    ``double`` is for the two-card layer (or ``None``); ``blackjack[k]`` is P(dealer blackjack)
    times ``scale[k]``; ``decision[k]`` the play chosen in each state (STAND, HIT, DOUBLE).
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


def solve(
    up: UpCard,
    layers: HandLayers,
    extra: tuple[int, ...] = (0,) * 10,
    *,
    loss: int = 1,
    limit: int | None = None,
    may_double: np.ndarray | None = None,
    decisions: Sequence[np.ndarray] | None = None,
) -> Solved:
    """Stand/hit/double values of every hand in ``layers`` drawing from ``up.shoe - extra``.

    ``loss``: what a no-hole-card dealer blackjack takes of the hand's base bet (1, or 0 for a
    split hand whose bet the rules return). ``may_double``: which two-card hands may double as
    part of their play (split hands with DAS); unsplit hands double only as a first decision,
    made outside. ``decisions``: a fixed play per state (else the best one is chosen).
    ``limit``: the number of cards at which the hand stops drawing (default: the rules').
    """
    return solve_many(up, layers, (extra,), loss=loss, limit=limit, may_double=may_double,
                      decisions=decisions)[0]


def solve_many(
    up: UpCard,
    layers: HandLayers,
    extras: tuple[tuple[int, ...], ...],
    *,
    loss: int = 1,
    limit: int | None = None,
    may_double: np.ndarray | None = None,
    decisions: Sequence[np.ndarray] | None = None,
) -> list[Solved]:
    """:func:`solve` for the same hands drawing from several shoes ``up.shoe - extras[j]``, in
    one backward pass: the shoes' rows are stacked layer by layer (each row's numerators keep
    their own shoe's scale, and no operation mixes rows of different shoes). ``may_double``
    and ``decisions`` are per hand of ``layers``, the same for every shoe."""
    rules = up.rules
    stack = up.stacked_values(layers, tuple(extras), loss)
    copies = len(extras)
    stand, draws = stack.stand, stack.draws
    sizes = layers.sizes
    n_layers = len(sizes)
    if copies > 1:
        may_double = None if may_double is None else np.tile(may_double, copies)
        decisions = None if decisions is None else [np.tile(d, copies) for d in decisions]

    limit = stop_at(rules) if limit is None else limit
    can_hit = [size < limit for size in sizes]
    double_layer = sizes.index(2) if 2 in sizes and can_hit[sizes.index(2)] else None
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
            chosen = np.full(n, HIT)
        elif not can_hit[k]:
            chosen = np.full(n, STAND)
        elif decisions is not None:
            chosen = decisions[k]
        else:
            chosen = np.where(total_hit > stand[k], HIT, STAND)
            if k == double_layer and may_double is not None:
                better = may_double & (double > np.where(chosen == HIT, total_hit, stand[k]))
                chosen = np.where(better, DOUBLE, chosen)
        decision[k] = chosen
        value = np.where(chosen == HIT, total_hit, stand[k])
        if k == double_layer:
            assert double is not None
            value = np.where(chosen == DOUBLE, double, value)
        best[k] = value

    out = []
    for j, (shoe, scale) in enumerate(zip(stack.shoes, stack.scales)):
        def part(arrays: Sequence[np.ndarray], j: int = j) -> Sequence[np.ndarray]:
            return arrays if copies == 1 else _ShoePart(arrays, layers, j)

        def part_of(array: np.ndarray | None, k: int | None, j: int = j) -> np.ndarray | None:
            if array is None or k is None or copies == 1:
                return array
            rows = len(layers.counts[k])
            return array[j * rows : (j + 1) * rows]

        one_card = draws[double_layer].one_card if double_layer is not None else None
        out.append(Solved(
            layers=layers,
            shoe=shoe,
            peeked=up.peeked,
            scale=scale,
            stand=part(stand),
            hit=part(hit),
            best=part(best),
            decision=part(decision),
            can_hit=can_hit,
            double=part_of(double, double_layer),
            double_layer=double_layer,
            blackjack=part(stack.blackjack),
            one_card=part_of(one_card, double_layer),
        ))
    return out


def unsplit_layers(rules: Rules) -> HandLayers:
    """The graph of unsplit hands: two or more cards."""
    return hand_layers(rules.shoe_counts, 2, stop_at(rules))


def unsplit_table(up: UpCard) -> Solved:
    """Every unsplit hand's values against the up card: hands of two or more cards, hit/stand
    chosen optimally after the first decision (composition-dependent)."""
    return solve(up, unsplit_layers(up.rules))
