"""Charts, the round EV under them, and their agreement with independent checks."""

import pytest
from oracles.simulator import simulate_spread

from bjcalc import Analysis, Rules
from bjcalc.numbers import to_fraction

# Wizard of Odds' basic strategy for 4-8 decks, S17, DAS, late surrender (the standard printed
# card). Rows hard 8..17, soft 13..19, pairs; columns 2..9, T, A.
WIZARD_S17_DAS_LS = {
    ("hard", "8"): "H H H H H H H H H H",
    ("hard", "9"): "H Dh Dh Dh Dh H H H H H",
    ("hard", "10"): "Dh Dh Dh Dh Dh Dh Dh Dh H H",
    ("hard", "11"): "Dh Dh Dh Dh Dh Dh Dh Dh Dh H",
    ("hard", "12"): "H H S S S H H H H H",
    ("hard", "13"): "S S S S S H H H H H",
    ("hard", "15"): "S S S S S H H H Rh H",
    ("hard", "17"): "S S S S S S S S S S",
    ("soft", "13"): "H H H Dh Dh H H H H H",
    ("soft", "15"): "H H Dh Dh Dh H H H H H",
    ("soft", "17"): "H Dh Dh Dh Dh H H H H H",
    ("soft", "18"): "S Ds Ds Ds Ds S S H H H",
    ("soft", "19"): "S S S S S S S S S S",
    ("pairs", "2"): "P P P P P P H H H H",
    ("pairs", "4"): "H H H P P H H H H H",
    ("pairs", "5"): "Dh Dh Dh Dh Dh Dh Dh Dh H H",
    ("pairs", "6"): "P P P P P H H H H H",
    ("pairs", "8"): "P P P P P P P P P P",
    ("pairs", "9"): "P P P P P S P P S S",
    ("pairs", "T"): "S S S S S S S S S S",
    ("pairs", "A"): "P P P P P P P P P P",
}


@pytest.fixture(scope="module")
def eight_deck_chart():
    rules = Rules(decks=8, surrender="late")
    analysis = Analysis(rules)
    return rules, analysis, analysis.chart()


def test_chart_matches_the_published_card(eight_deck_chart):
    _, _, chart = eight_deck_chart
    for (kind, row), codes in WIZARD_S17_DAS_LS.items():
        # the card is for DAS rules, where Ph/Ps/Pd (split if DAS allowed) mean split
        ours = [("P" if c in ("Ph", "Ps", "Pd") else c) for c in chart.table(kind)[row].values()]
        assert " ".join(ours) == codes, f"{kind} {row}"


def test_splits_that_need_das_are_marked(eight_deck_chart):
    # Known from every multi-deck card: 2,2 and 3,3 against a 2 or 3, and 4,4 against a 5 or 6,
    # are split only because doubling after splitting is allowed; 8,8 is always split.
    _, _, chart = eight_deck_chart
    pairs = chart.table("pairs")
    assert pairs["2"]["2"] == "Ph" and pairs["3"]["3"] == "Ph" and pairs["4"]["5"] == "Ph"
    assert all(code == "P" for code in pairs["8"].values())
    no_das = Analysis(Rules(decks=8, surrender="late", double_after_split=False)).chart()
    assert "Ph" not in " ".join(no_das.table("pairs")["2"].values())


def test_basic_strategy_ev_is_at_most_cd(eight_deck_chart):
    rules, analysis, chart = eight_deck_chart
    basic = analysis.evaluate(chart).round
    cd = analysis.round()
    assert basic.ev <= cd.ev + 1e-15
    # published basic-strategy house edge for this game is about 0.36 % (Wizard of Odds)
    assert 0.34 < 100 * basic.house_edge < 0.38
    assert all(e.gain > 0 for e in analysis.exceptions(chart))


def test_one_deck_exceptions_are_the_classic_ones():
    # Classic single-deck H17 composition-dependent plays (e.g. Wizard of Odds, Griffin):
    # T,2 v 4 hit, 7,7 v T stand, 2,6 v 6 hit rather than double.
    rules = Rules(decks=1, hit_soft_17=True)
    analysis = Analysis(rules)
    found = {(e.hand, str(e.up), e.best.key) for e in analysis.exceptions(analysis.chart())}
    assert {("2,T", "4", "hit"), ("7,7", "T", "stand"), ("2,6", "6", "hit")} <= found


def test_exact_round_ev_is_rational_and_floats_agree():
    rules = Rules(decks=1, split_hands=3, surrender="late", hit_soft_17=True)
    exact = Analysis(rules, exact=True).round()
    floats = Analysis(rules).round()
    value = to_fraction(exact.ev)
    assert value.denominator > 1
    assert abs(float(value) - floats.ev) < 1e-12
    for up, ev in exact.by_upcard.items():
        assert abs(float(to_fraction(ev)) - floats.by_upcard[up]) < 1e-12


def simulator_rules(rules: Rules) -> dict:
    takes = rules.blackjack_takes
    return dict(
        hit_soft_17=rules.hit_soft_17, blackjack_pays=rules.blackjack_pays, double=rules.double.value,
        double_soft=rules.double_soft, double_after_split=rules.double_after_split,
        split_hands=rules.split_hands, resplit_aces=rules.resplit_aces,
        hit_split_aces=rules.hit_split_aces, surrender=rules.surrender.value,
        hole_card=rules.hole_card.value,
        nhc_double_loss={1: takes.doubles_vs_ace.value, 10: takes.doubles_vs_ten.value},
        nhc_split_loss={1: takes.splits_vs_ace.value, 10: takes.splits_vs_ten.value},
        charlie=rules.charlie, player_max_cards=rules.player_max_cards,
        dealer_max_cards=rules.dealer_max_cards,
    )


@pytest.mark.parametrize(
    "rules",
    [
        Rules(decks=1, hit_soft_17=True, surrender="late", split_hands=4),
        Rules(decks=2, hole_card="none", blackjack_takes="live", charlie=5, split_hands=2,
              blackjack_pays="6/5", double="9-11"),
    ],
    ids=["1d-h17-ls-rs4", "2d-enhc-live-charlie5-6to5"],
)
def test_simulation_of_the_chart_agrees_within_4_standard_errors(rules):
    """The chart's EV and its variance (resplitting to 4 hands in the first game) against the
    independent simulator."""
    analysis = Analysis(rules)
    chart = analysis.chart()
    result = analysis.evaluate(chart).round
    mean, error, variance, variance_error = simulate_spread(
        chart.to_dict(), simulator_rules(rules), rules.shoe_counts, 600_000, seed=2026)
    assert abs(mean - result.ev) < 4 * error, f"simulated {mean:.5f} +- {error:.5f}, exact {result.ev:.5f}"
    exact = analysis.variance(chart).variance
    assert abs(variance - exact) < 4 * variance_error, (
        f"variance {variance:.5f} +- {variance_error:.5f}, exact {exact:.5f}")
