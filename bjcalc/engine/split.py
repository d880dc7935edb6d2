"""Pair splitting, exact for a stated post-split strategy (CDZ-, CDP1, CDP).

Why pair cards are all that need tracking: every post-split strategy here decides a hand from
its own cards (and, for CDP, the number of pair cards split off), never from the other hands'
cards. Any expected value of the future deal is unchanged, on average, when one uniformly
random card is removed first (the burn-card property), so by optional stopping the cards other
hands draw can be ignored. The exceptions are the pair cards split off, which are known to
be gone, and the second card of a hand that was *not* a pair card (a draw conditioned on not
being the pair rank). For any such expectation ``f``:

    f(R) = q(R) f(R - P) + (1 - q(R)) E[f(R - X) | X != P],      q(R) = P(next card is P)

so the conditioned draw is ``f(R) - q f(R - P)`` and stays on shoes of the form
``R - k P``. The split EV is therefore an exact recursion over (pair cards removed, hands
created, hand being dealt), with one hand-graph evaluation per number of pair cards removed.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.cards import ACE, TEN
from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.hands import HandLayers, hand_layers
from bjcalc.engine.values import HandValues, graph_shoe, solve, solve_many, stop_at
from bjcalc.numbers import quotient
from bjcalc.rules import Rules

# a fixed play for split hands: (split-hand graph, which two-card hands may double) -> a code
# per hand, layer by layer; its ``key`` names the chart, so solvers of one chart share values
Decide = Callable[[HandLayers, "np.ndarray | None"], list[np.ndarray]]


class PostSplit(str, enum.Enum):
    """How split hands are played; ``label`` is the usual name (CDZ-, CDP1, CDP)."""

    CDZ = "cdz-"  # as the unsplit hand of the same cards
    CDP1 = "cdp1"  # re-optimised once, for the shoe after the first split
    CDP = "cdp"  # re-optimised for each number of pair cards removed

    @classmethod
    def _missing_(cls, value: object):
        if isinstance(value, str) and value.lower() in ("cdz", "cdz-"):
            return cls.CDZ
        if isinstance(value, str):
            for member in cls:
                if member.value == value.lower():
                    return member
        return None

    @property
    def label(self) -> str:
        return self.value.upper()


def max_hands(rules: Rules, pair: int) -> int:
    if pair == ACE and not rules.resplit_aces:
        return min(2, rules.split_hands)
    return rules.split_hands


def may_double_after_split(rules: Rules, layers: HandLayers, pair: int) -> np.ndarray | None:
    """Which two-card split hands the rules let double."""
    if not rules.double_after_split or (pair == ACE and not rules.hit_split_aces):
        return None
    sizes = layers.sizes
    if 2 not in sizes:
        return None
    k = sizes.index(2)
    totals, soft = layers.totals[k], layers.soft[k]
    allowed = np.array([rules.double.allows_total(int(t)) for t in totals], dtype=bool)
    if not rules.double_soft:
        allowed &= ~soft
    return allowed


def cdz_decisions(
    unsplit: HandValues, layers: HandLayers, may_double: np.ndarray | None, plays: CdzPlays | None = None
) -> list[np.ndarray]:
    """Each split hand played as the unsplit hand of the same cards (CDZ-). ``plays``: the
    unsplit hands' :class:`CdzPlays`, when the caller keeps them for several pairs."""
    plays = CdzPlays.of(unsplit) if plays is None else plays
    sizes = layers.sizes
    flat_starts = layers.flat.starts
    drawn = 1 if 1 in sizes else 0  # layers before the two-card one: a one-card split hand
    index = layers.rows_in(unsplit.layers)[drawn:]
    at = np.zeros(0, dtype=np.intp)
    if index:
        # each split hand's flat row in the unsplit graph, which holds every hand of two or
        # more cards from the same shoe (the graphs are cut from one, hands.hand_layers)
        at = np.concatenate(index) + np.repeat(plays.starts[sizes[drawn] - unsplit.layers.first :][: len(index)],
                                               np.diff(flat_starts[drawn:]))
    chosen = np.empty(flat_starts[-1], dtype=np.int64)
    chosen[: flat_starts[drawn]] = Code.HIT  # a one-card split hand always draws
    chosen[flat_starts[drawn] :] = plays.code[at]
    out = [chosen[a:b] for a, b in zip(flat_starts[:-1], flat_starts[1:])]
    if 2 in sizes:
        k = sizes.index(2)
        two = out[k]  # a view of ``chosen``: changed in place
        if may_double is not None and plays.double_better is not None:
            rows = at[: len(two)] - plays.starts[2 - unsplit.layers.first]
            two[may_double & plays.double_better[rows]] = Code.DOUBLE
        # the unsplit hand of an ace and a ten is a blackjack, which stands
        counts = layers.counts[k]
        two[(counts[:, ACE] == 1) & (counts[:, TEN] == 1)] = Code.STAND
    return out


