"""What a new user runs into first (issue 19): results that are mappings answer like mappings,
chart functions refuse what they cannot read with a clear error, a chart table prints as a
table, a chart's deviations are only real ones, and the dealer's text lists up cards as
every other output does. Each test failed before its fix."""

import json
import re

import pytest
from click.testing import CliRunner

from bjcalc import (
    Action,
    Analysis,
    BjcalcError,
    ChartTable,
    InvalidChartError,
    Outcome,
    Rules,
    load_chart,
)
from bjcalc.cli import cli

SMALL = Rules(shoe=(4,) * 9 + (16,), surrender="late", split_hands=2)  # one deck, DAS


@pytest.fixture(scope="module")
def analysis():
    return Analysis(SMALL)


def test_a_dealer_table_answers_like_a_mapping(analysis):
    d = analysis.dealer(6)
    assert "x" not in d and d.get("x") is None and d.get("x", 0) == 0  # raised ValueError
    assert d[21] == d["21"] == d[Outcome.TOTAL_21] == d.probabilities[Outcome.TOTAL_21]  # an int total
    assert 21 in d and "bust" in d and "BUST" in d
    for missing in (22, 16, "22", None, 2.5, [21]):
        assert missing not in d
        with pytest.raises(KeyError):
            d[missing]
    assert Outcome(17) is Outcome.TOTAL_17 and Outcome("Blackjack") is Outcome.BLACKJACK
    assert dict(d) == d.probabilities and sum(d.values()) == pytest.approx(1)


def test_a_hand_results_mappings_answer_like_mappings(analysis):
    r = analysis.hand("T,6", "T")
    assert "x" not in r.evs and r.evs.get("x") is None
    assert r.evs["S"] == r.evs[Action.STAND]
    by_up = analysis.round().by_upcard
    assert by_up["A"] == by_up[next(u for u in by_up if u == "A")] and by_up.get("x") is None


def test_load_chart_names_what_it_reads(analysis):
    text = json.dumps(analysis.chart().to_dict())
    for wrong in (None, 3, ["table,row"]):
        with pytest.raises(TypeError, match="a str or UTF-8 bytes, not"):
            load_chart(SMALL, wrong)  # type: ignore[arg-type]  # was AttributeError / a backwards TypeError
    assert load_chart(SMALL, text.encode()).key == load_chart(SMALL, text).key  # bytes in UTF-8 are read
    assert load_chart(SMALL, b"\xef\xbb\xbf" + text.encode()).key == load_chart(SMALL, text).key
    with pytest.raises(InvalidChartError, match="^chart 'x.csv' is not UTF-8 text"):
        load_chart(SMALL, "é".encode("latin-1"), "x.csv")
    with pytest.raises(BjcalcError, match="rules must be a bjcalc.Rules"):  # arguments swapped: the rules checked first
        load_chart(text, text)  # type: ignore[arg-type]


def test_evaluate_needs_a_chart(analysis):
    with pytest.raises(InvalidChartError, match="chart must be a bjcalc Chart"):
        analysis.evaluate(None)  # type: ignore[arg-type]  # it returned the CD round


def test_a_chart_table_prints_as_a_table(analysis):
    table = analysis.chart().table("hard")
    assert isinstance(table, ChartTable) and table.kind == "hard"
    assert table.rows == [str(t) for t in range(4, 22)] and table.columns == list("23456789TA")
    lines = str(table).splitlines()  # was a dict's repr on one line
    assert len(lines) == 19 and lines[0].split() == ["hard", *"23456789TA"]
    for line, row in zip(lines[1:], table.rows):
        assert line.split() == [row, *table[row].values()]
    assert not any("{" in line for line in lines)
    assert table.to_dict() == table and type(table.to_dict()) is dict
    assert json.loads(json.dumps(table)) == table.to_dict()


def test_a_code_that_plays_the_same_is_no_deviation(analysis):
    optimal = analysis.chart()
    tables = {kind: optimal.table(kind).to_dict() for kind in ("hard", "soft", "pairs")}
    split = [(row, up) for row, cells in tables["pairs"].items() for up, code in cells.items() if code == "P"]
    assert split
    for row, up in split:  # with doubling after a split, Ph and Ps split as P does
        tables["pairs"][row][up] = "Ph"
    assert analysis.deviations(load_chart(SMALL, json.dumps(tables))) == []  # listed each at cost 0
    tables["hard"]["16"]["6"] = "H"  # a real one is still found
    (found,) = analysis.deviations(load_chart(SMALL, json.dumps(tables)))
    assert (found.kind, found.row, str(found.up), found.code) == ("hard", "16", "6", "H") and found.cost > 0


def test_the_dealer_text_lists_up_cards_2_to_a():
    output = CliRunner().invoke(cli, ["dealer", "--shoe", "4,4,4,4,4,4,4,4,4,16"]).output
    ups = [line.split()[0] for line in output.splitlines() if re.match(r"^[2-9TA] ", line)]
    assert ups == list("23456789TA")  # A came first
    exact = CliRunner().invoke(cli, ["dealer", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--exact"]).output
    assert re.findall(r"^up (\w):", exact, re.M) == list("23456789TA")
