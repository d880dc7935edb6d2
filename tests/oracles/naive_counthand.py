"""The counter's shoe, played: a brute-force oracle for the dealer and one unsplit hand.

Written from the model alone (docs/countshoe.md, "What the counter knows"), sharing no code with
``bjcalc``. It builds on two other oracles: ``naive_reference`` (a known composition: the dealer's
draws, the settlement, the hand rules) and, in the tests, ``naive_countshoe`` (the discard sets).
Tiny shoes only (8 to 14 cards): every discard set and every card sequence is enumerated, and
every number is a :class:`fractions.Fraction`.

Conventions
-----------
* ``shoe``: ten counts, index 0 the aces ... index 9 the ten-valued cards, the whole shoe before
  any card was dealt (discards and this round's cards still in it).
* ``tags``: the count's ten tags, same order (ints or Fractions, not scaled).
* ``seen``: how many cards went to the discards (ranks forgotten).
* ``discard_count``: the sum of the tags of the discards **only**: the running count less the
  initial running count, and less this round's cards, which are not discards.
* Ranks of dealt cards (``up``, ``hand``, ``removed``, ``cards``) are ints ``1..10`` (1 = ace,
  10 = ten-valued), as in ``naive_reference``. Rules dicts are ``naive_reference`` ones
  (``DEFAULT_RULES`` / ``rules_with``).

The model. The discards are a uniformly random ``seen``-subset of the labelled cards of the shoe,
among those whose tags sum to ``discard_count``; the cards left are the rest, in a uniformly
random order. A discard set is kept here as the composition it leaves, with its multiplicity
``prod_r C(shoe_r, d_r)`` (the number of labelled subsets taking ``d_r`` cards of rank ``r``):
the same distribution as ``naive_countshoe.discard_sets``, which lists the subsets one by one.

Order of dealing (what ``count_hand`` implements): the discards, the dealer's up card, the
player's two cards, the dealer's hole card, the player's draws, the dealer's draws. (The cards
left are exchangeable, so the hole card could as well come after the player's draws.)

The player sees the up card and their own cards and nothing else. ``count_hand``'s expectimax
carries one weight per hidden state ``(discard set S, hole card h)``:
``w[S, h] = P(S) P(up, hand come first | S) P(h next | S, up, hand)`` at the root, renormalised;
with a peeking dealer and an A or T up (not early surrender) only the holes that do not make a
dealer blackjack, renormalised (the EVs are then conditioned on no dealer blackjack, as
``naive_hand``'s). Drawing ``c`` multiplies each weight by ``P(c next | S, h, cards so far)``; a
decision node's value is the maximum over the actions of the weighted sums (the weights of one
node have one total, so this is the exact expectimax for a player who knows only the model).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb

from .naive_reference import (
    ACE,
    RANKS,
    TEN,
    ShoeExhausted,
    _can_hit,
    _check_rules,
    _Ctx,
    _dealer_distribution,
    _double_allowed,
    _draw_weights,
    _final_value,
    _finished_kind,
    _is_blackjack,
    _settle,
    _settle_against_blackjack,
    hand_total,
    naive_dealer,
)

__all__ = [
    "discard_compositions",
    "count_deal_probability",
    "count_dealer",
    "count_hand",
    "count_hand_policy",
    "count_hand_fixed",
    "composition_fixed",
    "FIRST_ACTIONS",
]

FIRST_ACTIONS = ("stand", "hit", "double", "surrender")


# --------------------------------------------------------------------------------------------
# The discard sets
# --------------------------------------------------------------------------------------------


def _check_shoe(shoe, tags):
    if len(shoe) != 10 or any(c < 0 for c in shoe):
        raise ValueError(f"bad shoe {shoe!r}")
    if len(tags) != 10:
        raise ValueError(f"tags must be ten numbers, not {tags!r}")


def discard_compositions(shoe: Sequence[int], tags: Sequence, seen: int, discard_count
                         ) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every possible discard set, as ``(left, P(S))``: ``left`` the ten counts (index 0 = aces)
    of the cards left, ``P(S)`` the prior probability of the sets leaving it (their number over
    the number of all the sets with ``seen`` cards and tag sum ``discard_count``). Raises
    ``ValueError`` when no set reaches that count."""
    _check_shoe(shoe, tags)
    return list(_discard_compositions(tuple(shoe), tuple(Fraction(t) for t in tags), seen, Fraction(discard_count)))


