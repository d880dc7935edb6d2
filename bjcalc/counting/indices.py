"""Index numbers from the exact model: the true count at which a counter's two plays are worth the same, from
the counter's shoe (:mod:`bjcalc.counting.countshoe`, docs/countshoe.md, "Index numbers"); every
counter's shoe is analysed in floating point (the EVs agree with exact mode to 1e-12).

At a reference depth (``cards_seen`` cards gone before the round) every running count the
discards can have is one counter's shoe; each is analysed once (every hand against every up
card the plays need, CD play after the first decision), in worker processes. A play's hands
(every two-card hand of a total but pairs, or the given cards) are weighted by how often the
counter sees them at each running count: ``P(discards count s) P(up card and hand | s)``, so
that at an observed running count ``R`` (discards, hand and up card counted) the play's EV
difference is

    D(R) = sum over hands h, s = R - tags(h, up):  P(s) P(up, h | s) (EV_play - EV_instead)

per round, unconditional (a peeking dealer's blackjack takes both plays alike). The **crossing**
is the true count where the mean difference ``D / P`` changes sign, by linear interpolation
between the two running counts either side (exact divisor: cards not seen / 52); the **index**
the integer ``I`` for which "deviate at TC >= I" (TC by the chosen divisor and rounding) gains
most over never deviating, the **gain** that rule's EV per 100 rounds dealt at this depth, and
the **frequency** the share of rounds at which it deviates.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.arguments import check_choice, check_fields, check_whole
from bjcalc.arguments import shown as _shown
from bjcalc.cards import UP_INDICES, Rank, hand_total, parse_card
from bjcalc.counting.checking import checked_rules_first
from bjcalc.counting.countshoe import CountShoe, running_count_distribution
from bjcalc.counting.plays import HandTotal, parse_play
from bjcalc.counting.tags import (
    CARDS_PER_DECK,
    DeckEstimate,
    InvalidCountError,
    Rounding,
    _choice,
    counting_tags,
    true_count,
)
from bjcalc.counting.workers import WorkerPool, check_workers, map_jobs
from bjcalc.errors import InvalidArgumentError, InvalidHandError, InvalidShoeError
from bjcalc.numbers import to_fraction
from bjcalc.results import _Data
from bjcalc.rules import Rules, check_rules

# a published index is a true count from a list of indices: none is near this in size
PUBLISHED_LIMIT = 100

# running counts less likely than this (for the discards at the depth) are left out of the
# gains and frequencies; the share of rounds left out is reported (``IndexTable.left_out``)
NEGLIGIBLE = 1e-13


@dataclasses.dataclass(frozen=True)
class IndexPlay:
    """A decision a count can change: ``play`` at true counts at or above the index, else the
    best of ``instead``; ``hand`` a total (its two-card hands but pairs) or cards; ``published``
    the common Hi-Lo list's index (../shared/reference/counting.md), where it has one."""

    hand: tuple[Rank, ...] | HandTotal
    up: Rank
    play: Action
    instead: tuple[Action, ...]
    published: int | None = None
    group: str = ""

    def __post_init__(self) -> None:
        check_fields(self)
        if isinstance(self.hand, tuple) and len(self.hand) < 2:
            raise InvalidArgumentError(
                f"IndexPlay: hand must be two or more cards or a HandTotal, not {_shown(self.hand)}")
        if not self.instead:
            raise InvalidArgumentError("IndexPlay: instead must name at least one action played below the index, "
                                       "not ()")
        if self.play in self.instead:
            raise InvalidArgumentError(f"IndexPlay: instead must be other actions than the play {self.play.key}, "
                                       f"not {_shown(self.instead)}")
        if self.published is not None:
            check_whole(self.published, "IndexPlay: published", -PUBLISHED_LIMIT, PUBLISHED_LIMIT)

    @property
    def name(self) -> str:
        hand = str(self.hand.value) if isinstance(self.hand, HandTotal) and not self.hand.soft else (
            str(self.hand) if isinstance(self.hand, HandTotal) else ",".join(map(str, self.hand)))
        return f"{hand} v {self.up} {self.play.key}"

    def hands(self) -> tuple[tuple[Rank, ...], ...]:
        return self.hand.hands() if isinstance(self.hand, HandTotal) else (self.hand,)

    def instead_text(self) -> str:
        return " or ".join(a.key for a in self.instead)


