"""The dealer's hand: its state graph and its outcome probabilities for many shoes at once.

A dealer state is the multiset of cards drawn after the up card (hole card first). Its total,
softness and card count depend only on that multiset, so whether the dealer stops there does
too; an *order* of drawing is legal when every proper prefix is a state where the dealer draws.
The probability of one legal order for a shoe ``s`` is ``prod_r ff(s_r, m_r) / ff(|s|, |m|)``
(``ff`` = falling factorial), the same for every order of a multiset. Pushing those products
level by level through the graph counts the legal orders once per multiset and evaluates the
whole dealer for any number of shoes in one pass: the shoes are columns of a numpy array.

The graph is built with networkx (it is the natural model of "hands and draws") and compiled
once to flat index arrays, kept on disk by :mod:`bjcalc.engine.store`; the hot loop sees only
numpy arrays. It runs in the compiled loop where one is built (:mod:`bjcalc.engine.kernels`),
else in numpy; exact numerators are carried as residues or 128-bit halves
(:mod:`bjcalc.engine.residues`). Every up card's graph in one, for one pass per shoe:
:mod:`bjcalc.engine.jointdealer`.

Outcome codes: ``0..21`` the dealer stands on that total (below 17 only with a card limit),
``BUST`` and ``BLACKJACK``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from typing import TYPE_CHECKING

import numpy as np

from bjcalc.cards import ACE, BLACKJACK, BUST, TEN, hard_total
from bjcalc.engine import store
from bjcalc.engine.hands import PACK
from bjcalc.engine.kernels import dealer_kernel, dealer_kernel_available, exact_dealer_kernel_available
from bjcalc.engine.pools import in_parts
from bjcalc.engine.residues import fits_128_bits, from_residues, primes_above

if TYPE_CHECKING:
    import networkx as nx

    from bjcalc.engine.drawmodel import DrawModel

N_OUTCOMES = BLACKJACK + 1


def classify(up: int, drawn: tuple[int, ...], hit_soft_17: bool, max_cards: int | None) -> int | None:
    """The outcome where the dealer stops with ``up`` + ``drawn``, or ``None`` if the dealer draws.

    >>> classify(ACE, (0,) * 9 + (1,), False, None) == BLACKJACK
    True
    >>> classify(5, (1, 0, 0, 0, 0, 0, 0, 0, 0, 0), True, None) is None   # 6 + A: soft 17, H17
    True
    """
    has_ace = up == ACE or drawn[ACE] > 0
    return _stop(up, sum(drawn), hard_total(drawn) + up + 1, has_ace, drawn[TEN if up == ACE else ACE] == 1,
                 hit_soft_17, max_cards)


def _stop(up, n_drawn, hard, has_ace, other_half, hit_soft_17, max_cards):
    """:func:`classify` from the dealer's card count, hard total (aces 1) and whether an ace
    is held; ``other_half``: the drawn cards hold the card that makes a blackjack with ``up``."""
    if n_drawn == 1 and other_half and up in (ACE, TEN):
        return BLACKJACK
    soft = has_ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total > 21:
        return BUST
    if total > 17 or (total == 17 and not (soft and hit_soft_17)):
        return total
    if max_cards is not None and 1 + n_drawn >= max_cards:
        return total
    return None


def dealer_hand_graph(up: int, hit_soft_17: bool, max_cards: int | None) -> nx.DiGraph:
    """Every dealer state reachable by legal draws, with an edge (attribute ``rank``) per draw.

    Each node carries ``outcome``: ``None`` where the dealer draws, else the outcome code.
    """
    import networkx as nx  # only when a graph is compiled, not when its arrays are loaded

    outcomes: dict[tuple[int, ...], int | None] = {(0,) * 10: None}
    edges = []
    # a drawing state with its card count, hard total (aces 1) and whether it holds an ace
    frontier: list[tuple[tuple[int, ...], int, int, bool]] = [((0,) * 10, 0, up + 1, up == ACE)]
    other_half = TEN if up == ACE else ACE
    while frontier:
        next_frontier = []
        for state, n_drawn, hard, has_ace in frontier:
            for rank in range(10):
                child = state[:rank] + (state[rank] + 1,) + state[rank + 1 :]
                if child not in outcomes:
                    ace = has_ace or rank == ACE
                    outcome = _stop(up, n_drawn + 1, hard + rank + 1, ace, rank == other_half,
                                    hit_soft_17, max_cards)
                    outcomes[child] = outcome
                    if outcome is None:
                        next_frontier.append((child, n_drawn + 1, hard + rank + 1, ace))
                edges.append((state, child, {"rank": rank}))
        frontier = next_frontier
    graph = nx.DiGraph()
    graph.add_nodes_from((state, {"outcome": outcome}) for state, outcome in outcomes.items())
    graph.add_edges_from(edges)
    return graph


@dataclasses.dataclass(frozen=True)
class _Step:
    """Draws from the drawing states of one level to the states of the next."""

    parents: list[np.ndarray]  # per rank: index of the drawing state in its level
    children: list[np.ndarray]  # per rank: index of the child in the next level
    held: list[np.ndarray]  # per rank: how many of that rank the parent already holds
    width: int  # states in the next level
    n_drawing: int  # of which the first n_drawing draw again
    stops: dict[int, np.ndarray]  # outcome -> indices (in the next level) of states that stop
    stop_counts: np.ndarray  # counts of every stopping state of the next level (n x 10)


@dataclasses.dataclass(frozen=True)
class CompiledDealer:
    """The dealer graph for one up card and rule set, as flat arrays by level."""

    up: int
    steps: tuple[_Step, ...]

    @property
    def outcomes(self) -> list[int]:
        return sorted({o for step in self.steps for o in step.stops})

    @functools.cached_property
    def flat(self) -> _FlatDealer:
        """The same graph as the int32 arrays the compiled loop reads."""
        return _flatten(self)


@functools.lru_cache(maxsize=64)
def compiled_dealer(up: int, hit_soft_17: bool, max_cards: int | None) -> CompiledDealer:
    """:func:`dealer_hand_graph` compiled into per-level arrays: cached in memory, and on disk
    (:mod:`bjcalc.engine.store`) so that a later process loads the arrays instead."""
    return store.load_or_build(
        f"dealer-{up}-{'h17' if hit_soft_17 else 's17'}-{max_cards or 0}",
        _DIGEST,
        lambda: _compile_dealer(up, hit_soft_17, max_cards),
        _dealer_arrays,
        lambda arrays: _dealer_from_arrays(up, arrays),
    )


_DIGEST = store.source_digest(__file__)


def _dealer_arrays(dealer: CompiledDealer) -> dict[str, np.ndarray]:
    """A compiled dealer as flat arrays: each step's edges rank by rank, each next level's
    outcome per state (-1: draws again) and its stopping states' counts."""
    edges = [(step.parents[r], step.children[r], step.held[r]) for step in dealer.steps for r in range(10)]
    outcome_of = []
    for step in dealer.steps:
        codes = np.full(step.width, -1, dtype=np.int64)
        for outcome, where in step.stops.items():
            codes[where] = outcome
        outcome_of.append(codes)
    return {
        "edges": np.array([len(p) for p, _, _ in edges], dtype=np.int64),
        "parents": np.concatenate([p for p, _, _ in edges]),
        "children": np.concatenate([c for _, c, _ in edges]),
        "held": np.concatenate([h for _, _, h in edges]),
        "widths": np.array([step.width for step in dealer.steps], dtype=np.int64),
        "outcome_of": np.concatenate(outcome_of),
        "stop_counts": np.concatenate([step.stop_counts for step in dealer.steps]),
    }


