"""bjcalc index --all (bjcalc.counting.indices.all_indices): every two-card hand class against every up
card whose best play the count changes. Oracles: the default run (`index_table` with the
Illustrious 18) gives the same index for each of its plays; a loop written here over one
counter's shoe per running count (CountShoe and Analysis.hand, weighted by the deal's
probability) says which cells change and which do not."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from bjcalc import Analysis, CountShoe, HandTotal, Rules, all_indices, index_table, running_count_distribution
from bjcalc.actions import Action
from bjcalc.cards import Rank
from bjcalc.cli import cli
from bjcalc.counting.indices import ILLUSTRIOUS_18

HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
TWOS = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)  # half a deck: 26 cards
SEEN = 4
RULES = Rules(shoe=TWOS, surrender="none", split_hands=2, player_max_cards=4, dealer_max_cards=4)
# the command line on the same shoe, one card seen (three running counts: quick)
CLI_ARGS = ["index", "--all", "--shoe", ",".join(map(str, TWOS)), "--surrender", "none", "--split-hands", "2",
            "--max-cards", "4", "--cards-seen", "1", "--workers", "1"]
UPS = "23456789TA"


@pytest.fixture(scope="module")
def everything():
    return all_indices(RULES, "hi-lo", HI_LO, SEEN, workers=1)


@pytest.fixture(scope="module")
def cli_outputs():
    runner = CliRunner()
    out = {}
    for fmt in ("text", "markdown", "csv", "json", "html"):
        result = runner.invoke(cli, [*CLI_ARGS, "--format", fmt])
        assert result.exit_code == 0, result.output
        out[fmt] = result.stdout
    return out


def _key(play):
    return play.hand, play.up, play.play, play.instead


# -- (a) the Illustrious 18 as the default run indexes them --------------------------------------

def test_every_illustrious_18_play_is_in_all_with_the_default_runs_index(everything):
    """Without surrender each of the 17 plays (insurance apart) is one change of its cell's best
    play, so --all must list it, with the index, crossing and gain the default run computes."""
    default = index_table(RULES, "hi-lo", HI_LO, SEEN, workers=1)
    assert len(default.plays) == len(ILLUSTRIOUS_18) == 17
    found = {_key(p.play): p for p in everything.table.plays}
    for want in default.plays:
        got = found.get(_key(want.play))
        assert got is not None, f"{want.play.name} (instead {want.play.instead_text()}) missing from --all"
        assert got.index == want.index, (want.play.name, got.index, want.index)
        assert got.crossing == pytest.approx(want.crossing, abs=1e-12), want.play.name
        assert got.gain_per_100 == pytest.approx(want.gain_per_100, abs=1e-12), want.play.name
        assert got.play.published == want.play.published and got.play.group == "I18"
    assert everything.table.insurance.index == default.insurance.index


# -- (b) which cells change: a loop over the counter's shoes written here -------------------------

def _classes():
    out = [(str(t), HandTotal(t)) for t in range(5, 20)]
    out += [(f"soft {t}", HandTotal(t, soft=True)) for t in range(13, 21)]
    out += [(f"{r},{r}", (r, r)) for r in (Rank.ACE, *(Rank(str(v)) for v in range(2, 10)), Rank.TEN)]
    return out


def _hands(hand):
    return hand.hands() if isinstance(hand, HandTotal) else (hand,)


@pytest.fixture(scope="module")
def by_count():
    """Per (class, up): observed running count -> (weight, {action: weight x EV}), each hand
    dealt with its probability on the counter's shoe, the EVs unconditional."""
    chances = running_count_distribution(TWOS, HI_LO, SEEN)
    top = max(chances.values())
    out: dict = {}
    for s, p in chances.items():
        if p < 1e-13 * top:
            continue
        shoe = CountShoe(shoe=TWOS, tags=HI_LO, running_count=s, seen=SEEN)
        analysis = Analysis(RULES, shoe=shoe)
        for name, hand in _classes():
            for up in UPS:
                up_rank = Rank(up)
                for cards in _hands(hand):
                    if not shoe.can_deal((up_rank, *cards)):
                        continue
                    dealt = float(shoe.draw_probability((up_rank, *cards))) * (1 if cards[0] == cards[1] else 2)
                    result = analysis.hand(cards, up_rank)
                    keep = 1 - result.dealer_blackjack if result.conditioned else 1
                    observed = s + sum(Fraction(HI_LO[c.index]) for c in (*cards, up_rank))
                    cell = out.setdefault((name, up), {}).setdefault(observed, [0.0, {}])
                    cell[0] += float(p) * dealt
                    values = cell[1]
                    for action, ev in result.evs.items():
                        values[action] = values.get(action, 0.0) + float(p) * dealt * float(ev) * keep
    return out


