"""Markdown pages (GitHub tables), as ``--format markdown`` prints them and ``bjcalc tables``
writes them. Nothing here computes a probability; the tables are
:mod:`bjcalc.render.text`'s, in ``github`` format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from bjcalc.render.common import (
    ALL_INDEX_TABLES,
    CHART_KINDS,
    DEPTH_HEADERS,
    INDEX_HEADERS,
    PENETRATION_HEADERS,
    RANK_ORDER,
    SHOWN_FREQUENCY,
    SIMULATE_HEADERS,
    TRUECOUNT_HEADERS,
    WIN_HEADERS,
    Index,
    all_index_grid,
    all_index_legend,
    eor_rows,
    exact_or_fixed,
    fixed,
    index_heading,
    index_rows,
    penetration_rows,
    report_figures,
    rules_line,
    rules_rows,
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
from bjcalc.render.text import (
    COUNT_NOTES,
    INSURANCE_NOTES,
    LEGEND,
    MATRIX_NOTES,
    count_tables,
    edge_summary,
    effects_rows,
    effects_run_out,
    eor_cells,
    eor_head,
    exact_base,
    exceptions_lines,
    insurance_heading,
    insurance_index_table,
    insurance_missing,
    matrix_round_lines,
    matrix_tables,
    not_removable_lines,
    pe_note,
    section_lines,
    weighted_sum_line,
)
from bjcalc.results import (
    UP_ORDER,
    RunOut,
    Strategy,
)
from bjcalc.rules import Rules

if TYPE_CHECKING:  # types only: importing these would load the engine (bjcalc games must not)
    from bjcalc.counting.eor import EffectsOfRemoval
    from bjcalc.counting.indexgrid import AllIndices
    from bjcalc.counting.indices import IndexTable
    from bjcalc.counting.insurance import InsuranceTable
    from bjcalc.counting.measures import CountFigures, ExactIndices
    from bjcalc.counting.plays import PlayEffects
    from bjcalc.counting.shoeindex import ShoeIndexTable
    from bjcalc.counting.simulate import SimulationResult
    from bjcalc.counting.truecount import TrueCountResult
    from bjcalc.matrix import EvMatrix
    from bjcalc.report import Report, RuleEffects


def chart_markdown(chart, result, exceptions_, exact: bool, seen: Sequence[str] = (),
                   counter: str | None = None) -> str:
    columns = list(next(iter(chart.table("hard").values())).keys())
    lines = [f"# Basic strategy: {rules_line(chart.rules, seen)}", ""] + ([counter, ""] if counter else [])
    lines += [LEGEND + ".", ""]
    for kind, title in CHART_KINDS:
        rows = [[row] + list(cells.values()) for row, cells in chart.table(kind).items()]
        lines.append(f"## {title}")
        lines.append("")
        lines.append(tabulate(rows, headers=[title.split()[0]] + columns, tablefmt="github", disable_numparse=True))
        lines.append("")
    lines += edge_summary(result, exact)
    lines += exceptions_lines(exceptions_, markdown=True)
    return "\n".join(lines) + "\n"


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
    lines += ["", *section_lines(report, markdown=True)]
    return "\n".join(lines).rstrip() + "\n"


def effects_markdown(title: str, rules: Rules, base: float, effects: Sequence[tuple[str, float, float]],
                     exact: RuleEffects | None = None, run_out: RunOut | None = None) -> str:
    rows, headers = effects_rows(effects, exact)
    return "\n".join([
        f"# Rule-by-rule effects: {title}",
        "",
        (f"Baseline: the game as it is ({rules_line(rules)}), house edge **{fixed(base, 4)} %**{exact_base(exact)} "
        "(CD play, split hands CDZ-, unconditional, reshuffle every round). Each row changes one "
        "rule; the effect is in percentage points of house edge (+ = worse for the player)."),
        *[f"\n{line}." for line in effects_run_out(run_out)],
        "",
        tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True),
        "",
    ])


def eor_markdown(result: EffectsOfRemoval, plays: Sequence[PlayEffects], play_strategy: Strategy, exact: bool,
                 fixed_chart: bool, seen: Sequence[str] = (), counter: str | None = None) -> str:
    """``counter``: the counter's-shoe line, where the numbers are for one."""
    rows = [[name, frame, exact_or_fixed(value, exact)] + eor_cells(eor)
            for name, frame, value, eor in eor_rows(result, plays)]
    refused = not_removable_lines(result, plays)
    return "\n".join([
        f"# Effects of removal: {rules_line(result.rules, seen)}", "", *([counter, ""] if counter else []),
        *[f"- {line}" for line in eor_head(result, plays, play_strategy)], "",
        tabulate(rows, headers=["", "frame", "EV"] + list(RANK_ORDER), tablefmt="github", disable_numparse=True),
        "", *[f"- {line}" for line in refused], *([""] if refused else []),
        weighted_sum_line(result, fixed_chart), "",
    ])