def _play(hand: str, up: str, play: Action, instead: tuple[Action, ...], published: int, group: str) -> IndexPlay:
    from bjcalc.counting.plays import parse_hand

    return IndexPlay(parse_hand(hand), parse_card(up), play, instead, published, group)


S, H, D, P, R = Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER
# the Illustrious 18 but insurance (which IndexTable.insurance carries), then the Fab 4
ILLUSTRIOUS_18 = (
    _play("16", "T", S, (H,), 0, "I18"), _play("15", "T", S, (H,), 4, "I18"),
    _play("T,T", "5", P, (S,), 5, "I18"), _play("T,T", "6", P, (S,), 4, "I18"),
    _play("10", "T", D, (H,), 4, "I18"), _play("12", "3", S, (H,), 2, "I18"),
    _play("12", "2", S, (H,), 3, "I18"), _play("11", "A", D, (H,), 1, "I18"),
    _play("9", "2", D, (H,), 1, "I18"), _play("10", "A", D, (H,), 4, "I18"),
    _play("9", "7", D, (H,), 3, "I18"), _play("16", "9", S, (H,), 5, "I18"),
    _play("13", "2", S, (H,), -1, "I18"), _play("12", "4", S, (H,), 0, "I18"),
    _play("12", "5", S, (H,), -2, "I18"), _play("12", "6", S, (H,), -1, "I18"),
    _play("13", "3", S, (H,), -2, "I18"),
)
FAB_4 = (
    _play("14", "T", R, (H, S), 3, "Fab 4"), _play("15", "T", R, (H, S), 0, "Fab 4"),
    _play("15", "9", R, (H, S), 2, "Fab 4"), _play("15", "A", R, (H, S), 2, "Fab 4"),  # +1 with H17
)


def default_plays(rules: Rules) -> tuple[IndexPlay, ...]:
    """The Illustrious 18 (but insurance) and, where the rules offer late surrender, the Fab 4;
    only the plays the rules offer (no pair splits where hands may not split, no doubles on
    totals the rules do not double)."""
    check_rules(rules)
    fab = tuple(dataclasses.replace(p, published=1) if rules.hit_soft_17 and p.up is Rank.ACE else p for p in FAB_4)
    plays = ILLUSTRIOUS_18 + (fab if rules.surrender.value == "late" else ())
    return tuple(p for p in plays if p.play in _offered(rules, p) and set(p.instead) & _offered(rules, p))


def play_from_text(text: str) -> IndexPlay:
    """``--play``: ``"16 v T stand hit"`` (the deviation first, then what is played instead)."""
    hand, up, first, second = parse_play(text)
    return IndexPlay(hand, up, first, (second,), None, "asked")


def as_plays(plays: Sequence[IndexPlay | str]) -> tuple[IndexPlay, ...]:
    """Plays to index: :class:`IndexPlay` values or text as ``--play`` takes it
    (:func:`play_from_text`), as :func:`bjcalc.eor_table` takes its plays."""
    if isinstance(plays, (str, bytes)) or not isinstance(plays, Sequence):
        raise InvalidHandError(f"plays must be a list of plays such as ['16 v T stand hit'], not {plays!r}")
    out = []
    for play in plays:
        if isinstance(play, str):
            play = play_from_text(play)
        elif not isinstance(play, IndexPlay):
            raise InvalidHandError(f"a play must be an IndexPlay or text such as '16 v T stand hit', not {play!r}")
        out.append(play)
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class Convention:
    """How the counter's true count is taken: the divisor (decks not seen, to the card, to the
    half deck or to the deck) and the rounding; they deviate at a true count at or above the
    index."""

    divisor: DeckEstimate = DeckEstimate.EXACT
    rounding: Rounding = Rounding.FLOOR

    def __post_init__(self) -> None:
        # a member of the enum or its text (``"half-deck"``), as convention_of takes them
        for name, kind in (("divisor", DeckEstimate), ("rounding", Rounding)):
            value = getattr(self, name)
            if not isinstance(value, kind):
                try:
                    check_choice(value, f"Convention: {name}", [m.value for m in kind])
                except InvalidArgumentError:
                    raise InvalidArgumentError(f"Convention: {name} must be a {kind.__name__} or one of "
                                               f"{', '.join(m.value for m in kind)}, not {_shown(value)}") from None
                object.__setattr__(self, name, kind(value))

    def describe(self) -> str:
        return (f"true count = running count / decks not seen ({self.divisor.value} divisor), "
                f"{self.rounding.value}{'ed' if self.rounding is Rounding.FLOOR else ''}; deviate at TC >= index")


