"""Turning results into text (tabulate) and JSON. Nothing here computes a probability.

Numbers: text shows 6 decimal places (and the exact fraction when asked). JSON follows
docs/json.md (schema: docs/bjcalc.schema.json): one object per command with ``schema``,
``command`` and the ``rules`` block; numbers are JSON numbers, and with ``--exact`` an
``"exact"`` object mirrors every exactly computed number as a string ``"p/q"``
(:func:`document`, from the results' ``to_data()``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from bjcalc.cards import RANK_NOTATION
from bjcalc.numbers import constant
from bjcalc.presets import Game
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
    from bjcalc.counting import CountFigures
    from bjcalc.eor import EffectsOfRemoval, PlayEffects
    from bjcalc.matrix import EvMatrix, MatrixCell
    from bjcalc.report import Report, RuleEffects
    from bjcalc.sidebets import SideBetResult

SCHEMA = "bjcalc/1"  # every JSON output's "schema"; docs/bjcalc.schema.json describes it


def fixed(value: Any, places: int = 6, sign: bool = False) -> str:
    """``value`` with ``places`` decimals (``sign``: ``+`` on positive values), never as a
    negative zero: what rounds to zero prints ``0.000000``, unsigned.

    >>> fixed(-0.5384331), fixed(-1e-9), fixed(0.1982394, sign=True), fixed(-1e-9, 4, sign=True)
    ('-0.538433', '0.000000', '+0.198239', '0.0000')
    """
    text = f"{float(value):{'+' if sign else ''}.{places}f}"
    return text[1:] if text[0] in "+-" and not text.strip("+-0.") else text


def number(value: Any, exact: bool) -> str:
    """A value as text: ``-0.538433``, or with its exact fraction in exact mode."""
    if exact:
        fraction = Fraction(int(value.p), int(value.q))
        return f"{fixed(fraction)}  ({fraction})" if fraction.denominator != 1 else str(fraction)
    return fixed(value)


# -- JSON: one document per command --------------------------------------------------------


def exact_text(value: Any) -> str:
    """An exact number as JSON text: ``"p/q"``, or ``"n"`` for a whole number.

    >>> import sympy
    >>> exact_text(sympy.Rational(-6, 4)), exact_text(sympy.Integer(3)), exact_text(Fraction(0))
    ('-3/2', '3', '0')
    """
    return str(value if isinstance(value, Fraction) else Fraction(int(value.p), int(value.q)))


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


def document(command: str, data: Mapping[str, Any], rules: Rules | None, exact: bool) -> dict[str, Any]:
    """One command's JSON object: ``schema``, ``command``, ``data`` with plain numbers, the
    ``rules`` block and, when ``exact``, the ``"exact"`` mirror of ``data``."""
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


def dealer_json(results: Sequence[DealerResult], rules: Rules, peeked: bool, exact: bool) -> str:
    """Up card (2..9, T, A) -> outcome -> probability; every up card has the same outcomes (0
    where it cannot reach one). A total below 17 is a hand stopped by the card limit: those
    are listed in ``card_limit_outcomes``."""
    columns, tables = _dealer_columns(results, exact)
    data = {
        "peeked": peeked,
        "frame": "conditioned" if peeked else "unconditional",
        "outcomes": columns,
        "card_limit_outcomes": [c for c in columns if _outcome_label(c) != c],
        "probabilities": {up: tables[up] for up in sorted(tables, key=UP_ORDER.index)},
    }
    return dumps(document("dealer", data, rules, exact))


def hand_json(result: HandResult, rules: Rules, exact: bool) -> str:
    """The hand: every action's EV (``null`` where not allowed), ``frames`` giving each
    number's frame (``"conditioned"`` on no dealer blackjack, or ``"unconditional"``)."""
    return dumps(document("hand", result.to_data(), rules, exact))


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
               variance: Variance | None = None) -> str:
    return dumps(document("chart", chart_data(chart, result, exceptions_, variance), chart.rules, exact))


def edge_json(result: RoundResult, rules: Rules, exact: bool, variance: Variance | None = None,
              costs: Sequence[Deviation] | None = None) -> str:
    """The round's figures; with a chart file, the cost of each of its ``deviations``."""
    data = round_data(result, variance)
    if costs is not None:
        data["deviations"] = [d.to_data() for d in costs]
    return dumps(document("edge", data, rules, exact))


def betbehind_json(result: BetBehindResult, rules: Rules, exact: bool, variance: Variance | None = None) -> str:
    return dumps(document("betbehind", betbehind_data(result, variance), rules, exact))


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
        })
    data = {"title": title, "strategy": effects.strategy.to_dict(), "frame": "unconditional",
            "house_edge": effects.house_edge, "house_edge_percent": 100 * effects.house_edge,
            "changes": changes}
    return dumps(document("effects", data, effects.rules, exact))


# -- text, Markdown, CSV and HTML ---------------------------------------------------------


SEEN_LISTED = 12  # more cards seen than this are counted, not listed


def shoe_words(rules: Rules, seen: Sequence[str] = ()) -> str:
    """The shoe in words: ``8 decks``, ``counts A..T 2,2,...``; with cards already seen and
    removed (``seen``, out of ``rules``' shoe already), the shoe they came from and what went:
    ``8 decks less A,T,5`` (more than a dozen cards: how many, and the counts left).

    >>> shoe_words(Rules(decks=1).without("A,T,5"), ("A", "T", "5"))
    '1 deck less A,T,5'
    """
    if not seen:
        return dict(rules.describe())["shoe"]
    counts = list(rules.shoe_counts)
    for card in seen:
        counts[RANK_NOTATION.index(card)] += 1
    decks = counts[0] // 4
    if decks and counts == [4 * decks] * 9 + [16 * decks]:
        before = f"{decks} deck{'s' if decks != 1 else ''}"
    else:
        before = "counts A..T " + ",".join(map(str, counts))
    if len(seen) <= SEEN_LISTED:
        return f"{before} less {','.join(seen)}"
    return f"{before} less {len(seen)} seen cards (counts A..T {','.join(map(str, rules.shoe_counts))} left)"