def count_markdown(result: EffectsOfRemoval, plays: Sequence[PlayEffects], figures: Sequence[CountFigures],
                   indices: Sequence[Sequence[Index]], exact: bool, seen: Sequence[str] = (),
                   pe_model: Mapping[str, Any] | None = None, exact_indices: ExactIndices | None = None) -> str:
    return "\n".join([
        f"# Count systems: {rules_line(result.rules, seen)}", "",
        f"- EORs of the round (unconditional), strategy: {result.strategy}",
        *[f"- {note}" for note in [*COUNT_NOTES, *pe_note(pe_model)]], "",
        *count_tables(result, plays, figures, indices, exact, "github", exact_indices), "",
    ])


def matrix_markdown(result: EvMatrix, exact: bool, seen: Sequence[str] = (), counter: str | None = None) -> str:
    """``counter``: the counter's-shoe line, where the numbers are for one."""
    exact_note = ["exact fractions of every cell: --format csv or json with --exact"] if exact else []
    head = [f"- {line}" for line in (*matrix_round_lines(result, exact), *MATRIX_NOTES, *exact_note)]
    return "\n".join([f"# EV matrix: {rules_line(result.rules, seen)}", "", *([counter, ""] if counter else []), *head,
                      *matrix_tables(result, "github", "## "), ""])


def insurance_markdown(table: InsuranceTable, rules: Rules, exact: bool) -> str:
    shoe, *heading = insurance_heading(table, rules)
    return "\n".join([f"# Insurance index by cards left: {shoe}", "",
                      *[f"- {line}" for line in [*heading, *INSURANCE_NOTES]], "",
                      insurance_index_table(table, exact, "github"),
                      *[f"\n{line}" for line in insurance_missing(table)], ""])


def index_markdown(table: IndexTable | ShoeIndexTable, rules: Rules) -> str:
    game, *heading = index_heading(table, rules)
    return "\n".join([f"# Index numbers: {game}", "", *[f"- {line}" for line in heading], "",
                      tabulate(index_rows(table), headers=INDEX_HEADERS, tablefmt="github", disable_numparse=True),
                      ""])


def all_index_markdown(result: AllIndices, rules: Rules) -> str:
    """``bjcalc index --all``: the heading and legend as a list, a grid per chart table, then every
    change and insurance."""
    game, *heading = index_heading(result.table, rules)
    out = [f"# Index numbers, every play the count changes: {game}", "",
           *[f"- {line}" for line in heading + all_index_legend(result)]]
    for kind, title in ALL_INDEX_TABLES:
        out += ["", f"## {title[0].upper()}{title[1:]}", "",
                tabulate(all_index_grid(result, kind), headers=[kind, *UP_ORDER], tablefmt="github",
                         disable_numparse=True)]
    out += ["", f"## Every change ({len(result.table.plays)}) and insurance", "",
            tabulate(index_rows(result.table), headers=INDEX_HEADERS, tablefmt="github", disable_numparse=True)]
    return "\n".join(out + [""])


def truecount_markdown(result: TrueCountResult, rules: Rules) -> str:
    game, *heading = truecount_heading(result, rules)
    out = [f"# True counts and spreads: {game}", "", *[f"- {line}" for line in heading], "",
           "## By true count", "",
           tabulate(truecount_rows(result), headers=TRUECOUNT_HEADERS, tablefmt="github", disable_numparse=True),
           "", f"True counts rarer than {100 * SHOWN_FREQUENCY:g} % of rounds are not shown.", "",
           "## The spread", "",
           tabulate(win_rows(result.win), headers=WIN_HEADERS, tablefmt="github", disable_numparse=True), "",
           "## By penetration", "",
           tabulate(penetration_rows(result), headers=PENETRATION_HEADERS, tablefmt="github", disable_numparse=True)]
    if result.optimal is not None:
        out += ["", f"## Optimal spread (largest SCORE within 1-{float(result.optimal[0].ratio):g})", "",
                tabulate(win_rows(result.optimal[1]), headers=WIN_HEADERS, tablefmt="github", disable_numparse=True)]
    return "\n".join(out + [""] + [f"- {line}" for line in truecount_footer(result)] + [""])


def simulate_markdown(result: SimulationResult, rules: Rules) -> str:
    game, *heading = simulate_heading(result, rules)
    out = [f"# Simulated true counts and spreads: {game}", "", *[f"- {line}" for line in heading], "",
           "## By true count", "",
           tabulate(simulate_rows(result), headers=SIMULATE_HEADERS, tablefmt="github", disable_numparse=True),
           "", f"True counts rarer than {100 * SHOWN_FREQUENCY:g} % of rounds are not shown; EV per unit bet of the "
           "rounds played there.", "",
           "## The spread", "",
           tabulate(simulate_win_rows(result.win), headers=["", "value +- SE"], tablefmt="github",
                    disable_numparse=True), "",
           "## By starting depth", "",
           tabulate(simulate_depth_rows(result), headers=DEPTH_HEADERS, tablefmt="github", disable_numparse=True)]
    return "\n".join(out + [""] + [f"- {line}" for line in simulate_footer(result)] + [""])
