"""The commands on one game's analysis: ``dealer``, ``hand``, ``chart``, ``edge``, ``matrix``
and ``betbehind``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from bjcalc.cli.common import (
    _TABLE_FORMAT,
    CLASSIC,
    EXACT,
    FORMAT,
    REMOVED,
    SD,
    _peek_source,
    _progress,
    _read_chart,
    _refuse_both,
    _refuse_large_exact,
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

if TYPE_CHECKING:
    from bjcalc import Rules


def _counted_rules(options: dict[str, Any], exact: bool, sd: bool) -> tuple[Rules, Any, Any]:
    """The rules of the rule and count options, the counter (or None) and its shoe for the
    analysis (or None); with --sd, an exact shoe too large for the moments refused first."""
    count = pop_count(options)
    rules = build_rules(**options)
    if sd:
        _refuse_large_exact(rules, exact, "--sd")
    counter = build_counter(count, rules)
    return rules, counter, None if counter is None else counter.for_analysis()


@cli.command()
@click.argument("up", required=False)
@click.option("--peeked", is_flag=True, help="Condition on no dealer blackjack (after the peek).")
@rule_options
@REMOVED
@count_options
@FORMAT
@EXACT
def dealer(up: str | None, peeked: bool, fmt: str, exact: bool, **options: Any) -> None:
    """Dealer final-outcome probabilities for every up card, or for UP."""
    from bjcalc import Analysis, Rank, parse_card
    from bjcalc.render.jsondoc import dealer_json
    from bjcalc.render.text import dealer_text

    count = pop_count(options)
    rules = build_rules(**options)
    if peeked and not rules.peek:
        _refuse_both("--peeked", _peek_source(options.get("peek"), options.get("game_name")),
                     "a dealer with no hole card does not peek")
    counter = build_counter(count, rules, up=up)
    analysis = Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis())
    ups = [parse_card(up)] if up is not None else [u for u in Rank if rules.infinite or rules.shoe_counts[u.index]]
    if counter is not None:  # up cards the counter's shoe cannot deal have no table
        ups = [u for u in ups if counter.for_analysis().draw_probability([u])]
    tables = [analysis.dealer(u, peeked=peeked) for u in ups]
    if fmt == "json":
        click.echo(dealer_json(tables, rules, peeked, exact, counter))
    else:
        click.echo(_with_counter(dealer_text(tables, rules, peeked, exact, seen_cards(options["removed"])), counter))


@cli.command()
@click.argument("cards")
@click.option("--up", required=True, metavar="CARD", help="The dealer's up card.")
@rule_options
@REMOVED
@count_options
@FORMAT
@EXACT
def hand(cards: str, up: str, fmt: str, exact: bool, **options: Any) -> None:
    """EV of every action for the hand CARDS (e.g. T6, 10,6, a7) against --up, best first."""
    from bjcalc import Analysis
    from bjcalc.render.jsondoc import hand_json
    from bjcalc.render.text import hand_text

    count = pop_count(options)
    rules = build_rules(**options)
    counter = build_counter(count, rules, hand=cards, up=up)
    result = Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis()).hand(cards, up)
    if fmt == "json":
        click.echo(hand_json(result, rules, exact, counter))
    else:
        click.echo(_with_counter(hand_text(result, rules, exact, seen_cards(options["removed"])), counter))


@cli.command()
@rule_options
@REMOVED
@count_options
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]),
              default="text", help="Output format (html: one self-contained page; csv: the file --chart reads).")
@EXACT
@SD
@CLASSIC
def chart(fmt: str, exact: bool, sd: bool, classic: bool, **options: Any) -> None:
    """The basic-strategy chart (total-dependent) for the game, its exact round EV and the
    composition-dependent exceptions. With no options: the default game. To save a chart to
    edit and evaluate: bjcalc chart --format csv > my-chart.csv; bjcalc edge --chart my-chart.csv."""
    from bjcalc import Analysis
    from bjcalc.render.csvfile import chart_csv
    from bjcalc.render.html import chart_html
    from bjcalc.render.jsondoc import chart_json
    from bjcalc.render.markdown import chart_markdown
    from bjcalc.render.text import chart_text

    rules, counter, shoe = _counted_rules(options, exact, sd)
    analysis = Analysis(rules, exact=exact, shoe=shoe)
    steps = 4 if sd else 3
    with _progress("chart", after=1.0) as step:
        table = analysis.chart(two_card_plays=not classic)
        step("the chart", steps)
        result = analysis.evaluate(table).round
        step("its round", steps)
        unusual = analysis.exceptions(table)
        step("CD exceptions", steps)
        variance = analysis.variance(table) if sd else None
        if sd:
            step("the spread", steps)
    seen = seen_cards(options["removed"])
    line = None if counter is None else counter.describe()
    echo_as(fmt, json=lambda: chart_json(table, result, unusual, exact, variance=variance, counter=counter),
            csv=lambda: chart_csv(table),
            markdown=lambda: chart_markdown(table, result, unusual, exact, seen, counter=line),
            html=lambda: chart_html(table, result, unusual, seen, counter=line),
            text=lambda: _with_counter(chart_text(table, result, unusual, exact, colour=True, seen=seen), counter))


@cli.command()
@rule_options
@REMOVED
@count_options
@click.option("--strategy", type=click.Choice(["cdz", "cdz-", "cdp1", "cdp", "basic"]), default=None,
              help="CD play with split hands CDZ- (default), CDP1 or CDP; or the basic-strategy chart.")
@click.option("--chart", "chart_file", default=None, metavar="FILE",
              help="Evaluate this chart (JSON or CSV as 'bjcalc chart' writes: bjcalc chart --format csv > "
              "my-chart.csv) and list the cost of each of its deviations from the optimal chart.")
@FORMAT
@EXACT
@SD
@CLASSIC
def edge(strategy: str | None, chart_file: str | None, fmt: str, exact: bool, sd: bool, classic: bool,
         **options: Any) -> None:
    """The house edge of the round (unconditional) and its breakdown by up card."""
    from bjcalc import Analysis
    from bjcalc.render.jsondoc import edge_json
    from bjcalc.render.text import deviations_text, edge_text

    if strategy is not None and chart_file is not None:
        _refuse_both(f"--strategy {strategy}", "--chart", "the chart file is the strategy")
    if classic and strategy != "basic":
        _refuse_both("--classic", "--chart" if chart_file is not None else f"--strategy {strategy or 'cdz'}",
                     "--classic chooses the basic-strategy chart's form (--strategy basic)")
    strategy = strategy or "cdz"
    rules, counter, shoe = _counted_rules(options, exact, sd)
    seen = seen_cards(options["removed"])
    if chart_file is not None:
        chart = _read_chart(rules, chart_file)
        analysis = Analysis(rules, exact=exact, shoe=shoe)
        costs = analysis.deviations(chart)
        result = analysis.evaluate(chart).round
        variance = analysis.variance(chart) if sd else None
        if fmt == "json":
            click.echo(edge_json(result, rules, exact, variance, costs, counter=counter))
        else:
            click.echo(_with_counter(edge_text(result, rules, exact, variance=variance, seen=seen) + "\n\n"
                                     + deviations_text(costs), counter))
        return
    with _progress("house edge") as step:
        if strategy == "basic":
            analysis = Analysis(rules, exact=exact, shoe=shoe)
            table = analysis.chart(two_card_plays=not classic)
            result = analysis.evaluate(table).round
        else:
            analysis = Analysis(rules, exact=exact, post_split=strategy, shoe=shoe)
            result = analysis.round()
        variance = None
        if sd:  # a bar for the two steps, naming the one under way
            step("its spread", 2)
            variance = analysis.variance(table) if strategy == "basic" else analysis.variance()
            step("done", 2)
    if fmt == "json":
        click.echo(edge_json(result, rules, exact, variance, counter=counter))
    else:
        click.echo(_with_counter(edge_text(result, rules, exact, variance=variance, seen=seen), counter))


@cli.command()
@rule_options
@REMOVED
@count_options
@click.option("--seated", type=click.Choice(["optimal", "basic", "never-bust", "mimic-dealer"]),
              default=None, help="How the seated player plays: optimal (default), ... (or give --chart).")
@click.option("--chart", "chart_file", default=None, metavar="FILE",
              help="The seated player follows this chart (JSON or CSV as 'bjcalc chart' writes).")
@FORMAT
@EXACT
@SD
def betbehind(seated: str | None, chart_file: str | None, fmt: str, exact: bool, sd: bool, **options: Any) -> None:
    """EV of a Bet Behind, following everything and when doubles and splits cannot be followed."""
    if seated is not None and chart_file is not None:
        _refuse_both(f"--seated {seated}", "--chart", "the seated player follows the chart file")
    seated = seated or "optimal"

    from bjcalc import Analysis, simple_policy
    from bjcalc.render.jsondoc import betbehind_json
    from bjcalc.render.text import betbehind_text

    rules, counter, shoe = _counted_rules(options, exact, sd)
    analysis = Analysis(rules, exact=exact, shoe=shoe)
    if chart_file is not None:
        chart = _read_chart(rules, chart_file)
    elif seated == "basic":
        chart = analysis.chart()
    elif seated == "optimal":
        chart = None
    else:
        chart = simple_policy(rules, seated)
    with _progress("bet behind", after=1.0) as step:
        result = analysis.bet_behind(chart)
        step("bet behind", 2 if sd else 1)
        variance = analysis.variance(chart) if sd else None
        if sd:
            step("the seated player's spread", 2)
    if fmt == "json":
        click.echo(betbehind_json(result, rules, exact, variance, counter=counter))
    else:
        click.echo(_with_counter(betbehind_text(result, rules, exact, seen_cards(options["removed"]), variance),
                                 counter))


@cli.command()
@rule_options
@REMOVED
@count_options
@_TABLE_FORMAT
@EXACT
def matrix(fmt: str, exact: bool, **options: Any) -> None:
    """The whole EV matrix: every two-card hand against every up card, each action's EV (the
    best marked) and frame, P(up card and hand), and the best play's chances of a win, a push
    and a loss (exact; a split's is both hands' total, not computed where it could resplit).
    Also the round's EV with CD play and its win/push/loss over the rounds in which no resplit
    happens."""
    from bjcalc import Analysis, ev_matrix
    from bjcalc.render.csvfile import matrix_csv
    from bjcalc.render.jsondoc import matrix_json
    from bjcalc.render.markdown import matrix_markdown
    from bjcalc.render.text import matrix_text

    count = pop_count(options)
    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "matrix")
    counter = build_counter(count, rules)
    with _progress("matrix") as step:
        result = ev_matrix(Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis()),
                           progress=step)
    seen = seen_cards(options["removed"])
    echo_as(fmt, json=lambda: matrix_json(result, exact, counter=counter), csv=lambda: matrix_csv(result, exact),
            markdown=lambda: matrix_markdown(result, exact, seen,
                                             counter=None if counter is None else counter.describe()),
            text=lambda: _with_counter(matrix_text(result, exact, seen), counter))
