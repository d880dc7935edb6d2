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

import dataclasses
import functools
import itertools

import networkx as nx
import numpy as np

from bjcalc.cards import ACE, TEN, counts_total
from bjcalc.dealer import BLACKJACK, BUST, compiled_dealer, max_draws, outcome_numerators
from bjcalc.errors import InvalidShoeError
from bjcalc.rules import Loss, Rules

STAND, HIT, DOUBLE = 0, 1, 2
_PACK = 64 ** np.arange(10, dtype=np.int64)  # a removal vector (counts < 64) as one integer


def player_hand_graph(
    shoe: tuple[int, ...], first_cards: int, stop_at: int, start: tuple[int, ...] | None = None
) -> nx.DiGraph:
    """Hands from ``shoe`` with hard total <= 21, and the draws between them.

    The graph starts from every hand of ``first_cards`` cards, or from the one hand ``start``.
    A hand of ``stop_at`` cards draws no more. Edges carry the drawn ``rank``; draws that bust
    have no edge.
    """
    graph = nx.DiGraph()
    if start is not None:
        frontier = [start] if _fits(start, shoe) else []
    else:
        frontier = [
            counts
            for combo in itertools.combinations_with_replacement(range(10), first_cards)
            if _fits(counts := tuple(combo.count(r) for r in range(10)), shoe)
        ]
    graph.add_nodes_from(frontier)
    while frontier:
        next_frontier = []
        for hand in frontier:
            if sum(hand) >= stop_at:
                continue
            hard = sum((r + 1) * n for r, n in enumerate(hand))
            for rank in range(10):
                if hard + rank + 1 > 21 or hand[rank] >= shoe[rank]:
                    continue
                child = hand[:rank] + (hand[rank] + 1,) + hand[rank + 1 :]
                if child not in graph:
                    graph.add_node(child)
                    next_frontier.append(child)
                graph.add_edge(hand, child, rank=rank)
        frontier = next_frontier
    return graph


def _fits(counts: tuple[int, ...], shoe: tuple[int, ...]) -> bool:
    hard = sum((r + 1) * n for r, n in enumerate(counts))
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
    index: dict[tuple[int, ...], tuple[int, int]]  # hand -> (layer, row)

    @property
    def sizes(self) -> list[int]:
        return [self.first + k for k in range(len(self.counts))]


@functools.lru_cache(maxsize=64)
def hand_layers(
    shoe: tuple[int, ...], first_cards: int, stop_at: int, start: tuple[int, ...] | None = None
) -> HandLayers:
    graph = player_hand_graph(shoe, first_cards, stop_at, start)
    by_size: dict[int, list[tuple[int, ...]]] = {}
    for hand in graph:
        by_size.setdefault(sum(hand), []).append(hand)
    sizes = range(first_cards, max(by_size, default=first_cards) + 1)
    index = {}
    for layer, size in enumerate(sizes):
        for row, hand in enumerate(sorted(by_size.get(size, []))):
            index[hand] = (layer, row)
    counts, children, totals, softs = [], [], [], []
    for size in sizes:
        hands = sorted(by_size.get(size, []))
        kids = np.full((len(hands), 10), -1, dtype=np.intp)
        for row, hand in enumerate(hands):
            for child in graph.successors(hand):
                kids[row, graph.edges[hand, child]["rank"]] = index[child][1]
        counts.append(np.array(hands, dtype=np.int64).reshape(-1, 10))
        children.append(kids)
        both = [counts_total(hand) for hand in hands]
        totals.append(np.array([t for t, _ in both], dtype=np.int64))
        softs.append(np.array([s for _, s in both], dtype=bool))
    return HandLayers(first_cards, tuple(counts), tuple(children), tuple(totals), tuple(softs), index)


def as_numbers(array: np.ndarray | list[int], exact: bool) -> np.ndarray:
    """An integer array as Python ints (exact mode) or float64."""
    array = np.asarray(array)
    if exact:
        return np.array(array.tolist(), dtype=object).reshape(array.shape)
    return array.astype(np.float64)


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)``."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def stop_at(rules: Rules) -> int:
    """The number of cards at which a hand stops drawing (charlie or card limit)."""
    return min(n for n in (rules.charlie, rules.player_max_cards, 99) if n is not None)


