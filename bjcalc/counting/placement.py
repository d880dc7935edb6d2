"""Where rounds start along the shoe (bjcalc.counting.truecount's model): the chain that follows
the cards seen of each tag class from round to round, renewal, spaced starts, and the paths of
the count a wonging counter follows (:class:`CountPath`)."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.arguments import check_flag, check_number, check_whole, shown
from bjcalc.cards import ACE
from bjcalc.chart import Chart
from bjcalc.counting.countshoe import running_count_distribution
from bjcalc.counting.dealtcards import class_weights, dealt_round_cards
from bjcalc.counting.roundcards import Dist, check_round, round_cards
from bjcalc.counting.spread import InvalidSpreadError
from bjcalc.counting.tags import TagClasses, as_tags, check_initial_running_count, count_value
from bjcalc.errors import InvalidArgumentError, InvalidShoeError
from bjcalc.rules import MAX_CARDS, Rules

# the fewest cards a round uses: the player's two and the dealer's up card
FEWEST_PER_ROUND = 3

# how many tag classes the path of a count is followed for (wong_out): each one more is a
# dimension of the forward pass
PATH_CLASSES = 4


def round_starts(cards: int, cut: int, per_round: float) -> tuple[int, ...]:
    """Spaced placement: the cards seen when each round of a shoe starts, ``round(k * c)``:
    ``cards`` in the shoe, the cut card after ``cut`` of them (at least 1), ``per_round`` the
    cards a round uses on average (at least :data:`FEWEST_PER_ROUND`, at most the shoe)."""
    check_whole(cards, "cards", 1, MAX_CARDS)
    check_whole(cut, "cut", 1, cards)
    check_number(per_round, "per_round", FEWEST_PER_ROUND, cards)
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
# in two cards: where the aces are out, rounds are longer) when its arrays stay this small, and
# for at most this many seats: a round's cards in four classes for three seats are over a
# million vectors (more than ten minutes to work out, where three classes take 7 s)
ACES_APART_CELLS = 50_000
ACES_APART_SEATS = 2


def _with_aces_apart(classes: TagClasses, shoe: Sequence[int], seats: int = 1) -> TagClasses:
    """The classes the chain follows: the count's, with the aces a class of their own where
    they share a tag with other ranks, the arrays stay within :data:`ACES_APART_CELLS` and
    there are at most :data:`ACES_APART_SEATS` seats."""
    ace_class = classes.of_rank[ACE]
    if sum(1 for c in classes.of_rank if c == ace_class) == 1 or shoe[ACE] == 0 or seats > ACES_APART_SEATS:
        return classes
    totals = classes.totals(shoe)
    if math.prod(t + 1 for t in totals) * (shoe[ACE] + 1) > ACES_APART_CELLS:
        return classes
    of_rank = list(classes.of_rank)
    of_rank[ACE] = len(classes.values)
    return TagClasses(classes.scale, classes.values + (classes.values[ace_class],), tuple(of_rank))


def round_start_chain(rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], cut: int,
                      irc: Fraction = Fraction(0), dealt: bool = False) -> dict[int, dict[Fraction, float]]:
    """Chain placement: the expected number of rounds of a shoe that start after ``N`` cards
    at running count ``RC``, following the cards seen of each tag class from round to round.
    A round takes ``d_j`` cards of class ``j`` with the chance :func:`round_cards` gives for the
    full shoe, reweighted by what is left: ``P(d | seen) ~ P(d) prod_j ff(C_j - s_j, d_j) /
    (ff(L - N, c) prod_j (C_j / L)^d_j)``. Rounds that use few cards (many tens, say) come more
    often where those cards are out, so the counts at the rounds' starts lean the way the
    simulators find. Float; counts of at most :data:`CHAIN_CLASSES` tag values. ``dealt``: a
    round's cards as dealt, without replacement (:mod:`bjcalc.counting.dealtcards`: ``P(d |
    seen) = W(d) prod_j ff(C_j - s_j, d_j) / ff(L - N, |d|)``, exact where the seen cards of
    each class are a uniform draw from it), for at most :data:`DEALT_SEATS` seats."""
    return _chain(rules, chart, seats, tags, cut, irc, None, dealt)[0]


def round_start_chain_playing(rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], cut: int,
                              irc: Fraction, tc_of: Callable[[Fraction, int], Fraction], wong_in: int | None,
                              wong_out: int | None, dealt: bool = False) -> tuple[dict[int, dict[Fraction, float]],
                                                             dict[int, dict[Fraction, float]]]:
    """The chain placement (:func:`round_start_chain`) and, beside it, the expected number of
    rounds the counter plays at each (depth, running count) when he wongs: waiting until the
    true count reaches ``wong_in`` (none: seated from the start), then playing until the
    first round below ``wong_out`` (none: never leaving), gone for the rest of the shoe after.
    The table deals on whether he plays or not (the rounds use the cards the chain gives
    them), so his state rides along each path of the chain: the same steps move three masses
    (waiting, playing, gone) and only the round starts move mass between them, as
    :class:`CountPath` does on the spaced placement."""
    rounds, played = _chain(rules, chart, seats, tags, cut, irc, (tc_of, wong_in, wong_out), dealt)
    assert played is not None
    return rounds, played


def _chain(rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], cut: int, irc: Fraction,
           wong: tuple[Callable[[Fraction, int], Fraction], int | None, int | None] | None, dealt: bool = False
           ) -> tuple[dict[int, dict[Fraction, float]], dict[int, dict[Fraction, float]] | None]:
    """The chain (:func:`round_start_chain`): the masses of the round starts carried along the
    shoe, depth by depth; with wonging the counter's rounds waited and played apart."""
    chain = _ChainTables.of(rules, chart, seats, tags, dealt)
    k, shape = chain.k, chain.shape
    # the masses carried along the chain: every round start, and with wonging the counter's
    # rounds waited (first) and played (second) apart; "gone" is what neither holds. The depths
    # a round may still reach are kept in a ring, depth n at n % ring (a round takes fewer cards
    # than the ring holds), so that each group of steps adds into all its depths at once.
    carried = 1 if wong is None else 3
    origin = (0,) * (k - 1)
    out: dict[int, dict[Fraction, float]] = {}
    played: dict[int, dict[Fraction, float]] = {}
    mass = np.zeros((carried, chain.ring) + shape)
    mass[0, 0][origin] = 1.0
    if wong is not None:  # the first round: waited for with a wong_in, else played
        mass[1 if wong[1] is not None else 2, 0][origin] = 1.0
    for n in range(cut):
        slot = n % chain.ring
        masses = [mass[c, slot].copy() for c in range(carried)]
        mass[:, slot] = 0.0
        if not masses[0].any():
            continue
        last = n - chain.seen_free
        valid = (last >= 0) & (last <= chain.totals[-1])
        out[n] = chain.counts_at(n, masses[0], valid, irc)
        if wong is not None:
            rc_scaled = chain.scaled_free + chain.classes.values[-1] * last
            masses[1], masses[2], played[n] = _wong_step(masses[1], masses[2], out[n], rc_scaled, valid,
                                                         chain.classes, irc, chain.cards - n, wong)
        chain.step(n, cut, masses, mass, valid, np.clip(last, 0, chain.totals[-1]).astype(np.int64))
    return out, (played if wong is not None else None)


