"""Issue 42, item 4: a counter's shoe whose ranks are certainly gone, in float mode.

A count can leave a rank certainly used up: Hi-Lo +20 after 20 cards of one deck puts every
2 to 6 in the discards, and -20 every ace and ten. An up card the shoe cannot show, or a pair
it cannot deal against an up card, then has probability 0, exactly. Float mode solved the splits
of every pair in the shoe's counts against every up card in them before the deal, and divided
by that zero weight (ZeroDivisionError in bjcalc.numbers.quotient); exact mode solves only what
is dealt. A state of probability 0 is now skipped (it adds 0): float mode gives the exact
results to 1e-12, and where the discards are all of one tag class the cards left are known, so
the counter's numbers are a plain composition's, worked out independently of the counter's
shoe.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

from bjcalc import Analysis, Rules, truecount_analysis
from bjcalc.cli import cli
from bjcalc.counting.countshoe import Counter, running_count_distribution
from bjcalc.counting.systems import SYSTEMS
from bjcalc.counting.truecount import _likely
from bjcalc.engine.analyser import Engine
from bjcalc.engine.split import PostSplit, SplitSolver

HI_LO = SYSTEMS["hi-lo"]
ACES = (-1,) + (0,) * 9  # an ace side count: the running count is minus the aces seen
ONE_DECK_COUNTER = ("--decks", "1", "--count", "hi-lo", "--cards-seen", "20")
# the cards left once every low card (2-6) went to the 20 discards; and every ace and ten
LOW_GONE = (4, 0, 0, 0, 0, 0, 4, 4, 4, 16)
HIGH_GONE = (0, 4, 4, 4, 4, 4, 4, 4, 4, 0)


def close(x, exact) -> bool:
    return math.isclose(float(x), float(Fraction(exact)), rel_tol=1e-12, abs_tol=1e-15)


def run_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def as_shoe(counts: tuple[int, ...]) -> str:
    return ",".join(map(str, counts))


def counter_analysis(rules: Rules, tags, seen: int, rc: int, exact: bool) -> Analysis:
    counter = Counter.of(rules.shoe_counts, "custom", tags, seen, running_count=rc)
    return Analysis(rules, shoe=counter.for_analysis(), exact=exact)


# -- every card of a tag class gone: the cards left are a known composition ------------------------


@pytest.mark.parametrize("rc, left", [(20, LOW_GONE), (-20, HIGH_GONE)])
def test_edge_with_a_class_certainly_gone_is_the_composition_left(rc, left):
    counted = run_json("edge", *ONE_DECK_COUNTER, "--running-count", str(rc))
    plain = run_json("edge", "--shoe", as_shoe(left), "--exact")
    assert close(counted["ev"], plain["exact"]["ev"])
    for up, p in counted["upcard_probability"].items():
        # the composition's table lists only the up cards it holds; the others cannot show
        assert close(p, plain["exact"]["upcard_probability"].get(up, 0)), up
        assert close(counted["by_upcard"][up], plain["exact"]["by_upcard"].get(up, 0)), up
    gone = [up for up, p in counted["upcard_probability"].items() if p == 0]
    assert gone == (["2", "3", "4", "5", "6"] if rc > 0 else ["T", "A"])
    # with every ace gone no insurance is offered, as with a shoe without aces
    assert (counted["insurance"] is None) == (rc < 0)
    if rc > 0:
        assert close(counted["insurance"], plain["exact"]["insurance"])


def test_matrix_with_every_low_card_gone_is_the_composition_left():
    counted = run_json("matrix", *ONE_DECK_COUNTER, "--running-count", "20")
    plain = run_json("matrix", "--shoe", as_shoe(LOW_GONE), "--exact")
    assert close(counted["round"]["ev"], plain["exact"]["round"]["ev"])
    cells = {(c["hand"], c["up"]): c for c in counted["cells"]}
    # the exact mirror's cells are the float cells', in order
    wanted = {(c["hand"], c["up"]): exact for c, exact in zip(plain["cells"], plain["exact"]["cells"], strict=True)}
    assert set(cells) == set(wanted)  # no cell the counter's shoe cannot deal
    assert {up for _, up in cells} == {"7", "8", "9", "T", "A"}
    for key, want in wanted.items():
        got = cells[key]
        for field in ("probability", "stand", "hit", "double", "split", "surrender", "best_unconditional"):
            if field in want:
                assert close(got[field], want[field]), (key, field)
            else:
                assert got.get(field) is None, (key, field)


def test_betbehind_with_every_low_card_gone_is_the_composition_left():
    counted = run_json("betbehind", *ONE_DECK_COUNTER, "--running-count", "20")
    plain = run_json("betbehind", "--shoe", as_shoe(LOW_GONE), "--exact")["exact"]
    for field in ("follows_everything", "cannot_afford"):
        assert close(counted[field]["ev"], plain[field]["ev"]), field


# -- a pair the shoe cannot deal against an up card it can show ------------------------------------


def test_an_undealable_pair_against_a_possible_up_card():
    """Three aces seen of one deck's four: every up card can show, but no pair of aces can be
    dealt. The cards left are known (one ace): the composition's numbers, split aces aside."""
    rules = Rules(decks=1, split_hands=2)
    counted = counter_analysis(rules, ACES, 3, -3, exact=False)
    engine = counted.engine
    assert all(engine.context(up).up_probability() > 0 for up in range(10))
    assert all(0 not in engine.splits(up).pairs() for up in range(10))
    got = counted.round()
    want = Analysis(Rules(shoe=(1, 4, 4, 4, 4, 4, 4, 4, 4, 16), split_hands=2), exact=True).round()
    assert close(got.ev, want.ev)
    for up, value in want.by_upcard.items():
        assert close(got.by_upcard[up], value), up


