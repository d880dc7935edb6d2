"""The round's exact mean and variance against brute force over every ordering of tiny shoes
WITH aces: player and dealer blackjacks, a peeking dealer, a no-hole-card dealer whose
blackjack takes all or only the original bet of split and doubled hands, splits and resplits.

The oracle below is written from docs/model.md ("The dealer", "The player's hand", "Splitting",
"The round"); it takes only its *decisions* from the naive references in tests/oracles (best
first action by ``naive_hand`` / ``naive_split``, CDZ- play of split hands by
``cdz_decision``) and plays and settles every ordering itself.
"""

from collections import Counter
from fractions import Fraction

import pytest
from oracles import naive_reference as naive
from oracles import naive_split

from bjcalc import Action, Analysis, Rules
from bjcalc.numbers import to_fraction

ACE, TEN = 1, 10


def total(cards):
    hard = sum(cards)
    return hard + 10 if ACE in cards and hard + 10 <= 21 else hard


def is_blackjack(cards):
    return len(cards) == 2 and sorted(cards) == [ACE, TEN]


def orderings(shoe):
    """Every distinct ordering of the shoe's cards (ranks 1..10), each once."""
    counts = [0] + list(shoe)
    n = sum(shoe)
    order = []

    def walk():
        if len(order) == n:
            yield tuple(order)
            return
        for rank in range(1, 11):
            if counts[rank]:
                counts[rank] -= 1
                order.append(rank)
                yield from walk()
                order.pop()
                counts[rank] += 1

    return walk()


class ShoeTooSmall(RuntimeError):
    """An ordering needed a card that the shoe does not have (pick a bigger shoe)."""


