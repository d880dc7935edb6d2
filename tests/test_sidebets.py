"""Side bets (bjcalc.games.sidebets): published figures, brute-force oracles, exact sums, bad input.

Published figures are from /work/shared/reference/published.md section 6; each test names its
source. The brute-force oracle below lists every unordered combination of physical cards and
classifies it independently of the counting formulas in bjcalc.games.sidebets.
"""

import itertools
from fractions import Fraction

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bjcalc.errors import CardNotInShoeError, InvalidCardError, InvalidPayTableError, InvalidShoeError
from bjcalc.games.sidebets import (
    PERFECT_PAIRS_CATEGORIES,
    TWENTY_ONE_PLUS_THREE_CATEGORIES,
    SuitedCard,
    SuitedShoe,
    parse_pays,
    parse_suited_card,
    parse_suited_cards,
    perfect_pairs,
    twenty_one_plus_three,
)


def rounds_to(value: Fraction, printed: str) -> bool:
    """Whether the exact ``value`` rounds to ``printed`` at its last printed digit."""
    digits = len(printed.partition(".")[2])
    return round(value, digits) == Fraction(printed)


def counts(result):
    return {name: n for name, (n, _, _) in result.categories.items()}


# --- Published figures -------------------------------------------------------------------------

# Source: Wizard of Odds, Perfect Pairs (published.md section 6), 8 decks.
# The published "combinations" are plain unordered pairs of the 416 physical cards of 8 decks,
# no weighting: C(416, 2) = 416 * 415 / 2 = 86320. Per rank the shoe holds 8 copies of each of
# its 4 suits, so
#   perfect  = 13 ranks x 4 suits x C(8, 2)                     = 13 x 4 x 28  = 1456
#   coloured = 13 ranks x 2 colours x (8 x 8) (the two suits)   = 13 x 2 x 64  = 1664
#   mixed    = 13 ranks x (16 red x 16 black)                   = 13 x 256     = 3328
#   no pair  = 86320 - 1456 - 1664 - 3328                                      = 79872
# so the return is (25 x 1456 + 12 x 1664 + 6 x 3328 - 79872) / 86320 = -17/415.
PERFECT_PAIRS_8_DECKS = {"perfect": 1456, "coloured": 1664, "mixed": 3328, "none": 79872}

# Source: Wizard of Odds, Perfect Pairs (published.md section 6): 8 decks, pay table -> return.
PERFECT_PAIRS_8_DECK_RETURNS = [
    ("25/12/6", "-0.040964"),
    ("30/10/5", "-0.033735"),
    ("25/12/5", "-0.079518"),
    ("25/15/5", "-0.021687"),
]


def test_wizard_perfect_pairs_8_deck_combinations():
    result = perfect_pairs(SuitedShoe.of_decks(8))
    assert counts(result) == PERFECT_PAIRS_8_DECKS
    assert result.total_combinations == 86320
    assert result.expected_return == Fraction(-17, 415)


@pytest.mark.parametrize("pays, printed", PERFECT_PAIRS_8_DECK_RETURNS, ids=lambda x: x)
def test_wizard_perfect_pairs_8_deck_returns(pays, printed):
    table = parse_pays(pays, PERFECT_PAIRS_CATEGORIES)
    result = perfect_pairs(SuitedShoe.of_decks(8), table)
    assert rounds_to(result.expected_return, printed), (
        f"pays {pays}: bjcalc {float(result.expected_return)!r}, published {printed}"
    )


def test_wizard_21_plus_3_all_wins_9_to_1_6_decks():
    # Source: Wizard of Odds, 21+3, every win paying 9:1, 6 decks: return -0.032386
    # (published.md section 6).
    nine_to_one = parse_pays("9", TWENTY_ONE_PLUS_THREE_CATEGORIES)
    result = twenty_one_plus_three(SuitedShoe.of_decks(6), nine_to_one)
    assert rounds_to(result.expected_return, "-0.032386"), float(result.expected_return)
    # Wins: 1040 + 10368 + 25272 + 155520 + 292896 = 485096 of C(312, 3) = 5013320.
    assert result.total_combinations == 5013320
    assert counts(result) == {
        "suited_trips": 1040,  # 52 cards x C(6, 3)
        "straight_flush": 10368,  # 12 runs x 4 suits x 6^3
        "three_of_a_kind": 25272,  # 13 x C(24, 3) - 1040
        "straight": 155520,  # 12 runs x 24^3 - 10368
        "flush": 292896,  # 4 x C(78, 3) - 1040 - 10368
        "none": 4528224,
    }
    assert result.expected_return == Fraction(10 * 485096 - 5013320, 5013320)


