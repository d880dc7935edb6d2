"""Naive oracle for a round dealt to the last card: what happens when a card is needed and the
shoe is empty (the casino's reshuffle of the discards, or a void round). A test oracle.

Deliberately slow and simple: every card drawn is enumerated with its exact probability
(``fractions.Fraction``). Memoised, each on an explicit hashable key: the draws from a deck, the
dealer's outcome distribution, a finished hand's settlement given the hole card and the deck,
the CDZ- decisions, and the value of a player's node (its state and its hole-card branches with
the weights normalised: every value is linear in those weights). Written from the rules alone;
it shares no code with ``bjcalc`` nor with the other oracles.

Conventions (those of ``naive_reference``)
------------------------------------------
* Ranks are ints ``1..10`` (1 = ace, 10 = any ten-valued card, all tens alike).
* A shoe is a tuple of ten counts ``(A, 2, ..., 9, T)``. ``shoe`` is the shoe *before the deal*
  of this round (the player's two cards and the up card are still in it; the functions take
  them out). ``discards`` are ten counts of the cards seen in earlier rounds (not in the shoe).
* EVs are in units of the initial bet.

The deal and the draws
----------------------
Order: player card, up card, player card (``round_ev`` draws them from ``shoe``, which must
hold three cards or more), then the dealer's hole card, then the player's draws, then the
dealer's draws. Every draw is uniform over the cards left in the current shoe.

The run-out rules (``rule``), when a card is needed and the current shoe is empty:

* ``"void"``: the round is void: every bet is returned and the round's payoff is 0, for every
  hand, split hands already finished (even busted) included.
* ``"reshuffle"``: the discards (only those; the cards on the table are not included) are
  shuffled into a new shoe and dealing goes on from it. This happens at most once per round:
  if the new shoe runs empty too (or the discards are empty to begin with), the round is void
  from there, as under ``"void"``.

A deck is therefore ``(counts, reserve)``: the current shoe and the discards still available for
the one reshuffle (``None`` under ``"void"`` or once the reshuffle happened).

When the dealer draws
---------------------
* Peeking game (``peek=True``): the hole card is always dealt (after the player's two cards and
  the up card, before the player acts). The dealer draws (hits) only when at least one player
  hand is still standing (not bust, not surrendered, not a blackjack). The dealer draws while
  the total is below 17, and on soft 17 when ``h17``.
* No-hole-card game (``peek=False``): the dealer's second card is dealt after the player has
  finished every hand, and only when needed: when the up card is an A or a T (a dealer
  blackjack, A + T as the first two cards, takes every bet: originals, doubles and splits,
  busted or surrendered hands included; a player blackjack pushes) or when a player hand is
  still standing. The dealer then plays out if a hand is standing.

Frames (conditioning)
---------------------
* Peeking game with an A or T up: ``hand_evs``, ``runout_probability`` and
  ``runout_probability_max`` are *conditioned on no dealer blackjack*: the hole card is drawn
  among the cards of the current shoe (after the reshuffle, if the shoe was empty; see above)
  that do not make a blackjack, weights renormalised. If the hole card itself cannot be dealt
  (void), there is no blackjack either: every action is worth 0 and the run-out probability is
  1. If every possible hole card makes a blackjack, the conditioned values are undefined:
  ValueError.
* Otherwise (2-9 up, or the no-hole-card game): unconditional.

``round_ev`` and ``round_runout_probability`` are unconditional: a peeking dealer's blackjack
ends the round before the player acts (the player loses 1, a player blackjack pushes, no card
is needed after the hole card).

The player
----------
The player never sees the hole card: a decision may depend only on the player's own cards and
the up card (a reshuffle is visible, but its moment follows from the number of cards dealt, so
it adds nothing). The expectimax carries a *branch* per possible hole card: (weight, hole,
deck given that hole); the value of a decision node is the sum over branches of weight *
conditional value, and the player takes the best action on that sum. In the no-hole-card game
there is one branch and no hole card.

Actions on the two first cards: stand, hit (then hit or stand freely, optimally), double (stake
2, one card; ``double="any"``, or ``"none"``), surrender (late, -1/2, only when
``surrender=True``, only on the unsplit two-card hand; in the no-hole-card game a dealer
blackjack behind an A/T up takes the whole bet), split (pairs, when ``split_hands >= 2``). A
player blackjack (A + T, unsplit) pays ``blackjack_pays`` and has only "stand". A busted hand
loses even if the dealer busts (unless the round is void). Hitting is allowed on any total up to
21.

Charlie (``charlie=N``, optional, N >= 3): a hand (unsplit or split, doubled or not) that holds
N cards and no bust stops and wins its bet without the dealer, like a bust loses it without the
dealer: the dealer draws only for standing hands, so a charlie alone never runs out on the
dealer's draws. In the no-hole-card game with an A or T up the dealer's second card still comes
(a blackjack takes the charlie's bet; if that card cannot be dealt the round is void).

Splits: two hands of one pair card each, played left to right; each gets its second card when
its turn comes. A pair card arriving as a second card is always resplit (a new hand at the end
of the queue, the current hand draws again) while there are fewer than ``split_hands`` hands,
never for aces. Split aces get one card each and stand. A split A + T is 21, not a blackjack.
Doubling after a split when ``das``. Post-split strategy, CDZ-: a split hand holding cards C
(two or more) takes the action, among stand, hit and (two cards, ``das``) double, with the best
EV for the *unsplit* hand of exactly the cards C against the up card (the hole card drawn after
C, as in ``naive_reference.naive_hand``), from ``shoe`` with only C and the up card removed,
the same ``discards`` and the same run-out rule, in the frame above. Ties go to stand, then hit,
then double. Notes:

* C = A + T always stands (the unsplit A + T is a blackjack, which only stands).
* Under ``"reshuffle"`` a split hand may hold cards from the discards that ``shoe`` no longer
  holds: each card of C is then taken out of ``shoe`` when it is there, otherwise out of the
  discards (as if it had come after the reshuffle).
* If that unsplit reference is undefined (every possible hole card makes a blackjack), the split
  hand stands.

"Optimal play" (for the run-out probabilities and for the best first action of a round) breaks
EV ties in the order stand, hit, double, surrender, split (and stand before hit later on).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

__all__ = [
    "Rules",
    "ACTIONS",
    "cdz_action",
    "dealer_distribution",
    "hand_evs",
    "runout_probability",
    "runout_probability_max",
    "round_ev",
    "round_runout_probability",
    "clear_caches",
]

ACE = 1
TEN = 10
RANKS = range(1, 11)
RUN_OUT_RULES = ("reshuffle", "void")
ACTIONS = ("stand", "hit", "double", "surrender", "split")  # also the order of tie-breaks

Counts = tuple[int, ...]
Deck = tuple[Counts, Counts | None]  # (current shoe, discards kept for the one reshuffle)
Branch = tuple[Fraction, int | None, Deck]  # (weight, hole card or None, deck given it)
Finished = tuple[str, int, int]  # (kind: natural | bust | charlie | surrender | stand, total, bet)
Outcome = int | str  # 17..21, "bust", "blackjack", "void"


@dataclass(frozen=True)
class Rules:
    """The rules of the game (frozen: it is part of memo keys)."""

    h17: bool = False
    peek: bool = True
    das: bool = True
    double: str = "any"  # "any" or "none"
    surrender: bool = False
    split_hands: int = 2  # 1 = no split, 2 = no resplit, 3 or 4 = resplits (never aces)
    blackjack_pays: Fraction = Fraction(3, 2)
    charlie: int | None = None  # a hand of this many cards and no bust wins (None: no charlie)

    def __post_init__(self) -> None:
        if self.charlie is not None and self.charlie < 3:
            raise ValueError(f"charlie must be >= 3, not {self.charlie!r}")
        if self.double not in ("any", "none"):
            raise ValueError(f"bad double rule {self.double!r}")
        if self.split_hands not in (1, 2, 3, 4):
            raise ValueError(f"split_hands must be 1..4, not {self.split_hands!r}")


def _as_rules(rules: Rules | Mapping[str, object] | None) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    return Rules(**rules)  # type: ignore[arg-type]


def _counts(shoe: Counts) -> Counts:
    shoe = tuple(shoe)
    if len(shoe) != 10 or any(not isinstance(c, int) or c < 0 for c in shoe):
        raise ValueError(f"bad shoe {shoe!r}")
    return shoe


def _minus(counts: Counts, rank: int) -> Counts:
    if counts[rank - 1] == 0:
        raise ValueError(f"card {rank!r} not in {counts!r}")
    return counts[: rank - 1] + (counts[rank - 1] - 1,) + counts[rank:]


def _total(cards: tuple[int, ...]) -> tuple[int, bool]:
    """(total, soft) of some cards: an ace counts 11 when that does not bust."""
    hard = sum(cards)
    if ACE in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _is_blackjack(first: int, second: int) -> bool:
    return {first, second} == {ACE, TEN}


def _check_rule(rule: str) -> None:
    if rule not in RUN_OUT_RULES:
        raise ValueError(f"bad run-out rule {rule!r}")


def _start_deck(counts: Counts, discards: Counts, rule: str) -> Deck:
    return (counts, _counts(discards) if rule == "reshuffle" else None)


# --------------------------------------------------------------------------------------------
# Drawing a card
# --------------------------------------------------------------------------------------------


@cache
def _draws(deck: Deck) -> tuple[tuple[int, Fraction, Deck], ...] | None:
    """Every next card with its probability and the deck after it; None: the round is void."""
    counts, reserve = deck
    if sum(counts) == 0:
        if reserve is None or sum(reserve) == 0:
            return None
        counts, reserve = reserve, None  # the reshuffle of the discards (once)
    n = sum(counts)
    return tuple(
        (rank, Fraction(counts[rank - 1], n), (_minus(counts, rank), reserve)) for rank in RANKS if counts[rank - 1]
    )


def _deal(branches: list[Branch]) -> tuple[dict[int, list[Branch]], Fraction]:
    """The branches after the player draws a card, by card; and the weight that runs out."""
    by_card: dict[int, list[Branch]] = {}
    void = Fraction(0)
    for weight, hole, deck in branches:
        draws = _draws(deck)
        if draws is None:
            void += weight
            continue
        for rank, p, after in draws:
            by_card.setdefault(rank, []).append((weight * p, hole, after))
    return by_card, void


# --------------------------------------------------------------------------------------------
# The dealer
# --------------------------------------------------------------------------------------------


def _dealer_final(hard: int, has_ace: bool, n_cards: int, h17: bool) -> Outcome | None:
    """The dealer's outcome, or None while the dealer must draw."""
    if n_cards < 2:
        return None
    if n_cards == 2 and has_ace and hard == 11:
        return "blackjack"
    soft = has_ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total > 21:
        return "bust"
    if total < 17 or (total == 17 and soft and h17):
        return None
    return total


