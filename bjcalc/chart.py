"""Strategy charts: the chart model (per up card, the play of each hard and soft cell and each
pair), the plays it makes as the engine asks for them, and its file format.

A chart prints as three tables (hard, soft, pairs: row -> up card -> code, codes in
docs/charts.md) and is read back from the JSON or CSV that ``bjcalc chart`` writes
(:func:`load_chart`). Basic strategy is optimised in :mod:`bjcalc.optimiser`; a chart is played
on the engine by :class:`bjcalc.chartpolicy.ChartPolicy`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from bjcalc.actions import Action
from bjcalc.arguments import shown
from bjcalc.cards import ACE, RANK_NOTATION, SOFT_CELL, TEN, UP_INDICES, parse_card
from bjcalc.engine.codes import Code
from bjcalc.engine.hands import HandLayers
from bjcalc.errors import InvalidArgumentError, InvalidCardError, InvalidChartError
from bjcalc.kept import Kept
from bjcalc.results import ChartTable
from bjcalc.rules import Rules, Surrender, check_rules

HARD_ROWS = list(range(4, 22))
SOFT_ROWS = list(range(12, 22))
CELLS = 2 * SOFT_CELL  # hard and soft chart cells: a total, plus SOFT_CELL when soft
CHART_CODES = ("H", "S", "Dh", "Ds", "Rh", "Rs", "P", "Ph", "Ps", "Pd", "Rp")  # docs/charts.md
TOTAL_CODES = CHART_CODES[:6]  # what a hard or soft cell may hold; a pairs cell takes them all
_CANONICAL_CODES = {code.lower(): code for code in CHART_CODES}
MORE_CARDS = ("H", "S")  # a code may end in /H or /S: the play of three or more cards, where it differs
CHART_TABLES = ("hard", "soft", "pairs")
CHART_ROWS = {"hard": [str(t) for t in HARD_ROWS], "soft": [str(t) for t in SOFT_ROWS], "pairs": list(RANK_NOTATION)}
_ROW_SPANS = {"hard": "4..21", "soft": "12..21", "pairs": "A, 2..9, T"}


def cell_of(total: int, soft: bool) -> int:
    return total + SOFT_CELL * soft


@dataclasses.dataclass
class UpcardChart:
    """The TD decisions against one up card, indexed by cell (``total + SOFT_CELL * soft``)."""

    hit: np.ndarray  # bool per cell: hands of three or more cards hit (else stand)
    first: np.ndarray  # per cell: Code.NONE, Code.DOUBLE or Code.SURRENDER on the first two cards
    pair: np.ndarray  # per pair rank: Code.NONE, Code.SPLIT or Code.SURRENDER
    split_beats_total: np.ndarray  # per pair rank, for the Rp code
    das_only: np.ndarray | None = None  # per pair rank: split only pays with double after split
    two_cards: np.ndarray | None = None  # bool per cell: two-card hands hit (None: as ``hit``)

    @property
    def hit_two(self) -> np.ndarray:
        """Whether a two-card hand of each cell hits when it neither doubles nor surrenders
        (split hands of two cards too, and a hand whose double or surrender is not offered)."""
        return self.hit if self.two_cards is None else self.two_cards

    def decisions(self, layers: HandLayers) -> list[np.ndarray]:
        """Hit or stand, by the chart, for every hand of ``layers`` (after the first decision):
        two-card hands by :attr:`hit_two`, longer ones by :attr:`hit`."""
        return [np.where((self.hit_two if size == 2 else self.hit)[cells], Code.HIT, Code.STAND)
                for size, cells in zip(layers.sizes, layers.cells)]

    def total_code(self, total: int, soft: bool) -> tuple[str, str]:
        """A hard or soft cell as (two-card code, suffix): the suffix ``/H`` or ``/S`` is the
        play of three or more cards where it differs from the two-card one, else empty."""
        cell = cell_of(total, soft)
        letter = "H" if self.hit_two[cell] else "S"
        if self.first[cell] == Code.DOUBLE:
            base = "D" + letter.lower()
        elif self.first[cell] == Code.SURRENDER:
            base = "R" + letter.lower()
        else:
            base = letter
        more = "H" if self.hit[cell] else "S"
        return base, "" if more == letter else "/" + more

    def code(self, kind: str, row: int | str) -> str:
        if kind == "pairs":
            rank = RANK_NOTATION.index(str(row))
            total, soft = (12, True) if rank == ACE else (2 * (rank + 1), False)
            plain, _ = self.total_code(total, soft)  # the pair as a two-card total
            if self.pair[rank] == Code.SPLIT:
                if self.das_only is not None and self.das_only[rank]:
                    return "P" + ("d" if plain.startswith("D") else plain[-1].lower())
                return "P"
            if self.pair[rank] == Code.SURRENDER and self.split_beats_total[rank]:
                return "Rp"
            if self.pair[rank] == Code.SURRENDER and not plain.startswith("R"):
                return "R" + plain[-1].lower()
            return plain
        base, more = self.total_code(int(row), kind == "soft")
        return base + more


@dataclasses.dataclass
class Chart:
    """A basic-strategy chart for a rule set: per up card decisions, printable as codes."""

    rules: Rules
    ups: dict[int, UpcardChart]
    strategy: str = "basic"
    written: dict[str, dict[str, dict[str, str]]] | None = None  # a chart file's codes as written

    def rows(self, kind: str) -> list[str]:
        return list(CHART_ROWS[kind])

    def table(self, kind: str) -> ChartTable:
        """The ``"hard"``, ``"soft"`` or ``"pairs"`` table: row -> up card -> code, printable
        (``print(chart.table("hard"))``)."""
        return ChartTable(kind, {
            row: {RANK_NOTATION[u]: self.ups[u].code(kind, row) for u in UP_INDICES if u in self.ups}
            for row in self.rows(kind)
        })

    @property
    def key(self) -> tuple:
        """The chart's plays as a value (charts are mutable arrays): equal keys play alike."""
        return tuple((up, c.hit.tobytes(), c.hit_two.tobytes(), c.first.tobytes(), c.pair.tobytes())
                     for up, c in sorted(self.ups.items()))

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "strategy": self.strategy,
                **{kind: self.table(kind).to_dict() for kind in CHART_TABLES}}


