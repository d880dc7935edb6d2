"""The counting commands: ``eor``, ``count``, ``insurance-index``, ``index`` and ``truecount``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from bjcalc import (
    InvalidHandError,
    InvalidRulesError,
    Rules,
    parse_cards,
)
from bjcalc.cli.common import (
    _TABLE_FORMAT,
    CLASSIC,
    EXACT,
    REMOVED,
    _penetration,
    _progress,
    _read_chart,
    _refuse_both,
    _refuse_large_exact,
    _rule_options_but_insurance,
    _store_path,
    _task_progress,
    _with_counter,
    build_counter,
    build_rules,
    cli,
    count_options,
    echo_as,
    pop_count,
    rule_options,
    seen_cards,
)

# the true count's divisor, as index, truecount and simulate take it
_DIVISOR = click.option("--divisor", type=click.Choice(["exact", "half-deck", "full-deck"]), default="exact",
                        help="Decks not seen for the true count: to the card (exact), the half deck or the deck.")


# -- effects of removal and count systems -------------------------------------------------------

_EOR_STRATEGY = click.option(
    "--strategy", type=click.Choice(["chart", "basic", "cd"]), default=None,
    help="How every shoe is played: chart (default: the starting shoe's basic-strategy chart, held "
    "fixed), basic (re-derived for each shoe) or cd (composition-dependent, split hands by --post-split).")
_EOR_CHART = click.option("--chart", "chart_file", default=None, metavar="FILE",
                          help="Hold this chart fixed (JSON or CSV as 'bjcalc chart' writes).")
_POST_SPLIT = click.option("--post-split", type=click.Choice(["cdz-", "cdp1", "cdp"]), default=None,
                           help="With --strategy cd: split hands CDZ- (default), CDP1 or CDP (the plays' split "
                           "EVs too).")
_PLAYS = click.option("--play", "plays", multiple=True, metavar="'HAND v UP ACTION ACTION'",
                      help="A decision, e.g. 'T,6 v T stand hit': the first play's EV minus the second's "
                      "(actions stand, hit, double, split, surrender). HAND is cards (T,6; A7; a pair: 8,8) or a "
                      "total: 16 or h16 (hard 16: every two-card hard 16 but a pair, T,6 and 9,7, each weighted "
                      "by its chance), s18 or soft18 (A,7). Repeatable.")
_WORKERS = click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
                        help="Processes for the analyses (default: one per core).")
def _task_options(when: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--scheduler`` and ``--store``, the task layer's options (``when``: the help's opening
    condition, e.g. ``"With --penetration: "``)."""
    def sentence(text: str) -> str:
        return text[0].upper() + text[1:]

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.option("--store", "store_path", default=None, metavar="FILE",
                               help=sentence(f"{when}SQLite file of results, one row per analysis: a run resumes "
                                             "where it stopped (default: truecount.sqlite in bjcalc's cache; 'none': "
                                             "memory only)."))(command)
        return click.option("--scheduler", default=None, metavar="ADDRESS",
                            help=sentence(f"{when}run the analyses on a Dask distributed cluster (pip install "
                                          "'bjcalc[dask]'), e.g. tcp://10.0.0.5:8786."))(command)
    return apply




def _eor_arguments(strategy: str | None, chart_file: str | None, post_split: str | None, classic: bool, exact: bool,
                   options: dict[str, Any]) -> tuple[Rules, dict[str, Any]]:
    """The rules and the keyword arguments of :func:`bjcalc.eor_table` common to ``eor`` and
    ``count``, the options' contradictions refused."""
    if chart_file is not None and strategy not in (None, "chart"):
        _refuse_both(f"--strategy {strategy}", "--chart", "a chart file is held fixed (--strategy chart)")
    if classic and (chart_file is not None or strategy == "cd"):
        _refuse_both("--classic", "--chart" if chart_file is not None else "--strategy cd",
                     "--classic chooses the form of the basic-strategy chart bjcalc builds")
    strategy = strategy or "chart"
    if post_split is not None and strategy != "cd":
        _refuse_both(f"--post-split {post_split}", f"--strategy {strategy}",
                     "a chart plays split hands by the chart; --post-split is for --strategy cd")
    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "eor and count")
    chart = _read_chart(rules, chart_file) if chart_file is not None else None
    return rules, {"strategy": strategy, "chart": chart, "post_split": post_split or "cdz-",
                   "two_card_plays": not classic}


