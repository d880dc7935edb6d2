"""The simulator's round in Python: a port of ``bjcalc/counting/_simulate_kernel.c``'s
``play_round``, reading the same compiled tables (:class:`bjcalc.counting.simtables.KernelTables`),
with the cards coming from a ``draw()`` callable.

Two uses in tests/test_simulate.py: fed the same card order as the kernel's ``deal_rigged``, every
round's record must be identical; and fed every order of a tiny shoe (:func:`enumerate_round`,
a depth-first walk over the next card's rank with its exact chance), it gives the exact
distribution of the first round's result and cards, to hold against bjcalc's exact analysis.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from bjcalc.actions import Action
from bjcalc.counting.simtables import ACTION_CODES, CODES, HEADER, NOINDEX, STRIDE, KernelTables

STAND, HIT, DOUBLE, SPLIT, SURRENDER = (ACTION_CODES[a] for a in (Action.STAND, Action.HIT, Action.DOUBLE,
                                                                   Action.SPLIT, Action.SURRENDER))
ACE, TEN = 0, 9
CHARLIE = 30  # a charlie's "total": above the dealer's, it settles as a win


class Port:
    def __init__(self, tables: KernelTables) -> None:
        args = tables.arguments
        self.h = dict(zip(HEADER, np.frombuffer(args[0], dtype=np.int32).tolist()))
        self.bj_pays = float(np.frombuffer(args[1])[0])
        self.tags = np.frombuffer(args[3], dtype=np.int32).tolist()
        codes = np.frombuffer(args[4], dtype=np.uint8).tolist()
        self.rank_of, self.pairkey = codes[:CODES], codes[CODES:]
        # nested lists: the port runs every order of a tiny shoe, and numpy's scalars are slow
        self.first = np.frombuffer(args[5], dtype=np.uint8).reshape(10, CODES, CODES).tolist()
        self.hit3 = np.frombuffer(args[6], dtype=np.uint8).reshape(10, STRIDE).tolist()
        self.split2 = np.frombuffer(args[7], dtype=np.uint8).reshape(10, STRIDE).tolist()
        self.idx = np.frombuffer(args[8], dtype=np.int32).reshape(10, CODES, CODES, 3).tolist()
        h = self.h
        self.tc = np.frombuffer(args[9], dtype=np.int32).reshape(-1, h["rc_cols"]).tolist()

    def true_count(self, left: int, rc: int) -> int:
        h = self.h
        left = max(left, h["left_lo"])
        rc = min(max(rc, h["rc_lo"]), h["rc_lo"] + h["rc_cols"] - 1)
        return self.tc[left - h["left_lo"]][rc - h["rc_lo"]]

    @staticmethod
    def total(ranks: list[int]) -> tuple[int, bool]:
        hard = sum(r + 1 for r in ranks)
        if ACE in ranks and hard + 10 <= 21:
            return hard + 10, True
        return hard, False

    def cell(self, ranks: list[int]) -> int:
        t, soft = self.total(ranks)
        return t + 22 * soft

    def first_play(self, up: int, a: int, b: int, counter: bool, left0: int, rc0: int) -> int:
        u = self.rank_of[up]
        if counter and self.h["indices"]:
            thr, play, below = self.idx[u][a][b]
            if thr != NOINDEX:
                tc = self.true_count(left0 - 3, rc0 + self.tags[up] + self.tags[a] + self.tags[b])
                return play if tc >= thr else below
        return self.first[u][a][b]

    def hit_on(self, draw, ranks: list[int], u: int) -> int:
        while True:
            ranks.append(self.rank_of[draw()])
            t, _ = self.total(ranks)
            if t > 21:
                return 0
            if len(ranks) >= self.h["charlie"]:
                return CHARLIE
            if t == 21 or len(ranks) >= self.h["player_max"] or not self.hit3[u][self.cell(ranks)]:
                return t

    def play_seat(self, draw, up: int, a: int, b: int, act: int) -> tuple[list[tuple[int, int]], bool]:
        """[(total: 0 bust, -1 surrendered; stake)], live"""
        u = self.rank_of[up]
        ranks = [self.rank_of[a], self.rank_of[b]]
        if act == SURRENDER:
            return [(-1, 1)], False
        if act == STAND:
            return [(self.total(ranks)[0], 1)], True
        if act == DOUBLE:
            ranks.append(self.rank_of[draw()])
            t = self.total(ranks)[0]
            return [(0 if t > 21 else CHARLIE if len(ranks) >= self.h["charlie"] else t, 2)], t <= 21
        if act == HIT:
            t = self.hit_on(draw, ranks, u)
            return [(t, 1)], t > 0
        rank = self.rank_of[a]
        aces = rank == ACE
        most = self.h["max_hands_aces"] if aces else self.h["max_hands"]
        hands, finals = 2, []
        while len(finals) < hands:
            while True:
                c = draw()
                if self.pairkey[c] == self.pairkey[a] and hands < most:
                    hands += 1
                    continue
                break
            s = [rank, self.rank_of[c]]
            t, stake = self.total(s)[0], 1
            if not (aces and not self.h["hit_split_aces"]) and t != 21:
                play = self.split2[u][self.cell(s)]
                if play == DOUBLE:
                    s.append(self.rank_of[draw()])
                    t, stake = self.total(s)[0], 2
                    t = 0 if t > 21 else CHARLIE if len(s) >= self.h["charlie"] else t
                elif play == HIT:
                    t = self.hit_on(draw, s, u)
            finals.append((t, stake))
        return finals, any(t > 0 for t, _ in finals)

    def play_round(self, draw, n: int, rc0: int, wong: list[int]) -> tuple[int, int, int, int, float]:
        """(cards seen, rc, tc, played, unit) of one round; ``draw()`` the next card's code;
        ``wong``: the counter's state, a one-item list."""
        h = self.h
        left0 = h["ncards"] - n
        tc = self.true_count(left0, rc0)
        if h["wong_mode"] == 0:
            played = 1
        elif h["wong_mode"] == 1:
            played = int(tc >= h["wong_in"])
        else:
            if wong[0] == 0 and h["wong_in_on"] and tc >= h["wong_in"]:
                wong[0] = 1
            if wong[0] == 1 and h["wong_out_on"] and tc < h["wong_out"]:
                wong[0] = 2
            played = int(wong[0] == 1)
        seats = h["seats"]
        a = [draw() for _ in range(seats)]
        up = draw()
        b = [draw() for _ in range(seats)]
        hole = draw()
        u, rh = self.rank_of[up], self.rank_of[hole]
        dealer_bj = {u, rh} == {ACE, TEN}
        x = 0.0
        if h["insure"] and u == ACE and self.true_count(left0 - 1, rc0 + self.tags[up]) >= h["ins_index"]:
            x += 1.0 if dealer_bj else -0.5
        mine_natural = {self.rank_of[a[0]], self.rank_of[b[0]]} == {ACE, TEN}
        if dealer_bj and h["peek"]:
            if mine_natural:
                pass
            elif h["surrender"] == 2 and self.first_play(up, a[0], b[0], True, left0, rc0) == SURRENDER:
                x -= 0.5
            else:
                x -= 1
        else:
            mine, first0, any_live = [], STAND, False
            for s in range(seats):
                if {self.rank_of[a[s]], self.rank_of[b[s]]} == {ACE, TEN}:
                    continue
                act = self.first_play(up, a[s], b[s], s == 0, left0, rc0)
                finals, live = self.play_seat(draw, up, a[s], b[s], act)
                if s == 0:
                    mine, first0 = finals, act
                any_live |= live
            if dealer_bj:
                if not mine_natural:
                    if len(mine) == 1 and mine[0][0] < 0:
                        x += -0.5 if h["surrender"] == 2 else -1.0
                    else:
                        split = first0 == SPLIT
                        dl = h["double_loss_ace"] if u == ACE else h["double_loss_ten"]
                        sl = h["split_loss_ace"] if u == ACE else h["split_loss_ten"]
                        loss = sl if split else 1
                        for _, stake in mine:
                            x -= loss + (dl if stake == 2 else 0)
                        if split and not sl:
                            x -= 1
            else:
                dealer = 0
                if any_live:
                    d = [u, rh]
                    while True:
                        t, soft = self.total(d)
                        if t > 17 or (t == 17 and not (h["h17"] and soft)) or len(d) >= h["dealer_max"]:
                            break
                        d.append(self.rank_of[draw()])
                    dealer = self.total(d)[0]
                if mine_natural:
                    x += self.bj_pays
                else:
                    for t, stake in mine:
                        if t < 0:
                            x -= 0.5
                        elif t == 0:
                            x -= stake
                        elif dealer > 21 or t > dealer:
                            x += stake
                        elif t < dealer:
                            x -= stake
        return n, rc0, tc, played, (x if played else 0.0)


