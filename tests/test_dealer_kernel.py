"""The compiled dealer loop (bjcalc/engine/_dealer_kernel.c) against the numpy loop it replaces
and against exact arithmetic (its 128-bit exact pass against the residue arithmetic, integer
for integer); and a whole round computed both ways."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from bjcalc import Analysis, Rules
from bjcalc.cards import BUST
from bjcalc.engine import dealer as d
from bjcalc.engine import jointdealer, kernels, pools, residues

needs_kernel = pytest.mark.skipif(kernels.dealer_kernel is None, reason="compiled dealer loop not built")


def _numpy_float(dealer, shoe, removed, depth):
    parts = [d._outcome_numerators(dealer, shoe, removed[i : i + 97], depth, False) for i in range(0, len(removed), 97)]
    return {o: np.concatenate([p[0][o] for p in parts]) for o in dealer.outcomes}


@needs_kernel
@pytest.mark.parametrize("h17,max_cards", [(False, None), (True, None), (False, 5), (True, 3)])
@pytest.mark.parametrize("decks", [1, 6])
def test_kernel_matches_numpy_loop(h17, max_cards, decks):
    rng = np.random.default_rng(decks * 10 + h17)
    for up in range(10):
        dealer = d.compiled_dealer(up, h17, max_cards)
        shoe = tuple(4 * decks * (4 if r == 9 else 1) - (r == up) for r in range(10))
        removed = rng.integers(0, 3, size=(301, 10))  # not a multiple of the block size
        depth = d.max_draws(dealer, shoe)
        fast, denominators = d._kernel_numerators(dealer, shoe, removed, depth)
        slow = _numpy_float(dealer, shoe, removed, depth)
        assert set(fast) == set(slow)
        for outcome in slow:
            np.testing.assert_allclose(fast[outcome], slow[outcome], rtol=1e-13, atol=0)
        total = sum(fast.values())
        np.testing.assert_allclose(total, denominators, rtol=1e-13)  # each shoe's outcomes sum to 1


@needs_kernel
def test_kernel_matches_exact_numerators():
    dealer = d.compiled_dealer(5, True, None)
    shoe = (4, 4, 4, 4, 4, 3, 4, 4, 4, 16)
    removed = np.array([[0] * 10, [2, 1, 0, 0, 3, 0, 1, 0, 0, 4], [4, 4, 4, 0, 0, 0, 0, 0, 0, 0]])
    depth = d.max_draws(dealer, shoe)
    fast, fast_den = d._kernel_numerators(dealer, shoe, removed, depth)
    exact, exact_den = d.outcome_numerators(dealer, shoe, removed, depth, exact=True)
    for outcome in exact:
        for i in range(len(removed)):
            want = Fraction(int(exact[outcome][i]), int(exact_den[i]))
            got = fast[outcome][i] / fast_den[i]
            assert abs(got - float(want)) <= 1e-15


needs_joint = pytest.mark.skipif(not kernels.joint_kernel_available(), reason="compiled joint dealer pass not built")


@needs_joint
@pytest.mark.parametrize("h17,max_cards", [(False, None), (True, None), (False, 5), (True, 3)])
@pytest.mark.parametrize("shoe", [(4,) * 9 + (16,), (24,) * 9 + (96,), (2, 1, 3, 0, 2, 2, 1, 3, 2, 6)])
def test_joint_pass_equals_each_up_cards_exact_numerators(h17, max_cards, shoe):
    """The one pass for every up card (dealer.JointDealer) against the exact per-up-card
    numerators, outcome by outcome, on depleted shoes (some ranks run out); a row that leaves
    no card of the up card's rank gets zeros for that up card."""
    rng = np.random.default_rng(sum(shoe) + 7 * h17 + (max_cards or 0))
    joint = jointdealer.joint_dealer(h17, max_cards)
    removed = np.minimum(rng.integers(0, 3, size=(83, 10)), np.array(shoe))  # 83: not a whole block
    depths, pays = [], np.zeros((10, joint.n_out, 2))
    for up in range(10):
        after = shoe[:up] + (shoe[up] - 1,) + shoe[up + 1 :]
        depths.append(d.max_draws(d.compiled_dealer(up, h17, max_cards), after) if shoe[up] else -1)
        pays[up, :, 0] = 1  # the stand columns: all outcomes, and the bust alone
        pays[up, :, 1] = [o == BUST for o in joint.outcomes[up]] + [0] * (joint.n_out - len(joint.outcomes[up]))
    matrix, stand = jointdealer.joint_numerators(joint, shoe, removed, depths, pays)
    for up in range(10):
        if not shoe[up]:
            continue
        dealer = d.compiled_dealer(up, h17, max_cards)
        after = shoe[:up] + (shoe[up] - 1,) + shoe[up + 1 :]
        live = removed[:, up] < shoe[up]
        assert not matrix[up][~live].any()
        exact, denominators = d.outcome_numerators(dealer, after, removed[live], depths[up], exact=True)
        assert list(joint.outcomes[up]) == dealer.outcomes
        for slot, outcome in enumerate(dealer.outcomes):
            for got, want, den in zip(matrix[up][live][:, slot], exact[outcome], denominators):
                assert abs(got / float(den) - Fraction(int(want), int(den))) <= 1e-15, (up, outcome)
        np.testing.assert_allclose(stand[up][live][:, 0], [float(den) for den in denominators], rtol=1e-14)
        busts = matrix[up][:, dealer.outcomes.index(BUST)] if BUST in dealer.outcomes else 0 * stand[up][:, 1]
        np.testing.assert_allclose(stand[up][:, 1], busts, rtol=1e-15)


