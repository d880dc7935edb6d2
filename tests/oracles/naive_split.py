"""Naive reference for splitting and for the whole round (docs/model.md, "Splitting" and
"The round"): a test oracle.

Deliberately slow and simple. Every card sequence of the split play is enumerated (by rank,
with the counts as weights) and the dealer is played out from the cards left at the end of
every sequence. Only the post-split *strategy decisions* are cached (they depend on nothing
but the cards of the split hand, the up card and the shoe before the deal); no value of the
split play is cached or shared between sequences. Written from docs/model.md alone; it shares
no code with the engine in ``bjcalc/``. It reuses the unsplit oracle ``naive_reference``.

Conventions are those of ``naive_reference``: shoes are ten counts ``(A, 2, ..., 9, T)`` before
the deal, ranks are ints ``1..10``, every value is a ``fractions.Fraction`` in units of the
original bet.

Frames (conditioning)
---------------------
``naive_split`` returns its EV in the frame ``naive_hand`` uses for the same hand:

* peeking dealer, A or T up, surrender not early: conditioned on no dealer blackjack. The hole
  card is dealt first, literally, among the cards that do not make a blackjack (weights
  ``count / sum of those counts``); the player's cards and the dealer's draws then come from
  the shoe without it.
* peeking dealer, A or T up, early surrender: unconditional, ``p_bj * (-1) + (1 - p_bj) * (the
  conditioned EV)`` (a peeking dealer's blackjack takes only the original bet).
* otherwise (2-9 up, or no hole card): unconditional; the hole card is dealt first among all
  cards (the player never sees it and the post-split strategy never looks at it, so dealing it
  first or after the player is the same). In the no-hole-card game a hole card making a
  blackjack settles every bet by the ``nhc_*_loss`` policies.

Post-split strategy (CDZ-)
--------------------------
A split hand holding cards ``C`` (two or more) takes the best *available* action ranked by
``naive_hand(shoe, up, C, rules)`` (the unsplit EVs of exactly the cards ``C``, from the shoe
before the deal with only ``C`` and the up card removed, in naive_hand's own frame). Available:
stand; hit (when the hand may draw: not bust, no Charlie, under the card limit); double (only on
the first two cards of the split hand, when ``double_after_split`` and the doubling rules allow
that two-card hand). Never surrender. Ties go to stand, then hit, then double.

An ace and a ten-valued card in a split hand is 21, not a blackjack; its decision, by the same
rule, comes from ``naive_hand(shoe, up, (A, T), rules)``, which treats those cards as an unsplit
natural (only "stand" is defined): such a split hand always stands.
"""

from fractions import Fraction

from .naive_reference import (
    ACE,
    RANKS,
    TEN,
    ShoeExhausted,
    _can_hit,
    _check_rules,
    _dealer_outcome,
    _double_allowed,
    _finished_kind,
    _is_blackjack,
    _remove,
    _to_counts,
    hand_total,
    naive_hand,
)

__all__ = ["naive_split", "naive_round", "cdz_decision", "SPLIT_RULE_KEYS"]

SPLIT_RULE_KEYS = ("split_hands", "resplit_aces", "hit_split_aces", "double_after_split")


def _check_split_rules(rules):
    _check_rules(rules)
    for key in SPLIT_RULE_KEYS:
        if key not in rules:
            raise KeyError(f"rules lack {key!r}")
    hands = rules["split_hands"]
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
        raise ValueError(f"split_hands must be an int >= 1, not {hands!r}")
    for key in ("resplit_aces", "hit_split_aces", "double_after_split"):
        if not isinstance(rules[key], bool):
            raise ValueError(f"{key} must be a bool, not {rules[key]!r}")
    for up in (ACE, TEN):
        if rules["nhc_split_loss"][up] not in ("all", "original"):
            raise ValueError(f"bad nhc_split_loss {rules['nhc_split_loss']!r}")


# --------------------------------------------------------------------------------------------
# CDZ- decisions (the only thing cached)
# --------------------------------------------------------------------------------------------

_DECISIONS = {}


def _rules_key(rules):
    return tuple(sorted((k, repr(v)) for k, v in rules.items()))


def _decision_table(shoe, up, rules):
    """The cache of CDZ- decisions for one (shoe before the deal, up card, rules)."""
    return _DECISIONS.setdefault((tuple(shoe), up, _rules_key(rules)), {})