class Exhausted(Exception):
    pass


def deal_shoe(port: Port, cards: list[int]) -> list[tuple[int, int, int, int, float, int]]:
    """One shoe dealt from ``cards`` in order: each round's record, as the kernel's deal_rigged."""
    h = port.h
    pos, rc, wong, out = 0, h["irc"], [0 if h["wong_in_on"] else 1], []
    while pos < h["cut"]:
        start, rc0 = pos, rc
        state = {"pos": pos, "rc": rc, "out": False}

        def draw(state: dict = state) -> int:
            if state["pos"] >= len(cards):
                state["out"] = True
                return h["filler"]
            c = cards[state["pos"]]
            state["pos"] += 1
            state["rc"] += port.tags[c]
            return c

        n, r, tc, played, unit = port.play_round(draw, start, rc0, wong)
        pos, rc = state["pos"], state["rc"]
        if state["out"]:
            unit = 0.0
        out.append((n, r, tc, played, unit, pos - start))
        if state["out"]:
            break
    return out


def enumerate_round(port: Port, counts: list[int]) -> dict[tuple[float, tuple[int, ...]], Fraction]:
    """Every way the first round of a shoe of ``counts`` (per card code) can go, with its exact
    chance: (seat 0's unit result, the cards it used per code) -> probability."""
    out: dict[tuple[float, tuple[int, ...]], Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    total = sum(counts)
    while stack:
        prefix, p = stack.pop()
        at = [0]

        def draw(at: list = at, prefix: tuple = prefix) -> int:
            if at[0] >= len(prefix):
                raise Exhausted
            c = prefix[at[0]]
            at[0] += 1
            return c

        try:
            _, _, _, _, unit = port.play_round(draw, 0, port.h["irc"], [0])
        except Exhausted:
            left = list(counts)
            for c in prefix:
                left[c] -= 1
            remaining = total - len(prefix)
            for c, k in enumerate(left):
                if k:
                    stack.append((prefix + (c,), p * Fraction(k, remaining)))
            continue
        used = [0] * len(counts)
        for c in prefix:
            used[c] += 1
        key = (unit, tuple(used))
        out[key] = out.get(key, Fraction(0)) + p
    return out
