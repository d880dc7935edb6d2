"""What each play is worth for a hand under a policy, and in which frame: the one home of the
payouts (a natural's, surrender's), of the peek's conditioning and of the conversions between
frames.

Three frames, which differ only against a peeking dealer with an A or T up (elsewhere all
three are the unconditional EV):

- :attr:`Frame.JOINT`, the engine's measure: the unconditional EV plus P(dealer blackjack)
  times the bet a dealer blackjack takes (1 for every hand but a natural, which pushes); for
  every play settled after the peek it is E[result; no dealer blackjack];
- :attr:`Frame.CONDITIONED`: E[result | no dealer blackjack], the joint value over
  P(no dealer blackjack);
- :attr:`Frame.UNCONDITIONAL`: E[result], what the round adds up.

>>> from bjcalc.engine.analyser import Engine
>>> from bjcalc.engine.split import PostSplit
>>> from bjcalc.engine.walk import Optimal
>>> from bjcalc.rules import Rules
>>> engine = Engine(Rules(decks=1), True, PostSplit.CDZ)
>>> values, p_bj = action_values(engine, Optimal(engine), 0, (1,) + (0,) * 8 + (1,), frame=Frame.UNCONDITIONAL)
>>> values, p_bj  # A,T against an ace: 15 tens among the 49 cards left; paid 3:2 unless one is the hole card
({Action.STAND: Fraction(51, 49)}, Fraction(15, 49))
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import TEN, counts_total, is_blackjack
from bjcalc.errors import InvalidShoeError
from bjcalc.rules import Surrender

if TYPE_CHECKING:
    from bjcalc.engine.analyser import Engine
    from bjcalc.engine.split import SplitSolver
    from bjcalc.engine.values import HandValues

EngineNumber = Fraction | float  # Fraction in exact mode, float otherwise


class Frame(str, enum.Enum):
    """The frame a value is in (see the module docstring); the value is the name outputs print."""

    JOINT = "joint"
    CONDITIONED = "conditioned"
    UNCONDITIONAL = "unconditional"


def reframe(value: Any, p_bj: Any, source: Frame, target: Frame, at_blackjack: int = -1) -> Any:
    """``value`` (an EV, a moment or a probability, in engine or API numbers) from the frame
    ``source`` to ``target``, against a peeking dealer's A or T, whose blackjack has
    probability ``p_bj``. ``at_blackjack``: what the quantity is when the dealer has blackjack
    (an EV: -1, the bet lost, or 0, a natural's push; a second moment: 1; a probability: 1 if
    the event happens then, else 0).

    >>> reframe(Fraction(1, 2), Fraction(1, 10), Frame.CONDITIONED, Frame.UNCONDITIONAL)
    Fraction(7, 20)
    """
    if source is target:
        return value
    if source is Frame.CONDITIONED:
        value = value * (1 - p_bj)
    elif source is Frame.UNCONDITIONAL and at_blackjack:
        value = value - at_blackjack * p_bj
    if target is Frame.CONDITIONED:
        return value / (1 - p_bj)
    if target is Frame.UNCONDITIONAL and at_blackjack:
        return value + at_blackjack * p_bj
    return value


def hand_frame(rules: Any, peeked: bool, initial: bool) -> Frame:
    """The frame a hand's EVs are shown in: conditioned on no dealer blackjack after a peek;
    unconditional where there is none, and for the first decision with early surrender (it
    comes before the peek)."""
    early = initial and rules.surrender is Surrender.EARLY
    return Frame.CONDITIONED if peeked and not early else Frame.UNCONDITIONAL


def natural_value(pays: Any, p_bj: Any, power: int = 1) -> Any:
    """A natural's payout (its ``power``-th moment), paid unless the dealer has blackjack too
    (a push): the same in the joint and the unconditional frames. ``pays`` in the engine's
    number type."""
    return pays**power * (1 - p_bj)


def surrender_value(surrender: Surrender, peeked: bool, p_bj: Any, frame: Frame = Frame.JOINT, power: int = 1) -> Any:
    """Surrendering (its ``power``-th moment, 1 or 2; the second only unconditional) in
    ``frame``. ``p_bj`` (P(dealer blackjack)) may be a Fraction, a float or a numpy array of
    floats.

    Late: -1/2 after the peek; with no hole card a dealer blackjack still takes the whole bet.
    Early: -1/2 whatever the dealer holds (so its joint value is -1/2 + P(blackjack)).
    """
    half = Fraction(1, 2) if isinstance(p_bj, Fraction) else 0.5
    if power == 2:
        if frame is not Frame.UNCONDITIONAL:
            raise ValueError(f"a surrender's second moment is unconditional, not {frame.value}")
        return half**2 if surrender is Surrender.EARLY else half**2 * (1 - p_bj) + p_bj
    if frame is Frame.UNCONDITIONAL:
        return p_bj * 0 - half if surrender is Surrender.EARLY else -(1 - p_bj) * half - p_bj
    if surrender is Surrender.EARLY:
        joint = p_bj - half if peeked else p_bj * 0 - half
    else:
        joint = -(1 - p_bj) * half - (0 if peeked else p_bj)
    return joint if frame is Frame.JOINT else reframe(joint, p_bj, Frame.JOINT, frame)


def insured_moments(value: Any, square: Any, p_bj: Any, natural: bool) -> tuple[Any, Any]:
    """A hand's result ``M`` (unconditional ``E[M] = value``, ``E[M^2] = square``) with
    insurance ``I`` taken beside it against an ace (a peeking dealer): ``(E[M + I], E[(M +
    I)^2])``. Insurance (half a bet, 2:1) wins 1 when the dealer has blackjack (chance
    ``p_bj``) and loses 1/2 otherwise; the hand then has ``M`` = 0 (a natural pushes) or -1 (the
    original bet), so ``E[M I] = E[M; blackjack] - E[M; no blackjack] / 2`` comes from ``value``
    and ``p_bj`` alone."""
    half = Fraction(1, 2) if isinstance(p_bj, Fraction) else 0.5
    at_blackjack = p_bj * (0 if natural else -1)  # E[M; blackjack]
    insurance = p_bj - (1 - p_bj) * half
    insurance_square = p_bj + (1 - p_bj) * half * half
    product = at_blackjack - (value - at_blackjack) * half
    return value + insurance, square + insurance_square + 2 * product


class Plays(Protocol):
    """How a policy plays after the first decision: its unsplit hands' values and its splits."""

    def hands(self, up: int) -> HandValues:
        ...

    def splits(self, up: int) -> SplitSolver:
        ...