class UpCard:
    """Everything that depends on the up card: the shoe after it, the dealer graph, and the
    dealer outcomes of every shoe the player's hands leave, evaluated in batches."""

    def __init__(self, rules: Rules, up: int, exact: bool) -> None:
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
        self._columns: dict[int, int] = {}
        self._pending_rows: list[np.ndarray] = []
        self._registered: dict[tuple[int, tuple[int, ...]], tuple[HandLayers, list[np.ndarray]]] = {}
        self._stands: dict[tuple[int, tuple[int, ...], int], tuple[HandLayers, tuple]] = {}
        self._numerators: dict[int, np.ndarray] = {}
        self._evaluated = 0

    def columns(self, removed: np.ndarray) -> np.ndarray:
        """Register shoes ``shoe - removed[i]``; returns their column numbers."""
        keys = (removed.astype(np.int64) * _PACK).sum(axis=1).tolist()
        table, pending = self._columns, self._pending_rows
        out = np.empty(len(keys), dtype=np.intp)
        for i, key in enumerate(keys):
            column = table.get(key)
            if column is None:
                column = table[key] = len(table)
                pending.append(removed[i])
            out[i] = column
        return out

    def register(self, layers: HandLayers, extra: tuple[int, ...]) -> list[np.ndarray]:
        """Register the shoes every hand of ``layers`` leaves (with ``extra`` also removed)."""
        key = (id(layers), extra)
        if key not in self._registered:
            extra_row = np.array(extra, dtype=np.int64)
            self._registered[key] = (layers, [self.columns(c + extra_row) for c in layers.counts])
        return self._registered[key][1]

    def stand_values(self, layers: HandLayers, extra: tuple[int, ...], loss: int):
        """What does not depend on the player's decisions (cached): the shoe, the layer
        scales, and the stand, doubled-stand and dealer-blackjack numerators of every hand."""
        key = (id(layers), extra, loss)
        if key not in self._stands:
            self._stands[key] = (layers, self._stand_values(layers, extra, loss))
        return self._stands[key][1]

    def _stand_values(self, layers: HandLayers, extra: tuple[int, ...], loss: int):
        up = self
        rules, exact = up.rules, up.exact
        shoe = tuple(s - e for s, e in zip(up.shoe, extra))
        n0 = sum(shoe)
        sizes = layers.sizes
        deepest = sizes[-1] + 1  # cards held after the last possible draw
        if n0 < deepest + up.depth:
            raise InvalidShoeError(
                f"shoe {','.join(map(str, rules.shoe_counts))} is too small: a round could run out of cards"
            )
        top = deepest + up.depth
        scale = [falling(n0 - size, top - size) for size in sizes + [deepest]]
        # P(dealer blackjack) * scale[k] = (cards of the blackjack rank left) * bj_unit[k]
        bj_unit = [falling(n0 - size - 1, top - size - 1) for size in sizes + [deepest]]
        columns = up.register(layers, extra)
        everything = up.outcomes(np.concatenate(columns))
        starts = np.cumsum([0] + [len(c) for c in columns])
        stand, stand_doubled, blackjack = [], [], []
        for k, (counts, totals) in enumerate(zip(layers.counts, layers.totals)):
            size = sizes[k]
            zeros = as_numbers(np.zeros(len(counts), dtype=np.int64), exact)
            if size < 2:  # one-card split hands never stand
                stand.append(zeros)
                stand_doubled.append(zeros)
                blackjack.append(zeros)
                continue
            dealer = {o: v[starts[k] : starts[k + 1]] for o, v in everything.items()}
            # dealer numerators are over ff(n0 - size, depth); bring them to scale[k]
            lift = falling(n0 - size - up.depth, top - size - up.depth)
            charlie = rules.charlie is not None and size >= rules.charlie
            not_blackjack = zeros
            for outcome, values in dealer.items():
                if outcome == BLACKJACK:
                    continue
                if charlie or outcome == BUST:
                    pay = np.ones(len(counts), dtype=np.int64)
                else:
                    pay = np.sign(totals - outcome)
                not_blackjack = not_blackjack + values * (as_numbers(pay, exact) * lift)
            if up.bj_rank is None:
                bj = zeros
            else:
                bj = as_numbers(shoe[up.bj_rank] - counts[:, up.bj_rank], exact) * bj_unit[k]
            blackjack.append(bj)
            if up.peeked:
                stand.append(not_blackjack)
                stand_doubled.append(not_blackjack * 2)
            else:
                stand.append(not_blackjack - bj * loss)
                stand_doubled.append(not_blackjack * 2 - bj * (loss + up.double_loss))

        # the draws of every layer: cards left per rank, where a draw busts, and its value
        draws = []
        shoe_row = np.array(shoe)
        bj_is = np.arange(10) == up.bj_rank
        for k, (counts, kids) in enumerate(zip(layers.counts, layers.children)):
            left = as_numbers(np.maximum(shoe_row[None, :] - counts, 0), exact)
            g = scale[k + 1]
            if up.bj_rank is None:
                child_bj = as_numbers(np.zeros(kids.shape, dtype=np.int64), exact)
            else:
                bj_left = shoe[up.bj_rank] - counts[:, up.bj_rank]
                child_bj = as_numbers(bj_left[:, None] - bj_is[None, :], exact) * bj_unit[k + 1]
            if up.peeked:
                bust, bust_doubled = -(g - child_bj), -(g - child_bj) * 2
            else:
                bust = -(g - child_bj) - child_bj * loss
                bust_doubled = -(g - child_bj) * 2 - child_bj * (loss + up.double_loss)
            busts = kids < 0
            safe = np.where(busts, 0, kids)
            double = one_card = None
            if sizes[k] == 2:
                after, after_single = bust_doubled, bust
                if k + 1 < len(sizes):
                    after = np.where(busts, bust_doubled, stand_doubled[k + 1][safe])
                    after_single = np.where(busts, bust, stand[k + 1][safe])
                double = (left * after).sum(axis=1)
                one_card = (left * after_single).sum(axis=1)
            draws.append(_Draws(left, busts, safe, bust, double, one_card, child_bj))
        return shoe, scale, stand, blackjack, draws

    def outcomes(self, columns: np.ndarray) -> dict[int, np.ndarray]:
        """Dealer outcome numerators (over ``ff(cards left, depth)``) of registered columns."""
        if self._pending_rows:
            removed = np.array(self._pending_rows, dtype=np.int64).reshape(-1, 10)
            batch, _ = outcome_numerators(self.dealer, self.shoe, removed, self.depth, self.exact)
            for outcome, values in batch.items():
                old = self._numerators.get(outcome)
                self._numerators[outcome] = values if old is None else np.concatenate([old, values])
            self._pending_rows = []
        return {o: v[columns] for o, v in self._numerators.items()}


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
    scale: list[object]
    stand: list[np.ndarray]
    hit: list[np.ndarray]
    best: list[np.ndarray]
    decision: list[np.ndarray]
    can_hit: list[bool]
    double: np.ndarray | None
    double_layer: int | None
    blackjack: list[np.ndarray]
    one_card: np.ndarray | None = None  # two-card layer: take one card and stand, same bet


