"""A counter's shoe's split moments by class totals: the part of a state's sums that its running
count does not change, worked out once per process and kept for every state that shares it.

A split's second moment is a sum, over the multisets ``M`` its hands draw and the dealer's
stopping states ``D`` (outcome ``o``), of a table entry ``t[M, o]`` (counts of orders times a
result; :mod:`bjcalc.engine.moments`) times the chance of ``M`` in one order and ``D`` after it.
On a counter's shoe (:mod:`bjcalc.engine.drawmodel`) that chance is

    w(D) F(M + D) / ff(L, |M| + |D|)  *  g(A + C) / g(A)

with ``F(X) = prod_r ff(n_r, X_r)`` over the cards off the table ``n`` the hands draw from (the up
card and the pair cards out), ``w(D)`` the dealer's orders of ``D``, ``L`` the cards left,
``g`` the draw model's weight of class totals, ``A`` those of the cards before (the up card and
the pair cards) and ``C`` those of ``M`` and ``D`` together. Only the last factor and ``L`` depend
on the state's running count and depth; the first depends on ``C`` only through ``|C| = |M| +
|D|``. So

    sum = sum over C of  T(C)  *  g(A + C) / (g(A) ff(L, |C|)),
    T(C) = sum over M, D with class totals C of  t[M, o(D)] w(D) F(M + D),

and ``T`` is the same for every state of a shoe whose split hands are played alike (a chart's
split hands, at every depth and running count): :func:`class_sums` works it out with the
compiled walk of the dealer's graph on ``n - M`` for every ``M``
(``_pairs_kernel.class_sums``), and each state then needs only one weight per class total
(:meth:`ClassSums.value`). Hi-Lo's three classes give a few thousand ``C`` where a state had tens
of thousands of multisets, each with a dealer pass.

The identity holds where no deal runs out of cards: a dealer who might (a shoe dealt to its last
cards) is weighed as the engine weighs it, and there the caller keeps its own sums
(:attr:`ClassSums.needs`).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from bjcalc.engine.dealer import compiled_dealer
from bjcalc.engine.kernels import pairs_kernel
from bjcalc.engine.lastcards import DEALER_ASKS, cheapest_worth

if TYPE_CHECKING:
    from bjcalc.engine.context import UpcardContext
    from bjcalc.engine.drawmodel import DrawModel

_KEPT_BYTES = 192 << 20  # the sums kept per process, least recently used dropped first
_kept: collections.OrderedDict[tuple, ClassSums | Bundle] = collections.OrderedDict()
_kept_bytes = 0
_lock = threading.Lock()  # the moment threads of one state share the kept sums

# no deal runs out where the cards left number at least this (a sentinel for "every deal may")
_ALWAYS = 1 << 30


@dataclasses.dataclass(frozen=True)
class ClassSums:
    """One table's ``T(C)`` at one removal (module docstring): the class totals ``codes``
    (packed as :class:`~bjcalc.engine.drawmodel.DrawModel` packs them), their card counts
    ``sizes`` and the sums. ``needs``: the fewest cards left with which no dealer of these sums
    can run out (:func:`bjcalc.engine.lastcards.dealer_may_run_out` on every shoe they leave)."""

    codes: np.ndarray
    sizes: np.ndarray
    sums: np.ndarray
    needs: int

    @property
    def nbytes(self) -> int:
        return self.codes.nbytes + self.sizes.nbytes + self.sums.nbytes

    def value(self, model: DrawModel, before: int, below: np.ndarray) -> float:
        """The state's sum: each ``T(C)`` times ``g(before + C) / g(before)`` (``before``: the
        packed class totals of the cards out before the hands draw) times ``below[|C|] = 1 /
        ff(L, |C|)``."""
        if not len(self.codes):
            return 0.0
        weights = model.weights(before + self.codes, False)
        first = float(model.weights(np.array([before]), False)[0])
        return float(self.sums @ (weights / first * below[self.sizes]))


def kept(key: tuple) -> Any:
    """What is kept under ``key`` (a :class:`ClassSums` or a :class:`Bundle`), or None."""
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
        return found


def keep(key: tuple, value: ClassSums | Bundle) -> None:
    """Keep ``value`` under ``key``, dropping the least recently used beyond :data:`_KEPT_BYTES`."""
    global _kept_bytes
    with _lock:
        if key in _kept:
            return
        _kept[key] = value
        _kept_bytes += value.nbytes
        while _kept_bytes > _KEPT_BYTES and len(_kept) > 1:
            _, dropped = _kept.popitem(last=False)
            _kept_bytes -= dropped.nbytes


def kept_count() -> int:
    """How many sums and bundles are kept."""
    with _lock:
        return len(_kept)


def kept_bytes() -> int:
    """The bytes the kept sums and bundles hold."""
    with _lock:
        return _kept_bytes


def forget() -> None:
    """Drop every kept sum (tests; a process that is done with its counter's shoes)."""
    global _kept_bytes
    with _lock:
        _kept.clear()
        _kept_bytes = 0


@dataclasses.dataclass(frozen=True)
class Bundle:
    """The :class:`ClassSums` one split's moments ask for on a state, end to end, so that a
    state weighs them all at once (:meth:`values`): ``removals`` (the removal of each, by its
    index among ``removed``), where each starts in the concatenated ``codes``, ``sizes`` and
    ``sums``, and the cards left each removal needs (:attr:`ClassSums.needs`)."""

    removed: tuple[int, ...]
    removal: np.ndarray  # per element of the concatenation: its removal's index in ``removed``
    starts: np.ndarray  # where each sum's elements start (the sums with none are left out)
    present: np.ndarray  # which sums have elements
    codes: np.ndarray
    sizes: np.ndarray
    sums: np.ndarray
    needs: tuple[int, ...]

    @classmethod
    def of(cls, parts: Sequence[tuple[int, ClassSums]]) -> Bundle:
        """The bundle of ``parts`` (removal, sums), in that order."""
        removed = tuple(sorted({r for r, _ in parts}))
        needs = tuple(max(s.needs for r, s in parts if r == at) for at in removed)
        lengths = np.array([len(s.codes) for _, s in parts], dtype=np.intp)
        index = {r: i for i, r in enumerate(removed)}
        removal = np.repeat(np.array([index[r] for r, _ in parts], dtype=np.intp), lengths)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
        present = lengths > 0

        def joined(arrays: list[np.ndarray], dtype: Any) -> np.ndarray:
            return np.concatenate(arrays).astype(dtype, copy=False) if arrays else np.zeros(0, dtype=dtype)

        return cls(removed, removal, starts[present], present,
                   joined([s.codes for _, s in parts], np.int64), joined([s.sizes for _, s in parts], np.intp),
                   joined([s.sums for _, s in parts], np.float64), needs)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.removal, self.starts, self.present, self.codes, self.sizes, self.sums))

    def values(self, model: DrawModel, before: Sequence[int], left: Sequence[int]) -> np.ndarray | None:
        """Each sum's value on a state (:meth:`ClassSums.value`): ``before[i]`` the packed class
        totals of the cards out before the hands draw at removal ``removed[i]``, ``left[i]`` the
        cards left there. None where a dealer could run out (:attr:`ClassSums.needs`)."""
        if any(need > cards for need, cards in zip(self.needs, left)):
            return None
        out = np.zeros(len(self.present))
        if not len(self.codes):
            return out
        start = np.asarray(before, dtype=np.int64)
        first = model.weights(start, False)
        most = int(self.sizes.max())
        below = np.stack([below_falling(cards, most) for cards in left])
        weights = model.weights(start[self.removal] + self.codes, False)
        products = self.sums * (weights / first[self.removal] * below[self.removal, self.sizes])
        out[self.present] = np.add.reduceat(products, self.starts)
        return out


