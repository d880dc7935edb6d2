"""Every up card's dealer graph as one graph, evaluated in one pass per shoe for all up cards.

The per-up-card graphs of :mod:`bjcalc.engine.dealer` share their states once the up card is
counted among the dealer's cards; :class:`JointDealer` is that shared graph, compiled from them
(and kept in :mod:`bjcalc.engine.store` like them), and :func:`joint_numerators` runs it in the
compiled loop in floats (:func:`bjcalc.engine.kernels.joint_kernel_available`),
:func:`joint_exact_halves` in 128-bit integers (:func:`bjcalc.engine.kernels.joint_exact_available`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from bjcalc.cards import BUST
from bjcalc.engine import dealer, store
from bjcalc.engine.dealer import compiled_dealer
from bjcalc.engine.kernels import dealer_kernel, joint_exact_available
from bjcalc.engine.pools import in_parts
from bjcalc.engine.residues import joint_fits_128_bits

if TYPE_CHECKING:
    from bjcalc.engine.drawmodel import DrawModel

_DIGEST = store.source_digest(__file__, dealer.__file__)  # built from the up cards' compiled graphs


@dataclasses.dataclass(frozen=True)
class JointDealer:
    """Every up card's dealer graph as one graph, for one pass per shoe for all up cards
    (the compiled loop ``joint``; float mode).

    A node is a multiset ``F`` of the dealer's cards *with* the up card. Its outcome, and
    whether the dealer draws there, depend on ``F`` alone (a blackjack is an ace and a ten,
    whichever is up), so the up cards' graphs share their nodes; what differs is how many legal
    orders of ``F`` start with each up card, ``c_u(F)``, counted once here. For a shoe ``T``
    (before the up card) ``P(up u, dealer ends on F) = c_u(F) prod_r ff(T_r, F_r) / ff(|T|, |F|)``,
    and ``prod_r ff(T_r, F_r)`` takes one multiplication per node from a parent. Nodes are
    laid out by level (``|F|``), each with the parent it is computed from (an index into the
    drawing nodes kept, ``store``; -1 at level 1), the rank it adds and how many of that rank
    the parent holds; a stopping node's entries are ``(up * n_out + outcome slot, c_u(F))``,
    slots in the order of that up card's
    :attr:`~bjcalc.engine.dealer.CompiledDealer.outcomes`. Busting multisets are left out
    (nearly half the work): a bust is what the other outcomes leave of 1."""

    level_start: np.ndarray  # int32: first node of each level (1, 2, ...), and the node count
    parent: np.ndarray  # int32 per node
    rank: np.ndarray
    held: np.ndarray
    store: np.ndarray  # int32 per node: where a drawing node's weight is kept, -1 = it stops
    entry_start: np.ndarray  # int32 per node, and the entry count
    entry_out: np.ndarray  # int32
    entry_c: np.ndarray  # float64: legal orders (exact integers)
    bust_slot: np.ndarray  # int32 per up card: the slot of a bust (-1: none), which has no nodes
    n_out: int  # outcome slots per up card
    max_held: int
    outcomes: tuple[tuple[int, ...], ...]  # per up card

    @functools.cached_property
    def orders(self) -> np.ndarray:
        """:attr:`entry_c` as uint64, for the exact pass (legal orders are whole numbers, small
        enough that float64 holds them exactly)."""
        orders = self.entry_c.astype(np.uint64)
        assert np.array_equal(orders, self.entry_c) and self.entry_c.max(initial=0) < 2**53
        orders.flags.writeable = False
        return orders

    @functools.cached_property
    def counts(self) -> np.ndarray:
        """Each node's multiset ``F`` (nodes, 10), rebuilt from the parents, level by level."""
        out = np.zeros((len(self.parent), 10), dtype=np.int64)
        kept = np.zeros((int((self.store >= 0).sum()), 10), dtype=np.int64)  # by store slot
        eye = np.eye(10, dtype=np.int64)
        for start, stop in zip(self.level_start[:-1].tolist(), self.level_start[1:].tolist()):
            parent = self.parent[start:stop]
            held = np.where(parent[:, None] >= 0, kept[np.maximum(parent, 0)], 0)  # level 1: no parent
            out[start:stop] = held + eye[self.rank[start:stop]]
            slots = self.store[start:stop]
            kept[slots[slots >= 0]] = out[start:stop][slots >= 0]
        out.flags.writeable = False
        return out

    @functools.cached_property
    def _node_classes(self) -> dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]]:
        return {}

    def node_classes(self, model: DrawModel) -> tuple[np.ndarray, np.ndarray]:
        """The distinct class totals (packed codes) of the stopping nodes under ``model``'s tag
        classes, and each node's index among them (-1 where the dealer draws): the same for
        every shoe and count of those classes, so kept by the classes."""
        known = self._node_classes.get(model.of_rank)
        if known is None:
            stops = self.store < 0
            codes, inverse = model.distinct_index(model.codes(self.counts[stops]))
            node_class = np.full(len(self.store), -1, dtype=np.int32)
            node_class[stops] = inverse
            for array in (codes, node_class):
                array.flags.writeable = False
            known = self._node_classes.setdefault(model.of_rank, (codes, node_class))
        return known

    @functools.cached_property
    def _pairs(self) -> dict[tuple[int, ...], tuple[np.ndarray, ...]]:
        return {}

    def pairs(self, model: DrawModel) -> tuple[np.ndarray, ...]:
        """:func:`joint_stands`' pairs under ``model``'s tag classes: every entry's pair
        (its node's class, its outcome slot, its node's level) and, per pair, its class, slot
        and level, pairs ordered by slot (the loop sums a slot's pairs together). Kept by the
        classes, like :meth:`node_classes`."""
        known = self._pairs.get(model.of_rank)
        if known is None:
            _, node_class = self.node_classes(model)
            level = np.repeat(np.arange(1, len(self.level_start), dtype=np.int64), np.diff(self.level_start))
            node = np.repeat(np.arange(len(self.store)), np.diff(self.entry_start))
            columns = (node_class[node].astype(np.int64), self.entry_out.astype(np.int64), level[node])
            assert (columns[0] >= 0).all()  # only stopping nodes have entries
            key = (columns[1] * (int(columns[0].max(initial=0)) + 1) + columns[0]) * (len(self.level_start) + 1) \
                + columns[2]
            _, first, entry_pair = np.unique(key, return_index=True, return_inverse=True)  # by slot first
            known = tuple(np.ascontiguousarray(a, dtype=np.int32) for a in (
                entry_pair.reshape(-1), columns[0][first], columns[1][first], columns[2][first]))
            for array in known:
                array.flags.writeable = False
            known = self._pairs.setdefault(model.of_rank, known)
        return known