@dataclasses.dataclass(frozen=True)
class CdzPlays:
    """The unsplit hands' plays that CDZ- split hands copy, over the unsplit graph's flat rows:
    hit or stand (stand where the hand may not draw), and in the two-card layer whether
    doubling is worth more than that."""

    code: np.ndarray
    double_better: np.ndarray | None  # the two-card layer's rows
    starts: np.ndarray  # first flat row of each unsplit layer

    @classmethod
    def of(cls, unsplit: HandValues) -> CdzPlays:
        codes, double_better = [], None
        for k, size in enumerate(unsplit.layers.sizes):
            stand = unsplit.stand[k]
            if not unsplit.can_hit[k]:
                codes.append(np.full(len(stand), Code.STAND))
                continue
            hit = unsplit.hit[k]
            chosen = np.where(hit > stand, Code.HIT, Code.STAND)
            if size == 2 and unsplit.double is not None:
                double_better = unsplit.double > np.where(chosen == Code.HIT, hit, stand)
            codes.append(chosen)
        code = np.concatenate(codes) if codes else np.zeros(0, dtype=np.int64)
        return cls(code, double_better, unsplit.layers.flat.starts)


class SplitSolver:
    """Split EVs of every pair against one up card, for one post-split strategy."""

    def __init__(
        self,
        context: UpcardContext,
        unsplit: HandValues | None,
        strategy: PostSplit = PostSplit.CDZ,
        decide: Decide | None = None,
        shared: dict[tuple[Any, int], dict[int, HandValues]] | None = None,
    ) -> None:
        """Use :meth:`optimal` or :meth:`fixed`."""
        self.context, self.unsplit, self.strategy = context, unsplit, PostSplit(strategy)
        self.decide = decide
        self._shared = shared if shared is not None else {}
        self._solved: dict[int, dict[int, HandValues]] = {}  # pair -> removal -> split-hand values
        self._layers: dict[int, HandLayers] = {}  # pair -> split-hand graph
        self._plays: CdzPlays | None = None  # the unsplit plays CDZ- copies

    @classmethod
    def optimal(cls, context: UpcardContext, unsplit: HandValues, strategy: PostSplit) -> SplitSolver:
        """Split hands played by a post-split strategy (CDZ- follows ``unsplit``'s plays)."""
        return cls(context, unsplit, strategy)

    @classmethod
    def fixed(
        cls, context: UpcardContext, decide: Decide, shared: dict[tuple[Any, int], dict[int, HandValues]] | None = None
    ) -> SplitSolver:
        """Split hands played by ``decide`` (a chart); values are kept in ``shared`` under the
        decider's ``key`` for later solvers of the same chart."""
        return cls(context, None, decide=decide, shared=shared)

    def limit(self, pair: int) -> int:
        """Cards at which a split hand stops drawing: 2 for split aces without hitting."""
        rules = self.context.rules
        return 2 if pair == ACE and not rules.hit_split_aces else stop_at(rules)

    def layers(self, pair: int) -> HandLayers:
        """The graph of split hands holding one ``pair`` card (cached on the solver)."""
        if pair not in self._layers:
            start = tuple(1 if r == pair else 0 for r in range(10))
            self._layers[pair] = hand_layers(graph_shoe(self.context.rules), 1, self.limit(pair), start)
        return self._layers[pair]

    def pairs(self) -> list[int]:
        """The ranks that can be split against this up card from this shoe."""
        if self.context.rules.split_hands < 2:
            return []
        least = 1 if self.context.replacement else 2
        return [p for p in range(10) if self.context.shoe[p] >= least]

    def removals(self, pair: int) -> tuple[int, ...]:
        """The numbers of pair cards (beyond the first two) removed from the shoe in the
        states :func:`split_recursion` visits (for same-face tens, under every up-card face)."""
        most = max_hands(self.context.rules, pair)
        if self.context.replacement:  # removing pair cards changes no shoe: one solve serves all
            return (0,)
        if self.same_face(pair):
            return visited_removals(self.face_count(), most)
        return visited_removals(self.context.shoe[pair], most)

    def same_face(self, pair: int) -> bool:
        """Whether only cards of the pair's own face resplit it (tens, unlike tens not split)."""
        return pair == TEN and not self.context.rules.split_unlike_tens

    def face_count(self) -> int:
        """Cards of each ten-valued face in the full shoe (faces equally many, checked by Rules)."""
        return self.context.rules.shoe_counts[TEN] // 4

    def up_faces(self) -> list[tuple[Fraction, int]]:
        """For a pair of one ten-valued face: (probability, cards of that face left in the shoe
        after the up card and the pair) for each case of the up card's face."""
        faces, tens = self.face_count(), self.context.rules.shoe_counts[TEN]
        if self.context.replacement:  # a face per 13 cards: tens / 4 (1 of 13 for one deck's mix)
            return [(Fraction(1), faces)]
        if self.context.up != TEN:
            return [(Fraction(1), faces - 2)]
        same = Fraction(faces - 2, tens - 2)  # P(the up card is of the pair's face)
        return [(same, faces - 3), (1 - same, faces - 2)]

    def extra(self, pair: int, removed: int) -> tuple[int, ...]:
        """The cards out of the shoe a split hand draws from: the other pair card and
        ``removed`` more (none with replacement)."""
        if self.context.replacement:
            return (0,) * 10
        return (0,) * pair + (1 + removed,) + (0,) * (9 - pair)

    def prepare(self) -> None:
        """Register every split-hand shoe the recursion will visit with the up card's dealer
        batch, so that the dealer is evaluated once for all of them."""
        for pair in self.pairs():
            layers = self.layers(pair)
            for removed in self.removals(pair):
                self.context.batch.index.register(layers, self.extra(pair, removed))

    def hand_values(self, pair: int, removed: int) -> HandValues:
        """The split-hand graph evaluated on the shoe without the other pair card and
        ``removed`` further pair cards (with replacement, on the one shoe)."""
        return self._hands(pair)[0 if self.context.replacement else removed]

    def _hands(self, pair: int) -> dict[int, HandValues]:
        """:meth:`hand_values` for every removal the recursion visits, solved together (cached on
        the solver, so that they go with it). A fixed chart's values are kept in the shared dict
        (under the decider's ``key``) for later solvers."""
        if pair not in self._solved:
            key = getattr(self.decide, "key", None)
            if key is None:
                self._solved[pair] = self._solve_hands(pair)
            else:
                shared = self._shared
                if (key, pair) not in shared:
                    shared[key, pair] = self._solve_hands(pair)
                self._solved[pair] = shared[key, pair]
        return self._solved[pair]

    def _solve_hands(self, pair: int) -> dict[int, HandValues]:
        context = self.context
        removals = self.removals(pair)
        layers = self.layers(pair)
        may_double = may_double_after_split(context.rules, layers, pair)
        decisions: Sequence[np.ndarray] | None
        if self.decide is not None:
            decisions = self.decide(layers, may_double)
        elif self.strategy is PostSplit.CDZ:
            assert self.unsplit is not None  # optimal() has one
            if self._plays is None:
                self._plays = CdzPlays.of(self.unsplit)
            decisions = cdz_decisions(self.unsplit, layers, may_double, self._plays)
        else:
            decisions = None
        solved = {}
        if self.strategy is PostSplit.CDP1 and self.decide is None and removals:
            # re-optimised once, on the shoe right after the split; later hands play the same
            first = solve(context, layers, self.extra(pair, removals[0]), loss=context.split_loss,
                          limit=self.limit(pair), may_double=may_double)
            solved[removals[0]] = first
            decisions, removals = first.decision, removals[1:]
        if removals:
            many = solve_many(
                context, layers, tuple(self.extra(pair, r) for r in removals), loss=context.split_loss,
                limit=self.limit(pair), may_double=may_double, decisions=decisions,
            )
            solved.update(zip(removals, many))
        return solved

    def _values(
        self, pair: int, removed: int, face_left: int | None = None
    ) -> tuple[Fraction | float, Fraction | float, Fraction | float]:
        """(free, not-pair, q): the value of one split hand drawing its second card freely,
        the value weighted by its second card not being a pair card, and P(pair card).
        ``face_left``: for same-face tens, the cards of the pair's face left before the
        ``removed`` ones (only those resplit; the hand values depend on the ten count alone)."""
        solved = self.hand_values(pair, removed)
        if self.context.replacement:  # the next card is a pair card with the shoe's own odds
            n_left = sum(solved.shoe)
            pair_left = solved.shoe[pair] if face_left is None else face_left
        else:
            n_left = sum(solved.shoe) - 1
            pair_left = solved.shoe[pair] - 1 if face_left is None else max(face_left - removed, 0)
        free = solved.hit[0][0]
        child = solved.layers.children[0][0, pair]
        pair_term = pair_left * solved.best[1][child] if child >= 0 and pair_left > 0 else 0
        g, exact = solved.scale[0], self.context.exact
        q = Fraction(pair_left, n_left) if exact else pair_left / n_left
        return quotient(free, g, exact), quotient(free - pair_term, g, exact), q

    def value(self, pair: int, first_hand_only: bool = False) -> Fraction | float:
        """The split EV of ``pair, pair`` weighted like the engine's numerators: for a peeking
        dealer with an A or T up, E[result; no dealer blackjack]; else unconditional.
        ``first_hand_only``: the result of the first (right-hand) split hand alone."""
        most = max_hands(self.context.rules, pair)
        if not self.same_face(pair):
            total = split_recursion(functools.partial(self._values, pair), most, first_hand_only)
        else:
            # against a ten up, the up card may be of the pair's face: one card fewer resplits
            total = sum(
                (p if self.context.exact else float(p))
                * split_recursion(functools.partial(self._values, pair, face_left=left), most, first_hand_only)
                for p, left in self.up_faces()
            )
        context = self.context
        if not context.peeked and context.bj_rank is not None and context.split_loss == 0:
            # the original bet is lost to a dealer blackjack even when split bets are returned
            shoe = context.shoe
            taken = 0 if context.replacement else 2
            left = sum(shoe) - taken
            bj = shoe[context.bj_rank] - (taken if pair == context.bj_rank else 0)
            total = total - (Fraction(bj, left) if context.exact else bj / left)
        return total