@cache
def _dealer(hard: int, has_ace: bool, n_cards: int, deck: Deck, h17: bool) -> dict[Outcome, Fraction]:
    """Outcome distribution (``"void"`` included) of a dealer holding the cards described."""
    final = _dealer_final(hard, has_ace, n_cards, h17)
    if final is not None:
        return {final: Fraction(1)}
    draws = _draws(deck)
    if draws is None:
        return {"void": Fraction(1)}
    dist: dict[Outcome, Fraction] = {}
    for rank, p, after in draws:
        for outcome, q in _dealer(hard + rank, has_ace or rank == ACE, n_cards + 1, after, h17).items():
            dist[outcome] = dist.get(outcome, Fraction(0)) + p * q
    return dist


def _dealer_from(cards: tuple[int, ...], deck: Deck, h17: bool) -> dict[Outcome, Fraction]:
    return _dealer(sum(cards), ACE in cards, len(cards), deck, h17)


def dealer_distribution(shoe_after: Counts, discards: Counts, up: int, h17: bool, rule: str) -> dict[Outcome, Fraction]:
    """The dealer's final outcome with ``up`` showing: the hole card and every draw come from
    ``shoe_after`` (the player's cards and the up card already out), then from the discards
    under ``"reshuffle"``. Unconditional (no peek); the dealer always plays out.

    Keys 17..21, ``"bust"``, ``"blackjack"`` and ``"void"`` (the round ran out under
    ``"void"``, or ran out twice under ``"reshuffle"``); the values sum to 1.

    >>> d = dealer_distribution((0,) * 9 + (1,), (0, 0, 0, 0, 1, 0, 0, 0, 0, 0), 6, False, "reshuffle")
    >>> d[21], d["void"]
    (Fraction(1, 1), Fraction(0, 1))
    """
    _check_rule(rule)
    if up not in RANKS:
        raise ValueError(f"bad rank {up!r}")
    deck = _start_deck(_counts(shoe_after), discards, rule)
    out: dict[Outcome, Fraction] = {key: Fraction(0) for key in (17, 18, 19, 20, 21, "bust", "blackjack", "void")}
    for outcome, p in _dealer_from((up,), deck, h17).items():
        out[outcome] += p
    return out