def rules_rows(rules: Rules, seen: Sequence[str] = ()) -> list[tuple[str, str]]:
    """The rules as (name, value) rows (:meth:`Rules.describe`); with cards seen and removed,
    the shoe row says what was removed from what, and the counts left."""
    rows = rules.describe()
    if not seen:
        return rows
    left = "" if len(seen) > SEEN_LISTED else f" (counts A..T {','.join(map(str, rules.shoe_counts))} left)"
    return [(name, shoe_words(rules, seen) + left if name == "shoe" else value) for name, value in rows]


def rules_line(rules: Rules, seen: Sequence[str] = ()) -> str:
    """A one-line summary: ``8 decks, S17, BJ pays 3:2, double any, DAS, split to 4 hands, late
    surrender, peek``; with cards seen and removed, ``8 decks less A,T,5, S17, ...``. After the
    shoe, each rule's words as its declaration (:data:`bjcalc.DECLARED_RULES`) gives them."""
    from bjcalc.ruleset import rules_words

    return ", ".join([shoe_words(rules, seen), *rules_words(rules)])


def hand_frame(result: HandResult) -> str:
    """Which probability space the hand's EVs live in, in words."""
    if result.conditioned:
        return "conditioned on no dealer blackjack (the dealer peeked)"
    if result.dealer_blackjack == 0:
        return "no dealer blackjack is possible"
    return "unconditional (dealer blackjack included)"


def _frame_word(result: HandResult) -> str:
    """The action EVs' frame in one word; with no dealer blackjack possible the frames agree."""
    return "conditioned" if result.conditioned else "unconditional"


def blackjack_note(result: HandResult, rules: Rules) -> str:
    """What happens to a player blackjack against this up card, under these rules."""
    pays = dict(rules.describe())["blackjack pays"]
    if result.conditioned:
        settled = f"The dealer has peeked and has no blackjack: a blackjack is paid {pays} at once"
    elif result.dealer_blackjack == 0:
        settled = f"The dealer cannot have blackjack here: a blackjack is paid {pays}"
    elif rules.peek:
        settled = f"Before the peek: a blackjack pushes if the dealer has blackjack, else is paid {pays}"
    else:
        settled = f"No hole card: a blackjack pushes if the dealer then makes blackjack, else is paid {pays}"
    return settled + "; hit/double show it played as a soft 21."


def hand_text(result: HandResult, rules: Rules, exact: bool, seen: Sequence[str] = ()) -> str:
    cards = result.notation
    frame = _frame_word(result)
    lines = [
        f"{cards} v {result.up}   {rules_line(rules, seen)}",
        f"EVs per initial bet, {hand_frame(result)}; CD play after the first decision.",
    ]
    rows = [[action.key, number(ev, exact)] for action, ev in result.ranked]
    lines.append(tabulate(rows, headers=["action", f"EV ({frame})"], tablefmt="simple", disable_numparse=True))
    lines.append(f"best: {result.best.key}")
    if result.is_blackjack:
        lines.append(blackjack_note(result, rules))
    if result.insurance is not None:
        lines.append(
            f"insurance: {number(result.insurance, exact)} per unit of insurance bet "
            "(unconditional, decided before the peek)"
        )
    if result.even_money is not None:
        unlike = "; not comparable with the conditioned EVs above" if frame == "conditioned" else ""
        lines.append(f"even money: {number(result.even_money, exact)} per initial bet "
                     f"(unconditional, decided before the peek{unlike})")
    return "\n".join(lines)


def _outcome_label(outcome: str) -> str:
    """A dealer outcome as a column name. A total below 17 is a hand stopped by the card limit.

    >>> _outcome_label("16"), _outcome_label("17"), _outcome_label("bust")
    ('16 (card limit)', '17', 'bust')
    """
    return f"{outcome} (card limit)" if outcome.isdigit() and int(outcome) < 17 else outcome


def _dealer_columns(results: Sequence[DealerResult], exact: bool) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """Every outcome any up card has, in order, and the tables with each of them (0 where an up
    card cannot reach it: only some up cards can stop below 17 at a card limit)."""
    tables = {str(r.up): {str(o): p for o, p in r.items()} for r in results}
    columns: list[str] = []
    for table in tables.values():
        columns += [outcome for outcome in table if outcome not in columns]
    columns.sort(key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else 0, c))
    zero = constant(0, exact)
    return columns, {up: {o: table.get(o, zero) for o in columns} for up, table in tables.items()}


def dealer_text(results: Sequence[DealerResult], rules: Rules, peeked: bool, exact: bool,
                seen: Sequence[str] = ()) -> str:
    columns, tables = _dealer_columns(results, exact)
    tables = {up: tables[up] for up in sorted(tables, key=UP_ORDER.index)}  # 2..9, T, A, as every output
    frame = (
        "after the peek (conditioned on no dealer blackjack)"
        if peeked
        else "before the peek (blackjack included)"
    )
    lines = [f"Dealer final-outcome probabilities, {frame}", rules_line(rules, seen)]
    if exact:
        for up, table in tables.items():
            lines.append("")
            lines.append(f"up {up}:")
            rows = [[_outcome_label(o), number(table[o], True)] for o in columns]
            lines.append(tabulate(rows, headers=["outcome", "probability"], disable_numparse=True))
    else:
        rows = [[up] + [number(table[c], False) for c in columns] for up, table in tables.items()]
        lines.append(tabulate(rows, headers=["up"] + [_outcome_label(c) for c in columns], disable_numparse=True))
    if any(_outcome_label(c) != c for c in columns):
        limit = f"{rules.dealer_max_cards}-card limit" if rules.dealer_max_cards else "card limit"
        lines += ["", (f"A total marked (card limit) is below 17: the dealer's hand stopped there at the "
                  f"{limit} (0 where an up card cannot get there).")]
    return "\n".join(lines)


