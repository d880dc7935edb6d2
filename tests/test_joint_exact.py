"""The exact pass of every up card at once (``joint_exact`` in bjcalc/engine/_dealer_kernel.c,
:func:`bjcalc.engine.jointdealer.joint_exact_halves`) against the exact pass of each up card
alone (the compiled 128-bit loop, ``numerators_exact``) and the numpy residue arithmetic,
integer for integer; and exact analyses with it and without it, Fraction for Fraction."""

from __future__ import annotations

import numpy as np
import pytest

from bjcalc import Analysis, Rules
from bjcalc.engine import batch, jointdealer, kernels, pools, residues
from bjcalc.engine import dealer as d

needs_joint_exact = pytest.mark.skipif(not kernels.joint_exact_available(),
                                       reason="no compiled exact joint pass in this build")

SHOES = {
    "1 deck": (4,) * 9 + (16,),
    "2 decks": (8,) * 9 + (32,),
    "8 decks": (32,) * 9 + (128,),
    "odd, depleted": (3, 1, 4, 2, 4, 1, 4, 3, 2, 11),
    "no fours": (4, 4, 0, 4, 4, 4, 4, 4, 4, 16),
}
RULES = [(False, None), (True, None), (False, 5), (True, 3)]  # (hit soft 17, dealer's card limit)


def _depths(shoe, h17, max_cards):
    return [d.dealer_depth(up, h17, max_cards, d.after_up(shoe, up)) if shoe[up] else -1 for up in range(10)]


def _removals(shoe, n, seed):
    """``n`` rows of cards out of ``shoe`` (a row can take every card of a rank, the up card's
    too), not a whole number of the loop's blocks."""
    rng = np.random.default_rng(seed)
    return np.minimum(rng.integers(0, 4, size=(n, 10)), np.array(shoe))


@needs_joint_exact
@pytest.mark.parametrize("h17,max_cards", RULES)
@pytest.mark.parametrize("name", list(SHOES))
def test_joint_exact_halves_are_each_up_cards_exact_halves(name, h17, max_cards):
    """Every up card's halves equal those of its own compiled exact pass on every row that
    leaves a card of its rank (the others are zeros: that up card cannot be dealt there);
    an up card the shoe lacks gets None."""
    shoe = SHOES[name]
    joint = jointdealer.joint_dealer(h17, max_cards)
    removed = _removals(shoe, 301, sum(shoe) + 7 * h17 + (max_cards or 0))
    depths = _depths(shoe, h17, max_cards)
    got = jointdealer.joint_exact_halves(joint, shoe, removed, depths)
    assert got is not None
    for up in range(10):
        if not shoe[up]:
            assert got[up] is None
            continue
        dealer = d.compiled_dealer(up, h17, max_cards)
        assert list(joint.outcomes[up]) == dealer.outcomes  # the slots are in the same order
        live = removed[:, up] < shoe[up]
        assert got[up].shape == (len(removed), len(dealer.outcomes), 2) and got[up].dtype == np.uint64
        assert not got[up][~live].any()
        want = d.exact_halves(dealer, d.after_up(shoe, up), removed[live], depths[up])
        assert want is not None
        assert np.array_equal(got[up][live], want), (name, up)


@needs_joint_exact
@pytest.mark.parametrize("h17,max_cards", [(False, None), (True, 4)])
@pytest.mark.parametrize("name", ["1 deck", "8 decks", "odd, depleted"])
def test_joint_exact_halves_are_the_residue_arithmetics_integers(name, h17, max_cards):
    """The same integers as the numpy pass (residues modulo primes, Chinese remainder theorem:
    no 128-bit arithmetic), each up card's denominators adding up: every outcome, the bust
    included (the joint pass's complement), on fewer rows (Python integers are slow)."""
    shoe = SHOES[name]
    joint = jointdealer.joint_dealer(h17, max_cards)
    removed = _removals(shoe, 37, 11 + h17)
    depths = _depths(shoe, h17, max_cards)
    got = jointdealer.joint_exact_halves(joint, shoe, removed, depths)
    assert got is not None
    for up in range(10):
        if not shoe[up]:
            continue
        dealer = d.compiled_dealer(up, h17, max_cards)
        live = removed[:, up] < shoe[up]
        want, denominators = d._exact_numerators(dealer, d.after_up(shoe, up), removed[live], depths[up])
        joined = residues.join_halves(got[up][live])
        for slot, outcome in enumerate(dealer.outcomes):
            assert joined[:, slot].tolist() == want[outcome].tolist(), (name, up, outcome)
        assert joined.sum(axis=1).tolist() == denominators.tolist()