# --------------------------------------------------------------------------------------------
# Values: (EV, run-out probability), both summed over the branches with their weights
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Val:
    ev: Fraction
    runout: Fraction

    def __add__(self, other: _Val) -> _Val:
        return _Val(self.ev + other.ev, self.runout + other.runout)


ZERO = _Val(Fraction(0), Fraction(0))


@dataclass(frozen=True)
class _Ctx:
    shoe: Counts  # before the deal (for the CDZ- references)
    discards: Counts
    up: int
    rules: Rules
    rule: str
    objective: str  # "ev": play for the EV (CDZ- after splits); "runout": play to run out


def _choose(ctx: _Ctx, options: list[_Val]) -> _Val:
    """The option the player takes; ties go to the earliest."""
    best = options[0]
    for option in options[1:]:
        better = option.ev > best.ev if ctx.objective == "ev" else option.runout > best.runout
        if better:
            best = option
    return best


# --------------------------------------------------------------------------------------------
# Settlement of the finished hands
# --------------------------------------------------------------------------------------------


def _fixed_result(hand: Finished, rules: Rules) -> Fraction:
    """Result of a hand that is not standing, against a dealer without blackjack."""
    kind, _, bet = hand
    if kind == "natural":
        return rules.blackjack_pays * bet
    if kind == "bust":
        return Fraction(-bet)
    if kind == "charlie":
        return Fraction(bet)
    if kind == "surrender":
        return Fraction(-1, 2)
    raise AssertionError(kind)


