"""How a counter's shoe deals, as the engine sees it: a composition with hidden cards and one
weight per class total drawn.

A counter's shoe (:class:`bjcalc.counting.countshoe.CountShoe`, docs/countshoe.md) holds ``n_r`` cards of
each rank off the table, of which ``hidden`` went to the discards unseen; ``L`` are left. The
probability that the next cards are a given sequence, ``a_r`` of rank ``r`` and ``A_j`` of tag
class ``j``, is

    prod_r n_r^(a_r) / L^(|a|)  *  Z(M - A) / Z(M)

(falling factorials; ``Z(M)``: the discard sets of the cards off the table). The first factor
is the engine's composition arithmetic with the per-rank factors taken from ``n`` and the
denominators from ``L``; the second, the **weight** of the class totals drawn, multiplies every
stopping state of a round. :class:`DrawModel` is that second factor: ``Z(M - A)`` as integers
(exact mode; the common ``Z(M)`` is left out of every numerator and denominator alike) or
``Z(M - A) / Z(M)`` as floats, for any class-total vectors ``A``.

Through the posterior over the discards' split by class (``d``, with ``u = M - d`` left)
``Z(M - A) = sum_d c_d prod_j u_j^(A_j) / M_j^(A_j)`` with ``c_d = prod_j C(M_j, d_j)``: one sum
over the posterior's support per vector (exact mode), or in float mode, for many vectors at once,
a sum over the support per distinct part of the vectors in one group of classes and a matrix
product for the other group (:meth:`DrawModel._float_weights`).

A composition is the model with nothing hidden, where every weight is 1: the engine takes
``None`` for it and runs its compiled loops.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import operator
from fractions import Fraction

import numpy as np

# class totals are packed into one integer, RADIX per class: no round draws this many cards
RADIX = 64
_PRODUCT_SIZE = 1 << 21  # the most floats of one step of DrawModel._float_weights (16 MB)
_DIRECT_SIZE = 1 << 18  # up to this many (support, vector) products, _float_weights sums them directly
_DENSE_CLASSES = 3  # the most classes whose float weights are kept in a table by code (RADIX ** 3 floats)


@dataclasses.dataclass(frozen=True, eq=False)
class DrawModel:
    """The weights of a counter's shoe (module docstring); a value, keyed by :attr:`key`."""

    counts: tuple[int, ...]  # n_r: the cards off the table, the hidden ones among them
    hidden: int  # of which this many are discards
    of_rank: tuple[int, ...]  # the tag class of each rank
    pool: tuple[int, ...]  # M_j: the cards of each class off the table
    support: tuple[tuple[tuple[int, ...], int], ...]  # (u: class totals left, c_d), the posterior's support

    def __post_init__(self) -> None:
        if len(self.pool) > 6:
            raise ValueError("at most six tag classes")  # RADIX ** classes must fit an int64

    @functools.cached_property
    def key(self) -> tuple:
        return (self.counts, self.hidden, self.of_rank, self.pool, self.support)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DrawModel) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def classes(self) -> int:
        return len(self.pool)

    @functools.cached_property
    def total(self) -> int:
        """``Z(M)``: every weight of exact mode is over it."""
        return sum(c for _, c in self.support)

    @functools.cached_property
    def _class_matrix(self) -> np.ndarray:
        """(10, classes) one-hot: counts @ it = class totals."""
        m = np.zeros((10, self.classes), dtype=np.int64)
        m[np.arange(10), list(self.of_rank)] = 1
        return m

    def codes(self, counts: np.ndarray) -> np.ndarray:
        """The packed class totals of rank-count rows (..., 10): sums of codes are the codes of
        sums."""
        return np.asarray(counts, dtype=np.int64) @ self._rank_codes

    @functools.cached_property
    def _rank_codes(self) -> np.ndarray:
        packed = self._class_matrix @ (RADIX ** np.arange(self.classes, dtype=np.int64))
        packed.flags.writeable = False
        return packed

    def rank_codes(self) -> np.ndarray:
        """The code of one card of each rank."""
        return self._rank_codes.copy()

    @functools.cached_property
    def _rank_code_ints(self) -> tuple[int, ...]:
        return tuple(int(c) for c in self._rank_codes)

    def _unpack(self, codes: np.ndarray) -> np.ndarray:
        codes = np.asarray(codes, dtype=np.int64)
        return np.stack([(codes // RADIX**j) % RADIX for j in range(self.classes)], axis=-1)

    def weights(self, codes: np.ndarray, exact: bool) -> np.ndarray:
        """The weight of each packed class-total vector: ``Z(M - A)`` (Python ints, exact) or
        ``Z(M - A) / Z(M)`` (floats), shaped like ``codes``."""
        codes = np.asarray(codes, dtype=np.int64)
        if not codes.size:
            return np.zeros(codes.shape, dtype=object if exact else np.float64)
        if not exact:
            return self._known_float_weights(codes.reshape(-1)).reshape(codes.shape)
        unique, inverse = self.distinct_index(codes)
        values = np.array([self._exact_weight(int(c)) for c in unique.tolist()] or [0], dtype=object)
        return values[: len(unique)][inverse].reshape(codes.shape)

    @functools.cached_property
    def _float_cache(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The float weights worked out so far: one (sorted codes, weights) pair, replaced whole
        when it grows (so a thread reading it sees one pair or the next, never half of one)."""
        return [(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))]

    @functools.cached_property
    def _dense(self) -> np.ndarray | None:
        """The float weights by code, NaN until worked out, where the codes are few (at most
        three classes: 2 MB): a gather instead of a sorted search per lookup."""
        return np.full(RADIX**self.classes, np.nan) if self.classes <= _DENSE_CLASSES else None

    def distinct(self, codes: np.ndarray) -> np.ndarray:
        """``np.unique`` of packed class totals: with at most three classes (the codes below
        ``RADIX ** 3``) by marking them in a table the size of the code space, which takes a
        fifteenth of sorting tens of thousands of them."""
        codes = np.asarray(codes, dtype=np.int64).reshape(-1)
        if self.classes > _DENSE_CLASSES:
            return np.unique(codes)
        marks = np.zeros(RADIX**self.classes, dtype=bool)
        marks[codes] = True
        return np.flatnonzero(marks)

    def distinct_index(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`distinct` and each code's index among them (``np.unique(codes,
        return_inverse=True)``, flat)."""
        codes = np.asarray(codes, dtype=np.int64).reshape(-1)
        unique = self.distinct(codes)
        if self.classes > _DENSE_CLASSES:
            return unique, np.searchsorted(unique, codes)
        position = np.empty(RADIX**self.classes, dtype=np.intp)
        position[unique] = np.arange(len(unique))
        return unique, position[codes]

    def _known_float_weights(self, codes: np.ndarray) -> np.ndarray:
        """:meth:`_float_weights` of codes (1-d), each worked out once per model: an analysis
        asks for the same class totals again for every up card, split shoe and hand graph, so
        most calls only look them up. Threads may ask at once (the dealer's pass runs ahead):
        at worst two work out the same weights and write the same floats."""
        dense = self._dense
        if dense is not None:
            values = dense[codes]
            missing = np.isnan(values)
            if missing.any():
                new = self.distinct(codes[missing])
                dense[new] = self._float_weights(new)
                values = dense[codes]
            return values
        known, values = self._float_cache[0]
        if len(known):
            at = np.minimum(np.searchsorted(known, codes), len(known) - 1)
            if (known[at] == codes).all():
                return values[at]
            missing = np.setdiff1d(codes, known, assume_unique=False)
        else:
            missing = np.unique(codes)
        merged = np.concatenate([known, missing])
        order = np.argsort(merged, kind="stable")
        known, values = merged[order], np.concatenate([values, self._float_weights(missing)])[order]
        self._float_cache[0] = (known, values)
        return values[np.searchsorted(known, codes)]

    @functools.cached_property
    def _exact_cache(self) -> dict[int, int]:
        return {}

    def _exact_weight(self, code: int) -> int:
        cache = self._exact_cache
        if code not in cache:
            drawn = self._unpack(np.array(code)).tolist()
            if any(a > m for a, m in zip(drawn, self.pool)):
                cache[code] = 0
            else:
                below = math.prod(math.perm(m, a) for m, a in zip(self.pool, drawn))
                ways, classes = self._exact_support
                above = ways
                for (values, index), a in zip(classes, drawn):
                    if a:  # u^(a) for each of the class's distinct totals left, then per split
                        above = above * np.array([math.perm(v, a) for v in values] + [0], dtype=object)[index]
                total = int(above.sum())
                assert total % below == 0
                cache[code] = total // below
        return cache[code]

    @functools.cached_property
    def _exact_support(self) -> tuple[np.ndarray, list[tuple[list[int], np.ndarray]]]:
        """The posterior's ``c_d`` (Python integers) and, per class, its distinct totals left and
        each split's index among them: :meth:`_exact_weight` multiplies whole columns."""
        ways = np.array([c for _, c in self.support] + [0], dtype=object)[:-1]
        values, index = self._class_totals
        return ways, [([int(v) for v in values[j]], index[:, j]) for j in range(self.classes)]

    @functools.cached_property
    def _class_totals(self) -> tuple[list[np.ndarray], np.ndarray]:
        """Per class, the distinct totals left over the posterior's support, and each split's
        totals as indices among them (one column per class): what the exact weights and the
        float ratio tables both index."""
        _, left = self._float_support
        index = np.zeros_like(left)
        values = []
        for j in range(self.classes):
            distinct, inverse = np.unique(left[:, j], return_inverse=True)
            values.append(distinct)
            index[:, j] = inverse.reshape(-1)
        return values, index

    @functools.cached_property
    def _float_support(self) -> tuple[np.ndarray, np.ndarray]:
        """The posterior's weights as floats (summing to 1) and its class totals left."""
        total = self.total
        weights = np.array([c / total for _, c in self.support], dtype=np.float64)
        left = np.array([u for u, _ in self.support], dtype=np.int64).reshape(-1, self.classes)
        return weights, left

    @functools.cached_property
    def _ratio_tables(self) -> tuple[np.ndarray, list[np.ndarray]]:
        """The support's class totals left as indices into the distinct totals of each class,
        and per class ``r_j[i, a] = v_i^(a) / M_j^(a)`` for its ``i``-th distinct total ``v_i``
        left of ``M_j``: the chance that a given ``a`` cards of the class are all among them
        (``a`` below :data:`RADIX`)."""
        distinct, index = self._class_totals
        tables = []
        steps = np.arange(RADIX - 1)
        for j, m in enumerate(self.pool):
            values = distinct[j]
            with np.errstate(divide="ignore", invalid="ignore"):
                step = np.clip(values[:, None] - steps[None, :], 0, None) / (m - steps[None, :])
            step = np.where(steps[None, :] < m, step, 0.0)
            tables.append(np.concatenate([np.ones((len(values), 1)), np.cumprod(step, axis=1)], axis=1))
        return index, tables

    @functools.cached_property
    def _groupings(self) -> dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray]]:
        return {}

    def _support_by(self, group: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The posterior's support grouped by its class totals left in ``group``: those totals
        (one row per group, as indices into :attr:`_ratio_tables`), the support's order that
        puts each group together, and where each group starts in that order. Kept per group on
        the model (at most 2^classes of them)."""
        known = self._groupings.get(group)
        if known is None:
            index, _ = self._ratio_tables
            rows, of = _distinct_rows(index, group)
            order = np.argsort(of, kind="stable")
            starts = np.flatnonzero(np.r_[True, np.diff(of[order]) != 0])
            known = self._groupings.setdefault(group, (rows, order, starts))
        return known

    def _float_weights(self, codes: np.ndarray) -> np.ndarray:
        """``Z(M - A) / Z(M)`` for each code, factored over two groups of classes.

        With the classes split into ``G`` and ``H``, ``u^(A) / M^(A)`` is ``x(u_G, A_G) *
        y(u_H, A_H)``, so the weights of all vectors form the matrix ``X^T Y`` over the distinct
        parts ``A_G`` (columns of ``X``, rows: the support's distinct ``u_G``) and ``A_H``, where
        ``Y[g, h] = sum over the support's splits with ``u_G = g`` of ``c_d y(u_H, A_H = h)``. A
        round's draws take few distinct values in each group: the work is the support times the
        distinct ``A_H`` (not times every vector), plus one matrix product. The split is chosen
        per call by that cost; with ``G`` empty it is the plain sum over the support."""
        weights, _ = self._float_support
        drawn = self._unpack(codes)  # (n, classes)
        if not len(codes):
            return np.zeros(0, dtype=np.float64)
        if len(weights) * len(codes) <= _DIRECT_SIZE:
            # a small support (a three-class count, as Hi-Lo's): the plain sum over it, one
            # gather per class, costs less than choosing a split
            index, tables = self._ratio_tables
            product = np.repeat(weights[:, None], len(codes), axis=1)
            for j in range(self.classes):
                product *= tables[j][index[:, j][:, None], drawn[:, j][None, :]]
            return product.sum(axis=0)
        group, rest, (parts, part_of), (others, other_of) = self._cheapest_split(drawn)
        totals, order, starts = self._support_by(group)
        left, tables = self._ratio_tables
        x = np.ones((len(totals), len(parts)), dtype=np.float64)
        for c, j in enumerate(group):
            x *= tables[j][totals[:, c][:, None], parts[:, c][None, :]]
        ordered = weights[order]
        ratio_rows = [tables[j][left[order, j]] for j in rest]  # (support, a) per class of H
        out = np.empty((len(parts), len(others)), dtype=np.float64)
        # a few vectors at a time, so that the (support, vectors) products stay small: a count of
        # many classes has a support of 10^4 to 10^6 splits on a large shoe
        chunk = max(1, _PRODUCT_SIZE // len(weights))
        for start in range(0, len(others), chunk):
            part = others[start : start + chunk]
            product = np.repeat(ordered[:, None], len(part), axis=1)
            for c, rows in enumerate(ratio_rows):
                product *= rows[:, part[:, c]]
            out[:, start : start + chunk] = x.T @ np.add.reduceat(product, starts, axis=0)
        return out[part_of, other_of]

    def _cheapest_split(self, drawn: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...], _Rows, _Rows]:
        """The split of the classes into (G, H) for :meth:`_float_weights` of these class-total
        vectors with the least work (the support times the distinct ``A_H`` times ``|H|``
        gathers, weighted as ten multiply-adds each, plus the matrix product), with the
        distinct rows of ``drawn`` in G and in H it was costed on."""
        size = len(self.support)
        rows: dict[tuple[int, ...], _Rows] = {}

        def distinct(columns: tuple[int, ...]) -> _Rows:
            if columns not in rows:
                rows[columns] = _distinct_rows(drawn, columns)
            return rows[columns]

        best: tuple[float, tuple[int, ...], tuple[int, ...]] | None = None
        for taken in range(self.classes):
            for group in itertools.combinations(range(self.classes), taken):
                rest = tuple(j for j in range(self.classes) if j not in group)
                totals = len(self._support_by(group)[0])
                parts = len(distinct(group)[0])
                others = len(distinct(rest)[0])
                cost = 10 * size * others * len(rest) + totals * parts * others
                if best is None or cost < best[0]:
                    best = (cost, group, rest)
        assert best is not None
        return best[1], best[2], rows[best[1]], rows[best[2]]

    def code_of(self, counts: tuple[int, ...]) -> int:
        return sum(map(operator.mul, counts, self._rank_code_ints))

    def can_draw(self, code: int) -> bool:
        """Whether cards of the class totals ``code`` (packed) can all be drawn: some split of
        the discards in the posterior's support leaves each class at least that many cards
        (``Z(M - A) > 0``; its weight is 0, exactly, otherwise). Where a rank is certainly gone,
        a state holding it has probability 0 and no value to condition on."""
        known = self._drawable
        if code not in known:
            _, left = self._float_support
            drawn = self._unpack(np.array(code))
            known[code] = bool((left >= drawn).all(axis=1).any())
        return known[code]

    @functools.cached_property
    def _drawable(self) -> dict[int, bool]:
        return {}

    def draw_factor(self, before: int, drawn: tuple[int, ...], cards: int) -> Fraction:
        """How much likelier drawing the cards ``drawn`` (rank counts, in a given order) is on
        this shoe than on the composition of its counts, once cards of class totals ``before``
        (packed) were drawn leaving ``cards`` of the counts: ``ff(cards, n) / ff(cards -
        hidden, n)`` (the denominators) times the ratio of the weights after and before."""
        n, after = sum(drawn), before + self.code_of(drawn)
        known = self._exact_factors
        factor = known.get((before, after, n, cards))
        if factor is None:
            below = self._exact_weight(before) * math.perm(cards - self.hidden, n)
            factor = Fraction(0) if below == 0 else Fraction(math.perm(cards, n) * self._exact_weight(after), below)
            known[before, after, n, cards] = factor
        return factor

    @functools.cached_property
    def _exact_factors(self) -> dict[tuple[int, int, int, int], Fraction]:
        """:meth:`draw_factor` by what it depends on (the class totals before and after, the
        cards drawn and left): the 55 two-card hands dealt against an up card fall in a few
        class totals (Hi-Lo: six), and each factor is a big-integer fraction worked out once."""
        return {}

    @functools.cached_property
    def _float_pairs(self) -> dict[tuple[int, int], tuple[float, float]]:
        """:meth:`float_draw_factor`'s weights before and after, as floats, by their codes: a
        split asks for the same pair card's odds on every removal, for the chart and for CD."""
        return {}

    def float_draw_factor(self, before: int, drawn: tuple[int, ...], cards: int) -> float:
        """:meth:`draw_factor` in floats, from the float weights (no big integers)."""
        after = before + self.code_of(drawn)
        known = self._float_pairs
        pair = known.get((before, after))
        if pair is None:
            w_before, w_after = self._known_float_weights(np.array([before, after]))
            pair = known[before, after] = float(w_before), float(w_after)
        w_before, w_after = pair
        if w_before == 0 or sum(drawn) > cards - self.hidden:  # (past the last card left: none)
            return 0.0
        ratio = 1.0
        for i in range(sum(drawn)):
            ratio *= (cards - i) / (cards - self.hidden - i)
        return ratio * float(w_after) / float(w_before)


# distinct rows of a table's columns, and each row's index among them
_Rows = tuple[np.ndarray, np.ndarray]


def _distinct_rows(table: np.ndarray, columns: tuple[int, ...]) -> _Rows:
    """The distinct rows of ``table[:, columns]`` (small non-negative integers) and the index of
    each row among them; one empty row when ``columns`` is empty."""
    if not columns:
        return np.zeros((1, 0), dtype=np.int64), np.zeros(len(table), dtype=np.intp)
    chosen = table[:, list(columns)]
    radix = int(chosen.max(initial=0)) + 1
    if radix ** len(columns) >= 1 << 62:
        rows, inverse = np.unique(chosen, axis=0, return_inverse=True)
        return rows, inverse.reshape(-1)
    key = np.zeros(len(table), dtype=np.int64)
    for c in range(len(columns)):
        key = key * radix + chosen[:, c]
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return chosen[first], inverse.reshape(-1)
