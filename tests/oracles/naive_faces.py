"""Naive reference for splitting a pair of ten-valued cards of one face when unlike tens may not
be split (so only that face resplits): a test oracle, written from the rule alone.

Every card is dealt by *kind*: 2..9 and the four ten-valued faces 10, J, Q, K (no aces, so no
blackjack and nothing to condition on), with the counts as weights. The shoe's ten-valued
cards are split evenly over the faces. The up card, when it is ten-valued, is dealt a face the
same way. Split hands are played in order; a hand whose second card is of the pair's face is
resplit while fewer than ``max_hands`` hands exist (the new hand is played last); the post-split
play is CDZ- from ``naive_split.cdz_decision`` (by rank: faces change no hand's value). Then the
dealer draws from the cards left (``naive_reference``'s dealer, by rank).
"""

from fractions import Fraction

from . import naive_split
from .naive_reference import TEN, ShoeExhausted, _dealer_distribution, hand_total

FACES = ("10", "J", "Q", "K")


def _rank(kind):
    return TEN if kind in FACES else kind


def _kinds(shoe):
    """Shoe (A..T counts, no aces) -> {kind: count}."""
    if shoe[0]:
        raise ValueError("the face oracle takes shoes without aces")
    if shoe[9] % 4:
        raise ValueError("ten-valued cards must split evenly over four faces")
    kinds = {r + 1: shoe[r] for r in range(1, 9) if shoe[r]}
    kinds.update({face: shoe[9] // 4 for face in FACES if shoe[9]})
    return kinds


def _draws(counts):
    n = sum(counts.values())
    if n == 0:
        raise ShoeExhausted("a card had to be dealt from an empty shoe")
    for kind, c in list(counts.items()):
        if c:
            yield kind, Fraction(c, n)


def _take(counts, kind):
    out = dict(counts)
    out[kind] -= 1
    return out


def naive_face_split(shoe, up, face, rules, max_hands):
    """EV (Fraction, per original bet) of splitting two cards of ten-valued ``face`` against an
    up card of rank ``up`` (2..10; a 10 up is dealt a face), resplitting only ``face``."""
    counts = _kinds(shoe)
    counts[face] -= 2
    rank_rules = dict(rules)
    if up != TEN:
        return _split(shoe, up, face, _take(counts, up), rank_rules, max_hands)
    total = Fraction(0)
    for up_face, p in _draws({f: counts[f] for f in FACES}):
        total += p * _split(shoe, up, face, _take(counts, up_face), rank_rules, max_hands)
    return total


def _split(shoe, up, face, counts, rules, max_hands):
    def settle(hands, counts):
        live = [(cards, bet) for cards, bet in hands if hand_total([_rank(c) for c in cards])[0] <= 21]
        busted = sum(bet for cards, bet in hands) - sum(bet for _, bet in live)
        if not live:
            return Fraction(-busted)
        rank_counts = [0] * 11
        for kind, c in counts.items():
            rank_counts[_rank(kind)] += c
        dealer = _dealer_distribution([up], rank_counts, rules)
        value = Fraction(-busted)
        for outcome, p in dealer.items():
            for cards, bet in live:
                mine = hand_total([_rank(c) for c in cards])[0]
                if outcome == "bust" or mine > outcome:
                    value += p * bet
                elif mine < outcome:
                    value -= p * bet
        return value

    def decide(cards, may_double):
        return naive_split.cdz_decision(shoe, up, tuple(_rank(c) for c in cards), rules, may_double=may_double)

    def play(done, current, waiting, counts, n_hands):
        """``done``: finished (cards, bet); ``current``: the cards of the hand in play (one
        card: it gets its second); ``waiting``: hands of one pair card not yet dealt to."""
        if current is None:
            if waiting:
                return play(done, [face], waiting - 1, counts, n_hands)
            return settle(done, counts)
        value = Fraction(0)
        for kind, p in _draws(counts):
            rest = _take(counts, kind)
            if len(current) == 1:
                if kind == face and n_hands < max_hands:
                    value += p * play(done, current, waiting + 1, rest, n_hands + 1)
                    continue
                cards = current + [kind]
                may_double = rules["double_after_split"]
                value += p * act(done, cards, decide(cards, may_double), waiting, rest, n_hands)
            else:
                value += p * act(done, current + [kind], None, waiting, rest, n_hands)
        return value

    def act(done, cards, action, waiting, counts, n_hands):
        """The hand ``cards`` has just received a card; ``action``: its decision (None: decide
        now, after a hit)."""
        if hand_total([_rank(c) for c in cards])[0] > 21:
            return play(done + [(cards, 1)], None, waiting, counts, n_hands)
        if action is None:
            action = decide(cards, False)
        if action == "stand":
            return play(done + [(cards, 1)], None, waiting, counts, n_hands)
        if action == "double":
            value = Fraction(0)
            for kind, p in _draws(counts):
                value += p * play(done + [(cards + [kind], 2)], None, waiting, _take(counts, kind), n_hands)
            return value
        return play(done, cards, waiting, counts, n_hands)  # hit: draw again

    return play([], [face], 1, counts, 2)