def _against_blackjack(hands: tuple[Finished, ...]) -> Fraction:
    """No-hole-card game: a dealer blackjack takes every bet; a player blackjack pushes."""
    return Fraction(-sum(bet for kind, _, bet in hands if kind != "natural"))


def _against_dealer(
    rules: Rules, dealer_cards: tuple[int, ...], deck: Deck, fixed: Fraction, live: list[tuple[int, int]]
) -> tuple[Fraction, Fraction]:
    """The dealer plays out; standing hands ``live`` (total, bet) are compared with it. Returns
    (EV, P(void)): ``fixed`` and each standing hand's ``bet * edge`` where the round is not void."""
    void = _dealer_from(dealer_cards, deck, rules.h17).get("void", Fraction(0))
    ev = (1 - void) * fixed
    for total, bet in live:
        ev += bet * _edge(max(total, 16), dealer_cards, deck, rules.h17)
    return ev, void


@cache
def _edge(total: int, dealer_cards: tuple[int, ...], deck: Deck, h17: bool) -> Fraction:
    """P(a standing ``total`` wins) - P(it loses), against the dealer playing out (the void part
    counts for nothing). Every total below 17 fares alike."""
    edge = Fraction(0)
    for outcome, p in _dealer_from(dealer_cards, deck, h17).items():
        if outcome == "void":
            continue
        assert outcome != "blackjack", "a dealer blackjack is settled before the dealer plays"
        if outcome == "bust" or total > outcome:  # type: ignore[operator]
            edge += p
        elif total < outcome:  # type: ignore[operator]
            edge -= p
    return edge


def _settle(ctx: _Ctx, hands: tuple[Finished, ...], branches: list[Branch]) -> _Val:
    """Every player hand is finished: the dealer (if needed) plays, then everything is paid."""
    hands = tuple(sorted(hands))
    ev = Fraction(0)
    runout = Fraction(0)
    for weight, hole, deck in branches:
        branch_ev, branch_runout = _settle_branch(ctx.up, ctx.rules, hands, hole, deck)
        ev += weight * branch_ev
        runout += weight * branch_runout
    return _Val(ev, runout)


@cache
def _settle_branch(
    up: int, rules: Rules, hands: tuple[Finished, ...], hole: int | None, deck: Deck
) -> tuple[Fraction, Fraction]:
    """(EV, run-out probability) of the finished ``hands`` given the hole card (None: the
    no-hole-card game) and the deck."""
    fixed = sum((_fixed_result(h, rules) for h in hands if h[0] != "stand"), Fraction(0))
    live = [(total, bet) for kind, total, bet in hands if kind == "stand"]
    if hole is not None:  # peeking game: the hole card never makes a blackjack here
        if not live:
            return fixed, Fraction(0)
        return _against_dealer(rules, (up, hole), deck, fixed, live)
    # No-hole-card game: the dealer's second card, if needed.
    if not live and up not in (ACE, TEN):
        return fixed, Fraction(0)
    draws = _draws(deck)
    if draws is None:
        return Fraction(0), Fraction(1)
    ev = Fraction(0)
    runout = Fraction(0)
    for second, p, after in draws:
        if _is_blackjack(up, second):
            ev += p * _against_blackjack(hands)
        elif live:
            second_ev, second_runout = _against_dealer(rules, (up, second), after, fixed, live)
            ev += p * second_ev
            runout += p * second_runout
        else:
            ev += p * fixed
    return ev, runout


def _scaled(weight: Fraction, val: _Val) -> _Val:
    return _Val(weight * val.ev, weight * val.runout)


_MEMO: dict[tuple[object, ...], _Val] = {}


