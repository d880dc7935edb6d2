"""Infinite-deck blackjack by brute-force expectimax: a test oracle.

Every card is dealt *with replacement*: ranks ``A, 2, ..., 9`` each come with probability 1/13,
a ten-valued card with 4/13, whatever has been dealt before. It shares no code with the engine in
``bjcalc/`` nor with the other oracles; it is written from the rules of the game (docs/model.md
for the conventions the project settles: which EVs are conditioned, how a no-hole-card dealer's
blackjack settles doubles and splits, always resplitting).

Why this is simple
------------------
With replacement, nothing dealt changes the odds of the next card, so

* the dealer's final outcome depends only on the up card (and, for a peeking dealer with an A or
  T up, on the knowledge that the hole card is not the blackjack card);
* the dealer's outcome is independent of every card the player draws, so the value of a finished
  player hand is ``sum over dealer outcomes o of P(o) * result(hand, o)``;
* the value of a player hand played on optimally depends only on its hard total and whether it
  holds an ace (which fixes its soft total), so those are the memo keys;
* split hands are independent of each other, so a split's EV is the expected sum of its hands'
  EVs, and only the number of hands made and waiting matters.

Conventions (as ``naive_reference``)
-----------------------------------
* Ranks are ints ``1..10`` (1 = ace, 10 = any ten-valued card).
* Every probability and EV is a :class:`fractions.Fraction`, in units of the initial bet.
* Rules are a plain dict; :data:`DEFAULT_RULES` and :func:`rules_with` build one.

Frames
------
* Peeking dealer, A or T up: EVs are conditioned on the dealer not having blackjack (the hole card
  is not the blackjack card; the player's own draws are unaffected, being with replacement).
  With early surrender they are unconditional instead (the decision comes before the peek).
* Otherwise unconditional. A no-hole-card dealer's blackjack takes the original bet and, with
  ``blackjack_takes == "all"``, every double and split bet too (busted hands included); with
  ``"original"`` only the original bet. A player blackjack pushes against it.

>>> sum(dealer_distribution(6).values())
Fraction(1, 1)
>>> round(float(round_ev(DEFAULT_RULES)) * 100, 6)
-0.511734
"""

import math
from fractions import Fraction
from functools import cache

__all__ = [
    "DEFAULT_RULES",
    "P_CARD",
    "dealer_distribution",
    "hand_evs",
    "split_ev",
    "round_ev",
    "rules_with",
]

ACE = 1
TEN = 10
RANKS = range(1, 11)

#: The probability of each rank on every draw.
P_CARD = {rank: Fraction(4 if rank == TEN else 1, 13) for rank in RANKS}

DEFAULT_RULES = {
    "hit_soft_17": False,
    "blackjack_pays": Fraction(3, 2),
    "double": "any",
    "double_after_split": True,
    "split_hands": 4,
    "resplit_aces": False,
    "hit_split_aces": False,
    "surrender": "none",
    "hole_card": "peek",
    "blackjack_takes": "all",
    "dealer_max_cards": None,
}

_CHOICES = {
    "double": ("any", "9-11", "10-11", "none"),
    "surrender": ("none", "late", "early"),
    "hole_card": ("peek", "none"),
    "blackjack_takes": ("all", "original"),
}


def rules_with(**changes):
    """A copy of :data:`DEFAULT_RULES` with some keys changed (unknown keys are an error).

    >>> rules_with(hit_soft_17=True)["hit_soft_17"]
    True
    """
    rules = dict(DEFAULT_RULES)
    rules.update(changes)
    return _checked(rules)


def _checked(rules):
    unknown = set(rules) - set(DEFAULT_RULES)
    if unknown:
        raise KeyError(f"unknown rules {sorted(unknown)!r}")
    rules = {**DEFAULT_RULES, **rules}
    for key, allowed in _CHOICES.items():
        if rules[key] not in allowed:
            raise ValueError(f"bad {key} {rules[key]!r}")
    if rules["split_hands"] is not None and not (isinstance(rules["split_hands"], int) and rules["split_hands"] >= 1):
        raise ValueError(f"bad split_hands {rules['split_hands']!r}")
    if rules["dealer_max_cards"] is not None and rules["dealer_max_cards"] < 2:
        raise ValueError(f"bad dealer_max_cards {rules['dealer_max_cards']!r}")
    return rules


