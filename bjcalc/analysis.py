"""The library's front door: dealer tables and per-hand EVs for a rule set.

>>> from bjcalc import Analysis, Rules
>>> a = Analysis(Rules(decks=1, hit_soft_17=True), exact=True)
>>> r = a.hand("5,T", "T")
>>> r.conditioned, r.best
(True, Action.HIT)
>>> round(float(r.evs[Action.STAND]), 6)
-0.538433
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bjcalc.actions import Action
from bjcalc.cards import ACE, TEN, Rank, counts_total, parse_card, parse_cards, ten_faces
from bjcalc.dealer import BLACKJACK, BUST, compiled_dealer, max_draws, outcome_numerators
from bjcalc.errors import InvalidCardError, InvalidHandError, InvalidRulesError, InvalidShoeError
from bjcalc.numbers import Number, constant, quotient, ratio, to_api
from bjcalc.player import ShoeIndex, Solved, UpCard, unsplit_layers, unsplit_table
from bjcalc.rules import Rules, Surrender
from bjcalc.shoe import Shoe
from bjcalc.split import PostSplit, SplitSolver

OUTCOME_NAMES = {BUST: "bust", BLACKJACK: "blackjack"}


def surrender_value(surrender: Surrender, peeked: bool, p_bj: Any) -> Any:
    """Surrendering, in the engine's joint measure: E[result; no dealer blackjack] when the
    dealer peeks with an A or T up, else unconditional. ``p_bj`` (P(dealer blackjack)) may be a
    Fraction, a float or a numpy array of floats.

    Late: -1/2 after the peek; with no hole card a dealer blackjack still takes the whole bet.
    Early: -1/2 whatever the dealer holds (so E[result; no blackjack] = -1/2 + P(blackjack)).
    """
    half = Fraction(1, 2) if isinstance(p_bj, Fraction) else 0.5
    if surrender is Surrender.EARLY:
        return p_bj - half if peeked else p_bj * 0 - half
    return -(1 - p_bj) * half - (0 if peeked else p_bj)


def outcome_name(outcome: int) -> str:
    return OUTCOME_NAMES.get(outcome, str(outcome))


@dataclasses.dataclass(frozen=True)
class HandResult:
    """EVs of every available action for one hand against one up card.

    ``evs`` are in units of the initial bet, assuming composition-dependent optimal play after
    the first decision (strategy ``"CD"``). They are conditioned on the dealer not having
    blackjack when ``conditioned`` is true (a peeking dealer with an A or T up), otherwise
    unconditional. ``insurance`` is the EV per unit of insurance bet and ``even_money`` the
    value of taking even money; both are decided before the peek and are unconditional.
    """

    cards: tuple[Rank, ...]
    up: Rank
    evs: dict[Action, Number]
    conditioned: bool
    dealer_blackjack: Number
    insurance: Number | None = None
    even_money: Number | None = None
    strategy: str = "CD"
    faces: tuple[str, ...] = ()  # the ten-valued cards' faces as given, where they matter

    @property
    def notation(self) -> str:
        """The cards as ``A,7``; ten-valued cards by face (``K,Q``) where only same-face tens
        split."""
        faces = iter(self.faces)
        return ",".join(next(faces, "T") if c is Rank.TEN and self.faces else str(c) for c in self.cards)

    @property
    def ranked(self) -> list[tuple[Action, Number]]:
        """Actions and EVs, best first."""
        return sorted(self.evs.items(), key=lambda item: -item[1])

    @property
    def best(self) -> Action:
        return self.ranked[0][0]

    @property
    def is_blackjack(self) -> bool:
        return sorted(c.index for c in self.cards) == [ACE, TEN]


def _cards(cards: str | Sequence[Rank | str | int]) -> tuple[Rank, ...]:
    """Cards as text (``"A,7"``) or as a sequence of cards (``[Rank.ACE, "7"]``, ``["T", 6]``)."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Sequence):
        raise InvalidCardError(f"cards must be text like 'A,7' or a sequence of cards, not {cards!r}")
    return tuple(parse_card(c) for c in cards)


