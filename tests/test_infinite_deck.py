"""The infinite deck (Rules(decks=math.inf)): every card drawn with replacement, exactly.

Checked here: exact rationals whose tables sum to 1, over powers of 13; float and exact agree;
a 1,000,000-deck shoe approaches every figure; the dealer's closed form for one up card.
Published infinite-deck dealer figures: tests/test_published.py. The independent brute force
with replacement: tests/test_naive_infinite.py."""

import math
from fractions import Fraction

import pytest

from bjcalc import Action, Analysis, InvalidRulesError, Rules
from bjcalc.numbers import to_fraction

INFINITE = Rules(decks=math.inf, surrender="late")


@pytest.fixture(scope="module")
def exact():
    return Analysis(INFINITE, exact=True)


def test_dealer_tables_are_exact_over_powers_of_13(exact):
    for up in "A23456789T":
        table = exact.dealer(up)
        values = [to_fraction(p) for p in table.values()]
        assert sum(values) == 1
        assert all(13 ** 12 % p.denominator == 0 for p in values)  # the dealer draws at most 11 cards


def test_dealer_closed_form_for_a_ten_up():
    # with replacement the dealer's blackjack chance is the hole card's alone: an ace, 1/13
    table = Analysis(Rules(decks=math.inf), exact=True).dealer("T")
    assert to_fraction(table["blackjack"]) == Fraction(1, 13)
    # and a ten up stands on 20 at once with a ten in the hole (4/13), or later on longer runs
    assert to_fraction(table["20"]) > Fraction(4, 13)


def test_a_million_decks_approach_the_infinite_deck(exact):
    far = Analysis(INFINITE.replace(decks=1_000_000))
    floats = Analysis(INFINITE)
    assert abs(far.round().ev - floats.round().ev) < 2e-6
    assert abs(float(exact.round().ev) - floats.round().ev) < 1e-12
    for hand, up in (("T,6", "T"), ("A,7", "9"), ("8,8", "A"), ("5,6", "6")):
        near, inf = far.hand(hand, up).evs, floats.hand(hand, up).evs
        assert all(abs(near[a] - inf[a]) < 2e-5 for a in inf)


def test_known_infinite_deck_values(exact):
    # stand on 16 against a ten, the dealer peeking: P(dealer busts | no blackjack) * 2 - 1,
    # which depends on the dealer alone (a standing 16 wins only when the dealer busts)
    evs = exact.hand("T,6", "T").evs
    bust = to_fraction(exact.dealer("T", peeked=True)["bust"])
    assert to_fraction(evs[Action.STAND]) == 2 * bust - 1
    # insurance with replacement: tens are 4 in 13 whatever was seen
    assert to_fraction(exact.insurance("A", "T,T")) == Fraction(2 * 4 - 9, 13)


def test_seen_cards_and_effects_of_removal_are_refused():
    with pytest.raises(InvalidRulesError, match="infinite"):
        INFINITE.without("A")
    from bjcalc.counting.eor import effects_of_removal

    with pytest.raises(InvalidRulesError, match="infinite"):
        effects_of_removal(INFINITE)


def test_infinite_spellings_and_json():
    assert Rules(decks="inf").infinite and Rules(decks=math.inf).to_dict()["decks"] == "inf"
    assert Rules(decks=8).infinite is False


# -- the engine against the independent brute force with replacement (tests/oracles/naive_infinite.py)

from oracles import naive_infinite as naive  # noqa: E402

ORACLE_RULES = [
    dict(),
    dict(hit_soft_17=True, surrender="late", double="10-11"),
    dict(hole_card="none", blackjack_takes="all", double_after_split=False, split_hands=2),
    dict(hole_card="none", blackjack_takes="original", surrender="early", split_hands=3, resplit_aces=True),
    dict(hit_split_aces=True, blackjack_pays="6/5", surrender="late"),
]


def _pair(options: dict) -> tuple[Rules, dict]:
    rules = Rules(decks=math.inf, **options)
    reference = naive.rules_with(**{k: (Fraction(v.replace(":", "/")) if k == "blackjack_pays" else v)
                                    for k, v in options.items()})
    return rules, reference


@pytest.mark.parametrize("options", ORACLE_RULES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "base")
def test_hands_and_splits_equal_the_brute_force_exactly(options):
    rules, reference = _pair(options)
    a = Analysis(rules, exact=True)
    names = {Action.STAND: "stand", Action.HIT: "hit", Action.DOUBLE: "double", Action.SURRENDER: "surrender"}
    for up in (1, 2, 6, 7, 10):
        up_name = "A" if up == 1 else "T" if up == 10 else str(up)
        for cards in ((10, 6), (1, 7), (5, 6), (9, 3), (2, 2, 5)):
            result = a.hand(",".join("A" if c == 1 else "T" if c == 10 else str(c) for c in cards), up_name)
            expected = naive.hand_evs(list(cards), up, reference)
            assert result.conditioned == expected["conditioned"]
            for action, name in names.items():
                if action in result.evs:
                    assert to_fraction(result.evs[action]) == expected[name], (cards, up_name, name)
        if rules.split_hands > 1:
            for pair in (1, 8, 9):
                name = "A" if pair == 1 else str(pair)
                got = to_fraction(a.hand(f"{name},{name}", up_name).evs[Action.SPLIT])
                assert got == naive.split_ev(pair, up, reference), (pair, up_name)


@pytest.mark.parametrize("options", ORACLE_RULES[:3], ids=["base", "h17-ls-10-11", "enhc-nodas-split2"])
def test_the_round_equals_the_brute_force_exactly(options):
    rules, reference = _pair(options)
    assert to_fraction(Analysis(rules, exact=True).round().ev) == naive.round_ev(reference)


def test_the_command_line_takes_decks_inf():
    from click.testing import CliRunner

    from bjcalc.cli import cli

    result = CliRunner().invoke(cli, ["hand", "T,6", "--up", "T", "--decks", "inf", "--exact", "--format", "json"])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.output)
    assert data["rules"]["decks"] == "inf" and data["exact"]["stand"] == "-200658/371293"
    text = CliRunner().invoke(cli, ["edge", "--decks", "inf", "--split-hands", "2"]).output
    assert "infinite deck" in text and "not computed for the infinite deck" in text
