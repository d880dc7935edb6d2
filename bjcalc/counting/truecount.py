"""What a count and a bet spread are worth: true-count frequencies, advantage by true count,
win rate, SD, DI, SCORE, N0 and risk of ruin, from exact counter's-shoe analyses.

The model (docs/truecount.md says what is exact and what is modelled):

- **Rounds along the shoe.** A round uses ``c`` cards with a distribution computed from the
  strategy with the full shoe's card probabilities (:func:`round_cards`). The default
  placement is ``chain`` where it can be followed (floating point, counts of at most
  :data:`CHAIN_CLASSES` tag values: the cards seen of each tag class followed from round
  to round, :func:`round_start_chain`), else ``renewal`` (``spaced`` when wonging out:
  :func:`round_start_states`). ``renewal`` starts rounds where those draws take them,
  independently of the count:
  ``P(a round starts after N cards) = u(N)``, ``u(0) = 1``, ``u(N) = sum_c P(c) u(N - c)``, for
  every ``N`` below the cut card (:func:`round_start_chances`); ``spaced`` starts round ``k``
  after ``round(k * E[c])`` cards (fewer depths, so faster; needed to follow the count's path
  when wonging out). The placement is the one modelled quantity that enters the weights; it
  leaves out the cut-card effect (rounds that use many cards are likelier in some counts).
- **The count at a round's start** is exactly distributed:
  ``P(RC | N) = #(N-subsets with that tag sum) / C(cards, N)``
  (:func:`bjcalc.counting.countshoe.running_count_distribution`), as fractions summing to exactly 1.
  With ``wong_out`` the counter leaves a shoe for good at the first round whose true count is
  below it, which depends on the path of the count: then a forward pass over the class totals
  seen (:class:`CountPath`, float) carries the chance of still being at the table.
- **The advantage at a round's start** for depth ``N`` and running count ``RC`` is the round's
  EV on the counter's shoe (:class:`bjcalc.counting.countshoe.CountShoe`): ``basic`` (the full shoe's
  basic-strategy chart), ``indices`` (that chart with the index plays of ``bjcalc index``,
  taken on the count the counter sees when deciding: :class:`IndexPolicy`; insurance at its
  index) and ``cd`` (composition-dependent play on the counter's shoe, insurance when it
  pays). The table by true count is by the true count at the round's start. One task per (depth, running count):
  :mod:`bjcalc.counting.tasks` runs them and keeps their results.
- **The second moment of one round** at a count is the full shoe's for the strategy (exact, on
  the full shoe): ``E[X^2 | state] = E[X^2]``. Averaged over the counts at any depth this is
  exact for a fixed chart (the law of total expectation), so a flat bettor's SD is exact; with
  a spread it leaves out how ``E[X^2]`` moves with the count (the moments do not yet run on a
  counter's shoe).

Win rate ``W = sum f * bet * A``; ``SD^2 = sum f * bet^2 * E[X^2] - W^2``; per round
played (sitting out when wonging); ``DI = 1000 W / SD``, ``SCORE = DI^2 = 10^6 / N0``,
``N0 = (SD / W)^2``, risk of ruin ``exp(-2 W B / SD^2)`` (counting.md section 5).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import ACE, TEN, Rank
from bjcalc.chart import Chart, UpcardChart, cell_of, chart_action
from bjcalc.chartpolicy import ChartPolicy
from bjcalc.counting.countshoe import (
    CountShoe,
    TagClasses,
    as_tags,
    check_initial_running_count,
    counting_tags,
    running_count_distribution,
    true_count,
)
from bjcalc.counting.indices import Convention, IndexPlay, default_plays, index_table
from bjcalc.counting.tasks import RunStats, Task, TaskStore, check_scheduler, check_store, run_tasks, task_key
from bjcalc.engine.door import (
    Code,
    Frame,
    Optimal,
    RoundTotals,
    action_values,
    casino_bound,
    round_run_out,
    round_totals,
    shared_stands,
    stands_together,
)
from bjcalc.errors import BjcalcError, InvalidShoeError
from bjcalc.numbers import to_fraction
from bjcalc.results import _Data
from bjcalc.rules import Rules

STRATEGIES = ("basic", "indices", "cd")
# the largest result of one round per initial bet (four hands split and doubled): bounds what
# the running counts left out (``tail``) could change
MOST_PER_ROUND = 8
# how many tag classes the path of a count is followed for (wong_out): each one more is a
# dimension of the forward pass
PATH_CLASSES = 4


# the largest max bet ratio --optimal-spread searches: the Kelly scales tried reach it (a larger
# ratio is never bet), and spreads wider than 1-100 are not played
OPTIMAL_SPREAD_LIMIT = 100


# the largest bet of a spread, in units: larger ones only overflow floating point
BET_LIMIT = 10 ** 6


class InvalidSpreadError(BjcalcError):
    """A bet spread, wonging threshold or bankroll that cannot be used."""


# -- the bet spread ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Spread:
    """Bets by true count: ``steps`` is ``(low, high, bet)`` with ``low <= TC <= high`` (``None``
    open), covering every whole true count once. The bet is looked up at the whole true count
    the convention gives (with rounding ``none``, its floor).

    >>> s = Spread.parse("<=1:1,2:2,3:4,4:8,>=5:12")
    >>> [s.bet(t) for t in (-3, 1, 2, 4, 9)]
    [Fraction(1, 1), Fraction(1, 1), Fraction(2, 1), Fraction(8, 1), Fraction(12, 1)]
    """

    steps: tuple[tuple[int | None, int | None, Fraction], ...]

    @classmethod
    def flat(cls) -> Spread:
        return cls(((None, None, Fraction(1)),))

    @classmethod
    def parse(cls, text: str) -> Spread:
        if not isinstance(text, str):
            raise InvalidSpreadError(f"spread must be text such as '<=1:1,2:2,>=3:4', not {text!r}")
        steps = []
        for field in (f.strip() for f in text.split(",") if f.strip()):
            where, colon, bet_text = field.partition(":")
            if not colon or not bet_text.strip():
                raise InvalidSpreadError(f"spread step {field!r} needs a bet >= 0 after a colon")
            try:
                bet = Fraction(bet_text.strip())
                where = where.strip().replace(" ", "")
                if where == "any":
                    low = high = None
                elif where.startswith("<="):
                    low, high = None, int(where[2:])
                elif where.startswith(">="):
                    low, high = int(where[2:]), None
                elif ".." in where:
                    a, b = where.split("..")
                    low, high = int(a), int(b)
                else:
                    low = high = int(where)
            except (ValueError, ZeroDivisionError):
                raise InvalidSpreadError(f"spread step {field!r} must read TC:BET, <=TC:BET, >=TC:BET "
                                         "or LOW..HIGH:BET (whole true counts)") from None
            if not colon or bet < 0:
                raise InvalidSpreadError(f"spread step {field!r} needs a bet >= 0 after a colon")
            if bet > BET_LIMIT:
                raise InvalidSpreadError(f"spread step {field!r}: a bet is at most {BET_LIMIT} units")
            if low is not None and high is not None and low > high:
                raise InvalidSpreadError(f"spread step {field!r}: {low} is above {high}")
            steps.append((low, high, bet))
        if not steps:
            raise InvalidSpreadError(f"spread {text!r} has no steps")
        spread = cls(tuple(sorted(steps, key=lambda s: -math.inf if s[0] is None else s[0])))
        spread._check(text)
        return spread

    def _check(self, text: str) -> None:
        if self.steps[0][0] is not None or self.steps[-1][1] is not None:
            raise InvalidSpreadError(f"spread {text!r} must cover every true count: start with <=TC and end with >=TC")
        for (_, high, _), (low, _, _) in zip(self.steps, self.steps[1:]):
            if high is None or low is None or low != high + 1:
                raise InvalidSpreadError(f"spread {text!r} leaves a gap or an overlap after true count {high}")
        if max(bet for _, _, bet in self.steps) == 0:
            raise InvalidSpreadError(f"spread {text!r} never bets")

    def bet(self, tc: Fraction) -> Fraction:
        whole = math.floor(tc)
        for low, high, bet in self.steps:
            if (low is None or whole >= low) and (high is None or whole <= high):
                return bet
        raise AssertionError("a checked spread covers every count")

    @property
    def ratio(self) -> Fraction:
        bets = [b for _, _, b in self.steps if b > 0]
        return max(bets) / min(bets)

    def text(self) -> str:
        def where(low: int | None, high: int | None) -> str:
            if low is None and high is None:
                return "any"
            if low is None:
                return f"<={high}"
            if high is None:
                return f">={low}"
            return str(low) if low == high else f"{low}..{high}"

        return ",".join(f"{where(lo, hi)}:{_number_text(b)}" for lo, hi, b in self.steps)


def _number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


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


def round_starts(cards: int, cut: int, per_round: float) -> tuple[int, ...]:
    """Spaced placement: the cards seen when each round of a shoe starts, ``round(k * c)``."""
    out = []
    for k in itertools.count():
        seen = round(k * per_round)
        if seen >= cut:
            break
        out.append(seen)
    return tuple(out)


def round_start_chances(cut: int, per_round: Dist) -> dict[int, float]:
    """Renewal placement: the chance that a round starts after ``N`` cards, for every ``N``
    below the cut card, when each round uses cards distributed as ``per_round``, independently
    of the count: ``u(0) = 1``, ``u(N) = sum_c P(c) u(N - c)``. They sum to the expected rounds
    a shoe."""
    lengths: dict[int, float] = {}
    for c, q in per_round.items():
        lengths[sum(c)] = lengths.get(sum(c), 0.0) + q
    u = [0.0] * cut
    u[0] = 1.0
    for n in range(1, cut):
        u[n] = sum(q * u[n - c] for c, q in lengths.items() if c <= n)
    return {n: x for n, x in enumerate(u) if x > 0}


# the chain placement follows the seen cards of each tag class; each class one more is a
# dimension of its arrays
CHAIN_CLASSES = 3
# round shapes (cards by class) rarer than this are left out of the chain's steps (together
# about 1e-7 of the rounds at 6 decks; the rest are renormalised)
CHAIN_NEGLIGIBLE = 1e-9
# states of the chain holding less than this of a round (expected rounds a shoe) carry nothing
# on: far below the tail (``--tail``) and the rounding of what is kept
CHAIN_FLOOR = 1e-20


# the chain follows the aces apart from the rest of their tag class (a blackjack ends a round
# in two cards: where the aces are out, rounds are longer) when its arrays stay this small
ACES_APART_CELLS = 50_000


def _with_aces_apart(classes: TagClasses, shoe: Sequence[int]) -> TagClasses:
    """The classes the chain follows: the count's, with the aces a class of their own where
    they share a tag with other ranks and the arrays stay within :data:`ACES_APART_CELLS`."""
    ace_class = classes.of_rank[ACE]
    if sum(1 for c in classes.of_rank if c == ace_class) == 1 or shoe[ACE] == 0:
        return classes
    totals = classes.totals(shoe)
    if math.prod(t + 1 for t in totals) * (shoe[ACE] + 1) > ACES_APART_CELLS:
        return classes
    of_rank = list(classes.of_rank)
    of_rank[ACE] = len(classes.values)
    return TagClasses(classes.scale, classes.values + (classes.values[ace_class],), tuple(of_rank))


def round_start_chain(rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], cut: int,
                      irc: Fraction = Fraction(0)) -> dict[int, dict[Fraction, float]]:
    """Chain placement: the expected number of rounds of a shoe that start after ``N`` cards
    at running count ``RC``, following the cards seen of each tag class from round to round.
    A round takes ``d_j`` cards of class ``j`` with the chance :func:`round_cards` gives for the
    full shoe, reweighted by what is left: ``P(d | seen) ~ P(d) prod_j ff(C_j - s_j, d_j) /
    (ff(L - N, c) prod_j (C_j / L)^d_j)``. Rounds that use few cards (many tens, say) come more
    often where those cards are out, so the counts at the rounds' starts lean the way the
    simulators find. Float; counts of at most :data:`CHAIN_CLASSES` tag values."""
    return _chain(rules, chart, seats, tags, cut, irc, None)[0]


def round_start_chain_playing(rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], cut: int,
                              irc: Fraction, tc_of: Callable[[Fraction, int], Fraction], wong_in: int | None,
                              wong_out: int | None) -> tuple[dict[int, dict[Fraction, float]],
                                                             dict[int, dict[Fraction, float]]]:
    """The chain placement (:func:`round_start_chain`) and, beside it, the expected number of
    rounds the counter plays at each (depth, running count) when he wongs: waiting until the
    true count reaches ``wong_in`` (none: seated from the start), then playing until the
    first round below ``wong_out`` (none: never leaving), gone for the rest of the shoe after.
    The table deals on whether he plays or not (the rounds use the cards the chain gives
    them), so his state rides along each path of the chain: the same steps move three masses
    (waiting, playing, gone) and only the round starts move mass between them, as
    :class:`CountPath` does on the spaced placement."""
    rounds, played = _chain(rules, chart, seats, tags, cut, irc, (tc_of, wong_in, wong_out))
    assert played is not None
    return rounds, played


def _chain(rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], cut: int, irc: Fraction,
           wong: tuple[Callable[[Fraction, int], Fraction], int | None, int | None] | None
           ) -> tuple[dict[int, dict[Fraction, float]], dict[int, dict[Fraction, float]] | None]:
    classes = TagClasses.of(as_tags(tags))
    k = len(classes.values)
    if k > CHAIN_CLASSES:
        raise InvalidShoeError(f"the chain placement follows counts of at most {CHAIN_CLASSES} distinct tags; "
                               f"this count has {k} (use placement renewal or spaced)")
    classes = _with_aces_apart(classes, rules.shoe_counts)
    k = len(classes.values)
    totals = classes.totals(rules.shoe_counts)
    cards = sum(totals)
    steps = {d: q for d, q in round_cards(rules, chart, seats, classes.of_rank).items() if q >= CHAIN_NEGLIGIBLE}
    whole = sum(steps.values())
    share = [t / cards for t in totals]
    longest = max(max(d) for d in steps)
    # ff[j][t, d] = (C_j - t)(C_j - t - 1)...(C_j - t - d + 1): d cards of class j with t seen
    ff = []
    for j in range(k):
        left = np.arange(totals[j], -1, -1, dtype=float)  # C_j - t for t = 0..C_j
        table = np.ones((totals[j] + 1, longest + 1))
        for drawn in range(1, longest + 1):
            table[:, drawn] = table[:, drawn - 1] * np.maximum(left - (drawn - 1), 0)
        ff.append(table)
    shape = tuple(t + 1 for t in totals[:-1])
    grid = np.indices(shape) if shape else np.zeros((0,), dtype=np.int64)
    seen_free = grid.sum(axis=0) if shape else np.zeros(())
    scaled_free = sum(classes.values[j] * grid[j] for j in range(k - 1)) if shape else np.zeros(())
    # the masses carried along the chain: every round start, and with wonging the counter's
    # rounds waited (first) and played (second) apart; "gone" is what neither holds. The depths
    # a round may still reach are kept in a ring, depth n at n % ring (a round takes fewer cards
    # than the ring holds), so that each group of steps adds into all its depths at once.
    carried = 1 if wong is None else 3
    origin = (0,) * (k - 1)
    out: dict[int, dict[Fraction, float]] = {}
    played: dict[int, dict[Fraction, float]] = {}
    # the steps by how they shift the classes but the last (the rounds' chances over the full
    # shoe's class shares, reweighted at each depth by what is left: module docstring)
    shifts: dict[tuple[int, ...], list[tuple[int, float, int]]] = {}
    for d, q in steps.items():
        if all(x <= t for x, t in zip(d, totals)):  # (a round taking more of a class than the shoe holds: none)
            odds = q / whole / math.prod(share[j] ** d[j] for j in range(k))
            shifts.setdefault(tuple(d[:-1]), []).append((d[-1], odds, sum(d)))
    ring = max(size for members in shifts.values() for _, _, size in members) + 1
    mass = np.zeros((carried, ring) + shape)
    mass[0, 0][origin] = 1.0
    if wong is not None:  # the first round: waited for with a wong_in, else played
        mass[1 if wong[1] is not None else 2, 0][origin] = 1.0
    # per group: its shift, the last class's cards, their chances and the rounds' lengths
    by_shift = [(shift, np.array([c for c, _, _ in members]), np.array([q for _, q, _ in members]),
                 np.array([size for _, _, size in members]))
                for shift, members in sorted(shifts.items())]
    columns = [ff[j].reshape([-1 if i == j else 1 for i in range(k - 1)] + [longest + 1]) for j in range(k - 1)]
    # the cells of each running count (their scaled counts but the last class's, which adds the
    # same to every cell at a depth), in the order a boolean mask takes them
    free_rc = np.asarray(scaled_free - classes.values[-1] * seen_free).reshape(-1)
    order = np.argsort(free_rc, kind="stable")
    values_at, firsts = np.unique(free_rc[order], return_index=True)
    cells_of = np.split(order, firsts[1:])
    for n in range(cut):
        slot = n % ring
        masses = [mass[c, slot].copy() for c in range(carried)]
        mass[:, slot] = 0.0
        here = masses[0]
        if not here.any():
            continue
        last = n - seen_free
        valid = (last >= 0) & (last <= totals[-1])
        last_index = np.clip(last, 0, totals[-1]).astype(np.int64)
        rc_scaled = scaled_free + classes.values[-1] * last
        at: dict[Fraction, float] = {}
        flat_here, flat_valid = here.reshape(-1), valid.reshape(-1)
        for free, cells in zip(values_at.tolist(), cells_of):
            held = flat_here[cells[flat_valid[cells]]]
            if (held > 0).any():
                at[irc + Fraction(free + classes.values[-1] * n, classes.scale)] = float(held.sum())
        out[n] = at
        if wong is not None:
            masses[1], masses[2], played[n] = _wong_step(masses[1], masses[2], at, rc_scaled, valid, classes, irc,
                                                         cards - n, wong)
        # the reweighted steps from every state of this depth where rounds start (the box
        # around the states holding more than CHAIN_FLOOR of a round): per class a column of
        # factors (broadcast, not gathered), the last class's from one table per depth; the
        # steps that shift the other classes alike are taken together
        cells = np.argwhere(here > CHAIN_FLOOR)
        if not len(cells):
            continue
        low, high = cells.min(axis=0).tolist(), (cells.max(axis=0) + 1).tolist()
        box = tuple(slice(a, b) for a, b in zip(low, high))
        lasts = np.moveaxis(np.where(valid[box][..., None], ff[-1][last_index[box]], 0.0), -1, 0)  # (longest+1, *box)
        cols = [columns[j][tuple(box[j] if i == j else slice(None) for i in range(k - 1))] for j in range(k - 1)]
        falling = np.cumprod([1.0] + [float(cards - n - i) for i in range(longest * k)])  # ff(L - N, s)
        groups = []
        for shift, last_cards, chances, lengths in by_shift:
            usable = n + lengths <= cards
            if not usable.all():
                if not usable.any():
                    continue
                last_cards, chances, lengths = last_cards[usable], chances[usable], lengths[usable]
            column: np.ndarray = np.ones(lasts.shape[1:])
            for j in range(k - 1):
                column = column * cols[j][..., shift[j]]
            groups.append((shift, lengths, column, last_cards, chances / falling[lengths]))
        norm = np.zeros(lasts.shape[1:])
        for _, _, column, last_cards, factor in groups:
            norm += column * np.tensordot(factor, lasts[last_cards], axes=1)
        divisor = np.where(norm > 0, norm, 1.0)
        scaled = [m[box] / divisor for m in masses]
        for shift, lengths, column, last_cards, factor in groups:
            before = lengths < cut - n  # the rounds that start another before the cut card
            sizes = [min(b - a, shape[j] - shift[j] - a) for j, (a, b) in enumerate(zip(low, high))]
            if not before.any() or min(sizes, default=1) <= 0:
                continue
            target = tuple(slice(a + x, a + x + size) for a, x, size in zip(low, shift, sizes))
            source = tuple(slice(0, size) for size in sizes)
            factors = factor[before].reshape((-1,) + (1,) * (k - 1))
            where: tuple[Any, ...] = (last_cards[before], *source)
            steps_here = (lasts[where] * column[source]) * factors
            into = (n + lengths[before]) % ring  # distinct depths: each cell is added to once
            for c, m in enumerate(scaled):
                where = (c, into, *target)
                mass[where] += m[source] * steps_here
    return out, (played if wong is not None else None)


def _wong_step(waiting: np.ndarray, playing: np.ndarray, at: dict[Fraction, float], rc_scaled: np.ndarray,
               valid: np.ndarray, classes: TagClasses, irc: Fraction, left: int,
               wong: tuple[Callable[[Fraction, int], Fraction], int | None, int | None]
               ) -> tuple[np.ndarray, np.ndarray, dict[Fraction, float]]:
    """At one round start: the waiting counter sits down where the true count reaches
    ``wong_in``, the seated one leaves where it is below ``wong_out``; the rounds he plays
    here by running count."""
    tc_of, wong_in, wong_out = wong
    enter = np.zeros(rc_scaled.shape, dtype=bool)
    leave = np.zeros(rc_scaled.shape, dtype=bool)
    for s_value in np.unique(rc_scaled[valid]):
        tc = tc_of(irc + Fraction(int(s_value), classes.scale), left)
        cells = (rc_scaled == s_value) & valid
        if wong_in is not None and tc >= wong_in:
            enter |= cells
        if wong_out is not None and tc < wong_out:
            leave |= cells
    playing = playing + np.where(enter, waiting, 0.0)
    waiting = np.where(enter, 0.0, waiting)
    playing = np.where(leave, 0.0, playing)
    here: dict[Fraction, float] = {}
    for s_value in np.unique(rc_scaled[valid & (playing > 0)]):
        rc = irc + Fraction(int(s_value), classes.scale)
        if rc in at:
            here[rc] = float(playing[(rc_scaled == s_value) & valid].sum())
    return waiting, playing, here


@dataclasses.dataclass(frozen=True)
class RoundStarts:
    """Where the rounds of a shoe start (:func:`round_start_states`): ``placement`` (``chain``,
    ``renewal``, ``spaced`` or ``given``), the depths ``starts`` (cards seen), the share of the
    rounds that start at each (``shares``), the running count's exact distribution at each
    (``counts``, hypergeometric) and ``rounds``: per depth, running count -> the share of all
    the shoe's rounds that start in that state (summing to 1 over every depth; exact Fractions
    but for the chain, whose counts lean as the rounds' lengths make them)."""

    placement: str
    starts: tuple[int, ...]
    shares: tuple[Fraction, ...]
    counts: tuple[dict[Fraction, Fraction], ...]
    rounds: tuple[dict[Fraction, Any], ...]
    rounds_per_shoe: float
    cards_per_round: float
    # with wonging out along the chain: per depth, running count -> the share of all the
    # shoe's rounds that the counter plays there (round_start_chain_playing)
    played: tuple[dict[Fraction, float], ...] | None = None


