"""bjcalc simulate (bjcalc.counting.simulate): its correctness rests on exact numbers on tiny
shoes, not on truecount.

- The kernel deals as a Python port of its loop (tests/oracles/simport.py) fed the same card
  orders: every round's record identical, over several rule sets, seats, indices and wonging.
- The port, run over every order of a tiny shoe, gives the first round's exact EV and E[X^2]:
  they equal bjcalc's exact analysis of the chart (``Analysis.evaluate`` and
  ``Analysis.variance``) and, with index plays and insurance, truecount's own state value
  (``state_task``) to rounding. So the loop plays exactly the strategy truecount's figures assume.
- The shuffle and the standard errors: a cut that allows only the first round gives the exact
  EV and E[X^2] within 4 standard errors; a cut that allows a second round gives the exact
  distribution of where it starts and at which true count (the port's enumeration) within 4.
- Against the independent simulator tests/oracles/shoesim.py on one deck, within 4 SE.
- The same seed and rounds give the same numbers, whatever the number of workers.
"""

from __future__ import annotations

import functools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from oracles import shoesim
from oracles.simport import Port, deal_shoe, enumerate_round

from bjcalc import Rules
from bjcalc.analysis import Analysis
from bjcalc.cli import cli
from bjcalc.counting import simtables
from bjcalc.counting import simulate as sim
from bjcalc.counting.indices import Convention, default_plays
from bjcalc.counting.spread import InvalidSpreadError, Spread
from bjcalc.counting.states import state_task
from bjcalc.counting.tags import DeckEstimate, Rounding, counting_tags, true_count
from bjcalc.counting.tasks import TaskStore
from bjcalc.counting.truecount import _Game
from bjcalc.errors import BjcalcError

HI_LO = counting_tags((-1, 1, 1, 1, 1, 1, 0, 0, 0, -1))
# aces, fives, sixes and tens: every kind of hand (naturals, soft hands, pairs of each kind,
# doubles, stiffs) in few enough orders to walk them all
TINY = (2, 0, 0, 0, 2, 3, 0, 0, 0, 8)


def _tables(rules: Rules, strategy: str = "basic", *, cut: int = 1, seats: int = 1, plays=(), insurance=None,
            spread: Spread | None = None, wong_in=None, wong_out=None, convention=None):
    game = _Game(rules, HI_LO, convention or Convention(), Fraction(0), False, TaskStore(None), None)
    chart = Analysis(rules).chart()
    return simtables.KernelTables.build(game, chart, cut, seats, strategy, plays, insurance, spread or Spread.flat(),
                                        wong_in, wong_out), chart