def cdz_decision(shoe, up, cards, rules, *, may_double, table=None):
    """The CDZ- action ('stand' | 'hit' | 'double') of a split hand holding ``cards``.

    ``may_double``: whether doubling is available to this split hand (first two cards, DAS,
    the doubling rules). Ranking by ``naive_hand(shoe, up, cards, rules)``; ties prefer stand,
    then hit, then double. ``table``: the decision cache for (shoe, up, rules), if at hand.
    """
    cards = tuple(sorted(cards))
    if table is None:
        table = _decision_table(shoe, up, rules)
    key = (cards, may_double)
    if key in table:
        return table[key]
    evs = naive_hand(shoe, up, cards, rules)
    candidates = [("stand", evs["stand"])]
    if _can_hit(cards, rules) and evs["hit"] is not None:
        candidates.append(("hit", evs["hit"]))
    if may_double and evs["double"] is not None:
        candidates.append(("double", evs["double"]))
    best_action, best_value = candidates[0]
    for action, value in candidates[1:]:
        if value > best_value:  # strictly better: ties keep the earlier (stand, hit, double)
            best_action, best_value = action, value
    table[key] = best_action
    return best_action


# --------------------------------------------------------------------------------------------
# The split play, for one fixed hole card
# --------------------------------------------------------------------------------------------
#
# Exact integer bookkeeping: a sequence of j cards drawn (player's and dealer's together,
# after the hole card) with counts c1, c2, ..., cj at the moments they were drawn has
# probability (c1 c2 ... cj) / falling(n0, j), n0 = the cards left after the hole card. For
# every complete sequence, (product of counts) * (result of the round, an integer) is added
# to acc[j]; the value is sum_j acc[j] / falling(n0, j). This is plain enumeration of every
# sequence, only without rational arithmetic at each step.


class _SplitCtx:
    def __init__(self, shoe, up, pair, hole, rules, exhausted):
        self.exhausted = exhausted
        self.shoe = tuple(shoe)
        self.up = up
        self.pair = pair
        self.hole = hole
        self.rules = rules
        self.dealer_blackjack = _is_blackjack(up, hole)
        self.decisions = _decision_table(shoe, up, rules)
        self.acc = {}  # depth -> sum of (product of counts) * result


def _dealer_walk(ctx, cards, counts, n, weight, depth, results):
    """Every draw sequence of the dealer holding ``cards``; ``results(outcome)`` is the
    round's integer result against that final dealer outcome."""
    rules = ctx.rules
    outcome = _dealer_outcome(sum(cards), ACE in cards, len(cards), rules)
    if outcome is None and n == 0:
        if ctx.exhausted == "raise":
            raise ShoeExhausted("the dealer must draw from an empty shoe")
        outcome = hand_total(cards)[0]  # "dealer_stands": stands with the total held
    if outcome is not None:
        ctx.acc[depth] = ctx.acc.get(depth, 0) + weight * results(outcome)
        return
    for rank in RANKS:
        c = counts[rank]
        if not c:
            continue
        counts[rank] -= 1
        _dealer_walk(ctx, cards + [rank], counts, n - 1, weight * c, depth + 1, results)
        counts[rank] += 1


def _leaf(ctx, finished, counts, n, weight, depth):
    """All split hands are finished: the dealer plays from ``counts`` (hole card already out)."""
    rules, up = ctx.rules, ctx.up
    if ctx.dealer_blackjack:
        # No-hole-card game: original bet lost; each further split bet and each double bet by
        # its policy for this up card; busted and Charlie hands included.
        result = -1
        if rules["nhc_split_loss"][up] == "all":
            result -= len(finished) - 1
        if rules["nhc_double_loss"][up] == "all":
            result -= sum(1 for _, _, bet in finished if bet == 2)
        ctx.acc[depth] = ctx.acc.get(depth, 0) + weight * result
        return
    # A split hand is never a natural: bust loses its bet, Charlie wins it (no dealer
    # blackjack here), a standing total is compared with the dealer's outcome.
    fixed = 0
    live = []
    for kind, total, bet in finished:
        if kind == "bust":
            fixed -= bet
        elif kind == "charlie":
            fixed += bet
        else:
            live.append((total, bet))
    if not live:
        # The dealer's draws do not matter (and there is no dealer blackjack here).
        ctx.acc[depth] = ctx.acc.get(depth, 0) + weight * fixed
        return

    def results(outcome):
        result = fixed
        for total, bet in live:
            if outcome == "bust" or total > outcome:
                result += bet
            elif total < outcome:
                result -= bet
        return result

    _dealer_walk(ctx, [up, ctx.hole], counts, n, weight, depth, results)


def _draws(counts, n):
    if n == 0:
        raise ShoeExhausted("the player must draw from an empty shoe")
    for rank in RANKS:
        if counts[rank]:
            yield rank, counts[rank]