@lru_cache(maxsize=256)
def _discard_compositions(shoe, tags, seen, discard_count):
    target = discard_count
    found = []
    for d in itertools.product(*(range(c + 1) for c in shoe)):
        if sum(d) != seen or sum(t * k for t, k in zip(tags, d)) != target:
            continue
        mult = 1
        for c, k in zip(shoe, d):
            mult *= comb(c, k)
        found.append((tuple(c - k for c, k in zip(shoe, d)), mult))
    z = sum(m for _, m in found)
    if z == 0:
        raise ValueError(f"no {seen}-card discard set has tag sum {discard_count}")
    return tuple((left, Fraction(m, z)) for left, m in found)


def _sequence_probability(left: Sequence[int], cards: Sequence[int]) -> Fraction:
    """P(``cards`` (ranks 1..10) are the next cards, in order) from the known composition ``left``."""
    counts = list(left)
    p = Fraction(1)
    for card in cards:
        if card not in RANKS:
            raise ValueError(f"bad rank {card!r}")
        total = sum(counts)
        if counts[card - 1] == 0:
            return Fraction(0)
        p *= Fraction(counts[card - 1], total)
        counts[card - 1] -= 1
    return p


def _posterior(shoe, tags, seen, discard_count, dealt):
    """[(left, P(S | ``dealt`` came first))] over the sets with a positive posterior."""
    joint = [(left, p * _sequence_probability(left, dealt))
             for left, p in discard_compositions(shoe, tags, seen, discard_count)]
    total = sum(q for _, q in joint)
    if total == 0:
        raise ValueError(f"the cards {tuple(dealt)!r} cannot be dealt after such discards")
    return [(left, q / total) for left, q in joint if q]


def count_deal_probability(shoe, tags, seen, discard_count, cards) -> Fraction:
    """P(the next cards of the cards left are ``cards`` (ranks 1..10), in this order)."""
    return sum((p * _sequence_probability(left, cards)
                for left, p in discard_compositions(shoe, tags, seen, discard_count)), Fraction(0))


# --------------------------------------------------------------------------------------------
# The dealer
# --------------------------------------------------------------------------------------------


def count_dealer(shoe, tags, seen, discard_count, up, rules, removed=()) -> dict:
    """The dealer's final-outcome probabilities, unconditional (before any peek), given that
    ``up`` and the cards ``removed`` were dealt from the cards left: the average of
    ``naive_dealer`` over the discard sets, weighted by ``P(S | up and removed dealt)``. Same
    keys as ``naive_dealer`` (17..21, 'bust', 'blackjack', and totals below 17 with a dealer
    card limit)."""
    _check_rules(rules)
    out: dict = {}
    for left, q in _posterior(shoe, tags, seen, discard_count, (up,) + tuple(removed)):
        for outcome, p in naive_dealer(left, up, rules, removed).items():
            out[outcome] = out.get(outcome, Fraction(0)) + q * p
    return out


# --------------------------------------------------------------------------------------------
# The player: expectimax over (discard set, hole card)
# --------------------------------------------------------------------------------------------
# A node's hidden states are a list of (counts, w): per discard set S, ``counts`` the rank-indexed
# counts (index 0 unused, as naive_reference) of S's cards left less the up card and the player's
# cards (the hole card still among them), ``w`` a dict hole card -> weight. ``n`` (the number of
# those cards) is the same for every S.


def _final(ctx, hand, states, n, bet, kind):
    return sum((_final_value(ctx, hand, counts, n, w, bet, kind) for counts, w in states), Fraction(0))


def _after_draw(states, n, card):
    """The hidden states after the player draws ``card`` (states of weight 0 dropped)."""
    out = []
    for counts, w in states:
        if counts[card] == 0:
            continue
        w2 = {h: x for h, x in _draw_weights(w, counts, n, card).items() if x}
        if not w2:
            continue
        c2 = list(counts)
        c2[card] -= 1
        out.append((c2, w2))
    return out