class Analysis:
    """Exact or float analysis of one rule set; results are computed on demand and cached.

    In exact mode every number handed out is a ``sympy.Rational``; otherwise a ``float``.
    """

    def __init__(self, rules: Rules, *, exact: bool = False, post_split: PostSplit | str = PostSplit.CDZ) -> None:
        if not isinstance(rules, Rules):
            raise InvalidRulesError(f"rules must be a bjcalc.Rules, not {rules!r}")
        if not isinstance(exact, bool):
            raise InvalidRulesError(f"exact must be True or False, not {exact!r}")
        try:
            self.post_split = PostSplit(post_split)
        except ValueError:
            choices = ", ".join(repr(p.value) for p in PostSplit)
            raise InvalidRulesError(f"post_split must be one of {choices}, not {post_split!r}") from None
        self.rules = rules
        self.exact = exact
        self._splits: dict[int, SplitSolver] = {}
        self.shoe = Shoe(rules.shoe_counts)
        self._ups: dict[int, UpCard] = {}
        self._index = ShoeIndex()  # the shoes the hands leave, shared by the up cards
        self._tables: dict[int, Solved] = {}

    def upcard(self, up: int) -> UpCard:
        """The up card's context: shoe, dealer graph and batched dealer outcomes (cached)."""
        if up not in self._ups:
            self.shoe.remove([up])
            self._ups[up] = UpCard(self.rules, up, self.exact, self._index)
        return self._ups[up]

    def table(self, up: int) -> Solved:
        """The unsplit values of every hand against up card index ``up`` (cached)."""
        if up not in self._tables:
            self._tables[up] = unsplit_table(self.upcard(up))
        return self._tables[up]

    def prepare(self, up: int) -> None:
        """Batch the dealer work for every hand and every split against ``up`` at once."""
        if up not in self._tables:
            context = self.upcard(up)
            context.register(unsplit_layers(self.rules), (0,) * 10)
            if self.rules.split_hands > 1:
                SplitSolver(context, None, self.post_split).prepare()  # type: ignore[arg-type]
            context.start_dealer()

    def prepare_all(self, ups: Iterable[int] | None = None) -> None:
        """:meth:`prepare` every up card in the shoe (or ``ups``): in float mode the dealer
        pass of one up card then runs while the next one is prepared."""
        for up in range(10) if ups is None else ups:
            if self.rules.shoe_counts[up]:
                self.prepare(up)

    def splits(self, up: int) -> SplitSolver:
        """Split EVs against up card index ``up`` for this analysis' post-split strategy."""
        if up not in self._splits:
            self._splits[up] = SplitSolver(self.upcard(up), self.table(up), self.post_split)
        return self._splits[up]

    def dealer(self, up: Rank | str, *, peeked: bool = False, removed: str | Sequence[Rank] = ()) -> dict[str, Number]:
        """Dealer final-outcome probabilities with ``up`` showing.

        Before the peek by default (``blackjack`` included); ``peeked=True`` conditions on no
        dealer blackjack. ``removed`` are further cards known to be out of the shoe.
        """
        up_rank = parse_card(up)
        gone = _cards(removed) if removed else ()
        without_up = self.shoe.remove([up_rank])
        shoe = without_up.remove(gone)
        row = np.array([without_up.counts], dtype=np.int64) - np.array([shoe.counts], dtype=np.int64)
        dealer = compiled_dealer(up_rank.index, self.rules.hit_soft_17, self.rules.dealer_max_cards)
        depth = max_draws(dealer, shoe.counts)
        if depth > len(shoe):
            raise InvalidShoeError(f"shoe {self.shoe.notation()} is too small for the dealer to finish")
        numerators, denominators = outcome_numerators(dealer, without_up.counts, row, depth, self.exact)
        # a card limit adds stopping states below 17; keep only those this shoe can reach
        values = {o: v[0] for o, v in numerators.items() if o >= 17 or v[0] != 0}
        total = denominators[0]
        finished = sum(values.values())
        if finished != total if self.exact else abs(finished - total) > 1e-9 * total:
            # some order of drawing empties the shoe before the dealer can stop
            raise InvalidShoeError(
                f"shoe {self.shoe.notation()} is too small for the dealer to finish with "
                f"{str(up_rank)!r} up" + (f" and {','.join(map(str, gone))} removed" if gone else "")
            )
        for always_shown in (BUST, BLACKJACK):
            values.setdefault(always_shown, total * 0)
        if peeked:
            total = total - values.pop(BLACKJACK)
            if total == 0:
                raise InvalidShoeError("the dealer always has blackjack with this shoe and up card")
        ordered = sorted(values, key=lambda o: (o > 21, o))
        return {outcome_name(o): ratio(values[o], total, self.exact) for o in ordered}

    def insurance(self, up: Rank | str = "A", removed: str | Sequence[Rank] = ()) -> Number:
        """EV of insurance per unit of insurance bet, with ``up`` (an ace) and ``removed`` out.

        Off the top (nothing removed) it is ``(2 tens - others) / remaining``.
        """
        up_rank = parse_card(up)
        if up_rank.index != ACE:
            raise InvalidHandError(f"insurance is offered only against an ace up, not {str(up_rank)!r}")
        left = self.shoe.remove((up_rank,) + (_cards(removed) if removed else ()))
        tens, n = left.counts[TEN], len(left)
        return constant(Fraction(2 * tens - (n - tens), n), self.exact)

    def _div(self, numerator: object, denominator: object) -> Fraction | float:
        return quotient(numerator, denominator, self.exact)

    def joint_values(
        self, up: int, counts: tuple[int, ...], same_face: bool = True
    ) -> tuple[dict[Action, Fraction | float], Fraction | float]:
        """Values of every action for a hand (given as rank counts) against up card ``up``, in
        the engine's measure: E[result; no dealer blackjack] when the dealer peeks with an A or T
        up, else unconditional; and P(dealer blackjack).
        Two-card hands get the first-decision actions; a natural gets only its payout.
        ``same_face``: for two tens where unlike tens may not be split, whether they are of the
        same face (only then may they be split)."""
        rules = self.rules
        table = self.table(up)
        layer, row = table.layers.index[counts]
        scale = table.scale[layer]
        p_bj = self._div(table.blackjack[layer][row], scale)
        initial = layer == 0
        total, soft = counts_total(counts)
        values: dict[Action, Fraction | float] = {}
        natural = initial and counts[ACE] == 1 and counts[TEN] == 1
        values[Action.STAND] = (
            rules.blackjack_pays * (1 - p_bj) if natural else self._div(table.stand[layer][row], scale)
        )
        if natural and not self.exact:
            values[Action.STAND] = float(values[Action.STAND])
        if table.can_hit[layer] and not natural:
            values[Action.HIT] = self._div(table.hit[layer][row], scale)
            if initial and rules.double.allows_total(total) and (rules.double_soft or not soft):
                assert table.double is not None  # the two-card layer can draw
                values[Action.DOUBLE] = self._div(table.double[row], scale)
        if initial and not natural:
            pair = next((r for r in range(10) if counts[r] == 2), None)
            splittable = same_face or pair != TEN or rules.split_unlike_tens
            if pair is not None and rules.split_hands >= 2 and splittable:
                values[Action.SPLIT] = self.splits(up).value(pair)
            if rules.surrender is not Surrender.NONE:
                values[Action.SURRENDER] = surrender_value(rules.surrender, table.peeked, p_bj)
        return values, p_bj

    def hand(self, cards: str | Sequence[Rank | str], up: Rank | str) -> HandResult:
        """EVs of every action the rules allow for ``cards`` against ``up``."""
        hand = _cards(cards)
        up_rank = parse_card(up)
        if len(hand) < 2:
            raise InvalidHandError(f"a hand needs at least two cards, not {len(hand)}")
        counts = tuple(sum(1 for c in hand if c.index == r) for r in range(10))
        total, _ = counts_total(counts)
        notation = ",".join(str(c) for c in hand)
        if total > 21:
            raise InvalidHandError(f"hand {notation!r} is already over 21 ({total})")
        self.shoe.remove((up_rank,) + hand)
        rules = self.rules
        table = self.table(up_rank.index)
        if counts not in table.layers.index:
            raise InvalidHandError(f"hand {notation!r} has more cards than the rules allow")
        faces = ten_faces(cards)
        joint, p_bj = self.joint_values(up_rank.index, counts, same_face=len(set(faces)) <= 1)
        initial = len(hand) == 2
        natural = initial and counts[ACE] == 1 and counts[TEN] == 1
        if natural:
            # a blackjack is settled as a natural; hitting or doubling it (as a soft 21) is shown
            # for information, as other analysers do, and is never the best play
            layer, row = table.layers.index[counts]
            assert table.double is not None
            joint[Action.HIT] = self._div(table.hit[layer][row], table.scale[layer])
            joint[Action.DOUBLE] = self._div(table.double[row], table.scale[layer])
        early = initial and rules.surrender is Surrender.EARLY
        conditioned = table.peeked and not early
        if conditioned and p_bj == 1:
            raise InvalidShoeError("the dealer always has blackjack with this shoe and up card")
        evs: dict[Action, Number] = {}
        for action, value in joint.items():
            if action is Action.SURRENDER and early:
                value = Fraction(-1, 2)
            elif conditioned:
                value = value / (1 - p_bj)
            elif table.peeked and not (natural and action is Action.STAND):
                value = value - p_bj  # early-surrender frame: a dealer blackjack takes the bet
            evs[action] = to_api(value, self.exact)
        insurance = even_money = None
        if up_rank.index == ACE and rules.insurance:
            insurance = self.insurance(up_rank, hand)
            if natural:
                even_money = constant(1, self.exact)
        p_blackjack = to_api(p_bj, self.exact)
        return HandResult(
            cards=hand,
            up=up_rank,
            evs=evs,
            conditioned=conditioned,
            dealer_blackjack=p_blackjack,
            insurance=insurance,
            even_money=even_money,
            strategy="CD" if Action.SPLIT not in evs else f"CD; split hands {self.post_split.label}",
            faces=() if rules.split_unlike_tens else tuple("T" if f == "10" else f for f in faces),
        )
