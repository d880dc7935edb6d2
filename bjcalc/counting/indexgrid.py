"""Every hand against every up card the count changes, as a counter's chart (``bjcalc index
--all``): each cell's index from the exact model of the counter's shoe at one depth."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.cards import UP_INDICES, Rank
from bjcalc.counting.checking import checked_rules_first
from bjcalc.counting.countshoe import running_count_distribution
from bjcalc.counting.indices import (
    NEGLIGIBLE,
    Convention,
    IndexPlay,
    IndexTable,
    PlayIndex,
    _insurance_index,
    _job,
    _offered,
    _play_index,
    _tag_sum,
    check_cards_seen,
    check_system_name,
    default_plays,
)
from bjcalc.counting.plays import HandTotal
from bjcalc.counting.tags import (
    InvalidCountError,
    as_tags,
)
from bjcalc.counting.tasks import check_arguments
from bjcalc.counting.workers import WorkerPool, map_jobs
from bjcalc.errors import InvalidShoeError
from bjcalc.results import _Data
from bjcalc.rules import Rules

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


@checked_rules_first
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
    check_arguments(rules, workers)
    check_system_name(system, "all_indices")
    tags, convention = as_tags(tags), convention or Convention()
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