def test_three_card_poker_counts_one_deck():
    # Source: the standard 3-card poker hand counts of one deck (Wizard of Odds, Three Card
    # Poker): straight flush 48, three of a kind 52, straight 720, flush 1096 of 22100.
    result = twenty_one_plus_three(SuitedShoe.of_decks(1))
    assert counts(result) == {
        "suited_trips": 0,
        "straight_flush": 48,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "none": 20184,
    }
    assert result.total_combinations == 22100


def test_default_pay_tables():
    pp = perfect_pairs(SuitedShoe.of_decks(1))
    assert [pay for _, _, pay in pp.categories.values()] == [25, 12, 6, -1]
    t = twenty_one_plus_three(SuitedShoe.of_decks(1))
    assert {name: pay for name, (_, _, pay) in t.categories.items()} == {
        "suited_trips": 100,
        "straight_flush": 40,
        "three_of_a_kind": 30,
        "straight": 10,
        "flush": 5,
        "none": -1,
    }
    # 1 deck: (40 x 48 + 30 x 52 + 10 x 720 + 5 x 1096 - 20184) / 22100
    assert t.expected_return == Fraction(40 * 48 + 30 * 52 + 10 * 720 + 5 * 1096 - 20184, 22100)


# --- Brute-force oracle ------------------------------------------------------------------------

RED = {1, 2}  # h, d


def classify_pair(a: SuitedCard, b: SuitedCard) -> str:
    if a.rank != b.rank:
        return "none"
    if a.suit == b.suit:
        return "perfect"
    if (a.suit in RED) == (b.suit in RED):
        return "coloured"
    return "mixed"


def is_straight(ranks) -> bool:
    # Ace low (A-2-3) or high (Q-K-A) but never wrapping (K-A-2). Ranks 0..12 are A..K.
    values = sorted(ranks)
    if values == [0, 11, 12]:
        return True
    return values[1] == values[0] + 1 and values[2] == values[1] + 1


def classify_three(cards) -> str:
    ranks = [c.rank for c in cards]
    suits = {c.suit for c in cards}
    flush = len(suits) == 1
    if len(set(ranks)) == 1:
        return "suited_trips" if flush else "three_of_a_kind"
    if is_straight(ranks):
        return "straight_flush" if flush else "straight"
    return "flush" if flush else "none"


def brute_force(shoe: SuitedShoe, size: int, classify) -> dict[str, int]:
    tally: dict[str, int] = {}
    for combo in itertools.combinations(shoe.cards(), size):
        name = classify(*combo) if size == 2 else classify(combo)
        tally[name] = tally.get(name, 0) + 1
    return tally


def nonzero(table):
    return {name: n for name, n in table.items() if n}


SMALL_SHOES = {
    "1 deck": SuitedShoe.of_decks(1),
    "1 deck less Ah Kd 7c 7s Qh": SuitedShoe.dealt_from(1, "Ah Kd 7c 7s Qh"),
    "1 deck less all spades and the 2-5": SuitedShoe.dealt_from(
        1, [r + "s" for r in "A23456789TJQK"] + ["2h 3d 4c 5h 2d 2c"]
    ),
    "2 decks less 10 cards": SuitedShoe.dealt_from(2, "Ah Ah As Kd Kd Kh Qc Jc 10c 2s"),
}


@pytest.mark.parametrize("shoe", SMALL_SHOES.values(), ids=SMALL_SHOES.keys())
def test_perfect_pairs_matches_brute_force(shoe):
    result = perfect_pairs(shoe)
    assert nonzero(counts(result)) == brute_force(shoe, 2, classify_pair)
    assert sum(n for n, _, _ in result.categories.values()) == result.total_combinations


@pytest.mark.parametrize("shoe", SMALL_SHOES.values(), ids=SMALL_SHOES.keys())
def test_21_plus_3_matches_brute_force(shoe):
    result = twenty_one_plus_three(shoe)
    assert nonzero(counts(result)) == brute_force(shoe, 3, classify_three)
    assert sum(n for n, _, _ in result.categories.values()) == result.total_combinations


@settings(max_examples=examples(60))
@given(st.lists(st.integers(0, 51), min_size=3, max_size=30))
def test_random_small_shoes_match_brute_force(indices):
    # A shoe of up to 30 cards drawn with repeats from the 52, so duplicated suited cards occur.
    shoe = SuitedShoe(tuple(indices.count(i) for i in range(52)))
    assert nonzero(counts(perfect_pairs(shoe))) == brute_force(shoe, 2, classify_pair)
    assert nonzero(counts(twenty_one_plus_three(shoe))) == brute_force(shoe, 3, classify_three)


