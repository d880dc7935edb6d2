"""bjcalc index --penetration (bjcalc.counting.shoeindex): the indices averaged over the shoe.

On a tiny shoe, in exact arithmetic, each play's pooled EV differences by true count are an
independent sum, written out here: over every depth a round starts at and every running count
there, the weight of the state times the deal probability and the EV difference of each hand,
from one counter's-shoe analysis per state (docs/countshoe.md, "Averaged over the shoe"); the
gain, the frequency and the index follow from those sums. At a single depth the average is the
one-depth index. The store makes a second run compute nothing; bad input is one line; every
format says what the average is over.
"""

from __future__ import annotations

import json
import pathlib
from fractions import Fraction

import jsonschema
import pytest
from click.testing import CliRunner

from bjcalc import Analysis, CountShoe, Rank, Rules, TaskStore, round_start_states, running_count_distribution
from bjcalc.cli import cli
from bjcalc.counting.indices import Convention, index_table, play_from_text
from bjcalc.counting.shoeindex import shoe_index_table
from bjcalc.counting.tags import DeckEstimate, Rounding, true_count
from bjcalc.errors import InvalidShoeError

HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
# 22 cards, ten-rich and short of small cards (a round cannot run out of cards at 8 seen):
# A A 2 3 5 6 7 7 8 8 9 9 and ten tens; no 4
SHOE = (2, 1, 1, 0, 1, 1, 2, 2, 2, 10)
RULES = Rules(shoe=SHOE, surrender="late", split_hands=2)
# two plays against a ten (one up card's analysis serves both), and insurance
PLAYS = [play_from_text(p) for p in ("16 v T stand hit", "15 v T surrender hit")]
# where rounds start, as given (depth -> relative weight): the placement is tested in
# tests/test_truecount.py; here it is a fixed input, so that the sums below are exact
GIVEN = {0: Fraction(3), 4: Fraction(2), 8: Fraction(1)}
SCHEMA = json.loads((pathlib.Path(__file__).resolve().parent.parent / "docs" / "bjcalc.schema.json").read_text())


@pytest.fixture(scope="module")
def states():
    """Every state of :data:`GIVEN`, analysed here, exact: per play (and ``insurance``) a list of
    (observed running count, cards not seen, weight x deal probability, EV difference)."""
    cards = sum(RULES.shoe_counts)
    whole = sum(GIVEN.values())
    out = {p.name: [] for p in PLAYS}
    out["insurance"] = []
    for depth, share in GIVEN.items():
        for s, p in running_count_distribution(RULES.shoe_counts, HI_LO, depth).items():
            w = share / whole * p
            shoe = CountShoe(shoe=RULES.shoe_counts, tags=HI_LO, running_count=s, seen=depth)
            analysis = Analysis(RULES, shoe=shoe, exact=True)
            for play in PLAYS:
                for hand in play.hands():
                    dealt = shoe.draw_probability((play.up, *hand)) * (2 if hand[0] != hand[1] else 1)
                    if not dealt:
                        continue
                    result = analysis.hand(hand, play.up)
                    keep = 1 - Fraction(str(result.dealer_blackjack)) if result.conditioned else 1
                    ev = {a: Fraction(str(v)) * keep for a, v in result.evs.items()}
                    observed = s + sum(Fraction(HI_LO[c.index]) for c in (*hand, play.up))
                    out[play.name].append((observed, cards - depth - 3, w * dealt,
                                           ev[play.play] - max(ev[a] for a in play.instead)))
            p_ace = shoe.draw_probability([Rank.ACE])
            if p_ace:
                out["insurance"].append((s - 1, cards - depth - 1, w * p_ace,
                                         Fraction(str(analysis.insurance("A"))) / 2))
    return out


@pytest.fixture(scope="module")
def store():
    with TaskStore(None) as store:  # the conventions share the analyses
        yield store


@pytest.mark.parametrize("convention", [Convention(), Convention(DeckEstimate.HALF_DECK, Rounding.ROUND)],
                         ids=["exact-floor", "half-deck-round"])
