"""A counter's shoe's float split moments by class totals (:mod:`bjcalc.engine.classsums`)
against the exact rationals of the same states (exact mode sums every multiset with its own
dealer pass, in integers; it never takes the class totals' path).

The class sums are worked out at the first state that asks for them and kept for the others
(every depth and running count of one shoe shares them), so each case below also checks sums
made at another state. Float to 1e-14: the sums are grouped otherwise than exact mode's, each
rounded once.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bjcalc import Analysis, CountShoe, Rules
from bjcalc.chartpolicy import ChartPolicy
from bjcalc.engine import classsums, moments
from bjcalc.numbers import to_fraction
from bjcalc.round import round_moments

HI_LO = tuple(map(Fraction, (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)))
SHOE = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)  # 26 cards: resplits to four hands
RULES = Rules(shoe=SHOE, surrender="late")
TOLERANCE = 1e-14


def _engines(seen: int, rc: int):
    shoe = CountShoe(shoe=SHOE, tags=HI_LO, seen=seen, running_count=Fraction(rc))
    return Analysis(RULES, shoe=shoe).engine, Analysis(RULES, exact=True, shoe=shoe).engine


def _close(got: float, want: Fraction) -> bool:
    return abs(Fraction(got) - want) <= TOLERANCE * max(1, abs(want))


@pytest.fixture(scope="module")
def chart():
    classsums.forget()  # the first case below works the sums out; the others take them
    return Analysis(RULES).chart()


@pytest.mark.parametrize("seen, rc", [(0, 0), *(pytest.param(seen, rc, marks=pytest.mark.slow)
                                                for seen, rc in ((3, 1), (3, -2), (6, 2))), (6, 0)])
def test_a_states_split_moments_by_class_totals_equal_the_exact_ones(chart, seen, rc):
    floats, exact = _engines(seen, rc)
    asked = 0
    for up in range(10):
        for pair in range(10):
            if SHOE[pair] - (up == pair) < 2:
                continue
            got = floats.split_moments(ChartPolicy(floats, chart).splits(up), pair)
            want = exact.split_moments(ChartPolicy(exact, chart).splits(up), pair)
            assert _close(got[0], want[0]) and _close(got[1], want[1]), (up, pair, got, want)
            asked += 1
    assert asked == 91  # every pair against every up card but a pair of its own rank (two of each; ten tens)
    assert classsums.kept_count() > 0  # the class totals' path was taken


@pytest.mark.parametrize("seen, rc", [(3, 1), pytest.param(6, -1, marks=pytest.mark.slow)])
def test_a_states_round_moments_equal_the_exact_ones(chart, seen, rc):
    floats, exact = _engines(seen, rc)
    got = round_moments(floats, ChartPolicy(floats, chart), insure=True)
    want = round_moments(exact, ChartPolicy(exact, chart), insure=True)
    assert got is not None and want is not None
    assert _close(got[0], to_fraction(want[0])) and _close(got[1], to_fraction(want[1]))


def test_a_shoe_dealt_near_its_last_cards_keeps_the_engines_sums(chart, monkeypatch):
    """Where a dealer could run out of cards (12 seen of 26: 14 left), a deal that runs out is void, as
    the engine has it, which the class totals do not say: the states there sum as they always
    have (each multiset with its dealer pass), and still equal exact mode."""
    by_class = moments._SplitSquare._class_dots
    answers: list[bool] = []

    def spied(self, forms, named):
        found = by_class(self, forms, named)
        answers.append(found is not None)
        return found

    monkeypatch.setattr(moments._SplitSquare, "_class_dots", spied)
    floats, exact = _engines(12, 0)
    for up, pair in ((5, 1), (9, 7), (0, 9)):
        got = floats.split_moments(ChartPolicy(floats, chart).splits(up), pair)
        want = exact.split_moments(ChartPolicy(exact, chart).splits(up), pair)
        assert _close(got[0], want[0]) and _close(got[1], want[1]), (up, pair, got, want)
    assert answers and not any(answers)  # asked, and declined