GAMES_NOTE = (
    "The rule texts the presets were read from are not installed with bjcalc: each preset below\n"
    "names its text and lists its rules as bjcalc reads them, with what it assumed where the text\n"
    "is silent (docs/model.md in bjcalc's source says how every rule is modelled)."
)


def games_text(games: list[Game]) -> str:
    blocks = [GAMES_NOTE]
    for game in games:
        lines = [f"{game.name}: {game.title}", f"  rule text: {game.source}"]
        table = tabulate(game.rules.describe(), tablefmt="plain", disable_numparse=True)
        lines += ["  " + line for line in table.splitlines()]
        for note in game.assumed:
            lines.append(f"  assumed (text silent): {note}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


CHART_KINDS = (("hard", "Hard totals"), ("soft", "Soft totals"), ("pairs", "Pairs"))
CODE_COLOURS = {"H": "red", "S": "yellow", "D": "green", "P": "cyan", "R": "magenta"}
LEGEND = (
    "H hit, S stand, Dh double else hit, Ds double else stand, P split, "
    "Ph/Ps/Pd split if double after split is allowed else hit/stand/double, "
    "Rh/Rs/Rp surrender else hit/stand/split; X/H or X/S: X with two cards, "
    "hit or stand with three or more"
)


def _coloured(code: str, colour: bool) -> str:
    import click

    return click.style(code, fg=CODE_COLOURS[code[0]], bold=True) if colour else code


def chart_text(chart, result, exceptions_, exact: bool, colour: bool = False, seen: Sequence[str] = ()) -> str:
    """A printable chart: three tables, legend, the chart's exact round EV, CD exceptions."""
    columns = list(next(iter(chart.table("hard").values())).keys())
    lines = [f"Basic strategy (total-dependent)   {rules_line(chart.rules, seen)}", LEGEND, ""]
    for kind, title in CHART_KINDS:
        rows = [[row] + [_coloured(c, colour) for c in cells.values()] for row, cells in chart.table(kind).items()]
        lines.append(tabulate(rows, headers=[title] + columns, tablefmt="simple", disable_numparse=True))
        lines.append("")
    lines += edge_summary(result, exact)
    lines += exceptions_lines(exceptions_)
    return "\n".join(lines)


def edge_summary(result, exact: bool) -> list[str]:
    return [
        (f"player EV per round: {number(result.ev, exact)} (unconditional; house edge "
        f"{fixed(100 * float(result.house_edge), 4)} %), strategy: {result.strategy}"),
    ]


def exceptions_lines(exceptions_, markdown: bool = False) -> list[str]:
    if not exceptions_:
        return ["", "No two-card hand has a composition-dependent play that beats the chart."]
    rows = [
        [e.hand, str(e.up), e.chart.key, e.best.key, fixed(e.gain)] for e in exceptions_
    ]
    return [
        "",
        ("Composition-dependent exceptions (two-card hands whose best play differs from the chart; "
        "gain per occurrence, unconditional):"),
        tabulate(rows, headers=["hand", "up", "chart", "best", "gain"],
                 tablefmt="github" if markdown else "simple", disable_numparse=True),
    ]


def chart_markdown(chart, result, exceptions_, exact: bool, seen: Sequence[str] = ()) -> str:
    columns = list(next(iter(chart.table("hard").values())).keys())
    lines = [f"# Basic strategy: {rules_line(chart.rules, seen)}", "", LEGEND + ".", ""]
    for kind, title in CHART_KINDS:
        rows = [[row] + list(cells.values()) for row, cells in chart.table(kind).items()]
        lines.append(f"## {title}")
        lines.append("")
        lines.append(tabulate(rows, headers=[title.split()[0]] + columns, tablefmt="github", disable_numparse=True))
        lines.append("")
    lines += edge_summary(result, exact)
    lines += exceptions_lines(exceptions_, markdown=True)
    return "\n".join(lines) + "\n"


def chart_csv(chart) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = list(next(iter(chart.table("hard").values())).keys())
    writer.writerow(["table", "row"] + columns)
    for kind, _ in CHART_KINDS:
        for row, cells in chart.table(kind).items():
            writer.writerow([kind, row] + list(cells.values()))
    return out.getvalue()




def edge_text(result: RoundResult, rules: Rules, exact: bool, variance: Variance | None = None,
              seen: Sequence[str] = ()) -> str:
    lines = [f"House edge   {rules_line(rules, seen)}", f"strategy: {result.strategy}"]
    lines.append(f"player EV per round (unconditional): {number(result.ev, exact)}")
    lines.append(f"house edge: {fixed(100 * float(result.house_edge))} %")
    if variance is not None and variance.variance is not None:
        lines.append(f"standard deviation per round: {fixed(variance.sd)} "
                     f"(variance {number(variance.variance, exact)}, exact)")
    elif rules.infinite:
        lines.append("standard deviation: not computed for the infinite deck")
    else:
        lines.append("standard deviation: add --sd (exact, resplits included; a few seconds more)")
    if result.insurance is not None:
        lines.append(
            f"insurance off the top: {number(result.insurance, exact)} per unit of insurance bet (never taken above)"
        )
    probability = by_up(result.upcard_probability)
    rows = [[up, number(probability[up], exact), number(ev, exact)] for up, ev in by_up(result.by_upcard).items()]
    lines.append("")
    lines.append(tabulate(rows, headers=["up", "P(up)", "EV given up (unconditional)"], disable_numparse=True))
    return "\n".join(lines)


def deviations_text(costs) -> str:
    if not costs:
        return "The chart is the optimal basic-strategy chart: no deviations."
    rows = [[d.kind, d.row, d.up, d.code, d.optimal, fixed(d.cost, 8)] for d in costs]
    return "Deviations from the optimal chart, largest cost first (EV per round lost):\n" + tabulate(
        rows, headers=["table", "row", "up", "chart", "optimal", "cost"], disable_numparse=True
    )


def sidebets_text(results, cards: int, exact: bool) -> str:
    lines = [f"Side bets, exact, from a shoe of {cards} cards (probabilities sum to exactly 1)"]
    for result in results:
        rows = [
            [name, combos, fixed(p, 8), f"{payout}" if payout >= 0 else "-1"]
            for name, (combos, p, payout) in result.categories.items()
        ]
        ev = result.expected_return
        shown = fixed(ev) + (f"  ({ev})" if exact else "")
        lines += ["", (f"{result.name}: expected return {shown} per unit bet "
                  f"(house edge {fixed(-100 * float(ev), 4)} %)"),
                  tabulate(rows, headers=["category", "combinations", "probability", "pays"],
                           disable_numparse=True)]
    if any(not isinstance(c[0], int) for r in results for c in r.categories.values()):
        lines += ["", "combinations: expected counts, averaged over the suits of the seen cards given without one"]
    return "\n".join(lines)


def exceptions_dicts(exceptions_: Sequence[ChartException]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in exceptions_]


def report_figures(report: Report) -> list[tuple[str, str]]:
    """The report's headline figures as (label, value) text."""
    figures = [
        ("house edge, basic chart", f"{fixed(100 * report.basic.house_edge, 4)} %"),
        ("house edge, CD play (CDZ-)", f"{fixed(100 * report.cd.house_edge, 4)} %"),
    ]
    for label, variance in (("basic chart", report.basic_variance), ("CD play (CDZ-)", report.cd_variance)):
        if variance.sd is not None:
            figures.append((f"standard deviation per round, {label}", fixed(variance.sd, 4)))
    if report.cd.insurance is not None:
        figures.append(("insurance EV, off the top", fixed(report.cd.insurance)))
    for bet in report.side_bets:
        figures.append((f"house edge, {bet.name}", f"{fixed(-100 * float(bet.expected_return), 4)} %"))
    return figures


BET_BEHIND_SENTENCE = (
    "A Bet Behind rides on a seated player's hand and follows their decisions; it never insures, "
    "and when the bettor cannot afford a double they take one card at their single bet, when they "
    "cannot afford a split they follow the first (right-hand) hand."
)


def report_sections(report: Report) -> list[tuple[str, list[list[str]], list[str]]]:
    """The report's tables beyond the figures and the chart, as (heading, rows with the header
    first, notes): the EV by up card, the side bets' pay tables, Bet Behind by seated player."""
    by_up = [["up card", "P(up card)", "EV, basic chart", "EV, CD play"]]
    for up in sorted(report.cd.by_upcard, key=lambda u: UP_ORDER.index(str(u))):
        by_up.append([str(up), fixed(report.cd.upcard_probability[up]), fixed(report.basic.by_upcard[up]),
                      fixed(report.cd.by_upcard[up])])
    sections = [("EV by up card", by_up, ["unconditional, per initial bet, given the up card; "
                                          "the round's EV weights them by P(up card)"])]
    for bet in report.side_bets:
        rows = [["category", "pays", "probability"]]
        rows += [[name.replace("_", " "), "loses" if pays < 0 else f"{pays} to 1", fixed(probability, 8)]
                 for name, (_, probability, pays) in bet.categories.items()]
        sections.append((f"Side bet: {bet.name}", rows,
                         [f"house edge {fixed(-100 * float(bet.expected_return), 4)} % "
                          f"(exact, from the full shoe)"]))
    if not report.side_bets and report.side_bets_missing:
        sections.append(("Side bets", [], [report.side_bets_missing]))
    if report.bet_behind:
        rows = [["seated player", "follows all", "no doubles or splits"]]
        rows += [[str(result.seated), fixed(result.follows_everything),
                  fixed(result.cannot_afford)] for result in report.bet_behind]
        sections.append(("Bet Behind", rows, [
            BET_BEHIND_SENTENCE,
            "EV per unit bet behind, unconditional (the house edge is minus the EV); \"no doubles or "
            "splits\": the bettor cannot afford them (one card instead of a double, the first hand "
            "of a split)."]))
    return sections


def _section_lines(report: Report, markdown: bool) -> list[str]:
    lines: list[str] = []
    for heading, rows, notes in report_sections(report):
        lines += [f"## {heading}" if markdown else heading + ":", ""]
        if rows:
            lines += [tabulate(rows[1:], headers=rows[0], tablefmt="github" if markdown else "simple",
                               disable_numparse=True), ""]
        lines += [("- " if markdown else "") + note for note in notes] + [""]
    return lines


def report_text(report: Report, seen: Sequence[str] = ()) -> str:
    lines = [report.title, "=" * len(report.title), "", "Rules as understood:"]
    lines.append(tabulate(rules_rows(report.rules, seen), tablefmt="plain", disable_numparse=True))
    for note in report.assumed:
        lines.append(f"assumed (the game's text is silent): {note}")
    lines += ["", "Figures (unconditional, per round or per unit bet, reshuffle every round):",
              tabulate(report_figures(report), tablefmt="plain", disable_numparse=True), ""]
    lines.append(chart_text(report.chart, report.basic, report.exceptions, exact=report.exact, seen=seen))
    lines += ["", *_section_lines(report, markdown=False)]
    return "\n".join(lines).rstrip()


def report_markdown(report: Report, seen: Sequence[str] = ()) -> str:
    lines = [f"# {report.title}", "", "## Rules as understood", "",
             tabulate(rules_rows(report.rules, seen), headers=["rule", "value"], tablefmt="github",
                      disable_numparse=True), ""]
    for note in report.assumed:
        lines.append(f"- *Assumed (the game's text is silent):* {note}")
    lines += ["", "## Figures", "", "Unconditional, per round or per unit bet, reshuffle every round.", "",
              tabulate(report_figures(report), headers=["figure", "value"], tablefmt="github",
                       disable_numparse=True), ""]
    body = chart_markdown(report.chart, report.basic, report.exceptions, exact=report.exact, seen=seen)
    lines.append(body.replace("# Basic strategy", "## Basic strategy", 1))
    lines += ["", *_section_lines(report, markdown=True)]
    return "\n".join(lines).rstrip() + "\n"


def report_html(report: Report, seen: Sequence[str] = ()) -> str:
    from bjcalc import html

    return html.report_page(
        title=report.title,
        rules=rules_rows(report.rules, seen),
        assumed=list(report.assumed),
        figures=report_figures(report),
        chart=report.chart.to_dict(),
        exceptions=exceptions_dicts(report.exceptions),
        sections=report_sections(report),
    )


def chart_html(chart, result, exceptions_, seen: Sequence[str] = ()) -> str:
    from bjcalc import html

    return html.chart_page(
        chart.to_dict(),
        title=f"Basic strategy: {rules_line(chart.rules, seen)}",
        rules=rules_rows(chart.rules, seen),
        figures=[("player EV per round (unconditional)", fixed(result.ev)),
                 ("house edge", f"{fixed(100 * float(result.house_edge), 4)} %")],
        exceptions=exceptions_dicts(exceptions_),
    )


def _effects_rows(effects: Sequence[tuple[str, float, float]], exact: RuleEffects | None) -> tuple[list, list]:
    """The rows and headers of the effects table; with ``exact`` (exact results), the exact
    house edge of each change and its exact effect, in percent, as two more columns."""
    rows = [[words, f"{fixed(edge, 4)} %", fixed(delta, sign=True)] for words, edge, delta in effects]
    headers = ["change", "house edge", "effect"]
    if exact is not None:
        for row, change in zip(rows, exact.changes):
            row += [exact_text(100 * change.house_edge), exact_text(100 * (change.house_edge - exact.house_edge))]
        headers += ["house edge, exact (%)", "effect, exact (points)"]
    return rows, headers


def _exact_base(exact: RuleEffects | None) -> str:
    return "" if exact is None else f" (exactly {exact_text(100 * exact.house_edge)} %)"


def effects_text(title: str, rules: Rules, base: float, effects: Sequence[tuple[str, float, float]],
                 exact: RuleEffects | None = None) -> str:
    rows, headers = _effects_rows(effects, exact)
    return "\n".join([
        f"Rule-by-rule effects: {title}",
        (f"baseline: the game as it is ({rules_line(rules)}), house edge {fixed(base, 4)} %{_exact_base(exact)} "
        "(CD play, split hands CDZ-, unconditional, reshuffle every round)"),
        "each row changes one rule; effect in percentage points of house edge (+ = worse for the player)",
        "",
        tabulate(rows, headers=headers, disable_numparse=True),
    ])


def effects_markdown(title: str, rules: Rules, base: float, effects: Sequence[tuple[str, float, float]],
                     exact: RuleEffects | None = None) -> str:
    rows, headers = _effects_rows(effects, exact)
    return "\n".join([
        f"# Rule-by-rule effects: {title}",
        "",
        (f"Baseline: the game as it is ({rules_line(rules)}), house edge **{fixed(base, 4)} %**{_exact_base(exact)} "
        "(CD play, split hands CDZ-, unconditional, reshuffle every round). Each row changes one "
        "rule; the effect is in percentage points of house edge (+ = worse for the player)."),
        "",
        tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True),
        "",
    ])


