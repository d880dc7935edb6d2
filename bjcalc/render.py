"""Turning results into text (tabulate) and JSON. Nothing here computes a probability.

Numbers: text shows 6 decimal places (and the exact fraction when asked); JSON carries floats,
or strings ``"p/q"`` in exact mode, since JSON has no exact rationals.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from bjcalc.actions import Action
from bjcalc.numbers import constant
from bjcalc.presets import Game
from bjcalc.results import DealerResult, HandResult
from bjcalc.rules import Rules

if TYPE_CHECKING:  # the renderer formats results; it needs the engine only for their types
    from bjcalc.results import BetBehindResult as BetBehind


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


def json_number(value: Any, exact: bool) -> float | str:
    if exact:
        fraction = Fraction(int(value.p), int(value.q))
        return str(fraction)
    return float(value)


def rules_dict(rules: Rules) -> dict[str, Any]:
    """The rules as plain JSON values (:meth:`Rules.to_dict`)."""
    return rules.to_dict()


def rules_line(rules: Rules) -> str:
    """A one-line summary: ``8 decks, S17, BJ pays 3:2, double any, DAS, split to 4 hands, late
    surrender, peek``."""
    rows = dict(rules.describe())
    parts = [
        rows["shoe"],
        "H17" if rules.hit_soft_17 else "S17",
        f"BJ pays {rows['blackjack pays']}",
        f"double {rows['double on']}",
        "DAS" if rules.double_after_split else "no DAS",
        f"split to {rules.split_hands} hands" if rules.split_hands > 1 else "no splitting",
    ]
    if rules.split_hands > 1:
        parts += [name for name, on in (("RSA", rules.resplit_aces), ("HSA", rules.hit_split_aces),
                                         ("same-face tens only", not rules.split_unlike_tens)) if on]
    if rules.surrender.value != "none":
        parts.append(f"{rules.surrender.value} surrender")
    parts.append("peek" if rules.peek else f"no hole card (BJ takes {rules.blackjack_takes.name})")
    if rules.charlie:
        parts.append(f"{rules.charlie}-card charlie")
    if rules.player_max_cards or rules.dealer_max_cards:
        parts.append(rows["card limit"].replace("player", "max cards: player"))
    return ", ".join(parts)


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


def hand_text(result: HandResult, rules: Rules, exact: bool) -> str:
    cards = result.notation
    frame = _frame_word(result)
    lines = [
        f"{cards} v {result.up}   {rules_line(rules)}",
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


def hand_json(result: HandResult, rules: Rules, exact: bool) -> str:
    """The hand as JSON; ``frames`` gives each number's frame (``"conditioned"`` on no dealer
    blackjack, or ``"unconditional"``)."""
    out: dict[str, Any] = {
        "hand": result.notation,
        "up": str(result.up),
    }
    frames: dict[str, str] = {}
    for action in Action:
        if action is not Action.SPLIT or action in result.evs:
            value = result.evs.get(action)
            out[action.key] = None if value is None else json_number(value, exact)
            if value is not None:
                frames[action.key] = _frame_word(result)
    out["insurance"] = None if result.insurance is None else json_number(result.insurance, exact)
    if result.insurance is not None:
        frames["insurance"] = "unconditional"
    if result.even_money is not None:
        out["even_money"] = json_number(result.even_money, exact)
        frames["even_money"] = "unconditional"
    out["best"] = result.best.key
    out["conditioned"] = result.conditioned
    out["frames"] = frames
    out["strategy"] = result.strategy.label
    out["rules"] = rules_dict(rules)
    return json.dumps(out, indent=2)


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


def dealer_text(results: Sequence[DealerResult], rules: Rules, peeked: bool, exact: bool) -> str:
    columns, tables = _dealer_columns(results, exact)
    frame = (
        "after the peek (conditioned on no dealer blackjack)"
        if peeked
        else "before the peek (blackjack included)"
    )
    lines = [f"Dealer final-outcome probabilities, {frame}", rules_line(rules)]
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


def dealer_json(results: Sequence[DealerResult], exact: bool) -> str:
    """Up card -> outcome -> probability; every up card has the same outcomes (0 where it cannot
    reach one), and a total below 17, reached only by stopping at the card limit, is labelled
    ``"16 (card limit)"``."""
    columns, tables = _dealer_columns(results, exact)
    return json.dumps(
        {up: {_outcome_label(o): json_number(table[o], exact) for o in columns} for up, table in tables.items()},
        indent=2,
    )


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


def games_json(games: list[Game]) -> str:
    return json.dumps(
        [
            {
                "name": g.name,
                "title": g.title,
                "source": g.source,
                "rules": rules_dict(g.rules),
                "assumed": list(g.assumed),
            }
            for g in games
        ],
        indent=2,
    )


CHART_KINDS = (("hard", "Hard totals"), ("soft", "Soft totals"), ("pairs", "Pairs"))
CODE_COLOURS = {"H": "red", "S": "yellow", "D": "green", "P": "cyan", "R": "magenta"}
LEGEND = (
    "H hit, S stand, Dh double else hit, Ds double else stand, P split, "
    "Ph/Ps/Pd split if double after split is allowed else hit/stand/double, "
    "Rh/Rs/Rp surrender else hit/stand/split"
)


def _coloured(code: str, colour: bool) -> str:
    import click

    return click.style(code, fg=CODE_COLOURS[code[0]], bold=True) if colour else code


def chart_text(chart, result, exceptions_, exact: bool, colour: bool = False) -> str:
    """A printable chart: three tables, legend, the chart's exact round EV, CD exceptions."""
    columns = list(next(iter(chart.table("hard").values())).keys())
    lines = [f"Basic strategy (total-dependent)   {rules_line(chart.rules)}", LEGEND, ""]
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


