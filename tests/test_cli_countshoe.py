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
from bjcalc.counting.systems import SYSTEMS

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


# -- the counter's shoe on hand, dealer, edge and chart ---------------------------------------------

from oracles import naive_counthand as counted  # noqa: E402
from oracles.naive_reference import DEFAULT_RULES  # noqa: E402

SMALL = (2, 1, 0, 0, 1, 1, 1, 2, 0, 5)  # 13 cards
SMALL_TEXT = ",".join(map(str, SMALL))
# the oracle's rules (DEFAULT_RULES: S17, 3:2, DAS, double any, no surrender, peek) as options
AS_ORACLE = ("--shoe", SMALL_TEXT, "--s17", "--surrender", "none", "--peek")


def run_command(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("discard_count", [-1, 0, 1])
def test_hand_on_a_counters_shoe_is_the_oracles(discard_count):
    """T,6 against a ten with two discards: the running count shown counts them and the three
    cards on the table (T,6,T: -1)."""
    result = run_command("hand", "T,6", "--up", "T", *AS_ORACLE, "--count", "hi-lo",
                         "--running-count", str(discard_count - 1), "--cards-seen", "5", "--format", "json", "--exact")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    want = counted.count_hand(SMALL, (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), 2, discard_count, 10, (10, 6), DEFAULT_RULES)
    assert Fraction(out["exact"]["stand"]) == want["stand"] and Fraction(out["exact"]["hit"]) == want["hit"]
    assert out["counter"]["running_count"] == discard_count - 1 and out["counter"]["on_table"] == "T,6,T"
    assert out["counter"]["cards_seen"] == 5 and out["counter"]["cards_left"] == 8


def test_dealer_on_a_counters_shoe_is_the_oracles():
    result = run_command("dealer", "6", *AS_ORACLE, "--count", "hi-lo", "--running-count", "2", "--cards-seen", "3",
                         "--format", "json", "--exact")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    # the 6 (+1) is on the table: the two discards count +1
    want = counted.count_dealer(SMALL, (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1), 2, 1, 6, DEFAULT_RULES)
    got = out["exact"]["probabilities"]["6"]
    assert {k: Fraction(v) for k, v in got.items() if Fraction(v)} == {str(k): v for k, v in want.items() if v}


def test_text_outputs_say_they_are_for_the_counters_shoe():
    for args in (["hand", "T,6", "--up", "T"], ["dealer", "6"], ["edge"], ["chart"], ["betbehind"], ["matrix"]):
        result = run_command(*args, "--decks", "1", "--count", "hi-lo", "--true-count", "2", "--cards-seen", "26")
        assert result.exit_code == 0, (args, result.output)
        assert result.stdout.startswith("Counter's shoe: hi-lo running count"), args
        assert "not the ranks of the discards" in result.stdout


def test_the_standard_deviation_on_a_counters_shoe():
    result = run_command("edge", "--count", "hi-lo", "--running-count", "4", "--cards-seen", "52", "--decks", "2",
                         "--sd")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Counter's shoe: hi-lo running count +4 after 52 cards seen")
    line = next(x for x in result.stdout.splitlines() if x.startswith("standard deviation per round: "))
    sd, variance = float(line.split()[4]), float(line.split("(variance ")[1].split(",")[0])
    assert 1.1 < sd < 1.2 and abs(sd * sd - variance) < 1e-5


def test_betbehind_and_matrix_json_carry_the_counter_block():
    counter = ("--decks", "6", "--count", "hi-lo", "--true-count", "2", "--cards-seen", "104", "--format", "json")
    for args in (["matrix"], ["betbehind", "--seated", "basic", "--sd"]):
        result = run_command(*args, *counter)
        assert result.exit_code == 0, (args, result.output)
        out = json.loads(result.stdout)
        assert out["counter"]["running_count"] == 8 and out["counter"]["cards_seen"] == 104, args


@pytest.mark.parametrize("args, message", [
    (["hand", "T,6", "--up", "T", "--running-count", "2"], "--running-count is for a counter's shoe"),
    (["hand", "T,6", "--up", "T", "--count", "hi-lo", "--cards-seen", "10"], "--running-count or --true-count"),
    (["hand", "T,6", "--up", "T", "--count", "hi-lo", "--running-count", "2"], "--cards-seen"),
    (["hand", "T,6", "--up", "T", "--count", "hi-lo", "--running-count", "2", "--true-count", "1",
      "--cards-seen", "9"], "--running-count and --true-count contradict"),
    (["hand", "T,6", "--up", "T", "--count", "hi-lo", "--tags", "1,1,1,1,1,0,0,0,-1,-1", "--running-count", "2",
      "--cards-seen", "9"], "give one count"),
    (["hand", "T,6", "--up", "T", "--count", "hi-lo", "--running-count", "30", "--cards-seen", "9"],
     "running_count 30 cannot be reached with 6 cards seen and T,6,T on the table"),
    (["hand", "T,6", "--up", "T", "--count", "hi-lo", "--running-count", "0", "--cards-seen", "2"],
     "cards seen must be a whole number of at least 3"),
    (["hand", "T,6", "--up", "T", "--count", "hi-lo", "--running-count", "0", "--cards-seen", "60"],
     "cannot be more than the shoe's 52 cards"),
    (["edge", "--count", "hi-lo", "--true-count", "1/3", "--cards-seen", "0"], "which no set of cards makes"),
    (["edge", "--count", "hi-lo", "--running-count", "x", "--cards-seen", "5"], "running count must be a number"),
    (["edge", "--count", "nope", "--running-count", "1", "--cards-seen", "5"], "unknown count system 'nope'"),
    (["edge", "--count", "hi-lo", "--running-count", "1", "--cards-seen", "5", "--removed", "A,5"],
     "--removed and --count contradict"),
    (["edge", "--count", "hi-lo", "--running-count", "1", "--cards-seen", "5", "--decks", "inf"], "infinite deck"),
    (["betbehind", "--count", "hi-lo", "--running-count", "1"], "--cards-seen"),
    (["betbehind", "--count", "hi-lo", "--running-count", "1", "--cards-seen", "5", "--removed", "A,5"],
     "--removed and --count contradict"),
    (["matrix", "--true-count", "2", "--cards-seen", "5"], "--true-count is for a counter's shoe"),
    (["matrix", "--count", "hi-lo", "--running-count", "40", "--cards-seen", "5"], "cannot be reached"),
])
def test_bad_counter_options_get_one_line_and_exit_2(args, message):
    result = run_command(*args, *([] if "--decks" in args else ["--decks", "1"]))
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert message in result.stderr, result.stderr
