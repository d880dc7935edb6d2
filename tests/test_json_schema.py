"""Every command's ``--format json`` against docs/bjcalc.schema.json, and the conventions of
docs/json.md checked directly: ``schema`` and ``command`` keys, the rules block, up cards in
chart order (2..9, T, A), no key with a space, and with ``--exact`` an ``"exact"`` object that
mirrors every exactly computed number (and nothing else) as ``"p/q"``, equal to the float
beside it. Tiny shoes: each command runs in well under a second or two."""

import copy
import functools
import json
import pathlib
import re
import subprocess
import sys
from fractions import Fraction

import jsonschema
import pytest
from click.testing import CliRunner

from bjcalc.cli import cli

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "bjcalc.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

TINY = ("--shoe", "1,1,1,1,1,1,1,1,1,8")  # 17 cards: every command finishes at once
# eor and count analyse the shoe without each rank in turn: 26 cards, a card limit, no splits
SMALL = ("--shoe", "2,2,2,2,2,2,2,2,2,8", "--max-cards", "4", "--split-hands", "1", "--workers", "1")
TWOS = ("--shoe", "2,2,2,2,2,2,2,2,2,8")  # 26 cards: every two-card hand against every up card but X,X v X
UP_ORDER = "23456789TA"
EXACT_TEXT = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?")
# floats in exact mode too: a square root, chart choices made in floats, correlations (a square root
# again) and the advantage per true count, which the library hands out as a float
NOT_EXACT = {"sd", "gain", "cost", "betting_correlation", "insurance_correlation", "advantage_per_true_count_percent",
             "playing_efficiency"}
CHART = "CHART"  # stands for the path of a chart file written by ``bjcalc chart --format json``

