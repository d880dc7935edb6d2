"""The default index plays are the ones the rules offer (found 2026-12-07: ``bjcalc index
--double 10-11`` died with a KeyError on 9 v 2 double, and ``truecount --split-hands 1`` refused
its own T,T split plays)."""

from __future__ import annotations

import pytest

from bjcalc import Rules
from bjcalc.actions import Action
from bjcalc.counting.indices import default_plays, wanted_hands


def names(rules: Rules) -> set[str]:
    return {p.name for p in default_plays(rules)}


@pytest.mark.parametrize("changes, gone", [
    ({"double": "10-11"}, {"9 v 2 double", "9 v 7 double"}),
    ({"double": "none"}, {"9 v 2 double", "9 v 7 double", "10 v T double", "10 v A double", "11 v A double"}),
    ({"split_hands": 1}, {"T,T v 5 split", "T,T v 6 split"}),
])
def test_default_plays_are_those_the_rules_offer(changes, gone):
    everything = names(Rules(decks=6))
    assert gone <= everything, "the full list has them"
    rules = Rules(decks=6, **changes)
    assert names(rules) == everything - gone
    for _hand, _up, actions in wanted_hands(rules, default_plays(rules)):  # the index pipeline's own check
        assert Action.STAND in actions or Action.HIT in actions