def betbehind_text(result: BetBehindResult, rules: Rules, exact: bool, seen: Sequence[str] = ()) -> str:
    """A Bet Behind's two EVs, with the seated player's strategy and the frame."""
    return "\n".join([
        f"Bet Behind   {rules_line(rules, seen)}",
        f"seated player: {result.seated}; no insurance; EV per unit bet behind, unconditional",
        f"follows every double and split: {number(result.follows_everything, exact)}",
        f"cannot afford doubles and splits (one card instead of a double, the right-hand hand "
        f"of a split): {number(result.cannot_afford, exact)}",
    ])


# -- effects of removal and count systems ---------------------------------------------------

RANK_ORDER = UP_ORDER  # ranks in the columns of an EOR table: 2..9, T, A, as published tables


def _exact_or_fixed(value: Any, exact: bool, places: int = 6, sign: bool = False) -> str:
    """``-0.003557``, or in exact mode the exact fraction beside it (``Fraction`` or
    ``sympy.Rational``), a whole number alone."""
    shown = fixed(value, places, sign)
    if not exact or not is_rational(value):
        return shown
    text = exact_text(value)
    return text if "/" not in text else f"{shown}  ({text})"


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
    initial bet and in percent), ``weighted_sum`` (``sum n_r EOR_r``) and each play's EOR."""
    return {
        "strategy": result.strategy.to_dict(),
        "frame": "unconditional",
        "ev": result.base,
        "ev_after_removal": by_up(result.ev),
        "eor": by_up(result.eor),
        "eor_percent": by_up(_percent(result.eor)),
        "weighted_sum": result.weighted_sum(),
        "plays": [play_data(play, play_strategy) for play in plays],
    }


