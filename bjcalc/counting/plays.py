"""Effects of removal of one decision: a play (``T,6 v T stand hit``, or a total, ``16 v T``) or
insurance, on a full shoe or a counter's shoe (:func:`play_effects`, :func:`insurance_effects`);
the round's are :mod:`bjcalc.counting.eor`'s."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.actions import Action
from bjcalc.analysis import Analysis, _checked_count_shoe
from bjcalc.arguments import check_fields
from bjcalc.cards import ACE, TEN, UP_ORDER, Rank, as_cards, parse_card, parse_cards
from bjcalc.counting.checking import checked_rules_first
from bjcalc.counting.countshoe import CountShoe, InvalidCountError
from bjcalc.counting.workers import WorkerPool, check_workers, map_jobs
from bjcalc.errors import (
    CardNotInShoeError,
    InvalidCardError,
    InvalidHandError,
    InvalidShoeError,
)
from bjcalc.numbers import to_api, to_fraction
from bjcalc.results import _Data, by_up
from bjcalc.rules import Rules, check_rules


def _chart_order(ranks: Mapping[Rank, Any]) -> list[Rank]:
    return sorted(ranks, key=lambda r: UP_ORDER.index(r.value))


def _play_difference(rules: Rules, cards: tuple[Rank, ...], up: Rank, first: Action, second: Action,
                     exact: bool, post_split: str) -> Fraction | float:
    """EV(first) - EV(second) for ``cards`` against ``up`` on ``rules``' shoe."""
    result = Analysis(rules, exact=exact, post_split=post_split).hand(cards, up)
    for action in (first, second):
        if action not in result.evs:
            raise InvalidHandError(f"{action.key} is not a play for {result.notation} against {up}")
    difference = result.evs[first] - result.evs[second]
    return to_fraction(difference) if exact else float(difference)


def seen_one_more(shoe: CountShoe, rank: Rank | str) -> CountShoe | None:
    """The counter's shoe once one more card, a ``rank``, has been seen and gone to the discards:
    one more card seen and the running count plus its tag, the rank forgotten as every
    discard's; ``None`` where the next card cannot be a ``rank`` (probability 0).

    >>> from bjcalc import CountShoe
    >>> shoe = CountShoe.named("hi-lo", shoe=(4,) * 9 + (16,), seen=10, running_count=2)
    >>> after = seen_one_more(shoe, "5")
    >>> after.seen, after.running_count
    (11, Fraction(3, 1))
    >>> seen_one_more(CountShoe.named("hi-lo", shoe=(1,) * 9 + (4,), seen=5, running_count=5), "2") is None
    True
    """
    card = parse_card(rank) if isinstance(rank, str) else rank
    if shoe.visible:
        raise InvalidHandError("the counter's shoe for effects of removal is the shoe before the round: "
                               "nothing on the table")
    if not shoe.can_deal([card]):
        return None
    return shoe.after([card]).cleared()


def _not_seen_next(shoe: CountShoe, rank: Rank) -> str:
    """Why the next card seen cannot be a ``rank`` on ``shoe`` (one the shoe holds)."""
    if shoe.cards_left == 0:
        return "no card is left to be seen"
    tag = shoe.tags[rank.index]
    same = ",".join(map(str, _chart_order({r: 0 for r in Rank if shoe.tags[r.index] == tag and shoe.shoe[r.index]})))
    shown = str(tag) if tag <= 0 else f"+{tag}"
    return f"every card tagged {shown} ({same}) is among the cards seen at this count: none can be seen next"


