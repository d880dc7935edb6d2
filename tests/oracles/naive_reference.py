"""Naive reference implementation of the bjcalc rule model (docs/model.md): a test oracle.

Deliberately slow and simple. Every card sequence is enumerated; nothing is memoised or shared
between states. It shares no code with the engine in ``bjcalc/`` and is written from the model
alone, so that the two can be compared.

Conventions
-----------
* A shoe is a tuple of ten counts ``(A, 2, ..., 9, T)`` *before the deal*: the player's cards and
  the dealer's up card are still in it, and the functions below take them out.
* Ranks are ints ``1..10`` (1 = ace, 10 = any ten-valued card).
* Every probability and EV is a ``fractions.Fraction``; EVs are in units of the initial bet.

How the hole card is handled (the "literal" model)
--------------------------------------------------
The dealer's hole card is dealt *before* the player acts, face down. The player never sees it,
so a player decision may depend only on the player's own cards. The expectimax therefore carries
a weight per possible hole card ``h``: ``w[h] = P(hole = h and the player's cards so far)``.

* Peeking dealer with an A or T up (conditioned EVs): the hole card is drawn only among the
  cards that do not make a dealer blackjack, with weights ``count / (sum of those counts)``.
* Otherwise (peek with 2-9 up, or no hole card) every card may be the hole card, with weights
  ``count / n``. For the no-hole-card game this is the same as dealing the dealer's second card
  after the player: the player does not see it either way.

When the player draws card ``c`` with hole card ``h`` out, it comes from the shoe minus ``h``:
``P(c | h) = (count[c] - [c == h]) / (n - 1)``. The value of a decision node is
``sum_h w[h] * E[payoff | h, player's cards]`` and the player takes the max over actions; since
all actions at a node share the same total weight, this is the exact expectimax for a player
who does not see the hole card.
"""

from fractions import Fraction

__all__ = [
    "DEFAULT_RULES",
    "naive_dealer",
    "naive_hand",
    "naive_insurance",
    "naive_even_money",
    "rules_with",
    "decks",
    "hand_total",
    "ShoeExhausted",
]

ACE = 1
TEN = 10
RANKS = range(1, 11)

RULE_KEYS = (
    "hit_soft_17",
    "blackjack_pays",
    "double",
    "double_soft",
    "surrender",
    "insurance",
    "hole_card",
    "nhc_double_loss",
    "nhc_split_loss",
    "charlie",
    "player_max_cards",
    "dealer_max_cards",
)

DEFAULT_RULES = {
    "hit_soft_17": False,
    "blackjack_pays": Fraction(3, 2),
    "double": "any",
    "double_soft": True,
    "surrender": "none",
    "insurance": True,
    "hole_card": "peek",
    "nhc_double_loss": {1: "all", 10: "all"},
    "nhc_split_loss": {1: "all", 10: "all"},
    "charlie": None,
    "player_max_cards": None,
    "dealer_max_cards": None,
    # Splitting (used by tests/oracles/naive_split.py; naive_hand ignores them). Not in RULE_KEYS, so
    # rules dicts written without them still pass naive_hand's checks.
    "split_hands": 4,
    "resplit_aces": False,
    "hit_split_aces": False,
    "double_after_split": True,
}


class ShoeExhausted(RuntimeError):
    """A card had to be dealt from an empty shoe."""


def decks(d):
    """The shoe of ``d`` full decks: ``(4d, ..., 4d, 16d)``."""
    return (4 * d,) * 9 + (16 * d,)


