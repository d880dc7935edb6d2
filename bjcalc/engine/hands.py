"""The player's hands: every multiset of cards a hand can hold (hard total <= 21) and the draws
between them.

The hands form a graph (networkx: it is the natural model of "hands and draws"), compiled once
to layers by number of cards (:class:`HandLayers`): flat numpy arrays of each hand's counts,
total, softness and, per rank drawn, the row of the child hand in the next layer. The backward
passes of :mod:`bjcalc.engine.values` see only those arrays.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from bjcalc.cards import SOFT_CELL, counts_total, hard_total
from bjcalc.engine import store
from bjcalc.kept import Kept

if TYPE_CHECKING:
    import networkx as nx

PACK = 64 ** np.arange(10, dtype=np.int64)  # a removal vector (counts < 64) as one integer
REPLAYS_KEPT = 16  # the shoe-index states a graph keeps what registering it did from (HandLayers.replays)


def player_hand_graph(
    shoe: tuple[int, ...], first_cards: int, stop_at: int, start: tuple[int, ...] | None = None
) -> nx.DiGraph:
    """Hands from ``shoe`` with hard total <= 21, and the draws between them.

    The graph starts from every hand of ``first_cards`` cards, or from the one hand ``start``.
    A hand of ``stop_at`` cards draws no more. Edges carry the drawn ``rank``; draws that bust
    have no edge.
    """
    import networkx as nx  # only when a graph is compiled, not when its layers are loaded

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


# what builds a graph, and so names it (:func:`hand_layers`): the shoe (capped), the cards of
# its smallest hands, the cards at which a hand stops drawing, and the hand it grows from
LayersKey = tuple[tuple[int, ...], int, int, "tuple[int, ...] | None"]


@dataclasses.dataclass(frozen=True, eq=False)
class HandLayers:
    """The hand graph as layers: ``counts[k]`` (hands of ``first + k`` cards, one row each) and
    ``children[k]`` (for each hand and rank, the row of the child in the next layer, -1 = bust).

    ``key`` is the value that built the graph: graphs with equal keys are equal, so what is
    worked out for one graph is kept under its key (never its ``id``)."""

    first: int
    counts: tuple[np.ndarray, ...]
    children: tuple[np.ndarray, ...]
    totals: tuple[np.ndarray, ...]  # best total of each hand
    soft: tuple[np.ndarray, ...]
    key: LayersKey

    @functools.cached_property
    def sizes(self) -> tuple[int, ...]:
        """The number of cards of each layer's hands (read on every pass: kept)."""
        return tuple(self.first + k for k in range(len(self.counts)))

    @functools.cached_property
    def cells(self) -> list[np.ndarray]:
        """Each hand's chart cell: its total, plus :data:`~bjcalc.cards.SOFT_CELL` when soft
        (see bjcalc.chart)."""
        return [t + SOFT_CELL * s for t, s in zip(self.totals, self.soft)]

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
        if other.key not in maps:
            found = []
            for size, counts in zip(self.sizes, self.counts):
                k = size - other.first
                if not 0 <= k < len(other.counts) or not len(other.counts[k]):
                    found.append(np.full(len(counts), -1, dtype=np.intp))
                    continue
                theirs = other.counts[k] @ PACK
                order = np.argsort(theirs)
                mine = counts @ PACK
                at = order[np.minimum(np.searchsorted(theirs[order], mine), len(order) - 1)]
                found.append(np.where(theirs[at] == mine, at, -1).astype(np.intp))
            maps[other.key] = found
        return maps[other.key]

    @functools.cached_property
    def _row_maps(self) -> dict[LayersKey, list[np.ndarray]]:
        return {}

    @functools.cached_property
    def derived(self) -> dict[tuple, object]:
        """Arrays other modules derive from this graph alone (with a rule or another graph),
        kept with the graph under their own keys, read-only."""
        return {}

    @functools.cached_property
    def replays(self) -> Kept[tuple]:
        """What registering this graph's shoes did to a shoe index, by the index's state
        (:class:`bjcalc.engine.batch.ShoeIndex`): kept with the graph, so it goes with it, a
        few states at most."""
        return Kept(REPLAYS_KEPT)

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
    def bounds(self) -> list[int]:
        """The first flat row of each layer, and the number of rows, as a list (kept)."""
        return self.flat.starts.tolist()

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
    def build(cls, flat: _FlatLayers, sizes: Sequence[int], copies: int) -> _StackShape:
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
        # the ranks ``start`` holds decide (a split hand's: one), not all ten columns
        held = [(rank, n) for rank, n in enumerate(start) if n]
        keep = []
        for c in whole.counts:
            kept = np.ones(len(c), dtype=bool)
            for rank, n in held:
                kept &= c[:, rank] >= n
            keep.append(kept)
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
    return HandLayers(first, tuple(counts), tuple(children), tuple(totals), tuple(softs), (shoe, first, stop_at, start))


@functools.lru_cache(maxsize=16)
def _all_hands(shoe: tuple[int, ...], stop_at: int) -> HandLayers:
    """Every hand from one card: :func:`player_hand_graph` compiled to layers; cached in memory
    and on disk (:mod:`bjcalc.engine.store`)."""
    return store.load_or_build(
        f"hands-{'-'.join(map(str, shoe))}-stop{stop_at}", _DIGEST,
        lambda: _compile_hands(shoe, stop_at), _layers_arrays,
        lambda arrays: _layers_from_arrays(arrays, (shoe, 1, stop_at, None)),
    )


_DIGEST = store.source_digest(__file__)


def _layers_arrays(layers: HandLayers) -> dict[str, np.ndarray]:
    return {
        "first": np.array([layers.first]),
        "rows": np.array([len(c) for c in layers.counts], dtype=np.int64),
        "counts": np.concatenate(layers.counts),
        "children": np.concatenate(layers.children),
        "totals": np.concatenate(layers.totals),
        "soft": np.concatenate(layers.soft),
    }


def _layers_from_arrays(arrays: dict[str, np.ndarray], key: LayersKey) -> HandLayers:
    cut = np.cumsum(arrays["rows"])[:-1]
    counts, children, totals, soft = (
        tuple(np.split(arrays[key].astype(dtype), cut))
        for key, dtype in (("counts", np.int64), ("children", np.intp), ("totals", np.int64), ("soft", bool))
    )
    return HandLayers(int(arrays["first"][0]), counts, children, totals, soft, key)


def _compile_hands(shoe: tuple[int, ...], stop_at: int) -> HandLayers:
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
    return HandLayers(1, tuple(counts), tuple(children), tuple(totals), tuple(softs), (shoe, 1, stop_at, None))
