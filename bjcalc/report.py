"""Everything about one game in one place, and how much each of its rules is worth.

A report gathers: the rules as understood (flagging what the game's text did not state), the
house edge of basic strategy and of composition-dependent play, insurance, the chart and its
composition-dependent exceptions, the side bets, and Bet Behind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bjcalc.analysis import Analysis
from bjcalc.render import fixed
from bjcalc.results import ChartException
from bjcalc.rules import BLACKJACK_TAKES, Doubling, HoleCard, Rules, Surrender
from bjcalc.strategy import Chart


@dataclasses.dataclass(frozen=True)
class Report:
    title: str
    rules: Rules
    assumed: tuple[str, ...]
    chart: Chart
    exceptions: list[ChartException]
    figures: list[tuple[str, str]]  # label, value (text)
    data: dict[str, Any]  # the same figures as JSON values


def build_report(title: str, rules: Rules, assumed: tuple[str, ...] = ()) -> Report:
    """The report of a game (float arithmetic, which agrees with exact mode to 1e-12)."""
    from bjcalc import sidebets

    analysis = Analysis(rules)
    chart = analysis.chart()
    basic = analysis.evaluate(chart).round
    cd = analysis.round()
    figures = [
        ("house edge, basic chart", f"{fixed(100 * basic.house_edge, 4)} %"),
        ("house edge, CD play (CDZ-)", f"{fixed(100 * cd.house_edge, 4)} %"),
    ]
    data: dict[str, Any] = {
        "house_edge_basic": basic.house_edge,
        "house_edge_cd": cd.house_edge,
        "ev_by_upcard_basic": basic.by_upcard,
    }
    for key, label, variance in (("basic", "basic chart", analysis.variance(chart)),
                                 ("cd", "CD play (CDZ-)", analysis.variance())):
        if variance.sd is not None:
            figures.append((f"standard deviation per round, {label}", fixed(variance.sd, 4)))
            data[f"sd_{key}"] = variance.sd
    if rules.split_hands > 2:
        figures.append(("standard deviation per round", "not computed (resplitting allowed)"))
    if cd.insurance is not None:
        figures.append(("insurance EV, off the top", fixed(cd.insurance)))
        data["insurance"] = float(cd.insurance)
    behind = [analysis.bet_behind(), analysis.bet_behind(chart)]
    for result in behind:
        label = "basic" if result.seated.chart else "optimal"
        figures.append((f"Bet Behind ({label} seat), follows all", fixed(result.follows_everything)))
        figures.append((f"Bet Behind ({label} seat), no doubles/splits", fixed(result.cannot_afford)))
    data["bet_behind"] = [r.to_dict() for r in behind]
    if rules.decks is not None:
        shoe = sidebets.SuitedShoe.of_decks(rules.decks)
        for bet in (sidebets.perfect_pairs(shoe), sidebets.twenty_one_plus_three(shoe)):
            figures.append((f"house edge, {bet.name}",
                            f"{fixed(-100 * float(bet.expected_return), 4)} %"))
            data[f"house_edge_{bet.name.replace(' ', '_')}"] = float(-bet.expected_return)
    return Report(title, rules, assumed, chart, analysis.exceptions(chart), figures, data)


def one_rule_changes(rules: Rules) -> list[tuple[str, Rules]]:
    """Variants of ``rules`` that change one rule each, described in words."""
    out: list[tuple[str, dict[str, Any]]] = []
    if rules.decks is not None:
        for decks in (1, 2, 6, 8):
            if decks != rules.decks:
                out.append((f"{decks} deck{'s' if decks > 1 else ''} instead of {rules.decks}", {"decks": decks}))
    out.append(("dealer hits soft 17" if not rules.hit_soft_17 else "dealer stands on soft 17",
                {"hit_soft_17": not rules.hit_soft_17}))
    if rules.blackjack_pays == Fraction(3, 2):
        out.append(("blackjack pays 6:5 instead of 3:2", {"blackjack_pays": Fraction(6, 5)}))
    else:
        out.append(("blackjack pays 3:2", {"blackjack_pays": Fraction(3, 2)}))
    if rules.double is Doubling.ANY:
        out.append(("double on 10-11 only", {"double": Doubling.TEN_TO_ELEVEN}))
    else:
        out.append(("double on any two cards", {"double": Doubling.ANY}))
    if rules.split_hands > 1:
        out.append(("no double after split" if rules.double_after_split else "double after split",
                     {"double_after_split": not rules.double_after_split}))
    if rules.split_hands == 2:
        out.append(("resplit to 4 hands", {"split_hands": 4}))
    elif rules.split_hands > 2:
        out.append(("no resplitting (2 hands)", {"split_hands": 2, "resplit_aces": False}))
        out.append(("resplit aces" if not rules.resplit_aces else "no resplitting aces",
                    {"resplit_aces": not rules.resplit_aces}))
    if rules.split_hands > 1:
        out.append(("hit split aces" if not rules.hit_split_aces else "one card to split aces",
                    {"hit_split_aces": not rules.hit_split_aces}))
    if rules.surrender is Surrender.NONE:
        out.append(("late surrender", {"surrender": Surrender.LATE}))
    else:
        out.append(("no surrender", {"surrender": Surrender.NONE}))
    if rules.peek:
        out.append(("no hole card (dealer blackjack takes all bets)",
                    {"hole_card": HoleCard.NONE, "blackjack_takes": BLACKJACK_TAKES["all"]}))
    else:
        out.append(("peeking dealer instead of no hole card", {"hole_card": HoleCard.PEEK}))
        for name in ("all", "original", "live"):
            if BLACKJACK_TAKES[name] != rules.blackjack_takes:
                out.append((f"no hole card, dealer blackjack takes {name}",
                            {"blackjack_takes": BLACKJACK_TAKES[name]}))
    if rules.charlie is not None:
        out.append((f"no {rules.charlie}-card charlie", {"charlie": None}))
    if rules.player_max_cards is not None or rules.dealer_max_cards is not None:
        out.append(("no card limit", {"player_max_cards": None, "dealer_max_cards": None}))
    return [(words, rules.replace(**change)) for words, change in out]


def rule_effects(
    rules: Rules, progress: Callable[[str], None] = lambda words: None
) -> tuple[float, list[tuple[str, float, float]]]:
    """The baseline house edge (the game itself, CD play with split hands CDZ-) and, for each
    one-rule change, the house edge with it and its effect (percentage points, positive =
    better for the house). Float arithmetic (agrees with exact to 1e-12)."""
    base = Analysis(rules).round().house_edge_percent
    out = []
    for words, variant in one_rule_changes(rules):
        progress(words)
        edge = Analysis(variant).round().house_edge_percent
        out.append((words, edge, edge - base))
    return base, out