@dataclasses.dataclass(frozen=True)
class PlayIndex(_Data):
    """One play's index at the depth (module docstring): ``crossing`` (exact divisor, not
    rounded; ``None`` where the plays do not cross at any likely count), ``running_count`` the
    smallest observed running count from which the deviation is better at every likely count
    above (``monotone``: and worse at every one below), ``index`` the EV-best integer index
    under the convention, ``gain_per_100`` its EV per 100 rounds (per initial bet) over never
    deviating, ``frequency`` the share of rounds at which it deviates, and ``differences`` the
    mean EV difference (play minus instead, unconditional) at each likely observed running count."""

    play: IndexPlay
    crossing: Any  # float or Fraction (exact) or None; where not monotone: the upward crossing nearest the index
    running_count: Fraction | None
    index: int | None
    gain_per_100: Any  # float, or a Fraction (exact)
    frequency: Any
    monotone: bool
    differences: tuple[tuple[Fraction, float], ...]

    def to_data(self) -> dict[str, Any]:
        play = self.play
        data = {
            "play": play.name, "group": play.group, "hand": str(play.hand) if isinstance(play.hand, HandTotal)
            else ",".join(map(str, play.hand)), "hands": [",".join(map(str, h)) for h in play.hands()],
            "up": str(play.up), "deviation": play.play.key, "instead": [a.key for a in play.instead],
            "index": self.index, "crossing": self.crossing, "running_count": self.running_count,
            "published": play.published, "gain_per_100": self.gain_per_100, "frequency": self.frequency,
            "monotone": self.monotone,
        }
        if play == INSURANCE_PLAY:  # not a hand's action: named as the CSV and the EOR document name it
            data.update(play="insurance v A", hands=[], deviation="insure", instead=["no insurance"])
        return data


@dataclasses.dataclass(frozen=True)
class IndexTable(_Data):
    """Every play's index at one depth, for one count and rules (:func:`index_table`)."""

    rules: Rules
    system: str
    tags: tuple[Fraction, ...]
    cards_seen: int  # before the round: the discards
    cards_left: int  # not seen when the player decides: the discards, the hand and the up card out
    convention: Convention
    plays: tuple[PlayIndex, ...]
    insurance: PlayIndex | None
    left_out: Fraction  # the share of rounds at running counts too unlikely to analyse

    @property
    def decks_left(self) -> Fraction:
        return Fraction(self.cards_left, CARDS_PER_DECK)

    def to_data(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "tags": [int(t) if t.denominator == 1 else float(t) for t in (self.tags[r] for r in UP_INDICES)],
            "cards_seen": self.cards_seen, "cards_left": self.cards_left,
            "divisor": self.convention.divisor.value, "rounding": self.convention.rounding.value,
            "deviate": "at or above the index",
            "strategy": "CD play after the first decision, on the counter's shoe; split hands CDZ-",
            "left_out": self.left_out,
            "plays": [p.to_data() for p in self.plays],
            "insurance": None if self.insurance is None else self.insurance.to_data(),
        }