@needs_joint
def test_joint_pass_on_both_cores_gives_the_same_numbers(monkeypatch):
    joint = jointdealer.joint_dealer(False, None)
    shoe = (32,) * 9 + (128,)
    removed = np.random.default_rng(3).integers(0, 4, size=(5000, 10))
    depths = [d.max_draws(d.compiled_dealer(up, False, None), shoe[:up] + (shoe[up] - 1,) + shoe[up + 1 :])
              for up in range(10)]
    pay = np.ones((10, joint.n_out, 1))
    whole = jointdealer.joint_numerators(joint, shoe, removed, depths, pay)
    monkeypatch.setattr(pools, "_PARTS", 1)
    single = jointdealer.joint_numerators(joint, shoe, removed, depths, pay)
    assert all(np.array_equal(a, b) for a, b in zip(whole, single))


needs_exact_kernel = pytest.mark.skipif(not kernels.HAS_EXACT_PASS, reason="no 128-bit exact loop in this build")


@needs_exact_kernel
@pytest.mark.parametrize("h17,max_cards", [(False, None), (True, None), (True, 4)])
def test_exact_kernel_matches_the_residue_arithmetic(h17, max_cards):
    rng = np.random.default_rng(7 + h17)
    for up in range(10):
        dealer = d.compiled_dealer(up, h17, max_cards)
        for shoe in (tuple(32 * (4 if r == 9 else 1) - (r == up) for r in range(10)),  # 8 decks
                     tuple(int(n) for n in rng.integers(0, 5, size=10))):  # a few cards
            removed = np.minimum(rng.integers(0, 4, size=(67, 10)), np.array(shoe)[None, :])
            depth = d.max_draws(dealer, shoe)
            assert residues.fits_128_bits(shoe, removed, depth)
            fast, fast_den = d._kernel_numerators(dealer, shoe, removed, depth, exact=True)
            slow, slow_den = d._exact_numerators(dealer, shoe, removed, depth)
            assert fast.keys() == slow.keys() and fast_den.tolist() == slow_den.tolist()
            for outcome in slow:
                assert fast[outcome].tolist() == slow[outcome].tolist()  # Python ints, equal


def test_shoes_too_large_for_128_bits_take_the_residues():
    dealer = d.compiled_dealer(9, False, None)
    huge = (4_000_000,) * 9 + (16_000_000,)
    removed = np.zeros((1, 10), dtype=np.int64)
    assert not residues.fits_128_bits(huge, removed, d.max_draws(dealer, huge))
    table = Analysis(Rules(decks=1_000_000), exact=True).dealer("T")
    assert sum(table.values()) == 1