def round_start_states(rules: Rules, chart: Chart, tags: Sequence[Any], cut: int, *,
                       placement: str | dict[int, Any] | None = None, seats: int = 1,
                       irc: Fraction | int = 0, exact: bool = False,
                       wong: tuple[Callable[[Fraction, int], Fraction], int | None, int | None] | None = None
                       ) -> RoundStarts:
    """The states (depth, running count) at which the rounds of a shoe dealt to ``cut`` cards
    start, and the share of the rounds at each (module docstring, "Rounds along the shoe"):
    ``placement`` ``chain``, ``renewal``, ``spaced`` or a mapping depth -> weight; default
    (``None``) the chain where it can be followed (float, counts of up to
    :data:`CHAIN_CLASSES` tag values), else renewal. ``bjcalc truecount`` and ``bjcalc index
    --penetration`` both place their rounds with it. ``wong`` (``tc_of``, ``wong_in``,
    ``wong_out``), on the chain: also the rounds the counter plays when wonging out."""
    tags = as_tags(tags)
    irc = Fraction(irc)
    cards = sum(rules.shoe_counts)
    cards_used = round_cards(rules, chart, seats)
    per_round = sum(sum(c) * q for c, q in cards_used.items())
    if placement is None:  # the chain where it can be followed, else renewal
        placement = "renewal" if exact or len(TagClasses.of(tags).values) > CHAIN_CLASSES else "chain"
    if placement == "chain" and exact:
        raise InvalidShoeError("the chain placement is followed in floating point: with exact, use renewal or spaced")
    chain: dict[int, dict[Fraction, float]] | None = None
    chain_played: dict[int, dict[Fraction, float]] | None = None
    if placement == "spaced":
        starts = round_starts(cards, cut, per_round)
        shares = tuple(Fraction(1, len(starts)) for _ in starts)
        rounds_per_shoe = float(len(starts))
    elif placement == "chain":
        if wong is not None:
            chain, chain_played = round_start_chain_playing(rules, chart, seats, tags, cut, irc, *wong)
        else:
            chain = round_start_chain(rules, chart, seats, tags, cut, irc)
        starts = tuple(sorted(chain))
        rounds_per_shoe = sum(sum(at.values()) for at in chain.values())
        shares = tuple(Fraction(sum(chain[n].values()) / rounds_per_shoe) for n in starts)
    else:
        if placement == "renewal":
            given = round_start_chances(cut, cards_used)
        elif isinstance(placement, dict):  # as given (a simulator's measured placement, say): depth -> weight
            given = placement
        else:
            raise InvalidShoeError(f"placement must be chain, renewal, spaced or a mapping of depths, "
                                   f"not {placement!r}")
        if any(not isinstance(n, int) or not 0 <= n < cut for n in given):
            raise InvalidShoeError("placement: depths must be whole numbers below the cut card")
        starts = tuple(sorted(n for n in given if given[n]))
        whole = sum(Fraction(given[n]) for n in starts)
        shares = tuple(Fraction(given[n]) / whole for n in starts)
        rounds_per_shoe = float(whole)
    counts = tuple(running_count_distribution(rules.shoe_counts, tags, n, irc) for n in starts)
    rounds: tuple[dict[Fraction, Any], ...]
    if chain is not None:
        rounds = tuple({rc: m / rounds_per_shoe for rc, m in chain[n].items()} for n in starts)
    else:
        rounds = tuple({rc: p * share for rc, p in c.items()} for share, c in zip(shares, counts))
    played = None
    if chain_played is not None:
        played = tuple({rc: m / rounds_per_shoe for rc, m in chain_played.get(n, {}).items()} for n in starts)
    return RoundStarts(placement if isinstance(placement, str) else "given", starts, shares, counts, rounds,
                       rounds_per_shoe, per_round, played)


