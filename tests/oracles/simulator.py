"""An independent Monte Carlo blackjack simulator, used as a test oracle for bjcalc.

Written from docs/model.md and docs/charts.md alone (it does not use anything in bjcalc/).
The player follows a strategy chart (the JSON dict of docs/charts.md); every round is dealt from
a freshly shuffled full shoe.

Implementation notes
--------------------
* Cards are ranks 1..10 (1 = ace, 10 = any ten-valued card).
* The shoe is kept as one flat list of cards.  Every draw is one step of a Fisher-Yates shuffle
  (pick a uniform position among the cards not yet dealt this round and swap it to the front),
  so only the cards actually used are shuffled.  A new round simply restarts at position 0: a
  partial Fisher-Yates from *any* arrangement of the full shoe deals uniformly without
  replacement, so this is a full reshuffle every round.
* Cards are dealt in the order: player, up card, player, hole card, the player's draws (hands left
  to right), then the dealer's draws.  Because the player's decisions never depend on unseen
  cards, dealing the hole card early is equivalent to dealing it after the player has finished
  (the no-hole-card game) -- the cards are exchangeable.
* Chart lookups are resolved once per call into small integer tables indexed by up card, softness
  and total, for each context (unsplit first two cards, split hand on two cards, 3+ cards).

Interpretations of the docs (see also the module constants):
* A `pairs` cell `Rp` on the first two cards when surrender is allowed means *surrender* (the
  code's definition in charts.md: "surrender if allowed, otherwise split").  Every other pair
  cell that does not split defers to the `hard`/`soft` row of the hand (charts.md step 1).
* A pair cell that says split (`P`, `Ph`/`Ps`/`Pd` with DAS, `Rp` without surrender) when
  splitting is impossible (`split_hands` = 1) is "do not split": the hard/soft row is read.
* After a split the player always resplits a pair card when the rules allow it (model.md).  The
  chart cell is the same one that caused the first split, so the chart agrees.
* Charlie on a doubled hand wins +1 times its (doubled) bet, i.e. +2.
* A hand that reaches `player_max_cards` cards stands; on two cards this also forbids doubling.
* With a no-hole-card dealer blackjack the original bet is lost, each extra split hand's bet and
  each double bet is lost ("all") or returned ("original"); a late-surrendered hand loses 1.
"""

from __future__ import annotations

import math
import random

__all__ = ["simulate", "simulate_spread", "play_sequence"]

# Action codes.
STAND, HIT, DOUBLE, SURRENDER, SPLIT = 0, 1, 2, 3, 4

UP_KEYS = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T"}

# See module docstring: a pairs cell "Rp" with surrender allowed surrenders directly.
RP_SURRENDERS_DIRECTLY = True

_BUST = -1  # final-state marker for a busted hand
_CHARLIE = 100  # final-state marker for a charlie hand


def _cell(table: dict, row, up: int) -> str:
    r = table.get(str(row))
    if r is None:
        raise KeyError(f"chart has no row {row!r}")
    code = r.get(UP_KEYS[up])
    if code is None and up == 10:
        for alias in ("10", "J", "Q", "K"):
            if alias in r:
                code = r[alias]
                break
    if code is None and up == 1:
        code = r.get("1")
    if code is None:
        raise KeyError(f"chart row {row!r} has no column {UP_KEYS[up]!r}")
    return code.strip()


def _letters(code: str) -> tuple[str, str]:
    """Split a code into (first play, fallback play); single letters get a sensible fallback."""
    c = code.upper()
    if len(c) == 1:
        fb = {"D": "H", "R": "H", "P": "H"}.get(c, c)
        return c, fb
    return c[0], c[1]


