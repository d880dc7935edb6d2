"""The compiled pair tables of split hands (bjcalc/engine/_pairs_kernel.c) against the numpy
code they replace, integer for integer: every pair of every rule set below, with and without
the orders whose second card resplits; the second moment's product tables of two hands; and a
split's win/push/loss computed both ways."""

from __future__ import annotations

import numpy as np
import pytest

from bjcalc import Analysis, Rank, Rules
from bjcalc.engine import kernels
from bjcalc.engine.hands import PACK
from bjcalc.engine.kernels import pairs_kernel
from bjcalc.engine.moments import _SplitSquare

needs_kernel = pytest.mark.skipif(kernels.pairs_kernel is None, reason="compiled pair tables not built")

RULES = [
    Rules(decks=1),  # peek: the dealer blackjack column is left out
    Rules(decks=2, hole_card="none", hit_soft_17=True, charlie=5, blackjack_takes="original"),  # no hole card
    Rules(decks=1, split_hands=2, surrender="late", double="10-11", double_after_split=False, player_max_cards=5),
]


def _both(monkeypatch, solver, no_resplit):
    monkeypatch.setenv("BJCALC_NUMPY_PAIRS", "1")
    slow = solver._sign_tables(0, no_resplit)
    monkeypatch.setenv("BJCALC_NUMPY_PAIRS", "0")
    assert kernels.pairs_kernel_available()
    return slow, solver._sign_tables(0, no_resplit)


@needs_kernel
@pytest.mark.parametrize("rules", RULES, ids=["peek", "no hole card", "limits"])
def test_kernel_tables_equal_the_numpy_tables(monkeypatch, rules):
    analysis = Analysis(rules)
    for up in (0, 5, 9):  # an ace (peeked), a six, a ten
        splitter = analysis.engine.splits(up)
        for pair in splitter.pairs():
            for no_resplit in (False, True):
                solver = _SplitSquare(splitter, pair, None)
                (slow_keys, slow), (fast_keys, fast) = _both(monkeypatch, solver, no_resplit)
                assert fast_keys.dtype == slow_keys.dtype and np.array_equal(fast_keys, slow_keys), (up, pair)
                for sign in (1, 0, -1):
                    assert fast[sign].dtype == np.int64 and np.array_equal(fast[sign], slow[sign]), (up, pair, sign)


@needs_kernel
@pytest.mark.parametrize("rules", RULES, ids=["peek", "no hole card", "limits"])
def test_kernel_joint_tables_equal_the_numpy_tables(monkeypatch, rules):
    """The second moment's product tables of two split hands: keys and integers the same."""
    analysis = Analysis(rules)
    combos = [("free", "free"), ("free", "paired"), ("paired", "paired")]
    for up in (0, 5, 9):
        splitter = analysis.engine.splits(up)
        for pair in splitter.pairs():
            tables = []
            for switch in ("1", "0"):
                monkeypatch.setenv("BJCALC_NUMPY_PAIRS", switch)
                solver = _SplitSquare(splitter, pair, None)
                tables.append([solver.table(("joint", a, 0, b, 0)) for a, b in combos])
            for (slow_keys, slow), (fast_keys, fast) in zip(*tables):
                assert np.array_equal(fast_keys, slow_keys), (up, pair)
                assert fast.dtype == np.int64 and np.array_equal(fast, slow), (up, pair)


@needs_kernel
def test_split_chances_are_the_same_both_ways(monkeypatch):
    rules = Rules(shoe=(2, 2, 2, 2, 2, 2, 2, 4, 2, 8), split_hands=3, surrender="none")
    found = []
    for switch in ("1", "0"):
        monkeypatch.setenv("BJCALC_NUMPY_PAIRS", switch)
        analysis = Analysis(rules, exact=True)
        found.append([analysis.split_chances(Rank.from_index(pair), Rank.from_index(up))
                      for up in range(10) for pair in analysis.engine.splits(up).pairs()])
    assert found[0] == found[1] and any(c is not None for c in found[0])


def test_the_compiled_loop_is_in_use_where_a_compiler_is():
    """As for the dealer's and the player's loops: a missing build would leave the tests on
    the numpy tables."""
    import shutil

    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the numpy tables are the expected ones")
    assert kernels.pairs_kernel is not None, (
        "bjcalc/engine/_pairs_kernel is not built in the source tree: install with "
        "`python3 -m pip install -e '.[test]'` (or run `python3 setup.py build_ext --inplace`)"
    )


@needs_kernel
@pytest.mark.parametrize("rules, ups, pairs", [
    # resplits: several removals; every pair against every up card
    (Rules(shoe=(2, 2, 2, 2, 2, 2, 2, 4, 2, 8), split_hands=3, surrender="none"), range(10), range(10)),
    (Rules(decks=1, hit_soft_17=True, double_after_split=False), (0, 6), (0, 1, 7)),
    (Rules(decks=1, hole_card="none", charlie=5, blackjack_takes="original"), (9,), (1, 7)),  # its blackjacks kept
], ids=["tiny shoe", "one deck", "no hole card"])
def test_exact_moment_sums_are_the_same_both_ways(monkeypatch, rules, ups, pairs):
    """An exact split's (E[Y], E[Y^2]): the sums modulo primes in the compiled loop
    (``residue_dots``) against numpy's, Fraction for Fraction."""
    from bjcalc.engine.moments import split_moments

    found = []
    for switch in ("1", "0"):
        monkeypatch.setenv("BJCALC_NUMPY_PAIRS", switch)
        analysis = Analysis(rules, exact=True)
        found.append([split_moments(analysis.engine.splits(up), pair) for up in ups
                      for pair in pairs if pair in analysis.engine.splits(up).pairs()])
    assert found[0] == found[1] and len(found[0]) > 1 and any(m != (0, 0) for m in found[0])


