"""The command line of issue 11: seen cards (``--removed``) on every command that analyses the
game's shoe, ``bjcalc eor`` (effects of removal) and ``bjcalc count`` (count systems).

Wiring, on tiny shoes: the numbers themselves are proved in tests/test_counting.py. Literal
values here are worked out by hand in the comments beside them.
"""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from bjcalc.cli import cli

TINY = ("--shoe", "1,1,1,1,1,1,1,1,1,8")
# eor and count analyse the shoe once more without each rank: 26 cards, a card limit, no splits
SMALL = ("--shoe", "2,2,2,2,2,2,2,2,2,8", "--max-cards", "4", "--split-hands", "1", "--workers", "1")
RANKS = list("23456789TA")
HI_LO = "1,1,1,1,1,0,0,0,-1,-1"


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, (args, result.output)
    return result


def run_json(*args: str) -> dict:
    return json.loads(run(*args, "--format", "json").stdout)


# -- seen cards on every command ------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["hand", "T,6", "--up", "7"], ["dealer", "7"], ["edge"], ["chart"], ["betbehind"], ["report"],
])
def test_removed_cards_leave_the_shoe_in_the_rules_block_and_the_text(command):
    # 1,1,...,1,8 less 2 and a ten: no 2 left, 7 tens
    out = run_json(*command, *TINY, "--removed", "2,K", "--split-hands", "2")
    assert out["rules"]["shoe_counts"] == [1, 0, 1, 1, 1, 1, 1, 1, 1, 7]
    assert out["rules"]["decks"] is None
    text = run(*command, *TINY, "--removed", "2,K", "--split-hands", "2").stdout
    assert "counts A..T 1,1,1,1,1,1,1,1,1,8 less 2,T" in text


def test_a_hand_from_a_depleted_shoe_is_the_hand_from_that_shoe_given_by_counts():
    removed = run_json("hand", "T,6", "--up", "T", "--decks", "1", "--removed", "A,5", "--exact")
    counted = run_json("hand", "T,6", "--up", "T", "--shoe", "3,4,4,4,3,4,4,4,4,16", "--exact")
    assert removed == counted
    first = run("hand", "T,6", "--up", "T", "--decks", "1", "--removed", "a, 5").stdout.splitlines()[0]
    assert first.startswith("T,6 v T   1 deck less A,5, S17, BJ pays 3:2")


def test_many_seen_cards_are_counted_not_listed_and_blank_means_none():
    seen = ",".join("2345678923456")  # 13 cards: two each of 2..6, one each of 7..9
    text = run("dealer", "6", "--decks", "1", "--removed", seen).stdout
    assert "1 deck less 13 seen cards (counts A..T 4,2,2,2,2,2,3,3,3,16 left)" in text
    assert run_json("dealer", "6", "--decks", "1", "--removed", " ") == run_json("dealer", "6", "--decks", "1")


def test_the_report_names_the_seen_cards():
    text = run("report", *TINY, "--removed", "9", "--split-hands", "1").stdout
    assert text.splitlines()[0].endswith("(with rule changes; 1 seen card removed)")
    assert "counts A..T 1,1,1,1,1,1,1,1,1,8 less 9 (counts A..T 1,1,1,1,1,1,1,1,0,8 left)" in text


# -- eor ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def eor_exact() -> dict:
    return run_json("eor", *SMALL, "--exact", "--play", "T,6 v T stand hit", "--insurance")


def test_eor_json_has_every_rank_in_order_and_an_exact_zero_weighted_sum(eor_exact):
    out = eor_exact
    assert out["command"] == "eor" and out["frame"] == "unconditional"
    assert out["strategy"]["chart"] and "held fixed" in out["strategy"]["label"]
    for key in ("ev_after_removal", "eor", "eor_percent"):
        assert list(out[key]) == RANKS and list(out["exact"][key]) == RANKS
    exact = out["exact"]
    for rank in RANKS:
        assert Fraction(exact["eor"][rank]) == Fraction(exact["ev_after_removal"][rank]) - Fraction(exact["ev"])
        assert Fraction(exact["eor_percent"][rank]) == 100 * Fraction(exact["eor"][rank])
    # the burn-card theorem: 2 cards of each of A..9 and 8 tens, a fixed chart
    counts = dict(zip(RANKS, [2] * 8 + [8, 2]))
    assert sum(counts[r] * Fraction(exact["eor"][r]) for r in RANKS) == 0
    assert exact["weighted_sum"] == "0" and out["weighted_sum"] == 0


