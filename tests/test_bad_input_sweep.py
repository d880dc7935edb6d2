"""Issue 45's bad-input sweep: every public callable and every command, each parameter in turn
given generated bad values, the contract asserted for each.

From the library, a bad value raises a :class:`bjcalc.BjcalcError` whose message names the
parameter or the value (or it is a value that is legitimately valid: ``ACCEPTED``, with the
reason). From the command line, exit 0 with output, or exit 2 with one ``Error:`` line on stderr
and nothing on stdout; never another exit status or a traceback.

Every call starts from one valid call on a tiny shoe, so that a wrongly accepted value still
finishes quickly. Each generated input is one test, named after the call it makes.

CI runs a fixed quarter of it (:func:`in_ci`: every parameter and every option with a quarter of
its bad values, which values turning from one parameter to the next, so every kind of bad value
is tried on many), well over the 500 inputs issue 45 asks for; ``--run-slow`` runs all of it,
about 4,800 inputs and a minute on two cores, with the valid base calls.
"""

from __future__ import annotations

import inspect
import math
import signal
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import click
import pytest
from click.testing import CliRunner

import bjcalc
from bjcalc import BjcalcError
from bjcalc.cli import cli

CI_SHARE = 4  # CI runs one input in CI_SHARE (module docstring)


def in_ci(group: int, position: int) -> bool:
    """Whether the bad value at ``position`` of parameter number ``group`` runs in CI."""
    return (group + position) % CI_SHARE == 0

TINY = (1, 1, 1, 1, 1, 1, 1, 1, 1, 8)  # 17 cards: any analysis of it finishes at once
TINY_TEXT = ",".join(map(str, TINY))
HI_LO = (1, 1, 1, 1, 1, 0, 0, 0, -1, -1)  # tags 2..T, A
SLOW = 10  # seconds: a call that takes longer accepted a bad value and went to work on it


