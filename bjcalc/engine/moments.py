"""The first and second moments of a split pair's total result, exact, resplits included.

The EV of a split needs only one hand at a time (see :mod:`bjcalc.engine.split`), but its second
moment needs ``E[Xi Xj]`` for every two hands: they share the dealer's cards and each other's
removals. :func:`split_moments` carries the split recursion to second moments, which leaves
expectations of one hand or of two hands dealt together (:class:`_SplitSquare`); those two are
enumerated jointly, without approximation:

* Each split hand ends in a *terminal* state ``F``: its cards, its bet (1, or 2 when doubled)
  and how it ends (standing on a total, Charlie, or bust). ``c(F)`` counts the orders of its
  drawn cards that the strategy plays to ``F`` (every proper prefix is a state where it hits).
  Without resplitting both hands follow the same strategy, a function of the hand's cards.
* Drawing without replacement, a particular sequence of draws has a probability that depends
  only on the multiset of cards drawn. So hand 1 ending in ``F1``, hand 2 in ``F2`` and the
  dealer in outcome ``o`` has probability ``c(F1) c(F2) ff_S(M) P(o | S - M)``, where ``M`` is
  the multiset both hands drew, ``ff_S(M) = prod_r ff(S_r, M_r) / ff(|S|, |M|)`` and ``S`` is
  the shoe after the up card and both pair cards.
* The product of the two hands' results is ``phi_o(F1) phi_o(F2)``, so ``E[X1 X2] = sum over
  (F1, F2, o)`` of probability times product. Pairs with the same ``M`` share one dealer
  evaluation; so do all the expectations one split needs on one shoe.
* Dealing order does not matter: a configuration of hands has the same probability (that of
  its multiset) whichever hand is dealt first, when each hand is played from its own cards.
  That is what lets a finished hand wait, in the recursion, until the hands after it are dealt.

Frames are those of :meth:`bjcalc.engine.split.SplitSolver.value`: a peeking dealer with an A or T
up gives ``E[Y^k; no dealer blackjack]``, otherwise unconditional.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.cards import BLACKJACK, BUST
from bjcalc.engine import classsums
from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.dealer import exact_halves, outcome_numerators, projected_numerators
from bjcalc.engine.hands import PACK
from bjcalc.engine.jointdealer import joint_dealer, joint_numerators
from bjcalc.engine.kernels import dealer_kernel_available, joint_kernel_available, pairs_kernel, pairs_kernel_available
from bjcalc.engine.lastcards import dealer_may_run_out
from bjcalc.engine.pools import in_parts
from bjcalc.engine.residues import from_residues, primes_above
from bjcalc.engine.values import HandValues, stacked_values
from bjcalc.numbers import falling, falling_left

_CHARLIE = 24  # the "kind" of a Charlie hand; other kinds: its total 4..21, or BUST (22)
_ONE_MORE = np.eye(10, dtype=np.int64)[None, :, :]  # a hand's counts plus one card of each rank


_STAND, _HIT, _DOUBLE = int(Code.STAND), int(Code.HIT), int(Code.DOUBLE)  # compared with int8 decisions


def terminal_states(solved, pair: int, rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The terminal states of one split hand under its decisions: (cards, bet, kind, count of
    orders), duplicates merged. ``cards`` include the pair card. The counts are two columns:
    every order, and only the orders whose first draw (the hand's second card) is of the
    pair's rank (zero for the states no such order reaches). One walk over the hand's layers
    for both: the compiled loop's (``_pairs_kernel.terminal_walk``), else each layer's drawing
    hands and ranks at once in numpy."""
    layers = solved.layers
    if pairs_kernel_available():
        flat = layers.flat
        records = np.frombuffer(pairs_kernel.terminal_walk(
            np.ascontiguousarray(flat.counts, dtype=np.int64), np.ascontiguousarray(flat.children, dtype=np.int64),
            np.ascontiguousarray(flat.starts, dtype=np.int64), np.ascontiguousarray(flat.totals, dtype=np.int64),
            np.ascontiguousarray(np.concatenate(solved.decision), dtype=np.int64), pair, rules.charlie or 0,
            (_STAND, _HIT, _DOUBLE), (BUST, _CHARLIE)), dtype=np.int64).reshape(-1, 5)
        return _merged(records[:, 0], records[:, 1], records[:, 2], records[:, 3:])
    counts_in = [np.zeros((len(c), 2), dtype=np.int64) for c in layers.counts]
    counts_in[0][0, 0] = 1
    child = int(layers.children[0][0, pair])
    if child < 0:  # pragma: no cover - a one-card hand cannot bust
        raise AssertionError("a second card busted a split hand")
    counts_in[1][child, 1] = 1
    cards, bets, kinds, ways = [], [], [], []

    def kind_of(hands: np.ndarray, totals: np.ndarray) -> np.ndarray:
        if rules.charlie is None:
            return totals
        return np.where(hands.sum(axis=1) >= rules.charlie, _CHARLIE, totals)

    for k, hands in enumerate(layers.counts):
        ways_here = counts_in[k]
        live = ways_here[:, 0] > 0  # the paired orders are some of all the orders
        decision = solved.decision[k]
        standing = live & (decision == _STAND)
        if standing.any():
            cards.append(hands[standing])
            bets.append(np.ones(int(standing.sum()), dtype=np.int64))
            kinds.append(kind_of(hands[standing], layers.totals[k][standing]))
            ways.append(ways_here[standing])
        for action, bet in ((_HIT, 1), (_DOUBLE, 2)):
            drawing = live & (decision == action)
            if not drawing.any():
                continue
            # every drawing hand and every rank at once: (hands, ranks) children and counts
            rows = np.flatnonzero(drawing)
            child_of = layers.children[k][rows]
            drawn = (hands[rows][:, None, :] + _ONE_MORE).astype(hands.dtype, copy=False)
            ways_drawn = np.broadcast_to(ways_here[rows][:, None, :], child_of.shape + (2,))
            bust = child_of < 0
            if bust.any():
                cards.append(drawn[bust])
                bets.append(np.full(int(bust.sum()), bet, dtype=np.int64))
                kinds.append(np.full(int(bust.sum()), BUST, dtype=np.int64))
                ways.append(ways_drawn[bust])
            ok = ~bust
            if not ok.any():
                continue
            if action == _HIT:
                np.add.at(counts_in[k + 1], child_of[ok], ways_drawn[ok])
            else:
                cards.append(drawn[ok])
                bets.append(np.full(int(ok.sum()), 2, dtype=np.int64))
                kinds.append(kind_of(drawn[ok], layers.totals[k + 1][child_of[ok]]))
                ways.append(ways_drawn[ok])
    return _merged(np.concatenate(cards) @ PACK, np.concatenate(bets), np.concatenate(kinds), np.concatenate(ways))