def test_eor_play_rows_are_the_hand_commands_differences(eor_exact):
    play, insurance = eor_exact["plays"]
    assert (play["hand"], play["up"], play["first"], play["second"]) == ("T,6", "T", "stand", "hit")
    assert play["frame"] == "conditioned" and play["unit"] == "initial_bet" and play["strategy"]["play"] == "CD"
    hand = run_json("hand", "T,6", "--up", "T", *SMALL[:6], "--exact")["exact"]
    assert Fraction(eor_exact["exact"]["plays"][0]["difference"]) == Fraction(hand["stand"]) - Fraction(hand["hit"])
    five = run_json("hand", "T,6", "--up", "T", *SMALL[:6], "--removed", "5", "--exact")["exact"]
    assert Fraction(eor_exact["exact"]["plays"][0]["eor"]["5"]) == (
        Fraction(five["stand"]) - Fraction(five["hit"]) - Fraction(hand["stand"]) + Fraction(hand["hit"]))
    # insurance off the top, ace up: 25 cards left, 8 tens: (3 x 8 - 25) / 25; without a ten
    # (3 x 7 - 24) / 24 = -1/8, without another card (3 x 8 - 24) / 24 = 0
    assert insurance["unit"] == "insurance_bet" and insurance["strategy"] is None
    mirror = eor_exact["exact"]["plays"][1]
    assert mirror["difference"] == "-1/25"
    assert mirror["eor"]["T"] == str(Fraction(-1, 8) + Fraction(1, 25)) and mirror["eor"]["2"] == "1/25"


def test_eor_text_table_and_exact_check():
    text = run("eor", *SMALL, "--exact", "--play", "T,6 v T stand hit", "--insurance").stdout
    lines = text.splitlines()
    assert lines[0].startswith("Effects of removal   counts A..T 2,2,2,2,2,2,2,2,2,8, S17")
    assert lines[1] == "strategy: basic, held fixed (chart; split hands by the chart)"
    assert lines[2].startswith("EV per round before removal: ") and "per initial bet" in lines[2]
    header = next(line for line in lines if line.split()[:2] == ["frame", "EV"])
    assert header.split()[2:] == RANKS
    rows = {line.split("  ")[0]: line for line in lines}
    assert "round" in rows and "T,6 v T: stand - hit" in rows and "insurance v A (per unit insured)" in rows
    assert rows["insurance v A (per unit insured)"].split()[-10:] == ["+4.0000"] * 8 + ["-8.5000", "+4.0000"]
    assert "check: sum over ranks of (cards of the rank) x EOR = 0 (exactly 0, as for any fixed chart" in text
    assert ["EOR", "T", "-17/200"] in [line.split() for line in lines]  # exact values below the table


def test_eor_in_float_mode_labels_the_check_as_rounding():
    text = run("eor", *SMALL).stdout
    check = next(line for line in text.splitlines() if line.startswith("check:"))
    value = float(check.split("= ")[1].split()[0])
    assert abs(value) < 1e-12 and "0 up to float rounding" in check


def test_eor_cd_with_post_split_and_removed():
    out = run_json("eor", *SMALL[:4], "--split-hands", "2", "--workers", "1", "--strategy", "cd",
                   "--post-split", "cdp", "--removed", "A,5")
    assert out["strategy"] == {"label": "CD; split hands CDP", "play": "CD", "chart": False, "split_hands": "CDP"}
    assert out["rules"]["shoe_counts"] == [1, 2, 2, 2, 1, 2, 2, 2, 2, 8]
    assert list(out["eor"]) == RANKS and out["plays"] == []
    text = run("eor", *SMALL, "--strategy", "basic").stdout
    assert "strategy: basic, re-derived for each shoe" in text
    assert "(not 0: the play is re-derived for each shoe)" in text


def test_eor_holds_a_chart_file_fixed(tmp_path):
    path = tmp_path / "chart.csv"
    path.write_text(run("chart", *SMALL[:6], "--format", "csv").stdout)
    from_file = run_json("eor", *SMALL, "--chart", str(path))
    default = run_json("eor", *SMALL)
    assert from_file["eor"] == default["eor"]
    assert from_file["strategy"]["play"] == f"chart {path}, held fixed" and default["strategy"]["play"] == (
        "basic, held fixed")