def rules_with(**changes):
    """A copy of DEFAULT_RULES with some keys changed (unknown keys are an error)."""
    for key in changes:
        if key not in DEFAULT_RULES:
            raise KeyError(f"unknown rule {key!r}")
    rules = dict(DEFAULT_RULES)
    rules.update(changes)
    return rules


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def _check_rules(rules):
    for key in RULE_KEYS:
        if key not in rules:
            raise KeyError(f"rules lack {key!r}")
    if rules["double"] not in ("any", "9-11", "10-11", "none"):
        raise ValueError(f"bad double rule {rules['double']!r}")
    if rules["surrender"] not in ("none", "late", "early"):
        raise ValueError(f"bad surrender rule {rules['surrender']!r}")
    if rules["hole_card"] not in ("peek", "none"):
        raise ValueError(f"bad hole_card rule {rules['hole_card']!r}")
    for up in (ACE, TEN):
        if rules["nhc_double_loss"][up] not in ("all", "original"):
            raise ValueError(f"bad nhc_double_loss {rules['nhc_double_loss']!r}")
    if rules["charlie"] is not None and rules["charlie"] < 3:
        raise ValueError(f"charlie must be >= 3, not {rules['charlie']!r}")
    if rules["player_max_cards"] is not None and rules["player_max_cards"] < 2:
        raise ValueError(f"player_max_cards must be >= 2, not {rules['player_max_cards']!r}")
    if rules["dealer_max_cards"] is not None and rules["dealer_max_cards"] < 2:
        raise ValueError(f"dealer_max_cards must be >= 2, not {rules['dealer_max_cards']!r}")


def _to_counts(shoe):
    """Shoe tuple (A..T) -> list indexed by rank 1..10 (index 0 unused)."""
    if len(shoe) != 10 or any(c < 0 for c in shoe):
        raise ValueError(f"bad shoe {shoe!r}")
    return [0] + list(shoe)


def _remove(counts, cards):
    for card in cards:
        if card not in RANKS:
            raise ValueError(f"bad rank {card!r}")
        if counts[card] == 0:
            raise ValueError(f"card {card!r} not in shoe")
        counts[card] -= 1


def hand_total(cards):
    """(total, soft) of a list of ranks; soft when an ace can count 11 without busting."""
    hard = sum(cards)
    if ACE in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _is_blackjack(first, second):
    return {first, second} == {ACE, TEN}


