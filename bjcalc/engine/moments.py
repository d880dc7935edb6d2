"""The first and second moments of a split pair's total result, exact, when no resplit is allowed.

The EV of a split needs only one hand at a time (see :mod:`bjcalc.engine.split`), but its second
moment needs ``E[X1 X2]``: the two hands share the dealer's cards and each other's removals. So
here the two hands are enumerated jointly, without approximation:

* Each split hand ends in a *terminal* state ``F``: its cards, its bet (1, or 2 when doubled)
  and how it ends (standing on a total, Charlie, or bust). ``c(F)`` counts the orders of its
  drawn cards that the strategy plays to ``F`` (every proper prefix is a state where it hits).
  Without resplitting both hands follow the same strategy, a function of the hand's cards.
* Drawing without replacement, a particular sequence of draws has a probability that depends
  only on the multiset of cards drawn. So hand 1 ending in ``F1``, hand 2 in ``F2`` and the
  dealer in outcome ``o`` has probability ``c(F1) c(F2) ff_S(M) P(o | S - M)``, where ``M`` is
  the multiset both hands drew, ``ff_S(M) = prod_r ff(S_r, M_r) / ff(|S|, |M|)`` and ``S`` is
  the shoe after the up card and both pair cards.
* The result is ``phi_o(F1) + phi_o(F2)`` (plus the original bet when a no-hole-card dealer's
  blackjack takes only that bet), so ``E[Y^k] = sum over (F1, F2, o)`` of probability times
  the k-th power. Pairs with the same ``M`` share one dealer evaluation.

Frames are those of :meth:`bjcalc.engine.split.SplitSolver.value`: a peeking dealer with an A or T
up gives ``E[Y^k; no dealer blackjack]``, otherwise unconditional.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.dealer import BLACKJACK, BUST, outcome_numerators
from bjcalc.engine.hands import PACK
from bjcalc.engine.values import HandValues, stacked_values
from bjcalc.errors import InvalidShoeError
from bjcalc.numbers import falling

_CHARLIE = 24  # the "kind" of a Charlie hand; other kinds: its total 4..21, or BUST (22)


def terminal_states(solved, pair: int, rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The terminal states of one split hand under its decisions: (cards, bet, kind, count of
    orders), duplicates merged. ``cards`` include the pair card."""
    layers = solved.layers
    counts_in = [np.zeros(len(c), dtype=np.int64) for c in layers.counts]
    counts_in[0][0] = 1
    cards, bets, kinds, ways = [], [], [], []

    def kind_of(hands: np.ndarray, totals: np.ndarray) -> np.ndarray:
        if rules.charlie is None:
            return totals
        return np.where(hands.sum(axis=1) >= rules.charlie, _CHARLIE, totals)

    for k, hands in enumerate(layers.counts):
        ways_here = counts_in[k]
        live = ways_here > 0
        decision = solved.decision[k]
        standing = live & (decision == Code.STAND)
        if standing.any():
            cards.append(hands[standing])
            bets.append(np.ones(int(standing.sum()), dtype=np.int64))
            kinds.append(kind_of(hands[standing], layers.totals[k][standing]))
            ways.append(ways_here[standing])
        for action, bet in ((Code.HIT, 1), (Code.DOUBLE, 2)):
            drawing = live & (decision == action)
            if not drawing.any():
                continue
            rows = np.flatnonzero(drawing)
            for rank in range(10):
                child = layers.children[k][rows, rank]
                drawn = hands[rows].copy()
                drawn[:, rank] += 1
                bust = child < 0
                if bust.any():
                    cards.append(drawn[bust])
                    bets.append(np.full(int(bust.sum()), bet, dtype=np.int64))
                    kinds.append(np.full(int(bust.sum()), BUST, dtype=np.int64))
                    ways.append(ways_here[rows[bust]])
                ok = ~bust
                if not ok.any():
                    continue
                if action == Code.HIT:
                    np.add.at(counts_in[k + 1], child[ok], ways_here[rows[ok]])
                else:
                    cards.append(drawn[ok])
                    bets.append(np.full(int(ok.sum()), 2, dtype=np.int64))
                    kinds.append(kind_of(drawn[ok], layers.totals[k + 1][child[ok]]))
                    ways.append(ways_here[rows[ok]])
    cards_all = np.concatenate(cards)
    bets_all, kinds_all, ways_all = np.concatenate(bets), np.concatenate(kinds), np.concatenate(ways)
    key = (cards_all @ PACK) * 64 + bets_all * 32 + kinds_all
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    merged = np.zeros(len(unique), dtype=np.int64)
    np.add.at(merged, inverse.reshape(-1), ways_all)
    return cards_all[first], bets_all[first], kinds_all[first], merged


