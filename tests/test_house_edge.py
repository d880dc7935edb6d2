"""House edges of whole rounds against published figures (tests/data/house_edge_wizard.txt)."""

import pytest
from conftest import matches_printed, read_table

from bjcalc import Analysis, Rules

BASE = dict(hit_soft_17=True, double="any", double_after_split=True, split_hands=4,
            resplit_aces=False, hit_split_aces=False, surrender="late", hole_card="peek")
CHANGES = {
    "base": {},
    "s17": dict(hit_soft_17=False),
    "no-das": dict(double_after_split=False),
    "double-10-11": dict(double="10-11"),
    "split-2": dict(split_hands=2),
    "rsa": dict(resplit_aces=True),
    "hsa": dict(hit_split_aces=True),
    "enhc-no-ls": dict(hole_card="none", blackjack_takes="all", surrender="none"),
    "no-ls": dict(surrender="none"),
    "bj-6:5": dict(blackjack_pays="6/5"),
}


@pytest.mark.parametrize("row", read_table("house_edge_wizard.txt"), ids=lambda r: f"{r['change']}-{r['decks']}d")
def test_wizard_house_edge(row):
    rules = Rules(decks=int(row["decks"]), **{**BASE, **CHANGES[row["change"]]})
    edge = 100 * Analysis(rules, post_split="cdp").round().house_edge
    if row["status"] == "exact":
        assert matches_printed(edge, row["edge"]), (
            f"{row['change']} {row['decks']} decks: bjcalc {edge:.5f} %, published {row['edge']} %"
        )
    else:
        assert abs(edge - float(row["edge"])) <= 0.0015, f"{row['change']} {row['decks']} decks: bjcalc {edge:.5f} %"