@functools.lru_cache(maxsize=1024)
def visited_removals(pair_cards: int, most: int) -> tuple[int, ...]:
    """The removals :func:`split_recursion` visits with ``pair_cards`` of the pair rank in the
    shoe (after the up card) and at most ``most`` hands: it goes to ``removed + 1`` only while
    a pair card is left to draw, so the count alone decides."""
    visited: set[int] = set()

    def record(removed: int) -> tuple[int, int, Fraction]:
        visited.add(removed)
        return 0, 0, Fraction(1, 2) if pair_cards >= 3 + removed else Fraction(0)

    split_recursion(record, most)
    return tuple(sorted(r for r in visited if pair_cards >= 2 + r))


def split_recursion(values: Callable[[int], tuple[Any, Any, Any]], most: int, first_hand_only: bool = False) -> Any:
    """The split EV from per-shoe values: ``values(removed)`` gives (free, not_pair, q) for the
    shoe with ``removed`` pair cards beyond the first two taken out (see the module docstring);
    ``most`` is the most hands allowed; ``first_hand_only`` counts the first hand alone."""
    return _SplitRecursion(values, most, first_hand_only).rest(0, 2, 1)


class _SplitRecursion:
    """:func:`split_recursion`'s memoised recursion. An object with a memo dict rather than an
    lru_cache'd closure: a closure that calls itself is a reference cycle, which would keep
    ``values`` (and the solver and shoe arrays behind it) alive until the garbage collector
    happened to run."""

    def __init__(self, values: Callable[[int], tuple[Any, Any, Any]], most: int, first_hand_only: bool) -> None:
        self.values, self.most, self.first_hand_only = values, most, first_hand_only
        self.memo: dict[tuple[int, int, int], Any] = {}
        self.values_memo: dict[int, tuple[Any, Any, Any]] = {}  # removed -> values(removed)

    def rest(self, removed: int, hands: int, current: int) -> Any:
        """The expected result of hands ``current..hands`` when ``current`` is about to get its
        second card, on the shoe with ``removed`` pair cards beyond the first two taken out."""
        key = (removed, hands, current)
        if key in self.memo:
            return self.memo[key]
        rest = self.rest
        value: Any
        if current > hands or (self.first_hand_only and current > 1):
            value = 0
        else:
            if removed not in self.values_memo:
                self.values_memo[removed] = self.values(removed)
            free, not_pair, q = self.values_memo[removed]
            if hands >= self.most:
                value = free if self.first_hand_only else (hands - current + 1) * free
            elif q == 0:
                value = not_pair + rest(removed, hands, current + 1)
            else:
                value = (
                    q * rest(removed + 1, hands + 1, current)
                    + not_pair
                    + rest(removed, hands, current + 1)
                    - q * rest(removed + 1, hands, current + 1)
                )
        self.memo[key] = value
        return value
