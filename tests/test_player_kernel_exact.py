"""The compiled exact player pass (bjcalc/engine/_player_kernel.c's solve_exact, in residues
modulo primes, with the plays of the float loop and its near ties settled exactly) against
the Python-integer pass it replaces (``BJCALC_NUMPY_PLAYER=1``): every hand's stand, hit,
double, one-card, best and blackjack numerators and every play, identical integers, over rule
sets that take every branch of the loop, several shoes at once with chosen and fixed plays,
a counter's shoe, and plays handed in wrong (so that every near-tie check overturns them)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from conftest import both_player_loops
from test_player_kernel import RULE_SETS

from bjcalc import Analysis, Rules
from bjcalc.counting.countshoe import CountShoe
from bjcalc.engine import kernels
from bjcalc.engine import values as v
from bjcalc.engine.codes import Code
from bjcalc.engine.context import UpcardContext
from bjcalc.engine.hands import hand_layers
from bjcalc.engine.split import may_double_after_split

needs_kernel = pytest.mark.skipif(kernels.player_kernel is None, reason="compiled player loop not built")

SHOE = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)  # one deck: quick in exact mode
HI_LO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)


def _same(a, b, what: str) -> None:
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, what
    assert all(isinstance(x, int) for x in a.tolist() if not isinstance(x, list)), f"{what}: not Python ints"
    assert a.tolist() == b.tolist(), what


def _same_values(fast: v.HandValues, slow: v.HandValues, what: str) -> None:
    assert fast.shoe == slow.shoe and list(fast.scale) == list(slow.scale)
    assert fast.can_hit == slow.can_hit and fast.double_layer == slow.double_layer
    for name in ("stand", "hit", "best", "blackjack"):
        assert len(getattr(fast, name)) == len(getattr(slow, name))
        for k, (a, b) in enumerate(zip(getattr(fast, name), getattr(slow, name))):
            _same(a, b, f"{what}: {name}, layer {k}")
    for name in ("double", "one_card"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert (a is None) == (b is None), name
        if a is not None:
            _same(a, b, f"{what}: {name}")
    for k, (a, b) in enumerate(zip(fast.decision, slow.decision)):
        assert np.asarray(a).tolist() == np.asarray(b).tolist(), f"{what}: plays, layer {k}"
    assert (fast.weights is None) == (slow.weights is None)
    if fast.weights is not None:
        for k, (a, b) in enumerate(zip(fast.weights, slow.weights)):
            _same(a, b, f"{what}: weights, layer {k}")


def _tables_and_splits(rules: Rules, shoe: CountShoe | None = None):
    analysis = Analysis(rules, exact=True, shoe=shoe)
    engine = analysis.engine
    tables = {up: engine.table(up) for up in engine.ups()}
    splits = {(up, pair): engine.splits(up).value(pair) for up in engine.ups() for pair in engine.splits(up).pairs()}
    return tables, splits, analysis.round().ev


@needs_kernel
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_hand_and_split_is_the_same_integer(monkeypatch, name):
    rules = Rules(shoe=SHOE, **RULE_SETS[name])
    (tables, splits, ev), (slow_tables, slow_splits, slow_ev) = both_player_loops(
        monkeypatch, lambda: _tables_and_splits(rules))
    for up, table in tables.items():
        _same_values(table, slow_tables[up], f"{name}, up {up}")
    assert splits == slow_splits
    assert ev == slow_ev and isinstance(ev, Fraction) is isinstance(slow_ev, Fraction)


@needs_kernel
def test_a_counters_shoe_is_the_same_integer(monkeypatch):
    rules = Rules(shoe=SHOE, hole_card="none", split_hands=2)  # one split: the test stays quick
    shoe = CountShoe(shoe=SHOE, tags=HI_LO, seen=3, running_count=Fraction(2))
    (tables, splits, ev), (slow_tables, slow_splits, slow_ev) = both_player_loops(
        monkeypatch, lambda: _tables_and_splits(rules, shoe))
    for up, table in tables.items():
        _same_values(table, slow_tables[up], f"counter's shoe, up {up}")
    assert splits == slow_splits and ev == slow_ev


@needs_kernel
@pytest.mark.parametrize("up", [0, 5, 9])
@pytest.mark.parametrize("hole_card", ["peek", "none"])
def test_several_shoes_at_once_with_chosen_and_fixed_plays(monkeypatch, up, hole_card):
    rules = Rules(shoe=SHOE, hole_card=hole_card, charlie=6, double_after_split=True)
    pair = 7
    extras = tuple(tuple((1 + r) if rank == pair else (r % 2) * (rank == 3) for rank in range(10)) for r in range(3))
    rng = np.random.default_rng(up)
    layers = hand_layers(rules.shoe_counts, 1, v.stop_at(rules), tuple(int(r == pair) for r in range(10)))
    fixed = [rng.choice([Code.STAND, Code.HIT, Code.DOUBLE], size=len(c)) for c in layers.counts]

    def build():
        context = UpcardContext(rules, up, exact=True)
        may_double = may_double_after_split(rules, layers, pair)
        out = []
        for loss in (0, 1):
            out.append(v.solve_many(context, layers, extras, loss=loss, may_double=may_double))
            out.append(v.solve_many(context, layers, extras, loss=loss, decisions=fixed))
        out.append(v.solve_many(context, v.unsplit_layers(rules), extras[:2], limit=4))
        return out

    fast, slow = both_player_loops(monkeypatch, build)
    for i, (many, slow_many) in enumerate(zip(fast, slow)):
        assert len(many) == len(slow_many)
        for j, (a, b) in enumerate(zip(many, slow_many)):
            _same_values(a, b, f"call {i}, shoe {j}")


@needs_kernel
@pytest.mark.parametrize("name", ["peek S17 DAS RS4 LS", "no hole card, live"])
def test_wrong_float_plays_are_overturned_by_the_exact_checks(monkeypatch, name):
    """Every state counted a near tie and the float loop's plays scrambled: the exact checks
    must put every play right, and the values above them with it."""
    rules = Rules(shoe=SHOE, **RULE_SETS[name])
    expected = both_player_loops(monkeypatch, lambda: _tables_and_splits(rules))[1]
    monkeypatch.delenv("BJCALC_NUMPY_PLAYER", raising=False)
    monkeypatch.setattr(v, "NEAR_TIE", np.inf)
    float_pass = v._kernel_pass
    rng = np.random.default_rng(1)
    scrambled = []

    def wrong_plays(context, layers, extras, loss, limit, double_layer, may_double, decisions, **kwargs):
        passed = float_pass(context, layers, extras, loss, limit, double_layer, may_double, decisions, **kwargs)
        if decisions is None:  # the plays are chosen: scramble those not forced
            decision = v._flat_of(passed.decision)
            size = np.repeat(np.asarray(layers.sizes), np.diff(layers.flat.starts) * len(extras))
            free = (size >= 2) & (size < limit)
            decision[free] = rng.choice([Code.STAND, Code.HIT], size=int(free.sum()))
            scrambled.append(int(free.sum()))
        return passed

    monkeypatch.setattr(v, "_kernel_pass", wrong_plays)
    tables, splits, ev = _tables_and_splits(rules)
    assert sum(scrambled) > 100  # the scrambling ran
    slow_tables, slow_splits, slow_ev = expected
    for up, table in tables.items():
        _same_values(table, slow_tables[up], f"{name}, up {up}")
    assert splits == slow_splits and ev == slow_ev


@needs_kernel
def test_the_exact_loop_refuses_arrays_that_do_not_fit():
    rules = Rules(shoe=SHOE)
    context = UpcardContext(rules, 5, exact=True)
    layers = v.unsplit_layers(rules)
    inputs = v._exact_inputs(context, layers, ((0,) * 10,))
    assert inputs is not None
    flat = layers.flat
    rows, primes = len(flat.layer), len(inputs.primes)
    width = len(layers.counts[0])

    def call(rows_out=rows, stand=inputs.stand, primes_in=inputs.primes, layer=0):
        out = [np.zeros((rows_out, primes), dtype=np.int64) for _ in range(5)]
        two = [np.zeros((width, primes), dtype=np.int64) for _ in range(2)]
        kernels.player_kernel.solve_exact(
            flat.counts, flat.children, flat.starts, inputs.floats.shoe_rows, stand, inputs.suffixes, primes_in,
            np.zeros(rows, dtype=np.int64), *out, *two, None, None, 2, 0, 1, 1, 0, 0, context.depth, layer)

    call()
    with pytest.raises(ValueError, match="inconsistent"):
        call(rows_out=rows - 1)
    with pytest.raises(ValueError, match="inconsistent"):
        call(stand=inputs.stand[..., :-1].copy())
    with pytest.raises(ValueError, match="inconsistent"):
        call(primes_in=np.full(primes, 2**31 + 11, dtype=np.int64))
    with pytest.raises(ValueError, match="inconsistent"):
        call(layer=len(layers.counts))


@needs_kernel
@pytest.mark.parametrize("bits", [20, 100, 300, 1000])
def test_integers_are_rebuilt_from_their_residues(bits):
    """The compiled Chinese remainder theorem: random integers either side of zero, the ends
    of the range and zero, from their residues modulo the primes."""
    from bjcalc.engine.residues import primes_above

    primes = primes_above(2**bits)
    product = 1
    for p in primes:
        product *= p
    rng = np.random.default_rng(bits)
    numbers = [int.from_bytes(rng.bytes(bits // 8 + 8), "little") % product - product // 2 for _ in range(500)]
    numbers += [0, 1, -1, product // 2, -(product // 2)]
    residues = np.array([[x % p for p in primes] for x in numbers], dtype=np.int64)
    rebuilt = v._signed(residues, np.array(primes, dtype=np.int64))
    assert rebuilt.tolist() == numbers
    assert all(type(x) is int for x in rebuilt.tolist())
