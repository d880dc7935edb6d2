"""Charts a player can trust: where the best play of a total differs between two-card hands and
hands of three or more cards, the chart prints both (``H/S``: hit with two cards, stand with
three or more; ``Rh/S``: surrender, else hit with two cards; stand with more), and the
chart's EV is the EV of exactly what it prints (issue 12)."""

import pytest

from bjcalc import Action, Analysis, Rules


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("surrender", ["none", "late"])
def test_sixteen_against_a_ten_shows_the_two_card_play(decks, h17, surrender):
    # two-card 16 v T: hitting beats standing (T,6 hit -0.5347, stand -0.5410 at 6 decks);
    # a 16 of three or more cards stands. Without surrender the cell reads H/S; with late
    # surrender Rh/S (surrender, else hit with two cards; stand with more), so that a player
    # who cannot surrender knows what to do with two cards.
    chart = Analysis(Rules(decks=decks, hit_soft_17=h17, surrender=surrender)).chart()
    code = chart.table("hard")["16"]["T"]
    assert code == ("H/S" if surrender == "none" else "Rh/S"), code


def _two_card_action(code: str, can_double: bool, can_surrender: bool) -> Action:
    """What a printed hard/soft code tells a two-card hand, read from the legend alone."""
    base = code.partition("/")[0]
    letter = {"H": Action.HIT, "S": Action.STAND}
    if base[0] == "D" and can_double:
        return Action.DOUBLE
    if base[0] == "R" and can_surrender:
        return Action.SURRENDER
    return letter[base[-1].upper()]


@pytest.mark.parametrize("rules", [Rules(decks=1, hit_soft_17=True), Rules(decks=6, surrender="late"),
                                   Rules(decks=2, surrender="none", double="10-11")],
                         ids=["1d-h17", "6d-ls", "2d-10-11"])
def test_every_printed_two_card_play_is_best_or_a_listed_exception(rules):
    analysis = Analysis(rules)
    chart = analysis.chart()
    exceptions = {(e.hand, str(e.up)) for e in analysis.exceptions(chart)}
    checked = 0
    for play in analysis.evaluate(chart).plays:
        ranks = [str(c) for c in play.cards]
        if play.hand in ("A,T",) or ranks[0] == ranks[1]:
            continue  # naturals settle; pairs read the pairs table
        hand = analysis.hand(play.hand, str(play.up))
        total = hand.notation
        soft = "A" in ranks and sum(1 if r == "A" else 10 if r == "T" else int(r) for r in ranks) + 10 <= 21
        value = sum(1 if r == "A" else 10 if r == "T" else int(r) for r in ranks) + (10 if soft else 0)
        code = chart.table("soft" if soft else "hard")[str(value)][str(play.up)]
        printed = _two_card_action(code, Action.DOUBLE in hand.evs, Action.SURRENDER in hand.evs)
        assert printed is play.action, (total, str(play.up), code)  # the EV is of what is printed
        if printed is not hand.best:
            assert (play.hand, str(play.up)) in exceptions, (total, str(play.up), code, hand.best)
        checked += 1
    assert checked > 300