# -- the path of the count (wonging out) -------------------------------------------------------


class CountPath:
    """The chance to be in each state of the shoe at each round start, when the counter may
    wong in (sit out until the true count reaches ``wong_in``) and wong out (leave the shoe at
    the first round below ``wong_out``). A state is the number of cards of each tag class seen;
    from one round to the next the cards drawn are hypergeometric over the classes left. Float;
    its marginals are :func:`running_count_distribution`'s to rounding (tests check)."""

    def __init__(self, shoe: Sequence[int], tags: Sequence[Any], starts: Sequence[int],
                 tc_of: Callable[[Fraction, int], Fraction], wong_in: int | None, wong_out: int | None,
                 irc: Fraction = Fraction(0)) -> None:
        classes = TagClasses.of(as_tags(tags))
        if len(classes.values) > PATH_CLASSES:
            raise InvalidSpreadError(f"wonging out is followed for counts of at most {PATH_CLASSES} distinct tags; "
                                     f"this count has {len(classes.values)}")
        self.totals = classes.totals(shoe)
        self.values, self.scale, self.irc = classes.values, classes.scale, irc
        self.cards = sum(shoe)
        self.starts, self.tc_of, self.wong_in, self.wong_out = tuple(starts), tc_of, wong_in, wong_out

    def playing(self) -> list[dict[Fraction, float]]:
        """Per round start: running count -> P(the counter plays this round at that count)."""
        free = self.totals[:-1]
        shape = tuple(t + 1 for t in free)
        grid = np.indices(shape).reshape(len(free), -1) if free else np.zeros((0, 1), dtype=np.int64)
        seen_free = grid.sum(axis=0) if free else np.zeros(1, dtype=np.int64)
        scaled_free = (np.array(self.values[:-1])[:, None] * grid).sum(axis=0) if free else np.zeros(1, dtype=np.int64)
        waiting = np.zeros(shape or (1,))
        playing = np.zeros(shape or (1,))
        (waiting if self.wong_in is not None else playing)[(0,) * max(1, len(free))] = 1.0
        out: list[dict[Fraction, float]] = []
        previous = 0
        for seen in self.starts:
            if seen != previous:
                waiting, playing = self._draw(waiting, previous, seen), self._draw(playing, previous, seen)
            previous = seen
            last = seen - seen_free
            scaled = scaled_free + self.values[-1] * last
            valid = (last >= 0) & (last <= self.totals[-1])
            rc = {int(s): self.irc + Fraction(int(s), self.scale) for s in np.unique(scaled[valid])}
            tc = {s: self.tc_of(c, self.cards - seen) for s, c in rc.items()}
            flat_scaled = scaled.reshape(-1)
            enter = np.array([self.wong_in is not None and tc[int(s)] >= self.wong_in if v else False
                              for s, v in zip(flat_scaled, valid)]).reshape(waiting.shape)
            leave = np.array([self.wong_out is not None and tc[int(s)] < self.wong_out if v else False
                              for s, v in zip(flat_scaled, valid)]).reshape(waiting.shape)
            playing = playing + np.where(enter, waiting, 0.0)
            waiting = np.where(enter, 0.0, waiting)
            playing = np.where(leave, 0.0, playing)  # gone for the rest of the shoe
            here: dict[Fraction, float] = {}
            for s, mass in zip(flat_scaled[valid.reshape(-1)], playing.reshape(-1)[valid.reshape(-1)]):
                if mass:
                    here[rc[int(s)]] = here.get(rc[int(s)], 0.0) + float(mass)
            out.append(here)
        return out

    def _draw(self, state: np.ndarray, seen: int, after: int) -> np.ndarray:
        """The state after ``after - seen`` more cards are drawn from the classes left."""
        c = after - seen
        free = self.totals[:-1]
        k = len(self.totals)
        left = self.cards - seen
        if not free:
            return state.copy()
        grid = np.indices(state.shape)
        last = seen - grid.sum(axis=0)
        out = np.zeros_like(state)
        norm = math.comb(left, c)
        for split in _compositions(c, k):
            factor = np.ones(state.shape)
            for j, d in enumerate(split[:-1]):
                column = np.array([math.comb(free[j] - s, d) for s in range(free[j] + 1)], dtype=float)
                factor = factor * column.reshape([-1 if i == j else 1 for i in range(len(free))])
            d_last = split[-1]
            valid = (last >= 0) & (last <= self.totals[-1])
            lasts = np.where(valid, self.totals[-1] - last, 0)
            factor = factor * np.where(valid, _comb_array(lasts, d_last), 0.0)
            moved = state * factor / norm
            target = tuple(slice(d, None) for d in split[:-1])
            source = tuple(slice(0, state.shape[j] - d) for j, d in enumerate(split[:-1]))
            out[target] += moved[source]
        return out


