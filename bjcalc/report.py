"""Everything about one game in one place, and how much each of its rules is worth.

A report gathers: the rules as understood (flagging what the game's text did not state), the
house edge of basic strategy and of composition-dependent play, insurance, the chart and its
composition-dependent exceptions, the side bets, and Bet Behind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic

from bjcalc.analysis import Analysis
from bjcalc.arguments import checked
from bjcalc.chart import Chart
from bjcalc.errors import InvalidArgumentError, InvalidRulesError
from bjcalc.games.sidebets import SideBetResult
from bjcalc.results import BetBehindResult, ChartException, N, RoundResult, RunOut, Strategy, Variance
from bjcalc.rules import Rules, check_rules
from bjcalc.ruleset import one_rule_variants

if TYPE_CHECKING:
    from bjcalc.engine.runout import RoundRunOut


@dataclasses.dataclass(frozen=True)
class Report(Generic[N]):
    """Everything about one game. ``basic``: the round played by ``chart``; ``cd``: CD play with
    split hands CDZ-; their variances (resplits included; ``None`` inside for the infinite deck);
    ``bet_behind``: a seat playing CD, then one playing the chart; ``side_bets``: Perfect Pairs
    and 21+3 on the full shoe (none for a shoe given by counts: side bets need suits)."""

    title: str
    rules: Rules
    assumed: tuple[str, ...]
    chart: Chart
    exceptions: list[ChartException]
    basic: RoundResult[N]
    basic_variance: Variance[N]
    cd: RoundResult[N]
    cd_variance: Variance[N]
    bet_behind: tuple[BetBehindResult[N], ...]
    side_bets: tuple[SideBetResult, ...]
    exact: bool = False
    side_bets_missing: str | None = None  # why there are no side bets, where there are none


def side_bets_missing(rules: Rules) -> str | None:
    """Why a report of ``rules`` has no side bets (``None`` where it has them): they are dealt
    from a shoe of suited cards, which an infinite deck and a shoe given by counts are not."""
    if rules.infinite:
        return ("no side bets: Perfect Pairs and 21+3 are dealt from a shoe of suited cards, and an infinite "
                "deck has none (give a number of decks)")
    if rules.decks is None:
        return ("no side bets: Perfect Pairs and 21+3 need the suits of the cards, and a shoe given by counts "
                "(--shoe, or the cards --removed) has none; 'bjcalc sidebets --removed' takes seen cards "
                "with their suits, e.g. 'Ah Kd 7c'")
    return None


REPORT_STEPS = ("chart", "exceptions", "basic round", "basic spread", "CD round", "CD spread", "Bet Behind")


@checked
def build_report(title: str, rules: Rules, assumed: tuple[str, ...] = (), exact: bool = False,
                 two_card_plays: bool = True, progress: Callable[[str], None] = lambda step: None) -> Report[Any]:
    """The report of a game: float arithmetic (which agrees with exact mode to 1e-12), or
    exact round figures with ``exact`` (the chart and its exceptions are chosen in floating
    point either way). ``two_card_plays=False``: the classic chart, one play per total
    (:meth:`Analysis.chart`). ``progress`` hears of each of :data:`REPORT_STEPS` as it is done."""
    check_rules(rules)
    if not title.strip():
        raise InvalidArgumentError(f"build_report: title must name the game, not {title!r}")
    from bjcalc.games import sidebets

    analysis = Analysis(rules, exact=exact)
    side_bets: tuple[SideBetResult, ...] = ()
    if side_bets_missing(rules) is None and rules.decks is not None:  # side bets are dealt from a real shoe
        shoe = sidebets.SuitedShoe.of_decks(int(rules.decks))
        side_bets = (sidebets.perfect_pairs(shoe), sidebets.twenty_one_plus_three(shoe))
    work: dict[str, Callable[[], Any]] = {
        "chart": lambda: analysis.chart(two_card_plays),
        "exceptions": lambda: analysis.exceptions(done["chart"]),
        "basic round": lambda: analysis.evaluate(done["chart"]).round,
        "basic spread": lambda: analysis.variance(done["chart"]),
        "CD round": analysis.round,
        "CD spread": analysis.variance,
        "Bet Behind": lambda: (analysis.bet_behind(), analysis.bet_behind(done["chart"])),
    }
    done: dict[str, Any] = {}
    for step in REPORT_STEPS:
        done[step] = work[step]()
        progress(step)
    return Report(
        title=title,
        rules=rules,
        assumed=assumed,
        chart=done["chart"],
        exceptions=done["exceptions"],
        basic=done["basic round"],
        basic_variance=done["basic spread"],
        cd=done["CD round"],
        cd_variance=done["CD spread"],
        bet_behind=done["Bet Behind"],
        side_bets=side_bets,
        exact=exact,
        side_bets_missing=side_bets_missing(rules),
    )


def one_rule_changes(rules: Rules) -> list[tuple[str, Rules]]:
    """Variants of ``rules`` that change one rule each, described in words: each rule's
    variants as its declaration (:data:`bjcalc.DECLARED_RULES`) gives them."""
    check_rules(rules)
    return [(words, rules.replace(**change)) for words, change in one_rule_variants(rules)]


@dataclasses.dataclass(frozen=True)
class RuleChange(Generic[N]):
    """One rule changed (``words``), the rules with the change, and the house edge with it."""

    words: str
    rules: Rules
    house_edge: N
    run_out: RunOut[N] | None = None  # on a shoe dealt to its last cards (bjcalc.results.RunOut)


@dataclasses.dataclass(frozen=True)
class RuleEffects(Generic[N]):
    """The house edge of a game (``strategy``: CD play, split hands CDZ-; unconditional, per
    round) and of each one-rule change of it."""

    rules: Rules
    strategy: Strategy
    house_edge: N
    changes: tuple[RuleChange[N], ...]
    run_out: RunOut[N] | None = None  # the game's own, on a shoe dealt to its last cards

    @property
    def base_percent(self) -> float:
        return 100 * float(self.house_edge)  # type: ignore[arg-type]

    def rows(self) -> list[tuple[str, float, float]]:
        """Each change, its house edge and its effect (percentage points, positive = better for
        the house), as floats for the printed tables."""
        base = self.base_percent
        return [(c.words, 100 * float(c.house_edge), 100 * float(c.house_edge) - base)  # type: ignore[arg-type]
                for c in self.changes]


def _house_edge(game: Rules, exact: bool) -> tuple[Strategy, Any, RoundRunOut | None]:
    """The CD strategy of ``game``, its house edge and, on a shoe dealt to its last cards, how
    likely its round is to run out, in the engine's numbers (a job of :func:`rule_effects`, run
    here or in a worker process)."""
    from bjcalc.engine.runout import round_run_out
    from bjcalc.engine.walk import Optimal, round_totals

    analysis = Analysis(game, exact=exact)
    policy = Optimal(analysis.engine)
    totals = round_totals(analysis.engine, policy)
    return analysis.cd, -totals.ev, round_run_out(analysis.engine, policy, totals.plays)


def rule_effects(
    rules: Rules, progress: Callable[[str], None] = lambda words: None, exact: bool = False,
    workers: int | None = None,
) -> RuleEffects[Any]:
    """The house edge of the game itself (CD play with split hands CDZ-) and of each one-rule
    change: float arithmetic (agrees with exact to 1e-12), or exact fractions with ``exact``.
    Each analysis' round stays in the engine's numbers (Fractions in exact mode) until all have
    run, then becomes the API's: sympy (35 MB resident) loads after the analyses, not beside
    the largest of them (exact effects of the default game: 232 -> 200 MB). Exact analyses run
    in ``workers`` processes (default one per core; :func:`bjcalc.counting.workers.map_jobs`): each takes a
    few tenths of a second at least, worth a worker's start (2 decks: 4.5 -> 2.9 s on two
    cores); float ones, tens of milliseconds each, run here one after another."""
    from bjcalc.counting.workers import check_workers, map_jobs

    check_rules(rules)
    check_workers(workers)

    if not isinstance(exact, bool):
        raise InvalidRulesError(f"exact must be True or False, not {exact!r}")
    from bjcalc.numbers import to_api

    variants = one_rule_changes(rules)
    games = [rules] + [variant for _, variant in variants]
    names = ["the game itself"] + [words for words, _ in variants]
    if exact:  # each change reported as it finishes (the game itself is not one)
        # the larger shoes first (they take longest), so that the workers finish together
        order = sorted(range(len(games)), key=lambda i: -sum(games[i].shoe_counts))
        done = map_jobs(_house_edge, [(games[i], True) for i in order], workers,
                        lambda name: None if name == names[0] else progress(name), [names[i] for i in order])
        edges = [edge for _, edge in sorted(zip(order, done), key=lambda pair: pair[0])]
    else:
        edges = []
        for name, game in zip(names, games):
            if edges:  # the game itself is not a change
                progress(name)
            edges.append(_house_edge(game, False))
    from bjcalc.round import run_out_result

    (strategy, base, run_out), *rest = edges
    changes = [RuleChange(words, variant, to_api(edge, exact), run_out_result(variant, out, exact))
               for (words, variant), (_, edge, out) in zip(variants, rest)]
    return RuleEffects(rules, strategy, to_api(base, exact), tuple(changes), run_out_result(rules, run_out, exact))