# -- the chart's plays, as the engine asks for them -----------------------------------------------


def chart_action(rules: Rules, chart: UpcardChart, counts: tuple[int, ...], total: int, soft: bool,
                 same_face: bool = True) -> Action:
    """The first play the chart makes with a (non-blackjack) two-card hand (``same_face``:
    False for two tens of unlike faces where those may not be split: they play by total)."""
    pair = next((r for r in range(10) if counts[r] == 2), None)
    if pair == TEN and not same_face and not rules.split_unlike_tens:
        pair = None
    if pair is not None and rules.split_hands >= 2:
        if chart.pair[pair] == Code.SPLIT:
            return Action.SPLIT
        if chart.pair[pair] == Code.SURRENDER and rules.surrender is not Surrender.NONE:
            return Action.SURRENDER
    cell = cell_of(total, soft)
    if chart.first[cell] == Code.DOUBLE and rules.doubles(total, soft):
        return Action.DOUBLE
    if chart.first[cell] == Code.SURRENDER and rules.surrender is not Surrender.NONE:
        return Action.SURRENDER
    return Action.HIT if chart.hit_two[cell] else Action.STAND


# a chart's plays of split-hand graphs, by (chart, graph, which hands may double): every shoe and
# count a chart is played on asks for the same ones (each at most a few thousand codes)
split_plays: Kept[tuple[np.ndarray, ...]] = Kept(256)