def _comb_array(n: np.ndarray, d: int) -> np.ndarray:
    out = np.ones(n.shape)
    for i in range(d):
        out = out * np.maximum(n - i, 0) / (i + 1)
    return out


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(total,)]
    return [(first,) + rest for first in range(total + 1) for rest in _compositions(total - first, parts - 1)]


# -- the index plays, on the count the counter sees when deciding ----------------------------


class IndexPolicy(ChartPolicy):
    """Basic strategy with index plays: a two-card hand of an index play (its total's hands, or
    its pair) deviates when the true count the counter sees then reaches the index: the
    round's starting running count plus the tags of the hand and the up card, over the cards
    not seen (the convention of ``bjcalc index``, whose numbers these are). Otherwise, and for
    every later decision and split hand, the chart."""

    def __init__(self, engine: Any, chart: Chart, plays: Sequence[tuple[IndexPlay, int]], tags: Sequence[Fraction],
                 running_count: Fraction, seen: int, convention: Convention, like: ChartPolicy | None = None) -> None:
        super().__init__(engine, chart)
        if like is not None and like.chart is chart and like.engine is engine:
            # the same chart on the same shoe: its solved hands and split hands are these, and so
            # are its first plays where no index play applies
            self._hands, self._splits, self._firsts = like._hands, like._splits, like._firsts
        self.tags, self.running_count, self.convention = tags, running_count, convention
        self.cards_left = sum(engine.rules.shoe_counts) - seen - 3
        self._true_counts: dict[Fraction, Fraction] = {}  # by running count: few distinct ones
        self._plays: dict[tuple[tuple[int, ...], int], tuple[IndexPlay, int]] = {}
        for play, index in plays:
            for hand in play.hands():
                counts = [0] * 10
                for card in hand:
                    counts[card.index] += 1
                self._plays[tuple(counts), play.up.index] = (play, index)

    @property
    def label(self) -> str:
        return f"{self.chart.strategy} with index plays (chart; split hands by the chart)"

    def may_differ(self, up: int, counts: tuple[int, ...]) -> bool:
        """Whether this two-card hand against ``up`` has an index play: every other hand, and
        every later decision and split hand, is played as the chart plays it."""
        return (counts, up) in self._plays

    def round_ev(self, chart_round: RoundTotals) -> Any:
        """The round's EV under this policy (what :func:`round_totals` gives), from the chart's
        round on the same engine: the chart's EV plus, for each hand with an index play, its
        chance times what the index play changes. Exact mode: the same number; float: the same
        to rounding (summed in another order). The walk of every hand again cost a truecount
        task about 3 ms."""
        number = self.engine.number
        ev = chart_round.ev
        for hand in chart_round.plays:
            if self.may_differ(hand.up, hand.counts):
                _, value = self.first(hand.up, hand.counts, hand.same_face)
                if value != hand.value:
                    ev += number(hand.p_up) * number(hand.p_hand) * (value - hand.value)
        return ev

    def first(self, up: int, counts: tuple[int, ...], same_face: bool) -> tuple[Action, Any]:
        entry = self._plays.get((counts, up))
        if entry is None or not same_face and not self.engine.rules.split_unlike_tens and counts[TEN] == 2:
            return super().first(up, counts, same_face)
        play, index = entry
        seen = self.running_count + self.tags[up] + sum(self.tags[r] * n for r, n in enumerate(counts) if n)
        tc = self._true_counts.get(seen)
        if tc is None:
            tc = self._true_counts[seen] = true_count(seen, self.cards_left, self.convention.divisor,
                                                      self.convention.rounding)
        if tc >= index:
            action = play.play
        else:
            action = self.action(up, counts, same_face)
            if action not in play.instead:
                action = play.instead[0]
        values, _ = action_values(self.engine, self, up, counts, same_face, Frame.UNCONDITIONAL, [action])
        return action, values[action]


