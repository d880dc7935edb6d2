"""Strategy charts and reports as self-contained HTML pages. Nothing here computes a probability.

A page is one string: ``<!DOCTYPE html>``, UTF-8, an inline ``<style>`` and nothing fetched from
anywhere (no scripts, fonts, images or links), so it can be mailed, opened offline or printed.
The chart is drawn like a casino strategy card: one colour per kind of play (hit, stand, double,
split, surrender), the code printed in every cell, a legend of the codes that appear, and a print
stylesheet that keeps the chart on one A4 or Letter page.

The pages (:func:`chart_page`, :func:`report_page`) take plain data (the chart dict of
``docs/charts.md``, rows of strings) and escape every piece of text; :func:`chart_html` and
:func:`report_html`, what the commands call, turn results into that data with the rows the
other formats print too (:mod:`bjcalc.render.common`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from bjcalc.cards import UP_ORDER
from bjcalc.errors import BjcalcError
from bjcalc.render.common import (
    ALL_INDEX_TABLES,
    DEPTH_HEADERS,
    PENETRATION_HEADERS,
    SIMULATE_HEADERS,
    TRUECOUNT_HEADERS,
    WIN_HEADERS,
    all_index_grid,
    all_index_legend,
    fixed,
    index_heading,
    index_rows,
    penetration_rows,
    report_figures,
    report_sections,
    rules_line,
    rules_rows,
    run_out_line,
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

if TYPE_CHECKING:
    from bjcalc.counting.indexgrid import AllIndices
    from bjcalc.counting.indices import IndexTable
    from bjcalc.counting.shoeindex import ShoeIndexTable
    from bjcalc.counting.simulate import SimulationResult
    from bjcalc.counting.truecount import TrueCountResult
    from bjcalc.report import Report
    from bjcalc.results import ChartException

#: Column order of every chart table, as printed cards have it.
UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")

#: The three tables of a chart: key in the chart dict, caption, label of the row header column.
CHART_TABLES = (
    ("hard", "Hard totals", "Hard"),
    ("soft", "Soft totals", "Soft"),
    ("pairs", "Pairs", "Pair"),
)

#: Every chart code in legend order, with the play in words (docs/charts.md).
CODES = {
    "H": "hit",
    "S": "stand",
    "Dh": "double if allowed, otherwise hit",
    "Ds": "double if allowed, otherwise stand",
    "P": "split",
    "Ph": "split if double after split is allowed, otherwise hit",
    "Ps": "split if double after split is allowed, otherwise stand",
    "Pd": "split if double after split is allowed, otherwise double (else hit)",
    "Rh": "surrender if allowed, otherwise hit",
    "Rs": "surrender if allowed, otherwise stand",
    "Rp": "surrender if allowed, otherwise split",
}

#: Cell colours by the code's first letter, as (CSS class, background, meaning). The hues follow
#: the text chart's terminal colours (render.CODE_COLOURS) in light tints, so the black code text
#: keeps a contrast ratio of 7:1 or more (WCAG AAA) on screen and on paper.
PALETTE = {
    "H": ("hit", "#f7b2b2", "hit"),
    "S": ("stand", "#fde68a", "stand"),
    "D": ("double", "#9fdf9f", "double"),
    "P": ("split", "#9fd3f5", "split"),
    "R": ("surrender", "#dcc3f5", "surrender"),
}
TEXT_COLOUR = "#111111"

#: The mark on a rule that the game's own text does not state.
ASSUMED_FLAG = "not stated in the game's text"

_UP_NAMES = {"T": "a ten", "A": "an ace", "8": "an 8"}
_PAIR_NAMES = {"A": "A,A", "T": "T,T"}

_STYLE = """
:root { --ink: %(ink)s; --rule: #555; --muted: #444; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; color: var(--ink); background: #fff;
  font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 .5rem; border-bottom: 2px solid var(--ink); }