@functools.lru_cache(maxsize=8)
def joint_dealer(hit_soft_17: bool, max_cards: int | None) -> JointDealer:
    """:class:`JointDealer` for a rule set, cached in memory and in the store."""
    return store.load_or_build(
        f"joint-{'h17' if hit_soft_17 else 's17'}-{max_cards or 0}", _DIGEST,
        lambda: _compile_joint(hit_soft_17, max_cards),
        lambda joint: {name: np.asarray(getattr(joint, name)) for name in _JOINT_ARRAYS} | {
            "sizes": np.array([joint.n_out, joint.max_held], dtype=np.int64)},
        lambda arrays: _joint_from_arrays(arrays, hit_soft_17, max_cards),
    )


_JOINT_ARRAYS = ("level_start", "parent", "rank", "held", "store", "entry_start", "entry_out", "entry_c", "bust_slot")


def _joint_from_arrays(arrays: dict[str, np.ndarray], hit_soft_17: bool, max_cards: int | None) -> JointDealer:
    n_out, max_held = (int(v) for v in arrays["sizes"])
    parts = {name: np.ascontiguousarray(arrays[name], dtype=np.float64 if name == "entry_c" else np.int32)
             for name in _JOINT_ARRAYS}
    outcomes = tuple(tuple(compiled_dealer(up, hit_soft_17, max_cards).outcomes) for up in range(10))
    return JointDealer(**parts, n_out=n_out, max_held=max_held, outcomes=outcomes)


