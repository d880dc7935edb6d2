"""A one-deck shoe with 10 cards left (issue 42): every command of the README runs on it, and
every output that has EVs says how likely its deal is to run out of cards.

The chances themselves are checked against a brute force in tests/test_lastcards.py; here:
the commands finish cleanly (exit 0, nothing on stderr but progress, no warning), the matrix's
chances add up to exactly 1 with the deals that run out, Bet Behind's run-out chance is the
brute force's, the chart's page drops the up cards the shoe cannot deal, a total named play
(``16 v T``) says which ranks it cannot take out, and a split too large to walk is bounded
above, not guessed.
"""

from __future__ import annotations

import json
import subprocess
import warnings
from fractions import Fraction
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from oracles.naive_lastcards import Rules as OracleRules
from oracles.naive_lastcards import round_runout_probability
from test_html import _NEEDS_BROWSER, Page, _headless

from bjcalc import Analysis, Rules
from bjcalc.cli import cli
from bjcalc.engine import runout
from bjcalc.render.common import index_run_out

# 42 cards seen of one deck: what is left is four aces, four twos and two threes, so the dealer
# shows only 2, 3 or A and almost every round can run out
SEEN = ",".join(["3"] * 2 + [r for r in "456789" for _ in range(4)] + ["T"] * 16)
DEEP = ["--decks", "1", "--removed", SEEN]
# the same depth with suits, for the side bets (T, J, Q and K are four faces there)
SEEN_SUITED = ",".join(["3"] * 2 + [r for r in "456789TJQK" for _ in range(4)])
# a counter's shoe at that depth: 10 cards left, Hi-Lo running count +3
COUNTED = ["--decks", "1", "--count", "hi-lo", "--running-count", "3", "--cards-seen", "42"]

COMMANDS = {
    "chart": ["chart", *DEEP],
    "chart markdown": ["chart", *DEEP, "--h17", "--format", "markdown"],
    "chart classic": ["chart", *DEEP, "--h17", "--classic"],
    "chart html": ["chart", *DEEP, "--format", "html"],
    "edge": ["edge", *DEEP, "--game", "us-shoe"],
    "edge sd": ["edge", *DEEP, "--sd"],
    "edge basic exact": ["edge", *DEEP, "--strategy", "basic", "--exact"],
    "report html": ["report", *DEEP, "--game", "live-dealer", "--format", "html"],
    "effects": ["effects", *DEEP, "--game", "atlantic-city-gold"],
    "sidebets": ["sidebets", "--decks", "1", "--removed", SEEN_SUITED],
    "betbehind": ["betbehind", *DEEP, "--game", "live-dealer", "--seated", "basic"],
    "dealer": ["dealer", *DEEP],
    "dealer peeked exact": ["dealer", "A", *DEEP, "--peeked", "--exact"],
    "hand": ["hand", "2,2", "--up", "A", *DEEP],
    "hand json": ["hand", "A,2", "--up", "2", *DEEP, "--h17", "--format", "json"],
    "eor": ["eor", *DEEP, "--play", "A,2 v 3 stand hit"],
    "count": ["count", *DEEP, "--play", "A,2 v 3 stand hit"],
    "matrix": ["matrix", *DEEP, "--format", "csv"],
    "insurance-index": ["insurance-index", "--shoe", "4,4,2,0,0,0,0,0,0,0"],
    "counted edge": ["edge", *COUNTED, "--sd"],
    "counted hand": ["hand", "5,6", "--up", "A", *COUNTED],
    "counted chart": ["chart", *COUNTED, "--format", "html"],
}


def run(args: list[str]):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a division by zero in numpy is a failure, not a note
        return CliRunner().invoke(cli, args)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_readme_command_runs_with_10_cards_left(name):
    result = run(COMMANDS[name])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 0, (name, result.output)
    assert result.stdout.strip()
    assert "Error" not in result.stderr and "Warning" not in result.stderr, result.stderr


def test_the_matrix_adds_up_with_the_deals_that_run_out():
    """Each cell's win + push + loss + run_out is exactly 1, and so is the round's with its
    resplits; the deep shoe is one where the round runs out (void) with chance above 0."""
    data = json.loads(run(["matrix", *DEEP, "--exact", "--format", "json"]).stdout)["exact"]
    assert Fraction(data["round"]["run_out"]["probability"]) > 0
    round_ = data["round"]
    assert sum(Fraction(round_[k]) for k in ("win", "push", "loss", "split")) \
        + Fraction(round_["run_out"]["probability"]) == 1
    assert any(Fraction(cell["run_out"]) > 0 for cell in data["cells"])
    for cell in data["cells"]:
        if "win" in cell:
            assert sum(Fraction(cell[k]) for k in ("win", "push", "loss", "run_out")) == 1, cell["hand"]
    text = run(["matrix", *DEEP]).stdout
    assert "round: runs out of cards with probability" in text
    heads = [line for line in text.splitlines() if line.startswith("hand ")]
    assert heads and all(line.rstrip().endswith("run out") for line in heads)