def _check_up(up):
    if up not in RANKS:
        raise ValueError(f"bad up card {up!r}")


def _is_blackjack(a, b):
    return {a, b} == {ACE, TEN}


def _total(hard, has_ace):
    """The hand's total: hard total, plus 10 when an ace can count 11 without busting."""
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


def _is_soft(hard, has_ace):
    return has_ace and hard + 10 <= 21


# ----------------------------------------------------------------------------------------------
# The dealer
# ----------------------------------------------------------------------------------------------


@cache
def _dealer_from(hard, has_ace, n_cards, hit_soft_17, max_cards):
    """Final outcomes of a dealer holding ``n_cards`` cards (no blackjack), as a tuple of
    ``(outcome, probability)``."""
    if hard > 21:
        return (("bust", Fraction(1)),)
    total = _total(hard, has_ace)
    stands = total > 17 or (total == 17 and not (hit_soft_17 and _is_soft(hard, has_ace)))
    if stands or (max_cards is not None and n_cards >= max_cards):
        return ((total, Fraction(1)),)
    acc = {}
    for card, p in P_CARD.items():
        for outcome, q in _dealer_from(hard + card, has_ace or card == ACE, n_cards + 1, hit_soft_17, max_cards):
            acc[outcome] = acc.get(outcome, 0) + p * q
    return tuple(acc.items())


@cache
def _dealer(up, hit_soft_17, peek, max_cards):
    """``dealer_distribution`` as a hashable tuple of ``(outcome, probability)``."""
    acc = {total: Fraction(0) for total in range(17, 22)}
    acc["bust"] = Fraction(0)
    acc["blackjack"] = Fraction(0)
    holes = dict(P_CARD)
    if peek:
        holes = {hole: p for hole, p in holes.items() if not _is_blackjack(up, hole)}
        norm = sum(holes.values())
        holes = {hole: p / norm for hole, p in holes.items()}
    for hole, p in holes.items():
        if _is_blackjack(up, hole):
            acc["blackjack"] += p
            continue
        for outcome, q in _dealer_from(up + hole, ACE in (up, hole), 2, hit_soft_17, max_cards):
            acc[outcome] = acc.get(outcome, 0) + p * q
    return tuple(acc.items())


def dealer_distribution(up, hit_soft_17=False, peek=False, *, dealer_max_cards=None):
    """The dealer's final-outcome probabilities with up card ``up`` (1..10).

    Keys ``17..21``, ``"bust"`` and ``"blackjack"`` (up card and hole card A+T), always present;
    with ``dealer_max_cards`` also any total below 17 the dealer can stop on. ``peek=True``
    conditions on no dealer blackjack (it changes nothing with 2..9 up).

    >>> d = dealer_distribution(1, peek=True)
    >>> d["blackjack"], sum(d.values())
    (Fraction(0, 1), Fraction(1, 1))
    """
    _check_up(up)
    if dealer_max_cards is not None and dealer_max_cards < 2:
        raise ValueError(f"bad dealer_max_cards {dealer_max_cards!r}")
    return dict(_dealer(up, bool(hit_soft_17), bool(peek), dealer_max_cards))


def _p_dealer_blackjack(up):
    """P(dealer blackjack | up card), before any peek."""
    return {ACE: P_CARD[TEN], TEN: P_CARD[ACE]}.get(up, Fraction(0))


# ----------------------------------------------------------------------------------------------
# The player: one hand against a fixed dealer distribution
# ----------------------------------------------------------------------------------------------
#
# A "table" is the hashable key of everything a finished hand's value depends on besides the hand:
# ``(dealer outcomes, loss1, loss2)`` where ``loss<b>`` is what a hand carrying ``b`` bets
# returns when the dealer has blackjack (only reachable in the no-hole-card game).


def _result(total, bet, outcome, bj_loss):
    """Result of a finished hand (``total`` None = bust) against one dealer outcome."""
    if outcome == "blackjack":
        return bj_loss
    if total is None:
        return -bet
    if outcome == "bust" or total > outcome:
        return bet
    if total < outcome:
        return -bet
    return 0


@cache
def _finished(total, bet, table):
    """Value of a finished hand of ``total`` (None = bust) carrying ``bet``."""
    outcomes, loss1, loss2 = table
    bj_loss = loss1 if bet == 1 else loss2
    return sum(p * _result(total, bet, outcome, bj_loss) for outcome, p in outcomes)


