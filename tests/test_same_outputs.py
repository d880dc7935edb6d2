"""Every command's JSON on three games is what it was when tests/data/golden/ was written
(issue 43: moving the counting layer into its own package changes no output).

The files were written by the code before the move (``BJCALC_WRITE_GOLDEN=1 pytest
tests/test_same_outputs.py``, commit named in tests/data/golden/README). They are not a check of
the numbers (other tests check those against brute force, published tables and simulation):
only that a change meant to move code moved no number. Rewrite them only for a change that
means to change an output, and say so in its commit.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest
from click.testing import CliRunner

from bjcalc.cli import cli

GOLDEN = pathlib.Path(__file__).parent / "data" / "golden"
# three games, each on one deck so that every command, truecount included, takes seconds
GAMES = {
    "acg": ["--game", "atlantic-city-gold", "--decks", "1"],
    "us": ["--game", "us-shoe", "--decks", "1"],
    "live": ["--game", "live-dealer", "--decks", "1"],
}
COMMANDS = {
    "chart": ["chart"],
    "edge": ["edge", "--sd"],
    "edge-basic": ["edge", "--strategy", "basic"],
    "hand-16": ["hand", "T,6", "--up", "T"],
    "hand-88": ["hand", "8,8", "--up", "6"],
    "dealer": ["dealer"],
    "matrix": ["matrix"],
    "betbehind": ["betbehind"],
    "effects": ["effects"],
    "eor": ["eor", "--play", "T,6 v T stand hit", "--workers", "1"],
    "count": ["count", "--play", "16 v T stand hit", "--workers", "1"],
    "sidebets": ["sidebets"],
    "insurance-index": ["insurance-index"],
    "index": ["index", "--depth", "0.25"],
    "counted-edge": ["edge", "--count", "hi-lo", "--running-count", "3", "--cards-seen", "20"],
    "counted-hand": ["hand", "T,6", "--up", "T", "--count", "ko", "--running-count", "2", "--cards-seen", "15"],
    "truecount": ["truecount", "--penetration", "0.15", "--store", "none", "--workers", "1"],
}
CASES = [(game, name) for game in GAMES for name in COMMANDS]
# what a run measured, not what it computed
VOLATILE = ("run",)


def _stable(text: str) -> dict:
    data = json.loads(text)
    for key in VOLATILE:
        data.pop(key, None)
    return data


def _output(game: str, name: str) -> str:
    result = CliRunner().invoke(cli, [*COMMANDS[name], *GAMES[game], "--format", "json"])
    assert result.exit_code == 0, (game, name, result.output)
    return result.stdout


@pytest.mark.parametrize(("game", "name"), CASES)
def test_the_json_is_what_it_was(game, name):
    path = GOLDEN / f"{name}-{game}.json"
    text = _output(game, name)
    if os.environ.get("BJCALC_WRITE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert _stable(text) == _stable(path.read_text()), path.name
    if "run" not in json.loads(text):  # byte for byte where nothing measured is printed
        assert text == path.read_text(), path.name
