"""How likely a round is to run out of cards, and how much that can move its EVs.

The engine counts a deal that needs a card the shoe no longer has in no outcome
(:mod:`bjcalc.engine.lastcards`): its numbers are the round's with such deals **void**. A casino
instead shuffles its discards (the cards seen before this round, not those on the table) and
deals on. Whatever those discards hold, a deal that runs out ends with each hand winning or
losing at most its stake, so for the plays a number assumes, the casino's EV and bjcalc's differ
by at most the stakes on the table times the chance that those plays run out. Split hands take
twice that: the engine values each split hand on the deal of that hand and the dealer alone
(exchangeability), whose running out differs from the whole deal's (docs/model.md).

This module walks the deal as it happens, card by card (the hole card dealt before the player
draws where the dealer peeks at an A or T, after the player otherwise, which changes no chance
of running out), and works out, for one hand or every hand of a round, the chance that the
round runs out with the hand played by a policy (the strategy a number assumes: its first
decision, its plays after, its split hands' plays).

Every chance is of the engine's number type (exact: Fractions; float: floats) and uses the up
card's draws (a counter's shoe with its own weights,
:meth:`~bjcalc.engine.context.UpcardContext.draw_chance`). Only shoes that can run out at all
are walked (:func:`~bjcalc.engine.lastcards.may_run_out`), and every branch that can no longer
run out is cut at once.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bjcalc.cards import TEN, counts_total, hard_total, is_blackjack
from bjcalc.engine.codes import CODE, Code
from bjcalc.engine.lastcards import DEALER_ASKS, HAND_WORTH, may_run_out
from bjcalc.engine.split import max_hands
from bjcalc.rules import Doubling, Rules

if TYPE_CHECKING:
    from bjcalc.engine.analyser import Engine
    from bjcalc.engine.context import UpcardContext
    from bjcalc.engine.split import SplitSolver
    from bjcalc.engine.values import HandValues
    from bjcalc.engine.walk import Dealt, Policy

Number = Any  # Fraction (exact) or float

Counts = tuple[int, ...]

# A split's walk grows with every ordering of up to four hands' cards: a million states for one
# up card of a 20-card shoe of small cards (30 s), half a million for the worst plays of a
# 17-card shoe. Past this many split states of one walk (the policy's plays; the worst plays'),
# a split state not yet walked that could still run out takes 1, a bound
# (:meth:`HandWalk._split_hand`), and a split not yet begun takes 1 where its cards could run out.
# A 13-card shoe of ones and twos needs 14,000 and 53,000.
SPLIT_STATES = {False: 20_000, True: 2_000}


def _convolve(a: list[Number], b: list[Number], most: int) -> list[Number]:
    """The distribution of the sum of two independent worths, up to ``most``."""
    out = [a[0] * 0] * min(len(a) + len(b) - 1, most + 1)
    for i, x in enumerate(a):
        if x != 0:
            for j, y in enumerate(b[: most + 1 - i]):
                out[i + j] += x * y
    return out


def _plus(counts: Counts, rank: int, n: int = 1) -> Counts:
    return counts[:rank] + (counts[rank] + n,) + counts[rank + 1 :]


class HandWalk:
    """The deals of one up card's hands, for one policy: how likely each is to run out.

    ``unsplit``: the policy's unsplit hands (their plays after the first decision); ``splits``:
    its split hands' solver (``None``: no splits are walked). Chances are conditioned on no
    dealer blackjack where the dealer peeks at an A or T (``peeked``), else unconditional."""

    def __init__(self, context: UpcardContext, unsplit: HandValues | None, splits: SplitSolver | None,
                 worst: bool = False) -> None:
        """``worst``: after the first play, every hand is played to make running out likeliest
        (the player choosing hit, stand and double seeing even the hole card): the most any
        play can make that chance, which bounds what the casino's rule does to an optimal EV."""
        self.context, self.unsplit, self.splits, self.worst = context, unsplit, splits, worst
        self.rules = context.rules
        self.up, self.exact = context.up, context.exact
        self.zero: Number = context.draw_chance((0,) * 10, 0) * 0
        self.one: Number = self.zero + 1
        # the hole card: dealt first (and seen to be no blackjack card) against a peeking A or T
        self.hole_first = context.peeked
        self.bj_rank = context.bj_rank
        # every card that may be left, and how many are: what the branch cuts are made of
        self.shoe, self.cards_left, self.model = context.shoe, context.cards_left, context.model
        self.fraction: Callable[[int, int], Number] = Fraction if self.exact else operator.truediv
        self._next: dict[Counts, tuple[list[tuple[int, Number]], Number]] = {}
        model = self.model
        self._class_ranks = [] if model is None else [
            [r for r in range(10) if model.of_rank[r] == j] for j in range(len(model.pool))]
        self.hole_card_game = self.rules.peek
        self._memo: dict[tuple, Number] = {}
        self._faces = 0  # same-face tens: the pair's face's cards left after the up card and the pair
        self.bounded = False  # a chance was bounded above, not worked out (worth_at_most)
        self._split_states = 0  # split states walked (SPLIT_STATES)
        self._cheapest_left: dict[Counts, int] = {}  # a composition: the cards left's worth, by cards out

    # -- chances -----------------------------------------------------------------------------

    def chance(self, out: Counts, rank: int) -> Number:
        """P(the next card is ``rank``) once ``out`` (beyond the up card) are dealt."""
        return self.context.draw_chance(out, rank)

    def next_cards(self, out: Counts) -> tuple[list[tuple[int, Number]], Number]:
        """Each rank the next card can be with its chance, and the chance that there is none."""
        known = self._next.get(out)
        if known is None:
            ranks = [(r, p) for r in range(10) if (p := self.chance(out, r)) != 0]
            none = self.one - sum((p for _, p in ranks), self.zero)
            if not self.exact and abs(none) < 1e-12:
                none = self.zero
            known = self._next[out] = (ranks, none)
        return known

    def can_run_out(self, out: Counts, worth: int) -> bool:
        """Whether the cards left once ``out`` are dealt could be worth no more than ``worth``,
        what the rest of the deal can take: else no deal from here runs out. A composition's
        cards left are known; a counter's shoe's are some of the cards off the table, as many
        of each tag class as one of the posterior's splits leaves (the cheapest such)."""
        if self.model is None:
            cheapest = self._cheapest_left.get(out)
            if cheapest is None:
                cheapest = self._cheapest_left[out] = self._cheapest(out, range(10), self.cards_left - sum(out))
            return cheapest <= worth
        drawn = [0] * len(self.model.pool)
        for rank, n in enumerate(out):
            drawn[self.model.of_rank[rank]] += n
        for left, _ in self.model.support:
            if all(u >= a for u, a in zip(left, drawn)):
                total = 0
                for j, ranks in enumerate(self._class_ranks):
                    total += self._cheapest(out, ranks, left[j] - drawn[j])
                    if total > worth:
                        break
                else:
                    return True
        return False

    def worth_at_most(self, out: Counts, worth: int) -> Number:
        """P(the cards left once ``out`` are dealt are worth at most ``worth``) on a counter's
        shoe: over the posterior's splits of the discards by tag class (reweighted by the class
        totals ``out`` drew), the cards left of each class are a uniform draw from that class's
        cards off the table less ``out``; their worths add up class by class."""
        model = self.model
        assert model is not None
        drawn = [0] * len(model.pool)
        for rank, n in enumerate(out):
            drawn[model.of_rank[rank]] += n
        if not self.can_run_out(out, worth):
            return self.zero
        total, below = self.zero, self.zero
        for left, ways in model.support:
            if any(u < a for u, a in zip(left, drawn)):
                continue
            weight = self.one * ways
            for u, a, m in zip(left, drawn, model.pool):
                weight = weight * self.fraction(math.perm(u, a), math.perm(m, a))
            if weight == 0:
                continue
            total += weight
            at_most = [self.one]  # P(worth so far = w), w = 0 .. worth
            for j, ranks in enumerate(self._class_ranks):
                at_most = _convolve(at_most, self._class_worths(out, tuple(ranks), left[j] - drawn[j]), worth)
            below += weight * sum(at_most, self.zero)
        return below / total if total != 0 else self.zero

    def _class_worths(self, out: Counts, ranks: tuple[int, ...], cards: int) -> list[Number]:
        """The chances of each worth of ``cards`` drawn uniformly from the cards of ``ranks``
        off the table less ``out`` (a multivariate hypergeometric)."""
        key = ("worths", tuple(out[r] for r in ranks), ranks, cards)
        if key not in self._memo:
            ways: dict[tuple[int, int], int] = {(0, 0): 1}  # (cards, worth) -> subsets
            for rank in ranks:
                have = self.shoe[rank] - out[rank]
                grown: dict[tuple[int, int], int] = {}
                for (n, w), count in ways.items():
                    for k in range(min(have, cards - n) + 1):
                        at = (n + k, w + k * (rank + 1))
                        grown[at] = grown.get(at, 0) + count * math.comb(have, k)
                ways = grown
            pool = sum(self.shoe[r] - out[r] for r in ranks)
            size = math.comb(pool, cards)
            worths = [self.zero] * (max((w for n, w in ways if n == cards), default=0) + 1)
            for (n, w), count in ways.items():
                if n == cards:
                    worths[w] += self.fraction(count, size)
            self._memo[key] = worths
        return self._memo[key]

    def _cheapest(self, out: Counts, ranks: Sequence[int], cards: int) -> int:
        """The worth of the ``cards`` cheapest cards of ``ranks`` that ``out`` leaves."""
        total = 0
        for rank in ranks:  # ranks in order: the cheapest first
            take = min(self.shoe[rank] - out[rank], cards)
            if take > 0:
                total += take * (rank + 1)
                cards -= take
        return total

    def holes(self, out: Counts) -> list[tuple[int | None, Number]]:
        """The hole cards and their chances given the player's cards ``out``: none where the
        hole card is dealt after the player (``None``, chance 1), else every card that is not
        the blackjack card, conditioned on that."""
        if not self.hole_first:
            return [(None, self.one)]
        ranks = [(r, p) for r in range(10) if r != self.bj_rank and (p := self.chance(out, r)) != 0]
        total = sum((p for _, p in ranks), self.zero)
        return [(r, p / total) for r, p in ranks] if total != 0 else []

    # -- the dealer ----------------------------------------------------------------------------

    def dealer(self, out: Counts, hole: int | None) -> Number:
        """P(the dealer runs out) drawing after ``out`` (the hole card among them if dealt)."""
        held = _plus((0,) * 10, self.up) if hole is None else _plus(_plus((0,) * 10, self.up), hole)
        return self._dealer(out, held)

    def _dealer(self, out: Counts, held: Counts) -> Number:
        total, soft = counts_total(held)
        n = sum(held)
        limit = self.rules.dealer_max_cards
        if n >= 2 and (total > 21 or total > 17 or (total == 17 and not (soft and self.rules.hit_soft_17))
                       or (limit is not None and n >= limit)):
            return self.zero
        if n == 2 and total == 21:
            return self.zero  # a blackjack
        if not self.can_run_out(out, DEALER_ASKS - hard_total(held)):
            return self.zero
        key = ("dealer", out, held)
        if key not in self._memo:
            ranks, none = self.next_cards(out)
            value = none
            for r, p in ranks:
                value += p * self._dealer(_plus(out, r), _plus(held, r))
            self._memo[key] = value
        return self._memo[key]

    # -- one hand -------------------------------------------------------------------------------

    def no_blackjack(self, counts: Counts) -> Number:
        """P(no dealer blackjack | the hand, the up card) where the dealer peeks at this up card
        (the frame of :meth:`hand`), else 1."""
        if not self.hole_first:
            return self.one
        assert self.bj_rank is not None
        return self.one - self.chance(counts, self.bj_rank)

    def first_plays(self, dealt: Dealt) -> list[Code]:
        """The first plays that draw a card which the rules may allow the hand ``dealt`` (more
        than it has only raises the bound): stand, hit, double, split."""
        plays = [Code.STAND, Code.HIT]
        if self.rules.double is not Doubling.NONE:
            plays.append(Code.DOUBLE)
        if dealt.pair is not None and dealt.same_face and self.splits is not None:
            plays.append(Code.SPLIT)
        return plays

    def hand_chance(self, counts: Counts, first: Code) -> Number:
        """P(the deal runs out) for the two-card hand ``counts`` played ``first`` and then by
        the policy (nothing is drawn for a blackjack, whose round is settled)."""
        if is_blackjack(counts):
            return self.zero
        return self.hand(counts, first)

    def hand(self, counts: Counts, first: Code) -> Number:
        """P(the deal runs out) for the two-card hand ``counts``, its first play ``first``
        (STAND, HIT, DOUBLE, SURRENDER or SPLIT) and then the policy's plays."""
        if first == Code.SURRENDER:
            return self.zero
        value = self.zero
        for hole, p_hole in self.holes(counts):
            out = counts if hole is None else _plus(counts, hole)
            if first == Code.SPLIT:
                pair = counts.index(2)
                value += p_hole * self.split(pair, out, hole)
            else:
                value += p_hole * self._unsplit(counts, out, hole, first)
        return value

    def _unsplit(self, hand: Counts, out: Counts, hole: int | None, play: Code) -> Number:
        """P(running out) from ``hand`` (its cards in ``out``) playing ``play`` (HIT, STAND,
        DOUBLE) and then on, for one hole card (``None``: dealt after the player)."""
        if play == Code.STAND:
            return self.finish(out, hole, busted=False)
        if not self.can_run_out(out, HAND_WORTH - hard_total(hand) + DEALER_ASKS):
            return self.zero
        key = ("hand", hand, out, hole, play)
        if key not in self._memo:
            ranks, none = self.next_cards(out)
            value = none
            for r, p in ranks:
                child = _plus(hand, r)
                after = _plus(out, r)
                if hard_total(child) > 21:
                    value += p * self.finish(after, hole, busted=True)
                elif play == Code.DOUBLE:
                    value += p * self.finish(after, hole, busted=False)
                else:
                    value += p * self._next_play(child, after, hole)
            self._memo[key] = value
        return self._memo[key]

    def _next_play(self, hand: Counts, out: Counts, hole: int | None) -> Number:
        """A hand after a hit: the policy's play (or the one likeliest to run out) and on."""
        layers = None if self.unsplit is None else self.unsplit.layers
        found = None if layers is None else layers.index.get(hand)
        if found is None or self.unsplit is None or layers is None:
            return self.finish(out, hole, busted=False)  # the card limit or a charlie: the hand stops
        layer, row = found
        if self.worst:
            if layer + 1 >= len(layers.counts):
                return self.finish(out, hole, busted=False)
            return max(self._unsplit(hand, out, hole, Code.STAND), self._unsplit(hand, out, hole, Code.HIT))
        decisions = self.unsplit.decision
        play = Code(int(decisions[layer][row])) if layer < len(decisions) else Code.STAND
        return self._unsplit(hand, out, hole, play)

    def finish(self, out: Counts, hole: int | None, busted: bool) -> Number:
        """The player is done: the dealer's draws (none after a bust against a hole card; in a
        game without one the dealer's second card still settles a busted hand's doubles and
        splits)."""
        if busted and self.hole_card_game:
            return self.zero
        if busted:  # no hole card: the second card alone
            _, none = self.next_cards(out)
            return none
        return self.dealer(out, hole)

    # -- split hands ------------------------------------------------------------------------------

    def split(self, pair: int, out: Counts, hole: int | None) -> Number:
        """P(running out) splitting ``pair`` (both its cards in ``out``), each split hand
        dealt its second card in its turn and resplit as the rules say."""
        assert self.splits is not None
        if self.model is not None or self._split_states >= SPLIT_STATES[self.worst]:
            # bounded, not walked: on a counter's shoe the deals of up to four hands are too many
            # to walk one by one (half a million states for one pair, 14 cards left in one deck,
            # and more the more are left), and a walk whose states are spent walks no more. The
            # chance that the cards left are cheap enough for the split to take them all bounds
            # it (a composition's cards left are known: 1 or 0, the cut that starts every walk)
            self.bounded = True
            spare = self._split_spare(pair, _plus((0,) * 10, pair), 2, 2, hole)
            if self.model is not None:
                return self.worth_at_most(out, spare)
            return self.one if self.can_run_out(out, spare) else self.zero
        if not self.splits.same_face(pair):
            return self._hands(pair, out, hole, made=2, waiting=2)
        # tens of one face: only that face resplits; the up card may be of it (SplitSolver.up_faces)
        value = self.zero
        for p, faces in self.splits.up_faces():
            self._faces = faces
            value += p * self._hands(pair, out, hole, made=2, waiting=2)
        return value

    def _hands(self, pair: int, out: Counts, hole: int | None, made: int, waiting: int) -> Number:
        """The next of ``waiting`` split hands (``made`` in all) takes its second card."""
        if not waiting:
            return self.dealer(out, hole)
        start = _plus((0,) * 10, pair)
        return self._split_hand(pair, start, out, hole, made, waiting, Code.HIT)

    def _split_spare(self, pair: int, hand: Counts, made: int, waiting: int, hole: int | None) -> int:
        """What the rest of a split can take: this hand up to 31 less its hard total, each
        hand waiting up to 31 less its pair card, each resplit still possible 31, the dealer
        up to 16 less its up card (and hole card)."""
        resplits = max_hands(self.rules, pair) - made  # each needs a pair card: at most those off the table
        resplits = min(resplits, max(self.shoe[pair] - 2 - (made - 2), 0))
        dealer = DEALER_ASKS - self.up - 1 - (0 if hole is None else hole + 1)
        return (HAND_WORTH - hard_total(hand) + (waiting - 1) * (HAND_WORTH - pair - 1) + resplits * HAND_WORTH
                + max(dealer, 0))

    def _split_hand(self, pair: int, hand: Counts, out: Counts, hole: int | None, made: int, waiting: int,
                    play: Code) -> Number:
        if play == Code.STAND:
            return self._hands(pair, out, hole, made, waiting - 1)
        if not self.can_run_out(out, self._split_spare(pair, hand, made, waiting, hole)):
            return self.zero
        key = ("split", pair, hand, out, hole, made, waiting, play, self._faces)
        if key in self._memo:
            return self._memo[key]
        if self._split_states >= SPLIT_STATES[self.worst]:
            # too many states to walk (SPLIT_STATES): this one could run out, so at most surely
            self.bounded = True
            return self.one

        assert self.splits is not None
        most = max_hands(self.rules, pair)
        ranks, none = self.next_cards(out)
        value = none
        one_card = sum(hand) == 1
        for r, p in ranks:
            after = _plus(out, r)
            if one_card and r == pair and made < most:
                # a resplit: the card starts a new hand, this one takes another second card
                if self.splits.same_face(pair):  # only a card of the pair's face resplits
                    face = self._same_face_share(after, made)
                    value += p * face * self._split_hand(pair, hand, after, hole, made + 1, waiting + 1, play)
                    value += p * (1 - face) * self._after_card(pair, _plus(hand, r), after, hole, made, waiting,
                                                               play)
                else:
                    value += p * self._split_hand(pair, hand, after, hole, made + 1, waiting + 1, play)
                continue
            value += p * self._after_card(pair, _plus(hand, r), after, hole, made, waiting, play)
        self._memo[key] = value
        self._split_states += 1
        return value

    def _same_face_share(self, out: Counts, made: int) -> Number:
        """The chance that a ten just dealt is of the pair's face: the face's cards not yet
        dealt over the tens not yet dealt (``out`` holds the ten), faces being alike."""
        face_left = self._faces - (made - 2)
        tens_left = self.context.shoe[TEN] - out[TEN] + 1
        if tens_left <= 0 or face_left <= 0:
            return self.zero
        return (self.one * face_left) / tens_left

    def _after_card(self, pair: int, hand: Counts, out: Counts, hole: int | None, made: int, waiting: int,
                    play: Code) -> Number:
        """A split hand that has just taken a card (``play`` was a hit or a double)."""
        if hard_total(hand) > 21:
            return self._hands(pair, out, hole, made, waiting - 1)
        if play == Code.DOUBLE:
            return self._hands(pair, out, hole, made, waiting - 1)
        if self.worst:
            assert self.splits is not None
            layers = self.splits.layers(pair)
            found = layers.index.get(hand)
            if found is None or found[0] + 1 >= len(layers.counts):
                return self._hands(pair, out, hole, made, waiting - 1)
            plays = [Code.STAND, Code.HIT] + ([Code.DOUBLE] if sum(hand) == 2 and self.rules.double_after_split
                                              else [])
            return max(self._split_hand(pair, hand, out, hole, made, waiting, play) for play in plays)
        return self._split_hand(pair, hand, out, hole, made, waiting, self._split_play(pair, hand, made))

    def _split_play(self, pair: int, hand: Counts, made: int) -> Code:
        """The policy's play of a split hand, as solved for the pair cards removed so far."""
        key = ("split play", pair, hand, made)
        play = self._memo.get(key)
        if play is None:
            play = self._memo[key] = self._solved_split_play(pair, hand, made)
        return play

    def _solved_split_play(self, pair: int, hand: Counts, made: int) -> Code:
        assert self.splits is not None
        found = self.splits.layers(pair).index.get(hand)
        if found is None:
            return Code.STAND
        layer, row = found
        removals = self.splits.removals(pair)
        removed = max((r for r in removals if r <= made - 2), default=min(removals))
        decisions = self.splits.hand_values(pair, removed).decision
        return Code(int(decisions[layer][row])) if layer < len(decisions) else Code.STAND