def _best(ctx, hand, states, n, policy):
    kind = _finished_kind(hand, ctx.rules)
    if kind is not None:
        return _final(ctx, hand, states, n, 1, kind)
    stand = _final(ctx, hand, states, n, 1, "normal")
    if not _can_hit(hand, ctx.rules):
        return stand
    hit = _hit(ctx, hand, states, n, policy)
    if policy is not None:
        policy[hand] = "hit" if hit > stand else "stand"
    return max(stand, hit)


def _hit(ctx, hand, states, n, policy):
    value = Fraction(0)
    for card in RANKS:
        if n - 1 <= 0 and any(counts[card] for counts, _ in states):
            raise ShoeExhausted("the player must draw from an empty shoe")
        after = _after_draw(states, n, card)
        if after:
            value += _best(ctx, hand + (card,), after, n - 1, policy)
    return value


def _double(ctx, hand, states, n):
    value = Fraction(0)
    for card in RANKS:
        if n - 1 <= 0 and any(counts[card] for counts, _ in states):
            raise ShoeExhausted("the player must draw from an empty shoe")
        after = _after_draw(states, n, card)
        if after:
            new_hand = hand + (card,)
            value += _final(ctx, new_hand, after, n - 1, 2, _finished_kind(new_hand, ctx.rules) or "normal")
    return value


def _frame(up, hand, rules, natural):
    is_natural = natural and len(hand) == 2 and _is_blackjack(hand[0], hand[1])
    peek_ace_ten = rules["hole_card"] == "peek" and up in (ACE, TEN)
    early = rules["surrender"] == "early"
    return is_natural, peek_ace_ten, early


def _count_hand(shoe, tags, seen, discard_count, up, hand, rules, natural, policy):
    _check_rules(rules)
    hand = tuple(hand)
    if len(hand) < 2:
        raise ValueError(f"a hand needs two cards or more, not {hand!r}")
    is_natural, peek_ace_ten, early = _frame(up, hand, rules, natural)
    ctx = _Ctx(up, rules)

    # Root weights w[S, h] = P(S | up, hand) * P(h | S, up, hand), only allowed holes, renormalised.
    states, n, p_bj, total = [], None, Fraction(0), Fraction(0)
    for left, q in _posterior(shoe, tags, seen, discard_count, (up,) + hand):
        counts = [0] + list(left)
        for card in (up,) + hand:
            counts[card] -= 1
        n = sum(counts)
        bj_hole = TEN if up == ACE else ACE if up == TEN else None
        if bj_hole is not None:
            p_bj += q * Fraction(counts[bj_hole], n)
        w = {h: q * Fraction(counts[h], n) for h in RANKS
             if counts[h] and not (peek_ace_ten and _is_blackjack(up, h))}
        if w:
            states.append((counts, w))
            total += sum(w.values())
    if total == 0:
        raise ShoeExhausted("no possible hole card")
    states = [(counts, {h: x / total for h, x in w.items()}) for counts, w in states]

    result = {"stand": None, "hit": None, "double": None, "surrender": None}
    if is_natural:
        result["stand"] = _final(ctx, hand, states, n, 1, "natural")
    else:
        result["stand"] = _final(ctx, hand, states, n, 1, _finished_kind(hand, rules) or "normal")
        if _can_hit(hand, rules):
            result["hit"] = _hit(ctx, hand, states, n, policy)
        if _double_allowed(hand, rules):
            result["double"] = _double(ctx, hand, states, n)

    if peek_ace_ten and early:
        lose = Fraction(0) if is_natural else Fraction(-1)
        for action in ("stand", "hit", "double"):
            if result[action] is not None:
                result[action] = p_bj * lose + (1 - p_bj) * result[action]
    if rules["surrender"] != "none" and len(hand) == 2 and not is_natural:
        if early or rules["hole_card"] == "peek":
            result["surrender"] = Fraction(-1, 2)
        else:
            result["surrender"] = (1 - p_bj) * Fraction(-1, 2) + p_bj * Fraction(-1)
    result["conditioned"] = peek_ace_ten and not early
    return result


