"""``bjcalc count --exact-index``: each play's exact index (the model of the counter's shoe,
:mod:`bjcalc.counting.indices`, tested against brute force in tests/test_indices.py) printed beside its
linear estimate. What is tested here is what count adds: the orientation of a play (the first
action may be the better below the crossing), the integer rule's shift when it is, insurance, and
the outputs."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from bjcalc import Rules, count_table
from bjcalc.cli import cli
from bjcalc.counting.indices import index_table, play_from_text

ONE_DECK = Rules(decks=1, surrender="none")
HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)


def test_a_play_written_either_way_round_is_one_rule():
    """'12 v 4 stand hit' and '12 v 4 hit stand' cross at the same true count; standing at TC >= I
    is hitting at TC <= I - 1, and I is what bjcalc index finds for standing."""
    seen = 20
    table = count_table(ONE_DECK, ["hi-lo"], plays=["12 v 4 stand hit", "12 v 4 hit stand"], workers=1,
                        exact_index_depth=seen)
    stand, hit = table.exact_indices.by_system[0]
    index = index_table(ONE_DECK, "hi-lo", HI_LO, seen, [play_from_text("12 v 4 stand hit")], insurance=False,
                        workers=1).plays[0]
    assert index.index is not None
    assert stand.above is True and stand.index == index.index
    assert hit.above is False and hit.index == index.index - 1
    assert stand.crossing == pytest.approx(index.crossing, abs=1e-12)
    assert hit.crossing == pytest.approx(index.crossing, abs=1e-12)


def test_insurance_is_the_index_tables_against_the_ace_alone():
    seen = 26
    table = count_table(ONE_DECK, ["hi-lo"], plays=["16 v T stand hit"], insurance=True, workers=1,
                        exact_index_depth=seen)
    labels = [p.label for p in table.eor.plays]
    insurance = table.exact_indices.by_system[0][labels.index("insurance v A")]
    ace = index_table(ONE_DECK, "hi-lo", HI_LO, seen, [], workers=1).insurance
    assert insurance.above is True and insurance.index == ace.index
    assert insurance.crossing == pytest.approx(ace.crossing, abs=1e-12)
    # Hi-Lo's insurance index for a single deck is about +1.4 (Wong, ../shared/reference/counting.md)
    assert 1 <= insurance.crossing <= 2


def test_no_exact_indices_unless_asked():
    table = count_table(ONE_DECK, ["hi-lo"], plays=["16 v T stand hit"], workers=1)
    assert table.exact_indices is None


def run(*args: str):
    return CliRunner().invoke(cli, ["count", "--decks", "1", "--surrender", "none", "--system", "hi-lo",
                                    "--workers", "1", *args])


def test_the_text_shows_the_estimate_and_the_exact_index_each_labelled():
    result = run("--play", "16 v T stand hit", "--exact-index", "--cards-seen", "20")
    assert result.exit_code == 0, result.output
    assert "indices (linear estimate" in result.output
    assert "indices (exact: the model of the counter's shoe" in result.output
    assert "at 20 cards seen before the round" in result.output
    assert "(index >= " in result.output


def test_csv_and_json_carry_the_exact_columns():
    out = run("--play", "16 v T stand hit", "--exact-index", "--depth", "0.5", "--format", "csv")
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert rows[0]["deviate (exact, 26 cards seen): hard 16 (T,6 or 9,7) v T: stand - hit"] == "at_or_above"
    data = json.loads(run("--play", "16 v T stand hit", "--exact-index", "--format", "json").stdout)
    assert data["exact_index_depth"]["cards_seen"] == 26
    exact = data["systems"][0]["exact_indices"][0]
    assert exact["play"].startswith("hard 16") and exact["deviate"] == "at_or_above"
    assert data["systems"][0]["linear_estimate"] is True


@pytest.mark.parametrize("args, message", [
    (["--play", "16 v T stand hit", "--cards-seen", "20"], "--cards-seen is the depth of --exact-index"),
    (["--exact-index"], "--exact-index: give the plays to index"),
    (["--play", "16 v T stand hit", "--exact-index", "--cards-seen", "20", "--depth", "1"], "give the depth once"),
    (["--play", "16 v T stand hit", "--exact-index", "--cards-seen", "60"], "cards seen must be a whole number"),
])
def test_bad_exact_index_options_get_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