def casino_bound(rules: Rules, probability: Number, split: bool = True) -> Number:
    """The most the casino's reshuffle can move an EV whose deal runs out with ``probability``:
    the stakes on the table, times two where split hands are valued on their own deals
    (module docstring)."""
    return probability * most_staked(rules) * (2 if split and rules.split_hands > 1 else 1)


def most_staked(rules: Rules) -> int:
    """The most a round stakes, in initial bets: every hand a split can make, each doubled
    where doubling is allowed (a surrender or a blackjack stakes less)."""
    doubles = rules.double is not Doubling.NONE
    if rules.split_hands < 2:
        return 2 if doubles else 1
    return rules.split_hands * (2 if doubles and rules.double_after_split else 1)


@dataclasses.dataclass(frozen=True)
class RoundRunOut:
    """How likely a round is to run out of cards with a policy's plays (unconditional, the
    engine's numbers), and given each up card."""

    probability: Number
    by_upcard: dict[int, Number]
    exact: bool  # False: a counter's shoe's split deals are bounded (HandWalk.split), so this is an upper bound
    # the chance with the first plays by EV and every play after the likeliest to run out (or a
    # bound on it, where a split's walk is too large: HandWalk.split)
    most: Number


def round_run_out(engine: Engine, policy: Policy, plays: Sequence[Dealt], fixed: bool = False) -> RoundRunOut | None:
    """:class:`RoundRunOut` for a round played by ``policy`` (``plays``: its first decision for
    every hand, :attr:`~bjcalc.engine.walk.RoundTotals.plays`), or ``None`` where no deal of
    the round can run out (:func:`~bjcalc.engine.lastcards.may_run_out`). ``fixed``: the
    policy's plays are the same under the casino's rule (a chart's), so ``most`` is the chance
    with them: the casino's EV of the same plays is what the bound is about."""
    if not engine_may_run_out(engine):
        return None
    number = engine.number
    walks: dict[int, tuple[HandWalk, HandWalk]] = {}
    by_upcard: dict[int, Number] = {}
    most_by: dict[int, Number] = {}
    p_ups: dict[int, Number] = {}
    for dealt in plays:
        up = dealt.up
        if up not in walks:
            walks[up] = hand_walk(engine, policy, up), hand_walk(engine, policy, up, worst=True)
            by_upcard[up], most_by[up], p_ups[up] = number(0), number(0), number(dealt.p_up)
        walk, worst = walks[up]
        weight = number(dealt.p_hand) * walk.no_blackjack(dealt.counts)
        chance = walk.hand_chance(dealt.counts, CODE[dealt.action])
        by_upcard[up] += weight * chance
        # the casino's best first play may differ from bjcalc's: the likeliest of them
        most_by[up] += weight * (chance if fixed else
                                 max(worst.hand_chance(dealt.counts, play) for play in worst.first_plays(dealt)))
    return RoundRunOut(sum((p_ups[up] * by_upcard[up] for up in walks), number(0)), by_upcard,
                       not any(walk.bounded for walk, _ in walks.values()),
                       sum((p_ups[up] * most_by[up] for up in walks), number(0)))


def engine_may_run_out(engine: Engine) -> bool:
    """Whether some deal of the engine's round could run out (:func:`may_run_out`)."""
    rules, model = engine.rules, engine.model
    counts = rules.shoe_counts if model is None else model.counts
    return may_run_out(rules, counts, sum(counts) - (0 if model is None else model.hidden))


def hand_walk(engine: Engine, policy: Policy, up: int, worst: bool = False) -> HandWalk:
    """The walk of ``up``'s hands played by ``policy`` (``worst``: see :class:`HandWalk`)."""
    return HandWalk(engine.context(up), policy.hands(up), policy.splits(up) if engine.rules.split_hands > 1 else None,
                    worst)