# --- Exact sums, depleted shoes ----------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_probabilities_sum_to_exactly_one(decks):
    removed = "Ah Ah Kd 7c 10s" if decks > 1 else "Ah Kd 7c 10s"
    for shoe in (SuitedShoe.of_decks(decks), SuitedShoe.dealt_from(decks, removed)):
        for result in (perfect_pairs(shoe), twenty_one_plus_three(shoe)):
            rows = result.categories.values()
            assert all(isinstance(p, Fraction) for _, p, _ in rows)
            assert sum(p for _, p, _ in rows) == 1
            assert result.expected_return == sum(p * pay for _, p, pay in rows)


def test_depleted_one_deck_perfect_pairs_literal():
    # One deck less Ah: 51 cards, C(51, 2) = 1275 pairs. Aces left: As Ad Ac, so the aces give
    # one coloured pair (As-Ac) and two mixed (As-Ad, Ac-Ad); every other rank 2 and 4.
    result = perfect_pairs(SuitedShoe.dealt_from(1, "Ah"))
    assert counts(result) == {"perfect": 0, "coloured": 25, "mixed": 50, "none": 1200}
    assert result.total_combinations == 1275
    assert result.expected_return == Fraction(12 * 25 + 6 * 50 - 1200, 1275)


def test_depleted_shoe_with_perfect_pairs_only():
    shoe = SuitedShoe.from_counts({"Ah": 3, "Kd": 1})
    result = perfect_pairs(shoe)
    assert counts(result) == {"perfect": 3, "coloured": 0, "mixed": 0, "none": 3}
    assert result.probability("perfect") == Fraction(1, 2)
    trips = twenty_one_plus_three(shoe)
    assert counts(trips) == {
        "suited_trips": 1,
        "straight_flush": 0,
        "three_of_a_kind": 0,
        "straight": 0,
        "flush": 0,
        "none": 3,
    }


def test_straights_wrap_only_through_the_ace_at_the_ends():
    def category(cards):
        result = twenty_one_plus_three(SuitedShoe.from_counts({c: 1 for c in cards.split()}))
        return [name for name, (n, _, _) in result.categories.items() if n][0]

    assert category("Ah 2d 3c") == "straight"
    assert category("Qh Kd Ac") == "straight"
    assert category("Kh Ad 2c") == "none"
    assert category("Kh Ah 2h") == "flush"
    assert category("Jh Qh Kh") == "straight_flush"
    assert category("9h 10h Jh") == "straight_flush"
    assert category("Th Jd Qc") == "straight"


def test_removal_forms_agree():
    by_text = SuitedShoe.of_decks(2).remove("Ah Kd 10c")
    assert by_text == SuitedShoe.of_decks(2).remove(["Ah", "Kd", "Tc"])
    assert by_text == SuitedShoe.dealt_from(2, ["Ah Kd", parse_suited_card("tc")])
    assert by_text.count("Ah") == 1 and by_text.count("As") == 2 and len(by_text) == 101
    # T, J, Q, K are different ranks here: taking a king leaves the tens alone.
    assert by_text.count("Td") == 2 and by_text.count("Kd") == 1


def test_from_counts_forms_agree():
    rows = [[1, 1, 1, 1]] * 13
    assert SuitedShoe.from_counts(rows) == SuitedShoe.of_decks(1)
    mapping = {f"{r}{s}": 1 for r in "A23456789TJQK" for s in "shdc"}
    assert SuitedShoe.from_counts(mapping) == SuitedShoe.of_decks(1)


# --- Parsing ----------------------------------------------------------------------------------


def test_card_parsing_literals():
    assert parse_suited_card("Ah") == SuitedCard(0, 1)
    assert parse_suited_card("10h") == parse_suited_card("Th") == SuitedCard(9, 1)
    assert parse_suited_card("kS") == SuitedCard(12, 0)
    assert parse_suited_card("Q♦") == SuitedCard(11, 2)
    assert [str(c) for c in parse_suited_cards("Ah Kd 7c")] == ["Ah", "Kd", "7c"]
    assert [str(c) for c in parse_suited_cards("Ah,10d;Jc2s")] == ["Ah", "Td", "Jc", "2s"]