@needs_kernel
@pytest.mark.parametrize("symmetric", [True, False])
def test_joint_tables_equal_a_sum_over_every_pair(symmetric):
    """The compiled walk (pairs bucket by bucket; symmetric, each unordered pair once, a
    self-symmetric combination's two orders as one product doubled) against the plain sum over
    every ordered pair of two hands' multisets: the same multisets and the same integers, zero
    rows included."""
    rng = np.random.default_rng(3 + symmetric)
    na, nb, combos, n_out = 120, 120 if symmetric else 75, 3, 6
    keys_a = np.unique(rng.integers(0, 4, size=(400, 10)) @ PACK)[:na]
    keys_b = keys_a if symmetric else np.unique(rng.integers(0, 3, size=(300, 10)) @ PACK)[:nb]
    left = rng.integers(-50, 50, size=(len(keys_a), combos, n_out))
    right = rng.integers(-50, 50, size=(len(keys_b), combos, n_out))
    left[::9] = 0
    right[::11] = 0
    if symmetric:  # combinations 0 and 2 self-symmetric (one hand's table against itself), 1 not
        right[:, [0, 2]] = left[:, [0, 2]]
    found, sums = pairs_kernel.joint_tables(keys_a, keys_b, left, right, combos, n_out, int(symmetric))
    keys = np.frombuffer(found, dtype=np.int64)
    assert np.all(np.diff(keys) > 0)  # increasing
    got = dict(zip(keys.tolist(), np.frombuffer(sums, dtype=np.int64).reshape(combos, len(keys), n_out)
                   .transpose(1, 0, 2)))
    want: dict[int, np.ndarray] = {}
    for i, a in enumerate(keys_a.tolist()):
        for j, b in enumerate(keys_b.tolist()):
            want[a + b] = want.get(a + b, 0) + left[i] * right[j]
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert np.array_equal(got[key], value), key


@needs_kernel
@pytest.mark.parametrize("rules", RULES + [Rules(decks=8)], ids=["peek", "no hole card", "limits", "8 decks"])
def test_float_moments_are_the_same_both_ways(monkeypatch, rules):
    """A float split's (E[Y], E[Y^2]): the weights and sums of the compiled loops
    (``float_weights``, ``float_dots``; the dealer by projections) against numpy's (its dealer
    shoe by shoe), to rounding, and both against exact mode's Fractions."""
    from bjcalc.engine import moments
    from bjcalc.engine.moments import split_moments

    ups = (6,) if rules.decks == 8 else (0, 5, 6, 9)  # 8 decks: 2,2 and 3,3 against a 7, the largest
    found = []
    for switch in ("1", "0"):
        monkeypatch.setenv("BJCALC_NUMPY_PAIRS", switch)
        monkeypatch.setattr(moments, "dealer_kernel_available", lambda on=switch == "0": on)  # projections or not
        analysis = Analysis(rules)
        found.append([split_moments(analysis.engine.splits(up), pair) for up in ups
                      for pair in analysis.engine.splits(up).pairs()])
    slow, fast = np.array(found[0]), np.array(found[1])
    assert len(fast) > 3 and np.abs(fast).max() > 0.1
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-15)
    if rules.decks < 8:  # exact mode: a few seconds at one or two decks
        exact = Analysis(rules, exact=True)
        want = np.array([[float(x) for x in split_moments(exact.engine.splits(up), pair)] for up in ups
                         for pair in exact.engine.splits(up).pairs()])
        np.testing.assert_allclose(fast, want, rtol=1e-12, atol=1e-15)


@needs_kernel
@pytest.mark.parametrize("rules", RULES, ids=["peek", "no hole card", "limits"])
def test_terminal_states_are_the_same_both_ways(monkeypatch, rules):
    """A split hand's terminal states (cards, bet, kind, both counts of orders): the compiled
    walk against numpy's, array for array, Charlie and card limits included."""
    from bjcalc.engine.moments import terminal_states

    analysis = Analysis(rules)
    checked = 0
    for up in range(10):
        splitter = analysis.engine.splits(up)
        for pair in splitter.pairs():
            solved = splitter.hand_values(pair, 0)
            found = []
            for switch in ("1", "0"):
                monkeypatch.setenv("BJCALC_NUMPY_PAIRS", switch)
                found.append(terminal_states(solved, pair, rules))
            for slow, fast in zip(*found):
                assert np.array_equal(slow, fast), (up, pair)
            assert found[1][3][:, 1].sum() > 0  # some orders start with a pair card
            checked += 1
    assert checked > 20
