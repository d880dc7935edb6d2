"""Playing efficiency (PE): the share of the gain from perfect strategy variation that a point
count gains, Griffin's normal-model estimate (The Theory of Blackjack) over the first decisions
of two-card hands (their frequencies and the EORs of each decision's two best plays,
:func:`strategy_variations`) and an even spread of depths (:func:`even_depths`). A normal-model
estimate, in floating point, not an exact figure. See docs/counting.md for the model written out.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.cards import Rank, counts_total, is_blackjack
from bjcalc.counting.plays import PlayEffects
from bjcalc.counting.systems import CountSystem
from bjcalc.counting.workers import map_jobs
from bjcalc.engine.door import Frame, reframe
from bjcalc.errors import BjcalcError, InvalidRulesError
from bjcalc.rules import Rules


@dataclasses.dataclass(frozen=True)
class StrategyVariation:
    """One strategy variation, as Griffin's playing efficiency weighs it: a hand against an up
    card, its basic play (the better of the two on the full shoe) against the alternative.

    ``margin``: EV(basic) - EV(alternative) on the full shoe, per initial bet, in the hand's
    frame (0 or more); ``eor``: the EOR of that difference for each rank, A first (0 where the
    shoe left holds none); ``counts``: the shoe left after the hand and the up card (A..T), the
    one the EORs are taken on; ``frequency``: the chance per round that the decision arises
    (the hand and up card dealt, and no dealer blackjack where the hand's frame excludes it)."""

    label: str
    margin: float
    eor: tuple[float, ...]
    counts: tuple[int, ...]
    frequency: float

    @classmethod
    def from_effects(cls, play: PlayEffects, frequency: float) -> StrategyVariation:
        """The variation of ``play`` (``first`` the basic play, ``second`` the alternative)."""
        counts = play.rules.without(list(play.cards) + [play.up]).shoe_counts
        eor = play.eor
        return cls(play.label, float(play.difference), tuple(float(eor.get(Rank.from_index(r), 0)) for r in range(10)),
                   counts, frequency)

    def sd(self, seen: int) -> float:
        """The standard deviation of the EV difference over the shoes left after ``seen`` cards
        drawn at random (besides the hand and up card), in Griffin's linear model:
        ``sqrt((M - 1) seen / (M - seen) var_p(EOR))`` with ``M`` cards in :attr:`counts`
        (docs/counting.md derives it).

        >>> StrategyVariation("x", 0.0, (1.0, -1.0) + (0.0,) * 8, (1, 1) + (0,) * 8, 1.0).sd(1)
        1.0
        """
        cards = sum(self.counts)
        if seen <= 0 or seen >= cards:
            return 0.0
        return math.sqrt((cards - 1) * seen / (cards - seen) * self.eor_variance)

    @functools.cached_property
    def eor_variance(self) -> float:
        """``var_p(EOR)``: the variance of the EORs over the cards of :attr:`counts`."""
        return _float_moments([0.0] * 10, self.eor, self.counts)[2]

    def correlation(self, tags: Sequence[Any]) -> float:
        """The correlation of ``tags`` (A first) with the EORs over the cards of :attr:`counts`
        (as :func:`bjcalc.counting.correlation`, in floating point)."""
        cov, var_t, var_v = _float_moments([float(t) for t in tags], self.eor, self.counts)
        return cov / math.sqrt(var_t * var_v) if var_t > 0 and var_v > 0 else 0.0


def _float_moments(tags: Sequence[float], values: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """The covariance of ``tags`` and ``values`` over the cards of ``counts`` and their two variances,
    as :func:`bjcalc.counting.correlation` weighs them, in floating point: PE sums thousands of them."""
    n = sum(counts)
    w = [c / n for c in counts]
    mt = sum(wi * ti for wi, ti in zip(w, tags))
    mv = sum(wi * vi for wi, vi in zip(w, values))
    cov = sum(wi * (ti - mt) * (vi - mv) for wi, ti, vi in zip(w, tags, values))
    var_t = sum(wi * (ti - mt) ** 2 for wi, ti in zip(w, tags))
    var_v = sum(wi * (vi - mv) ** 2 for wi, vi in zip(w, values))
    return cov, var_t, var_v


def unit_normal_loss(z: float) -> float:
    """Griffin's unit normal linear loss integral ``G(z) = E[max(0, X - z)]`` for a standard
    normal ``X``: ``phi(z) - z (1 - Phi(z))``.

    >>> round(unit_normal_loss(0.0), 6)
    0.398942
    """
    return max(0.0, math.exp(-z * z / 2) / math.sqrt(2 * math.pi) - z * math.erfc(z / math.sqrt(2)) / 2)


def variation_gain(margin: float, sd: float) -> float:
    """What deviating from the basic play is worth when the alternative's EV difference is
    normal with mean ``-|margin|`` and standard deviation ``sd``: ``E[max(0, X)]``, taking
    the alternative exactly when it is the better, ``sd G(|margin| / sd)``.

    >>> round(variation_gain(0.0, 1.0), 6)
    0.398942
    """
    return sd * unit_normal_loss(abs(margin) / sd) if sd > 0 else 0.0


def even_depths(cards: int, penetration: Fraction | float = Fraction(2, 3)) -> tuple[int, ...]:
    """The depth model of :func:`playing_efficiency`: rounds dealt after 0, 1, ... seen cards,
    each equally weighted, up to ``penetration`` of a shoe of ``cards`` cards (Griffin
    thought the linear model good over the first two thirds of a deck).

    >>> even_depths(52)[-1], len(even_depths(52))
    (34, 35)
    """
    return tuple(range(math.floor(Fraction(penetration) * cards) + 1))


def playing_efficiency(tags: CountSystem | Sequence[Any], variations: Sequence[StrategyVariation],
                       depths: Sequence[int]) -> float:
    """Griffin's playing efficiency of a count (a normal-model estimate, docs/counting.md): the
    share of what perfect strategy variation gains that the count gains, summed over the
    ``variations`` (weighted by frequency) and the ``depths`` (cards seen before the round,
    equally weighted). At each, the perfect player gains ``variation_gain(margin, sd)`` and the
    count, whose correlation with the variation's EORs is ``rho``, gains
    ``variation_gain(margin, |rho| sd)``.

    >>> one = StrategyVariation("x", 0.01, (1.0, -1.0) + (0.0,) * 8, (4, 4) + (0,) * 8, 1.0)
    >>> playing_efficiency((3, -3) + (0,) * 8, [one], range(1, 7))
    1.0
    """
    values = tags.tags if isinstance(tags, CountSystem) else tags
    count = perfect = 0.0
    for variation in variations:
        rho = abs(variation.correlation(values))
        for seen in depths:
            sd = variation.sd(seen)
            count += variation.frequency * variation_gain(variation.margin, rho * sd)
            perfect += variation.frequency * variation_gain(variation.margin, sd)
    if perfect == 0:
        raise InvalidRulesError("no strategy variation gains anything at these depths: playing efficiency is undefined")
    return count / perfect


def _hand_evs(rules: Rules, post_split: str) -> dict[tuple[tuple[Rank, Rank], Rank], Any]:
    """Every two-card hand (naturals aside) against every up card on ``rules``' shoe: (EVs by
    action, P(dealer blackjack), conditioned), by hand then up card; the deal
    (:meth:`Analysis.plays`) gives the hands the shoe can deal."""
    analysis = Analysis(rules, post_split=post_split)
    out: dict[tuple[tuple[Rank, Rank], Rank], Any] = {}
    for play in analysis.plays():
        if not play.same_face or is_blackjack([play.cards.count(rank) for rank in Rank]):
            continue  # a pair of tens plays as one hand here; naturals are not decisions
        try:
            result = analysis.hand(play.cards, play.up)
        except BjcalcError:
            continue
        out[(play.cards[0], play.cards[1]), play.up] = (
            {a: float(v) for a, v in result.evs.items()}, float(result.dealer_blackjack), result.conditioned)
    return dict(sorted(out.items(), key=lambda item: (item[0][0][0].index, item[0][0][1].index, item[0][1].index)))


def _deal_probability(counts: Sequence[int], hand: tuple[Rank, Rank], up: Rank) -> float:
    """P(the up card is ``up`` and the player's two cards are ``hand``) dealt from ``counts``."""
    left = list(counts)
    n = sum(left)
    p_up = left[up.index] / n
    left[up.index] -= 1
    a, b = hand[0].index, hand[1].index
    pairs = left[a] * (left[a] - 1) if a == b else 2 * left[a] * left[b]
    return p_up * pairs / ((n - 1) * (n - 2))


def _variation_actions(hand: tuple[Rank, Rank], evs: Mapping[Action, Any], splits: bool,
                       soft_doubles: bool) -> list[Action]:
    """The plays a variation compares for ``hand``: stand and hit, double on a hard total (and
    on a soft one with ``soft_doubles``), split a pair with ``splits``; those the rules offer."""
    _, soft = counts_total(tuple(sum(1 for c in hand if c.index == r) for r in range(10)))
    plays = [Action.STAND, Action.HIT]
    if soft_doubles or not soft:
        plays.append(Action.DOUBLE)
    if splits and hand[0] == hand[1]:
        plays.append(Action.SPLIT)
    return [p for p in plays if p in evs]


def strategy_variations(
    rules: Rules,
    *,
    splits: bool = False,
    soft_doubles: bool = False,
    post_split: str = "cdz-",
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[StrategyVariation]:
    """The strategy variations of a game, for :func:`playing_efficiency`: the first decision
    of every two-card hand (naturals aside) against every up card, the better of its two best
    plays on the full shoe (the basic play) against the other, with the EORs of their EV
    difference and how often the decision arises. The plays compared are stand, hit and
    doubling a hard total; pair splitting (``splits``) and soft doubling (``soft_doubles``)
    are left out by default, as in Griffin's single-deck evaluation (docs/counting.md). Eleven
    float analyses of the shoe (the full one and one without each rank), in ``workers``
    processes, each reported to ``progress``."""
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no effects of removal: cards are drawn with replacement")
    ranks = [rank for rank in Rank if rules.shoe_counts[rank.index] > 0]
    shoes = [rules] + [rules.without([rank]) for rank in ranks]
    names = ["variations: full shoe"] + [f"variations: without one {rank}" for rank in ranks]
    base, *after = map_jobs(_hand_evs, [(shoe, post_split) for shoe in shoes], workers, progress, names)
    removed = dict(zip(ranks, after))
    variations = []
    for (hand, up), (evs, blackjack, conditioned) in base.items():
        plays = sorted(_variation_actions(hand, evs, splits, soft_doubles), key=lambda a: -evs[a])
        if len(plays) < 2:
            continue
        first, second = plays[:2]
        left = rules.without(list(hand) + [up]).shoe_counts
        differences = {rank: removed[rank][hand, up][0] for rank in ranks
                       if left[rank.index] and (hand, up) in removed[rank]}
        if len(differences) != sum(1 for n in left if n) or any(
                first not in d or second not in d for d in differences.values()):
            continue  # a smaller shoe cannot play the hand (a card limit, a tiny shoe): left out
        play = PlayEffects(cards=hand, up=up, first=first, second=second, difference=evs[first] - evs[second],
                           after={rank: d[first] - d[second] for rank, d in differences.items()},
                           conditioned=conditioned, rules=rules)
        frequency = _deal_probability(rules.shoe_counts, hand, up)
        if conditioned:  # the decision arises only when the dealer has no blackjack
            frequency = reframe(frequency, blackjack, Frame.CONDITIONED, Frame.JOINT)
        variations.append(StrategyVariation.from_effects(play, frequency))
    return variations


def playing_efficiency_model(variations: Sequence[StrategyVariation], depths: Sequence[int], *, splits: bool = False,
                             soft_doubles: bool = False) -> dict[str, Any]:
    """What the PE figures of an output assume, as outputs print it: the number of variations,
    the cards seen before the round (from, to; each count of cards equally weighted) and a
    one-line description (``splits`` and ``soft_doubles`` as given to
    :func:`strategy_variations`).

    >>> playing_efficiency_model([], range(35))["cards_seen"]
    [0, 34]
    """
    plays = "stand, hit, double on hard totals" + ", double on soft ones" * soft_doubles + ", split pairs" * splits
    left_out = ["pair splitting"] * (not splits) + ["soft doubling"] * (not soft_doubles) + ["surrender", "insurance"]
    return {
        "variations": len(variations),
        "cards_seen": [min(depths), max(depths)],
        "description": ("Griffin's normal-model estimate: the share of the gain from perfect strategy variation "
                        "that the count captures; the first play of every two-card hand against every up card "
                        f"({plays}; no {', '.join(left_out[:-1])} or {left_out[-1]}), weighted by frequency; "
                        f"rounds dealt after {min(depths)} to {max(depths)} seen cards, evenly"),
    }
