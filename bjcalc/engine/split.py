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
import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.cards import ACE, TEN
from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.hands import HandLayers, hand_layers
from bjcalc.engine.kernels import player_kernel
from bjcalc.engine.values import (
    HandValues,
    PassValues,
    can_solve_ups,
    drawing_layers,
    flat_rows,
    graph_shoe,
    layer_views,
    solve_many,
    solve_ups,
    stop_at,
)
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
    """Which two-card split hands the rules let double (kept with the graph)."""
    if not rules.double_after_split or (pair == ACE and not rules.hit_split_aces):
        return None
    sizes = layers.sizes
    if 2 not in sizes:
        return None
    key = ("may double", rules.double, rules.double_soft)
    if key not in layers.derived:
        k = sizes.index(2)
        totals, soft = layers.totals[k], layers.soft[k]
        allowed = np.array([rules.double.allows_total(int(t)) for t in totals], dtype=bool)
        if not rules.double_soft:
            allowed &= ~soft
        allowed.flags.writeable = False
        layers.derived[key] = allowed
    return layers.derived[key]  # type: ignore[return-value]


def cdz_decisions(
    unsplit: HandValues, layers: HandLayers, may_double: np.ndarray | None, plays: CdzPlays | None = None
) -> Sequence[np.ndarray]:
    """Each split hand played as the unsplit hand of the same cards (CDZ-), layer by layer
    (views of one array over the flat rows). ``plays``: the unsplit hands' :class:`CdzPlays`,
    when the caller keeps them for several pairs."""
    plays = CdzPlays.of(unsplit) if plays is None else plays
    sizes = layers.sizes
    flat_starts = layers.flat.starts
    drawn = 1 if 1 in sizes else 0  # layers before the two-card one: a one-card split hand
    at = _unsplit_rows(layers, unsplit.layers, drawn)
    chosen = np.empty(flat_starts[-1], dtype=np.int64)
    chosen[: flat_starts[drawn]] = Code.HIT  # a one-card split hand always draws
    chosen[flat_starts[drawn] :] = plays.code[at]
    out = layer_views(chosen, layers)
    if 2 in sizes:
        k = sizes.index(2)
        two = out[k]  # a view of ``chosen``: changed in place
        if may_double is not None and plays.double_better is not None:
            rows = at[: len(two)] - plays.starts[2 - unsplit.layers.first]
            two[may_double & plays.double_better[rows]] = Code.DOUBLE
        # the unsplit hand of an ace and a ten is a blackjack, which stands
        if ("naturals",) not in layers.derived:
            counts = layers.counts[k]
            naturals = np.flatnonzero((counts[:, ACE] == 1) & (counts[:, TEN] == 1))
            naturals.flags.writeable = False
            layers.derived["naturals",] = naturals
        naturals_at: np.ndarray = layers.derived["naturals",]  # type: ignore[assignment]
        two[naturals_at] = Code.STAND
    return out


def _unsplit_rows(layers: HandLayers, unsplit: HandLayers, drawn: int) -> np.ndarray:
    """Each split hand's flat row in the unsplit graph (from layer ``drawn`` on), which holds
    every hand of two or more cards from the same shoe (the graphs are cut from one,
    hands.hand_layers); kept with the split graph."""
    key = ("unsplit rows", unsplit.key, drawn)
    if key not in layers.derived:
        index = layers.rows_in(unsplit)[drawn:]
        at = np.zeros(0, dtype=np.intp)
        if index:
            starts = unsplit.flat.starts
            at = np.concatenate(index) + np.repeat(starts[layers.sizes[drawn] - unsplit.first :][: len(index)],
                                                   np.diff(layers.flat.starts[drawn:]))
        at.flags.writeable = False
        layers.derived[key] = at
    return layers.derived[key]  # type: ignore[return-value]


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
        """The plays of every layer at once, over the flat rows (an 8-deck graph has twenty
        layers, and a pass per layer cost 160 us an up card)."""
        flat = unsplit.layers.flat
        stand, hit = flat_rows(unsplit.stand), flat_rows(unsplit.hit)
        may_hit = np.asarray(unsplit.can_hit, dtype=bool)[flat.layer]
        code = np.where(may_hit & (hit > stand), int(Code.HIT), int(Code.STAND))
        double_better = None
        sizes = unsplit.layers.sizes
        if 2 in sizes and unsplit.double is not None and unsplit.can_hit[sizes.index(2)]:
            a, b = flat.starts[sizes.index(2)], flat.starts[sizes.index(2) + 1]
            double_better = unsplit.double > np.where(code[a:b] == Code.HIT, hit[a:b], stand[a:b])
        return cls(code, double_better, flat.starts)