class _Rules:
    def __init__(self, rules: dict):
        self.h17 = bool(rules.get("hit_soft_17", False))
        self.bj_pays = float(rules.get("blackjack_pays", 1.5))
        self.double = rules.get("double", "any")
        self.double_soft = bool(rules.get("double_soft", True))
        self.das = bool(rules.get("double_after_split", False))
        self.split_hands = int(rules.get("split_hands", 1) or 1)
        self.resplit_aces = bool(rules.get("resplit_aces", False))
        self.hit_split_aces = bool(rules.get("hit_split_aces", False))
        self.surrender = rules.get("surrender", "none") or "none"
        self.peek = rules.get("hole_card", "peek") == "peek"
        dl = rules.get("nhc_double_loss") or {1: "original", 10: "original"}
        sl = rules.get("nhc_split_loss") or {1: "original", 10: "original"}
        self.double_loss_all = {u: _policy(dl, u) for u in (1, 10)}
        self.split_loss_all = {u: _policy(sl, u) for u in (1, 10)}
        self.charlie = rules.get("charlie") or 0
        self.pmax = rules.get("player_max_cards") or 0
        self.dmax = rules.get("dealer_max_cards") or 0
        if self.double not in ("any", "9-11", "10-11", "none"):
            raise ValueError(f"bad double rule {self.double!r}")
        if self.surrender not in ("none", "late", "early"):
            raise ValueError(f"bad surrender rule {self.surrender!r}")

    def may_double(self, total: int, soft: bool) -> bool:
        """Whether the doubling rules allow a two-card hand of this total."""
        if soft and not self.double_soft:
            return False
        if self.double == "any":
            return True
        if self.double == "9-11":
            return 9 <= total <= 11
        if self.double == "10-11":
            return 10 <= total <= 11
        return False


def _policy(d: dict, up: int) -> bool:
    v = d.get(up)
    if v is None:
        v = d.get(str(up))
    if v is None:
        v = d.get("A" if up == 1 else "T")
    if v is None:
        v = "original"
    if v not in ("all", "original"):
        raise ValueError(f"bad no-hole-card policy {v!r}")
    return v == "all"


def _tables(chart: dict, R: _Rules):
    """Resolve the chart into integer action tables.

    Returns (first, split2, multi, pair_action) where first/split2/multi[up][soft][total] is the
    action for an unsplit two-card hand / a two-card split hand / a hand of 3+ cards, and
    pair_action[up][rank] is SPLIT, SURRENDER or None (= read the hard/soft row) for an unsplit
    first two-card pair.
    """

    def resolve(code: str, total: int, soft: bool, can_double: bool, can_surrender: bool) -> int:
        first, second = _letters(code)
        play = first
        if first == "D" and not (can_double and R.may_double(total, soft)):
            play = second
        elif first == "R" and not can_surrender:
            play = second
        if play == "H":
            return HIT
        if play == "S":
            return STAND
        if play == "D":
            return DOUBLE
        if play == "R":
            return SURRENDER
        raise ValueError(f"chart code {code!r} not valid for a hard/soft row")

    can_surr = R.surrender != "none"
    first = [None] * 11
    split2 = [None] * 11
    multi = [None] * 11
    pair_action = [None] * 11
    for up in range(1, 11):
        f = [[STAND] * 32, [STAND] * 32]
        s2 = [[STAND] * 32, [STAND] * 32]
        m = [[STAND] * 32, [STAND] * 32]
        for soft in (0, 1):
            table = chart["soft"] if soft else chart["hard"]
            lo = 12 if soft else 4
            for total in range(lo, 22):
                # "Rh/S": the code for two-card hands, then the play of three or more cards
                code, _, more = _cell(table, total, up).partition("/")
                f[soft][total] = resolve(code, total, bool(soft), True, can_surr)
                s2[soft][total] = resolve(code, total, bool(soft), R.das, False)
                m[soft][total] = resolve(more or code, total, bool(soft), False, False)
        first[up], split2[up], multi[up] = f, s2, m
        pa = [None] * 11
        for rank in range(1, 11):
            code = _cell(chart["pairs"], UP_KEYS[rank], up).upper().partition("/")[0]
            c0 = code[0]
            if c0 == "P" and len(code) > 1 and code[1] in "HSD":
                split = R.das
            elif code == "P":
                split = True
            elif c0 == "R" and code[1:] == "P":
                if can_surr and RP_SURRENDERS_DIRECTLY:
                    pa[rank] = SURRENDER
                    continue
                split = not can_surr
            else:
                split = False
            if split and R.split_hands >= 2:
                pa[rank] = SPLIT
        pair_action[up] = pa
    return first, split2, multi, pair_action


