"""The counter's shoe (bjcalc.counting.countshoe) against the brute-force oracle tests/oracles/naive_countshoe.py:
every subset of a tiny shoe consistent with the count, weighted uniformly. Several tag systems,
multi-level (Hi-Opt II, Omega II, Zen, Uston APC), half-integer (Wong Halves) and unbalanced (KO,
with an initial running count), and random tags."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import naive_countshoe as naive

from bjcalc.cards import Rank
from bjcalc.counting.countshoe import CountShoe, running_count_distribution, true_count_distribution
from bjcalc.counting.insurance import best_insurance_index, insurance_index, insurance_table
from bjcalc.counting.systems import SYSTEMS
from bjcalc.counting.tags import DeckEstimate, InvalidCountError, Rounding, decks_left, true_count
from bjcalc.errors import CardNotInShoeError, InvalidHandError, InvalidShoeError

HI_LO = SYSTEMS["hi-lo"]
KO = SYSTEMS["ko"]
HALVES = SYSTEMS["wong-halves"]
TAG_VALUES = [Fraction(v) for v in (-2, -1, "-1/2", 0, "1/2", 1, 2)]
TAGS = st.one_of(st.sampled_from(sorted(SYSTEMS.values())),
                 st.lists(st.sampled_from(TAG_VALUES), min_size=10, max_size=10).map(tuple))


@st.composite
def situations(draw: st.DrawFn, most: int = 11, ace_up: bool = False) -> dict:
    """A tiny shoe, tags, an initial running count, and a deal: the cards on the table and the
    discards taken from a random order of the shoe, the running count read from them."""
    shoe = [draw(st.integers(0, 2)) for _ in range(9)] + [draw(st.integers(0, 4))]
    if ace_up:
        shoe[0] = max(shoe[0], 1)
        shoe[9] = max(shoe[9], 1)
    while sum(shoe) > most:
        r = draw(st.sampled_from([i for i, n in enumerate(shoe) if n > (1 if ace_up and i in (0, 9) else 0)]))
        shoe[r] -= 1
    if sum(shoe) < 2:
        shoe[9] += 2
    tags = draw(TAGS)
    irc = draw(st.sampled_from([0, 0, -2, 1]))
    cards = [r for r, n in enumerate(shoe) for _ in range(n)]
    order = draw(st.permutations(cards))
    if ace_up:
        order.remove(0)
        table_size = draw(st.integers(0, min(2, len(order) - 1)))
        table = order[:table_size]
        up: int | None = 0
        rest = order[table_size:]
    else:
        table_size = draw(st.integers(0, min(2, len(order))))
        table = order[:table_size]
        up = None
        rest = order[table_size:]
    seen = draw(st.integers(0, len(rest) - (1 if ace_up else 0)))
    discards = rest[:seen]
    on_table = table + ([0] if up is not None else [])
    rc = irc + sum(Fraction(tags[c]) for c in discards + on_table)
    return {"shoe": tuple(shoe), "tags": tuple(tags), "irc": Fraction(irc), "hand": table, "up": up,
            "seen": seen, "rc": rc, "left": rest[seen:]}


def counter(s: dict) -> CountShoe:
    return CountShoe(shoe=s["shoe"], tags=s["tags"], running_count=s["rc"], seen=s["seen"],
                     hand=tuple(Rank.from_index(c) for c in s["hand"]),
                     up=None if s["up"] is None else Rank.from_index(s["up"]),
                     initial_running_count=s["irc"])


def table(s: dict) -> list[int]:
    return s["hand"] + ([s["up"]] if s["up"] is not None else [])


@settings(deadline=None)
@given(situations())
def test_the_posterior_is_the_brute_force_one_and_sums_to_one(s):
    posterior = counter(s).posterior()
    assert sum(posterior.values()) == 1
    expected = naive.class_posterior(s["shoe"], s["tags"], table(s), s["seen"], s["rc"], s["irc"])
    assert posterior == expected


@settings(deadline=None)
@given(situations(), st.data())
def test_draw_probabilities_are_the_brute_force_ones(s, data):
    shoe = counter(s)
    # a run of the cards actually left (positive probability), and a run of any ranks
    k = data.draw(st.integers(0, min(3, len(s["left"]))))
    runs = [data.draw(st.permutations(s["left"]))[:k],
            data.draw(st.lists(st.integers(0, 9), max_size=3))]
    for run in runs:
        ranks = [Rank.from_index(c) for c in run]
        expected = naive.draw_probability(s["shoe"], s["tags"], table(s), s["seen"], s["rc"], run, s["irc"])
        assert shoe.draw_probability(ranks) == expected, run
        assert shoe.draw_probability(list(reversed(ranks))) == expected  # only the multiset matters
    assert shoe.draw_probability([Rank.from_index(c) for c in runs[0]]) > 0


@settings(deadline=None)
@given(situations())
def test_next_card_and_cards_left_are_the_brute_force_ones(s):
    shoe = counter(s)
    expected = naive.expected_left(s["shoe"], s["tags"], table(s), s["seen"], s["rc"], s["irc"])
    assert list(shoe.expected_left()) == expected
    if shoe.cards_left:
        probabilities = shoe.rank_probabilities()
        assert sum(probabilities.values()) == 1
        for r in range(10):
            assert probabilities[Rank.from_index(r)] == naive.draw_probability(
                s["shoe"], s["tags"], table(s), s["seen"], s["rc"], [r], s["irc"])


@settings(deadline=None)
@given(situations(), st.data())
def test_after_cards_seen_face_up_the_posterior_updates(s, data):
    shoe = counter(s)
    k = data.draw(st.integers(0, min(2, len(s["left"]))))
    face_up = data.draw(st.permutations(s["left"]))[:k]
    later = data.draw(st.lists(st.integers(0, 9), max_size=2))
    after = shoe.after([Rank.from_index(c) for c in face_up])
    assert after.running_count == s["rc"] + sum(Fraction(s["tags"][c]) for c in face_up)
    # brute force: the face-up cards join the table
    expected = naive.class_posterior(s["shoe"], s["tags"], table(s) + face_up, s["seen"], after.running_count,
                                     s["irc"])
    assert after.posterior() == expected
    # Bayes: P(face up, then later) = P(face up) P(later | face up)
    both = shoe.draw_probability([Rank.from_index(c) for c in face_up + later])
    assert both == shoe.draw_probability([Rank.from_index(c) for c in face_up]) * after.draw_probability(
        [Rank.from_index(c) for c in later])


@settings(deadline=None)
@given(situations(ace_up=True))
def test_insurance_is_the_brute_force_tens_left_over_cards_left(s):
    shoe = counter(s)
    assume_hand = [Rank.from_index(c) for c in s["hand"]]
    assert shoe.up is Rank.ACE and list(shoe.hand) == assume_hand
    expected = naive.insurance_ev(s["shoe"], s["tags"], s["hand"], s["seen"], s["rc"], s["irc"])
    assert shoe.insurance_ev() == expected
    tens = naive.expected_left(s["shoe"], s["tags"], table(s), s["seen"], s["rc"], s["irc"])[9]
    assert expected == 3 * tens / shoe.cards_left - 1


@st.composite
def insurance_cases(draw: st.DrawFn) -> dict:
    shoe = [draw(st.integers(0, 2)) for _ in range(9)] + [draw(st.integers(1, 4))]
    shoe[0] = max(shoe[0], 1)
    while sum(shoe) > 12:
        shoe[draw(st.sampled_from([i for i, n in enumerate(shoe) if n > 1 or (n == 1 and i not in (0, 9))]))] -= 1
    pool = [r for r, n in enumerate(shoe) for _ in range(n - (r == 0))]
    hand = draw(st.permutations(pool))[:2]
    while len(hand) < 2:
        shoe[9] += 1
        hand.append(9)
    if sum(shoe) < 4:
        shoe[9] += 4 - sum(shoe)
    left = sum(shoe) - 3
    return {"shoe": tuple(shoe), "tags": draw(TAGS), "hand": hand, "irc": Fraction(draw(st.sampled_from([0, -1, 2]))),
            "cards_left": draw(st.integers(1, left))}


@settings(deadline=None)
@given(insurance_cases())
def test_the_insurance_index_is_the_brute_force_one(c):
    row = insurance_index(c["shoe"], c["tags"], [Rank.from_index(r) for r in c["hand"]], c["cards_left"], c["irc"])
    seen = sum(c["shoe"]) - 3 - c["cards_left"]
    counts = naive.possible_running_counts(c["shoe"], c["tags"], c["hand"], seen, c["irc"])
    evs = {rc: naive.insurance_ev(c["shoe"], c["tags"], c["hand"], seen, rc, c["irc"]) for rc in counts}
    assert row.evs == evs
    index = None  # the smallest count from which every count up is positive
    for rc in reversed(counts):
        if evs[rc] <= 0:
            break
        index = rc
    assert row.running_count == index
    if index is not None:
        assert row.true_count == index * 52 / c["cards_left"]


@settings(deadline=None)
@given(st.lists(st.integers(0, 2), min_size=10, max_size=10), TAGS, st.sampled_from([0, -3]), st.data())
def test_the_running_count_distribution_is_the_brute_force_one(shoe, tags, irc, data):
    shoe = tuple(shoe)
    if sum(shoe) == 0:
        shoe = (1,) * 10
    seen = data.draw(st.integers(0, sum(shoe)))
    distribution = running_count_distribution(shoe, tags, seen, irc)
    assert sum(distribution.values()) == 1
    assert distribution == naive.running_count_distribution(shoe, tags, seen, irc)


def test_the_true_count_distribution_groups_the_running_counts():
    shoe = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)
    rcs = naive.running_count_distribution(shoe, HI_LO, 5)
    tcs = true_count_distribution(shoe, HI_LO, 5, divisor="half-deck", rounding="floor")
    assert sum(tcs.values()) == 1
    # 8 cards left: half a deck
    expected: dict[Fraction, Fraction] = {}
    for rc, p in rcs.items():
        expected[Fraction(rc * 2 // 1)] = expected.get(Fraction(rc * 2 // 1), Fraction(0)) + p
    assert tcs == expected


def test_a_known_small_case_by_hand():
    # one A, one 5, one T; Hi-Lo; one card discarded, RC -1: the discard is the A or the T
    shoe = CountShoe(shoe=(1, 0, 0, 0, 1, 0, 0, 0, 0, 1), tags=HI_LO, seen=1, running_count=-1)
    assert shoe.posterior() == {(1, 0, 1): Fraction(1)}  # one -1 card and the 5 left
    assert shoe.rank_probabilities()[Rank.FIVE] == Fraction(1, 2)
    assert shoe.rank_probabilities()[Rank.TEN] == Fraction(1, 4)
    # the T is the card left with chance 1/2; then the 5 comes first with chance 1/2, the T next
    assert shoe.draw_probability("5,T") == Fraction(1, 2) * Fraction(1, 2) * 1


def test_a_full_deck_hi_lo_case_has_exact_weights():
    shoe = CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, seen=10, running_count=4)
    posterior = shoe.posterior()
    assert sum(posterior.values()) == 1
    # 10 discards summing to +4: (lows, highs) = (7, 3), (6, 2), (5, 1), (4, 0), the rest neutral
    weights = {(20 - h, 12 - (10 - lo - h), 20 - lo): None for lo, h in ((7, 3), (6, 2), (5, 1), (4, 0))}
    assert set(posterior) == set(weights)
    from math import comb
    raw = {(20 - h, 12 - (10 - lo - h), 20 - lo): comb(20, h) * comb(12, 10 - lo - h) * comb(20, lo)
           for lo, h in ((7, 3), (6, 2), (5, 1), (4, 0))}
    assert posterior == {k: Fraction(v, sum(raw.values())) for k, v in raw.items()}


def test_wong_halves_and_ko_are_scaled_and_started():
    halves = CountShoe(shoe=(1, 1, 1, 1, 1, 1, 1, 1, 1, 4), tags=HALVES, seen=1, running_count=Fraction(3, 2))
    assert halves.posterior() == {(5, 1, 1, 2, 3, 0): Fraction(1)}  # scaled tags -2..3; the 5 is gone
    ko = CountShoe(shoe=(4,) * 9 + (16,), tags=KO, initial_running_count=-4, running_count=-4)
    assert ko.rank_probabilities()[Rank.TEN] == Fraction(16, 52)


def test_true_count_conventions():
    assert decks_left(52) == 1 and decks_left(39) == Fraction(3, 4)
    assert decks_left(39, DeckEstimate.HALF_DECK) == 1 and decks_left(38, "half-deck") == Fraction(1, 2)
    assert decks_left(78, "full-deck") == 2 and decks_left(77, "full-deck") == 1 and decks_left(5, "full-deck") == 1
    assert true_count(5, 104) == Fraction(5, 2)
    assert true_count(5, 104, rounding=Rounding.FLOOR) == 2 and true_count(-5, 104, rounding="floor") == -3
    assert true_count(-5, 104, rounding="truncate") == -2 and true_count(5, 104, rounding="round") == 3
    assert true_count(-5, 104, rounding="round") == -3 and true_count(-4, 104, rounding="round") == -2
    assert true_count(7, 130, "half-deck", "floor") == 2  # 130 cards: 2.5 decks; 2.8 floors to 2


def test_insurance_table_defaults_to_every_quarter_deck_for_a_deck():
    result = insurance_table((4,) * 9 + (16,), HI_LO, "T,9", system="hi-lo")
    assert [row.cards_left for row in result.rows] == [39, 26, 13]
    assert [row.cards_left for row in insurance_table((24,) * 9 + (96,), HI_LO, "").rows] == list(range(286, 0, -26))
    # 26 cards left, T,9 and A seen: insure from RC +1 (brute force over the discard classes: the
    # posterior's expected tens)
    row = result.rows[1]
    assert row.running_count == 1 and row.monotone
    at = CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, hand="T9", up="A", seen=23, running_count=1)
    assert at.insurance_ev() == row.evs[Fraction(1)] > 0
    assert CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, hand="T9", up="A", seen=23,
                     running_count=0).insurance_ev() <= 0


@pytest.mark.parametrize("make, error, words", [
    (lambda: CountShoe(shoe=(4,) * 9 + (16,), tags=(1, 1, 1)), InvalidCountError, "tags must be ten"),
    (lambda: CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, seen=53), InvalidShoeError, "seen must be"),
    (lambda: CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, seen=51, hand="T,T"), InvalidShoeError,
     "from 0 to 50 .*not 51"),
    (lambda: CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, seen=2, running_count=3), InvalidCountError,
     "running_count 3 cannot be reached"),
    (lambda: CountShoe(shoe=(4,) * 9 + (16,), tags=HALVES, seen=2, running_count=Fraction(1, 3)),
     InvalidCountError, "running_count 1/3"),
    (lambda: CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, running_count=1), InvalidCountError,
     "probability 0"),
    (lambda: CountShoe(shoe=(0,) * 9 + (16,), tags=HI_LO, up="A"), CardNotInShoeError, "'A'"),
    (lambda: CountShoe(shoe=(4,) * 9, tags=HI_LO), InvalidShoeError, "ten whole-number counts"),
    (lambda: CountShoe(shoe=(4,) * 9 + (16,), tags=HI_LO, up="7").insurance_ev(), InvalidHandError, "ace"),
    (lambda: true_count(1, 0), InvalidCountError, "0 cards left"),
    (lambda: true_count(1, 52, rounding="nearest"), InvalidCountError, "rounding must be"),
    (lambda: insurance_index((4,) * 9 + (16,), HI_LO, "T,9", 50), InvalidShoeError, "cards left"),
])
def test_bad_inputs_raise_one_named_line(make, error, words):
    with pytest.raises(error, match=words) as raised:
        make()
    assert "\n" not in str(raised.value)


def _wong() -> dict[int, Fraction]:
    lines = (DATA / "wong_hi_lo_insurance.txt").read_text().splitlines()
    rows = [line.split() for line in lines if line and not line.startswith("#")][1:]
    return {int(decks): Fraction(index) for decks, index in rows}


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_best_single_hi_lo_index_is_wongs_to_a_tenth(decks):
    # Wong's table (one index per shoe, for every depth) against the exact index that gains most
    # over rounds dealt evenly from the top to 75 % penetration, ace up, no hand (docs/countshoe.md)
    wong = _wong()[decks]
    best = best_insurance_index((4 * decks,) * 9 + (16 * decks,), HI_LO, "", range(52 * decks - 1, 13 * decks - 1, -1))
    assert best.low is not None and best.high is not None
    # some w of the best interval [low, high) rounds to Wong's figure
    assert best.low < wong + Fraction(1, 20) and best.high > wong - Fraction(1, 20), (float(best.low), float(best.high))
    assert best.gain(wong) <= best.best_gain and best.best_gain > 0


@settings(deadline=None)
@given(insurance_cases(), st.data())
def test_the_best_single_index_is_the_brute_force_one(c, data):
    off = sum(c["shoe"]) - 3
    depths = sorted(set(data.draw(st.lists(st.integers(1, off), min_size=1, max_size=3))), reverse=True)
    best = best_insurance_index(c["shoe"], c["tags"], [Rank.from_index(r) for r in c["hand"]], depths, c["irc"])
    # brute force: every subset of the cards off the table at every depth, the gain of every w
    table = c["hand"] + [0]
    pool = naive.off_table(c["shoe"], table)
    start = c["irc"] + sum(Fraction(c["tags"][r]) for r in table)
    points = []
    for left in depths:
        seen = off - left
        for rc, p in naive.running_count_distribution(pool, c["tags"], seen, start).items():
            ev = naive.insurance_ev(c["shoe"], c["tags"], c["hand"], seen, rc, c["irc"])
            points.append((rc * 52 / left, p * ev / len(depths)))
    def gain(w):
        return sum((g for tc, g in points if w is None or tc > w), Fraction(0))
    candidates = [None] + sorted({tc for tc, _ in points})  # None: insure at every count
    top = max(gain(w) if w is not None else gain(None) for w in candidates)
    top = max(top, Fraction(0))  # never insuring gains 0
    assert best.best_gain == top
    assert best.gain(best.low) == top if best.high is not None else top == 0