@dataclasses.dataclass(frozen=True)
class PlayEffects(_Data):
    """A decision's EV difference (``first`` minus ``second``, per initial bet, in the hand's
    frame) and its EOR for every rank left in the shoe (exact in exact mode)."""

    cards: tuple[Rank, ...]
    up: Rank
    first: Action | None  # None for insurance: insuring minus not
    second: Action | None
    difference: Any
    after: dict[Rank, Any]  # the difference after removing one card of the rank
    conditioned: bool
    rules: Rules  # the shoe the decision is taken from (before the hand is dealt)
    total: HandTotal | None = None  # a decision named by its total: every two-card hand of it
    # on a counter's shoe: the ranks the shoe holds that have no EOR for this decision, and why
    not_removable: dict[Rank, str] = dataclasses.field(default_factory=dict)

    @property
    def eor(self) -> dict[Rank, Any]:
        return {rank: d - self.difference for rank, d in self.after.items()}

    @property
    def hand_text(self) -> str:
        """``T,6``; for a total, the total and the hands it stands for: ``hard 16 (T,6 or 9,7)``."""
        if self.total is not None:
            return f"{self.total} ({' or '.join(','.join(map(str, h)) for h in self.total.hands())})"
        return ",".join(map(str, self.cards))

    @property
    def label(self) -> str:
        """``T,6 v T: stand - hit``; ``insurance v A`` (insure minus not)."""
        hand = self.hand_text
        if self.first is None or self.second is None:
            return f"insurance v {self.up}" + (f" ({hand} seen)" if hand else "")
        return f"{hand} v {self.up}: {self.first.key} - {self.second.key}"

    def shoe_left(self) -> tuple[Any, ...]:
        """The shoe the EORs are taken on, A..T: the shoe without the hand and the up card; for a
        total, without the up card and the hand's expected cards (each hand weighted by its
        chance), exact fractions."""
        if self.total is None:
            return self.rules.without(list(self.cards) + [self.up]).shoe_counts
        counts = self.rules.without([self.up]).shoe_counts
        expected = [Fraction(0)] * 10
        for hand, share in _total_weights(counts, self.total.hands(), self.up, self.conditioned).items():
            for card in hand:
                expected[card.index] += share
        return tuple(n - e for n, e in zip(counts, expected))

    def to_data(self) -> dict[str, Any]:
        return {
            "play": self.label, "hand": self.hand_text, "up": str(self.up),
            "first": self.first.key if self.first else "insure",
            "second": self.second.key if self.second else "not",
            "frame": "conditioned" if self.conditioned else "unconditional",
            "difference": self.difference,
            "eor": by_up(self.eor),
            "not_removable": by_up(self.not_removable),
        }


def play_effects(
    rules: Rules,
    cards: str | Sequence[Rank | str] | HandTotal,
    up: Rank | str,
    first: Action | str,
    second: Action | str,
    *,
    exact: bool = False,
    post_split: str = "cdz-",
    workers: int | WorkerPool | None = None,
    shoe: CountShoe | None = None,
) -> PlayEffects:
    """The EOR of ``EV(first) - EV(second)`` for ``cards`` against ``up`` (CD play after the
    first decision), removing one card of each rank from the shoe left after the hand and the
    up card. ``cards`` may name a total (``"16"``, ``"soft 18"``, :func:`parse_hand`): the
    difference is then the average over every two-card hand of the total, each weighted by its
    chance of being dealt with ``up``, on the shoe before and after each removal.

    ``shoe``: a counter's shoe of ``rules``' shoe, nothing on the table, whose cards seen and
    running count are the counter's at the decision, the hand and the up card among them (as
    ``bjcalc hand`` counts them); the EOR of a rank is then the difference once one more card
    of it is seen (one more card seen, the running count plus its tag) minus the difference
    before, ranks of one tag sharing one value, and ``not_removable`` says why a rank the shoe
    holds has none (:func:`seen_one_more`). A total's hands are weighted by how likely the
    counter is to face each at the count (and, in the conditioned frame, with no dealer
    blackjack).

    >>> from bjcalc import CountShoe
    >>> rules = Rules(shoe=(2,) * 9 + (8,), player_max_cards=4, dealer_max_cards=4, split_hands=1)
    >>> counter = CountShoe.named("hi-lo", shoe=rules.shoe_counts, seen=5, running_count=1)
    >>> play = play_effects(rules, "T,6", "T", "stand", "hit", shoe=counter, workers=1)
    >>> play.eor[Rank.TWO] == play.eor[Rank.SIX], sorted(map(str, play.not_removable))
    (True, [])
    """
    check_rules(rules)
    check_workers(workers)
    hand = parse_hand(cards) if isinstance(cards, str) else cards
    plays = (_action(first), _action(second))
    if shoe is not None:
        decision = hand if isinstance(hand, HandTotal) else as_cards(hand)
        return _counter_play_effects(rules, shoe, decision, parse_card(up), plays[0], plays[1], exact, post_split,
                                     workers)
    if isinstance(hand, HandTotal):
        return _total_play_effects(rules, hand, parse_card(up), plays, exact, post_split, workers)
    analysis = Analysis(rules, exact=exact, post_split=post_split)
    base = analysis.hand(hand, up)
    for action in plays:
        if action not in base.evs:
            raise InvalidHandError(f"{action.key} is not a play for {base.notation} against {base.up}")
    left = rules.without(list(base.cards) + [base.up])
    ranks = [rank for rank in Rank if left.shoe_counts[rank.index] > 0]
    arguments = [(rules.without([rank]), base.cards, base.up, plays[0], plays[1], exact, post_split)
                 for rank in ranks]
    after = map_jobs(_play_difference, arguments, workers, None, [str(r) for r in ranks])
    return PlayEffects(
        cards=base.cards, up=base.up, first=plays[0], second=plays[1],
        difference=base.evs[plays[0]] - base.evs[plays[1]],
        after={rank: to_api(d, exact) for rank, d in zip(ranks, after)},
        conditioned=base.conditioned, rules=rules,
    )