# -- the work: one counter's shoe per running count of the discards --------------------------------

# per (hand, up): P(up and hand dealt), the actions' EVs (unconditional), unused
_Dealt = tuple[float, dict[Action, float], float]
# what each counter's shoe is analysed for: (hand's rank indices, highest first; up card; actions)
Wanted = tuple[tuple[tuple[int, ...], int, tuple[Action, ...]], ...]


def _job(rules: Rules, tags: tuple[Fraction, ...], seen: int, discards: Fraction,
         wanted: Wanted, insurance: bool, exact: bool = False
         ) -> tuple[dict[tuple[tuple[int, ...], int], _Dealt], tuple[float, float] | None]:
    """For the counter's shoe whose discards count ``discards``: each wanted (hand, up)'s deal
    probability, its actions' EVs (unconditional) and, with ``insurance``, P(ace up) and
    insurance's EV against it: floats, or Fractions with ``exact``."""
    shoe = CountShoe(shoe=rules.shoe_counts, tags=tags, running_count=discards, seen=seen)
    analysis: Analysis[Any] = Analysis(rules, shoe=shoe, exact=exact)
    number: Callable[[Any], Any] = to_fraction if exact else float
    out: dict[tuple[tuple[int, ...], int], _Dealt] = {}
    for hand, up, actions in wanted:
        cards = tuple(Rank.from_index(r) for r in hand)
        up_rank = Rank.from_index(up)
        dealt = shoe.draw_probability((up_rank,) + cards) * (2 if cards[0] != cards[1] else 1)
        if dealt == 0:
            out[hand, up] = (0.0, {}, 0.0)
            continue
        result = analysis.hand(cards, up_rank)
        keep = 1 - result.dealer_blackjack if result.conditioned else 1
        out[hand, up] = (number(dealt), {a: number(result.evs[a] * keep) for a in actions if a in result.evs}, 0.0)
    ace = None
    if insurance:
        p_ace = shoe.draw_probability([Rank.ACE])
        ace = (number(p_ace), number(analysis.insurance("A")) if p_ace else number(0))
    return out, ace


def check_cards_seen(rules: Rules, cards_seen: Any) -> None:
    """A depth at which a round can still be dealt: 0 to the shoe's cards less four."""
    most = sum(rules.shoe_counts) - 4
    if not isinstance(cards_seen, int) or isinstance(cards_seen, bool) or not 0 <= cards_seen <= most:
        raise InvalidShoeError(f"cards seen must be a whole number from 0 to {most} (a round needs cards left), "
                               f"not {cards_seen!r}")


def check_system_name(system: str, where: str) -> None:
    """The count's name a table is labelled with (its tags are given apart): any text but none."""
    if not system.strip():
        raise InvalidArgumentError(f"{where}: system must name the count (its label in the table), not {system!r}")


def check_something_to_index(plays: Sequence[Any] | None, insurance: bool, where: str) -> None:
    """``plays=()`` asks for insurance's index alone: refused where insurance is not asked either."""
    if plays is not None and not isinstance(plays, (str, bytes)) and len(plays) == 0 and not insurance:
        raise InvalidArgumentError(f"{where}: plays is empty and insurance is False: nothing to index "
                                   "(plays=None indexes the default plays)")


@checked_rules_first
def index_table(rules: Rules, system: str, tags: Sequence[Any], cards_seen: int,
                plays: Sequence[IndexPlay | str] | None = None, convention: Convention | None = None,
                insurance: bool = True, workers: int | WorkerPool | None = None,
                progress: Callable[[str, int], None] | None = None, exact: bool = False) -> IndexTable:
    """The exact index of each play (default :func:`default_plays`) and of insurance for a count
    with ``cards_seen`` cards gone before the round (module docstring). ``progress(name, steps)``
    hears of each running count analysed. ``exact``: every counter's shoe in exact arithmetic,
    every difference, gain and crossing a Fraction (slow above a few decks)."""
    check_rules(rules)
    check_workers(workers)
    check_system_name(system, "index_table")
    check_something_to_index(plays, insurance, "index_table")
    return _index_table(rules, system, tags, cards_seen, plays, convention, insurance, workers, progress, exact)


