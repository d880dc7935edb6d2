"""The three games in full: Bet Behind, chart evaluation, reports and rule effects."""

import json
import pathlib
from fractions import Fraction

import pytest
from click.testing import CliRunner
from oracles import naive_reference as naive

from bjcalc import Analysis, Rules
from bjcalc.chart import chart_from_tables, simple_policy
from bjcalc.cli import cli
from bjcalc.games.presets import game
from bjcalc.numbers import to_fraction


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_bet_behind_an_optimal_player_is_the_cd_round_ev_without_insurance():
    # follows everything = the seated player's own round EV (CD play, split hands CDZ-,
    # insurance never taken), exactly
    rules = game("live-dealer").rules.replace(decks=1)
    analysis = Analysis(rules, exact=True)
    result = analysis.bet_behind()
    assert to_fraction(result.follows_everything) == to_fraction(analysis.round().ev)
    # not following doubles and splits costs the bet behind something
    assert result.cannot_afford < result.follows_everything


def test_bet_behind_a_basic_strategy_player_is_the_chart_ev():
    rules = Rules(decks=2, surrender="late")
    analysis = Analysis(rules)
    chart = analysis.chart()
    assert abs(analysis.bet_behind(chart).follows_everything - analysis.evaluate(chart).round.ev) < 1e-15


def _both_bust_probability(shoe, rules):
    """P(player and dealer both bust) when the player mimics the dealer, computed here by a
    plain recursion over the player's cards and the naive reference's dealer table."""
    hit_soft_17 = rules["hit_soft_17"]

    def total(cards):
        hard = sum(cards)
        soft = 1 in cards and hard + 10 <= 21
        return (hard + 10 if soft else hard), soft

    def player(cards, counts, n):
        t, soft = total(cards)
        if t > 21:
            # the player busted: the dealer draws its up card and plays from what is left
            left = tuple(counts)
            bust = Fraction(0)
            for up in range(1, 11):
                if left[up - 1]:
                    table = naive.naive_dealer(shoe, up, rules, removed=tuple(cards))
                    bust += Fraction(left[up - 1], n) * table["bust"]
            return bust
        if len(cards) >= 2 and (t > 17 or (t == 17 and not (soft and hit_soft_17))):
            return Fraction(0)
        out = Fraction(0)
        for rank in range(1, 11):
            if counts[rank - 1]:
                counts[rank - 1] -= 1
                out += Fraction(counts[rank - 1] + 1, n) * player(cards + (rank,), counts, n - 1)
                counts[rank - 1] += 1
        return out

    return player((), list(shoe), sum(shoe))


def test_bet_behind_a_mimic_the_dealer_player_is_the_classical_mimic_value():
    # With blackjack paying 1:1 and no hole card (a dealer blackjack takes everything), a player
    # who mimics the dealer wins exactly when the dealer busts alone and loses when they bust
    # alone; by symmetry those cancel and the EV is -P(both bust) (the classical mimic result).
    shoe = (1, 1, 1, 1, 1, 1, 1, 1, 1, 8)
    rules = Rules(shoe=shoe, blackjack_pays=1, hole_card="none", blackjack_takes="all",
                  surrender="none", split_hands=1)
    reference = naive.rules_with(blackjack_pays=Fraction(1), hole_card="none")
    expected = -_both_bust_probability(shoe, reference)
    result = Analysis(rules, exact=True).bet_behind(simple_policy(rules, "mimic-dealer"))
    assert to_fraction(result.follows_everything) == expected
    assert result.cannot_afford == result.follows_everything  # never doubles or splits


@pytest.fixture(scope="module")
def two_decks():
    rules = Rules(decks=2, surrender="late")
    analysis = Analysis(rules)
    return rules, analysis, analysis.chart()


def test_evaluating_the_optimal_chart_file_gives_the_basic_edge(two_decks, tmp_path):
    rules, analysis, chart = two_decks
    path = tmp_path / "chart.json"
    path.write_text(run("chart", "--decks", "2", "--surrender", "late", "--max-cards", "0", "--format", "json").output)
    from_file = json.loads(run("edge", "--decks", "2", "--surrender", "late", "--max-cards", "0",
                               "--chart", str(path), "--format", "json").output)
    basic = json.loads(run("edge", "--decks", "2", "--surrender", "late", "--max-cards", "0",
                           "--strategy", "basic", "--format", "json").output)
    assert from_file["ev"] == basic["ev"] and from_file["deviations"] == []
    csv_path = tmp_path / "chart.csv"
    csv_path.write_text(
        run("chart", "--decks", "2", "--surrender", "late", "--max-cards", "0", "--format", "csv").output
    )
    from_csv = json.loads(run("edge", "--decks", "2", "--surrender", "late", "--max-cards", "0",
                              "--chart", str(csv_path), "--format", "json").output)
    assert from_csv["ev"] == basic["ev"]


