"""Shoes dealt to their last cards (issue 42): bjcalc against a brute force over every card
dealt (tests/oracles/naive_lastcards.py, written from the rules alone), on tiny shoes where
rounds run out of cards.

- The dealer's outcomes, a deal that runs out included, and every unsplit hand's EVs equal the
  brute force's exactly under the rule bjcalc computes (a deal that runs out is void).
- The chance that a hand's deal runs out, with the play bjcalc assumes, equals the brute force's.
- Against the casino's rule (the discards shuffled and dealt on), whatever the discards, every
  EV, split EVs and the round's included, lies within the bound bjcalc prints.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from oracles.naive_lastcards import Rules as OracleRules
from oracles.naive_lastcards import (
    dealer_distribution,
    hand_evs,
    round_ev,
    round_runout_probability,
    runout_probability,
)

from bjcalc import Analysis, Rules
from bjcalc.errors import InvalidShoeError
from bjcalc.results import Outcome

NAMES = "A23456789T"
NONE = (0,) * 10
# shoes of 9 to 12 cards, heavy in small cards so that rounds run out (seeded, so every run
# checks the same ones)
_RANDOM = random.Random(42)


def _tiny_shoe(low: int, high: int) -> tuple[int, ...]:
    counts = [0] * 10
    for _ in range(_RANDOM.randint(low, high)):
        counts[_RANDOM.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 9])] += 1
    return tuple(counts)


SHOES = [_tiny_shoe(9, 11) for _ in range(8)]


def _cards(shoe: tuple[int, ...]) -> list[str]:
    return [NAMES[r] for r in range(10) for _ in range(shoe[r])]


def _deals(shoe: tuple[int, ...], n: int, seed: int) -> list[tuple[str, str, str]]:
    """``n`` (card, card, up card) dealt from ``shoe``."""
    pick = random.Random(seed)
    out = []
    for _ in range(n):
        cards = _cards(shoe)
        pick.shuffle(cards)
        out.append((cards[0], cards[1], cards[2]))
    return out


def _oracle_hand(a: str, b: str) -> tuple[int, int]:
    return tuple(sorted((NAMES.index(a) + 1, NAMES.index(b) + 1)))  # type: ignore[return-value]


@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize("h17", [False, True])
def test_dealer_outcomes_with_run_out_equal_brute_force(shoe, h17):
    analysis = Analysis(Rules(shoe=shoe, hit_soft_17=h17), exact=True)
    for up in range(10):
        if not shoe[up]:
            continue
        after = tuple(c - (r == up) for r, c in enumerate(shoe))
        expected = {("run-out" if k == "void" else str(k)): v
                    for k, v in dealer_distribution(after, NONE, up + 1, h17, "void").items() if v}
        got = {str(o): Fraction(str(p)) for o, p in Analysis(Rules(shoe=shoe, hit_soft_17=h17), exact=True)
               .dealer(NAMES[up]).items() if p}
        assert got == expected, (shoe, NAMES[up])
        assert sum(analysis.dealer(NAMES[up]).values()) == 1


@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize("peek", [True, False])
def test_unsplit_evs_and_run_out_chances_equal_brute_force(shoe, peek):
    """Stand, hit, double and surrender: bjcalc's EVs are the void rule's exactly, and so is the
    chance that each play's deal runs out."""
    rules = Rules(shoe=shoe, split_hands=1, surrender="late", hole_card="peek" if peek else "none")
    oracle = OracleRules(peek=peek, das=True, surrender=True, split_hands=1)
    analysis = Analysis(rules, exact=True)
    for a, b, up in _deals(shoe, 4, hash(shoe) % 1000):
        result = analysis.hand(f"{a},{b}", up)
        try:
            expected = hand_evs(shoe, NONE, _oracle_hand(a, b), NAMES.index(up) + 1, oracle, "void")
        except ValueError:  # every hole card a blackjack: no conditioned EV
            continue
        for action, ev in result.evs.items():
            key = action.name.lower()
            if key not in expected:  # hitting or doubling a blackjack, shown for information
                continue
            assert Fraction(str(ev)) == expected[key], (shoe, a, b, up, key)
            chance = runout_probability(shoe, NONE, _oracle_hand(a, b), NAMES.index(up) + 1, oracle, key)
            got = Fraction(0) if result.run_out is None else Fraction(str(result.run_out[action].probability))
            assert got == chance, (shoe, a, b, up, key)


def test_the_shoes_do_run_out():
    """The shoes above are small enough that deals run out: the tests compare something."""
    oracle = OracleRules(split_hands=1)
    chances = [round_runout_probability(shoe, NONE, oracle) for shoe in SHOES]
    assert sum(1 for c in chances if c > 0) >= len(SHOES) // 2


@pytest.mark.parametrize(("shoe", "split_hands"), [(shoe, 2) for shoe in SHOES[:4]] + [(SHOES[4], 3)])
def test_casino_rule_within_the_printed_bound(shoe, split_hands):
    """Whatever the discards, the casino's EV of every play (splits included) is within the
    bound bjcalc prints of bjcalc's (0 where no deal runs out)."""
    rules = Rules(shoe=shoe, split_hands=split_hands)
    oracle = OracleRules(das=True, split_hands=split_hands)
    analysis = Analysis(rules, exact=True)
    pairs = [(a, a, up) for a in NAMES for up in NAMES
             if shoe[NAMES.index(a)] >= 2 and shoe[NAMES.index(up)] >= 1 + 2 * (a == up)][:2]
    for a, b, up in _deals(shoe, 2, 7) + pairs:
        result = analysis.hand(f"{a},{b}", up)
        for discards in (NONE, (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)):
            try:
                casino = hand_evs(shoe, discards, _oracle_hand(a, b), NAMES.index(up) + 1, oracle, "reshuffle")
            except ValueError:
                continue
            for action, ev in result.evs.items():
                if action.name.lower() not in casino:
                    continue
                bound = 0 if result.run_out is None else Fraction(str(result.run_out[action].bound))
                assert abs(Fraction(str(ev)) - casino[action.name.lower()]) <= bound, (shoe, a, b, up, action)