@cli.command()
@_rule_options_but_insurance
@REMOVED
@count_options
@_EOR_STRATEGY
@_EOR_CHART
@_POST_SPLIT
@_PLAYS
@click.option("--insurance", "insurance_row", is_flag=True,
              help="Add insurance's EORs (per unit of insurance bet, off the top with an ace up).")
@_WORKERS
@_TABLE_FORMAT
@EXACT
@CLASSIC
def eor(strategy: str | None, chart_file: str | None, post_split: str | None, plays: tuple[str, ...],
        insurance_row: bool, workers: int | None, fmt: str, exact: bool, classic: bool, **options: Any) -> None:
    """Effects of removal: the round's EV after taking one card of each rank out of the shoe,
    minus the EV before (in % of the initial bet), for a stated strategy; and each --play's.
    With --count: on the counter's shoe, the EV once one more card of the rank is seen (cards
    seen + 1, running count + its tag) minus the EV before; for a --play or --insurance the
    count and cards seen are the counter's at the decision, its hand and up card among them."""
    from bjcalc import eor_table
    from bjcalc.render.csvfile import eor_csv
    from bjcalc.render.jsondoc import eor_json
    from bjcalc.render.markdown import eor_markdown
    from bjcalc.render.text import eor_text

    count = pop_count(options)
    rules, arguments = _eor_arguments(strategy, chart_file, post_split, classic, exact, options)
    counter = build_counter(count, rules)
    with _progress("effects of removal") as step:
        table = eor_table(rules, plays=plays, insurance=insurance_row, exact=exact, workers=workers, progress=step,
                          shoe=None if counter is None else counter.for_analysis(), **arguments)
    result, rows, fixed_chart = table.removal, list(table.plays), table.fixed_chart
    seen = seen_cards(options["removed"])
    line = None if counter is None else counter.describe()
    echo_as(fmt, json=lambda: eor_json(result, rows, table.play_strategy, exact, counter),
            csv=lambda: eor_csv(result, rows, exact),
            markdown=lambda: eor_markdown(result, rows, table.play_strategy, exact, fixed_chart, seen, counter=line),
            text=lambda: _with_counter(eor_text(result, rows, table.play_strategy, exact, fixed_chart, seen), counter))


@cli.command()
@_rule_options_but_insurance
@REMOVED
@click.option("--system", "system_names", multiple=True, metavar="NAME",
              help="A built-in count (hi-lo, ko, hi-opt-i, hi-opt-ii, omega-ii, zen, wong-halves, uston-apc); "
              "repeatable. Default: all of them (or only the --tags given).")
@click.option("--tags", "tag_texts", multiple=True, metavar="T2,...,TT,TA",
              help="A count of your own: ten tags for 2,3,4,5,6,7,8,9,T,A, e.g. '1,1,1,1,1,0,0,0,-1,-1'. "
              "Repeatable.")
@_EOR_STRATEGY
@_EOR_CHART
@_POST_SPLIT
@_PLAYS
@click.option("--insurance", "insurance_row", is_flag=True, help="Each system's insurance index.")
@click.option("--pe", "with_pe", is_flag=True,
              help="Also each system's playing efficiency (Griffin's normal-model estimate, docs/counting.md): the "
              "first play of every two-card hand on the full shoe and on the shoe without each rank, 11 more "
              "analyses (a few seconds for one deck, about 6 s for a shoe).")
@click.option("--exact-index", "exact_index", is_flag=True,
              help="Also each --play's (and with --insurance, insurance's) exact index beside its linear estimate: "
              "where the EVs cross on the exact model of the counter's shoe (as 'bjcalc index'), at --cards-seen "
              "or --depth (default mid-shoe); one analysis per running count and system (seconds for "
              "hi-lo, ko, hi-opt-i; minutes for multi-level counts on 6-8 decks).")
@click.option("--cards-seen", "cards_seen", default=None, type=int, metavar="N",
              help="With --exact-index: cards dealt before the round (default: the shoe's cards / 2).")