class Round:
    """Plays one round per ordering of ``shoe`` under the naive rules dict ``rules``, and
    counts (in ``seen``) the situations the orderings went through.

    Deal: player card, up card, player card, then (peeking dealer) the hole card, then the
    draws. A peeking dealer with blackjack ends the round at once: -1, a player natural
    pushes. Otherwise a natural stands and is paid ``blackjack_pays`` unless the dealer has one
    too (push); other hands are played: the first decision is the best of stand, hit, double,
    split by the naive EVs (ties keep the earlier), later decisions of an unsplit hand and
    every split hand's by CDZ- (``cdz_decision``). With no hole card the dealer's second card
    comes after the player has finished; a dealer blackjack then takes the original bet, and
    each further split bet and each double bet by its policy for that up card ("all": lost,
    "original": returned), busted hands included. Otherwise, if a hand is still standing, the
    dealer draws to 17 (S17 / H17) and each hand is settled against the dealer's total."""

    def __init__(self, shoe, rules):
        self.shoe = shoe
        self.rules = rules
        self.peek = rules["hole_card"] == "peek"
        self.max_hands = rules["split_hands"]
        self.first_choices = {}
        self.seen = Counter()

    def first_decision(self, hand, up):
        key = (tuple(sorted(hand)), up)
        if key not in self.first_choices:
            evs = naive.naive_hand(self.shoe, up, tuple(hand), self.rules)
            options = [("stand", evs["stand"]), ("hit", evs["hit"]), ("double", evs["double"])]
            if hand[0] == hand[1] and self.max_hands >= 2:
                options.append(("split", naive_split.naive_split(self.shoe, up, hand[0], self.rules)))
            choice, value = options[0]
            for option, v in options[1:]:
                if v is not None and v > value:  # ties keep the earlier
                    choice, value = option, v
            self.first_choices[key] = choice
        return self.first_choices[key]

    def decision(self, hand, up, may_double):
        return naive_split.cdz_decision(self.shoe, up, tuple(hand), self.rules, may_double=may_double)

    def play_out(self, hand, up, action, draw):
        """One hand from its first action: (final cards, bet)."""
        if action == "double":
            return hand + [draw()], 2
        while action == "hit":
            hand = hand + [draw()]
            if total(hand) > 21:
                break
            action = self.decision(hand, up, may_double=False)
        return hand, 1

    def split(self, pair, up, draw):
        """The split hands, left to right, each played out before the next gets its second
        card; a second card of the pair's rank starts a new hand at the end of the queue while
        fewer than ``split_hands`` hands exist (aces only with ``resplit_aces``)."""
        resplit = pair != ACE or self.rules["resplit_aces"]
        hands, waiting = [], 2
        while waiting:
            waiting -= 1
            second = draw()
            while resplit and second == pair and len(hands) + waiting + 1 < self.max_hands:
                waiting += 1
                second = draw()
            hand = [pair, second]
            if pair == ACE and not self.rules["hit_split_aces"]:
                hands.append((hand, 1))  # split aces: one card each, and stand
                continue
            may_double = self.rules["double_after_split"]  # the tests double on any two cards
            hands.append(self.play_out(hand, up, self.decision(hand, up, may_double), draw))
        return hands

    def dealer_total(self, dealer, draw):
        """The dealer's final total, drawing to 17 (and on soft 17 under H17)."""
        while total(dealer) < 17 or (total(dealer) == 17 and ACE in dealer and sum(dealer) + 10 == 17):
            if total(dealer) == 17:
                self.seen["dealer soft 17"] += 1
                if not self.rules["hit_soft_17"]:
                    break
            dealer.append(draw())
        return total(dealer)

    def play(self, order):
        """The round's result for one ordering of the shoe's cards."""
        seen = self.seen
        seen["orderings"] += 1
        hand, up = [order[0], order[2]], order[1]
        deck = iter(order[3:])

        def draw():
            card = next(deck, None)
            if card is None:
                raise ShoeTooSmall(order)
            return card

        natural = is_blackjack(hand)
        if self.peek:
            dealer = [up, draw()]  # the hole card
            if is_blackjack(dealer):
                seen["dealer blackjack"] += 1
                seen["both blackjacks"] += natural
                return 0 if natural else -1
        if natural:
            hands = [(hand, 1)]
        else:
            action = self.first_decision(hand, up)
            hands = self.split(hand[0], up, draw) if action == "split" else [self.play_out(hand, up, action, draw)]
        self.note(hand, hands)
        doubles = sum(1 for _, bet in hands if bet == 2)
        if not self.peek:
            dealer = [up, draw()]  # the dealer's second card, after the player
            if is_blackjack(dealer):
                seen["dealer blackjack"] += 1
                if natural:
                    seen["both blackjacks"] += 1
                    return 0
                self.note_dealer_blackjack(hand, hands)
                result = -1  # the original bet
                if self.rules["nhc_split_loss"][up] == "all":
                    result -= len(hands) - 1
                if self.rules["nhc_double_loss"][up] == "all":
                    result -= doubles
                return result
        if natural:
            seen["natural paid"] += 1
            return self.rules["blackjack_pays"]
        result = -sum(bet for h, bet in hands if total(h) > 21)  # busted hands lose, whatever the dealer does
        standing = [(total(h), bet) for h, bet in hands if total(h) <= 21]
        if standing:
            theirs = self.dealer_total(dealer, draw)
            for mine, bet in standing:  # a split A+T is 21, not a blackjack
                if theirs > 21 or mine > theirs:
                    result += bet
                elif mine < theirs:
                    result -= bet
        return result

    def note(self, hand, hands):
        seen = self.seen
        if len(hands) < 2:
            return
        seen["split"] += 1
        seen[f"split to {len(hands)} hands"] += 1
        seen["double after split"] += any(bet == 2 for _, bet in hands)
        seen["split hand of 21 in two cards"] += any(len(h) == 2 and total(h) == 21 for h, _ in hands)
        if hand[0] == ACE:
            seen["split aces"] += 1
            seen["resplit aces"] += len(hands) > 2
            seen["split ace drew an ace"] += any(h == [ACE, ACE] for h, _ in hands)

    def note_dealer_blackjack(self, hand, hands):
        """No hole card: what the dealer's blackjack met."""
        seen = self.seen
        doubled = any(bet == 2 for _, bet in hands)
        busted = any(total(h) > 21 for h, _ in hands)
        seen["dealer blackjack v double"] += doubled and len(hands) == 1
        if len(hands) > 1:
            seen[f"dealer blackjack v {len(hands)} split hands"] += 1
            seen["dealer blackjack v split with a double"] += doubled
            seen["dealer blackjack v split with a bust"] += busted
            seen["dealer blackjack v split aces"] += hand[0] == ACE


def brute_force(shoe, rules):
    """E[X], E[X^2] over every distinct ordering (all equally likely), and what was seen."""
    rounds = Round(shoe, rules)
    first_moment = second_moment = Fraction(0)
    for order in orderings(shoe):
        result = rounds.play(order)
        first_moment += result
        second_moment += result * result
    n = rounds.seen["orderings"]
    return first_moment / n, second_moment / n, rounds.seen


ORIGINAL = {ACE: "original", TEN: "original"}


def game(hole_card="peek", blackjack_takes="all", **options):
    """The same game for bjcalc (Rules keywords) and for the oracle (a naive rules dict)."""
    engine = dict(options, hole_card=hole_card, surrender="none", double="any")
    oracle = dict(options, hole_card=hole_card)
    if hole_card == "none":
        engine["blackjack_takes"] = blackjack_takes
        if blackjack_takes == "original":
            oracle.update(nhc_double_loss=ORIGINAL, nhc_split_loss=ORIGINAL)
    return engine, naive.rules_with(**oracle)