def chart_decider(chart: UpcardChart, double_after_split: bool = True):
    """How split hands play a chart: hit/stand by total, double two-card hands where the chart
    doubles and the rules allow it after a split; a one-card split hand draws."""

    hit, first, two = chart.hit.copy(), chart.first.copy(), chart.hit_two.copy()  # the chart as it is now

    def decide(layers: HandLayers, may_double: np.ndarray | None) -> list[np.ndarray]:
        if not double_after_split:
            may_double = None
        key = (decide.key, layers.key, None if may_double is None else may_double.tobytes())  # type: ignore[attr-defined]
        known = split_plays.get(key)
        if known is None:
            known = _split_plays(layers, may_double)
            split_plays.put(key, known)
        return list(known)

    def _split_plays(layers: HandLayers, may_double: np.ndarray | None) -> tuple[np.ndarray, ...]:
        out = []
        for k, size in enumerate(layers.sizes):
            cells = layers.cells[k]
            chosen = np.where((two if size == 2 else hit)[cells], Code.HIT, Code.STAND)
            if size == 1:
                chosen = np.full(len(cells), Code.HIT)
            elif size == 2 and may_double is not None:
                chosen = np.where(may_double & (first[cells] == Code.DOUBLE), Code.DOUBLE, chosen)
            chosen.flags.writeable = False
            out.append(chosen)
        return tuple(out)

    # the same chart plays split hands the same way: solvers share their values by this key
    decide.key = (hit.tobytes(), first.tobytes(), two.tobytes(), double_after_split)  # type: ignore[attr-defined]
    return decide


# -- the chart file: codes, tables, JSON and CSV --------------------------------------------------


def _where(name: str | None) -> str:
    return "chart" if name is None else f"chart {name!r}"


def _quoted(items: list[str]) -> str:
    return ", ".join(map(repr, items))


def _chart_ups(rules: Rules) -> list[str]:
    """The up cards a chart for ``rules`` needs a column for: those the shoe holds."""
    return [RANK_NOTATION[u] for u in UP_INDICES if rules.shoe_counts[u]]


def _ups_text(ups: list[str]) -> str:
    return "2..9, T, A" if len(ups) == 10 else ", ".join(ups)


def _code(code: object, kind: str, cell: str, where: str) -> str:
    """A cell's code as people write it (any case) in its canonical spelling; ``cell`` names
    the cell for the error.

    >>> _code("rh", "hard", "hard 16 against up card 'T'", "chart")
    'Rh'
    >>> _code("P", "hard", "hard 19 against up card 'A'", "chart")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidChartError: chart: code 'P' for hard 19 against up card 'A' is not allowed in the hard ...
    """
    allowed = CHART_CODES if kind == "pairs" else TOTAL_CODES
    if isinstance(code, str) and "/" in code:  # two-card play / play of three or more cards
        base, _, more = code.partition("/")
        if more.upper() not in MORE_CARDS or kind == "pairs" and base.lower().startswith("p"):
            raise InvalidChartError(
                f"{where}: code {code!r} for {cell}: after '/' comes the play of three or more cards, "
                f"H or S, and only for a play by total"
            )
        return _code(base, kind, cell, where) + "/" + more.upper()
    canonical = _CANONICAL_CODES.get(code.lower()) if isinstance(code, str) else None
    if canonical is None:
        raise InvalidChartError(f"{where}: unknown code {code!r} for {cell} ({', '.join(allowed)})")
    if canonical not in allowed:
        raise InvalidChartError(
            f"{where}: code {code!r} for {cell} is not allowed in the {kind} table ({', '.join(allowed)})"
        )
    return canonical


def _row_name(kind: str, row: object) -> str | None:
    """A row as written (``" 12"``, ``"10"`` or ``"t"`` for the pair of tens) in the chart's
    notation, or None when the table has no such row."""
    text = str(row).strip()
    if kind == "pairs":
        try:
            return str(parse_card(text))
        except InvalidCardError:
            return None
    try:
        total = int(text)
    except ValueError:
        return None
    return str(total) if total in (HARD_ROWS if kind == "hard" else SOFT_ROWS) else None