class Lazy:
    """A valid argument built at its first use (analyses, charts: not at collection)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.value: Any = None

    def get(self) -> Any:
        if self.value is None:
            self.value = self.make()
        return self.value


RULES = Lazy(lambda: bjcalc.Rules(shoe=TINY))
ANALYSIS = Lazy(lambda: bjcalc.Analysis(RULES.get()))
CHART = Lazy(lambda: ANALYSIS.get().chart())
SYSTEM = Lazy(lambda: bjcalc.CountSystem.named("hi-lo"))
EOR = Lazy(lambda: bjcalc.effects_of_removal(RULES.get(), "basic", workers=1))
PLAY = Lazy(lambda: bjcalc.play_effects(RULES.get(), "T,2", "T", "stand", "hit", workers=1))
COUNT_SHOE = Lazy(lambda: bjcalc.CountShoe(shoe=TINY, tags=tuple(map(Fraction, HI_LO))))
QUICK_RULES = Lazy(lambda: bjcalc.Rules(shoe=(1,) * 9 + (12,)))  # quicker for what plays every hand
SUITED = Lazy(lambda: bjcalc.SuitedShoe((1,) * 52))
CHART_JSON = Lazy(lambda: __import__("json").dumps(CHART.get().to_dict()))


def resolve(value: Any) -> Any:
    return value.get() if isinstance(value, Lazy) else value


@dataclass(frozen=True)
class Call:
    """One valid call: ``function(**valid)``; every parameter but ``fixed`` gets spoilt in turn."""

    name: str
    function: Callable[..., Any]
    valid: dict[str, Any]
    fixed: tuple[str, ...] = ()

    def parameters(self) -> list[str]:
        signature = inspect.signature(self.function)
        return [p.name for p in signature.parameters.values()
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                and p.name not in self.fixed and p.name not in _NOT_INPUTS]


# Parameters that are not values a user types: ``self`` (the valid object a method is called on)
# and the progress hooks (a callable the caller supplies; calling a non-callable is Python's own
# TypeError, as for any callback).
_NOT_INPUTS = {"self", "cls", "progress"}


def call(name: str, function: Callable[..., Any], /, **valid: Any) -> Call:
    return Call(name, function, valid)


def method(cls: type, name: str, instance: Lazy, /, **valid: Any) -> Call:
    return Call(f"{cls.__name__}.{name}", getattr(cls, name), {"self": instance, **valid})


# Left out of the sweep, and why:
# - exceptions (BjcalcError and its subclasses, TaskError): nothing to validate;
# - constants (DECLARED_RULES, GAMES, SYSTEMS, REPORT_STEPS, INDEX_TABLES, DEFAULT_GAME);
# - pure enums (Doubling, HoleCard, Loss, Outcome, PostSplit, Surrender, EorStrategy,
#   DeckEstimate, Rounding): calling one is Python's own value lookup; users give their text to
#   Rules and the functions, which check it (swept below). Rank and Action parse what people
#   type, so they are swept;
# - result records the library builds and returns (BetBehindResult, ChartEvaluation,
#   ChartException, ChartTable, DealerResult, Deviation, EvMatrix, HandPlay, HandResult,
#   RoundResult, SideBetResult, Strategy, Variance, CountFigures, CountTable, EorTable,
#   EffectsOfRemoval, ExactIndex, ExactIndices, PlayEffects, Report, RuleChange, RuleEffects,
#   SideBets, IndexTable, PlayIndex, AllIndices, IndexCell, ShoeIndexTable, TrueCountResult,
#   WinFigures, RoundStarts, RunStats, BestInsuranceIndex, InsuranceIndex, InsuranceTable, Chart:
#   made by load_chart/simple_policy/Analysis.chart);
# - the rule declarations the command line is built from (Flag, Rule; rule_flags() is swept) and
#   the engine's IndexPolicy (built by the index pipeline from its own checked values);
# - what takes no argument (default_store, table_games, hand_classes), and write_tables, whose one
#   input, the directory, the command line's sweep of ``bjcalc tables`` gives bad values (a valid
#   one starts a 20 s run);
# - run_tasks: its tasks are the pipeline's own objects, not user input (its store is swept
#   through the functions that take one).
LEFT_OUT = {
    "BjcalcError", "CardNotInShoeError", "InvalidArgumentError", "InvalidCardError", "InvalidChartError",
    "InvalidHandError",
    "InvalidPayTableError", "InvalidRulesError", "InvalidShoeError", "UnknownGameError", "TaskError",
    "InvalidSpreadError", "InvalidCountError",
    "DECLARED_RULES", "GAMES", "SYSTEMS", "REPORT_STEPS", "INDEX_TABLES", "DEFAULT_GAME",
    "Doubling", "HoleCard", "Loss", "Outcome", "PostSplit", "Surrender", "EorStrategy", "DeckEstimate",
    "Rounding",
    "BetBehindResult", "ChartEvaluation", "ChartException", "ChartTable", "DealerResult", "Deviation",
    "EvMatrix", "HandPlay", "HandResult", "RoundResult", "SideBetResult", "Strategy", "Variance",
    "CountFigures", "CountTable", "EorTable", "EffectsOfRemoval", "ExactIndex", "ExactIndices",
    "PlayEffects", "Report", "RuleChange", "RuleEffects", "SideBets", "IndexTable", "PlayIndex",
    "AllIndices", "IndexCell", "ShoeIndexTable", "TrueCountResult", "WinFigures", "RoundStarts", "RunStats",
    "SimulationResult", "InvalidSimulationError",
    "BestInsuranceIndex", "InsuranceIndex", "InsuranceTable", "Chart",
    "Flag", "Rule", "IndexPolicy", "run_tasks",
    "default_store", "table_games", "hand_classes", "write_tables",
}

b = bjcalc
CALLS = [
    # cards, rules, shoes
    call("Rank", lambda value: b.Rank(value), value="A"),
    call("Action", lambda value: b.Action(value), value="H"),
    call("parse_card", b.parse_card, text="A"),
    call("parse_cards", b.parse_cards, text="A,7"),
    call("Rules", b.Rules, shoe=TINY),
    method(b.Rules, "replace", RULES, hit_soft_17=True),
    method(b.Rules, "without", RULES, cards="A"),
    call("BlackjackTakes", b.BlackjackTakes),
    call("Shoe", b.Shoe, counts=TINY),
    call("Shoe.of_decks", b.Shoe.of_decks, decks=1),
    call("Shoe.parse", b.Shoe.parse, text=TINY_TEXT),
    call("SuitedShoe", b.SuitedShoe, counts=(1,) * 52),
    call("game", b.game, name="us-shoe"),
    call("rule_flags", b.rule_flags),
    call("rules_from_flags", b.rules_from_flags, base=RULES, given={}, game="us-shoe"),
    call("one_rule_changes", b.one_rule_changes, rules=RULES),
    # the analysis
    call("Analysis", b.Analysis, rules=RULES),
    method(b.Analysis, "dealer", ANALYSIS, up="6"),
    method(b.Analysis, "hand", ANALYSIS, cards="T,2", up="6"),
    method(b.Analysis, "insurance", ANALYSIS),
    method(b.Analysis, "chart", ANALYSIS),
    method(b.Analysis, "evaluate", ANALYSIS, chart=CHART),
    method(b.Analysis, "exceptions", ANALYSIS, chart=CHART),
    method(b.Analysis, "deviations", ANALYSIS, chart=CHART),
    method(b.Analysis, "variance", ANALYSIS),
    method(b.Analysis, "bet_behind", ANALYSIS),
    method(b.Analysis, "plays", ANALYSIS, ups=("6",)),
    call("ev_matrix", b.ev_matrix, analysis=ANALYSIS),
    call("load_chart", b.load_chart, rules=RULES, text=CHART_JSON),
    call("simple_policy", b.simple_policy, rules=RULES, name="never-bust"),
    call("build_report", b.build_report, title="t", rules=QUICK_RULES),
    call("rule_effects", b.rule_effects, rules=QUICK_RULES, workers=1),
    # side bets
    call("perfect_pairs", b.perfect_pairs, shoe=SUITED),
    call("twenty_one_plus_three", b.twenty_one_plus_three, shoe=SUITED),
    call("side_bets", b.side_bets, decks=1),
    # effects of removal and count systems
    call("CountSystem", b.CountSystem, name="mine", tags=tuple(map(Fraction, HI_LO))),
    call("CountSystem.named", b.CountSystem.named, name="hi-lo"),
    call("parse_tags", b.parse_tags, text="1,1,1,1,1,0,0,0,-1,-1"),
    call("parse_hand", b.parse_hand, text="T,6"),
    call("parse_play", b.parse_play, text="16 v T stand hit"),
    call("HandTotal", b.HandTotal, value=16),
    call("WorkerPool", b.WorkerPool, workers=1),
    call("effects_of_removal", b.effects_of_removal, rules=RULES, strategy="basic", workers=1),
    call("eor_table", b.eor_table, rules=RULES, strategy="basic", workers=1),
    call("count_table", b.count_table, rules=RULES, systems=("hi-lo",), strategy="basic", workers=1),
    call("count_figures", b.count_figures, system=SYSTEM, eor=EOR),
    call("play_effects", b.play_effects, rules=RULES, cards="T,2", up="T", first="stand", second="hit",
         workers=1),
    call("insurance_effects", b.insurance_effects, rules=RULES),
    call("play_index", b.play_index, system=SYSTEM, play=PLAY),
    call("exact_indices", b.exact_indices, rules=RULES, systems=Lazy(lambda: (SYSTEM.get(),)),
         plays=Lazy(lambda: (PLAY.get(),)), cards_seen=2, workers=1),
    # the counter's shoe and true counts
    call("CountShoe", b.CountShoe, shoe=TINY, tags=tuple(map(Fraction, HI_LO))),
    call("CountShoe.named", b.CountShoe.named, system="hi-lo", shoe=TINY),
    method(b.CountShoe, "after", COUNT_SHOE, cards="T"),
    method(b.CountShoe, "draw_probability", COUNT_SHOE, cards="T"),
    method(b.CountShoe, "true_count", COUNT_SHOE),
    call("Counter", b.Counter, system="hi-lo", shoe=COUNT_SHOE),
    call("Counter.of", b.Counter.of, full_shoe=TINY, system="hi-lo", tags=HI_LO, cards_seen=2,
         running_count=1),
    call("true_count", b.true_count, running_count=2, cards_left=26),
    call("decks_left", b.decks_left, cards_left=26),
    call("running_count_distribution", b.running_count_distribution, shoe=TINY, tags=HI_LO, seen=2),
    call("true_count_distribution", b.true_count_distribution, shoe=TINY, tags=HI_LO, seen=2),
    call("insurance_index", b.insurance_index, shoe=TINY, tags=HI_LO, hand="", cards_left=10),
    call("best_insurance_index", b.best_insurance_index, shoe=TINY, tags=HI_LO, hand="", cards_left=(10,)),
    call("insurance_table", b.insurance_table, shoe=TINY, tags=HI_LO, hand=""),
    # index numbers
    call("Convention", b.Convention),
    call("convention_of", b.convention_of, divisor="exact", rounding="floor"),
    call("IndexPlay", b.IndexPlay, hand=(b.Rank.TEN, b.Rank.SIX), up=b.Rank.TEN, play=b.Action.STAND,
         instead=(b.Action.HIT,)),
    call("play_from_text", b.play_from_text, text="16 v T stand hit"),
    call("default_plays", b.default_plays, rules=RULES),
    call("depth_of", b.depth_of, cards_seen=2, decks=None, rules=RULES),
    call("index_table", b.index_table, rules=RULES, system="hi-lo", tags=HI_LO, cards_seen=2,
         plays=("16 v T stand hit",), workers=1),
    call("all_indices", b.all_indices, rules=QUICK_RULES, system="hi-lo",
         tags=HI_LO, cards_seen=2, workers=1),
    call("shoe_index_table", b.shoe_index_table, rules=RULES, system="hi-lo", tags=HI_LO,
         penetration=Fraction(1, 2), plays=("16 v T stand hit",), store=None, workers=1),
    # what a count and a spread are worth
    call("Spread", b.Spread, steps=((None, None, Fraction(1)),)),
    call("Spread.parse", b.Spread.parse, text="<=1:1,2:2,>=3:4"),
    call("cards_per_round", b.cards_per_round, rules=RULES, chart=CHART),
    call("round_starts", b.round_starts, cards=17, cut=8, per_round=5.0),
    call("round_start_states", b.round_start_states, rules=RULES, chart=CHART, tags=HI_LO, cut=6),
    call("truecount_analysis", b.truecount_analysis, rules=RULES, system="hi-lo", tags=HI_LO,
         penetration=Fraction(3, 10), store=None, workers=1),
    call("simulate", b.simulate, rules=RULES, system="hi-lo", tags=HI_LO, rounds=2000, seed=1,
         penetration=Fraction(1, 2), strategy="basic", store=None, workers=1),
    call("TaskStore", b.TaskStore, path=None),
]


@dataclass(frozen=True)
class Bad:
    label: str
    value: Any


BAD_VALUES = [
    Bad("None", None),
    Bad("True", True),
    Bad("empty", ""),
    Bad("nonsense", "zzz"),
    Bad("-1", -1),
    Bad("0", 0),
    Bad("huge", 10**100),
    Bad("nan", math.nan),
    Bad("inf", math.inf),
    Bad("2.5", 2.5),
    Bad("empty tuple", ()),
    Bad("object", object()),
]

# (call, parameter) -> the bad-value labels it rightly takes, and why; not run (besides the
# signature's own defaults, which _is_default leaves out).
ACCEPTED: dict[tuple[str, str], tuple[set[str], str]] = {
    ("simulate", "store"): ({"nonsense", "empty"}, "any text names a file (sqlite: '' is a temporary one)"),
    ("simulate", "system"): ({"nonsense"}, "the count's name as shown, a label (the tags are the count)"),
    ("simulate", "wong_in"): ({"-1", "0"}, "true counts the shoe produces"),
    ("simulate", "wong_out"): ({"-1", "0"}, "true counts the shoe produces"),
    ("simulate", "bankroll"): ({"2.5"}, "a bankroll of 2.5 bets (its risk of ruin near 1)"),
    # the counter's shoe and true counts
    ("CountShoe", "hand"): ({"empty"}, "'' is no cards (text, as as_cards reads it)"),
    ("CountShoe", "others"): ({"empty"}, "'' is no cards (text, as as_cards reads it)"),
    ("CountShoe", "running_count"): ({"0"}, "a running count (the default's value, an int)"),
    ("CountShoe", "initial_running_count"): ({"0"}, "no initial running count (the default's value, an int)"),
    ("CountShoe.after", "cards"): ({"empty", "empty tuple"}, "no cards seen: the shoe as it is"),
    ("CountShoe.draw_probability", "cards"): ({"empty", "empty tuple"}, "the empty draw: probability 1"),
    ("Counter", "system"): ({"nonsense"}, "the count's name as shown, any text ('custom' for one's own tags)"),
    ("Counter.of", "system"): ({"nonsense"}, "the count's name as shown, any text ('custom' for one's own tags)"),
    ("Counter.of", "hand"): ({"empty"}, "'' is no cards (text, as as_cards reads it)"),
    ("Counter.of", "running_count"): ({"-1", "0"}, "running counts two cards of the tiny shoe make"),
    ("running_count_distribution", "seen"): ({"0"}, "0 cards seen: the running count is the IRC"),
    ("running_count_distribution", "initial_running_count"): (
        {"-1"}, "an offset here (IRC + the tag sum, for any IRC: tests check it against brute force on balanced "
        "tags); true_count_distribution and the callers that take a user's IRC refuse one on a balanced count"),
    ("true_count_distribution", "seen"): ({"0"}, "0 cards seen: the running count is the IRC"),
    ("true_count", "running_count"): ({"-1", "0", "2.5"}, "running counts (2.5: a count with half tags)"),
    ("depth_of", "cards_seen"): ({"0"}, "0 cards seen: the top of the shoe"),
    ("depth_of", "decks"): ({"None"}, "None: the depth is given as cards seen (one of the two)"),
    # what a count and a spread are worth
    ("truecount_analysis", "bankroll"): ({"2.5"}, "a bankroll of 2.5 bets (its risk of ruin near 1)"),
    ("truecount_analysis", "batch"): ({"huge"}, "a batch larger than the tasks is one batch of them all"),
    ("truecount_analysis", "optimal_spread"): ({"2.5"}, "a max bet ratio from 1 to 100: a 1-2.5 spread"),
    ("truecount_analysis", "penetrations"): ({"empty tuple"}, "no penetrations: no win-by-penetration curve"),
    ("truecount_analysis", "store"): ({"nonsense", "empty"},
                                      "any text names a file (sqlite: '' is a temporary one), as TaskStore"),
    ("truecount_analysis", "system"): ({"nonsense"}, "the count's name as shown, a label (the tags are the count)"),
    ("truecount_analysis", "tail"): ({"0"}, "0 analyses every state (documented)"),
    ("truecount_analysis", "wong_in"): ({"-1", "0"}, "true counts the shoe produces"),
    ("truecount_analysis", "wong_out"): ({"-1", "0"}, "true counts the shoe produces"),
    ("IndexPlay", "group"): ({"nonsense"}, "a free label for a list of plays ('I18', 'Fab 4', 'asked'): any text"),
    ("IndexPlay", "published"): ({"-1", "0"}, "a published index is a true count: the common list has 0 (16 v T) "
                                              "and -1 (13 v 2)"),
    ("index_table", "cards_seen"): ({"0"}, "0 cards seen: the indices at the top of the shoe"),
    ("all_indices", "cards_seen"): ({"0"}, "0 cards seen: the indices at the top of the shoe"),
    ("exact_indices", "cards_seen"): ({"0"}, "0 cards seen: the indices at the top of the shoe"),
    ("count_table", "exact_index_depth"): ({"0"}, "0 cards seen: the exact indices at the top of the shoe"),
    ("index_table", "system"): ({"nonsense"}, "the count's name the table is labelled with (its tags are given "
                                              "apart): any text but none"),
    ("all_indices", "system"): ({"nonsense"}, "the count's name the table is labelled with (its tags are given "
                                              "apart): any text but none"),
    ("shoe_index_table", "system"): ({"nonsense"}, "the count's name the table is labelled with (its tags are "
                                                   "given apart): any text but none"),
    ("insurance_table", "system"): ({"nonsense"}, "the count's name the table is labelled with (its tags are "
                                                  "given apart): any text but none"),
    ("index_table", "plays"): ({"empty tuple"}, "no plays: insurance's index alone (plays=None: the default "
                                                "plays; refused where insurance is not asked either)"),
    ("shoe_index_table", "plays"): ({"empty tuple"}, "no plays: insurance's index alone (plays=None: the default "
                                                     "plays; refused where insurance is not asked either)"),
    ("insurance_index", "hand"): ({"empty", "empty tuple"}, "no cards besides the ace: an index that counts only "
                                                            "the ace (documented)"),
    ("best_insurance_index", "hand"): ({"empty", "empty tuple"}, "no cards besides the ace: an index that counts "
                                                                 "only the ace (documented)"),
    ("insurance_table", "hand"): ({"empty", "empty tuple"}, "no cards besides the ace: an index that counts only "
                                                            "the ace (documented)"),
    ("insurance_index", "initial_running_count"): ({"-1"}, "an IRC the shoe's tags can produce: taken on a "
                                                          "balanced count as CountShoe takes it (insurance_table, "
                                                          "the command's, refuses it)"),
    ("best_insurance_index", "initial_running_count"): ({"-1"}, "an IRC the shoe's tags can produce: taken on a "
                                                               "balanced count as CountShoe takes it "
                                                               "(insurance_table, the command's, refuses it)"),
    ("insurance_effects", "cards"): ({"empty"}, "'' names no cards seen, as the default () does"),
    ("shoe_index_table", "store"): ({"nonsense", "empty"}, "any text names a file, as TaskStore takes it "
                                                           "(sqlite: '' is a temporary one)"),
    ("CountSystem", "name"): ({"nonsense"},
        "a count of one's own may have any name (the command line's is 'custom')"),
    ("Rules", "blackjack_pays"): ({"2.5"},
        "a blackjack paying 2.5 to 1 (5:2) is a payout in the range Rules takes (above 0, at most 1000 to 1)"),
    ("Rules.without", "cards"): ({"empty tuple"},
        "no cards seen: the same shoe (as removed=() means no cards elsewhere)"),
    ("TaskStore", "path"): ({"nonsense", "empty", "None"}, "any text names a file (sqlite: '' is a temporary one); "
                            "None keeps the rows in memory, as documented (TaskStore(None))"),
    ("build_report", "title"): ({"nonsense"},
        "any text is a report's title"),
    ("load_chart", "name"): ({"nonsense"},
        "the chart's file name, quoted in messages: any text names a file"),
    ("rule_flags", "rules"): ({"empty tuple"},
        "no rules declared: no flags (the declarations are the caller's own, as tests/test_ruleset.py passes)"),
    ("rules_from_flags", "game"): ({"nonsense"},
        "game only names the base rules in messages (the doctest's 'mine'): any text but empty"),
    ("rules_from_flags", "rules"): ({"empty tuple"},
        "no rules declared: no flags, the base rules unchanged (the declarations are the caller's own)"),
}

# What the sweep finds and is not fixed yet: (call, parameter) -> {what goes wrong: the bad-value
# labels}, each a strict xfail (a fix shows as XPASS and takes its entry out). Empty since issue
# 45 closed: a new find is fixed, or listed here with its kind ("TypeError", "accepted", "message
# names neither", "TooSlow", ...) while its fix is under way.
KNOWN_BUGS: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}


class TooSlow(Exception):
    pass


def _deadline(seconds: int):
    """Fail a call that outlives ``seconds``: it took a bad value and went to work on it."""
    import contextlib

    @contextlib.contextmanager
    def guard():
        def expire(*_: object) -> None:
            raise TooSlow(f"still working after {seconds} s")

        previous = signal.signal(signal.SIGALRM, expire)
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)

    return guard()


def _names(message: str, parameter: str, value: Any) -> bool:
    spellings = {parameter, parameter.replace("_", " "), parameter.replace("_", "-"), repr(value)}
    if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value):
        spellings.add(str(value))
    return any(s in message for s in spellings if s)


def _is_default(c: Call, parameter: str, bad: Bad) -> bool:
    """Whether ``bad`` is a value the signature itself gives ``parameter`` (its default, or
    True for a flag that defaults to False): legitimately valid, so not swept."""
    default = inspect.signature(c.function).parameters[parameter].default
    if default is inspect.Parameter.empty or type(default) is not type(bad.value):
        return False
    return isinstance(default, bool) or default == bad.value


LIBRARY_INPUTS = [(c, p, bad) for c in CALLS for p in c.parameters() for bad in BAD_VALUES
                  if not _is_default(c, p, bad) and bad.label not in ACCEPTED.get((c.name, p), ((), ""))[0]]


def _library_id(c: Call, parameter: str, bad: Bad) -> str:
    return f"{c.name}({parameter}={bad.label})"


def _marks(c: Call, parameter: str, bad: Bad, ci: bool) -> list[Any]:
    marks = [] if ci else [pytest.mark.slow]
    for kind, labels in KNOWN_BUGS.get((c.name, parameter), {}).items():
        if bad.label in labels:
            slow = kind in ("TooSlow", "accepted (slow)")
            marks.append(pytest.mark.xfail(reason=f"known bug: {kind}", strict=True, run=not slow))
    return marks


def _library_params() -> list[Any]:
    groups = {key: g for g, key in enumerate(dict.fromkeys((c.name, p) for c, p, _ in LIBRARY_INPUTS))}
    return [pytest.param(c, p, bad, id=_library_id(c, p, bad),
                         marks=_marks(c, p, bad, in_ci(groups[c.name, p], BAD_VALUES.index(bad))))
            for c, p, bad in LIBRARY_INPUTS]


@pytest.mark.parametrize("c, parameter, bad", _library_params())
def test_library_refuses_a_bad_value_naming_it(c: Call, parameter: str, bad: Bad, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # a store or a file named by a bad value lands here
    arguments = {name: resolve(value) for name, value in c.valid.items()}
    arguments[parameter] = bad.value
    try:
        with _deadline(SLOW):
            c.function(**arguments)
    except BjcalcError as error:
        assert _names(str(error), parameter, bad.value), (
            f"{_library_id(c, parameter, bad)}: the message names neither the parameter nor the value: {error}")
        return
    pytest.fail(f"{_library_id(c, parameter, bad)} was accepted")


@pytest.mark.slow  # the base calls take a second or more each; the inputs' refusals do not need them
@pytest.mark.parametrize("c", [pytest.param(c, id=c.name) for c in CALLS])
def test_each_valid_call_works(c: Call) -> None:
    """The sweep starts from calls that work, so a refusal is the bad value's doing."""
    with _deadline(SLOW):
        c.function(**{name: resolve(value) for name, value in c.valid.items()})