def _total_play_effects(rules: Rules, hand: HandTotal, up_rank: Rank, plays: tuple[Action, Action], exact: bool,
                        post_split: str, workers: int | WorkerPool | None) -> PlayEffects:
    """:func:`play_effects` of a play named by its total: every two-card hand of it, each by its
    chance of being dealt against ``up_rank``, on the shoe before and after each removal."""
    hands = hand.hands()
    left = rules.without([up_rank])
    if not any(_hand_weight(left.shoe_counts, h) for h in hands):
        raise InvalidHandError(f"the shoe cannot deal a {hand} against {up_rank}")
    analysis = Analysis(rules, exact=exact, post_split=post_split)
    for h in hands:
        if _hand_weight(left.shoe_counts, h):
            evs = analysis.hand(h, up_rank).evs
            for action in plays:
                if action not in evs:
                    raise InvalidHandError(f"{action.key} is not a play for {hand} against {up_rank}")
    ranks, refused = [], {}
    for rank in (rank for rank in Rank if left.shoe_counts[rank.index] > 0):
        after_one = left.without([rank]).shoe_counts
        if any(_hand_weight(after_one, h) for h in hands):
            ranks.append(rank)
        else:  # a deep shoe: without one more of the rank, no hand of the total is left to deal
            refused[rank] = f"with one more {rank} out, the shoe cannot deal a {hand} against {up_rank}"
    shoes = [rules] + [rules.without([rank]) for rank in ranks]
    jobs: list[tuple] = [(shoe, hands, up_rank, plays[0], plays[1], exact, post_split) for shoe in shoes]
    base_difference, *after = map_jobs(_total_difference, jobs, workers, None, ["full shoe"] + [str(r) for r in ranks])
    conditioned = analysis.hand(next(h for h in hands if _hand_weight(left.shoe_counts, h)), up_rank).conditioned
    return PlayEffects(
        cards=(), up=up_rank, first=plays[0], second=plays[1], difference=to_api(base_difference, exact),
        after={rank: to_api(d, exact) for rank, d in zip(ranks, after)},
        conditioned=conditioned, rules=rules, total=hand, not_removable=refused,
    )


