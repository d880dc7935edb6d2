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
from bjcalc.cards import UP_INDICES, Rank, parse_card
from bjcalc.counting.countshoe import (
    CARDS_PER_DECK,
    CountShoe,
    DeckEstimate,
    InvalidCountError,
    Rounding,
    _choice,
    as_tags,
    counting_tags,
    running_count_distribution,
    true_count,
)
from bjcalc.counting.eor import HandTotal, WorkerPool, map_jobs, parse_play
from bjcalc.errors import InvalidHandError, InvalidShoeError
from bjcalc.numbers import to_fraction
from bjcalc.results import _Data
from bjcalc.rules import Rules

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
    from bjcalc.counting.eor import parse_hand

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
    """The Illustrious 18 (but insurance) and, where the rules offer late surrender, the Fab 4."""
    fab = tuple(dataclasses.replace(p, published=1) if rules.hit_soft_17 and p.up is Rank.ACE else p for p in FAB_4)
    return ILLUSTRIOUS_18 + (fab if rules.surrender.value == "late" else ())


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


def index_table(rules: Rules, system: str, tags: Sequence[Any], cards_seen: int,
                plays: Sequence[IndexPlay | str] | None = None, convention: Convention | None = None,
                insurance: bool = True, workers: int | WorkerPool | None = None,
                progress: Callable[[str, int], None] | None = None, exact: bool = False) -> IndexTable:
    """The exact index of each play (default :func:`default_plays`) and of insurance for a count
    with ``cards_seen`` cards gone before the round (module docstring). ``progress(name, steps)``
    hears of each running count analysed. ``exact``: every counter's shoe in exact arithmetic,
    every difference, gain and crossing a Fraction (slow above a few decks)."""
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
    offered = {Action.STAND, Action.HIT}
    if rules.double.value != "none":
        offered.add(Action.DOUBLE)
    if rules.surrender.value != "none":
        offered.add(Action.SURRENDER)
    hands = play.hands()
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


# insurance, as a play: against the ace alone, the common list's +3
INSURANCE_PLAY = IndexPlay((), Rank.ACE, Action.STAND, (Action.STAND,), 3, "I18")


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


# -- every play the count changes (``bjcalc index --all``) ------------------------------------------

# the share of rounds, centred, over which --all looks for a change of the best play: all but the
# rarest 1 in 1000 rounds (half from each end of the counts)
LIKELY = Fraction(999, 1000)


@dataclasses.dataclass(frozen=True)
class IndexCell(_Data):
    """One two-card hand class against one up card in :func:`all_indices`: a chart cell
    (``table`` ``"hard"``, ``"soft"`` or ``"pairs"``, ``row`` as a counter's chart labels it:
    ``"16"``, ``"A,7"``, ``"8,8"``). ``basic`` is the best play over every count at this depth
    (each action's EV averaged over the counts, the hands of a total weighted by how often the
    counter sees each); ``by_count`` the best play at each likely observed running count, from
    the lowest up, repeats merged (``(Action.HIT, Action.STAND)``: hit, then stand);
    ``changes`` the index of each change (``play`` at TC >= index instead of the play before it),
    empty where the count does not change the play. ``likely``: the lowest and highest observed
    running count looked at."""

    table: str
    row: str
    hand: tuple[Rank, ...] | HandTotal
    up: Rank
    basic: Action
    by_count: tuple[Action, ...]
    changes: tuple[PlayIndex, ...]
    likely: tuple[Fraction, Fraction]

    def text(self) -> str:
        """The cell as a counter's chart prints it: the play at the lowest likely counts, then each
        play the count brings in with its index: ``"H S+0"`` (hit; stand at TC >= 0), ``"H R-1 S+4"``;
        a play alone where the count does not change it; ``(never)``: no rule 'at TC >= I' gains;
        ``*``: not monotone."""
        parts = [self.by_count[0].value]
        for change in self.changes:
            index = "(never)" if change.index is None else f"{change.index:+d}"
            parts.append(f"{change.play.play.value}{index}{'' if change.monotone else '*'}")
        return " ".join(parts)

    def to_data(self) -> dict[str, Any]:
        return {"table": self.table, "row": self.row, "up": str(self.up), "basic": self.basic.key,
                "by_count": [a.key for a in self.by_count], "cell": self.text(),
                "likely_running_counts": {"from": self.likely[0], "to": self.likely[1]},
                "changes": [c.play.name for c in self.changes]}