# name -> (arguments, also with --exact)
RUNS = {
    "dealer": (["dealer", *TINY, "--max-cards", "4"], True),
    "dealer A peeked": (["dealer", "A", "--peeked", *TINY], True),
    "hand": (["hand", "T,6", "--up", "A", *TINY], True),
    "hand pair": (["hand", "T,T", "--up", "6", *TINY, "--split-hands", "2"], True),
    "hand removed": (["hand", "T,6", "--up", "A", *TINY, "--removed", "2,T"], True),
    "hand counted": (["hand", "T,6", "--up", "T", *TINY, "--count", "hi-lo", "--running-count", "-2",
                      "--cards-seen", "5"], True),
    "dealer counted": (["dealer", "6", *TINY, "--tags", "1,1,1,1,1,1,0,0,-1,-1", "--irc", "-1",
                        "--running-count", "0", "--cards-seen", "3"], True),
    "chart": (["chart", *TINY, "--split-hands", "2"], True),
    "chart counted": (["chart", *TINY, "--split-hands", "2", "--count", "hi-lo", "--true-count", "-26/7",
                       "--cards-seen", "3", "--divisor", "exact"], True),
    "edge counted": (["edge", *TINY, "--split-hands", "2", "--count", "hi-lo", "--running-count", "1",
                      "--cards-seen", "4"], True),
    "edge": (["edge", *TINY, "--split-hands", "2"], True),
    "edge resplit": (["edge", *TINY], True),
    "edge basic": (["edge", "--strategy", "basic", *TINY, "--split-hands", "2"], True),
    "edge chart file": (["edge", "--chart", CHART, *TINY], True),
    "betbehind": (["betbehind", *TINY, "--split-hands", "2"], True),
    "betbehind basic": (["betbehind", "--seated", "basic", *TINY], False),
    "betbehind counted": (["betbehind", *TINY, "--split-hands", "2", "--count", "hi-lo", "--running-count", "1",
                           "--cards-seen", "2", "--sd"], True),
    "edge counted sd": (["edge", *TINY, "--split-hands", "2", "--count", "hi-lo", "--running-count", "1",
                         "--cards-seen", "2", "--sd"], True),
    "sidebets": (["sidebets", "--decks", "1", "--removed", "Ah Kd"], True),
    "games": (["games"], False),
    "report": (["report", *TINY, "--split-hands", "2"], True),
    "report with side bets": (["report", "--decks", "1", "--split-hands", "1"], False),
    "effects": (["effects", *TINY], False),
    # the exact mirror on a game split to 2 hands: resplitting to 4 on the tiny shoe costs 2 s a run
    "effects split to 2": (["effects", *TINY, "--split-hands", "2"], True),
    "eor": (["eor", *SMALL, "--play", "T,6 v T stand hit", "--insurance"], True),
    "eor cd": (["eor", *SMALL, "--strategy", "cd", "--removed", "A,5"], False),
    "eor counted": (["eor", *SMALL, "--count", "hi-lo", "--running-count", "1", "--cards-seen", "3"], True),
    "eor counted, no low card left": (["eor", *SMALL, "--strategy", "cd", "--tags", "1,1,1,1,1,0,0,0,-1,-1",
                                       "--running-count", "10", "--cards-seen", "10"], False),
    "count": (["count", *SMALL, "--system", "hi-lo", "--tags", ".5,1,1,1.5,1,.5,0,-.5,-1,-1",
               "--play", "T,6 v T stand hit", "--insurance"], True),
    "count with PE": (["count", *SMALL, "--system", "zen", "--pe"], True),
    "count exact index": (["count", *SMALL, "--system", "hi-lo", "--system", "ko", "--play", "T,6 v T stand hit",
                           "--insurance", "--exact-index", "--cards-seen", "4"], False),
    "matrix": (["matrix", *TWOS], True),
    "matrix counted": (["matrix", *TWOS, "--split-hands", "2", "--count", "hi-lo", "--running-count", "2",
                        "--cards-seen", "4"], True),
    "truecount": (["truecount", "--decks", "1", "--split-hands", "2", "--penetration", "6/52", "--placement", "spaced",
                   "--indices", "published", "--store", "none", "--workers", "1", "--optimal-spread", "4"], False),
    "simulate": (["simulate", "--decks", "1", "--rounds", "20000", "--indices", "published", "--spread", "<=0:1,>=1:4",
                  "--wong-out", "-3", "--bankroll", "400", "--store", "none", "--workers", "1"], False),
    "simulate basic": (["simulate", "--shoe", "1,1,1,1,1,1,1,1,1,8", "--penetration", "0.5", "--rounds", "5000",
                        "--strategy", "basic", "--store", "none", "--workers", "1"], False),
    "index": (["index", "--shoe", "2,1,0,0,1,1,1,2,0,5", "--surrender", "none", "--cards-seen", "2", "--play",
               "16 v T stand hit", "--workers", "1"], True),
    "index all": (["index", "--all", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--surrender", "none", "--split-hands", "2",
                   "--max-cards", "4", "--cards-seen", "1", "--workers", "1"], False),
    "index all, top of the shoe": (["index", "--all", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--surrender", "none",
                                    "--split-hands", "2", "--max-cards", "4", "--cards-seen", "0", "--workers", "1"],
                                   True),
    "matrix no hole card": (["matrix", *TWOS, "--no-peek", "--surrender", "early", "--removed", "5"], False),
    "insurance-index": (["insurance-index", *TWOS, "--hand", "T,9", "--cards-left", "10,20"], True),
    "insurance-index KO": (["insurance-index", *TWOS, "--count", "ko", "--irc", "-4"], False),
}
CASES = [pytest.param(name, exact, id=f"{name}{' --exact' if exact else ''}")
         for name, (_, with_exact) in RUNS.items() for exact in ([False, True] if with_exact else [False])]


def run_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert result.exit_code == 0, (args, result.output)
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def chart_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("chart") / "chart.json"
    path.write_text(json.dumps(run_json("chart", *TINY)))
    return str(path)