def _best_plays(counts, share):
    """The best play at each observed count in the centred ``share`` of the cell's rounds."""
    total = sum(w for w, _ in counts.values())
    tail = (1 - share) / 2 * total
    below, best = 0.0, []
    for c in sorted(counts):
        weight, values = counts[c]
        above = total - below
        below += weight
        if below >= tail and above >= tail:
            best.append(max(values, key=values.get))
    return best


def _cell_name(cell):
    return f"soft {11 + int(cell.row[2:])}" if cell.table == "soft" else cell.row


def test_a_cell_is_listed_exactly_where_its_best_play_changes(everything, by_count):
    """A cell whose best play is one action at every count of a slightly wider share of its
    rounds (99.95 %) has no change in --all; one whose best play changes within a slightly
    narrower share (99.8 %) has, with those actions. (The two shares bracket --all's 99.9 %, so
    that no count at the edge of the share decides the test.)"""
    assert everything.likely == Fraction(999, 1000)
    cells = {(_cell_name(c), str(c.up)): c for c in everything.cells}
    listed = {(_cell_name(c), str(c.up)) for c in everything.cells if c.changes}
    constant, changing = [], []
    for key, counts in by_count.items():
        wide = _best_plays(counts, 0.9995)
        narrow = _best_plays(counts, 0.998)
        assert key in cells, key
        if len(set(wide)) == 1:
            constant.append(key)
            assert key not in listed, (key, cells[key].text())
            assert cells[key].by_count == (wide[0],)
        elif len(set(narrow)) > 1:
            changing.append(key)
            assert key in listed, (key, narrow)
            changes = {frozenset((c.play.play, *c.play.instead)) for c in cells[key].changes}
            assert {frozenset(pair) for pair in zip(narrow, narrow[1:]) if pair[0] is not pair[1]} <= changes, key
    assert set(by_count) == set(cells)  # every dealable class x up card is a cell
    assert len(constant) > 100 and len(changing) > 50  # both kinds are tested, on this shoe
    assert ("16", "T") in changing and ("19", "6") in constant


def test_a_total_row_stands_for_its_two_card_hands_but_pairs(everything):
    (cell,) = [c for c in everything.cells if c.table == "hard" and c.row == "12" and str(c.up) == "4"]
    (change,) = cell.changes
    assert [",".join(map(str, h)) for h in change.play.hands()] == ["T,2", "9,3", "8,4", "7,5"]
    assert change.play.play is Action.STAND and change.play.instead == (Action.HIT,)


# -- (c) the command line --------------------------------------------------------------------------

def _default_index(play: str) -> int:
    """The index ``bjcalc index --play PLAY`` (the default run, one play) gives at CLI_ARGS."""
    single = CliRunner().invoke(cli, [a for a in CLI_ARGS if a != "--all"] + ["--play", play, "--format", "json"])
    assert single.exit_code == 0, single.output
    return json.loads(single.stdout)["plays"][0]["index"]