def test_parse_pays_forms():
    assert parse_pays("25/12/6", PERFECT_PAIRS_CATEGORIES) == {
        "perfect": 25,
        "coloured": 12,
        "mixed": 6,
    }
    assert parse_pays("perfect=25, coloured=12, mixed=6", PERFECT_PAIRS_CATEGORIES) == {
        "perfect": 25,
        "coloured": 12,
        "mixed": 6,
    }
    assert parse_pays("colored=3/2", PERFECT_PAIRS_CATEGORIES) == {"coloured": Fraction(3, 2)}
    assert parse_pays("100/40/30/10/5", TWENTY_ONE_PLUS_THREE_CATEGORIES) == {
        "suited_trips": 100,
        "straight_flush": 40,
        "three_of_a_kind": 30,
        "straight": 10,
        "flush": 5,
    }
    assert parse_pays("straight-flush=35,trips=25", TWENTY_ONE_PLUS_THREE_CATEGORIES) == {
        "straight_flush": 35,
        "three_of_a_kind": 25,
    }


def test_partial_pays_keep_the_other_defaults():
    result = perfect_pairs(SuitedShoe.of_decks(8), {"mixed": 5})
    assert [pay for _, _, pay in result.categories.values()] == [25, 12, 5, -1]
    assert rounds_to(result.expected_return, "-0.079518")


# --- Bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("Xh", InvalidCardError, "unknown card 'Xh'"),
        ("A", InvalidCardError, "unknown card 'A'"),
        ("Ax", InvalidCardError, "unknown card 'Ax'"),
        ("11h", InvalidCardError, "unknown card '11h'"),
        ("", InvalidCardError, "no cards in ''"),
    ],
)
def test_bad_cards(text, error, message):
    with pytest.raises(error, match=message):
        parse_suited_cards(text)
    with pytest.raises(error):
        SuitedShoe.of_decks(1).remove(text)


def test_card_not_in_shoe():
    message = r"card 'Ah' is not in the shoe \(removing 'Ah Ah'\)"
    with pytest.raises(CardNotInShoeError, match=message):
        SuitedShoe.of_decks(1).remove("Ah Ah")
    with pytest.raises(CardNotInShoeError, match="card 'Ts'"):
        SuitedShoe.from_counts({"Ah": 1}).remove(["10s"])


@pytest.mark.parametrize("decks", [0, -1, "8", 1.5, None])
def test_bad_deck_counts(decks):
    with pytest.raises(InvalidShoeError, match=f"not {decks!r}"):
        SuitedShoe.of_decks(decks)


@pytest.mark.parametrize(
    "build",
    [
        lambda: SuitedShoe((1,) * 51),
        lambda: SuitedShoe((1,) * 51 + (-1,)),
        lambda: SuitedShoe([1] * 52),  # type: ignore[arg-type]
        lambda: SuitedShoe.from_counts([[1, 1, 1]] * 13),
        lambda: SuitedShoe.from_counts({"Ah": -2}),
        lambda: SuitedShoe.from_counts("1,2,3"),  # type: ignore[arg-type]
    ],
)
def test_bad_shoes(build):
    with pytest.raises(InvalidShoeError):
        build()


def test_shoe_too_small():
    with pytest.raises(InvalidShoeError, match="at least 3 cards"):
        twenty_one_plus_three(SuitedShoe.from_counts({"Ah": 1, "Ad": 1}))
    with pytest.raises(InvalidShoeError, match="at least 2 cards"):
        perfect_pairs(SuitedShoe.from_counts({"Ah": 1}))


@pytest.mark.parametrize(
    "text, message",
    [
        ("25/12", "pay table '25/12' needs 1 or 3 values"),
        ("25/x/6", "must be a number like 9, 2.5 or 3/2, not 'x'"),
        ("perfect=25,pair=3", "unknown pay category 'pair'"),
        ("perfect=-2", "must be a number like 9, 2.5 or 3/2, not '-2'"),
        ("perfect=3/0", "must be a number like 9, 2.5 or 3/2, not '3/0'"),
        ("1e999", "must be a number like 9, 2.5 or 3/2, not '1e999'"),
        ("25/12/1001", "pay for 'mixed' must be at most 1000"),
    ],
)
def test_bad_pay_tables(text, message):
    with pytest.raises(InvalidPayTableError, match=message):
        parse_pays(text, PERFECT_PAIRS_CATEGORIES)


def test_bad_pays_mapping():
    with pytest.raises(InvalidPayTableError, match="unknown pay category 'royal'"):
        twenty_one_plus_three(SuitedShoe.of_decks(1), {"royal": 500})
    with pytest.raises(InvalidPayTableError, match="must be >= 0"):
        perfect_pairs(SuitedShoe.of_decks(1), {"perfect": -5})
