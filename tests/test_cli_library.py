"""Issue 19, item 3: the command line only parses, calls the library and renders; and the
new-user bugs that lived in its commands (classic charts, plays named by totals, --exact that
printed nothing exact, the EOR CSV's units, side bets by rank and on shoes without suits, the
tables written all or nothing, undefined correlations, exact arithmetic on huge shoes).

Oracles: the hand command's exact EVs for a total's hands, weighted by hand (the shoe's counts);
the edge command's exact house edge; side bets averaged over every suit by brute force here.
"""

import ast
import itertools
import json
import pathlib
import sys
from fractions import Fraction

import pytest
from click.testing import CliRunner

import bjcalc
from bjcalc.cli import cli

CLI = pathlib.Path(bjcalc.__file__).parent / "cli"  # the command line's package
RENDERERS = {"render.text", "render.markdown", "render.csvfile", "render.jsondoc", "render.html"}
SMALL = ("--shoe", "2,2,2,2,2,2,2,2,2,8", "--max-cards", "4", "--split-hands", "1")
TINY = ("--shoe", "1,1,1,1,1,1,1,1,1,8")


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, (args, result.output)
    return result


def run_json(*args: str) -> dict:
    return json.loads(run(*args, "--format", "json").stdout)


def refused(*args: str, message: str) -> None:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == "" and result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert message in result.stderr, result.stderr


# -- the command line imports only the front door -------------------------------------------------

def _imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append(("." * node.level + (node.module or ""), [alias.name for alias in node.names]))
    return out


def test_cli_imports_only_bjcalc_the_renderers_click_and_the_stdlib():
    wrong = []
    imports = [found for path in sorted(CLI.glob("*.py")) for found in _imports(ast.parse(path.read_text()))]
    for module, names in imports:
        top = module.split(".")[0]
        if module.startswith("bjcalc.cli"):  # the command line's own modules
            continue
        if module == "bjcalc":
            wrong += [f"bjcalc.{n}" for n in names if n not in bjcalc.__all__ and n not in RENDERERS]
        elif module in {f"bjcalc.{r}" for r in RENDERERS} or top == "click" or (
                top in sys.stdlib_module_names and not module.startswith(".")):
            continue
        else:
            wrong.append(module)
    assert not wrong, f"bjcalc/cli/ imports what is not public: {wrong}"


def test_the_import_walk_sees_a_private_import():
    tree = ast.parse("def f():\n    from bjcalc.counting.eor import parse_play\n    from bjcalc import _HOMES\n")
    assert _imports(tree) == [("bjcalc.counting.eor", ["parse_play"]), ("bjcalc", ["_HOMES"])]


def test_every_cli_number_is_one_library_call_away():
    rules = bjcalc.Rules(decks=None, shoe=(2, 2, 2, 2, 2, 2, 2, 2, 2, 8), player_max_cards=4, dealer_max_cards=4,
                         split_hands=1)
    table = bjcalc.count_table(rules, ["hi-lo"], plays=["T,6 v T stand hit"], insurance=True, workers=1)
    out = run_json("count", *SMALL, "--system", "hi-lo", "--play", "T,6 v T stand hit", "--insurance",
                   "--workers", "1")
    assert out["eor"]["A"] == pytest.approx(table.eor.removal.eor[bjcalc.Rank.ACE], abs=1e-15)
    assert out["systems"][0]["betting_correlation"] == pytest.approx(table.figures[0].betting_correlation)
    assert [p["play"] for p in out["plays"]] == [p.label for p in table.eor.plays]


# -- chart --classic ------------------------------------------------------------------------------

def test_classic_chart_has_one_play_per_total():
    two_card = run("chart", "--decks", "1", "--h17", "--format", "csv").stdout
    classic = run("chart", "--decks", "1", "--h17", "--format", "csv", "--classic").stdout
    assert "hard,12,H,H/S," in two_card  # 1 deck H17: a two-card 12 v 3 hits, a longer one stands
    cells = [cell for line in classic.splitlines()[1:] for cell in line.split(",")[1:]]
    assert cells and not any("/" in cell for cell in cells)


def test_classic_chart_round_trips_through_edge(tmp_path):
    path = tmp_path / "my-chart.csv"
    path.write_text(run("chart", "--decks", "1", "--h17", "--format", "csv", "--classic").stdout)
    by_file = run_json("edge", "--decks", "1", "--h17", "--chart", str(path))
    by_flag = run_json("edge", "--decks", "1", "--h17", "--strategy", "basic", "--classic")
    assert by_file["ev"] == pytest.approx(by_flag["ev"], abs=1e-14)