def split_moments(splitter, pair: int) -> tuple[Any, Any]:
    """(E[Y], E[Y^2]) of the total result ``Y`` of splitting ``pair`` once (no resplit), for
    the splitter's post-split strategy, in the frame of its ``value``."""
    context = splitter.context
    rules, exact = context.rules, context.exact
    solved = splitter.hand_values(pair, 0)
    cards, bets, kinds, ways = terminal_states(solved, pair, rules)
    shoe = np.array(context.shoe, dtype=np.int64)
    shoe[pair] -= 2
    n0 = int(shoe.sum())
    drawn = cards.copy()
    drawn[:, pair] -= 1  # each hand's pair card is already out of the shoe

    # phi[class, outcome]: the result of one hand of each (bet, kind) class per dealer outcome
    codes = np.array(context.dealer.outcomes)
    classes, cls = np.unique(bets * 32 + kinds, return_inverse=True)
    cls = cls.reshape(-1)
    c_bet, c_kind = classes // 32, classes % 32
    phi = np.sign(c_kind[:, None] - codes[None, :]) * c_bet[:, None]
    phi[:, codes == BUST] = c_bet[:, None]
    phi[c_kind == BUST] = -c_bet[c_kind == BUST][:, None]
    phi[c_kind == _CHARLIE] = c_bet[c_kind == _CHARLIE][:, None]
    extra = np.zeros(len(codes), dtype=np.int64)
    blackjack = codes == BLACKJACK
    if context.peeked:
        phi[:, blackjack] = 0  # frame: no dealer blackjack
    else:
        # a no-hole-card blackjack: each hand loses what the policies say; the original bet
        # is lost once when split bets are returned
        phi[:, blackjack] = -(context.split_loss + context.double_loss * (c_bet == 2))[:, None]
        extra[blackjack] = -1 if context.split_loss == 0 else 0
    n_cls = len(classes)
    # y[class1 * n_cls + class2, outcome]: the two hands' total result
    y = phi[:, None, :] + phi[None, :, :] + extra[None, None, :]
    y = y.reshape(n_cls * n_cls, len(codes))
    if context.peeked:
        y[:, blackjack] = 0

    # every pair of terminal states, grouped by the multiset both hands drew. The results are
    # symmetric in the two hands, so each unordered pair is taken once, twice weighted.
    keys, pair_classes, weights = [], [], []
    for i in range(len(drawn)):
        both = drawn[i][None, :] + drawn[i:]
        feasible = np.flatnonzero((both <= shoe[None, :]).all(axis=1))
        keys.append(both[feasible] @ PACK)
        pair_classes.append(cls[i] * n_cls + cls[i + feasible])
        weights.append(ways[i] * ways[i + feasible] * np.where(feasible == 0, 1, 2))
    m_keys, m_index = np.unique(np.concatenate(keys), return_inverse=True)
    m_index = m_index.reshape(-1)
    pair_class = np.concatenate(pair_classes)
    weight = np.concatenate(weights)
    both_cards = (m_keys[:, None] // PACK[None, :]) % 64  # the multisets, decoded
    sizes = both_cards.sum(axis=1)
    if int(sizes.max(initial=0)) + context.depth > n0:
        raise InvalidShoeError(
            f"shoe {','.join(map(str, rules.shoe_counts))} is too small: two split hands and the "
            "dealer could run out of cards"
        )
    # per multiset and dealer outcome: the sums of c1 c2 Y and c1 c2 Y^2 over its pairs
    # (integers; int64 holds them, checked, else Python integers)
    safe = float(np.sum(weight, dtype=np.float64)) * float(np.abs(y).max(initial=1)) ** 2 < 2.0**62
    if not safe:
        weight = weight.astype(object)
    sums = []
    for power in (1, 2):
        table = np.zeros((len(m_keys), len(codes)), dtype=np.int64 if safe else object)
        for o in range(len(codes)):
            np.add.at(table[:, o], m_index, weight * y[pair_class, o] ** power)
        sums.append(table)

    removed = both_cards.copy()
    removed[:, pair] += 2  # relative to the shoe after the up card
    numerators, denominators = outcome_numerators(context.dealer, context.shoe, removed, context.depth, exact)
    dealer = np.stack([numerators[o] for o in codes.tolist()], axis=1)  # (multisets, outcomes)
    if exact:
        first_m, second_m = ((dealer * np.array(t.tolist(), dtype=object)).sum(axis=1) for t in sums)
    else:
        first_m, second_m = ((dealer * t.astype(np.float64)).sum(axis=1) for t in sums)

    # the hands' draws have probability prod_r ff(S_r, M_r) / ff(n0, |M|); the dealer's
    # numerators are over ff(n0 - |M|, depth): together over ff(n0, |M| + depth)
    if exact:
        shoe_list = shoe.tolist()
        by_size: dict[int, list[int]] = {}
        for j, row in enumerate(both_cards.tolist()):
            w = math.prod(falling(s, m) for s, m in zip(shoe_list, row))
            acc = by_size.setdefault(int(sizes[j]), [0, 0])
            acc[0] += w * first_m[j]
            acc[1] += w * second_m[j]
        mean = sum((Fraction(a, falling(n0, size + context.depth)) for size, (a, _) in by_size.items()), Fraction(0))
        square = sum((Fraction(b, falling(n0, size + context.depth)) for size, (_, b) in by_size.items()), Fraction(0))
        return mean, square
    deepest = int(both_cards.max(initial=0)) + 1
    table = np.array([[float(falling(s, m)) for m in range(deepest)] for s in shoe.tolist()])  # (10, m)
    per_size = np.array([float(falling(n0, k)) for k in range(int(sizes.max(initial=0)) + 1)])
    p_draws = np.prod(table[np.arange(10)[None, :], both_cards], axis=1) / per_size[sizes]
    p_draws = p_draws / np.asarray(denominators, dtype=np.float64)
    return float((p_draws * first_m).sum()), float((p_draws * second_m).sum())


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
    rules, exact = context.rules, context.exact
    layers = table.layers
    n0 = sum(context.shoe)
    columns = context.batch.index.register(layers, (0,) * 10)
    stand_sq, stand_sq_doubled = [], []
    double_loss = 1 + context.double_loss
    for k, totals in enumerate(layers.totals):
        size = layers.sizes[k]
        g = table.scale[k]
        outcomes = context.batch.outcomes(columns[k])
        lift = g // falling(n0 - size, context.depth) if exact else (
            float(g) / float(falling(n0 - size, context.depth)))
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