def offered(
    rules: Any, table: HandValues | _TableShape, counts: tuple[int, ...], same_face: bool = True
) -> list[Action]:
    """The plays the rules offer a hand (rank counts), in :class:`Action` order: a natural is
    paid (stand); a two-card hand may double, split and surrender where the rules allow."""
    layer, _ = table.layers.index[counts]
    initial = layer == 0
    if initial and is_blackjack(counts):
        return [Action.STAND]
    total, soft = counts_total(counts)
    out = [Action.STAND]
    if table.can_hit[layer]:
        out.append(Action.HIT)
        if initial and rules.double.allows_total(total) and (rules.double_soft or not soft):
            out.append(Action.DOUBLE)
    if initial:
        pair = next((r for r in range(10) if counts[r] == 2), None)
        splittable = same_face or pair != TEN or rules.split_unlike_tens
        if pair is not None and rules.split_hands >= 2 and splittable:
            out.append(Action.SPLIT)
        if rules.surrender is not Surrender.NONE:
            out.append(Action.SURRENDER)
    return out


def action_values(
    engine: Engine,
    plays: Plays,
    up: int,
    counts: tuple[int, ...],
    same_face: bool = True,
    frame: Frame = Frame.JOINT,
    actions: Sequence[Action] | None = None,
    single_bet: bool = False,
) -> tuple[dict[Action, EngineNumber], EngineNumber]:
    """The value of each play (``actions``, default those the rules offer: :func:`offered`)
    for a hand (rank counts) against ``up``, the hands after it played by ``plays``, in
    ``frame``; and P(dealer blackjack). ``same_face``: for two tens where unlike tens may not
    be split, whether they are of one face. A natural's stand is its payout; asked for, its hit
    and double are those of a soft 21. ``single_bet``: a bet that cannot follow a double (one
    card, then stand, at the single bet) or a split (the first hand only), as Bet Behind's.
    """
    rules = engine.rules
    table = plays.hands(up)
    layer, row = table.layers.index[counts]
    scale = table.row_scale(layer, row)
    div = engine.div
    p_bj = div(table.blackjack[layer][row], scale)
    if frame is Frame.CONDITIONED and table.peeked and p_bj == 1:
        raise InvalidShoeError("the dealer always has blackjack with this shoe and up card")
    natural = layer == 0 and is_blackjack(counts)
    values: dict[Action, EngineNumber] = {}
    for action in offered(rules, table, counts, same_face) if actions is None else actions:
        settled = natural and action is Action.STAND
        if action is Action.SURRENDER:
            values[action] = surrender_value(rules.surrender, table.peeked, p_bj, frame)
            continue
        value: EngineNumber
        if settled:
            value = natural_value(engine.number(rules.blackjack_pays), p_bj)
        elif action is Action.STAND:
            value = div(table.stand[layer][row], scale)
        elif action is Action.HIT:
            value = div(table.hit[layer][row], scale)
        elif action is Action.DOUBLE and single_bet:
            assert table.one_card is not None
            value = div(table.one_card[row], scale)
        elif action is Action.DOUBLE:
            assert table.double is not None  # the two-card layer can draw
            value = div(table.double[row], scale)
        else:
            pair = next(r for r in range(10) if counts[r] == 2)
            value = plays.splits(up).value(pair, first_hand_only=single_bet)
        if table.peeked:
            value = reframe(value, p_bj, Frame.JOINT, frame, at_blackjack=0 if settled else -1)
        values[action] = value
    return values, p_bj