def test_every_public_name_is_swept_or_said_why_not() -> None:
    swept = {c.name.split(".")[0] for c in CALLS}
    assert set(bjcalc.__all__) - swept - LEFT_OUT == set()
    assert LEFT_OUT <= set(bjcalc.__all__) and not LEFT_OUT & swept


# -- the command line ----------------------------------------------------------------------------

QUICK = "1,1,1,1,1,1,1,1,1,12"  # as tiny, and quicker for the commands that play every hand
# one valid command line each, on a tiny shoe; each option below replaces its own value here
COMMAND_LINES = {
    "dealer": ["dealer", "6", "--shoe", TINY_TEXT],
    "hand": ["hand", "T,2", "--up", "6", "--shoe", TINY_TEXT],
    "chart": ["chart", "--shoe", QUICK],
    "edge": ["edge", "--shoe", TINY_TEXT],
    "betbehind": ["betbehind", "--shoe", TINY_TEXT],
    "matrix": ["matrix", "--shoe", QUICK],
    "eor": ["eor", "--shoe", TINY_TEXT, "--workers", "1"],
    "count": ["count", "--shoe", TINY_TEXT, "--workers", "1"],
    "insurance-index": ["insurance-index", "--shoe", TINY_TEXT],
    "index": ["index", "--shoe", TINY_TEXT, "--cards-seen", "2", "--play", "16 v T stand hit", "--workers", "1"],
    "truecount": ["truecount", "--shoe", TINY_TEXT, "--penetration", "0.3", "--workers", "1", "--store", "none"],
    "simulate": ["simulate", "--shoe", TINY_TEXT, "--penetration", "0.5", "--rounds", "2000", "--strategy", "basic",
                 "--workers", "1", "--store", "none"],
    "games": ["games"],
    "sidebets": ["sidebets", "--decks", "1"],
    "report": ["report", "--shoe", QUICK],
    "effects": ["effects", "--shoe", QUICK],
    "tables": ["tables", "/proc/no/such/dir"],
}