def test_the_two_deck_state_that_truecount_reaches():
    """``bjcalc truecount --decks 2 --split-hands 2 --penetration 0.75`` reaches this state, where
    at most two aces and tens are left: an ace can show, a pair of aces against it cannot."""
    args = ("edge", "--decks", "2", "--split-hands", "2", "--count", "hi-lo", "--running-count", "-22",
            "--cards-seen", "77")
    counted = run_json(*args)
    exact = run_json(*args, "--exact")["exact"]
    assert close(counted["ev"], exact["ev"])
    for up, value in exact["by_upcard"].items():
        assert close(counted["by_upcard"][up], value), up
    assert counted["upcard_probability"]["A"] > 0


def test_a_zen_state_with_a_rank_certainly_gone():
    """Zen +20 after ten cards of one deck: all ten are 4s, 5s or 6s (tag +2), so two of them are
    left and no up card of the three can be dealt a pair of its rank (``bjcalc truecount --decks 1
    --count zen --penetration 0.4`` reaches it)."""
    tags = SYSTEMS["zen"]
    rules = Rules(decks=1, split_hands=2)
    got = counter_analysis(rules, tags, 10, 20, exact=False).round()
    want = counter_analysis(rules, tags, 10, 20, exact=True).round()
    assert close(got.ev, want.ev)
    for up, value in want.by_upcard.items():
        assert close(got.by_upcard[up], value), up
    # on the game truecount analyses (split to 4 hands), float mode gives a result too
    full = counter_analysis(Rules(decks=1, surrender="late"), tags, 10, 20, exact=False)
    assert -1 < full.round().ev < 1


def test_pairs_lists_only_what_a_counters_shoe_can_deal():
    """The pairs the engine solves against each up card, ahead of the deal in float mode."""
    counter = Counter.of(Rules(decks=1).shoe_counts, "hi-lo", HI_LO, 20, running_count=20)
    engine = Engine(Rules(decks=1), False, PostSplit.CDZ, model=counter.for_analysis().draw_model())
    for up in range(10):
        pairs = SplitSolver.optimal(engine.context(up), None, engine.post_split).pairs()
        assert pairs == ([] if 1 <= up <= 5 else [0, 6, 7, 8, 9]), up


# -- --tail 0 analyses every state ------------------------------------------------------------------


def test_tail_zero_keeps_every_state():
    rounds = [{Fraction(0): 0.5, Fraction(-1): 1e-20}, {Fraction(-4): 0.0, Fraction(2): 0.5}]
    assert _likely(rounds, 0)[0] == [set(at) for at in rounds]
    assert _likely(rounds, 1e-9)[0] == [{Fraction(0)}, {Fraction(2)}]


def test_truecount_with_tail_zero_analyses_every_state():
    """With an ace side count every running count is the aces seen: at -4 the aces are all gone
    (the shoe shows no ace and deals no pair of them), at -3 one is left (no pair of aces)."""
    rules = Rules(decks=1, split_hands=2)
    result = truecount_analysis(rules, "aces", ACES, penetration=Fraction(14, 52), placement="spaced", tail=0,
                                indices="published", workers=1)
    states = {(n, rc) for n in result.starts for rc in running_count_distribution(rules.shoe_counts, ACES, n)}
    assert any(rc == -4 for _, rc in states)
    assert result.left_out == 0
    assert result.run.computed + result.run.stored == len(states)