# -- one task: the advantage at one depth and running count ------------------------------------


def state_task(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction, irc: Fraction,
               chart: Chart, plays: tuple[tuple[IndexPlay, int], ...], insurance_index: int | None,
               convention: Convention, exact: bool) -> dict[str, Any]:
    """The round's EV on the counter's shoe at ``seen`` cards and ``running_count`` for each of
    :data:`STRATEGIES`, per initial bet, insurance included where the strategy takes it. The
    dealer's weighted pass is shared with the other states of a batch at the same depth
    (:func:`_states_together`), and its numbers are the same alone."""
    shoe = _count_shoe(rules, tags, seen, running_count, irc)
    with shared_stands([shoe.draw_model()]):
        return _state_values(rules, tags, seen, running_count, shoe, chart, plays, insurance_index, convention,
                             exact)


def _state_values(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction, shoe: CountShoe,
                  chart: Chart, plays: tuple[tuple[IndexPlay, int], ...], insurance_index: int | None,
                  convention: Convention, exact: bool) -> dict[str, Any]:
    from bjcalc.analysis import Analysis

    analysis: Analysis[Any] = Analysis(rules, shoe=shoe, exact=exact)
    number: Callable[[Any], Any] = to_fraction if exact else float
    # insurance by the index: against the ace alone, as bjcalc index takes it
    tc = true_count(running_count + tags[ACE], sum(rules.shoe_counts) - seen - 1, convention.divisor,
                    convention.rounding)
    engine = analysis.engine
    chart_policy = ChartPolicy(engine, chart)
    chart_round = round_totals(engine, chart_policy)
    basic = number(chart_round.ev)
    indexed = number(IndexPolicy(engine, chart, plays, tags, running_count, seen, convention,
                                 like=chart_policy).round_ev(chart_round))
    cd = number(round_totals(engine, Optimal(engine)).ev)
    p_ace = shoe.draw_probability([Rank.ACE]) if rules.insurance else Fraction(0)
    insurance = number(analysis.insurance("A")) if p_ace else number(0)
    p_ace_number: Any = p_ace if exact else float(p_ace)
    if insurance_index is not None and tc >= insurance_index:
        indexed += p_ace_number * insurance / 2
    if insurance > 0:
        cd += p_ace_number * insurance / 2
    out = {"basic": basic, "indices": indexed, "cd": cd, "p_ace": p_ace_number, "insurance": insurance}
    # None: no deal of this state runs out; a chart plays alike under the casino's rule
    chances = round_run_out(engine, chart_policy, chart_round.plays, fixed=True)
    if chances is not None and chances.most != 0:
        out.update(run_out=number(chances.probability), run_out_most=number(chances.most),
                   run_out_exact=chances.exact)
    return out


def _states_together(calls: Sequence[tuple]) -> contextlib.ExitStack:
    """The float :func:`state_task` calls of a batch at the same depth share their dealer
    passes (``state_task.together``, which :func:`bjcalc.counting.tasks.run_tasks` enters around a batch;
    :func:`bjcalc.engine.batch.stands_together`)."""
    return stands_together(_count_shoe(rules, tags, seen, running_count, irc).draw_model()
                           for rules, tags, seen, running_count, irc, *_, exact in calls if not exact)