def _index_table(rules: Rules, system: str, tags: Sequence[Any], cards_seen: int,
                 plays: Sequence[IndexPlay | str] | None, convention: Convention | None, insurance: bool,
                 workers: int | WorkerPool | None, progress: Callable[[str, int], None] | None,
                 exact: bool) -> IndexTable:
    """:func:`index_table` without the check of each argument's kind (for the pipelines that
    call it once a state, with arguments they have checked)."""
    tags = counting_tags(tags)
    convention = convention or Convention()
    if rules.infinite:
        raise InvalidShoeError("an infinite deck has no count: the cards are drawn with replacement")
    check_cards_seen(rules, cards_seen)
    total = sum(rules.shoe_counts)
    plays = default_plays(rules) if plays is None else as_plays(plays)
    wanted = wanted_hands(rules, plays)
    chances = running_count_distribution(rules.shoe_counts, tags, cards_seen)
    top = max(chances.values())
    likely = [s for s, p in chances.items() if p >= NEGLIGIBLE * top]
    analysed = set(likely)
    left_out = sum((p for s, p in chances.items() if s not in analysed), Fraction(0))
    jobs = [(rules, tags, cards_seen, s, wanted, insurance and rules.insurance, exact) for s in likely]
    report = None if progress is None else (lambda name: progress(name, len(jobs)))
    results = map_jobs(_job, jobs, workers, report, [f"discards' count {s}" for s in likely])
    by_count = dict(zip(likely, results))
    cards_left = total - cards_seen - 3
    rows = tuple(_play_index(play, tags, chances, by_count, cards_left, convention, exact) for play in plays)
    ace = None
    if insurance and rules.insurance:
        ace = _insurance_index(tags, chances, by_count, total - cards_seen - 1, convention, exact)
    return IndexTable(rules, system, tags, cards_seen, cards_left, convention, rows, ace, left_out)


def wanted_hands(rules: Rules, plays: Sequence[IndexPlay]) -> Wanted:
    """The (hand, up card, actions) each counter's shoe is analysed for, for ``plays``: every
    hand of a play (rank indices, highest first) with the actions of every play that has it;
    a play the rules do not offer is an :class:`InvalidHandError`."""
    wanted: dict[tuple[tuple[int, ...], int], set[Action]] = {}
    for play in plays:
        if play.play not in _offered(rules, play) or not set(play.instead) & _offered(rules, play):
            raise InvalidHandError(f"{play.name}: the rules do not offer {play.play.key} "
                                   f"or {play.instead_text()} with this hand")
        for hand in play.hands():
            key = (_hand_key(hand), play.up.index)
            wanted.setdefault(key, set()).update((play.play,) + play.instead)
    return tuple((h, u, tuple(sorted(a))) for (h, u), a in sorted(wanted.items()))


def _hand_key(hand: Sequence[Rank]) -> tuple[int, ...]:
    return tuple(sorted((c.index for c in hand), reverse=True))


def _offered(rules: Rules, play: IndexPlay) -> set[Action]:
    """The actions the rules offer every two-card hand of ``play`` (as the engine offers them:
    a double only on the totals the rules double, soft ones where they may)."""
    offered = {Action.STAND, Action.HIT}
    hands = play.hands()
    if all(rules.doubles(*hand_total(card.index for card in hand)) for hand in hands):
        offered.add(Action.DOUBLE)
    if rules.surrender.value != "none":
        offered.add(Action.SURRENDER)
    if rules.split_hands > 1 and all(len(h) == 2 and h[0] == h[1] for h in hands):
        offered.add(Action.SPLIT)
    return offered


def _tag_sum(tags: Sequence[Fraction], cards: Sequence[int]) -> Fraction:
    return sum((tags[c] for c in cards), Fraction(0))