def _run(chart: dict, rules: dict, cards: list, rounds: int, rnd, moments: list | None = None) -> tuple[float, float]:
    """Core loop.  `cards` is the shoe as a flat list (it is permuted in place), `rnd` a
    zero-argument function returning floats in [0, 1).  `moments`: if given, the sample means
    of X, X^2, X^3 and X^4 are appended to it."""
    powers = [0.0, 0.0]
    R = _Rules(rules)
    first_t, split_t, multi_t, pair_t = _tables(chart, R)
    N = len(cards)
    h17 = R.h17
    bj_pays = R.bj_pays
    peek = R.peek
    early = R.surrender == "early"
    charlie = R.charlie
    pmax = R.pmax
    dmax = R.dmax
    split_hands = R.split_hands
    resplit_aces = R.resplit_aces
    hit_split_aces = R.hit_split_aces
    dl_all = R.double_loss_all
    sl_all = R.split_loss_all
    deck = cards
    state = [0]  # next position in deck

    def draw():
        i = state[0]
        if i >= N:
            raise RuntimeError("the shoe ran out of cards during a round")
        j = i + int(rnd() * (N - i))
        c = deck[j]
        deck[j] = deck[i]
        deck[i] = c
        state[0] = i + 1
        return c

    def play(hard, ace, n, table2, doubled):
        """Play a hand of n >= 2 cards from its current state.  Returns (final, doubled) where final
        is _BUST, _CHARLIE or the standing total."""
        while True:
            if ace and hard <= 11:
                t = hard + 10
                soft = 1
            else:
                t = hard
                soft = 0
            if t > 21:
                return _BUST, doubled
            if charlie and n >= charlie:
                return _CHARLIE, doubled
            if doubled or (pmax and n >= pmax):
                return t, doubled
            a = (table2 if n == 2 else multi_up)[soft][t]
            if a == STAND:
                return t, doubled
            if a == DOUBLE:
                doubled = True
            c = draw()
            hard += c
            if c == 1:
                ace = True
            n += 1

    def dealer_total(up, hole):
        """The dealer's final total (0 = bust); never called for a dealer blackjack."""
        hard = up + hole
        ace = up == 1 or hole == 1
        n = 2
        while True:
            if ace and hard <= 11:
                t = hard + 10
                if t > 17 or (t == 17 and not h17):
                    return t
            else:
                if hard >= 17:
                    return hard if hard <= 21 else 0
                t = hard
            if dmax and n >= dmax:
                return t
            c = draw()
            hard += c
            n += 1
            if c == 1:
                ace = True

    total_sum = 0.0
    total_sq = 0.0
    for _ in range(rounds):
        state[0] = 0
        p1 = draw()
        up = draw()
        p2 = draw()
        hole = draw()
        dealer_bj = (up == 1 and hole == 10) or (up == 10 and hole == 1)
        if (p1 == 1 and p2 == 10) or (p1 == 10 and p2 == 1):
            res = 0.0 if dealer_bj else bj_pays
        else:
            multi_up = multi_t[up]
            hard = p1 + p2
            ace = p1 == 1 or p2 == 1
            action = pair_t[up][p1] if p1 == p2 else None
            if action is None:
                if ace and hard <= 11:
                    action = first_t[up][1][hard + 10]
                else:
                    action = first_t[up][0][hard]
            if action == SURRENDER:
                if early:
                    res = -0.5
                else:
                    res = -1.0 if dealer_bj else -0.5
            elif peek and dealer_bj:
                res = -1.0
            elif action != SPLIT:
                if pmax and pmax <= 2:
                    final, doubled = play(hard, ace, 2, multi_up, False)
                else:
                    if action == DOUBLE:
                        c = draw()
                        final, doubled = play(hard + c, ace or c == 1, 3, multi_up, True)
                    elif action == STAND:
                        final, doubled = (hard + 10 if ace and hard <= 11 else hard), False
                    else:
                        c = draw()
                        final, doubled = play(hard + c, ace or c == 1, 3, multi_up, False)
                bet = 2.0 if doubled else 1.0
                if dealer_bj:  # no-hole-card game
                    res = -2.0 if (doubled and dl_all[up]) else -1.0
                elif final == _BUST:
                    res = -bet
                elif final == _CHARLIE:
                    res = bet
                else:
                    d = dealer_total(up, hole)
                    res = bet if final > d else (-bet if final < d else 0.0)
            else:
                # Splitting: hands played left to right, each gets its second card on its turn.
                rank = p1
                table2 = split_t[up]
                can_resplit = rank != 1 or resplit_aces
                nhands = 2
                finals = []
                ndoubles = 0
                k = 0
                while k < nhands:
                    c = draw()
                    while c == rank and can_resplit and nhands < split_hands:
                        nhands += 1
                        c = draw()
                    h = rank + c
                    a = rank == 1 or c == 1
                    if rank == 1 and not hit_split_aces:
                        final = h + 10  # ace + one card: always soft (A,A = soft 12)
                        doubled = False
                    else:
                        final, doubled = play(h, a, 2, table2, False)
                    if doubled:
                        ndoubles += 1
                    finals.append((final, 2.0 if doubled else 1.0))
                    k += 1
                if dealer_bj:  # no-hole-card game
                    res = -1.0
                    if sl_all[up]:
                        res -= nhands - 1
                    if dl_all[up]:
                        res -= ndoubles
                else:
                    d = None
                    res = 0.0
                    for final, bet in finals:
                        if final == _BUST:
                            res -= bet
                        elif final == _CHARLIE:
                            res += bet
                        else:
                            if d is None:
                                d = dealer_total(up, hole)
                            if final > d:
                                res += bet
                            elif final < d:
                                res -= bet
        total_sum += res
        total_sq += res * res
        powers[0] += res * res * res
        powers[1] += res * res * res * res
    mean = total_sum / rounds
    if rounds > 1:
        var = (total_sq - total_sum * total_sum / rounds) / (rounds - 1)
        se = math.sqrt(max(var, 0.0) / rounds)
    else:
        se = float("nan")
    if moments is not None:
        moments.extend([total_sum / rounds, total_sq / rounds, powers[0] / rounds, powers[1] / rounds])
    return mean, se


