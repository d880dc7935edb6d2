"""CSV files: one header line, then one line per row, numbers as Python floats (``repr``) or,
with ``exact``, exact fractions ``p/q``. Nothing here computes a probability. A chart's CSV is
the file ``--chart FILE`` reads back.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from bjcalc.cards import RANK_NOTATION
from bjcalc.render.common import (
    CHART_KINDS,
    MATRIX_ACTIONS,
    RANK_ORDER,
    Index,
    eor_rows,
    exact_text,
    is_shoe_average,
)
from bjcalc.results import (
    is_rational,
)

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


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def chart_csv(chart) -> str:
    """The chart's three tables, one line per row: ``table`` (hard, soft, pairs), ``row``, then
    the code against each up card (2..9, T, A)."""
    columns = list(next(iter(chart.table("hard").values())).keys())
    rows = [["table", "row"] + columns]
    for kind, _ in CHART_KINDS:
        rows += [[kind, row] + list(cells.values()) for row, cells in chart.table(kind).items()]
    return _csv(rows)


def _csv_number(value: Any, exact: bool) -> str:
    return exact_text(value) if exact and is_rational(value) else repr(float(value))


def eor_csv(result: EffectsOfRemoval, plays: Sequence[PlayEffects], exact: bool) -> str:
    """One line per row of the table: the bet its numbers are per (``bet``: the initial bet, or
    the insurance bet), its EV (the round) or EV difference (a play) per unit of that bet, and
    its EOR for each rank in % of that bet, each column's unit in its header (exact fractions
    with ``exact``; empty where the shoe holds none of the rank
    or, on a counter's shoe, where the rank has no EOR: ``not_removable``)."""
    rows: list[list[str]] = [["row", "frame", "bet", "ev_or_difference_per_bet"]
                             + [f"eor_{r}_percent_of_bet" for r in RANK_ORDER]]
    for (name, frame, value, eor), play in zip(eor_rows(result, plays), [None, *plays]):
        unit = "insurance_bet" if play is not None and play.first is None else "initial_bet"
        cells = [_csv_number(100 * eor[rank], exact) if rank in eor else "" for rank in RANK_ORDER]
        rows.append([play.label if play is not None else name, frame, unit, _csv_number(value, exact)] + cells)
    return _csv(rows)


def _csv_optional(value: float | None) -> str:
    return "" if value is None else repr(value)


def _tag_csv(value: Fraction) -> str:
    """A tag in a CSV cell: ``1``, ``0.5`` (a spreadsheet reads ``1/2`` as a date)."""
    return str(value.numerator) if value.denominator == 1 else repr(float(value))


def count_csv(plays: Sequence[PlayEffects], figures: Sequence[CountFigures], indices: Sequence[Sequence[Index]],
              exact: bool, exact_indices: ExactIndices | None = None) -> str:
    """One line per system: tags (2..T, A), balanced, BC, IC, the advantage per true count in %,
    the playing efficiency (empty where not computed) and, per play, its index (linear
    estimate) and which side of it the first play is the better; with ``exact_indices``, per
    play its exact crossing, integer index and side too (at the depth of the columns' names)."""
    header = ["system"] + [f"tag_{r}" for r in RANK_ORDER] + [
        "balanced", "betting_correlation", "insurance_correlation", "advantage_per_true_count_percent",
        "playing_efficiency"]
    for play in plays:
        header += [f"index: {play.label}", f"deviate: {play.label}"]
    if exact_indices is not None:
        at = f" (exact, {exact_indices.cards_seen} cards seen)"
        for play in plays:
            header += [f"crossing{at}: {play.label}", f"index{at}: {play.label}", f"deviate{at}: {play.label}"]
    rows: list[list[str]] = [header]
    for number, (f, row) in enumerate(zip(figures, indices)):
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
        if exact_indices is not None:
            for index in exact_indices.by_system[number]:
                line += [_csv_optional(index.crossing), "" if index.index is None else str(index.index),
                         "" if index.above is None else ("at_or_above" if index.above else "at_or_below")]
        rows.append(line)
    return _csv(rows)


def matrix_csv(result: EvMatrix, exact: bool) -> str:
    """One line per (hand, up card): P(up card and hand), every action's EV (empty where not
    allowed) in ``frame``, the best play and its EV unconditional, P(dealer blackjack), and the
    best play's win/push/loss (empty for a split), and on a shoe dealt to its last cards the
    chance that the best play's deal runs out (``run_out``); exact fractions with ``exact``."""
    header = ["hand", "same_face", "up", "probability", *MATRIX_ACTIONS, "best", "frame", "best_unconditional",
              "dealer_blackjack", "win", "push", "loss", *(["run_out"] if result.may_run_out else [])]
    rows: list[list[str]] = [header]
    for cell in result.cells:
        data = {"run_out": 0, **cell.to_data()}
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


def _csv_value(value: Fraction | None, exact: bool) -> str:
    if value is None:
        return ""
    return exact_text(value) if exact else repr(float(value))


