"""Turning the counter's-shoe results (bjcalc.countshoe) into text, Markdown, CSV and JSON.
Nothing here computes a probability.

The insurance-index table: for each number of cards left, the running count (the hand and the
dealer's ace included) from which insurance is positive, as a true count too, and the count
just below it, where it is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from bjcalc.cards import RANK_NOTATION
from bjcalc.render import _csv, document, dumps, exact_text, fixed, shoe_words

if TYPE_CHECKING:
    from bjcalc.countshoe import InsuranceTable
    from bjcalc.rules import Rules

RANK_ORDER = "23456789TA"

INSURANCE_NOTES = (
    "exact: the cards left are every subset of the cards off the table with the running count's tag sum, "
    "equally likely (docs/countshoe.md)",
    "insure at or above the index: insurance's EV is positive there and at every possible running count above; "
    "RC counts the hand and the dealer's ace; TC = RC per deck left (cards left / 52)",
)


def _tags_text(table: InsuranceTable) -> str:
    def one(value: Fraction) -> str:
        text = str(value.numerator if value.denominator == 1 else value)
        return f"+{text}" if value > 0 else text

    return " ".join(one(table.tags[RANK_NOTATION.index(r)]) for r in RANK_ORDER)


def _heading(table: InsuranceTable, rules: Rules) -> list[str]:
    hand = ",".join(map(str, table.hand)) if table.hand else "no cards"
    count = f"{table.system} (tags 2..T, A: {_tags_text(table)})"
    if not table.balanced or table.initial_running_count:
        count += f", initial running count {exact_text(table.initial_running_count)}"
        count += "" if table.balanced else " (unbalanced)"
    return [shoe_words(rules), f"count: {count}", f"seen on the table: {hand} and the dealer's ace"]


def _count(value: Fraction | None, exact: bool, places: int = 2) -> str:
    if value is None:
        return "-"
    if value.denominator == 1:
        return f"{value.numerator:+d}" if value else "0"
    shown = fixed(value, places, sign=True)
    return f"{shown} ({value})" if exact else shown


def _ev(value: Fraction | None, exact: bool) -> str:
    if value is None:
        return "-"
    shown = fixed(value, 6, sign=True)
    return f"{shown} ({value})" if exact and value.denominator != 1 else shown


def _rows(table: InsuranceTable, exact: bool) -> list[list[str]]:
    out = []
    for row in table.rows:
        at = None if row.running_count is None else row.evs[row.running_count]
        below = None if row.below is None else row.evs[row.below]
        out.append([str(row.cards_left), fixed(Fraction(row.cards_left, 52), 2),
                    _count(row.running_count, exact), _count(row.true_count, exact), _ev(at, exact),
                    _count(row.below, exact), _count(row.below_true_count, exact), _ev(below, exact),
                    "" if row.monotone else "no"])
    return out


HEADERS = ["cards left", "decks left", "insure at RC", "TC", "EV there", "RC below", "TC below", "EV below",
           "not monotone"]


def _table(table: InsuranceTable, exact: bool, tablefmt: str) -> str:
    rows = _rows(table, exact)
    headers = list(HEADERS)
    if all(row[-1] == "" for row in rows):
        rows = [row[:-1] for row in rows]
        headers = headers[:-1]
    return tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True,
                    colalign=("right",) * len(headers))


def _missing(table: InsuranceTable) -> list[str]:
    if any(row.running_count is None for row in table.rows):
        return ["-: insurance is not positive at any running count the shoe can produce at that depth"]
    return []


def insurance_text(table: InsuranceTable, rules: Rules, exact: bool) -> str:
    return "\n".join([f"Insurance index by cards left   {_heading(table, rules)[0]}", *_heading(table, rules)[1:],
                      *INSURANCE_NOTES, "", _table(table, exact, "simple"), *_missing(table)])


def insurance_markdown(table: InsuranceTable, rules: Rules, exact: bool) -> str:
    return "\n".join([f"# Insurance index by cards left: {_heading(table, rules)[0]}", "",
                      *[f"- {line}" for line in [*_heading(table, rules)[1:], *INSURANCE_NOTES]], "",
                      _table(table, exact, "github"), *[f"\n{line}" for line in _missing(table)], ""])


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


def insurance_json(table: InsuranceTable, rules: Rules, exact: bool) -> str:
    return dumps(document("insurance-index", table.to_data(), rules, exact))