HUGE = "9" * 30
BAD_TEXT = {
    "number": ["-1", HUGE, "nan", "1e999", "zzz", ""],
    "choice": ["zzz", ""],
    "text": ["", "zzz", "-1", "nan", HUGE],
    # where a value names a file or a directory: nothing that could be made or written to
    "path": ["", "/proc/no/such/file", "/dev/null", "/proc", "a\x00b"],
    "scheduler": ["", "zzz", "tcp://", "tcp://:x"],
}
PATH_OPTIONS = {"--chart", "--store", "directory"}


def _kind(parameter: click.Parameter) -> str:
    name = parameter.name if isinstance(parameter, click.Argument) else parameter.opts[0]
    if name in PATH_OPTIONS:
        return "path"
    if name == "--scheduler":
        return "scheduler"
    if isinstance(parameter.type, click.Choice):
        return "choice"
    if isinstance(parameter.type, (click.types.IntParamType, click.types.FloatParamType)):
        return "number"
    return "text"


def _with(line: list[str], parameter: click.Parameter, value: str) -> list[str]:
    """``line`` with ``parameter`` given ``value`` (replacing the one it has)."""
    if isinstance(parameter, click.Argument):
        return [line[0], value, *line[2:]]  # each command's one argument comes first
    option = parameter.opts[0]
    out = list(line)
    if option in out:
        i = out.index(option)
        del out[i:i + 2]
    if option == "--decks" and "--shoe" in out:  # not both
        i = out.index("--shoe")
        del out[i:i + 2]
    return [*out, option, value]