def test_the_readme_chart_file_round_trips(tmp_path):
    path = tmp_path / "my-chart.csv"
    path.write_text(run("chart", "--decks", "6", "--format", "csv").stdout)
    by_file = run_json("edge", "--decks", "6", "--chart", str(path))
    assert by_file["ev"] == pytest.approx(run_json("edge", "--decks", "6", "--strategy", "basic")["ev"], abs=1e-14)
    assert by_file["deviations"] == []


def test_classic_is_refused_where_no_chart_is_built():
    refused("edge", "--classic", message="--classic")
    refused("eor", *SMALL, "--strategy", "cd", "--classic", message="--classic")


# -- plays named by their total -------------------------------------------------------------------

def _evs(cards: str, up: str, *removed: str) -> dict:
    extra = ("--removed", ",".join(removed)) if removed else ()
    data = run_json("hand", cards, "--up", up, *SMALL, "--exact", *extra)["exact"]
    return {k: Fraction(v) for k, v in data.items()}


def test_a_total_is_every_hand_of_it_weighted_by_its_chance():
    out = run_json("eor", *SMALL, "--workers", "1", "--exact", "--play", "16 v T stand hit")
    play = out["exact"]["plays"][0]
    assert out["plays"][0]["play"] == "hard 16 (T,6 or 9,7) v T: stand - hit"  # it says which hands
    # shoe A..T 2,...,2,8 less the up T: 7 tens, two each of 6, 7, 9; both hands leave 2 aces
    # among 23 cards for the hole, so their no-blackjack factors are equal: weights 7*2 and 2*2
    t6, n7 = _evs("T,6", "T"), _evs("9,7", "T")
    expected = (14 * (t6["stand"] - t6["hit"]) + 4 * (n7["stand"] - n7["hit"])) / 18
    assert Fraction(play["difference"]) == expected
    # without a 6: 7*1 ways for T,6, still 4 for 9,7
    t6, n7 = _evs("T,6", "T", "6"), _evs("9,7", "T", "6")
    after = (7 * (t6["stand"] - t6["hit"]) + 4 * (n7["stand"] - n7["hit"])) / 11
    assert Fraction(play["eor"]["6"]) == after - expected


def test_totals_are_documented_and_bad_totals_refused():
    assert "s18" in run("eor", "--help").stdout.replace("\n", " ")
    refused("eor", *SMALL, "--play", "20 v T stand hit", message="no two-card hard 20")
    refused("eor", *SMALL, "--play", "s12 v T stand hit", message="no two-card soft 12")
    soft = run_json("eor", *SMALL, "--workers", "1", "--play", "soft18 v 9 stand hit")["plays"][0]
    cards = run_json("eor", *SMALL, "--workers", "1", "--play", "A,7 v 9 stand hit")["plays"][0]
    assert soft["difference"] == pytest.approx(cards["difference"], abs=1e-15)


# -- --exact prints exact numbers -----------------------------------------------------------------

def test_effects_exact_prints_exact_house_edges():
    two = (*TINY, "--split-hands", "2")  # resplitting to 4 hands on the tiny shoe costs seconds, not needed here
    text = run("effects", *two, "--exact").stdout
    edge = Fraction(run_json("edge", *two, "--exact")["exact"]["house_edge"])
    assert f"exactly {100 * edge} %" in text
    assert "house edge, exact (%)" in text and "house edge, exact" not in run("effects", *two).stdout


def test_count_exact_prints_the_exact_advantage_per_true_count():
    text = run("count", *SMALL, "--workers", "1", "--system", "hi-lo", "--exact").stdout
    csv = run("count", *SMALL, "--workers", "1", "--system", "hi-lo", "--exact", "--format", "csv").stdout
    floats = run_json("count", *SMALL, "--workers", "1", "--system", "hi-lo")["systems"][0]
    exact = Fraction(csv.splitlines()[1].split(",")[14])
    assert float(exact) == pytest.approx(floats["advantage_per_true_count_percent"], rel=1e-12)
    assert f"({exact} %)" in text


# -- the EOR CSV: one unit per column -------------------------------------------------------------

def test_eor_csv_names_the_unit_of_every_column():
    lines = run("eor", *SMALL, "--workers", "1", "--format", "csv").stdout.splitlines()
    data = run_json("eor", *SMALL, "--workers", "1")
    header, round_row = lines[0].split(","), lines[1].split(",")
    assert header[2:4] == ["bet", "ev_or_difference_per_bet"] and round_row[2] == "initial_bet"
    column = header.index("eor_A_percent_of_bet")
    assert float(round_row[column]) == pytest.approx(100 * data["eor"]["A"], rel=1e-12)