@needs_joint_exact
def test_joint_exact_pass_on_both_cores_gives_the_same_integers(monkeypatch):
    shoe = SHOES["8 decks"]
    joint = jointdealer.joint_dealer(False, None)
    removed = np.random.default_rng(3).integers(0, 4, size=(3001, 10))
    depths = _depths(shoe, False, None)
    parts = jointdealer.joint_exact_halves(joint, shoe, removed, depths)
    monkeypatch.setattr(pools, "_PARTS", 1)
    whole = jointdealer.joint_exact_halves(joint, shoe, removed, depths)
    assert parts is not None and whole is not None
    assert all(np.array_equal(a, b) for a, b in zip(parts, whole))


def test_sums_past_128_bits_leave_each_up_card_alone():
    """The joint sums carry the up card's count too (``ff(cards, depth + 1)``): 40 decks fit
    each up card's pass but not the joint one, which then stands aside; an exact analysis
    evaluates each up card alone, still in 128-bit halves."""
    rules = Rules(decks=40)
    shoe = rules.shoe_counts
    depths = _depths(shoe, False, None)
    no_rows = np.zeros((1, 10), dtype=np.int64)
    assert not residues.joint_fits_128_bits(shoe, no_rows, depths)
    assert all(d.exact_kernel_fits(d.after_up(shoe, up), depths[up]) == kernels.exact_dealer_kernel_available()
               for up in range(10))
    assert jointdealer.joint_exact_halves(jointdealer.joint_dealer(False, None), shoe, no_rows, depths) is None
    assert batch.joint_batch(rules, batch.ShoeIndex(), exact=True) is None
    assert residues.joint_fits_128_bits(Rules(decks=8).shoe_counts, no_rows, depths)


def _exact(rules: Rules) -> dict:
    analysis = Analysis(rules, exact=True)
    joint = analysis.engine._joint
    return {
        "joint": joint is not None and joint.exact,
        "round": analysis.round().ev,
        "dealer": {up: analysis.dealer(up).probabilities for up in ("A", "5", "T")},
        "8,8": {up: analysis.hand("8,8", up).evs for up in ("6", "T")},
    }


@needs_joint_exact
@pytest.mark.parametrize("rules", [
    dict(decks=1),
    dict(shoe=(4, 4, 3, 4, 4, 4, 4, 4, 4, 14), hit_soft_17=True, split_hands=4, double_after_split=True,
         surrender="late"),
    dict(shoe=(4, 3, 4, 4, 3, 4, 0, 4, 4, 15), dealer_max_cards=5),
    dict(shoe=(3, 4, 4, 4, 4, 2, 4, 4, 4, 11), hit_soft_17=True, hole_card="none", blackjack_takes="original"),
], ids=str)
def test_an_exact_analysis_is_the_same_with_and_without_the_joint_pass(rules, monkeypatch):
    """The round, dealer tables and a hand's EVs, Fraction for Fraction: with the joint exact
    pass, with each up card's compiled exact pass, and with the numpy residue pass."""
    rules_ = Rules(**rules)
    joint = _exact(rules_)
    assert joint["joint"]
    monkeypatch.setattr(jointdealer, "joint_exact_available", lambda: False)
    alone = _exact(rules_)
    assert not alone["joint"]
    assert alone == joint | {"joint": False}
    monkeypatch.setenv("BJCALC_NUMPY_DEALER", "1")
    assert not kernels.dealer_kernel_available()
    numpy = _exact(rules_)
    assert numpy == alone