def _memo(state: tuple[object, ...], branches: list[Branch], compute: Callable[[list[Branch]], _Val]) -> _Val:
    """``compute(branches)``, memoised. Every value is linear in the branches' weights (a sum
    of weight * conditional value, and the player's choices depend only on the weights'
    ratios), so the key is ``state`` (everything else the value depends on) and the branches
    with their weights normalised to sum 1; the value is scaled back."""
    mass = sum((weight for weight, _, _ in branches), Fraction(0))
    normalised = [(weight / mass, hole, deck) for weight, hole, deck in branches]
    # (numerator, denominator) pairs: hashing a Fraction is slow
    key = (state, tuple((w.numerator, w.denominator, hole, deck) for w, hole, deck in normalised))
    if key not in _MEMO:
        _MEMO[key] = compute(normalised)
    return _scaled(mass, _MEMO[key])


# --------------------------------------------------------------------------------------------
# The unsplit hand
# --------------------------------------------------------------------------------------------


def _is_charlie(hand: tuple[int, ...], rules: Rules) -> bool:
    """Whether ``hand`` (no bust) is a charlie: it stops and wins without the dealer."""
    return rules.charlie is not None and len(hand) >= rules.charlie


def _ended(hand: tuple[int, ...], bet: int, rules: Rules) -> Finished:
    """A hand that takes no more cards: bust, charlie or standing."""
    total, _ = _total(hand)
    if total > 21:
        return ("bust", total, bet)
    return ("charlie" if _is_charlie(hand, rules) else "stand", total, bet)


def _stand(ctx: _Ctx, hand: tuple[int, ...], branches: list[Branch]) -> _Val:
    return _settle(ctx, (("stand", _total(hand)[0], 1),), branches)


def _play_on(ctx: _Ctx, hand: tuple[int, ...], branches: list[Branch]) -> _Val:
    """An undoubled hand that may stand or hit, played by the objective from here."""
    total, soft = _total(hand)
    if total > 21 or _is_charlie(hand, ctx.rules):
        return _settle(ctx, (_ended(hand, 1, ctx.rules),), branches)
    # What follows depends on the hand only through its total and softness (and, with a
    # charlie, its number of cards).
    return _memo(
        ("play_on", ctx, total, soft, len(hand) if ctx.rules.charlie is not None else None),
        branches,
        lambda normalised: _choose(ctx, [_stand(ctx, hand, normalised), _hit(ctx, hand, normalised)]),
    )


def _hit(ctx: _Ctx, hand: tuple[int, ...], branches: list[Branch]) -> _Val:
    by_card, void = _deal(branches)
    value = _Val(Fraction(0), void)
    for card, after in by_card.items():
        value += _play_on(ctx, hand + (card,), after)
    return value


def _double(ctx: _Ctx, hand: tuple[int, ...], branches: list[Branch]) -> _Val:
    by_card, void = _deal(branches)
    value = _Val(Fraction(0), void)
    for card, after in by_card.items():
        value += _settle(ctx, (_ended(hand + (card,), 2, ctx.rules),), after)
    return value


# --------------------------------------------------------------------------------------------
# Splits
# --------------------------------------------------------------------------------------------


def _split_next(
    ctx: _Ctx, pair: int, finished: tuple[Finished, ...], pending: int, n_hands: int, branches: list[Branch]
) -> _Val:
    """Start the next split hand, or settle when every hand is finished."""
    if pending == 0:
        return _settle(ctx, finished, branches)
    return _split_second(ctx, pair, finished, pending - 1, n_hands, branches)


def _split_second(
    ctx: _Ctx, pair: int, finished: tuple[Finished, ...], pending: int, n_hands: int, branches: list[Branch]
) -> _Val:
    """The current split hand (one pair card) receives its second card."""
    return _memo(
        ("split_second", ctx, pair, tuple(sorted(finished)), pending, n_hands),
        branches,
        lambda normalised: _split_second_now(ctx, pair, finished, pending, n_hands, normalised),
    )


def _split_second_now(
    ctx: _Ctx, pair: int, finished: tuple[Finished, ...], pending: int, n_hands: int, branches: list[Branch]
) -> _Val:
    may_resplit = n_hands < ctx.rules.split_hands and pair != ACE
    by_card, void = _deal(branches)
    value = _Val(Fraction(0), void)
    for card, after in by_card.items():
        if card == pair and may_resplit:
            value += _split_second(ctx, pair, finished, pending + 1, n_hands + 1, after)
        elif pair == ACE:  # split aces: one card each
            done: Finished = ("stand", _total((ACE, card))[0], 1)
            value += _split_next(ctx, pair, finished + (done,), pending, n_hands, after)
        else:
            value += _split_play(ctx, pair, finished, (pair, card), pending, n_hands, after)
    return value