def _row_cells(cells: object, label: str, where: str) -> dict[str, str]:
    """One row's cells, up card -> code as written (blank cells left out)."""
    if not isinstance(cells, dict):
        raise InvalidChartError(f"{where}: {label} must map up cards to codes, not {cells!r}")
    out: dict[str, str] = {}
    for key, code in cells.items():
        try:
            up = str(parse_card(str(key)))
        except InvalidCardError:
            raise InvalidChartError(f"{where}: {label} has a cell for unknown up card {key!r}") from None
        if up in out:
            raise InvalidChartError(f"{where}: {label} has two cells for up card {up!r}")
        written = code.strip() if isinstance(code, str) else code
        if written is not None and written != "":
            out[up] = written
    return out


Tables = dict[str, dict[str, dict[str, str]]]  # table -> row -> up card -> code


def _checked_tables(rules: Rules, tables: Any, where: str) -> tuple[Tables, Tables]:
    """``tables`` (table -> row -> up card -> code, as a chart file holds them) checked against
    what a chart for ``rules`` needs: the three tables, each with all its rows, each row with a
    code for every up card the shoe holds. Returns them in the chart's notation (canonical
    rows, up cards and codes), and the same with the codes as written."""
    if not isinstance(tables, dict):
        raise InvalidChartError(f"{where} must map hard, soft and pairs to their tables")
    absent = [kind for kind in CHART_TABLES if not tables.get(kind)]
    if absent:
        raise InvalidChartError(f"{where} has no {_quoted(absent)} table{'s' * (len(absent) > 1)}")
    needed = _chart_ups(rules)
    codes: Tables = {}
    written: Tables = {}
    for kind in CHART_TABLES:
        table = tables[kind]
        if not isinstance(table, dict):
            raise InvalidChartError(f"{where}: the {kind} table must map rows to up cards to codes")
        rows: dict[str, object] = {}
        for raw, cells in table.items():
            row = _row_name(kind, raw)
            if row is None:
                raise InvalidChartError(f"{where}: unknown {kind} row {raw!r} (rows {_ROW_SPANS[kind]})")
            if row in rows:
                raise InvalidChartError(f"{where}: {kind} {row} appears twice")
            rows[row] = cells
        missing_rows = [row for row in CHART_ROWS[kind] if row not in rows]
        if missing_rows:
            raise InvalidChartError(
                f"{where}: {kind} table is missing row{'s' * (len(missing_rows) > 1)} {', '.join(missing_rows)}"
            )
        codes[kind], written[kind] = {}, {}
        for row in CHART_ROWS[kind]:
            label = f"{kind} {row}"
            cells = _row_cells(rows[row], label, where)
            missing = [up for up in needed if up not in cells]
            if missing:
                have = len(needed) - len(missing)
                raise InvalidChartError(
                    f"{where}: {label} has {have} cell{'s' * (have != 1)}, needs {len(needed)} "
                    f"({_ups_text(needed)}); no code for up card{'s' * (len(missing) > 1)} {_quoted(missing)}"
                )
            codes[kind][row] = {up: _code(code, kind, f"{label} against up card {up!r}", where)
                                for up, code in cells.items()}
            written[kind][row] = cells
    return codes, written