def count_hand(shoe, tags, seen, discard_count, up, hand, rules, *, natural=True) -> dict:
    """EVs per initial bet of the actions on the unsplit hand ``hand`` against ``up``, for a
    counter who knows only the model: ``{'stand', 'hit', 'double', 'surrender'}`` -> Fraction or
    None (not available), ``'conditioned'`` -> True when conditioned on no dealer blackjack.

    Exactly ``naive_hand``'s conventions (and equal to it when ``seen == 0``): conditioned when
    the dealer peeks with an A or T up and surrender is not early; with early surrender and a
    peek, the EVs are unconditional (a dealer blackjack takes the bet before a decision);
    surrender -1/2 with a peek or early, else late no-hole-card surrender loses the whole bet
    to a dealer blackjack; 'double' is one card at bet 2; 'hit' is one card and then the
    **optimal continuation** (expectimax over (discard set, hole card), the player seeing only
    the up card and their cards); ``natural=False`` treats A,T as a soft 21.
    """
    return _count_hand(shoe, tags, seen, discard_count, up, hand, rules, natural, None)


def count_hand_policy(shoe, tags, seen, discard_count, up, hand, rules, *, natural=True
                      ) -> tuple[dict, dict[tuple[int, ...], str]]:
    """``(count_hand(...), policy)``: ``policy`` maps every hand reached after a first hit (a
    tuple of ranks, ``hand`` then the draws, in order) where the player may hit to the
    expectimax's choice, 'hit' or 'stand' ('stand' on a tie)."""
    policy: dict = {}
    result = _count_hand(shoe, tags, seen, discard_count, up, hand, rules, natural, policy)
    return result, policy


# --------------------------------------------------------------------------------------------
# One fixed policy: per known composition, then averaged over the discard sets
# --------------------------------------------------------------------------------------------


