"""The cards a round uses as it is dealt: without replacement from the shoe, every card of the
round (each seat's, splits and doubles included, the dealer's) depending on the ones before it.

The chance of one sequence of ranks dealt from a shoe of ``n_r`` cards of rank ``r`` (``L`` in
all) depends only on how many of each rank it holds, ``A``::

    P(sequence) = prod_r ff(n_r, A_r) / ff(L, |A|)        (ff: the falling factorial)

so the chance that a round ends having taken the cards ``A`` is the number of ways the round can
be dealt to ``A`` (a count of sequences that follow the chart and the dealer's rule, which does
not depend on the shoe) times that product. :func:`dealt_round_cards` counts the ways, a seat's
by its own cards, the dealer's draws by up and hole card, then adds up the chances by tag
class.

The same counts give the round on any counter's state of the chain placement (docs/truecount.md,
"Where rounds start"): where the seen cards of each class are a uniform draw from that class,
the chance of a sequence of class counts ``d`` is ``W(d) prod_j ff(m_j, d_j) / ff(R, |d|)`` with
``m_j`` the cards of class ``j`` left and ``R`` all left, where ``W(d) = P_full(d) ff(L, |d|) /
prod_j ff(C_j, d_j)`` does not depend on the state (:func:`class_weights`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import ACE, TEN
from bjcalc.chart import Chart, UpcardChart, cell_of, chart_action
from bjcalc.counting.roundcards import Dist, _total, _total_after
from bjcalc.engine.door import Code
from bjcalc.kept import Kept
from bjcalc.rules import Rules

Cards = tuple[int, ...]  # cards by rank, aces first

_NONE: Cards = (0,) * 10
# a split's cards dealt with less chance than this are left out (a split to four hands has
# millions of multisets, nearly all far below it); dealt_round_cards' chances then sum to 1
# less what is left out (measured: 6.7e-6 at one deck, 2.1e-5 at six; benchmarks/dealt_cards.py)
NEGLIGIBLE = 1e-12
# live hands taken down the dealer's tree at once (memory: this many rows of the dealer's classes)
_LIVE_BLOCK = 40_000
# entries of a product of tables worked out at once (memory: a few times this many numbers)
_PRODUCT_BLOCK = 500_000
# a multiset of cards as one integer: each rank's count a 5-bit digit (a seat never takes 32
# cards of one rank)
_DIGIT = 32
_PLACES = _DIGIT ** np.arange(10, dtype=np.int64)
_SHIFTS = 5 * np.arange(10, dtype=np.int64)


def _one(*ranks: int) -> Cards:
    out = [0] * 10
    for r in ranks:
        out[r] += 1
    return tuple(out)


def _code(cards: Cards) -> int:
    return int(np.dot(cards, _PLACES))


def _decoded(codes: np.ndarray) -> np.ndarray:
    """The cards by rank (rows) of multiset codes."""
    return (codes[:, None] >> _SHIFTS[None, :]) & (_DIGIT - 1)


@dataclasses.dataclass(frozen=True)
class _Table:
    """Ways to deal cards: per entry the multiset taken (its code), whether a hand is live
    after it, and how many sequences of ranks deal it (a float: an exact integer far below
    2^53 for one seat)."""

    codes: np.ndarray
    live: np.ndarray
    ways: np.ndarray

    @classmethod
    def of(cls, entries: Iterable[tuple[Cards, bool, float]]) -> _Table:
        rows = list(entries)
        return cls(np.array([_code(c) for c, _, _ in rows], dtype=np.int64).reshape(-1),
                   np.array([live for _, live, _ in rows], dtype=bool).reshape(-1),
                   np.array([w for _, _, w in rows], dtype=float).reshape(-1)).merged()

    @classmethod
    def joined(cls, tables: Sequence[_Table]) -> _Table:
        return cls(np.concatenate([t.codes for t in tables]), np.concatenate([t.live for t in tables]),
                   np.concatenate([t.ways for t in tables])).merged()

    def merged(self) -> _Table:
        held, where = np.unique(self.codes * 2 + self.live, return_inverse=True)
        ways = np.bincount(where.reshape(-1), weights=self.ways, minlength=len(held))
        return _Table(held // 2, (held % 2).astype(bool), ways)

    def likely(self, shoe: Sequence[int], cards: Cards) -> _Table:
        """The entries whose cards, with ``cards`` more, are dealt from ``shoe`` with a chance
        of at least :data:`NEGLIGIBLE` (the rest are left out: many split hands' cards)."""
        keep = self.ways * _chances(shoe, _decoded(self.codes) + np.array(cards)) >= NEGLIGIBLE
        return self if keep.all() else _Table(self.codes[keep], self.live[keep], self.ways[keep])

    def plus(self, cards: Cards, live: bool | None = None) -> _Table:
        """Every entry with ``cards`` more (and, if given, live or not)."""
        flags = self.live if live is None else np.full(len(self.live), live)
        return _Table(self.codes + _code(cards), flags, self.ways)

    def then(self, other: _Table, likely: tuple[Sequence[int], Cards] | None = None) -> _Table:
        """Two parts of a round dealt one after the other: cards add, ways multiply, live if
        either is; with ``likely`` (shoe, cards), only the entries :meth:`likely` keeps, taken
        a block of rows at a time."""
        rows = max(1, _PRODUCT_BLOCK // max(len(other.codes), 1))
        parts = [_Table(self.codes[:0], self.live[:0], self.ways[:0])]
        for start in range(0, len(self.codes), rows):
            mine = slice(start, start + rows)
            part = _Table((self.codes[mine, None] + other.codes[None, :]).reshape(-1),
                          (self.live[mine, None] | other.live[None, :]).reshape(-1),
                          (self.ways[mine, None] * other.ways[None, :]).reshape(-1))
            parts.append(part if likely is None else part.likely(*likely))
        return _Table.joined(parts)


_EMPTY = _Table(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool), np.ones(1))


class _Plays:
    """What a chart's hands take, against one up card: hits by the 3+-card plays from any hand
    (kept by the hand's cards), split hands, a seat."""

    def __init__(self, rules: Rules, chart: UpcardChart, up: int) -> None:
        self.rules, self.chart, self.up = rules, chart, up
        self._hits: dict[Cards, _Table] = {}

    def hits(self, held: Cards) -> _Table:
        """The cards a hand ``held`` takes when it hits now and then by the chart's 3+-card
        plays, and whether it ends live."""
        if held not in self._hits:
            total, soft = _total(list(held))
            parts = []
            for r in range(10):
                t, s = _total_after(total, soft, r)
                card = _one(r)
                if t > 21:
                    parts.append(_EMPTY.plus(card, False))
                elif t == 21 or not self.chart.hit[cell_of(t, s)]:
                    parts.append(_EMPTY.plus(card, True))
                else:
                    parts.append(self.hits(tuple(x + y for x, y in zip(held, card))).plus(card))
            self._hits[held] = _Table.joined(parts)
        return self._hits[held]

    def split_hand(self, pair: int, second: int) -> _Table:
        """One split hand's cards beyond its pair card, from its second card on: doubled after
        the split, hit or stood by the chart (split aces take one card unless the rules say)."""
        rules, chart = self.rules, self.chart
        held = _one(pair, second)
        total, soft = _total(list(held))
        if pair == ACE and not rules.hit_split_aces or total == 21:
            return _EMPTY.plus(_one(second), True)
        if rules.double_after_split and chart.first[cell_of(total, soft)] == Code.DOUBLE:
            return _Table.of((_one(second, r), _total_after(total, soft, r)[0] <= 21, 1.0) for r in range(10))
        if chart.hit_two[cell_of(total, soft)]:
            return self.hits(held).plus(_one(second))
        return _EMPTY.plus(_one(second), True)

    def split(self, pair: int) -> _Table:
        """A split pair's cards beyond the pair: its hands closed in turn, a second card of the
        pair's rank splitting again while the rules allow more hands."""
        rules, shoe, dealt = self.rules, self.rules.shoe_counts, _one(pair, pair, self.up)
        resplit = rules.split_hands > 2 and (pair != ACE or rules.resplit_aces)
        closes = _Table.joined([self.split_hand(pair, r) for r in range(10)])  # at the limit: any card
        closes_short = _Table.joined([self.split_hand(pair, r) for r in range(10) if r != pair])
        # (hands started, hands closed) -> the ways so far
        open_: dict[tuple[int, int], _Table] = {(2, 0): _EMPTY}
        done = []
        while open_:
            step: dict[tuple[int, int], list[_Table]] = {}
            for (started, closed), table in open_.items():
                if closed == started:
                    done.append(table)
                    continue
                if resplit and started < rules.split_hands:
                    step.setdefault((started + 1, closed), []).append(table.plus(_one(pair)))
                    step.setdefault((started, closed + 1), []).append(table.then(closes_short, (shoe, dealt)))
                else:
                    step.setdefault((started, closed + 1), []).append(table.then(closes, (shoe, dealt)))
            open_ = {key: _Table.joined(parts).likely(shoe, dealt) for key, parts in step.items()}
        return _Table.joined(done)

    def seat(self) -> _Table:
        """One seat's cards when the dealer has no blackjack (or does not peek): every ordered
        two cards and what the chart does with them."""
        rules, chart = self.rules, self.chart
        parts = []
        for a in range(10):
            for b in range(10):
                held = _one(a, b)
                start = _EMPTY.plus(held, False)
                total, soft = _total(list(held))
                if total == 21:  # blackjack: paid, not live
                    parts.append(start)
                    continue
                action = chart_action(rules, chart, held, total, soft)
                if action is Action.SPLIT:
                    parts.append(self.split(a).plus(held))
                elif action is Action.SURRENDER:
                    parts.append(start)
                elif action is Action.DOUBLE:
                    parts.append(_Table.of((_one(a, b, r), _total_after(total, soft, r)[0] <= 21, 1.0)
                                           for r in range(10)))
                elif action is Action.STAND:
                    parts.append(_EMPTY.plus(held, True))
                else:
                    parts.append(self.hits(held).plus(held))
        return _Table.joined(parts)


def _dealer_draws(rules: Rules, up: int, hole: int) -> dict[Cards, int]:
    """The dealer's draws after ``up`` and ``hole``: cards drawn -> the orders that deal them."""
    out: dict[Cards, int] = {}
    open_ = {_NONE: 1}
    while open_:
        step: dict[Cards, int] = {}
        for drawn, ways in open_.items():
            total, soft = _total([x + y for x, y in zip(drawn, _one(up, hole))])
            if total > 17 or (total == 17 and not (soft and rules.hit_soft_17)):
                out[drawn] = out.get(drawn, 0) + ways
                continue
            for r in range(10):
                key = tuple(x + (i == r) for i, x in enumerate(drawn))
                step[key] = step.get(key, 0) + ways
        open_ = step
    return out


def _falling(shoe: Sequence[int], longest: int) -> np.ndarray:
    """``ff[r, a] = n_r (n_r - 1) ... (n_r - a + 1)`` for ``a`` up to ``longest`` (0 past the shoe)."""
    table = np.ones((10, longest + 1))
    for r in range(10):
        for a in range(1, longest + 1):
            table[r, a] = table[r, a - 1] * max(shoe[r] - a + 1, 0)
    return table


def _chances(shoe: Sequence[int], cards: np.ndarray) -> np.ndarray:
    """``prod_r ff(n_r, A_r) / ff(L, |A|)`` for each row ``A`` of ``cards``."""
    sizes = cards.sum(axis=1)
    longest = int(sizes.max(initial=0))
    table = _falling(shoe, longest)
    total = sum(shoe)
    falling = np.cumprod([1.0] + [float(max(total - i, 0)) for i in range(longest)])
    out = np.divide(1.0, falling[sizes], out=np.zeros(len(sizes)), where=falling[sizes] > 0)
    for r in range(10):
        out = out * table[r][cards[:, r]]
    return out


class _Keys:
    """Class vectors as single integers (each class's count a digit of base ``base``)."""

    def __init__(self, of_rank: Sequence[int], base: int) -> None:
        self.k = max(of_rank) + 1
        self.base = base
        self.of_rank = np.array([base ** c for c in of_rank], dtype=np.int64)

    def of(self, cards: np.ndarray) -> np.ndarray:
        return cards @ self.of_rank

    def vector(self, key: int) -> tuple[int, ...]:
        return tuple((key // self.base ** j) % self.base for j in range(self.k))


def _add_keyed(into: dict[int, float], keys: np.ndarray, chances: np.ndarray) -> None:
    held, where = np.unique(keys, return_inverse=True)
    sums = np.bincount(where.reshape(-1), weights=chances.reshape(-1), minlength=len(held))
    for key, q in zip(held.tolist(), sums.tolist()):
        if q:
            into[key] = into.get(key, 0.0) + q


def _prefix_tree(finals: Iterable[Cards]) -> tuple[list[Cards], list[list[tuple[int, int]]]]:
    """The dealer's draw multisets as a tree: each multiset's parent is it less one card of its
    highest rank, so a node's chance on a shoe is its parent's times one factor. Returns the
    nodes (the root, no cards, first) and each node's children as (rank added, child)."""
    index: dict[Cards, int] = {_NONE: 0}
    nodes: list[Cards] = [_NONE]
    children: list[list[tuple[int, int]]] = [[]]
    for final in finals:
        path = []
        cards = list(final)
        while any(cards):
            top = max(r for r in range(10) if cards[r])
            path.append((tuple(cards), top))
            cards[top] -= 1
        parent = 0
        for node, top in reversed(path):
            if node not in index:
                index[node] = len(nodes)
                nodes.append(node)
                children.append([])
                children[parent].append((top, index[node]))
            parent = index[node]
    return nodes, children


def _live_rounds(shoe: Sequence[int], base: np.ndarray, live: np.ndarray, live_chance: np.ndarray,
                 live_keys: np.ndarray, draws: dict[Cards, int], keys: _Keys, into: dict[int, float]) -> None:
    """The rounds where some hand is live and the dealer draws: every live hand's cards ``H``
    with every dealer multiset ``D``, ``P(H) P(D | H)`` summed by class. ``live_chance`` is
    ``ways(H) P(H | base)``; ``P(D | H) = ways(D) prod_r ff(n_r - base_r - H_r, D_r) / ff(L -
    |base| - |H|, |D|)``, the numerator taken down the tree of the dealer's multisets
    (:func:`_prefix_tree`), one factor a node, for every hand at once."""
    left = (np.array(shoe, dtype=np.int64) - base - live).astype(float)  # per hand: cards of each rank left
    cards_left = int(sum(shoe)) - int(base.sum()) - live.sum(axis=1)
    longest = max(sum(d) for d in draws)
    falling = np.ones((len(live), longest + 1))
    for d in range(1, longest + 1):
        falling[:, d] = falling[:, d - 1] * np.maximum(cards_left - (d - 1), 0)
    draw_keys = sorted({int(keys.of(np.array(d))) for d in draws})
    column_of = {key: j for j, key in enumerate(draw_keys)}
    finals = {d: (float(ways), column_of[int(keys.of(np.array(d)))], sum(d)) for d, ways in draws.items()}
    inverse = 1.0 / np.where(falling > 0, falling, np.inf)
    by_draws = np.zeros((len(live), len(draw_keys)))  # per hand: P(D | H) summed by D's class
    nodes, children = _prefix_tree(draws)

    def walk(at: int, value: np.ndarray) -> None:
        node = nodes[at]
        if node in finals:
            ways, column, size = finals[node]
            by_draws[:, column] += value * (ways * inverse[:, size])
        for rank, child in children[at]:
            walk(child, value * (left[:, rank] - node[rank]))

    walk(0, np.ones(len(live)))
    order = np.argsort(live_keys, kind="stable")
    hand_keys, firsts = np.unique(live_keys[order], return_index=True)
    summed = np.add.reduceat(by_draws[order] * live_chance[order, None], firsts, axis=0)
    keyed = hand_keys[:, None] + np.array(draw_keys, dtype=np.int64)[None, :]
    _add_keyed(into, keyed, summed)


# the last few rounds' cards worked out, by (rules, chart's plays, seats, classes): a run asks
# for the same one for its chain and for its cards a round
_kept: Kept[Dist] = Kept(4)


def dealt_round_cards(rules: Rules, chart: Chart, seats: int = 1, of_rank: Sequence[int] = (0,) * 10) -> Dist:
    """The distribution of the cards one round uses, by class (``of_rank``: each rank's class),
    dealt from the full shoe without replacement (module docstring): ``seats`` hands played by
    ``chart``, splits, doubles, the dealer's up and hole cards and its draws when some hand is
    still live. The chances sum to 1 where no round can run out of cards (less by the rounds
    that would). The work grows as the seats' tables multiply: one seat that splits to four
    hands takes a minute (module constants)."""
    key = (rules, chart.key, seats, tuple(of_rank))
    kept = _kept.get(key)
    if kept is None:
        kept = _dealt(rules, chart, seats, of_rank)
        _kept.put(key, kept)
    return dict(kept)


def _dealt(rules: Rules, chart: Chart, seats: int, of_rank: Sequence[int]) -> Dist:
    shoe = rules.shoe_counts
    keys = _Keys(of_rank, sum(shoe) + 1)
    out: dict[int, float] = {}
    two = _Table.of((_one(a, b), False, 1.0) for a in range(10) for b in range(10))
    naturals = _EMPTY
    for _ in range(seats):
        naturals = naturals.then(two)
    for up in range(10):
        if shoe[up] == 0:
            continue
        seat = _Plays(rules, chart.ups[up], up).seat()
        table = _EMPTY
        for _ in range(seats):
            table = table.then(seat)
        cards = _decoded(table.codes)
        for hole in range(10):
            base = np.array(_one(up, hole), dtype=np.int64)
            if (base > np.array(shoe)).any():
                continue
            if rules.peek and {up, hole} == {ACE, TEN}:  # the dealer's blackjack: every seat's two cards
                held = _decoded(naturals.codes) + base
                _add_keyed(out, keys.of(held), naturals.ways * _chances(shoe, held))
                continue
            held = cards + base
            chance = table.ways * _chances(shoe, held)
            dead = ~table.live
            _add_keyed(out, keys.of(held[dead]), chance[dead])
            live = np.flatnonzero(table.live & (chance > 0))
            draws = _dealer_draws(rules, up, hole)
            for start in range(0, len(live), _LIVE_BLOCK):  # memory: a block's hands x the draws' classes
                rows = live[start:start + _LIVE_BLOCK]
                _live_rounds(shoe, base, cards[rows], chance[rows], keys.of(held[rows]), draws, keys, out)
    return {keys.vector(key): q for key, q in sorted(out.items()) if q > 0}


def class_weights(rules: Rules, dealt: Dist, of_rank: Sequence[int]) -> Dist:
    """``W(d) = P_full(d) ff(L, |d|) / prod_j ff(C_j, d_j)`` (module docstring): a round's chance
    of taking ``d`` cards by class on a state of the chain, over that state's class factors (the
    chain's steps as dealt, bjcalc.counting.placement)."""
    shoe = rules.shoe_counts
    totals = [0] * (max(of_rank) + 1)
    for r, c in enumerate(of_rank):
        totals[c] += shoe[r]
    whole = sum(shoe)
    out: Dist = {}
    for d, q in dealt.items():
        num = 1.0
        for i in range(sum(d)):
            num *= whole - i
        den = 1.0
        for j, x in enumerate(d):
            for i in range(x):
                den *= totals[j] - i
        if den > 0:
            out[d] = q * num / den
    return out


__all__ = ["dealt_round_cards", "class_weights"]
