"""The command line: exact output, JSON keys, and one-line errors with exit status 2."""

import json

from click.testing import CliRunner

from bjcalc.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_hand_text_is_labelled_and_ranked():
    result = run("hand", "5,T", "--up", "T", "--decks", "1", "--h17", "--surrender", "none", "--max-cards", "0")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "5,T v T   1 deck, H17, BJ pays 3:2, double any, DAS, split to 4 hands, peek"
    assert "conditioned on no dealer blackjack" in lines[1]
    # Wizard of Odds hand calculator, 1 deck H17: hit -0.501091, stand -0.538433, double -1.002183
    assert lines[4].split() == ["hit", "-0.501091"]
    assert lines[5].split() == ["stand", "-0.538433"]
    assert lines[6].split() == ["double", "-1.002183"]
    assert lines[7] == "best: hit"


def test_hand_json_keys_and_exact_values():
    result = run("hand", "T6", "--up", "7", "--decks", "1", "--format", "json", "--exact")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    for key in ("stand", "hit", "double", "surrender", "insurance", "best", "conditioned", "strategy"):
        assert key in out
    assert out["conditioned"] is False and out["insurance"] is None and out["strategy"]["label"] == "CD"
    assert out["surrender"] == -0.5 and out["exact"]["surrender"] == "-1/2"
    assert "/" in out["exact"]["stand"] and isinstance(out["stand"], float)


def test_hand_insurance_against_ace():
    # 1 deck, 9,9 v A: 49 cards left, 16 tens: (32 - 33) / 49
    out = json.loads(run("hand", "9,9", "--up", "A", "--decks", "1", "--format", "json", "--exact").output)
    assert out["exact"]["insurance"] == "-1/49"


def test_dealer_json_sums_to_one_exactly():
    from fractions import Fraction

    result = run("dealer", "--decks", "2", "--format", "json", "--exact")
    assert result.exit_code == 0, result.output
    tables = json.loads(result.output)["exact"]["probabilities"]
    assert list(tables) == list("23456789TA")
    for up, table in tables.items():
        assert sum(Fraction(p) for p in table.values()) == 1, up
        assert "blackjack" in table


def test_dealer_peeked_drops_blackjack():
    out = json.loads(run("dealer", "A", "--decks", "1", "--peeked", "--format", "json").output)["probabilities"]
    # Wizard of Odds appendix 2A, 1 deck S17, ace up after the peek: 17 = 0.183786
    assert list(out) == ["A"] and "blackjack" not in out["A"]
    assert f"{out['A']['17']:.6f}" == "0.183786"


def test_games_lists_presets_with_assumptions():
    result = run("games")
    assert result.exit_code == 0
    for name in ("atlantic-city-gold", "us-shoe", "live-dealer"):
        assert name in result.output
    assert "assumed (text silent): 6 decks" in result.output
    data = json.loads(run("games", "--format", "json").output)["games"]
    assert {g["name"] for g in data} == {"atlantic-city-gold", "us-shoe", "live-dealer"}
    live = next(g for g in data if g["name"] == "live-dealer")
    assert live["rules"]["charlie"] == 10 and live["rules"]["hole_card"] == "none"


def test_options_override_the_preset():
    out = json.loads(run("hand", "T6", "--up", "9", "--game", "live-dealer", "--surrender", "late",
                         "--format", "json").output)
    assert out["rules"]["surrender"] == "late" and out["rules"]["charlie"] == 10


def test_too_small_shoe_is_refused():
    result = run("hand", "T6", "--up", "6", "--shoe", "0,0,0,0,0,1,0,0,0,2")
    assert result.exit_code == 2 and "has 3 cards left: a round needs at least 4" in result.output


def test_a_shoe_dealt_to_its_last_cards_is_analysed():
    """Issue 42: four cards, T,6 v 6 and a ten in the hole: standing, the dealer draws to 16
    from an empty shoe. The hand is dealt; the run-out is reported."""
    result = run("hand", "T6", "--up", "6", "--shoe", "0,0,0,0,0,2,0,0,0,2")
    assert result.exit_code == 0, result.output
    assert "runs out of cards with probability" in result.output and "void" in result.output


def test_chart_default_game_text():
    result = run("chart")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Basic strategy (total-dependent)   8 decks, S17")
    assert "Hard totals" in out and "Soft totals" in out and "Pairs" in out
    assert "\x1b[" not in out  # no colour codes when not writing to a terminal
    assert "house edge" in out and "unconditional" in out


def test_chart_csv_and_json_formats():
    csv_out = run("chart", "--decks", "2", "--format", "csv").output.splitlines()
    assert csv_out[0] == "table,row,2,3,4,5,6,7,8,9,T,A"
    assert len(csv_out) == 1 + 18 + 10 + 10
    data = json.loads(run("chart", "--decks", "2", "--format", "json").output)
    assert set(data["hard"]) == {str(t) for t in range(4, 22)}
    assert data["pairs"]["8"]["6"] == "P" and data["strategy"]["play"] == "basic"
    md = run("chart", "--decks", "2", "--format", "markdown").output
    assert md.startswith("# Basic strategy") and "|" in md