def test_no_run_out_column_where_no_deal_can_run_out():
    text = run(["matrix", "--shoe", "1,1,1,1,1,1,1,1,1,1"]).stdout
    assert "run out" not in text
    assert "run_out" not in run(["matrix", "--shoe", "1,1,1,1,1,1,1,1,1,1", "--format", "csv"]).stdout


@pytest.mark.parametrize("shoe", [(2, 0, 2, 2, 2, 0, 0, 0, 0, 1), (1, 3, 2, 2, 0, 2, 0, 0, 0, 0)])
def test_bet_behind_runs_out_with_the_seated_players_deal(shoe):
    """Behind a CD player (no splits, so bjcalc and the brute force play alike), the bet runs out
    exactly when the brute force's round does."""
    args = ["betbehind", "--shoe", ",".join(map(str, shoe)), "--split-hands", "1", "--seated", "optimal",
            "--exact", "--format", "json"]
    data = json.loads(run(args).stdout)["exact"]
    expected = round_runout_probability(shoe, (0,) * 10, OracleRules(split_hands=1))
    assert expected > 0
    assert Fraction(data["run_out"]["probability"]) == expected
    assert "the seated player's round runs out of cards" in run(args[:-2]).stdout


def test_a_play_named_by_its_total_skips_the_ranks_it_cannot_lose():
    """16 v T on a shoe of one card of each rank: with the 9 (or the 7) gone, no 16 is left to deal
    against the T, so those ranks have no EOR and say why; the others have one."""
    result = run(["eor", "--shoe", "1,1,1,1,1,1,1,1,1,1", "--play", "16 v T stand hit"])
    assert result.exit_code == 0, result.output
    assert "no EOR for 9 in hard 16" in result.stdout and "no EOR for 7 in hard 16" in result.stdout
    assert run(["count", "--shoe", "1,1,1,1,1,1,1,1,1,1", "--play", "16 v T stand hit"]).exit_code == 0


def test_a_split_too_large_to_walk_is_bounded_above(monkeypatch):
    """With room for only a few split states, the chance of running out is marked as a bound and
    is at least the fully walked chance."""
    shoe = (2, 2, 1, 1, 1, 1, 1, 1, 1, 2)
    walked = Analysis(Rules(shoe=shoe), exact=True).round()
    full = walked.run_out
    assert full is not None and full.exact
    monkeypatch.setattr(runout, "SPLIT_STATES", {False: 30, True: 30})
    cut = Analysis(Rules(shoe=shoe), exact=True).round()
    bounded = cut.run_out
    assert bounded is not None and not bounded.exact
    assert bounded.probability > full.probability and bounded.most >= full.most
    assert cut.ev == walked.ev  # the EVs never depend on the walk


@_NEEDS_BROWSER
def test_the_charts_page_has_a_column_for_each_up_card_the_shoe_holds(tmp_path):
    page_file = tmp_path / "chart.html"
    page_file.write_text(run(["chart", *DEEP, "--format", "html"]).stdout, encoding="utf-8")
    dom = subprocess.run(_headless(tmp_path) + ["--dump-dom", page_file.as_uri()], capture_output=True,
                         text=True, timeout=60, check=False).stdout
    page = Page(dom)
    assert not page.errors
    ups = [attrs.get("abbr") for tag, attrs, _ in page.elements if tag == "th" and (attrs.get("abbr") or "")
           .startswith("up ")]
    assert ups == ["up 2", "up 3", "up A"] * 3
    assert "No column for 4, 5, 6, 7, 8, 9, T" in dom


@pytest.mark.parametrize("command", [["eor", "--strategy", "cd"], ["effects"]])
def test_eor_and_effects_give_the_rounds_chance_of_running_out(command):
    """The EORs' starting round and the effects' game, played CD without splits: the brute force's
    chance; and the text says so."""
    shoe = (2, 0, 2, 2, 2, 0, 0, 0, 0, 1)
    args = [*command, "--shoe", ",".join(map(str, shoe)), "--split-hands", "1", "--workers", "1"] \
        if command[0] == "eor" else [*command, "--shoe", ",".join(map(str, shoe)), "--split-hands", "1"]
    data = json.loads(run([*args, "--exact", "--format", "json"]).stdout)["exact"]
    expected = round_runout_probability(shoe, (0,) * 10, OracleRules(split_hands=1))
    assert Fraction(data["run_out"]["probability"]) == expected
    assert "runs out of cards with probability" in run(args).stdout


def test_index_at_a_depth_that_can_run_out_says_what_its_evs_assume():
    """(index itself takes 15 s a depth: its heading's line is checked on the depths alone.) 39
    cards into one deck, 13 are left: the cheapest 13 cards of a deck (4 aces, 4 twos, 4 threes,
    a four) are worth 28, less than a round can take; 13 cards in, 39 are left, worth far more."""
    rules = Rules(decks=1)
    assert "a round dealt from 13 cards can run out" in index_run_out(SimpleNamespace(cards_seen=39), rules)[0]
    assert index_run_out(SimpleNamespace(cards_seen=13), rules) == []