def chart_markdown(chart, result, exceptions_, exact: bool) -> str:
    columns = list(next(iter(chart.table("hard").values())).keys())
    lines = [f"# Basic strategy: {rules_line(chart.rules)}", "", LEGEND + ".", ""]
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


def chart_json(chart, result, exceptions_, exact: bool) -> str:
    data = chart.to_dict()
    data["ev"] = json_number(result.ev, exact)
    data["house_edge"] = json_number(result.house_edge, exact)
    data["exceptions"] = [
        {"hand": e.hand, "up": str(e.up), "chart": e.chart.key, "best": e.best.key, "gain": e.gain}
        for e in exceptions_
    ]
    return json.dumps(data, indent=2)


_NO_VARIANCE = ("standard deviation: not computed when resplitting is allowed (exact with one split: "
                "--split-hands 2)")


def edge_text(result, rules, exact: bool, variance=None) -> str:
    import math

    lines = [f"House edge   {rules_line(rules)}", f"strategy: {result.strategy}"]
    lines.append(f"player EV per round (unconditional): {number(result.ev, exact)}")
    lines.append(f"house edge: {fixed(100 * float(result.house_edge))} %")
    if variance is not None:
        lines.append(f"standard deviation per round: {fixed(math.sqrt(float(variance)))} "
                     f"(variance {number(variance, exact)}, exact)")
    elif rules.split_hands > 2:
        lines.append(_NO_VARIANCE)
    if result.insurance is not None:
        lines.append(
            f"insurance off the top: {number(result.insurance, exact)} per unit of insurance bet (never taken above)"
        )
    rows = [
        [up, number(result.upcard_probability[up], exact), number(ev, exact)]
        for up, ev in sorted(result.by_upcard.items(), key=lambda kv: "23456789TA".index(kv[0]))
    ]
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