def _next_hand(ctx, finished, pending, n_hands, counts, n, weight, depth):
    """Start the next pending split hand (one card of the pair), or settle when none is left."""
    if pending == 0:
        _leaf(ctx, finished, counts, n, weight, depth)
        return
    _second_card(ctx, finished, pending - 1, n_hands, counts, n, weight, depth)


def _second_card(ctx, finished, pending, n_hands, counts, n, weight, depth):
    """The current split hand (the pair card alone) receives its second card."""
    pair, rules = ctx.pair, ctx.rules
    may_resplit = n_hands < rules["split_hands"] and (pair != ACE or rules["resplit_aces"])
    for rank, c in _draws(counts, n):
        counts[rank] -= 1
        if rank == pair and may_resplit:
            # Resplit: the card starts a new hand at the end of the queue; this hand gets
            # another second card.
            _second_card(ctx, finished, pending + 1, n_hands + 1, counts, n - 1, weight * c,
                         depth + 1)
        else:
            hand = (pair, rank)
            if pair == ACE and not rules["hit_split_aces"]:
                # Split aces: one card and stand.
                kind = _finished_kind(hand, rules) or "normal"
                _finish(ctx, finished, (kind, hand_total(hand)[0], 1), pending, n_hands,
                        counts, n - 1, weight * c, depth + 1)
            else:
                _play(ctx, finished, hand, pending, n_hands, counts, n - 1, weight * c,
                      depth + 1)
        counts[rank] += 1


def _finish(ctx, finished, result, pending, n_hands, counts, n, weight, depth):
    _next_hand(ctx, finished + (result,), pending, n_hands, counts, n, weight, depth)


def _play(ctx, finished, hand, pending, n_hands, counts, n, weight, depth):
    """A split hand of two or more cards, played by CDZ-."""
    rules = ctx.rules
    kind = _finished_kind(hand, rules)  # bust / Charlie
    if kind is not None:
        _finish(ctx, finished, (kind, hand_total(hand)[0], 1), pending, n_hands, counts, n,
                weight, depth)
        return
    if not _can_hit(hand, rules):  # card limit reached: stands
        _finish(ctx, finished, ("normal", hand_total(hand)[0], 1), pending, n_hands, counts, n,
                weight, depth)
        return
    may_double = len(hand) == 2 and rules["double_after_split"] and _double_allowed(hand, rules)
    action = cdz_decision(ctx.shoe, ctx.up, hand, rules, may_double=may_double,
                          table=ctx.decisions)
    if action == "stand":
        _finish(ctx, finished, ("normal", hand_total(hand)[0], 1), pending, n_hands, counts, n,
                weight, depth)
    elif action == "hit":
        for rank, c in _draws(counts, n):
            counts[rank] -= 1
            _play(ctx, finished, hand + (rank,), pending, n_hands, counts, n - 1, weight * c,
                  depth + 1)
            counts[rank] += 1
    else:  # double: bet 2, exactly one card, stand
        for rank, c in _draws(counts, n):
            counts[rank] -= 1
            new_hand = hand + (rank,)
            kind = _finished_kind(new_hand, rules) or "normal"
            _finish(ctx, finished, (kind, hand_total(new_hand)[0], 2), pending, n_hands,
                    counts, n - 1, weight * c, depth + 1)
            counts[rank] += 1


def _split_given_hole(shoe, up, pair, hole, counts, rules, exhausted):
    """E[split result | hole card], ``counts`` = shoe without up, both pair cards and hole."""
    ctx = _SplitCtx(shoe, up, pair, hole, rules, exhausted)
    n0 = sum(counts[1:])
    # Two hands of one pair card each; the first (left) one is played now, one is pending.
    _second_card(ctx, (), 1, 2, counts, n0, 1, 0)
    value = Fraction(0)
    for depth, total in ctx.acc.items():
        falling = 1
        for i in range(depth):
            falling *= n0 - i
        value += Fraction(total, falling)
    return value


# --------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------