def _dealer_from_arrays(up: int, arrays: dict[str, np.ndarray]) -> CompiledDealer:
    """:func:`_dealer_arrays` read back."""
    def cut(array: np.ndarray, lengths: list[int]) -> list[np.ndarray]:
        """np.split at the running sums of ``lengths`` (the same views, without its per-piece
        overhead: a dealer has about 150 pieces, and a cold process loads ten dealers)."""
        bounds = [0, *itertools.accumulate(lengths)]
        return [array[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    edges = arrays["edges"].tolist()
    parents, children, held = (cut(arrays[k].astype(np.intp), edges) for k in ("parents", "children", "held"))
    widths = arrays["widths"].tolist()
    outcome_of = cut(arrays["outcome_of"], widths)
    stopping = [int((codes >= 0).sum()) for codes in outcome_of]
    stop_counts = cut(arrays["stop_counts"], stopping)
    steps = []
    for i, width in enumerate(widths):
        codes = outcome_of[i]
        # each outcome's states in order (np.flatnonzero(codes == o) of each), by one sort
        stopped = np.flatnonzero(codes >= 0)
        by_outcome = stopped[np.argsort(codes[stopped], kind="stable")]
        found, first = np.unique(codes[by_outcome], return_index=True)
        ends = [*first.tolist()[1:], len(by_outcome)]
        steps.append(_Step(
            parents=parents[10 * i : 10 * i + 10],
            children=children[10 * i : 10 * i + 10],
            held=held[10 * i : 10 * i + 10],
            width=width,
            n_drawing=width - stopping[i],
            stops={o: by_outcome[a:b] for o, a, b in zip(found.tolist(), first.tolist(), ends)},
            stop_counts=stop_counts[i].astype(np.int64).reshape(-1, 10),
        ))
    return CompiledDealer(up=up, steps=tuple(steps))


def _compile_dealer(up: int, hit_soft_17: bool, max_cards: int | None) -> CompiledDealer:
    graph = dealer_hand_graph(up, hit_soft_17, max_cards)
    outcome_of = dict(graph.nodes(data="outcome"))
    levels: dict[int, list[tuple[int, ...]]] = {}
    for state in graph:
        levels.setdefault(sum(state), []).append(state)
    index: dict[tuple[int, ...], int] = {}
    for states in levels.values():
        # drawing states first, so that a level's drawing states are a prefix of it
        states.sort(key=lambda s: outcome_of[s] is not None)
        for i, state in enumerate(states):
            index[state] = i
    steps = []
    for size in range(max(levels)):
        drawing = [s for s in levels[size] if outcome_of[s] is None]
        nxt = levels[size + 1]
        parents: list[list[int]] = [[] for _ in range(10)]
        children: list[list[int]] = [[] for _ in range(10)]
        held: list[list[int]] = [[] for _ in range(10)]
        for position, state in enumerate(drawing):
            assert index[state] == position  # drawing states are a prefix of their level
            for child, edge in graph.adj[state].items():
                rank = edge["rank"]
                parents[rank].append(position)
                children[rank].append(index[child])
                held[rank].append(state[rank])
        stops: dict[int, list[int]] = {}
        for i, state in enumerate(nxt):
            outcome = outcome_of[state]
            if outcome is not None:
                stops.setdefault(outcome, []).append(i)
        n_drawing = sum(1 for s in nxt if outcome_of[s] is None)
        steps.append(
            _Step(
                parents=[np.array(p, dtype=np.intp) for p in parents],
                children=[np.array(c, dtype=np.intp) for c in children],
                held=[np.array(h, dtype=np.intp) for h in held],
                width=len(nxt),
                n_drawing=n_drawing,
                stops={o: np.array(i, dtype=np.intp) for o, i in stops.items()},
                stop_counts=np.array(nxt[n_drawing:], dtype=np.int64).reshape(-1, 10),
            )
        )
    return CompiledDealer(up=up, steps=tuple(steps))


def after_up(shoe: tuple[int, ...], up: int) -> tuple[int, ...]:
    """The shoe the dealer draws from once ``up`` is dealt: one card of that rank fewer."""
    return shoe[:up] + (shoe[up] - 1,) + shoe[up + 1 :]


def max_draws(dealer: CompiledDealer, shoe: tuple[int, ...], replacement: bool = False) -> int:
    """The most cards the dealer can draw (hole card included) from ``shoe`` (with
    ``replacement``, from an infinite deck of that composition)."""
    limit = np.array(shoe) if not replacement else np.full(10, np.iinfo(np.int64).max)
    deepest = 0
    for size, step in enumerate(dealer.steps, start=1):
        if len(step.stop_counts) and (step.stop_counts <= limit).all(axis=1).any():
            deepest = size
    return deepest


def dealer_depth(up: int, hit_soft_17: bool, max_cards: int | None, shoe: tuple[int, ...],
                 replacement: bool = False) -> int:
    """:func:`max_draws` of the dealer of ``up`` (the compiled graph's arguments), kept by value:
    every analysis of a counter's shoe has the same cards off the table, so the same depths.
    The shoe is kept capped at what a dealer's hand can hold of each rank (its hard total
    stays below 27), which is all that can bind: a large shoe's depleted shoes share one."""
    capped = tuple(min(n, _MOST_DRAWN[r]) for r, n in enumerate(shoe))
    return _dealer_depth(up, hit_soft_17, max_cards, capped, replacement)


_MOST_DRAWN = tuple(26 // (rank + 1) + 1 for rank in range(10))  # more than a dealer's hand holds


@functools.lru_cache(maxsize=1024)
def _dealer_depth(up: int, hit_soft_17: bool, max_cards: int | None, shoe: tuple[int, ...], replacement: bool) -> int:
    return max_draws(compiled_dealer(up, hit_soft_17, max_cards), shoe, replacement)


def outcome_numerators(
    dealer: CompiledDealer,
    shoe: tuple[int, ...],
    removed: np.ndarray,
    depth: int,
    exact: bool,
    chunk: int = 256,
    replacement: bool = False,
    model: DrawModel | None = None,
    base: int = 0,
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """Dealer outcome probabilities for many shoes ``shoe - removed[i]``, as numerators.

    ``shoe`` is the shoe after the up card; ``removed`` is an ``(n, 10)`` array of further
    cards taken out (player hands, split cards). Returns ``(numerators, denominators)``: for
    each outcome an array over the ``n`` shoes, all over the common denominator
    ``ff(|shoe| - |removed[i]|, depth)``, which is also returned. ``depth`` must be at least
    :func:`max_draws` for the shoe. In exact mode the arrays hold Python ints. The shoes are
    processed ``chunk`` at a time so that the working arrays stay in cache. ``replacement``:
    cards are drawn with replacement (the infinite deck): ``removed`` changes nothing, and the
    numerators are over ``|shoe| ** depth``. ``model``: the shoe is a counter's shoe
    (:mod:`bjcalc.engine.drawmodel`; ``shoe`` the cards off the table less the up card, some of
    them hidden discards): every stopping state is weighted by the class totals drawn, ``base``
    (packed: the up card's) plus the removed cards plus the dealer's; the denominators are
    ``ff(cards left, depth)`` and every numerator carries the weights of the model (in numpy
    or exactly: float mode's compiled loop weighs every up card at once in the joint pass,
    :func:`bjcalc.engine.jointdealer.joint_numerators`).
    """
    removed = np.asarray(removed, dtype=np.int64).reshape(-1, 10)
    if replacement:
        return _replacement_numerators(dealer, shoe, len(removed), depth, exact)
    if model is None and (exact_halves_fit(shoe, removed, depth) if exact else dealer_kernel_available()):
        return _kernel_numerators(dealer, shoe, removed, depth, exact)
    parts = [
        _outcome_numerators(dealer, shoe, removed[i : i + chunk], depth, exact, model, base)
        for i in range(0, max(len(removed), 1), chunk)
    ]
    numerators = {o: np.concatenate([p[0][o] for p in parts]) for o in dealer.outcomes}
    return numerators, np.concatenate([p[1] for p in parts])


def _replacement_numerators(
    dealer: CompiledDealer, shoe: tuple[int, ...], n: int, depth: int, exact: bool
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """:func:`outcome_numerators` drawing with replacement: one evaluation, the same for all
    ``n`` shoes. A draw of rank ``r`` has weight ``shoe[r]`` out of ``|shoe|`` whatever the
    dealer holds."""
    dtype = object if exact else np.float64
    size = sum(shoe)
    weight = [int(c) if exact else float(c) for c in shoe]
    values = np.ones(1, dtype=dtype)
    numerators = {o: np.zeros(1, dtype=dtype) for o in dealer.outcomes}
    for step in dealer.steps[:depth]:
        for outcome in numerators:
            numerators[outcome] = numerators[outcome] * size
        following = np.zeros(step.width, dtype=dtype)
        for rank in range(10):
            np.add.at(following, step.children[rank], values[step.parents[rank]] * weight[rank])
        for outcome, where in step.stops.items():
            numerators[outcome] = numerators[outcome] + following[where].sum()
        values = following[: step.n_drawing]
    denominator = size**depth if exact else float(size) ** depth
    out = {o: np.full(n, v[0], dtype=dtype) for o, v in numerators.items()}
    return out, np.full(n, denominator, dtype=dtype)


def exact_halves_fit(shoe: tuple[int, ...], removed: np.ndarray, depth: int) -> bool:
    """Whether the compiled exact loop runs for the shoes ``shoe - removed``."""
    return exact_dealer_kernel_available() and fits_128_bits(shoe, removed, depth)


def exact_kernel_fits(shoe: tuple[int, ...], depth: int) -> bool:
    """Whether the compiled exact loop runs for ``shoe`` and every shoe depleted from it."""
    return exact_halves_fit(shoe, np.zeros((1, 10), dtype=np.int64), depth)


@dataclasses.dataclass(frozen=True)
class _FlatDealer:
    """:class:`CompiledDealer` as the int32 arrays the compiled loop reads."""

    edge_start: np.ndarray
    parent: np.ndarray
    child: np.ndarray
    rank: np.ndarray
    held: np.ndarray
    width: np.ndarray
    node_start: np.ndarray
    stop: np.ndarray  # per state of each next level: outcome slot, -1 = draws again
    max_width: int
    max_held: int
    outcomes: tuple[int, ...]  # outcome of each slot


def _flatten(dealer: CompiledDealer) -> _FlatDealer:
    outcomes = tuple(dealer.outcomes)
    slot = {o: i for i, o in enumerate(outcomes)}
    parent, child, rank, held, stop, edge_start, node_start = [], [], [], [], [], [0], [0]
    for step in dealer.steps:
        for r in range(10):
            parent.extend(step.parents[r].tolist())
            child.extend(step.children[r].tolist())
            held.extend(step.held[r].tolist())
            rank.extend([r] * len(step.parents[r]))
        edge_start.append(len(parent))
        stops = [-1] * step.width
        for outcome, where in step.stops.items():
            for i in where.tolist():
                stops[i] = slot[outcome]
        stop.extend(stops)
        node_start.append(len(stop))
    i32 = functools.partial(np.array, dtype=np.int32)
    return _FlatDealer(
        edge_start=i32(edge_start), parent=i32(parent), child=i32(child), rank=i32(rank),
        held=i32(held), width=i32([s.width for s in dealer.steps]), node_start=i32(node_start),
        stop=i32(stop), max_width=max([s.width for s in dealer.steps], default=1),
        max_held=max(held, default=0), outcomes=outcomes,
    )


def exact_halves(dealer: CompiledDealer, shoe: tuple[int, ...], removed: np.ndarray, depth: int) -> np.ndarray | None:
    """The exact numerators of :func:`outcome_numerators` as 128-bit integers in two uint64
    halves, shape (shoes, outcomes in ``dealer.outcomes`` order, [high, low]): a sixth of the
    memory of Python ints, joined only when read (:func:`bjcalc.engine.residues.join_halves`). ``None`` where the
    compiled exact loop cannot run for these shoes."""
    removed = np.asarray(removed, dtype=np.int64).reshape(-1, 10)
    if not exact_halves_fit(shoe, removed, depth):
        return None
    out = _kernel_numerators(dealer, shoe, removed, depth, exact=True, halves=True)[0]
    return np.stack([out[o] for o in dealer.outcomes], axis=1)


def _kernel_numerators(dealer, shoe, removed, depth, exact=False, halves=False):
    """The compiled loop; large batches are cut into one part per core (it releases the GIL).
    Exact: 128-bit integers, returned as two uint64 halves and joined into Python ints (or, with
    ``halves``, kept as (shoes, 2) [high, low] pairs per outcome)."""
    flat = dealer.flat
    left = np.ascontiguousarray(np.asarray(shoe, dtype=np.int64)[None, :] - removed)
    graph = (flat.edge_start, flat.parent, flat.child, flat.rank, flat.held, flat.width,
             flat.node_start, flat.stop, flat.max_width, flat.max_held, depth)

    if not exact:
        # one (shoes, outcomes) array, each part of the shoes filling its own rows (no join)
        matrix = np.empty((len(left), len(flat.outcomes)), dtype=np.float64)
        in_parts(lambda start, stop: dealer_kernel.numerators(*graph, left[start:stop], matrix[start:stop], True),
                 len(left), 4096)
        return dict(zip(flat.outcomes, matrix.T)), _denominators(left.sum(axis=1), depth, exact)

    def part(rows: np.ndarray) -> np.ndarray:
        low = np.empty((len(flat.outcomes), len(rows)), dtype=np.uint64)  # every entry is filled in
        high = np.empty_like(low)
        dealer_kernel.numerators_exact(*graph, rows, low, high)
        if halves:
            return np.stack([high, low], axis=-1)  # (outcomes, rows, 2)
        return high.astype(object) * 2**64 + low.astype(object)

    parts = in_parts(lambda start, stop: part(left[start:stop]), len(left), 256)
    out = np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0]
    # halves are read without the denominators (a Python int per shoe: 7 % of an exact edge --sd)
    denominators = np.zeros(0) if halves else _denominators(left.sum(axis=1), depth, exact)
    return dict(zip(flat.outcomes, out)), denominators


class _StopWeights:
    """A counter's shoe (:mod:`bjcalc.engine.drawmodel`): the weight of each stopping state of a
    level for each row, by the class totals of the row's cards (``base``, the up card's, plus
    the removed ones) and of the dealer's. Both take few distinct values, so the weights are
    tabled by (distinct, distinct) and gathered."""

    def __init__(self, model: DrawModel, base: int, removed: np.ndarray) -> None:
        self.model = model
        self.rows, self.inverse = model.distinct_index(base + model.codes(removed))

    def table(self, step: _Step, exact: bool) -> tuple[np.ndarray, np.ndarray]:
        """The weights of the step's stopping states' distinct class totals (rows: those, columns:
        the distinct rows') and which of them each stopping state has."""
        codes, inverse = self.model.distinct_index(self.model.codes(step.stop_counts))
        return self.model.weights(codes[:, None] + self.rows[None, :], exact), inverse

    def of(self, step: _Step) -> np.ndarray:
        """Float weights, (stopping states, rows)."""
        table, inverse = self.table(step, False)
        return table[inverse][:, self.inverse]


def _outcome_numerators(dealer, shoe, removed, depth, exact, model=None, base=0):
    """The numpy pass; ``model``, ``base``: a counter's shoe (:func:`outcome_numerators`)."""
    if exact:
        return _exact_numerators(dealer, shoe, removed, depth, model, base)
    dtype = np.float64
    n = len(removed)
    left = np.asarray(shoe, dtype=np.int64)[None, :] - removed  # (n, 10)
    n_left = left.sum(axis=1) - (0 if model is None else model.hidden)  # the cards left
    weights = None if model is None else _StopWeights(model, base, removed)
    most = depth + 1  # the dealer never holds more than ``depth`` cards of one rank
    # available[r][c] = cards of rank r still in the shoe when the dealer already holds c
    available = []
    for rank in range(10):
        table = np.maximum(left[:, rank][None, :] - np.arange(most)[:, None], 0)
        available.append(_as(table, exact))
    values = np.ones((1, n), dtype=dtype)
    numerators = {o: np.zeros(n, dtype=dtype) for o in dealer.outcomes}
    for size, step in enumerate(dealer.steps[:depth]):
        scale = _as(np.maximum(n_left - size, 1), exact)  # past the last card: 1 (falling_left)
        for outcome in numerators:
            numerators[outcome] = numerators[outcome] * scale
        following = np.zeros((step.width, n), dtype=dtype)
        for rank in range(10):
            # every drawing state has a child for every rank, in order: parents are a prefix
            following[step.children[rank]] += values * available[rank][step.held[rank]]
        stopped = following if weights is None else _weighted(following, step, weights.of(step))
        for outcome, where in step.stops.items():
            numerators[outcome] = numerators[outcome] + stopped[where].sum(axis=0)
        values = following[: step.n_drawing]
    return numerators, _denominators(n_left, depth, exact)


def _weighted(following: np.ndarray, step: _Step, weights: np.ndarray, moduli: np.ndarray | None = None
              ) -> np.ndarray:
    """A level's states with its stopping states (the last ones) times their weights (``moduli``:
    residues, the weights per prime first)."""
    out = following.copy()
    if moduli is None:
        out[step.n_drawing :] *= weights
    else:
        out[:, step.n_drawing :] = out[:, step.n_drawing :] * weights % moduli[:, None, None]
    return out


def _exact_numerators(dealer, shoe, removed, depth, model=None, base=0):
    """The exact numerators without big integers in the loop: every numerator is a
    non-negative integer below its denominator ``ff(cards left, depth)`` (a counter's shoe:
    times ``Z(M)``, the largest weight), so it is computed modulo enough primes below 2**31
    (int64 arithmetic) and rebuilt by the Chinese remainder theorem
    (:mod:`bjcalc.engine.residues`)."""
    n = len(removed)
    left = np.asarray(shoe, dtype=np.int64)[None, :] - removed
    n_left = left.sum(axis=1) - (0 if model is None else model.hidden)
    weights = None if model is None else _StopWeights(model, base, removed)
    bound = 1 if model is None else model.total
    for size in range(depth):
        bound *= max(int(n_left.max(initial=0)) - size, 1)
    primes = primes_above(bound)
    moduli = np.array(primes, dtype=np.int64)
    m3, m2 = moduli[:, None, None], moduli[:, None]
    most = depth + 1  # the dealer never holds more than ``depth`` cards of one rank
    available = [
        np.maximum(left[:, rank][None, :] - np.arange(most)[:, None], 0) for rank in range(10)
    ]
    values = np.ones((len(primes), 1, n), dtype=np.int64)
    residues = {o: np.zeros((len(primes), n), dtype=np.int64) for o in dealer.outcomes}
    for size, step in enumerate(dealer.steps[:depth]):
        scale = np.maximum(n_left - size, 1)[None, :]  # past the last card: 1 (falling_left)
        for outcome in residues:
            residues[outcome] = residues[outcome] * scale % m2
        following = np.zeros((len(primes), step.width, n), dtype=np.int64)
        for rank in range(10):
            following[:, step.children[rank]] += values * available[rank][step.held[rank]]
        following %= m3
        stopped = following
        if weights is not None:
            table, inverse = weights.table(step, True)
            table_mod = np.array([[[int(w) % p for w in line] for line in table] for p in primes],
                                 dtype=np.int64).reshape(len(primes), *table.shape)
            stopped = _weighted(following, step, table_mod[:, inverse][:, :, weights.inverse], moduli)
        for outcome, where in step.stops.items():
            residues[outcome] = (residues[outcome] + stopped[:, where].sum(axis=1)) % m2
        values = following[:, : step.n_drawing]
    numerators = {outcome: from_residues(r, primes) for outcome, r in residues.items()}
    return numerators, _denominators(n_left, depth, True)


def _denominators(n_left: np.ndarray, depth: int, exact: bool) -> np.ndarray:
    """``ff(n_left, depth)`` for each shoe, each factor at least 1
    (:func:`bjcalc.numbers.falling_left`): the common denominator of its outcome numerators."""
    out = _as(np.ones(len(n_left), dtype=np.int64), exact)
    for size in range(depth):
        out = out * _as(np.maximum(n_left - size, 1), exact)
    return out


def _as(array: np.ndarray, exact: bool) -> np.ndarray:
    """An integer array as Python ints (exact) or floats."""
    if exact:
        return np.array(array.tolist(), dtype=object).reshape(array.shape)
    return array.astype(np.float64)


def projected_numerators(
    dealer: CompiledDealer, shoe: tuple[int, ...], removed: np.ndarray, depth: int, rank: int,
    keys: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Float :func:`outcome_numerators` of the shoes ``shoe - removed[i]`` as one (shoes, outcomes
    in ``dealer.outcomes`` order) array and their denominators, for shoes that differ mostly in
    their cards of ``rank`` (a split's: its multisets with more pair cards out at each removal).
    The compiled loop makes one pass per projection (the shoes' counts but for ``rank``) and
    each shoe takes its stopping states' sums with its own factors for its cards of ``rank``
    (``_dealer_kernel.numerators_projected``): 8 decks, a whole game's split moments made 1.43
    million passes, now 227,000. The same numbers as :func:`outcome_numerators`, summed in
    another order. ``keys``: the removals packed (``removed @ PACK``), where the caller has them."""
    flat = dealer.flat
    removed = np.asarray(removed).reshape(-1, 10)
    # the shoes by projection (one sort): members[first[g] .. first[g + 1] - 1] share projection g
    if keys is None and len(removed) and int(removed.max()) >= 64:  # beyond PACK's six bits a rank
        others = removed.astype(np.int64)
        others[:, rank] = 0
        projected = np.unique(others, axis=0, return_inverse=True)[1].reshape(-1)
    else:
        if keys is None:
            keys = removed.astype(np.int64) @ PACK
        projected = keys - removed[:, rank].astype(np.int64) * PACK[rank]
    members = np.argsort(projected, kind="stable")
    ordered = projected[members]
    new = np.empty(len(ordered), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    first = np.append(starts, len(ordered)).astype(np.int64)
    first_at = members[starts]
    counts = np.asarray(shoe, dtype=np.int64)
    left = counts[None, :] - removed[first_at]
    projections = np.ascontiguousarray(left, dtype=np.int64)
    pair_left = counts[rank] - removed[:, rank].astype(np.int64)
    n_left = int(counts.sum()) - removed.sum(axis=1, dtype=np.int64)
    matrix = np.empty((len(removed), len(flat.outcomes)), dtype=np.float64)
    graph = (flat.edge_start, flat.parent, flat.child, flat.rank, flat.held, flat.width,
             flat.node_start, flat.stop, flat.max_width, flat.max_held, depth, rank)
    # each part's projections fill the rows of their own shoes
    in_parts(lambda start, stop: dealer_kernel.numerators_projected(
        *graph, projections[start:stop], first[start : stop + 1], members, pair_left, n_left, matrix),
        len(first_at), 256)
    return matrix, _denominators(n_left, depth, False)
