"""The cards a round uses: their distribution by tag class for a chart, every seat, splits,
doubles and the dealer's draws, with the full shoe's card probabilities (:func:`round_cards`);
where rounds start along the shoe follows from it (:mod:`bjcalc.counting.placement`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from bjcalc.actions import Action
from bjcalc.arguments import shown
from bjcalc.cards import ACE, TEN
from bjcalc.chart import Chart, UpcardChart, cell_of, chart_action
from bjcalc.engine.door import (
    Code,
)
from bjcalc.errors import InvalidChartError, InvalidShoeError
from bjcalc.rules import Rules, check_rules

# the most hands at a table (seats): as ``--seats`` takes them
SEATS_LIMIT = 7


def check_round(rules: object, chart: object, seats: object) -> None:
    """Refuse, before any work, what places a shoe's rounds but is not one: ``rules`` not a
    :class:`Rules`, ``chart`` not a :class:`Chart`, ``seats`` not a whole number from 1 to
    :data:`SEATS_LIMIT`."""
    check_rules(rules)
    if not isinstance(chart, Chart):
        raise InvalidChartError(f"chart must be a bjcalc Chart (Analysis.chart(), load_chart), not {shown(chart)}")
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= SEATS_LIMIT:
        raise InvalidShoeError(f"seats must be a whole number from 1 to {SEATS_LIMIT}, not {shown(seats)}")

# -- where rounds start ------------------------------------------------------------------------


Dist = dict[tuple[int, ...], float]  # the cards used, by tag class -> probability


def _conv(a: Dist, b: Dist) -> Dist:
    """The cards of two independent parts of a round together."""
    if len(a) * len(b) < 2_000:
        out: Dist = {}
        for i, p in a.items():
            for j, q in b.items():
                key = tuple(x + y for x, y in zip(i, j))
                out[key] = out.get(key, 0.0) + p * q
        return out
    # large ones on dense arrays: the larger spread out, shifted and added once per key of the
    # smaller (the same products, added in another order); every sum of keys stays a key
    if len(a) < len(b):
        a, b = b, a
    keys_a, keys_b = np.array(list(a), dtype=np.int64), np.array(list(b), dtype=np.int64)
    shape_a = tuple(int(m) + 1 for m in keys_a.max(axis=0))
    shape = tuple(int(m) + x for m, x in zip(keys_b.max(axis=0), shape_a))
    dense, held = np.zeros(shape_a), np.zeros(shape_a, dtype=bool)
    dense[tuple(keys_a.T)] = list(a.values())
    held[tuple(keys_a.T)] = True
    total, support = np.zeros(shape), np.zeros(shape, dtype=bool)
    for j, q in b.items():
        at = tuple(slice(x, x + m) for x, m in zip(j, shape_a))
        total[at] += dense * q
        support[at] |= held
    where = np.argwhere(support)
    return dict(zip(map(tuple, where.tolist()), total[support].tolist()))


def _scaled(a: Dist, w: float, into: Dist) -> None:
    for i, p in a.items():
        into[i] = into.get(i, 0.0) + w * p


def _plus(a: Dist, b: Dist) -> Dist:
    out = dict(a)
    _scaled(b, 1.0, out)
    return out


class _Cards:
    """Card vectors by tag class (one class: the number of cards), and the cards a hand that
    hits by a chart goes on to draw, worked out once per (chart, total, softness)."""

    def __init__(self, of_rank: Sequence[int]) -> None:
        self.of_rank = tuple(of_rank)
        self.size = max(self.of_rank) + 1
        self._hits: dict[tuple[bytes, int, bool], tuple[Dist, Dist]] = {}

    def of(self, *ranks: int) -> tuple[int, ...]:
        out = [0] * self.size
        for r in ranks:
            out[self.of_rank[r]] += 1
        return tuple(out)

    def one(self, *ranks: int) -> Dist:
        return {self.of(*ranks): 1.0}

    def add(self, d: Dist, r: int) -> Dist:
        """``d`` with one more card of rank ``r`` (a shift of every key: nothing to add up)."""
        c = self.of_rank[r]
        return {i[:c] + (i[c] + 1,) + i[c + 1:]: q for i, q in d.items()}

    def shift(self, d: Dist, by: tuple[int, ...]) -> Dist:
        return {tuple(x + y for x, y in zip(i, by)): q for i, q in d.items()}

    def hits(self, chart: UpcardChart, total: int, soft: bool, p: list[float]) -> tuple[Dist, Dist]:
        """The cards a hand of ``total`` draws when it hits now and then by the chart's 3+-card
        plays: ending live (standing) and busted."""
        key = (chart.hit.tobytes(), total, soft)  # the later plays are the chart's hit cells
        if key not in self._hits:
            live: Dist = {}
            dead: Dist = {}
            for r in range(10):
                t, s = _total_after(total, soft, r)
                card = self.one(r)
                if t > 21:
                    _scaled(card, p[r], dead)
                elif t == 21 or not chart.hit[cell_of(t, s)]:
                    _scaled(card, p[r], live)
                else:
                    alive, gone = self.hits(chart, t, s, p)
                    _scaled(self.add(alive, r), p[r], live)
                    _scaled(self.add(gone, r), p[r], dead)
            self._hits[key] = (live, dead)
        return self._hits[key]


def round_cards(rules: Rules, chart: Chart, seats: int = 1, of_rank: Sequence[int] = (0,) * 10) -> Dist:
    """The distribution of the cards one round uses with ``seats`` hands played by ``chart``,
    counted by class (``of_rank``: each rank's class; default one class, the number of cards):
    each seat's cards (splits included), the dealer's two, and the dealer's draws when some
    hand is still live. Computed with the full shoe's card probabilities drawn with
    replacement: it only places the rounds along the shoe (module docstring); no probability of
    any result comes from it."""
    counts = rules.shoe_counts
    total = sum(counts)
    p = [n / total for n in counts]
    cards = _Cards(of_rank)
    out: Dist = {}
    for up in range(10):
        if p[up] == 0:
            continue
        hole_bj = (p[TEN] if up == ACE else p[ACE] if up == TEN else 0.0) if rules.peek else 0.0
        live, dead, natural = _seat_cards(rules, chart.ups[up], p, cards)
        if hole_bj:  # every seat's two cards, the up card and the hole card that makes blackjack
            seats_two = {cards.of(): 1.0}
            for _ in range(seats):
                seats_two = _conv(seats_two, natural)
            _scaled(cards.add(cards.add(seats_two, up), ACE if up == TEN else TEN), p[up] * hole_bj, out)
        every, all_dead = {cards.of(): 1.0}, {cards.of(): 1.0}
        for _ in range(seats):
            every, all_dead = _conv(every, _plus(live, dead)), _conv(all_dead, dead)
        some_live = {c: every[c] - all_dead.get(c, 0.0) for c in every}
        holes, drawn = _dealer_cards(rules, up, p, cards)
        _scaled(_conv(all_dead, holes), p[up] * (1 - hole_bj), out)
        _scaled(_conv(some_live, drawn), p[up] * (1 - hole_bj), out)
    return {c: q for c, q in sorted(out.items()) if q > 0}


def cards_per_round(rules: Rules, chart: Chart, seats: int = 1) -> float:
    """The expected cards one round uses (:func:`round_cards`)."""
    check_round(rules, chart, seats)
    return sum(sum(c) * q for c, q in round_cards(rules, chart, seats).items())


def _seat_cards(rules: Rules, chart: UpcardChart, p: list[float], cards: _Cards) -> tuple[Dist, Dist, Dist]:
    """One seat's cards when the dealer has no blackjack, split by whether its hands end live or
    dead; and its two cards alone (what it holds when the dealer has blackjack)."""
    live: Dist = {}
    dead: Dist = {}
    two: Dist = {}
    for a in range(10):
        for b in range(10):
            w = p[a] * p[b]
            if w == 0:
                continue
            hand = [0] * 10
            hand[a] += 1
            hand[b] += 1
            held = cards.one(a, b)
            _scaled(held, w, two)
            total, soft = _total(hand)
            if total == 21:  # blackjack: paid, not live
                _scaled(held, w, dead)
                continue
            action = chart_action(rules, chart, tuple(hand), total, soft)
            alive: Dist = {}
            gone: Dist = {}
            if action is Action.SPLIT:
                alive = _split_cards(rules, chart, a, p, cards)
            elif action is Action.SURRENDER:
                gone = held
            elif action is Action.DOUBLE:
                for r in range(10):
                    _scaled(cards.add(held, r), p[r], gone if _total_after(total, soft, r)[0] > 21 else alive)
            elif action is Action.STAND:
                alive = held
            else:
                alive, gone = _hit_cards(chart, total, soft, held, p, cards)
            _scaled(alive, w, live)
            _scaled(gone, w, dead)
    return live, dead, two


def _total(hand: list[int]) -> tuple[int, bool]:
    total = sum((r + 1) * n for r, n in enumerate(hand))
    soft = hand[ACE] > 0 and total + 10 <= 21
    return total + 10 * soft, soft


def _total_after(total: int, soft: bool, r: int) -> tuple[int, bool]:
    total += r + 1
    if r == ACE and total + 10 <= 21:
        return total + 10, True
    if total > 21 and soft:
        return total - 10, False
    return total, soft


def _hit_cards(chart: UpcardChart, total: int, soft: bool, held: Dist, p: list[float],
               cards: _Cards) -> tuple[Dist, Dist]:
    """The cards a hand (``held``, one card vector) ends with when it hits now and then by the
    chart's 3+-card plays: live (standing) and busted."""
    (start,) = held
    live, dead = cards.hits(chart, total, soft, p)
    return cards.shift(live, start), cards.shift(dead, start)


def _split_cards(rules: Rules, chart: UpcardChart, pair: int, p: list[float], cards: _Cards) -> Dist:
    """The cards of a split pair: each hand drawn to and played by the chart, resplits to the
    rules' hands (a hand at the limit takes a pair card as any other); taken as live."""
    resplit = rules.split_hands > 2 and (pair != ACE or rules.resplit_aces)
    q = p[pair] if resplit else 0.0
    # the j-th resplit comes (a second card of the pair's rank while hands are short) before the
    # (j+1)-th hand closes with chance sum_f C(j-1+f, f) q^j (1-q)^f
    at_least = [1.0] + [sum(math.comb(j - 1 + f, f) * q ** j * (1 - q) ** f for f in range(j + 1))
                        for j in range(1, rules.split_hands - 1)] + [0.0]
    one: Dist = {}
    for r in range(10):
        if resplit and r == pair:
            continue
        hand = [0] * 10
        hand[pair] += 1
        hand[r] += 1
        held = cards.one(pair, r)
        total, soft = _total(hand)
        if pair == ACE and not rules.hit_split_aces or total == 21:
            ends = held
        elif rules.double_after_split and chart.first[cell_of(total, soft)] == Code.DOUBLE:
            ends = {}
            for d in range(10):
                _scaled(cards.add(held, d), p[d], ends)
        elif chart.hit_two[cell_of(total, soft)]:
            ends = _plus(*_hit_cards(chart, total, soft, held, p, cards))
        else:
            ends = held
        _scaled(ends, p[r] / (1 - q), one)
    out: Dist = {}
    hands: Dist = _conv(one, one)
    for j in range(len(at_least) - 1):  # j resplits: 2 + j hands
        _scaled(hands, at_least[j] - at_least[j + 1], out)
        hands = _conv(hands, one)
    return out


def _dealer_cards(rules: Rules, up: int, p: list[float], cards: _Cards) -> tuple[Dist, Dist]:
    """The dealer's cards when it has no blackjack: the up and hole cards alone (every hand
    dead, nothing drawn), and with its draws."""
    memo: dict[tuple[int, bool], Dist] = {}

    def draws(total: int, soft: bool) -> Dist:
        if total > 17 or (total == 17 and not (soft and rules.hit_soft_17)):
            return {cards.of(): 1.0}
        key = (total, soft)
        if key not in memo:
            out: Dist = {}
            for r in range(10):
                _scaled(cards.add(draws(*_total_after(total, soft, r)), r), p[r], out)
            memo[key] = out
        return memo[key]

    holes: Dist = {}
    drawn: Dist = {}
    weight = 0.0
    for hole in range(10):
        hand = [0] * 10
        hand[up] += 1
        hand[hole] += 1
        total, soft = _total(hand)
        if total == 21 and rules.peek:
            continue
        _scaled(cards.one(up, hole), p[hole], holes)
        _scaled(_conv(cards.one(up, hole), draws(total, soft)), p[hole], drawn)
        weight += p[hole]
    return {c: q / weight for c, q in holes.items()}, {c: q / weight for c, q in drawn.items()}