def _play_index(play: IndexPlay, tags: tuple[Fraction, ...], chances: dict[Fraction, Fraction],
                by_count: dict[Fraction, Any], cards_left: int, convention: Convention, exact: bool) -> PlayIndex:
    difference, weight = play_sums(play, tags, chances, by_count, exact)
    return _crossing(play, difference, weight, cards_left, convention, exact)


def play_sums(play: IndexPlay, tags: tuple[Fraction, ...], chances: dict[Fraction, Any],
              by_count: dict[Fraction, Any], exact: bool) -> tuple[dict[Fraction, Any], dict[Fraction, Any]]:
    """A play's EV differences and weights by observed running count ``R`` at one depth (module
    docstring: ``D(R)`` and ``P(R)``), from ``chances`` (the discards' count -> its weight) and
    ``by_count`` (the discards' count -> :func:`_job`'s answer)."""
    difference: dict[Fraction, Any] = {}
    weight: dict[Fraction, Any] = {}
    # each hand's key and what its cards and the up card add to the discards' count (exact)
    keys = [(_hand_key(hand), play.up.index) for hand in play.hands()]
    seen = [(key, _tag_sum(tags, key[0]) + tags[play.up.index]) for key in keys]
    for s, (hands, _) in by_count.items():
        p_s = chances[s] if exact else float(chances[s])
        for key, shown in seen:
            dealt, evs, _ = hands[key]
            if not dealt:
                continue
            observed = s + shown
            instead = max(evs[a] for a in play.instead if a in evs)
            w = p_s * dealt
            difference[observed] = difference.get(observed, 0) + w * (evs[play.play] - instead)
            weight[observed] = weight.get(observed, 0) + w
    return difference, weight


def _insurance_play() -> IndexPlay:
    """Insurance as an :class:`IndexPlay` (no hand, no action of a hand: a placeholder the
    tables name "insurance v A"), built without the checks a play of a hand is held to."""
    play = object.__new__(IndexPlay)
    for name, value in (("hand", ()), ("up", Rank.ACE), ("play", Action.STAND), ("instead", (Action.STAND,)),
                        ("published", 3), ("group", "I18")):
        object.__setattr__(play, name, value)
    return play


# insurance, as a play: against the ace alone, the common list's +3
INSURANCE_PLAY = _insurance_play()


def _insurance_index(tags: tuple[Fraction, ...], chances: dict[Fraction, Fraction], by_count: dict[Fraction, Any],
                     cards_left: int, convention: Convention, exact: bool) -> PlayIndex:
    """Insurance as a play against the ace alone (the hand not counted): an insurance bet of
    0.5 initial bets at insurance's EV, against not insuring."""
    difference, weight = insurance_sums(tags, chances, by_count, exact)
    return _crossing(INSURANCE_PLAY, difference, weight, cards_left, convention, exact)


def insurance_sums(tags: tuple[Fraction, ...], chances: dict[Fraction, Any], by_count: dict[Fraction, Any],
                   exact: bool) -> tuple[dict[Fraction, Any], dict[Fraction, Any]]:
    """Insurance's differences and weights by observed running count (the discards and the ace)."""
    difference: dict[Fraction, Any] = {}
    weight: dict[Fraction, Any] = {}
    for s, (_, ace) in by_count.items():
        p_ace, ev = ace
        observed = s + tags[Rank.ACE.index]
        w = (chances[s] if exact else float(chances[s])) * p_ace
        difference[observed] = difference.get(observed, 0) + w * ev / 2
        weight[observed] = weight.get(observed, 0) + w
    return difference, weight