# (shoe, game, what some ordering must go through: keys of Round.seen; a key marked "no ..."
# must never happen)
CASES = {
    "peek, 2 hands: A A 8 8 8 + 5 tens": (
        (2, 0, 0, 0, 0, 0, 0, 3, 0, 5), game(split_hands=2),
        ["split to 2 hands", "split aces", "split hand of 21 in two cards", "double after split",
         "dealer blackjack", "both blackjacks", "natural paid"]),
    "peek, resplit to 3: A 8 8 8 8 9 + 5 tens": (
        (1, 0, 0, 0, 0, 0, 0, 4, 1, 5), game(split_hands=3),
        ["split to 3 hands", "split hand of 21 in two cards", "double after split", "dealer blackjack"]),
    "peek, resplit to 4: A 8 8 8 8 9 + 5 tens": (
        (1, 0, 0, 0, 0, 0, 0, 4, 1, 5), game(split_hands=4),
        ["split to 4 hands", "split to 3 hands", "split hand of 21 in two cards", "double after split"]),
    "peek, resplit to 3, no double after split: A 8 8 8 8 9 + 5 tens": (
        (1, 0, 0, 0, 0, 0, 0, 4, 1, 5), game(split_hands=3, double_after_split=False),
        ["split to 3 hands", "no double after split"]),
    "peek, H17, resplit to 3: A 6 9 9 9 + 6 tens": (
        (1, 0, 0, 0, 0, 1, 0, 0, 3, 6), game(split_hands=3, hit_soft_17=True),
        ["split to 3 hands", "dealer soft 17", "double after split"]),
    "peek, aces resplit to 3: A A A 9 + 9 tens": (
        (3, 0, 0, 0, 0, 0, 0, 0, 1, 9), game(split_hands=3, resplit_aces=True),
        ["resplit aces", "no split ace drew an ace", "both blackjacks", "split hand of 21 in two cards"]),
    "peek, aces not resplit: A A A 9 + 9 tens": (
        (3, 0, 0, 0, 0, 0, 0, 0, 1, 9), game(split_hands=3),
        ["split ace drew an ace", "no resplit aces", "split to 3 hands", "both blackjacks"]),
    "no hole card, takes all, 2 hands: A 3 3 8 8 + 6 tens": (
        (1, 0, 2, 0, 0, 0, 0, 2, 0, 6), game("none", "all", split_hands=2),
        ["dealer blackjack v 2 split hands", "dealer blackjack v split with a double",
         "dealer blackjack v split with a bust", "dealer blackjack v double"]),
    "no hole card, takes all, resplit to 3: A 2 9 9 9 + 6 tens": (
        (1, 1, 0, 0, 0, 0, 0, 0, 3, 6), game("none", "all", split_hands=3),
        ["dealer blackjack v 3 split hands", "dealer blackjack v split with a double", "dealer blackjack v double"]),
    "no hole card, takes all, H17, resplit to 3: A 6 9 9 9 + 6 tens": (
        (1, 0, 0, 0, 0, 1, 0, 0, 3, 6), game("none", "all", split_hands=3, hit_soft_17=True),
        ["split to 3 hands", "dealer soft 17", "dealer blackjack"]),
    "no hole card, takes all, aces resplit: A A A 9 + 9 tens": (
        (3, 0, 0, 0, 0, 0, 0, 0, 1, 9), game("none", "all", split_hands=3, resplit_aces=True),
        ["dealer blackjack v split aces", "dealer blackjack v 3 split hands", "dealer blackjack v split with a bust",
         "resplit aces", "both blackjacks"]),
    "no hole card, takes original, 2 hands: A A 5 8 8 + 6 tens": (
        (2, 0, 0, 0, 1, 0, 0, 2, 0, 6), game("none", "original", split_hands=2),
        ["dealer blackjack v 2 split hands", "dealer blackjack v split with a double", "dealer blackjack v double",
         "split aces", "both blackjacks"]),
    "no hole card, takes original, resplit to 3: A 4 6 6 6 + 7 tens": (
        (1, 0, 0, 1, 0, 3, 0, 0, 0, 7), game("none", "original", split_hands=3),
        ["dealer blackjack v 3 split hands", "dealer blackjack v split with a double", "dealer blackjack v double"]),
    "no hole card, takes original, resplit to 4: A 7 9 9 9 9 + 5 tens": (
        (1, 0, 0, 0, 0, 0, 1, 0, 4, 5), game("none", "original", split_hands=4),
        ["dealer blackjack v 4 split hands", "dealer blackjack v 3 split hands", "double after split"]),
    "no hole card, takes original, H17, resplit to 3: A 6 9 9 9 + 6 tens": (
        (1, 0, 0, 0, 0, 1, 0, 0, 3, 6), game("none", "original", split_hands=3, hit_soft_17=True),
        ["dealer blackjack v 3 split hands", "dealer soft 17"]),
    "no hole card, takes original, aces resplit: A A A 9 + 9 tens": (
        (3, 0, 0, 0, 0, 0, 0, 0, 1, 9), game("none", "original", split_hands=3, resplit_aces=True),
        ["dealer blackjack v split aces", "dealer blackjack v 3 split hands", "dealer blackjack v split with a bust",
         "resplit aces"]),
}


