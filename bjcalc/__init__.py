"""bjcalc: an exact blackjack analyser.

>>> from bjcalc import Analysis, Rules
>>> table = Analysis(Rules(decks=1), exact=True).dealer("6")
>>> sum(table.values())
1
>>> a = Analysis(Rules(decks=6))
>>> round(a.round().house_edge_percent, 4), round(a.evaluate(a.chart()).round.house_edge_percent, 4)
(0.4029, 0.4043)

Everything a user calls is importable from here; the modules behind a name are imported the
first time it is used, so ``import bjcalc`` stays cheap (the engine loads with ``Analysis``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bjcalc.version import __version__ as __version__

# what the command line prints, each one call away: effects of removal and count systems, the
# report and rule effects, side bets, the tables, and the names the rule options are built from
_EVERY_CLI_NUMBER = {
    **dict.fromkeys(["EffectsOfRemoval", "EorStrategy", "EorTable", "effects_of_removal", "eor_table"],
                    "bjcalc.counting.eor"),
    **dict.fromkeys(["HandTotal", "PlayEffects", "insurance_effects", "parse_hand", "parse_play", "play_effects"],
                    "bjcalc.counting.plays"),
    **dict.fromkeys(["WorkerPool"], "bjcalc.counting.workers"),
    **dict.fromkeys(["SYSTEMS", "CountSystem", "parse_tags"], "bjcalc.counting.systems"),
    **dict.fromkeys(["CountFigures", "CountTable", "ExactIndex", "ExactIndices", "count_figures", "count_table",
                     "exact_indices", "play_index"], "bjcalc.counting.measures"),
    **dict.fromkeys(["REPORT_STEPS", "Report", "RuleChange", "RuleEffects", "build_report", "one_rule_changes",
                     "rule_effects"],
                    "bjcalc.report"),
    **dict.fromkeys(["SideBets", "side_bets"], "bjcalc.games.sidebets"),
    **dict.fromkeys(["INDEX_TABLES", "table_games", "write_tables"], "bjcalc.tables"),
    **dict.fromkeys(["WinFigures"], "bjcalc.counting.economics"),
    **dict.fromkeys(["round_starts", "RoundStarts", "round_start_states"], "bjcalc.counting.placement"),
    **dict.fromkeys(["cards_per_round"], "bjcalc.counting.roundcards"),
    **dict.fromkeys(["Spread", "InvalidSpreadError"], "bjcalc.counting.spread"),
    **dict.fromkeys(["IndexPolicy"], "bjcalc.counting.states"),
    **dict.fromkeys(["TrueCountResult", "truecount_analysis"], "bjcalc.counting.truecount"),
    **dict.fromkeys(["SimulationResult", "InvalidSimulationError", "simulate"], "bjcalc.counting.simulate"),
    **dict.fromkeys(["ShoeIndexTable", "shoe_index_table"], "bjcalc.counting.shoeindex"),
    **dict.fromkeys(["TaskStore", "TaskError", "RunStats", "run_tasks", "default_store"], "bjcalc.counting.tasks"),
    **dict.fromkeys(["Convention", "IndexPlay", "IndexTable", "PlayIndex", "convention_of", "default_plays",
                     "depth_of", "index_table", "play_from_text"], "bjcalc.counting.indices"),
    **dict.fromkeys(["AllIndices", "IndexCell", "all_indices", "hand_classes"], "bjcalc.counting.indexgrid"),
    **dict.fromkeys(["DEFAULT_GAME"], "bjcalc.games.presets"),
}

# public name -> the module that defines it
_HOMES = {
    "Action": "bjcalc.actions",
    "Analysis": "bjcalc.analysis",
    "Rank": "bjcalc.cards",
    "parse_card": "bjcalc.cards",
    "parse_cards": "bjcalc.cards",
    "PostSplit": "bjcalc.engine.split",
    "Shoe": "bjcalc.shoe",
    "Chart": "bjcalc.chart",
    "load_chart": "bjcalc.chart",
    "simple_policy": "bjcalc.chart",
    "SuitedShoe": "bjcalc.games.sidebets",
    "SideBetResult": "bjcalc.games.sidebets",
    "perfect_pairs": "bjcalc.games.sidebets",
    "twenty_one_plus_three": "bjcalc.games.sidebets",
    "GAMES": "bjcalc.games.presets",
    "EvMatrix": "bjcalc.matrix",
    "ev_matrix": "bjcalc.matrix",
    "game": "bjcalc.games.presets",
    **dict.fromkeys(
        ["BjcalcError", "CardNotInShoeError", "InvalidArgumentError", "InvalidCardError", "InvalidChartError",
         "InvalidHandError", "InvalidPayTableError", "InvalidRulesError", "InvalidShoeError", "UnknownGameError"],
        "bjcalc.errors"),
    **dict.fromkeys(
        ["BetBehindResult", "ChartEvaluation", "ChartException", "ChartTable", "DealerResult", "Deviation", "HandPlay",
         "HandResult", "Outcome", "RoundResult", "Strategy", "Variance"], "bjcalc.results"),
    **dict.fromkeys(["BlackjackTakes", "Doubling", "HoleCard", "Loss", "Rules", "Surrender"], "bjcalc.rules"),
    **dict.fromkeys(["DECLARED_RULES", "Flag", "Rule", "rule_flags", "rules_from_flags"], "bjcalc.ruleset"),
    **_EVERY_CLI_NUMBER,
    # the counter's shoe (issue 20)
    **dict.fromkeys(["CountShoe", "Counter", "running_count_distribution", "true_count_distribution"],
                    "bjcalc.counting.countshoe"),
    **dict.fromkeys(["DeckEstimate", "InvalidCountError", "Rounding", "decks_left", "true_count"],
                    "bjcalc.counting.tags"),
    **dict.fromkeys(["BestInsuranceIndex", "InsuranceIndex", "InsuranceTable", "best_insurance_index",
                     "insurance_index", "insurance_table"], "bjcalc.counting.insurance"),
}
__all__ = [
    "Action",
    "Analysis",
    "BetBehindResult",
    "BjcalcError",
    "BlackjackTakes",
    "CardNotInShoeError",
    "Chart",
    "ChartEvaluation",
    "ChartException",
    "ChartTable",
    "DECLARED_RULES",
    "DealerResult",
    "Deviation",
    "Doubling",
    "EvMatrix",
    "Flag",
    "GAMES",
    "HandPlay",
    "HandResult",
    "HoleCard",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidChartError",
    "InvalidHandError",
    "InvalidPayTableError",
    "InvalidRulesError",
    "InvalidShoeError",
    "Loss",
    "Outcome",
    "PostSplit",
    "Rank",
    "RoundResult",
    "Rule",
    "Rules",
    "Shoe",
    "SideBetResult",
    "Strategy",
    "SuitedShoe",
    "Surrender",
    "UnknownGameError",
    "Variance",
    "ev_matrix",
    "game",
    "load_chart",
    "parse_card",
    "parse_cards",
    "perfect_pairs",
    "rule_flags",
    "rules_from_flags",
    "simple_policy",
    "twenty_one_plus_three",
    # _EVERY_CLI_NUMBER
    "CountFigures",
    "CountSystem",
    "CountTable",
    "EffectsOfRemoval",
    "ExactIndex",
    "ExactIndices",
    "EorStrategy",
    "EorTable",
    "HandTotal",
    "PlayEffects",
    "SYSTEMS",
    "WorkerPool",
    "count_figures",
    "count_table",
    "effects_of_removal",
    "eor_table",
    "exact_indices",
    "insurance_effects",
    "parse_hand",
    "parse_play",
    "parse_tags",
    "play_effects",
    "play_index",
    "REPORT_STEPS",
    "Report",
    "RuleChange",
    "RuleEffects",
    "build_report",
    "one_rule_changes",
    "rule_effects",
    "SideBets",
    "side_bets",
    "table_games",
    "write_tables",
    "INDEX_TABLES",
    # exact index numbers (issue 20)
    "Convention",
    "IndexPlay",
    "IndexTable",
    "Spread",
    "TrueCountResult",
    "WinFigures",
    "InvalidSpreadError",
    "truecount_analysis",
    "SimulationResult",
    "InvalidSimulationError",
    "simulate",
    "cards_per_round",
    "round_starts",
    "RoundStarts",
    "round_start_states",
    "IndexPolicy",
    "TaskStore",
    "TaskError",
    "RunStats",
    "run_tasks",
    "default_store",
    "PlayIndex",
    "convention_of",
    "default_plays",
    "depth_of",
    "index_table",
    "play_from_text",
    "AllIndices",
    "IndexCell",
    "all_indices",
    "hand_classes",
    "ShoeIndexTable",
    "shoe_index_table",
    "DEFAULT_GAME",
    # the counter's shoe (issue 20)
    "BestInsuranceIndex",
    "CountShoe",
    "Counter",
    "DeckEstimate",
    "InsuranceIndex",
    "InsuranceTable",
    "InvalidCountError",
    "Rounding",
    "best_insurance_index",
    "decks_left",
    "insurance_index",
    "insurance_table",
    "running_count_distribution",
    "true_count",
    "true_count_distribution",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bjcalc' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # once found, a plain attribute
    return value


assert set(__all__) == set(_HOMES)  # one list of public names


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from bjcalc.actions import Action
    from bjcalc.analysis import Analysis
    from bjcalc.cards import Rank, parse_card, parse_cards
    from bjcalc.chart import Chart, load_chart, simple_policy
    from bjcalc.counting.countshoe import Counter, CountShoe, running_count_distribution, true_count_distribution
    from bjcalc.counting.insurance import (
        BestInsuranceIndex,
        InsuranceIndex,
        InsuranceTable,
        best_insurance_index,
        insurance_index,
        insurance_table,
    )
    from bjcalc.counting.tags import DeckEstimate, InvalidCountError, Rounding, decks_left, true_count
    from bjcalc.engine.split import PostSplit
    from bjcalc.errors import (
        BjcalcError,
        CardNotInShoeError,
        InvalidArgumentError,
        InvalidCardError,
        InvalidChartError,
        InvalidHandError,
        InvalidPayTableError,
        InvalidRulesError,
        InvalidShoeError,
        UnknownGameError,
    )
    from bjcalc.games.presets import GAMES, game
    from bjcalc.games.sidebets import SideBetResult, SuitedShoe, perfect_pairs, twenty_one_plus_three
    from bjcalc.matrix import EvMatrix, ev_matrix
    from bjcalc.results import (
        BetBehindResult,
        ChartEvaluation,
        ChartException,
        ChartTable,
        DealerResult,
        Deviation,
        HandPlay,
        HandResult,
        Outcome,
        RoundResult,
        Strategy,
        Variance,
    )
    from bjcalc.rules import BlackjackTakes, Doubling, HoleCard, Loss, Rules, Surrender
    from bjcalc.ruleset import DECLARED_RULES, Flag, Rule, rule_flags, rules_from_flags
    from bjcalc.shoe import Shoe

if TYPE_CHECKING:  # _EVERY_CLI_NUMBER
    # what a count and a spread are worth (issue 21)
    from bjcalc.counting.economics import WinFigures
    from bjcalc.counting.eor import EffectsOfRemoval, EorStrategy, EorTable, effects_of_removal, eor_table
    from bjcalc.counting.indexgrid import AllIndices, IndexCell, all_indices, hand_classes
    from bjcalc.counting.indices import (
        Convention,
        IndexPlay,
        IndexTable,
        PlayIndex,
        convention_of,
        default_plays,
        depth_of,
        index_table,
        play_from_text,
    )
    from bjcalc.counting.measures import (
        CountFigures,
        CountTable,
        ExactIndex,
        ExactIndices,
        count_figures,
        count_table,
        exact_indices,
        play_index,
    )
    from bjcalc.counting.placement import RoundStarts, round_start_states, round_starts
    from bjcalc.counting.plays import HandTotal, PlayEffects, insurance_effects, parse_hand, parse_play, play_effects
    from bjcalc.counting.roundcards import cards_per_round
    from bjcalc.counting.shoeindex import ShoeIndexTable, shoe_index_table
    from bjcalc.counting.simulate import InvalidSimulationError, SimulationResult, simulate
    from bjcalc.counting.spread import InvalidSpreadError, Spread
    from bjcalc.counting.states import IndexPolicy
    from bjcalc.counting.systems import SYSTEMS, CountSystem, parse_tags
    from bjcalc.counting.tasks import RunStats, TaskError, TaskStore, default_store, run_tasks
    from bjcalc.counting.truecount import TrueCountResult, truecount_analysis
    from bjcalc.counting.workers import WorkerPool
    from bjcalc.games.presets import (
        DEFAULT_GAME,
    )
    from bjcalc.games.sidebets import (
        SideBets,
        side_bets,
    )
    from bjcalc.report import (
        REPORT_STEPS,
        Report,
        RuleChange,
        RuleEffects,
        build_report,
        one_rule_changes,
        rule_effects,
    )
    from bjcalc.tables import (
        INDEX_TABLES,
        table_games,
        write_tables,
    )