def test_the_pooled_differences_are_the_sum_over_every_state(convention, states, store):
    table = shoe_index_table(RULES, "hi-lo", HI_LO, Fraction(2, 5), PLAYS, convention, placement=GIVEN,
                             store=store, workers=1, exact=True)
    assert table.starts == tuple(GIVEN) and table.left_out == 0 and table.placement == "given"
    deviates = 0
    for entry in (*table.plays, table.insurance):
        name = "insurance" if entry is table.insurance else entry.play.name
        difference, weight = {}, {}
        for observed, cards_left, w, d in states[name]:
            tc = true_count(observed, cards_left, convention.divisor, convention.rounding)
            difference[tc] = difference.get(tc, 0) + w * d
            weight[tc] = weight.get(tc, 0) + w
        assert dict(entry.differences) == {tc: difference[tc] / weight[tc] for tc in weight if weight[tc]}, name
        gains = {i: sum((d for tc, d in difference.items() if tc >= i), Fraction(0))
                 for i in range(int(min(difference)) - 1, int(max(difference)) + 2)}
        best = max(gains.values())
        assert isinstance(entry.gain_per_100, Fraction)
        if best <= 0:
            assert entry.index is None and entry.gain_per_100 == 0 and entry.frequency == 0, name
            continue
        deviates += 1
        assert entry.index in {i for i, g in gains.items() if g == best}, name
        assert entry.gain_per_100 == 100 * best, name
        assert entry.frequency == sum(w for tc, w in weight.items() if tc >= entry.index), name
    assert deviates  # the tiny shoe is not a big one, but some play deviates somewhere


def test_at_one_depth_the_average_is_the_one_depth_index():
    """One depth, true counts not rounded (each running count its own true count): the same
    differences, index, crossing, gain and frequency as bjcalc index at that depth."""
    convention = Convention(DeckEstimate.EXACT, Rounding.NONE)
    averaged = shoe_index_table(RULES, "hi-lo", HI_LO, Fraction(2, 5), PLAYS, convention, placement={6: 1},
                                workers=1)
    one = index_table(RULES, "hi-lo", HI_LO, 6, PLAYS, convention, workers=1)
    for a, b in zip((*averaged.plays, averaged.insurance), (*one.plays, one.insurance)):
        assert a.index == b.index and a.monotone == b.monotone
        assert a.gain_per_100 == pytest.approx(b.gain_per_100, abs=1e-12)
        assert a.frequency == pytest.approx(b.frequency, abs=1e-12)
        assert (a.crossing is None) == (b.crossing is None)
        if a.crossing is not None:
            assert a.crossing == pytest.approx(b.crossing, abs=1e-9)
        cards_left = one.cards_left + 2 if a is averaged.insurance else one.cards_left
        assert [(tc, pytest.approx(x, abs=1e-12)) for tc, x in a.differences] == \
            [(Fraction(52 * rc, cards_left), x) for rc, x in b.differences]


def test_the_rounds_are_placed_as_bjcalc_truecount_places_them():
    one = [play_from_text("T,6 v T stand hit")]
    table = shoe_index_table(RULES, "hi-lo", HI_LO, Fraction(1, 4), one, insurance=False, workers=1)
    assert table.placement == "chain"  # truecount's default for Hi-Lo in floating point
    assert table.starts == round_start_states(RULES, Analysis(RULES).chart(), HI_LO, table.cut).starts == (0, 4, 5)
    exact = shoe_index_table(RULES, "hi-lo", HI_LO, Fraction(1, 5), one, insurance=False, workers=1, exact=True)
    assert exact.placement == "renewal" and exact.starts == (0,)  # and in exact arithmetic


def test_a_second_run_computes_nothing(tmp_path):
    path = tmp_path / "store.sqlite"
    args = (RULES, "hi-lo", HI_LO, Fraction(1, 4), PLAYS[:1])
    with TaskStore(path) as store:
        first = shoe_index_table(*args, store=store, workers=1, placement="renewal")
        assert first.run.computed + 1 == first.states  # the deepest state ran first, on its own
    with TaskStore(path) as store:
        second = shoe_index_table(*args, store=store, workers=1, placement="renewal")
        assert second.run.computed == 0 and second.run.stored == second.states == first.states
        assert store.rows() == first.states
    assert {k: v for k, v in second.to_dict().items() if k != "run"} == \
        {k: v for k, v in first.to_dict().items() if k != "run"}