class SolvedHands(Mapping[int, HandValues]):
    """The split hands of one pair solved at each removal the recursion visits (removal ->
    :class:`HandValues`, each made when first read from its pass, :class:`PassValues`)."""

    def __init__(self) -> None:
        self._at: dict[int, tuple[PassValues, int]] = {}

    def put(self, removed: int, values: PassValues, j: int) -> None:
        self._at[removed] = (values, j)

    def put_all(self, removals: Sequence[int], values: PassValues) -> None:
        """Each of ``removals`` is the shoe of ``values`` at its place."""
        for j, removed in enumerate(removals):
            self.put(removed, values, j)

    def __getitem__(self, removed: int) -> HandValues:
        values, j = self._at[removed]
        return values[j]

    def __iter__(self) -> Iterator[int]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)

    def root(self, removed: int, rank: int) -> tuple[tuple[int, ...], Any, Any, Any]:
        """:meth:`PassValues.root` of the shoe of ``removed``."""
        values, j = self._at[removed]
        return values.root(j, rank)


class SplitSolver:
    """Split EVs of every pair against one up card, for one post-split strategy."""

    def __init__(
        self,
        context: UpcardContext,
        unsplit: HandValues | None,
        strategy: PostSplit = PostSplit.CDZ,
        decide: Decide | None = None,
        shared: dict[tuple[Any, int], SolvedHands] | None = None,
    ) -> None:
        """Use :meth:`optimal` or :meth:`fixed`."""
        self.context, self.unsplit, self.strategy = context, unsplit, PostSplit(strategy)
        self.decide = decide
        self._shared = shared if shared is not None else {}
        self._solved: dict[int, SolvedHands] = {}  # pair -> removal -> split-hand values
        self._layers: dict[int, HandLayers] = {}  # pair -> split-hand graph
        self._plays: CdzPlays | None = None  # the unsplit plays CDZ- copies
        self._cdz: dict[int, Sequence[np.ndarray]] = {}  # pair -> CDZ- decisions (cdz_decisions)
        self._split_values: dict[tuple[int, bool], Fraction | float] = {}  # see value
        # pair -> its split hands' plays as a value, where one pass solved every removal of them
        self._play_keys: dict[int, tuple] = {}
        self._digests: dict[tuple[int, int], bytes] = {}  # (pair, removal) -> plays_digest where not alike
        self._pairs: list[int] | None = None  # see pairs

    @classmethod
    def optimal(cls, context: UpcardContext, unsplit: HandValues | None, strategy: PostSplit) -> SplitSolver:
        """Split hands played by a post-split strategy (CDZ- follows ``unsplit``'s plays: set
        before the first solve, where ``None`` here)."""
        return cls(context, unsplit, strategy)

    @classmethod
    def fixed(
        cls, context: UpcardContext, decide: Decide, shared: dict[tuple[Any, int], SolvedHands] | None = None
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
        """The ranks that can be split against this up card from this shoe: on a counter's
        shoe, only the pairs it can deal with this up card (a pair it cannot deal, or any pair
        against an up card it cannot show, has probability 0 and no split value)."""
        if self._pairs is None:  # kept: a round asks about a hundred times, and the shoe is fixed
            context = self.context
            least = 1 if context.replacement else 2
            self._pairs = [] if context.rules.split_hands < 2 else [
                p for p in range(10) if context.shoe[p] >= least and context.can_deal(_TWO_CARDS[p])]
        return list(self._pairs)

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

    def prepare(self, pairs: Sequence[int] | None = None) -> None:
        """Register every split-hand shoe the recursion will visit (of ``pairs``, default every
        pair) with the up card's dealer batch, so that the dealer is evaluated once for all of
        them."""
        batch = self.context.batch
        for pair in self.pairs() if pairs is None else [p for p in self.pairs() if p in pairs]:
            layers = self.layers(pair)
            for removed in self.removals(pair):
                batch.index.register(layers, self.extra(pair, removed))
            batch.start(more=True)  # the joint pass starts on each pair's shoes at once

    def solve(self, pair: int) -> None:
        """Solve the split hands of ``pair`` for every removal the recursion visits (else
        done when a value is first asked for)."""
        self._hands(pair)

    def cdz_decisions(self, pair: int) -> Sequence[np.ndarray]:
        """The CDZ- play of the split hands of ``pair`` (:func:`cdz_decisions`, kept)."""
        if pair not in self._cdz:
            layers = self.layers(pair)
            assert self.unsplit is not None  # set by Engine.splits
            if self._plays is None:
                self._plays = CdzPlays.of(self.unsplit)
            may_double = may_double_after_split(self.context.rules, layers, pair)
            self._cdz[pair] = cdz_decisions(self.unsplit, layers, may_double, self._plays)
        return self._cdz[pair]

    def plays_alike(self, pair: int) -> bool:
        """Whether the split hands of ``pair`` are played alike at every removal the recursion
        visits (one pass with fixed decisions solved them all, as for CDZ- or a chart)."""
        self._hands(pair)
        return pair in self._play_keys

    def plays_digest(self, pair: int, removed: int) -> bytes:
        """The split hands' decisions at removal ``removed`` as a value (a digest): where one
        pass solved every removal's hands played alike, the digest it was kept under; else the
        removal's own decisions hashed (kept on the solver)."""
        self._hands(pair)
        key = self._play_keys.get(pair)
        if key is not None:
            return key[-1]
        if (pair, removed) not in self._digests:
            self._digests[pair, removed] = _plays_digest(self.hand_values(pair, removed).decision, None)
        return self._digests[pair, removed]

    def hand_values(self, pair: int, removed: int) -> HandValues:
        """The split-hand graph evaluated on the shoe without the other pair card and
        ``removed`` further pair cards (with replacement, on the one shoe)."""
        return self._hands(pair)[0 if self.context.replacement else removed]

    def _hands(self, pair: int) -> SolvedHands:
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

    def _solve_hands(self, pair: int) -> SolvedHands:
        context = self.context
        removals = self.removals(pair)
        layers = self.layers(pair)
        may_double = may_double_after_split(context.rules, layers, pair)
        decisions: Sequence[np.ndarray] | None
        if self.decide is not None:
            decisions = self.decide(layers, may_double)
        elif self.strategy is PostSplit.CDZ:
            decisions = self.cdz_decisions(pair)
        else:
            decisions = None
        solved = SolvedHands()
        if self.strategy is PostSplit.CDP1 and self.decide is None and removals:
            # re-optimised once, on the shoe right after the split; later hands play the same
            first = solve_many(context, layers, (self.extra(pair, removals[0]),), loss=context.split_loss,
                               limit=self.limit(pair), may_double=may_double)
            solved.put(removals[0], first, 0)
            decisions, removals = first[0].decision, removals[1:]
        if removals:
            extras = tuple(self.extra(pair, r) for r in removals)
            # split hands played alike are the same values: a chart and CDZ- mostly play a
            # pair's split hands alike, and their solvers share the pass (kept on the context,
            # which the solvers' values live as long as)
            key = None if decisions is None else self._plays_key(pair, extras, decisions)
            many = None if key is None else context.stacks.get(key)
            if many is None:
                # the recursion reads the split hand's own values (the first layer) and the decisions
                many = solve_many(context, layers, extras, loss=context.split_loss, limit=self.limit(pair),
                                  may_double=may_double, decisions=decisions, roots_only=True)
                if key is not None:
                    context.stacks[key] = many
            if key is not None and not solved:  # these values are every removal's
                self._play_keys[pair] = key
            solved.put_all(removals, many)
        return solved

    def _plays_key(self, pair: int, extras: tuple[tuple[int, ...], ...], decisions: Sequence[np.ndarray]) -> tuple:
        """What a pass of the split hands of ``pair`` on the shoes of ``extras``, played by
        ``decisions``, is kept under on the context: solvers of the same plays share it."""
        may_double = may_double_after_split(self.context.rules, self.layers(pair), pair)
        return ("split hands", self.layers(pair).key, extras, self.limit(pair), _plays_digest(decisions, may_double))

    def _keep(self, pair: int, key: tuple, removals: tuple[int, ...], many: PassValues) -> None:
        """The split hands of ``pair``, solved elsewhere for every removal with plays ``key``."""
        solved = SolvedHands()
        solved.put_all(removals, many)
        self._solved[pair] = solved
        self._play_keys[pair] = key

    def _values(
        self, pair: int, removed: int, face_left: int | None = None
    ) -> tuple[Fraction | float, Fraction | float, Fraction | float]:
        """(free, not-pair, q): the value of one split hand drawing its second card freely,
        the value weighted by its second card not being a pair card, and P(pair card).
        ``face_left``: for same-face tens, the cards of the pair's face left before the
        ``removed`` ones (only those resplit; the hand values depend on the ten count alone)."""
        context = self.context
        # the one-card hand's values alone, read without the shoe's HandValues
        shoe, free, after, g = self._hands(pair).root(0 if context.replacement else removed, pair)
        if context.replacement:  # the next card is a pair card with the shoe's own odds
            n_left = sum(shoe)
            pair_left = shoe[pair] if face_left is None else face_left
        else:
            n_left = sum(shoe) - 1
            pair_left = shoe[pair] - 1 if face_left is None else max(face_left - removed, 0)
        pair_term = pair_left * after if after is not None and pair_left > 0 else 0
        exact = context.exact
        # float(Fraction(a, b)) is a / b correctly rounded, as a / b is: no Fraction in float mode
        if n_left <= 0:  # no card left for a second card: no resplit (the deals run out)
            pair_left, n_left, pair_term = 0, 1, 0
        q: Fraction | float = Fraction(pair_left, n_left) if exact else pair_left / n_left
        if context.model is not None:  # a counter's shoe: the pair card's odds carry its weights
            model = context.model
            card = _ONE_CARD[pair]
            drawn = context.base + model.code_of(self.extra(pair, removed)) + model.code_of(card)
            if exact:
                q *= model.draw_factor(drawn, card, n_left)
            else:
                q = pair_left / n_left * model.float_draw_factor(drawn, card, n_left)
        return quotient(free, g, exact), quotient(free - pair_term, g, exact), q

    def value(self, pair: int, first_hand_only: bool = False) -> Fraction | float:
        """The split EV of ``pair, pair`` weighted like the engine's numerators: for a peeking
        dealer with an A or T up, E[result; no dealer blackjack]; else unconditional.
        ``first_hand_only``: the result of the first (right-hand) split hand alone."""
        if (pair, first_hand_only) not in self._split_values:
            self._hands(pair)
            key = self._play_keys.get(pair)
            if key is None:
                value = self._value(pair, first_hand_only)
            else:  # another solver of these plays (a chart's, CDZ-'s) may have it already
                stacks = self.context.stacks
                shared = ("split value", key, first_hand_only)
                if shared not in stacks:
                    stacks[shared] = self._value(pair, first_hand_only)
                value = stacks[shared]
            self._split_values[pair, first_hand_only] = value
        return self._split_values[pair, first_hand_only]

    def _value(self, pair: int, first_hand_only: bool) -> Fraction | float:
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
            out = tuple(2 * (r == pair) for r in range(10))  # the pair (a counter's shoe: with its weights)
            total = total - context.draw_chance(out, context.bj_rank)
        return total


def solve_together(solvers: Sequence[SplitSolver], pair: int, reached: np.ndarray | None = None) -> None:
    """:meth:`SplitSolver.solve` of ``pair`` for several up cards' CDZ- solvers: in float mode on
    a composition shoe, those whose dealers settle a blackjack alike and whose shoes visit the
    same removals in one pass of the compiled loop for all their up cards
    (:func:`bjcalc.engine.values.solve_ups`; the same values as a pass each), the others one by
    one. ``reached``: the split graph's rows registered with the dealer batch where fewer than
    all (:meth:`bjcalc.engine.batch.ShoeIndex.register`): those the solvers' plays reach."""
    groups: dict[tuple, list[SplitSolver]] = {}
    for solver in solvers:
        context = solver.context
        if pair in solver._solved:
            continue
        if not can_solve_ups(context) or solver.decide is not None or solver.strategy is not PostSplit.CDZ:
            solver.solve(pair)
            continue
        alike = (context.peeked, context.double_loss, context.split_loss, solver.limit(pair), solver.removals(pair))
        groups.setdefault(alike, []).append(solver)
    for (_, _, loss, limit, removals), group in groups.items():
        layers = group[0].layers(pair)
        extras = tuple(group[0].extra(pair, r) for r in removals)
        todo, decisions, keys = [], [], []
        for solver in group:
            plays = solver.cdz_decisions(pair)
            key = solver._plays_key(pair, extras, plays)
            many = solver.context.stacks.get(key)
            if many is None:
                todo.append(solver)
                decisions.append(plays)
                keys.append(key)
            else:
                solver._keep(pair, key, removals, many)
        if len(todo) == 1 and reached is None:
            todo[0].solve(pair)
        elif todo:
            solved = solve_ups([s.context for s in todo], layers, extras, loss=loss, limit=limit, decisions=decisions,
                               reached=reached)
            for solver, key, many in zip(todo, keys, solved):
                solver.context.stacks[key] = many
                solver._keep(pair, key, removals, many)


_RANK_NAMES = "A23456789T"
_ONE_CARD = tuple(tuple(int(r == rank) for r in range(10)) for rank in range(10))  # one card of each rank, as counts
_TWO_CARDS = tuple(tuple(2 * c for c in card) for card in _ONE_CARD)  # a pair of each rank, as counts


def reached_rows(solvers: Sequence[SplitSolver], pair: int) -> np.ndarray:
    """The rows of the split graph of ``pair`` that some solver's CDZ- play reaches
    (``_player_kernel.reached``, as the pass of :func:`solve_together` marks them)."""
    layers = solvers[0].layers(pair)
    limit = solvers[0].limit(pair)
    flat = layers.flat
    _, double_layer = drawing_layers(layers, limit)  # as the pass has it
    decisions = [np.ascontiguousarray(flat_rows(s.cdz_decisions(pair)), dtype=np.int64) for s in solvers]
    out = np.zeros(len(flat.layer), dtype=np.uint8)
    player_kernel.reached(np.ascontiguousarray(flat.children, dtype=np.intp),
                          np.ascontiguousarray(flat.starts, dtype=np.int64), np.concatenate(decisions),
                          layers.first, limit, -1 if double_layer is None else double_layer, out)
    return out.astype(bool)


def _plays_digest(decisions: Sequence[np.ndarray], may_double: np.ndarray | None) -> bytes:
    """A fixed play of a hand graph's hands as a value: the code of every hand, layer by layer,
    and which two-card hands may double."""
    # the codes fit a byte: hashing bytes instead of int64 hashes an eighth as much (cast as
    # they are joined: one call, not one per layer)
    digest = hashlib.blake2b(flat_rows(decisions).astype(np.int8, casting="unsafe").tobytes())
    digest.update(b"-" if may_double is None else np.asarray(may_double, dtype=np.uint8).tobytes())
    return digest.digest()


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