def best_play(
    engine: Engine, plays: Plays, up: int, counts: tuple[int, ...], same_face: bool = True,
    frame: Frame = Frame.UNCONDITIONAL,
) -> tuple[Action, EngineNumber]:
    """The best play for a hand (chosen on the joint values, ties to the first in
    :class:`Action` order) and its value in ``frame``."""
    joint, p_bj = action_values(engine, plays, up, counts, same_face)
    action, value = max(joint.items(), key=lambda item: item[1])
    peeked = plays.hands(up).peeked
    if action is Action.SURRENDER:
        return action, surrender_value(engine.rules.surrender, peeked, p_bj, frame)
    settled = action is Action.STAND and is_blackjack(counts)
    return action, reframe(value, p_bj, Frame.JOINT, frame, at_blackjack=0 if settled else -1) if peeked else value


# the plays in Action order, as the columns of best_plays' values
_ACTIONS = tuple(Action)


def best_plays(
    engine: Engine, plays: Plays, up: int, hands: Sequence[tuple[tuple[int, ...], bool]]
) -> list[tuple[Action, EngineNumber]]:
    """:func:`best_play` (unconditional) of each two-card hand of ``hands`` (rank counts and
    ``same_face``). In float mode on a composition shoe, worked out for all of them at once in
    numpy, with the same operations on the same numbers (so the same plays and the same
    floats): a round's first decisions cost 20 us a hand one at a time."""
    table = plays.hands(up)
    if engine.exact or table.weights is not None or not hands:
        return [best_play(engine, plays, up, counts, same) for counts, same in hands]
    joint = _JointFirst.of(engine, plays, up, hands)
    best = np.where(joint.offers, joint.values, -np.inf).argmax(axis=1)  # the first of equal values, as max
    value = joint.in_frame(engine.rules.surrender, table.peeked, Frame.UNCONDITIONAL)[np.arange(len(best)), best]
    return [(_ACTIONS[b], v) for b, v in zip(best.tolist(), value.tolist())]


class FirstValues(NamedTuple):
    """:func:`action_values` of every two-card hand of an up card in one frame, worked out at
    once (:func:`first_values`): ``at`` (rank counts, same_face) -> row; for each row the
    value of each play in Action order, which plays are shown (offered; a natural's stand, hit
    and double) and P(dealer blackjack)."""

    at: dict[tuple[tuple[int, ...], bool], int]
    values: list[list[float]]
    shown: list[list[bool]]
    p_bj: list[float]

    def get(self, counts: tuple[int, ...], same_face: bool) -> tuple[dict[Action, EngineNumber], EngineNumber] | None:
        """What :func:`action_values` gives the hand (its default plays; a natural's shown
        ones), or None where it is not among these hands."""
        row = self.at.get((counts, same_face))
        if row is None:
            return None
        values, shown = self.values[row], self.shown[row]
        return {action: values[i] for i, action in enumerate(_ACTIONS) if shown[i]}, self.p_bj[row]


def first_values(engine: Engine, plays: Plays, up: int, hands: Sequence[tuple[tuple[int, ...], bool]],
                 frame: Frame) -> FirstValues | None:
    """:class:`FirstValues` of ``hands`` in ``frame``: the numbers :func:`action_values` gives
    each (the same operations, in numpy), for a hand's plays shown as a hand's EVs are (a
    natural's stand, hit and double). None in exact mode, on a counter's shoe, or where a
    conditioned value would divide by P(no dealer blackjack) = 0."""
    table = plays.hands(up)
    if engine.exact or table.weights is not None or not hands:
        return None
    joint = _JointFirst.of(engine, plays, up, hands)
    if frame is Frame.CONDITIONED and table.peeked and (joint.p_bj == 1).any():
        return None  # action_values raises for those hands
    values = joint.in_frame(engine.rules.surrender, table.peeked, frame)
    shown = np.where(joint.natural[:, None], [True, True, table.double is not None, False, False], joint.offers)
    return FirstValues({hand: row for row, hand in enumerate(hands)}, values.tolist(), shown.tolist(),
                       joint.p_bj.tolist())