@pytest.mark.parametrize("penetration", [0, Fraction(6, 5), "abc", 1])
def test_a_bad_penetration_is_refused(penetration):
    with pytest.raises(InvalidShoeError, match="penetration"):
        shoe_index_table(RULES, "hi-lo", HI_LO, penetration, PLAYS[:1], workers=1)


# -- the command ------------------------------------------------------------------------------------

BASE = ["index", "--shoe", ",".join(map(str, SHOE)), "--surrender", "late", "--split-hands", "2",
        "--play", "16 v T stand hit", "--workers", "1"]


def test_every_format_says_what_the_average_is_over(tmp_path):
    args = [*BASE, "--penetration", "0.25", "--placement", "renewal", "--store", str(tmp_path / "s.sqlite")]
    runner = CliRunner()
    outputs = {}
    for fmt in ("text", "markdown", "csv", "json", "html"):  # the first computes, the others read the store
        result = runner.invoke(cli, [*args, "--format", fmt])
        assert result.exit_code == 0, result.output
        outputs[fmt] = result.stdout
    for fmt in ("text", "markdown", "html"):
        out = outputs[fmt]
        assert "averaged over the shoe to penetration 0.25 (cut card after 6 of 22 cards)" in out, fmt
        assert "placement renewal" in out and "exact divisor" in out and "floored" in out, fmt
        assert "16 v T stand" in out and "insurance" in out, fmt
    lines = outputs["csv"].splitlines()
    assert lines[0] == ("play,instead,index,crossing,published,gain_per_100,frequency,monotone,"
                        "averaged_to_penetration,placement,divisor,rounding")
    assert [line.split(",")[0] for line in lines[1:]] == ["16 v T stand", "insurance"]
    assert all(line.endswith(",0.25,renewal,exact,floor") for line in lines[1:])
    out = json.loads(outputs["json"])
    jsonschema.Draft202012Validator(SCHEMA).validate(out)
    assert out["command"] == "index" and out["penetration"] == 0.25 and out["cut"] == 6
    assert out["placement"] == "renewal" and out["cards_seen"] is None and out["divisor"] == "exact"
    assert out["averaged"].startswith("averaged over the shoe to penetration 0.25")
    assert out["run"]["computed"] == 0  # read from the store the text run filled
    assert outputs["html"].startswith("<!DOCTYPE html>")


def test_the_one_depth_json_still_follows_the_schema():
    result = CliRunner().invoke(cli, [*BASE, "--cards-seen", "4", "--format", "json"])
    assert result.exit_code == 0, result.output
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(result.stdout))


@pytest.mark.parametrize("args, message", [
    (["--penetration", "0"], "--penetration"),
    (["--penetration", "1.2"], "--penetration"),
    (["--penetration", "abc"], "--penetration"),
    (["--penetration", "0.5", "--cards-seen", "4"], "--penetration and --cards-seen contradict"),
    (["--penetration", "0.5", "--depth", "0.25"], "--penetration and --depth contradict"),
    (["--penetration", "0.5", "--all"], "contradict each other: --all"),
    (["--placement", "spaced"], "--placement goes with --penetration"),
    (["--store", "x.sqlite"], "--store goes with --penetration"),
    (["--penetration", "0.5", "--placement", "nowhere"], "Invalid value for '--placement'"),
])
def test_bad_options_get_one_line_and_exit_2(args, message):
    result = CliRunner().invoke(cli, [*BASE, "--store", "none", *args] if "--store" not in args else [*BASE, *args])
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert message in result.stderr, result.stderr


def test_a_run_on_a_dask_cluster_equals_the_local_run(tmp_path):
    """The states' tasks travel to other processes (the other tests run them here) and back."""
    distributed = pytest.importorskip("distributed")
    args = (RULES, "hi-lo", HI_LO, Fraction(1, 4), PLAYS[:1])
    local = shoe_index_table(*args, workers=1, placement="renewal")
    # the scheduler's web server on any free port: the other Dask test may hold 8787 (xdist)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as cluster, TaskStore(tmp_path / "dask.sqlite") as store:
        remote = shoe_index_table(*args, store=store, scheduler=cluster.scheduler_address, batch=2,
                                  placement="renewal")
        assert remote.run.where.startswith("dask") and store.rows() == remote.states
    assert {k: v for k, v in remote.to_dict().items() if k != "run"} == \
        {k: v for k, v in local.to_dict().items() if k != "run"}