def _split_play(
    ctx: _Ctx,
    pair: int,
    finished: tuple[Finished, ...],
    hand: tuple[int, ...],
    pending: int,
    n_hands: int,
    branches: list[Branch],
) -> _Val:
    """A split hand of two cards or more: CDZ- (objective "ev") or hit/stand to run out."""
    total, _ = _total(hand)
    if total > 21 or _is_charlie(hand, ctx.rules):
        return _split_next(ctx, pair, finished + (_ended(hand, 1, ctx.rules),), pending, n_hands, branches)
    return _memo(
        ("split_play", ctx, pair, tuple(sorted(finished)), tuple(sorted(hand)), pending, n_hands),
        branches,
        lambda normalised: _split_play_now(ctx, pair, finished, hand, pending, n_hands, normalised),
    )


def _split_play_now(
    ctx: _Ctx,
    pair: int,
    finished: tuple[Finished, ...],
    hand: tuple[int, ...],
    pending: int,
    n_hands: int,
    branches: list[Branch],
) -> _Val:
    total, _ = _total(hand)

    def stand() -> _Val:
        return _split_next(ctx, pair, finished + (("stand", total, 1),), pending, n_hands, branches)

    def hit() -> _Val:
        by_card, void = _deal(branches)
        value = _Val(Fraction(0), void)
        for card, after in by_card.items():
            value += _split_play(ctx, pair, finished, hand + (card,), pending, n_hands, after)
        return value

    def double() -> _Val:
        by_card, void = _deal(branches)
        value = _Val(Fraction(0), void)
        for card, after in by_card.items():
            value += _split_next(ctx, pair, finished + (_ended(hand + (card,), 2, ctx.rules),), pending, n_hands, after)
        return value

    if ctx.objective == "runout":
        return _choose(ctx, [stand(), hit()])
    may_double = len(hand) == 2 and ctx.rules.das and ctx.rules.double == "any"
    plays: dict[str, Callable[[], _Val]] = {"stand": stand, "hit": hit, "double": double}
    return plays[_cdz_action(ctx, hand, may_double)]()


_CDZ: dict[tuple[object, ...], str] = {}


def _cdz_action(ctx: _Ctx, cards: tuple[int, ...], may_double: bool) -> str:
    """CDZ-: the best of stand / hit / double for the unsplit hand of exactly ``cards``."""
    cards = tuple(sorted(cards))
    if cards == (ACE, TEN):
        return "stand"
    key = (ctx.shoe, ctx.discards, ctx.up, ctx.rules, ctx.rule, cards, may_double)
    if key not in _CDZ:
        _CDZ[key] = _cdz_compute(ctx, cards, may_double)
    return _CDZ[key]


def _cdz_compute(ctx: _Ctx, cards: tuple[int, ...], may_double: bool) -> str:
    counts = _minus(ctx.shoe, ctx.up)
    discards = ctx.discards
    for card in cards:
        if counts[card - 1]:
            counts = _minus(counts, card)
        else:  # under "reshuffle": a card that came from the discards
            discards = _minus(discards, card)
    ref = _Ctx(ctx.shoe, ctx.discards, ctx.up, ctx.rules, ctx.rule, "ev")
    try:
        branches = _hole_branches(ref, _start_deck(counts, discards, ctx.rule))
    except _Undefined:
        return "stand"
    if branches is None:  # the hole card itself runs out: every action is worth 0
        return "stand"
    options = [("stand", _stand(ref, cards, branches)), ("hit", _hit(ref, cards, branches))]
    if may_double:
        options.append(("double", _double(ref, cards, branches)))
    best_action, best = options[0]
    for action, value in options[1:]:
        if value.ev > best.ev:
            best_action, best = action, value
    return best_action


# --------------------------------------------------------------------------------------------
# The hole card and the first decision
# --------------------------------------------------------------------------------------------


class _Undefined(ValueError):
    """Conditioned on no dealer blackjack when every possible hole card makes one."""


def _hole_branches(ctx: _Ctx, deck: Deck) -> list[Branch] | None:
    """The branches over the hole card (in the frame of the module docstring); None when the
    hole card cannot be dealt (the round is void)."""
    if not ctx.rules.peek:
        return [(Fraction(1), None, deck)]
    draws = _draws(deck)
    if draws is None:
        return None
    if ctx.up in (ACE, TEN):
        draws = tuple(d for d in draws if not _is_blackjack(ctx.up, d[0]))
    mass = sum((p for _, p, _ in draws), Fraction(0))
    if mass == 0:
        raise _Undefined("every possible hole card makes a dealer blackjack: no conditioned values")
    return [(p / mass, hole, after) for hole, p, after in draws]