def edge_json(result, rules, exact: bool, costs=None, variance=None) -> str:
    import math

    extra: dict[str, Any] = {} if costs is None else {"deviations": [dataclasses.asdict(d) for d in costs]}
    extra["variance"] = None if variance is None else json_number(variance, exact)
    extra["sd"] = None if variance is None else math.sqrt(float(variance))
    return json.dumps(
        {
            **extra,
            "ev": json_number(result.ev, exact),
            "house_edge": json_number(result.house_edge, exact),
            "by_upcard": {u: json_number(v, exact) for u, v in result.by_upcard.items()},
            "upcard_probability": {u: json_number(v, exact) for u, v in result.upcard_probability.items()},
            "insurance": None if result.insurance is None else json_number(result.insurance, exact),
            "strategy": result.strategy.label,
            "rules": rules_dict(rules),
        },
        indent=2,
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
    return "\n".join(lines)


def sidebets_json(results, exact: bool) -> str:
    def num(value):
        return str(value) if exact else float(value)

    return json.dumps(
        {
            r.name: {
                "expected_return": num(r.expected_return),
                "house_edge": num(-r.expected_return),
                "total_combinations": r.total_combinations,
                "categories": {
                    name: {"combinations": c, "probability": num(p), "pays": num(pay)}
                    for name, (c, p, pay) in r.categories.items()
                },
            }
            for r in results
        },
        indent=2,
    )


def exceptions_dicts(exceptions_) -> list[dict]:
    return [
        {"hand": e.hand, "up": str(e.up), "chart": e.chart.key, "best": e.best.key, "gain": e.gain}
        for e in exceptions_
    ]


def report_text(report) -> str:
    lines = [report.title, "=" * len(report.title), "", "Rules as understood:"]
    lines.append(tabulate(report.rules.describe(), tablefmt="plain", disable_numparse=True))
    for note in report.assumed:
        lines.append(f"assumed (the game's text is silent): {note}")
    lines += ["", "Figures (unconditional, per round or per unit bet, reshuffle every round):",
              tabulate(report.figures, tablefmt="plain", disable_numparse=True), ""]
    basic = _RoundLike(report.data["house_edge_basic"], report.chart.strategy)
    lines.append(chart_text(report.chart, basic, report.exceptions, exact=False))
    return "\n".join(lines)


@dataclasses.dataclass(frozen=True)
class _RoundLike:
    house_edge: float
    name: str

    @property
    def ev(self) -> float:
        return -self.house_edge

    @property
    def strategy(self) -> str:
        return f"{self.name} (chart; split hands by the chart)"


def report_markdown(report) -> str:
    lines = [f"# {report.title}", "", "## Rules as understood", "",
             tabulate(report.rules.describe(), headers=["rule", "value"], tablefmt="github", disable_numparse=True), ""]
    for note in report.assumed:
        lines.append(f"- *Assumed (the game's text is silent):* {note}")
    lines += ["", "## Figures", "", "Unconditional, per round or per unit bet, reshuffle every round.", "",
              tabulate(report.figures, headers=["figure", "value"], tablefmt="github", disable_numparse=True), ""]
    basic = _RoundLike(report.data["house_edge_basic"], report.chart.strategy)
    body = chart_markdown(report.chart, basic, report.exceptions, exact=False)
    lines.append(body.replace("# Basic strategy", "## Basic strategy", 1))
    return "\n".join(lines)


def report_json(report) -> str:
    data = {
        "title": report.title,
        "rules": rules_dict(report.rules),
        "assumed": list(report.assumed),
        "figures": dict(report.figures),
        **report.data,
        "chart": report.chart.to_dict(),
        "exceptions": exceptions_dicts(report.exceptions),
    }
    return json.dumps(data, indent=2)


def report_html(report) -> str:
    from bjcalc import html

    return html.report_page(
        title=report.title,
        rules=report.rules.describe(),
        assumed=list(report.assumed),
        figures=report.figures,
        chart=report.chart.to_dict(),
        exceptions=exceptions_dicts(report.exceptions),
    )


def chart_html(chart, result, exceptions_) -> str:
    from bjcalc import html

    return html.chart_page(
        chart.to_dict(),
        title=f"Basic strategy: {rules_line(chart.rules)}",
        rules=chart.rules.describe(),
        figures=[("player EV per round (unconditional)", fixed(result.ev)),
                 ("house edge", f"{fixed(100 * float(result.house_edge), 4)} %")],
        exceptions=exceptions_dicts(exceptions_),
    )


def effects_text(title: str, rules, base: float, effects) -> str:
    rows = [[words, f"{fixed(edge, 4)} %", fixed(delta, sign=True)] for words, edge, delta in effects]
    return "\n".join([
        f"Rule-by-rule effects: {title}",
        (f"baseline: the game as it is ({rules_line(rules)}), house edge {fixed(base, 4)} % "
        "(CD play, split hands CDZ-, unconditional, reshuffle every round)"),
        "each row changes one rule; effect in percentage points of house edge (+ = worse for the player)",
        "",
        tabulate(rows, headers=["change", "house edge", "effect"], disable_numparse=True),
    ])


def effects_markdown(title: str, rules, base: float, effects) -> str:
    rows = [[words, f"{fixed(edge, 4)} %", fixed(delta, sign=True)] for words, edge, delta in effects]
    return "\n".join([
        f"# Rule-by-rule effects: {title}",
        "",
        (f"Baseline: the game as it is ({rules_line(rules)}), house edge **{fixed(base, 4)} %** "
        "(CD play, split hands CDZ-, unconditional, reshuffle every round). Each row changes one "
        "rule; the effect is in percentage points of house edge (+ = worse for the player)."),
        "",
        tabulate(rows, headers=["change", "house edge", "effect"], tablefmt="github", disable_numparse=True),
        "",
    ])


def betbehind_text(result: BetBehind, rules: Rules, exact: bool) -> str:
    """A Bet Behind's two EVs, with the seated player's strategy and the frame."""
    return "\n".join([
        f"Bet Behind   {rules_line(rules)}",
        f"seated player: {result.seated}; no insurance; EV per unit bet behind, unconditional",
        f"follows every double and split: {number(result.follows_everything, exact)}",
        f"cannot afford doubles and splits (one card instead of a double, the right-hand hand "
        f"of a split): {number(result.cannot_afford, exact)}",
    ])


def betbehind_json(result: BetBehind, rules: Rules, exact: bool) -> str:
    return json.dumps({
        "seated": result.seated.label,
        "follows_everything": json_number(result.follows_everything, exact),
        "cannot_afford": json_number(result.cannot_afford, exact),
        "rules": rules.to_dict(),
    }, indent=2)