# the dealt placement takes a round's cards as dealt (without replacement, dealtcards) for up to
# this many seats: more seats' tables multiply past what a run can afford
DEALT_SEATS = 1


@dataclasses.dataclass
class _ChainTables:
    """What the chain reweights its steps with: the count's tag classes (aces apart where that
    fits), the rounds' steps grouped by how they shift the classes but the last, the falling
    factorials of each class, and the grid of the classes seen."""

    classes: TagClasses
    totals: list[int]
    by_shift: list[tuple[tuple[int, ...], np.ndarray, np.ndarray, np.ndarray]]
    ff: list[np.ndarray]
    longest: int
    ring: int

    @classmethod
    def of(cls, rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], dealt: bool = False) -> _ChainTables:
        classes = TagClasses.of(as_tags(tags))
        if dealt and seats > DEALT_SEATS:
            raise InvalidShoeError(f"the dealt placement follows at most {DEALT_SEATS} seat, not seats={seats}: "
                                   f"use chain")
        if len(classes.values) > CHAIN_CLASSES:
            raise InvalidShoeError(f"the chain placement follows counts of at most {CHAIN_CLASSES} distinct tags; "
                                   f"this count has {len(classes.values)} (use placement renewal or spaced)")
        classes = _with_aces_apart(classes, rules.shoe_counts, seats)
        k = len(classes.values)
        totals = list(classes.totals(rules.shoe_counts))
        cards = (dealt_round_cards if dealt else round_cards)(rules, chart, seats, classes.of_rank)
        steps = {d: q for d, q in cards.items() if q >= CHAIN_NEGLIGIBLE}
        whole, share = sum(steps.values()), [t / sum(totals) for t in totals]
        # the rounds' chances over the full shoe's class factors: ff(C_j, d_j) / ff(L, |d|) as dealt
        # (dealtcards.class_weights), C_j / L a card drawn with replacement
        odds = ({d: w / whole for d, w in class_weights(rules, steps, classes.of_rank).items()} if dealt else
                {d: q / whole / math.prod(share[j] ** d[j] for j in range(k)) for d, q in steps.items()})
        longest = max(max(d) for d in steps)
        # ff[j][t, d] = (C_j - t)(C_j - t - 1)...(C_j - t - d + 1): d cards of class j with t seen
        ff = []
        for j in range(k):
            left = np.arange(totals[j], -1, -1, dtype=float)  # C_j - t for t = 0..C_j
            table = np.ones((totals[j] + 1, longest + 1))
            for drawn in range(1, longest + 1):
                table[:, drawn] = table[:, drawn - 1] * np.maximum(left - (drawn - 1), 0)
            ff.append(table)
        # the steps by how they shift the classes but the last (the rounds' chances over the full
        # shoe's class shares, reweighted at each depth by what is left: module docstring)
        shifts: dict[tuple[int, ...], list[tuple[int, float, int]]] = {}
        for d, chance in odds.items():
            if all(x <= t for x, t in zip(d, totals)):  # (a round taking more of a class than the shoe holds: none)
                shifts.setdefault(tuple(d[:-1]), []).append((d[-1], chance, sum(d)))
        ring = max(size for members in shifts.values() for _, _, size in members) + 1
        # per group: its shift, the last class's cards, their chances and the rounds' lengths
        by_shift = [(shift, np.array([c for c, _, _ in members]), np.array([q for _, q, _ in members]),
                     np.array([size for _, _, size in members]))
                    for shift, members in sorted(shifts.items())]
        return cls(classes, totals, by_shift, ff, longest, ring)

    def __post_init__(self) -> None:
        k, shape = self.k, self.shape
        grid = np.indices(shape) if shape else np.zeros((0,), dtype=np.int64)
        self.seen_free = grid.sum(axis=0) if shape else np.zeros(())
        self.scaled_free = sum(self.classes.values[j] * grid[j] for j in range(k - 1)) if shape else np.zeros(())
        self.columns = [self.ff[j].reshape([-1 if i == j else 1 for i in range(k - 1)] + [self.longest + 1])
                        for j in range(k - 1)]
        # the cells of each running count (their scaled counts but the last class's, which adds the
        # same to every cell at a depth), in the order a boolean mask takes them
        free_rc = np.asarray(self.scaled_free - self.classes.values[-1] * self.seen_free).reshape(-1)
        order = np.argsort(free_rc, kind="stable")
        self.values_at, firsts = np.unique(free_rc[order], return_index=True)
        self.cells_of = np.split(order, firsts[1:])

    @property
    def k(self) -> int:
        return len(self.classes.values)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(t + 1 for t in self.totals[:-1])

    @property
    def cards(self) -> int:
        return sum(self.totals)

    def counts_at(self, n: int, here: np.ndarray, valid: np.ndarray, irc: Fraction) -> dict[Fraction, float]:
        """The round starts' mass at depth ``n`` by running count."""
        at: dict[Fraction, float] = {}
        flat_here, flat_valid = here.reshape(-1), valid.reshape(-1)
        for free, cells in zip(self.values_at.tolist(), self.cells_of):
            held = flat_here[cells[flat_valid[cells]]]
            if (held > 0).any():
                at[irc + Fraction(free + self.classes.values[-1] * n, self.classes.scale)] = float(held.sum())
        return at

    def step(self, n: int, cut: int, masses: list[np.ndarray], mass: np.ndarray, valid: np.ndarray,
             last_index: np.ndarray) -> None:
        """Carry depth ``n``'s masses one round on, into ``mass``'s ring. The reweighted steps go
        from every state of this depth where rounds start (the box around the states holding more
        than CHAIN_FLOOR of a round): per class a column of factors (broadcast, not gathered), the
        last class's from one table per depth; the steps that shift the other classes alike are
        taken together."""
        k, shape = self.k, self.shape
        cells = np.argwhere(masses[0] > CHAIN_FLOOR)
        if not len(cells):
            return
        low, high = cells.min(axis=0).tolist(), (cells.max(axis=0) + 1).tolist()
        box = tuple(slice(a, b) for a, b in zip(low, high))
        lasts = np.moveaxis(np.where(valid[box][..., None], self.ff[-1][last_index[box]], 0.0), -1, 0)
        groups = self._groups(n, box, lasts.shape[1:])
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
            into = (n + lengths[before]) % self.ring  # distinct depths: each cell is added to once
            for c, m in enumerate(scaled):
                mass[(c, into, *target)] += m[source] * steps_here

    def _groups(self, n: int, box: tuple[slice, ...], box_shape: tuple[int, ...]) -> list[tuple]:
        """The steps usable at depth ``n`` by group: shift, lengths, the other classes' column,
        the last class's cards and the chances over ff(cards left, length)."""
        k = self.k
        cols = [self.columns[j][tuple(box[j] if i == j else slice(None) for i in range(k - 1))] for j in range(k - 1)]
        falling = np.cumprod([1.0] + [float(self.cards - n - i) for i in range(self.longest * k)])  # ff(L - N, s)
        groups = []
        for shift, last_cards, chances, lengths in self.by_shift:
            usable = n + lengths <= self.cards
            if not usable.all():
                if not usable.any():
                    continue
                last_cards, chances, lengths = last_cards[usable], chances[usable], lengths[usable]
            column: np.ndarray = np.ones(box_shape)
            for j in range(k - 1):
                column = column * cols[j][..., shift[j]]
            groups.append((shift, lengths, column, last_cards, chances / falling[lengths]))
        return groups


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
    ``placement`` ``chain``, ``dealt`` (the chain with a round's cards as dealt:
    :func:`round_start_chain`), ``renewal``, ``spaced`` or a mapping depth -> weight; default
    (``None``) the chain where it can be followed (float, counts of up to
    :data:`CHAIN_CLASSES` tag values), else renewal. ``bjcalc truecount`` and ``bjcalc index
    --penetration`` both place their rounds with it. ``wong`` (``tc_of``, ``wong_in``,
    ``wong_out``), on the chain: also the rounds the counter plays when wonging out."""
    tags, irc = _checked_start(rules, chart, tags, cut, seats, irc, exact, wong)
    cards_used = round_cards(rules, chart, seats)
    per_round = sum(sum(c) * q for c, q in cards_used.items())
    if placement is None:  # the chain where it can be followed, else renewal
        placement = "renewal" if exact or len(TagClasses.of(tags).values) > CHAIN_CLASSES else "chain"
    if placement in ("chain", "dealt") and exact:
        raise InvalidShoeError(f"the {placement} placement is followed in floating point: with exact, use renewal "
                               f"or spaced")
    if placement == "dealt" and seats > DEALT_SEATS:
        raise InvalidShoeError(f"the dealt placement follows at most {DEALT_SEATS} seat, not seats={seats}: use chain")
    chain: dict[int, dict[Fraction, float]] | None = None
    chain_played: dict[int, dict[Fraction, float]] | None = None
    if placement == "spaced":
        starts = round_starts(sum(rules.shoe_counts), cut, per_round)
        shares = tuple(Fraction(1, len(starts)) for _ in starts)
        rounds_per_shoe = float(len(starts))
    elif placement in ("chain", "dealt"):
        chain, chain_played, per_round = _chain_starts(rules, chart, seats, tags, cut, irc, wong, placement, per_round)
        starts = tuple(sorted(chain))
        rounds_per_shoe = sum(sum(at.values()) for at in chain.values())
        shares = tuple(Fraction(sum(chain[n].values()) / rounds_per_shoe) for n in starts)
    else:
        if placement == "renewal":
            given = round_start_chances(cut, cards_used)
        elif isinstance(placement, dict):  # as given (a simulator's measured placement, say): depth -> weight
            given = placement
        else:
            raise InvalidShoeError(f"placement must be chain, dealt, renewal, spaced or a mapping of depths, "
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


def _chain_starts(rules: Rules, chart: Chart, seats: int, tags: Sequence[Fraction], cut: int, irc: Fraction,
                  wong: tuple[Callable[[Fraction, int], Fraction], int | None, int | None] | None, placement: str,
                  per_round: float) -> tuple[dict[int, dict[Fraction, float]], dict[int, dict[Fraction, float]] | None,
                                             float]:
    """The chain's round starts (and with wonging the rounds played), and the cards a round
    uses: as dealt with the dealt placement (the chain's own, kept from its step)."""
    dealt = placement == "dealt"
    played = None
    if wong is not None:
        chain, played = round_start_chain_playing(rules, chart, seats, tags, cut, irc, *wong, dealt=dealt)
    else:
        chain = round_start_chain(rules, chart, seats, tags, cut, irc, dealt)
    if dealt:
        of_rank = _with_aces_apart(TagClasses.of(tags), rules.shoe_counts, seats).of_rank
        cards = dealt_round_cards(rules, chart, seats, of_rank)
        per_round = sum(sum(c) * q for c, q in cards.items()) / sum(cards.values())
    return chain, played, per_round


def _checked_start(rules: Rules, chart: Chart, tags: Sequence[Any], cut: int, seats: int, irc: Fraction | int,
                   exact: bool, wong: Any) -> tuple[tuple[Fraction, ...], Fraction]:
    """:func:`round_start_states`' arguments checked before any work: the tags and the IRC read."""
    check_round(rules, chart, seats)
    tags = as_tags(tags)
    check_whole(cut, "cut", 1, sum(rules.shoe_counts))
    irc = count_value(irc, "irc")
    check_initial_running_count(rules.shoe_counts, tags, irc, "irc, the initial running count (IRC)")
    check_flag(exact, "exact")
    _check_wong(wong)
    return tags, irc


def _check_wong(wong: Any) -> None:
    """``None``, or (``tc_of``: a callable, ``wong_in``, ``wong_out``: whole true counts or ``None``)."""
    if wong is None:
        return
    if (not isinstance(wong, tuple) or len(wong) != 3 or not callable(wong[0])
            or any(c is not None and (not isinstance(c, int) or isinstance(c, bool)) for c in wong[1:])):
        raise InvalidArgumentError(f"wong must be None or (tc_of, wong_in, wong_out): a callable and two whole true "
                                   f"counts or None, not {shown(wong)}")


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