def chart_from_tables(rules: Rules, tables: Tables, strategy: str,
                      name: str | None = None) -> Chart:
    """A chart from table -> row -> up card -> code tables (the format ``bjcalc chart`` writes;
    codes in any case, ``dh`` is ``Dh``). ``name`` names the chart in errors. The chart keeps
    the codes as written, to show them back."""
    codes, written = _checked_tables(rules, tables, _where(name))
    ups = {}
    for up in range(10):
        if not rules.shoe_counts[up]:
            continue
        key = RANK_NOTATION[up]
        hit = np.array([c < 17 if c < SOFT_CELL else c - SOFT_CELL < 18 for c in range(CELLS)])
        two = hit.copy()
        first = np.full(CELLS, Code.NONE)
        pair = np.full(10, Code.NONE)
        beats = np.zeros(10, dtype=bool)
        das_only = np.zeros(10, dtype=bool)
        for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS)):
            for total in rows:
                base, _, more = codes[kind][str(total)][key].partition("/")
                cell = cell_of(total, kind == "soft")
                first[cell] = {"D": Code.DOUBLE, "R": Code.SURRENDER}.get(base[0], Code.NONE)
                two[cell] = base[-1] in "Hh"
                hit[cell] = (more or base[-1]) in "Hh"
        for rank in range(10):
            code = codes["pairs"][RANK_NOTATION[rank]][key].partition("/")[0]
            if code == "P" or (code in ("Ph", "Ps", "Pd") and rules.double_after_split):
                pair[rank] = Code.SPLIT
                das_only[rank] = code != "P"
            elif code == "Rp":
                pair[rank], beats[rank] = Code.SURRENDER, True
            elif code in ("Rh", "Rs"):
                pair[rank] = Code.SURRENDER
        ups[up] = UpcardChart(hit=hit, first=first, pair=pair, split_beats_total=beats, das_only=das_only,
                              two_cards=two)
    return Chart(rules=rules, ups=ups, strategy=strategy, written=written)


def _json_tables(text: str, where: str) -> dict[str, Any]:
    import json

    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidChartError(f"{where} is not valid JSON: {error.msg}") from None
    if not isinstance(data, dict):
        raise InvalidChartError(f"{where} must be a JSON object with hard, soft and pairs tables")
    return {kind: data[kind] for kind in CHART_TABLES if kind in data}


def _csv_tables(text: str, where: str, needed: list[str]) -> Tables:
    """The tables of a CSV chart: a header ``table,row,2,...,T,A``, then one line per row.
    Spreadsheets' exports are read too: ``;`` or tab separators, blank lines and columns."""
    import csv
    import io

    header_line = text.lstrip().splitlines()[0]
    reader = csv.reader(io.StringIO(text), delimiter=max(",;\t", key=header_line.count))
    try:
        lines = [(reader.line_num, cells) for cells in reader if any(cell.strip() for cell in cells)]
    except csv.Error as error:
        raise InvalidChartError(f"{where} is not valid CSV: {error} (line {reader.line_num})") from None
    (_, header), body = lines[0], lines[1:]
    names = [cell.strip().lower() for cell in header]
    if "table" not in names or "row" not in names:
        raise InvalidChartError(f"{where}: the first line must be the header table,row,2,...,T,A, "
                                f"not {','.join(header)!r}")
    columns: dict[int, str] = {}  # column -> up card
    for column, name in enumerate(names):
        if name in ("table", "row", ""):
            continue
        try:
            up = str(parse_card(name))
        except InvalidCardError:
            raise InvalidChartError(f"{where}: unknown column {header[column].strip()!r} in the header "
                                    "(table, row and the up cards 2..9, T, A)") from None
        if up in columns.values():
            raise InvalidChartError(f"{where}: the header has two columns for up card {up!r}")
        columns[column] = up
    no_column = [up for up in needed if up not in columns.values()]
    if no_column:
        raise InvalidChartError(f"{where}: the header has no column for up card{'s' * (len(no_column) > 1)} "
                                f"{_quoted(no_column)}")
    if not body:
        raise InvalidChartError(f"{where} has a header but no rows")
    at_table, at_row = names.index("table"), names.index("row")
    tables: Tables = {}
    for number, cells in body:
        cells = [cell.strip() for cell in cells] + [""] * (len(header) - len(cells))
        kind, row = cells[at_table].lower(), cells[at_row]
        if kind not in CHART_TABLES:
            raise InvalidChartError(f"{where}: unknown table {cells[at_table]!r} on line {number} (hard, soft, pairs)")
        if any(cell for column, cell in enumerate(cells) if column not in columns and column not in (at_table, at_row)):
            raise InvalidChartError(f"{where}: {kind} {row} has more cells than the header has up cards")
        table = tables.setdefault(kind, {})
        if row in table:
            raise InvalidChartError(f"{where}: {kind} {row} appears twice")
        table[row] = {up: cells[column] for column, up in columns.items()}
    return tables