def test_a_single_mistake_costs_exactly_its_cost(two_decks):
    rules, analysis, chart = two_decks
    tables = {k: chart.table(k) for k in ("hard", "soft", "pairs")}
    assert tables["hard"]["16"]["T"] in ("Rh", "Rs", "Rh/S") and tables["pairs"]["8"]["6"] == "P"
    tables["pairs"]["8"]["6"] = "S"  # stand on 8,8 against a 6 instead of splitting
    mistaken = chart_from_tables(rules, tables, "mistake")
    best_ev = analysis.evaluate(chart).round.ev
    mistake_ev = analysis.evaluate(mistaken).round.ev
    costs = analysis.deviations(mistaken, chart)
    assert [(d.kind, d.row, d.up) for d in costs] == [("pairs", "8", "6")]
    assert mistake_ev < best_ev
    assert abs((best_ev - mistake_ev) - costs[0].cost) < 1e-15


# the report in each format, one test each (4 s apiece), so that xdist can share them out
def test_report_text_format():
    text = run("report", "--game", "live-dealer", "--decks", "1").output
    assert "assumed (the game's text is silent): no surrender" in text
    for label in ("house edge, basic chart", "insurance EV", "Bet Behind", "perfect pairs", "21+3"):
        assert label in text


def test_report_json_format():
    data = json.loads(run("report", "--game", "us-shoe", "--decks", "1", "--format", "json").stdout)
    assert data["assumed"] and data["chart"]["pairs"]["8"]["6"] == "P"


def test_report_html_format():
    # the page of a game with resplits is tables/us-shoe-report.html (tests/test_tables.py); here the
    # command's html format, without the resplit variance that costs 4 s
    page = run("report", "--game", "us-shoe", "--decks", "1", "--split-hands", "1", "--format", "html").stdout
    assert page.startswith("<!DOCTYPE html>") and page.count("data-code=") >= 380


def test_chart_html_page():
    page = run("chart", "--decks", "1", "--format", "html").output
    assert page.startswith("<!DOCTYPE html>") and page.count("data-code=") >= 380
    assert "http" not in page and "<script" not in page


def test_effects_lists_one_rule_changes_against_the_game():
    result = run("effects", "--game", "live-dealer", "--decks", "1", "--split-hands", "1")
    assert result.exit_code == 0, result.output
    assert "baseline: the game as it is" in result.output
    assert "no 10-card charlie" in result.output and "blackjack pays 6:5" in result.output


def test_the_reports_bet_behind_section_holds_its_numbers():
    """Issue 19: the report's Bet Behind section was a sentence whose numbers sat elsewhere; it
    now tabulates both bets for both seated players (numbers from a fresh analysis)."""
    from bjcalc import GAMES, Analysis

    analysis = Analysis(GAMES["live-dealer"].rules)
    text = (pathlib.Path(__file__).resolve().parent.parent / "tables" / "live-dealer-report.md").read_text()
    section = text.split("## Bet Behind", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 2
    for row, result in zip(rows, (analysis.bet_behind(), analysis.bet_behind(analysis.chart()))):
        seat, follows, cannot = (cell.strip() for cell in row.strip("|").split("|"))
        assert seat == str(result.seated)
        assert float(follows) == pytest.approx(float(result.follows_everything), abs=5e-7)
        assert float(cannot) == pytest.approx(float(result.cannot_afford), abs=5e-7)


def test_the_live_dealer_report_says_what_a_dealer_blackjack_takes():
    """Issue 19: the page said "dealer blackjack takes: live" without saying what that means.
    The game's text: a double loses both bets to an ace-up blackjack and gets the double back
    against a ten-up one; split hands are all lost."""
    page = (pathlib.Path(__file__).resolve().parent.parent / "tables" / "live-dealer-report.html").read_text()
    assert ("live: a double loses both bets to an ace-up blackjack, only the original bet to a ten-up one; "
            "a split loses every hand") in page