def _merged(packed: np.ndarray, bets: np.ndarray, kinds: np.ndarray, ways: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`terminal_states`' states (cards packed, bet, kind, both counts of orders) with
    duplicates merged, by cards, bet and kind, their counts added; the cards unpacked."""
    unique, first_at, inverse = np.unique(packed * 64 + bets * 32 + kinds, return_index=True, return_inverse=True)
    merged = np.zeros((len(unique), 2), dtype=np.int64)
    np.add.at(merged, inverse.reshape(-1), ways)
    return _unpack(packed[first_at]).astype(np.int64), bets[first_at], kinds[first_at], merged


@dataclasses.dataclass(frozen=True)
class _HandSums:
    """One split hand's terminal states under one set of decisions, summed by the multiset it
    drew (the pair card it started with excluded): for each multiset (``keys``, ``rows``) and
    dealer outcome, ``value`` = sum of (count of orders) x (result) and ``square`` = the same
    with the result squared. ``free``: every order; ``paired``: only the orders whose second
    card is of the pair's rank."""

    keys: np.ndarray
    rows: np.ndarray
    value: dict[str, np.ndarray]
    square: dict[str, np.ndarray]


def _hand_sums(solved, pair: int, context: UpcardContext, codes: np.ndarray) -> _HandSums:
    cards, bets, kinds, ways = terminal_states(solved, pair, context.rules)
    keys_all, at = np.unique(cards @ PACK, return_inverse=True)  # the paired orders' states are among these
    at = at.reshape(-1)
    rows = np.zeros((len(keys_all), 10), dtype=np.int64)
    rows[at] = cards
    phi = _results(context, bets, kinds, codes)  # (states, outcomes)
    value, square = {}, {}
    for column, name in enumerate(("free", "paired")):
        v = np.zeros((len(keys_all), len(codes)), dtype=np.int64)
        s = np.zeros_like(v)
        np.add.at(v, at, ways[:, column, None] * phi)
        np.add.at(s, at, ways[:, column, None] * phi * phi)
        value[name], square[name] = v, s
    rows[:, pair] -= 1  # the hand's pair card is already out of the shoe
    return _HandSums(keys_all - PACK[pair], rows, value, square)


def _results(context: UpcardContext, bets: np.ndarray, kinds: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The result of one split hand per dealer outcome (``codes``), for hands ending with
    ``bets`` and ``kinds``. With a peeking dealer the blackjack column is 0 (the frame excludes
    it); with no hole card a dealer blackjack takes what the policies say of each hand."""
    phi = np.sign(kinds[:, None] - codes[None, :]) * bets[:, None]
    phi[:, codes == BUST] = bets[:, None]
    phi[kinds == BUST] = -bets[kinds == BUST][:, None]
    phi[kinds == _CHARLIE] = bets[kinds == _CHARLIE][:, None]
    blackjack = codes == BLACKJACK
    if context.peeked:
        phi[:, blackjack] = 0
    else:
        phi[:, blackjack] = -(context.split_loss + context.double_loss * (bets == 2))[:, None]
    return phi


class _Form(dict):
    """A linear combination of named expectations: name -> coefficient."""

    def __add__(self, other: _Form) -> _Form:  # type: ignore[override]
        out = _Form(self)
        for name, c in other.items():
            out[name] = out.get(name, 0) + c
        return out

    def __sub__(self, other: _Form) -> _Form:
        return self + other.scaled(-1)

    def scaled(self, factor: Any) -> _Form:
        return _Form({name: c * factor for name, c in self.items()})


_ZERO = _Form()


class _SplitSquare:
    """The second moment of a split's total result, any number of hands; see
    :func:`split_moments`. Expectations are named ``(removed, kind, ...)`` and combined
    linearly by the recursion, then evaluated per removal with one dealer evaluation."""

    def __init__(self, splitter, pair: int, face_left: int | None) -> None:
        from bjcalc.engine.split import max_hands

        self.splitter, self.pair, self.face_left = splitter, pair, face_left
        context = splitter.context
        self.context, self.exact = context, context.exact
        self.most = max_hands(context.rules, pair)
        self.codes = np.array(context.dealer.outcomes)
        self.sums: dict[int, _HandSums] = {}  # by :meth:`plays`
        self.play_ids: dict[int, int] = {}
        self.tables: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self.pairs: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self.first: dict[tuple[int, int, int], _Form] = {}
        self.second: dict[tuple[int, int, int], _Form] = {}
        self.cross: dict[tuple[int, int, int, int], _Form] = {}
        self.digests: dict[int, bytes] = {}  # by :meth:`plays`: the split hands' decisions, as values

    # the shoe R_r: after the up card, both pair cards and ``r`` more pair cards
    def shoe(self, r: int) -> np.ndarray:
        shoe = np.array(self.context.shoe, dtype=np.int64)
        shoe[self.pair] -= 2 + r
        return shoe

    def number(self, value: Fraction) -> Any:
        return value if self.exact else float(value)

    def out(self, r: int) -> tuple[int, ...]:
        """The cards out of the up card's shoe on R_r: both pair cards and ``r`` more."""
        return tuple(2 + r if k == self.pair else 0 for k in range(10))

    def q(self, r: int) -> Any:
        """P(the next card is one that resplits) on R_r (a counter's shoe: with its weights)."""
        left = int(self.shoe(r)[self.pair]) if self.face_left is None else max(self.face_left - r, 0)
        return self.context.draw_chance(self.out(r), self.pair, left)

    def rho(self, r: int) -> tuple[Any, Any]:
        """For one face of tens: P(a ten is of the pair's face) for one and for two tens drawn
        from R_r; for any other pair 1 and 1 (a card of the rank resplits)."""
        if self.face_left is None:
            return 1, 1
        face, tens = max(self.face_left - r, 0), int(self.shoe(r)[self.pair])
        one = Fraction(face, tens) if tens else Fraction(0)
        two = Fraction(face * (face - 1), tens * (tens - 1)) if tens > 1 else Fraction(0)
        return self.number(one), self.number(two)

    # the recursion over (pair cards removed beyond the first two, hands, hand being dealt),
    # each of its three quantities memoised by its arguments
    @staticmethod
    def _memo(memo: dict, compute: Callable[..., _Form], *key: int) -> _Form:
        if key not in memo:
            memo[key] = compute(*key)
        return memo[key]

    def mean(self, r: int, hands: int, current: int) -> _Form:
        """E[sum of the results of hands current..hands], as in split_recursion."""
        return self._memo(self.first, self._mean, r, hands, current)

    def _mean(self, r: int, hands: int, current: int) -> _Form:
        if current > hands:
            return _ZERO
        one, _ = self.rho(r)
        free = _Form({(r, "value", "free", r): 1})
        if hands >= self.most:
            return free.scaled(hands - current + 1)
        q = self.q(r)
        not_pair = free - _Form({(r, "value", "paired", r): one})
        value = not_pair + self.mean(r, hands, current + 1)
        if q:
            value = value + (self.mean(r + 1, hands + 1, current) - self.mean(r + 1, hands, current + 1)).scaled(q)
        return value

    def square(self, r: int, hands: int, current: int) -> _Form:
        """E[(sum of the results of hands current..hands)^2]."""
        return self._memo(self.second, self._square, r, hands, current)

    def _square(self, r: int, hands: int, current: int) -> _Form:
        if current > hands:
            return _ZERO
        one, _ = self.rho(r)
        if hands >= self.most:
            m = hands - current + 1
            return _Form({(r, "square", "free", r): m, (r, "joint", "free", r, "free", r): m * (m - 1)})
        q = self.q(r)
        value = _Form({(r, "square", "free", r): 1, (r, "square", "paired", r): -one})
        value = value + self.with_pending(r, r, hands, current + 1).scaled(2) + self.square(r, hands, current + 1)
        if q:
            value = value + (self.square(r + 1, hands + 1, current) - self.square(r + 1, hands, current + 1)).scaled(q)
        return value

    def with_pending(self, s: int, r: int, hands: int, current: int) -> _Form:
        """E[(result of a finished hand) x (sum of hands current..hands)], the finished hand
        dealt at removal ``s`` with a second card that does not resplit. By exchangeability
        its cards may be dealt last, so the hands after it see R_r."""
        return self._memo(self.cross, self._with_pending, s, r, hands, current)

    def _with_pending(self, s: int, r: int, hands: int, current: int) -> _Form:
        if current > hands:
            return _ZERO
        one, two = self.rho(r)

        def joint(a: str, b: str, factor: Any) -> _Form:
            return _Form({(r, "joint", a, s, b, r): factor})

        pending_free = joint("free", "free", 1) - joint("paired", "free", one)  # vs a free hand
        if hands >= self.most:
            return pending_free.scaled(hands - current + 1)
        q = self.q(r)
        both = pending_free - joint("free", "paired", one) + joint("paired", "paired", two)
        value = both + self.with_pending(s, r, hands, current + 1)
        if q:
            value = value + (self.with_pending(s, r + 1, hands + 1, current)
                             - self.with_pending(s, r + 1, hands, current + 1)).scaled(q)
        return value

    # evaluating the named expectations
    def plays(self, r: int) -> int:
        """The first removal whose split hands are played as at removal ``r`` (most post-split
        strategies play alike at every removal: their terminal states are shared; where one pass
        solved every removal's alike, the splitter's first removal, without comparing them)."""
        if r not in self.play_ids and self.splitter.plays_alike(self.pair):  # no need to compare them
            self.play_ids[r] = self.splitter.removals(self.pair)[0]
        if r not in self.play_ids:
            mine = self.splitter.hand_values(self.pair, r).decision
            same = [s for s in sorted(self.play_ids) if self.play_ids[s] == s and all(
                np.array_equal(a, b) for a, b in zip(self.splitter.hand_values(self.pair, s).decision, mine))]
            self.play_ids[r] = same[0] if same else r
        return self.play_ids[r]

    def hand_sums(self, r: int) -> _HandSums:
        r = self.plays(r)
        if r not in self.sums:
            self.sums[r] = _hand_sums(self.splitter.hand_values(self.pair, r), self.pair, self.context, self.codes)
        return self.sums[r]

    def table(self, name: tuple) -> tuple[np.ndarray, np.ndarray]:
        """A named table: the multisets drawn (keys) and, per multiset and dealer outcome, the
        sum over the ways to draw it of (count of orders) x (result, squared result, or product
        of two hands' results). ``name``: (``"value"`` or ``"square"``, which orders, plays) for
        one hand; (``"joint"``, which orders, plays, which orders, plays) for two;
        (``"sign"``, sign, plays): the count of orders of two hands dealt together whose total
        result has that sign (1, 0 or -1); ``"sign without resplit"``: the same, counting only
        the orders where neither hand's second card is of the pair's rank."""
        if name not in self.tables:
            if name[0] in ("sign", "sign without resplit"):
                keys, by_sign = self._sign_tables(name[2], name[0] != "sign")
                for sign, table in by_sign.items():
                    self.tables[name[0], sign, name[2]] = (keys, table)
            elif name[0] != "joint":
                sums = self.hand_sums(name[2])
                self.tables[name] = (sums.keys, (sums.value if name[0] == "value" else sums.square)[name[1]])
            elif pairs_kernel_available():
                self._compiled_joint_tables(name[2], name[4], [(name[1], name[3])])
            else:
                _, a, s, b, t = name
                first, second = self.hand_sums(s), self.hand_sums(t)
                keys, inverse = self.pair_index(s, t)
                table = np.zeros((len(keys), len(self.codes)), dtype=np.int64)
                self._joint_bound(first, a, second, b)  # float64 sums of integers stay exact below 2^53
                # only multisets with some way to draw them in these orders (few have a pair card first)
                rows_a = np.flatnonzero(first.value[a].any(axis=1))
                rows_b = np.flatnonzero(second.value[b].any(axis=1))
                where = inverse.reshape(len(first.keys), len(second.keys))[np.ix_(rows_a, rows_b)].reshape(-1)
                for o in range(len(self.codes)):
                    product = np.multiply.outer(first.value[a][rows_a, o], second.value[b][rows_b, o]).reshape(-1)
                    table[:, o] = np.rint(np.bincount(where, weights=product, minlength=len(keys))).astype(np.int64)
                self.tables[name] = (keys, table)
        return self.tables[name]

    def _sign_tables(self, r: int, no_resplit: bool) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """:meth:`table` for ``("sign", sign, r)``, the three signs at once: every ordered pair
        of terminal states of the two hands (free second cards; with ``no_resplit`` only their
        orders whose second card is not a pair card), by the multiset both drew; their total
        result per dealer outcome is the two hands' results, and with no hole card a dealer
        blackjack that takes only the original bet takes it once (-1)."""
        context = self.context
        solved = self.splitter.hand_values(self.pair, r)
        cards, bets, kinds, both = terminal_states(solved, self.pair, context.rules)
        # every order, or (no_resplit) less the orders that start with a pair card
        ways = both[:, 0] - both[:, 1] if no_resplit else both[:, 0]
        phi = _results(context, bets, kinds, self.codes)
        extra = np.zeros(len(self.codes), dtype=np.int64)
        if not context.peeked and context.bj_rank is not None and context.split_loss == 0:
            extra[self.codes == BLACKJACK] = -1
        drawn = (cards @ PACK) - PACK[self.pair]
        if float(ways.astype(np.float64).sum()) ** 2 >= 2.0**53:  # pragma: no cover - far beyond any shoe's hands
            raise OverflowError("split outcomes: a table's sum could reach 2^53")
        if pairs_kernel_available():
            return self._compiled_sign_tables(drawn, bets * 32 + kinds, phi, ways, extra)
        both = (drawn[:, None] + drawn[None, :]).reshape(-1)
        keys = np.unique(both)
        where = np.searchsorted(keys, both)
        weight = np.multiply.outer(ways, ways).reshape(-1).astype(np.float64)  # exact below 2^53
        tables = {sign: np.zeros((len(keys), len(self.codes)), dtype=np.int64) for sign in (1, 0, -1)}
        for o in range(len(self.codes)):
            if context.peeked and self.codes[o] == BLACKJACK:
                continue  # the frame: no dealer blackjack
            signs = np.sign((phi[:, None, o] + phi[None, :, o]).reshape(-1) + extra[o])
            for sign, table in tables.items():
                chosen = np.where(signs == sign, weight, 0.0)
                table[:, o] = np.rint(np.bincount(where, weights=chosen, minlength=len(keys))).astype(np.int64)
        return keys, tables

    def _compiled_sign_tables(self, drawn: np.ndarray, ending: np.ndarray, phi: np.ndarray, ways: np.ndarray,
                              extra: np.ndarray) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """:meth:`_sign_tables`' pairs counted by the compiled loop (``_pairs_kernel.c``), the
        states grouped by how they end (``ending``: bet and kind, which give their results
        against the dealer's outcomes; a few dozen): the same integers, keys sorted alike."""
        _, first, of_state = np.unique(ending, return_index=True, return_inverse=True)
        kinds = phi[first]
        signs = np.sign(kinds[:, None, :] + kinds[None, :, :] + extra[None, None, :]).astype(np.int8)
        if self.context.peeked:
            signs[:, :, self.codes == BLACKJACK] = 2  # the frame: no dealer blackjack, counted nowhere
        found, counts = pairs_kernel.sign_tables(
            np.ascontiguousarray(drawn, dtype=np.int64), np.ascontiguousarray(of_state.reshape(-1), dtype=np.int64),
            np.ascontiguousarray(ways, dtype=np.int64), np.ascontiguousarray(signs), len(kinds), len(self.codes))
        keys = np.frombuffer(found, dtype=np.int64)
        order = np.argsort(keys)
        table = np.frombuffer(counts, dtype=np.int64).reshape(len(keys), len(self.codes), 3)[order]
        return keys[order], {sign: np.ascontiguousarray(table[:, :, sign + 1]) for sign in (1, 0, -1)}

    def _joint_bound(self, first: _HandSums, a: str, second: _HandSums, b: str) -> None:
        # the tables are sums of integers, exact in int64 (and, as the numpy version needs, in float64) below 2^53
        bound = float(np.abs(first.value[a]).sum()) * float(np.abs(second.value[b]).sum())
        if bound >= 2.0**53:  # pragma: no cover - far beyond any shoe's hands
            raise OverflowError("split moments: a table's sum could reach 2^53")

    def _compiled_joint_tables(self, s: int, t: int, combos: list[tuple[str, str]]) -> None:
        """:meth:`table` for ``("joint", a, s, b, t)``, every ``(a, b)`` of ``combos`` at once, by
        the compiled loop (``_pairs_kernel.c``): every pair of the two hands' multisets visited
        once (half of them when both hands are played alike), no index of the pairs kept. The
        same integers and keys as the numpy version."""
        s, t = self.plays(s), self.plays(t)
        combos = [(a, b) for a, b in combos if ("joint", a, s, b, t) not in self.tables]
        if not combos:
            return
        first, second = self.hand_sums(s), self.hand_sums(t)
        for a, b in combos:
            self._joint_bound(first, a, second, b)
        left = np.ascontiguousarray(np.stack([first.value[a] for a, _ in combos], axis=1), dtype=np.int64)
        right = np.ascontiguousarray(np.stack([second.value[b] for _, b in combos], axis=1), dtype=np.int64)
        n_out = len(self.codes)
        found, sums = pairs_kernel.joint_tables(
            np.ascontiguousarray(first.keys, dtype=np.int64), np.ascontiguousarray(second.keys, dtype=np.int64),
            left, right, len(combos), n_out, int(s == t))
        # the keys come sorted and each combination's rows contiguous: views of the loop's bytes
        keys = np.frombuffer(found, dtype=np.int64)
        tables = np.frombuffer(sums, dtype=np.int64).reshape(len(combos), len(keys), n_out)
        for c, (a, b) in enumerate(combos):
            self.tables["joint", a, s, b, t] = (keys, tables[c])

    def pair_index(self, s: int, t: int) -> tuple[np.ndarray, np.ndarray]:
        """The multisets two hands (played as at removals ``s`` and ``t``) draw together: their
        keys, and for every pair of the hands' multisets its position among them."""
        key = (self.plays(s), self.plays(t))
        if key not in self.pairs:
            first, second = self.hand_sums(s), self.hand_sums(t)
            both = (first.keys[:, None] + second.keys[None, :]).reshape(-1)
            keys = np.unique(both)  # (hashed) then located: faster than sorting every pair
            self.pairs[key] = (keys, np.searchsorted(keys, both))
        return self.pairs[key]

    def evaluate(self, *forms: tuple[_Form, int | None]) -> list[Any]:
        """The values of ``forms``, each (form, only): ``only`` counts the results at that
        dealer outcome alone. All share one dealer evaluation per removal.

        A multiset M is drawn (in one order) from R_r with probability prod_k ff(R_r[k], M_k) /
        ff(n_r, |M|), and the dealer's numerators on R_r - M are over ff(n_r - |M|, depth):
        together over ff(n_r, |M| + depth)."""
        exact = self.exact
        named: list[dict[tuple[int, tuple], Any]] = []
        for form, _ in forms:
            terms: dict[tuple[int, tuple], Any] = {}
            for name, c in form.items():
                r, kind, *rest = name
                table: tuple
                if kind == "joint":
                    table = (kind, rest[0], self.plays(rest[1]), rest[2], self.plays(rest[3]))
                    if table[2] == table[4] and table[1] > table[3]:  # the product is symmetric
                        table = (kind, rest[2], table[4], rest[0], table[2])
                else:
                    table = (kind, rest[0], self.plays(rest[1]))
                terms[r, table] = terms.get((r, table), 0) + c
            named.append({k: c for k, c in terms.items() if c})
        used = sorted({table for terms in named for _, table in terms}, key=repr)
        if not used:
            return [self.number(Fraction(0)) for _ in forms]
        if self.context.model is not None and not exact and pairs_kernel_available():
            # a counter's shoe: its sums by class totals, kept for every state of the shoe
            by_class = self._class_dots(forms, named)
            if by_class is not None:
                return self._totals(forms, named, by_class)
        self._joint_tables_together(used)
        key_arrays: list[np.ndarray] = []
        for keys in (self.table(t)[0] for t in used):
            if not any(keys is seen for seen in key_arrays):
                key_arrays.append(keys)
        # one table's keys are sorted and distinct already (the three signs of a split share theirs)
        union = key_arrays[0] if len(key_arrays) == 1 else _distinct_of_runs(key_arrays)[0]
        at = {t: np.searchsorted(union, self.table(t)[0]) for t in used}
        rows = _unpack(union)
        sizes = rows.sum(axis=1, dtype=np.int64)
        depth = self.context.depth
        removals = sorted({r for terms in named for r, _ in terms})
        model = self.context.model
        hidden = 0 if model is None else model.hidden

        # per removal: the feasible multisets and their weights (float probabilities, or
        # integers over a common denominator). R_r is R_0 less r pair cards.
        pair = self.pair
        others = np.delete(np.arange(10), pair)
        within = (rows[:, others] <= self.shoe(0)[others][None, :]).all(axis=1)
        feasible = {r: np.flatnonzero(within & (rows[:, pair] <= self.shoe(r)[pair])) for r in removals}
        # out of the up card's shoe: the multiset, both pair cards and r more (packed keys).
        # M at removal r + 1 leaves the shoe M + P leaves at r: each shoe is evaluated once (at
        # one removal the multisets are distinct already)
        runs = [union[feasible[r]] + (2 + r) * PACK[pair] for r in removals]
        if len(removals) == 1:
            distinct_keys, back = runs[0], np.arange(len(runs[0]))
        else:
            distinct_keys, back = _distinct_of_runs(runs)
        del runs
        removed = _unpack(distinct_keys)
        # exact, a composition shoe: the dealer's numerators as 128-bit halves and every sum
        # taken modulo primes, rebuilt by the Chinese remainder theorem (no Python integers per
        # multiset; the object arrays made exact mode ten times float's time)
        halves = _exact_halves(self.context, removed) if exact and model is None else None
        if halves is None:
            dealer, denominators = _dealer_table(self.context, removed, self.codes, pair, distinct_keys)
        del removed, distinct_keys
        back = back.reshape(-1)
        # the removals one at a time, each removal's weights over the union's multisets (zero
        # where infeasible), so that one removal's arrays are alive at a time
        wanted: dict[tuple[int, tuple], set[int | None]] = {}
        for (_, only), terms in zip(forms, named):
            for key in terms:
                wanted.setdefault(key, set()).add(only)
        groups: list[tuple[np.ndarray, list[tuple]]] = []  # the tables by the multisets they share
        for name in used:
            keys = self.table(name)[0]
            for seen, names in groups:
                if seen is keys:
                    names.append(name)
                    break
            else:
                groups.append((keys, [name]))
        dots: dict[tuple[int, tuple, int | None], Any] = {}
        by_group: dict[int, np.ndarray] = {}  # float mode: each group's tables, (outcomes, tables, multisets)
        start = 0
        # float mode's tables reach every count of the union's multisets and every size
        float_deepest, float_sizes = int(rows.max(initial=0)) + 1, int(sizes.max(initial=0)) + 1
        for r in removals:
            idx = feasible[r]
            at_r = back[start : start + len(idx)]
            start += len(idx)
            if halves is not None:
                self._residue_dots(r, halves[at_r], idx, rows, sizes, len(union), groups, at, wanted, dots)
                continue
            shoe = self.shoe(r)
            n_r = int(shoe.sum()) - hidden  # the cards left
            # a counter's shoe: the dealer's numerators carry the weight of every card drawn
            # (the up card's, the pair cards', the hands' and the dealer's); over the weight of
            # the cards drawn before the hands, they are the chances given those
            before = 1 if model is None else model.weights(np.array([self.context.base + model.code_of(self.out(r))]),
                                                            exact)[0]
            if not exact:  # float: the falling factorials of R_r's counts and of its size
                ff = np.array([[float(falling(s, m)) for m in range(float_deepest)] for s in shoe.tolist()])
                per_size = np.array([float(falling(n_r, k)) for k in range(float_sizes)])
                if pairs_kernel_available():
                    self._kernel_dots(r, (dealer, denominators, at_r, idx, sizes, rows, ff, per_size, float(before)),
                                      len(union), groups, at, wanted, dots)
                    continue
            part = dealer[at_r]
            denominator = denominators[at_r]
            if exact:
                present = sorted(set(sizes[idx].tolist()))
                scale = math.lcm(*(falling_left(n_r, k + depth) for k in present)) if len(idx) else 1
                # prod_k ff(R_r[k], M_k) by rank, then the lift of M's size to the common scale:
                # big integers in object arrays, one multiplication per rank and multiset
                deepest = int(rows[idx].max(initial=0)) + 1
                lift = np.zeros(max(present, default=0) + 1, dtype=object)
                for k in present:
                    lift[k] = scale // falling_left(n_r, k + depth)
                draws = lift[sizes[idx]]
                for rank, left in enumerate(shoe.tolist()):
                    draws = draws * _object_array([falling(left, m) for m in range(deepest)])[rows[idx, rank]]
                w = part * draws[:, None]
                denominator_r: Any = scale * int(before)
            else:
                chosen = rows[idx]
                p = ff[0][chosen[:, 0]]
                for rank in range(1, 10):  # the product in rank order, as np.prod over the ranks
                    p = p * ff[rank][chosen[:, rank]]
                p = p / per_size[sizes[idx]] / denominator
                w = part * (p / float(before))[:, None]
                denominator_r = 1
            del part
            self._dots(r, w, idx, len(union), groups, at, wanted, denominator_r, dots, by_group)
            del w
        return self._totals(forms, named, dots)

    def _totals(self, forms: tuple[tuple[_Form, int | None], ...], named: list[dict[tuple[int, tuple], Any]],
                dots: dict[tuple[int, tuple, int | None], Any]) -> list[Any]:
        """Each form's value from the sums ``dots`` of its named expectations."""
        exact = self.exact
        results = []
        for (_, only), terms in zip(forms, named):
            total: Any = self.number(Fraction(0))
            for (r, table), c in terms.items():
                total += dots[r, table, only] * (c if exact else float(c))
            results.append(total)
        return results

    def _joint_tables_together(self, names: Sequence[tuple]) -> None:
        """The joint tables among ``names``, those of two hands' plays in one pass of the
        compiled loop (where it is built; else :meth:`table` makes each in numpy)."""
        if not pairs_kernel_available():
            return
        combos: dict[tuple[int, int], list[tuple[str, str]]] = {}
        for name in names:
            if name[0] == "joint":
                combos.setdefault((name[2], name[4]), []).append((name[1], name[3]))
        for (plays_a, plays_b), pairs in combos.items():
            self._compiled_joint_tables(plays_a, plays_b, pairs)

    def _plays_digest(self, r: int) -> bytes:
        """The split hands' decisions as played at removal ``r`` (:meth:`plays`), as a value."""
        r = self.plays(r)
        if r not in self.digests:
            self.digests[r] = self.splitter.plays_digest(self.pair, r)
        return self.digests[r]

    def _class_key(self, r: int, name: tuple, only: int | None) -> tuple:
        """What the class sums of table ``name`` at removal ``r`` depend on: the up card's
        shoe and rules, the pair, the removal, the table's kind and orders and its hands'
        decisions (:mod:`bjcalc.engine.classsums`)."""
        if name[0] == "joint":
            table: tuple = (name[0], name[1], self._plays_digest(name[2]), name[3], self._plays_digest(name[4]))
        else:
            table = (name[0], name[1], self._plays_digest(name[2]))
        return (classsums.family(self.context), self.pair, r, table, only)

    def _class_dots(self, forms: tuple[tuple[_Form, int | None], ...], named: list[dict[tuple[int, tuple], Any]]
                    ) -> dict[tuple[int, tuple, int | None], Any] | None:
        """:meth:`evaluate`'s sums on a counter's shoe in float mode, by class totals
        (:mod:`bjcalc.engine.classsums`): each table's sums at each removal worked out once
        for every state of the shoe and kept, all weighed here at once by this state's
        weights. ``None`` where a dealer could run out of cards (the caller sums as it always
        has)."""
        context = self.context
        model = context.model
        assert model is not None
        wanted: dict[tuple[int, tuple, int | None], None] = {}
        for (_, only), terms in zip(forms, named):
            for r, name in terms:
                wanted[r, name, only] = None
        asked = sorted(wanted, key=repr)
        plays = sorted({p for _, name, _ in asked for p in ((name[2], name[4]) if name[0] == "joint" else (name[2],))})
        key = (classsums.family(context), self.pair, tuple(asked), tuple(self._plays_digest(p) for p in plays))
        bundle = classsums.kept(key)
        if bundle is None:
            bundle = classsums.Bundle.of(list(zip((r for r, _, _ in asked), self._class_sums(asked))))
            classsums.keep(key, bundle)
        left = sum(context.shoe) - 2 - model.hidden  # the cards left after the pair cards
        base = context.base + model.code_of(self.out(0))
        code = int(model.rank_codes()[self.pair])
        values = bundle.values(model, [base + r * code for r in bundle.removed], [left - r for r in bundle.removed])
        if values is None:
            return None
        return dict(zip(asked, values.tolist()))

    def _class_sums(self, asked: Sequence[tuple[int, tuple, int | None]]) -> list[classsums.ClassSums]:
        """The class sums of each (removal, table, dealer outcome or None for all) of ``asked``:
        kept, or worked out, those of one removal's tables that share their multisets (a
        split's joint tables) together."""
        found = {item: classsums.kept(self._class_key(*item)) for item in asked}
        # per removal, the tables that share one array of multisets (by identity), with their outcomes
        missing: list[tuple[int, np.ndarray, dict[tuple, list[int | None]]]] = []
        self._joint_tables_together([name for (_, name, _), sums in found.items() if sums is None])
        for (r, name, only), sums in found.items():
            if sums is None:
                keys = self.table(name)[0]
                sharing = next((g for at, shared, g in missing if at == r and shared is keys), None)
                if sharing is None:
                    sharing = {}
                    missing.append((r, keys, sharing))
                sharing.setdefault(name, []).append(only)
        for r, _, names in missing:
            group = list(names)
            made = classsums.class_sums(self.context, self.shoe(r), self.table(group[0])[0],
                                        [self.table(name)[1] for name in group], [names[name] for name in group])
            for name, by_only in zip(group, made):
                for only, sums in by_only.items():
                    classsums.keep(self._class_key(r, name, only), sums)
                    found[r, name, only] = sums
        return [sums for sums in found.values() if sums is not None]

    def _residue_dots(self, r: int, halves: np.ndarray, feasible: np.ndarray, rows: np.ndarray, sizes: np.ndarray,
                      size: int, groups: list[tuple[np.ndarray, list[tuple]]], at: dict[tuple, np.ndarray],
                      wanted: dict[tuple[int, tuple], set[int | None]],
                      dots: dict[tuple[int, tuple, int | None], Any]) -> None:
        """:meth:`_dots` in exact mode on a composition shoe, the same Fractions: each weight
        ``w = part x lift(|M|) x prod_k ff(R_r[k], M_k)`` (``part``: the dealer's numerator,
        from ``halves``) and each sum of ``w x table`` taken modulo primes below 2^31 in int64
        arithmetic. Every weight is at most the common scale (the dealer's numerators are at
        most their denominator and M's chance of one order at most 1), so a sum is at most the
        scale times the table's absolute sum: enough primes for twice that recover it, sign
        included."""
        shoe = self.shoe(r)
        n_r = int(shoe.sum())
        depth = self.context.depth
        present = sorted(set(sizes[feasible].tolist()))
        scale = math.lcm(*(falling_left(n_r, k + depth) for k in present)) if len(feasible) else 1
        lift = [scale // falling_left(n_r, k + depth) if k in present else 0
                for k in range(max(present, default=0) + 1)]
        chosen = rows[feasible]
        deepest = int(chosen.max(initial=0)) + 1
        where = np.full(size, -1, dtype=np.int64)
        where[feasible] = np.arange(len(feasible))
        parts = []  # per group: its rows' multisets among the feasible ones (-1: none), which are, its names
        for _, names in groups:
            names = [name for name in names if (r, name) in wanted]
            if names:
                rows_in = where[at[names[0]]]
                parts.append((rows_in, rows_in >= 0, names))
        largest = max((int(np.abs(self.table(name)[1]).sum()) for *_, names in parts for name in names), default=0)
        primes = primes_above(2 * scale * max(largest, 1))
        masks = {only: np.ones(len(self.codes), dtype=bool) if only is None else self.codes == only
                 for key in wanted if key[0] == r for only in wanted[key]}
        residues: dict[tuple[tuple, int | None], list[int]] = {}
        if pairs_kernel_available():
            # the same sums in the compiled loop: one pass over each group's table rows for every
            # prime (numpy makes a dozen passes per prime, each with an int64 division per element)
            ff_mod = np.array([[[falling(left, k) % p for k in range(deepest)] for left in shoe.tolist()]
                               for p in primes], dtype=np.int64)
            lift_mod = np.array([[k % p for k in lift] for p in primes], dtype=np.int64)
            fixed = (np.ascontiguousarray(halves, dtype=np.uint64),
                     np.ascontiguousarray(sizes[feasible], dtype=np.int64), np.ascontiguousarray(chosen, dtype=np.int8),
                     lift_mod, ff_mod, np.array(primes, dtype=np.int64))
            for rows_in, _, names in parts:
                sums = _residue_sums(fixed, rows_in, [self.table(name)[1] for name in names], len(self.codes))
                for t, name in enumerate(names):
                    for only in wanted[r, name]:
                        residues[name, only] = [int(sums[t, k][masks[only]].sum()) % p for k, p in enumerate(primes)]
        else:
            for prime in primes:
                part = (halves[:, :, 0] % np.uint64(prime)).astype(np.int64) * (2**64 % prime)
                part = (part + (halves[:, :, 1] % np.uint64(prime)).astype(np.int64)) % prime
                draws = np.array([k % prime for k in lift], dtype=np.int64)[sizes[feasible]]
                for rank, left in enumerate(shoe.tolist()):
                    ff = np.array([falling(left, m) % prime for m in range(deepest)], dtype=np.int64)
                    draws = draws * ff[chosen[:, rank]] % prime
                w = part * draws[:, None] % prime
                del part
                for rows_in, ok, names in parts:
                    gathered = w[rows_in[ok]]
                    for name in names:
                        by_outcome = (gathered * (self.table(name)[1][ok] % prime) % prime).sum(axis=0)
                        for only in wanted[r, name]:
                            residues.setdefault((name, only), []).append(int(by_outcome[masks[only]].sum()) % prime)
        product = math.prod(primes)
        for (name, only), found in residues.items():
            value = int(from_residues(np.array([[x] for x in found], dtype=np.int64), primes)[0])
            dots[r, name, only] = Fraction(value - product if 2 * value > product else value, scale)

    def _kernel_dots(self, r: int, weighing: tuple, size: int, groups: list[tuple[np.ndarray, list[tuple]]],
                     at: dict[tuple, np.ndarray], wanted: dict[tuple[int, tuple], set[int | None]],
                     dots: dict[tuple[int, tuple, int | None], Any]) -> None:
        """:meth:`_dots` in float mode by the compiled loops: each feasible multiset's weights
        (``_pairs_kernel.float_weights``; ``weighing``: the dealer's numerators and denominators
        and each multiset's row among them, the feasible multisets of the union, the union's
        sizes and counts, the falling factorials of R_r's ranks and of its size, the weight of
        the cards before), then every table's sum per outcome in one pass over its rows
        (``float_dots``)."""
        feasible = weighing[3]
        weights = np.empty((len(feasible), len(self.codes)))
        pairs_kernel.float_weights(*(np.ascontiguousarray(a) for a in weighing[:8]), weighing[8], weights)
        where = np.full(size, -1, dtype=np.int64)
        where[feasible] = np.arange(len(feasible))
        for _, names in groups:
            names = [name for name in names if (r, name) in wanted]
            if not names:
                continue
            sums = np.empty((len(names), len(self.codes)))
            pairs_kernel.float_dots(weights, where[at[names[0]]],
                                    [np.ascontiguousarray(self.table(name)[1], dtype=np.int64) for name in names], sums)
            for t, name in enumerate(names):
                for only in wanted[r, name]:
                    dots[r, name, only] = float(sums[t].sum() if only is None else sums[t][self.codes == only].sum())

    def _dots(self, r: int, w: np.ndarray, feasible: np.ndarray, size: int,
              groups: list[tuple[np.ndarray, list[tuple]]], at: dict[tuple, np.ndarray],
              wanted: dict[tuple[int, tuple], set[int | None]], denominator: Any,
              dots: dict[tuple[int, tuple, int | None], Any], by_group: dict[int, np.ndarray]) -> None:
        """Into ``dots``, every (r, table, only) the forms need at removal ``r``: the sum over the
        table's multisets and the dealer's outcomes (all, or ``only`` that one) of weight x
        table, over ``denominator``. ``w``: the weights of the ``feasible`` multisets of the
        union (``size`` of them). The weights are gathered once for all the tables that share
        their multisets (the three joint tables of a split share theirs). Float mode: each
        group's tables are laid out once (``by_group``) by outcome, so that one matrix-vector
        product per outcome gives every table's sum."""
        exact = self.exact
        where = np.full(size, -1, dtype=np.int64)
        where[feasible] = np.arange(len(feasible))
        n_out = len(self.codes)
        for g, (_, names) in enumerate(groups):
            if not any((r, name) in wanted for name in names):
                continue
            rows_in = where[at[names[0]]]
            if exact:
                ok = rows_in >= 0
                gathered = w[rows_in[ok]]
                for name in names:
                    if (r, name) not in wanted:
                        continue
                    values = self.table(name)[1][ok]
                    for only in wanted[r, name]:
                        chosen = values if only is None else values * (self.codes == only)[None, :]
                        dot = (gathered * np.array(chosen.tolist(), dtype=object)).sum()
                        dots[r, name, only] = Fraction(int(dot), denominator)
                continue
            if g not in by_group:
                tables = np.empty((n_out, len(names), len(rows_in)))
                for t, name in enumerate(names):
                    tables[:, t, :] = self.table(name)[1].T
                by_group[g] = tables
            # (outcomes, multisets), gathered from the weights' transpose in one pass;
            # infeasible multisets weigh 0
            missing = rows_in < 0
            if len(w):
                weights = w.T.take(np.where(missing, 0, rows_in), axis=1)
                weights[:, missing] = 0
            else:
                weights = np.zeros((n_out, len(rows_in)))
            by_outcome = np.matmul(by_group[g], weights[:, :, None])[:, :, 0]  # (outcomes, tables)
            for t, name in enumerate(names):
                for only in wanted.get((r, name), ()):
                    chosen = by_outcome[:, t] if only is None else by_outcome[self.codes == only, t]
                    dots[r, name, only] = float(chosen.sum())


_SHIFTS = 6 * np.arange(10, dtype=np.int64)  # PACK's: six bits per rank


def _unpack(keys: np.ndarray) -> np.ndarray:
    """The (n, 10) counts of packed multisets (``counts @ PACK``), int8, by shifts (an int64
    division per rank cost as much as the dealer's pass in profiles), a rank at a time (no
    (n, 10) int64 array on the way)."""
    out = np.empty((len(keys), 10), dtype=np.int8)
    for rank, shift in enumerate(_SHIFTS.tolist()):
        out[:, rank] = (keys >> shift) & 63
    return out


def _residue_sums(fixed: tuple[np.ndarray, ...], rows_in: np.ndarray, tables: list[np.ndarray], n_out: int
                  ) -> np.ndarray:
    """``_pairs_kernel.residue_dots`` over the table rows (``rows_in``: each row's feasible
    multiset, -1 for none), cut into one part per dealer thread: (tables, primes, outcomes)
    sums, each below twice its prime (parts' sums added, not reduced)."""
    rows_in = np.ascontiguousarray(rows_in, dtype=np.int64)
    tables = [np.ascontiguousarray(t, dtype=np.int64) for t in tables]
    primes = fixed[-1]

    def part(start: int, stop: int) -> np.ndarray:
        out = np.empty((len(tables), len(primes), n_out), dtype=np.int64)
        pairs_kernel.residue_dots(*fixed, rows_in[start:stop], [t[start:stop] for t in tables], out)
        return out

    return np.sum(in_parts(part, len(rows_in), 4096), axis=0)


_DEALER_CHUNK = 1 << 16  # shoes per dealer call: bounds the pass's working arrays (int64 shoes, outcomes)


def _dealer_table(context: UpcardContext, removed: np.ndarray, codes: np.ndarray, pair: int,
                  keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_dealer_numerators` on the shoes ``context.shoe - removed[i]`` (``keys``: packed) as
    one (shoes, outcomes in ``codes`` order) array and the denominators. A composition shoe in
    float mode: one dealer pass per projection of the shoes without their ``pair`` cards
    (:func:`~bjcalc.engine.dealer.projected_numerators`; a split's shoes differ mostly in those).
    Otherwise :data:`_DEALER_CHUNK` shoes at a time."""
    if context.model is None and not context.exact and dealer_kernel_available():
        matrix, below = projected_numerators(context.dealer, context.shoe, removed, context.depth, pair, keys)
        order = [context.dealer.flat.outcomes.index(o) for o in codes.tolist()]
        return (matrix if order == list(range(matrix.shape[1])) else matrix[:, order]), below
    tables, denominators = [], []
    for start in range(0, max(len(removed), 1), _DEALER_CHUNK):
        numerators, below = _dealer_numerators(context, removed[start : start + _DEALER_CHUNK].astype(np.int64))
        tables.append(_as_rows([numerators[o] for o in codes.tolist()]))
        denominators.append(np.asarray(below))
        del numerators
    if len(tables) == 1:
        return tables[0], denominators[0]
    return np.concatenate(tables), np.concatenate(denominators)


def _as_rows(columns: list[np.ndarray]) -> np.ndarray:
    """The (shoes, outcomes) array of these outcome columns: the compiled float loop's own
    array where the columns are its columns in this order (it fills one such array; no copy),
    else stacked."""
    owner = columns[0].base if columns else None
    if (isinstance(owner, np.ndarray) and owner.ndim == 2 and owner.shape == (len(columns[0]), len(columns))
            and all(column.base is owner and column.strides == owner[:, i].strides
                    and column.ctypes.data == owner[:, i].ctypes.data for i, column in enumerate(columns))):
        return owner
    return np.stack(columns, axis=1)


def _exact_halves(context: UpcardContext, removed: np.ndarray) -> np.ndarray | None:
    """:func:`~bjcalc.engine.dealer.exact_halves` of the up card's dealer on the shoes
    ``context.shoe - removed[i]``, :data:`_DEALER_CHUNK` at a time; ``None`` where the
    compiled exact loop cannot run."""
    out = None
    for start in range(0, max(len(removed), 1), _DEALER_CHUNK):
        part = exact_halves(context.dealer, context.shoe, removed[start : start + _DEALER_CHUNK].astype(np.int64),
                            context.depth)
        if part is None:
            return None
        if out is None:
            out = np.empty((len(removed),) + part.shape[1:], dtype=part.dtype)
        out[start : start + len(part)] = part
    return out


def _distinct_of_runs(runs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of sorted arrays put end to end, sorted, and where each value of the
    concatenation is among them: ``np.unique(..., return_inverse=True)``, with a stable sort,
    which merges the sorted runs instead of sorting from scratch."""
    values = np.concatenate(runs)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.empty(len(ordered), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(len(values), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def _object_array(values: list[int]) -> np.ndarray:
    """Python ints in a 1-d object array (never through int64, which big ones would overflow)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _dealer_numerators(context: UpcardContext, removed: np.ndarray) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """:func:`~bjcalc.engine.dealer.outcome_numerators` of the up card's dealer on the shoes
    ``context.shoe - removed[i]``. A counter's shoe in float mode runs the joint pass's
    compiled loop for this up card alone (the numpy pass with weights made the variance
    of a 6-deck counter's shoe 3.7 times a composition's)."""
    model = context.model
    removed = np.asarray(removed, dtype=np.int64).reshape(-1, 10)
    left = np.asarray(context.shoe, dtype=np.int64)[None, :] - removed
    if (model is None or context.exact or not joint_kernel_available()
            # the joint pass would count a dealer who runs out as busting (batch.JointBatch._runs_out)
            or dealer_may_run_out(left, left.sum(axis=1) - model.hidden).any()):
        return outcome_numerators(context.dealer, context.shoe, removed, context.depth, context.exact, model=model,
                                  base=context.base)
    rules = context.rules
    depths = [context.depth if up == context.up else -1 for up in range(10)]
    joint = joint_dealer(rules.hit_soft_17, rules.dealer_max_cards)
    matrix, _ = joint_numerators(joint, model.counts, removed, depths, np.zeros((10, joint.n_out, 1)), model=model)
    assert matrix is not None
    codes = context.dealer.outcomes
    numerators = {int(o): matrix[context.up][:, i] for i, o in enumerate(codes)}
    left = context.cards_left - np.asarray(removed, dtype=np.int64).reshape(-1, 10).sum(axis=1)
    denominators = np.ones(len(left))
    for size in range(context.depth):
        denominators = denominators * np.maximum(left - size, 1)  # past the last card: 1 (falling_left)
    return numerators, denominators


def split_chances(splitter, pair: int) -> tuple[Any, Any, Any, bool] | None:
    """(P(Y > 0), P(Y = 0), P(Y < 0), whole) for the total result ``Y`` of splitting ``pair``,
    in the frame of :func:`split_moments` (joint with no dealer blackjack where the dealer
    peeks). ``whole``: no resplit can happen (two hands at most, aces not resplit, or no pair
    card left), and the three add up to the frame's total (P(no dealer blackjack), else 1).
    Otherwise they count only the rounds in which no resplit happens (neither hand's second
    card is a pair card), and the rest of the frame is the chance of a resplit: three or four
    hands' joint result is out of reach. ``None`` with cards drawn with replacement, or where
    only one face of tens resplits. Exact: every ordered pair of the two hands' terminal
    states is met with the dealer's outcomes for the shoe they leave."""
    from bjcalc.engine.split import max_hands

    context = splitter.context
    if context.replacement:
        return None
    solver = _SplitSquare(splitter, pair, None)
    whole = max_hands(context.rules, pair) <= 2 or solver.shoe(0)[pair] == 0
    if not whole and splitter.same_face(pair):
        return None
    kind = "sign" if whole else "sign without resplit"
    w, p, lo = solver.evaluate(*((_Form({(0, kind, sign, 0): 1}), None) for sign in (1, 0, -1)))
    return w, p, lo, whole


_FORMS: dict[tuple, tuple[_Form, _Form]] = {}  # _forms' results, by what they depend on (bounded)
_FORMS_KEPT = 512


def _forms(solver: _SplitSquare) -> tuple[_Form, _Form]:
    """The linear forms of a split's E[Y] and E[Y^2] (``solver.mean(0, 2, 1)`` and
    ``solver.square(0, 2, 1)``). They depend only on the hands allowed and on the chances
    ``q(r)`` and ``rho(r)`` at each removal, which most up cards share for one pair (a
    composition shoe: the pair's cards and the cards left), so each is worked out once for them
    and kept (the recursion's dict algebra was a tenth of the variance's Python)."""
    removals = range(solver.most)
    key = (solver.most, tuple(solver.q(r) for r in removals), tuple(solver.rho(r) for r in removals))
    found = _FORMS.get(key)
    if found is None:
        if len(_FORMS) >= _FORMS_KEPT:
            _FORMS.clear()
        found = _FORMS[key] = (solver.mean(0, 2, 1), solver.square(0, 2, 1))
    return found


def split_moments(splitter, pair: int) -> tuple[Any, Any]:
    """(E[Y], E[Y^2]) of the total result ``Y`` of splitting ``pair``, resplitting as the
    rules allow, for the splitter's post-split strategy, in the frame of its ``value``.

    ``Y^2`` is the sum of each hand's squared result and twice the products of pairs of hands.
    The recursion of :func:`bjcalc.engine.split.split_recursion` gives the squares; a product
    of two hands is carried as a finished hand "pending" against the hands still to come,
    which by exchangeability may be dealt after them: it then meets each later hand on the
    shoe that hand is dealt from, with both second cards conditioned as the process says.
    Every expectation left is one of one hand, or of two hands dealt together, on a shoe
    R_r (``r`` more pair cards out), computed exactly by enumerating the hands' terminal
    states (:func:`terminal_states`) jointly with the dealer."""
    context = splitter.context
    if splitter.same_face(pair):
        cases = [(p, left) for p, left in splitter.up_faces()]
    else:
        cases = [(Fraction(1), None)]
    mean: Any = 0
    square: Any = 0
    for p, left in cases:
        solver = _SplitSquare(splitter, pair, left)
        weight = p if context.exact else float(p)
        first, total = _forms(solver)
        m, s2, at_bj = solver.evaluate((first, None), (total, None), (first, BLACKJACK))
        if not context.peeked and context.bj_rank is not None and context.split_loss == 0:
            # the original bet is lost to a dealer blackjack even when split bets are returned:
            # Y gains -1 there, so Y^2 gains 1 - 2 (sum of the hands' results there)
            p_bj = context.draw_chance(solver.out(0), context.bj_rank)
            m = m - p_bj
            s2 = s2 + p_bj - 2 * at_bj
        mean += weight * m
        square += weight * s2
    return mean, square


def moments_size(splitter, pair: int) -> int:
    """An estimate of the bytes :func:`split_moments` holds at its peak in float mode: about
    60 kB per state in which a split hand draws (hits or doubles), per removal the recursion
    visits (8 decks, 2,2 against a 7 with resplits to 4 hands: 413 states, 5 removals, a peak
    of 122 MB; a smaller shoe's hands draw fewer multisets, so less). Every removal's hands
    are played alike or nearly so: the first one's states stand for all."""
    removals = splitter.removals(pair)
    if not removals:
        return 0
    solved = splitter.hand_values(pair, removals[0])
    drawing = sum(int(np.count_nonzero(decision != Code.STAND)) for decision in solved.decision)
    return 60_000 * max(drawing, 1) * len(removals)


@dataclasses.dataclass(frozen=True)
class UnsplitSquares:
    """Second moments of every unsplit hand's result, as numerators over the layer scales of
    its values: standing (per layer), hitting on (per layer) and doubling the two-card hands."""

    stand: list[Any]
    hit: list[Any]
    double: Any | None


def unsplit_squares(context: UpcardContext, table: HandValues) -> UnsplitSquares:
    """The second moments of the unsplit hands of ``table`` (played by its decisions after the
    first), by the same backward pass as the values: a standing hand's squared result is 1
    unless it pushes; a doubled hand's is 4 (or the no-hole-card blackjack loss squared)."""
    rules, exact, model = context.rules, context.exact, context.model
    layers = table.layers
    n0 = context.cards_left
    columns = context.batch.index.register(layers, (0,) * 10)
    stand_sq, stand_sq_doubled = [], []
    double_loss = 1 + context.double_loss
    for k, totals in enumerate(layers.totals):
        size = layers.sizes[k]
        scale = table.scale[k]
        # a counter's shoe: each row is over its scale times its weight (the dealer's numerators
        # carry the weights already, so only the certain events need it)
        g = scale if table.weights is None else table.weights[k] * scale
        outcomes = context.batch.outcomes(columns[k])
        lift = scale // falling_left(n0 - size, context.depth) if exact else (
            float(scale) / float(falling_left(n0 - size, context.depth)))
        push = np.zeros(len(totals), dtype=object if exact else float)
        charlie = rules.charlie is not None and size >= rules.charlie
        if not charlie:
            for outcome, values in outcomes.items():
                if outcome <= 21:
                    push = push + np.where(totals == outcome, values, 0) * lift
        bj = table.blackjack[k]
        not_bj = g - bj - push
        stand_sq.append(not_bj + (0 if context.peeked else bj))
        stand_sq_doubled.append(not_bj * 4 + (0 if context.peeked else bj * double_loss**2))
    draws = stacked_values(context, layers, ((0,) * 10,), 1).draws
    best_sq: list[Any] = [None] * len(layers.counts)
    hit_sq: list[Any] = [None] * len(layers.counts)
    double_sq = None
    for k in reversed(range(len(layers.counts))):
        d = draws[k]
        g = table.scale[k + 1]
        if model is not None:  # each draw's state is over its scale times its weight
            codes = context.base + model.codes(layers.counts[k])
            g = model.weights(codes[:, None] + model.rank_codes()[None, :], exact) * g
        child_bj = d.child_bj
        bust_sq = (g - child_bj) + (0 if context.peeked else child_bj)
        after = bust_sq if k + 1 == len(layers.counts) else np.where(d.busts, bust_sq, best_sq[k + 1][d.safe])
        hit_sq[k] = (d.left * after).sum(axis=1)
        best_sq[k] = np.where(table.decision[k] == Code.HIT, hit_sq[k], stand_sq[k])
        if k == table.double_layer:
            bust_sq_doubled = (g - child_bj) * 4 + (0 if context.peeked else child_bj * double_loss**2)
            after = bust_sq_doubled if k + 1 == len(layers.counts) else np.where(
                d.busts, bust_sq_doubled, stand_sq_doubled[k + 1][d.safe])
            double_sq = (d.left * after).sum(axis=1)
    return UnsplitSquares(stand_sq, hit_sq, double_sq)
