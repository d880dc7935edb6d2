"""``bjcalc insurance-index``: the table's numbers are the brute-force oracle's
(tests/oracles/naive_countshoe.py) on tiny shoes; bad input is one line and exit status 2."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from oracles import naive_countshoe as naive

from bjcalc.cli import cli
from bjcalc.systems import SYSTEMS

SHOE = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)  # 13 cards
SHOE_TEXT = ",".join(map(str, SHOE))


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["insurance-index", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def brute_index(tags, hand, cards_left, irc=0):
    seen = sum(SHOE) - len(hand) - 1 - cards_left
    counts = naive.possible_running_counts(SHOE, tags, hand, seen, irc)
    evs = {rc: naive.insurance_ev(SHOE, tags, hand, seen, rc, irc) for rc in counts}
    index = None
    for rc in reversed(counts):
        if evs[rc] <= 0:
            break
        index = rc
    return index, evs


@pytest.mark.parametrize("args, tags, irc", [
    (["--count", "hi-lo"], SYSTEMS["hi-lo"], 0),
    (["--count", "ko", "--irc", "-1"], SYSTEMS["ko"], -1),
    (["--tags", ".5,1,1,1.5,1,.5,0,-.5,-1,-1"], SYSTEMS["wong-halves"], 0),
    (["--count", "omega-ii"], SYSTEMS["omega-ii"], 0),
])
def test_the_csv_table_is_the_brute_force_one(args, tags, irc):
    out = run("--shoe", SHOE_TEXT, "--hand", "5,6", *args, "--format", "csv", "--exact")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["cards_left"]) for r in rows] == list(range(10, 0, -1))
    for row in rows:
        index, evs = brute_index(tags, [4, 5], int(row["cards_left"]), irc)
        if index is None:
            assert row["running_count"] == ""
            continue
        assert Fraction(row["running_count"]) == index
        assert Fraction(row["ev"]) == evs[index]
        assert Fraction(row["true_count"]) == index * 52 / int(row["cards_left"])


def test_json_and_text_carry_the_same_index():
    data = json.loads(run("--shoe", SHOE_TEXT, "--hand", "T,T", "--cards-left", "5", "--format", "json", "--exact"))
    assert data["command"] == "insurance-index" and data["hand"] == "T,T"
    index, evs = brute_index(SYSTEMS["hi-lo"], [9, 9], 5)
    assert Fraction(data["exact"]["rows"][0]["running_count"]) == index
    assert Fraction(data["exact"]["rows"][0]["ev_at_index"]) == evs[index]
    text = run("--shoe", SHOE_TEXT, "--hand", "T,T", "--cards-left", "5")
    assert "count: hi-lo" in text and "T,T and the dealer's ace" in text
    assert "EV there" in run("--shoe", SHOE_TEXT, "--format", "markdown")


@pytest.mark.parametrize("args, words", [
    (["--hand", "T"], "--hand must be two cards"),
    (["--count", "hi-lo", "--tags", "1,1,1,1,1,0,0,0,-1,-1"], "contradict"),
    (["--count", "nope"], "unknown count system 'nope'"),
    (["--tags", "1,2"], "tags must be ten numbers"),
    (["--irc", "x"], "--irc"),
    (["--cards-left", "a"], "--cards-left"),
    (["--cards-left", "60"], "cards left must be a whole number from 1 to 12"),
    (["--decks", "inf"], "infinite deck has no count"),
    (["--shoe", "0,1,1,1,1,1,1,1,1,4"], "visible card 'A' is not in the shoe"),
    (["--hand", "T,X"], "unknown card 'X'"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    base = [] if "--decks" in args or "--shoe" in args else ["--shoe", SHOE_TEXT]
    result = CliRunner().invoke(cli, ["insurance-index", *base, *args])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and result.stderr.count("\n") == 1, result.stderr