@dataclasses.dataclass(frozen=True)
class AllIndices(_Data):
    """:func:`all_indices`: ``table`` (an :class:`IndexTable` whose plays are every change, in
    chart order: hard, soft, pairs, each up card 2..T, A) and every chart cell."""

    table: IndexTable
    cells: tuple[IndexCell, ...]
    likely: Fraction

    def cell_table(self, kind: str) -> dict[str, dict[str, IndexCell]]:
        """``"hard"``, ``"soft"`` or ``"pairs"``: row -> up card -> cell, in chart order."""
        out: dict[str, dict[str, IndexCell]] = {}
        for cell in self.cells:
            if cell.table == kind:
                out.setdefault(cell.row, {})[str(cell.up)] = cell
        return out

    def to_data(self) -> dict[str, Any]:
        return {**self.table.to_data(), "likely_share": self.likely, "cells": [c.to_data() for c in self.cells]}


def hand_classes() -> tuple[tuple[str, str, tuple[Rank, ...] | HandTotal], ...]:
    """Every two-card hand class of a chart, as (table, row, hand): hard 5 to 19 and soft 13 to
    20 (each a total's two-card hands but pairs), then the pairs, aces first (played as their
    total where the rules offer no split); a blackjack is no decision.

    >>> [row for _, row, _ in hand_classes()][:3], len(hand_classes())
    (['5', '6', '7'], 33)
    """
    out: list[tuple[str, str, tuple[Rank, ...] | HandTotal]] = []
    out += [("hard", str(t), HandTotal(t)) for t in range(5, 20)]
    out += [("soft", f"A,{t - 11}", HandTotal(t, soft=True)) for t in range(13, 21)]
    for rank in (Rank.ACE, *(Rank.from_index(i) for i in range(1, 10))):
        out.append(("pairs", f"{rank},{rank}", (rank, rank)))
    return tuple(out)


def _likely_counts(weight: dict[Fraction, Any], share: Fraction) -> list[Fraction]:
    """The observed running counts in the centred ``share`` of ``weight``: a count is left out
    where the weight at it and every count below it (or at it and every count above) is less than
    ``(1 - share) / 2`` of the whole."""
    counts = sorted(c for c in weight if weight[c] > 0)
    total = sum(weight[c] for c in counts)
    tail = float(1 - share) / 2 * float(total)
    below, above, kept = 0.0, float(total), []
    for c in counts:
        below += float(weight[c])
        if below >= tail and above >= tail:
            kept.append(c)
        above -= float(weight[c])
    return kept