def insurance_csv(table: InsuranceTable, exact: bool) -> str:
    """One line per depth: cards left, the index as RC and TC, insurance's EV there, the same for
    the count below, and whether the EV rises with the count at that depth."""
    rows: list[Sequence[Any]] = [["cards_left", "decks_left", "running_count", "true_count", "ev",
                                  "below_running_count", "below_true_count", "below_ev", "monotone"]]
    for row in table.rows:
        at = None if row.running_count is None else row.evs[row.running_count]
        below = None if row.below is None else row.evs[row.below]
        rows.append([row.cards_left, _csv_value(Fraction(row.cards_left, 52), exact),
                     _csv_value(row.running_count, exact), _csv_value(row.true_count, exact), _csv_value(at, exact),
                     _csv_value(row.below, exact), _csv_value(row.below_true_count, exact),
                     _csv_value(below, exact), "yes" if row.monotone else "no"])
    return _csv(rows)


def index_csv(table: IndexTable | ShoeIndexTable) -> str:
    """One line per play: its name, what is played instead, the index, the crossing true count,
    the common list's index, the gain per 100 rounds, the share of rounds that deviate."""
    rows: list[Sequence[Any]] = [["play", "instead", "index", "crossing", "published", "gain_per_100", "frequency",
                                  "monotone"]]
    # averaged over the shoe (--penetration): every line says over what, and with which convention
    shoe = cast("ShoeIndexTable", table) if is_shoe_average(table) else None
    if shoe is not None:
        rows[0] = [*rows[0], "averaged_to_penetration", "placement", "divisor", "rounding"]
    entries = list(table.plays) + ([table.insurance] if table.insurance is not None else [])
    for entry in entries:
        insurance = entry is table.insurance
        row = ["insurance" if insurance else entry.play.name,
               "no insurance" if insurance else entry.play.instead_text(),
               "" if entry.index is None else entry.index,
               "" if entry.crossing is None else _index_number(entry.crossing),
               "" if entry.play.published is None else entry.play.published,
               _index_number(entry.gain_per_100), _index_number(entry.frequency),
               "yes" if entry.monotone else "no"]
        if shoe is not None:
            row += [_index_number(float(shoe.penetration)), shoe.placement,
                    table.convention.divisor.value, table.convention.rounding.value]
        rows.append(row)
    return _csv(rows)


def all_index_csv(result: AllIndices) -> str:
    """``bjcalc index --all``: one line per change of the best play, by chart table (hard, soft,
    pairs), row and up card (2..9, T, A), then insurance; ``cell`` the cell as the text grid
    prints it, ``hands`` the hands a total's row stands for."""
    rows: list[Sequence[Any]] = [["table", "row", "up", "play", "deviation", "instead", "index", "crossing",
                                  "published", "gain_per_100", "frequency", "monotone", "cell", "hands"]]
    entries = [(cell, change) for cell in result.cells for change in cell.changes]
    insurance = result.table.insurance
    for cell, entry in entries + ([(None, insurance)] if insurance is not None else []):
        play = entry.play
        rows.append(["insurance" if cell is None else cell.table, "" if cell is None else cell.row, str(play.up),
                     "insurance" if cell is None else play.name, "insure" if cell is None else play.play.key,
                     "no insurance" if cell is None else play.instead_text(),
                     "" if entry.index is None else entry.index,
                     "" if entry.crossing is None else _index_number(entry.crossing),
                     "" if play.published is None else play.published,
                     _index_number(entry.gain_per_100), _index_number(entry.frequency),
                     "yes" if entry.monotone else "no", "" if cell is None else cell.text(),
                     "" if cell is None else " ".join(",".join(map(str, h)) for h in play.hands())])
    return _csv(rows)


def _index_number(value: Any) -> str:
    """A float in full (repr), or an exact Fraction as p/q."""
    return repr(value) if isinstance(value, float) else str(value)


def truecount_csv(result: TrueCountResult) -> str:
    """One line per true count the convention gives (every one, however rare): the share of
    rounds starting there and each strategy's advantage there (EV per initial bet,
    unconditional; empty where no running count of it was analysed)."""
    rows: list[Sequence[Any]] = [["true_count", "frequency", "basic", "indices", "cd"]]
    for tc, share in result.frequencies.items():
        rows.append([_index_number(tc if result.exact or tc.denominator != 1 else int(tc)),
                     _csv_value(share, result.exact),
                     *(_index_number(result.advantage[s][tc]) if tc in result.advantage[s] else ""
                       for s in ("basic", "indices", "cd"))])
    return _csv(rows)


def simulate_csv(result: SimulationResult) -> str:
    """One line per true count dealt (every one, however rare): the rounds dealt and played
    there, the share of the rounds and the advantage (mean result per unit bet of the rounds
    played), each with its standard error, and one round's SD."""
    rows: list[Sequence[Any]] = [["true_count", "rounds", "played", "frequency", "frequency_se", "advantage",
                                  "advantage_se", "sd"]]
    for row in result.true_counts:
        adv = row.advantage
        rows.append([row.true_count, row.rounds, row.played, repr(row.frequency.value), repr(row.frequency.se),
                     "" if adv is None else repr(adv.value), "" if adv is None else repr(adv.se),
                     "" if row.sd is None else repr(row.sd)])
    return _csv(rows)