def _compile_joint(hit_soft_17: bool, max_cards: int | None) -> JointDealer:
    """The joint graph from the up cards' compiled graphs: each up card's states become nodes
    ``F = drawn + up``, and a forward pass with every weight 1 counts the legal orders."""
    dealers = [compiled_dealer(up, hit_soft_17, max_cards) for up in range(10)]
    outcomes = tuple(tuple(d.outcomes) for d in dealers)
    n_out = max(len(o) for o in outcomes)
    # node key (packed F) -> [level, draws again, parent key, rank, held]; entries by key
    nodes: dict[int, tuple[int, bool, int, int, int]] = {}
    entries: dict[int, list[tuple[int, int]]] = {}
    pack = 64 ** np.arange(10, dtype=np.int64)
    for up, compiled in enumerate(dealers):
        slot = {o: i for i, o in enumerate(outcomes[up])}
        counts = np.zeros((1, 10), dtype=np.int64)
        counts[0, up] = 1
        ways = np.ones(1, dtype=np.int64)
        key0 = int(counts[0] @ pack)
        nodes.setdefault(key0, (1, True, -1, up, 0))
        for level, step in enumerate(compiled.steps, start=2):
            child_counts = np.zeros((step.width, 10), dtype=np.int64)
            child_ways = np.zeros(step.width, dtype=np.int64)
            parent_of = np.zeros(step.width, dtype=np.int64)
            rank_of = np.zeros(step.width, dtype=np.int64)
            for r in range(10):
                p, c = step.parents[r], step.children[r]
                child_counts[c] = counts[p]
                child_counts[c, r] += 1
                np.add.at(child_ways, c, ways[p])
                parent_of[c], rank_of[c] = p, r
            keys = (child_counts @ pack).tolist()
            parent_keys = (counts @ pack).tolist()
            code = np.full(step.width, -1, dtype=np.int64)
            for outcome, where in step.stops.items():
                code[where] = outcome
            for i, key in enumerate(keys):
                drawing = i < step.n_drawing
                if code[i] == BUST:
                    continue  # a bust is what the other outcomes leave (the loop's complement)
                r = int(rank_of[i])
                node = (level, drawing, parent_keys[parent_of[i]], r, int(child_counts[i, r]) - 1)
                known = nodes.setdefault(key, node)
                assert known[1] == drawing  # whether the dealer draws depends on F alone
                if not drawing:
                    entries.setdefault(key, []).append((up * n_out + slot[int(code[i])], int(child_ways[i])))
            counts, ways = child_counts[: step.n_drawing], child_ways[: step.n_drawing]
    order = sorted(nodes, key=lambda k: (nodes[k][0], not nodes[k][1], k))
    store_of: dict[int, int] = {}
    for key in order:
        if nodes[key][1]:
            store_of[key] = len(store_of)
    levels = [nodes[k][0] for k in order]
    level_start = np.searchsorted(np.array(levels), np.arange(1, max(levels) + 2)).astype(np.int32)
    entry_out: list[int] = []
    entry_c: list[float] = []
    entry_start = [0]
    for key in order:
        for out_slot, orders in entries.get(key, []):
            entry_out.append(out_slot)
            entry_c.append(float(orders))
        entry_start.append(len(entry_out))
    i32 = functools.partial(np.array, dtype=np.int32)
    return JointDealer(
        level_start=level_start,
        parent=i32([store_of.get(nodes[k][2], -1) for k in order]),
        rank=i32([nodes[k][3] for k in order]),
        held=i32([nodes[k][4] for k in order]),
        store=i32([store_of.get(k, -1) for k in order]),
        entry_start=i32(entry_start),
        entry_out=i32(entry_out),
        entry_c=np.array(entry_c, dtype=np.float64),
        bust_slot=i32([o.index(BUST) if BUST in o else -1 for o in outcomes]),
        n_out=n_out,
        max_held=int(max(nodes[k][4] for k in order)) + 1,
        outcomes=outcomes,
    )


