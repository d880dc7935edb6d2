"""The dealer's outcomes for every shoe the player's hands leave, evaluated in batches.

The hands of every graph an analysis solves (unsplit hands, split hands on each depleted shoe)
leave shoes that are the up card's shoe minus a removal vector. :class:`ShoeIndex` numbers the
distinct vectors (shared by the up cards of one analysis); :class:`DealerBatch` evaluates one up
card's dealer on all the vectors registered so far in one vectorised pass of
:mod:`bjcalc.engine.dealer`, in a background thread while Python prepares the next up card
(:func:`bjcalc.engine.pools.ahead_thread`), or reads them from :class:`JointBatch`, the pass of
every up card at once (:mod:`bjcalc.engine.jointdealer`), where the compiled loop runs it.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import hashlib
import itertools
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from bjcalc.cards import BLACKJACK, BUST, CHARLIE
from bjcalc.engine.dealer import (
    CompiledDealer,
    after_up,
    compiled_dealer,
    dealer_depth,
    exact_halves,
    exact_kernel_fits,
    outcome_numerators,
)
from bjcalc.engine.hands import PACK, HandLayers, LayersKey
from bjcalc.engine.jointdealer import (
    joint_dealer,
    joint_exact_halves,
    joint_exact_outputs,
    joint_exact_runs,
    joint_numerators,
    joint_stands,
)
from bjcalc.engine.kernels import (
    dealer_kernel,
    dealer_kernel_available,
    exact_dealer_kernel_available,
    joint_kernel_available,
    player_kernel,
)
from bjcalc.engine.lastcards import dealer_may_run_out
from bjcalc.engine.pools import ahead_thread
from bjcalc.engine.residues import join_halves
from bjcalc.numbers import as_numbers
from bjcalc.rules import Rules

if TYPE_CHECKING:
    from bjcalc.engine.drawmodel import DrawModel


class ShoeIndex:
    """Column numbers for the shoes the hands leave, as removal vectors (cards taken out of the
    shoe after the up card). The vectors a hand graph leaves do not depend on the up card, so
    one index serves every up card of an analysis and each up card evaluates its dealer on
    the rows it has not seen yet.

    Nor do they depend on the shoe, where the hand graphs are the same (the depleted shoes of
    a large shoe share them): so an index that registers the same graphs in the same order as
    an earlier one replays that one's results (kept by each graph, :attr:`HandLayers.replays`)
    instead of working them out again."""

    def __init__(self, replacement: bool = False) -> None:
        """``replacement``: cards are drawn with replacement (the infinite deck), so every hand
        leaves the same shoe: one column serves them all."""
        self.replacement = replacement
        self._count = 0  # columns so far
        self._keys = np.zeros(0, dtype=np.int64)  # packed rows seen, sorted
        self._key_columns = np.zeros(0, dtype=np.intp)  # the column of each, in the same order
        self._keys_current = True  # False after a replay: rebuilt from the rows when needed
        self._chunks: list[np.ndarray] = []  # the rows, in column order, as added
        # by (graph's key, extra, rows reached)
        self._registered: dict[tuple[LayersKey, tuple[int, ...], bytes | None], list[np.ndarray]] = {}
        self._joined: dict[tuple[LayersKey, tuple[tuple[int, ...], ...], bytes | None], np.ndarray] = {}  # columns
        self._state = 0  # names the registrations so far, for replaying (0: none yet)

    def __len__(self) -> int:
        return self._count

    def rows(self, start: int) -> np.ndarray:
        """The rows of columns ``start`` onwards. Only the chunks added since ``start`` are
        joined (a dealer batch reads the rows added since its last read, about ten times an
        analysis: joining every row each time copied megabytes a shoe); the whole list is
        joined into one chunk for a read from the start."""
        end, tail = self._count, []
        for chunk in reversed(self._chunks):
            if end <= start:
                break
            end -= len(chunk)
            tail.append(chunk[max(start - end, 0) :])
        if start == 0 and len(self._chunks) > 1:
            self._chunks = [np.concatenate(tail[::-1])]
            return self._chunks[0]
        if not tail:
            return np.zeros((0, 10), dtype=np.int64)
        return tail[0] if len(tail) == 1 else np.concatenate(tail[::-1])

    def _columns(self, removed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The column of each row of ``removed``, adding the rows not seen before (new columns
        in the order the rows first occur); and the rows added."""
        if not self._keys_current:
            rows = self.rows(0)
            order = np.argsort(rows @ PACK, kind="stable")
            self._keys, self._key_columns = (rows @ PACK)[order], order.astype(np.intp)
            self._keys_current = True
        removed = np.asarray(removed, dtype=np.int64).reshape(-1, 10)
        if self.replacement:
            removed = np.zeros_like(removed)
        keys, first, inverse = np.unique(removed @ PACK, return_index=True, return_inverse=True)
        at = np.asarray(np.searchsorted(self._keys, keys))
        known = np.asarray(at < len(self._keys))
        known[known] = self._keys[at[known]] == keys[known]
        columns = np.empty(len(keys), dtype=np.intp)
        columns[known] = self._key_columns[at[known]]
        new = np.flatnonzero(~known)
        added = removed[:0]
        if len(new):
            new = new[np.argsort(first[new])]
            columns[new] = len(self._keys) + np.arange(len(new))
            added = removed[first[new]]
            order = np.argsort(np.concatenate([self._keys, keys[new]]), kind="stable")
            self._keys = np.concatenate([self._keys, keys[new]])[order]
            self._key_columns = np.concatenate([self._key_columns, columns[new]])[order]
        return columns[inverse.reshape(-1)], added

    def columns(self, layers: HandLayers, extras: Sequence[tuple[int, ...]], reached: np.ndarray | None = None
                ) -> np.ndarray:
        """:meth:`register` each of ``extras``, the columns joined, extra after extra, flat
        rows (kept: every up card of an analysis reads the same)."""
        key = (layers.key, tuple(extras), _digest(reached))
        joined = self._joined.get(key)
        if joined is None:
            joined = np.concatenate([part for extra in extras for part in self.register(layers, extra, reached)])
            joined.flags.writeable = False
            self._joined[key] = joined
        return joined

    def register(self, layers: HandLayers, extra: tuple[int, ...], reached: np.ndarray | None = None
                 ) -> list[np.ndarray]:
        """The columns of the shoes every hand of ``layers`` leaves with ``extra`` also removed.
        ``reached`` (a flag per flat row): only these rows' shoes are registered, and the others
        read the first reached row's column (for a pass whose plays reach no other row, which
        reads no other row's stand numerators; the graph's first row must be reached)."""
        digest = _digest(reached)
        key = (layers.key, extra, digest)
        if key not in self._registered:
            replays = layers.replays
            step = (self._state, extra, self.replacement, digest)
            replay = replays.get(step)
            if replay is None:
                rows = np.concatenate(layers.counts) + np.array(extra, dtype=np.int64)
                if reached is None:
                    every, added = self._columns(rows)
                else:
                    assert reached[0]
                    some, added = self._columns(rows[reached])
                    every = np.full(len(rows), some[0], dtype=np.intp)
                    every[reached] = some
                cut = np.cumsum([len(c) for c in layers.counts])[:-1]
                parts = np.split(every, cut)
                for part in parts:
                    part.flags.writeable = False  # shared with the indexes that replay it
                replay = (next(_STATES), parts, added)
                replays.put(step, replay)
            else:
                self._keys_current = False
            self._state, parts, added = replay
            if len(added):
                self._chunks.append(added)
                self._count += len(added)
            self._registered[key] = parts
        return self._registered[key]