def _after(hard, has_ace, card):
    """(hard, has_ace) after drawing ``card``."""
    return hard + card, has_ace or card == ACE


def _stand(hard, has_ace, table):
    return _finished(_total(hard, has_ace), 1, table)


@cache
def _best(hard, has_ace, table):
    """Value of an undoubled hand played on optimally (hit or stand) from here."""
    if hard > 21:
        return _finished(None, 1, table)
    return max(_stand(hard, has_ace, table), _hit(hard, has_ace, table))


@cache
def _hit(hard, has_ace, table):
    """Value of taking one card, then playing optimally."""
    return sum(p * _best(*_after(hard, has_ace, card), table) for card, p in P_CARD.items())


@cache
def _double(hard, has_ace, table):
    """Value of doubling: two bets, exactly one more card, then stand."""
    value = Fraction(0)
    for card, p in P_CARD.items():
        new_hard, new_ace = _after(hard, has_ace, card)
        value += p * _finished(None if new_hard > 21 else _total(new_hard, new_ace), 2, table)
    return value


def _may_double(hard, has_ace, rules):
    total = _total(hard, has_ace)
    return {
        "any": True,
        "9-11": 9 <= total <= 11,
        "10-11": 10 <= total <= 11,
        "none": False,
    }[rules["double"]]


def _frame(up, rules):
    """(dealer outcomes for settling, conditioned?) for this up card and these rules."""
    peek = rules["hole_card"] == "peek"
    conditioned = peek and up in (ACE, TEN)
    return _dealer(up, rules["hit_soft_17"], conditioned, rules["dealer_max_cards"]), conditioned


def _unconditional(value, natural, up):
    """A value conditioned on no dealer blackjack, made unconditional for a peeking dealer: a
    dealer blackjack takes the original bet, and pushes a player blackjack."""
    p = _p_dealer_blackjack(up)
    return p * (0 if natural else -1) + (1 - p) * value


def hand_evs(cards, up, rules=None):
    """EVs of stand, hit, double and surrender for the player hand ``cards`` against ``up``.

    Returns a dict ``{'stand', 'hit', 'double', 'surrender'}`` -> Fraction, or None when the
    action is not available (a blackjack only stands; double and surrender only on two cards),
    and ``'conditioned'`` -> whether the EVs are conditioned on no dealer blackjack (see the
    module's *Frames*). After the first decision the player hits or stands optimally.

    >>> evs = hand_evs([10, 6], 10)
    >>> evs["conditioned"], round(float(evs["stand"]), 6), round(float(evs["hit"]), 4)
    (True, -0.54043, -0.5398)
    """
    rules = _checked(rules or {})
    _check_up(up)
    cards = list(cards)
    if len(cards) < 2 or any(card not in RANKS for card in cards):
        raise ValueError(f"bad hand {cards!r}")
    outcomes, conditioned = _frame(up, rules)
    table = (outcomes, Fraction(-1), Fraction(-2 if rules["blackjack_takes"] == "all" else -1))
    hard, has_ace = sum(cards), ACE in cards
    natural = len(cards) == 2 and _is_blackjack(*cards)
    early = rules["surrender"] == "early"

    evs = {"stand": None, "hit": None, "double": None, "surrender": None}
    if natural:
        evs["stand"] = sum(p * (0 if outcome == "blackjack" else rules["blackjack_pays"]) for outcome, p in outcomes)
    elif hard > 21:
        raise ValueError(f"bust hand {cards!r}")
    else:
        evs["stand"] = _stand(hard, has_ace, table)
        evs["hit"] = _hit(hard, has_ace, table)
        if len(cards) == 2 and _may_double(hard, has_ace, rules):
            evs["double"] = _double(hard, has_ace, table)

    if conditioned and early:
        evs = {action: None if ev is None else _unconditional(ev, natural, up) for action, ev in evs.items()}
        conditioned = False

    if len(cards) == 2 and not natural and rules["surrender"] != "none":
        if early or rules["hole_card"] == "peek":
            evs["surrender"] = Fraction(-1, 2)
        else:
            p = _p_dealer_blackjack(up)
            evs["surrender"] = p * -1 + (1 - p) * Fraction(-1, 2)
    evs["conditioned"] = conditioned
    return evs


# ----------------------------------------------------------------------------------------------
# Splitting
# ----------------------------------------------------------------------------------------------