def _grid_cells(header: str, row: str) -> dict[str, str]:
    """A right-aligned grid row, read by its header's column ends."""
    ends = [i + 1 for i, ch in enumerate(header) if ch != " " and (i + 1 == len(header) or header[i + 1] == " ")]
    out, start = {}, ends[0]
    for name, end in zip(header.split()[1:], ends[1:]):
        out[name] = row[start:end].strip()
        start = end
    return out


def _text_grid(text: str, kind: str) -> dict[str, dict[str, str]]:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.split()[:2] == [kind, "2"])
    header, grid = lines[at], {}
    assert header.split() == [kind, *UPS]
    for line in lines[at + 2:]:
        if not line.strip():
            break
        grid[line.split()[0]] = _grid_cells(header, line)
    return grid


def test_the_text_chart_carries_the_default_runs_index(cli_outputs):
    """The text grid's 12 v 4 cell (hit, stand from the index) has the index that
    `bjcalc index --play '12 v 4 stand hit'` gives at the same depth."""
    text = cli_outputs["text"]
    for title in ("hard totals", "soft totals", "pairs"):
        assert f"\n{title}\n" in text
    index = _default_index("12 v 4 stand hit")
    assert _text_grid(text, "hard")["12"]["4"] == f"H S{index:+d}"
    assert "S stand, H hit, D double, P split, R surrender" in text and "deviate at TC >= index" in text


def test_every_format_prints_the_same_chart(cli_outputs):
    """JSON's cells are the text grids' cells; CSV's lines are JSON's plays (and insurance), by
    chart table, row and up card; markdown and HTML carry the three grids."""
    out = json.loads(cli_outputs["json"])
    assert out["command"] == "index" and out["likely_share"] == 0.999
    grids = {kind: _text_grid(cli_outputs["text"], kind) for kind in ("hard", "soft", "pairs")}
    assert len(out["cells"]) == sum(1 for g in grids.values() for row in g.values() for c in row.values() if c != "-")
    for cell in out["cells"]:
        assert grids[cell["table"]][cell["row"]][cell["up"]] == cell["cell"], cell
        assert (cell["changes"] == []) == (len(cell["by_count"]) == 1), cell
    rows = list(csv.DictReader(io.StringIO(cli_outputs["csv"])))
    as_csv = lambda index: "" if index is None else str(index)  # noqa: E731
    assert rows[-1]["table"] == "insurance" and rows[-1]["index"] == as_csv(out["insurance"]["index"])
    assert [(r["play"], r["index"]) for r in rows[:-1]] == [(p["play"], as_csv(p["index"])) for p in out["plays"]]
    tables = [r["table"] for r in rows[:-1]]
    assert tables == sorted(tables, key=["hard", "soft", "pairs"].index)
    twelve = next(c for c in out["cells"] if (c["table"], c["row"], c["up"]) == ("hard", "12", "4"))
    assert twelve["changes"] == ["12 v 4 stand"]
    assert next(p for p in out["plays"] if p["play"] == "12 v 4 stand")["index"] == _default_index("12 v 4 stand hit")
    markdown = cli_outputs["markdown"]
    assert all(f"## {t}" in markdown for t in ("Hard totals", "Soft totals", "Pairs", "Every change"))
    html = cli_outputs["html"]
    assert html.startswith("<!DOCTYPE html>") and all(f"<caption>{t}</caption>" in html
                                                      for t in ("Hard totals", "Soft totals", "Pairs"))


@pytest.mark.parametrize("args, message", [
    (["--play", "16 v T stand hit"], "--all and --play contradict"),
    (["--decks", "inf"], "infinite deck"),
    (["--cards-seen", "60"], "cards seen must be a whole number from 0 to 48"),
])
def test_bad_input_gets_one_line_and_exit_2(args, message):
    result = CliRunner().invoke(cli, ["index", "--all", "--decks", "1", *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert message in result.stderr, result.stderr


def test_the_likely_share_is_checked():
    with pytest.raises(ValueError, match="likely share"):
        all_indices(RULES, "hi-lo", HI_LO, SEEN, likely=Fraction(0), workers=1)