def _count_shoe(rules: Rules, tags: tuple[Fraction, ...], seen: int, running_count: Fraction,
                irc: Fraction) -> CountShoe:
    """The counter's shoe of one :func:`state_task`."""
    return CountShoe(shoe=rules.shoe_counts, tags=tags, running_count=running_count, seen=seen,
                     initial_running_count=irc)


state_task.together = _states_together  # type: ignore[attr-defined]


# -- the whole analysis ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class WinFigures(_Data):
    """What a spread earns (module docstring): per round dealt and per round played."""

    strategy: str
    spread: str
    average_bet: Any  # per round dealt
    played: Any  # the share of rounds played
    win_per_round: Any  # per round dealt, in initial-bet units
    win_per_100: Any
    sd_per_round: float  # per round dealt
    win_per_round_played: Any
    sd_per_round_played: float
    di: float  # per round played
    score: float
    n0: float
    risk_of_ruin: float | None
    bankroll: Any

    def to_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class TrueCountResult(_Data):
    """:func:`truecount_analysis`'s answer. Probabilities are exact Fractions where the model makes them
    so (``counts``, ``frequencies`` without wonging out); EVs are floats (Fractions with ``exact``)."""

    rules: Rules
    system: str
    tags: tuple[Fraction, ...]
    penetration: Fraction
    cut: int
    seats: int
    convention: Convention
    cards_per_round: float
    starts: tuple[int, ...]
    counts: tuple[dict[Fraction, Any], ...]  # per round start: running count -> probability
    frequencies: dict[Fraction, Any]  # true count -> share of rounds
    advantage: dict[str, dict[Fraction, Any]]  # strategy -> true count -> EV per initial bet
    advantage_all: dict[str, Any]  # strategy -> EV per round over the shoe, flat bet
    second_moment: dict[str, Any]  # strategy -> E[X^2] of one round on the full shoe
    win: WinFigures
    by_penetration: tuple[tuple[Fraction, WinFigures], ...]
    optimal: tuple[Spread, WinFigures] | None
    indices: tuple[tuple[str, int], ...]
    insurance_index: int | None
    index_depth: int | None  # None: the published list
    left_out: Any  # the share of rounds at running counts too unlikely to analyse
    bound: Any  # what they could change the win per round by, at most
    wong_in: int | None
    wong_out: int | None
    exact: bool
    run: RunStats
    placement: str = "renewal"
    shares: tuple[Fraction, ...] = ()  # the share of the rounds that start at each of ``starts``
    rounds_per_shoe: float = 0.0
    run_out: RunOutShare | None = None  # deep shoes: how likely a round is to run out of cards

    def to_data(self) -> dict[str, Any]:
        def tcs(values: dict[Fraction, Any]) -> list[dict[str, Any]]:
            return [{"true_count": k, "value": v} for k, v in values.items()]

        return {
            "system": self.system,
            "tags": [self.tags[r] for r in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)],
            "penetration": self.penetration, "cut": self.cut, "seats": self.seats,
            "divisor": self.convention.divisor.value, "rounding": self.convention.rounding.value,
            "cards_per_round": self.cards_per_round,
            "rounds_per_shoe": self.rounds_per_shoe,
            "frame": "unconditional",
            "placement": self.placement,
            "second_moment_model": "E[X^2] of one round at every count is the full shoe's (modelled)",
            "depths": [{"cards_seen": n, "share_of_rounds": share,
                        "running_counts": [{"running_count": rc, "probability": p} for rc, p in c.items()]}
                       for n, share, c in zip(self.starts, self.shares, self.counts)],
            "frequencies": tcs(self.frequencies),
            "advantage": {s: tcs(a) for s, a in self.advantage.items()},
            "advantage_all": self.advantage_all,
            "second_moment": self.second_moment,
            "win": self.win.to_data(),
            "by_penetration": [{"penetration": p, **w.to_data()} for p, w in self.by_penetration],
            "optimal_spread": None if self.optimal is None else self.optimal[1].to_data(),
            "indices": [{"play": n, "index": i} for n, i in self.indices],
            "insurance_index": self.insurance_index, "index_cards_seen": self.index_depth,
            "left_out": self.left_out, "bound": self.bound,
            "wong_in": self.wong_in, "wong_out": self.wong_out,
            "run": self.run.to_data(),
            **({} if self.run_out is None else {"run_out": self.run_out.to_data()}),
        }