def _available(hand: tuple[int, int], rules: Rules) -> list[str]:
    if _is_blackjack(*hand):
        return ["stand"]
    actions = ["stand", "hit"]
    if rules.double == "any":
        actions.append("double")
    if rules.surrender:
        actions.append("surrender")
    if hand[0] == hand[1] and rules.split_hands >= 2:
        actions.append("split")
    return actions


def _first_values(
    shoe: Counts,
    discards: Counts,
    hand: tuple[int, ...],
    up: int,
    rules: Rules | Mapping[str, object] | None,
    rule: str,
    objective: str,
    only: str | None = None,
) -> dict[str, _Val]:
    """(EV, run-out probability) of each first action (or of ``only``), in the module's frame."""
    _check_rule(rule)
    rules = _as_rules(rules)
    shoe, discards = _counts(shoe), _counts(discards)
    if len(hand) != 2 or any(card not in RANKS for card in hand) or up not in RANKS:
        raise ValueError(f"bad hand {hand!r} or up card {up!r}")
    pair_hand: tuple[int, int] = (hand[0], hand[1])
    counts = shoe
    for card in (*pair_hand, up):
        counts = _minus(counts, card)
    actions = _available(pair_hand, rules)
    if only is not None:
        if only not in actions:
            raise ValueError(f"action {only!r} not available on {hand!r} (rules {rules!r})")
        actions = [only]
    ctx = _Ctx(shoe, discards, up, rules, rule, objective)
    branches = _hole_branches(ctx, _start_deck(counts, discards, rule))
    if branches is None:
        return {action: _Val(Fraction(0), Fraction(1)) for action in actions}
    out: dict[str, _Val] = {}
    for action in actions:
        if _is_blackjack(*pair_hand):
            out[action] = _settle(ctx, (("natural", 21, 1),), branches)
        elif action == "stand":
            out[action] = _stand(ctx, pair_hand, branches)
        elif action == "hit":
            out[action] = _hit(ctx, pair_hand, branches)
        elif action == "double":
            out[action] = _double(ctx, pair_hand, branches)
        elif action == "surrender":
            out[action] = _settle(ctx, (("surrender", 0, 1),), branches)
        else:
            out[action] = _split_second(ctx, pair_hand[0], (), 1, 2, branches)
    return out


def _best(values: dict[str, _Val]) -> tuple[str, _Val]:
    """The best first action by EV, ties broken in the order of ACTIONS."""
    ordered = [(action, values[action]) for action in ACTIONS if action in values]
    best_action, best = ordered[0]
    for action, value in ordered[1:]:
        if value.ev > best.ev:
            best_action, best = action, value
    return best_action, best


# --------------------------------------------------------------------------------------------
# Public functions: one hand
# --------------------------------------------------------------------------------------------


def hand_evs(
    shoe: Counts,
    discards: Counts,
    hand: tuple[int, ...],
    up: int,
    rules: Rules | Mapping[str, object] | None = None,
    rule: str = "reshuffle",
) -> dict[str, Fraction]:
    """EV of each available first action (stand, hit, double, surrender, split) on the two cards
    ``hand`` against ``up``, then optimal play (CDZ- after a split), in the module's frame
    (conditioned on no dealer blackjack in the peeking game with an A or T up). A player
    blackjack has only "stand".

    >>> shoe = (0, 0, 0, 0, 0, 0, 1, 0, 1, 2)  # T,T v 9, hole 7: the dealer's 16 must draw
    >>> hand_evs(shoe, (0,) * 10, (10, 10), 9, rule="void")["stand"]
    Fraction(0, 1)
    >>> hand_evs(shoe, (0, 0, 0, 0, 1, 0, 0, 0, 0, 0), (10, 10), 9)["stand"]  # the 5 makes 21
    Fraction(-1, 1)
    """
    values = _first_values(shoe, discards, tuple(hand), up, rules, rule, "ev")
    return {action: value.ev for action, value in values.items()}


def runout_probability(
    shoe: Counts,
    discards: Counts,
    hand: tuple[int, ...],
    up: int,
    rules: Rules | Mapping[str, object] | None,
    action: str,
) -> Fraction:
    """Probability that the round needs a card from the empty shoe (the first run-out; the hole
    card included), with first action ``action`` then the oracle's optimal play under
    ``"void"`` (``discards`` do not matter), in the frame of ``hand_evs``."""
    return _first_values(shoe, discards, tuple(hand), up, rules, "void", "ev", action)[action].runout


def runout_probability_max(
    shoe: Counts,
    discards: Counts,
    hand: tuple[int, ...],
    up: int,
    rules: Rules | Mapping[str, object] | None,
    action: str,
) -> Fraction:
    """As ``runout_probability``, but after the first action the player hits or stands (every
    hand, split hands included; without seeing the hole card) to make a run-out as likely as
    possible: the maximum over those plays."""
    return _first_values(shoe, discards, tuple(hand), up, rules, "void", "runout", action)[action].runout