@pytest.mark.parametrize("shoe", SHOES[:4])
def test_round_run_out_and_casino_bound(shoe):
    """The round: its chance of running out equals the brute force's (no splits, so both play
    each hand by its best EV), and the casino's round EV is within the printed bound."""
    oracle = OracleRules(split_hands=1)
    result = Analysis(Rules(shoe=shoe, split_hands=1), exact=True).round()
    chance = round_runout_probability(shoe, NONE, oracle)
    got = Fraction(0) if result.run_out is None else Fraction(str(result.run_out.probability))
    assert got == chance
    bound = Fraction(0) if result.run_out is None else Fraction(str(result.run_out.bound))
    for discards in (NONE, (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)):
        assert abs(Fraction(str(result.ev)) - round_ev(shoe, discards, oracle, "reshuffle")) <= bound
    assert abs(Fraction(str(result.ev)) - round_ev(shoe, NONE, oracle, "void")) == 0


def test_float_equals_exact_on_a_shoe_that_runs_out():
    shoe = (2, 2, 1, 1, 1, 1, 1, 1, 1, 2)
    exact = Analysis(Rules(shoe=shoe), exact=True).round()
    floats = Analysis(Rules(shoe=shoe)).round()
    assert exact.run_out is not None and floats.run_out is not None
    assert float(exact.ev) == pytest.approx(floats.ev, abs=1e-14)
    assert float(exact.run_out.probability) == pytest.approx(floats.run_out.probability, rel=1e-12)
    assert exact.run_out.exact and exact.run_out.rule == "void"


def test_a_round_needs_four_cards():
    Analysis(Rules(shoe=(1, 1, 1, 1, 0, 0, 0, 0, 0, 0)))  # four: dealt (and runs out)
    with pytest.raises(InvalidShoeError, match="has 3 cards left: a round needs at least 4"):
        Analysis(Rules(shoe=(1, 1, 1, 0, 0, 0, 0, 0, 0, 0)))


def test_dealer_who_cannot_stop_runs_out_every_time():
    # four aces: the dealer's ace and aces drawn never reach 17
    dealer = Analysis(Rules(shoe=(4, 0, 0, 0, 0, 0, 0, 0, 0, 0)), exact=True).dealer("A")
    assert dealer[Outcome.RUN_OUT] == 1


def test_variance_on_a_shoe_that_runs_out_float_equals_exact():
    """The second moments read the dealer's outcome matrix of every up card on a shoe whose
    rows the joint pass hands to each up card's own pass (batch.JointBatch._runs_out)."""
    shoe = (4, 4, 2, 0, 0, 0, 0, 0, 0, 0)
    exact = Analysis(Rules(shoe=shoe, split_hands=2), exact=True).variance().variance
    floats = Analysis(Rules(shoe=shoe, split_hands=2)).variance().variance
    assert exact is not None and floats is not None
    assert float(exact) == pytest.approx(floats, rel=1e-12)


def test_dealer_leaves_out_up_cards_the_shoe_cannot_deal():
    """docs: an up card the shoe cannot deal is left out (issue 45, item 7): every ace seen."""
    import json

    from click.testing import CliRunner

    from bjcalc.cli import cli

    out = CliRunner().invoke(cli, ["dealer", "--decks", "1", "--removed", "A,A,A,A", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert sorted(json.loads(out.output)["probabilities"]) == sorted("23456789T")


@pytest.mark.parametrize("args", [
    ["edge", "--shoe", "2,2,1,1,1,1,1,1,1,2"],
    ["edge", "--shoe", "2,2,1,1,1,1,1,1,1,2", "--exact"],
    ["hand", "T6", "--up", "6", "--shoe", "0,0,0,0,0,2,0,0,0,2"],
    ["dealer", "--shoe", "2,3,2,0,0,0,0,0,0,0"],
    ["chart", "--shoe", "2,2,1,1,1,1,1,1,1,2"],
])
def test_run_out_in_json_follows_the_schema(args):
    """The JSON of a shoe dealt to its last cards carries run_out (or the dealer's run-out
    outcome) and follows docs/bjcalc.schema.json."""
    import json
    import pathlib

    import jsonschema
    from click.testing import CliRunner

    from bjcalc.cli import cli

    out = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert out.exit_code == 0, out.output
    schema = json.loads((pathlib.Path(__file__).parent.parent / "docs" / "bjcalc.schema.json").read_text())
    jsonschema.validate(json.loads(out.output), schema)
    assert "run_out" in out.output or "run-out" in out.output


def test_dealer_may_run_out_looks_only_at_rows_of_few_cards():
    """dealer_may_run_out skips rows of more than 16 cards left (each card is worth at least
    1): the same flags as the cheapest cards' worth of every row, on shoes small and large,
    composition and counter's shoe (fewer cards left than counted)."""
    import numpy as np

    from bjcalc.engine.lastcards import DEALER_ASKS, cheapest_worth, dealer_may_run_out

    rng = np.random.default_rng(46)
    counts = np.concatenate([rng.integers(0, 4, size=(400, 10)), rng.integers(0, 40, size=(100, 10))])
    for hidden in (0, 3):
        left = np.maximum(counts.sum(axis=1) - hidden, 0)
        assert np.array_equal(dealer_may_run_out(counts, left), cheapest_worth(counts, left) <= DEALER_ASKS)
    assert dealer_may_run_out(counts, left).any() and not dealer_may_run_out(counts, left).all()
