"""bjcalc: an exact blackjack analyser.

>>> from bjcalc import Analysis, Rules
>>> table = Analysis(Rules(decks=1), exact=True).dealer("6")
>>> sum(table.values())
1
>>> a = Analysis(Rules(decks=6))
>>> round(a.round().house_edge_percent, 4), round(a.evaluate(a.chart()).round.house_edge_percent, 4)
(0.4029, 0.4059)
"""

from bjcalc.actions import Action
from bjcalc.analysis import Analysis
from bjcalc.cards import Rank, parse_card, parse_cards
from bjcalc.engine.split import PostSplit
from bjcalc.errors import (
    BjcalcError,
    CardNotInShoeError,
    InvalidCardError,
    InvalidHandError,
    InvalidRulesError,
    InvalidShoeError,
    UnknownGameError,
)
from bjcalc.results import (
    BetBehindResult,
    ChartEvaluation,
    ChartException,
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
from bjcalc.shoe import Shoe
from bjcalc.strategy import Chart, load_chart, simple_policy

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
    "DealerResult",
    "Deviation",
    "Doubling",
    "HandPlay",
    "HandResult",
    "HoleCard",
    "InvalidCardError",
    "InvalidHandError",
    "InvalidRulesError",
    "InvalidShoeError",
    "Loss",
    "Outcome",
    "PostSplit",
    "Rank",
    "RoundResult",
    "Rules",
    "Shoe",
    "Strategy",
    "Surrender",
    "UnknownGameError",
    "Variance",
    "load_chart",
    "parse_card",
    "parse_cards",
    "simple_policy",
]
__version__ = "0.1.0"