@needs_kernel
def test_round_same_with_numpy_loop(monkeypatch):
    rules = Rules(decks=2, hit_soft_17=True, split_hands=4, surrender="late", double_after_split=True)
    compiled = Analysis(rules).round().ev
    monkeypatch.setenv("BJCALC_NUMPY_DEALER", "1")
    assert not kernels.dealer_kernel_available()
    with_numpy = Analysis(rules).round().ev
    assert abs(compiled - with_numpy) < 1e-13


@needs_kernel
def test_large_batches_cut_into_parts_give_the_same_numbers(monkeypatch):
    dealer = d.compiled_dealer(0, False, None)
    shoe = (31, 32, 32, 32, 32, 32, 32, 32, 32, 128)
    removed = np.random.default_rng(5).integers(0, 5, size=(5000, 10))
    depth = d.max_draws(dealer, shoe)
    parts, _ = d._kernel_numerators(dealer, shoe, removed, depth)
    monkeypatch.setattr(pools, "_PARTS", 1)
    whole, _ = d._kernel_numerators(dealer, shoe, removed, depth)
    for outcome in whole:
        assert np.array_equal(parts[outcome], whole[outcome])


def test_the_compiled_loop_is_in_use_where_a_compiler_is():
    """The tests import bjcalc from the source tree: an install that is not editable leaves the
    compiled loop in site-packages and the tests would quietly run the numpy loop."""
    import shutil

    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler: the numpy loop is the expected one")
    assert kernels.dealer_kernel is not None, (
        "bjcalc/_dealer_kernel is not built in the source tree: install with "
        "`python3 -m pip install -e '.[test]'` (or run `python3 setup.py build_ext --inplace`)"
    )


@needs_exact_kernel
def test_exact_halves_join_to_the_same_integers():
    dealer = d.compiled_dealer(0, False, None)
    shoe = (31,) + (32,) * 8 + (128,)
    removed = np.array([[0] * 10, [1, 0, 2, 0, 0, 1, 0, 0, 0, 3]])
    depth = d.max_draws(dealer, shoe)
    halves = d.exact_halves(dealer, shoe, removed, depth)
    assert halves is not None and halves.dtype == np.uint64 and halves.shape == (2, len(dealer.outcomes), 2)
    joined = residues.join_halves(halves)
    exact, _ = d._exact_numerators(dealer, shoe, removed, depth)
    for i, outcome in enumerate(dealer.outcomes):
        assert joined[:, i].tolist() == exact[outcome].tolist()


@needs_joint
@pytest.mark.parametrize("rules", [
    dict(hit_soft_17=True), dict(dealer_max_cards=5), dict(hole_card="none", blackjack_takes="original"),
    dict(charlie=5, split_hands=2), dict(surrender="early"), dict(blackjack_pays="6:5", double="10-11"),
    dict(player_max_cards=4, dealer_max_cards=4), dict(split_hands=4, resplit_aces=True, hit_split_aces=True),
], ids=str)
def test_a_float_analysis_on_the_joint_pass_equals_the_exact_one(rules):
    """Float mode reads the joint pass (every up card at once), exact mode its 128-bit version
    (tests/test_joint_exact.py checks it against the exact pass of each up card): the round and
    a hand against each up card agree to rounding, on a depleted deck."""
    assert kernels.joint_kernel_available()
    shoe = (4, 3, 4, 4, 3, 4, 4, 4, 4, 15)
    float_, exact = Analysis(Rules(shoe=shoe, **rules)), Analysis(Rules(shoe=shoe, **rules), exact=True)
    assert float_.engine._joint is not None and not float_.engine._joint.exact
    assert (exact.engine._joint is not None) == kernels.joint_exact_available()
    assert abs(float_.round().house_edge - float(exact.round().house_edge)) < 1e-15
    for up in "A23456789T":
        got, want = float_.hand("8,8", up).evs, exact.hand("8,8", up).evs
        assert got.keys() == want.keys()
        assert all(abs(got[a] - float(want[a])) < 1e-14 for a in want), up