@dataclasses.dataclass(frozen=True)
class HandTotal:
    """A decision named by its total, as counters name them: every two-card hand of the total
    that is not a pair (a pair is named by its cards, ``8,8``).

    >>> HandTotal(16).hands(), str(HandTotal(18, soft=True))
    (((Rank.TEN, Rank.SIX), (Rank.NINE, Rank.SEVEN)), 'soft 18')
    """

    value: int
    soft: bool = False

    def __post_init__(self) -> None:
        check_fields(self)
        low, high = (13, 20) if self.soft else (5, 19)
        if not low <= self.value <= high:
            kind = "soft" if self.soft else "hard"
            raise InvalidHandError(
                f"HandTotal: value must be from {low} to {high} for a {kind} total (a two-card {kind} total that "
                f"is not a pair; give a pair by its cards, e.g. 8,8), not {self.value!r}")

    def __str__(self) -> str:
        return f"{'soft' if self.soft else 'hard'} {self.value}"

    def hands(self) -> tuple[tuple[Rank, Rank], ...]:
        """The two-card hands of the total, not pairs, higher card first."""
        out = []
        for high in range(10, 1, -1):  # 10 = a ten-valued card
            for low in range(high - 1, 0, -1):
                soft = low == 1
                value = high + low + (10 if soft else 0)
                if soft == self.soft and value == self.value and high != low:
                    out.append((_rank_of(high), _rank_of(low)))
        return tuple(out)


def _rank_of(value: int) -> Rank:
    return Rank.ACE if value == 1 else Rank.TEN if value == 10 else Rank(str(value))


_TOTAL = re.compile(r"(?P<kind>h|hard|s|soft)?\s*(?P<value>\d{1,2})", re.IGNORECASE)


def parse_hand(text: str) -> tuple[Rank, ...] | HandTotal:
    """A hand as a play names it: cards (``T,6``, ``A7``, ``8,8``) or a total: ``16`` or ``h16``
    (hard 16: T,6 and 9,7), ``s18`` or ``soft 18`` (A,7). Digits that read as two or more
    cards (``55``) are cards; a total stands for the two-card hands of it that are not pairs.

    >>> parse_hand("16"), parse_hand("soft18"), parse_hand("55")
    (HandTotal(value=16, soft=False), HandTotal(value=18, soft=True), (Rank.FIVE, Rank.FIVE))
    """
    match = _TOTAL.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        return parse_cards(text)
    if match["kind"] is None:
        try:
            cards = parse_cards(text)
        except InvalidCardError:
            cards = ()
        if len(cards) >= 2:
            return cards
    value, soft = int(match["value"]), (match["kind"] or "h").lower().startswith("s")
    if not (13 <= value <= 20 if soft else 5 <= value <= 19):  # no two-card total of it that is not a pair
        kind = "soft" if soft else "hard"
        raise InvalidHandError(
            f"no two-card {kind} {value} that is not a pair, in {text!r}: a total is "
            f"{'13 to 20 (soft)' if soft else '5 to 19 (hard)'}; give a pair by its cards, e.g. 8,8")
    return HandTotal(value, soft=soft)


def _hand_weight(counts: Sequence[int], hand: tuple[Rank, ...]) -> int:
    """How many ways ``counts`` deals the two distinct ranks of ``hand`` (proportional to its
    chance)."""
    a, b = hand[0].index, hand[1].index
    return counts[a] * counts[b]


def _total_weights(counts: Sequence[int], hands: Sequence[tuple[Rank, Rank]], up: Rank,
                   conditioned: bool) -> dict[tuple[Rank, Rank], Fraction]:
    """Each hand's share of the decision dealt from ``counts`` (the shoe once ``up`` is out):
    its chance, and where the frame is conditioned, times the chance of no dealer blackjack
    with it out (the hole card drawn from the cards left). Hands the shoe cannot deal: 0."""
    raw: dict[tuple[Rank, Rank], Fraction] = {}
    hole = {Rank.ACE: TEN, Rank.TEN: ACE}.get(up)
    for hand in hands:
        weight = Fraction(_hand_weight(counts, hand))
        if conditioned and hole is not None and weight:
            left = list(counts)
            for card in hand:
                left[card.index] -= 1
            weight *= 1 - Fraction(left[hole], sum(left))
        raw[hand] = weight
    whole = sum(raw.values())
    return {hand: w / whole if whole else Fraction(0) for hand, w in raw.items()}