def cdz_action(
    shoe: Counts,
    discards: Counts,
    cards: tuple[int, ...],
    up: int,
    rules: Rules | Mapping[str, object] | None,
    rule: str,
    *,
    may_double: bool,
) -> str:
    """The CDZ- action ("stand", "hit" or "double") of a split hand holding ``cards`` (two or
    more) against ``up``, for the round dealt from ``shoe`` (see the module docstring).
    ``may_double``: whether the split hand may double (two cards, ``das``)."""
    _check_rule(rule)
    ctx = _Ctx(_counts(shoe), _counts(discards), up, _as_rules(rules), rule, "ev")
    if len(cards) < 2 or _total(tuple(cards))[0] > 21:
        raise ValueError(f"a split hand to play needs two cards or more and no bust, not {cards!r}")
    return _cdz_action(ctx, tuple(cards), may_double)


# --------------------------------------------------------------------------------------------
# Public functions: the round
# --------------------------------------------------------------------------------------------


def _deals(shoe: Counts) -> dict[tuple[int, tuple[int, int]], Fraction]:
    """P(up card, player's hand sorted), dealt player card, up card, player card."""
    n = sum(shoe)
    if n < 3:
        raise ValueError(f"the shoe {shoe!r} cannot deal the player's cards and the up card")
    out: dict[tuple[int, tuple[int, int]], Fraction] = {}
    for first in RANKS:
        if not shoe[first - 1]:
            continue
        p1 = Fraction(shoe[first - 1], n)
        after1 = _minus(shoe, first)
        for up in RANKS:
            if not after1[up - 1]:
                continue
            p2 = Fraction(after1[up - 1], n - 1)
            after2 = _minus(after1, up)
            for second in RANKS:
                if not after2[second - 1]:
                    continue
                p3 = Fraction(after2[second - 1], n - 2)
                key = (up, (min(first, second), max(first, second)))
                out[key] = out.get(key, Fraction(0)) + p1 * p2 * p3
    return out


def _round(shoe: Counts, discards: Counts, rules: Rules | Mapping[str, object] | None, rule: str) -> _Val:
    """Unconditional (EV, run-out probability) of the round, best first action by EV."""
    _check_rule(rule)
    rules = _as_rules(rules)
    shoe, discards = _counts(shoe), _counts(discards)
    total = ZERO
    for (up, hand), p in _deals(shoe).items():
        natural = _is_blackjack(*hand)
        p_bj = Fraction(0)
        if rules.peek and up in (ACE, TEN):
            counts = _minus(_minus(_minus(shoe, hand[0]), hand[1]), up)
            draws = _draws(_start_deck(counts, discards, rule))
            if draws is not None:
                p_bj = sum((q for hole, q, _ in draws if _is_blackjack(up, hole)), Fraction(0))
        bj_result = Fraction(0) if natural else Fraction(-1)
        if p_bj == 1:
            total += _Val(p * bj_result, Fraction(0))
            continue
        _, best = _best(_first_values(shoe, discards, hand, up, rules, rule, "ev"))
        total += _Val(p * (p_bj * bj_result + (1 - p_bj) * best.ev), p * (1 - p_bj) * best.runout)
    return total


def round_ev(
    shoe: Counts, discards: Counts, rules: Rules | Mapping[str, object] | None = None, rule: str = "reshuffle"
) -> Fraction:
    """Unconditional EV of the whole round dealt from ``shoe`` (three cards or more): the sum
    over the up card and the player's two cards of their probability times the EV of the best
    first action; a peeking dealer's blackjack takes 1 (a player blackjack pushes) before the
    player acts. No insurance.

    >>> round_ev((0, 0, 0, 0, 0, 0, 0, 0, 0, 3), (0,) * 10, rule="void")  # T,T v T, hole void
    Fraction(0, 1)
    """
    return _round(shoe, discards, rules, rule).ev


def clear_caches() -> None:
    """Forget every memoised value (they stay valid; this only frees memory)."""
    _MEMO.clear()
    _CDZ.clear()
    for cached in (_draws, _dealer, _settle_branch, _edge):
        cached.cache_clear()


def round_runout_probability(
    shoe: Counts, discards: Counts, rules: Rules | Mapping[str, object] | None = None
) -> Fraction:
    """Unconditional probability that the round (rule ``"void"``, the best first action by EV,
    then the oracle's optimal play) needs a card from the empty shoe; ``discards`` do not
    matter. A peeking dealer's blackjack ends the round with no run-out."""
    return _round(shoe, discards, rules, "void").runout