def eor_json(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy, exact: bool) -> str:
    return dumps(document("eor", eor_data(result, plays, play_strategy), result.rules, exact))


def _eor_rows(result: EffectsOfRemoval, plays: Sequence[PlayEffects]) -> list[tuple[str, str, Any, dict[str, Any]]]:
    """(row name, frame, EV or EV difference, rank -> EOR per unit) of the round and each play."""
    rows = [("round", "unconditional", result.base, by_up(result.eor))]
    for play in plays:
        name = f"{play.label} (per unit insured)" if play.first is None else play.label
        rows.append((name, "conditioned" if play.conditioned else "unconditional", play.difference, by_up(play.eor)))
    return rows


def _eor_cells(eor: Mapping[str, Any]) -> list[str]:
    return [fixed(100 * float(eor[rank]), 4, sign=True) if rank in eor else "-" for rank in RANK_ORDER]


def _weighted_sum_line(result: EffectsOfRemoval, fixed_chart: bool) -> str:
    """The check ``sum n_r EOR_r``: exactly 0 with a fixed chart (the burn-card theorem)."""
    total = result.weighted_sum()
    name = "check: sum over ranks of (cards of the rank) x EOR"
    if result.exact:
        why = ("exactly 0, as for any fixed chart: removing a random card changes nothing on average"
               if fixed_chart else "not 0: the play is re-derived for each shoe")
        return f"{name} = {exact_text(total)} ({why})"
    if fixed_chart:
        return f"{name} = {float(total):.3g} (0 up to float rounding: exactly 0 for a fixed chart; --exact shows it)"
    return f"{name} = {float(total):.6g} (not 0: the play is re-derived for each shoe)"


