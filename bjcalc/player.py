"""The player's unsplit hand: stand, hit, double and surrender values for every hand at once.

The player's states are the multisets of cards a hand can hold (hard total <= 21). They form a
graph (networkx, compiled to layers by number of cards); the dealer's outcomes for every state
come from one vectorised pass of :mod:`bjcalc.dealer`, and the hit values from one backward pass
over the layers.

Exact arithmetic without fractions: every value of a state with ``k`` cards is kept as an
integer numerator over the common denominator ``G_k = ff(N0 - k, M - k)`` (``N0`` cards after
the up card, ``M`` = deepest player hand + 1 + deepest dealer hand). Drawing a card multiplies
by ``s_r / (N0 - k)`` and ``G_k = (N0 - k) G_{k+1}``, so a hit value is simply
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


def player_hand_graph(shoe: tuple[int, ...], first_cards: int, stop_at: int | None) -> nx.DiGraph:
    """Hands of ``first_cards`` or more cards from ``shoe`` with hard total <= 21, and draws.

    A hand of ``stop_at`` cards draws no more. Edges carry the drawn ``rank``; draws that bust
    have no edge.
    """
    graph = nx.DiGraph()
    frontier = []
    for combo in itertools.combinations_with_replacement(range(10), first_cards):
        counts = tuple(combo.count(r) for r in range(10))
        if _fits(counts, shoe):
            graph.add_node(counts)
            frontier.append(counts)
    while frontier:
        next_frontier = []
        for hand in frontier:
            if stop_at is not None and sum(hand) >= stop_at:
                continue
            for rank in range(10):
                child = hand[:rank] + (hand[rank] + 1,) + hand[rank + 1 :]
                if not _fits(child, shoe):
                    continue
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
    index: dict[tuple[int, ...], tuple[int, int]]  # hand -> (layer, row)


@functools.lru_cache(maxsize=32)
def hand_layers(shoe: tuple[int, ...], first_cards: int, stop_at: int | None) -> HandLayers:
    graph = player_hand_graph(shoe, first_cards, stop_at)
    by_size: dict[int, list[tuple[int, ...]]] = {}
    for hand in graph:
        by_size.setdefault(sum(hand), []).append(hand)
    sizes = range(first_cards, max(by_size) + 1)
    index = {}
    for layer, size in enumerate(sizes):
        for row, hand in enumerate(sorted(by_size[size])):
            index[hand] = (layer, row)
    counts, children, totals = [], [], []
    for layer, size in enumerate(sizes):
        hands = sorted(by_size[size])
        kids = np.full((len(hands), 10), -1, dtype=np.intp)
        for row, hand in enumerate(hands):
            for child in graph.successors(hand):
                kids[row, graph.edges[hand, child]["rank"]] = index[child][1]
        counts.append(np.array(hands, dtype=np.int64).reshape(-1, 10))
        children.append(kids)
        totals.append(np.array([counts_total(hand)[0] for hand in hands], dtype=np.int64))
    return HandLayers(first_cards, tuple(counts), tuple(children), tuple(totals), index)


def _as(array: np.ndarray, exact: bool) -> np.ndarray:
    if exact:
        return np.array(array.tolist(), dtype=object).reshape(array.shape)
    return np.asarray(array, dtype=np.float64)


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)``."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclasses.dataclass
class UnsplitTable:
    """Stand/hit/double numerators of every hand against one up card, from one shoe.

    ``stand[k]``, ``hit[k]``, ``double`` (first layer only) are arrays of numerators over
    ``scale[k]``; ``blackjack[k]`` is P(dealer blackjack) times ``scale[k]``.
    """

    up: int
    shoe: tuple[int, ...]  # after the up card
    peeked: bool
    layers: HandLayers
    scale: list[object]
    stand: list[np.ndarray]
    hit: list[np.ndarray]
    can_hit: list[bool]
    double: np.ndarray
    blackjack: list[np.ndarray]
    dealer: dict[int, list[np.ndarray]]  # outcome -> per layer, numerators over scale[k]


def unsplit_table(rules: Rules, up: int, exact: bool) -> UnsplitTable:
    """Every unsplit hand's values against up card ``up`` from ``rules.shoe_counts``."""
    full = rules.shoe_counts
    shoe = full[:up] + (full[up] - 1,) + full[up + 1 :]
    stop_at = min(n for n in (rules.charlie, rules.player_max_cards, 99) if n is not None)
    layers = hand_layers(full, 2, stop_at)
    dealer = compiled_dealer(up, rules.hit_soft_17, rules.dealer_max_cards)
    depth = max_draws(dealer, shoe)
    n0 = sum(shoe)
    deepest = layers.first + len(layers.counts)  # cards held after the last possible draw
    if n0 < deepest + depth:
        raise InvalidShoeError(
            f"shoe {','.join(map(str, full))} is too small: a round could run out of cards"
        )
    top = deepest + depth
    bj_rank = {ACE: TEN, TEN: ACE}.get(up)
    peeked = rules.peek and bj_rank is not None
    double_loss = 2 if rules.blackjack_takes.doubles(up) is Loss.ALL else 1

    removed = np.vstack(layers.counts)
    numerators, _ = outcome_numerators(dealer, shoe, removed, depth, exact)
    sizes = [layers.first + k for k in range(len(layers.counts))]
    scale = [falling(n0 - size, top - size) for size in sizes + [sizes[-1] + 1]]
    # P(dealer blackjack) * scale = (cards of bj rank left) * ff(n0 - size - 1, top - size - 1)
    bj_unit = [falling(n0 - size - 1, top - size - 1) for size in sizes + [sizes[-1] + 1]]
    ones = _as(np.ones(1, dtype=np.int64), exact)[0]

    split_at = np.cumsum([len(c) for c in layers.counts])[:-1]
    dealer_by_layer: dict[int, list[np.ndarray]] = {}
    for outcome, values in numerators.items():
        parts = np.split(values, split_at)
        # numerators are over ff(n0 - size, depth); bring them to scale[k]
        dealer_by_layer[outcome] = [
            part * (ones * falling(n0 - size - depth, top - size - depth))
            for part, size in zip(parts, sizes)
        ]

    stand, stand_doubled, blackjack = [], [], []
    for k, (counts, totals, size) in enumerate(zip(layers.counts, layers.totals, sizes)):
        charlie = rules.charlie is not None and size >= rules.charlie
        not_blackjack = _as(np.zeros(len(counts), dtype=np.int64), exact)
        for outcome, per_layer in dealer_by_layer.items():
            if outcome == BLACKJACK:
                continue
            if charlie or outcome == BUST:
                pay = np.ones(len(counts), dtype=np.int64)
            else:
                pay = np.sign(totals - outcome)
            not_blackjack = not_blackjack + per_layer[k] * _as(pay, exact)
        if bj_rank is None:
            bj = _as(np.zeros(len(counts), dtype=np.int64), exact)
        else:
            bj = _as(shoe[bj_rank] - counts[:, bj_rank], exact) * bj_unit[k]
        blackjack.append(bj)
        if peeked:
            stand.append(not_blackjack)
            stand_doubled.append(not_blackjack * 2)
        else:
            stand.append(not_blackjack - bj)
            stand_doubled.append(not_blackjack * 2 - bj * double_loss)

    # backward pass: hit = sum_r (cards of rank r left) * best(child)
    n_layers = len(layers.counts)
    hit: list[np.ndarray] = [None] * n_layers  # type: ignore[list-item]
    best: list[np.ndarray] = [None] * n_layers  # type: ignore[list-item]
    can_hit = [sizes[k] < stop_at for k in range(n_layers)]
    double = None
    for k in reversed(range(n_layers)):
        counts, kids = layers.counts[k], layers.children[k]
        left = _as(np.maximum(np.array(shoe)[None, :] - counts, 0), exact)
        bj_left = None if bj_rank is None else shoe[bj_rank] - counts[:, bj_rank]
        total_hit = _as(np.zeros(len(counts), dtype=np.int64), exact)
        total_double = _as(np.zeros(len(counts), dtype=np.int64), exact)
        for rank in range(10):
            child = kids[:, rank]
            busts = child < 0
            # value of busting with this card (its dealer-blackjack chance uses the child shoe)
            if bj_rank is None:
                child_bj = _as(np.zeros(len(counts), dtype=np.int64), exact)
            else:
                child_bj = _as(bj_left - (rank == bj_rank), exact) * bj_unit[k + 1]
            g = scale[k + 1]
            if peeked:
                bust, bust_doubled = -(g - child_bj), -(g - child_bj) * 2
            else:
                bust, bust_doubled = -g, -(g - child_bj) * 2 - child_bj * double_loss
            if k + 1 < n_layers:
                safe = np.where(busts, 0, child)
                after = np.where(busts, bust, best[k + 1][safe])
                after_doubled = np.where(busts, bust_doubled, stand_doubled[k + 1][safe])
            else:
                after, after_doubled = bust, bust_doubled
            total_hit = total_hit + left[:, rank] * after
            if k == 0:
                total_double = total_double + left[:, rank] * after_doubled
        hit[k] = total_hit
        best[k] = np.maximum(stand[k], total_hit) if can_hit[k] else stand[k]
        if k == 0:
            double = total_double
    return UnsplitTable(
        up=up,
        shoe=shoe,
        peeked=peeked,
        layers=layers,
        scale=scale,
        stand=stand,
        hit=hit,
        can_hit=can_hit,
        double=double,
        blackjack=blackjack,
        dealer=dealer_by_layer,
    )