def joint_numerators(
    joint: JointDealer, shoe: tuple[int, ...], removed: np.ndarray, depths: list[int], pay: np.ndarray,
    outcomes: bool = True, model: DrawModel | None = None,
) -> tuple[np.ndarray | None, np.ndarray]:
    """Every up card's dealer outcome numerators for the shoes ``shoe - removed[i]`` (``shoe``
    before the up card), each over ``ff(cards left after the up card, depths[up])`` as
    :func:`outcome_numerators` gives them for that up card: ``(matrix, stand)`` of shapes
    (10, shoes, ``joint.n_out``) and (10, shoes, payoffs), ``stand[u] = matrix[u] @ pay[u]``.
    Up cards whose depth is -1 are left at zero; without ``outcomes``, only ``stand`` is
    computed (``matrix`` is None). Large batches run on every core. ``model``: a counter's
    shoe (``shoe`` its cards off the table), each up card's numerators as
    :func:`~bjcalc.engine.dealer.outcome_numerators` gives them with the model
    (:func:`_weight_tables`)."""
    removed = np.ascontiguousarray(removed, dtype=np.int64).reshape(-1, 10)
    n = len(removed)
    # every row of every up card is written by the loop (zeros where the depth is -1)
    matrix = np.empty((10, n if outcomes else 0, joint.n_out))
    stand = np.empty((10, n, pay.shape[2]))
    arguments = (*_float_arguments(joint, shoe, removed, depths, pay), matrix, stand)
    weighted = () if model is None else (model.hidden, *_weight_tables(joint, model, removed))
    in_parts(lambda start, stop: dealer_kernel.joint(*arguments, start, stop, *weighted), n, 256)
    return (matrix if outcomes else None), stand


def joint_stands(
    joint: JointDealer, shoe: tuple[int, ...], removed: np.ndarray, depths: list[int], pay: np.ndarray,
    models: Sequence[DrawModel],
) -> list[np.ndarray]:
    """:func:`joint_numerators`' stand tables (10, shoes, payoffs) for each of several
    counter's shoes that differ only in what is known of the same discards (the same cards off
    the table, the same number hidden, the same tag classes: the same cards seen at other
    running counts), in one pass (``_dealer_kernel.joint_many``): the dealer's draws are summed
    once by (class of the dealer's cards, outcome, level) and each shoe weights those sums.
    Each shoe's tables are the same whichever shoes it goes with, and agree with
    :func:`joint_numerators`' to rounding (the sums are grouped otherwise)."""
    first = models[0]
    assert all(m.counts == first.counts and m.hidden == first.hidden and m.of_rank == first.of_rank for m in models)
    removed = np.ascontiguousarray(removed, dtype=np.int64).reshape(-1, 10)
    n = len(removed)
    row_codes, row_class = first.distinct_index(first.codes(removed))  # the same classes for every shoe
    tables = [_class_tables(joint, model, row_codes) for model in models]
    stands = [np.empty((10, n, pay.shape[2])) for _ in models]
    arguments = _float_arguments(joint, shoe, removed, depths, pay)
    pairs = joint.pairs(first)
    in_parts(lambda start, stop: dealer_kernel.joint_many(
        *arguments, start, stop, first.hidden, *pairs, np.ascontiguousarray(row_class, dtype=np.int32),
        [table for table, _ in tables], [up_table for _, up_table in tables], stands), n, 2048)
    return stands


def _float_arguments(joint: JointDealer, shoe: tuple[int, ...], removed: np.ndarray, depths: list[int],
                     pay: np.ndarray) -> tuple:
    """The graph, rules, shoe and rows as the float loops (``joint``, ``joint_many``) take them."""
    return (
        joint.level_start, joint.parent, joint.rank, joint.held, joint.store, joint.entry_start, joint.entry_out,
        joint.entry_c, joint.bust_slot, np.array(depths, dtype=np.int32), np.ascontiguousarray(pay, dtype=np.float64),
        joint.n_out, pay.shape[2], joint.max_held, int((joint.store >= 0).sum()),
        np.array(shoe, dtype=np.int64), removed,
    )


def joint_exact_runs(shoe: tuple[int, ...], removed: np.ndarray, depths: list[int]) -> bool:
    """Whether :func:`joint_exact_halves` runs for the shoes ``shoe - removed``: the compiled
    pass is built and not switched off, and its sums stay below 2**127
    (:func:`~bjcalc.engine.residues.joint_fits_128_bits`)."""
    return joint_exact_available() and joint_fits_128_bits(shoe, removed, depths)