class ChartArgumentError(InvalidArgumentError, TypeError):
    """A :func:`load_chart` argument of the wrong kind: a :class:`~bjcalc.errors.BjcalcError`
    as every bad input's, and still the ``TypeError`` it was before (``except TypeError``
    keeps catching it)."""


def load_chart(rules: Rules, text: str | bytes, name: str | None = None) -> Chart:
    """A chart from the JSON or CSV that ``bjcalc chart`` writes, or a spreadsheet's CSV of it
    (a leading byte-order mark, codes in any case): the file's contents as text, or as bytes
    in UTF-8. ``name`` (the file's) is quoted in errors.

    >>> from bjcalc import Rules
    >>> load_chart(Rules(decks=1), "\\ufefftable,row,2,3,4,5,6,7,8,9,T,A\\n", "x.csv")
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidChartError: chart 'x.csv' has a header but no rows
    """
    check_rules(rules)
    if name is not None and not isinstance(name, str):
        raise ChartArgumentError(f"a chart's name must be a str (its file's name), not {shown(name)}")
    if name is not None and not name.strip():
        raise ChartArgumentError(f"a chart's name must be its file's name (or None), not {name!r}")
    where = _where(name)
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidChartError(f"{where} is not UTF-8 text (save it as CSV UTF-8)") from None
    if not isinstance(text, str):
        raise ChartArgumentError(f"load_chart reads a chart's contents (text), as a str or UTF-8 bytes, "
                                 f"not {shown(text)} (for a file: load_chart(rules, path.read_text(), path.name))")
    if text == "" and name is None:
        raise InvalidChartError("chart is empty: load_chart's text is ''")
    text = text.removeprefix("\ufeff")  # Excel's "CSV UTF-8" starts with one
    if not text.strip():
        raise InvalidChartError(f"{where} is empty")
    if text.lstrip().startswith("{"):
        tables = _json_tables(text, where)
    else:
        tables = _csv_tables(text, where, _chart_ups(rules))
    return chart_from_tables(rules, tables, "chart" if name is None else f"chart {name}", name)


def simple_policy(rules: Rules, name: str) -> Chart:
    """Named simple strategies as charts: ``never-bust`` (hit hard 11 or less and soft 17 or
    less, never double, split or surrender) and ``mimic-dealer`` (hit below 17 and, when the
    dealer hits soft 17, soft 17; never double, split or surrender)."""
    check_rules(rules)
    if name == "never-bust":
        hit = np.array([c <= 11 if c < SOFT_CELL else c - SOFT_CELL <= 17 for c in range(CELLS)])
    elif name == "mimic-dealer":
        hit = np.array([c < 17 if c < SOFT_CELL else (c - SOFT_CELL < 17 or (c - SOFT_CELL == 17 and rules.hit_soft_17))
                        for c in range(CELLS)])
    else:
        raise InvalidChartError(f"unknown policy {name!r} (never-bust, mimic-dealer)")
    ups = {
        up: UpcardChart(hit=hit.copy(), first=np.full(CELLS, Code.NONE), pair=np.full(10, Code.NONE),
                        split_beats_total=np.zeros(10, dtype=bool))
        for up in range(10) if rules.shoe_counts[up]
    }
    return Chart(rules=rules, ups=ups, strategy=name)
