"""A Monte Carlo shoe simulator for card counting: a test oracle for bjcalc's counting figures.

Written from the rules alone; it shares no code with ``bjcalc``. It deals whole shoes round after
round, keeps the running count of every card seen, and records for the counter's seat the true
count at the start of each round beside that round's result, so that true-count frequencies,
the advantage at each true count, the win rate and the SD per round can be compared with exact
figures within stated standard errors.

Conventions
-----------
* **Cards** are rank indices, aces first: 0 = A, 1 = 2, ..., 8 = 9, 9 = T (every ten-valued card).
  A shoe is ten counts in that order; tags are ten numbers in that order (ints, Fractions or
  floats such as 0.5; they are read exactly with :class:`fractions.Fraction`).
* **Shuffling and the cut**: each shoe is the full shoe shuffled uniformly with one
  :class:`random.Random` seeded with ``seed`` (so a run is reproducible), dealt from the top,
  with no burn card. A round starts only while N, the number of cards dealt from this shoe, is
  below ``cut_cards`` (``round(penetration * total cards)`` with Python's ``round`` when
  ``penetration`` is given); otherwise the shoe is reshuffled. A shoe that runs out in the
  middle of a round raises :class:`ShoeExhaustedError`.
* **Seats and deal order**: ``seats`` hands each round, seat 0 the counter's. One card to each
  seat in order, the dealer's up card, a second card to each seat, the hole card. Seats then play
  in order, split hands left to right, each split hand receiving its second card when it is
  played; then the dealer. Every seat plays the same strategy; only seat 0 is recorded.
* **Rules**: S17 or H17 (``s17``). The dealer peeks under an A or a T up card; a dealer blackjack
  ends the round at once: every hand loses 1 except a player blackjack, which pushes. A player
  blackjack (two-card 21, never after a split) pays ``blackjack_pays``. Double on any first two
  cards, after a split only with ``das``; a double takes exactly one card. Late surrender
  (``surrender``) on the first two cards of an unsplit hand, after the peek: result -1/2.
  Split any pair (same rank index; all tens are one rank) up to ``max_hands`` hands in all.
  Aces split once only, one card to each hand, no further decision; 21 there, or on any split
  hand's first two cards, is 21, not a blackjack. Insurance is offered to seat 0 when the up card
  is an ace, before the peek: +1 per unit if the dealer has blackjack, -1/2 otherwise. The dealer
  plays out its hand only if some hand at the table (any seat) is live: not busted, not
  surrendered, not a blackjack already paid.
* **The only play the simulator makes itself**: a hand totalling 21 stands (no action can beat
  standing there). Split-ace hands take their one card and stand. Everything else is asked of
  ``decide``.
* **Counting**: the running count RC is ``irc`` plus the tags of every card dealt from this shoe
  so far: all players' cards, the dealer's up card, draws, and the hole card, which is always
  seen by the end of the round. At the START of each round (before any of its cards) the
  simulator records N and RC, and the true count TC = RC / (cards_left / 52), cards_left =
  total - N, computed as a Fraction and then rounded: ``'floor'``, ``'truncate'`` (toward zero),
  ``'round'`` (nearest, halves away from zero) or ``'none'`` (the exact Fraction).
  **The counter does not update the count during the round**: ``bet``, ``insure`` and ``decide``
  all receive the round-start TC. (A live count inside the round is not supported.)
* **Strategy**: ``decide(cards, up, options, tc) -> str`` with ``cards`` the hand's rank indices
  (a tuple), ``up`` the dealer's up rank, ``options`` a frozenset of the actions allowed now among
  'H' hit, 'S' stand, 'D' double, 'P' split, 'R' surrender; anything else raises ValueError.
  ``insure(cards, tc) -> bool`` (seat 0 only). ``bet(tc) -> number >= 0`` once per round, for
  seat 0. A bet of 0 still plays the round ("play all"), unless ``sit_out_when_zero``: then
  seat 0 is empty that round (fewer cards are dealt; with one seat, only the dealer's two).
* **What is recorded** (seat 0): every round dealt counts in ``rounds``, ``count[tc]``,
  ``placement[N]``, ``depth_rc[(N, RC)]``; the result per unit bet ("unit": the result the hand
  would have had with a bet of 1, doubles, splits and insurance included) of every round seat 0
  played goes into ``played[tc]``, ``unit_sum[tc]``, ``unit_sq[tc]``; ``bet_sum``, ``win_sum``,
  ``win_sq`` add bet and bet x unit over all rounds (a round sat out adds 0).

>>> r = simulate((4, 4, 4, 4, 4, 4, 4, 4, 4, 16), HI_LO, rounds=200, seed=1, penetration=0.75,
...              decide=lambda cards, up, options, tc: "S", insure=lambda cards, tc: False,
...              bet=lambda tc: 1)
>>> r.rounds, sum(r.frequencies().values()), sum(r.placement.values())
(200, Fraction(1, 1), 200)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate

__all__ = ["HI_LO", "ShoeExhaustedError", "ShoeSimResult", "play_round", "simulate"]

HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
ACE, TEN = 0, 9
ROUNDINGS = ("floor", "truncate", "round", "none")

# Dealer outcome codes inside the loop (index into a list), and their names in the result.
_UNPLAYED, _BLACKJACK, _BUST = 0, 1, 22
DEALER_NAMES: dict[int, int | str] = {_UNPLAYED: "unplayed", _BLACKJACK: "blackjack",
                                      17: 17, 18: 18, 19: 19, 20: 20, 21: 21, _BUST: "bust"}

_SURRENDERED = -1  # final "total" of a surrendered hand; 0 is a busted hand

Decide = Callable[[tuple, int, frozenset, object], str]


class ShoeExhaustedError(RuntimeError):
    """The shoe ran out of cards in the middle of a round (use a shallower cut)."""


def _natural(a: int, b: int) -> bool:
    return (a == ACE and b == TEN) or (a == TEN and b == ACE)


def _round_player(*, s17: bool, das: bool, surrender: bool, max_hands: int, blackjack_pays: float,
                  decide: Decide, insure: Callable[[tuple, object], bool]):
    """The function that plays one round under these rules and this strategy (see ``play``)."""
    hs = frozenset("HS")
    first = (frozenset("HSD" + "R" * surrender), frozenset("HSDP" + "R" * surrender))  # [can split]
    after_split = (frozenset("HS" + "D" * das), frozenset("HSP" + "D" * das))
    bj_pays = float(blackjack_pays)

    def play_seat(cards: list, pos: int, a: int, b: int, up: int, tc) -> tuple[int, list]:
        """One seat's hand and its splits; returns (pos, [(final total, stake), ...]) with final
        total 0 for a bust and _SURRENDERED for a surrender."""
        n = len(cards)
        hands = [[a, b]]
        finals = []
        aces = False  # aces were split: every hand takes one card and stands
        i = 0
        while i < len(hands):
            h = hands[i]
            i += 1
            stake = 1
            done = aces
            if len(h) == 1:
                if pos == n:
                    raise ShoeExhaustedError("the shoe ran out during a round")
                h.append(cards[pos])
                pos += 1
            while True:
                t = sum(h) + len(h)
                if t <= 11 and ACE in h:
                    t += 10
                if t >= 21 or done:
                    break
                if len(h) == 2:
                    can_split = h[0] == h[1] and len(hands) < max_hands
                    options = (after_split if len(hands) > 1 else first)[can_split]
                else:
                    options = hs
                act = decide(tuple(h), up, options, tc)
                if act not in options:
                    raise ValueError(f"decide returned {act!r} for {tuple(h)!r} v {up}; allowed: "
                                     f"{sorted(options)!r}")
                if act == "S":
                    break
                if act == "R":
                    t = _SURRENDERED
                    break
                if act == "P":
                    hands.insert(i, [h.pop()])
                    aces = done = h[0] == ACE
                elif act == "D":
                    stake = 2
                    done = True
                if pos == n:
                    raise ShoeExhaustedError("the shoe ran out during a round")
                h.append(cards[pos])
                pos += 1
            finals.append((t if t <= 21 else 0, stake))
        return pos, finals

    def play(cards: list, pos: int, seats: int, counter_in: bool, tc) -> tuple[int, float | None, int]:
        """Deal and play one round from ``cards[pos:]``; ``seats`` seats, seat 0 empty unless
        ``counter_in``. Returns (pos after the round, seat 0's result per unit or None, dealer
        outcome code)."""
        n = len(cards)
        players = seats if counter_in else seats - 1
        if pos + 2 * players + 2 > n:
            raise ShoeExhaustedError("the shoe ran out during a round")
        firsts = cards[pos:pos + players]
        up = cards[pos + players]
        seconds = cards[pos + players + 1:pos + 2 * players + 1]
        hole = cards[pos + 2 * players + 1]
        pos += 2 * players + 2
        dealer_bj = _natural(up, hole)

        insurance = 0.0
        if counter_in and up == ACE and insure((firsts[0], seconds[0]), tc):
            insurance = 1.0 if dealer_bj else -0.5
        if dealer_bj:
            unit = None
            if counter_in:
                unit = insurance + (0.0 if _natural(firsts[0], seconds[0]) else -1.0)
            return pos, unit, _BLACKJACK

        live = False
        mine = None  # seat 0's finals, or None for a blackjack
        for s in range(players):
            a, b = firsts[s], seconds[s]
            if _natural(a, b):
                continue
            pos, finals = play_seat(cards, pos, a, b, up, tc)
            if not live:
                for t, _ in finals:
                    if t > 0:
                        live = True
                        break
            if s == 0 and counter_in:
                mine = finals

        code = _UNPLAYED
        if live:
            t = up + hole + 2
            soft = up == ACE or hole == ACE
            while True:
                if soft and t <= 11:
                    if t >= 8 or (t == 7 and s17):  # soft 18-21, or soft 17 under S17
                        t += 10
                        break
                elif t >= 17:
                    break
                if pos == n:
                    raise ShoeExhaustedError("the shoe ran out during a round")
                c = cards[pos]
                pos += 1
                t += c + 1
                if c == ACE:
                    soft = True
            code = t if t <= 21 else _BUST

        if not counter_in:
            return pos, None, code
        if mine is None:
            return pos, insurance + bj_pays, code
        unit = insurance
        for t, stake in mine:
            if t == _SURRENDERED:
                unit -= 0.5
            elif t == 0:
                unit -= stake
            elif code == _BUST or t > code:
                unit += stake
            elif t < code:
                unit -= stake
        return pos, unit, code

    return play


def _true_count_function(rounding: str) -> Callable[[Fraction], object]:
    if rounding == "floor":
        return math.floor
    if rounding == "truncate":
        return math.trunc
    if rounding == "round":
        half = Fraction(1, 2)
        return lambda x: math.floor(x + half) if x >= 0 else -math.floor(-x + half)
    if rounding == "none":
        return lambda x: x
    raise ValueError(f"unknown rounding {rounding!r}; expected one of {ROUNDINGS!r}")


@dataclass
class ShoeSimResult:
    """What a run recorded for seat 0 (see the module docstring for the conventions).

    ``count[tc]``: rounds started at that true count; ``played[tc]``, ``unit_sum[tc]``,
    ``unit_sq[tc]``: rounds seat 0 played there and the sum / sum of squares of its result per
    unit bet; ``placement[N]``: rounds started with N cards dealt from the shoe;
    ``depth_rc[(N, RC)]``: the same by running count; ``dealer``: the dealer's outcome (17..21,
    'bust', 'blackjack', 'unplayed' when no hand was live); ``cards_dealt``: cards used by all
    rounds; ``sat_out``: rounds seat 0 sat out.
    """

    rounds: int = 0
    shoes: int = 0
    count: dict = field(default_factory=dict)
    played: dict = field(default_factory=dict)
    unit_sum: dict = field(default_factory=dict)
    unit_sq: dict = field(default_factory=dict)
    bet_sum: float = 0.0
    win_sum: float = 0.0
    win_sq: float = 0.0
    placement: dict = field(default_factory=dict)
    depth_rc: dict = field(default_factory=dict)
    dealer: dict = field(default_factory=dict)
    cards_dealt: int = 0
    sat_out: int = 0

    @property
    def mean_cards(self) -> float:
        """Mean number of cards used per round."""
        return self.cards_dealt / self.rounds

    def frequencies(self) -> dict:
        """True count -> exact fraction of the rounds started there (they add up to 1)."""
        return {tc: Fraction(n, self.rounds) for tc, n in sorted(self.count.items())}

    def advantage(self, tc) -> tuple[float, float]:
        """(mean result per unit bet of the rounds played at ``tc``, its standard error)."""
        n = self.played.get(tc, 0)
        if n == 0:
            return math.nan, math.nan
        mean = self.unit_sum[tc] / n
        if n == 1:
            return mean, math.inf
        var = max(0.0, (self.unit_sq[tc] - n * mean * mean) / (n - 1))
        return mean, math.sqrt(var / n)

    def win_rate(self) -> tuple[float, float]:
        """(mean win per round, over every round dealt, in betting units; its standard error)."""
        return self.win_sum / self.rounds, self.sd() / math.sqrt(self.rounds)

    def sd(self) -> float:
        """Standard deviation of the win per round (sample SD, n - 1)."""
        n = self.rounds
        mean = self.win_sum / n
        return math.sqrt(max(0.0, (self.win_sq - n * mean * mean) / (n - 1))) if n > 1 else math.nan


def _check_rules(seats: int, max_hands: int) -> None:
    if not (isinstance(seats, int) and seats >= 1):
        raise ValueError(f"seats must be an int >= 1, not {seats!r}")
    if not (isinstance(max_hands, int) and max_hands >= 1):
        raise ValueError(f"max_hands must be an int >= 1, not {max_hands!r}")


def simulate(shoe: Sequence[int], tags: Sequence, *, rounds: int | None = None, shoes: int | None = None,
             seed, penetration: float | None = None, cut_cards: int | None = None, seats: int = 1,
             s17: bool = True, das: bool = True, surrender: bool = True, max_hands: int = 4,
             blackjack_pays: float = 1.5, irc=0, rounding: str = "floor", decide: Decide,
             insure: Callable[[tuple, object], bool], bet: Callable[[object], float],
             sit_out_when_zero: bool = False, trace: Callable | None = None) -> ShoeSimResult:
    """Deal ``rounds`` rounds, or ``shoes`` whole shoes (exactly one of the two), and record seat 0.

    ``shoe``: ten counts, aces first; ``tags``: ten tags, aces first; ``penetration`` or
    ``cut_cards`` (exactly one): a round starts only while fewer than ``cut_cards`` cards have been
    dealt from the shoe. ``trace``, if given, is called after every round as
    ``trace(shoe_number, N, RC, TC, cards_of_the_round, unit)`` (unit None when seat 0 sat out),
    for tests. See the module docstring for every convention.
    """
    if len(shoe) != 10 or any(not isinstance(c, int) or c < 0 for c in shoe):
        raise ValueError(f"shoe must be ten counts >= 0, aces first, not {shoe!r}")
    if len(tags) != 10:
        raise ValueError(f"tags must be ten numbers, aces first, not {tags!r}")
    wanted = rounds if shoes is None else shoes
    if wanted is None or (rounds is not None and shoes is not None):
        raise ValueError("give exactly one of rounds and shoes")
    if wanted < 1:
        raise ValueError(f"rounds or shoes must be at least 1, not {wanted!r}")
    _check_rules(seats, max_hands)
    total = sum(shoe)
    if penetration is not None and cut_cards is None:
        cut = round(penetration * total)
    elif penetration is None and cut_cards is not None:
        cut = cut_cards
    else:
        raise ValueError("give exactly one of penetration and cut_cards")
    if not 1 <= cut <= total:
        raise ValueError(f"the cut must be between 1 and {total} cards, not {cut!r}")
    to_tc = _true_count_function(rounding)

    # Tags and the IRC as integers over one common denominator, so that the count is exact.
    exact = [Fraction(t) for t in tags]
    irc = Fraction(irc)
    scale = math.lcm(irc.denominator, *(t.denominator for t in exact))
    itags = [int(t * scale) for t in exact]
    irc_scaled = int(irc * scale)

    play = _round_player(s17=s17, das=das, surrender=surrender, max_hands=max_hands,
                         blackjack_pays=blackjack_pays, decide=decide, insure=insure)
    deck = [rank for rank in range(10) for _ in range(shoe[rank])]
    shuffle = random.Random(seed).shuffle
    tag_of = itags.__getitem__
    tcs: dict = {}  # (scaled RC, N) -> TC
    stats: dict = {}  # TC -> [rounds, played, unit sum, unit sum of squares]
    depth_rc: dict = {}  # (N, scaled RC) -> rounds
    dealer = [0] * 23
    n_rounds = n_shoes = dealt = sat_out = 0
    bet_sum = win_sum = win_sq = 0.0
    limit = rounds if rounds is not None else -1

    while n_rounds != limit and n_shoes != shoes:
        shuffle(deck)
        n_shoes += 1
        rcs = list(accumulate(map(tag_of, deck), initial=irc_scaled))  # rcs[N]: RC after N cards
        pos = 0
        while pos < cut:
            rc = rcs[pos]
            key = (rc, pos)
            tc = tcs.get(key)
            if tc is None:
                tc = tcs[key] = to_tc(Fraction(rc * 52, scale * (total - pos)))
            b = bet(tc)
            if b < 0:
                raise ValueError(f"bet returned {b!r} at true count {tc}")
            counter_in = b != 0 or not sit_out_when_zero
            start = pos
            pos, unit, code = play(deck, pos, seats, counter_in, tc)
            dealer[code] += 1
            key = (start, rc)
            depth_rc[key] = depth_rc.get(key, 0) + 1
            st = stats.get(tc)
            if st is None:
                st = stats[tc] = [0, 0, 0.0, 0.0]
            st[0] += 1
            if unit is None:
                sat_out += 1
            else:
                st[1] += 1
                st[2] += unit
                st[3] += unit * unit
                w = b * unit
                bet_sum += b
                win_sum += w
                win_sq += w * w
            if trace is not None:
                trace(n_shoes, start, Fraction(rc, scale), tc, tuple(deck[start:pos]), unit)
            dealt += pos - start
            n_rounds += 1
            if n_rounds == limit:
                break

    result = ShoeSimResult(rounds=n_rounds, shoes=n_shoes, bet_sum=bet_sum, win_sum=win_sum, win_sq=win_sq,
                           cards_dealt=dealt, sat_out=sat_out)
    for tc, (n, played, s, sq) in sorted(stats.items()):
        result.count[tc] = n
        result.played[tc] = played
        result.unit_sum[tc] = s
        result.unit_sq[tc] = sq
    for (n_dealt, rc), k in sorted(depth_rc.items()):
        result.depth_rc[(n_dealt, Fraction(rc, scale))] = k
        result.placement[n_dealt] = result.placement.get(n_dealt, 0) + k
    result.dealer = {name: dealer[code] for code, name in DEALER_NAMES.items()}
    return result


def play_round(cards: Sequence[int], *, decide: Decide, insure: Callable[[tuple, object], bool] = lambda c, tc: False,
               seats: int = 1, counter_plays: bool = True, s17: bool = True, das: bool = True,
               surrender: bool = True, max_hands: int = 4, blackjack_pays: float = 1.5,
               tc=0) -> tuple[float | None, int, int | str]:
    """Play one round dealt from ``cards`` in this order (``cards[0]`` is the top card), the same
    code as :func:`simulate` uses; for rigged tests.

    Returns (seat 0's result per unit or None if it sat out, cards used, dealer outcome).

    >>> stand = lambda cards, up, options, tc: "S"
    >>> play_round([9, 9, 9, 6], decide=stand)  # T,T v T up, 7 in the hole: 20 beats 17
    (1.0, 4, 17)
    """
    _check_rules(seats, max_hands)
    play = _round_player(s17=s17, das=das, surrender=surrender, max_hands=max_hands,
                         blackjack_pays=blackjack_pays, decide=decide, insure=insure)
    pos, unit, code = play(list(cards), 0, seats, counter_plays, tc)
    return unit, pos, DEALER_NAMES[code]
