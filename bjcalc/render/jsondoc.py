"""JSON: one document per command. Nothing here computes a probability.

JSON follows docs/json.md (schema: docs/bjcalc.schema.json): one object per command with
``schema``, ``command`` and the ``rules`` block; numbers are JSON numbers, and with ``--exact``
an ``"exact"`` object mirrors every exactly computed number as a string ``"p/q"``
(:func:`document`, from the results' ``to_data()``). The ``*_data`` builders are the documents'
bodies (``bjcalc tables`` writes the chart's with the round under CD play added).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bjcalc.cards import RANK_NOTATION
from bjcalc.games.presets import Game
from bjcalc.render.common import (
    CHART_KINDS,
    RANK_ORDER,
    Index,
    dealer_columns,
    exact_text,
    outcome_label,
)
from bjcalc.results import (
    UP_ORDER,
    BetBehindResult,
    ChartException,
    DealerResult,
    Deviation,
    HandResult,
    RoundResult,
    Strategy,
    Variance,
    bet_figures,
    by_up,
    is_rational,
    plain,
)
from bjcalc.rules import Rules

if TYPE_CHECKING:  # types only: importing these would load the engine (bjcalc games must not)
    from bjcalc.chart import Chart
    from bjcalc.counting.countshoe import Counter
    from bjcalc.counting.eor import EffectsOfRemoval
    from bjcalc.counting.indexgrid import AllIndices
    from bjcalc.counting.indices import IndexTable
    from bjcalc.counting.insurance import InsuranceTable
    from bjcalc.counting.measures import CountFigures, ExactIndex, ExactIndices
    from bjcalc.counting.plays import PlayEffects
    from bjcalc.counting.shoeindex import ShoeIndexTable
    from bjcalc.counting.simulate import SimulationResult
    from bjcalc.counting.truecount import TrueCountResult
    from bjcalc.games.sidebets import SideBetResult
    from bjcalc.matrix import EvMatrix
    from bjcalc.report import Report, RuleEffects


SCHEMA = "bjcalc/1"  # every JSON output's "schema"; docs/bjcalc.schema.json describes it


def exact_mirror(data: Any) -> Any:
    """The exactly computed numbers of ``data`` (``to_data()`` output), with the same keys and
    nesting, each as :func:`exact_text`; ``None`` where ``data`` holds none. Floats (a standard
    deviation, a chart's gains and costs, every number of a float analysis) and integers
    (counts, exact in JSON already) are left out; in a list, an item with no exact number is
    ``{}``, so that positions match.

    >>> import sympy
    >>> exact_mirror({"ev": sympy.Rational(-1, 3), "sd": 1.1, "n": 4, "rows": [{"p": Fraction(1, 2)}, {"x": 0.5}]})
    {'ev': '-1/3', 'rows': [{'p': '1/2'}, {}]}
    """
    if is_rational(data):
        return exact_text(data)
    if isinstance(data, Mapping):
        inner = {str(key): exact_mirror(value) for key, value in data.items()}
        return {key: value for key, value in inner.items() if value is not None} or None
    if isinstance(data, (list, tuple)):
        items = [exact_mirror(value) for value in data]
        return [{} if item is None else item for item in items] if any(i is not None for i in items) else None
    return None


def document(command: str, data: Mapping[str, Any], rules: Rules | None, exact: bool,
             counter: Counter | None = None) -> dict[str, Any]:
    """One command's JSON object: ``schema``, ``command``, ``data`` with plain numbers, the
    ``rules`` block, the ``counter`` block where the numbers are for a counter's shoe and, when
    ``exact``, the ``"exact"`` mirror of ``data`` (and of the counter block)."""
    if counter is not None:
        data = {**data, "counter": counter.to_data()}
    out: dict[str, Any] = {"schema": SCHEMA, "command": command, **plain(data)}
    if rules is not None:
        out["rules"] = rules.to_dict()
    if exact:
        out["exact"] = exact_mirror(data) or {}
    return out


def dumps(out: Mapping[str, Any]) -> str:
    return json.dumps(out, indent=2)


def round_data(result: RoundResult, variance: Variance | None = None) -> dict[str, Any]:
    """A round's figures (:meth:`RoundResult.to_data`) with its ``variance`` and ``sd``
    (``None`` where not computed)."""
    spread: dict[str, Any] = {"variance": None, "sd": None}
    if variance is not None:
        assert variance.strategy == result.strategy, (variance.strategy, result.strategy)
        spread = {"variance": variance.variance, "sd": variance.sd}
    return {**result.to_data(), **spread}


def chart_tables(chart: Chart) -> dict[str, Any]:
    """The chart's three tables: row -> up card (2..9, T, A) -> code (docs/charts.md)."""
    return {kind: chart.table(kind) for kind, _ in CHART_KINDS}


def betbehind_data(result: BetBehindResult, variance: Variance | None = None) -> dict[str, Any]:
    """Bet Behind's two bets. Following everything, the bet's result is the seated player's
    (without insurance): its variance is the round's under the seated strategy (``variance``)."""
    data = result.to_data()
    if variance is not None:
        assert variance.strategy == result.seated, (variance.strategy, result.seated)
        data["follows_everything"] = bet_figures(result.follows_everything, variance.variance)
    return data


def side_bet_data(result: SideBetResult) -> dict[str, Any]:
    """One side bet; categories by their JSON keys (``perfect_pair``, ``straight_flush``...),
    best first, the losing ``none`` last (it pays -1)."""
    return {
        "name": result.name,
        "expected_return": result.expected_return,
        "house_edge": result.house_edge,
        "house_edge_percent": 100 * result.house_edge,
        "total_combinations": result.total_combinations,
        "categories": {
            result.category_key(name): {"combinations": n, "probability": p, "pays": pays}
            for name, (n, p, pays) in result.categories.items()
        },
    }


def _seat(result: BetBehindResult) -> str:
    return "basic" if result.seated.chart else "optimal"


def dealer_json(results: Sequence[DealerResult], rules: Rules, peeked: bool, exact: bool,
                counter: Counter | None = None) -> str:
    """Up card (2..9, T, A) -> outcome -> probability; every up card has the same outcomes (0
    where it cannot reach one). A total below 17 is a hand stopped by the card limit: those
    are listed in ``card_limit_outcomes``."""
    columns, tables = dealer_columns(results, exact)
    data = {
        "peeked": peeked,
        "frame": "conditioned" if peeked else "unconditional",
        "outcomes": columns,
        "card_limit_outcomes": [c for c in columns if outcome_label(c) != c],
        "probabilities": {up: tables[up] for up in sorted(tables, key=UP_ORDER.index)},
    }
    return dumps(document("dealer", data, rules, exact, counter))


def hand_json(result: HandResult, rules: Rules, exact: bool, counter: Counter | None = None) -> str:
    """The hand: every action's EV (``null`` where not allowed), ``frames`` giving each
    number's frame (``"conditioned"`` on no dealer blackjack, or ``"unconditional"``)."""
    return dumps(document("hand", result.to_data(), rules, exact, counter))


def games_json(games: list[Game]) -> str:
    """The presets, each with its own rules block (none at the top)."""
    data = {"games": [{"name": g.name, "title": g.title, "source": g.source, "rules": g.rules.to_dict(),
                       "assumed": list(g.assumed)} for g in games]}
    return dumps(document("games", data, None, exact=False))


def chart_data(chart: Chart, result: RoundResult, exceptions_: Sequence[ChartException],
               variance: Variance | None = None) -> dict[str, Any]:
    """The chart's tables (``--chart FILE`` reads them back), its round and the CD exceptions."""
    figures = round_data(result, variance)
    return {"strategy": figures.pop("strategy"), **chart_tables(chart), **figures,
            "exceptions": [e.to_data() for e in exceptions_]}


def chart_json(chart: Chart, result: RoundResult, exceptions_: Sequence[ChartException], exact: bool,
               variance: Variance | None = None, counter: Counter | None = None) -> str:
    return dumps(document("chart", chart_data(chart, result, exceptions_, variance), chart.rules, exact, counter))


def edge_json(result: RoundResult, rules: Rules, exact: bool, variance: Variance | None = None,
              costs: Sequence[Deviation] | None = None, counter: Counter | None = None) -> str:
    """The round's figures; with a chart file, the cost of each of its ``deviations``."""
    data = round_data(result, variance)
    if costs is not None:
        data["deviations"] = [d.to_data() for d in costs]
    return dumps(document("edge", data, rules, exact, counter))


def betbehind_json(result: BetBehindResult, rules: Rules, exact: bool, variance: Variance | None = None,
                   counter: Counter | None = None) -> str:
    return dumps(document("betbehind", betbehind_data(result, variance), rules, exact, counter))


def sidebets_json(results: Sequence[SideBetResult], removed: Sequence[str], rules: Rules, exact: bool) -> str:
    """Each bet under its key (``perfect_pairs``, ``twenty_one_plus_three``); ``removed``: the
    cards already out of the shoe."""
    data = {"removed": list(removed), **{r.key: side_bet_data(r) for r in results}}
    return dumps(document("sidebets", data, rules, exact))


def report_data(report: Report) -> dict[str, Any]:
    """The chart; the round played by it (``basic``) and with CD play (``cd``), each with its
    spread; the exceptions; Bet Behind by seat; the side bets (``None`` without suits)."""
    variances = {report.basic.strategy: report.basic_variance, report.cd.strategy: report.cd_variance}
    return {
        "title": report.title,
        "assumed": list(report.assumed),
        "chart": {"strategy": report.basic.strategy.to_dict(), **chart_tables(report.chart)},
        "basic": round_data(report.basic, report.basic_variance),
        "cd": round_data(report.cd, report.cd_variance),
        "exceptions": [e.to_data() for e in report.exceptions],
        "bet_behind": {_seat(r): betbehind_data(r, variances.get(r.seated)) for r in report.bet_behind},
        "side_bets": {b.key: side_bet_data(b) for b in report.side_bets} or None,
    }


def report_json(report: Report) -> str:
    return dumps(document("report", report_data(report), report.rules, report.exact))


def effects_json(title: str, effects: RuleEffects, exact: bool) -> str:
    """The game's house edge and, for each one-rule change, the rules it changes, the house
    edge with it and its ``effect`` (per initial bet; ``effect_percent`` in percentage points;
    + = worse for the player)."""
    base = effects.rules.to_dict()
    changes = []
    for change in effects.changes:
        edge = change.house_edge
        changed = change.rules.to_dict()
        changes.append({
            "change": change.words,
            "rules_changed": {field: value for field, value in changed.items() if base[field] != value},
            "house_edge": edge,
            "house_edge_percent": 100 * edge,
            "effect": edge - effects.house_edge,
            "effect_percent": 100 * (edge - effects.house_edge),
            **({} if change.run_out is None else {"run_out": change.run_out.to_data()}),
        })
    data = {"title": title, "strategy": effects.strategy.to_dict(), "frame": "unconditional",
            "house_edge": effects.house_edge, "house_edge_percent": 100 * effects.house_edge,
            "changes": changes, **({} if effects.run_out is None else {"run_out": effects.run_out.to_data()})}
    return dumps(document("effects", data, effects.rules, exact))


def _percent(values: Mapping[Any, Any]) -> dict[Any, Any]:
    """Per initial bet -> percent, exact where the values are."""
    return {rank: 100 * value for rank, value in values.items()}


def play_data(play: PlayEffects, strategy: Strategy) -> dict[str, Any]:
    """A decision's EOR (:meth:`PlayEffects.to_data`) with the unit of its numbers (insurance:
    per unit of insurance bet), the strategy its EVs assume (``None`` for insurance, a bet with
    nothing to play) and its EORs in percent."""
    insurance = play.first is None
    data = play.to_data()
    head = {key: data.pop(key) for key in ("play", "hand", "up", "first", "second", "frame")}
    return {
        **head,
        "unit": "insurance_bet" if insurance else "initial_bet",
        "strategy": None if insurance else strategy.to_dict(),
        **data,
        "eor_percent": by_up(_percent(play.eor)),
    }


def eor_data(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy) -> dict[str, Any]:
    """The round's EV before removal, after removing one card of each rank, the EORs (per
    initial bet and in percent), ``weighted_sum`` (``sum n_r EOR_r``), the ranks a counter's
    shoe cannot show next (``not_removable``: rank -> why) and each play's EOR."""
    return {
        "strategy": result.strategy.to_dict(),
        "frame": "unconditional",
        "ev": result.base,
        "ev_after_removal": by_up(result.ev),
        "eor": by_up(result.eor),
        "eor_percent": by_up(_percent(result.eor)),
        "weighted_sum": result.weighted_sum(),
        "not_removable": by_up(result.not_removable),
        "plays": [play_data(play, play_strategy) for play in plays],
        **({} if result.run_out is None else {"run_out": result.run_out.to_data()}),
    }


def eor_json(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy, exact: bool,
             counter: Counter | None = None) -> str:
    """``counter``: where the EORs are for a counter's shoe, its block."""
    return dumps(document("eor", eor_data(result, plays, play_strategy), result.rules, exact, counter))


def _tag(value: Fraction) -> Any:
    """A tag as JSON holds it: a whole number as an int, else the fraction (a float in JSON)."""
    return value.numerator if value.denominator == 1 else value


def system_data(figures: CountFigures, plays: Sequence[PlayEffects], indices: Sequence[Index],
                exact: Sequence[ExactIndex] | None = None) -> dict[str, Any]:
    """A count system's tags (rank -> tag, 2..9, T, A), BC, IC, the linear estimates of the
    advantage per true count and of each play's index; its exact indices (``None``: not
    computed)."""
    data = figures.to_data()
    tags = figures.system.tags
    data["tags"] = {rank: _tag(tags[RANK_NOTATION.index(rank)]) for rank in RANK_ORDER}
    data["indices"] = [
        {"play": play.label, "index": index,
         "deviate": None if above is None else ("at_or_above" if above else "at_or_below")}
        for play, (index, above) in zip(plays, indices)
    ]
    data["exact_indices"] = None if exact is None else [{"play": play.label, **index.to_data()}
                                                       for play, index in zip(plays, exact)]
    return data


def count_data(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy,
               figures: Sequence[CountFigures], indices: Sequence[Sequence[Index]],
               pe_model: Mapping[str, Any] | None = None, exact_indices: ExactIndices | None = None
               ) -> dict[str, Any]:
    """The EORs the figures come from, the plays indexed, each system's figures and what its
    playing efficiency assumes (``None`` where it was not computed), and where the exact indices
    were taken (``None``: not computed)."""
    return {
        "strategy": result.strategy.to_dict(),
        "frame": "unconditional",
        "ev": result.base,
        "eor": by_up(result.eor),
        "eor_percent": by_up(_percent(result.eor)),
        "plays": [play_data(play, play_strategy) for play in plays],
        "playing_efficiency_model": None if pe_model is None else dict(pe_model),
        "exact_index_depth": None if exact_indices is None else exact_indices.to_data(),
        "systems": [system_data(f, plays, i, None if exact_indices is None else exact_indices.by_system[n])
                    for n, (f, i) in enumerate(zip(figures, indices))],
    }


def count_json(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy,
               figures: Sequence[CountFigures], indices: Sequence[Sequence[Index]], exact: bool,
               pe_model: Mapping[str, Any] | None = None, exact_indices: ExactIndices | None = None) -> str:
    data = count_data(result, plays, play_strategy, figures, indices, pe_model, exact_indices)
    return dumps(document("count", data, result.rules, exact))


def matrix_json(result: EvMatrix, exact: bool, counter: Counter | None = None) -> str:
    """The round (EV, house edge, win/push/loss) and one object per (hand, up card)."""
    return dumps(document("matrix", result.to_data(), result.rules, exact, counter))


def insurance_json(table: InsuranceTable, rules: Rules, exact: bool) -> str:
    return dumps(document("insurance-index", table.to_data(), rules, exact))


def index_json(table: IndexTable | ShoeIndexTable | AllIndices, rules: Rules, exact: bool = False) -> str:
    """``bjcalc index``; with ``--all`` (an :class:`AllIndices`) also ``likely_share`` and ``cells``;
    with ``--penetration`` (a :class:`ShoeIndexTable`) the average over the shoe."""
    return dumps(document("index", table.to_data(), rules, exact))


def truecount_json(result: TrueCountResult, rules: Rules) -> str:
    return dumps(document("truecount", result.to_data(), rules, result.exact))


def simulate_json(result: SimulationResult, rules: Rules) -> str:
    return dumps(document("simulate", result.to_data(), rules, False))
