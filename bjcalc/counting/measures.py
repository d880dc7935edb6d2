"""A count system measured against a game's exact effects of removal (:mod:`bjcalc.counting.eor`).

Following Griffin (The Theory of Blackjack), with ``p_r`` the rank's share of the shoe:

- betting correlation (BC): the correlation of the tags with the round's EORs, weighted by
  ``p_r``;
- insurance correlation (IC): the correlation of the tags with the insurance bet's EORs;
- the linear estimates that follow from the regression of EV on the count: the player's
  advantage gained per unit of true count (count per deck remaining), and a play's index, the
  true count at which its EV difference changes sign. These are labelled linear estimates:
  they are exact regressions of exact EORs, not exact EVs at those counts;
- playing efficiency (PE): :mod:`bjcalc.counting.efficiency`.

The systems themselves are :mod:`bjcalc.counting.systems`; :func:`count_table` gathers what ``bjcalc
count`` prints. See docs/counting.md for the definitions written out.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bjcalc.arguments import check_whole, checked, shown
from bjcalc.cards import ACE, Rank
from bjcalc.chart import Chart
from bjcalc.counting.checking import checked_rules_first
from bjcalc.counting.efficiency import (
    StrategyVariation,
    even_depths,
    playing_efficiency,
    playing_efficiency_model,
    strategy_variations,
)
from bjcalc.counting.eor import EffectsOfRemoval, EorStrategy, EorTable, Progress, eor_table
from bjcalc.counting.plays import PlayEffects
from bjcalc.counting.systems import SYSTEMS, CountSystem
from bjcalc.counting.workers import WorkerPool, check_workers
from bjcalc.errors import InvalidArgumentError
from bjcalc.numbers import to_fraction
from bjcalc.results import _Data
from bjcalc.rules import Rules, check_rules


def _fraction(value: Any) -> Fraction:
    """A tag or an EOR (float, int, Fraction or sympy.Rational) as an exact Fraction."""
    return Fraction(value) if isinstance(value, (float, int, Fraction)) else to_fraction(value)


def _weights(counts: Sequence[int]) -> list[Fraction]:
    n = sum(counts)
    return [Fraction(c, n) for c in counts]


def _moments(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> tuple[Fraction, Fraction, Fraction]:
    """The covariance of ``tags`` and ``values`` (per rank, A first) over the cards of a shoe
    with ``counts``, each rank weighted by its share of the shoe, and their two variances."""
    w = _weights(counts)
    t = [_fraction(x) for x in tags]
    v = [_fraction(x) for x in values]
    mt = sum(wi * ti for wi, ti in zip(w, t))
    mv = sum(wi * vi for wi, vi in zip(w, v))
    cov = sum(wi * (ti - mt) * (vi - mv) for wi, ti, vi in zip(w, t, v))
    var_t = sum(wi * (ti - mt) ** 2 for wi, ti in zip(w, t))
    var_v = sum(wi * (vi - mv) ** 2 for wi, vi in zip(w, v))
    return Fraction(cov), Fraction(var_t), Fraction(var_v)


def correlation(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> float:
    """The correlation of ``tags`` with ``values`` (both per rank, A first) over the cards of a
    shoe with ``counts``: each rank weighted by its share of the shoe."""
    cov, var_t, var_v = _moments(tags, values, counts)
    if var_t == 0 or var_v == 0:
        return 0.0
    return float(cov) / math.sqrt(float(var_t) * float(var_v))


def slope(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> Fraction:
    """The regression of ``values`` (per rank, per card removed) on the tags, scaled to one
    unit of true count (running count per deck remaining): the linear estimate of how much
    the value changes per true count, exact for exact inputs. Derivation in docs/counting.md."""
    cov, var_t, _ = _moments(tags, values, counts)
    # per card removed -> per true count: (cards in the shoe - 1) / 52 (docs/counting.md)
    return cov / var_t * Fraction(sum(counts) - 1, 52) if var_t else Fraction(0)


def mean_tag(tags: Sequence[Any], counts: Sequence[int]) -> Fraction:
    """The average tag of the cards in a shoe: 0 for a balanced count on a full shoe; after
    seen cards, minus their running count over the cards left."""
    return sum((wi * _fraction(ti) for wi, ti in zip(_weights(counts), tags)), Fraction(0))


INSURANCE_VECTOR = (4, 4, 4, 4, 4, 4, 4, 4, 4, -9)  # A..T: Griffin's insurance EORs, up to scale


@dataclasses.dataclass(frozen=True)
class CountFigures(_Data):
    """A count system measured against a game's exact EORs (module docstring). ``per_true_count``:
    the linear estimate of the player's advantage gained per unit of true count, in percent;
    ``playing_efficiency``: Griffin's normal-model estimate (:func:`playing_efficiency`), or
    ``None`` where it was not computed."""

    system: CountSystem
    betting_correlation: float | None  # None: undefined (the tags or the EORs do not vary over the shoe)
    insurance_correlation: float | None  # None: no ace left in the shoe, so no insurance
    per_true_count: float
    playing_efficiency: float | None = None
    per_true_count_exact: Fraction | None = None  # the same, exact, from exact EORs

    def to_data(self) -> dict[str, Any]:
        return {"system": self.system.name, "tags": self.system.tags_text(), "balanced": self.system.balanced,
                "betting_correlation": self.betting_correlation,
                "insurance_correlation": self.insurance_correlation,
                "advantage_per_true_count_percent": self.per_true_count,
                "playing_efficiency": self.playing_efficiency,
                "linear_estimate": True}


@checked
def count_figures(system: CountSystem, eor: EffectsOfRemoval, variations: Sequence[StrategyVariation] | None = None,
                  depths: Sequence[int] | None = None) -> CountFigures:
    """BC, IC and the advantage per true count of ``system`` for the game of ``eor``; with
    ``variations`` (:func:`strategy_variations`) also its playing efficiency over ``depths``
    (default :func:`even_depths` of the shoe: cards seen before the round, each from 0 to the
    cards of the variations' shoe)."""
    if variations is not None and not variations:
        raise InvalidArgumentError("count_figures: variations must hold at least one strategy variation "
                                   "(strategy_variations), or be None for no playing efficiency, not ()")
    if depths is not None:
        if variations is None:
            raise InvalidArgumentError(f"count_figures: depths {shown(depths)} are the playing efficiency's: "
                                       "give variations too (strategy_variations)")
        if not depths:
            raise InvalidArgumentError("count_figures: depths must hold at least one depth (cards seen), not ()")
        cards = max(sum(v.counts) for v in variations) + 3  # the variations' shoe: theirs less hand and up card
        for depth in depths:
            check_whole(depth, "count_figures: depths (cards seen)", 0, cards)
    return _count_figures(system, eor, variations, depths)


def _count_figures(system: CountSystem, eor: EffectsOfRemoval, variations: Sequence[StrategyVariation] | None,
                   depths: Sequence[int] | None) -> CountFigures:
    counts = eor.counts
    values = [eor.eor.get(Rank.from_index(r), 0) for r in range(10)]
    present = [c for c in counts]
    efficiency = None
    if variations is not None:
        efficiency = playing_efficiency(system, variations, even_depths(sum(counts)) if depths is None else depths)
    per_true_count = 100 * slope(system.tags, values, present)
    return CountFigures(
        system=system,
        betting_correlation=_defined_correlation(system.tags, values, present),
        insurance_correlation=_defined_correlation(system.tags, INSURANCE_VECTOR, present) if counts[ACE] else None,
        per_true_count=float(per_true_count),
        playing_efficiency=efficiency,
        per_true_count_exact=per_true_count if eor.exact else None,
    )


def _defined_correlation(tags: Sequence[Any], values: Sequence[Any], counts: Sequence[int]) -> float | None:
    """:func:`correlation`, or ``None`` where it is undefined (either side constant over the shoe)."""
    _, var_t, var_v = _moments(tags, values, counts)
    return correlation(tags, values, counts) if var_t and var_v else None


@checked
def play_index(system: CountSystem, play: PlayEffects) -> tuple[Fraction, bool] | None:
    """The linear estimate of the true count at which ``play.first`` becomes as good as
    ``play.second`` (their EV difference crosses zero), counting the hand's cards and the up
    card as seen, and whether ``play.first`` is the better play above it (the difference grows
    with the count); ``None`` where the count does not move the difference. Exact for exact
    EORs: ``-difference / slope - 52 * mean tag`` (docs/counting.md)."""
    return _play_index(system, play)


def _play_index(system: CountSystem, play: PlayEffects) -> tuple[Fraction, bool] | None:
    counts = play.shoe_left()
    values = [play.eor.get(Rank.from_index(r), 0) for r in range(10)]
    per_count = slope(system.tags, values, counts)
    if per_count == 0:
        return None
    return -_fraction(play.difference) / per_count - 52 * mean_tag(system.tags, counts), per_count > 0


def linear_index(system: CountSystem, play: PlayEffects) -> Fraction | None:
    """:func:`play_index` without the direction."""
    found = _play_index(system, play)
    return None if found is None else found[0]


# -- the count table: what ``bjcalc count`` prints ------------------------------------------------

@dataclasses.dataclass(frozen=True)
class CountTable:
    """Everything ``bjcalc count`` prints: the EOR table the figures come from, each system's
    figures, each system's index of each play (:func:`play_index`: the true count, exact in
    exact mode, and whether the first play is the better above it; ``(None, None)`` where the
    count does not move the play) and, with playing efficiency, what its model assumes."""

    eor: EorTable
    figures: tuple[CountFigures, ...]
    indices: tuple[tuple[tuple[Any, bool | None], ...], ...]
    pe_model: dict[str, Any] | None = None
    exact_indices: ExactIndices | None = None  # with exact_index_depth: each system's exact indices


@dataclasses.dataclass(frozen=True)
class ExactIndex(_Data):
    """A play's exact index from the model of the counter's shoe (:mod:`bjcalc.counting.indices`), to be
    read beside its linear estimate: ``crossing`` the true count where the two plays' EVs cross
    (exact divisor, not rounded; ``None`` where they do not cross at a likely count), ``above``
    whether the play's first action is the better above it (``None`` where neither rule gains),
    ``index`` the integer rule: the first action at TC >= index (``above``) or at TC <= index
    (not ``above``), TC floored; ``monotone``: the better play changes once over the likely
    counts."""

    crossing: Any
    above: bool | None
    index: int | None
    monotone: bool

    def to_data(self) -> dict[str, Any]:
        return {"crossing": self.crossing, "index": self.index, "monotone": self.monotone,
                "deviate": None if self.above is None else ("at_or_above" if self.above else "at_or_below")}


@dataclasses.dataclass(frozen=True)
class ExactIndices(_Data):
    """Every system's exact index of every play of a :class:`CountTable`, at one depth:
    ``cards_seen`` cards gone before the round, ``cards_left`` not seen when the player decides;
    ``by_system[i][j]`` is system ``i``'s index of play ``j`` (insurance: against the ace alone)."""

    cards_seen: int
    cards_left: int
    by_system: tuple[tuple[ExactIndex, ...], ...]

    def to_data(self) -> dict[str, Any]:
        return {"cards_seen": self.cards_seen, "cards_left": self.cards_left, "divisor": "exact",
                "rounding": "floor", "strategy": "CD play after the first decision, on the counter's shoe"}


@checked_rules_first
def count_table(
    rules: Rules,
    systems: Sequence[CountSystem | str] = (),
    strategy: EorStrategy | str = EorStrategy.CHART,
    *,
    chart: Chart | None = None,
    plays: Sequence[str | tuple[Any, Any, Any, Any]] = (),
    insurance: bool = False,
    playing_efficiency: bool = False,
    exact: bool = False,
    post_split: str = "cdz-",
    workers: int | None = None,
    progress: Progress | None = None,
    two_card_plays: bool = True,
    exact_index_depth: int | None = None,
) -> CountTable:
    """``systems`` (names of :data:`SYSTEMS` or :class:`CountSystem`; default: all the
    built-in ones) measured on the game's EORs (:func:`eor_table`, same arguments), and with
    ``playing_efficiency`` their playing efficiency (:func:`strategy_variations`, reported to
    ``progress`` after the EORs). With ``exact_index_depth`` (cards seen before the round),
    each play's exact index too (:func:`exact_indices`)."""
    check_rules(rules)
    check_workers(workers)
    chosen = [CountSystem.named(s) if isinstance(s, str) else s for s in systems]
    chosen = chosen or [CountSystem.named(name) for name in SYSTEMS]
    if exact_index_depth is not None:
        from bjcalc.counting.indices import check_cards_seen

        check_cards_seen(rules, exact_index_depth)  # before any work
    table = eor_table(rules, strategy, chart=chart, plays=plays, insurance=insurance, exact=exact,
                      post_split=post_split, workers=workers, progress=progress, two_card_plays=two_card_plays)
    variations = model = None
    if playing_efficiency:
        steps = 1 + sum(1 for n in rules.shoe_counts if n)
        variations = strategy_variations(rules, post_split=post_split, workers=workers,
                                         progress=None if progress is None else lambda name: progress(name, steps))
        model = playing_efficiency_model(variations, even_depths(sum(rules.shoe_counts)))
    figures = tuple(_count_figures(system, table.removal, variations, None) for system in chosen)
    indices = []
    for system in chosen:
        row = []
        for play in table.plays:
            found = _play_index(system, play)
            row.append((None, None) if found is None else ((found[0] if exact else float(found[0])), found[1]))
        indices.append(tuple(row))
    exact_found: ExactIndices | None = None
    if exact_index_depth is not None:
        exact_found = _exact_indices(rules, chosen, table.plays, exact_index_depth, workers, progress)
    return CountTable(table, figures, tuple(indices), model, exact_found)


@checked_rules_first
def exact_indices(rules: Rules, systems: Sequence[CountSystem], plays: Sequence[PlayEffects], cards_seen: int,
                  workers: int | WorkerPool | None = None, progress: Progress | None = None) -> ExactIndices:
    """Each system's exact index of each play at a depth (:func:`bjcalc.counting.indices.index_table`,
    floating point, CD play after the first decision; insurance against the ace alone): the
    plays' both orientations are asked of one analysis per running count, and the one in which
    the deviation is the better at the higher counts is kept."""
    from bjcalc.counting.indices import check_cards_seen

    check_rules(rules)
    check_workers(workers)
    if not systems:
        raise InvalidArgumentError("exact_indices: systems must hold at least one CountSystem, not ()")
    if not plays:
        raise InvalidArgumentError("exact_indices: plays must hold at least one play (play_effects, "
                                   "insurance_effects), not ()")
    check_cards_seen(rules, cards_seen)  # before any work
    return _exact_indices(rules, systems, plays, cards_seen, workers, progress)


def _exact_indices(rules: Rules, systems: Sequence[CountSystem], plays: Sequence[PlayEffects], cards_seen: int,
                   workers: int | WorkerPool | None, progress: Progress | None) -> ExactIndices:
    from bjcalc.counting.indices import IndexPlay, index_table

    both: list[IndexPlay] = []
    for play in plays:
        if play.first is not None and play.second is not None:
            hand = play.total if play.total is not None else play.cards
            both += [IndexPlay(hand, play.up, play.first, (play.second,), None, "asked"),
                     IndexPlay(hand, play.up, play.second, (play.first,), None, "asked")]
    insurance = any(p.first is None for p in plays)
    cards_left = sum(rules.shoe_counts) - cards_seen - 3
    if not both and not insurance:  # no play to index (count_table without plays): no analysis
        return ExactIndices(cards_seen, cards_left, tuple(() for _ in systems))
    rows = []
    for system in systems:
        table = index_table(rules, system.name, system.tags, cards_seen, both, insurance=insurance,
                            workers=workers, progress=progress)
        found = iter(table.plays)
        row = []
        for play in plays:
            if play.first is None:
                ace = table.insurance
                row.append(ExactIndex(None, None, None, True) if ace is None
                           else ExactIndex(ace.crossing, None if ace.index is None else True, ace.index, ace.monotone))
                continue
            forward, backward = next(found), next(found)
            means = forward.differences  # (observed running count, mean of first minus second), ascending
            rising = bool(means) and means[-1][1] >= means[0][1]  # the first play gains with the count
            if rising and forward.index is not None:
                row.append(ExactIndex(forward.crossing, True, forward.index, forward.monotone))
            elif not rising and backward.index is not None:  # the second at TC >= I: the first at TC <= I - 1
                row.append(ExactIndex(backward.crossing, False, backward.index - 1, backward.monotone))
            else:  # the better play is the same at every likely count
                row.append(ExactIndex(forward.crossing, None, None, forward.monotone))
        rows.append(tuple(row))
    return ExactIndices(cards_seen, cards_left, tuple(rows))