def test_edge_json_keys_and_strategies():
    out = json.loads(run("edge", "--decks", "1", "--h17", "--surrender", "late", "--format", "json",
                         "--strategy", "cdp", "--max-cards", "0").output)
    assert set(out) >= {"ev", "house_edge", "by_upcard", "strategy"}
    assert out["house_edge"] == -out["ev"]
    # Wizard of Odds, 1 deck H17 DOA DAS RS4 peek LS: -0.030 %
    assert f"{100 * out['house_edge']:.3f}" == "-0.030"
    assert set(out["by_upcard"]) == set("A23456789T")
    exact = json.loads(run("edge", "--decks", "1", "--split-hands", "2", "--format", "json", "--exact").output)
    assert "/" in exact["exact"]["ev"]


def test_hand_gains_split():
    out = json.loads(run("hand", "A,A", "--up", "T", "--decks", "1", "--split-hands", "2",
                         "--surrender", "none", "--max-cards", "0", "--format", "json").output)
    # MGP's CA, 1 deck S17 DAS, split to 2 hands, one card to split aces: 0.19425144166419975
    assert abs(out["split"] - 0.19425144166419975) < 1e-15
    assert out["best"] == "split"


def test_edge_rejects_unknown_strategy():
    result = run("edge", "--strategy", "perfect")
    assert result.exit_code == 2 and result.output.count("\n") == 1


def test_same_face_ten_splitting_needs_four_equal_faces():
    result = run("edge", "--no-unlike-tens", "--shoe", "4,4,4,4,4,4,4,4,4,15")
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "split_unlike_tens=False needs the ten-valued cards in four equal faces" in result.output
    assert run("hand", "K,Q", "--up", "6", "--no-unlike-tens", "--decks", "1").exit_code == 0


def test_sidebets_command():
    out = json.loads(run("sidebets", "--decks", "8", "--format", "json", "--exact").output)
    # Wizard of Odds, Perfect Pairs 25/12/6, 8 decks: 1456/1664/3328/79872 of 86320, -0.040964
    pp = out["perfect_pairs"]
    assert pp["total_combinations"] == 86320 and out["exact"]["perfect_pairs"]["expected_return"] == "-17/415"
    assert [c["combinations"] for c in pp["categories"].values()] == [1456, 1664, 3328, 79872]
    nine = json.loads(run("sidebets", "--decks", "6", "--21+3-pays", "9/9/9/9/9", "--format", "json").output)
    # Wizard of Odds: 21+3 paying 9:1 on every win, 6 decks: -0.032386
    assert f"{nine['twenty_one_plus_three']['expected_return']:.6f}" == "-0.032386"
    assert run("sidebets", "--shoe", "1,1,1,1,1,1,1,1,1,4").exit_code == 2
    assert run("sidebets", "--removed", "Ah Zz").exit_code == 2


def test_betbehind_output_and_following_everything_is_the_round():
    shoe = ["--shoe", "2,2,2,2,2,2,2,2,2,8", "--exact"]
    text = run("betbehind", *shoe)
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[0].startswith("Bet Behind   counts A..T 2,2,2,2,2,2,2,2,2,8")
    assert "EV per unit bet behind, unconditional" in lines[1]
    out = json.loads(run("betbehind", *shoe, "--format", "json").output)
    assert set(out) == {"schema", "command", "strategy", "frame", "follows_everything", "cannot_afford", "rules",
                        "exact"}
    # following every decision of an optimal seated player earns that player's EV: the round's
    edge = json.loads(run("edge", *shoe, "--format", "json").output)
    assert out["exact"]["follows_everything"]["ev"] == edge["exact"]["ev"]
    assert out["follows_everything"]["ev"] == edge["ev"]
    # and its spread is that player's round's: --sd prints it in text as in JSON
    text = run("betbehind", *shoe, "--sd").stdout
    sd = json.loads(run("edge", *shoe, "--sd", "--format", "json").stdout)["sd"]
    line = next(row for row in text.splitlines() if row.startswith("standard deviation per round of the bet"))
    assert f"{sd:.6f}" in line, (line, sd)


def test_player_and_dealer_card_limits_are_separate_options():
    import json

    from click.testing import CliRunner

    from bjcalc.cli import cli

    run = CliRunner().invoke(cli, ["edge", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--player-max-cards", "5",
                                   "--dealer-max-cards", "0", "--format", "json"])
    assert run.exit_code == 0, run.output
    rules = json.loads(run.output)["rules"]
    assert (rules["player_max_cards"], rules["dealer_max_cards"]) == (5, None)
    both = CliRunner().invoke(cli, ["edge", "--max-cards", "5", "--dealer-max-cards", "4"])
    assert both.exit_code == 2 and "--max-cards 5 and --dealer-max-cards 4" in both.output
