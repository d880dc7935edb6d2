"""Plain text (tabulate's ``simple`` and ``plain`` tables), what the commands print by
default. Nothing here computes a probability.

Numbers show 6 decimal places (and the exact fraction when asked). The tables and lines that
the Markdown pages print too take a ``tablefmt`` (or a ``markdown`` flag) and live here:
:mod:`bjcalc.render.markdown` calls them with GitHub tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bjcalc.cards import RANK_NOTATION
from bjcalc.games.presets import Game
from bjcalc.render.common import (
    ALL_INDEX_TABLES,
    CHART_KINDS,
    DEPTH_HEADERS,
    INDEX_HEADERS,
    MATRIX_ACTIONS,
    PENETRATION_HEADERS,
    RANK_ORDER,
    SHOWN_FREQUENCY,
    SIMULATE_HEADERS,
    TRUECOUNT_HEADERS,
    Index,
    all_index_grid,
    all_index_legend,
    dealer_columns,
    eor_rows,
    exact_or_fixed,
    exact_text,
    fixed,
    index_heading,
    index_rows,
    number,
    outcome_label,
    penetration_rows,
    report_figures,
    report_sections,
    rules_line,
    rules_rows,
    run_out_line,
    shoe_words,
    simulate_depth_rows,
    simulate_footer,
    simulate_heading,
    simulate_rows,
    simulate_win_rows,
    truecount_footer,
    truecount_heading,
    truecount_rows,
    win_rows,
)
from bjcalc.render.texttable import tabulate
from bjcalc.results import (
    UP_ORDER,
    BetBehindResult,
    DealerResult,
    HandResult,
    RoundResult,
    RunOut,
    Strategy,
    Variance,
    by_up,
)
from bjcalc.rules import Rules

if TYPE_CHECKING:
    from bjcalc.counting.eor import EffectsOfRemoval
    from bjcalc.counting.indexgrid import AllIndices
    from bjcalc.counting.indices import IndexTable
    from bjcalc.counting.insurance import InsuranceTable
    from bjcalc.counting.measures import CountFigures, ExactIndex, ExactIndices
    from bjcalc.counting.plays import PlayEffects
    from bjcalc.counting.shoeindex import ShoeIndexTable
    from bjcalc.counting.simulate import SimulationResult
    from bjcalc.counting.truecount import TrueCountResult  # types only: importing it would load the engine
    from bjcalc.matrix import EvMatrix, MatrixCell
    from bjcalc.report import Report, RuleEffects


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
    if result.run_out is not None:
        lines += [f"{action.key}: " + run_out_line(r, exact, "the deal")
                  for action, r in result.run_out.items() if r.most != 0]
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


def dealer_text(results: Sequence[DealerResult], rules: Rules, peeked: bool, exact: bool,
                seen: Sequence[str] = ()) -> str:
    columns, tables = dealer_columns(results, exact)
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
            rows = [[outcome_label(o), number(table[o], True)] for o in columns]
            lines.append(tabulate(rows, headers=["outcome", "probability"], disable_numparse=True))
    else:
        rows = [[up] + [number(table[c], False) for c in columns] for up, table in tables.items()]
        lines.append(tabulate(rows, headers=["up"] + [outcome_label(c) for c in columns], disable_numparse=True))
    if any(outcome_label(c) != c for c in columns):
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
    ] + ([] if result.run_out is None else [run_out_line(result.run_out, exact)])


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


def edge_text(result: RoundResult, rules: Rules, exact: bool, variance: Variance | None = None,
              seen: Sequence[str] = ()) -> str:
    lines = [f"House edge   {rules_line(rules, seen)}", f"strategy: {result.strategy}"]
    lines.append(f"player EV per round (unconditional): {number(result.ev, exact)}")
    lines.append(f"house edge: {fixed(100 * float(result.house_edge))} %")
    if result.run_out is not None:
        lines.append(run_out_line(result.run_out, exact))
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


def section_lines(report: Report, markdown: bool) -> list[str]:
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
    lines += ["", *section_lines(report, markdown=False)]
    return "\n".join(lines).rstrip()


def effects_rows(effects: Sequence[tuple[str, float, float]], exact: RuleEffects | None) -> tuple[list, list]:
    """The rows and headers of the effects table; with ``exact`` (exact results), the exact
    house edge of each change and its exact effect, in percent, as two more columns."""
    rows = [[words, f"{fixed(edge, 4)} %", fixed(delta, sign=True)] for words, edge, delta in effects]
    headers = ["change", "house edge", "effect"]
    if exact is not None:
        for row, change in zip(rows, exact.changes):
            row += [exact_text(100 * change.house_edge), exact_text(100 * (change.house_edge - exact.house_edge))]
        headers += ["house edge, exact (%)", "effect, exact (points)"]
    return rows, headers


def exact_base(exact: RuleEffects | None) -> str:
    return "" if exact is None else f" (exactly {exact_text(100 * exact.house_edge)} %)"


def effects_run_out(run_out: RunOut | None) -> list[str]:
    if run_out is None:
        return []
    return [run_out_line(run_out, False, "the game's round") + "; the changed games' chances: --format json"]


def effects_text(title: str, rules: Rules, base: float, effects: Sequence[tuple[str, float, float]],
                 exact: RuleEffects | None = None, run_out: RunOut | None = None) -> str:
    """``run_out``: the game's own, on a shoe dealt to its last cards (its changes' are in JSON)."""
    rows, headers = effects_rows(effects, exact)
    return "\n".join([
        f"Rule-by-rule effects: {title}",
        (f"baseline: the game as it is ({rules_line(rules)}), house edge {fixed(base, 4)} %{exact_base(exact)} "
        "(CD play, split hands CDZ-, unconditional, reshuffle every round)"),
        *effects_run_out(run_out),
        "each row changes one rule; effect in percentage points of house edge (+ = worse for the player)",
        "",
        tabulate(rows, headers=headers, disable_numparse=True),
    ])


def betbehind_text(result: BetBehindResult, rules: Rules, exact: bool, seen: Sequence[str] = (),
                   variance: Variance | None = None) -> str:
    """A Bet Behind's two EVs, with the seated player's strategy and the frame; with
    ``variance`` (the seated player's round), the SD of the bet that follows everything."""
    lines = [
        f"Bet Behind   {rules_line(rules, seen)}",
        f"seated player: {result.seated}; no insurance; EV per unit bet behind, unconditional",
        f"follows every double and split: {number(result.follows_everything, exact)}",
        f"cannot afford doubles and splits (one card instead of a double, the right-hand hand "
        f"of a split): {number(result.cannot_afford, exact)}",
    ] + ([] if result.run_out is None else [run_out_line(result.run_out, exact, "the seated player's round")])
    if variance is not None and variance.variance is not None:
        lines.append(f"standard deviation per round of the bet that follows everything (the seated player's round): "
                     f"{fixed(variance.sd)} (variance {number(variance.variance, exact)}, exact)")
    return "\n".join(lines)


def eor_cells(eor: Mapping[str, Any]) -> list[str]:
    return [fixed(100 * float(eor[rank]), 4, sign=True) if rank in eor else "-" for rank in RANK_ORDER]


def weighted_sum_line(result: EffectsOfRemoval, fixed_chart: bool) -> str:
    """The check ``sum n_r EOR_r``: exactly 0 with a fixed chart (the burn-card theorem). On a
    counter's shoe ``n_r`` is the expected cards of the rank left, and the sum is not 0 in
    general: the counter forgets the rank and the order of the card seen (docs/counting.md)."""
    total = result.weighted_sum()
    if result.count_shoe is not None:
        name = "check: sum over ranks of (expected cards of the rank left) x EOR"
        why = ("not 0 in general on a counter's shoe: seeing one more card leaves the counter knowing only the "
               "new count and cards seen, not which card came last")
        return f"{name} = {exact_text(total) if result.exact else f'{float(total):.6g}'} ({why})"
    name = "check: sum over ranks of (cards of the rank) x EOR"
    if result.exact:
        why = ("exactly 0, as for any fixed chart: removing a random card changes nothing on average"
               if fixed_chart else "not 0: the play is re-derived for each shoe")
        return f"{name} = {exact_text(total)} ({why})"
    if fixed_chart:
        return f"{name} = {float(total):.3g} (0 up to float rounding: exactly 0 for a fixed chart; --exact shows it)"
    return f"{name} = {float(total):.6g} (not 0: the play is re-derived for each shoe)"


def not_removable_lines(result: EffectsOfRemoval, plays: Sequence[PlayEffects] = ()) -> list[str]:
    """The ranks the counter's shoe cannot show next (their EOR is "-" in the table), one line
    per reason, for the round and then for each play."""
    lines = []
    for where, refused in [("", result.not_removable), *[(f" in {p.label}", p.not_removable) for p in plays]]:
        ranks: dict[str, list[str]] = {}
        for rank, why in by_up(refused).items():
            ranks.setdefault(why, []).append(rank)
        lines += [f"no EOR for {', '.join(names)}{where}: {why}" for why, names in ranks.items()]
    return lines


def eor_head(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy) -> list[str]:
    if result.count_shoe is None:
        lines = [f"strategy: {result.strategy}",
                 f"EV per round before removal: {fixed(result.base)} (unconditional, per initial bet)",
                 "EOR: the EV after removing one card of the rank minus the EV before, in % of the initial bet"]
    else:
        lines = [f"strategy: {result.strategy}",
                 f"EV per round on the counter's shoe: {fixed(result.base)} (unconditional, per initial bet)",
                 "EOR: the EV once one more card of the rank is seen (cards seen + 1, running count + its tag) minus "
                 "the EV before, in % of the initial bet; the counter keeps the tag, not the rank, so ranks of one "
                 "tag share one EOR"]
    if result.run_out is not None:
        lines.append(run_out_line(result.run_out, False, "the round before removal" if result.count_shoe is None
                                  else "the round on the counter's shoe"))
    if any(p.first is not None for p in plays):
        lines.append(f"plays: the first play's EV minus the second's, per initial bet, in the frame shown "
                     f"(after the decision: {play_strategy})")
    if any(p.first is None for p in plays):
        lines.append("insurance: EV of insuring minus not, per unit of insurance bet (decided before the peek)")
    if plays and result.count_shoe is not None:
        lines.append("plays and insurance on the counter's shoe: the cards seen and the running count are the "
                     "counter's at the decision, the hand and the up card among them (as bjcalc hand counts them); "
                     "EOR: the difference once one more card of the rank is seen minus the difference before; a "
                     "total's hands weighted by their chances at that count")
    return lines


def eor_text(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy, exact: bool,
             fixed_chart: bool, seen: Sequence[str] = ()) -> str:
    """The EOR table: one row for the round, one per play, and the check ``sum n_r EOR_r``
    (``fixed_chart``: one chart plays every shoe, so the check is 0); exact values below it in
    exact mode."""
    rows = [[name, frame, fixed(value)] + eor_cells(eor) for name, frame, value, eor in eor_rows(result, plays)]
    lines = [f"Effects of removal   {rules_line(result.rules, seen)}", *eor_head(result, plays, play_strategy), "",
             tabulate(rows, headers=["", "frame", "EV"] + list(RANK_ORDER), disable_numparse=True,
                      colalign=("left", "left") + ("right",) * 11),
             "", *not_removable_lines(result, plays), weighted_sum_line(result, fixed_chart)]
    if exact:
        lines += ["", "exact values (per initial bet; insurance per unit insured):"]
        for name, _, value, eor in eor_rows(result, plays):
            rows = [["EV" if name == "round" else "difference", exact_text(value)]]
            rows += [[f"EOR {rank}", exact_text(eor[rank])] for rank in RANK_ORDER if rank in eor]
            lines += ["", f"{name}:", tabulate(rows, tablefmt="plain", disable_numparse=True)]
    return "\n".join(lines)


def _correlation_text(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def tag_text(value: Fraction) -> str:
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


def pe_note(pe_model: Mapping[str, Any] | None) -> list[str]:
    """The line that says what the PE column assumes, where there is one."""
    if pe_model is None:
        return []
    return [f"PE (playing efficiency): {pe_model['description']}; {pe_model['variations']} variations "
            "(docs/counting.md)"]


def _exact_index_text(index: ExactIndex) -> str:
    if index.crossing is None and index.index is None:
        return "-"
    side = "" if index.above is None else (">= " if index.above else "<= ")
    crossing = "no crossing" if index.crossing is None else f"{side}{fixed(index.crossing, 2, sign=True)}"
    rule = "never" if index.index is None else f"{'>=' if index.above else '<='} {index.index:+d}"
    return f"{crossing} (index {rule}){'' if index.monotone else ' *'}"


def exact_index_lines(table: ExactIndices, plays: Sequence[PlayEffects], figures: Sequence[CountFigures],
                      tablefmt: str) -> list[str]:
    """The exact indices beside the linear estimates: one row per system, one column per play."""
    rows = [[f.system.name] + [_exact_index_text(i) for i in row] for f, row in zip(figures, table.by_system)]
    notes = [("indices (exact: the model of the counter's shoe, docs/countshoe.md) at "
              f"{table.cards_seen} cards seen before the round ({fixed(Fraction(table.cards_seen, 52), 2)} decks), "
              f"{table.cards_left} not seen when the player decides; CD play after the first decision; the true count "
              "where the two plays' EVs cross (exact divisor, not rounded) and, in brackets, the integer rule: "
              "the first play at TC (floored) >= or <= the index; insurance against the ace alone")]
    if not all(f.system.balanced for f in figures):
        notes.append("unbalanced counts, exact: the running count from 0 (no initial running count) per deck not "
                     "seen, not above its expected value as the linear estimates")
    if not all(i.monotone for row in table.by_system for i in row):
        notes.append("*: not monotone: the better play changes more than once over the likely counts")
    return ["", *notes, "", tabulate(rows, headers=["system"] + [p.label for p in plays], tablefmt=tablefmt,
                                     disable_numparse=True)]


def count_tables(result: EffectsOfRemoval, plays: Sequence[PlayEffects], figures: Sequence[CountFigures],
                  indices: Sequence[Sequence[Index]], exact: bool, tablefmt: str,
                  exact_indices: ExactIndices | None = None) -> list[str]:
    with_pe = any(f.playing_efficiency is not None for f in figures)
    rows = []
    for f in figures:
        tags = f.system.tags
        rows.append([f.system.name] + [tag_text(tags[RANK_NOTATION.index(r)]) for r in RANK_ORDER]
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
    if exact_indices is not None and plays:
        lines += exact_index_lines(exact_indices, plays, figures, tablefmt)
    return lines


def count_text(result: EffectsOfRemoval, plays: Sequence[PlayEffects], figures: Sequence[CountFigures],
               indices: Sequence[Sequence[Index]], exact: bool, seen: Sequence[str] = (),
               pe_model: Mapping[str, Any] | None = None, exact_indices: ExactIndices | None = None) -> str:
    """Each system's tags (2..T, A), balance, BC, IC, PE (with ``pe_model``), advantage per
    true count and indices."""
    return "\n".join([
        f"Count systems   {rules_line(result.rules, seen)}",
        f"EORs of the round (unconditional), strategy: {result.strategy}",
        *COUNT_NOTES, *pe_note(pe_model), "",
        *count_tables(result, plays, figures, indices, exact, "simple", exact_indices),
    ])


def matrix_round_lines(result: EvMatrix, exact: bool) -> list[str]:
    chances, ev = result.chances, result.round.ev
    return [
        f"strategy: {result.strategy}",
        (f"round: EV {exact_or_fixed(ev, exact)} per initial bet (unconditional; house edge "
         f"{fixed(-100 * float(ev), 4)} %)"),
        (f"round: win {fixed(chances.win)}, push {fixed(chances.push)}, loss {fixed(chances.loss)}, "
         f"a resplit (not broken down) {fixed(result.split)} (unconditional)"),
    ] + ([] if result.round.run_out is None else [run_out_line(result.round.run_out, exact, "round:")] + (
        [MATRIX_RUN_OUT_NOTE] if result.may_run_out else []))


MATRIX_RUN_OUT_NOTE = ("run out: the chance that the best play's deal runs out of cards, in the table's frame "
                       "(void: bets returned, in neither win, push nor loss)")
MATRIX_NOTES = (
    "each table: P = P(this up card and this hand), unconditional; EVs per initial bet, in the frame stated, "
    "CD play after the first decision; * marks the best play; - where the rules do not allow the play",
    "win/push/loss: the chance that the best play's result is > 0, = 0, < 0 (a split: both hands' total), exact, "
    "in the table's frame; not computed (-) where the best play is a split that could resplit",
)


def matrix_tables(result: EvMatrix, tablefmt: str, heading: str) -> list[str]:
    lines: list[str] = []
    for up in result.ups:
        cells = [c for c in result.cells if c.up is up]
        frames = sorted({c.frame for c in cells})
        frame = (" / ".join(frames) if len(frames) > 1 else
                 "conditioned on no dealer blackjack" if frames == ["conditioned"] else "unconditional")
        p_up = sum(float(c.probability) for c in cells)
        lines += ["", f"{heading}up card {up}: P(up) {fixed(p_up)}, EVs {frame}", ""]
        deep = result.may_run_out
        rows = [_matrix_row(c) + ([fixed(c.run_out or 0)] if deep else []) for c in cells]
        lines.append(tabulate(rows, headers=["hand", "P", *MATRIX_ACTIONS, "best", "win", "push", "loss",
                                             *(["run out"] if deep else [])],
                              tablefmt=tablefmt, disable_numparse=True,
                              colalign=("left",) + ("right",) * 6 + ("left",) + ("right",) * (3 + deep)))
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
    return "\n".join([f"EV matrix   {rules_line(result.rules, seen)}", *matrix_round_lines(result, exact),
                      *MATRIX_NOTES, *exact_note, *matrix_tables(result, "simple", "")])


INSURANCE_NOTES = (
    "exact: the cards left are every subset of the cards off the table with the running count's tag sum, "
    "equally likely (docs/countshoe.md)",
    "insure at or above the index: insurance's EV is positive there and at every possible running count above; "
    "RC counts the hand and the dealer's ace; TC = RC per deck left (cards left / 52)",
)


def _insurance_tags(table: InsuranceTable) -> str:
    return " ".join(tag_text(table.tags[RANK_NOTATION.index(r)]) for r in RANK_ORDER)


def insurance_heading(table: InsuranceTable, rules: Rules) -> list[str]:
    hand = ",".join(map(str, table.hand)) if table.hand else "no cards"
    count = f"{table.system} (tags 2..T, A: {_insurance_tags(table)})"
    if not table.balanced or table.initial_running_count:
        count += f", initial running count {exact_text(table.initial_running_count)}"
        count += "" if table.balanced else " (unbalanced)"
    return [shoe_words(rules), f"count: {count}", f"seen on the table: {hand} and the dealer's ace"]


def _count_cell(value: Fraction | None, exact: bool, places: int = 2) -> str:
    if value is None:
        return "-"
    if value.denominator == 1:
        return f"{value.numerator:+d}" if value else "0"
    shown = fixed(value, places, sign=True)
    return f"{shown} ({value})" if exact else shown


def _ev_cell(value: Fraction | None, exact: bool) -> str:
    if value is None:
        return "-"
    shown = fixed(value, 6, sign=True)
    return f"{shown} ({value})" if exact and value.denominator != 1 else shown


def _insurance_rows(table: InsuranceTable, exact: bool) -> list[list[str]]:
    out = []
    for row in table.rows:
        at = None if row.running_count is None else row.evs[row.running_count]
        below = None if row.below is None else row.evs[row.below]
        out.append([str(row.cards_left), fixed(Fraction(row.cards_left, 52), 2),
                    _count_cell(row.running_count, exact), _count_cell(row.true_count, exact), _ev_cell(at, exact),
                    _count_cell(row.below, exact), _count_cell(row.below_true_count, exact), _ev_cell(below, exact),
                    "" if row.monotone else "no"])
    return out


INSURANCE_HEADERS = ["cards left", "decks left", "insure at RC", "TC", "EV there", "RC below", "TC below", "EV below",
           "not monotone"]


def insurance_index_table(table: InsuranceTable, exact: bool, tablefmt: str) -> str:
    rows = _insurance_rows(table, exact)
    headers = list(INSURANCE_HEADERS)
    if all(row[-1] == "" for row in rows):
        rows = [row[:-1] for row in rows]
        headers = headers[:-1]
    return tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True,
                    colalign=("right",) * len(headers))


def insurance_missing(table: InsuranceTable) -> list[str]:
    if any(row.running_count is None for row in table.rows):
        return ["-: insurance is not positive at any running count the shoe can produce at that depth"]
    return []


def insurance_text(table: InsuranceTable, rules: Rules, exact: bool) -> str:
    shoe, *heading = insurance_heading(table, rules)
    return "\n".join([f"Insurance index by cards left   {shoe}", *heading, *INSURANCE_NOTES, "",
                      insurance_index_table(table, exact, "simple"), *insurance_missing(table)])


def index_text(table: IndexTable | ShoeIndexTable, rules: Rules) -> str:
    """``bjcalc index``: one line per play, after the heading (:func:`index_heading`)."""
    game, *heading = index_heading(table, rules)
    return "\n".join([f"Index numbers   {game}", *heading, "",
                      tabulate(index_rows(table), headers=INDEX_HEADERS, tablefmt="simple", disable_numparse=True)])


def all_index_text(result: AllIndices, rules: Rules) -> str:
    """``bjcalc index --all``: the heading, the legend, a grid per chart table (hard, soft,
    pairs; a column per up card), then every change and insurance as ``bjcalc index`` lists them."""
    game, *heading = index_heading(result.table, rules)
    out = [f"Index numbers, every play the count changes   {game}", *heading, *all_index_legend(result)]
    for kind, title in ALL_INDEX_TABLES:
        out += ["", title, tabulate(all_index_grid(result, kind), headers=[kind, *UP_ORDER], tablefmt="simple",
                                    disable_numparse=True, colalign=("right",) * 11)]
    return "\n".join(out + ["", f"every change ({len(result.table.plays)}) and insurance",
                             tabulate(index_rows(result.table), headers=INDEX_HEADERS, tablefmt="simple",
                                      disable_numparse=True)])


def truecount_text(result: TrueCountResult, rules: Rules) -> str:
    """``bjcalc truecount``: the heading, the table by true count, the spread's figures, the
    win rate by penetration and the optimal spread."""
    game, *heading = truecount_heading(result, rules)
    out = [f"True counts and spreads   {game}", *heading, "",
           tabulate(truecount_rows(result), headers=TRUECOUNT_HEADERS, tablefmt="simple", disable_numparse=True),
           f"(true counts rarer than {100 * SHOWN_FREQUENCY:g} % of rounds not shown)", "",
           tabulate(win_rows(result.win), tablefmt="plain", disable_numparse=True), "",
           tabulate(penetration_rows(result), headers=PENETRATION_HEADERS, tablefmt="simple", disable_numparse=True)]
    if result.optimal is not None:
        out += ["", f"optimal spread (largest SCORE within 1-{float(result.optimal[0].ratio):g}):",
                tabulate(win_rows(result.optimal[1]), tablefmt="plain", disable_numparse=True)]
    return "\n".join(out + [""] + truecount_footer(result))


def simulate_text(result: SimulationResult, rules: Rules) -> str:
    """``bjcalc simulate``: the heading, the table by true count, the spread's figures and the
    share of rounds by starting depth, every figure with its standard error."""
    game, *heading = simulate_heading(result, rules)
    out = [f"Simulated true counts and spreads   {game}", *heading, "",
           tabulate(simulate_rows(result), headers=SIMULATE_HEADERS, tablefmt="simple", disable_numparse=True),
           f"(true counts rarer than {100 * SHOWN_FREQUENCY:g} % of rounds not shown; EV per unit bet of the "
           "rounds played there)", "",
           tabulate(simulate_win_rows(result.win), tablefmt="plain", disable_numparse=True), "",
           "share of rounds by the cards seen at their start:",
           tabulate(simulate_depth_rows(result), headers=DEPTH_HEADERS, tablefmt="simple", disable_numparse=True)]
    return "\n".join(out + [""] + simulate_footer(result))