def split_ev(pair, up, rules=None):
    """EV of splitting a pair of ``pair`` (1..10) against ``up``, in units of the original bet.

    Hands are played one at a time; each split hand gets its second card in turn, and a card of
    the pair's rank is always resplit while fewer than ``split_hands`` hands exist (``None``: no
    limit; aces: only with ``resplit_aces``). Split aces take one card and stand unless ``hit_split_aces`` (then
    they are played like any split hand). Other split hands hit or stand optimally, and may double
    on two cards with ``double_after_split``. A+T after a split is 21, not a blackjack. The
    frame is that of :func:`hand_evs`.

    >>> round(float(split_ev(8, 10)), 4)
    -0.4807
    """
    rules = _checked(rules or {})
    _check_up(up)
    if pair not in RANKS:
        raise ValueError(f"bad pair {pair!r}")
    limit = math.inf if rules["split_hands"] is None else rules["split_hands"]
    if limit < 2:
        raise ValueError("splitting is not allowed (split_hands < 2)")
    outcomes, conditioned = _frame(up, rules)
    takes_all = rules["blackjack_takes"] == "all"
    # "original": the whole split loses just the original bet to a dealer blackjack, added once
    # below; so each hand loses nothing more to it.
    table = (outcomes, Fraction(-1 if takes_all else 0), Fraction(-2 if takes_all else 0))

    one_card_aces = pair == ACE and not rules["hit_split_aces"]
    may_resplit = pair != ACE or rules["resplit_aces"]

    def two_card_value(card):
        """EV of a split hand whose second card is ``card`` (no resplit)."""
        hard, has_ace = _after(pair, pair == ACE, card)
        if one_card_aces:
            return _stand(hard, has_ace, table)
        value = _best(hard, has_ace, table)
        if rules["double_after_split"] and _may_double(hard, has_ace, rules):
            value = max(value, _double(hard, has_ace, table))
        return value

    values = {card: two_card_value(card) for card in RANKS}
    memo = {}

    def waiting(pending, hands):
        """EV still to come from ``pending`` split hands awaiting their second card, with
        ``hands`` hands made so far."""
        if pending == 0:
            return Fraction(0)
        key = (pending, hands)
        if key not in memo:
            value = Fraction(0)
            for card, p in P_CARD.items():
                if card == pair and may_resplit and hands < limit:
                    # The card starts a new hand; the current hand is still waiting.
                    value += p * waiting(pending + 1, hands + 1)
                else:
                    value += p * (values[card] + waiting(pending - 1, hands))
            memo[key] = value
        return memo[key]

    if may_resplit and limit == math.inf:
        # Unlimited resplitting: every hand ends with a second card that is not the pair's rank,
        # and each pair card drawn first starts one more hand. A hand starts on average
        # m = p / (1 - p) new hands, so the two first hands make 2 / (1 - m) = 2 (1 - p) / (1 - 2 p)
        # hands on average, each worth E[value | not a pair card] = A / (1 - p).
        p = P_CARD[pair]
        not_pair = sum(P_CARD[card] * values[card] for card in RANKS if card != pair)
        ev = 2 * not_pair / (1 - 2 * p)
    else:
        ev = waiting(2, 2)
    if not takes_all:
        ev += dict(outcomes)["blackjack"] * -1
    if conditioned and rules["surrender"] == "early":
        ev = _unconditional(ev, False, up)
    return ev


# ----------------------------------------------------------------------------------------------
# The round
# ----------------------------------------------------------------------------------------------


def round_ev(rules=None):
    """The round's unconditional EV with the best first decision on every two-card hand.

    Insurance (and even money) is never taken.

    >>> round(float(round_ev(rules_with(split_hands=None))) * 100, 7)
    -0.5093975
    """
    rules = _checked(rules or {})
    total = Fraction(0)
    for up, p_up in P_CARD.items():
        for first, p_first in P_CARD.items():
            for second, p_second in P_CARD.items():
                evs = hand_evs([first, second], up, rules)
                options = [ev for action, ev in evs.items() if action != "conditioned" and ev is not None]
                if first == second and (rules["split_hands"] is None or rules["split_hands"] >= 2):
                    options.append(split_ev(first, up, rules))
                best = max(options)
                if evs["conditioned"]:
                    best = _unconditional(best, _is_blackjack(first, second), up)
                total += p_up * p_first * p_second * best
    return total
