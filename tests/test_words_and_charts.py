"""Chart files as people save them (BOM, any case, truncated) and words that must be true:
blackjack settlement, the frame of every number, no negative zero, where the game texts are,
the dealer's card-limit totals."""

import json
import pathlib
import re
from fractions import Fraction

import pytest
import sympy
from click.testing import CliRunner

from bjcalc.chart import CHART_CODES, load_chart
from bjcalc.cli import cli
from bjcalc.errors import BjcalcError
from bjcalc.games.presets import game
from bjcalc.render.common import fixed, number
from bjcalc.render.markdown import effects_markdown
from bjcalc.render.text import effects_text

ONE_DECK = ("--decks", "1")  # the default game with one deck: fast, and it has a card limit
KINDS = ("hard", "soft", "pairs")


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def rules():
    return game("atlantic-city-gold").rules.replace(decks=1)


@pytest.fixture(scope="module")
def chart_csv():
    result = run("chart", *ONE_DECK, "--format", "csv")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def chart_json():
    return json.loads(run("chart", *ONE_DECK, "--format", "json").output)


@pytest.fixture(scope="module")
def optimal(rules, chart_csv):
    chart = load_chart(rules, chart_csv)
    return {kind: chart.table(kind) for kind in KINDS}


def with_cell(csv_text, kind, row, up, code):
    """The CSV with one cell replaced."""
    lines = csv_text.splitlines()
    column = lines[0].split(",").index(up)
    out = []
    for line in lines:
        cells = line.split(",")
        if cells[:2] == [kind, row]:
            cells[column] = code
        out.append(",".join(cells))
    return "\n".join(out) + "\n"


def one_line_error(result):
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("Error: "), result.output
    return result.output[len("Error: "):].rstrip("\n")


# A1: a spreadsheet's "CSV UTF-8" starts with a byte-order mark


def test_a_chart_saved_with_a_byte_order_mark_loads(rules, chart_csv, optimal, tmp_path):
    chart = load_chart(rules, "\ufeff" + chart_csv, "x.csv")
    assert {kind: chart.table(kind) for kind in KINDS} == optimal
    path = tmp_path / "excel.csv"
    path.write_text("\ufeff" + chart_csv.replace("\n", "\r\n"), encoding="utf-8")
    result = run("edge", *ONE_DECK, "--chart", str(path))
    assert result.exit_code == 0, result.output
    assert "no deviations" in result.output


# A2: codes in any case, normalised to the canonical ones


def test_every_code_has_one_canonical_spelling():
    assert CHART_CODES == ("H", "S", "Dh", "Ds", "Rh", "Rs", "P", "Ph", "Ps", "Pd", "Rp")


@pytest.mark.parametrize(
    "kind, row, up, written, canonical",
    [
        ("hard", "11", "6", "dh", "Dh"),
        ("hard", "11", "6", "DH", "Dh"),
        ("soft", "18", "4", "ds", "Ds"),
        ("hard", "16", "T", "rs", "Rs"),
        ("hard", "15", "T", "rh", "Rh"),
        ("hard", "12", "2", "s", "S"),
        ("hard", "12", "4", "h", "H"),
        ("pairs", "8", "6", "p", "P"),
        ("pairs", "4", "5", "pd", "Pd"),
        ("pairs", "2", "2", "ph", "Ph"),
    ],
)
def test_codes_are_read_in_any_case(rules, chart_csv, kind, row, up, written, canonical):
    chart = load_chart(rules, with_cell(chart_csv, kind, row, up, written), "x.csv")
    assert chart.table(kind)[row][up] == canonical
    assert chart.written[kind][row][up] == written


def test_a_lower_case_chart_is_the_same_chart(rules, chart_csv, optimal):
    header, *rows = chart_csv.splitlines()
    lowered = "\n".join([header] + [row.lower() for row in rows]) + "\n"
    chart = load_chart(rules, lowered, "lower.csv")
    assert {kind: chart.table(kind) for kind in KINDS} == optimal


# A3: a bad code names its table, row and up card