class _JointFirst(NamedTuple):
    """The joint value of every play of each two-card hand of an up card (hands x plays, in
    Action order; a natural's stand is its payout), worked out at once: what :func:`best_plays`
    and :func:`first_values` start from."""

    values: np.ndarray
    offers: np.ndarray
    natural: np.ndarray
    p_bj: np.ndarray

    @classmethod
    def of(cls, engine: Engine, plays: Plays, up: int, hands: Sequence[tuple[tuple[int, ...], bool]]) -> _JointFirst:
        table = plays.hands(up)
        rules = engine.rules
        rows, offers, natural, pair = _first_shape(
            tuple(hands), _TableShape(table.layers, tuple(table.can_hit)),
            _OfferRules(rules.double, rules.double_soft, rules.split_hands, rules.split_unlike_tens, rules.surrender))
        scale = float(table.scale[0])
        p_bj = table.blackjack[0][rows] / scale
        values = np.full((len(rows), len(_ACTIONS)), -np.inf)
        stand = table.stand[0][rows] / scale
        values[:, 0] = np.where(natural, natural_value(float(rules.blackjack_pays), p_bj), stand)
        values[:, 1] = table.hit[0][rows] / scale
        if table.double is not None:
            values[:, 2] = table.double[rows] / scale
        splits = np.zeros(10)
        for rank in set(pair[offers[:, 3]].tolist()):
            splits[rank] = float(plays.splits(up).value(rank))
        values[:, 3] = splits[pair]
        if rules.surrender is not Surrender.NONE:
            values[:, 4] = surrender_value(rules.surrender, table.peeked, p_bj)
        return cls(values, offers, natural, p_bj)

    def in_frame(self, surrender: Surrender, peeked: bool, frame: Frame) -> np.ndarray:
        """Every play's value in ``frame`` (conditioned or unconditional), as :func:`action_values`
        reframes them one by one: the same operations (surrender's from its own frame; against a
        peeking dealer a natural's stand is settled at a push, every other play loses the bet
        to a blackjack)."""
        p_bj, values = self.p_bj, self.values.copy()
        if surrender is not Surrender.NONE:
            values[:, 4] = surrender_value(surrender, peeked, p_bj, frame)
        if peeked and frame is Frame.CONDITIONED:
            values[:, :4] = values[:, :4] / (1 - p_bj)[:, None]
        elif peeked and frame is Frame.UNCONDITIONAL:
            settled = np.zeros((len(values), 4), dtype=bool)
            settled[:, 0] = self.natural
            values[:, :4] = np.where(settled, values[:, :4], values[:, :4] + -1 * p_bj[:, None])
        return values


class _OfferRules(NamedTuple):
    """What :func:`offered` reads of the rules."""

    double: Any
    double_soft: bool
    split_hands: int
    split_unlike_tens: bool
    surrender: Surrender


class _TableShape(NamedTuple):
    """What :func:`offered` reads of a table: its graph and which layers may draw."""

    layers: Any
    can_hit: tuple[bool, ...]


def _first_shape(
    hands: tuple[tuple[tuple[int, ...], bool], ...], table: _TableShape, rules: _OfferRules
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For :func:`best_plays`: each hand's row in the two-card layer, the plays :func:`offered`
    offers it (hands x plays, in Action order), whether it is a natural and its pair rank (0
    where none). Kept with the graph by what else it depends on: the hands and what
    :func:`offered` reads (the same for the depleted shoes of a large shoe)."""
    key = ("first plays", hands, table.can_hit, rules)
    kept = table.layers.derived.get(key)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    rows, offers, natural, pair = [], [], [], []
    for counts, same_face in hands:
        layer, row = table.layers.index[counts]
        assert layer == 0
        rows.append(row)
        offers.append([action in offered(rules, table, counts, same_face) for action in _ACTIONS])
        natural.append(is_blackjack(counts))
        pair.append(next((r for r in range(10) if counts[r] == 2), 0))
    out = (np.array(rows, dtype=np.intp), np.array(offers, dtype=bool).reshape(-1, len(_ACTIONS)),
           np.array(natural, dtype=bool), np.array(pair, dtype=np.intp))
    for array in out:
        array.flags.writeable = False
    table.layers.derived[key] = out
    return out