def _digest(reached: np.ndarray | None) -> bytes | None:
    """A set of reached rows as a key (None: every row)."""
    return None if reached is None else hashlib.blake2b(np.packbits(reached).tobytes(), digest_size=16).digest()


# numbers the states of indexes (the registrations made so far) for replaying (0: none yet);
# a graph keeps what registering it did from each state (HandLayers.replays), a few at most
_STATES = itertools.count(1)


def pay_tables(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_pay_tables` of ``codes``, kept (read-only) for every batch with those outcomes."""
    return _pay_tables(tuple(int(c) for c in codes))


@functools.lru_cache(maxsize=256)
def _pay_tables(outcomes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a hand standing on each payoff (total 0..21, :data:`CHARLIE`) wins against each
    dealer outcome of ``codes`` (outcomes x payoffs, -1/0/1), and the same with one column
    per distinct payoff column: ``(pay, distinct, column)``, ``pay == distinct[:, column]``.
    Every total below the dealer's lowest standing total wins only on a bust, so 4..16 share
    one column (7 columns instead of 23 without a card limit)."""
    codes = np.array(outcomes, dtype=np.int64)
    pay = np.sign(np.arange(CHARLIE + 1)[None, :] - codes[:, None])
    pay[codes == BUST] = 1
    pay[:, CHARLIE] = 1
    pay[codes == BLACKJACK] = 0
    distinct, column = np.unique(pay, axis=1, return_inverse=True)
    tables = (pay, distinct.astype(np.float64), column.reshape(-1))
    for table in tables:
        table.flags.writeable = False
    return tables


class SharedStands:
    """The weighted joint pass of several counter's shoes whose analyses leave the same shoes in
    the same order (the same cards seen at other running counts): the first analysis to ask
    for a chunk of rows gets every shoe's stand tables in one pass
    (:func:`bjcalc.engine.jointdealer.joint_stands`), and the others find theirs kept until
    they ask. A chunk is known by its rows and the dealer's rules (its graph, depths and
    payoffs), so an analysis whose rows or rules differ gets its own pass. Every shoe's tables
    are the same alone as in a group."""

    def __init__(self, models: Sequence[DrawModel]) -> None:
        self.models = list(dict.fromkeys(models))
        self._kept: dict[tuple[bytes, DrawModel], np.ndarray] = {}
        self._lock = threading.Lock()

    def stand(self, joint: JointBatch, rows: np.ndarray) -> np.ndarray:
        """``joint``'s stand tables of ``rows`` (its model is one of these)."""
        assert joint.model is not None
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        # hashed as bytes where every count fits one (an eighth of the hashing: each of a
        # batch's eight shoes hashes every chunk, about 2 MB a truecount task as int64)
        small = len(rows) > 0 and 0 <= rows.min() and rows.max() < 256
        digest = hashlib.blake2b(b"u8" if small else b"i8", digest_size=16)
        digest.update((rows.astype(np.uint8) if small else rows).tobytes())
        # the joint graph is the dealer's rules' (joint_dealer): keyed by them, not by the object
        digest.update(repr((joint.rules.hit_soft_17, joint.rules.dealer_max_cards, joint.depths)).encode())
        digest.update(joint.pay.tobytes())
        with self._lock:
            key = digest.digest()
            kept = self._kept.pop((key, joint.model), None)
            if kept is not None:
                return kept
            others = [m for m in self.models if m != joint.model]
            stands = joint_stands(joint.joint, joint.shoe, rows, joint.depths, joint.pay, [joint.model, *others])
            for model, stand in zip(others, stands[1:]):
                self._kept[key, model] = stand
            return stands[0]


# a counter's shoe's shared joint pass (SharedStands), by its model, while shared_stands holds it
_SHARED: dict[DrawModel, SharedStands] = {}


@contextlib.contextmanager
def shared_stands(models: Sequence[DrawModel]) -> Iterator[SharedStands]:
    """Within the block, the analyses of these counter's shoes made in this process share their
    weighted joint passes (:class:`SharedStands`); each model's share is let go at the end."""
    shared = SharedStands(models)
    mine = [m for m in shared.models if m not in _SHARED]
    for model in mine:
        _SHARED[model] = shared
    try:
        yield shared
    finally:
        for model in mine:
            _SHARED.pop(model, None)


# the most counter's shoes whose joint passes go together: each keeps the others' stand tables
# until their analyses ask for them (about 15 MB each at 6 decks)
TOGETHER = 8


def stands_together(models: Iterable[DrawModel]) -> contextlib.ExitStack:
    """:func:`shared_stands` for these counter's shoes (a batch of tasks' shoes, in the order
    they will be analysed), :data:`TOGETHER` at a time among those of the same cards seen:
    enter the stack around their analyses."""
    groups: dict[tuple, list[DrawModel]] = {}
    for model in models:
        groups.setdefault((model.counts, model.hidden, model.of_rank), []).append(model)
    stack = contextlib.ExitStack()
    for group in groups.values():
        for start in range(0, len(group), TOGETHER):
            stack.enter_context(shared_stands(group[start : start + TOGETHER]))
    return stack


def joint_batch(rules: Rules, index: ShoeIndex, exact: bool, model: DrawModel | None = None) -> JointBatch | None:
    """The pass of every up card at once for one analysis' shoes, or ``None`` where each up
    card's :class:`DealerBatch` evaluates its own dealer: with replacement (one shoe), without
    the compiled loop, and in exact mode for a counter's shoe or a shoe whose sums would not
    fit 128 bits (:func:`bjcalc.engine.jointdealer.joint_exact_runs`)."""
    if rules.infinite or not joint_kernel_available():
        return None
    if not exact:
        return JointBatch(rules, index, model)
    if model is not None:
        return None
    batch = JointBatch(rules, index, exact=True)
    # every shoe the hands leave has fewer cards than the whole shoe, so its sums are smaller
    return batch if joint_exact_runs(batch.shoe, np.zeros((1, 10), dtype=np.int64), batch.depths) else None


class JointBatch:
    """Every up card's dealer outcomes on the shoes of a :class:`ShoeIndex`, in one pass per
    shoe for all up cards (:class:`bjcalc.engine.jointdealer.JointDealer`, compiled loop): one
    analysis shares it between its up cards' :class:`DealerBatch`. Rows are evaluated in
    chunks as they are registered, in a background thread. Float mode keeps what standing on
    each payoff is worth (and the outcome numerators, once read); exact mode the outcome
    numerators as 128-bit halves, which each up card's batch reads (:meth:`halves`)."""

    def __init__(self, rules: Rules, index: ShoeIndex, model: DrawModel | None = None, exact: bool = False) -> None:
        """``model``: a counter's shoe (:mod:`bjcalc.engine.drawmodel`), whose counts are the
        shoe; every numerator carries its weights (float mode)."""
        assert not (exact and model is not None)  # exact counters' shoes run each up card alone
        self.shoe, self.index, self.model = rules.shoe_counts if model is None else model.counts, index, model
        # a counter's shoe analysed beside others of the same cards seen (shared_stands)
        self.shared = None if model is None else _SHARED.get(model)
        self.exact = exact
        self.rules = rules
        self.joint = joint_dealer(rules.hit_soft_17, rules.dealer_max_cards)
        full = self.shoe
        self.depths = [
            max(dealer_depth(up, rules.hit_soft_17, rules.dealer_max_cards, after_up(full, up)), 1) if full[up] else -1
            for up in range(10)
        ]
        tables = [pay_tables(np.array(codes)) for codes in self.joint.outcomes]
        width = max(distinct.shape[1] for _, distinct, _ in tables)
        self.pay = np.zeros((10, self.joint.n_out, width))
        for up, (_, distinct, _) in enumerate(tables):
            self.pay[up, : distinct.shape[0], : distinct.shape[1]] = distinct
        # (first row, the pass's result: float, stand tables (up, row, payoff column), read where
        # they are (:meth:`stand`); exact, each up card's halves, each let go when that up card
        # joins it)
        self._chunks: list[tuple[int, concurrent.futures.Future]] = []
        self._results: list[np.ndarray] = []  # float: the results of the first chunks, as read (stand)
        self._covered = 0  # rows submitted
        self._matrix: np.ndarray | None = None  # outcome numerators (up, row, outcome), once read
        # exact: each up card's halves of the chunks it read, joined, and how many chunks those are
        self._halves: list[np.ndarray | None] = [None] * 10
        self._read = [0] * 10

    def start(self) -> None:
        """Evaluate the rows registered since the last call, in the background (each chunk on
        every core): a caller that registers its shoes in groups starts each group at once, and
        reads of the first groups wait only for them."""
        end = len(self.index)
        if end > self._covered:
            rows = self.index.rows(self._covered)
            # exact: the arrays the pass fills are taken by this thread, which lets them go:
            # memory one thread frees that another took stays with the process (each thread's
            # malloc arena: 2-deck exact effects peaked at 248 MB, now 227 MB)
            outs = joint_exact_outputs(self.joint, len(rows), self.depths) if self.exact else None
            future = ahead_thread().submit(self._pass, rows, outs)
            self._chunks.append((self._covered, future))
            self._covered = end

    def _pass(self, rows: np.ndarray, outs: list[np.ndarray] | None) -> np.ndarray | list[np.ndarray | None]:
        """One chunk of rows: float, the stand tables (up, row, payoff column); exact, each up
        card's outcome numerators as halves in ``outs`` (None where it is not in the shoe)."""
        if self.exact:
            halves = joint_exact_halves(self.joint, self.shoe, rows, self.depths, outs)
            assert halves is not None  # the whole shoe fits (joint_batch), so every shoe left does
            for at, up, dealer, fixed in self._runs_out(rows):
                out = halves[up]
                assert out is not None
                exact = exact_halves(dealer, after_up(self.shoe, up), rows[at], self.depths[up])
                assert exact is not None
                out[at[:, None], fixed[None, :]] = exact
            return halves
        if self.shared is not None:
            stand = self.shared.stand(self, rows)
        else:
            stand = joint_numerators(self.joint, self.shoe, rows, self.depths, self.pay, False, self.model)[1]
        for at, runs_out_up, numerators in self._runs_out_matrices(rows):
            stand[runs_out_up, at] = numerators @ self.pay[runs_out_up]
        return stand

    def _runs_out(self, rows: np.ndarray) -> Iterator[tuple[np.ndarray, int, CompiledDealer, np.ndarray]]:
        """The rows on which the dealer could run out of cards, by up card: the joint pass takes
        a bust as what the other outcomes leave, which would count a dealer who runs out as
        busting, so these rows take each up card's own pass, which counts every outcome and
        leaves out the deals that run out (:mod:`bjcalc.engine.lastcards`). Yields (rows,
        up card, its dealer, the slot of each of its dealer's outcomes in the joint pass's)."""
        model = self.model
        hidden = 0 if model is None else model.hidden
        left = np.asarray(self.shoe, dtype=np.int64)[None, :] - rows
        risky = np.flatnonzero(dealer_may_run_out(left, left.sum(axis=1) - hidden))
        if not len(risky):
            return
        for up in range(10):
            if self.depths[up] < 0:
                continue
            at = risky[left[risky, up] > 0]  # (a row with no card of the up card's rank gets zeros)
            if len(at):
                dealer = compiled_dealer(up, self.rules.hit_soft_17, self.rules.dealer_max_cards)
                slots = self.joint.outcomes[up]
                yield at, up, dealer, np.array([slots.index(o) for o in dealer.outcomes], dtype=np.intp)

    def _runs_out_matrices(self, rows: np.ndarray) -> Iterator[tuple[np.ndarray, int, np.ndarray]]:
        """:meth:`_runs_out` in float mode: (rows, up card, their outcome numerators by the joint
        pass's slots)."""
        model = self.model
        for at, up, dealer, fixed in self._runs_out(rows):
            base = 0 if model is None else int(model.rank_codes()[up])
            numerators, _ = outcome_numerators(dealer, after_up(self.shoe, up), rows[at], self.depths[up], False,
                                               model=model, base=base)
            matrix = np.zeros((len(at), self.joint.n_out))
            for o, slot in zip(dealer.outcomes, fixed):
                matrix[:, slot] = numerators[o]
            yield at, up, matrix

    def halves(self, up: int, need: int) -> np.ndarray | None:
        """Exact mode: up card ``up``'s outcome numerators of the registered columns, at least
        the first ``need``, as 128-bit [high, low] halves (columns, outcomes, 2): the integers
        of :func:`bjcalc.engine.dealer.exact_halves`. Waits only for the chunks that hold those
        columns; each chunk's part is joined to the up card's at its first read, and let go.
        ``None`` before any column is registered."""
        assert self.exact
        self.start()
        held = self._halves[up]
        if held is not None and len(held) >= need:
            return held
        parts = [] if held is None else [held]
        for first, future in self._chunks[self._read[up] :]:
            if first >= need:
                break
            result = future.result()
            parts.append(result[up])
            result[up] = None  # the joined array holds it now
            self._read[up] += 1
        if parts:
            self._halves[up] = parts[0] if len(parts) == 1 else np.concatenate(parts)
        return self._halves[up]

    def stand(self, up: int, columns: np.ndarray, payoff_columns: np.ndarray) -> np.ndarray:
        """Up card ``up``'s stand numerators of registered ``columns``, each at its payoff's
        distinct column (:func:`pay_tables`). Waits only for the chunks that hold ``columns``
        (later ones may still be running) and reads them where they are, in one compiled loop:
        the chunks are never joined."""
        return self.stand_many([up], columns, [payoff_columns])

    def stand_many(self, ups: Sequence[int], columns: np.ndarray, payoff_columns: Sequence[np.ndarray]) -> np.ndarray:
        """:meth:`stand` of each of ``ups`` (with its own payoff columns) for the same
        ``columns``, joined up card after up card."""
        out = np.empty(len(ups) * len(columns))
        if not len(columns):
            return out
        self.start()
        need = int(columns.max()) + 1
        results = self._results  # the chunks' tables once read (a future's result costs 2.5 us)
        firsts, parts = [], []
        for at, (first, future) in enumerate(self._chunks):
            if first >= need:
                break
            if at == len(results):
                results.append(future.result())
            firsts.append(first)
            parts.append(results[at])
        starts, n = np.array(firsts, dtype=np.int64), len(columns)
        columns = np.ascontiguousarray(columns, dtype=np.intp)
        for u, (up, pay) in enumerate(zip(ups, payoff_columns)):
            dealer_kernel.gather(starts, parts, up, self.pay.shape[2], columns,
                                 np.ascontiguousarray(pay, dtype=np.int64), out[u * n : (u + 1) * n])
        return out

    def matrix(self, up: int, columns: np.ndarray) -> np.ndarray:
        """Up card ``up``'s outcome numerators of registered ``columns`` (columns: its outcomes).
        Float mode reads them rarely (dealer tables, the EV matrix, the unsplit hands' second
        moments), so they are worked out at the first read for every registered shoe up to the
        last column asked for (the unsplit hands' shoes come first, before the split hands'
        many), and kept."""
        done = 0 if self._matrix is None else self._matrix.shape[1]
        need = int(columns.max()) + 1 if len(columns) else 0
        if need > done:
            rows = self.index.rows(done)[: need - done]
            more, _ = joint_numerators(self.joint, self.shoe, rows, self.depths, self.pay, model=self.model)
            assert more is not None
            for at, runs_out_up, numerators in self._runs_out_matrices(rows):
                more[runs_out_up, at] = numerators
            self._matrix = more if self._matrix is None else np.concatenate([self._matrix, more], axis=1)
        n_out = len(self.joint.outcomes[up])
        if self._matrix is None:  # nothing registered, so no column to read
            return np.zeros((len(columns), n_out))
        return self._matrix[up][columns][:, :n_out]


class DealerBatch:
    """One up card's dealer outcomes on the shoes of a :class:`ShoeIndex` (its columns), and
    in float mode what standing on each payoff is worth on each of them."""

    def __init__(
        self, dealer: CompiledDealer, shoe: tuple[int, ...], depth: int, exact: bool, index: ShoeIndex,
        joint: JointBatch | None = None, model: DrawModel | None = None, base: int = 0,
    ) -> None:
        """``joint``: the pass of every up card at once, shared (:func:`joint_batch`), in the
        same number type. ``model``, ``base``: a counter's shoe and the up card's class totals
        (:func:`bjcalc.engine.dealer.outcome_numerators`); ``joint`` then carries the same model."""
        self.dealer, self.shoe, self.depth, self.exact, self.index = dealer, shoe, depth, exact, index
        self.replacement = index.replacement
        self.model, self.base = model, base
        # exact numerators from the compiled loop are kept as 128-bit halves: the whole shoe
        # fitting 128 bits means every shoe the hands leave does (fewer cards, smaller sums)
        self._halves = exact and not self.replacement and model is None and exact_kernel_fits(shoe, depth)
        self._codes = np.array(dealer.outcomes)
        self._matrix: np.ndarray | None = None  # dealer numerators, (column, outcome)
        self._stand_table: np.ndarray | None = None  # float: (column, payoff) stand numerators
        self._pay, self._pay_distinct, self._pay_column = pay_tables(self._codes)
        self.outcome_key = tuple(int(code) for code in self._codes)  # what pay_columns depends on
        # every up card's dealer in one pass (shared): float mode reads its tables, exact mode
        # this up card's halves of it
        self._joint = joint if not self.replacement else None
        assert self._joint is None or (self._joint.model == model and self._joint.exact == exact)
        assert self._joint is None or not exact or self._halves  # the joint pass fits, so this one does
        self._evaluated = 0
        self._pending: tuple[concurrent.futures.Future, int] | None = None  # see start

    def start(self, more: bool = False) -> None:
        """Start evaluating the dealer on the registered shoes in a background thread (with the
        compiled loop, which releases the GIL), so that the work overlaps with whatever Python
        does next; :meth:`_evaluate` collects it. ``more``: more shoes are about to be
        registered (the joint pass starts on these already; one up card's pass waits)."""
        if self._joint is not None:
            self._joint.start()
            return
        if more:
            return
        compiled = exact_dealer_kernel_available() if self.exact else dealer_kernel_available()
        if self._pending is not None or not compiled or self.model is not None:
            return
        if len(self.index) > self._evaluated:
            end = len(self.index)
            future = ahead_thread().submit(self._dealer_block, self.index.rows(self._evaluated))
            self._pending = (future, end)

    def _dealer_block(self, removed: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Dealer numerators of the shoes ``removed`` (rows: outcomes in ``_codes`` order) and,
        in float mode, their stand numerators of every payoff. Exact numerators from the
        compiled loop stay as 128-bit [high, low] pairs until read (:meth:`outcome_matrix`)."""
        if self._halves:
            halves = exact_halves(self.dealer, self.shoe, removed, self.depth)
            assert halves is not None  # the batch's whole shoe fits, so every part does
            return halves, None
        batch, _ = outcome_numerators(self.dealer, self.shoe, removed, self.depth, self.exact,
                                      replacement=self.replacement, model=self.model, base=self.base)
        block = np.stack([batch[o] for o in self._codes], axis=1)
        # einsum, not @: a BLAS product would start BLAS threads that spin on the cores
        table = None if self.exact else np.einsum("no,ot->nt", block, self._pay_distinct)
        return block, table

    def _evaluate(self, need: int = 0) -> None:
        """Evaluate the dealer on the registered shoes not evaluated yet (exact mode's joint
        pass: at least the first ``need`` of them, waiting for no later chunk)."""
        if self._joint is not None:
            assert self.exact  # float mode reads the joint pass's own tables
            self._matrix = self._joint.halves(self.dealer.up, need)
            return
        blocks: list[tuple[np.ndarray, np.ndarray | None]] = []
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
        columns = np.asarray(columns, dtype=np.intp)
        if self._joint is not None and not self.exact:
            return self._codes, self._joint.matrix(self.dealer.up, columns)
        self._evaluate(int(columns.max(initial=-1)) + 1)
        if self._matrix is None:
            dtype = object if self.exact else np.float64
            return self._codes, np.zeros((len(columns), len(self._codes)), dtype=dtype)
        matrix = self._matrix[columns]
        return self._codes, join_halves(matrix) if self._halves else matrix

    def stand_numerators(self, columns: np.ndarray, payoff: np.ndarray) -> np.ndarray:
        """E[result of standing; no dealer blackjack], as numerators over ``ff(cards left,
        depth)``, for the registered shoes ``columns`` and payoffs ``payoff`` (a hand's total,
        or :data:`CHARLIE` for a hand that beats everything but a dealer blackjack). In float
        mode every shoe's value of every payoff is tabled once (one matrix product)."""
        if self.exact or not len(columns):
            _, matrix = self.outcome_matrix(columns)
            out = (matrix * as_numbers(self._pay[:, payoff].T, self.exact)).sum(axis=1)
            return self._with_charlies(out, columns, payoff)
        columns = np.asarray(columns, dtype=np.intp)
        if self._joint is not None:
            out = self._joint.stand(self.dealer.up, columns, self._pay_column[payoff])
            return self._with_charlies(out, columns, payoff)
        self._evaluate()
        assert self._stand_table is not None  # tabled by every float dealer block
        table = self._stand_table  # one flat gather: 2.4x faster than [columns, payoff]
        out = table.ravel().take(columns * table.shape[1] + self._pay_column[payoff])
        return self._with_charlies(out, columns, payoff)

    def charlie_numerators(self, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What a charlie standing on the registered shoes ``columns`` wins where the dealer may
        run out of cards (:func:`bjcalc.engine.lastcards.dealer_may_run_out`): the positions
        among ``columns`` of those shoes, and the charlie's numerators there (over ``ff(cards
        left, depth)``, with the row's weights on a counter's shoe).

        A charlie is settled without the dealer (as a bust is): it wins unless the hole card
        makes a dealer blackjack, whether or not the dealer could finish drawing. Its value is
        the row's whole mass less the blackjack's, ``(ff(n, depth) - b ff(n - 1, depth - 1))``
        (``n`` cards left, ``b`` of the blackjack rank; on a counter's shoe each term times the
        weight of its class totals), as :mod:`bjcalc.engine.values` values a bust: not the
        dealer's outcomes other than a blackjack, which leave out the deals on which the dealer
        runs out (they fall in no outcome, :mod:`bjcalc.engine.lastcards`). Elsewhere the two
        are the same numbers, which the dealer's passes give (the same bits as ever)."""
        columns = np.asarray(columns, dtype=np.intp)
        none = np.zeros(0, dtype=np.intp), as_numbers(np.zeros(0, dtype=np.int64), self.exact)
        if self.replacement or not len(columns):
            return none
        rows = self.index.rows(0)[columns]
        model, up = self.model, self.dealer.up
        shoe = np.asarray(self.shoe, dtype=np.int64)
        left = shoe[None, :] - rows  # the cards left after the up card
        hidden = 0 if model is None else model.hidden
        n_left = left.sum(axis=1) - hidden
        with_up = left.copy()
        with_up[:, up] += 1
        # as the joint pass's own-pass rows (JointBatch._runs_out); a shoe with no card of the up
        # card's rank is never dealt (its row is zeros there)
        at = np.flatnonzero(dealer_may_run_out(with_up, n_left + 1) & (with_up[:, up] > 0))
        if not len(at):
            return none
        n = n_left[at]
        rest = as_numbers(np.ones(len(at), dtype=np.int64), self.exact)
        for size in range(1, self.depth):  # ff(n - 1, depth - 1), each factor at least 1 (falling_left)
            rest = rest * as_numbers(np.maximum(n - size, 1), self.exact)
        whole = as_numbers(np.maximum(n, 1), self.exact)
        bj_rank = {0: 9, 9: 0}.get(up)
        bj = as_numbers(np.zeros(len(at), dtype=np.int64) if bj_rank is None else left[at, bj_rank], self.exact)
        if model is not None:
            codes = self.base + model.codes(rows[at])
            whole = whole * model.weights(codes, self.exact)
            if bj_rank is not None:
                bj = bj * model.weights(codes + model.rank_codes()[bj_rank], self.exact)
        return at, (whole - bj) * rest

    def pay_columns(self, payoff: np.ndarray) -> np.ndarray:
        """The column of each of ``payoff`` (a hand's total, or :data:`CHARLIE`) in this batch's
        stand tables (:func:`pay_tables`): the same for every batch of the same
        :attr:`outcome_key`."""
        return np.ascontiguousarray(self._pay_column[payoff], dtype=np.int64)

    def _with_charlies(self, out: np.ndarray, columns: np.ndarray, payoff: np.ndarray,
                       charlies: np.ndarray | None = None) -> np.ndarray:
        """``out`` (stand numerators of ``columns`` and ``payoff``) with every charlie's
        :meth:`charlie_numerators` where the dealer may run out. ``charlies``: where ``payoff``
        is :data:`CHARLIE`, if known."""
        if charlies is None:
            charlies = np.flatnonzero(np.asarray(payoff) == CHARLIE)
        if not len(charlies):
            return out
        at, values = self.charlie_numerators(np.asarray(columns)[charlies])
        if len(at):
            out = out.copy()
            out[charlies[at]] = values
        return out

    def joint_stands(self, others: Sequence[DealerBatch], columns: np.ndarray, payoff: np.ndarray,
                     pay_columns: Sequence[np.ndarray] | None = None) -> np.ndarray | None:
        """:meth:`stand_numerators` of this batch and ``others`` (float mode, every one reading
        the same joint pass), joined batch after batch, with one read of the pass's chunks; None
        where they do not share a joint pass. ``pay_columns``: each batch's :meth:`pay_columns`
        of ``payoff``, where the caller keeps them."""
        batches = [self, *others]
        if self.exact or self._joint is None or any(b._joint is not self._joint for b in batches):
            return None
        columns = np.asarray(columns, dtype=np.intp)
        if pay_columns is None:
            pay_columns = [b.pay_columns(payoff) for b in batches]
        out = self._joint.stand_many([b.dealer.up for b in batches], columns, pay_columns)
        n = len(columns)
        charlies = np.flatnonzero(np.asarray(payoff) == CHARLIE)
        if len(charlies):
            for u, batch in enumerate(batches):
                out[u * n : (u + 1) * n] = batch._with_charlies(out[u * n : (u + 1) * n], columns, payoff, charlies)
        return out

    def stand_residues(self, columns: np.ndarray, payoff: np.ndarray,
                       primes: Sequence[int]) -> tuple[np.ndarray, np.ndarray] | None:
        """Exact mode: :meth:`stand_numerators` as floats (to about 1e-16 of the denominator)
        and modulo each of ``primes`` (an int64 (columns, primes) array), for the compiled
        exact player pass; with the compiled dealer's 128-bit numerators the big integers are
        never built. ``None`` where the floats would overflow."""
        assert self.exact
        columns = np.ascontiguousarray(columns, dtype=np.intp)
        if self._halves and len(columns) and player_kernel is not None:
            self._evaluate(int(columns.max()) + 1)
            assert self._matrix is not None
            floats = np.empty(len(columns))
            residues = np.empty((len(columns), len(primes)), dtype=np.int64)
            player_kernel.stand_residues(
                np.ascontiguousarray(self._matrix), columns,
                np.ascontiguousarray(self._pay_column[payoff], dtype=np.int64), self._pay_ints,
                np.array(primes, dtype=np.int64), floats, residues)
            charlies = np.flatnonzero(np.asarray(payoff) == CHARLIE)
            at, values = self.charlie_numerators(columns[charlies]) if len(charlies) else (charlies, None)
            for i, value in zip(charlies[at].tolist(), [] if values is None else values.tolist()):
                floats[i] = float(value)
                residues[i] = [value % p for p in primes]
            return floats, residues
        exact = self.stand_numerators(columns, payoff)
        try:
            floats = np.array([float(x) for x in exact.tolist()], dtype=np.float64)
        except OverflowError:
            return None
        residues = np.empty((len(exact), len(primes)), dtype=np.int64)
        for t, p in enumerate(primes):
            residues[:, t] = (exact % p).astype(np.int64)
        return floats, residues

    @functools.cached_property
    def _pay_ints(self) -> np.ndarray:
        """The distinct pay columns as int64 (outcomes, columns)."""
        return np.ascontiguousarray(np.rint(self._pay_distinct).astype(np.int64))

    def outcomes(self, columns: np.ndarray) -> dict[int, np.ndarray]:
        """Dealer outcome numerators (over ``ff(cards left, depth)``) of registered columns."""
        codes, matrix = self.outcome_matrix(columns)
        return {int(o): matrix[:, i] for i, o in enumerate(codes)}