@pytest.mark.parametrize(
    "kind, row, up, code, message",
    [
        ("hard", "19", "A", "P",
         "code 'P' for hard 19 against up card 'A' is not allowed in the hard table (H, S, Dh, Ds, Rh, Rs)"),
        ("soft", "13", "5", "rp",
         "code 'rp' for soft 13 against up card '5' is not allowed in the soft table (H, S, Dh, Ds, Rh, Rs)"),
        ("hard", "19", "A", "X", "unknown code 'X' for hard 19 against up card 'A' (H, S, Dh, Ds, Rh, Rs)"),
        ("pairs", "8", "6", "Q",
         "unknown code 'Q' for pairs 8 against up card '6' (H, S, Dh, Ds, Rh, Rs, P, Ph, Ps, Pd, Rp)"),
    ],
)
def test_a_bad_code_names_its_cell(chart_csv, tmp_path, kind, row, up, code, message):
    path = tmp_path / "x.csv"
    path.write_text(with_cell(chart_csv, kind, row, up, code))
    assert one_line_error(run("edge", *ONE_DECK, "--chart", str(path))) == f"chart {str(path)!r}: {message}"


# A4: an empty or truncated file says what is missing


def _without_lines(csv_text, *prefixes):
    return "".join(line + "\n" for line in csv_text.splitlines() if not line.startswith(prefixes))


def _short_row(csv_text, kind, row):
    return "".join(
        (line.rsplit(",", 1)[0] if line.startswith(f"{kind},{row},") else line) + "\n"
        for line in csv_text.splitlines()
    )


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda csv_text: "", " is empty"),
        (lambda csv_text: "\ufeff \n\n", " is empty"),
        (lambda csv_text: csv_text.splitlines()[0] + "\n", " has a header but no rows"),
        (lambda csv_text: _without_lines(csv_text, "pairs,"), " has no 'pairs' table"),
        (lambda csv_text: _without_lines(csv_text, "soft,", "pairs,"), " has no 'soft', 'pairs' tables"),
        (lambda csv_text: _without_lines(csv_text, "hard,5,", "hard,6,"), ": hard table is missing rows 5, 6"),
        (lambda csv_text: _without_lines(csv_text, "pairs,T,"), ": pairs table is missing row T"),
        (lambda csv_text: _short_row(csv_text, "hard", "12"),
         ": hard 12 has 9 cells, needs 10 (2..9, T, A); no code for up card 'A'"),
        (lambda csv_text: csv_text.replace("table,row,2,3,4,5,6,7,8,9,T,A", "table,row,2,3,4,5,6,7,8,9,T"),
         ": the header has no column for up card 'A'"),
        (lambda csv_text: csv_text.replace("\nhard,", "\nhrad,", 1),
         ": unknown table 'hrad' on line 2 (hard, soft, pairs)"),
        (lambda csv_text: csv_text + csv_text.splitlines()[1] + "\n", ": hard 4 appears twice"),
    ],
)
def test_a_truncated_csv_says_what_is_missing(chart_csv, tmp_path, make, message):
    path = tmp_path / "x.csv"
    path.write_text(make(chart_csv), encoding="utf-8")
    assert one_line_error(run("edge", *ONE_DECK, "--chart", str(path))) == f"chart {str(path)!r}{message}"


def _drop(data, *keys):
    data = json.loads(json.dumps(data))
    inner = data
    for key in keys[:-1]:
        inner = inner[key]
    del inner[keys[-1]]
    return data


@pytest.mark.parametrize(
    "keys, message",
    [
        (("pairs",), " has no 'pairs' table"),
        (("hard", "21"), ": hard table is missing row 21"),
        (("soft", "17", "A"), ": soft 17 has 9 cells, needs 10 (2..9, T, A); no code for up card 'A'"),
    ],
)
def test_a_truncated_json_chart_says_what_is_missing(chart_json, tmp_path, keys, message):
    path = tmp_path / "x.json"
    path.write_text(json.dumps(_drop(chart_json, *keys)))
    assert one_line_error(run("betbehind", *ONE_DECK, "--chart", str(path))) == f"chart {str(path)!r}{message}"


def test_a_library_caller_gets_the_same_errors(rules):
    with pytest.raises(BjcalcError, match=r"^chart is empty$"):
        load_chart(rules, "\ufeff")
    with pytest.raises(BjcalcError, match=r"^chart 'mine' has no 'hard', 'soft', 'pairs' tables$"):
        load_chart(rules, "{}", "mine")