def _cli_inputs() -> list[tuple[str, list[str], bool]]:
    """(command, its line, whether CI runs it) for every option's bad values."""
    inputs = []
    group = 0
    for name, command in cli.commands.items():
        for parameter in command.params:
            if isinstance(parameter, click.Option) and (parameter.is_flag or parameter.hidden):
                continue  # a flag takes no value
            if name == "tables" and not isinstance(parameter, click.Argument):
                continue
            for position, value in enumerate(BAD_TEXT[_kind(parameter)]):
                inputs.append((name, _with(COMMAND_LINES[name], parameter, value), in_ci(group, position)))
            group += 1
    return inputs


CLI_INPUTS = _cli_inputs()


@pytest.mark.parametrize("name, line", [
    pytest.param(name, line, id=" ".join(line).replace("\x00", "\\0"), marks=[] if ci else [pytest.mark.slow])
    for name, line, ci in CLI_INPUTS])
def test_command_line_gives_output_or_one_error_line(name: str, line: list[str]) -> None:
    with _deadline(SLOW):
        result = CliRunner().invoke(cli, line)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        assert result.stdout, "exit 0 with no output"
    else:
        assert result.stdout == "", f"half-written output: {result.stdout!r}"
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), result.stderr


@pytest.mark.slow  # as the valid calls
@pytest.mark.parametrize("name", sorted(COMMAND_LINES))
def test_each_valid_command_line_works(name: str) -> None:
    if name == "tables":
        pytest.skip("a valid tables run writes every table (20 s): its base line is a refusal")
    result = CliRunner().invoke(cli, COMMAND_LINES[name])
    assert result.exit_code == 0, result.output


def test_the_sweep_covers_every_command_and_enough_inputs() -> None:
    assert {name for name, _, _ in CLI_INPUTS} == set(cli.commands) == set(COMMAND_LINES)
    in_ci_inputs = sum(ci for _, _, ci in CLI_INPUTS) + sum(1 for p in _library_params() if not p.marks)
    assert in_ci_inputs >= 500  # issue 45: CI runs at least 500 generated inputs