@click.option("--depth", default=None, metavar="DECKS", help="With --exact-index: the depth in decks dealt.")
@_WORKERS
@_TABLE_FORMAT
@EXACT
@CLASSIC
def count(system_names: tuple[str, ...], tag_texts: tuple[str, ...], strategy: str | None, chart_file: str | None,
          post_split: str | None, plays: tuple[str, ...], insurance_row: bool, with_pe: bool, exact_index: bool,
          cards_seen: int | None, depth: str | None, workers: int | None, fmt: str, exact: bool, classic: bool,
          **options: Any) -> None:
    """Count systems measured on the game's exact EORs: betting and insurance correlation, the
    advantage per true count and each --play's index (linear estimates); with --pe, the
    playing efficiency (a normal-model estimate); with --exact-index, each play's exact index
    beside its estimate. With --exact, the advantage per true count and the linear indices as
    exact fractions too."""
    from bjcalc import CountSystem, count_table, depth_of, parse_tags
    from bjcalc.render.csvfile import count_csv
    from bjcalc.render.jsondoc import count_json
    from bjcalc.render.markdown import count_markdown
    from bjcalc.render.text import count_text

    systems: list[CountSystem | str] = list(system_names)
    systems += [CountSystem("custom" if len(tag_texts) == 1 else f"custom {i}", parse_tags(text))
                for i, text in enumerate(tag_texts, 1)]
    for name in system_names:
        CountSystem.named(name)  # an unknown name is refused before the rules are built
    if not exact_index and (cards_seen is not None or depth is not None):
        raise click.UsageError(f"{'--cards-seen' if cards_seen is not None else '--depth'} is the depth of "
                               "--exact-index: give --exact-index too")
    if exact_index and not plays and not insurance_row:
        raise click.UsageError("--exact-index: give the plays to index (--play) or --insurance")
    if cards_seen is not None and depth is not None:
        _refuse_both("--cards-seen", "--depth", "give the depth once")
    rules, arguments = _eor_arguments(strategy, chart_file, post_split, classic, exact, options)
    index_depth = None
    if exact_index:
        if rules.infinite:
            raise InvalidRulesError("--exact-index: an infinite deck has no count (the cards are drawn with "
                                    "replacement)")
        index_depth = depth_of(cards_seen if cards_seen is not None or depth is not None
                               else sum(rules.shoe_counts) // 2, depth, rules)
    with _progress("effects of removal") as step:
        table = count_table(rules, systems, plays=plays, insurance=insurance_row, playing_efficiency=with_pe,
                            exact=exact, workers=workers, progress=step, exact_index_depth=index_depth, **arguments)
    eor, rows, figures, indices = table.eor.removal, list(table.eor.plays), list(table.figures), list(table.indices)
    seen = seen_cards(options["removed"])
    found = table.exact_indices
    echo_as(fmt, json=lambda: count_json(eor, rows, table.eor.play_strategy, figures, indices, exact, table.pe_model,
                                         found),
            csv=lambda: count_csv(rows, figures, indices, exact, found),
            markdown=lambda: count_markdown(eor, rows, figures, indices, exact, seen, table.pe_model, found),
            text=lambda: count_text(eor, rows, figures, indices, exact, seen, table.pe_model, found))


# -- the counter's shoe (issue 20) ----------------------------------------------------------------


def _cards_left_list(text: str | None) -> tuple[int, ...] | None:
    """``--cards-left``: comma-separated whole numbers, or none for the default depths."""
    if text is None:
        return None
    fields = [f for f in text.replace(" ", ",").split(",") if f]
    if not fields or not all(f.isdigit() for f in fields):
        raise click.BadParameter(f"must be whole numbers separated by commas, not {text!r}", param_hint="--cards-left")
    return tuple(int(f) for f in fields)


def _one_system(system_name: str | None, tag_text: str | None) -> Any:
    """The count of ``--count`` or ``--tags`` (default hi-lo), refusing both."""
    from bjcalc import CountSystem, parse_tags

    if system_name is not None and tag_text is not None:
        _refuse_both(f"--count {system_name}", f"--tags {tag_text}", "give one count")
    return (CountSystem("custom", parse_tags(tag_text)) if tag_text is not None
            else CountSystem.named(system_name or "hi-lo"))


def _irc(irc: str) -> Any:
    """``--irc`` as a Fraction."""
    from fractions import Fraction

    try:
        return Fraction(irc.strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"must be a number such as -4 or 1/2, not {irc!r}", param_hint="--irc") from None


def _one_count(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--count NAME`` or ``--tags T2,...,TA`` (default hi-lo), for the commands of one count."""
    command = click.option("--tags", "tag_text", default=None, metavar="T2,...,TT,TA",
                           help="A count of your own: ten tags for 2,3,4,5,6,7,8,9,T,A, e.g. "
                           "'1,1,1,1,1,0,0,0,-1,-1'.")(command)
    return click.option("--count", "system_name", default=None, metavar="NAME",
                        help="A built-in count (hi-lo, ko, hi-opt-i, hi-opt-ii, omega-ii, zen, wong-halves, "
                        "uston-apc); default hi-lo.")(command)


@cli.command("insurance-index")
@rule_options
@_one_count
@click.option("--hand", default=None, metavar="CARDS",
              help="The player's two cards, seen and counted with the dealer's ace (default: none, only the ace).")
@click.option("--irc", default="0", metavar="N",
              help="Initial running count (unbalanced counts such as KO; default 0: a balanced count starts at 0).")
@click.option("--cards-left", "cards_left_text", default=None, metavar="N,N,...",
              help="Depths (cards not yet seen); default every half deck.")
@_TABLE_FORMAT
@EXACT
def insurance_index(system_name: str | None, tag_text: str | None, hand: str | None, irc: str,
                    cards_left_text: str | None, fmt: str, exact: bool, **options: Any) -> None:
    """The running count at which insurance turns positive, by cards left, for a hand against
    the dealer's ace: exact, from the counter's shoe (what a counter knows: the count, the cards
    seen and the table; docs/countshoe.md)."""

    from bjcalc import insurance_table
    from bjcalc.render.csvfile import insurance_csv
    from bjcalc.render.jsondoc import insurance_json
    from bjcalc.render.markdown import insurance_markdown
    from bjcalc.render.text import insurance_text

    system = _one_system(system_name, tag_text)
    start = _irc(irc)
    rules = build_rules(**options)
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no count: the cards are drawn with replacement")
    cards = None
    if hand is not None:
        cards = parse_cards(hand)
        if len(cards) != 2:
            raise InvalidHandError(f"--hand must be two cards, not {hand!r}")
    table = insurance_table(rules.shoe_counts, system.tags, cards or (), _cards_left_list(cards_left_text), start,
                            system.name)
    echo_as(fmt, json=lambda: insurance_json(table, rules, exact), csv=lambda: insurance_csv(table, exact),
            markdown=lambda: insurance_markdown(table, rules, exact), text=lambda: insurance_text(table, rules, exact))


@cli.command("index")
@rule_options
@_one_count
@click.option("--cards-seen", "cards_seen", type=int, default=None, metavar="N",
              help="The depth: cards dealt before the round (default: the shoe's cards / 2).")
@click.option("--depth", "depth", default=None, metavar="DECKS", help="The depth in decks dealt before the round.")
@click.option("--penetration", default=None, metavar="P",
              help="Instead of one depth: every play's index averaged over the rounds of the shoe dealt to the cut "
              "card at share P (e.g. 0.75), each (depth, running count) weighted by how often a round starts there "
              "(as bjcalc truecount places rounds), pooled by true count.")
@click.option("--placement", type=click.Choice(["chain", "dealt", "renewal", "spaced"]), default=None,
              help="With --penetration: where rounds start along the shoe (docs/truecount.md); default as bjcalc "
              "truecount (chain where it can be followed, else renewal). dealt: the chain with each round's cards "
              "dealt without replacement (one seat; about a minute more at split to 4).")
@click.option("--play", "plays", multiple=True, metavar="'HAND v UP PLAY INSTEAD'",
              help="A play of your own, e.g. '16 v T stand hit' or 'A,7 v 2 double stand' (the deviation first); "
              "repeatable. Default: the Illustrious 18 and, with late surrender, the Fab 4.")
@click.option("--all", "every_play", is_flag=True,
              help="Every two-card hand against every up card whose best play the count changes, as a chart: "
              "a grid per hard totals, soft totals and pairs, and the list of every change.")
@_DIVISOR
@click.option("--rounding", type=click.Choice(["floor", "truncate", "round", "none"]), default="floor",
              help="How the true count is rounded before comparing with the index (floor: Blackjack Attack).")
@_WORKERS
@_task_options("With --penetration: ")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]), default="text",
              help="Output format (json: docs/json.md; html: one self-contained page).")
@EXACT
def index(system_name: str | None, tag_text: str | None, cards_seen: int | None, depth: str | None,
          penetration: str | None, placement: str | None, plays: tuple[str, ...], every_play: bool, divisor: str,
          rounding: str, workers: int | None, scheduler: str | None, store_path: str | None, fmt: str, exact: bool,
          **options: Any) -> None:
    """Index numbers: the true count at which each play beats the one it replaces, for a count
    and rules, at one depth or (--penetration) averaged over the shoe, from the exact model of
    the counter's shoe (docs/countshoe.md; computed in floating point). --all: every play the
    count changes at one depth, as a chart."""
    from bjcalc import TaskStore, all_indices, convention_of, depth_of, index_table, play_from_text, shoe_index_table
    from bjcalc.render.csvfile import all_index_csv, index_csv
    from bjcalc.render.html import all_index_html, index_html
    from bjcalc.render.jsondoc import index_json
    from bjcalc.render.markdown import all_index_markdown, index_markdown
    from bjcalc.render.text import all_index_text, index_text

    system = _one_system(system_name, tag_text)
    if cards_seen is not None and depth is not None:
        _refuse_both("--cards-seen", "--depth", "give the depth once")
    if every_play and plays:
        _refuse_both("--all", "--play", "--all indexes every hand, --play the plays named")
    if every_play and penetration is not None:
        _refuse_both("--all", "--penetration", "--all indexes every hand at one depth (--cards-seen or --depth)")
    if penetration is not None and (cards_seen is not None or depth is not None):
        _refuse_both("--penetration", "--cards-seen" if cards_seen is not None else "--depth",
                     "averaged over the shoe, or at one depth")
    if penetration is None:
        for name, given in (("--placement", placement), ("--scheduler", scheduler), ("--store", store_path)):
            if given is not None:
                raise click.UsageError(f"{name} goes with --penetration (the average over the shoe): give it too")
    pen = None if penetration is None else _penetration(penetration)
    rules = build_rules(**options)
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no count: the cards are drawn with replacement")
    _refuse_large_exact(rules, exact, "index")
    asked = [play_from_text(p) for p in plays] or None
    table: Any
    if pen is not None:
        with TaskStore(_store_path(store_path)) as store, _task_progress("index analyses") as steps:
            table = shoe_index_table(rules, system.name, system.tags, pen, asked, convention_of(divisor, rounding),
                                     placement=placement, store=store, workers=workers, scheduler=scheduler,
                                     progress=steps, exact=exact)
    else:
        if cards_seen is None and depth is None:
            cards_seen = sum(rules.shoe_counts) // 2
        seen = depth_of(cards_seen, depth, rules)
        if every_play:
            with _progress("index numbers, every hand") as step:
                table = all_indices(rules, system.name, system.tags, seen, convention_of(divisor, rounding),
                                    workers=workers, progress=step, exact=exact)
        else:
            with _progress("index numbers") as step:
                table = index_table(rules, system.name, system.tags, seen, asked, convention_of(divisor, rounding),
                                    workers=workers, progress=step, exact=exact)
    csv_of, markdown_of, html_of, text_of = ((all_index_csv, all_index_markdown, all_index_html, all_index_text)
                                             if every_play else (index_csv, index_markdown, index_html, index_text))
    echo_as(fmt, json=lambda: index_json(table, rules, exact), csv=lambda: csv_of(table),
            markdown=lambda: markdown_of(table, rules), html=lambda: html_of(table, rules),
            text=lambda: text_of(table, rules))


# the options truecount and simulate share: where the shoe starts and ends, and the bets
def _start_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--irc and --penetration."""
    command = click.option("--penetration", default="0.75", metavar="P",
                           help="Share of the shoe dealt before the cut card (default 0.75): a round starts while "
                           "fewer cards than that have been dealt.")(command)
    return click.option("--irc", default="0", metavar="N",
                        help="Initial running count (unbalanced counts such as KO; default 0: a balanced count "
                        "starts at 0).")(command)


def _bet_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--spread, --wong-in, --wong-out and --bankroll."""
    command = click.option("--bankroll", type=float, default=None, metavar="UNITS",
                           help="Bankroll for the risk of ruin, in units.")(command)
    command = click.option("--wong-out", type=int, default=None, metavar="TC",
                           help="Leave the shoe at the first round whose true count is below TC.")(command)
    command = click.option("--wong-in", type=int, default=None, metavar="TC",
                           help="Sit out until the true count reaches TC.")(command)
    return click.option("--spread", "spread_text", default="any:1", metavar="TC:BET,...",
                        help="Bets by true count, e.g. '<=1:1,2:2,3:4,4:8,>=5:12' (default: flat, 'any:1').")(command)


# -- what a count and a spread are worth (issue 21) -------------------------------------------------


@cli.command("truecount")
@rule_options
@_one_count
@_start_options
@click.option("--seats", type=click.IntRange(1, 7), default=1, help="Hands at the table (they place the rounds).")
@_DIVISOR
@click.option("--rounding", type=click.Choice(["floor", "truncate", "round", "none"]), default="floor",
              help="How the true count is rounded (floor: Blackjack Attack).")
@click.option("--strategy", type=click.Choice(["basic", "indices", "cd"]), default="indices",
              help="The play behind the spread's figures (default: basic strategy with the indices).")
@_bet_options
@click.option("--optimal-spread", type=float, default=None, metavar="MAX",
              help="Also the spread with the largest SCORE whose bets run from 1 to MAX (MAX from 1 to 100).")
@click.option("--indices", type=click.Choice(["computed", "published"]), default="computed",
              help="The index plays: computed by bjcalc index at the middle round's depth, or the common Hi-Lo "
              "list (default computed).")
@click.option("--placement", type=click.Choice(["chain", "dealt", "renewal", "spaced"]), default=None,
              help="Where rounds start along the shoe (docs/truecount.md); default chain where it can be followed, "
              "else renewal (spaced when wonging out; wonging out needs chain, dealt or spaced). dealt: the chain "
              "with each round's cards dealt without replacement (one seat; closest to simulate; a minute or more "
              "of extra work at split to 4).")
@click.option("--moments", type=click.Choice(["shoe", "state"]), default="shoe",
              help="One round's E[X^2] behind SD, SCORE, N0 and risk of ruin: the full shoe's at every count (shoe, "
              "modelled) or each state's own, with its plays and insurance (state: exact per state, and far costlier; "
              "docs/truecount.md).")
@click.option("--tail", type=float, default=1e-9, show_default=True,
              help="At each depth, the least likely running counts, together at most this share, are not analysed "
              "(their effect is bounded and printed); 0: every one.")
@_WORKERS
@_task_options()
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]), default="text",
              help="Output format (json: docs/json.md; html: one self-contained page with plots).")
@EXACT
def truecount_command(system_name: str | None, tag_text: str | None, irc: str, penetration: str, seats: int,
                      divisor: str, rounding: str, strategy: str, spread_text: str, wong_in: int | None,
                      wong_out: int | None, bankroll: float | None, optimal_spread: float | None,
                      indices: str, placement: str | None, moments: str, tail: float,
                      workers: int | None, scheduler: str | None, store_path: str | None, fmt: str, exact: bool,
                      **options: Any) -> None:
    """What a count and a bet spread are worth: how often each true count comes, the advantage
    there (basic strategy, with indices, CD), win rate, SD, DI, SCORE, N0 and risk of ruin, from
    exact counter's-shoe analyses (docs/truecount.md says what is exact and what is modelled)."""
    from fractions import Fraction

    from bjcalc import Spread, TaskStore, convention_of, truecount_analysis
    from bjcalc.render.csvfile import truecount_csv
    from bjcalc.render.html import truecount_html
    from bjcalc.render.jsondoc import truecount_json
    from bjcalc.render.markdown import truecount_markdown
    from bjcalc.render.text import truecount_text

    system = _one_system(system_name, tag_text)
    start = _irc(irc)
    try:
        pen = Fraction(penetration.strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"must be a share such as 0.75 or 3/4, not {penetration!r}",
                                 param_hint="--penetration") from None
    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "truecount")
    spread = Spread.parse(spread_text)
    with TaskStore(_store_path(store_path)) as store, _task_progress("truecount analyses") as step:
        result = truecount_analysis(rules, system.name, system.tags, penetration=pen, seats=seats,
                           convention=convention_of(divisor, rounding), strategy=strategy, spread=spread,
                           wong_in=wong_in, wong_out=wong_out, bankroll=bankroll, optimal_spread=optimal_spread,
                           irc=start, tail=tail, exact=exact, store=store, workers=workers, scheduler=scheduler,
                           progress=step, indices=indices, placement=placement, moments=moments)
    echo_as(fmt, json=lambda: truecount_json(result, rules), csv=lambda: truecount_csv(result),
            markdown=lambda: truecount_markdown(result, rules), html=lambda: truecount_html(result, rules),
            text=lambda: truecount_text(result, rules))


# -- the game dealt: a shuffled-shoe simulator (issue 44) --------------------------------------------


def _whole_number(text: str, option: str) -> int:
    """A whole number as people type a large one: ``100000000``, ``1e8``, ``1_000_000``."""
    from decimal import Decimal, InvalidOperation

    try:
        value = Decimal(text.strip().replace("_", ""))
        if value.is_finite() and value == value.to_integral_value() and abs(value) < Decimal(10) ** 30:
            return int(value)
    except InvalidOperation:
        pass
    raise click.BadParameter(f"must be a whole number such as 100000000 or 1e8, not {text!r}", param_hint=option)


@cli.command("simulate")
@rule_options
@_one_count
@_start_options
@click.option("--seats", type=click.IntRange(1, 7), default=1,
              help="Hands at the table; seat 0 is the counter's, the others play the chart.")
@_DIVISOR
@click.option("--rounding", type=click.Choice(["floor", "truncate", "round", "none"]), default="floor",
              help="How the true count is rounded (floor: Blackjack Attack; none: the table by its floor).")
@click.option("--strategy", type=click.Choice(["basic", "indices", "cd"]), default="indices",
              help="The counter's play (default: basic strategy with the indices; cd is not simulated).")
@_bet_options
@click.option("--indices", type=click.Choice(["computed", "published"]), default="computed",
              help="The index plays: computed by bjcalc index at the middle round's depth (as bjcalc truecount; "
              "kept in --store), or the common Hi-Lo list (default computed).")
@click.option("--rounds", "rounds_text", default="1e7", show_default=True, metavar="N",
              help="Rounds to deal, e.g. 100000000 or 1e8 (at least: each block of rounds finishes its last shoe).")
@click.option("--seed", type=int, default=0, show_default=True, metavar="S",
              help="The shuffles' seed: the same seed and rounds deal the same cards on any number of workers.")
@_WORKERS
@click.option("--store", "store_path", default=None, metavar="FILE",
              help="SQLite file where the computed index plays are kept, as bjcalc truecount keeps them (default: "
              "truecount.sqlite in bjcalc's cache; 'none': memory only).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Deal on a Dask distributed cluster (pip install 'bjcalc[dask]'), e.g. tcp://10.0.0.5:8786.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]), default="text",
              help="Output format (json: docs/json.md; html: one self-contained page with plots).")
def simulate_command(system_name: str | None, tag_text: str | None, irc: str, penetration: str, seats: int,
                     divisor: str, rounding: str, strategy: str, spread_text: str, wong_in: int | None,
                     wong_out: int | None, bankroll: float | None, indices: str, rounds_text: str, seed: int,
                     workers: int | None, store_path: str | None, scheduler: str | None, fmt: str,
                     **options: Any) -> None:
    """Deal the game bjcalc truecount models from shuffled shoes and measure its figures, each with
    its standard error: rounds per shoe, the share of rounds by depth, how often each true count
    comes and the advantage there, win rate, SD, DI, SCORE, N0 and risk of ruin (docs/truecount.md,
    "bjcalc simulate"). Simulated, not exact."""
    from bjcalc import Spread, TaskStore, convention_of, simulate
    from bjcalc.render.csvfile import simulate_csv
    from bjcalc.render.html import simulate_html
    from bjcalc.render.jsondoc import simulate_json
    from bjcalc.render.markdown import simulate_markdown
    from bjcalc.render.text import simulate_text

    system = _one_system(system_name, tag_text)
    start = _irc(irc)
    pen = _penetration(penetration)
    rounds = _whole_number(rounds_text, "--rounds")
    rules = build_rules(**options)
    spread = Spread.parse(spread_text)
    with TaskStore(_store_path(store_path)) as store, _task_progress("simulate, blocks of rounds") as step:
        result = simulate(rules, system.name, system.tags, rounds=rounds, seed=seed, penetration=pen, seats=seats,
                          convention=convention_of(divisor, rounding), strategy=strategy, spread=spread,
                          wong_in=wong_in, wong_out=wong_out, bankroll=bankroll, irc=start, indices=indices,
                          store=store, workers=workers, scheduler=scheduler, progress=step)
    echo_as(fmt, json=lambda: simulate_json(result, rules), csv=lambda: simulate_csv(result),
            markdown=lambda: simulate_markdown(result, rules), html=lambda: simulate_html(result, rules),
            text=lambda: simulate_text(result, rules))
