"""The compiled float player pass (bjcalc/engine/_player_kernel.c) against the numpy pass it
replaces (``BJCALC_NUMPY_PLAYER=1``): every hand's stand, hit, double, one-card and best
values, the plays chosen, the split values and the round, over rule sets that take every branch
of the loop (peek and no hole card with each ``blackjack_takes`` policy, charlie, card limits,
H17, split hands with DAS, CDP / CDP1 / CDZ- and chart-played split hands)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import both_player_loops

from bjcalc import Analysis, Rules
from bjcalc.engine import kernels
from bjcalc.engine import values as v
from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.hands import hand_layers
from bjcalc.engine.split import may_double_after_split

needs_kernel = pytest.mark.skipif(kernels.player_kernel is None, reason="compiled player loop not built")

SHOE = (8, 8, 8, 8, 8, 8, 8, 8, 8, 32)  # two decks: quick, and deep enough for every rule

RULE_SETS = {
    "peek S17 DAS RS4 LS": dict(surrender="late", split_hands=4, double_after_split=True),
    "peek H17 no DAS, resplit and hit aces": dict(hit_soft_17=True, double_after_split=False,
                                                  resplit_aces=True, hit_split_aces=True),
    "no hole card, takes all": dict(hole_card="none", blackjack_takes="all", split_hands=3),
    "no hole card, takes the original bet": dict(hole_card="none", blackjack_takes="original"),
    "no hole card, live": dict(hole_card="none", blackjack_takes="live", hit_soft_17=True, surrender="early"),
    "five-card charlie, 10/11 doubles": dict(charlie=5, double="10-11", double_soft=False),
    "card limits": dict(player_max_cards=4, dealer_max_cards=5, hole_card="none"),
    "six-card charlie and limit, no splits": dict(charlie=6, player_max_cards=6, split_hands=1),
}


def _close(a, b, what):
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-12, atol=1e-300,
                               err_msg=what)


def _same_values(fast: v.HandValues, slow: v.HandValues, what: str) -> None:
    assert fast.shoe == slow.shoe and list(fast.scale) == list(slow.scale)
    assert fast.can_hit == slow.can_hit and fast.double_layer == slow.double_layer
    for name in ("stand", "hit", "best", "blackjack"):
        for k, (a, b) in enumerate(zip(getattr(fast, name), getattr(slow, name))):
            _close(a, b, f"{what}: {name}, layer {k}")
    for name in ("double", "one_card"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert (a is None) == (b is None), name
        if a is not None:
            _close(a, b, f"{what}: {name}")
    for k, (a, b) in enumerate(zip(fast.decision, slow.decision)):
        # the plays agree wherever the values of the two plays are not a tie to rounding
        hit, stand = slow.hit[k], slow.stand[k]
        tie = np.isclose(hit, stand, rtol=1e-12, atol=0)
        if k == slow.double_layer and slow.double is not None:
            tie |= np.isclose(slow.double, np.maximum(hit, stand), rtol=1e-12, atol=0)
        differ = (np.asarray(a) != np.asarray(b)) & ~tie
        assert not differ.any(), f"{what}: plays differ in layer {k} at rows {np.flatnonzero(differ)[:10]}"


@needs_kernel
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_hand_and_split_matches_the_numpy_loop(monkeypatch, name):
    rules = Rules(shoe=SHOE, **RULE_SETS[name])

    def build():
        analysis = Analysis(rules)
        engine = analysis.engine
        tables = {up: engine.table(up) for up in engine.ups()}
        splits = {
            (up, pair): [engine.splits(up).value(pair), engine.splits(up).value(pair, first_hand_only=True)]
            for up in engine.ups() for pair in engine.splits(up).pairs()
        }
        return tables, splits, analysis.round().ev

    (tables, splits, ev), (slow_tables, slow_splits, slow_ev) = both_player_loops(monkeypatch, build)
    for up, table in tables.items():
        _same_values(table, slow_tables[up], f"{name}, up {up}")
    assert splits.keys() == slow_splits.keys()
    for key, values in splits.items():
        _close(values, slow_splits[key], f"{name}: split {key}")
    assert abs(ev - slow_ev) < 1e-12


@needs_kernel
@pytest.mark.parametrize("post_split", ["cdz-", "cdp1", "cdp"])
def test_post_split_strategies_match_the_numpy_loop(monkeypatch, post_split):
    rules = Rules(shoe=SHOE, hit_soft_17=True, split_hands=4, resplit_aces=True, double_after_split=True)

    def build():
        analysis = Analysis(rules, post_split=post_split)
        engine = analysis.engine
        values = {
            (up, pair): engine.splits(up).value(pair) for up in engine.ups() for pair in engine.splits(up).pairs()
        }
        return values, analysis.round().ev

    (values, ev), (slow_values, slow_ev) = both_player_loops(monkeypatch, build)
    for key, value in values.items():
        _close(value, slow_values[key], f"{post_split}: split {key}")
    assert abs(ev - slow_ev) < 1e-12


@needs_kernel
@pytest.mark.parametrize("name", ["peek S17 DAS RS4 LS", "no hole card, live", "five-card charlie, 10/11 doubles"])
def test_a_chart_played_by_both_loops_has_the_same_value(monkeypatch, name):
    rules = Rules(shoe=SHOE, **RULE_SETS[name])
    chart = Analysis(rules).chart()  # the chart is found once; both loops then play it

    def build():
        analysis = Analysis(rules)
        behind = analysis.bet_behind(chart)  # its one-card values too
        return [analysis.evaluate(chart).round.ev, behind.follows_everything, behind.cannot_afford]

    fast, slow = both_player_loops(monkeypatch, build)
    _close(fast, slow, name)


@needs_kernel
@pytest.mark.parametrize("up", [0, 5, 9])
@pytest.mark.parametrize("hole_card", ["peek", "none"])
def test_several_shoes_at_once_with_fixed_plays(monkeypatch, up, hole_card):
    """solve_many directly: several shoes stacked, a lost or returned split bet, doubling after
    split, the plays chosen or fixed (random plays, doubles included, also where the loop
    does not double)."""
    rules = Rules(shoe=SHOE, hole_card=hole_card, charlie=6, double_after_split=True)
    rng = np.random.default_rng(up)
    pair = 7
    extras = tuple(tuple((1 + r) if rank == pair else (r % 2) * (rank == 3) for rank in range(10)) for r in range(4))

    def build():
        context = UpcardContext(rules, up, exact=False)
        layers = hand_layers(rules.shoe_counts, 1, v.stop_at(rules), tuple(int(r == pair) for r in range(10)))
        may_double = may_double_after_split(rules, layers, pair)
        fixed = [rng.choice([Code.STAND, Code.HIT, Code.DOUBLE], size=len(c)) for c in layers.counts]
        out = []
        for loss in (0, 1):
            out.append(v.solve_many(context, layers, extras, loss=loss, may_double=may_double))
            out.append(v.solve_many(context, layers, extras, loss=loss, decisions=fixed))
        unsplit = v.unsplit_layers(rules)
        out.append(v.solve_many(context, unsplit, extras[:2], limit=4))
        return out

    state = rng.bit_generator.state
    fast = build()
    rng.bit_generator.state = state  # the same random plays for the numpy loop
    monkeypatch.setenv("BJCALC_NUMPY_PLAYER", "1")
    slow = build()
    for i, (many, slow_many) in enumerate(zip(fast, slow)):
        assert len(many) == len(slow_many)
        for j, (a, b) in enumerate(zip(many, slow_many)):
            _same_values(a, b, f"call {i}, shoe {j}")


@needs_kernel
def test_the_8_deck_round_is_the_same_to_the_last_bit_or_nearly(monkeypatch):
    rules = Rules(decks=8, surrender="late", split_hands=4, double_after_split=True)
    fast, slow = both_player_loops(monkeypatch, lambda: Analysis(rules).round().ev)
    assert abs(fast - slow) < 1e-14


@needs_kernel
def test_the_kernel_refuses_arrays_that_do_not_fit():
    rules = Rules(shoe=SHOE)
    context = UpcardContext(rules, 5, exact=False)
    layers = v.unsplit_layers(rules)
    inputs = v._kernel_inputs(context, layers, ((0,) * 10,))
    flat = layers.flat
    rows = len(flat.layer)

    def call(rows_out=rows, stand=inputs.stand, counts=flat.counts):
        out = [np.empty(rows_out) for _ in range(4)]
        two = np.empty(len(layers.counts[0]))
        kernels.player_kernel.solve(counts, flat.children, flat.starts, inputs.shoe_rows, stand, inputs.suffixes,
                               None, None, *out, np.empty(rows_out, dtype=np.int64), two, two.copy(),
                               2, -1, 0, 1, 0, 21, 0, context.depth)

    call()
    with pytest.raises(ValueError, match="inconsistent"):
        call(rows_out=rows - 1)
    with pytest.raises(ValueError, match="inconsistent"):
        call(stand=inputs.stand[:-1].copy())
    with pytest.raises(TypeError, match="bytes"):
        call(counts=flat.counts.astype(np.int32))


def test_the_compiled_loop_is_in_use_where_a_compiler_is():
    """As for the dealer's loop: an install that is not editable would leave the compiled
    loop in site-packages, and the tests would quietly run the numpy one."""
    import shutil

    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the numpy loop is the expected one")
    assert kernels.player_kernel is not None, (
        "bjcalc/engine/_player_kernel is not built in the source tree: install with "
        "`python3 -m pip install -e '.[test]'` (or run `python3 setup.py build_ext --inplace`)"
    )



def _reached(layers, decisions, size_first: int, limit: int, double_layer: int | None):
    """The rows a fixed play reaches from the first layer, walked hand by hand: ``played``, the
    hands reached by drawing (a one-card hand and a hand the play hits lead to every child),
    and ``stood``, those with the children of the double layer's hands too (their double and
    one-card values stand on them)."""
    played = [set(range(len(layers.counts[0])))] + [set() for _ in layers.counts[1:]]
    stood = [set(rows) for rows in played]
    for k in range(len(layers.counts) - 1):
        size = size_first + k
        for row in stood[k]:
            play = Code.HIT if size < 2 else Code.STAND if size >= limit else int(decisions[k][row])
            children = {int(c) for c in layers.children[k][row] if c >= 0}
            if play == Code.HIT and row in played[k]:
                played[k + 1] |= children
            if play == Code.HIT or k == double_layer:
                stood[k + 1] |= children
    return played, stood


@needs_kernel
@pytest.mark.parametrize("hole_card", ["peek", "none"])
def test_roots_only_leaves_out_the_hands_no_play_reaches_and_only_those(hole_card):
    """``roots_only``: the hands the fixed play reaches have the values of the whole pass to the
    bit, the others NaN, and every decision is the play's."""
    rules = Rules(shoe=SHOE, hole_card=hole_card, double_after_split=True)
    rng = np.random.default_rng(11)
    pair = 5
    extras = tuple(tuple((1 + r) if rank == pair else 0 for rank in range(10)) for r in range(3))
    context = UpcardContext(rules, 9, exact=False)
    layers = hand_layers(rules.shoe_counts, 1, v.stop_at(rules), tuple(int(r == pair) for r in range(10)))
    may_double = may_double_after_split(rules, layers, pair)
    # mostly standing, as a real play does, so that many hands are out of reach
    fixed = [rng.choice([Code.STAND, Code.HIT, Code.DOUBLE], p=[0.6, 0.3, 0.1], size=len(c)) for c in layers.counts]
    whole = v.solve_many(context, layers, extras, loss=0, may_double=may_double, decisions=fixed)
    some = v.solve_many(context, layers, extras, loss=0, may_double=may_double, decisions=fixed, roots_only=True)
    played, stood = _reached(layers, fixed, layers.sizes[0], v.stop_at(rules), whole[0].double_layer)
    left_out = sum(len(c) - len(r) for c, r in zip(layers.counts, stood))
    assert left_out > len(layers.flat.layer) // 3  # the test leaves out many hands
    for a, b in zip(whole, some):
        for k in range(len(layers.counts)):
            assert np.array_equal(a.decision[k], b.decision[k])
            inside = np.zeros(len(layers.counts[k]), dtype=bool)
            inside[sorted(stood[k])] = True
            for name in ("stand", "blackjack"):
                assert np.array_equal(getattr(a, name)[k][inside], getattr(b, name)[k][inside])
                assert np.isnan(getattr(b, name)[k][~inside]).all()
            rows = sorted(played[k])
            assert np.array_equal(a.best[k][rows], b.best[k][rows])
            drawing = [row for row in rows if layers.sizes[k] < 2 or a.decision[k][row] == Code.HIT]
            assert np.array_equal(a.hit[k][drawing], b.hit[k][drawing])
        assert np.array_equal(a.double, b.double) and np.array_equal(a.one_card, b.one_card)