def _total_difference(rules: Rules, hands: Sequence[tuple[Rank, Rank]], up: Rank, first: Action, second: Action,
                      exact: bool, post_split: str) -> Fraction | float:
    """EV(first) - EV(second) averaged over ``hands`` against ``up`` on ``rules``' shoe, each
    hand weighted by its share of the decision (:func:`_total_weights`)."""
    counts = rules.without([up]).shoe_counts
    analysis = Analysis(rules, exact=exact, post_split=post_split)
    results = {h: analysis.hand(h, up) for h in hands if _hand_weight(counts, h)}
    conditioned = next(iter(results.values())).conditioned
    total: Fraction | float = Fraction(0) if exact else 0.0
    for hand, share in _total_weights(counts, hands, up, conditioned).items():
        if share:
            evs = results[hand].evs
            difference = evs[first] - evs[second]
            total += to_fraction(difference) * share if exact else float(difference) * float(share)
    return total


def _action(action: Action | str) -> Action:
    if isinstance(action, Action):
        return action
    for member in Action:
        if str(action).lower() in (member.key, member.value.lower()):
            return member
    raise InvalidHandError(f"unknown play {action!r} (stand, hit, double, split, surrender)")


_PLAY = re.compile(r"(?P<cards>.+?)\s+vs?\.?\s+(?P<up>\S+)\s+(?P<first>\S+)\s+(?P<second>\S+)", re.IGNORECASE)


def parse_play(text: str) -> tuple[tuple[Rank, ...] | HandTotal, Rank, Action, Action]:
    """A decision as people write it, ``"CARDS v UP FIRST SECOND"``: the hand (cards, or a
    total: :func:`parse_hand`), the up card and the two plays compared (:func:`play_effects`
    takes the first minus the second).

    >>> parse_play("T,6 v T stand hit")
    ((Rank.TEN, Rank.SIX), Rank.TEN, Action.STAND, Action.HIT)
    """
    match = _PLAY.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InvalidHandError(f"a play reads 'CARDS v UP ACTION ACTION', e.g. 'T,6 v T stand hit', not {text!r}")
    first, second = _action(match["first"]), _action(match["second"])
    if first is second:
        raise InvalidHandError(f"a play compares two different actions, not {first.key} with itself in {text!r}")
    return parse_hand(match["cards"]), parse_card(match["up"]), first, second


@checked_rules_first
def insurance_effects(rules: Rules, cards: str | Sequence[Rank | str] = (), *,
                      shoe: CountShoe | None = None) -> PlayEffects:
    """The EOR of insurance (EV per unit of insurance bet, insuring minus not), exact: with
    ``t`` tens among ``n`` cards left, insurance is worth ``(3 t - n) / n``. ``shoe``: a
    counter's shoe (nothing on the table) whose cards seen and running count include the ace up
    and ``cards``; insurance is then worth ``3 E[tens left] / L - 1`` and the EOR of a rank is its
    change once one more card of the rank is seen (:func:`play_effects`)."""
    check_rules(rules)
    seen = as_cards(cards) if cards else ()
    if shoe is not None:
        return _counter_insurance_effects(rules, shoe, seen)
    analysis = Analysis(rules, exact=True)
    ace = Rank.ACE
    base = to_fraction(analysis.insurance(ace, seen))
    left = rules.without(list(seen) + [ace])
    after = {}
    for rank in Rank:
        if left.shoe_counts[rank.index]:
            after[rank] = analysis.insurance(ace, seen + (rank,))
    return PlayEffects(cards=seen, up=ace, first=None, second=None, difference=to_api(base, True),
                       after=after, conditioned=False, rules=rules)


# -- a decision's EORs on a counter's shoe --------------------------------------------------------


def _decision_shoe(shoe: CountShoe, cards: Sequence[Rank], up: Rank) -> CountShoe | None:
    """The counter's shoe deciding ``cards`` against ``up``: ``shoe``'s cards seen and running
    count (nothing on its table), the hand and the up card among them; ``None`` where that
    cannot be (too few cards seen, cards the shoe does not hold, a count they cannot make)."""
    if shoe.seen < len(cards) + 1:
        return None
    try:
        return dataclasses.replace(shoe, seen=shoe.seen - len(cards) - 1, hand=tuple(cards), up=up)
    except (InvalidCountError, CardNotInShoeError):
        return None