def simulate(chart: dict, rules: dict, shoe: tuple, rounds: int, seed: int) -> tuple[float, float]:
    """Play `rounds` independent rounds from a freshly shuffled copy of `shoe` each round (full
    reshuffle every round), the player following `chart` (the JSON dict of docs/charts.md), and
    return (mean result per round in units of the initial bet, its standard error)."""
    if len(shoe) != 10:
        raise ValueError("shoe must be ten counts A..T")
    cards = []
    for rank, count in enumerate(shoe, start=1):
        cards.extend([rank] * int(count))
    rng = random.Random(seed)
    mean, se = _run(chart, rules, cards, int(rounds), rng.random)
    return mean, se


def simulate_spread(chart: dict, rules: dict, shoe: tuple, rounds: int, seed: int) -> tuple[float, float, float, float]:
    """As `simulate` (the same rounds for the same seed), with the spread: (mean, its standard
    error, the sample variance of the round's result, the standard error of that variance,
    from the sample's fourth central moment)."""
    cards = []
    for rank, count in enumerate(shoe, start=1):
        cards.extend([rank] * int(count))
    moments: list = []
    mean, se = _run(chart, rules, cards, int(rounds), random.Random(seed).random, moments)
    m1, m2, m3, m4 = moments
    variance = m2 - m1 * m1
    central4 = m4 - 4 * m3 * m1 + 6 * m2 * m1 * m1 - 3 * m1**4
    return mean, se, variance, math.sqrt(max(central4 - variance * variance, 0.0) / rounds)


def play_sequence(chart: dict, rules: dict, sequence) -> float:
    """Play one round with the cards dealt in exactly this order (for rigged tests).

    Order: player card, up card, player card, hole card, then the player's draws (hands left to
    right, a split hand's second card when its turn comes), then the dealer's draws.  Ranks may be
    given as 1..10 or as the characters A 2..9 T J Q K.
    """
    conv = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, "1": 1}
    cards = []
    for c in sequence:
        if isinstance(c, str):
            c = conv[c.upper()] if c.upper() in conv else int(c)
        cards.append(int(c))
    mean, _ = _run(chart, rules, cards, 1, lambda: 0.0)
    return mean