def _crossing(play: IndexPlay, difference: dict[Fraction, Any], weight: dict[Fraction, Any], cards_left: int,
              convention: Convention, exact: bool = False, positions: dict[Fraction, Any] | None = None
              ) -> PlayIndex:
    """A play's index from its EV differences summed by observed running count at one depth
    (``cards_left`` not seen when deciding); or, with ``positions``, summed by the convention's
    true count (pooled over depths: bjcalc.counting.shoeindex), each true count placed for the crossing
    at ``positions[tc]``, the mean exact true count (exact divisor, not rounded) of what it pools."""
    counts = sorted(c for c in difference if weight[c] > 0)
    mean = {c: difference[c] / weight[c] for c in counts}
    # where the deviation turns better, going up the counts: (true count, exact divisor, interpolated)
    number: Callable[[Any], Any] = Fraction if exact else float
    pairs = list(zip(counts, counts[1:]))
    if positions is None:
        upward = [number(CARDS_PER_DECK * (low + (-mean[low] / (mean[high] - mean[low])) * (high - low)) / cards_left)
                  for low, high in pairs if mean[low] <= 0 < mean[high]]
        tc = {c: true_count(c, cards_left, convention.divisor, convention.rounding) for c in counts}
    else:
        upward = [number(positions[low] + (-mean[low] / (mean[high] - mean[low])) * (positions[high] - positions[low]))
                  for low, high in pairs if mean[low] <= 0 < mean[high]]
        tc = {c: c for c in counts}
    downward = any(mean[low] > 0 >= mean[high] for low, high in pairs)
    monotone = len(upward) <= 1 and not downward
    # the smallest running count from which deviating is better at every count above (one depth)
    running = None
    for c in reversed(counts if positions is None else ()):
        if mean[c] <= 0:
            break
        running = c
    best_index, best_gain = None, number(0)
    tie = 0 if exact else 1e-15
    if counts:
        first, last = int(math.floor(min(tc.values()))), int(math.ceil(max(tc.values()))) + 1
        target = upward[-1] if upward else None
        # tc >= an integer exactly when floor(tc) is: integers compared, the differences in
        # the counts' order (the same sums, term for term)
        floors = [math.floor(tc[c]) for c in counts]
        differences = [difference[c] for c in counts]
        for candidate in range(first, last + 1):
            gain = sum((d for d, f in zip(differences, floors) if f >= candidate), number(0))
            closer = (target is not None and best_index is not None
                      and abs(candidate - target) < abs(best_index - target))
            if best_index is None or gain > best_gain + tie or (abs(gain - best_gain) <= tie and closer):
                best_index, best_gain = candidate, gain
    frequency = sum((weight[c] for c in counts if best_index is not None and tc[c] >= best_index), number(0))
    if best_gain <= 0:  # no rule "deviate at TC >= I" gains: never deviate
        best_index, frequency, best_gain = None, number(0), number(0)
    # the crossing shown: the upward one nearest the index
    crossing = None
    if upward:
        crossing = upward[-1] if best_index is None else min(upward, key=lambda x: abs(x - best_index))
    return PlayIndex(play, crossing, running, best_index, 100 * best_gain, frequency, monotone,
                     tuple((c, mean[c]) for c in counts))


def depth_of(cards_seen: int | None, decks: str | float | Fraction | None, rules: Rules) -> int:
    """``--cards-seen N`` or ``--depth DECKS`` (decks dealt before the round) as cards seen."""
    check_rules(rules)
    if (cards_seen is None) == (decks is None):
        raise InvalidCountError("give the depth as cards seen or as decks dealt (one of them)")
    if cards_seen is not None:
        check_cards_seen(rules, cards_seen)
        return cards_seen
    try:
        dealt = Fraction(str(decks).strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidCountError(f"depth must be a number of decks such as 3 or 4.5, not {decks!r}") from None
    most = sum(rules.shoe_counts) - 4
    if not 0 <= dealt * CARDS_PER_DECK <= most:
        raise InvalidCountError(f"depth must be from 0 to {most / CARDS_PER_DECK:g} decks (a round needs cards "
                                f"left), not {decks!r}")
    cards = dealt * CARDS_PER_DECK
    if cards.denominator != 1:
        raise InvalidCountError(f"depth {decks} decks is {float(cards):g} cards: give a whole number of cards")
    return int(cards)


def convention_of(divisor: str, rounding: str) -> Convention:
    return Convention(_choice(DeckEstimate, divisor, "divisor"), _choice(Rounding, rounding, "rounding"))
