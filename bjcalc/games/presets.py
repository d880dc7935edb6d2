"""The games bjcalc knows by name, each a :class:`~bjcalc.rules.Rules` value.

Where a game's own rule text is silent, the preset takes the common industry default and says
in ``Game.assumed``; every field can be overridden (``game(name).rules.replace(...)`` or CLI options).

>>> game("live-dealer").rules.charlie
10
"""

from __future__ import annotations

import dataclasses

from bjcalc.errors import UnknownGameError
from bjcalc.rules import BLACKJACK_TAKES, Doubling, HoleCard, Rules, Surrender


@dataclasses.dataclass(frozen=True)
class Game:
    name: str
    title: str
    rules: Rules
    source: str  # the rule text the preset was read from, by name (not installed with bjcalc)
    assumed: tuple[str, ...]


GAMES = {
    g.name: g
    for g in (
        Game(
            name="atlantic-city-gold",
            title="Atlantic City Blackjack Gold (Microgaming, online RNG)",
            rules=Rules(
                decks=8,
                hit_soft_17=False,
                double=Doubling.ANY,
                double_after_split=True,
                split_hands=4,
                resplit_aces=False,
                hit_split_aces=False,
                split_unlike_tens=True,
                surrender=Surrender.LATE,
                hole_card=HoleCard.PEEK,
                player_max_cards=11,
                dealer_max_cards=11,
            ),
            source=("Microgaming's 'Game Rules for Atlantic City Blackjack Gold' "
                    "(summary of the official rules)"),
            assumed=(),
        ),
        Game(
            name="us-shoe",
            title="US casino shoe game (land-based)",
            rules=Rules(
                decks=6,
                hit_soft_17=False,
                double=Doubling.ANY,
                double_after_split=True,
                split_hands=4,
                resplit_aces=False,
                hit_split_aces=False,
                split_unlike_tens=True,
                surrender=Surrender.LATE,
                hole_card=HoleCard.PEEK,
            ),
            source="a US casino's posted rules for its blackjack shoe game",
            assumed=(
                "6 decks: the text says only 'a shoe' (6 is the common default; 8 is also common)",
                "unlike ten-valued cards (J-Q) may be split: the text says only 'a pair'",
            ),
        ),
        Game(
            name="live-dealer",
            title="Live-dealer blackjack, seven seats, Bet Behind and side bets",
            rules=Rules(
                decks=8,
                hit_soft_17=False,
                double=Doubling.ANY,
                double_after_split=True,
                split_hands=2,
                resplit_aces=False,
                hit_split_aces=False,
                split_unlike_tens=True,
                surrender=Surrender.NONE,
                hole_card=HoleCard.NONE,
                blackjack_takes=BLACKJACK_TAKES["live"],
                charlie=10,
            ),
            source="a live-dealer studio's published rules for its seven-seat blackjack with Bet Behind",
            assumed=(
                "no surrender: the text does not mention it",
                ("split bets are lost to a dealer blackjack with an A or T up, as published "
                "descriptions of such tables say: the text covers only doubles"),
                "unlike ten-valued cards may be split: the text says 'same value'",
            ),
        ),
    )
}

DEFAULT_GAME = "atlantic-city-gold"


def game(name: str) -> Game:
    """The preset called ``name``; :class:`UnknownGameError` lists the known ones."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGameError(f"unknown game {name!r} (known: {known})") from None