def _falling(n, k):
    """n (n-1) ... (n-k+1): the number of ordered ways to deal k cards from n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


# --------------------------------------------------------------------------------------------
# The dealer
# --------------------------------------------------------------------------------------------


def _dealer_outcome(hard, has_ace, n_cards, rules):
    """None if the dealer must draw; else the outcome ('bust', 'blackjack' or the total).

    The dealer's hand is described by its hard total (aces as 1), whether it holds an ace and
    its number of cards (up card and hole card included).
    """
    if n_cards < 2:
        return None  # the hole card always comes
    soft = has_ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if n_cards == 2 and has_ace and hard == 11:
        return "blackjack"  # two cards, one an ace, hard 11: ace + ten-valued card
    if total > 21:
        return "bust"
    if rules["dealer_max_cards"] is not None and n_cards >= rules["dealer_max_cards"]:
        return total
    if total < 17:
        return None
    if total == 17 and soft and rules["hit_soft_17"]:
        return None
    return total


def _dealer_walk(hard, has_ace, n_cards, counts, n, weight, depth, acc, rules):
    """Enumerate every draw sequence of a dealer who must draw now.

    ``weight`` is the product of the counts of the cards drawn so far (an integer); the
    probability of a sequence of ``depth`` cards is ``weight / falling(n0, depth)``. Integers
    are summed per (outcome, depth) in ``acc`` so that the rational arithmetic happens once
    at the end.
    """
    if n == 0:
        raise ShoeExhausted("the dealer must draw from an empty shoe")
    for rank in RANKS:
        c = counts[rank]
        if c == 0:
            continue
        new_hard, new_ace, new_n_cards = hard + rank, has_ace or rank == ACE, n_cards + 1
        outcome = _dealer_outcome(new_hard, new_ace, new_n_cards, rules)
        if outcome is None:
            counts[rank] -= 1
            _dealer_walk(new_hard, new_ace, new_n_cards, counts, n - 1, weight * c, depth + 1,
                         acc, rules)
            counts[rank] += 1
        else:
            key = (outcome, depth + 1)
            acc[key] = acc.get(key, 0) + weight * c


def _dealer_distribution(cards, counts, rules):
    """Final-outcome probabilities of a dealer holding ``cards``, drawing from ``counts``."""
    n0 = sum(counts)
    hard, has_ace = sum(cards), ACE in cards
    outcome = _dealer_outcome(hard, has_ace, len(cards), rules)
    if outcome is not None:
        return {outcome: Fraction(1)}
    acc = {}
    _dealer_walk(hard, has_ace, len(cards), counts, n0, 1, 0, acc, rules)
    dist = {}
    for (outcome, depth), weight in acc.items():
        dist[outcome] = dist.get(outcome, 0) + Fraction(weight, _falling(n0, depth))
    return dist


def naive_dealer(shoe, up, rules, removed=()):
    """Dealer final-outcome probabilities before any peek (unconditional).

    ``shoe`` is the shoe before the deal; ``up`` and the cards in ``removed`` (e.g. the player's
    cards) are taken out, then the hole card and the dealer's draws come from what is left.

    Returns ``{17, 18, 19, 20, 21, 'bust', 'blackjack'}`` -> Fraction, plus an int key t < 17
    for each total the dealer can stand on below 17 (only with a dealer card limit).

    >>> d = naive_dealer(decks(1), 6, DEFAULT_RULES)
    >>> sum(d.values())
    Fraction(1, 1)
    """
    _check_rules(rules)
    counts = _to_counts(shoe)
    _remove(counts, (up,))
    _remove(counts, removed)
    dist = _dealer_distribution([up], counts, rules)
    out = {t: Fraction(0) for t in (17, 18, 19, 20, 21)}
    out["bust"] = Fraction(0)
    out["blackjack"] = Fraction(0)
    for outcome, p in dist.items():
        out[outcome] = out.get(outcome, Fraction(0)) + p
    return out


# --------------------------------------------------------------------------------------------
# Settlement of one finished player hand
# --------------------------------------------------------------------------------------------


def _settle_against_blackjack(kind, bet, up, rules):
    """Result of a finished hand against a dealer blackjack (no-hole-card game)."""
    if kind == "natural":
        return Fraction(0)
    loss = 1  # the original bet
    if bet == 2 and rules["nhc_double_loss"][up] == "all":
        loss += 1
    return Fraction(-loss)


def _settle(kind, total, bet, dealer_outcome, up, rules):
    """Result of a finished hand. kind: 'natural' | 'bust' | 'charlie' | 'normal'."""
    if dealer_outcome == "blackjack":
        return _settle_against_blackjack(kind, bet, up, rules)
    if kind == "natural":
        return Fraction(rules["blackjack_pays"])
    if kind == "bust":
        return Fraction(-bet)
    if kind == "charlie":
        return Fraction(bet)
    if dealer_outcome == "bust" or total > dealer_outcome:
        return Fraction(bet)
    if total == dealer_outcome:
        return Fraction(0)
    return Fraction(-bet)


# --------------------------------------------------------------------------------------------
# The player: expectimax with a weight per possible hole card
# --------------------------------------------------------------------------------------------


class _Ctx:
    def __init__(self, up, rules):
        self.up = up
        self.rules = rules


def _final_value(ctx, hand, counts, n, w, bet, kind):
    """sum_h w[h] * E[result | hole h] for a finished hand.

    ``counts``/``n`` still contain the hole card (it is one of them, unknown to the player).
    """
    up, rules = ctx.up, ctx.rules
    total, _ = hand_total(hand)
    value = Fraction(0)
    for h, wh in w.items():
        if wh == 0:
            continue
        if _is_blackjack(up, h):
            value += wh * _settle_against_blackjack(kind, bet, up, rules)
            continue
        if kind != "normal":
            # bust, charlie, natural: the dealer's draws do not matter
            value += wh * _settle(kind, total, bet, None, up, rules)
            continue
        counts[h] -= 1
        dist = _dealer_distribution([up, h], counts, rules)
        counts[h] += 1
        ev = Fraction(0)
        for outcome, p in dist.items():
            ev += p * _settle(kind, total, bet, outcome, up, rules)
        value += wh * ev
    return value


def _finished_kind(hand, rules):
    """'bust' / 'charlie' if the hand is over by itself, else None."""
    total, _ = hand_total(hand)
    if total > 21:
        return "bust"
    if rules["charlie"] is not None and len(hand) >= rules["charlie"]:
        return "charlie"
    return None


def _can_hit(hand, rules):
    total, _ = hand_total(hand)
    if total > 21:
        return False
    if rules["charlie"] is not None and len(hand) >= rules["charlie"]:
        return False
    if rules["player_max_cards"] is not None and len(hand) >= rules["player_max_cards"]:
        return False
    return True


def _draw_weights(w, counts, n, card):
    """Weights after the player draws ``card`` (the hole card h is not available to draw)."""
    if n - 1 <= 0:
        raise ShoeExhausted("the player must draw from an empty shoe")
    return {h: wh * Fraction(counts[card] - (1 if card == h else 0), n - 1) for h, wh in w.items()}


def _best_value(ctx, hand, counts, n, w):
    """Value (weighted) of an undoubled hand, played optimally (hit or stand) from here."""
    kind = _finished_kind(hand, ctx.rules)
    if kind is not None:
        return _final_value(ctx, hand, counts, n, w, 1, kind)
    stand = _final_value(ctx, hand, counts, n, w, 1, "normal")
    if not _can_hit(hand, ctx.rules):
        return stand
    hit = _hit_value(ctx, hand, counts, n, w)
    return max(stand, hit)


def _hit_value(ctx, hand, counts, n, w):
    """Value (weighted) of taking one card, then playing optimally."""
    value = Fraction(0)
    for card in RANKS:
        if counts[card] == 0:
            continue
        w2 = _draw_weights(w, counts, n, card)
        if not any(w2.values()):
            continue
        counts[card] -= 1
        value += _best_value(ctx, hand + (card,), counts, n - 1, w2)
        counts[card] += 1
    return value


def _double_value(ctx, hand, counts, n, w):
    """Value (weighted) of doubling: bet 2, exactly one card, then stand."""
    value = Fraction(0)
    for card in RANKS:
        if counts[card] == 0:
            continue
        w2 = _draw_weights(w, counts, n, card)
        if not any(w2.values()):
            continue
        counts[card] -= 1
        new_hand = hand + (card,)
        kind = _finished_kind(new_hand, ctx.rules) or "normal"
        value += _final_value(ctx, new_hand, counts, n - 1, w2, 2, kind)
        counts[card] += 1
    return value


def _double_allowed(hand, rules):
    if len(hand) != 2:
        return False
    if rules["player_max_cards"] is not None and rules["player_max_cards"] <= 2:
        return False  # the double card would exceed the card limit
    total, soft = hand_total(hand)
    if soft and not rules["double_soft"]:
        return False
    if rules["double"] == "any":
        return True
    if rules["double"] == "9-11":
        return 9 <= total <= 11
    if rules["double"] == "10-11":
        return 10 <= total <= 11
    return False


def naive_hand(shoe, up, hand, rules, *, natural=True):
    """EVs of the actions on an unsplit hand, by brute-force expectimax.

    Returns ``{'stand', 'hit', 'double', 'surrender'}`` -> Fraction or None (action not
    available), and ``'conditioned'`` -> True when the EVs are conditioned on no dealer
    blackjack (peeking dealer, A or T up, surrender not early).

    ``natural=False`` (for tests against calculators that let a two-card 21 be hit) treats
    an A,T hand as an ordinary soft 21; the model itself always uses ``natural=True``.

    >>> r = naive_hand(decks(1), 10, (10, 10), DEFAULT_RULES)
    >>> r['conditioned'], r['surrender']
    (True, None)
    """
    _check_rules(rules)
    hand = tuple(hand)
    if len(hand) < 2:
        raise ValueError(f"a hand needs two cards or more, not {hand!r}")
    counts = _to_counts(shoe)
    _remove(counts, hand)
    _remove(counts, (up,))
    n = sum(counts)
    ctx = _Ctx(up, rules)

    is_natural = natural and len(hand) == 2 and _is_blackjack(hand[0], hand[1])
    peek_ace_ten = rules["hole_card"] == "peek" and up in (ACE, TEN)
    early = rules["surrender"] == "early"

    # Weights over the hole card.
    if peek_ace_ten:
        allowed = [h for h in RANKS if counts[h] > 0 and not _is_blackjack(up, h)]
    else:
        allowed = [h for h in RANKS if counts[h] > 0]
    total_allowed = sum(counts[h] for h in allowed)
    if total_allowed == 0:
        raise ShoeExhausted("no possible hole card")
    w = {h: Fraction(counts[h], total_allowed) for h in allowed}

    result = {"stand": None, "hit": None, "double": None, "surrender": None}
    if is_natural:
        result["stand"] = _final_value(ctx, hand, counts, n, w, 1, "natural")
    else:
        kind = _finished_kind(hand, rules) or "normal"
        result["stand"] = _final_value(ctx, hand, counts, n, w, 1, kind)
        if _can_hit(hand, rules):
            result["hit"] = _hit_value(ctx, hand, counts, n, w)
        if _double_allowed(hand, rules):
            result["double"] = _double_value(ctx, hand, counts, n, w)

    # P(dealer blackjack) given the player's cards and the up card, before any peek.
    if up == ACE:
        p_bj = Fraction(counts[TEN], n)
    elif up == TEN:
        p_bj = Fraction(counts[ACE], n)
    else:
        p_bj = Fraction(0)

    if peek_ace_ten and early:
        # Decisions other than surrender are made after the peek; make them unconditional.
        lose = Fraction(0) if is_natural else Fraction(-1)
        for action in ("stand", "hit", "double"):
            if result[action] is not None:
                result[action] = p_bj * lose + (1 - p_bj) * result[action]

    can_surrender = rules["surrender"] != "none" and len(hand) == 2 and not is_natural
    if can_surrender:
        if early or rules["hole_card"] == "peek":
            # early: -1/2 whatever the dealer holds; late + peek: only reached without a
            # dealer blackjack (conditioned when A/T up).
            result["surrender"] = Fraction(-1, 2)
        else:
            # late surrender, no hole card: a dealer blackjack takes the whole bet.
            result["surrender"] = (1 - p_bj) * Fraction(-1, 2) + p_bj * Fraction(-1)

    result["conditioned"] = peek_ace_ten and not early
    return result


# --------------------------------------------------------------------------------------------
# Insurance
# --------------------------------------------------------------------------------------------


def naive_insurance(shoe, up, hand):
    """Insurance EV per unit of insurance bet: (2 t - o) / n, or None unless an ace is up.

    ``hand`` may be empty (insurance "off the top").

    >>> naive_insurance(decks(1), 1, ())
    Fraction(-1, 17)
    """
    if up != ACE:
        return None
    counts = _to_counts(shoe)
    _remove(counts, tuple(hand))
    _remove(counts, (up,))
    n = sum(counts)
    tens = counts[TEN]
    others = n - tens
    return Fraction(2 * tens - others, n)


def naive_even_money(shoe, up, hand):
    """Even money on a player blackjack against an ace: exactly +1; None when not offered."""
    hand = tuple(hand)
    if up != ACE or len(hand) != 2 or not _is_blackjack(hand[0], hand[1]):
        return None
    return Fraction(1)