def all_indices(rules: Rules, system: str, tags: Sequence[Any], cards_seen: int, convention: Convention | None = None,
                likely: Fraction = LIKELY, insurance: bool = True, workers: int | WorkerPool | None = None,
                progress: Callable[[str, int], None] | None = None, exact: bool = False) -> AllIndices:
    """Every two-card hand class against every up card whose best play the count changes, with
    the index of each change (``bjcalc index --all``): one counter's shoe per running count of
    the discards, as :func:`index_table`, every hand and action of it analysed in the same pass.

    A class's actions (a total's hands weighted as for a play of :func:`index_table`) are compared
    at each observed running count in the centred ``likely`` share of the rounds that deal it;
    where the best one is not the same at all of them, each change, from the lowest count up
    (play ``a`` then ``b``), is a play "``b`` at TC >= I, else ``a``" whose index, crossing and
    gain are :func:`index_table`'s for it (a pair of actions that changes back and forth is one
    play, not monotone). ``published`` is the common list's index where that play is on it."""
    tags = as_tags(tags)
    convention = convention or Convention()
    if rules.infinite:
        raise InvalidShoeError("an infinite deck has no count: the cards are drawn with replacement")
    check_cards_seen(rules, cards_seen)
    if not 0 < likely <= 1:
        raise InvalidCountError(f"the likely share of rounds must be above 0 and at most 1, not {likely!r}")
    classes = hand_classes()
    actions: dict[tuple[str, str], tuple[Action, ...]] = {}
    wanted: dict[tuple[tuple[int, ...], int], set[Action]] = {}
    for kind, row, hand in classes:
        probe = IndexPlay(hand, Rank.TEN, Action.STAND, (Action.HIT,))
        offered = _offered(rules, probe)
        actions[kind, row] = tuple(a for a in Action if a in offered)
        for cards in probe.hands():
            for up_index in range(10):
                key = (tuple(sorted((c.index for c in cards), reverse=True)), up_index)
                wanted.setdefault(key, set()).update(offered)
    total = sum(rules.shoe_counts)
    chances = running_count_distribution(rules.shoe_counts, tags, cards_seen)
    top = max(chances.values())
    likely_s = [s for s, p in chances.items() if p >= NEGLIGIBLE * top]
    analysed = set(likely_s)
    left_out = sum((p for s, p in chances.items() if s not in analysed), Fraction(0))
    with_insurance = insurance and rules.insurance
    jobs = [(rules, tags, cards_seen, s, tuple((h, u, tuple(sorted(a))) for (h, u), a in sorted(wanted.items())),
             with_insurance, exact) for s in likely_s]
    report = None if progress is None else (lambda name: progress(name, len(jobs)))
    results = map_jobs(_job, jobs, workers, report, [f"discards' count {s}" for s in likely_s])
    by_count = dict(zip(likely_s, results))
    cards_left = total - cards_seen - 3
    listed = default_plays(rules)
    cells: list[IndexCell] = []
    plays: list[PlayIndex] = []
    for kind, row, hand in classes:
        for up in (Rank.from_index(i) for i in UP_INDICES):
            cell = _cell(kind, row, hand, up, actions[kind, row], tags, chances, by_count, cards_left, convention,
                         likely, exact, listed)
            if cell is not None:
                cells.append(cell)
                plays.extend(cell.changes)
    ace = None
    if with_insurance:
        ace = _insurance_index(tags, chances, by_count, total - cards_seen - 1, convention, exact)
    table = IndexTable(rules, system, tags, cards_seen, cards_left, convention, tuple(plays), ace, left_out)
    return AllIndices(table, tuple(cells), likely)


def _cell(kind: str, row: str, hand: tuple[Rank, ...] | HandTotal, up: Rank, offered: tuple[Action, ...],
          tags: tuple[Fraction, ...], chances: dict[Fraction, Fraction], by_count: dict[Fraction, Any], cards_left: int,
          convention: Convention, likely: Fraction, exact: bool,
          listed: Sequence[IndexPlay]) -> IndexCell | None:
    """One chart cell of :func:`all_indices`; ``None`` where the shoe cannot deal it."""
    probe = IndexPlay(hand, up, Action.STAND, (Action.HIT,))
    weight: dict[Fraction, Any] = {}
    value: dict[Action, dict[Fraction, Any]] = {}
    available = set(offered)
    for s, (hands, _) in by_count.items():
        p_s = chances[s] if exact else float(chances[s])
        for cards in probe.hands():
            key = (tuple(sorted((c.index for c in cards), reverse=True)), up.index)
            dealt, evs, _ = hands[key]
            if not dealt:
                continue
            available &= set(evs)
            observed = s + _tag_sum(tags, key[0]) + tags[up.index]
            w = p_s * dealt
            weight[observed] = weight.get(observed, 0) + w
            for action, ev in evs.items():
                column = value.setdefault(action, {})
                column[observed] = column.get(observed, 0) + w * ev
    choices = [a for a in offered if a in available]
    if not weight or not choices:
        return None
    basic = max(choices, key=lambda a: sum(value[a].values()))
    counts = _likely_counts(weight, likely)
    best = [max(choices, key=lambda a: value[a].get(c, 0)) for c in counts]
    runs = tuple(a for i, a in enumerate(best) if i == 0 or best[i - 1] is not a)
    changes: list[PlayIndex] = []
    seen: set[frozenset[Action]] = set()
    for before, after in zip(runs, runs[1:]):
        if frozenset((before, after)) in seen:
            continue
        seen.add(frozenset((before, after)))
        play = IndexPlay(hand, up, after, (before,), None, "all")
        common = [p for p in listed if (p.hand, p.up, p.play) == (hand, up, after) and before in p.instead]
        if common:
            play = dataclasses.replace(play, published=common[0].published, group=common[0].group)
        changes.append(_play_index(play, tags, chances, by_count, cards_left, convention, exact))
    return IndexCell(kind, row, hand, up, basic, runs, tuple(changes), (counts[0], counts[-1]))
