"""bjcalc: an exact blackjack analyser.

>>> from bjcalc import Analysis, Rules
>>> table = Analysis(Rules(decks=1), exact=True).dealer("6")
>>> sum(table.values())
1
"""

from bjcalc.actions import Action
from bjcalc.analysis import Analysis, HandResult
from bjcalc.cards import Rank, parse_card, parse_cards
from bjcalc.errors import (
    BjcalcError,
    CardNotInShoeError,
    InvalidCardError,
    InvalidHandError,
    InvalidRulesError,
    InvalidShoeError,
    UnknownGameError,
)
from bjcalc.rules import BlackjackTakes, Doubling, HoleCard, Loss, Rules, Surrender
from bjcalc.shoe import Shoe

__all__ = [
    "Action",
    "Analysis",
    "BjcalcError",
    "BlackjackTakes",
    "CardNotInShoeError",
    "Doubling",
    "HandResult",
    "HoleCard",
    "InvalidCardError",
    "InvalidHandError",
    "InvalidRulesError",
    "InvalidShoeError",
    "Loss",
    "Rank",
    "Rules",
    "Shoe",
    "Surrender",
    "UnknownGameError",
    "parse_card",
    "parse_cards",
]
__version__ = "0.1.0"