def leaves(value, path=()):
    """(path, value) of every leaf; a path is a tuple of keys and list positions."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from leaves(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from leaves(inner, (*path, index))
    else:
        yield path, value


def objects(value, path=()):
    """(path, object) of every JSON object inside ``value``, itself included."""
    if isinstance(value, dict):
        yield path, value
        for key, inner in value.items():
            yield from objects(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from objects(inner, (*path, index))


def at(value, path):
    for step in path:
        value = value[step]
    return value


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@pytest.mark.parametrize("name, exact", CASES)
def test_every_command_follows_the_schema_and_its_conventions(name, exact, chart_file):
    args, _ = RUNS[name]
    args = [chart_file if a == CHART else a for a in args]
    out = run_json(*args, *(["--exact"] if exact else []))

    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in VALIDATOR.iter_errors(out)]
    assert not errors, errors
    assert out["schema"] == "bjcalc/1" and out["command"] == args[0]
    assert list(out)[:2] == ["schema", "command"]

    # the rules block: at the top, or (games) one per game
    blocks = [g["rules"] for g in out["games"]] if args[0] == "games" else [out["rules"]]
    assert blocks and all(len(b["shoe_counts"]) == 10 and "split_hands" in b for b in blocks)

    for path, obj in objects(out):
        assert not [k for k in obj if " " in k], (path, list(obj))
        # every object keyed by up card lists them 2..9, T, A (a chart's pairs rows are ranks, A first)
        if path and path[-1] != "pairs" and len(obj) > 1 and all(k in UP_ORDER for k in obj):
            assert list(obj) == sorted(obj, key=UP_ORDER.index), (path, list(obj))

    if not exact:
        assert "exact" not in out
        return
    mirror = out.pop("exact")
    mirrored = dict(leaves(mirror))
    assert mirrored, "an exact run mirrors its numbers"
    for path, text in mirrored.items():
        assert isinstance(text, str) and EXACT_TEXT.fullmatch(text), (path, text)
        value = at(out, path)  # the same keys and nesting
        assert is_number(value), (path, value)
        assert abs(Fraction(text) - Fraction(value)) <= 1e-12, (path, text, value)
    # ... and every float of the output is mirrored but the rules' and those that are floats by nature
    for path, value in leaves(out):
        if isinstance(value, float) and path[0] != "rules" and not NOT_EXACT & set(map(str, path)):
            assert path in mirrored, path


def test_a_chart_file_written_as_json_reads_back(chart_file):
    # the chart command's JSON, schema keys and figures included, is a chart file: same EV as basic
    from_file = run_json("edge", "--chart", chart_file, *TINY)
    basic = run_json("edge", "--strategy", "basic", *TINY)
    chart = json.loads(pathlib.Path(chart_file).read_text())
    assert from_file["ev"] == basic["ev"] == chart["ev"] and from_file["deviations"] == []
    assert from_file["strategy"]["chart"] and basic["strategy"]["play"] == "basic"


def test_the_generated_tables_follow_the_schema():
    files = sorted((ROOT / "tables").glob("*.json"))
    assert files
    for path in files:
        data = json.loads(path.read_text())
        errors = [e.message[:300] for e in VALIDATOR.iter_errors(data)]
        assert not errors, (path.name, errors)
        assert data["command"] == "chart" and data["cd"]["strategy"]["play"] == "CD"


@functools.cache
def _tiny_edge() -> dict:
    return run_json("edge", *TINY)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update({"house edge": 0.1}),  # a key with a space
        lambda d: d.pop("rules"),
        lambda d: d.pop("sd"),  # sd is present, null where not computed
        lambda d: d.update(ev="-1/2"),  # numbers are numbers
        lambda d: d.update(exact={"ev": -0.5}),  # the mirror holds only exact strings
        lambda d: d["by_upcard"].update({"Q": 0.1}),
        lambda d: d.update(command="chart"),
        lambda d: d["strategy"].pop("label"),
    ],
)
def test_the_schema_refuses_what_the_conventions_forbid(change):
    edge = copy.deepcopy(_tiny_edge())
    assert VALIDATOR.is_valid(edge)
    change(edge)
    assert not VALIDATOR.is_valid(edge)


def test_every_command_that_prints_a_number_takes_exact():
    # the presets' rules and a file count: nothing computed; simulate's figures are dealt, never exact
    without = {"games", "tables", "simulate"}
    for name, command in cli.commands.items():
        options = {opt for p in command.params for opt in p.opts}
        assert ("--exact" in options) == (name not in without), name
        if name not in without:
            assert "json" in next(p for p in command.params if p.name == "fmt").type.choices, name


@pytest.mark.parametrize("args", [["--help"], ["games"], ["games", "--format", "json"],
                                  ["sidebets", "--decks", "1", "--format", "json"]])
def test_help_games_and_sidebets_do_not_load_the_engine(args):
    code = (
        "import contextlib, io, json, sys\n"
        "from bjcalc.cli import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        cli.main({args!r})\n"
        "    except SystemExit as stop:\n"
        "        assert stop.code in (0, None), stop.code\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('bjcalc.engine') or m == 'networkx')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [], args