def _seen_tag(state: CountShoe, tag: Fraction) -> CountShoe | None:
    """``state`` (the table as it is) once one more card, of ``tag``, has gone to the discards;
    ``None`` where no discards fit that count."""
    if state.cards_left == 0:
        return None
    try:
        return dataclasses.replace(state, seen=state.seen + 1, running_count=state.running_count + tag)
    except InvalidCountError:
        return None


def _decision_states(shoe: CountShoe, hand: tuple[Rank, ...] | HandTotal, up: Rank
                     ) -> dict[tuple[Rank, ...], CountShoe]:
    """The counter's shoe of each hand of the decision (:func:`_decision_shoe`), the hands that
    cannot be left out; none: refused."""
    hands = list(hand.hands()) if isinstance(hand, HandTotal) else [hand]
    name = str(hand) if isinstance(hand, HandTotal) else ",".join(map(str, hand))
    needed = len(hands[0]) + 1
    if shoe.seen < needed:
        raise InvalidShoeError(f"cards seen must be at least {needed} for {name} v {up}: the hand and the up card "
                               f"are among them, not {shoe.seen}")
    states = {h: s for h in hands if (s := _decision_shoe(shoe, h, up)) is not None}
    if not states:
        raise InvalidHandError(f"the counter's shoe cannot deal {name} against {up} at running count "
                               f"{shoe.running_count} after {shoe.seen} cards seen (probability 0)")
    return states


def _counter_difference(rules: Rules, state: CountShoe, cards: tuple[Rank, ...], up: Rank, first: Action,
                        second: Action, exact: bool, post_split: str) -> tuple[Fraction | float, bool] | str:
    """EV(first) - EV(second) for the hand on ``state``'s table and whether it is conditioned on
    no dealer blackjack; where the cards left are too few, the error's words."""
    try:
        result = Analysis(rules, exact=exact, post_split=post_split, shoe=state.undealt()).hand(cards, up)
    except InvalidShoeError as error:
        return str(error)
    difference = result.evs[first] - result.evs[second]
    return (to_fraction(difference) if exact else float(difference)), result.conditioned


def _decision_weight(rules: Rules, state: CountShoe, conditioned: bool) -> Fraction:
    """How likely the counter is to face the hand and up card on ``state``'s table, up to a
    factor every hand of a decision at one count shares: the ways the full shoe deals those
    cards times the discard sets that fit the count (every discard set and deal equally
    likely); in the conditioned frame, times the chance of no dealer blackjack."""
    dealt = [0] * 10
    for card in state.visible:
        dealt[card.index] += 1
    ways = math.prod(math.perm(n, k) for n, k in zip(rules.shoe_counts, dealt))
    weight = Fraction(ways * state.discard_sets())
    hole = {Rank.ACE: TEN, Rank.TEN: ACE}.get(state.up) if state.up is not None else None
    if conditioned and hole is not None:
        weight *= 1 - state.expected_left()[hole] / state.cards_left
    return weight


def _mixed(rules: Rules, states: dict[tuple[Rank, ...], CountShoe],
           results: dict[tuple[Rank, ...], tuple[Fraction | float, bool] | str], exact: bool
           ) -> tuple[Fraction | float, bool] | str:
    """The decision's difference: its hands' differences, each weighted by its share
    (:func:`_decision_weight`); or the words of a hand's error."""
    for result in results.values():
        if isinstance(result, str):
            return result
    done = {h: r for h, r in results.items() if not isinstance(r, str)}
    conditioned = next(iter(done.values()))[1]
    weights = {h: _decision_weight(rules, states[h], conditioned) for h in done}
    whole = sum(weights.values())
    if exact:
        return sum((weights[h] / whole * to_fraction(d) for h, (d, _) in done.items()), Fraction(0)), conditioned
    return sum(float(weights[h] / whole) * float(d) for h, (d, _) in done.items()), conditioned


def _not_seen_next_at(state: CountShoe, rank: Rank) -> str:
    """Why one more card seen cannot be a ``rank`` with ``state``'s cards on the table."""
    if state.off_table[rank.index] == 0:
        return f"every {rank} of the shoe is on the table"
    return _not_seen_next(state, rank)