def _codes(rules: Rules) -> list[int]:
    """The shoe's cards per code (faces of tens apart where unlike tens may not split)."""
    counts = list(rules.shoe_counts)
    faces = not rules.split_unlike_tens
    return counts[:9] + ([counts[9] // 4] * 4 if faces else [counts[9], 0, 0, 0])


# -- the true count's table is the library's ---------------------------------------------------


@pytest.mark.parametrize("divisor", list(DeckEstimate))
def test_true_count_table_is_the_librarys(divisor: DeckEstimate) -> None:
    for rounding in Rounding:
        table = simtables._true_counts(Convention(divisor, rounding), 2, 20, 60, -15, 15)
        for left in (20, 25, 26, 39, 40, 52, 60):
            for rc in range(-15, 16, 2):
                want = math.floor(true_count(Fraction(rc, 2), left, divisor, rounding))
                assert table[left - 20, rc + 15] == want, (divisor, rounding, left, rc)


# -- the kernel deals as the port ----------------------------------------------------------------

RIGGED_GAMES = [
    (dict(decks=1, player_max_cards=4, dealer_max_cards=3), dict(seats=2)),
    (dict(decks=1, charlie=4, surrender="late"), dict(seats=2)),
    (dict(decks=1, hit_soft_17=True, surrender="late", resplit_aces=True, hit_split_aces=True),
     dict(seats=3, wong_in=1)),
    (dict(decks=1, hole_card="none", blackjack_takes="original", double="10-11"),
     dict(seats=1, wong_in=0, wong_out=-1)),
    (dict(decks=2, surrender="early", split_unlike_tens=False, double_after_split=False, blackjack_pays="6:5"),
     dict(seats=2, wong_out=-2, convention=Convention(DeckEstimate.HALF_DECK, Rounding.ROUND))),
]


@pytest.mark.parametrize("rules, options", RIGGED_GAMES)
def test_kernel_deals_as_the_port(rules: dict, options: dict) -> None:
    rules_ = Rules(**rules)
    plays = tuple((p, p.published - 2) for p in default_plays(rules_))  # deviations at common counts
    cut = round(0.8 * sum(rules_.shoe_counts))
    tables, _ = _tables(rules_, "indices", cut=cut, plays=plays, insurance=1,
                        spread=Spread.parse("<=0:1,1:2,>=2:4"), **options)
    port = Port(tables)
    deck = [c for c, n in enumerate(_codes(rules_)) for _ in range(n)]
    shuffle = random.Random(44).shuffle
    rounds = 0
    for _ in range(40):
        shuffle(deck)
        assert simtables.deal_rigged(tables, deck) == deal_shoe(port, deck)
        rounds += len(deal_shoe(port, deck))
    assert rounds > 40 * 3


def test_a_shoe_that_runs_out_voids_its_round() -> None:
    """Eight cards cut at seven: second rounds often run out of cards; the kernel voids them as
    the port does, and a simulation counts them."""
    rules = Rules(shoe=(1, 0, 0, 0, 1, 0, 0, 0, 0, 6))
    tables, _ = _tables(rules, cut=7)
    port = Port(tables)
    deck = [0, 4] + [9] * 6
    voided = 0
    for _ in range(200):
        random.Random(_).shuffle(deck)
        rows = simtables.deal_rigged(tables, deck)
        assert rows == deal_shoe(port, deck)
        voided += sum(1 for r in rows if r[0] + r[5] == 8 and r[4] == 0.0)
    assert voided > 0
    result = sim.simulate(rules, "hi-lo", HI_LO, rounds=20_000, seed=1, penetration=Fraction(7, 8),
                          strategy="basic", workers=1)
    assert 0 < result.void_rounds < result.rounds


# -- the first round, exactly -------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _exact_basic_round(rules: Rules) -> tuple[float, float]:
    """The chart's first round by every order of the shoe, kept: two tests use the same one."""
    return _exact_first_round(rules, _tables(rules)[0])


def _exact_first_round(rules: Rules, tables) -> tuple[float, float]:
    dist = enumerate_round(Port(tables), _codes(rules))
    assert sum(dist.values()) == 1  # no order of the shoe runs out
    ev = sum(float(p) * unit for (unit, _), p in dist.items())
    return ev, sum(float(p) * unit * unit for (unit, _), p in dist.items())


FIRST_ROUND_RULES = [
    dict(),
    dict(hit_soft_17=True, surrender="late"),
    pytest.param(dict(hole_card="none"), marks=pytest.mark.slow),  # and fast with indices, below
    pytest.param(dict(hole_card="none", blackjack_takes="original"), marks=pytest.mark.slow),
    pytest.param(dict(surrender="early"), marks=pytest.mark.slow),
    dict(double_after_split=False, double="10-11", resplit_aces=True, hit_split_aces=True),
    pytest.param(dict(split_unlike_tens=False), marks=pytest.mark.slow),
    dict(split_hands=2, double_soft=False, blackjack_pays="6:5"),
    dict(player_max_cards=4, dealer_max_cards=4),
    pytest.param(dict(charlie=5, hole_card="none"), marks=pytest.mark.slow),
    dict(charlie=4, surrender="late"),
]


@pytest.mark.parametrize("rules", FIRST_ROUND_RULES)
def test_first_round_is_the_charts_exact_round(rules: dict) -> None:
    """Every order of a tiny shoe, played by the port (the kernel's loop): the round's EV and
    E[X^2] are those of bjcalc's exact analysis of the chart."""
    rules_ = Rules(shoe=TINY, **rules)
    ev, m2 = _exact_basic_round(rules_)
    chart = Analysis(rules_).chart()
    analysis = Analysis(rules_)
    exact = float(analysis.evaluate(chart).round.ev)
    assert ev == pytest.approx(exact, abs=1e-12)
    assert m2 == pytest.approx(float(analysis.variance(chart).variance) + exact ** 2, abs=1e-12)


@pytest.mark.parametrize("rules, shift", [(dict(surrender="late"), -8), (dict(surrender="late"), -3),
                                          (dict(hole_card="none"), -5),
                                          pytest.param(dict(split_unlike_tens=False), -6, marks=pytest.mark.slow)])
def test_first_round_with_indices_is_truecounts_state(rules: dict, shift: int) -> None:
    """With index plays (shifted so that some deviate) and insurance at its index: the exact
    round equals truecount's value of the state (depth 0, running count 0)."""
    rules_ = Rules(shoe=TINY, **rules)
    plays = tuple((p, p.published + shift) for p in default_plays(rules_))
    insurance = -6 if shift < -4 else 2
    tables, chart = _tables(rules_, "indices", plays=plays, insurance=insurance)
    ev, m2 = _exact_first_round(rules_, tables)
    moments = "indices" if rules_.peek else None  # insurance's second moment is worked out for a peeking dealer
    state = state_task(rules_, HI_LO, 0, Fraction(0), Fraction(0), chart, plays, insurance, Convention(), moments,
                       False)
    assert ev == pytest.approx(state["indices"], abs=1e-12)
    assert abs(state["indices"] - state["basic"]) > 1e-3  # the index plays changed the round
    if moments:  # truecount --moments state: the state's E[X^2] with its index plays and insurance
        assert m2 == pytest.approx(state["m2"]["indices"], abs=1e-12)


def _z(estimate: sim.Estimate, exact: float) -> float:
    return (estimate.value - exact) / estimate.se


def test_first_round_simulated_within_its_standard_errors() -> None:
    rules = Rules(shoe=TINY, hit_soft_17=True, surrender="late")
    ev, m2 = _exact_basic_round(rules)
    result = sim.simulate(rules, "hi-lo", HI_LO, rounds=100_000, seed=7, penetration=Fraction(1, 18),
                          strategy="basic", workers=1)
    assert result.cut == 1 and result.rounds == result.shoes == 100_000
    assert [row.true_count for row in result.true_counts] == [0]
    assert abs(_z(result.win.ev_per_round_played, ev)) < 4
    assert abs(_z(result.win.second_moment, m2)) < 4
    assert result.rounds_per_shoe == sim.Estimate(1.0, 0.0)


def test_second_round_starts_where_the_first_round_leaves() -> None:
    """A cut at 8 cards: a second round starts after a first round of 4 to 7 cards (two rounds
    use at least 8). Where it starts and at which true count, from every order of the shoe."""
    rules = Rules(shoe=TINY)
    cut = 8
    tables, _ = _tables(rules, cut=cut)
    dist = enumerate_round(Port(tables), _codes(rules))
    second: dict[int, Fraction] = {}
    starts: dict[int, Fraction] = {}
    left = sum(TINY)
    for (_, used), p in dist.items():
        n = sum(used)
        if n < cut:
            rc = sum(HI_LO[min(c, 9)] * k for c, k in enumerate(used))
            tc = math.floor(true_count(rc, left - n))
            second[tc] = second.get(tc, Fraction(0)) + p
            starts[n] = starts.get(n, Fraction(0)) + p
    per_shoe = 1 + sum(second.values())
    result = sim.simulate(rules, "hi-lo", HI_LO, rounds=200_000, seed=3, penetration=Fraction(cut, left),
                          strategy="basic", workers=1)
    assert abs(_z(result.rounds_per_shoe, float(per_shoe))) < 4
    frequencies = {tc: p / per_shoe for tc, p in second.items()}
    frequencies[0] = frequencies.get(0, 0) + 1 / per_shoe  # every first round: TC 0
    simulated = result.frequencies
    assert set(simulated) == set(frequencies)
    for tc, p in frequencies.items():
        assert abs(_z(simulated[tc], float(p))) < 4, tc
    depths = {n: share for n, _, share in result.depths}
    assert abs(_z(depths[0], float(1 / per_shoe))) < 4
    for n, p in starts.items():
        assert abs(_z(depths[n], float(p / per_shoe))) < 4, n


# -- against the independent simulator ---------------------------------------------------------


def test_against_the_independent_simulator() -> None:
    """One deck S17 DAS LS, cut at half the deck, the chart (split hands by the chart); the
    oracle is asked each play (its options tell a split hand: no surrender there)."""
    rules = Rules(decks=1, surrender="late")
    tables, _ = _tables(rules)
    port = Port(tables)
    codes = {"S": 0, "H": 1, "D": 2, "P": 3, "R": 4}
    names = "SHDPR"

    def decide(cards, up, options, tc):
        if len(cards) == 2 and "R" in options:  # the first play of a dealt hand
            return names[port.first[up][cards[0]][cards[1]]]
        t = port.cell(list(cards))
        if len(cards) == 2 and "P" in options:
            return "P"  # a split hand dealt its pair card resplits, as the chart plays it
        if len(cards) == 2:
            play = names[port.split2[up][t]]
            return play if play in options else "H" if play == "D" else play
        return "H" if port.hit3[up][t] else "S"

    oracle = shoesim.simulate(rules.shoe_counts, shoesim.HI_LO, rounds=40_000, seed=5, penetration=0.5,
                              decide=decide, insure=lambda cards, tc: False, bet=lambda tc: 1)
    result = sim.simulate(rules, "hi-lo", HI_LO, rounds=1_000_000, seed=5, penetration=0.5, strategy="basic",
                          workers=1)
    widen = math.sqrt(result.rounds / oracle.rounds + 1)  # the oracle's SE, from ours: the same game
    per_shoe = oracle.rounds / oracle.shoes
    assert abs(per_shoe - result.rounds_per_shoe.value) < 4 * result.rounds_per_shoe.se * widen
    for tc, p in oracle.frequencies().items():
        if p > 0.01:
            estimate = result.frequencies[tc]
            assert abs(float(p) - estimate.value) < 4 * estimate.se * widen, tc
    mean, se = oracle.win_rate()
    flat = result.win.ev_per_round_played
    assert abs(mean - flat.value) < 4 * math.hypot(se, flat.se)
    assert codes  # the oracle's letters are the kernel's actions


# -- reproducible, whatever the workers ---------------------------------------------------------


def test_same_seed_same_numbers_whatever_the_workers(monkeypatch) -> None:
    monkeypatch.setattr(sim, "BLOCK_ROUNDS", 20_000)  # the blocks are cut here, not in the workers
    rules = Rules(decks=2)
    rounds = 2 * sim.BLOCK_ROUNDS  # two blocks
    kwargs = dict(rounds=rounds, penetration=0.7, strategy="basic", spread="<=0:1,1:2,>=2:4")
    one = sim.simulate(rules, "hi-lo", HI_LO, seed=11, workers=1, **kwargs)
    two = sim.simulate(rules, "hi-lo", HI_LO, seed=11, workers=2, **kwargs)
    other = sim.simulate(rules, "hi-lo", HI_LO, seed=12, workers=1, **kwargs)
    strip = lambda r: {k: v for k, v in r.to_dict().items() if k not in ("run", "cpu_seconds")}  # noqa: E731
    assert one.blocks == 2 and strip(one) == strip(two)
    assert strip(one) != strip(other)
    assert one.rounds >= rounds and sum(row.rounds for row in one.true_counts) == one.rounds


def _deal(tables, bins: int, rounds: int = 20_000):
    """One block dealt by the kernel with its depths summed in ``bins`` bins (the header's
    field set by hand): the block's sums cut into per depth, the shoe figures and per bin."""
    head = np.frombuffer(tables.arguments[0], dtype=np.int32).copy()
    head[simtables.HEADER.index("depth_bins")] = bins
    arguments = (head.tobytes(), *tables.arguments[1:])
    size = simtables.out_size(tables.nb, tables.cut) + simtables.K_FIELDS * (bins - simtables.DEPTH_BINS)
    out = np.zeros(size)
    simtables.kernel.deal_block(*arguments, 5, 0, rounds, out)
    at = simtables.B_FIELDS * tables.nb
    depth = out[at:at + simtables.D_FIELDS * tables.cut].reshape(-1, simtables.D_FIELDS)
    at += simtables.D_FIELDS * tables.cut
    shoe = out[at:at + simtables.G_FIELDS + simtables.G_FIELDS ** 2]
    return depth, shoe, out[at + len(shoe):].reshape(bins, simtables.K_FIELDS)


def test_depth_bins_hold_each_shoes_rounds_there() -> None:
    """The kernel's per-bin sums over shoes (a shoe's rounds in the bin, squared, and times the
    shoe's rounds), at the two ends where they are known from its other sums: one bin holds every
    round (both sums are those of the shoe's rounds squared), a bin per depth holds that depth's
    (a shoe starts at most one round at a depth)."""
    tables, _ = _tables(Rules(decks=1), cut=26)
    assert len(simtables.depth_bins(26)) == simtables.DEPTH_BINS
    depth, shoe, bins = _deal(tables, 1)
    rounds_squared = shoe[simtables.G_FIELDS]  # the products' first: rounds x rounds
    assert bins.tolist() == [[rounds_squared, rounds_squared]]
    depth, _, bins = _deal(tables, 26)
    assert bins.tolist() == depth.tolist()


def test_depth_bins_as_the_kernel_bins_them() -> None:
    """Bin k of K holds the depths n with n K // cut == k, as the kernel finds a start's bin."""
    for cut in (1, 5, 8, 9, 26, 39, 234, 312):
        bins = simtables.depth_bins(cut)
        assert len(bins) == min(cut, simtables.DEPTH_BINS) and bins[0][0] == 0 and bins[-1][1] == cut - 1
        assert [k for k, (a, b) in enumerate(bins) for _ in range(a, b + 1)] == \
            [n * len(bins) // cut for n in range(cut)]


def test_depth_bin_standard_errors_are_the_spread_over_seeds(monkeypatch) -> None:
    """A bin's share of the rounds, over 40 seeds of 10,000 rounds each (one deck, cut at 26: eight
    bins of three or four depths): its spread from seed to seed is the standard error simulate
    states (the mean of the squared z-scores about their mean is 1 within sampling). The
    root-sum-square of its depths' errors, which leaves out that a shoe's rounds at two depths are
    correlated, is up to 2.3 times too large and fails the same check (0.53 measured). The share
    is its depths' shares summed."""
    rules = Rules(decks=1)
    chart = Analysis(rules).chart()
    tables, _ = _tables(rules, cut=26)
    monkeypatch.setattr(Analysis, "chart", lambda self: chart)
    monkeypatch.setattr(sim.KernelTables, "build", lambda *args: tables)  # the same tables for every seed
    values, errors, naive = [], [], []
    for seed in range(40):
        result = sim.simulate(rules, "hi-lo", HI_LO, rounds=10_000, seed=seed, penetration=0.5, strategy="basic",
                              workers=1)
        depths = {n: share for n, _, share in result.depths}
        assert [(a, b) for a, b, _, _ in result.depth_bins] == simtables.depth_bins(26)
        for a, b, rounds, share in result.depth_bins:
            inside = [depths[n] for n in range(a, b + 1) if n in depths]
            assert rounds == sum(k for n, k, _ in result.depths if a <= n <= b)
            assert share.value == pytest.approx(sum(s.value for s in inside), abs=1e-12)
        values.append([share.value for *_, share in result.depth_bins])
        errors.append([share.se for *_, share in result.depth_bins])
        naive.append([math.sqrt(sum(depths[n].se ** 2 for n in range(a, b + 1) if n in depths))
                      for a, b, _, _ in result.depth_bins])
    spread = np.array(values) - np.mean(values, axis=0)
    mean_z2 = float(np.mean((spread / np.array(errors)) ** 2)) * 40 / 39
    assert 0.7 < mean_z2 < 1.4, mean_z2
    assert float(np.mean((spread / np.array(naive)) ** 2)) * 40 / 39 < 0.7


def test_wonging_plays_the_rounds_it_should() -> None:
    """Seated from the start with a wong-out no count reaches: every round played; waiting for a
    wong-in no count reaches: none; wong-in alone: exactly the rounds at or above it."""
    rules = Rules(decks=1)
    kwargs = dict(rounds=20_000, seed=2, penetration=0.6, strategy="basic", workers=1)
    never_leaves = sim.simulate(rules, "hi-lo", HI_LO, wong_out=-1000, **kwargs)
    assert never_leaves.win.played.value == 1
    never_sits = sim.simulate(rules, "hi-lo", HI_LO, wong_in=1000, **kwargs)
    assert never_sits.win.played.value == 0 and math.isnan(never_sits.win.ev_per_round_played.value)
    back = sim.simulate(rules, "hi-lo", HI_LO, wong_in=1, **kwargs)
    assert all(row.played == (row.rounds if row.true_count >= 1 else 0) for row in back.true_counts)


def test_every_format_says_simulated_with_standard_errors() -> None:
    """One small run with computed indices (bjcalc index on the tiny shoe, as truecount gets
    them), a spread, wonging and a bankroll, in every format."""
    import json

    from bjcalc.render.csvfile import simulate_csv
    from bjcalc.render.html import simulate_html
    from bjcalc.render.jsondoc import simulate_json
    from bjcalc.render.markdown import simulate_markdown
    from bjcalc.render.text import simulate_text

    rules = Rules(shoe=(1, 1, 1, 1, 1, 1, 1, 1, 1, 8), split_hands=2)
    result = sim.simulate(rules, "hi-lo", HI_LO, rounds=20_000, seed=4, penetration=0.5, spread="<=0:1,>=1:3",
                          wong_out=-2, bankroll=200, store=None, workers=1)
    assert result.index_depth is not None and result.indices  # computed, at the middle round's depth
    text = simulate_text(result, rules)
    assert "SIMULATED, not exact" in text and " +- " in text and "indices = " in text
    assert "SIMULATED" in simulate_markdown(result, rules)
    html = simulate_html(result, rules)
    assert html.count("<svg") >= 3 and "SIMULATED" in html and "<script" not in html
    assert simulate_csv(result).splitlines()[0].startswith("true_count,rounds,played,frequency,frequency_se")
    data = json.loads(simulate_json(result, rules))
    assert data["simulated"] is True and data["win"]["score"]["se"] > 0


# -- bad inputs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(rounds=0), sim.InvalidSimulationError, "rounds must be"),
    (dict(rounds=True), sim.InvalidSimulationError, "rounds must be"),
    (dict(seed=-1), sim.InvalidSimulationError, "seed must be"),
    (dict(seed=2 ** 64), sim.InvalidSimulationError, "seed must be"),
    (dict(strategy="cd"), sim.InvalidSimulationError, "strategy cd is not simulated"),
    (dict(strategy="chart"), InvalidSpreadError, "strategy must be"),
    (dict(penetration=1), BjcalcError, "penetration must be"),
    (dict(seats=0), BjcalcError, "seats must be"),
    (dict(spread="1:1"), InvalidSpreadError, "must cover every true count"),
    (dict(wong_in=0, wong_out=1), InvalidSpreadError, "above wong_in"),
    (dict(indices="mine"), InvalidSpreadError, "indices must be"),
    (dict(workers=0), BjcalcError, "workers must be"),
    (dict(rules=Rules(decks=33)), sim.InvalidSimulationError, "at most 1664 cards"),
    (dict(rules="6 decks"), BjcalcError, "rules must be"),
])
def test_bad_input_is_refused_before_any_work(kwargs: dict, error: type, words: str) -> None:
    call = dict(rules=Rules(decks=1), rounds=1000, seed=0, strategy="basic")
    call.update(kwargs)
    rules = call.pop("rules")
    with pytest.raises(error, match=words):
        sim.simulate(rules, "hi-lo", HI_LO, **call)


@pytest.mark.parametrize("args, words", [
    (["--rounds", "0"], "rounds"),
    (["--strategy", "cd"], "strategy cd is not simulated"),
    (["--seed", "-3"], "seed"),
    (["--spread", "1:1"], "must cover every true count"),
    (["--decks", "40"], "at most 1664 cards"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["simulate", "--decks", "1", "--rounds", "1000", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
