"""The library's front door: everything bjcalc computes for one rule set.

>>> from bjcalc import Analysis, Rules
>>> a = Analysis(Rules(decks=1, hit_soft_17=True), exact=True)
>>> r = a.hand("5,T", "T")
>>> r.conditioned, r.best
(True, Action.HIT)
>>> round(float(r.evs[Action.STAND]), 6)
-0.538433
>>> f"{Analysis(Rules(decks=6)).round().house_edge_percent:.4f}"
'0.4029'

Every method returns a typed, frozen result (:mod:`bjcalc.results`) that states its strategy
and frame; numbers are ``float``, or ``sympy.Rational`` with ``exact=True``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, Literal, cast, overload

import numpy as np

from bjcalc.actions import Action
from bjcalc.arguments import check_flag, shown
from bjcalc.cards import (
    ACE,
    BLACKJACK,
    BUST,
    RUN_OUT,
    TEN,
    Rank,
    as_cards,
    counts_total,
    is_blackjack,
    parse_card,
    ten_faces,
)
from bjcalc.engine.analyser import Engine
from bjcalc.engine.codes import CODE, Code
from bjcalc.engine.dealer import compiled_dealer, max_draws, outcome_numerators
from bjcalc.engine.lastcards import may_run_out
from bjcalc.engine.payout import FirstValues, Frame, action_values, first_values, hand_frame
from bjcalc.engine.runout import HandWalk, engine_may_run_out, hand_walk, most_staked
from bjcalc.engine.split import PostSplit
from bjcalc.engine.walk import Dealt, Optimal, deal, round_totals
from bjcalc.errors import InvalidCardError, InvalidChartError, InvalidHandError, InvalidRulesError, InvalidShoeError
from bjcalc.numbers import constant, falling_left, ratio, to_api
from bjcalc.results import (
    BetBehindResult,
    ChartEvaluation,
    ChartException,
    DealerResult,
    Deviation,
    HandPlay,
    HandResult,
    N,
    Outcome,
    RoundResult,
    RunOut,
    Strategy,
    Variance,
)
from bjcalc.rules import Rules
from bjcalc.shoe import Shoe, ShoeModel

if TYPE_CHECKING:
    from sympy import Rational

    from bjcalc.chart import Chart
    from bjcalc.chartpolicy import ChartPolicy


ROUND_CARDS = 4  # the fewest cards a round is dealt from: the player's two, the dealer's up and hole cards


def _check_dealable(rules: Rules, count_shoe: ShoeModel | None) -> None:
    """A round needs four cards to start; with fewer, say so, naming the cards left. (Any shoe
    of four or more is dealt to its last card: a deal that runs out is void, docs/model.md.)"""
    if rules.infinite:
        return
    left = sum(rules.shoe_counts) if count_shoe is None else count_shoe.cards_left
    if left < ROUND_CARDS:
        where = f"shoe {','.join(map(str, rules.shoe_counts))}" if count_shoe is None else "the counter's shoe"
        raise InvalidShoeError(f"{where} has {left} card{'s' * (left != 1)} left: a round needs at least "
                               f"{ROUND_CARDS} (two for the player, the dealer's up card and hole card)")


def _checked_count_shoe(rules: Rules, shoe: ShoeModel | None) -> ShoeModel | None:
    """A counter's shoe for an analysis of ``rules``: its shoe the rules' shoe, nothing on the
    table (the round's cards are the analysis' own)."""
    if shoe is None:
        return None
    if not isinstance(shoe, ShoeModel):
        raise InvalidShoeError(f"shoe must be a bjcalc.CountShoe (a counter's shoe), not {shoe!r}")
    if rules.infinite:
        raise InvalidShoeError("a counter's shoe is a finite shoe: not with decks=inf")
    if shoe.shoe != rules.shoe_counts:
        raise InvalidShoeError(f"the counter's shoe {','.join(map(str, shoe.shoe))} is not the rules' shoe "
                               f"{','.join(map(str, rules.shoe_counts))}")
    if shoe.visible:
        raise InvalidShoeError("an analysis deals the round's cards itself: give it the counter's shoe before "
                               "the deal (CountShoe.undealt()), and the hand to hand()")
    return shoe


def _cards(cards: object, name: str) -> tuple[Rank, ...]:
    """``cards`` (text such as ``"A,7"``, or a sequence of cards: :func:`as_cards`); an
    :class:`InvalidCardError` names the parameter ``name``."""
    try:
        return as_cards(cards)  # type: ignore[arg-type]
    except InvalidCardError as error:
        raise InvalidCardError(f"{name}: {error}") from None


def _counts(cards: Sequence[Rank]) -> tuple[int, ...]:
    return tuple(sum(1 for c in cards if c.index == r) for r in range(10))


_CD = Strategy("CD")  # a hand's strategy where no split is offered


class Analysis(Generic[N]):
    """Exact or float analysis of one rule set; results are computed on demand and cached.

    ``exact=True`` makes every number a ``sympy.Rational`` (``Analysis[Rational]``); otherwise
    a ``float`` (``Analysis[float]``). ``post_split``: how split hands play under CD play,
    ``"cdz-"`` (as the unsplit hand of the same cards), ``"cdp1"`` or ``"cdp"``.
    """

    @overload
    def __init__(
        self: Analysis[float], rules: Rules, *, exact: Literal[False] = ..., post_split: PostSplit | str = ...,
        shoe: ShoeModel | None = ...,
    ) -> None: ...

    @overload
    def __init__(
        self: Analysis[Rational], rules: Rules, *, exact: Literal[True], post_split: PostSplit | str = ...,
        shoe: ShoeModel | None = ...,
    ) -> None: ...

    @overload
    def __init__(self: Analysis[Any], rules: Rules, *, exact: bool, post_split: PostSplit | str = ...,
                 shoe: ShoeModel | None = ...) -> None: ...

    def __init__(self, rules: Rules, *, exact: bool = False, post_split: PostSplit | str = PostSplit.CDZ,
                 shoe: ShoeModel | None = None) -> None:
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
        self.shoe = Shoe(rules.shoe_counts)
        self.count_shoe = _checked_count_shoe(rules, shoe)
        _check_dealable(rules, self.count_shoe)
        self.model = None if self.count_shoe is None else self.count_shoe.draw_model()
        self.engine = Engine(rules, exact, self.post_split, self.model)
        self._float_engine: Engine | None = None if exact else self.engine
        self._charts: dict[bool, Chart] = {}
        self._first: dict[tuple[int, Frame], FirstValues | None] = {}  # see _first_values
        self._walks: dict[int, tuple[HandWalk, HandWalk]] = {}  # see _run_out
        self._chart_policies: dict[tuple[bool, tuple], ChartPolicy] = {}

    # -- strategies ---------------------------------------------------------------------------

    @functools.cached_property
    def cd(self) -> Strategy:
        """The strategy of :meth:`round` and :meth:`hand`: CD, split hands by ``post_split``."""
        return Strategy("CD", split_hands=self.post_split.label if self.rules.split_hands > 1 else None)

    def _floats(self) -> Engine:
        """A float engine of the same rules and shoe (charts are chosen in floating point; on a
        counter's shoe, for the counter's shoe)."""
        if self._float_engine is None:
            self._float_engine = Engine(self.rules, False, self.post_split, self.model)
        return self._float_engine

    def _policy(self, chart: Chart | None) -> tuple[Any, Strategy]:
        if chart is None:
            return Optimal(self.engine), self.cd
        self._check_chart(chart)
        return self._chart_policy(self.engine, chart), Strategy(chart.strategy, chart=True, split_hands="by the chart")

    def _chart_policy(self, engine: Engine, chart: Chart) -> ChartPolicy:
        """The policy playing ``chart`` on ``engine``, kept for the chart's plays: evaluating a
        chart, its exceptions, variance and Bet Behind solve its hands once."""
        from bjcalc.chartpolicy import ChartPolicy

        key = (engine is self.engine, chart.key)
        if key not in self._chart_policies:
            self._chart_policies[key] = ChartPolicy(engine, chart)
        return self._chart_policies[key]

    def _check_chart(self, chart: Chart, name: str = "chart") -> None:
        from bjcalc.chart import Chart

        if not isinstance(chart, Chart):
            raise InvalidChartError(f"{name} must be a bjcalc Chart (Analysis.chart(), load_chart), not {shown(chart)}")
        missing = [str(Rank.from_index(up)) for up in self.engine.ups() if up not in chart.ups]
        if missing:
            raise InvalidChartError(f"{name} has no column for up card {', '.join(missing)}, which this shoe can deal")

    # -- the round ----------------------------------------------------------------------------

    def round(self) -> RoundResult[N]:
        """The whole round with CD play: its EV (unconditional), the house edge, the EV by up
        card and insurance off the top."""
        from bjcalc.round import round_result

        policy = Optimal(self.engine)
        return round_result(self.engine, round_totals(self.engine, policy), self.cd, self._insurance_off_top(), policy)

    def chart(self, two_card_plays: bool = True) -> Chart:
        """The total-dependent basic strategy chart (decisions chosen in floating point). A
        cell shows the play of two-card hands and, where it differs, that of three or more
        cards (``H/S``); ``two_card_plays=False``: one play per total, as classic charts."""
        if not isinstance(two_card_plays, bool):
            raise InvalidRulesError(f"two_card_plays must be True or False, not {two_card_plays!r}")
        if two_card_plays not in self._charts:
            from bjcalc.optimiser import basic_strategy

            self._charts[two_card_plays] = basic_strategy(self.rules, self._floats(), two_card_plays)
        return self._charts[two_card_plays]

    def evaluate(self, chart: Chart) -> ChartEvaluation[N]:
        """The round played entirely by ``chart`` (first plays, hit/stand, split hands), and
        every two-card hand's first play under it."""
        from bjcalc.round import round_result

        self._check_chart(chart)  # None too: it would mean CD play, which round() gives
        policy, strategy = self._policy(chart)
        totals = round_totals(self.engine, policy)
        plays = tuple(self._hand_play(d) for d in totals.plays)
        return ChartEvaluation(round_result(self.engine, totals, strategy, self._insurance_off_top(), policy), plays)

    def _hand_play(self, dealt: Dealt) -> HandPlay[N]:
        cards = tuple(Rank.from_index(r) for r in range(10) for _ in range(dealt.counts[r]))
        return HandPlay(Rank.from_index(dealt.up), cards, to_api(dealt.probability, self.exact), dealt.action,
                        to_api(dealt.value, self.exact), dealt.same_face)

    def exceptions(self, chart: Chart) -> list[ChartException]:
        """Two-card hands where CD play beats ``chart``'s first play, by up card (2..T, A),
        largest gain first."""
        from bjcalc.chartpolicy import exceptions

        self._check_chart(chart)
        floats = self._floats()
        return exceptions(floats, round_totals(floats, self._chart_policy(floats, chart)).plays)

    def deviations(self, chart: Chart, optimal: Chart | None = None) -> list[Deviation]:
        """Every cell of ``chart`` that differs from ``optimal`` (default: :meth:`chart`), with
        its cost per round (float), largest first."""
        from bjcalc.chartpolicy import deviations

        self._check_chart(chart)
        if optimal is not None:
            self._check_chart(optimal, "optimal")
        return deviations(self._floats(), chart, self.chart() if optimal is None else optimal)

    def variance(self, chart: Chart | None = None) -> Variance[N]:
        """The variance of the round's result with CD play, or with every play by ``chart``
        (insurance not taken), exact, resplits included; ``variance`` is ``None`` for the
        infinite deck. It costs more than the round (about 2 s float at 8 decks with resplits
        to 4 hands, on a 2-core machine); split moments are kept on the analysis, so a chart's
        spread and CD play's share the splits that both play alike."""
        from bjcalc.round import round_variance

        policy, strategy = self._policy(chart)
        return Variance(round_variance(self.engine, policy), strategy)

    def bet_behind(self, chart: Chart | None = None) -> BetBehindResult[N]:
        """Bet Behind a seated player who plays CD, or ``chart``."""
        from bjcalc.betbehind import bet_behind

        policy, strategy = self._policy(chart)
        return bet_behind(self.engine, policy, strategy)

    # -- one hand, one up card ----------------------------------------------------------------

    def dealer(
        self, up: Rank | str | int, *, peeked: bool = False, removed: str | Sequence[Rank | str | int] = ()
    ) -> DealerResult[N]:
        """Dealer final-outcome probabilities with ``up`` showing.

        Before the peek by default (``blackjack`` included); ``peeked=True`` conditions on no
        dealer blackjack. ``removed`` are further cards known to be out of the shoe.
        """
        up_rank = parse_card(up)
        check_flag(peeked, "peeked")
        gone = _cards(removed, "removed")
        replacement = self.rules.infinite  # every draw with replacement: seen cards change nothing
        without_up = self.shoe if replacement else self.shoe.remove([up_rank])
        shoe = without_up if replacement else without_up.remove(gone)
        row = np.array([without_up.counts], dtype=np.int64) - np.array([shoe.counts], dtype=np.int64)
        dealer = compiled_dealer(up_rank.index, self.rules.hit_soft_17, self.rules.dealer_max_cards)
        depth = max_draws(dealer, shoe.counts, replacement)
        model = self.model
        base = 0 if model is None else int(model.rank_codes()[up_rank.index])
        numerators, denominators = outcome_numerators(dealer, without_up.counts, row, depth, self.exact,
                                                      replacement=replacement, model=model, base=base)
        # a card limit adds stopping states below 17; keep only those this shoe can reach
        values = {o: v[0] for o, v in numerators.items() if o >= 17 or v[0] != 0}
        total = denominators[0]
        if model is not None:  # a counter's shoe: over the weight of the cards drawn before
            weight = model.weights(np.array([base + model.code_of(tuple(row[0]))]), self.exact)[0]
            if weight == 0:
                raise InvalidShoeError(f"{str(up_rank)!r} up" + (f" and {','.join(map(str, gone))}" if gone else "")
                                       + " cannot be dealt from the counter's shoe (probability 0)")
            total = total * weight
        for always_shown in (BUST, BLACKJACK):
            values.setdefault(always_shown, total * 0)
        if not replacement and may_run_out(self.rules, shoe.counts, len(shoe) - (0 if model is None else model.hidden)):
            # some order of the draws may empty the shoe before the dealer can stop: that deal
            # is in no outcome (bjcalc.engine.lastcards), and its chance is what they leave
            left = total - sum(values.values())
            if left != 0 if self.exact else left > 1e-12 * total:
                values[RUN_OUT] = left
        if peeked:
            total = total - values.pop(BLACKJACK)
            if total == 0:
                raise InvalidShoeError("the dealer always has blackjack with this shoe and up card")
        ordered = sorted(values, key=lambda o: (o > 21, o))
        probabilities = {Outcome.of_code(o): ratio(values[o], total, self.exact) for o in ordered}
        return DealerResult(up_rank, probabilities, peeked, tuple(gone))

    def _insurance_off_top(self) -> N | None:
        """Insurance with nothing seen but the ace, where the rules offer it and an ace can show
        (a counter's shoe may have every ace certainly gone: then none is ever offered)."""
        if not self.rules.insurance or not self.rules.shoe_counts[ACE]:
            return None
        if self.count_shoe is not None and not self.count_shoe.can_deal((Rank.ACE,)):
            return None
        return self._insurance(Rank.ACE, ())

    def insurance(self, up: Rank | str | int = "A", removed: str | Sequence[Rank | str | int] = ()) -> N:
        """EV of insurance per unit of insurance bet, with ``up`` (an ace) and ``removed`` out.

        Off the top (nothing removed) it is ``(2 tens - others) / remaining``.
        """
        return self._insurance(parse_card(up), _cards(removed, "removed"))

    def _insurance(self, up_rank: Rank, gone: tuple[Rank, ...]) -> N:
        """:meth:`insurance` of checked cards."""
        if up_rank.index != ACE:
            raise InvalidHandError(f"insurance is offered only against an ace up, not {str(up_rank)!r}")
        if self.rules.infinite:  # every card with replacement: tens are 4 in 13 whatever was seen
            left = self.shoe
        else:
            left = self.shoe.remove((up_rank,) + gone)
        if self.count_shoe is not None:  # a counter's shoe: P(ten in the hole) from its draws
            dealt = (up_rank,) + gone
            before = self.count_shoe.draw_probability(dealt)
            if before == 0:
                raise InvalidHandError("these cards cannot be dealt from the counter's shoe (probability 0)")
            ten = self.count_shoe.draw_probability(dealt + (Rank.TEN,)) / before
            return cast(N, constant(3 * ten - 1, self.exact))
        tens, n = left.counts[TEN], len(left)
        return cast(N, constant(Fraction(2 * tens - (n - tens), n), self.exact))

    def plays(self, ups: str | Sequence[Rank | str | int] | None = None) -> tuple[HandPlay[N], ...]:
        """Every two-card hand the shoe can deal against each up card (``ups`` in their order,
        default A first), P(up card and hand), and its CD first play with its unconditional EV;
        two tens of unlike faces apart (``same_face``) where only one face may split.

        >>> plays = Analysis(Rules(shoe=(2,) * 9 + (8,), split_hands=1), exact=True).plays(["T"])
        >>> len(plays), sum(p.probability for p in plays), plays[-1].cards, plays[-1].action  # P(T up) = 8/26
        (55, 4/13, (Rank.TEN, Rank.TEN), Action.STAND)
        """
        indices = None if ups is None else [card.index for card in _cards(ups, "ups")]
        if indices == []:
            raise InvalidCardError(f"ups must name at least one up card (or be None: every up card), not {shown(ups)}")
        engine = self.engine
        return tuple(self._hand_play(d) for _, _, hands in deal(engine, Optimal(engine), indices) for d in hands)

    def cd_hits(self, cards: Sequence[Rank], up: Rank) -> bool:
        """Whether CD play hits ``cards`` against ``up`` after the first decision (ties stand)."""
        table = self.engine.table(up.index)
        layer, row = table.layers.index[_counts(cards)]
        return bool(table.can_hit[layer]) and int(table.decision[layer][row]) == Code.HIT

    def split_chances(self, pair: Rank, up: Rank, chart: Chart | None = None) -> tuple[N, N, N, bool] | None:
        """P(result > 0), P(= 0), P(< 0) of splitting ``pair`` against ``up`` with CD play (split
        hands by ``post_split``) or with split hands played by ``chart``, both hands' total,
        given the up card and the pair, joint with no dealer blackjack where the dealer peeks;
        and whether no resplit can happen (then the three add up to P(no dealer blackjack), else
        1; otherwise they count the rounds in which none happens). On a counter's shoe they
        are the counter's chances given the up card and the pair (the average over the
        discards of each composition's, weighted by P(discards) x P(up card and pair |
        discards)). ``None`` for cards drawn with replacement or where only one face of tens
        resplits."""
        from bjcalc.engine.moments import split_chances

        if chart is not None:
            self._check_chart(chart)
        policy, _ = self._policy(chart)
        splitter = policy.splits(up.index)
        if pair.index not in splitter.pairs() or (self.count_shoe is not None
                                                  and not self.count_shoe.can_deal((up, pair, pair))):
            raise InvalidHandError(f"{str(pair)!r},{str(pair)!r} against {str(up)!r} cannot be split from this shoe")
        found = split_chances(splitter, pair.index)
        if found is None:
            return None
        w, p, lo, whole = found
        return cast(N, to_api(w, self.exact)), cast(N, to_api(p, self.exact)), cast(N, to_api(lo, self.exact)), whole

    def dealer_after(self, cards: Sequence[Rank], up: Rank) -> dict[Outcome, N] | None:
        """The dealer's final outcomes (blackjack included) with ``up`` showing and ``cards``
        out, read from the dealer evaluation the analysis made for a hand of its hand graph
        (:meth:`dealer` computes any); ``None`` for a hand outside it or cards drawn with
        replacement. On a counter's shoe: P(outcome | the up card and ``cards`` were dealt),
        the average over the discards of each composition's, weighted by P(discards) x P(up
        card and ``cards`` | discards)."""
        if self.rules.infinite:
            return None
        engine = self.engine
        layers = engine.table(up.index).layers
        counts = _counts(cards)
        found = layers.index.get(counts)
        if found is None:
            return None
        layer, row = found
        context = engine.context(up.index)
        columns = context.batch.index.register(layers, (0,) * 10)[layer][row : row + 1]
        denominator: Any = falling_left(context.cards_left - sum(counts), context.depth)
        model = self.model
        if model is not None:  # a counter's shoe: the numerators carry the weight of every card drawn
            weight = model.weights(np.array([context.base + model.code_of(counts)]), self.exact)[0]
            if weight == 0:
                raise InvalidHandError(f"{','.join(map(str, cards))!r} and {str(up)!r} up cannot be dealt from the "
                                       "counter's shoe (probability 0)")
            denominator = denominator * (int(weight) if self.exact else float(weight))
        out: dict[Outcome, N] = {}
        for code, values in context.batch.outcomes(columns).items():
            value = values[0]
            if code >= 17 or value != 0 or code in (BUST, BLACKJACK):
                number = Fraction(int(value), denominator) if self.exact else float(value) / float(denominator)
                out[Outcome.of_code(code)] = cast(N, to_api(number, self.exact))
        return out

    def _first_values(self, up: int, frame: Frame) -> FirstValues | None:
        """:func:`bjcalc.engine.payout.first_values` of every two-card hand dealt against ``up``
        in ``frame`` with CD play, kept: asked for hand by hand, they cost 7 us each."""
        key = (up, frame)
        if key not in self._first:
            engine = self.engine
            hands = [(counts, same) for counts, p, same in engine.context(up).dealt_hands() if p]
            self._first[key] = first_values(engine, Optimal(engine), up, hands, frame)
        return self._first[key]

    def hand(self, cards: str | Sequence[Rank | str], up: Rank | str) -> HandResult[N]:
        """EVs of every action the rules allow for ``cards`` against ``up``."""
        hand = as_cards(cards)
        up_rank = parse_card(up)
        if len(hand) < 2:
            raise InvalidHandError(f"a hand needs at least two cards, not {len(hand)}")
        held = [0] * 10
        for card in hand:
            held[card.index] += 1
        counts = tuple(held)
        total, _ = counts_total(counts)
        if total > 21:
            raise InvalidHandError(f"hand {','.join(map(str, hand))!r} is already over 21 ({total})")
        if not self.rules.infinite:
            self.shoe.check_holds((up_rank,) + hand)
        if self.count_shoe is not None and not self.count_shoe.can_deal((up_rank,) + hand):
            raise InvalidHandError(f"hand {','.join(map(str, hand))!r} and {str(up_rank)!r} up cannot be dealt "
                                   "from the counter's shoe (probability 0)")
        rules = self.rules
        engine = self.engine
        table = engine.table(up_rank.index)
        if counts not in table.layers.index:
            raise InvalidHandError(f"hand {','.join(map(str, hand))!r} has more cards than the rules allow")
        # a ten's face matters only where unlike tens may not be split
        faces = [] if rules.split_unlike_tens else ten_faces(cards)
        natural = is_blackjack(counts)
        # a blackjack is settled as a natural; hitting or doubling it (as a soft 21) is shown for
        # information, as other analysers do, and is never the best play
        shown = [Action.STAND, Action.HIT, Action.DOUBLE] if natural else None
        frame = hand_frame(rules, table.peeked, initial=len(hand) == 2)
        conditioned = frame is Frame.CONDITIONED
        same_face = len(set(faces)) <= 1
        # a two-card hand's values come from its up card's, worked out for every hand at once
        # (floats already: the API's type in float mode)
        kept = self._first_values(up_rank.index, frame) if len(hand) == 2 else None
        got = None if kept is None else kept.get(counts, same_face)
        evs: dict[Action, Any]
        if got is None:
            values, p_bj = action_values(engine, Optimal(engine), up_rank.index, counts, same_face, frame, shown)
            evs = {action: to_api(value, self.exact) for action, value in values.items()}
        else:
            evs, p_bj = got
        insurance = even_money = None
        if up_rank.index == ACE and rules.insurance:
            insurance = self._insurance(up_rank, hand)
            if natural:
                even_money = constant(1, self.exact)
        run_out = self._run_out(up_rank.index, counts, evs, conditioned)
        return HandResult(
            cards=hand,
            up=up_rank,
            evs=evs,
            conditioned=conditioned,
            dealer_blackjack=to_api(p_bj, self.exact),
            insurance=insurance,
            even_money=even_money,
            strategy=self.cd if Action.SPLIT in evs else _CD,
            faces=() if rules.split_unlike_tens else tuple("T" if f == "10" else f for f in faces),
            run_out=run_out,
        )

    @functools.cached_property
    def _may_run_out(self) -> bool:
        """Whether some deal of a round from this shoe can run out (asked once, not per hand)."""
        return engine_may_run_out(self.engine)

    def _run_out(self, up: int, counts: tuple[int, ...], evs: Mapping[Action, Any], conditioned: bool
                 ) -> dict[Action, RunOut[N]] | None:
        """Each action's chance that the deal runs out of cards, in the frame of the hand's EVs
        (:mod:`bjcalc.engine.runout`), where some deal of the round can; else ``None``."""
        engine = self.engine
        if not self._may_run_out:
            return None
        if up not in self._walks:
            self._walks[up] = hand_walk(engine, Optimal(engine), up), hand_walk(engine, Optimal(engine), up, worst=True)
        walk, worst = self._walks[up]
        frame = "conditioned" if conditioned else "unconditional"
        out: dict[Action, RunOut[N]] = {}
        for action in evs:
            chance, most = walk.hand_chance(counts, CODE[action]), worst.hand_chance(counts, CODE[action])
            if not conditioned:
                chance, most = chance * walk.no_blackjack(counts), most * walk.no_blackjack(counts)
            # what the deal stakes: a double two bets; a split every hand it can make, twice
            # over (each split hand is valued on its own deal: bjcalc.engine.runout)
            stakes = {Action.DOUBLE: 2, Action.SPLIT: 2 * most_staked(self.rules)}.get(action, 1)
            out[action] = RunOut(to_api(chance, self.exact), to_api(most * stakes, self.exact),
                                 exact=not walk.bounded, most=to_api(most, self.exact), frame=frame)
        return out if any(r.most != 0 for r in out.values()) else None