def joint_exact_outputs(joint: JointDealer, rows: int, depths: list[int]) -> list[np.ndarray]:
    """The arrays :func:`joint_exact_halves` fills for ``rows`` shoes: per up card (rows,
    outcomes, 2) uint64 zeros, one array each so that each up card's can go alone ((rows, 0,
    2) for an up card whose depth is -1)."""
    return [np.zeros((rows, width, 2), dtype=np.uint64) for width in _widths(joint, depths)]


def _widths(joint: JointDealer, depths: list[int]) -> list[int]:
    """Each up card's outcome slots in the exact joint pass's arrays (0: not evaluated)."""
    return [len(outcomes) if depth >= 0 else 0 for outcomes, depth in zip(joint.outcomes, depths)]


def joint_exact_halves(
    joint: JointDealer, shoe: tuple[int, ...], removed: np.ndarray, depths: list[int],
    outs: list[np.ndarray] | None = None,
) -> list[np.ndarray | None] | None:
    """Every up card's exact dealer outcome numerators for the shoes ``shoe - removed[i]``
    (``shoe`` before the up card; a composition, not a counter's shoe) in one pass per shoe:
    per up card, what :func:`bjcalc.engine.dealer.exact_halves` gives for it on
    ``after_up(shoe, up) - removed[i]`` with ``depths[up]``, the same integers ((shoes,
    outcomes, [high, low]) uint64, outcomes in ``joint.outcomes[up]`` order), or None where
    the depth is -1. A row that leaves no card of the up card's rank gets zeros for that up
    card. ``None`` where the pass cannot run (:func:`joint_exact_runs`). Large batches run on
    every core. ``outs``: the arrays to fill (:func:`joint_exact_outputs`), made by the caller."""
    removed = np.ascontiguousarray(removed, dtype=np.int64).reshape(-1, 10)
    if not joint_exact_runs(shoe, removed, depths):
        return None
    n = len(removed)
    widths = _widths(joint, depths)
    outs = joint_exact_outputs(joint, n, depths) if outs is None else outs
    assert [out.shape for out in outs] == [(n, width, 2) for width in widths]
    arguments = (
        joint.level_start, joint.parent, joint.rank, joint.held, joint.store, joint.entry_start, joint.entry_out,
        joint.orders, joint.bust_slot, np.array(depths, dtype=np.int32), np.array(widths, dtype=np.int32),
        joint.n_out, joint.max_held, int((joint.store >= 0).sum()), np.array(shoe, dtype=np.int64), removed, outs,
    )
    in_parts(lambda start, stop: dealer_kernel.joint_exact(*arguments, start, stop), n, 256)
    return [out if depth >= 0 else None for out, depth in zip(outs, depths)]


def _weight_tables(joint: JointDealer, model: DrawModel, removed: np.ndarray) -> tuple[np.ndarray, ...]:
    """A counter's shoe in the joint pass: the weight of a stopping node ``F`` (the up card
    among its cards) on the shoe ``shoe - removed[i]`` is that of the class totals of
    ``removed[i]`` and ``F`` together; a bust, what the other outcomes leave, is weighted by
    the class totals of ``removed[i]`` and the up card (the weights of every way on from
    there add up to that one). Both take few distinct values, so the loop reads them from
    tables by (class of the node, class of the row): ``(node_class, row_class, table,
    up_table)``, node_class -1 where the dealer draws."""
    _, node_class = joint.node_classes(model)
    row_codes, row_class = model.distinct_index(model.codes(removed))
    return (node_class, np.ascontiguousarray(row_class, dtype=np.int32), *_class_tables(joint, model, row_codes))


def _class_tables(joint: JointDealer, model: DrawModel, row_codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The weights of the class totals of each (stopping node class, row class) and of each
    (up card, row class): :func:`_weight_tables`' ``table`` and ``up_table``."""
    node_codes, _ = joint.node_classes(model)
    table = model.weights(node_codes[:, None] + row_codes[None, :], False)
    up_table = model.weights(model.rank_codes()[:, None] + row_codes[None, :], False)
    return np.ascontiguousarray(table, dtype=np.float64), np.ascontiguousarray(up_table, dtype=np.float64)