def test_a_tiny_shoe_needs_only_the_up_cards_it_holds(chart_csv, tmp_path):
    # no 2s or 3s in the shoe: their columns may be missing
    header, *rows = chart_csv.splitlines()
    narrow = "\n".join(",".join(c for i, c in enumerate(line.split(",")) if i not in (2, 3))
                       for line in [header] + rows) + "\n"
    path = tmp_path / "narrow.csv"
    path.write_text(narrow)
    shoe = ("--shoe", "4,0,0,4,4,4,4,4,4,16")
    assert run("edge", *shoe, "--chart", str(path)).exit_code == 0
    path.write_text(_short_row(narrow, "soft", "13"))
    assert one_line_error(run("edge", *shoe, "--chart", str(path))) == (
        f"chart {str(path)!r}: soft 13 has 7 cells, needs 8 (4, 5, 6, 7, 8, 9, T, A); no code for up card 'A'"
    )


# A5: the cost of each deviation shows the user's own code


def test_deviations_show_the_code_as_written(chart_csv, optimal, tmp_path):
    assert optimal["pairs"]["8"]["A"] != "H" and optimal["hard"]["16"]["T"] != "H"
    mine = with_cell(with_cell(chart_csv, "pairs", "8", "A", "H"), "hard", "16", "T", "h")
    path = tmp_path / "mine.csv"
    path.write_text(mine)
    data = json.loads(run("edge", *ONE_DECK, "--chart", str(path), "--format", "json").output)
    shown = {(d["table"], d["row"], d["up"]): (d["code"], d["optimal"]) for d in data["deviations"]}
    assert shown == {
        ("pairs", "8", "A"): ("H", optimal["pairs"]["8"]["A"]),
        ("hard", "16", "T"): ("h", optimal["hard"]["16"]["T"]),
    }
    text = run("edge", *ONE_DECK, "--chart", str(path)).output
    rows = [line.split()[:5] for line in text.splitlines()]
    assert ["pairs", "8", "A", "H", optimal["pairs"]["8"]["A"]] in rows
    assert ["hard", "16", "T", "h", optimal["hard"]["16"]["T"]] in rows


# B6: what happens to a player blackjack, for each rule set


@pytest.mark.parametrize(
    "options, note",
    [
        (("--up", "T", "--game", "live-dealer", "--decks", "1"),
         ("No hole card: a blackjack pushes if the dealer then makes blackjack, else is paid 3:2; "
         "hit/double show it played as a soft 21.")),
        (("--up", "A", *ONE_DECK),
         ("The dealer has peeked and has no blackjack: a blackjack is paid 3:2 at once; "
         "hit/double show it played as a soft 21.")),
        (("--up", "A", *ONE_DECK, "--surrender", "early", "--bj-pays", "6:5"),
         ("Before the peek: a blackjack pushes if the dealer has blackjack, else is paid 6:5; "
         "hit/double show it played as a soft 21.")),
        (("--up", "6", "--game", "live-dealer", "--decks", "1"),
         "The dealer cannot have blackjack here: a blackjack is paid 3:2; hit/double show it played as a soft 21."),
    ],
)
def test_the_blackjack_note_is_true_for_the_rules(options, note):
    result = run("hand", "A,T", *options)
    assert result.exit_code == 0, result.output
    assert note in result.output.splitlines()
    assert "is paid at once" not in result.output


# B7: every number carries its frame


def test_even_money_and_the_conditioned_evs_are_labelled():
    lines = run("hand", "A,T", "--up", "A", *ONE_DECK).output.splitlines()
    assert "conditioned on no dealer blackjack" in lines[1]
    assert lines[2].split() == ["action", "EV", "(conditioned)"]
    assert any(line.startswith("insurance: ") and line.endswith("(unconditional, decided before the peek)")
               for line in lines)
    (even,) = [line for line in lines if line.startswith("even money: ")]
    assert even.endswith("per initial bet (unconditional, decided before the peek; "
                         "not comparable with the conditioned EVs above)")
    data = json.loads(run("hand", "A,T", "--up", "A", *ONE_DECK, "--format", "json").output)
    assert data["frames"] == {"stand": "conditioned", "hit": "conditioned", "double": "conditioned",
                              "insurance": "unconditional", "even_money": "unconditional"}


