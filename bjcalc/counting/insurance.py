"""Insurance by count: its EV on the counter's shoe and the running count at which it turns
positive, depth by depth (``bjcalc insurance-index``; docs/countshoe.md)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.arguments import checked, shown
from bjcalc.cards import ACE, TEN, Rank, as_cards
from bjcalc.counting.countshoe import CountShoe, _counts, _minus, running_count_distribution
from bjcalc.counting.systems import TAG_LIMIT
from bjcalc.counting.tags import (
    CARDS_PER_DECK,
    InvalidCountError,
    _number,
    as_tags,
    check_initial_running_count,
    counting_tags,
    subsets_by_sum,
    tag_scale,
    true_count,
)
from bjcalc.errors import InvalidArgumentError, InvalidShoeError

# -- insurance by count ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class InsuranceIndex:
    """Where insurance turns positive at one depth, for a hand against an ace.

    ``running_count``: the smallest running count (hand and ace included) from which insurance
    is positive at every possible running count above it (``None`` if it never is);
    ``below``: the largest possible running count under it (insurance not positive there);
    ``evs``: insurance's exact EV per unit bet at every possible running count;
    ``monotone``: whether the EV rises with the running count at this depth (then insurance is
    positive exactly at and above ``running_count``)."""

    cards_left: int
    running_count: Fraction | None
    below: Fraction | None
    evs: dict[Fraction, Fraction]
    monotone: bool

    @property
    def true_count(self) -> Fraction | None:
        """The index as a true count: ``running_count`` per deck left, exact (cards left / 52)."""
        return None if self.running_count is None else true_count(self.running_count, self.cards_left)

    @property
    def below_true_count(self) -> Fraction | None:
        return None if self.below is None else true_count(self.below, self.cards_left)

    def to_data(self) -> dict[str, Any]:
        return {"cards_left": self.cards_left, "decks_left": Fraction(self.cards_left, CARDS_PER_DECK),
                "running_count": self.running_count, "true_count": self.true_count,
                "below_running_count": self.below, "below_true_count": self.below_true_count,
                "ev_at_index": None if self.running_count is None else self.evs[self.running_count],
                "ev_below": None if self.below is None else self.evs[self.below],
                "monotone": self.monotone}


@dataclasses.dataclass(frozen=True)
class InsuranceTable:
    """:func:`insurance_index` at several depths, for one count, shoe and hand."""

    system: str
    tags: tuple[Fraction, ...]
    shoe: tuple[int, ...]
    hand: tuple[Rank, ...]  # the cards on the table besides the ace (none: only the ace)
    initial_running_count: Fraction
    rows: tuple[InsuranceIndex, ...]

    @property
    def balanced(self) -> bool:
        """Whether the tags sum to 0 over the shoe."""
        return sum(t * n for t, n in zip(self.tags, self.shoe)) == 0

    def to_data(self) -> dict[str, Any]:
        # the tags are given, not computed: plain numbers (as the count command prints them), no exact mirror
        tags = [self.tags[r] for r in list(range(1, 10)) + [ACE]]
        return {"system": self.system, "tags": [int(t) if t.denominator == 1 else float(t) for t in tags],
                "balanced": self.balanced, "initial_running_count": self.initial_running_count,
                "hand": ",".join(map(str, self.hand)), "up": "A",
                "rows": [row.to_data() for row in self.rows]}


@checked
def insurance_index(shoe: Sequence[int], tags: Sequence[Any], hand: str | Sequence[Rank | str | int],
                    cards_left: int, initial_running_count: Fraction | int | str = 0) -> InsuranceIndex:
    """Insurance for ``hand`` (any number of cards on the table besides the ace; none for an
    index that counts only the ace) against an ace with ``cards_left`` cards unseen, at every
    running count the shoe can produce there, and the smallest running count from which it is
    positive (:class:`InsuranceIndex`); exact.

    >>> row = insurance_index((4,) * 9 + (16,), (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), "T,9", 26)
    >>> row.running_count, row.true_count
    (Fraction(1, 1), Fraction(2, 1))
    """
    fixed = as_tags(tuple(tags))
    irc = _number(initial_running_count, "initial running count")
    _check_irc_range(shoe, fixed, irc)
    return _insurance_rows(tuple(shoe), fixed, as_cards(hand) if hand else (), (cards_left,), irc)[0]


def _check_irc_range(shoe: Sequence[int], tags: Sequence[Fraction], irc: Fraction) -> None:
    """Refuse an initial running count no count of the shoe comes near (larger in size than the
    largest tags allowed on all its cards together) or a fraction the tags do not make, before any
    work. A shift of a
    balanced count is taken here, as :class:`CountShoe` takes it (:func:`insurance_table`, the
    command's, refuses it)."""
    most = TAG_LIMIT * sum(max(n, 0) for n in shoe)  # an offset of the count: any a count of the shoe could be
    if irc and abs(irc) > most:
        raise InvalidCountError(f"initial running count (IRC) {shown(irc)} is beyond what any count of the "
                                f"shoe's cards can produce (from {-most} to {most}: tags of at most {TAG_LIMIT})")
    scale = tag_scale(tags)
    if (irc * scale).denominator != 1:
        unit = "a whole number" if scale == 1 else f"a multiple of 1/{scale}"
        raise InvalidCountError(f"initial running count (IRC) {irc} is not {unit}, as every running count of "
                                "these tags is")


def _insurance_rows(shoe: tuple[int, ...], tags: tuple[Fraction, ...], cards: tuple[Rank, ...],
                    depths: tuple[int, ...], irc: Fraction) -> tuple[InsuranceIndex, ...]:
    # the top of the shoe with the table dealt validates the shoe, the tags and the table
    top = CountShoe(shoe=shoe, tags=tags, hand=cards, up=Rank.ACE, initial_running_count=irc,
                    running_count=irc + sum(tags[c.index] for c in cards + (Rank.ACE,)))
    pool = top.off_table
    if not depths:
        # an empty table would read as "never insure": say why there is no depth instead
        if sum(pool):
            raise InvalidShoeError("cards left: give at least one depth")
        dealt = "the hand and the dealer's ace are" if cards else "the dealer's ace is"
        raise InvalidShoeError(f"shoe {','.join(map(str, shoe))} has no card left once {dealt} dealt: "
                               "no depth to show an insurance index at")
    for cards_left in depths:
        if not isinstance(cards_left, int) or isinstance(cards_left, bool) or not 1 <= cards_left <= sum(pool):
            raise InvalidShoeError(f"cards left must be a whole number from 1 to {sum(pool)} (the cards off the "
                                   f"table), not {cards_left!r}")
    classes = top.classes
    totals = classes.totals(pool)
    ten_class = classes.of_rank[TEN]
    rows = []
    for cards_left in depths:
        seen = sum(pool) - cards_left
        every = subsets_by_sum(totals, classes.values, seen)
        without_ten = subsets_by_sum(_minus(totals, ten_class), classes.values, seen) if pool[TEN] else {}
        evs = {}
        for s, ways in every.items():
            tens = Fraction(pool[TEN] * without_ten.get(s, 0), ways)
            evs[top.running_count + Fraction(s, classes.scale)] = 3 * tens / cards_left - 1
        counts = sorted(evs)
        index = None
        for rc in reversed(counts):
            if evs[rc] <= 0:
                break
            index = rc
        below_counts = [rc for rc in counts if index is None or rc < index]
        below = below_counts[-1] if below_counts else None
        monotone = all(evs[a] <= evs[b] for a, b in zip(counts, counts[1:]))
        rows.append(InsuranceIndex(cards_left, index, below, dict(sorted(evs.items())), monotone))
    return tuple(rows)


def default_depths(cards_off_table: int) -> tuple[int, ...]:
    """The depths an insurance table shows by default, most cards left first: every half deck
    (26, 52, ... cards left), every quarter deck for a shoe of fewer than 104 cards off the
    table, every card for one of fewer than 13.

    >>> default_depths(51), default_depths(10)
    ((39, 26, 13), (10, 9, 8, 7, 6, 5, 4, 3, 2, 1))
    """
    step = 1 if cards_off_table < 13 else 13 if cards_off_table < 104 else 26
    return tuple(range(cards_off_table // step * step, 0, -step))


@checked
def insurance_table(shoe: Sequence[int], tags: Sequence[Any], hand: str | Sequence[Rank | str | int],
                    cards_left: Iterable[int] | None = None, initial_running_count: Fraction | int | str = 0,
                    system: str = "custom") -> InsuranceTable:
    """:func:`insurance_index` at each of ``cards_left`` (default :func:`default_depths`), for
    ``hand`` (two cards, as counters print the table for a hand; none: only the ace counted)."""
    if not system.strip():
        raise InvalidArgumentError(
            f"insurance_table: system must name the count (its label in the table), not {system!r}")
    cards = as_cards(hand) if hand else ()
    fixed = counting_tags(tuple(tags) if isinstance(tags, Sequence) else tags)
    if isinstance(shoe, (str, bytes)) or not isinstance(shoe, Sequence):
        raise InvalidShoeError(f"shoe must be ten whole-number counts A..T, each >= 0, not {shoe!r}")
    off = sum(shoe) - len(cards) - 1
    depths = tuple(cards_left) if cards_left is not None else default_depths(off)
    irc = _number(initial_running_count, "initial running count")
    check_initial_running_count(shoe, fixed, irc)
    rows = _insurance_rows(tuple(shoe), fixed, cards, depths, irc)
    return InsuranceTable(system, fixed, tuple(shoe), cards, irc, rows)


@dataclasses.dataclass(frozen=True)
class BestInsuranceIndex:
    """The single true-count index ``w`` of the rule "insure iff TC > w" (exact true count) that
    gains most over rounds dealt evenly at the given depths, each depth's running counts weighted
    by their exact probabilities: every ``w`` in ``[low, high)`` does (``low`` is ``None`` when
    insuring at every count is best; ``high`` is ``None`` when never insuring is).

    ``by_true_count``: insurance's EV times the probability of each true count, averaged over the
    depths (per round with the ace up and the table dealt); :meth:`gain` sums it above ``w``."""

    low: Fraction | None
    high: Fraction | None
    by_true_count: dict[Fraction, Fraction]

    def gain(self, w: Fraction | int | None) -> Fraction:
        """The expected insurance gain per round of "insure iff TC > w" (``None``: at every count)."""
        return sum((g for tc, g in self.by_true_count.items() if w is None or tc > w), Fraction(0))

    @property
    def best_gain(self) -> Fraction:
        return self.gain(self.low) if self.high is not None else Fraction(0)


@checked
def best_insurance_index(shoe: Sequence[int], tags: Sequence[Any], hand: str | Sequence[Rank | str | int],
                         cards_left: Iterable[int], initial_running_count: Fraction | int | str = 0
                         ) -> BestInsuranceIndex:
    """The one insurance index (a true count) that gains most over ``cards_left`` depths, the way a
    table of indices averaged over a shoe is made (:class:`BestInsuranceIndex`); exact. The
    running count's probabilities at each depth are :func:`running_count_distribution` of the
    cards off the table, from the running count of the table.

    >>> best = best_insurance_index((4,) * 9 + (16,), (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), "", range(51, 12, -1))
    >>> float(best.low), float(best.high)
    (1.3333333333333333, 1.368421052631579)
    """
    cards = as_cards(hand) if hand else ()
    fixed = as_tags(tuple(tags) if isinstance(tags, Sequence) else tags)
    depths = tuple(cards_left)
    if not depths:
        raise InvalidShoeError("best_insurance_index needs at least one number of cards left")
    irc = _number(initial_running_count, "initial running count")
    _check_irc_range(shoe, fixed, irc)
    rows = _insurance_rows(tuple(shoe), fixed, cards, depths, irc)
    table = cards + (Rank.ACE,)
    pool = [n - v for n, v in zip(shoe, _counts(table))]
    start = irc + sum(fixed[c.index] for c in table)
    by: dict[Fraction, Fraction] = {}
    for row in rows:
        seen = sum(pool) - row.cards_left
        for rc, p in running_count_distribution(tuple(pool), fixed, seen, start).items():
            tc = true_count(rc, row.cards_left)
            by[tc] = by.get(tc, Fraction(0)) + p * row.evs[rc] / len(depths)
    counts = sorted(by)
    best, running, at = Fraction(0), Fraction(0), len(counts)  # at: the lowest true count insured
    for i in range(len(counts) - 1, -1, -1):
        running += by[counts[i]]
        if running > best:
            best, at = running, i
    if at == len(counts):
        return BestInsuranceIndex(counts[-1], None, dict(sorted(by.items())))
    return BestInsuranceIndex(counts[at - 1] if at else None, counts[at], dict(sorted(by.items())))