def _eor_head(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy) -> list[str]:
    lines = [f"strategy: {result.strategy}",
             f"EV per round before removal: {fixed(result.base)} (unconditional, per initial bet)",
             "EOR: the EV after removing one card of the rank minus the EV before, in % of the initial bet"]
    if any(p.first is not None for p in plays):
        lines.append(f"plays: the first play's EV minus the second's, per initial bet, in the frame shown "
                     f"(after the decision: {play_strategy})")
    if any(p.first is None for p in plays):
        lines.append("insurance: EV of insuring minus not, per unit of insurance bet (decided before the peek)")
    return lines


def eor_text(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy, exact: bool,
             fixed_chart: bool, seen: Sequence[str] = ()) -> str:
    """The EOR table: one row for the round, one per play, and the check ``sum n_r EOR_r``
    (``fixed_chart``: one chart plays every shoe, so the check is 0); exact values below it in
    exact mode."""
    rows = [[name, frame, fixed(value)] + _eor_cells(eor) for name, frame, value, eor in _eor_rows(result, plays)]
    lines = [f"Effects of removal   {rules_line(result.rules, seen)}", *_eor_head(result, plays, play_strategy), "",
             tabulate(rows, headers=["", "frame", "EV"] + list(RANK_ORDER), disable_numparse=True,
                      colalign=("left", "left") + ("right",) * 11),
             "", _weighted_sum_line(result, fixed_chart)]
    if exact:
        lines += ["", "exact values (per initial bet; insurance per unit insured):"]
        for name, _, value, eor in _eor_rows(result, plays):
            rows = [["EV" if name == "round" else "difference", exact_text(value)]]
            rows += [[f"EOR {rank}", exact_text(eor[rank])] for rank in RANK_ORDER if rank in eor]
            lines += ["", f"{name}:", tabulate(rows, tablefmt="plain", disable_numparse=True)]
    return "\n".join(lines)


def eor_markdown(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy, exact: bool,
                 fixed_chart: bool, seen: Sequence[str] = ()) -> str:
    rows = [[name, frame, _exact_or_fixed(value, exact)] + _eor_cells(eor)
            for name, frame, value, eor in _eor_rows(result, plays)]
    return "\n".join([
        f"# Effects of removal: {rules_line(result.rules, seen)}", "",
        *[f"- {line}" for line in _eor_head(result, plays, play_strategy)], "",
        tabulate(rows, headers=["", "frame", "EV"] + list(RANK_ORDER), tablefmt="github", disable_numparse=True),
        "", _weighted_sum_line(result, fixed_chart), "",
    ])


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _csv_number(value: Any, exact: bool) -> str:
    return exact_text(value) if exact and is_rational(value) else repr(float(value))


def eor_csv(result: EffectsOfRemoval, plays: Sequence[PlayEffects], exact: bool) -> str:
    """One line per row of the table: the bet its numbers are per (``bet``: the initial bet, or
    the insurance bet), its EV (the round) or EV difference (a play) per unit of that bet, and
    its EOR for each rank in % of that bet, each column's unit in its header (exact fractions
    with ``exact``; empty where the shoe holds none of the rank)."""
    rows: list[list[str]] = [["row", "frame", "bet", "ev_or_difference_per_bet"]
                             + [f"eor_{r}_percent_of_bet" for r in RANK_ORDER]]
    for (name, frame, value, eor), play in zip(_eor_rows(result, plays), [None, *plays]):
        unit = "insurance_bet" if play is not None and play.first is None else "initial_bet"
        cells = [_csv_number(100 * eor[rank], exact) if rank in eor else "" for rank in RANK_ORDER]
        rows.append([play.label if play is not None else name, frame, unit, _csv_number(value, exact)] + cells)
    return _csv(rows)


# count systems: one row per system; an index is (true count or None, whether the first play is
# better at or above it)
Index = tuple[Any, bool | None]


def _tag(value: Fraction) -> Any:
    """A tag as JSON holds it: a whole number as an int, else the fraction (a float in JSON)."""
    return value.numerator if value.denominator == 1 else value


def system_data(figures: CountFigures, plays: Sequence[PlayEffects], indices: Sequence[Index]) -> dict[str, Any]:
    """A count system's tags (rank -> tag, 2..9, T, A), BC, IC, the linear estimates of the
    advantage per true count and of each play's index."""
    data = figures.to_data()
    tags = figures.system.tags
    data["tags"] = {rank: _tag(tags[RANK_NOTATION.index(rank)]) for rank in RANK_ORDER}
    data["indices"] = [
        {"play": play.label, "index": index,
         "deviate": None if above is None else ("at_or_above" if above else "at_or_below")}
        for play, (index, above) in zip(plays, indices)
    ]
    return data