def test_unconditional_hands_say_so_in_every_number():
    lines = run("hand", "A,T", "--up", "A", *ONE_DECK, "--no-peek").output.splitlines()
    assert lines[2].split() == ["action", "EV", "(unconditional)"]
    assert "even money: " in lines[-1] and "not comparable" not in lines[-1]
    data = json.loads(run("hand", "T,6", "--up", "T", *ONE_DECK, "--no-peek", "--format", "json").output)
    numbers = {k for k in ("stand", "hit", "double", "surrender", "insurance") if data[k] is not None}
    assert data["frames"] == dict.fromkeys(numbers, "unconditional")


# B8: never a negative zero


@pytest.mark.parametrize(
    "value, places, sign, text",
    [
        (-1e-9, 6, False, "0.000000"),
        (-0.0, 6, False, "0.000000"),
        (-4e-7, 6, True, "0.000000"),
        (4e-7, 6, True, "0.000000"),
        (-0.5384331, 6, False, "-0.538433"),
        (0.1982394, 6, True, "+0.198239"),
        (-0.00004, 4, False, "0.0000"),
        (-0.00006, 4, False, "-0.0001"),
    ],
)
def test_fixed_never_prints_negative_zero(value, places, sign, text):
    assert fixed(value, places, sign=sign) == text


def test_rendered_tables_have_no_negative_zero(rules):
    effects = [("no card limit", 0.35479999999, -1e-9), ("dealer hits soft 17", 0.553, 0.198239)]
    for page in (effects_text("t", rules, 0.3548, effects),
                 effects_markdown("t", rules, -1e-7, effects)):
        assert not re.search(r"-0\.0+(?![0-9])", page), page
        assert "0.000000" in page and "+0.198239" in page
    assert number(-1e-12, False) == "0.000000"
    assert number(sympy.Rational(-1, 10**9), True) == "0.000000  (-1/1000000000)"
    assert number(sympy.Rational(-1, 2), True) == "-0.500000  (-1/2)"


# B9: the games' rule texts, as an installed user can find them


def test_games_names_no_file_an_installed_user_lacks():
    text = run("games").output
    assert "games/" not in text and ".txt" not in text
    assert "rule text: Microgaming's 'Game Rules for Atlantic City Blackjack Gold'" in text
    assert "not installed with bjcalc" in text and "docs/model.md" in text
    assert (pathlib.Path(__file__).resolve().parent.parent / "docs" / "model.md").is_file()
    data = json.loads(run("games", "--format", "json").output)["games"]
    assert all(not g["source"].endswith(".txt") for g in data)


# B10: every up card has the same dealer outcomes; card-limit totals are labelled


def test_dealer_text_has_one_set_of_columns_and_explains_the_card_limit():
    lines = run("dealer").output.splitlines()
    header = re.split(r"\s{2,}", lines[2].strip())
    assert header == ["up", "16 (card limit)", "17", "18", "19", "20", "21", "blackjack", "bust"]
    rows = [line.split() for line in lines[4:14]]
    assert [row[0] for row in rows] == list("23456789TA")  # as every other output (it had A first)
    assert all(len(row) == len(header) for row in rows)
    assert rows[0][1] == "0.000000"  # the 2 up has no 16 (card limit) outcome: shown as 0
    assert lines[-1] == ("A total marked (card limit) is below 17: the dealer's hand stopped there at the "
                         "11-card limit (0 where an up card cannot get there).")


def test_dealer_json_has_the_same_outcomes_for_every_up_card():
    result = run("dealer", *ONE_DECK, "--max-cards", "4", "--exact", "--format", "json")
    out = json.loads(result.output)
    tables = out["probabilities"]
    keys = [list(table) for table in tables.values()]
    assert all(k == keys[0] for k in keys) and out["outcomes"] == keys[0]
    assert [k for k in keys[0] if not k.isdigit() or int(k) >= 17] == [
        "17", "18", "19", "20", "21", "blackjack", "bust"]
    below = [k for k in keys[0] if k.isdigit() and int(k) < 17]
    assert below and out["card_limit_outcomes"] == below  # stopped at the card limit, and said so
    for up, table in out["exact"]["probabilities"].items():
        assert list(table) == keys[0], up
        assert sum(Fraction(p) for p in table.values()) == 1, up
    peeked = json.loads(run("dealer", "--peeked", "--format", "json").output)
    outcomes = ["16", "17", "18", "19", "20", "21", "bust"]
    assert all(list(table) == outcomes for table in peeked["probabilities"].values())
    assert peeked["card_limit_outcomes"] == ["16"] and peeked["frame"] == "conditioned"