def test_eor_markdown_and_csv():
    markdown = run("eor", *SMALL, "--format", "markdown", "--insurance").stdout
    assert markdown.startswith("# Effects of removal: counts A..T 2,2,2,2,2,2,2,2,2,8")
    assert "| round " in markdown and "check: sum over ranks" in markdown
    lines = run("eor", *SMALL, "--format", "csv", "--insurance", "--exact").stdout.splitlines()
    assert lines[0] == "row,frame,bet,ev_or_difference_per_bet," + ",".join(f"eor_{r}_percent_of_bet" for r in RANKS)
    assert len(lines) == 3 and lines[2].startswith("insurance v A,unconditional,insurance_bet,-1/25,4,4,")
    assert lines[2].endswith(",-17/2,4")  # the ten's EOR in percent: 100 x -17/200


def test_eor_workers_give_the_numbers_of_one_process(monkeypatch):
    monkeypatch.setattr("bjcalc.cli.common._on_terminal", lambda: True)  # off a terminal, no line per shoe
    result = CliRunner().invoke(cli, ["eor", *SMALL[:6], "--workers", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["eor"] == run_json("eor", *SMALL)["eor"]
    assert "without one A" in result.stderr  # the progress bar names each shoe


# -- count ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def count_exact() -> dict:
    return run_json("count", *SMALL, "--exact", "--system", "hi-lo", "--system", "ko", "--tags", HI_LO,
                    "--play", "T,6 v T stand hit", "--insurance")


def test_count_tags_equal_to_hi_lo_give_hi_los_figures(count_exact):
    hi_lo, ko, custom = count_exact["systems"]
    assert (hi_lo["system"], ko["system"], custom["system"]) == ("hi-lo", "ko", "custom")
    assert custom["tags"] == hi_lo["tags"] == dict(zip(RANKS, [1, 1, 1, 1, 1, 0, 0, 0, -1, -1]))
    assert custom["betting_correlation"] == hi_lo["betting_correlation"]
    assert custom["indices"] == hi_lo["indices"]
    assert hi_lo["balanced"] and not ko["balanced"] and hi_lo["linear_estimate"]


def test_count_insurance_index_worked_by_hand(count_exact):
    # Ace up, 25 cards left (1 A, two each of 2..9, 8 T): insurance is worth -1/25; removing a
    # ten changes it by -17/200, any other card by +1/25. Hi-Lo tags weighted by the shoe left:
    # mean 1/25, variance 474/625, covariance with the EORs 26/625, so the slope per true count
    # is 26/474 x 24/52 = 2/79 and the index (1/25) / (2/79) - 52/25 = -1/2.
    hi_lo = count_exact["systems"][0]
    play, insurance = hi_lo["indices"]
    assert insurance == {"play": "insurance v A", "index": -0.5, "deviate": "at_or_above"}
    assert count_exact["exact"]["systems"][0]["indices"][1] == {"index": "-1/2"}
    assert play["play"] == "T,6 v T: stand - hit" and play["deviate"] == "at_or_above" and play["index"] > 0


def test_count_text_lists_all_eight_systems_by_default():
    text = run("count", *SMALL, "--insurance").stdout
    lines = text.splitlines()
    assert lines[0].startswith("Count systems   counts A..T 2,2,2,2,2,2,2,2,2,8")
    assert "strategy: basic, held fixed" in lines[1]
    header = next(line for line in lines if line.startswith("system "))
    assert header.split()[1:11] == RANKS and "linear estimate" in header
    names = ["hi-lo", "ko", "hi-opt-i", "hi-opt-ii", "omega-ii", "zen", "wong-halves", "uston-apc"]
    rows: dict = {}
    for line in lines:  # the first table; the indices' table has a row per system too
        if line.split() and line.split()[0] in names:
            rows.setdefault(line.split()[0], line.split())
    assert list(rows) == names
    assert rows["wong-halves"][1:11] == ["+1/2", "+1", "+1", "+3/2", "+1", "+1/2", "0", "-1/2", "-1", "-1"]
    assert rows["ko"][11] == "no" and rows["hi-lo"][11] == "yes"
    assert "indices (linear estimate; true count per deck remaining)" in text
    assert ">= -0.5" in text  # Hi-Lo's insurance index, worked out above


def test_count_markdown_and_csv():
    markdown = run("count", *SMALL, "--system", "zen", "--format", "markdown").stdout
    assert markdown.startswith("# Count systems: counts A..T") and "| zen " in markdown
    lines = run("count", *SMALL, "--system", "wong-halves", "--insurance", "--format", "csv").stdout.splitlines()
    assert lines[0].split(",")[:11] == ["system"] + [f"tag_{r}" for r in RANKS]
    assert lines[0].endswith("index: insurance v A,deviate: insurance v A")
    assert lines[1].startswith("wong-halves,0.5,1,1,1.5,1,0.5,0,-0.5,-1,-1,yes,")
    assert lines[1].endswith(",at_or_above")