def naive_split(shoe, up, pair, rules, *, exhausted="raise"):
    """EV of splitting ``pair, pair`` against ``up`` (sum over all hands, original-bet units),
    in naive_hand's frame for that hand (see the module docstring).

    ``exhausted``: what happens when a card must be dealt from an empty shoe. ``"raise"``
    (default, the model: such shoes are refused) raises ShoeExhausted. ``"dealer_stands"``
    (opt-in, for published figures on tiny shoes): a *dealer* who must draw from an empty
    shoe stands with the total held (e.g. 10 v a player's 19: the player wins); the player
    drawing from an empty shoe still raises.

    >>> from oracles.naive_reference import rules_with
    >>> r = rules_with(split_hands=2)
    >>> naive_split((0, 0, 0, 0, 0, 0, 0, 2, 0, 5), 10, 8, r)  # 8+T = 18 twice v T+T = 20
    Fraction(-2, 1)
    """
    _check_split_rules(rules)
    if exhausted not in ("raise", "dealer_stands"):
        raise ValueError(f"bad exhausted convention {exhausted!r}")
    if rules["split_hands"] < 2:
        raise ValueError("splitting is not allowed (split_hands < 2)")
    if pair not in RANKS or up not in RANKS:
        raise ValueError(f"bad rank {pair!r} / {up!r}")
    counts = _to_counts(shoe)
    _remove(counts, (pair, pair, up))
    n = sum(counts[1:])

    peek_ace_ten = rules["hole_card"] == "peek" and up in (ACE, TEN)
    if peek_ace_ten:
        holes = [h for h in RANKS if counts[h] and not _is_blackjack(up, h)]
    else:
        holes = [h for h in RANKS if counts[h]]
    total_holes = sum(counts[h] for h in holes)
    if total_holes == 0:
        raise ShoeExhausted("no possible hole card")

    value = Fraction(0)
    for h in holes:
        w = Fraction(counts[h], total_holes)
        counts[h] -= 1
        value += w * _split_given_hole(shoe, up, pair, h, counts, rules, exhausted)
        counts[h] += 1

    if peek_ace_ten and rules["surrender"] == "early":
        # naive_hand's frame with early surrender is unconditional: a peeking dealer's
        # blackjack takes the original bet only.
        bj_card = TEN if up == ACE else ACE
        p_bj = Fraction(counts[bj_card], n)
        value = p_bj * (-1) + (1 - p_bj) * value
    return value


def _first_decision(shoe, up, hand, rules, exhausted):
    """Best first-decision EV of a two-card hand, in naive_hand's frame, and its frame."""
    evs = naive_hand(shoe, up, hand, rules)
    values = [v for k, v in evs.items() if k != "conditioned" and v is not None]
    if hand[0] == hand[1] and rules["split_hands"] >= 2 and not _is_blackjack(*hand):
        values.append(naive_split(shoe, up, hand[0], rules, exhausted=exhausted))
    return max(values), evs["conditioned"]


def naive_round(shoe, rules, *, exhausted="raise"):
    """Unconditional EV of a whole round (insurance never taken), original-bet units.

    Sum over the up card and the player's two cards (dealt from the full shoe) of their
    probability times the EV of the best first decision (stand, hit, double, surrender, split),
    converted from naive_hand's frame to unconditional: with a peeking dealer and an A or T up
    the dealer's blackjack (probability p_bj given the up card and the player's cards) takes the
    original bet, a player blackjack pushes. ``exhausted`` is passed to naive_split.
    """
    _check_split_rules(rules)
    counts = _to_counts(shoe)
    n = sum(counts[1:])
    # P(up, unordered two-card hand), from ordered draws.
    probs = {}
    for up in RANKS:
        if not counts[up]:
            continue
        p_up = Fraction(counts[up], n)
        counts[up] -= 1
        for c1 in RANKS:
            if not counts[c1]:
                continue
            p1 = Fraction(counts[c1], n - 1)
            counts[c1] -= 1
            for c2 in RANKS:
                if not counts[c2]:
                    continue
                p2 = Fraction(counts[c2], n - 2)
                key = (up, tuple(sorted((c1, c2))))
                probs[key] = probs.get(key, 0) + p_up * p1 * p2
            counts[c1] += 1
        counts[up] += 1

    total = Fraction(0)
    for (up, hand), p in probs.items():
        natural = _is_blackjack(*hand)
        rest = list(counts)
        _remove(rest, hand + (up,))
        left = sum(rest[1:])
        peek_ace_ten = rules["hole_card"] == "peek" and up in (ACE, TEN)
        if peek_ace_ten:
            bj_card = TEN if up == ACE else ACE
            p_bj = Fraction(rest[bj_card], left)
            if p_bj == 1:
                # Every possible hole card makes a blackjack: nothing is conditioned.
                if natural:
                    value = Fraction(0)
                elif rules["surrender"] == "early":
                    value = Fraction(-1, 2)
                else:
                    value = Fraction(-1)
                total += p * value
                continue
        best, conditioned = _first_decision(shoe, up, hand, rules, exhausted)
        if conditioned:
            best = p_bj * (0 if natural else -1) + (1 - p_bj) * best
        total += p * best
    return total