.subtitle { margin: 0 0 .75rem; color: var(--muted); }
table { border-collapse: collapse; break-inside: avoid; page-break-inside: avoid; }
caption { font-weight: 700; text-align: left; padding: 0 0 .2rem; }
th, td { border: 1px solid var(--rule); padding: .15rem .45rem; }
thead th { background: #222; color: #fff; }
tbody th { background: #eee; text-align: left; white-space: nowrap; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%%);
  white-space: nowrap; }
p.lead { margin: 0 0 .3rem; font-size: 13px; max-width: 45rem; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.card { width: fit-content; margin: 0 auto; border: 3px double var(--ink); border-radius: 10px;
  padding: .8rem 1rem; break-inside: avoid; page-break-inside: avoid; }
.card .tables { display: flex; gap: 1.5rem; align-items: flex-start; }
.card .col > table + table { margin-top: .6rem; }
table.chart { font-weight: 700; font-size: 14px; }
table.chart th, table.chart td { width: 2.35rem; height: 1.45rem; padding: 0; text-align: center; }
table.chart thead th { border-color: #222; }
table.chart tbody th { background: #222; color: #fff; text-align: center; border-color: #222; }
table.chart td { color: var(--ink); }
table.chart td.corner { border: none; background: none; }
table.chart th.upcards { height: auto; font-size: 11px; font-weight: 600; letter-spacing: .04em;
  text-transform: uppercase; }
%(cells)s
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1rem; list-style: none; padding: 0;
  margin: .7rem 0 0; width: 0; min-width: 100%%; font-size: 13px; }
.legend li { display: flex; align-items: center; gap: .35rem; }
.legend .swatch { display: inline-block; flex: none; min-width: 2.1rem; text-align: center; font-weight: 700;
  border: 1px solid var(--rule); padding: 0 .2rem; }
.info { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 0 1.5rem;
  align-items: start; }
.info table, table.wide { font-size: 13px; margin-top: .8rem; }
.info table { width: 100%%; }
tr.assumed th, tr.assumed td {
  background: repeating-linear-gradient(135deg, #fff7d6 0 6px, #fff 6px 12px);
  border-style: dashed; }
.flag { display: inline-block; white-space: nowrap; font-size: 11px; font-weight: 700;
  text-transform: uppercase;
  letter-spacing: .03em; border: 1px solid var(--ink); border-radius: 3px; padding: 0 .3rem;
  margin-right: .4rem; background: #fff; }
.notes { font-size: 13px; color: var(--muted); padding-left: 1.2rem; }
.empty { font-style: italic; }
section { break-inside: avoid; page-break-inside: avoid; }
@media screen and (max-width: 30rem) {
  /* a phone (420 px and less): the charts stack, cells shrink, wide tables scroll by themselves
     instead of the page */
  body { margin: .5rem auto; padding: 0 .35rem; font-size: 14px; }
  .card { width: auto; padding: .4rem .3rem; border-width: 2px; }
  .card .tables { flex-direction: column; gap: .6rem; }
  table.chart { font-size: 12px; }
  table.chart th, table.chart td { width: auto; min-width: 1.5rem; height: 1.35rem; }
  .info { grid-template-columns: minmax(0, 1fr); }
  .info table { table-layout: fixed; }
  .info th, .info td, .info .flag { white-space: normal; overflow-wrap: anywhere; }
  table.wide { display: block; max-width: 100%%; overflow-x: auto; }
  table.wide th, table.wide td { white-space: normal; }
}
@page { size: auto; margin: 10mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; font-size: 10pt; }
  h1 { font-size: 15pt; }
  h2 { font-size: 12pt; margin-top: .8rem; }
  .card { border-width: 3px; padding: 3mm 4mm; }
  table.chart { font-size: 10pt; }
  table.chart th, table.chart td { width: 7.8mm; height: 4.6mm; }
  table.chart th.upcards { height: auto; font-size: 7pt; }
  .info table, table.wide, .legend, .notes { font-size: 8pt; line-height: 1.25; }
  .info table { margin-top: .4rem; }
  th, td { padding: .05rem .3rem; }
  h2, caption { break-after: avoid; page-break-after: avoid; }
  section.chart-section { break-before: auto; }
}
"""


def _style() -> str:
    cells = "\n".join(
        f"td.{css}, .swatch.{css} {{ background: {colour}; }}"
        for css, colour, _ in PALETTE.values()
    )
    return _STYLE % {"ink": TEXT_COLOUR, "cells": cells}


def chart_up_cards(chart: Mapping[str, Any]) -> tuple[str, ...]:
    """The up cards the chart has columns for, in chart order: all ten, or on a deep shoe those
    it can deal (the first hard row's; every row must have the same).

    >>> chart_up_cards({"hard": {"16": {"A": "H", "T": "Rh", "2": "S"}}})
    ('2', 'T', 'A')
    """
    hard = chart.get("hard")
    first = next(iter(hard.values()), None) if isinstance(hard, Mapping) else None
    if not isinstance(first, Mapping) or not first:
        raise BjcalcError("chart has no 'hard' table")
    return tuple(up for up in UP_CARDS if up in first)


def _check_chart(chart: Mapping[str, Any]) -> None:
    ups = chart_up_cards(chart)
    for kind, _, _ in CHART_TABLES:
        table = chart.get(kind)
        if not isinstance(table, Mapping) or not table:
            raise BjcalcError(f"chart has no {kind!r} table")
        for row, cells in table.items():
            for up in ups:
                code = cells.get(up) if isinstance(cells, Mapping) else None
                if code is None:
                    raise BjcalcError(f"chart {kind} row {row!r} has no cell for up card {up!r}")
                base, _, more = code.partition("/") if isinstance(code, str) else (code, "", "")
                if base not in CODES or more not in ("", "H", "S"):
                    raise BjcalcError(
                        f"unknown chart code {code!r} in {kind} row {row!r}, up card {up!r}"
                    )
            extra = sorted(set(cells) - set(ups)) if isinstance(cells, Mapping) else []
            if extra:
                raise BjcalcError(f"chart {kind} row {row!r} has a cell for up card {extra[0]!r}, "
                                  "which the first hard row has not")


def codes_used(chart: Mapping[str, Any]) -> list[str]:
    """The chart codes that occur in ``chart``, in legend order (a code with a play for three or
    more cards, ``Rh/S``, after the plain ones).

    >>> codes_used({"hard": {"16": {"T": "Rh/S", "9": "H"}}, "soft": {}, "pairs": {"8": {"2": "P"}}})
    ['H', 'P', 'Rh/S']
    """
    seen = {
        code
        for kind, _, _ in CHART_TABLES
        for cells in chart.get(kind, {}).values()
        for code in cells.values()
    }
    plain = [code for code in CODES if code in seen]
    return plain + sorted(code for code in seen if "/" in code)


def meaning(code: str) -> str:
    """What a chart code tells the player.

    >>> meaning("Rh/S")
    'two cards: surrender if allowed, otherwise hit; three or more cards: stand'
    """
    base, _, more = code.partition("/")
    if not more:
        return CODES[base]
    return f"two cards: {CODES[base]}; three or more cards: {'hit' if more == 'H' else 'stand'}"


def _hand_name(kind: str, row: str) -> str:
    if kind == "pairs":
        return "pair " + _PAIR_NAMES.get(row, f"{row},{row}")
    return f"{kind} {row}"


def _cell(kind: str, row: str, up: str, code: str) -> str:
    css = PALETTE[code[0]][0]
    tip = f"{_hand_name(kind, row)} v {_UP_NAMES.get(up, 'a ' + up)}: {meaning(code)}"
    return f'<td class="{css}" data-code="{escape(code)}" title="{escape(tip)}">{escape(code)}</td>'


def _chart_table(chart: Mapping[str, Any], kind: str, caption: str, label: str) -> str:
    ups = chart_up_cards(chart)
    head = "".join(f'<th scope="col" abbr="up {escape(u)}">{escape(u)}</th>' for u in ups)
    lines = [
        f'<table class="chart" data-table="{kind}">',
        f"<caption>{escape(caption)}</caption>",
        '<thead><tr><td class="corner"></td>',
        f'<th scope="colgroup" colspan="{len(ups)}" class="upcards">',
        "Dealer&#x27;s up card</th></tr>",
        f'<tr><th scope="col" abbr="{escape(label)}">{escape(label)}</th>{head}</tr></thead>',
        "<tbody>",
    ]
    for row, cells in chart[kind].items():
        row_text = escape(
            _PAIR_NAMES.get(str(row), f"{row},{row}") if kind == "pairs" else str(row)
        )
        tds = "".join(_cell(kind, str(row), up, cells[up]) for up in ups)
        lines.append(f'<tr><th scope="row">{row_text}</th>{tds}</tr>')
    lines += ["</tbody>", "</table>"]
    return "\n".join(lines)


def _legend(chart: Mapping[str, Any]) -> str:
    items = "".join(
        f'<li data-code="{escape(code)}">'
        f'<span class="swatch {PALETTE[code[0]][0]}">{escape(code)}</span>'
        f"{escape(meaning(code))}</li>"
        for code in codes_used(chart)
    )
    return f'<ul class="legend" aria-label="Legend">{items}</ul>'


def _chart_card(chart: Mapping[str, Any]) -> str:
    _check_chart(chart)
    hard, soft, pairs = (_chart_table(chart, *spec) for spec in CHART_TABLES)
    return "\n".join(
        [
            '<div class="card" role="group" aria-label="Strategy chart">',
            '<div class="tables">',
            f'<div class="col">{hard}</div>',
            f'<div class="col">{soft}\n{pairs}</div>',
            "</div>",
            _legend(chart),
            *_missing_up_cards(chart),
            "</div>",
        ]
    )


def _missing_up_cards(chart: Mapping[str, Any]) -> list[str]:
    missing = [up for up in UP_CARDS if up not in chart_up_cards(chart)]
    if not missing:
        return []
    return [f'<p class="notes">No column for {escape(", ".join(missing))}: '
            "the shoe holds no such card for the dealer's up card.</p>"]


def _key_value_table(
    caption: str,
    rows: Iterable[tuple[str, str]],
    css: str,
    heads: tuple[str, str],
    assumed: Sequence[str] = (),
) -> str:
    lines = [
        f'<table class="{css}">',
        f"<caption>{escape(caption)}</caption>",
        "<thead><tr>"
        + "".join(f'<th scope="col">{escape(h)}</th>' for h in heads)
        + "</tr></thead>",
        "<tbody>",
    ]
    for name, value in rows:
        lines.append(
            f'<tr><th scope="row">{escape(str(name))}</th><td>{escape(str(value))}</td></tr>'
        )
    for note in assumed:
        lines.append(
            '<tr class="assumed"><th scope="row">assumed</th>'
            f'<td><span class="flag">{escape(ASSUMED_FLAG)}</span>{escape(str(note))}</td></tr>'
        )
    lines += ["</tbody>", "</table>"]
    return "\n".join(lines)


def _grid_table(
    caption: str, rows: Sequence[Sequence[Any]], css: str = "wide", hide_caption: bool = False
) -> str:
    """A table whose first row is the header; cells that look like numbers are right-aligned."""
    header, body = rows[0], rows[1:]
    lines = [
        f'<table class="{css}">',
        f'<caption class="sr-only">{escape(caption)}</caption>'
        if hide_caption
        else f"<caption>{escape(caption)}</caption>",
        "<thead><tr>"
        + "".join(f'<th scope="col">{escape(str(h))}</th>' for h in header)
        + "</tr></thead>",
        "<tbody>",
    ]
    for row in body:
        cells = [f'<th scope="row">{escape(str(row[0]))}</th>'] if row else []
        for value in row[1:]:
            text = str(value)
            numeric = _NUMBER.fullmatch(text.strip()) is not None
            cells.append(
                f'<td class="num">{escape(text)}</td>' if numeric else f"<td>{escape(text)}</td>"
            )
        lines.append("<tr>" + "".join(cells) + "</tr>")
    lines += ["</tbody>", "</table>"]
    return "\n".join(lines)


# a number as the tables print it, signed or not, a percentage, a "not monotone" star: set right
# in tabular figures, so that numbers of one column align on the decimal point
_NUMBER = re.compile(r"[+\-\u2212]?\d+(?:\.\d+)?(?:\s*%)?(?:\s*\*)?")


def _exceptions_table(exceptions: Sequence[Mapping[str, Any]]) -> str:
    if not exceptions:
        return (
            '<p class="empty">No two-card hand has a composition-dependent play '
            "that beats the chart.</p>"
        )
    rows: list[list[Any]] = [["hand", "up", "chart", "best", "gain"]]
    for e in exceptions:
        gain = e["gain"]
        rows.append(
            [
                e["hand"],
                e["up"],
                e["chart"],
                e["best"],
                gain if isinstance(gain, str) else f"{float(gain):.6f}",
            ]
        )
    lead = (
        '<p class="lead">Two-card hands whose best composition-dependent play differs from the '
        "chart; gain per occurrence, unconditional.</p>"
    )
    return lead + "\n" + _grid_table("Composition-dependent exceptions", rows)


def _page(title: str, body: list[str], subtitle: str = "") -> str:
    head = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{_style()}</style>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{escape(title)}</h1>",
    ]
    if subtitle:
        head.append(f'<p class="subtitle">{escape(subtitle)}</p>')
    head.append("</header>")
    return "\n".join(head + ["<main>"] + body + ["</main>", "</body>", "</html>"]) + "\n"


def chart_page(
    chart: Mapping[str, Any],
    *,
    title: str,
    rules: Sequence[tuple[str, str]],
    figures: Sequence[tuple[str, str]] = (),
    exceptions: Sequence[Mapping[str, Any]] = (),
    notes: Sequence[str] = (),
) -> str:
    """A printable strategy card: the chart, its legend, the rules and figures, on one page.

    :param chart: a chart dict as in ``docs/charts.md`` (``"hard"``, ``"soft"``, ``"pairs"``:
        row -> up card -> code); other keys are ignored.
    :param rules: (name, value) rows, e.g. ``Rules.describe()``.
    :param figures: (label, value) rows such as ``("house edge, basic strategy", "0.3557 %")``.
    :param exceptions: dicts with keys ``hand, up, chart, best, gain``; a table when given.
    :param notes: lines printed under the card.
    :raises BjcalcError: a table, a cell or a code of the chart is missing or unknown.

    >>> row = dict.fromkeys("23456789TA", "S")
    >>> chart = {"hard": {"17": row}, "soft": {"19": row}, "pairs": {"T": row}}
    >>> page = chart_page(chart, title="Stand <always>", rules=[("shoe", "8 decks")])
    >>> page.startswith("<!DOCTYPE html>"), page.count('"S" title='), "&lt;always&gt;" in page
    (True, 30, True)
    """
    body = ['<section class="chart-section" aria-label="Chart">', _chart_card(chart), "</section>"]
    info = [_key_value_table("Rules", rules, "rules", ("rule", "value"))]
    if figures:
        info.append(_key_value_table("Figures", figures, "figures", ("figure", "value")))
    body.append('<section class="info">' + "\n".join(info) + "</section>")
    if exceptions:
        body += ["<section>", _exceptions_table(exceptions), "</section>"]
    if notes:
        body.append(
            '<ul class="notes">' + "".join(f"<li>{escape(str(n))}</li>" for n in notes) + "</ul>"
        )
    return _page(title, body)


def report_page(
    *,
    title: str,
    rules: Sequence[tuple[str, str]],
    assumed: Sequence[str],
    figures: Sequence[tuple[str, str]],
    chart: Mapping[str, Any],
    exceptions: Sequence[Mapping[str, Any]],
    sections: Sequence[tuple[str, Sequence[Sequence[Any]], Sequence[str]]] = (),
) -> str:
    """A full report: rules (assumptions flagged), figures, the chart, exceptions, extra tables.

    :param assumed: notes on rules the game's text does not state; shown in the rules table,
        each flagged "not stated in the game's text".
    :param sections: extra tables as ``(heading, rows, notes)``, ``rows[0]`` being the header.

    Other parameters are as in :func:`chart_page`.

    >>> row = dict.fromkeys("23456789TA", "H")
    >>> chart = {"hard": {"12": row}, "soft": {"17": row}, "pairs": {"4": row}}
    >>> page = report_page(title="t", rules=[("shoe", "6 decks")], assumed=["6 decks: 'a shoe'"],
    ...                    figures=[("house edge", "0.5 %")], chart=chart, exceptions=[],
    ...                    sections=[("By up", [["up", "EV"], ["A", "-0.34"]], ["unconditional"])])
    >>> "not stated in the game&#x27;s text" in page, "&#x27;a shoe&#x27;" in page
    (True, True)
    >>> page.count("<table")
    6
    """
    body = [
        '<section class="info">',
        _key_value_table("Rules", rules, "rules", ("rule", "value"), assumed),
        _key_value_table("Figures", figures, "figures", ("figure", "value")),
        "</section>",
        '<section class="chart-section">',
        "<h2>Strategy chart</h2>",
        _chart_card(chart),
        "</section>",
        "<section>",
        "<h2>Exceptions</h2>",
        _exceptions_table(exceptions),
        "</section>",
    ]
    for heading, rows, section_notes in sections:
        body += ["<section>", f"<h2>{escape(heading)}</h2>"]
        if rows:
            body.append(_grid_table(heading, rows, hide_caption=True))
        if section_notes:
            body.append(
                '<ul class="notes">'
                + "".join(f"<li>{escape(str(n))}</li>" for n in section_notes)
                + "</ul>"
            )
        body.append("</section>")
    return _page(title, body)


# -- results as pages ---------------------------------------------------------------------------


def _exceptions_dicts(exceptions_: Sequence[ChartException]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in exceptions_]


def report_html(report: Report, seen: Sequence[str] = ()) -> str:
    return report_page(
        title=report.title,
        rules=rules_rows(report.rules, seen),
        assumed=list(report.assumed),
        figures=report_figures(report),
        chart=report.chart.to_dict(),
        exceptions=_exceptions_dicts(report.exceptions),
        sections=report_sections(report),
    )


def chart_html(chart, result, exceptions_, seen: Sequence[str] = (), counter: str | None = None) -> str:
    """``counter``: the counter's-shoe line (:meth:`bjcalc.Counter.describe`), a row of the rules."""
    return chart_page(
        chart.to_dict(),
        title=f"Basic strategy: {rules_line(chart.rules, seen)}",
        rules=rules_rows(chart.rules, seen) + ([("counter's shoe", counter)] if counter else []),
        figures=[("player EV per round (unconditional)", fixed(result.ev)),
                 ("house edge", f"{fixed(100 * float(result.house_edge), 4)} %")]
                + ([] if result.run_out is None else [("a round runs out of cards",
                                                        run_out_line(result.run_out, False, "")[1:])]),
        exceptions=_exceptions_dicts(exceptions_),
    )


def index_html(table: IndexTable | ShoeIndexTable, rules: Any) -> str:
    """``bjcalc index`` as one self-contained page: what the numbers assume, then the plays."""
    game, *heading = index_heading(table, rules)
    notes = "\n".join(f"<li>{escape(line)}</li>" for line in heading)
    # six narrow columns, so that the table fits a phone: what is played instead and the hands
    # go into the play's cell
    rows: list[list[Any]] = [["play", "index", "cross", "list", "gain /100", "applies"]]
    for play, instead, index, crossing, published, gain, applies, hands in index_rows(table):
        rows.append([f"{play} (not {instead}; {hands})", index, crossing, published, gain, applies])
    body = [f'<ul class="lead">{notes}</ul>', _grid_table("Index numbers", rows)]
    return _page(f"Index numbers: {table.system}", body, subtitle=game)


def all_index_html(result: AllIndices, rules: Any) -> str:
    """``bjcalc index --all`` as one self-contained page: what the cells mean, a grid per chart
    table (a column per up card), then every change and insurance."""
    game, *heading = index_heading(result.table, rules)
    notes = "\n".join(f"<li>{escape(line)}</li>" for line in heading + all_index_legend(result))
    body = [f'<ul class="lead">{notes}</ul>']
    for kind, title in ALL_INDEX_TABLES:
        body.append(_grid_table(f"{title[0].upper()}{title[1:]}", [[kind, *UP_ORDER], *all_index_grid(result, kind)]))
    rows: list[list[Any]] = [["play", "index", "cross", "list", "gain /100", "applies"]]
    for play, instead, index, crossing, published, gain, applies, hands in index_rows(result.table):
        rows.append([f"{play} (not {instead}; {hands})", index, crossing, published, gain, applies])
    body.append(_grid_table(f"Every change ({len(result.table.plays)}) and insurance", rows))
    return _page(f"Index numbers, every play the count changes: {result.table.system}", body, subtitle=game)


def truecount_html(result: TrueCountResult, rules: Any) -> str:
    """``bjcalc truecount`` as one self-contained page: what the numbers assume, plots of the
    true-count frequencies, the advantage by true count and the win rate against penetration
    (inline SVG), then the tables they are drawn from."""
    from bjcalc.render import plots

    game, *heading = truecount_heading(result, rules)
    notes = "\n".join(f"<li>{escape(line)}</li>" for line in heading)
    rows = truecount_rows(result)
    frequency = [(float(r[0]), float(r[1])) for r in rows]
    shown = [r for r in rows if float(r[1]) >= 0.01]  # the advantage where rounds are not rare
    advantage = {name: [(float(r[0]), float(r[i])) for r in shown]
                 for i, name in ((2, "basic"), (3, "indices"), (4, "CD"))}
    penetration = [(100 * float(p), float(w.win_per_100)) for p, w in result.by_penetration]
    body = [
        "<style>figure.plot { margin: 1rem 0; } figure.plot svg { width: 100%; height: auto; display: block; } "
        "figure.plot figcaption { font-size: 0.9rem; color: var(--muted); }</style>",
        f'<ul class="lead">{notes}</ul>',
        plots.bars("How often a round starts at each true count", frequency, "true count", "rounds %"),
        plots.lines("Advantage by true count (true counts with at least 0.01 % of rounds)", advantage,
                    "true count", "EV %"),
        # one penetration analysed: one dot says nothing a plot could (its table row says it)
        *([plots.lines(f"Win per 100 rounds against penetration ({result.win.spread}, {result.win.strategy})",
                       {"win per 100 rounds": penetration}, "penetration %", "win /100")]
          if len(penetration) > 1 else []),
        _grid_table("By true count", [TRUECOUNT_HEADERS, *rows]),
        _grid_table("The spread", [WIN_HEADERS, *win_rows(result.win)]),
        _grid_table("By penetration", [PENETRATION_HEADERS, *penetration_rows(result)]),
    ]
    if result.optimal is not None:
        body.append(_grid_table(f"Optimal spread (largest SCORE within 1-{float(result.optimal[0].ratio):g})",
                                [WIN_HEADERS, *win_rows(result.optimal[1])]))
    body.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in truecount_footer(result)) + "</ul>")
    return _page(f"True counts and spreads: {result.system}", body, subtitle=game)


def simulate_html(result: SimulationResult, rules: Any) -> str:
    """``bjcalc simulate`` as one self-contained page: what was dealt, plots of the true-count
    frequencies, the advantage by true count (with its band of two standard errors) and the
    share of rounds by starting depth (inline SVG), then the tables they are drawn from."""
    from bjcalc.render import plots

    game, *heading = simulate_heading(result, rules)
    notes = "\n".join(f"<li>{escape(line)}</li>" for line in heading)
    rows = simulate_rows(result)
    frequency = [(float(r[0]), float(r[1])) for r in rows]
    shown = [row for row in result.true_counts if row.advantage is not None and row.frequency.value >= 1e-4]
    advantage = {
        "EV %": [(row.true_count, 100 * row.advantage.value) for row in shown if row.advantage],
        "+2 SE": [(row.true_count, 100 * (row.advantage.value + 2 * row.advantage.se)) for row in shown
                  if row.advantage],
        "-2 SE": [(row.true_count, 100 * (row.advantage.value - 2 * row.advantage.se)) for row in shown
                  if row.advantage],
    }
    depths = [(float(n), 100 * share.value) for n, _, share in result.depths]
    body = [
        "<style>figure.plot { margin: 1rem 0; } figure.plot svg { width: 100%; height: auto; display: block; } "
        "figure.plot figcaption { font-size: 0.9rem; color: var(--muted); }</style>",
        f'<ul class="lead">{notes}</ul>',
        plots.bars("How often a round starts at each true count (simulated)", frequency, "true count", "rounds %"),
        plots.lines(f"Advantage by true count, {result.strategy} (simulated; true counts with at least 0.01 % of "
                    "rounds; the band: two standard errors)", advantage, "true count", "EV %"),
        *([plots.lines("Share of rounds by the cards seen at their start (simulated)", {"rounds %": depths},
                       "cards seen", "rounds %")] if len(depths) > 1 else []),
        _grid_table("By true count", [SIMULATE_HEADERS, *rows]),
        _grid_table("The spread", [["", "value +- SE"], *simulate_win_rows(result.win)]),
        _grid_table("By starting depth", [DEPTH_HEADERS, *simulate_depth_rows(result)]),
    ]
    body.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in simulate_footer(result)) + "</ul>")
    return _page(f"Simulated true counts and spreads: {result.system}", body, subtitle=game)
