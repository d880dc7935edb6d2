"""How a counter's shoe deals, as the engine sees it: a composition with hidden cards and one
weight per class total drawn.

A counter's shoe (:class:`bjcalc.countshoe.CountShoe`, docs/countshoe.md) holds ``n_r`` cards of
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
over the posterior's support per vector, vectorised over vectors in float mode.

A composition is the model with nothing hidden, where every weight is 1: the engine takes
``None`` for it and runs its compiled loops.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from fractions import Fraction

import numpy as np

# class totals are packed into one integer, RADIX per class: no round draws this many cards
RADIX = 64
_PRODUCT_SIZE = 1 << 21  # the most floats of one step of DrawModel._float_weights (16 MB)


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
        unique, inverse = np.unique(codes, return_inverse=True)
        values = np.array([self._exact_weight(int(c)) for c in unique.tolist()] or [0], dtype=object)
        return values[: len(unique)][inverse.reshape(-1)].reshape(codes.shape)

    @functools.cached_property
    def _float_cache(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The float weights worked out so far: one (sorted codes, weights) pair, replaced whole
        when it grows (so a thread reading it sees one pair or the next, never half of one)."""
        return [(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))]

    def _known_float_weights(self, codes: np.ndarray) -> np.ndarray:
        """:meth:`_float_weights` of codes (1-d), each worked out once per model: an analysis
        asks for the same class totals again for every up card, split shoe and hand graph, so
        most calls only look them up."""
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
                above = sum(c * math.prod(math.perm(u, a) for u, a in zip(left, drawn)) for left, c in self.support)
                assert above % below == 0
                cache[code] = above // below
        return cache[code]

    @functools.cached_property
    def _float_support(self) -> tuple[np.ndarray, np.ndarray]:
        """The posterior's weights as floats (summing to 1) and its class totals left."""
        total = self.total
        weights = np.array([c / total for _, c in self.support], dtype=np.float64)
        left = np.array([u for u, _ in self.support], dtype=np.int64).reshape(-1, self.classes)
        return weights, left

    def _float_weights(self, codes: np.ndarray) -> np.ndarray:
        weights, left = self._float_support
        drawn = self._unpack(codes)  # (n, classes)
        out = np.zeros(len(codes), dtype=np.float64)
        if not len(codes):
            return out
        # ratio[j][d, a] = u_j^(a) / M_j^(a): the chance that a given a cards of class j are all left
        most = int(drawn.max(initial=0))
        steps = np.arange(most)
        ratios = []
        for j, m in enumerate(self.pool):
            with np.errstate(divide="ignore", invalid="ignore"):
                step = np.clip(left[:, j, None] - steps[None, :], 0, None) / (m - steps[None, :])
            step = np.where(steps[None, :] < m, step, 0.0)
            ratios.append(np.concatenate([np.ones((len(weights), 1)), np.cumprod(step, axis=1)], axis=1))
        # a few codes at a time, so that the (support, codes) products stay small: a count of
        # many classes has a support of 10^4 to 10^6 splits on a large shoe
        chunk = max(1, _PRODUCT_SIZE // len(weights))
        for start in range(0, len(codes), chunk):
            part = drawn[start : start + chunk]
            product = np.ones((len(weights), len(part)), dtype=np.float64)
            for j, ratio in enumerate(ratios):
                product *= ratio[:, part[:, j]]
            out[start : start + chunk] = weights @ product
        return out

    def code_of(self, counts: tuple[int, ...]) -> int:
        return sum(n * c for n, c in zip(counts, self._rank_code_ints))

    def draw_factor(self, before: int, drawn: tuple[int, ...], cards: int) -> Fraction:
        """How much likelier drawing the cards ``drawn`` (rank counts, in a given order) is on
        this shoe than on the composition of its counts, once cards of class totals ``before``
        (packed) were drawn leaving ``cards`` of the counts: ``ff(cards, n) / ff(cards -
        hidden, n)`` (the denominators) times the ratio of the weights after and before."""
        n = sum(drawn)
        below = self._exact_weight(before) * math.perm(cards - self.hidden, n)
        if below == 0:
            return Fraction(0)
        return Fraction(math.perm(cards, n) * self._exact_weight(before + self.code_of(drawn)), below)

    def float_draw_factor(self, before: int, drawn: tuple[int, ...], cards: int) -> float:
        """:meth:`draw_factor` in floats, from the float weights (no big integers)."""
        w_before, w_after = self._known_float_weights(np.array([before, before + self.code_of(drawn)]))
        if w_before == 0:
            return 0.0
        ratio = 1.0
        for i in range(sum(drawn)):
            ratio *= (cards - i) / (cards - self.hidden - i)
        return ratio * float(w_after) / float(w_before)