def composition_fixed(left, up, hand, rules, first, play=None, *, natural=True):
    """``(value, p_no_bj)`` for a **known** composition ``left`` (ten counts, index 0 = aces: the
    cards left, up card and hand still in it): ``value`` the EV of the fixed play in
    ``naive_hand``'s frame (conditioned on no dealer blackjack when the dealer peeks with an A
    or T up and surrender is not early; None if then a dealer blackjack is certain),
    ``p_no_bj`` the probability of no dealer blackjack given up and hand.

    Forward enumeration, written apart from the expectimax: hole card, then the player's
    draws by the policy, then the dealer's draws. ``first`` is one of ``FIRST_ACTIONS``;
    after 'hit', ``play(cards)`` ('stand' or 'hit') is asked at every hand (a tuple of ranks,
    ``hand`` then the draws) that is not finished (bust, charlie) and may hit (card limit).
    """
    _check_rules(rules)
    hand = tuple(hand)
    if first not in FIRST_ACTIONS:
        raise ValueError(f"bad first action {first!r}")
    is_natural, peek_ace_ten, early = _frame(up, hand, rules, natural)
    counts = [0] + list(left)
    for card in (up,) + hand:
        if card not in RANKS or counts[card] == 0:
            raise ValueError(f"card {card!r} not in the composition")
        counts[card] -= 1
    n = sum(counts)
    bj_hole = TEN if up == ACE else ACE if up == TEN else None
    p_bj = Fraction(counts[bj_hole], n) if bj_hole is not None else Fraction(0)

    if first == "surrender":
        if rules["surrender"] == "none" or len(hand) != 2 or is_natural:
            raise ValueError("surrender not available")
        if early or rules["hole_card"] == "peek":
            return Fraction(-1, 2), 1 - p_bj
        return (1 - p_bj) * Fraction(-1, 2) + p_bj * Fraction(-1), 1 - p_bj
    if first == "hit" and (is_natural or not _can_hit(hand, rules)):
        raise ValueError("hit not available")
    if first == "double" and (is_natural or not _double_allowed(hand, rules)):
        raise ValueError("double not available")
    if first == "hit" and play is None:
        raise ValueError("a first hit needs a play")

    def settle(cards, rest, hole, bet, kind):
        if _is_blackjack(up, hole):
            return _settle_against_blackjack(kind, bet, up, rules)
        if kind != "normal":
            return _settle(kind, 0, bet, None, up, rules)
        total, _ = hand_total(cards)
        dist = _dealer_distribution([up, hole], rest, rules)
        return sum((p * _settle(kind, total, bet, o, up, rules) for o, p in dist.items()), Fraction(0))

    def draws(rest):
        m = sum(rest)
        if m == 0:
            raise ShoeExhausted("the player must draw from an empty shoe")
        for card in RANKS:
            if rest[card]:
                rest2 = list(rest)
                rest2[card] -= 1
                yield card, Fraction(rest[card], m), rest2

    def follow(cards, rest, hole):
        kind = _finished_kind(cards, rules)
        if kind is not None:
            return settle(cards, rest, hole, 1, kind)
        if _can_hit(cards, rules):
            action = play(cards)
            if action not in ("stand", "hit"):
                raise ValueError(f"play({cards!r}) gave {action!r}")
            if action == "hit":
                return sum((p * follow(cards + (c,), r2, hole) for c, p, r2 in draws(rest)), Fraction(0))
        return settle(cards, rest, hole, 1, "normal")

    def given_hole(hole, rest):
        if first == "stand":
            return settle(hand, rest, hole, 1, "natural" if is_natural else _finished_kind(hand, rules) or "normal")
        if first == "double":
            return sum((p * settle(hand + (c,), r2, hole, 2, _finished_kind(hand + (c,), rules) or "normal")
                        for c, p, r2 in draws(rest)), Fraction(0))
        return sum((p * follow(hand + (c,), r2, hole) for c, p, r2 in draws(rest)), Fraction(0))

    holes = [h for h in RANKS if counts[h] and not (peek_ace_ten and _is_blackjack(up, h))]
    allowed = sum(counts[h] for h in holes)
    if allowed == 0:
        if peek_ace_ten and early and p_bj == 1:
            return (Fraction(0) if is_natural else Fraction(-1)), Fraction(0)
        if peek_ace_ten and not early:
            return None, Fraction(0)
        raise ShoeExhausted("no possible hole card")
    value = Fraction(0)
    for h in holes:
        rest = list(counts)
        rest[h] -= 1
        value += Fraction(counts[h], allowed) * given_hole(h, rest)
    if peek_ace_ten and early:
        lose = Fraction(0) if is_natural else Fraction(-1)
        value = p_bj * lose + (1 - p_bj) * value
    return value, 1 - p_bj


def count_hand_fixed(shoe, tags, seen, discard_count, up, hand, rules, first,
                     play: Callable[[tuple[int, ...]], str] | None = None, *, natural=True) -> Fraction:
    """The EV of one fixed play: ``first`` in ``FIRST_ACTIONS`` on ``hand``, then (after 'hit')
    ``play(cards) -> 'stand' | 'hit'`` at every later decision (see ``composition_fixed``).

    Computed as the average over the discard sets of the composition EV of that play,
    weighted by ``P(S | up and hand dealt first)``; in the conditioned frame (peek, A or T up,
    surrender not early: the frame of ``count_hand``) by ``P(S | up and hand dealt first, no
    dealer blackjack)``, i.e. ``P(S | up, hand) P(no blackjack | S) / P(no blackjack)``.
    """
    _check_rules(rules)
    hand = tuple(hand)
    _, peek_ace_ten, early = _frame(up, hand, rules, natural)
    conditioned = peek_ace_ten and not early
    num, den = Fraction(0), Fraction(0)
    for left, q in _posterior(shoe, tags, seen, discard_count, (up,) + hand):
        value, p_no_bj = composition_fixed(left, up, hand, rules, first, play, natural=natural)
        weight = q * p_no_bj if conditioned else q
        if weight:
            num += weight * value
            den += weight
    if den == 0:
        raise ShoeExhausted("no possible hole card")
    return num / den
