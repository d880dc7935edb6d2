"""What every output format shares: numbers as text (:func:`fixed`, :func:`number`,
:func:`exact_text`), the shoe and the rules in words (:func:`rules_line`, :func:`rules_rows`),
the orders of tables' rows and columns, and the rows that more than one format prints (a
dealer table's outcomes, an EOR table's rows, a report's figures and sections). Nothing here
computes a probability, and nothing here imports tabulate or click.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from bjcalc.cards import RANK_NOTATION, UP_INDICES
from bjcalc.numbers import constant
from bjcalc.results import (
    UP_ORDER,
    DealerResult,
    by_up,
    is_rational,
)
from bjcalc.rules import Rules

if TYPE_CHECKING:  # types only: importing these would load the engine (bjcalc games must not)
    from bjcalc.counting.eor import EffectsOfRemoval
    from bjcalc.counting.indexgrid import AllIndices
    from bjcalc.counting.indices import IndexTable
    from bjcalc.counting.plays import PlayEffects
    from bjcalc.counting.shoeindex import ShoeIndexTable
    from bjcalc.report import Report


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


def exact_text(value: Any) -> str:
    """An exact number as JSON text: ``"p/q"``, or ``"n"`` for a whole number.

    >>> import sympy
    >>> exact_text(sympy.Rational(-6, 4)), exact_text(sympy.Integer(3)), exact_text(Fraction(0))
    ('-3/2', '3', '0')
    """
    return str(value if isinstance(value, Fraction) else Fraction(int(value.p), int(value.q)))


def exact_or_fixed(value: Any, exact: bool, places: int = 6, sign: bool = False) -> str:
    """``-0.003557``, or in exact mode the exact fraction beside it (``Fraction`` or
    ``sympy.Rational``), a whole number alone."""
    shown = fixed(value, places, sign)
    if not exact or not is_rational(value):
        return shown
    text = exact_text(value)
    return text if "/" not in text else f"{shown}  ({text})"


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


CHART_KINDS = (("hard", "Hard totals"), ("soft", "Soft totals"), ("pairs", "Pairs"))


RANK_ORDER = UP_ORDER  # ranks in the columns of an EOR table: 2..9, T, A, as published tables


MATRIX_ACTIONS = ("stand", "hit", "double", "split", "surrender")


# count systems: one row per system; an index is (true count or None, whether the first play is
# better at or above it)
Index = tuple[Any, bool | None]


def outcome_label(outcome: str) -> str:
    """A dealer outcome as a column name. A total below 17 is a hand stopped by the card limit.

    >>> outcome_label("16"), outcome_label("17"), outcome_label("bust")
    ('16 (card limit)', '17', 'bust')
    """
    return f"{outcome} (card limit)" if outcome.isdigit() and int(outcome) < 17 else outcome


def dealer_columns(results: Sequence[DealerResult], exact: bool) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """Every outcome any up card has, in order, and the tables with each of them (0 where an up
    card cannot reach it: only some up cards can stop below 17 at a card limit)."""
    tables = {str(r.up): {str(o): p for o, p in r.items()} for r in results}
    columns: list[str] = []
    for table in tables.values():
        columns += [outcome for outcome in table if outcome not in columns]
    columns.sort(key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else 0, c))
    zero = constant(0, exact)
    return columns, {up: {o: table.get(o, zero) for o in columns} for up, table in tables.items()}


def eor_rows(result: EffectsOfRemoval, plays: Sequence[PlayEffects]) -> list[tuple[str, str, Any, dict[str, Any]]]:
    """(row name, frame, EV or EV difference, rank -> EOR per unit) of the round and each play."""
    rows = [("round", "unconditional", result.base, by_up(result.eor))]
    for play in plays:
        name = f"{play.label} (per unit insured)" if play.first is None else play.label
        rows.append((name, "conditioned" if play.conditioned else "unconditional", play.difference, by_up(play.eor)))
    return rows


def run_out_line(run_out: Any, exact: bool, what: str = "the round") -> str:
    """One line on a shoe dealt to its last cards (:class:`bjcalc.results.RunOut`): how likely
    ``what`` is to run out of cards, how bjcalc counts that, and how far a casino's rule moves
    the EV."""
    shown = f"{float(run_out.probability):.6g}" + (f" ({run_out.probability})" if exact else "")
    return f"{what} {run_out.describe(shown)}"


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
    for label, result in (("basic chart", report.basic), ("CD play (CDZ-)", report.cd)):
        if result.run_out is not None:
            figures.append((f"a round runs out of cards, {label}", run_out_line(result.run_out, False, "")[1:]))
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


# -- index numbers (bjcalc index) -------------------------------------------------------------------

INDEX_HEADERS = ["play", "instead", "index", "crossing TC", "common list", "gain /100 rounds", "applies",
                 "hands"]


def is_shoe_average(table: IndexTable | ShoeIndexTable) -> bool:
    """Whether an index table is averaged over the shoe (``bjcalc index --penetration``)."""
    return hasattr(table, "penetration")


def index_run_out(table: IndexTable | ShoeIndexTable, rules: Rules) -> list[str]:
    """A line where a round from the (deepest) depth can run out of cards: what the EVs assume."""
    from bjcalc.engine.lastcards import may_run_out

    deepest = max(cast("ShoeIndexTable", table).starts) if is_shoe_average(table) else \
        cast("IndexTable", table).cards_seen
    if not may_run_out(rules, rules.shoe_counts, sum(rules.shoe_counts) - deepest):
        return []
    return [f"a round dealt from {sum(rules.shoe_counts) - deepest} cards can run out of cards: every EV counts "
            "such deals as void (bets returned); bjcalc hand --count prints each play's chance of it"]


def index_heading(table: IndexTable | ShoeIndexTable, rules: Rules) -> list[str]:
    """The lines every index output opens with: the game, the count and depth (or the average
    over the shoe), the convention and what every number assumes."""
    count = f"count: {table.system} (tags 2..A: {' '.join(_signed(table.tags[r]) for r in UP_INDICES)})"
    if is_shoe_average(table):  # averaged over the shoe (bjcalc.counting.shoeindex)
        shoe = cast("ShoeIndexTable", table)
        where = [f"{count}; {shoe.averaged()}",
                 f"convention: {table.convention.describe()}"]
        meaning = ("index: the integer whose rule gains most over the rounds dealt to the cut card; crossing: where "
                   "the two plays' mean EVs, pooled by the convention's true count, cross (each true count placed at "
                   "the mean exact true count of its rounds; exact divisor, not rounded); gain: EV per 100 rounds "
                   "dealt over the shoe over never deviating (per initial bet); applies: share of rounds that deviate; "
                   f"left out: {float(shoe.left_out):.2g} of the rounds (states below 1e-13 of the likeliest at "
                   "their depth)")
    else:
        one = cast("IndexTable", table)
        decks_dealt = Fraction(one.cards_seen, 52)
        where = [f"{count}; depth: {one.cards_seen} cards ({float(decks_dealt):g} decks) dealt before the round, "
                 f"{one.cards_left} not seen when the player decides ({float(one.decks_left):.2f} decks)",
                 f"convention: {table.convention.describe()}"]
        meaning = ("index: the integer whose rule gains most at this depth; crossing: where the two plays' EVs cross "
                   "(exact divisor, not rounded); gain: EV per 100 rounds over never deviating (per initial bet); "
                   "applies: share of rounds that deviate")
    return [
        rules_line(rules),
        *where,
        *index_run_out(table, rules),
        "from the exact model of the counter's shoe: the player knows the count, the cards seen and the table, not the "
        "discards' ranks; CD play after the first decision (split hands CDZ-)",
        f"{meaning}; a total's hands are weighted by how often the counter sees each",
        "insurance: against the ace alone (the player's cards not counted), a bet of 0.5 initial bets",
        "*: not monotone: the better play changes more than once over the likely counts (the index is still the "
        "best rule 'deviate at TC >= I'; the crossing shown is the one nearest it)",
    ]


def _signed(value: Fraction) -> str:
    text = str(value)
    return text if value <= 0 else "+" + text


def index_rows(table: IndexTable | ShoeIndexTable) -> list[list[str]]:
    rows = []
    entries = list(table.plays) + ([table.insurance] if table.insurance is not None else [])
    for entry in entries:
        play = entry.play
        insurance = entry is table.insurance
        rows.append([
            "insurance" if insurance else play.name,
            "no insurance" if insurance else play.instead_text(),
            ("never" if entry.index is None else f"{entry.index:+d}") + ("" if entry.monotone else " *"),
            "-" if entry.crossing is None else f"{float(entry.crossing):+.2f}",
            "-" if play.published is None else f"{play.published:+d}",
            f"{float(entry.gain_per_100):.4f}",
            f"{100 * float(entry.frequency):.3f} %",
            "A up" if insurance else " ".join(",".join(map(str, h)) for h in play.hands()),
        ])
    return rows


# the three grids of ``bjcalc index --all``: (chart table, its heading)
ALL_INDEX_TABLES = (("hard", "hard totals"), ("soft", "soft totals"), ("pairs", "pairs"))


def all_index_legend(result: AllIndices) -> list[str]:
    """What a cell of ``bjcalc index --all`` says, after :func:`index_heading`."""
    share = fixed(100 * result.likely, 3).rstrip("0").rstrip(".")
    return [
        f"--all: every two-card hand against every up card; the likely counts: the central {share} % of the "
        "rounds that deal the cell",
        "a cell: the best play at the lowest likely counts, then each play the count brings in with its index "
        "(that play at TC >= index, the play before it below): 'H S+0' hit, stand at TC >= 0; 'H R-1 S+4' hit, "
        "surrender at TC >= -1, stand at TC >= +4; a letter alone: the best play at every likely count",
        "S stand, H hit, D double, P split, R surrender; (never): no rule 'at TC >= I' gains at this depth; "
        "*: not monotone",
        "a total's row: its two-card hands but pairs (hard 12: T,2 9,3 8,4 7,5), each weighted by how often the "
        "counter sees it at each count; the list below gives each change's hands, crossing and gain",
    ]


def all_index_grid(result: AllIndices, kind: str) -> list[list[str]]:
    """One grid of ``bjcalc index --all``: a row per hand class, a column per up card (2..9, T,
    A); ``-`` where the shoe cannot deal the hand against that up card."""
    rows = []
    for row, cells in result.cell_table(kind).items():
        rows.append([row] + [cells[up].text() if up in cells else "-" for up in UP_ORDER])
    return rows


# -- bjcalc truecount ------------------------------------------------------------------------------

if TYPE_CHECKING:
    from bjcalc.counting.economics import WinFigures
    from bjcalc.counting.simulate import Estimate, SimulatedWin, SimulationResult
    from bjcalc.counting.truecount import TrueCountResult

# true counts rarer than this share of rounds are left out of the printed tables and plots (CSV
# and JSON keep every one)
SHOWN_FREQUENCY = 1e-5
TRUECOUNT_HEADERS = ["TC", "rounds %", "basic %", "indices %", "CD %"]
WIN_HEADERS = ["", "value"]


def truecount_heading(result: TrueCountResult, rules: Rules) -> list[str]:
    """What every truecount output opens with: the game, the count and shoe, the convention,
    the model, the indices played."""
    pen = float(result.penetration)
    indices = ", ".join(f"{name.rsplit(' ', 1)[0]} {_signed(Fraction(i))}" for name, i in result.indices)
    insurance = "" if result.insurance_index is None else f"; insurance {_signed(Fraction(result.insurance_index))}"
    wong = _wong_words(result)
    return [
        rules_line(rules),
        f"count: {result.system} (tags 2..A: {' '.join(_signed(result.tags[r]) for r in UP_INDICES)}); "
        f"penetration {pen:.0%} (cut card after {result.cut} of {sum(rules.shoe_counts)} cards); "
        f"{result.seats} seat{'s' if result.seats > 1 else ''}; {result.rounds_per_shoe:.2f} rounds a shoe",
        f"true count = running count at the round's start / decks not seen ({result.convention.divisor.value} "
        f"divisor), {result.convention.rounding.value}; the spread and the indices use it for the whole round",
        f"exact: the count's distribution at each round's start (fractions); the EV of each round from the exact "
        f"counter's shoe{'' if result.exact else ' (float, 1e-12 of exact)'}"
        + ("; one round's E[X^2] at each state, with its plays and insurance" if result.moments == "state" else "")
        + "; unconditional EVs, per initial bet",
        "modelled: " + _placement_text(result)
        + ("" if result.moments == "state"
           else "; one round's E[X^2] at every count is the full shoe's (exact on average for a flat bet)"),
        "strategies: basic = the full shoe's basic strategy; indices = it with "
        + ("the common Hi-Lo list's numbers" if result.index_depth is None
           else f"bjcalc index's numbers at {result.index_depth} cards seen")
        + f" (on the count seen when deciding): {indices or 'none'}{insurance}; CD = composition-dependent on the "
        "counter's shoe, insuring when it pays (split hands CDZ-)",
        *(["; ".join(wong)] if wong else []),
    ]


def _wong_words(result: Any) -> list[str]:
    """How the counter wongs (a truecount or a simulate result), in words; none: empty."""
    wong = []
    if result.wong_in is not None:
        wong.append(f"wong in at TC >= {result.wong_in}")
    if result.wong_out is not None:
        wong.append(f"wong out (leave the shoe) at TC < {result.wong_out}")
    return wong


def _placement_text(result: TrueCountResult) -> str:
    if result.placement == "spaced":
        return f"round k starts after round(k x {result.cards_per_round:.3f}) cards (the expected cards a round uses)"
    if result.placement == "chain":
        return (f"rounds start where a round's cards ({result.cards_per_round:.3f} on average, by the strategy) take "
                "them, followed over the tag classes seen (short, ten-rich rounds lean the counts; docs/truecount.md)")
    if result.placement == "dealt":
        return (f"rounds start where a round's cards ({result.cards_per_round:.3f} on average, by the strategy) take "
                "them, dealt without replacement and followed over the tag classes seen (docs/truecount.md)")
    if result.placement == "renewal":
        return (f"rounds start where a round's cards ({result.cards_per_round:.3f} on average, by the strategy) "
                "take them, independently of the count (renewal)")
    return "rounds start where the given placement puts them"


def truecount_rows(result: TrueCountResult) -> list[list[str]]:
    """One row per whole true count (the convention's; with rounding none, the floor): how often
    a round starts there and the advantage of each strategy there, in percent."""
    buckets: dict[int, list[Any]] = {}
    for tc, share in result.frequencies.items():
        whole = int(tc // 1)
        row = buckets.setdefault(whole, [0.0, {s: 0.0 for s in result.advantage}, 0.0])
        row[0] += float(share)
        if all(tc in a for a in result.advantage.values()):
            row[2] += float(share)
            for s, a in result.advantage.items():
                row[1][s] += float(share) * float(a[tc])
    rows = []
    for whole, (share, adv, weight) in sorted(buckets.items()):
        if share < SHOWN_FREQUENCY or not weight:
            continue
        rows.append([_signed(Fraction(whole)), f"{100 * share:.3f}",
                     *(f"{100 * adv[s] / weight:+.3f}" for s in ("basic", "indices", "cd"))])
    return rows


def win_rows(win: WinFigures) -> list[list[str]]:
    ruin = ("" if win.risk_of_ruin is None
            else f"{100 * win.risk_of_ruin:.4g} % for a bankroll of {win.bankroll:g} units")
    rows = [
        ["spread (TC:bet)", win.spread + f" ({win.strategy})"],
        ["average bet", f"{float(win.average_bet):.4f}"],
        ["rounds played", f"{100 * float(win.played):.2f} %"],
        ["win per round", f"{float(win.win_per_round):+.5f} units"],
        ["win per 100 rounds", f"{float(win.win_per_100):+.3f} units"],
        ["SD per round", f"{win.sd_per_round:.4f} units"],
        ["win per round played", f"{float(win.win_per_round_played):+.5f} units"],
        ["SD per round played", f"{win.sd_per_round_played:.4f} units"],
        ["DI", f"{win.di:.3f}"],
        ["SCORE", f"{win.score:.3f}"],
        ["N0", f"{win.n0:,.0f} rounds" if math.isfinite(win.n0) else "never"],
    ]
    if ruin:
        rows.append(["risk of ruin", ruin])
    return rows


def penetration_rows(result: TrueCountResult) -> list[list[str]]:
    return [[f"{float(p):.0%}", f"{float(w.win_per_100):+.3f}", f"{w.sd_per_round:.3f}", f"{w.score:.2f}"]
            for p, w in result.by_penetration]


PENETRATION_HEADERS = ["penetration", "win /100", "SD /round", "SCORE"]


def truecount_footer(result: TrueCountResult) -> list[str]:
    run = result.run
    run_out = result.run_out
    return ([] if run_out is None else [
        f"run out of cards: {'' if run_out.exact else 'at most '}{float(run_out.probability):.3g} of the rounds "
        f"(basic chart's plays): counted as void (bets returned); a casino's reshuffle of its discards could "
        f"move the win per round by at most {float(run_out.bound):.2g} units"]) + [
        f"left out: {float(result.left_out):.2g} of the rounds (the least likely running counts at each depth); "
        f"they could change the win per round by at most {float(result.bound):.2g} units",
        f"run: {run.computed} analyses computed, {run.stored} found in the store; {run.wall:.1f} s wall, "
        f"{run.compute:.1f} s of work on {run.workers} worker{'s' if run.workers > 1 else ''} ({run.where})",
    ]


# -- bjcalc simulate ---------------------------------------------------------------------------

SIMULATE_HEADERS = ["TC", "rounds %", "+- SE", "played %", "EV %", "+- SE", "SD"]
DEPTH_HEADERS = ["cards seen", "rounds %", "+- SE"]


def with_se(estimate: Estimate, places: int, scale: float = 1.0, sign: bool = False) -> str:
    """A simulated figure and its standard error: ``+0.01234 +- 0.00056``."""
    value, se = scale * estimate.value, scale * estimate.se
    if not math.isfinite(value):
        return "n/a"
    return f"{fixed(value, places, sign)} +- {fixed(se, places)}"


def simulate_heading(result: SimulationResult, rules: Rules) -> list[str]:
    """What every simulate output opens with: the game, the count, the strategy played and
    that the figures are simulated."""
    pen = float(result.penetration)
    indices = ", ".join(f"{name.rsplit(' ', 1)[0]} {_signed(Fraction(i))}" for name, i in result.indices)
    insurance = "" if result.insurance_index is None else f"; insurance {_signed(Fraction(result.insurance_index))}"
    strategy = ("basic = the full shoe's basic-strategy chart (split hands and 3+ card hands by the chart)"
                if result.strategy == "basic" else
                "indices = the full shoe's basic-strategy chart with "
                + ("the common Hi-Lo list's numbers" if result.index_depth is None
                   else f"bjcalc index's numbers at {result.index_depth} cards seen")
                + f" (on the count seen when deciding: the round's start, the hand and the up card): "
                f"{indices or 'none'}{insurance}")
    wong = _wong_words(result)
    return [
        rules_line(rules),
        f"count: {result.system} (tags 2..A: {' '.join(_signed(result.tags[r]) for r in UP_INDICES)}); "
        f"penetration {pen:.0%} (cut card after {result.cut} of {sum(rules.shoe_counts)} cards); "
        f"{result.seats} seat{'s' if result.seats > 1 else ''} (seat 0 the counter's, the others play the chart)",
        f"true count = running count at the round's start / decks not seen ({result.convention.divisor.value} "
        f"divisor), {result.convention.rounding.value}; the spread and the indices use it",
        f"SIMULATED, not exact: {result.rounds:,} rounds in {result.shoes:,} shuffled shoes (seed {result.seed}, "
        f"{result.blocks} block{'s' if result.blocks > 1 else ''}); each figure +- one standard error (the shoes "
        "are the independent units: the delta method over their sums)",
        f"strategy played: {strategy}",
        *(["; ".join(wong) + " (the table deals every seat whether he plays or not)"] if wong else []),
    ]


def simulate_rows(result: SimulationResult) -> list[list[str]]:
    """One row per true count with at least :data:`SHOWN_FREQUENCY` of the rounds: how often, the
    share of those played, the advantage (mean result per unit bet of the rounds played) and
    one round's SD there."""
    rows = []
    for row in result.true_counts:
        if row.frequency.value < SHOWN_FREQUENCY:
            continue
        freq = f"{100 * row.frequency.value:.3f}", f"{100 * row.frequency.se:.4f}"
        played = f"{100 * row.played / row.rounds:.2f}"
        if row.advantage is None:
            adv = ("", "")
        else:
            adv = (fixed(100 * row.advantage.value, 3, sign=True), fixed(100 * row.advantage.se, 3))
        rows.append([_signed(Fraction(row.true_count)), *freq, played, *adv,
                     "" if row.sd is None else f"{row.sd:.3f}"])
    return rows


def simulate_win_rows(win: SimulatedWin) -> list[list[str]]:
    rows = [
        ["spread (TC:bet)", win.spread + f" ({win.strategy})"],
        ["average bet", with_se(win.average_bet, 4)],
        ["rounds played", with_se(win.played, 2, 100) + " %"],
        ["win per round", with_se(win.win_per_round, 5, sign=True) + " units"],
        ["win per 100 rounds", with_se(win.win_per_100, 3, sign=True) + " units"],
        ["SD per round", with_se(win.sd_per_round, 4) + " units"],
        ["win per round played", with_se(win.win_per_round_played, 5, sign=True) + " units"],
        ["SD per round played", with_se(win.sd_per_round_played, 4) + " units"],
        ["DI", with_se(win.di, 3)],
        ["SCORE", with_se(win.score, 3)],
        ["N0", (with_se(win.n0, 0) + " rounds") if math.isfinite(win.n0.value) and win.n0.value > 0 else "never"],
        ["EV per round played, flat", with_se(win.ev_per_round_played, 3, 100, sign=True) + " %"],
        ["E[X^2] per round played, flat", with_se(win.second_moment, 4)],
    ]
    if win.risk_of_ruin is not None:
        rows.append(["risk of ruin",
                     with_se(win.risk_of_ruin, 4, 100) + f" % for a bankroll of {win.bankroll:g} units"])
    return rows


def simulate_depth_rows(result: SimulationResult) -> list[list[str]]:
    return [[str(n), f"{100 * share.value:.3f}", f"{100 * share.se:.4f}"] for n, _, share in result.depths]


def simulate_footer(result: SimulationResult) -> list[str]:
    run = result.run
    return [
        f"rounds per shoe {with_se(result.rounds_per_shoe, 4)}; {result.cards_per_round:.4f} cards a round",
        *([f"{result.void_rounds:,} rounds ran out of cards (void: result 0; each ended its shoe)"]
          if result.void_rounds else []),
        f"run: {result.blocks} blocks dealt; {run.wall:.1f} s wall, {run.compute:.1f} s of work on {run.workers} "
        f"worker{'s' if run.workers > 1 else ''} ({run.where}); "
        f"{1e9 * result.cpu / max(1, result.rounds):.0f} ns of CPU a round",
    ]