def count_data(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy,
               figures: Sequence[CountFigures], indices: Sequence[Sequence[Index]],
               pe_model: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The EORs the figures come from, the plays indexed, each system's figures and what its
    playing efficiency assumes (``None`` where it was not computed)."""
    return {
        "strategy": result.strategy.to_dict(),
        "frame": "unconditional",
        "ev": result.base,
        "eor": by_up(result.eor),
        "eor_percent": by_up(_percent(result.eor)),
        "plays": [play_data(play, play_strategy) for play in plays],
        "playing_efficiency_model": None if pe_model is None else dict(pe_model),
        "systems": [system_data(f, plays, i) for f, i in zip(figures, indices)],
    }


def count_json(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy,
               figures: Sequence[CountFigures], indices: Sequence[Sequence[Index]], exact: bool,
               pe_model: Mapping[str, Any] | None = None) -> str:
    data = count_data(result, plays, play_strategy, figures, indices, pe_model)
    return dumps(document("count", data, result.rules, exact))


def _correlation_text(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _tag_text(value: Fraction) -> str:
    text = str(value.numerator if value.denominator == 1 else value)
    return f"+{text}" if value > 0 else text


def _index_text(index: Index, exact: bool) -> str:
    value, above = index
    if value is None:
        return "-"
    shown = f"{'>=' if above else '<='} {fixed(value, 1, sign=True)}"
    return f"{shown} ({exact_text(value)})" if exact and "/" in exact_text(value) else shown


COUNT_NOTES = (
    "BC, IC: correlations of the tags with the round's and with insurance's EORs, each rank weighted by "
    "its share of the shoe (Griffin)",
    "advantage per true count and indices: linear estimates (Griffin's linear model), not exact EVs at "
    "those counts; true count = running count per deck remaining",
)


def _pe_note(pe_model: Mapping[str, Any] | None) -> list[str]:
    """The line that says what the PE column assumes, where there is one."""
    if pe_model is None:
        return []
    return [f"PE (playing efficiency): {pe_model['description']}; {pe_model['variations']} variations "
            "(docs/counting.md)"]


def _count_tables(result: EffectsOfRemoval, plays: Sequence[PlayEffects], figures: Sequence[CountFigures],
                  indices: Sequence[Sequence[Index]], exact: bool, tablefmt: str) -> list[str]:
    with_pe = any(f.playing_efficiency is not None for f in figures)
    rows = []
    for f in figures:
        tags = f.system.tags
        rows.append([f.system.name] + [_tag_text(tags[RANK_NOTATION.index(r)]) for r in RANK_ORDER]
                    + ["yes" if f.system.balanced else "no", _correlation_text(f.betting_correlation),
                       _correlation_text(f.insurance_correlation)]
                    + ([f"{f.playing_efficiency:.2f}" if f.playing_efficiency is not None else "-"] if with_pe else [])
                    + [f"{fixed(f.per_true_count, 3, sign=True)} %" + (
                        f" ({exact_text(f.per_true_count_exact)} %)"
                        if exact and f.per_true_count_exact is not None else "")])
    headers = (["system"] + list(RANK_ORDER) + ["balanced", "BC", "IC"] + ["PE"] * with_pe
               + ["advantage per true count (linear estimate)"])
    lines = [tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True)]
    if any(f.insurance_correlation is None for f in figures):
        lines += ["", "IC -: the shoe holds no ace, so there is no insurance to correlate with"]
    if any(f.betting_correlation is None for f in figures):
        lines += ["", "BC -: undefined, the EORs do not vary over the cards left"]
    if not all(f.system.balanced for f in figures):
        lines += ["", ("unbalanced counts: per unit of running count above its expected value, per deck "
                       "remaining (the tags less their average)")]
    if plays:
        rows = [[f.system.name] + [_index_text(i, exact) for i in row] for f, row in zip(figures, indices)]
        lines += ["", ("indices (linear estimate; true count per deck remaining): the first play is the better "
                       "at or above (>=) or at or below (<=) it; - where the count does not move the play"), "",
                  tabulate(rows, headers=["system"] + [p.label for p in plays], tablefmt=tablefmt,
                           disable_numparse=True)]
    return lines


def count_text(result: EffectsOfRemoval, plays: Sequence[PlayEffects], figures: Sequence[CountFigures],
               indices: Sequence[Sequence[Index]], exact: bool, seen: Sequence[str] = (),
               pe_model: Mapping[str, Any] | None = None) -> str:
    """Each system's tags (2..T, A), balance, BC, IC, PE (with ``pe_model``), advantage per
    true count and indices."""
    return "\n".join([
        f"Count systems   {rules_line(result.rules, seen)}",
        f"EORs of the round (unconditional), strategy: {result.strategy}",
        *COUNT_NOTES, *_pe_note(pe_model), "",
        *_count_tables(result, plays, figures, indices, exact, "simple"),
    ])


def count_markdown(result: EffectsOfRemoval, plays: Sequence[PlayEffects], figures: Sequence[CountFigures],
                   indices: Sequence[Sequence[Index]], exact: bool, seen: Sequence[str] = (),
                   pe_model: Mapping[str, Any] | None = None) -> str:
    return "\n".join([
        f"# Count systems: {rules_line(result.rules, seen)}", "",
        f"- EORs of the round (unconditional), strategy: {result.strategy}",
        *[f"- {note}" for note in [*COUNT_NOTES, *_pe_note(pe_model)]], "",
        *_count_tables(result, plays, figures, indices, exact, "github"), "",
    ])


def _csv_optional(value: float | None) -> str:
    return "" if value is None else repr(value)


def _tag_csv(value: Fraction) -> str:
    """A tag in a CSV cell: ``1``, ``0.5`` (a spreadsheet reads ``1/2`` as a date)."""
    return str(value.numerator) if value.denominator == 1 else repr(float(value))


def count_csv(plays: Sequence[PlayEffects], figures: Sequence[CountFigures], indices: Sequence[Sequence[Index]],
              exact: bool) -> str:
    """One line per system: tags (2..T, A), balanced, BC, IC, the advantage per true count in %,
    the playing efficiency (empty where not computed) and, per play, its index and which side
    of it the first play is the better."""
    header = ["system"] + [f"tag_{r}" for r in RANK_ORDER] + [
        "balanced", "betting_correlation", "insurance_correlation", "advantage_per_true_count_percent",
        "playing_efficiency"]
    for play in plays:
        header += [f"index: {play.label}", f"deviate: {play.label}"]
    rows: list[list[str]] = [header]
    for f, row in zip(figures, indices):
        tags = f.system.tags
        line = [f.system.name] + [_tag_csv(tags[RANK_NOTATION.index(r)]) for r in RANK_ORDER]
        line += ["yes" if f.system.balanced else "no", _csv_optional(f.betting_correlation),
                 _csv_optional(f.insurance_correlation),
                 _csv_number(f.per_true_count_exact if exact and f.per_true_count_exact is not None
                             else f.per_true_count, exact),
                 _csv_optional(f.playing_efficiency)]
        for value, above in row:
            line += ["", ""] if value is None else [
                _csv_number(value, exact), "at_or_above" if above else "at_or_below"]
        rows.append(line)
    return _csv(rows)


# -- the whole EV matrix ------------------------------------------------------------------------

MATRIX_ACTIONS = ("stand", "hit", "double", "split", "surrender")


def matrix_json(result: EvMatrix, exact: bool) -> str:
    """The round (EV, house edge, win/push/loss) and one object per (hand, up card)."""
    return dumps(document("matrix", result.to_data(), result.rules, exact))


def _matrix_round_lines(result: EvMatrix, exact: bool) -> list[str]:
    chances, ev = result.chances, result.round.ev
    return [
        f"strategy: {result.strategy}",
        (f"round: EV {_exact_or_fixed(ev, exact)} per initial bet (unconditional; house edge "
         f"{fixed(-100 * float(ev), 4)} %)"),
        (f"round: win {fixed(chances.win)}, push {fixed(chances.push)}, loss {fixed(chances.loss)}, "
         f"a resplit (not broken down) {fixed(result.split)} (unconditional)"),
    ]


MATRIX_NOTES = (
    "each table: P = P(this up card and this hand), unconditional; EVs per initial bet, in the frame stated, "
    "CD play after the first decision; * marks the best play; - where the rules do not allow the play",
    "win/push/loss: the chance that the best play's result is > 0, = 0, < 0 (a split: both hands' total), exact, "
    "in the table's frame; not computed (-) where the best play is a split that could resplit",
)


def _matrix_tables(result: EvMatrix, tablefmt: str, heading: str) -> list[str]:
    lines: list[str] = []
    for up in result.ups:
        cells = [c for c in result.cells if c.up is up]
        frames = sorted({c.frame for c in cells})
        frame = (" / ".join(frames) if len(frames) > 1 else
                 "conditioned on no dealer blackjack" if frames == ["conditioned"] else "unconditional")
        p_up = sum(float(c.probability) for c in cells)
        lines += ["", f"{heading}up card {up}: P(up) {fixed(p_up)}, EVs {frame}", ""]
        rows = [_matrix_row(c) for c in cells]
        lines.append(tabulate(rows, headers=["hand", "P", *MATRIX_ACTIONS, "best", "win", "push", "loss"],
                              tablefmt=tablefmt, disable_numparse=True,
                              colalign=("left",) + ("right",) * 6 + ("left",) + ("right",) * 3))
    return lines


def _matrix_row(cell: MatrixCell) -> list[str]:
    evs = cell.to_data()
    row = [cell.label, fixed(cell.probability)]
    for action in MATRIX_ACTIONS:
        value = evs[action]
        row.append("-" if value is None else fixed(value) + ("*" if action == cell.best.key else " "))
    row.append(cell.best.key)
    chances = cell.chances
    row += ["-"] * 3 if chances is None else [fixed(chances.win), fixed(chances.push), fixed(chances.loss)]
    return row


def matrix_text(result: EvMatrix, exact: bool, seen: Sequence[str] = ()) -> str:
    """One table per up card (2..9, T, A): rows the two-card hands, columns every action's EV
    (the best marked), the best play's win/push/loss; the round above them."""
    exact_note = ["exact fractions of every cell: --format csv or json with --exact"] if exact else []
    return "\n".join([f"EV matrix   {rules_line(result.rules, seen)}", *_matrix_round_lines(result, exact),
                      *MATRIX_NOTES, *exact_note, *_matrix_tables(result, "simple", "")])


def matrix_markdown(result: EvMatrix, exact: bool, seen: Sequence[str] = ()) -> str:
    exact_note = ["exact fractions of every cell: --format csv or json with --exact"] if exact else []
    head = [f"- {line}" for line in (*_matrix_round_lines(result, exact), *MATRIX_NOTES, *exact_note)]
    return "\n".join([f"# EV matrix: {rules_line(result.rules, seen)}", "", *head,
                      *_matrix_tables(result, "github", "## "), ""])


def matrix_csv(result: EvMatrix, exact: bool) -> str:
    """One line per (hand, up card): P(up card and hand), every action's EV (empty where not
    allowed) in ``frame``, the best play and its EV unconditional, P(dealer blackjack), and the
    best play's win/push/loss (empty for a split); exact fractions with ``exact``."""
    header = ["hand", "same_face", "up", "probability", *MATRIX_ACTIONS, "best", "frame", "best_unconditional",
              "dealer_blackjack", "win", "push", "loss"]
    rows: list[list[str]] = [header]
    for cell in result.cells:
        data = cell.to_data()
        line = []
        for key in header:
            value = data[key]
            if key == "same_face":
                line.append("yes" if value else "no")
            elif value is None or isinstance(value, str):
                line.append(value or "")
            else:
                line.append(_csv_number(value, exact))
        rows.append(line)
    return _csv(rows)