@functools.lru_cache(maxsize=1024)
def below_falling(left: int, most: int) -> np.ndarray:
    """``1 / ff(left, k)`` for ``k`` = 0..``most`` (0 past the cards left); read only."""
    steps = np.array([1.0 / (left - i) if left - i > 0 else 0.0 for i in range(most)])
    out = np.concatenate([[1.0], np.cumprod(steps)])
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=64)
def _dealer_keys(up: int, hit_soft_17: bool, max_cards: int | None, rank_codes: tuple[int, ...]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The dealer's stopping states by (outcome slot, packed class totals of the cards it drew
    after the up card): each state's key (-1 where it draws), laid out as the compiled
    dealer's ``stop``, and each key's slot and class totals."""
    dealer = compiled_dealer(up, hit_soft_17, max_cards)
    flat = dealer.flat
    codes = np.asarray(rank_codes, dtype=np.int64)
    slot_code = np.full((len(flat.stop), 2), -1, dtype=np.int64)
    for s, step in enumerate(dealer.steps):
        start = int(flat.node_start[s])
        n_drawing = step.width - len(step.stop_counts)
        at = start + n_drawing + np.arange(len(step.stop_counts))
        slot_code[at, 0] = flat.stop[at]
        slot_code[at, 1] = step.stop_counts @ codes
    stopping = slot_code[:, 0] >= 0
    pairs, index = np.unique(slot_code[stopping], axis=0, return_inverse=True)
    node_key = np.full(len(flat.stop), -1, dtype=np.int32)
    node_key[stopping] = index.reshape(-1)
    return node_key, np.ascontiguousarray(pairs[:, 0], dtype=np.int32), pairs[:, 1].copy()


def _needs(shoe: np.ndarray, rows: np.ndarray) -> int:
    """The fewest cards left with which no dealer can run out after any of the multisets
    ``rows`` (:func:`~bjcalc.engine.lastcards.dealer_may_run_out` asks whether the cheapest of
    the cards left are worth at most :data:`DEALER_ASKS`): the most, over the rows, of their
    size plus the cards it takes from the shoe they leave to be worth more."""
    if not len(rows):
        return 0
    left = shoe[None, :] - rows.astype(np.int64)
    sizes = rows.sum(axis=1, dtype=np.int64)
    takes = np.full(len(rows), _ALWAYS, dtype=np.int64)
    for cards in range(DEALER_ASKS + 2, -1, -1):  # 17 aces are worth more than 16: no row needs more
        worth = cheapest_worth(left, np.full(len(rows), cards))
        takes = np.where(worth > DEALER_ASKS, cards, takes)
    return int(min((sizes + takes).max(), _ALWAYS))


def class_sums(context: UpcardContext, shoe: np.ndarray, keys: np.ndarray, tables: Sequence[np.ndarray],
               onlys: Sequence[Sequence[int | None]]) -> list[dict[int | None, ClassSums]]:
    """``T(C)`` (module docstring) of each of ``tables`` (int64 (multisets, outcomes), the
    dealer's outcomes in ``context.dealer.outcomes`` order, rows the packed multisets ``keys``)
    on ``shoe`` (the cards off the table the hands draw from), for each outcome of its
    ``onlys``: ``None`` sums every outcome, an outcome code that one alone."""
    model = context.model
    assert model is not None and pairs_kernel is not None
    rules = context.rules
    flat = context.dealer.flat
    node_key, key_slot, key_code = _dealer_keys(context.up, rules.hit_soft_17, rules.dealer_max_cards,
                                                tuple(int(c) for c in model.rank_codes()))
    rows = np.empty((len(keys), 10), dtype=np.int8)
    for rank in range(10):
        rows[:, rank] = (keys >> (6 * rank)) & 63
    row_codes, row_class = model.distinct_index(model.codes(rows))
    out = np.zeros((len(tables), len(row_codes), len(key_slot)))
    steps = min(context.depth, len(flat.width))
    shoe = np.ascontiguousarray(shoe, dtype=np.int64)
    pairs_kernel.class_sums(flat.edge_start, flat.parent, flat.child, flat.rank, flat.held, flat.node_start, node_key,
                            steps, int(flat.max_width), shoe, rows, np.ascontiguousarray(row_class, dtype=np.int64),
                            key_slot, [np.ascontiguousarray(t, dtype=np.int64) for t in tables], out)
    outcomes = np.array(flat.outcomes, dtype=np.int64)[key_slot]
    feasible = (rows <= shoe[None, :]).all(axis=1)
    shifts = 6 * np.arange(model.classes, dtype=np.int64)
    found: list[dict[int | None, ClassSums]] = []
    for table, sums, wanted in zip(tables, out, onlys):
        reached = feasible & np.asarray(table).any(axis=1)
        needs = _needs(shoe, rows[reached])
        by_only: dict[int | None, ClassSums] = {}
        for only in wanted:
            chosen = np.ones(len(key_slot), dtype=bool) if only is None else outcomes == only
            totals = (row_codes[:, None] + key_code[None, chosen]).reshape(-1)
            values = sums[:, chosen].reshape(-1)
            nonzero = values != 0.0
            codes, at = np.unique(totals[nonzero], return_inverse=True)
            summed = np.bincount(at.reshape(-1), weights=values[nonzero], minlength=len(codes))
            sizes = ((codes[:, None] >> shifts[None, :]) & 63).sum(axis=1)
            by_only[only] = ClassSums(codes, sizes.astype(np.intp), summed, needs)
        found.append(by_only)
    return found


_families: dict[tuple, int] = {}  # engine_key -> a small number that stands for it in the keys


def family(context: UpcardContext) -> int:
    """A number for what a split's class sums depend on besides its table and removal: the
    rules (the dealer, the hands' graph and results), the up card, the cards off the table
    after it and the count's tag classes (a number, so that the keys hash quickly)."""
    model = context.model
    assert model is not None
    key = (context.rules, context.up, tuple(context.shoe), model.of_rank)
    with _lock:
        return _families.setdefault(key, len(_families))