def truecount_analysis(
        rules: Rules, system: str, tags: Sequence[Any], *, penetration: float | Fraction | str = Fraction(3, 4),
        seats: int = 1, convention: Convention | None = None, strategy: str = "indices",
        spread: Spread | str | None = None, wong_in: int | None = None, wong_out: int | None = None,
        bankroll: float | None = None, optimal_spread: float | None = None, irc: Fraction | int = 0,
        tail: float = 1e-9, exact: bool = False, store: TaskStore | str | os.PathLike[str] | None = None,
        workers: int | None = None,
        scheduler: str | None = None, progress: Callable[[int, int], None] | None = None, batch: int | None = None,
        penetrations: Sequence[Fraction] | None = None, placement: str | dict[int, Any] | None = None,
        indices: str = "computed") -> TrueCountResult:
    """A count and a bet spread over the rounds of a shoe (module docstring). ``tail``: the
    least likely (depth, running count) states, together at most this share of the rounds, are
    not analysed (their effect is bounded in ``bound``); 0 analyses every one. ``placement``:
    ``chain``, ``renewal``, ``spaced`` (module docstring) or a mapping depth -> weight; default
    the chain where it can be followed (float, counts of up to three tag values), else renewal
    (spaced when wonging out). ``indices``: ``computed`` (``bjcalc index`` at the middle round's
    depth, with this convention) or ``published`` (the common Hi-Lo list). ``store``: a
    :class:`TaskStore`, a file's path (opened for the run, as ``--store`` takes it) or ``None``
    (memory); ``spread``: a :class:`Spread` or its text (:meth:`Spread.parse`)."""
    check_store(store)
    if isinstance(store, (str, os.PathLike)):  # a file's path, as --store takes it: open for this run
        given = {k: v for k, v in locals().items() if k not in ("rules", "system", "tags", "store")}
        with TaskStore(store) as opened:
            return truecount_analysis(rules, system, tags, store=opened, **given)
    from bjcalc.analysis import Analysis

    tags = counting_tags(tags)
    convention = convention or Convention()
    pen = _fraction(penetration, "penetration")
    if rules.infinite:
        raise InvalidShoeError("an infinite deck has no count: the cards are drawn with replacement")
    if isinstance(spread, str):
        spread = Spread.parse(spread)
    if spread is not None and not isinstance(spread, Spread):
        raise InvalidSpreadError(f"spread must be a Spread or text such as '<=1:1,2:2,>=3:4', not {spread!r}")
    for name, count in (("wong_in", wong_in), ("wong_out", wong_out)):
        if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
            raise InvalidSpreadError(f"{name} must be a whole true count or None, not {count!r}")
    irc = _fraction(irc, "irc")
    check_initial_running_count(rules.shoe_counts, tags, irc)
    if scheduler is not None:
        check_scheduler(scheduler)
    if not 0 < pen < 1:
        raise InvalidShoeError(f"penetration must be above 0 and below 1, not {penetration!r}")
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= 7:
        raise InvalidShoeError(f"seats must be a whole number from 1 to 7, not {seats!r}")
    if strategy not in STRATEGIES:
        raise InvalidSpreadError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    if not 0 <= tail < 1e-3:
        raise InvalidSpreadError(f"tail must be from 0 to 0.001, not {tail!r}")
    if bankroll is not None and not bankroll > 0:
        raise InvalidSpreadError(f"bankroll must be above 0 (in units of one bet), not {bankroll!r}")
    if exact and wong_out is not None:
        raise InvalidSpreadError("wonging out is followed in floating point: drop exact or wong_out")
    if wong_in is not None and wong_out is not None and wong_out > wong_in:
        raise InvalidSpreadError(f"wong_out {wong_out} is above wong_in {wong_in}: "
                                 "the counter would leave as he enters")
    if optimal_spread is not None and not (isinstance(optimal_spread, (int, float, Fraction))
                                           and 1 <= optimal_spread <= OPTIMAL_SPREAD_LIMIT):
        raise InvalidSpreadError(f"optimal spread must be a max bet ratio from 1 to {OPTIMAL_SPREAD_LIMIT}, "
                                 f"not {optimal_spread!r}")
    spread = spread or Spread.flat()
    cards = sum(rules.shoe_counts)
    cut = round(pen * cards)
    if cut < 1:
        raise InvalidShoeError(f"penetration {penetration} puts the cut card before the first card")
    store = store if store is not None else TaskStore(None)

    def tc_of(rc: Fraction, left: int) -> Fraction:
        return true_count(rc, left, convention.divisor, convention.rounding)

    full = Analysis(rules)
    chart = full.chart()
    if placement is None and wong_out is not None:  # the chain where it can be followed, else spaced
        chain_possible = not exact and len(TagClasses.of(tags).values) <= CHAIN_CLASSES
        placement = "chain" if chain_possible else "spaced"
    if wong_out is not None and len(TagClasses.of(tags).values) > PATH_CLASSES:
        raise InvalidSpreadError(f"wonging out is followed for counts of at most {PATH_CLASSES} distinct tags; "
                                 f"this count has {len(TagClasses.of(tags).values)}")
    if wong_out is not None and placement not in ("spaced", "chain"):
        raise InvalidSpreadError("wonging out follows the count from round to round: it needs placement chain "
                                 "or spaced")
    where_rounds = round_start_states(rules, chart, tags, cut, placement=placement, seats=seats, irc=irc,
                                      exact=exact, wong=None if wong_out is None else (tc_of, wong_in, wong_out))
    placement, starts, shares = where_rounds.placement, where_rounds.starts, where_rounds.shares
    per_round, rounds_per_shoe = where_rounds.cards_per_round, where_rounds.rounds_per_shoe
    index_depth = starts[len(starts) // 2]

    by_name = {p.name: p for p in default_plays(rules)}
    if indices == "computed":  # bjcalc index at the middle round's depth, a task of its own
        index_key = task_key("truecount-indices", rules, tags, index_depth, convention, exact)
        run_tasks([Task(index_key, _indices_task, (rules, system, tags, index_depth, convention, exact))],
                  store, "truecount-indices", workers=1, scheduler=scheduler)
        found = store.get(index_key)
        plays = tuple((by_name[name], int(i)) for name, i in found["plays"] if i is not None)
        insurance_index = found["insurance"]
    elif indices == "published":  # the common Hi-Lo list (../shared/reference/counting.md)
        plays = tuple((p, p.published) for p in default_plays(rules) if p.published is not None)
        insurance_index = 3 if rules.insurance else None
    else:
        raise InvalidSpreadError(f"indices must be computed or published, not {indices!r}")
    moment_key = task_key("truecount-second-moment", rules, exact)
    run_tasks([Task(moment_key, _second_moment_task, (rules, exact))], store, "truecount-second-moment", workers=1,
              scheduler=scheduler)
    second_moment = store.get(moment_key)
    if not exact:
        second_moment = {k: float(v) for k, v in second_moment.items()}

    # the count after each depth's cards, exactly; and the share of the rounds that start at each
    # (depth, running count): exact fractions but for the chain
    counts, rounds = where_rounds.counts, where_rounds.rounds
    kept = _likely(rounds, tail)
    left_out = sum((w for at, likely in zip(rounds, kept) for rc, w in at.items() if rc not in likely), 0 * tail)
    job = task_key("truecount", rules, tags, irc, chart.to_dict(), [(p.name, i) for p, i in plays],
                   insurance_index, convention, exact)
    tasks, where = [], {}
    for n, likely in zip(starts, kept):
        for rc in sorted(likely):
            key = task_key(job, n, rc)
            where[n, rc] = key
            tasks.append(Task(key, state_task, (rules, tags, n, rc, irc, chart, plays, insurance_index,
                                                convention, exact)))
    run = run_states(tasks, store, job, cards, pen, "a smaller --penetration, or fewer split hands",
                     workers=workers, scheduler=scheduler, progress=progress, batch=batch)
    values = {state: store.get(key) for state, key in where.items()}

    number: Callable[[Any], Any] = Fraction if exact else float
    zero = number(0)
    if where_rounds.played is not None:  # wonging out along the chain
        playing = [{rc: at.get(rc, 0.0) for rc in rounds[i]} for i, at in enumerate(where_rounds.played)]
    elif wong_out is not None:
        path = CountPath(rules.shoe_counts, tags, starts, tc_of, wong_in, wong_out, irc)
        playing = [{rc: p / len(starts) for rc, p in at.items()} for at in path.playing()]
    else:
        playing = [{rc: (w if wong_in is None or tc_of(rc, cards - n) >= wong_in else 0 * w) for rc, w in at.items()}
                   for n, at in zip(starts, rounds)]
    playing = [{rc: (number(w) if (n, rc) in values else zero) for rc, w in at.items()}
               for n, at in zip(starts, playing)]

    frequencies: dict[Fraction, Any] = {}
    advantage: dict[str, dict[Fraction, Any]] = {s: {} for s in STRATEGIES}
    weight: dict[Fraction, Any] = {}
    flat_all = {s: zero for s in STRATEGIES}
    for n, at in zip(starts, rounds):
        for rc, w in at.items():
            tc = tc_of(rc, cards - n)
            frequencies[tc] = frequencies.get(tc, 0 * w) + w
            if (n, rc) in values:
                weight[tc] = weight.get(tc, zero) + number(w)
                for s in STRATEGIES:
                    advantage[s][tc] = advantage[s].get(tc, zero) + number(w) * values[n, rc][s]
                    flat_all[s] += number(w) * values[n, rc][s]
    for s in STRATEGIES:
        advantage[s] = {tc: advantage[s][tc] / weight[tc] for tc in sorted(advantage[s]) if weight[tc]}
    frequencies = dict(sorted(frequencies.items()))

    def figures(depth: int, bets: Spread) -> WinFigures:
        """The spread's figures over the rounds that start before ``depth`` cards."""
        upto = [i for i, n in enumerate(starts) if n < depth]
        whole = sum((number(w) for i in upto for w in rounds[i].values()), zero)
        return _win(strategy, bets, [(starts[i], playing[i]) for i in upto], whole, values, second_moment[strategy],
                    tc_of, cards, bankroll, exact)

    win = figures(cut, spread)
    by_penetration = []
    for p in penetrations if penetrations is not None else _penetrations(pen):
        if any(n < round(p * cards) for n in starts):
            by_penetration.append((p, figures(round(p * cards), spread)))
    optimal = None
    if optimal_spread is not None:
        ratio = Fraction(optimal_spread).limit_denominator(1000)
        best = max((_kelly_spread(advantage[strategy], second_moment[strategy], ratio, scale)
                    for scale in (10 ** (e / 8) for e in range(0, 40))),
                   key=lambda s: figures(cut, s).score)
        optimal = (best, figures(cut, best))
    bound = left_out * MOST_PER_ROUND * max(b for _, _, b in spread.steps)
    run_out = _run_out_share(rules, starts, rounds, values, spread, zero, number)
    return TrueCountResult(
        rules, system, tags, pen, cut, seats, convention, per_round, starts, counts, frequencies, advantage,
        flat_all, second_moment, win, tuple(by_penetration), optimal, tuple((p.name, i) for p, i in plays),
        insurance_index, index_depth if indices == "computed" else None, left_out if exact else float(left_out),
        bound if exact else float(bound),
        wong_in, wong_out, exact, run, placement, shares, rounds_per_shoe, run_out)


def _run_out_share(rules: Rules, starts: Sequence[int], rounds: Sequence[dict[Fraction, Any]],
                   values: dict[tuple[int, Fraction], Any], spread: Spread, zero: Any,
                   number: Callable[[Any], Any]) -> RunOutShare | None:
    """How likely a round of the shoe is to run out of cards, over the rounds analysed (the
    basic chart's plays; bjcalc.engine.runout), and the most a casino's reshuffle could move the
    win per round (the largest bet times the stakes times the chance with the plays likeliest to
    run out); ``None`` where no analysed round can run out."""
    played = most = whole = zero
    exact = True
    for n, at in zip(starts, rounds):
        for rc, w in at.items():
            value = values.get((n, rc))
            if value is not None:
                whole += number(w)
                played += number(w) * value.get("run_out", zero)
                most += number(w) * value.get("run_out_most", zero)
                exact = exact and value.get("run_out_exact", True)
    if whole == 0 or most == 0:
        return None
    top = max(b for _, _, b in spread.steps)
    return RunOutShare(played / whole, casino_bound(rules, most / whole) * top, exact)


@dataclasses.dataclass(frozen=True)
class RunOutShare:
    """The share of a shoe's rounds that run out of cards (``exact``: worked out; else an upper
    bound) and the most the casino's reshuffle could move the win per round by."""

    probability: Any
    bound: Any
    exact: bool

    def to_data(self) -> dict[str, Any]:
        return {"probability": self.probability, "exact": self.exact, "rule": "void", "casino_bound": self.bound}


def run_states(tasks: Sequence[Task], store: TaskStore, job: str, cards: int, pen: Fraction, remedy: str, *,
               workers: int | None, scheduler: str | None, progress: Callable[[int, int], None] | None,
               batch: int | None) -> RunStats:
    """Run the (depth, running count) tasks of a shoe (``arguments[2]``: the cards seen), the
    deepest first, here: a shoe too small for the work at the cut card says so at once, in one
    line naming the ``remedy``."""
    deepest = max(range(len(tasks)), key=lambda i: tasks[i].arguments[2])
    try:
        run_tasks([tasks[deepest]], store, job, workers=1, scheduler=scheduler)
    except InvalidShoeError as error:
        raise InvalidShoeError(f"penetration {float(pen):g} leaves {cards - tasks[deepest].arguments[2]} cards at the "
                               f"last round's start: {error} ({remedy})") from None
    return run_tasks(tasks, store, job, workers=workers, scheduler=scheduler, progress=progress, batch=batch)


def _fraction(value: Any, field: str) -> Fraction:
    try:
        return Fraction(str(value)) if isinstance(value, (str, float)) else Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise InvalidShoeError(f"{field} must be a number, not {value!r}") from None


def _likely(rounds: Sequence[dict[Fraction, Any]], tail: float) -> list[set[Fraction]]:
    """The states analysed at each round start: all but the least likely, which together weigh
    at most ``tail`` of the rounds."""
    kept = [set(at) for at in rounds]
    if tail == 0:
        return kept
    dropped = 0.0
    for w, i, rc in sorted((float(w), i, rc) for i, at in enumerate(rounds) for rc, w in at.items()):
        if dropped + w > tail:
            break
        dropped += w
        kept[i].discard(rc)
    return kept


def _penetrations(pen: Fraction) -> list[Fraction]:
    """Where the win-rate-against-penetration curve is drawn: every 5 % from 50 % to ``pen``."""
    out = [Fraction(p, 100) for p in range(50, 100, 5) if Fraction(p, 100) < pen]
    return out + [pen]


def _indices_task(rules: Rules, system: str, tags: tuple[Fraction, ...], seen: int, convention: Convention,
                  exact: bool) -> dict[str, Any]:
    table = index_table(rules, system, tags, seen, convention=convention, workers=1, exact=exact)
    return {"plays": [(row.play.name, row.index) for row in table.plays],
            "insurance": None if table.insurance is None else table.insurance.index}


def _second_moment_task(rules: Rules, exact: bool) -> dict[str, Any]:
    """``E[X^2]`` of one round on the full shoe, basic strategy (for ``indices`` too) and CD."""
    from bjcalc.analysis import Analysis

    analysis: Analysis[Any] = Analysis(rules, exact=exact)
    number: Callable[[Any], Any] = to_fraction if exact else float
    chart = analysis.chart()
    basic = number(analysis.variance(chart).variance) + number(analysis.evaluate(chart).round.ev) ** 2
    cd = number(analysis.variance().variance) + number(analysis.round().ev) ** 2
    return {"basic": basic, "indices": basic, "cd": cd}


def _win(strategy: str, spread: Spread, rounds: Sequence[tuple[int, dict[Fraction, Any]]], whole: Any,
         values: dict[tuple[int, Fraction], dict[str, Any]], m2: Any, tc_of: Callable[[Fraction, int], Fraction],
         cards: int, bankroll: float | None, exact: bool) -> WinFigures:
    """The spread's figures over ``rounds`` (start depth, running count -> share of rounds
    played there), ``whole`` the share of all rounds they stand for."""
    zero: Any = Fraction(0) if exact else 0.0
    number: Callable[[Any], Any] = Fraction if exact else float
    played = staked = won = second = zero
    for n, here in rounds:
        for rc, p in here.items():
            if not p:
                continue
            b = number(spread.bet(tc_of(rc, cards - n)))
            a = values[n, rc][strategy]
            played += p
            staked += p * b
            won += p * b * a
            second += p * b * b * m2
    played, staked, won, second = played / whole, staked / whole, won / whole, second / whole
    sd = math.sqrt(max(0.0, float(second - won * won)))
    won_p = won / played if played else zero
    var_p = second / played - won_p * won_p if played else zero
    sd_p = math.sqrt(max(0.0, float(var_p)))
    di = 1000 * float(won_p) / sd_p if sd_p else 0.0
    n0 = float(var_p / (won_p * won_p)) if won_p else math.inf
    ruin = None
    if bankroll is not None and sd_p:
        ruin = 1.0 if won_p <= 0 else math.exp(-2 * float(won_p) * bankroll / float(var_p))
    return WinFigures(strategy, spread.text(), staked, played, won, 100 * won, sd, won_p, sd_p, di,
                      di * di, n0, ruin, bankroll)


def _kelly_spread(advantage: dict[Fraction, Any], m2: Any, ratio: Fraction, scale: float) -> Spread:
    """Bets proportional to ``A / E[X^2]`` at each whole true count (the Kelly fraction), times
    ``scale``, rounded to whole units and clipped to 1 .. ``ratio``: :func:`truecount_analysis` keeps the
    scale whose SCORE is largest."""
    whole: dict[int, list[float]] = {}
    for tc, a in advantage.items():
        whole.setdefault(math.floor(tc), []).append(float(a))
    tcs = sorted(whole)
    bets = []
    for t in tcs:
        a = sum(whole[t]) / len(whole[t])
        kelly = round(scale * a / float(m2))
        bets.append(Fraction(min(float(ratio), max(1.0, kelly))).limit_denominator(1000))
    steps: list[tuple[int | None, int | None, Fraction]] = []
    for t, b in zip(tcs, bets):
        low = None if t == tcs[0] else t
        if steps and steps[-1][2] == b:
            steps[-1] = (steps[-1][0], t, b)
        else:
            steps.append((low, t, b))
    steps[-1] = (steps[-1][0], None, steps[-1][2])
    return Spread(tuple(steps))