def _counter_play_effects(rules: Rules, shoe: CountShoe, hand: tuple[Rank, ...] | HandTotal, up: Rank,
                          first: Action, second: Action, exact: bool, post_split: str,
                          workers: int | WorkerPool | None) -> PlayEffects:
    """:func:`play_effects` on the counter's ``shoe``: one analysis per hand of the decision and
    per tag of the card seen next."""
    _checked_count_shoe(rules, shoe)
    states = _decision_states(shoe, hand, up)
    ranks = [rank for rank in Rank if rules.shoe_counts[rank.index]]
    refused: dict[Rank, str] = {}
    # the counter keeps the card's tag, not its rank: each tag gives one shoe per hand
    after: dict[Fraction, dict[tuple[Rank, ...], CountShoe]] = {}
    for rank in ranks:
        if not any(s.can_deal([rank]) for s in states.values()):
            refused[rank] = _not_seen_next_at(next(iter(states.values())), rank)
            continue
        tag = shoe.tags[rank.index]
        if tag not in after:
            after[tag] = {h: t for h, s in states.items() if (t := _seen_tag(s, tag)) is not None}
    groups = [states, *after.values()]
    jobs = [(rules, s, h, up, first, second, exact, post_split) for group in groups for h, s in group.items()]
    names = [f"{','.join(map(str, h))} v {up}, seen {s.seen + len(s.visible)}, running count {s.running_count}"
             for group in groups for h, s in group.items()]
    results = iter(map_jobs(_counter_difference, jobs, workers, None, names))
    mixed = [_mixed(rules, group, {h: next(results) for h in group}, exact) for group in groups]
    base = mixed[0]
    if isinstance(base, str):
        raise InvalidShoeError(base)
    by_tag = dict(zip(after, mixed[1:]))
    differences: dict[Rank, Any] = {}
    for rank in ranks:
        if rank in refused:
            continue
        tag = shoe.tags[rank.index]
        result = by_tag[tag]
        if isinstance(result, str):
            left = next(iter(after[tag].values())).cards_left
            refused[rank] = (f"with one more card seen, {left} cards are left: too few to play the hand out"
                             if "too small" in result else f"with one more card seen: {result}")
        else:
            differences[rank] = to_api(result[0], exact)
    return PlayEffects(
        cards=() if isinstance(hand, HandTotal) else hand, up=up, first=first, second=second,
        difference=to_api(base[0], exact), after=differences, conditioned=base[1], rules=rules,
        total=hand if isinstance(hand, HandTotal) else None, not_removable=refused,
    )


def _counter_insurance_effects(rules: Rules, shoe: CountShoe, cards: tuple[Rank, ...]) -> PlayEffects:
    """:func:`insurance_effects` on the counter's ``shoe``, exact: ``3 E[tens left] / L - 1``
    with the ace up and ``cards`` on the table, before and once one more card is seen."""
    _checked_count_shoe(rules, shoe)
    needed = len(cards) + 1
    if shoe.seen < needed:
        raise InvalidShoeError(f"cards seen must be at least {needed} for insurance: the ace up"
                               f"{' and the hand' if cards else ''} are among them, not {shoe.seen}")
    state = _decision_shoe(shoe, cards, Rank.ACE)
    if state is None:
        shown = "an ace up" + (f" with {','.join(map(str, cards))}" if cards else "")
        raise InvalidHandError(f"the counter's shoe cannot show {shown} "
                               f"at running count {shoe.running_count} after {shoe.seen} cards seen (probability 0)")
    base = state.insurance_ev()
    after: dict[Rank, Any] = {}
    refused: dict[Rank, str] = {}
    for rank in Rank:
        if not rules.shoe_counts[rank.index]:
            continue
        seen = _seen_tag(state, shoe.tags[rank.index]) if state.can_deal([rank]) else None
        if seen is None:
            refused[rank] = _not_seen_next_at(state, rank)
        elif seen.cards_left == 0:
            refused[rank] = "with one more card seen, no card is left for the hole card"
        else:
            after[rank] = to_api(seen.insurance_ev(), True)
    return PlayEffects(cards=cards, up=Rank.ACE, first=None, second=None, difference=to_api(base, True),
                       after=after, conditioned=False, rules=rules, not_removable=refused)