@needs_joint
def test_gather_reads_each_column_from_the_part_that_holds_it():
    """The joint batch's read of stand numerators (dealer_kernel.gather) from parts held apart:
    element by element what indexing the parts joined gives, for columns in any order and
    repeated; bad parts or columns are refused, not read out of bounds."""
    rng = np.random.default_rng(5)
    rows, width = [3, 64, 1, 130], 7
    parts = [rng.random((10, n, width)) for n in rows]
    firsts = np.cumsum([0] + rows[:-1]).astype(np.int64)
    joined = np.concatenate(parts, axis=1)
    columns = rng.integers(0, sum(rows), size=1000).astype(np.intp)
    pay = rng.integers(0, width, size=1000).astype(np.int64)
    for up in (0, 4, 9):
        out = np.empty(len(columns))
        kernels.dealer_kernel.gather(firsts, parts, up, width, columns, pay, out)
        assert np.array_equal(out, joined[up, columns, pay])
    out = np.empty(1)
    with pytest.raises(IndexError):
        kernels.dealer_kernel.gather(firsts, parts, 0, width, np.array([sum(rows)], dtype=np.intp),
                                     np.zeros(1, dtype=np.int64), out)
    with pytest.raises(ValueError):  # the parts' firsts do not follow their sizes
        kernels.dealer_kernel.gather(firsts + 1, parts, 0, width, columns[:1], pay[:1], out)


def test_shoe_index_rows_from_any_column():
    """ShoeIndex.rows(start) joins only the chunks from ``start`` on, and reads the same rows
    as the whole index cut at ``start``, before and after a read from the start joins it."""
    from bjcalc.engine.batch import ShoeIndex
    from bjcalc.engine.values import unsplit_layers

    index = ShoeIndex()
    rules = Rules(decks=1)
    layers = unsplit_layers(rules)
    for extra in [(0,) * 10, (1,) + (0,) * 9, (0, 2) + (0,) * 8]:
        index.register(layers, extra)
    whole = np.concatenate([chunk for chunk in index._chunks])
    assert len(index._chunks) > 1 and len(whole) == len(index)
    for start in [0, 1, len(whole) // 3, len(whole) - 1, len(whole)]:
        assert np.array_equal(index.rows(start), whole[start:])
    assert len(index._chunks) == 1
    for start in [0, 5, len(whole)]:
        assert np.array_equal(index.rows(start), whole[start:])


@needs_kernel
@pytest.mark.parametrize("h17,max_cards", [(False, None), (True, None), (False, 5), (True, 3)])
@pytest.mark.parametrize("decks", [1, 8])
def test_projected_pass_matches_numpy_loop(h17, max_cards, decks):
    """Shoes grouped by their counts but for one rank (one pass per group; each shoe takes the
    group's sums with its own factors for that rank) give the numpy loop's numbers, for every
    up card and every rank (the up card's own included), down to shoes with none of the rank
    left; and each shoe's outcomes add up to its denominator."""
    rng = np.random.default_rng(decks * 10 + h17)
    for up in range(10):
        dealer = d.compiled_dealer(up, h17, max_cards)
        shoe = tuple(4 * decks * (4 if r == 9 else 1) - (r == up) for r in range(10))
        depth = d.max_draws(dealer, shoe)
        for rank in range(10):
            removed = rng.integers(0, 3, size=(211, 10))
            removed[:, rank] = rng.integers(0, shoe[rank] + 1, size=len(removed))  # many shoes a group
            removed[::7, rank] = shoe[rank]  # none of the rank left
            matrix, denominators = d.projected_numerators(dealer, shoe, removed, depth, rank)
            slow = _numpy_float(dealer, shoe, removed, depth)
            for i, outcome in enumerate(dealer.flat.outcomes):
                np.testing.assert_allclose(matrix[:, i], slow[outcome], rtol=1e-13, atol=0)
            np.testing.assert_allclose(matrix.sum(axis=1), denominators, rtol=1e-13)


@needs_kernel
def test_projected_pass_cut_into_parts_gives_the_same_numbers(monkeypatch):
    dealer = d.compiled_dealer(6, False, None)
    shoe = (32, 32, 32, 32, 32, 32, 31, 32, 32, 128)
    rng = np.random.default_rng(5)
    removed = rng.integers(0, 4, size=(5000, 10))
    depth = d.max_draws(dealer, shoe)
    monkeypatch.setattr(pools, "_PARTS", 1)
    whole, _ = d.projected_numerators(dealer, shoe, removed, depth, 1)
    monkeypatch.setattr(pools, "_PARTS", 3)
    parts, _ = d.projected_numerators(dealer, shoe, removed, depth, 1)
    assert np.array_equal(whole, parts)