def solve(
    up: UpCard,
    layers: HandLayers,
    extra: tuple[int, ...] = (0,) * 10,
    *,
    loss: int = 1,
    limit: int | None = None,
    may_double: np.ndarray | None = None,
    decisions: list[np.ndarray] | None = None,
) -> Solved:
    """Stand/hit/double values of every hand in ``layers`` drawing from ``up.shoe - extra``.

    ``loss``: what a no-hole-card dealer blackjack takes of the hand's base bet (1, or 0 for a
    split hand whose bet the rules return). ``may_double``: which two-card hands may double as
    part of their play (split hands with DAS); unsplit hands double only as a first decision,
    made outside. ``decisions``: a fixed play per state (else the best one is chosen).
    ``limit``: the number of cards at which the hand stops drawing (default: the rules').
    """
    rules = up.rules
    shoe, scale, stand, blackjack, draws = up.stand_values(layers, extra, loss)
    sizes = layers.sizes
    n_layers = len(sizes)

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
            value = np.where(chosen == DOUBLE, double, value)
        best[k] = value
    return Solved(
        layers=layers,
        shoe=shoe,
        peeked=up.peeked,
        scale=scale,
        stand=stand,
        hit=hit,
        best=best,
        decision=decision,
        can_hit=can_hit,
        double=double,
        double_layer=double_layer,
        blackjack=blackjack,
        one_card=draws[double_layer].one_card if double_layer is not None else None,
    )


def unsplit_layers(rules: Rules) -> HandLayers:
    """The graph of unsplit hands: two or more cards."""
    return hand_layers(rules.shoe_counts, 2, stop_at(rules))


def unsplit_table(up: UpCard) -> Solved:
    """Every unsplit hand's values against the up card: hands of two or more cards, hit/stand
    chosen optimally after the first decision (composition-dependent)."""
    return solve(up, unsplit_layers(up.rules))