@pytest.mark.parametrize(("shoe", "rules", "seen"), list(CASES.values()), ids=list(CASES))
def test_exact_variance_with_blackjacks_matches_brute_force(shoe, rules, seen):
    engine_rules, oracle_rules = rules
    mean, square, counts = brute_force(shoe, oracle_rules)
    for what in seen:  # the shoe exercises what the case claims (and no more where it says "no")
        if what.startswith("no "):
            assert counts[what[3:]] == 0, what
        else:
            assert counts[what] > 0, what
    assert mean == naive_split.naive_round(shoe, oracle_rules)  # the oracle's own round EV, another way
    analysis = Analysis(Rules(shoe=shoe, **engine_rules), exact=True)
    assert to_fraction(analysis.round().ev) == mean
    assert to_fraction(analysis.variance().variance) == square - mean * mean


def test_the_dealer_blackjack_policy_changes_the_variance():
    """The same shoe under "all" and "original" gives two different variances, each equal to
    the brute force's: the split and double bets' blackjack settlement reaches the second moment."""
    shoe = (1, 0, 0, 1, 0, 3, 0, 0, 0, 7)
    variances = set()
    for takes in ("all", "original"):
        engine_rules, oracle_rules = game("none", takes, split_hands=3)
        mean, square, _ = brute_force(shoe, oracle_rules)
        variance = to_fraction(Analysis(Rules(shoe=shoe, **engine_rules), exact=True).variance().variance)
        assert variance == square - mean * mean
        variances.add(variance)
    assert len(variances) == 2


def test_a_shoe_that_a_split_can_exhaust_reports_the_run_out():
    """Issue 42: splitting T,T v 8 and resplitting to four hands can empty the shoe before the
    dealer finishes (the oracle plays such an ordering); bjcalc deals the shoe to its last card
    and says how likely the split's deal is to run out (docs/model.md)."""
    shoe = (1, 0, 0, 0, 0, 0, 0, 4, 1, 4)  # A, four 8s, 9, four tens
    engine_rules, oracle_rules = game("none", "all", split_hands=4)
    # T,T v 8, resplit to four hands (T,A  T,8  T,9  T,8), the dealer's second card an 8: 16, to draw
    # from an empty shoe
    play = Round(shoe, oracle_rules)
    play.first_choices[((10, 10), 8)] = "split"
    with pytest.raises(ShoeTooSmall):
        play.play((10, 8, 10, 10, 10, 1, 8, 9, 8, 8))
    with pytest.raises(naive.ShoeExhausted):
        naive_split.naive_split(shoe, 8, 10, oracle_rules)
    result = Analysis(Rules(shoe=shoe, **engine_rules), exact=True).hand("T,T", "8")
    assert result.run_out is not None and result.run_out[Action.SPLIT].probability > 0
    assert Analysis(Rules(shoe=shoe, **engine_rules), exact=True).round().run_out is not None


def test_whenever_a_split_can_run_out_bjcalc_says_so():
    """Random shoes of 8 to 11 cards with a pair to split: wherever the naive split oracle finds
    an ordering that empties the shoe, bjcalc reports a chance that the split runs out, at
    least with the plays likeliest to run out (issue 42)."""
    import random

    rng = random.Random(5)
    exhausted = 0
    for _ in range(40):
        shoe = [0] * 10
        for _ in range(rng.randint(8, 11)):
            shoe[rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9])] += 1
        pair, up, hands = rng.randrange(10), rng.randrange(10), rng.choice([2, 3, 4])
        shoe[pair] = max(shoe[pair], 2 + rng.randint(0, 2))
        shoe[up] += shoe[up] < 1 + 2 * (up == pair)
        try:
            naive_split.naive_split(tuple(shoe), up + 1, pair + 1,
                                    naive.rules_with(split_hands=hands, double_after_split=True))
        except naive.ShoeExhausted:
            exhausted += 1
            rules = Rules(shoe=tuple(shoe), split_hands=hands, surrender="none", double_after_split=True)
            result = Analysis(rules, exact=True).hand(["A23456789T"[pair]] * 2, "A23456789T"[up])
            assert result.run_out is not None and result.run_out[Action.SPLIT].most > 0
    assert exhausted >= 5