# -- side bets ------------------------------------------------------------------------------------

def test_sidebets_on_an_infinite_deck_says_what_it_needs():
    refused("sidebets", "--decks", "inf", message="shoe of suited cards: give --decks N")


def test_sidebets_take_ranks_of_unknown_suit_averaged_over_the_suits():
    from bjcalc.games.sidebets import SuitedShoe, twenty_one_plus_three

    out = run_json("sidebets", "--decks", "1", "--removed", "A,T,5", "--exact")
    total = Fraction(0)
    for suits in itertools.product("shdc", repeat=3):  # one deck: every suit equally likely
        shoe = SuitedShoe.of_decks(1).remove([f"A{suits[0]}", f"T{suits[1]}", f"5{suits[2]}"])
        total += twenty_one_plus_three(shoe).expected_return / 64
    assert Fraction(out["exact"]["twenty_one_plus_three"]["expected_return"]) == total
    assert out["removed"] == ["A", "T", "5"]


@pytest.mark.parametrize("args, why", [(["--decks", "inf"], "infinite deck"), (["--removed", "A,T,5"], "--removed")])
def test_report_says_why_the_side_bets_are_missing(args, why):
    # no splitting on the 1-deck shoe: the side bets do not depend on it, the resplit variance costs 3 s
    text = run("report", "--decks", "1", "--split-hands", "1", *args).stdout if args[0] == "--removed" else run(
        "report", *args).stdout
    section = text[text.index("Side bets:"):]
    assert section.splitlines()[2].startswith("no side bets:") and why in section


# -- tables ---------------------------------------------------------------------------------------

def test_tables_refuses_the_empty_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused("tables", "", message="must be named")
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_tables_run_leaves_nothing_half_written(tmp_path, monkeypatch):
    import bjcalc.tables

    def interrupted(directory, progress=lambda name: None):
        (directory / "one.md").write_text("half")
        raise KeyboardInterrupt

    monkeypatch.setattr(bjcalc.tables, "generate", interrupted)
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "README.md").write_text("as it was")
    for name in ("new", "old"):
        with pytest.raises(KeyboardInterrupt):
            bjcalc.write_tables(tmp_path / name)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old"]
    assert [p.name for p in (tmp_path / "old").iterdir()] == ["README.md"]


def test_tables_are_moved_in_place_when_done(tmp_path, monkeypatch):
    import bjcalc.tables

    def quick(directory, progress=lambda name: None):
        (directory / "a.md").write_text("new")
        return [directory / "a.md"]

    monkeypatch.setattr(bjcalc.tables, "generate", quick)
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.md").write_text("old")
    (tmp_path / "t" / "mine.txt").write_text("kept")
    assert bjcalc.write_tables(tmp_path / "t") == [tmp_path / "t" / "a.md"]
    assert (tmp_path / "t" / "a.md").read_text() == "new" and (tmp_path / "t" / "mine.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t"]


# -- correlations that are undefined --------------------------------------------------------------

def test_a_count_of_equal_tags_is_refused():
    refused("count", *SMALL, "--tags", "0,0,0,0,0,0,0,0,0,0", message="same tag")
    refused("count", *SMALL, "--tags", "1,1,1,1,1,1,1,1,1,1", message="same tag")


def test_no_ace_left_no_insurance_correlation():
    out = run_json("count", "--decks", "1", "--removed", "A,A,A,A", "--system", "hi-lo", "--workers", "1")
    assert out["systems"][0]["insurance_correlation"] is None
    text = run("count", "--decks", "1", "--removed", "A,A,A,A", "--system", "hi-lo", "--workers", "1").stdout
    assert "the shoe holds no ace" in text
    refused("count", "--decks", "1", "--removed", "A,A,A,A", "--insurance", message="no ace")


# -- exact arithmetic on huge shoes ---------------------------------------------------------------

@pytest.mark.parametrize("command", [["matrix"], ["report"], ["eor"], ["effects"], ["count"], ["edge", "--sd"],
                                     ["chart", "--sd"]])
def test_exact_on_a_huge_shoe_is_refused_naming_the_limit(command):
    refused(*command, "--decks", "1000000", "--exact", message="limited to shoes of 8 decks (416 cards)")


def test_effects_takes_seen_cards_as_the_readme_says():
    out = run_json("effects", *TINY, "--removed", "2")
    assert out["rules"]["shoe"] == [1, 0, 1, 1, 1, 1, 1, 1, 1, 8]
